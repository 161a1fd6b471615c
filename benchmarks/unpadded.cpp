// One training micro-batch's forward and backward on a MiniLM-shaped model (6 layers, hidden
// 384, 12 heads, dropout 0.1, random weights): padded to the batch's longest example (dynamic
// padding) against unpadded (real tokens only, attention in groups), on the same examples.
// Three length profiles of 16 examples: short texts of uneven length (subject lines: mostly 5-25
// tokens, one in eight up to 128), short texts of nearly equal length (what length grouping makes
// of them), and long texts of uneven length (e-mails at max length 512).
#include <random>
#include <thread>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

#include "data/Batch.h"
#include "model/Classifiers.h"

namespace {

constexpr std::size_t kBatch = 16;           // micro-batch of the side-by-side runs
constexpr std::uint64_t kLengthSeed = 2024;  // the same lengths on every run
constexpr std::int64_t kVocabulary = 30522;  // MiniLM's (bert-base-uncased's) vocabulary

bert::EncoderConfig miniLm() {
    bert::EncoderConfig config;
    config.vocabSize = kVocabulary;
    config.hiddenSize = 384;
    config.numHiddenLayers = 6;
    config.numAttentionHeads = 12;
    config.intermediateSize = 1536;
    config.maxPositionEmbeddings = 512;
    config.labels = {"ham", "spam"};
    return config;
}

enum Profile { kShortUneven, kShortEven, kLongUneven };

std::vector<bert::Encoding> examples(Profile profile) {
    std::mt19937_64 random(kLengthSeed);
    std::vector<bert::Encoding> result(kBatch);
    for (std::size_t i = 0; i < kBatch; ++i) {
        std::size_t length = 0;
        switch (profile) {
            case kShortUneven:
                length = i % 8 == 0 ? 30 + random() % 99 : 5 + random() % 21;
                break;
            case kShortEven:
                length = 12 + random() % 3;
                break;
            case kLongUneven:
                length = 40 + random() % 473;
                break;
        }
        auto& encoding = result[i];
        for (std::size_t t = 0; t < length; ++t) {
            encoding.inputIds.push_back(static_cast<std::int32_t>(1000 + random() % 20000));
            encoding.tokenTypeIds.push_back(0);
            encoding.attentionMask.push_back(1);
        }
    }
    return result;
}

void Step(benchmark::State& state, Profile profile, bool packed) {
    at::set_num_threads(static_cast<int>(std::thread::hardware_concurrency()));
    at::manual_seed(0);
    const auto model = bert::createClassifier(miniLm());
    model->initializeWeights(1);
    model->train();
    const auto encodings = examples(profile);
    std::vector<const bert::Encoding*> batch;
    std::int64_t real = 0;
    for (const auto& encoding : encodings) {
        batch.push_back(&encoding);
        real += static_cast<std::int64_t>(encoding.size());
    }
    const auto labels = at::arange(static_cast<std::int64_t>(kBatch), at::kLong).remainder(2);
    for (auto _ : state) {
        const auto inputs = packed ? bert::packBatch(batch, c10::kCPU,
                                                     bert::AttentionGrouping::forDevice(c10::kCPU))
                                   : bert::paddedTokenBatch(bert::collate(batch, 0, {}, c10::kCPU));
        at::cross_entropy_loss(model->forward(inputs), labels).backward();
        for (auto& parameter : model->parameters()) {
            parameter.mutable_grad() = at::Tensor();
        }
    }
    state.counters["real_tokens_per_s"] = benchmark::Counter(
        static_cast<double>(real), benchmark::Counter::kIsIterationInvariantRate);
}

void Padded(benchmark::State& state, Profile profile) {
    Step(state, profile, false);
}
void Unpadded(benchmark::State& state, Profile profile) {
    Step(state, profile, true);
}

}  // namespace

BENCHMARK_CAPTURE(Padded, short_uneven, kShortUneven)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Unpadded, short_uneven, kShortUneven)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Padded, short_even, kShortEven)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Unpadded, short_even, kShortEven)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Padded, long_uneven, kLongUneven)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Unpadded, long_uneven, kLongUneven)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
