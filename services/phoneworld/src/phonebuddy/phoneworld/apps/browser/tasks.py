"""Task templates of 浏览器: the single-app ones here, the question ones in `questions`, the
cross-app ones in `cross`; `TEMPLATES` lists them all."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.browser.base import BROWSER
from phonebuddy.phoneworld.apps.browser.common import (
    APP_LABEL,
    BOOKMARKS,
    DOWNLOADS,
    HISTORY,
    TABS,
    BrowserTemplate,
    bookmarked,
    not_bookmarked,
    open_address,
    page_params,
    pages,
    search_open,
)
from phonebuddy.phoneworld.apps.browser.cross import (
    AddressToNote,
    HolidayCalendar,
    HotlineToContacts,
    ShareWechat,
    SmsBookmark,
    SmsChain,
)
from phonebuddy.phoneworld.apps.browser.plans import GovChain, LinkToMail, MondayOrNote
from phonebuddy.phoneworld.apps.browser.questions import (
    CheaperBookmark,
    ComparePrice,
    FindCount,
    OpenDays,
    SumFigures,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Instruction


class BookmarkUrl(BrowserTemplate):
    id = "browser.bookmark_url"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return page_params(pick(rng, not_bookmarked(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        url = params["url"]
        return phrased(
            zh=[f"用浏览器打开 {url}，并把这个网页加入书签", f"帮我收藏网页 {url}",
                f"打开网址 {url}，然后添加书签"],
            en=[f"Open {url} in the browser and bookmark the page",
                f"Please bookmark the page {url}",
                f"Go to {url}, then add it to my bookmarks"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return bookmarked(diff, params["url"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_address(ui, params["url"])
        yield ui.tap("bookmark")


class BookmarkFive(BrowserTemplate):
    """Long horizon: five pages searched for by their titles and bookmarked one by one."""

    id = "browser.bookmark_five"
    difficulty = 26

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, not_bookmarked(world), 5)
        return {"ids": [p["id"] for p in chosen], "titles": [p["title"] for p in chosen],
                "urls": [p["url"] for p in chosen]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh = "、".join(f"《{t}》" for t in params["titles"])
        en = ", ".join(f"'{t}'" for t in params["titles"])
        return phrased(
            zh=[f"在浏览器里搜索并收藏这五个网页：{zh}", f"帮我把{zh}这几篇网页都加入书签",
                f"这五个网页我想以后再看，都加到书签里：{zh}"],
            en=[f"In the browser, search for these five pages and bookmark them: {en}",
                f"Please add the pages {en} to my bookmarks",
                f"I want to read these five pages later, bookmark them all: {en}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        diff.added(HISTORY)
        added = sorted(b["url"] for b in diff.added(BOOKMARKS))
        if added != sorted(params["urls"]):
            return [f"bookmarked {added}, expected {sorted(params['urls'])}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        for page_id, title in zip(params["ids"], params["titles"], strict=True):
            yield from search_open(ui, title, page_id)
            yield ui.tap("bookmark")


class RemoveBookmark(BrowserTemplate):
    id = "browser.remove_bookmark"
    difficulty = 4

    def sample(self, world: World, rng: random.Random) -> Params:
        mark = pick(rng, world.content(BROWSER)["bookmarks"])
        return {"bookmark_id": mark["id"], "title": mark["title"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = params["title"]
        return phrased(
            zh=[f"把浏览器书签里的《{title}》删掉", f"《{title}》这个书签不要了，帮我删除",
                f"在书签列表中删除《{title}》"],
            en=[f"Delete the bookmark '{title}' in the browser",
                f"I don't need the bookmark '{title}' any more, remove it",
                f"Remove '{title}' from my bookmark list"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [b["id"] for b in diff.removed(BOOKMARKS)]
        return [] if removed == [params["bookmark_id"]] else [
            f"removed bookmarks {removed}, expected only {params['bookmark_id']}"]  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield ui.tap("menu")
        yield ui.tap("menu_bookmarks")
        yield from ui.scroll_to(f"bm_delete_{params['bookmark_id']}")
        yield ui.tap(f"bm_delete_{params['bookmark_id']}")


class DeleteHistory(BrowserTemplate):
    """Every history entry of one page removed (some pages were visited twice)."""

    id = "browser.delete_history"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        history = world.content(BROWSER)["history"]
        url = pick(rng, sorted({h["url"] for h in history}))
        entries = [h for h in history if h["url"] == url]
        return {"title": entries[0]["title"], "ids": [h["id"] for h in entries]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = params["title"]
        return phrased(
            zh=[f"把浏览器历史记录里《{title}》的所有浏览记录删除",
                f"删除历史记录中关于《{title}》的记录，一条都不要留",
                f"我不想让别人看到我看过《{title}》，把它的历史记录全部删掉"],
            en=[f"Delete every history entry of '{title}' in the browser",
                f"Remove all records of '{title}' from the browsing history, leave none",
                f"I don't want anyone to see I read '{title}': delete all its history entries"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = sorted(h["id"] for h in diff.removed(HISTORY))
        return [] if removed == sorted(params["ids"]) else [
            f"removed history {removed}, expected {sorted(params['ids'])}"]  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield ui.tap("menu")
        yield ui.tap("menu_history")
        for entry_id in params["ids"]:
            yield from ui.scroll_to(f"hist_delete_{entry_id}")
            yield ui.tap(f"hist_delete_{entry_id}")


class Download(BrowserTemplate):
    """Two attachments on two pages downloaded."""

    id = "browser.download"
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        # in page order: the same two pages asked in the other order are the same task
        chosen = sorted(pick(rng, [p for p in pages(world) if p["files"]], 2),
                        key=lambda page: page["id"])  # fmt: skip
        return {"titles": [p["title"] for p in chosen], "ids": [p["id"] for p in chosen],
                "files": [p["files"][0]["name"] for p in chosen],
                "file_ids": [p["files"][0]["id"] for p in chosen]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        (t1, t2), (f1, f2) = params["titles"], params["files"]
        return phrased(
            zh=[f"在浏览器里下载两个附件：《{t1}》页面上的“{f1}”和《{t2}》页面上的“{f2}”",
                f"帮我把“{f1}”（在网页《{t1}》里）和“{f2}”（在网页《{t2}》里）都下载下来",
                f"网页《{t1}》有附件“{f1}”，《{t2}》有附件“{f2}”，两个都下载"],
            en=[f"In the browser, download two attachments: '{f1}' on the page '{t1}' and '{f2}' "
                f"on the page '{t2}'",
                f"Please download both '{f1}' (on the page '{t1}') and '{f2}' (on the page "
                f"'{t2}')",
                f"The page '{t1}' has an attachment '{f1}' and '{t2}' one called '{f2}': "
                "download both"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        diff.added(HISTORY)
        names = sorted(d["name"] for d in diff.added(DOWNLOADS))
        if names != sorted(params["files"]):
            return [f"downloaded {names}, expected {sorted(params['files'])}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        for title, page_id, file_id in zip(params["titles"], params["ids"], params["file_ids"],
                                           strict=True):  # fmt: skip
            yield from search_open(ui, title, page_id)
            yield from ui.scroll_to(f"file_{file_id}")
            yield ui.tap(f"file_{file_id}")
            yield ui.tap("confirm_download")


class IncognitoVisit(BrowserTemplate):
    """A page opened in an incognito tab: it is on screen, and no history is written."""

    id = "browser.incognito"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return page_params(pick(rng, pages(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        url = params["url"]
        return phrased(
            zh=[f"新建一个无痕标签页，在里面打开 {url}", f"用无痕模式访问 {url}，别留下浏览记录",
                f"帮我在浏览器的无痕标签页里打开网址 {url}"],
            en=[f"Open a new incognito tab and visit {url} in it",
                f"Visit {url} in incognito mode so that no history is left",
                f"Please open the address {url} in an incognito tab of the browser"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = []
        if diff.added(HISTORY):
            problems.append("the visit was recorded in the history")
        tabs = diff.value_after(TABS)
        if not any(t["incognito"] and t["stack"][t["pos"]] == params["url"] for t in tabs):
            problems.append(f"no incognito tab shows {params['url']}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield ui.tap("tabs")
        yield ui.tap("new_incognito")
        yield from ui.type_into("address", params["url"])
        yield ui.enter()


TEMPLATES: tuple[TaskTemplate, ...] = (
    BookmarkUrl(),
    BookmarkFive(),
    RemoveBookmark(),
    DeleteHistory(),
    Download(),
    IncognitoVisit(),
    ComparePrice(),
    OpenDays(),
    SumFigures(),
    FindCount(),
    CheaperBookmark(),
    SmsBookmark(),
    HotlineToContacts(),
    AddressToNote(),
    ShareWechat(),
    HolidayCalendar(),
    SmsChain(),
    GovChain(),
    MondayOrNote(),
    LinkToMail(),
)
