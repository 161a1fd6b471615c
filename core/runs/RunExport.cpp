#include "runs/RunExport.h"

#include <cstdio>

#include "Error.h"
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

std::filesystem::path exportRun(RunStore& store, std::int64_t runId,
                                const std::filesystem::path& target, bool preferBest) {
    const auto run = store.run(runId);
    if (!run) {
        throw InputError(store.file(), "has no run " + std::to_string(runId));
    }
    const auto source = modelCheckpointOfRun(store, runId, preferBest);
    if (source.empty()) {
        throw InputError("run " + std::to_string(runId) + " has no saved model to export");
    }
    std::error_code error;
    std::filesystem::create_directories(target, error);
    if (error) {
        throw StoreError(target, "cannot be created: " + error.message());
    }
    for (const char* name : {"config.json", "model.safetensors", "vocab.txt",
                             "tokenizer_config.json", "special_tokens_map.json"}) {
        std::filesystem::copy_file(source / name, target / name,
                                   std::filesystem::copy_options::overwrite_existing, error);
        if (error) {
            throw StoreError(target / name, "could not be written: " + error.message());
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
    };
    writeFileAtomically(target / "run_card.json", card.dump(2) + "\n");
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
              " MiB)\n- Evaluations: " + std::to_string(evaluations.size()) +
              "\n\nLoad it with transformers:\n\n```python\nfrom transformers import "
              "AutoModelForSequenceClassification, "
              "AutoTokenizer\nmodel = AutoModelForSequenceClassification.from_pretrained(\"" +
              target.string() + "\")\ntokenizer = AutoTokenizer.from_pretrained(\"" +
              target.string() +
              "\")\n```\n\nThe full configuration and metrics are in run_card.json.\n";
    writeFileAtomically(target / "README.md", readme);
    return target;
}

}  // namespace bert
