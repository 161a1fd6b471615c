// Regression data: a number per text in the label column, refused with file and line when it
// is not one (task/regression/RegressionTargets.h); optionally standardised over the training set.
#include "task/TaskKinds.h"
#include "task/regression/RegressionTargets.h"

namespace bert {

namespace {

TargetedExamples<double> readTargets(const std::filesystem::path& file, const ColumnSpec& columns) {
    auto rows = loadTextRows(file, columns);
    const auto column = requireColumn(rows.table, columns.label, "target", file);
    TargetedExamples<double> out;
    for (const auto row : rows.rows) {
        out.targets.push_back(
            parseTarget(rows.table.rows[row][column], file, rows.table.lines[row], columns.label));
    }
    out.examples = std::move(rows.set);
    return out;
}

std::vector<std::vector<float>> scaledRows(const std::vector<double>& targets,
                                           const TargetScaler& scaler) {
    std::vector<std::vector<float>> rows;
    rows.reserve(targets.size());
    for (const auto target : targets) {
        rows.push_back({static_cast<float>(scaler.transform(target))});
    }
    return rows;
}

}  // namespace

TrainingData prepareRegressionData(const DataRequest& request) {
    const auto& spec = request.spec;
    auto [train, validation] = splitTargeted<double>(
        request, [&](const auto& file) { return readTargets(file, spec.columns); });
    TrainingData data;
    data.task = TaskKind::Regression;
    // transformers' regression head has one output; its name is the target column's.
    data.labels.names = {spec.columns.label};
    data.targetSpread = TargetScaler::fit(train.targets);
    if (spec.task.standardizeTargets) {
        data.scaling = data.targetSpread;
    }
    data.train = tokenizeTexts(train.examples, request.tokenizer, request.maxLength);
    data.train.targets = scaledRows(train.targets, data.scaling);
    data.validation = tokenizeTexts(validation.examples, request.tokenizer, request.maxLength);
    data.validation.targets = scaledRows(validation.targets, data.scaling);
    data.train.values = train.targets;
    data.validation.values = validation.targets;
    data.validation.sources = sourcesOf(validation.examples);
    data.fingerprint = train.examples.fingerprint;
    data.noteReading(train.examples);
    return data;
}

}  // namespace bert
