#include "runs/LabelCleaning.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "Error.h"
#include "io/AtomicFile.h"
#include "runs/TaskPrediction.h"
#include "runs/TrainingJob.h"
#include "task/Task.h"

namespace bert {

namespace {

/// A folder of the folds' files, removed with everything in it when the work is done.
class ScratchFolder {
public:
    ScratchFolder() {
        std::random_device seed;
        path_ = std::filesystem::temp_directory_path() /
                ("bert-studio-clean-" + std::to_string(seed()) + std::to_string(seed()));
        std::filesystem::create_directories(path_);
    }
    ~ScratchFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

/// The examples as a CSV with the job's column names: what a fold trains or predicts on.
std::string examplesCsv(const ColumnSpec& columns, const std::vector<const Example*>& examples) {
    // Appended piece by piece: GCC 12 warns (stringop-overflow) on "," + a temporary.
    const bool pairs = !columns.textPair.empty();
    std::string csv;
    auto line = [&](const std::string& text, const std::string& pair, const std::string& label) {
        csv += csvField(text);
        if (pairs) {
            csv += ',';
            csv += csvField(pair);
        }
        csv += ',';
        csv += csvField(label);
        csv += '\n';
    };
    line(columns.text, columns.textPair, columns.label);
    for (const auto* example : examples) {
        line(example->text, example->pair, example->label);
    }
    return csv;
}

/// A fold trains silently: its line (accuracy on the held-out labels) says what it did.
class Quiet final : public TrainerObserver {};

}  // namespace

std::vector<std::size_t> stratifiedFolds(const std::vector<std::string>& labels, std::size_t folds,
                                         std::uint64_t seed, const std::filesystem::path& file) {
    std::map<std::string, std::vector<std::size_t>> byLabel;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        byLabel[labels[i]].push_back(i);
    }
    for (const auto& [label, indices] : byLabel) {
        if (indices.size() < folds) {
            throw InputError(file, "the class \"" + label + "\" has " +
                                       std::to_string(indices.size()) + " example" +
                                       (indices.size() == 1 ? "" : "s") + ", fewer than the " +
                                       std::to_string(folds) +
                                       " folds: every fold must hold each class (choose "
                                       "fewer folds, or remove the class)");
        }
    }
    std::mt19937_64 random(seed);
    std::vector<std::size_t> foldOf(labels.size(), 0);
    std::size_t next = 0;  // where the next class starts dealing: the folds stay even
    for (auto& [label, indices] : byLabel) {
        std::shuffle(indices.begin(), indices.end(), random);
        for (const auto index : indices) {
            foldOf[index] = next;
            next = (next + 1) % folds;
        }
    }
    return foldOf;
}

LabelCleaningReport findLabelErrors(const TrainingJob& job, std::size_t folds,
                                    const std::atomic<bool>& cancel,
                                    const std::function<void(const std::string&)>& progress) {
    // One class per example, its probabilities a softmax: single-label classification.
    const auto& task = taskOf(job.data.task.kind);
    if (!task.oneClassPerExample()) {
        throw InputError("clean finds label errors of single-label classification, not " +
                         std::string(task.id()));
    }
    if (folds < 2) {
        throw InputError(
            "--folds must be 2 or more (each example is predicted by a model "
            "trained on the other folds)");
    }
    const auto all = loadExamples(job.data.trainFile, job.data.columns);
    const auto labelMap = buildLabelMap(all);
    std::vector<std::string> given;
    for (const auto& example : all.examples) {
        given.push_back(example.label);
    }
    const auto foldOf = stratifiedFolds(given, folds, job.training.seed, job.data.trainFile);

    LabelCleaningReport report;
    report.file = job.data.trainFile;
    report.examples = all.examples.size();
    report.folds = folds;
    report.labels = labelMap.names;
    const std::size_t classes = labelMap.size();
    std::vector<double> probabilities(all.examples.size() * classes, 0.0);
    const ScratchFolder scratch;
    const c10::Device device(job.training.device);
    for (std::size_t f = 0; f < folds; ++f) {
        if (cancel.load()) {
            report.cancelled = true;
            return report;
        }
        std::vector<const Example*> training;
        std::vector<const Example*> heldOut;
        std::vector<std::size_t> heldIndex;
        for (std::size_t i = 0; i < all.examples.size(); ++i) {
            if (foldOf[i] == f) {
                heldOut.push_back(&all.examples[i]);
                heldIndex.push_back(i);
            } else {
                training.push_back(&all.examples[i]);
            }
        }
        auto foldJob = job;
        foldJob.data.trainFile = scratch.path() / ("fold-" + std::to_string(f + 1) + "-train.csv");
        foldJob.data.validationFile =
            scratch.path() / ("fold-" + std::to_string(f + 1) + "-held-out.csv");
        std::ofstream(foldJob.data.trainFile, std::ios::binary)
            << examplesCsv(job.data.columns, training);
        std::ofstream(*foldJob.data.validationFile, std::ios::binary)
            << examplesCsv(job.data.columns, heldOut);
        foldJob.training.saveCheckpoints = false;
        auto prepared = prepareJob(foldJob);
        if (prepared.data.labels.names != labelMap.names) {
            throw EngineError("fold " + std::to_string(f + 1) + " does not hold every class");
        }
        Quiet quiet;
        Trainer trainer(prepared.model, prepared.data, foldJob.training, quiet);
        const auto result = trainer.run(cancel);
        if (result.status == RunStatus::Cancelled) {
            report.cancelled = true;
            return report;
        }
        if (result.status != RunStatus::Completed) {
            throw EngineError("fold " + std::to_string(f + 1) + " of " + std::to_string(folds) +
                              " failed: " + result.error);
        }
        // The held-out examples as the fold's model reads them: the job's max length and its
        // long-text strategy, probabilities as trained (no temperature).
        TaskSettings settings;
        settings.kind = job.data.task.kind;
        settings.longText = job.training.longTextSpec();
        if (settings.longText.pooling == WindowPooling::Task) {
            settings.longText.pooling = task.windowPooling();
        }
        std::vector<std::string> texts;
        std::vector<std::string> pairs;
        for (const auto* example : heldOut) {
            texts.push_back(example->text);
            if (!job.data.columns.textPair.empty()) {
                pairs.push_back(example->pair);
            }
        }
        const auto predictions =
            predictTexts(settings, *prepared.model.model, *prepared.model.tokenizer, texts,
                         job.training.maxLength, std::max<std::size_t>(1, job.training.batchSize),
                         device, pairs);
        std::size_t right = 0;
        for (std::size_t h = 0; h < heldOut.size(); ++h) {
            const auto& scores = predictions[h].scores;
            const auto row = heldIndex[h] * classes;
            for (std::size_t c = 0; c < classes && c < scores.size(); ++c) {
                probabilities[row + c] = scores[c];
            }
            const auto best = static_cast<std::size_t>(
                std::max_element(scores.begin(), scores.end()) - scores.begin());
            right += labelMap.names[best] == heldOut[h]->label ? 1 : 0;
        }
        const double accuracy = static_cast<double>(right) /
                                static_cast<double>(std::max<std::size_t>(1, heldOut.size()));
        report.foldAccuracy.push_back(accuracy);
        if (progress) {
            char line[160];
            std::snprintf(line, sizeof line,
                          "fold %zu/%zu: trained on %zu examples, %zu held out, accuracy %.4f "
                          "on their labels",
                          f + 1, folds, training.size(), heldOut.size(), accuracy);
            progress(line);
        }
    }
    std::vector<std::int64_t> ids;
    for (const auto& example : all.examples) {
        ids.push_back(*labelMap.id(example.label));
    }
    report.found = findLabelIssues(ids, probabilities, classes);
    for (const auto& issue : report.found.issues) {
        const auto& example = all.examples[issue.example];
        LabelErrorRow row;
        row.example = issue.example;
        row.line = example.line;
        row.text = example.text;
        row.pair = example.pair;
        row.given = example.label;
        row.likely = labelMap.names[static_cast<std::size_t>(issue.likely)];
        row.quality = issue.quality;
        report.rows.push_back(std::move(row));
    }
    return report;
}

void writeLabelErrorsCsv(const LabelCleaningReport& report, const std::filesystem::path& file) {
    std::string csv = "rank,line,given,likely,quality,text,pair\n";
    for (std::size_t r = 0; r < report.rows.size(); ++r) {
        const auto& row = report.rows[r];
        csv += std::to_string(r + 1) + "," + std::to_string(row.line) + "," + csvField(row.given) +
               "," + csvField(row.likely) + "," + fixedNumber(row.quality, "%.6f") + "," +
               csvField(row.text) + "," + csvField(row.pair) + "\n";
    }
    writeFileAtomically(file, csv);
}

void refuseTrainingFileAsCopy(const TrainingJob& job, const std::filesystem::path& file) {
    std::error_code error;
    if (std::filesystem::equivalent(file, job.data.trainFile, error)) {
        throw InputError(file,
                         "is the training file itself; the cleaned copy goes to a new "
                         "file beside it, never over your data");
    }
}

void writeCleanedFile(const TrainingJob& job, const LabelCleaningReport& report,
                      const std::filesystem::path& file, bool relabel) {
    std::error_code error;
    if (std::filesystem::equivalent(file, job.data.trainFile, error)) {
        throw InputError(file,
                         "is the training file itself; the cleaned copy goes to a new "
                         "file beside it, never over your data");
    }
    const auto all = loadExamples(job.data.trainFile, job.data.columns);
    std::map<std::size_t, const LabelErrorRow*> found;
    for (const auto& row : report.rows) {
        found[row.example] = &row;
    }
    std::vector<Example> kept;
    for (std::size_t i = 0; i < all.examples.size(); ++i) {
        const auto it = found.find(i);
        if (it == found.end()) {
            kept.push_back(all.examples[i]);
        } else if (relabel) {
            kept.push_back(all.examples[i]);
            kept.back().label = it->second->likely;
        }
    }
    std::vector<const Example*> pointers;
    for (const auto& example : kept) {
        pointers.push_back(&example);
    }
    writeFileAtomically(file, examplesCsv(job.data.columns, pointers));
}

}  // namespace bert
