"""The Recorder app (录音机) through the action interface: recording with the simulated clock
(pause, resume, stop, name it), the list's search, sort and folders, a recording's page (star,
rename, move, 转文字, copy, share), delete to 最近删除 behind a confirmation, restore and delete
for good, the settings, and what it refuses."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.recorder.base import RECORDER
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Wait


class Driver(testing.Driver):
    scroll_first = True

    @property
    def data(self) -> dict[str, Any]:
        return self.app_state(RECORDER)  # type: ignore[no-any-return]

    def rec(self, rec_id: str) -> dict[str, Any]:
        return next(r for r in self.data["recordings"] if r["id"] == rec_id)

    def shown(self) -> list[str]:
        return sorted(i.removeprefix("rec_") for i in self.ids() if i.startswith("rec_rec"))


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("录音机")
    return driver


def _live(world: World) -> list[Any]:
    return [r for r in world.content(RECORDER)["recordings"] if not r["deleted"]]


def _bin(world: World) -> list[Any]:
    return [r for r in world.content(RECORDER)["recordings"] if r["deleted"]]


def test_recording_takes_its_length_from_the_clock(user: Driver) -> None:
    user.tap("record")
    user.tap("rec_start")
    user.act(Wait(time=20))
    user.tap("rec_pause")
    user.act(Wait(time=30))  # paused: not counted
    user.tap("rec_resume")
    user.act(Wait(time=10))
    user.tap("rec_stop")
    assert user.text("rec_name") == "新录音 1"
    user.tap("rec_save")
    new = user.data["recordings"][0]
    assert new["name"] == "新录音 1"
    assert 30 <= new["duration"] <= 40
    assert user.data["session"] is None
    assert user.text("name") == "新录音 1"


def test_the_save_dialog_refuses_empty_and_taken_names(user: Driver, world: World) -> None:
    taken = _live(world)[0]["name"]
    user.tap("record")
    user.tap("rec_start")
    user.act(Wait(time=5))
    user.tap("rec_stop")
    for bad in ("", taken, "a/b"):
        user.act(user.ui.tap("rec_name"))
        if user.text("rec_name"):
            user.tap("clear_rec_name")
        if bad:
            user.type_into("rec_name", bad)
        assert user.refuse("rec_save")
    user.tap("rec_discard")
    assert user.data["session"] is None
    assert len(user.data["recordings"]) == len(world.content(RECORDER)["recordings"])


def test_search_sort_and_folders(user: Driver, world: World) -> None:
    live = _live(world)
    target = live[3]
    user.type_into("search", target["name"])
    assert user.shown() == [target["id"]]
    user.type_into("search", "不存在")
    assert user.shown() == []
    assert user.visible(text=f"没有找到“{target['name']}不存在”")
    user.tap("clear_search")
    assert len(user.shown()) > 1
    user.tap("folder_课堂")
    assert user.text("count") == f"共{sum(r['folder'] == '课堂' for r in live)}条录音"
    user.tap("sort_duration")
    longest = max((r for r in live if r["folder"] == "课堂"), key=lambda r: r["duration"])
    first = next(i for i in user.ui.find_all() if ":id/rec_rec" in i.resource_id)
    assert first.resource_id.endswith(longest["id"])


def test_a_recordings_page_stars_renames_moves_and_copies(user: Driver, world: World) -> None:
    rec = next(r for r in _live(world) if r["folder"] == "会议记录")
    user.tap(f"rec_{rec['id']}")
    user.tap("star")
    assert user.rec(rec["id"])["starred"] is not rec["starred"]
    user.tap("more")
    user.tap("rename")
    user.act(user.ui.tap("new_name"))
    assert user.refuse("rename_ok")  # unchanged
    user.tap("clear_new_name")
    user.type_into("new_name", "改名后的会议")
    user.tap("rename_ok")
    assert user.rec(rec["id"])["name"] == "改名后的会议"
    user.tap("more")
    user.tap("move")
    assert user.refuse("move_会议记录")
    user.tap("move_灵感")
    assert user.rec(rec["id"])["folder"] == "灵感"
    user.tap("transcribe")
    assert user.text("transcript") == rec["transcript"]
    user.tap("copy_text")
    assert user.device.state["os"]["clipboard"] == rec["transcript"]
    user.tap("forward")
    assert user.text("position").startswith("00:15")
    user.tap("speed_2x")


def test_delete_needs_confirming_then_restore_and_purge(user: Driver, world: World) -> None:
    rec = _live(world)[0]
    user.tap(f"rec_{rec['id']}")
    user.tap("more")
    user.tap("delete")
    user.tap("cancel")
    assert not user.rec(rec["id"])["deleted"]
    user.tap("more")
    user.tap("delete")
    user.tap("confirm_delete")
    assert user.rec(rec["id"])["deleted"]
    user.tap("open_trash")
    user.tap(f"restore_{rec['id']}")
    assert not user.rec(rec["id"])["deleted"]
    gone = _bin(world)[0]
    user.tap(f"trash_{gone['id']}")
    user.tap("cancel")
    assert user.rec(gone["id"])["deleted"]
    user.tap(f"trash_{gone['id']}")
    user.tap("confirm_purge")
    assert all(r["id"] != gone["id"] for r in user.data["recordings"])


def test_share_opens_the_share_sheet(user: Driver, world: World) -> None:
    rec = next(r for r in _live(world) if r["transcript"])
    user.tap(f"rec_{rec['id']}")
    user.tap("share")
    user.tap("share_text")
    overlay = user.device.state["ui"]["overlay"]
    assert overlay["kind"] == "share"
    assert overlay["payload"]["text"] == rec["transcript"]


def test_settings_quality_and_call_recording(user: Driver) -> None:
    user.tap("settings")
    assert user.refuse("quality_standard")
    user.tap("quality_high")
    assert user.data["settings"]["quality"] == "high"
    user.tap("call_recording")
    assert user.data["settings"]["call_recording"] is True
