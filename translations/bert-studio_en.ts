<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>EngineText</name>
    <message>
        <source>out of memory at micro-batch %1; continuing with %2 × %3 accumulation (effective batch %4 unchanged)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>out of memory in evaluation at batch %1; evaluating in batches of %2 (training is not affected)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>non-finite gradients: optimizer step skipped, loss scale backed off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>non-finite gradients: optimizer step skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped by the user at step %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped early at step %1: no better %2 for %3 evaluations (best %4 at step %5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped early at step %1: no better %2 for %3 evaluations (best %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forecast peak %1 MiB; trial step on the longest micro-batch (%2 examples) %3 MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the loss diverged at step %1: it was not finite for %2 steps in a row; lower the learning rate (or use bf16 instead of fp16) and train again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>out of memory at micro-batch %1 (cannot shrink further): %2. Try gradient checkpointing, bf16/fp16, a shorter max length, freezing layers, or a larger memory cap.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>epoch checkpoint saved to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>best checkpoint saved to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>checkpoint at the cancel saved to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>final checkpoint saved to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>resumed from %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>removed %1 MiB an interrupted checkpoint write left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the process ended during training; found at the next start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the process ended during training (killed or crashed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bf16 on this CPU is emulated (it has neither AVX512-BF16 nor AMX-BF16): several times slower a step than fp32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>line %1 has %2 fields but the header has %3 (an unquoted delimiter in the text?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>line %1: a quoted field starts here and is never closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is not a text file (binary content at byte %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is UTF-16 text; save it as UTF-8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is empty (no header line)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is empty (no JSON objects)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>line %1 is not a JSON object (JSON Lines needs one object per line)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has an extension BERT Studio does not read (use .csv, .tsv or .jsonl)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has no rows with both a text and a label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has a single class (%1); a classifier needs at least two labels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has no %1 column %2; the columns found are %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>does not exist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>could not be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot be opened for reading: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>macro-f1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>use unpadded batches (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>turn on gradient checkpointing (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>use %1 mixed precision (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shorten the max length to %1 (%2; cuts the text of longer examples)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shorten the max length to %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>use micro-batch %1 × accumulation %2 (%3; effective batch %4 kept)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>evaluate in batches of %1 (evaluation a little slower; training unchanged)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about as fast</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>second text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about %1x slower</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about %1x faster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU memory cap of %1 reached: tried to allocate %2 with %3 in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the target &quot;%1&quot; has mean %2 and standard deviation %3 and is not standardised: the model&apos;s output starts near 0 and may never reach numbers this far from it (R² stays negative); standardise it (--standardize-targets, the default; in the studio, Standardise the target)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>freeze the lowest %1 of %2 layers (%3; they learn nothing; may cost accuracy)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1% of the tokens are unknown to the model&apos;s vocabulary (%2): it cannot read this text, and a run would learn little beyond chance; choose a model for this language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1% of the tokens are unknown to the model&apos;s vocabulary (%2): a run learns from the rest of the text only; a model for this language would read all of it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1% of the tokens are unknown to the model&apos;s vocabulary (%2): some words are lost to it; a model for this language would read more of it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rows without text or label skipped: %1 (the first on line %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rows without text skipped: %1 (the first on line %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read as Windows-1252 (the file is not UTF-8)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid UTF-8 sequences replaced: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>control characters removed: %1 (the first, %2, on line %3 in column &quot;%4&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>control characters removed: %1 (the first, %2, on line %3 in the header)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>line %1: the label &quot;%2&quot; holds byte %3, which is not UTF-8 (labels that differ only there would become one); save the file as UTF-8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 texts (%3%) fill the max length of %4 tokens and lost their ends (long texts: truncate); head+tail keeps a text&apos;s end at the same cost, windows read whole texts (Long texts in the Training tab)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 texts (%3%) fill the max length of %4 tokens and were cut longest first, as transformers does (long texts: truncate)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1% of %2 documents exceed %3 tokens; windows of %4, stride %5: %6 windows per document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1% of %2 documents exceed %3 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>window stride %1 is not smaller than a window: max length %2 holds %3 tokens of text; a stride must leave each window new tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head tokens %1 leave no room for the tail: max length %2 holds %3 tokens of text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>long texts %1: token classification cuts its sentences at max length (truncate); long sentences are not yet cut into windows for tagging</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>long texts %1: a pair of texts (second text column &quot;%2&quot;) is truncated longest first, as transformers does; choose truncate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>windows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head-tail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fp16 is known to make %1 training diverge: its attention scores overflow fp16&apos;s range (microsoft/DeBERTa issue 77); bf16 has fp32&apos;s range: choose bf16, or fp32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>freeze the embeddings (%1; saves %2 MiB; may cost a little accuracy)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the embeddings hold %1M of the model&apos;s %2M parameters (%3%): freezing them (Freeze embeddings) frees their AdamW state (%4 MiB) and gradients (%5 MiB); may cost a little accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Focal loss gamma %1: focal loss reshapes a loss over classes, and %2 has none (its loss is a squared error); leave it at 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rare classes: %1; a model can score well while ignoring them: Class weighting balanced or Focal loss gamma 2 weigh them up, and per-class F1 says more than accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rare labels: %1; a model can score well while ignoring them: Class weighting balanced or Focal loss gamma 2 weigh them up, and per-label F1 says more than accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bf16 is %1&apos;s default on a device with native bf16: fp16 overflows its attention scores (microsoft/DeBERTa issue 77), bf16 keeps fp32&apos;s range and halves the activations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no temperature minimises the validation loss (it falls as the temperature goes to 0: the set is predicted without error)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no temperature minimises the validation loss (it falls as the temperature grows: the model&apos;s probabilities are no better than uniform ones)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the temperature did not converge (at %1 the loss still changes by %2 per unit)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Names</name>
    <message>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>completed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tiny</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mini</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>small</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>base</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>data parallel on %1 processes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Single-label classification</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Multi-label classification</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regression</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token classification (NER)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>micro-F1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>macro-F1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>micro precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>micro recall</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>subset accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hamming loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RMSE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MAE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pearson r</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spearman ρ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>R²</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>entity F1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>entity precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>entity recall</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token accuracy</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TaskSummary</name>
    <message>
        <source>examples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Examples with this label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entity type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entities</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tagged words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>longer than %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the %2 most frequent of %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TrainingOptions</name>
    <message>
        <source>Validation share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share of the examples held out for validation (a stratified split) when no validation file is given.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max &amp;length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Padding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dynamic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fixed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pad to multiple of</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Round padded lengths up to a multiple (8 suits tensor cores under fp16); costs a little padding.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group by length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batches of similar lengths (longest first, so an out-of-memory shows at once): far less padding; slightly less random batches.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Examples per forward/backward pass. Activation memory grows with it; larger is faster per example.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Accumulation steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Micro-batches summed before each optimizer step: the effective batch grows without the activation memory; costs time per example.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluation batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Examples per evaluation pass (no gradients are kept, so it can be larger).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Freeze embeddings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Freeze lowest layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Freeze the lowest N encoder layers: no gradients, optimizer state or (with frozen embeddings) activations for them; may cost accuracy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P&amp;recision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bf16/fp16 autocast stores activations in half precision and runs faster on GPUs; fp16 adds dynamic loss scaling. Weights stay fp32.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient checkpointing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep only each layer&apos;s input and recompute the layer in backward: activation memory falls to about one layer; about 20-30% slower.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cache release</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after evaluation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every N steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Release every N steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N for cache release every N steps.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory cap (MiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refuse allocations past this size, as a smaller GPU would: rehearse a 16 GB card on a bigger one, or test on the CPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recover from out-of-memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On out-of-memory, halve the micro-batch and double accumulation: the effective batch stays the same.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Epochs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passes over the training data.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop after this many optimizer steps (0: no limit).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight decay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AdamW weight decay; not applied to biases and LayerNorm.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warmup share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share of steps spent warming the learning rate up from zero.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clip gradient norm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clip the gradient norm (after unscaling under fp16); 0 turns clipping off.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed of the split, initialisation, shuffling and dropout: equal seeds, equal runs on the CPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluate every N steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where training runs: cpu or cuda:N.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads for LibTorch&apos;s CPU kernels (0: LibTorch&apos;s default, one per core).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save checkpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the model and training state at epoch ends, at the best validation accuracy and on cancel, so runs can resume and export.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop after non-finite steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the run as diverged after this many optimizer steps in a row whose loss is not finite (NaN or infinite): lower the learning rate then (0: never stop).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluate every N steps as well as at each epoch end (0: evaluations per epoch decides).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluations per epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluate this many times per epoch, evenly spaced, the epoch end included, when &apos;evaluate every N steps&apos; is 0; 1: epoch ends only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class weighting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>balanced: each class&apos;s examples weigh N / (classes x its count) in the loss, so a rare class is not ignored; off: every example weighs the same.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>balanced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best model by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>macro-F1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Early stopping patience</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop when this many evaluations in a row bring no better &apos;best model by&apos; metric (0: never stop early).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak learning rate of AdamW (reached after the warmup).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning-rate schedule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After the warmup: linear decay to 0, half a cosine down to 0, or the peak rate to the end (transformers&apos; schedules with warmup).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>linear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cosine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>constant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shard optimizer state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data parallel only (ZeRO stage 1): each process keeps the AdamW moments of its share of the weights, updates that share and passes it to the others; optimizer memory per process falls by the number of processes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data-parallel processes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train as this many processes on this machine, each taking batch size x accumulation examples of every step and summing gradients with the others: on CUDA one per GPU (all of them), on the CPU to rehearse data parallel (Gloo over loopback). 1: one process. torchrun and Slurm launches are recognised by their environment instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shuffle each epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new order of the training examples each epoch, drawn from the seed. Off: the file&apos;s own order every epoch (a curriculum, or another tool&apos;s run to reproduce); grouping by length then sorts consecutive examples.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unpadded computes on the real tokens alone (attention runs per group of equal lengths); dynamic pads each batch to its longest example; fixed pads every batch to max length. Same results; unpadded uses the least memory and time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unpadded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cache the frozen part&apos;s output (no dropout there)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With frozen embeddings (and frozen lowest layers), compute each example&apos;s output of the frozen part once and reuse it: later epochs and evaluations skip the frozen part. Dropout inside the frozen part is off. Kept in memory up to the size below, the rest in a file beside the run, removed when the run ends.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cache in memory up to (MiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host memory the frozen-prefix cache may use (not the device&apos;s); what does not fit goes to a file beside the run. 0: all of it in the file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trial step before training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before the first step, one forward and backward pass on the micro-batch of the longest examples measures the real peak: an out-of-memory shows before training starts, and the run keeps the figure beside the forecast. Costs about one step (more at long max lengths); off, training starts at once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Return cached memory to the system (on a GPU the CUDA allocator&apos;s cache, on the CPU the free blocks the heap keeps for reuse): helps other processes and fragmentation; every release costs speed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TF32 matrix multiplies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On a CUDA GPU of the Ampere generation or newer, fp32 matrix multiplies run on TF32 tensor cores: several times faster, with about 10 bits of mantissa in their products. No effect on the CPU, under bf16/fp16 autocast&apos;s half-precision products, or on memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log every N steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read the loss, gradient norm and loss scale back from the device every N optimizer steps (and at each epoch end); each point of the curves is then the mean of N steps. Every read waits for the GPU to finish its queued work: a larger N keeps a GPU busy. 1: every step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The validation metric that chooses the best checkpoint and drives early stopping; macro-F1 suits imbalanced labels; the task&apos;s metric is micro-F1, RMSE or entity F1 for the other tasks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the task&apos;s metric</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Long texts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Texts longer than max length: truncate keeps the first tokens; head+tail keeps the first head tokens and the last ones; windows cut the whole text into overlapping windows, each an example with the text&apos;s label, and pool the windows&apos; outputs into the text&apos;s prediction when evaluating and predicting (more examples to train on, the same memory per example).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head+tail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>windows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head+tail: tokens kept from the start of a long text; the rest of max length comes from its end.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Window stride</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Windows: tokens each window shares with the one before (transformers&apos; stride); smaller than a window&apos;s text tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Window pooling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Windows: how a text&apos;s windows&apos; logits become the text&apos;s: the task&apos;s own (the mean; for multi-label the largest per label), the mean, or the largest.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the task&apos;s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per example; longer texts are cut as Long texts says (truncated by default). Activation memory grows with it, attention quadratically.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No gradients or optimizer state for the embeddings (a fifth of BERT-base&apos;s weights, half of MiniLM&apos;s, two thirds of a 250k-piece vocabulary&apos;s model: XLM-R, mDeBERTa, mmBERT); usually costs little accuracy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Focal loss gamma</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0: the plain loss. Above 0, focal loss: the loss of each example (each label, each tag) is scaled by (1 - p)^gamma, p the probability the model gives its true class, so what the model already gets right counts less and hard or rare examples more (Lin et al. 2017 use 2; with balanced class weighting it is their alpha-balanced form). Not for regression.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature scaling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Single-label: divide the logits by one temperature fitted on the validation set (the negative log-likelihood, minimised with L-BFGS: Guo et al. 2017), so that a probability of 0.8 is right about 8 times in 10. Predict, Try it and exports apply it; the predicted labels stay the same. Every evaluation measures the calibration (ECE, Model quality) either way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Balanced sampling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Single-label: each epoch draws as many examples as the training set holds, with replacement, every class equally likely (PyTorch&apos;s WeightedRandomSampler with weights 1 / the class&apos;s count): a rare class is seen as often as a common one, its examples repeated, a common class&apos;s partly left out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rare class under (%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A class (a label) with less than this share of the examples is rare: the Dataset tab and the run&apos;s warnings name it with what weighs it up (class weighting, focal loss, balanced sampling). Changes no training.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::CompareDialog</name>
    <message>
        <source>Compare runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>by step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>by epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Setting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forecast</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak memory (MiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Curves:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dataset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>best macro-F1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>samples/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The runs&apos; tasks differ: they are compared on their loss only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No scatter: the runs&apos; tasks are judged by different metrics (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak memory against %1 and duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>best %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>best task metric</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lowest of each run&apos;s evaluations: lower is better</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The best of each run&apos;s evaluations by its task&apos;s metric (the lowest for an error such as RMSE)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lowest %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Second text column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label columns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label separator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Standardised targets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decision threshold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preset</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::DatasetPage</name>
    <message>
        <source>&amp;Open dataset…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No dataset. Open one, or drop a file here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The column with the text to classify</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An optional second text, for pair tasks (e.g. question and answer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The column with the class of each row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share of each class held out for validation (stratified, seeded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Second text column:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Label column:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label counts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token lengths</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open dataset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has a single class: a classifier needs at least two labels.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a model to see token lengths.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lengths: half of the examples have up to %1 tokens, 90% up to %2, 99% up to %3: a max length of %3 keeps 99% of them whole.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token lengths (p50 %1, p90 %2, p99 %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no column %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At max length %1 and batch %2, padding would be %3 of the tokens with fixed padding, %4 with dynamic padding, %5 with length-grouped batches; unpadded batches compute none of it. %6 examples are longer than %1 tokens and will be truncated.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: no label column; choose the column that holds the classes (Label column).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown tokens: %1 of the tokens are not in the model&apos;s vocabulary.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A CSV, TSV or JSON Lines file with a text column and a label column, or tagged words (CoNLL, JSON Lines of tokens and tags, span JSON)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What a run learns to predict: one label, any number of labels, a number, or a tag per word</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tas&amp;k:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Datasets (*.csv *.tsv *.tab *.jsonl *.ndjson *.json *.conll *.bio *.iob *.iobes);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a table: token classification reads tagged words (a CoNLL file, JSON Lines of tokens and tags, or span JSON).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 holds tagged words: only token classification reads it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Guessed from the data: %1 (%2). Change it if it is wrong.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entities per type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 sentences, %2 words, %3 entities of %4 types; tag scheme %5.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Examples per label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label co-occurrence: examples that have both labels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has a single label: a multi-label task needs at least two. Is the separator right?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target histogram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a CoNLL file of tagged words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one 0/1 column per label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON lines of tokens and their tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON lines of entity spans over texts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the data could not be read to guess</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one label per text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the label column holds several labels per row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the label column holds numbers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Labels:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 hold only 0 and 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label columns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: only one of the chosen columns has any 1: a multi-label task needs at least two labels.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Standardise the target (train on zero mean, unit variance; undone at prediction)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model&apos;s output starts near zero: a target far from zero or on a large scale (say 5 to 8, or 0 to 1000) is learnt slowly and badly. Training on (target − mean) ÷ standard deviation of the training rows fixes that; predictions are turned back into the target&apos;s units.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chosen by hand: %1. The data looked like %2 (%3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>t&amp;uned on validation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After each evaluation, the threshold with the best micro-F1 on the validation rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;fixed at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A label is predicted when its probability reaches this</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decision thres&amp;hold:</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n rows without text or label skipped</source>
        <translation>
            <numerusform>%n row without text or label skipped</numerusform>
            <numerusform>%n rows without text or label skipped</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rows without text skipped</source>
        <translation>
            <numerusform>%n row without text skipped</numerusform>
            <numerusform>%n rows without text skipped</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n invalid UTF-8 sequences replaced</source>
        <translation>
            <numerusform>%n invalid UTF-8 sequence replaced</numerusform>
            <numerusform>%n invalid UTF-8 sequences replaced</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n examples with %1 labels from their 0/1 columns, %2 labels per example on average.</source>
        <translation>
            <numerusform>%n example with %1 labels from their 0/1 columns, %2 labels per example on average.</numerusform>
            <numerusform>%n examples with %1 labels from their 0/1 columns, %2 labels per example on average.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n examples with %1 labels, %2 labels per example on average (separator “%3”).</source>
        <translation>
            <numerusform>%n example with %1 labels, %2 labels per example on average (separator “%3”).</numerusform>
            <numerusform>%n examples with %1 labels, %2 labels per example on average (separator “%3”).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n with no label (kept: training reads them as examples with none of the labels).</source>
        <translation>
            <numerusform>%n with no label (kept: training reads it as an example with none of the labels).</numerusform>
            <numerusform>%n with no label (kept: training reads them as examples with none of the labels).</numerusform>
        </translation>
    </message>
    <message>
        <source>The table counts the examples that have both labels.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n examples; target “%1” from %2 to %3, mean %4, standard deviation %5.</source>
        <translation>
            <numerusform>%n example; target “%1” from %2 to %3, mean %4, standard deviation %5.</numerusform>
            <numerusform>%n examples; target “%1” from %2 to %3, mean %4, standard deviation %5.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n examples in %1 classes.</source>
        <translation>
            <numerusform>%n example in %1 classes.</numerusform>
            <numerusform>%n examples in %1 classes.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 stays open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Guessing the task of %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the examples of %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading %1 was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Te&amp;xt column:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vali&amp;dation share:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop waiting for this file; the file open before stays open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(the first on line %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read as %1 (the file is not UTF-8)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n control characters removed (the first, %1, on line %2 in the header)</source>
        <translation>
            <numerusform>%n control character removed (%1, on line %2 in the header)</numerusform>
            <numerusform>%n control characters removed (the first, %1, on line %2 in the header)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n control characters removed (the first, %1, on line %2 in column &quot;%3&quot;)</source>
        <translation>
            <numerusform>%n control character removed (%1, on line %2 in column &quot;%3&quot;)</numerusform>
            <numerusform>%n control characters removed (the first, %1, on line %2 in column &quot;%3&quot;)</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose a model for this language in Model &amp; techniques (a transformers folder, for example one in the local model cache, ~/.cache/huggingface/hub).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Long texts: %1 of the examples are longer than %2 tokens; windows of %2 tokens with a stride of %3 make %4 windows, %5 per example.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Long texts: %1 of the examples are longer than %2 tokens; each keeps its first %3 tokens and its last ones.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At max length %1 and batch %2, padding would be %3 of the tokens with fixed padding, %4 with dynamic padding, %5 with length-grouped batches; unpadded batches compute none of it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Long texts: at max length %1 a window holds %2 tokens of text; the %3 must be smaller. Training would refuse it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>window stride</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Long texts (Training tab): head+tail would keep their ends at the same cost; windows of %1 tokens with a stride of %2 would read them whole: %3 windows, %4 per example.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::ExamplesView</name>
    <message>
        <source>Search the texts, truths and predictions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Wrong only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>any</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P(truth)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Truth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Missed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click an example (or press Enter) to try it in Try it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sea&amp;rch:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;True:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pre&amp;dicted:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run kept no per-example results: it was not evaluated, or it was trained by a version of BERT Studio that did not keep them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The evaluation at step %1 (the best): all %2 validation examples, highest loss first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The evaluation at step %1 (the best): the %2 of %3 validation examples with the highest loss, highest first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Residual</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::HelpDialog</name>
    <message>
        <source>Memory techniques</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each switch on Model &amp; techniques saves memory at a cost, said here and in its tooltip. The forecast bar shows the peak of a training step and of an evaluation against the device or the memory cap; when either does not fit, the page names the change that loses the least time, which one click applies and another undoes. A run that still runs out of memory halves its micro-batch and doubles the accumulation, so the effective batch stays.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before a long run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set the memory cap to the memory of the machine the run is meant for: the forecast, Largest batch that fits and the run itself then behave as they would there. The dataset tab shows the token lengths, the padding each batching wastes, and the share of tokens the model&apos;s vocabulary cannot read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alt with the underlined letter of a tab, a button or a field&apos;s label goes there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BERT Studio guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Techniques</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::LabelColumnsChoice</name>
    <message>
        <source>In one column, se&amp;parated by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The character between the labels of a cell (multi-label)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One 0/1 col&amp;umn per label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each label has its own column: 1 (or true) where a row has the label, 0 (or false) where it does not</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the label columns: each holds 1 (or true) where a row has the label, 0 (or false) where it does not.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::MainWindow</name>
    <message>
        <source>BERT Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;1 Dataset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;2 Model &amp;&amp; techniques</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;3 Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;4 Runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;5 Try it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training could not start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs are stored in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open dataset…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export a run&apos;s model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Dark palette</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The language changes when BERT Studio starts again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About BERT Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About BERT Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;BERT Studio&lt;/b&gt; %1&lt;br&gt;Fine-tune BERT classifiers without running out of memory.&lt;br&gt;Runs: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a dataset first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling after the current micro-batch…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training is running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the run and close? The run keeps everything it recorded and can resume from its checkpoint.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run &amp;database…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run databases (*.sqlite)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BERT Studio uses %1 from its next start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Largest batch that fits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a dataset to see what a run will train on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Label column “%1”: %n classes, %2. Text: %3. %4 examples for training, %5 for validation.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>The label column has a single value: there is nothing to learn. Choose another label column.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The label column is also a text column: the model would read the answer. Choose different columns.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The label column has %1 different values in %2 rows: is it an id or a text column? Choose the column that holds the classes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model&apos;s head was trained for %1 labels (%2); this column has %3 values, so the head will be made anew. Is this the right label column?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding the largest micro-batch that fits: forecast, then a trial step…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not even a micro-batch of 1 fits in %1. Turn on memory techniques or shorten the max length.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Micro-batch %1 × accumulation %2 (effective batch %3): forecast %4, trial step %5 of %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait until the largest batch is found, then start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;job…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Job files (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save job…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1&apos;s dataset, model and settings are in the form: change what you want to compare, then Start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved to %1; bert-studio-cli train --config reads it too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue the last cancelled or interrupted run from its checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Guide to the techniques</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start training (dataset, techniques and training tabs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Classify the text (Try it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected runs (Runs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The suggested change was undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applied: %1. “Undo the change” restores the settings before it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown tokens: %1%.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting a run: reading and tokenising the data…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resuming run %1: loading its checkpoint…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 resumed: preparing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 created: preparing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 is training.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (from scratch)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename run %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task: %1. %2 examples for training, %3 for validation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;fresh runs</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::MetricsCharts</name>
    <message>
        <source>Loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation accuracy and macro-F1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>samples/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>macro-F1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>current</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reserved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forecast</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training (raw)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exponential moving average of the training loss; the raw loss stays, faint. 0: raw.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset &amp;zoom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag a rectangle on a chart to zoom; this shows everything again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at step %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak, rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation %1 and %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error (target units)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Smoothin&amp;g:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::ModelPicker</name>
    <message>
        <source>%1 M</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundled model and the models of the local Hugging Face cache (%1) that the studio can train. Nothing is downloaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rescan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read the Hugging Face cache again, for models downloaded since</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all-MiniLM-L6-v2 (bundled)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2, %3 parameters, vocabulary %4, up to %5 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another folder (type it or browse below)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::ModelReport</name>
    <message>
        <source>step %1 (epoch %2): accuracy %3, macro-F1 %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — best</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — last</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Shares of each true label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each row divided by its true label&apos;s count: the diagonal is that class&apos;s recall.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recall</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Support</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Evaluation:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confusion matrix (rows: true label, columns: predicted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run has no evaluation yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accuracy %1, macro-F1 %2, validation loss %3 over %4 examples.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is never predicted: its %2 validation examples are all given other labels. Try class weighting (balanced), more epochs or a higher learning rate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The labels are imbalanced: “%1” is %2% of the validation set, “%3” %4%. Judge the model by macro-F1 and per-class recall, not accuracy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accuracy %1 is far above macro-F1 %2: the smaller classes are mostly missed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step %1 (epoch %2): %3 %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation loss %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>, … and %n more</source>
        <translation>
            <numerusform>, … and %n more</numerusform>
            <numerusform>, … and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n classes never predicted: %1. Their %2 validation examples are all given other labels. Try class weighting (balanced), more epochs or a higher learning rate.</source>
        <translation>
            <numerusform>%n class never predicted: %1. Its %2 validation examples are all given other labels. Try class weighting (balanced), more epochs or a higher learning rate.</numerusform>
            <numerusform>%n classes never predicted: %1. Their %2 validation examples are all given other labels. Try class weighting (balanced), more epochs or a higher learning rate.</numerusform>
        </translation>
    </message>
    <message>
        <source>Rows: the true label. Columns: the predicted label. Click a cell to list its examples (of the best evaluation).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::OptionForm</name>
    <message>
        <source>Data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batching</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimisation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device and outputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not offered on a CPU: it has no fast fp16 arithmetic, and fp16 needs loss scaling. bf16 keeps fp32&apos;s range.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This CPU has bf16 instructions: about as fast as fp32. CPU attention computes in fp32, so it saves little memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About 4x slower on this CPU, which lacks bf16 instructions (AVX512-BF16, AMX), and CPU attention computes in fp32, so it saves little memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor cores: faster than fp32, and activations take half the memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This GPU has no %1 tensor cores: slower than fp32.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Takes effect with two or more data-parallel processes.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::ReliabilityDiagram</name>
    <message>
        <source>Expected calibration error: the predictions grouped into 15 bins by their confidence, the mean gap between each bin&apos;s confidence and its accuracy, weighted by its share of the examples (Guo et al. 2017). 0: a probability of 0.8 is right 8 times in 10.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reliability diagram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected calibration error (ECE) %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At temperature %1, fitted on the validation set: ECE %2 (the labels predicted stay the same).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature scaling is on: predict, Try it and exports use it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn on Temperature scaling (Training tab) for predictions to use it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No temperature: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>calibrated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This evaluation has no calibration figures.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected calibration error (ECE) %1, every label&apos;s probability against whether the label is present.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a label&apos;s probability</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>confidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>share present</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>as trained</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at T = %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::RunDialog</name>
    <message>
        <source>Run %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save charts as &amp;PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save charts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export metrics as &amp;CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export metrics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Curves</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model quality</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E&amp;xamples</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::RunsPage</name>
    <message>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Date</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Techniques</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter runs (name, status, model, techniques…)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the run&apos;s charts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Co&amp;mpare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overlay two or more selected runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select two or more runs (Ctrl+click).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Notes…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write notes on the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E&amp;xport model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reload the runs (F5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes on run %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select one run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The runs cannot be listed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open run %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename run %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train &amp;again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load the selected run&apos;s dataset, model and settings into the form, to train again or change one thing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the model into a new folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the run&apos;s model as a transformers folder or as ONNX, with a run card</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported run %1 to %2. Its README.md says how to load it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>transformers folder (model.safetensors)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ONNX for ONNX Runtime (model.onnx)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove check&amp;points…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free the disk the selected runs&apos; checkpoints take, keeping their records: metrics, charts and settings stay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected runs and their checkpoints (Delete)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click a name to rename a run; double-click a row to open it; Delete deletes the selected runs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove checkpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Freed %1; the runs&apos; records stay.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select the runs first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best task metric</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete run %1 with its metrics and checkpoints? This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Delete %n runs with their metrics and checkpoints? This cannot be undone.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Remove the checkpoints of run %1? Its metrics, charts and settings stay, but it can no longer be resumed, exported or tried.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Remove the checkpoints of %n runs? Their metrics, charts and settings stay, but they can no longer be resumed, exported or tried.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::TaskReport</name>
    <message>
        <source>Precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recall</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Support</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per label, at threshold %1 (tuned on validation: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threshold curve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decision threshold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicted against true (validation)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>examples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>predicted = true</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>true</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>predicted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Residuals (predicted − true)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entities per type (exact span and type, as seqeval scores them)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entity type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spurious</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>missed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entity types: true (rows) against predicted (columns), entities matched by their exact span</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each true entity is counted in the row of its type: in the column of the type of the predicted entity over exactly the same words, or under “missed” when no predicted entity has its boundaries. A predicted entity whose words no true entity spans exactly counts in the “spurious” row. The diagonal holds the correct entities (the true positives above); a boundary error is one missed and one spurious entity.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>residual</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::TechniquesPage</name>
    <message>
        <source>Fine-tune a &amp;model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train from &amp;scratch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Randomly initialised BERT of this size, using the folder&apos;s tokenizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory forecast</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply the suggested change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>uncased</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cased</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a readable model to see the memory forecast.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>device memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gradients (alive at the peak)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>activations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forecast peak %1 of %2 %3 (%4%): weights %5, gradients %6 (%7 of them alive at the peak), optimizer state %8, activations %9 for %10 examples of up to %11 tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This will not fit, even with every memory technique on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Largest batch that fits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find the largest micro-batch the device or the memory cap allows (the forecast proposes, a trial step on the longest micro-batch confirms) and set the accumulation so the effective batch stays the same.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finding the largest batch…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning rate over the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo the change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore the settings from before the suggested change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>evaluation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluation, in batches of %1 without gradients: peak %2 (%3%).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This will not fit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluation will not fit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 To fit: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> and </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: forecast %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about %1x slower</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about %1x faster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about as fast</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 in all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%8: %1 layers, hidden size %2, %3 heads; %4 M parameters, %5 of weights (fp32); vocabulary %6 (%7)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allocator overhead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA context and NCCL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That is the peak of allocated tensors, what a trial step measures. On CUDA the caching allocator reserves %1 (what a memory cap limits: cuBLAS workspaces, rounding, cached blocks), and the process takes %2 of the device with the CUDA context%3; %4% of the %5 is compared.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> and NCCL&apos;s buffers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A Hugging Face model folder of a supported family (%1): config.json, model.safetensors (or its shards) and a tokenizer (tokenizer.json, vocab.txt or spm.model)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::TrainingPage</name>
    <message>
        <source>&amp;Start training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train with the dataset, model and techniques chosen (Ctrl+Return)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop after the current micro-batch; a checkpoint is saved so the run can resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue the last cancelled or interrupted run from its checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run %1 created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%p% — starting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, trial step %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>evaluation at step %1: loss %2, accuracy %3, macro-F1 %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 cancelled after %2 steps; it can resume from its checkpoint.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training could not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a dataset to see what a run will train on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>resuming run %1: loading the checkpoint…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>preparing: reading and tokenising the data…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run %1 resumed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>preparing run %1: memory forecast and a trial step…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the earlier steps could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run %1 resumed at step %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled before training started; no run was created.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enlarge &amp;log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the whole page to the event log (the charts come back when it is pressed again); the bar above the log also drags.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the &amp;charts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 processes × %2 threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 processes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training on %1 with %2: %3 examples, %4 for validation, %5 steps. Forecast peak %6%7.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ETA —</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%p% — step %1/%2 — evaluating: batch %3 of %4 — %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%p% — step %1/%2 — loss %3 — %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run gets %1 of the %2 cores it asked for: other programs are using the processor, so it runs slower. Close them, or lower Threads.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 thread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>evaluation at step %1: loss %2, %3 %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 completed: %2 %3, peak memory %4, %5.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, ECE %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::TrainingWorker</name>
    <message>
        <source>Cancelled before training started; no run was created.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled before the run resumed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the command line exited with code %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::TryItPage</name>
    <message>
        <source>The run whose best model classifies the text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>folder %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type or paste a text to classify…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;lassify</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run %1: %2 (accuracy %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No trained model yet: train a run first, or choose a model folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run %1: %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the model predicts for the text, as its task reads it (Ctrl+Return on this tab)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Classify</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model fol&amp;der…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a text to classify.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cut at %1 tokens: the model read the first %1 of the text&apos;s %2 tokens, and nothing after them (%3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no entity is found past them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the rest did not count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1% of the text&apos;s tokens are unknown to the model&apos;s vocabulary (%2): it cannot read them. A model for this language reads it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Second text, for a model trained on pairs (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A model trained on two texts (a question and its answer, say) reads this one as the second, as `predict --pair` does; leave it empty for a model trained on one text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Second te&amp;xt:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Longer than %1 tokens: the model read the first %2 and the last %3 of the text&apos;s %4 tokens (head+tail), and nothing between them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Longer than %1 tokens: the model read all %2 of the text&apos;s tokens in %3 windows of up to %1, overlapping by %4, and pooled their scores (%5).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the largest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the mean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Window %1 (tokens %2 to %3) gave the answer its highest score.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 has no model on disk to try (its checkpoints were removed, or it has none yet).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>bert::ui::TryItResultView</name>
    <message>
        <source>the run&apos;s threshold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the threshold in the model folder&apos;s config.json</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the default threshold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No label reaches the threshold %1 (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Labels at or above the threshold %1 (%2):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Below the threshold:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicted “%1”:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In the target&apos;s units, as the model was trained on them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In the target&apos;s units: the run&apos;s standardisation (mean %1, scale %2) undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entity types:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No entities found in this text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The entity&apos;s first character in the text, counted from 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The entity&apos;s last character in the text, included (as predict --file writes it)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
