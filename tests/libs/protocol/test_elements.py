"""The numbered element list of a UI tree, and element actions resolved against it."""

from __future__ import annotations

import pytest

from phonebuddy.protocol import (
    MAX_ELEMENTS,
    Bounds,
    Click,
    InvalidActionError,
    LongPress,
    ScreenSize,
    Type,
    UINode,
    element_at,
    elements_text,
    from_pixels,
    parse_tool_call,
    resolve_element,
    screen_elements,
)

SCREEN = ScreenSize(width=1000, height=2000)


def node(left: int, top: int, right: int, bottom: int, **fields: object) -> UINode:
    return UINode(bounds=Bounds(left=left, top=top, right=right, bottom=bottom), **fields)  # type: ignore[arg-type]


def settings_screen() -> UINode:
    row = node(
        0, 200, 1000, 400, clickable=True, resource_id="com.x:id/row_wifi",
        children=(
            node(20, 220, 600, 380, text="Wi-Fi"),
            node(800, 250, 950, 350, checkable=True, checked=True, clickable=True,
                 resource_id="com.x:id/switch_wifi"),
        ),
    )  # fmt: skip
    return node(
        0, 0, 1000, 2000,
        children=(
            node(0, 0, 1000, 100, text="Settings"),
            row,
            node(0, 400, 1000, 500, class_name="android.widget.EditText", resource_id="com.x:id/q",
                 clickable=True, text=""),
            node(0, 500, 1000, 600, content_desc="More options", clickable=True),
            node(0, 600, 1000, 700, clickable=True),  # no label, no id: nothing to name it by
            node(0, 2100, 1000, 2200, text="below the screen"),
            node(10, 700, 10, 800, text="zero width"),
        ),
    )  # fmt: skip


def test_elements_are_labelled_visible_nodes_numbered_in_order() -> None:
    elements = screen_elements(settings_screen(), SCREEN)
    assert elements_text(elements).splitlines() == [
        "[0] Settings",
        "[1] Wi-Fi",
        "[2] switch_wifi (on)",
        "[3] q (input)",
        "[4] More options",
    ]
    # the row container is not listed: its label is its child's
    assert [e.index for e in elements] == list(range(5))


def test_the_list_is_bounded_in_length_and_label_size() -> None:
    many = node(
        0, 0, 1000, 2000,
        children=tuple(node(0, i, 1000, i + 1, text="x" * 200) for i in range(200)),
    )  # fmt: skip
    elements = screen_elements(many, SCREEN)
    assert len(elements) == MAX_ELEMENTS
    assert all(len(e.label) <= 40 for e in elements)
    assert screen_elements(None, SCREEN) == ()


def test_an_element_action_resolves_to_the_centre_of_its_element() -> None:
    tree = settings_screen()
    resolved = resolve_element(Click(element=2), tree, SCREEN)
    assert resolved == Click(element=2, coordinate=from_pixels((875, 300), SCREEN))
    typed = resolve_element(Type(text="hi", element=3), tree, SCREEN)
    assert typed.coordinate == from_pixels((500, 450), SCREEN)
    held = resolve_element(LongPress(element=1, time=2.0), tree, SCREEN)
    assert held.coordinate == from_pixels((310, 300), SCREEN)
    # coordinate actions pass through untouched
    assert resolve_element(Click(coordinate=(1, 2)), tree, SCREEN) == Click(coordinate=(1, 2))


@pytest.mark.parametrize("index", [5, 63])
def test_an_element_the_screen_does_not_list_is_an_invalid_action(index: int) -> None:
    with pytest.raises(InvalidActionError, match=f"element {index} is not on the screen"):
        resolve_element(Click(element=index), settings_screen(), SCREEN)
    with pytest.raises(InvalidActionError, match="lists no elements"):
        resolve_element(Click(element=0), None, SCREEN)


@pytest.mark.parametrize(
    "arguments",
    [{"element": -1}, {"element": 64}, {"element": "3"}, {"element": 2.0}, {"element": True}, {}],
)
def test_element_indices_are_strict_integers(arguments: dict[str, object]) -> None:
    with pytest.raises(InvalidActionError):
        parse_tool_call({"name": "mobile_use", "arguments": {"action": "click", **arguments}})


def test_a_point_maps_to_the_smallest_element_that_holds_it() -> None:
    elements = screen_elements(settings_screen(), SCREEN)
    assert element_at(elements, from_pixels((875, 300), SCREEN), SCREEN).label == "switch_wifi"  # type: ignore[union-attr]
    assert element_at(elements, from_pixels((300, 300), SCREEN), SCREEN).label == "Wi-Fi"  # type: ignore[union-attr]
    assert (
        element_at(elements, from_pixels((700, 390), SCREEN), SCREEN) is None
    )  # the unlabelled row
