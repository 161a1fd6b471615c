"""Issue 27, point 9: how transformers' tokenizer, loaded from an exported folder, cuts a text.

Usage: export_truncation.py FOLDER TEXT OUT.json
Writes {"model_max_length": n, "input_ids": [...]} for tokenizer(TEXT, truncation=True), the call
the exported README shows.
"""
import json
import sys

from transformers import AutoTokenizer


def main():
    folder, text, out = sys.argv[1:4]
    tokenizer = AutoTokenizer.from_pretrained(folder)
    ids = tokenizer(text, truncation=True)["input_ids"]
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"model_max_length": tokenizer.model_max_length, "input_ids": ids}, f)


if __name__ == "__main__":
    main()
