#include "hf/ModelCache.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "Error.h"
#include "model/EncoderConfig.h"
#include "model/FamilyTraits.h"

namespace bert {

namespace {

std::filesystem::path fromEnvironment(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0' ? std::filesystem::path(value)
                                              : std::filesystem::path();
}

bool isFile(const std::filesystem::path& file) {
    std::error_code error;
    return std::filesystem::is_regular_file(file, error);  // follows the cache's symlinks
}

// "models--FacebookAI--roberta-base" -> "FacebookAI/roberta-base"; "" for anything else.
std::string repoIdOf(const std::string& folderName) {
    constexpr std::string_view kPrefix = "models--";
    if (folderName.rfind(kPrefix, 0) != 0) {
        return {};
    }
    std::string id = folderName.substr(kPrefix.size());
    if (const auto separator = id.find("--"); separator != std::string::npos) {
        id.replace(separator, 2, "/");
    }
    return id;
}

// The snapshot refs/main names, else the most recently written one.
std::filesystem::path snapshotOf(const std::filesystem::path& repo) {
    std::error_code error;
    std::ifstream ref(repo / "refs" / "main");
    std::string revision;
    if (ref && std::getline(ref, revision) && !revision.empty() &&
        revision.find('/') == std::string::npos &&
        std::filesystem::is_directory(repo / "snapshots" / revision, error)) {
        return repo / "snapshots" / revision;
    }
    std::filesystem::path newest;
    std::filesystem::file_time_type newestTime{};
    for (std::filesystem::directory_iterator it(repo / "snapshots", error), end;
         !error && it != end; it.increment(error)) {
        const auto time = std::filesystem::last_write_time(it->path(), error);
        if (!error && it->is_directory(error) && (newest.empty() || time > newestTime)) {
            newest = it->path();
            newestTime = time;
        }
    }
    return newest;
}

std::string listOf(const std::vector<CachedModel>& models) {
    std::string list;
    for (const auto& model : models) {
        list += (list.empty() ? "" : ", ") + model.repoId;
    }
    return list;
}

}  // namespace

std::filesystem::path huggingFaceCache() {
    if (auto cache = fromEnvironment("HF_HUB_CACHE"); !cache.empty()) {
        return cache;
    }
    if (auto home = fromEnvironment("HF_HOME"); !home.empty()) {
        return home / "hub";
    }
    if (auto cache = fromEnvironment("XDG_CACHE_HOME"); !cache.empty()) {
        return cache / "huggingface" / "hub";
    }
    return fromEnvironment("HOME") / ".cache" / "huggingface" / "hub";
}

std::optional<CachedModel> describeModelFolder(const std::filesystem::path& folder) {
    if (folder.empty() ||
        !(isFile(folder / "model.safetensors") ||
          isFile(folder / "model.safetensors.index.json")) ||
        !(isFile(folder / "tokenizer.json") || isFile(folder / "vocab.txt"))) {
        return std::nullopt;
    }
    try {
        const auto config = EncoderConfig::fromFile(folder / "config.json");
        CachedModel model;
        model.folder = folder;
        model.family = familyOf(config.modelType).name;
        model.modelType = config.modelType;
        model.parameters = config.parameterCount();
        model.vocabularySize = config.vocabSize;
        model.maxSequenceLength = config.maxSequenceLength();
        return model;
    } catch (const InputError&) {
        // Another kind of model, or a config.json we cannot read: not one to offer.
        return std::nullopt;
    }
}

std::vector<CachedModel> listCachedModels(const std::filesystem::path& cache) {
    std::vector<CachedModel> models;
    std::error_code error;
    for (std::filesystem::directory_iterator it(cache, error), end; !error && it != end;
         it.increment(error)) {
        const auto repoId = repoIdOf(it->path().filename().string());
        if (repoId.empty()) {
            continue;
        }
        if (auto model = describeModelFolder(snapshotOf(it->path()))) {
            model->repoId = repoId;
            model->revision = model->folder.filename().string();
            models.push_back(std::move(*model));
        }
    }
    std::sort(models.begin(), models.end(),
              [](const CachedModel& a, const CachedModel& b) { return a.repoId < b.repoId; });
    return models;
}

std::string modelFolderName(const std::filesystem::path& given) {
    auto folder = given.lexically_normal();
    if (folder.filename().empty()) {
        folder = folder.parent_path();  // "…/snapshots/<revision>/"
    }
    const auto parent = folder.parent_path();
    if (parent.filename() == "snapshots") {
        if (auto id = repoIdOf(parent.parent_path().filename().string()); !id.empty()) {
            return id;
        }
    }
    if (folder.filename() == "model" && !parent.filename().empty()) {
        return parent.filename().string();
    }
    return folder.filename().string();
}

std::filesystem::path resolveModelFolder(const std::string& model,
                                         const std::filesystem::path& cache) {
    std::error_code error;
    if (model.empty() || std::filesystem::is_directory(model, error)) {
        return model;
    }
    const auto cached = listCachedModels(cache);
    std::vector<const CachedModel*> matches;
    for (const auto& candidate : cached) {
        const auto name = candidate.repoId.substr(candidate.repoId.find('/') + 1);
        if (candidate.repoId == model) {
            return candidate.folder;
        }
        if (name == model) {
            matches.push_back(&candidate);
        }
    }
    if (matches.size() == 1) {
        return matches.front()->folder;
    }
    if (matches.size() > 1) {
        std::string names;
        for (const auto* match : matches) {
            names += (names.empty() ? "" : ", ") + match->repoId;
        }
        throw InputError(model, "names several cached models (" + names + "); give the full id");
    }
    throw InputError(model, "is neither a model folder nor a model of the Hugging Face cache " +
                                cache.string() +
                                (cached.empty() ? std::string(" (it holds none we can train)")
                                                : " (cached: " + listOf(cached) + ")") +
                                "; BERT Studio never downloads");
}

}  // namespace bert
