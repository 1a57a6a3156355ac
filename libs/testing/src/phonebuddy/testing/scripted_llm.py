"""`ScriptedLLM`: a real OpenAI-compatible chat-completions server whose answers come from a
script — the test double at the LLM boundary (no real judge or teacher model runs in tests).

It is a FastAPI app served by uvicorn on a free loopback port and speaks the wire format the
official `openai` client expects: `POST /v1/chat/completions` answers a `chat.completion` object
(or an OpenAI-style `{"error": {...}}` body with an HTTP error status), `GET /v1/models` lists
models. What each request gets is decided by the *script*, a callable that takes the request body
(a dict) and returns a `ScriptedReply` (or a plain string, shorthand for a text answer); it may be
`async`. A reply can be:

- text content: `ScriptedReply.text("...")`, or `ScriptedReply.json_object({...})` for JSON text;
- an HTTP error: `ScriptedReply.error(429, "slow down", headers={"Retry-After": "1"})`;
- a body that is not a chat completion: `ScriptedReply.raw("{not json")`;
- any of these late: `delay_s=...` (a slow answer; waiting ends early when the server closes).

Every request that reaches `/v1/chat/completions` is recorded (`requests`, with helpers for
its text and images), and the server counts the requests in flight at once (`in_flight`,
`max_in_flight`; a script can hold its answer with `await llm.wait_for_in_flight(n)`), so tests
can assert what a client sent and how many calls it overlapped::

    async with ScriptedLLM(lambda body: ScriptedReply.json_object({"ok": True})) as llm:
        client = openai.AsyncOpenAI(base_url=llm.base_url, api_key="unused")
        ...
        assert llm.requests[0].image_urls() == [...]

Use `async with` inside a test's event loop, or plain `with` to serve from a background thread
(for synchronous code such as a typer `CliRunner` that runs its own event loop). With
`api_key=...` a request without `Authorization: Bearer <key>` gets 401 (and is still recorded).
A script that raises is a bug in the test: the client gets a 500, the exception is kept in
`script_errors`, and leaving the block raises `ScriptError` (unless `strict=False`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import inspect
import itertools
import json
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

from phonebuddy.testing.asgi import serve_asgi, serve_asgi_in_thread

DEFAULT_MODEL = "scripted"
_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "invalid_request_error",
    403: "permission_denied_error",
    404: "not_found_error",
    429: "rate_limit_error",
}


@dataclass(frozen=True, slots=True)
class ScriptedReply:
    """What the server answers to one request. Build one with the class methods."""

    content: str | None = None
    status: int = 200
    body: bytes | None = field(default=None, repr=False)
    media_type: str = "application/json"
    headers: Mapping[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    finish_reason: str = "stop"

    def __post_init__(self) -> None:
        if self.delay_s < 0:
            raise ValueError(f"delay_s must not be negative, got {self.delay_s}")
        if self.status == 200 and self.body is None and self.content is None:
            raise ValueError("a successful ScriptedReply needs content (or a raw body)")

    @classmethod
    def text(cls, content: str, *, delay_s: float = 0.0, finish_reason: str = "stop") -> Self:
        """A chat completion whose assistant message says `content`."""
        return cls(content=content, delay_s=delay_s, finish_reason=finish_reason)

    @classmethod
    def json_object(cls, value: Any, *, delay_s: float = 0.0, fenced: bool = False) -> Self:
        """A chat completion whose content is `value` as JSON text (in a ```json fence if
        `fenced`, as chatty models write it)."""
        text = json.dumps(value, ensure_ascii=False)
        return cls(content=f"```json\n{text}\n```" if fenced else text, delay_s=delay_s)

    @classmethod
    def error(
        cls,
        status: int,
        message: str | None = None,
        *,
        error_type: str | None = None,
        code: str | None = None,
        headers: Mapping[str, str] | None = None,
        delay_s: float = 0.0,
    ) -> Self:
        """An HTTP error with an OpenAI-style body `{"error": {"message", "type", "code"}}`."""
        if status < 400:
            raise ValueError(f"an error reply needs a status of 400 or more, got {status}")
        kind = error_type or _ERROR_TYPES.get(status, "server_error")
        body = {"error": {"message": message or f"scripted {status}", "type": kind, "code": code}}
        return cls(
            status=status,
            body=json.dumps(body).encode(),
            headers=dict(headers or {}),
            delay_s=delay_s,
        )

    @classmethod
    def raw(
        cls,
        body: str | bytes,
        *,
        status: int = 200,
        media_type: str = "application/json",
        delay_s: float = 0.0,
    ) -> Self:
        """Exactly `body` as the response (broken JSON, an HTML error page, ...)."""
        data = body.encode() if isinstance(body, str) else body
        return cls(status=status, body=data, media_type=media_type, delay_s=delay_s)

    def after(self, delay_s: float) -> ScriptedReply:
        """The same reply, sent `delay_s` seconds after the request arrives."""
        return dataclasses.replace(self, delay_s=delay_s)


ScriptResult = ScriptedReply | str
Script = Callable[[dict[str, Any]], ScriptResult | Awaitable[ScriptResult]]
"""Decides each answer from the request body; may be async; a str is a text answer."""


class ScriptError(AssertionError):
    """The script raised while answering; the test's script (not the client) is wrong."""

    def __init__(self, errors: list[BaseException]) -> None:
        self.errors = list(errors)
        first = errors[0]
        super().__init__(
            f"the ScriptedLLM script raised {len(errors)} time(s); first: "
            f"{type(first).__name__}: {first}"
        )


class ScriptExhaustedError(LookupError):
    """An `in_order` script was asked more often than it has replies."""

    def __init__(self, count: int) -> None:
        self.count = count
        super().__init__(f"the script has only {count} replies and was asked for one more")


def in_order(*replies: ScriptResult, then: ScriptResult | None = None) -> Script:
    """A script answering `replies` one after another, then `then` for ever (or, without
    `then`, a `ScriptExhaustedError`)."""
    queue = list(replies)
    lock = threading.Lock()

    def script(body: dict[str, Any]) -> ScriptResult:
        with lock:
            if queue:
                return queue.pop(0)
        if then is None:
            raise ScriptExhaustedError(len(replies))
        return then

    return script


def always(reply: ScriptResult) -> Script:
    """A script answering `reply` to every request."""
    return lambda body: reply


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request as the server received it. `body` is the decoded JSON (None if the body was
    not JSON); `headers` have lower-case names."""

    path: str
    headers: Mapping[str, str]
    body: Any
    received_at: float

    @property
    def model(self) -> str | None:
        return self.body.get("model") if isinstance(self.body, dict) else None

    @property
    def messages(self) -> list[dict[str, Any]]:
        messages = self.body.get("messages") if isinstance(self.body, dict) else None
        return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []

    def _parts(self) -> Iterable[dict[str, Any]]:
        for message in self.messages:
            content = message.get("content")
            if isinstance(content, str):
                yield {"type": "text", "text": content}
            elif isinstance(content, list):
                yield from (part for part in content if isinstance(part, dict))

    def text(self) -> str:
        """Every text part of every message, joined by newlines."""
        return "\n".join(
            str(part.get("text", "")) for part in self._parts() if part.get("type") == "text"
        )

    def image_urls(self) -> list[str]:
        """The `image_url` URLs of every message, in order (data URIs stay as they came)."""
        urls = []
        for part in self._parts():
            image = part.get("image_url") if part.get("type") == "image_url" else None
            if isinstance(image, dict) and isinstance(image.get("url"), str):
                urls.append(image["url"])
        return urls


class ScriptedLLM:
    """An OpenAI-compatible server answering from `script`; see the module docstring."""

    def __init__(
        self,
        script: Script,
        *,
        api_key: str | None = None,
        models: Iterable[str] | None = None,
        host: str = "127.0.0.1",
        port: int | None = None,
        strict: bool = True,
    ) -> None:
        self.script = script
        self.api_key = api_key
        self.models = tuple(models) if models is not None else None
        self.host = host
        self.port = port
        self.strict = strict
        self.requests: list[RecordedRequest] = []
        self.script_errors: list[BaseException] = []
        self._lock = threading.Lock()
        self._in_flight = 0
        self._max_in_flight = 0
        self._ids = itertools.count(1)
        self._url: str | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing: asyncio.Event | None = None
        self._in_flight_changed: asyncio.Condition | None = None
        self._sync_exit: contextlib.ExitStack | None = None
        self._async_exit: contextlib.AsyncExitStack | None = None
        self.app = self._build_app()

    # -- what tests read ---------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The server root, e.g. http://127.0.0.1:23456."""
        if self._url is None:
            raise RuntimeError("the ScriptedLLM is not serving; use `async with` or `with`")
        return self._url

    @property
    def base_url(self) -> str:
        """The API root an OpenAI client takes: `<url>/v1`."""
        return f"{self.url}/v1"

    @property
    def in_flight(self) -> int:
        """Chat requests being answered right now (delays included)."""
        with self._lock:
            return self._in_flight

    @property
    def max_in_flight(self) -> int:
        """The most chat requests that were being answered at the same moment."""
        with self._lock:
            return self._max_in_flight

    async def wait_for_in_flight(self, count: int) -> None:
        """Wait until `count` chat requests have been in flight at once (`max_in_flight`).
        Call it from a script, which runs on the server's event loop: holding answers until
        then makes a concurrency test independent of timing."""
        changed = self._in_flight_changed
        if changed is None:
            raise RuntimeError("wait_for_in_flight runs inside a script, while serving")
        async with changed:
            await changed.wait_for(lambda: self.max_in_flight >= count)

    def requests_for(self, model: str) -> list[RecordedRequest]:
        """The recorded chat requests that asked for `model`."""
        with self._lock:
            return [request for request in self.requests if request.model == model]

    # -- serving -----------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        stack = contextlib.AsyncExitStack()
        self._url = await stack.enter_async_context(
            serve_asgi(self.app, host=self.host, port=self.port)
        )
        self._async_exit = stack
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._wake_sleepers()
        stack, self._async_exit = self._async_exit, None
        if stack is not None:
            await stack.aclose()
        self._raise_script_errors(exc)

    def __enter__(self) -> Self:
        stack = contextlib.ExitStack()
        self._url = stack.enter_context(
            serve_asgi_in_thread(self.app, host=self.host, port=self.port)
        )
        self._sync_exit = stack
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._wake_sleepers()
        stack, self._sync_exit = self._sync_exit, None
        if stack is not None:
            stack.close()
        self._raise_script_errors(exc)

    def _wake_sleepers(self) -> None:
        """End every scripted delay now, so the server can stop without waiting them out."""
        if self._loop is not None and self._closing is not None and not self._loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop stopped meanwhile
                self._loop.call_soon_threadsafe(self._closing.set)

    def _raise_script_errors(self, exc: BaseException | None) -> None:
        if self.strict and self.script_errors and exc is None:
            raise ScriptError(self.script_errors)

    # -- the app -----------------------------------------------------------------------------

    def _build_app(self) -> FastAPI:
        @contextlib.asynccontextmanager
        async def lifespan(app: FastAPI) -> AsyncIterator[None]:
            self._loop = asyncio.get_running_loop()
            self._closing = asyncio.Event()
            self._in_flight_changed = asyncio.Condition()
            yield

        app = FastAPI(title="ScriptedLLM", lifespan=lifespan)

        @app.post("/v1/chat/completions")
        async def chat_completions(request: Request) -> Response:
            return await self._chat(request)

        @app.get("/v1/models")
        async def list_models(request: Request) -> Response:
            if not self._authorized(request):
                return _unauthorized()
            names = self.models or (DEFAULT_MODEL,)
            return JSONResponse(
                {
                    "object": "list",
                    "data": [
                        {"id": name, "object": "model", "created": 0, "owned_by": "scripted"}
                        for name in names
                    ],
                }
            )

        return app

    def _authorized(self, request: Request) -> bool:
        if self.api_key is None:
            return True
        return request.headers.get("authorization") == f"Bearer {self.api_key}"

    async def _chat(self, request: Request) -> Response:
        raw = await request.body()
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = None
        recorded = RecordedRequest(
            path=request.url.path,
            headers={name.lower(): value for name, value in request.headers.items()},
            body=body,
            received_at=time.monotonic(),
        )
        with self._lock:
            self.requests.append(recorded)
            self._in_flight += 1
            self._max_in_flight = max(self._max_in_flight, self._in_flight)
        if self._in_flight_changed is not None:
            async with self._in_flight_changed:
                self._in_flight_changed.notify_all()
        try:
            return await self._answer(request, body)
        finally:
            with self._lock:
                self._in_flight -= 1

    async def _answer(self, request: Request, body: Any) -> Response:
        if not self._authorized(request):
            return _unauthorized()
        problem = _request_problem(body)
        if problem is not None:
            return _error_response(400, problem, "invalid_request_error")
        if self.models is not None and body["model"] not in self.models:
            return _error_response(
                404,
                f"The model `{body['model']}` does not exist",
                "not_found_error",
                code="model_not_found",
            )
        try:
            result = self.script(body)
            if inspect.isawaitable(result):
                result = await result
            reply = ScriptedReply.text(result) if isinstance(result, str) else result
            if not isinstance(reply, ScriptedReply):
                raise TypeError(f"the script returned {type(reply).__name__}, not a reply")
        except Exception as exc:  # a broken script: answer 500, raise on exit
            with self._lock:
                self.script_errors.append(exc)
            return _error_response(
                500, f"the script raised {type(exc).__name__}: {exc}", "server_error"
            )
        if reply.delay_s > 0:
            await self._sleep(reply.delay_s)
        if reply.body is not None:
            return Response(
                reply.body,
                status_code=reply.status,
                media_type=reply.media_type,
                headers=dict(reply.headers),
            )
        return JSONResponse(self._completion(body, reply), headers=dict(reply.headers))

    async def _sleep(self, delay_s: float) -> None:
        closing = self._closing
        if closing is None:
            await asyncio.sleep(delay_s)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(closing.wait(), delay_s)

    def _completion(self, body: dict[str, Any], reply: ScriptedReply) -> dict[str, Any]:
        content = reply.content or ""
        prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in body["messages"])
        completion_tokens = len(content.split())
        return {
            "id": f"chatcmpl-scripted-{next(self._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": reply.finish_reason,
                    "logprobs": None,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
            "system_fingerprint": "scripted",
        }


def _request_problem(body: Any) -> str | None:
    """Why a chat request is unusable, as an OpenAI server would say it; None if usable."""
    if not isinstance(body, dict):
        return "the request body must be a JSON object"
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "you must provide a model parameter"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "'messages' must be a non-empty array"
    if any(not isinstance(m, dict) or "role" not in m for m in messages):
        return "every message needs a 'role'"
    if body.get("stream"):
        return "the ScriptedLLM does not stream; send stream=false"
    if body.get("n", 1) != 1:
        return "the ScriptedLLM answers n=1 only"
    return None


def _error_response(
    status: int, message: str, error_type: str, *, code: str | None = None
) -> JSONResponse:
    return JSONResponse(
        {"error": {"message": message, "type": error_type, "param": None, "code": code}},
        status_code=status,
    )


def _unauthorized() -> JSONResponse:
    return _error_response(
        401, "Incorrect API key provided", "invalid_request_error", code="invalid_api_key"
    )
