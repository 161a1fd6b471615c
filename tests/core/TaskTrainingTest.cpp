// Issue 29: the task types train through the one trainer. Each test holds a task's objective to
// its definition (transformers' loss for the problem_type), to the exactness the engine's
// techniques promise (accumulation equals one batch), and reads its evaluation as a user reads
// it (the stored report's headline).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "Error.h"
#include "TinyModel.h"
#include "TrainerProbes.h"
#include "model/Classifiers.h"
#include "model/Inference.h"
#include "runs/TaskPrediction.h"
#include "support/TestSupport.h"
#include "task/Calibration.h"
#include "task/TaskGuess.h"
#include "task/TaskObjective.h"
#include "tokenizer/WordEncoding.h"
#include "train/Metrics.h"
#include "train/Trainer.h"

namespace bert {
namespace {

using test::gradients;
using test::maxGradientDifference;
using test::Recorder;
using test::smallConfig;

const std::vector<std::string> kWords = {"the",    "cat",     "dog",   "sat", "on",   "mat",
                                         "movie",  "film",    "i",     "was", "very", "it",
                                         "report", "meeting", "today", "here"};

/// Sentences over the tiny vocabulary with what they hold: "good" and "bad" (multi-label:
/// either, both or neither), and how many words they have.
struct Sentence {
    std::string text;
    bool good = false;
    bool bad = false;
    std::size_t words = 0;
};

std::vector<Sentence> sentences(std::size_t count, std::uint64_t seed, std::size_t extra = 0) {
    std::mt19937_64 random(seed);
    std::vector<Sentence> out;
    for (std::size_t i = 0; i < count; ++i) {
        Sentence s;
        s.words = 3 + extra + random() % 20;
        s.good = random() % 2 == 0;
        s.bad = random() % 3 == 0;
        std::vector<std::string> words;
        for (std::size_t w = 0; w < s.words; ++w) {
            words.push_back(kWords[random() % kWords.size()]);
        }
        if (s.good) {
            words[random() % words.size()] = "good";
        }
        if (s.bad) {
            words.insert(words.begin() + static_cast<std::ptrdiff_t>(random() % words.size()),
                         "bad");  // beside "good", never over it
        }
        for (const auto& word : words) {
            s.text += (s.text.empty() ? "" : " ") + word;
        }
        out.push_back(s);
    }
    return out;
}

/// A CSV of the sentences with a multi-label column ("good|bad") and a number (their words).
std::filesystem::path writeTaskCsv(const test::TempDir& dir, std::size_t count,
                                   std::size_t extra = 0) {
    const auto file = dir / "tasks.csv";
    std::ofstream out(file);
    out << "text,labels,words\n";
    for (const auto& s : sentences(count, 7, extra)) {
        std::string labels = s.good ? "good" : "";
        if (s.bad) {
            labels += labels.empty() ? "bad" : "|bad";
        }
        out << '"' << s.text << "\"," << labels << ',' << s.words << "\n";
    }
    return file;
}

TrainingData taskData(const std::filesystem::path& file, TaskKind kind, const std::string& label,
                      bool standardize = false) {
    DataSpec spec;
    spec.trainFile = file;
    spec.columns.text = "text";
    spec.columns.label = label;
    spec.task.kind = kind;
    spec.task.standardizeTargets = standardize;
    return prepareTrainingData(spec, *test::tinyTokenizer(), 64, 0.25, 3);
}

TEST(TaskData, MultiLabelRowsAreMultiHotOverTheSortedLabelsAndTheSeparatorIsGuessed) {
    test::TempDir dir;
    const auto file = writeTaskCsv(dir, 40);
    EXPECT_EQ(guessTask({file, std::nullopt, {"text", "", "labels"}, {}}).kind,
              TaskKind::MultiLabel);
    EXPECT_EQ(guessTask({file, std::nullopt, {"text", "", "words"}, {}}).kind,
              TaskKind::SingleLabel);  // 3..22 words: at most 20 distinct integers
    const auto data = taskData(file, TaskKind::MultiLabel, "labels");
    EXPECT_EQ(data.labels.names, (std::vector<std::string>{"bad", "good"}));
    EXPECT_EQ(data.train.size() + data.validation.size(), 40U);
    EXPECT_EQ(data.validation.size(), 10U);
    const auto all = sentences(40, 7);
    // Every row is one of the file's, as 0/1 over (bad, good).
    for (const auto& row : data.train.targets) {
        ASSERT_EQ(row.size(), 2U);
        EXPECT_TRUE(row[0] == 0.0F || row[0] == 1.0F);
    }
    // Each example's row says what its text holds.
    const auto goodId = *test::tinyTokenizer()->tokenId("good");
    const auto badId = *test::tinyTokenizer()->tokenId("bad");
    for (const auto* set : {&data.train, &data.validation}) {
        for (std::size_t i = 0; i < set->size(); ++i) {
            const auto& ids = set->encodings[i].inputIds;
            const bool good = std::find(ids.begin(), ids.end(), goodId) != ids.end();
            const bool bad = std::find(ids.begin(), ids.end(), badId) != ids.end();
            EXPECT_EQ(set->targets[i][0] > 0.5F, bad) << "example " << i;
            EXPECT_EQ(set->targets[i][1] > 0.5F, good) << "example " << i;
        }
    }
    std::size_t withBad = 0;
    for (const auto* set : {&data.train, &data.validation}) {
        for (const auto& row : set->targets) {
            withBad += row[0] > 0.5F ? 1 : 0;
        }
    }
    std::size_t expectedBad = 0;
    for (const auto& s : all) {
        expectedBad += s.bad ? 1 : 0;
    }
    EXPECT_EQ(withBad, expectedBad);
}

TEST(TaskData, RegressionRefusesATargetThatIsNotANumberNamingTheLine) {
    test::TempDir dir;
    const auto file = dir / "scores.csv";
    std::ofstream(file) << "text,score\nthe cat sat,1.5\nthe dog sat,2\nthe mat,high\n";
    try {
        taskData(file, TaskKind::Regression, "score");
        FAIL() << "a target that is not a number was read";
    } catch (const InputError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("scores.csv"), std::string::npos) << message;
        EXPECT_NE(message.find("line 4"), std::string::npos) << message;
    }
}

TEST(TaskObjective, MultiLabelLossIsTransformersBceWithLogitsMean) {
    test::TempDir dir;
    const auto data = taskData(writeTaskCsv(dir, 40), TaskKind::MultiLabel, "labels");
    const auto objective = makeTaskObjective(data, {}, c10::Device(c10::kCPU));
    const auto logits = at::randn({5, 2}, at::TensorOptions().dtype(at::kFloat));
    const std::vector<std::size_t> examples = {0, 1, 2, 3, 4};
    const TokenBatch unused;
    const auto targets = objective->targets(data.train, examples, unused, c10::kCPU);
    // BCEWithLogitsLoss(): the mean over examples x labels; the objective's sum divided by its
    // units (the examples) must be that mean.
    const auto reference = at::binary_cross_entropy_with_logits(logits, targets);
    const auto ours = objective->lossSum(logits, targets) / objective->units(data.train, examples);
    EXPECT_NEAR(ours.item<double>(), reference.item<double>(), 1e-6);
}

TEST(TaskObjective, RegressionLossIsTransformersMseOnTheStandardisedTarget) {
    test::TempDir dir;
    const auto data = taskData(writeTaskCsv(dir, 40), TaskKind::Regression, "words", true);
    // Standardised: the training targets have mean 0 and (population) deviation 1.
    double sum = 0.0;
    double squares = 0.0;
    for (const auto& row : data.train.targets) {
        sum += row.front();
        squares += row.front() * row.front();
    }
    const auto n = static_cast<double>(data.train.size());
    EXPECT_NEAR(sum / n, 0.0, 1e-5);
    EXPECT_NEAR(squares / n, 1.0, 1e-5);
    EXPECT_GT(data.scaling.scale, 1.0);
    const auto objective = makeTaskObjective(data, {}, c10::Device(c10::kCPU));
    const auto logits = at::randn({4, 1});
    const std::vector<std::size_t> examples = {0, 1, 2, 3};
    const auto targets = objective->targets(data.train, examples, {}, c10::kCPU);
    const auto reference = at::mse_loss(logits.squeeze(-1), targets);
    const auto ours = objective->lossSum(logits, targets) / objective->units(data.train, examples);
    EXPECT_NEAR(ours.item<double>(), reference.item<double>(), 1e-6);
}

/// Gradients of one batch of 7 against micro-batches 2+2+2+1 for a task: accumulation must not
/// change what a step computes, whatever the task's loss.
double accumulationDifference(const TrainingData& data, double focalGamma = 0.0,
                              ClassWeighting weighting = ClassWeighting::Off) {
    const std::vector<std::size_t> window = {0, 1, 2, 3, 4, 5, 6};
    Recorder recorder;
    const auto make = [&] {
        auto bundle = test::makeModel(2, 32, 4, 0.0, 5, data.labels.names);
        if (data.task == TaskKind::TokenClassification) {
            bundle.config.head = HeadKind::Token;
            bundle.model = createClassifier(bundle.config);
            bundle.model->initializeWeights(5);
        }
        return bundle;
    };
    auto full = make();
    auto config = smallConfig();
    config.batchSize = 7;
    config.focalGamma = focalGamma;
    config.classWeighting = weighting;
    Trainer fullTrainer(full, data, config, recorder);
    fullTrainer.computeGradients(window);
    auto accumulated = make();
    config.batchSize = 2;
    config.accumulationSteps = 4;
    Trainer accumulatedTrainer(accumulated, data, config, recorder);
    accumulatedTrainer.computeGradients(window);
    return maxGradientDifference(gradients(full), gradients(accumulated));
}

TEST(TaskTraining, AccumulatedGradientsEqualFullBatchGradientsForMultiLabelAndRegression) {
    test::TempDir dir;
    const auto file = writeTaskCsv(dir, 40);
    EXPECT_LT(accumulationDifference(taskData(file, TaskKind::MultiLabel, "labels")), 1e-6);
    EXPECT_LT(accumulationDifference(taskData(file, TaskKind::Regression, "words", true)), 1e-6);
}

/// Trains a tiny model on data; the evaluations it reported.
std::vector<EvalMetrics> trainTiny(const TrainingData& data, std::size_t epochs) {
    Recorder recorder;
    auto model = test::makeModel(2, 32, 4, 0.0, 5, data.labels.names);
    auto config = smallConfig();
    config.epochs = epochs;
    config.learningRate = 2e-3;
    config.bestMetric = BestMetric::Task;
    config.evalsPerEpoch = 1;
    Trainer trainer(model, data, config, recorder);
    const std::atomic<bool> cancel{false};
    EXPECT_EQ(trainer.run(cancel).status, RunStatus::Completed);
    return recorder.evaluations;
}

TEST(TaskTraining, MultiLabelLearnsBothLabelsAndReportsItsFigures) {
    test::TempDir dir;
    const auto data = taskData(writeTaskCsv(dir, 160), TaskKind::MultiLabel, "labels");
    const auto evaluations = trainTiny(data, 10);
    ASSERT_FALSE(evaluations.empty());
    const auto& last = evaluations.back();
    ASSERT_TRUE(last.task.is_object()) << "a multi-label evaluation has its report";
    EXPECT_EQ(last.task["main"], "micro_f1");
    const double microF1 = last.task["figures"]["micro_f1"].get<double>();
    std::cout << "multi-label: " << evaluationSummary(last) << "\n";
    // "good" and "bad" are single words: past its plateau (about 100 steps) the model finds
    // them (micro-F1 1.0 from step 117 on, measured).
    EXPECT_GT(microF1, 0.9);
    EXPECT_EQ(last.task["per_label"].size(), 2U);
    EXPECT_EQ(last.task["per_label"][0]["label"], "bad");
    EXPECT_EQ(last.task["threshold_curve"].size(), 19U);
    // Calibration, the binary form: every label of every example in a bin, and each bin's
    // "accuracy" the share of its labels present.
    const auto calibration = CalibrationReport::fromJson(last.calibration);
    ASSERT_TRUE(calibration);
    EXPECT_EQ(calibration->form, CalibrationForm::Binary);
    EXPECT_FALSE(calibration->temperature) << "no temperature is fitted but for single-label";
    double pairs = 0.0;
    double present = 0.0;
    for (const auto& bin : calibration->before.bins) {
        pairs += static_cast<double>(bin.count);
        present += bin.accuracy * static_cast<double>(bin.count);
    }
    double truth = 0.0;
    for (const auto& row : data.validation.targets) {
        for (const auto value : row) {
            truth += value;
        }
    }
    EXPECT_EQ(pairs, static_cast<double>(data.validation.size() * data.labels.names.size()));
    EXPECT_NEAR(present, truth, 1e-6);
    EXPECT_DOUBLE_EQ(last.accuracy, last.task["figures"]["subset_accuracy"].get<double>());
    EXPECT_DOUBLE_EQ(metricOf(last, BestMetric::Task), microF1);
}

TEST(TaskTraining, RegressionLearnsTheTargetInItsOwnUnits) {
    test::TempDir dir;
    const auto data = taskData(writeTaskCsv(dir, 160), TaskKind::Regression, "words", true);
    const auto evaluations = trainTiny(data, 8);
    ASSERT_FALSE(evaluations.empty());
    const auto& first = evaluations.front();
    const auto& last = evaluations.back();
    ASSERT_TRUE(last.task.is_object());
    EXPECT_EQ(last.task["main"], "rmse");
    EXPECT_FALSE(last.task["higher_is_better"].get<bool>());
    std::cout << "regression: first " << evaluationSummary(first) << "\nlast "
              << evaluationSummary(last) << "\n";
    // The truth is reported in words (3..22), not standardised.
    for (const auto& truth : last.task["truth"]) {
        EXPECT_GE(truth.get<double>(), 3.0 - 1e-4);
        EXPECT_LE(truth.get<double>(), 22.0 + 1e-4);
    }
    // The number of words is what the model sees: it must correlate well.
    EXPECT_GT(last.task["figures"]["pearson"].get<double>(), 0.8);
    EXPECT_LT(last.task["figures"]["rmse"].get<double>(),
              first.task["figures"]["rmse"].get<double>());
    // Lower is better: the task metric's score is the RMSE negated.
    EXPECT_DOUBLE_EQ(scoreOf(last, BestMetric::Task), -last.task["figures"]["rmse"].get<double>());
    EXPECT_DOUBLE_EQ(scoreOf(last, BestMetric::Accuracy), scoreOf(last, BestMetric::Task));
}

// Long texts cut into windows (--long-text windows) are scored per document: the task's figures
// count the validation file's texts, each its windows' logits pooled, not the windows.
TEST(TaskTraining, WindowsAreScoredPerDocumentNotPerWindow) {
    test::TempDir dir;
    const auto file = writeTaskCsv(dir, 120);
    LongTextSpec windows;
    windows.mode = LongTextMode::Windows;
    windows.stride = 4;
    DataSpec spec;
    spec.trainFile = file;
    spec.columns.text = "text";
    spec.columns.label = "words";
    spec.task.kind = TaskKind::Regression;
    spec.task.standardizeTargets = true;
    const auto regression = prepareTrainingData(spec, *test::tinyTokenizer(), 12, 0.25, 3, windows);
    const auto documents = regression.validationDocuments.size();
    ASSERT_EQ(documents, 30U);
    ASSERT_GT(regression.validation.size(), documents + 10) << "texts of 3 to 22 words at 12";
    const auto evaluations = trainTiny(regression, 2);
    ASSERT_FALSE(evaluations.empty());
    const auto& last = evaluations.back();
    ASSERT_TRUE(last.task.is_object());
    EXPECT_EQ(last.task["truth"].size(), documents);
    // Each document's truth is its own number of words, once (3..22), in the file's order.
    for (std::size_t d = 0; d < documents; ++d) {
        EXPECT_NEAR(last.task["truth"][d].get<double>(), regression.validationDocuments.values[d],
                    1e-6);
    }
    // The loss is the documents' too: the mean squared error of their pooled predictions, in
    // the standardised units the model learns (before, the windows' mean loss stood beside
    // figures of documents).
    const double scale = regression.scaling.scale;
    double squares = 0.0;
    for (std::size_t d = 0; d < documents; ++d) {
        const double error =
            (last.task["predicted"][d].get<double>() - last.task["truth"][d].get<double>()) / scale;
        squares += error * error;
    }
    EXPECT_NEAR(last.loss, squares / static_cast<double>(documents), 1e-4 * (1.0 + last.loss));

    spec.columns.label = "labels";
    spec.task.kind = TaskKind::SingleLabel;
    const auto single = prepareTrainingData(spec, *test::tinyTokenizer(), 12, 0.25, 3, windows);
    const auto scored = trainTiny(single, 1);
    ASSERT_FALSE(scored.empty());
    std::int64_t counted = 0;
    for (const auto& row : scored.back().confusion) {
        for (const auto cell : row) {
            counted += cell;
        }
    }
    EXPECT_EQ(counted, static_cast<std::int64_t>(single.validationDocuments.size()));
    // Its calibration counts documents too.
    const auto calibration = CalibrationReport::fromJson(scored.back().calibration);
    ASSERT_TRUE(calibration);
    std::int64_t binned = 0;
    for (const auto& bin : calibration->before.bins) {
        binned += bin.count;
    }
    EXPECT_EQ(binned, counted);
    EXPECT_GT(single.validation.size(), single.validationDocuments.size());
}

// A text read in windows names the window that drove its answer: the one whose own probability
// of the answer's class is the highest, with the text tokens it holds (Try it and predict --json
// show it).
TEST(TaskTraining, AWindowedPredictionNamesTheWindowThatDroveItsAnswer) {
    auto bundle = test::makeTinyModel(5);
    TaskSettings settings;
    settings.kind = TaskKind::SingleLabel;
    settings.longText.mode = LongTextMode::Windows;
    settings.longText.stride = 2;
    settings.longText.pooling = WindowPooling::Mean;
    const std::string text =
        "the cat sat on the mat it was very good the dog sat on the mat it was bad the film "
        "was great and the movie was very bad today";
    constexpr std::size_t kMaxLength = 8;
    const auto& tokenizer = *bundle.tokenizer;
    const c10::Device cpu(c10::kCPU);
    const auto predicted =
        predictTexts(settings, *bundle.model, tokenizer, {text, "a good film"}, kMaxLength, 4, cpu);
    const auto shape = templateShapeOf(tokenizer);
    const auto whole = tokenizer.encode(text, 0);
    const auto windows = fitLongText(whole, kMaxLength, settings.longText, shape);
    ASSERT_GT(windows.size(), 3U);
    EXPECT_EQ(predicted[0].windows, windows.size());
    ASSERT_TRUE(predicted[0].decidingWindow.has_value());
    // Each window alone through the model: the highest probability of the answer's class.
    const auto probabilities =
        at::softmax(predictLogits(*bundle.model, tokenizer, windows, 4, cpu), 1);
    const auto answer = static_cast<std::int64_t>(predicted[0].chosen.front());
    const auto expected =
        static_cast<std::size_t>(probabilities.select(1, answer).argmax().item<std::int64_t>());
    const auto& deciding = *predicted[0].decidingWindow;
    EXPECT_EQ(deciding.index, expected);
    // Its tokens are that window's own text tokens, at their place in the whole text.
    const auto& window = windows[expected];
    ASSERT_EQ(deciding.endToken - deciding.firstToken, window.size() - shape.total());
    EXPECT_TRUE(std::equal(
        window.inputIds.begin() + static_cast<std::ptrdiff_t>(shape.before),
        window.inputIds.end() - static_cast<std::ptrdiff_t>(shape.after),
        whole.inputIds.begin() + static_cast<std::ptrdiff_t>(shape.before + deciding.firstToken)));
    // A short text is one window: none is named.
    EXPECT_EQ(predicted[1].windows, 1U);
    EXPECT_FALSE(predicted[1].decidingWindow.has_value());
}

/// A CoNLL file of sentences over the tiny vocabulary: animals (cat, cats, dog, dogs) are ANIMAL,
/// "meeting today" an EVENT of two words, the rest O. "cats" and "dogs" are two sub-words each
/// (cat ##s), so only their first carries the tag.
std::filesystem::path writeTaggedConll(const test::TempDir& dir, std::size_t count,
                                       std::size_t extra = 0) {
    const auto file = dir / "animals.conll";
    std::ofstream out(file);
    std::mt19937_64 random(11);
    const std::vector<std::string> animals = {"cat", "cats", "dog", "dogs"};
    for (std::size_t i = 0; i < count; ++i) {
        const auto words = 3 + extra + random() % 12;
        for (std::size_t w = 0; w < words; ++w) {
            const auto pick = random() % 6;
            if (pick == 0) {
                out << animals[random() % animals.size()] << " B-ANIMAL\n";
            } else if (pick == 1 && w + 1 < words) {
                out << "meeting B-EVENT\ntoday I-EVENT\n";
                ++w;
            } else {
                out << kWords[random() % 9 + 4] << " O\n";  // on .. very: never an entity word
            }
        }
        out << "\n";
    }
    return file;
}

TEST(TaskData, TaggedSentencesLabelEachWordsFirstSubWordOnly) {
    test::TempDir dir;
    const auto data = taskData(writeTaggedConll(dir, 40), TaskKind::TokenClassification, "");
    EXPECT_EQ(data.labels.names,
              (std::vector<std::string>{"O", "B-ANIMAL", "I-ANIMAL", "B-EVENT", "I-EVENT"}));
    const auto tokenizer = test::tinyTokenizer();
    const auto suffix = *tokenizer->tokenId("##s");
    std::size_t suffixes = 0;
    for (std::size_t i = 0; i < data.train.size(); ++i) {
        const auto& ids = data.train.encodings[i].inputIds;
        const auto& tags = data.train.tokenLabels[i];
        ASSERT_EQ(ids.size(), tags.size());
        EXPECT_EQ(tags.front(), kIgnoredLabel);  // [CLS]
        EXPECT_EQ(tags.back(), kIgnoredLabel);   // [SEP]
        for (std::size_t t = 1; t + 1 < ids.size(); ++t) {
            if (ids[t] == suffix) {
                ++suffixes;
                EXPECT_EQ(tags[t], kIgnoredLabel) << "a later sub-word carries no tag";
                EXPECT_EQ(tags[t - 1], 1) << "cats: its first sub-word is B-ANIMAL";
            } else {
                EXPECT_NE(tags[t], kIgnoredLabel);
            }
        }
    }
    EXPECT_GT(suffixes, 0U);
}

TEST(TaskTraining, TokenClassificationGivesTheSameLossAndGradientsPaddedAndUnpadded) {
    test::TempDir dir;
    const auto data = taskData(writeTaggedConll(dir, 40), TaskKind::TokenClassification, "");
    const std::vector<std::size_t> window = {0, 1, 2, 3, 4, 5, 6};
    Recorder recorder;
    auto config = smallConfig();
    config.batchSize = 7;
    auto model = [&] {
        auto bundle = test::makeModel(2, 32, 4, 0.0, 5, data.labels.names);
        bundle.config.head = HeadKind::Token;
        bundle.model = createClassifier(bundle.config);
        bundle.model->initializeWeights(5);
        return bundle;
    };
    auto padded = model();
    config.padding = PaddingMode::Dynamic;
    Trainer paddedTrainer(padded, data, config, recorder);
    const double paddedLoss = paddedTrainer.computeGradients(window);
    auto unpadded = model();
    config.padding = PaddingMode::Unpadded;  // packed rows: the tags must follow them
    Trainer unpaddedTrainer(unpadded, data, config, recorder);
    const double unpaddedLoss = unpaddedTrainer.computeGradients(window);
    EXPECT_NEAR(paddedLoss, unpaddedLoss, 1e-6);
    EXPECT_LT(maxGradientDifference(gradients(padded), gradients(unpadded)), 1e-6);

    // transformers' loss: the mean cross-entropy over the tagged tokens of the batch.
    const torch::NoGradGuard noGrad;
    double sum = 0.0;
    double tagged = 0.0;
    padded.model->eval();
    for (const auto index : window) {
        const auto& encoding = data.train.encodings[index];
        const auto ids = at::tensor(encoding.inputIds, at::kLong).reshape({1, -1}).to(at::kLong);
        const PaddedInputs inputs{ids, at::zeros_like(ids), at::ones_like(ids)};
        const auto logits = padded.model->forward(inputs).reshape({ids.size(1), -1});
        const auto tags = at::tensor(data.train.tokenLabels[index], at::kLong);
        sum += at::cross_entropy_loss(logits, tags, {}, at::Reduction::Sum, kIgnoredLabel)
                   .item<double>();
        tagged += (tags != kIgnoredLabel).sum().item<double>();
    }
    EXPECT_NEAR(paddedLoss, sum / tagged, 1e-5);
}

TEST(TaskTraining, TokenClassificationFindsTheEntitiesAndReportsThemByType) {
    test::TempDir dir;
    const auto data = taskData(writeTaggedConll(dir, 160), TaskKind::TokenClassification, "");
    Recorder recorder;
    auto bundle = test::makeModel(2, 32, 4, 0.0, 5, data.labels.names);
    bundle.config.head = HeadKind::Token;
    bundle.model = createClassifier(bundle.config);
    bundle.model->initializeWeights(5);
    auto config = smallConfig();
    config.epochs = 6;
    config.learningRate = 2e-3;
    config.evalsPerEpoch = 1;
    Trainer trainer(bundle, data, config, recorder);
    const std::atomic<bool> cancel{false};
    ASSERT_EQ(trainer.run(cancel).status, RunStatus::Completed);
    const auto& last = recorder.evaluations.back();
    std::cout << "token classification: " << evaluationSummary(last) << "\n";
    ASSERT_TRUE(last.task.is_object());
    EXPECT_EQ(last.task["main"], "entity_f1");
    EXPECT_GT(last.task["figures"]["entity_f1"].get<double>(), 0.9);
    ASSERT_EQ(last.task["per_type"].size(), 2U);
    EXPECT_EQ(last.task["per_type"][0]["type"], "ANIMAL");
    EXPECT_GT(last.task["per_type"][1]["support"].get<std::int64_t>(), 0);
    // Its calibration counts every tagged token (each word's first sub-word) once, and the
    // right ones among them make the token accuracy.
    const auto calibration = CalibrationReport::fromJson(last.calibration);
    ASSERT_TRUE(calibration);
    EXPECT_EQ(calibration->form, CalibrationForm::TopLabel);
    double tagged = 0.0;
    double right = 0.0;
    for (const auto& bin : calibration->before.bins) {
        tagged += static_cast<double>(bin.count);
        right += bin.accuracy * static_cast<double>(bin.count);
    }
    std::size_t words = 0;
    for (const auto& sentence : data.validation.tokenLabels) {
        words += static_cast<std::size_t>(
            std::count_if(sentence.begin(), sentence.end(),
                          [](std::int64_t tag) { return tag != kIgnoredLabel; }));
    }
    EXPECT_EQ(tagged, static_cast<double>(words));
    EXPECT_NEAR(right / tagged, last.accuracy, 1e-9);
}

/// A BERT with the head data's task needs (per token for token classification).
ModelBundle taskModel(const TrainingData& data, std::int64_t hidden, double dropout) {
    auto bundle = test::makeModel(3, hidden, 4, dropout, 7, data.labels.names);
    if (isPerToken(data.task)) {
        bundle.config.head = HeadKind::Token;
        bundle.model = createClassifier(bundle.config);
        bundle.model->initializeWeights(7);
    }
    return bundle;
}

TEST(TaskTraining, EveryTaskTrainsWithEveryTechniqueAtOnceAndRecoversFromOutOfMemory) {
    test::TempDir dir;
    // 40 to 60 words: the activations, not the weights, make the peak (as in FamilyTechniques).
    const auto csv = writeTaskCsv(dir, 80, 40);
    const std::vector<TrainingData> tasks = {
        taskData(csv, TaskKind::MultiLabel, "labels"),
        taskData(csv, TaskKind::Regression, "words", true),
        taskData(writeTaggedConll(dir, 80, 40), TaskKind::TokenClassification, "")};
    for (const auto& data : tasks) {
        const auto name = toString(data.task);
        auto config = smallConfig();
        config.padding = PaddingMode::Unpadded;
        config.groupByLength = true;
        config.accumulationSteps = 2;
        config.freezeEmbeddings = true;
        config.freezeLayers = 1;
        config.cacheFrozenPrefix = true;
        config.precision = Precision::Bf16;
        config.gradientCheckpointing = true;
        config.maxSteps = 3;  // 3 x 16 of the 60 training examples: every step whole
        config.bestMetric = BestMetric::Task;
        auto peakAt = [&](std::size_t batch) {
            auto c = config;
            c.cacheFrozenPrefix = false;  // the trial measures the prefix too: the larger peak
            return test::trialPeakAtBatch([&] { return taskModel(data, 64, 0.1); }, data, c, batch);
        };
        const auto peak8 = peakAt(8);
        const auto peak4 = peakAt(4);
        ASSERT_GT(peak8, peak4) << name;
        Recorder recorder;
        auto bundle = taskModel(data, 64, 0.1);
        config.memoryCapBytes = (peak8 + peak4) / 2;  // 8 does not fit, 4 does
        Trainer trainer(bundle, data, config, recorder);
        const std::atomic<bool> cancel{false};
        const auto result = trainer.run(cancel);
        ASSERT_EQ(result.status, RunStatus::Completed) << name << ": " << result.error;
        EXPECT_GE(recorder.count(EventKind::OomRecovered), 1U) << name;
        ASSERT_EQ(recorder.steps.size(), 3U) << name;
        for (const auto& step : recorder.steps) {
            EXPECT_EQ(step.microBatch * step.accumulation, 16U) << name;
            EXPECT_TRUE(std::isfinite(step.loss)) << name;
        }
        ASSERT_FALSE(recorder.evaluations.empty()) << name;
        EXPECT_EQ(recorder.evaluations.back().task["task"], name);
        std::cout << name
                  << " with every technique: " << evaluationSummary(recorder.evaluations.back())
                  << "\n";
    }
}

// Focal loss, alone and alpha-balanced, is a sum over units like the plain loss: accumulation
// gives one batch's gradients for every task that has it.
TEST(TaskTraining, AccumulatedGradientsEqualFullBatchGradientsUnderFocalLoss) {
    test::TempDir dir;
    const auto file = writeTaskCsv(dir, 40);
    for (const auto weighting : {ClassWeighting::Off, ClassWeighting::Balanced}) {
        EXPECT_LT(
            accumulationDifference(taskData(file, TaskKind::SingleLabel, "words"), 2.0, weighting),
            1e-6);
        EXPECT_LT(
            accumulationDifference(taskData(file, TaskKind::MultiLabel, "labels"), 2.0, weighting),
            1e-6);
    }
    EXPECT_LT(accumulationDifference(
                  taskData(writeTaggedConll(dir, 40), TaskKind::TokenClassification, ""), 2.0),
              1e-6);
}

}  // namespace
}  // namespace bert
