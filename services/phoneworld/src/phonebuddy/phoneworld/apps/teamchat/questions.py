"""Question templates of Huddle: an amount summed over a scrolled channel, the author of a
channel's most-reacted message, and the gap between two members' local times."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.teamchat.base import TEAMCHAT
from phonebuddy.phoneworld.apps.teamchat.common import (
    MESSAGES_PATH,
    TeamchatTemplate,
    open_channel,
    open_home,
    others,
    to_top,
)
from phonebuddy.phoneworld.apps.teamchat.content import EMOJI, EXPENSE_ITEMS, MEMBERS
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Number, Text, Together
from phonebuddy.phoneworld.tasks.base import Params, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI, texts
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction

AMOUNT = re.compile(r"\$(\d+\.\d{2})")


class ExpensesWeek(TeamchatTemplate):
    """Aggregation over a scrolled channel: the amounts posted in #expenses in 7 days."""

    id = "teamchat.expenses_week"
    difficulty = 14
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        # the days asked about, and this task's own few expenses posted in them lately
        days, people = rng.randint(3, 10), [m["id"] for m in world.content(TEAMCHAT)["members"]]
        posts = []
        for n in range(rng.randint(1, 3)):
            day, cents = rng.randrange(days), rng.randrange(8, 260) * 50
            hour = rng.randrange(7, 9) if day == 0 else rng.randrange(8, 20)  # today: early
            hm = f"{hour:02d}:{rng.randrange(60):02d}"
            posts.append({"id": f"m-expenses-new{n + 1}", "channel": "expenses",
                          "author": rng.choice(people), "day": day, "hm": hm,
                          "text": f"{rng.choice(EXPENSE_ITEMS)}: ${cents // 100}.{cents % 100:02d}",
                          "parent": None, "reactions": {}, "pinned": False,
                          "edited": False})  # fmt: skip
        return {"days": days, "posts": posts}

    def setup(self, it: Interaction, params: Params) -> None:
        it.data["messages"] += [dict(post, reactions={}) for post in params["posts"]]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n = params["days"]
        return phrased(
            zh=[f"Huddle的#expenses频道里，最近{n}天（含今天）大家报的金额加起来是多少美元？",
                f"算一下#expenses中近{n}天（包括今天）发布的所有费用总额（美元）",
                f"最近{n}天（今天也算）在#expenses里贴出的金额总共多少美元？"],
            en=[f"In Huddle's #expenses, what do the amounts posted in the last {n} days (today "
                "included) add up to, in dollars?",
                f"Sum every expense posted in #expenses over the last {n} days, today included",
                f"How many dollars were posted in #expenses during the last {n} days (counting "
                "today)?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        msgs = diff.value_before(MESSAGES_PATH)
        total = sum(float(AMOUNT.search(m["text"])[1]) for m in msgs  # type: ignore[index]
                    if m["channel"] == "expenses" and not m["parent"]
                    and m["day"] < params["days"] and AMOUNT.search(m["text"]))  # fmt: skip
        return Number(round(total, 2))

    def wrong_answer(self, params: Params) -> str:
        return "$10.00"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_channel(ui, "expenses")
        for _ in range(40):  # up from the newest until a date line a week old shows
            old = [n for n in ui.find_all() if ":id/day_" in n.resource_id
                   and int(n.resource_id.rpartition("_")[2]) >= params["days"]]  # fmt: skip
            if old or ui.device.scroll_room("content")[0] <= 0:
                break
            yield ui.page_down(up=True)
        # Date lines and messages in list order: each swipe shows the next ones below.
        shown: dict[str, str] = {}
        while True:
            for node in ui.device.ui_tree().walk():
                rid = node.resource_id.rpartition(":id/")[2]
                if rid.startswith(("day_", "text_")) and rid not in shown:
                    shown[rid] = node.text
            if ui.device.scroll_room("content")[1] <= 0:
                break
            yield ui.page_down()
        total, day = 0.0, None
        for rid, text in shown.items():
            if rid.startswith("day_"):
                day = int(rid.removeprefix("day_"))
            elif day is not None and day < params["days"] and (found := AMOUNT.search(text)):
                total += float(found[1])
        yield Answer(text=f"${total:.2f}")


class TopReacted(TeamchatTemplate):
    """Scroll and compare: who posted the channel's most-reacted message, and its reactions
    (this task's own: a seeded message of the channel drew the most)."""

    id = "teamchat.top_reacted"
    difficulty = 20
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        channel = rng.choice(("general", "design", "random", "launch", "engineering"))
        msgs = [m for m in world.content(TEAMCHAT)["messages"]
                if m["channel"] == channel and not m["parent"]]  # fmt: skip
        top = pick(rng, msgs)
        most = max(_reactions(m) for m in msgs if m is not top)
        total = most + rng.randint(1, 30)
        people = [f"u{i:02d}" for i in range(1, len(MEMBERS)) if f"u{i:02d}" != top["author"]]
        counts = [0] * len(EMOJI)
        for _ in range(total):  # spread over the emojis, at most one of each per person
            counts[rng.choice([i for i, c in enumerate(counts) if c < len(people)])] += 1
        reactions = {e: sorted(rng.sample(people, c)) for e, c in zip(EMOJI, counts, strict=True)
                     if c}  # fmt: skip
        return {"channel": channel, "message": top["id"], "reactions": reactions,
                "author": MEMBERS[int(top["author"][1:])][0], "total": total}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        for m in it.data["messages"]:
            if m["id"] == params["message"]:
                m["reactions"] = {e: list(who) for e, who in params["reactions"].items()}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        c = params["channel"]
        return phrased(
            zh=[f"Huddle的#{c}里，哪条消息收到的表情回应最多？是谁发的？一共多少个回应？",
                f"看看#{c}频道中回应（reaction）总数最多的那条消息的发送者是谁，回应总数是多少",
                f"#{c}里最受欢迎（表情回应最多）的消息出自哪位同事？它收到了几个回应？"],
            en=[f"In Huddle's #{c}, who posted the message with the most reactions, and how many "
                "reactions does it have?",
                f"Find the message in #{c} with the highest total of reactions: who sent it, and "
                "what is the total?",
                f"Which colleague wrote the most-reacted message in #{c}, and how many reactions "
                "did it get?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        msgs = [m for m in diff.value_before(MESSAGES_PATH)
                if m["channel"] == params["channel"] and not m["parent"]]  # fmt: skip
        top = max(msgs, key=_reactions)
        name = MEMBERS[int(top["author"][1:])][0]
        rest = [n for n, *_ in MEMBERS if n != name]
        return Together(Text((name, name.split()[0]), others=rest, what="member"),
                        Number(_reactions(top), unit="个"))  # fmt: skip

    def wrong_answer(self, params: Params) -> str:
        return f"{params['author']}，{params['total'] - 1}个回应"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_channel(ui, params["channel"])
        yield from to_top(ui)
        counts: dict[str, tuple[int, str]] = {}
        while True:
            for node in ui.device.ui_tree().walk():
                rid = node.resource_id.rpartition(":id/")[2]
                if rid.startswith("msg_"):
                    mid = rid.removeprefix("msg_")
                    total = sum(int(t.rsplit(" ", 1)[1]) for n in node.walk()
                                if n.resource_id.rpartition(":id/")[2].startswith(f"react_{mid}_")
                                for t in texts(n)[:1])  # fmt: skip
                    meta = ui.find(f"meta_{mid}")
                    if meta is not None:
                        counts[mid] = (total, meta.text.split("  ")[0])
            if ui.device.scroll_room("content")[1] <= 0:
                break
            yield ui.page_down()
        total, author = max(counts.values())
        yield Answer(text=f"{author}，{total}个回应")


def _reactions(message: Any) -> int:
    return sum(len(who) for who in message["reactions"].values())


class TimeGap(TeamchatTemplate):
    """Compare two members' local times on their profiles."""

    id = "teamchat.time_gap"
    difficulty = 9
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        a, b = pick(rng, others(world), 2)
        while a["tz"] == b["tz"]:
            a, b = pick(rng, others(world), 2)
        return {"first": a["name"], "second": b["name"], "ids": [a["id"], b["id"]],
                "gap": abs(a["tz"] - b["tz"])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["first"], params["second"]
        return phrased(
            zh=[f"在Huddle上查一下{a}和{b}的当地时间，相差几个小时？",
                f"{a}和{b}那边的当地时间差多少小时？看看他们的资料页",
                f"比较{a}与{b}的本地时间：两人相差几小时？"],
            en=[f"In Huddle, check {a}'s and {b}'s local times: how many hours apart are they?",
                f"How many hours is the time difference between {a} and {b}? See their profiles",
                f"Compare the local times of {a} and {b}: by how many hours do they differ?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(params["gap"], signed=False)

    def wrong_answer(self, params: Params) -> str:
        return f"{params['gap'] + 1} hours"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui)
        yield from ui.scroll_to("members")
        yield ui.tap("members")
        offsets = []
        for member_id in params["ids"]:
            yield from ui.scroll_to(f"member_{member_id}")
            yield ui.tap(f"member_{member_id}")
            label = ui.text_of("profile_time").split("(")[1].split(",")[0]
            offsets.append(int(label.removeprefix("UTC") or 0))
            yield ui.back()
        yield Answer(text=f"{abs(offsets[0] - offsets[1])} hours")
