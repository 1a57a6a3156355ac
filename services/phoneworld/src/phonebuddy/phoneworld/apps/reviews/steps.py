"""What the templates of 点评 share: reading the seeded shops, the oracle's steps through the app
(open a shop, book a table, write a review) and the verifiers' checks of a booking."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.reviews.content import (
    BOOKED,
    CATEGORIES,
    REVIEWS,
    SLOTS,
    is_full,
)
from phonebuddy.phoneworld.tasks.base import Params
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI, texts
from phonebuddy.phoneworld.ui.format import local_date
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action

BOOKINGS = f"apps/{REVIEWS}/bookings"
MY_REVIEWS = f"apps/{REVIEWS}/reviews"
FAVORITES = f"apps/{REVIEWS}/favorites"
DAY_ZH = {1: "明天", 2: "后天"}
DAY_EN = {1: "tomorrow", 2: "the day after tomorrow"}
DEFAULT_PEOPLE = 2


def shops(world: World) -> tuple[Any, ...]:
    return tuple(world.content(REVIEWS)["shops"])


def base_name(name: str) -> str:
    """'海底捞火锅(望京店)' -> '海底捞火锅'."""
    return name.partition("(")[0]


def name_forms(shop: Any) -> tuple[str, str]:
    return (shop["name"], base_name(shop["name"]))


def other_names(world: World, *mine: Any) -> list[str]:
    ids = {s["id"] for s in mine}
    return [form for s in shops(world) if s["id"] not in ids for form in name_forms(s)]


def free_slots(shop: Any, offset: int, slots: tuple[str, ...] = SLOTS) -> list[str]:
    return [s for s in slots if not is_full(shop, offset, s)]


def visit(rng: random.Random, shop: Any, slots: tuple[str, ...] = SLOTS[5:]) -> Params:
    """A free dinner slot at `shop` on tomorrow or the day after, and a party size."""
    offset = rng.choice((1, 2))
    return {"day": offset, "time": rng.choice(free_slots(shop, offset, slots)),
            "people": rng.randrange(2, 9)}  # fmt: skip


def shop_params(shop: Any) -> Params:
    return {"shop_id": shop["id"], "shop": shop["name"], "category": shop["category"]}


def visit_date(diff: StateDiff, day: int) -> str:
    return (local_date(diff.before["os"]["clock"]) + dt.timedelta(days=day)).isoformat()


def when_zh(params: Params) -> str:
    return f"{DAY_ZH[params['day']]}{params['time']}"


def when_en(params: Params) -> str:
    return f"{DAY_EN[params['day']]} at {params['time']}"


# -- verifier checks ---------------------------------------------------------------------------


def booking_problems(diff: StateDiff, shop_id: str, day: int, time: str, people: int) -> list[str]:
    """Exactly one new booking (claimed): at `shop_id`, `day` days from the start, at `time`,
    for `people`."""
    booking, problems = one_added(diff, BOOKINGS, "booking")
    if booking is None:
        return problems
    expected = {"shop_id": shop_id, "date": visit_date(diff, day), "time": time,
                "people": people, "status": BOOKED}  # fmt: skip
    return [
        f"the booking's {key} is {booking.get(key)!r}, expected {value!r}"
        for key, value in expected.items()
        if booking.get(key) != value
    ]


def booked(diff: StateDiff, params: Params) -> list[str]:
    return booking_problems(diff, params["shop_id"], params["day"], params["time"],
                            params["people"])  # fmt: skip


# -- oracle steps ------------------------------------------------------------------------------


def open_category(ui: OracleUI, category: str) -> Iterator[Action]:
    yield ui.open("点评")
    yield ui.tap(f"cat_{CATEGORIES.index(category) + 1}")


def tap_shop(ui: OracleUI, name: str) -> Iterator[Action]:
    """On the 发现 list: scroll to the shop and open it."""
    yield from ui.scroll_to(text=name)
    yield ui.tap(text=name)


def open_shop(ui: OracleUI, name: str, category: str) -> Iterator[Action]:
    yield from open_category(ui, category)
    yield from tap_shop(ui, name)


def rating_shown(ui: OracleUI) -> float:
    return float(ui.text_of("rating").removeprefix("★").strip())


def price_shown(ui: OracleUI) -> int:
    return int(ui.text_of("price").removeprefix("人均 ¥"))


def slot_full(ui: OracleUI, time: str) -> bool:
    return "满" in ui.text_of(f"slot_{time.replace(':', '')}")


def pick_day(ui: OracleUI, day: int) -> Iterator[Action]:
    """On a shop's page: 订座 and the day."""
    yield from ui.scroll_to("book")
    yield ui.tap("book")
    yield ui.tap(f"day_{day}")


def finish_booking(ui: OracleUI, time: str, people: int) -> Iterator[Action]:
    """On the booking form with its day chosen: the time, the party size, submit, confirm."""
    slot = f"slot_{time.replace(':', '')}"
    yield from ui.scroll_to(slot)
    yield ui.tap(slot)
    yield from ui.scroll_to("people_plus")
    for _ in range(abs(people - DEFAULT_PEOPLE)):
        yield ui.tap("people_plus" if people > DEFAULT_PEOPLE else "people_minus")
    if ui.text_of("people") != f"{people}人":
        raise OracleError(f"the form shows {ui.text_of('people')}, not {people}人")
    yield from ui.scroll_to("submit_booking")
    yield ui.tap("submit_booking")
    yield ui.tap("confirm_booking")


def book_here(ui: OracleUI, day: int, time: str, people: int) -> Iterator[Action]:
    """On a shop's page: book a table."""
    yield from pick_day(ui, day)
    yield from finish_booking(ui, time, people)


def listed_shops(ui: OracleUI) -> list[tuple[str, list[str]]]:
    """The shop rows on screen, top first: (widget id, their texts)."""
    prefix = f"{REVIEWS}:id/shop_"
    rows = [n for n in ui.device.ui_tree().walk() if n.resource_id.startswith(prefix)]
    rows.sort(key=lambda n: n.bounds.top)
    return [(n.resource_id.rpartition(":id/")[2], texts(n)) for n in rows]


def row_values(shown: list[str]) -> tuple[str, float, int]:
    """A shop row's name, rating and 人均 from its texts."""
    line = next(t for t in shown if t.startswith("★"))
    rating, price = line.split()[:2]
    name = shown[shown.index(line) - 1]
    return name, float(rating.removeprefix("★")), int(price.removeprefix("人均¥"))
