// bert-studio-cli: the headless face of the engine.
#include <CLI/CLI.hpp>

#include <iostream>

#include "Commands.h"
#include "DefaultModel.h"
#include "Error.h"

namespace {

// Exit codes: 0 done, 1 internal failure, 2 bad input (file, column, setting) or usage.
constexpr int kExitInternal = 1;
constexpr int kExitBadInput = 2;

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"BERT Studio command line: inspect, predict (train, estimate, runs: see --help)"};
    app.require_subcommand(1);
    const auto defaultModel = bert::defaultModelFolder().string();

    std::string inspectFolder = defaultModel;
    bool inspectJson = false;
    auto* inspect = app.add_subcommand("inspect", "Show a model folder's configuration and size");
    inspect->add_option("model", inspectFolder, "Model folder (config.json, vocab.txt, weights)")
        ->capture_default_str();
    inspect->add_flag("--json", inspectJson, "Print JSON");

    std::string predictFolder = defaultModel;
    std::vector<std::string> texts;
    std::size_t maxLength = 512;
    bool predictJson = false;
    auto* predict = app.add_subcommand("predict", "Label probabilities of texts");
    predict->add_option("--model,-m", predictFolder, "Model folder")->capture_default_str();
    predict->add_option("texts", texts, "Texts to classify")->required();
    predict->add_option("--max-length", maxLength, "Truncate texts to this many tokens")
        ->capture_default_str()
        ->check(CLI::Range(8, 4096));
    predict->add_flag("--json", predictJson, "Print one JSON object per text");

    CLI11_PARSE(app, argc, argv);
    try {
        if (inspect->parsed()) {
            bert::cli::inspect(inspectFolder, inspectJson, std::cout);
        } else if (predict->parsed()) {
            bert::cli::predict(predictFolder, texts, maxLength, predictJson, std::cout, std::cerr);
        }
    } catch (const bert::InputError& error) {
        std::cerr << "error: " << error.what() << '\n';
        return kExitBadInput;
    } catch (const std::exception& error) {
        std::cerr << "internal error: " << error.what() << '\n';
        return kExitInternal;
    }
    return 0;
}
