"""The Notes app: editing keeps what was there, tools and GUI write the same note."""

from phonebuddy.phoneworld.device import Device
from phonebuddy.protocol import CallTool, Click, Open, Type, from_pixels


def tap(device: Device, widget_id: str) -> None:
    [node] = device.ui_tree().find(resource_id=f"com.pw.notes:id/{widget_id}")[-1:]
    assert device.act(Click(coordinate=from_pixels(node.bounds.center, device.screen))).effect == (
        "applied"
    )


def test_editing_a_note_appends_to_its_text_and_keeps_the_body(device: Device) -> None:
    device.act(Open(text="备忘录"))
    first = dict(device.state["apps"]["com.pw.notes"]["notes"][0])
    tap(device, f"note_{first['id']}")
    tap(device, "edit")
    tap(device, "title")
    device.act(Type(text="（改）"))
    tap(device, "save")
    [edited] = [n for n in device.state["apps"]["com.pw.notes"]["notes"] if n["id"] == first["id"]]
    assert edited["title"] == first["title"] + "（改）"
    assert edited["body"] == first["body"]


def test_the_create_note_tool_adds_the_same_note_as_the_editor(device: Device) -> None:
    device.act(Open(text="备忘录"))
    result = device.act(CallTool(name="create_note", arguments={"title": "T", "body": "B"}))
    assert result.effect == "applied"
    note = device.state["apps"]["com.pw.notes"]["notes"][0]
    assert (note["title"], note["body"], note["pinned"]) == ("T", "B", False)
    empty = device.act(CallTool(name="create_note", arguments={"title": " ", "body": "B"}))
    assert empty.effect == "no_op"
    assert "needs a title" in empty.note
