"""An async OpenAI-compatible chat client for the judge's two models, with the limits an LLM API
needs and structured (JSON) answers.

- `Limits`: what every call of the process shares — at most `max_concurrency` calls at once (a
  semaphore) and at most `requests_per_minute` started per minute (a token bucket, `TokenBucket`,
  whose clock and sleep are injectable).
- `RetryPolicy`: a timeout per call, and retries with exponential backoff (honouring a
  `Retry-After` header up to the cap) after timeouts, connection failures, 429, 5xx and answers
  that are unusable (not a chat completion, no content, no JSON object, a JSON object that does
  not validate). Other 4xx answers (bad request, wrong key, unknown model) are not retried.
- `ChatClient.structured(messages, parse)`: asks for JSON (`response_format={"type":
  "json_object"}`, the schema stated in the prompt by the caller), pulls the JSON object out of the
  answer (code fences, prose and `<think>` blocks around it are tolerated), hands it to `parse`
  (which validates, e.g. with pydantic) and returns the value with every raw answer and call; an
  answer that never validates raises `JudgeError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import httpx
from pydantic import SecretStr

from phonebuddy.judge.errors import JudgeError

log = logging.getLogger(__name__)
T = TypeVar("T")
Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
CallObserver = Callable[[str, str, float], None]
"""Called after every call with (role, outcome, seconds)."""

_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)```", re.DOTALL)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


class TokenBucket:
    """A requests-per-minute limit: `capacity` tokens, refilled at `per_minute / 60` per second.

    `reserve()` takes a token now and returns how long the caller must wait before using it
    (0 when one was there); tokens may go into debt, so concurrent callers queue up in order
    instead of racing. A limit of 0 (or less) means no limit.
    """

    def __init__(
        self, per_minute: float, *, capacity: float = 1.0, clock: Clock = time.monotonic
    ) -> None:
        if capacity < 1:
            raise ValueError(f"a token bucket needs a capacity of at least 1, got {capacity}")
        self.rate_per_s = per_minute / 60.0
        self.capacity = float(capacity)
        self._clock = clock
        self._tokens = self.capacity
        self._updated = clock()

    @property
    def unlimited(self) -> bool:
        return self.rate_per_s <= 0

    def reserve(self) -> float:
        if self.unlimited:
            return 0.0
        now = self._clock()
        elapsed = max(0.0, now - self._updated)
        self._tokens = min(self.capacity, self._tokens + elapsed * self.rate_per_s)
        self._updated = now
        self._tokens -= 1.0
        if self._tokens >= 0:
            return 0.0
        return -self._tokens / self.rate_per_s

    async def acquire(self, sleep: Sleep = asyncio.sleep) -> float:
        """Wait for a token; returns the seconds waited."""
        wait = self.reserve()
        if wait > 0:
            await sleep(wait)
        return wait


class Limits:
    """The concurrency and rate limits shared by every call of one process (both roles)."""

    def __init__(
        self,
        *,
        max_concurrency: int,
        requests_per_minute: float,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        if max_concurrency < 1:
            raise ValueError(f"max_concurrency must be at least 1, got {max_concurrency}")
        self.max_concurrency = max_concurrency
        # A burst of up to one call per slot; beyond that, calls are spread over the minute.
        self.bucket = TokenBucket(requests_per_minute, capacity=max_concurrency, clock=clock)
        self._slots = asyncio.Semaphore(max_concurrency)
        self._sleep = sleep

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        async with self._slots:
            await self.bucket.acquire(self._sleep)
            yield


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    timeout_s: float = 120.0
    max_retries: int = 3
    backoff_s: float = 1.0
    backoff_max_s: float = 30.0

    @property
    def attempts(self) -> int:
        return self.max_retries + 1

    def delay(self, retry: int, retry_after: float | None = None) -> float:
        """The pause before retry number `retry` (1 for the first): backoff_s * 2^(retry-1),
        at least the server's Retry-After, never more than backoff_max_s."""
        delay: float = self.backoff_s * 2.0 ** (retry - 1)
        if retry_after is not None:
            delay = max(delay, retry_after)
        return min(delay, self.backoff_max_s)


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where one role's model is: the API root (…/v1), the model name, an optional key."""

    base_url: str
    model: str
    api_key: SecretStr | None = None

    @property
    def chat_url(self) -> str:
        return self.base_url.rstrip("/") + "/chat/completions"


@dataclass(frozen=True, slots=True)
class Structured(Generic[T]):
    """A validated answer, with every raw answer and call it took to get it."""

    value: T
    raw_answers: list[str]
    attempts: list[dict[str, Any]]
    latency_s: float


class CallFailedError(Exception):
    """One call gave nothing usable. `outcome` is a short metric label."""

    def __init__(
        self,
        outcome: str,
        reason: str,
        *,
        retryable: bool,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.outcome = outcome
        self.reason = reason
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after
        super().__init__(reason)


def extract_json_object(text: str) -> dict[str, Any]:
    """The first JSON object in a model's answer: the whole answer, the inside of a code fence,
    or an object embedded in prose; `<think>` blocks are skipped. ValueError if there is none."""
    cleaned = _THINK.sub("", text).strip()
    candidates = [match.group(1).strip() for match in _FENCE.finditer(cleaned)] + [cleaned]
    decoder = json.JSONDecoder()
    for candidate in candidates:
        with contextlib.suppress(ValueError):
            value = json.loads(candidate)
            if isinstance(value, dict):
                return value
        for start, char in enumerate(candidate):
            if char != "{":
                continue
            try:
                value, _ = decoder.raw_decode(candidate, start)
            except ValueError:
                continue
            if isinstance(value, dict):
                return value
    raise ValueError(f"no JSON object in the answer {_excerpt(text)}")


def _excerpt(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[:limit] + "...")


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None  # an HTTP date: fall back to our own backoff
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def _error_text(response: httpx.Response) -> str:
    try:
        message = response.json()["error"]["message"]
    except (ValueError, KeyError, TypeError):
        message = response.text
    return " ".join(str(message).split())[:300]


def completion_text(payload: Any) -> str:
    """The assistant's text in a chat-completion body; CallFailedError if there is none."""
    try:
        message = payload["choices"][0]["message"]
    except (KeyError, IndexError, TypeError) as exc:
        raise CallFailedError(
            "not_a_completion", "the answer is not a chat completion (no choices[0].message)",
            retryable=True,
        ) from exc  # fmt: skip
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list):  # content parts, as some servers answer
        content = "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    if not isinstance(content, str) or not content.strip():
        raise CallFailedError("no_content", "the answer has no text content", retryable=True)
    return content


class ChatClient:
    """Calls one role's model. `http` is shared and owned by the caller."""

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        role: str,
        http: httpx.AsyncClient,
        limits: Limits,
        retry: RetryPolicy,
        json_mode: bool = True,
        temperature: float = 0.0,
        max_tokens: int = 1024,
        sleep: Sleep = asyncio.sleep,
        observer: CallObserver | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.role = role
        self.http = http
        self.limits = limits
        self.retry = retry
        self.json_mode = json_mode
        self.temperature = temperature
        self.max_tokens = max_tokens
        self._sleep = sleep
        self._observer = observer

    @property
    def model(self) -> str:
        return self.endpoint.model

    def request_body(
        self, messages: Sequence[dict[str, Any]], metadata: dict[str, str] | None = None
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.endpoint.model,
            "messages": list(messages),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }
        if self.json_mode:
            body["response_format"] = {"type": "json_object"}
        if metadata:
            body["metadata"] = metadata
        return body

    async def structured(
        self,
        messages: Sequence[dict[str, Any]],
        parse: Callable[[dict[str, Any]], T],
        *,
        metadata: dict[str, str] | None = None,
    ) -> Structured[T]:
        """Ask until an answer parses (ValueError, including pydantic's ValidationError, means
        unusable) or the retries are spent (`JudgeError` with every attempt and raw answer);
        `metadata` goes with the request as OpenAI's `metadata` field."""
        body = self.request_body(messages, metadata)
        raw_answers: list[str] = []
        attempts: list[dict[str, Any]] = []
        started = time.perf_counter()
        for attempt in range(1, self.retry.attempts + 1):
            began = time.perf_counter()
            try:
                async with self.limits.slot():
                    began = time.perf_counter()  # the call's own time, not the wait for a slot
                    text = await self._send(body)
                raw_answers.append(text)
                value = _parsed(parse, text)
            except CallFailedError as failure:
                self._note(attempts, attempt, time.perf_counter() - began, failure)
                log.info(
                    "%s call %d/%d to %s failed: %s",
                    self.role, attempt, self.retry.attempts, self.endpoint.model, failure.reason,
                )  # fmt: skip
                if not failure.retryable or attempt == self.retry.attempts:
                    raise JudgeError(
                        self.role, failure.reason, attempts=attempts, raw_answers=raw_answers
                    ) from failure
                await self._sleep(self.retry.delay(attempt, failure.retry_after))
                continue
            self._note(attempts, attempt, time.perf_counter() - began, None)
            return Structured(
                value=value,
                raw_answers=raw_answers,
                attempts=attempts,
                latency_s=time.perf_counter() - started,
            )
        raise AssertionError("unreachable: the last attempt returns or raises")  # pragma: no cover

    def _note(
        self,
        attempts: list[dict[str, Any]],
        attempt: int,
        latency: float,
        failure: CallFailedError | None,
    ) -> None:
        outcome = "ok" if failure is None else failure.outcome
        attempts.append(
            {
                "attempt": attempt,
                "outcome": outcome,
                "status": None if failure is None else failure.status,
                "latency_s": round(latency, 4),
                "error": None if failure is None else failure.reason,
            }
        )
        if self._observer is not None:
            self._observer(self.role, outcome, latency)

    async def _send(self, body: dict[str, Any]) -> str:
        headers = {}
        if self.endpoint.api_key is not None:
            headers["Authorization"] = f"Bearer {self.endpoint.api_key.get_secret_value()}"
        url = self.endpoint.chat_url
        timeout_s = self.retry.timeout_s
        try:
            async with asyncio.timeout(timeout_s):
                response = await self.http.post(url, json=body, headers=headers, timeout=timeout_s)
        except (TimeoutError, httpx.TimeoutException) as exc:
            raise CallFailedError(
                "timeout", f"no answer from {url} within {timeout_s:g} s", retryable=True
            ) from exc
        except httpx.HTTPError as exc:
            raise CallFailedError(
                "connect_error", f"cannot reach {url}: {exc!r}", retryable=True
            ) from exc
        status = response.status_code
        if status != 200:
            text = _error_text(response)
            if status == 429:
                raise CallFailedError(
                    "rate_limited", f"{url} answered 429 (rate limited): {text}",
                    retryable=True, status=status, retry_after=_retry_after(response),
                )  # fmt: skip
            if status >= 500:
                raise CallFailedError(
                    "server_error", f"{url} answered {status}: {text}",
                    retryable=True, status=status, retry_after=_retry_after(response),
                )  # fmt: skip
            raise CallFailedError(
                "client_error", f"{url} refused the request with {status}: {text}",
                retryable=False, status=status,
            )  # fmt: skip
        try:
            payload = response.json()
        except ValueError as exc:
            raise CallFailedError(
                "not_a_completion",
                f"the answer is not JSON: {_excerpt(response.text)}",
                retryable=True,
                status=status,
            ) from exc
        return completion_text(payload)


def _parsed(parse: Callable[[dict[str, Any]], T], text: str) -> T:
    """`parse` of the answer's JSON object; CallFailedError("invalid_answer") if unusable
    (ValueError, pydantic's ValidationError included)."""
    try:
        return parse(extract_json_object(text))
    except ValueError as exc:
        reason = " ".join(str(exc).split())[:400]
        raise CallFailedError(
            "invalid_answer", f"unusable answer: {reason}", retryable=True
        ) from exc
