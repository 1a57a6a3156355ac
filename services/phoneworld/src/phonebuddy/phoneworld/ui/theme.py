"""Colours, fonts and sizes. Sizes are in design pixels for a 1080-pixel-wide screen and scale
with the screen's width; fonts are cached once per process."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from PIL import ImageFont

DESIGN_WIDTH = 1080
Color = tuple[int, int, int]

WHITE: Color = (255, 255, 255)
BLACK: Color = (0, 0, 0)
TEXT: Color = (33, 33, 33)
TEXT_SECONDARY: Color = (117, 117, 117)
DIVIDER: Color = (230, 230, 230)
BACKGROUND: Color = (245, 245, 245)
SURFACE: Color = (255, 255, 255)
DISABLED: Color = (189, 189, 189)
DANGER: Color = (229, 57, 53)
FIELD_BACKGROUND: Color = (240, 240, 240)
SCRIM: Color = (90, 90, 90)

_FONT_DIRS = (Path("/usr/share/fonts/opentype/noto"), Path("/usr/share/fonts/truetype/noto"))
_FONT_FILES = {False: "NotoSansCJK-Regular.ttc", True: "NotoSansCJK-Bold.ttc"}
_SIMPLIFIED_CHINESE_INDEX = 2  # in the .ttc collection: JP, KR, SC, TC, HK


class FontNotFoundError(RuntimeError):
    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(
            f"font {name} not found in {', '.join(map(str, _FONT_DIRS))}; "
            "install Debian's fonts-noto-cjk (`make setup` does)"
        )


@functools.cache
def font(size: int, bold: bool = False, *, basic: bool = False) -> ImageFont.FreeTypeFont:
    """The UI font; `basic` lays text out without shaping or bidi (raqm), a fallback that
    cannot refuse a string."""
    name = _FONT_FILES[bold]
    engine = ImageFont.Layout.BASIC if basic else None
    for folder in _FONT_DIRS:
        path = folder / name
        if path.exists():
            return ImageFont.truetype(
                str(path), size, index=_SIMPLIFIED_CHINESE_INDEX, layout_engine=engine
            )
    raise FontNotFoundError(name)


@dataclass(frozen=True, slots=True)
class AppTheme:
    """An app's look: its brand colour (app bar, primary buttons) and the text on it."""

    primary: Color
    on_primary: Color = WHITE
    background: Color = BACKGROUND
    # Text and outlines in the brand colour on white; set it when the brand colour is too light
    # to read there (Meituan yellow).
    accent: Color | None = None

    @property
    def text_accent(self) -> Color:
        return self.accent or self.primary


DEFAULT_THEME = AppTheme(primary=(33, 150, 243))
