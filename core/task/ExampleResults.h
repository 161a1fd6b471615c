#pragma once

// Per-example results of an evaluation: what the model said of each validation example, so that
// a user can read the examples it gets wrong, most confidently wrong first, beside the metrics.
// Every task fills the same row (its evaluation's finish, task/<kind>/<Kind>Objective.cpp): the
// truth and the prediction as the task writes them, the probability the model gave the truth,
// and the example's own loss, which orders them. The run store keeps the rows of the evaluation
// whose weights are served (the best; runs/RunStore.h), the studio lists them in Model quality
// (ui/runs/ExamplesView.h), `runs examples` prints them.

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "data/Dataset.h"

namespace bert {

/// One validation example (a document of a long text's windows) as an evaluation scored it.
struct ExampleResult {
    /// Its place in the validation set (the file's order after the split).
    std::size_t example = 0;
    /// Where it comes from: its line in its file and its text (ExampleSource).
    std::size_t line = 0;
    std::string text;
    std::string pair;  ///< a pair's second text; empty for single texts
    /// The truth and the prediction, as the task writes them: a class; labels joined by ", "
    /// ("(none)" for none); a number; entities as "PER: Ada Lovelace; LOC: London".
    std::string truth;
    std::string predicted;
    /// Single-label: the classes' ids (the confusion matrix's cell); -1 for the other tasks.
    int truthClass = -1;
    int predictedClass = -1;
    /// The probability the model gave the truth: of the true class; multi-label: the least of
    /// its labels' (present or absent); token classification: the least of its words' true
    /// tags. None for regression.
    std::optional<double> truthProbability;
    /// The example's loss, what orders the rows: cross-entropy of the true class; multi-label:
    /// binary cross-entropy, the mean over the labels; regression: the squared error in the
    /// target's units; token classification: cross-entropy, the mean over its words.
    double loss = 0.0;
    /// Whether the prediction is right (every label, every entity); none for regression.
    std::optional<bool> correct;
    /// Multi-label: the labels missed and the labels added; token classification: the entities.
    std::vector<std::string> missed;
    std::vector<std::string> added;
    /// Regression: the prediction less the truth, in the target's units.
    std::optional<double> residual;
};

/// The rows of one evaluation: the examples with the highest loss first, at most kExampleRows
/// of them (a larger validation set keeps its worst and says how many it scored).
struct EvaluationExamples {
    static constexpr std::size_t kExampleRows = 20000;

    std::size_t step = 0;
    /// The examples the evaluation scored (rows.size() when none was left out).
    std::size_t evaluated = 0;
    std::vector<ExampleResult> rows;

    /// "all 600 validation examples" or "the 20,000 of 31,250 validation examples with the
    /// highest loss".
    std::string describeKept() const;
};

/// "all 600 validation examples" when kept is evaluated, else "the 20,000 of 31,250 validation
/// examples with the highest loss".
std::string describeKept(std::size_t kept, std::size_t evaluated);
/// Items joined by "; ": the labels or entities a row missed or added, as written and shown.
std::string joinedList(const std::vector<std::string>& items);

/// The rows of an evaluation from every example's result, in any order: sorted by loss (highest
/// first, ties by the example's place), cut to kExampleRows, each given its source (line, text)
/// from sources where it has one.
EvaluationExamples keepWorst(std::vector<ExampleResult> rows,
                             const std::vector<ExampleSource>& sources);

/// A number as the rows write a regression's value: up to 6 significant digits.
std::string exampleNumber(double value);
/// A sentence's entity as a row writes it: "PER: Ada Lovelace" (words joined by a space, or by
/// nothing where the words are characters).
std::string entityText(const std::string& type, const std::vector<std::string>& words,
                       std::size_t begin, std::size_t end, bool characters);

/// The rows as CSV, one line per row, with a header: line, text, pair, truth, predicted,
/// truth_probability, loss, correct, missed, added, residual (empty where the task has none).
void writeExamplesCsv(const std::vector<ExampleResult>& rows, std::ostream& out);

nlohmann::json toJson(const ExampleResult& row);

}  // namespace bert
