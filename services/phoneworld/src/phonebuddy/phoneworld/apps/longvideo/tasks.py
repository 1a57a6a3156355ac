"""Task templates of 追剧: the single-app and question ones here, the cross-app ones imported
from `cross`; `TEMPLATES` lists them all."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.longvideo.base import QUALITIES, SPEEDS, speed_id, speed_label
from phonebuddy.phoneworld.apps.longvideo.browse import PAGE
from phonebuddy.phoneworld.apps.longvideo.common import (
    DOWNLOADS,
    FOLLOWS,
    HISTORY,
    SETTINGS,
    LongVideoTemplate,
    aired,
    followed,
    history,
    not_followed,
    open_home,
    open_title,
    plain_name,
    played,
    series,
    tap_episode,
    title_by_id,
    title_params,
    titles,
)
from phonebuddy.phoneworld.apps.longvideo.cross import CROSS_TEMPLATES
from phonebuddy.phoneworld.apps.longvideo.questions import QUESTIONS
from phonebuddy.phoneworld.apps.longvideo.vip import VIP_TEMPLATES
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Instruction

FREE_QUALITIES = [key for key, _ in QUALITIES if key != "1080P"]


class FollowTitle(LongVideoTemplate):
    id = "longvideo.follow"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return title_params(pick(rng, not_followed(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"在追剧App里把《{t}》加入追剧", f"帮我追《{t}》，加到我的追剧列表",
                f"搜一下《{t}》，点追剧"],
            en=[f"In Long Video, add '{t}' to my 追剧 list", f"Please follow '{t}' in Long Video",
                f"Search for '{t}' and add it to the shows I follow"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return followed(diff, params["title_id"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_title(ui, params["title"], params["title_id"])
        yield ui.tap("follow")


class RateTitle(LongVideoTemplate):
    id = "longvideo.rate"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**title_params(pick(rng, titles(world))), "stars": rng.randrange(1, 6)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, s = params["title"], params["stars"]
        return phrased(
            zh=[f"在追剧里给《{t}》打{s}星", f"帮我给《{t}》评个分，{s}颗星",
                f"《{t}》我给{s}星，去追剧里评一下"],
            en=[f"In Long Video, rate '{t}' {s} stars", f"Please give '{t}' a {s}-star rating",
                f"I'd give '{t}' {s} stars: rate it in Long Video"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        rated, problems = one_added(diff, "apps/com.pw.longvideo/ratings", "rating")
        if rated is not None and (rated["id"], rated["stars"]) != (
            params["title_id"],
            params["stars"],
        ):
            problems.append(f"rated {rated['id']} {rated['stars']} stars, expected "
                            f"{params['title_id']} {params['stars']}")  # fmt: skip
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_title(ui, params["title"], params["title_id"])
        yield ui.tap("rate")
        yield ui.tap(f"star_{params['stars']}")


class PlayEpisode(LongVideoTemplate):
    id = "longvideo.play_episode"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        seen = history(world)
        t = pick(rng, [t for t in series(world) if len(aired(t, vip=False)) > 2])
        current = seen[t["id"]]["episode"] if t["id"] in seen else 0
        episode = pick(rng, [e["n"] for e in aired(t, vip=False) if e["n"] != current])
        return {**title_params(t), "episode": episode}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, n = params["title"], params["episode"]
        return phrased(
            zh=[f"在追剧里播放《{t}》第{n}集", f"帮我打开《{t}》的第{n}集看看",
                f"我想看《{t}》第{n}集，放一下"],
            en=[f"In Long Video, play episode {n} of '{t}'", f"Open episode {n} of '{t}' for me",
                f"I want to watch '{t}' episode {n}: start it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return played(diff, params["title_id"], params["episode"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_title(ui, params["title"], params["title_id"])
        yield from tap_episode(ui, params["episode"])


class PlayerSettings(LongVideoTemplate):
    """Continue a show from the history, then set the speed and turn 弹幕 off in the player."""

    id = "longvideo.player_settings"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        entry = pick(rng, list(history(world).values()))
        t = title_by_id(world, entry["id"])
        speed = pick(rng, [s for s in SPEEDS if s != 1.0])
        return {**title_params(t), "episode": entry["episode"], "speed": speed}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, s = params["title"], speed_label(params["speed"])
        return phrased(
            zh=[f"从观看历史继续看《{t}》，把倍速调到{s}并关掉弹幕",
                f"接着看《{t}》，播放时设成{s}倍速，弹幕关闭",
                f"打开追剧继续播放《{t}》，倍速{s}，不要弹幕"],
            en=[f"Continue '{t}' from my watch history, set the speed to {s} and turn danmaku off",
                f"Resume '{t}', play it at {s} speed with the danmaku comments off",
                f"Open Long Video and keep watching '{t}' at {s}, without danmaku"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = played(diff, params["title_id"], params["episode"])
        return problems + expect_changes(diff, SETTINGS, {
            f"{SETTINGS}/speed": params["speed"], f"{SETTINGS}/danmaku": False})  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui)
        yield ui.tap("tab_me")
        yield ui.tap("open_history")
        yield from ui.scroll_to(f"hist_{params['title_id']}")
        yield ui.tap(f"hist_{params['title_id']}")
        yield from ui.scroll_to(speed_id(params["speed"]))
        yield ui.tap(speed_id(params["speed"]))
        yield from ui.scroll_to("danmaku")
        yield ui.tap("danmaku")


class DownloadEpisode(LongVideoTemplate):
    id = "longvideo.download"
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        t = pick(rng, [t for t in titles(world) if aired(t, vip=False)])
        done = {d["id"] for d in world.content("com.pw.longvideo")["downloads"]}
        episode = pick(rng, [e["n"] for e in aired(t, vip=False)
                             if f"{t['id']}-{e['n']}" not in done])  # fmt: skip
        quality = rng.choice(FREE_QUALITIES)
        return {**title_params(t), "episode": episode, "quality": quality,
                "movie": t["kind"] == "电影"}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, q = params["title"], params["quality"]
        ep_zh = "正片" if params["movie"] else f"第{params['episode']}集"
        ep_en = "the film" if params["movie"] else f"episode {params['episode']}"
        return phrased(
            zh=[f"把《{t}》{ep_zh}缓存下来，清晰度选{q}", f"帮我下载《{t}》的{ep_zh}，要{q}的",
                f"在追剧里缓存《{t}》{ep_zh}（{q}），路上看"],
            en=[f"Download {ep_en} of '{t}' in {q}", f"Please save {ep_en} of '{t}' offline at {q}",
                f"Cache {ep_en} of '{t}' in {q} so I can watch it on the way"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        got, problems = one_added(diff, DOWNLOADS, "download")
        want = (f"{params['title_id']}-{params['episode']}", params["quality"])
        if got is not None and (got["id"], got["quality"]) != want:
            problems.append(f"downloaded {got['id']} in {got['quality']}, expected {want}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_title(ui, params["title"], params["title_id"])
        yield ui.tap("download")
        yield from ui.scroll_to(f"dq_{params['quality']}")
        if not ui.node(f"dq_{params['quality']}").selected:
            yield ui.tap(f"dq_{params['quality']}")
        yield from tap_episode(ui, params["episode"])


class DeleteDownload(LongVideoTemplate):
    id = "longvideo.delete_download"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        d = pick(rng, world.content("com.pw.longvideo")["downloads"])
        return {**title_params(title_by_id(world, d["title"])), "download_id": d["id"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"删掉我缓存的《{t}》", f"手机空间不够了，把《{t}》的缓存删除",
                f"在追剧的我的缓存里删除《{t}》"],
            en=[f"Delete my download of '{t}'", f"I'm short of space: delete the '{t}' download",
                f"In Long Video's downloads, remove '{t}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [d["id"] for d in diff.removed(DOWNLOADS)]
        return (
            []
            if removed == [params["download_id"]]
            else [f"removed {removed}, expected only {params['download_id']}"]
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui)
        yield ui.tap("tab_me")
        yield ui.tap("open_downloads")
        yield from ui.scroll_to(f"del_dl_{params['download_id']}")
        yield ui.tap(f"del_dl_{params['download_id']}")
        yield ui.tap("confirm_delete")


class ClearHistory(LongVideoTemplate):
    id = "longvideo.clear_history"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"ids": sorted(history(world))}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["把追剧的观看历史全部清空", "帮我清除追剧里所有的观看记录",
                "追剧的播放历史不想留了，全部清掉"],
            en=["Clear all of my watch history in Long Video",
                "Please wipe every viewing record in Long Video",
                "I don't want Long Video to keep my history: clear it all"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = sorted(h["id"] for h in diff.removed(HISTORY))
        return [] if removed == params["ids"] else [f"removed {removed}, expected all"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui)
        yield ui.tap("tab_me")
        yield ui.tap("open_history")
        yield from ui.scroll_to("clear_history")
        yield ui.tap("clear_history")
        yield ui.tap("confirm_clear")


class FollowFour(LongVideoTemplate):
    """Long horizon: four titles searched for and followed one after another."""

    id = "longvideo.follow_four"
    difficulty = 24

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, not_followed(world), 4)
        return {"ids": [t["id"] for t in chosen], "titles": [t["title"] for t in chosen]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh = "、".join(f"《{t}》" for t in params["titles"])
        en = ", ".join(f"'{t}'" for t in params["titles"])
        return phrased(
            zh=[f"把这四部都加入追剧：{zh}", f"帮我在追剧App里搜索{zh}，全部点追剧",
                f"追剧列表里添上这几部：{zh}"],
            en=[f"Follow these four titles in Long Video: {en}",
                f"Search Long Video for {en} and add them all to my 追剧 list",
                f"Add these to the shows I follow: {en}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = sorted(f["id"] for f in diff.added(FOLLOWS))
        return (
            []
            if added == sorted(params["ids"])
            else [f"followed {added}, expected {sorted(params['ids'])}"]
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui)
        yield ui.tap("search")
        for i, (title_id, title) in enumerate(zip(params["ids"], params["titles"], strict=True)):
            if i:
                yield ui.back()
                yield ui.tap("clear_query")
            yield from ui.type_into("query", title)
            yield ui.tap(f"result_{title_id}")
            yield ui.tap("follow")


class VipOrDownload(LongVideoTemplate):
    """Conditional: a VIP-only episode puts the show on the 追剧 list, a free one is
    downloaded in 480P."""

    id = "longvideo.vip_or_download"
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        t = pick(rng, [t for t in not_followed(world) if t["kind"] != "电影" and plain_name(t)])
        e = pick(rng, aired(t))
        return {**title_params(t), "episode": e["n"], "vip": e["vip"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, n = params["title"], params["episode"]
        return phrased(
            zh=[f"看看《{t}》第{n}集是不是VIP专享：是的话把这部剧加入追剧，不是的话把这一集以标清480P缓存下来",
                f"如果《{t}》第{n}集要VIP才能看，就先追这部剧；否则把这一集缓存成480P",
                f"《{t}》第{n}集：VIP专享就加入追剧，免费的就缓存（标清480P）"],
            en=[f"Check whether episode {n} of '{t}' is VIP-only: if so add the show to my 追剧 "
                f"list, otherwise download that episode in 480P",
                f"If episode {n} of '{t}' needs VIP, follow the show; otherwise download that "
                "episode in 480P",
                f"'{t}' episode {n}: VIP-only means follow the show, free means download it at "
                "480P"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["vip"]:
            return followed(diff, params["title_id"])
        got, problems = one_added(diff, DOWNLOADS, "download")
        want = (f"{params['title_id']}-{params['episode']}", "480P")
        if got is not None and (got["id"], got["quality"]) != want:
            problems.append(f"downloaded {got['id']} in {got['quality']}, expected {want}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        n = params["episode"]
        yield from open_title(ui, params["title"], params["title_id"])
        if n > PAGE:
            yield from ui.scroll_to("page_1")
            yield ui.tap("page_1")
        yield from ui.scroll_to(f"ep_{n}")
        if any("VIP" in text for text in ui.texts_in(f"ep_{n}")):
            yield from ui.scroll_to("follow")
            yield ui.tap("follow")
            return
        yield from ui.scroll_to("download")
        yield ui.tap("download")
        yield from ui.scroll_to("dq_480P")
        yield ui.tap("dq_480P")
        yield from tap_episode(ui, n)


TEMPLATES: tuple[TaskTemplate, ...] = (
    FollowTitle(),
    RateTitle(),
    PlayEpisode(),
    PlayerSettings(),
    DownloadEpisode(),
    DeleteDownload(),
    ClearHistory(),
    FollowFour(),
    VipOrDownload(),
    *QUESTIONS,
    *CROSS_TEMPLATES,
    *VIP_TEMPLATES,
)
