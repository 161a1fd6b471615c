#pragma once

// Texts longer than the max length: what a run makes of them. Truncate keeps the first tokens
// (transformers' truncation=True); head+tail keeps the first H tokens and the last ones (Sun et
// al. 2019: head 128 + tail 382 beat the alternatives on IMDb); windows cut the text into
// windows of the max length that overlap by `stride` tokens, exactly as transformers' fast
// tokenizers do with return_overflowing_tokens and stride, each window an example with its
// document's label, and a document's windows' outputs pooled into its prediction at evaluation
// and prediction (task/DocumentPooling.h, runs/TaskPrediction.cpp). Host only.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "data/Dataset.h"
#include "tokenizer/Tokenizer.h"

namespace bert {

enum class LongTextMode {
    Truncate,  ///< the first tokens (the default)
    HeadTail,  ///< the first headTokens and the last ones
    Windows,   ///< every window, overlapping by stride tokens; outputs pooled per document
};

/// How a document's windows' outputs become its own.
enum class WindowPooling {
    Task,  ///< the task's own: the mean of the logits, the max per label for multi-label
    Mean,  ///< the mean of the windows' logits
    Max,   ///< the largest logit per output
};

struct LongTextSpec {
    LongTextMode mode = LongTextMode::Truncate;
    std::size_t headTokens = 32;  ///< head+tail: tokens kept from the start
    std::size_t stride = 32;      ///< windows: tokens each window shares with the one before
    WindowPooling pooling = WindowPooling::Task;

    bool windows() const { return mode == LongTextMode::Windows; }
};

/// The names config.json's "bert_studio_task" block writes ("truncate", "head-tail", "windows";
/// "mean", "max"): the option table's (train/TrainingOptionTable.cpp), which a test compares.
std::string longTextModeName(LongTextMode mode);
std::optional<LongTextMode> longTextModeNamed(std::string_view name);
std::string windowPoolingName(WindowPooling pooling);
std::optional<WindowPooling> windowPoolingNamed(std::string_view name);

/// The special tokens the single-text template puts before and after a text's tokens
/// ([CLS] ... [SEP]: 1 and 1).
struct TemplateShape {
    std::size_t before = 0;
    std::size_t after = 0;
    std::size_t total() const { return before + after; }
};
TemplateShape templateShapeOf(const Tokenizer& tokenizer);

/// Throws InputError naming the setting when spec cannot cut texts at maxLength under shape: a
/// stride not smaller than a window's text tokens, head tokens that leave no room for a tail.
void checkLongTextSpec(const LongTextSpec& spec, std::size_t maxLength, const TemplateShape& shape);

/// A whole text's encoding (its template, no limit) as spec makes it fit maxLength: itself when
/// it fits; else truncated, head+tail, or its windows (transformers' overflowing tokens with
/// stride, in order).
std::vector<Encoding> fitLongText(const Encoding& whole, std::size_t maxLength,
                                  const LongTextSpec& spec, const TemplateShape& shape);

/// Makes every example of set (tokenized whole, with no limit) fit maxLength as spec says. With
/// windows, an example becomes its windows, each with the example's label, targets and value,
/// and set.documents says which example each window came from. Lengths are recomputed.
void fitLongTexts(TokenizedSet& set, std::size_t maxLength, const LongTextSpec& spec,
                  const TemplateShape& shape);

/// What the windows make of set's documents, for a sentence before training: "38% of
/// documents exceed 128 tokens; windows of 128, stride 32: 2.7 windows per document".
struct LongTextShare {
    std::size_t documents = 0;
    std::size_t over = 0;     ///< documents longer than the max length
    std::size_t windows = 0;  ///< windows (or examples) they make in all
    std::string describe(std::size_t maxLength, const LongTextSpec& spec) const;
};
/// From the documents' whole lengths (their template included).
LongTextShare longTextShare(const std::vector<std::size_t>& wholeLengths, std::size_t maxLength,
                            const LongTextSpec& spec, const TemplateShape& shape);
/// The text tokens window `index` of fitLongText's windows holds: [first, end) of the text's
/// tokens (without the template), for a text of textTokens tokens.
std::pair<std::size_t, std::size_t> windowTokens(std::size_t index, std::size_t textTokens,
                                                 std::size_t maxLength, const LongTextSpec& spec,
                                                 const TemplateShape& shape);
/// The windows (or 1) a document of length tokens makes: fitLongText's count.
std::size_t windowCount(std::size_t length, std::size_t maxLength, const LongTextSpec& spec,
                        const TemplateShape& shape);

}  // namespace bert
