"""`OracleUI`: how scripted solutions read the screen and build actions, like an agent would:
find a node in the UI tree, tap the middle of what is visible of it, scroll until it shows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from phonebuddy.phoneworld.system.friction import LOADING_SECONDS
from phonebuddy.phoneworld.system.keyboard import PACKAGE as KEYBOARD
from phonebuddy.phoneworld.system.shell import hit_test
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
    Wait,
    from_pixels,
)

if TYPE_CHECKING:
    from phonebuddy.phoneworld.device import Device


PERMISSION_ALLOW = "com.android.systemui:id/permission_allow"
"""允许 in the system permission dialog an app may show on its first launch."""


class OracleError(RuntimeError):
    """The scripted solution could not find what it expected on screen."""


def texts(node: UINode) -> list[str]:
    """The non-empty texts of a node and all below it, in drawing order."""
    return [n.text for n in node.walk() if n.text]


class OracleUI:
    def __init__(self, device: Device) -> None:
        self.device = device
        self._last_tap: tuple[str | None, str | None, str | None] | None = None

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

    def node(self, id: str) -> UINode:
        """The node with this id, which must be on screen (else OracleError)."""
        return self._require(id, None, None)

    def text_of(self, id: str) -> str:
        """The text the node with this id shows; it must be on screen."""
        return self.node(id).text

    def texts_in(self, id: str) -> list[str]:
        """The non-empty texts of the node with this id and all below it, in drawing order."""
        return texts(self.node(id))

    def tap(
        self, id: str | None = None, *, text: str | None = None, contains: str | None = None
    ) -> Click:
        node = self._require(id, text, contains)
        self._last_tap = (id, text, contains)
        return Click(coordinate=from_pixels(node.bounds.center, self.device.screen))

    def keyboard_hides(self, action: Action) -> bool:
        """Whether `action` is a tap from `tap` that would land on a keyboard drawn over what it
        aims at (the keyboard-covers friction): the keyboard has to be hidden first."""
        if not isinstance(action, Click) or self._last_tap is None:
            return False
        id, text, contains = self._last_tap
        target = self.find(id, text=text, contains=contains)
        if target is None or target.package == KEYBOARD:
            return False
        hit = hit_test(self.device.layout(), target.bounds.center, long=False)
        return hit is not None and hit.package == KEYBOARD

    def tap_again(self) -> Click:
        """The last `tap` aimed anew (after the screen changed under it)."""
        assert self._last_tap is not None
        id, text, contains = self._last_tap
        return self.tap(id, text=text, contains=contains)

    def long_press(self, id: str | None = None, *, text: str | None = None) -> LongPress:
        node = self._require(id, text, None)
        return LongPress(coordinate=from_pixels(node.bounds.center, self.device.screen))

    def past_friction(self) -> Click | Wait | None:
        """The action that gets past the friction on screen: 跳过 on a splash, 以后再说 on a
        pop-up, a wait while a page loads, the agreement and then 一键登录 at a login wall."""
        for widget_id in ("splash_skip", "popup_close"):
            if self.visible(widget_id):
                return self.tap(widget_id)
        if self.visible("loading"):
            return Wait(time=LOADING_SECONDS)
        agreement = self.find("login_agree")
        if agreement is not None:
            return self.tap("login_one_tap" if agreement.checked else "login_agree")
        return None

    def open(self, app: str) -> Open:
        return Open(text=app)

    def allow_permission(self) -> Iterator[Action]:
        """Answer the system permission dialog with 允许, if one shows."""
        if self.visible(PERMISSION_ALLOW):
            yield self.tap(PERMISSION_ALLOW)

    def open_app(self, app: str) -> Iterator[Action]:
        """Open an app by its label and allow the permission it may ask for on first launch."""
        yield self.open(app)
        yield from self.allow_permission()

    def back(self) -> SystemButton:
        return SystemButton(button=SystemButtonName.BACK)

    def enter(self) -> SystemButton:
        return SystemButton(button=SystemButtonName.ENTER)

    def type_into(self, id: str, text: str) -> Iterator[Action]:
        """Focus the field, then type."""
        yield self.tap(id)
        yield Type(text=text)

    def clear(self, id: str) -> Iterator[Action]:
        """Empty a text field: focus it, long-press it and choose 清空 in the text menu."""
        yield self.tap(id)
        yield self.long_press(id)
        yield self.tap("com.android.systemui:id/menu_clear")

    def scroll_to(
        self,
        id: str | None = None,
        *,
        text: str | None = None,
        scroll: str = "content",
        max_swipes: int = 40,
    ) -> Iterator[Action]:
        """Swipe the scroll container `scroll` until the node is wholly in view.

        UI-tree bounds are clipped to what is visible, so a node touching the container's edge
        may be cut off, unless the container cannot scroll further that way."""
        scroll_id = scroll.rpartition(":id/")[2]
        searching_down = True
        for _ in range(max_swipes):
            node = self.find(id, text=text)
            container = self.find(scroll)
            if container is None:
                raise OracleError(f"scroll container {scroll!r} is not on screen")
            room_up, room_down = self.device.scroll_room(scroll_id)
            if node is not None:
                b, c = node.bounds, container.bounds
                cut_at_bottom = b.bottom >= c.bottom and room_down > 0
                cut_at_top = b.top <= c.top and room_up > 0
                if not (cut_at_bottom or cut_at_top):
                    return
                yield self._swipe_within(container, up=cut_at_bottom)
            else:
                # Look further down first; at the end, look back up towards the top.
                searching_down = searching_down and room_down > 0
                if not searching_down and room_up == 0:
                    raise OracleError(f"{id or text!r} is nowhere in {scroll!r}")
                yield self._swipe_within(container, up=searching_down)
        raise OracleError(f"{id or text!r} did not appear after {max_swipes} swipes")

    def page_down(self, scroll: str = "content", *, up: bool = False) -> Swipe:
        """One swipe over half of the scroll container `scroll` that moves its list up, to show
        what lies below (with `up`, what lies above)."""
        b = self.node(scroll).bounds
        x, height = (b.left + b.right) // 2, b.bottom - b.top
        start, end = (x, b.top + height * 3 // 4), (x, b.top + height // 4)
        if up:
            start, end = end, start
        screen = self.device.screen
        return Swipe(coordinate=from_pixels(start, screen), coordinate2=from_pixels(end, screen))

    def _swipe_within(self, container: UINode, *, up: bool) -> Swipe:
        c = container.bounds
        x = (c.left + c.right) // 2
        span = (c.bottom - c.top) * 2 // 5
        mid = (c.top + c.bottom) // 2
        low, high = mid + span // 2, mid - span // 2
        start, end = ((x, low), (x, high)) if up else ((x, high), (x, low))
        screen = self.device.screen
        return Swipe(coordinate=from_pixels(start, screen), coordinate2=from_pixels(end, screen))
