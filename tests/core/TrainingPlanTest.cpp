// Issue 12, point 7: before Start, one line says what a run will train on, and a mis-chosen
// label column (one value per row, a single value, other labels than the model's head) is
// called out.

#include <gtest/gtest.h>

#include "data/TrainingPlan.h"

namespace bert {
namespace {

ExampleSet examplesWithLabels(const std::vector<std::string>& labels) {
    ExampleSet set;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        set.examples.push_back({"text " + std::to_string(i), "", labels[i], i + 2});
    }
    return set;
}

TEST(TrainingPlan, SaysColumnsClassesAndTheSplit) {
    std::vector<std::string> labels;
    for (int i = 0; i < 70; ++i) {
        labels.push_back("ham");
    }
    for (int i = 0; i < 30; ++i) {
        labels.push_back("spam");
    }
    ColumnSpec columns{"subject", "body", "category"};
    const auto plan = planTraining(examplesWithLabels(labels), columns, 0.2, {});
    EXPECT_EQ(plan.labelColumn, "category");
    EXPECT_EQ(plan.textColumns, (std::vector<std::string>{"subject", "body"}));
    ASSERT_EQ(plan.classes.size(), 2U);
    EXPECT_EQ(plan.classes[0], (std::pair<std::string, std::size_t>{"ham", 70}));
    EXPECT_EQ(plan.classes[1], (std::pair<std::string, std::size_t>{"spam", 30}));
    EXPECT_EQ(plan.trainExamples + plan.validationExamples, 100U);
    EXPECT_EQ(plan.validationExamples, 20U);
    EXPECT_TRUE(plan.warnings.empty());
}

TEST(TrainingPlan, WarnsOfALabelColumnWithOneValuePerRow) {
    std::vector<std::string> ids;
    for (int i = 0; i < 40; ++i) {
        ids.push_back("id-" + std::to_string(i));
    }
    const auto plan = planTraining(examplesWithLabels(ids), {}, 0.2, {});
    ASSERT_EQ(plan.warnings.size(), 1U);
    EXPECT_EQ(plan.warnings[0].kind, PlanWarning::Kind::LabelLooksUnique);
    EXPECT_EQ(plan.warnings[0].count, 40U);
}

TEST(TrainingPlan, WarnsWhenTheLabelColumnIsATextColumn) {
    const auto plan =
        planTraining(examplesWithLabels({"a", "b", "a", "b"}), {"text", "", "text"}, 0.5, {});
    ASSERT_EQ(plan.warnings.size(), 1U);
    EXPECT_EQ(plan.warnings[0].kind, PlanWarning::Kind::LabelIsText);
}

TEST(TrainingPlan, WarnsOfASingleValue) {
    const auto plan = planTraining(examplesWithLabels({"x", "x", "x"}), {}, 0.2, {});
    ASSERT_EQ(plan.warnings.size(), 1U);
    EXPECT_EQ(plan.warnings[0].kind, PlanWarning::Kind::OneClass);
}

TEST(TrainingPlan, WarnsWhenTheModelsHeadHasOtherLabels) {
    const auto set = examplesWithLabels({"a", "b", "c", "a", "b", "c", "a", "b", "c", "a"});
    const auto plan = planTraining(set, {}, 0.3, {"negative", "positive"});
    ASSERT_EQ(plan.warnings.size(), 1U);
    EXPECT_EQ(plan.warnings[0].kind, PlanWarning::Kind::HeadHasOtherLabels);
    EXPECT_EQ(plan.warnings[0].count, 3U);
    // transformers' placeholders are no trained head: no warning.
    EXPECT_TRUE(planTraining(set, {}, 0.3, {"LABEL_0", "LABEL_1"}).warnings.empty());
    EXPECT_TRUE(arePlaceholderLabels({"LABEL_0", "LABEL_1"}));
    EXPECT_FALSE(arePlaceholderLabels({"LABEL_1", "LABEL_0"}));
}

}  // namespace
}  // namespace bert
