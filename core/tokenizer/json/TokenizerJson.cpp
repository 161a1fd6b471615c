#include "tokenizer/json/TokenizerJson.h"

#include <algorithm>
#include <set>

#include "Error.h"
#include "io/AtomicFile.h"
#include "io/Json.h"
#include "text/Utf8.h"
#include "tokenizer/WordEncoding.h"
#include "tokenizer/json/AddedTokens.h"
#include "tokenizer/json/Models.h"
#include "tokenizer/json/Normalizers.h"
#include "tokenizer/json/PostProcessors.h"
#include "tokenizer/json/PreTokenizers.h"

namespace bert {

using namespace tokenizer_json;

namespace {

bool hasType(const nlohmann::json& part, const std::string& type, const char* listKey) {
    if (!part.is_object()) {
        return false;
    }
    if (part.value("type", "") == type) {
        return true;
    }
    const auto it = part.find(listKey);
    if (it != part.end() && it->is_array()) {
        return std::any_of(it->begin(), it->end(),
                           [&](const auto& inner) { return hasType(inner, type, listKey); });
    }
    return false;
}

bool lowercasesIn(const nlohmann::json& normalizer) {
    if (!normalizer.is_object()) {
        return false;
    }
    const std::string type = normalizer.value("type", "");
    if (type == "Lowercase") {
        return true;
    }
    if (type == "BertNormalizer") {
        const auto it = normalizer.find("lowercase");
        return it == normalizer.end() || !it->is_boolean() || it->get<bool>();
    }
    const auto it = normalizer.find("normalizers");
    return it != normalizer.end() && it->is_array() &&
           std::any_of(it->begin(), it->end(), [](const auto& n) { return lowercasesIn(n); });
}

}  // namespace

JsonTokenizer::~JsonTokenizer() = default;

JsonTokenizer::JsonTokenizer(std::string_view text, std::filesystem::path source,
                             nlohmann::json config, const std::string& modelType)
    : source_(std::move(source)), originalText_(text), config_(std::move(config)) {
    std::string problem;
    auto json = parseJson(text, problem);
    if (!problem.empty()) {
        throw InputError(source_, problem);
    }
    const JsonContext root(source_, "");
    root.object(json);
    if (const auto version = root.string(json, "version", "1.0"); version != "1.0") {
        root.at("version").fail("is \"" + version + "\"; the engine reads version 1.0");
    }
    if (config_.is_object() || !modelType.empty()) {
        tokenizerClass_ = applyTransformersSettings(
            json, config_.is_object() ? config_ : nlohmann::json::object(), modelType);
    }

    model_ = parseModel(root.required(json, "model"), root.at("model"));
    if (json.contains("normalizer") && !json["normalizer"].is_null()) {
        normalizer_ = parseNormalizer(json["normalizer"], root.at("normalizer"));
    }
    if (json.contains("pre_tokenizer") && !json["pre_tokenizer"].is_null()) {
        preTokenizer_ = parsePreTokenizer(json["pre_tokenizer"], root.at("pre_tokenizer"));
    }
    if (json.contains("post_processor") && !json["post_processor"].is_null()) {
        postProcessor_ = parsePostProcessor(json["post_processor"], root.at("post_processor"));
    }

    // Added tokens: the id is the model's where it knows the content, else the next free one
    // (the file's own "id" is only checked by the reference, not used).
    const Vocabulary& vocabulary = model_->vocabulary();
    std::int32_t largestId = -1;
    vocabulary.forEach(
        [&](const std::string&, std::int32_t id) { largestId = std::max(largestId, id); });
    std::vector<AddedToken> tokens;
    std::int64_t nextId = static_cast<std::int64_t>(vocabulary.size());
    const auto tokensContext = root.at("added_tokens");
    if (json.contains("added_tokens") && !json["added_tokens"].is_null()) {
        const auto& list = tokensContext.array(json["added_tokens"]);
        for (std::size_t i = 0; i < list.size(); ++i) {
            const auto context = tokensContext.at(i);
            const auto& entry = context.object(list[i]);
            AddedToken token;
            token.content = context.string(entry, "content");
            token.special = context.boolean(entry, "special", false);
            token.singleWord = context.boolean(entry, "single_word", false);
            token.lstrip = context.boolean(entry, "lstrip", false);
            token.rstrip = context.boolean(entry, "rstrip", false);
            token.normalized = context.boolean(entry, "normalized", !token.special);
            if (token.content.empty()) {
                continue;
            }
            const auto previous = std::find_if(tokens.begin(), tokens.end(), [&](const auto& t) {
                return t.content == token.content;
            });
            if (previous != tokens.end()) {
                token.id = previous->id;
                *previous = token;
                continue;
            }
            if (const auto id = vocabulary.find(token.content)) {
                token.id = *id;
            } else {
                if (nextId > kMaxTokenId) {
                    context.fail("is one added token too many for 32-bit ids");
                }
                token.id = static_cast<std::int32_t>(nextId++);
            }
            tokens.push_back(std::move(token));
        }
    }
    for (const auto& token : tokens) {
        largestId = std::max(largestId, token.id);
        if (token.special) {
            specialIds_.push_back(token.id);
        }
    }
    vocabularySize_ = static_cast<std::size_t>(largestId + 1);
    added_ = std::make_unique<AddedVocabulary>(std::move(tokens), normalizer_.get());

    // Padding: tokenizer_config.json's pad_token, the file's padding, or the usual names.
    std::optional<std::int32_t> pad;
    if (config_.is_object()) {
        const auto it = config_.find("pad_token");
        if (it != config_.end() && it->is_string()) {
            pad = tokenId(it->get<std::string>());
        } else if (it != config_.end() && it->is_object() && it->contains("content") &&
                   (*it)["content"].is_string()) {
            pad = tokenId((*it)["content"].get<std::string>());
        }
    }
    if (!pad && json.contains("padding") && json["padding"].is_object()) {
        const auto& padding = json["padding"];
        if (padding.contains("pad_id") && padding["pad_id"].is_number_unsigned() &&
            padding["pad_id"].get<std::uint64_t>() < vocabularySize_) {
            pad = static_cast<std::int32_t>(padding["pad_id"].get<std::uint64_t>());
        }
    }
    for (const char* name : {"[PAD]", "<pad>", "<|padding|>", "<|endoftext|>"}) {
        if (!pad) {
            pad = tokenId(name);
        }
    }
    padId_ = pad.value_or(0);
    specialIds_.push_back(padId_);
    if (const auto unk = model_->unkId()) {
        specialIds_.push_back(*unk);
    }
    if (postProcessor_) {
        for (const auto& sequence : postProcessor_->process({Sequence{}, Sequence{}})) {
            specialIds_.insert(specialIds_.end(), sequence.ids.begin(), sequence.ids.end());
        }
    }
    std::sort(specialIds_.begin(), specialIds_.end());
    specialIds_.erase(std::unique(specialIds_.begin(), specialIds_.end()), specialIds_.end());

    lowercases_ = lowercasesIn(json.value("normalizer", nlohmann::json()));
    kind_ = model_->kind();
    if (kind_ == "BPE" && (hasType(json.value("pre_tokenizer", nlohmann::json()), "ByteLevel",
                                   "pretokenizers") ||
                           hasType(json.value("normalizer", nlohmann::json()), "ByteLevel",
                                   "normalizers"))) {
        kind_ = "byte-level BPE";
    }
}

std::string JsonTokenizer::normalize(std::string_view text) const {
    std::string clean = utf8::sanitize(text);
    return normalizer_ ? normalizer_->normalize(std::move(clean)) : clean;
}

std::vector<std::string> JsonTokenizer::preTokenize(std::string_view text) const {
    std::vector<Piece> pieces{{normalize(text), true}};
    if (preTokenizer_) {
        pieces = preTokenizer_->split(std::move(pieces));
    }
    std::vector<std::string> out;
    for (auto& piece : pieces) {
        out.push_back(std::move(piece.text));
    }
    return out;
}

void JsonTokenizer::appendIds(std::string_view text, std::vector<std::int32_t>& ids,
                              std::size_t limit) const {
    // Invalid UTF-8 reads as U+FFFD, one per bad byte (the reference only sees valid text).
    const std::string sanitized = utf8::sanitize(text);
    text = sanitized;
    try {
        for (const auto& segment : added_->splitRaw(text)) {
            if (ids.size() >= limit) {
                return;
            }
            if (segment.id) {
                ids.push_back(*segment.id);
                continue;
            }
            const std::string normalized = normalizer_
                                               ? normalizer_->normalize(std::string(segment.text))
                                               : std::string(segment.text);
            for (const auto& part : added_->splitNormalized(normalized)) {
                if (ids.size() >= limit) {
                    return;
                }
                if (part.id) {
                    ids.push_back(*part.id);
                    continue;
                }
                const bool atStart = segment.text.data() == text.data() &&
                                     part.text.data() == normalized.data();
                std::vector<Piece> pieces{{std::string(part.text), atStart}};
                if (preTokenizer_) {
                    pieces = preTokenizer_->split(std::move(pieces));
                }
                for (const auto& piece : pieces) {
                    if (ids.size() >= limit) {
                        return;
                    }
                    model_->tokenize(piece.text, ids);
                }
            }
        }
    } catch (const Error&) {
        throw;
    } catch (const std::runtime_error& error) {
        throw InputError(source_, std::string("cannot tokenize this text: ") + error.what());
    }
}

std::vector<std::int32_t> JsonTokenizer::tokenizeToIds(std::string_view text,
                                                       std::size_t limit) const {
    std::vector<std::int32_t> ids;
    appendIds(text, ids, limit);
    return ids;
}

std::vector<std::string> JsonTokenizer::tokenize(std::string_view text) const {
    std::vector<std::string> tokens;
    for (const auto id : tokenizeToIds(text)) {
        tokens.push_back(tokenString(id));
    }
    return tokens;
}

Encoding JsonTokenizer::finish(std::vector<std::int32_t> first,
                               std::vector<std::int32_t>* second) const {
    std::vector<Sequence> sequences;
    sequences.push_back({std::move(first), {}});
    sequences[0].typeIds.assign(sequences[0].ids.size(), 0);
    if (second != nullptr) {
        sequences.push_back({std::move(*second), {}});
        sequences[1].typeIds.assign(sequences[1].ids.size(), 1);
    }
    if (postProcessor_) {
        sequences = postProcessor_->process(std::move(sequences));
    } else {
        sequences = processWithout(std::move(sequences));
    }
    Encoding encoding;
    for (auto& sequence : sequences) {
        encoding.inputIds.insert(encoding.inputIds.end(), sequence.ids.begin(), sequence.ids.end());
        encoding.tokenTypeIds.insert(encoding.tokenTypeIds.end(), sequence.typeIds.begin(),
                                     sequence.typeIds.end());
    }
    encoding.attentionMask.assign(encoding.inputIds.size(), 1);
    return encoding;
}

Encoding JsonTokenizer::encode(std::string_view text, std::size_t maxLength) const {
    const std::size_t special = postProcessor_ ? postProcessor_->added(false) : 0;
    std::size_t budget = std::numeric_limits<std::size_t>::max();
    if (maxLength > 0) {
        budget = maxLength > special ? maxLength - special : 0;
    }
    auto ids = tokenizeToIds(text, budget);
    if (ids.size() > budget) {
        ids.resize(budget);
    }
    return finish(std::move(ids), nullptr);
}

Encoding JsonTokenizer::encodePair(std::string_view first, std::string_view second,
                                   std::size_t maxLength) const {
    // transformers treats an empty second text as no pair at all (`if text_pair` is false).
    if (second.empty()) {
        return encode(first, maxLength);
    }
    const std::size_t special = postProcessor_ ? postProcessor_->added(true) : 0;
    std::size_t budget = std::numeric_limits<std::size_t>::max();
    if (maxLength > 0) {
        budget = maxLength > special ? maxLength - special : 0;
    }
    // Both whole: longest-first gives the odd id left over to the longer text, even when both
    // are past the budget, so their full lengths matter.
    auto a = tokenizeToIds(first);
    auto b = tokenizeToIds(second);
    if (maxLength > 0 && a.size() + b.size() > budget) {
        // tokenizers' truncate_encodings, LongestFirst.
        std::size_t n1 = std::min(a.size(), b.size());
        std::size_t n2 = n1 > budget ? n1 : std::max(n1, budget - n1);
        const bool swapped = a.size() > b.size();
        if (n1 + n2 > budget) {
            n1 = budget / 2;
            n2 = n1 + budget % 2;
        }
        if (swapped) {
            std::swap(n1, n2);
        }
        a.resize(std::min(a.size(), n1));
        b.resize(std::min(b.size(), n2));
    }
    return finish(std::move(a), &b);
}

WordEncoding JsonTokenizer::encodeWords(const std::vector<std::string>& words,
                                        std::size_t maxLength) const {
    const std::size_t special = postProcessor_ ? postProcessor_->added(false) : 0;
    std::size_t budget = std::numeric_limits<std::size_t>::max();
    if (maxLength > 0) {
        budget = maxLength > special ? maxLength - special : 0;
    }
    // Each word is a text of its own: tokenizers' pre-tokenized input runs the added tokens,
    // the normalizer and the pre-tokenizer on each word (so Metaspace's "first" scheme and
    // ByteLevel's prefix space apply to every word).
    auto out =
        splitWordIds(words, budget, [&](const std::string& word, std::vector<std::int32_t>& ids) {
            appendIds(word, ids, std::numeric_limits<std::size_t>::max());
        });
    // The post-processor copies a sequence's ids and inserts its own; handing it each token's
    // position as a negative id shows where each one lands (and which ids are its own).
    std::vector<std::int32_t> marks(out.encoding.inputIds.size());
    for (std::size_t i = 0; i < marks.size(); ++i) {
        marks[i] = -static_cast<std::int32_t>(i) - 1;
    }
    Encoding processed = finish(std::move(marks), nullptr);
    std::vector<std::int32_t> wordIds(processed.inputIds.size(), -1);
    for (std::size_t i = 0; i < processed.inputIds.size(); ++i) {
        if (const std::int32_t id = processed.inputIds[i]; id < 0) {
            const auto position = static_cast<std::size_t>(-(id + 1));
            processed.inputIds[i] = out.encoding.inputIds[position];
            wordIds[i] = out.wordIds[position];
        }
    }
    out.encoding = std::move(processed);
    out.wordIds = std::move(wordIds);
    return out;
}

std::optional<std::int32_t> JsonTokenizer::tokenId(std::string_view token) const {
    for (const auto& added : added_->tokens()) {
        if (added.content == token) {
            return added.id;
        }
    }
    return model_->vocabulary().find(token);
}

std::string JsonTokenizer::tokenString(std::int32_t id) const {
    for (const auto& added : added_->tokens()) {
        if (added.id == id) {
            return added.content;
        }
    }
    return model_->vocabulary().token(id).value_or(std::string());
}

std::optional<std::int32_t> JsonTokenizer::unkId() const {
    return model_->unkId();
}

void JsonTokenizer::save(const std::filesystem::path& folder, std::size_t modelMaxLength) const {
    writeFileAtomically(folder / "tokenizer.json", originalText_);
    nlohmann::json config = config_.is_object() ? config_ : nlohmann::json::object();
    if (!config.contains("tokenizer_class")) {
        config["tokenizer_class"] =
            tokenizerClass_.empty() ? std::string("PreTrainedTokenizerFast") : tokenizerClass_;
    }
    config["model_max_length"] = modelMaxLength;
    nlohmann::json specials = nlohmann::json::object();
    for (const char* key : {"bos_token", "eos_token", "unk_token", "sep_token", "pad_token",
                            "cls_token", "mask_token"}) {
        if (config.contains(key) && !config[key].is_null()) {
            specials[key] = config[key];
        }
    }
    if (!config.contains("pad_token")) {
        config["pad_token"] = tokenString(padId_);
        specials["pad_token"] = tokenString(padId_);
    }
    writeFileAtomically(folder / "tokenizer_config.json", config.dump(2) + "\n");
    writeFileAtomically(folder / "special_tokens_map.json", specials.dump(2) + "\n");
}

}  // namespace bert
