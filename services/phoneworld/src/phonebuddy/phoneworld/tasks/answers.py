"""What a question-answer task's `answer` must state, checked against values read from state;
Chinese and English forms. Never an LLM.

An answer states one value of the kind asked (one number, one amount, one clock time, one
name...) in any natural form — '5', '共5条', '五条', 'There are 5 notes'; '¥12.50', '12.5元',
'十二块五'; '15:05', '3:05 pm', '下午3点05分' — and passes only if that value is the expected
one. It fails if it states other values of the kind too (a list of candidates: '3、4、5', two
names, '会下雨，不会'), and if it holds much else (copied screen text): a digit outside the
values stated (every number is a value: a status bar's '09:00' and '88%'), unless the question
has it too ('沪A·D12345'); more than a few words (`MAX_EXTRA_WORDS`, a Chinese character
counting 2 letters); more than `MAX_ANSWER_CHARS` characters.

    check_answer("共5条", Number(5))                                -> []
    check_answer("4、5、6", Number(5))                    -> ["answer '4、5、6' states 4, 5, 6 ..."]
    check_answer("下午3点05分", ClockTime(15, 5))                    -> []
    check_answer("Zhang Wei", Text(["张伟", "Zhang Wei"], others=["李娜"])) -> []

A value an agent writes down for someone — a price into a chat, a time into a note — is held
to the same rule by `check_written`, except that the text may say anything else around it:

    check_written("周六 多云，最低12°C，最高20°C", Number(12, 20, every=True), what="the note")
                                                                                -> []
    check_written("14:00、15:00、16:00", ClockTime(15, 0), what="the note")
                                        -> ["the note '14:00、15:00、16:00' states 14:00, ..."]"""

from __future__ import annotations

import re
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable

from phonebuddy.phoneworld.tasks.answer_forms import (
    Mention,
    Said,
    Span,
    Written,
    chinese_number,
    form_of,
    phrases,
    polarities,
    tokens,
)

MAX_ANSWER_CHARS = 200
MAX_EXTRA_WORDS = 32


class Expectation(ABC):
    """What an answer must state."""

    @abstractmethod
    def read(self, said: Said, *, skip: Iterable[Span] = ()) -> tuple[list[Span], str | None]:
        """The parts of the answer this expectation accounts for, and what is wrong with the
        answer (None: nothing); values wholly inside `skip` (a name already read: 《百年孤独》)
        are not read."""


def check_answer(
    answer: str | None, expected: Expectation, *, question: Iterable[str] = ()
) -> list[str]:
    """The problems of an answer ([] = right); `question` (its zh and en wording) holds the
    numbers an answer may echo."""
    if answer is None or not answer.strip():
        return ["no answer given"]
    if len(answer) > MAX_ANSWER_CHARS:
        return [f"the answer is {len(answer)} characters long (at most {MAX_ANSWER_CHARS})"]
    said = Said(answer, question=question)
    spans, problem = expected.read(said)
    problems = [] if problem is None else [f"answer {answer!r} {problem}"]
    if said.denies and not isinstance(expected, YesNo):
        problems.append(f"answer {answer!r} says it is something else ({said.denies!r})")
    rest = said.outside(spans)
    if stray := said.stray_digits(spans):
        problems.append(f"answer {answer!r} states other numbers too: {', '.join(stray)}")
    words = sum(1 if ch.isascii() else 2 for ch in rest if ch.isalpha())
    if words > MAX_EXTRA_WORDS:
        problems.append(f"answer {answer!r} says too much besides the answer ({words} letters, "
                        f"Chinese characters counting 2; at most {MAX_EXTRA_WORDS})")  # fmt: skip
    return problems


def check_written(
    text: str | None, expected: Expectation, *, what: str, context: Iterable[str] = ()
) -> list[str]:
    """The problems ([] = right) of a value an agent wrote down for someone: `text` (a note's
    body, a message; `what` names it) must state the expected value and no other value of its
    kind — one price, the set of clock times exactly the time asked for, no other name of the
    domain — but may say anything else around it ('4月3日 14:30 星河大厦 3 层' states one date,
    one time and a place). Numbers from `context` (the instruction: a product's name) are no
    values, unless expected."""
    if text is None or not text.strip():
        return [f"{what} is empty"]
    _, problem = expected.read(Written(text, question=context))
    return [] if problem is None else [f"{what} {text!r} {problem}"]


class Together(Expectation):
    """Several things in one answer ('G123，08:05 发车': a train and a time)."""

    def __init__(self, *parts: Expectation) -> None:
        self.parts = parts

    def read(self, said: Said, *, skip: Iterable[Span] = ()) -> tuple[list[Span], str | None]:
        spans: list[Span] = []
        problems = []
        # names and codes first: a number inside one ('百年孤独', 'G1234') is no value of its own
        named = sorted(self.parts, key=lambda part: not isinstance(part, _Phrases | Token))
        for part in named:
            part_spans, problem = part.read(said, skip=[*skip, *spans])
            spans += part_spans
            if problem is not None:
                problems.append(problem)
        return spans, "; ".join(problems) if problems else None

    def __repr__(self) -> str:
        return f"Together{self.parts!r}"


class Values(Expectation):
    """Exactly one value of a kind, one of `accepted`; or, with `every`, exactly the values
    `accepted` (a list answer). Values in `also` may be stated besides and count for nothing
    (an event's end time, next to the start time asked for)."""

    what = "value"

    def __init__(
        self, accepted: Iterable[Hashable], *, every: bool = False, also: Iterable[Hashable] = ()
    ) -> None:
        self.accepted = frozenset(accepted)
        self.every = every
        self.also = frozenset(also) - self.accepted
        if not self.accepted:
            raise ValueError(f"{type(self).__name__} needs at least one expected value")

    def mentions(self, said: Said) -> list[Mention]:
        raise NotImplementedError

    def show(self, value: Hashable) -> str:
        return str(value)

    def _shown(self, values: Iterable[Hashable]) -> list[str]:
        return sorted((self.show(v) for v in values), key=lambda s: (len(s), s))

    # Whether a value the answer denies ('不是5', 'not Zhang Wei') fails it; yes/no answers
    # read their own negations.
    denial_fails = True

    def read(self, said: Said, *, skip: Iterable[Span] = ()) -> tuple[list[Span], str | None]:
        skip = list(skip)
        mentions = [
            m
            for m in self.mentions(said)
            if not any(s <= m.span[0] and m.span[1] <= e for s, e in skip)
        ]
        stated = {m.value for m in mentions} - self.also
        spans = [m.span for m in mentions]
        if self.denial_fails and said.strict:
            quantity = isinstance(self, Number | Duration)
            denied = [
                m
                for m in mentions
                if m.value not in self.also and said.negated(m.span, quantity=quantity)
            ]
            if denied:
                shown = ", ".join(self._shown({m.value for m in denied}))
                return spans, f"denies or only bounds {shown} instead of stating it"
        if self.every:
            ok = stated == self.accepted
            expected = "exactly " + ", ".join(self._shown(self.accepted))
        else:
            ok = len(stated) == 1 and stated <= self.accepted
            expected = " or ".join(self._shown(self.accepted))
        if ok:
            return spans, None
        if not stated:
            return spans, f"states no {self.what} (expected {expected})"
        return spans, f"states {', '.join(self._shown(stated))} (expected {expected})"

    def __repr__(self) -> str:
        every = ", every" if self.every else ""
        return f"{type(self).__name__}({self._shown(self.accepted)}{every})"


class Number(Values):
    """A count or a quantity ('5', '五条', '25°C', '50%', '8小时'); `signed=False` takes '-8' for
    8 (a difference); `every`: all of `accepted` and no other (a low and a high)."""

    what = "number"

    def __init__(
        self, *accepted: float, unit: str = "", signed: bool = True, every: bool = False
    ) -> None:
        self.unit = unit
        self.signed = signed
        super().__init__((round(v if signed else abs(v), 2) for v in accepted), every=every)

    def mentions(self, said: Said) -> list[Mention]:
        """The numbers stated in a unit the question can mean, but those echoing the question
        ('512GB版¥5999': 5999). A number in another unit ('5分钟' for hours, '¥5' or '5级' for
        a count, a list's '8.') is no statement of the value."""
        found = [
            m if self.signed else Mention(abs(m.value), m.span)  # type: ignore[arg-type]
            for m in said.numbers
            if self.fits(said.unit_of(m.span), said) and not said.in_date(m.span)
        ]
        return [m for m in found if m.value in self.accepted or not said.echoes(m.span)]

    def units(self) -> frozenset[str]:
        """The ways this value's unit is written (none for a plain count)."""
        return unit_family(self.unit)

    def fits(self, unit: str | None, said: Said) -> bool:
        """Whether a number written with `unit` can state this value: bare, in the value's own
        unit, in a count's measure word, or in a unit the question itself names."""
        if unit is None or unit in self.units() or not said.strict:
            return True
        if unit == ".":
            return False
        if not self.units() - COUNT_WORDS and unit in {"个", *FILLER_WORDS}:
            return True  # a count: '5个', '5 in all'; another measure word only where asked
        return _in_question(unit, said)

    def show(self, value: Hashable) -> str:
        return f"{value:g}{self.unit}"


class Duration(Values):
    """A length of time, in minutes: '7小时55分', '475分钟', '1个半小时', '2 hours 5 minutes',
    '7:55'. A bare number is read in `bare` ("minutes" or "hours"): '475' for a question asked
    in minutes.

    `Duration(seconds=432)` is a length to the second: '7分12秒', '432秒', '7 min 12 s', and
    '07:12' read as minutes:seconds, the way a recorder or a player shows it; a bare number is
    read in `bare` ("seconds" or "minutes")."""

    what = "duration"
    _BARE_SCALE = {"hours": 60, "minutes": 1}
    _BARE_SCALE_TO_THE_SECOND = {"minutes": 60, "seconds": 1}

    def __init__(
        self, minutes: float | None = None, *, seconds: int | None = None, bare: str = ""
    ) -> None:
        if (minutes is None) == (seconds is None):
            raise ValueError("give a duration in minutes or in seconds, not both")
        self.to_the_second = seconds is not None
        scales = self._BARE_SCALE_TO_THE_SECOND if self.to_the_second else self._BARE_SCALE
        bare = bare or ("seconds" if self.to_the_second else "minutes")
        if bare not in scales:
            raise ValueError(f"bare must be one of {sorted(scales)}, not {bare!r}")
        self.bare = bare
        super().__init__([int(seconds) if seconds is not None else round(minutes, 2)])  # type: ignore[arg-type]

    def mentions(self, said: Said) -> list[Mention]:
        timed = said.durations_to_the_second if self.to_the_second else said.durations
        spans = [m.span for m in timed]
        scale = (self._BARE_SCALE_TO_THE_SECOND if self.to_the_second
                 else self._BARE_SCALE)[self.bare]  # fmt: skip
        bare = [
            Mention(round(float(m.value) * scale, 2), m.span)  # type: ignore[arg-type]
            for m in said.numbers
            if not any(s < m.span[1] and m.span[0] < e for s, e in spans)
            and not said.echoes(m.span)
            and _bare(said.unit_of(m.span), said)
        ]
        return [*timed, *bare]

    def show(self, value: Hashable) -> str:
        if self.to_the_second:
            minutes, seconds = divmod(float(value), 60)  # type: ignore[arg-type]
            return f"{int(minutes)}分{seconds:g}秒" if minutes else f"{seconds:g}秒"
        hours, minutes = divmod(float(value), 60)  # type: ignore[arg-type]
        if not hours:
            return f"{minutes:g}分钟"
        return f"{int(hours)}小时{minutes:g}分" if minutes else f"{int(hours)}小时"


class DataSize(Number):
    """A size of stored data, from its kilobytes: '56.7 MB', '0.06 GB', '58060 KB'; a bare number
    is read in whichever of those units it matches. The unit written must fit the number."""

    what = "size"
    _SCALES = {"kb": (1, 0), "mb": (1024, 1), "gb": (1024 * 1024, 2)}
    _UNITS = {"kb": "kb", "k": "kb", "kib": "kb", "mb": "mb", "m": "mb", "mib": "mb", "gb": "gb",
              "g": "gb", "gib": "gb"}  # fmt: skip

    def __init__(self, kb: float) -> None:
        self.by_unit = {
            unit: round(kb / scale, digits) for unit, (scale, digits) in self._SCALES.items()
        }
        Values.__init__(self, list(self.by_unit.items()))
        self.unit, self.signed = "", True

    def mentions(self, said: Said) -> list[Mention]:
        found = []
        for m in said.numbers:
            unit = said.unit_of(m.span)
            if unit is None:
                key = next((u for u, v in self.by_unit.items() if v == m.value), "mb")
            elif unit in self._UNITS:
                key = self._UNITS[unit]
            else:
                continue
            if (key, m.value) in self.accepted or not said.echoes(m.span):
                found.append(Mention((key, m.value), m.span))
        return found

    def show(self, value: Hashable) -> str:
        unit, number = value  # type: ignore[misc]
        return f"{number:g} {unit.upper()}"


class Money(Number):
    """An amount of money in yuan ('¥12.50', '12.5元', '十二块五')."""

    what = "amount"

    def __init__(self, *accepted: float) -> None:
        super().__init__(*accepted, unit="元")

    def units(self) -> frozenset[str]:
        return MONEY_UNITS

    def show(self, value: Hashable) -> str:
        return f"¥{value:.2f}"


MONEY_UNITS = frozenset({"¥", "元", "块", "角", "毛", "yuan", "rmb", "cny", "kuai"})
# Measure words of a count: '5条', '五个', '3 items' is not (unless the question says items).
COUNT_WORDS = frozenset(
    "个条位人名通次封张首件份杯节页场站趟遍枚处台项家款只辆间套双对瓶本篇部集章道把"
)
# English words that may follow a count without naming a unit: '5 in all', '5 of them'.
FILLER_WORDS = frozenset({"in", "of", "total", "altogether", "overall", "all", "and", "so", "then",
                          "now", "left", "remaining", "right", "today", "exactly", "is", "are",
                          "were", "was", "at", "on", "for", "to", "from", "by"})  # fmt: skip
_FAMILIES = (
    MONEY_UNITS,
    frozenset({"$", "美元", "dollars", "dollar", "usd", "bucks"}),
    frozenset({"小时", "钟头", "h", "hr", "hrs", "hour", "hours"}),
    frozenset({"分钟", "分", "min", "mins", "minute", "minutes"}),
    frozenset({"秒", "秒钟", "s", "sec", "secs", "second", "seconds"}),
    frozenset({"天", "日", "day", "days"}),
    frozenset({"%", "percent", "pct", "百分点", "个百分点", "百分之"}),
    frozenset({"度", "°", "℃", "c", "degree", "degrees", "kwh", "千瓦时"}),
    frozenset({"公里", "千米", "km", "kilometres", "kilometers"}),
    frozenset({"mb", "megabytes"}),
    frozenset({"gb", "g", "gigabytes"}),
    frozenset({"步", "steps", "step"}),
    frozenset({"万"}),
)


def unit_family(unit: str) -> frozenset[str]:
    """Every way of writing `unit` ('小时': 'h', 'hours'...); a measure word stands alone."""
    unit = unit.strip().lower()
    if not unit:
        return frozenset()
    return next((family for family in _FAMILIES if unit in family), frozenset({unit}))


def _in_question(unit: str, said: Said) -> bool:
    """Whether the question asks in `unit` (or another way of writing it): '几天' allows '5天',
    'how many hours' allows '5 h'. A one-character unit counts only where the question asks
    for it ('几度', '多少个'), not inside another word ('额度')."""
    family = unit_family(unit) | {unit}
    words = {form for form in family if form.isascii() and form.isalpha() and len(form) > 1}
    words |= {form.removesuffix("s") for form in words} | {form + "s" for form in words}
    if words & said.question_words:
        return True
    for form in family:
        if form.isascii() and form.isalpha():
            continue
        if len(form) > 1 or not form.isalpha():  # '小时', '%', '°'
            if form in said.question:
                return True
        elif re.search(rf"(?:几|多少|多)个?{re.escape(form)}", said.question):
            return True
    return False


def _bare(unit: str | None, said: Said) -> bool:
    """Whether a number written with `unit` is a bare number ('475', '475 in all')."""
    return unit is None or unit in FILLER_WORDS or not said.strict


def clock(text: str) -> tuple[int, int]:
    """'18:30' -> (18, 30)."""
    hour, _, minute = text.partition(":")
    return int(hour), int(minute)


class ClockTime(Values):
    """A time of day ('18:30', '6:30 pm', '下午6点半'); times in `also` may be stated too."""

    what = "clock time"

    def __init__(self, hour: int, minute: int, *, also: Iterable[tuple[int, int]] = ()) -> None:
        super().__init__([(hour, minute)], also=also)

    def mentions(self, said: Said) -> list[Mention]:
        return said.times

    def show(self, value: Hashable) -> str:
        hour, minute = value  # type: ignore[misc]
        return f"{hour:02d}:{minute:02d}"


class ClockTimes(ClockTime):
    """Every one of these times and no other (a list of showtimes)."""

    def __init__(self, times: Iterable[tuple[int, int]]) -> None:
        Values.__init__(self, times, every=True)


class Date(Values):
    """A day of the year ('5月3日', '5/3', 'May 3')."""

    what = "date"

    def __init__(self, month: int, day: int) -> None:
        super().__init__([(month, day)])

    def mentions(self, said: Said) -> list[Mention]:
        return said.dates

    def show(self, value: Hashable) -> str:
        month, day = value  # type: ignore[misc]
        return f"{month}月{day}日"


class YesNo(Values):
    """A yes or a no about rain ('会下雨' / '不会', 'yes' / "it won't rain"); a hedge fails."""

    what = "yes or no"
    denial_fails = False

    def __init__(self, value: bool) -> None:
        super().__init__([value])

    def mentions(self, said: Said) -> list[Mention]:
        return polarities(said)

    def show(self, value: Hashable) -> str:
        return {True: "yes", False: "no"}.get(value, str(value))  # type: ignore[call-overload]


class Token(Values):
    """One token of a pattern (a code, a phone number, a train number), compared as
    `canonical` writes it."""

    def __init__(
        self, value: str, *, pattern: re.Pattern[str], canonical: Callable[[str], str], what: str
    ) -> None:
        self.pattern = pattern
        self.canonical = canonical
        self.what = what
        super().__init__([canonical(unicodedata.normalize("NFKC", value).lower())])

    def mentions(self, said: Said) -> list[Mention]:
        return tokens(said, self.pattern, self.canonical)


def _no_blanks(text: str) -> str:
    return re.sub(r"\s", "", text)


def _phone_digits(text: str) -> str:
    only = "".join(ch for ch in text if ch.isdigit())
    return only[2:] if len(only) == 13 and only.startswith("86") and text.startswith("+") else only


def phone_number(number: str) -> Token:
    """'138 1234 5678', '+86 13812345678', '138-1234-5678'."""
    pattern = re.compile(r"(?<![\da-z])\+?\d[\d -]{3,}\d(?!\d)")
    return Token(number, pattern=pattern, canonical=_phone_digits, what="phone number")


def digit_code(code: str) -> Token:
    """A code of four or more digits ('验证码 482913', '尾号 6217'); shorter numbers around it
    ('5分钟内有效') are not codes."""
    pattern = re.compile(r"(?<![\da-z])\d{4,}(?!\d)")
    return Token(code, pattern=pattern, canonical=str, what="code")


def dashed_code(code: str) -> Token:
    """A pick-up code like '8-4-8181'."""
    pattern = re.compile(r"(?<![\d-])\d+(?:\s*[-‐‑–—]\s*\d+)+(?![\d-])")
    return Token(code, pattern=pattern, canonical=lambda t: re.sub(r"\s*[-‐‑–—]\s*", "-", t),
                 what="pick-up code")  # fmt: skip


def train_number(number: str) -> Token:
    """'G1234', 'g 1234', 'D12'."""
    pattern = re.compile(r"(?<![a-z\d])[gdcztkyl]\s?\d{1,4}(?!\d)")
    return Token(number, pattern=pattern, canonical=lambda t: _no_blanks(t).upper(),
                 what="train number")  # fmt: skip


def wechat_id(wxid: str) -> Token:
    """A WeChat ID: a word of letters, digits, '_' and '-' with a digit or '_' in it."""
    pattern = re.compile(r"(?<![a-z\d_\-])(?=[a-z\d_\-]*[\d_])[a-z][a-z\d_\-]{4,}(?![a-z\d_\-])")
    return Token(wxid, pattern=pattern, canonical=str, what="WeChat ID")


class _Phrases(Values):
    """Values named by known phrases: `groups` maps each expected value to its spellings;
    `others` are the other values of the domain, so an answer naming one of them too fails."""

    def __init__(
        self,
        groups: dict[str, tuple[str, ...]],
        others: Iterable[str],
        *,
        every: bool,
        what: str,
        also: Iterable[str] = (),
    ) -> None:
        self.what = what
        self.groups: dict[Hashable, tuple[str, ...]] = dict(groups)
        mine = {form_of(form) for forms in groups.values() for form in forms}
        also = [form for form in also if form_of(form) not in mine]
        for other in [*also, *others]:
            if form_of(other) not in mine:
                self.groups.setdefault(other, (other,))
        self.others = tuple(v for v in self.groups if v not in groups and v not in also)
        super().__init__(groups, every=every, also=also)

    def mentions(self, said: Said) -> list[Mention]:
        return phrases(said, self.groups)


class Text(_Phrases):
    """One name, place or phrase: `forms` are the ways of writing it (zh, en, aliases);
    `others` every other value of its domain (every contact, every city...). The answer may
    say more around the name ('最近打给我的是张伟'), but not name anything else of the domain
    but `also` (the night's weather beside the day's)."""

    def __init__(
        self,
        forms: Iterable[str],
        *,
        others: Iterable[str] = (),
        what: str = "name",
        also: Iterable[str] = (),
    ) -> None:
        self.forms = tuple(forms)
        if not self.forms:
            raise ValueError("Text needs the expected value")
        super().__init__({self.forms[0]: self.forms}, others, every=False, what=what, also=also)


class TextSet(_Phrases):
    """Every one of these names and no other of the domain (the titles of a day's events)."""

    def __init__(
        self, names: Iterable[str], *, others: Iterable[str] = (), what: str = "name"
    ) -> None:
        self.names = tuple(dict.fromkeys(names))
        super().__init__({n: (n,) for n in self.names}, others, every=True, what=what)


# -- loose text helpers, for oracles and for texts given in the instruction ---------------------

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_NOISE = re.compile(r"[\s,，。.!！?？:：;；'\"“”‘’()（）\[\]【】《》<>]")


def normalize(text: str) -> str:
    """Text as loosely compared: NFKC, lower case, no blanks or punctuation."""
    text = unicodedata.normalize("NFKC", text).lower()
    return _NOISE.sub("", text)


def numbers_in(text: str) -> list[float]:
    """Every number in `text`, for an oracle reading a screen (never for judging)."""
    text = unicodedata.normalize("NFKC", text).replace(",", "")
    found = [float(match) for match in _NUMBER.findall(text)]
    for run in re.findall(r"[零〇一二两三四五六七八九十百千万]+", text):
        value = chinese_number(run)
        if value is not None:
            found.append(float(value))
    return found


def which_is_more(
    first: str, first_n: float, second: str, second_n: float, *, what: str
) -> Together:
    """'Which of two has more, and by how much': the larger one's name and the gap."""
    win, lose = (first, second) if first_n > second_n else (second, first)
    return Together(Text([win], others=[lose], what=what), Number(abs(first_n - second_n)))
