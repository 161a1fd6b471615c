#include "tokenizer/json/PreTokenizers.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "text/Utf8.h"
#include "tokenizer/UnicodeProperties.h"
#include "tokenizer/json/ByteLevelAlphabet.h"
#include "tokenizer/json/Regex.h"

namespace bert::tokenizer_json {

namespace {

// tokenizers' SplitDelimiterBehavior: what happens to the matched delimiters.
enum class Behavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

struct Span {
    std::size_t start;
    std::size_t end;
    bool match;
};

// Spans of text alternating between non-matches and single-character matches of predicate
// (tokenizers' Pattern for Fn(char) -> bool).
template <typename Predicate>
std::vector<Span> predicateSpans(const std::string& text, Predicate&& predicate) {
    std::vector<Span> spans;
    std::size_t last = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t start = pos;
        if (predicate(utf8::decode(text, pos))) {
            if (last < start) {
                spans.push_back({last, start, false});
            }
            spans.push_back({start, pos, true});
            last = pos;
        }
    }
    if (last < text.size()) {
        spans.push_back({last, text.size(), false});
    }
    return spans;
}

std::vector<Span> regexSpans(const std::string& text, const Regex& regex) {
    std::vector<Span> spans;
    std::size_t last = 0;
    for (const auto& [start, end] : regex.findAll(text)) {
        if (last != start) {
            spans.push_back({last, start, false});
        }
        spans.push_back({start, end, true});
        last = end;
    }
    if (last != text.size()) {
        spans.push_back({last, text.size(), false});
    }
    return spans;
}

// NormalizedString::split: the ranges to keep.
std::vector<std::pair<std::size_t, std::size_t>> applyBehavior(const std::vector<Span>& spans,
                                                               Behavior behavior) {
    std::vector<std::pair<std::size_t, std::size_t>> kept;
    switch (behavior) {
        case Behavior::Isolated:
            for (const auto& span : spans) {
                kept.emplace_back(span.start, span.end);
            }
            break;
        case Behavior::Removed:
            for (const auto& span : spans) {
                if (!span.match) {
                    kept.emplace_back(span.start, span.end);
                }
            }
            break;
        case Behavior::Contiguous: {
            bool previous = false;
            for (const auto& span : spans) {
                if (span.match == previous && !kept.empty()) {
                    kept.back().second = span.end;
                } else {
                    kept.emplace_back(span.start, span.end);
                }
                previous = span.match;
            }
            break;
        }
        case Behavior::MergedWithPrevious: {
            bool previous = false;
            for (const auto& span : spans) {
                if (span.match && !previous && !kept.empty()) {
                    kept.back().second = span.end;
                } else {
                    kept.emplace_back(span.start, span.end);
                }
                previous = span.match;
            }
            break;
        }
        case Behavior::MergedWithNext: {
            bool previous = false;
            for (auto it = spans.rbegin(); it != spans.rend(); ++it) {
                if (it->match && !previous && !kept.empty()) {
                    kept.back().first = it->start;
                } else {
                    kept.emplace_back(it->start, it->end);
                }
                previous = it->match;
            }
            std::reverse(kept.begin(), kept.end());
            break;
        }
    }
    return kept;
}

// Splits every piece with spansOf(text) and behavior, dropping empty results.
template <typename SpansOf>
std::vector<Piece> splitEach(std::vector<Piece> pieces, Behavior behavior, SpansOf&& spansOf) {
    std::vector<Piece> out;
    out.reserve(pieces.size() * 2);
    for (auto& piece : pieces) {
        if (piece.text.empty()) {
            continue;
        }
        for (const auto& [start, end] : applyBehavior(spansOf(piece.text), behavior)) {
            if (end > start) {
                out.push_back({piece.text.substr(start, end - start), piece.atStart && start == 0});
            }
        }
    }
    return out;
}

class PredicateSplit final : public PreTokenizer {
public:
    using Predicate = bool (*)(char32_t);
    PredicateSplit(Predicate predicate, Behavior behavior)
        : predicate_(predicate), behavior_(behavior) {}
    std::vector<Piece> split(std::vector<Piece> pieces) const override {
        return splitEach(std::move(pieces), behavior_,
                         [&](const std::string& text) { return predicateSpans(text, predicate_); });
    }

private:
    Predicate predicate_;
    Behavior behavior_;
};

class CharDelimiterSplit final : public PreTokenizer {
public:
    explicit CharDelimiterSplit(char32_t delimiter) : delimiter_(delimiter) {}
    std::vector<Piece> split(std::vector<Piece> pieces) const override {
        return splitEach(std::move(pieces), Behavior::Removed, [&](const std::string& text) {
            return predicateSpans(text, [&](char32_t cp) { return cp == delimiter_; });
        });
    }

private:
    char32_t delimiter_;
};

// \w+|[^\w\s]+ with everything else removed (tokenizers' Whitespace).
class Whitespace final : public PreTokenizer {
public:
    std::vector<Piece> split(std::vector<Piece> pieces) const override {
        std::vector<Piece> out;
        for (auto& piece : pieces) {
            std::size_t pos = 0;
            int currentKind = 0;  // 0: none, 1: word run, 2: other run
            std::size_t runStart = 0;
            auto flush = [&](std::size_t end) {
                if (currentKind != 0 && end > runStart) {
                    out.push_back({piece.text.substr(runStart, end - runStart),
                                   piece.atStart && runStart == 0});
                }
            };
            while (pos < piece.text.size()) {
                const std::size_t start = pos;
                const char32_t cp = utf8::decode(piece.text, pos);
                const int kind = unicode::isWordChar(cp)       ? 1
                                 : unicode::isWhitespace(cp)   ? 0
                                                               : 2;
                if (kind != currentKind) {
                    flush(start);
                    currentKind = kind;
                    runStart = start;
                }
            }
            flush(piece.text.size());
        }
        return out;
    }
};

class BertPreTokenizer final : public PreTokenizer {
public:
    std::vector<Piece> split(std::vector<Piece> pieces) const override {
        pieces = splitEach(std::move(pieces), Behavior::Removed, [](const std::string& text) {
            return predicateSpans(text, unicode::isWhitespace);
        });
        return splitEach(std::move(pieces), Behavior::Isolated, [](const std::string& text) {
            return predicateSpans(text, unicode::isPunctuation);
        });
    }
};

constexpr const char* kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

class ByteLevel final : public PreTokenizer {
public:
    ByteLevel(bool addPrefixSpace, bool useRegex)
        : addPrefixSpace_(addPrefixSpace), useRegex_(useRegex) {}
    std::vector<Piece> split(std::vector<Piece> pieces) const override {
        static const Regex gpt2 = Regex::fromPattern(kGpt2Pattern);
        if (addPrefixSpace_) {
            for (auto& piece : pieces) {
                if (!piece.text.empty() && piece.text.front() != ' ') {
                    piece.text.insert(piece.text.begin(), ' ');
                }
            }
        }
        if (useRegex_) {
            pieces = splitEach(std::move(pieces), Behavior::Isolated,
                               [](const std::string& text) { return regexSpans(text, gpt2); });
        }
        for (auto& piece : pieces) {
            piece.text = byteLevelEncode(piece.text);
        }
        return pieces;
    }

private:
    bool addPrefixSpace_;
    bool useRegex_;
};

enum class PrependScheme { Always, First, Never };

class Metaspace final : public PreTokenizer {
public:
    Metaspace(char32_t replacement, PrependScheme scheme, bool split)
        : replacement_(replacement), scheme_(scheme), split_(split) {
        utf8::append(replacementText_, replacement);
    }
    std::vector<Piece> split(std::vector<Piece> pieces) const override {
        for (auto& piece : pieces) {
            std::string replaced;
            replaced.reserve(piece.text.size() + replacementText_.size());
            for (const char c : piece.text) {
                if (c == ' ') {
                    replaced += replacementText_;
                } else {
                    replaced += c;
                }
            }
            const bool startsWithReplacement =
                replaced.compare(0, replacementText_.size(), replacementText_) == 0;
            if (!replaced.empty() && !startsWithReplacement &&
                (scheme_ == PrependScheme::Always ||
                 (scheme_ == PrependScheme::First && piece.atStart))) {
                replaced.insert(0, replacementText_);
            }
            piece.text = std::move(replaced);
        }
        if (!split_) {
            return pieces;
        }
        return splitEach(std::move(pieces), Behavior::MergedWithNext,
                         [&](const std::string& text) {
                             return predicateSpans(
                                 text, [&](char32_t cp) { return cp == replacement_; });
                         });
    }

private:
    char32_t replacement_;
    std::string replacementText_;
    PrependScheme scheme_;
    bool split_;
};

class Split final : public PreTokenizer {
public:
    Split(Regex regex, Behavior behavior, bool invert)
        : regex_(std::move(regex)), behavior_(behavior), invert_(invert) {}
    std::vector<Piece> split(std::vector<Piece> pieces) const override {
        return splitEach(std::move(pieces), behavior_, [&](const std::string& text) {
            auto spans = regexSpans(text, regex_);
            if (invert_) {
                for (auto& span : spans) {
                    span.match = !span.match;
                }
            }
            return spans;
        });
    }

private:
    Regex regex_;
    Behavior behavior_;
    bool invert_;
};

class SequencePreTokenizer final : public PreTokenizer {
public:
    explicit SequencePreTokenizer(std::vector<std::unique_ptr<const PreTokenizer>> parts)
        : parts_(std::move(parts)) {}
    std::vector<Piece> split(std::vector<Piece> pieces) const override {
        for (const auto& part : parts_) {
            pieces = part->split(std::move(pieces));
        }
        return pieces;
    }

private:
    std::vector<std::unique_ptr<const PreTokenizer>> parts_;
};

Behavior behaviorOf(const nlohmann::json& object, const JsonContext& context,
                    const std::string& fallback) {
    const std::string name = context.string(object, "behavior", fallback);
    if (name == "Removed") return Behavior::Removed;
    if (name == "Isolated") return Behavior::Isolated;
    if (name == "MergedWithPrevious") return Behavior::MergedWithPrevious;
    if (name == "MergedWithNext") return Behavior::MergedWithNext;
    if (name == "Contiguous") return Behavior::Contiguous;
    context.at("behavior").fail("unknown split behavior \"" + name + "\"");
}

char32_t singleCharacter(const std::string& text, const JsonContext& context) {
    std::size_t pos = 0;
    const char32_t cp = text.empty() ? 0 : utf8::decode(text, pos);
    if (text.empty() || pos != text.size()) {
        context.fail("must be a single character, not \"" + text + "\"");
    }
    return cp;
}

}  // namespace

std::unique_ptr<const PreTokenizer> parsePreTokenizer(const nlohmann::json& value,
                                                      const JsonContext& context) {
    const auto& object = context.object(value);
    const std::string type = context.string(object, "type");
    if (type == "BertPreTokenizer") return std::make_unique<BertPreTokenizer>();
    if (type == "Whitespace") return std::make_unique<Whitespace>();
    if (type == "WhitespaceSplit") {
        return std::make_unique<PredicateSplit>(unicode::isWhitespace, Behavior::Removed);
    }
    if (type == "Punctuation") {
        return std::make_unique<PredicateSplit>(unicode::isPunctuation,
                                                behaviorOf(object, context, "Isolated"));
    }
    if (type == "Digits") {
        return std::make_unique<PredicateSplit>(
            unicode::isNumeric, context.boolean(object, "individual_digits", false)
                                    ? Behavior::Isolated
                                    : Behavior::Contiguous);
    }
    if (type == "CharDelimiterSplit") {
        return std::make_unique<CharDelimiterSplit>(
            singleCharacter(context.string(object, "delimiter"), context.at("delimiter")));
    }
    if (type == "ByteLevel") {
        return std::make_unique<ByteLevel>(context.boolean(object, "add_prefix_space", true),
                                           context.boolean(object, "use_regex", true));
    }
    if (type == "Metaspace") {
        const char32_t replacement =
            singleCharacter(context.string(object, "replacement"), context.at("replacement"));
        PrependScheme scheme = PrependScheme::Always;
        const std::string name = context.string(object, "prepend_scheme", "always");
        if (name == "first") {
            scheme = PrependScheme::First;
        } else if (name == "never") {
            scheme = PrependScheme::Never;
        } else if (name != "always") {
            context.at("prepend_scheme").fail("must be \"always\", \"first\" or \"never\"");
        }
        // Files from before prepend_scheme say add_prefix_space instead.
        if (!context.boolean(object, "add_prefix_space", true)) {
            scheme = PrependScheme::Never;
        }
        return std::make_unique<Metaspace>(replacement, scheme,
                                           context.boolean(object, "split", true));
    }
    if (type == "Split") {
        const auto patternContext = context.at("pattern");
        const auto& pattern = patternContext.object(context.required(object, "pattern"));
        try {
            auto regex = pattern.contains("String")
                             ? Regex::fromLiteral(patternContext.at("String").text(pattern["String"]))
                         : pattern.contains("Regex")
                             ? Regex::fromPattern(patternContext.at("Regex").text(pattern["Regex"]))
                             : (patternContext.fail("must be {\"String\": ...} or {\"Regex\": ...}"),
                                Regex::fromLiteral(""));
            return std::make_unique<Split>(std::move(regex), behaviorOf(object, context, ""),
                                           context.boolean(object, "invert", false));
        } catch (const std::invalid_argument& error) {
            patternContext.fail(std::string("is not a regular expression the engine can compile (") +
                                error.what() + ")");
        }
    }
    if (type == "Sequence") {
        const auto listContext = context.at("pretokenizers");
        const auto& list = listContext.array(context.required(object, "pretokenizers"));
        std::vector<std::unique_ptr<const PreTokenizer>> parts;
        for (std::size_t i = 0; i < list.size(); ++i) {
            parts.push_back(parsePreTokenizer(list[i], listContext.at(i)));
        }
        return std::make_unique<SequencePreTokenizer>(std::move(parts));
    }
    context.at("type").fail("unknown pre-tokenizer \"" + type + "\"");
}

}  // namespace bert::tokenizer_json
