#include "data/TrainingPlan.h"

#include <map>

namespace bert {

namespace {

// A label column with at least this share of distinct values per row is probably not labels.
constexpr double kUniqueShare = 0.5;
// ...unless it has this few classes (a tiny dataset may have one example per class).
constexpr std::size_t kFewClasses = 10;

}  // namespace

bool arePlaceholderLabels(const std::vector<std::string>& labels) {
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (labels[i] != "LABEL_" + std::to_string(i)) {
            return false;
        }
    }
    return true;
}

TrainingPlan planTraining(const ExampleSet& examples, const ColumnSpec& columns,
                          double validationFraction, const std::vector<std::string>& modelLabels) {
    TrainingPlan plan;
    plan.labelColumn = columns.label;
    plan.textColumns.push_back(columns.text);
    if (!columns.textPair.empty()) {
        plan.textColumns.push_back(columns.textPair);
    }
    std::map<std::string, std::size_t> counts;
    for (const auto& example : examples.examples) {
        ++counts[example.label];
    }
    for (const auto& [name, count] : counts) {  // sorted, as the label map orders them
        plan.classes.emplace_back(name, count);
    }
    const std::size_t rows = examples.examples.size();
    if (columns.label == columns.text ||
        (!columns.textPair.empty() && columns.label == columns.textPair)) {
        plan.warnings.push_back({PlanWarning::Kind::LabelIsText, counts.size(), rows, {}});
    }
    if (counts.size() < 2) {
        plan.warnings.push_back({PlanWarning::Kind::OneClass, counts.size(), rows, {}});
        plan.trainExamples = rows;
        return plan;
    }
    if (counts.size() > kFewClasses &&
        static_cast<double>(counts.size()) >= kUniqueShare * static_cast<double>(rows)) {
        plan.warnings.push_back({PlanWarning::Kind::LabelLooksUnique, counts.size(), rows, {}});
    }
    // A head trained for another number of classes hints at the wrong column (same number,
    // other names: usually the same task spelled differently; the head is remade either way).
    if (!modelLabels.empty() && !arePlaceholderLabels(modelLabels) &&
        modelLabels.size() != counts.size()) {
        plan.warnings.push_back(
            {PlanWarning::Kind::HeadHasOtherLabels, counts.size(), rows, modelLabels});
    }
    // The split's sizes follow from the class counts alone: nothing is copied on each edit of
    // the form.
    for (const auto& entry : plan.classes) {
        plan.validationExamples += stratifiedValidationCount(entry.second, validationFraction);
    }
    plan.trainExamples = rows - plan.validationExamples;
    return plan;
}

}  // namespace bert
