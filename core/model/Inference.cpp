#include "model/Inference.h"

#include <algorithm>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "Error.h"
#include "data/Batch.h"
#include "memory/MemoryMonitor.h"
#include "model/FamilyTraits.h"
#include "tokenizer/WordEncoding.h"

namespace bert {

namespace {

/// The model in eval mode while it lives; its training mode restored however the caller's loop
/// ends (an exception included).
class EvalModeScope {
public:
    explicit EvalModeScope(SequenceClassifier& model)
        : model_(model), training_(model.is_training()) {
        model_.eval();
    }
    ~EvalModeScope() { model_.train(training_); }
    EvalModeScope(const EvalModeScope&) = delete;
    EvalModeScope& operator=(const EvalModeScope&) = delete;

private:
    SequenceClassifier& model_;
    bool training_;
};

}  // namespace

namespace {

void requireSequenceHead(const SequenceClassifier& model) {
    if (model.config().head == HeadKind::Token) {
        // Its logits are per token: read as one row per text they would be nonsense.
        throw InputError("this model tags tokens (" +
                         familyOf(model.config().modelType)
                             .architecture(model.config().modelType, HeadKind::Token) +
                         "); it gives no label per text");
    }
}

}  // namespace

at::Tensor outputsOfLogits(const EncoderConfig& config, const at::Tensor& logits,
                           double temperature) {
    // What the head's outputs mean for its problem_type (transformers' own reading): a
    // distribution over the classes, a probability per label, or the number itself.
    const auto scaled = temperature == 1.0 ? logits : logits / temperature;
    switch (effectiveProblemType(config)) {
        case ProblemType::MultiLabel:
            return at::sigmoid(scaled);
        case ProblemType::Regression:
            return logits;
        case ProblemType::SingleLabel:
            break;
    }
    return at::softmax(scaled, -1);
}

at::Tensor predictLogits(SequenceClassifier& model, const Tokenizer& tokenizer,
                         const std::vector<Encoding>& encodings, std::size_t batchSize,
                         c10::Device device) {
    requireSequenceHead(model);
    const EvalModeScope evalMode(model);
    const torch::NoGradGuard noGrad;
    std::vector<at::Tensor> parts;
    batchSize = std::max<std::size_t>(batchSize, 1);
    for (std::size_t start = 0; start < encodings.size(); start += batchSize) {
        const std::size_t end = std::min(encodings.size(), start + batchSize);
        std::vector<const Encoding*> batch;
        for (std::size_t i = start; i < end; ++i) {
            batch.push_back(&encodings[i]);
        }
        try {
            const auto inputs = collate(batch, tokenizer.padId(), {}, device);
            parts.push_back(model.forward(inputs).to(at::kFloat).to(at::kCPU));
        } catch (const c10::Error& error) {
            const std::string what = error.what_without_backtrace();
            throw EngineError((isOutOfMemory(error) ? "out of memory while classifying: "
                                                    : "LibTorch failed while classifying: ") +
                              what.substr(0, what.find('\n')));
        }
    }
    if (parts.empty()) {
        return at::zeros({0, model.config().numLabels()}, at::kFloat);
    }
    return at::cat(parts).contiguous();
}

std::vector<std::vector<float>> predictProbabilities(
    SequenceClassifier& model, const Tokenizer& tokenizer, const std::vector<std::string>& texts,
    std::size_t maxLength, std::size_t batchSize, c10::Device device,
    const std::vector<std::string>& pairs, double temperature) {
    requireSequenceHead(model);
    std::vector<Encoding> encodings;
    encodings.reserve(texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i) {
        encodings.push_back(i < pairs.size() && !pairs[i].empty()
                                ? tokenizer.encodePair(texts[i], pairs[i], maxLength)
                                : tokenizer.encode(texts[i], maxLength));
    }
    const auto probabilities =
        outputsOfLogits(model.config(),
                        predictLogits(model, tokenizer, encodings, batchSize, device), temperature)
            .contiguous();
    std::vector<std::vector<float>> result;
    result.reserve(texts.size());
    const auto labels = probabilities.size(1);
    const float* data = probabilities.data_ptr<float>();
    for (std::int64_t row = 0; row < probabilities.size(0); ++row) {
        result.emplace_back(data + row * labels, data + (row + 1) * labels);
    }
    return result;
}

std::vector<std::vector<std::int64_t>> predictWordLabels(
    SequenceClassifier& model, const Tokenizer& tokenizer,
    const std::vector<std::vector<std::string>>& sentences, std::size_t maxLength,
    std::size_t batchSize, c10::Device device) {
    if (model.config().head != HeadKind::Token) {
        throw InputError("this model gives one label per text, not a tag per word");
    }
    const EvalModeScope evalMode(model);
    const torch::NoGradGuard noGrad;
    std::vector<std::vector<std::int64_t>> result;
    result.reserve(sentences.size());
    batchSize = std::max<std::size_t>(batchSize, 1);
    for (std::size_t start = 0; start < sentences.size(); start += batchSize) {
        const std::size_t end = std::min(sentences.size(), start + batchSize);
        std::vector<WordEncoding> encodings;
        std::vector<const Encoding*> batch;
        for (std::size_t i = start; i < end; ++i) {
            encodings.push_back(tokenizer.encodeWords(sentences[i], maxLength));
        }
        for (const auto& encoded : encodings) {
            batch.push_back(&encoded.encoding);
        }
        at::Tensor predicted;
        try {
            const auto inputs = collate(batch, tokenizer.padId(), {}, device);
            predicted = model.forward(inputs).argmax(-1).to(at::kCPU).contiguous();  // [B, S]
        } catch (const c10::Error& error) {
            const std::string what = error.what_without_backtrace();
            throw EngineError((isOutOfMemory(error) ? "out of memory while tagging: "
                                                    : "LibTorch failed while tagging: ") +
                              what.substr(0, what.find('\n')));
        }
        const auto width = predicted.size(1);
        const auto* data = predicted.data_ptr<std::int64_t>();
        for (std::size_t b = 0; b < encodings.size(); ++b) {
            const auto* row = data + static_cast<std::int64_t>(b) * width;
            const std::vector<std::int64_t> tokens(row, row + encodings[b].encoding.size());
            result.push_back(
                wordPredictions(encodings[b].wordIds, tokens, sentences[start + b].size()));
        }
    }
    return result;
}

}  // namespace bert
