"""The 短视频 app (Shorts) through the action interface: the paged feed, a video's page (like,
collect, comment with empty/too-long refused, share link), search with sort, a creator's profile
with follow/unfollow (confirmed), and 我 with its confirmed clear of the watch history."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.video.app import VIDEO
from phonebuddy.phoneworld.device import Device
from phonebuddy.protocol import Direction, Swipe


class Driver(testing.Driver):
    scroll_first = True

    @property
    def state(self) -> dict[str, Any]:
        return self.app_state(VIDEO)  # type: ignore[no-any-return]

    @property
    def content(self) -> Any:
        return self.device.world.content(VIDEO)

    def video(self, video_id: str) -> dict[str, Any]:
        return next(v for v in self.state["videos"] if v["id"] == video_id)

    def search(self, query: str, tab: str = "videos") -> None:
        self.tap("search")
        if tab != "videos":
            self.tap(f"tab_{tab}")
        self.type_into("query", query)

    def open_video(self, video: Any) -> None:
        self.search(video["caption"])
        self.tap(f"video_{video['id']}")


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("短视频")
    return driver


def shown(user: Driver, prefix: str) -> list[str]:
    return [i.removeprefix(prefix) for i in user.ids() if i.startswith(prefix)]


def test_feed_pages_up_and_down_and_records_history(user: Driver) -> None:
    feed = user.content["feed"]
    first = user.video(feed[0])
    assert user.text("caption") == first["caption"]
    assert user.text("position") == f"1/{len(feed)}"
    assert user.refuse("prev")
    user.tap("next")
    assert user.text("caption") == user.video(feed[1])["caption"]
    assert user.state["history"][0] == feed[1]
    user.tap("prev")
    assert user.text("caption") == first["caption"]


def swipe_until_caption_changes(user: Driver, direction: Direction) -> str:
    caption = user.text("caption")
    for _ in range(6):
        user.act(Swipe(direction=direction))
        if user.text("caption") != caption:
            return user.text("caption")
    raise AssertionError(f"six swipes {direction.value} did not change the video")


def test_the_feed_is_a_swipe_pager_up_down_and_sideways_between_tabs(user: Driver) -> None:
    feed = user.content["feed"]
    assert swipe_until_caption_changes(user, Direction.UP) == user.video(feed[1])["caption"]
    assert user.state["history"][0] == feed[1]
    assert swipe_until_caption_changes(user, Direction.DOWN) == user.video(feed[0])["caption"]
    assert user.device.act(Swipe(direction=Direction.RIGHT)).effect == "no_op"  # no tab left
    user.act(Swipe(direction=Direction.LEFT))
    assert user.ui.node("tab_fol").selected
    assert user.device.act(Swipe(direction=Direction.LEFT)).effect == "no_op"
    user.act(Swipe(direction=Direction.RIGHT))
    assert user.ui.node("tab_rec").selected
    while user.text("position") != f"{len(feed)}/{len(feed)}":
        user.tap("next")
    for _ in range(6):  # scroll to the end of the last video's page: then nothing pages on
        if user.device.act(Swipe(direction=Direction.UP)).effect == "no_op":
            break
    else:
        raise AssertionError("swiping up on the last video never stopped")


def test_following_feed_shows_followed_creators_newest_first(user: Driver) -> None:
    user.tap("tab_fol")
    mine = [v for v in user.state["videos"] if v["creator"] in user.state["following"]]
    newest = min(mine, key=lambda v: v["ago"])
    assert user.text("caption") == newest["caption"]


def test_like_collect_and_comment_on_a_video(user: Driver) -> None:
    video = dict(user.state["videos"][5])
    user.open_video(video)
    user.tap("like")
    user.tap("collect")
    after = user.video(video["id"])
    assert after["liked"]
    assert after["likes"] == video["likes"] + 1
    assert after["collected"]
    assert after["collects"] == video["collects"] + 1
    user.tap("like")
    assert not user.video(video["id"])["liked"]
    user.type_into("comment", "拍得真好")
    user.tap("send_comment")
    after = user.video(video["id"])
    assert after["my_comments"] == ["拍得真好"]
    assert after["comments"] == video["comments"] + 1
    assert user.text("my_comment_0") == "我：拍得真好"


def test_empty_and_too_long_comments_are_refused(user: Driver) -> None:
    video = user.state["videos"][0]
    user.open_video(video)
    user.scroll_to("send_comment")
    assert user.refuse("send_comment")
    user.type_into("comment", "好" * 101)
    user.scroll_to("send_comment")
    assert user.refuse("send_comment")
    assert user.video(video["id"])["my_comments"] == []


def test_share_copies_the_link(user: Driver) -> None:
    video = user.state["videos"][3]
    user.open_video(video)
    assert user.text("link") == f"v.pw.example/{video['id']}"
    user.tap("share")
    user.tap("copy_link")
    assert user.device.state["os"]["clipboard"] == f"v.pw.example/{video['id']}"


def test_search_sorts_by_likes_or_date_and_finds_users(user: Driver) -> None:
    user.search("美食")
    hot = shown_in_order(user, "video_")
    assert len(hot) >= 4
    likes = [user.video(i)["likes"] for i in hot[:4]]
    assert likes == sorted(likes, reverse=True)
    user.tap("sort_new")
    new = shown_in_order(user, "video_")
    days = [user.video(i)["ago"] for i in new[:4]]
    assert days == sorted(days)
    user.tap("tab_users")
    assert len(shown(user, "user_")) == 3
    user.type_into("query", "不存在的博主")
    assert user.visible(text="没有找到与“美食不存在的博主”相关的内容")


def shown_in_order(user: Driver, prefix: str) -> list[str]:
    nodes = [n for n in user.device.ui_tree().walk() if f":id/{prefix}" in n.resource_id]
    nodes.sort(key=lambda n: n.bounds.top)
    return [n.resource_id.rpartition(f":id/{prefix}")[2] for n in nodes]


def test_follow_and_unfollow_with_confirm_on_the_profile(user: Driver) -> None:
    creator = next(c for c in user.content["creators"]
                   if c["id"] not in user.state["following"])  # fmt: skip
    user.search(creator["name"], tab="users")
    user.tap(f"user_{creator['id']}")
    assert user.text("followers") == f"粉丝 {creator['followers']}"
    user.tap("follow")
    assert creator["id"] in user.state["following"]
    assert user.text("followers") == f"粉丝 {creator['followers'] + 1}"
    user.tap("follow")
    user.tap("cancel")
    assert creator["id"] in user.state["following"]
    user.tap("follow")
    user.tap("confirm_unfollow")
    assert creator["id"] not in user.state["following"]


def test_me_lists_likes_and_clears_history_after_confirm(user: Driver) -> None:
    video = user.state["videos"][2]
    user.open_video(video)
    user.tap("like")
    user.back()
    user.back()
    user.tap("me")
    assert shown(user, "likes_") == [video["id"]]
    user.tap("tab_collects")
    assert user.visible(text="还没有收藏的视频")
    user.tap("tab_history")
    user.tap("clear_history")
    user.tap("cancel")
    assert user.state["history"]
    user.tap("clear_history")
    user.tap("confirm_clear")
    assert user.state["history"] == []
    assert user.visible(text="暂无观看历史")
