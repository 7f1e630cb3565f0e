"""The screen's colours against WCAG 2.x: a control's edge at least 3:1 against what is around it
(1.4.11), a disabled key told from an enabled one by 3:1 as well, and text at 4.5:1 (1.4.3),
computed from ``ui.theme`` (the colours the widgets draw with)."""

from __future__ import annotations

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
