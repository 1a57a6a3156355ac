"""The 浏览器 app through the action interface: the address bar (a URL, words to search, an
unknown address), back and forward, tabs (new, switch, close, close all confirmed, incognito
without history), bookmarks, history (delete one, clear all confirmed), find in page, copying
and sharing a link, downloads, text size, and what it refuses."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.browser.base import BROWSER, count_matches
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import CallTool

SHEBAO = "https://gov.pw/shebao"
SUBWAY = "https://news.pw/2026/0315/subway"


class Driver(testing.Driver):
    scroll_first = True

    @property
    def data(self) -> dict[str, Any]:
        return self.app_state(BROWSER)  # type: ignore[no-any-return]

    def go(self, text: str) -> None:
        self.type_into("address", text)
        self.act(self.ui.enter())

    def history_urls(self) -> list[str]:
        return [h["url"] for h in self.data["history"]]

    def menu(self, item: str) -> None:
        self.tap("menu")
        self.act_all(self.ui.scroll_to(item, scroll="menu_sheet_scroll"))
        self.act(self.ui.tap(item))

    def act_all(self, actions: Any) -> None:
        for action in actions:
            self.act(action)


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("浏览器")
    return driver


def _page(world: World, url: str) -> dict[str, Any]:
    return next(p for p in world.content(BROWSER)["pages"] if p["url"] == url)


def test_the_home_page_shows_tiles_and_hot_searches(user: Driver, world: World) -> None:
    content = world.content(BROWSER)
    assert user.visible("tile_0")
    assert user.visible("hot_0")
    user.tap("tile_2")
    assert user.text("page_title") == _page(world, content["shortcuts"][2])["title"]
    user.tap("nav_home")
    user.tap("hot_0")
    assert user.text("result_count").startswith(f"“{content['hot'][0]}”的搜索结果")


def test_typing_an_address_opens_the_page_and_records_it(user: Driver, world: World) -> None:
    user.go("gov.pw/shebao/")
    assert user.text("page_title") == _page(world, SHEBAO)["title"]
    assert user.history_urls()[0] == SHEBAO
    user.scroll_to("para_1_0")
    assert user.text("para_1_0") == "社保服务热线：010-65128866"


def test_an_unknown_address_shows_an_error_and_no_history(user: Driver) -> None:
    before = list(user.history_urls())
    user.go("https://nowhere.pw/x")
    assert user.text("error_title") == "无法访问此网站"
    assert not user.visible("bookmark")
    assert user.history_urls() == before


def test_an_empty_address_is_refused(user: Driver) -> None:
    user.tap("address")
    user.refuse("go")


def test_words_search_the_pages(user: Driver, world: World) -> None:
    user.go("社保 热线")
    page = _page(world, SHEBAO)
    assert user.visible(f"result_{page['id']}")
    user.tap(f"result_{page['id']}")
    assert user.text("page_title") == page["title"]
    user.go("不存在的东西")
    assert user.text("result_count") == "“不存在的东西”的搜索结果：共0条"


def test_back_and_forward_move_within_the_tab(user: Driver, world: World) -> None:
    user.refuse("nav_back")
    user.go(SUBWAY)
    user.go(SHEBAO)
    user.tap("nav_back")
    assert user.text("page_title") == _page(world, SUBWAY)["title"]
    user.tap("nav_forward")
    assert user.text("page_title") == _page(world, SHEBAO)["title"]
    user.refuse("nav_forward")
    linked = _page(world, _page(world, SUBWAY)["links"][0])
    user.tap("nav_back")
    user.tap(f"link_{linked['id']}")
    assert user.text("page_title") == linked["title"]
    user.refuse("nav_forward")  # a new visit drops the forward pages


def test_tabs_new_switch_close_and_close_all(user: Driver) -> None:
    user.go(SUBWAY)
    user.tap("tabs")
    user.refuse("close_tab_0")  # the last tab stays
    user.tap("new_tab")
    assert len(user.data["tabs"]) == 2
    assert user.data["active"] != "tab1"
    user.go(SHEBAO)
    user.tap("tabs")
    user.tap("tab_0")
    assert user.data["active"] == "tab1"
    user.tap("tabs")
    user.tap("close_tab_1")
    assert [t["id"] for t in user.data["tabs"]] == ["tab1"]
    user.tap("new_tab")
    user.tap("tabs")
    user.tap("close_all")
    user.tap("cancel")
    assert len(user.data["tabs"]) == 2
    user.tap("close_all")
    user.tap("confirm_close_all")
    [tab] = user.data["tabs"]
    assert tab["stack"] == [""]
    assert not tab["incognito"]


def test_an_incognito_tab_keeps_no_history(user: Driver) -> None:
    before = list(user.history_urls())
    user.menu("menu_incognito")
    user.go(SHEBAO)
    assert user.text("toolbar_title").startswith("无痕")
    assert user.history_urls() == before
    assert any(t["incognito"] for t in user.data["tabs"])


def test_bookmarks_toggle_list_and_remove(user: Driver, world: World) -> None:
    user.go(SHEBAO)
    user.tap("bookmark")
    mark = user.data["bookmarks"][-1]
    assert mark["url"] == SHEBAO
    user.tap("bookmark")
    assert all(b["url"] != SHEBAO for b in user.data["bookmarks"])
    user.tap("bookmark")
    mark = user.data["bookmarks"][-1]
    user.go(SUBWAY)
    user.menu("menu_bookmarks")
    user.tap(f"bm_{mark['id']}")
    assert user.text("page_title") == _page(world, SHEBAO)["title"]
    user.menu("menu_bookmarks")
    user.tap(f"bm_delete_{mark['id']}")
    assert all(b["id"] != mark["id"] for b in user.data["bookmarks"])


def test_history_delete_one_and_clear_all_confirmed(user: Driver) -> None:
    entry = user.data["history"][1]
    user.menu("menu_history")
    user.tap(f"hist_delete_{entry['id']}")
    assert all(h["id"] != entry["id"] for h in user.data["history"])
    user.tap("clear_history")
    user.tap("cancel")
    assert user.data["history"]
    user.tap("clear_history")
    user.tap("confirm_clear")
    assert user.data["history"] == []
    assert not user.visible("clear_history")


def test_find_in_page_counts_matches(user: Driver, world: World) -> None:
    user.go(SHEBAO)
    user.menu("menu_find")
    user.type_into("find", "社保")
    expected = count_matches(_page(world, SHEBAO), "社保")
    assert expected >= 2
    assert user.text("find_count") == f"共{expected}处匹配"
    user.tap("find_close")
    assert not user.visible("find_count")


def test_copying_and_sharing_the_link(user: Driver, world: World) -> None:
    user.tap("menu")
    user.act_all(user.ui.scroll_to("menu_copy", scroll="menu_sheet_scroll"))
    user.refuse("menu_copy")  # the home page has no link
    user.back()
    user.go(SHEBAO)
    user.menu("menu_copy")
    assert user.device.state["os"]["clipboard"] == SHEBAO
    user.tap("share")
    user.act(user.ui.tap("com.android.systemui:id/share_notes"))
    user.act(user.ui.tap("com.pw.notes:id/save"))
    [note] = [n for n in user.app_state("com.pw.notes")["notes"] if SHEBAO in n["body"]]
    assert _page(world, SHEBAO)["title"] in note["body"]


def test_downloads_need_confirming_and_are_listed(user: Driver) -> None:
    user.go(SHEBAO)
    count = len(user.data["downloads"])
    user.tap("file_f0")
    user.tap("cancel")
    assert len(user.data["downloads"]) == count
    user.tap("file_f0")
    user.tap("confirm_download")
    newest = user.data["downloads"][0]
    assert (newest["name"], newest["size"]) == ("社保卡申领表.docx", "48KB")
    user.tap("file_f0")
    user.refuse("confirm_download")  # already downloaded
    user.back()
    user.menu("menu_downloads")
    assert user.visible(f"dl_{newest['id']}")
    user.tap(f"dl_delete_{newest['id']}")
    assert len(user.data["downloads"]) == count


def test_text_size(user: Driver) -> None:
    user.menu("menu_size")
    user.refuse("size_normal")
    user.tap("size_large")
    assert user.data["text_size"] == "large"


def test_direct_tools_use_the_same_handlers(user: Driver, world: World) -> None:
    note = user.act(CallTool(name="search_web", arguments={"query": "社保 热线"}))
    assert SHEBAO in note
    note = user.act(CallTool(name="open_url", arguments={"url": "gov.pw/shebao"}))
    assert note == f"opened {_page(world, SHEBAO)['title']}"
    assert user.text("page_title") == _page(world, SHEBAO)["title"]
    assert user.act(CallTool(name="bookmark_page", arguments={})) == "bookmarked"
    assert user.data["bookmarks"][-1]["url"] == SHEBAO
    assert user.act(CallTool(name="open_url", arguments={"url": "x.pw"})) == (
        "cannot reach https://x.pw"
    )
