#!/usr/bin/env python3
"""Reference ids of pre-split words for token classification (tests/parity/WordSplitParityTest.cpp).

  word_split.py build OUT [--corpus CSV]

Builds the tokenizer folders of tokenizer_families.py (every layout the engine reads, trained
here, nothing downloaded) plus roberta-prefix (RoBERTa with add_prefix_space, as transformers'
run_ner.py loads it for NER), and writes OUT/words.json: the word lists (English CoNLL-like
sentences, e-mails of the shared corpus split at whitespace, Chinese split into characters, odd
words) and, per folder and max length, what the reference gives for
tokenizer(words, is_split_into_words=True, truncation=True, max_length=N): input_ids, word_ids()
(None as -1) and the words cut (those from the first word that starts past the room max length
leaves, to the end). The reference is transformers' AutoTokenizer where the folder has a
tokenizer_config.json, the `tokenizers` library (encode_batch with is_pretokenized) otherwise.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import tokenizer_families  # noqa: E402  (sets the offline environment)

MAX_LENGTHS = [None, 8, 16, 48, 128]

CONLL = [
    "EU rejects German call to boycott British lamb .",
    "Peter Blackburn",
    "BRUSSELS 1996-08-22",
    "The European Commission said on Thursday it disagreed with German advice to consumers to "
    "shun British lamb until scientists determine whether mad cow disease can be transmitted to "
    "sheep .",
    "Germany 's representative to the European Union 's veterinary committee Werner Zwingmann "
    "said on Wednesday consumers should buy sheepmeat from countries other than Britain until "
    "the scientific advice was clearer .",
    "\" We do n't support any such recommendation because we do n't see any grounds for it , \" "
    "the Commission 's chief spokesman Nikolaus van der Pas told a news briefing .",
    "SOCCER - JAPAN GET LUCKY WIN , CHINA IN SURPRISE DEFEAT .",
    "Nadim Ladki",
    "AL-AIN , United Arab Emirates 1996-12-06",
    "Müller met José in São Paulo and Zürich ; Dvořák played .",
    "Contact john.doe@example.com or visit https://www.example.org/path?q=1&x=2 today !",
    "Prices rose 3.5 % to $ 1,299.00 , up from US$ 1,200 ( about EUR 1.1k ) .",
    "I'm sure it's O'Neil's co-operation that wasn't well-known .",
    "CAPITAL letters , MiXeD case and lowercase words",
    "emoji 😀 and symbols © ® ™ → ≠",
    "tabs\tinside and   spaces",
]
ODD = [
    ["New York", "is", "big"],           # a word holding a space
    ["", "empty", "", "words", ""],      # words that give no token
    ["<s>", "[CLS]", "<mask>", "[SEP]", "</s>", "<pad>", "[MASK]", "<unk>"],
    ["\u0000", "\u200b", "control", "\ufeff", "x"],
    ["  leading", "trailing  ", " both "],
    ["ﬁ", "Ⅻ", "①", "ＡＢＣ", "１２３"],  # compatibility forms
    ["a"] * 70,
    ["supercalifragilisticexpialidocious", "antidisestablishmentarianism"] * 10,
]


def word_lists(corpus):
    lists = [s.split(" ") for s in CONLL] + ODD
    texts = corpus[:150] if corpus else tokenizer_families.tricky()["single"]
    for text in texts:
        words = text.split()
        for i in range(0, min(len(words), 120), 40):
            lists.append(words[i:i + 40])
    for sentence in tokenizer_families.CHINESE:
        lists.append([c for c in sentence if not c.isspace()])
    return [words for words in lists if words]


def reference_for(path):
    from tokenizers import Tokenizer
    from transformers import AutoTokenizer

    if os.path.exists(os.path.join(path, "tokenizer_config.json")):
        tok = AutoTokenizer.from_pretrained(path)
        room_taken = tok.num_special_tokens_to_add(pair=False)

        def encode(lists, length):
            enc = tok(lists, is_split_into_words=True, truncation=length is not None,
                      max_length=length)
            return [(enc["input_ids"][i], enc.word_ids(i)) for i in range(len(lists))]
        return encode, room_taken
    backend = Tokenizer.from_file(os.path.join(path, "tokenizer.json"))
    room_taken = backend.post_processor.num_special_tokens_to_add(False) \
        if backend.post_processor else 0

    def encode(lists, length):
        if length is None:
            backend.no_truncation()
        else:
            backend.enable_truncation(length, strategy="longest_first")
        return [(e.ids, e.word_ids) for e in backend.encode_batch(lists, is_pretokenized=True)]
    return encode, room_taken


def words_cut(full_word_ids, words, room):
    """Words from the first one whose tokens would start at or past `room`, to the end."""
    before = 0
    counts = [0] * len(words)
    for w in full_word_ids:
        if w is not None:
            counts[w] += 1
    for w in range(len(words)):
        if before >= room:
            return len(words) - w
        before += counts[w]
    return 0


def cmd_build(args):
    os.makedirs(args.out, exist_ok=True)
    corpus = tokenizer_families.corpus_texts(args.corpus) if args.corpus else []
    folders = tokenizer_families.build_folders(args.out, corpus)
    # RoBERTa as run_ner.py loads it for pre-split words: add_prefix_space=True.
    prefix = os.path.join(args.out, "roberta-prefix")
    os.makedirs(prefix, exist_ok=True)
    for name in os.listdir(folders["roberta"]):
        with open(os.path.join(folders["roberta"], name), "rb") as src, \
                open(os.path.join(prefix, name), "wb") as dst:
            dst.write(src.read())
    config_path = os.path.join(prefix, "tokenizer_config.json")
    with open(config_path, encoding="utf-8") as f:
        config = json.load(f)
    config["add_prefix_space"] = True
    with open(config_path, "w", encoding="utf-8") as f:
        json.dump(config, f)
    folders["roberta-prefix"] = prefix

    lists = word_lists(corpus)
    references = {}
    for name, path in sorted(folders.items()):
        encode, room_taken = reference_for(path)
        full = encode(lists, None)
        entry = {}
        for length in MAX_LENGTHS:
            results = full if length is None else encode(lists, length)
            rows = []
            for words, (ids, word_ids), (_, full_ids) in zip(lists, results, full):
                cut = 0 if length is None else words_cut(full_ids, words, max(length - room_taken, 0))
                rows.append([ids, [-1 if w is None else w for w in word_ids], cut])
            entry[str(length or 0)] = rows
        references[name] = entry
    with open(os.path.join(args.out, "words.json"), "w", encoding="utf-8") as f:
        json.dump({"words": lists, "max_lengths": [n or 0 for n in MAX_LENGTHS],
                   "references": references}, f, ensure_ascii=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("build")
    p.add_argument("out")
    p.add_argument("--corpus")
    p.set_defaults(run=cmd_build)
    args = parser.parse_args()
    args.run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
