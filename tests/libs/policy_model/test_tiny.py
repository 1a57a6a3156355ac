import pytest
import torch
from PIL import Image
from transformers import AutoTokenizer, Qwen3_5Config, Qwen3_5ForConditionalGeneration

from phonebuddy.policy_model import make_tiny
from phonebuddy.policy_model.tiny import (
    expand_image_pads,
    image_processor,
    mm_token_type_ids,
)


@pytest.fixture(scope="module")
def tiny(tiny_seed0):
    return tiny_seed0


@pytest.fixture(scope="module")
def model(tiny):
    model, info = Qwen3_5ForConditionalGeneration.from_pretrained(tiny, output_loading_info=True)
    assert not any(info.values()), info  # no missing, unexpected or mismatched weights
    return model.eval()


@pytest.fixture(scope="module")
def tok(tiny):
    return AutoTokenizer.from_pretrained(tiny)


def test_directory_holds_a_checkpoint(tiny):
    names = {path.name for path in tiny.iterdir()}
    expected = {
        "config.json",
        "generation_config.json",
        "model.safetensors",
        "tokenizer.json",
        "tokenizer_config.json",
        "chat_template.jinja",
        "preprocessor_config.json",
    }
    assert expected <= names
    config = Qwen3_5Config.from_pretrained(tiny)
    assert config.model_type == "qwen3_5"
    assert config.text_config.hidden_size == 128
    assert config.text_config.layer_types == ["linear_attention", "full_attention"]
    assert config.text_config.head_dim == 64
    assert config.vision_config.depth == 2
    assert config.vision_config.out_hidden_size == 128


def test_weights_round_trip_and_follow_the_seed(tiny, model, tmp_path):
    state = model.state_dict()
    assert 60e6 < sum(p.numel() for p in model.parameters()) < 70e6
    # The same seed rebuilt elsewhere gives the same weights; another seed different ones.
    make_tiny(tmp_path / "again", seed=0)
    same = Qwen3_5ForConditionalGeneration.from_pretrained(tmp_path / "again").state_dict()
    assert same.keys() == state.keys()
    assert all(torch.equal(same[k], state[k]) for k in state)
    make_tiny(tmp_path / "other", seed=1)
    other = Qwen3_5ForConditionalGeneration.from_pretrained(tmp_path / "other").state_dict()
    assert not torch.equal(other["lm_head.weight"], state["lm_head.weight"])


def test_text_generation_from_the_chat_template(model, tok):
    assert tok.chat_template
    messages = [
        {"role": "system", "content": "You operate an Android phone."},
        {"role": "user", "content": "Open Settings."},
    ]
    prompt = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    assert prompt.startswith("<|im_start|>system")
    assert prompt.endswith("<|im_start|>assistant\n")
    inputs = tok(prompt, return_tensors="pt")
    with torch.no_grad():
        out = model.generate(**inputs, max_new_tokens=5, do_sample=False)
    assert out.shape[1] <= inputs["input_ids"].shape[1] + 5
    assert out.shape[1] > inputs["input_ids"].shape[1]
    assert torch.equal(out[0, : inputs["input_ids"].shape[1]], inputs["input_ids"][0])


def test_image_forward_pass(tiny, model, tok):
    processor = image_processor(tiny)
    image = Image.new("RGB", (72, 40), (30, 120, 200))
    pixels = processor(images=[image], return_tensors="pt")
    grid = pixels["image_grid_thw"]
    assert grid.shape == (1, 3)
    messages = [
        {
            "role": "user",
            "content": [{"type": "image"}, {"type": "text", "text": "What is on screen?"}],
        }
    ]
    prompt = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    assert prompt.count("<|image_pad|>") == 1
    text = expand_image_pads(prompt, grid)
    inputs = tok(text, return_tensors="pt")
    n_image = int(torch.prod(grid[0])) // 4
    assert int((inputs["input_ids"] == model.config.image_token_id).sum()) == n_image
    with torch.no_grad():
        out = model(
            **inputs,
            pixel_values=pixels["pixel_values"],
            image_grid_thw=grid,
            mm_token_type_ids=mm_token_type_ids(inputs["input_ids"], model.config),
        )
    assert out.logits.shape == (
        1,
        inputs["input_ids"].shape[1],
        model.config.text_config.vocab_size,
    )
    assert torch.isfinite(out.logits).all()
