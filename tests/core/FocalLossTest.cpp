// Focal loss (--focal-gamma) equals its references for every task that has it: Lin et al.
// 2017's softmax form for single-label and token classification (alpha-balanced with balanced
// class weighting, untagged tokens left out), torchvision's sigmoid_focal_loss form for
// multi-label (with BCE's pos_weight when balanced); tests/parity/focal_loss.py writes the
// references apart from the engine. Gamma 0 is the plain loss. A regression job asking for it
// is refused naming the setting (tests/cli: CliTaskTest).
#include <random>

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/TestSupport.h"
#include "task/TaskObjective.h"

namespace bert {
namespace {

struct FocalCase {
    TaskKind kind;
    double gamma;
    bool balanced;
};

TrainingData dataFor(TaskKind kind, std::size_t outputs, std::mt19937_64& random,
                     nlohmann::json& train) {
    TrainingData data;
    data.task = kind;
    for (std::size_t i = 0; i < outputs; ++i) {
        std::string name(1, 'c');  // (not "c" + to_string: GCC 12's false stringop warning)
        name += std::to_string(i);
        data.labels.names.push_back(name);
    }
    const std::size_t examples = 30;
    data.train.encodings.resize(examples);
    data.train.tokenLabels.resize(examples);
    train = nlohmann::json::array();
    if (kind == TaskKind::MultiLabel) {
        // Label 0 never present (its pos_weight stays 1), label 1 rare, the rest common.
        for (std::size_t e = 0; e < examples; ++e) {
            std::vector<float> row(outputs, 0.0F);
            for (std::size_t l = 1; l < outputs; ++l) {
                row[l] = std::uniform_real_distribution<double>(0, 1)(random) < (l == 1 ? 0.1 : 0.5)
                             ? 1.0F
                             : 0.0F;
            }
            data.train.targets.push_back(row);
            train.push_back(row);
        }
    } else {
        // Imbalanced, the last class absent (its weight 0).
        for (std::size_t e = 0; e < examples; ++e) {
            const std::int64_t label =
                e < 20 ? 0 : static_cast<std::int64_t>(1 + e % (outputs - 2));
            data.train.labels.push_back(label);
            train.push_back(label);
        }
    }
    return data;
}

TEST(FocalLoss, EveryTaskWithClassesEqualsTheReferenceForm) {
    if (const auto why = test::referenceUnavailable(); !why.empty()) {
        GTEST_SKIP() << why;
    }
    std::mt19937_64 random(11);
    std::vector<FocalCase> cases;
    for (const auto kind :
         {TaskKind::SingleLabel, TaskKind::MultiLabel, TaskKind::TokenClassification}) {
        for (const double gamma : {0.0, 0.5, 2.0, 5.0}) {
            for (const bool balanced : {false, true}) {
                if (kind != TaskKind::TokenClassification || !balanced) {
                    cases.push_back({kind, gamma, balanced});
                }
            }
        }
    }
    nlohmann::json written = nlohmann::json::array();
    std::vector<double> ours;
    for (const auto& c : cases) {
        const std::size_t outputs = c.kind == TaskKind::MultiLabel ? 4 : 5;
        nlohmann::json train;
        const auto data = dataFor(c.kind, outputs, random, train);
        ObjectiveOptions options;
        options.balanced = c.balanced;
        options.focalGamma = c.gamma;
        const auto objective = makeTaskObjective(data, options, c10::Device(c10::kCPU));
        const std::int64_t rows = 13;
        at::manual_seed(static_cast<std::uint64_t>(written.size()) + 1);
        const auto logits = at::randn({rows, static_cast<std::int64_t>(outputs)}) * 3.0;
        at::Tensor targets;
        nlohmann::json targetJson;
        if (c.kind == TaskKind::MultiLabel) {
            targets = (at::rand({rows, static_cast<std::int64_t>(outputs)}) < 0.4).to(at::kFloat);
            targetJson = nlohmann::json::array();
            for (std::int64_t r = 0; r < rows; ++r) {
                std::vector<float> row;
                for (std::int64_t l = 0; l < static_cast<std::int64_t>(outputs); ++l) {
                    row.push_back(targets[r][l].item<float>());
                }
                targetJson.push_back(row);
            }
        } else {
            std::vector<std::int64_t> truth;
            for (std::int64_t r = 0; r < rows; ++r) {
                const bool untagged = c.kind == TaskKind::TokenClassification && r % 4 == 3;
                truth.push_back(untagged ? -100 : (r * 7) % static_cast<std::int64_t>(outputs));
            }
            targetJson = truth;
            targets = at::tensor(truth, at::kLong);
            if (c.kind == TaskKind::TokenClassification) {
                // [rows, 2]: the tag, and its slot among the tagged tokens (not read by the loss).
                targets = at::stack({targets, at::full_like(targets, -1)}, 1);
            }
        }
        ours.push_back(objective->lossSum(logits, targets).item<double>());
        std::vector<std::vector<float>> logitRows;
        for (std::int64_t r = 0; r < rows; ++r) {
            std::vector<float> row;
            for (std::int64_t o = 0; o < static_cast<std::int64_t>(outputs); ++o) {
                row.push_back(logits[r][o].item<float>());
            }
            logitRows.push_back(row);
        }
        written.push_back({{"kind", c.kind == TaskKind::MultiLabel ? "multi-label" : "softmax"},
                           {"gamma", c.gamma},
                           {"balanced", c.balanced},
                           {"logits", logitRows},
                           {"targets", targetJson},
                           {"train", train}});
    }
    const test::TempDir dir;
    test::writeFile(dir / "cases.json", written.dump());
    ASSERT_EQ(test::runPythonScript(
                  "tests/parity/focal_loss.py",
                  {(dir / "cases.json").string(), (dir / "reference.json").string()}, dir / "log"),
              0)
        << test::readFile(dir / "log");
    const auto reference = nlohmann::json::parse(test::readFile(dir / "reference.json"));
    ASSERT_EQ(reference.size(), cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const double want = reference[i].get<double>();
        EXPECT_NEAR(ours[i], want, 2e-5 * std::max(1.0, std::abs(want)))
            << written[i]["kind"] << " gamma " << cases[i].gamma
            << (cases[i].balanced ? " balanced" : "");
    }
}

}  // namespace
}  // namespace bert
