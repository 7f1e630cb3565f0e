"""The state of a poker room round (§§ 637a.19-637a.21): the words of its bets and decisions,
each seat's bets and cards, the draw in progress. Immutable: :mod:`.play` makes each
event's new state."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final

from ...core.cards import Card
from ...core.money import Cents
from .draw import DrawDeck
from .rules import VARIANTS, PokerRoomRules, Variant

# --- the state of a round -------------------------------------------------------------------

ANTE: Final = "ante"
BLIND: Final = "blind"
STRADDLE: Final = "straddle"
KILL: Final = "kill"
BET: Final = "bet"
WAGERS: Final = (ANTE, BLIND, STRADDLE, KILL, BET)

FOLD: Final = "fold"
STAND_PAT: Final = "stand_pat"

#: Flag on the outcomes of a player who won the whole of a qualifying pot under the Kill option.
KILL_FLAG: Final = "kill_pot"


@dataclass(frozen=True, slots=True)
class SeatState:
    """One player: his bets by name, his hand, whether he folded, and what he discarded."""

    seat: int
    bets: tuple[tuple[str, Cents], ...] = ()
    cards: tuple[Card, ...] = ()
    folded: bool = False
    discards: tuple[Card, ...] = ()

    @property
    def total(self) -> Cents:
        return sum(a for _, a in self.bets)

    def bet(self, name: str) -> Cents:
        return sum(a for n, a in self.bets if n == name)

    def add_bet(self, name: str, amount: Cents) -> SeatState:
        if any(n == name for n, _ in self.bets):
            bets = tuple((n, a + amount if n == name else a) for n, a in self.bets)
        else:
            bets = (*self.bets, (name, amount))
        return replace(self, bets=bets)


@dataclass(frozen=True, slots=True)
class Drawing:
    """A player in the middle of his draw: he discarded, and is owed ``owed`` new cards."""

    seat: int
    owed: int


@dataclass(frozen=True, slots=True)
class PokerRoomState:
    rules: PokerRoomRules
    button: int | None = None
    seats: tuple[SeatState, ...] = ()  # the players dealt in, ascending
    board: tuple[Card, ...] = ()
    deck: DrawDeck = field(default_factory=DrawDeck)
    blinds: tuple[int, ...] = ()  # seats that posted a Blind Bet, in order
    straddle: int | None = None
    kill_seat: int | None = None
    draw_round: int = 0  # draws begun: 0 to 3
    drawn: tuple[int, ...] = ()  # players who have drawn in the current draw
    drawing: Drawing | None = None
    betting_over: bool = False  # no_more_bets: the final betting round is complete
    started: bool = False  # an event other than the button's position was accepted
    notes: tuple[str, ...] = ()

    @property
    def variant(self) -> Variant:
        return VARIANTS[self.rules.variant]

    def seat(self, number: int) -> SeatState | None:
        return next((s for s in self.seats if s.seat == number), None)

    @property
    def live(self) -> tuple[int, ...]:
        """The players who have not folded, ascending."""
        return tuple(s.seat for s in self.seats if not s.folded)

    @property
    def any_cards(self) -> bool:
        return bool(self.board) or any(s.cards for s in self.seats)
