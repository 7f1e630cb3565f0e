"""What the dealer's screen offers at a Blackjack round now (ch. 633a): the decisions the rules
take at this step, and each hand's total.

The decisions are found by the rules themselves: each decision of :data:`.state.ACTIONS` is tried
on the round's state (:func:`.decisions.decision_event`, a pure function: nothing changes) and is
offered when the rules take it. So what is offered never disagrees with what is refused: no
insurance or even money unless the up card is an ace (§ 633a.8), no surrender unless the Rules
Submission offers it and the hand is its initial two cards (§ 633a.9), no double down or split
the Rules Submission does not allow (§ 633a.10, § 633a.11), no rescue but on a hand doubled down
at a Spanish 21 table that offers it (§ 635a.10).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from ...core.engine import IllegalEvent
from ...core.events import Event
from ...core.hooks import HandTotal, Step, Waiting
from ...rankings.blackjack import blackjack_value
from .decisions import decision_event
from .state import ACTIONS, BlackjackState


def taken(state: BlackjackState, seat: int, hand: int) -> tuple[str, ...]:
    """The decisions of ``seat``'s ``hand`` the rules take now, in :data:`.state.ACTIONS`'s order."""
    out = []
    for action in ACTIONS:
        try:
            decision_event(state, Event("decision", seat=seat, action=action, hand=hand))
        except IllegalEvent:
            continue
        out.append(action)
    return tuple(out)


def with_decisions(state: BlackjackState, items: Iterable[Waiting]) -> tuple[Waiting, ...]:
    """``items`` (what the round waits for) each with the decisions it takes: a player's decision
    its seat's (every seat's, while the players decide on insurance, § 633a.8); any other step
    none."""
    out = []
    for item in items:
        if item.step is not Step.DECISION:
            decisions: tuple[str, ...] = ()
        elif item.seat is not None:
            decisions = taken(state, item.seat, item.hand or 0)
        else:
            found = {a for seat in sorted(state.seats) for a in taken(state, seat, 0)}
            decisions = tuple(a for a in ACTIONS if a in found)
        out.append(dataclasses.replace(item, decisions=decisions))
    return tuple(out)


def totals(state: BlackjackState) -> tuple[HandTotal, ...]:
    """Each hand's total (``"soft 17"``, ``"hard 16"``, ``"blackjack"``, ``"bust (24)"``,
    § 633a.1): every seat's hands (its initial cards until they are dealt), then the dealer's (the
    up card alone until the hole card is turned)."""
    out: list[HandTotal] = []
    for number in sorted(state.seats):
        seat = state.seats[number]
        if seat.hands:
            out.extend(
                HandTotal(str(number), index, hand.value.words)
                for index, hand in enumerate(seat.hands)
                if hand.cards
            )
        elif seat.initial:
            out.append(HandTotal(str(number), 0, blackjack_value(seat.initial).words))
    if state.dealer:
        out.append(HandTotal("dealer", 0, blackjack_value(state.dealer).words))
    return tuple(out)
