"""What `PolicyClient` puts in a request: a model endpoint learns nothing about the task beyond
the prompt; a teacher endpoint learns only which task (template, seed, language) and step. And
what it reads back: the sampled tokens, when the server returns them as vLLM does."""

import json
from typing import Any

import pytest

from phonebuddy.agent import PolicyCallError, PolicyClient, PolicyEndpoint, Sampling, build_prompt
from phonebuddy.agent.client import teacher_metadata
from phonebuddy.protocol import TaskSpec
from phonebuddy.protocol.episodes import SampledTokens, token_ids_sha256
from phonebuddy.testing import ScriptedLLM, ScriptedReply
from phonebuddy.testing.scripted_llm import always

from .conftest import observation

SECRET_CENTS = 467847


async def _body(task: TaskSpec, *, teacher: bool) -> dict:
    endpoint = PolicyEndpoint(base_url="http://127.0.0.1:9/v1", teacher=teacher)
    screen = observation("start")
    prompt = build_prompt(task, [], screen)
    async with PolicyClient(endpoint) as client:
        frames = {screen.frame.sha256: b"png"}
        return client.request_body(prompt, frames, Sampling(), task=task, step=3)


def _question(task: TaskSpec) -> TaskSpec:
    return task.model_copy(update={"template_id": "wallet.balance", "seed": 7, "language": "zh",
                                   "params": {"balance_cents": SECRET_CENTS}})  # fmt: skip


async def test_a_model_endpoint_gets_no_task_metadata(task: TaskSpec) -> None:
    body = await _body(_question(task), teacher=False)
    assert "metadata" not in body
    assert str(SECRET_CENTS) not in json.dumps(body)


async def test_a_teacher_endpoint_gets_only_what_identifies_the_task(task: TaskSpec) -> None:
    question = _question(task)
    body = await _body(question, teacher=True)
    assert body["metadata"] == teacher_metadata(question, 3)
    assert body["metadata"] == {
        "phonebuddy_template_id": "wallet.balance",
        "phonebuddy_seed": "7",
        "phonebuddy_language": "zh",
        "phonebuddy_step": "3",
    }
    assert str(SECRET_CENTS) not in json.dumps(body)


# -- the sampled tokens ------------------------------------------------------------------------

PROMPT_IDS = [248045, 8948, 198, 248056, 248056, 248046, 198]


def _completion(choice: dict[str, Any], *, prompt_ids: list[int] | None = PROMPT_IDS) -> str:
    """A chat completion as vLLM writes one with `return_token_ids`."""
    body: dict[str, Any] = {
        "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": "hi"}, **choice}],
        "usage": {"prompt_tokens": 7, "completion_tokens": 2, "total_tokens": 9},
    }  # fmt: skip
    if prompt_ids is not None:
        body["prompt_token_ids"] = prompt_ids
    return json.dumps(body)


def _logprobs(*values: float) -> dict[str, Any]:
    return {"content": [{"token": "t", "logprob": v, "bytes": [116]} for v in values]}


async def _act(reply: str, task: TaskSpec, sampling: Sampling | None = None) -> Any:
    screen = observation("start")
    async with ScriptedLLM(always(ScriptedReply.raw(reply))) as llm:
        async with PolicyClient(PolicyEndpoint(base_url=llm.base_url)) as client:
            answer = await client.act(
                build_prompt(task, [], screen), {screen.frame.sha256: b"png"}, sampling
            )
        return answer, llm.requests[0].body


async def test_rollouts_ask_for_the_sampled_tokens_by_default(task: TaskSpec) -> None:
    body = await _body(task, teacher=False)
    assert (body["logprobs"], body["return_token_ids"]) == (True, True)
    endpoint = PolicyEndpoint(base_url="http://127.0.0.1:9/v1")
    screen = observation("start")
    async with PolicyClient(endpoint) as client:
        plain = client.request_body(
            build_prompt(task, [], screen), {screen.frame.sha256: b"png"}, Sampling(tokens=False)
        )
    assert "logprobs" not in plain
    assert "return_token_ids" not in plain


async def test_an_answer_carries_its_ids_logprobs_and_the_prompt_digest(task: TaskSpec) -> None:
    reply = _completion({"token_ids": [6023, 248046], "logprobs": _logprobs(-0.25, -0.5)})
    answer, sent = await _act(reply, task)
    assert sent["return_token_ids"] is True
    (only,) = answer.answers
    assert only.tokens == SampledTokens(
        token_ids=(6023, 248046), logprobs=(-0.25, -0.5), prompt_tokens=len(PROMPT_IDS),
        prompt_sha256=token_ids_sha256(PROMPT_IDS),
    )  # fmt: skip
    assert only.tokens.matches_prompt(PROMPT_IDS)


@pytest.mark.parametrize(
    ("choice", "prompt_ids"),
    [
        ({}, PROMPT_IDS),  # a server without return_token_ids, or the teacher
        ({"token_ids": None}, None),
        ({"token_ids": [5, 6]}, None),  # generated ids but no prompt: nothing to check them by
    ],
)
async def test_an_answer_without_ids_has_no_tokens(
    task: TaskSpec, choice: dict[str, Any], prompt_ids: list[int] | None
) -> None:
    answer, _ = await _act(_completion(choice, prompt_ids=prompt_ids), task)
    assert answer.answers[0].tokens is None


async def test_logprobs_that_do_not_match_the_ids_are_a_broken_server(task: TaskSpec) -> None:
    reply = _completion({"token_ids": [6023, 248046], "logprobs": _logprobs(-0.25)})
    with pytest.raises(PolicyCallError, match="unusable token ids") as raised:
        await _act(reply, task)
    assert not raised.value.retryable
