#include "task/ExampleResults.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "task/Task.h"

namespace bert {

namespace {

/// 31250 as "31,250": the counts a sentence names.
std::string grouped(std::size_t count) {
    auto digits = std::to_string(count);
    for (auto at = digits.size(); at > 3; at -= 3) {
        digits.insert(at - 3, ",");
    }
    return digits;
}

}  // namespace

std::string describeKept(std::size_t kept, std::size_t evaluated) {
    if (evaluated <= kept) {
        return "all " + grouped(evaluated) + " validation examples";
    }
    return "the " + grouped(kept) + " of " + grouped(evaluated) +
           " validation examples with the highest loss";
}

std::string EvaluationExamples::describeKept() const {
    return bert::describeKept(rows.size(), evaluated);
}

std::string joinedList(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) {
        out += (out.empty() ? "" : "; ") + item;
    }
    return out;
}

EvaluationExamples keepWorst(std::vector<ExampleResult> rows,
                             const std::vector<ExampleSource>& sources) {
    EvaluationExamples out;
    out.evaluated = rows.size();
    // A NaN loss (a diverged model) sorts first: it is the worst there is.
    auto worse = [](const ExampleResult& a, const ExampleResult& b) {
        const bool aNan = std::isnan(a.loss);
        const bool bNan = std::isnan(b.loss);
        if (aNan != bNan) {
            return aNan;
        }
        if (!aNan && a.loss != b.loss) {
            return a.loss > b.loss;
        }
        return a.example < b.example;
    };
    const auto kept = std::min(rows.size(), EvaluationExamples::kExampleRows);
    std::partial_sort(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(kept), rows.end(),
                      worse);
    rows.resize(kept);
    for (auto& row : rows) {
        if (row.example < sources.size()) {
            row.line = sources[row.example].line;
            row.text = sources[row.example].text;
            row.pair = sources[row.example].pair;
        }
    }
    out.rows = std::move(rows);
    return out;
}

std::string exampleNumber(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

std::string entityText(const std::string& type, const std::vector<std::string>& words,
                       std::size_t begin, std::size_t end, bool characters) {
    std::string text;
    for (std::size_t w = begin; w < end && w < words.size(); ++w) {
        text += (text.empty() || characters ? "" : " ") + words[w];
    }
    return type + ": " +
           (text.empty() ? "words " + std::to_string(begin + 1) + "-" + std::to_string(end) : text);
}

void writeExamplesCsv(const std::vector<ExampleResult>& rows, std::ostream& out) {
    out << "line,text,pair,truth,predicted,truth_probability,loss,correct,missed,added,"
           "residual\n";
    for (const auto& row : rows) {
        out << row.line << ',' << csvField(row.text) << ',' << csvField(row.pair) << ','
            << csvField(row.truth) << ',' << csvField(row.predicted) << ','
            << (row.truthProbability ? fixedNumber(*row.truthProbability, "%.6g") : "") << ','
            << fixedNumber(row.loss, "%.6g") << ','
            << (row.correct ? (*row.correct ? "yes" : "no") : "") << ','
            << csvField(joinedList(row.missed)) << ',' << csvField(joinedList(row.added)) << ','
            << (row.residual ? fixedNumber(*row.residual, "%.6g") : "") << '\n';
    }
}

nlohmann::json toJson(const ExampleResult& row) {
    nlohmann::json json = {
        {"example", row.example},
        {"line", row.line},
        {"text", row.text},
        {"pair", row.pair},
        {"truth", row.truth},
        {"predicted", row.predicted},
        {"loss", std::isfinite(row.loss) ? nlohmann::json(row.loss) : nlohmann::json()}};
    if (row.truthProbability) {
        json["truth_probability"] = *row.truthProbability;
    }
    if (row.correct) {
        json["correct"] = *row.correct;
    }
    if (!row.missed.empty() || !row.added.empty()) {
        json["missed"] = row.missed;
        json["added"] = row.added;
    }
    if (row.residual) {
        json["residual"] = *row.residual;
    }
    return json;
}

}  // namespace bert
