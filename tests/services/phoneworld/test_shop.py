"""The Shop app through the action interface: first-run friction, search with sort and price
filters, the SKU sheet, the cart, the tools that share the GUI's handlers, and checkout paid
(or not) in the wallet."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.shop.content import default_options, sku_price
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.testing import ALLOW
from phonebuddy.protocol import CallTool, Type

SHOP = "com.pw.shop"
WALLET = "com.pw.wallet"


class Driver(testing.Driver):
    """Acts like a user, one step at a time, and insists that every step has an effect."""

    def open_shop(self) -> None:
        self.open("购物")
        if self.ui.visible("coupon_popup_close"):
            self.tap("coupon_popup_close")

    def search(self, query: str) -> None:
        self.tap("search_box")
        self.act(Type(text=query))
        self.tap("search_go")

    def open_product(self, product: dict[str, Any]) -> None:
        self.search(product["name"])
        self.scroll_to(f"product_{product['id']}")
        self.tap(f"product_{product['id']}")

    def ids(self, prefix: str = "") -> list[str]:  # type: ignore[override]
        found = (n.resource_id.rpartition(":id/")[2] for n in self.device.ui_tree().walk())
        return [rid for rid in found if rid and rid.startswith(prefix)]


def shop_data(device: Device) -> dict[str, Any]:
    return device.state["apps"][SHOP]


def product_with_options(device: Device) -> dict[str, Any]:
    """A product whose first option group has a pricier second option."""
    return next(
        dict(p)
        for p in device.world.content(SHOP)["products"]
        if p["skus"] and p["skus"][0]["options"][1]["delta_cents"] > 0 and p["price_cents"] < 30000
    )


def test_first_open_asks_for_notifications_then_shows_the_coupon_pop_up_once(
    device: Device,
) -> None:
    user = Driver(device)
    user.act(user.ui.open("购物"))
    assert user.ui.visible(ALLOW)
    user.tap(ALLOW)
    assert "coupon_popup_ok" in user.ids()
    user.tap("coupon_popup_ok")
    assert shop_data(device)["coupon_popup_seen"] is True
    user.act(user.ui.back())  # leaves the app
    user.act(user.ui.open("购物"))
    assert "coupon_popup_ok" not in user.ids()
    assert "search_box" in user.ids()


def test_results_sort_by_price_and_filter_by_price_band(device: Device) -> None:
    user = Driver(device)
    user.open_shop()
    user.search("耳机")
    user.tap("sort_price_asc")
    catalogue = {p["id"]: p for p in device.world.content(SHOP)["products"]}
    shown = [rid.removeprefix("product_") for rid in user.ids("product_")]
    prices = [catalogue[pid]["price_cents"] for pid in shown]
    assert len(prices) >= 3
    assert prices == sorted(prices)
    user.tap("price_50_200")
    banded = [catalogue[rid.removeprefix("product_")] for rid in user.ids("product_")]
    assert banded
    assert all(5000 <= p["price_cents"] < 20000 for p in banded)


def test_the_sku_sheet_prices_the_chosen_options_and_keeps_quantity_at_least_one(
    device: Device,
) -> None:
    user = Driver(device)
    product = product_with_options(device)
    user.open_shop()
    user.open_product(product)
    user.tap("choose_sku")
    assert user.ui.find("sheet_price").text == f"¥{product['price_cents'] / 100:.2f}"
    user.tap("sku_0_1")
    first_group = product["skus"][0]
    options = {**default_options(product), first_group["name"]: first_group["options"][1]["label"]}
    assert user.ui.find("sheet_price").text == f"¥{sku_price(product, options) / 100:.2f}"
    before = device.snapshot()["apps"]
    assert device.act(user.ui.tap("qty_minus")).effect == "no_op"
    assert device.snapshot()["apps"] == before


def test_the_add_to_cart_tool_writes_what_the_gui_writes(world: Any) -> None:
    product = product_with_options(Device(world))
    by_gui, by_tool = Device(world), Device(world)
    user = Driver(by_gui)
    user.open_shop()
    user.open_product(product)
    user.tap("add_to_cart")
    user.tap("qty_plus")
    user.tap("sheet_confirm")
    tool_user = Driver(by_tool)
    tool_user.open_shop()
    note = tool_user.act(
        CallTool(name="add_to_cart", arguments={"product_id": product["id"], "quantity": 2})
    )
    assert product["name"] in note
    assert shop_data(by_gui)["cart"] == shop_data(by_tool)["cart"]
    assert shop_data(by_gui)["cart"][0]["options"] == default_options(product)


def test_adding_the_same_sku_again_merges_into_one_cart_line(device: Device) -> None:
    user = Driver(device)
    product = product_with_options(device)
    user.open_shop()
    lines = len(shop_data(device)["cart"])
    for _ in range(2):
        user.act(
            CallTool(name="add_to_cart", arguments={"product_id": product["id"], "quantity": 1})
        )
    assert len(shop_data(device)["cart"]) == lines + 1
    assert shop_data(device)["cart"][0]["quantity"] == 2
    unknown = device.act(
        CallTool(name="add_to_cart", arguments={"product_id": "p999", "quantity": 1})
    )
    assert unknown.effect == "no_op"


def test_the_search_tool_lists_ids_names_and_prices(device: Device) -> None:
    user = Driver(device)
    user.open_shop()
    note = user.act(CallTool(name="search_products", arguments={"query": "每日坚果"}))
    assert "每日坚果" in note
    assert note.startswith("p")
    assert "¥" in note
    assert "没有找到" in user.act(CallTool(name="search_products", arguments={"query": "火箭"}))


def test_cart_quantity_remove_and_checkout_need_a_selection(device: Device) -> None:
    user = Driver(device)
    user.open_shop()
    user.tap("tab_cart")
    line = dict(shop_data(device)["cart"][0])
    assert device.act(user.ui.tap("checkout")).effect == "no_op"  # nothing ticked yet
    user.tap(f"plus_{line['id']}")
    assert shop_data(device)["cart"][0]["quantity"] == line["quantity"] + 1
    user.tap(f"remove_{line['id']}")
    user.tap("remove_cancel")
    assert len(shop_data(device)["cart"]) == 4
    user.tap(f"remove_{line['id']}")
    user.tap("remove_confirm")
    assert line["id"] not in [entry["id"] for entry in shop_data(device)["cart"]]


def test_an_unpaid_order_stays_pending_and_can_be_paid_from_its_page(device: Device) -> None:
    user = Driver(device)
    product = product_with_options(device)
    balance = device.state["apps"][WALLET]["balance_cents"]
    user.open_shop()
    user.open_product(product)
    user.tap("buy_now")
    user.tap("sheet_confirm")
    user.tap("submit_order")
    assert device.foreground == WALLET
    user.tap("com.pw.wallet:id/pay_cancel")
    order = shop_data(device)["orders"][-1]
    assert device.foreground == SHOP
    assert order["status"] == "unpaid"
    assert user.ui.find("order_status").text == "待付款"
    user.tap("pay_order")
    user.tap("com.pw.wallet:id/pay_confirm")
    order = shop_data(device)["orders"][-1]
    assert order["status"] == "to_ship"
    assert order["paid_at"] is not None
    assert "paid_amount" in user.ids()
    assert device.state["apps"][WALLET]["balance_cents"] == balance - order["total_cents"]


def test_cancelling_an_order_gives_its_coupon_back(device: Device) -> None:
    user = Driver(device)
    product = next(
        dict(p) for p in device.world.content(SHOP)["products"] if 20000 <= p["price_cents"] < 40000
    )
    user.open_shop()
    user.open_product(product)
    user.tap("buy_now")
    user.tap("sheet_confirm")
    user.tap("submit_order")
    user.tap("com.pw.wallet:id/pay_cancel")
    order = shop_data(device)["orders"][-1]
    coupon = next(c for c in shop_data(device)["coupons"] if c["id"] == order["coupon_id"])
    assert coupon["used"]
    assert order["total_cents"] == product["price_cents"] - coupon["discount_cents"]
    user.tap("cancel_order")
    user.tap("cancel_confirm")
    assert shop_data(device)["orders"][-1]["status"] == "cancelled"
    assert not next(c for c in shop_data(device)["coupons"] if c["id"] == coupon["id"])["used"]
    assert "pay_order" not in user.ids()


def test_sharing_a_product_posts_a_card_in_a_wechat_chat(device: Device) -> None:
    from phonebuddy.protocol import Click, Open, from_pixels

    def tap(widget_id: str) -> None:
        [node] = device.ui_tree().find(resource_id=widget_id)[-1:]
        device.act(Click(coordinate=from_pixels(node.bounds.center, device.screen)))

    catalogue = device.world.content("com.pw.shop")["products"]
    product = catalogue[0]
    device.act(Open(text="com.pw.shop"))
    device.launch("com.pw.shop")
    device.push_screen("com.pw.shop", "product", {"product_id": product["id"]})
    device.state["ui"]["overlay"] = None
    tap("com.pw.shop:id/share")
    assert device.state["ui"]["overlay"]["kind"] == "share"
    assert device.state["ui"]["overlay"]["payload"]["title"] == product["name"]
    tap("com.android.systemui:id/share_messenger")
    assert device.foreground == "com.pw.messenger"
