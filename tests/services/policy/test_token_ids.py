"""Token ids and logprobs in the response, shaped as vLLM returns them (`return_token_ids`):
`prompt_token_ids` at the top, `token_ids` per choice, one logprob per id. The prompt ids are what
the shared encoding (`phonebuddy.policy_model.inputs`) makes of the request, the generated ids
decode to the text returned (which the parser strips, so the text does not give the ids back),
and a sampled end token is an id without being text."""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

import httpx
import pytest
import torch
from PIL import Image
from transformers import Qwen3_5ForConditionalGeneration

from phonebuddy.agent.chat_format import IM_END
from phonebuddy.policy.api import ChatCompletionRequest
from phonebuddy.policy.app import backend_for, create_app
from phonebuddy.policy.transformers_backend import processor_fit
from phonebuddy.policy_model import make_tiny
from phonebuddy.policy_model.inputs import (
    encode_completion,
    encode_prompt,
    load_processing,
    render_prompt,
)
from phonebuddy.testing import serve_asgi_in_thread

from .conftest import API_KEY, MODEL, png_data_uri, settings_for, user_message

IMAGE = png_data_uri(216, 480, (200, 40, 90))
MESSAGES = [user_message("What is on the screen?", IMAGE)]


def _complete(url: str, **body: Any) -> dict[str, Any]:
    response = httpx.post(
        f"{url}/v1/chat/completions",
        json={"model": MODEL, "messages": MESSAGES, **body},
        headers={"Authorization": f"Bearer {API_KEY}"},
        timeout=120,
    )
    assert response.status_code == 200, response.text
    return response.json()


def _expected_prompt_ids(checkpoint: Path) -> list[int]:
    """The request encoded by the functions the training jobs use, images resized as the
    server's loader resizes them."""
    processing = load_processing(checkpoint)
    request = ChatCompletionRequest(model=MODEL, messages=MESSAGES)
    image = Image.open(io.BytesIO(base64.b64decode(IMAGE.split(",", 1)[1]))).convert("RGB")
    fit = processor_fit(processing.image_processor)
    assert fit is not None
    image = image.resize(fit.size(*image.size), fit.resample)
    text = render_prompt(processing.tokenizer, request.template_messages(), None)
    return encode_prompt(processing, text, [image]).input_ids


def test_ids_and_logprobs_come_back_as_vllm_returns_them(server: str, tiny_checkpoint) -> None:
    completion = _complete(
        server, n=2, max_tokens=12, temperature=1.0, seed=7, logprobs=True, return_token_ids=True
    )
    processing = load_processing(tiny_checkpoint)
    prompt_ids = completion["prompt_token_ids"]
    assert prompt_ids == _expected_prompt_ids(tiny_checkpoint)
    assert len(prompt_ids) == completion["usage"]["prompt_tokens"]
    total = 0
    retokenized = []
    for choice in completion["choices"]:
        ids = choice["token_ids"]
        content = choice["logprobs"]["content"]
        assert len(ids) == len(content) == 12  # the tiny model does not end within 12 tokens
        assert choice["finish_reason"] == "length"
        # The message is the decoded text, stripped of surrounding whitespace as parsed.
        text = choice["message"]["content"]
        assert processing.tokenizer.decode(ids, skip_special_tokens=False).strip() == text
        retokenized.append(encode_completion(processing, text) == ids)
        assert [entry["token"] for entry in content] == [
            processing.tokenizer.decode([token], skip_special_tokens=False) for token in ids
        ]
        assert all(entry["logprob"] < 0 for entry in content)
        total += len(ids)
    assert total == completion["usage"]["completion_tokens"]
    assert completion["choices"][0]["token_ids"] != completion["choices"][1]["token_ids"]
    assert not all(retokenized)  # why RL trains the ids: the text does not give them back


def test_without_return_token_ids_there_are_none(server: str) -> None:
    completion = _complete(server, max_tokens=3, logprobs=True)
    assert completion["prompt_token_ids"] is None
    assert completion["choices"][0]["token_ids"] is None
    assert len(completion["choices"][0]["logprobs"]["content"]) == 3


@pytest.fixture(scope="module")
def ending_checkpoint(server: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny checkpoint with `<|im_end|>`'s output row made twice the row of the token it
    answers MESSAGES with greedily, so that it answers with `<|im_end|>` at once instead (the
    lm_head is not tied to the embeddings: nothing else changes)."""
    first = _complete(server, max_tokens=1, temperature=0, return_token_ids=True)
    (token,) = first["choices"][0]["token_ids"]
    folder = make_tiny(tmp_path_factory.mktemp("ending") / "tiny-ending", seed=0)
    model = Qwen3_5ForConditionalGeneration.from_pretrained(folder)
    end = load_processing(folder).tokenizer.convert_tokens_to_ids(IM_END)
    with torch.no_grad():
        head = model.get_output_embeddings().weight
        head[end] = 2 * head[token]
    model.save_pretrained(folder)
    return folder


def test_a_sampled_end_token_is_a_token_id_but_not_text(ending_checkpoint: Path) -> None:
    settings = settings_for(ending_checkpoint)
    with serve_asgi_in_thread(create_app(settings, backend_for(settings))) as url:
        completion = _complete(
            url, max_tokens=8, temperature=0, logprobs=True, return_token_ids=True
        )
    end = load_processing(ending_checkpoint).tokenizer.convert_tokens_to_ids(IM_END)
    (choice,) = completion["choices"]
    assert choice["token_ids"] == [end]
    assert [entry["token"] for entry in choice["logprobs"]["content"]] == [IM_END]
    assert choice["finish_reason"] == "stop"
    assert not choice["message"]["content"]
    assert completion["usage"]["completion_tokens"] == 1
