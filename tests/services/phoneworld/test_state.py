"""Device state: app data built on first read, and every copy, diff and rollback of it."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest

from phonebuddy.phoneworld.app import App, Label, View, screen
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import AppData, plain
from phonebuddy.phoneworld.tasks.diff import diff_states
from phonebuddy.phoneworld.ui.widgets import Button, Page, Text
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Click, Open, from_pixels


class Tally(App):
    package = "com.test.tally"
    label = Label(zh="计分", en="Tally")
    domain = "test"

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"score": rng.randrange(100), "log": []}

    def add(self, it: Interaction) -> None:
        it.data["score"] += 1
        it.data["log"].append("add")

    def peek_then_refuse(self, it: Interaction) -> None:
        it.app_data("com.test.shelf")["books"].append("half-done")
        it.no_op("changed my mind")

    @screen("home")
    def home(self, v: View) -> Page:
        return Page("计分", [
            Text(f"score={v.data['score']}", id="score"),
            Button("加一", v.do(self.add), id="add"),
            Button("看书架", v.do(self.peek_then_refuse), id="peek"),
        ])  # fmt: skip


class Shelf(App):
    package = "com.test.shelf"
    label = Label(zh="书架", en="Shelf")
    domain = "test"

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"books": ["a", "b"]}

    @screen("home")
    def home(self, v: View) -> Page:
        return Page("书架", [Text(book) for book in v.data["books"]])


TALLY, SHELF = Tally.package, Shelf.package


@pytest.fixture
def world() -> World:
    return World([Tally(), Shelf()], seed=0)


def built(device: Device) -> set[str]:
    return set(device.state["apps"].built())


def tap(device: Device, widget_id: str) -> str:
    found = device.ui_tree().find(resource_id=f"{TALLY}:id/{widget_id}")
    assert found, widget_id
    point = from_pixels(found[-1].bounds.center, device.screen)
    return device.act(Click(coordinate=point)).effect


def test_a_reset_builds_no_app_until_it_is_read(world: World) -> None:
    device = Device(world)
    apps = device.state["apps"]
    assert built(device) == set()
    assert len(apps) == 2
    assert list(apps) == [TALLY, SHELF]
    assert SHELF in apps
    assert "com.test.missing" not in apps
    assert apps.get("com.test.missing") is None
    assert apps[SHELF] == {"books": ["a", "b"]}
    assert built(device) == {SHELF}
    with pytest.raises(KeyError):
        apps["com.test.missing"]


def test_a_built_app_is_what_a_fresh_device_of_the_seed_holds(world: World) -> None:
    first, second, other_seed = Device(world, seed=3), Device(world, seed=3), Device(world, seed=4)
    first.act(Open(text="计分"))
    assert first.state["apps"][TALLY] == second.state["apps"][TALLY]
    assert first.state["apps"] == second.state["apps"]
    assert dict(first.state["apps"].items()) == dict(second.state["apps"].items())
    # different seeds: compared by content, not by origin
    seeds_differ = world.initial_data(3, TALLY) != world.initial_data(4, TALLY)
    assert (first.state["apps"] != other_seed.state["apps"]) == seeds_differ


def test_snapshot_fork_and_restore_copy_only_what_was_read(world: World) -> None:
    device = Device(world)
    device.act(Open(text="计分"))
    assert tap(device, "add") == "applied"
    snapshot = device.snapshot()
    assert isinstance(snapshot["apps"], AppData)
    assert set(snapshot["apps"].built()) == {TALLY}
    twin = device.fork("twin")
    assert tap(twin, "add") == "applied"
    assert device.state["apps"][TALLY]["score"] + 1 == twin.state["apps"][TALLY]["score"]
    assert snapshot["apps"][TALLY]["log"] == ["add"]  # the snapshot is its own copy
    device.restore(snapshot)
    assert device.state["apps"] == snapshot["apps"]
    assert device.state["apps"][TALLY] is not snapshot["apps"][TALLY]


def test_a_diff_sees_changes_to_read_apps_and_none_in_unread_ones(world: World) -> None:
    device = Device(world)
    before = device.snapshot()
    device.act(Open(text="计分"))
    tap(device, "add")
    device.state["apps"][SHELF]["books"].append("c")  # read only on this side
    after = device.snapshot()
    changes = {c.path: c.kind for c in diff_states(before, after) if not c.path.startswith("os/")}
    assert changes == {
        f"apps/{TALLY}/score": "changed",
        f"apps/{TALLY}/log": "changed",
        f"apps/{SHELF}/books": "changed",
    }
    fresh = Device(world)
    assert diff_states(fresh.snapshot(), Device(world).snapshot()) == []


def test_a_refused_handler_leaves_an_app_it_first_read_pristine(world: World) -> None:
    device = Device(world)
    device.act(Open(text="计分"))
    assert tap(device, "peek") == "no_op"
    assert SHELF not in built(device)
    assert device.state["apps"][SHELF] == {"books": ["a", "b"]}


def test_plain_copies_pickles_and_digests_see_every_app(world: World) -> None:
    device = Device(world)
    digest = device.state_digest()
    text = json.dumps(plain(device.state)["apps"], sort_keys=True)
    assert json.loads(text) == {TALLY: world.initial_data(0, TALLY), SHELF: {"books": ["a", "b"]}}
    assert device.state_digest() == digest  # building every app changed nothing it shows
    restored = pickle.loads(pickle.dumps(device.snapshot()))  # noqa: S301
    assert type(restored["apps"]) is dict
    assert restored["apps"] == device.state["apps"]


def test_the_installed_apps_cannot_be_removed_or_added(world: World) -> None:
    apps = Device(world).state["apps"]
    with pytest.raises(TypeError):
        del apps[TALLY]
    with pytest.raises(TypeError):
        apps.pop(TALLY)
    with pytest.raises(KeyError, match="not installed"):
        apps["com.test.missing"] = {}
    apps[SHELF] = {"books": []}  # replacing an app's data is how `pm clear` works
    assert apps[SHELF] == {"books": []}


def test_clear_app_data_rebuilds_the_pristine_data(world: World) -> None:
    device = Device(world, seed=5)
    device.act(Open(text="计分"))
    tap(device, "add")
    device.clear_app_data(TALLY)
    assert device.state["apps"][TALLY] == world.initial_data(5, TALLY)


def test_a_real_world_reset_builds_nothing_and_a_launch_builds_one_app() -> None:
    from phonebuddy.phoneworld.world import default_world

    device = Device(default_world(0))
    device.observe()  # the launcher reads no app's data
    assert built(device) == set()
    device.act(Open(text="备忘录"))
    device.observe()
    assert built(device) == {"com.pw.notes"}


def test_every_app_builds_the_same_data_whenever_and_in_whatever_order_it_is_read() -> None:
    from phonebuddy.phoneworld.world import default_world

    world = default_world(0)
    forward, backward = Device(world, seed=7), Device(world, seed=7)
    backward.act(Open(text="备忘录"))  # something happens before the others are read
    for package in reversed(world.packages):
        backward.state["apps"][package]
    assert dict(forward.state["apps"].items()) == dict(backward.state["apps"].items())
