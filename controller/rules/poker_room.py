"""The poker room's showdowns: Five-card Omaha, Triple Draw and Badugi (58 Pa. Code §§ 637a.19-637a.21).

One game, ``"poker-room"``, whose Rules Submission names the ``variant`` the
table deals (:data:`VARIANTS`):

==================  ====================================================  ====================
``omaha-high``      Five-card Omaha High, § 637a.19(k)(1)                 8 players, 5 + board
``omaha-high-low``  Five-card Omaha High-low Split Eight or Better,       8 players, 5 + board
                    § 637a.19(k)(2), (l)
``triple-draw-2-7`` Triple Draw 2-7 Lowball, § 637a.20(k)(3)              7 players, 5, 3 draws
``triple-draw-a-5`` Triple Draw Ace-5 Lowball, § 637a.20(k)(4)            7 players, 5, 3 draws
``badeucey``        Triple Draw 2-7 with Badeucey, § 637a.20(l)(1)        7 players, 5, 3 draws
``badacey``         Triple Draw A-5 with Badacey, § 637a.20(l)(2)         7 players, 5, 3 draws
``badugi``          Badugi Poker, § 637a.21(k)                            9 players, 4, 3 draws
==================  ====================================================  ====================

Poker is not house-banked: the players' bets make the pots and the showdown
divides them. The round's events say what each player put in (``wager``:
``ante``, ``blind``, ``straddle``, ``kill``, ``bet``), who folded, the cards
(each player's hand, the board, and in the draw games every discard and every
new card), and the end of the final betting round (``no_more_bets``). The
settlement builds the main pot and the side pots from the bets
(:func:`.poker_pots.build_pots`) and divides each one by the variant's
showdown, to the cent.

The settlement has one line per player per pot he put chips in:
``wager`` is the pot (``main_pot``, ``side_pot_1``, ...), ``stake`` what he put
into that pot, and ``net`` what he receives from it less his stake: ``win``
when he receives more than he put in, ``push`` when he receives exactly that
(a bet nobody called, a three-way split of a pot all three built equally),
``lose`` when he receives less (``net`` is minus his stake if he receives
nothing, more than that if he receives part). Nothing is paid or collected by
the house, so the nets of a pot add up to zero, and what the dealer pushes to
a player from a pot is ``stake + net``. The settlement's ``dealer`` line says,
pot by pot, who receives what.

See docs/games/poker-room.md for the events, the options and every reading of
the text this module makes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from types import MappingProxyType
from typing import Final

from . import high
from .badugi import BADACEY_BADUGI, BADEUCEY_BADUGI, BADUGI
from .cards import Card, format_cards
from .engine import GameBase, IllegalEvent
from .events import Event, seat_of
from .hand import HandValue, Ranking
from .hooks import Actor, Waiting
from .low import A5_LOW, DEUCE_TO_SEVEN_LOW, eight_or_better_code, low_rank
from .money import Cents, MoneyError, format_money, parse_money
from .omaha import OMAHA_HIGH, OMAHA_LOW8, has_qualifying_low
from .options import OptionError, boolean, choice, money, option
from .poker_button import BUTTON_STARTS, RIGHT_OF_DEALER, SeatingError, blind_seats, deal_order, straddle_seat
from .poker_draw import DRAW_SECTION, DrawDeck, DrawError
from .poker_pots import (
    HIGH_CARD_BY_SUIT,
    LEFT_OF_BUTTON,
    LOW_CARD_BY_SUIT,
    ODD_CHIP,
    ODD_CHIP_LIMIT,
    ODD_CHIP_RULES,
    Pot,
    PotError,
    Share,
    build_pots,
    divide,
    odd_chip_seat,
    split_among,
)
from .settlement import Outcome, Result, Settlement

# --- the variants ---------------------------------------------------------------------------

OMAHA_HIGH_VARIANT: Final = "omaha-high"
OMAHA_HIGH_LOW_VARIANT: Final = "omaha-high-low"
TRIPLE_DRAW_27: Final = "triple-draw-2-7"
TRIPLE_DRAW_A5: Final = "triple-draw-a-5"
BADEUCEY: Final = "badeucey"
BADACEY: Final = "badacey"
BADUGI_VARIANT: Final = "badugi"

#: The Rules Submission's attribute naming who receives the excess of a tie in a part.
HIGH_TIE: Final = "odd_chip_high_tie"
LOW_TIE: Final = "odd_chip_low_tie"
TIE: Final = "odd_chip_tie"


@dataclass(frozen=True, slots=True)
class Part:
    """One hand the showdown ranks: the whole pot's hand, or one half of a split pot."""

    name: str
    ranking: Ranking
    ace_low: bool
    tie_rule: str
    qualifies: Callable[[HandValue], bool] | None = None

    def rank_of(self, c: Card) -> int:
        return low_rank(c) if self.ace_low else c.rank


@dataclass(frozen=True, slots=True)
class Variant:
    """One game of the poker room as its section defines it."""

    name: str
    title: str
    section: str
    players: int
    hand_size: int
    board: int
    draws: int
    parts: tuple[Part, ...]
    showdown: str

    def at(self, subsection: str) -> str:
        """``"§ 637a.19(d)"`` for ``"(d)"``."""
        return f"{self.section}{subsection}"


_HIGH = Part("high", OMAHA_HIGH, False, HIGH_TIE)
_LOW = Part("low", OMAHA_LOW8, True, LOW_TIE, has_qualifying_low)
_27 = Part("2-7", DEUCE_TO_SEVEN_LOW, False, TIE)
_A5 = Part("A-5", A5_LOW, True, TIE)


def _variant(
    name: str,
    title: str,
    section: str,
    players: int,
    hand: int,
    board: int,
    parts: tuple[Part, ...],
    showdown: str,
) -> Variant:
    draws = 0 if board else 3  # Omaha has a board and no draw; Triple Draw and Badugi three draws, (h)-(j)
    return Variant(name, title, section, players, hand, board, draws, parts, showdown)


# players: § 637a.19(b) eight, § 637a.20(b) seven, § 637a.21(b) nine; cards: § 637a.19(f) and § 637a.20(f)
# five, § 637a.21(f) four; board: § 637a.19(h)-(j) three, a fourth and a fifth community card.
VARIANTS: Final[Mapping[str, Variant]] = MappingProxyType(
    {
        v.name: v
        for v in (
            _variant(
                OMAHA_HIGH_VARIANT,
                "Five-card Omaha High Poker",
                "§ 637a.19",
                8,
                5,
                5,
                (_HIGH,),
                "§ 637a.19(k)(1)",
            ),
            _variant(
                OMAHA_HIGH_LOW_VARIANT,
                "Five-card Omaha High-low Split Eight or Better Poker",
                "§ 637a.19",
                8,
                5,
                5,
                (_HIGH, _LOW),
                "§ 637a.19(k)(2), (l)",
            ),
            _variant(
                TRIPLE_DRAW_27,
                "Triple Draw 2-7 Lowball Poker",
                "§ 637a.20",
                7,
                5,
                0,
                (_27,),
                "§ 637a.20(k)(3)",
            ),
            _variant(
                TRIPLE_DRAW_A5,
                "Triple Draw Ace-5 Lowball Poker",
                "§ 637a.20",
                7,
                5,
                0,
                (_A5,),
                "§ 637a.20(k)(4)",
            ),
            _variant(
                BADEUCEY,
                "Triple Draw 2-7 Lowball Poker with Badeucey",
                "§ 637a.20",
                7,
                5,
                0,
                (_27, Part("badugi", BADEUCEY_BADUGI, False, TIE)),
                "§ 637a.20(l)(1)",
            ),
            _variant(
                BADACEY,
                "Triple Draw Ace-5 Lowball Poker with Badacey",
                "§ 637a.20",
                7,
                5,
                0,
                (_A5, Part("badugi", BADACEY_BADUGI, True, TIE)),
                "§ 637a.20(l)(2)",
            ),
            _variant(
                BADUGI_VARIANT,
                "Badugi Poker",
                "§ 637a.21",
                9,
                4,
                0,
                (Part("badugi", BADUGI, True, TIE),),
                "§ 637a.21(k)",
            ),
        )
    }
)

# --- the Rules Submission -------------------------------------------------------------------

KILL_OPTIONS: Final = ("none", "kill", "half-kill")
ALL_SECTIONS: Final = "§ 637a.19(b), § 637a.20(b), § 637a.21(b)"


def blind_amounts(raw: object) -> tuple[str, ...]:
    """The Blind Bets in the order they are posted: ``["1.00", "2.00"]`` (at least one, § 637a.19(d)).

    Kept as the amounts written in the file form (``"2.00"``), so the rules write back to the same file
    (:func:`.options.rules_to_mapping`); :attr:`PokerRoomRules.blind_bets` gives them in cents.
    """
    if not isinstance(raw, list) or not raw:
        raise OptionError(
            'must be a list of one or more amounts, the Blind Bets in order, e.g. ["1.00", "2.00"]'
        )
    out: list[str] = []
    for i, item in enumerate(raw, start=1):
        if not isinstance(item, str):
            raise OptionError(f'Blind Bet {i}: write money as a string such as "2.00", not {item!r}')
        try:
            cents = parse_money(item, f"Blind Bet {i}")
        except MoneyError as exc:
            raise OptionError(str(exc)) from None
        if cents < 1:
            raise OptionError(f"Blind Bet {i} must be more than 0.00")
        out.append(format_money(cents))
    return tuple(out)


@dataclass(frozen=True)
class PokerRoomRules:
    """What §§ 637a.19-637a.21 leave to the Rules Submission under § 601a.2."""

    variant: str = option(
        "variant",
        choice(*VARIANTS),
        section="§ 637a.19(a), § 637a.20(a), (l), § 637a.21(a)",
        help="the game the table deals: " + ", ".join(VARIANTS),
    )
    ante: Cents = option(
        "ante",
        money(0),
        "0.00",
        section=ALL_SECTIONS,
        help="the Ante bet each player places; 0.00: no Ante",
    )
    blinds: tuple[str, ...] = option(
        "blinds",
        blind_amounts,
        ["1.00", "2.00"],
        section="§ 637a.19(d), § 637a.20(d), § 637a.21(d)",
        help="the amount of each Blind Bet, in the order they are posted from the button's left",
    )
    straddle_offered: bool = option(
        "straddle.offered",
        boolean,
        False,
        section="§ 637a.19(e), § 637a.20(e), § 637a.21(e)",
        help="whether the player to the left of the Blind Bets may place one Straddle Bet",
    )
    kill: str = option(
        "kill.option",
        choice(*KILL_OPTIONS),
        "none",
        section="§ 637a.19(b), (l)(3), § 637a.20(b), § 637a.21(b)",
        help="the Kill or Half-kill option, if offered",
    )
    kill_qualifying_pot: Cents = option(
        "kill.qualifying_pot",
        money(0),
        "0.00",
        section="§ 637a.19(l)(3)",
        help="the minimum value of a qualifying pot, posted on the sign with the Kill option",
    )
    button_start: str = option(
        "button.start",
        choice(*BUTTON_STARTS),
        RIGHT_OF_DEALER,
        section="§ 637a.19(c)(1), § 637a.20(c)(1), § 637a.21(c)(1)",
        help="where the button goes at the commencement of play: right_of_dealer or high_card",
    )
    odd_chip_unit: Cents = option(
        "odd_chip.unit",
        money(1, "one cent"),
        "1.00",
        section="§ 637a.19(k)(2)(i)",
        help="the smallest chip a pot is divided in; at most 1.00, as the excess may not exceed $1",
    )
    odd_chip_high_tie: str = option(
        "odd_chip.high_tie",
        choice(HIGH_CARD_BY_SUIT, LEFT_OF_BUTTON),
        HIGH_CARD_BY_SUIT,
        section="§ 637a.19(k)(2)(ii), (iv)",
        help="who receives the excess when Omaha high hands tie",
    )
    odd_chip_low_tie: str = option(
        "odd_chip.low_tie",
        choice(LOW_CARD_BY_SUIT, LEFT_OF_BUTTON),
        LOW_CARD_BY_SUIT,
        section="§ 637a.19(k)(2)(iii), (iv)",
        help="who receives the excess when Omaha low hands tie",
    )
    odd_chip_tie: str = option(
        "odd_chip.tie",
        choice(*ODD_CHIP_RULES),
        LEFT_OF_BUTTON,
        section="§ 637a.20(k)(2), § 637a.21(k)(5)",
        help="the player the Rules Submission names for the excess of a Triple Draw or Badugi tie",
    )

    @property
    def blind_bets(self) -> tuple[Cents, ...]:
        """The Blind Bets in cents, in the order posted."""
        return tuple(parse_money(b) for b in self.blinds)


def check_kill(rules: PokerRoomRules) -> Iterable[str]:
    """§ 637a.19(l)(3): with the Kill or Half-kill option, the sign shows "the minimum value of a
    qualifying pot"; without it there is no qualifying pot."""
    if rules.kill != "none" and rules.kill_qualifying_pot < 1:
        yield (
            f"kill.qualifying_pot {format_money(rules.kill_qualifying_pot)}: kill.option is "
            f"{rules.kill!r}, so the Rules Submission must give the minimum value of a qualifying pot "
            "(§ 637a.19(l)(3))"
        )
    if rules.kill == "none" and rules.kill_qualifying_pot > 0:
        yield (
            f"kill.qualifying_pot {format_money(rules.kill_qualifying_pot)} is given but kill.option is "
            "'none': a qualifying pot belongs to the Kill or Half-kill option (§ 637a.19(l)(3))"
        )


def check_odd_chip_unit(rules: PokerRoomRules) -> Iterable[str]:
    """The excess of a pot that cannot be divided equally "may not exceed $1" (§ 637a.19(k)(2)(i))."""
    if rules.odd_chip_unit > ODD_CHIP_LIMIT:
        yield (
            f"odd_chip.unit {format_money(rules.odd_chip_unit)} is above 1.00: the excess of a pot that "
            "cannot be divided equally may not exceed $1 (§ 637a.19(k)(2)(i), § 637a.20(k)(2), "
            "§ 637a.21(k)(5))"
        )


def check_blinds(rules: PokerRoomRules) -> Iterable[str]:
    """More Blind Bets than the variant seats players cannot all be posted (§ 637a.19(b),(d))."""
    variant = VARIANTS[rules.variant]
    if len(rules.blinds) >= variant.players:
        yield (
            f"blinds: {len(rules.blinds)} Blind Bets, but {variant.title} seats no more than "
            f"{variant.players} players ({variant.at('(b)')}); someone must be left to act after them"
        )


RULES_CHECKS: Final[tuple[Callable[[PokerRoomRules], Iterable[str]], ...]] = (
    check_kill,
    check_odd_chip_unit,
    check_blinds,
)

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


# --- the game -------------------------------------------------------------------------------


class PokerRoomGame(GameBase[PokerRoomRules, PokerRoomState]):
    """The poker room's showdowns (58 Pa. Code §§ 637a.19-637a.21); exported as :data:`GAME`.

    No progressive (a meter given at the start is refused) and no device: the dealer deals by
    hand and keys in the cards (the defaults)."""

    name: Final = "poker-room"
    title: Final = "Poker: Five-card Omaha, Triple Draw and Badugi showdowns"
    chapter: Final = "58 Pa. Code ch. 637a, §§ 637a.19-637a.21"
    rules_class: Final = PokerRoomRules
    rules_checks: Final = RULES_CHECKS
    joker: Final = False

    def decks(self, rules: PokerRoomRules) -> int:
        """One deck of 52 cards: the reshuffle of § 637a.20(h) only makes sense with one."""
        return 1

    def start(self, rules: PokerRoomRules, meters: Mapping[str, Cents]) -> PokerRoomState:
        if meters:
            raise IllegalEvent(
                f"the poker room has no progressive meter (given: {', '.join(sorted(meters))})"
            )
        return PokerRoomState(rules)

    def apply(self, state: PokerRoomState, event: Event) -> PokerRoomState:
        if event.type == "position":
            return _position(state, event)
        if event.type == "wager":
            new = _wager(state, event)
        elif event.type == "decision":
            new = _decision(state, event)
        elif event.type == "cards":
            new = _cards(state, event)
        elif event.type == "no_more_bets":
            new = _no_more_bets(state)
        else:
            raise IllegalEvent(
                f"the poker room has no {event.type} event (it takes position, wager, cards, decision and "
                "no_more_bets)"
            )
        return replace(new, started=True)

    def waiting_for(self, state: PokerRoomState) -> tuple[Waiting, ...]:
        return waiting_for(state)

    def settle(self, state: PokerRoomState) -> Settlement:
        return _settle(state)


GAME: Final = PokerRoomGame()

# --- events ---------------------------------------------------------------------------------


def _position(state: PokerRoomState, event: Event) -> PokerRoomState:
    v = state.variant
    if state.started or state.button is not None:
        raise IllegalEvent(
            f"the button is placed before any bet or card of the round ({v.at('(c)')}, {v.at('(d)')}): give "
            "its position first"
        )
    assert event.value is not None
    return replace(state, button=event.value)


def _put(state: PokerRoomState, seat: SeatState) -> PokerRoomState:
    others = [s for s in state.seats if s.seat != seat.seat]
    return replace(state, seats=tuple(sorted([*others, seat], key=lambda s: s.seat)))


def _player(state: PokerRoomState, number: int | None, what: str) -> SeatState:
    """The player at ``number``, dealing him in if he is new (refused where no one may join now)."""
    v = state.variant
    if number is None:
        raise IllegalEvent(f"{what} needs a seat")
    found = state.seat(number)
    if found is not None:
        return found
    if state.draw_round:
        raise IllegalEvent(
            f"seat {number} was not dealt in: after the first draw no player joins the round ({v.at('(f)')})"
        )
    if len(state.seats) >= v.players:
        raise IllegalEvent(
            f"seat {number} would be player {len(state.seats) + 1}: no more than {v.players} players may "
            f"participate in {v.title} ({v.at('(b)')})"
        )
    return SeatState(number)


def _wager(state: PokerRoomState, event: Event) -> PokerRoomState:
    v, rules = state.variant, state.rules
    name, amount = event.wager or "", event.amount or 0
    if name not in WAGERS:
        raise IllegalEvent(
            f"no wager {name!r} in the poker room (wagers: {', '.join(WAGERS)}; a call or raise is a bet)"
        )
    if state.betting_over:
        raise IllegalEvent(
            f"the final betting round is complete (no_more_bets): no more bets ({v.at('(k)')})"
        )
    if amount < 1:
        raise IllegalEvent(f"seat {event.seat}: a {name} of {format_money(amount)} puts nothing in the pot")
    player = _player(state, event.seat, f"a {name}")
    number = player.seat
    if player.folded:
        raise IllegalEvent(f"seat {number} has folded: he puts no more chips in the pot")
    if state.drawing is not None:
        raise IllegalEvent(
            f"seat {state.drawing.seat} is drawing and is owed {state.drawing.owed} card"
            f"{'s' if state.drawing.owed != 1 else ''}: bets wait until the draw is over ({DRAW_SECTION})"
        )
    if name == ANTE:
        if rules.ante == 0:
            raise IllegalEvent(f"this table has no Ante bet (ante in the Rules Submission, {v.at('(b)')})")
        if player.bet(ANTE):
            raise IllegalEvent(f"seat {number} has already placed his Ante bet ({v.at('(b)')})")
        if amount > rules.ante:
            raise IllegalEvent(
                f"seat {number}: an Ante of {format_money(amount)} is more than the table's Ante bet of "
                f"{format_money(rules.ante)} ({v.at('(b)')})"
            )
    elif name in (BLIND, STRADDLE, KILL):
        if state.any_cards:
            raise IllegalEvent(f"a {name} is placed before any cards are dealt ({v.at('(d)')})")
        if name == BLIND:
            index = len(state.blinds)
            if index >= len(rules.blinds):
                raise IllegalEvent(
                    f"the Rules Submission requires {len(rules.blinds)} Blind Bet"
                    f"{'s' if len(rules.blinds) != 1 else ''}; all were posted ({v.at('(d)')})"
                )
            if number in state.blinds:
                raise IllegalEvent(f"seat {number} has already posted a Blind Bet ({v.at('(d)')})")
            if amount > rules.blind_bets[index]:
                raise IllegalEvent(
                    f"seat {number}: Blind Bet {index + 1} is {rules.blinds[index]}, not "
                    f"{format_money(amount)} (blinds in the Rules Submission, {v.at('(d)')})"
                )
            state = replace(state, blinds=(*state.blinds, number))
        elif name == STRADDLE:
            if not rules.straddle_offered:
                raise IllegalEvent(
                    f"this table does not offer the Straddle Bet (straddle.offered, {v.at('(e)')})"
                )
            if state.straddle is not None:
                raise IllegalEvent(
                    f"seat {state.straddle} has placed the Straddle Bet: no more than one Straddle Bet "
                    f"may be made during a round of play ({v.at('(e)')})"
                )
            if len(state.blinds) < len(rules.blinds):
                raise IllegalEvent(
                    f"the Straddle Bet follows the Blind Bets ({v.at('(e)')}): "
                    f"{len(rules.blinds) - len(state.blinds)} still to post"
                )
            state = replace(state, straddle=number)
        else:
            if rules.kill == "none":
                raise IllegalEvent(
                    f"this table does not use the Kill or Half-kill option (kill.option, {v.at('(b)')})"
                )
            if state.kill_seat is not None:
                raise IllegalEvent(f"seat {state.kill_seat} has posted the kill for this round")
            state = replace(state, kill_seat=number)
    return _put(state, player.add_bet(name, amount))


def _decision(state: PokerRoomState, event: Event) -> PokerRoomState:
    v = state.variant
    action = event.action or ""
    if event.hand:
        raise IllegalEvent("the poker room has no split hands (hand must be 0)")
    if event.amount is not None:
        raise IllegalEvent(f"a {action} carries no amount: chips put in the pot are a wager event (bet)")
    if action == FOLD:
        player = _player(state, event.seat, "a fold")
        if player.folded:
            raise IllegalEvent(f"seat {player.seat} has already folded")
        if state.drawing is not None and state.drawing.seat == player.seat:
            raise IllegalEvent(
                f"seat {player.seat} is drawing and is owed {state.drawing.owed} card"
                f"{'s' if state.drawing.owed != 1 else ''} ({DRAW_SECTION})"
            )
        others = [s for s in state.live if s != player.seat]
        if state.seat(player.seat) is not None and not others:
            raise IllegalEvent(
                f"seat {player.seat} is the last player in the round: nobody is left to fold to; he "
                "takes the pot"
            )
        return _put(state, replace(player, folded=True))
    if action == STAND_PAT:
        if not v.draws:
            raise IllegalEvent(f"{v.title} has no draw: nobody stands pat")
        if state.betting_over:
            raise IllegalEvent("the final betting round is complete (no_more_bets): the draws are over")
        state, drawer = _drawer(state)
        if event.seat != drawer:
            raise IllegalEvent(
                f"it is seat {drawer}'s turn to draw, not seat {event.seat}'s: each player who has not "
                f"folded draws in turn from the immediate left of the button ({v.at('(h)')})"
            )
        return replace(state, drawn=(*state.drawn, drawer))
    raise IllegalEvent(
        f"no decision {action!r} in the poker room (decisions: fold"
        + (", stand_pat" if v.draws else "")
        + "; a bet, call or raise is a wager event)"
    )


def _where(state: PokerRoomState, c: Card) -> str:
    """Where a card the deck no longer holds is, for an error message."""
    for s in state.seats:
        if c in s.cards:
            return f"seat {s.seat} {'folded' if s.folded else 'holds'} it"
    for s in state.seats:
        if c in s.discards:
            return f"seat {s.seat} discarded it"
    if c in state.board:
        return "it is on the board"
    return "it was dealt already"


def _deal(state: PokerRoomState, cards: Sequence[Card], what: str) -> DrawDeck:
    deck = state.deck
    for c in cards:
        if c not in deck.deck.candidates:
            raise IllegalEvent(f"{what}: {c} is not in the deck: {_where(state, c)}")
        try:
            deck = deck.deal(c)
        except DrawError as exc:
            raise IllegalEvent(f"{what}: {exc}") from None
    return deck


def _cards(state: PokerRoomState, event: Event) -> PokerRoomState:
    v = state.variant
    cards = event.cards
    if event.hand:
        raise IllegalEvent("the poker room has no split hands (hand must be 0)")
    if not cards:
        raise IllegalEvent("a cards event needs at least one card")
    if event.to == "board":
        return _board(state, cards)
    if event.to == "dealer":
        return _discard(state, cards)
    number = seat_of(event.to)
    player = _player(state, number, "cards")
    if player.folded:
        raise IllegalEvent(f"seat {player.seat} has folded: no cards go to him")
    if state.drawing is not None:
        if state.drawing.seat != player.seat:
            raise IllegalEvent(
                f"seat {state.drawing.seat} is drawing and is owed {state.drawing.owed} card"
                f"{'s' if state.drawing.owed != 1 else ''}: the draw is one player at a time ({v.at('(h)')})"
            )
        return _replacements(state, player, cards)
    if state.draw_round:
        raise IllegalEvent(
            f"the hands were dealt before the first draw: seat {player.seat} receives cards only for the "
            f"cards he discards, in his turn ({v.at('(h)')})"
        )
    if len(player.cards) + len(cards) > v.hand_size:
        raise IllegalEvent(
            f"seat {player.seat} would hold {len(player.cards) + len(cards)} cards: the dealer deals "
            f"{v.hand_size} to each player ({v.at('(f)')})"
        )
    deck = _deal(state, cards, f"seat {player.seat}")
    return _put(replace(state, deck=deck), replace(player, cards=player.cards + cards))


#: The board cards before which a card is burned: the flop, the fourth and the fifth (§ 637a.19(h)-(j)).
_BURN_BEFORE: Final = (0, 3, 4)


def _board(state: PokerRoomState, cards: Sequence[Card]) -> PokerRoomState:
    v = state.variant
    if not v.board:
        raise IllegalEvent(f"{v.title} has no community cards")
    if len(state.board) + len(cards) > v.board:
        raise IllegalEvent(
            f"the board would hold {len(state.board) + len(cards)} cards: three community cards, a fourth "
            f"and a fifth and final ({v.at('(h)')}-(j))"
        )
    deck = state.deck
    for i, c in enumerate(cards, start=len(state.board)):
        if i in _BURN_BEFORE:
            deck = deck.burn()  # "the dealer shall burn the top card of the deck", § 637a.19(h),(i),(j)
        if c not in deck.deck.candidates:
            raise IllegalEvent(f"board: {c} is not in the deck: {_where(state, c)}")
        deck = deck.deal(c)
    return replace(state, deck=deck, board=state.board + tuple(cards))


def _drawer(state: PokerRoomState) -> tuple[PokerRoomState, int]:
    """The player whose turn it is to draw, beginning the next draw (with its burn) when needed."""
    v = state.variant
    button = state.button
    if button is None:
        raise IllegalEvent(
            f"the draw goes from the player to the immediate left of the button ({v.at('(h)')}): the round "
            "must give the button's position (a position event) first"
        )
    live = state.live
    if state.draw_round == 0 or all(s in state.drawn for s in live):
        if state.draw_round >= v.draws:
            raise IllegalEvent(
                f"all three draws have been made ({v.at('(h)')}, {v.at('(i)')}, {v.at('(j)')}); the showdown "
                "follows the final betting round"
            )
        if len(live) < 2:
            who = f"seat {live[0]} is the only player left" if live else "no player is left in the round"
            raise IllegalEvent(f"{who}: there is no draw")
        deck = state.deck
        if state.draw_round == 0:
            for s in state.seats:
                if not s.folded and len(s.cards) != v.hand_size:
                    raise IllegalEvent(
                        f"seat {s.seat} holds {len(s.cards)} cards: each player is dealt {v.hand_size} "
                        f"before the first draw ({v.at('(f)')})"
                    )
            # A player who folded without showing was dealt cards all the same.
            unseen = sum(v.hand_size - len(s.cards) for s in state.seats if s.folded)
            try:
                deck = deck.unseen(unseen)
            except DrawError as exc:
                raise IllegalEvent(str(exc)) from None
        deck = deck.burn()  # "the dealer shall then burn the top card of the deck", § 637a.20(h)-(j)
        state = replace(
            state,
            deck=deck,
            draw_round=state.draw_round + 1,
            drawn=(),
        )
    order = deal_order(button, live)
    return state, next(s for s in order if s not in state.drawn)


def _discard(state: PokerRoomState, cards: Sequence[Card]) -> PokerRoomState:
    v = state.variant
    if not v.draws:
        raise IllegalEvent(
            f"{v.title} has no draw: cards to the dealer are the discards of a player drawing "
            f"({DRAW_SECTION})"
        )
    if state.betting_over:
        raise IllegalEvent("the final betting round is complete (no_more_bets): the draws are over")
    if state.drawing is not None:
        raise IllegalEvent(
            f"seat {state.drawing.seat} is still owed {state.drawing.owed} card"
            f"{'s' if state.drawing.owed != 1 else ''} for his discards ({DRAW_SECTION})"
        )
    state, drawer = _drawer(state)
    player = state.seat(drawer)
    assert player is not None
    missing = [c for c in cards if c not in player.cards]
    if missing:
        raise IllegalEvent(
            f"seat {drawer} is drawing, and does not hold {format_cards(missing)}: a player discards from "
            f"his own hand ({v.at('(h)')})"
        )
    kept = tuple(c for c in player.cards if c not in cards)
    state = replace(state, deck=state.deck.discard(drawer, cards), drawing=Drawing(drawer, len(cards)))
    return _put(state, replace(player, cards=kept, discards=player.discards + tuple(cards)))


def _replacements(state: PokerRoomState, player: SeatState, cards: Sequence[Card]) -> PokerRoomState:
    assert state.drawing is not None
    owed = state.drawing.owed
    if len(cards) > owed:
        raise IllegalEvent(
            f"seat {player.seat} has {owed} discarded card{'s' if owed != 1 else ''} still to replace, not "
            f"{len(cards)}: each discarded card is replaced by one new card ({DRAW_SECTION})"
        )
    deck = state.deck
    notes = state.notes
    for c in cards:
        before = len(deck.reshuffles)
        try:
            deck = deck.draw(player.seat, c)
        except DrawError as exc:
            where = "" if c in deck.may_draw(player.seat) else f" ({_where(state, c)})"
            raise IllegalEvent(f"seat {player.seat}: {exc}{where}") from None
        if len(deck.reshuffles) > before:
            notes = (*notes, deck.reshuffles[-1].words())
    left = owed - len(cards)
    state = replace(
        state,
        deck=deck,
        notes=notes,
        drawing=Drawing(player.seat, left) if left else None,
        drawn=state.drawn if left else (*state.drawn, player.seat),
    )
    return _put(state, replace(player, cards=player.cards + tuple(cards)))


def _no_more_bets(state: PokerRoomState) -> PokerRoomState:
    v = state.variant
    if state.betting_over:
        raise IllegalEvent("the final betting round was already completed (no_more_bets)")
    if not state.seats:
        raise IllegalEvent("no player is in the round")
    if state.drawing is not None:
        raise IllegalEvent(
            f"seat {state.drawing.seat} is owed {state.drawing.owed} card"
            f"{'s' if state.drawing.owed != 1 else ''}: the draw is not over ({DRAW_SECTION})"
        )
    if v.draws and state.draw_round and len(state.live) > 1:
        complete = state.draw_round == v.draws and all(s in state.drawn for s in state.live)
        if not complete:
            raise IllegalEvent(
                f"the final betting round follows the third draw ({v.at('(j)')}); this round has begun "
                f"{state.draw_round} of the three (give no draws at all for a showdown-only record)"
            )
    return replace(state, betting_over=True)


# --- the showdown ---------------------------------------------------------------------------


def _groupings(
    part: Part, cards: Sequence[Card], board: Sequence[Card], value: HandValue
) -> list[tuple[Card, ...]]:
    """Every grouping of the player's cards that makes ``value`` (for the odd chip by suit)."""
    ranking = part.ranking
    if ranking is OMAHA_HIGH or ranking is OMAHA_LOW8:
        out: list[tuple[Card, ...]] = []
        for pair in combinations(cards, 2):
            for triple in combinations(board, 3):
                five = (*pair, *triple)
                if ranking is OMAHA_HIGH:
                    if high.code5(five) == value.key[0]:
                        out.append(five)
                elif eight_or_better_code(five) == -value.key[1]:
                    out.append(five)
        return out
    if ranking in (BADUGI, BADEUCEY_BADUGI, BADACEY_BADUGI):
        size, ranks = value.key[0], [-k for k in value.key[1:]]
        return [
            combo
            for combo in combinations(cards, size)
            if len({c.suit for c in combo}) == size
            and sorted((part.rank_of(c) for c in combo), reverse=True) == ranks
        ]
    return [tuple(cards)]


def _words(part: Part, value: HandValue) -> str:
    # "badugi, four-three-two-ace" says its part already; "high: flush, ..." and "2-7: ..." need it.
    text = value.words if value.category == part.name else f"{part.name}: {value.words}"
    return f"{text} ({format_cards(value.cards)})" if value.cards else text


@dataclass(frozen=True, slots=True)
class PotAward:
    """How one pot is divided: the shares, and the words and section for the dealer."""

    pot: Pot
    shares: tuple[Share, ...]
    section: str
    words: str


def _best(part: Part, seats: Sequence[int], values: Mapping[int, Mapping[str, HandValue]]) -> tuple[int, ...]:
    top = max(values[s][part.name] for s in seats)
    return tuple(s for s in seats if values[s][part.name] == top)


def _split(
    state: PokerRoomState,
    amount: Cents,
    part: Part,
    winners: Sequence[int],
    values: Mapping[int, Mapping[str, HandValue]],
) -> tuple[Share, ...]:
    rules = state.rules
    rule = str(getattr(rules, part.tie_rule))

    def odd_chip_to() -> int:
        tied = {
            s: _groupings(part, _seat(state, s).cards, state.board, values[s][part.name]) for s in winners
        }
        try:
            return odd_chip_seat(rule, tied, part.rank_of, state.button)
        except PotError as exc:
            raise IllegalEvent(str(exc)) from None

    return split_among(amount, part.name, winners, rules.odd_chip_unit, odd_chip_to)


def _seat(state: PokerRoomState, number: int) -> SeatState:
    found = state.seat(number)
    assert found is not None
    return found


def _award(state: PokerRoomState, pot: Pot, values: Mapping[int, Mapping[str, HandValue]]) -> PotAward:
    v, rules = state.variant, state.rules
    head = f"{pot.words} {format_money(pot.amount)}"
    if len(pot.eligible) == 1:
        seat = pot.eligible[0]
        if pot.returned:
            why = "a bet no other player called, returned"
        elif len(state.live) == 1:
            why = "the only player remaining in the round, without a showdown"
        else:
            why = "the only player in the round eligible for it"
        return PotAward(
            pot,
            (Share(seat, "pot", pot.amount),),
            v.at("(k)"),
            f"{head} to seat {seat} ({why})",
        )
    eligible = pot.eligible
    first = v.parts[0]
    second = v.parts[1] if len(v.parts) > 1 else None
    contenders = eligible
    if second is not None and second.qualifies is not None:
        contenders = tuple(s for s in eligible if second.qualifies(values[s][second.name]))
    if second is None or not contenders:
        winners = _best(first, eligible, values)
        shares = _split(state, pot.amount, first, winners, values)
        section = v.showdown
        extra = ""
        if second is not None:
            # § 637a.19(l)(1): "In the event that none of the hands of the remaining players satisfy this
            # requirement, the entire pot shall be awarded to the player with the highest ranking high hand."
            section = "§ 637a.19(l)(1)"
            extra = " (no qualifying low: the entire pot to the high hand)"
        return PotAward(pot, _label(shares, "pot"), section, f"{head}{extra} to {_share_words(shares)}")
    # Half to each part; "If a pot cannot be divided equally, the excess, which may not exceed $1, shall be
    # given to the player with the highest ranking high hand" (§ 637a.19(k)(2)(i); § 637a.20(l)(1)(ii),
    # (l)(2)(ii): "the player with the highest 2-7 / A-5 Lowball Poker hand").
    half, excess = divide(pot.amount, 2, rules.odd_chip_unit)
    first_shares = _split(state, half + excess, first, _best(first, eligible, values), values)
    if excess and len(first_shares) == 1:
        only = first_shares[0]
        first_shares = (replace(only, odd_chip=only.odd_chip + excess),)
    second_shares = _split(state, half, second, _best(second, contenders, values), values)
    shares = first_shares + second_shares
    words = f"{head}: {first.name} {format_money(half + excess)}"
    if excess:
        words += f" (half {format_money(half)} and the excess {format_money(excess)})"
    words += f" to {_share_words(first_shares)}; {second.name} {format_money(half)}"
    words += f" to {_share_words(second_shares)}"
    return PotAward(pot, shares, v.showdown, words)


def _label(shares: tuple[Share, ...], part: str) -> tuple[Share, ...]:
    return tuple(replace(s, part=part) for s in shares)


def _share_words(shares: Sequence[Share]) -> str:
    """``"seat 4"``, or for a tie ``"seats 2 and 5 tie: seat 2 8.00 (with the excess 1.00), seat 5 7.00"``."""
    if len(shares) == 1:
        return f"seat {shares[0].seat}"
    out = []
    for s in shares:
        text = f"seat {s.seat} {format_money(s.amount)}"
        if s.odd_chip:
            text += f" (with the excess {format_money(s.odd_chip)})"
        out.append(text)
    seats = [str(s.seat) for s in shares]
    return f"seats {', '.join(seats[:-1])} and {seats[-1]} tie: " + ", ".join(out)


def _showdown_waits_for(state: PokerRoomState, pots: Sequence[Pot]) -> Waiting | None:
    v = state.variant
    contested = sorted({s for p in pots if len(p.eligible) > 1 for s in p.eligible})
    if not contested:
        return None
    if not state.betting_over:
        what = (
            f"the round waits for the final betting round to be completed (no_more_bets) before the showdown "
            f"({v.at('(k)')})"
        )
        return Waiting(Actor.DEALER, what, v.at("(k)"))
    for s in contested:
        held = len(_seat(state, s).cards)
        if held != v.hand_size:
            what = (
                f"the showdown waits for seat {s}'s hand: {held} of {v.hand_size} cards given ({v.showdown})"
            )
            return Waiting(Actor.SHOE, what, v.showdown, s)
    if len(state.board) != v.board:
        section = f"{v.at('(h)')}-(j)"
        what = (
            f"the showdown waits for the board: {len(state.board)} of {v.board} community cards given "
            f"({section})"
        )
        return Waiting(Actor.SHOE, what, section)
    return None


def _check_blinds(state: PokerRoomState) -> None:
    """With the button known: the Blind Bets and the Straddle Bet came from the right players."""
    v = state.variant
    if state.button is None or not state.seats:
        return
    players = [s.seat for s in state.seats]
    try:
        expected = blind_seats(state.button, players, len(state.blinds)) if state.blinds else ()
        straddler = straddle_seat(state.button, players, len(state.blinds)) if state.straddle else None
    except SeatingError as exc:
        raise IllegalEvent(f"{exc} ({v.at('(d)')})") from None
    for i, (posted, want) in enumerate(zip(state.blinds, expected, strict=True), start=1):
        if posted != want:
            who = "the player to the immediate left of the button" if i == 1 else "the next player clockwise"
            raise IllegalEvent(
                f"seat {posted} posted Blind Bet {i}, but {who} (the button is at seat {state.button}) is "
                f"seat {want} ({v.at('(d)')})"
            )
    if state.straddle is not None and state.straddle != straddler:
        raise IllegalEvent(
            f"seat {state.straddle} placed the Straddle Bet, but only the player to the left of the Blind "
            f"Bets, seat {straddler}, may ({v.at('(e)')})"
        )


def _values(state: PokerRoomState, seats: Iterable[int]) -> dict[int, dict[str, HandValue]]:
    v = state.variant
    out: dict[int, dict[str, HandValue]] = {}
    for s in seats:
        cards = _seat(state, s).cards
        if len(cards) != v.hand_size:
            continue
        board = state.board if v.board else ()
        out[s] = {p.name: p.ranking.evaluate(cards, board) for p in v.parts}
    return out


def waiting_for(state: PokerRoomState) -> tuple[Waiting, ...]:
    """What the round waits for before its pots can be awarded; empty once they can be. A Blind
    Bet from the wrong player, or bets that build no pots, wait for the dealer to correct them."""
    if not state.seats:
        return (
            Waiting(
                Actor.DEALER, "the round has no players: it waits for their bets and cards", ALL_SECTIONS
            ),
        )
    if state.drawing is not None:
        what = (
            f"the round waits for seat {state.drawing.seat}'s {state.drawing.owed} new card"
            f"{'s' if state.drawing.owed != 1 else ''} ({DRAW_SECTION})"
        )
        return (Waiting(Actor.SHOE, what, DRAW_SECTION, state.drawing.seat),)
    try:
        _check_blinds(state)
        pots = build_pots({s.seat: s.total for s in state.seats}, state.live)
    except (IllegalEvent, PotError) as exc:
        return (Waiting(Actor.DEALER, str(exc), ALL_SECTIONS),)
    showdown = _showdown_waits_for(state, pots)
    return () if showdown is None else (showdown,)


def pot_awards(state: PokerRoomState) -> tuple[PotAward, ...]:
    """Each pot of a complete round and how it is divided; :class:`IllegalEvent` says what is missing.

    The settlement is made from these; the dealer's screen can show them pot by pot.
    """
    waiting = waiting_for(state)
    if waiting:
        raise IllegalEvent(waiting[0].what)
    pots = build_pots({s.seat: s.total for s in state.seats}, state.live)
    values = _values(state, state.live)
    return tuple(_award(state, pot, values) for pot in pots)


def _settle(state: PokerRoomState) -> Settlement:
    v = state.variant
    awards = pot_awards(state)
    contributions = {s.seat: s.total for s in state.seats}
    values = _values(state, state.live)
    received: dict[tuple[int, str], list[Share]] = {}
    for award in awards:
        total = sum(sh.amount for sh in award.shares)
        if total != award.pot.amount:  # pragma: no cover - divide() guarantees it
            raise AssertionError(f"{award.pot.name}: {total} shared of {award.pot.amount}")
        for sh in award.shares:
            received.setdefault((sh.seat, award.pot.name), []).append(sh)
    kill_seat, kill_words = _kill(state, awards)
    outcomes: list[Outcome] = []
    for seat in sorted(contributions, reverse=True):
        player = _seat(state, seat)
        if player.folded:
            hand = "folded"
        elif seat in values:
            hand = "; ".join(_words(p, values[seat][p.name]) for p in v.parts)
        else:
            hand = ""
        for award in awards:
            stake = award.pot.contribution(seat)
            shares = received.get((seat, award.pot.name), [])
            got = sum(sh.amount for sh in shares)
            if stake == 0 and got == 0:
                continue
            net = got - stake
            result = Result.WIN if net > 0 else Result.PUSH if net == 0 else Result.LOSE
            flags: list[str] = []
            if any(sh.odd_chip for sh in shares):
                flags.append(ODD_CHIP)
            if kill_seat == seat and got:
                flags.append(KILL_FLAG)
            pot_words = f"the {award.pot.words} {format_money(award.pot.amount)}"
            if player.folded:
                note = f"receives nothing of {pot_words}"
            elif shares:
                parts = ", ".join(
                    f"{sh.part} {format_money(sh.amount)}"
                    + (f" with the excess {format_money(sh.odd_chip)}" if sh.odd_chip else "")
                    for sh in shares
                )
                note = f"receives {format_money(got)} of {pot_words} ({parts})"
            else:
                note = f"receives nothing of {pot_words}: a better hand won it"
            outcomes.append(
                Outcome(
                    seat,
                    award.pot.name,
                    stake,
                    result,
                    net,
                    hand=hand,
                    section=award.section if not player.folded else v.at("(g)"),
                    note=note,
                    flags=tuple(flags),
                )
            )
    lines = [f"{v.title} ({v.section})"]
    lines.extend(a.words for a in awards)
    lines.extend(state.notes)
    if kill_words:
        lines.append(kill_words)
    return Settlement(GAME.name, tuple(outcomes), {}, dealer=". ".join(lines))


def _kill(state: PokerRoomState, awards: Sequence[PotAward]) -> tuple[int | None, str]:
    """The Kill or Half-kill option (§ 637a.19(b), (l)(3), § 637a.20(b), § 637a.21(b)): which player won the
    whole of a qualifying pot, and the words for the dealer. The text names the option and the minimum
    value of a qualifying pot; what a kill changes in the next round is left to the Rules Submission."""
    rules = state.rules
    if rules.kill == "none":
        return None, ""
    won = [a for a in awards if not a.pot.returned]
    total = sum(a.pot.amount for a in won)
    name = "Kill" if rules.kill == "kill" else "Half-kill"
    posted = f" (seat {state.kill_seat} posted the kill this round)" if state.kill_seat is not None else ""
    if total < rules.kill_qualifying_pot:
        return None, (
            f"{name} option{posted}: the pot of {format_money(total)} is below the qualifying pot of "
            f"{format_money(rules.kill_qualifying_pot)}"
        )
    winners = {sh.seat for a in won for sh in a.shares}
    if len(winners) != 1:
        return None, (
            f"{name} option{posted}: the pot of {format_money(total)} reaches the qualifying pot of "
            f"{format_money(rules.kill_qualifying_pot)} but was divided among seats "
            f"{', '.join(map(str, sorted(winners)))}: no single winner of a qualifying pot (§ 637a.19(l)(3))"
        )
    seat = winners.pop()
    return seat, (
        f"{name} option{posted}: seat {seat} won the whole pot of {format_money(total)}, at least the "
        f"qualifying pot of {format_money(rules.kill_qualifying_pot)}; the {name.lower()} applies to the "
        "next round as the Rules Submission describes (§ 637a.19(l)(3); what it changes is not defined in "
        "§§ 637a.19-637a.21)"
    )
