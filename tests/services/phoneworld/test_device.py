"""The simulated OS and device: navigation, system overlays, input, determinism, bad input.

Framework features are exercised with small apps defined here, so these tests do not depend on
any real app's screens."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.gym_env import ActionSpace
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import Button, ListItem, Page, Text, TextField
from phonebuddy.phoneworld.world import World, default_world
from phonebuddy.protocol import (
    Action,
    CallTool,
    Click,
    Key,
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

PRIMARY = (200, 30, 60)


class Counter(App):
    package = "com.test.counter"
    label = Label(zh="计数器", en="Counter")
    domain = "test"
    theme = AppTheme(primary=PRIMARY)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"count": 0, "items": [f"item {i}" for i in range(40)], "sent": []}

    def increment(self, it: Interaction) -> None:
        it.data["count"] += 1

    def send(self, it: Interaction) -> None:
        text = it.field("message")
        if not text:
            it.no_op("nothing to send")
        it.data["sent"].append(text)
        it.set_field("message", "")

    @screen("home")
    def home(self, v: View) -> Page:
        return Page(
            "计数器",
            [
                Text(f"count={v.data['count']}", id="count"),
                Button("加一", v.do(self.increment), id="increment"),
                Button("详情", v.go("detail"), id="open_detail"),
                Button("分享", v.do(lambda it: it.share({"kind": "text", "text": "hi"})),
                       id="share"),
                TextField("message", v.field("message"), "消息", on_focus=v.focus("message"),
                          on_submit=v.do(self.send)),
                *[ListItem(item, id=f"row_{i}") for i, item in enumerate(v.data["items"])],
            ],
        )  # fmt: skip

    @screen("detail")
    def detail(self, v: View) -> Page:
        return Page("详情", [Text("detail page", id="detail_text")], on_back=v.back())

    @tool("increment", "Add one", {"times": int})
    def increment_tool(self, it: Interaction, times: int) -> str:
        for _ in range(times):
            self.increment(it)
        return f"count is {it.data['count']}"


class Inbox(App):
    package = "com.test.inbox"
    label = Label(zh="收件箱", en="Inbox")
    domain = "test"
    accepts_shares = True
    permissions = ("location",)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"received": []}

    def receive_share(self, it: Interaction, payload: dict[str, Any]) -> None:
        it.data["received"].append(payload["text"])

    @screen("home")
    def home(self, v: View) -> Page:
        return Page("收件箱", [Text(t) for t in v.data["received"]])


@pytest.fixture(scope="module")
def test_world() -> World:
    return World([Counter(), Inbox()], seed=0)


@pytest.fixture
def phone(test_world: World) -> Device:
    return Device(test_world)


def node(device: Device, widget_id: str) -> UINode:
    found = device.ui_tree().find(resource_id=widget_id)
    assert found, f"{widget_id} not on screen"
    return found[-1]


def tap(device: Device, widget_id: str) -> str:
    center = node(device, widget_id).bounds.center
    result = device.act(Click(coordinate=from_pixels(center, device.screen)))
    return result.effect


def test_open_tap_and_back_navigate_the_app_stack(phone: Device) -> None:
    assert phone.act(Open(text="计数器")).effect == "applied"
    assert tap(phone, "com.test.counter:id/increment") == "applied"
    assert phone.state["apps"]["com.test.counter"]["count"] == 1
    tap(phone, "com.test.counter:id/open_detail")
    assert phone.ui_tree().find(resource_id="com.test.counter:id/detail_text")
    phone.act(SystemButton(button=SystemButtonName.BACK))
    assert phone.ui_tree().find(resource_id="com.test.counter:id/count")
    phone.act(SystemButton(button=SystemButtonName.BACK))
    assert phone.foreground is None  # back from the app's first screen goes home


def test_home_keeps_the_app_stack_and_open_returns_to_it(phone: Device) -> None:
    phone.act(Open(text="Counter"))
    tap(phone, "com.test.counter:id/open_detail")
    phone.act(SystemButton(button=SystemButtonName.HOME))
    assert phone.foreground is None
    phone.act(Open(text="com.test.counter"))
    assert phone.ui_tree().find(resource_id="com.test.counter:id/detail_text")


def test_launcher_icons_open_apps(phone: Device) -> None:
    assert tap(phone, "com.pw.launcher:id/icon_counter") == "applied"
    assert phone.foreground == "com.test.counter"


def test_typing_needs_a_focused_field_and_enter_submits(phone: Device) -> None:
    phone.act(Open(text="计数器"))
    result = phone.act(Type(text="hello"))
    assert result.effect == "no_op"
    assert "no text field has focus" in result.note
    tap(phone, "com.test.counter:id/message")
    assert phone.act(Type(text="a; rm -rf / && $(reboot) 'x\" \\")).effect == "applied"
    assert node(phone, "com.test.counter:id/message").text == "a; rm -rf / && $(reboot) 'x\" \\"
    phone.act(Key(text="KEYCODE_DEL"))
    phone.act(SystemButton(button=SystemButtonName.ENTER))
    assert phone.state["apps"]["com.test.counter"]["sent"] == ["a; rm -rf / && $(reboot) 'x\" "]


def test_on_screen_keyboard_keys_type_like_the_type_action(phone: Device) -> None:
    phone.act(Open(text="计数器"))
    tap(phone, "com.test.counter:id/message")
    for key in ("key_h", "key_i", "key_space", "key_delete", "key_enter"):
        tap(phone, f"com.pw.keyboard:id/{key}")
    assert phone.state["apps"]["com.test.counter"]["sent"] == ["hi"]


def test_back_hides_the_keyboard_before_leaving_the_screen(phone: Device) -> None:
    phone.act(Open(text="计数器"))
    tap(phone, "com.test.counter:id/message")
    assert phone.ui_tree().find(resource_id="com.pw.keyboard:id/key_a")
    phone.act(SystemButton(button=SystemButtonName.BACK))
    assert not phone.ui_tree().find(resource_id="com.pw.keyboard:id/key_a")
    assert phone.foreground == "com.test.counter"


def test_swipes_scroll_the_list_until_its_end(phone: Device) -> None:
    phone.act(Open(text="计数器"))
    assert not phone.ui_tree().find(resource_id="com.test.counter:id/row_39")
    for _ in range(30):
        result = phone.act(Swipe(direction="up"))
        if result.effect == "no_op":
            break
    assert result.note == "already scrolled to the end"
    assert phone.ui_tree().find(resource_id="com.test.counter:id/row_39")
    assert not phone.ui_tree().find(resource_id="com.test.counter:id/increment")


def test_notification_shade_toggles_settings(phone: Device) -> None:
    phone.act(Swipe(coordinate=(500, 5), coordinate2=(500, 600)))
    assert phone.state["ui"]["overlay"] == {"kind": "shade"}
    before = phone.state["os"]["settings"]["bluetooth"]
    tap(phone, "com.android.systemui:id/qs_bluetooth")
    assert phone.state["os"]["settings"]["bluetooth"] is not before
    phone.act(SystemButton(button=SystemButtonName.BACK))
    assert phone.state["ui"]["overlay"] is None


def test_recents_switch_between_apps(phone: Device) -> None:
    phone.act(Open(text="计数器"))
    phone.act(Open(text="收件箱"))
    tap(phone, "com.android.systemui:id/permission_allow")
    phone.act(SystemButton(button=SystemButtonName.MENU))
    tap(phone, "com.android.systemui:id/recent_counter")
    assert phone.foreground == "com.test.counter"


def test_permission_is_asked_once_and_remembered(phone: Device) -> None:
    phone.act(Open(text="收件箱"))
    assert node(phone, "com.android.systemui:id/permission_dialog")
    tap(phone, "com.android.systemui:id/permission_deny")
    assert phone.state["os"]["permissions"]["com.test.inbox"] == {"location": False}
    phone.act(SystemButton(button=SystemButtonName.HOME))
    phone.act(Open(text="收件箱"))
    assert not phone.ui_tree().find(resource_id="com.android.systemui:id/permission_dialog")


def test_share_sheet_delivers_to_the_chosen_app(phone: Device) -> None:
    phone.act(Open(text="计数器"))
    tap(phone, "com.test.counter:id/share")
    assert tap(phone, "com.android.systemui:id/share_inbox") == "applied"
    assert phone.foreground == "com.test.inbox"
    assert phone.state["apps"]["com.test.inbox"]["received"] == ["hi"]


def test_long_press_copies_text_and_paste_fills_the_focused_field(phone: Device) -> None:
    phone.act(Open(text="计数器"))
    center = node(phone, "com.test.counter:id/count").bounds.center
    phone.act(LongPress(coordinate=from_pixels(center, phone.screen)))
    tap(phone, "com.android.systemui:id/menu_copy")
    assert phone.state["os"]["clipboard"] == "count=0"
    tap(phone, "com.test.counter:id/message")
    field = node(phone, "com.test.counter:id/message").bounds.center
    phone.act(LongPress(coordinate=from_pixels(field, phone.screen)))
    tap(phone, "com.android.systemui:id/menu_paste")
    assert node(phone, "com.test.counter:id/message").text == "count=0"


def test_the_text_menu_of_a_field_clears_it_and_refuses_when_nothing_can_change(
    phone: Device,
) -> None:
    phone.act(Open(text="计数器"))
    tap(phone, "com.test.counter:id/message")
    field = from_pixels(node(phone, "com.test.counter:id/message").bounds.center, phone.screen)
    assert phone.act(LongPress(coordinate=field)).effect == "no_op"  # no clipboard, no text
    phone.act(Type(text="typo"))
    phone.act(LongPress(coordinate=field))
    tap(phone, "com.android.systemui:id/menu_clear")
    assert node(phone, "com.test.counter:id/message").text == ""
    phone.act(Type(text="right"))
    assert node(phone, "com.test.counter:id/message").text == "right"
    for action in OracleUI(phone).clear("message"):  # the oracles' and drivers' step
        assert phone.act(action).effect == "applied"
    assert node(phone, "com.test.counter:id/message").text == ""


def test_direct_tools_write_the_same_state_as_the_gui(phone: Device, test_world: World) -> None:
    phone.act(Open(text="计数器"))
    assert [t.name for t in phone.observe()[0].tools] == ["increment"]
    result = phone.act(CallTool(name="increment", arguments={"times": 2}))
    assert result.note == "count is 2"
    gui = Device(test_world)
    gui.act(Open(text="计数器"))
    tap(gui, "com.test.counter:id/increment")
    tap(gui, "com.test.counter:id/increment")
    assert gui.state["apps"] == phone.state["apps"]


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (Click(coordinate=(500, 999)), "nothing to tap"),
        (Open(text="Snapchat"), "unknown app 'Snapchat'"),
        (Type(text="x"), "no text field has focus"),
        (Key(text="VOLUME_UP"), "key VOLUME_UP does nothing"),
        (SystemButton(button=SystemButtonName.ENTER), "no focused field"),
        (CallTool(name="increment", arguments={"times": 1}), "no app is open"),
        (Swipe(direction="left"), "nothing scrolls sideways"),
    ],
)
def test_actions_without_effect_are_recorded_no_ops(
    phone: Device, action: Action, reason: str
) -> None:
    before = phone.snapshot()["apps"]
    result = phone.act(action)
    assert result.effect == "no_op"
    assert reason in result.note
    assert phone.state["apps"] == before


def test_bad_tool_arguments_are_a_no_op_with_the_reason(phone: Device) -> None:
    phone.act(Open(text="计数器"))
    result = phone.act(CallTool(name="increment", arguments={"times": "2", "x": 1}))
    assert result.effect == "no_op"
    assert "times must be int" in result.note
    assert "unknown arguments ['x']" in result.note
    assert phone.act(CallTool(name="explode", arguments={})).effect == "no_op"


def test_same_seed_and_actions_give_identical_screens_and_state(test_world: World) -> None:
    space = ActionSpace(seed=7)
    actions = [space.sample() for _ in range(80)]
    runs = []
    for _ in range(2):
        device = Device(test_world, seed=3)
        frames = []
        for action in actions:
            device.act(action)
            frames.append(device.frame("png").ref.sha256)
        runs.append((frames, device.state_digest()))
    assert runs[0] == runs[1]


def test_fork_and_restore_are_independent_copies(phone: Device) -> None:
    phone.act(Open(text="计数器"))
    snapshot = phone.snapshot()
    twin = phone.fork("twin")
    tap(phone, "com.test.counter:id/increment")
    assert twin.state["apps"]["com.test.counter"]["count"] == 0
    assert tap(twin, "com.test.counter:id/increment") == "applied"
    phone.restore(snapshot)
    assert phone.state["apps"]["com.test.counter"]["count"] == 0
    assert twin.state["apps"]["com.test.counter"]["count"] == 1


def test_wait_advances_the_simulated_clock(phone: Device) -> None:
    start = phone.state["os"]["clock"]
    phone.act(Wait(time=10))
    assert phone.state["os"]["clock"] == start + 10
    assert phone.device_time().startswith("2026-")


def test_rendered_pixels_match_the_layout(phone: Device) -> None:
    phone.act(Open(text="计数器"))
    image = Image.open(io.BytesIO(phone.frame("png").data)).convert("RGB")
    assert image.size == (1080, 2400)
    toolbar = node(phone, "com.test.counter:id/toolbar_title").bounds
    assert image.getpixel((toolbar.right - 5, toolbar.bottom - 5)) == PRIMARY
    button = node(phone, "com.test.counter:id/increment").bounds
    assert image.getpixel((button.left + 80, button.center[1])) == PRIMARY
    assert image.getpixel((button.left + 80, button.top - 3)) == (245, 245, 245)  # background


@pytest.mark.parametrize("package", [app.package for app in default_world(0).apps])
def test_random_actions_never_crash_an_app_and_replay_identically(
    world: World, package: str
) -> None:
    space = ActionSpace(seed=sum(map(ord, package)))
    actions: list[Action] = [Open(text=package), *(space.sample() for _ in range(60))]
    runs = []
    for _ in range(2):
        device = Device(world)
        frames = []
        for action in actions:
            device.act(action)
            frames.append(device.frame("jpeg").ref.sha256)
        runs.append((frames, device.state_digest()))
    assert runs[0] == runs[1]


def test_a_handler_that_gives_up_leaves_no_half_done_change(test_world: World) -> None:
    class Careless(Counter):
        def increment(self, it: Interaction) -> None:
            it.data["count"] += 1
            it.no_op("changed my mind")

    device = Device(World([Careless()], seed=0))
    device.act(Open(text="计数器"))
    result = device.act(
        Click(
            coordinate=from_pixels(
                node(device, "com.test.counter:id/increment").bounds.center, device.screen
            )
        )
    )
    assert result.effect == "no_op"
    assert device.state["apps"]["com.test.counter"]["count"] == 0


def test_element_actions_tap_the_listed_element_and_a_missing_one_is_a_no_op(device) -> None:
    from phonebuddy.protocol import Click, Type, screen_elements

    listed = screen_elements(device.ui_tree(), device.screen)
    notes = next(e.index for e in listed if e.label == "备忘录")
    assert device.act(Click(element=notes)).effect == "applied"
    assert device.foreground == "com.pw.notes"
    result = device.act(Click(element=63))
    assert result.effect == "no_op"
    assert "element 63 is not on the screen" in result.note
    [button] = device.ui_tree().find(resource_id="com.pw.notes:id/new_note")
    device.act(Click(coordinate=from_pixels(button.bounds.center, device.screen)))
    [title] = device.ui_tree().find(resource_id="com.pw.notes:id/title")
    point = from_pixels(title.bounds.center, device.screen)
    assert device.act(Type(text="计划", coordinate=point)).effect == "applied"
    [title] = device.ui_tree().find(resource_id="com.pw.notes:id/title")
    assert title.text == "计划"
