// The token-classification head of every family (issue 29, point 4): a configuration names its
// head (config.json "architectures") and its problem_type, both written back; the token head
// gives a row of logits per token, padded [B, S, labels] or packed [T, labels] in the packed
// order, and every technique that cuts the model in stages (the frozen-prefix cache, unpadded
// batches, dropout keyed by the layout) works on it as on the sequence head. Parity with
// transformers is tests/parity/TokenFamilyParityTest.cpp.
#include <iostream>

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "Error.h"
#include "TinyModel.h"
#include "data/Batch.h"
#include "hf/ModelFolder.h"
#include "memory/MemoryMonitor.h"
#include "model/Classifiers.h"
#include "model/FamilyTraits.h"
#include "model/Inference.h"
#include "support/TestSupport.h"

namespace bert {
namespace {

constexpr double kSamePathTolerance = 1e-5;
const std::vector<std::string> kTags = {"O", "B-PER", "I-PER", "B-LOC", "I-LOC"};

EncoderConfig tokenConfig(const std::string& modelType, double dropout) {
    auto config = test::familyConfig(modelType, 3, 32, 4, dropout, kTags);
    config.head = HeadKind::Token;
    return config;
}

std::shared_ptr<SequenceClassifier> tokenModel(const std::string& modelType, double dropout,
                                               std::uint64_t seed = 5) {
    auto model = createClassifier(tokenConfig(modelType, dropout));
    model->initializeWeights(seed);
    return model;
}

std::vector<const Encoding*> pointers(const std::vector<Encoding>& encodings, std::size_t count) {
    std::vector<const Encoding*> batch;
    for (std::size_t i = 0; i < count; ++i) {
        batch.push_back(&encodings[i]);
    }
    return batch;
}

// Expects fn to throw InputError whose file is file and whose message contains fragment.
template <typename Fn>
void expectInputError(Fn&& fn, const std::filesystem::path& file, const std::string& fragment) {
    try {
        fn();
        FAIL() << "expected InputError about " << file;
    } catch (const InputError& error) {
        EXPECT_EQ(error.file(), file) << error.what();
        EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
    }
}

float maxDifference(const at::Tensor& a, const at::Tensor& b) {
    return (a - b).abs().max().item<float>();
}

TEST(TokenHead, ConfigReadsTheHeadAndProblemTypeAndWritesThemBack) {
    const nlohmann::json token = {{"model_type", "xlm-roberta"},
                                  {"architectures", {"XLMRobertaForTokenClassification"}},
                                  {"id2label", {{"0", "O"}, {"1", "B-LOC"}}}};
    const auto config = EncoderConfig::fromJson(token, "ner/config.json");
    EXPECT_EQ(config.head, HeadKind::Token);
    EXPECT_FALSE(config.problemType.has_value());
    const auto written = config.toJson();
    EXPECT_EQ(written["architectures"], nlohmann::json({"XLMRobertaForTokenClassification"}));
    // transformers' token classifiers ignore problem_type: none is written for them.
    EXPECT_FALSE(written.contains("problem_type"));
    EXPECT_EQ(written["id2label"]["1"], "B-LOC");

    // A base model names no head: a sequence head until a run says otherwise.
    for (const auto* base : {"BertModel", "BertForMaskedLM"}) {
        EXPECT_EQ(EncoderConfig::fromJson({{"architectures", {base}}}, "c.json").head,
                  HeadKind::Sequence);
    }
    auto multi = EncoderConfig::fromJson(
        {{"problem_type", "multi_label_classification"}, {"num_labels", 4}}, "c.json");
    EXPECT_EQ(multi.problemType, ProblemType::MultiLabel);
    EXPECT_EQ(multi.toJson()["problem_type"], "multi_label_classification");
    EXPECT_EQ(multi.toJson()["architectures"][0], "BertForSequenceClassification");
    multi.head = HeadKind::Token;
    EXPECT_EQ(multi.toJson()["architectures"][0], "BertForTokenClassification");

    // Unset: what transformers infers (one output is a regression).
    EXPECT_EQ(EncoderConfig::fromJson({{"num_labels", 1}}, "c.json").toJson()["problem_type"],
              "regression");
    EXPECT_EQ(EncoderConfig::fromJson({{"num_labels", 3}}, "c.json").toJson()["problem_type"],
              "single_label_classification");
    auto regression = EncoderConfig::fromJson(nlohmann::json::object(), "c.json");
    regression.problemType = ProblemType::Regression;
    regression.labels = {"score"};
    const auto again = EncoderConfig::fromJson(regression.toJson(), "c.json");
    EXPECT_EQ(again.problemType, ProblemType::Regression);
    EXPECT_EQ(again.labels, std::vector<std::string>{"score"});

    expectInputError(
        [] {
            EncoderConfig::fromJson({{"problem_type", "ranking"}}, "m/config.json");
        },
        "m/config.json", "problem_type \"ranking\"");
    expectInputError(
        [] {
            EncoderConfig::fromJson({{"architectures", "BertModel"}}, "m/config.json");
        },
        "m/config.json", "architectures");
}

TEST(TokenHead, EveryFamilyNamesItsTokenClassAndCountsItsParameters) {
    for (const auto& type : test::familyModelTypes()) {
        SCOPED_TRACE(type);
        for (const auto head : {HeadKind::Sequence, HeadKind::Token}) {
            auto config = tokenConfig(type, 0.1);
            config.head = head;
            const auto model = createClassifier(config);
            std::int64_t parameters = 0;
            for (const auto& parameter : model->parameters()) {
                parameters += parameter.numel();
            }
            EXPECT_EQ(config.parameterCount(), parameters);
            const auto name = familyOf(type).architecture(type, head);
            EXPECT_EQ(config.toJson()["architectures"][0], name);
            EXPECT_NE(name.find(head == HeadKind::Token ? "ForTokenClassification"
                                                        : "ForSequenceClassification"),
                      std::string::npos);
        }
    }
}

// Padded, dynamically padded and packed (attention groups of one length and of mixed lengths)
// give the same logits and gradients on every real token, with dropout on: the head's dropout
// is keyed by the layout's rows like the layers'. packedRows lines padded logits and per-token
// labels up with the packed rows.
TEST(TokenHead, EveryLayoutGivesTheSameRealTokenLogitsAndGradientsWithDropout) {
    const auto data = test::makeTinyData(10, 2, 41, 1, 40, 48);
    const auto batch = pointers(data.train.encodings, 10);
    const auto grid = collate(batch, 0, {}, c10::kCPU);
    const auto tags =
        at::randint(0, static_cast<std::int64_t>(kTags.size()), grid.inputIds.sizes(), at::kLong);
    for (const auto& type : test::familyModelTypes()) {
        SCOPED_TRACE(type);
        auto model = tokenModel(type, 0.2);
        model->train();
        // Forward and backward of the cross-entropy over the real tokens; the real tokens'
        // logits in the packed order (of the reference packing) and the gradients.
        const auto reference = packBatch(batch, c10::kCPU, {.share = 1.0});
        auto run = [&](const TokenBatch& tokens, std::uint64_t seed) {
            for (auto& parameter : model->parameters()) {
                parameter.mutable_grad() = at::Tensor();
            }
            at::manual_seed(seed);
            const auto logits = model->forward(tokens);
            if (tokens.layout.packed) {
                EXPECT_EQ(logits.sizes(), (std::vector<std::int64_t>{tokens.inputIds.size(0), 5}));
            } else {
                EXPECT_EQ(logits.sizes(), (std::vector<std::int64_t>{tokens.inputIds.size(0),
                                                                     tokens.inputIds.size(1), 5}));
            }
            const auto real = tokens.layout.packed ? logits : packedRows(logits, reference.layout);
            const auto targets = tokens.layout.packed ? packedRows(tags, tokens.layout)
                                                      : packedRows(tags, reference.layout);
            at::cross_entropy_loss(real, targets).backward();
            std::vector<at::Tensor> gradients;
            for (const auto& parameter : model->parameters()) {
                gradients.push_back(parameter.grad().clone());
            }
            return std::pair{real.detach(), gradients};
        };
        auto inReferenceOrder = [&](const TokenBatch& tokens, const at::Tensor& rows) {
            // rows are in tokens' packed order: back to the grid, then to the reference order.
            auto scattered =
                at::zeros({grid.inputIds.size(0) * grid.inputIds.size(1), rows.size(1)});
            const auto keys = tokens.layout.maskRows;
            const auto sequence = at::floor_divide(keys, kMaskPositionStride);
            scattered.index_copy_(
                0, sequence * grid.inputIds.size(1) + keys - sequence * kMaskPositionStride, rows);
            return packedRows(scattered.view({grid.inputIds.size(0), grid.inputIds.size(1), -1}),
                              reference.layout);
        };
        PaddingOptions fixed;
        fixed.fixedLength = 48;
        const auto [padded, paddedGradients] =
            run(paddedTokenBatch(collate(batch, 0, fixed, c10::kCPU)), 7);
        const auto [dynamic, dynamicGradients] = run(paddedTokenBatch(grid), 7);
        const auto [perLength, perLengthGradients] = run(reference, 7);
        const auto mixedBatch = packBatch(batch, c10::kCPU, {.share = 0.5});
        ASSERT_GE(mixedBatch.layout.groups.size(), 2U);
        const auto [mixed, mixedGradients] = run(mixedBatch, 7);
        const auto mixedInOrder = inReferenceOrder(mixedBatch, mixed);
        for (const auto& [logits, gradients] :
             {std::pair{dynamic, dynamicGradients}, std::pair{perLength, perLengthGradients},
              std::pair{mixedInOrder, mixedGradients}}) {
            EXPECT_LT(maxDifference(padded, logits), kSamePathTolerance);
            for (std::size_t i = 0; i < gradients.size(); ++i) {
                EXPECT_LT(maxDifference(paddedGradients[i], gradients[i]), kSamePathTolerance);
            }
        }
        // Guard: dropout is on, so another draw gives other logits.
        EXPECT_GT(maxDifference(perLength, run(reference, 8).first), 1e-3);
    }
}

// The frozen-prefix cache keeps each example's real rows and restores them into the layout
// with zeros on padding (train/TrainerPrefixCache.cpp): a token head reads every row, so its
// real tokens' logits must not depend on the padding rows above the prefix.
TEST(TokenHead, PrefixThenForwardFromGivesForwardsLogitsWhateverThePaddingRowsHold) {
    const auto data = test::makeTinyData(6, 2, 43, 1, 30, 40);
    const auto batch = pointers(data.train.encodings, 6);
    const auto inputs = collate(batch, 0, {}, c10::kCPU);
    const auto padded = paddedTokenBatch(inputs);
    const auto packed = packBatch(batch, c10::kCPU, {.share = 0.5});
    const auto keep = inputs.attentionMask.unsqueeze(-1).to(at::kFloat);
    for (const auto& type : test::familyModelTypes()) {
        SCOPED_TRACE(type);
        auto model = tokenModel(type, 0.1);
        model->eval();
        const torch::NoGradGuard noGrad;
        const auto full = model->forward(padded);
        const auto fullPacked = model->forward(packed);
        EXPECT_LT(maxDifference(packedRows(full, packed.layout), fullPacked), kSamePathTolerance);
        for (std::int64_t layers = 0; layers <= model->layerCount(); ++layers) {
            const auto hidden = model->prefix(padded, layers) * keep;  // zeros on padding
            const auto logits = model->forwardFrom(hidden, padded.layout, layers);
            EXPECT_LT(maxDifference(packedRows(logits, packed.layout), fullPacked),
                      kSamePathTolerance)
                << layers << " layers";
            const auto fromPacked =
                model->forwardFrom(model->prefix(packed, layers), packed.layout, layers);
            EXPECT_LT(maxDifference(fromPacked, fullPacked), kSamePathTolerance)
                << layers << " layers";
        }
    }
}

// Each family's head drops with transformers' probability: classifier_dropout, falling back to
// the hidden dropout (BERT, RoBERTa, ELECTRA), config.dropout for DistilBERT (not
// seq_classif_dropout), classifier_dropout for ModernBERT. With every other dropout at 0, the
// head's alone decides whether training mode changes the logits.
TEST(TokenHead, EveryFamilysHeadDropsWithTransformersProbability) {
    const auto data = test::makeTinyData(4, 2, 44, 3, 20, 32);
    const auto tokens = packBatch(pointers(data.train.encodings, 4), c10::kCPU, {});
    struct Case {
        std::string type;
        nlohmann::json keys;
        bool drops;
    };
    const std::vector<Case> cases = {
        {"bert", {{"classifier_dropout", 0.5}}, true},
        {"bert", {{"classifier_dropout", 0.0}}, false},
        {"electra", {{"classifier_dropout", 0.5}}, true},
        {"roberta", {{"classifier_dropout", nullptr}, {"hidden_dropout_prob", 0.5}}, true},
        {"distilbert", {{"seq_classif_dropout", 0.5}}, false},
        {"distilbert", {{"dropout", 0.5}}, true},
        {"modernbert", {{"classifier_dropout", 0.5}}, true},
    };
    for (const auto& testCase : cases) {
        SCOPED_TRACE(testCase.type + " " + testCase.keys.dump());
        auto json = tokenConfig(testCase.type, 0.0).toJson();
        json.update(testCase.keys);
        auto config = EncoderConfig::fromJson(json, "c.json");
        ASSERT_EQ(config.head, HeadKind::Token);
        auto model = createClassifier(config);
        model->initializeWeights(3);
        const torch::NoGradGuard noGrad;
        // The layers run in eval mode (no dropout); only the head runs in both modes.
        model->eval();
        const auto top = model->prefix(tokens, model->layerCount());
        const auto evaluated = model->forwardFrom(top, tokens.layout, model->layerCount());
        model->train();
        at::manual_seed(1);
        const auto trained = model->forwardFrom(top, tokens.layout, model->layerCount());
        EXPECT_EQ(maxDifference(evaluated, trained) > 1e-3, testCase.drops);
    }
}

// What the forecast adds for a token head (FamilyTraits' headBytesPerToken): the bytes the head
// keeps for backward per token, measured here by the CPU's counting allocator on the head alone
// (the logits aside), fp32 with dropout on.
TEST(TokenHead, HeadBytesPerTokenIsWhatTheHeadKeepsForBackward) {
    const MemoryMonitor monitor{c10::Device(c10::kCPU)};
    const auto data = test::makeTinyData(16, 2, 45, 5, 40, 48);
    const auto tokens = packBatch(pointers(data.train.encodings, 16), c10::kCPU, {});
    const auto rows = tokens.inputIds.size(0);
    for (const auto& type : test::familyModelTypes()) {
        SCOPED_TRACE(type);
        auto config = test::familyConfig(type, 2, 64, 4, 0.1, kTags);
        config.head = HeadKind::Token;
        auto model = createClassifier(config);
        model->initializeWeights(2);
        at::Tensor leaf;
        {
            const torch::NoGradGuard noGrad;
            leaf = model->prefix(tokens, model->layerCount());
        }
        leaf.requires_grad_(true);
        // As in training, the top layer's output is no leaf (autograd would hold a leaf): it
        // stays only where the head keeps it (ModernBERT's final_norm does).
        const auto before = monitor.sample().current;
        auto top = leaf * 1.0;
        model->train();
        const auto logits = model->forwardFrom(top, tokens.layout, model->layerCount());
        top = at::Tensor();
        const auto kept =
            monitor.sample().current - before - static_cast<std::int64_t>(logits.nbytes());
        const auto forecast =
            rows * familyOf(type).activations(config, ActivationContext{}).headBytesPerToken;
        std::cout << type << ": the token head keeps " << kept << " bytes for " << rows
                  << " tokens; forecast " << forecast << "\n";
        EXPECT_GE(kept, forecast * 95 / 100);
        EXPECT_LE(kept, forecast * 105 / 100);
    }
}

TEST(TokenHead, InitializeClassifierRenewsTheClassifierAlone) {
    for (const auto& type : test::familyModelTypes()) {
        SCOPED_TRACE(type);
        auto model = tokenModel(type, 0.1, 1);
        std::map<std::string, at::Tensor> before;
        for (const auto& item : model->named_parameters()) {
            before.emplace(item.key(), item.value().clone());
        }
        model->initializeClassifier(99);
        for (const auto& item : model->named_parameters()) {
            const bool same = at::equal(before.at(item.key()), item.value());
            // The bias starts at zero either way.
            if (item.key() == "classifier.weight") {
                EXPECT_FALSE(same);
            } else {
                EXPECT_TRUE(same) << item.key();
            }
        }
    }
}

TEST(TokenHead, LoadingAFolderForAnotherHeadKeepsTheEncoderAndMakesAFreshHead) {
    test::TempDir dir;
    auto sequence = test::makeFamilyModel("bert", 2, 32, 4, 0.0, 11, {"neg", "pos"});
    exportModelFolder(dir / "seq", *sequence.model, *sequence.tokenizer);

    LoadOptions options;
    options.labels = kTags;
    options.head = HeadKind::Token;
    const auto loaded = loadModelFolder(dir / "seq", options);
    EXPECT_EQ(loaded.config.head, HeadKind::Token);
    EXPECT_EQ(loaded.model->config().head, HeadKind::Token);
    EXPECT_TRUE(loaded.report.freshClassifier);
    EXPECT_EQ(loaded.report.unexpectedKeys,
              (std::vector<std::string>{"bert.pooler.dense.bias", "bert.pooler.dense.weight"}));
    EXPECT_EQ(loaded.report.missingKeys,
              (std::vector<std::string>{"classifier.bias", "classifier.weight"}));
    EXPECT_TRUE(at::equal(test::bertOf(loaded).embeddings->word_embeddings->weight,
                          test::bertOf(sequence).embeddings->word_embeddings->weight));

    // Saved as a token classifier, it loads as one: no head is dropped, nothing is missing.
    exportModelFolder(dir / "ner", *loaded.model, *loaded.tokenizer);
    const auto again = loadModelFolder(dir / "ner");
    EXPECT_EQ(again.config.head, HeadKind::Token);
    EXPECT_TRUE(again.report.missingKeys.empty()) << again.report.describe();
    EXPECT_TRUE(again.report.unexpectedKeys.empty()) << again.report.describe();
    EXPECT_EQ(again.config.labels, kTags);

    // A problem_type asked for is written on export.
    LoadOptions regression;
    regression.labels = std::vector<std::string>{"score"};
    regression.problemType = ProblemType::Regression;
    const auto scored = loadModelFolder(dir / "seq", regression);
    exportModelFolder(dir / "score", *scored.model, *scored.tokenizer);
    EXPECT_EQ(EncoderConfig::fromFile(dir / "score" / "config.json").problemType,
              ProblemType::Regression);
}

TEST(TokenHead, PredictingALabelPerTextIsRefusedForATokenHead) {
    auto model = tokenModel("bert", 0.0);
    expectInputError(
        [&] {
            predictProbabilities(*model, *test::tinyTokenizer(), {"good movie"}, 16, 4, c10::kCPU);
        },
        "", "BertForTokenClassification");
}

}  // namespace
}  // namespace bert
