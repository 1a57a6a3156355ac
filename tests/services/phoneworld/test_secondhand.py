"""The 闲置 app (Secondhand) through the action interface: the feed's categories, search with
sort and filters, 我想要, chat and offers (refused when not below the asking price), buying
through the wallet with an address, sold listings refusing purchase, confirming receipt,
publishing (with its validation) and managing one's own listings."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.secondhand.base import SECONDHAND
from phonebuddy.phoneworld.apps.secondhand.content import ME
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.payments import WALLET
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import CallTool


class Driver(testing.Driver):
    scroll_first = True

    @property
    def data(self) -> dict[str, Any]:
        return self.app_state(SECONDHAND)  # type: ignore[no-any-return]

    def refuse(self, widget_id: str) -> str:
        self.scroll_to(widget_id)
        return super().refuse(widget_id)

    def listing(self, listing_id: str) -> dict[str, Any] | None:
        return next((x for x in self.data["listings"] if x["id"] == listing_id), None)

    def shown(self, prefix: str) -> list[str]:
        rid = f"{SECONDHAND}:id/{prefix}_"
        walk = self.device.ui_tree().walk()
        return [n.resource_id.removeprefix(rid) for n in walk if n.resource_id.startswith(rid)]

    def open_listing(self, listing: dict[str, Any]) -> None:
        self.tap("search_open")
        self.type_into("query", listing["title"])
        self.tap(f"result_{listing['id']}")


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("闲置")
    return driver


def _listings(world: World) -> list[Any]:
    return list(world.content(SECONDHAND)["listings"])


def _on_sale(world: World) -> list[Any]:
    return [x for x in _listings(world) if not x["sold"] and x["seller"] != ME]


def test_feed_categories(user: Driver, world: World) -> None:
    user.tap("cat_自行车")
    bikes = {x["id"] for x in _listings(world) if x["category"] == "自行车"}
    assert set(user.shown("feed")) <= bikes
    for listing_id in sorted(bikes):
        user.scroll_to(f"feed_{listing_id}")


def test_search_sorts_and_filters(user: Driver, world: World) -> None:
    user.tap("search_open")
    user.type_into("query", "自行车")
    user.tap("sort_price_asc")
    shown = user.shown("result")
    prices = [user.listing(i)["price"] for i in shown]  # type: ignore[index]
    assert shown
    assert prices == sorted(prices)
    user.tap("sort_price_desc")
    prices = [user.listing(i)["price"] for i in user.shown("result")]  # type: ignore[index]
    assert prices == sorted(prices, reverse=True)
    user.tap("filter_free_ship")
    assert all(user.listing(i)["shipping"] == 0 for i in user.shown("result"))  # type: ignore[index]
    user.tap("city_杭州")
    sellers = {s["id"]: s for s in world.content(SECONDHAND)["sellers"]}
    for i in user.shown("result"):
        assert sellers[user.listing(i)["seller"]]["city"] == "杭州"  # type: ignore[index]
    user.type_into("query", "不存在的东西")
    assert user.shown("result") == []


def test_want_toggles(user: Driver, world: World) -> None:
    listing = next(x for x in _on_sale(world)
                   if x["id"] not in world.content(SECONDHAND)["favourites"])  # fmt: skip
    user.open_listing(listing)
    user.tap("want")
    assert user.data["favourites"][0] == {"id": listing["id"]}
    user.tap("want")
    assert all(f["id"] != listing["id"] for f in user.data["favourites"])


def test_chat_and_offers_are_validated(user: Driver, world: World) -> None:
    listing = _on_sale(world)[0]
    user.open_listing(listing)
    user.tap("chat")
    user.refuse("send")  # empty
    user.type_into("chat_input", "你好，还在吗？")
    user.tap("send")
    user.tap("offer")
    user.tap("offer_cancel")
    user.tap("offer")
    user.type_into("offer_price", str(listing["price"] // 100))
    user.refuse("offer_send")  # not below the asking price
    assert user.visible("offer_error")
    user.type_into("offer_price", "abc")
    user.refuse("offer_send")
    user.tap("offer_cancel")
    user.tap("offer")
    user.type_into("offer_price", "0")
    user.refuse("offer_send")
    user.tap("offer_cancel")
    user.tap("offer")
    user.type_into("offer_price", "5")
    user.tap("offer_send")
    thread = next(t for t in user.data["threads"] if t["listing"] == listing["id"])
    assert thread["messages"][0]["text"] == "你好，还在吗？"
    assert thread["messages"][-1]["offer"] == 500


def test_buying_pays_in_the_wallet_with_the_chosen_address(user: Driver, world: World) -> None:
    # A fresh wallet holds at least 800 yuan.
    listing = next(x for x in _on_sale(world) if x["shipping"] and x["price"] < 70000)
    balance = user.app_state(WALLET)["balance_cents"]
    user.open_listing(listing)
    user.tap("buy")
    user.tap("address")
    user.tap("address_a-2")
    total = listing["price"] + listing["shipping"]
    assert user.text("confirm_total").endswith(str(total // 100))
    user.tap("submit")
    user.act(user.ui.tap("com.pw.wallet:id/pay_cancel"))
    order = user.data["orders"][0]
    assert (order["status"], order["address_id"]) == ("unpaid", "a-2")
    user.tap("submit")
    user.act(user.ui.tap("com.pw.wallet:id/pay_confirm"))
    assert len(user.data["orders"]) == len(world.content(SECONDHAND)["orders"]) + 1
    assert user.data["orders"][0]["status"] == "to_ship"
    assert user.listing(listing["id"])["sold"]  # type: ignore[index]
    assert user.app_state(WALLET)["balance_cents"] == balance - total


def test_sold_listings_refuse_purchase(user: Driver, world: World) -> None:
    sold = next(x for x in _listings(world) if x["sold"])
    user.tap(f"cat_{sold['category']}")
    user.tap(f"feed_{sold['id']}")
    user.refuse("buy")


def test_confirming_receipt_needs_the_dialog(user: Driver) -> None:
    order = next(o for o in user.data["orders"] if o["status"] == "to_receive")
    user.tap("tab_me")
    user.tap("my_orders")
    user.tap(f"receive_{order['id']}")
    user.tap("cancel")
    assert order["status"] == "to_receive"
    user.tap(f"receive_{order['id']}")
    user.tap("confirm_receive")
    assert next(o for o in user.data["orders"] if o["id"] == order["id"])["status"] == "done"


def test_publishing_a_listing(user: Driver) -> None:
    user.tap("sell_open")
    user.refuse("publish")
    assert user.text("sell_error") == "请填写宝贝标题"
    user.type_into("sell_title", "二手吉他")
    user.type_into("sell_desc", "民谣吉他，送琴包")
    user.refuse("publish")
    assert user.text("sell_error") == "请输入正确的价格"
    user.type_into("sell_price", "350")
    user.refuse("publish")  # no category
    user.tap("pick_数码")
    user.tap("cond_0")
    user.tap("free_ship")
    user.refuse("publish")  # no shipping fee
    user.type_into("sell_shipping", "12")
    user.tap("publish")
    listing = user.data["listings"][-1]
    got = [listing[k] for k in ("title", "price", "category", "shipping", "condition", "seller")]
    assert got == ["二手吉他", 35000, "数码", 1200, "全新", ME]
    assert user.text("title") == "二手吉他"


def test_managing_own_listings(user: Driver) -> None:
    user.tap("tab_me")
    user.tap("my_listings")
    user.tap("mine_m-1")
    user.refuse("save_price")
    user.type_into("new_price", "99")
    user.tap("save_price")
    assert user.listing("m-1")["price"] == 9900  # type: ignore[index]
    user.type_into("new_price", "99")
    user.refuse("save_price")  # the same price
    user.tap("mark_sold")
    user.tap("cancel")
    assert not user.listing("m-1")["sold"]  # type: ignore[index]
    user.tap("mark_sold")
    user.tap("confirm_sold")
    assert user.listing("m-1")["sold"]  # type: ignore[index]
    user.back()
    if user.visible("manage_title"):  # the first back hid the keyboard
        user.back()
    user.tap("mine_m-2")
    user.tap("take_down")
    user.tap("cancel")
    assert user.listing("m-2") is not None
    user.tap("take_down")
    user.tap("confirm_take_down")
    assert user.listing("m-2") is None
    assert not user.visible("mine_m-2")


def test_direct_tools_search_and_want(user: Driver, world: World) -> None:
    note = user.act(CallTool(name="search_listings", arguments={"query": "自行车"}))
    bikes = sorted((x for x in _on_sale(world) if x["category"] == "自行车"),
                   key=lambda x: (x["price"], x["id"]))  # fmt: skip
    assert note.startswith(f"{bikes[0]['id']} {bikes[0]['title']}")
    listing = next(x for x in _on_sale(world)
                   if x["id"] not in world.content(SECONDHAND)["favourites"])  # fmt: skip
    user.act(CallTool(name="toggle_want", arguments={"listing_id": listing["id"]}))
    assert user.data["favourites"][0] == {"id": listing["id"]}
    result = user.device.act(CallTool(name="toggle_want", arguments={"listing_id": "m-1"}))
    assert result.effect == "no_op"  # one's own listing
