"""What the 演出票 templates share: content look-ups, oracle steps and verifier checks."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Collection, Iterator
from typing import Any

from phonebuddy.phoneworld.apps.showtix.base import SHOWTIX
from phonebuddy.phoneworld.apps.showtix.content import make_id
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.ui.format import local_date
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category

ORDERS = f"apps/{SHOWTIX}/orders"
WANT = f"apps/{SHOWTIX}/want"
WAITLIST = f"apps/{SHOWTIX}/waitlist"
VIEWERS = f"apps/{SHOWTIX}/viewers"
PAY_CONFIRM = "com.pw.wallet:id/pay_confirm"
# The wallet's balance is at least ¥800 after a reset: orders paid in tasks stay within it.
BUDGET = 80000
NEW_NAMES = ("刘洋", "孙悦", "周敏", "吴磊", "郑爽", "冯军", "何静", "高峰")
REGIONS = ("110101", "310115", "440305", "510107", "330106", "320102")


def shows(world: World) -> list[Any]:
    return list(world.content(SHOWTIX)["shows"])


def seeded_orders(world: World) -> list[Any]:
    return list(world.content(SHOWTIX)["orders"])


def seeded_viewers(world: World) -> list[Any]:
    return list(world.content(SHOWTIX)["viewers"])


def show_by_id(world: World, show_id: str) -> Any:
    return next(s for s in shows(world) if s["id"] == show_id)


def show_params(show: Any) -> Params:
    return {"show_id": show["id"], "title": show["title"]}


def earliest(show: Any) -> Any:
    return min(show["sessions"], key=lambda s: s["day"])


def yuan(cents: int) -> int:
    return cents // 100


def new_person(rng: random.Random, taken: Collection[str] = ()) -> Params:
    """A new 观演人: a name not in `taken` and an ID number with a valid checksum."""
    name = rng.choice([n for n in NEW_NAMES if n not in taken])
    birth = dt.date(1980, 1, 1) + dt.timedelta(days=rng.randrange(0, 9000))
    return {"name": name, "idno": make_id(rng.choice(REGIONS), f"{birth:%Y%m%d}",
                                          rng.randrange(10, 999))}  # fmt: skip


def session_day(diff: StateDiff, day: int) -> dt.date:
    """The date of a session `day` days after the episode's first day."""
    return local_date(diff.before["os"]["clock"]) + dt.timedelta(days=day)


def episode_day(clock: int, day: int) -> dt.date:
    return local_date(clock) + dt.timedelta(days=day)


def date_zh(day: dt.date) -> str:
    return f"{day.month}月{day.day}日"


# -- oracle steps ------------------------------------------------------------------------------
def open_show(ui: OracleUI, title: str, show_id: str) -> Iterator[Action]:
    """From anywhere: open 演出票, search the title, open the show's page."""
    yield ui.open("演出票")
    yield from ui.type_into("search", title)
    yield ui.tap(f"show_{show_id}")


def choose(
    ui: OracleUI, session_id: str, price: int, qty: int = 1, *, session_picked: bool = False
) -> Iterator[Action]:
    """On a show's page: the session (unless picked already), the tier, the quantity, 立即购买."""
    if not session_picked:
        yield from ui.scroll_to(f"session_{session_id}")
        yield ui.tap(f"session_{session_id}")
    yield from ui.scroll_to(f"tier_{yuan(price)}")
    yield ui.tap(f"tier_{yuan(price)}")
    for _ in range(qty - 1):
        yield from ui.scroll_to("qty_plus")
        yield ui.tap("qty_plus")
    yield from ui.scroll_to("buy")
    yield ui.tap("buy")


def pick_viewers(ui: OracleUI, names: list[str]) -> Iterator[Action]:
    for name in names:
        yield from ui.scroll_to(text=name)
        yield ui.tap(text=name)


def submit_and_pay(ui: OracleUI) -> Iterator[Action]:
    yield from ui.scroll_to("submit")
    yield ui.tap("submit")
    yield ui.tap(PAY_CONFIRM)


# -- verifier checks ---------------------------------------------------------------------------
def paid_order_problems(
    diff: StateDiff, session_id: str, price: int, qty: int, viewers: list[str] | None
) -> list[str]:
    """One new order, paid in the wallet: the session, tier and quantity, and for 实名制 shows
    the 观演人 `viewers` (names); claims the order and the wallet's bill and balance."""
    order, problems = one_added(diff, ORDERS, "order")
    if order is None:
        return problems
    got = (order["session"], order["tier"], order["qty"], order["status"])
    if got != (session_id, price, qty, "已付款"):
        problems.append(f"ordered {got}, expected {(session_id, price, qty, '已付款')}")
    if viewers is not None:
        people = {p["id"]: p["name"] for p in diff.value_after(VIEWERS)}
        named = sorted(people.get(i, "?") for i in order["viewers"])
        if named != sorted(viewers):
            problems.append(f"the 观演人 are {named}, expected {sorted(viewers)}")
    return problems + wallet_payment_problems(
        diff, amount_cents=price * qty, reference=f"ticket:{order['id']}"
    )


def want_problems(diff: StateDiff, added: list[str]) -> list[str]:
    """想看 gained exactly the shows `added` (ids) and lost none."""
    if not diff.touched(WANT):
        return [f"想看 did not change, expected {added}"]
    before, after = set(diff.value_before(WANT)), set(diff.value_after(WANT))
    if after - before != set(added) or before - after:
        return [f"想看 gained {sorted(after - before)} and lost {sorted(before - after)}, "
                f"expected to gain {sorted(added)}"]  # fmt: skip
    return []


def waitlist_problems(diff: StateDiff, session_id: str, price: int) -> list[str]:
    entry, problems = one_added(diff, WAITLIST, "缺货登记")
    if entry is not None and (entry["session"], entry["tier"]) != (session_id, price):
        problems.append(f"registered {(entry['session'], entry['tier'])}, "
                        f"expected {(session_id, price)}")  # fmt: skip
    return problems


class ShowTixTemplate(TaskTemplate):
    """A template of 演出票 alone."""

    category = Category.SINGLE_APP
    apps = (SHOWTIX,)
