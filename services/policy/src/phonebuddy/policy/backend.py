"""What a serving backend does, independent of HTTP: encode a chat request into a prompt, generate
`n` samples for it, and swap in new weights. `app.py` owns validation, images, tool-call parsing
and metrics; a backend owns the model."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from PIL import Image

from phonebuddy.policy.api import ChatCompletionRequest

Finish = Literal["stop", "length"]


@dataclass(frozen=True, slots=True)
class SamplingParams:
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int | None = None
    max_tokens: int = 256
    seed: int | None = None
    logprobs: bool = False
    top_logprobs: int = 0
    stop: tuple[str, ...] = ()

    @property
    def greedy(self) -> bool:
        return self.temperature == 0


@dataclass(frozen=True, slots=True)
class TokenInfo:
    """One generated token with its log-probability under the model (before sampling
    transforms) and, when asked, the most likely alternatives."""

    token: str
    logprob: float
    top: tuple[tuple[str, float], ...] = ()


@dataclass(slots=True)
class Sample:
    """One generated answer. `token_ids` are the tokens as sampled, a sampled end-of-sequence
    token included (vLLM's `token_ids`), and `logprobs` has one entry per token id; `text` is
    decoded from them without the end token. A backend without a tokenizer has no ids (`[]`)."""

    text: str
    token_ids: list[int]
    finish: Finish
    logprobs: list[TokenInfo] | None = None


@dataclass(slots=True)
class Generation:
    samples: list[Sample]
    prompt_tokens: int
    model_version: str
    timings: dict[str, float] = field(default_factory=dict)
    prompt_token_ids: list[int] | None = None  # what the model was fed, images expanded


@dataclass(slots=True)
class EncodedPrompt:
    """A prompt ready for `generate`; `payload` is the backend's own (token ids, pixels...)."""

    prompt_tokens: int
    payload: Any


class Backend(Protocol):
    name: str
    uses_checkpoints: bool  # False: `reload` is never called with weights (the teacher)

    @property
    def loaded(self) -> bool: ...

    @property
    def version(self) -> str: ...

    @property
    def max_model_len(self) -> int: ...

    @property
    def queue_depth(self) -> int: ...

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def encode(
        self, request: ChatCompletionRequest, images: list[Image.Image]
    ) -> EncodedPrompt: ...

    async def generate(
        self, prompt: EncodedPrompt, params: SamplingParams, n: int
    ) -> Generation: ...

    async def reload(self, checkpoint: Path, version: str) -> None: ...
