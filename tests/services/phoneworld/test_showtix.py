"""The 演出票 (ShowTix) app through the action interface: city, category and search filters,
想看, a show's sessions and tiers (sold-out refusal, the per-order limit), buying with 观演人
for 实名制 shows (refused with too few) and paying in the wallet, adding a 观演人 (a bad ID
refused), 缺货登记, and refunds (a confirmation; refused within 48 hours)."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.showtix.app import SHOWTIX
from phonebuddy.phoneworld.apps.showtix.content import make_id, valid_id
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.payments import WALLET
from phonebuddy.phoneworld.world import World


class Driver(testing.Driver):
    scroll_first = True

    @property
    def data(self) -> dict[str, Any]:
        return self.app_state(SHOWTIX)  # type: ignore[no-any-return]

    def shown(self, prefix: str = "show_") -> set[str]:
        return {i.removeprefix(prefix) for i in self.ids() if i.startswith(prefix)}

    def open_show(self, show: Any) -> None:
        self.type_into("search", show["title"])
        self.tap(f"show_{show['id']}")


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("演出票")
    return driver


def _shows(world: World) -> list[Any]:
    return list(world.content(SHOWTIX)["shows"])


def _on_sale(show: Any) -> tuple[Any, int]:
    for session in show["sessions"]:
        for price in show["tiers"]:
            if price not in session["sold_out"] and price <= 40000:
                return session, price
    raise AssertionError("nothing on sale")


def test_ids_have_valid_checksums(world: World) -> None:
    for person in world.content(SHOWTIX)["viewers"]:
        assert valid_id(person["idno"])
    good = make_id("110105", "19900101", 123)
    assert valid_id(good)
    assert not valid_id(good[:17] + ("0" if good[17] != "0" else "1"))
    assert not valid_id("12345")


def test_city_category_and_search_filter(user: Driver, world: World) -> None:
    in_shanghai = {s["id"] for s in _shows(world) if s["city"] == "上海"}
    user.tap("city_上海")
    assert user.shown() <= in_shanghai
    assert user.shown()
    user.tap("cat_演唱会")
    assert user.shown() <= {s["id"] for s in _shows(world)
                            if s["city"] == "上海" and s["category"] == "演唱会"}  # fmt: skip
    show = _shows(world)[7]
    user.tap("cat_all")
    user.type_into("search", show["title"])
    assert user.shown() == {show["id"]}
    user.type_into("search", "不存在")
    assert user.shown() == set()
    user.tap("clear_search")
    assert not user.visible("clear_search")


def test_want_toggle(user: Driver, world: World) -> None:
    show = next(s for s in _shows(world) if s["id"] not in user.data["want"])
    user.open_show(show)
    user.tap("want")
    assert user.data["want"][0] == show["id"]
    user.tap("want")
    assert show["id"] not in user.data["want"]


def test_sold_out_tier_is_refused_and_can_be_waitlisted(user: Driver, world: World) -> None:
    show, session = next((s, x) for s in _shows(world) for x in s["sessions"] if x["sold_out"])
    price = session["sold_out"][0]
    user.open_show(show)
    user.tap(f"session_{session['id']}")
    user.tap(f"tier_{price // 100}")
    assert not user.visible("buy")
    user.tap("waitlist")
    assert [w["tier"] for w in user.data["waitlist"]] == [price]
    user.refuse("waitlist")


def test_quantity_limit_is_enforced(user: Driver, world: World) -> None:
    show = _shows(world)[0]
    session, price = _on_sale(show)
    user.open_show(show)
    user.tap(f"session_{session['id']}")
    user.tap(f"tier_{price // 100}")
    user.refuse("qty_minus")
    for _ in range(show["limit"] - 1):
        user.tap("qty_plus")
    assert user.text("qty") == f"{show['limit']}张"
    user.refuse("qty_plus")


def test_real_name_show_needs_viewers_then_pays_in_wallet(user: Driver, world: World) -> None:
    show = next(s for s in _shows(world) if s["real_name"] and s["limit"] >= 2
                and _on_sale(s)[1] * 2 <= 80000)  # fmt: skip
    session, price = _on_sale(show)
    user.open_show(show)
    user.tap(f"session_{session['id']}")
    user.tap(f"tier_{price // 100}")
    user.tap("qty_plus")
    user.tap("buy")
    user.refuse("submit")
    user.tap("viewer_v-1")
    user.refuse("submit")
    user.tap("viewer_v-2")
    user.refuse("viewer_v-3")  # two tickets, two viewers at most
    balance = user.app_state(WALLET)["balance_cents"]
    user.tap("submit")
    user.tap(f"{WALLET}:id/pay_confirm")
    order = user.data["orders"][0]
    assert order["status"] == "已付款"
    assert order["viewers"] == ["v-1", "v-2"]
    assert order["total"] == price * 2
    assert len(order["code"]) == 8
    assert user.app_state(WALLET)["balance_cents"] == balance - price * 2
    assert user.text("entry_code") == order["code"]


def test_add_viewer_checks_the_id(user: Driver, world: World) -> None:
    user.tap("tab_me")
    user.tap("my_viewers")
    user.tap("add_viewer")
    user.type_into("name", "赵六")
    good = make_id("510104", "19970704", 321)
    user.type_into("idno", good[:17] + ("1" if good[17] != "1" else "2"))
    user.refuse("save_viewer")
    assert user.visible("viewer_error")
    while user.visible("save_viewer"):  # the first back may only hide the keyboard
        user.back()
    user.tap("add_viewer")
    user.type_into("name", "赵六")
    user.type_into("idno", good)
    count = len(user.data["viewers"])
    user.tap("save_viewer")
    assert len(user.data["viewers"]) == count + 1
    assert user.data["viewers"][-1]["name"] == "赵六"


def test_refund_needs_confirmation_and_48_hours(user: Driver, world: World) -> None:
    later, soon = world.content(SHOWTIX)["orders"]
    user.tap("tab_me")
    user.tap("my_orders")
    user.tap(f"order_{soon['id']}")
    user.refuse("refund")
    user.back()
    user.tap(f"order_{later['id']}")
    user.tap("refund")
    user.tap("cancel")
    assert user.data["orders"][0]["status"] == "已付款"
    user.tap("refund")
    user.tap("confirm_refund")
    order = user.data["orders"][0]
    assert order["status"] == "已退款"
    assert order["refund"] == later["total"] * 80 // 100


def test_sort_by_time_lists_the_soonest_show_first(user: Driver, world: World) -> None:
    in_beijing = [s for s in _shows(world) if s["city"] == "北京"]
    soonest = min(in_beijing, key=lambda s: (min(x["day"] for x in s["sessions"]), s["id"]))
    user.tap("sort_time")
    nodes = [n for n in user.device.ui_tree().walk() if ":id/show_" in n.resource_id]
    rows = sorted((n.bounds.top, n.resource_id.rpartition("show_")[2]) for n in nodes)
    assert rows[0][1] == soonest["id"]


def test_a_cancelled_payment_leaves_the_order_to_pay_later(user: Driver, world: World) -> None:
    show = next(s for s in _shows(world) if not s["real_name"])
    session, price = _on_sale(show)
    user.open_show(show)
    user.tap(f"session_{session['id']}")
    user.tap(f"tier_{price // 100}")
    user.tap("buy")
    user.tap("submit")
    user.tap(f"{WALLET}:id/pay_cancel")
    order = user.data["orders"][0]
    assert order["status"] == "待付款"
    assert order["viewers"] == []
    assert not user.visible("entry_code")
    user.tap("pay_order")
    user.tap(f"{WALLET}:id/pay_confirm")
    assert user.data["orders"][0]["status"] == "已付款"
    assert user.text("order_no").startswith("订单号：")


def test_the_order_page_says_when_refunds_have_closed(user: Driver, world: World) -> None:
    later, soon = world.content(SHOWTIX)["orders"]
    user.tap("tab_me")
    user.tap("my_orders")
    user.tap(f"order_{soon['id']}")
    assert "不支持退票" in user.text("refund_rule")
    assert user.text("entry_code") == soon["code"]
    user.back()
    user.tap(f"order_{later['id']}")
    assert "可退票" in user.text("refund_rule")
