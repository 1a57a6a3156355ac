"""The Shop app (Taobao-like): search and categories, product pages with SKU options, a cart,
checkout paid through the wallet, and orders from 待付款 to 已完成.

Screens keep their view state (sort, filters, the SKU sheet, which cart lines are ticked) in UI
state; app data holds only what a shopper would expect to persist: cart, orders, favourites,
coupons, addresses.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.apps.shop import content as catalogue
from phonebuddy.phoneworld.apps.shop.content import (
    ORDER_STATUS,
    default_options,
    options_text,
    order_line,
    sku_price,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.system.friction import Friction, Popup
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import BEIJING, yuan
from phonebuddy.phoneworld.ui.theme import AppTheme, Color
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Card,
    Chip,
    Column,
    Dialog,
    IconButton,
    Image,
    ListItem,
    Page,
    Row,
    Tabs,
    Text,
    TextField,
    Widget,
    Wrap,
)

ORANGE: Color = (255, 80, 0)
PRICE: Color = (255, 68, 0)
PALE_ORANGE: Color = (255, 240, 230)
Product = Mapping[str, Any]

MAX_QUANTITY = 99
HISTORY_SIZE = 10
FEED_SIZE = 12
HOT_SEARCHES = ("蓝牙耳机", "每日坚果", "T恤", "充电宝", "空气炸锅", "防晒霜", "跑步鞋", "三体")
SORTS = (("default", "综合"), ("sales", "销量"), ("price_asc", "价格↑"), ("price_desc", "价格↓"))
# Price bands of the filter row: id, label, lowest and highest price in cents (high excluded).
PRICE_BANDS: tuple[tuple[str, str, int, int | None], ...] = (
    ("any", "不限", 0, None),
    ("0_50", "50元以下", 0, 5000),
    ("50_200", "50-200元", 5000, 20000),
    ("200_1000", "200-1000元", 20000, 100000),
    ("1000_up", "1000元以上", 100000, None),
)
ORDER_TABS = (
    ("all", "全部"),
    ("unpaid", "待付款"),
    ("to_ship", "待发货"),
    ("to_receive", "待收货"),
    ("completed", "已完成"),
)
STATUS_BANNERS = {
    "unpaid": "等待买家付款",
    "to_ship": "买家已付款，等待卖家发货",
    "to_receive": "卖家已发货，请注意查收",
    "completed": "交易成功",
    "cancelled": "交易关闭",
}


def when(timestamp: int) -> str:
    return dt.datetime.fromtimestamp(timestamp, BEIJING).strftime("%Y-%m-%d %H:%M")


def sales_text(sales: int) -> str:
    return f"{sales // 10000}万+人付款" if sales >= 10000 else f"{sales}人付款"


def sort_products(products: Sequence[Product], sort: str) -> list[Product]:
    if sort == "sales":
        return sorted(products, key=lambda p: (-p["sales"], p["id"]))
    if sort == "price_asc":
        return sorted(products, key=lambda p: (p["price_cents"], -p["sales"], p["id"]))
    if sort == "price_desc":
        return sorted(products, key=lambda p: (-p["price_cents"], -p["sales"], p["id"]))
    return list(products)


def in_band(product: Product, band: str) -> bool:
    _, _, low, high = next(b for b in PRICE_BANDS if b[0] == band)
    return product["price_cents"] >= low and (high is None or product["price_cents"] < high)


def best_coupon(coupons: Sequence[Mapping[str, Any]], subtotal: int) -> Mapping[str, Any] | None:
    usable = [c for c in coupons if not c["used"] and c["threshold_cents"] <= subtotal]
    return max(usable, key=lambda c: (c["discount_cents"], c["id"]), default=None)


class Shop(App):
    package = "com.pw.shop"
    label = Label(zh="购物", en="Shop")
    domain = "shopping"
    theme = AppTheme(primary=ORANGE)
    friction = Friction(
        splash="好货不贵，天天特价",
        popup=Popup("新人专享红包", "¥20 无门槛券已到账，限今日使用", "立即领取", toast="领取成功"),
    )
    icon_text = "购"
    permissions = ("notifications",)
    ignorable = ("search_history", "coupon_popup_seen")

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return catalogue.build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        account = content["account"]
        return {
            "cart": clone(account["cart"]),
            "orders": clone(account["orders"]),
            "favorites": clone(account["favorites"]),
            "addresses": clone(account["addresses"]),
            "coupons": clone(account["coupons"]),
            "search_history": [],
            "coupon_popup_seen": False,
        }

    # -- lookups -------------------------------------------------------------------------------
    @staticmethod
    def product(content: Mapping[str, Any], product_id: str) -> Product | None:
        return next((p for p in content["products"] if p["id"] == product_id), None)

    def require_product(self, it: Interaction, product_id: str) -> Product:
        product = self.product(it.content, product_id)
        if product is None:
            it.no_op(f"no product {product_id}")
            raise AssertionError  # no_op raises
        return product

    @staticmethod
    def require_order(it: Interaction, order_id: str) -> dict[str, Any]:
        order = next((o for o in it.data["orders"] if o["id"] == order_id), None)
        if order is None:
            it.no_op(f"no order {order_id}")
            raise AssertionError  # no_op raises
        return order

    @staticmethod
    def require_line(it: Interaction, line_id: str) -> dict[str, Any]:
        line = next((line for line in it.data["cart"] if line["id"] == line_id), None)
        if line is None:
            it.no_op(f"no cart line {line_id}")
            raise AssertionError  # no_op raises
        return line

    # -- handlers: home and search ---------------------------------------------------------------
    @staticmethod
    def dismiss_coupon_popup(it: Interaction) -> None:
        it.data["coupon_popup_seen"] = True

    @staticmethod
    def open_search(it: Interaction) -> None:
        it.push("search")
        it.focus("query")

    def submit_search(self, it: Interaction) -> None:
        self.run_search(it, it.field("query"))

    @staticmethod
    def run_search(it: Interaction, query: str) -> None:
        query = " ".join(query.split())
        if not query:
            it.no_op("type something to search for")
        history = [q for q in it.data["search_history"] if q != query]
        it.data["search_history"] = [query, *history][:HISTORY_SIZE]
        it.push("results", query=query)

    @staticmethod
    def clear_query(it: Interaction) -> None:
        if not it.field("query"):
            it.no_op("the search field is already empty")
        it.set_field("query", "")
        it.focus("query")

    # -- handlers: product page and its SKU sheet ------------------------------------------------
    @staticmethod
    def chosen_options(ui_options: Any, product: Product) -> dict[str, str]:
        return {**default_options(product), **(ui_options or {})}

    def choose_option(self, it: Interaction, product_id: str, group: str, label: str) -> None:
        product = self.require_product(it, product_id)
        options = self.chosen_options(it.ui("options"), product)
        if options.get(group) == label:
            it.no_op(f"{label} is already chosen")
        options[group] = label
        it.set_ui("options", options)

    @staticmethod
    def step_sheet_quantity(it: Interaction, delta: int) -> None:
        quantity = int(it.ui("quantity", 1)) + delta
        if not 1 <= quantity <= MAX_QUANTITY:
            it.no_op(f"quantity must stay between 1 and {MAX_QUANTITY}")
        it.set_ui("quantity", quantity)

    def confirm_sheet(self, it: Interaction, product_id: str) -> None:
        product = self.require_product(it, product_id)
        options = self.chosen_options(it.ui("options"), product)
        quantity = int(it.ui("quantity", 1))
        mode = it.ui("sheet")
        it.set_ui("sheet", None)
        if mode == "add":
            self.add_line(it, product, options, quantity)
            it.toast("已加入购物车")
        elif mode == "buy":
            item = {"product_id": product["id"], "options": options, "quantity": quantity}
            it.push("checkout", items=[item])

    @staticmethod
    def add_line(it: Interaction, product: Product, options: dict[str, str], quantity: int) -> str:
        """Put the product in the cart; the same product and SKU adds to the existing line."""
        if not 1 <= quantity <= MAX_QUANTITY:
            it.no_op(f"quantity must be between 1 and {MAX_QUANTITY}")
        for line in it.data["cart"]:
            if line["product_id"] == product["id"] and line["options"] == options:
                line["quantity"] = min(MAX_QUANTITY, line["quantity"] + quantity)
                return str(line["id"])
        line_id = it.new_id("line")
        it.data["cart"].insert(
            0,
            {
                "id": line_id,
                "product_id": product["id"],
                "options": dict(options),
                "quantity": quantity,
            },
        )
        return line_id

    def toggle_favourite(self, it: Interaction, product_id: str) -> None:
        self.require_product(it, product_id)
        favourites = it.data["favorites"]
        if any(f["id"] == product_id for f in favourites):
            it.data["favorites"] = [f for f in favourites if f["id"] != product_id]
            it.toast("已取消收藏")
        else:
            favourites.append({"id": product_id, "added_at": it.clock})
            it.toast("收藏成功")

    # -- handlers: cart ----------------------------------------------------------------------------
    def toggle_line(self, it: Interaction, line_id: str) -> None:
        self.require_line(it, line_id)
        selected = list(it.ui("selected", []))
        it.set_ui(
            "selected",
            [s for s in selected if s != line_id] if line_id in selected else [*selected, line_id],
        )

    @staticmethod
    def toggle_all(it: Interaction) -> None:
        ids = [line["id"] for line in it.data["cart"]]
        if not ids:
            it.no_op("the cart is empty")
        it.set_ui("selected", [] if set(it.ui("selected", [])) >= set(ids) else ids)

    def step_line_quantity(self, it: Interaction, line_id: str, delta: int) -> None:
        line = self.require_line(it, line_id)
        quantity = line["quantity"] + delta
        if quantity < 1:
            it.no_op("至少要买一件")
        if quantity > MAX_QUANTITY:
            it.no_op("超出了限购数量")
        line["quantity"] = quantity

    def ask_remove(self, it: Interaction, line_id: str) -> None:
        self.require_line(it, line_id)
        it.set_ui("removing", line_id)
        it.set_ui("dialog", "remove")

    def remove_line(self, it: Interaction, line_id: str) -> None:
        self.require_line(it, line_id)
        it.data["cart"] = [line for line in it.data["cart"] if line["id"] != line_id]
        it.set_ui("selected", [s for s in it.ui("selected", []) if s != line_id])
        it.set_ui("dialog", None)
        it.toast("已删除")

    @staticmethod
    def checkout_selected(it: Interaction) -> None:
        cart_ids = {line["id"] for line in it.data["cart"]}
        chosen = [line_id for line_id in it.ui("selected", []) if line_id in cart_ids]
        if not chosen:
            it.no_op("您还没有选择宝贝哦")
        it.push("checkout", cart_line_ids=chosen)

    # -- handlers: checkout and payment ----------------------------------------------------------
    def checkout_items(self, data: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict]:
        """The (product id, options, quantity) of what is being bought."""
        if "items" in params:
            return [dict(item) for item in params["items"]]
        wanted = params.get("cart_line_ids", [])
        return [
            {
                "product_id": line["product_id"],
                "options": line["options"],
                "quantity": line["quantity"],
            }
            for line in data["cart"]
            if line["id"] in wanted
        ]

    def checkout_lines(
        self, content: Mapping[str, Any], data: Mapping[str, Any], params: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        lines = []
        for item in self.checkout_items(data, params):
            product = self.product(content, item["product_id"])
            if product is not None:
                lines.append(order_line(product, item["options"], int(item["quantity"])))
        return lines

    @staticmethod
    def chosen_address(data: Mapping[str, Any], address_id: str | None) -> Mapping[str, Any]:
        addresses = data["addresses"]
        chosen = next((a for a in addresses if a["id"] == address_id), None)
        return chosen or next((a for a in addresses if a["default"]), addresses[0])

    @staticmethod
    def chosen_coupon(
        data: Mapping[str, Any], choice: str, subtotal: int
    ) -> Mapping[str, Any] | None:
        """The coupon used: the best one unless the shopper picked one, or none."""
        if choice == "none":
            return None
        if choice == "auto":
            return best_coupon(data["coupons"], subtotal)
        coupon = next((c for c in data["coupons"] if c["id"] == choice), None)
        usable = coupon is not None and not coupon["used"]
        return coupon if usable and coupon["threshold_cents"] <= subtotal else None

    def choose_address(self, it: Interaction, address_id: str) -> None:
        it.set_ui("address_id", address_id)
        it.set_ui("dialog", None)

    def choose_coupon(self, it: Interaction, choice: str) -> None:
        it.set_ui("coupon", choice)
        it.set_ui("dialog", None)

    def submit_order(self, it: Interaction) -> None:
        params = it.entry["params"]
        lines = self.checkout_lines(it.content, it.data, params)
        if not lines:
            it.no_op("nothing to buy")
        subtotal = sum(line["price_cents"] * line["quantity"] for line in lines)
        coupon = self.chosen_coupon(it.data, it.ui("coupon", "auto"), subtotal)
        discount = int(coupon["discount_cents"]) if coupon else 0
        order_id = it.new_id("order")
        order = {
            "id": order_id,
            "number": f"{it.clock % 10**10:010d}{order_id[-5:]}0",
            "items": lines,
            "address_id": self.chosen_address(it.data, it.ui("address_id"))["id"],
            "coupon_id": coupon["id"] if coupon else None,
            "subtotal_cents": subtotal,
            "discount_cents": discount,
            "total_cents": subtotal - discount,
            "status": "unpaid",
            "created_at": it.clock,
            "paid_at": None,
        }
        it.data["orders"].append(order)
        if coupon is not None:
            next(c for c in it.data["coupons"] if c["id"] == coupon["id"])["used"] = True
        bought = set(params.get("cart_line_ids", []))
        it.data["cart"] = [line for line in it.data["cart"] if line["id"] not in bought]
        # The order exists from now on: leaving the wallet without paying leaves it 待付款.
        it.replace("order", order_id=order_id)
        self.ask_wallet_to_pay(it, order)

    @staticmethod
    def ask_wallet_to_pay(it: Interaction, order: Mapping[str, Any]) -> None:
        shops = sorted({line["shop"] for line in order["items"]})
        first = order["items"][0]["name"]
        it.request_payment(
            amount_cents=int(order["total_cents"]),
            merchant=shops[0] if len(shops) == 1 else f"{len(shops)}家店铺合并付款",
            reference=str(order["id"]),
            description=first if len(order["items"]) == 1 else f"{first}等{len(order['items'])}件",
        )

    def pay_order(self, it: Interaction, order_id: str) -> None:
        order = self.require_order(it, order_id)
        if order["status"] != "unpaid":
            it.no_op("this order is not awaiting payment")
        self.ask_wallet_to_pay(it, order)

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        order = next((o for o in it.data["orders"] if o["id"] == reference), None)
        if order is None:
            return
        on_its_page = it.entry["screen"] == "order" and it.entry["params"]["order_id"] == reference
        if not paid:
            it.toast("订单待付款，可在“我的订单”中继续支付")
            return
        if order["status"] == "unpaid":
            order["status"] = "to_ship"
            order["paid_at"] = it.clock
        if on_its_page:
            it.replace("pay_result", order_id=reference)
        else:
            it.toast("支付成功")

    @staticmethod
    def view_order(it: Interaction, order_id: str) -> None:
        it.replace("order", order_id=order_id)

    @staticmethod
    def back_home(it: Interaction) -> None:
        it.reset_to("home")

    # -- handlers: orders --------------------------------------------------------------------------
    def cancel_order(self, it: Interaction, order_id: str) -> None:
        order = self.require_order(it, order_id)
        if order["status"] != "unpaid":
            it.no_op("only unpaid orders can be cancelled")
        order["status"] = "cancelled"
        order["cancelled_at"] = it.clock
        for coupon in it.data["coupons"]:
            if coupon["id"] == order["coupon_id"]:
                coupon["used"] = False  # a cancelled order gives its coupon back
        it.set_ui("dialog", None)
        it.toast("订单已取消")

    def confirm_receipt(self, it: Interaction, order_id: str) -> None:
        order = self.require_order(it, order_id)
        if order["status"] != "to_receive":
            it.no_op("only shipped orders can be received")
        order["status"] = "completed"
        order["completed_at"] = it.clock
        it.set_ui("dialog", None)
        it.toast("交易成功")

    # -- shared pieces of screens ------------------------------------------------------------------
    @staticmethod
    def category_colour(content: Mapping[str, Any], key: str) -> Color:
        colour = next(c["color"] for c in content["categories"] if c["key"] == key)
        return (int(colour[0]), int(colour[1]), int(colour[2]))

    def picture(self, v: View, product: Product, height: int) -> Image:
        return Image(
            product["brand"][:6],
            height=height,
            color=self.category_colour(v.content, product["category"]),
        )

    def product_card(self, v: View, product: Product) -> Card:
        """A search result: picture on the left, name, price and sales on the right."""
        return Card(
            [
                Row(
                    [
                        self.picture(v, product, 250),
                        Column(
                            [
                                Text(product["name"], size=40, max_lines=2),
                                Text(
                                    yuan(product["price_cents"]),
                                    size=48,
                                    bold=True,
                                    color=PRICE,
                                ),
                                Text(
                                    f"{sales_text(product['sales'])} · {product['rating']}分",
                                    size=32,
                                    color=theme.TEXT_SECONDARY,
                                ),
                                Text(product["shop"], size=32, color=theme.TEXT_SECONDARY),
                            ],
                            spacing=6,
                        ),
                    ],
                    weights=[1, 2.3],
                )
            ],
            on_tap=v.go("product", product_id=product["id"]),
            id=f"product_{product['id']}",
            padding=24,
        )

    def feed_tile(self, v: View, product: Product) -> Card:
        """A tile of the two-column 猜你喜欢 feed."""
        return Card(
            [
                self.picture(v, product, 330),
                Text(product["name"], size=36, max_lines=2),
                Row(
                    [
                        Text(yuan(product["price_cents"]), size=40, bold=True, color=PRICE),
                        Text(
                            sales_text(product["sales"]),
                            size=28,
                            color=theme.TEXT_SECONDARY,
                            align="right",
                        ),
                    ],
                    spacing=8,
                ),
            ],
            on_tap=v.go("product", product_id=product["id"]),
            id=f"product_{product['id']}",
            padding=20,
            spacing=10,
        )

    @staticmethod
    def bottom_bar(children: Sequence[Widget | None], weights: Sequence[float]) -> Column:
        return Column([Row(children, spacing=20, weights=weights)], padding=20, fill=theme.SURFACE)

    # -- screens: home -----------------------------------------------------------------------------
    @staticmethod
    def share_product(it: Interaction, product: Mapping[str, Any]) -> None:
        """The system share sheet with the product as a link card (WeChat posts it as one)."""
        it.share(
            {
                "kind": "product",
                "title": product["name"],
                "source": "购物",
                "text": f"{product['name']} {yuan(product['price_cents'])}",
                "product_id": product["id"],
            }
        )

    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "home")
        tabs = Tabs(
            [("home", "首页"), ("cart", "购物车"), ("mine", "我的")],
            tab,
            v.on_select("tab"),
            style="bottom",
        )
        if tab == "cart":
            page = self.cart_page(v, pushed=False)
            page.bottom = Column([page.bottom, tabs])
            return page
        if tab == "mine":
            return Page(None, self.mine_body(v), bottom=tabs, body_padding=24, spacing=24)
        popup = None
        if not v.data["coupon_popup_seen"]:
            popup = self.coupon_popup(v)
        return Page(
            None,
            self.home_body(v),
            header=self.search_header(v),
            bottom=tabs,
            body_padding=24,
            spacing=24,
            overlay=popup,
        )

    def search_header(self, v: View) -> Column:
        box = Card(
            [
                Row(
                    [
                        IconButton("search", "搜索", None, size=64, color=theme.TEXT_SECONDARY),
                        Text("搜索宝贝、店铺", size=40, color=theme.TEXT_SECONDARY),
                    ],
                    spacing=16,
                )
            ],
            on_tap=v.do(self.open_search),
            id="search_box",
            padding=16,
        )
        return Column(
            [Text("购物", size=56, bold=True, color=theme.WHITE), box],
            spacing=20,
            padding=30,
            fill=ORANGE,
        )

    def home_body(self, v: View) -> list[Widget | None]:
        categories = list(v.content["categories"])
        grid = [
            Row([self.category_entry(v, c) for c in categories[i : i + 5]], spacing=16)
            for i in range(0, len(categories), 5)
        ]
        feed = sorted(v.content["products"], key=lambda p: (-p["sales"], p["id"]))[:FEED_SIZE]
        tiles = [
            Row([self.feed_tile(v, feed[i]), self.feed_tile(v, feed[i + 1])], spacing=20)
            for i in range(0, len(feed) - 1, 2)
        ]
        return [
            Card(grid, padding=20, spacing=16),
            Image("天天特价 · 全场满199减20", height=260, color=(255, 112, 67)),
            Text("猜你喜欢", size=46, bold=True),
            *tiles,
        ]

    @staticmethod
    def category_entry(v: View, category: Mapping[str, Any]) -> Card:
        return Card(
            [
                Text(category["glyph"], size=60, bold=True, color=ORANGE, align="center"),
                Text(category["label"], size=32, align="center"),
            ],
            on_tap=v.go("results", category=category["key"]),
            id=f"category_{category['key']}",
            padding=12,
            spacing=4,
            fill=PALE_ORANGE,
        )

    def coupon_popup(self, v: View) -> Dialog:
        usable = [c for c in v.data["coupons"] if not c["used"]]
        lines = [
            Text(
                f"{yuan(c['discount_cents'])}  {c['title']}（满{c['threshold_cents'] // 100}可用）",
                size=38,
                color=PRICE,
            )
            for c in usable
        ]
        return Dialog(
            "恭喜获得购物红包",
            message=f"{len(usable)} 张优惠券已放入你的账户，下单时自动抵扣",
            body=lines,
            buttons=[
                Button(
                    "关闭",
                    v.do(self.dismiss_coupon_popup),
                    id="coupon_popup_close",
                    style="secondary",
                ),
                Button("开心收下", v.do(self.dismiss_coupon_popup), id="coupon_popup_ok"),
            ],
            id="coupon_popup",
        )

    def mine_body(self, v: View) -> list[Widget | None]:
        orders = v.data["orders"]
        buyer = v.data["addresses"][0]["name"]

        def shortcut(status: str) -> Card:
            count = sum(1 for o in orders if o["status"] == status)
            return Card(
                [
                    Text(str(count), size=48, bold=True, align="center"),
                    Text(ORDER_STATUS[status], size=34, align="center"),
                ],
                on_tap=v.go("orders", tab=status),
                id=f"orders_{status}",
                padding=16,
                spacing=4,
            )

        return [
            Card(
                [
                    Text(buyer, size=52, bold=True, color=theme.WHITE),
                    Text("淘气值 862 · 超级会员", size=34, color=theme.WHITE),
                ],
                fill=ORANGE,
            ),
            Card(
                [
                    Row(
                        [
                            Text("我的订单", size=44, bold=True),
                            Text(
                                "全部订单 >",
                                size=36,
                                color=theme.TEXT_SECONDARY,
                                align="right",
                                on_tap=v.go("orders", tab="all"),
                                id="all_orders",
                            ),
                        ]
                    ),
                    Row(
                        [shortcut(s) for s in ("unpaid", "to_ship", "to_receive", "completed")],
                        spacing=12,
                    ),
                ],
                spacing=24,
            ),
            ListItem(
                "收藏夹",
                trailing=f"{len(v.data['favorites'])} 件",
                on_tap=v.go("favorites"),
                id="my_favorites",
            ),
            ListItem("收货地址", on_tap=v.go("addresses"), id="my_addresses"),
            ListItem(
                "优惠券",
                trailing=f"{sum(1 for c in v.data['coupons'] if not c['used'])} 张",
                on_tap=v.go("coupons"),
                id="my_coupons",
            ),
        ]

    # -- screens: search ---------------------------------------------------------------------------
    @screen("search")
    def search(self, v: View) -> Page:
        header = Column(
            [
                Row(
                    [
                        IconButton("back", "返回", v.back(), id="back"),
                        TextField(
                            "query",
                            v.field("query"),
                            "搜索宝贝",
                            on_focus=v.focus("query"),
                            on_submit=v.do(self.submit_search),
                        ),
                        IconButton(
                            "close", "清空", v.do(self.clear_query), id="clear_query", size=90
                        ),
                        Button("搜索", v.do(self.submit_search), id="search_go", height=110),
                    ],
                    spacing=12,
                    weights=[0, 4, 0, 1.3],
                )
            ],
            padding=20,
            fill=theme.SURFACE,
        )
        history = [
            Chip(q, v.do(self.run_search, q), id=f"history_{i}")
            for i, q in enumerate(v.data["search_history"])
        ]
        hot = [Chip(q, v.do(self.run_search, q), id=f"hot_{i}") for i, q in enumerate(HOT_SEARCHES)]
        return Page(
            None,
            [
                Text("历史搜索", size=42, bold=True) if history else None,
                Wrap(history) if history else None,
                Text("猜你想搜", size=42, bold=True),
                Wrap(hot),
            ],
            header=header,
            body_padding=36,
            spacing=24,
        )

    @screen("results")
    def results(self, v: View) -> Page:
        query = v.params.get("query", "")
        category = v.params.get("category")
        sort, band = v.ui("sort", "default"), v.ui("band", "any")
        products = [
            p
            for p in v.content["products"]
            if (catalogue.matches(p, query) if query else p["category"] == category)
            and in_band(p, band)
        ]
        title = query or catalogue.CATEGORY_LABELS.get(category or "", "")
        filters = Column(
            [
                Wrap(
                    [
                        Chip(label, v.set_ui("sort", key), selected=sort == key, id=f"sort_{key}")
                        for key, label in SORTS
                    ],
                    spacing=16,
                ),
                Wrap(
                    [
                        Chip(label, v.set_ui("band", key), selected=band == key, id=f"price_{key}")
                        for key, label, _, _ in PRICE_BANDS
                    ],
                    spacing=16,
                ),
            ],
            spacing=16,
            padding=20,
            fill=theme.SURFACE,
        )
        cards: list[Widget | None] = [
            self.product_card(v, p) for p in sort_products(products, sort)
        ]
        return Page(
            title,
            [
                Text(
                    f"共 {len(products)} 件宝贝",
                    size=34,
                    color=theme.TEXT_SECONDARY,
                    id="result_count",
                ),
                *(
                    cards
                    or [
                        Text(
                            "没有找到相关宝贝，换个词试试吧", color=theme.TEXT_SECONDARY, padding=40
                        )
                    ]
                ),
            ],
            header=filters,
            on_back=v.back(),
            actions=[IconButton("search", "搜索", v.do(self.open_search), id="new_search")],
            body_padding=24,
            spacing=20,
        )

    # -- screens: product --------------------------------------------------------------------------
    @screen("product")
    def product_page(self, v: View) -> Page:
        product = self.product(v.content, v.params["product_id"])
        if product is None:
            return Page("商品详情", [Text("宝贝不存在或已下架", padding=40)], on_back=v.back())
        options = self.chosen_options(v.ui("options"), product)
        favourite = any(f["id"] == product["id"] for f in v.data["favorites"])
        cart_count = sum(line["quantity"] for line in v.data["cart"])
        bar = self.bottom_bar(
            [
                IconButton(
                    "star",
                    "取消收藏" if favourite else "收藏",
                    v.do(self.toggle_favourite, product["id"]),
                    id="favourite",
                    size=110,
                    color=ORANGE if favourite else theme.TEXT_SECONDARY,
                ),
                IconButton(
                    "cart", "购物车", v.go("cart"), id="go_cart", size=110, badge=cart_count
                ),
                Button(
                    "加入购物车",
                    v.set_ui("sheet", "add"),
                    id="add_to_cart",
                    style="secondary",
                    height=120,
                ),
                Button("立即购买", v.set_ui("sheet", "buy"), id="buy_now", height=120),
            ],
            weights=[0, 0, 1, 1],
        )
        body = [
            self.picture(v, product, 820),
            Card(
                [
                    Text(
                        yuan(sku_price(product, options)),
                        size=72,
                        bold=True,
                        color=PRICE,
                        id="price",
                    ),
                    Text(product["name"], size=48, bold=True, id="product_name"),
                    Text(
                        f"{sales_text(product['sales'])} · 评分 {product['rating']}",
                        size=34,
                        color=theme.TEXT_SECONDARY,
                    ),
                ],
                spacing=16,
            ),
            Card(
                [
                    Text(f"已选：{options_text(options)}", size=38),
                    Text("点击选择颜色、规格和数量", size=32, color=theme.TEXT_SECONDARY),
                ],
                on_tap=v.set_ui("sheet", "pick"),
                id="choose_sku",
            ),
            Card(
                [
                    Text(product["shop"], size=42, bold=True),
                    Text(
                        f"宝贝描述 {product['rating']} · 物流服务 4.8 · 服务态度 4.9",
                        size=32,
                        color=theme.TEXT_SECONDARY,
                    ),
                ]
            ),
        ]
        sheet = self.sku_sheet(v, product, options) if v.ui("sheet") else None
        return Page(
            "商品详情",
            body,
            bottom=bar,
            on_back=v.back(),
            actions=[IconButton("share", "分享", v.do(self.share_product, product), id="share")],
            body_padding=24,
            spacing=24,
            overlay=sheet,
        )

    def sku_sheet(self, v: View, product: Product, options: Mapping[str, str]) -> BottomSheet:
        groups: list[Widget | None] = []
        for g, group in enumerate(product["skus"]):
            groups.append(Text(group["name"], size=38, color=theme.TEXT_SECONDARY))
            groups.append(
                Wrap(
                    [
                        Chip(
                            option["label"],
                            v.do(self.choose_option, product["id"], group["name"], option["label"]),
                            selected=options[group["name"]] == option["label"],
                            id=f"sku_{g}_{o}",
                        )
                        for o, option in enumerate(group["options"])
                    ],
                    spacing=20,
                )
            )
        quantity = int(v.ui("quantity", 1))
        confirm = {"add": "加入购物车", "buy": "立即购买"}.get(v.ui("sheet"), "确定")
        return BottomSheet(
            product["name"],
            [
                Text(
                    yuan(sku_price(product, options)),
                    size=60,
                    bold=True,
                    color=PRICE,
                    id="sheet_price",
                ),
                Text(f"已选：{options_text(options)}", size=36, id="sheet_selected"),
                *groups,
                Row(
                    [
                        Text("购买数量", size=40),
                        IconButton(
                            "minus",
                            "减少",
                            v.do(self.step_sheet_quantity, -1),
                            id="qty_minus",
                            size=100,
                        ),
                        Text(str(quantity), size=44, bold=True, align="center", id="qty"),
                        IconButton(
                            "plus",
                            "增加",
                            v.do(self.step_sheet_quantity, 1),
                            id="qty_plus",
                            size=100,
                        ),
                    ],
                    weights=[3, 0, 1, 0],
                ),
                Button(confirm, v.do(self.confirm_sheet, product["id"]), id="sheet_confirm"),
            ],
            on_dismiss=v.set_ui("sheet", None),
        )

    # -- screens: cart -----------------------------------------------------------------------------
    @screen("cart")
    def cart(self, v: View) -> Page:
        return self.cart_page(v, pushed=True)

    def cart_page(self, v: View, *, pushed: bool) -> Page:
        cart = v.data["cart"]
        selected = [line for line in cart if line["id"] in v.ui("selected", [])]
        total = 0
        for line in selected:
            product = self.product(v.content, line["product_id"])
            if product is not None:
                total += sku_price(product, line["options"]) * line["quantity"]
        everything = bool(cart) and len(selected) == len(cart)
        bar = self.bottom_bar(
            [
                IconButton(
                    "check",
                    "全选",
                    v.do(self.toggle_all),
                    id="select_all",
                    size=90,
                    color=ORANGE if everything else theme.DISABLED,
                ),
                Text("全选", size=36),
                Text(
                    f"合计：{yuan(total)}",
                    size=40,
                    bold=True,
                    color=PRICE,
                    align="right",
                    id="cart_total",
                ),
                Button(
                    f"结算({len(selected)})",
                    v.do(self.checkout_selected),
                    id="checkout",
                    height=110,
                    enabled=bool(selected),
                ),
            ],
            weights=[0, 0.8, 2.2, 1.5],
        )
        lines: list[Widget | None] = [self.cart_line(v, line) for line in cart]
        dialog = None
        if v.ui("dialog") == "remove":
            dialog = Dialog(
                "确定要删除这个宝贝吗？",
                buttons=[
                    Button(
                        "我再想想", v.set_ui("dialog", None), id="remove_cancel", style="secondary"
                    ),
                    Button(
                        "删除",
                        v.do(self.remove_line, v.ui("removing")),
                        id="remove_confirm",
                        style="danger",
                    ),
                ],
            )
        return Page(
            f"购物车({len(cart)})",
            lines
            or [
                Text(
                    "购物车竟然是空的，再忙也要记得买点什么犒赏自己~",
                    color=theme.TEXT_SECONDARY,
                    padding=40,
                )
            ],
            bottom=bar,
            on_back=v.back() if pushed else None,
            body_padding=24,
            spacing=20,
            overlay=dialog,
        )

    def cart_line(self, v: View, line: Mapping[str, Any]) -> Widget | None:
        product = self.product(v.content, line["product_id"])
        if product is None:
            return None
        line_id = line["id"]
        ticked = line_id in v.ui("selected", [])
        return Card(
            [
                Row(
                    [
                        Text(product["shop"], size=36, bold=True),
                        IconButton(
                            "delete",
                            "删除",
                            v.do(self.ask_remove, line_id),
                            id=f"remove_{line_id}",
                            size=80,
                            color=theme.TEXT_SECONDARY,
                        ),
                    ]
                ),
                Row(
                    [
                        IconButton(
                            "check",
                            "取消选择" if ticked else "选择",
                            v.do(self.toggle_line, line_id),
                            id=f"select_{line_id}",
                            size=90,
                            color=ORANGE if ticked else theme.DISABLED,
                        ),
                        self.picture(v, product, 220),
                        Column(
                            [
                                Text(product["name"], size=38, max_lines=2, id=f"name_{line_id}"),
                                Text(
                                    options_text(line["options"]),
                                    size=32,
                                    color=theme.TEXT_SECONDARY,
                                    id=f"options_{line_id}",
                                ),
                                Row(
                                    [
                                        Text(
                                            yuan(sku_price(product, line["options"])),
                                            size=40,
                                            bold=True,
                                            color=PRICE,
                                        ),
                                        IconButton(
                                            "minus",
                                            "减少",
                                            v.do(self.step_line_quantity, line_id, -1),
                                            id=f"minus_{line_id}",
                                            size=80,
                                        ),
                                        Text(
                                            str(line["quantity"]),
                                            size=40,
                                            align="center",
                                            id=f"qty_{line_id}",
                                        ),
                                        IconButton(
                                            "plus",
                                            "增加",
                                            v.do(self.step_line_quantity, line_id, 1),
                                            id=f"plus_{line_id}",
                                            size=80,
                                        ),
                                    ],
                                    spacing=8,
                                    weights=[2.4, 0, 1, 0],
                                ),
                            ],
                            spacing=8,
                        ),
                    ],
                    spacing=16,
                    weights=[0, 1, 2.3],
                ),
            ],
            id=f"line_{line_id}",
            padding=24,
        )

    # -- screens: checkout -------------------------------------------------------------------------
    @screen("checkout")
    def checkout(self, v: View) -> Page:
        lines = self.checkout_lines(v.content, v.data, v.params)
        subtotal = sum(line["price_cents"] * line["quantity"] for line in lines)
        coupon = self.chosen_coupon(v.data, v.ui("coupon", "auto"), subtotal)
        discount = int(coupon["discount_cents"]) if coupon else 0
        address = self.chosen_address(v.data, v.ui("address_id"))
        coupon_text = f"-{yuan(discount)} {coupon['title']}" if coupon else "不使用"
        items = [
            Column(
                [
                    Text(line["name"], size=38, max_lines=2),
                    Text(options_text(line["options"]), size=32, color=theme.TEXT_SECONDARY),
                    Row(
                        [
                            Text(yuan(line["price_cents"]), size=38, color=PRICE),
                            Text(f"×{line['quantity']}", size=38, align="right"),
                        ]
                    ),
                ],
                spacing=6,
            )
            for line in lines
        ]
        body = [
            Card(
                [
                    Text(
                        f"[{address['tag']}] {address['name']} {address['phone']}",
                        size=40,
                        bold=True,
                        id="address_name",
                    ),
                    Text(
                        f"{address['region']} {address['detail']}",
                        size=34,
                        color=theme.TEXT_SECONDARY,
                    ),
                ],
                on_tap=v.set_ui("dialog", "address"),
                id="address",
            ),
            Card(
                [
                    Text(" / ".join(sorted({line["shop"] for line in lines})), size=38, bold=True),
                    *items,
                ],
                spacing=20,
            ),
            ListItem(
                "优惠券", trailing=coupon_text, on_tap=v.set_ui("dialog", "coupon"), id="coupon"
            ),
            Card(
                [
                    Text(f"商品总价 {yuan(subtotal)}", size=36),
                    Text(f"优惠 -{yuan(discount)}", size=36, color=PRICE),
                ]
            ),
        ]
        bar = self.bottom_bar(
            [
                Text(
                    f"合计：{yuan(subtotal - discount)}",
                    size=44,
                    bold=True,
                    color=PRICE,
                    align="right",
                    id="checkout_total",
                ),
                Button(
                    "提交订单",
                    v.do(self.submit_order),
                    id="submit_order",
                    height=120,
                    enabled=bool(lines),
                ),
            ],
            weights=[1.6, 1],
        )
        return Page(
            "确认订单",
            body,
            bottom=bar,
            on_back=v.back(),
            body_padding=24,
            spacing=20,
            overlay=self.checkout_sheet(v, subtotal, address["id"], coupon),
        )

    def checkout_sheet(
        self, v: View, subtotal: int, address_id: str, coupon: Mapping[str, Any] | None
    ) -> BottomSheet | None:
        dialog = v.ui("dialog")
        if dialog == "address":
            return BottomSheet(
                "选择收货地址",
                [
                    ListItem(
                        f"[{a['tag']}] {a['name']} {a['phone']}",
                        subtitle=f"{a['region']} {a['detail']}",
                        selected=a["id"] == address_id,
                        trailing="✓" if a["id"] == address_id else "",
                        on_tap=v.do(self.choose_address, a["id"]),
                        id=f"address_{a['id']}",
                    )
                    for a in v.data["addresses"]
                ],
                on_dismiss=v.set_ui("dialog", None),
            )
        if dialog == "coupon":
            usable = [
                c for c in v.data["coupons"] if not c["used"] and c["threshold_cents"] <= subtotal
            ]
            chosen = coupon["id"] if coupon else None
            return BottomSheet(
                "选择优惠券",
                [
                    *(
                        ListItem(
                            c["title"],
                            subtitle=f"满{c['threshold_cents'] // 100}减"
                            f"{c['discount_cents'] // 100}",
                            trailing="✓" if c["id"] == chosen else "",
                            on_tap=v.do(self.choose_coupon, c["id"]),
                            id=f"coupon_{c['id']}",
                        )
                        for c in usable
                    ),
                    ListItem(
                        "不使用优惠券",
                        trailing="✓" if chosen is None else "",
                        on_tap=v.do(self.choose_coupon, "none"),
                        id="coupon_none",
                    ),
                ],
                on_dismiss=v.set_ui("dialog", None),
            )
        return None

    @screen("pay_result")
    def pay_result(self, v: View) -> Page:
        order = next((o for o in v.data["orders"] if o["id"] == v.params["order_id"]), None)
        paid = yuan(order["total_cents"]) if order else ""
        return Page(
            "支付成功",
            [
                Card(
                    [
                        Text("✓ 支付成功", size=64, bold=True, color=ORANGE, align="center"),
                        Text(f"实付 {paid}", size=44, align="center", id="paid_amount"),
                        Text(
                            "卖家将尽快为你发货",
                            size=36,
                            color=theme.TEXT_SECONDARY,
                            align="center",
                        ),
                    ],
                    spacing=20,
                    padding=60,
                ),
                Button(
                    "查看订单",
                    v.do(self.view_order, v.params["order_id"]),
                    id="view_order",
                    style="secondary",
                ),
                Button("继续逛逛", v.do(self.back_home), id="back_home"),
            ],
            on_back=v.back(),
            body_padding=40,
            spacing=30,
        )

    # -- screens: orders ---------------------------------------------------------------------------
    @screen("orders")
    def orders(self, v: View) -> Page:
        tab = v.ui("tab", v.params.get("tab", "all"))
        orders = sorted(v.data["orders"], key=lambda o: (-o["created_at"], o["id"]))
        shown = [o for o in orders if tab == "all" or o["status"] == tab]
        cards: list[Widget | None] = [self.order_card(v, o) for o in shown]
        return Page(
            "我的订单",
            cards or [Text("暂无相关订单", color=theme.TEXT_SECONDARY, padding=40)],
            header=Tabs(ORDER_TABS, tab, v.on_select("tab")),
            on_back=v.back(),
            body_padding=24,
            spacing=20,
        )

    def order_card(self, v: View, order: Mapping[str, Any]) -> Card:
        items = [
            Row(
                [
                    self.picture_of_line(v, line, 180),
                    Column(
                        [
                            Text(line["name"], size=36, max_lines=2),
                            Text(
                                f"{options_text(line['options'])}  ×{line['quantity']}",
                                size=30,
                                color=theme.TEXT_SECONDARY,
                            ),
                        ],
                        spacing=6,
                    ),
                ],
                spacing=20,
                weights=[1, 3.2],
            )
            for line in order["items"]
        ]
        shop = order["items"][0]["shop"] if order["items"] else ""
        return Card(
            [
                Row(
                    [
                        Text(shop, size=38, bold=True),
                        Text(
                            ORDER_STATUS[order["status"]],
                            size=38,
                            color=PRICE,
                            align="right",
                            id=f"status_{order['id']}",
                        ),
                    ],
                    weights=[3, 1],
                ),
                *items,
                Text(f"实付款 {yuan(order['total_cents'])}", size=38, bold=True, align="right"),
                Text(f"订单号 {order['number']}", size=30, color=theme.TEXT_SECONDARY),
            ],
            on_tap=v.go("order", order_id=order["id"]),
            id=f"order_{order['id']}",
            padding=28,
            spacing=14,
        )

    def picture_of_line(self, v: View, line: Mapping[str, Any], height: int) -> Widget:
        product = self.product(v.content, line["product_id"])
        if product is None:
            return Image("", height=height)
        return self.picture(v, product, height)

    @screen("order")
    def order(self, v: View) -> Page:
        order = next((o for o in v.data["orders"] if o["id"] == v.params["order_id"]), None)
        if order is None:
            return Page("订单详情", [Text("订单不存在", padding=40)], on_back=v.back())
        address = self.chosen_address(v.data, order["address_id"])
        status = order["status"]
        body = [
            Card(
                [
                    Text(STATUS_BANNERS[status], size=48, bold=True, color=theme.WHITE),
                    Text(ORDER_STATUS[status], size=34, color=theme.WHITE, id="order_status"),
                ],
                fill=ORANGE,
            ),
            Card(
                [
                    Text(f"{address['name']} {address['phone']}", size=40, bold=True),
                    Text(
                        f"{address['region']} {address['detail']}",
                        size=34,
                        color=theme.TEXT_SECONDARY,
                    ),
                ]
            ),
            self.order_card(v, order),
            Card(
                [
                    Text(f"商品总价 {yuan(order['subtotal_cents'])}", size=36),
                    Text(f"优惠 -{yuan(order['discount_cents'])}", size=36),
                    Text(
                        f"实付款 {yuan(order['total_cents'])}",
                        size=40,
                        bold=True,
                        color=PRICE,
                        id="order_total",
                    ),
                ]
            ),
            Card(
                [
                    Text(f"订单编号 {order['number']}", size=34, id="order_number"),
                    Text(f"创建时间 {when(order['created_at'])}", size=34),
                    Text(f"付款时间 {when(order['paid_at'])}", size=34)
                    if order["paid_at"]
                    else None,
                ]
            ),
        ]
        return Page(
            "订单详情",
            body,
            bottom=self.order_actions(v, order),
            on_back=v.back(),
            body_padding=24,
            spacing=20,
            overlay=self.order_dialog(v, order),
        )

    def order_actions(self, v: View, order: Mapping[str, Any]) -> Column | None:
        if order["status"] == "unpaid":
            return self.bottom_bar(
                [
                    Button(
                        "取消订单",
                        v.set_ui("dialog", "cancel"),
                        id="cancel_order",
                        style="secondary",
                        height=120,
                    ),
                    Button(
                        "立即付款", v.do(self.pay_order, order["id"]), id="pay_order", height=120
                    ),
                ],
                weights=[1, 1],
            )
        if order["status"] == "to_receive":
            return self.bottom_bar(
                [
                    Button(
                        "确认收货", v.set_ui("dialog", "receipt"), id="confirm_receipt", height=120
                    )
                ],
                weights=[1],
            )
        return None

    def order_dialog(self, v: View, order: Mapping[str, Any]) -> Dialog | None:
        dialog = v.ui("dialog")
        if dialog == "cancel":
            return Dialog(
                "确定要取消这个订单吗？",
                message="取消后，使用的优惠券将退回你的账户",
                buttons=[
                    Button(
                        "暂不取消", v.set_ui("dialog", None), id="cancel_keep", style="secondary"
                    ),
                    Button(
                        "确定取消",
                        v.do(self.cancel_order, order["id"]),
                        id="cancel_confirm",
                        style="danger",
                    ),
                ],
            )
        if dialog == "receipt":
            return Dialog(
                "确认收货",
                message="请确认已收到货物，确认后货款将打给卖家",
                buttons=[
                    Button(
                        "再等等", v.set_ui("dialog", None), id="receipt_later", style="secondary"
                    ),
                    Button("确认", v.do(self.confirm_receipt, order["id"]), id="receipt_confirm"),
                ],
            )
        return None

    # -- screens: my account -----------------------------------------------------------------------
    @screen("favorites")
    def favorites(self, v: View) -> Page:
        products = [self.product(v.content, f["id"]) for f in reversed(v.data["favorites"])]
        cards: list[Widget | None] = [self.product_card(v, p) for p in products if p is not None]
        return Page(
            "收藏夹",
            cards or [Text("还没有收藏的宝贝", color=theme.TEXT_SECONDARY, padding=40)],
            on_back=v.back(),
            body_padding=24,
            spacing=20,
        )

    @screen("addresses")
    def addresses(self, v: View) -> Page:
        return Page(
            "收货地址",
            [
                ListItem(
                    f"[{a['tag']}] {a['name']} {a['phone']}" + (" 默认" if a["default"] else ""),
                    subtitle=f"{a['region']} {a['detail']}",
                    id=f"address_{a['id']}",
                )
                for a in v.data["addresses"]
            ],
            on_back=v.back(),
        )

    @screen("coupons")
    def coupons(self, v: View) -> Page:
        return Page(
            "我的优惠券",
            [
                Card(
                    [
                        Text(
                            f"{yuan(c['discount_cents'])}  {c['title']}",
                            size=44,
                            bold=True,
                            color=theme.TEXT_SECONDARY if c["used"] else PRICE,
                        ),
                        Text(
                            f"满{c['threshold_cents'] // 100}可用 · 有效期至 {c['expires']}"
                            + (" · 已使用" if c["used"] else ""),
                            size=32,
                            color=theme.TEXT_SECONDARY,
                        ),
                    ],
                    id=f"coupon_{c['id']}",
                )
                for c in v.data["coupons"]
            ],
            on_back=v.back(),
            body_padding=24,
            spacing=20,
        )

    # -- direct tools ----------------------------------------------------------------------------
    @tool(
        "add_to_cart",
        "Add a product (by id, e.g. p012) to the cart with its default options.",
        {"product_id": str, "quantity": int},
    )
    def add_to_cart_tool(self, it: Interaction, product_id: str, quantity: int) -> str:
        product = self.require_product(it, product_id)
        options = default_options(product)
        self.add_line(it, product, options, quantity)
        return f"已加入购物车：{product['name']}（{options_text(options)}）×{quantity}"

    @tool(
        "search_products",
        "Search the catalogue; returns up to 10 matches as id, name and price.",
        {"query": str},
    )
    def search_products_tool(self, it: Interaction, query: str) -> str:
        found = catalogue.search(it.content["products"], query)
        if not found:
            return f"没有找到“{query}”相关的宝贝"
        shown = "; ".join(f"{p['id']} {p['name']} {yuan(p['price_cents'])}" for p in found[:10])
        more = f"（共 {len(found)} 件，仅显示前 10 件）" if len(found) > 10 else ""
        return shown + more
