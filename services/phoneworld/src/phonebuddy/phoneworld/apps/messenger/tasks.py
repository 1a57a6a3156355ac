"""Task templates of the messenger: chats, contacts and moments (single app); the cross-app
ones with Notes and the Wallet are in `cross`, the mini-programs' own templates in
`miniprograms/tasks.py`."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messenger import cross
from phonebuddy.phoneworld.apps.messenger.directory import private_chat_id
from phonebuddy.phoneworld.apps.messenger.miniprograms import tasks as mini_tasks
from phonebuddy.phoneworld.apps.messenger.miniprograms import (
    tasks_fuel,
    tasks_groupbuy,
    tasks_hospital,
    tasks_powerbank,
    tasks_tickets,
    tasks_utilities,
)
from phonebuddy.phoneworld.apps.messenger.steps import (
    MESSENGER,
    ROOT,
    MessengerTemplate,
    content,
    facts,
    friend_by_id,
    friend_fields,
    home_tab,
    one_message,
    open_group,
    open_private_chat,
    open_profile,
    same_text,
)
from phonebuddy.phoneworld.tasks.answers import ClockTime, Expectation, wechat_id
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.toggles import Switch, ToggleTemplate
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction, Type

MOMENTS = f"{ROOT}/moments"
MESSAGE_TEXTS = (
    "今晚一起吃饭吗？",
    "我到楼下了",
    "文件已经发你邮箱了",
    "周末有空吗？",
    "生日快乐！",
    "明天的会改到下午三点",
    "收到，谢谢！",
    "路上堵车，晚到十分钟",
)
GROUP_REPLIES = ("收到", "我也报名", "好的，没问题", "+1", "我晚点到", "辛苦了")
MOMENT_TEXTS = (
    "今天的晚霞真好看",
    "周末去爬山了，累但快乐",
    "新年新气象，加油",
    "第一次做红烧肉，成功！",
    "终于下班了",
    "推荐一本好书：《活着》",
)
COMMENTS = ("好看！", "太棒了", "羡慕", "下次带上我", "恭喜恭喜")
REMARKS = ("老同学", "羽毛球搭子", "隔壁邻居", "前同事", "健身房认识的", "高中同桌")


# -- single app: chats -------------------------------------------------------------------------


class SendMessage(MessengerTemplate):
    id = "messenger.send_message"
    category = Category.SINGLE_APP
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        friend = rng.choice(list(content(world)["friends"]))
        return {**friend_fields(friend), "text": rng.choice(MESSAGE_TEXTS)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, text = params["name"], params["text"]
        return phrased(
            zh=[f"用微信给{name}发消息：{text}", f"微信上给{name}发一句：{text}",
                f"帮我发条微信给{name}，内容是：{text}"],
            en=[f"Send {name} this WeChat message: {text}", f"Message {name} on WeChat: {text}",
                f"On WeChat, send {name} a message saying: {text}"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        message, problems = one_message(diff, private_chat_id(params["friend"]))
        if message is not None and not same_text(message["text"], params["text"]):
            problems.append(f"sent {message['text']!r}, expected {params['text']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_private_chat(ui, params["name"], params["friend"])
        yield from ui.type_into("input", params["text"])
        yield ui.tap("send")


class GroupReply(MessengerTemplate):
    id = "messenger.group_reply"
    category = Category.SINGLE_APP
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        group = rng.choice([c for c in content(world)["chats"] if c["kind"] == "group"])
        return {
            "group": str(group["id"]),
            "title": str(group["title"]),
            "text": rng.choice(GROUP_REPLIES),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, text = params["title"], params["text"]
        return phrased(
            zh=[f"在微信群「{title}」里回复：{text}", f"去微信群「{title}」回一句：{text}",
                f"帮我在「{title}」这个微信群里回复：{text}"],
            en=[f"Reply '{text}' in the WeChat group '{title}'",
                f"In the WeChat group '{title}', reply '{text}'",
                f"Post '{text}' in the '{title}' group chat on WeChat"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        message, problems = one_message(diff, params["group"])
        if message is not None and not same_text(message["text"], params["text"]):
            problems.append(f"sent {message['text']!r}, expected {params['text']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_group(ui, params["group"])
        yield from ui.type_into("input", params["text"])
        yield ui.tap("send")


class MeetingTime(MessengerTemplate):
    id = "messenger.meeting_time"
    category = Category.SINGLE_APP
    difficulty = 7
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        fact = rng.choice(facts(world, "meeting"))
        friend = friend_by_id(world, fact["friend"])
        return {
            **friend_fields(friend),
            "hour": fact["hour"],
            "minute": fact["minute"],
            "text": fact["text"],
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"{name}在微信上约我见面，约的是几点？",
                f"{name}在微信里约了我见面，时间定的几点？",
                f"看下微信，{name}约我几点见面？"],
            en=[f"{name} proposed a meeting on WeChat. At what time?",
                f"On WeChat, {name} asked to meet up. What time was suggested?",
                f"Check WeChat: what time does {name} want to meet?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return ClockTime(params["hour"], params["minute"])

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return f"{(params['hour'] + 1) % 24:02d}:{params['minute']:02d}"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_private_chat(ui, params["name"], params["friend"])
        yield from ui.scroll_to(text=params["text"], scroll="messages")
        yield Answer(text=f"{params['hour']:02d}:{params['minute']:02d}")


# -- single app: contacts ----------------------------------------------------------------------


class SetRemark(MessengerTemplate):
    id = "messenger.set_remark"
    category = Category.SINGLE_APP
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        friend = rng.choice(list(content(world)["friends"]))
        remark = rng.choice([r for r in REMARKS if r != friend["remark"]])
        return {**friend_fields(friend), "remark": remark}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, remark = params["name"], params["remark"]
        return phrased(
            zh=[f"把微信好友「{name}」的备注改成“{remark}”",
                f"微信里给「{name}」改个备注，叫“{remark}”",
                f"把「{name}」在微信里的备注名设为“{remark}”"],
            en=[f"Change the WeChat remark of '{name}' to '{remark}'",
                f"Set the remark for '{name}' on WeChat to '{remark}'",
                f"On WeChat, give my friend '{name}' the remark '{remark}'"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        changes = diff.touched(f"{ROOT}/remarks")
        path = f"{ROOT}/remarks/{params['friend']}"
        if [c.path for c in changes] != [path]:
            return [f"expected only the remark of {params['name']!r} to change"]
        if changes[0].after != params["remark"]:
            return [f"the remark is {changes[0].after!r}, expected {params['remark']!r}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_profile(ui, params["friend"])
        yield ui.tap("set_remark")
        field = ui.find("remark")
        if field is not None and field.text:
            yield ui.tap("remark_clear")
        yield from ui.type_into("remark", params["remark"])
        yield ui.tap("remark_done")


class WechatId(MessengerTemplate):
    id = "messenger.wechat_id"
    category = Category.SINGLE_APP
    difficulty = 7
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        friend = rng.choice(list(content(world)["friends"]))
        return {**friend_fields(friend), "wxid": str(friend["wxid"])}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"{name}的微信号是什么？", f"查一下{name}的微信号",
                f"{name}的微信号是多少？帮我看看"],
            en=[f"What is {name}'s WeChat ID?", f"Look up {name}'s WeChat ID",
                f"Find the WeChat ID of {name} for me"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return wechat_id(params["wxid"])

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return params["wxid"][:-1]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_profile(ui, params["friend"])
        node = ui.find("profile_wxid")
        yield Answer(text=node.text.removeprefix("微信号：") if node else "")


SETTING_SWITCHES = {
    key: Switch(f"{ROOT}/settings/{key}", ("tab_me", "me_settings"), f"setting_{key}", zh, en)
    for key, zh, en in (
        ("notify", "新消息通知", "new-message notifications"),
        ("sound", "新消息提示音", "the new-message sound"),
        ("strangers_see_moments", "允许陌生人查看十条朋友圈", "letting strangers see ten Moments"),
    )
}


class MuteNotifications(ToggleTemplate):
    id = "messenger.mute_notifications"
    apps = (MESSENGER,)
    difficulty = 5
    app_names = ("微信", "WeChat")
    switches = {key: SETTING_SWITCHES[key] for key in ("notify", "sound")}
    turn_on = False


class ToggleSetting(ToggleTemplate):
    id = "messenger.toggle_setting"
    apps = (MESSENGER,)
    difficulty = 5
    app_names = ("微信", "WeChat")
    switches = SETTING_SWITCHES


# -- single app: moments -----------------------------------------------------------------------


def _latest_moment(world: World, rng: random.Random) -> tuple[Any, Any]:
    """A friend with moments, and their newest one."""
    moments = content(world)["moments"]
    author = rng.choice(sorted({m["author"] for m in moments}))
    latest = min((m for m in moments if m["author"] == author), key=lambda m: m["ago"])
    return friend_by_id(world, author), latest


def _open_moment(ui: OracleUI, moment_id: str) -> Iterator[Action]:
    yield from home_tab(ui, "discover")
    yield ui.tap("discover_moments")
    yield from ui.scroll_to(f"moment_more_{moment_id}", scroll="feed")
    yield ui.tap(f"moment_more_{moment_id}")


class PostMoment(MessengerTemplate):
    id = "messenger.post_moment"
    category = Category.SINGLE_APP
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"text": rng.choice(MOMENT_TEXTS)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        text = params["text"]
        return phrased(
            zh=[f"发一条微信朋友圈（纯文字）：{text}", f"帮我发个纯文字的朋友圈：{text}",
                f"在微信朋友圈发一条只有文字的动态，内容是：{text}"],
            en=[f"Post a text-only WeChat moment: {text}",
                f"Share a WeChat moment with just this text: {text}",
                f"On WeChat, post a moment (text only) saying: {text}"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        post, problems = one_added(diff, f"{MOMENTS}/posts", "moment")
        if post is not None and not same_text(post["text"], params["text"]):
            problems.append(f"posted {post['text']!r}, expected {params['text']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from home_tab(ui, "discover")
        yield ui.tap("discover_moments")
        yield ui.tap("compose")
        yield from ui.type_into("moment_text", params["text"])
        yield ui.tap("publish")


class LikeMoment(MessengerTemplate):
    id = "messenger.like_moment"
    category = Category.SINGLE_APP
    difficulty = 18

    def sample(self, world: World, rng: random.Random) -> Params:
        friend, moment = _latest_moment(world, rng)
        return {**friend_fields(friend), "moment": str(moment["id"])}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"给{name}最新的一条朋友圈点赞", f"帮我赞一下{name}最新发的朋友圈",
                f"去朋友圈找到{name}发的最新一条，点个赞"],
            en=[f"Like {name}'s latest WeChat moment",
                f"Give a like to the newest moment {name} posted on WeChat",
                f"Find {name}'s most recent WeChat moment and like it"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        changes = diff.touched(f"{MOMENTS}/liked")
        expected = f"{MOMENTS}/liked/{params['moment']}"
        if [(c.path, c.after) for c in changes] != [(expected, True)]:
            return [f"expected a like on {params['moment']} only, got {[c.path for c in changes]}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from _open_moment(ui, params["moment"])
        yield ui.tap(f"like_{params['moment']}")


class CommentMoment(MessengerTemplate):
    id = "messenger.comment_moment"
    category = Category.SINGLE_APP
    difficulty = 17

    def sample(self, world: World, rng: random.Random) -> Params:
        friend, moment = _latest_moment(world, rng)
        return {
            **friend_fields(friend),
            "moment": str(moment["id"]),
            "comment": rng.choice(COMMENTS),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, comment = params["name"], params["comment"]
        return phrased(
            zh=[f"评论{name}最新的一条朋友圈：{comment}",
                f"在{name}最新的朋友圈下面评论：{comment}",
                f"帮我给{name}最新一条朋友圈留个评论：{comment}"],
            en=[f"Comment '{comment}' on {name}'s latest WeChat moment",
                f"Leave the comment '{comment}' on the newest WeChat moment from {name}",
                f"On WeChat, comment '{comment}' on the most recent moment {name} posted"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        comment, problems = one_added(diff, f"{MOMENTS}/comments", "comment")
        if comment is None:
            return problems
        if comment["moment"] != params["moment"]:
            problems.append(f"commented on {comment['moment']}, expected {params['moment']}")
        if not same_text(comment["text"], params["comment"]):
            problems.append(f"commented {comment['text']!r}, expected {params['comment']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from _open_moment(ui, params["moment"])
        yield ui.tap(f"comment_{params['moment']}")
        yield Type(text=params["comment"])
        yield ui.tap("comment_send")


TEMPLATES: tuple[TaskTemplate, ...] = (
    SendMessage(),
    GroupReply(),
    MeetingTime(),
    SetRemark(),
    WechatId(),
    MuteNotifications(),
    ToggleSetting(),
    PostMoment(),
    LikeMoment(),
    CommentMoment(),
    *cross.TEMPLATES,
    *mini_tasks.TEMPLATES,
    *tasks_hospital.TEMPLATES,
    *tasks_utilities.TEMPLATES,
    *tasks_tickets.TEMPLATES,
    *tasks_powerbank.TEMPLATES,
    *tasks_fuel.TEMPLATES,
    *tasks_groupbuy.TEMPLATES,
)
