"""The messenger (微信): chats, contacts, moments, shares and its direct tool, exercised through
`Device.act` and the UI tree like an agent would."""

from __future__ import annotations

import time
from collections.abc import Iterable

from phonebuddy.phoneworld.apps.messenger import Messenger
from phonebuddy.phoneworld.apps.messenger.steps import open_messenger, open_private_chat, pull_down
from phonebuddy.phoneworld.apps.messenger.timeline import seeded_time
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World, seeded_rng
from phonebuddy.protocol import Action, CallTool, LongPress, Type

MESSENGER = "com.pw.messenger"


class Phone:
    """Drives a device like an agent; every step must have an effect."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self.ui = OracleUI(device)

    def run(self, actions: Iterable[Action]) -> None:
        for action in actions:  # lazily: oracle steps read the screen between actions
            result = self.device.act(action)
            assert result.effect == "applied", (action, result.note)

    def tap(self, *widget_ids: str) -> None:
        for widget_id in widget_ids:
            self.run([self.ui.tap(widget_id)])

    def type_into(self, widget_id: str, text: str) -> None:
        self.run(self.ui.type_into(widget_id, text))

    def refused(self, action: Action) -> bool:
        return self.device.act(action).effect == "no_op"

    def text(self, widget_id: str) -> str:
        node = self.ui.find(widget_id)
        assert node is not None, widget_id
        return node.text

    def ids(self, prefix: str) -> list[str]:
        wanted = f"{self.device.foreground}:id/{prefix}"
        return [n.resource_id for n in self.ui.find_all() if n.resource_id.startswith(wanted)]

    @property
    def data(self) -> dict:
        return self.device.state["apps"][MESSENGER]


def a_friend(world: World, index: int = 0) -> dict:
    friend = world.content(MESSENGER)["friends"][index]
    return {**friend, "name": friend["remark"] or friend["nickname"]}


def open_profile(phone: Phone, friend_id: str) -> None:
    phone.run(open_messenger(phone.ui))
    phone.tap("tab_contacts")
    phone.run(phone.ui.scroll_to(f"contact_{friend_id}", scroll="contacts"))
    phone.tap(f"contact_{friend_id}")


def test_content_is_rich_fast_and_deterministic() -> None:
    app = Messenger()
    started = time.perf_counter()
    content = app.build_content(seeded_rng("content", 0, MESSENGER))
    assert time.perf_counter() - started < 0.05
    assert content == app.build_content(seeded_rng("content", 0, MESSENGER))
    assert len(content["friends"]) >= 30
    assert len(content["chats"]) >= 20
    assert {c["kind"] for c in content["chats"]} == {"single", "group"}
    assert {f["kind"] for f in content["facts"]} >= {"meeting", "address", "card", "parcel"}
    names = [f["remark"] or f["nickname"] for f in content["friends"]]
    assert len(set(names)) == len(names), "friends are told apart by their shown names"


def test_seeded_history_lies_before_the_device_clock(device: Device) -> None:
    clock = device.state["os"]["clock"]
    content = device.world.content(MESSENGER)
    times = [seeded_time(m["ago"], clock) for c in content["chats"] for m in c["messages"]]
    assert max(times) < clock
    assert min(times) > clock - 30 * 86400


def test_home_lists_chats_and_the_pull_down_shows_recent_mini_programs(device: Device) -> None:
    phone = Phone(device)
    phone.run(open_messenger(phone.ui))
    assert len(phone.ids("chat_")) >= 8
    assert all(phone.ui.visible(f"tab_{tab}") for tab in ("chats", "contacts", "discover", "me"))
    phone.run([pull_down(phone.ui)])
    recent = phone.ids("recent_")
    assert len(recent) == len(phone.data["recent_minis"]) > 0
    phone.run([phone.ui.back()])
    assert phone.ui.visible("tab_chats"), "Back folds the panel away"


def test_sending_in_the_gui_and_with_the_tool_write_the_same_message(world: World) -> None:
    friend = a_friend(world)
    gui, tool = Phone(Device(world, device_id="gui")), Phone(Device(world, device_id="tool"))
    gui.run(open_private_chat(gui.ui, friend["name"], friend["id"]))
    gui.type_into("input", "明天见")
    gui.tap("send")
    tool.run(open_messenger(tool.ui))
    tool.run([CallTool(name="send_message", arguments={"chat": friend["name"], "text": "明天见"})])

    def sent(phone: Phone) -> list[tuple]:
        return [(m["chat"], m["from"], m["kind"], m["text"]) for m in phone.data["messages"]]

    assert sent(gui) == sent(tool) == [(f"p-{friend['id']}", "me", "text", "明天见")]
    last_bubble = gui.ui.find(gui.ids("msg_")[-1])
    assert last_bubble is not None
    assert last_bubble.text == "明天见", "the chat shows it at once"


def test_empty_messages_and_unknown_chats_are_no_ops(device: Device, world: World) -> None:
    phone = Phone(device)
    friend = a_friend(world)
    phone.run(open_private_chat(phone.ui, friend["name"], friend["id"]))
    assert phone.refused(phone.ui.tap("send")), "the send button is disabled while empty"
    unknown = CallTool(name="send_message", arguments={"chat": "没有这个人", "text": "hi"})
    assert phone.refused(unknown)
    assert phone.data["messages"] == []


def test_long_pressing_a_bubble_offers_copy(device: Device, world: World) -> None:
    phone = Phone(device)
    chats = world.content(MESSENGER)["chats"]
    texted = next(c["friend"] for c in chats if c["kind"] == "single" and c["messages"]
                  and c["messages"][-1]["kind"] == "text")  # fmt: skip
    index = next(i for i, f in enumerate(world.content(MESSENGER)["friends"]) if f["id"] == texted)
    friend = a_friend(world, index)
    phone.run(open_private_chat(phone.ui, friend["name"], friend["id"]))
    bubbles = [phone.ui.find(rid) for rid in phone.ids("msg_")]
    bubble = next(b for b in reversed(bubbles) if b and b.class_name.endswith("TextView"))
    phone.run([LongPress(coordinate=phone.ui.tap(bubble.resource_id).coordinate)])
    phone.tap("com.android.systemui:id/menu_copy")
    assert device.state["os"]["clipboard"] == bubble.text


def test_a_remark_renames_the_friend_and_clearing_it_shows_the_nickname(
    device: Device, world: World
) -> None:
    phone = Phone(device)
    friend = a_friend(world)
    open_profile(phone, friend["id"])
    phone.tap("set_remark")
    if phone.text("remark"):
        phone.tap("remark_clear")
    phone.type_into("remark", "羽毛球搭子")
    phone.tap("remark_done")
    assert phone.text("profile_name") == "羽毛球搭子"
    assert phone.data["remarks"] == {friend["id"]: "羽毛球搭子"}
    phone.tap("set_remark", "remark_clear", "remark_done")
    assert phone.text("profile_name") == friend["nickname"]


def test_saving_an_unchanged_remark_changes_nothing(device: Device, world: World) -> None:
    phone = Phone(device)
    open_profile(phone, a_friend(world)["id"])
    phone.tap("set_remark", "remark_done")
    assert phone.data["remarks"] == {}


def test_liking_twice_takes_the_like_back_and_comments_are_kept(device: Device) -> None:
    phone = Phone(device)
    phone.run(open_messenger(phone.ui))
    phone.tap("tab_discover", "discover_moments")
    more = phone.ids("moment_more_")[0].rpartition(":id/")[2]
    moment = more.removeprefix("moment_more_")
    phone.tap(more, f"like_{moment}")
    assert phone.data["moments"]["liked"] == {moment: True}
    assert "阿远" in phone.text(f"likes_{moment}")
    phone.tap(more, f"like_{moment}")
    assert phone.data["moments"]["liked"] == {}
    phone.tap(more, f"comment_{moment}")
    phone.run([Type(text="好看")])
    phone.tap("comment_send")
    comments = [(c["moment"], c["text"]) for c in phone.data["moments"]["comments"]]
    assert comments == [(moment, "好看")]


def test_posting_an_empty_moment_is_refused(device: Device) -> None:
    phone = Phone(device)
    phone.run(open_messenger(phone.ui))
    phone.tap("tab_discover", "discover_moments", "compose")
    assert phone.refused(phone.ui.tap("publish"))
    phone.type_into("moment_text", "周末愉快")
    phone.tap("publish")
    assert [p["text"] for p in phone.data["moments"]["posts"]] == ["周末愉快"]
    assert phone.ui.find(text="周末愉快") is not None, "the feed shows the new post"


def test_a_share_from_another_app_lands_in_the_chosen_chat(device: Device) -> None:
    phone = Phone(device)
    phone.run(open_messenger(phone.ui))
    phone.run([phone.ui.open("备忘录")])
    # No installed app has a share button yet, so the note app's share is started directly.
    Interaction(device, "com.pw.notes").share(
        {"kind": "note", "title": "购物清单", "text": "牛奶、鸡蛋", "source": "备忘录"}
    )
    device.version += 1
    phone.tap("com.android.systemui:id/share_messenger")
    assert device.foreground == MESSENGER
    target = phone.ids("pick_")[0].rpartition(":id/")[2]
    phone.tap(target)
    phone.type_into("share_note", "看看")
    phone.run([phone.ui.back()])  # hide the keyboard
    phone.tap("share_send")
    chat_id = target.removeprefix("pick_")
    sent = [(m["chat"], m["kind"], m["text"]) for m in phone.data["messages"]]
    assert sent == [(chat_id, "card", "购物清单"), (chat_id, "text", "看看")]
    card = next(n for n in phone.ui.find_all() if n.content_desc == "购物清单")
    phone.tap(card.resource_id)
    assert phone.text("card_text") == "牛奶、鸡蛋"


def test_opening_a_chat_clears_its_unread_badge(device: Device) -> None:
    phone = Phone(device)
    phone.run(open_messenger(phone.ui))
    chats = Messenger.directory(Interaction(device, MESSENGER)).chats()
    unread = next(entry for entry in chats if entry.unread)
    phone.run(phone.ui.scroll_to(f"chat_{unread.chat['id']}"))
    phone.tap(f"chat_{unread.chat['id']}")
    assert Messenger.directory(Interaction(device, MESSENGER)).unread(unread.chat) == 0
    assert "read" in Messenger.ignorable, "reading is not a task's effect"
