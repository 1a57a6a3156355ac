"""The Shop app (Taobao-like): search and categories, product pages with SKU options, a cart,
checkout paid through the wallet, and orders from 待付款 to 已完成.

Screens keep their view state (sort, filters, the SKU sheet, which cart lines are ticked) in UI
state; app data holds only what a shopper would expect to persist: cart, orders, favourites,
coupons, addresses. The screens live in three modules (catalogue, checkout, orders) whose
classes this one combines; what they share is in `base`.
"""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import Label, tool
from phonebuddy.phoneworld.apps.shop import content as catalogue
from phonebuddy.phoneworld.apps.shop.base import ORANGE
from phonebuddy.phoneworld.apps.shop.catalogue import CatalogueScreens
from phonebuddy.phoneworld.apps.shop.checkout import CheckoutScreens
from phonebuddy.phoneworld.apps.shop.content import default_options, options_text
from phonebuddy.phoneworld.apps.shop.orders import OrderScreens
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.system.friction import Friction, Popup
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.ui.theme import AppTheme


class Shop(CatalogueScreens, CheckoutScreens, OrderScreens):
    package = "com.pw.shop"
    label = Label(zh="购物", en="Shop")
    domain = "shopping"
    theme = AppTheme(primary=ORANGE)
    friction = Friction(
        splash="好货不贵，天天特价",
        popup=Popup("新人专享红包", "¥20 无门槛券已到账，限今日使用", "立即领取", toast="领取成功"),
        login_screens=("checkout",),
        loading_screens=("results", "product"),
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
