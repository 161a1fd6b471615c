#include "model/Inference.h"

#include <algorithm>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "Error.h"
#include "data/Batch.h"
#include "memory/MemoryMonitor.h"
#include "model/FamilyTraits.h"

namespace bert {

std::vector<std::vector<float>> predictProbabilities(SequenceClassifier& model,
                                                     const Tokenizer& tokenizer,
                                                     const std::vector<std::string>& texts,
                                                     std::size_t maxLength, std::size_t batchSize,
                                                     c10::Device device) {
    if (model.config().head == HeadKind::Token) {
        // Its logits are per token: read as one row per text they would be nonsense.
        throw InputError("this model tags tokens (" +
                         familyOf(model.config().modelType)
                             .architecture(model.config().modelType, HeadKind::Token) +
                         "); it gives no label per text");
    }
    const bool wasTraining = model.is_training();
    model.eval();
    const torch::NoGradGuard noGrad;
    // Restores the training mode however the loop ends.
    struct RestoreMode {
        SequenceClassifier& model;
        bool training;
        ~RestoreMode() { model.train(training); }
    } restore{model, wasTraining};
    std::vector<std::vector<float>> result;
    result.reserve(texts.size());
    batchSize = std::max<std::size_t>(batchSize, 1);
    for (std::size_t start = 0; start < texts.size(); start += batchSize) {
        const std::size_t end = std::min(texts.size(), start + batchSize);
        std::vector<Encoding> encodings;
        for (std::size_t i = start; i < end; ++i) {
            encodings.push_back(tokenizer.encode(texts[i], maxLength));
        }
        std::vector<const Encoding*> batch;
        for (const auto& encoding : encodings) {
            batch.push_back(&encoding);
        }
        at::Tensor probabilities;
        try {
            const auto inputs = collate(batch, tokenizer.padId(), {}, device);
            probabilities =
                at::softmax(model.forward(inputs).to(at::kFloat), -1).to(at::kCPU).contiguous();
        } catch (const c10::Error& error) {
            const std::string what = error.what_without_backtrace();
            throw EngineError((isOutOfMemory(error) ? "out of memory while classifying: "
                                                    : "LibTorch failed while classifying: ") +
                              what.substr(0, what.find('\n')));
        }
        const auto labels = probabilities.size(1);
        const float* data = probabilities.data_ptr<float>();
        for (std::int64_t row = 0; row < probabilities.size(0); ++row) {
            result.emplace_back(data + row * labels, data + (row + 1) * labels);
        }
    }
    return result;
}

}  // namespace bert
