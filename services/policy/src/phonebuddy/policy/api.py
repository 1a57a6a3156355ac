"""The OpenAI chat-completions wire format: what this server accepts and what it answers.

Requests are validated strictly where a value changes the answer (sampling parameters, `n`,
message roles, image parts) and leniently elsewhere: fields other OpenAI clients send and this
server does not use (`user`, `metadata`, `parallel_tool_calls`...) are accepted and ignored, as
vLLM does.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

MAX_JSON_DEPTH = 64
"""The most levels of objects and arrays a request body nests, the body itself being the first.
A tool schema sits 4 levels down (body, `tools`, the tool, `function`) and this repo's tools
nest 4 more; pydantic stops serializing (for the chat template) at a few hundred levels."""


def _json(value: object) -> str:
    """JSON as chat templates write it (`tojson`)."""
    return json.dumps(value, ensure_ascii=False)


def _invalid(kind: str, message: str) -> PydanticCustomError:
    """A validation error whose message is `message` as written (no "Value error, " prefix)."""
    return PydanticCustomError(kind, "{message}", {"message": message})


_Trail: TypeAlias = tuple[str | int, "_Trail"] | None  # keys from a field down, innermost first


def _too_deep(value: object, *, name: str, level: int) -> str | None:
    """Where `value`, sitting `level` levels down the request body under the field `name`,
    nests an object or array deeper than `MAX_JSON_DEPTH` (as `tools[0].function...`), or None.
    Walked with a stack, not recursion, so any depth the JSON parser let through is measured."""
    stack: list[tuple[object, int, _Trail]] = [(value, level, None)]
    while stack:
        item, depth, trail = stack.pop()
        if not isinstance(item, dict | list):
            continue
        if depth > MAX_JSON_DEPTH:
            keys: list[str | int] = []
            while trail is not None:
                key, trail = trail
                keys.append(key)
            shown = [f"[{key}]" if isinstance(key, int) else f".{key}" for key in reversed(keys)]
            return name + "".join(shown[:8]) + ("..." if len(shown) > 8 else "")
        children = item.items() if isinstance(item, dict) else enumerate(item)
        stack.extend((child, depth + 1, (key, trail)) for key, child in children)
    return None


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)


class ImageURL(_Lenient):
    url: str = Field(min_length=1)
    detail: Literal["auto", "low", "high"] | None = None


class TextContent(_Lenient):
    type: Literal["text"]
    text: str


class ImageContent(_Lenient):
    type: Literal["image_url"]
    image_url: ImageURL


ContentPart = Annotated[TextContent | ImageContent, Field(discriminator="type")]


class FunctionCall(_Lenient):
    name: str
    arguments: str | dict[str, Any]


class ToolCall(_Lenient):
    id: str | None = None
    type: Literal["function"] = "function"
    function: FunctionCall


class Message(_Lenient):
    role: Literal["system", "user", "assistant"]
    content: str | list[ContentPart] | None = None
    tool_calls: list[ToolCall] | None = None
    reasoning_content: str | None = None

    @model_validator(mode="after")
    def _content(self) -> Message:
        if self.content is None and not (self.role == "assistant" and self.tool_calls):
            raise ValueError(f"a {self.role} message needs content")
        if self.role != "assistant" and self.tool_calls:
            raise ValueError("only assistant messages carry tool_calls")
        return self

    def image_urls(self) -> list[str]:
        if not isinstance(self.content, list):
            return []
        return [part.image_url.url for part in self.content if isinstance(part, ImageContent)]

    def text_chars(self) -> int:
        """Characters of text this message puts in the prompt (image URLs are not text)."""
        if isinstance(self.content, str):
            chars = len(self.content)
        else:
            chars = sum(len(p.text) for p in self.content or () if isinstance(p, TextContent))
        chars += len(self.reasoning_content or "")
        for call in self.tool_calls or ():
            arguments = call.function.arguments
            chars += len(call.function.name)
            chars += len(arguments if isinstance(arguments, str) else _json(arguments))
        return chars


class FunctionSpec(_Lenient):
    name: str = Field(min_length=1, max_length=64)
    description: str | None = None
    parameters: dict[str, Any] = Field(default_factory=dict)


class Tool(_Lenient):
    type: Literal["function"]
    function: FunctionSpec


class ToolChoiceFunction(_Lenient):
    name: str


class NamedToolChoice(_Lenient):
    """`{"type": "function", "function": {"name": ...}}`: call this tool."""

    type: Literal["function"]
    function: ToolChoiceFunction


class ChatCompletionRequest(_Lenient):
    model: str
    messages: list[Message] = Field(min_length=1)
    tools: list[Tool] | None = None
    tool_choice: Literal["none", "auto", "required"] | NamedToolChoice | None = None
    temperature: float = Field(default=1.0, ge=0, le=2)
    top_p: float = Field(default=1.0, gt=0, le=1)
    top_k: int | None = Field(default=None, ge=-1, description="vLLM extension; -1/None: off")
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)
    n: int = Field(default=1, ge=1)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    logprobs: bool = Field(
        default=False,
        description="per generated token, its log-probability under the raw model (before "
        "temperature, top-k and top-p), as vLLM's default logprobs mode",
    )
    top_logprobs: int | None = Field(default=None, ge=0, le=20)
    return_token_ids: bool | None = Field(
        default=None,
        description="vLLM extension: the response carries the prompt's token ids "
        "(`prompt_token_ids`) and each choice's generated ones (`choices[i].token_ids`)",
    )
    stop: str | list[str] | None = None
    stream: bool = False
    chat_template_kwargs: dict[str, Any] | None = None

    @field_validator("*", mode="before")
    @classmethod
    def _bounded_depth(cls, value: object, info: ValidationInfo) -> object:
        # Free-form JSON (tool schemas, call arguments, template kwargs) is fed to the chat
        # template; its depth is bounded before anything walks it recursively.
        where = _too_deep(value, name=info.field_name or "body", level=2)
        if where is not None:
            raise _invalid(
                "json_too_deep",
                f"JSON nested more than {MAX_JSON_DEPTH} levels deep (at {where}); this server "
                f"takes at most {MAX_JSON_DEPTH} levels of objects and arrays",
            )
        return value

    @field_validator("tool_choice")
    @classmethod
    def _tool_choice_among_tools(
        cls, value: str | NamedToolChoice | None, info: ValidationInfo
    ) -> str | NamedToolChoice | None:
        if "tools" not in info.data:  # the tools are invalid: that error is the one to read
            return value
        names = [tool.function.name for tool in info.data["tools"] or ()]
        if value == "required" or isinstance(value, NamedToolChoice):
            shown = value if isinstance(value, str) else f"function {value.function.name}"
            if not names:
                raise _invalid(
                    "tool_choice_without_tools",
                    f"{shown!r} needs tools, and the request gives none",
                )
            if isinstance(value, NamedToolChoice) and value.function.name not in names:
                raise _invalid(
                    "tool_choice_unknown",
                    f"the function {value.function.name!r} is not among the tools "
                    f"({', '.join(names)})",
                )
        return value

    @field_validator("stream")
    @classmethod
    def _no_stream(cls, value: bool) -> bool:
        if value:
            raise ValueError("streaming is not supported by this server; send stream=false")
        return value

    @field_validator("stop")
    @classmethod
    def _stops(cls, value: str | list[str] | None) -> str | list[str] | None:
        stops = [value] if isinstance(value, str) else value or []
        if len(stops) > 4 or any(not stop for stop in stops):
            raise ValueError("stop takes up to 4 non-empty strings")
        return value

    @model_validator(mode="after")
    def _logprobs(self) -> ChatCompletionRequest:
        if self.top_logprobs and not self.logprobs:
            raise ValueError("top_logprobs needs logprobs=true")
        return self

    @property
    def stop_strings(self) -> list[str]:
        return [self.stop] if isinstance(self.stop, str) else list(self.stop or [])

    @property
    def tools_enabled(self) -> bool:
        return bool(self.tools) and self.tool_choice != "none"

    def text_chars(self) -> int:
        """Characters of text in the prompt: messages and tool schemas, without image URLs."""
        tools = self.template_tools() or []
        return sum(m.text_chars() for m in self.messages) + sum(len(_json(t)) for t in tools)

    def requested_max_tokens(self) -> int | None:
        return self.max_completion_tokens or self.max_tokens

    def template_messages(self) -> list[dict[str, Any]]:
        """Plain dicts for the chat template. Images stay `image_url` parts but without their
        URL: the template writes a placeholder, and Jinja keeps what it renders in reference
        cycles until the next garbage collection (megabytes of base64, request after request)."""
        messages = []
        for message in self.messages:
            plain = message.model_dump(mode="json", exclude_none=True, include={
                "role", "content", "tool_calls", "reasoning_content",
            })  # fmt: skip
            for part in plain["content"] if isinstance(plain.get("content"), list) else ():
                if part["type"] == "image_url":
                    part["image_url"] = {}
            messages.append(plain)
        return messages

    def template_tools(self) -> list[dict[str, Any]] | None:
        if not self.tools_enabled or self.tools is None:
            return None
        return [tool.model_dump(mode="json", exclude_none=True) for tool in self.tools]


# ---- responses ----


class TopLogprob(BaseModel):
    token: str
    logprob: float
    bytes: list[int]


class TokenLogprob(TopLogprob):
    top_logprobs: list[TopLogprob] = Field(default_factory=list)


class ChoiceLogprobs(BaseModel):
    content: list[TokenLogprob]


class ResponseFunctionCall(BaseModel):
    name: str
    arguments: str


class ResponseToolCall(BaseModel):
    id: str = Field(default_factory=lambda: f"call_{uuid.uuid4().hex[:24]}")
    type: Literal["function"] = "function"
    function: ResponseFunctionCall


class AssistantMessage(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str | None
    tool_calls: list[ResponseToolCall] = Field(default_factory=list)
    reasoning_content: str | None = None


FinishReason = Literal["stop", "length", "tool_calls"]


class Choice(BaseModel):
    index: int
    message: AssistantMessage
    finish_reason: FinishReason
    logprobs: ChoiceLogprobs | None = None
    token_ids: list[int] | None = Field(
        default=None,
        description="vLLM extension (return_token_ids): the tokens as sampled, a sampled "
        "end-of-sequence token included; `logprobs.content` has one entry per id",
    )


class Usage(BaseModel):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class ChatCompletion(BaseModel):
    id: str = Field(default_factory=lambda: f"chatcmpl-{uuid.uuid4().hex}")
    object: Literal["chat.completion"] = "chat.completion"
    created: int = Field(default_factory=lambda: int(time.time()))
    model: str
    choices: list[Choice]
    usage: Usage
    system_fingerprint: str = Field(description="the model version that produced the choices")
    model_version: str = Field(description="the same, under a name that says what it is")
    prompt_token_ids: list[int] | None = Field(
        default=None,
        description="vLLM extension (return_token_ids): the prompt as the model was fed it, "
        "each image's placeholder expanded to its patch tokens",
    )


class ModelCard(BaseModel):
    id: str
    object: Literal["model"] = "model"
    created: int
    owned_by: str = "phonebuddy"
    root: str
    model_version: str
    max_model_len: int


class ModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[ModelCard]


class ReloadRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str = Field(min_length=1, description="a folder or a store URL of the new checkpoint")
    version: str | None = Field(default=None, max_length=128)


class ReloadResponse(BaseModel):
    model_version: str
    previous_version: str
    load_seconds: float
