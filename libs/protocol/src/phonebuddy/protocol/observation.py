"""What a device shows: a screenshot (by content hash), its size, the foreground app, a UI tree."""

from __future__ import annotations

import hashlib
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from phonebuddy.protocol.geometry import ScreenSize

ImageMediaType = Literal["image/jpeg", "image/png", "image/webp"]
SHA256_PATTERN = r"^[0-9a-f]{64}$"


class Bounds(BaseModel):
    """A node's rectangle in pixels: left/top inclusive, right/bottom exclusive."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    left: int = Field(ge=0)
    top: int = Field(ge=0)
    right: int = Field(ge=0)
    bottom: int = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.right < self.left or self.bottom < self.top:
            raise ValueError(
                f"bounds [{self.left},{self.top}][{self.right},{self.bottom}] are not ordered"
            )
        return self

    def contains(self, x: int, y: int) -> bool:
        return self.left <= x < self.right and self.top <= y < self.bottom

    @property
    def center(self) -> tuple[int, int]:
        return (self.left + self.right) // 2, (self.top + self.bottom) // 2


class UINode(BaseModel):
    """One node of a uiautomator-style UI tree."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    class_name: str = "android.view.View"
    resource_id: str = ""
    text: str = ""
    content_desc: str = ""
    package: str = ""
    bounds: Bounds
    clickable: bool = False
    long_clickable: bool = False
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    checkable: bool = False
    checked: bool = False
    enabled: bool = True
    selected: bool = False
    children: tuple[UINode, ...] = ()

    def walk(self) -> list[UINode]:
        """This node and all its descendants, depth first."""
        nodes = [self]
        for child in self.children:
            nodes.extend(child.walk())
        return nodes

    def find(self, *, resource_id: str | None = None, text: str | None = None) -> list[UINode]:
        return [
            node
            for node in self.walk()
            if (resource_id is None or node.resource_id == resource_id)
            and (text is None or node.text == text)
        ]


class FrameRef(BaseModel):
    """A screenshot stored once by the sha256 of its bytes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sha256: str = Field(pattern=SHA256_PATTERN)
    media_type: ImageMediaType
    size_bytes: int = Field(ge=0)


class Frame(BaseModel):
    """A screenshot's bytes (base64 in JSON) with its reference."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", ser_json_bytes="base64", val_json_bytes="base64"
    )

    ref: FrameRef
    data: bytes

    @classmethod
    def from_bytes(cls, data: bytes, media_type: ImageMediaType) -> Frame:
        ref = FrameRef(
            sha256=hashlib.sha256(data).hexdigest(), media_type=media_type, size_bytes=len(data)
        )
        return cls(ref=ref, data=data)

    @model_validator(mode="after")
    def _hash_matches(self) -> Self:
        if len(self.data) != self.ref.size_bytes:
            raise ValueError(
                f"frame has {len(self.data)} bytes, its ref says {self.ref.size_bytes}"
            )
        if hashlib.sha256(self.data).hexdigest() != self.ref.sha256:
            raise ValueError("frame bytes do not match the sha256 of their ref")
        return self


class ToolSpec(BaseModel):
    """A direct tool (an app's API shortcut) that the foreground app offers."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[a-z][a-z0-9_.]*$")
    description: str
    parameters: dict[str, Any] = Field(default_factory=dict, description="JSON Schema")


class Observation(BaseModel):
    """What the policy sees at one step."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    frame: FrameRef
    screen: ScreenSize
    foreground_app: str | None = Field(
        default=None, description="package name; None on the home screen"
    )
    ui_tree: UINode | None = None
    tools: tuple[ToolSpec, ...] = ()
    device_time: str | None = Field(default=None, description="the device clock, ISO 8601")
