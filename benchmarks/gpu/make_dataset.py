#!/usr/bin/env python3
"""A synthetic two-class corpus for the GPU benchmarks, made on the GPU machine itself (nothing of
the shared corpus travels there): texts of whole words from MiniLM's vocabulary with lengths that
spread like e-mails' (log-normal, median about 250 words, cut to 20..900), so that at 512 tokens
some batches are mostly padding and some are truncated. The label is learnable: each class draws
its marker words from its own list more often.

--conll writes a token classification corpus instead, as CoNLL (a word and its tag per line, a
blank line between sentences), with the same length spread: runs of one to three marker words are
entities (B-MARK, then I-MARK), everything else is O.

Usage: make_dataset.py VOCAB_TXT OUT [--rows 3000] [--seed 42] [--conll]
"""
import argparse
import csv
import math
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("vocab")
    parser.add_argument("out")
    parser.add_argument("--rows", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--conll", action="store_true", help="a CoNLL token classification corpus")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with open(args.vocab, encoding="utf-8") as f:
        words = [w.strip() for w in f if w.strip().isalpha() and w.strip().isascii() and len(w.strip()) > 2]
    markers = {"spam": words[2000:2040], "ham": words[3000:3040]}
    if args.conll:
        write_conll(args, rng, words, markers["spam"])
        return
    with open(args.out, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["text", "label"])
        for row in range(args.rows):
            label = "spam" if row % 5 == 0 else "ham"  # 1 in 5, as in the e-mails
            length = int(min(900, max(20, math.exp(rng.gauss(math.log(250), 0.7)))))
            text = [rng.choice(markers[label]) if rng.random() < 0.05 else rng.choice(words) for _ in range(length)]
            writer.writerow([" ".join(text), label])
    print(f"wrote {args.rows} rows to {args.out}")


def write_conll(args, rng, words, entity_words):
    with open(args.out, "w", encoding="utf-8") as f:
        for _ in range(args.rows):
            length = int(min(900, max(20, math.exp(rng.gauss(math.log(250), 0.7)))))
            position = 0
            while position < length:
                if rng.random() < 0.04:
                    span = rng.randint(1, 3)
                    for i in range(span):
                        f.write(f"{rng.choice(entity_words)} {'B' if i == 0 else 'I'}-MARK\n")
                    position += span
                else:
                    f.write(f"{rng.choice(words)} O\n")
                    position += 1
            f.write("\n")
    print(f"wrote {args.rows} sentences to {args.out}")


if __name__ == "__main__":
    main()
