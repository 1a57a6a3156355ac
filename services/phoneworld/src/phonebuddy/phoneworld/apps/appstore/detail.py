"""应用市场's app page (details, 更新内容, 权限, reviews; install / buy / update / uninstall,
愿望单), the review editor, the 愿望单 and the settings."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.appstore.base import ORANGE, AppstoreBase
from phonebuddy.phoneworld.apps.appstore.content import downloads_label, price_label
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    IconButton,
    ListItem,
    Page,
    Text,
    TextField,
    Toggle,
    Widget,
    Wrap,
)

ERROR: tuple[int, int, int] = (220, 50, 50)


def stars_label(stars: int) -> str:
    return "★" * stars + "☆" * (5 - stars)


class DetailScreens(AppstoreBase):
    def _main_button(self, v: View, app: dict[str, Any]) -> Widget:
        entry = self.installed(v.data, app["id"])
        if entry is not None and entry["version"] != app["version"]:
            return Button(f"更新到 {app['version']}", v.do(self.update, app["id"]), id="update")
        if entry is not None:
            return Button("已安装", None, id="installed", enabled=False)
        if app["price"] and not self.owned(v.data, app["id"]):
            return Button(f"购买 {price_label(app['price'])}", v.set_ui("dialog", "buy"),
                          id="buy")  # fmt: skip
        return Button("安装", v.do(self.install, app["id"]), id="install")

    @screen("app")
    def app_page(self, v: View) -> Page:
        app = self.item(v, v.params["app_id"])
        entry = self.installed(v.data, app["id"])
        dialog = None
        if v.ui("dialog") == "buy" and app["price"] and not self.owned(v.data, app["id"]):
            dialog = v.confirm(
                "确认购买",
                v.do(self.buy, app["id"]),
                message=f"购买“{app['name']}”，{price_label(app['price'])}，将跳转到钱包支付",
                label="去支付",
                confirm_id="pay",
            )
        elif v.ui("dialog") == "uninstall" and entry is not None:
            dialog = self.uninstall_dialog(v, app["id"])
        mine = self.my_review(v.data, app["id"])
        wished = self.wished(v.data, app["id"])
        state = f"已安装 版本 {entry['version']}" if entry else "未安装"
        body: list[Widget | None] = [
            Card([
                Text(app["name"], size=56, bold=True, id="name"),
                Text(app["developer"], size=36, color=theme.TEXT_SECONDARY, id="developer"),
                Text(f"{app['rating']}分｜{app['ratings']}条评价", size=38, id="rating"),
                Text(f"{app['category']}｜{app['age']}｜{downloads_label(app['downloads'])}次下载",
                     size=36, color=theme.TEXT_SECONDARY, id="info"),
                Text(f"版本 {app['version']}", size=36, id="version"),
                Text(f"大小 {app['size']} MB", size=36, id="size"),
                Text(price_label(app["price"]), size=40, color=ORANGE, id="price"),
                Text("含应用内购买", size=32, color=theme.TEXT_SECONDARY, id="iap")
                if app["iap"] else None,
                Text(state, size=36, id="state"),
            ]),
            self._main_button(v, app),
            Button("卸载", v.set_ui("dialog", "uninstall"), id="uninstall", style="secondary")
            if entry else None,
            Text(app["intro"], size=38, id="intro"),
            Text("更新内容", size=42, bold=True, padding=12),
            *[Text(line, size=36, id=f"log_{i}") for i, line in enumerate(app["changelog"])],
            Text("权限", size=42, bold=True, padding=12),
            *[Text(p, size=36, color=theme.TEXT_SECONDARY, id=f"perm_{i}")
              for i, p in enumerate(app["permissions"])],
            Text("用户评价", size=42, bold=True, padding=12),
            Text(f"我的评价：{stars_label(mine['stars'])} {mine['text']}", size=36,
                 id="my_review") if mine else
            Button("写评价", v.go("review", app_id=app["id"]), id="write_review",
                   style="secondary"),
            *[ListItem(r["user"], subtitle=r["text"], trailing=stars_label(r["stars"]),
                       id=f"review_{i}") for i, r in enumerate(app["reviews"])],
        ]  # fmt: skip
        return Page(
            "应用详情",
            body,
            on_back=v.back(),
            actions=[IconButton("star", "移出愿望单" if wished else "加入愿望单",
                                v.do(self.toggle_wish, app["id"]), id="wish",
                                color=ORANGE if wished else None)],
            body_padding=30,
            spacing=20,
            overlay=dialog,
        )  # fmt: skip

    @screen("review")
    def review(self, v: View) -> Page:
        app = self.item(v, v.params["app_id"])
        stars = v.ui("stars", 0)
        error = v.ui("review_error")
        return Page(
            f"评价“{app['name']}”",
            [
                Wrap([Chip(f"{n}星", v.set_ui("stars", n), selected=stars == n, id=f"star_{n}")
                      for n in range(1, 6)]),
                TextField("review_text", v.field("review_text"), "说说你的使用感受（5到200字）",
                          on_focus=v.focus("review_text"), multiline=True),
                Text(error, color=ERROR, id="review_error") if error else None,
                Button("发布评价", v.do(self.submit_review, app["id"], stars),
                       id="submit_review"),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=24,
        )  # fmt: skip

    @screen("wishlist")
    def wishlist(self, v: View) -> Page:
        rows: list[Widget | None] = []
        for wish in v.data["wishlist"]:
            app = self.item(v, wish["id"])
            rows.append(ListItem(app["name"], subtitle=f"{app['category']}｜{app['rating']}分",
                                 trailing=price_label(app["price"]), leading=app["name"][:1],
                                 leading_color=ORANGE, on_tap=v.go("app", app_id=app["id"]),
                                 id=f"wish_{app['id']}",
                                 action=IconButton("delete", "移出愿望单",
                                                   v.do(self.toggle_wish, app["id"]),
                                                   id=f"unwish_{app['id']}")))  # fmt: skip
        if not rows:
            rows.append(Text("愿望单是空的", color=theme.TEXT_SECONDARY, padding=40,
                             align="center"))  # fmt: skip
        return Page("愿望单", rows, on_back=v.back())

    @screen("settings")
    def settings(self, v: View) -> Page:
        auto = v.data["settings"]["auto_update_wifi"]
        return Page(
            "设置",
            [
                Toggle("WLAN下自动更新应用", auto, v.do(self.toggle_auto_update),
                       id="auto_update", subtitle="连接WLAN时自动下载并安装更新"),
            ],
            on_back=v.back(),
        )  # fmt: skip
