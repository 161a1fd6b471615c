// Dropout on the CPU in training, forward and backward: ATen's at::dropout (bernoulli_ on one
// mt19937, serial) against ours (model/Dropout.h: Philox counters in parallel, one-byte mask),
// on the shapes of one MiniLM layer at 16 x 128 tokens: the attention maps [16, 12, 128, 128]
// and the hidden states [16, 128, 384].
#include "model/Dropout.h"

#include <thread>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <benchmark/benchmark.h>

namespace {

constexpr double kDropout = 0.1;  // MiniLM's and BERT's hidden and attention dropout

at::Tensor shapeNamed(const std::string& name) {
    return name == "attention" ? at::rand({16, 12, 128, 128}) : at::rand({16, 128, 384});
}

template <bool kOurs>
void Dropout(benchmark::State& state, const std::string& shape) {
    at::set_num_threads(static_cast<int>(std::thread::hardware_concurrency()));
    const auto input = shapeNamed(shape).set_requires_grad(true);
    for (auto _ : state) {
        const auto output =
            kOurs ? bert::applyDropout(input, kDropout, true) : at::dropout(input, kDropout, true);
        output.sum().backward();
        benchmark::DoNotOptimize(input.grad().data_ptr());
        input.mutable_grad() = at::Tensor();
    }
    state.SetItemsProcessed(state.iterations() * input.numel());
}

void AtenDropout(benchmark::State& state, const std::string& shape) {
    Dropout<false>(state, shape);
}
void OurDropout(benchmark::State& state, const std::string& shape) {
    Dropout<true>(state, shape);
}

}  // namespace

BENCHMARK_CAPTURE(AtenDropout, attention, std::string("attention"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(OurDropout, attention, std::string("attention"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(AtenDropout, hidden, std::string("hidden"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(OurDropout, hidden, std::string("hidden"))->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
