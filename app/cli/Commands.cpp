#include "Commands.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "checkpoint/ModelFolder.h"
#include "model/Inference.h"

namespace bert::cli {

std::string humanBytes(double bytes) {
    static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    std::size_t unit = 0;
    while (bytes >= 1024.0 && unit + 1 < std::size(kUnits)) {
        bytes /= 1024.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, kUnits[unit]);
    return text;
}

void inspect(const std::filesystem::path& folder, bool json, std::ostream& out) {
    auto bundle = loadModelFolder(folder);
    const auto summary = summarizeParameters(*bundle.model);
    const auto& config = bundle.config;
    if (json) {
        nlohmann::json doc = {
            {"folder", folder.string()},
            {"config", config.toJson()},
            {"parameters", summary.count},
            {"weight_bytes", summary.bytes},
            {"vocabulary_size", bundle.tokenizer.vocabularySize()},
            {"lowercase", bundle.tokenizer.options().lowercase},
            {"weights_file", bundle.report.weightsFile.string()},
            {"missing_keys", bundle.report.missingKeys},
            {"unexpected_keys", bundle.report.unexpectedKeys},
        };
        out << doc.dump(2) << '\n';
        return;
    }
    out << "Model folder      " << folder.string() << '\n'
        << "Weights           " << bundle.report.weightsFile.filename().string() << '\n'
        << "Layers            " << config.numHiddenLayers << '\n'
        << "Hidden size       " << config.hiddenSize << '\n'
        << "Attention heads   " << config.numAttentionHeads << '\n'
        << "Intermediate size " << config.intermediateSize << '\n'
        << "Activation        " << config.hiddenAct << '\n'
        << "Max positions     " << config.maxPositionEmbeddings << '\n'
        << "Vocabulary        " << bundle.tokenizer.vocabularySize()
        << (bundle.tokenizer.options().lowercase ? " (uncased)" : " (cased)") << '\n'
        << "Labels            ";
    for (std::size_t i = 0; i < config.labels.size(); ++i) {
        out << (i ? ", " : "") << config.labels[i];
    }
    out << '\n'
        << "Parameters        " << summary.count << '\n'
        << "Weight memory     " << humanBytes(static_cast<double>(summary.bytes)) << " (fp32)\n";
    if (const auto note = bundle.report.describe(); !note.empty()) {
        out << "Note              " << note << '\n';
    }
}

void predict(const std::filesystem::path& folder, const std::vector<std::string>& texts,
             std::size_t maxLength, bool json, std::ostream& out, std::ostream& err) {
    auto bundle = loadModelFolder(folder);
    if (bundle.report.freshClassifier) {
        err << "warning: " << folder.string()
            << " has no trained classifier head; these probabilities come from a random head.\n";
    }
    constexpr std::size_t kPredictBatch = 16;  // texts per forward pass
    const auto length =
        std::min<std::size_t>(maxLength, static_cast<std::size_t>(bundle.config.maxPositionEmbeddings));
    const auto probabilities = predictProbabilities(*bundle.model, bundle.tokenizer, texts, length,
                                                    kPredictBatch, c10::Device(c10::kCPU));
    const auto& labels = bundle.config.labels;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const auto& p = probabilities[i];
        const auto best = static_cast<std::size_t>(std::max_element(p.begin(), p.end()) - p.begin());
        if (json) {
            nlohmann::json scores = nlohmann::json::object();
            for (std::size_t l = 0; l < labels.size(); ++l) {
                scores[labels[l]] = p[l];
            }
            out << nlohmann::json{{"text", texts[i]}, {"label", labels[best]}, {"probabilities", scores}}
                       .dump()
                << '\n';
            continue;
        }
        out << labels[best] << '\t';
        for (std::size_t l = 0; l < labels.size(); ++l) {
            char score[32];
            std::snprintf(score, sizeof score, "%.4f", static_cast<double>(p[l]));
            out << (l ? "  " : "") << labels[l] << ' ' << score;
        }
        out << '\t' << texts[i] << '\n';
    }
}

}  // namespace bert::cli
