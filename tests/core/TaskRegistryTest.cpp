// Every registered task (task/TaskList.h) provides every part a user reaches through task/Task.h:
// names that round-trip, a problem_type transformers knows, a headline figure, settings that
// read back what they write, a prediction written as JSON, a line, a row of --output and a
// Python reading of the README. A task listed without one of them fails here, not in a run.
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "Error.h"
#include "task/Task.h"

namespace bert {
namespace {

/// A prediction with every field a task may read: two labels' scores, the first chosen, a value,
/// one entity.
TextPrediction samplePrediction() {
    TextPrediction prediction;
    prediction.scores = {0.75, 0.25};
    prediction.chosen = {0};
    prediction.value = 3.5;
    TextEntity entity;
    entity.type = "PER";
    entity.text = "Ada";
    entity.charEnd = 2;
    entity.byteEnd = 3;
    prediction.entities = {entity};
    return prediction;
}

TEST(TaskRegistry, EveryTaskHasItsNamesOnceAndTheyRoundTrip) {
    std::set<std::string> ids;
    ASSERT_EQ(allTasks().size(), allTaskKinds().size());
    for (const auto* task : allTasks()) {
        const std::string id(task->id());
        SCOPED_TRACE(id);
        EXPECT_TRUE(ids.insert(id).second) << "two tasks are called " << id;
        EXPECT_EQ(&taskOf(task->kind()), task);
        EXPECT_EQ(taskKindFromString(id), task->kind());
        EXPECT_EQ(toString(task->kind()), id);
        EXPECT_FALSE(task->description().empty());
        EXPECT_FALSE(task->headlineMetric().empty());
        EXPECT_FALSE(task->predictionDescription().empty());
        // A sequence task has transformers' problem_type; a per-token task has none.
        const std::set<std::string> problemTypes = {"single_label_classification",
                                                    "multi_label_classification", "regression"};
        if (task->perToken()) {
            EXPECT_TRUE(task->problemType().empty());
            EXPECT_EQ(task->autoClassName(), "AutoModelForTokenClassification");
        } else {
            EXPECT_TRUE(problemTypes.count(std::string(task->problemType())));
            EXPECT_EQ(task->autoClassName(), "AutoModelForSequenceClassification");
        }
    }
    EXPECT_EQ(taskNamed("sentiment"), nullptr);
    EXPECT_FALSE(taskKindFromString("Single-Label").has_value());
}

TEST(TaskRegistry, SettingsReadBackWhatTheyWrite) {
    for (const auto* task : allTasks()) {
        SCOPED_TRACE(std::string(task->id()));
        TaskSettings settings;
        settings.kind = task->kind();
        settings.threshold = 0.375;
        settings.scaling = TargetScaler{2.0, 4.0};
        settings.wordSplit = WordSplit::Characters;
        const auto block = settings.toJson();
        EXPECT_EQ(block["task"], std::string(task->id()));
        const auto back = TaskSettings::fromJson(block, "config.json");
        EXPECT_EQ(back.kind, task->kind());
        EXPECT_EQ(back.toJson(), block) << block.dump();
    }
    // The fields each task keeps, under the names exported folders carry.
    TaskSettings multi;
    multi.kind = TaskKind::MultiLabel;
    multi.threshold = 0.375;
    EXPECT_EQ(multi.toJson(), (nlohmann::json{{"task", "multi-label"}, {"threshold", 0.375}}));
    TaskSettings tagging;
    tagging.kind = TaskKind::TokenClassification;
    tagging.wordSplit = WordSplit::Characters;
    EXPECT_EQ(tagging.toJson()["word_split"], "characters");
}

TEST(TaskRegistry, AMalformedSettingsBlockNamesItsFileAndField) {
    const auto problem = [](const nlohmann::json& block) {
        try {
            TaskSettings::fromJson(block, "exported/config.json");
        } catch (const InputError& error) {
            return std::string(error.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(problem({{"task", "summarisation"}}).find("exported/config.json"), std::string::npos);
    EXPECT_NE(problem({{"task", "multi-label"}, {"threshold", 1.5}}).find("\"threshold\""),
              std::string::npos);
    EXPECT_NE(
        problem({{"task", "token-classification"}, {"word_split", "bytes"}}).find("\"word_split\""),
        std::string::npos);
    EXPECT_NE(problem({{"task", "regression"}, {"target_scaling", {{"mean", 0}, {"scale", -1}}}})
                  .find("exported/config.json"),
              std::string::npos);
}

TEST(TaskRegistry, EveryTaskWritesAPredictionEveryWayPredictDoes) {
    const std::vector<std::string> labels = {"ham", "spam"};
    for (const auto* task : allTasks()) {
        SCOPED_TRACE(std::string(task->id()));
        TaskSettings settings;
        settings.kind = task->kind();
        auto prediction = samplePrediction();
        if (!task->perToken()) {
            task->decide(prediction, settings);
        }
        const PredictionContext context{labels, settings};
        const auto json = task->predictionJson(prediction, context);
        EXPECT_TRUE(json.is_object());
        EXPECT_FALSE(json.empty());
        EXPECT_FALSE(task->predictionLine(prediction, context).empty());
        const auto row =
            task->outputRow("a, \"quoted\" text", nullptr, nullptr, prediction, context);
        EXPECT_EQ(row.back(), '\n');
        const auto python = task->pythonReading(false, context);
        EXPECT_NE(python.find("print(json.dumps("), std::string::npos);
        // Every field predict --json prints, the README's example prints too.
        for (const auto& [field, value] : json.items()) {
            if (field != "threshold") {  // the example reads it from config.json, not prints it
                EXPECT_NE(python.find("\"" + field + "\""), std::string::npos) << field;
            }
        }
    }
}

TEST(TaskRegistry, SequenceTasksDecideAsTheirMetricsDo) {
    TaskSettings settings;
    TextPrediction single;
    single.scores = {0.2, 0.7, 0.1};
    settings.kind = TaskKind::SingleLabel;
    taskOf(settings.kind).decide(single, settings);
    EXPECT_EQ(single.chosen, (std::vector<std::size_t>{1}));

    TextPrediction multi;
    multi.scores = {0.6, 0.3, 0.9};
    settings.kind = TaskKind::MultiLabel;
    settings.threshold = 0.6;  // at the threshold is in
    taskOf(settings.kind).decide(multi, settings);
    EXPECT_EQ(multi.chosen, (std::vector<std::size_t>{0, 2}));

    TextPrediction value;
    value.scores = {0.5};
    settings.kind = TaskKind::Regression;
    settings.scaling = TargetScaler{10.0, 4.0};
    taskOf(settings.kind).decide(value, settings);
    EXPECT_DOUBLE_EQ(value.value, 12.0);
}

TEST(TaskRegistry, APredictFileIsScoredByTheTasksOwnFigure) {
    const std::vector<std::string> labels = {"ham", "spam"};
    TaskSettings settings;
    settings.kind = TaskKind::SingleLabel;
    std::vector<TextPrediction> predictions(2);
    predictions[0].chosen = {0};
    predictions[1].chosen = {0};
    EXPECT_EQ(taskOf(settings.kind).scoreAgainst(predictions, {"ham", "spam"}, {labels, settings}),
              "; accuracy 0.5000 (1/2)");
    settings.kind = TaskKind::Regression;
    predictions[0].value = 1.0;
    predictions[1].value = 3.0;
    EXPECT_EQ(taskOf(settings.kind).scoreAgainst(predictions, {"1", "1"}, {labels, settings}),
              "; RMSE 1.4142");
    EXPECT_EQ(taskOf(settings.kind).scoreAgainst(predictions, {}, {labels, settings}), "");
}

}  // namespace
}  // namespace bert
