#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "runs/TrainingJob.h"

namespace bert::cli {

/// `inspect`: configuration, parameter count, weight memory and tokenizer of a model folder.
void inspect(const std::filesystem::path& folder, bool json, std::ostream& out);

/// `predict`: what to classify and with which model.
struct PredictArguments {
    std::filesystem::path modelFolder;  ///< a transformers folder, when no run is given
    std::int64_t run = 0;               ///< a stored run's best model
    std::vector<std::string>
        texts;                   ///< texts to classify; "-" reads standard input, a text per line
    std::filesystem::path file;  ///< a CSV/TSV/JSONL file to score instead
    std::string textColumn = "text";
    std::string pairColumn;          ///< a file's second texts (a model trained on pairs)
    std::vector<std::string> pairs;  ///< the second text of each text given, in order
    std::string labelColumn;         ///< when given (for a file): accuracy against it
    std::filesystem::path output;  ///< predictions of a file as CSV (default: none, a summary only)
    std::size_t maxLength = 0;     ///< 0: the run's own max length, else the model's positions
    std::size_t batchSize = 32;    ///< texts per forward pass
    int threads = 0;               ///< LibTorch's CPU threads (0: its default)
    bool json = false;             ///< one JSON object per text
};

/// `predict`: label probabilities of texts, standard input or a file under a run's model or a
/// model folder. Returns the exit code.
int predict(const PredictArguments& args, const std::filesystem::path& database, std::istream& in,
            std::ostream& out, std::ostream& err);

/// The flags of `train` and `estimate`: the job, filled by the flags' callbacks (each training
/// option's flag writes job.training through its descriptor, train/TrainingOptions.h).
struct TrainArguments {
    TrainingJob job;
    std::string configFile;
    std::string reportFile;  ///< train --report: per-step timings and memory as JSON
    int eventsFd = -1;       ///< train --events-fd: JSON lines of the run's events (-1: none)
    /// --task as given; empty: the job's (a --config file's), else guessed from the data.
    std::string task;
    bool taskFromConfig = false;  ///< the --config file's job named its task
    /// --precision was given, as a flag or in the --config file; else the model's default
    /// (train/DefaultPrecision.h) is taken and said.
    bool precisionGiven = false;
    /// The job, checked as a whole, its task and precision chosen; throws InputError for an
    /// impossible combination. note, when given, receives what was guessed or defaulted, a line
    /// each ("" when nothing was).
    TrainingJob resolve(std::string* note = nullptr) const;
};

/// Loads --config FILE (a whole job, or just its "training" settings) into args before flags
/// are parsed, so that flags given on the command line override the file.
void loadConfigFile(const std::filesystem::path& file, TrainArguments& args);

/// `train`: returns the exit code (0 completed, 3 failed, 130 cancelled).
int train(const TrainArguments& args, const std::filesystem::path& database,
          const std::atomic<bool>& cancel, std::ostream& out, std::ostream& err);
/// `train` as one rank of a data-parallel run that torchrun, Slurm or launchWorkers started
/// (world from WorldInfo::fromEnvironment): rank 0 records the run and prints as `train` does;
/// the others print only errors. Returns the exit code as `train`.
int trainAsRank(const TrainArguments& args, const std::filesystem::path& database,
                const std::atomic<bool>& cancel, std::ostream& out, std::ostream& err);
/// `train --nproc N`: starts N copies of this program as ranks 0..N-1 on this machine (rank 0
/// hosts the rendezvous on a free loopback port), passes Ctrl-C on, and waits. When a rank
/// fails, the others get 30 s to stop on their own (their collectives fail and rank 0 records
/// the run as failed) before they are terminated. Returns rank 0's exit code when all succeed,
/// else the failing rank's: 2 for bad input, 130 cancelled, 3 otherwise, with a message that
/// names the rank.
int launchWorkers(int processes, int argc, char** argv, const std::atomic<bool>& cancel,
                  std::ostream& err);
/// What `resume` continues and how.
struct ResumeArguments {
    std::int64_t run = 0;
    int eventsFd = -1;  ///< >= 0: the run's events as JSON lines there too (EventStream.h)
    bool fromCheckpoint = false;  ///< the model, config and tokenizer of the run's own checkpoint
};
/// `resume` as one rank of a data-parallel launch (as trainAsRank).
int resumeAsRank(const ResumeArguments& args, const std::filesystem::path& database,
                 const std::atomic<bool>& cancel, std::ostream& out, std::ostream& err);
/// `resume`: returns the exit code as `train`.
int resume(const ResumeArguments& args, const std::filesystem::path& database,
           const std::atomic<bool>& cancel, std::ostream& out, std::ostream& err);
void estimate(const TrainArguments& args, bool trial, bool largestBatch, std::ostream& out);

void listRuns(const std::filesystem::path& database, bool json, std::ostream& out);
void showRun(const std::filesystem::path& database, std::int64_t runId, std::ostream& out);
void compareRuns(const std::filesystem::path& database, const std::vector<std::int64_t>& runIds,
                 std::ostream& out);

/// `clean`: the job whose training file is searched for label errors, and what to write.
struct CleanArguments {
    TrainArguments train;
    std::size_t folds = 5;
    std::size_t show = 20;          ///< rows printed (0: all)
    std::filesystem::path output;   ///< the ranked list as CSV
    std::filesystem::path cleaned;  ///< a corrected copy of the training file
    bool relabel = false;           ///< in the copy, the likely label instead of dropping the row
};
/// `clean`: returns the exit code (0 done, 130 cancelled); throws InputError for a job that
/// cannot be cleaned.
int clean(const CleanArguments& args, const std::atomic<bool>& cancel, std::ostream& out,
          std::ostream& err);

/// text on one line (newlines and tabs as spaces), cut to width code points with "…": a cell
/// of the tables `runs examples` and `clean` print.
std::string oneLineCell(const std::string& text, std::size_t width);

/// `runs examples`: which of a run's validation examples to print, and how.
struct ExamplesArguments {
    std::int64_t run = 0;
    std::size_t worst = 0;      ///< the first N by loss (0: all that are kept)
    bool wrongOnly = false;     ///< only the examples predicted wrong
    std::filesystem::path csv;  ///< write them as CSV there instead of printing
    bool json = false;
};
/// Prints (or writes) the per-example results of a run's best evaluation, highest loss first.
/// Throws InputError for a run without them.
void showExamples(const std::filesystem::path& database, const ExamplesArguments& args,
                  std::ostream& out);

}  // namespace bert::cli
