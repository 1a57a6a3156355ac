"""What the screens of 闲置 share: constants, look-ups and every handler (the only place the
data changes): 我想要, chat and offers, orders paid in the wallet, publishing and managing
the user's own listings."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View
from phonebuddy.phoneworld.apps.secondhand import content
from phonebuddy.phoneworld.apps.secondhand.content import ME, yuan
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui.theme import AppTheme, Color

SECONDHAND = "com.pw.secondhand"
YELLOW: Color = (255, 218, 68)
DARK: Color = (34, 34, 34)
ORANGE: Color = (230, 120, 0)
MAX_PRICE = 1_000_000  # yuan
STATUS = {"unpaid": "待付款", "to_ship": "待发货", "to_receive": "待收货", "done": "交易成功"}

Source = View | Interaction


def parse_yuan(raw: str) -> int | None:
    """Cents for a positive amount of yuan with at most two decimals, else None."""
    text = raw.strip().removeprefix("¥").removesuffix("元").strip()
    whole, _, part = text.partition(".")
    if not whole.isdigit() or (part and (not part.isdigit() or len(part) > 2)):
        return None
    cents = int(whole) * 100 + int(part.ljust(2, "0") if part else 0)
    return cents if 0 < cents <= MAX_PRICE * 100 else None


class SecondhandBase(App):
    package = SECONDHAND
    label = Label(zh="闲置", en="Secondhand")
    domain = "second-hand market"
    theme = AppTheme(primary=YELLOW, on_primary=DARK, accent=ORANGE)
    icon_text = "闲"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return content.build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "listings": [clone(x) for x in content["listings"]],
            "favourites": [{"id": i} for i in content["favourites"]],
            "orders": [clone(o) for o in content["orders"]],
            "threads": [clone(t) for t in content["threads"]],
            "addresses": [clone(a) for a in content["addresses"]],
        }

    # -- look-ups -------------------------------------------------------------------------------
    @staticmethod
    def listing(src: Source, listing_id: str) -> dict[str, Any] | None:
        return next((x for x in src.data["listings"] if x["id"] == listing_id), None)

    @staticmethod
    def seller(src: Source, seller_id: str) -> dict[str, Any]:
        if seller_id == ME:
            return {"id": ME, "nick": "我", "city": "杭州", "credit": "信用极好"}
        return dict(next(s for s in src.content["sellers"] if s["id"] == seller_id))

    @staticmethod
    def wanted(data: dict[str, Any], listing_id: str) -> bool:
        return any(f["id"] == listing_id for f in data["favourites"])

    @staticmethod
    def thread(data: dict[str, Any], listing_id: str) -> dict[str, Any] | None:
        return next((t for t in data["threads"] if t["listing"] == listing_id), None)

    @staticmethod
    def order(data: dict[str, Any], order_id: str) -> dict[str, Any] | None:
        return next((o for o in data["orders"] if o["id"] == order_id), None)

    @staticmethod
    def chosen_address(data: dict[str, Any], address_id: str | None) -> dict[str, Any]:
        found = next((a for a in data["addresses"] if a["id"] == address_id), None)
        return found or next(a for a in data["addresses"] if a["default"])

    def require_listing(self, it: Interaction, listing_id: str) -> dict[str, Any]:
        listing = self.listing(it, listing_id)
        if listing is None:
            it.toast("宝贝不存在或已下架")
            it.no_op(f"no listing {listing_id}")
        return listing  # type: ignore[return-value]

    def require_mine(self, it: Interaction, listing_id: str) -> dict[str, Any]:
        listing = self.require_listing(it, listing_id)
        if listing["seller"] != ME:
            it.no_op(f"{listing_id} is not the user's")
        return listing

    # -- handlers: 我想要, chat, offers ------------------------------------------------------------
    def toggle_want(self, it: Interaction, listing_id: str) -> None:
        listing = self.require_listing(it, listing_id)
        if listing["seller"] == ME:
            it.no_op("one's own listing")
        if self.wanted(it.data, listing_id):
            it.data["favourites"] = [f for f in it.data["favourites"] if f["id"] != listing_id]
            it.toast("已取消想要")
        else:
            it.data["favourites"].insert(0, {"id": listing_id})
            it.toast("已加入我想要")

    def _post(self, it: Interaction, listing: dict[str, Any], text: str, offer: int | None) -> None:
        thread = self.thread(it.data, listing["id"])
        if thread is None:
            thread = {"id": f"t-{listing['id']}", "listing": listing["id"],
                      "seller": listing["seller"], "messages": []}  # fmt: skip
            it.data["threads"].insert(0, thread)
        thread["messages"].append(
            {"id": it.new_id("msg"), "mine": True, "text": text, "time": it.clock, "offer": offer}
        )

    def send_message(self, it: Interaction, listing_id: str) -> None:
        listing = self.require_listing(it, listing_id)
        text = it.field("chat_input").strip()
        if not text:
            it.no_op("an empty message")
        if listing["seller"] == ME:
            it.no_op("chatting with oneself")
        self._post(it, listing, text, None)
        it.set_field("chat_input", "")

    def make_offer(self, it: Interaction, listing_id: str) -> None:
        listing = self.require_listing(it, listing_id)
        cents = parse_yuan(it.field("offer_price"))
        if cents is None:
            it.set_ui("offer_error", "请输入正确的价格")
            it.no_op("a bad offer")
        if cents >= listing["price"]:  # type: ignore[operator]
            it.set_ui("offer_error", f"出价需低于标价{yuan(listing['price'])}")
            it.no_op("an offer not below the asking price")
        if listing["sold"]:
            it.toast("宝贝已卖出")
            it.no_op("the listing is sold")
        self._post(it, listing, f"我出价{yuan(cents)}，可以吗？", cents)  # type: ignore[arg-type]
        it.set_field("offer_price", "")
        it.set_ui("offer_error", None)
        it.set_ui("dialog", None)
        it.toast("出价已发送")

    @staticmethod
    def close_offer(it: Interaction) -> None:
        it.set_field("offer_price", "")
        it.set_ui("offer_error", None)
        it.set_ui("dialog", None)

    # -- handlers: buying ---------------------------------------------------------------------
    def start_buy(self, it: Interaction, listing_id: str) -> None:
        listing = self.require_listing(it, listing_id)
        if listing["sold"]:
            it.toast("宝贝已卖出，无法购买")
            it.no_op("the listing is sold")
        if listing["seller"] == ME:
            it.no_op("buying one's own listing")
        it.push("confirm", listing_id=listing_id)

    def choose_address(self, it: Interaction, address_id: str) -> None:
        it.set_ui("address_id", address_id)
        it.set_ui("dialog", None)

    def submit_order(self, it: Interaction, listing_id: str) -> None:
        listing = self.require_listing(it, listing_id)
        if listing["sold"]:
            it.toast("宝贝已卖出，无法购买")
            it.no_op("the listing is sold")
        address = self.chosen_address(it.data, it.ui("address_id"))
        order = next((o for o in it.data["orders"]
                      if o["listing"] == listing_id and o["status"] == "unpaid"), None)  # fmt: skip
        if order is None:
            order = {
                "id": it.new_id("order"), "listing": listing_id, "title": listing["title"],
                "price": listing["price"], "shipping": listing["shipping"],
                "total": listing["price"] + listing["shipping"], "address_id": address["id"],
                "status": "unpaid", "created_at": it.clock, "paid_at": None,
            }  # fmt: skip
            it.data["orders"].insert(0, order)
        order["address_id"] = address["id"]
        self.ask_wallet(it, order)

    @staticmethod
    def ask_wallet(it: Interaction, order: dict[str, Any]) -> None:
        it.request_payment(
            amount_cents=int(order["total"]),
            merchant="闲置",
            reference=str(order["id"]),
            description=f"闲置宝贝：{order['title']}",
        )

    def pay_order(self, it: Interaction, order_id: str) -> None:
        order = self.order(it.data, order_id)
        if order is None or order["status"] != "unpaid":
            it.no_op("no order awaiting payment")
        listing = self.listing(it, order["listing"])  # type: ignore[index]
        if listing is None or listing["sold"]:
            it.toast("宝贝已卖出，无法支付")
            it.no_op("the listing is gone")
        self.ask_wallet(it, order)  # type: ignore[arg-type]

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        order = self.order(it.data, reference)
        if order is None:
            return
        if not paid:
            it.toast("订单待付款，可在“我买到的”中继续支付")
            return
        if order["status"] == "unpaid":
            order["status"] = "to_ship"
            order["paid_at"] = it.clock
            listing = self.listing(it, order["listing"])
            if listing is not None:
                listing["sold"] = True
        it.toast("支付成功，等待卖家发货")
        if it.entry["screen"] == "confirm":
            it.replace("orders")

    def confirm_receipt(self, it: Interaction, order_id: str) -> None:
        order = self.order(it.data, order_id)
        if order is None or order["status"] != "to_receive":
            it.no_op("no order awaiting receipt")
        order["status"] = "done"  # type: ignore[index]
        it.set_ui("dialog", None)
        it.toast("已确认收货")

    # -- handlers: the user's own listings ------------------------------------------------------
    def publish(self, it: Interaction) -> None:
        title, desc = it.field("sell_title").strip(), it.field("sell_desc").strip()
        price = parse_yuan(it.field("sell_price"))
        category, free = it.ui("category"), it.ui("free_ship", True)
        shipping = 0 if free else parse_yuan(it.field("sell_shipping"))
        error = None
        if not title:
            error = "请填写宝贝标题"
        elif len(title) > 30:
            error = "标题不能超过30个字"
        elif price is None:
            error = "请输入正确的价格"
        elif category is None:
            error = "请选择分类"
        elif shipping is None or shipping > 100 * 100:
            error = "请输入1到100元的运费"
        if error is not None:
            it.set_ui("sell_error", error)
            it.no_op(error)
        listing_id = it.new_id("listing")
        it.data["listings"].append({
            "id": listing_id, "title": title, "category": category, "price": price,
            "original": price, "condition": it.ui("condition", "九成新"), "seller": ME,
            "desc": desc, "wants": 0, "posted": it.clock, "shipping": shipping, "sold": False,
        })  # fmt: skip
        for name in ("sell_title", "sell_desc", "sell_price", "sell_shipping"):
            it.set_field(name, "")
        it.toast("发布成功")
        it.replace("listing", listing_id=listing_id)

    def reprice(self, it: Interaction, listing_id: str) -> None:
        listing = self.require_mine(it, listing_id)
        cents = parse_yuan(it.field("new_price"))
        if cents is None:
            it.set_ui("price_error", "请输入正确的价格")
            it.no_op("a bad price")
        if cents == listing["price"]:
            it.set_ui("price_error", "价格没有变化")
            it.no_op("the same price")
        if listing["sold"]:
            it.no_op("the listing is sold")
        listing["price"] = cents
        it.set_field("new_price", "")
        it.set_ui("price_error", None)
        it.toast("改价成功")

    def mark_sold(self, it: Interaction, listing_id: str) -> None:
        listing = self.require_mine(it, listing_id)
        if listing["sold"]:
            it.no_op("already sold")
        listing["sold"] = True
        it.set_ui("dialog", None)
        it.toast("已标记为卖出")

    def take_down(self, it: Interaction, listing_id: str) -> None:
        self.require_mine(it, listing_id)
        it.data["listings"] = [x for x in it.data["listings"] if x["id"] != listing_id]
        it.data["favourites"] = [f for f in it.data["favourites"] if f["id"] != listing_id]
        it.set_ui("dialog", None)
        it.toast("宝贝已下架")
        it.pop()
