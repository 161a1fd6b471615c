#include "tokenizer/json/Normalizers.h"

#include <stdexcept>
#include <vector>

#include "text/Utf8.h"
#include "tokenizer/BertNormalization.h"
#include "tokenizer/UnicodeProperties.h"
#include "tokenizer/json/ByteLevelAlphabet.h"
#include "tokenizer/json/Precompiled.h"
#include "tokenizer/json/Regex.h"

namespace bert::tokenizer_json {

namespace {

// Calls map(cp, out) for each code point of text; map appends the replacement to out.
template <typename Map>
std::string mapCodePoints(const std::string& text, Map&& map) {
    std::string out;
    out.reserve(text.size());
    std::size_t pos = 0;
    while (pos < text.size()) {
        map(utf8::decode(text, pos), out);
    }
    return out;
}

class BertNormalizer final : public Normalizer {
public:
    explicit BertNormalizer(BertNormalization options) : options_(options) {}
    std::string normalize(std::string text) const override {
        std::string out;
        out.reserve(text.size());
        bertNormalize(text, options_, [&](char32_t cp) { utf8::append(out, cp); });
        return out;
    }

private:
    BertNormalization options_;
};

class UnicodeNormalizer final : public Normalizer {
public:
    explicit UnicodeNormalizer(unicode::NormalForm form) : form_(form) {}
    std::string normalize(std::string text) const override {
        return unicode::normalize(text, form_);
    }

private:
    unicode::NormalForm form_;
};

class Lowercase final : public Normalizer {
public:
    std::string normalize(std::string text) const override {
        return mapCodePoints(text, [](char32_t cp, std::string& out) {
            char32_t lowered[2];
            const auto count = unicode::lowercase(cp, lowered);
            for (std::size_t i = 0; i < count; ++i) {
                utf8::append(out, lowered[i]);
            }
        });
    }
};

class StripAccents final : public Normalizer {
public:
    std::string normalize(std::string text) const override {
        return mapCodePoints(text, [](char32_t cp, std::string& out) {
            if (!unicode::isCombiningMark(cp)) {
                utf8::append(out, cp);
            }
        });
    }
};

class Strip final : public Normalizer {
public:
    Strip(bool left, bool right) : left_(left), right_(right) {}
    std::string normalize(std::string text) const override {
        std::size_t begin = 0;
        std::size_t end = text.size();
        if (left_) {
            while (begin < end) {
                std::size_t next = begin;
                if (!unicode::isWhitespace(utf8::decode(text, next))) {
                    break;
                }
                begin = next;
            }
        }
        if (right_) {
            while (end > begin) {
                std::size_t start = end - 1;
                while (start > begin &&
                       (static_cast<unsigned char>(text[start]) & 0xC0U) == 0x80U) {
                    --start;
                }
                std::size_t next = start;
                if (!unicode::isWhitespace(utf8::decode(text, next))) {
                    break;
                }
                end = start;
            }
        }
        return text.substr(begin, end - begin);
    }

private:
    bool left_;
    bool right_;
};

// SentencePiece's nmt_nfkc control-character handling, as the reference's Nmt normalizer.
class Nmt final : public Normalizer {
public:
    std::string normalize(std::string text) const override {
        return mapCodePoints(text, [](char32_t cp, std::string& out) {
            if ((cp >= 0x01 && cp <= 0x08) || cp == 0x0B || (cp >= 0x0E && cp <= 0x1F) ||
                cp == 0x7F || cp == 0x8F || cp == 0x9F) {
                return;
            }
            const bool space = cp == 0x09 || cp == 0x0A || cp == 0x0C || cp == 0x0D ||
                               cp == 0x1680 || (cp >= 0x200B && cp <= 0x200F) || cp == 0x2028 ||
                               cp == 0x2029 || cp == 0x2581 || cp == 0xFEFF || cp == 0xFFFD;
            utf8::append(out, space ? U' ' : cp);
        });
    }
};

class Precompiled final : public Normalizer {
public:
    explicit Precompiled(PrecompiledCharsMap map) : map_(std::move(map)) {}
    std::string normalize(std::string text) const override { return map_.normalize(text); }

private:
    PrecompiledCharsMap map_;
};

class Replace final : public Normalizer {
public:
    Replace(Regex pattern, std::string content)
        : pattern_(std::move(pattern)), content_(std::move(content)) {}
    std::string normalize(std::string text) const override {
        const auto matches = pattern_.findAll(text);
        if (matches.empty()) {
            return text;
        }
        std::string out;
        out.reserve(text.size());
        std::size_t last = 0;
        for (const auto& [start, end] : matches) {
            out.append(text, last, start - last);
            out += content_;
            last = end;
        }
        out.append(text, last);
        return out;
    }

private:
    Regex pattern_;
    std::string content_;
};

class Prepend final : public Normalizer {
public:
    explicit Prepend(std::string prefix) : prefix_(std::move(prefix)) {}
    std::string normalize(std::string text) const override {
        return text.empty() ? text : prefix_ + text;
    }

private:
    std::string prefix_;
};

class ByteLevelNormalizer final : public Normalizer {
public:
    std::string normalize(std::string text) const override { return byteLevelEncode(text); }
};

class SequenceNormalizer final : public Normalizer {
public:
    explicit SequenceNormalizer(std::vector<std::unique_ptr<const Normalizer>> parts)
        : parts_(std::move(parts)) {}
    std::string normalize(std::string text) const override {
        for (const auto& part : parts_) {
            text = part->normalize(std::move(text));
        }
        return text;
    }

private:
    std::vector<std::unique_ptr<const Normalizer>> parts_;
};

std::string decodeBase64(const std::string& text, const JsonContext& context) {
    auto digit = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+') return 62;
        if (c == '/') return 63;
        return -1;
    };
    std::string out;
    out.reserve(text.size() / 4 * 3);
    std::uint32_t buffer = 0;
    int bits = 0;
    std::size_t end = text.size();
    while (end > 0 && text[end - 1] == '=') {
        --end;
    }
    if (text.size() % 4 != 0 || text.size() - end > 2) {
        context.fail("is not valid base64 (its length is not a multiple of 4)");
    }
    for (std::size_t i = 0; i < end; ++i) {
        const int d = digit(text[i]);
        if (d < 0) {
            context.fail("is not valid base64 (character " + std::to_string(i) + ")");
        }
        buffer = (buffer << 6U) | static_cast<std::uint32_t>(d);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((buffer >> static_cast<unsigned>(bits)) & 0xFFU);
        }
    }
    return out;
}

Regex patternOf(const nlohmann::json& object, const JsonContext& context) {
    const auto patternContext = context.at("pattern");
    const auto& pattern = patternContext.object(context.required(object, "pattern"));
    try {
        if (pattern.contains("String")) {
            return Regex::fromLiteral(patternContext.at("String").text(pattern["String"]));
        }
        if (pattern.contains("Regex")) {
            return Regex::fromPattern(patternContext.at("Regex").text(pattern["Regex"]));
        }
    } catch (const std::invalid_argument& error) {
        patternContext.fail(std::string("is not a regular expression the engine can compile (") +
                            error.what() + ")");
    }
    patternContext.fail("must be {\"String\": ...} or {\"Regex\": ...}");
}

}  // namespace

std::unique_ptr<const Normalizer> parseNormalizer(const nlohmann::json& value,
                                                  const JsonContext& context) {
    const auto& object = context.object(value);
    const std::string type = context.string(object, "type");
    if (type == "BertNormalizer") {
        BertNormalization options;
        options.cleanText = context.boolean(object, "clean_text", true);
        options.handleChineseChars = context.boolean(object, "handle_chinese_chars", true);
        options.lowercase = context.boolean(object, "lowercase", true);
        options.stripAccents = context.boolean(object, "strip_accents", options.lowercase);
        return std::make_unique<BertNormalizer>(options);
    }
    if (type == "NFC") return std::make_unique<UnicodeNormalizer>(unicode::NormalForm::NFC);
    if (type == "NFD") return std::make_unique<UnicodeNormalizer>(unicode::NormalForm::NFD);
    if (type == "NFKC") return std::make_unique<UnicodeNormalizer>(unicode::NormalForm::NFKC);
    if (type == "NFKD") return std::make_unique<UnicodeNormalizer>(unicode::NormalForm::NFKD);
    if (type == "Lowercase") return std::make_unique<Lowercase>();
    if (type == "StripAccents") return std::make_unique<StripAccents>();
    if (type == "Nmt") return std::make_unique<Nmt>();
    if (type == "ByteLevel") return std::make_unique<ByteLevelNormalizer>();
    if (type == "Strip") {
        return std::make_unique<Strip>(context.boolean(object, "strip_left", true),
                                       context.boolean(object, "strip_right", true));
    }
    if (type == "Prepend") {
        return std::make_unique<Prepend>(context.string(object, "prepend"));
    }
    if (type == "Replace") {
        return std::make_unique<Replace>(patternOf(object, context),
                                         context.string(object, "content"));
    }
    if (type == "Precompiled") {
        const auto mapContext = context.at("precompiled_charsmap");
        const auto bytes = decodeBase64(context.string(object, "precompiled_charsmap"), mapContext);
        try {
            return std::make_unique<Precompiled>(PrecompiledCharsMap(bytes));
        } catch (const std::invalid_argument& error) {
            mapContext.fail(error.what());
        }
    }
    if (type == "Sequence") {
        const auto listContext = context.at("normalizers");
        const auto& list = listContext.array(context.required(object, "normalizers"));
        std::vector<std::unique_ptr<const Normalizer>> parts;
        for (std::size_t i = 0; i < list.size(); ++i) {
            parts.push_back(parseNormalizer(list[i], listContext.at(i)));
        }
        return std::make_unique<SequenceNormalizer>(std::move(parts));
    }
    context.at("type").fail("unknown normalizer \"" + type + "\"");
}

}  // namespace bert::tokenizer_json
