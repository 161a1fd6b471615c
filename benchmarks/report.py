#!/usr/bin/env python3
"""Writes docs/benchmarks.md and its charts (docs/benchmarks/*.svg) from benchmarks/results/*.json.
Nothing here measures; every figure comes from a results file a benchmark wrote.
Usage: python3 benchmarks/report.py (standard library only)
"""
import html
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
DOC = ROOT / "docs" / "benchmarks.md"
CHARTS = ROOT / "docs" / "benchmarks"
OURS_COLOR = "#2b7bb9"       # ours, in every chart
REFERENCE_COLOR = "#e08a2c"  # the reference (transformers / PyTorch / tokenizers)
EXTRA_COLOR = "#8c8c8c"      # a third series (forecast)


def load(name):
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text()) if path.is_file() else None


def bar_chart(file, title, categories, series, unit, width=760):
    """A horizontal grouped bar chart as SVG: categories top to bottom, one bar per series."""
    label_width, bar_height, gap, top = 330, 14, 10, 46
    plot_width = width - label_width - 80
    group_height = bar_height * len(series) + gap
    height = top + group_height * len(categories) + 20
    peak = max(value for _, _, values in series for value in values if value is not None) or 1.0
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="10" y="18" font-size="14" font-weight="bold">{html.escape(title)}</text>']
    x = 10
    for name, color, _ in series:
        parts.append(f'<rect x="{x}" y="28" width="10" height="10" fill="{color}"/>'
                     f'<text x="{x + 14}" y="37">{html.escape(name)}</text>')
        x += 24 + 7 * len(name)
    for i, category in enumerate(categories):
        y0 = top + i * group_height
        parts.append(f'<text x="{label_width - 8}" y="{y0 + group_height / 2}" text-anchor="end">'
                     f'{html.escape(category)}</text>')
        for j, (_, color, values) in enumerate(series):
            value = values[i]
            if value is None:
                continue
            y = y0 + j * bar_height
            length = max(1.0, value / peak * plot_width)
            parts.append(f'<rect x="{label_width}" y="{y}" width="{length:.1f}" height="{bar_height - 2}" '
                         f'fill="{color}"/>')
            parts.append(f'<text x="{label_width + length + 4:.1f}" y="{y + bar_height - 4}">'
                         f'{value:,.1f} {unit}</text>')
    parts.append("</svg>")
    CHARTS.mkdir(parents=True, exist_ok=True)
    (CHARTS / file).write_text("\n".join(parts) + "\n")
    return f"![{title}](benchmarks/{file})"


def machine_line(machine):
    return (f"{machine['cpu']}, {machine['threads']} threads, {machine['memory_gib']} GiB; torch {machine['torch']}, "
            f"transformers {machine['transformers']}; commit {machine['commit']}")


SETTING_WORDS = {"padding": lambda v: f"{v} padding" if v != "unpadded" else "unpadded",
                 "group_by_length": lambda v: "length grouping", "precision": lambda v: v,
                 "freeze_embeddings": lambda v: "frozen embeddings",
                 "freeze_layers": lambda v: f"{v} lower layers frozen",
                 "cache_frozen_prefix": lambda v: "frozen part cached"}


def settings_words(settings):
    """A run's settings in words: "unpadded, length grouping, bf16, frozen embeddings, ..."."""
    return ", ".join(SETTING_WORDS[key](value) for key, value in settings.items()
                     if key in SETTING_WORDS and value not in (False, None, 0))


TASK_TITLES = {"multi-label": "Multi-label", "regression": "Regression",
               "token-classification": "Token classification (NER)"}


def quality_of(figures, task):
    """The last column of a side-by-side row: accuracy, or the validation loss of other tasks."""
    value = figures.get("accuracy") if task == "single-label" else figures.get("validation_loss")
    return "-" if value is None else f"{value:.3f}" if task == "single-label" else f"{value:.4f}"


def encoders_summary(data):
    """Section 1e's question: what ModernBERT-base costs and saves against BERT-base, each side's
    figures of the two encoders on the same corpus put in one row."""
    out = ["### The two encoders side by side", "",
           "| corpus | samples/s ours: BERT-base / ModernBERT-base | samples/s Trainer: BERT-base / ModernBERT-base "
           "| real tokens/s ours: BERT-base / ModernBERT-base | MFU ours: BERT-base / ModernBERT-base "
           "| process peak ours (MiB): BERT-base / ModernBERT-base |", "|---|---|---|---|---|---|"]
    by_corpus = {}
    for row in data["rows"]:
        by_corpus.setdefault((row["corpus"], row["max_length"]), {})[row["model"]] = row
    for (corpus, length), models in by_corpus.items():
        bert, modern = models.get("bert-base"), models.get("modernbert-base")
        if not bert or not modern:
            continue

        def pair(side, key, form):
            return f"{form.format(bert[side][key])} / {form.format(modern[side][key])}"

        out.append(f"| {corpus} at {length} | {pair('ours', 'samples_per_second', '{:.2f}')} "
                   f"({modern['ours']['samples_per_second'] / bert['ours']['samples_per_second']:.2f}x) | "
                   f"{pair('reference', 'samples_per_second', '{:.2f}')} "
                   f"({modern['reference']['samples_per_second'] / bert['reference']['samples_per_second']:.2f}x) | "
                   f"{pair('ours', 'tokens_per_second', '{:,.0f}')} | {pair('ours', 'mfu', '{:.1%}')} | "
                   f"{pair('ours', 'peak_resident_mib', '{:.0f}')} |")
    costs = [f"{modern_row['ours']['flops_per_real_token'] / bert_row['ours']['flops_per_real_token']:.2f}x at "
             f"{length}" for (_, length), models in by_corpus.items()
             for bert_row, modern_row in [(models.get("bert-base"), models.get("modernbert-base"))]
             if bert_row and modern_row]
    out += ["", "Per real token ModernBERT-base does " + " and ".join(costs) + " BERT-base's model FLOPs: 22 "
            "layers with a gated MLP against 12, while two layers in three attend within a 128-token window "
            "(counted as such: `keys_per_token` in benchmarks/bench_common.py). The accuracy column is a sanity "
            "check only: both sides shuffle and drop out with their own random streams, so 12 steps from random "
            "weights may end on either side of the class split (ModernBERT at 512 ends predicting one class on "
            "each side, a different one); with the same order and dropout off the two sides train alike "
            "(section 1b).", ""]
    return out


def side_by_side_targets(rows, parity_models):
    """Issue 14's targets, each with what this run measured and whether it is met."""
    def ratios(predicate):
        return [(row, row["throughput_ratio"]) for row in rows if predicate(row)]

    def verdict(found, goal):
        if not found:
            return "-", "-"
        worst = min(found, key=lambda item: item[1])
        def name(row):  # the case, and which of Trainer's settings the row is at
            settings = "defaults" if row["reference_settings"].get("padding") == "fixed" else "best"
            return f"{row['case']} ({settings})" if row["setting"].startswith("equal") else row["case"]

        return (", ".join(f"{name(row)} {ratio:.2f}x" for row, ratio in found),
                "yes" if worst[1] >= goal else f"**no** (worst {worst[1]:.2f}x, {name(worst[0])})")

    def short_text_best_against(trainer_defaults):  # Trainer's defaults pad to the max length
        return ratios(lambda row: row["corpus"] == "subject lines"
                      and row["setting"].startswith("ours at our best against")
                      and (row["reference_settings"].get("padding") == "fixed") == trainer_defaults)

    equal = ratios(lambda row: row["setting"].startswith("equal"))
    best_vs_defaults = short_text_best_against(True)
    best_vs_best = short_text_best_against(False)
    fp32_equal = [(row, row["ours"]["mfu"]) for row in rows
                  if row["setting"].startswith("equal") and row["ours_settings"].get("precision", "fp32") == "fp32"]
    out = ["| target | measured | met |", "|---|---|---|"]
    for title, found, goal in (("ours at equal settings at least 1.2x Trainer", equal, 1.2),
                               ("short text: ours at our best at least 3x Trainer's defaults", best_vs_defaults, 3.0),
                               ("short text: ours at our best at least 1.5x Trainer's best", best_vs_best, 1.5)):
        measured, met = verdict(found, goal)
        out.append(f"| {title} | {measured} | {met} |")
    if fp32_equal:
        worst = min(value for _, value in fp32_equal)
        out.append("| MFU at equal settings (fp32) at least 50% of the GEMM peak | "
                   + ", ".join(f"{row['case']} {value:.0%}" for row, value in fp32_equal)
                   + f" | {'yes' if worst >= 0.5 else '**no**'} |")
    if parity_models is not None:
        out.append("| training parity with Trainer (losses and weights within 1e-4, 50 steps, fp32) | "
                   + ", ".join(f"{model} {'within' if passed else 'outside'}" for model, passed in parity_models.items())
                   + f" | {'yes' if all(parity_models.values()) else '**no**'} |")
    return out


def side_by_side_section(data, parity=None, heading=None, about=None, chart_prefix="side-by-side", summary=None):
    """Section 1 (heading None), or a later set of side-by-side cases measured in a run of its own
    (heading and about: its title and what it sets side by side; the method is section 1's; its
    charts named chart_prefix-<case>, and summary(data) giving lines after its cases)."""
    peaks = data["gemm_peak_gflops"]
    # The side-by-side rows are single-label: they lean on that task's parity rows only.
    parity_models = ({row["model"]: row["passed"] for row in parity["rows"]
                      if row.get("task", "single-label") == "single-label"} if parity else None)
    if heading:
        out = [heading, "", about, "",
               f"Machine: {machine_line(data['machine'])}. Threads: {data['threads']} on both sides. The method, "
               "the columns and MFU are section 1's; the GEMM peak of this run: "
               + ", ".join(f"{p} {v:.1f} GFLOP/s" for p, v in peaks.items()) + ".", ""]
        return out + side_by_side_cases(data, parity_models, chart_prefix) + (summary(data) if summary else [])
    out = ["## 1. Side by side with Hugging Face Trainer", "",
           f"Machine: {machine_line(data['machine'])}. Threads: {data['threads']} on both sides.", "",
           "Both sides start from the same weights (one folder written by `transformers`, seeded head), read "
           "the same stratified train and validation files, and use the same max length, micro-batch, steps, "
           "learning rate, seed and evaluation batch. The cases: the e-mails at 512 tokens (long, uneven "
           "texts: fixed padding wastes much) and their subject lines (the text before the first \" . \") at "
           "128 tokens (short texts: fixed padding is mostly pad), with MiniLM, BERT-base and ModernBERT-base "
           "(random weights over MiniLM's vocabulary, the cost of the architecture). Where a case ran several "
           "times, the two sides alternating, figures are the median with the spread (lowest to highest) in "
           "brackets, and a ratio's median and spread are of the ratios within each repeat. Throughput is examples per second over the steps after the first "
           f"{data['warmup_steps']} (first-use costs), leaving out the interval after an in-run evaluation "
           "(ours evaluates at each epoch's end, Trainer after training); *real tokens/s* counts non-pad tokens "
           "only. *Process peak* is the whole process's peak resident set (model, data, libraries and "
           "training); it replaces the growth during training of earlier tables, since our process now "
           "keeps the trial step's freed blocks in its heap for reuse, so its growth after the trial "
           "understated what training needs. Accuracy is on the validation examples after the run, a sanity check.", "",
           "*MFU* (model FLOP utilisation) is the FLOPs a step must do, counted from the model's configuration "
           "on real tokens only (linears, attention on each sequence's own length, backward twice forward, "
           "frozen layers forward only and, with the frozen-prefix cache, only in the epoch that computes them; "
           "recomputation and padding are not model FLOPs: `training_flops_per_real_token` in "
           "benchmarks/bench_common.py), per second, over this machine's matrix-multiply peak measured in the "
           f"same run ({data['gemm']}) in the row's precision: "
           + ", ".join(f"{p} {v:.1f} GFLOP/s" for p, v in peaks.items())
           + ". It is the ratio to the machine's limit, beside the ratio to Trainer.", ""]
    out += side_by_side_cases(data, parity_models)
    out += ["### Targets", ""] + side_by_side_targets(data["rows"], parity_models) + [""]
    out += ["Reproduce: `benchmarks/side_by_side.sh` (these four cases, 3 alternating repeats; `--cases "
            "emails-512-minilm` for one), then `python3 benchmarks/report.py`.", ""]
    return out


def side_by_side_cases(data, parity_models, chart_prefix="side-by-side"):
    """A table and a chart per case. Single-label cases end with the validation accuracy; the other
    tasks with the validation loss (both sides compute it the same way; Trainer gives them no metric)."""
    out = []
    for case in dict.fromkeys(row["case"] for row in data["rows"]):  # in the order they ran
        rows = [row for row in data["rows"] if row["case"] == case]
        first = rows[0]
        task = first.get("task", "single-label")
        subject = (f"{first['corpus'].capitalize()}" if task == "single-label"
                   else f"{TASK_TITLES.get(task, task)} (derived from the e-mails)")
        quality = "accuracy" if task == "single-label" else "validation loss"
        out += [f"### {subject} at {first['max_length']} tokens, {first['model']}", "",
                f"{first['train_examples']:,} training examples, micro-batch {first['shared']['batch_size']}, "
                f"{first['epochs']} epoch{'s' if first['epochs'] > 1 else ''} ({first['steps']} steps), learning "
                f"rate {first['shared']['lr']:g}.", "",
                "| row | ours: settings | samples/s ours / Trainer | **ratio** | real tokens/s ours / Trainer "
                "| padding ours / Trainer | **MFU** ours / Trainer | process peak ours / Trainer (MiB) "
                f"| {quality} ours / Trainer |", "|---|---|---|---|---|---|---|---|---|"]
        for row in rows:
            o, r = row["ours"], row["reference"]
            setting = row["setting"]
            # Parity is measured in fp32 (section 1b): it backs the fp32 equal rows.
            if (setting.startswith("equal") and row["ours_settings"].get("precision", "fp32") == "fp32"
                    and parity_models and row["model"] in parity_models):
                setting += f" (parity: {'within' if parity_models[row['model']] else 'outside'} 1e-4, section 1b)"
            spread = row.get("throughput_ratio_spread")
            ratio = f"**{row['throughput_ratio']:.2f}x**" + (f" ({spread[0]:.2f}-{spread[1]:.2f}, "
                                                               f"{row['repeats']} runs)" if spread else "")

            def speed(figures):
                low_high = figures.get("samples_per_second_spread")
                return f"{figures['samples_per_second']:.2f}" + (
                    f" ({low_high[0]:.2f}-{low_high[1]:.2f})" if low_high and row.get("repeats", 1) > 1 else "")

            out.append(f"| {setting} | {settings_words(row['ours_settings']) or '-'} | "
                       f"{speed(o)} / {speed(r)} | "
                       f"{ratio} | {o['tokens_per_second']:,.0f} / "
                       f"{r['tokens_per_second']:,.0f} | {o['padding_share']:.0%} / {r['padding_share']:.0%} | "
                       f"**{o['mfu']:.1%}** / {r['mfu']:.1%} | {o['peak_resident_mib']:.0f} / "
                       f"{r['peak_resident_mib']:.0f} | {quality_of(o, task)} / {quality_of(r, task)} |")
        out.append("")
        categories = [row["setting"].split(" (")[0].replace("ours at our best against", "best vs")
                      .replace("ours training the upper half", "upper half") for row in rows]
        out.append(bar_chart(f"{chart_prefix}-{case}-throughput.svg",
                             f"{first['corpus']} at {first['max_length']}, {first['model']}: samples/s "
                             "(higher is better)", categories,
                             [("ours", OURS_COLOR, [r["ours"]["samples_per_second"] for r in rows]),
                              ("HF Trainer", REFERENCE_COLOR, [r["reference"]["samples_per_second"] for r in rows])],
                             "/s"))
        out.append("")
    return out


def families_section(data):
    """The technique matrix's rows of every model family (technique_matrix.sh --families)."""
    out = matrix_section(data, tag="families-")
    out[0] = f"## 2b. Every model family, plain and with every technique ({data['device'].upper()})"
    out.insert(2, "Each family at one small shape (4 layers, 256 wide, random weights over MiniLM's vocabulary; "
               "ModernBERT with its local window of 64): the forecast counts each family's own tensors. The "
               "rows are for memory: measured peaks do not depend on the machine's load, while samples/s "
               "and MFU do (this run shared its 2 cores with builds, a load of about 8), and 30 steps from "
               "random weights end at the majority class (0.8333) for every family.")
    out.insert(3, "")
    return out


def matrix_section(data, tag=""):
    out = [f"## 2. Technique matrix ({data['device'].upper()})", "",
           f"Machine: {machine_line(data['machine'])}. Model: {data['model']}, max length {data['max_length']}, "
           f"{data['steps']} optimizer steps of 16 examples per row, learning rate 1e-4, seed 42; validation "
           "accuracy on the 600 held-out e-mails after those steps. *Peak* is the engine's measured peak of "
           "tensor bytes (CPU: our allocator's count; GPU: CUDA's peak allocated); *forecast* is what the "
           "studio shows before training; *training memory* is the process's resident-set growth during "
           "training.", "",
           "| configuration | samples/s | samples/s, earlier run | real tokens/s | MFU | peak (MiB) | forecast (MiB) "
           "| forecast error | training memory (MiB) | accuracy |", "|---|---|---|---|---|---|---|---|---|---|"]
    if data.get("gemm_peak_gflops"):
        out[2:2] = ["*MFU* as in section 1 (model FLOPs on real tokens over the GEMM peak in the row's precision, "
                    "measured in the same run: " + ", ".join(f"{p} {v:.1f} GFLOP/s"
                                                              for p, v in data["gemm_peak_gflops"].items())
                    + "; fp16 has no fast CPU path and is set against fp32's).", ""]
    # An earlier run of the same matrix shows the rows' speed before the later engine changes.
    earlier = load(f"technique_matrix-{tag}{data['device'].split(':')[0]}-earlier") or {"rows": []}
    earlier_speed = {row["name"]: row["samples_per_second"] for row in earlier["rows"]}
    for row in data["rows"]:
        before = earlier_speed.get(row["name"])
        out.append(f"| {row['name']} | {row['samples_per_second']:.2f} | "
                   f"{f'{before:.2f}' if before else '-'} | "
                   + (f"{row['tokens_per_second']:,.0f} | {row['mfu']:.1%} | " if "mfu" in row else "- | - | ")
                   + f"{row['peak_tensor_mib']:.1f} | "
                   f"{row['forecast_mib']:.1f} | {row['forecast_error']:+.1%} | {row['training_growth_mib']:.0f} | "
                   f"{row['accuracy']:.4f} |")
    worst = max(abs(row["forecast_error"]) for row in data["rows"])
    out += ["", f"Worst forecast error: {worst:.1%}.", ""]
    if earlier["rows"]:
        out += [f"The earlier run (commit {earlier['machine']['commit']}, the same kind of machine) shows the "
                "rows' speed before the engine changes since (among them the C heap reusing each step's "
                "largest blocks instead of mapping them anew, see the findings); each change's own effect is "
                "measured where it is described. Its peaks "
                "left out the model's weights, so only its samples/s are shown.", ""]
    names = [row["name"].split(":")[0] if len(row["name"]) > 44 else row["name"] for row in data["rows"]]
    device = data["device"].split(":")[0]
    out.append(bar_chart(f"matrix-{tag}{device}-memory.svg", "Peak memory, MiB: measured and forecast", names,
                         [("measured peak", OURS_COLOR, [r["peak_tensor_mib"] for r in data["rows"]]),
                          ("forecast", EXTRA_COLOR, [r["forecast_mib"] for r in data["rows"]])], "MiB"))
    out.append("")
    speed_series = [("this run", OURS_COLOR, [r["samples_per_second"] for r in data["rows"]])]
    if earlier["rows"]:
        speed_series.append(("earlier run", EXTRA_COLOR, [earlier_speed.get(r["name"]) for r in data["rows"]]))
    out.append(bar_chart(f"matrix-{tag}{device}-throughput.svg", "Samples/s (higher is better)", names, speed_series, "/s"))
    out += ["", f"Reproduce: `benchmarks/technique_matrix.sh`" + (" --families" if tag else "")
            + (f" --device {data['device']}" if data["device"] != "cpu" else "") + ", then `python3 benchmarks/report.py`.", ""]
    return out


def unpadded_section(data):
    out = ["## 1c. Unpadded batches against padded ones", "",
           f"Machine: {machine_line(data['machine'])}. One training micro-batch's forward and backward "
           "(`benchmarks/unpadded.cpp`, Google Benchmark, median of 3) on a MiniLM-shaped model, fp32, dropout "
           "0.1: the padded path pads the micro-batch to its longest text; the unpadded one runs everything but "
           "the attention scores on the real tokens only, attention grouped by length.", "",
           "| micro-batch | padded (ms) | unpadded (ms) | speed-up | real tokens/s unpadded |", "|---|---|---|---|---|"]
    for row in data["rows"]:
        out.append(f"| {row['title']} | {row['padded_ms']:.1f} | {row['unpadded_ms']:.1f} | **{row['speedup']:.2f}x** "
                   f"| {row['real_tokens_per_second_unpadded']:,.0f} |")
    return out + ["", "Reproduce: `benchmarks/unpadded.sh`, then `python3 benchmarks/report.py`.", ""]


def first_step_section(data):
    out = ["## 1d. Time to the first step", "",
           f"Machine: {machine_line(data['machine'])}. Best of {data['repeats']}. Command line: "
           "`bert-studio-cli train` with the bundled MiniLM and default settings, from the command's start to "
           "the first step's metrics (its parts from `--report`: *preparation* is the model, the data, "
           "tokenizing and the run's record; the *trial step* measures the real peak before training). Studio: "
           "from Start to the first point drawn on the charts (the UI test "
           "`Studio.StartToTheFirstChartPointWithAndWithoutTheTrialStep`, offscreen).", "",
           "| where | trial step | first step after (s) | preparation (s) | trial (s) | the step (s) |",
           "|---|---|---|---|---|---|"]
    for row in data["rows"]:
        def seconds(key):
            return f"{row[key]:.2f}" if key in row else "-"
        out.append(f"| {row['name']} | {'on' if row['trial_step'] else 'off'} | **{row['first_step_seconds']:.2f}** | "
                   f"{seconds('preparation_seconds')} | {seconds('trial_seconds')} | {seconds('step_seconds')} |")
    return out + ["", "Reproduce: `benchmarks/first_step.sh`, then `python3 benchmarks/report.py`.", ""]


def optimizer_section(data):
    out = ["## 4. AdamW step time", "",
           f"Machine: {machine_line(data['machine'])}; {data['threads']} threads. One step over all parameters "
           "with random gradients, weight decay on; best of 5 rounds.", "",
           "| model | parameters | variant | ms per step |", "|---|---|---|---|"]
    for row in data["rows"]:
        for variant, ms in row["step_ms"].items():
            out.append(f"| {row['model']} | {row['parameters'] / 1e6:.1f} M | {variant} | {ms:.1f} |")
        out.append(f"| {row['model']} | | **speed ours / fastest PyTorch** | **{row['ratio_ours_speed']:.2f}** |")
    out.append("")
    for row in data["rows"]:
        variants = list(row["step_ms"])
        out.append(bar_chart(f"optimizer-{row['model']}.svg", f"AdamW step, {row['model']}: ms (lower is better)",
                             variants, [("ms per step", OURS_COLOR, [row["step_ms"][v] for v in variants])], "ms"))
        out.append("")
    out += ["Reproduce: `benchmarks/optimizer.sh`, then `python3 benchmarks/report.py`.", ""]
    return out


def parity_section(data):
    out = ["## 1b. Training parity with Hugging Face Trainer", "",
           f"Machine of the latest rows: {machine_line(data['machine'])}. Threads: {data['threads']} on both "
           "sides. Each row names the commit and processor it was measured at.", "",
           "The proof that the speed above is honest: the same training, step for step. Both sides start from "
           "the same folder (dropout set to 0 in its config.json, the head named for the data's labels so "
           "that ours keeps it), read the same training file in its own order (ours `--no-shuffle`, Trainer "
           "`train_sampling_strategy=\"sequential\"`), fp32, dynamic padding, the same learning rate, warm-up, "
           "linear schedule, weight decay and clipping. Losses are each step's, unrounded (Trainer's own log "
           "rounds to 4 decimals, so hf_trainer_run.py records them from `compute_loss`); weights are the "
           "final `model.safetensors` of each (ours through `export --last`).", "",
           "Every task is compared so, through transformers' matching class: multi-label and "
           "regression through `AutoModelForSequenceClassification` with `problem_type` "
           "multi_label_classification (BCE with logits, the mean over examples x labels) and regression "
           "(num_labels 1, MSE, the target unstandardised: ours `--no-standardize-targets`), token classification "
           "through `AutoModelForTokenClassification` with run_ner.py's encoding (each word's first sub-word tagged, "
           "-100 elsewhere; the mean over tagged tokens). Their data is scripts/derive_task_sets.py's sets "
           "from the same e-mails (multilabel.csv, regression.csv, ner.conll), shuffled once (seed 42) into "
           "a training file of steps x micro-batch examples and a validation file of 40 given to both "
           "sides; the start folder carries the task's head and names the labels in our engine's order "
           "(multi-label sorted, tags O then B- and I- per type), which ours keeps and Trainer reads.", "",
           "| model | task | steps | micro-batch x max length | largest loss difference (step) | largest weight "
           "difference (tensor) | first step's loss ours / Trainer | within "
           f"{data['tolerance']:g} | measured at |", "|---|---|---|---|---|---|---|---|---|"]
    for row in data["rows"]:
        settings = row["settings"]
        first = row["first_losses"][0]
        out.append(f"| {row['model']} | {row.get('task', 'single-label')} | {row['steps']} | "
                   f"{settings['batch_size']} x {settings['max_length']} | "
                   f"{row['largest_loss_difference']:.2e} ({row['at_step']}) | "
                   f"{row['largest_weight_difference']:.2e} ({row['in_tensor']}) | {first[0]:.6f} / {first[1]:.6f} | "
                   f"{'yes' if row['passed'] else '**no**'} | {row.get('commit') or data['machine']['commit']} |")
    out += ["", "roberta-small, distilbert-small and electra-small (4 layers, 256 wide; ELECTRA's embeddings 128) "
            "and modernbert-small (6 layers, 256 wide, local window 64, max length 256 so that the window "
            "matters) start from random weights over MiniLM's vocabulary, their padding id its [PAD]: the "
            "comparison is of the families' arithmetic. So do the three newer families at the same size (4 "
            "layers, 256 wide, 4 heads): mpnet-small (its relative position bias; padding index 1, as "
            "transformers fixes it for MPNet), deberta-v3-small (DeBERTa-v3's form: no absolute positions or "
            "token types, c2p and p2c over 256 log buckets from one LayerNorm'd table shared through the "
            "query and key projections) and eurobert-small (4 query heads over 2 key-value heads, a SwiGLU "
            "feed-forward of 384, RMSNorm, rotary base 250000 as released, late pooling: the head on every token, "
            "its logits averaged over the real tokens).", "",
            "eurobert-small's weight differences, 1.1e-6 to 2.3e-6, are up to ten times the others' and sit in "
            "its embeddings alone (every other tensor is within 1.2e-7): in 18 to 33 of their 7.8 M weights, "
            "mostly in rows of words seen once or twice. Such a word's weights moved about 4.2e-4 in 50 steps, "
            "AdamW's full step each time; the element with the largest difference (\"leeds\", seen once, "
            "multi-label) moved 8.3e-5 on Trainer's side and 8.1e-5 on ours, a fifth of that, so its gradient "
            "was near AdamW's eps (1e-8), where the step follows the gradient's size and fp32 rounding of a "
            "gradient that small is a few percent of it. Its losses agree as the other families' do.", "",
            "Until commit 397ba4b ModernBERT's rows were a hundred times the others': 2.7e-5 in its norm "
            "weights in every task, and 2.8e-4 in its regression losses, outside the bound. The cause was "
            "ours: the weight-decay rule looked for \"LayerNorm\" in a parameter's name, so it decayed "
            "ModernBERT's norms (embeddings.norm, attn_norm, mlp_norm, final_norm, head.norm) and DistilBERT's "
            "(sa_layer_norm, output_layer_norm), which Trainer leaves undecayed; a norm weight near 1 then "
            "moves by lr x decay every step. The rule is now Trainer's (core/train/WeightDecay.h), and "
            "`FamilyParity.EveryFamilyDecaysTheWeightsTransformersTrainerDecays` checks it against "
            "`Trainer.get_decay_parameter_names` on every family.", "",
            "One known difference outside these fp32 rows: under fp16, when the loss scaler skips a step "
            "(non-finite gradients), Trainer leaves its learning-rate schedule where it was "
            "(`optimizer_step_was_skipped`), while ours advances it with the step count. Following Trainer "
            "would need the skip on the host before the next step's learning rate is set, a wait for the GPU "
            "every step; the skip is decided and applied on the device instead (the fused AdamW skips its "
            "update there). A run with a few skipped steps early (the scaler's first steps find the scale) "
            "therefore ends its schedule those few steps earlier than Trainer's; bf16 and fp32 never skip."]
    return out + ["", "Reproduce: `benchmarks/training_parity.sh --models minilm bert-base roberta-small "
                  "modernbert-small distilbert-small electra-small mpnet-small deberta-v3-small eurobert-small "
                  "--steps 50` (single-label) and `benchmarks/training_parity.sh --models minilm roberta-small "
                  "modernbert-small distilbert-small electra-small mpnet-small deberta-v3-small eurobert-small "
                  "--tasks multi-label regression token-classification --steps 50`, then "
                  "`python3 benchmarks/report.py`.", ""]


def data_parallel_section(data):
    device = data["device"]
    out = [f"## 6. Data parallel ({device.upper()}): one process against two", "",
           f"Machine: {machine_line(data['machine'])}. MiniLM, {data['steps']} steps of {data['effective_batch']} "
           f"examples x {data['max_length']} tokens whatever the number of processes (2 processes: 8 each), "
           "each process with its share of the threads. Throughput is the run store's samples/s per step after "
           "the warm-up; the optimizer state is what rank 0 measured after its first step, beside the forecast "
           "the run started with (per process).", "",
           "| run | samples/s | optimizer state on rank 0 (MiB) | forecast (MiB) |", "|---|---|---|---|"]
    for row in data["rows"]:
        out.append(f"| {row['name']} | {row['samples_per_second']:.2f} | {row['optimizer_state_mib']:.1f} | "
                   f"{row['forecast_optimizer_state_mib']:.1f} |")
    single = data["rows"][0]["samples_per_second"]
    out += ["", "On one 2-core machine the processes share the cores, so two are no faster than one: the table "
            f"shows the collective's cost ({data['rows'][1]['samples_per_second'] / single:.2f}x of one process's "
            "throughput) and the memory sharding saves. On a machine with several GPUs the same command gives each "
            "rank its own GPU and NCCL: `benchmarks/data_parallel.sh --device cuda` (or "
            "`bert-studio-cli train --nproc N --device cuda ...`; across machines, `torchrun --nnodes M "
            "--nproc-per-node N --no-python bert-studio-cli train ...`).", "",
            "Reproduce: `benchmarks/data_parallel.sh`, then `python3 benchmarks/report.py`.", ""]
    return out


def packages_section(data):
    out = ["## 5. Packages: size and install to first window", "",
           f"`benchmarks/packages.sh` on this {data['threads']}-thread machine, commit {data['commit']}:", "",
           "| package | .deb (zstd -6) | installed | build |", "|---|---|---|---|"]
    for package in data["packages"]:
        out.append(f"| {package['file']} | {package['deb_mib']:,.1f} MiB | {package['installed_mib']:,.1f} MiB | "
                   f"{package['build_seconds']:.1f} s |")
    return out + ["", f"Install to first window: {data['install_to_first_window_seconds']:.1f} s (unpacking both "
                  f"{data['unpack_seconds']:.1f} s, the studio's start to its first window drawn and saved "
                  f"{data['start_to_first_window_seconds']:.1f} s, under Xvfb). The runtime's size is the CUDA "
                  "build of the wheel (cuDNN, cuBLAS, NCCL, cuSPARSELt are most of it); no CPU-only LibTorch was "
                  "at hand to measure the alternative.", "", "Reproduce: `benchmarks/packages.sh`, then "
                  "`python3 benchmarks/report.py`.", ""]


def tokenizer_section(data):
    return ["## 3. Tokenizer throughput", "",
            f"Machine: {machine_line(data['machine'])}. One thread each, the 3,000 e-mails of the corpus, MiniLM's "
            "uncased vocabulary, no truncation. Ours: Google Benchmark. Reference: the faster of the Rust "
            "tokenizer's `encode` loop and `encode_batch` on one thread, best of 5.", "",
            "| ours (e-mails/s) | reference (e-mails/s) | ratio |", "|---|---|---|",
            f"| {data['ours_per_second']:,.0f} | {data['reference_per_second']:,.0f} ({data['reference']}) | "
            f"**{data['ratio']:.1f}** |", "",
            "Reproduce: `benchmarks/tokenizer.sh`, then `python3 benchmarks/report.py`.", ""]


def gpu_section(data):
    """The GPU kit's matrix (benchmarks/gpu/gpu_matrix.py): ours beside Trainer on one GPU."""
    machine = data["machine"]
    out = ["## GPU: technique matrix beside Hugging Face Trainer", "",
           f"GPU: {machine.get('gpu', '?')} ({machine.get('gpu_memory_gib', '?')} GiB); host {machine_line(machine)}. "
           f"Model: {data['model']}, max length {data['max_length']}, effective batch {data['effective_batch']}, "
           f"{data['steps']} steps per row ({data['warmup_steps']} warm-up steps left out of throughput), synthetic "
           "corpus (benchmarks/gpu/make_dataset.py). *Allocated* and *reserved* are the peaks of CUDA's caching "
           "allocator during training; *forecast* is what the studio shows before training, against our allocated peak.",
           "", "Reproduce on a GPU machine: `benchmarks/gpu/prepare.sh` here, then `benchmarks/gpu/run.sh all` there "
           "(docs: benchmarks/gpu/run.sh), then `python3 benchmarks/report.py`.", "",
           "| row | ours samples/s | Trainer samples/s | ratio | ours allocated / reserved MiB | "
           "Trainer allocated / reserved MiB | forecast MiB (error) |",
           "|---|---|---|---|---|---|---|"]
    for row in data["rows"]:
        ours, theirs = row["ours"], row.get("reference")
        error = f"{row['forecast_error']:+.1%}" if row.get("forecast_error") is not None else "-"
        out.append(f"| {row['name']} | {ours['samples_per_second']:.1f} | "
                   f"{theirs['samples_per_second']:.1f} | {row['speedup']:.2f} | " if theirs else
                   f"| {row['name']} | {ours['samples_per_second']:.1f} | - | - | ")
        out[-1] += (f"{ours['peak_allocated_mib']:.0f} / {ours['peak_reserved_mib']:.0f} | "
                    + (f"{theirs['peak_allocated_mib']:.0f} / {theirs['peak_reserved_mib']:.0f}" if theirs else "-")
                    + f" | {row['forecast_mib']:.0f} ({error}) |")
    goals = data.get("goals", {})
    if goals:
        out += ["", "Goals: "
                f"all techniques under 2.5 GiB: {goals.get('all_peak_gib', float('nan')):.2f} GiB; at most 1.5x the "
                f"baseline's time per example: x{goals.get('all_time_ratio', float('nan')):.2f}; equal settings at "
                f"least 1.3x Trainer: from x{goals.get('equal_speedup_min', float('nan')):.2f}; forecast within 10%: "
                f"worst {goals.get('worst_forecast_error', float('nan')):.1%}."]
    return out + [""]


def long_text_section(data):
    def spread(figure, fmt):
        low, high = figure["low"], figure["high"]
        middle = format(figure["median"], fmt)
        return middle if low == high else f"{middle} ({format(low, fmt)}–{format(high, fmt)})"

    limit = data.get("train_limit")
    validation = data.get("validation_limit")
    seeds = ", ".join(str(seed) for seed in data["seeds"])
    out = ["## 1g. Long texts: truncate, head+tail, windows", "",
           f"Machine: {machine_line(data['machine'])}. The shared e-mails (80% of them longer than 128 MiniLM "
           f"tokens, a median of 289), stratified: {'%d' % limit if limit else 'all'} training e-mails and "
           f"{'%d' % validation if validation else 'the'} validation e-mails (from the held-out fifth), MiniLM at max length {data['max_length']}, micro-batch {data['batch_size']}, "
           f"{data['epochs']} epoch(s), learning rate {data['learning_rate']:g}, unpadded with length grouping; "
           f"one run per strategy and seed (seeds {seeds}), the strategies alternating which goes first. Figures "
           "are the median over the seeds with the spread (lowest to highest) in brackets. Accuracy and macro-F1 "
           "are per e-mail for every strategy (windows are pooled per e-mail before scoring). *Examples* are "
           "what one epoch trains on (windows count). *Seconds per epoch* is the run's whole time per epoch, "
           "evaluation included, on a machine shared with other work (its spread says how much); *process "
           "peak* is the process's peak resident memory.", "",
           "| strategy | settings | accuracy | macro-F1 | examples | optimizer steps | seconds per epoch | process peak (MiB) |",
           "|---|---|---|---|---|---|---|---|"]
    for row in data["rows"]:
        settings = ", ".join(f"{key} {value}" for key, value in row["settings"].items())
        out.append(f"| {row['strategy']} | {settings} | {spread(row['accuracy'], '.4f')} | "
                   f"{spread(row['macro_f1'], '.4f')} | {row['train_examples']['median']:,} | "
                   f"{-(-row['train_examples']['median'] // data['batch_size']) * data['epochs']:,} | "
                   f"{spread(row['seconds_per_epoch'], '.0f')} | {spread(row['peak_resident_mib'], '.0f')} |")
    rows = {row["strategy"]: row for row in data["rows"]}
    if {"truncate", "windows"} <= rows.keys():
        truncate, windows = rows["truncate"], rows["windows"]
        out += ["", f"What it says: on these e-mails the three strategies score alike (accuracy "
                f"{truncate['accuracy']['median']:.4f} truncated, {windows['accuracy']['median']:.4f} in windows, "
                "within one e-mail of 300): whether an e-mail is spam shows in its first 126 tokens, so reading "
                f"the rest buys nothing, while windows train on {windows['train_examples']['median'] / truncate['train_examples']['median']:.1f}x "
                f"the examples (and steps), take about {windows['seconds_per_epoch']['median'] / truncate['seconds_per_epoch']['median']:.1f}x "
                f"the time and {windows['peak_resident_mib']['median'] - truncate['peak_resident_mib']['median']:.0f} MiB more at their peak. "
                "That is why the default stays truncate (transformers' own behaviour, at no extra cost) and the "
                "studio says, from the data, what the other strategies would make of it (the training log's note "
                "and the Dataset tab) instead of switching on its own. Where the evidence sits past the max length "
                "(contracts, threads, clinical notes) the comparison is one setting away. A shorter run shows the "
                "other side of the cost: with 1 epoch (seed 1, the same files), truncate and head+tail had not left "
                "the majority class after their 50 steps (accuracy 0.8333, macro-F1 0.4545) while windows, with "
                "166 steps, reached 0.9867: windows also mean more optimizer steps per epoch, so compare them at "
                "equal steps, not only equal epochs."]
    return out + ["", "Reproduce: `benchmarks/long_text.sh --train-limit 800 --validation-limit 300 --epochs 3`, then `python3 benchmarks/report.py`.", ""]


def spread_text(figure, fmt):
    """The median, with the spread (lowest to highest) when the runs differ."""
    low, high = figure["low"], figure["high"]
    middle = format(figure["median"], fmt)
    return middle if low == high else f"{middle} ({format(low, fmt)}–{format(high, fmt)})"


def calibration_section(data):
    seeds = ", ".join(str(seed) for seed in data["seeds"])
    out = ["## 7. Calibration: temperature scaling", "",
           f"Machine: {machine_line(data['machine'])}. The shared e-mails, stratified: {data['train_limit']} "
           f"training e-mails; {data['validation_limit']} held out, half of each label to fit the temperature "
           "(the run's validation set) and half as a test set it never saw. At max length "
           f"{data['max_length']}, micro-batch {data['batch_size']}, {data['epochs']} epochs, learning rate "
           f"{data['learning_rate']:g}, one evaluation per epoch, seeds {seeds}. Each run trains with "
           "`--temperature-scaling`; `predict --run --file` gives the test set's probabilities at the served "
           "evaluation's temperature, and the same probabilities without it. ECE over "
           f"{data['bins']} bins, as Guo et al.'s reference computes it. Medians over the seeds, the spread in "
           "brackets. ModernBERT's shape has random weights (the architecture's calibration after the same "
           "training, not a checkpoint's).", "",
           "| model | temperature | test ECE before | test ECE after | validation ECE before / after (fitted there) "
           "| test accuracy |", "|---|---|---|---|---|---|"]
    for row in data["rows"]:
        out.append(f"| {row['model']} | {spread_text(row['temperature'], '.2f')} | "
                   f"{spread_text(row['test_ece'], '.4f')} | {spread_text(row['test_calibrated_ece'], '.4f')} | "
                   f"{row['validation_ece']['median']:.4f} / {row['validation_calibrated_ece']['median']:.4f} | "
                   f"{spread_text(row['test_accuracy'], '.4f')} |")
    said = [f"{row['model']} from {row['test_ece']['median']:.4f} to {row['test_calibrated_ece']['median']:.4f}"
            for row in data["rows"]]
    under = all(row["temperature"]["median"] < 1 for row in data["rows"])
    out += ["", "What it says: the temperature fitted on the validation half lowers the expected calibration error "
            "on the test half, which it never saw (median " + "; ".join(said) + "), and changes no predicted label "
            "(dividing the logits by one positive number keeps their order). "
            + ("Every temperature is below 1: after this short training both models are underconfident, and the "
               "fit sharpens their probabilities. " if under else "")
            + "The validation figures after the fit are lower still: they are where it was fitted."]
    return out + ["", "Reproduce: `benchmarks/calibration.sh`, then `python3 benchmarks/report.py`.", ""]


def imbalance_section(data):
    seeds = ", ".join(str(seed) for seed in data["seeds"])
    spam = max(1, data["ham"] // data["ratio"])
    out = ["## 8. Class imbalance: four remedies", "",
           f"Machine: {machine_line(data['machine'])}. The shared e-mails subsampled to ham:spam "
           f"{data['ratio']}:1: {data['ham']} ham and {spam} spam e-mails to train on, "
           f"{data['ham'] * 2 // 5} and {max(1, data['ham'] * 2 // 5 // data['ratio'])} to validate on. MiniLM at "
           f"max length {data['max_length']}, micro-batch {data['batch_size']}, {data['epochs']} epochs, learning "
           f"rate {data['learning_rate']:g}, unpadded with length grouping; one run per remedy and seed (seeds "
           f"{seeds}), the remedies alternating which goes first. Figures of each run's last evaluation, the "
           "median over the seeds with the spread in brackets.", "",
           "| remedy | macro-F1 | spam recall | spam precision | accuracy |", "|---|---|---|---|---|"]
    for row in data["rows"]:
        out.append(f"| {row['remedy']} | {spread_text(row['macro_f1'], '.4f')} | "
                   f"{spread_text(row['spam_recall'], '.3f')} | {spread_text(row['spam_precision'], '.3f')} | "
                   f"{spread_text(row['accuracy'], '.4f')} |")
    rows = {row["remedy"]: row for row in data["rows"]}
    validation_spam = max(1, data["ham"] * 2 // 5 // data["ratio"])
    if {"plain", "focal loss (gamma 2)", "class weighting", "balanced sampling"} <= rows.keys():
        stuck = [name for name in ("plain", "focal loss (gamma 2)") if rows[name]["spam_recall"]["high"] == 0.0]
        out += ["", "What it says: " + (
            " and ".join(stuck) + " never left the majority class in these steps (spam recall 0 on every seed, "
            "the accuracy the ham share alone gives); " if stuck else "")
            + f"class weighting found a median {rows['class weighting']['spam_recall']['median']:.0%} of the spam, "
            f"balanced sampling, which shows the model as many spam e-mails as ham, "
            f"{rows['balanced sampling']['spam_recall']['median']:.0%}, without a false alarm. Focal loss alone "
            "reweighs examples by how sure the model is; while every spam e-mail is still a hard one the ham's count "
            "wins, which is why Lin et al. pair it with alpha balancing (here `--focal-gamma` with "
            f"`--class-weighting balanced`). The validation set holds {validation_spam} spam e-mails: recall moves "
            f"in steps of {1 / validation_spam:.2f}."]
    return out + ["", "Reproduce: `benchmarks/imbalance.sh`, then `python3 benchmarks/report.py`.", ""]


def label_errors_section(data):
    out = ["## 9. Likely label errors: labels flipped on purpose", "",
           f"Machine: {machine_line(data['machine'])}. The shared e-mails split (stratified, seeded) into "
           f"{data['examples']} to clean and a test set whose labels stay as they are; {data['flip']:.0%} of the "
           f"first set's labels flipped on purpose ({data['flipped']} e-mails, seeded). `bert-studio-cli clean` "
           f"trained MiniLM on {data['folds']} folds (max length {data['max_length']}, micro-batch "
           f"{data['batch_size']}, {data['epochs']} epochs, learning rate {data['learning_rate']:g}) and ranked the "
           "out-of-fold probabilities by confident learning (the same issues in the same order as cleanlab's "
           "`find_label_issues` on the same probabilities: tests/core/ConfidentLearningTest.cpp); then MiniLM "
           "trained once on the flipped labels and once on the cleaned copy (`--cleaned`, the found e-mails "
           "left out), both scored on the test set.", "",
           "| found | of them flipped | precision | recall | precision of the first "
           f"{data['flipped']} |", "|---|---|---|---|---|",
           f"| {data['found']} | {data['right']} | {data['precision']:.3f} | {data['recall']:.3f} | "
           f"{data['top_precision']:.3f} |", "",
           "| trained on | test accuracy | test macro-F1 |", "|---|---|---|",
           f"| the flipped labels | {data['noisy']['accuracy']:.4f} | {data['noisy']['macro_f1']:.4f} |",
           f"| the cleaned copy | {data['cleaned']['accuracy']:.4f} | {data['cleaned']['macro_f1']:.4f} |"]
    tests = round(data["examples"] / (1 - 0.2) * 0.2)  # the test share the script holds out
    change = data["cleaned"]["accuracy"] - data["noisy"]["accuracy"]
    out += ["", f"What it says: confident learning found {data['recall']:.0%} of the flipped labels, and "
            f"{data['precision']:.0%} of what it found was flipped (the rest are e-mails whose own label the "
            "held-out models doubt: worth a look too). Training again without them changed the test accuracy by "
            f"{change:+.4f} ({round(change * tests):+d} of about {tests} e-mails): at 5% random flips MiniLM "
            f"already learns past the noise ({data['noisy']['accuracy']:.4f} on the test set), so here the list "
            "is what is worth having, not the retraining."]
    return out + ["", "Reproduce: `benchmarks/label_errors.sh`, then `python3 benchmarks/report.py`.", ""]


FOUR_ENCODERS = [("bert-base", "BERT-base"), ("modernbert-base", "ModernBERT-base"), ("mpnet-base", "MPNet-base"),
                 ("deberta-v3-base", "DeBERTa-v3-base")]


def four_encoders_summary(data):
    """Section 1h's question: what each base shape costs beside BERT-base in the same run, and how far
    materialised attention (DeBERTa) falls behind the fused kernels the others use."""
    names = " / ".join(title for _, title in FOUR_ENCODERS)
    out = ["### The four encoders side by side", "",
           f"| corpus | samples/s ours: {names} | ratio ours / Trainer (median of the repeats) | MFU ours | MFU Trainer "
           "| process peak ours (MiB) |", "|---|---|---|---|---|---|"]
    by_corpus = {}
    for row in data["rows"]:
        by_corpus.setdefault((row["corpus"], row["max_length"]), {})[row["model"]] = row
    costs = []
    for (corpus, length), models in by_corpus.items():
        present = [models.get(key) for key, _ in FOUR_ENCODERS]
        if not all(present):
            continue

        def each(side, key, form):
            return " / ".join(form.format(row[side][key]) for row in present)

        out.append(f"| {corpus} at {length} | {each('ours', 'samples_per_second', '{:.2f}')} | "
                   + " / ".join(f"{row['throughput_ratio']:.2f}x" for row in present)
                   + f" | {each('ours', 'mfu', '{:.1%}')} | {each('reference', 'mfu', '{:.1%}')} | "
                   f"{each('ours', 'peak_resident_mib', '{:.0f}')} |")
        bert, deberta = models["bert-base"], models["deberta-v3-base"]
        costs.append(f"at {length} DeBERTa-v3-base trains at "
                     f"{deberta['ours']['samples_per_second'] / bert['ours']['samples_per_second']:.2f}x BERT-base's "
                     f"samples/s for {deberta['ours']['flops_per_real_token'] / bert['ours']['flops_per_real_token']:.2f}x "
                     f"its model FLOPs per token, at {deberta['ours']['mfu']:.0%} MFU against BERT-base's "
                     f"{bert['ours']['mfu']:.0%}")
    if costs:
        out += ["", "The cost of materialised attention, said plainly: " + "; ".join(costs) + ". Its "
                "relative-position terms are counted as model FLOPs (bench_common.py's `relative_terms`), so the "
                "MFU gap is the time its unfused attention (three score products, two gathers, a softmax and its "
                "backward over [B, H, L, L] in memory) spends beyond the arithmetic; the other three run through "
                "fused attention kernels on both sides.", ""]
    return out


def main():
    out = ["# Benchmarks", "",
           "Generated by `benchmarks/report.py` from `benchmarks/results/*.json`; do not edit by hand. "
           "Each section names the machine its figures came from and the command that reproduces them. "
           "These are benchmarks, not tests: nothing here passes or fails.", ""]
    sections = [("side_by_side", lambda data: side_by_side_section(data, load("training_parity"))),
                ("side_by_side_families", lambda data: side_by_side_section(
                    data, load("training_parity"), "## 1e. ModernBERT-base beside BERT-base",
                    "The modern encoder against the classic one on the same e-mails at 512 tokens and their subject "
                    "lines at 128, both with random weights over MiniLM's vocabulary (the cost of the architecture, "
                    "not of a checkpoint): ours at our best (unpadded, length grouping, bf16) against Trainer's best "
                    "(dynamic padding, length grouping, bf16), the two alternating, three repeats. Reproduce: "
                    "`benchmarks/side_by_side.sh --cases emails-512-bert-base emails-512-modernbert-base "
                    "subjects-128-bert-base subjects-128-modernbert-base --rows best --repeats 3 --results "
                    "side_by_side_families`, then `python3 benchmarks/report.py`.", "side-by-side-families",
                    encoders_summary)),
                ("side_by_side_tasks", lambda data: side_by_side_section(
                    data, None, "## 1f. Each task beside Trainer",
                    "MiniLM on the sets scripts/derive_task_sets.py derives from the e-mails, through transformers' "
                    "matching class and problem_type (training parity per task: section 1b): ours at our best "
                    "against Trainer's best, the two alternating, three repeats. Reproduce: "
                    "`benchmarks/side_by_side.sh --cases multi-label-128-minilm regression-128-minilm "
                    "token-classification-128-minilm --rows best --repeats 3 --results side_by_side_tasks`, then "
                    "`python3 benchmarks/report.py`.", "side-by-side-tasks")),
                ("long_text", long_text_section),
                ("side_by_side_second_set", lambda data: side_by_side_section(
                    data, None, "## 1h. DeBERTa-v3 and MPNet beside Trainer, BERT-base and ModernBERT-base",
                    "The second set's two most used families in their base shapes (random weights over MiniLM's "
                    "vocabulary, as BERT-base and ModernBERT-base in section 1e) on the same subsets: ours at our "
                    "best against Trainer's best, the two alternating, three repeats. DeBERTa's attention is "
                    "materialised on both sides (no fused kernel takes its content-dependent c2p and p2c scores): "
                    "per layer it computes the [B, H, L, L] scores three ways and gathers [B, H, L, 2k] relative "
                    "terms, which is why its MFU is the lowest of the families on either side. BERT-base and "
                    "ModernBERT-base ran in the same run, so the four compare in samples/s too (the last table). "
                    "Reproduce: `benchmarks/side_by_side.sh --cases subjects-128-bert-base "
                    "subjects-128-modernbert-base subjects-128-mpnet-base subjects-128-deberta-v3-base "
                    "emails-512-bert-base emails-512-modernbert-base emails-512-mpnet-base "
                    "emails-512-deberta-v3-base --rows best --repeats 3 --results side_by_side_second_set`, then "
                    "`python3 benchmarks/report.py`.", "side-by-side-second-set", four_encoders_summary)),
                ("training_parity", parity_section), ("unpadded", unpadded_section), ("first_step", first_step_section),
                ("technique_matrix-cpu", matrix_section), ("technique_matrix-families-cpu", families_section),
                ("technique_matrix-cuda", matrix_section), ("technique_matrix-gpu", gpu_section),
                ("tokenizer", tokenizer_section),
                ("optimizer", optimizer_section), ("packages", packages_section),
                ("data_parallel-cpu", data_parallel_section), ("data_parallel-cuda", data_parallel_section),
                ("calibration", calibration_section), ("imbalance", imbalance_section),
                ("label_errors", label_errors_section)]
    for name, section in sections:
        data = load(name)
        if data:
            out += section(data)
    if not load("technique_matrix-cuda") and not load("technique_matrix-gpu"):
        out += [
            "## GPU",
            "",
            "No GPU figures yet: no session that worked on this was lent a GPU. The GPU kit is ready for one: "
            "`benchmarks/gpu/prepare.sh` on this machine, then one call through the device tool, "
            "`run(command=\"bash benchmarks/gpu/run.sh\", carry=[\".gpu-kit\"], timeout_s=600)`, which builds there "
            "and writes `summary.txt`, its logs and `technique_matrix-gpu.json` to `$OUT`; copy that JSON into "
            "`benchmarks/results/` and run `python3 benchmarks/report.py`. Rehearse the call here first with "
            "`benchmarks/gpu/rehearse.sh`.",
            "",
            "The matrix runs BERT-base's shape first (every technique alone and all together, each beside Trainer"
            " with equal settings), then ModernBERT-base's shape and token classification (NER, BERT-base's shape"
            " on a synthetic CoNLL corpus made on the device), each at Trainer's best settings (dynamic padding, "
            "bf16) and with ours unpadded against that same Trainer run. The JSON is rewritten after every row, "
            "so a call cut by its time limit still returns the rows that ran.",
            "",
            "What the CUDA paths do that the CPU tests can only stand in for (`tests/core/StepClockTest.cpp`, "
            "`tests/cuda/`):",
            "",
            "- A logged step is read one step late: its figures (loss sum, gradient norm, skipped steps, loss "
            "scale) are copied into pinned host memory behind the step's work with an event after the copy, and "
            "the host waits for that event only once the next step has been queued, so the device is never idle "
            "while the host reads (with a log every step, the default, a read per step used to drain the GPU "
            "every step). A logged step before an evaluation, an epoch's end or a stop is read at once, so the "
            "curves and the evaluations keep their order. Its time runs from read to read.",
            "- TF32 (`--tf32`) is set and read through PyTorch's `fp32_precision` settings, as transformers does "
            "on torch 2.9 and newer; the legacy flags' getters throw once anything in the process used the new "
            "settings.",
            "- torch's wheel carries protobuf headers of its own (3.13 in torch 2.11, the GPU machine's; 3.21.12 "
            "in 2.15, Debian's version), on a path searched before the system's; the ONNX export's files are "
            "built against the protobuf that ONNX was generated with, through a folder that holds only a link to "
            "it.",
            "",
        ]
    findings = ROOT / "benchmarks" / "findings.md"
    if findings.is_file():
        out += [findings.read_text()]
    DOC.write_text("\n".join(out))
    print(f"wrote {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
