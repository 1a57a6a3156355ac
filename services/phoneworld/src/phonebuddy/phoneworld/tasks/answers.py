"""Compare an agent's `answer` with a value read from state: numbers, money, times, names;
Chinese and English forms. Never an LLM."""

from __future__ import annotations

import re
import unicodedata

_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9}  # fmt: skip
_CN_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10000}
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_NOISE = re.compile(r"[\s,，。.!！?？:：;；'\"“”‘’()（）\[\]【】《》<>]")


def _chinese_number(text: str) -> int | None:
    """'三十五' -> 35, '两' -> 2, '一百零八' -> 108; None if `text` is not such a number."""
    if not text or any(ch not in _CN_DIGITS and ch not in _CN_UNITS for ch in text):
        return None
    total, section, digit = 0, 0, 0
    for ch in text:
        if ch in _CN_DIGITS:
            digit = _CN_DIGITS[ch]
        else:
            unit = _CN_UNITS[ch]
            if unit == 10000:
                total += (section + digit) * unit
                section = 0
            else:
                section += (digit or 1) * unit
            digit = 0
    return total + section + digit


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    return _NOISE.sub("", text)


def numbers_in(text: str) -> list[float]:
    text = unicodedata.normalize("NFKC", text).replace(",", "")
    found = [float(match) for match in _NUMBER.findall(text)]
    for run in re.findall(r"[零〇一二两三四五六七八九十百千万]+", text):
        value = _chinese_number(run)
        if value is not None:
            found.append(float(value))
    return found


def matches_number(answer: str | None, expected: float, *, tolerance: float = 0.005) -> bool:
    """True if the answer states `expected` (e.g. '¥35.50', '35.5元', '三十五')."""
    if not answer:
        return False
    return any(abs(value - expected) <= tolerance for value in numbers_in(answer))


def matches_text(answer: str | None, *expected: str) -> bool:
    """True if the normalized answer contains any of the expected forms (a name, a place)."""
    if not answer:
        return False
    said = normalize(answer)
    return any(normalize(form) and normalize(form) in said for form in expected)


def matches_time(answer: str | None, hour: int, minute: int) -> bool:
    """'18:30', '6:30 pm', '下午6点半', '18点30分' all match (18, 30)."""
    if not answer:
        return False
    text = unicodedata.normalize("NFKC", answer).lower()
    afternoon = any(word in text for word in ("pm", "下午", "晚上", "傍晚"))
    for h, m in re.findall(r"(\d{1,2})\s*[:点时]\s*(\d{1,2})?", text):
        value_h = int(h) + (12 if afternoon and int(h) < 12 else 0)
        value_m = int(m) if m else (30 if "半" in text else 0)
        if value_h == hour and value_m == minute:
            return True
    return False
