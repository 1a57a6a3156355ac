"""The mini-program frame: what a mini-program is, and how the messenger hosts it.

A mini-program is a small class with seeded content, data kept under the messenger's data
(`data["mini"][name]`) and pages. Every page is shown by the messenger's single `mini` screen
(params: `program`, `page`, and the page's own arguments), which wraps it in the host's top bar
with the capsule, so the back stack, dialogs and payments are the messenger's own.

    class Coffee(MiniProgram):
        name, title = "coffee", "幸运咖啡"

        @page("home")
        def home(self, v: MiniView) -> MiniPage:
            return MiniPage([ListItem(d["name"], on_tap=v.go("item", drink=d["id"])) ...])

Payments: `self.pay(it, ...)` asks the wallet with the reference "<name>:<ref>"; the messenger
hands the result back to `on_payment_result(it, ref, paid)` of the program that asked.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from phonebuddy.phoneworld.app import View
from phonebuddy.phoneworld.ui.theme import Color
from phonebuddy.phoneworld.ui.widgets import BottomSheet, Dialog, Handler, Widget

if TYPE_CHECKING:
    from phonebuddy.phoneworld.interaction import Interaction
    from phonebuddy.phoneworld.state import Doc

HOST_SCREEN = "mini"
PageFn = Callable[[Any, "MiniView"], "MiniPage"]
# A card a friend may send in a chat: what it opens, and what they say about it.
ChatCard = tuple[dict[str, Any], str]


def page(name: str) -> Callable[[PageFn], PageFn]:
    def mark(fn: PageFn) -> PageFn:
        fn.__mini_page__ = name  # type: ignore[attr-defined]
        return fn

    return mark


@dataclass(slots=True)
class MiniPage:
    """A mini-program page; the host adds the top bar with the capsule."""

    body: Sequence[Widget | None]
    bottom: Widget | None = None
    overlay: Dialog | BottomSheet | None = None
    title: str | None = None  # the program's name when None
    background: Color | None = None
    padding: int = 0
    spacing: int = 0


class MiniView:
    """What a mini-program page reads, and builders of its handlers (mirrors `View`)."""

    def __init__(self, view: View, program: MiniProgram) -> None:
        self.view = view
        self.program = program
        self.params: dict[str, Any] = view.params

    @property
    def data(self) -> dict[str, Any]:
        return self.view.data["mini"][self.program.name]

    @property
    def content(self) -> Any:
        return self.view.content["mini"][self.program.name]

    @property
    def clock(self) -> int:
        return int(self.view.os["clock"])

    def field(self, name: str, default: str = "") -> str:
        return self.view.field(name, default)

    def ui(self, key: str, default: Any = None) -> Any:
        return self.view.ui(key, default)

    def go(self, page_name: str, **args: Any) -> Handler:
        program = self.program
        return lambda it: program.push(it, page_name, **args)

    @staticmethod
    def back() -> Handler:
        return lambda it: it.pop()

    def on_select(self, key: str) -> Callable[[str], Handler]:
        return self.view.on_select(key)

    @staticmethod
    def do(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Handler:
        return lambda it: fn(it, *args, **kwargs)

    @staticmethod
    def set_ui(key: str, value: Any) -> Handler:
        return lambda it: it.set_ui(key, value)

    @staticmethod
    def focus(field_name: str) -> Handler:
        return lambda it: it.focus(field_name)

    @staticmethod
    def confirm(title: str, on_confirm: Handler, **options: Any) -> Dialog:
        """A confirmation dialog (`View.confirm`)."""
        return View.confirm(title, on_confirm, **options)


class MiniProgram:
    """Base class of the mini-programs (see the module docstring)."""

    name: ClassVar[str]
    title: ClassVar[str]
    description: ClassVar[str]
    keywords: ClassVar[tuple[str, ...]]
    glyph: ClassVar[str]
    color: ClassVar[Color]
    home_page: ClassVar[str] = "home"
    pages: ClassVar[dict[str, PageFn]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.pages = {}
        for klass in reversed(cls.__mro__):
            for attr in vars(klass).values():
                if hasattr(attr, "__mini_page__"):
                    cls.pages[attr.__mini_page__] = attr

    # -- seeded content and data ---------------------------------------------------------------
    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return {}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {}

    def cards(self, content: dict[str, Any], rng: random.Random) -> list[ChatCard]:
        """Cards of this program that friends may have sent in chats."""
        return []

    def card(self, title: str, description: str, page_name: str, **args: Any) -> dict[str, Any]:
        return {
            "program": self.name,
            "title": title,
            "description": description,
            "page": page_name,
            "args": args,
        }

    def matches(self, query: str) -> bool:
        """Whether a search in the mini-program list finds this program."""
        wanted = query.strip().lower()
        names = (self.title.lower(), *(k.lower() for k in self.keywords))
        return bool(wanted) and any(wanted in name or name in wanted for name in names)

    # -- for handlers --------------------------------------------------------------------------
    def data(self, it: Interaction) -> Doc:
        return it.data["mini"][self.name]

    def content(self, it: Interaction) -> Any:
        return it.content["mini"][self.name]

    def push(self, it: Interaction, page_name: str, **args: Any) -> None:
        it.push(HOST_SCREEN, program=self.name, page=page_name, **args)

    def replace(self, it: Interaction, page_name: str, **args: Any) -> None:
        it.replace(HOST_SCREEN, program=self.name, page=page_name, **args)

    def pay(self, it: Interaction, *, amount_cents: int, reference: str, description: str) -> None:
        it.request_payment(
            amount_cents=amount_cents,
            merchant=self.title,
            reference=f"{self.name}:{reference}",
            description=description,
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        """The wallet finished a payment this program asked for (`reference` without prefix)."""

    def render(self, view: View) -> MiniPage:
        page_name = view.params.get("page", self.home_page)
        return self.pages[page_name](self, MiniView(view, self))


def find(items: Any, item_id: str) -> Any:
    """The item with this id in a list of records, or None."""
    return next((item for item in items if item["id"] == item_id), None)
