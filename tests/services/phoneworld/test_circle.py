"""The Circle app (生活圈) through the action interface: tabs and search, a post's page with
like, collect, comment (empty refused), follow and unfollow with a confirm dialog."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.circle.app import AUTHORS, CIRCLE
from phonebuddy.phoneworld.device import Device


class Driver(testing.Driver):
    scroll_first = True

    @property
    def state(self) -> dict[str, Any]:
        return self.app_state(CIRCLE)  # type: ignore[no-any-return]

    def post(self, post_id: str) -> dict[str, Any]:
        return next(p for p in self.state["posts"] if p["id"] == post_id)

    def open_post(self, post_id: str) -> None:
        self.scroll_to(f"post_{post_id}")
        self.tap(f"post_{post_id}")


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("生活圈")
    return driver


def shown(user: Driver) -> set[str]:
    return {i.removeprefix("post_") for i in user.ids() if i.startswith("post_")}


def test_search_and_following_tab_filter_the_feed(user: Driver) -> None:
    user.type_into("search", "美食")
    assert shown(user)
    assert all(user.post(p)["tag"] == "美食" for p in shown(user))
    user.type_into("search", "不存在的内容")
    assert not shown(user)


def test_like_collect_and_comment(user: Driver) -> None:
    before = dict(user.post("c03"))
    user.open_post("c03")
    user.tap("like")
    user.tap("collect")
    post = user.post("c03")
    assert post["liked"]
    assert post["likes"] == before["likes"] + 1
    assert post["collected"]
    assert post["collects"] == before["collects"] + 1
    user.scroll_to("comment")
    user.type_into("comment", "写得真好")
    user.scroll_to("send_comment")
    user.tap("send_comment")
    assert user.post("c03")["comments"] == ["写得真好"]


def test_empty_comment_is_refused(user: Driver) -> None:
    user.open_post("c01")
    user.scroll_to("send_comment")
    assert user.refuse("send_comment")
    assert user.post("c01")["comments"] == []


def test_follow_then_unfollow_with_confirm(user: Driver) -> None:
    post_id = next(p["id"] for p in user.state["posts"] if p["author"] not in AUTHORS[:2])
    author = user.post(post_id)["author"]
    user.open_post(post_id)
    user.tap("follow")
    assert author in user.state["following"]
    user.tap("follow")
    user.tap("confirm_unfollow")
    assert author not in user.state["following"]


def test_share_link_and_too_long_comment(user: Driver) -> None:
    user.open_post("c02")
    user.scroll_to("link")
    assert user.text("link") == "https://circle.example/p/c02"
    user.scroll_to("comment")
    user.type_into("comment", "好" * 101)
    user.scroll_to("send_comment")
    assert user.refuse("send_comment")
    assert user.post("c02")["comments"] == []


def write_post(user: Driver, title: str, body: str, tag: str | None) -> None:
    user.tap("tab_me")
    user.tap("compose")
    if title:
        user.type_into("title", title)
    if body:
        user.type_into("body", body)
    user.back()  # the keyboard
    if tag is not None:
        user.tap(f"tag_{tag}")


def test_publishing_refuses_a_missing_title_body_or_topic_then_posts(user: Driver) -> None:
    before = len(user.state["posts"])
    write_post(user, "", "正文", "旅行")
    assert user.refuse("publish")
    user.back()
    write_post(user, "标" * 21, "正文", "旅行")
    assert user.refuse("publish")
    user.back()
    write_post(user, "周末露营", "带了帐篷和炉子", None)
    assert user.refuse("publish")
    user.tap("tag_旅行")
    user.tap("publish")
    mine = user.state["posts"][0]
    assert len(user.state["posts"]) == before + 1
    assert (mine["title"], mine["body"], mine["tag"], mine["author"], mine["mine"]) == (
        "周末露营",
        "带了帐篷和炉子",
        "旅行",
        "我",
        True,
    )
    assert user.visible(f"mine_{mine['id']}")  # listed on 我


def test_own_post_is_deleted_only_after_confirming(user: Driver) -> None:
    write_post(user, "阳台花园", "种了薄荷", "家居")
    user.tap("publish")
    post_id = user.state["posts"][0]["id"]
    user.tap(f"mine_{post_id}")
    assert not user.visible("follow")  # one's own post: no follow button
    user.tap("delete_post")
    user.tap("cancel")
    assert any(p["id"] == post_id for p in user.state["posts"])
    user.tap("delete_post")
    user.tap("confirm_delete")
    assert all(p["id"] != post_id for p in user.state["posts"])


def test_boards_are_made_once_per_name_and_adding_a_post_collects_it(user: Driver) -> None:
    user.tap("tab_me")
    user.scroll_to("new_board")
    user.tap("new_board")
    user.type_into("board_name", "周末去哪")
    user.tap("create_board")
    board = user.state["boards"][-1]
    assert board["name"] == "周末去哪"
    user.scroll_to("new_board")
    user.tap("new_board")
    user.type_into("board_name", "周末去哪")
    assert user.refuse("create_board")  # the name is taken
    user.back()
    user.back()
    user.tap("tab_discover")
    collects = user.post("c04")["collects"]
    user.open_post("c04")
    user.tap("to_board")
    user.tap(f"pick_{board['id']}")
    assert user.state["boards"][-1]["post_ids"] == ["c04"]
    assert user.post("c04")["collected"]
    assert user.post("c04")["collects"] == collects + 1
    user.tap("to_board")
    assert user.refuse(f"pick_{board['id']}")  # already in that board


def test_an_author_page_lists_their_posts(user: Driver) -> None:
    user.open_post("c01")
    author = user.post("c01")["author"]
    user.tap("author")
    theirs = {p["id"] for p in user.state["posts"] if p["author"] == author}
    assert user.text("profile_name") == author
    assert f"笔记 {len(theirs)}" in user.text("profile_stats")
    assert shown(user) <= theirs
    assert "c01" in shown(user)
