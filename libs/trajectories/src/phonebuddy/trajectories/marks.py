"""Actions drawn over their screenshot: an SVG overlay in the models' own coordinates.

Coordinates are normalized to [0, 1000] on both axes, so the overlay is an `<svg>` with
`viewBox="0 0 1000 1000"` and `preserveAspectRatio="none"` laid exactly over the `<img>`: an
action's point is drawn at its own numbers. Because that stretches the two axes differently, a
round mark is an ellipse whose radii are scaled by the screen's aspect ratio, and the arrowhead of
a swipe is computed in pixels; strokes do not scale (`vector-effect`). A tap is a filled circle,
a long press a ring, a swipe an arrow from its start to its end; other actions draw nothing.
"""

from __future__ import annotations

import math

from phonebuddy.protocol import Action, Click, LongPress, ScreenSize, Swipe, Type

# Sizes as fractions of the screen width, so marks look alike on any screen.
_DOT = 0.045
_RING = 0.06
_HEAD = 0.07
_START = 0.02


def _ellipse(cls: str, x: float, y: float, radius: float, screen: ScreenSize) -> str:
    """A circle of `radius` (a fraction of the width) around (x, y), round on screen."""
    rx = radius * 1000
    ry = rx * screen.width / screen.height
    return (
        f'<ellipse class="{cls}" cx="{x:g}" cy="{y:g}" rx="{rx:.1f}" ry="{ry:.1f}" '
        'vector-effect="non-scaling-stroke"/>'
    )


def _arrowhead(start: tuple[int, int], end: tuple[int, int], screen: ScreenSize) -> str:
    """The points of a triangle at `end`, pointing away from `start`, shaped in pixels."""
    sx, sy = screen.width / 1000, screen.height / 1000
    x1, y1, x2, y2 = start[0] * sx, start[1] * sy, end[0] * sx, end[1] * sy
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    size = _HEAD * screen.width
    back_x, back_y = x2 - ux * size, y2 - uy * size
    wing_x, wing_y = -uy * size * 0.5, ux * size * 0.5
    points = [(x2, y2), (back_x + wing_x, back_y + wing_y), (back_x - wing_x, back_y - wing_y)]
    return " ".join(f"{px / sx:.1f},{py / sy:.1f}" for px, py in points)


def _element_attribute(element: int | None) -> str:
    """Which UI element the policy named, when it named one (the point is its centre)."""
    return "" if element is None else f' data-element="{element}"'


def action_marks(action: Action | None, screen: ScreenSize) -> str:
    """The SVG elements that show `action` (nothing for actions without a place)."""
    match action:
        case Click(coordinate=(x, y)):
            return (
                f'<g class="mark mark-click" data-action="click" data-x="{x}" data-y="{y}"'
                f"{_element_attribute(action.element)}>"
                f"{_ellipse('tap', x, y, _DOT, screen)}</g>"
            )
        case LongPress(coordinate=(x, y)):
            return (
                f'<g class="mark mark-long-press" data-action="long_press" '
                f'data-x="{x}" data-y="{y}"{_element_attribute(action.element)}>'
                f"{_ellipse('ring', x, y, _RING, screen)}"
                f"{_ellipse('ring-inner', x, y, _RING * 0.55, screen)}</g>"
            )
        case Type(coordinate=(x, y)):
            return (
                f'<g class="mark mark-click" data-action="type" data-x="{x}" data-y="{y}"'
                f"{_element_attribute(action.element)}>"
                f"{_ellipse('tap', x, y, _DOT, screen)}</g>"
            )
        case Swipe():
            (x1, y1), (x2, y2) = action.endpoints()
            return (
                f'<g class="mark mark-swipe" data-action="swipe" data-x="{x1}" data-y="{y1}" '
                f'data-x2="{x2}" data-y2="{y2}">'
                f"{_ellipse('swipe-start', x1, y1, _START, screen)}"
                f'<line class="swipe-line" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                'vector-effect="non-scaling-stroke"/>'
                f'<polygon class="swipe-head" points="{_arrowhead((x1, y1), (x2, y2), screen)}"/>'
                "</g>"
            )
    return ""


def overlay(action: Action | None, screen: ScreenSize) -> str:
    """An `<svg>` to lay over the screenshot, with `action` drawn on it."""
    return (
        '<svg class="overlay" viewBox="0 0 1000 1000" preserveAspectRatio="none" '
        f'xmlns="http://www.w3.org/2000/svg" aria-hidden="true">{action_marks(action, screen)}'
        "</svg>"
    )
