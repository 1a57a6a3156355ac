"""Text measurement and wrapping (greedy, CJK-aware), cached: text dominates layout time.

Any string can be measured and drawn. Text is shown the way a text view shows it: line breaks
(`\\r\\n`, `\\r`, NEL, U+2028, U+2029) end lines, control characters are not drawn and surrogate
halves show as U+FFFD (the rule of `phonebuddy.protocol.text_entry`); raqm, the shaping engine,
refuses bidi paragraph separators inside a line. Should raqm still refuse a line, it is laid out
without shaping instead, so one odd string never fails a frame.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import TypeVar

from PIL import ImageFont

from phonebuddy.phoneworld.ui.theme import font
from phonebuddy.protocol import text_entry

log = logging.getLogger(__name__)
T = TypeVar("T")
ELLIPSIS = "…"
# No line shows more characters than this, so text past (lines + 1) times this is never
# measured: the cost of a frame does not grow with what was typed.
LINE_CHARS = 256
_LAYOUT_ERRORS = (OSError, RuntimeError, ValueError)


def displayed(text: str) -> str:
    """`text` as a text view shows it: each line break one `\\n`, nothing that is not drawn."""
    if text.isprintable() or (text.isascii() and all(c.isprintable() or c == "\n" for c in text)):
        return text
    return text_entry.normalize(text)


def one_line(text: str) -> str:
    """`text` shown on a single line (a single-line field): line breaks show as spaces."""
    return displayed(text).replace("\n", " ")


def laid_out(
    text: str, size: int, bold: bool, use: Callable[[ImageFont.FreeTypeFont, str], T], empty: T
) -> T:
    """`use(font, line)` for `text` as one line: with the shaping font; if text layout fails even
    so, with the basic layout engine (no shaping, no bidi); last, `empty` (nothing drawn)."""
    line = one_line(text)
    for basic in (False, True):
        try:
            return use(font(size, bold, basic=basic), line)
        except _LAYOUT_ERRORS as exc:
            log.warning("text layout failed (basic=%s) for %r: %s", basic, line[:80], exc)
    return empty


def _width(face: ImageFont.FreeTypeFont, line: str) -> int:
    return int(face.getlength(line) + 0.5)


@functools.lru_cache(maxsize=65536)
def text_width(text: str, size: int, bold: bool = False) -> int:
    return laid_out(text, size, bold, _width, 0)


def _tokens(text: str) -> list[str]:
    """Words for Latin text, single characters for CJK, so both wrap naturally."""
    tokens: list[str] = []
    word = ""
    for ch in text:
        if ch == " ":
            if word:
                tokens.append(word)
            tokens.append(" ")
            word = ""
        elif ord(ch) > 0x2E7F:  # CJK and beyond: break anywhere
            if word:
                tokens.append(word)
                word = ""
            tokens.append(ch)
        else:
            word += ch
    if word:
        tokens.append(word)
    return tokens


def _fitting_prefix(line: str, size: int, bold: bool, width: int) -> int:
    """The longest prefix of `line` (at least one character) that fits `width`."""
    low, high = 1, len(line) - 1  # line itself does not fit
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(line[:middle], size, bold) > width:
            high = middle - 1
        else:
            low = middle
    return low


def _ellipsized(line: str, size: int, bold: bool, width: int) -> str:
    while line and text_width(line + ELLIPSIS, size, bold) > width:
        line = line[:-1]
    return line + ELLIPSIS


def wrap(text: str, size: int, bold: bool, width: int, max_lines: int) -> tuple[str, ...]:
    """Lines of `text` that fit `width` pixels, at most `max_lines` (the last one ellipsized
    when the text does not all fit)."""
    limit = (max_lines + 1) * LINE_CHARS
    return _wrap(text[:limit], size, bold, width, max_lines, len(text) > limit)


@functools.lru_cache(maxsize=16384)
def _wrap(
    text: str, size: int, bold: bool, width: int, max_lines: int, cut_short: bool
) -> tuple[str, ...]:
    lines = _lines(text, size, bold, width, max_lines)
    if len(lines) > max_lines or cut_short:
        lines = lines[:max_lines]
        lines[-1] = _ellipsized(lines[-1], size, bold, width)
    return tuple(lines)


def _lines(text: str, size: int, bold: bool, width: int, max_lines: int) -> list[str]:
    """The first lines of `text`, one more than `max_lines` when it has more."""
    lines: list[str] = []
    for paragraph in displayed(text).split("\n"):
        line = ""
        for token in _tokens(paragraph):
            candidate = line + token
            if line and text_width(candidate, size, bold) > width:
                lines.append(line.rstrip())
                line = "" if token.isspace() else token
            else:
                line = candidate
            # A single token wider than the line: cut it by characters.
            while len(line) > 1 and text_width(line, size, bold) > width:
                cut = _fitting_prefix(line, size, bold, width)
                lines.append(line[:cut])
                line = line[cut:]
            if len(lines) > max_lines:
                return lines
        lines.append(line.rstrip())
        if len(lines) > max_lines:
            return lines
    return lines


def line_height(size: int) -> int:
    return int(size * 1.45)
