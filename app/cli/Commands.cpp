#include "Commands.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <iomanip>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "Error.h"
#include "distributed/Collective.h"
#include "hf/ModelFolder.h"
#include "io/AtomicFile.h"
#include "io/InputFile.h"
#include "io/Json.h"
#include "memory/DeviceTraits.h"
#include "memory/MemoryMonitor.h"
#include "memory/ProcessMemory.h"
#include "model/FamilyTraits.h"
#include "model/Inference.h"
#include "runs/OutputPaths.h"
#include "task/TaskGuess.h"
#include "text/Format.h"
#include "train/DefaultPrecision.h"
#include "train/EvaluationForecast.h"
#include "train/EventStream.h"
#include "train/MemoryForecast.h"
#include "train/Metrics.h"
#include "train/TrainingOptions.h"

namespace bert::cli {

void inspect(const std::filesystem::path& folder, bool json, std::ostream& out) {
    auto bundle = loadModelFolder(folder);
    const auto summary = summarizeParameters(*bundle.model);
    const auto& config = bundle.config;
    if (json) {
        nlohmann::json doc = {
            {"folder", folder.string()},
            {"config", config.toJson()},
            {"parameters", summary.count},
            {"weight_bytes", summary.bytes},
            {"family", familyOf(config.modelType).name},
            {"model_type", config.modelType},
            {"max_sequence_length", config.maxSequenceLength()},
            {"vocabulary_size", bundle.tokenizer->vocabularySize()},
            {"tokenizer", bundle.tokenizer->kind()},
            {"lowercase", bundle.tokenizer->lowercases()},
            {"weights_file", bundle.report.weightsFile.string()},
            {"missing_keys", bundle.report.missingKeys},
            {"unexpected_keys", bundle.report.unexpectedKeys},
        };
        out << doc.dump(2) << '\n';
        return;
    }
    out << "Model folder      " << folder.string() << '\n'
        << "Family            " << familyOf(config.modelType).name << " (" << config.modelType
        << ")\n"
        << "Weights           " << bundle.report.weightsFile.filename().string() << '\n'
        << "Layers            " << config.numHiddenLayers << '\n'
        << "Hidden size       " << config.hiddenSize << '\n'
        << "Attention heads   " << config.numAttentionHeads << '\n'
        << "Intermediate size " << config.intermediateSize << '\n'
        << "Activation        " << config.hiddenAct << '\n'
        << "Max tokens        " << config.maxSequenceLength() << '\n'
        << "Vocabulary        " << bundle.tokenizer->vocabularySize() << ", "
        << bundle.tokenizer->kind() << (bundle.tokenizer->lowercases() ? " (uncased)" : " (cased)")
        << '\n'
        << "Labels            ";
    for (std::size_t i = 0; i < config.labels.size(); ++i) {
        out << (i ? ", " : "") << config.labels[i];
    }
    out << '\n'
        << "Parameters        " << summary.count << '\n'
        << "Weight memory     " << formatBytes(static_cast<double>(summary.bytes)) << " (fp32)\n";
    if (const auto note = bundle.report.describe(); !note.empty()) {
        out << "Note              " << note << '\n';
    }
}

// ---- train / resume / estimate --------------------------------------------------------------

namespace {

/// "1 step", "2 steps": a count with its noun in the right number.
std::string counted(std::size_t count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

/// A progress bar with ETA, loss and memory on a terminal; one line per 5% otherwise.
class ProgressPrinter final : public TrainerObserver {
public:
    explicit ProgressPrinter(std::ostream& out)
        : out_(out), terminal_(::isatty(STDERR_FILENO) != 0) {}

    void onStarted(const RunStart& start) override {
        total_ = start.totalSteps;
        first_ = start.resumedFromStep;
        started_ = std::chrono::steady_clock::now();
        out_ << "training on " << start.device << ": "
             << counted(start.trainExamples, "example", "examples") << ", "
             << start.validationExamples << " for validation, "
             << counted(start.totalSteps, "step", "steps") << "\n"
             << "memory forecast " << formatBytes(static_cast<double>(start.forecast.total()));
        if (start.trialPeakBytes > 0) {
            out_ << ", trial step on the longest batch "
                 << formatBytes(static_cast<double>(start.trialPeakBytes));
        }
        out_ << "\n";
    }
    void onStep(const StepMetrics& m) override {
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
        const double done = static_cast<double>(m.step - first_);
        const double eta = done > 0 ? elapsed / done * static_cast<double>(total_ - m.step) : 0.0;
        const double fraction =
            total_ > 0 ? static_cast<double>(m.step) / static_cast<double>(total_) : 1.0;
        const auto percent = static_cast<int>(fraction * 100.0);
        if (!terminal_ && percent < lastPercent_ + 5 && m.step != total_) {
            return;
        }
        lastPercent_ = percent;
        constexpr int kBarWidth = 24;
        const int filled = static_cast<int>(fraction * kBarWidth);
        char line[256];
        std::snprintf(
            line, sizeof line, "[%s%s] %3d%% step %zu/%zu loss %.4f mem %s peak %s %s ETA %s",
            std::string(static_cast<std::size_t>(filled), '#').c_str(),
            std::string(static_cast<std::size_t>(kBarWidth - filled), '.').c_str(), percent, m.step,
            total_, m.loss, formatBytes(static_cast<double>(m.memory.current)).c_str(),
            formatBytes(static_cast<double>(m.memory.peak)).c_str(),
            m.microBatch
                ? ("mb " + std::to_string(m.microBatch) + "x" + std::to_string(m.accumulation))
                      .c_str()
                : "",
            formatDuration(eta).c_str());
        out_ << (terminal_ ? "\r" : "") << line << (terminal_ ? "" : "\n") << std::flush;
    }
    void onEvaluation(const EvalMetrics& m) override {
        char line[64];
        std::snprintf(line, sizeof line, "evaluation at step %zu: loss %.4f, ", m.step, m.loss);
        out_ << (terminal_ ? "\n" : "") << line << evaluationSummary(m) << "\n";
    }
    void onEvent(const TrainerEvent& event) override {
        if (event.data.is_object() && event.data.value("warning", false)) {
            out_ << (terminal_ ? "\n" : "") << "warning: " << event.message << "\n";
            return;
        }
        // What reading the data skipped or mended (rows without text, a NUL removed).
        if (event.data.is_object() && event.data.value("note", false)) {
            out_ << (terminal_ ? "\n" : "") << "note: " << event.message << "\n";
            return;
        }
        if (event.kind == EventKind::OomRecovered || event.kind == EventKind::EvalOomRecovered ||
            event.kind == EventKind::StepSkipped || event.kind == EventKind::Error ||
            event.kind == EventKind::Cancelled) {
            out_ << (terminal_ ? "\n" : "") << toString(event.kind) << ": " << event.message
                 << "\n";
        }
    }

private:
    std::ostream& out_;
    bool terminal_;
    std::size_t total_ = 0;
    std::size_t first_ = 0;
    int lastPercent_ = -5;
    std::chrono::steady_clock::time_point started_;
};

/// Collects what `train --report FILE` writes: per-step timings and sizes, and the process's
/// resident memory from the first training step on (the peak is reset when training starts, so
/// model loading and the trial step do not count). Benchmarks read it; so can users' scripts.
class RunReport final : public TrainerObserver {
public:
    void onStarted(const RunStart& start) override {
        started_ = std::chrono::steady_clock::now();
        preparationSeconds_ = std::chrono::duration<double>(started_ - created_).count();
        start_ = start;
        residentAtStart_ = residentBytes();
        peakResetWorked_ = resetPeakResident();
    }
    void onStep(const StepMetrics& m) override {
        const auto now = std::chrono::steady_clock::now();
        const double elapsed = std::chrono::duration<double>(now - started_).count();
        if (steps_.empty()) {
            firstStepSeconds_ = std::chrono::duration<double>(now - created_).count();
        }
        steps_.push_back({{"step", m.step},
                          {"end_seconds", elapsed},
                          {"examples", m.examples},
                          {"loss", m.loss},
                          {"real_tokens", m.realTokens},
                          {"padded_tokens", m.paddedTokens},
                          {"peak_tensor_bytes", m.memory.peak},
                          {"current_tensor_bytes", m.memory.current},
                          {"reserved_bytes", m.memory.reserved},
                          {"micro_batch", m.microBatch},
                          {"accumulation", m.accumulation}});
        peakResidentTraining_ = peakResidentBytes();
        // The allocator's own peak between logged steps, as torch.cuda.max_memory_reserved()
        // reports it: what it holds at the moment of logging misses the step's highest point.
        peakReserved_ = std::max(peakReserved_, m.memory.reservedPeak);
    }
    void onEvaluation(const EvalMetrics& m) override {
        nlohmann::json evaluation = {
            {"step", m.step}, {"loss", m.loss}, {"accuracy", m.accuracy}, {"macro_f1", m.macroF1}};
        if (m.task.is_object()) {
            evaluation["task"] = m.task.value("figures", nlohmann::json::object());
            // A null figure's reason ("the target is constant"), beside it.
            if (const auto undefined = m.task.value("undefined", nlohmann::json::object());
                !undefined.empty()) {
                evaluation["undefined"] = undefined;
            }
        }
        if (m.calibration.is_object()) {
            for (const auto* key : {"ece", "temperature", "calibrated_ece"}) {
                evaluation["calibration"][key] = m.calibration.value(key, nlohmann::json());
            }
        }
        evaluations_.push_back(std::move(evaluation));
    }

    nlohmann::json toJson(const SessionResult& session) const {
        const auto& result = session.result;
        return {{"run_id", session.runId},
                {"status", toString(result.status)},
                {"error", result.error},
                {"device", start_.device},
                {"train_examples", start_.trainExamples},
                {"validation_examples", start_.validationExamples},
                {"steps", steps_},
                {"evaluations", evaluations_},
                {"seconds", result.seconds},
                {"peak_tensor_bytes", result.peakMemoryBytes},
                {"peak_reserved_bytes", peakReserved_},
                {"forecast", start_.forecast.toJson()},
                {"forecast_bytes", start_.forecast.total()},
                {"trial_peak_bytes", start_.trialPeakBytes},
                // Time to the first step, from the command's start (the job read): model and
                // data loading, tokenising, the run's record and the trial step (its own
                // seconds apart), then the first step itself.
                {"first_step_seconds", firstStepSeconds_},
                {"preparation_seconds", preparationSeconds_ - start_.trialSeconds},
                {"trial_seconds", start_.trialSeconds},
                {"measured", result.measured.toJson()},
                {"resident_at_start_bytes", residentAtStart_},
                {"peak_resident_training_bytes", peakResetWorked_ ? peakResidentTraining_ : -1},
                {"peak_resident_process_bytes", peakResidentBytes()}};
    }

private:
    std::chrono::steady_clock::time_point created_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point started_;
    double preparationSeconds_ = 0.0;  ///< creation to onStarted (the trial step included)
    double firstStepSeconds_ = 0.0;
    RunStart start_;
    std::int64_t residentAtStart_ = -1;
    std::int64_t peakResidentTraining_ = -1;
    std::int64_t peakReserved_ =
        0;  ///< CUDA: the caching allocator's reserved bytes; CPU: tensor bytes
    bool peakResetWorked_ = false;
    nlohmann::json steps_ = nlohmann::json::array();
    nlohmann::json evaluations_ = nlohmann::json::array();
};

int reportResult(const SessionResult& session, std::ostream& out, std::ostream& err) {
    const auto& result = session.result;
    out << "run " << session.runId << " " << toString(result.status) << " after "
        << counted(result.steps, "step", "steps") << " in " << formatDuration(result.seconds)
        << "; peak memory " << formatBytes(static_cast<double>(result.peakMemoryBytes));
    if (!result.finalEval.confusion.empty() || result.finalEval.task.is_object()) {
        out << "; validation " << evaluationSummary(result.finalEval);
    }
    out << "\n";
    switch (result.status) {
        case RunStatus::Completed:
            return exit_code::kDone;
        case RunStatus::Cancelled:
            err << "cancelled; continue with: bert-studio-cli resume " << session.runId << "\n";
            return exit_code::kCancelled;
        default:
            err << "error: " << result.error << "\n";
            return result.storeFailure ? exit_code::kStoreFailed : exit_code::kRunFailed;
    }
}

}  // namespace

void loadConfigFile(const std::filesystem::path& file, TrainArguments& args) {
    std::string problem;
    const auto json = parseJson(readInputFile(file, input_limits::kSmallJson), problem);
    if (!problem.empty()) {
        throw InputError(file, problem);
    }
    if (!json.is_object()) {
        throw InputError(file, "is not a JSON object");
    }
    try {
        if (json.contains("data")) {
            const auto model = args.job.modelFolder;
            args.job = TrainingJob::fromJson(json);
            args.taskFromConfig = json["data"].is_object() && json["data"].contains("task");
            args.precisionGiven = json.contains("training") && json["training"].is_object() &&
                                  json["training"].contains("precision");
            if (args.job.modelFolder.empty()) {
                args.job.modelFolder = model;
            }
        } else {
            const auto& training = json.contains("training") ? json["training"] : json;
            args.job.training = TrainingConfig::fromJson(training);
            args.precisionGiven = training.is_object() && training.contains("precision");
        }
    } catch (const InputError& error) {
        throw InputError(file, error.problem());
    }
}

namespace {

/// What train --report must never overwrite: the job's data, its job file, its model (and, as
/// every output, run databases and runs folders).
ProtectedPaths readByTraining(const TrainArguments& args, const TrainingJob& job,
                              const std::filesystem::path& database) {
    ProtectedPaths reads;
    reads.files = {job.data.trainFile, args.configFile, database};
    if (job.data.validationFile) {
        reads.files.push_back(*job.data.validationFile);
    }
    reads.folders = {job.modelFolder};
    return reads;
}

}  // namespace

TrainingJob TrainArguments::resolve(std::string* note) const {
    TrainingJob resolved = job;
    resolved.training.validate();
    if (resolved.data.trainFile.empty()) {
        throw InputError(
            "no training data: give --train FILE (or a --config with data.train_file)");
    }
    if (!task.empty()) {
        resolved.data.task.kind = taskKindFromString(task).value_or(allTaskKinds().front());
    } else if (!taskFromConfig) {
        const auto guess = guessTask(resolved.data);
        resolved.data.task.kind = guess.kind;
        // A file of 0/1 columns trains on the columns the guess found, as the studio does.
        resolved.data.task.labelColumns = guess.labelColumns;
        if (note != nullptr) {
            *note =
                "task: " + toString(guess.kind) + " (" + guess.reason + "; --task chooses another)";
        }
    }
    // A model that fp16 makes diverge trains in bf16 where bf16 is native, unless told
    // otherwise. A folder that cannot be read is left to prepareJob, which says why.
    const auto config = resolved.modelFolder / "config.json";
    if (!precisionGiven && resolved.preset.empty() && !resolved.modelFolder.empty() &&
        std::filesystem::is_regular_file(config)) {
        try {
            const auto model = EncoderConfig::fromFile(config);
            const auto device = deviceTraits(resolved.training.device);
            resolved.training.precision = defaultPrecision(model, device);
            if (const auto reason = defaultPrecisionReason(model, device);
                !reason.empty() && note != nullptr) {
                *note += (note->empty() ? "" : "\n") + std::string("precision: ") +
                         toString(resolved.training.precision) + " (" + reason +
                         "; --precision chooses another)";
            }
        } catch (const InputError&) {
        }
        resolved.training.validate();
    }
    return resolved;
}

namespace {

/// The --events-fd observer, or null without one. Throws InputError for a descriptor that is
/// not open, before anything is stored.
std::unique_ptr<JsonLinesObserver> eventsObserver(int fd) {
    if (fd < 0) {
        return nullptr;
    }
    if (::fcntl(fd, F_GETFD) < 0) {
        throw InputError("--events-fd " + std::to_string(fd) + " is not an open file descriptor");
    }
    return std::make_unique<JsonLinesObserver>(fd);
}

/// What rank 0 (or the only process) reports to: the progress line, and the events' pipe.
struct Rank0Observers {
    Rank0Observers(std::ostream& err, int eventsFd)
        : progress(err), events(eventsObserver(eventsFd)) {
        list.add(&progress);
        if (events) {
            list.add(events.get());
        }
    }
    std::function<void(std::int64_t)> onRunCreated() {
        return [this](std::int64_t runId) {
            if (events) {
                events->runCreated(runId);
            }
        };
    }
    ProgressPrinter progress;
    std::unique_ptr<JsonLinesObserver> events;
    ObserverList list;
};

}  // namespace

int train(const TrainArguments& args, const std::filesystem::path& database,
          const std::atomic<bool>& cancel, std::ostream& out, std::ostream& err) {
    RunReport report;  // first: its clock starts with the command
    std::string taskNote;
    const auto job = args.resolve(&taskNote);
    if (!taskNote.empty()) {
        err << taskNote << "\n";
    }
    Rank0Observers observers(err, args.eventsFd);
    // The report reads /proc every step and resets the process's peak resident size: only when
    // asked for.
    if (!args.reportFile.empty()) {
        checkOutputFile(args.reportFile, "--report", readByTraining(args, job, database));
        observers.list.add(&report);
    }
    const auto session =
        runTrainingJob(job, database, &observers.list, cancel, observers.onRunCreated());
    err << "\n";
    if (!args.reportFile.empty()) {
        checkOutputFile(args.reportFile, "--report", readByTraining(args, job, database));
        writeFileAtomically(args.reportFile, report.toJson(session).dump(1) + "\n");
    }
    return reportResult(session, out, err);
}

namespace {

/// A rank other than 0 says nothing unless it fails; its exit code is as rank 0's would be.
int rankExitCode(const RunResult& result, int rank, std::ostream& err) {
    switch (result.status) {
        case RunStatus::Completed:
            return exit_code::kDone;
        case RunStatus::Cancelled:
            return exit_code::kCancelled;
        default:
            err << "error: rank " << rank << ": " << result.error << "\n";
            return result.storeFailure ? exit_code::kStoreFailed : exit_code::kRunFailed;
    }
}

}  // namespace

int trainAsRank(const TrainArguments& args, const std::filesystem::path& database,
                const std::atomic<bool>& cancel, std::ostream& out, std::ostream& err) {
    RunReport report;  // first: its clock starts with the command
    const auto world = WorldInfo::fromEnvironment();
    auto job = args.resolve();
    job.training.device = world.deviceForRank(job.training.device, cudaDeviceCount());
    const auto collective = Collective::connect(world, c10::Device(job.training.device));
    if (world.rank == 0) {
        Rank0Observers observers(err, args.eventsFd);
        // --report is rank 0's, as under `train` (issue 26: it was silently never written).
        if (!args.reportFile.empty()) {
            checkOutputFile(args.reportFile, "--report", readByTraining(args, job, database));
            observers.list.add(&report);
        }
        const auto session = runTrainingJob(job, database, &observers.list, cancel,
                                            observers.onRunCreated(), collective.get());
        err << "\n";
        if (!args.reportFile.empty()) {
            checkOutputFile(args.reportFile, "--report", readByTraining(args, job, database));
            writeFileAtomically(args.reportFile, report.toJson(session).dump(1) + "\n");
        }
        return reportResult(session, out, err);
    }
    return rankExitCode(trainAsDataParallelWorker(job, *collective, cancel), world.rank, err);
}

int resumeAsRank(const ResumeArguments& args, const std::filesystem::path& database,
                 const std::atomic<bool>& cancel, std::ostream& out, std::ostream& err) {
    const auto runId = args.run;
    const auto world = WorldInfo::fromEnvironment();
    // The backend follows the run's device: each rank on its own GPU under CUDA.
    const auto run = RunStore(database, RunStore::Access::ReadOnly).run(runId);
    if (!run) {
        throw InputError(database, "has no run " + std::to_string(runId));
    }
    const c10::Device device(
        world.deviceForRank(jobOfRun(*run).training.device, cudaDeviceCount()));
    const auto collective = Collective::connect(world, device);
    if (world.rank == 0) {
        Rank0Observers observers(err, args.eventsFd);
        observers.onRunCreated()(runId);
        const auto session = resumeTrainingRun(runId, database, &observers.list, cancel,
                                               collective.get(), args.fromCheckpoint);
        err << "\n";
        return reportResult(session, out, err);
    }
    return rankExitCode(
        resumeAsDataParallelWorker(runId, database, *collective, cancel, args.fromCheckpoint),
        world.rank, err);
}

int resume(const ResumeArguments& args, const std::filesystem::path& database,
           const std::atomic<bool>& cancel, std::ostream& out, std::ostream& err) {
    Rank0Observers observers(err, args.eventsFd);
    observers.onRunCreated()(args.run);
    const auto session = resumeTrainingRun(args.run, database, &observers.list, cancel, nullptr,
                                           args.fromCheckpoint);
    err << "\n";
    return reportResult(session, out, err);
}

void estimate(const TrainArguments& args, bool trial, bool largestBatch, std::ostream& out) {
    const auto job = args.resolve();
    if (largestBatch) {
        const std::atomic<bool> never{false};
        const auto fit = findLargestBatch(job, never);
        if (!fit.fits) {
            out << "not even a micro-batch of 1 fits in "
                << formatBytes(static_cast<double>(fit.budgetBytes));
            // The advice's wider search (frozen layers, precision, checkpointing...): one answer.
            auto prepared = prepareJob(job);
            const auto advice = suggestFit(prepared.model.config, job.training,
                                           ExampleLengths::of(prepared.data.train.lengths),
                                           fit.budgetBytes, deviceTraits(job.training.device));
            if (advice.fits) {
                out << "; to fit: " << advice.description
                    << "\nflags: " << changedFlags(job.training, advice.config);
            } else {
                out << "; nothing makes it fit";
            }
            out << "\n";
            return;
        }
        out << "largest micro-batch that fits: " << fit.config.batchSize << " x accumulation "
            << fit.config.accumulationSteps << " (effective batch " << fit.config.stepExamples()
            << "), forecast " << formatBytes(static_cast<double>(fit.forecastBytes))
            << ", trial step " << formatBytes(static_cast<double>(fit.trialPeakBytes)) << " of "
            << formatBytes(static_cast<double>(fit.budgetBytes)) << " (" << fit.trials
            << (fit.trials == 1 ? " trial" : " trials") << ")\n"
            << "flags: --batch-size " << fit.config.batchSize << " --accumulation "
            << fit.config.accumulationSteps << "\n";
        return;
    }
    auto prepared = prepareJob(job);
    TrainerObserver silent;
    Trainer trainer(prepared.model, prepared.data, job.training, silent);
    const auto forecast = trainer.forecast();
    const std::int64_t budget =
        job.training.memoryCapBytes.value_or(deviceMemoryBytes(c10::Device(job.training.device)));
    auto row = [&](const char* name, std::int64_t bytes, const std::string& note = {}) {
        out << std::left << std::setw(20) << name << std::right << std::setw(12)
            << formatBytes(static_cast<double>(bytes)) << (note.empty() ? "" : "  " + note) << "\n";
    };
    // Which gradients exist at the peak, as MemoryForecast.h explains.
    const char* aliveAtPeak =
        job.training.accumulationSteps > 1
            ? "all of them: earlier micro-batches' gradients meet the next one's activations"
        : job.training.gradientCheckpointing
            ? "all but the embeddings': the peak comes while backward recomputes the layers"
            : "only the head's: the peak is the start of backward";
    out << "Memory forecast for " << job.displayName() << " on " << job.training.device << "\n";
    row("weights", forecast.weights);
    row("gradients", forecast.gradients);
    row("  alive at the peak", forecast.peakGradients, aliveAtPeak);
    row("optimizer state", forecast.optimizerState);
    row("activations", forecast.activations);
    row(forecast.allocatorOverhead > 0 ? "tensor peak" : "peak", forecast.total(),
        "weights + optimizer state + activations + gradients alive");
    if (forecast.allocatorOverhead > 0 || forecast.outsideAllocator > 0) {
        // CUDA: the allocated peak is what the trial step measures; a cap limits what the
        // caching allocator reserves; the device must hold everything the process takes.
        row("allocator overhead", forecast.allocatorOverhead,
            "cuBLAS workspaces, block and segment rounding, cached blocks");
        row("reserved peak", forecast.reserved(), "what a memory cap limits");
        row("outside allocator", forecast.outsideAllocator, "CUDA context, NCCL buffers");
        row("process total", forecast.processTotal(), "what the device must hold");
    }
    row(job.training.memoryCapBytes ? "memory cap" : "device memory", budget);
    if (const auto warning = emulatedPrecisionWarning(deviceTraits(job.training.device),
                                                      toString(job.training.precision));
        !warning.empty()) {
        out << "note: " << warning << "\n";
    }
    if (const auto advice = tf32Advice(deviceTraits(job.training.device),
                                       toString(job.training.precision), job.training.tf32);
        !advice.empty()) {
        out << "note: " << advice << "\n";
    }
    if (const auto note = largeEmbeddingNote(prepared.model.config, job.training); !note.empty()) {
        out << "note: " << note << "\n";
    }
    // Evaluation counts too: a run that fits its steps can run out of memory evaluating.
    auto lengths = prepared.data.train.lengths;
    lengths.insert(lengths.end(), prepared.data.validation.lengths.begin(),
                   prepared.data.validation.lengths.end());
    const auto evaluation =
        forecastEvaluationPeak(prepared.model.config, job.training, ExampleLengths::of(lengths));
    row("evaluation peak", evaluation,
        "batches of " + std::to_string(job.training.evalBatchSize) + ", no gradients");
    if (trial) {
        row("trial step peak", trainer.trialStepPeak());
    }
    // Like with like: the reserved peak against a cap, the process's total against the device;
    // evaluation's tensors carry the same terms beyond the tensors as a step's (CUDA only).
    const auto budgeted = budgetedBytes(forecast, job.training);
    const auto peak = std::max(budgeted, evaluation + (budgeted - forecast.total()));
    if (peak <= budget) {
        out << "fits (" << std::fixed << std::setprecision(0)
            << 100.0 * static_cast<double>(peak) / static_cast<double>(budget)
            << "% of the budget)\n";
        return;
    }
    const auto advice = suggestFit(prepared.model.config, job.training,
                                   ExampleLengths::of(prepared.data.train.lengths), budget,
                                   deviceTraits(job.training.device));
    out << "will not fit"
        << (advice.fits ? "; to fit: " + advice.description : "; nothing makes it fit") << "\n";
    if (advice.fits) {
        out << "flags: " << changedFlags(job.training, advice.config) << "\n";
    }
}

}  // namespace bert::cli
