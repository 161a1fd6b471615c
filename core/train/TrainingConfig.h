#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "data/LabelCheck.h"
#include "data/LongText.h"

namespace bert {

enum class Precision {
    Fp32,  ///< full precision
    Bf16,  ///< bf16 autocast (CPU and CUDA), no loss scaling
    Fp16,  ///< fp16 autocast with dynamic loss scaling (CUDA; on CPU it runs, slowly)
};

enum class PaddingMode {
    Fixed,     ///< every batch padded to maxLength
    Dynamic,   ///< each batch padded to its longest example
    Unpadded,  ///< real tokens only, padded inside attention alone (TokenLayout, packed)
};

enum class CacheRelease {
    Never,        ///< keep the allocator's cache (fastest)
    AfterEval,    ///< release after each evaluation
    EveryNSteps,  ///< release every cacheReleaseSteps optimizer steps (costs speed)
};

enum class ClassWeighting {
    Off,       ///< every example weighs the same
    Balanced,  ///< class c weighs N / (classes x n_c), as scikit-learn's "balanced"
};

/// The learning-rate schedule after the warmup (transformers' get_*_schedule_with_warmup).
enum class LrSchedule {
    Linear,    ///< linear decay to 0 at the last step
    Cosine,    ///< half a cosine down to 0 at the last step
    Constant,  ///< the peak rate to the end
};

/// The validation metric that picks the best checkpoint and drives early stopping.
enum class BestMetric {
    Accuracy,
    MacroF1,
    Loss,  ///< lower is better
    /// The task's headline (task/TaskObjective.h): accuracy (single-label), micro-F1
    /// (multi-label), RMSE (regression, lower is better), entity F1 (token classification).
    Task,
};

/// Every switch of a training run. Serialised to JSON and stored with the run; the command
/// line and the studio's form both fill this one struct. Each member is declared once more, in
/// the option table (train/TrainingOptions.h), from which its JSON key, its command-line flag,
/// its form row, its range and its help come: adding a member means adding its entry there.
struct TrainingConfig {
    // ---- data ----
    std::size_t maxLength = 128;  ///< tokens per example after truncation
    /// Unpadded by default: on the CPU it measured faster than dynamic padding on every corpus
    /// tried (MiniLM, e-mails at 512 tokens: 3.1x; subject lines at 128: 1.4x; equal with
    /// length grouping) and its peak is never larger; docs/benchmarks.md.
    PaddingMode padding = PaddingMode::Unpadded;
    std::size_t padToMultipleOf = 1;  ///< 8 suits tensor cores under fp16
    bool groupByLength = false;       ///< length-grouped batching (megabatches)
    bool shuffle = true;              ///< a seeded order each epoch; off: the file's order
    double validationFraction = 0.2;  ///< stratified split when no validation file is given
    /// Texts longer than maxLength (data/LongText.h): truncated, head+tail, or windows. The
    /// head and the stride default to 32, a quarter of the default max length's text: both
    /// must be smaller than a window's text tokens (128 at max length 128 was refused).
    LongTextMode longText = LongTextMode::Truncate;
    std::size_t headTokens = 32;    ///< head+tail: tokens kept from the start
    std::size_t windowStride = 32;  ///< windows: tokens a window shares with the one before
    WindowPooling windowPooling = WindowPooling::Task;
    // ---- batch ----
    std::size_t batchSize = 16;         ///< micro-batch: examples per forward/backward
    std::size_t accumulationSteps = 1;  ///< micro-batches per optimizer step
    std::size_t evalBatchSize = 64;     ///< examples per evaluation forward pass
    // ---- schedule ----
    std::size_t epochs = 1;
    std::size_t maxSteps = 0;  ///< stop after this many optimizer steps (0: no limit)
    double learningRate = 5e-5;
    double weightDecay = 0.01;  ///< not applied to biases and LayerNorm
    double warmupRatio = 0.06;  ///< share of steps with linear warmup
    LrSchedule lrSchedule = LrSchedule::Linear;
    double maxGradNorm = 1.0;  ///< 0 disables clipping
    std::uint64_t seed = 42;
    std::size_t evalEverySteps = 0;  ///< evaluate every N steps (0: evalsPerEpoch decides)
    /// Evaluations per epoch, evenly spaced, the epoch end included, when evalEverySteps is 0;
    /// several by default, so the validation curve fills while the first epoch runs.
    std::size_t evalsPerEpoch = 4;
    ClassWeighting classWeighting = ClassWeighting::Off;
    /// Focal loss's gamma (Lin et al. 2017): 0 is the plain loss (task/TaskObjective.h).
    double focalGamma = 0.0;
    /// Single-label: predict, Try it and exports divide the logits by the temperature fitted on
    /// validation (task/TemperatureScaling.h). Every evaluation measures the calibration and
    /// fits the temperature either way.
    bool temperatureScaling = false;
    /// Single-label: each epoch draws its examples with replacement, every class equally
    /// likely (data/Sampler.h balancedWeights).
    bool balancedSampling = false;
    /// Under this percentage of the examples a class (a label) is rare: the run's warning and
    /// the Dataset tab name it with what weighs it up (data/LabelCheck.h). Changes no training.
    double rareLabelShare = 100.0 * kRareLabelShare;
    BestMetric bestMetric = BestMetric::Task;
    /// Stop after this many evaluations in a row without a better bestMetric (0: never).
    std::size_t earlyStoppingPatience = 0;
    /// Stop as diverged after this many optimizer steps in a row with a non-finite loss (0: never).
    std::size_t maxNonFiniteSteps = 5;
    // ---- memory techniques ----
    bool freezeEmbeddings = false;
    std::size_t freezeLayers = 0;  ///< lowest encoder layers frozen
    /// Keep each example's output of the frozen part (the embeddings and the freezeLayers lowest
    /// layers) after its first use, and skip the frozen part from then on (train/PrefixCache.h).
    /// Needs frozen embeddings; dropout inside the frozen part is off.
    bool cacheFrozenPrefix = false;
    /// Host memory (MiB) the frozen-prefix cache may fill; the rest goes to a file beside the
    /// run (0: all of it).
    std::size_t prefixCacheMemoryMiB = 1024;
    Precision precision = Precision::Fp32;
    bool gradientCheckpointing = false;
    /// ZeRO stage 1 under data parallel: AdamW moments only for this rank's share of the
    /// weights (Trainer::joinDataParallel); no effect in one process.
    bool shardOptimizer = false;
    CacheRelease cacheRelease = CacheRelease::Never;
    std::size_t cacheReleaseSteps = 100;
    std::optional<std::int64_t> memoryCapBytes;  ///< rehearse a smaller device
    bool recoverFromOom = true;                  ///< halve micro-batch, double accumulation on OOM
    /// Before the first step of a fresh run, one forward and backward pass on the micro-batch
    /// of the longest examples measures the real peak (Trainer::trialStepPeak).
    bool trialStep = true;
    // ---- device and outputs ----
    std::string device = "cpu";  ///< "cpu" or "cuda:N"
    /// Data parallel on this machine: processes the launcher starts, one per GPU on CUDA
    /// (`train --nproc`, the studio's "processes"); 1: this process alone. torchrun and Slurm
    /// launches set their world in the environment instead and leave this at 1.
    int processes = 1;
    bool saveCheckpoints = true;  ///< at epoch end, best-by-validation, and on cancel
    int threads = 0;              ///< intra-op threads on CPU (0: LibTorch's default)
    /// Read the step's figures (loss, gradient norm, loss scale) back from the device every N
    /// optimizer steps, the last of each epoch and of the run too; a logged step reports the
    /// mean loss of its N steps. Each read waits for the GPU (train/HostReads.h).
    std::size_t logEverySteps = 1;
    /// CUDA on Ampere or newer: fp32 matrix multiplies and convolutions on TF32 tensor cores
    /// (torch.backends.cuda.matmul.allow_tf32 and cudnn.allow_tf32, as transformers' --tf32),
    /// several times faster at about 10 mantissa bits. Off by default, as transformers; no
    /// effect on the CPU or on memory.
    bool tf32 = false;

    std::size_t stepExamples() const { return batchSize * accumulationSteps; }
    LongTextSpec longTextSpec() const {
        return {longText, headTokens, windowStride, windowPooling};
    }

    nlohmann::json toJson() const;
    /// Reads a configuration; missing fields keep their defaults. Throws InputError naming the
    /// field for an unknown field, a wrong type or a value out of range.
    static TrainingConfig fromJson(const nlohmann::json& json);
    /// Throws InputError when a setting is out of range or a combination impossible.
    void validate() const;
    /// Names of the memory techniques switched on, for tables and run cards.
    std::string techniquesSummary() const;
};

/// The names JSON and the command line use ("bf16", "dynamic", "after-eval").
std::string toString(Precision precision);
std::string toString(PaddingMode padding);
std::string toString(CacheRelease release);
std::string toString(ClassWeighting weighting);
std::string toString(LrSchedule schedule);
std::string toString(LongTextMode mode);
std::string toString(WindowPooling pooling);

/// The learning rate of 0-based optimizer step `step` of totalSteps under config's schedule:
/// linear warmup from 0 over ceil(warmupRatio x totalSteps) steps, then lrSchedule; equal to
/// transformers' get_{linear,cosine,constant}_schedule_with_warmup.
double scheduledLearningRate(const TrainingConfig& config, std::size_t step,
                             std::size_t totalSteps);
std::string toString(BestMetric metric);

}  // namespace bert
