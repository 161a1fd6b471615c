// `runs list`, `runs show`, `runs compare`: what the run store holds, as tables or JSON.
#include <cstdio>
#include <functional>
#include <iomanip>
#include <map>
#include <optional>
#include <ostream>

#include <nlohmann/json.hpp>

#include "Commands.h"
#include "Error.h"
#include "data/LabelCheck.h"
#include "runs/RunCompare.h"
#include "runs/RunStore.h"
#include "runs/RunTask.h"
#include "text/Format.h"
#include "train/Metrics.h"

namespace bert::cli {

// ---- runs ------------------------------------------------------------------------------------

namespace {

std::string percent(double value) {
    char text[16];
    std::snprintf(text, sizeof text, "%.4f", value);
    return text;
}

/// text in a column of width characters (code points, not bytes): padded, or cut with "…" so
/// that one column stays free between it and the next.
std::string column(const std::string& text, std::size_t width) {
    std::size_t points = 0;
    std::size_t cut = std::string::npos;  // the byte where the (width - 2)th code point ends
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            if (points == width - 2) {
                cut = i;
            }
            ++points;
        }
    }
    if (points >= width) {
        return text.substr(0, cut) + "… ";
    }
    return text + std::string(width - points, ' ');
}

/// A run's best by its task's metric, named: "0.6560 micro-F1", "0.5760 RMSE"; "-" when it
/// never evaluated.
std::string bestTaskMetricText(RunStore& store, std::int64_t runId) {
    const auto best = bestTaskMetric(store.evaluations(runId));
    return best ? percent(best->value) + " " + figureName(best->metric) : std::string("-");
}

}  // namespace

void listRuns(const std::filesystem::path& database, bool json, std::ostream& out) {
    // Listing a database that does not exist yet (or an empty file, as a crash before the
    // first run leaves it) lists nothing, and creates nothing.
    std::error_code error;
    const bool empty = !std::filesystem::exists(database, error) ||
                       (std::filesystem::is_regular_file(database, error) &&
                        std::filesystem::file_size(database, error) == 0);
    std::optional<RunStore> store;
    if (!empty) {
        store.emplace(database, RunStore::Access::ReadOnly);
    }
    const auto runs = store ? store->runs() : std::vector<RunRecord>{};
    if (json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& run : runs) {
            const auto best = bestTaskMetric(store->evaluations(run.id));
            list.push_back({{"id", run.id},
                            {"name", run.name},
                            {"created_at", run.createdAt},
                            {"status", toString(run.status)},
                            {"base_model", run.baseModel},
                            {"techniques", run.techniques},
                            {"best_accuracy", run.bestAccuracy},
                            {"best_task_metric",
                             best ? nlohmann::json{{"metric", best->metric}, {"value", best->value}}
                                  : nlohmann::json()},
                            {"peak_memory_bytes", run.peakMemoryBytes},
                            {"seconds", run.seconds}});
        }
        out << list.dump(2) << "\n";
        return;
    }
    out << std::left << std::setw(5) << "id" << std::setw(28) << "name" << std::setw(22)
        << "created" << std::setw(12) << "status" << std::setw(22) << "best task metric"
        << std::setw(11) << "peak" << std::setw(10) << "time"
        << "techniques\n";
    for (const auto& run : runs) {
        out << std::left << std::setw(5) << run.id << column(run.name, 28) << std::setw(22)
            << run.createdAt << std::setw(12) << toString(run.status)
            << column(bestTaskMetricText(*store, run.id), 22) << std::setw(11)
            << formatBytes(static_cast<double>(run.peakMemoryBytes)) << std::setw(10)
            << formatDuration(run.seconds) << run.techniques << "\n";
    }
}

void showRun(const std::filesystem::path& database, std::int64_t runId, std::ostream& out) {
    RunStore store(database, RunStore::Access::ReadOnly);
    const auto run = store.run(runId);
    if (!run) {
        throw InputError(database, "has no run " + std::to_string(runId));
    }
    // Labels that would look alike (a trailing space, another Unicode form) are shown apart.
    const auto labels = distinctLabelNames(run->labels);
    out << "Run " << run->id << ": " << run->name << "\n"
        << "Status       " << toString(run->status)
        << (run->error.empty() ? "" : " (" + run->error + ")") << "\n"
        << "Created      " << run->createdAt << "\n"
        << "Model        " << run->baseModel << "\n"
        << "Dataset      " << run->datasetPath << " (" << run->datasetFingerprint << ")\n"
        << "Labels       ";
    for (std::size_t i = 0; i < labels.size(); ++i) {
        out << (i ? ", " : "") << labels[i];
    }
    out << "\nTechniques   " << run->techniques << "\n"
        << "Device       " << run->device << "\n"
        << "Memory       peak " << formatBytes(static_cast<double>(run->peakMemoryBytes))
        << ", forecast " << formatBytes(static_cast<double>(run->forecastBytes)) << ", trial step "
        << formatBytes(static_cast<double>(run->trialPeakBytes)) << "\n"
        << "Accuracy     best " << percent(run->bestAccuracy) << "\n"
        << "Duration     " << formatDuration(run->seconds) << "\n";
    const auto steps = store.steps(runId);
    // Data parallel: each rank's highest peak over the run.
    std::vector<std::int64_t> rankPeaks;
    for (const auto& step : steps) {
        rankPeaks.resize(std::max(rankPeaks.size(), step.rankMemory.size()), 0);
        for (std::size_t r = 0; r < step.rankMemory.size(); ++r) {
            rankPeaks[r] = std::max(rankPeaks[r], step.rankMemory[r].peak);
        }
    }
    if (!rankPeaks.empty()) {
        out << "Ranks        peak";
        for (std::size_t r = 0; r < rankPeaks.size(); ++r) {
            out << (r ? ", " : " ") << "rank " << r << " "
                << formatBytes(static_cast<double>(rankPeaks[r]));
        }
        out << "\n";
    }
    out << "Steps        " << steps.size();
    if (!steps.empty()) {
        out << " (loss " << percent(steps.front().loss) << " -> " << percent(steps.back().loss)
            << ")";
    }
    out << "\n";
    for (const auto& epoch : store.epochs(runId)) {
        out << "Epoch " << epoch.epoch << "      padding share " << percent(epoch.paddingShare())
            << ", " << formatDuration(epoch.seconds) << "\n";
    }
    const auto evaluations = store.evaluations(runId);
    for (const auto& eval : evaluations) {
        if (eval.task.is_object()) {
            out << "Evaluation   step " << eval.step << ": loss " << percent(eval.loss) << ", "
                << evaluationSummary(eval) << "\n";
            continue;
        }
        out << "Evaluation   step " << eval.step << ": loss " << percent(eval.loss) << ", accuracy "
            << percent(eval.accuracy) << ", macro-F1 " << percent(eval.macroF1) << "\n";
    }
    // The weights Try it, predict and export use, named by their evaluation.
    if (const auto served = servedCheckpointOfRun(store, runId)) {
        out << "Served       " << served->describe() << "\n";
    }
    // The best evaluation by the run's own metric: its confusion matrix and per-class report.
    const auto metric = bestMetricOfRunConfig(run->config);
    const EvalMetrics* best = bestEvaluation(evaluations, metric);
    if (best != nullptr && best->confusion.empty() &&
        run->labels.size() > kReadableConfusionClasses) {
        out << "Best by " << toString(metric) << ": step " << best->step
            << "; the confusion matrix of " << run->labels.size()
            << " classes is stored sparse and not shown\n";
    }
    if (best != nullptr && !best->confusion.empty()) {
        auto label = [&](std::size_t c) {
            return c < labels.size() ? labels[c] : std::to_string(c);
        };
        out << "Best by " << toString(metric) << ": step " << best->step
            << "; confusion matrix (rows: true label, columns: predicted)\n";
        out << "  " << std::left << std::setw(14) << "";
        for (std::size_t p = 0; p < best->confusion.size(); ++p) {
            out << std::right << std::setw(12) << label(p).substr(0, 11);
        }
        out << "\n";
        for (std::size_t t = 0; t < best->confusion.size(); ++t) {
            out << "  " << std::left << std::setw(14) << label(t).substr(0, 13);
            for (const auto count : best->confusion[t]) {
                out << std::right << std::setw(12) << count;
            }
            out << "\n";
        }
        out << "  " << std::left << std::setw(14) << "class" << std::right << std::setw(12)
            << "precision" << std::setw(12) << "recall" << std::setw(12) << "F1" << std::setw(12)
            << "support\n";
        const auto rows = perClassOf(best->confusion);
        for (std::size_t c = 0; c < rows.size(); ++c) {
            out << "  " << std::left << std::setw(14) << label(c).substr(0, 13) << std::right
                << std::setw(12) << percent(rows[c].precision) << std::setw(12)
                << percent(rows[c].recall) << std::setw(12) << percent(rows[c].f1) << std::setw(12)
                << rows[c].support << "\n";
        }
        for (const auto& warning : modelWarnings(best->confusion, run->labels)) {
            out << "Warning      " << warning.text << "\n";
        }
    }
    for (const auto& event : store.events(runId)) {
        out << "Event        step " << event.step << " " << toString(event.kind) << ": "
            << event.message << "\n";
    }
}

void compareRuns(const std::filesystem::path& database, const std::vector<std::int64_t>& runIds,
                 std::ostream& out) {
    RunStore store(database, RunStore::Access::ReadOnly);
    std::vector<RunRecord> runs;
    for (const auto id : runIds) {
        auto run = store.run(id);
        if (!run) {
            throw InputError(database, "has no run " + std::to_string(id));
        }
        runs.push_back(std::move(*run));
    }
    out << std::left << std::setw(36) << "setting";
    for (const auto& run : runs) {
        out << std::setw(22) << ("run " + std::to_string(run.id));
    }
    out << "\n";
    for (const auto& difference : settingDifferences(runs)) {
        out << std::setw(36) << difference.setting.substr(0, 35);
        for (const auto& value : difference.values) {
            out << std::setw(22) << value.substr(0, 21);
        }
        out << "\n";
    }
    auto resultRow = [&](const char* name,
                         const std::function<std::string(const RunRecord&)>& value) {
        out << std::setw(36) << name;
        for (const auto& run : runs) {
            out << std::setw(22) << value(run);
        }
        out << "\n";
    };
    resultRow("status", [](const RunRecord& r) { return toString(r.status); });
    // Each run's best by its task's metric, as the trainer judges it (the lowest RMSE; the
    // highest accuracy, micro-F1 or entity F1), named: runs of other tasks share no accuracy.
    resultRow("best task metric",
              [&store](const RunRecord& r) { return bestTaskMetricText(store, r.id); });
    resultRow("peak memory", [](const RunRecord& r) {
        return formatBytes(static_cast<double>(r.peakMemoryBytes));
    });
    resultRow("forecast",
              [](const RunRecord& r) { return formatBytes(static_cast<double>(r.forecastBytes)); });
    resultRow("duration", [](const RunRecord& r) { return formatDuration(r.seconds); });
}

}  // namespace bert::cli
