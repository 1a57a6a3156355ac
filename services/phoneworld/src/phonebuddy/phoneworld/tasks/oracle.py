"""`OracleUI`: how scripted solutions read the screen and build actions, like an agent would:
find a node in the UI tree, tap the middle of what is visible of it, scroll until it shows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from phonebuddy.protocol import (
    Action,
    Click,
    LongPress,
    Open,
    Swipe,
    SystemButton,
    SystemButtonName,
    Type,
    UINode,
    from_pixels,
)

if TYPE_CHECKING:
    from phonebuddy.phoneworld.device import Device


class OracleError(RuntimeError):
    """The scripted solution could not find what it expected on screen."""


class OracleUI:
    def __init__(self, device: Device) -> None:
        self.device = device

    @property
    def package(self) -> str:
        return self.device.foreground or "com.pw.launcher"

    def _rid(self, widget_id: str) -> str:
        return widget_id if ":id/" in widget_id else f"{self.package}:id/{widget_id}"

    def find_all(
        self, id: str | None = None, *, text: str | None = None, contains: str | None = None
    ) -> list[UINode]:
        rid = self._rid(id) if id is not None else None
        return [
            node
            for node in self.device.ui_tree().walk()
            if (rid is None or node.resource_id == rid)
            and (text is None or node.text == text)
            and (contains is None or contains in node.text or contains in node.content_desc)
        ]

    def find(
        self, id: str | None = None, *, text: str | None = None, contains: str | None = None
    ) -> UINode | None:
        found = self.find_all(id, text=text, contains=contains)
        return found[-1] if found else None  # the topmost (last drawn) match

    def visible(self, id: str | None = None, *, text: str | None = None) -> bool:
        return self.find(id, text=text) is not None

    def _require(self, id: str | None, text: str | None, contains: str | None) -> UINode:
        node = self.find(id, text=text, contains=contains)
        if node is None:
            what = id or text or contains
            raise OracleError(f"{what!r} is not on screen ({self.package})")
        return node

    def tap(
        self, id: str | None = None, *, text: str | None = None, contains: str | None = None
    ) -> Click:
        node = self._require(id, text, contains)
        return Click(coordinate=from_pixels(node.bounds.center, self.device.screen))

    def long_press(self, id: str | None = None, *, text: str | None = None) -> LongPress:
        node = self._require(id, text, None)
        return LongPress(coordinate=from_pixels(node.bounds.center, self.device.screen))

    def open(self, app: str) -> Open:
        return Open(text=app)

    def back(self) -> SystemButton:
        return SystemButton(button=SystemButtonName.BACK)

    def enter(self) -> SystemButton:
        return SystemButton(button=SystemButtonName.ENTER)

    def type_into(self, id: str, text: str) -> Iterator[Action]:
        """Focus the field, then type."""
        yield self.tap(id)
        yield Type(text=text)

    def scroll_to(
        self,
        id: str | None = None,
        *,
        text: str | None = None,
        scroll: str = "content",
        max_swipes: int = 40,
    ) -> Iterator[Action]:
        """Swipe the scroll container `scroll` until the node is fully in view."""
        for _ in range(max_swipes):
            node = self.find(id, text=text)
            container = self.find(scroll)
            if container is None:
                raise OracleError(f"scroll container {scroll!r} is not on screen")
            if node is not None and self._fully_visible(node, container):
                return
            yield self._swipe_within(container, up=node is None or
                                     node.bounds.bottom >= container.bounds.bottom - 2)  # fmt: skip
        raise OracleError(f"{id or text!r} did not appear after {max_swipes} swipes")

    @staticmethod
    def _fully_visible(node: UINode, container: UINode) -> bool:
        b, c = node.bounds, container.bounds
        height = b.bottom - b.top
        return height > 0 and b.top > c.top and b.bottom < c.bottom and height >= 40

    def _swipe_within(self, container: UINode, *, up: bool) -> Swipe:
        c = container.bounds
        x = (c.left + c.right) // 2
        span = (c.bottom - c.top) * 2 // 5
        mid = (c.top + c.bottom) // 2
        low, high = mid + span // 2, mid - span // 2
        start, end = ((x, low), (x, high)) if up else ((x, high), (x, low))
        screen = self.device.screen
        return Swipe(coordinate=from_pixels(start, screen), coordinate2=from_pixels(end, screen))
