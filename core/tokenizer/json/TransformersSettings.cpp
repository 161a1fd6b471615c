// What transformers (5.x) does to a tokenizer.json it loads, before any text is tokenized.
// A fast tokenizer class with its own __init__ (BertTokenizer, RobertaTokenizer,
// XLMRobertaTokenizer, CamembertTokenizer, MPNetTokenizer, DebertaV2Tokenizer, GemmaTokenizer)
// keeps the file's vocabulary (and merges, and SentencePiece character map) but builds its own
// normalizer, pre-tokenizer and post-processor from tokenizer_config.json's settings;
// PreTrainedTokenizerFast (ModernBERT) takes the file as it is. Either way the added tokens of
// added_tokens_decoder and the named special tokens are added on top.
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

// DebertaV2Tokenizer's __init__: the file's Unigram vocabulary (its scores as Python reads
// them) with the unknown token found as transformers finds it, optional lowercasing, runs of
// whitespace and tabs or line breaks made one space, NFC, right strip; optional punctuation
// split, then Metaspace (prepended always, or to the first piece only when add_prefix_space is
// false); [CLS] A [SEP] and [CLS] A [SEP] B [SEP] with B's type 1. The file's own normalizer
// (a precompiled character map where it was converted from spm.model) is not used.
void applyDebertaV2Settings(Json& tokenizer, const Json& config) {
    if (tokenizer.contains("model") && tokenizer["model"].is_object()) {
        auto& model = tokenizer["model"];
        model[tokenizer_json::kExactScoresKey] = true;
        model["byte_fallback"] = false;
        // unk_id: the index of (unk_token, 0.0) in the vocabulary, else tokenizer_config.json's
        // unk_id, else 1 (the class's default); the file's own unk_id is not passed on.
        const std::string unk = tokenName(config, "unk_token", "[UNK]");
        std::optional<std::int64_t> unkId;
        if (model.contains("vocab") && model["vocab"].is_array()) {
            const auto& vocab = model["vocab"];
            for (std::size_t i = 0; i < vocab.size() && !unkId; ++i) {
                if (vocab[i].is_array() && vocab[i].size() == 2 && vocab[i][0] == unk &&
                    vocab[i][1].is_number() && vocab[i][1].get<double>() == 0.0) {
                    unkId = static_cast<std::int64_t>(i);
                }
            }
        }
        if (!unkId) {
            const auto it = config.find("unk_id");
            unkId = it != config.end() && it->is_number_integer() ? it->get<std::int64_t>() : 1;
        }
        model["unk_id"] = *unkId;
    }
    Json normalizers = Json::array();
    if (flag(config, "do_lower_case", false)) {
        normalizers.push_back({{"type", "Lowercase"}});
    }
    normalizers.push_back(
        {{"type", "Replace"}, {"pattern", {{"Regex", "\\s{2,}|[\\n\\r\\t]"}}}, {"content", " "}});
    normalizers.push_back({{"type", "NFC"}});
    normalizers.push_back({{"type", "Strip"}, {"strip_left", false}, {"strip_right", true}});
    tokenizer["normalizer"] = {{"type", "Sequence"}, {"normalizers", normalizers}};
    Json preTokenizers = Json::array();
    if (flag(config, "split_by_punct", false)) {
        preTokenizers.push_back({{"type", "Punctuation"}, {"behavior", "Isolated"}});
    }
    preTokenizers.push_back(
        {{"type", "Metaspace"},
         {"replacement", "\u2581"},
         {"prepend_scheme", flag(config, "add_prefix_space", true) ? "always" : "first"},
         {"split", true}});
    tokenizer["pre_tokenizer"] = {{"type", "Sequence"}, {"pretokenizers", preTokenizers}};
    if (auto processor = templateOf(tokenizer, tokenName(config, "cls_token", "[CLS]"),
                                    tokenName(config, "sep_token", "[SEP]"), false, 1);
        !processor.is_null()) {
        tokenizer["post_processor"] = processor;
    }
}

// GemmaTokenizer's __init__ (mmBERT's 256k vocabulary): the file's BPE vocabulary and merges
// with fuse_unk and byte fallback on (whatever the file says), spaces made U+2581 by the
// normalizer, a Split at spaces merged with the previous piece. The file's post-processor stays:
// with a tokenizer.json, transformers 5 drops tokenizer_config.json's add_bos_token and
// add_eos_token before the class sees them (PreTrainedTokenizerBase._from_pretrained).
void applyGemmaSettings(Json& tokenizer) {
    if (tokenizer.contains("model") && tokenizer["model"].is_object() &&
        tokenizer["model"].value("type", "") == "BPE") {
        auto& model = tokenizer["model"];
        model["fuse_unk"] = true;
        model["byte_fallback"] = true;
        model["dropout"] = nullptr;
        model["ignore_merges"] = false;
        model["continuing_subword_prefix"] = nullptr;
        model["end_of_word_suffix"] = nullptr;
    }
    tokenizer["normalizer"] = {
        {"type", "Replace"}, {"pattern", {{"String", " "}}}, {"content", "\u2581"}};
    tokenizer["pre_tokenizer"] = {{"type", "Split"},
                                  {"pattern", {{"String", " "}}},
                                  {"behavior", "MergedWithPrevious"},
                                  {"invert", false}};
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
        return "DebertaV2Tokenizer";
    }
    return "";
}

std::string tokenizerClassNamed(const Json& config, const std::string& modelType) {
    // transformers 5's AutoTokenizer loads ModernBERT-type checkpoints as TokenizersBackend
    // whatever tokenizer_config.json names (MODELS_WITH_INCORRECT_HUB_TOKENIZER_CLASS):
    // mmBERT names GemmaTokenizer over a file that is right as it is.
    if (modelType == "modernbert") {
        return "";
    }
    std::string name;
    if (config.is_object()) {
        const auto it = config.find("tokenizer_class");
        name = it != config.end() && it->is_string() ? it->get<std::string>() : "";
    }
    if (name.size() > 4 && name.compare(name.size() - 4, 4, "Fast") == 0) {
        name.resize(name.size() - 4);
    }
    if (name.empty()) {
        name = tokenizerClassOfModelType(modelType);
    }
    return name;
}

std::string applyTransformersSettings(Json& tokenizer, const Json& config,
                                      const std::string& modelType) {
    const std::string name = tokenizerClassNamed(config, modelType);
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
    } else if (name == "DebertaV2Tokenizer") {
        applyDebertaV2Settings(tokenizer, config);
        // The class's special tokens are added whether the config names them or not (the
        // hub's DeBERTa-v3 configs name none): [MASK] gets the next free id.
        Json withDefaults = config;
        for (const auto& [key, token] : {std::pair{"bos_token", "[CLS]"},
                                         {"eos_token", "[SEP]"},
                                         {"unk_token", "[UNK]"},
                                         {"sep_token", "[SEP]"},
                                         {"pad_token", "[PAD]"},
                                         {"cls_token", "[CLS]"},
                                         {"mask_token", "[MASK]"}}) {
            if (!withDefaults.contains(key)) {
                withDefaults[key] = token;
            }
        }
        addConfigTokens(tokenizer, withDefaults);
        return name;
    } else if (name == "GemmaTokenizer") {
        applyGemmaSettings(tokenizer);
        // The class's special tokens, whether the config names them or not.
        Json withDefaults = config;
        for (const auto& [key, token] : {std::pair{"bos_token", "<bos>"},
                                         {"eos_token", "<eos>"},
                                         {"unk_token", "<unk>"},
                                         {"pad_token", "<pad>"},
                                         {"mask_token", "<mask>"}}) {
            if (!withDefaults.contains(key)) {
                withDefaults[key] = token;
            }
        }
        addConfigTokens(tokenizer, withDefaults);
        return name;
    } else {
        return addConfigTokens(tokenizer, config), std::string();
    }
    addConfigTokens(tokenizer, config);
    return name;
}

}  // namespace bert
