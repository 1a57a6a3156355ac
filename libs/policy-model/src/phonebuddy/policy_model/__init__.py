"""PhoneBuddy's policy model pieces that run on CPU without downloads."""

from phonebuddy.policy_model.tiny import make_tiny
from phonebuddy.policy_model.tokenizer import (
    EOS_TOKEN,
    PAD_TOKEN,
    build_tokenizer,
    rank_file,
    save_tokenizer,
    special_tokens,
)
from phonebuddy.policy_model.vocabulary import prune_vocabulary

__all__ = [
    "EOS_TOKEN",
    "PAD_TOKEN",
    "build_tokenizer",
    "make_tiny",
    "prune_vocabulary",
    "rank_file",
    "save_tokenizer",
    "special_tokens",
]
