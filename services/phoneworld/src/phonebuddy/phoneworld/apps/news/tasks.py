"""Task templates of 头条新闻: the single-app ones here, the questions in `questions`, the
cross-app ones in `cross`; `TEMPLATES` lists them all."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.news.base import NEWS
from phonebuddy.phoneworld.apps.news.common import (
    APP_LABEL,
    HISTORY,
    SAVED,
    NewsTemplate,
    article_params,
    articles,
    open_article,
    unsaved,
)
from phonebuddy.phoneworld.apps.news.cross import (
    EventToCalendar,
    HotlineToContact,
    ParagraphToNote,
    RoadNoteOrSave,
    ScoreReply,
    ShareToWechat,
    SmsChainNote,
)
from phonebuddy.phoneworld.apps.news.questions import CompareReads, HotHeat, MedalSum
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI, texts
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Instruction

COMMENTS = ("说得很有道理，支持！", "希望后续能持续报道。", "这个消息太及时了，感谢分享。",
            "期待更多细节公布。")  # fmt: skip


def not_saved(world: World) -> list[Params]:
    return [article_params(a) for a in unsaved(world)]


def saved_ids(diff: StateDiff) -> list[str]:
    return sorted(s["id"] for s in diff.added(SAVED))


class SaveArticle(NewsTemplate):
    id = "news.save_article"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return pick(rng, not_saved(world))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"在头条新闻里收藏《{t}》这篇文章", f"帮我把新闻《{t}》加到收藏",
                f"搜一下《{t}》，然后收藏它"],
            en=[f"In News, save the article '{t}' to my favorites",
                f"Please add the news story '{t}' to my saved articles",
                f"Search for '{t}' and bookmark it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = saved_ids(diff)
        return [] if added == [params["article_id"]] else [f"saved {added}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_article(ui, params["title"], params["article_id"])
        yield from ui.scroll_to("favorite")
        yield ui.tap("favorite")


class SaveFour(NewsTemplate):
    """Long horizon: four articles searched for and saved one after another."""

    id = "news.save_four"
    difficulty = 24

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, not_saved(world), 4)
        return {"ids": [a["article_id"] for a in chosen], "titles": [a["title"] for a in chosen]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh = "、".join(f"《{t}》" for t in params["titles"])
        en = ", ".join(f"'{t}'" for t in params["titles"])
        return phrased(
            zh=[f"在头条新闻里把这四篇文章都收藏：{zh}", f"帮我收藏{zh}这几篇新闻",
                f"把{zh}全部加到我的收藏"],
            en=[f"In News, save all four of these articles: {en}",
                f"Please bookmark the news stories {en}", f"Add {en} to my saved articles"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = saved_ids(diff)
        return [] if added == sorted(params["ids"]) else [f"saved {added}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        for i, (article_id, title) in enumerate(zip(params["ids"], params["titles"], strict=True)):
            if i:  # back to the feed, so that a fresh search starts empty
                yield ui.back()
                yield ui.back()
            yield ui.tap("open_search")
            yield from ui.type_into("query", title)
            yield ui.tap(f"art_{article_id}")
            yield from ui.scroll_to("favorite")
            yield ui.tap("favorite")


class SaveMoreRead(NewsTemplate):
    """Conditional: of two articles, the one with more reads is saved."""

    id = "news.save_more_read"
    difficulty = 14
    ignorable = (HISTORY,)

    def sample(self, world: World, rng: random.Random) -> Params:
        first, second = pick(rng, unsaved(world), 2)
        return {"first": first["title"], "second": second["title"],
                "ids": [first["id"], second["id"]],
                "more": max((first, second), key=lambda a: a["reads"])["id"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["first"], params["second"]
        return phrased(
            zh=[f"如果《{a}》的阅读量比《{b}》高，就收藏《{a}》；否则收藏《{b}》",
                f"看看《{a}》和《{b}》谁的阅读量高：《{a}》高就收藏它，否则收藏《{b}》",
                f"《{a}》阅读量超过《{b}》的话收藏《{a}》，不然收藏《{b}》"],
            en=[f"If '{a}' has more reads than '{b}', save '{a}'; otherwise save '{b}'",
                f"Check which of '{a}' and '{b}' has more reads: if '{a}', save it, else save "
                f"'{b}'",
                f"Save '{a}' if '{a}' was read more than '{b}', else save '{b}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = saved_ids(diff)
        return [] if added == [params["more"]] else [f"saved {added}, expected {params['more']}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        reads = []
        titles = [params["first"], params["second"]]
        for i, (article_id, title) in enumerate(zip(params["ids"], titles, strict=True)):
            if i:
                yield ui.back()
                yield ui.back()
                yield ui.tap("open_search")
                yield from ui.type_into("query", title)
                yield ui.tap(f"art_{article_id}")
            else:
                yield from open_article(ui, title, article_id)
            reads.append(int(ui.text_of("stats").split("｜")[0].removeprefix("阅读 ")))
        if reads[0] > reads[1]:
            yield ui.back()
            yield ui.back()
            yield ui.tap("open_search")
            yield from ui.type_into("query", params["first"])
            yield ui.tap(f"art_{params['ids'][0]}")
        yield from ui.scroll_to("favorite")
        yield ui.tap("favorite")


class Comment(NewsTemplate):
    id = "news.comment"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**article_params(pick(rng, articles(world))), "text": rng.choice(COMMENTS)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, c = params["title"], params["text"]
        return phrased(
            zh=[f"在新闻《{t}》下面发表评论“{c}”", f"帮我给《{t}》这篇文章评论：“{c}”",
                f"打开《{t}》，发一条评论，内容是“{c}”"],
            en=[f"Post the comment '{c}' under the article '{t}'",
                f"Please comment '{c}' on the news story '{t}'",
                f"Open '{t}' and leave a comment saying '{c}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = diff.added(f"apps/{NEWS}/comments")
        if len(added) != 1:
            return [f"expected one comment, found {len(added)}"]
        c = added[0]
        if c["article"] != params["article_id"] or c["text"] != params["text"]:
            return [f"commented {c['text']!r} on {c['article']}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_article(ui, params["title"], params["article_id"])
        yield from ui.type_into("comment", params["text"])
        yield from ui.scroll_to("send_comment")
        yield ui.tap("send_comment")


class Vote(NewsTemplate):
    id = "news.vote"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        a = pick(rng, articles(world, poll=True))
        option = rng.randrange(len(a["poll"]["options"]))
        return {**article_params(a), "option": option, "choice": a["poll"]["options"][option]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, c = params["title"], params["choice"]
        return phrased(
            zh=[f"在《{t}》的投票里选“{c}”", f"帮我参加《{t}》文章里的投票，投“{c}”",
                f"打开新闻《{t}》，投票选项选“{c}”"],
            en=[f"In the poll of '{t}', vote for '{c}'",
                f"Please take part in the poll in '{t}' and choose '{c}'",
                f"Open the article '{t}' and cast a vote for '{c}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = diff.added(f"apps/{NEWS}/votes")
        got = [(v["id"], v["option"]) for v in added]
        want = [(params["article_id"], params["option"])]
        return [] if got == want else [f"voted {got}, expected {want}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_article(ui, params["title"], params["article_id"])
        yield from ui.scroll_to(f"vote_{params['option']}")
        yield ui.tap(f"vote_{params['option']}")


class FollowSource(NewsTemplate):
    """Follow a source, from one of its articles in the 推荐 feed."""

    id = "news.follow_source"
    difficulty = 6
    ignorable = (HISTORY,)

    def sample(self, world: World, rng: random.Random) -> Params:
        followed = set(world.content(NEWS)["followed"])
        source = rng.choice(sorted({a["source"] for a in articles(world)} - followed))
        newest = max((a for a in articles(world) if a["source"] == source),
                     key=lambda a: a["time"])  # fmt: skip
        return {"source": source, "article_id": newest["id"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s = params["source"]
        return phrased(
            zh=[f"在头条新闻里关注“{s}”", f"打开“{s}”发的一篇文章，关注这个号",
                f"帮我关注新闻来源“{s}”"],
            en=[f"In News, follow '{s}'", f"Open an article by '{s}' and follow that account",
                f"Please follow the news source '{s}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        got = [f["id"] for f in diff.added(f"apps/{NEWS}/following")]
        return [] if got == [params["source"]] else [f"followed {got}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        row = f"art_{params['article_id']}"
        yield from ui.scroll_to(row)
        yield ui.tap(row)
        yield ui.tap("follow")


class Unfollow(NewsTemplate):
    id = "news.unfollow"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        followed = list(world.content(NEWS)["followed"])
        return {"source": rng.choice(followed)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s = params["source"]
        return phrased(
            zh=[f"在头条新闻里取消关注“{s}”", f"我不想再关注“{s}”了，帮我取关",
                f"把“{s}”从我的关注里去掉"],
            en=[f"In News, unfollow '{s}'", f"I no longer want to follow '{s}': unfollow it",
                f"Remove '{s}' from the accounts I follow"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        got = [f["id"] for f in diff.removed(f"apps/{NEWS}/following")]
        return [] if got == [params["source"]] else [f"unfollowed {got}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield ui.tap("open_me")
        yield ui.tap("open_following")
        row = next(n.resource_id.rpartition(":id/")[2] for n in ui.find_all()
                   if ":id/src_" in n.resource_id and params["source"] in texts(n))  # fmt: skip
        yield ui.tap(row.replace("src_", "unfollow_"))
        yield ui.tap("confirm_unfollow")


class ClearHistory(NewsTemplate):
    id = "news.clear_history"
    difficulty = 4

    def sample(self, world: World, rng: random.Random) -> Params:
        return {}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["清空头条新闻的历史记录", "帮我把新闻App里的浏览历史全部删掉",
                "把头条新闻里我看过的历史记录清空"],
            en=["Clear the reading history in News",
                "Please delete all my browsing history in News",
                "Empty the list of articles I have read in News"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        diff.touched(HISTORY)
        left = diff.value_after(HISTORY)
        return [] if left == [] else [f"{len(left)} history entries remain"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield ui.tap("open_me")
        yield ui.tap("open_history")
        yield ui.tap("clear_history")
        yield ui.tap("confirm_clear")


class AddChannel(NewsTemplate):
    id = "news.add_channel"
    difficulty = 4

    def sample(self, world: World, rng: random.Random) -> Params:
        key, name = rng.choice((("health", "健康"), ("auto", "汽车"), ("edu", "教育")))
        return {"key": key, "name": name}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n = params["name"]
        return phrased(
            zh=[f"在头条新闻的频道管理里添加“{n}”频道", f"帮我把“{n}”频道加到首页",
                f"首页想看“{n}”频道，去频道管理加上"],
            en=[f"In News' channel settings, add the '{n}' channel",
                f"Please add the '{n}' channel to my home tabs",
                f"I want a '{n}' tab on the home page: add it in channel management"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        got = [c["id"] for c in diff.added(f"apps/{NEWS}/channels")]
        return [] if got == [params["key"]] else [f"added {got}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield ui.tap("manage_channels")
        yield from ui.scroll_to(f"add_ch_{params['key']}")
        yield ui.tap(f"add_ch_{params['key']}")


TEMPLATES: tuple[TaskTemplate, ...] = (
    SaveArticle(),
    SaveFour(),
    SaveMoreRead(),
    Comment(),
    Vote(),
    FollowSource(),
    Unfollow(),
    ClearHistory(),
    AddChannel(),
    HotHeat(),
    CompareReads(),
    MedalSum(),
    HotlineToContact(),
    EventToCalendar(),
    ShareToWechat(),
    ParagraphToNote(),
    ScoreReply(),
    SmsChainNote(),
    RoadNoteOrSave(),
)
