"""Task templates of 短视频 (Shorts): like and collect, follow, comment, QA over a creator's
views and followers, a conditional follow-or-like, clearing the watch history, collecting four
videos, and cross-app ones (a link texted or sent on WeChat, a place or ingredient noted, an
SMS naming a creator whose top video goes to a friend)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messages.tasks import (
    add_incoming,
    address_book,
    check_one_sms,
    open_thread,
    sent_messages,
)
from phonebuddy.phoneworld.apps.messenger.directory import private_chat_id
from phonebuddy.phoneworld.apps.messenger.steps import FRICTION, one_message, open_private_chat
from phonebuddy.phoneworld.apps.video.content import VIDEO
from phonebuddy.phoneworld.apps.video.steps import (
    ROOT,
    VideoTemplate,
    all_links,
    collected,
    copy_link,
    creators,
    followed_only,
    followers_on_screen,
    liked,
    link_expectation,
    not_followed,
    open_app,
    open_profile,
    open_video,
    profile_rows,
    video_params,
    video_path,
    videos,
    videos_changed,
    works,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Number, Text, which_is_more
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    any_friend,
    copy_text,
    paste_into,
    paste_into_new_note,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import NOTES_LIST, WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

MESSAGES = "com.pw.messages"
MESSENGER = "com.pw.messenger"
NOTES = "com.pw.notes"
COMMENTS = ("太好看了吧", "已三连，支持一下", "求背景音乐", "这个必须收藏", "学会了，谢谢博主")
NOTE_TITLES = {"旅行": ("想去的地方", "旅行清单", "下次去这里"),
               "美食": ("要买的食材", "买菜清单", "做饭备忘")}  # fmt: skip


class LikeCollect(VideoTemplate):
    id = "video.like_collect"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        video = pick(rng, videos(world))
        return {**video_params(video), "likes": video["likes"], "collects": video["collects"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        c = params["caption"]
        return phrased(
            zh=[f"在短视频里搜一下“{c}”这个视频，点赞并收藏",
                f"帮我把短视频上的“{c}”点个赞，再加到收藏",
                f"找到视频“{c}”，给它点赞和收藏"],
            en=[f"In Shorts, search for the video '{c}', then like and collect it",
                f"Please like the Shorts video '{c}' and add it to my collection",
                f"Find the video '{c}' and both like and collect it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        vid = params["video_id"]
        return videos_changed(
            diff, liked(vid, params["likes"]) | collected(vid, params["collects"])
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_video(ui, params["caption"])
        yield ui.tap("like")
        yield ui.tap("collect")


class FollowCreator(VideoTemplate):
    id = "video.follow_creator"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        author = pick(rng, not_followed(world))
        video = pick(rng, works(world, author["id"]))
        return {**video_params(video), "creator_id": author["id"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        c = params["caption"]
        return phrased(
            zh=[f"关注短视频“{c}”的作者", f"“{c}”这个视频是谁发的？帮我关注这位博主",
                f"在短视频里找到“{c}”，关注发这个视频的人"],
            en=[f"Follow the creator of the Shorts video '{c}'",
                f"Who posted the video '{c}'? Follow that creator for me",
                f"Find '{c}' in Shorts and follow the person who posted it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return followed_only(diff, params["creator_id"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_video(ui, params["caption"])
        yield ui.tap("follow")


class Comment(VideoTemplate):
    id = "video.comment"
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        video = pick(rng, videos(world))
        return {**video_params(video), "text": rng.choice(COMMENTS), "count": video["comments"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        c, t = params["caption"], params["text"]
        return phrased(
            zh=[f"在短视频“{c}”下面评论“{t}”", f"帮我给视频“{c}”留一条评论：“{t}”",
                f"找到“{c}”这个视频，发表评论“{t}”"],
            en=[f"Comment '{t}' under the Shorts video '{c}'",
                f"Please leave the comment '{t}' on the video '{c}'",
                f"Find the video '{c}' and post the comment '{t}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = video_path(params["video_id"])
        return videos_changed(
            diff, {f"{path}/my_comments": [params["text"]], f"{path}/comments": params["count"] + 1}
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_video(ui, params["caption"])
        yield from ui.scroll_to("comment")
        yield from ui.type_into("comment", params["text"])
        yield from ui.scroll_to("send_comment")
        yield ui.tap("send_comment")


class RecentViews(VideoTemplate):
    """QA: the total views of a creator's three most recent videos (an aggregation)."""

    id = "video.recent_views"
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        author = pick(rng, creators(world))
        views = [v["views"] for v in works(world, author["id"])]
        return {"creator_id": author["id"], "name": author["name"], "total": sum(views[:3]),
                "wrong": sum(views[:2]) if len(views) == 3 else sum(views[1:4])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n = params["name"]
        return phrased(
            zh=[f"短视频博主“{n}”最近发的三个视频，播放量加起来一共多少？",
                f"帮我算一下“{n}”最新三条视频的总播放量",
                f"看看“{n}”的主页，最近三个作品的播放量之和是多少"],
            en=[f"What is the total view count of the three most recent videos by '{n}' in Shorts?",
                f"Add up the views of the latest three videos posted by '{n}'",
                f"On the profile of '{n}', how many views do the three newest videos have in "
                "total?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(params["total"])

    def wrong_answer(self, params: Params) -> str:
        return str(params["wrong"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_profile(ui, params["name"])
        rows = profile_rows(ui)
        if len(rows) < 3:
            raise OracleError("fewer than three videos on screen")
        yield Answer(text=str(sum(views for _, views, _ in rows[:3])))


class CompareFollowers(VideoTemplate):
    """QA: which of two creators has more followers, and by how many."""

    id = "video.compare_followers"
    difficulty = 16
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        a, b = pick(rng, creators(world), 2)
        return {"a": a["name"], "b": b["name"], "a_n": a["followers"], "b_n": b["followers"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["a"], params["b"]
        return phrased(
            zh=[f"短视频上“{a}”和“{b}”谁的粉丝多？多多少？",
                f"比较一下博主“{a}”与“{b}”的粉丝数，哪个更多、差多少",
                f"“{a}”和“{b}”这两位博主，哪位粉丝更多，多了多少人？"],
            en=[f"In Shorts, who has more followers, '{a}' or '{b}', and by how many?",
                f"Compare the follower counts of '{a}' and '{b}': who has more and how many more?",
                f"Between the creators '{a}' and '{b}', which has more followers and by how much?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return which_is_more(params["a"], params["a_n"], params["b"], params["b_n"], what="creator")

    def wrong_answer(self, params: Params) -> str:
        lose = params["b"] if params["a_n"] > params["b_n"] else params["a"]
        return f"{lose}，多{abs(params['a_n'] - params['b_n'])}"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        counts = {}
        for name in (params["a"], params["b"]):
            yield from open_profile(ui, name)
            counts[name] = followers_on_screen(ui, "content")
        a_n, b_n = counts[params["a"]], counts[params["b"]]
        win = params["a"] if a_n > b_n else params["b"]
        yield Answer(text=f"{win}，多{abs(a_n - b_n)}人")


class FollowOrLike(VideoTemplate):
    """Conditional: follow the creator if they have over N followers, else like the video."""

    id = "video.follow_or_like"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        author = pick(rng, not_followed(world))
        video = pick(rng, works(world, author["id"]))
        fans = author["followers"]
        threshold = max(1000, fans + rng.choice((-1, 1)) * rng.randrange(fans // 10, fans // 2))
        threshold = threshold // 1000 * 1000
        return {**video_params(video), "creator_id": author["id"], "threshold": threshold,
                "followers": fans, "likes": video["likes"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        c, n = params["caption"], params["threshold"]
        return phrased(
            zh=[f"打开短视频“{c}”，如果作者粉丝超过{n}就关注作者，否则只给这个视频点赞",
                f"看看“{c}”的作者有没有{n}以上的粉丝：有就关注，没有就给视频点个赞",
                f"视频“{c}”的发布者粉丝数大于{n}的话关注他，不然就点赞这个视频"],
            en=[f"Open the Shorts video '{c}': if its creator has over {n} followers, follow "
                "them; otherwise just like the video",
                f"Check whether the creator of '{c}' has more than {n} followers: follow them if "
                "so, else like the video",
                f"If whoever posted '{c}' has over {n} followers, follow them; otherwise like "
                "that video"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["followers"] > params["threshold"]:
            return followed_only(diff, params["creator_id"]) + videos_changed(diff, {})
        return videos_changed(diff, liked(params["video_id"], params["likes"]))

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_video(ui, params["caption"])
        fans = followers_on_screen(ui, "creator")
        yield ui.tap("follow" if fans > params["threshold"] else "like")


class ClearHistory(VideoTemplate):
    id = "video.clear_history"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"watched": len(world.content(VIDEO)["history"])}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["把短视频的观看历史全部清空", "帮我清除短视频里的观看记录",
                "打开短视频，把我的观看历史清空"],
            en=["Clear my whole watch history in Shorts",
                "Please wipe the viewing history in Shorts",
                "In Shorts, go to Me and clear the watch history"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        diff.touched(f"{ROOT}/history")
        if diff.value_after(f"{ROOT}/history"):
            return ["the watch history is not empty"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_app(ui)
        yield ui.tap("me")
        yield ui.tap("tab_history")
        yield ui.tap("clear_history")
        yield ui.tap("confirm_clear")


class CollectFour(VideoTemplate):
    """Long: collect four given videos, each found by search."""

    id = "video.collect_four"
    difficulty = 31

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, videos(world), 4)
        return {"ids": [v["id"] for v in chosen], "captions": [v["caption"] for v in chosen],
                "collects": [v["collects"] for v in chosen]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh = "、".join(f"“{c}”" for c in params["captions"])
        en = ", ".join(f"'{c}'" for c in params["captions"])
        return phrased(
            zh=[f"在短视频里把这四个视频都收藏：{zh}", f"帮我收藏{zh}这四个短视频",
                f"打开短视频，依次搜索{zh}，每个都加入收藏"],
            en=[f"In Shorts, collect these four videos: {en}",
                f"Please add the four Shorts videos {en} to my collection",
                f"Open Shorts, search for {en} one by one and collect each of them"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        expected: dict[str, Any] = {}
        for video_id, collects in zip(params["ids"], params["collects"], strict=True):
            expected |= collected(video_id, collects)
        return videos_changed(diff, expected)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        for caption in params["captions"]:
            yield from open_video(ui, caption)
            yield ui.tap("collect")


# -- cross-app ---------------------------------------------------------------------------------


class LinkToSms(WritesValue):
    """Shorts → Messages: a video's link copied from the share dialog and texted."""

    id = "video.link_to_sms"
    category = Category.CROSS_APP
    apps = (VIDEO, MESSAGES)
    difficulty = 16
    written = f"apps/{MESSAGES}/threads[*]/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        person = pick(rng, address_book(world))
        return {**video_params(pick(rng, videos(world))), "to": person["name"],
                "to_phone": person["phone"], "links": all_links(world)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        c, to = params["caption"], params["to"]
        return phrased(
            zh=[f"把短视频“{c}”的链接复制下来，用短信发给{to}",
                f"{to}想看短视频“{c}”，把它的分享链接短信发过去",
                f"短信告诉{to}视频“{c}”的链接"],
            en=[f"Copy the link of the Shorts video '{c}' and text it to {to}",
                f"{to} wants to watch the video '{c}': send them its share link by SMS",
                f"Text {to} the link to the Shorts video '{c}'"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return link_expectation(params["video_id"], params["links"])

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["to_phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return self.writing_problems(diff, params, text, what="the SMS")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_video(ui, params["caption"])
        yield from copy_link(ui)
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["to"])
        yield from paste_into(ui, "body")
        yield ui.tap("send")


def sent_on_wechat(template: WritesValue, diff: StateDiff, params: Params) -> list[str]:
    """One WeChat message to the friend, stating the expected link."""
    for path in FRICTION:
        diff.touched(path)
    message, problems = one_message(diff, private_chat_id(params["friend_id"]))
    if message is None:
        return problems
    return problems + template.writing_problems(diff, params, message["text"], what="the message")


class LinkToWechat(WritesValue):
    """Shorts → WeChat: a video's link copied and pasted into a friend's chat."""

    id = "video.link_to_wechat"
    category = Category.CROSS_APP
    apps = (VIDEO, MESSENGER)
    difficulty = 18
    written = f"apps/{MESSENGER}/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**video_params(pick(rng, videos(world))), **any_friend(world, rng),
                "links": all_links(world)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        c, f = params["caption"], params["friend"]
        return phrased(
            zh=[f"把短视频“{c}”的链接通过微信发给{f}", f"复制视频“{c}”的分享链接，微信发给{f}",
                f"{f}想看“{c}”这个短视频，用微信把链接发给对方"],
            en=[f"Send {f} the link of the Shorts video '{c}' on WeChat",
                f"Copy the share link of the video '{c}' and send it to {f} via WeChat",
                f"{f} wants to watch the Shorts video '{c}': WeChat them its link"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return link_expectation(params["video_id"], params["links"])

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return sent_on_wechat(self, diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_video(ui, params["caption"])
        yield from copy_link(ui)
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        yield from paste_into(ui, "input")
        yield ui.tap("send")


class SpotToNote(WritesValue):
    """Shorts → Notes: the place of a travel video or the ingredient of a recipe, noted."""

    id = "video.spot_to_note"
    category = Category.CROSS_APP
    apps = (VIDEO, NOTES)
    difficulty = 16
    written = f"{NOTES_LIST}[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        video = pick(rng, [v for v in videos(world) if v["spot"]])
        spots = [v["spot"] for v in videos(world) if v["spot"] and v["id"] != video["id"]]
        return {**video_params(video), "travel": video["topic"] == "旅行", "spot": video["spot"],
                "others": spots, "title": rng.choice(NOTE_TITLES[video["topic"]])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        c, t = params["caption"], params["title"]
        if params["travel"]:
            return phrased(
                zh=[f"短视频“{c}”拍的是哪个地方？把地点记到新备忘录“{t}”里",
                    f"把视频“{c}”里标注的地点存进备忘录，标题写“{t}”",
                    f"新建一条标题为“{t}”的备忘录，内容是短视频“{c}”的拍摄地点"],
                en=[f"Where was the Shorts video '{c}' shot? Note the place in a new note '{t}'",
                    f"Save the place tagged in the video '{c}' in a note titled '{t}'",
                    f"Create a note called '{t}' holding the location of the Shorts video '{c}'"],
            )  # fmt: skip
        return phrased(
            zh=[f"短视频“{c}”用的主要食材是什么？记到新备忘录“{t}”里",
                f"把视频“{c}”的主要食材存进备忘录，标题写“{t}”",
                f"新建一条标题为“{t}”的备忘录，内容是短视频“{c}”的主要食材"],
            en=[f"What is the main ingredient of the Shorts video '{c}'? Note it in a new note "
                f"'{t}'",
                f"Save the main ingredient of the video '{c}' in a note titled '{t}'",
                f"Create a note called '{t}' holding the main ingredient of the Shorts video "
                f"'{c}'"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Text([params["spot"]], others=params["others"], what="place or ingredient")

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_video(ui, params["caption"])
        shown = ui.text_of("spot")
        if params["spot"] not in shown:
            raise OracleError(f"the video shows {shown!r}")
        yield from copy_text(ui, "spot")
        yield from paste_into_new_note(ui, params["title"])


class TopVideoChain(WritesValue):
    """Messages → Shorts → WeChat: a friend's SMS names a creator; their most-liked video's
    link goes to another friend on WeChat."""

    id = "video.sms_creator_top_to_wechat"
    category = Category.CROSS_APP
    apps = (MESSAGES, VIDEO, MESSENGER)
    difficulty = 22
    written = f"apps/{MESSENGER}/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        author = pick(rng, creators(world))
        top = max(works(world, author["id"]), key=lambda v: v["likes"])
        person = pick(rng, address_book(world))
        return {"creator": author["name"], "video_id": top["id"], "from": person["name"],
                "from_phone": person["phone"], **any_friend(world, rng),
                "links": all_links(world)}  # fmt: skip

    @staticmethod
    def sms(name: str) -> str:
        return f"最近迷上了短视频博主“{name}”，你去看看TA点赞最多的那条，太有意思了！"

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["from_phone"], params["from"]), self.sms(params["creator"]),
                     ago=900, key="video-creator")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, f = params["from"], params["friend"]
        return phrased(
            zh=[f"{s}发短信推荐了一位短视频博主，找到这位博主点赞最多的视频，把链接用微信发给{f}",
                f"看看{s}的短信里说的是哪个博主，在短视频里找到TA获赞最多的作品，微信把链接分享给{f}",
                f"把{s}短信里提到的那位博主最火（点赞最多）的视频链接，通过微信发给{f}"],
            en=[f"{s} texted me about a Shorts creator: find that creator's most-liked video and "
                f"send its link to {f} on WeChat",
                f"Check which creator {s}'s SMS mentions, find their most-liked video in Shorts "
                f"and share its link with {f} via WeChat",
                f"WeChat {f} the link of the most-liked video by the creator {s} mentioned in "
                "the SMS"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return link_expectation(params["video_id"], params["links"])

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return sent_on_wechat(self, diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["from"])
        sms = next((t for t in ui.find_all() if "短视频博主“" in t.text), None)
        if sms is None:
            raise OracleError("the SMS naming the creator is not in the thread")
        name = sms.text.split("“", 1)[1].split("”", 1)[0]
        yield from open_profile(ui, name)
        caption = max(profile_rows(ui), key=lambda row: row[2])[0]
        yield ui.tap(text=caption)
        yield from copy_link(ui)
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        yield from paste_into(ui, "input")
        yield ui.tap("send")


TEMPLATES: tuple[TaskTemplate, ...] = (
    LikeCollect(),
    FollowCreator(),
    Comment(),
    RecentViews(),
    CompareFollowers(),
    FollowOrLike(),
    ClearHistory(),
    CollectFour(),
    LinkToSms(),
    LinkToWechat(),
    SpotToNote(),
    TopVideoChain(),
)
