"""Text measurement and wrapping (greedy, CJK-aware), cached: text dominates layout time."""

from __future__ import annotations

import functools

from phonebuddy.phoneworld.ui.theme import font

ELLIPSIS = "…"


@functools.lru_cache(maxsize=65536)
def text_width(text: str, size: int, bold: bool = False) -> int:
    return int(font(size, bold).getlength(text) + 0.5)


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


@functools.lru_cache(maxsize=16384)
def wrap(text: str, size: int, bold: bool, width: int, max_lines: int) -> tuple[str, ...]:
    """Lines of `text` that fit `width` pixels, at most `max_lines` (the last one ellipsized)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for token in _tokens(paragraph):
            candidate = line + token
            if line and text_width(candidate, size, bold) > width:
                lines.append(line.rstrip())
                line = "" if token.isspace() else token
            else:
                line = candidate
            # A single token wider than the line: cut it by characters.
            while text_width(line, size, bold) > width and len(line) > 1:
                cut = len(line) - 1
                while cut > 1 and text_width(line[:cut], size, bold) > width:
                    cut -= 1
                lines.append(line[:cut])
                line = line[cut:]
        lines.append(line.rstrip())
    if len(lines) > max_lines:
        kept = lines[:max_lines]
        last = kept[-1]
        while last and text_width(last + ELLIPSIS, size, bold) > width:
            last = last[:-1]
        kept[-1] = last + ELLIPSIS
        lines = kept
    return tuple(lines)


def line_height(size: int) -> int:
    return int(size * 1.45)
