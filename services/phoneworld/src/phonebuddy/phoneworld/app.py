"""The app framework: an app is a class with seeded content, initial data, screens and tools.

    class Notes(App):
        package = "com.pw.notes"
        label = Label(zh="备忘录", en="Notes")
        domain = "productivity"
        theme = AppTheme(primary=(255, 193, 7), on_primary=(33, 33, 33))

        def build_content(self, rng): ...          # read-only, shared by all devices
        def initial_data(self, content, rng): ...  # this device's mutable data after reset

        @screen("home")
        def home(self, v: View) -> Page: ...       # a function of (data, UI state)

        @tool("create_note", "Create a note", {"title": str, "body": str})
        def create_note_tool(self, it: Interaction, title: str, body: str) -> str: ...

Screens only read; every change goes through handlers (closures over an `Interaction`), which
the GUI, direct tools and oracles share, so a verifier cannot tell the paths apart.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from phonebuddy.phoneworld.system.friction import NONE as NO_FRICTION
from phonebuddy.phoneworld.system.friction import Friction
from phonebuddy.phoneworld.ui.theme import DEFAULT_THEME, AppTheme
from phonebuddy.phoneworld.ui.widgets import Button, Dialog, Handler, Page

if TYPE_CHECKING:
    from phonebuddy.phoneworld.interaction import Interaction

ScreenFn = Callable[[Any, "View"], Page]


@dataclass(frozen=True, slots=True)
class Label:
    zh: str
    en: str


@dataclass(frozen=True, slots=True)
class ToolDef:
    """A direct tool: a named API shortcut with a JSON-Schema-like parameter spec."""

    name: str
    description: str
    params: dict[str, type]
    method: Callable[..., Any]

    def json_schema(self) -> dict[str, Any]:
        kinds = {str: "string", int: "integer", float: "number", bool: "boolean"}
        return {
            "type": "object",
            "properties": {name: {"type": kinds[kind]} for name, kind in self.params.items()},
            "required": list(self.params),
            "additionalProperties": False,
        }


def screen(name: str) -> Callable[[ScreenFn], ScreenFn]:
    def mark(fn: ScreenFn) -> ScreenFn:
        fn.__phoneworld_screen__ = name  # type: ignore[attr-defined]
        return fn

    return mark


def tool(
    name: str, description: str, params: dict[str, type]
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.__phoneworld_tool__ = (name, description, params)  # type: ignore[attr-defined]
        return fn

    return mark


class App:
    """Base class of every PhoneWorld app (see the module docstring)."""

    package: ClassVar[str]
    label: ClassVar[Label]
    domain: ClassVar[str]
    theme: ClassVar[AppTheme] = DEFAULT_THEME
    icon_text: ClassVar[str] = ""
    home_screen: ClassVar[str] = "home"
    # Paths under this app's data that change without being a task's effect (view counters,
    # search history); verifiers ignore them.
    ignorable: ClassVar[tuple[str, ...]] = ()
    # Permissions asked on first launch (a system dialog), e.g. ("location",).
    permissions: ClassVar[tuple[str, ...]] = ()
    # Whether other apps can share content into this one (it then implements `receive_share`).
    accepts_shares: ClassVar[bool] = False
    # A splash screen and a pop-up it may show in an episode (system/friction.py).
    friction: ClassVar[Friction] = NO_FRICTION

    screens: ClassVar[dict[str, ScreenFn]]
    tools: ClassVar[dict[str, ToolDef]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.screens = {}
        cls.tools = {}
        for klass in reversed(cls.__mro__):
            for attr in vars(klass).values():
                if hasattr(attr, "__phoneworld_screen__"):
                    cls.screens[attr.__phoneworld_screen__] = attr
                if hasattr(attr, "__phoneworld_tool__"):
                    name, description, params = attr.__phoneworld_tool__
                    cls.tools[name] = ToolDef(name, description, params, attr)

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        """Read-only seeded content (catalogues, contacts...), built once per world seed."""
        return {}

    def initial_data(self, content: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """This app's mutable data on a freshly reset device."""
        return {}

    def receive_share(self, it: Interaction, payload: dict[str, Any]) -> None:
        """Another app shared `payload` ({"kind": ..., "text": ..., ...}) into this one."""
        it.no_op(f"{self.label.en} does not accept shares")

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        """The wallet finished a payment this app requested."""


class View:
    """What a screen function reads, plus builders of handlers for its widgets."""

    def __init__(
        self,
        *,
        app: App,
        data: dict[str, Any],
        content: dict[str, Any],
        entry: dict[str, Any],
        os_state: dict[str, Any],
        all_data: dict[str, dict[str, Any]],
    ) -> None:
        self.app = app
        self.data = data
        self.content = content
        self.entry = entry
        self.params: dict[str, Any] = entry["params"]
        self.os = os_state
        self._all_data = all_data

    # -- reading ---------------------------------------------------------------------------
    def field(self, name: str, default: str = "") -> str:
        """The text currently in field `name` of this screen."""
        return str(self.entry["fields"].get(name, default))

    def ui(self, key: str, default: Any = None) -> Any:
        """View state of this screen (selected tab, open dialog, chosen option...)."""
        return self.entry["ui"].get(key, default)

    def app_data(self, package: str) -> dict[str, Any]:
        """Another app's data, read-only (e.g. the wallet balance shown at checkout)."""
        return self._all_data[package]

    # -- handler builders --------------------------------------------------------------------
    @staticmethod
    def go(screen_name: str, *, fields: dict[str, str] | None = None, **params: Any) -> Handler:
        return lambda it: it.push(screen_name, fields=fields, **params)

    @staticmethod
    def back() -> Handler:
        return lambda it: it.pop()

    @staticmethod
    def do(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Handler:
        """A handler that calls `fn(interaction, *args, **kwargs)`."""
        return lambda it: fn(it, *args, **kwargs)

    @staticmethod
    def set_ui(key: str, value: Any) -> Handler:
        return lambda it: it.set_ui(key, value)

    @staticmethod
    def focus(field_name: str) -> Handler:
        return lambda it: it.focus(field_name)

    @classmethod
    def confirm(
        cls,
        title: str,
        on_confirm: Handler,
        *,
        message: str = "",
        label: str = "确定",
        confirm_id: str = "confirm",
        danger: bool = False,
        cancel_label: str = "取消",
        cancel_id: str = "cancel",
    ) -> Dialog:
        """A confirmation dialog shown while the screen's `dialog` view state is set: its cancel
        button clears that state, its other button runs `on_confirm` (which closes it)."""
        return Dialog(
            title,
            message=message,
            buttons=[
                Button(cancel_label, cls.set_ui("dialog", None), id=cancel_id, style="secondary"),
                Button(label, on_confirm, id=confirm_id, style="danger" if danger else "primary"),
            ],
        )

    def on_select(self, key: str) -> Callable[[str], Handler]:
        """For Tabs: selecting a tab stores its id under `key` in this screen's view state."""
        return lambda tab_id: self.set_ui(key, tab_id)
