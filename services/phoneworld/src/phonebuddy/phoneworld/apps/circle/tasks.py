"""Task templates of the Circle app (生活圈): like and collect a post, comment on an author's post,
a QA over likes, and a conditional follow-or-like; publishing and boards are in `tasks_social`,
the templates with Maps and Notes in `cross_social`."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.circle.app import AUTHORS, CIRCLE, link
from phonebuddy.phoneworld.apps.circle.cross_social import CROSS_TEMPLATES
from phonebuddy.phoneworld.apps.circle.tasks_social import TEMPLATES as SOCIAL_TEMPLATES
from phonebuddy.phoneworld.apps.messages.tasks import address_book, check_one_sms, sent_messages
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Number, Text, which_is_more
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import copy_text, paste_into, paste_into_new_note
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes
from phonebuddy.phoneworld.tasks.expect import NOTES_LIST, WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleUI, texts
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

ROOT = f"apps/{CIRCLE}"
MESSAGES = "com.pw.messages"
NOTES = "com.pw.notes"
COMMENTS = ("太实用了，收藏了！", "请问在哪里买的？", "照片拍得真好看", "学到了，谢谢分享")


def posts(world: World) -> list[Any]:
    return list(world.content(CIRCLE)["posts"])


def post_path(post_id: str) -> str:
    return f"{ROOT}/posts[{post_id}]"


def open_post(ui: OracleUI, title: str) -> Iterator[Action]:
    yield ui.open("生活圈")
    yield from ui.scroll_to(text=title)
    yield ui.tap(text=title)


class CircleTemplate(TaskTemplate):
    category = Category.SINGLE_APP
    apps = (CIRCLE,)


class LikeCollect(CircleTemplate):
    id = "circle.like_collect"
    difficulty = 4

    def sample(self, world: World, rng: random.Random) -> Params:
        post = pick(rng, posts(world))
        return {"post_id": post["id"], "title": post["title"], "likes": post["likes"],
                "collects": post["collects"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"在生活圈给笔记“{t}”点赞并收藏", f"帮我把“{t}”这篇笔记点个赞，再收藏一下",
                f"打开生活圈，点赞并收藏“{t}”"],
            en=[f"In Circle, like and collect the post '{t}'",
                f"Like the post '{t}' and add it to my collection",
                f"Open Circle, then like and collect '{t}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = post_path(params["post_id"])
        return expect_changes(diff, ROOT, {
            f"{path}/liked": True, f"{path}/likes": params["likes"] + 1,
            f"{path}/collected": True, f"{path}/collects": params["collects"] + 1,
        })  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_post(ui, params["title"])
        yield ui.tap("like")
        yield ui.tap("collect")


class Comment(CircleTemplate):
    id = "circle.comment"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        post = pick(rng, posts(world))
        return {"post_id": post["id"], "title": post["title"], "author": post["author"],
                "text": rng.choice(COMMENTS)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, a, c = params["title"], params["author"], params["text"]
        return phrased(
            zh=[f"在“{a}”的笔记“{t}”下评论“{c}”", f"去生活圈给“{a}”发的“{t}”留言：“{c}”",
                f"帮我在生活圈“{t}”（作者“{a}”）下面评论“{c}”"],
            en=[f"Comment '{c}' on '{a}''s post '{t}'",
                f"In Circle, leave the comment '{c}' under '{t}' by '{a}'",
                f"Write '{c}' as a comment on the post '{t}' from '{a}' in Circle"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = post_path(params["post_id"])
        return expect_changes(diff, ROOT, {f"{path}/comments": [params["text"]]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_post(ui, params["title"])
        yield from ui.scroll_to("comment")
        yield from ui.type_into("comment", params["text"])
        yield from ui.scroll_to("send_comment")
        yield ui.tap("send_comment")


class TagTopLikes(CircleTemplate):
    """QA: the most-liked post under a tag and its likes (needs comparing across the feed)."""

    id = "circle.tag_top_likes"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        tags = sorted({p["tag"] for p in posts(world) if sum(
            q["tag"] == p["tag"] for q in posts(world)) >= 2})  # fmt: skip
        tag = rng.choice(tags)
        tagged = [p["id"] for p in posts(world) if p["tag"] == tag]
        likes = dict(zip(tagged, rng.sample(range(20, 3000), len(tagged)), strict=True))
        ranked = sorted(likes.values(), reverse=True)  # this task's own like counts
        return {"tag": tag, "post_likes": likes, "likes": ranked[0], "other": ranked[1]}

    def setup(self, it: Interaction, params: Params) -> None:
        for post in it.data["posts"]:
            if post["id"] in params["post_likes"]:
                post["likes"] = params["post_likes"][post["id"]]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["tag"]
        return phrased(
            zh=[f"生活圈里“{t}”标签下点赞最多的笔记有多少赞？",
                f"看看生活圈“{t}”话题中最火的那篇笔记，点赞数是多少",
                f"在生活圈搜“{t}”，最高的点赞数是多少？"],
            en=[f"In Circle, how many likes does the most-liked '{t}' post have?",
                f"Find the most popular post tagged '{t}' in Circle: how many likes?",
                f"Search Circle for '{t}': what is the highest like count?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        tagged = [
            p["likes"] for p in diff.value_before(f"{ROOT}/posts") if p["tag"] == params["tag"]
        ]
        return Number(max(tagged))

    def wrong_answer(self, params: Params) -> str:
        return str(params["other"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("生活圈")
        yield from ui.type_into("search", f"#{params['tag']}")
        best = 0
        for text in texts(ui.device.ui_tree()):
            if text.startswith("♥") and text[1:].isdigit():
                best = max(best, int(text[1:]))
        yield Answer(text=str(best))


class FollowOrLike(CircleTemplate):
    """Conditional: follow the author if they have over N followers, otherwise like the post."""

    id = "circle.follow_or_like"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        content = world.content(CIRCLE)
        post = pick(rng, [p for p in posts(world) if p["author"] not in world_following(world)])
        followers = content["followers"][post["author"]]
        threshold = max(100, followers + rng.choice((-1, 1)) * rng.randrange(50, 2000))
        threshold = threshold // 100 * 100
        return {"post_id": post["id"], "title": post["title"], "author": post["author"],
                "threshold": threshold, "follow": followers > threshold,
                "likes": post["likes"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, a, n = params["title"], params["author"], params["threshold"]
        return phrased(
            zh=[f"看看生活圈笔记“{t}”的作者“{a}”，粉丝超过{n}就关注，否则只给这篇笔记点赞",
                f"如果“{a}”的粉丝数多于{n}，关注他；不然就给“{t}”点个赞",
                f"打开“{t}”，作者“{a}”粉丝过{n}的话关注，没过就点赞"],
            en=[f"Check '{a}', author of '{t}' in Circle: follow if over {n} followers, "
                "otherwise just like the post",
                f"If '{a}' has more than {n} followers, follow them; else like '{t}'",
                f"Open '{t}'; follow '{a}' if they have over {n} followers, otherwise like it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["follow"]:
            following = diff.value_after(f"{ROOT}/following")
            if params["author"] not in (following or []):
                return [f"{params['author']} was not followed"]
            changed = {c.path: c.after for c in diff.touched(ROOT)}
            extra = [p for p in changed if not p.startswith(f"{ROOT}/following")]
            return [f"unexpected change: {p}" for p in extra]
        path = post_path(params["post_id"])
        return expect_changes(diff, ROOT, {f"{path}/liked": True,
                                          f"{path}/likes": params["likes"] + 1})  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_post(ui, params["title"])
        followers = int(ui.text_of("followers").split()[-1])
        yield ui.tap("follow" if followers > params["threshold"] else "like")


def world_following(world: World) -> tuple[str, ...]:
    """The authors followed after a reset."""
    return AUTHORS[:2]


def link_answer(params: Params) -> Expectation:
    others = [link(f"c{i:02d}") for i in range(1, 40) if f"c{i:02d}" != params["post_id"]]
    return Text([link(params["post_id"])], others=others, what="link")


class LinkToSms(WritesValue):
    """Circle -> Messages: a post's share link copied and texted to a contact."""

    id = "circle.link_to_sms"
    category = Category.CROSS_APP
    apps = (CIRCLE, MESSAGES)
    difficulty = 12
    written = f"apps/{MESSAGES}/threads[*]/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        post = pick(rng, posts(world))
        person = pick(rng, address_book(world))
        return {"post_id": post["id"], "title": post["title"], "to": person["name"],
                "to_phone": person["phone"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, to = params["title"], params["to"]
        return phrased(
            zh=[f"把生活圈笔记“{t}”的链接用短信发给{to}",
                f"复制“{t}”这篇笔记的分享链接，短信发给{to}",
                f"{to}想看生活圈的“{t}”，把链接短信发过去"],
            en=[f"Text {to} the link of the Circle post '{t}'",
                f"Copy the share link of the post '{t}' and send it to {to} by SMS",
                f"{to} wants to read '{t}' on Circle: text them its link"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return link_answer(params)

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["to_phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return self.writing_problems(diff, params, text, what="the SMS")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_post(ui, params["title"])
        yield from copy_text(ui, "link")
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["to"])
        yield from paste_into(ui, "body")
        yield ui.tap("send")


class LinkToNote(WritesValue):
    """Circle -> Notes: a post's share link kept in a new note."""

    id = "circle.link_to_note"
    category = Category.CROSS_APP
    apps = (CIRCLE, NOTES)
    difficulty = 11
    written = f"{NOTES_LIST}[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        post = pick(rng, posts(world))
        return {"post_id": post["id"], "title": post["title"],
                "note": rng.choice(("稍后再看", "收藏的笔记", "生活圈链接"))}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, n = params["title"], params["note"]
        return phrased(
            zh=[f"把生活圈笔记“{t}”的链接存到新备忘录“{n}”里",
                f"新建备忘录“{n}”，内容是“{t}”的分享链接",
                f"复制“{t}”的链接，粘贴到一条标题为“{n}”的新备忘录"],
            en=[f"Save the link of the Circle post '{t}' in a new note titled '{n}'",
                f"Create a note '{n}' holding the share link of '{t}'",
                f"Copy the link of '{t}' and paste it into a new note called '{n}'"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return link_answer(params)

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["note"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_post(ui, params["title"])
        yield from copy_text(ui, "link")
        yield from paste_into_new_note(ui, params["note"])


def collects_on_screen(ui: OracleUI) -> int:
    return int(ui.text_of("collect").split()[-1])


class CompareCollects(CircleTemplate):
    """QA: which of two posts has more collects, and by how many."""

    id = "circle.compare_collects"
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        a, b = pick(rng, posts(world), 2)
        return {"a": a["title"], "b": b["title"], "a_id": a["id"], "b_id": b["id"],
                "a_n": a["collects"], "b_n": b["collects"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["a"], params["b"]
        return phrased(
            zh=[f"生活圈里“{a}”和“{b}”哪篇收藏多？多多少？",
                f"比较一下笔记“{a}”和“{b}”的收藏数，哪篇更多，差几个",
                f"“{a}”与“{b}”这两篇笔记，谁的收藏更多，多了多少？"],
            en=[f"In Circle, which of '{a}' and '{b}' has more collects, and by how many?",
                f"Compare the collects of '{a}' and '{b}': which has more, and how many more?",
                f"Between the posts '{a}' and '{b}', which is collected more and by how much?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return which_is_more(params["a"], params["a_n"], params["b"], params["b_n"], what="post")

    def wrong_answer(self, params: Params) -> str:
        lose = params["b"] if params["a_n"] > params["b_n"] else params["a"]
        return f"{lose}，多{abs(params['a_n'] - params['b_n'])}"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_post(ui, params["a"])
        yield from ui.scroll_to("collect")
        a_n = collects_on_screen(ui)
        yield ui.back()
        yield from ui.scroll_to(text=params["b"])
        yield ui.tap(text=params["b"])
        yield from ui.scroll_to("collect")
        b_n = collects_on_screen(ui)
        win = params["a"] if a_n > b_n else params["b"]
        yield Answer(text=f"{win}，多{abs(a_n - b_n)}个")


class CollectFive(CircleTemplate):
    """Long: like and collect five given posts."""

    id = "circle.collect_five"
    difficulty = 25

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, posts(world), 5)
        return {"ids": [p["id"] for p in chosen], "titles": [p["title"] for p in chosen],
                "likes": [p["likes"] for p in chosen],
                "collects": [p["collects"] for p in chosen]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh = "、".join(f"“{t}”" for t in params["titles"])
        en = ", ".join(f"'{t}'" for t in params["titles"])
        return phrased(
            zh=[f"在生活圈把这五篇笔记都点赞并收藏：{zh}", f"帮我给{zh}这五篇笔记各点个赞再收藏",
                f"打开生活圈，{zh}，每篇都点赞、收藏"],
            en=[f"In Circle, like and collect these five posts: {en}",
                f"Like and collect each of the posts {en}",
                f"Open Circle and like plus collect {en}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        expected: dict[str, Any] = {}
        for post_id, likes, collects in zip(
            params["ids"], params["likes"], params["collects"], strict=True
        ):
            path = post_path(post_id)
            expected |= {f"{path}/liked": True, f"{path}/likes": likes + 1,
                         f"{path}/collected": True, f"{path}/collects": collects + 1}  # fmt: skip
        return expect_changes(diff, ROOT, expected)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("生活圈")
        for i, title in enumerate(params["titles"]):
            if i:
                yield ui.back()
            yield from ui.scroll_to(text=title)
            yield ui.tap(text=title)
            yield from ui.scroll_to("like")
            yield ui.tap("like")
            yield ui.tap("collect")


TEMPLATES: tuple[TaskTemplate, ...] = (
    *SOCIAL_TEMPLATES,
    *CROSS_TEMPLATES,
    CompareCollects(),
    CollectFive(),
    LikeCollect(),
    Comment(),
    TagTopLikes(),
    FollowOrLike(),
    LinkToSms(),
    LinkToNote(),
)
