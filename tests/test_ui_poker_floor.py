"""The disputed pot's view-model (ui/poker_floor.py), without Kivy: what the dealer may report at the
showdown, the hands a floorperson may rule dead, and what his PIN signs (docs/authority.md)."""

from __future__ import annotations

import pytest

from ui.pin_pad import Purpose
from ui.poker import PokerView, poker_view
from ui.poker_floor import (
    DISPUTES,
    dead_hand,
    dismissal,
    dispute_event,
    hands_in_showdown,
    may_dispute,
    ruling_event,
)

from .test_ui_poker_model import TABLE, status


def showdown(folded: tuple[int, ...] = (2,)) -> PokerView:
    seats = [{**s, "folded": s["seat"] in folded} for s in TABLE["seats"]]
    view = poker_view(status(phase="showdown", turn=None, actions=[], seats=seats))
    assert view is not None
    return view


def test_a_pot_is_disputed_only_at_the_showdown() -> None:
    betting = poker_view(status())
    assert betting is not None and not may_dispute(betting)
    view = showdown()
    assert may_dispute(view)


def test_the_dealer_reports_what_is_disputed_in_the_words_offered() -> None:
    assert [w for _, w in DISPUTES] == ["Hand shown", "Pot awarded", "Cards exposed"]
    words, event = dispute_event("hand_shown")
    assert event == {
        "type": "irregularity",
        "kind": "disputed_pot",
        "detail": "disputed at the showdown: hand shown",
    }
    assert "floorperson" in words
    with pytest.raises(ValueError, match="say what is disputed"):
        dispute_event("the dealer's own ruling")


def test_the_floorperson_rules_dead_only_a_hand_still_in_the_showdown() -> None:
    view = showdown(folded=(2,))
    assert hands_in_showdown(view) == (1, 3, 4)
    purpose = dead_hand(view, 3)
    assert purpose.kind == "dead_hand" and purpose.seat == 3
    assert ruling_event(purpose) == {
        "type": "irregularity",
        "kind": "disputed_pot",
        "seat": 3,
        "detail": "seat 3's hand is dead, ruled by the floorperson at the showdown",
    }
    with pytest.raises(ValueError, match="seat 2 has no hand in the showdown"):
        dead_hand(view, 2)


def test_a_ruling_without_words_or_seat_is_not_sent() -> None:
    with pytest.raises(ValueError, match="give the floorperson's ruling in words"):
        ruling_event(Purpose("dead_hand", "disputed pot", seat=1))
    with pytest.raises(ValueError, match="in words"):
        ruling_event(Purpose("dead_hand", "disputed pot", detail="dead"))


def test_the_dismissal_is_the_floorpersons_with_the_irregularity_named() -> None:
    purpose = dismissal()
    assert (purpose.kind, purpose.detail) == ("dismiss", "disputed_pot")
    assert "dismissed" in purpose.title
