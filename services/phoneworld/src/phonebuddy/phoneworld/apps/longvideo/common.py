"""What the 追剧 templates share: content look-ups, verifier checks and oracle steps."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.longvideo.base import LONGVIDEO, PLANS
from phonebuddy.phoneworld.apps.longvideo.browse import PAGE
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category

ROOT = f"apps/{LONGVIDEO}"
HISTORY = f"{ROOT}/history"
FOLLOWS = f"{ROOT}/follows"
DOWNLOADS = f"{ROOT}/downloads"
SETTINGS = f"{ROOT}/settings"
ORDERS = f"{ROOT}/orders"
VIP_UNTIL = f"{ROOT}/vip_until"
NUMERALS = set("一二三四五六七八九十百千万两零")
PLAN_EN = {"month": "monthly", "quarter": "quarterly", "year": "annual"}


def titles(world: World) -> list[Any]:
    return list(world.content(LONGVIDEO)["titles"])


def title_by_id(world: World, title_id: str) -> Any:
    return next(t for t in titles(world) if t["id"] == title_id)


def series(world: World) -> list[Any]:
    return [t for t in titles(world) if t["kind"] != "电影"]


def followed_ids(world: World) -> set[str]:
    return {f["id"] for f in world.content(LONGVIDEO)["follows"]}


def history(world: World) -> dict[str, Any]:
    return {h["id"]: h for h in world.content(LONGVIDEO)["history"]}


def not_followed(world: World) -> list[Any]:
    return [t for t in titles(world) if t["id"] not in followed_ids(world)]


def plain_name(t: Any) -> bool:
    """No numeral in the name, so that it never reads as a number in an answer."""
    return not set(t["title"]) & NUMERALS


def aired(t: Any, *, vip: bool | None = None) -> list[Any]:
    eps = t["episodes"][: t["aired"]]
    return [e for e in eps if vip is None or e["vip"] == vip]


def title_params(t: Any) -> Params:
    return {"title_id": t["id"], "title": t["title"]}


def plan_params(plan: str) -> Params:
    name, cents, _ = PLANS[plan]
    return {"plan": plan, "plan_name": name, "plan_en": PLAN_EN[plan], "cents": cents}


class LongVideoTemplate(TaskTemplate):
    """A template of 追剧 alone."""

    category = Category.SINGLE_APP
    apps = (LONGVIDEO,)


# -- verifier checks ---------------------------------------------------------------------------


def played(diff: StateDiff, title_id: str, episode: int) -> list[str]:
    """The title's history entry now says `episode` (the player was opened on it)."""
    path = f"{HISTORY}[{title_id}]"
    changes = diff.touched(path)
    after = diff.value_after(path)
    if not changes or after is None:
        return [f"{title_id} was not played"]
    if after["episode"] != episode:
        return [f"{title_id} is at episode {after['episode']}, expected {episode}"]
    return []


def followed(diff: StateDiff, title_id: str) -> list[str]:
    entry, problems = one_added(diff, FOLLOWS, "追剧 entry")
    if entry is not None and entry["id"] != title_id:
        problems.append(f"followed {entry['id']}, expected {title_id}")
    return problems


def bought_vip(diff: StateDiff, plan: str) -> list[str]:
    """One VIP order of `plan`, paid once through the wallet, and the membership extended."""
    cents = PLANS[plan][1]
    order, problems = one_added(diff, ORDERS, "VIP order")
    if order is None:
        return problems
    if order["plan"] != plan:
        problems.append(f"bought the {order['plan']} plan, expected {plan}")
    diff.touched(VIP_UNTIL)
    if not diff.value_after(VIP_UNTIL) > diff.value_before(VIP_UNTIL):
        problems.append("the VIP membership was not extended")
    return problems + wallet_payment_problems(diff, amount_cents=cents, reference=order["id"])


# -- oracle steps ------------------------------------------------------------------------------


def open_home(ui: OracleUI) -> Iterator[Action]:
    """Open 追剧 and go back to its home screen (it reopens where it was left)."""
    yield from ui.open_app("追剧")
    yield from back_home(ui)


def back_home(ui: OracleUI) -> Iterator[Action]:
    """Inside 追剧: back to its home screen."""
    for _ in range(8):
        if ui.visible("nav"):
            return
        yield ui.back()
    raise OracleError("could not get back to 追剧's home")


def open_title(
    ui: OracleUI, title: str, title_id: str, *, inside: bool = False
) -> Iterator[Action]:
    """追剧's home (from another app, or `inside` it already), search, open the title."""
    yield from back_home(ui) if inside else open_home(ui)
    yield ui.tap("search")
    yield from ui.type_into("query", title)
    yield ui.tap(f"result_{title_id}")


def tap_episode(ui: OracleUI, episode: int) -> Iterator[Action]:
    """On a title's page: the right page of 30, then the episode."""
    page = (episode - 1) // PAGE
    if ui.visible(f"page_{page}") and not ui.node(f"page_{page}").selected:
        yield from ui.scroll_to(f"page_{page}")
        yield ui.tap(f"page_{page}")
    yield from ui.scroll_to(f"ep_{episode}")
    yield ui.tap(f"ep_{episode}")


def buy_plan(ui: OracleUI, plan: str) -> Iterator[Action]:
    """From 追剧's home: 我的, 开通VIP, the plan, pay in the wallet."""
    yield ui.tap("tab_me")
    yield ui.tap("open_vip")
    yield ui.tap(f"plan_{plan}")
    yield ui.tap("buy_vip")
    yield ui.tap("com.pw.wallet:id/pay_confirm")
