// Every registered family (model/FamilyList.h) provides every part a user reaches, as
// transformers' common model tester checks every model: its table (config.json keys, defaults,
// parameter counts, activations, class names, tokenizer class), its modules with both heads
// under transformers' names, its ONNX graph, and an export that loads back whole. A family
// listed without one of them fails here, not in a user's run.
#include <set>
#include <string>
#include <vector>

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <torch/csrc/autograd/grad_mode.h>
#include <torch/nn/modules/normalization.h>

#include "TinyModel.h"
#include "data/Batch.h"
#include "export/OnnxExport.h"
#include "hf/ModelFolder.h"
#include "model/Classifiers.h"
#include "support/TestSupport.h"
#include "tokenizer/json/TokenizerJson.h"
#include "train/WeightDecay.h"

namespace bert {
namespace {

bool startsWith(const std::string& text, const std::string& prefix) {
    return text.compare(0, prefix.size(), prefix) == 0;
}

/// Every model type of every family, with its family.
std::vector<std::pair<const FamilyTraits*, std::string>> everyModelType() {
    std::vector<std::pair<const FamilyTraits*, std::string>> types;
    for (const auto* family : modelFamilies()) {
        for (const auto& type : family->modelTypes) {
            types.emplace_back(family, type.name);
        }
    }
    return types;
}

EncoderConfig smallConfig(const std::string& modelType, HeadKind head) {
    auto config = test::familyConfig(modelType, 2, 32, 4, 0.1, {"a", "b", "c"});
    config.head = head;
    return config;
}

/// A padded batch of two sequences over the tiny vocabulary, the second one padded.
PaddedInputs smallBatch() {
    const auto ids = at::tensor({2, 7, 8, 9, 3, 2, 10, 3, 0, 0}, at::kLong).view({2, 5});
    const auto mask = ids.ne(0).to(at::kLong);
    return PaddedInputs{ids, at::zeros_like(ids), mask};
}

TEST(FamilyRegistry, EveryFamilyIsListedOnceWithItsModulesAndItsGraph) {
    const auto& families = modelFamilies();
    const auto& modules = familyModules();
    ASSERT_EQ(modules.size(), families.size());
    std::set<std::string> names;
    std::set<std::string> types;
    for (std::size_t i = 0; i < families.size(); ++i) {
        SCOPED_TRACE(families[i]->name);
        EXPECT_TRUE(names.insert(families[i]->name).second) << "two families of one name";
        EXPECT_EQ(&modules[i]->family(), families[i]);
        for (const auto& type : families[i]->modelTypes) {
            EXPECT_TRUE(types.insert(type.name).second) << type.name << " in two families";
            EXPECT_EQ(&familyOf(type.name), families[i]);
        }
    }
    if (!onnxExportAvailable()) {
        GTEST_SKIP() << "this build has no ONNX export (libonnx-dev was not found): the graphs "
                        "were not checked";
    }
    std::vector<std::string> ordered;
    for (const auto* family : families) {
        ordered.push_back(family->name);
    }
    EXPECT_EQ(onnxExportFamilies(), ordered) << "every family needs its ONNX graph";
}

TEST(FamilyRegistry, EveryFamilysTableIsComplete) {
    for (const auto* family : modelFamilies()) {
        SCOPED_TRACE(family->name);
        EXPECT_FALSE(family->name.empty());
        ASSERT_FALSE(family->modelTypes.empty());
        ASSERT_NE(family->defaults, nullptr);
        ASSERT_NE(family->countParameters, nullptr);
        ASSERT_NE(family->activations, nullptr);
        EXPECT_FALSE(family->keys.empty());
        EXPECT_EQ(family->defaults().modelType, family->modelTypes.front().name);
        ASSERT_GE(family->basePrefix.size(), 2U);
        EXPECT_EQ(family->basePrefix.back(), '.');
        for (const auto& type : family->modelTypes) {
            EXPECT_FALSE(type.classStem.empty()) << type.name;
            // The tokenizer kind: what the tokenizer makes of a folder of this model type whose
            // tokenizer_config.json names no class.
            EXPECT_EQ(tokenizerClassOfModelType(type.name), type.tokenizerClass) << type.name;
        }
        for (const auto head : {HeadKind::Sequence, HeadKind::Token}) {
            const auto& parts = family->headOf(head);
            EXPECT_FALSE(parts.classifier.empty());
            EXPECT_TRUE(parts.norm.empty() || !parts.dense.empty())
                << "a head norm follows the head's dense layer";
            EXPECT_EQ(family->labelHeadOf(head),
                      (std::vector<std::string>{parts.classifier + "."}));
        }
    }
}

TEST(FamilyRegistry, EveryModelTypesConfigReadsBackWhatItWrites) {
    for (const auto& [family, type] : everyModelType()) {
        SCOPED_TRACE(type);
        for (const auto head : {HeadKind::Sequence, HeadKind::Token}) {
            const auto config = smallConfig(type, head);
            const auto json = config.toJson();
            EXPECT_EQ(json["model_type"], type);
            EXPECT_EQ(json["architectures"][0], family->architecture(type, head));
            const auto again = EncoderConfig::fromJson(json, type + "/config.json");
            EXPECT_EQ(again.toJson(), json);
            EXPECT_EQ(again.head, head);
            EXPECT_EQ(again.parameterCount(), config.parameterCount());
            EXPECT_GT(family->activations(again, {}).layerBytesPerToken, 0);
        }
    }
}

TEST(FamilyRegistry, EveryFamilysHeadsAreComposedUnderTransformersNames) {
    const torch::NoGradGuard noGrad;
    for (const auto* family : modelFamilies()) {
        const auto& type = family->modelTypes.front().name;
        for (const auto head : {HeadKind::Sequence, HeadKind::Token}) {
            SCOPED_TRACE(type + (head == HeadKind::Token ? " token" : " sequence"));
            const auto config = smallConfig(type, head);
            const auto model = createClassifier(config);
            model->initializeWeights(5);
            const auto& parts = family->headOf(head);
            std::vector<std::string> headModules = {parts.classifier};
            for (const auto& part : {parts.dense, parts.norm}) {
                if (!part.empty()) {
                    headModules.push_back(part);
                }
            }
            const auto parameters = model->named_parameters();
            std::int64_t count = 0;
            for (const auto& item : parameters) {
                count += item.value().numel();
                bool known = startsWith(item.key(), family->basePrefix);
                for (const auto& module : headModules) {
                    known = known || startsWith(item.key(), module + ".");
                }
                EXPECT_TRUE(known) << item.key() << " is neither the base model's nor the head's";
            }
            EXPECT_EQ(count, config.parameterCount());
            for (const auto& module : headModules) {
                EXPECT_NE(parameters.find(module + ".weight"), nullptr) << module;
            }
            EXPECT_EQ(parameters[parts.classifier + ".weight"].sizes(),
                      (std::vector<std::int64_t>{3, config.hiddenSize}));
            EXPECT_EQ(model->layerCount(), config.numHiddenLayers);
            EXPECT_FALSE(model->embeddingModules().empty());
            // Norms never decay, as transformers' Trainer decides by name.
            for (const auto& item : model->named_modules("", false)) {
                if (item.value()->as<torch::nn::LayerNormImpl>() != nullptr ||
                    dynamic_cast<RowModule*>(item.value().get()) != nullptr) {
                    for (const auto& parameter : item.value()->named_parameters()) {
                        EXPECT_FALSE(takesWeightDecay(item.key() + "." + parameter.key()))
                            << item.key() << "." << parameter.key();
                    }
                }
            }
            model->eval();
            const auto logits = model->forward(smallBatch());
            const std::vector<std::int64_t> shape = head == HeadKind::Token
                                                        ? std::vector<std::int64_t>{2, 5, 3}
                                                        : std::vector<std::int64_t>{2, 3};
            EXPECT_EQ(logits.sizes(), shape);
        }
    }
}

TEST(FamilyRegistry, EveryFamilysExportLoadsBackWholeWithTheSameLogitsAndHasAnOnnxGraph) {
    const test::TempDir dir;
    const torch::NoGradGuard noGrad;
    for (const auto* family : modelFamilies()) {
        const auto& type = family->modelTypes.front().name;
        for (const auto head : {HeadKind::Sequence, HeadKind::Token}) {
            SCOPED_TRACE(type + (head == HeadKind::Token ? " token" : " sequence"));
            const auto model = createClassifier(smallConfig(type, head));
            model->initializeWeights(6);
            model->eval();
            const auto folder =
                dir.path() / (type + (head == HeadKind::Token ? "-token" : "-sequence"));
            exportModelFolder(folder, *model, *test::tinyTokenizer());
            const auto loaded = loadModelFolder(folder);
            EXPECT_TRUE(loaded.report.missingKeys.empty()) << loaded.report.describe();
            EXPECT_TRUE(loaded.report.unexpectedKeys.empty()) << loaded.report.describe();
            EXPECT_EQ(loaded.config.head, head);
            loaded.model->eval();
            EXPECT_TRUE(
                at::equal(loaded.model->forward(smallBatch()), model->forward(smallBatch())));
            if (onnxExportAvailable()) {
                const auto summary = writeOnnxModel(folder / "model.onnx", *model);
                EXPECT_GE(summary.inputNames.size(), 2U);
            }
        }
    }
}

}  // namespace
}  // namespace bert
