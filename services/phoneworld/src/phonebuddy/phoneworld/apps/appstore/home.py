"""应用市场's home (推荐 / 分类 / 排行 / 我的 tabs) and the search screen."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.appstore.base import (
    CONFIRM_OVER,
    ORANGE,
    SORTS,
    TABS,
    AppstoreBase,
    sort_key,
)
from phonebuddy.phoneworld.apps.appstore.content import CATEGORIES, downloads_label, price_label
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Chip,
    Dialog,
    IconButton,
    ListItem,
    Page,
    Spacer,
    Tabs,
    Text,
    TextField,
    Widget,
    Wrap,
)

Rows = list[Widget | None]


class HomeScreens(AppstoreBase):
    def status(self, v: View, app: dict[str, Any]) -> str:
        entry = self.installed(v.data, app["id"])
        if entry is None:
            return "已购买" if self.owned(v.data, app["id"]) else price_label(app["price"])
        return "可更新" if entry["version"] != app["version"] else "已安装"

    def app_row(
        self, v: View, app: dict[str, Any], row_id: str, rank: int = 0, subtitle: str = ""
    ) -> ListItem:
        return ListItem(
            app["name"],
            subtitle=subtitle or f"{app['category']}｜{app['rating']}分｜{app['size']} MB",
            trailing=self.status(v, app),
            leading=str(rank) if rank else app["name"][:1],
            leading_color=ORANGE,
            on_tap=v.go("app", app_id=app["id"]),
            id=row_id,
        )

    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "rec")
        body = {"rec": self._rec, "cats": self._cats, "rank": self._rank, "me": self._me}[tab](v)
        return Page(
            "应用市场",
            [*body, Spacer(60)],
            header=Tabs(TABS, tab, v.on_select("tab")),
            actions=[IconButton("search", "搜索", v.go("search"), id="search")],
            overlay=self._home_dialog(v) if tab == "me" else None,
        )

    def _rec(self, v: View) -> Rows:
        rows: Rows = [Text("编辑推荐", size=44, bold=True, padding=20)]
        for app_id in v.content["featured"]:
            rows.append(self.app_row(v, self.item(v, app_id), f"rec_{app_id}"))
        return rows

    def _cats(self, v: View) -> Rows:
        category = v.ui("cat", CATEGORIES[0])
        rows: Rows = [Wrap([Chip(c, v.set_ui("cat", c), selected=c == category, id=f"cat_{c}")
                            for c in CATEGORIES])]  # fmt: skip
        inside = sorted((a for a in v.content["apps"] if a["category"] == category),
                        key=sort_key("rating"))  # fmt: skip
        rows += [self.app_row(v, a, f"capp_{a['id']}") for a in inside]
        return rows

    def _rank(self, v: View) -> Rows:
        sort = v.ui("rank", "downloads")
        rows: Rows = [Wrap([Chip(f"{label}榜", v.set_ui("rank", key), selected=sort == key,
                                 id=f"chart_{key}") for key, label in SORTS])]  # fmt: skip
        ranked = sorted(v.content["apps"], key=sort_key(sort))[:30]
        for n, app in enumerate(ranked, 1):
            said = f"{app['category']}｜{downloads_label(app['downloads'])}次下载"
            rows.append(self.app_row(v, app, f"rank_{app['id']}", rank=n,
                                     subtitle=said if sort == "downloads" else ""))  # fmt: skip
        return rows

    def _me(self, v: View) -> Rows:
        installed = v.data["installed"]
        behind = {e["id"] for e in self.outdated(v)}
        update_all = (
            v.set_ui("dialog", "update_all")
            if len(behind) > CONFIRM_OVER
            else v.do(self.update_all)
        )
        rows: Rows = [
            Text(f"已用空间 {self.storage_mb(v)} MB（{len(installed)}个应用）", size=40,
                 padding=20, id="storage"),
            ListItem("愿望单", trailing=f"{len(v.data['wishlist'])}个", on_tap=v.go("wishlist"),
                     id="open_wishlist"),
            ListItem("设置", on_tap=v.go("settings"), id="open_settings"),
            Text("已安装应用", size=44, bold=True, padding=20),
            Button("全部更新", update_all, id="update_all", style="secondary", height=100,
                   size=36) if behind else None,
        ]  # fmt: skip
        for entry in installed:
            app = self.item(v, entry["id"])
            if entry["id"] in behind:
                subtitle = f"{entry['version']} → {app['version']}｜{app['size']} MB"
                action: IconButton | Button = Button(
                    "更新", v.do(self.update, app["id"]), id=f"update_{app['id']}", height=90,
                    size=34)  # fmt: skip
            else:
                subtitle = f"版本 {entry['version']}｜{app['size']} MB"
                action = IconButton("delete", "卸载", v.set_ui("dialog", f"uninstall:{app['id']}"),
                                    id=f"uninstall_{app['id']}")  # fmt: skip
            rows.append(ListItem(app["name"], subtitle=subtitle, leading=app["name"][:1],
                                 leading_color=ORANGE, on_tap=v.go("app", app_id=app["id"]),
                                 id=f"inst_{app['id']}", action=action))  # fmt: skip
        if not installed:
            rows.append(Text("还没有安装应用", color=theme.TEXT_SECONDARY, padding=40,
                             align="center"))  # fmt: skip
        return rows

    def _home_dialog(self, v: View) -> Dialog | None:
        dialog = v.ui("dialog") or ""
        if dialog == "update_all" and len(self.outdated(v)) > CONFIRM_OVER:
            return v.confirm(
                "全部更新？",
                v.do(self.update_all),
                message=f"将更新{len(self.outdated(v))}个应用，建议在WLAN下进行。",
                label="全部更新",
                confirm_id="confirm_update_all",
            )
        app_id = dialog.removeprefix("uninstall:")
        if dialog.startswith("uninstall:") and self.installed(v.data, app_id) is not None:
            return self.uninstall_dialog(v, app_id)
        return None

    @screen("search")
    def search(self, v: View) -> Page:
        query = v.field("query").strip()
        sort = v.ui("sort", "rating")
        rows: Rows = [
            TextField("query", v.field("query"), "搜索应用/分类", on_focus=v.focus("query")),
            Button("清除搜索", v.do(self.clear_search), id="clear_search", style="secondary",
                   height=90, size=34) if query else None,
            Wrap([Chip(f"按{label}", v.set_ui("sort", key), selected=sort == key,
                       id=f"sort_{key}") for key, label in SORTS]),
        ]  # fmt: skip
        if not query:
            rows.append(Text("输入应用名称或分类搜索", color=theme.TEXT_SECONDARY, padding=40,
                             align="center"))  # fmt: skip
            return Page("搜索", rows, on_back=v.back())
        found = [a for a in v.content["apps"] if query in a["name"] or query == a["category"]]
        for app in sorted(found, key=sort_key(sort)):
            said = f"{app['category']}｜{downloads_label(app['downloads'])}次下载"
            rows.append(self.app_row(v, app, f"result_{app['id']}",
                                     subtitle=said if sort == "downloads" else ""))  # fmt: skip
        if not found:
            rows.append(Text(f"没有找到“{query}”相关应用", color=theme.TEXT_SECONDARY,
                             padding=40, align="center"))  # fmt: skip
        return Page("搜索", rows, on_back=v.back())
