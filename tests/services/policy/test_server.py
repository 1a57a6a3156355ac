"""The policy server through the official OpenAI client, as users and the broker call it."""

import asyncio
import json

import httpx
import openai
import pytest
from openai import AsyncOpenAI, OpenAI

from phonebuddy.agent import mobile_use_tool
from phonebuddy.policy.api import MAX_JSON_DEPTH

from .conftest import ADMIN_TOKEN, API_KEY, MODEL, png_data_uri, user_message


@pytest.fixture
def client(server: str) -> OpenAI:
    return OpenAI(base_url=f"{server}/v1", api_key=API_KEY, max_retries=0)


def test_models_lists_the_served_model_with_its_version(client: OpenAI) -> None:
    models = client.models.list().data
    assert [model.id for model in models] == [MODEL]
    extra = models[0].model_extra or {}
    assert extra["model_version"].startswith("tiny-seed0@")
    assert extra["max_model_len"] == 4096


def test_completion_with_image_and_tools_reports_version_and_usage(client: OpenAI) -> None:
    raw = client.chat.completions.with_raw_response.create(
        model=MODEL,
        messages=[
            {"role": "system", "content": "You operate a phone."},
            user_message("Open Settings.", png_data_uri()),
        ],
        tools=[mobile_use_tool()],  # type: ignore[list-item]
        max_tokens=6,
        temperature=0,
    )
    completion = raw.parse()
    version = (completion.model_extra or {})["model_version"]
    assert version.startswith("tiny-seed0@")
    assert completion.system_fingerprint == version
    assert raw.headers["x-phonebuddy-model-version"] == version
    assert completion.model == MODEL
    assert len(completion.choices) == 1
    choice = completion.choices[0]
    # The random model rambles: it hits the token budget and writes no tool call.
    assert choice.finish_reason == "length"
    assert choice.message.content
    assert completion.usage is not None
    assert completion.usage.completion_tokens == 6
    # 216x480 -> upscaled to the 65,536-pixel minimum -> 64 image tokens, plus the tool schema.
    assert completion.usage.prompt_tokens > 64 + 300


def test_n_samples_and_logprobs(client: OpenAI) -> None:
    completion = client.chat.completions.create(
        model=MODEL,
        messages=[user_message("Describe the screen.", png_data_uri())],
        n=4,
        max_tokens=5,
        temperature=1.0,
        seed=7,
        logprobs=True,
        top_logprobs=3,
    )
    assert [choice.index for choice in completion.choices] == [0, 1, 2, 3]
    texts = {choice.message.content for choice in completion.choices}
    assert len(texts) > 1, "four samples at temperature 1 from a random model all agree"
    for choice in completion.choices:
        assert choice.logprobs is not None
        assert choice.logprobs.content is not None
        assert len(choice.logprobs.content) == 5
        for token in choice.logprobs.content:
            assert token.logprob < 0
            assert len(token.top_logprobs) == 3
            best = token.top_logprobs[0].logprob
            assert all(t.logprob <= best for t in token.top_logprobs)
            assert token.logprob <= best + 1e-6
    assert completion.usage is not None
    assert completion.usage.completion_tokens == 20


def test_seed_makes_sampling_repeatable(client: OpenAI) -> None:
    def sample(seed: int) -> list[str | None]:
        completion = client.chat.completions.create(
            model=MODEL, messages=[user_message("Go home.")], n=2, max_tokens=6, seed=seed
        )
        return [choice.message.content for choice in completion.choices]

    assert sample(11) == sample(11)
    assert sample(11) != sample(12)


def test_greedy_is_deterministic_and_top_p_tiny_is_greedy(client: OpenAI) -> None:
    messages = [user_message("Open the clock.")]
    greedy = client.chat.completions.create(
        model=MODEL, messages=messages, max_tokens=6, temperature=0
    )
    again = client.chat.completions.create(
        model=MODEL, messages=messages, max_tokens=6, temperature=0
    )
    nucleus = client.chat.completions.create(
        model=MODEL, messages=messages, max_tokens=6, temperature=1.0, top_p=1e-6, seed=3
    )
    assert greedy.choices[0].message.content == again.choices[0].message.content
    assert nucleus.choices[0].message.content == greedy.choices[0].message.content


def test_stop_string_cuts_the_answer(client: OpenAI) -> None:
    messages = [user_message("Type hello.")]
    full = client.chat.completions.create(
        model=MODEL, messages=messages, max_tokens=12, temperature=0
    )
    text = full.choices[0].message.content or ""
    assert len(text) > 4
    stop = text[len(text) // 2 : len(text) // 2 + 2]
    cut = client.chat.completions.create(
        model=MODEL, messages=messages, max_tokens=12, temperature=0, stop=[stop]
    )
    assert cut.choices[0].finish_reason == "stop"
    assert cut.choices[0].message.content == text[: text.find(stop)].strip() or None


async def test_concurrent_requests_are_batched(server: str) -> None:
    client = AsyncOpenAI(base_url=f"{server}/v1", api_key=API_KEY, max_retries=0)
    before = _histogram_sum(server, "phonebuddy_policy_batch_rows_rows")
    completions = await asyncio.gather(
        *(
            client.chat.completions.create(
                model=MODEL,
                messages=[user_message(f"Task number {i}.", png_data_uri(color=(i * 20, 0, 0)))],
                max_tokens=4,
                temperature=0,
            )
            for i in range(8)
        )
    )
    await client.close()
    assert all(c.usage is not None and c.usage.completion_tokens == 4 for c in completions)
    rows, batches = _histogram_sum(server, "phonebuddy_policy_batch_rows_rows")
    assert rows - before[0] == 8
    assert batches - before[1] < 8, "eight concurrent requests ran as eight batches"


def _histogram_sum(server: str, name: str) -> tuple[float, float]:
    text = httpx.get(f"{server}/metrics").text
    values = {}
    for line in text.splitlines():
        for suffix in ("_sum", "_count"):
            if line.startswith(name + suffix + " "):
                values[suffix] = float(line.split()[-1])
    return values.get("_sum", 0.0), values.get("_count", 0.0)


# ---- bad requests: a clear 4xx, and the server keeps serving ----


@pytest.mark.parametrize(
    ("kwargs", "error", "needle"),
    [
        ({"model": "gpt-9"}, openai.NotFoundError, "does not exist"),
        ({"temperature": 5}, openai.BadRequestError, "temperature"),
        ({"top_p": 0}, openai.BadRequestError, "top_p"),
        ({"n": 0}, openai.BadRequestError, "n: Input should be greater"),
        ({"n": 9}, openai.BadRequestError, "limit 8"),
        ({"max_tokens": 0}, openai.BadRequestError, "max_tokens"),
        ({"max_tokens": 5000}, openai.BadRequestError, "maximum context length"),
        ({"top_logprobs": 2}, openai.BadRequestError, "logprobs"),
        ({"stop": ["a", "b", "c", "d", "e"]}, openai.BadRequestError, "stop"),
    ],
)
def test_invalid_parameters_are_400s(
    client: OpenAI, kwargs: dict, error: type, needle: str
) -> None:
    request = {"model": MODEL, "messages": [user_message("hi")], "max_tokens": 2, **kwargs}
    with pytest.raises(error) as raised:
        client.chat.completions.create(**request)
    assert needle in str(raised.value)
    assert client.chat.completions.create(model=MODEL, messages=[user_message("hi")], max_tokens=1)


@pytest.mark.parametrize(
    ("url", "needle"),
    [
        ("data:image/png;base64,iVBORw0KGgo=", "not a decodable image"),
        ("data:image/png;base64,@@@not-base64@@@", "not valid base64"),
        ("data:text/plain,hello", "data:image/<type>;base64"),
        ("ftp://example.com/a.png", "unsupported image URL scheme"),
        ("store:blobs/sha256/00/" + "0" * 64, "no object store"),
        (png_data_uri(20, 4100), "20x4100, which the model cannot take"),  # over 200:1
    ],
)
def test_broken_images_are_400s_naming_the_image(client: OpenAI, url: str, needle: str) -> None:
    with pytest.raises(openai.BadRequestError) as raised:
        client.chat.completions.create(
            model=MODEL, messages=[user_message("look", png_data_uri(), url)], max_tokens=1
        )
    assert needle in str(raised.value)
    assert "image 2 (message 1)" in str(raised.value)


def test_prompt_too_long(client: OpenAI) -> None:
    with pytest.raises(openai.BadRequestError) as raised:
        client.chat.completions.create(
            model=MODEL, messages=[user_message("tap " * 5000)], max_tokens=4
        )
    assert raised.value.code == "context_length_exceeded"


def test_a_prompt_longer_than_any_context_is_refused_by_its_size(client: OpenAI) -> None:
    """10 MB of text is refused from its length, before it is tokenized (which took 11 s)."""
    text = "tap " * (10 * 2**20 // 4)
    with pytest.raises(openai.BadRequestError) as raised:
        client.chat.completions.create(
            model=MODEL, messages=[user_message("Go."), user_message(text)], max_tokens=4
        )
    assert raised.value.code == "context_length_exceeded"
    assert f"the request has {len(text) + 3} characters" in str(raised.value)
    assert "maximum context length is 4096 tokens" in str(raised.value)


def test_a_long_prompt_of_long_tokens_within_the_context_is_served(client: OpenAI) -> None:
    """The size bound refuses only text no tokenization can fit: 200,000 spaces are 1,563
    tokens of this vocabulary's 128-space token, and fit a 4096-token context."""
    completion = client.chat.completions.create(
        model=MODEL, messages=[user_message(" " * 200_000)], max_tokens=1
    )
    assert completion.usage is not None
    assert completion.usage.prompt_tokens < 4096 - 1


def test_streaming_is_refused_clearly(server: str) -> None:
    response = httpx.post(
        f"{server}/v1/chat/completions",
        headers={"Authorization": f"Bearer {API_KEY}"},
        json={"model": MODEL, "messages": [user_message("hi")], "stream": True},
    )
    assert response.status_code == 400
    assert "streaming is not supported" in response.json()["error"]["message"]


def test_malformed_json_and_wrong_roles_are_400s(server: str) -> None:
    headers = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
    url = f"{server}/v1/chat/completions"
    broken = httpx.post(url, headers=headers, content=b'{"model": "phonebuddy-policy", "mess')
    assert broken.status_code == 400
    assert broken.json()["error"]["type"] == "invalid_request_error"
    tool_role = httpx.post(
        url,
        headers=headers,
        content=json.dumps(
            {"model": MODEL, "messages": [{"role": "tool", "content": "x", "tool_call_id": "1"}]}
        ),
    )
    assert tool_role.status_code == 400
    assert "role" in tool_role.json()["error"]["message"]


def _nested(levels: int) -> dict[str, object]:
    """A JSON schema of `levels` objects, each inside the one before (arrays of arrays...)."""
    schema: dict[str, object] = {"type": "string"}
    for _ in range(levels - 1):
        schema = {"type": "array", "items": schema}
    return schema


def _tool(parameters: dict[str, object]) -> dict[str, object]:
    return {"type": "function", "function": {"name": "f", "parameters": parameters}}


def _call(arguments: dict[str, object]) -> dict[str, object]:
    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": arguments}}
    return {"role": "assistant", "content": None, "tool_calls": [call]}


@pytest.mark.parametrize(
    ("where", "request_fields"),
    [
        ("tools", {"tools": [_tool(_nested(400))]}),
        ("messages", {"messages": [user_message("hi"), _call(_nested(400)), user_message("go")]}),
        ("chat_template_kwargs", {"chat_template_kwargs": {"x": _nested(400)}}),
    ],
    ids=["tool-schema", "call-arguments", "template-kwargs"],
)
def test_json_nested_too_deeply_is_a_400_naming_the_limit(
    client: OpenAI, where: str, request_fields: dict
) -> None:
    """Free-form JSON (tool schemas, call arguments) is bounded in depth: 400 levels used to
    overflow pydantic's serializer when the chat template was fed (a 500)."""
    with pytest.raises(openai.BadRequestError) as raised:
        client.chat.completions.create(
            model=MODEL, messages=[user_message("hi")], max_tokens=1, extra_body=request_fields
        )
    assert raised.value.type == "invalid_request_error"
    assert raised.value.param == where
    assert f"at most {MAX_JSON_DEPTH} levels" in str(raised.value)
    assert client.chat.completions.create(model=MODEL, messages=[user_message("hi")], max_tokens=1)


def test_a_tool_schema_nested_up_to_the_limit_is_served(client: OpenAI) -> None:
    """The body, `tools`, the tool and `function` are 4 levels: the schema may nest 60 more."""
    at_limit = _nested(MAX_JSON_DEPTH - 4)
    completion = client.chat.completions.create(
        model=MODEL,
        messages=[user_message("hi")],
        tools=[_tool(at_limit)],  # type: ignore[list-item]
        max_tokens=1,
    )
    assert completion.choices[0].finish_reason == "length"
    with pytest.raises(openai.BadRequestError, match=f"more than {MAX_JSON_DEPTH} levels"):
        client.chat.completions.create(
            model=MODEL,
            messages=[user_message("hi")],
            tools=[_tool({"type": "array", "items": at_limit})],  # type: ignore[list-item]
            max_tokens=1,
        )


@pytest.mark.parametrize(
    ("tool_choice", "tools", "needle"),
    [
        pytest.param(
            {"type": "function", "function": {"name": "nope"}},
            [mobile_use_tool()],
            "'nope'",
            id="unknown-function",
        ),
        pytest.param(
            {"type": "function", "function": {"name": "mobile_use"}},
            None,
            "needs tools",
            id="function-without-tools",
        ),
        pytest.param("required", None, "needs tools", id="required-without-tools"),
        pytest.param("required", [], "needs tools", id="required-with-empty-tools"),
        pytest.param({"type": "function"}, [mobile_use_tool()], "tool_choice", id="no-function"),
    ],
)
def test_a_tool_choice_naming_no_given_tool_is_a_400(
    client: OpenAI, tool_choice: object, tools: list | None, needle: str
) -> None:
    request: dict = {"model": MODEL, "messages": [user_message("hi")], "max_tokens": 1}
    if tools is not None:
        request["tools"] = tools
    with pytest.raises(openai.BadRequestError) as raised:
        client.chat.completions.create(**request, tool_choice=tool_choice)
    assert raised.value.type == "invalid_request_error"
    assert raised.value.param == "tool_choice"
    assert needle in str(raised.value)


@pytest.mark.parametrize(
    "tool_choice",
    ["none", "auto", "required", {"type": "function", "function": {"name": "mobile_use"}}],
)
def test_a_tool_choice_among_the_tools_is_served(client: OpenAI, tool_choice: object) -> None:
    completion = client.chat.completions.create(
        model=MODEL,
        messages=[user_message("hi")],
        tools=[mobile_use_tool()],  # type: ignore[list-item]
        tool_choice=tool_choice,  # type: ignore[arg-type]
        max_tokens=1,
    )
    assert completion.choices[0].finish_reason == "length"


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "needle"),
    [
        ("GET", "/v1/chat/completions", None, 405, "GET /v1/chat/completions"),
        ("POST", "/v1/no-such-route", b"{}", 404, "POST /v1/no-such-route"),
        ("POST", "/v1/chat/completions", b'{"model": "phonebuddy-policy", "mess', 400, "JSON"),
        ("POST", "/v1/chat/completions", b"[" * 10_000 + b"]" * 10_000, 400, "nests JSON"),
        ("POST", "/v1/chat/completions", b'{"model": 7}', 400, "messages: Field required"),
        ("POST", "/admin/reload", b'{"model": ""}', 400, "model"),
    ],
)
def test_every_error_is_an_openai_error_body(
    server: str, method: str, path: str, body: bytes | None, status: int, needle: str
) -> None:
    headers = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
    if path.startswith("/admin"):
        headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
    response = httpx.request(method, f"{server}{path}", headers=headers, content=body)
    assert response.status_code == status
    assert list(response.json()) == ["error"]
    error = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["type"] == ("not_found_error" if status == 404 else "invalid_request_error")
    assert needle in error["message"]
    if status == 405:
        assert response.headers["allow"] == "POST"


def test_api_key_is_required(server: str) -> None:
    client = OpenAI(base_url=f"{server}/v1", api_key="wrong", max_retries=0)
    with pytest.raises(openai.AuthenticationError):
        client.models.list()
    assert httpx.get(f"{server}/v1/models").status_code == 401


def test_health_and_metrics(server: str, client: OpenAI) -> None:
    assert httpx.get(f"{server}/livez").status_code == 200
    ready = httpx.get(f"{server}/readyz")
    assert ready.status_code == 200
    assert ready.json()["checks"] == {"model": True}
    client.chat.completions.create(model=MODEL, messages=[user_message("hi")], max_tokens=2)
    metrics = httpx.get(f"{server}/metrics").text
    for name in (
        'phonebuddy_policy_requests_total{code="200"}',
        "phonebuddy_policy_completion_tokens_total",
        "phonebuddy_policy_prompt_tokens_total",
        "phonebuddy_policy_request_latency_seconds_bucket",
        "phonebuddy_policy_queue_depth",
        'phonebuddy_policy_model_info{version="tiny-seed0@',
    ):
        assert name in metrics
    # vLLM's names for the same series (dashboards chart either backend).
    samples = {
        line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
        for line in metrics.splitlines()
        if line.startswith("vllm:")
    }
    model = f'model_name="{MODEL}"'
    assert samples[f"vllm:generation_tokens_total{{{model}}}"] >= 1
    assert samples[f"vllm:prompt_tokens_total{{{model}}}"] >= 5
    assert samples[f'vllm:request_success_total{{finished_reason="length",{model}}}'] >= 1
    assert samples[f"vllm:e2e_request_latency_seconds_count{{{model}}}"] >= 1
    assert samples[f"vllm:num_requests_running{{{model}}}"] == 0  # nothing in flight now
    assert samples[f"vllm:num_requests_waiting{{{model}}}"] == 0
