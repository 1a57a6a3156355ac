"""Task templates of the Health app (运动健康): the app alone here, the cross-app ones in
`cross.py`."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.clock.tasks import (
    replace_text,
)
from phonebuddy.phoneworld.apps.health.app import (
    HEALTH,
    KINDS,
    SPEEDS,
    day_of,
)
from phonebuddy.phoneworld.apps.health.cross import (
    CoachChain,
    ShareBestWorkout,
    ShareOrAlarm,
    WeekTotalToNote,
    WeightsFromNote,
    WeightsToDoctor,
)
from phonebuddy.phoneworld.apps.health.steps import (
    KIND_EN,
    ROOT,
    WEIGHTS,
    add_weight,
    before,
    clock_of,
    health,
    longest_run,
    one_weight,
    open_health,
    week_rows,
    week_steps,
    weekday_forms,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import (
    Expectation,
    Number,
    Text,
    Together,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction


def set_week_steps(it: Interaction, steps: list[int]) -> None:
    """This task's own steps for the last 7 days (today first); active minutes follow."""
    for day in it.data["days"]:
        if day["ago"] < 7:
            day["active"] += steps[day["ago"]] // 180 - day["steps"] // 180
            day["steps"] = steps[day["ago"]]


class HealthTemplate(TaskTemplate):
    category = Category.SINGLE_APP
    apps = (HEALTH,)


class SetGoal(HealthTemplate):
    id = "health.set_goal"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        goal = rng.choice([g for g in range(5000, 20001, 500) if g != health(world)["goal"]])
        return {"goal": goal}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        g = params["goal"]
        return phrased(
            zh=[f"把运动健康的每日步数目标改成{g}步", f"帮我把每天的步数目标设为{g}步",
                f"我想每天走{g}步，在运动健康里把目标设成这个数"],
            en=[f"Change the daily step goal in Health to {g} steps",
                f"Please set my daily step goal to {g} steps",
                f"I want to walk {g} steps a day: set that as the goal in Health"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return expect_changes(diff, f"{ROOT}/goal", {f"{ROOT}/goal": params["goal"]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_health(ui, "open_goal")
        yield from replace_text(ui, "goal", str(params["goal"]))
        yield ui.tap("save_goal")


class LogWeight(HealthTemplate):
    id = "health.log_weight"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        last = health(world)["weights"][-1]["kg"]
        return {"kg": round(last + rng.choice((-0.8, -0.5, -0.3, 0.2, 0.4, 0.7, 1.1)), 1)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        kg = params["kg"]
        return phrased(
            zh=[f"记录一下今天的体重：{kg}公斤", f"在运动健康里添加今天的体重{kg}公斤",
                f"我今天称了体重，{kg}公斤，帮我记上"],
            en=[f"Log today's weight: {kg} kg", f"Add today's weight of {kg} kg in Health",
                f"I weighed {kg} kg today, please record it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return one_weight(diff, 0, params["kg"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_health(ui, "open_weights")
        yield from add_weight(ui, params["kg"])


class DeleteWeight(HealthTemplate):
    id = "health.delete_weight"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        kgs = [w["kg"] for w in health(world)["weights"]]
        entry = pick(rng, [w for w in health(world)["weights"] if kgs.count(w["kg"]) == 1])
        return {"weight_id": entry["id"], "kg": entry["kg"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        kg = params["kg"]
        return phrased(
            zh=[f"体重记录里那条{kg}公斤是记错的，把它删掉",
                f"删除运动健康里{kg}公斤的那条体重记录",
                f"{kg}公斤那次体重记错了，帮我删除"],
            en=[f"The {kg} kg weight entry is wrong; delete it",
                f"Delete the weight record of {kg} kg in Health",
                f"That {kg} kg weigh-in was a mistake, please remove it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [w["id"] for w in diff.removed(WEIGHTS)]
        if removed != [params["weight_id"]]:
            return [f"deleted {removed}, expected only {params['weight_id']}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_health(ui, "open_weights")
        yield from ui.scroll_to(f"delete_{params['weight_id']}")
        yield ui.tap(f"delete_{params['weight_id']}")
        yield ui.tap("confirm_delete")


class WeekTotal(HealthTemplate):
    """Aggregation: the sum of the 7 days on the 周 tab (it shows only the daily average)."""

    id = "health.week_total"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        # this task's own last 7 days of steps (today's so far is fewer)
        steps = [rng.randrange(2000, 18000) if ago else rng.randrange(1500, 6000)
                 for ago in range(7)]  # fmt: skip
        return {"steps": steps}

    def setup(self, it: Interaction, params: Params) -> None:
        set_week_steps(it, params["steps"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["最近7天（含今天）我一共走了多少步？", "算一下运动健康里近7天的步数总和",
                "包括今天在内的这7天，总步数是多少？"],
            en=["How many steps did I walk in total over the last 7 days, today included?",
                "Add up my steps of the last 7 days in Health",
                "What is my total step count for these 7 days including today?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(sum(d["steps"] for d in week_steps(before(diff))), unit="步")

    def wrong_answer(self, params: Params) -> str:
        return "12345步"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        rows: dict[int, tuple[str, int]] = {}
        yield from week_rows(ui, rows)
        yield Answer(text=f"{sum(steps for _, steps in rows.values())}步")


class BestDay(HealthTemplate):
    """Max: the weekday of the last 7 days with the most steps, and its count (Together)."""

    id = "health.best_day"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        # this task's own last 7 days of steps, every day's different (today's so far fewer)
        steps = rng.sample(range(2000, 18000), 6)
        today = rng.choice([n for n in range(1500, 6000) if n not in steps])
        return {"steps": [today, *steps]}

    def setup(self, it: Interaction, params: Params) -> None:
        set_week_steps(it, params["steps"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["近7天里星期几走得最多？那天走了多少步？",
                "查一下最近7天步数最多的是星期几，以及当天的步数",
                "这7天（含今天）我星期几步数最高，是多少步？"],
            en=["On which weekday of the last 7 days did I walk the most, and how many steps?",
                "Find the weekday with the most steps in the last 7 days and its step count",
                "Over these 7 days (today included), which weekday was my best, and with how "
                "many steps?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        best = max(week_steps(before(diff)), key=lambda d: d["steps"])
        index = day_of(clock_of(diff), best["ago"]).weekday()
        forms = weekday_forms(index) + (("今天", "today") if best["ago"] == 0 else ())
        others = [f for i in range(7) if i != index for f in weekday_forms(i)[:1]]
        return Together(Text(forms, others=others, what="weekday"),
                        Number(best["steps"], unit="步"))  # fmt: skip

    def wrong_answer(self, params: Params) -> str:
        return "周一，100步"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        rows: dict[int, tuple[str, int]] = {}
        yield from week_rows(ui, rows)
        ago = max(rows, key=lambda a: rows[a][1])
        yield Answer(text=f"{rows[ago][0]}，{rows[ago][1]}步")


class LongestRun(HealthTemplate):
    """Max over a filtered, scrolled list: the longest run's distance (this task's own runs:
    their times and paces seeded)."""

    id = "health.longest_run"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        runs = {}
        for workout in health(world)["workouts"]:
            if workout["kind"] == "跑步":
                minutes = rng.randrange(20, 75)
                km = round(minutes * rng.uniform(*SPEEDS["跑步"]) / 60, 2)
                runs[workout["id"]] = [minutes, km]
        return {"runs": runs}

    def setup(self, it: Interaction, params: Params) -> None:
        for workout in it.data["workouts"]:
            if workout["id"] in params["runs"]:
                workout["minutes"], workout["distance"] = params["runs"][workout["id"]]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["我跑得最远的一次跑步是多少公里？",
                "在运动记录里找出距离最长的一次跑步，告诉我公里数",
                "最长的那次跑步跑了多少公里？"],
            en=["How many kilometres was my longest run?",
                "Find the longest run in my workout records and tell me its distance in km",
                "What distance did I cover on my longest run?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        runs = [w["distance"] for w in before(diff)["workouts"] if w["kind"] == "跑步"]
        return Number(max(runs), unit="公里")

    def wrong_answer(self, params: Params) -> str:
        return "0.5公里"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        distances: list[float] = []
        yield from longest_run(ui, distances)
        yield Answer(text=f"{max(distances):.2f}公里")


class RecordWorkout(HealthTemplate):
    """Start a workout of a kind and finish it (a confirmation) on the simulated clock."""

    id = "health.record_workout"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"kind": rng.choice(KINDS)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        k, en = params["kind"], KIND_EN[params["kind"]]
        return phrased(
            zh=[f"在运动健康里开始一次“{k}”运动，然后马上结束并保存",
                f"帮我记录一次“{k}”：开始运动后直接点结束",
                f"开始一个“{k}”锻炼再结束它，让运动记录里多一条"],
            en=[f"Start a '{en}' workout in Health, then finish it right away so it is saved",
                f"Record a '{en}' workout: start it and then end it",
                f"Begin a '{en}' workout and finish it, so a new record appears"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = diff.added(f"{ROOT}/workouts")
        if len(added) != 1:
            return [f"expected one new workout, found {len(added)}"]
        if added[0]["kind"] != params["kind"] or added[0]["ago"] != 0:
            return [f"recorded {added[0]['kind']} {added[0]['ago']} days ago, expected "
                    f"{params['kind']} today"]  # fmt: skip
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("运动健康")
        yield from ui.scroll_to("start_workout")
        yield ui.tap("start_workout")
        yield ui.tap(f"start_{KINDS.index(params['kind'])}")
        yield ui.tap("finish")
        yield ui.tap("confirm_finish")


TEMPLATES: tuple[TaskTemplate, ...] = (
    SetGoal(),
    LogWeight(),
    DeleteWeight(),
    WeekTotal(),
    BestDay(),
    LongestRun(),
    WeekTotalToNote(),
    WeightsToDoctor(),
    ShareOrAlarm(),
    WeightsFromNote(),
    RecordWorkout(),
    CoachChain(),
    ShareBestWorkout(),
)
