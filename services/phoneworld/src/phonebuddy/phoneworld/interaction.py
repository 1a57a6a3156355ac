"""`Interaction`: what a handler may do. It is the only way app data and navigation change."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from phonebuddy.phoneworld.state import Doc

if TYPE_CHECKING:
    from phonebuddy.phoneworld.app import App
    from phonebuddy.phoneworld.device import Device


class NoOp(Exception):  # noqa: N818 (a signal, not an error)
    """Raised by a handler to say the action had no effect; the device records the reason."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class Interaction:
    """A handler's view of the device, scoped to one app (`package`)."""

    def __init__(self, device: Device, package: str) -> None:
        self.device = device
        self.package = package

    # -- data -------------------------------------------------------------------------------
    @property
    def app(self) -> App:
        return self.device.world.app(self.package)

    @property
    def data(self) -> Doc:
        """This app's mutable data."""
        return self.device.state["apps"][self.package]

    @property
    def content(self) -> dict[str, Any]:
        return self.device.world.content(self.package)

    @property
    def os(self) -> Doc:
        return self.device.state["os"]

    @property
    def clock(self) -> int:
        """Simulated time, seconds since the Unix epoch."""
        return int(self.device.state["os"]["clock"])

    def app_data(self, package: str) -> Doc:
        return self.device.state["apps"][package]

    def new_id(self, prefix: str) -> str:
        """A deterministic id, unique on this device."""
        counter = self.device.state["os"]["next_id"]
        self.device.state["os"]["next_id"] = counter + 1
        return f"{prefix}-{counter:05d}"

    def for_app(self, package: str) -> Interaction:
        return Interaction(self.device, package)

    # -- this screen ------------------------------------------------------------------------
    @property
    def entry(self) -> Doc:
        return self.device.top_entry(self.package)

    def field(self, name: str, default: str = "") -> str:
        return str(self.entry["fields"].get(name, default))

    def set_field(self, name: str, value: str) -> None:
        self.entry["fields"][name] = value

    def set_ui(self, key: str, value: Any) -> None:
        self.entry["ui"][key] = value

    def ui(self, key: str, default: Any = None) -> Any:
        return self.entry["ui"].get(key, default)

    def scroll_to_end(self, scroll_id: str = "content") -> None:
        """Show the end of a scroll container of this screen (a chat's newest message); the
        layout clamps the offset to the real end."""
        self.entry.setdefault("scroll", {})[scroll_id] = 10**9

    def focus(self, field_name: str) -> None:
        self.device.state["ui"]["focus"] = {"package": self.package, "field": field_name}

    def unfocus(self) -> None:
        """Take focus away from the text field (the keyboard hides)."""
        self.device.state["ui"]["focus"] = None

    def no_op(self, reason: str) -> NoReturn:
        raise NoOp(reason)

    # -- navigation -------------------------------------------------------------------------
    def push(
        self, screen_name: str, *, fields: dict[str, str] | None = None, **params: Any
    ) -> None:
        """Open a screen of this app; `fields` pre-fill its text fields (e.g. an editor)."""
        self.device.push_screen(self.package, screen_name, params, fields)

    def pop(self) -> None:
        self.device.pop_screen(self.package)

    def replace(
        self, screen_name: str, *, fields: dict[str, str] | None = None, **params: Any
    ) -> None:
        self.device.pop_screen(self.package, allow_exit=False)
        self.device.push_screen(self.package, screen_name, params, fields)

    def reset_to(self, screen_name: str, **params: Any) -> None:
        """Clear this app's back stack and show `screen_name` (e.g. after placing an order)."""
        self.device.reset_stack(self.package, screen_name, params)

    def open_app(
        self,
        package: str,
        screen_name: str | None = None,
        *,
        fields: dict[str, str] | None = None,
        **params: Any,
    ) -> None:
        """Bring another app to the front, optionally on a given screen (a deep link) with its
        text fields pre-filled."""
        self.device.launch(package)
        if screen_name is not None:
            self.device.push_screen(package, screen_name, params, fields)

    # -- OS services ------------------------------------------------------------------------
    def toast(self, text: str) -> None:
        self.device.state["ui"]["toast"] = text

    def copy(self, text: str) -> None:
        self.device.state["os"]["clipboard"] = text
        self.toast("已复制")

    def share(self, payload: dict[str, Any]) -> None:
        """Open the system share sheet for `payload` ({"kind", "text", ...})."""
        self.device.state["ui"]["overlay"] = {
            "kind": "share",
            "payload": payload,
            "from": self.package,
        }

    def notify(self, title: str, text: str, *, screen: str | None = None, **params: Any) -> None:
        """Post a notification from this app; tapping it opens `screen` with `params`."""
        self.device.post_notification(self.package, title, text, screen, params)

    def request_payment(
        self, *, amount_cents: int, merchant: str, reference: str, description: str
    ) -> None:
        """Hand over to the wallet's payment confirmation; it calls back `on_payment_result`."""
        self.device.request_payment(
            self.package,
            {
                "amount_cents": amount_cents,
                "merchant": merchant,
                "reference": reference,
                "description": description,
            },
        )
