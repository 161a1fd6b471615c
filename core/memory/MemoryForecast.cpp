#include "memory/MemoryForecast.h"

#include <algorithm>

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
    constexpr std::int64_t kFloatBytes = 4;         // fp32 weights, gradients, moments
    constexpr std::int64_t kAdamMoments = 2;        // exp_avg and exp_avg_sq
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
    const std::int64_t i = model.intermediateSize;
    const std::int64_t heads = model.numAttentionHeads;
    const std::int64_t element = training.precision == Precision::Fp32 ? 4 : 2;

    // What one layer keeps for backward, in elements. Per token: the layer input (read by
    // query/key/value), query, key and value, the attention output and its dropout mask, the
    // attention projection's output before LayerNorm and its normalised result, the
    // intermediate projection before and after the activation (2 x intermediate), the output
    // projection's dropout mask and its pre-LayerNorm sum: 10 x hidden + 2 x intermediate.
    // Per head and query-key pair (the attention weights and their dropout mask): 2 x S x S.
    constexpr std::int64_t kHiddenTensorsPerLayer = 10;
    constexpr std::int64_t kIntermediateTensorsPerLayer = 2;
    constexpr std::int64_t kAttentionMapsPerLayer = 2;
    const std::int64_t layerActivations =
        (tokens * (kHiddenTensorsPerLayer * h + kIntermediateTensorsPerLayer * i) +
         kAttentionMapsPerLayer * batch * heads * length * length) * element;
    // Embeddings: sum before LayerNorm, LayerNorm output, dropout mask (fp32: outside autocast).
    constexpr std::int64_t kEmbeddingTensors = 3;
    const std::int64_t embeddingActivations =
        training.freezeEmbeddings ? 0 : tokens * h * kEmbeddingTensors * kFloatBytes;
    const std::int64_t layerInput = tokens * h * kFloatBytes;

    // Layers below the lowest trainable one see no gradient flow when embeddings are frozen too.
    const std::int64_t quietLayers = training.freezeEmbeddings ? frozenLayers : 0;
    const std::int64_t activeLayers = layers - quietLayers;
    std::int64_t activations = embeddingActivations;
    if (training.gradientCheckpointing) {
        activations += activeLayers * layerInput + layerActivations;
    } else {
        activations += activeLayers * layerActivations;
    }
    forecast.activations = activations;
    return forecast;
}

}  // namespace bert
