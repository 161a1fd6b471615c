#!/usr/bin/env python3
"""A synthetic two-class corpus for the GPU benchmarks, made on the GPU machine itself (nothing of
the shared corpus travels there): texts of whole words from MiniLM's vocabulary with lengths that
spread like e-mails' (log-normal, median about 250 words, cut to 20..900), so that at 512 tokens
some batches are mostly padding and some are truncated. The label is learnable: each class draws
its marker words from its own list more often.

Usage: make_dataset.py VOCAB_TXT OUT_CSV [--rows 3000] [--seed 42]
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
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with open(args.vocab, encoding="utf-8") as f:
        words = [w.strip() for w in f if w.strip().isalpha() and w.strip().isascii() and len(w.strip()) > 2]
    markers = {"spam": words[2000:2040], "ham": words[3000:3040]}
    with open(args.out, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["text", "label"])
        for row in range(args.rows):
            label = "spam" if row % 5 == 0 else "ham"  # 1 in 5, as in the e-mails
            length = int(min(900, max(20, math.exp(rng.gauss(math.log(250), 0.7)))))
            text = [rng.choice(markers[label]) if rng.random() < 0.05 else rng.choice(words) for _ in range(length)]
            writer.writerow([" ".join(text), label])
    print(f"wrote {args.rows} rows to {args.out}")


if __name__ == "__main__":
    main()
