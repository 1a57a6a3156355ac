"""浏览器's base: constants, look-ups, and the handlers (the only place its data changes):
opening an address or a search in the current tab, back and forward, tabs (incognito ones
record no history), bookmarks, history, downloads, the link copied or shared, text size."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View
from phonebuddy.phoneworld.apps.browser import content
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui.theme import AppTheme, Color

BROWSER = "com.pw.browser"
BLUE: Color = (30, 136, 229)
HOME = ""
SEARCH = "search:"
ERROR = "error:"
SIZES = (("small", "小", 34), ("normal", "标准", 40), ("large", "大", 46), ("huge", "特大", 52))
MAX_TABS = 9


def normalize_url(raw: str) -> str:
    url = raw.strip().rstrip("/")
    if not url.startswith(("http://", "https://")):
        url = "https://" + url
    return url.replace("http://", "https://", 1)


def looks_like_url(raw: str) -> bool:
    text = raw.strip()
    return " " not in text and (text.startswith(("http://", "https://")) or "." in text)


def page_text(page: dict[str, Any]) -> str:
    parts = [page["title"]]
    for section in page["sections"]:
        parts += [section["heading"], *section["paragraphs"]]
    return "\n".join(parts)


def live(page: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """A page as this phone sees it today: the shared page with the fields this device's
    `updates` replace (a restaurant's new hours, today's prices, comments), if any."""
    update = data.get("updates", {}).get(page["url"])
    return page if update is None else {**page, **update}


def count_matches(page: dict[str, Any], word: str) -> int:
    return page_text(page).count(word) if word else 0


class BrowserBase(App):
    package = BROWSER
    label = Label(zh="浏览器", en="Browser")
    domain = "browser"
    theme = AppTheme(primary=BLUE)
    icon_text = "浏"
    ignorable = ("tabs", "active")

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return content.build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "tabs": [{"id": "tab1", "stack": [HOME], "pos": 0, "incognito": False}],
            "active": "tab1",
            "bookmarks": [clone(b) for b in content["bookmarks"]],
            "history": [clone(h) for h in content["history"]],
            "downloads": [clone(d) for d in content["downloads"]],
            "text_size": "normal",
        }

    # -- look-ups ---------------------------------------------------------------------------------
    @staticmethod
    def page_at(v: View | Interaction, url: str) -> dict[str, Any] | None:
        page = next((p for p in v.content["pages"] if p["url"] == url), None)
        return None if page is None else live(page, v.data)

    @staticmethod
    def tab(data: dict[str, Any]) -> dict[str, Any]:
        return next(t for t in data["tabs"] if t["id"] == data["active"])

    def current(self, data: dict[str, Any]) -> str:
        tab = self.tab(data)
        return str(tab["stack"][tab["pos"]])

    @staticmethod
    def bookmark_of(data: dict[str, Any], url: str) -> dict[str, Any] | None:
        return next((b for b in data["bookmarks"] if b["url"] == url), None)

    def search(self, v: View | Interaction, query: str) -> list[dict[str, Any]]:
        words = query.split()
        pages = [live(p, v.data) for p in v.content["pages"]]
        return [p for p in pages if all(w in page_text(p) for w in words)]

    # -- navigation -----------------------------------------------------------------------------
    def visit(self, it: Interaction, target: str) -> None:
        """Open `target` (a URL, HOME, a search or an error) in the current tab."""
        tab = self.tab(it.data)
        if tab["stack"][tab["pos"]] == target:
            it.no_op(f"already showing {target!r}")
        tab["stack"] = [*tab["stack"][: tab["pos"] + 1], target]
        tab["pos"] += 1
        self._arrived(it, target)

    def _arrived(self, it: Interaction, target: str) -> None:
        it.unfocus()
        it.set_ui("dialog", None)
        it.set_ui("finding", False)
        it.set_field("find", "")
        page = self.page_at(it, target)
        it.set_field("address", target if page or target.startswith("http") else "")
        if page is not None and not self.tab(it.data)["incognito"]:
            it.data["history"].insert(0, {"id": it.new_id("h"), "url": target,
                                          "title": page["title"], "time": it.clock})  # fmt: skip

    def edit_address(self, it: Interaction) -> None:
        """Focusing the address bar selects its text, so typing replaces it (as browsers do)."""
        it.set_field("address", "")
        it.focus("address")

    def submit_address(self, it: Interaction) -> None:
        raw = it.field("address").strip()
        if not raw:
            it.toast("请输入网址或搜索内容")
            it.no_op("the address bar is empty")
        if looks_like_url(raw):
            url = normalize_url(raw)
            self.visit(it, url if self.page_at(it, url) else ERROR + url)
        else:
            self.visit(it, SEARCH + raw)
            it.set_field("address", raw)

    def open_url(self, it: Interaction, url: str) -> None:
        self.visit(it, url)

    def step(self, it: Interaction, delta: int) -> None:
        tab = self.tab(it.data)
        pos = tab["pos"] + delta
        if not 0 <= pos < len(tab["stack"]):
            it.toast("没有可前进的页面" if delta > 0 else "已经是第一页")
            it.no_op(f"no page at {pos}")
        tab["pos"] = pos
        self._arrived(it, tab["stack"][pos])

    def start_find(self, it: Interaction) -> None:
        if self.page_at(it, self.current(it.data)) is None:
            it.toast("当前页面无法查找")
            it.no_op("no page to search in")
        it.set_ui("dialog", None)
        it.set_ui("finding", True)
        it.set_field("find", "")
        it.focus("find")

    def stop_find(self, it: Interaction) -> None:
        it.set_ui("finding", False)
        it.set_field("find", "")
        it.unfocus()

    # -- tabs -------------------------------------------------------------------------------------
    def new_tab(self, it: Interaction, incognito: bool) -> None:
        if len(it.data["tabs"]) >= MAX_TABS:
            it.toast(f"最多打开{MAX_TABS}个标签页")
            it.no_op("too many tabs")
        tab_id = it.new_id("tab")
        it.data["tabs"].append({"id": tab_id, "stack": [HOME], "pos": 0, "incognito": incognito})
        it.data["active"] = tab_id
        it.set_field("address", "")
        it.set_ui("dialog", None)
        it.reset_to("home")
        it.toast("已打开无痕标签页" if incognito else "已新建标签页")

    def switch_tab(self, it: Interaction, tab_id: str) -> None:
        it.data["active"] = tab_id
        it.reset_to("home")
        url = self.current(it.data)
        it.set_field("address", url if url.startswith("http") else "")

    def close_tab(self, it: Interaction, tab_id: str) -> None:
        tabs = it.data["tabs"]
        if len(tabs) == 1:
            it.toast("至少保留一个标签页")
            it.no_op("the last tab")
        index = next(i for i, t in enumerate(tabs) if t["id"] == tab_id)
        tabs.pop(index)
        if it.data["active"] == tab_id:
            it.data["active"] = tabs[min(index, len(tabs) - 1)]["id"]
        it.toast("已关闭标签页")

    def close_all(self, it: Interaction) -> None:
        it.data["tabs"] = [{"id": it.new_id("tab"), "stack": [HOME], "pos": 0,
                            "incognito": False}]  # fmt: skip
        it.data["active"] = it.data["tabs"][0]["id"]
        it.set_ui("dialog", None)
        it.reset_to("home")
        it.set_field("address", "")
        it.toast("已关闭全部标签页")

    # -- bookmarks, history, downloads ------------------------------------------------------------
    def toggle_bookmark(self, it: Interaction) -> None:
        url = self.current(it.data)
        page = self.page_at(it, url)
        if page is None:
            it.toast("此页面无法添加书签")
            it.no_op(f"no page at {url!r}")
        it.set_ui("dialog", None)
        mark = self.bookmark_of(it.data, url)
        if mark is not None:
            it.data["bookmarks"].remove(mark)
            it.toast("已取消书签")
        else:
            it.data["bookmarks"].append({"id": it.new_id("b"), "url": url, "title": page["title"]})
            it.toast("已添加书签")

    def remove_bookmark(self, it: Interaction, bookmark_id: str) -> None:
        it.data["bookmarks"] = [b for b in it.data["bookmarks"] if b["id"] != bookmark_id]
        it.toast("已删除书签")

    def delete_history(self, it: Interaction, entry_id: str) -> None:
        it.data["history"] = [h for h in it.data["history"] if h["id"] != entry_id]
        it.toast("已删除该记录")

    def clear_history(self, it: Interaction) -> None:
        if not it.data["history"]:
            it.no_op("the history is empty")
        it.set_ui("dialog", None)
        it.data["history"] = []
        it.toast("历史记录已清空")

    def download(self, it: Interaction, file_id: str) -> None:
        url = self.current(it.data)
        page = self.page_at(it, url)
        file = next(f for f in page["files"] if f["id"] == file_id) if page else None
        if file is None:
            it.no_op(f"no file {file_id}")
        if any(d["name"] == file["name"] for d in it.data["downloads"]):
            it.toast("该文件已下载")
            it.no_op(f"{file['name']} is already downloaded")
        it.set_ui("dialog", None)
        record = {"id": it.new_id("d"), "name": file["name"], "size": file["size"], "url": url,
                  "time": it.clock}  # fmt: skip
        it.data["downloads"].insert(0, record)
        it.toast(f"{file['name']} 下载完成")

    def delete_download(self, it: Interaction, download_id: str) -> None:
        it.data["downloads"] = [d for d in it.data["downloads"] if d["id"] != download_id]
        it.toast("已删除下载记录")

    # -- sharing and settings ---------------------------------------------------------------------
    def copy_link(self, it: Interaction) -> None:
        url = self.current(it.data)
        if not url.startswith("http") or self.page_at(it, url) is None:
            it.toast("当前页面没有可复制的链接")
            it.no_op("no page to copy")
        it.set_ui("dialog", None)
        it.copy(url)
        it.toast("链接已复制")

    def share_page(self, it: Interaction) -> None:
        url = self.current(it.data)
        page = self.page_at(it, url)
        if page is None:
            it.toast("当前页面无法分享")
            it.no_op("no page to share")
        it.set_ui("dialog", None)
        it.share({"kind": "link", "text": f"{page['title']} {url}"})

    def set_size(self, it: Interaction, size: str) -> None:
        if it.data["text_size"] == size:
            it.no_op(f"the text size is already {size}")
        it.data["text_size"] = size
        it.toast("字体大小已设置")
