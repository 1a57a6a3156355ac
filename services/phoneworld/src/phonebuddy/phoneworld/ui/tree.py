"""The UI tree (uiautomator-style) of a laid-out screen: the same nodes that are drawn."""

from __future__ import annotations

from phonebuddy.phoneworld.ui.widgets import Node
from phonebuddy.protocol import Bounds, ScreenSize, UINode

ANDROID_CLASSES = {
    "screen": "android.widget.FrameLayout",
    "page": "android.widget.FrameLayout",
    "status_bar": "android.widget.FrameLayout",
    "nav_bar": "android.widget.FrameLayout",
    "text": "android.widget.TextView",
    "button": "android.widget.Button",
    "icon_button": "android.widget.ImageButton",
    "text_field": "android.widget.EditText",
    "image": "android.widget.ImageView",
    "avatar": "android.widget.ImageView",
    "list_item": "android.widget.LinearLayout",
    "card": "android.widget.LinearLayout",
    "column": "android.widget.LinearLayout",
    "row": "android.widget.LinearLayout",
    "wrap": "android.widget.LinearLayout",
    "toggle": "android.widget.LinearLayout",
    "switch": "android.widget.Switch",
    "chip": "android.widget.CheckBox",
    "tabs": "android.widget.HorizontalScrollView",
    "tab": "android.widget.TextView",
    "app_bar": "android.view.ViewGroup",
    "scroll": "android.widget.ScrollView",
    "scrim": "android.widget.FrameLayout",
    "dialog": "android.widget.LinearLayout",
    "sheet": "android.widget.LinearLayout",
    "keyboard": "android.inputmethodservice.KeyboardView",
    "key": "android.widget.Button",
    "toast": "android.widget.Toast",
    "badge": "android.widget.TextView",
    "app_icon": "android.widget.TextView",
}
# Purely visual or structural nodes without meaning of their own: their children take their place.
_FLATTEN = frozenset({"column", "row", "wrap", "spacer", "divider", "handle"})


def _convert(node: Node, package: str, screen: ScreenSize) -> list[UINode]:
    if node.visible is None:
        return []
    package = node.package or package
    children: list[UINode] = []
    for child in node.children:
        children.extend(_convert(child, package, screen))
    if node.kind in _FLATTEN and not node.clickable and not node.resource_id:
        return children
    left, top, right, bottom = node.visible
    bounds = Bounds(
        left=max(0, left),
        top=max(0, top),
        right=min(right, screen.width),
        bottom=min(bottom, screen.height),
    )
    return [
        UINode(
            class_name=ANDROID_CLASSES.get(node.kind, "android.view.View"),
            resource_id=node.resource_id,
            text=node.text,
            content_desc=node.desc,
            package=package,
            bounds=bounds,
            clickable=node.clickable,
            long_clickable=node.on_long_press is not None,
            focusable=node.focusable,
            focused=node.focused,
            scrollable=node.scrollable,
            checkable=node.checkable,
            checked=node.checked,
            enabled=node.enabled,
            selected=node.selected,
            children=tuple(children),
        )
    ]


def to_ui_node(root: Node, screen: ScreenSize) -> UINode:
    [converted] = _convert(root, root.package or "android", screen)
    return converted
