#include "memory/MemoryForecast.h"

#include <algorithm>
#include <utility>

#include "data/Batch.h"

namespace bert {

ParameterCounts countParameters(const BertConfig& m) {
    const std::int64_t h = m.hiddenSize;
    const std::int64_t i = m.intermediateSize;
    ParameterCounts counts;
    counts.embeddings = (m.vocabSize + m.maxPositionEmbeddings + m.typeVocabSize) * h + 2 * h;
    counts.perLayer = 4 * (h * h + h)  // query, key, value, attention output
                      + 2 * h          // attention LayerNorm
                      + (h * i + i)    // intermediate
                      + (i * h + h)    // output
                      + 2 * h;         // output LayerNorm
    counts.head = (h * h + h) + (h * m.numLabels() + m.numLabels());
    return counts;
}

MemoryBreakdown forecastMemory(const BertConfig& model, const TrainingConfig& training,
                               std::size_t longestExample) {
    constexpr std::int64_t kFloatBytes = 4;   // fp32 weights, gradients, moments, LayerNorm inputs
    constexpr std::int64_t kAdamMoments = 2;  // exp_avg and exp_avg_sq
    const auto counts = countParameters(model);
    const std::int64_t layers = model.numHiddenLayers;
    const auto frozenLayers = static_cast<std::int64_t>(training.freezeLayers);

    std::int64_t trainable = counts.head + counts.perLayer * (layers - frozenLayers);
    if (!training.freezeEmbeddings) {
        trainable += counts.embeddings;
    }

    MemoryBreakdown forecast;
    forecast.weights = counts.total(layers) * kFloatBytes;
    forecast.gradients = trainable * kFloatBytes;
    forecast.optimizerState = trainable * kAdamMoments * kFloatBytes;

    // The longest micro-batch decides the peak.
    PaddingOptions padding;
    padding.fixedLength = training.padding == PaddingMode::Fixed ? training.maxLength : 0;
    padding.multipleOf = training.padToMultipleOf;
    const auto length = static_cast<std::int64_t>(
        paddedLength(std::min(longestExample, training.maxLength), padding));
    const auto batch = static_cast<std::int64_t>(training.batchSize);
    const std::int64_t tokens = batch * length;
    const std::int64_t h = model.hiddenSize;
    const std::int64_t heads = model.numAttentionHeads;
    const bool cuda = training.device.rfind("cuda", 0) == 0;
    const bool autocast = training.precision != Precision::Fp32;
    const std::int64_t e = autocast ? 2 : kFloatBytes;  // element of autocast's matmul outputs
    const bool hiddenDropout = model.hiddenDropoutProb > 0.0;
    const bool attentionDropout = model.attentionProbsDropoutProb > 0.0;
    // Dropout keeps a one-byte mask per element: ours on CPU (model/Dropout.h), the fused
    // kernel's on CUDA.
    const std::int64_t mask = hiddenDropout ? 1 : 0;

    // Bytes one layer keeps for backward per token, times hidden size: query/key/value's input
    // (under autocast each linear saves its own low-precision copy), the attention inputs, the
    // context feeding attention.output.dense, two dropout masks, two LayerNorm inputs (fp32), and
    // LayerNorm 1's output (or its copy) feeding the intermediate projection.
    // Attention on CPU takes ATen's math path (a padding mask and dropout rule out the flash
    // kernel), which upcasts half types to fp32 and keeps scaled query, key and value; on CUDA the
    // memory-efficient kernel keeps query, key, value and its output in the autocast dtype.
    const std::int64_t qkvInput = autocast ? 3 * e : kFloatBytes;
    const std::int64_t attentionInputs = cuda ? 4 * e : 3 * kFloatBytes;
    const std::int64_t perTokenHidden = qkvInput + attentionInputs + e + 2 * mask + 2 * kFloatBytes +
                                        (autocast ? e : kFloatBytes);
    // The activation's input and output (2 x intermediate size).
    const std::int64_t perTokenIntermediate = 2 * e;
    // CPU math path: the fp32 softmax output per head and query-key pair, and with attention
    // dropout its one-byte mask and the fp32 dropped weights. CUDA: a log-sum-exp per query.
    const std::int64_t attentionMaps =
        cuda ? batch * heads * length * kFloatBytes
             : batch * heads * length * length * (attentionDropout ? 2 * kFloatBytes + 1 : kFloatBytes);
    const std::int64_t layerActivations =
        tokens * (perTokenHidden * h + perTokenIntermediate * model.intermediateSize) + attentionMaps;
    // Embeddings: the LayerNorm input (fp32) and the dropout mask, only when they train.
    const std::int64_t embeddingActivations =
        training.freezeEmbeddings ? 0 : tokens * h * (kFloatBytes + mask);
    // Autocast caches a low-precision copy of every linear weight for the step.
    const std::int64_t linearWeights = layers * (4 * h * h + 2 * h * model.intermediateSize) + h * h;
    const std::int64_t castCache = autocast ? linearWeights * e : 0;
    const std::int64_t layerInput = tokens * h * kFloatBytes;

    // Layers below the lowest trainable one keep nothing when the embeddings are frozen too.
    const std::int64_t quietLayers = training.freezeEmbeddings ? frozenLayers : 0;
    const std::int64_t activeLayers = layers - quietLayers;
    std::int64_t activations = embeddingActivations + castCache;
    if (training.gradientCheckpointing) {
        // Each layer keeps its input; backward recomputes one layer at a time.
        activations += activeLayers * layerInput + layerActivations;
    } else {
        activations += activeLayers * layerActivations;
    }
    forecast.activations = activations;
    // Gradients that exist at the moment of the peak. With accumulation, all of the earlier
    // micro-batches' gradients coexist with the next one's activations. Under checkpointing the
    // peak comes while backward recomputes the layers, after the head's and encoder's gradients
    // but before the embeddings' (computed last). Otherwise the peak is the start of backward,
    // before any gradient exists; they then replace activations as those are freed.
    const std::int64_t embeddingGradients = training.freezeEmbeddings ? 0 : counts.embeddings * kFloatBytes;
    if (training.accumulationSteps > 1) {
        forecast.peakGradients = forecast.gradients;
    } else if (training.gradientCheckpointing) {
        forecast.peakGradients = forecast.gradients - embeddingGradients;
    } else {
        forecast.peakGradients = counts.head * kFloatBytes;
    }
    return forecast;
}

namespace {

std::string mebibytes(std::int64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

FitAdvice suggestFit(const BertConfig& model, const TrainingConfig& training, std::size_t longestExample,
                     std::int64_t budgetBytes) {
    struct Change {
        const char* what;
        bool (*apply)(TrainingConfig&);  // false when it does not apply (already on)
    };
    static const Change kChanges[] = {
        {"use dynamic padding",
         [](TrainingConfig& c) { return std::exchange(c.padding, PaddingMode::Dynamic) != PaddingMode::Dynamic; }},
        {"turn on gradient checkpointing",
         [](TrainingConfig& c) { return !std::exchange(c.gradientCheckpointing, true); }},
        {"use bf16 mixed precision",
         [](TrainingConfig& c) { return std::exchange(c.precision, Precision::Bf16) == Precision::Fp32; }},
        {"halve the micro-batch and double accumulation",
         [](TrainingConfig& c) {
             if (c.batchSize < 2) {
                 return false;
             }
             c.batchSize /= 2;
             c.accumulationSteps *= 2;
             return true;
         }},
        {"freeze the embeddings", [](TrainingConfig& c) { return !std::exchange(c.freezeEmbeddings, true); }},
        {"halve the max length",
         [](TrainingConfig& c) {
             if (c.maxLength < 32) {
                 return false;
             }
             c.maxLength /= 2;
             return true;
         }},
    };
    auto peakOf = [&](const TrainingConfig& c) { return forecastMemory(model, c, longestExample).total(); };
    for (const auto& change : kChanges) {
        TrainingConfig changed = training;
        if (change.apply(changed) && peakOf(changed) <= budgetBytes) {
            return {true, std::string(change.what) + " (forecast " + mebibytes(peakOf(changed)) + ")", changed};
        }
    }
    // Everything together, micro-batch halved until it fits or reaches 1.
    TrainingConfig all = training;
    std::string applied;
    for (const auto& change : kChanges) {
        if (change.apply(all)) {
            applied += (applied.empty() ? "" : ", ") + std::string(change.what);
        }
        if (peakOf(all) <= budgetBytes) {
            return {true, applied + " (forecast " + mebibytes(peakOf(all)) + ")", all};
        }
    }
    while (all.batchSize > 1 && peakOf(all) > budgetBytes) {
        all.batchSize /= 2;
        all.accumulationSteps *= 2;
    }
    const bool fits = peakOf(all) <= budgetBytes;
    return {fits,
            fits ? applied + ", micro-batch " + std::to_string(all.batchSize) + " (forecast " +
                       mebibytes(peakOf(all)) + ")"
                 : "",
            all};
}

}  // namespace bert
