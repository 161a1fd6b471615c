#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <memory>

#include "model/EncoderConfig.h"
#include "model/SequenceClassifier.h"
#include "tokenizer/Tokenizer.h"

namespace bert {

/// What loading a model folder did, in transformers' terms.
struct LoadReport {
    std::filesystem::path weightsFile;
    /// Model parameters the weights file did not have; they keep their fresh initialisation
    /// (a base model's classifier head, for instance). Our names.
    std::vector<std::string> missingKeys;
    /// Weights-file tensors the model has no place for (an MLM head, for instance). File names.
    std::vector<std::string> unexpectedKeys;
    /// The classifier head was created fresh (missing, or a different label set was asked for).
    bool freshClassifier = false;

    /// The warning transformers prints, in one paragraph; empty when everything matched.
    std::string describe() const;
};

struct LoadOptions {
    /// Label names for a fine-tuning run; when they differ from config.json's, the folder's
    /// head (if any) is dropped and a fresh one is made for these labels.
    std::optional<std::vector<std::string>> labels;
    /// The head a fine-tuning run needs (its task's); when it differs from the folder's (a
    /// base model reads as a sequence head), the folder's head is dropped likewise and the
    /// encoder alone is loaded: a sequence classifier's pooler is then an unused weight.
    std::optional<HeadKind> head;
    /// The run's problem_type (multi-label, regression), written to config.json on export;
    /// the sequence head's modules do not depend on it.
    std::optional<ProblemType> problemType;
    /// Seed of any freshly initialised weights.
    std::uint64_t seed = 42;
    /// The folder's tokenizer when the caller has loaded it already; null: loaded here.
    std::shared_ptr<const Tokenizer> tokenizer;
};

/// A loaded model folder: configuration, tokenizer and classifier, on the CPU in fp32.
struct ModelBundle {
    EncoderConfig config;
    std::shared_ptr<const Tokenizer> tokenizer;
    std::shared_ptr<SequenceClassifier> model;
    LoadReport report;
};

/// Loads a transformers folder of any family we implement (model/FamilyTraits.h): config.json,
/// the tokenizer (tokenizer/Tokenizer.h: tokenizer.json, or vocab.txt), and the weights:
/// model.safetensors, the shards of model.safetensors.index.json, or pytorch_model.bin where
/// LibTorch can unpickle it. Base-model weights (keys without the family's prefix, "bert." or
/// "roberta.", say) and legacy LayerNorm gamma/beta names are mapped as transformers maps them.
/// Throws InputError naming the file and the problem: missing files, a model type we do not
/// implement, a tensor whose shape disagrees with config.json, a vocabulary larger than
/// vocab_size.
ModelBundle loadModelFolder(const std::filesystem::path& folder, const LoadOptions& options = {});

/// A from-scratch BERT of a preset size over the given tokenizer, initialised with seed, with
/// the given head and problem_type.
ModelBundle makePresetModel(const std::string& preset, std::shared_ptr<const Tokenizer> tokenizer,
                            std::vector<std::string> labels, std::uint64_t seed,
                            HeadKind head = HeadKind::Sequence,
                            std::optional<ProblemType> problemType = std::nullopt);

/// Writes a folder that transformers' AutoModelForSequenceClassification (or, for a token head,
/// AutoModelForTokenClassification) and AutoTokenizer load:
/// config.json (with id2label/label2id), model.safetensors, and the tokenizer's files (with
/// model_max_length = maxLength, or the model's longest sequence when 0). Each file is replaced
/// atomically.
void exportModelFolder(const std::filesystem::path& folder, SequenceClassifier& model,
                       const Tokenizer& tokenizer, std::size_t maxLength = 0);

/// transformers' names and fp32 CPU copies of every parameter of the model.
std::vector<std::pair<std::string, at::Tensor>> stateDict(const torch::nn::Module& model);

/// Number of parameters and the bytes they take in their current dtype.
struct ParameterSummary {
    std::int64_t count = 0;
    std::int64_t trainable = 0;
    std::int64_t bytes = 0;
};
ParameterSummary summarizeParameters(const torch::nn::Module& model);

}  // namespace bert
