#!/usr/bin/env python3
"""Reference ids of tokenizer.json files whose Replace or Split patterns are {"String": ...}
literals, as Gemma's and mmBERT's are (tests/parity/LiteralPatternParityTest.cpp).

  literal_patterns.py OUT

Builds, with the `tokenizers` library (nothing downloaded), a small BPE trained on a few texts
under three layouts: a Replace normalizer of " " by "\u2581" (Gemma's), a Split pre-tokenizer at
the literal "." (a regex metacharacter: a literal must not match every character), and a Split
at the literal " " merged with the previous word; saves each as OUT/<name>/tokenizer.json and
writes OUT/references.json: the texts and, per folder, the ids `tokenizers` gives them.
"""
import json
import os
import sys

from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

TEXTS = [
    "Offer: free money, now.",
    "a.b.c and  two  spaces",
    "x*y+z? (1.5) [brackets] {braces} ^caret$ back\\slash",
    "caf\u00e9 cr\u00e8me br\u00fbl\u00e9e",
    "   leading and trailing   ",
    "dots... everywhere. ok.",
    "\u2581already a metaspace",
    "",
]
# Texts the tokenizer was not trained on: split into pieces, not whole-text merges.
UNSEEN = ["free and money are dots. spaces  here", "z.y.x caf\u00e9 a*b", "money\u2581money"]


def trained(normalizer, pre_tokenizer):
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.normalizer = normalizer
    tok.pre_tokenizer = pre_tokenizer
    trainer = trainers.BpeTrainer(vocab_size=300, special_tokens=["<unk>", "<pad>"],
                                  show_progress=False)
    tok.train_from_iterator(TEXTS * 4, trainer=trainer)
    return tok


def main():
    out = sys.argv[1]
    layouts = {
        "replace-string": trained(normalizers.Replace(" ", "\u2581"), None),
        "split-dot": trained(None, pre_tokenizers.Split(".", behavior="isolated")),
        "split-space": trained(normalizers.Replace("\u2581", " "),
                               pre_tokenizers.Split(" ", behavior="merged_with_previous")),
    }
    texts = TEXTS + UNSEEN
    references = {"texts": texts, "ids": {}}
    for name, tok in layouts.items():
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "tokenizer.json")
        tok.save(path)
        saved = json.load(open(path, encoding="utf-8"))
        # The layout as Gemma's file writes it: a {"String": ...} pattern, not a Regex.
        assert "String" in json.dumps(saved["normalizer"] or saved["pre_tokenizer"]), name
        reloaded = Tokenizer.from_file(path)
        references["ids"][name] = [reloaded.encode(t, add_special_tokens=False).ids for t in texts]
    with open(os.path.join(out, "references.json"), "w", encoding="utf-8") as f:
        json.dump(references, f, ensure_ascii=False)


if __name__ == "__main__":
    main()
