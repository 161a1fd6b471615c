#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "data/TableReader.h"
#include "tokenizer/Tokenizer.h"

namespace bert {

/// Which columns hold what. textPair is empty for single-text classification.
struct ColumnSpec {
    std::string text = "text";
    std::string textPair;
    std::string label = "label";
};

struct Example {
    std::string text;
    std::string pair;
    std::string label;
    std::size_t line = 0;  ///< where it starts in its file, for messages
};

/// The examples of one file and what was done to them on the way in.
struct ExampleSet {
    std::filesystem::path file;
    std::vector<Example> examples;
    std::size_t skippedEmpty = 0;         ///< rows whose text (or label) was empty
    std::size_t firstSkippedLine = 0;     ///< the first of them, 0 when none
    std::size_t invalidUtf8Replaced = 0;  ///< invalid UTF-8 sequences replaced by U+FFFD
    std::string encoding;                 ///< Table::encoding: empty for UTF-8
    RemovedControls removedControls;      ///< stray control characters removed from fields
    std::string fingerprint;              ///< 16 hex digits over the file's bytes and the columns
};

/// What reading a file left out or mended, one English sentence each, for a run's log and
/// predict (none when nothing was): "rows without text or label skipped: 3 (the first on line
/// 7)" (without "or label" where no label is required), "read as Windows-1252 (the file is not
/// UTF-8)", "invalid UTF-8 sequences replaced: 2", RemovedControls::describe().
std::vector<std::string> readingNotes(std::size_t skippedEmpty, std::size_t firstSkippedLine,
                                      std::size_t invalidUtf8Replaced, const std::string& encoding,
                                      const RemovedControls& removedControls, bool labelRequired);
std::vector<std::string> readingNotes(const ExampleSet& set, bool labelRequired);

/// "line 7: the label \"caf\uFFFD\" holds byte 0xE9, which is not UTF-8 (...); save the file as
/// UTF-8": why a label cell where reading replaced invalid UTF-8 is refused.
std::string invalidLabelProblem(std::size_t line, const std::string& label, unsigned char byte);

/// Copies what reading did (skipped rows, encoding, mending) from one set to another.
void copyReadingNotes(const ExampleSet& from, ExampleSet& to);

/// 16 hex digits over a data file's bytes and the columns read from it: a run's data
/// fingerprint, to recognise the same data (not a security hash).
std::string datasetFingerprint(const std::filesystem::path& file, const ColumnSpec& columns);

/// Reads a CSV/TSV/JSONL file and picks the columns. Throws InputError naming the file: a column
/// missing (the message lists the columns found), a label holding invalid UTF-8 (labels that
/// differ only there would merge into one: the line and the byte are named), and whatever
/// readTable rejects.
ExampleSet loadExamples(const std::filesystem::path& file, const ColumnSpec& columns,
                        std::optional<TableFormat> format = std::nullopt);

/// Label names in a stable order (sorted), id = position. Stored with each run.
struct LabelMap {
    std::vector<std::string> names;
    std::optional<std::int64_t> id(const std::string& name) const;
    std::size_t size() const { return names.size(); }
};

/// The texts of a file whose targets are not one label per row (multi-label, regression): every
/// row with a text, its label left empty, and the table (rows[i] is examples[i]'s row) from
/// which the task reads its targets. Throws InputError naming the file for a text column
/// missing, and whatever readTable rejects.
struct TextRows {
    ExampleSet set;
    Table table;
    std::vector<std::size_t> rows;
};
TextRows loadTextRows(const std::filesystem::path& file, const ColumnSpec& columns);

/// The index of a column of table, or InputError naming file, the role ("text", "label") and
/// the columns found.
std::size_t requireColumn(const Table& table, const std::string& name, const std::string& role,
                          const std::filesystem::path& file);

/// A seeded split of count rows that has no classes to stratify by: validationFraction of them
/// (rounded, at least one, never all) held out. Returns the held-out row numbers, sorted.
std::vector<std::size_t> randomValidationRows(std::size_t count, double validationFraction,
                                              std::uint64_t seed);

/// The label map of the training examples. Throws InputError when there is only one class.
LabelMap buildLabelMap(const ExampleSet& train);

/// Throws InputError naming the file when validation has labels that training never saw.
void checkValidationLabels(const LabelMap& labels, const ExampleSet& validation);

/// Stratified split: in every class, validationFraction of its examples (rounded, at least one
/// when the class has two or more) go to validation, chosen by a seeded shuffle.
struct Split {
    ExampleSet train;
    ExampleSet validation;
};
Split stratifiedSplit(const ExampleSet& all, double validationFraction, std::uint64_t seed);
/// How many of a class's examples stratifiedSplit holds out: the rounded share, at least one
/// and never all (none of a class of one).
std::size_t stratifiedValidationCount(std::size_t classSize, double validationFraction);

/// Where a validation example comes from, for its per-example results (task/ExampleResults.h):
/// its line in its file and its text (and a pair's second text), each cut to kExampleTextBytes;
/// a tagged sentence's words too, which its entities are quoted from.
struct ExampleSource {
    std::size_t line = 0;
    std::string text;
    std::string pair;
    std::vector<std::string> words;
};
/// The most of a text an example's source keeps: enough to read it and try it again, bounded
/// so that a large validation set of long e-mails stays a few MiB.
inline constexpr std::size_t kExampleTextBytes = 1000;
/// The sources of set's examples, in order.
std::vector<ExampleSource> sourcesOf(const ExampleSet& set);

/// Examples tokenized once (truncated to maxLength), with their targets and token counts kept.
/// Which target vector is filled follows the run's task (task/TaskKind.h); the others are empty.
struct TokenizedSet {
    std::vector<Encoding> encodings;
    /// Single-label: each example's class id.
    std::vector<std::int64_t> labels;
    /// Multi-label: each example's 0/1 row over the labels; regression: its one target
    /// (standardised when the run standardises).
    std::vector<std::vector<float>> targets;
    /// Regression: each example's target as read, in double, for the metrics (targets holds it
    /// as the float training needs, which cannot tell 1000000.001 from 1000000).
    std::vector<double> values;
    /// Token classification: each token's tag id, kIgnoredLabel (tokenizer/WordEncoding.h)
    /// where none is learnt: special tokens, a word's later sub-words.
    std::vector<std::vector<std::int64_t>> tokenLabels;
    std::vector<std::size_t> lengths;
    /// Long texts cut into windows (data/LongText.h): the document (example of the file) each
    /// window comes from, in order, a document's windows next to each other; empty when every
    /// example is its own document.
    std::vector<std::size_t> documents;
    /// Validation sets (and their documents): each example's source (ExampleSource), whose
    /// per-example results name it; empty for training sets and windows.
    std::vector<ExampleSource> sources;

    std::size_t size() const { return encodings.size(); }
};
/// Tokenizes set's examples to maxLength, in their order, on `threads` threads (0: one per
/// core; sets of a few thousand examples stay on one). Throws InputError naming the file and
/// line of an example whose label is not in labels.
TokenizedSet tokenizeExamples(const ExampleSet& set, const Tokenizer& tokenizer,
                              const LabelMap& labels, std::size_t maxLength,
                              std::size_t threads = 0);

/// The encodings and lengths of set's texts alone (tokenizeExamples without labels).
TokenizedSet tokenizeTexts(const ExampleSet& set, const Tokenizer& tokenizer, std::size_t maxLength,
                           std::size_t threads = 0);

/// Per-label example counts, in label-map order.
std::vector<std::size_t> labelCounts(const ExampleSet& set, const LabelMap& labels);

}  // namespace bert
