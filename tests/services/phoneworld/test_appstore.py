"""应用市场 (App Store) through the action interface: search with its sorts, categories and
rankings, an app's page, installing a free app, buying a paid one (a confirmation, then the
wallet's payment), updating one app or all of them (a confirmation when more than three),
uninstalling behind a confirmation, the 愿望单, reviews and what they refuse, and the
auto-update setting."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.appstore.base import APPSTORE, sort_key, version_key
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.payments import WALLET
from phonebuddy.phoneworld.world import World


class Driver(testing.Driver):
    scroll_first = True

    @property
    def data(self) -> dict[str, Any]:
        return self.app_state(APPSTORE)  # type: ignore[no-any-return]

    def installed(self) -> dict[str, str]:
        return {i["id"]: i["version"] for i in self.data["installed"]}

    def shown(self, prefix: str) -> list[str]:
        rid = f"{APPSTORE}:id/{prefix}"
        walk = self.device.ui_tree().walk()
        return [n.resource_id.removeprefix(rid) for n in walk if n.resource_id.startswith(rid)]

    def open_page(self, app: dict[str, Any]) -> None:
        self.tap("search")
        self.type_into("query", app["name"])
        self.tap(f"result_{app['id']}")


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("应用市场")
    return driver


def _apps(world: World) -> list[Any]:
    return list(world.content(APPSTORE)["apps"])


def _not_installed(world: World, *, free: bool) -> dict[str, Any]:
    taken = {i["id"] for i in world.content(APPSTORE)["installed"]}
    taken |= {w["id"] for w in world.content(APPSTORE)["wishlist"]}
    return next(a for a in _apps(world) if a["id"] not in taken and (a["price"] == 0) == free)


def _outdated(user: Driver, world: World) -> list[str]:
    latest = {a["id"]: a["version"] for a in _apps(world)}
    return [i for i, v in user.installed().items() if version_key(v) < version_key(latest[i])]


def test_search_sorts_by_rating_or_downloads(user: Driver, world: World) -> None:
    user.tap("search")
    user.type_into("query", "游戏")
    games = [a for a in _apps(world) if a["category"] == "游戏"]
    by_rating = [a["id"] for a in sorted(games, key=sort_key("rating"))]
    assert user.shown("result_") == by_rating[: len(user.shown("result_"))]
    user.tap("sort_downloads")
    by_downloads = [a["id"] for a in sorted(games, key=sort_key("downloads"))]
    assert user.shown("result_") == by_downloads[: len(user.shown("result_"))]
    user.tap("clear_search")
    user.type_into("query", "不存在的应用")
    assert user.shown("result_") == []
    assert user.visible(text="没有找到“不存在的应用”相关应用")


def test_categories_and_rankings(user: Driver, world: World) -> None:
    user.tap("tab_cats")
    user.tap("cat_出行")
    inside = {a["id"] for a in _apps(world) if a["category"] == "出行"}
    assert set(user.shown("capp_")) <= inside
    user.tap("tab_rank")
    top = sorted(_apps(world), key=sort_key("downloads"))[0]
    assert user.shown("rank_")[0] == top["id"]
    user.tap("chart_rating")
    best = sorted(_apps(world), key=sort_key("rating"))[0]
    assert best["id"] in user.shown("rank_")


def test_a_free_app_installs_and_counts_in_storage(user: Driver, world: World) -> None:
    app = _not_installed(world, free=True)
    user.tap("tab_me")
    before = float(user.text("storage").split()[1])
    user.tap("tab_rec")
    user.open_page(app)
    assert user.text("name") == app["name"]
    assert user.text("version") == f"版本 {app['version']}"
    assert user.text("price") == "免费"
    assert user.text("state") == "未安装"
    user.tap("install")
    assert user.installed()[app["id"]] == app["version"]
    assert user.text("state") == f"已安装 版本 {app['version']}"
    assert not user.visible("install")
    user.back()
    user.back()
    user.tap("tab_me")
    after = float(user.text("storage").split()[1])
    assert round(after - before, 1) == app["size"]


def test_a_paid_app_is_paid_in_the_wallet_after_confirming(user: Driver, world: World) -> None:
    app = _not_installed(world, free=False)
    user.open_page(app)
    assert not user.visible("install")
    user.tap("buy")
    user.tap("cancel")
    assert user.data["purchased"] == []
    balance = user.app_state(WALLET)["balance_cents"]
    user.tap("buy")
    user.tap("pay")
    user.act(user.ui.tap(f"{WALLET}:id/pay_cancel"))
    assert user.data["purchased"] == []
    assert app["id"] not in user.installed()
    user.tap("buy")
    user.tap("pay")
    user.act(user.ui.tap(f"{WALLET}:id/pay_confirm"))
    assert user.data["purchased"] == [{"id": app["id"], "price": app["price"]}]
    assert user.installed()[app["id"]] == app["version"]
    assert user.app_state(WALLET)["balance_cents"] == balance - app["price"]


def test_updates_one_then_all_after_confirming(user: Driver, world: World) -> None:
    behind = _outdated(user, world)
    assert len(behind) > 4
    latest = {a["id"]: a["version"] for a in _apps(world)}
    user.tap("tab_me")
    user.tap(f"update_{behind[0]}")
    assert user.installed()[behind[0]] == latest[behind[0]]
    assert not user.visible(f"update_{behind[0]}")
    user.tap("update_all")  # four left: more than three asks first
    user.tap("cancel")
    assert _outdated(user, world) == behind[1:]
    user.tap("update_all")
    user.tap("confirm_update_all")
    assert _outdated(user, world) == []
    assert not user.visible("update_all")


def test_uninstalling_needs_confirming(user: Driver, world: World) -> None:
    latest = {a["id"]: a["version"] for a in _apps(world)}
    app_id = next(i for i, v in user.installed().items() if v == latest[i])
    user.tap("tab_me")
    user.tap(f"uninstall_{app_id}")
    user.tap("cancel")
    assert app_id in user.installed()
    user.tap(f"uninstall_{app_id}")
    user.tap("confirm_uninstall")
    assert app_id not in user.installed()
    assert not user.visible(f"inst_{app_id}")
    other = next(iter(user.installed()))
    user.tap(f"inst_{other}")
    user.tap("uninstall")
    user.tap("confirm_uninstall")
    assert other not in user.installed()
    assert user.text("state") == "未安装"


def test_wishlist_add_and_remove(user: Driver, world: World) -> None:
    app = _not_installed(world, free=False)
    seeded = [w["id"] for w in user.data["wishlist"]]
    user.open_page(app)
    user.tap("wish")
    assert [w["id"] for w in user.data["wishlist"]] == [*seeded, app["id"]]
    user.tap("wish")
    assert [w["id"] for w in user.data["wishlist"]] == seeded
    user.back()
    user.back()
    user.tap("tab_me")
    user.tap("open_wishlist")
    user.tap(f"unwish_{seeded[0]}")
    assert [w["id"] for w in user.data["wishlist"]] == seeded[1:]
    assert not user.visible(f"wish_{seeded[0]}")


def test_reviews_are_validated_and_one_per_app(user: Driver, world: World) -> None:
    app = _apps(world)[3]
    user.open_page(app)
    user.tap("write_review")
    user.refuse("submit_review")  # no stars yet
    assert user.text("review_error") == "请先选择1到5星的评分"
    user.tap("star_4")
    user.type_into("review_text", "好用")
    user.refuse("submit_review")  # too short
    assert user.text("review_error") == "评价内容需要5到200个字"
    user.type_into("review_text", "，界面清爽")
    user.tap("submit_review")
    [review] = user.data["reviews"]
    assert (review["id"], review["stars"], review["text"]) == (app["id"], 4, "好用，界面清爽")
    assert user.text("my_review") == "我的评价：★★★★☆ 好用，界面清爽"
    assert not user.visible("write_review")


def test_auto_update_toggle(user: Driver) -> None:
    user.tap("tab_me")
    user.tap("open_settings")
    user.tap("auto_update")
    assert user.data["settings"]["auto_update_wifi"] is True
    user.tap("auto_update")
    assert user.data["settings"]["auto_update_wifi"] is False
