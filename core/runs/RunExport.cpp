#include "runs/RunExport.h"

#include <cstdio>
#include <random>

#include "Error.h"
#include "export/OnnxExport.h"
#include "hf/ModelFolder.h"
#include "io/AtomicFile.h"

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

bool isInside(const std::filesystem::path& path, const std::filesystem::path& folder) {
    std::error_code error;
    const auto a = std::filesystem::weakly_canonical(path, error);
    const auto b = std::filesystem::weakly_canonical(folder, error);
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

}  // namespace

std::filesystem::path exportRun(RunStore& store, std::int64_t runId,
                                const std::filesystem::path& targetFolder, bool preferBest,
                                bool force, ExportFormat format) {
    const auto run = store.run(runId);
    if (!run) {
        throw InputError(store.file(), "has no run " + std::to_string(runId));
    }
    const auto source = modelCheckpointOfRun(store, runId, preferBest);
    if (source.empty()) {
        throw InputError("run " + std::to_string(runId) + " has no saved model to export");
    }
    // "." or "models/" would otherwise write into (and then move) the current folder itself.
    const auto target = std::filesystem::absolute(targetFolder).lexically_normal();
    const auto cleanTarget = target.has_filename() ? target : target.parent_path();
    if (std::filesystem::exists(cleanTarget) && !std::filesystem::is_directory(cleanTarget)) {
        throw InputError(cleanTarget, "is a file; export writes a folder");
    }
    // What an export must never replace, --force or not: its own checkpoints and its base model.
    if (isInside(cleanTarget, store.runFolder(runId)) ||
        isInside(store.runFolder(runId), cleanTarget)) {
        throw InputError(cleanTarget, "holds run " + std::to_string(runId) +
                                          "'s own checkpoints; export elsewhere");
    }
    if (!run->baseModel.empty() && std::filesystem::exists(run->baseModel) &&
        (isInside(cleanTarget, run->baseModel) || isInside(run->baseModel, cleanTarget))) {
        throw InputError(cleanTarget,
                         "holds the run's base model (" + run->baseModel + "); export elsewhere");
    }
    if (isNonEmptyFolder(cleanTarget) && !force) {
        throw InputError(cleanTarget,
                         "is not empty; choose a new or empty folder, or replace it with --force");
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
    std::vector<std::string> onnxInputs;  // the graph's inputs, for the README's example
    if (onnx) {
        const auto bundle = loadModelFolder(source);
        onnxInputs = writeOnnxModel(staging / "model.onnx", *bundle.model).inputNames;
    }
    // The checkpoint's files as exportModelFolder wrote them: the tokenizer's are vocab.txt or
    // tokenizer.json (whichever the model came with), the others always.
    for (const char* name : {"config.json", "model.safetensors", "vocab.txt", "tokenizer.json",
                             "tokenizer_config.json", "special_tokens_map.json"}) {
        const std::string file = name;
        if ((onnx && file == "model.safetensors") ||
            ((file == "vocab.txt" || file == "tokenizer.json") &&
             !std::filesystem::exists(source / name))) {
            continue;
        }
        std::filesystem::copy_file(source / name, staging / name, error);
        if (error) {
            throw StoreError(source / name,
                             "could not be copied into the export: " + error.message());
        }
    }
    const auto evaluations = store.evaluations(runId);
    const nlohmann::json card = {
        {"run", run->id},
        {"name", run->name},
        {"created_at", run->createdAt},
        {"status", toString(run->status)},
        {"base_model", run->baseModel},
        {"dataset", run->datasetPath},
        {"dataset_fingerprint", run->datasetFingerprint},
        {"labels", run->labels},
        {"configuration", run->config},
        {"techniques", run->techniques},
        {"metrics", run->finalMetrics},
        {"memory",
         {{"device", run->device},
          {"peak_bytes", run->peakMemoryBytes},
          {"forecast_bytes", run->forecastBytes},
          {"trial_peak_bytes", run->trialPeakBytes}}},
        {"exported_from", source.string()},
        {"format", onnx ? "onnx" : "transformers"},
    };
    writeFileAtomically(staging / "run_card.json", card.dump(2) + "\n");
    char accuracy[32];
    std::snprintf(accuracy, sizeof accuracy, "%.4f", run->bestAccuracy);
    std::string readme = "# " + run->name + "\n\nFine-tuned with BERT Studio from `" +
                         run->baseModel + "` on `" + run->datasetPath + "`.\n\n" + "- Labels: ";
    for (std::size_t i = 0; i < run->labels.size(); ++i) {
        readme += (i ? ", " : "") + run->labels[i];
    }
    readme += "\n- Best validation accuracy: " + std::string(accuracy) +
              "\n- Techniques: " + run->techniques +
              "\n- Peak memory: " + std::to_string(run->peakMemoryBytes >> 20) + " MiB on " +
              run->device + " (forecast " + std::to_string(run->forecastBytes >> 20) +
              " MiB)\n- Evaluations: " + std::to_string(evaluations.size()) + "\n\n";
    const auto folder = cleanTarget.string();
    if (onnx) {
        std::string inputList;   // input_ids, attention_mask[, token_type_ids]
        std::string inputTuple;  // ("input_ids", "attention_mask"[, "token_type_ids"])
        for (const auto& name : onnxInputs) {
            inputList += (inputList.empty() ? "" : ", ") + name;
            inputTuple += (inputTuple.empty() ? "(\"" : ", \"") + name + "\"";
        }
        inputTuple += ")";
        readme += "Run it with ONNX Runtime (inputs " + inputList +
                  "; output logits; labels in config.json's id2label):\n\n```python\n"
                  "import json, numpy as np, onnxruntime as ort\n"
                  "from transformers import AutoTokenizer\n"
                  "tokenizer = AutoTokenizer.from_pretrained(\"" +
                  folder +
                  "\")\n"
                  "session = ort.InferenceSession(\"" +
                  folder +
                  "/model.onnx\")\n"
                  "batch = tokenizer([\"some text\"], padding=True, truncation=True, "
                  "return_tensors=\"np\")\n"
                  "logits = session.run([\"logits\"], {k: batch[k].astype(np.int64) for k in " +
                  inputTuple +
                  "})[0]\n"
                  "labels = json.load(open(\"" +
                  folder +
                  "/config.json\"))[\"id2label\"]\n"
                  "print([labels[str(i)] for i in logits.argmax(-1)])\n```\n";
    } else {
        readme +=
            "Load it with transformers:\n\n```python\nfrom transformers import "
            "AutoModelForSequenceClassification, AutoTokenizer\n"
            "model = AutoModelForSequenceClassification.from_pretrained(\"" +
            folder + "\")\ntokenizer = AutoTokenizer.from_pretrained(\"" + folder + "\")\n```\n";
    }
    readme += "\nThe full configuration and metrics are in run_card.json.\n";
    writeFileAtomically(staging / "README.md", readme);

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
