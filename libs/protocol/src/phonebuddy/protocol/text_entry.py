"""What a `type` action does to the focused text field: one rule for every source.

PhoneWorld (over NATS and over ADB) and the device gateway (on real phones) all type through
`keystrokes`, so the same text leaves the same field contents everywhere. The rule mirrors a
phone's keyboard:

- A line break -- `\\n`, `\\r\\n`, `\\r`, NEL U+0085, LINE SEPARATOR U+2028, PARAGRAPH SEPARATOR
  U+2029 -- is the Enter key. A multi-line field gets a new line (`\\n`); a single-line field
  runs its action (search, send, next) as Android's single-line EditText does, and keeps no line
  break.
- Every other control character (C0 including tab, NUL, VT, FF and U+001C-U+001F; DEL; C1) and
  every Unicode noncharacter (U+FDD0-U+FDEF, U+xxFFFE, U+xxFFFF) is dropped: a phone keyboard
  has no key for them and Android's `input text` refuses them.
- A surrogate half can only arrive in bytes over ADB: a high-low pair is joined into its
  character, an unpaired half becomes U+FFFD, as Java's decoders do.
- Everything else is typed as it is: combining marks, emoji and ZWJ sequences, right-to-left
  scripts and bidi controls, other format characters, private-use and unassigned code points.
"""

from __future__ import annotations

import re
import unicodedata

ENTER = "\n"
"""In the result of `normalize` and `keystrokes`: one press of the Enter key."""
REPLACEMENT = "\ufffd"

_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
_SURROGATE_PAIR = re.compile("([\ud800-\udbff])([\udc00-\udfff])")
_SURROGATE = re.compile("[\ud800-\udfff]")
_NONCHARACTER = re.compile(
    "[\ufdd0-\ufdef\ufffe\uffff"
    + "".join(f"{chr(plane << 16 | 0xFFFE)}{chr(plane << 16 | 0xFFFF)}" for plane in range(1, 17))
    + "]"
)


def _is_control(ch: str) -> bool:
    return unicodedata.category(ch) == "Cc"


def _join_pair(match: re.Match[str]) -> str:
    high, low = (ord(c) for c in match.groups())
    return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))


def normalize(text: str) -> str:
    """`text` as the keyboard types it: each line break one ENTER (`\\n`), controls and
    noncharacters gone, surrogate halves joined or replaced."""
    text = _SURROGATE.sub(REPLACEMENT, _SURROGATE_PAIR.sub(_join_pair, text))
    text = _NONCHARACTER.sub("", _LINE_BREAK.sub(ENTER, text))
    return "".join(ch for ch in text if ch == ENTER or not _is_control(ch))


def keystrokes(text: str) -> list[str]:
    """`text` as what the keyboard sends, in order: runs of text to commit, and ENTER for each
    press of the Enter key. Nothing for text that holds nothing typable."""
    strokes: list[str] = []
    for index, run in enumerate(normalize(text).split(ENTER)):
        if index:
            strokes.append(ENTER)
        if run:
            strokes.append(run)
    return strokes
