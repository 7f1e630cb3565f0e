"""Round scripts for the game tests: the events a dealer's table sends, and "refused, and nothing
changed".

Every game test writes its rounds with these, so an event reads the same in every module::

    rnd = Round.begin(GAME, rules)
    rnd.apply(wager(1, "ante", "10.00"))
    rnd.apply(NO_MORE_BETS)
    rnd.apply(cards(1, "AS KS QS JS TS"))
    round_refuses(rnd, wager(2, "ante", "10.00"), "no more bets")
"""

from __future__ import annotations

from typing import Any

import pytest

from controller.rules.core.cards import parse_cards
from controller.rules.core.engine import Game, IllegalEvent, Round
from controller.rules.core.events import Event
from controller.rules.core.money import Cents, parse_money

NO_MORE_BETS = Event("no_more_bets")
"""The dealer's "no more bets" (the lock-out)."""


def money(text: str) -> Cents:
    """``"10.00"`` -> 1000 cents."""
    return parse_money(text, "test amount")


def wager(seat: int, name: str, amount: str) -> Event:
    return Event("wager", seat=seat, wager=name, amount=money(amount))


def cards(to: int | str, text: str, hand: int = 0, *, decks: int = 1) -> Event:
    """Cards dealt to a seat, ``"dealer"`` or ``"board"``; ``decks`` lets a shoe's duplicates through."""
    return Event("cards", to=str(to), cards=parse_cards(text, decks=decks), hand=hand)


def decide(seat: int, action: str, amount: str | None = None, *, hand: int = 0) -> Event:
    return Event(
        "decision", seat=seat, action=action, hand=hand, amount=None if amount is None else money(amount)
    )


def throw(*faces: int) -> Event:
    """A throw of the dice, in the order the game reads them (Three Dice Football: green, green, red)."""
    return Event("dice", dice=faces)


def irregularity(kind: str, *, seat: int | None = None, detail: str = "") -> Event:
    return Event("irregularity", kind=kind, seat=seat, detail=detail)


def second_area(seat: int, area: int) -> Event:
    """The player at betting area ``seat`` takes the adjacent ``area`` too (Asia Poker, § 659a.7(f))."""
    return Event("second_area", seat=seat, area=area)


def meter(name: str, amount: str) -> Event:
    return Event("meter", name=name, amount=money(amount))


def refused(game: Game[Any, Any], state: Any, event: Event, match: str) -> None:
    """``game`` refuses ``event`` in ``state`` with a message matching ``match``; the state is
    unchanged (it is immutable: equal, and printed the same, after the refusal)."""
    shown = repr(state)
    with pytest.raises(IllegalEvent, match=match):
        game.apply(state, event)
    assert repr(state) == shown


def round_refuses(rnd: Round[Any, Any], event: Event, match: str) -> None:
    """The round refuses ``event`` with a message matching ``match`` and is exactly as it was: the
    same state object, the same events."""
    before, shown, events = rnd.state, repr(rnd.state), list(rnd.events)
    with pytest.raises(IllegalEvent, match=match):
        rnd.apply(event)
    assert rnd.state is before and repr(rnd.state) == shown
    assert rnd.events == events
