// loadTokenizer: the tokenizer of a transformers model folder, chosen as transformers'
// AutoTokenizer chooses: tokenizer.json (the fast tokenizer's file) when present, with
// tokenizer_config.json's settings on top; vocab.txt (BERT's WordPiece) otherwise; spm.model
// (a SentencePiece model) for DeBERTa-v2/v3, whose folders ship no tokenizer.json.
#include "Error.h"
#include "io/InputFile.h"
#include "io/Json.h"
#include "tokenizer/Tokenizer.h"
#include "tokenizer/WordPieceTokenizer.h"
#include "tokenizer/json/SentencePieceModel.h"
#include "tokenizer/json/TokenizerJson.h"

namespace bert {

namespace {

nlohmann::json readJsonObject(const std::filesystem::path& file) {
    std::string problem;
    auto json = parseJson(readInputFile(file, input_limits::kTokenizer), problem);
    if (!problem.empty()) {
        throw InputError(file, problem);
    }
    if (!json.is_object()) {
        throw InputError(file, "is not a JSON object");
    }
    return json;
}

}  // namespace

std::shared_ptr<const Tokenizer> loadTokenizer(const std::filesystem::path& modelFolder) {
    if (!std::filesystem::is_directory(modelFolder)) {
        throw InputError(modelFolder,
                         "is not a folder (a model folder holds the tokenizer's "
                         "files: tokenizer.json or vocab.txt)");
    }
    const auto fastFile = modelFolder / "tokenizer.json";
    const auto vocabFile = modelFolder / "vocab.txt";
    const auto sentencePieceFile = modelFolder / "spm.model";
    const bool fast = std::filesystem::exists(fastFile);
    if (!fast && std::filesystem::exists(vocabFile)) {
        return std::make_shared<WordPieceTokenizer>(
            WordPieceTokenizer::fromModelFolder(modelFolder));
    }
    const auto configFile = modelFolder / "tokenizer_config.json";
    nlohmann::json config;
    if (std::filesystem::exists(configFile)) {
        config = readJsonObject(configFile);
    }
    // config.json's model_type picks the tokenizer class where tokenizer_config.json does not
    // name one (as AutoTokenizer does).
    std::string modelType;
    const auto modelConfig = modelFolder / "config.json";
    if (std::filesystem::exists(modelConfig)) {
        const auto json = readJsonObject(modelConfig);
        modelType = jsonField<std::string>(json, "model_type", "", modelConfig);
    }
    if (fast) {
        return std::make_shared<JsonTokenizer>(readInputFile(fastFile, input_limits::kTokenizer),
                                               fastFile, std::move(config), modelType);
    }
    if (std::filesystem::exists(sentencePieceFile) &&
        tokenizerClassNamed(config, modelType) == "DebertaV2Tokenizer") {
        // DeBERTa-v3's folders ship spm.model alone: transformers converts it (its pieces and
        // scores, its unknown piece's id) and DebertaV2Tokenizer builds the rest.
        const auto tokenizerJson = sentencePieceTokenizerJson(
            readInputFile(sentencePieceFile, input_limits::kTokenizer), sentencePieceFile);
        if (!config.is_object()) {
            config = nlohmann::json::object();
        }
        if (!config.contains("unk_id")) {
            config["unk_id"] = tokenizerJson["model"]["unk_id"];
        }
        return std::make_shared<JsonTokenizer>(tokenizerJson.dump(), sentencePieceFile,
                                               std::move(config), modelType);
    }
    for (const char* sentencePiece : {"spm.model", "sentencepiece.bpe.model"}) {
        if (std::filesystem::exists(modelFolder / sentencePiece)) {
            throw InputError(modelFolder,
                             std::string("has ") + sentencePiece +
                                 " (a SentencePiece model) but no tokenizer.json: BERT Studio "
                                 "reads spm.model alone for DeBERTa-v2/v3 tokenizers only, and "
                                 "other tokenizers from tokenizer.json or vocab.txt");
        }
    }
    throw InputError(modelFolder,
                     "has no tokenizer: neither tokenizer.json (a fast tokenizer: BERT, RoBERTa, "
                     "XLM-R, CamemBERT, DistilBERT, ELECTRA, ModernBERT) nor vocab.txt (BERT's "
                     "WordPiece vocabulary) is there");
}

std::shared_ptr<const Tokenizer> loadTokenizerForWords(const std::filesystem::path& modelFolder) {
    auto tokenizer = loadTokenizer(modelFolder);
    const auto* json = dynamic_cast<const JsonTokenizer*>(tokenizer.get());
    // Only RobertaTokenizer builds its pre-tokenizer from add_prefix_space and leaves it off by
    // default; XLM-R's Metaspace prepends to every word already, BERT's pipeline has no such
    // setting.
    if (json == nullptr || json->transformersClass() != "RobertaTokenizer") {
        return tokenizer;
    }
    nlohmann::json config = json->config().is_object() ? json->config() : nlohmann::json::object();
    if (config.value("add_prefix_space", false) == true) {
        return tokenizer;
    }
    config["add_prefix_space"] = true;
    const auto fastFile = modelFolder / "tokenizer.json";
    if (!config.contains("tokenizer_class")) {
        // The class came from config.json's model_type: keep naming it in the saved config.
        config["tokenizer_class"] = json->transformersClass();
    }
    return std::make_shared<JsonTokenizer>(readInputFile(fastFile, input_limits::kTokenizer),
                                           fastFile, std::move(config));
}

}  // namespace bert
