"""The typing rule every source shares: line breaks are Enter, controls type nothing, surrogate
halves are joined or replaced, everything else is typed as it is."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phonebuddy.protocol.text_entry import ENTER, REPLACEMENT, keystrokes, normalize

# Any code point, surrogate halves included (they reach the rule from bytes over ADB).
ANY_TEXT = st.text(st.characters(codec=None, categories=None), max_size=60)


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("a\nb", "a\nb"),
        ("a\r\nb", "a\nb"),
        ("a\rb", "a\nb"),
        ("a\x85b\u2028c\u2029d", "a\nb\nc\nd"),
        ("a\r\n\r\nb", "a\n\nb"),
        ("a\tb\x00c\x0bd\x0ce\x1bf\x7fg\x9fh", "abcdefgh"),
        ("\x1c\x1d\x1e\x1f", ""),
        ("x\ufffey\uffffz\ufdd0\U0010fffe\U0001ffff", "xyz"),
        ("\ud83d\ude42", "🙂"),
        ("a\ud800b\udc00c\ude42\ud83d", f"a{REPLACEMENT}b{REPLACEMENT}c{REPLACEMENT}{REPLACEMENT}"),
        ("e\u0301 👩\u200d👩\u200d👧 مرحبا שלום \u202eabc\u202c 中文", None),
        ("\ue000 \U000e0001 \U0003fffd", None),  # private use, a tag, unassigned: kept
    ],
)
def test_normalize_table(text: str, typed: str | None) -> None:
    assert normalize(text) == (text if typed is None else typed)


def test_keystrokes_are_runs_of_text_and_enter_presses() -> None:
    assert keystrokes("hi\r\nthere\n") == ["hi", ENTER, "there", ENTER]
    assert keystrokes("\n\n中") == [ENTER, ENTER, "中"]
    assert keystrokes("\t\x00") == []
    assert keystrokes("") == []


@given(ANY_TEXT)
def test_whatever_is_typed_is_text_a_screen_and_a_utf8_wire_can_carry(text: str) -> None:
    typed = normalize(text)
    typed.encode("utf-8")  # no surrogate halves left
    for ch in typed:
        if ch == ENTER:
            continue
        assert unicodedata.category(ch) not in ("Cc", "Cs")
        assert unicodedata.bidirectional(ch) != "B"  # raqm refuses these inside a line
        assert (ord(ch) & 0xFFFE) != 0xFFFE
        assert not 0xFDD0 <= ord(ch) <= 0xFDEF
    assert normalize(typed) == typed
    assert "".join(keystrokes(text)) == typed


@given(st.text(st.characters(exclude_categories=("Cc", "Cs", "Zl", "Zp", "Cn")), max_size=60))
def test_text_without_controls_is_typed_unchanged(text: str) -> None:
    assert normalize(text) == text
