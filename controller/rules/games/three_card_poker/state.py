"""The state of a Three Card Poker round (ch. 649a), its next step and what it waits for.
Immutable: :mod:`.play` makes each event's new state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from ...core.cards import Card
from ...core.hooks import Actor, Step, Waiting
from ...core.money import Cents
from .rules import (
    ANTE,
    DEALER,
    SEC_DEAL,
    SEC_DECISION,
    SEC_WAGERS,
    ThreeCardPokerRules,
)

# --- the round -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThreeCardPokerState:
    """A round of Three Card Poker so far (immutable: a refused event changes nothing)."""

    rules: ThreeCardPokerRules
    meters: Mapping[str, Cents]
    wagers: Mapping[int, Mapping[str, Cents]] = field(default_factory=lambda: MappingProxyType({}))
    """Each seat's wagers by name, the Play Wager included once made."""
    no_more_bets: bool = False
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=lambda: MappingProxyType({}))
    """Three cards for each seat (``"1"``...) and the dealer (``"dealer"``)."""
    decisions: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    """``"play"`` or ``"fold"`` for each seat with an Ante Wager, in the order made."""
    cards_face_up: int = 0
    """Cards found face up in the deck during the deal (§ 649a.13(a))."""
    face_up: tuple[Card, ...] = ()
    """The card found face up, when its report names it: not used this round (§ 649a.13 as
    § 639a.13(a))."""
    void: str = ""
    void_section: str = ""
    irregularities: tuple[str, ...] = ()
    """Irregularities that left the round standing, in words."""

    @property
    def ante_seats(self) -> tuple[int, ...]:
        """Seats with an Ante Wager, from the dealer's left (seat 1) clockwise."""
        return tuple(sorted(s for s, w in self.wagers.items() if ANTE in w))

    @property
    def next_to_decide(self) -> int | None:
        """The seat asked next to play or fold (§ 649a.11(b)), or ``None`` when all have."""
        return next((s for s in self.ante_seats if s not in self.decisions), None)

    @property
    def players_dealt(self) -> bool:
        return all(str(s) in self.hands for s in self.wagers)

    @property
    def phase(self) -> str:
        """In words, for messages: what the round is doing now."""
        if self.void:
            return "void"
        if not self.no_more_bets:
            return "taking wagers"
        if not self.players_dealt:
            return "dealing"
        if self.next_to_decide is not None:
            return "taking decisions"
        return "complete" if DEALER in self.hands else "waiting for the dealer's cards"


def frozen_wagers(d: Mapping[int, Mapping[str, Cents]]) -> Mapping[int, Mapping[str, Cents]]:
    return MappingProxyType({s: MappingProxyType(dict(w)) for s, w in d.items()})


IRREGULARITIES: Final = (
    "card_face_up",
    "card_drawn_in_error",
    "wrong_card_count",
    "hole_card_exposed",
    "shuffler_jam",
    "shoe_jam",
    "stub_count_incorrect",
)
"""The ``kind`` of each irregularity event this game accepts (docs/games/three-card-poker.md)."""


def waiting_for(state: ThreeCardPokerState) -> tuple[Waiting, ...]:
    if not state.no_more_bets:
        return (Waiting(Actor.DEALER, '"no more bets"', SEC_WAGERS, step=Step.BETS),)
    undealt = [str(s) for s in sorted(state.wagers) if str(s) not in state.hands]
    if undealt:
        what = f"the cards of seat{'s' if len(undealt) > 1 else ''} {', '.join(undealt)}"
        return (
            Waiting(
                Actor.SHOE, what, SEC_DEAL, int(undealt[0]) if len(undealt) == 1 else None, step=Step.CARDS
            ),
        )
    seat = state.next_to_decide
    if seat is not None:
        return (
            Waiting(
                Actor.PLAYER,
                f"seat {seat} to play or fold ({SEC_DECISION})",
                SEC_DECISION,
                seat,
                step=Step.DECISION,
            ),
        )
    if DEALER not in state.hands:
        return (Waiting(Actor.SHOE, "the dealer's cards", SEC_DEAL, step=Step.CARDS),)
    return ()
