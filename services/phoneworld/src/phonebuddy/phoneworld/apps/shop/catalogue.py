"""The Shop's browsing screens: home (feed, categories, 我的), search, results with sort and
price filters, the product page with its SKU sheet, and favourites.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.shop import content as catalogue
from phonebuddy.phoneworld.apps.shop.base import (
    FEED_SIZE,
    HISTORY_SIZE,
    HOT_SEARCHES,
    MAX_QUANTITY,
    ORANGE,
    PALE_ORANGE,
    PRICE,
    PRICE_BANDS,
    SORTS,
    Product,
    ShopBase,
    in_band,
    sales_text,
    sort_products,
)
from phonebuddy.phoneworld.apps.shop.content import (
    ORDER_STATUS,
    default_options,
    options_text,
    sku_price,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import yuan
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


class CatalogueScreens(ShopBase):
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
