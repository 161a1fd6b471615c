#include "tokenizer/WordPieceTokenizer.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "Error.h"
#include "io/AtomicFile.h"
#include "io/InputFile.h"
#include "io/Json.h"
#include "text/Utf8.h"
#include "tokenizer/BertNormalization.h"
#include "tokenizer/WordEncoding.h"

namespace bert {

namespace {

// Pre-tokenizer state: collects the current word as UTF-8, hands finished words to sink.
template <typename Sink>
class WordSplitter {
public:
    explicit WordSplitter(Sink& sink) : sink_(sink) {}

    void push(char32_t cp) {
        if (unicode::isWhitespace(cp)) {
            flush();
        } else if (unicode::isPunctuation(cp)) {
            flush();
            utf8::append(word_, cp);
            chars_ = 1;
            flush();
        } else {
            utf8::append(word_, cp);
            ++chars_;
        }
    }

    void flush() {
        if (!word_.empty()) {
            sink_(std::string_view(word_), chars_);
            word_.clear();
            chars_ = 0;
        }
    }

private:
    Sink& sink_;
    std::string word_;
    std::size_t chars_ = 0;
};

BertNormalization bertNormalization(const TokenizerOptions& options) {
    BertNormalization normalization;
    normalization.cleanText = options.cleanText;
    normalization.handleChineseChars = options.handleChineseChars;
    normalization.stripAccents = options.effectiveStripAccents();
    normalization.lowercase = options.lowercase;
    return normalization;
}

}  // namespace

WordPieceTokenizer::WordPieceTokenizer(std::vector<std::string> vocabulary,
                                       TokenizerOptions options,
                                       const std::filesystem::path& source)
    : vocabulary_(std::move(vocabulary)), options_(std::move(options)), source_(source) {
    if (vocabulary_.empty()) {
        throw InputError(source, "the vocabulary is empty");
    }
    for (std::size_t i = 0; i < vocabulary_.size(); ++i) {
        const std::string& token = vocabulary_[i];
        const auto id = static_cast<std::int32_t>(i);
        // A token listed twice maps to its last line, as in the reference's vocabulary map.
        if (token.size() > 2 && token.compare(0, 2, "##") == 0) {
            continuations_.insert_or_assign(token.substr(2), id);
        }
        wordStarts_.insert_or_assign(token, id);
    }
    std::vector<std::string> missing;
    auto require = [&](const std::string& token, std::int32_t& id) {
        const auto found = tokenId(token);
        if (!found) {
            missing.push_back(token);
        } else {
            id = *found;
        }
    };
    require(options_.unkToken, unkId_);
    require(options_.clsToken, clsId_);
    require(options_.sepToken, sepId_);
    require(options_.padToken, padId_);
    if (!missing.empty()) {
        std::string list;
        for (const auto& token : missing) {
            list += (list.empty() ? "" : ", ") + token;
        }
        throw InputError(source,
                         "the vocabulary lacks the special token(s) " + list + " that BERT needs");
    }
    for (const std::string* token : {&options_.unkToken, &options_.clsToken, &options_.sepToken,
                                     &options_.padToken, &options_.maskToken}) {
        if (tokenId(*token)) {
            specialTokens_.push_back(*token);
        }
    }
    std::sort(specialTokens_.begin(), specialTokens_.end(),
              [](const auto& a, const auto& b) { return a.size() > b.size(); });
}

WordPieceTokenizer WordPieceTokenizer::fromVocabFile(const std::filesystem::path& vocabFile,
                                                     TokenizerOptions options) {
    if (!std::filesystem::exists(vocabFile)) {
        throw InputError(vocabFile, "is missing (a BERT model folder needs vocab.txt)");
    }
    auto content = readInputFile(vocabFile, input_limits::kTokenizer);
    // A byte-order mark (an editor on Windows writes one) is no part of the first token: kept,
    // "[PAD]" was read as "\uFEFF[PAD]" and the vocabulary said to lack [PAD].
    if (content.compare(0, 3, "\xEF\xBB\xBF") == 0) {
        content.erase(0, 3);
    }
    std::istringstream in(content);
    std::vector<std::string> vocabulary;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        vocabulary.push_back(line);
    }
    // A final empty line is the file's trailing newline, not a token.
    while (!vocabulary.empty() && vocabulary.back().empty()) {
        vocabulary.pop_back();
    }
    return WordPieceTokenizer(std::move(vocabulary), std::move(options), vocabFile);
}

namespace {

nlohmann::json jsonObjectOf(std::string_view text, const std::filesystem::path& file) {
    std::string problem;
    auto json = parseJson(text, problem);
    if (!problem.empty()) {
        throw InputError(file, problem);
    }
    if (!json.is_object()) {
        throw InputError(file, "is not a JSON object");
    }
    return json;
}

nlohmann::json readJsonFile(const std::filesystem::path& file) {
    return jsonObjectOf(readInputFile(file, input_limits::kTokenizer), file);
}

// The vocabulary of a fast tokenizer's tokenizer.json ("model": {"type": "WordPiece",
// "vocab": {token: id}}), which transformers 5 saves instead of vocab.txt; its BertNormalizer
// settings go into options.
std::vector<std::string> vocabularyFromTokenizerJson(const nlohmann::json& json,
                                                     const std::filesystem::path& file,
                                                     TokenizerOptions& options) {
    const auto& model = json.contains("model") ? json["model"] : nlohmann::json();
    if (!model.is_object() || jsonField<std::string>(model, "type", "", file) != "WordPiece" ||
        !model.contains("vocab") || !model["vocab"].is_object()) {
        throw InputError(file, "does not describe a WordPiece (BERT) tokenizer");
    }
    if (jsonField<std::string>(model, "continuing_subword_prefix", "##", file) != "##") {
        throw InputError(file, "uses a continuing-subword prefix other than \"##\"");
    }
    const auto& vocab = model["vocab"];
    std::vector<std::string> vocabulary(vocab.size());
    for (const auto& [token, id] : vocab.items()) {
        if (!id.is_number_unsigned() || id.get<std::size_t>() >= vocabulary.size()) {
            throw InputError(file, "token \"" + token + "\" has an id outside 0.." +
                                       std::to_string(vocabulary.size() - 1));
        }
        vocabulary[id.get<std::size_t>()] = token;
    }
    options.unkToken = jsonField(model, "unk_token", options.unkToken, file);
    options.maxInputCharsPerWord =
        jsonField(model, "max_input_chars_per_word", options.maxInputCharsPerWord, file);
    if (json.contains("normalizer") && json["normalizer"].is_object()) {
        const auto& normalizer = json["normalizer"];
        if (jsonField<std::string>(normalizer, "type", "", file) != "BertNormalizer") {
            throw InputError(file, "uses a normalizer other than BertNormalizer");
        }
        options.lowercase = jsonField(normalizer, "lowercase", options.lowercase, file);
        options.cleanText = jsonField(normalizer, "clean_text", options.cleanText, file);
        options.handleChineseChars =
            jsonField(normalizer, "handle_chinese_chars", options.handleChineseChars, file);
        if (normalizer.contains("strip_accents") && normalizer["strip_accents"].is_boolean()) {
            options.stripAccents = normalizer["strip_accents"].get<bool>();
        }
    }
    return vocabulary;
}

}  // namespace

WordPieceTokenizer WordPieceTokenizer::fromTokenizerJson(std::string_view text,
                                                         const std::filesystem::path& source) {
    TokenizerOptions options;
    auto vocabulary = vocabularyFromTokenizerJson(jsonObjectOf(text, source), source, options);
    return WordPieceTokenizer(std::move(vocabulary), std::move(options), source);
}

WordPieceTokenizer WordPieceTokenizer::fromModelFolder(const std::filesystem::path& folder) {
    TokenizerOptions options;
    const auto configFile = folder / "tokenizer_config.json";
    if (std::filesystem::exists(configFile)) {
        const auto config = readJsonFile(configFile);
        options.lowercase = jsonField(config, "do_lower_case", options.lowercase, configFile);
        if (config.contains("strip_accents") && config["strip_accents"].is_boolean()) {
            options.stripAccents = config["strip_accents"].get<bool>();
        }
        options.handleChineseChars =
            jsonField(config, "tokenize_chinese_chars", options.handleChineseChars, configFile);
        auto tokenField = [&](const char* key, std::string& field) {
            if (config.contains(key) && config[key].is_string()) {
                field = config[key].get<std::string>();
            }
        };
        tokenField("unk_token", options.unkToken);
        tokenField("cls_token", options.clsToken);
        tokenField("sep_token", options.sepToken);
        tokenField("pad_token", options.padToken);
        tokenField("mask_token", options.maskToken);
    }
    const auto vocabFile = folder / "vocab.txt";
    const auto fastFile = folder / "tokenizer.json";
    if (!std::filesystem::exists(vocabFile) && std::filesystem::exists(fastFile)) {
        auto vocabulary = vocabularyFromTokenizerJson(readJsonFile(fastFile), fastFile, options);
        return WordPieceTokenizer(std::move(vocabulary), std::move(options), fastFile);
    }
    if (!std::filesystem::exists(vocabFile)) {
        throw InputError(vocabFile,
                         "is missing, and there is no tokenizer.json either "
                         "(a BERT model folder needs its vocabulary)");
    }
    return fromVocabFile(vocabFile, std::move(options));
}

std::optional<std::int32_t> WordPieceTokenizer::tokenId(std::string_view token) const {
    const auto it = wordStarts_.find(token);
    if (it == wordStarts_.end()) {
        return std::nullopt;
    }
    return it->second;
}

void WordPieceTokenizer::appendWordPieces(std::string_view word, std::size_t charCount,
                                          std::vector<std::int32_t>& out) const {
    if (charCount > options_.maxInputCharsPerWord) {
        out.push_back(unkId_);
        return;
    }
    const std::size_t mark = out.size();
    std::size_t start = 0;
    while (start < word.size()) {
        const TokenMap& map = start == 0 ? wordStarts_ : continuations_;
        std::size_t end = word.size();
        std::int32_t found = -1;
        while (end > start) {
            const auto it = map.find(word.substr(start, end - start));
            if (it != map.end()) {
                found = it->second;
                break;
            }
            // Step back one code point: skip UTF-8 continuation bytes.
            do {
                --end;
            } while (end > start && (static_cast<unsigned char>(word[end]) & 0xC0U) == 0x80U);
        }
        if (found < 0) {
            out.resize(mark);
            out.push_back(unkId_);
            return;
        }
        out.push_back(found);
        start = end;
    }
}

void WordPieceTokenizer::tokenizeSegment(std::string_view text, std::vector<std::int32_t>& out,
                                         std::size_t limit) const {
    auto sink = [&](std::string_view word, std::size_t chars) {
        appendWordPieces(word, chars, out);
    };
    WordSplitter<decltype(sink)> splitter(sink);
    const BertNormalization normalization = bertNormalization(options_);
    // The text goes through in chunks cut at ASCII whitespace: such a byte is never inside a
    // UTF-8 sequence, the normaliser keeps it a separator and nothing combines across it, so
    // the ids of each chunk are exactly those the whole text gives there, and a limit can stop
    // between chunks.
    constexpr std::size_t kChunkBytes = 512;  // about 100 words: a few ids past any limit
    std::size_t start = 0;
    while (start < text.size() && out.size() < limit) {
        std::size_t end = text.size();
        if (text.size() - start > kChunkBytes) {
            end = text.find_first_of(" \t\n\r", start + kChunkBytes);
            end = end == std::string_view::npos ? text.size() : end + 1;
        }
        bertNormalize(text.substr(start, end - start), normalization,
                      [&](char32_t cp) { splitter.push(cp); });
        splitter.flush();
        start = end;
    }
}

std::string WordPieceTokenizer::normalize(std::string_view text) const {
    std::string out;
    out.reserve(text.size());
    bertNormalize(text, bertNormalization(options_), [&](char32_t cp) { utf8::append(out, cp); });
    return out;
}

std::vector<std::int32_t> WordPieceTokenizer::tokenizeToIds(std::string_view text,
                                                            std::size_t limit) const {
    std::vector<std::int32_t> ids;
    ids.reserve(std::min(text.size() / 4, limit) + 4);
    // Special tokens written in the text are matched on the raw text first, as the reference's
    // added vocabulary does; the segments between them are normalised and split.
    std::size_t segmentStart = 0;
    std::size_t pos = 0;
    while (pos < text.size() && ids.size() < limit) {
        const std::size_t bracket = text.find('[', pos);
        if (bracket == std::string_view::npos) {
            break;
        }
        bool matched = false;
        for (const auto& special : specialTokens_) {
            if (text.compare(bracket, special.size(), special) == 0) {
                tokenizeSegment(text.substr(segmentStart, bracket - segmentStart), ids, limit);
                if (ids.size() >= limit) {
                    return ids;  // the segment may have stopped early: nothing may follow it
                }
                ids.push_back(*tokenId(special));
                pos = segmentStart = bracket + special.size();
                matched = true;
                break;
            }
        }
        if (!matched) {
            pos = bracket + 1;
        }
    }
    if (ids.size() < limit) {
        tokenizeSegment(text.substr(segmentStart), ids, limit);
    }
    return ids;
}

std::vector<std::int32_t> WordPieceTokenizer::specialIds() const {
    std::vector<std::int32_t> ids;
    for (const auto& token : specialTokens_) {
        ids.push_back(*tokenId(token));
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

std::vector<std::string> WordPieceTokenizer::tokenize(std::string_view text) const {
    std::vector<std::string> pieces;
    for (const auto id : tokenizeToIds(text)) {
        pieces.push_back(vocabulary_[static_cast<std::size_t>(id)]);
    }
    return pieces;
}

Encoding WordPieceTokenizer::encode(std::string_view text, std::size_t maxLength) const {
    constexpr std::size_t kSpecialTokens = 2;  // [CLS] ... [SEP]
    std::size_t budget = std::numeric_limits<std::size_t>::max();
    if (maxLength > 0) {
        budget = maxLength > kSpecialTokens ? maxLength - kSpecialTokens : 0;
    }
    auto ids = tokenizeToIds(text, budget);
    if (ids.size() > budget) {
        ids.resize(budget);
    }
    Encoding encoding;
    encoding.inputIds.reserve(ids.size() + kSpecialTokens);
    encoding.inputIds.push_back(clsId_);
    encoding.inputIds.insert(encoding.inputIds.end(), ids.begin(), ids.end());
    encoding.inputIds.push_back(sepId_);
    encoding.tokenTypeIds.assign(encoding.inputIds.size(), 0);
    encoding.attentionMask.assign(encoding.inputIds.size(), 1);
    return encoding;
}

WordEncoding WordPieceTokenizer::encodeWords(const std::vector<std::string>& words,
                                             std::size_t maxLength) const {
    constexpr std::size_t kSpecialTokens = 2;  // [CLS] ... [SEP]
    std::size_t budget = std::numeric_limits<std::size_t>::max();
    if (maxLength > 0) {
        budget = maxLength > kSpecialTokens ? maxLength - kSpecialTokens : 0;
    }
    auto out =
        splitWordIds(words, budget, [&](const std::string& word, std::vector<std::int32_t>& ids) {
            const auto pieces = tokenizeToIds(word);
            ids.insert(ids.end(), pieces.begin(), pieces.end());
        });
    auto& ids = out.encoding.inputIds;
    ids.insert(ids.begin(), clsId_);
    ids.push_back(sepId_);
    out.wordIds.insert(out.wordIds.begin(), -1);
    out.wordIds.push_back(-1);
    out.encoding.tokenTypeIds.assign(ids.size(), 0);
    out.encoding.attentionMask.assign(ids.size(), 1);
    return out;
}

Encoding WordPieceTokenizer::encodePair(std::string_view first, std::string_view second,
                                        std::size_t maxLength) const {
    // transformers treats an empty second text as no pair at all (`if text_pair` is false).
    if (second.empty()) {
        return encode(first, maxLength);
    }
    auto a = tokenizeToIds(first);
    auto b = tokenizeToIds(second);
    constexpr std::size_t kSpecialTokens = 3;  // [CLS] a [SEP] b [SEP]
    if (maxLength > 0) {
        const std::size_t budget = maxLength > kSpecialTokens ? maxLength - kSpecialTokens : 0;
        if (a.size() + b.size() > budget) {
            // The reference's longest-first rule (tokenizers' truncate_encodings): keep the
            // shorter whole when the longer can absorb the cut, otherwise halve the budget.
            std::size_t n1 = std::min(a.size(), b.size());
            std::size_t n2 = std::max(a.size(), b.size());
            const bool swapped = a.size() > b.size();
            n2 = n1 > budget ? n1 : std::max(n1, budget - n1);
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
    }
    Encoding encoding;
    encoding.inputIds.reserve(a.size() + b.size() + kSpecialTokens);
    encoding.inputIds.push_back(clsId_);
    encoding.inputIds.insert(encoding.inputIds.end(), a.begin(), a.end());
    encoding.inputIds.push_back(sepId_);
    const std::size_t firstSegment = encoding.inputIds.size();
    encoding.inputIds.insert(encoding.inputIds.end(), b.begin(), b.end());
    encoding.inputIds.push_back(sepId_);
    encoding.tokenTypeIds.assign(encoding.inputIds.size(), 0);
    std::fill(encoding.tokenTypeIds.begin() + static_cast<std::ptrdiff_t>(firstSegment),
              encoding.tokenTypeIds.end(), 1);
    encoding.attentionMask.assign(encoding.inputIds.size(), 1);
    return encoding;
}

void WordPieceTokenizer::save(const std::filesystem::path& folder,
                              std::size_t modelMaxLength) const {
    std::string vocab;
    for (const auto& token : vocabulary_) {
        vocab += token;
        vocab += '\n';
    }
    writeFileAtomically(folder / "vocab.txt", vocab);
    nlohmann::json config = {
        {"tokenizer_class", "BertTokenizer"},
        {"do_lower_case", options_.lowercase},
        {"tokenize_chinese_chars", options_.handleChineseChars},
        {"strip_accents",
         options_.stripAccents ? nlohmann::json(*options_.stripAccents) : nlohmann::json(nullptr)},
        {"unk_token", options_.unkToken},
        {"cls_token", options_.clsToken},
        {"sep_token", options_.sepToken},
        {"pad_token", options_.padToken},
        {"mask_token", options_.maskToken},
        {"model_max_length", modelMaxLength},
    };
    const nlohmann::json specials = {
        {"unk_token", options_.unkToken},   {"cls_token", options_.clsToken},
        {"sep_token", options_.sepToken},   {"pad_token", options_.padToken},
        {"mask_token", options_.maskToken},
    };
    writeFileAtomically(folder / "tokenizer_config.json", config.dump(2) + "\n");
    writeFileAtomically(folder / "special_tokens_map.json", specials.dump(2) + "\n");
}

}  // namespace bert
