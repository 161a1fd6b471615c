// Multi-label data: labels from one column with a separator (given, or guessed: ";" or "|"), or
// from one 0/1 column per label (task/multilabel/LabelSets.h), each example a 0/1 row over the
// labels.
#include "Error.h"
#include "task/TaskKinds.h"
#include "task/multilabel/LabelSets.h"

namespace bert {

namespace {

TargetedExamples<LabelSet> readLabelled(const std::filesystem::path& file, const TaskSpec& task,
                                        const ColumnSpec& columns) {
    auto rows = loadTextRows(file, columns);
    std::vector<LabelSet> sets;
    if (!task.labelColumns.empty()) {
        sets = labelSetsFromIndicatorColumns(rows.table, task.labelColumns, file);
    } else {
        const auto column = requireColumn(rows.table, columns.label, "label", file);
        const char separator = !task.labelSeparator.empty()
                                   ? task.labelSeparator.front()
                                   : guessLabelSeparator(rows.table, column).value_or(';');
        sets = labelSetsFromColumn(rows.table, columns.label, separator, file);
        // Labels that differ only in a byte that is not UTF-8 would become one.
        for (const auto row : rows.rows) {
            if (const auto* invalid = rows.table.invalidUtf8At(row, column)) {
                throw InputError(
                    file, invalidLabelProblem(rows.table.lines[row], rows.table.rows[row][column],
                                              invalid->byte));
            }
        }
    }
    TargetedExamples<LabelSet> out;
    for (const auto row : rows.rows) {
        out.targets.push_back(std::move(sets[row]));
    }
    out.examples = std::move(rows.set);
    return out;
}

std::vector<std::vector<float>> multiHotRows(const TargetedExamples<LabelSet>& part,
                                             const MultiLabelMap& map) {
    std::vector<std::vector<float>> rows;
    for (std::size_t i = 0; i < part.targets.size(); ++i) {
        std::vector<std::uint8_t> hot;
        try {
            hot = map.multiHot(part.targets[i]);
        } catch (const InputError& error) {
            throw InputError(part.examples.file,
                             "line " + std::to_string(part.examples.examples[i].line) + ": " +
                                 error.problem() + " (the training data never shows it)");
        }
        rows.emplace_back(hot.begin(), hot.end());
    }
    return rows;
}

}  // namespace

TrainingData prepareMultiLabelData(const DataRequest& request) {
    const auto& spec = request.spec;
    if (spec.task.labelSeparator.size() > 1) {
        throw InputError("the label separator must be one character, not \"" +
                         spec.task.labelSeparator + "\"");
    }
    auto [train, validation] = splitTargeted<LabelSet>(
        request, [&](const auto& file) { return readLabelled(file, spec.task, spec.columns); });
    const auto map = MultiLabelMap::fromLabelSets(train.targets, spec.trainFile);
    TrainingData data;
    data.task = TaskKind::MultiLabel;
    data.labels.names = map.names();
    data.threshold = spec.task.threshold;
    data.train = tokenizeTexts(train.examples, request.tokenizer, request.maxLength);
    data.train.targets = multiHotRows(train, map);
    data.validation = tokenizeTexts(validation.examples, request.tokenizer, request.maxLength);
    data.validation.targets = multiHotRows(validation, map);
    data.validation.sources = sourcesOf(validation.examples);
    data.fingerprint = train.examples.fingerprint;
    data.noteReading(train.examples);
    return data;
}

}  // namespace bert
