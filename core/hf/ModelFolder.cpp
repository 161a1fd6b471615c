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
#include "hf/SafeTensors.h"
#include "io/AtomicFile.h"
#include "io/InputFile.h"
#include "io/Json.h"
#include "model/Classifiers.h"
#include "model/FamilyTraits.h"

namespace bert {

namespace {

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
                                   "Convert it to model.safetensors, every tensor as it is: "
                                   "python -c \"import sys, torch, safetensors.torch as st; "
                                   "d = sys.argv[1]; st.save_file({k: v.clone().contiguous() "
                                   "for k, v in torch.load(d + '/pytorch_model.bin', "
                                   "map_location='cpu').items()}, d + '/model.safetensors', "
                                   "metadata={'format': 'pt'})\" " +
                                   file.parent_path().string());
    }
    return tensors;
}

// model.safetensors.index.json: {"weight_map": {"tensor name": "shard file name", ...}}. Every
// shard it names is read once; a tensor the map places in another shard than the one holding
// it, or a shard outside the folder, is refused.
std::vector<std::pair<std::string, at::Tensor>> readShardedSafeTensors(
    const std::filesystem::path& index) {
    std::string problem;
    const auto json = parseJson(readInputFile(index, input_limits::kSmallJson), problem);
    if (!problem.empty()) {
        throw InputError(index, problem);
    }
    if (!json.is_object() || !json.contains("weight_map") || !json["weight_map"].is_object()) {
        throw InputError(index, "has no \"weight_map\" object (tensor name to shard file)");
    }
    std::map<std::string, std::set<std::string>> namesOfShard;
    for (const auto& [name, shard] : json["weight_map"].items()) {
        if (!shard.is_string()) {
            throw InputError(index, "weight_map[\"" + name + "\"] is not a file name");
        }
        const std::filesystem::path file = shard.get<std::string>();
        if (file.empty() || file.has_parent_path() || file.is_absolute() || file == "." ||
            file == "..") {
            throw InputError(index, "weight_map names \"" + file.string() +
                                        "\", which is not a file beside the index");
        }
        namesOfShard[file.string()].insert(name);
    }
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    for (const auto& [shard, names] : namesOfShard) {
        auto part = readSafeTensors(index.parent_path() / shard).tensors;
        for (auto& [name, tensor] : part) {
            if (!names.count(name)) {
                throw InputError(index.parent_path() / shard,
                                 "holds \"" + name + "\", which " + index.filename().string() +
                                     " places in another shard");
            }
            tensors.emplace_back(std::move(name), std::move(tensor));
        }
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
    auto config = EncoderConfig::fromFile(folder / "config.json");
    const auto& family = familyOf(config.modelType, folder / "config.json");
    auto tokenizer = options.tokenizer ? options.tokenizer : loadTokenizer(folder);
    if (static_cast<std::int64_t>(tokenizer->vocabularySize()) > config.vocabSize) {
        throw InputError(tokenizer->source(),
                         "has " + std::to_string(tokenizer->vocabularySize()) +
                             " tokens but config.json says vocab_size " +
                             std::to_string(config.vocabSize) +
                             "; they belong to different models");
    }
    const bool relabel = (options.labels && *options.labels != config.labels) ||
                         (options.head && *options.head != config.head);
    if (options.labels) {
        config.labels = *options.labels;
    }
    if (options.head) {
        config.head = *options.head;
    }
    if (options.problemType) {
        config.problemType = *options.problemType;
    }

    std::vector<std::pair<std::string, at::Tensor>> tensors;
    LoadReport report;
    if (std::filesystem::exists(folder / "model.safetensors")) {
        report.weightsFile = folder / "model.safetensors";
        tensors = readSafeTensors(report.weightsFile).tensors;
    } else if (std::filesystem::exists(folder / "model.safetensors.index.json")) {
        report.weightsFile = folder / "model.safetensors.index.json";
        tensors = readShardedSafeTensors(report.weightsFile);
    } else if (std::filesystem::exists(folder / "pytorch_model.bin")) {
        report.weightsFile = folder / "pytorch_model.bin";
        tensors = readPickledStateDict(report.weightsFile);
    } else {
        throw InputError(folder,
                         "has no weights: model.safetensors, model.safetensors.index.json with "
                         "its shards, or pytorch_model.bin");
    }

    auto model = createClassifier(config);
    model->initializeWeights(options.seed);

    std::map<std::string, at::Tensor> parameters;
    for (const auto& item : model->named_parameters(/*recurse=*/true)) {
        parameters.emplace(item.key(), item.value());
    }
    const auto& prefix = family.basePrefix;
    bool hasBasePrefix = false;
    for (const auto& [name, tensor] : tensors) {
        hasBasePrefix = hasBasePrefix || startsWith(name, prefix);
    }
    auto followsLabels = [&](const std::string& name) {
        for (const auto& head : family.labelHeadOf(config.head)) {
            if (startsWith(name, head)) {
                return true;
            }
        }
        return false;
    };

    std::set<std::string> loaded;
    {
        const torch::NoGradGuard noGrad;
        for (const auto& [fileName, tensor] : tensors) {
            std::string name = modernName(fileName);
            if (!hasBasePrefix && !parameters.count(name) && parameters.count(prefix + name)) {
                name = prefix + name;
            }
            if (relabel && followsLabels(name)) {
                continue;  // the old head classifies other labels, or is another kind of head
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
                                     shapeText(tensor.sizes()) + " but config.json (hidden size " +
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
            report.freshClassifier = report.freshClassifier || followsLabels(name);
        }
    }
    if (report.freshClassifier) {
        model->initializeClassifier(options.seed);
    }
    return ModelBundle{std::move(config), std::move(tokenizer), std::move(model),
                       std::move(report)};
}

ModelBundle makePresetModel(const std::string& preset, std::shared_ptr<const Tokenizer> tokenizer,
                            std::vector<std::string> labels, std::uint64_t seed, HeadKind head,
                            std::optional<ProblemType> problemType) {
    auto config =
        EncoderConfig::preset(preset, static_cast<std::int64_t>(tokenizer->vocabularySize()));
    config.labels = std::move(labels);
    config.head = head;
    config.problemType = problemType;
    config.padTokenId = tokenizer->padId();
    auto model = createClassifier(config);
    model->initializeWeights(seed);
    LoadReport report;
    report.freshClassifier = true;
    return ModelBundle{std::move(config), std::move(tokenizer), std::move(model),
                       std::move(report)};
}

void exportModelFolder(const std::filesystem::path& folder, SequenceClassifier& model,
                       const Tokenizer& tokenizer, std::size_t maxLength) {
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error) {
        throw StoreError(folder, "cannot be created: " + error.message());
    }
    const auto& config = model.config();
    writeSafeTensors(folder / "model.safetensors", stateDict(model), {{"format", "pt"}});
    writeFileAtomically(folder / "config.json", config.toJson().dump(2) + "\n");
    tokenizer.save(folder, maxLength > 0 ? maxLength
                                         : static_cast<std::size_t>(config.maxSequenceLength()));
}

}  // namespace bert
