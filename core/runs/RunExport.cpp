#include "runs/RunExport.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>

#include "Error.h"
#include "export/OnnxExport.h"
#include "hf/ModelFolder.h"
#include "io/AtomicFile.h"
#include "io/InputFile.h"
#include "io/Json.h"
#include "runs/OutputPaths.h"
#include "runs/RunExportReadme.h"
#include "runs/RunTask.h"
#include "train/TrainingStateFile.h"

namespace bert {

std::filesystem::path modelCheckpointOfRun(RunStore& store, std::int64_t runId, bool preferBest) {
    std::filesystem::path best;
    std::filesystem::path last;
    for (const auto& checkpoint : store.checkpoints(runId)) {
        if (!std::filesystem::exists(checkpoint.path)) {
            continue;
        }
        (checkpoint.kind == CheckpointKind::Best ? best : last) = checkpoint.path;
    }
    if (preferBest && !best.empty()) {
        return best;
    }
    return last.empty() ? best : last;
}

std::filesystem::path requireModelCheckpoint(RunStore& store, std::int64_t runId, bool preferBest) {
    const auto folder = modelCheckpointOfRun(store, runId, preferBest);
    if (!folder.empty()) {
        return folder;
    }
    const auto recorded = store.checkpoints(runId);
    if (recorded.empty()) {
        throw InputError("run " + std::to_string(runId) +
                         " has no saved model (it stopped before its first checkpoint)");
    }
    throw InputError(recorded.back().path,
                     "is missing, as are run " + std::to_string(runId) + "'s other " +
                         std::to_string(recorded.size() - 1) +
                         " recorded checkpoints; was the database moved without its runs folder (" +
                         store.runFolder(runId).parent_path().string() + ")?");
}

std::optional<ExportFormat> parseExportFormat(const std::string& name) {
    if (name == "transformers") {
        return ExportFormat::Transformers;
    }
    if (name == "onnx") {
        return ExportFormat::Onnx;
    }
    return std::nullopt;
}

namespace {

// Marks a folder as an export's: what it holds, so that --force may replace it (and only it).
constexpr const char* kExportMarker = ".bert-studio-export";

bool isInside(const std::filesystem::path& path, const std::filesystem::path& folder) {
    const auto a = resolvedPath(path);
    const auto b = resolvedPath(folder);
    const auto relative = a.lexically_relative(b);
    return !relative.empty() && *relative.begin() != "..";
}

bool isNonEmptyFolder(const std::filesystem::path& folder) {
    std::error_code error;
    return std::filesystem::is_directory(folder, error) &&
           std::filesystem::directory_iterator(folder, error) !=
               std::filesystem::directory_iterator();
}

/// A sibling of target that no one else uses: target's name, a tag and a random number.
std::filesystem::path siblingOf(const std::filesystem::path& target, const char* tag) {
    std::random_device entropy;
    auto sibling = target;
    sibling += std::string(".") + tag + "-" + std::to_string(entropy());
    return sibling;
}

/// Refuses (InputError) to replace a non-empty folder that is not an earlier export's, or that
/// holds files the export did not write: --force never deletes other files.
void checkReplaceable(const std::filesystem::path& target) {
    std::set<std::string> written;
    try {
        std::string problem;
        const auto marker =
            parseJson(readInputFile(target / kExportMarker, input_limits::kSmallJson), problem);
        if (problem.empty() && marker.is_object() && marker.contains("files") &&
            marker["files"].is_array()) {
            for (const auto& name : marker["files"]) {
                if (name.is_string()) {
                    written.insert(name.get<std::string>());
                }
            }
        }
    } catch (const InputError&) {
        // no marker (or not a file): not an export's folder
    }
    if (written.empty()) {
        throw InputError(target,
                         "is not empty and no export wrote it; --force replaces only a "
                         "folder an earlier export wrote, never other files: choose a "
                         "new or empty folder");
    }
    std::string foreign;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(target, error)) {
        const auto name = entry.path().filename().string();
        if (name != kExportMarker && !written.count(name)) {
            foreign += (foreign.empty() ? "" : ", ") + name;
        }
    }
    if (!foreign.empty()) {
        throw InputError(target, "holds files an earlier export did not write (" + foreign +
                                     "); --force never deletes other files: move them, or "
                                     "choose a new or empty folder");
    }
}

/// Copies source into folder/name through an atomic write; a failure names the file as it will
/// be in the export (target/name) and the system's reason (issue 26: a full disk named the
/// source file and "Input/output error").
void copyInto(const std::filesystem::path& source, const std::filesystem::path& folder,
              const std::string& name, const std::filesystem::path& target) {
    std::FILE* in = std::fopen(source.c_str(), "rb");
    if (in == nullptr) {
        throw StoreError(source,
                         std::string("cannot be read for the export: ") + std::strerror(errno));
    }
    struct Closer {
        std::FILE* file;
        ~Closer() { std::fclose(file); }
    } closer{in};
    try {
        AtomicFile out(folder / name);
        std::vector<char> buffer(1 << 20);
        for (;;) {
            const auto read = std::fread(buffer.data(), 1, buffer.size(), in);
            out.write(buffer.data(), read);
            if (read < buffer.size()) {
                break;
            }
        }
        if (std::ferror(in) != 0) {
            throw StoreError(source, "could not be read to the end for the export");
        }
        out.commit();
    } catch (const StoreError& error) {
        if (error.file() == source) {
            throw;
        }
        throw StoreError(target / name, error.problem());
    }
}

}  // namespace

std::filesystem::path exportRun(RunStore& store, std::int64_t runId,
                                const std::filesystem::path& targetFolder, bool preferBest,
                                bool force, ExportFormat format) {
    const auto run = store.run(runId);
    if (!run) {
        throw InputError(store.file(), "has no run " + std::to_string(runId));
    }
    const auto source = requireModelCheckpoint(store, runId, preferBest);
    // Resolved, symbolic links too: "." or "models/" would otherwise write into (and then move)
    // the current folder itself, and a link to an empty folder would be replaced by a folder
    // instead of filled (issue 26).
    const auto cleanTarget = resolvedPath(targetFolder);
    if (std::filesystem::exists(cleanTarget) && !std::filesystem::is_directory(cleanTarget)) {
        throw InputError(cleanTarget, "is a file; export writes a folder");
    }
    // What an export must never replace, --force or not: its own checkpoints, any runs folder
    // (issue 26: `export 1 runs/2 --force` made run 2 serve run 1's weights), the run database,
    // the base model and the run's data.
    if (isInside(cleanTarget, store.runFolder(runId)) ||
        isInside(store.runFolder(runId), cleanTarget)) {
        throw InputError(cleanTarget, "holds run " + std::to_string(runId) +
                                          "'s own checkpoints; export elsewhere");
    }
    const auto runsFolder = store.runFolder(runId).parent_path();
    if (isInsideRunsFolder(cleanTarget) || isInside(cleanTarget, runsFolder) ||
        isInside(runsFolder, cleanTarget)) {
        throw InputError(cleanTarget,
                         "is (or holds) a run database's runs folder, where checkpoints live; "
                         "export elsewhere");
    }
    if (isInside(store.file(), cleanTarget)) {
        throw InputError(cleanTarget,
                         "holds the run database " + store.file().string() + "; export elsewhere");
    }
    if (!run->baseModel.empty() && std::filesystem::exists(run->baseModel) &&
        (isInside(cleanTarget, run->baseModel) || isInside(run->baseModel, cleanTarget))) {
        throw InputError(cleanTarget,
                         "holds the run's base model (" + run->baseModel + "); export elsewhere");
    }
    for (const auto& data :
         {run->datasetPath,
          run->config.value("/job/data/validation_file"_json_pointer, nlohmann::json(""))
              .get<std::string>()}) {
        if (!data.empty() && isInside(data, cleanTarget)) {
            throw InputError(cleanTarget, "holds the run's data (" + data + "); export elsewhere");
        }
    }
    if (isNonEmptyFolder(cleanTarget)) {
        if (!force) {
            throw InputError(cleanTarget,
                             "is not empty; choose a new or empty folder, or "
                             "replace an earlier export with --force");
        }
        checkReplaceable(cleanTarget);
    }

    // Everything is written into a staging folder beside the target and renamed into place at
    // the end: a failure part-way leaves the target as it was.
    const auto staging = siblingOf(cleanTarget, "export");
    struct RemoveOnFailure {
        std::filesystem::path folder;
        bool keep = false;
        ~RemoveOnFailure() {
            if (!keep) {
                std::error_code ignored;
                std::filesystem::remove_all(folder, ignored);
            }
        }
    } cleanup{staging};
    std::error_code error;
    std::filesystem::create_directories(staging, error);
    if (error) {
        throw StoreError(staging, "cannot be created: " + error.message());
    }
    const bool onnx = format == ExportFormat::Onnx;
    std::vector<std::string> written;
    std::vector<std::string> onnxInputs;  // the graph's inputs, for the README's example
    if (onnx) {
        const auto bundle = loadModelFolder(source);
        onnxInputs = writeOnnxModel(staging / "model.onnx", *bundle.model).inputNames;
        for (const auto& entry : std::filesystem::directory_iterator(staging, error)) {
            written.push_back(entry.path().filename().string());  // model.onnx (and its data)
        }
    }
    // The checkpoint's model folder as it is (configuration, weights, tokenizer files, whatever
    // the model's family keeps), without what only resuming needs.
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(source, error)) {
        const auto name = entry.path().filename().string();
        if (entry.is_regular_file(error) && name != checkpoint_files::kTrainerState &&
            name != checkpoint_files::kTrainingTensors && name.front() != '.' &&
            name.find(".tmp-") == std::string::npos && !(onnx && name == "model.safetensors")) {
            names.push_back(name);
        }
    }
    std::sort(names.begin(), names.end());
    for (const auto& name : names) {
        copyInto(source / name, staging, name, cleanTarget);
        written.push_back(name);
    }
    const auto evaluations = store.evaluations(runId);
    // What predicting needs beyond the weights (the task, the threshold the run chose, the
    // target's scaling), where predict, Try it and our loader read it; transformers keeps the key
    // as an attribute of the config and ignores it.
    const auto settings = taskSettingsOfRun(*run, evaluations);
    if (std::filesystem::exists(staging / "config.json")) {
        auto config =
            nlohmann::json::parse(readInputFile(staging / "config.json", input_limits::kSmallJson),
                                  nullptr, /*allow_exceptions=*/false);
        if (config.is_object()) {
            config[kTaskSettingsKey] = settings.toJson();
            writeFileAtomically(staging / "config.json", config.dump(2) + "\n");
        }
    }
    const nlohmann::json card = {
        {"run", run->id},
        {"name", run->name},
        {"created_at", run->createdAt},
        {"status", toString(run->status)},
        {"base_model", run->baseModel},
        {"dataset", run->datasetPath},
        {"dataset_fingerprint", run->datasetFingerprint},
        {"labels", run->labels},
        {"task", settings.toJson()},
        {"configuration", run->config},
        {"techniques", run->techniques},
        {"metrics", run->finalMetrics},
        {"memory",
         {{"device", run->device},
          {"peak_bytes", run->peakMemoryBytes},
          {"forecast_bytes", run->forecastBytes},
          {"trial_peak_bytes", run->trialPeakBytes}}},
        {"exported_from", source.string()},
        {"served",
         servedCheckpointOfRun(store, runId, preferBest).value_or(ServedCheckpoint{}).toJson()},
        {"format", onnx ? "onnx" : "transformers"},
    };
    writeFileAtomically(staging / "run_card.json", card.dump(2) + "\n");
    ExportReadmeInputs readme;
    readme.run = &*run;
    readme.evaluations = &evaluations;
    readme.settings = settings;
    readme.folder = cleanTarget;
    readme.format = format;
    readme.onnxInputs = onnxInputs;
    writeFileAtomically(staging / "README.md", exportReadme(readme));
    written.insert(written.end(), {"run_card.json", "README.md"});
    writeFileAtomically(
        staging / kExportMarker,
        nlohmann::json({{"run", runId}, {"database", store.file().string()}, {"files", written}})
                .dump(1) +
            "\n");

    // Into place: an existing (forced) target moves aside first and goes only once the new one
    // stands.
    const auto previous = siblingOf(cleanTarget, "replaced");
    const bool replacing = std::filesystem::exists(cleanTarget);
    if (replacing) {
        std::filesystem::rename(cleanTarget, previous, error);
        if (error) {
            throw StoreError(cleanTarget, "could not be replaced: " + error.message());
        }
    }
    std::filesystem::rename(staging, cleanTarget, error);
    if (error) {
        if (replacing) {
            std::error_code ignored;
            std::filesystem::rename(previous, cleanTarget, ignored);
        }
        throw StoreError(cleanTarget, "could not be written: " + error.message());
    }
    cleanup.keep = true;
    if (replacing) {
        std::filesystem::remove_all(previous, error);
    }
    return cleanTarget;
}

}  // namespace bert
