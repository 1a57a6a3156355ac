"""Cross-app templates of the Health app (运动健康): a 7-day step total written into Notes,
weights texted to a doctor, a conditional share-or-alarm, weights from a note logged one by one
(long horizon), a Notes → Health → Messages chain, a workout shared to WeChat."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.clock.tasks import (
    alarm_problems,
    fill_alarm_editor,
    one_new_alarm,
    open_clock,
)
from phonebuddy.phoneworld.apps.health.app import (
    HEALTH,
    KIND_TABS,
    KINDS,
    date_label,
    summary_text,
)
from phonebuddy.phoneworld.apps.health.steps import (
    ALARM_LABELS,
    CLOCK,
    DOCTORS,
    KIND_EN,
    MESSAGES,
    MESSENGER,
    NOTE_TITLES,
    NOTES,
    WEIGHTS,
    add_weight,
    before,
    clock_of,
    health,
    longest_run,
    open_health,
    share_to_friend,
    week_rows,
    week_steps,
)
from phonebuddy.phoneworld.apps.messages.tasks import (
    add_incoming,
    check_one_sms,
    open_thread,
    sent_messages,
    write_in_conversation,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import (
    Expectation,
    Number,
    check_written,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import friend_with_chat, sent_to_friend
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import NOTES_LIST, WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleUI, texts
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction


class WeekTotalToNote(WritesValue):
    """Health → Notes: the 7-day step total written into a new note."""

    id = "health.week_total_to_note"
    category = Category.CROSS_APP
    apps = (HEALTH, NOTES)
    difficulty = 10
    written = f"{NOTES_LIST}[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"title": rng.choice(NOTE_TITLES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"算出最近7天（含今天）的总步数，记到一条标题为“{t}”的新备忘录里",
                f"新建备忘录“{t}”，内容写上近7天的步数总和",
                f"把这7天（含今天）一共走的步数写进备忘录，标题叫“{t}”"],
            en=[f"Work out my total steps of the last 7 days (today included) and save it in a "
                f"new note titled '{t}'",
                f"Create a note '{t}' holding the sum of my steps over the last 7 days",
                f"Write the total steps of these 7 days (today included) into a note named '{t}'"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(sum(d["steps"] for d in week_steps(before(diff))), unit="步")

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        rows: dict[int, tuple[str, int]] = {}
        yield from week_rows(ui, rows)
        yield ui.open("备忘录")
        yield ui.tap("new_note")
        yield from ui.type_into("title", params["title"])
        yield from ui.type_into("body", f"近7天共{sum(s for _, s in rows.values())}步")
        yield ui.tap("save")


class WeightsToDoctor(TaskTemplate):
    """Messages → Health → Messages: a doctor's SMS asks for the last 3 weights; reply."""

    id = "health.weights_to_doctor"
    category = Category.CROSS_APP
    apps = (MESSAGES, HEALTH)
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        phone, name = rng.choice(DOCTORS)
        return {"phone": phone, "doctor": name}

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["phone"], params["doctor"]),
                     "您好，我是您的家庭医生，请把您最近3次测量的体重数值发给我，谢谢。",
                     ago=1800, key="doctor")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        d = params["doctor"]
        return phrased(
            zh=[f"{d}发短信要我最近3次的体重，从运动健康里查出来用短信回复他（只写体重数值）",
                f"回复{d}的短信：把运动健康里最近3条体重记录的数值发给他",
                f"{d}在短信里问我最近3次体重，帮我查好后短信发过去，只发体重数值"],
            en=[f"{d} texted asking for my last 3 weights; look them up in Health and reply by "
                "SMS with just the numbers",
                f"Reply to {d}'s SMS with the values of my 3 latest weight entries in Health",
                f"{d} asked by SMS for my last 3 weigh-ins: find them and text back only those "
                "numbers"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        kgs = [w["kg"] for w in before(diff)["weights"][:3]]
        return check_written(text, Number(*kgs, every=True), what="the SMS",
                             context=self.question_texts(params))  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_health(ui, "open_weights")
        rows = [n for n in ui.find_all() if ":id/weight_" in n.resource_id][:3]
        kgs = [texts(n)[0].removesuffix("公斤") for n in rows]
        yield from open_thread(ui, params["doctor"])
        yield from write_in_conversation(ui, "、".join(kgs))


class ShareOrAlarm(TaskTemplate):
    """Conditional: yesterday's steps reached the goal → share the latest workout to a WeChat
    friend; otherwise set an alarm. The setup puts the goal just above or below yesterday."""

    id = "health.share_or_alarm"
    category = Category.CROSS_APP
    apps = (HEALTH, MESSENGER, CLOCK)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        steps = next(d["steps"] for d in health(world)["days"] if d["ago"] == 1)
        reached = rng.random() < 0.5
        goal = max(1000, steps // 500 * 500) if reached else (steps // 500 + 1) * 500
        return {"goal": goal, **friend_with_chat(world, rng), "hour": rng.randrange(6, 8),
                "minute": rng.choice((0, 15, 30)), "label": rng.choice(ALARM_LABELS)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        it.app_data(HEALTH)["goal"] = params["goal"]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        f, t, label = params["friend"], f"{params['hour']}:{params['minute']:02d}", params["label"]
        return phrased(
            zh=[f"看看昨天的步数有没有达到目标：达到了就把最近一次运动记录分享到微信发给{f}；没达到就定一个{t}的闹钟，备注“{label}”",
                f"如果昨天步数达标，把最新的一条运动记录通过微信分享给{f}，否则设一个{t}的闹钟，标签写“{label}”",
                f"昨天走够目标步数了吗？够了就把最近的运动分享给微信好友{f}，不够就定个{t}的闹钟（“{label}”）"],
            en=[f"Check whether yesterday's steps reached my goal: if so, share my latest workout "
                f"to {f} on WeChat; if not, set an alarm at {t} labelled '{label}'",
                f"If I met my step goal yesterday, share the most recent workout with {f} on "
                f"WeChat; otherwise add an alarm for {t} named '{label}'",
                f"Did I hit my step goal yesterday? If yes, send my latest workout to {f} via "
                f"WeChat; if no, set a {t} alarm called '{label}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        data = before(diff)
        steps = next(d["steps"] for d in data["days"] if d["ago"] == 1)
        if steps >= data["goal"]:
            sent, problems = sent_to_friend(diff, params)
            summary = summary_text(data["workouts"][0], clock_of(diff))
            if sent and sent.count(summary) != 1:
                problems.append(f"sent {sent}, not the workout summary once")
            return problems
        alarm, problems = one_new_alarm(diff)
        if alarm is None:
            return problems
        return alarm_problems(alarm, params["hour"], params["minute"], params["label"], None)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_health(ui, "open_history")
        if any("（达标）" in t for t in texts(ui.node("day_1"))):
            yield ui.back()
            yield from ui.scroll_to("open_workouts")
            yield ui.tap("open_workouts")
            first = next(n for n in ui.find_all() if ":id/workout_" in n.resource_id)
            yield ui.tap(first.resource_id.rpartition(":id/")[2])
            yield from share_to_friend(ui, params)
        else:
            yield from open_clock(ui)
            yield ui.tap("add_alarm")
            yield from fill_alarm_editor(ui, params["hour"], params["minute"], params["label"],
                                         None)  # fmt: skip


class WeightsFromNote(TaskTemplate):
    """Long horizon, Notes → Health: four weigh-ins listed in a note, each logged for its day."""

    id = "health.weights_from_note"
    category = Category.CROSS_APP
    apps = (NOTES, HEALTH)
    difficulty = 27

    def sample(self, world: World, rng: random.Random) -> Params:
        taken = {w["ago"] for w in health(world)["weights"]}
        agos = sorted(pick(rng, [a for a in range(1, 12) if a not in taken], 4), reverse=True)
        base = health(world)["weights"][-1]["kg"]
        kgs = [round(base + rng.randrange(-12, 12) / 10, 1) for _ in agos]
        return {"agos": agos, "kgs": kgs, "title": "体重补记"}

    def setup(self, it: Interaction, params: Params) -> None:
        body = "\n".join(f"{date_label(it.clock, a)} {kg}公斤"
                         for a, kg in zip(params["agos"], params["kgs"], strict=True))  # fmt: skip
        it.app_data(NOTES)["notes"].insert(0, {"id": "note-task", "title": params["title"],
                                               "body": body, "pinned": False})  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"备忘录“{t}”里记了几天的体重，把它们按日期逐条补记到运动健康里",
                f"把备忘录“{t}”中的每条体重都添加到运动健康的体重记录，日期要对应",
                f"我在备忘录“{t}”写了这几天的体重，帮我一条条录入运动健康（按各自的日期）"],
            en=[f"The note '{t}' lists weights for several days; log each of them in Health on "
                "its date",
                f"Add every weight in the note '{t}' to the weight log in Health, with its date",
                f"I wrote a few days' weights in the note '{t}': enter them one by one in Health, "
                "each on its own date"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = sorted((w["ago"], w["kg"]) for w in diff.added(WEIGHTS))
        wanted = sorted(zip(params["agos"], params["kgs"], strict=True))
        if added != [tuple(p) for p in wanted]:
            return [f"logged {added}, expected {wanted}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["title"])
        yield ui.tap(text=params["title"])
        body = ui.text_of("note_body")
        entries = [line.split() for line in body.splitlines() if line.strip()]
        yield from open_health(ui, "open_weights")
        for date, kg in entries:
            yield from add_weight(ui, float(kg.removesuffix("公斤")), date)


class CoachChain(TaskTemplate):
    """Notes → Health → Messages: the coach's number from a note, the longest run's distance
    from Health, texted to the coach."""

    id = "health.coach_chain"
    category = Category.CROSS_APP
    apps = (NOTES, HEALTH, MESSAGES)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        from phonebuddy.phoneworld.tasks.cross_app.steps import mobile_number

        return {"title": "跑步教练", "coach": rng.choice(("张教练", "刘教练", "赵教练")),
                "phone": mobile_number(rng)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        body = f"{params['coach']} 手机：{params['phone']}"
        it.app_data(NOTES)["notes"].insert(0, {"id": "note-task", "title": params["title"],
                                               "body": body, "pinned": False})  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, c = params["title"], params["coach"]
        return phrased(
            zh=[f"备忘录“{t}”里有{c}的手机号，把我跑得最远那次跑步的公里数发短信给他",
                f"查出我最长一次跑步的距离，短信发给{c}（号码在备忘录“{t}”里）",
                f"{c}想知道我最远跑过多少公里：在运动健康里查好，按备忘录“{t}”里的号码发短信给他"],
            en=[f"The note '{t}' has {c}'s mobile number; text him the distance of my longest run",
                f"Find my longest run's distance and send it by SMS to {c} (number in the note "
                f"'{t}')",
                f"{c} wants to know my longest run: look it up in Health and text it to the "
                f"number in the note '{t}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        runs = [w["distance"] for w in before(diff)["workouts"] if w["kind"] == "跑步"]
        return check_written(text, Number(max(runs), unit="公里"), what="the SMS",
                             context=self.question_texts(params))  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["title"])
        yield ui.tap(text=params["title"])
        phone = ui.text_of("note_body").rpartition("：")[2].strip()
        distances: list[float] = []
        yield from longest_run(ui, distances)
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", phone)
        yield from ui.type_into("body", f"我最远的一次跑步是{max(distances):.2f}公里")
        yield ui.tap("send")


class ShareBestWorkout(TaskTemplate):
    """Health → the share sheet → WeChat: the summary of the longest workout of a kind."""

    id = "health.share_best_workout"
    category = Category.CROSS_APP
    apps = (HEALTH, MESSENGER)
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"kind": rng.choice(KINDS), **friend_with_chat(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        k, en, f = params["kind"], KIND_EN[params["kind"]], params["friend"]
        return phrased(
            zh=[f"把距离最长的那次“{k}”运动记录分享到微信发给{f}",
                f"从运动健康里找出最远的一次“{k}”，通过微信分享给{f}",
                f"{f}想看我最远的“{k}”记录，用分享发到微信给他"],
            en=[f"Share my longest '{en}' workout with {f} on WeChat",
                f"Find the farthest '{en}' workout in Health and share it to {f} via WeChat",
                f"{f} wants to see my longest '{en}' workout: share it to them on WeChat"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        sent, problems = sent_to_friend(diff, params)
        kind = [w for w in before(diff)["workouts"] if w["kind"] == params["kind"]]
        best = max(kind, key=lambda w: w["distance"])
        summary = summary_text(best, clock_of(diff))
        if sent and sent.count(summary) != 1:
            problems.append(f"sent {sent}, not the summary of {best['id']} once")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_health(ui, "open_workouts")
        yield ui.tap(f"kind_{[k for k, _ in KIND_TABS].index(params['kind'])}")
        seen: dict[str, float] = {}
        while True:
            for node in ui.find_all():
                if ":id/workout_" in node.resource_id:
                    title = next(t for t in texts(node) if t.startswith(params["kind"] + " "))
                    seen[node.resource_id.rpartition(":id/")[2]] = float(
                        title.split()[1].removesuffix("公里")
                    )
            if ui.device.scroll_room("content")[1] <= 0:
                break
            yield ui.page_down()
        best = max(seen, key=lambda i: seen[i])
        yield from ui.scroll_to(best)
        yield ui.tap(best)
        yield from share_to_friend(ui, params)
