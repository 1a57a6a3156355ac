from typing import Any

import httpx
import pytest
from pydantic import BaseModel

from phonebuddy.judge import JudgeError
from phonebuddy.judge.llm import (
    ChatClient,
    Endpoint,
    Limits,
    RetryPolicy,
    TokenBucket,
    extract_json_object,
)
from phonebuddy.testing import ScriptedLLM, ScriptedReply, always, in_order


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_token_bucket_allows_a_burst_then_spaces_requests_by_the_rate() -> None:
    clock = FakeClock()
    bucket = TokenBucket(60, capacity=2, clock=clock)  # one per second, bursts of two
    assert [bucket.reserve() for _ in range(4)] == [0.0, 0.0, 1.0, 2.0]


def test_the_token_bucket_refills_with_time_up_to_its_capacity() -> None:
    clock = FakeClock()
    bucket = TokenBucket(30, capacity=2, clock=clock)  # one every two seconds
    assert [bucket.reserve(), bucket.reserve()] == [0.0, 0.0]
    clock.now += 2.0
    assert bucket.reserve() == 0.0
    assert bucket.reserve() == pytest.approx(2.0)
    clock.now += 600.0  # a long pause refills only up to the capacity
    assert [bucket.reserve() for _ in range(3)] == [0.0, 0.0, pytest.approx(2.0)]


def test_a_rate_of_zero_is_no_limit() -> None:
    bucket = TokenBucket(0, clock=FakeClock())
    assert bucket.unlimited
    assert {bucket.reserve() for _ in range(1000)} == {0.0}


async def test_acquire_sleeps_for_the_reserved_wait() -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    bucket = TokenBucket(120, capacity=1, clock=FakeClock())
    waits = [await bucket.acquire(sleep) for _ in range(3)]
    assert waits == [0.0, 0.5, 1.0]
    assert slept == [0.5, 1.0]


def test_the_backoff_doubles_honours_retry_after_and_is_capped() -> None:
    policy = RetryPolicy(backoff_s=0.5, backoff_max_s=3.0)
    assert [policy.delay(retry) for retry in (1, 2, 3, 4, 5)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    assert policy.delay(1, retry_after=2.0) == 2.0
    assert policy.delay(1, retry_after=100.0) == 3.0
    assert policy.delay(3, retry_after=0.0) == 2.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ('```json\n{"a": {"b": [1, 2]}}\n```', {"a": {"b": [1, 2]}}),
        ('```\n{"a": 1}\n```', {"a": 1}),
        ('Here you go: {"a": "x}y"} -- hope that helps {"b": 2}', {"a": "x}y"}),
        ('<think>maybe {"a": 0}?</think>\n{"a": 1}', {"a": 1}),
        ('[1, 2] and then {"a": 1}', {"a": 1}),
    ],
    ids=["bare", "json-fence", "plain-fence", "prose", "think-block", "array-first"],
)
def test_the_json_object_is_found_in_an_answer(text: str, expected: dict[str, Any]) -> None:
    assert extract_json_object(text) == expected


@pytest.mark.parametrize("text", ["", "no json here", "[1, 2, 3]", '{"a": 1', "```json\n```"])
def test_an_answer_without_a_json_object_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError, match="no JSON object"):
        extract_json_object(text)


class Answer(BaseModel):
    ok: bool


def client_for(
    base_url: str, http: httpx.AsyncClient, sleeps: list[float], **retry: Any
) -> ChatClient:
    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    return ChatClient(
        Endpoint(base_url=base_url, model="m"),
        role="grader",
        http=http,
        limits=Limits(max_concurrency=1, requests_per_minute=0),
        retry=RetryPolicy(**{"timeout_s": 5.0, "max_retries": 3, "backoff_s": 1.0, **retry}),
        sleep=sleep,
    )


async def test_retries_wait_with_exponential_backoff_and_retry_after() -> None:
    script = in_order(
        ScriptedReply.error(500),
        ScriptedReply.error(429, headers={"Retry-After": "7"}),
        ScriptedReply.text("not json"),
        ScriptedReply.json_object({"ok": True}),
    )
    sleeps: list[float] = []
    async with ScriptedLLM(script) as llm, httpx.AsyncClient() as http:
        client = client_for(llm.base_url, http, sleeps, backoff_max_s=30.0)
        answer = await client.structured([{"role": "user", "content": "?"}], Answer.model_validate)
    assert answer.value == Answer(ok=True)
    assert sleeps == [1.0, 7.0, 4.0]
    assert [a["outcome"] for a in answer.attempts] == [
        "server_error",
        "rate_limited",
        "invalid_answer",
        "ok",
    ]
    assert answer.raw_answers == ["not json", '{"ok": true}']


async def test_a_judge_error_carries_every_attempt_and_raw_answer() -> None:
    sleeps: list[float] = []
    async with (
        ScriptedLLM(always(ScriptedReply.json_object({"ok": "maybe"}))) as llm,
        httpx.AsyncClient() as http,
    ):
        client = client_for(llm.base_url, http, sleeps, max_retries=2, backoff_max_s=30.0)
        with pytest.raises(JudgeError) as raised:
            await client.structured([{"role": "user", "content": "?"}], Answer.model_validate)
    error = raised.value
    assert error.stage == "grader"
    assert len(error.attempts) == 3
    assert error.raw_answers == ['{"ok": "maybe"}'] * 3
    assert "unusable answer" in str(error)
    assert "after 3 call(s)" in str(error)
    assert sleeps == [1.0, 2.0]


@pytest.mark.parametrize(
    ("reply", "outcome"),
    [
        (ScriptedReply.raw('{"choices": []}'), "not_a_completion"),
        (ScriptedReply.raw('{"id": "x"}'), "not_a_completion"),
        (ScriptedReply.text("   "), "no_content"),
    ],
)
async def test_bodies_that_are_not_usable_completions_are_retried(
    reply: ScriptedReply, outcome: str
) -> None:
    sleeps: list[float] = []
    async with (
        ScriptedLLM(in_order(reply, ScriptedReply.json_object({"ok": False}))) as llm,
        httpx.AsyncClient() as http,
    ):
        client = client_for(llm.base_url, http, sleeps)
        answer = await client.structured([{"role": "user", "content": "?"}], Answer.model_validate)
    assert answer.value == Answer(ok=False)
    assert [a["outcome"] for a in answer.attempts] == [outcome, "ok"]


def test_limits_refuse_a_concurrency_below_one() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Limits(max_concurrency=0, requests_per_minute=10)


async def test_calls_beyond_the_rate_wait_their_turn_before_they_are_sent() -> None:
    clock = FakeClock()
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        clock.now += seconds

    limits = Limits(max_concurrency=1, requests_per_minute=30, clock=clock, sleep=sleep)
    async with (
        ScriptedLLM(always(ScriptedReply.json_object({"ok": True}))) as llm,
        httpx.AsyncClient() as http,
    ):
        client = ChatClient(
            Endpoint(base_url=llm.base_url, model="m"),
            role="rubric",
            http=http,
            limits=limits,
            retry=RetryPolicy(timeout_s=5.0, max_retries=0),
        )
        for _ in range(3):
            await client.structured([{"role": "user", "content": "?"}], Answer.model_validate)
    assert waits == [2.0, 2.0]  # one call every two seconds after the first
    assert len(llm.requests) == 3
