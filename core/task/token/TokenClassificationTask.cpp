// Token classification (NER): a tag per word, read into entities placed in the text. The README
// example's Python mirrors predict: each text split into the words BERT Studio tags, each word
// tagged with its first token's label, the tags read into entities (seqeval's reading).
#include <cstdio>

#include "Error.h"
#include "task/Task.h"
#include "task/TaskKinds.h"
#include "tokenizer/UnicodeProperties.h"

namespace bert {

namespace {

// Token classification: each text split into the words BERT Studio tags, each word tagged with
// its first token's label, the tags read into entities (seqeval's reading), placed in the text.
constexpr const char* kTransformersWordLabels = R"PY(

def token_label_ids(words):
    """The words through the model, cut at the run's max length: the encoding, each token's label id."""
    batch = tokenizer(words, is_split_into_words=True, truncation=True, return_tensors="pt")
    with torch.no_grad():
        return batch, model(**batch).logits[0].argmax(-1).tolist()
)PY";

constexpr const char* kOnnxWordLabels = R"PY(

def token_label_ids(words):
    """The words through the model, cut at the run's max length: the encoding, each token's label id."""
    batch = tokenizer(words, is_split_into_words=True, truncation=True, return_tensors="np")
    logits = session.run(["logits"], {name: batch[name].astype(np.int64) for name in INPUTS})[0]
    return batch, logits[0].argmax(-1).tolist()
)PY";

constexpr const char* kWords = R"PY(
import unicodedata

SPACES = set("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | {
    chr(c) for c in range(0x2000, 0x200B)}
CHINESE = (CHINESE_RANGES)
SPLIT = task.get("word_split", "words")  # how the run's data was cut: "words" or "characters"


def is_mark(c):
    return ord(c) >= 0x300 and unicodedata.category(c) in ("Mn", "Mc", "Me")


def words_of(text):
    """The words BERT Studio tags, as (start, end) code point offsets into the text: runs of text
    between spaces with each Chinese character a word of its own, or every character a word when
    the run's data was cut so (CLUENER's span JSON). A combining mark stays with the character
    before it."""
    spans, start, after_character = [], None, False
    for i, c in enumerate(text):
        if c in SPACES:
            if start is not None:
                spans.append((start, i))
                start = None
            after_character = False
            continue
        if is_mark(c) and after_character and start is None and spans:
            spans[-1] = (spans[-1][0], i + 1)  # the mark of a one-character word
            continue
        if is_mark(c) and start is not None:
            continue
        after_character = True
        if SPLIT == "characters" or any(first <= ord(c) <= last for first, last in CHINESE):
            if start is not None:
                spans.append((start, i))
                start = None
            spans.append((i, i + 1))
        elif start is None:
            start = i
    if start is not None:
        spans.append((start, len(text)))
    return spans


def word_tags(words):
    """Each word's tag: its first token's label ("O" for a word past the max length)."""
    tags = ["O"] * len(words)
    if not words:
        return tags
    batch, ids = token_label_ids(words)
    seen = set()
    for token, word in enumerate(batch.word_ids()):
        if word is not None and word not in seen:
            seen.add(word)
            tags[word] = labels[ids[token]]
    return tags
)PY";

// seqeval's default reading (conlleval's chunks), for BIO tags.
constexpr const char* kBioEntities = R"PY(

def entities_of(tags):
    """The entities in tags as seqeval reads BIO (conlleval's chunks): (type, first, end)."""
    found, prev, prev_type, begin = [], "O", "", 0
    for i, tag in enumerate(tags + ["O"]):
        prefix, kind = tag[0], tag[1:].split("-", 1)[-1] or "_"
        if prev in ("E", "S") or (prev in ("B", "I") and prefix in ("B", "S", "O")) or (
                prev not in ("O", ".") and prev_type != kind):
            found.append((prev_type, begin, i))
        if prefix in ("B", "S") or (prev in ("E", "S", "O") and prefix in ("E", "I")) or (
                prefix not in ("O", ".") and prev_type != kind):
            begin = i
        prev, prev_type = prefix, kind
    return found
)PY";

// seqeval's mode="strict" with scheme=IOBES.
constexpr const char* kIobesEntities = R"PY(

def entities_of(tags):
    """The entities in tags as seqeval reads IOBES in strict mode (B- I-* E- of one type, or
    S-): (type, first, end)."""
    parsed = [(tag[0], tag[1:].strip("-") or "_") for tag in tags] + [("O", "_")]
    found, i = [], 0
    while i < len(tags):
        prefix, kind = parsed[i]
        if prefix not in ("B", "S"):
            i += 1
            continue
        end = i + 1
        while (parsed[end - 1][0] in ("B", "I") and parsed[end][0] in ("I", "E")
               and parsed[end][1] == parsed[end - 1][1]):
            end += 1
        if parsed[end - 1][0] in ("E", "S"):
            found.append((kind, i, end))
        i = end
    return found
)PY";

constexpr const char* kEntities = R"PY(

for text in texts:
    spans = words_of(text)
    tags = word_tags([text[start:end] for start, end in spans])
    entities = [{"type": kind, "text": text[spans[first][0]:spans[end - 1][1]],
                 "start": spans[first][0], "end": spans[end - 1][1] - 1}
                for kind, first, end in entities_of(tags)]
    print(json.dumps({"text": text, "entities": entities}, ensure_ascii=False))
)PY";

/// The code point ranges the words of a text split at as Chinese characters (isChineseChar,
/// BERT's own ranges), as Python tuples.
std::string chineseRanges() {
    std::string ranges;
    for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
        if (!unicode::isChineseChar(cp)) {
            continue;
        }
        const char32_t first = cp;
        while (cp < 0x10FFFF && unicode::isChineseChar(cp + 1)) {
            ++cp;
        }
        char text[40];
        std::snprintf(text, sizeof text, "(0x%X, 0x%X)", static_cast<unsigned>(first),
                      static_cast<unsigned>(cp));
        ranges += (ranges.empty() ? "" : ", ") + std::string(text);
    }
    return ranges;
}

bool usesIobes(const std::vector<std::string>& labels) {
    for (const auto& label : labels) {
        if (label.rfind("E-", 0) == 0 || label.rfind("S-", 0) == 0) {
            return true;
        }
    }
    return false;
}

nlohmann::json entitiesJson(const TextPrediction& prediction) {
    auto entities = nlohmann::json::array();
    for (const auto& entity : prediction.entities) {
        // Offsets into the original text: code points (CLUENER's start and inclusive end) and
        // bytes.
        entities.push_back({{"type", entity.type},
                            {"text", entity.text},
                            {"start", entity.charBegin},
                            {"end", entity.charEnd},
                            {"byte_start", entity.byteBegin},
                            {"byte_end", entity.byteEnd}});
    }
    return entities;
}

class TokenClassificationTask final : public Task {
public:
    TaskKind kind() const override { return TaskKind::TokenClassification; }
    std::string_view id() const override { return "token-classification"; }
    std::string_view problemType() const override { return ""; }
    bool perToken() const override { return true; }
    std::string_view description() const override {
        return "token classification (entities in the text)";
    }
    std::string_view headlineMetric() const override { return "entity_f1"; }

    TrainingData prepareData(const DataRequest& request) const override {
        return prepareTokenData(request);
    }

    void readRunSettings(TaskSettings& settings, const nlohmann::json& /*runConfig*/,
                         const nlohmann::json& report) const override {
        if (report.contains("word_split") && report["word_split"].is_string()) {
            settings.wordSplit = wordSplitFromString(report["word_split"].get<std::string>());
        }
    }
    void writeSettings(const TaskSettings& settings, nlohmann::json& block) const override {
        block["word_split"] = toString(settings.wordSplit);
    }
    void readSettings(TaskSettings& settings, const nlohmann::json& block,
                      const std::filesystem::path& source) const override {
        if (!block.contains("word_split")) {
            return;
        }
        if (!block["word_split"].is_string() ||
            (block["word_split"] != "words" && block["word_split"] != "characters")) {
            throw InputError(source, "\"word_split\" must be \"words\" or \"characters\"");
        }
        settings.wordSplit = wordSplitFromString(block["word_split"].get<std::string>());
    }

    nlohmann::json predictionJson(const TextPrediction& prediction,
                                  const PredictionContext& /*context*/) const override {
        return {{"entities", entitiesJson(prediction)}};
    }
    std::string predictionLine(const TextPrediction& prediction,
                               const PredictionContext& /*context*/) const override {
        std::string line;
        for (const auto& entity : prediction.entities) {
            line += (line.empty() ? "" : "  ") + entity.type + ": " + entity.text;
        }
        return line.empty() ? "(none)" : line;
    }
    /// A file's entities are JSON lines, {"text", "entities"}: spans do not fit a CSV cell.
    std::string outputHeader(const std::vector<std::string>& /*labels*/, bool /*withPair*/,
                             bool /*withExpected*/) const override {
        return {};
    }
    std::string outputRow(const std::string& text, const std::string* /*pair*/,
                          const std::string* /*expected*/, const TextPrediction& prediction,
                          const PredictionContext& /*context*/) const override {
        return nlohmann::json{{"text", text}, {"entities", entitiesJson(prediction)}}.dump() + "\n";
    }
    std::string_view predictionDescription() const override {
        return "the entities, each with its type, its text and its start and end (code points "
               "into the text, the end included); each word (a run of text between spaces, or a "
               "Chinese character) takes its first token's tag";
    }
    std::string pythonReading(bool onnx, const PredictionContext& context) const override {
        std::string code = onnx ? kOnnxWordLabels : kTransformersWordLabels;
        code += kWords;
        code += usesIobes(context.labels) ? kIobesEntities : kBioEntities;
        code += kEntities;
        const std::string from = "CHINESE_RANGES";
        return code.replace(code.find(from), from.size(), chineseRanges());
    }

protected:
    std::string outputPredicted(const TextPrediction& prediction,
                                const PredictionContext& context) const override {
        return predictionLine(prediction, context);
    }
};

}  // namespace

const Task& tokenClassificationTask() {
    static const TokenClassificationTask task;
    return task;
}

}  // namespace bert
