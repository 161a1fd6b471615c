// Tokenizer throughput on the SpamAssassin corpus, single thread: our WordPiece tokenizer
// encoding every e-mail whole (what benchmarks/tokenizer.sh compares with transformers' fast
// (Rust) tokenizer on the same texts), and truncated to 128 and 512 tokens as training encodes
// them (tokenising stops past the limit). With $BERT_STUDIO_TOKENIZER_FAMILIES set to a folder of
// tests/parity/tokenizer_families.py build, the tokenizer.json pipeline too (TokenizeFamily):
// WordPiece (MiniLM's tokenizer.json), byte-level BPE (RoBERTa, ModernBERT layouts) and
// Unigram (XLM-R layout).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <benchmark/benchmark.h>

#include "data/Dataset.h"
#include "tokenizer/Tokenizer.h"
#include "tokenizer/WordPieceTokenizer.h"

namespace {

const bert::ExampleSet* corpus() {
    static const auto* set = []() -> const bert::ExampleSet* {
        // $BERT_STUDIO_CORPUS names the e-mails where ../shared is elsewhere (a worktree).
        const char* chosen = std::getenv("BERT_STUDIO_CORPUS");
        const std::filesystem::path file =
            chosen != nullptr ? std::filesystem::path(chosen)
                              : std::filesystem::path(BERT_STUDIO_SHARED_DATA) / "spamassassin-part1.csv";
        if (!std::filesystem::exists(file)) {
            return nullptr;
        }
        return new bert::ExampleSet(bert::loadExamples(file, {}));
    }();
    return set;
}

// state.range(0): the maximum length in tokens, as training encodes (0: the whole e-mail).
void TokenizeCorpus(benchmark::State& state) {
    const auto* set = corpus();
    if (set == nullptr) {
        state.SkipWithError("../shared/data/spamassassin-part1.csv is absent");
        return;
    }
    const auto tokenizer =
        bert::WordPieceTokenizer::fromModelFolder(BERT_STUDIO_DEFAULT_MODEL_FOR_BENCH);
    std::size_t bytes = 0;
    for (const auto& example : set->examples) {
        bytes += example.text.size();
    }
    std::size_t tokens = 0;
    for (auto _ : state) {
        tokens = 0;
        for (const auto& example : set->examples) {
            const auto encoding =
                tokenizer.encode(example.text, static_cast<std::size_t>(state.range(0)));
            tokens += encoding.size();
            benchmark::DoNotOptimize(encoding.inputIds.data());
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * set->examples.size()));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    state.counters["tokens"] = static_cast<double>(tokens);
}
BENCHMARK(TokenizeCorpus)->Arg(0)->Arg(128)->Arg(512)->Unit(benchmark::kMillisecond)->MinTime(2.0);

// One tokenizer.json layout (a folder under $BERT_STUDIO_TOKENIZER_FAMILIES), loaded as the
// engine loads a model folder.
void TokenizeFamily(benchmark::State& state, const std::string& family) {
    const auto* set = corpus();
    const char* root = std::getenv("BERT_STUDIO_TOKENIZER_FAMILIES");
    if (set == nullptr || root == nullptr) {
        state.SkipWithError("needs ../shared/data/spamassassin-part1.csv and "
                            "$BERT_STUDIO_TOKENIZER_FAMILIES (benchmarks/tokenizer.sh sets it)");
        return;
    }
    const auto tokenizer = bert::loadTokenizer(std::filesystem::path(root) / family);
    std::size_t tokens = 0;
    for (auto _ : state) {
        tokens = 0;
        for (const auto& example : set->examples) {
            const auto encoding =
                tokenizer->encode(example.text, static_cast<std::size_t>(state.range(0)));
            tokens += encoding.size();
            benchmark::DoNotOptimize(encoding.inputIds.data());
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * set->examples.size()));
    state.counters["tokens"] = static_cast<double>(tokens);
    state.SetLabel(tokenizer->kind());
}

}  // namespace

int main(int argc, char** argv) {
    for (const char* family : {"bert-uncased", "roberta", "modernbert", "xlmr"}) {
        benchmark::RegisterBenchmark((std::string("TokenizeFamily/") + family).c_str(),
                                     TokenizeFamily, std::string(family))
            ->Arg(0)
            ->Arg(128)
            ->Unit(benchmark::kMillisecond)
            ->MinTime(2.0);
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
