"""Reading values out of an agent's free-text answer, each with the span of the answer it covers:
numbers (Arabic, Chinese and English, with units and currencies), clock times, dates, yes/no
words, tokens of a pattern (codes, train numbers) and known phrases (names, places).

The answer is prepared once (`Said`): NFKC (full-width digits and letters become ASCII), lower
case, and Chinese numerals turned into digits where they are numbers, not parts of words: 五条,
共五, 三点半, 十二块五 are numbers; 周五 (Friday), 李四, 纯棉四件套 and 毛巾三条装 are not.
`answers.py` decides what an answer must state; `Written` reads a note or a message alike."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

Span = tuple[int, int]

CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
             "七": 7, "八": 8, "九": 9}  # fmt: skip
CN_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10000}
_CN_RUN = "[零〇一二两三四五六七八九十百千万]+"
# A Chinese numeral is a number when it follows one of these (or starts the answer, or follows
# a blank, punctuation or ASCII) ...
_LEAD = set("共有是为约了花付交要差快慢晚早余剩温度高低达到至过用计值价费额钱格概月点时年号块元角毛"
            "分钟午上晨里下天")  # fmt: skip
# ... and ends the answer or comes before a blank, punctuation, ASCII or a measure word.
_MEASURES = ("个", "条", "位", "人", "名", "通", "次", "封", "张", "首", "小时", "钟头", "分钟",
             "元", "块", "角", "毛", "分", "度", "点", "时", "号", "日", "月", "年", "秒", "岁",
             "天", "刻", "倍", "集", "部", "篇", "章", "本", "件", "份", "杯", "节", "页", "场",
             "站", "趟", "遍", "枚")  # fmt: skip
_CN_CONVERT = re.compile(
    rf"百分之(?P<percent>{_CN_RUN})|(?P<minus>零下)(?=\s*(?:\d|{_CN_RUN}))|(?P<run>{_CN_RUN})"
)


def chinese_number(text: str) -> int | None:
    """'三十五' -> 35, '两' -> 2, '一百零八' -> 108; None if `text` is not such a number."""
    if not text or any(ch not in CN_DIGITS and ch not in CN_UNITS for ch in text):
        return None
    total, section, digit = 0, 0, 0
    for ch in text:
        if ch in CN_DIGITS:
            digit = CN_DIGITS[ch]
        else:
            unit = CN_UNITS[ch]
            if unit == 10000:
                total += (section + digit) * unit
                section = 0
            else:
                section += (digit or 1) * unit
            digit = 0
    return total + section + digit


def _is_number_context(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start else ""
    if before and before.isalnum() and not before.isascii() and before not in _LEAD:
        return False
    after = text[end:]
    return not after or not after[0].isalnum() or after[0].isascii() or after.startswith(_MEASURES)


def _lower(text: str) -> str:
    """Lower case that keeps every character's position (no 'İ' -> 'i̇')."""
    return "".join(low if len(low := ch.lower()) == 1 else ch for ch in text)


@dataclass(frozen=True, slots=True)
class Mention:
    """A value an answer states, and where (a span of `Said.text`)."""

    value: Hashable
    span: Span


_DIGITS = re.compile(r"\d+")


class Said:
    """An answer prepared for reading: `text` (NFKC, lower case) is what spans refer to;
    `numeric` is `text` with Chinese numerals in number positions written in digits; `asked`
    the digit strings of the question, which an answer may echo ('沪A·D12345要交15元')."""

    # An answer states the value and little else: units, denials and bounds around a number
    # are read (`unit_of`, `negated`); text written for someone is read more loosely.
    strict = True

    def __init__(self, answer: str, *, question: Iterable[str] = ()) -> None:
        self.text = _lower(unicodedata.normalize("NFKC", answer))
        asked = [_lower(unicodedata.normalize("NFKC", text)) for text in question]
        self.asked = frozenset(n for text in asked for n in _DIGITS.findall(text))
        self.question = "\n".join(re.sub(r"\s", "", text) for text in asked)
        self.question_words = frozenset(w for text in asked for w in re.findall(r"[a-z]+", text))
        pieces: list[str] = []
        self._origin: list[Span] = []
        done = 0
        for match in _CN_CONVERT.finditer(self.text):
            start, end = match.span()
            if match["percent"]:
                value = chinese_number(match["percent"])
                digits = None if value is None else f"{value}%"
            elif match["minus"]:
                digits = "-"
            else:
                value = chinese_number(match["run"])
                ok = value is not None and _is_number_context(self.text, start, end)
                digits = str(value) if ok else None
            if digits is None:
                continue
            pieces.append(self.text[done:start])
            self._origin += [(i, i + 1) for i in range(done, start)]
            pieces.append(digits)
            self._origin += [(start, end)] * len(digits)
            done = end
        pieces.append(self.text[done:])
        self._origin += [(i, i + 1) for i in range(done, len(self.text))]
        self.numeric = "".join(pieces)

    def span_of(self, start: int, end: int) -> Span:
        """The span of `text` that `numeric[start:end]` was read from."""
        return self._origin[start][0], self._origin[end - 1][1]

    def echoes(self, span: Span) -> bool:
        """True if the digits in `span` all come from the question, and so does what is attached
        to them ('512gb' of '512GB版'): '2条' does not echo a question about '3月2日'."""
        digits = _DIGITS.findall(self.text[span[0] : span[1]])
        if not digits or not all(d in self.asked for d in digits):
            return False
        start, end = span
        if start > 0 and self.text[start - 1].isascii() and self.text[start - 1].isalnum():
            start -= 1  # a code's letter ('d12345'); a Chinese verb before it ('充了17度') is not
        if end < len(self.text) and self.text[end].isalnum():
            end += 1
        return re.sub(r"\s", "", self.text[start:end]) in self.question

    def in_date(self, span: Span) -> bool:
        """Whether `span` lies in a date ('4/13', '3月2日'): in an answer its numbers are the
        date's, no quantity of their own."""
        if not self.strict:
            return False
        return any(d.span[0] <= span[0] and span[1] <= d.span[1] for d in self.dates)

    def unit_of(self, span: Span) -> str | None:
        """What a number at `span` is written with: a currency before it ('¥', 'rmb'), or the
        unit, measure word or word right after it ('条', '分钟', '%', 'items'); '.' for a list's
        index ('8. 火锅'); None for a bare number."""
        before = self.text[: span[0]].rstrip()
        if before.endswith(("(", "（")) and before[:-1][-1:].isalnum():
            return "()"  # a badge: '微信(2)'
        if before.endswith(("¥", "￥")) or re.search(r"(?<![a-z])(?:rmb|cny)$", before):
            return "¥"
        if before.endswith(("$", "€", "£")) or re.search(r"(?<![a-z])usd$", before):
            return "$"
        after = self.text[span[1] :]
        index = re.match(r"[.、)）]\s*(?=[^\W\d_])", after)
        if index and (not before or before[-1] in "\n:：") and not re.match(r"\.\d", after):
            return "."
        after = after.lstrip()
        if match := re.match(r"[a-z]+", after):
            return match.group()
        if after.startswith(("%", "％", "‰")):
            return "%"
        if match := re.match(r"(?:°|℃)\s*[cf]?", after):
            return "°"
        for unit in _LONG_UNITS:
            if after.startswith(unit):
                return unit
        if after[:1] and after[0].isalpha() and not after[0].isascii():
            return after[0]
        return None

    def negated(self, span: Span, *, quantity: bool = False) -> bool:
        """Whether the value at `span` is denied ('不是5', 'not 5', '5？不对', '5 is wrong') or,
        for a quantity, only bounded ('不到5', '不止5个', '5条以上', 'about 5')."""
        before, after = self.text[: span[0]], self.text[span[1] :]
        if _DENIED_BEFORE.search(before) or _DENIED_AFTER.match(after):
            return True
        return quantity and bool(_BOUNDED_BEFORE.search(before) or _BOUNDED_AFTER.match(after))

    @cached_property
    def denies(self) -> str | None:
        """A phrase that says the answer is something other than what it states ('是别的')."""
        match = _DENIAL.search(self.text)
        return match.group() if match else None

    def stray_digits(self, spans: Iterable[Span]) -> list[str]:
        """The numbers outside `spans` that the question does not have."""
        return [n for n in _DIGITS.findall(self.outside(spans)) if n not in self.asked]

    def outside(self, spans: Iterable[Span]) -> str:
        """The answer's text with `spans` blanked out: what it says besides those values."""
        kept = list(self.text)
        for start, end in spans:
            kept[start:end] = " " * (end - start)
        return "".join(kept)

    @cached_property
    def numbers(self) -> list[Mention]:
        return _numbers(self)

    @cached_property
    def times(self) -> list[Mention]:
        return _times(self)

    @cached_property
    def dates(self) -> list[Mention]:
        return _dates(self)

    @cached_property
    def durations(self) -> list[Mention]:
        return _durations(self)

    @cached_property
    def durations_to_the_second(self) -> list[Mention]:
        return _durations_to_the_second(self)


# Units of more than one character, read whole after a number ('5分钟' is not '5分').
_LONG_UNITS = ("个百分点", "百分点", "小时", "钟头", "分钟", "秒钟", "公里", "千米", "公斤", "千克",
               "千瓦时", "个月", "星期", "周年", "平方米", "平米", "毫升", "毫安时")  # fmt: skip
_DENY = (
    r"不是|并非|并不是|不等于|不会是|不可能是|绝不是|肯定不是|没有"
    r"|(?<![a-z])(?:not|isn'?t|aren'?t|wasn'?t|weren'?t|never|neither|nor|except"
    r"|other\s+than)(?![a-z])"
)
_BOUND = (
    r"不到|不止|不足|不超过|不少于|少于|多于|超过|大于|小于|至少|至多|(?<![预节合契])约|大概"
    r"|差不多|将近|接近|(?<![a-z])(?:more\s+than|less\s+than|fewer\s+than|over|under|above"
    r"|below|at\s+least|at\s+most|about|around|approximately|roughly|nearly|almost)(?![a-z])"
)
# a denial (or, for a quantity, a bound) in the same clause, a few characters before the value
_DENIED_BEFORE = re.compile(rf"(?:{_DENY})[^\n,，。.;；!！?？、]{{0,4}}$")
_BOUNDED_BEFORE = re.compile(rf"(?:{_BOUND})[^\n,，。.;；!！?？、]{{0,4}}$")
# ... or right after it: '5？不对', '5 is wrong'; '5条以上', '5 or more'
_DENIED_AFTER = re.compile(
    r"\s*(?:[?？!！]\s*)?(?:不对|不是|错|(?<![a-z])(?:is\s+wrong|is\s+not|isn'?t|wrong|incorrect)"
    r"(?![a-z]))"
)
_BOUNDED_AFTER = re.compile(
    r"[^\s\d,，。.;；!！?？、]{0,2}?\s*(?:以上|以下|左右|上下|或更|多|余"
    r"|(?<![a-z])(?:or\s+(?:more|less|so|fewer|above|below)|plus|at\s+(?:most|least))(?![a-z]))"
)
_DENIAL = re.compile(
    r"是别的|别的(?:数|值|答案)|其他(?:的)?(?:数|值|答案)|另有答案|答案不对|都不对|不确定|不知道"
    r"|something\s+else|another\s+(?:number|answer|value)|not\s+sure|don'?t\s+know|no\s+idea"
    r"|[?？]\s*(?:不对|错)|(?:不对|错了?|错的)\W*$|(?<![a-z])(?:is|are|was)\s+(?:wrong|incorrect)"
)

_SPELLED_DATE = re.compile(r"[年月日号a-z]")


class Written(Said):
    """Text an agent wrote down for someone (a note, a message, a mail), read like an answer
    except for numbers: those inside a clock time or a date written with words ('14:30',
    '下午3点', '4月13日', 'May 3') belong to that time or date and are no quantities of their
    own. '4/13' and '12-20' stay numbers: they may as well be a range of temperatures. The
    words around a value are the writer's: its unit and a denial near it are not judged."""

    strict = False

    @cached_property
    def numbers(self) -> list[Mention]:
        parts = [m.span for m in self.times]
        parts += [m.span for m in self.dates if _SPELLED_DATE.search(self.text[slice(*m.span)])]
        return [
            n
            for n in _numbers(self)
            if not any(start <= n.span[0] and n.span[1] <= end for start, end in parts)
        ]


# -- numbers ----------------------------------------------------------------------------------

_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?![\d])(?:\.\d+)?|\d+(?:\.\d+)?")
# Letters that may follow a number directly (a unit), or come right before it (a currency).
_UNITS_AFTER = {"am", "pm", "h", "hr", "hrs", "hour", "hours", "min", "mins", "minute", "minutes",
                "yuan", "rmb", "cny", "kuai", "gb", "g", "mb", "tb", "c", "f", "km", "m", "s",
                "st", "nd", "rd", "th", "x", "pct", "percent", "degree", "degrees", "kwh", "kw",
                "mah", "kg", "ms"}  # fmt: skip
_PREFIXES = {"rmb", "cny", "aqi"}
# '12块5', '12元5角', '12块3毛5' and '12块3毛5分' (the fen's 分 is often left out)
_MONEY = re.compile(
    r"(?<![\d.])(\d+)\s*[元块]\s*(\d)(?!\d)(?:\s*[角毛](?:\s*(\d)(?!\d)(?:\s*分)?)?)?"
)
_HOURS = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s*个?\s*(?:小时|钟头|hours?|hrs?|h)(?![a-z])\s*"
    r"(?:(\d{1,2})\s*(?:分钟|分|minutes?|mins?|m)(?![a-z])|(半))"
    r"|(?<![\d.])(\d+)\s*个半\s*(?:小时|钟头)|(?<![\d个])(半)\s*个?\s*(?:小时|钟头)"
)
_EN_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
            "eighteen", "nineteen")  # fmt: skip
_EN_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_EN_NUMBER = re.compile(
    rf"(?<![a-z])(?:(?P<tens>{'|'.join(_EN_TENS)})(?:[-\s]+(?P<unit>{'|'.join(_EN_ONES[1:10])}))?"
    rf"|(?P<ones>{'|'.join(sorted(_EN_ONES, key=len, reverse=True))}))(?![a-z])"
)


def _letters_before(text: str, start: int) -> str:
    """The ASCII letters right before `start`, across one joiner ('沪a·12345', 'sm-9180')."""
    end = start - 1 if start >= 2 and text[start - 1] in "·-_" else start
    begin = end
    while begin > 0 and text[begin - 1].isascii() and text[begin - 1].isalpha():
        begin -= 1
    return text[begin:end]


def _money_composites(text: str) -> Iterable[tuple[float, Span]]:
    for match in _MONEY.finditer(text):
        yuan, jiao, fen = match.groups()
        after = text[match.end() :]
        if not match.group(0).rstrip().endswith(("角", "毛", "分")) and after[:1].isalnum():
            continue  # '3元5个' is not 3.5 yuan
        yield int(yuan) + int(jiao) / 10 + int(fen or 0) / 100, match.span()


def _hour_composites(text: str) -> Iterable[tuple[float, Span]]:
    for match in _HOURS.finditer(text):
        hours, minutes, _half, whole, _only_half = match.groups()
        if hours is not None:
            value = float(hours) + (int(minutes) / 60 if minutes else 0.5)
        else:
            value = int(whole) + 0.5 if whole is not None else 0.5
        yield value, match.span()


def _numbers(said: Said) -> list[Mention]:
    text = said.numeric
    found: list[Mention] = []
    taken: list[Span] = []
    for value, (start, end) in [*_money_composites(text), *_hour_composites(text)]:
        if not any(s < end and start < e for s, e in taken):
            taken.append((start, end))
            found.append(Mention(round(value, 2), said.span_of(start, end)))
    for match in _NUMBER.finditer(text):
        start, end = match.span()
        if any(s < end and start < e for s, e in taken):
            continue
        before, after = text[:start], text[end:]
        letters = _letters_before(text, start)
        if letters and letters not in _PREFIXES:
            continue  # part of a word or code: 'g1234', 'iphone15', 'sm-s9180'
        if before.endswith(".") or re.match(r"\.\d", after):
            continue  # a version: '1.0.6'
        unit = re.match(r"[a-z]+", after)
        if unit and unit.group() not in _UNITS_AFTER:
            continue  # '5g套餐' is fine, '123abc' is a code
        value = float(match.group().replace(",", ""))
        sign_at = start - 1
        if sign_at >= 0 and text[sign_at] in "-−":
            previous = text[sign_at - 1] if sign_at else ""
            if not (previous.isdigit() or (previous.isascii() and previous.isalpha())):
                value, start = -value, sign_at
        elif re.search(r"minus\s*$", before):
            value = -value
        found.append(Mention(round(value, 2), said.span_of(start, end)))
    for match in _EN_NUMBER.finditer(text):
        if match["ones"]:
            value = _EN_ONES.index(match["ones"])
        else:
            value = (_EN_TENS.index(match["tens"]) + 2) * 10
            value += _EN_ONES.index(match["unit"]) if match["unit"] else 0
        found.append(Mention(float(value), said.span_of(*match.span())))
    return found


# -- durations ------------------------------------------------------------------------------

_H = r"(?:小时|钟头|hours?|hrs?|h)(?![a-z])"
_M = r"(?:分钟|分|minutes?|mins?|m)(?![a-z])"
_DURATION = re.compile(
    rf"(?<![\d.:])(?P<hours>\d+(?:\.\d+)?)\s*个?\s*{_H}\s*(?:(?:and|又|零)\s*)?"
    rf"(?:(?P<minutes>\d{{1,2}})\s*{_M}|(?P<half>半))?"
    rf"|(?<![\d.])(?P<whole>\d+)\s*个半\s*(?:小时|钟头)"
    rf"|(?<![\d个])(?P<only_half>半)\s*个?\s*(?:小时|钟头)"
    rf"|(?<![\d.:])(?P<just_minutes>\d+)\s*{_M}"
    r"|(?<![\d.:])(?P<clock_h>\d{1,2}):(?P<clock_m>[0-5]\d)(?![\d:])"
)


def _durations(said: Said) -> list[Mention]:
    """Lengths of time in minutes: '7小时55分', '1个半小时', '475分钟', '2 h 5 min', '7:55'."""
    found = []
    for match in _DURATION.finditer(said.numeric):
        if match["hours"] is not None:
            extra = 30 if match["half"] else int(match["minutes"] or 0)
            minutes = float(match["hours"]) * 60 + extra
        elif match["whole"] is not None:
            minutes = int(match["whole"]) * 60 + 30
        elif match["only_half"] is not None:
            minutes = 30
        elif match["just_minutes"] is not None:
            minutes = int(match["just_minutes"])
        else:
            minutes = int(match["clock_h"]) * 60 + int(match["clock_m"])
        found.append(Mention(round(minutes, 2), said.span_of(*match.span())))
    return found


_S = r"(?:秒钟|秒|seconds?|secs?|s)(?![a-z])"
_AND = r"(?:(?:and|又|零)\s*)?"
_TO_THE_SECOND = re.compile(
    rf"(?<![\d.:])(?:(?P<hours>\d+(?:\.\d+)?)\s*个?\s*{_H}\s*{_AND})?"
    rf"(?:(?P<minutes>\d+(?:\.\d+)?)\s*{_M}\s*{_AND})?"
    rf"(?:(?P<seconds>\d+)\s*{_S})?"
    r"|(?<![\d.:])(?:(?P<clock_h>\d{1,2}):)?(?P<clock_m>\d{1,3}):(?P<clock_s>[0-5]\d)(?![\d:])"
)


def _durations_to_the_second(said: Said) -> list[Mention]:
    """Lengths of time in seconds: '7分12秒', '1小时2分3秒', '432秒', '7 min 12 s', and a clock's
    '07:12' or '1:02:03' read as (hours:)minutes:seconds, as a player or recorder shows them."""
    found = []
    for match in _TO_THE_SECOND.finditer(said.numeric):
        if match["clock_m"] is not None:
            parts = (match["clock_h"], match["clock_m"], match["clock_s"])
        elif any(match[g] is not None for g in ("hours", "minutes", "seconds")):
            parts = (match["hours"], match["minutes"], match["seconds"])
        else:
            continue
        hours, minutes, seconds = (float(part or 0) for part in parts)
        total = round(hours * 3600 + minutes * 60 + seconds, 2)
        found.append(Mention(total, said.span_of(*match.span())))
    return found


# -- clock times ------------------------------------------------------------------------------

_AFTERNOON = ("午后", "下午", "傍晚", "晚上", "夜里", "夜间", "今晚")
_MORNING = ("凌晨", "早上", "早晨", "清晨", "上午", "半夜")
_CLOCK = re.compile(
    rf"(?:(?P<period>{'|'.join((*_AFTERNOON, *_MORNING, '中午'))})\s*)?"
    r"(?<![\d.:a-z])(?:"
    r"(?P<h1>\d{1,2})\s*:\s*(?P<m1>\d{2})(?::\d{2})?(?!\d)"
    r"|(?P<h2>\d{1,2})\s*[点时](?:\s*(?P<m2>\d{1,2})(?!\d|\s*刻)(?:\s*分)?|\s*(?P<half>半)"
    r"|\s*(?P<quarter>[13])\s*刻)?"
    r"|(?P<h3>\d{1,2})(?=\s*(?:a\.?m\.?|p\.?m\.?|o'?clock)(?![a-z]))"
    r")(?:\s*(?P<suffix>a\.?m\.?|p\.?m\.?|o'?clock)(?![a-z]))?"
)


def _times(said: Said) -> list[Mention]:
    found = []
    for match in _CLOCK.finditer(said.numeric):
        hour = int(match["h1"] or match["h2"] or match["h3"])
        if match["m1"] or match["m2"]:
            minute = int(match["m1"] or match["m2"])
        else:
            minute = 30 if match["half"] else 15 * int(match["quarter"] or 0)
        period, suffix = match["period"] or "", (match["suffix"] or "").replace(".", "")
        if period in _AFTERNOON or suffix == "pm" or (period == "中午" and hour < 11):
            hour += 12 if hour < 12 else 0
        elif (period in _MORNING or suffix == "am") and hour == 12:
            hour = 0
        if hour == 24 and minute == 0:
            hour = 0
        if hour < 24 and minute < 60:
            found.append(Mention((hour, minute), said.span_of(*match.span())))
    return found


# -- dates ------------------------------------------------------------------------------------

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")  # fmt: skip
_MONTH_NAME = "|".join(sorted({*_MONTHS, *(m[:3] for m in _MONTHS), "sept"}, key=len, reverse=True))
_DATE = re.compile(
    r"(?<!\d)(?P<y>\d{4})\s*[年/.\-]\s*(?P<m1>\d{1,2})\s*[月/.\-]\s*(?P<d1>\d{1,2})(?!\d)\s*[日号]?"
    r"|(?<!\d)(?P<m2>\d{1,2})\s*月\s*(?P<d2>\d{1,2})(?!\d)\s*[日号]?"
    r"|(?<![\d/])(?P<m3>\d{1,2})\s*/\s*(?P<d3>\d{1,2})(?![\d/])"
    r"|(?<![\d\-:])(?P<m4>\d{1,2})-(?P<d4>\d{1,2})(?![\d\-:])"
    rf"|(?<![a-z])(?P<name5>{_MONTH_NAME})\.?\s*(?P<d5>\d{{1,2}})(?:st|nd|rd|th)?(?![\da-z])"
    rf"|(?<![\d])(?P<d6>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<name6>{_MONTH_NAME})(?![a-z])"
)


def _month(name: str) -> int:
    return next(i for i, month in enumerate(_MONTHS, 1) if month.startswith(name[:3]))


def _dates(said: Said) -> list[Mention]:
    found = []
    for match in _DATE.finditer(said.numeric):
        if match["name5"] or match["name6"]:
            month = _month(match["name5"] or match["name6"])
            day = int(match["d5"] or match["d6"])
        else:
            month = int(match["m1"] or match["m2"] or match["m3"] or match["m4"])
            day = int(match["d1"] or match["d2"] or match["d3"] or match["d4"])
        if 1 <= month <= 12 and 1 <= day <= 31:
            found.append(Mention((month, day), said.span_of(*match.span())))
    return found


# -- yes / no ---------------------------------------------------------------------------------

_RAIN_KIND = "(?:小|中|大|暴|阵|雷阵)?"
_EN_RAIN = r"(?:be\s+)?rain(?:ing|y|s)?"
_POLARITY = re.compile(
    r"(?P<unsure>不确定|不知道|不清楚|说不准|可能|也许|大概|或许|不是不?会|并非"
    r"|(?<![a-z])(?:maybe|perhaps|probably|possibly|unsure|not\s+sure|don'?t\s+know|unknown)"
    r"(?![a-z]))"
    rf"|(?P<no>(?:不会|不|没有?|无)(?:下|有)?{_RAIN_KIND}雨|不会"
    rf"|(?<![a-z])(?:(?:will\s+not|won'?t|not\s+going\s+to|does\s+not|doesn'?t|not|no)\s+{_EN_RAIN}"
    r"|no|nope|not|won'?t|dry)(?![a-z]))"
    rf"|(?P<yes>会?(?:下|有){_RAIN_KIND}雨|会"
    rf"|(?<![a-z])(?:yes|yeah|yep|(?:will|going\s+to)\s+{_EN_RAIN}|rain(?:ing|y|s)?)(?![a-z]))"
)


def polarities(said: Said) -> list[Mention]:
    """The yes/no words of an answer about rain: values True (yes), False (no) and 'unsure'."""
    found = []
    for match in _POLARITY.finditer(said.text):
        value: Hashable = "unsure" if match["unsure"] else match["yes"] is not None
        found.append(Mention(value, match.span()))
    return found


# -- tokens and phrases -----------------------------------------------------------------------


def tokens(said: Said, pattern: re.Pattern[str], canonical: Callable[[str], str]) -> list[Mention]:
    """Every match of `pattern` in the answer's text, as `canonical` writes it."""
    return [Mention(canonical(m.group()), m.span()) for m in pattern.finditer(said.text)]


_KEEP = set("_-@.+#&")


def squeeze(text: str) -> tuple[str, list[int], set[int]]:
    """Text without blanks and punctuation (but `_-@.+#&`, which tell IDs apart): the kept
    characters, the index in `text` of each, and the kept positions that had something removed
    right before them (a word break)."""
    kept, where, breaks = [], [], set()
    removed = False
    for i, ch in enumerate(text):
        if ch.isalnum() or ch in _KEEP:
            if removed:
                breaks.add(len(kept))
            kept.append(ch)
            where.append(i)
            removed = False
        else:
            removed = True
    return "".join(kept), where, breaks


def form_of(text: str) -> str:
    """How a phrase is compared: NFKC, lower case, no blanks or punctuation."""
    return squeeze(_lower(unicodedata.normalize("NFKC", text)))[0]


def _ascii_word(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def phrases(said: Said, groups: Mapping[Hashable, Iterable[str]]) -> list[Mention]:
    """The known phrases an answer names, read left to right, longest first: `groups` maps each
    value to its spellings. A spelling that starts or ends with a letter or digit only counts
    as a whole word ('kevin_1192' is not in 'kevin_11920')."""
    forms: dict[str, Hashable] = {}
    for value, spellings in groups.items():
        for spelling in spellings:
            if form := form_of(spelling):
                forms.setdefault(form, value)
    by_first: dict[str, list[str]] = {}
    for form in sorted(forms, key=len, reverse=True):
        by_first.setdefault(form[0], []).append(form)
    text, where, breaks = squeeze(said.text)
    found, i = [], 0
    while i < len(text):
        for form in by_first.get(text[i], ()):
            end = i + len(form)
            if text[i:end] != form:
                continue
            if _ascii_word(form[0]) and i > 0 and _ascii_word(text[i - 1]) and i not in breaks:
                continue
            if (_ascii_word(form[-1]) and end < len(text) and _ascii_word(text[end])
                    and end not in breaks):  # fmt: skip
                continue
            found.append(Mention(forms[form], (where[i], where[end - 1] + 1)))
            i = end
            break
        else:
            i += 1
    return found
