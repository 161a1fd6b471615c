#include "data/TaggedReader.h"

#include <algorithm>
#include <utility>

#include <nlohmann/json.hpp>

#include "Error.h"
#include "data/WordSplit.h"
#include "io/InputFile.h"
#include "io/Json.h"
#include "text/Utf8.h"
#include "tokenizer/UnicodeProperties.h"

namespace bert {

namespace {

std::string lowerExtension(const std::filesystem::path& file) {
    std::string extension = file.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) {
        return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    });
    return extension;
}

std::string atLine(std::size_t line) {
    return "line " + std::to_string(line) + ": ";
}

// A short, printable quote of user text for messages.
std::string quoteText(std::string_view text) {
    constexpr std::size_t kMaxQuote = 60;
    std::string shown(text.substr(0, kMaxQuote));
    if (text.size() > kMaxQuote) {
        shown += "...";
    }
    return "\"" + shown + "\"";
}

// Calls f(line text, 1-based line number) for every line, without its "\r\n" or "\n".
template <typename F>
void forEachLine(std::string_view text, F&& f) {
    std::size_t start = 0;
    std::size_t number = 1;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        const std::size_t next = end == std::string_view::npos ? text.size() : end + 1;
        end = end == std::string_view::npos ? text.size() : end;
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        f(line, number);
        start = next;
        ++number;
    }
}

bool isColumnSpace(char c) {
    return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

std::vector<std::string_view> columnsOf(std::string_view line) {
    std::vector<std::string_view> columns;
    std::size_t pos = 0;
    while (pos < line.size()) {
        while (pos < line.size() && isColumnSpace(line[pos])) {
            ++pos;
        }
        const std::size_t start = pos;
        while (pos < line.size() && !isColumnSpace(line[pos])) {
            ++pos;
        }
        if (pos > start) {
            columns.push_back(line.substr(start, pos - start));
        }
    }
    return columns;
}

void parseConll(std::string_view text, TaggedFile& out) {
    TaggedSentence current;
    current.wordPerLine = true;
    auto finish = [&] {
        if (!current.words.empty()) {
            out.sentences.push_back(std::move(current));
        }
        current = TaggedSentence();
        current.wordPerLine = true;
    };
    forEachLine(text, [&](std::string_view line, std::size_t number) {
        const auto columns = columnsOf(line);
        if (columns.empty()) {
            finish();
            return;
        }
        // CoNLL-2003 separates documents with "-DOCSTART- -X- -X- O": no sentence of its own.
        if (columns.front() == "-DOCSTART-") {
            finish();
            return;
        }
        if (columns.size() < 2) {
            throw InputError(out.source,
                             atLine(number) + "the word " + quoteText(columns.front()) +
                                 " has no tag (each line holds a word and its tag, separated by "
                                 "a space or a tab; a blank line ends a sentence)");
        }
        if (current.words.empty()) {
            current.line = number;
        }
        current.words.emplace_back(columns.front());
        current.tags.emplace_back(columns.back());
    });
    finish();
}

nlohmann::json parseLineObject(std::string_view line, std::size_t number,
                               const std::filesystem::path& source) {
    std::string problem;
    auto json = parseJson(line, problem);
    if (!problem.empty()) {
        throw InputError(source, atLine(number) + problem);
    }
    if (!json.is_object()) {
        throw InputError(source, atLine(number) + "is not a JSON object");
    }
    return json;
}

std::vector<std::string> stringList(const nlohmann::json& object, const char* key,
                                    std::size_t number, const std::filesystem::path& source) {
    const auto& value = object[key];
    if (!value.is_array()) {
        throw InputError(source, atLine(number) + "\"" + key +
                                     "\" must be a list of strings, not " +
                                     quoteText(value.dump()));
    }
    std::vector<std::string> items;
    items.reserve(value.size());
    for (std::size_t i = 0; i < value.size(); ++i) {
        if (!value[i].is_string()) {
            std::string problem = "\"" + std::string(key) + "\" item " + std::to_string(i + 1) +
                                  " must be a string, not " + quoteText(value[i].dump());
            if (value[i].is_number() && std::string_view(key) == "ner_tags") {
                problem +=
                    " (numbered tags need their names: write \"tags\" as strings such as "
                    "\"B-PER\")";
            }
            throw InputError(source, atLine(number) + problem);
        }
        items.push_back(value[i].get<std::string>());
    }
    return items;
}

void parseTokensJsonl(std::string_view text, TaggedFile& out) {
    forEachLine(text, [&](std::string_view line, std::size_t number) {
        if (columnsOf(line).empty()) {
            return;
        }
        const auto json = parseLineObject(line, number, out.source);
        if (!json.contains("tokens")) {
            throw InputError(out.source, atLine(number) + "has no \"tokens\" list");
        }
        const char* tagsKey = json.contains("tags") ? "tags" : "ner_tags";
        if (!json.contains(tagsKey)) {
            throw InputError(out.source, atLine(number) + "has no \"tags\" list");
        }
        TaggedSentence sentence;
        sentence.line = number;
        sentence.words = stringList(json, "tokens", number, out.source);
        sentence.tags = stringList(json, tagsKey, number, out.source);
        if (sentence.words.size() != sentence.tags.size()) {
            throw InputError(out.source, atLine(number) + std::to_string(sentence.words.size()) +
                                             " tokens but " + std::to_string(sentence.tags.size()) +
                                             " tags");
        }
        if (!sentence.words.empty()) {
            out.sentences.push_back(std::move(sentence));
        }
    });
}

// An entity's [start, end] (code points, end inclusive) read from CLUENER's pair.
std::pair<std::size_t, std::size_t> spanOf(const nlohmann::json& pair, const std::string& where,
                                           std::size_t chars, std::size_t number,
                                           const std::filesystem::path& source) {
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() ||
        !pair[1].is_number_integer()) {
        throw InputError(source, atLine(number) + where + ": a span must be [start, end], not " +
                                     quoteText(pair.dump()));
    }
    const auto start = pair[0].get<std::int64_t>();
    const auto end = pair[1].get<std::int64_t>();
    if (start < 0 || end < start || static_cast<std::uint64_t>(end) >= chars) {
        throw InputError(source, atLine(number) + where + ": the span " + pair.dump() +
                                     " is outside the text (" + std::to_string(chars) +
                                     " characters; offsets count characters from 0, the end "
                                     "included)");
    }
    return {static_cast<std::size_t>(start), static_cast<std::size_t>(end)};
}

void parseSpanJson(std::string_view text, TaggedFile& out) {
    forEachLine(text, [&](std::string_view line, std::size_t number) {
        if (columnsOf(line).empty()) {
            return;
        }
        const auto json = parseLineObject(line, number, out.source);
        if (!json.contains("text") || !json["text"].is_string()) {
            throw InputError(out.source, atLine(number) + "has no \"text\" string");
        }
        TaggedSentence sentence;
        sentence.line = number;
        sentence.text = json["text"].get<std::string>();
        // Code points with their byte offsets: CLUENER counts characters, not bytes.
        std::vector<std::size_t> charBytes;
        for (std::size_t pos = 0; pos < sentence.text.size();) {
            charBytes.push_back(pos);
            utf8::decode(sentence.text, pos);
        }
        const std::size_t chars = charBytes.size();
        charBytes.push_back(sentence.text.size());
        // Which entity covers each character (-1: none), to refuse overlaps.
        std::vector<std::ptrdiff_t> owner(chars, -1);
        struct Entity {
            std::string type;
            std::size_t start;
            std::size_t end;
        };
        std::vector<Entity> entities;
        const auto label = json.find("label");
        if (label != json.end() && !label->is_null()) {
            if (!label->is_object()) {
                throw InputError(out.source,
                                 atLine(number) + "\"label\" must map each type to its entities");
            }
            for (const auto& [type, mentions] : label->items()) {
                // The type becomes part of the tags ("B-" + type), which hold no spaces.
                if (type.empty() || std::any_of(type.begin(), type.end(), [](char c) {
                        return static_cast<unsigned char>(c) <= ' ';
                    })) {
                    throw InputError(out.source, atLine(number) + "the entity type " +
                                                     quoteText(type) +
                                                     " is empty or holds a space or a control "
                                                     "character");
                }
                if (!mentions.is_object()) {
                    throw InputError(out.source, atLine(number) + "type " + quoteText(type) +
                                                     " must map each entity text to its spans");
                }
                for (const auto& [mention, spans] : mentions.items()) {
                    const std::string where = "entity " + quoteText(mention) + " (" + type + ")";
                    if (!spans.is_array()) {
                        throw InputError(out.source, atLine(number) + where +
                                                         ": the spans must be a list of [start, "
                                                         "end] pairs");
                    }
                    for (const auto& pair : spans) {
                        const auto [start, end] = spanOf(pair, where, chars, number, out.source);
                        const std::string_view at =
                            std::string_view(sentence.text)
                                .substr(charBytes[start], charBytes[end + 1] - charBytes[start]);
                        if (at != mention) {
                            throw InputError(out.source, atLine(number) + where +
                                                             " does not match the text at " +
                                                             pair.dump() + ", which reads " +
                                                             quoteText(at));
                        }
                        if (owner[start] >= 0) {
                            const Entity& same = entities[static_cast<std::size_t>(owner[start])];
                            if (same.type == type && same.start == start && same.end == end) {
                                continue;  // the same entity listed twice: one entity
                            }
                        }
                        for (std::size_t c = start; c <= end; ++c) {
                            if (owner[c] >= 0) {
                                const Entity& other = entities[static_cast<std::size_t>(owner[c])];
                                throw InputError(
                                    out.source, atLine(number) + where + " at " + pair.dump() +
                                                    " overlaps the " + other.type + " entity at [" +
                                                    std::to_string(other.start) + ", " +
                                                    std::to_string(other.end) +
                                                    "] (tags give each character one entity)");
                            }
                        }
                        for (std::size_t c = start; c <= end; ++c) {
                            owner[c] = static_cast<std::ptrdiff_t>(entities.size());
                        }
                        entities.push_back({type, start, end});
                    }
                }
            }
        }
        // Every character but whitespace is a word (data/WordSplit.h, as predict cuts the
        // text); the first word of an entity gets B-.
        std::ptrdiff_t previousOwner = -1;
        for (const auto& span : splitWords(sentence.text, WordSplit::Characters)) {
            const std::size_t c = span.charIndex;
            sentence.words.emplace_back(
                sentence.text.substr(span.byteBegin, span.byteEnd - span.byteBegin));
            sentence.wordSpans.push_back(span);
            if (owner[c] < 0) {
                sentence.tags.emplace_back("O");
            } else {
                const auto& type = entities[static_cast<std::size_t>(owner[c])].type;
                sentence.tags.push_back((owner[c] == previousOwner ? "I-" : "B-") + type);
            }
            previousOwner = owner[c];
        }
        if (!sentence.words.empty()) {
            out.sentences.push_back(std::move(sentence));
        }
    });
}

}  // namespace

std::string taggedFormatName(TaggedFormat format) {
    switch (format) {
        case TaggedFormat::Conll:
            return "CoNLL";
        case TaggedFormat::TokensJsonl:
            return "JSONL tokens/tags";
        case TaggedFormat::SpanJson:
            return "span JSON";
    }
    return "?";
}

bool looksLikeConll(std::string_view content) {
    if (content.substr(0, 3) == "\xEF\xBB\xBF") {
        content.remove_prefix(3);
    }
    constexpr std::size_t kLinesLooked = 2000;
    std::size_t words = 0;
    std::size_t tagged = 0;  // lines whose last column is a tag
    std::size_t entities = 0;
    std::size_t breaks = 0;
    std::size_t looked = 0;
    bool stop = false;
    forEachLine(content, [&](std::string_view line, std::size_t) {
        if (stop || ++looked > kLinesLooked) {
            stop = true;
            return;
        }
        const auto columns = columnsOf(line);
        if (columns.empty()) {
            breaks += words > 0 ? 1 : 0;
            return;
        }
        if (columns.front() == "-DOCSTART-") {
            return;
        }
        ++words;
        if (columns.size() < 2) {
            return;
        }
        const auto tag = columns.back();
        const bool outside = tag == "O";
        const bool entity = tag.size() > 2 && (tag[1] == '-' || tag[1] == '_') &&
                            std::string_view("BIESLU").find(tag[0]) != std::string_view::npos;
        tagged += outside || entity ? 1 : 0;
        entities += entity ? 1 : 0;
    });
    // Nearly every line a word and a BIO/IOBES tag, some of them entities, and sentences
    // apart; a table of text and label has neither.
    return words >= 2 && tagged * 100 >= words * 95 && entities > 0 && (breaks > 0 || words < 50);
}

TaggedFormat taggedFormatOf(const std::filesystem::path& file, std::string_view content) {
    const std::string extension = lowerExtension(file);
    if (extension == ".conll" || extension == ".bio" || extension == ".iob" ||
        extension == ".txt" || extension == ".tsv") {
        return TaggedFormat::Conll;
    }
    if (extension == ".json" || extension == ".jsonl" || extension == ".ndjson") {
        TaggedFormat format = TaggedFormat::TokensJsonl;
        bool decided = false;
        forEachLine(content, [&](std::string_view line, std::size_t) {
            if (decided || columnsOf(line).empty()) {
                return;
            }
            decided = true;
            std::string problem;
            const auto json = parseJson(utf8::sanitize(line), problem);
            if (problem.empty() && json.is_object() && json.contains("text") &&
                !json.contains("tokens")) {
                format = TaggedFormat::SpanJson;
            }
        });
        return format;
    }
    throw InputError(file,
                     "has an extension that holds no tagged data (use .conll, .bio, .iob or .txt "
                     "for a word and its tag per line, .jsonl for tokens and tags, .json or "
                     ".jsonl for CLUENER's spans)");
}

TaggedFile parseTagged(std::string_view content, TaggedFormat format,
                       const std::filesystem::path& source) {
    TaggedFile out;
    out.source = source;
    out.format = format;
    // A byte-order mark is no part of the first word.
    if (content.substr(0, 3) == "\xEF\xBB\xBF") {
        content.remove_prefix(3);
    }
    const std::string text = utf8::sanitize(content);
    switch (format) {
        case TaggedFormat::Conll:
            parseConll(text, out);
            break;
        case TaggedFormat::TokensJsonl:
            parseTokensJsonl(text, out);
            break;
        case TaggedFormat::SpanJson:
            parseSpanJson(text, out);
            break;
    }
    return out;
}

namespace {

TaggedFile readWhole(const std::filesystem::path& file, const TaggedFormat* format) {
    const std::string content = readInputFile(file, input_limits::kDataset);
    const TaggedFormat chosen = format != nullptr ? *format : taggedFormatOf(file, content);
    auto tagged = parseTagged(content, chosen, file);
    if (tagged.sentences.empty()) {
        throw InputError(file,
                         "holds no tagged sentence (read as " + taggedFormatName(chosen) + ")");
    }
    return tagged;
}

}  // namespace

TaggedFile readTaggedFile(const std::filesystem::path& file, TaggedFormat format) {
    return readWhole(file, &format);
}

TaggedFile readTaggedFile(const std::filesystem::path& file) {
    return readWhole(file, nullptr);
}

}  // namespace bert
