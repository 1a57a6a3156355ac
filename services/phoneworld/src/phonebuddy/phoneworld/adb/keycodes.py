"""Android key codes (android.view.KeyEvent) for `input keyevent` and ADBKeyboard's
ADB_INPUT_CODE: names, numbers, and the character that a printable key types."""

from __future__ import annotations

import string

_NAMED = {
    0: "UNKNOWN", 1: "SOFT_LEFT", 2: "SOFT_RIGHT", 3: "HOME", 4: "BACK", 5: "CALL",
    6: "ENDCALL", 17: "STAR", 18: "POUND", 19: "DPAD_UP", 20: "DPAD_DOWN", 21: "DPAD_LEFT",
    22: "DPAD_RIGHT", 23: "DPAD_CENTER", 24: "VOLUME_UP", 25: "VOLUME_DOWN", 26: "POWER",
    27: "CAMERA", 28: "CLEAR", 55: "COMMA", 56: "PERIOD", 57: "ALT_LEFT", 58: "ALT_RIGHT",
    59: "SHIFT_LEFT", 60: "SHIFT_RIGHT", 61: "TAB", 62: "SPACE", 63: "SYM", 64: "EXPLORER",
    65: "ENVELOPE", 66: "ENTER", 67: "DEL", 68: "GRAVE", 69: "MINUS", 70: "EQUALS",
    71: "LEFT_BRACKET", 72: "RIGHT_BRACKET", 73: "BACKSLASH", 74: "SEMICOLON",
    75: "APOSTROPHE", 76: "SLASH", 77: "AT", 78: "NUM", 79: "HEADSETHOOK", 80: "FOCUS",
    81: "PLUS", 82: "MENU", 83: "NOTIFICATION", 84: "SEARCH", 85: "MEDIA_PLAY_PAUSE",
    86: "MEDIA_STOP", 87: "MEDIA_NEXT", 88: "MEDIA_PREVIOUS", 89: "MEDIA_REWIND",
    90: "MEDIA_FAST_FORWARD", 91: "MUTE", 92: "PAGE_UP", 93: "PAGE_DOWN", 111: "ESCAPE",
    112: "FORWARD_DEL", 113: "CTRL_LEFT", 114: "CTRL_RIGHT", 115: "CAPS_LOCK",
    122: "MOVE_HOME", 123: "MOVE_END", 160: "NUMPAD_ENTER", 164: "VOLUME_MUTE",
    176: "SETTINGS", 187: "APP_SWITCH", 207: "CONTACTS", 208: "CALENDAR", 209: "MUSIC",
    210: "CALCULATOR", 219: "ASSIST", 220: "BRIGHTNESS_DOWN", 221: "BRIGHTNESS_UP",
    223: "SLEEP", 224: "WAKEUP", 231: "VOICE_ASSIST", 276: "SOFT_SLEEP", 284: "ALL_APPS",
}  # fmt: skip
KEYCODES: dict[int, str] = {
    **_NAMED,
    **{7 + d: str(d) for d in range(10)},
    **{29 + i: letter for i, letter in enumerate(string.ascii_uppercase)},
}
BY_NAME: dict[str, int] = {name: code for code, name in KEYCODES.items()}
PRINTABLE: dict[str, str] = {
    **{str(d): str(d) for d in range(10)},
    **{letter: letter.lower() for letter in string.ascii_uppercase},
    "SPACE": " ", "COMMA": ",", "PERIOD": ".", "GRAVE": "`", "MINUS": "-", "EQUALS": "=",
    "LEFT_BRACKET": "[", "RIGHT_BRACKET": "]", "BACKSLASH": "\\", "SEMICOLON": ";",
    "APOSTROPHE": "'", "SLASH": "/", "AT": "@", "PLUS": "+", "STAR": "*", "POUND": "#",
}  # fmt: skip
# Keys the device gives a meaning of its own (everything else is a recorded no-op there).
ALIASES = {"NUMPAD_ENTER": "ENTER"}


def parse_keycode(text: str) -> str | None:
    """`4`, `BACK` or `KEYCODE_BACK` -> `BACK`; None when Android would not know the key."""
    if text.isdigit():
        return KEYCODES.get(int(text))
    name = text.upper().removeprefix("KEYCODE_")
    return name if name in BY_NAME else None
