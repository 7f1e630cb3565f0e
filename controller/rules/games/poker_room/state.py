"""The state of a poker room round (§§ 637a.19-637a.21): the words of its bets and decisions,
each seat's bets and cards, the draw in progress. Immutable: :mod:`.play` makes each
event's new state."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final

from ...core.cards import Card
from ...core.money import Cents
from .betting import Betting
from .draw import CountedDeck, DrawDeck
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
CHECK: Final = "check"
CALL: Final = "call"
RAISE: Final = "raise"
ALL_IN: Final = "all_in"
PARTICIPATE: Final = "participate"
#: The round is killed by a seat (journaled by the table from the last round's qualifying pot).
KILLS: Final = "kill"

#: The phases of a round dealt step by step (:mod:`.procedure`).
SEATING: Final = "seating"  # the button is placed; players join, post the Ante, the Blind Bets
DEALING: Final = "dealing"  # the hands are being dealt
BETTING: Final = "betting"  # a betting round
BURNING: Final = "burning"  # the dealer burns before a draw or the board
DRAWING: Final = "drawing"  # the draw, one player at a time
BOARD: Final = "board"  # the community cards (Omaha)
SHOWDOWN: Final = "showdown"  # the hands shown (keyed) or read
OVER: Final = "over"  # the pots can be awarded
VOID: Final = "void"  # a misdeal: every bet returned

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
    hidden: int = 0  # cards held face down that nobody read (a table without a card reader)
    stack: Cents | None = None  # the chips he had at the start of the round (the procedure)

    @property
    def behind(self) -> Cents:
        """The chips he still has to bet (the procedure; no limit without a stack)."""
        return 0 if self.stack is None else self.stack - self.total

    @property
    def all_in(self) -> bool:
        return self.stack is not None and self.behind == 0

    @property
    def holds(self) -> int:
        return len(self.cards) + self.hidden

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
    # --- the round dealt step by step (the button placed first; :mod:`.procedure`) ---
    procedure: bool = False
    phase: str = SEATING
    killer: int | None = None  # the seat whose qualifying pot killed this round
    keyed: bool | None = None  # None: nothing dealt yet; True: face down, counted; False: read
    dealt: int = 0  # cards of the hands dealt so far
    street: int = 0  # the betting round in progress or last completed (0 the first)
    betting: Betting | None = None
    counted: CountedDeck = field(default_factory=CountedDeck)
    void: str = ""
    #: The draw for the button at the commencement of play (§ 637a.19(c)(1)(ii)): each player's one
    #: card, in the order dealt; the cards go back to the deck once the button is placed.
    button_draw: tuple[tuple[int, Card], ...] = ()

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
    def players(self) -> tuple[int, ...]:
        """Every player dealt in, ascending."""
        return tuple(s.seat for s in self.seats)

    @property
    def actors(self) -> tuple[int, ...]:
        """The players who may still act: not folded, not all in."""
        return tuple(s.seat for s in self.seats if not s.folded and not s.all_in)

    @property
    def any_cards(self) -> bool:
        return bool(self.board) or any(s.cards for s in self.seats)
