#!/usr/bin/env python3
"""One Hugging Face Trainer run, the reference side of benchmarks/side_by_side.py.

Takes the same settings as `bert-studio-cli train` and writes a report in the same JSON form as
its `--report FILE`: per-step end times and sizes, process resident memory from the start of
training (the peak is reset in on_train_begin, as ours is reset when training starts), and the
final validation accuracy. Only the venv's transformers and torch are used.

--task picks the task as `train --task` does; each goes through transformers' own class and loss:
single-label (the default) and multi-label and regression through AutoModelForSequenceClassification
with the folder's problem_type (multi_label_classification: BCE with logits over a 0/1 row of the
labels, the label column split at --label-separator; regression: MSE over num_labels 1, the label
column a number), token-classification through AutoModelForTokenClassification with a CoNLL file
("word TAG" per line, a blank line between sentences, -DOCSTART- skipped) encoded as transformers'
examples/pytorch/token-classification/run_ner.py encodes it: the tokenizer loaded with
add_prefix_space for RoBERTa-like families, words as is_split_into_words, only a word's first
sub-word labelled and -100 elsewhere, DataCollatorForTokenClassification. The label ids of the
tasks other than single-label are the model folder's id2label (the order our engine numbers them
in), so both sides train the same head.
"""
import argparse
import csv
import dataclasses
import json
import os
import sys
import time

import torch
from transformers import (AutoConfig, AutoModelForSequenceClassification, AutoModelForTokenClassification,
                          AutoTokenizer, DataCollatorForTokenClassification, DataCollatorWithPadding, Trainer,
                          TrainerCallback, TrainingArguments)

TASKS = ("single-label", "multi-label", "regression", "token-classification")
# run_ner.py's families whose tokenizer needs add_prefix_space=True for pre-split words.
PREFIX_SPACE_FAMILIES = {"bloom", "gpt2", "roberta", "deberta"}


def status_bytes(field):
    """One 'Name:   1234 kB' line of /proc/self/status, in bytes (-1 when absent)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return -1


def reset_peak_resident():
    """Restarts VmHWM from the current resident size, as ProcessMemory.cpp does."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
        return True
    except OSError:
        return False


def read_rows(path, text_column, label_column):
    csv.field_size_limit(sys.maxsize)
    with open(path, newline="", encoding="utf-8") as f:
        return [(row[text_column], row[label_column]) for row in csv.DictReader(f)]


def read_conll(path):
    """(words, tags) per sentence of a CoNLL file: the first field of a line is the word, the last
    its tag; a blank line ends a sentence; -DOCSTART- lines are skipped."""
    sentences, words, tags = [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0] == "-DOCSTART-":
                if words:
                    sentences.append((words, tags))
                words, tags = [], []
                continue
            words.append(fields[0])
            tags.append(fields[-1])
    if words:
        sentences.append((words, tags))
    return sentences


def folder_labels(model):
    """The folder's label names in id order (config.json's id2label)."""
    id2label = AutoConfig.from_pretrained(model).id2label
    return [id2label[i] for i in range(len(id2label))]


def task_targets(task, rows, labels, separator):
    """Each row's target as the task's transformers class takes it: a class id, a 0/1 row of
    floats (BCE needs floats), or one float."""
    if task == "single-label":
        label_ids = {label: i for i, label in enumerate(labels)}
        return [label_ids[label] for _, label in rows]
    if task == "regression":
        return [float(value) for _, value in rows]
    label_ids = {label: i for i, label in enumerate(labels)}
    targets = []
    for _, cell in rows:
        row = [0.0] * len(labels)
        for label in (part.strip() for part in cell.split(separator)):
            if label:
                row[label_ids[label]] = 1.0
        targets.append(row)
    return targets


class TokenCounter:
    """A forward pre-hook counting real and padded tokens of every micro-batch the model sees
    (the data loader prefetches, so counting in the collator would shift batches across steps)."""

    def __init__(self):
        self.batches = []

    def __call__(self, module, args, kwargs):
        mask = kwargs.get("attention_mask")
        if mask is not None and module.training:
            # The sum stays a tensor until training ends: int() here would wait for the GPU at
            # every micro-batch, a wait of our making that Trainer itself does not have.
            self.batches.append((mask.detach().sum(), mask.numel()))


class StepTimes(TrainerCallback):
    def __init__(self, counter, examples_per_step):
        self.counter = counter
        self.examples_per_step = examples_per_step
        self.steps = []
        self.started = 0.0
        self.resident_at_start = -1
        self.peak_reset = False
        self.peak_training = -1
        self.consumed = 0
        self.cuda_peaks = None  # (allocated, reserved) during training, on CUDA
        self.losses = None  # the step's micro-batch losses, unrounded (LossRecordingTrainer)

    def on_train_begin(self, args, state, control, **kwargs):
        self.resident_at_start = status_bytes("VmRSS")
        self.peak_reset = reset_peak_resident()
        if torch.cuda.is_available() and not args.use_cpu:
            torch.cuda.reset_peak_memory_stats()  # as ours resets its peak when training starts
        self.started = time.perf_counter()

    def on_step_end(self, args, state, control, **kwargs):
        if state.global_step >= state.max_steps and torch.cuda.is_available() and not args.use_cpu:
            # The last step's time includes the work still queued on the GPU, as ours does with
            # the read that reports its last step.
            torch.cuda.synchronize()
        batches = self.counter.batches[self.consumed:]
        self.consumed = len(self.counter.batches)
        step = {
            "step": state.global_step,
            "end_seconds": time.perf_counter() - self.started,
            "examples": self.examples_per_step,
            "real_tokens": [b[0] for b in batches],  # tensors, summed at the end of training
            "padded_tokens": sum(b[1] for b in batches),
        }
        if self.losses is not None and self.losses:
            step["loss"] = list(self.losses)  # tensors: each micro-batch's share of the mean
            self.losses.clear()
        self.steps.append(step)
        self.peak_training = status_bytes("VmHWM")

    def on_train_end(self, args, state, control, **kwargs):
        # The figures kept on the device, read once now.
        for step in self.steps:
            step["real_tokens"] = int(sum(int(t) for t in step["real_tokens"]))
            if "loss" in step:
                step["loss"] = sum(float(loss) for loss in step["loss"])
        if torch.cuda.is_available() and not args.use_cpu:
            self.cuda_peaks = (torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved())


class LossRecordingTrainer(Trainer):
    """Trainer that keeps every micro-batch's loss as a full-precision number: its own logging
    rounds the loss to 4 decimals, too coarse for a 1e-4 parity check. With accumulation each
    micro-batch's loss is scaled to its share of the step, as Trainer's backward scales it."""

    def __init__(self, *args, losses, accumulation, **kwargs):
        super().__init__(*args, **kwargs)
        self.recorded_losses = losses
        self.accumulation = accumulation

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        result = super().compute_loss(model, inputs, return_outputs=return_outputs,
                                      num_items_in_batch=num_items_in_batch)
        loss = result[0] if return_outputs else result
        if model.training:
            share = 1.0 if num_items_in_batch is not None and self.model_accepts_loss_kwargs else 1.0 / self.accumulation
            # Kept on the device (read when training ends): float() here would wait for the GPU
            # at every micro-batch.
            self.recorded_losses.append(loss.detach().double() * share)
        return result


def load_with_sdpa(auto_class, folder, **extra):
    """The model with PyTorch's fused attention where its class has it; DeBERTa's disentangled
    attention has none in transformers (its scores are formed in the open), so eager there."""
    try:
        return auto_class.from_pretrained(folder, attn_implementation="sdpa", **extra)
    except ValueError as error:
        if "scaled_dot_product_attention" not in str(error):
            raise
        return auto_class.from_pretrained(folder, attn_implementation="eager", **extra)

def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", required=True)
    parser.add_argument("--train", required=True)
    parser.add_argument("--validation", required=True)
    parser.add_argument("--text-column", default="text")
    parser.add_argument("--label-column", default="label")
    parser.add_argument("--task", choices=TASKS, default="single-label")
    parser.add_argument("--label-separator", default=";", help="multi-label: what separates the labels")
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--padding", choices=["fixed", "dynamic"], default="dynamic")
    parser.add_argument("--group-by-length", action="store_true")
    parser.add_argument("--no-shuffle", action="store_true", help="the file's order (a sequential sampler)")
    parser.add_argument("--save-model", help="also save the trained model to this folder")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--accumulation", type=int, default=1)
    parser.add_argument("--eval-batch-size", type=int, default=64)
    parser.add_argument("--max-steps", type=int, required=True)
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--weight-decay", type=float, default=0.01)
    parser.add_argument("--warmup-ratio", type=float, default=0.06)  # transformers 5: a float warmup_steps
    parser.add_argument("--max-grad-norm", type=float, default=1.0)
    parser.add_argument("--precision", choices=["fp32", "bf16", "fp16"], default="fp32")
    parser.add_argument("--device", default="cpu", help="cpu or cuda:N")
    parser.add_argument("--gradient-checkpointing", action="store_true")
    parser.add_argument("--optim", default="adamw_torch_fused", help="TrainingArguments.optim")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--report", required=True)
    parser.add_argument("--output-dir", required=True)
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    if args.device.startswith("cuda"):
        torch.cuda.set_device(torch.device(args.device))
        # Exact fp32 matrix products, as ours computes them.
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
    pad = "max_length" if args.padding == "fixed" else False
    if args.task == "token-classification":
        labels = folder_labels(args.model)
        label_ids = {label: i for i, label in enumerate(labels)}
        model_type = AutoConfig.from_pretrained(args.model).model_type
        tokenizer = AutoTokenizer.from_pretrained(
            args.model, **({"add_prefix_space": True} if model_type in PREFIX_SPACE_FAMILIES else {}))

        def encode(sentences):
            # run_ner.py's tokenize_and_align_labels with label_all_tokens False.
            encoded = tokenizer([words for words, _ in sentences], truncation=True, max_length=args.max_length,
                                padding=pad, is_split_into_words=True)
            examples = []
            for i, (_, tags) in enumerate(sentences):
                word_ids, previous, token_labels = encoded.word_ids(batch_index=i), None, []
                for word in word_ids:
                    token_labels.append(-100 if word is None or word == previous else label_ids[tags[word]])
                    previous = word
                examples.append({"input_ids": encoded["input_ids"][i], "attention_mask": encoded["attention_mask"][i],
                                 "labels": token_labels})
            return examples

        train_set, validation_set = encode(read_conll(args.train)), encode(read_conll(args.validation))
        collator = DataCollatorForTokenClassification(tokenizer)
        model = load_with_sdpa(AutoModelForTokenClassification, args.model)
    else:
        train_rows = read_rows(args.train, args.text_column, args.label_column)
        validation_rows = read_rows(args.validation, args.text_column, args.label_column)
        labels = (sorted({label for _, label in train_rows}) if args.task == "single-label"
                  else folder_labels(args.model))
        tokenizer = AutoTokenizer.from_pretrained(args.model)

        def encode(rows):
            encoded = tokenizer([text for text, _ in rows], truncation=True, max_length=args.max_length, padding=pad)
            targets = task_targets(args.task, rows, labels, args.label_separator)
            return [{"input_ids": ids, "attention_mask": mask, "labels": target}
                    for ids, mask, target in zip(encoded["input_ids"], encoded["attention_mask"], targets)]

        train_set, validation_set = encode(train_rows), encode(validation_rows)
        collator = DataCollatorWithPadding(tokenizer)
        # The other tasks take num_labels and problem_type from the folder's config.json.
        extra = {"num_labels": len(labels)} if args.task == "single-label" else {}
        model = load_with_sdpa(AutoModelForSequenceClassification, args.model, **extra)
    counter = TokenCounter()
    model.register_forward_pre_hook(counter, with_kwargs=True)

    # transformers renamed gradient_checkpointing to activation_checkpointing (5.23 has both
    # spellings, 5.17, the GPU machine's, only the old one): pass the one this version has.
    fields = {field.name for field in dataclasses.fields(TrainingArguments)}
    checkpointing = ("activation_checkpointing" if "activation_checkpointing" in fields
                     else "gradient_checkpointing")
    training_args = TrainingArguments(
        **{checkpointing: args.gradient_checkpointing},
        output_dir=args.output_dir, use_cpu=args.device == "cpu", report_to=[], disable_tqdm=True, seed=args.seed,
        per_device_train_batch_size=args.batch_size, per_device_eval_batch_size=args.eval_batch_size,
        gradient_accumulation_steps=args.accumulation, max_steps=args.max_steps,
        learning_rate=args.lr, weight_decay=args.weight_decay, warmup_steps=args.warmup_ratio,
        max_grad_norm=args.max_grad_norm, bf16=args.precision == "bf16", fp16=args.precision == "fp16",
        optim=args.optim,
        train_sampling_strategy=("group_by_length" if args.group_by_length
                                 else "sequential" if args.no_shuffle else "random"),
        logging_strategy="no", save_strategy="no", eval_strategy="no", dataloader_num_workers=0)

    def accuracy(prediction):
        return {"accuracy": float((prediction.predictions.argmax(-1) == prediction.label_ids).mean())}

    timer = StepTimes(counter, args.batch_size * args.accumulation)
    timer.losses = []
    trainer = LossRecordingTrainer(model=model, args=training_args, train_dataset=train_set,
                                   eval_dataset=validation_set, data_collator=collator, callbacks=[timer],
                                   compute_metrics=accuracy if args.task == "single-label" else None,
                                   losses=timer.losses,
                                   accumulation=args.accumulation)
    started = time.perf_counter()
    trainer.train()
    seconds = time.perf_counter() - started
    if args.save_model:
        trainer.save_model(args.save_model)
    evaluation = trainer.evaluate()

    report = {
        "engine": f"transformers {__import__('transformers').__version__} Trainer, torch {torch.__version__}",
        "optim": args.optim,
        "status": "completed",
        "train_examples": len(train_set),
        "validation_examples": len(validation_set),
        "steps": timer.steps,
        "evaluations": [{"step": timer.steps[-1]["step"], "loss": evaluation["eval_loss"],
                         "accuracy": evaluation.get("eval_accuracy")}],
        "seconds": seconds,
        "resident_at_start_bytes": timer.resident_at_start,
        "peak_resident_training_bytes": timer.peak_training if timer.peak_reset else -1,
        "peak_resident_process_bytes": status_bytes("VmHWM"),
    }
    if timer.cuda_peaks:
        # From on_train_begin to on_train_end: training's peaks, evaluation left out.
        report["device"] = torch.cuda.get_device_name()
        report["peak_tensor_bytes"], report["peak_reserved_bytes"] = timer.cuda_peaks
    with open(args.report, "w") as f:
        json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
