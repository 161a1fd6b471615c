#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace bert {

/// The layouts token classification (NER) data comes in.
enum class TaggedFormat {
    /// CoNLL style (.conll, .bio, .iob, .txt, .tsv): a word and its tag per line,
    /// whitespace-separated,
    /// the word first and the tag last (CoNLL-2003's part-of-speech and chunk columns between
    /// them are ignored); a blank line between sentences; `-DOCSTART-` lines skipped.
    Conll,
    /// JSON lines with a `tokens` list and a `tags` list (or `ner_tags` holding tag names).
    TokensJsonl,
    /// CLUENER's span layout, one object per line: {"text": ..., "label": {"TYPE": {"entity
    /// text": [[start, end_inclusive], ...]}}} with offsets in code points. Each code point of
    /// the text becomes a word (whitespace is dropped as a word, its offsets kept), tagged BIO:
    /// the character-level tagging Chinese NER models are trained on.
    SpanJson,
};

/// Where one word sits in a span-JSON sentence's original text, so that predicted entities can
/// be written back as offsets into it (bytes for the program, code points for CLUENER's files).
struct WordSpan {
    std::size_t byteBegin = 0;  ///< first byte of the word in TaggedSentence::text
    std::size_t byteEnd = 0;    ///< one past its last byte
    std::size_t charIndex = 0;  ///< its code point index in the text (CLUENER's offsets)
};

/// One tagged sentence as read, before any check of its tags (see task/token/TagScheme.h).
struct TaggedSentence {
    std::vector<std::string> words;
    std::vector<std::string> tags;  ///< one per word, as written in the file
    std::size_t line = 0;           ///< the 1-based line of the file the sentence starts on
    /// CoNLL: word i sits on line `line + i`; the other layouts hold a sentence on one line.
    bool wordPerLine = false;
    /// Span JSON only: the original text and each word's place in it; empty otherwise.
    std::string text;
    std::vector<WordSpan> wordSpans;

    /// The 1-based line of word i, for messages.
    std::size_t lineOf(std::size_t word) const { return wordPerLine ? line + word : line; }
};

/// A tagged file: its sentences, in order.
struct TaggedFile {
    std::filesystem::path source;
    TaggedFormat format = TaggedFormat::Conll;
    std::vector<TaggedSentence> sentences;
};

/// Whether content reads as CoNLL: nearly every non-blank line a word and, last, a BIO or IOBES
/// tag ("O", "B-PER", "I_LOC", "S-ORG"...), some of them entities, with blank lines between
/// sentences (looked at over the first 2,000 lines). How a .txt or .tsv file is known as CoNLL.
bool looksLikeConll(std::string_view content);

/// The layout of a file from its extension and, for .json/.jsonl/.ndjson, from its first
/// object's keys ("text" and "label" for span JSON, "tokens" otherwise). Throws InputError for
/// an extension that holds no tagged data.
TaggedFormat taggedFormatOf(const std::filesystem::path& file, std::string_view content);

/// Reads a tagged file, guessing its layout with taggedFormatOf. Throws InputError naming the
/// file, the line and the problem: a word without a tag, tokens and tags of different lengths,
/// a span outside the text or overlapping another, an entity text that is not the text at its
/// span, invalid JSON, a file with no sentence at all. Invalid UTF-8 reads as U+FFFD, as in the
/// table reader.
TaggedFile readTaggedFile(const std::filesystem::path& file);
/// Reads a tagged file in the given layout.
TaggedFile readTaggedFile(const std::filesystem::path& file, TaggedFormat format);
/// Parses content in the given layout; source names it in errors. The same checks as
/// readTaggedFile, except that no sentence at all is accepted (an empty list).
TaggedFile parseTagged(std::string_view content, TaggedFormat format,
                       const std::filesystem::path& source);

/// "CoNLL", "JSONL tokens/tags", "span JSON", for people.
std::string taggedFormatName(TaggedFormat format);

}  // namespace bert
