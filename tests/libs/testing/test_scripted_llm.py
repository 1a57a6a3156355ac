import asyncio
import base64
import json
from typing import Any

import httpx
import openai
import pytest
from openai import AsyncOpenAI

from phonebuddy.testing import (
    ScriptedLLM,
    ScriptedReply,
    ScriptError,
    always,
    in_order,
)

PNG = b"\x89PNG\r\n\x1a\nnot-really-a-png"
PNG_URI = "data:image/png;base64," + base64.b64encode(PNG).decode()


def client_for(llm: ScriptedLLM, api_key: str = "unused") -> AsyncOpenAI:
    return AsyncOpenAI(base_url=llm.base_url, api_key=api_key, max_retries=0, timeout=10)


async def test_the_official_client_reads_a_scripted_text_answer() -> None:
    async with ScriptedLLM(always("hello there"), models=["judge-1"]) as llm:
        client = client_for(llm)
        completion = await client.chat.completions.create(
            model="judge-1", messages=[{"role": "user", "content": "hi"}]
        )
        models = await client.models.list()
        await client.close()
    assert llm.base_url.endswith("/v1")
    assert completion.choices[0].message.content == "hello there"
    assert completion.choices[0].finish_reason == "stop"
    assert completion.model == "judge-1"
    assert completion.usage is not None
    assert completion.usage.total_tokens == 1 + 2
    assert [model.id for model in models.data] == ["judge-1"]


async def test_replies_follow_the_script_in_order_and_json_can_come_fenced() -> None:
    script = in_order(
        ScriptedReply.json_object({"a": 1}),
        ScriptedReply.json_object({"b": "二"}, fenced=True),
        then="done",
    )
    async with ScriptedLLM(script) as llm:
        client = client_for(llm)
        answers = []
        for _ in range(4):
            completion = await client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "go"}]
            )
            answers.append(completion.choices[0].message.content)
        await client.close()
    assert answers == ['{"a": 1}', '```json\n{"b": "二"}\n```', "done", "done"]


async def test_every_request_is_recorded_with_its_text_and_images() -> None:
    seen: list[dict[str, Any]] = []

    def script(body: dict[str, Any]) -> str:
        seen.append(body)
        return "ok"

    async with ScriptedLLM(script) as llm:
        client = client_for(llm)
        await client.chat.completions.create(
            model="grader",
            messages=[
                {"role": "system", "content": "be strict"},
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Task: pin the note"},
                        {"type": "image_url", "image_url": {"url": PNG_URI}},
                    ],
                },
            ],
            response_format={"type": "json_object"},
        )
        await client.close()
    (request,) = llm.requests
    assert request.path == "/v1/chat/completions"
    assert request.model == "grader"
    assert request.text() == "be strict\nTask: pin the note"
    assert request.image_urls() == [PNG_URI]
    assert request.body["response_format"] == {"type": "json_object"}
    assert seen == [request.body]
    assert llm.requests_for("grader") == [request]
    assert llm.requests_for("writer") == []


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (400, openai.BadRequestError),
        (429, openai.RateLimitError),
        (500, openai.InternalServerError),
        (503, openai.InternalServerError),
    ],
)
async def test_scripted_http_errors_reach_the_client_as_openai_errors(
    status: int, error: type[openai.APIStatusError]
) -> None:
    reply = ScriptedReply.error(status, "scripted trouble", headers={"Retry-After": "7"})
    async with ScriptedLLM(always(reply)) as llm:
        client = client_for(llm)
        with pytest.raises(error) as raised:
            await client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "hi"}]
            )
        await client.close()
    assert raised.value.status_code == status
    assert "scripted trouble" in raised.value.message
    assert raised.value.response.headers["retry-after"] == "7"


async def test_a_malformed_body_is_sent_exactly_as_scripted() -> None:
    async with ScriptedLLM(in_order(ScriptedReply.raw('{"choices": [', status=200))) as llm:
        async with httpx.AsyncClient(base_url=llm.base_url) as http:
            response = await http.post(
                "/chat/completions", json={"model": "m", "messages": [{"role": "user"}]}
            )
        assert response.status_code == 200
        assert response.content == b'{"choices": ['
        with pytest.raises(json.JSONDecodeError):
            response.json()


async def test_a_slow_answer_times_out_the_client_and_closing_does_not_wait_for_it() -> None:
    async with ScriptedLLM(always(ScriptedReply.text("late").after(60))) as llm:
        client = AsyncOpenAI(base_url=llm.base_url, api_key="k", max_retries=0, timeout=0.2)
        with pytest.raises(openai.APITimeoutError):
            await client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "hi"}]
            )
        await client.close()
        assert len(llm.requests) == 1
    # Leaving the block woke the sleeping handler: nothing is still being answered.
    assert llm.in_flight == 0


async def test_the_api_key_is_checked_when_one_is_set() -> None:
    async with ScriptedLLM(always("secret answer"), api_key="right") as llm:
        wrong = client_for(llm, api_key="wrong")
        with pytest.raises(openai.AuthenticationError):
            await wrong.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "hi"}]
            )
        right = client_for(llm, api_key="right")
        completion = await right.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}]
        )
        await wrong.close()
        await right.close()
    assert completion.choices[0].message.content == "secret answer"
    assert [r.headers["authorization"] for r in llm.requests] == ["Bearer wrong", "Bearer right"]


async def test_an_unknown_model_is_not_found_when_models_are_listed() -> None:
    async with ScriptedLLM(always("x"), models=["only-this"]) as llm:
        client = client_for(llm)
        with pytest.raises(openai.NotFoundError):
            await client.chat.completions.create(
                model="other", messages=[{"role": "user", "content": "hi"}]
            )
        await client.close()


async def test_requests_that_are_not_chat_requests_get_400() -> None:
    async with (
        ScriptedLLM(always("never")) as llm,
        httpx.AsyncClient(base_url=llm.base_url) as http,
    ):
        no_messages = await http.post("/chat/completions", json={"model": "m"})
        not_json = await http.post("/chat/completions", content=b"hello")
        many = await http.post(
            "/chat/completions",
            json={"model": "m", "messages": [{"role": "user", "content": "x"}], "n": 2},
        )
    assert [r.status_code for r in (no_messages, not_json, many)] == [400, 400, 400]
    assert "messages" in no_messages.json()["error"]["message"]
    assert llm.requests[1].body is None


async def test_max_in_flight_counts_overlapping_requests() -> None:
    llm: ScriptedLLM

    async def script(body: dict[str, Any]) -> str:
        # Hold every answer until all three requests are in at once.
        await asyncio.wait_for(llm.wait_for_in_flight(3), 10)
        return "together"

    async with ScriptedLLM(script) as llm:
        client = client_for(llm)
        answers = await asyncio.gather(
            *(
                client.chat.completions.create(
                    model="m", messages=[{"role": "user", "content": str(i)}]
                )
                for i in range(3)
            )
        )
        await client.close()
    assert [a.choices[0].message.content for a in answers] == ["together"] * 3
    assert llm.max_in_flight == 3
    assert llm.in_flight == 0


async def test_a_script_that_raises_answers_500_and_fails_the_block() -> None:
    def script(body: dict[str, Any]) -> str:
        raise KeyError("the test forgot a case")

    llm = await ScriptedLLM(script).__aenter__()
    client = client_for(llm)
    with pytest.raises(openai.InternalServerError, match="KeyError"):
        await client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}]
        )
    await client.close()
    with pytest.raises(ScriptError, match="forgot a case"):
        await llm.__aexit__(None, None, None)
    assert len(llm.script_errors) == 1


async def test_an_exhausted_in_order_script_is_reported() -> None:
    llm = await ScriptedLLM(in_order("only one")).__aenter__()
    async with httpx.AsyncClient(base_url=llm.base_url) as http:
        body = {"model": "m", "messages": [{"role": "user", "content": "x"}]}
        assert (await http.post("/chat/completions", json=body)).status_code == 200
        assert (await http.post("/chat/completions", json=body)).status_code == 500
    with pytest.raises(ScriptError, match="only 1 replies"):
        await llm.__aexit__(None, None, None)


def test_served_from_a_thread_for_synchronous_callers() -> None:
    with ScriptedLLM(always(ScriptedReply.json_object({"ok": True}))) as llm:
        client = openai.OpenAI(base_url=llm.base_url, api_key="k", max_retries=0, timeout=10)
        completion = client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}]
        )
        client.close()
    assert json.loads(completion.choices[0].message.content or "") == {"ok": True}
    assert len(llm.requests) == 1


async def test_using_the_server_before_serving_says_how_to_serve() -> None:
    llm = ScriptedLLM(always("x"))
    with pytest.raises(RuntimeError, match="async with"):
        _ = llm.base_url
    with pytest.raises(RuntimeError, match="inside a script"):
        await llm.wait_for_in_flight(1)


def test_a_reply_without_content_is_refused() -> None:
    with pytest.raises(ValueError, match="needs content"):
        ScriptedReply()
    with pytest.raises(ValueError, match="400 or more"):
        ScriptedReply.error(200)
