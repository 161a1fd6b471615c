#include "task/token/TagScheme.h"

#include <algorithm>
#include <set>

#include "Error.h"

namespace bert {

namespace {

std::string atLine(std::size_t line) {
    return "line " + std::to_string(line) + ": ";
}

std::string quoteText(std::string_view text) {
    constexpr std::size_t kMaxQuote = 60;
    std::string shown(text.substr(0, kMaxQuote));
    return "\"" + shown + (text.size() > kMaxQuote ? "...\"" : "\"");
}

std::string tagOf(char prefix, const std::string& type) {
    return std::string(1, prefix) + "-" + type;
}

// Whether `current` may continue the entity `previous` is part of.
bool continues(const ParsedTag& previous, const ParsedTag& current) {
    return (previous.prefix == 'B' || previous.prefix == 'I') && previous.type == current.type;
}

}  // namespace

std::string tagSchemeName(TagScheme scheme) {
    return scheme == TagScheme::Iobes ? "IOBES" : "BIO";
}

std::optional<ParsedTag> parseTag(std::string_view tag) {
    if (tag == "O") {
        return ParsedTag{};
    }
    if (tag.size() < 3 || tag[1] != '-') {
        return std::nullopt;
    }
    const char prefix = tag[0];
    if (prefix != 'B' && prefix != 'I' && prefix != 'E' && prefix != 'S') {
        return std::nullopt;
    }
    // "B-PER " (a stray space in a JSON list) would be a type of its own, apart from "PER".
    if (std::any_of(tag.begin(), tag.end(),
                    [](char c) { return static_cast<unsigned char>(c) <= ' '; })) {
        return std::nullopt;
    }
    return ParsedTag{prefix, std::string(tag.substr(2))};
}

TagScheme detectTagScheme(const std::vector<TaggedSentence>& sentences) {
    for (const auto& sentence : sentences) {
        for (const auto& tag : sentence.tags) {
            if (tag.size() >= 2 && (tag[0] == 'E' || tag[0] == 'S') && tag[1] == '-') {
                return TagScheme::Iobes;
            }
        }
    }
    return TagScheme::Bio;
}

std::vector<std::string> labelsFor(TagScheme scheme, std::vector<std::string> types) {
    std::sort(types.begin(), types.end());
    types.erase(std::unique(types.begin(), types.end()), types.end());
    std::vector<std::string> labels{"O"};
    const std::string prefixes = scheme == TagScheme::Iobes ? "BIES" : "BI";
    for (const auto& type : types) {
        for (const char prefix : prefixes) {
            labels.push_back(tagOf(prefix, type));
        }
    }
    return labels;
}

TagSummary checkTags(const std::vector<TaggedSentence>& sentences,
                     const std::filesystem::path& file) {
    TagSummary summary;
    summary.scheme = detectTagScheme(sentences);
    const bool iobes = summary.scheme == TagScheme::Iobes;
    // Where IOBES was first seen, to explain a BIO-looking tag in an IOBES file.
    std::size_t iobesLine = 0;
    if (iobes) {
        for (const auto& sentence : sentences) {
            for (std::size_t i = 0; i < sentence.tags.size() && iobesLine == 0; ++i) {
                const auto& tag = sentence.tags[i];
                if (tag.size() >= 2 && (tag[0] == 'E' || tag[0] == 'S') && tag[1] == '-') {
                    iobesLine = sentence.lineOf(i);
                }
            }
        }
    }
    const std::string mixHint = iobes ? " (the file uses IOBES, with E- and S- tags from line " +
                                            std::to_string(iobesLine) +
                                            "; BIO and IOBES cannot be mixed)"
                                      : "";
    std::set<std::string> types;
    for (const auto& sentence : sentences) {
        ++summary.sentences;
        ParsedTag previous;
        std::size_t previousLine = sentence.line;
        for (std::size_t i = 0; i < sentence.tags.size(); ++i) {
            const std::string& tag = sentence.tags[i];
            const std::size_t line = sentence.lineOf(i);
            const auto parsed = parseTag(tag);
            if (!parsed) {
                throw InputError(file, atLine(line) + "the tag " + quoteText(tag) +
                                           " is neither O nor B-, I-, E- or S- followed by an "
                                           "entity type (such as B-PER)");
            }
            // In IOBES an entity that is open must go on with I- or E- of its type.
            if (iobes && continues(previous, previous) &&
                !((parsed->prefix == 'I' || parsed->prefix == 'E') &&
                  parsed->type == previous.type)) {
                throw InputError(
                    file, atLine(previousLine) + tagOf(previous.prefix, previous.type) +
                              " is not closed by E-" + previous.type + " (line " +
                              std::to_string(line) + " reads " + quoteText(tag) + ")" + mixHint);
            }
            if ((parsed->prefix == 'I' || parsed->prefix == 'E') && !continues(previous, *parsed)) {
                const std::string after =
                    i == 0 ? "begins the sentence"
                           : "follows " + (previous.prefix == 'O'
                                               ? std::string("O")
                                               : tagOf(previous.prefix, previous.type));
                std::string problem = atLine(line) + quoteText(tag) + " " + after + ": an " +
                                      std::string(1, parsed->prefix) + "- without its B-" +
                                      parsed->type;
                if (!iobes && parsed->prefix == 'I') {
                    problem +=
                        " (if entities in this file begin with I-, as in CoNLL-2003's "
                        "original IOB1 files, convert them to BIO)";
                } else {
                    problem += mixHint;
                }
                throw InputError(file, problem);
            }
            ++summary.tagCounts[tag];
            if (parsed->prefix != 'O') {
                types.insert(parsed->type);
            }
            if (parsed->prefix == 'B' || parsed->prefix == 'S') {
                ++summary.entityCounts[parsed->type];
            }
            previous = *parsed;
            previousLine = line;
        }
        summary.words += sentence.tags.size();
        if (iobes && continues(previous, previous)) {
            throw InputError(file, atLine(previousLine) + tagOf(previous.prefix, previous.type) +
                                       " ends the sentence without E-" + previous.type + mixHint);
        }
    }
    summary.types.assign(types.begin(), types.end());
    summary.labels = labelsFor(summary.scheme, summary.types);
    return summary;
}

std::vector<std::string> toBio(const std::vector<std::string>& tags) {
    std::vector<std::string> out = tags;
    ParsedTag previous;
    for (auto& tag : out) {
        const auto parsed = parseTag(tag);
        if (!parsed) {
            previous = ParsedTag{};
            continue;
        }
        if (parsed->prefix == 'I' && !continues(previous, *parsed)) {
            tag = tagOf('B', parsed->type);
            previous = ParsedTag{'B', parsed->type};
            continue;
        }
        previous = *parsed;
    }
    return out;
}

}  // namespace bert
