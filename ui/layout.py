"""Sizes for the Pi's touchscreens, in pixels, from the screen's size and density.

A touch target is at least 9 mm (Microsoft's ideal; 51 px on the original 7-inch 800x480
display at 142 dpi down, 42 px on a 10.1-inch 1024x600 at ~118 ppi). Text is sized for arm's length
(60-80 cm): about 20 arcmin of character height (ISO 9241-3 prefers 20-22, 16 at least), which for
Roboto (cap height 0.711 em) is a font size of 22-30 px on the 7-inch and 18-25 px on the 10-inch
at 60 cm. docs/ui.md has the sources. Kivy's own ``mm()`` is wrong on Linux (it assumes 96 dpi),
so the density is given (``--dpi``) and every size is computed here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

MM_PER_INCH: Final = 25.4
TARGET_MM: Final = 9.0
#: The original Raspberry Pi 7-inch display: 800x480 on 154.08 x 85.92 mm, 132 dpi across and
#: 142 dpi down; the larger, so a target is 9 mm both ways.
PI_7_INCH_DPI: Final = 142.0
#: A 10.1-inch 1024x600 panel (about 118 ppi; measure the panel in use).
TEN_INCH_DPI: Final = 118.0
#: Character height at 60 cm for 20 arcmin: 60 cm x tan(20') = 3.49 mm of cap height.
CAP_HEIGHT_MM: Final = 3.49
ROBOTO_CAP: Final = 0.711
PANEL_SHARE: Final = 0.55


def default_dpi(width: int) -> float:
    """The density of the Pi screen of that width (800: the 7-inch; otherwise the 10-inch)."""
    return PI_7_INCH_DPI if width <= 800 else TEN_INCH_DPI


@dataclass(frozen=True)
class Sizes:
    width: int
    height: int
    dpi: float

    def px(self, mm: float) -> int:
        """At least ``mm`` millimetres, in whole pixels."""
        return math.ceil(mm * self.dpi / MM_PER_INCH)

    @property
    def target(self) -> int:
        """The least height (and width) of anything touched: 9 mm."""
        return self.px(TARGET_MM)

    @property
    def font(self) -> int:
        """Body text: 20 arcmin at 60 cm."""
        return round(self.px(CAP_HEIGHT_MM) / ROBOTO_CAP)

    @property
    def small(self) -> int:
        """Secondary text (the technician's journal): 16 arcmin, the least ISO 9241-3 allows."""
        return round(self.font * 0.8)

    @property
    def banner(self) -> int:
        """OPEN / NO MORE BETS: the biggest words on the screen."""
        return round(self.font * 1.6)

    @property
    def spacing(self) -> int:
        return max(4, self.px(1.2))

    @property
    def panel_width(self) -> int:
        """The dealer's panel: the right 55 % of the screen."""
        return int(self.width * PANEL_SHARE)

    @property
    def panel_columns(self) -> int:
        """How many 9 mm keys fit across the panel."""
        return self.columns(self.panel_width)

    def columns(self, width: int) -> int:
        """How many 9 mm keys fit across ``width`` pixels."""
        return max(1, (width - self.spacing) // (self.target + self.spacing))
