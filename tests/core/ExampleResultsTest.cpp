// Per-example results (task/ExampleResults.h): each task's rows agree with the figures of the
// evaluation they come from (the loss is their mean, the accuracy their share of right ones, the
// confusion matrix their cells, the entities they miss and add the report's counts), name the
// example they are of, and are ordered by loss. A row that disagreed with its evaluation would
// send a user to the wrong examples.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>

#include <gtest/gtest.h>

#include "TinyModel.h"
#include "TrainerProbes.h"
#include "model/Classifiers.h"
#include "support/TestSupport.h"
#include "task/ExampleResults.h"
#include "task/TaskObjective.h"
#include "text/Utf8.h"
#include "train/Trainer.h"

namespace bert {
namespace {

const std::vector<std::string> kWords = {"the", "cat", "dog",  "sat", "on",      "mat",
                                         "i",   "was", "very", "it",  "meeting", "today"};

/// Sentences over the tiny vocabulary: "good" (single-label "pos", else "neg"), "bad"
/// (multi-label "good|bad"), and their number of words (regression).
std::filesystem::path writeCsv(const test::TempDir& dir, std::size_t count) {
    const auto file = dir / "examples.csv";
    std::ofstream out(file);
    out << "text,label,labels,words\n";
    std::mt19937_64 random(5);
    for (std::size_t i = 0; i < count; ++i) {
        const auto words = 3 + random() % 12;
        const bool good = random() % 2 == 0;
        const bool bad = random() % 3 == 0;
        std::string text;
        for (std::size_t w = 0; w < words; ++w) {
            text += (text.empty() ? "" : " ") + kWords[random() % kWords.size()];
        }
        text += good ? " good" : "";
        text += bad ? " bad" : "";
        std::string labels = good ? "good" : "";
        labels += bad ? (labels.empty() ? "bad" : "|bad") : "";
        out << '"' << text << "\"," << (good ? "pos" : "neg") << ',' << labels << ',' << words
            << "\n";
    }
    return file;
}

std::filesystem::path writeConll(const test::TempDir& dir, std::size_t count) {
    const auto file = dir / "animals.conll";
    std::ofstream out(file);
    std::mt19937_64 random(11);
    for (std::size_t i = 0; i < count; ++i) {
        const auto words = 3 + random() % 10;
        for (std::size_t w = 0; w < words; ++w) {
            const auto pick = random() % 5;
            if (pick == 0) {
                out << (random() % 2 == 0 ? "cat" : "dog") << " B-ANIMAL\n";
            } else if (pick == 1 && w + 1 < words) {
                out << "meeting B-EVENT\ntoday I-EVENT\n";
                ++w;
            } else {
                out << kWords[3 + random() % 6] << " O\n";
            }
        }
        out << "\n";
    }
    return file;
}

TrainingData dataOf(const std::filesystem::path& file, TaskKind kind, const std::string& label) {
    DataSpec spec;
    spec.trainFile = file;
    spec.columns.text = "text";
    spec.columns.label = label;
    spec.task.kind = kind;
    spec.task.standardizeTargets = kind == TaskKind::Regression;
    return prepareTrainingData(spec, *test::tinyTokenizer(), 64, 0.25, 3);
}

/// The evaluations of a tiny model trained on data for a few epochs, and the examples the
/// trainer gave as the best's.
struct Trained {
    std::vector<EvalMetrics> evaluations;
    std::vector<std::shared_ptr<const EvaluationExamples>> best;
};

Trained train(const TrainingData& data, std::size_t epochs) {
    struct Observer : test::Recorder {
        std::vector<std::shared_ptr<const EvaluationExamples>> best;
        void onBestExamples(std::shared_ptr<const EvaluationExamples> examples) override {
            best.push_back(std::move(examples));
        }
    } observer;
    auto bundle = test::makeModel(2, 32, 4, 0.0, 5, data.labels.names);
    if (data.task == TaskKind::TokenClassification) {
        bundle.config.head = HeadKind::Token;
        bundle.model = createClassifier(bundle.config);
        bundle.model->initializeWeights(5);
    }
    auto config = test::smallConfig();
    config.epochs = epochs;
    config.learningRate = 2e-3;
    config.evalsPerEpoch = 1;
    Trainer trainer(bundle, data, config, observer);
    const std::atomic<bool> cancel{false};
    EXPECT_EQ(trainer.run(cancel).status, RunStatus::Completed);
    return {observer.evaluations, observer.best};
}

/// Checks what every task's rows share: one per validation example, each once, highest loss
/// first, each with its example's line and text.
void expectRowsOfEveryExample(const EvaluationExamples& examples, const TokenizedSet& validation) {
    ASSERT_EQ(examples.rows.size(), validation.size());
    EXPECT_EQ(examples.evaluated, validation.size());
    std::vector<bool> seen(validation.size(), false);
    for (std::size_t r = 0; r < examples.rows.size(); ++r) {
        const auto& row = examples.rows[r];
        ASSERT_LT(row.example, validation.size());
        EXPECT_FALSE(seen[row.example]) << "example " << row.example << " twice";
        seen[row.example] = true;
        EXPECT_EQ(row.line, validation.sources[row.example].line);
        EXPECT_EQ(row.text, validation.sources[row.example].text);
        EXPECT_FALSE(row.text.empty());
        if (r > 0) {
            EXPECT_GE(examples.rows[r - 1].loss, row.loss) << "highest loss first, at row " << r;
        }
    }
}

TEST(ExampleResults, SingleLabelRowsAreTheConfusionMatrixTheAccuracyAndTheLoss) {
    test::TempDir dir;
    const auto data = dataOf(writeCsv(dir, 120), TaskKind::SingleLabel, "label");
    const auto trained = train(data, 2);
    ASSERT_FALSE(trained.evaluations.empty());
    const auto& last = trained.evaluations.back();
    ASSERT_TRUE(last.examples);
    const auto& examples = *last.examples;
    EXPECT_EQ(examples.step, last.step);
    expectRowsOfEveryExample(examples, data.validation);
    std::vector<std::vector<std::int64_t>> confusion(2, std::vector<std::int64_t>(2, 0));
    double loss = 0.0;
    double right = 0.0;
    for (const auto& row : examples.rows) {
        ++confusion[static_cast<std::size_t>(row.truthClass)]
                   [static_cast<std::size_t>(row.predictedClass)];
        EXPECT_EQ(row.truthClass, data.validation.labels[row.example]);
        EXPECT_EQ(row.truth, data.labels.names[static_cast<std::size_t>(row.truthClass)]);
        EXPECT_EQ(row.predicted, data.labels.names[static_cast<std::size_t>(row.predictedClass)]);
        ASSERT_TRUE(row.truthProbability && row.correct);
        EXPECT_NEAR(*row.truthProbability, std::exp(-row.loss), 1e-12);
        EXPECT_EQ(*row.correct, row.truthClass == row.predictedClass);
        // Right means the true class had the most probability: more than half of two.
        EXPECT_EQ(*row.correct, *row.truthProbability > 0.5);
        loss += row.loss;
        right += *row.correct ? 1.0 : 0.0;
    }
    EXPECT_EQ(confusion, last.confusion);
    const auto n = static_cast<double>(examples.rows.size());
    EXPECT_NEAR(right / n, last.accuracy, 1e-12);
    // The evaluation's loss is the mean cross-entropy (logits in float there, double here).
    EXPECT_NEAR(loss / n, last.loss, 1e-5);
}

TEST(ExampleResults, MultiLabelRowsMissAndAddWhatTheThresholdDecides) {
    test::TempDir dir;
    const auto data = dataOf(writeCsv(dir, 120), TaskKind::MultiLabel, "labels");
    const auto trained = train(data, 3);
    const auto& last = trained.evaluations.back();
    ASSERT_TRUE(last.examples);
    expectRowsOfEveryExample(*last.examples, data.validation);
    double loss = 0.0;
    double right = 0.0;
    for (const auto& row : last.examples->rows) {
        const auto& truth = data.validation.targets[row.example];
        std::string expected;
        for (std::size_t l = 0; l < truth.size(); ++l) {
            if (truth[l] > 0.5F) {
                expected += (expected.empty() ? "" : ", ") + data.labels.names[l];
            }
        }
        EXPECT_EQ(row.truth, expected.empty() ? "(none)" : expected);
        ASSERT_TRUE(row.correct);
        EXPECT_EQ(*row.correct, row.missed.empty() && row.added.empty());
        EXPECT_EQ(*row.correct, row.truth == row.predicted);
        for (const auto& missed : row.missed) {
            EXPECT_NE(row.truth.find(missed), std::string::npos);
            EXPECT_EQ(row.predicted.find(missed), std::string::npos);
        }
        loss += row.loss;
        right += *row.correct ? 1.0 : 0.0;
    }
    const auto n = static_cast<double>(last.examples->rows.size());
    EXPECT_NEAR(right / n, last.task["figures"]["subset_accuracy"].get<double>(), 1e-12);
    EXPECT_NEAR(loss / n, last.loss, 1e-5) << "the mean over examples and labels";
}

TEST(ExampleResults, RegressionRowsAreTheResidualsWhoseMeanSquareIsTheRmse) {
    test::TempDir dir;
    const auto data = dataOf(writeCsv(dir, 120), TaskKind::Regression, "words");
    const auto trained = train(data, 2);
    const auto& last = trained.evaluations.back();
    ASSERT_TRUE(last.examples);
    expectRowsOfEveryExample(*last.examples, data.validation);
    double squares = 0.0;
    for (const auto& row : last.examples->rows) {
        ASSERT_TRUE(row.residual);
        EXPECT_FALSE(row.correct) << "regression is not right or wrong";
        EXPECT_FALSE(row.truthProbability);
        EXPECT_EQ(row.truth, exampleNumber(data.validation.values[row.example]));
        EXPECT_NEAR(row.loss, *row.residual * *row.residual, 1e-12);
        EXPECT_NEAR(std::stod(row.predicted) - std::stod(row.truth), *row.residual,
                    1e-4 * std::max(1.0, std::abs(std::stod(row.predicted))));
        squares += row.loss;
    }
    const double rmse = std::sqrt(squares / static_cast<double>(last.examples->rows.size()));
    EXPECT_NEAR(rmse, last.task["figures"]["rmse"].get<double>(), 1e-9);
}

TEST(ExampleResults, TokenRowsQuoteTheEntitiesTheyMissAndAddAsTheReportCountsThem) {
    test::TempDir dir;
    const auto data = dataOf(writeConll(dir, 120), TaskKind::TokenClassification, "");
    // One epoch: the model still misses and adds entities, which the rows must account for.
    const auto trained = train(data, 1);
    const auto& last = trained.evaluations.back();
    ASSERT_TRUE(last.examples);
    expectRowsOfEveryExample(*last.examples, data.validation);
    std::int64_t missed = 0;
    std::int64_t added = 0;
    for (const auto& row : last.examples->rows) {
        ASSERT_TRUE(row.correct);
        EXPECT_EQ(*row.correct, row.truth == row.predicted);
        missed += static_cast<std::int64_t>(row.missed.size());
        added += static_cast<std::int64_t>(row.added.size());
        for (const auto& entity : row.missed) {
            // "ANIMAL: cat", quoted from the sentence's words.
            const auto colon = entity.find(": ");
            ASSERT_NE(colon, std::string::npos) << entity;
            EXPECT_NE(row.text.find(entity.substr(colon + 2)), std::string::npos) << entity;
        }
        if (row.truthProbability) {
            EXPECT_GT(*row.truthProbability, 0.0);
            EXPECT_LE(*row.truthProbability, 1.0);
            EXPECT_GE(row.loss, -std::log(*row.truthProbability) / 64.0);
        }
    }
    std::int64_t support = 0;
    std::int64_t predicted = 0;
    std::int64_t right = 0;
    for (const auto& type : last.task["per_type"]) {
        support += type["support"].get<std::int64_t>();
        predicted += type["predicted"].get<std::int64_t>();
        right += type["true_positives"].get<std::int64_t>();
    }
    EXPECT_GT(support, 0);
    EXPECT_EQ(missed, support - right);
    EXPECT_EQ(added, predicted - right);
}

// The trainer gives the store the examples of each evaluation that becomes the best, and only
// those: the examples of the weights the run serves.
TEST(ExampleResults, TheBestEvaluationsExamplesAreGivenAsEachBecomesTheBest) {
    test::TempDir dir;
    const auto data = dataOf(writeCsv(dir, 120), TaskKind::SingleLabel, "label");
    const auto trained = train(data, 3);
    ASSERT_FALSE(trained.best.empty());
    ASSERT_LE(trained.best.size(), trained.evaluations.size());
    std::size_t bestStep = 0;
    for (const auto& examples : trained.best) {
        EXPECT_GT(examples->step, bestStep) << "each later than the one it replaces";
        bestStep = examples->step;
        const auto evaluation =
            std::find_if(trained.evaluations.begin(), trained.evaluations.end(),
                         [&](const EvalMetrics& e) { return e.step == examples->step; });
        ASSERT_NE(evaluation, trained.evaluations.end());
        EXPECT_EQ(evaluation->examples, examples) << "the evaluation's own rows";
    }
}

TEST(ExampleResults, AValidationSetPastTheCapKeepsItsWorstAndSaysHowMany) {
    std::vector<ExampleResult> rows(EvaluationExamples::kExampleRows + 5);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        rows[i].example = i;
        rows[i].loss = static_cast<double>(i % 1000);
    }
    rows[17].loss = std::nan("");
    const auto kept = keepWorst(rows, {});
    ASSERT_EQ(kept.rows.size(), EvaluationExamples::kExampleRows);
    EXPECT_EQ(kept.evaluated, rows.size());
    EXPECT_EQ(kept.rows.front().example, 17U) << "a loss that is not a number comes first";
    EXPECT_EQ(kept.rows[1].loss, 999.0);
    EXPECT_EQ(kept.rows[1].example, 999U) << "ties in the examples' order";
    EXPECT_EQ(kept.describeKept(),
              "the 20,000 of 20,005 validation examples with the highest loss");
    EXPECT_EQ(keepWorst(std::vector<ExampleResult>(600), {}).describeKept(),
              "all 600 validation examples");
}

TEST(ExampleResults, ASourceKeepsAThousandBytesOfItsTextNeverHalfACharacter) {
    ExampleSet set;
    Example example;
    example.text = std::string(998, 'a') + "\xC3\xA9\xC3\xA9";  // é is two bytes
    example.line = 7;
    set.examples.push_back(example);
    const auto sources = sourcesOf(set);
    ASSERT_EQ(sources.size(), 1U);
    EXPECT_EQ(sources[0].line, 7U);
    EXPECT_EQ(sources[0].text, std::string(998, 'a') + "\xC3\xA9\xE2\x80\xA6");
    EXPECT_TRUE(utf8::validity(sources[0].text).valid);
}

}  // namespace
}  // namespace bert
