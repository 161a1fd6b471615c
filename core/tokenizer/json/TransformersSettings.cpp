// What transformers (5.x) does to a tokenizer.json it loads, before any text is tokenized.
// A fast tokenizer class with its own __init__ (BertTokenizer, RobertaTokenizer,
// XLMRobertaTokenizer, CamembertTokenizer, MPNetTokenizer) keeps the file's vocabulary (and merges,
// and SentencePiece character map) but builds its own normalizer, pre-tokenizer and post-processor
// from tokenizer_config.json's settings; PreTrainedTokenizerFast (ModernBERT) takes the file as it
// is. Either way the added tokens of added_tokens_decoder and the named special tokens are added on
// top.
#include "tokenizer/json/Models.h"
#include "tokenizer/json/TokenizerJson.h"

namespace bert {

namespace {

using Json = nlohmann::json;

// A special token of tokenizer_config.json: "<s>" or {"content": "<s>", ...}.
std::string tokenName(const Json& config, const char* key, const std::string& fallback) {
    const auto it = config.find(key);
    if (it == config.end()) {
        return fallback;
    }
    if (it->is_string()) {
        return it->get<std::string>();
    }
    if (it->is_object() && it->contains("content") && (*it)["content"].is_string()) {
        return (*it)["content"].get<std::string>();
    }
    return fallback;
}

bool flag(const Json& config, const char* key, bool fallback) {
    const auto it = config.find(key);
    return it != config.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

// The id of token in the file: its added tokens, then the model's vocabulary.
std::optional<std::int64_t> idIn(const Json& tokenizer, const std::string& token) {
    if (tokenizer.contains("added_tokens") && tokenizer["added_tokens"].is_array()) {
        for (const auto& entry : tokenizer["added_tokens"]) {
            if (entry.is_object() && entry.value("content", "") == token && entry.contains("id") &&
                entry["id"].is_number_unsigned()) {
                return entry["id"].get<std::int64_t>();
            }
        }
    }
    const auto& model = tokenizer.value("model", Json::object());
    if (!model.is_object() || !model.contains("vocab")) {
        return std::nullopt;
    }
    const auto& vocab = model["vocab"];
    if (vocab.is_object() && vocab.contains(token) && vocab[token].is_number_unsigned()) {
        return vocab[token].get<std::int64_t>();
    }
    if (vocab.is_array()) {
        for (std::size_t i = 0; i < vocab.size(); ++i) {
            if (vocab[i].is_array() && !vocab[i].empty() && vocab[i][0] == token) {
                return static_cast<std::int64_t>(i);
            }
        }
    }
    return std::nullopt;
}

Json specialToken(const std::string& token, std::int64_t id) {
    return {{"id", token}, {"ids", {id}}, {"tokens", {token}}};
}

Json piece(const char* kind, const std::string& id, int typeId) {
    return {{kind, {{"id", id}, {"type_id", typeId}}}};
}

// TemplateProcessing of first A second / first A second [middle] B second, or nullptr where a
// token is not in the file (the file's own post-processor stays).
Json templateOf(const Json& tokenizer, const std::string& first, const std::string& second,
                bool doubleSeparator, int pairTypeId) {
    const auto firstId = idIn(tokenizer, first);
    const auto secondId = idIn(tokenizer, second);
    if (!firstId || !secondId) {
        return nullptr;
    }
    Json single = Json::array({piece("SpecialToken", first, 0), piece("Sequence", "A", 0),
                               piece("SpecialToken", second, 0)});
    Json pair = single;
    if (doubleSeparator) {
        pair.push_back(piece("SpecialToken", second, 0));
    }
    pair.push_back(piece("Sequence", "B", pairTypeId));
    pair.push_back(piece("SpecialToken", second, pairTypeId));
    Json specials = {{first, specialToken(first, *firstId)},
                     {second, specialToken(second, *secondId)}};
    return {{"type", "TemplateProcessing"},
            {"single", single},
            {"pair", pair},
            {"special_tokens", specials}};
}

Json firstPrecompiled(const Json& normalizer) {
    if (!normalizer.is_object()) {
        return nullptr;
    }
    if (normalizer.value("type", "") == "Precompiled") {
        return normalizer;
    }
    if (normalizer.contains("normalizers") && normalizer["normalizers"].is_array()) {
        for (const auto& inner : normalizer["normalizers"]) {
            if (auto found = firstPrecompiled(inner); !found.is_null()) {
                return found;
            }
        }
    }
    return nullptr;
}

std::string classOf(const Json& config, const std::string& modelType) {
    std::string name = config.value("tokenizer_class", "");
    if (name.size() > 4 && name.compare(name.size() - 4, 4, "Fast") == 0) {
        name.resize(name.size() - 4);
    }
    if (name.empty()) {
        name = tokenizerClassOfModelType(modelType);
    }
    return name;
}

// Adds or updates added tokens: added_tokens_decoder's entries, then named special tokens.
void addConfigTokens(Json& tokenizer, const Json& config) {
    if (!tokenizer.contains("added_tokens") || !tokenizer["added_tokens"].is_array()) {
        tokenizer["added_tokens"] = Json::array();
    }
    auto& tokens = tokenizer["added_tokens"];
    auto upsert = [&](Json entry) {
        for (auto& existing : tokens) {
            if (existing.is_object() && existing.value("content", "") == entry["content"]) {
                for (auto& [key, value] : entry.items()) {
                    existing[key] = value;
                }
                return;
            }
        }
        tokens.push_back(std::move(entry));
    };
    const auto decoder = config.find("added_tokens_decoder");
    if (decoder != config.end() && decoder->is_object()) {
        for (const auto& [id, token] : decoder->items()) {
            if (!token.is_object() || !token.contains("content") || !token["content"].is_string()) {
                continue;
            }
            Json entry = {{"content", token["content"]}};
            for (const char* key : {"single_word", "lstrip", "rstrip", "normalized", "special"}) {
                if (token.contains(key) && token[key].is_boolean()) {
                    entry[key] = token[key];
                }
            }
            upsert(std::move(entry));
        }
    }
    for (const char* key : {"bos_token", "eos_token", "unk_token", "sep_token", "pad_token",
                            "cls_token", "mask_token"}) {
        const std::string name = tokenName(config, key, "");
        if (name.empty()) {
            continue;
        }
        bool present = false;
        for (const auto& existing : tokens) {
            present = present || (existing.is_object() && existing.value("content", "") == name);
        }
        if (!present) {
            tokens.push_back({{"content", name}, {"special", true}, {"normalized", false}});
        }
    }
}

}  // namespace

std::string tokenizerClassOfModelType(const std::string& modelType) {
    // transformers' auto mapping from config.json's model_type, for the classes whose settings
    // we rebuild (below).
    if (modelType == "bert" || modelType == "distilbert" || modelType == "electra") {
        return "BertTokenizer";
    }
    if (modelType == "roberta") {
        return "RobertaTokenizer";
    }
    if (modelType == "xlm-roberta") {
        return "XLMRobertaTokenizer";
    }
    if (modelType == "camembert") {
        return "CamembertTokenizer";
    }
    if (modelType == "mpnet") {
        return "MPNetTokenizer";
    }
    if (modelType == "deberta-v2") {
        // Its settings are not rebuilt yet: TokenizerJson refuses it rather than tokenize the
        // file as it is (transformers replaces its normalizer, pre-tokenizer and template).
        return "DebertaV2Tokenizer";
    }
    return "";
}

std::string applyTransformersSettings(Json& tokenizer, const Json& config,
                                      const std::string& modelType) {
    const std::string name = classOf(config, modelType);
    if (name == "DebertaV2Tokenizer") {
        return name;  // settings not rebuilt yet: TokenizerJson refuses the class
    }
    const bool mpnet = name == "MPNetTokenizer";
    if (name == "BertTokenizer" || name == "DistilBertTokenizer" || name == "ElectraTokenizer" ||
        mpnet) {
        const bool lowercase = flag(config, "do_lower_case", true);
        Json normalizer = {{"type", "BertNormalizer"},
                           {"clean_text", true},
                           {"handle_chinese_chars", flag(config, "tokenize_chinese_chars", true)},
                           {"strip_accents", nullptr},
                           {"lowercase", lowercase}};
        if (config.contains("strip_accents") && config["strip_accents"].is_boolean()) {
            normalizer["strip_accents"] = config["strip_accents"];
        }
        tokenizer["normalizer"] = normalizer;
        tokenizer["pre_tokenizer"] = {{"type", "BertPreTokenizer"}};
        if (mpnet) {
            // BERT's normalizer and WordPiece with RoBERTa's template: <s> A </s> and
            // <s> A </s></s> B </s>.
            const auto cls = tokenName(config, "cls_token", "<s>");
            const auto sep = tokenName(config, "sep_token", "</s>");
            const auto clsId = idIn(tokenizer, cls);
            const auto sepId = idIn(tokenizer, sep);
            if (clsId && sepId) {
                tokenizer["post_processor"] = {{"type", "RobertaProcessing"},
                                               {"cls", {cls, *clsId}},
                                               {"sep", {sep, *sepId}},
                                               {"trim_offsets", true},
                                               {"add_prefix_space", false}};
            }
        } else if (auto processor = templateOf(tokenizer, tokenName(config, "cls_token", "[CLS]"),
                                               tokenName(config, "sep_token", "[SEP]"), false, 1);
                   !processor.is_null()) {
            tokenizer["post_processor"] = processor;
        }
    } else if (name == "RobertaTokenizer") {
        tokenizer["normalizer"] = nullptr;
        tokenizer["pre_tokenizer"] = {{"type", "ByteLevel"},
                                      {"add_prefix_space", flag(config, "add_prefix_space", false)},
                                      {"trim_offsets", true},
                                      {"use_regex", true}};
        const auto cls = idIn(tokenizer, tokenName(config, "cls_token", "<s>"));
        const auto sep = idIn(tokenizer, tokenName(config, "sep_token", "</s>"));
        if (cls && sep) {
            tokenizer["post_processor"] = {{"type", "RobertaProcessing"},
                                           {"cls", {tokenName(config, "cls_token", "<s>"), *cls}},
                                           {"sep", {tokenName(config, "sep_token", "</s>"), *sep}}};
        }
    } else if (name == "XLMRobertaTokenizer" || name == "CamembertTokenizer") {
        tokenizer["normalizer"] = firstPrecompiled(tokenizer.value("normalizer", Json()));
        if (tokenizer.contains("model") && tokenizer["model"].is_object()) {
            tokenizer["model"][tokenizer_json::kExactScoresKey] = true;
        }
        const bool prefix = flag(config, "add_prefix_space", true);
        tokenizer["pre_tokenizer"] = {
            {"type", "Sequence"},
            {"pretokenizers", Json::array({{{"type", "WhitespaceSplit"}},
                                           {{"type", "Metaspace"},
                                            {"replacement", "\u2581"},
                                            {"prepend_scheme", prefix ? "always" : "never"},
                                            {"split", true}}})}};
        if (auto processor = templateOf(tokenizer, tokenName(config, "bos_token", "<s>"),
                                        tokenName(config, "eos_token", "</s>"), true, 0);
            !processor.is_null()) {
            tokenizer["post_processor"] = processor;
        }
    } else {
        return addConfigTokens(tokenizer, config), std::string();
    }
    addConfigTokens(tokenizer, config);
    return name;
}

}  // namespace bert
