#!/usr/bin/env python3
"""Writes the seed corpora of the libFuzzer targets (tests/fuzz) from files the project has: the
sample dataset, small hand-made model files and, when the venv's MiniLM is there, its config,
vocabulary and tokenizer.json. The fuzzer grows each corpus from these seeds.

Usage: fuzz_corpus.py OUT_FOLDER [MINILM_FOLDER]
"""
import csv
import io
import json
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def write(folder, name, data):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


def varint(value):
    out = bytearray()
    while True:
        out.append((value & 0x7F) | (0x80 if value > 0x7F else 0))
        value >>= 7
        if not value:
            return bytes(out)


def sentencepiece_model():
    """A SentencePiece model in protobuf's wire format, DeBERTa-v3's layout: control pieces,
    [UNK] at 3, normal pieces, a user defined one; the trainer spec says Unigram, unk_id 3."""
    def field(number, data):
        return varint(number << 3 | 2) + varint(len(data)) + data

    def piece(text, score, kind):
        return (field(1, text.encode()) + varint(2 << 3 | 5) + struct.pack("<f", score)
                + varint(3 << 3) + varint(kind))
    pieces = [("[PAD]", 0, 3), ("[CLS]", 0, 3), ("[SEP]", 0, 3), ("[UNK]", 0, 2),
              ("\u2581hello", -1, 1), ("\u2581", -3, 1), ("h", -4, 1), ("<url>", 0, 4)]
    trainer = varint(3 << 3) + varint(1) + varint(40 << 3) + varint(3)
    return b"".join(field(1, piece(*p)) for p in pieces) + field(2, trainer)


def main():
    out = Path(sys.argv[1])
    minilm = Path(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else None
    sample = (ROOT / "resources" / "sample" / "support-tickets.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(sample)))[:40]
    head = "\n".join(sample.splitlines()[:41]) + "\n"
    table = out / "fuzz_table"
    write(table, "sample.csv", b"\x00" + head.encode())
    tsv = "\n".join("\t".join(r.values()) for r in [dict(zip(rows[0], rows[0]))] + rows) + "\n"
    write(table, "sample.tsv", b"\x01" + tsv.encode())
    write(table, "sample.jsonl", b"\x02" + "".join(json.dumps(r) + "\n" for r in rows).encode())
    write(table, "quoted.csv", b"\x00" + 'text,label\n"a, ""quoted"" one",pos\n"multi\nline",neg\n'.encode())

    # Tagged data: CoNLL-2003 with its columns, JSONL tokens/tags (BIO and IOBES), CLUENER spans.
    tagged = out / "fuzz_tagged"
    write(tagged, "conll.conll", b"\x00" + "-DOCSTART- -X- -X- O\n\nEU NNP B-NP B-ORG\nrejects VBZ B-VP O\n"
          "German JJ B-NP B-MISC\n\nPeter B-PER\nBlackburn I-PER\n".encode())
    write(tagged, "tokens.jsonl", b"\x01" + (json.dumps({"tokens": ["John", "lives", "in", "New", "York"],
                                                           "tags": ["S-PER", "O", "O", "B-LOC", "E-LOC"]})
                                              + "\n").encode())
    write(tagged, "spans.json", b"\x02" + (json.dumps({"text": "浙商银行企业信贷部 叶老桂博士",
                                                         "label": {"name": {"叶老桂": [[10, 12]]},
                                                                   "company": {"浙商银行": [[0, 3]]}}},
                                                        ensure_ascii=False) + "\n").encode())

    small_config = {"model_type": "bert", "vocab_size": 64, "hidden_size": 32, "num_hidden_layers": 2,
                    "num_attention_heads": 4, "intermediate_size": 64, "hidden_act": "gelu",
                    "max_position_embeddings": 128, "id2label": {"0": "neg", "1": "pos"}}
    write(out / "fuzz_config_json", "small.json", json.dumps(small_config))
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "##s", "un", "##believ", "##able"]
    write(out / "fuzz_vocab", "small.txt", "\n".join(vocab) + "\n\x00hello worlds, unbelievable!")
    tokenizer = {"normalizer": {"type": "BertNormalizer", "lowercase": True, "clean_text": True,
                                "handle_chinese_chars": True, "strip_accents": None},
                 "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                           "max_input_chars_per_word": 100, "vocab": {t: i for i, t in enumerate(vocab)}}}
    write(out / "fuzz_tokenizer_json", "small.json", json.dumps(tokenizer))
    # The other layouts of the tokenizer.json pipeline: byte-level BPE with RoBERTa's processor,
    # Unigram with Metaspace, a template and added tokens.
    bpe_vocab = {"h": 0, "e": 1, "l": 2, "o": 3, "\u0120": 4, "he": 5, "ll": 6, "hell": 7,
                 "hello": 8, "<s>": 9, "</s>": 10, "<mask>": 11, "<0x41>": 12}
    bpe = {"version": "1.0",
           "added_tokens": [{"id": 9, "content": "<s>", "special": True, "normalized": False},
                            {"id": 11, "content": "<mask>", "special": True, "lstrip": True,
                             "normalized": False}],
           "normalizer": {"type": "Sequence", "normalizers": [{"type": "NFC"},
                                                              {"type": "Replace", "pattern": {"Regex": " {2,}"},
                                                               "content": " "}]},
           "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "use_regex": True},
           "post_processor": {"type": "RobertaProcessing", "sep": ["</s>", 10], "cls": ["<s>", 9]},
           "model": {"type": "BPE", "vocab": bpe_vocab, "merges": ["h e", "l l", "he ll", "hell o"],
                     "byte_fallback": True, "unk_token": None}}
    write(out / "fuzz_tokenizer_json", "bpe.json", json.dumps(bpe))
    unigram = {"version": "1.0",
               "added_tokens": [{"id": 0, "content": "<unk>", "special": True, "normalized": False}],
               "normalizer": {"type": "Sequence", "normalizers": [{"type": "Nmt"}, {"type": "NFKC"},
                                                                  {"type": "Strip", "strip_left": False,
                                                                   "strip_right": True}]},
               "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                   {"type": "WhitespaceSplit"},
                   {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True}]},
               "post_processor": {"type": "TemplateProcessing", "single": ["<unk>:0", "$A:0"],
                                  "pair": ["$A:0", "<unk>:1", "$B:1"],
                                  "special_tokens": {"<unk>": {"id": "<unk>", "ids": [0], "tokens": ["<unk>"]}}},
               "model": {"type": "Unigram", "unk_id": 0, "byte_fallback": False,
                         "vocab": [["<unk>", 0.0], ["\u2581", -2.0], ["\u2581hello", -1.0], ["h", -3.0],
                                   ["e", -3.0], ["llo", -2.5], ["\u4f60", -4.0], ["\u597d", -4.0]]}}
    write(out / "fuzz_tokenizer_json", "unigram.json", json.dumps(unigram))
    write(out / "fuzz_sentencepiece", "deberta.model", sentencepiece_model())
    if minilm and minilm.is_dir():
        write(out / "fuzz_config_json", "minilm.json", (minilm / "config.json").read_text())
        lines = (minilm / "vocab.txt").read_text(encoding="utf-8").splitlines()[:3000]
        write(out / "fuzz_vocab", "minilm.txt", "\n".join(lines) + "\n\x00The quick brown fox, 你好")

    job = {"name": "seed", "model": "model", "data": {"train_file": "train.csv", "text_column": "text",
                                                      "label_column": "label"},
           "training": {"batch_size": 8, "padding": "dynamic", "precision": "bf16", "memory_cap_bytes": "2GiB",
                        "gradient_checkpointing": True, "seed": 7}}
    write(out / "fuzz_job_file", "job.json", json.dumps(job))
    write(out / "fuzz_job_file", "training.json", json.dumps(job["training"]))

    header = json.dumps({"__metadata__": {"format": "pt"},
                         "w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]},
                         "b": {"dtype": "BF16", "shape": [2], "data_offsets": [16, 20]}}).encode()
    write(out / "fuzz_safetensors", "small.safetensors", struct.pack("<Q", len(header)) + header + bytes(20))

    state = {"kind": "epoch", "epoch": 1, "window": 0, "step": 12, "micro_batch": 8, "eval_batch": 64,
             "best_accuracy": 0.75, "adam_steps": {"classifier.weight": 12}, "loss_scale": 65536.0,
             "growth_tracker": 3, "config": job["training"], "metric": 0.75}
    write(out / "fuzz_training_state", "state.json", json.dumps(state))
    print(f"seed corpora in {out}")


if __name__ == "__main__":
    main()
