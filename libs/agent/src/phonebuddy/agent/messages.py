"""OpenAI-style chat messages whose images are frame references, not bytes.

A prompt names each screenshot by its `FrameRef` (sha256 + media type); whoever sends it attaches
the bytes later (`to_openai_messages` with a data-URI or URL resolver), and the chat template only
needs to know where an image sits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from phonebuddy.protocol import FrameRef


class TextPart(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["text"] = "text"
    text: str


class ImagePart(BaseModel):
    """A screenshot by reference; `to_openai_messages` turns it into an `image_url` part."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["image"] = "image"
    frame: FrameRef


ContentPart = Annotated[TextPart | ImagePart, Field(discriminator="type")]


class FunctionCall(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    arguments: str = Field(description="the arguments as JSON text, as in OpenAI tool calls")


class ToolCall(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["function"] = "function"
    function: FunctionCall


class ChatMessage(BaseModel):
    """One chat message. `reasoning_content` is the text of a `<think>` block (None: no block)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Literal["system", "user", "assistant"]
    content: str | tuple[ContentPart, ...] = ""
    tool_calls: tuple[ToolCall, ...] = ()
    reasoning_content: str | None = None

    @property
    def frames(self) -> tuple[FrameRef, ...]:
        if isinstance(self.content, str):
            return ()
        return tuple(part.frame for part in self.content if isinstance(part, ImagePart))

    def to_dict(self) -> dict[str, Any]:
        """A plain dict for chat templates: image parts keep their frame reference."""
        message: dict[str, Any] = {"role": self.role}
        if isinstance(self.content, str):
            message["content"] = self.content
        else:
            message["content"] = [part.model_dump(mode="json") for part in self.content]
        if self.tool_calls:
            message["tool_calls"] = [call.model_dump(mode="json") for call in self.tool_calls]
        if self.reasoning_content is not None:
            message["reasoning_content"] = self.reasoning_content
        return message


def to_openai_messages(
    messages: Sequence[ChatMessage], image_url: Callable[[FrameRef], str]
) -> list[dict[str, Any]]:
    """Messages for an OpenAI chat-completions request; `image_url` gives each frame's URL
    (typically a `data:` URI of its bytes)."""
    result = []
    for message in messages:
        plain = message.to_dict()
        if not isinstance(message.content, str):
            plain["content"] = [
                {"type": "image_url", "image_url": {"url": image_url(part.frame)}}
                if isinstance(part, ImagePart)
                else {"type": "text", "text": part.text}
                for part in message.content
            ]
        result.append(plain)
    return result
