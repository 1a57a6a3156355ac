"""Icons drawn from lines and shapes (the CJK font has no emoji). Unknown names fall back to
their first character drawn as text."""

from __future__ import annotations

from collections.abc import Callable

from PIL import ImageDraw

from phonebuddy.phoneworld.ui.theme import Color, font

Box = tuple[float, float, float, float]  # the icon's drawing square: left, top, size, stroke


def _back(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    x, y, s, w = b
    d.line(
        [(x + s * 0.65, y + s * 0.2), (x + s * 0.3, y + s * 0.5), (x + s * 0.65, y + s * 0.8)],
        fill=c,
        width=int(w),
        joint="curve",
    )


def _close(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    x, y, s, w = b
    d.line([(x + s * 0.25, y + s * 0.25), (x + s * 0.75, y + s * 0.75)], fill=c, width=int(w))
    d.line([(x + s * 0.75, y + s * 0.25), (x + s * 0.25, y + s * 0.75)], fill=c, width=int(w))


def _plus(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    x, y, s, w = b
    d.line([(x + s * 0.5, y + s * 0.2), (x + s * 0.5, y + s * 0.8)], fill=c, width=int(w))
    d.line([(x + s * 0.2, y + s * 0.5), (x + s * 0.8, y + s * 0.5)], fill=c, width=int(w))


def _minus(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    x, y, s, w = b
    d.line([(x + s * 0.2, y + s * 0.5), (x + s * 0.8, y + s * 0.5)], fill=c, width=int(w))


def _search(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    x, y, s, w = b
    d.ellipse((x + s * 0.2, y + s * 0.2, x + s * 0.62, y + s * 0.62), outline=c, width=int(w))
    d.line([(x + s * 0.56, y + s * 0.56), (x + s * 0.8, y + s * 0.8)], fill=c, width=int(w))


def _more(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    x, y, s, _ = b
    r = s * 0.07
    for cx in (0.25, 0.5, 0.75):
        d.ellipse((x + s * cx - r, y + s * 0.5 - r, x + s * cx + r, y + s * 0.5 + r), fill=c)


def _menu(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    x, y, s, w = b
    for row in (0.3, 0.5, 0.7):
        d.line([(x + s * 0.2, y + s * row), (x + s * 0.8, y + s * row)], fill=c, width=int(w))


def _check(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    x, y, s, w = b
    d.line(
        [(x + s * 0.2, y + s * 0.52), (x + s * 0.42, y + s * 0.72), (x + s * 0.8, y + s * 0.3)],
        fill=c,
        width=int(w),
        joint="curve",
    )


def _cart(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    x, y, s, w = b
    d.line(
        [
            (x + s * 0.12, y + s * 0.25),
            (x + s * 0.25, y + s * 0.25),
            (x + s * 0.35, y + s * 0.62),
            (x + s * 0.78, y + s * 0.62),
            (x + s * 0.85, y + s * 0.35),
            (x + s * 0.3, y + s * 0.35),
        ],
        fill=c,
        width=int(w),
        joint="curve",
    )
    r = s * 0.06
    for cx in (0.4, 0.72):
        d.ellipse((x + s * cx - r, y + s * 0.76 - r, x + s * cx + r, y + s * 0.76 + r), fill=c)


def _share(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    x, y, s, w = b
    points = [(0.72, 0.25), (0.3, 0.5), (0.72, 0.75)]
    d.line([(x + s * px, y + s * py) for px, py in points], fill=c, width=int(w))
    r = s * 0.09
    for px, py in points:
        d.ellipse((x + s * px - r, y + s * py - r, x + s * px + r, y + s * py + r), fill=c)


def _star(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    import math

    x, y, s, _ = b
    points = []
    for i in range(10):
        radius = s * (0.38 if i % 2 == 0 else 0.16)
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((x + s / 2 + radius * math.cos(angle), y + s / 2 + radius * math.sin(angle)))
    d.polygon(points, fill=c)


def _send(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    x, y, s, _ = b
    d.polygon(
        [
            (x + s * 0.2, y + s * 0.25),
            (x + s * 0.82, y + s * 0.5),
            (x + s * 0.2, y + s * 0.75),
            (x + s * 0.3, y + s * 0.5),
        ],
        fill=c,
    )


def _edit(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    x, y, s, w = b
    d.line([(x + s * 0.25, y + s * 0.75), (x + s * 0.75, y + s * 0.25)], fill=c, width=int(w * 1.6))
    d.line([(x + s * 0.2, y + s * 0.82), (x + s * 0.5, y + s * 0.82)], fill=c, width=int(w))


def _delete(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    x, y, s, w = b
    d.rectangle((x + s * 0.3, y + s * 0.32, x + s * 0.7, y + s * 0.8), outline=c, width=int(w))
    d.line([(x + s * 0.22, y + s * 0.28), (x + s * 0.78, y + s * 0.28)], fill=c, width=int(w))


def _settings(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    x, y, s, w = b
    d.ellipse(
        (x + s * 0.25, y + s * 0.25, x + s * 0.75, y + s * 0.75), outline=c, width=int(w * 1.5)
    )
    d.ellipse((x + s * 0.42, y + s * 0.42, x + s * 0.58, y + s * 0.58), fill=c)


def _phone(d: ImageDraw.ImageDraw, b: Box, c: Color) -> None:
    x, y, s, w = b
    d.arc((x + s * 0.2, y + s * 0.2, x + s * 0.8, y + s * 0.8), 90, 180, fill=c, width=int(w * 2))


ICONS: dict[str, Callable[[ImageDraw.ImageDraw, Box, Color], None]] = {
    "back": _back,
    "close": _close,
    "plus": _plus,
    "add": _plus,
    "minus": _minus,
    "search": _search,
    "more": _more,
    "menu": _menu,
    "check": _check,
    "cart": _cart,
    "share": _share,
    "star": _star,
    "favorite": _star,
    "send": _send,
    "edit": _edit,
    "delete": _delete,
    "settings": _settings,
    "phone": _phone,
    "call": _phone,
}


def draw_icon(
    draw: ImageDraw.ImageDraw, name: str, rect: tuple[int, int, int, int], color: Color
) -> None:
    left, top, right, bottom = rect
    size = min(right - left, bottom - top) * 0.6
    x = left + (right - left - size) / 2
    y = top + (bottom - top - size) / 2
    painter = ICONS.get(name)
    if painter is not None:
        painter(draw, (x, y, size, max(2.0, size / 11)), color)
        return
    face = font(max(8, int(size * 0.8)), True)
    glyph = name[:1]
    g_left, g_top, g_right, g_bottom = face.getbbox(glyph)
    origin = (
        x + (size - (g_right - g_left)) / 2 - g_left,
        y + (size - (g_bottom - g_top)) / 2 - g_top,
    )
    draw.text(origin, glyph, font=face, fill=color)
