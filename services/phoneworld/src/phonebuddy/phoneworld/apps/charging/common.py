"""What the 充电桩 templates share: content look-ups, the expected bill, oracle steps (open a
station, start a session, wait for its target, stop it) and verifier checks."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.charging.base import CHARGING
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.tasks.payments import WALLET_BALANCE, WALLET_BILLS
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Wait

ROOT = f"apps/{CHARGING}"
HISTORY = f"{ROOT}/history"
FAVOURITES = f"{ROOT}/favourites"
VEHICLES = f"{ROOT}/vehicles"
BALANCE = f"{ROOT}/balance"
MESSAGES = "com.pw.messages"
NOTES = "com.pw.notes"
MESSENGER = "com.pw.messenger"
LABEL = "充电桩"
DONE = "已达到充电目标，请结束充电"
FIRST_CAR = "v-1"


def stations(world: World) -> list[Any]:
    return list(world.content(CHARGING)["stations"])


def by_distance(world: World) -> list[Any]:
    return sorted(stations(world), key=lambda s: s["distance"])


def station_params(station: Any) -> Params:
    return {"station_id": station["id"], "station": station["name"]}


def free_piles(station: Any, kind: str | None = None) -> list[Any]:
    return [p for p in station["piles"]
            if p["status"] == "空闲" and (kind is None or p["kind"] == kind)]  # fmt: skip


def nearest_free_fast(world: World) -> Any:
    return next(s for s in by_distance(world) if free_piles(s, "快充"))


def room_kwh(world: World) -> int:
    """Whole kWh the first vehicle can still take."""
    car = world.content(CHARGING)["vehicles"][0]
    return int(car["battery"] * (100 - car["soc"]) // 100)


def expected_total(world: World, station: Any, kwh: int, band: str = "峰") -> int:
    """Cents of a bill for `kwh` whole kWh in `band`, the best unused coupon taken off."""
    service = kwh * station["fee"]
    offs = [c["off"] for c in world.content(CHARGING)["coupons"] if service >= c["min"]]
    return kwh * station["prices"][band] + service - max(offs, default=0)


def yuan_text(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}元"


class ChargingTemplate(TaskTemplate):
    """A template of 充电桩 alone."""

    category = Category.SINGLE_APP
    apps = (CHARGING,)


# -- oracle steps --------------------------------------------------------------------------------
def open_home(ui: OracleUI) -> Iterator[Action]:
    """充电桩 on its station list (it reopens where it was left)."""
    yield from ui.open_app(LABEL)
    for _ in range(8):
        if ui.visible("tab_stations"):
            break
        yield ui.back()
    if ui.find("filter_fast") is None:
        yield ui.tap("tab_stations")


def open_station(ui: OracleUI, station_id: str) -> Iterator[Action]:
    yield from open_home(ui)
    yield from ui.scroll_to(f"station_{station_id}")
    yield ui.tap(f"station_{station_id}")


def charge(ui: OracleUI, pile: str, kwh: int, *, vehicle: str | None = None) -> Iterator[Action]:
    """From a page with 输入桩编号充电 (id `start` or `scan`): charge `kwh` and stop."""
    yield ui.tap("start" if ui.visible("start") else "scan")
    yield from ui.type_into("pile", pile)
    if vehicle is not None:
        yield ui.tap(f"vehicle_{vehicle}")
    yield from ui.type_into("target", str(kwh))
    yield ui.tap("start_charge")
    if not ui.visible("state"):
        raise OracleError(f"charging on {pile} did not start")
    power = int(ui.text_of("pile_info").split("｜")[1].removesuffix("kW"))
    for _ in range(20):
        if ui.text_of("state") == DONE:
            break
        done, target = (float(t.strip().split(" ")[1].removesuffix("度"))
                        for t in ui.text_of("charged").split("/"))  # fmt: skip
        # one second on the clock is one minute of charging at `power` kW
        yield Wait(time=min(60, math.ceil((target - done) * 60 / power) + 1))
    yield ui.tap("stop")
    yield ui.tap("confirm_stop")


# -- verifier checks -------------------------------------------------------------------------------
def session_problems(
    diff: StateDiff, params: Params, *, paid_by: str | None, vehicle: str = FIRST_CAR
) -> tuple[dict[str, Any] | None, list[str]]:
    """One new order in the history, at `params["station_id"]` (and `params["pile"]` where
    given), of `params["kwh"]` kWh, priced by the station's prices with the best coupon, paid
    by `paid_by` (any where None); claims the vehicle's SOC, the coupons and the balance."""
    record, problems = one_added(diff, HISTORY, "charging order")
    diff.touched(f"{VEHICLES}[{vehicle}]/soc")
    diff.touched(f"{ROOT}/coupons")
    if record is None:
        return None, problems
    want = {"station": params["station_id"], "kwh": params["kwh"] * 100}
    if params.get("pile"):
        want["pile"] = params["pile"]
    if paid_by is not None:
        want["paid_by"] = paid_by
    if params.get("fast_piles") and record.get("pile") not in params["fast_piles"]:
        problems.append(f"charged on {record.get('pile')}, not a free fast pile of the station")
    problems += [f"the order's {k} is {record.get(k)!r}, expected {v!r}"
                 for k, v in want.items() if record.get(k) != v]  # fmt: skip
    plate = next(v["plate"] for v in diff.before["apps"][CHARGING]["vehicles"]
                 if v["id"] == vehicle)  # fmt: skip
    if record.get("plate") != plate:
        problems.append(f"charged {record.get('plate')}, expected {plate}")
    return record, problems


def balance_problems(diff: StateDiff, spent: int) -> list[str]:
    diff.touched(BALANCE)
    change = (diff.value_before(BALANCE) or 0) - (diff.value_after(BALANCE) or 0)
    return [] if change == spent else [f"the balance went down by {change}, expected {spent}"]


def wallet_untouched(diff: StateDiff) -> list[str]:
    if diff.added(WALLET_BILLS) or diff.touched(WALLET_BALANCE):
        return ["the wallet paid something"]
    return []


def favourite_problems(diff: StateDiff, station_id: str) -> list[str]:
    added = [f["id"] for f in diff.added(FAVOURITES)]
    return [] if added == [station_id] else [f"favourited {added}, expected [{station_id}]"]
