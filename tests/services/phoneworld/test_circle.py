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
