"""The widget set and its layout pass.

A screen is a function of (app data, UI state) that returns a tree of these widgets. `place()`
turns the tree into `Node`s with pixel bounds; the renderer draws those nodes, and hit-testing
and the UI tree read the very same nodes, so what is drawn is what is tapped.

Sizes are design pixels for a 1080-pixel-wide screen (`LayoutContext.px` scales them).
"""

from phonebuddy.phoneworld.ui.widgets.containers import AppBar, Card, Column, Row, Tabs, Wrap
from phonebuddy.phoneworld.ui.widgets.controls import (
    Button,
    Chip,
    Divider,
    IconButton,
    Image,
    Spacer,
    Text,
    TextField,
    Toggle,
)
from phonebuddy.phoneworld.ui.widgets.core import (
    Handler,
    LayoutContext,
    Node,
    Rect,
    Widget,
    make_node,
)
from phonebuddy.phoneworld.ui.widgets.pages import BottomSheet, Dialog, Overlay, Page, ScrollView
from phonebuddy.phoneworld.ui.widgets.rows import ListItem

__all__ = [
    "AppBar",
    "BottomSheet",
    "Button",
    "Card",
    "Chip",
    "Column",
    "Dialog",
    "Divider",
    "Handler",
    "IconButton",
    "Image",
    "LayoutContext",
    "ListItem",
    "Node",
    "Overlay",
    "Page",
    "Rect",
    "Row",
    "ScrollView",
    "Spacer",
    "Tabs",
    "Text",
    "TextField",
    "Toggle",
    "Widget",
    "Wrap",
    "make_node",
]
