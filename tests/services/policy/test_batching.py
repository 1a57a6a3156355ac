"""Batched generation gives each row exactly what it would get alone."""

from pathlib import Path

import pytest
from PIL import Image

from phonebuddy.policy.api import ChatCompletionRequest
from phonebuddy.policy.backend import SamplingParams
from phonebuddy.policy.sampling import make_row
from phonebuddy.policy.transformers_backend import (
    Encoded,
    LoadedModel,
    TransformersBackend,
    generate_rows,
    load_model,
)

from .conftest import settings_for


@pytest.fixture(scope="module")
def loaded(tiny_checkpoint: Path) -> LoadedModel:
    return load_model(tiny_checkpoint, version="v", settings=settings_for(tiny_checkpoint))


def encode(loaded: LoadedModel, text: str, size: tuple[int, int] | None) -> Encoded:
    content: list[dict] = [{"type": "text", "text": text}]
    images = []
    if size is not None:
        content.append({"type": "image_url", "image_url": {"url": "data:image/png;base64,AA=="}})
        images.append(Image.new("RGB", size, (size[0] % 255, 80, 200)))
    request = ChatCompletionRequest.model_validate(
        {"model": "m", "messages": [{"role": "user", "content": content}]}
    )
    return TransformersBackend._encode(loaded, request, images)


def run(
    loaded: LoadedModel, prompts: list[Encoded], params: list[SamplingParams]
) -> list[list[int]]:
    rows = [make_row(p, 0) for p in params]
    generate_rows(loaded, prompts, rows)
    return [row.tokens for row in rows]


def test_batched_rows_equal_single_rows(loaded: LoadedModel) -> None:
    prompts = [
        encode(loaded, "Open Settings and turn on Wi-Fi.", (216, 480)),
        encode(loaded, "x", None),
        encode(loaded, "Send 张三 the message 你好 and then go back home.", (480, 216)),
    ]
    greedy = SamplingParams(temperature=0, max_tokens=8)
    seeded = SamplingParams(temperature=1.0, top_p=0.9, max_tokens=8, seed=5)
    params = [greedy, seeded, greedy]
    alone = [run(loaded, [prompt], [p])[0] for prompt, p in zip(prompts, params, strict=True)]
    together = run(loaded, prompts, params)
    assert together == alone
    assert all(len(tokens) == 8 for tokens in together)


def test_rows_keep_their_own_budgets(loaded: LoadedModel) -> None:
    prompt = encode(loaded, "Open the calendar.", None)
    rows = [
        make_row(SamplingParams(temperature=0, max_tokens=2), 0),
        make_row(SamplingParams(temperature=0, max_tokens=7), 0),
    ]
    generate_rows(loaded, [prompt, prompt], rows)
    assert [len(row.tokens) for row in rows] == [2, 7]
    assert rows[1].tokens[:2] == rows[0].tokens
    assert [row.finish for row in rows] == ["length", "length"]


def test_image_slots_must_match_images(loaded: LoadedModel) -> None:
    from phonebuddy.policy.errors import BadRequestError

    request = ChatCompletionRequest.model_validate(
        {"model": "m", "messages": [{"role": "user", "content": "no image here"}]}
    )
    with pytest.raises(BadRequestError, match="0 image slots for 1 images"):
        TransformersBackend._encode(loaded, request, [Image.new("RGB", (64, 64))])
