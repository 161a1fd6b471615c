#include "data/Dataset.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "Error.h"
#include "io/InputFile.h"
#include "text/Utf8.h"

namespace bert {

namespace {

// FNV-1a, 64 bits: a fingerprint to recognise the same data, not a security hash.
constexpr std::uint64_t kFnvOffset = 1469598103934665603ULL;
constexpr std::uint64_t kFnvPrime = 1099511628211ULL;

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash = kFnvOffset) {
    for (const char c : bytes) {
        hash ^= static_cast<unsigned char>(c);
        hash *= kFnvPrime;
    }
    return hash;
}

bool isBlank(const std::string& text) {
    return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

}  // namespace

std::string invalidLabelProblem(std::size_t line, const std::string& label, unsigned char byte) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(byte));
    return "line " + std::to_string(line) + ": the label \"" + label + "\" holds byte " + hex +
           ", which is not UTF-8 (labels that differ only there would become one); save the "
           "file as UTF-8";
}

std::vector<std::string> readingNotes(std::size_t skippedEmpty, std::size_t firstSkippedLine,
                                      std::size_t invalidUtf8Replaced, const std::string& encoding,
                                      const RemovedControls& removedControls, bool labelRequired) {
    std::vector<std::string> notes;
    if (skippedEmpty > 0) {
        notes.push_back(std::string(labelRequired ? "rows without text or label skipped: "
                                                  : "rows without text skipped: ") +
                        std::to_string(skippedEmpty) + " (the first on line " +
                        std::to_string(firstSkippedLine) + ")");
    }
    if (!encoding.empty()) {
        notes.push_back("read as " + encoding + " (the file is not UTF-8)");
    }
    if (invalidUtf8Replaced > 0) {
        notes.push_back("invalid UTF-8 sequences replaced: " + std::to_string(invalidUtf8Replaced));
    }
    if (removedControls.count > 0) {
        notes.push_back(removedControls.describe());
    }
    return notes;
}

std::vector<std::string> readingNotes(const ExampleSet& set, bool labelRequired) {
    return readingNotes(set.skippedEmpty, set.firstSkippedLine, set.invalidUtf8Replaced,
                        set.encoding, set.removedControls, labelRequired);
}

void copyReadingNotes(const ExampleSet& from, ExampleSet& to) {
    to.skippedEmpty = from.skippedEmpty;
    to.firstSkippedLine = from.firstSkippedLine;
    to.invalidUtf8Replaced = from.invalidUtf8Replaced;
    to.encoding = from.encoding;
    to.removedControls = from.removedControls;
}

namespace {
void noteTable(const Table& table, ExampleSet& set) {
    set.invalidUtf8Replaced = table.invalidUtf8Replaced;
    set.encoding = table.encoding;
    set.removedControls = table.removedControls;
}
void noteSkipped(ExampleSet& set, std::size_t line) {
    if (set.skippedEmpty++ == 0) {
        set.firstSkippedLine = line;
    }
}
}  // namespace

std::string datasetFingerprint(const std::filesystem::path& file, const ColumnSpec& columns) {
    std::uint64_t hash = fnv1a(readInputFile(file, input_limits::kDataset));
    hash = fnv1a(columns.text + '\x1f' + columns.textPair + '\x1f' + columns.label, hash);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return hex;
}

std::size_t requireColumn(const Table& table, const std::string& name, const std::string& role,
                          const std::filesystem::path& file) {
    const auto index = table.columnIndex(name);
    if (!index) {
        std::string found;
        for (const auto& column : table.columns) {
            found += (found.empty() ? "" : ", ") + ("\"" + column + "\"");
        }
        throw InputError(
            file, "has no " + role + " column \"" + name + "\"; the columns found are " + found);
    }
    return *index;
}

TextRows loadTextRows(const std::filesystem::path& file, const ColumnSpec& columns) {
    TextRows out;
    out.table = readTable(file);
    const std::size_t textIndex = requireColumn(out.table, columns.text, "text", file);
    std::optional<std::size_t> pairIndex;
    if (!columns.textPair.empty()) {
        pairIndex = requireColumn(out.table, columns.textPair, "second text", file);
    }
    out.set.file = file;
    noteTable(out.table, out.set);
    out.set.fingerprint = datasetFingerprint(file, columns);
    for (std::size_t r = 0; r < out.table.rows.size(); ++r) {
        const auto& row = out.table.rows[r];
        if (isBlank(row[textIndex])) {
            noteSkipped(out.set, out.table.lines[r]);
            continue;
        }
        out.set.examples.push_back(
            {row[textIndex], pairIndex ? row[*pairIndex] : std::string(), {}, out.table.lines[r]});
        out.rows.push_back(r);
    }
    if (out.set.examples.empty()) {
        throw InputError(file, "has no rows with a text");
    }
    return out;
}

std::vector<std::size_t> randomValidationRows(std::size_t count, double validationFraction,
                                              std::uint64_t seed) {
    if (!(validationFraction > 0.0 && validationFraction < 1.0)) {
        throw InputError("the validation fraction must lie between 0 and 1");
    }
    std::vector<std::size_t> rows(count);
    for (std::size_t i = 0; i < count; ++i) {
        rows[i] = i;
    }
    std::mt19937_64 random(seed);
    std::shuffle(rows.begin(), rows.end(), random);
    rows.resize(stratifiedValidationCount(count, validationFraction));
    std::sort(rows.begin(), rows.end());
    return rows;
}

ExampleSet loadExamples(const std::filesystem::path& file, const ColumnSpec& columns,
                        std::optional<TableFormat> format) {
    const Table table = readTable(file, format);
    auto require = [&](const std::string& name, const char* role) {
        return requireColumn(table, name, role, file);
    };
    const std::size_t textIndex = require(columns.text, "text");
    const std::size_t labelIndex = require(columns.label, "label");
    std::optional<std::size_t> pairIndex;
    if (!columns.textPair.empty()) {
        pairIndex = require(columns.textPair, "second text");
    }
    ExampleSet set;
    set.file = file;
    noteTable(table, set);
    set.fingerprint = datasetFingerprint(file, columns);
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const auto& row = table.rows[r];
        Example example{row[textIndex], pairIndex ? row[*pairIndex] : std::string(),
                        row[labelIndex], table.lines[r]};
        if (isBlank(example.text) || isBlank(example.label)) {
            noteSkipped(set, table.lines[r]);
            continue;
        }
        if (const auto* invalid = table.invalidUtf8At(r, labelIndex)) {
            throw InputError(file,
                             invalidLabelProblem(table.lines[r], example.label, invalid->byte));
        }
        set.examples.push_back(std::move(example));
    }
    if (set.examples.empty()) {
        throw InputError(file, "has no rows with both a text and a label");
    }
    return set;
}

std::optional<std::int64_t> LabelMap::id(const std::string& name) const {
    const auto it = std::lower_bound(names.begin(), names.end(), name);
    if (it == names.end() || *it != name) {
        return std::nullopt;
    }
    return static_cast<std::int64_t>(it - names.begin());
}

LabelMap buildLabelMap(const ExampleSet& train) {
    std::set<std::string> names;
    for (const auto& example : train.examples) {
        names.insert(example.label);
    }
    if (names.size() < 2) {
        throw InputError(train.file, "has a single class (\"" + *names.begin() +
                                         "\"); a classifier needs at least two labels");
    }
    return LabelMap{{names.begin(), names.end()}};
}

void checkValidationLabels(const LabelMap& labels, const ExampleSet& validation) {
    std::set<std::string> unseen;
    for (const auto& example : validation.examples) {
        if (!labels.id(example.label)) {
            unseen.insert(example.label);
        }
    }
    if (!unseen.empty()) {
        std::string list;
        for (const auto& label : unseen) {
            list += (list.empty() ? "\"" : ", \"") + label + "\"";
        }
        throw InputError(validation.file,
                         "has label(s) " + list + " that the training data never shows");
    }
}

std::size_t stratifiedValidationCount(std::size_t classSize, double validationFraction) {
    if (classSize < 2) {
        return 0;  // a class of one example stays in training
    }
    const auto take =
        static_cast<std::size_t>(static_cast<double>(classSize) * validationFraction + 0.5);
    return std::clamp<std::size_t>(take, 1, classSize - 1);
}

Split stratifiedSplit(const ExampleSet& all, double validationFraction, std::uint64_t seed) {
    if (!(validationFraction > 0.0 && validationFraction < 1.0)) {
        throw InputError("the validation fraction must lie between 0 and 1");
    }
    std::map<std::string, std::vector<std::size_t>> byLabel;
    for (std::size_t i = 0; i < all.examples.size(); ++i) {
        byLabel[all.examples[i].label].push_back(i);
    }
    std::mt19937_64 random(seed);
    std::vector<bool> inValidation(all.examples.size(), false);
    for (auto& [label, indices] : byLabel) {
        std::shuffle(indices.begin(), indices.end(), random);
        const auto take = stratifiedValidationCount(indices.size(), validationFraction);
        for (std::size_t k = 0; k < take; ++k) {
            inValidation[indices[k]] = true;
        }
    }
    Split split;
    for (ExampleSet* part : {&split.train, &split.validation}) {
        part->file = all.file;
        part->fingerprint = all.fingerprint;
    }
    copyReadingNotes(all, split.train);
    for (std::size_t i = 0; i < all.examples.size(); ++i) {
        (inValidation[i] ? split.validation : split.train).examples.push_back(all.examples[i]);
    }
    return split;
}

TokenizedSet tokenizeExamples(const ExampleSet& set, const Tokenizer& tokenizer,
                              const LabelMap& labels, std::size_t maxLength, std::size_t threads) {
    std::vector<std::int64_t> ids;
    ids.reserve(set.examples.size());
    for (const auto& example : set.examples) {
        const auto id = labels.id(example.label);
        if (!id) {
            throw InputError(set.file, "line " + std::to_string(example.line) + ": label \"" +
                                           example.label + "\" is not one of the run's labels");
        }
        ids.push_back(*id);
    }
    auto out = tokenizeTexts(set, tokenizer, maxLength, threads);
    out.labels = std::move(ids);
    return out;
}

TokenizedSet tokenizeTexts(const ExampleSet& set, const Tokenizer& tokenizer, std::size_t maxLength,
                           std::size_t threads) {
    // Below this many examples per thread, starting threads costs more than it saves.
    constexpr std::size_t kExamplesPerThread = 2048;
    const std::size_t count = set.examples.size();
    TokenizedSet out;
    out.encodings.resize(count);
    // Contiguous shares, one per thread: the tokenizer is safe for concurrent encoding, and the
    // encodings come out in the examples' order whatever the number of threads.
    auto encodeRange = [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const auto& example = set.examples[i];
            out.encodings[i] = example.pair.empty()
                                   ? tokenizer.encode(example.text, maxLength)
                                   : tokenizer.encodePair(example.text, example.pair, maxLength);
        }
    };
    if (threads == 0) {
        threads = std::max(1U, std::thread::hardware_concurrency());
    }
    threads = std::max<std::size_t>(1, std::min(threads, count / kExamplesPerThread));
    if (threads == 1) {
        encodeRange(0, count);
    } else {
        std::vector<std::exception_ptr> failures(threads);
        std::vector<std::thread> workers;
        for (std::size_t t = 0; t < threads; ++t) {
            workers.emplace_back([&, t] {
                try {
                    encodeRange(count * t / threads, count * (t + 1) / threads);
                } catch (...) {
                    failures[t] = std::current_exception();
                }
            });
        }
        for (auto& worker : workers) {
            worker.join();
        }
        for (const auto& failure : failures) {
            if (failure) {
                std::rethrow_exception(failure);
            }
        }
    }
    out.lengths.reserve(count);
    for (const auto& encoding : out.encodings) {
        out.lengths.push_back(encoding.size());
    }
    return out;
}

std::vector<ExampleSource> sourcesOf(const ExampleSet& set) {
    std::vector<ExampleSource> sources;
    sources.reserve(set.examples.size());
    for (const auto& example : set.examples) {
        ExampleSource source;
        source.line = example.line;
        source.text = utf8::prefix(example.text, kExampleTextBytes);
        source.pair = utf8::prefix(example.pair, kExampleTextBytes);
        sources.push_back(std::move(source));
    }
    return sources;
}

std::vector<std::size_t> labelCounts(const ExampleSet& set, const LabelMap& labels) {
    std::vector<std::size_t> counts(labels.size(), 0);
    for (const auto& example : set.examples) {
        if (const auto id = labels.id(example.label)) {
            ++counts[static_cast<std::size_t>(*id)];
        }
    }
    return counts;
}

}  // namespace bert
