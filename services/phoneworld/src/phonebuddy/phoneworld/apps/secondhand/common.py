"""What the 闲置 templates share: content look-ups, oracle steps and checks."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.secondhand.base import SECONDHAND
from phonebuddy.phoneworld.apps.secondhand.content import ME
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category

LISTINGS = f"apps/{SECONDHAND}/listings"
FAVOURITES = f"apps/{SECONDHAND}/favourites"
ORDERS = f"apps/{SECONDHAND}/orders"
THREADS = f"apps/{SECONDHAND}/threads"
MESSAGES = "com.pw.messages"
NOTES = "com.pw.notes"
WALLET_FLOOR = 80000
NUMERALS = re.compile(r"[0-9一二两三四五六七八九十百]")


def listings(world: World) -> list[Any]:
    return list(world.content(SECONDHAND)["listings"])


def on_sale(world: World) -> list[Any]:
    """Other people's listings still for sale after a reset."""
    return [x for x in listings(world) if not x["sold"] and x["seller"] != ME]


def affordable(world: World) -> list[Any]:
    """Listings for sale whose total the wallet always covers (a fresh balance is 800 yuan or
    more)."""
    return [x for x in on_sale(world) if x["price"] + x["shipping"] <= WALLET_FLOOR]


def own(world: World) -> list[Any]:
    return [x for x in listings(world) if x["seller"] == ME]


def seller(world: World, seller_id: str) -> Any:
    return next(s for s in world.content(SECONDHAND)["sellers"] if s["id"] == seller_id)


def plain_title(listing: Any) -> bool:
    """Whether the title holds no numeral, which an answer naming it would read as a number."""
    return NUMERALS.search(listing["title"]) is None


def listing_params(listing: Any) -> Params:
    return {"listing_id": listing["id"], "title": listing["title"], "price": listing["price"],
            "shipping": listing["shipping"]}  # fmt: skip


def whole_yuan(cents: int) -> str:
    return f"{cents // 100}" if cents % 100 == 0 else f"{cents / 100:.2f}"


def parse_price(text: str) -> int:
    """Cents from '¥1280' or '¥12.50' at the start of `text`."""
    amount = text.lstrip("¥").split("｜")[0].strip()
    return round(float(amount) * 100)


def shipping_cents(label: str) -> int:
    return 0 if label == "包邮" else int(label.removeprefix("运费").removesuffix("元")) * 100


class CrossTemplate(TaskTemplate):
    category = Category.CROSS_APP


class SecondhandTemplate(TaskTemplate):
    """A template of 闲置 alone."""

    category = Category.SINGLE_APP
    apps = (SECONDHAND,)


# -- oracle steps ------------------------------------------------------------------------------
def open_listing(
    ui: OracleUI, title: str, listing_id: str, *, launch: bool = True
) -> Iterator[Action]:
    """Search the title from 闲置's home and open the listing."""
    if launch:
        yield ui.open("闲置")
    yield ui.tap("search_open")
    yield from ui.type_into("query", title)
    yield ui.tap(f"result_{listing_id}")


def open_mine(ui: OracleUI) -> Iterator[Action]:
    yield ui.open("闲置")
    yield ui.tap("tab_me")
    yield ui.tap("my_listings")


def back_to(ui: OracleUI, widget_id: str) -> Iterator[Action]:
    """Back until `widget_id` shows (the first back may only hide the keyboard)."""
    for _ in range(3):
        if ui.find(widget_id) is not None:
            return
        yield ui.back()


def read_rows(ui: OracleUI, prefix: str) -> Iterator[Action | dict[str, list[str]]]:
    """Scroll the whole list, collecting the texts of every row whose id starts `prefix`; the
    last item yielded is {listing id: texts}."""
    rid = f"{SECONDHAND}:id/{prefix}_"
    rows: dict[str, list[str]] = {}
    while True:
        for node in ui.device.ui_tree().walk():
            if node.resource_id.startswith(rid):
                rows[node.resource_id.removeprefix(rid)] = ui.texts_in(node.resource_id)
        if ui.device.scroll_room("content")[1] <= 0:
            break
        yield ui.page_down()
    yield rows


def buy_steps(ui: OracleUI, address_id: str | None = None) -> Iterator[Action]:
    """On a listing's page: 立即购买, the address if given, pay in the wallet."""
    yield ui.tap("buy")
    if address_id is not None:
        yield ui.tap("address")
        yield ui.tap(f"address_{address_id}")
    yield ui.tap("submit")
    yield ui.tap("com.pw.wallet:id/pay_confirm")


# -- checks --------------------------------------------------------------------------------------
def chat_sent(diff: StateDiff) -> list[tuple[str, dict[str, Any]]]:
    """Every chat message sent in the episode as (listing id, message), claimed."""
    sent = [(t["listing"], m) for t in diff.added(THREADS) for m in t["messages"]]
    for thread in diff.before["apps"][SECONDHAND]["threads"]:
        for message in diff.added(f"{THREADS}[{thread['id']}]/messages"):
            sent.append((thread["listing"], message))
    return sent


def offer_problems(diff: StateDiff, listing_id: str, cents: int) -> list[str]:
    sent = chat_sent(diff)
    if len(sent) != 1:
        return [f"expected one offer message, found {len(sent)}"]
    where, message = sent[0]
    problems = [] if where == listing_id else [f"the offer went to {where}, not {listing_id}"]
    if message["offer"] != cents:
        problems.append(f"offered {message['offer']}, expected {cents}")
    return problems


def favourited(diff: StateDiff, listing_id: str) -> list[str]:
    fav, problems = one_added(diff, FAVOURITES, "favourite")
    if fav is not None and fav["id"] != listing_id:
        problems.append(f"favourited {fav['id']}, expected {listing_id}")
    return problems


def bought(diff: StateDiff, listing: Params, address_id: str | None = None) -> list[str]:
    """One paid order of the listing (to the address given), the listing sold, the wallet paid
    its total once."""
    order, problems = one_added(diff, ORDERS, "order")
    total = listing["price"] + listing["shipping"]
    if order is None:
        return problems
    if order["listing"] != listing["listing_id"]:
        problems.append(f"ordered {order['listing']}, expected {listing['listing_id']}")
    if order["status"] != "to_ship":
        problems.append(f"the order is {order['status']}, not paid")
    if address_id is not None and order["address_id"] != address_id:
        problems.append(f"shipped to {order['address_id']}, expected {address_id}")
    path = f"{LISTINGS}[{listing['listing_id']}]"
    problems += expect_changes(diff, path, {f"{path}/sold": True})
    return problems + wallet_payment_problems(diff, amount_cents=total, reference=order["id"])
