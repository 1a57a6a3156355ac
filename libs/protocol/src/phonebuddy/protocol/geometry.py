"""Screen sizes and the conversion between normalized coordinates and pixels.

Models see and emit coordinates in [0, 1000] on both axes; only the device edge converts to
pixels. 0 maps to the first pixel and 1000 to the last, so both ends of the screen are reachable.
A coordinate is an integer and nothing else: no `"500"`, no `500.0`, no `true` (strict, in JSON
and in Python alike, so what a model or a client writes is taken as written or refused).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, Strict

NORMALIZED_MAX = 1000


def _reject_bool(value: object) -> object:
    # bool is an int subclass; a model that writes `true` for a coordinate made a mistake.
    if isinstance(value, bool):
        raise ValueError("must be an integer, not a boolean")
    return value


NormalizedCoordinate = Annotated[
    int, Strict(), BeforeValidator(_reject_bool), Field(ge=0, le=NORMALIZED_MAX)
]
Point = tuple[NormalizedCoordinate, NormalizedCoordinate]
# A count or position a model writes: an integer and nothing else, like a coordinate.
StrictIndex = Annotated[int, Strict(), BeforeValidator(_reject_bool), Field(ge=0)]


class ScreenSize(BaseModel):
    """A screen's size in pixels."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    width: int = Field(ge=1, le=16384)
    height: int = Field(ge=1, le=16384)


def _axis_to_pixel(value: int, extent: int) -> int:
    if not 0 <= value <= NORMALIZED_MAX:
        raise ValueError(f"normalized coordinate {value} is outside [0, {NORMALIZED_MAX}]")
    return round(value * (extent - 1) / NORMALIZED_MAX)


def _axis_from_pixel(pixel: int, extent: int) -> int:
    if not 0 <= pixel < extent:
        raise ValueError(f"pixel {pixel} is outside [0, {extent - 1}]")
    if extent == 1:
        return 0
    return round(pixel * NORMALIZED_MAX / (extent - 1))


def to_pixels(point: Point, screen: ScreenSize) -> tuple[int, int]:
    """Normalized [0,1000] coordinates -> pixel coordinates on `screen`."""
    x, y = point
    return _axis_to_pixel(x, screen.width), _axis_to_pixel(y, screen.height)


def from_pixels(pixel: tuple[int, int], screen: ScreenSize) -> Point:
    """Pixel coordinates on `screen` -> normalized [0,1000] coordinates."""
    px, py = pixel
    return _axis_from_pixel(px, screen.width), _axis_from_pixel(py, screen.height)
