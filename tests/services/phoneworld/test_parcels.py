"""The Parcels app (快递) through the action interface: tabs and search, a parcel's page with its
pick-up code, confirming pick-up, remarks, deleting, adding by a typed or pasted tracking number
and the track_parcel tool, and what it refuses."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.parcels.app import (
    COURIERS,
    ON_DEVICE,
    PARCELS,
    PICKED_UP,
    SIGNED,
    WAITING,
)
from phonebuddy.phoneworld.apps.parcels.tasks import COURIER_ENGLISH
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import CallTool


class Driver(testing.Driver):
    """Acts like a user and insists that every step has an effect."""

    @property
    def parcels(self) -> list[dict[str, Any]]:
        return self.app_state(PARCELS)["parcels"]  # type: ignore[no-any-return]

    def parcel(self, parcel_id: str) -> dict[str, Any]:
        return next(p for p in self.parcels if p["id"] == parcel_id)

    def shown_parcels(self) -> set[str]:
        return {i.removeprefix("parcel_") for i in self.ids() if i.startswith("parcel_")}

    def open_parcel(self, parcel: dict[str, Any]) -> None:
        self.scroll_to(f"parcel_{parcel['id']}")
        self.tap(f"parcel_{parcel['id']}")
        assert self.text("shop").startswith(parcel["shop"])


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("快递")
    return driver


def _first(user: Driver, status: str) -> dict[str, Any]:
    return dict(next(p for p in user.parcels if p["status"] == status))


def _off_device(world: World) -> list[Any]:
    return list(world.content(PARCELS)["records"][ON_DEVICE:])


def test_tabs_and_search_filter_the_list(user: Driver) -> None:
    waiting = {p["id"] for p in user.parcels if p["status"] == WAITING}
    user.tap("tab_waiting")
    assert user.shown_parcels() == waiting
    user.tap("tab_all")
    target = user.parcels[3]
    user.type_into("search", target["number"][-6:])
    assert user.shown_parcels() == {target["id"]}
    user.type_into("search", "不存在的店")
    assert user.shown_parcels() == set()
    assert user.visible(text="没有找到“" + target["number"][-6:] + "不存在的店”")


def test_confirming_pickup_signs_the_parcel_after_the_dialog(user: Driver) -> None:
    parcel = _first(user, WAITING)
    user.tap("tab_waiting")
    user.open_parcel(parcel)
    assert user.text("pickup_code") == parcel["code"]
    user.tap("confirm_pickup")
    user.tap("cancel")
    assert user.parcel(parcel["id"])["status"] == WAITING
    user.tap("confirm_pickup")
    user.tap("pickup_ok")
    after = user.parcel(parcel["id"])
    assert (after["status"], after["signed_at"]) == (SIGNED, user.device.state["os"]["clock"])
    assert user.text("status") == SIGNED
    assert not user.visible("confirm_pickup")
    assert not user.visible("pickup_code")
    assert user.text("event_0").startswith(PICKED_UP)
    others = [p for p in user.parcels if p["id"] != parcel["id"]]
    assert all(p["signed_at"] is None for p in others)


def test_parcels_not_at_a_station_offer_no_pickup(user: Driver) -> None:
    for status in ("运输中", "派送中", SIGNED):
        parcel = _first(user, status)
        user.open_parcel(parcel)
        assert not user.visible("confirm_pickup")
        assert not user.visible("pickup_code")
        user.back()


def test_a_remark_is_saved_and_an_unchanged_one_is_refused(user: Driver) -> None:
    parcel = _first(user, "运输中")
    user.open_parcel(parcel)
    assert user.text("remark") == "未添加备注"
    user.scroll_to("edit_remark")
    user.tap("edit_remark")
    user.refuse("save_remark")  # still empty: nothing to save
    user.type_into("remark", "  周末再取 ")
    user.tap("save_remark")
    assert user.parcel(parcel["id"])["remark"] == "周末再取"
    assert user.text("remark") == "周末再取"
    user.scroll_to("edit_remark")
    user.tap("edit_remark")
    user.refuse("save_remark")  # the same text again
    assert user.parcel(parcel["id"])["remark"] == "周末再取"


def test_deleting_asks_first(user: Driver) -> None:
    parcel = user.parcels[0]
    user.open_parcel(parcel)
    user.tap("delete")
    user.tap("cancel")
    assert len(user.parcels) == ON_DEVICE
    user.tap("delete")
    user.tap("confirm_delete")
    assert parcel["id"] not in {p["id"] for p in user.parcels}
    assert len(user.parcels) == ON_DEVICE - 1
    assert f"parcel_{parcel['id']}" not in user.ids()


def test_adding_by_a_pasted_sms_finds_the_one_tracking_number(user: Driver, world: World) -> None:
    record = _off_device(world)[0]
    user.tap("add")
    user.type_into("number", f"【顺丰速运】您的商品已发货，运单号{record['number']}，请留意。")
    user.tap("query")
    assert record["number"] in user.text("result_number")
    user.tap("add_parcel")
    assert user.parcels[0]["number"] == record["number"]
    assert user.parcels[0]["id"] == record["id"]
    assert len(user.parcels) == ON_DEVICE + 1
    assert user.text("shop").startswith(record["shop"])
    user.back()
    assert f"parcel_{record['id']}" in user.ids()


def test_looking_up_bad_or_unknown_numbers_is_refused(user: Driver, world: World) -> None:
    user.tap("add")
    user.refuse("query")  # empty
    user.type_into("number", "hello")
    user.refuse("query")
    two = _off_device(world)[:2]
    user.type_into("number", f" {two[0]['number']} {two[1]['number']}")
    user.refuse("query")  # two numbers: which one?
    while not user.visible("add"):  # Back hides the keyboard first, then leaves
        user.back()
    user.tap("add")
    user.type_into("number", "SF9999999999999")
    user.refuse("query")  # no courier knows it
    assert len(user.parcels) == ON_DEVICE


def test_looking_up_a_parcel_already_on_the_phone_opens_it(user: Driver) -> None:
    parcel = user.parcels[2]
    user.tap("add")
    user.type_into("number", parcel["number"].lower())
    user.tap("query")
    assert user.text("shop").startswith(parcel["shop"])
    assert len(user.parcels) == ON_DEVICE


def test_the_track_parcel_tool_adds_like_the_gui(user: Driver, world: World) -> None:
    record = _off_device(world)[1]
    note = user.act(CallTool(name="track_parcel", arguments={"number": record["number"]}))
    assert record["id"] in note
    assert user.parcels[0] == {**dict(record), "events": [dict(e) for e in record["events"]]}
    for bad in (record["number"], "", "not a number"):
        result = user.device.act(CallTool(name="track_parcel", arguments={"number": bad}))
        assert result.effect == "no_op", bad
    assert len(user.parcels) == ON_DEVICE + 1


def test_every_courier_has_the_names_its_answers_accept() -> None:
    assert set(COURIER_ENGLISH) == {courier for courier, *_ in COURIERS}
