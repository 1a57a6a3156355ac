import hashlib
import json
import unicodedata

import pytest
import torch
from PIL import Image
from transformers import AutoTokenizer, Qwen3_5ForConditionalGeneration

from phonebuddy.agent import build_prompt, render_chat
from phonebuddy.policy_model import prune_vocabulary
from phonebuddy.policy_model.inputs import load_processing
from phonebuddy.policy_model.tiny import expand_image_pads, image_processor, mm_token_type_ids
from phonebuddy.policy_model.vocabulary import VOCABULARY_FILE
from phonebuddy.protocol import Category, FrameRef, Instruction, Observation, ScreenSize, TaskSpec

SPECIALS = (
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|image_pad|>",
    "<|video_pad|>",
    "<|vision_start|>",
    "<|vision_end|>",
)
UNSEEN = "Zebras quoth: ÆØÅ ĳ 🦘🪐 Ωμέγα ∮ ≠ ∞ ‽ ﬁ ｶﾀｶﾅ 한국어 ไทย ‱"


def _chat() -> tuple[str, str]:
    digest = hashlib.sha256(b"now").hexdigest()
    task = TaskSpec(
        template_id="chat.send_message",
        instruction=Instruction(zh="给张三发消息说你好", en="Send 张三 the message 你好"),
        category=Category.SINGLE_APP,
        apps=("com.example.chat",),
    )
    observation = Observation(
        frame=FrameRef(sha256=digest, media_type="image/png", size_bytes=100),
        screen=ScreenSize(width=1080, height=2400),
    )
    prompt = build_prompt(task, (), observation)
    messages = [
        *prompt.chat_messages(),
        {
            "role": "assistant",
            "content": "好的，打开聊天。",
            "reasoning_content": "Tap the chat with 张三 first.",
            "tool_calls": [
                {
                    "function": {
                        "name": "mobile_use",
                        "arguments": {"action": "click", "coordinate": [512, 873]},
                    }
                }
            ],
        },
    ]
    return prompt.render(), render_chat(messages, tools=prompt.tools)


PROMPT, CHAT = _chat()
TEXTS = [
    CHAT,
    "给张三发消息说你好，然后打开设置。今天天气怎么样？",
    "Open the Settings app, then turn on Wi-Fi. It's 3:45 PM; don't wait.",
]


@pytest.fixture(scope="module")
def pruned(tiny_seed0, tmp_path_factory):
    return prune_vocabulary(tiny_seed0, TEXTS, tmp_path_factory.mktemp("pruned") / "tiny")


@pytest.fixture(scope="module")
def summary(pruned):
    return json.loads((pruned / VOCABULARY_FILE).read_text())


@pytest.fixture(scope="module")
def full_tok(tiny_seed0):
    return AutoTokenizer.from_pretrained(tiny_seed0)


@pytest.fixture(scope="module")
def tok(pruned):
    return AutoTokenizer.from_pretrained(pruned)


@pytest.fixture(scope="module")
def models(tiny_seed0, pruned):
    full = Qwen3_5ForConditionalGeneration.from_pretrained(tiny_seed0).eval()
    small, info = Qwen3_5ForConditionalGeneration.from_pretrained(pruned, output_loading_info=True)
    assert not any(info.values()), info  # no missing, unexpected or mismatched weights
    return full, small.eval()


def test_in_data_text_encodes_to_the_same_tokens_renumbered(full_tok, tok, summary):
    source_ids = summary["source_ids"]
    assert summary["kept"] == len(source_ids) == len(tok)
    assert source_ids == sorted(set(source_ids))
    for text in [*TEXTS, PROMPT]:
        full_ids = full_tok(text, add_special_tokens=False)["input_ids"]
        ids = tok(text, add_special_tokens=False)["input_ids"]
        assert tok.convert_ids_to_tokens(ids) == full_tok.convert_ids_to_tokens(full_ids)
        assert [source_ids[i] for i in ids] == full_ids
        assert tok.decode(ids) == text


def test_unseen_text_still_encodes_in_smaller_pieces(full_tok, tok, summary):
    text = unicodedata.normalize("NFC", UNSEEN)
    ids = tok(text, add_special_tokens=False)["input_ids"]
    assert max(ids) < summary["kept"]
    assert tok.decode(ids) == text
    assert len(ids) > len(full_tok(text, add_special_tokens=False)["input_ids"])


def test_special_ids_agree_between_config_and_tokenizer(pruned, tok, models):
    _, model = models
    config = model.config
    assert tok.eos_token == "<|im_end|>"
    assert tok.pad_token == "<|endoftext|>"
    assert config.text_config.eos_token_id == tok.eos_token_id
    assert config.text_config.pad_token_id == tok.pad_token_id
    assert model.generation_config.eos_token_id == tok.eos_token_id
    assert model.generation_config.pad_token_id == tok.pad_token_id
    for name, token in (
        ("image_token_id", "<|image_pad|>"),
        ("video_token_id", "<|video_pad|>"),
        ("vision_start_token_id", "<|vision_start|>"),
        ("vision_end_token_id", "<|vision_end|>"),
    ):
        assert getattr(config, name) == tok.convert_tokens_to_ids(token), name
    for token in SPECIALS:
        assert tok.encode(token, add_special_tokens=False) == [tok.convert_tokens_to_ids(token)]
    processing = load_processing(pruned)
    assert processing.tokenizer.chat_template == tok.chat_template
    assert processing.tokenizer.eos_token_id == tok.eos_token_id


def test_logits_equal_the_source_logits_at_the_kept_columns(tiny_seed0, tok, models, summary):
    full, small = models
    processor = image_processor(tiny_seed0)
    pixels = processor(images=[Image.new("RGB", (72, 40), (30, 120, 200))], return_tensors="pt")
    text = expand_image_pads(CHAT, pixels["image_grid_thw"])
    ids = tok(text, add_special_tokens=False, return_tensors="pt")["input_ids"]
    source_ids = torch.tensor(summary["source_ids"])
    full_ids = source_ids[ids]
    with torch.no_grad():
        expected = full(
            input_ids=full_ids,
            pixel_values=pixels["pixel_values"],
            image_grid_thw=pixels["image_grid_thw"],
            mm_token_type_ids=mm_token_type_ids(full_ids, full.config),
            use_cache=False,
        ).logits
        got = small(
            input_ids=ids,
            pixel_values=pixels["pixel_values"],
            image_grid_thw=pixels["image_grid_thw"],
            mm_token_type_ids=mm_token_type_ids(ids, small.config),
            use_cache=False,
        ).logits
    assert int((ids == small.config.image_token_id).sum()) > 0
    assert got.shape == (*ids.shape, summary["kept"])
    torch.testing.assert_close(got, expected[..., source_ids], atol=1e-5, rtol=0)


def test_generation_stays_in_the_pruned_vocabulary(tok, models, summary):
    _, model = models
    inputs = tok(PROMPT, add_special_tokens=False, return_tensors="pt")
    with torch.no_grad():
        out = model.generate(**inputs, max_new_tokens=6, do_sample=False)
    assert out.shape[1] > inputs["input_ids"].shape[1]
    assert int(out.max()) < summary["kept"]


def test_pruned_checkpoint_is_small(summary, models):
    full, small = models
    parameters = sum(p.numel() for p in small.parameters())
    assert summary["parameters"] == parameters < 5e6
    assert summary["source_vocab_size"] == full.config.text_config.vocab_size == 248320
    assert summary["used"] < summary["kept"] < 5000
    assert small.config.text_config.vocab_size == summary["kept"]


def test_pruning_is_deterministic(tiny_seed0, pruned, tmp_path):
    again = prune_vocabulary(tiny_seed0, reversed(TEXTS), tmp_path / "again")
    names = sorted(path.name for path in pruned.iterdir())
    assert names == sorted(path.name for path in again.iterdir())
    for name in names:
        assert (again / name).read_bytes() == (pruned / name).read_bytes(), name
