#include "runs/RunExportReadme.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "runs/RunCompare.h"
#include "tokenizer/UnicodeProperties.h"
#include "train/Metrics.h"

namespace bert {

namespace {

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
    return text;
}

std::string number(double value, const char* format = "%.4f") {
    char text[48];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

std::string taskName(TaskKind kind) {
    switch (kind) {
        case TaskKind::SingleLabel:
            return "single-label classification (one label per text)";
        case TaskKind::MultiLabel:
            return "multi-label classification (any number of labels per text)";
        case TaskKind::Regression:
            return "regression (a number per text)";
        case TaskKind::TokenClassification:
            return "token classification (entities in the text)";
    }
    return toString(kind);
}

// ---- the Python examples: header, then the task's reading of the outputs ---------------------

// Each header ends with the texts line; "FOLDER" is the folder as a Python string literal,
// "INPUTS" the ONNX graph's input names as a Python tuple.
constexpr const char* kTransformersHeader = R"PY(import json

import torch
from transformers import AutoModelForMODEL_CLASS, AutoTokenizer

folder = FOLDER
tokenizer = AutoTokenizer.from_pretrained(folder)
model = AutoModelForMODEL_CLASS.from_pretrained(folder).eval()
labels = model.config.id2label
task = getattr(model.config, "bert_studio_task", {})  # the threshold, the target's scaling
TEXTS
)PY";

constexpr const char* kOnnxHeader = R"PY(import json

import numpy as np
import onnxruntime as ort
from transformers import AutoTokenizer

folder = FOLDER
tokenizer = AutoTokenizer.from_pretrained(folder)
session = ort.InferenceSession(folder + "/model.onnx")
with open(folder + "/config.json", encoding="utf-8") as file:
    config = json.load(file)
labels = {int(i): label for i, label in config["id2label"].items()}
task = config.get("bert_studio_task", {})  # the threshold, the target's scaling
TEXTS
)PY";

// Sequence tasks: the texts through the model, cut at the run's max length (the exported
// tokenizer_config.json's model_max_length).
constexpr const char* kTransformersLogits = R"PY(
batch = tokenizer(texts, padding=True, truncation=True, return_tensors="pt")
with torch.no_grad():
    logits = model(**batch).logits.float()
)PY";

constexpr const char* kOnnxLogits = R"PY(
batch = tokenizer(texts, padding=True, truncation=True, return_tensors="np")
logits = session.run(["logits"], {name: batch[name].astype(np.int64) for name in INPUTS})[0]
)PY";

constexpr const char* kSingleLabel = R"PY(for text, p in zip(texts, probabilities):
    print(json.dumps({"text": text, "label": labels[p.index(max(p))],
                      "probabilities": {labels[i]: p[i] for i in range(len(p))}},
                     ensure_ascii=False))
)PY";

constexpr const char* kMultiLabel =
    R"PY(threshold = task["threshold"]  # the run's: every label at or above it
for text, p in zip(texts, probabilities):
    print(json.dumps({"text": text,
                      "labels": [labels[i] for i in range(len(p)) if p[i] >= threshold],
                      "probabilities": {labels[i]: p[i] for i in range(len(p))}},
                     ensure_ascii=False))
)PY";

constexpr const char* kRegression = R"PY(scaling = task["target_scaling"]  # SCALING_NOTE
for text, output in zip(texts, outputs):
    value = output * scaling["scale"] + scaling["mean"]
    print(json.dumps({"text": text, "value": value}, ensure_ascii=False))
)PY";

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

std::string pythonExample(const ExportReadmeInputs& inputs) {
    const bool onnx = inputs.format == ExportFormat::Onnx;
    const auto kind = inputs.settings.kind;
    const bool tagging = kind == TaskKind::TokenClassification;
    std::string code = onnx ? kOnnxHeader : kTransformersHeader;
    code =
        replaced(code, "MODEL_CLASS", tagging ? "TokenClassification" : "SequenceClassification");
    if (tagging) {
        code += onnx ? kOnnxWordLabels : kTransformersWordLabels;
        code += kWords;
        code += usesIobes(inputs.run->labels) ? kIobesEntities : kBioEntities;
        code += kEntities;
        code = replaced(code, "CHINESE_RANGES", chineseRanges());
    } else {
        code += onnx ? kOnnxLogits : kTransformersLogits;
        switch (kind) {
            case TaskKind::SingleLabel:
                code += onnx ? "exp = np.exp(logits - logits.max(-1, keepdims=True))\n"
                               "probabilities = (exp / exp.sum(-1, keepdims=True)).tolist()\n"
                             : "probabilities = logits.softmax(-1).tolist()\n";
                code += kSingleLabel;
                break;
            case TaskKind::MultiLabel:
                code += onnx ? "probabilities = (1 / (1 + np.exp(-logits))).tolist()  # a sigmoid "
                               "per label\n"
                             : "probabilities = logits.sigmoid().tolist()  # a sigmoid per label\n";
                code += kMultiLabel;
                break;
            case TaskKind::Regression: {
                code += "outputs = logits[:, 0].tolist()\n";
                code += kRegression;
                const auto& scaling = inputs.settings.scaling;
                code = replaced(code, "SCALING_NOTE",
                                scaling.isIdentity()
                                    ? "the model learnt the raw target: mean 0, scale 1"
                                    : "the model learnt the standardised target: undo it");
                break;
            }
            case TaskKind::TokenClassification:
                break;
        }
    }
    std::string names = "(";
    for (const auto& name : inputs.onnxInputs) {
        names += "\"" + name + "\", ";
    }
    names = (inputs.onnxInputs.size() == 1 ? names : names.substr(0, names.size() - 2)) + ")";
    code = replaced(code, "INPUTS", names);
    code = replaced(code, "TEXTS", kReadmeTextsLine);
    // A JSON string is a Python string literal too (the folder's quotes, backslashes, accents).
    return replaced(code, "FOLDER", nlohmann::json(inputs.folder.string()).dump());
}

std::string whatItPrints(TaskKind kind) {
    switch (kind) {
        case TaskKind::SingleLabel:
            return "the most likely label and every label's probability (a softmax)";
        case TaskKind::MultiLabel:
            return "every label whose probability (a sigmoid per label) is at or above the "
                   "run's threshold, and each label's probability";
        case TaskKind::Regression:
            return "the number, in the target's own units";
        case TaskKind::TokenClassification:
            return "the entities, each with its type, its text and its start and end (code "
                   "points into the text, the end included); each word (a run of text between "
                   "spaces, or a Chinese character) takes its first token's tag";
    }
    return {};
}

}  // namespace

std::string exportReadme(const ExportReadmeInputs& inputs) {
    const auto& run = *inputs.run;
    const auto& settings = inputs.settings;
    std::string readme = "# " + run.name + "\n\nFine-tuned with BERT Studio from `" +
                         run.baseModel + "` on `" + run.datasetPath + "`.\n\n";
    readme += "- Task: " + taskName(settings.kind) + "\n- Labels: ";
    for (std::size_t i = 0; i < run.labels.size(); ++i) {
        readme += (i ? ", " : "") + run.labels[i];
    }
    readme += "\n";
    // Judged by the task's own metric: a regression run's best is its lowest RMSE, not an
    // accuracy it never had.
    if (const auto best = bestTaskMetric(*inputs.evaluations)) {
        readme += "- Best validation " + figureName(best->metric) + ": " + number(best->value) +
                  (best->higherIsBetter ? " (higher is better)" : " (lower is better)") + "\n";
    } else {
        readme += "- Not evaluated on validation data\n";
    }
    if (settings.kind == TaskKind::MultiLabel) {
        readme += "- Decision threshold: " + number(settings.threshold) +
                  " (a label is predicted at or above it; config.json's bert_studio_task)\n";
    }
    if (settings.kind == TaskKind::Regression) {
        readme += settings.scaling.isIdentity()
                      ? std::string("- Target: learnt as it is (not standardised)\n")
                      : "- Target standardised for training: mean " +
                            number(settings.scaling.mean, "%.6g") + ", scale " +
                            number(settings.scaling.scale, "%.6g") +
                            " (config.json's bert_studio_task); the model's output is "
                            "multiplied by the scale and the mean added back\n";
    }
    readme += "- Techniques: " + run.techniques +
              "\n- Peak memory: " + std::to_string(run.peakMemoryBytes >> 20) + " MiB on " +
              run.device + " (forecast " + std::to_string(run.forecastBytes >> 20) +
              " MiB)\n- Evaluations: " + std::to_string(inputs.evaluations->size()) + "\n\n";
    const bool onnx = inputs.format == ExportFormat::Onnx;
    if (onnx) {
        std::string names;
        for (const auto& name : inputs.onnxInputs) {
            names += (names.empty() ? "" : ", ") + name;
        }
        readme += "## Predict with ONNX Runtime\n\n`model.onnx` takes " + names +
                  " (int64) and gives `logits`; the labels are config.json's `id2label`.";
    } else {
        readme += "## Predict with transformers\n\n";
        readme += std::string("`AutoModelFor") +
                  (settings.kind == TaskKind::TokenClassification ? "TokenClassification"
                                                                  : "SequenceClassification") +
                  "` loads this folder.";
    }
    readme += " For each text of `texts` this prints " + whatItPrints(settings.kind) +
              ", as one JSON line with the fields `bert-studio-cli predict --json` prints:\n\n"
              "```python\n" +
              pythonExample(inputs) + "```\n";
    readme += "\nThe full configuration and metrics are in run_card.json.\n";
    return readme;
}

}  // namespace bert
