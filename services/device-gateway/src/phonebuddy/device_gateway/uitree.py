"""`uiautomator dump` XML -> the protocol's UINode tree.

Bounds `[l,t][r,b]` are clipped to the screen (real dumps hold off-screen and inverted
rectangles); a hierarchy with several windows gets a synthetic root that spans the screen.
The XML comes from a device, so documents with a DTD are refused (no entity expansion).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from phonebuddy.protocol import Bounds, ScreenSize, UINode

_BOUNDS = re.compile(r"^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$")
_FLAGS = {
    "clickable": "clickable",
    "long-clickable": "long_clickable",
    "focusable": "focusable",
    "focused": "focused",
    "scrollable": "scrollable",
    "checkable": "checkable",
    "checked": "checked",
    "enabled": "enabled",
    "selected": "selected",
}
_TEXTS = {
    "class": "class_name",
    "resource-id": "resource_id",
    "text": "text",
    "content-desc": "content_desc",
    "package": "package",
}
MAX_DEPTH = 256
ROOT_CLASS = "hierarchy"


class UiDumpError(ValueError):
    """The dump is not a uiautomator hierarchy; `reason` says why."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"not a uiautomator dump: {reason}")


def parse_bounds(text: str, screen: ScreenSize | None = None) -> Bounds:
    """`[l,t][r,b]` -> Bounds, clipped to `screen` and to non-negative, ordered values."""
    match = _BOUNDS.match(text.strip())
    if match is None:
        raise UiDumpError(f"bounds {text!r} are not [l,t][r,b]")
    left, top, right, bottom = (int(value) for value in match.groups())
    max_x = screen.width if screen else max(left, right, 0)
    max_y = screen.height if screen else max(top, bottom, 0)
    left, right = (min(max(v, 0), max_x) for v in (left, right))
    top, bottom = (min(max(v, 0), max_y) for v in (top, bottom))
    return Bounds(left=left, top=top, right=max(left, right), bottom=max(top, bottom))


def _node(element: ET.Element, screen: ScreenSize | None, depth: int) -> UINode:
    if depth > MAX_DEPTH:
        raise UiDumpError(f"the tree is deeper than {MAX_DEPTH} levels")
    fields: dict[str, object] = {
        field: element.get(attribute, "") for attribute, field in _TEXTS.items()
    }
    if not fields["class_name"]:
        fields.pop("class_name")
    for attribute, field in _FLAGS.items():
        value = element.get(attribute)
        if value is not None:
            fields[field] = value == "true"
    children = tuple(_node(child, screen, depth + 1) for child in element if child.tag == "node")
    return UINode(
        bounds=parse_bounds(element.get("bounds", "[0,0][0,0]"), screen),
        children=children,
        **fields,
    )


def parse_ui_dump(xml: str | bytes, screen: ScreenSize | None = None) -> UINode:
    """The tree of a `uiautomator dump` document. One top-level node is the root; several
    (one per window) hang below a synthetic `hierarchy` node as large as the screen."""
    raw = xml.encode("utf-8") if isinstance(xml, str) else xml
    if b"<!DOCTYPE" in raw or b"<!ENTITY" in raw:
        raise UiDumpError("documents with a DTD are refused")
    try:
        root = ET.fromstring(raw)  # noqa: S314 - no DTD (checked above), so no entity expansion
    except ET.ParseError as exc:
        raise UiDumpError(f"XML does not parse: {exc}") from exc
    if root.tag != "hierarchy":
        raise UiDumpError(f"the root element is <{root.tag}>, not <hierarchy>")
    windows = [_node(child, screen, 1) for child in root if child.tag == "node"]
    if len(windows) == 1:
        return windows[0]
    width, height = (screen.width, screen.height) if screen else _extent(windows)
    return UINode(
        class_name=ROOT_CLASS,
        bounds=Bounds(left=0, top=0, right=width, bottom=height),
        children=tuple(windows),
    )


def _extent(nodes: list[UINode]) -> tuple[int, int]:
    return (
        max((node.bounds.right for node in nodes), default=0),
        max((node.bounds.bottom for node in nodes), default=0),
    )
