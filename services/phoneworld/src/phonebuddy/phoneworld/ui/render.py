"""Draw a laid-out node tree with Pillow, and encode the picture.

Text dominates drawing time, so every (text, size, weight) is rasterized once into an alpha
mask and stamped with its colour afterwards.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from typing import Literal

from PIL import Image, ImageDraw
from PIL.ImageFont import FreeTypeFont

from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.icons import draw_icon
from phonebuddy.phoneworld.ui.text import laid_out, line_height
from phonebuddy.phoneworld.ui.theme import Color
from phonebuddy.phoneworld.ui.widgets import Node
from phonebuddy.protocol import ScreenSize

JPEG_QUALITY = 80
_CENTERED_KINDS = frozenset(
    {"button", "chip", "tab", "avatar", "badge", "image", "key", "toast", "icon_button"}
)


def _mask(face: FreeTypeFont, line: str) -> tuple[Image.Image, int]:
    left, top, right, bottom = face.getbbox(line)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), line, font=face, fill=255)
    return mask, top


@functools.lru_cache(maxsize=8192)
def _text_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, int]:
    """The text as an alpha mask, and the mask's vertical offset from the line's top (any
    string: see `ui.text.laid_out`)."""
    return laid_out(text, size, bold, _mask, (Image.new("L", (1, 1), 0), 0))


def _draw_lines(draw: ImageDraw.ImageDraw, node: Node, dim: Dim) -> None:
    if not node.lines:
        return
    left, top, right, bottom = node.bounds
    pad = node.padding
    step = line_height(node.text_size)
    block = step * len(node.lines)
    if node.kind in _CENTERED_KINDS or (node.kind == "text_field" and len(node.lines) == 1):
        y = top + (bottom - top - block) // 2
    else:
        y = top + pad
    for line in node.lines:
        if line:
            mask, offset = _text_mask(line, node.text_size, node.bold)
            if node.align == "center":
                x = left + (right - left - mask.width) // 2
            elif node.align == "right":
                x = right - pad - mask.width
            else:
                x = left + pad
            draw.bitmap(
                (x, y + offset + (step - node.text_size) // 2 - node.text_size // 8),
                mask,
                fill=dim(node.text_color),
            )
        y += step


Dim = Callable[[Color | None], Color | None]


def _dimmer(times: int) -> Dim:
    """Colours as they look under `times` scrims (each keeps 45 % of every channel)."""

    def dim(color: Color | None) -> Color | None:
        if color is None or not times:
            return color
        for _ in range(times):
            color = tuple(v * 45 // 100 for v in color)  # type: ignore[assignment]
        return color

    return dim


def _paint_order(node: Node, out: list[Node]) -> list[Node]:
    """The visible nodes in the order they are painted: a node, then its children by z."""
    if node.visible is not None:
        out.append(node)
        for child in sorted(node.children, key=lambda c: c.z):
            _paint_order(child, out)
    return out


def _paint(draw: ImageDraw.ImageDraw, node: Node, dim: Dim) -> None:
    """Paint one node (not its children) with its colours passed through `dim`."""
    if node.fill is not None or node.outline is not None:
        width = max(2, node.radius // 12) if node.outline else 0
        fill, outline = dim(node.fill), dim(node.outline)
        if node.radius:
            draw.rounded_rectangle(
                node.bounds, node.radius, fill=fill, outline=outline, width=width
            )
        else:
            draw.rectangle(node.bounds, fill=fill, outline=outline, width=width)
    if node.kind == "switch":
        left, top, right, bottom = node.bounds
        knob = bottom - top - 8
        x = right - knob - 4 if node.checked else left + 4
        draw.ellipse((x, top + 4, x + knob, top + 4 + knob), fill=dim(theme.WHITE))
    elif node.kind == "icon_button" and node.icon:
        draw_icon(draw, node.icon, node.bounds, dim(node.text_color))  # type: ignore[arg-type]
        if node.text:  # a badge count
            left, top, right, _ = node.bounds
            side = (right - left) * 2 // 5
            badge = (right - side, top, right, top + side)
            draw.ellipse(badge, fill=dim(theme.DANGER))
            mask, _ = _text_mask(node.text, side * 2 // 3, True)
            draw.bitmap(
                (badge[0] + (side - mask.width) // 2, top + (side - mask.height) // 2),
                mask,
                fill=dim(theme.WHITE),
            )
    else:
        _draw_lines(draw, node, dim)
    if node.kind == "text_field" and node.focused:
        left, top, right, bottom = node.bounds
        caret_x = min(right - node.padding, left + node.padding + _caret_offset(node))
        draw.line((caret_x, top + 30, caret_x, bottom - 30), fill=dim(theme.TEXT), width=3)


def _caret_offset(node: Node) -> int:
    if not node.text or not node.lines:
        return 0
    return _text_mask(node.lines[-1], node.text_size, False)[0].width + 4


def render(root: Node, screen: ScreenSize) -> Image.Image:
    """The picture of a laid-out tree. A scrim dims everything painted before it; rather than
    darkening the finished pixels (a full-screen pass per scrim), what lies under k scrims is
    painted in colours dimmed k times."""
    order = _paint_order(root, [])
    scrims_after = [0] * len(order)
    later = 0
    for i in range(len(order) - 1, -1, -1):
        scrims_after[i] = later
        if order[i].kind == "scrim":
            later += 1
    background = root.fill or theme.BACKGROUND
    dimmers = [_dimmer(k) for k in range(later + 1)]
    image = Image.new("RGB", (screen.width, screen.height), dimmers[later](background))
    draw = ImageDraw.Draw(image)
    for node, times in zip(order, scrims_after, strict=True):
        if node.kind != "scrim":
            _paint(draw, node, dimmers[times])
    return image


def encode(image: Image.Image, image_format: Literal["jpeg", "png"] = "jpeg") -> bytes:
    buffer = io.BytesIO()
    if image_format == "jpeg":
        image.save(buffer, "JPEG", quality=JPEG_QUALITY)
    else:
        image.save(buffer, "PNG", compress_level=1)
    return buffer.getvalue()
