"""追剧 (Long Video) through the action interface: search by title and actor, channel filters
and sorting, a title's page (追剧, rating, episode pages of 30), the player (next episode,
speed, 弹幕, 清晰度), VIP-only content refused until a plan is paid through the wallet,
downloads and watch history with their confirmations, and what the app refuses."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.longvideo.base import LONGVIDEO, PLANS
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World

PAY_CONFIRM = "com.pw.wallet:id/pay_confirm"


class Driver(testing.Driver):
    scroll_first = True

    @property
    def data(self) -> dict[str, Any]:
        return self.app_state(LONGVIDEO)  # type: ignore[no-any-return]

    def shown(self, prefix: str) -> set[str]:
        return {i.removeprefix(prefix) for i in self.ids() if i.startswith(prefix)}

    def open_title(self, t: Any) -> None:
        self.tap("search")
        self.type_into("query", t["title"])
        self.tap(f"result_{t['id']}")


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("追剧")
    return driver


def _titles(world: World) -> list[Any]:
    return list(world.content(LONGVIDEO)["titles"])


def _with_vip(world: World) -> Any:
    return next(
        t
        for t in _titles(world)
        if t["kind"] != "电影" and any(e["vip"] for e in t["episodes"][: t["aired"]])
    )


def _first_vip(t: Any) -> int:
    return next(e["n"] for e in t["episodes"][: t["aired"]] if e["vip"])


def test_search_by_title_and_by_actor(user: Driver, world: World) -> None:
    t = _titles(world)[3]
    user.tap("search")
    user.type_into("query", t["title"])
    assert t["id"] in user.shown("result_")
    user.tap("clear_query")
    actor = t["cast"][0]
    user.type_into("query", actor)
    expected = {x["id"] for x in _titles(world) if actor in x["cast"]}
    assert user.shown("result_") == expected
    user.tap("clear_query")
    user.type_into("query", "不存在的剧")
    assert user.shown("result_") == set()
    assert user.visible(text="没有找到“不存在的剧”相关内容")


def test_channel_filters_and_sorting(user: Driver, world: World) -> None:
    user.tap("tab_tv")
    tv = [t for t in _titles(world) if t["kind"] == "电视剧"]
    genre = tv[0]["genre"]
    user.tap(f"genre_{genre}")
    assert user.shown("title_") <= {t["id"] for t in tv if t["genre"] == genre}
    user.tap("sort_latest")
    user.tap("tab_movie")  # a new channel starts without filters
    assert user.shown("title_") <= {t["id"] for t in _titles(world) if t["kind"] == "电影"}
    assert user.ui.find("genre_all").selected


def test_follow_and_unfollow(user: Driver, world: World) -> None:
    followed = {f["id"] for f in user.data["follows"]}
    t = next(t for t in _titles(world) if t["id"] not in followed)
    user.open_title(t)
    user.tap("follow")
    assert user.data["follows"][0]["id"] == t["id"]
    user.back()
    user.back()
    user.tap("tab_follow")
    user.tap(f"unfollow_{t['id']}")
    assert t["id"] not in {f["id"] for f in user.data["follows"]}


def test_rating_a_title_and_the_same_rating_again_is_refused(user: Driver, world: World) -> None:
    t = _titles(world)[0]
    user.open_title(t)
    user.tap("rate")
    user.tap("star_4")
    assert user.data["ratings"] == [{"id": t["id"], "stars": 4}]
    assert user.text("my_rating") == "我的评分：4星"
    user.tap("rate")
    assert user.refuse("star_4")
    user.tap("star_2")
    assert user.data["ratings"] == [{"id": t["id"], "stars": 2}]


def test_player_next_episode_speed_danmaku_and_vip_refusals(user: Driver, world: World) -> None:
    t = _with_vip(world)
    user.open_title(t)
    user.tap("ep_1")
    assert user.text("now_playing") == "正在播放：第1集"
    user.tap("next_episode")
    assert user.text("now_playing") == "正在播放：第2集"
    [entry] = [h for h in user.data["history"] if h["id"] == t["id"]]
    assert (entry["episode"], entry["position"]) == (2, 0)
    user.tap("speed_150")
    assert user.data["settings"]["speed"] == 1.5
    assert user.refuse("speed_150")
    user.tap("danmaku")
    assert user.data["settings"]["danmaku"] is False
    before = [dict(h) for h in user.data["history"]]
    user.tap("q_1080P")  # VIP-only: a prompt, no change
    assert user.visible("vip_join")
    assert user.data["settings"]["quality"] == "720P"
    user.tap("vip_cancel")
    user.back()
    user.tap(f"ep_{_first_vip(t)}")
    assert user.visible("vip_join")
    assert user.data["history"] == before


def test_vip_plan_paid_in_the_wallet_unlocks_vip_episodes(user: Driver, world: World) -> None:
    t = _with_vip(world)
    user.tap("tab_me")
    user.tap("open_vip")
    assert not user.visible("buy_vip")
    user.tap("plan_quarter")
    user.tap("buy_vip")
    user.tap(PAY_CONFIRM)
    [order] = user.data["orders"]
    assert (order["plan"], order["cents"]) == ("quarter", PLANS["quarter"][1])
    assert user.data["vip_until"] > user.device.state["os"]["clock"] + 80 * 86400
    assert user.text("vip_status").startswith("VIP会员")
    user.back()
    user.open_title(t)
    n = _first_vip(t)
    user.tap(f"ep_{n}")
    assert user.text("now_playing") == f"正在播放：第{n}集"
    user.tap("q_1080P")
    assert user.data["settings"]["quality"] == "1080P"


def test_episode_pages_of_thirty(user: Driver, world: World) -> None:
    t = next(t for t in _titles(world) if t["aired"] > 30)
    user.open_title(t)
    assert "31" not in user.shown("ep_")
    assert user.visible("page_1")
    user.tap("page_1")
    user.scroll_to("ep_31")
    assert "1" not in user.shown("ep_")


def test_download_and_delete_with_confirmation(user: Driver, world: World) -> None:
    done = {d["id"] for d in user.data["downloads"]}
    t = next(
        t for t in _titles(world) if f"{t['id']}-1" not in done and not t["episodes"][0]["vip"]
    )
    user.open_title(t)
    user.tap("download")
    user.tap("dq_480P")
    user.tap("ep_1")
    assert user.data["downloads"][-1] == {"id": f"{t['id']}-1", "title": t["id"], "episode": 1,
                                          "quality": "480P"}  # fmt: skip
    assert user.refuse("ep_1")  # already downloaded
    user.back()
    user.back()
    user.tap("tab_me")
    user.tap("open_downloads")
    user.tap(f"del_dl_{t['id']}-1")
    user.tap("cancel")
    assert any(d["id"] == f"{t['id']}-1" for d in user.data["downloads"])
    user.tap(f"del_dl_{t['id']}-1")
    user.tap("confirm_delete")
    assert all(d["id"] != f"{t['id']}-1" for d in user.data["downloads"])


def test_history_delete_one_then_clear_with_confirmation(user: Driver) -> None:
    first = user.data["history"][0]["id"]
    user.tap("tab_me")
    user.tap("open_history")
    user.tap(f"del_hist_{first}")
    assert first not in {h["id"] for h in user.data["history"]}
    left = len(user.data["history"])
    user.tap("clear_history")
    user.tap("cancel")
    assert len(user.data["history"]) == left
    user.tap("clear_history")
    user.tap("confirm_clear")
    assert user.data["history"] == []
    assert user.visible(text="暂无观看历史")


def test_share_opens_the_system_share_sheet(user: Driver, world: World) -> None:
    user.open_title(_titles(world)[0])
    user.tap("share")
    assert user.visible("com.android.systemui:id/share_messenger")
    assert user.visible("com.android.systemui:id/share_notes")
