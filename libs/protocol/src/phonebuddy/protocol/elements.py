"""A screen's UI tree as a numbered list of elements: what a `ui_tree` prompt shows and what an
element action (`click` with `element: 7`) names.

The list is a pure function of the tree and the screen size, so the prompt that numbered the
elements and the device edge that resolves a number to a point agree. An element is a visible
node with a label of its own (its text, else its content description), or an actionable node
without one whose descendants carry no label either (a bare switch or icon button: labelled by
its resource id). Depth-first order: roughly top to bottom. Long labels are cut and the list is
capped, so a prompt stays bounded whatever the screen shows.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from phonebuddy.protocol.actions import (
    MAX_ELEMENT_INDEX,
    Action,
    Click,
    InvalidActionError,
    LongPress,
    Type,
)
from phonebuddy.protocol.geometry import Point, ScreenSize, from_pixels, to_pixels
from phonebuddy.protocol.observation import Bounds, UINode

MAX_ELEMENTS = MAX_ELEMENT_INDEX + 1
MAX_LABEL_CHARS = 40


class Element(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    index: int
    label: str
    bounds: Bounds
    checkable: bool = False
    checked: bool = False
    editable: bool = False

    def center(self, screen: ScreenSize) -> Point:
        """The element's centre in normalized [0, 1000] coordinates."""
        x, y = self.bounds.center
        return from_pixels(
            (min(max(x, 0), screen.width - 1), min(max(y, 0), screen.height - 1)), screen
        )

    def line(self) -> str:
        """`[7] Wi-Fi (on)`: the element as a prompt shows it."""
        marks = []
        if self.checkable:
            marks.append("on" if self.checked else "off")
        if self.editable:
            marks.append("input")
        suffix = f" ({', '.join(marks)})" if marks else ""
        return f"[{self.index}] {self.label}{suffix}"


def _own_label(node: UINode) -> str:
    return " ".join((node.text or node.content_desc).split())


def _visible(node: UINode, screen: ScreenSize) -> bool:
    b = node.bounds
    return b.right > b.left and b.bottom > b.top and b.left < screen.width and b.top < screen.height


def _actionable(node: UINode) -> bool:
    return node.clickable or node.long_clickable or node.checkable or _editable(node)


def _editable(node: UINode) -> bool:
    return node.class_name.endswith("EditText")


def _has_labelled_descendant(node: UINode) -> bool:
    return any(_own_label(child) or _has_labelled_descendant(child) for child in node.children)


def _label(node: UINode) -> str:
    label = _own_label(node)
    if not label and node.resource_id:
        label = node.resource_id.rpartition("/")[2]
    if len(label) > MAX_LABEL_CHARS:
        label = label[: MAX_LABEL_CHARS - 1] + "…"
    return label


def screen_elements(tree: UINode | None, screen: ScreenSize) -> tuple[Element, ...]:
    """The numbered elements of `tree` (empty without a tree). A node that only repeats the
    label of the listed node it sits in (an icon's caption) is not listed again."""
    elements: list[Element] = []

    def visit(node: UINode, inherited: str) -> None:
        if len(elements) == MAX_ELEMENTS:
            return
        listed = inherited
        if _visible(node, screen):
            labelled = bool(_own_label(node))
            bare_control = _actionable(node) and not _has_labelled_descendant(node)
            label = _label(node)
            if (labelled or (bare_control and node.resource_id)) and label != inherited:
                elements.append(
                    Element(
                        index=len(elements), label=label, bounds=node.bounds,
                        checkable=node.checkable, checked=node.checked, editable=_editable(node),
                    )
                )  # fmt: skip
                listed = label
        for child in node.children:
            visit(child, listed)

    if tree is not None:
        visit(tree, "")
    return tuple(elements)


def elements_text(elements: tuple[Element, ...]) -> str:
    return "\n".join(element.line() for element in elements)


def element_at(elements: tuple[Element, ...], point: Point, screen: ScreenSize) -> Element | None:
    """The smallest element whose rectangle holds `point` (normalized), if any: what a tap
    there most likely meant."""
    x, y = to_pixels(point, screen)
    holding = [e for e in elements if e.bounds.contains(x, y)]
    if not holding:
        return None
    return min(holding, key=lambda e: (_area(e.bounds), -e.index))


def _area(bounds: Bounds) -> int:
    return (bounds.right - bounds.left) * (bounds.bottom - bounds.top)


def resolve_element(action: Action, tree: UINode | None, screen: ScreenSize) -> Action:
    """`action` with the element it names resolved to that element's centre (`coordinate` set,
    `element` kept); any other action unchanged. InvalidActionError when the screen lists no
    such element."""
    if not isinstance(action, Click | LongPress | Type) or action.element is None:
        return action
    elements = screen_elements(tree, screen)
    if action.element >= len(elements):
        listed = f"elements 0-{len(elements) - 1}" if elements else "no elements"
        raise InvalidActionError(
            f"{action.action}: element {action.element} is not on the screen (it lists {listed})",
            payload=action.model_dump(mode="json"),
        )
    return action.model_copy(update={"coordinate": elements[action.element].center(screen)})
