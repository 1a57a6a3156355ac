"""What the 应用市场 templates share: content look-ups, oracle steps and checks."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.appstore.base import APPSTORE, version_key
from phonebuddy.phoneworld.apps.appstore.content import version_label
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category

ROOT = f"apps/{APPSTORE}"
INSTALLED = f"{ROOT}/installed"
WISHLIST = f"{ROOT}/wishlist"
PURCHASED = f"{ROOT}/purchased"
REVIEWS = f"{ROOT}/reviews"
SETTINGS = f"{ROOT}/settings"
LABEL = "应用市场"
NUMERALS = set("零一二两三四五六七八九十百千万")


def catalogue(world: World) -> list[Any]:
    return list(world.content(APPSTORE)["apps"])


def by_id(world: World, app_id: str) -> Any:
    return next(a for a in catalogue(world) if a["id"] == app_id)


def installed_apps(world: World) -> list[Any]:
    """The apps installed after a reset, each with its installed version under 'installed'."""
    return [{**by_id(world, i["id"]), "installed": i["version"]}
            for i in world.content(APPSTORE)["installed"]]  # fmt: skip


def outdated_apps(world: World) -> list[Any]:
    return [a for a in installed_apps(world)
            if version_key(a["installed"]) < version_key(a["version"])]  # fmt: skip


def current_apps(world: World) -> list[Any]:
    return [a for a in installed_apps(world) if a["installed"] == a["version"]]


def not_installed(world: World, *, free: bool | None = None) -> list[Any]:
    """Apps neither installed nor on the 愿望单 after a reset (`free`: only free / paid ones)."""
    data = world.content(APPSTORE)
    taken = {i["id"] for i in data["installed"]} | {w["id"] for w in data["wishlist"]}
    return [a for a in catalogue(world)
            if a["id"] not in taken and (free is None or (a["price"] == 0) == free)]  # fmt: skip


def older_version(version: str, rng: random.Random) -> str:
    """A version behind `version` (the way the reset's outdated apps are behind)."""
    major, minor, patch = (int(n) for n in version.split("."))
    return version_label((major, minor - 1, rng.randrange(0, 10)) if minor > 1
                         else (major - 1, rng.randrange(1, 10), patch))  # fmt: skip


def seeded_installed(world: World, rng: random.Random) -> Params:
    """A task's own 已安装 list: the reset's apps and a seeded few more free ones, a seeded
    number of them (1 to 20) behind the latest version, the others up to date. Params: the list
    (`installed`, as the start state holds it), its ids in order and each app's latest version
    and size (`apps`: id -> [version, MB])."""
    behind = rng.randint(1, 20)
    count = rng.randint(max(len(installed_apps(world)), behind + 2), 24)
    extra = rng.sample(not_installed(world, free=True), count - len(installed_apps(world)))
    chosen = [*installed_apps(world), *extra]
    rng.shuffle(chosen)
    outdated = {a["id"] for a in rng.sample(chosen, behind)}
    installed = [{"id": a["id"], "version": older_version(a["version"], rng)
                  if a["id"] in outdated else a["version"]} for a in chosen]  # fmt: skip
    return {"installed": installed, "ids": [a["id"] for a in chosen],
            "apps": {a["id"]: [a["version"], a["size"]] for a in chosen}}  # fmt: skip


def behind_before(diff: StateDiff, params: Params) -> list[str]:
    """The ids of the start state's installed apps behind their latest version."""
    return [i["id"] for i in diff.value_before(INSTALLED)
            if version_key(i["version"]) < version_key(params["apps"][i["id"]][0])]  # fmt: skip


def plain_named(apps: list[Any]) -> list[Any]:
    """Apps whose names hold no numeral, so that an answer naming them reads no number."""
    return [a for a in apps if not set(a["name"]) & NUMERALS]


def app_params(app: Any) -> Params:
    return {"app_id": app["id"], "name": app["name"], "version": app["version"]}


# -- oracle steps --------------------------------------------------------------------------------
def store_home(ui: OracleUI) -> Iterator[Action]:
    """Open 应用市场 and go back to its home screen (it reopens where it was left)."""
    yield ui.open(LABEL)
    for _ in range(8):
        if ui.visible("search"):
            return
        yield ui.back()
    raise OracleError("could not get back to 应用市场's home screen")


def open_app_page(ui: OracleUI, name: str, app_id: str) -> Iterator[Action]:
    """From anywhere: 应用市场's search, the name typed, the app's page opened."""
    yield from store_home(ui)
    yield ui.tap("search")
    yield from ui.type_into("query", name)
    yield ui.tap(f"result_{app_id}")


def open_mine(ui: OracleUI) -> Iterator[Action]:
    yield from store_home(ui)
    yield ui.tap("tab_me")


# -- checks --------------------------------------------------------------------------------------
def installed_only(diff: StateDiff, expected: dict[str, str]) -> list[str]:
    """Exactly the apps of `expected` (app id -> latest version) were installed (claimed), each
    at that version."""
    added = {i["id"]: i["version"] for i in diff.added(INSTALLED)}
    return [f"installed {added}, expected {expected}"] if added != expected else []


def updated_only(diff: StateDiff, expected: dict[str, str]) -> list[str]:
    """The installed versions changed exactly to `expected` (app id -> latest version)."""
    changes = diff.touched(INSTALLED)
    problems = [f"unexpected change: {c.describe()}" for c in changes
                if c.kind != "changed" or not c.path.endswith("/version")]  # fmt: skip
    changed = {c.path.removeprefix(f"{INSTALLED}[").split("]")[0]: c.after for c in changes
               if c.kind == "changed" and c.path.endswith("/version")}  # fmt: skip
    if changed != expected:
        problems.append(f"updated {changed}, expected {expected}")
    return problems


class StoreTemplate(TaskTemplate):
    """A template of 应用市场 alone."""

    category = Category.SINGLE_APP
    apps = (APPSTORE,)
