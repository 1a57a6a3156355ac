"""头条新闻 (News) through the action interface: the channel feed and 不感兴趣, 频道管理,
search, the article page (font size, 收藏, like, comments and their validation, polls voted
once, follow and the unfollow confirmation, share), the 热榜, 历史 (clear behind a
confirmation), 收藏 and the 推送 toggles."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.news.base import MAX_COMMENT, NEWS
from phonebuddy.phoneworld.apps.news.content import heat_label
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World


class Driver(testing.Driver):
    scroll_first = True

    @property
    def data(self) -> dict[str, Any]:
        return self.app_state(NEWS)  # type: ignore[no-any-return]

    def ids_of(self, key: str) -> list[str]:
        return [x["id"] for x in self.data[key]]


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("头条新闻")
    return driver


def _articles(world: World, **has: bool) -> list[Any]:
    return [a for a in world.content(NEWS)["articles"]
            if all((a[k] is not None) == want for k, want in has.items())]  # fmt: skip


def _open(user: Driver, article: Any) -> None:
    user.tap("open_search")
    user.type_into("query", article["title"])
    user.tap(f"art_{article['id']}")


def test_channel_tabs_filter_and_dislike_hides(user: Driver, world: World) -> None:
    user.tap("tab_sports")
    sports = [a for a in _articles(world) if a["channel"] == "sports"]
    newest = max(sports, key=lambda a: a["time"])
    assert user.visible(f"art_{newest['id']}")
    shown = {i.removeprefix("art_") for i in user.ids() if i.startswith("art_")}
    assert shown
    assert shown <= {a["id"] for a in sports}
    user.tap(f"dislike_{newest['id']}")
    assert user.ids_of("hidden") == [newest["id"]]
    assert not user.visible(f"art_{newest['id']}")


def test_channel_management_adds_and_removes(user: Driver) -> None:
    user.tap("manage_channels")
    user.tap("add_ch_health")
    assert "health" in user.ids_of("channels")
    user.tap("remove_ch_money")
    assert "money" not in user.ids_of("channels")
    assert "remove_ch_rec" not in user.ids()  # 推荐 cannot be removed
    user.back()
    user.tap("tab_health")
    assert user.visible("tab_health")


def test_search_finds_titles_and_says_when_nothing(user: Driver, world: World) -> None:
    article = _articles(world)[7]
    user.tap("open_search")
    user.type_into("query", article["title"])
    assert {i for i in user.ids() if i.startswith("art_")} == {f"art_{article['id']}"}
    user.type_into("query", "不存在")
    assert user.visible(text=f"没有找到“{article['title']}不存在”相关的新闻")


def test_article_page_saves_likes_and_sizes(user: Driver, world: World) -> None:
    article = next(a for a in _articles(world) if a["id"] not in world.content(NEWS)["saved"])
    _open(user, article)
    assert user.text("title") == article["title"]
    assert user.text("stats").startswith(f"阅读 {article['reads']}｜")
    assert user.text("para_0") == article["paragraphs"][0]
    assert user.data["history"][-1]["id"] == article["id"]
    user.tap("favorite")
    assert article["id"] in user.ids_of("saved")
    user.tap("like")
    assert user.ids_of("likes") == [article["id"]]
    user.tap("font_large")
    assert user.data["font"] == "large"
    user.refuse("font_large")
    user.tap("favorite")
    assert article["id"] not in user.ids_of("saved")


def test_comments_are_validated(user: Driver, world: World) -> None:
    _open(user, _articles(world)[3])
    user.refuse("send_comment")
    user.type_into("comment", "长" * (MAX_COMMENT + 1))
    user.refuse("send_comment")
    assert user.data["comments"] == []
    user.clear("comment")
    user.type_into("comment", "写得好")
    user.tap("send_comment")
    [comment] = user.data["comments"]
    assert (comment["article"], comment["text"]) == (_articles(world)[3]["id"], "写得好")


def test_a_poll_takes_one_vote(user: Driver, world: World) -> None:
    article = _articles(world, poll=True)[0]
    _open(user, article)
    user.tap("vote_1")
    assert [(v["id"], v["option"]) for v in user.data["votes"]] == [(article["id"], 1)]
    assert user.text("result_1").startswith("✓ ")
    assert not user.visible("vote_0")


def test_follow_and_unfollow_behind_a_confirmation(user: Driver, world: World) -> None:
    followed = set(world.content(NEWS)["followed"])
    article = next(a for a in _articles(world) if a["source"] not in followed)
    _open(user, article)
    user.tap("follow")
    assert article["source"] in user.ids_of("following")
    user.tap("follow")  # now 已关注: asks first
    user.tap("cancel")
    assert article["source"] in user.ids_of("following")
    user.tap("follow")
    user.tap("confirm_unfollow")
    assert article["source"] not in user.ids_of("following")


def test_history_is_cleared_only_after_confirming(user: Driver) -> None:
    user.tap("open_me")
    user.tap("open_history")
    user.tap("clear_history")
    user.tap("cancel")
    assert user.data["history"]
    user.tap("clear_history")
    user.tap("confirm_clear")
    assert user.data["history"] == []
    assert user.visible(text="暂无历史记录")


def test_hot_list_and_push_settings(user: Driver, world: World) -> None:
    user.tap("open_hot")
    top = world.content(NEWS)["hot"][0]
    assert f"{heat_label(top['heat'])}热度" in user.ui.texts_in("hot_1")
    user.back()
    user.tap("open_me")
    user.tap("open_push")
    before = dict(user.data["push"])
    user.tap("push_night")
    assert user.data["push"]["night"] is not before["night"]


def test_sharing_opens_the_share_sheet(user: Driver, world: World) -> None:
    _open(user, _articles(world)[0])
    user.tap("share")
    assert user.visible("com.android.systemui:id/share_messenger")
