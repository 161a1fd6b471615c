#!/usr/bin/env python3
"""Derives the task data sets of issue 29 (point 7) from the shared e-mails, deterministically.

  derive_task_sets.py EMAILS_CSV OUT_DIR

EMAILS_CSV is ../shared/data/spamassassin-part1.csv (columns text,label,source; each text is
the subject, " . ", then the body). The e-mails are never copied into the project: the sets are
written into OUT_DIR, which the caller names (the tests use a temporary folder):

  multilabel.csv     text,labels: labels separated by ';' from features of each mail: spam
                     (the label column), reply (Re: subject), mailing-list, ilug and
                     spamassassin (the subject's [list] tag), url and money (in its first
                     64 tokens)
  regression.csv     text,log_body_length: log(1 + characters of the body)
  ner.conll          the first 64 whitespace tokens of each mail, "token TAG" per line, a blank
                     line between mails, BIO tags of EMAIL, URL, MONEY and DATE found by rule
  ner.jsonl          the same, one {"tokens": [...], "tags": [...]} per line
  cluener_zh.json    240 Chinese sentences composed here (--chinese-sentences N) in CLUENER's
                     layout, one JSON object per line: {"text": ..., "label": {type:
                     {entity: [[start, end_inclusive]]}}}, character offsets; types name,
                     address, company, organization

Counts of each label and entity type are printed. Standard library only.
"""
import argparse
import csv
import json
import math
import os
import random
import re
import sys

MAX_FIELD = 1 << 24  # e-mails can be long; csv's default limit is 128 KiB
NER_TOKENS = 64      # tokens of each mail tagged: what a 128-sub-word model sees whole
FEATURE_TOKENS = 64  # url and money are looked for where the model can see them

# Multi-label: each label is a fact about the mail that its first tokens show, so a model can
# learn it and per-label F1 means something. `spam` comes from the label column; `reply` from the
# subject; `mailing-list`, `ilug` and `spamassassin` from the [list] tag of the subject (ILUG is
# the Irish Linux Users' Group, ILUG and ILUG-Social; SAtalk, SAdev and SACVS are SpamAssassin's
# lists); `url` and `money` from the first FEATURE_TOKENS tokens. The labels overlap (ilug and
# spamassassin imply mailing-list; spam excludes both), which gives co-occurrence something to show.
MULTI_LABELS = ("ilug", "mailing-list", "money", "reply", "spam", "spamassassin", "url")
# The list's tag opens the subject, after any reply or forward prefixes ("Re: [ILUG] ...").
LIST_TAG = re.compile(
    r"^\s*((re|aw|sv|fwd?)\s*(\[\d+\])?\s*:\s*)*\[([A-Za-z][A-Za-z0-9 _-]{0,30})\]", re.IGNORECASE)
REPLY = re.compile(r"^\s*(\[[^\]]*\]\s*)?(re|aw|sv)\s*(\[\d+\])?\s*:", re.IGNORECASE)

# NER rules, on a token with the punctuation around it removed.
EDGE_PUNCTUATION = "()<>[]{}\"'`,;:!?.*|"
EMAIL = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$")
URL = re.compile(r"^(https?://|ftp://|www\.)[^\s]+$", re.IGNORECASE)
MONEY_SYMBOL = re.compile(r"^(US)?[$£€]\d[\d,]*(\.\d+)?([kKmM]|bn)?$")
NUMBER = re.compile(r"^\d[\d,]*(\.\d+)?$")
CURRENCY_WORD = {"dollars", "dollar", "usd", "eur", "euro", "euros", "pounds", "gbp"}
MONEY_SCALE = {"thousand", "million", "billion", "dollars", "usd"}
MONTHS = {m.lower() for m in (
    "Jan Feb Mar Apr May Jun Jul Aug Sep Sept Oct Nov Dec January February March April June "
    "July August September October November December").split()}
WEEKDAYS = {d.lower() for d in (
    "Mon Tue Wed Thu Fri Sat Sun Monday Tuesday Wednesday Thursday Friday Saturday Sunday"
).split()}
DAY = re.compile(r"^\d{1,2}(st|nd|rd|th)?$")
YEAR = re.compile(r"^(19|20)\d\d$")
NUMERIC_DATE = re.compile(r"^((19|20)\d\d-\d\d-\d\d|\d{1,2}/\d{1,2}/((19|20)\d\d|\d\d))$")


def read_emails(path):
    csv.field_size_limit(MAX_FIELD)
    try:
        with open(path, encoding="utf-8", newline="") as source:
            reader = csv.DictReader(source)
            rows = list(reader)
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        sys.exit(f"{path}: cannot be read as the e-mails' CSV: {error}")
    for column in ("text", "label"):
        if column not in (reader.fieldnames or []):
            sys.exit(f"{path}: no column {column!r} (text,label,source expected)")
    return rows


def subject_and_body(text):
    subject, separator, body = text.partition(" . ")
    return (subject, body) if separator else (text, "")


def core(token):
    return token.strip(EDGE_PUNCTUATION)


def multi_labels(row):
    subject, _ = subject_and_body(row["text"])
    tokens = row["text"].split()[:FEATURE_TOKENS]
    labels = set()
    if row["label"].strip().lower() == "spam":
        labels.add("spam")
    if REPLY.match(subject):
        labels.add("reply")
    tag = LIST_TAG.match(subject)
    if tag:
        labels.add("mailing-list")
        name = tag.group(4).lower()
        if name.startswith("ilug"):
            labels.add("ilug")
        if name in ("satalk", "sadev", "sacvs"):
            labels.add("spamassassin")
    if any(URL.match(core(t)) for t in tokens):
        labels.add("url")
    if any(money_length(tokens, i) for i in range(len(tokens))):
        labels.add("money")
    return sorted(labels)


def money_length(tokens, i):
    """Tokens of an amount of money starting at i: $25, $1,000.00, $5 million, 100 dollars,
    USD 100, $ 20; 0 when none starts there."""
    here = core(tokens[i])
    following = core(tokens[i + 1]).lower() if i + 1 < len(tokens) else ""
    if MONEY_SYMBOL.match(here):
        return 2 if following in MONEY_SCALE else 1
    if here in ("$", "US$", "USD", "EUR", "€", "£") and i + 1 < len(tokens) and \
            NUMBER.match(core(tokens[i + 1])):
        return 2
    if NUMBER.match(here) and following in CURRENCY_WORD:
        return 2
    return 0


def date_length(tokens, i):
    """Tokens of a date starting at i: [Weekday,] 21 Aug 2002 | [Weekday] August 22, 2002 |
    2002-08-22 | 08/22/2002; 0 when none starts there."""
    words = [core(t).lower() for t in tokens[i:i + 5]]
    start = 1 if words and words[0] in WEEKDAYS else 0
    rest = words[start:]
    if len(rest) >= 3 and DAY.match(rest[0]) and rest[1] in MONTHS and YEAR.match(rest[2]):
        return start + 3
    if len(rest) >= 3 and rest[0] in MONTHS and DAY.match(rest[1]) and YEAR.match(rest[2]):
        return start + 3
    if rest and NUMERIC_DATE.match(rest[0]):
        return start + 1
    return 0


def ner_tags(tokens):
    tags = ["O"] * len(tokens)
    i = 0
    while i < len(tokens):
        here = core(tokens[i])
        kind, length = None, 0
        if EMAIL.match(here):
            kind, length = "EMAIL", 1
        elif URL.match(here):
            kind, length = "URL", 1
        elif (length := date_length(tokens, i)):
            kind = "DATE"
        elif (length := money_length(tokens, i)):
            kind = "MONEY"
        if kind is None:
            i += 1
            continue
        tags[i] = "B-" + kind
        for j in range(i + 1, i + length):
            tags[j] = "I-" + kind
        i += length
    return tags


# The Chinese sample: sentences from templates and name lists, so that every entity's offsets
# are known by construction and nothing is copied from a corpus.
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高"
GIVEN_NAMES = ["伟", "芳", "娜", "敏", "静", "强", "磊", "洋", "艳", "勇", "军", "杰", "涛", "明",
               "超", "秀英", "建华", "志强", "海燕", "晓东"]
ADDRESSES = ["北京市海淀区", "上海市浦东新区", "广州市天河区", "深圳市南山区", "杭州市西湖区",
             "成都市武侯区", "南京市鼓楼区", "武汉市洪山区", "西安市雁塔区", "重庆市渝中区",
             "苏州工业园区", "天津市和平区"]
COMPANIES = ["华为技术有限公司", "阿里巴巴集团", "腾讯公司", "小米科技", "百度公司",
             "京东集团", "中国银行", "比亚迪股份有限公司", "网易公司", "联想集团"]
ORGANIZATIONS = ["清华大学", "北京大学", "复旦大学", "浙江大学", "中国科学院", "红十字会",
                 "南京大学", "中山大学", "武汉大学", "国家图书馆"]
TEMPLATES = [
    "{name}昨天在{address}会见了{company}的代表。",
    "{company}宣布将在{address}设立新的研发中心。",
    "{organization}的{name}教授获得了年度奖项。",
    "据{organization}介绍，{name}已于上周抵达{address}。",
    "{name}和{name2}代表{company}出席了在{address}举行的发布会。",
    "{address}的市民对{company}的新产品反响热烈。",
    "{name}毕业于{organization}，现就职于{company}。",
    "记者从{organization}获悉，{address}将举办科技展览。",
]


def person(rng):
    return rng.choice(SURNAMES) + rng.choice(GIVEN_NAMES)


def chinese_sentence(rng, template):
    values = {"name": person(rng), "address": rng.choice(ADDRESSES),
              "company": rng.choice(COMPANIES), "organization": rng.choice(ORGANIZATIONS)}
    values["name2"] = person(rng)
    while values["name2"] == values["name"]:
        values["name2"] = person(rng)
    text, spans = "", {}
    for piece in re.split(r"(\{\w+\})", template):
        if piece.startswith("{"):
            key = piece[1:-1]
            entity = values[key]
            kind = "name" if key == "name2" else key
            spans.setdefault(kind, {}).setdefault(entity, []).append(
                [len(text), len(text) + len(entity) - 1])
            text += entity
        else:
            text += piece
    return {"text": text, "label": spans}


def write_csv(path, header, rows):
    with open(path, "w", encoding="utf-8", newline="") as sink:
        writer = csv.writer(sink, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("emails", metavar="EMAILS_CSV",
                        help="the shared e-mails, ../shared/data/spamassassin-part1.csv")
    parser.add_argument("out", metavar="OUT_DIR",
                        help="folder to write the sets into (created if missing)")
    parser.add_argument("--chinese-sentences", type=int, default=240, metavar="N",
                        help="sentences of the Chinese sample (default 240)")
    args = parser.parse_args()
    if args.chinese_sentences < 1:
        parser.error("--chinese-sentences must be at least 1")
    rows = read_emails(args.emails)
    os.makedirs(args.out, exist_ok=True)

    labelled = [(row["text"], multi_labels(row)) for row in rows]
    write_csv(os.path.join(args.out, "multilabel.csv"), ["text", "labels"],
              [(text, ";".join(labels)) for text, labels in labelled])
    counts = {label: sum(label in labels for _, labels in labelled) for label in MULTI_LABELS}
    print(f"multilabel.csv: {len(labelled)} e-mails, "
          f"{sum(not labels for _, labels in labelled)} without any label")
    for label in MULTI_LABELS:
        print(f"  {label}: {counts[label]}")

    # Regression: the log of the body's length. Short mails are seen whole and long ones differ
    # in kind (quoted threads, newsletters, spam boilerplate), so the first tokens predict it
    # well but not perfectly; the log keeps one 2,000-character newsletter from outweighing
    # the hundreds of short replies in the squared error.
    targets = [(row["text"], math.log1p(len(subject_and_body(row["text"])[1]))) for row in rows]
    write_csv(os.path.join(args.out, "regression.csv"), ["text", "log_body_length"],
              [(text, repr(value)) for text, value in targets])
    values = [value for _, value in targets]
    mean = sum(values) / len(values)
    deviation = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    print(f"regression.csv: {len(values)} e-mails, log_body_length from {min(values):.3f} to "
          f"{max(values):.3f}, mean {mean:.3f}, standard deviation {deviation:.3f}")

    entities = {"EMAIL": 0, "URL": 0, "MONEY": 0, "DATE": 0}
    sentences = 0
    with open(os.path.join(args.out, "ner.conll"), "w", encoding="utf-8") as conll, \
            open(os.path.join(args.out, "ner.jsonl"), "w", encoding="utf-8") as jsonl:
        for row in rows:
            tokens = row["text"].split()[:NER_TOKENS]
            if not tokens:
                continue
            tags = ner_tags(tokens)
            for tag in tags:
                if tag.startswith("B-"):
                    entities[tag[2:]] += 1
            conll.write("".join(f"{token} {tag}\n" for token, tag in zip(tokens, tags)) + "\n")
            jsonl.write(json.dumps({"tokens": tokens, "tags": tags}, ensure_ascii=False) + "\n")
            sentences += 1
    print(f"ner.conll, ner.jsonl: {sentences} sentences of at most {NER_TOKENS} tokens")
    for kind, count in entities.items():
        print(f"  {kind}: {count}")

    rng = random.Random(29)
    chinese = [chinese_sentence(rng, TEMPLATES[i % len(TEMPLATES)])
               for i in range(args.chinese_sentences)]
    kinds = {}
    with open(os.path.join(args.out, "cluener_zh.json"), "w", encoding="utf-8") as sink:
        for sentence in chinese:
            sink.write(json.dumps(sentence, ensure_ascii=False) + "\n")
            for kind, found in sentence["label"].items():
                kinds[kind] = kinds.get(kind, 0) + sum(len(spans) for spans in found.values())
    print(f"cluener_zh.json: {len(chinese)} sentences")
    for kind in sorted(kinds):
        print(f"  {kind}: {kinds[kind]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
