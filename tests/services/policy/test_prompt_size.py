"""Prompts are refused by their size before they are tokenized, and the size bound refuses
only text that cannot fit the context whatever it says."""

import json
from pathlib import Path

import pytest
from transformers import AutoTokenizer, PreTrainedTokenizerBase

from phonebuddy.agent import mobile_use_tool
from phonebuddy.policy.api import ChatCompletionRequest
from phonebuddy.policy.transformers_backend import max_prompt_chars

from .conftest import png_data_uri

CONTEXT = 4096


@pytest.fixture(scope="module")
def tokenizer(tiny_checkpoint: Path) -> PreTrainedTokenizerBase:
    return AutoTokenizer.from_pretrained(tiny_checkpoint)


@pytest.mark.parametrize(
    "text",
    [
        " " * 40_000,  # the longest token: 128 spaces
        "-" * 40_000,
        "/" * 40_000,
        "=" * 40_000,
        "\n" * 40_000,
        "a" * 40_000,
        "<|im_start|>" * 3_000,  # special tokens match inside text
        "U\u0308\u0304" * 10_000,  # NFC composes three code points into 2-byte U+01D5
        "\u1100\u1161\u11a8" * 10_000,  # Hangul jamo: NFC composes three into one syllable
        "\u03b1\u0313\u0300\u0345" * 8_000,  # four code points into 3-byte U+1F82
        "The quick brown fox jumps over the lazy dog. " * 1_000,
        "打开设置，把亮度调到最低。" * 3_000,
    ],
)
def test_no_text_packs_more_characters_per_token_than_the_bound(
    tokenizer: PreTrainedTokenizerBase, text: str
) -> None:
    tokens = len(tokenizer(text, add_special_tokens=False)["input_ids"])
    bound = max_prompt_chars(tokenizer, CONTEXT)
    assert len(text) * CONTEXT <= tokens * bound, f"{len(text) / tokens:.1f} characters a token"


def test_the_bound_comes_from_the_vocabulary(tokenizer: PreTrainedTokenizerBase) -> None:
    assert max(map(len, tokenizer.get_vocab())) == 128
    assert max_prompt_chars(tokenizer, CONTEXT) == CONTEXT * 128 * 3 // 2


def test_text_chars_counts_what_the_template_writes_but_not_image_urls() -> None:
    image = png_data_uri()
    request = ChatCompletionRequest.model_validate(
        {
            "model": "m",
            "messages": [
                {"role": "system", "content": "abcde"},
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "0123456789"},
                        {"type": "image_url", "image_url": {"url": image}},
                    ],
                },
                {
                    "role": "assistant",
                    "reasoning_content": "why",
                    "tool_calls": [
                        {"function": {"name": "tap", "arguments": '{"x": 1}'}},
                        {"function": {"name": "typ", "arguments": {"t": "é"}}},
                    ],
                },
            ],
            "tools": [mobile_use_tool()],
        }
    )
    tool_json = len(json.dumps(mobile_use_tool(), ensure_ascii=False))
    assert request.text_chars() == 5 + 10 + 3 + (3 + 8) + (3 + len('{"t": "é"}')) + tool_json
    no_tools = request.model_copy(update={"tool_choice": "none"})
    assert no_tools.text_chars() == request.text_chars() - tool_json
