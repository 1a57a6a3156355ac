"""The Health app (运动健康): today's dashboard, the step history by day/week/month, sleep,
heart rate, the weight log (add with validation, delete with a confirmation), workouts (a list
with type chips, a workout's page with 分享, start and finish one on the simulated clock), the
daily step goal and medals.

Every daily record carries `ago`: how many days before the phone's day (the clock's local date)
it lies, so the seeded history always ends on the phone's day whatever day a reset starts.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import local_time
from phonebuddy.phoneworld.ui.theme import AppTheme, Color
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    IconButton,
    ListItem,
    Page,
    Row,
    Spacer,
    Tabs,
    Text,
    TextField,
    Widget,
    Wrap,
)

HEALTH = "com.pw.health"
RED: Color = (235, 60, 70)
PALE_RED: Color = (253, 236, 237)
DAYS = 30
KINDS = ("跑步", "步行", "骑行", "游泳")
KIND_TABS = (("all", "全部"), *((k, k) for k in KINDS))
HISTORY_TABS = (("day", "日"), ("week", "周"), ("month", "月"))
WEEKDAYS = "一二三四五六日"
GOAL_MIN, GOAL_MAX = 1000, 50000
WEIGHT_MIN, WEIGHT_MAX = 20.0, 300.0
# km/h of each kind of workout, low and high
SPEEDS = {"跑步": (8.0, 12.0), "步行": (4.5, 6.0), "骑行": (15.0, 25.0), "游泳": (1.8, 3.0)}


def now(v: View) -> int:
    """The phone's clock (epoch seconds) as a screen reads it."""
    return int(v.os["clock"])


def day_of(clock: int, ago: int) -> dt.date:
    return local_time(clock).date() - dt.timedelta(days=ago)


def date_label(clock: int, ago: int) -> str:
    day = day_of(clock, ago)
    return f"{day.month}月{day.day}日"


def weekday_label(clock: int, ago: int) -> str:
    return "今天" if ago == 0 else f"周{WEEKDAYS[day_of(clock, ago).weekday()]}"


def duration_label(minutes: int) -> str:
    return f"{minutes // 60}小时{minutes % 60}分" if minutes >= 60 else f"{minutes}分钟"


def pace_label(workout: dict[str, Any]) -> str:
    if workout["distance"] <= 0:
        return "--"
    per_km = workout["minutes"] * 60 / workout["distance"]
    return f"{int(per_km // 60)}'{int(per_km % 60):02d}\"/公里"


def clock_label(minute_of_day: int) -> str:
    return f"{minute_of_day // 60 % 24:02d}:{minute_of_day % 60:02d}"


def parse_weight(text: str) -> float | None:
    """'65.3' -> 65.3; None unless a number in range with at most one decimal."""
    text = text.strip().removesuffix("kg").removesuffix("公斤").strip()
    try:
        value = float(text)
    except ValueError:
        return None
    if "." in text and len(text.partition(".")[2]) > 1:
        return None
    return value if WEIGHT_MIN <= value <= WEIGHT_MAX else None


def parse_day(text: str, clock: int) -> int | None:
    """'3月14日' (or '3-14', '3/14') -> how many days ago, within the last DAYS days."""
    cleaned = text.strip().replace("日", "").replace("月", "-").replace("/", "-")
    month, _, day = cleaned.partition("-")
    if not (month.isdigit() and day.isdigit()):
        return None
    today = local_time(clock).date()
    for year in (today.year, today.year - 1):
        try:
            when = dt.date(year, int(month), int(day))
        except ValueError:
            return None
        ago = (today - when).days
        if 0 <= ago < DAYS:
            return ago
    return None


def summary_text(workout: dict[str, Any], clock: int) -> str:
    """The text 分享 sends for a workout."""
    return (f"我在{date_label(clock, workout['ago'])}完成了一次{workout['kind']}："
            f"{workout['distance']:.2f}公里，用时{duration_label(workout['minutes'])}，"
            f"配速{pace_label(workout)}。——运动健康")  # fmt: skip


class Health(App):
    package = HEALTH
    label = Label(zh="运动健康", en="Health")
    domain = "health"
    theme = AppTheme(primary=RED)
    icon_text = "健"
    ignorable = ()

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        days, sleep = [], []
        for ago in range(DAYS):
            steps = rng.randrange(2000, 18000) if ago else rng.randrange(1500, 6000)
            days.append({"id": f"d-{ago:02d}", "ago": ago, "steps": steps,
                         "active": steps // 180 + rng.randrange(0, 15),
                         "heart": rng.randrange(56, 78)})  # fmt: skip
            bed = rng.randrange(22 * 60, 25 * 60 + 30, 5)
            wake = rng.randrange(6 * 60, 8 * 60 + 40, 5) + 24 * 60
            sleep.append({"id": f"s-{ago + 1:02d}", "ago": ago + 1, "bed": bed,
                          "minutes": wake - bed, "deep": rng.randrange(15, 31)})  # fmt: skip
        weights, kg = [], round(rng.uniform(55, 85), 1)
        for i, ago in enumerate(range(DAYS - 1, 0, -3)):
            kg = round(kg + rng.uniform(-0.6, 0.5), 1)
            weights.append({"id": f"w-{i + 1:02d}", "ago": ago, "kg": kg,
                            "time": f"0{rng.randrange(6, 9)}:{rng.randrange(60):02d}"})  # fmt: skip
        workouts = []
        run_days = sorted(rng.sample(range(1, DAYS), 22), reverse=True)
        for i, ago in enumerate(run_days):
            kind = KINDS[i % len(KINDS)] if i < 8 else rng.choice(KINDS)
            minutes = rng.randrange(20, 75)
            speed = rng.uniform(*SPEEDS[kind])
            start = f"{rng.randrange(6, 21):02d}:{rng.choice((0, 15, 30, 45)):02d}"
            workouts.append({"id": f"r-{i + 1:02d}", "ago": ago, "kind": kind,
                             "minutes": minutes, "distance": round(minutes * speed / 60, 2),
                             "start": start})  # fmt: skip
        return {"days": days, "sleep": sleep, "weights": weights, "workouts": workouts[::-1],
                "goal": rng.choice((6000, 8000, 10000, 12000))}  # fmt: skip

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "days": clone(content["days"]),
            "sleep": clone(content["sleep"]),
            "weights": clone(content["weights"])[::-1],
            "workouts": clone(content["workouts"]),
            "goal": content["goal"],
            "active": None,
        }

    # -- handlers (the only place data changes) -----------------------------------------------
    @staticmethod
    def steps_on(data: dict[str, Any], ago: int) -> int:
        return next(d["steps"] for d in data["days"] if d["ago"] == ago)

    @staticmethod
    def clear_field(it: Interaction, name: str) -> None:
        if not it.field(name):
            it.no_op(f"{name} is already empty")
        it.set_field(name, "")
        it.focus(name)

    def save_goal(self, it: Interaction) -> None:
        text = it.field("goal").strip()
        if not text.isdigit() or not GOAL_MIN <= int(text) <= GOAL_MAX:
            it.set_ui("error", f"请输入{GOAL_MIN}–{GOAL_MAX}之间的整数")
            it.no_op(f"{text!r} is not a step goal")
        if int(text) == it.data["goal"]:
            it.no_op("the goal did not change")
        it.data["goal"] = int(text)
        it.set_ui("error", None)
        it.pop()
        it.toast("目标已更新")

    def add_weight(self, it: Interaction) -> None:
        kg = parse_weight(it.field("kg"))
        if kg is None:
            it.set_ui("error", "请输入20–300之间的体重，最多一位小数")
            it.no_op(f"{it.field('kg')!r} is not a weight")
        ago = parse_day(it.field("date"), it.clock) if it.field("date").strip() else 0
        if ago is None:
            it.set_ui("error", f"请输入最近{DAYS}天内的日期，如 3月14日")
            it.no_op(f"{it.field('date')!r} is not a recent day")
        now = local_time(it.clock)
        entry = {"id": it.new_id("w"), "ago": ago, "kg": kg, "time": f"{now:%H:%M}"}
        it.data["weights"].append(entry)
        it.data["weights"].sort(key=lambda w: (w["ago"], w["id"] != entry["id"]))
        it.set_ui("error", None)
        it.pop()
        it.toast("已记录体重")

    def delete_weight(self, it: Interaction, weight_id: str) -> None:
        if not any(w["id"] == weight_id for w in it.data["weights"]):
            it.no_op(f"no weight {weight_id}")
        it.data["weights"] = [w for w in it.data["weights"] if w["id"] != weight_id]
        it.set_ui("dialog", None)
        it.toast("已删除")

    def start_workout(self, it: Interaction, kind: str) -> None:
        if it.data["active"] is not None:
            it.no_op("a workout is already running")
        it.data["active"] = {"kind": kind, "started": it.clock}
        it.replace("live")

    def finish_workout(self, it: Interaction) -> None:
        active = it.data["active"]
        if active is None:
            it.no_op("no workout is running")
        minutes = max(1, (it.clock - active["started"]) // 60)
        speed = sum(SPEEDS[active["kind"]]) / 2
        it.data["workouts"].insert(0, {
            "id": it.new_id("r"), "ago": 0, "kind": active["kind"], "minutes": minutes,
            "distance": round(minutes * speed / 60, 2),
            "start": f"{local_time(active['started']):%H:%M}",
        })  # fmt: skip
        it.data["active"] = None
        it.set_ui("dialog", None)
        it.reset_to("home")
        it.push("workouts")
        it.toast("运动已结束并保存")

    def share_workout(self, it: Interaction, workout_id: str) -> None:
        workout = next((w for w in it.data["workouts"] if w["id"] == workout_id), None)
        if workout is None:
            it.no_op(f"no workout {workout_id}")
        it.share({"kind": "text", "text": summary_text(workout, it.clock)})

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        data = v.data
        today = next(d for d in data["days"] if d["ago"] == 0)
        km = today["steps"] * 0.7 / 1000
        done = min(100, today["steps"] * 100 // data["goal"])
        dashboard = Card(
            [
                Text("今日步数", size=36, color=theme.TEXT_SECONDARY),
                Text(f"{today['steps']}", size=80, bold=True, color=RED, id="today_steps"),
                Text(f"目标 {data['goal']} 步 · 已完成 {done}%", size=34, id="today_goal"),
                Text(f"距离 {km:.2f}公里 · 热量 {today['steps'] * 4 // 100}千卡 · "
                     f"中高强度 {today['active']}分钟", size=34, color=theme.TEXT_SECONDARY,
                     id="today_more"),
            ],
            fill=PALE_RED,
        )  # fmt: skip
        last_sleep = data["sleep"][0]
        last_weight = data["weights"][0] if data["weights"] else None
        rows: list[Widget | None] = [
            dashboard,
            ListItem("步数记录", subtitle="按日、周、月查看", trailing="›",
                     on_tap=v.go("history"), id="open_history"),
            ListItem("睡眠", subtitle=f"昨晚 {duration_label(last_sleep['minutes'])}",
                     trailing="›", on_tap=v.go("sleep"), id="open_sleep"),
            ListItem("心率", subtitle=f"今日静息心率 {today['heart']} 次/分", trailing="›",
                     on_tap=v.go("heart"), id="open_heart"),
            ListItem("体重", subtitle=f"{last_weight['kg']}公斤" if last_weight else "暂无记录",
                     trailing="›", on_tap=v.go("weights"), id="open_weights"),
            ListItem("运动记录", subtitle=f"共{len(data['workouts'])}次", trailing="›",
                     on_tap=v.go("workouts"), id="open_workouts"),
            ListItem("每日目标", subtitle=f"{data['goal']}步", trailing="›",
                     on_tap=v.go("goal", fields={"goal": str(data["goal"])}), id="open_goal"),
            ListItem("勋章", subtitle="查看获得的成就", trailing="›", on_tap=v.go("medals"),
                     id="open_medals"),
            Button("继续运动" if data["active"] else "开始运动",
                   v.go("live") if data["active"] else v.go("start"), id="start_workout"),
            Spacer(60),
        ]  # fmt: skip
        return Page("运动健康", rows, body_padding=30, spacing=16)

    @screen("history")
    def history(self, v: View) -> Page:
        tab, data, clock = v.ui("tab", "day"), v.data, now(v)
        goal = data["goal"]
        rows: list[Widget | None] = []

        def day_row(d: dict[str, Any]) -> ListItem:
            reached = "（达标）" if d["steps"] >= goal else ""
            return ListItem(
                f"{date_label(clock, d['ago'])} {weekday_label(clock, d['ago'])}",
                subtitle=f"{d['steps'] * 0.7 / 1000:.2f}公里 · {d['steps'] * 4 // 100}千卡 · "
                f"{d['active']}分钟{reached}",
                trailing=f"{d['steps']}步",
                id=f"day_{d['ago']}",
            )

        if tab == "day":
            rows += [day_row(d) for d in data["days"]]
        elif tab == "week":
            week = [d for d in data["days"] if d["ago"] < 7]
            average = sum(d["steps"] for d in week) // len(week)
            rows.append(Text(f"近7天日均 {average} 步", size=40, bold=True, id="week_average"))
            rows += [day_row(d) for d in week]
        else:
            total = sum(d["steps"] for d in data["days"])
            reached = sum(d["steps"] >= goal for d in data["days"])
            rows += [
                Text(f"近{DAYS}天共 {total} 步", size=40, bold=True, id="month_total"),
                Text(f"日均 {total // DAYS} 步 · 达标 {reached} 天", size=36, id="month_more"),
            ]
        return Page("步数记录", [*rows, Spacer(60)], header=Tabs(HISTORY_TABS, tab,
                    v.on_select("tab")), on_back=v.back())  # fmt: skip

    @screen("sleep")
    def sleep(self, v: View) -> Page:
        rows: list[Widget | None] = [
            ListItem(
                f"{date_label(now(v), s['ago'])} {clock_label(s['bed'])}–"
                f"{clock_label(s['bed'] + s['minutes'])}",
                subtitle=f"深睡占比 {s['deep']}%",
                trailing=duration_label(s["minutes"]),
                id=f"night_{s['ago']}",
            )
            for s in v.data["sleep"]
        ]
        return Page("睡眠", [*rows, Spacer(60)], on_back=v.back())

    @screen("heart")
    def heart(self, v: View) -> Page:
        rows: list[Widget | None] = [
            ListItem(f"{date_label(now(v), d['ago'])} {weekday_label(now(v), d['ago'])}",
                     subtitle="静息心率", trailing=f"{d['heart']}次/分", id=f"heart_{d['ago']}")
            for d in v.data["days"]
        ]  # fmt: skip
        return Page("心率", [*rows, Spacer(60)], on_back=v.back())

    @screen("weights")
    def weights(self, v: View) -> Page:
        rows: list[Widget | None] = []
        for w in v.data["weights"]:
            rows.append(ListItem(
                f"{w['kg']}公斤", subtitle=f"{date_label(now(v), w['ago'])} {w['time']}",
                action=IconButton("delete", "删除", v.set_ui("dialog", w["id"]),
                                  id=f"delete_{w['id']}"),
                id=f"weight_{w['id']}",
            ))  # fmt: skip
        if not rows:
            rows.append(Text("暂无体重记录", color=theme.TEXT_SECONDARY, padding=40,
                             align="center"))  # fmt: skip
        dialog = None
        chosen = next((w for w in v.data["weights"] if w["id"] == v.ui("dialog")), None)
        if chosen is not None:
            dialog = v.confirm(
                "删除这条体重记录？",
                v.do(self.delete_weight, chosen["id"]),
                message=f"{date_label(now(v), chosen['ago'])} {chosen['kg']}公斤，删除后不可恢复。",
                label="删除",
                confirm_id="confirm_delete",
                danger=True,
            )
        add = v.go("add_weight", fields={"kg": "", "date": ""})
        return Page("体重", [*rows, Spacer(60)], on_back=v.back(), overlay=dialog,
                    actions=[IconButton("plus", "记录体重", add, id="add_weight")])  # fmt: skip

    @screen("add_weight")
    def add_weight_page(self, v: View) -> Page:
        error = v.ui("error")
        return Page(
            "记录体重",
            [
                TextField(
                    "date",
                    v.field("date"),
                    "日期，如 3月14日（留空为今天）",
                    on_focus=v.focus("date"),
                ),
                TextField("kg", v.field("kg"), "体重（公斤）", on_focus=v.focus("kg")),
                Text(error, color=RED, size=34, id="error") if error else None,
                Button("保存", v.do(self.add_weight), id="save_weight"),
            ],
            on_back=v.back(),
            body_padding=40,
            spacing=30,
        )

    @screen("workouts")
    def workouts(self, v: View) -> Page:
        kind = v.ui("kind", "all")
        rows: list[Widget | None] = []
        for w in v.data["workouts"]:
            if kind != "all" and w["kind"] != kind:
                continue
            rows.append(ListItem(
                f"{w['kind']} {w['distance']:.2f}公里",
                subtitle=f"{date_label(now(v), w['ago'])} {w['start']} · "
                f"{duration_label(w['minutes'])}",
                trailing="›", on_tap=v.go("workout", workout_id=w["id"]), id=f"workout_{w['id']}",
            ))  # fmt: skip
        if not rows:
            rows.append(Text("暂无运动记录", color=theme.TEXT_SECONDARY, padding=40,
                             align="center"))  # fmt: skip
        chips = Wrap([Chip(label, selected=key == kind, on_tap=v.set_ui("kind", key),
                           id=f"kind_{i}")
                      for i, (key, label) in enumerate(KIND_TABS)])  # fmt: skip
        return Page("运动记录", [chips, *rows, Spacer(60)], on_back=v.back())

    @screen("workout")
    def workout(self, v: View) -> Page:
        w = next((w for w in v.data["workouts"] if w["id"] == v.params["workout_id"]), None)
        if w is None:
            return Page("运动详情", [Text("该记录不存在", padding=40)], on_back=v.back())
        return Page(
            "运动详情",
            [
                Text(w["kind"], size=56, bold=True, color=RED, id="kind"),
                Text(f"{date_label(now(v), w['ago'])} {w['start']}", size=38, id="when"),
                Text(f"距离 {w['distance']:.2f}公里", size=44, id="distance"),
                Text(f"用时 {duration_label(w['minutes'])}", size=40, id="duration"),
                Text(f"配速 {pace_label(w)}", size=40, id="pace"),
            ],
            on_back=v.back(),
            actions=[IconButton("share", "分享", v.do(self.share_workout, w["id"]), id="share")],
            body_padding=40,
            spacing=24,
        )

    @screen("start")
    def start(self, v: View) -> Page:
        return Page(
            "开始运动",
            [Button(kind, v.do(self.start_workout, kind), id=f"start_{KINDS.index(kind)}")
             for kind in KINDS],
            on_back=v.back(), body_padding=40, spacing=24,
        )  # fmt: skip

    @screen("live")
    def live(self, v: View) -> Page:
        active = v.data["active"]
        if active is None:
            return Page("运动中", [Text("没有进行中的运动", padding=40)], on_back=v.back())
        seconds = now(v) - active["started"]
        dialog = None
        if v.ui("dialog") == "finish":
            dialog = v.confirm("结束本次运动？", v.do(self.finish_workout),
                               message="结束后将保存本次运动记录。", label="结束",
                               confirm_id="confirm_finish")  # fmt: skip
        return Page(
            f"{active['kind']}中",
            [
                Text(f"{seconds // 60:02d}:{seconds % 60:02d}", size=90, bold=True, id="elapsed"),
                Button("结束", v.set_ui("dialog", "finish"), id="finish"),
            ],
            on_back=v.back(), overlay=dialog, body_padding=40, spacing=30,
        )  # fmt: skip

    @screen("goal")
    def goal(self, v: View) -> Page:
        error = v.ui("error")
        return Page(
            "每日步数目标",
            [
                Text(f"当前目标：{v.data['goal']}步", size=40, id="current_goal"),
                Row([
                    TextField("goal", v.field("goal"), "每日步数（1000–50000）",
                              on_focus=v.focus("goal")),
                    IconButton("close", "清除", v.do(self.clear_field, "goal"), id="clear_goal"),
                ]),
                Text(error, color=RED, size=34, id="error") if error else None,
                Button("保存", v.do(self.save_goal), id="save_goal"),
            ],
            on_back=v.back(), body_padding=40, spacing=30,
        )  # fmt: skip

    @screen("medals")
    def medals(self, v: View) -> Page:
        data = v.data
        best = max(d["steps"] for d in data["days"])
        longest = max((w["distance"] for w in data["workouts"] if w["kind"] == "跑步"), default=0)
        reached = sum(d["steps"] >= data["goal"] for d in data["days"])
        medals = (
            ("万步达人", best >= 10000, "单日步数超过10000步"),
            ("五公里跑者", longest >= 5, "单次跑步超过5公里"),
            ("十公里跑者", longest >= 10, "单次跑步超过10公里"),
            ("坚持不懈", reached >= 10, "30天内10天达成步数目标"),
            ("运动新星", len(data["workouts"]) >= 10, "累计完成10次运动"),
        )
        rows: list[Widget | None] = [
            ListItem(name, subtitle=rule, trailing="已获得" if got else "未获得",
                     id=f"medal_{i}")
            for i, (name, got, rule) in enumerate(medals)
        ]  # fmt: skip
        return Page("勋章", rows, on_back=v.back())
