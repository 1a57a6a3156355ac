"""`uiautomator dump`: the uiautomator XML of the same UI tree the protocol observation carries
(Device.ui_tree()), so an agent reading XML over ADB and one reading the observation see the same
nodes, ids and bounds."""

from __future__ import annotations

import re

from phonebuddy.protocol import UINode

XML_DECLARATION = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\r": "&#13;"}
)


def _attr(value: str) -> str:
    return _INVALID_XML.sub("?", value).translate(_ESCAPES)


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _node(node: UINode, index: int, out: list[str]) -> None:
    b = node.bounds
    out.append(
        f'<node index="{index}" text="{_attr(node.text)}" '
        f'resource-id="{_attr(node.resource_id)}" class="{_attr(node.class_name)}" '
        f'package="{_attr(node.package)}" content-desc="{_attr(node.content_desc)}" '
        f'checkable="{_flag(node.checkable)}" checked="{_flag(node.checked)}" '
        f'clickable="{_flag(node.clickable)}" enabled="{_flag(node.enabled)}" '
        f'focusable="{_flag(node.focusable)}" focused="{_flag(node.focused)}" '
        f'scrollable="{_flag(node.scrollable)}" long-clickable="{_flag(node.long_clickable)}" '
        f'password="false" selected="{_flag(node.selected)}" '
        f'bounds="[{b.left},{b.top}][{b.right},{b.bottom}]"'
    )
    if not node.children:
        out.append(" />")
        return
    out.append(">")
    for child_index, child in enumerate(node.children):
        _node(child, child_index, out)
    out.append("</node>")


def dump_xml(root: UINode, rotation: int = 0) -> str:
    """The window hierarchy as `uiautomator dump` writes it (one line, UTF-8)."""
    out = [XML_DECLARATION, f'<hierarchy rotation="{rotation}">']
    _node(root, 0, out)
    out.append("</hierarchy>")
    return "".join(out)
