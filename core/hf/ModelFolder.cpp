#include "hf/ModelFolder.h"

#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/grad_mode.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include "Error.h"
#include "io/InputFile.h"
#include "hf/SafeTensors.h"
#include "io/AtomicFile.h"

namespace bert {

namespace {

constexpr const char* kBasePrefix = "bert.";  // transformers' base_model_prefix for BERT

bool startsWith(const std::string& text, const std::string& prefix) {
    return text.compare(0, prefix.size(), prefix) == 0;
}

std::string shapeText(at::IntArrayRef sizes) {
    std::ostringstream out;
    out << '[';
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        out << (i ? ", " : "") << sizes[i];
    }
    out << ']';
    return out.str();
}

// Old TF-converted weights name LayerNorm parameters gamma/beta; transformers renames them.
std::string modernName(std::string name) {
    for (const auto& [legacy, modern] :
         {std::pair<std::string, std::string>{".gamma", ".weight"}, {".beta", ".bias"}}) {
        if (name.size() > legacy.size() &&
            name.compare(name.size() - legacy.size(), legacy.size(), legacy) == 0 &&
            name.find("LayerNorm") != std::string::npos) {
            name.replace(name.size() - legacy.size(), legacy.size(), modern);
        }
    }
    return name;
}

// Buffers that transformers neither loads nor reports (we compute position ids on the fly).
bool isIgnoredBuffer(const std::string& name) {
    return name.size() >= 12 && name.compare(name.size() - 12, 12, "position_ids") == 0;
}

std::vector<std::pair<std::string, at::Tensor>> readPickledStateDict(
    const std::filesystem::path& file) {
    const auto content = readInputFile(file, std::numeric_limits<std::uint64_t>::max());
    std::vector<char> bytes(content.begin(), content.end());
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    try {
        const auto value = torch::jit::pickle_load(bytes);
        if (!value.isGenericDict()) {
            throw InputError(file, "does not hold a state dict (a mapping of names to tensors)");
        }
        for (const auto& item : value.toGenericDict()) {
            if (item.key().isString() && item.value().isTensor()) {
                tensors.emplace_back(item.key().toStringRef(), item.value().toTensor());
            }
        }
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& error) {
        std::string reason = error.what();
        reason = reason.substr(0, reason.find('\n'));
        throw InputError(file, "LibTorch cannot read this pickle (" + reason +
                                   "); LibTorch reads plain-dict state dicts but not the "
                                   "OrderedDict that torch.save(model.state_dict()) writes. "
                                   "Save the model as model.safetensors instead "
                                   "(save_pretrained does by default)");
    }
    return tensors;
}

}  // namespace

std::string LoadReport::describe() const {
    std::string text;
    auto list = [](const std::vector<std::string>& names) {
        std::string joined;
        for (const auto& name : names) {
            joined += (joined.empty() ? "" : ", ") + name;
        }
        return joined;
    };
    if (!missingKeys.empty()) {
        text += "Some weights were not in " + weightsFile.string() +
                " and are newly initialized: " + list(missingKeys) + ".";
        if (freshClassifier) {
            text += " Train this model on a downstream task before using it for predictions.";
        }
    }
    if (!unexpectedKeys.empty()) {
        text += std::string(text.empty() ? "" : " ") + "Some weights of " + weightsFile.string() +
                " were not used: " + list(unexpectedKeys) + ".";
    }
    return text;
}

std::vector<std::pair<std::string, at::Tensor>> stateDict(const torch::nn::Module& model) {
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    for (const auto& item : model.named_parameters(/*recurse=*/true)) {
        tensors.emplace_back(item.key(), item.value().detach().to(at::kCPU, at::kFloat));
    }
    return tensors;
}

ParameterSummary summarizeParameters(const torch::nn::Module& model) {
    ParameterSummary summary;
    for (const auto& parameter : model.parameters(/*recurse=*/true)) {
        summary.count += parameter.numel();
        summary.bytes += static_cast<std::int64_t>(parameter.nbytes());
        if (parameter.requires_grad()) {
            summary.trainable += parameter.numel();
        }
    }
    return summary;
}

ModelBundle loadModelFolder(const std::filesystem::path& folder, const LoadOptions& options) {
    if (!std::filesystem::is_directory(folder)) {
        throw InputError(folder,
                         std::filesystem::exists(folder) ? "is not a folder" : "does not exist");
    }
    auto config = BertConfig::fromFile(folder / "config.json");
    auto tokenizer = WordPieceTokenizer::fromModelFolder(folder);
    if (static_cast<std::int64_t>(tokenizer.vocabularySize()) > config.vocabSize) {
        throw InputError(folder / "vocab.txt", "has " + std::to_string(tokenizer.vocabularySize()) +
                                                   " tokens but config.json says vocab_size " +
                                                   std::to_string(config.vocabSize) +
                                                   "; they belong to different models");
    }
    const bool relabel = options.labels && *options.labels != config.labels;
    if (relabel) {
        config.labels = *options.labels;
    }

    std::vector<std::pair<std::string, at::Tensor>> tensors;
    LoadReport report;
    if (std::filesystem::exists(folder / "model.safetensors")) {
        report.weightsFile = folder / "model.safetensors";
        tensors = readSafeTensors(report.weightsFile).tensors;
    } else if (std::filesystem::exists(folder / "pytorch_model.bin")) {
        report.weightsFile = folder / "pytorch_model.bin";
        tensors = readPickledStateDict(report.weightsFile);
    } else {
        throw InputError(folder, "has no model.safetensors (or pytorch_model.bin)");
    }

    BertForSequenceClassification model(config);
    model->initializeWeights(options.seed);

    std::map<std::string, at::Tensor> parameters;
    for (const auto& item : model->named_parameters(/*recurse=*/true)) {
        parameters.emplace(item.key(), item.value());
    }
    bool hasBasePrefix = false;
    for (const auto& [name, tensor] : tensors) {
        hasBasePrefix = hasBasePrefix || startsWith(name, kBasePrefix);
    }

    std::set<std::string> loaded;
    {
        const torch::NoGradGuard noGrad;
        for (const auto& [fileName, tensor] : tensors) {
            std::string name = modernName(fileName);
            if (!hasBasePrefix && !parameters.count(name) && parameters.count(kBasePrefix + name)) {
                name = kBasePrefix + name;
            }
            if (relabel && startsWith(name, "classifier.")) {
                continue;  // the old head classifies other labels
            }
            const auto target = parameters.find(name);
            if (target == parameters.end()) {
                if (!isIgnoredBuffer(fileName)) {
                    report.unexpectedKeys.push_back(fileName);
                }
                continue;
            }
            if (!tensor.is_floating_point()) {
                throw InputError(report.weightsFile,
                                 "tensor \"" + fileName + "\" is not floating point");
            }
            if (tensor.sizes() != target->second.sizes()) {
                throw InputError(report.weightsFile,
                                 "tensor \"" + fileName + "\" has shape " +
                                     shapeText(tensor.sizes()) + " but config.json (hidden_size " +
                                     std::to_string(config.hiddenSize) + ", vocab_size " +
                                     std::to_string(config.vocabSize) + ", " +
                                     std::to_string(config.numLabels()) + " labels) needs " +
                                     shapeText(target->second.sizes()) +
                                     "; the weights and config.json do not belong together");
            }
            target->second.copy_(tensor.to(at::kFloat));
            loaded.insert(name);
        }
    }
    for (const auto& [name, parameter] : parameters) {
        if (!loaded.count(name)) {
            report.missingKeys.push_back(name);
            report.freshClassifier = report.freshClassifier || startsWith(name, "classifier.");
        }
    }
    if (report.freshClassifier) {
        model->initializeClassifier(options.seed);
    }
    return ModelBundle{std::move(config), std::move(tokenizer), std::move(model),
                       std::move(report)};
}

ModelBundle makePresetModel(const std::string& preset, WordPieceTokenizer tokenizer,
                            std::vector<std::string> labels, std::uint64_t seed) {
    auto config = BertConfig::preset(preset, static_cast<std::int64_t>(tokenizer.vocabularySize()));
    config.labels = std::move(labels);
    config.padTokenId = tokenizer.padId();
    BertForSequenceClassification model(config);
    model->initializeWeights(seed);
    LoadReport report;
    report.freshClassifier = true;
    return ModelBundle{std::move(config), std::move(tokenizer), std::move(model),
                       std::move(report)};
}

void exportModelFolder(const std::filesystem::path& folder,
                       BertForSequenceClassificationImpl& model,
                       const WordPieceTokenizer& tokenizer) {
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error) {
        throw StoreError(folder, "cannot be created: " + error.message());
    }
    const auto& config = model.config();
    writeSafeTensors(folder / "model.safetensors", stateDict(model), {{"format", "pt"}});
    writeFileAtomically(folder / "config.json", config.toJson().dump(2) + "\n");
    tokenizer.save(folder, static_cast<std::size_t>(config.maxPositionEmbeddings));
}

}  // namespace bert
