#pragma once

// Models people already have: the local Hugging Face hub cache (what from_pretrained downloads
// into). Read only; never a network call.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bert {

/// A cached snapshot the engine can train: its config.json names a family we implement, and
/// it has weights (model.safetensors or a sharded index) and a tokenizer (tokenizer.json or
/// vocab.txt).
struct CachedModel {
    std::string repoId;            ///< "FacebookAI/roberta-base"
    std::filesystem::path folder;  ///< the snapshot folder: .../snapshots/<revision>
    std::string revision;          ///< the snapshot's commit
    std::string family;            ///< "RoBERTa"
    std::string modelType;         ///< config.json model_type
    std::int64_t parameters = 0;   ///< of a two-label classifier of this configuration
    std::int64_t vocabularySize = 0;
    std::int64_t maxSequenceLength = 0;  ///< the longest sequence its positions allow
};

/// What a model folder is, for a picker: its family, parameters, vocabulary and longest
/// sequence (repoId and revision left empty). Empty when the folder lacks weights, a tokenizer
/// or a config.json of a family we implement; never throws.
std::optional<CachedModel> describeModelFolder(const std::filesystem::path& folder);

/// The name a model folder goes by in automatic run names: a hub cache snapshot
/// (.../models--org--name/snapshots/<revision>) is its repo id "org/name", not the revision's
/// hash; a folder called "model" (as packages ship it) says little and goes by its parent's
/// name; any other folder by its own.
std::string modelFolderName(const std::filesystem::path& folder);

/// The hub cache folder, as huggingface_hub finds it: $HF_HUB_CACHE, else $HF_HOME/hub, else
/// $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub. It may not exist.
std::filesystem::path huggingFaceCache();

/// The trainable models of a hub cache, by repo id; for each repo its main snapshot (refs/main),
/// else its newest. Folders that are not models of ours are left out; nothing throws for a
/// cache that is missing or half written.
std::vector<CachedModel> listCachedModels(const std::filesystem::path& cache = huggingFaceCache());

/// What a user typed as a model: an existing folder is itself; otherwise a repo id of the cache
/// ("FacebookAI/roberta-base", or "roberta-base" when one cached repo has that name) is its
/// snapshot folder. Throws InputError saying what was looked for, and which cached models there
/// are, when it is neither.
std::filesystem::path resolveModelFolder(const std::string& model,
                                         const std::filesystem::path& cache = huggingFaceCache());

}  // namespace bert
