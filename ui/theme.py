"""The screen's colours, apart from Kivy (a test computes their contrast without a window).

The Okabe-Ito palette, readable by the colour-blind, never colour alone (WCAG 1.4.1): each state
has its word and its shape as well. One meaning per colour: blue BETS OPEN, yellow NO MORE BETS,
sky blue PAYING and PAY, orange PENDING / HOLD (a payout waiting for a floorperson), vermillion
OFFLINE and TABLE LOCKED OUT, reddish purple a refusal. A key has a light edge (3:1 or more
against the background, WCAG 1.4.11); a disabled key has none. The ratios:
``tests/test_ui_contrast.py`` and docs/ui.md.
"""

from __future__ import annotations

from typing import Final

RGBA = tuple[float, float, float, float]


def rgb(hex_colour: str) -> RGBA:
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255, 1.0)


BACKGROUND: Final = rgb("#111111")
PANEL: Final = rgb("#1E1E1E")
WHITE: Final = rgb("#FFFFFF")
BLACK: Final = rgb("#000000")
BLUE: Final = rgb("#0072B2")  # white on it: 5.19
YELLOW: Final = rgb("#F0E442")  # black on it: 15.9
ORANGE: Final = rgb("#E69F00")  # black on it: 10.0
SKY: Final = rgb("#56B4E9")  # black on it: 9.9 (PAYING: the settled round is still on the table)
VERMILLION: Final = rgb("#D55E00")  # black on it: 5.43
KEY: Final = rgb("#3A3A3A")  # white on it: 11.2
CHOSEN: Final = rgb("#FFFFFF")  # black on it
DISABLED: Final = rgb("#2A2A2A")
GREY_TEXT: Final = rgb("#B0B0B0")  # on #1E1E1E: 8.2
#: A key's edge: 7.0:1 on the background, 6.2:1 on a panel, 5.4:1 against a disabled key's.
KEY_EDGE: Final = rgb("#9E9E9E")
#: A disabled key has no edge of its own: its outline is its fill.
DISABLED_EDGE: Final = DISABLED
#: A refusal (the daemon's no): black on it 7.6:1, apart from PENDING's orange.
PURPLE: Final = rgb("#CC79A7")


def luminance(colour: RGBA) -> float:
    """WCAG 2.x relative luminance of an sRGB colour."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: RGBA, other: RGBA) -> float:
    """WCAG 2.x contrast ratio, 1 to 21."""
    a, b = sorted((luminance(one), luminance(other)), reverse=True)
    return (a + 0.05) / (b + 0.05)
