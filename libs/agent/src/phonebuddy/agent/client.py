"""Calling a policy over the OpenAI chat-completions API (our server, vLLM, any compatible one).

`PolicyClient.act(prompt, frames, sampling)` sends the harness's prompt with the screenshots as
`data:` URIs, and turns each returned choice back into the text the model wrote (reasoning,
content and tool calls in Qwen's format) and then into a `ParsedOutput` with the same parser
training and evaluation use. A bad answer is an `InvalidOutput`; a failed call raises
`PolicyCallError`, whose `retryable` says whether trying again can help (timeouts, 5xx, 429).

By default each call also asks for the tokens (`logprobs` and vLLM's `return_token_ids`, which
our server and vLLM both answer): every answer then carries the ids it was sampled as, their
log-probabilities and the prompt's digest (`SampledTokens`), which rollouts store with the step
so that RL trains on exactly what was sampled. They cost a few hundred bytes per answer.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self

import httpx
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from phonebuddy.agent.chat_format import IM_END, render_completion
from phonebuddy.agent.parsing import ParsedOutput, parse_output
from phonebuddy.agent.prompt import ROLLOUT_ENABLE_THINKING, Prompt
from phonebuddy.protocol import FrameRef, TaskSpec, task_metadata
from phonebuddy.protocol.episodes import SampledTokens, token_ids_sha256

VERSION_HEADER = "x-phonebuddy-model-version"
# The step index, sent with the task's metadata (protocol.task_metadata) only to a scripted
# teacher: it plays the task's oracle, which PhoneWorld derives from the template, seed and
# language. A model endpoint gets nothing about the task beyond the prompt.
STEP_KEY = "phonebuddy_step"


class PolicyEndpoint(BaseModel):
    """Where the policy is and how to call it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_url: str = Field(description="the API root, e.g. http://127.0.0.1:8093/v1")
    model: str = "phonebuddy-policy"
    api_key: SecretStr | None = None
    timeout_s: float = Field(default=120.0, gt=0)
    teacher: bool = Field(
        default=False,
        description="a scripted teacher: requests name the task (template, seed, language) and "
        "the step in their metadata; never set for a model",
    )


def teacher_metadata(task: TaskSpec, step: int) -> dict[str, str]:
    """What identifies a task and step to the teacher: nothing of its parameters or answers."""
    return {**task_metadata(task), STEP_KEY: str(step)}


class Sampling(BaseModel):
    """Sampling parameters of one policy call."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    temperature: float = Field(default=1.0, ge=0, le=2)
    top_p: float = Field(default=1.0, gt=0, le=1)
    max_tokens: int = Field(default=256, ge=1)
    seed: int | None = None
    n: int = Field(default=1, ge=1)
    logprobs: bool = False
    tokens: bool = Field(
        default=True,
        description="ask for the sampled token ids, their logprobs and the prompt's ids "
        "(answers carry them as `SampledTokens`); implies logprobs",
    )
    enable_thinking: bool | None = Field(
        default=ROLLOUT_ENABLE_THINKING,
        description="False opens the answer with an empty think block",
    )


@dataclass(frozen=True, slots=True)
class PolicyAnswer:
    """One sampled answer: the model's text, what it means, and where it came from."""

    raw: str
    parsed: ParsedOutput
    model_version: str | None
    finish_reason: str | None
    token_logprobs: tuple[float, ...] | None
    tokens: SampledTokens | None = None  # when asked for and the server returned them


@dataclass(frozen=True, slots=True)
class PolicyReply:
    answers: tuple[PolicyAnswer, ...]
    model_version: str | None
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_s: float


class PolicyCallError(Exception):
    def __init__(self, message: str, *, status: int | None = None, retryable: bool) -> None:
        super().__init__(message)
        self.status = status
        self.retryable = retryable


def data_uri(data: bytes, media_type: str) -> str:
    return f"data:{media_type};base64,{base64.b64encode(data).decode('ascii')}"


def message_text(message: Mapping[str, Any]) -> str:
    """The text a model generated for an OpenAI assistant message: the reverse of what a
    server's tool-call and reasoning parsers split apart, in the chat template's own format."""
    plain: dict[str, Any] = {"role": "assistant", "content": message.get("content") or ""}
    if message.get("tool_calls"):
        plain["tool_calls"] = message["tool_calls"]
    if message.get("reasoning_content") is not None:
        plain["reasoning_content"] = message["reasoning_content"]
    return render_completion(plain).removesuffix(f"{IM_END}\n")


class PolicyClient:
    """An async client for one endpoint; use as `async with PolicyClient(endpoint) as policy:`."""

    def __init__(self, endpoint: PolicyEndpoint, *, http: httpx.AsyncClient | None = None) -> None:
        self.endpoint = endpoint
        self._own_http = http is None
        self._http = http or httpx.AsyncClient()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def close(self) -> None:
        if self._own_http:
            await self._http.aclose()

    def request_body(
        self,
        prompt: Prompt,
        frames: Mapping[str, bytes],
        sampling: Sampling,
        *,
        task: TaskSpec | None = None,
        step: int | None = None,
    ) -> dict[str, Any]:
        """The chat-completions body; `frames` maps each screenshot's sha256 to its bytes."""

        def image_url(ref: FrameRef) -> str:
            data = frames.get(ref.sha256)
            if data is None:
                raise KeyError(f"no bytes for frame {ref.sha256[:12]} of the prompt")
            return data_uri(data, ref.media_type)

        body: dict[str, Any] = {
            "model": self.endpoint.model,
            **prompt.to_openai(image_url),
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
            "max_tokens": sampling.max_tokens,
            "n": sampling.n,
        }
        if sampling.seed is not None:
            body["seed"] = sampling.seed
        if sampling.logprobs or sampling.tokens:
            body["logprobs"] = True
        if sampling.tokens:
            body["return_token_ids"] = True
        if sampling.enable_thinking is not None:
            body["chat_template_kwargs"] = {"enable_thinking": sampling.enable_thinking}
        if task is not None and self.endpoint.teacher:
            body["metadata"] = teacher_metadata(task, step or 0)
        return body

    async def act(
        self,
        prompt: Prompt,
        frames: Mapping[str, bytes],
        sampling: Sampling | None = None,
        *,
        task: TaskSpec | None = None,
        step: int | None = None,
    ) -> PolicyReply:
        """One policy call. For a teacher endpoint, `task` and `step` are named in the
        request's metadata (template id, seed, language and step only); any other endpoint
        gets nothing about the task beyond the prompt."""
        sampling = sampling or Sampling()
        body = self.request_body(prompt, frames, sampling, task=task, step=step)
        headers = {}
        if self.endpoint.api_key is not None:
            headers["Authorization"] = f"Bearer {self.endpoint.api_key.get_secret_value()}"
        url = self.endpoint.base_url.rstrip("/") + "/chat/completions"
        started = time.perf_counter()
        try:
            response = await self._http.post(
                url, json=body, headers=headers, timeout=self.endpoint.timeout_s
            )
        except httpx.TimeoutException as exc:
            raise PolicyCallError(
                f"the policy at {url} gave no answer within {self.endpoint.timeout_s} s",
                retryable=True,
            ) from exc
        except httpx.HTTPError as exc:
            raise PolicyCallError(
                f"cannot reach the policy at {url}: {exc!r}", retryable=True
            ) from exc
        latency = time.perf_counter() - started
        if response.status_code != 200:
            raise PolicyCallError(
                f"the policy answered {response.status_code}: {_error_message(response)}",
                status=response.status_code,
                retryable=response.status_code >= 500 or response.status_code == 429,
            )
        return _reply(response, latency)


def _error_message(response: httpx.Response) -> str:
    try:
        return str(response.json()["error"]["message"])[:500]
    except (ValueError, KeyError, TypeError):
        return response.text[:500]


def _sampled_tokens(
    prompt_ids: list[int] | None, token_ids: list[int] | None, logprobs: tuple[float, ...] | None
) -> SampledTokens | None:
    """The answer's tokens, if the server returned them (a teacher or another server may not).
    A server whose logprobs do not line up with its ids gives unusable tokens: that is a broken
    server, not a step without tokens."""
    if not prompt_ids or not token_ids:
        return None
    try:
        return SampledTokens(
            token_ids=tuple(token_ids),
            logprobs=logprobs,
            prompt_tokens=len(prompt_ids),
            prompt_sha256=token_ids_sha256(prompt_ids),
        )
    except ValidationError as exc:
        raise PolicyCallError(
            f"the policy returned unusable token ids: {exc}", retryable=False
        ) from exc


def _reply(response: httpx.Response, latency: float) -> PolicyReply:
    try:
        payload = response.json()
        choices = sorted(payload["choices"], key=lambda choice: choice.get("index", 0))
    except (ValueError, KeyError, TypeError) as exc:
        raise PolicyCallError(
            f"the policy's answer is not a chat completion: {response.text[:200]!r}",
            retryable=True,
        ) from exc
    version = response.headers.get(VERSION_HEADER) or payload.get("model_version")
    version = version or payload.get("system_fingerprint")
    prompt_ids = payload.get("prompt_token_ids")
    answers = []
    for choice in choices:
        raw = message_text(choice.get("message") or {})
        logprobs = None
        if choice.get("logprobs") and choice["logprobs"].get("content") is not None:
            logprobs = tuple(float(item["logprob"]) for item in choice["logprobs"]["content"])
        answers.append(
            PolicyAnswer(
                raw=raw,
                parsed=parse_output(raw),
                model_version=version,
                finish_reason=choice.get("finish_reason"),
                token_logprobs=logprobs,
                tokens=_sampled_tokens(prompt_ids, choice.get("token_ids"), logprobs),
            )
        )
    usage = payload.get("usage") or {}
    return PolicyReply(
        answers=tuple(answers),
        model_version=version,
        prompt_tokens=usage.get("prompt_tokens"),
        completion_tokens=usage.get("completion_tokens"),
        latency_s=latency,
    )
