"""A simulated phone: state, navigation, the action interface, and cached observations."""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import marshal
from typing import Any, Literal

from phonebuddy.phoneworld.clock import EPOCH_START, SECONDS_PER_ACTION
from phonebuddy.phoneworld.interaction import Interaction, NoOp
from phonebuddy.phoneworld.state import AppData, Doc, clone, plain
from phonebuddy.phoneworld.system import friction, shell
from phonebuddy.phoneworld.text_input import ActResult, TextInput
from phonebuddy.phoneworld.ui.render import encode, render
from phonebuddy.phoneworld.ui.tree import to_ui_node
from phonebuddy.phoneworld.ui.widgets import Node
from phonebuddy.phoneworld.ui.widgets.pages import swallow
from phonebuddy.phoneworld.world import UnknownAppError, World, seeded_rng
from phonebuddy.protocol import (
    Action,
    Answer,
    CallTool,
    Click,
    Frame,
    InvalidActionError,
    Key,
    LongPress,
    Observation,
    Open,
    ScreenSize,
    Swipe,
    SystemButton,
    SystemButtonName,
    Terminate,
    ToolSpec,
    Type,
    UINode,
    Wait,
    to_pixels,
)
from phonebuddy.protocol.elements import resolve_element

WALLET_PACKAGE = "com.pw.wallet"
DEFAULT_SCREEN = ScreenSize(width=1080, height=2400)
ImageFormat = Literal["jpeg", "png"]


def _key_name(text: str) -> str:
    return text.upper().removeprefix("KEYCODE_")


class Device(TextInput):
    """One phone. `act()` changes it, `observe()` shows it; both are deterministic."""

    def __init__(
        self,
        world: World,
        *,
        device_id: str = "pw-0",
        screen: ScreenSize = DEFAULT_SCREEN,
        seed: int = 0,
    ) -> None:
        self.world = world
        self.device_id = device_id
        self.screen = screen
        self.scale = screen.width / 1080
        self.state: Doc = {}
        self.version = 0
        self._layout: tuple[int, Node, dict[str, int]] | None = None
        self._guarding = False  # an action that may run handlers is under way
        self._saved: bytes | None = None  # the data before its first handler ran
        self._frames: dict[tuple[int, str], Frame] = {}
        self._tree: tuple[int, UINode] | None = None
        self.reset(seed)

    # -- lifecycle ---------------------------------------------------------------------------
    def reset(self, seed: int = 0, *, friction: bool = False) -> None:
        """A fresh phone: every app's initial data, home screen, the clock at the seed's day;
        with `friction`, the splash screens and pop-ups the seed plans (system/friction.py)."""
        self.seed = seed  # `clear_app_data` rebuilds an app's data for the same seed
        rng = seeded_rng("device", self.world.seed, seed)
        world = self.world
        apps = AppData(functools.partial(world.initial_data, seed), world.packages, (world, seed))
        self.state = {
            "os": {
                "clock": EPOCH_START + rng.randrange(0, 30) * 86400,
                "next_id": 1,
                "clipboard": "",
                "notifications": [],
                "permissions": {},
                "settings": {
                    "wifi": True,
                    "bluetooth": False,
                    "dark_mode": False,
                    "brightness": 60,
                    "language": "zh-CN",
                    "do_not_disturb": False,
                    "airplane_mode": False,
                    "volume": 50,
                },
            },
            "apps": apps,
            "ui": {
                "foreground": None,
                "stacks": {},
                "recents": [],
                "focus": None,
                "overlay": None,
                "toast": None,
                "launcher": {"drawer": False},
                "scroll": {},
                "friction": self.friction_plan(seed) if friction else {},
            },
        }
        self._changed()

    def friction_plan(self, seed: int) -> dict[str, list[str]]:
        """The splash screens and pop-ups each app shows in the episode of `seed`."""
        world = self.world
        return friction.plan(
            world.apps, lambda package: seeded_rng("friction", world.seed, seed, package)
        )

    def snapshot(self) -> Doc:
        return clone(self.state)

    def restore(self, snapshot: Doc) -> None:
        self.state = clone(snapshot)
        self._changed()

    def fork(self, device_id: str) -> Device:
        """A new device in exactly this device's state (GRPO: G identical starts)."""
        twin = Device.__new__(Device)
        twin.world, twin.device_id, twin.screen, twin.scale = (
            self.world,
            device_id,
            self.screen,
            self.scale,
        )
        twin.state = clone(self.state)
        twin.seed = self.seed
        twin.version = 0
        twin._layout = twin._tree = None
        twin._frames = {}
        return twin

    def _changed(self) -> None:
        self.version += 1

    # -- navigation (used by Interaction) ----------------------------------------------------
    @property
    def foreground(self) -> str | None:
        return self.state["ui"]["foreground"]

    def stack(self, package: str) -> list[Doc]:
        return self.state["ui"]["stacks"].setdefault(package, [])

    def top_entry(self, package: str) -> Doc:
        stack = self.stack(package)
        if not stack:
            raise RuntimeError(f"{package} has no screen open")
        return stack[-1]

    def push_screen(
        self,
        package: str,
        screen_name: str,
        params: dict[str, Any],
        fields: dict[str, str] | None = None,
    ) -> None:
        """Open `screen_name` on top of the app's back stack; `fields` pre-fill its text fields."""
        app = self.world.app(package)
        if screen_name not in app.screens:
            raise KeyError(f"{package} has no screen {screen_name!r}")
        self.stack(package).append(
            {"screen": screen_name, "params": clone(params), "fields": dict(fields or {}), "ui": {}}
        )
        self.state["ui"]["focus"] = None
        friction.on_push(self, package, screen_name)

    def pop_screen(self, package: str, *, allow_exit: bool = True) -> None:
        stack = self.stack(package)
        if len(stack) > 1:
            stack.pop()
        elif allow_exit:
            stack.clear()
            if self.foreground == package:
                self.state["ui"]["foreground"] = None
        self.state["ui"]["focus"] = None

    def reset_stack(self, package: str, screen_name: str, params: dict[str, Any]) -> None:
        self.stack(package).clear()
        self.push_screen(package, screen_name, params)

    def launch(self, package: str) -> None:
        app = self.world.app(package)
        ui = self.state["ui"]
        ui["foreground"] = package
        ui["focus"] = None
        ui["overlay"] = None
        recents = [p for p in ui["recents"] if p != package]
        ui["recents"] = [package, *recents][:12]
        cold = not self.stack(package)
        if cold:
            self.push_screen(package, app.home_screen, {})
        ui["overlay"] = friction.on_launch(self, package, cold=cold)

    def go_home(self) -> None:
        ui = self.state["ui"]
        ui["foreground"] = None
        ui["focus"] = None
        ui["overlay"] = None
        ui["launcher"] = {"drawer": False}

    def force_stop(self, package: str) -> None:
        """Stop an app as `am force-stop` does: its back stack is gone and, if it was on screen,
        the launcher shows. Its data stays. Raises UnknownAppError for an unknown package."""
        self.world.app(package)
        ui = self.state["ui"]
        ui["stacks"].pop(package, None)
        if ui["foreground"] == package:
            self.go_home()
        if ui["focus"] is not None and ui["focus"]["package"] == package:
            ui["focus"] = None
        if ui["overlay"] is not None and ui["overlay"].get("package") == package:
            ui["overlay"] = None
        self._changed()

    def clear_app_data(self, package: str) -> None:
        """`pm clear`: the app's data as on a fresh device of this seed, its permissions and
        notifications gone, and the app stopped. Raises UnknownAppError for an unknown package."""
        self.state["apps"][package] = self.world.initial_data(self.seed, package)
        os_state = self.state["os"]
        os_state["permissions"].pop(package, None)
        os_state["notifications"] = [
            n for n in os_state["notifications"] if n["package"] != package
        ]
        self.force_stop(package)

    def set_setting(self, name: str, value: Any) -> None:
        """Change one OS setting (`settings put`, `svc wifi`); KeyError for an unknown one."""
        settings = self.state["os"]["settings"]
        if name not in settings:
            raise KeyError(name)
        settings[name] = value
        self._changed()

    def post_notification(
        self, package: str, title: str, text: str, screen: str | None, params: dict[str, Any]
    ) -> None:
        os_state = self.state["os"]
        os_state["notifications"].append(
            {
                "id": f"n-{os_state['next_id']:05d}",
                "package": package,
                "title": title,
                "text": text,
                "screen": screen,
                "params": clone(params),
                "time": os_state["clock"],
            }
        )
        os_state["next_id"] += 1

    def request_payment(self, from_package: str, request: dict[str, Any]) -> None:
        self.launch(WALLET_PACKAGE)
        self.push_screen(WALLET_PACKAGE, "pay", {**request, "from": from_package})

    def complete_payment(self, from_package: str, reference: str, *, paid: bool) -> None:
        """Called by the wallet: close its payment screen, return to the app that asked."""
        stack = self.stack(WALLET_PACKAGE)
        if stack and stack[-1]["screen"] == "pay":
            self.pop_screen(WALLET_PACKAGE, allow_exit=True)
        self.launch(from_package)
        self.world.app(from_package).on_payment_result(
            Interaction(self, from_package), reference, paid
        )

    # -- acting ------------------------------------------------------------------------------
    def act(self, action: Action) -> ActResult:
        """Apply one action. Anything that has no effect is a recorded no-op, never an error."""
        ui = self.state["ui"]
        ui["toast"] = None
        self.state["os"]["clock"] += (
            int(action.time) if isinstance(action, Wait) else SECONDS_PER_ACTION
        )
        friction.expire(self)
        # A handler may change data and then find it cannot finish (raising NoOp): roll the data
        # back so that a no-op never leaves a half-done change behind. The copy is taken when a
        # handler is about to run (`_interaction`), so a tap on nothing costs none.
        self._guarding = not isinstance(action, Wait | Answer | Terminate | Type | Open)
        self._saved = None
        try:
            result = self._dispatch(action)
        except NoOp as no_op:
            if self._saved is not None:
                self._roll_back(self._saved)
            result = ActResult("no_op", no_op.reason)
        finally:
            self._guarding, self._saved = False, None
        self._changed()
        return result

    def _checkpoint(self) -> bytes:
        """The data a handler may change (os and apps), serialized: a handler that ends in a
        no-op is rolled back to it. Serializing is ~6x cheaper than a copy and only the rare
        no-op pays for reading it back."""
        apps = self.state["apps"]
        return marshal.dumps((self.state["os"], apps.built() if type(apps) is AppData else apps))

    def _roll_back(self, checkpoint: bytes) -> None:
        # Only bytes this device wrote itself a moment ago are read back.
        os_state, apps = marshal.loads(checkpoint)  # noqa: S302
        current = self.state["apps"]
        self.state["os"] = os_state
        # An app first read after the checkpoint goes back to unbuilt, i.e. pristine.
        self.state["apps"] = current.replaced(apps) if type(current) is AppData else apps

    def _dispatch(self, action: Action) -> ActResult:
        if isinstance(action, Answer | Terminate):
            return ActResult("final")
        if isinstance(action, Wait):
            return ActResult("applied", f"waited {action.time:g} s")
        if isinstance(action, Click | LongPress | Type) and action.element is not None:
            try:
                action = resolve_element(action, self.ui_tree(), self.screen)
            except InvalidActionError as exc:
                raise NoOp(exc.reason) from None
        if isinstance(action, Click | LongPress):
            assert action.coordinate is not None  # given, or resolved from the element
            point = to_pixels(action.coordinate, self.screen)
            return self._tap(point, long=isinstance(action, LongPress))
        if isinstance(action, Swipe):
            start, end = action.endpoints()
            return self._swipe(to_pixels(start, self.screen), to_pixels(end, self.screen))
        if isinstance(action, Type):
            if action.coordinate is not None:
                tapped = self._tap(to_pixels(action.coordinate, self.screen), long=False)
                if tapped.effect != "applied":
                    return tapped
            return self.type_text(action.text)
        if isinstance(action, Key):
            return self._key(_key_name(action.text))
        if isinstance(action, SystemButton):
            return self._system_button(action.button)
        if isinstance(action, Open):
            return self._open(action.text)
        if isinstance(action, CallTool):
            return self._call_tool(action.name, action.arguments)
        raise NoOp(f"unsupported action {action.action}")

    def _interaction(self) -> Interaction:
        """What a handler gets; within an action, the data it may change is saved first."""
        if self._guarding and self._saved is None:
            self._saved = self._checkpoint()
        return Interaction(self, self.foreground or shell.LAUNCHER_PACKAGE)

    def _tap(self, point: tuple[int, int], *, long: bool) -> ActResult:
        root = self.layout()
        node = shell.hit_test(root, point, long=long)
        if node is None:
            if long:
                target = shell.text_at(root, point)
                if target is not None:
                    return self._offer_copy_or_paste(target)
            raise NoOp(f"nothing to {'long-press' if long else 'tap'} at {point}")
        handler = node.on_long_press if long else node.on_tap
        if handler is swallow:
            raise NoOp("tap outside the dialog")
        if node.focusable and not long:
            field_name = node.resource_id.rpartition(":id/")[2]
            self.state["ui"]["focus"] = {"package": self.foreground, "field": field_name}
        if handler is not None:
            handler(self._interaction())
        return ActResult("applied", node.resource_id or node.text or node.desc)

    def _offer_copy_or_paste(self, node: Node) -> ActResult:
        if node.focusable and node.focused:
            if not self.state["os"]["clipboard"] and not node.text:
                raise NoOp("the clipboard is empty and so is the field")
            self.state["ui"]["overlay"] = {"kind": "paste"}
        else:
            self.state["ui"]["overlay"] = {"kind": "copy", "text": node.text}
        return ActResult("applied", "text menu")

    def _swipe(self, start: tuple[int, int], end: tuple[int, int]) -> ActResult:
        dx, dy = end[0] - start[0], end[1] - start[1]
        ui = self.state["ui"]
        root = self.layout()
        status_bar = shell.status_bar_height(self.scale)
        if ui["overlay"] is None and start[1] < status_bar * 2 and dy > abs(dx):
            ui["overlay"] = {"kind": "shade"}
            return ActResult("applied", "notification shade")
        if ui["overlay"] is not None and ui["overlay"]["kind"] == "shade" and dy < -abs(dx):
            ui["overlay"] = None
            return ActResult("applied", "closed the notification shade")
        scroller = shell.scroll_at(root, start)
        if abs(dx) > abs(dy):
            sideways = None if scroller is None else (
                scroller.on_swipe_left if dx < 0 else scroller.on_swipe_right
            )  # fmt: skip
            if sideways is None:
                raise NoOp("nothing scrolls sideways here")
            sideways(self._interaction())
            return ActResult("applied", f"swiped {'left' if dx < 0 else 'right'}")
        if scroller is None or scroller.scroll_id is None:
            raise NoOp("nothing scrolls here")
        offsets = self._scroll_offsets()
        extent = self._layout[2].get(scroller.scroll_id, 0) if self._layout else 0
        current = min(max(0, offsets.get(scroller.scroll_id, 0)), extent)
        wanted = min(max(0, current - dy), extent)
        if wanted == current:
            if dy > 0 and current == 0 and scroller.on_pull_down is not None:
                scroller.on_pull_down(self._interaction())
                return ActResult("applied", "pulled down")
            if dy < 0 and current == extent and scroller.on_swipe_up is not None:
                scroller.on_swipe_up(self._interaction())
                return ActResult("applied", "swiped up to the next page")
            raise NoOp("already scrolled to the end")
        offsets[scroller.scroll_id] = wanted
        return ActResult("applied", f"scrolled {scroller.scroll_id} to {wanted}")

    def scroll_room(self, scroll_id: str) -> tuple[int, int]:
        """How far the on-screen container `scroll_id` can still scroll: (back up, further down)."""
        self.layout()
        assert self._layout is not None  # layout() filled it
        offset = self._scroll_offsets().get(scroll_id, 0)
        extent = self._layout[2].get(scroll_id, 0)
        offset = min(max(0, offset), extent)
        return offset, extent - offset

    def _scroll_offsets(self) -> dict[str, int]:
        """Scroll offsets of what is on screen: the top app screen, or the launcher."""
        package = self.foreground
        if package is None:
            return self.state["ui"]["launcher"].setdefault("scroll", {})
        return self.top_entry(package).setdefault("scroll", {})

    def _key(self, name: str) -> ActResult:
        if name in ("DEL", "BACKSPACE", "DELETE"):
            return self.delete_char()
        mapped = {
            "ENTER": "Enter",
            "BACK": "Back",
            "HOME": "Home",
            "MENU": "Menu",
            "APP_SWITCH": "Menu",
        }.get(name)
        if mapped is None:
            raise NoOp(f"key {name} does nothing here")
        return self._system_button(SystemButtonName(mapped))

    def _system_button(self, button: SystemButtonName) -> ActResult:
        ui = self.state["ui"]
        if button is SystemButtonName.HOME:
            self.go_home()
            return ActResult("applied", "home")
        if button is SystemButtonName.MENU:
            ui["overlay"] = {"kind": "recents"}
            ui["focus"] = None
            return ActResult("applied", "recent apps")
        if button is SystemButtonName.ENTER:
            return self.press_enter()
        return self._back()

    def _back(self) -> ActResult:
        ui = self.state["ui"]
        if ui["overlay"] is not None:
            if ui["overlay"]["kind"] == "login":
                friction.leave_login(self)
                return ActResult("applied", "left the screen behind the login wall")
            ui["overlay"] = None
            return ActResult("applied", "closed the overlay")
        if ui["focus"] is not None:
            ui["focus"] = None
            return ActResult("applied", "hid the keyboard")
        package = self.foreground
        if package is None:
            if ui["launcher"].get("drawer"):
                ui["launcher"]["drawer"] = False
                return ActResult("applied", "closed the app drawer")
            raise NoOp("already on the home screen")
        entry = self.top_entry(package)
        if entry["ui"].get("dialog") is not None:
            entry["ui"]["dialog"] = None
            return ActResult("applied", "closed the dialog")
        on_back = shell.back_handler(shell.current_page(self, package))
        if on_back is not None:  # the screen decides (e.g. "save as draft?")
            on_back(self._interaction())
            return ActResult("applied", "back")
        self.pop_screen(package)
        return ActResult("applied", "back")

    def _open(self, name: str) -> ActResult:
        try:
            app = self.world.resolve(name)
        except UnknownAppError as exc:
            raise NoOp(str(exc)) from None
        self.launch(app.package)
        return ActResult("applied", f"opened {app.package}")

    def _call_tool(self, name: str, arguments: dict[str, Any]) -> ActResult:
        package = self.foreground
        if package is None:
            raise NoOp("no app is open, so no tools are available")
        app = self.world.app(package)
        tool_def = app.tools.get(name)
        if tool_def is None:
            raise NoOp(f"{app.label.en} has no tool {name!r}; it has {sorted(app.tools)}")
        problems = [
            f"{param} must be {kind.__name__}"
            for param, kind in tool_def.params.items()
            if not isinstance(arguments.get(param), kind)
            or (kind is int and isinstance(arguments.get(param), bool))
        ]
        extra = sorted(set(arguments) - set(tool_def.params))
        if extra:
            problems.append(f"unknown arguments {extra}")
        if problems:
            raise NoOp(f"tool {name}: " + "; ".join(problems))
        result = tool_def.method(app, Interaction(self, package), **arguments)
        return ActResult("applied", str(result) if result is not None else f"called {name}")

    # -- observing ---------------------------------------------------------------------------
    def layout(self) -> Node:
        if self._layout is None or self._layout[0] != self.version:
            root, extents = shell.compose(self)
            self._layout = (self.version, root, extents)
        return self._layout[1]

    def ui_tree(self) -> UINode:
        if self._tree is None or self._tree[0] != self.version:
            self._tree = (self.version, to_ui_node(self.layout(), self.screen))
        return self._tree[1]

    def frame(self, image_format: ImageFormat = "jpeg") -> Frame:
        key = (self.version, image_format)
        cached = self._frames.get(key)
        if cached is None:
            data = encode(render(self.layout(), self.screen), image_format)
            media_type = "image/jpeg" if image_format == "jpeg" else "image/png"
            cached = Frame.from_bytes(data, media_type)
            self._frames = {key: cached}
        return cached

    def tools(self) -> tuple[ToolSpec, ...]:
        if self.foreground is None:
            return ()
        return tuple(
            ToolSpec(name=t.name, description=t.description, parameters=t.json_schema())
            for t in self.world.app(self.foreground).tools.values()
        )

    def device_time(self) -> str:
        tz = dt.timezone(dt.timedelta(hours=8))
        return dt.datetime.fromtimestamp(self.state["os"]["clock"], tz).isoformat()

    def observe(
        self, *, image_format: ImageFormat = "jpeg", include_ui_tree: bool = True
    ) -> tuple[Observation, Frame]:
        frame = self.frame(image_format)
        observation = Observation(
            frame=frame.ref,
            screen=self.screen,
            foreground_app=self.foreground,
            ui_tree=self.ui_tree() if include_ui_tree else None,
            tools=self.tools(),
            device_time=self.device_time(),
        )
        return observation, frame

    def state_digest(self) -> str:
        """A hash of the whole state, for determinism checks."""
        import json

        text = json.dumps(plain(self.state), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()
