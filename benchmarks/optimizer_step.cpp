// AdamW step time on the parameters of the bundled MiniLM and of BERT-base: LibTorch's
// torch::optim::AdamW (per-parameter element-wise operations) against our FusedAdamW (ATen's
// fused kernel). benchmarks/optimizer.py runs this beside PyTorch's own AdamW variants.
#include <filesystem>
#include <memory>
#include <thread>

#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>
#include <torch/nn/utils/clip_grad.h>

#include "model/Classifiers.h"
#include "train/FusedAdamW.h"

namespace {

constexpr double kLearningRate = 1e-4;  // any value: the step's cost does not depend on it
constexpr double kWeightDecay = 0.01;   // decay on, as the trainer's main group has it
constexpr std::uint64_t kSeed = 42;     // same gradients in every run

bert::EncoderConfig configNamed(const std::string& name) {
    if (name == "minilm") {
        return bert::EncoderConfig::fromFile(
            std::filesystem::path(BERT_STUDIO_DEFAULT_MODEL_FOR_BENCH) / "config.json");
    }
    return bert::EncoderConfig::preset(name);
}

template <typename Optimizer>
void AdamWStep(benchmark::State& state, const std::string& modelName) {
    at::set_num_threads(static_cast<int>(std::thread::hardware_concurrency()));
    torch::manual_seed(kSeed);
    const auto model = bert::createClassifier(configNamed(modelName));
    std::vector<torch::Tensor> parameters = model->parameters();
    std::int64_t elements = 0;
    for (auto& parameter : parameters) {
        parameter.mutable_grad() = torch::randn_like(parameter);
        elements += parameter.numel();
    }
    Optimizer optimizer(parameters,
                        torch::optim::AdamWOptions(kLearningRate).weight_decay(kWeightDecay));
    optimizer.step();  // creates the moments; later steps are the steady state
    for (auto _ : state) {
        optimizer.step();
    }
    state.counters["parameters"] = static_cast<double>(elements);
    state.counters["threads"] = at::get_num_threads();
}

// Gradient clipping before the step, every gradient clipped (max norm far below the random
// gradients'): LibTorch's clip_grad_norm_ (a norm pass, then a pass scaling every gradient)
// then the step, against the trainer's fold (the norm pass, the factor applied inside the
// fused kernel).
template <bool kFolded>
void ClipAndStep(benchmark::State& state, const std::string& modelName) {
    constexpr double kMaxNorm = 1e-3;
    at::set_num_threads(static_cast<int>(std::thread::hardware_concurrency()));
    torch::manual_seed(kSeed);
    const auto model = bert::createClassifier(configNamed(modelName));
    std::vector<torch::Tensor> parameters = model->parameters();
    for (auto& parameter : parameters) {
        parameter.mutable_grad() = torch::randn_like(parameter);
    }
    bert::FusedAdamW optimizer(
        parameters, torch::optim::AdamWOptions(kLearningRate).weight_decay(kWeightDecay));
    optimizer.step();
    for (auto _ : state) {
        if constexpr (kFolded) {
            const double norm = bert::gradientNorm(parameters);
            optimizer.divideNextGradientsBy((norm + 1e-6) / kMaxNorm);
        } else {
            torch::nn::utils::clip_grad_norm_(parameters, kMaxNorm);
        }
        optimizer.step();
    }
}

void ClipThenStep(benchmark::State& state, const std::string& model) {
    ClipAndStep<false>(state, model);
}
void ClipFoldedIntoStep(benchmark::State& state, const std::string& model) {
    ClipAndStep<true>(state, model);
}

void LibTorchAdamW(benchmark::State& state, const std::string& model) {
    AdamWStep<torch::optim::AdamW>(state, model);
}
void FusedAdamW(benchmark::State& state, const std::string& model) {
    AdamWStep<bert::FusedAdamW>(state, model);
}

}  // namespace

BENCHMARK_CAPTURE(LibTorchAdamW, minilm, std::string("minilm"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(FusedAdamW, minilm, std::string("minilm"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(LibTorchAdamW, base, std::string("base"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(FusedAdamW, base, std::string("base"))->Unit(benchmark::kMillisecond);

BENCHMARK_CAPTURE(ClipThenStep, minilm, std::string("minilm"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ClipFoldedIntoStep, minilm, std::string("minilm"))->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
