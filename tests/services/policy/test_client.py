"""`phonebuddy.agent.PolicyClient` against the real policy server."""

import pytest

from phonebuddy.agent import (
    InvalidOutput,
    ParsedAction,
    PolicyCallError,
    PolicyClient,
    PolicyEndpoint,
    Sampling,
    build_prompt,
    message_text,
    parse_output,
)
from phonebuddy.protocol import (
    Category,
    Click,
    Frame,
    Instruction,
    Observation,
    ScreenSize,
    TaskSpec,
)
from phonebuddy.testing import free_port

from .conftest import API_KEY, png_data_uri


def _prompt_and_frames() -> tuple[object, dict[str, bytes]]:
    import base64

    data = base64.b64decode(png_data_uri().split(",", 1)[1])
    frame = Frame.from_bytes(data, "image/png")
    task = TaskSpec(
        template_id="notes.create",
        instruction=Instruction(zh="新建笔记", en="Create a note"),
        category=Category.SINGLE_APP,
        apps=("com.pw.notes",),
    )
    observation = Observation(frame=frame.ref, screen=ScreenSize(width=216, height=480))
    return build_prompt(task, [], observation), {frame.ref.sha256: data}


async def test_act_returns_n_answers_with_version_and_usage(server: str) -> None:
    prompt, frames = _prompt_and_frames()
    endpoint = PolicyEndpoint(base_url=f"{server}/v1", api_key=API_KEY)
    async with PolicyClient(endpoint) as policy:
        reply = await policy.act(prompt, frames, Sampling(n=3, max_tokens=4, seed=1, logprobs=True))
    assert len(reply.answers) == 3
    assert reply.model_version is not None
    assert reply.model_version.startswith("tiny-seed0@")
    assert reply.completion_tokens == 12
    assert reply.prompt_tokens is not None
    assert reply.prompt_tokens > 64
    for answer in reply.answers:
        assert isinstance(answer.parsed, InvalidOutput)
        assert answer.token_logprobs is not None
        assert len(answer.token_logprobs) == 4
        assert answer.finish_reason == "length"


async def test_missing_frame_bytes_are_a_clear_error(server: str) -> None:
    prompt, _ = _prompt_and_frames()
    endpoint = PolicyEndpoint(base_url=f"{server}/v1", api_key=API_KEY)
    async with PolicyClient(endpoint) as policy:
        with pytest.raises(KeyError, match="no bytes for frame"):
            await policy.act(prompt, {}, Sampling(max_tokens=1))


async def test_client_errors_are_not_retryable_and_outages_are(server: str) -> None:
    prompt, frames = _prompt_and_frames()
    wrong_key = PolicyEndpoint(base_url=f"{server}/v1", api_key="nope")
    async with PolicyClient(wrong_key) as policy:
        with pytest.raises(PolicyCallError) as raised:
            await policy.act(prompt, frames, Sampling(max_tokens=1))
    assert raised.value.status == 401
    assert not raised.value.retryable
    too_many = PolicyEndpoint(base_url=f"{server}/v1", api_key=API_KEY)
    async with PolicyClient(too_many) as policy:
        with pytest.raises(PolicyCallError, match="limit 8") as raised:
            await policy.act(prompt, frames, Sampling(n=9, max_tokens=1))
    assert raised.value.status == 400
    assert not raised.value.retryable
    gone = PolicyEndpoint(base_url=f"http://127.0.0.1:{free_port()}/v1", timeout_s=2)
    async with PolicyClient(gone) as policy:
        with pytest.raises(PolicyCallError, match="cannot reach") as raised:
            await policy.act(prompt, frames, Sampling(max_tokens=1))
    assert raised.value.retryable


def test_message_text_rebuilds_what_the_model_wrote() -> None:
    message = {
        "role": "assistant",
        "content": "I will tap the button.",
        "reasoning_content": "The button is at the bottom.",
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {
                    "name": "mobile_use",
                    "arguments": '{"action": "click", "coordinate": [500, 900]}',
                },
            }
        ],
    }
    text = message_text(message)
    assert text.startswith("<think>\nThe button is at the bottom.\n</think>\n\nI will tap")
    assert text.endswith("</tool_call>")
    parsed = parse_output(text)
    assert isinstance(parsed, ParsedAction)
    assert parsed.action == Click(coordinate=(500, 900))
    assert message_text({"role": "assistant", "content": "just prose"}) == "just prose"
