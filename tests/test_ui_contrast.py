"""The screen's colours against WCAG 2.x: a control's edge at least 3:1 against what is around it
(1.4.11), a disabled key told from an enabled one by 3:1 as well, and text at 4.5:1 (1.4.3),
computed from ``ui.theme`` (the colours the widgets draw with)."""

from __future__ import annotations

import itertools
import math

import pytest

from ui import theme
from ui.theme import contrast


def test_contrast_is_wcags_formula() -> None:
    assert contrast(theme.rgb("#FFFFFF"), theme.rgb("#000000")) == pytest.approx(21.0)
    assert contrast(theme.rgb("#0072B2"), theme.rgb("#FFFFFF")) == pytest.approx(5.19, abs=0.01)


@pytest.mark.parametrize(
    ("what", "one", "other", "least"),
    [
        ("an enabled key's edge on the background", theme.KEY_EDGE, theme.BACKGROUND, 3.0),
        ("an enabled key's edge on a panel", theme.KEY_EDGE, theme.PANEL, 3.0),
        ("an enabled key's edge against a disabled key's", theme.KEY_EDGE, theme.DISABLED_EDGE, 3.0),
        ("a key's text on the key", theme.WHITE, theme.KEY, 4.5),
        ("a disabled key's text on it", theme.GREY_TEXT, theme.DISABLED, 4.5),
        ("BETS OPEN", theme.WHITE, theme.BLUE, 4.5),
        ("NO MORE BETS", theme.BLACK, theme.YELLOW, 4.5),
        ("PAYING", theme.BLACK, theme.SKY, 4.5),
        ("PENDING and HOLD", theme.BLACK, theme.ORANGE, 4.5),
        ("OFFLINE", theme.BLACK, theme.VERMILLION, 4.5),
    ],
)
def test_the_pairs_meet_wcag(what: str, one: theme.RGBA, other: theme.RGBA, least: float) -> None:
    assert contrast(one, other) >= least, f"{what}: {contrast(one, other):.2f}:1 < {least}:1"


# -- Colour-blind: each state's colour still told apart from every other's --------------------------

#: Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for Simulation of Color
#: Vision Deficiency", severity 1.0, on linear sRGB: what a dichromat sees of a colour.
DICHROMATS: dict[str, tuple[tuple[float, float, float], ...]] = {
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
}

#: The states' colours (ui/theme.py's docstring: one meaning each).
STATES: dict[str, theme.RGBA] = {
    "BETS OPEN": theme.BLUE,
    "NO MORE BETS": theme.YELLOW,
    "PAYING / PAY": theme.SKY,
    "PENDING / HOLD": theme.ORANGE,
    "OFFLINE / LOCKED OUT": theme.VERMILLION,
    "a refusal": theme.PURPLE,
}

#: CIE76 colour difference at which two colours are seen as different colours at a glance, not
#: only side by side (a just-noticeable difference is about 2.3).
AT_A_GLANCE = 15.0


def _linear(colour: theme.RGBA) -> tuple[float, float, float]:
    def one(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return (one(colour[0]), one(colour[1]), one(colour[2]))


def _seen(colour: theme.RGBA, matrix: tuple[tuple[float, float, float], ...] | None) -> tuple[float, ...]:
    """The colour in CIE L*a*b* (D65), as a dichromat (``matrix``) or anyone (``None``) sees it."""
    r, g, b = _linear(colour)
    if matrix is not None:
        r, g, b = (min(1.0, max(0.0, row[0] * r + row[1] * g + row[2] * b)) for row in matrix)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def _difference(one: theme.RGBA, other: theme.RGBA, vision: str) -> float:
    matrix = DICHROMATS[vision]
    return math.dist(_seen(one, matrix), _seen(other, matrix))


@pytest.mark.parametrize("vision", sorted(DICHROMATS))
def test_every_state_is_told_from_every_other_by_the_colour_blind(vision: str) -> None:
    """Checked for deuteranopia (and protanopia): no two states' colours merge (issue 19)."""
    close = [
        f"{a} and {b}: {_difference(STATES[a], STATES[b], vision):.1f}"
        for a, b in itertools.combinations(STATES, 2)
        if _difference(STATES[a], STATES[b], vision) < AT_A_GLANCE
    ]
    assert close == [], f"{vision}: {close} (under {AT_A_GLANCE})"


def test_the_simulation_merges_what_a_deuteranope_cannot_tell_apart() -> None:
    """The check has teeth: a red and a green that anyone tells apart (ΔE over 50) merge under the
    deuteranope's model (the classic traffic-light pair)."""
    red, green = theme.rgb("#D55E00"), theme.rgb("#6A9A00")
    assert math.dist(_seen(red, None), _seen(green, None)) > 50
    assert _difference(red, green, "deuteranopia") < AT_A_GLANCE
