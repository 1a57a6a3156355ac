"""Task templates of 应用市场 (App Store): the single-app and question ones here, the
cross-app ones imported from `cross`; `TEMPLATES` lists them all."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.appstore.common import (
    INSTALLED,
    REVIEWS,
    SETTINGS,
    WISHLIST,
    StoreTemplate,
    app_params,
    current_apps,
    installed_apps,
    installed_only,
    not_installed,
    open_app_page,
    open_mine,
    outdated_apps,
    updated_only,
)
from phonebuddy.phoneworld.apps.appstore.cross import (
    BuyPaid,
    ChangelogToNote,
    InstallFromNote,
    InstallFromWechat,
    PaidWishOrInstall,
    RecommendChain,
    SizeBySms,
)
from phonebuddy.phoneworld.apps.appstore.questions import CompareRating, CountUpdates, UpdatesSize
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Instruction

REVIEW_TEXTS = ("界面简洁，用起来很顺手", "更新以后速度快了很多", "功能够用，就是广告有点多",
                "非常实用，推荐给大家", "偶尔会闪退，希望尽快修复")  # fmt: skip


class Install(StoreTemplate):
    id = "appstore.install"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return app_params(pick(rng, not_installed(world, free=True)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"在应用市场安装“{name}”", f"帮我下载安装“{name}”这个应用",
                f"去应用市场搜一下“{name}”，把它装上"],
            en=[f"Install '{name}' from the App Store",
                f"Please download and install the app '{name}'",
                f"Search the App Store for '{name}' and install it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return installed_only(diff, {params["app_id"]: params["version"]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_app_page(ui, params["name"], params["app_id"])
        yield ui.tap("install")


class UpdateOne(StoreTemplate):
    id = "appstore.update_one"
    difficulty = 4

    def sample(self, world: World, rng: random.Random) -> Params:
        return app_params(pick(rng, outdated_apps(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"把“{name}”更新到最新版本", f"应用市场里“{name}”有更新，帮我更新一下",
                f"只更新“{name}”这一个应用"],
            en=[f"Update '{name}' to its latest version",
                f"'{name}' has an update in the App Store; please install it",
                f"Update just the one app '{name}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return updated_only(diff, {params["app_id"]: params["version"]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mine(ui)
        yield from ui.scroll_to(f"update_{params['app_id']}")
        yield ui.tap(f"update_{params['app_id']}")


class UpdateAll(StoreTemplate):
    """全部更新, which asks first when more than three apps have updates."""

    id = "appstore.update_all"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"versions": {a["id"]: a["version"] for a in outdated_apps(world)}}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["把应用市场里所有可更新的应用都更新了", "帮我一键更新全部应用",
                "已安装的应用里有更新的，全部更新到最新版"],
            en=["Update every app that has an update in the App Store",
                "Please update all my apps at once",
                "Bring all installed apps with updates to their latest versions"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return updated_only(diff, params["versions"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mine(ui)
        yield ui.tap("update_all")
        yield ui.tap("confirm_update_all")


class Uninstall(StoreTemplate):
    id = "appstore.uninstall"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return app_params(pick(rng, installed_apps(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"卸载“{name}”", f"“{name}”不用了，帮我把它卸载掉", f"在应用市场里把“{name}”删掉"],
            en=[f"Uninstall '{name}'", f"I no longer use '{name}': uninstall it",
                f"Remove the app '{name}' through the App Store"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [i["id"] for i in diff.removed(INSTALLED)]
        return [] if removed == [params["app_id"]] else [f"uninstalled {removed}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_app_page(ui, params["name"], params["app_id"])
        yield ui.tap("uninstall")
        yield ui.tap("confirm_uninstall")


class WriteReview(StoreTemplate):
    id = "appstore.write_review"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**app_params(pick(rng, installed_apps(world))), "stars": rng.randrange(1, 6),
                "text": rng.choice(REVIEW_TEXTS)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, stars, text = params["name"], params["stars"], params["text"]
        return phrased(
            zh=[f"给“{name}”打{stars}星，评价写“{text}”",
                f"在应用市场评价一下“{name}”：{stars}星，内容“{text}”",
                f"帮我给“{name}”写条评价，{stars}星，写上“{text}”"],
            en=[f"Rate '{name}' {stars} stars with the review '{text}'",
                f"Review '{name}' in the App Store: {stars} stars, saying '{text}'",
                f"Please write a review of '{name}', {stars} stars, with the text '{text}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        review, problems = one_added(diff, REVIEWS, "review")
        if review is not None:
            wanted = (params["app_id"], params["stars"], params["text"])
            if (review["id"], review["stars"], review["text"]) != wanted:
                problems.append(f"the review is {review}, expected {wanted}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_app_page(ui, params["name"], params["app_id"])
        yield from ui.scroll_to("write_review")
        yield ui.tap("write_review")
        yield ui.tap(f"star_{params['stars']}")
        yield from ui.type_into("review_text", params["text"])
        yield ui.tap("submit_review")


class AutoUpdate(StoreTemplate):
    id = "appstore.auto_update"
    difficulty = 4

    def sample(self, world: World, rng: random.Random) -> Params:
        return {}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["在应用市场设置里打开WLAN下自动更新", "让应用市场连上WLAN时自动更新应用",
                "帮我开启应用市场的WLAN自动更新功能"],
            en=["Turn on auto-update over Wi-Fi in the App Store settings",
                "Make the App Store update apps automatically on Wi-Fi",
                "Please switch on the App Store's automatic updates over Wi-Fi"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return expect_changes(diff, SETTINGS, {f"{SETTINGS}/auto_update_wifi": True})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mine(ui)
        yield ui.tap("open_settings")
        yield ui.tap("auto_update")


class WishFour(StoreTemplate):
    """Long horizon: four apps found one after another and put on the 愿望单."""

    id = "appstore.wish_four"
    difficulty = 24

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, not_installed(world), 4)
        return {"ids": [a["id"] for a in chosen], "names": [a["name"] for a in chosen]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh = "、".join(f"“{n}”" for n in params["names"])
        en = ", ".join(f"'{n}'" for n in params["names"])
        return phrased(
            zh=[f"把这四个应用加入应用市场的愿望单：{zh}", f"帮我把{zh}都加到愿望单里",
                f"愿望单里添上这几个应用：{zh}"],
            en=[f"Add these four apps to my App Store wishlist: {en}",
                f"Please put {en} on my wishlist", f"Add these apps to the wishlist: {en}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = sorted(w["id"] for w in diff.added(WISHLIST))
        return [] if added == sorted(params["ids"]) else [f"wished {added}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        for app_id, name in zip(params["ids"], params["names"], strict=True):
            yield from open_app_page(ui, name, app_id)
            yield ui.tap("wish")


class UpdateOrUninstall(StoreTemplate):
    """Conditional: an installed app with an update is updated, one without is uninstalled."""

    id = "appstore.update_or_uninstall"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        pool = outdated_apps(world) if rng.random() < 0.5 else current_apps(world)
        app = pick(rng, pool)
        return {**app_params(app), "outdated": app["installed"] != app["version"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"看看“{name}”有没有更新：有就更新，没有就把它卸载",
                f"如果“{name}”有新版本就更新它，否则把它卸载",
                f"“{name}”有更新的话更新到最新版，没有更新的话直接卸载"],
            en=[f"Check whether '{name}' has an update: if so update it, otherwise uninstall it",
                f"If '{name}' has a new version, update it; if not, uninstall it",
                f"Update '{name}' if an update is available, else uninstall it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["outdated"]:
            return updated_only(diff, {params["app_id"]: params["version"]})
        removed = [i["id"] for i in diff.removed(INSTALLED)]
        return [] if removed == [params["app_id"]] else [f"uninstalled {removed}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_app_page(ui, params["name"], params["app_id"])
        if ui.visible("update"):
            yield ui.tap("update")
        else:
            yield ui.tap("uninstall")
            yield ui.tap("confirm_uninstall")


TEMPLATES: tuple[TaskTemplate, ...] = (
    Install(),
    UpdateOne(),
    UpdateAll(),
    Uninstall(),
    WriteReview(),
    AutoUpdate(),
    WishFour(),
    UpdateOrUninstall(),
    UpdatesSize(),
    CompareRating(),
    CountUpdates(),
    InstallFromWechat(),
    BuyPaid(),
    SizeBySms(),
    ChangelogToNote(),
    InstallFromNote(),
    PaidWishOrInstall(),
    RecommendChain(),
)
