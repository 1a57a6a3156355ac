"""Every question-answer template on several seeds, judged by its own verifier after the oracle
has played: the exact answer and its natural variants (units, currencies, Chinese numerals,
12- and 24-hour times, zh and en names, short sentences) pass; an answer listing candidates
that include the right one fails, and so does the right value buried in copied screen text.
An RL policy must not be able to earn the reward by dumping lists."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import pytest

from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.state import Doc
from phonebuddy.phoneworld.tasks.answers import (
    MONEY_UNITS,
    ClockTime,
    ClockTimes,
    DataSize,
    Date,
    Duration,
    Expectation,
    Money,
    Number,
    Text,
    TextSet,
    Together,
    Token,
    YesNo,
    unit_family,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.runner import (
    evaluate,
    ignorable_paths,
    instantiate,
    run_oracle,
    start,
)
from phonebuddy.phoneworld.tasks.suites import suite_templates
from phonebuddy.phoneworld.world import default_world
from phonebuddy.protocol import Open

SEEDS = (0, 1, 2, 3, 4)
QA = tuple(t for t in suite_templates("all") if t.answers)  # held-out ones too
CASES = [(t, seed) for t in QA for seed in SEEDS]
IDS = [f"{t.id}-{seed}" for t, seed in CASES]
CN = "零一二三四五六七八九"
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")  # fmt: skip
FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
STATUS_BAR = re.compile(r"Wi-Fi \d+%")


@dataclass(frozen=True)
class Solved:
    """A template played by its oracle: the start and end states, the oracle's answer, what
    the answer must state, the texts on the last screen and the app's own among them (no
    status bar)."""

    template: TaskTemplate
    params: Params
    before: Doc
    after: Doc
    answer: str | None
    expected: Expectation
    screen: tuple[str, ...]
    app_texts: tuple[str, ...]

    def passes(self, answer: str | None) -> bool:
        world = default_world(0)
        return evaluate(world, self.template, self.params, self.before, self.after, answer).success


@functools.cache
def solved(template_id: str, seed: int) -> Solved:
    world = default_world(0)
    template = next(t for t in QA if t.id == template_id)
    device = Device(world, device_id="qa")
    instance = instantiate(template, world, seed)
    before = start(device, instance)
    _, answer = run_oracle(device, template, instance.params)
    after = device.snapshot()
    diff = StateDiff(before, after, ignorable=ignorable_paths(world, template))
    nodes = [node for node in device.ui_tree().walk() if node.text]
    screen = tuple(node.text for node in nodes)
    app_texts = tuple(
        node.text
        for node in nodes
        if not node.resource_id.startswith("com.android.systemui:")
        and not STATUS_BAR.fullmatch(node.text)
    )
    expected = template.expected_answer(diff, instance.params)
    return Solved(template, instance.params, before, after, answer, expected, screen, app_texts)


# -- natural answers ----------------------------------------------------------------------------


def chinese(n: int) -> str:
    if n < 10:
        return CN[n]
    tens, ones = divmod(n, 10)
    return f"{CN[tens] if tens > 1 else ''}十{CN[ones] if ones else ''}"


def twelve_hour(hour: int, minute: int) -> str:
    return f"{hour % 12 or 12}:{minute:02d} {'pm' if hour >= 12 else 'am'}"


def spoken_zh(hour: int, minute: int) -> str:
    period = "凌晨" if hour < 6 else "上午" if hour < 12 else "下午" if hour < 18 else "晚上"
    rest = "" if minute == 0 else "半" if minute == 30 else f"{minute:02d}分"
    return f"{period}{hour % 12 or 12}点{rest}"


def number_forms(value: float, unit: str, *, money: bool) -> list[str]:
    shown = f"{value:.12g}"  # every digit: 11554.98 stays 11554.98
    forms = [shown, f"{shown}{unit}", f"答案是{shown}{unit}", f"The answer is {shown}.",
             shown.translate(FULL_WIDTH)]  # fmt: skip
    if money:
        forms += [f"¥{value:.2f}", f"{value:.2f}元", f"{value:,.2f} yuan", f"RMB {value:.2f}",
                  f"It costs ¥{value:.2f}.", f"一共{shown}块"]  # fmt: skip
        if round(value * 10) == value * 10 and value != int(value):
            forms.append(f"{int(value)}块{round(value * 10) % 10}")
    elif unit:
        forms += [f"共{shown}{unit}", f"There are {shown}{unit.strip()} in all."]
    else:
        forms.append(f"是{shown}")
    if value == int(value) and 0 <= value < 100 and not money:
        forms += [chinese(int(value)), f"有{chinese(int(value))}{unit}"]
    if value != int(value) and value * 2 == int(value * 2) and unit == "小时":
        forms.append(f"{int(value)}个半小时")
    return forms


def clock_forms(hour: int, minute: int) -> list[str]:
    return [f"{hour:02d}:{minute:02d}", f"{hour}:{minute:02d}", twelve_hour(hour, minute),
            spoken_zh(hour, minute), f"是{hour:02d}:{minute:02d}",
            f"It is at {twelve_hour(hour, minute).upper()}."]  # fmt: skip


def duration_forms_to_the_second(total: int) -> list[str]:
    minutes, seconds = divmod(total, 60)
    forms = [f"{minutes}分{seconds}秒", f"{minutes}分钟{seconds}秒", f"共{minutes}分{seconds}秒",
             f"{minutes:02d}:{seconds:02d}", f"{total}秒", f"{minutes} min {seconds} s",
             f"{minutes} minutes and {seconds} seconds",
             f"It is {minutes}m{seconds}s."]  # fmt: skip
    if minutes < 100:
        forms.append(f"{chinese(minutes)}分{chinese(seconds)}秒" if seconds else
                     f"{chinese(minutes)}分钟")  # fmt: skip
    return forms


def duration_forms(minutes: int) -> list[str]:
    hours, rest = divmod(minutes, 60)
    forms = [f"{minutes}分钟", f"{minutes} minutes", f"要{minutes}分钟"]
    if hours:
        zh = f"{hours}小时{rest}分钟" if rest else f"{hours}小时"
        en = f"{hours} hours {rest} minutes" if rest else f"{hours} hours"
        forms += [zh, f"需要{zh}", en, f"It takes {hours} h {rest} min.", f"{hours}:{rest:02d}"]
        if hours < 100:
            spoken = f"{chinese(rest)}分" if rest else ""
            forms.append(f"{chinese(hours)}小时{spoken}")
        if rest == 30:
            forms += [f"{hours}个半小时", f"{hours}.5小时"]
    if minutes < 100:
        forms.append(f"{chinese(minutes)}分钟")
    return forms


def natural_answers(expected: Expectation) -> list[str]:
    match expected:
        case Together(parts=(Date() as date, ClockTime() as clock)):
            ((month, day),) = date.accepted
            ((hour, minute),) = clock.accepted
            return [
                f"{month}月{day}日 {hour:02d}:{minute:02d}",
                f"{month}/{day} {spoken_zh(hour, minute)}",
                f"{MONTHS[month - 1]} {day} at {twelve_hour(hour, minute)}",
            ]
        case Together(parts=(Token() as train, ClockTime() as clock)):
            (number,) = train.accepted
            ((hour, minute),) = clock.accepted
            return [
                f"{number}，{hour:02d}:{minute:02d} 发车",
                f"{number.lower()} {spoken_zh(hour, minute)}开",
                f"Train {number}, leaving at {twelve_hour(hour, minute)}",
            ]
        case Together(parts=(YesNo() as rain, Text() as weather)):
            rains = True in rain.accepted
            said = (
                ["会下雨", "会", "Yes, it will rain:"]
                if rains
                else ["不会下雨", "不会", "No, it won't rain;"]
            )
            return [f"{said[0]}，{weather.forms[0]}", f"{said[1]}，天气是{weather.forms[-1]}",
                    f"{said[2]} {weather.forms[0]}."]  # fmt: skip
        case Together(parts=(first, second)):
            pairs = zip(natural_answers(first)[:3], natural_answers(second)[:3], strict=False)
            return [f"{a}，{b}" if i % 2 == 0 else f"{a}; {b}" for i, (a, b) in enumerate(pairs)]
        case Date():
            ((month, day),) = expected.accepted
            return [f"{month}月{day}日", f"{month}/{day}", f"{MONTHS[month - 1]} {day}"]
        case ClockTimes():
            times = [f"{h:02d}:{m:02d}" for h, m in sorted(expected.accepted)]  # type: ignore[misc]
            return ["、".join(times), ", ".join(times), f"有{'和'.join(times)}这几场"]
        case ClockTime():
            ((hour, minute),) = expected.accepted
            return clock_forms(hour, minute)
        case Duration() if expected.to_the_second:
            (seconds,) = expected.accepted
            return duration_forms_to_the_second(int(seconds))  # type: ignore[call-overload]
        case Duration():
            (minutes,) = expected.accepted
            return duration_forms(int(minutes))  # type: ignore[call-overload]
        case DataSize():
            mb, gb = expected.by_unit["mb"], expected.by_unit["gb"]
            return [f"{mb:g} MB", f"{mb:g}MB", f"共{mb:g} MB", f"占了{mb:g}M", f"{gb:g} GB",
                    f"It takes {mb:g} MB."]  # fmt: skip
        case Money():
            return [f for value in expected.accepted for f in number_forms(value, "元", money=True)]
        case Number():
            return [
                f for v in expected.accepted for f in number_forms(v, expected.unit, money=False)
            ]
        case YesNo():
            if True in expected.accepted:
                return ["会下雨", "会", "会，有小雨", "Yes, it will rain."]
            return ["不会下雨", "不会", "不会，是晴天", "No, it won't rain."]
        case Token():
            (value,) = expected.accepted
            forms = [value, f"是{value}", f"答案：{value}。", f"It is {value}."]
            if expected.what == "phone number":
                forms += [f"{value[:3]} {value[3:7]} {value[7:]}", f"+86 {value}"]
            return forms
        case TextSet():
            names = expected.names
            return [
                "、".join(names),
                "，".join(names),
                " and ".join(names),
                f"有{'和'.join(names)}",
            ]
        case Text():
            return [*expected.forms, f"是{expected.forms[0]}", f"答案是：{expected.forms[-1]}。",
                    f"The answer is {expected.forms[-1]}."]  # fmt: skip
    raise AssertionError(f"no natural answers for {expected!r}")


# -- lists of candidates ------------------------------------------------------------------------

TIME = re.compile(r"\d{1,2}:\d{2}")


def candidate_lists(expected: Expectation, screen: tuple[str, ...]) -> list[str]:
    """Answers that state the right value among others of its kind."""
    on_screen = sorted({t for text in screen for t in TIME.findall(text)})
    match expected:
        case Together(parts=(first, second)):
            (right,) = natural_answers(second)[:1]
            return [f"{lst} {right}" for lst in candidate_lists(first, screen)[1:]] + [
                f"{natural_answers(first)[0]} {lst}" for lst in candidate_lists(second, screen)[1:]
            ]
        case Date():
            ((month, day),) = expected.accepted
            return [
                "",
                f"{month}月{day}日、{month}月{day % 28 + 1}日",
                f"{month % 12 + 1}/{day} {month}/{day}",
            ]
        case ClockTimes():
            times = [f"{h:02d}:{m:02d}" for h, m in sorted(expected.accepted)]  # type: ignore[misc]
            extra = next(f"{h:02d}:30" for h in range(24) if f"{h:02d}:30" not in times)
            return [" ".join(on_screen + times), "、".join([*times, extra])]
        case ClockTime():
            ((hour, minute),) = expected.accepted
            right = f"{hour:02d}:{minute:02d}"
            return [" ".join([*on_screen, right]), f"{right}、{(hour + 1) % 24:02d}:{minute:02d}",
                    " ".join(f"{h}点" for h in range(24))]  # fmt: skip
        case Duration() if expected.to_the_second:
            minutes, seconds = divmod(int(*expected.accepted), 60)  # type: ignore[call-overload]
            return [f"{minutes}分{seconds}秒、{minutes}分{(seconds + 1) % 60}秒",
                    f"{minutes:02d}:{seconds:02d} 或 {minutes + 1:02d}:{seconds:02d}",
                    " ".join(map(str, range(301)))]  # fmt: skip
        case Duration():
            minutes = int(*expected.accepted)  # type: ignore[call-overload]
            return [f"{minutes}分钟、{minutes + 5}分钟", f"{minutes}分钟 或 {minutes + 60}分钟",
                    " ".join(map(str, range(301)))]  # fmt: skip
        case DataSize():
            mb = expected.by_unit["mb"]
            return [f"{mb - 1:g} MB、{mb:g} MB", f"{mb:g} MB 或 {mb + 10:g} MB",
                    " ".join(f"{n} MB" for n in range(301))]  # fmt: skip
        case Number():
            (value, *_) = sorted(expected.accepted)
            shown = f"¥{value:.2f}" if isinstance(expected, Money) else f"{value:.12g}"
            nearby = [f"{value - 1:.12g}", shown, f"{value + 1:.12g}"]
            return [
                " ".join(map(str, range(301))),
                "、".join(nearby),
                f"{shown} 或 {value + 10:.12g}",
            ]
        case YesNo():
            return ["会下雨，不会", "yes or no", "可能会下雨"]
        case Token():
            (value,) = expected.accepted
            other = value[:-1] + ("1" if value[-1] != "1" else "2")
            return [f"{value} {other}", f"{other}、{value}"]
        case TextSet():
            names = list(expected.names)
            return [
                "、".join([*names, *expected.others[:1]]),
                "、".join([*expected.others[:3], *names]),
            ]
        case Text():
            return [f"{expected.forms[0]}、{expected.others[0]}",
                    " ".join([*expected.others[:2], expected.forms[0]]),
                    " ".join(dict.fromkeys(screen))]  # fmt: skip
    raise AssertionError(f"no candidate lists for {expected!r}")


def buried(answer: str, screen: tuple[str, ...]) -> str:
    """The answer among the screen's texts around it, copied as one string of <= 200 chars."""
    at = next((i for i, text in enumerate(screen) if answer in text), len(screen) // 2)
    left, right = list(screen[:at]), list(screen[at + 1 :])
    window = [answer]
    while left or right:
        grown = [left[-1], *window] if left else window
        grown = [*grown, right[0]] if right else grown
        if len(" ".join(grown)) > 200:
            break
        window = grown
        left, right = left[:-1], right[1:]
    return " ".join(window)


# -- the tests ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("template", "seed"), CASES, ids=IDS)
def test_exact_and_natural_answers_pass(template: TaskTemplate, seed: int) -> None:
    done = solved(template.id, seed)
    assert done.passes(done.answer), (done.answer, done.expected)
    rejected = [a for a in natural_answers(done.expected) if not done.passes(a)]
    assert not rejected, (done.expected, rejected)


@pytest.mark.parametrize(("template", "seed"), CASES, ids=IDS)
def test_candidate_lists_with_the_right_value_fail(template: TaskTemplate, seed: int) -> None:
    done = solved(template.id, seed)
    lists = candidate_lists(done.expected, done.screen)
    # The dump from the issue: every integer 0-300, every time and every string on screen.
    times = sorted({t for text in done.screen for t in TIME.findall(text)})
    lists.append(" ".join([*map(str, range(301)), *times, *done.screen]))
    accepted = [a for a in lists if done.passes(a)]
    assert not accepted, (done.expected, accepted)


@pytest.mark.parametrize(("template", "seed"), CASES, ids=IDS)
def test_the_right_value_in_copied_screen_text_fails(template: TaskTemplate, seed: int) -> None:
    done = solved(template.id, seed)
    assert done.answer
    copies = [" ".join(done.screen), buried(done.answer, done.screen)]
    # Without the status bar too, unless the app shows nothing but a title and the value
    # ('截图 共 10 张照片', a note's title and text): then its text is a fair answer.
    if len(done.app_texts) > 2:
        copies += [" ".join(done.app_texts), buried(done.answer, done.app_texts)]
    accepted = [a for a in copies if done.passes(a)]
    assert not accepted, (done.expected, accepted)


@pytest.mark.parametrize(("template", "seed"), CASES[::5], ids=IDS[::5])
def test_idle_and_wrong_answers_fail(template: TaskTemplate, seed: int) -> None:
    done = solved(template.id, seed)
    for answer in (None, "", "   ", template.wrong_answer(done.params)):
        assert not done.passes(answer), answer


# -- answers that hold the right value but do not state it -------------------------------------

WRONG_UNITS = ("分钟", "公里", "元", "¥", "小时", "%", "级", " km", " kg", " GB", "秒", "度")


def _numbers_of(expected: Expectation) -> list[float]:
    match expected:
        case Together(parts=parts):
            return [v for part in parts for v in _numbers_of(part)]
        case DataSize():
            return []
        case Number() | Duration():
            return [float(v) for v in expected.accepted]  # type: ignore[arg-type]
    return []


def _asked_units(done: Solved) -> set[str]:
    question = "".join(done.template.question_texts(done.params)).lower()
    asked = set()
    for unit in WRONG_UNITS:
        family = unit_family(unit) | {unit.strip().lower()}
        if any(form in question for form in family if len(form) > 1 or not form.isascii()):
            asked.add(unit)
    return asked


@pytest.mark.parametrize(("template", "seed"), CASES[::5], ids=IDS[::5])
def test_an_answer_that_denies_the_right_one_fails(template: TaskTemplate, seed: int) -> None:
    """The negation agent: the right answer, denied or contradicted."""
    done = solved(template.id, seed)
    right = done.answer
    assert right
    assert done.passes(right)
    denials = [f"答案不是{right}，是别的", f"不是{right}", f"{right}？不对", f"{right} is wrong",
               f"It is not {right}, it is something else"]  # fmt: skip
    accepted = [a for a in denials if done.passes(a)]
    assert not accepted, (done.expected, accepted)


@pytest.mark.parametrize(("template", "seed"), CASES[::5], ids=IDS[::5])
def test_the_right_number_in_a_unit_the_question_does_not_ask_fails(
    template: TaskTemplate, seed: int
) -> None:
    """The wrong-unit agent: each number of the answer in a unit that neither the expectation
    nor the question names ('5分钟' for hours, '¥5' for a count)."""
    done = solved(template.id, seed)
    own = unit_family(getattr(done.expected, "unit", "")) | (
        MONEY_UNITS if isinstance(done.expected, Money) else set()
    )
    units = [u for u in WRONG_UNITS if u.strip().lower() not in own]
    units = [u for u in units if u not in _asked_units(done)]
    if isinstance(done.expected, Duration):
        units = [u for u in units if u not in ("分钟", "小时", "秒")]
    wrong = [
        f"¥{v:g}" if u == "¥" else f"{v:g}{u}" for v in _numbers_of(done.expected) for u in units
    ]
    accepted = [a for a in wrong if done.passes(a)]
    assert not accepted, (done.expected, accepted)


@functools.cache
def _other_apps_texts() -> tuple[tuple[str, str], ...]:
    """(package, text) of every labelled node on each app's first screen."""
    world = default_world(0)
    found = []
    for app in world.apps:
        device = Device(world, device_id="screens")
        device.reset(0)
        device.act(Open(text=app.label.zh))
        for node in device.ui_tree().walk():
            if node.text and not node.resource_id.startswith("com.android.systemui:"):
                found.append((app.package, node.text))
    return tuple(dict.fromkeys(found))


@pytest.mark.parametrize(("template", "seed"), CASES[::5], ids=IDS[::5])
def test_another_app_s_screen_text_holding_the_right_number_fails(
    template: TaskTemplate, seed: int
) -> None:
    """The on-screen-string agent: texts shown by apps the task does not use ('配送¥5',
    '东北风 5级', '8. 火锅', 'Folder · 3 items') that hold the right number as a number. A text
    that is nothing but the number and a measure word ('5条') is a right answer wherever it is
    shown, and so is one that states it in the unit asked ('5条未读' for a count of 条, '湿度 30%'
    for a percentage, '14人想要' where the question asks 多少人): right answer forms wherever they
    are shown."""
    done = solved(template.id, seed)
    numbers = {f"{v:g}" for v in _numbers_of(done.expected)}
    unit = getattr(done.expected, "unit", "").strip()
    question = "".join(template.question_texts(done.params))
    strings = [
        text
        for package, text in _other_apps_texts()
        if package not in template.apps
        and any(re.search(rf"(?<![\d.]){re.escape(n)}(?![\d.])", text) for n in numbers)
        and not re.fullmatch(r"\s*[共有约]?\s*[\d.]+\s*[个条位人名张首件份本篇部集章]?\s*", text)
        and not (unit and any(f"{n}{unit}" in text.replace(" ", "") for n in numbers))
        and not any(
            re.search(rf"(?:几|多少){re.escape(m[1])}", question)
            for n in numbers
            for m in re.finditer(rf"(?<![\d.]){re.escape(n)}\s*([^\W\d_])", text)
        )
    ]
    accepted = [a for a in strings if done.passes(a)]
    assert not accepted, (done.expected, accepted)
