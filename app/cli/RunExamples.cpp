// `runs examples`: the validation examples a run's best evaluation got most wrong, from the
// per-example results the run store keeps (task/ExampleResults.h), as a table, CSV or JSON.
#include <cstdio>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "Commands.h"
#include "Error.h"
#include "io/AtomicFile.h"
#include "runs/RunStore.h"

namespace bert::cli {

namespace {

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", value);
    return text;
}

}  // namespace

std::string oneLineCell(const std::string& text, std::size_t width) {
    std::string flat;
    for (const char c : text) {
        flat += c == '\n' || c == '\r' || c == '\t' ? ' ' : c;
    }
    std::size_t points = 0;
    for (std::size_t i = 0; i < flat.size(); ++i) {
        if ((static_cast<unsigned char>(flat[i]) & 0xC0) != 0x80 && points++ == width - 1) {
            return flat.substr(0, i) + "…";
        }
    }
    return flat;
}

void showExamples(const std::filesystem::path& database, const ExamplesArguments& args,
                  std::ostream& out) {
    RunStore store(database, RunStore::Access::ReadOnly);
    if (!store.run(args.run)) {
        throw InputError(database, "has no run " + std::to_string(args.run));
    }
    auto examples = store.examples(args.run);
    if (!examples) {
        throw InputError(database, "run " + std::to_string(args.run) +
                                       " has no per-example results: it was not evaluated, or "
                                       "it was trained by a version that did not keep them");
    }
    auto& rows = examples->rows;
    if (args.wrongOnly) {
        std::erase_if(rows, [](const ExampleResult& row) { return row.correct.value_or(true); });
    }
    if (args.worst > 0 && rows.size() > args.worst) {
        rows.resize(args.worst);
    }
    if (!args.csv.empty()) {
        std::ostringstream csv;
        writeExamplesCsv(rows, csv);
        writeFileAtomically(args.csv, csv.str());
        out << "wrote " << rows.size() << " examples of run " << args.run << " to "
            << args.csv.string() << "\n";
        return;
    }
    if (args.json) {
        auto list = nlohmann::json::array();
        for (const auto& row : rows) {
            list.push_back(toJson(row));
        }
        out << nlohmann::json{{"run", args.run},
                              {"step", examples->step},
                              {"evaluated", examples->evaluated},
                              {"examples", list}}
                   .dump(2)
            << "\n";
        return;
    }
    // What is shown: every kept example, or the worst few ("the 3 of 16 ... with the highest
    // loss"), the wrong ones among them when asked.
    out << "Run " << args.run << ", the evaluation at step " << examples->step << " (best): ";
    if (args.wrongOnly) {
        out << rows.size() << " of the " << examples->evaluated
            << " validation examples, predicted wrong, highest loss first\n";
    } else {
        out << describeKept(rows.size(), examples->evaluated)
            << (examples->evaluated <= rows.size() ? ", highest loss first" : "") << "\n";
    }
    const bool regression = !rows.empty() && rows.front().residual.has_value();
    out << "  loss      " << (regression ? "residual  " : "p(truth)  ") << "line    "
        << "truth -> predicted / text\n";
    for (const auto& row : rows) {
        char head[64];
        std::snprintf(
            head, sizeof head, "  %-9s %-9s %-7zu ", number(row.loss).c_str(),
            regression
                ? number(row.residual.value_or(0.0)).c_str()
                : (row.truthProbability ? number(*row.truthProbability) : std::string("-")).c_str(),
            row.line);
        out << head << oneLineCell(row.truth, 40) << " -> " << oneLineCell(row.predicted, 40)
            << "\n";
        if (!row.missed.empty()) {
            out << std::string(30, ' ') << "missed: " << oneLineCell(joinedList(row.missed), 80)
                << "\n";
        }
        if (!row.added.empty()) {
            out << std::string(30, ' ') << "added: " << oneLineCell(joinedList(row.added), 80)
                << "\n";
        }
        out << std::string(30, ' ')
            << oneLineCell(row.pair.empty() ? row.text : row.text + " | " + row.pair, 90) << "\n";
    }
}

}  // namespace bert::cli
