"""A checkpoint whose vocabulary is cut down to the token ids that a set of texts uses.

`prune_vocabulary(source, texts, target)` writes a standard, self-contained checkpoint into
`target`: the source's weights with only the kept rows of the embedding and the lm_head, and a
`tokenizer.json` whose ids are the new compact ids (0..K-1, in the order of the source ids), so
anything that loads checkpoints with `from_pretrained` needs to know nothing about the pruning.

Kept: the ids the texts encode to (special tokens in the texts are recognised, as in training),
every added/special token, the 256 single-byte tokens (so any text still encodes, in smaller
pieces), and the merge closure: the two parts of every merge that produces a kept token,
recursively. Every token that byte-level BPE builds on its way to a kept token is then kept, and
the pruned merges keep their relative order, so in-data text applies exactly the merges the full
tokenizer applies and encodes to the same tokens, renumbered. `vocabulary.json` in the target maps
each new id back to its source id. The same source and texts give byte-identical files.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
from collections.abc import Iterable, Mapping
from itertools import islice
from pathlib import Path
from typing import Any

import torch
from tokenizers import Tokenizer
from transformers import GenerationConfig, Qwen3_5ForConditionalGeneration
from transformers.utils import logging as hf_logging

from phonebuddy.policy_model.tiny import save_quietly

VOCABULARY_FILE = "vocabulary.json"
# Files copied unchanged: they name tokens by their text, never by id. The slow tokenizer's
# vocab.json / merges.txt are left out on purpose (they would carry the source's ids).
_COPIED_FILES = (
    "tokenizer_config.json",
    "special_tokens_map.json",
    "chat_template.jinja",
    "chat_template.json",
    "preprocessor_config.json",
    "processor_config.json",
    "video_preprocessor_config.json",
)
_BATCH = 256


def prune_vocabulary(
    source: str | os.PathLike[str], texts: Iterable[str], target: str | os.PathLike[str]
) -> Path:
    """Write `source` with its vocabulary pruned to what `texts` use into `target` (created).

    `target/vocabulary.json` holds `source_ids` (the source id of each new id), `kept`, `used`
    (distinct ids the texts encode to), `source_vocab_size` and the new `parameters` count."""
    source, target = Path(source), Path(target)
    if target.resolve() == source.resolve():
        raise ValueError(f"{target}: prune into another folder than the source")
    text = (source / "tokenizer.json").read_text(encoding="utf-8")
    document = json.loads(text)
    used = used_ids(Tokenizer.from_str(text), texts)
    source_ids = kept_ids(document, used)
    new_id = {old: new for new, old in enumerate(source_ids)}

    target.mkdir(parents=True, exist_ok=True)
    Tokenizer.from_str(json.dumps(pruned_tokenizer(document, new_id))).save(
        str(target / "tokenizer.json")
    )
    for name in _COPIED_FILES:
        if (source / name).is_file():
            shutil.copyfile(source / name, target / name)
    model, source_rows = _prune_model(source, source_ids, new_id)
    save_quietly(model, target)
    summary = {
        "kept": len(source_ids),
        "used": len(used),
        "source_vocab_size": source_rows,
        "parameters": sum(p.numel() for p in model.parameters()),
        "source_ids": source_ids,
    }
    (target / VOCABULARY_FILE).write_text(json.dumps(summary) + "\n", encoding="utf-8")
    return target


def used_ids(tokenizer: Tokenizer, texts: Iterable[str]) -> set[int]:
    """The distinct ids `tokenizer` encodes `texts` to, without added BOS/EOS (as training)."""
    used: set[int] = set()
    iterator = iter(texts)
    while batch := list(islice(iterator, _BATCH)):
        for encoding in tokenizer.encode_batch(batch, add_special_tokens=False):
            used.update(encoding.ids)
    return used


def _merge_pairs(merges: list[Any]) -> list[tuple[str, str]]:
    # tokenizers writes merges as [a, b] pairs; older files hold "a b" strings.
    return [tuple(m) if isinstance(m, list) else tuple(m.split(" ", 1)) for m in merges]


def kept_ids(document: Mapping[str, Any], used: Iterable[int]) -> list[int]:
    """Source ids to keep, ascending: `used`, the added tokens, the single-byte tokens and the
    merge closure of all of them (see the module docstring)."""
    model = document["model"]
    if model.get("type") != "BPE":
        raise ValueError(f"only BPE tokenizers can be pruned, not {model.get('type')}")
    vocab: dict[str, int] = model["vocab"]
    token_of = {index: token for token, index in vocab.items()}
    parts_of: dict[str, list[tuple[str, str]]] = {}
    for left, right in _merge_pairs(model["merges"]):
        parts_of.setdefault(left + right, []).append((left, right))
    # The byte-level alphabet: each byte is one character in the vocabulary.
    kept = {token for token in vocab if len(token) == 1}
    kept.update(token_of[index] for index in used if index in token_of)
    pending = list(kept)
    while pending:
        for pair in parts_of.get(pending.pop(), ()):
            for part in pair:
                if part not in kept:
                    kept.add(part)
                    pending.append(part)
    ids = {vocab[token] for token in kept}
    ids.update(added["id"] for added in document["added_tokens"])
    return sorted(ids)


def pruned_tokenizer(document: Mapping[str, Any], new_id: Mapping[int, int]) -> dict[str, Any]:
    """`document` (a tokenizer.json) with only the tokens in `new_id`, renumbered by it."""
    model = document["model"]
    vocab = {token: new_id[index] for token, index in model["vocab"].items() if index in new_id}
    strings = bool(model["merges"]) and isinstance(model["merges"][0], str)
    merges = [
        (left, right)
        for left, right in _merge_pairs(model["merges"])
        if left in vocab and right in vocab and left + right in vocab
    ]
    pruned = copy.deepcopy({key: value for key, value in document.items() if key != "model"})
    pruned["model"] = {
        **model,
        "vocab": dict(sorted(vocab.items(), key=lambda item: item[1])),
        "merges": [f"{a} {b}" if strings else [a, b] for a, b in merges],
    }
    for added in pruned["added_tokens"]:
        added["id"] = new_id[added["id"]]
    if isinstance(pruned.get("padding"), dict) and "pad_id" in pruned["padding"]:
        pruned["padding"]["pad_id"] = new_id[pruned["padding"]["pad_id"]]
    processor = pruned.get("post_processor") or {}
    for special in (processor.get("special_tokens") or {}).values():
        special["ids"] = [new_id[index] for index in special["ids"]]
    return pruned


def remap_token_ids(values: Mapping[str, Any], new_id: Mapping[int, int]) -> dict[str, Any]:
    """A config dict with every `*_token_id(s)` value (at any depth) mapped through `new_id`."""

    def remap(key: str, value: Any) -> Any:
        if isinstance(value, Mapping):
            return {k: remap(str(k), v) for k, v in value.items()}
        if not key.endswith(("_token_id", "_token_ids")) or value is None:
            return value
        if isinstance(value, list):
            return [new_id[index] for index in value]
        return new_id[value]

    return {key: remap(key, value) for key, value in values.items()}


def _prune_model(
    source: Path, source_ids: list[int], new_id: Mapping[int, int]
) -> tuple[Qwen3_5ForConditionalGeneration, int]:
    """The pruned model and the source's vocabulary rows."""
    bars_were_on = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()  # loading one shard: a bar is only noise
    try:
        full = Qwen3_5ForConditionalGeneration.from_pretrained(source, dtype="auto")
    finally:
        if bars_were_on:
            hf_logging.enable_progress_bar()
    rows = full.config.text_config.vocab_size
    config_values = remap_token_ids(full.config.to_dict(), new_id)
    config_values["text_config"]["vocab_size"] = len(source_ids)
    config = type(full.config).from_dict(config_values)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)  # every weight is overwritten below; this only spares the global RNG
        model = Qwen3_5ForConditionalGeneration(config)
    state = full.state_dict()
    index = torch.tensor(source_ids)
    # The embedding and the lm_head: the tensors with one row per vocabulary entry.
    expected = {name for name, tensor in state.items() if tensor.ndim and tensor.shape[0] == rows}
    if len(expected) not in (1, 2):
        raise ValueError(f"expected an embedding and an lm_head of {rows} rows, got {expected}")
    pruned = {
        name: tensor.index_select(0, index) if name in expected else tensor
        for name, tensor in state.items()
    }
    model.load_state_dict(pruned, strict=True, assign=True)
    if config.tie_word_embeddings:
        model.tie_weights()
    generation = full.generation_config.to_dict()
    model.generation_config = GenerationConfig.from_dict(remap_token_ids(generation, new_id))
    return model.eval(), rows
