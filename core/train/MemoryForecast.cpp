#include "train/MemoryForecast.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <utility>

#include "data/Batch.h"
#include "memory/CudaFootprint.h"
#include "model/FamilyTraits.h"
#include "train/EvaluationForecast.h"

namespace bert {

ExampleLengths::ExampleLengths(std::size_t longest) : uniform_(longest) {}

ExampleLengths ExampleLengths::of(std::vector<std::size_t> lengths) {
    ExampleLengths result;
    std::sort(lengths.begin(), lengths.end(), std::greater<>());
    result.descending_ = std::move(lengths);
    return result;
}

std::size_t ExampleLengths::longest() const {
    return descending_.empty() ? uniform_ : descending_.front();
}

std::vector<std::size_t> ExampleLengths::longestBatch(std::size_t count,
                                                      std::size_t maxLength) const {
    std::vector<std::size_t> batch;
    if (descending_.empty()) {
        batch.assign(count, std::min(uniform_, maxLength));
        return batch;
    }
    for (std::size_t i = 0; i < std::min(count, descending_.size()); ++i) {
        batch.push_back(std::min(descending_[i], maxLength));
    }
    return batch;
}

ParameterCounts countParameters(const EncoderConfig& model) {
    return familyOf(model.modelType).countParameters(model);
}

LongestBatchShape longestBatchShape(const ExampleLengths& lengths, std::size_t batchSize,
                                    const TrainingConfig& training, bool fixedPadding) {
    const bool cuda = training.device.rfind("cuda", 0) == 0;
    const auto batch = lengths.longestBatch(batchSize, training.maxLength);
    LongestBatchShape shape;
    if (training.padding == PaddingMode::Unpadded) {
        const auto grouping =
            AttentionGrouping::forDevice(cuda ? c10::Device(c10::kCUDA) : c10::Device(c10::kCPU));
        for (const auto& group : attentionGroups(batch, grouping)) {
            const auto length = static_cast<std::int64_t>(group.front());
            for (const auto member : group) {
                shape.tokens += static_cast<std::int64_t>(member);
            }
            shape.attentionPairs += static_cast<std::int64_t>(group.size()) * length * length;
        }
    } else {
        PaddingOptions padding;
        padding.fixedLength = fixedPadding ? training.maxLength : 0;
        padding.multipleOf = training.padToMultipleOf;
        const auto examples = static_cast<std::int64_t>(batch.size());
        const auto length =
            static_cast<std::int64_t>(paddedLength(batch.empty() ? 0 : batch.front(), padding));
        shape.tokens = examples * length;
        shape.attentionPairs = examples * length * length;
    }
    return shape;
}

MemoryBreakdown forecastMemory(const EncoderConfig& model, const TrainingConfig& training,
                               const ExampleLengths& lengths, std::size_t ranks) {
    constexpr std::int64_t kFloatBytes = 4;   // fp32 weights, gradients, moments, LayerNorm inputs
    constexpr std::int64_t kAdamMoments = 2;  // exp_avg and exp_avg_sq
    // The launcher's processes count when no collective says otherwise (the form, `estimate`).
    ranks = std::max(ranks, static_cast<std::size_t>(std::max(1, training.processes)));
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
    if (training.shardOptimizer && ranks > 1) {
        // ZeRO-1 partitions by parameter, balanced: about an equal share each.
        const auto shares = static_cast<std::int64_t>(ranks);
        forecast.optimizerState = (forecast.optimizerState + shares - 1) / shares;
    }

    // The longest micro-batch decides the peak: its tokens (every row the linears compute) and
    // its attention map elements per head (query-key pairs).
    const bool cuda = training.device.rfind("cuda", 0) == 0;
    const auto longest = longestBatchShape(lengths, training.batchSize, training,
                                           training.padding == PaddingMode::Fixed);
    const std::int64_t tokens = longest.tokens;
    const std::int64_t attentionPairs = longest.attentionPairs;
    const std::int64_t h = model.hiddenSize;
    const std::int64_t heads = model.numAttentionHeads;
    const bool autocast = training.precision != Precision::Fp32;
    const std::int64_t e = autocast ? 2 : kFloatBytes;  // element of autocast's matmul outputs
    // The family's own count of what a layer, the embeddings and the head keep.
    const auto shape =
        familyOf(model.modelType)
            .activations(model, ActivationContext{.autocast = autocast, .cuda = cuda});
    // CPU math path: the softmax output (and its dropout) per head and query-key pair. CUDA: a
    // log-sum-exp per query and head.
    const std::int64_t attentionMaps =
        cuda ? tokens * heads * kFloatBytes : heads * attentionPairs * shape.attentionMapBytes;
    // MPNet: each layer's own additive mask (its relative position bias), which CUDA's kernel
    // keeps for backward.
    const std::int64_t biasMask = cuda ? heads * attentionPairs * shape.attentionBiasBytes : 0;
    const std::int64_t layerActivations =
        tokens * shape.layerBytesPerToken + attentionMaps + biasMask;
    // CUDA: a sliding window's additive mask, G x S x S in the attention's dtype per group, is
    // made once per micro-batch and kept for backward by every local layer, which share it
    // (model/Attention.cpp). (The CPU's math path counts its masks in attentionMapBytes.)
    bool sliding = false;
    for (std::int64_t layer = 0; layer < model.numHiddenLayers; ++layer) {
        sliding = sliding || model.isSliding(layer);
    }
    const std::int64_t windowMask = cuda && sliding ? attentionPairs * e : 0;
    const std::int64_t embeddingActivations =
        training.freezeEmbeddings ? 0 : tokens * shape.embeddingBytesPerToken;
    // Autocast caches a low-precision copy of every linear weight for the step.
    const std::int64_t castCache = autocast ? shape.linearWeights * e : 0;
    const std::int64_t layerInput = tokens * h * kFloatBytes;

    // Layers below the lowest trainable one keep nothing when the embeddings are frozen too.
    const std::int64_t quietLayers = training.freezeEmbeddings ? frozenLayers : 0;
    const std::int64_t activeLayers = layers - quietLayers;
    std::int64_t activations = embeddingActivations + castCache + windowMask;
    if (model.head == HeadKind::Token) {
        // A token head keeps what its layers save for every token (FamilyTraits'
        // headBytesPerToken, measured equal to the allocator's), and the logits with the loss's
        // log-softmax and their gradient: [tokens, labels] fp32 each.
        const auto labels = static_cast<std::int64_t>(model.labels.size());
        activations += tokens * (shape.headBytesPerToken + 3 * labels * kFloatBytes);
    } else {
        // A sequence head that reads every row first (EuroBERT's mean and late pooling through
        // its final norm); 0 for one that reads only the pooled rows.
        activations += tokens * shape.headBytesPerToken;
    }
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
    const std::int64_t embeddingGradients =
        training.freezeEmbeddings ? 0 : counts.embeddings * kFloatBytes;
    if (training.accumulationSteps > 1) {
        forecast.peakGradients = forecast.gradients;
    } else if (training.gradientCheckpointing) {
        forecast.peakGradients = forecast.gradients - embeddingGradients;
    } else {
        forecast.peakGradients = counts.head * kFloatBytes;
    }
    if (cuda) {
        const auto overheads =
            cudaOverheads(forecast.activations, deviceTraits(training.device).computeMajor, ranks);
        forecast.allocatorOverhead = overheads.allocatorOverhead;
        forecast.outsideAllocator = overheads.outsideAllocator;
    }
    return forecast;
}

std::int64_t budgetedBytes(const MemoryBreakdown& forecast, const TrainingConfig& training) {
    return training.memoryCapBytes ? forecast.reserved() : forecast.processTotal();
}

namespace {

// The cost model of suggestFit: step time after a change over step time before, per device.
// Gradient checkpointing recomputes each layer's forward in backward: about 20% slower a step
// (techniques.md), a little more on small CPU batches.
constexpr double kRecomputeSlowdown = 1.25;
// bf16 / fp16 on CUDA tensor cores: matrix multiplies at about twice the fp32 (TF32-off) rate.
constexpr double kFastHalfSpeedup = 0.6;
// Against fp32 with TF32 on (--tf32), the same tensor cores at half the operand width: the
// matrix multiplies gain less (about 1.3x on Ampere and Hopper), the memory-bound rest as much.
constexpr double kFastHalfSpeedupOverTf32 = 0.8;
// bf16 on a CUDA GPU older than Ampere is emulated.
constexpr double kEmulatedCudaBf16Slowdown = 2.0;
// bf16 on a CPU with AVX512-BF16 / AMX: faster than fp32 (MiniLM, 16 x 128 tokens, on this
// project's 2-core CI machine with avx512_bf16: 1.15 s against 1.65 s a step).
constexpr double kNativeCpuBf16Speedup = 0.8;
// bf16 on a CPU without them: 14.5 s against 3.8 s a step, measured (issue 12).
constexpr double kEmulatedCpuBf16Slowdown = 3.8;
// Each halving of the micro-batch: smaller matrix multiplies use the device less fully.
constexpr double kHalvedBatchSlowdownCuda = 1.15;
constexpr double kHalvedBatchSlowdownCpu = 1.10;
// Frozen embeddings skip their gradients and AdamW update: a little faster.
constexpr double kFrozenEmbeddingsSpeedup = 0.97;
// Ranking only: a change that alters what the model learns counts as this much slower.
constexpr double kFreezingPenalty = 1.05;  // frozen embeddings: usually a small accuracy cost
// Frozen encoder layers learn nothing: ranked as 1 + this x the share of the layers frozen.
constexpr double kFrozenLayersPenalty = 1.0;
constexpr double kTruncationPenalty = 3.0;  // a shorter max length drops text of long examples
// Below this the max length is not halved further.
constexpr std::size_t kShortestMaxLength = 32;
// Differences below this many bytes are not a saving.
constexpr std::int64_t kNoSavingBytes = 1 << 20;

std::string mebibytes(std::int64_t bytes) {
    return std::to_string(bytes >> 20) + " MiB";
}

std::string costText(double factor) {
    char text[48];
    if (factor > 1.05) {
        std::snprintf(text, sizeof text, "about %.2gx slower", factor);
    } else if (factor < 0.95) {
        std::snprintf(text, sizeof text, "about %.2gx faster", 1.0 / factor);
    } else {
        std::snprintf(text, sizeof text, "about as fast");
    }
    return text;
}

/// One point of suggestFit's search: which changes are applied to the user's configuration.
struct Plan {
    bool unpadded = false;
    bool checkpointing = false;
    Precision precision = Precision::Fp32;  // Fp32: unchanged
    bool freezeEmbeddings = false;
    int maxLengthHalvings = 0;
    std::size_t microBatch = 0;    // 0: unchanged
    std::size_t evalBatch = 0;     // 0: unchanged; else the evaluation batch that fits
    std::size_t frozenLayers = 0;  // 0: unchanged; else the lowest layers frozen in all
};

class FitSearch {
public:
    FitSearch(const EncoderConfig& model, const TrainingConfig& training,
              const ExampleLengths& lengths, const DeviceTraits& device)
        : model_(model), training_(training), lengths_(lengths), device_(device) {}

    TrainingConfig apply(const Plan& plan) const {
        TrainingConfig c = training_;
        if (plan.unpadded) {
            c.padding = PaddingMode::Unpadded;
        }
        c.gradientCheckpointing = c.gradientCheckpointing || plan.checkpointing;
        if (plan.precision != Precision::Fp32) {
            c.precision = plan.precision;
        }
        c.freezeEmbeddings = c.freezeEmbeddings || plan.freezeEmbeddings;
        c.freezeLayers = std::max(c.freezeLayers, plan.frozenLayers);
        c.maxLength >>= plan.maxLengthHalvings;
        if (plan.microBatch != 0) {
            c.accumulationSteps = training_.stepExamples() / plan.microBatch;
            c.batchSize = plan.microBatch;
        }
        if (plan.evalBatch != 0) {
            c.evalBatchSize = plan.evalBatch;
        }
        return c;
    }

    std::int64_t peak(const Plan& plan) const {
        return forecastRunPeak(model_, apply(plan), lengths_);
    }

    /// The plan's evaluation batch under budgetBytes: 0 when the configured one fits, the
    /// halving that fits, or SIZE_MAX when none does.
    std::size_t evaluationBatch(Plan plan, std::int64_t budgetBytes) const {
        plan.evalBatch = 0;
        const auto config = apply(plan);
        const auto fitting = fittingEvaluationBatch(model_, config, lengths_, budgetBytes);
        if (fitting == 0) {
            return SIZE_MAX;
        }
        return fitting == config.evalBatchSize ? 0 : fitting;
    }

    /// Expected step time after / before, and the ranking score (which adds the penalties).
    double timeFactor(const Plan& plan) const {
        double factor = 1.0;
        const auto changed = apply(plan);
        if (plan.unpadded || plan.maxLengthHalvings > 0) {
            // Step time follows the tokens the linears compute per example.
            factor *= tokensPerExample(changed) / std::max(1.0, tokensPerExample(training_));
        }
        if (plan.checkpointing) {
            factor *= kRecomputeSlowdown;
        }
        if (plan.precision != Precision::Fp32) {
            factor *= precisionFactor(plan.precision);
        }
        if (plan.freezeEmbeddings) {
            factor *= kFrozenEmbeddingsSpeedup;
        }
        if (plan.microBatch != 0) {
            factor *= std::pow(device_.cuda ? kHalvedBatchSlowdownCuda : kHalvedBatchSlowdownCpu,
                               std::log2(static_cast<double>(training_.batchSize) /
                                         static_cast<double>(plan.microBatch)));
        }
        return factor;
    }

    double score(const Plan& plan) const {
        // A shorter max length is faster only because it reads less of the text: rank it by
        // what else it changes, with its penalty instead of its speed.
        Plan withoutTruncation = plan;
        withoutTruncation.maxLengthHalvings = 0;
        double score = timeFactor(withoutTruncation);
        if (plan.freezeEmbeddings) {
            score *= kFreezingPenalty;
        }
        if (plan.frozenLayers > 0 && model_.numHiddenLayers > 0) {
            score *= 1.0 + kFrozenLayersPenalty *
                               static_cast<double>(plan.frozenLayers - training_.freezeLayers) /
                               static_cast<double>(model_.numHiddenLayers);
        }
        if (plan.maxLengthHalvings > 0 && lengths_.longest() > apply(plan).maxLength) {
            score *= std::pow(kTruncationPenalty, plan.maxLengthHalvings);
        }
        return score;
    }

    double precisionFactor(Precision precision) const {
        if (precision == Precision::Fp16) {
            return device_.tf32 && training_.tf32 ? kFastHalfSpeedupOverTf32 : kFastHalfSpeedup;
        }
        if (device_.cuda) {
            if (!device_.nativeBf16) {
                return kEmulatedCudaBf16Slowdown;
            }
            return device_.tf32 && training_.tf32 ? kFastHalfSpeedupOverTf32 : kFastHalfSpeedup;
        }
        return device_.nativeBf16 ? kNativeCpuBf16Speedup : kEmulatedCpuBf16Slowdown;
    }

    /// What the search may try from the user's configuration on this device.
    std::vector<Precision> precisions() const {
        std::vector<Precision> choices{Precision::Fp32};
        if (training_.precision == Precision::Fp32) {
            choices.push_back(Precision::Bf16);
            // fp16 only where it is fast and bf16 is not (V100, T4): never on a CPU, and never
            // for a family whose scores overflow it (DeBERTa).
            if (device_.cuda && device_.fastFp16 && !device_.nativeBf16 &&
                !familyOf(model_.modelType).fp16Overflows) {
                choices.push_back(Precision::Fp16);
            }
        }
        return choices;
    }

    std::vector<std::string> describe(const Plan& plan) const {
        std::vector<std::string> changes;
        auto add = [&](std::string what, Plan alone, const std::string& note = {}) {
            changes.push_back(std::move(what) + " (" + costText(timeFactor(alone)) +
                              (note.empty() ? "" : "; " + note) + ")");
        };
        if (plan.unpadded) {
            add("use unpadded batches", Plan{.unpadded = true});
        }
        if (plan.checkpointing) {
            add("turn on gradient checkpointing", Plan{.checkpointing = true});
        }
        if (plan.precision != Precision::Fp32) {
            add("use " + toString(plan.precision) + " mixed precision",
                Plan{.precision = plan.precision});
        }
        if (plan.freezeEmbeddings) {
            // What it saves alone (the embedding stage is most of a large-vocabulary model).
            const auto saved = peak(Plan{}) - peak(Plan{.freezeEmbeddings = true});
            add("freeze the embeddings", Plan{.freezeEmbeddings = true},
                "saves " + mebibytes(saved) + "; may cost a little accuracy");
        }
        if (plan.frozenLayers > 0) {
            add("freeze the lowest " + std::to_string(plan.frozenLayers) + " of " +
                    std::to_string(model_.numHiddenLayers) + " layers",
                Plan{.frozenLayers = plan.frozenLayers}, "they learn nothing; may cost accuracy");
        }
        if (plan.maxLengthHalvings > 0) {
            const auto length = apply(plan).maxLength;
            add("shorten the max length to " + std::to_string(length),
                Plan{.maxLengthHalvings = plan.maxLengthHalvings},
                lengths_.longest() > length ? "cuts the text of longer examples" : "");
        }
        if (plan.microBatch != 0) {
            add("use micro-batch " + std::to_string(plan.microBatch) + " x accumulation " +
                    std::to_string(training_.stepExamples() / plan.microBatch),
                Plan{.microBatch = plan.microBatch},
                "effective batch " + std::to_string(training_.stepExamples()) + " kept");
        }
        if (plan.evalBatch != 0) {
            changes.push_back("evaluate in batches of " + std::to_string(plan.evalBatch) +
                              " (evaluation a little slower; training unchanged)");
        }
        return changes;
    }

private:
    // Rows per example the linears compute in the longest micro-batch: its padded length, or
    // unpadded its mean real length.
    double tokensPerExample(const TrainingConfig& c) const {
        const auto batch = lengths_.longestBatch(c.batchSize, c.maxLength);
        if (batch.empty()) {
            return 0.0;
        }
        if (c.padding == PaddingMode::Unpadded) {
            double sum = 0.0;
            for (const auto length : batch) {
                sum += static_cast<double>(length);
            }
            return sum / static_cast<double>(batch.size());
        }
        PaddingOptions padding;
        padding.fixedLength = c.padding == PaddingMode::Fixed ? c.maxLength : 0;
        padding.multipleOf = c.padToMultipleOf;
        return static_cast<double>(paddedLength(batch.front(), padding));
    }

    const EncoderConfig& model_;
    const TrainingConfig& training_;
    const ExampleLengths& lengths_;
    const DeviceTraits& device_;
};

int changeCount(const Plan& p) {
    return int{p.unpadded} + int{p.checkpointing} + int{p.precision != Precision::Fp32} +
           int{p.freezeEmbeddings} + p.maxLengthHalvings + int{p.microBatch != 0} +
           int{p.evalBatch != 0} + int{p.frozenLayers != 0};
}

}  // namespace

std::vector<std::size_t> microBatchesKeeping(const TrainingConfig& training) {
    std::vector<std::size_t> sizes;
    const std::size_t effective = std::max<std::size_t>(1, training.stepExamples());
    for (std::size_t size = effective; size >= 1; --size) {
        if (effective % size == 0) {
            sizes.push_back(size);
        }
    }
    return sizes;
}

std::optional<TrainingConfig> largestFittingBatch(const EncoderConfig& model,
                                                  const TrainingConfig& training,
                                                  const ExampleLengths& lengths,
                                                  std::int64_t budgetBytes) {
    // Evaluation does not depend on the micro-batch: its batch is chosen once.
    const auto evalBatch = fittingEvaluationBatch(model, training, lengths, budgetBytes);
    if (evalBatch == 0) {
        return std::nullopt;
    }
    for (const auto size : microBatchesKeeping(training)) {
        TrainingConfig candidate = training;
        candidate.accumulationSteps = training.stepExamples() / size;
        candidate.batchSize = size;
        candidate.evalBatchSize = evalBatch;
        // Judged as suggestFit judges its plans (one search, one answer).
        if (forecastRunPeak(model, candidate, lengths) <= budgetBytes) {
            return candidate;
        }
    }
    return std::nullopt;
}

std::string largeEmbeddingNote(const EncoderConfig& model, const TrainingConfig& training) {
    constexpr std::int64_t kLargeStateBytes = std::int64_t{512} << 20;
    if (training.freezeEmbeddings) {
        return {};
    }
    const auto counts = countParameters(model);
    const auto total = counts.total(model.numHiddenLayers);
    if (total <= 0 || 2 * counts.embeddings < total) {
        return {};
    }
    // Neither figure depends on the examples: one of max length stands for them.
    const auto lengths = ExampleLengths::of({training.maxLength});
    const auto now = forecastMemory(model, training, lengths);
    TrainingConfig frozen = training;
    frozen.freezeEmbeddings = true;
    const auto then = forecastMemory(model, frozen, lengths);
    const auto state = now.optimizerState - then.optimizerState;
    if (state < kLargeStateBytes) {
        return {};
    }
    auto millions = [](std::int64_t n) { return std::to_string((n + 500'000) / 1'000'000) + "M"; };
    return "the embeddings hold " + millions(counts.embeddings) + " of the model's " +
           millions(total) + " parameters (" +
           std::to_string((100 * counts.embeddings + total / 2) / total) +
           "%): freezing them (--freeze-embeddings) frees their AdamW state (" + mebibytes(state) +
           ") and gradients (" + mebibytes(now.gradients - then.gradients) +
           "); may cost a little accuracy";
}

FitAdvice suggestFit(const EncoderConfig& model, const TrainingConfig& training,
                     const ExampleLengths& lengths, std::int64_t budgetBytes,
                     const DeviceTraits& device) {
    const FitSearch search(model, training, lengths, device);
    std::vector<std::size_t> microBatches{0};
    for (const auto size : microBatchesKeeping(training)) {
        if (size < training.batchSize) {
            microBatches.push_back(size);
        }
    }
    int maxHalvings = 0;
    while ((training.maxLength >> (maxHalvings + 1)) >= kShortestMaxLength && maxHalvings < 2) {
        ++maxHalvings;
    }
    // 0 (unchanged), then each count of lowest layers beyond those already frozen, up to all
    // but the top one.
    std::vector<std::size_t> frozenLayerChoices{0};
    const auto layerCount =
        static_cast<std::size_t>(std::max<std::int64_t>(0, model.numHiddenLayers));
    for (std::size_t layers = training.freezeLayers + 1; layers + 1 <= layerCount; ++layers) {
        frozenLayerChoices.push_back(layers);
    }
    std::optional<Plan> best;
    double bestScore = 0.0;
    for (int padding = 0; padding <= (training.padding == PaddingMode::Unpadded ? 0 : 1);
         ++padding) {
        for (int recompute = 0; recompute <= (training.gradientCheckpointing ? 0 : 1);
             ++recompute) {
            for (const auto precision : search.precisions()) {
                for (int freeze = 0; freeze <= (training.freezeEmbeddings ? 0 : 1); ++freeze) {
                    for (int halvings = 0; halvings <= maxHalvings; ++halvings) {
                        for (const auto micro : microBatches) {
                            // Frozen layers: the fewest that fit (more only cost accuracy).
                            for (const auto layers : frozenLayerChoices) {
                                Plan plan{padding == 1, recompute == 1, precision,
                                          freeze == 1,  halvings,       micro};
                                plan.frozenLayers = layers;
                                plan.evalBatch = search.evaluationBatch(plan, budgetBytes);
                                if (plan.evalBatch == SIZE_MAX || changeCount(plan) == 0 ||
                                    search.peak(plan) > budgetBytes) {
                                    continue;
                                }
                                const double score = search.score(plan);
                                if (!best || score < bestScore - 1e-9 ||
                                    (score < bestScore + 1e-9 &&
                                     changeCount(plan) < changeCount(*best))) {
                                    best = plan;
                                    bestScore = score;
                                }
                                break;
                            }
                        }
                    }
                }
            }
        }
    }
    FitAdvice advice;
    if (!best) {
        return advice;
    }
    // Drop every change that saves no memory: without it the plan still fits just as well.
    Plan plan = *best;
    const std::int64_t peak = search.peak(plan);
    auto dropIfIdle = [&](auto member, auto unchanged) {
        Plan without = plan;
        without.*member = unchanged;
        if (changeCount(without) > 0 && search.peak(without) <= peak + kNoSavingBytes - 1 &&
            search.peak(without) <= budgetBytes) {
            plan = without;
        }
    };
    dropIfIdle(&Plan::unpadded, false);
    dropIfIdle(&Plan::checkpointing, false);
    dropIfIdle(&Plan::precision, Precision::Fp32);
    dropIfIdle(&Plan::freezeEmbeddings, false);
    dropIfIdle(&Plan::maxLengthHalvings, 0);
    dropIfIdle(&Plan::microBatch, std::size_t{0});
    dropIfIdle(&Plan::frozenLayers, std::size_t{0});

    advice.fits = true;
    advice.config = search.apply(plan);
    advice.changes = search.describe(plan);
    advice.forecastBytes = search.peak(plan);
    advice.timeFactor = search.timeFactor(plan);
    std::string joined;
    for (std::size_t i = 0; i < advice.changes.size(); ++i) {
        joined +=
            (i == 0 ? "" : (i + 1 == advice.changes.size() ? " and " : ", ")) + advice.changes[i];
    }
    advice.description =
        joined + ": forecast " + mebibytes(advice.forecastBytes) +
        (advice.changes.size() > 1 ? ", " + costText(advice.timeFactor) + " in all" : "");
    return advice;
}

}  // namespace bert
