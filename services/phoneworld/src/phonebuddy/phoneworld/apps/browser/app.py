"""The 浏览器 screens: the browser (address bar, the home page's tiles and hot searches, search
results, a web page with its links and files, find in page, the menu), tabs, bookmarks,
history, downloads and text size."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen, tool
from phonebuddy.phoneworld.apps.browser.base import (
    BLUE,
    ERROR,
    HOME,
    SEARCH,
    SIZES,
    BrowserBase,
    count_matches,
    normalize_url,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import local_time
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Chip,
    Column,
    Dialog,
    Handler,
    IconButton,
    ListItem,
    Page,
    Row,
    Text,
    TextField,
    Widget,
    Wrap,
)

MENU = (
    ("menu_bookmark", "添加/取消书签"), ("menu_bookmarks", "书签"), ("menu_history", "历史记录"),
    ("menu_downloads", "下载管理"), ("menu_find", "页内查找"), ("menu_copy", "复制链接"),
    ("menu_share", "分享"), ("menu_incognito", "新建无痕标签页"), ("menu_size", "字体大小"),
)  # fmt: skip


class Browser(BrowserBase):
    @screen("home")
    def home(self, v: View) -> Page:
        url = self.current(v.data)
        tab = self.tab(v.data)
        page = self.page_at(v, url)
        if url == HOME:
            title, body = "浏览器", self._start(v)
        elif url.startswith(SEARCH):
            title, body = "搜索结果", self._results(v, url.removeprefix(SEARCH))
        elif page is None:
            title, body = "无法访问", self._error(url.removeprefix(ERROR))
        else:
            title, body = page["title"], self._page(v, url)
        if tab["incognito"]:
            title = "无痕 · " + title
        header: list[Widget | None] = [
            Row([TextField("address", v.field("address"), "搜索或输入网址",
                           on_focus=v.do(self.edit_address), on_submit=v.do(self.submit_address)),
                 IconButton("search", "前往", v.do(self.submit_address), id="go")]),
        ]  # fmt: skip
        if v.ui("finding") and page is not None:
            word = v.field("find").strip()
            header.append(Row([
                TextField("find", v.field("find"), "在页面中查找", on_focus=v.focus("find")),
                IconButton("close", "关闭查找", v.do(self.stop_find), id="find_close"),
            ]))  # fmt: skip
            found = f"共{count_matches(page, word)}处匹配" if word else "输入要查找的文字"
            header.append(Text(found,
                               size=34, color=theme.TEXT_SECONDARY, id="find_count"))  # fmt: skip
        marked = page is not None and self.bookmark_of(v.data, url) is not None
        bottom = Row([
            IconButton("back", "后退", v.do(self.step, -1), id="nav_back"),
            IconButton("→", "前进", v.do(self.step, 1), id="nav_forward"),
            IconButton("⌂", "主页", v.do(self.visit, HOME), id="nav_home"),
            IconButton("▢", "标签页", v.go("tabs"), id="tabs", badge=len(v.data["tabs"])),
            IconButton("menu", "菜单", v.set_ui("dialog", "menu"), id="menu"),
        ])  # fmt: skip
        return Page(
            title,
            body,
            header=Column(header, spacing=12, padding=20),
            bottom=bottom,
            on_back=self._on_back(v),
            actions=[IconButton("favorite" if marked else "star",
                                "取消书签" if marked else "添加书签",
                                v.do(self.toggle_bookmark), id="bookmark"),
                     IconButton("share", "分享", v.do(self.share_page), id="share")]
            if page else [],
            body_padding=30,
            spacing=18,
            overlay=self._overlay(v, page),
        )  # fmt: skip

    def _on_back(self, v: View) -> Handler | None:
        """Back closes an open sheet or the find bar, then goes back in the tab, then leaves."""
        if v.ui("dialog"):
            return v.set_ui("dialog", None)
        if v.ui("finding"):
            return v.do(self.stop_find)
        if self.tab(v.data)["pos"] > 0:
            return v.do(self.step, -1)
        return None

    def _overlay(self, v: View, page: dict[str, Any] | None) -> BottomSheet | Dialog | None:
        dialog = v.ui("dialog")
        if dialog == "menu":
            handlers = {
                "menu_bookmark": v.do(self.toggle_bookmark), "menu_bookmarks": v.go("bookmarks"),
                "menu_history": v.go("history"), "menu_downloads": v.go("downloads"),
                "menu_find": v.do(self.start_find),
                "menu_copy": v.do(self.copy_link), "menu_share": v.do(self.share_page),
                "menu_incognito": v.do(self.new_tab, True), "menu_size": v.go("settings"),
            }  # fmt: skip
            items = [ListItem(label, on_tap=handlers[key], id=key) for key, label in MENU]
            return BottomSheet("菜单", items, on_dismiss=v.set_ui("dialog", None), id="menu_sheet")
        if isinstance(dialog, str) and dialog.startswith("file:") and page is not None:
            file = next((f for f in page["files"] if f["id"] == dialog[5:]), None)
            if file is not None:
                return v.confirm(f"下载“{file['name']}”？", v.do(self.download, file["id"]),
                                 message=f"文件大小 {file['size']}", label="下载",
                                 confirm_id="confirm_download")  # fmt: skip
        return None

    def _start(self, v: View) -> list[Widget | None]:
        tiles = []
        for i, url in enumerate(v.content["shortcuts"]):
            page = self.page_at(v, url)
            assert page is not None
            tiles.append(Chip(page["site"], v.do(self.open_url, url), id=f"tile_{i}"))
        rows: list[Widget | None] = [Text("常用网站", size=44, bold=True), Wrap(tiles),
                                     Text("热搜榜", size=44, bold=True)]  # fmt: skip
        for i, word in enumerate(v.content["hot"]):
            rows.append(ListItem(f"{i + 1}. {word}", on_tap=v.do(self.visit, SEARCH + word),
                                 id=f"hot_{i}"))  # fmt: skip
        return rows

    def _results(self, v: View, query: str) -> list[Widget | None]:
        found = self.search(v, query)
        rows: list[Widget | None] = [Text(f"“{query}”的搜索结果：共{len(found)}条", size=36,
                                          color=theme.TEXT_SECONDARY,
                                          id="result_count")]  # fmt: skip
        for p in found:
            rows.append(ListItem(p["title"], subtitle=p["url"],
                                 on_tap=v.do(self.open_url, p["url"]),
                                 id=f"result_{p['id']}"))  # fmt: skip
        if not found:
            rows.append(Text("没有找到相关网页，换个关键词试试", padding=40, align="center",
                             color=theme.TEXT_SECONDARY))  # fmt: skip
        return rows

    @staticmethod
    def _error(url: str) -> list[Widget | None]:
        return [Text("无法访问此网站", size=52, bold=True, id="error_title"),
                Text(f"找不到 {url} 的服务器地址，请检查网址是否正确。",
                     id="error_detail")]  # fmt: skip

    def _page(self, v: View, url: str) -> list[Widget | None]:
        page = self.page_at(v, url)
        assert page is not None
        size = next(s for key, _, s in SIZES if key == v.data["text_size"])
        rows: list[Widget | None] = [
            Text(page["title"], size=size + 12, bold=True, id="page_title"),
            Text(f"{page['site']} · {url}", size=32, color=theme.TEXT_SECONDARY, id="page_url"),
        ]
        for si, section in enumerate(page["sections"]):
            rows.append(Text(section["heading"], size=size + 4, bold=True, id=f"h_{si}"))
            rows += [Text(p, size=size, id=f"para_{si}_{pi}")
                     for pi, p in enumerate(section["paragraphs"])]  # fmt: skip
        for f in page["files"]:
            rows.append(ListItem(f"附件：{f['name']}", subtitle=f["size"], trailing="下载",
                                 on_tap=v.set_ui("dialog", f"file:{f['id']}"),
                                 id=f"file_{f['id']}"))  # fmt: skip
        for target in page["links"]:
            linked = self.page_at(v, target)
            assert linked is not None
            rows.append(ListItem(f"相关链接：{linked['title']}", subtitle=target,
                                 on_tap=v.do(self.open_url, target),
                                 id=f"link_{linked['id']}"))  # fmt: skip
        return rows

    @screen("tabs")
    def tabs_screen(self, v: View) -> Page:
        rows: list[Widget | None] = []
        for i, tab in enumerate(v.data["tabs"]):
            url = tab["stack"][tab["pos"]]
            page = self.page_at(v, url)
            name = page["title"] if page else ("主页" if url == HOME else url.split(":", 1)[-1])
            rows.append(ListItem(("[无痕] " if tab["incognito"] else "") + name,
                                 subtitle=url if page else "",
                                 selected=tab["id"] == v.data["active"],
                                 on_tap=v.do(self.switch_tab, tab["id"]), id=f"tab_{i}",
                                 action=IconButton("close", "关闭", v.do(self.close_tab, tab["id"]),
                                                   id=f"close_tab_{i}")))  # fmt: skip
        dialog = None
        if v.ui("dialog") == "close_all":
            dialog = v.confirm("关闭全部标签页？", v.do(self.close_all),
                               message=f"将关闭{len(v.data['tabs'])}个标签页", label="全部关闭",
                               confirm_id="confirm_close_all", danger=True)  # fmt: skip
        rows += [Button("新建标签页", v.do(self.new_tab, False), id="new_tab"),
                 Button("新建无痕标签页", v.do(self.new_tab, True), id="new_incognito",
                        style="secondary"),
                 Button("关闭全部", v.set_ui("dialog", "close_all"), id="close_all",
                        style="secondary")]  # fmt: skip
        return Page(f"标签页（{len(v.data['tabs'])}）", rows, on_back=v.back(), body_padding=30,
                    spacing=16, overlay=dialog)  # fmt: skip

    @screen("bookmarks")
    def bookmarks(self, v: View) -> Page:
        rows: list[Widget | None] = [
            ListItem(b["title"], subtitle=b["url"], leading="★", leading_color=BLUE,
                     on_tap=v.do(self.open_saved, b["url"]), id=f"bm_{b['id']}",
                     action=IconButton("delete", "删除书签", v.do(self.remove_bookmark, b["id"]),
                                       id=f"bm_delete_{b['id']}"))
            for b in v.data["bookmarks"]
        ]  # fmt: skip
        if not rows:
            rows.append(Text("还没有书签", padding=40, align="center", color=theme.TEXT_SECONDARY))
        return Page("书签", rows, on_back=v.back())

    @screen("history")
    def history(self, v: View) -> Page:
        rows: list[Widget | None] = [
            ListItem(h["title"], subtitle=f"{local_time(h['time']):%m-%d %H:%M} · {h['url']}",
                     on_tap=v.do(self.open_saved, h["url"]), id=f"hist_{h['id']}",
                     action=IconButton("delete", "删除记录", v.do(self.delete_history, h["id"]),
                                       id=f"hist_delete_{h['id']}"))
            for h in v.data["history"]
        ]  # fmt: skip
        if rows:
            rows.append(Button("清空历史记录", v.set_ui("dialog", "clear"), id="clear_history",
                               style="secondary"))  # fmt: skip
        else:
            rows.append(
                Text("暂无历史记录", padding=40, align="center", color=theme.TEXT_SECONDARY)
            )
        dialog = None
        if v.ui("dialog") == "clear" and v.data["history"]:
            dialog = v.confirm("清空全部历史记录？", v.do(self.clear_history),
                               message="清空后无法恢复", label="清空",
                               confirm_id="confirm_clear", danger=True)  # fmt: skip
        return Page("历史记录", rows, on_back=v.back(), overlay=dialog)

    @screen("downloads")
    def downloads(self, v: View) -> Page:
        rows: list[Widget | None] = [
            ListItem(d["name"], subtitle=f"{d['size']} · {d['url']}", id=f"dl_{d['id']}",
                     action=IconButton("delete", "删除", v.do(self.delete_download, d["id"]),
                                       id=f"dl_delete_{d['id']}"))
            for d in v.data["downloads"]
        ]  # fmt: skip
        if not rows:
            rows.append(Text("暂无下载", padding=40, align="center", color=theme.TEXT_SECONDARY))
        return Page("下载管理", rows, on_back=v.back())

    @screen("settings")
    def settings(self, v: View) -> Page:
        chips = [Chip(label, v.do(self.set_size, key), selected=v.data["text_size"] == key,
                      id=f"size_{key}") for key, label, _ in SIZES]  # fmt: skip
        size = next(s for key, _, s in SIZES if key == v.data["text_size"])
        return Page("字体大小", [Text("网页文字大小", size=44, bold=True), Wrap(chips),
                                 Text("预览：春眠不觉晓，处处闻啼鸟。", size=size, id="preview")],
                    on_back=v.back(), body_padding=30, spacing=20)  # fmt: skip

    def open_saved(self, it: Interaction, url: str) -> None:
        it.reset_to("home")
        self.visit(it, url)

    # -- direct tools ---------------------------------------------------------------------------
    @tool("open_url", "Open a web address in the current browser tab.", {"url": str})
    def open_url_tool(self, it: Interaction, url: str) -> str:
        target = normalize_url(url)
        page = self.page_at(it, target)
        it.reset_to("home")
        self.visit(it, target if page else ERROR + target)
        return f"opened {page['title']}" if page else f"cannot reach {target}"

    @tool("search_web", "Search the web for words; lists the matching pages.", {"query": str})
    def search_tool(self, it: Interaction, query: str) -> str:
        if not query.strip():
            it.no_op("an empty search")
        it.reset_to("home")
        self.visit(it, SEARCH + query.strip())
        found = self.search(it, query.strip())
        return "; ".join(f"{p['title']} {p['url']}" for p in found) or "no results"

    @tool("bookmark_page", "Bookmark (or un-bookmark) the page shown in the current tab.", {})
    def bookmark_tool(self, it: Interaction) -> str:
        self.toggle_bookmark(it)
        url = self.current(it.data)
        return "bookmarked" if self.bookmark_of(it.data, url) else "bookmark removed"
