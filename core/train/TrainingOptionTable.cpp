#include "train/OptionBinding.h"

// The option table: every training option, declared once. JSON keys, command-line flags, form
// rows, ranges, help and technique summaries all come from here (see TrainingOptions.h).
// QT_TRANSLATE_NOOP marks the English texts for Qt's lupdate (scripts/update_translations.sh
// scans this file); the studio translates them in the context "TrainingOptions". Core has no Qt.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(context, text) text
#endif

namespace bert {

std::vector<OptionDescriptor> buildTrainingOptionTable() {
    using K = OptionKind;
    using G = OptionGroup;
    std::vector<OptionDescriptor> table;
    auto add = [&](OptionDescriptor d) { table.push_back(std::move(d)); };

    // ---- data ----
    add(bindField({.key = "validation_fraction",
                   .flag = "--validation-fraction",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "Validation share"),
                   .help = QT_TRANSLATE_NOOP("TrainingOptions",
                                             "Share of the examples held out for validation (a "
                                             "stratified split) when no validation file is given."),
                   .group = G::Data,
                   .kind = K::Real,
                   .minimum = 0.001,
                   .maximum = 0.999,
                   .decimals = 3},
                  &TrainingConfig::validationFraction));

    // ---- batching ----
    add(bindField({.key = "max_length",
                   .flag = "--max-length",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "Max &length"),
                   .help = QT_TRANSLATE_NOOP(
                       "TrainingOptions",
                       "Tokens per example; longer texts are cut as Long texts says (truncated by "
                       "default). Activation memory grows with it, attention quadratically."),
                   .group = G::Batching,
                   .kind = K::Count,
                   .minimum = 8,
                   .maximum = 65536},
                  &TrainingConfig::maxLength));
    addLongTextOptions(table);  // beside max length: LongTextOptions.cpp
    add(bindField(
        {.key = "padding",
         .flag = "--padding",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "&Padding"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Unpadded computes on the real tokens alone (attention runs per group of equal "
             "lengths); dynamic pads each batch to its longest example; fixed pads every batch to "
             "max length. Same results; unpadded uses the least memory and time."),
         .group = G::Batching,
         .kind = K::Choice,
         .choices = {{static_cast<int>(PaddingMode::Unpadded), "unpadded",
                      QT_TRANSLATE_NOOP("TrainingOptions", "unpadded")},
                     {static_cast<int>(PaddingMode::Dynamic), "dynamic",
                      QT_TRANSLATE_NOOP("TrainingOptions", "dynamic")},
                     {static_cast<int>(PaddingMode::Fixed), "fixed",
                      QT_TRANSLATE_NOOP("TrainingOptions", "fixed")}},
         .technique = "dynamic padding",
         .summary =
             [](const TrainingConfig& c) {
                 return c.padding == PaddingMode::Unpadded ? std::string("unpadded")
                                                           : toString(c.padding) + " padding";
             }},
        &TrainingConfig::padding));
    add(bindField(
        {.key = "pad_to_multiple_of",
         .flag = "--pad-to-multiple-of",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Pad to multiple of"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Round padded lengths up to a multiple (8 suits tensor cores under fp16); costs "
             "a little padding."),
         .group = G::Batching,
         .kind = K::Count,
         .minimum = 1,
         .maximum = 512,
         .technique = "dynamic padding"},
        &TrainingConfig::padToMultipleOf));
    add(bindField({.key = "group_by_length",
                   .flag = "--group-by-length",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "Group by length"),
                   .help = QT_TRANSLATE_NOOP(
                       "TrainingOptions",
                       "Batches of similar lengths (longest first, so an out-of-memory "
                       "shows at once): far less padding; slightly less random batches."),
                   .group = G::Batching,
                   .kind = K::Flag,
                   .technique = "length-grouped batching",
                   .summary = whenOn(&TrainingConfig::groupByLength, "length-grouped")},
                  &TrainingConfig::groupByLength));
    add(bindField({.key = "shuffle",
                   .flag = "--no-shuffle",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "Shuffle each epoch"),
                   .help = QT_TRANSLATE_NOOP(
                       "TrainingOptions",
                       "A new order of the training examples each epoch, drawn from the seed. "
                       "Off: the file's own order every epoch (a curriculum, or another tool's "
                       "run to reproduce); grouping by length then sorts consecutive examples."),
                   .group = G::Batching,
                   .kind = K::Flag},
                  &TrainingConfig::shuffle));
    add(bindField(
        {.key = "batch_size",
         .flag = "--batch-size",
         .alias = "-b",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "&Batch size"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Examples per forward/backward pass. Activation memory grows with it; larger is "
             "faster per example."),
         .group = G::Batching,
         .kind = K::Count,
         .minimum = 1,
         .maximum = 65536},
        &TrainingConfig::batchSize));
    add(bindField(
        {.key = "accumulation_steps",
         .flag = "--accumulation",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "&Accumulation steps"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Micro-batches summed before each optimizer step: the effective batch grows without "
             "the activation memory; costs time per example."),
         .group = G::Batching,
         .kind = K::Count,
         .minimum = 1,
         .maximum = 65536,
         .technique = "gradient accumulation",
         .summary =
             [](const TrainingConfig& c) {
                 return c.accumulationSteps > 1
                            ? "accumulation x" + std::to_string(c.accumulationSteps)
                            : std::string();
             }},
        &TrainingConfig::accumulationSteps));
    add(bindField(
        {.key = "eval_batch_size",
         .flag = "--eval-batch-size",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Evaluation batch"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Examples per evaluation pass (no gradients are kept, so it can be larger)."),
         .group = G::Batching,
         .kind = K::Count,
         .minimum = 1,
         .maximum = 65536,
         .technique = "evaluation without gradients"},
        &TrainingConfig::evalBatchSize));

    // ---- memory ----
    add(bindField(
        {.key = "freeze_embeddings",
         .flag = "--freeze-embeddings",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Freeze embeddings"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "No gradients or optimizer state for the embeddings (a fifth of BERT-base's "
             "weights, half of MiniLM's, two thirds of a 250k-piece vocabulary's model: XLM-R, "
             "mDeBERTa, mmBERT); usually costs little accuracy."),
         .group = G::Memory,
         .kind = K::Flag,
         .technique = "freezing",
         .summary = whenOn(&TrainingConfig::freezeEmbeddings, "frozen embeddings")},
        &TrainingConfig::freezeEmbeddings));
    add(bindField(
        {.key = "freeze_layers",
         .flag = "--freeze-layers",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Freeze lowest layers"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Freeze the lowest N encoder layers: no gradients, optimizer state or (with frozen "
             "embeddings) activations for them; may cost accuracy."),
         .group = G::Memory,
         .kind = K::Count,
         .minimum = 0,
         .maximum = 1024,
         .technique = "freezing",
         .summary =
             [](const TrainingConfig& c) {
                 return c.freezeLayers > 0 ? "frozen " + std::to_string(c.freezeLayers) + " layers"
                                           : std::string();
             }},
        &TrainingConfig::freezeLayers));
    add(bindField(
        {.key = "cache_frozen_prefix",
         .flag = "--cache-frozen-prefix",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions",
                                    "Cache the frozen part's output (no dropout there)"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "With frozen embeddings (and frozen lowest layers), compute each example's output of "
             "the frozen part once and reuse it: later epochs and evaluations skip the frozen "
             "part. Dropout inside the frozen part is off. Kept in memory up to the size below, "
             "the rest in a file beside the run, removed when the run ends."),
         .group = G::Memory,
         .kind = K::Flag,
         .technique = "frozen-prefix cache",
         .enabledWhen = "freeze_embeddings=true",
         .summary = whenOn(&TrainingConfig::cacheFrozenPrefix, "frozen-prefix cache")},
        &TrainingConfig::cacheFrozenPrefix));
    add(bindField({.key = "prefix_cache_memory_mib",
                   .flag = "--prefix-cache-memory",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "Cache in memory up to (MiB)"),
                   .help = QT_TRANSLATE_NOOP(
                       "TrainingOptions",
                       "Host memory the frozen-prefix cache may use (not the device's); what "
                       "does not fit goes to a file beside the run. 0: all of it in the file."),
                   .group = G::Memory,
                   .kind = K::Count,
                   .minimum = 0,
                   .maximum = 16777216,
                   .technique = "frozen-prefix cache",
                   .enabledWhen = "cache_frozen_prefix=true"},
                  &TrainingConfig::prefixCacheMemoryMiB));
    add(bindField(
        {.key = "precision",
         .flag = "--precision",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "P&recision"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "bf16/fp16 autocast stores activations in half precision and runs faster on GPUs; "
             "fp16 adds dynamic loss scaling. Weights stay fp32."),
         .group = G::Memory,
         .kind = K::Choice,
         .choices = {{static_cast<int>(Precision::Fp32), "fp32", "fp32"},
                     {static_cast<int>(Precision::Bf16), "bf16", "bf16"},
                     {static_cast<int>(Precision::Fp16), "fp16", "fp16"}},
         .technique = "mixed precision",
         .summary =
             [](const TrainingConfig& c) {
                 return c.precision != Precision::Fp32 ? toString(c.precision) : std::string();
             }},
        &TrainingConfig::precision));
    add(bindField(
        {.key = "gradient_checkpointing",
         .flag = "--gradient-checkpointing",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Gradient checkpointing"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Keep only each layer's input and recompute the layer in backward: activation "
             "memory falls to about one layer; about 20-30% slower."),
         .group = G::Memory,
         .kind = K::Flag,
         .technique = "gradient checkpointing",
         .summary = whenOn(&TrainingConfig::gradientCheckpointing, "checkpointing")},
        &TrainingConfig::gradientCheckpointing));
    add(bindField(
        {.key = "shard_optimizer",
         .flag = "--shard-optimizer",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Shard optimizer state"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Data parallel only (ZeRO stage 1): each process keeps the AdamW moments of its "
             "share of the weights, updates that share and passes it to the others; optimizer "
             "memory per process falls by the number of processes."),
         .group = G::Memory,
         .kind = K::Flag,
         .technique = "sharded optimizer",
         .summary = whenOn(&TrainingConfig::shardOptimizer, "sharded optimizer")},
        &TrainingConfig::shardOptimizer));
    add(bindField(
        {.key = "cache_release",
         .flag = "--cache-release",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Cache release"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Return cached memory to the system (on a GPU the CUDA allocator's cache, on the "
             "CPU the free blocks the heap keeps for reuse): helps other processes and "
             "fragmentation; every release costs speed."),
         .group = G::Memory,
         .kind = K::Choice,
         .choices = {{static_cast<int>(CacheRelease::Never), "never",
                      QT_TRANSLATE_NOOP("TrainingOptions", "never")},
                     {static_cast<int>(CacheRelease::AfterEval), "after-eval",
                      QT_TRANSLATE_NOOP("TrainingOptions", "after evaluation")},
                     {static_cast<int>(CacheRelease::EveryNSteps), "every-n-steps",
                      QT_TRANSLATE_NOOP("TrainingOptions", "every N steps")}},
         .technique = "cache release",
         .summary =
             [](const TrainingConfig& c) {
                 return c.cacheRelease != CacheRelease::Never
                            ? "cache release " + toString(c.cacheRelease)
                            : std::string();
             }},
        &TrainingConfig::cacheRelease));
    add(bindField(
        {.key = "cache_release_steps",
         .flag = "--cache-release-steps",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Release every N steps"),
         .help = QT_TRANSLATE_NOOP("TrainingOptions", "N for cache release every N steps."),
         .group = G::Memory,
         .kind = K::Count,
         .minimum = 1,
         .maximum = kLargeCount,
         .technique = "cache release",
         .enabledWhen = "cache_release=every-n-steps"},
        &TrainingConfig::cacheReleaseSteps));
    add(bindField({.key = "memory_cap_bytes",
                   .flag = "--memory-cap",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "Memory cap (MiB)"),
                   .help = QT_TRANSLATE_NOOP(
                       "TrainingOptions",
                       "Refuse allocations past this size, as a smaller GPU would: rehearse a "
                       "16 GB card on a bigger one, or test on the CPU."),
                   .group = G::Memory,
                   .kind = K::ByteSize,
                   .minimum = kMiB,
                   .maximum = 1024.0 * 1024.0 * kMiB,
                   .technique = "memory cap",
                   .summary =
                       [](const TrainingConfig& c) {
                           return c.memoryCapBytes
                                      ? "cap " + std::to_string(*c.memoryCapBytes / (1024 * 1024)) +
                                            " MiB"
                                      : std::string();
                       }},
                  &TrainingConfig::memoryCapBytes));
    add(bindField({.key = "recover_from_oom",
                   .flag = "--no-oom-recovery",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "Recover from out-of-memory"),
                   .help = QT_TRANSLATE_NOOP(
                       "TrainingOptions",
                       "On out-of-memory, halve the micro-batch and double accumulation: the "
                       "effective batch stays the same."),
                   .group = G::Memory,
                   .kind = K::Flag,
                   .technique = "out-of-memory recovery"},
                  &TrainingConfig::recoverFromOom));
    add(bindField(
        {.key = "trial_step",
         .flag = "--no-trial-step",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Trial step before training"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Before the first step, one forward and backward pass on the micro-batch of the "
             "longest examples measures the real peak: an out-of-memory shows before training "
             "starts, and the run keeps the figure beside the forecast. Costs about one step "
             "(more at long max lengths); off, training starts at once."),
         .group = G::Memory,
         .kind = K::Flag,
         .technique = "trial step"},
        &TrainingConfig::trialStep));

    // ---- optimisation ----
    add(bindField({.key = "epochs",
                   .flag = "--epochs",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "&Epochs"),
                   .help = QT_TRANSLATE_NOOP("TrainingOptions", "Passes over the training data."),
                   .group = G::Optimisation,
                   .kind = K::Count,
                   .minimum = 0,
                   .maximum = 100000},
                  &TrainingConfig::epochs));
    add(bindField({.key = "max_steps",
                   .flag = "--max-steps",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "Max steps"),
                   .help = QT_TRANSLATE_NOOP("TrainingOptions",
                                             "Stop after this many optimizer steps (0: no limit)."),
                   .group = G::Optimisation,
                   .kind = K::Count,
                   .minimum = 0,
                   .maximum = kLargeCount},
                  &TrainingConfig::maxSteps));
    add(bindField(
        {.key = "learning_rate",
         .flag = "--lr",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Learning rate"),
         .help = QT_TRANSLATE_NOOP("TrainingOptions",
                                   "Peak learning rate of AdamW (reached after the warmup)."),
         .group = G::Optimisation,
         .kind = K::Real,
         .minimum = 1e-12,
         .maximum = 10.0,
         .decimals = 0},
        &TrainingConfig::learningRate));
    add(bindField(
        {.key = "lr_schedule",
         .flag = "--lr-schedule",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Learning-rate schedule"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "After the warmup: linear decay to 0, half a cosine down to 0, or the peak rate to "
             "the end (transformers' schedules with warmup)."),
         .group = G::Optimisation,
         .kind = K::Choice,
         .choices = {{static_cast<int>(LrSchedule::Linear), "linear",
                      QT_TRANSLATE_NOOP("TrainingOptions", "linear")},
                     {static_cast<int>(LrSchedule::Cosine), "cosine",
                      QT_TRANSLATE_NOOP("TrainingOptions", "cosine")},
                     {static_cast<int>(LrSchedule::Constant), "constant",
                      QT_TRANSLATE_NOOP("TrainingOptions", "constant")}}},
        &TrainingConfig::lrSchedule));
    add(bindField(
        {.key = "weight_decay",
         .flag = "--weight-decay",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Weight decay"),
         .help = QT_TRANSLATE_NOOP("TrainingOptions",
                                   "AdamW weight decay; not applied to biases and LayerNorm."),
         .group = G::Optimisation,
         .kind = K::Real,
         .minimum = 0.0,
         .maximum = 10.0,
         .decimals = 4},
        &TrainingConfig::weightDecay));
    add(bindField(
        {.key = "warmup_ratio",
         .flag = "--warmup-ratio",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Warmup share"),
         .help = QT_TRANSLATE_NOOP("TrainingOptions",
                                   "Share of steps spent warming the learning rate up from zero."),
         .group = G::Optimisation,
         .kind = K::Real,
         .minimum = 0.0,
         .maximum = 0.99,
         .decimals = 3},
        &TrainingConfig::warmupRatio));
    add(bindField(
        {.key = "max_grad_norm",
         .flag = "--max-grad-norm",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Clip gradient norm"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Clip the gradient norm (after unscaling under fp16); 0 turns clipping off."),
         .group = G::Optimisation,
         .kind = K::Real,
         .minimum = 0.0,
         .maximum = 1e6,
         .decimals = 2,
         .technique = "clipping"},
        &TrainingConfig::maxGradNorm));
    add(bindField(
        {.key = "seed",
         .flag = "--seed",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Seed"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Seed of the split, initialisation, shuffling and dropout: equal seeds, equal "
             "runs on the CPU."),
         .group = G::Optimisation,
         .kind = K::Seed},
        &TrainingConfig::seed));
    add(bindField({.key = "eval_every_steps",
                   .flag = "--eval-every",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "Evaluate every N steps"),
                   .help = QT_TRANSLATE_NOOP(
                       "TrainingOptions",
                       "Evaluate every N steps as well as at each epoch end (0: evaluations per "
                       "epoch decides)."),
                   .group = G::Optimisation,
                   .kind = K::Count,
                   .minimum = 0,
                   .maximum = kLargeCount},
                  &TrainingConfig::evalEverySteps));
    add(bindField({.key = "evals_per_epoch",
                   .flag = "--evals-per-epoch",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "Evaluations per epoch"),
                   .help = QT_TRANSLATE_NOOP(
                       "TrainingOptions",
                       "Evaluate this many times per epoch, evenly spaced, the epoch end "
                       "included, when 'evaluate every N steps' is 0; 1: epoch ends only."),
                   .group = G::Optimisation,
                   .kind = K::Count,
                   .minimum = 1,
                   .maximum = 1000},
                  &TrainingConfig::evalsPerEpoch));
    addLossOptions(table);  // class weighting, focal loss: LossOptions.cpp
    add(bindField(
        {.key = "best_metric",
         .flag = "--best-metric",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Best model by"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "The validation metric that chooses the best checkpoint and drives early "
             "stopping; macro-F1 suits imbalanced labels; the task's metric is micro-F1, RMSE or "
             "entity F1 for the other tasks."),
         .group = G::Optimisation,
         .kind = K::Choice,
         .choices = {{static_cast<int>(BestMetric::Accuracy), "accuracy",
                      QT_TRANSLATE_NOOP("TrainingOptions", "accuracy")},
                     {static_cast<int>(BestMetric::MacroF1), "macro-f1",
                      QT_TRANSLATE_NOOP("TrainingOptions", "macro-F1")},
                     {static_cast<int>(BestMetric::Loss), "loss",
                      QT_TRANSLATE_NOOP("TrainingOptions", "validation loss")},
                     {static_cast<int>(BestMetric::Task), "task-metric",
                      QT_TRANSLATE_NOOP("TrainingOptions", "the task's metric")}}},
        &TrainingConfig::bestMetric));
    add(bindField({.key = "early_stopping_patience",
                   .flag = "--early-stopping",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "Early stopping patience"),
                   .help = QT_TRANSLATE_NOOP(
                       "TrainingOptions",
                       "Stop when this many evaluations in a row bring no better 'best model by' "
                       "metric (0: never stop early)."),
                   .group = G::Optimisation,
                   .kind = K::Count,
                   .minimum = 0,
                   .maximum = 1000},
                  &TrainingConfig::earlyStoppingPatience));

    add(bindField(
        {.key = "max_non_finite_steps",
         .flag = "--max-non-finite-steps",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Stop after non-finite steps"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Stop the run as diverged after this many optimizer steps in a row whose loss is "
             "not finite (NaN or infinite): lower the learning rate then (0: never stop)."),
         .group = G::Optimisation,
         .kind = K::Count,
         .minimum = 0,
         .maximum = kLargeCount},
        &TrainingConfig::maxNonFiniteSteps));

    // ---- device and outputs ----
    add(bindField(
        {.key = "device",
         .flag = "--device",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "&Device"),
         .help = QT_TRANSLATE_NOOP("TrainingOptions", "Where training runs: cpu or cuda:N."),
         .group = G::Run,
         .kind = K::Device},
        &TrainingConfig::device));
    add(bindField(
        {.key = "processes",
         .flag = "--nproc",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Data-parallel processes"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Train as this many processes on this machine, each taking batch size x accumulation "
             "examples of every step and summing gradients with the others: on CUDA one per GPU "
             "(all of them), on the CPU to rehearse data parallel (Gloo over loopback). 1: one "
             "process. torchrun and Slurm launches are recognised by their environment instead."),
         .group = G::Run,
         .kind = K::Integer,
         .minimum = 1,
         .maximum = 256},
        &TrainingConfig::processes));
    add(bindField({.key = "threads",
                   .flag = "--threads",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "CPU threads"),
                   .help = QT_TRANSLATE_NOOP(
                       "TrainingOptions",
                       "Threads for LibTorch's CPU kernels (0: LibTorch's default, one per core)."),
                   .group = G::Run,
                   .kind = K::Integer,
                   .minimum = 0,
                   .maximum = 4096},
                  &TrainingConfig::threads));
    add(bindField(
        {.key = "tf32",
         .flag = "--tf32",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "TF32 matrix multiplies"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "On a CUDA GPU of the Ampere generation or newer, fp32 matrix multiplies run on "
             "TF32 tensor cores: several times faster, with about 10 bits of mantissa in their "
             "products. No effect on the CPU, under bf16/fp16 autocast's half-precision "
             "products, or on memory."),
         .group = G::Run,
         .kind = K::Flag,
         .summary = whenOn(&TrainingConfig::tf32, "TF32")},
        &TrainingConfig::tf32));
    add(bindField(
        {.key = "log_every_steps",
         .flag = "--log-every",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Log every N steps"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Read the loss, gradient norm and loss scale back from the device every N "
             "optimizer steps (and at each epoch end); each point of the curves is then the "
             "mean of N steps. Every read waits for the GPU to finish its queued work: a larger "
             "N keeps a GPU busy. 1: every step."),
         .group = G::Run,
         .kind = K::Count,
         .minimum = 1,
         .maximum = kLargeCount},
        &TrainingConfig::logEverySteps));
    add(bindField({.key = "save_checkpoints",
                   .flag = "--no-checkpoints",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "Save checkpoints"),
                   .help = QT_TRANSLATE_NOOP(
                       "TrainingOptions",
                       "Save the model and training state at epoch ends, at the best validation "
                       "accuracy and on cancel, so runs can resume and export."),
                   .group = G::Run,
                   .kind = K::Flag},
                  &TrainingConfig::saveCheckpoints));
    return table;
}

}  // namespace bert
