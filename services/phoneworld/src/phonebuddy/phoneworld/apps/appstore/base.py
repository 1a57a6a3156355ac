"""The 应用市场 app's base: constants, look-ups and the handlers (the only place data changes).
Installing is immediate and deterministic (下载中 is never a lasting state) and only records
the app here: the launcher gets no new icon."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View
from phonebuddy.phoneworld.apps.appstore import content
from phonebuddy.phoneworld.apps.appstore.content import price_label
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui.theme import AppTheme, Color
from phonebuddy.phoneworld.ui.widgets import Dialog

APPSTORE = "com.pw.appstore"
ORANGE: Color = (255, 87, 34)
TABS = (("rec", "推荐"), ("cats", "分类"), ("rank", "排行"), ("me", "我的"))
SORTS = (("rating", "评分"), ("downloads", "下载量"))
CONFIRM_OVER = 3  # 全部更新 asks first when more than this many apps have updates
REVIEW_MIN, REVIEW_MAX = 5, 200


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(n) for n in version.split("."))


def sort_key(sort: str) -> Any:
    if sort == "downloads":
        return lambda a: (-a["downloads"], a["id"])
    return lambda a: (-a["rating"], -a["ratings"], a["id"])


class AppstoreBase(App):
    package = APPSTORE
    label = Label(zh="应用市场", en="App Store")
    domain = "app store"
    theme = AppTheme(primary=ORANGE)
    icon_text = "市"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return content.build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "installed": [clone(i) for i in content["installed"]],
            "wishlist": [clone(w) for w in content["wishlist"]],
            "purchased": [],
            "reviews": [],
            "settings": {"auto_update_wifi": False},
        }

    # -- look-ups ---------------------------------------------------------------------------------
    @staticmethod
    def item(v: View | Interaction, app_id: str) -> dict[str, Any]:
        return next(a for a in v.content["apps"] if a["id"] == app_id)

    @staticmethod
    def installed(data: dict[str, Any], app_id: str) -> dict[str, Any] | None:
        return next((i for i in data["installed"] if i["id"] == app_id), None)

    @staticmethod
    def owned(data: dict[str, Any], app_id: str) -> bool:
        return any(p["id"] == app_id for p in data["purchased"])

    @staticmethod
    def wished(data: dict[str, Any], app_id: str) -> bool:
        return any(w["id"] == app_id for w in data["wishlist"])

    @staticmethod
    def my_review(data: dict[str, Any], app_id: str) -> dict[str, Any] | None:
        return next((r for r in data["reviews"] if r["id"] == app_id), None)

    def outdated(self, v: View | Interaction) -> list[dict[str, Any]]:
        """The installed entries behind the catalogue's latest version."""
        return [
            i
            for i in v.data["installed"]
            if version_key(i["version"]) < version_key(self.item(v, i["id"])["version"])
        ]

    def storage_mb(self, v: View | Interaction) -> float:
        return round(sum(self.item(v, i["id"])["size"] for i in v.data["installed"]), 1)

    def uninstall_dialog(self, v: View, app_id: str) -> Dialog:
        return v.confirm(
            f"卸载“{self.item(v, app_id)['name']}”？",
            v.do(self.uninstall, app_id),
            message="应用及其数据将被删除。",
            label="卸载",
            confirm_id="confirm_uninstall",
            danger=True,
        )

    # -- handlers ---------------------------------------------------------------------------------
    def install(self, it: Interaction, app_id: str) -> None:
        app = self.item(it, app_id)
        if self.installed(it.data, app_id) is not None:
            it.no_op(f"{app_id} is already installed")
        if app["price"] and not self.owned(it.data, app_id):
            it.toast("请先购买该应用")
            it.no_op(f"{app_id} is not bought")
        it.data["installed"].insert(0, {"id": app_id, "version": app["version"]})
        it.toast(f"下载完成，{app['name']}已安装")

    def buy(self, it: Interaction, app_id: str) -> None:
        """Pay in the wallet; `on_payment_result` records the purchase and installs."""
        app = self.item(it, app_id)
        if not app["price"] or self.owned(it.data, app_id):
            it.no_op(f"{app_id} needs no buying")
        it.set_ui("dialog", None)
        it.request_payment(
            amount_cents=app["price"],
            merchant="应用市场",
            reference=f"app:{app_id}",
            description=f"购买应用“{app['name']}”",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        app_id = reference.removeprefix("app:")
        if not paid or self.owned(it.data, app_id):
            return
        app = self.item(it, app_id)
        it.data["purchased"].append({"id": app_id, "price": app["price"]})
        it.toast(f"购买成功 {price_label(app['price'])}")
        if self.installed(it.data, app_id) is None:
            self.install(it, app_id)

    def update(self, it: Interaction, app_id: str) -> None:
        entry = self.installed(it.data, app_id)
        app = self.item(it, app_id)
        if entry is None or entry["version"] == app["version"]:
            it.no_op(f"{app_id} has no update")
        entry["version"] = app["version"]
        it.toast(f"{app['name']}已更新到{app['version']}")

    def update_all(self, it: Interaction) -> None:
        behind = self.outdated(it)
        it.set_ui("dialog", None)
        if not behind:
            it.toast("所有应用均已是最新版本")
            it.no_op("nothing to update")
        for entry in behind:
            entry["version"] = self.item(it, entry["id"])["version"]
        it.toast(f"已更新{len(behind)}个应用")

    def uninstall(self, it: Interaction, app_id: str) -> None:
        if self.installed(it.data, app_id) is None:
            it.no_op(f"{app_id} is not installed")
        it.data["installed"] = [i for i in it.data["installed"] if i["id"] != app_id]
        it.set_ui("dialog", None)
        it.toast(f"已卸载{self.item(it, app_id)['name']}")

    def toggle_wish(self, it: Interaction, app_id: str) -> None:
        if self.wished(it.data, app_id):
            it.data["wishlist"] = [w for w in it.data["wishlist"] if w["id"] != app_id]
            it.toast("已移出愿望单")
        else:
            it.data["wishlist"].append({"id": app_id})
            it.toast("已加入愿望单")

    def submit_review(self, it: Interaction, app_id: str, stars: int) -> None:
        text = it.field("review_text").strip()
        error = None
        if self.my_review(it.data, app_id) is not None:
            error = "你已经评价过这个应用了"
        elif not 1 <= stars <= 5:
            error = "请先选择1到5星的评分"
        elif not REVIEW_MIN <= len(text) <= REVIEW_MAX:
            error = f"评价内容需要{REVIEW_MIN}到{REVIEW_MAX}个字"
        if error:
            it.set_ui("review_error", error)
            it.no_op(error)
        it.data["reviews"].append({"id": app_id, "stars": stars, "text": text, "time": it.clock})
        it.toast("评价已发布")
        it.pop()

    def toggle_auto_update(self, it: Interaction) -> None:
        settings = it.data["settings"]
        settings["auto_update_wifi"] = not settings["auto_update_wifi"]
        it.toast("已开启WLAN下自动更新" if settings["auto_update_wifi"] else "已关闭自动更新")

    def clear_search(self, it: Interaction) -> None:
        if not it.field("query"):
            it.no_op("the search is empty")
        it.set_field("query", "")
