"""Task templates of Huddle: the single-app ones here, the questions in `questions`, the
cross-app ones in `cross` and `cross_more`; `TEMPLATES` lists them all."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.teamchat.base import CLEAR_AFTER, REMIND, TEAMCHAT
from phonebuddy.phoneworld.apps.teamchat.common import (
    MESSAGES_PATH,
    PUBLIC,
    TeamchatTemplate,
    locate,
    message_actions,
    message_params,
    one_post,
    open_home,
    others,
    pick_message,
    quotable,
    same_text,
)
from phonebuddy.phoneworld.apps.teamchat.content import EMOJI, ME
from phonebuddy.phoneworld.apps.teamchat.cross import (
    DeployCodeSms,
    MailLinkToChannel,
    MeetingToCalendar,
    PhoneToContacts,
)
from phonebuddy.phoneworld.apps.teamchat.cross_more import (
    DeployOrAsk,
    LaunchMailChain,
    NoteFigureToThread,
    RepliedOrDm,
)
from phonebuddy.phoneworld.apps.teamchat.questions import ExpensesWeek, TimeGap, TopReacted
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Instruction

REPLY_TEXTS = ("I will take a look today", "Count me in", "Thanks, this helps a lot",
               "Can we discuss it at standup?", "Shipping the fix this afternoon")  # fmt: skip
EMOJI_NAMES = {"+1": "thumbs up", "tada": "party popper", "heart": "heart", "joy": "laughing",
               "eyes": "eyes", "white_check_mark": "check mark"}  # fmt: skip
STATUSES = ("In a meeting", "Out sick", "Commuting", "On vacation", "Focus time",
            "Working remotely")  # fmt: skip
DM_TEXTS = ("Quick reminder: timesheets are due Friday", "The offsite agenda is in the doc",
            "Please review the launch checklist today")  # fmt: skip


class ReplyInThread(TeamchatTemplate):
    id = "teamchat.reply_in_thread"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**pick_message(world, rng), "reply": rng.choice(REPLY_TEXTS)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, t, c, r = params["author"], params["text"], params["channel"], params["reply"]
        return phrased(
            zh=[f"在Huddle的#{c}里，在{a}那条“{t}”消息的话题里回复“{r}”",
                f"帮我回复#{c}中{a}发的“{t}”：在话题（thread）里写“{r}”",
                f"找到{a}在#{c}发的“{t}”，在它的话题中回复“{r}”"],
            en=[f"In Huddle's #{c}, reply '{r}' in the thread of {a}'s message '{t}'",
                f"Please answer {a}'s message '{t}' in #{c} with '{r}', as a thread reply",
                f"Find the message '{t}' that {a} posted in #{c} and reply '{r}' in its thread"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        msg, problems = one_post(diff, params["channel"], params["msg_id"])
        if msg is not None and not same_text(msg["text"], params["reply"]):
            problems.append(f"the reply says {msg['text']!r}, expected {params['reply']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from locate(ui, params["channel"], params["msg_id"])
        yield from message_actions(ui, params["msg_id"])
        yield ui.tap("act_thread")
        yield from ui.type_into("reply", params["reply"])
        yield ui.tap("send")


class React(TeamchatTemplate):
    id = "teamchat.react"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        params = pick_message(world, rng)
        msg = next(m for m in quotable(world, params["channel"]) if m["id"] == params["msg_id"])
        emoji = rng.choice([e for e in EMOJI if ME not in msg["reactions"].get(e, [])])
        return {**params, "emoji": emoji, "name": EMOJI_NAMES[emoji]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, t, c, e, n = (params[k] for k in ("author", "text", "channel", "emoji", "name"))
        return phrased(
            zh=[f"给#{c}里{a}的消息“{t}”加一个 :{e}: 表情回应",
                f"在Huddle上用 :{e}: 回应{a}在#{c}发的“{t}”",
                f"{a}在#{c}说了“{t}”，帮我点一个 :{e}: 表情"],
            en=[f"React to {a}'s message '{t}' in #{c} with :{e}: ({n})",
                f"In Huddle, add a :{e}: ({n}) reaction to the message '{t}' by {a} in #{c}",
                f"{a} posted '{t}' in #{c}; leave a :{e}: ({n}) reaction on it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{MESSAGES_PATH}[{params['msg_id']}]"
        before = diff.value_before(f"{path}/reactions").get(params["emoji"], [])
        return expect_changes(diff, path, {f"{path}/reactions/{params['emoji']}": [*before, ME]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from locate(ui, params["channel"], params["msg_id"])
        yield from message_actions(ui, params["msg_id"])
        yield ui.tap(f"add_{EMOJI.index(params['emoji'])}")


class PinMessage(TeamchatTemplate):
    id = "teamchat.pin"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        return pick_message(world, rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, t, c = params["author"], params["text"], params["channel"]
        return phrased(
            zh=[f"把#{c}里{a}发的“{t}”置顶（Pin）", f"在Huddle里将{a}的消息“{t}”固定到#{c}",
                f"#{c}中{a}那条“{t}”很重要，帮我Pin一下"],
            en=[f"Pin {a}'s message '{t}' in #{c}", f"In Huddle, pin the message '{t}' by {a} "
                f"to #{c}", f"The message '{t}' from {a} in #{c} matters: pin it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{MESSAGES_PATH}[{params['msg_id']}]"
        return expect_changes(diff, path, {f"{path}/pinned": True})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from locate(ui, params["channel"], params["msg_id"])
        yield from message_actions(ui, params["msg_id"])
        yield ui.tap("act_pin")
        yield ui.tap("confirm_pin")


class RemindMe(TeamchatTemplate):
    id = "teamchat.remind"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        key, label = rng.choice(REMIND)
        return {**pick_message(world, rng), "when": key, "label": label.lower()}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, t, c = params["author"], params["text"], params["channel"]
        zh = "1小时后" if params["when"] == "hour" else "明天"
        en = params["label"]
        return phrased(
            zh=[f"为#{c}里{a}的消息“{t}”设置提醒：{zh}提醒我",
                f"在Huddle里对{a}发的“{t}”（#{c}）设一个{zh}的提醒",
                f"{zh}提醒我看一下{a}在#{c}说的“{t}”"],
            en=[f"Set a reminder on {a}'s message '{t}' in #{c}: remind me {en}",
                f"In Huddle, have it remind me {en} about the message '{t}' by {a} in #{c}",
                f"Remind me {en} to look at '{t}', which {a} posted in #{c}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        rem, problems = one_added(diff, f"apps/{TEAMCHAT}/reminders", "reminder")
        if rem is not None and (rem["message"], rem["when"]) != (params["msg_id"], params["when"]):
            problems.append(f"reminder {rem['when']} on {rem['message']}, expected "
                            f"{params['when']} on {params['msg_id']}")  # fmt: skip
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from locate(ui, params["channel"], params["msg_id"])
        yield from message_actions(ui, params["msg_id"])
        yield ui.tap(f"act_remind_{params['when']}")


class DeleteOwn(TeamchatTemplate):
    id = "teamchat.delete_own"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        replied = {m["parent"] for m in world.content(TEAMCHAT)["messages"] if m["parent"]}
        pool = [m for c in PUBLIC for m in quotable(world, c, mine=True) if m["id"] not in replied]
        return message_params(world, rng.choice(pool))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, c = params["text"], params["channel"]
        return phrased(
            zh=[f"删除我在#{c}发的消息“{t}”", f"我在Huddle的#{c}里发的“{t}”发错了，帮我删掉",
                f"把自己在#{c}的那条“{t}”删除"],
            en=[f"Delete my message '{t}' in #{c}",
                f"I posted '{t}' in Huddle's #{c} by mistake; please delete it",
                f"Remove the message '{t}' that I sent in #{c}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        gone = [m["id"] for m in diff.removed(MESSAGES_PATH)]
        expected = [params["msg_id"]]
        return [] if gone == expected else [f"deleted {gone}, expected {expected}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from locate(ui, params["channel"], params["msg_id"])
        yield from message_actions(ui, params["msg_id"])
        yield ui.tap("act_delete")
        yield ui.tap("confirm_delete")


class SetStatus(TeamchatTemplate):
    id = "teamchat.set_status"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        key, label = rng.choice(CLEAR_AFTER[:4])
        return {"text": rng.choice(STATUSES), "clear": key, "label": label}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, label = params["text"], params["label"]
        return phrased(
            zh=[f"把我的Huddle状态设为“{t}”，清除时间选“{label}”",
                f"在Huddle上设置状态“{t}”，并设置在“{label}”后自动清除",
                f"帮我把状态改成“{t}”（清除时间：“{label}”）"],
            en=[f"Set my Huddle status to '{t}', clearing after '{label}'",
                f"In Huddle, set the status '{t}' and have it clear after '{label}'",
                f"Change my status to '{t}' with the clear-after option '{label}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"apps/{TEAMCHAT}/status"
        return expect_changes(diff, path, {f"{path}/text": params["text"],
                                           f"{path}/clear_after": params["clear"]})  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui, "you")
        yield ui.tap("set_status")
        yield from ui.type_into("status_text", params["text"])
        yield ui.tap(f"clear_{params['clear']}")
        yield ui.tap("save_status")


class DmFour(TeamchatTemplate):
    """Long horizon: the same note sent as a DM to four members, each from their profile."""

    id = "teamchat.dm_four"
    difficulty = 26

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, others(world), 4)
        return {"ids": [m["id"] for m in chosen], "names": [m["name"] for m in chosen],
                "text": rng.choice(DM_TEXTS)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        names, t = ", ".join(params["names"]), params["text"]
        zh = "、".join(params["names"])
        return phrased(
            zh=[f"在Huddle上分别私信{zh}，内容都是“{t}”",
                f"给这四位同事各发一条私信“{t}”：{zh}",
                f"帮我把“{t}”单独私信给{zh}每个人"],
            en=[f"In Huddle, send each of {names} a direct message saying '{t}'",
                f"DM these four colleagues '{t}', one message each: {names}",
                f"Send '{t}' as a separate DM to every one of {names}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = diff.added(MESSAGES_PATH)
        where = sorted(m["channel"] for m in added)
        problems = []
        if where != sorted(f"dm-{i}" for i in params["ids"]):
            problems.append(f"messages went to {where}, expected the four DMs")
        problems += [f"{m['channel']} got {m['text']!r}" for m in added
                     if not same_text(m["text"], params["text"]) or m["parent"]]  # fmt: skip
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui)
        yield from ui.scroll_to("members")
        yield ui.tap("members")
        for i, member_id in enumerate(params["ids"]):
            for _ in range(4 if i else 0):  # back to the member list (keyboard, DM, profile)
                if ui.text_of("toolbar_title") == "Members":
                    break
                yield ui.back()
            yield from ui.scroll_to(f"member_{member_id}")
            yield ui.tap(f"member_{member_id}")
            yield ui.tap("message_member")
            yield from ui.type_into("composer", params["text"])
            yield ui.tap("send")


TEMPLATES: tuple[TaskTemplate, ...] = (
    ReplyInThread(),
    React(),
    PinMessage(),
    RemindMe(),
    DeleteOwn(),
    SetStatus(),
    DmFour(),
    ExpensesWeek(),
    TopReacted(),
    TimeGap(),
    MeetingToCalendar(),
    PhoneToContacts(),
    DeployCodeSms(),
    MailLinkToChannel(),
    NoteFigureToThread(),
    LaunchMailChain(),
    RepliedOrDm(),
    DeployOrAsk(),
)
