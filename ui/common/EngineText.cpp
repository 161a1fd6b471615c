#include "common/EngineText.h"

#include <vector>

#include <QRegularExpression>
#include <QStringList>

namespace bert::ui {

namespace {

/// One engine text: its pattern (anchored; each capture fills %1, %2, ... of the template in
/// order), the translatable template, and an example of the engine's text for the tests.
struct Pattern {
    const char* regex;
    const char* text;
    const char* example;
};

// The engine's texts, as core writes them (file: line). Keep the example beside the pattern the
// same as the engine's text: the test translates every example.
const Pattern kPatterns[] = {
    // core/train/Trainer.cpp: out-of-memory recovery, skipped steps, cancel, early stopping.
    {R"(out of memory at micro-batch (\d+); continuing with (\d+) x (\d+) accumulation )"
     R"(\(effective batch (\d+) unchanged\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "out of memory at micro-batch %1; continuing with %2 × %3 accumulation "
                       "(effective batch %4 unchanged)"),
     "out of memory at micro-batch 16; continuing with 8 x 4 accumulation (effective batch 32 "
     "unchanged)"},
    {R"(out of memory in evaluation at batch (\d+); evaluating in batches of (\d+) )"
     R"(\(training is not affected\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "out of memory in evaluation at batch %1; evaluating in batches of %2 "
                       "(training is not affected)"),
     "out of memory in evaluation at batch 64; evaluating in batches of 32 (training is not "
     "affected)"},
    {R"(non-finite gradients: optimizer step skipped, loss scale backed off)",
     QT_TRANSLATE_NOOP("EngineText",
                       "non-finite gradients: optimizer step skipped, loss scale backed off"),
     "non-finite gradients: optimizer step skipped, loss scale backed off"},
    {R"(non-finite gradients: optimizer step skipped)",
     QT_TRANSLATE_NOOP("EngineText", "non-finite gradients: optimizer step skipped"),
     "non-finite gradients: optimizer step skipped"},
    {R"(stopped by the user at step (\d+))",
     QT_TRANSLATE_NOOP("EngineText", "stopped by the user at step %1"),
     "stopped by the user at step 12"},
    {R"(stopped early at step (\d+): no better (\S+) for (\d+) evaluations \(best (\S+) at step )"
     R"((\d+)\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "stopped early at step %1: no better %2 for %3 evaluations (best %4 at "
                       "step %5)"),
     "stopped early at step 40: no better accuracy for 3 evaluations (best 0.910000 at step 25)"},
    {R"(stopped early at step (\d+): no better (\S+) for (\d+) evaluations \(best (\S+)\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "stopped early at step %1: no better %2 for %3 evaluations (best %4)"),
     "stopped early at step 40: no better loss for 3 evaluations (best 0.310000)"},
    {R"(forecast peak (\d+) MiB; trial step on the longest micro-batch \((\d+) examples\) )"
     R"((\d+) MiB)",
     QT_TRANSLATE_NOOP("EngineText",
                       "forecast peak %1 MiB; trial step on the longest micro-batch (%2 "
                       "examples) %3 MiB"),
     "forecast peak 310 MiB; trial step on the longest micro-batch (16 examples) 298 MiB"},
    {R"(the loss diverged at step (\d+): it was not finite for (\d+) steps in a row; lower the )"
     R"(learning rate \(or use bf16 instead of fp16\) and train again)",
     QT_TRANSLATE_NOOP("EngineText",
                       "the loss diverged at step %1: it was not finite for %2 steps in a row; "
                       "lower the learning rate (or use bf16 instead of fp16) and train again"),
     "the loss diverged at step 7: it was not finite for 5 steps in a row; lower the learning "
     "rate (or use bf16 instead of fp16) and train again"},
    // core/task/TrainingData.cpp: a regression target far from unit scale, not standardised.
    {R"re(the target "(.+)" has mean (\S+) and standard deviation (\S+) and is not )re"
     R"(standardised: the model's output starts near 0 and may never reach numbers this far )"
     R"(from it \(R² stays negative\); standardise it \(--standardize-targets, the default; )"
     R"(in the studio, Standardise the target\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "the target \"%1\" has mean %2 and standard deviation %3 and is not "
                       "standardised: the model's output starts near 0 and may never reach "
                       "numbers this far from it (R² stays negative); standardise it "
                       "(--standardize-targets, the default; in the studio, Standardise the "
                       "target)"),
     "the target \"score\" has mean 1020 and standard deviation 14.14 and is not standardised: "
     "the model's output starts near 0 and may never reach numbers this far from it (R² stays "
     "negative); standardise it (--standardize-targets, the default; in the studio, Standardise "
     "the target)"},
    {R"(out of memory at micro-batch (\d+) \(cannot shrink further\): (.*)\. Try gradient )"
     R"(checkpointing, bf16/fp16, a shorter max length, freezing layers, or a larger memory cap\.)",
     QT_TRANSLATE_NOOP("EngineText",
                       "out of memory at micro-batch %1 (cannot shrink further): %2. Try "
                       "gradient checkpointing, bf16/fp16, a shorter max length, freezing "
                       "layers, or a larger memory cap."),
     "out of memory at micro-batch 1 (cannot shrink further): CPU memory cap of 40 MiB reached: "
     "tried to allocate 12 MiB with 38 MiB in use. Try gradient checkpointing, bf16/fp16, a "
     "shorter max length, freezing layers, or a larger memory cap."},
    // core/train/MemoryForecast.cpp: the changes suggestFit proposes, each with its cost.
    {R"(use unpadded batches \((.+)\))",
     QT_TRANSLATE_NOOP("EngineText", "use unpadded batches (%1)"),
     "use unpadded batches (about 1.3x faster)"},
    {R"(turn on gradient checkpointing \((.+)\))",
     QT_TRANSLATE_NOOP("EngineText", "turn on gradient checkpointing (%1)"),
     "turn on gradient checkpointing (about 1.2x slower)"},
    {R"(use (bf16|fp16) mixed precision \((.+)\))",
     QT_TRANSLATE_NOOP("EngineText", "use %1 mixed precision (%2)"),
     "use bf16 mixed precision (about 1.2x faster)"},
    {R"(freeze the embeddings \((.+); saves (\d+) MiB; may cost a little accuracy\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "freeze the embeddings (%1; saves %2 MiB; may cost a little accuracy)"),
     "freeze the embeddings (about as fast; saves 2253 MiB; may cost a little accuracy)"},
    // core/train/MemoryForecast.cpp: largeEmbeddingNote.
    {R"(the embeddings hold (\d+)M of the model's (\d+)M parameters \((\d+)%\): freezing )"
     R"(them \(--freeze-embeddings\) frees their AdamW state \((\d+) MiB\) and gradients )"
     R"(\((\d+) MiB\); may cost a little accuracy)",
     QT_TRANSLATE_NOOP("EngineText",
                       "the embeddings hold %1M of the model's %2M parameters (%3%): freezing "
                       "them (Freeze embeddings) frees their AdamW state (%4 MiB) and gradients "
                       "(%5 MiB); may cost a little accuracy"),
     "the embeddings hold 197M of the model's 308M parameters (64%): freezing them "
     "(--freeze-embeddings) frees their AdamW state (1500 MiB) and gradients (750 MiB); may cost "
     "a little accuracy"},
    {R"(freeze the lowest (\d+) of (\d+) layers \((.+); they learn nothing; may cost )"
     R"(accuracy\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "freeze the lowest %1 of %2 layers (%3; they learn nothing; may cost "
                       "accuracy)"),
     "freeze the lowest 2 of 4 layers (about as fast; they learn nothing; may cost accuracy)"},
    {R"(shorten the max length to (\d+) \((.+); cuts the text of longer examples\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "shorten the max length to %1 (%2; cuts the text of longer examples)"),
     "shorten the max length to 64 (about 2.1x faster; cuts the text of longer examples)"},
    {R"(shorten the max length to (\d+) \(([^;]+)\))",
     QT_TRANSLATE_NOOP("EngineText", "shorten the max length to %1 (%2)"),
     "shorten the max length to 64 (about as fast)"},
    {R"(use micro-batch (\d+) x accumulation (\d+) \((.+); effective batch (\d+) kept\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "use micro-batch %1 × accumulation %2 (%3; effective batch %4 kept)"),
     "use micro-batch 8 x accumulation 4 (about 1.2x slower; effective batch 32 kept)"},
    {R"(evaluate in batches of (\d+) \(evaluation a little slower; training unchanged\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "evaluate in batches of %1 (evaluation a little slower; training "
                       "unchanged)"),
     "evaluate in batches of 16 (evaluation a little slower; training unchanged)"},
    // core/train/TrainerCheckpoints.cpp
    {R"(epoch checkpoint saved to (.+))",
     QT_TRANSLATE_NOOP("EngineText", "epoch checkpoint saved to %1"),
     "epoch checkpoint saved to /runs/3/checkpoint-20"},
    {R"(best checkpoint saved to (.+))",
     QT_TRANSLATE_NOOP("EngineText", "best checkpoint saved to %1"),
     "best checkpoint saved to /runs/3/best"},
    {R"(cancel checkpoint saved to (.+))",
     QT_TRANSLATE_NOOP("EngineText", "checkpoint at the cancel saved to %1"),
     "cancel checkpoint saved to /runs/3/checkpoint-12"},
    {R"(final checkpoint saved to (.+))",
     QT_TRANSLATE_NOOP("EngineText", "final checkpoint saved to %1"),
     "final checkpoint saved to /runs/3/checkpoint-30"},
    // core/train/TrainingJob.cpp
    {R"(resumed from (.+))", QT_TRANSLATE_NOOP("EngineText", "resumed from %1"),
     "resumed from /runs/3/checkpoint-12"},
    // core/data/UnknownTokens.cpp (unknownTokenWarning), a training warning.
    {R"(([\d.]+)% of the tokens are unknown to the model's vocabulary \((\S+)\): it cannot read )"
     R"(this text, and a run would learn little beyond chance; choose a model for this language)",
     QT_TRANSLATE_NOOP("EngineText",
                       "%1% of the tokens are unknown to the model's vocabulary (%2): it cannot "
                       "read this text, and a run would learn little beyond chance; choose a "
                       "model for this language"),
     "70.0% of the tokens are unknown to the model's vocabulary ([UNK]): it cannot read this "
     "text, and a run would learn little beyond chance; choose a model for this language"},
    {R"(([\d.]+)% of the tokens are unknown to the model's vocabulary \((\S+)\): a run learns )"
     R"(from the rest of the text only; a model for this language would read all of it)",
     QT_TRANSLATE_NOOP("EngineText",
                       "%1% of the tokens are unknown to the model's vocabulary (%2): a run "
                       "learns from the rest of the text only; a model for this language would "
                       "read all of it"),
     "25.0% of the tokens are unknown to the model's vocabulary (<unk>): a run learns from the "
     "rest of the text only; a model for this language would read all of it"},
    {R"(([\d.]+)% of the tokens are unknown to the model's vocabulary \((\S+)\): some words are )"
     R"(lost to it; a model for this language would read more of it)",
     QT_TRANSLATE_NOOP("EngineText",
                       "%1% of the tokens are unknown to the model's vocabulary (%2): some words "
                       "are lost to it; a model for this language would read more of it"),
     "7.2% of the tokens are unknown to the model's vocabulary (<unk>): some words are lost to "
     "it; a model for this language would read more of it"},
    // core/data/Dataset.cpp (readingNotes), core/data/TableReader.cpp: what reading a file
    // skipped or mended, a line each after "file: ".
    {R"(rows without text or label skipped: (\d+) \(the first on line (\d+)\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "rows without text or label skipped: %1 (the first on line %2)"),
     "rows without text or label skipped: 3 (the first on line 7)"},
    {R"(rows without text skipped: (\d+) \(the first on line (\d+)\))",
     QT_TRANSLATE_NOOP("EngineText", "rows without text skipped: %1 (the first on line %2)"),
     "rows without text skipped: 2 (the first on line 4)"},
    {R"(read as Windows-1252 \(the file is not UTF-8\))",
     QT_TRANSLATE_NOOP("EngineText", "read as Windows-1252 (the file is not UTF-8)"),
     "read as Windows-1252 (the file is not UTF-8)"},
    {R"(invalid UTF-8 sequences replaced: (\d+))",
     QT_TRANSLATE_NOOP("EngineText", "invalid UTF-8 sequences replaced: %1"),
     "invalid UTF-8 sequences replaced: 5"},
    {R"(control characters removed: (\d+) \(the first, (NUL|U\+[0-9A-F]{4}), on line (\d+) in )"
     R"x(column "(.*)"\))x",
     QT_TRANSLATE_NOOP("EngineText",
                       "control characters removed: %1 (the first, %2, on line %3 in column "
                       "\"%4\")"),
     "control characters removed: 1 (the first, NUL, on line 2345 in column \"text\")"},
    {R"(control characters removed: (\d+) \(the first, (NUL|U\+[0-9A-F]{4}), on line (\d+) in )"
     R"(the header\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "control characters removed: %1 (the first, %2, on line %3 in the header)"),
     "control characters removed: 2 (the first, NUL, on line 1 in the header)"},
    {R"x(line (\d+): the label "(.*)" holds byte (0x[0-9A-F]{2}), which is not UTF-8 \(labels )x"
     R"(that differ only there would become one\); save the file as UTF-8)",
     QT_TRANSLATE_NOOP("EngineText",
                       "line %1: the label \"%2\" holds byte %3, which is not UTF-8 (labels that "
                       "differ only there would become one); save the file as UTF-8"),
     "line 3: the label \"caf\xEF\xBF\xBD\" holds byte 0xE8, which is not UTF-8 (labels that "
     "differ only there would become one); save the file as UTF-8"},
    // core/task/TrainingData.cpp, core/data/LongText.cpp: what the run made of texts longer
    // than the max length (a note after "file: "), and the strategies it refuses.
    {R"((\d+) of (\d+) texts \((\d+)%\) fill the max length of (\d+) tokens and lost their )"
     R"(ends \(long texts: truncate\); head\+tail keeps a text's end at the same cost, windows )"
     R"(read whole texts \(--long-text head-tail, --long-text windows\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "%1 of %2 texts (%3%) fill the max length of %4 tokens and lost their ends "
                       "(long texts: truncate); head+tail keeps a text's end at the same cost, "
                       "windows read whole texts (Long texts in the Training tab)"),
     "2382 of 3000 texts (79%) fill the max length of 128 tokens and lost their ends (long "
     "texts: truncate); head+tail keeps a text's end at the same cost, windows read whole texts "
     "(--long-text head-tail, --long-text windows)"},
    {R"((\d+) of (\d+) texts \((\d+)%\) fill the max length of (\d+) tokens and were cut )"
     R"(longest first, as transformers does \(long texts: truncate\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "%1 of %2 texts (%3%) fill the max length of %4 tokens and were cut "
                       "longest first, as transformers does (long texts: truncate)"),
     "12 of 40 texts (30%) fill the max length of 64 tokens and were cut longest first, as "
     "transformers does (long texts: truncate)"},
    {R"((\d+)% of (\d+) documents exceed (\d+) tokens; windows of (\d+), stride (\d+): )"
     R"(([\d.]+) windows per document)",
     QT_TRANSLATE_NOOP("EngineText",
                       "%1% of %2 documents exceed %3 tokens; windows of %4, stride %5: %6 "
                       "windows per document"),
     "80% of 3000 documents exceed 128 tokens; windows of 128, stride 32: 3.46 windows per "
     "document"},
    {R"((\d+)% of (\d+) documents exceed (\d+) tokens)",
     QT_TRANSLATE_NOOP("EngineText", "%1% of %2 documents exceed %3 tokens"),
     "80% of 3000 documents exceed 128 tokens"},
    {R"(--window-stride (\d+) is not smaller than a window: max length (\d+) holds (\d+) tokens )"
     R"(of text; a stride must leave each window new tokens)",
     QT_TRANSLATE_NOOP("EngineText",
                       "window stride %1 is not smaller than a window: max length %2 holds %3 "
                       "tokens of text; a stride must leave each window new tokens"),
     "--window-stride 200 is not smaller than a window: max length 128 holds 126 tokens of "
     "text; a stride must leave each window new tokens"},
    {R"(--head-tokens (\d+) leaves no room for the tail: max length (\d+) holds (\d+) tokens of )"
     R"(text)",
     QT_TRANSLATE_NOOP("EngineText",
                       "head tokens %1 leave no room for the tail: max length %2 holds %3 tokens "
                       "of text"),
     "--head-tokens 126 leaves no room for the tail: max length 128 holds 126 tokens of text"},
    // core/data/LabelCheck.cpp: rareLabelWarning.
    {R"(rare classes: (.+); a model can score well while ignoring them: --class-weighting )"
     R"(balanced or --focal-gamma 2 weigh them up, and per-class F1 says more than accuracy)",
     QT_TRANSLATE_NOOP("EngineText",
                       "rare classes: %1; a model can score well while ignoring them: Class "
                       "weighting balanced or Focal loss gamma 2 weigh them up, and per-class F1 "
                       "says more than accuracy"),
     "rare classes: \"spam\" 3.0% (3/100); a model can score well while ignoring them: "
     "--class-weighting balanced or --focal-gamma 2 weigh them up, and per-class F1 says more "
     "than accuracy"},
    {R"(rare labels: (.+); a model can score well while ignoring them: --class-weighting )"
     R"(balanced or --focal-gamma 2 weigh them up, and per-label F1 says more than accuracy)",
     QT_TRANSLATE_NOOP("EngineText",
                       "rare labels: %1; a model can score well while ignoring them: Class "
                       "weighting balanced or Focal loss gamma 2 weigh them up, and per-label F1 "
                       "says more than accuracy"),
     "rare labels: \"urgent\" 1.5% (3/200), \"legal\" 2.0% (4/200) +1; a model can score well "
     "while ignoring them: --class-weighting balanced or --focal-gamma 2 weigh them up, and "
     "per-label F1 says more than accuracy"},
    // core/runs/TrainingJob.cpp: focal loss on a task without classes.
    {R"(--focal-gamma (\S+): focal loss reshapes a loss over classes, and (\S+) has none )"
     R"(\(its loss is a squared error\); leave it at 0)",
     QT_TRANSLATE_NOOP("EngineText",
                       "Focal loss gamma %1: focal loss reshapes a loss over classes, and %2 has "
                       "none (its loss is a squared error); leave it at 0"),
     "--focal-gamma 2: focal loss reshapes a loss over classes, and regression has none (its "
     "loss is a squared error); leave it at 0"},
    {R"(--long-text (windows|head-tail): token classification cuts its sentences at max length )"
     R"(\(truncate\); long sentences are not yet cut into windows for tagging)",
     QT_TRANSLATE_NOOP("EngineText",
                       "long texts %1: token classification cuts its sentences at max length "
                       "(truncate); long sentences are not yet cut into windows for tagging"),
     "--long-text windows: token classification cuts its sentences at max length (truncate); "
     "long sentences are not yet cut into windows for tagging"},
    {R"x(--long-text (windows|head-tail): a pair of texts \(--pair-column "(.*)"\) is truncated )x"
     R"(longest first, as transformers does; choose truncate)",
     QT_TRANSLATE_NOOP("EngineText",
                       "long texts %1: a pair of texts (second text column \"%2\") is truncated "
                       "longest first, as transformers does; choose truncate"),
     "--long-text head-tail: a pair of texts (--pair-column \"b\") is truncated longest "
     "first, as transformers does; choose truncate"},
    {R"(removed (\d+) MiB an interrupted checkpoint write left)",
     QT_TRANSLATE_NOOP("EngineText", "removed %1 MiB an interrupted checkpoint write left"),
     "removed 87 MiB an interrupted checkpoint write left"},
    // core/runs/RunStore.cpp
    {R"(the process ended during training; found at the next start)",
     QT_TRANSLATE_NOOP("EngineText", "the process ended during training; found at the next start"),
     "the process ended during training; found at the next start"},
    {R"(the process ended during training \(killed or crashed\))",
     QT_TRANSLATE_NOOP("EngineText", "the process ended during training (killed or crashed)"),
     "the process ended during training (killed or crashed)"},
    // core/memory/DeviceTraits.cpp
    {R"(bf16 on this CPU is emulated \(it has neither AVX512-BF16 nor AMX-BF16\): several times )"
     R"(slower a step than fp32)",
     QT_TRANSLATE_NOOP("EngineText",
                       "bf16 on this CPU is emulated (it has neither AVX512-BF16 nor AMX-BF16): "
                       "several times slower a step than fp32"),
     "bf16 on this CPU is emulated (it has neither AVX512-BF16 nor AMX-BF16): several times "
     "slower a step than fp32"},
    // core/data/TableReader.cpp, core/data/Dataset.cpp, core/io/InputFile.cpp: the problems of
    // a file, after "file: ".
    {R"(line (\d+) has (\d+) fields but the header has (\d+) \(an unquoted delimiter in the )"
     R"(text\?\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "line %1 has %2 fields but the header has %3 (an unquoted delimiter in the "
                       "text?)"),
     "line 5 has 3 fields but the header has 2 (an unquoted delimiter in the text?)"},
    {R"(line (\d+): a quoted field starts here and is never closed)",
     QT_TRANSLATE_NOOP("EngineText", "line %1: a quoted field starts here and is never closed"),
     "line 2: a quoted field starts here and is never closed"},
    {R"(is not a text file \(binary content at byte (\d+)\))",
     QT_TRANSLATE_NOOP("EngineText", "is not a text file (binary content at byte %1)"),
     "is not a text file (binary content at byte 9)"},
    {R"(is UTF-16 text; save it as UTF-8)",
     QT_TRANSLATE_NOOP("EngineText", "is UTF-16 text; save it as UTF-8"),
     "is UTF-16 text; save it as UTF-8"},
    {R"(is empty \(no header line\))", QT_TRANSLATE_NOOP("EngineText", "is empty (no header line)"),
     "is empty (no header line)"},
    {R"(is empty \(no JSON objects\))",
     QT_TRANSLATE_NOOP("EngineText", "is empty (no JSON objects)"), "is empty (no JSON objects)"},
    {R"(line (\d+) is not a JSON object \(JSON Lines needs one object per line\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "line %1 is not a JSON object (JSON Lines needs one object per line)"),
     "line 4 is not a JSON object (JSON Lines needs one object per line)"},
    {R"(has an extension BERT Studio does not read \(use \.csv, \.tsv or \.jsonl\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "has an extension BERT Studio does not read (use .csv, .tsv or .jsonl)"),
     "has an extension BERT Studio does not read (use .csv, .tsv or .jsonl)"},
    {R"(has no rows with both a text and a label)",
     QT_TRANSLATE_NOOP("EngineText", "has no rows with both a text and a label"),
     "has no rows with both a text and a label"},
    {R"(has a single class \((.*)\); a classifier needs at least two labels)",
     QT_TRANSLATE_NOOP("EngineText",
                       "has a single class (%1); a classifier needs at least two labels"),
     "has a single class (\"pos\"); a classifier needs at least two labels"},
    {R"(has no (text|label|second text) column (".*"); the columns found are (.*))",
     QT_TRANSLATE_NOOP("EngineText", "has no %1 column %2; the columns found are %3"),
     "has no label column \"sentiment\"; the columns found are \"review\""},
    // model/FamilyTraits.cpp: fp16 chosen for a family it makes diverge (DeBERTa).
    {R"(fp16 is known to make (\S+) training diverge: its attention scores overflow fp16's )"
     R"(range \(microsoft/DeBERTa issue 77\); bf16 has fp32's range: choose bf16, or fp32)",
     QT_TRANSLATE_NOOP("EngineText",
                       "fp16 is known to make %1 training diverge: its attention scores "
                       "overflow fp16's range (microsoft/DeBERTa issue 77); bf16 has fp32's "
                       "range: choose bf16, or fp32"),
     "fp16 is known to make DeBERTa-v2 training diverge: its attention scores overflow fp16's "
     "range (microsoft/DeBERTa issue 77); bf16 has fp32's range: choose bf16, or fp32"},
    // train/DefaultPrecision.cpp: bf16 taken for such a family where bf16 is native.
    {R"(bf16 is (\S+)'s default on a device with native bf16: fp16 overflows its attention )"
     R"(scores \(microsoft/DeBERTa issue 77\), bf16 keeps fp32's range and halves the )"
     R"(activations)",
     QT_TRANSLATE_NOOP("EngineText",
                       "bf16 is %1's default on a device with native bf16: fp16 overflows its "
                       "attention scores (microsoft/DeBERTa issue 77), bf16 keeps fp32's range "
                       "and halves the activations"),
     "bf16 is DeBERTa-v2's default on a device with native bf16: fp16 overflows its attention "
     "scores (microsoft/DeBERTa issue 77), bf16 keeps fp32's range and halves the activations"},
    // task/TemperatureScaling.cpp: a fit that found no temperature.
    {R"(no temperature minimises the validation loss \(it falls as the temperature goes to 0: )"
     R"(the set is predicted without error\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "no temperature minimises the validation loss (it falls as the "
                       "temperature goes to 0: the set is predicted without error)"),
     "no temperature minimises the validation loss (it falls as the temperature goes to 0: the "
     "set is predicted without error)"},
    {R"(no temperature minimises the validation loss \(it falls as the temperature grows: the )"
     R"(model's probabilities are no better than uniform ones\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "no temperature minimises the validation loss (it falls as the "
                       "temperature grows: the model's probabilities are no better than uniform "
                       "ones)"),
     "no temperature minimises the validation loss (it falls as the temperature grows: the "
     "model's probabilities are no better than uniform ones)"},
    {R"(the temperature did not converge \(at (\S+) the loss still changes by (\S+) per unit\))",
     QT_TRANSLATE_NOOP("EngineText",
                       "the temperature did not converge (at %1 the loss still changes by %2 per "
                       "unit)"),
     "the temperature did not converge (at 0.01 the loss still changes by 0.003 per unit)"},
    {R"(does not exist)", QT_TRANSLATE_NOOP("EngineText", "does not exist"), "does not exist"},
    {R"(could not be read)", QT_TRANSLATE_NOOP("EngineText", "could not be read"),
     "could not be read"},
    {R"(cannot be opened for reading: (.*))",
     QT_TRANSLATE_NOOP("EngineText", "cannot be opened for reading: %1"),
     "cannot be opened for reading: Permission denied"},
};

/// Words the engine puts into its texts (the best metric's name), translated where they appear
/// alone as a value.
const char* const kWords[] = {
    QT_TRANSLATE_NOOP("EngineText", "accuracy"),
    QT_TRANSLATE_NOOP("EngineText", "macro-f1"),
    QT_TRANSLATE_NOOP("EngineText", "loss"),
    QT_TRANSLATE_NOOP("EngineText", "about as fast"),
    QT_TRANSLATE_NOOP("EngineText", "text"),
    QT_TRANSLATE_NOOP("EngineText", "label"),
    QT_TRANSLATE_NOOP("EngineText", "second text"),
    QT_TRANSLATE_NOOP("EngineText", "windows"),
    QT_TRANSLATE_NOOP("EngineText", "head-tail"),
};

/// A value inside a text: a known word, or a change's cost ("about 1.3x slower").
QString word(const QString& value) {
    for (const char* known : kWords) {
        if (value == QLatin1String(known)) {
            return QCoreApplication::translate("EngineText", known);
        }
    }
    static const QRegularExpression slower(QStringLiteral("^about (\\S+)x slower$"));
    static const QRegularExpression faster(QStringLiteral("^about (\\S+)x faster$"));
    // core/memory/MemoryMonitor.cpp: why an allocation was refused under the cap.
    static const QRegularExpression cap(
        QStringLiteral("^CPU memory cap of (\\S+ \\S+) reached: tried to allocate (\\S+ \\S+) with "
                       "(\\S+ \\S+) in use$"));
    if (const auto match = cap.match(value); match.hasMatch()) {
        return QCoreApplication::translate("EngineText",
                                           "CPU memory cap of %1 reached: tried to allocate %2 "
                                           "with %3 in use")
            .arg(match.captured(1), match.captured(2), match.captured(3));
    }
    if (const auto match = slower.match(value); match.hasMatch()) {
        return QCoreApplication::translate("EngineText", "about %1x slower").arg(match.captured(1));
    }
    if (const auto match = faster.match(value); match.hasMatch()) {
        return QCoreApplication::translate("EngineText", "about %1x faster").arg(match.captured(1));
    }
    return value;
}

// The costs word() translates, for lupdate.
[[maybe_unused]] const char* const kCosts[] = {
    QT_TRANSLATE_NOOP("EngineText", "about %1x slower"),
    QT_TRANSLATE_NOOP("EngineText", "about %1x faster"),
};

/// The template with %1, %2, ... replaced in one pass (a path holding "%2" stays as it is).
QString fill(const QString& text, const QStringList& values) {
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == QLatin1Char('%') && i + 1 < text.size() && text[i + 1].isDigit()) {
            const int index = text[i + 1].digitValue() - 1;
            if (index >= 0 && index < values.size()) {
                out += values[index];
                ++i;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

const std::vector<QRegularExpression>& compiledPatterns() {
    static const std::vector<QRegularExpression> compiled = [] {
        std::vector<QRegularExpression> list;
        for (const auto& pattern : kPatterns) {
            // "file: problem": the problem is translated, the file stays as it is.
            list.emplace_back(QStringLiteral("^(?:(.+): )??") + QString::fromUtf8(pattern.regex) +
                              QStringLiteral("$"));
        }
        return list;
    }();
    return compiled;
}

}  // namespace

QString EngineText::sentence(const std::string& english) {
    QString said = translate(english);
    if (!said.isEmpty()) {
        said[0] = said[0].toUpper();
    }
    return said + QLatin1Char('.');
}

QString EngineText::translate(const QString& english) {
    const auto& compiled = compiledPatterns();
    for (std::size_t i = 0; i < compiled.size(); ++i) {
        const auto match = compiled[i].match(english);
        if (!match.hasMatch()) {
            continue;
        }
        QStringList values;
        for (int capture = 2; capture <= match.lastCapturedIndex(); ++capture) {
            values << word(match.captured(capture));
        }
        const QString text =
            fill(QCoreApplication::translate("EngineText", kPatterns[i].text), values);
        const QString file = match.captured(1);
        return file.isEmpty() ? text : file + QStringLiteral(": ") + text;
    }
    return english;
}

QStringList EngineText::examples() {
    QStringList examples;
    for (const auto& pattern : kPatterns) {
        examples << QString::fromUtf8(pattern.example);
    }
    return examples;
}

}  // namespace bert::ui
