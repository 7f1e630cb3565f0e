"""The poker room's variants and Rules Submission (§§ 637a.19-637a.21, § 601a.2): each variant's
hands, board and rankings, the options (ante, blinds, straddle, kill, button, odd chip) and the
checks between them. The game is :mod:`.game`; docs/games/poker-room.md lists every option."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ...core.cards import Card
from ...core.hand import HandValue, Ranking
from ...core.money import Cents, MoneyError, format_money, parse_money
from ...core.options import OptionError, boolean, choice, integer, money, option
from ...rankings.badugi import BADACEY_BADUGI, BADEUCEY_BADUGI, BADUGI
from ...rankings.low import A5_LOW, DEUCE_TO_SEVEN_LOW, low_rank
from ...rankings.omaha import OMAHA_HIGH, OMAHA_LOW8, has_qualifying_low
from .button import BUTTON_STARTS, RIGHT_OF_DEALER
from .pots import HIGH_CARD_BY_SUIT, LEFT_OF_BUTTON, LOW_CARD_BY_SUIT, ODD_CHIP_LIMIT, ODD_CHIP_RULES

# --- the variants ---------------------------------------------------------------------------

NAME: Final = "poker-room"

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
NO_LIMIT: Final = "no-limit"
POT_LIMIT: Final = "pot-limit"
FIXED_LIMIT: Final = "fixed"
LIMITS: Final = (NO_LIMIT, POT_LIMIT, FIXED_LIMIT)
#: Where the limits come from: the text leaves the betting limits to the Rules Submission (§ 601a.2).
LIMIT_SECTION: Final = "§ 601a.2 (the Rules Submission's betting limits)"
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
    straddle_amount: Cents = option(
        "straddle.amount",
        money(0),
        "0.00",
        section="§ 637a.19(e), § 637a.20(e), § 637a.21(e)",
        help="the amount of the Straddle Bet; 0.00: twice the last Blind Bet",
    )
    betting_limit: str = option(
        "betting.limit",
        choice(*LIMITS),
        FIXED_LIMIT,
        section=LIMIT_SECTION,
        help="the betting limit: no-limit, pot-limit or fixed",
    )
    small_bet: Cents = option(
        "betting.small_bet",
        money(0),
        "0.00",
        section=LIMIT_SECTION,
        help="fixed limit: the bet and each raise of the first two betting rounds; 0.00: the last Blind "
        "Bet. No-limit and pot-limit: the smallest bet (0.00: the last Blind Bet)",
    )
    big_bet: Cents = option(
        "betting.big_bet",
        money(0),
        "0.00",
        section=LIMIT_SECTION,
        help="fixed limit: the bet and each raise of the third and later betting rounds; 0.00: twice "
        "the small bet",
    )
    raise_cap: int = option(
        "betting.raise_cap",
        integer(0),
        3,
        section=LIMIT_SECTION,
        help="the raises allowed after the bet in one betting round; 0: no cap",
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

    @property
    def straddle_bet(self) -> Cents:
        """The Straddle Bet: the Rules Submission's, or twice the last Blind Bet."""
        return self.straddle_amount or 2 * self.blind_bets[-1]

    @property
    def kill_blind(self) -> Cents:
        """The kill blind under the Kill option (twice the last Blind Bet) or the Half-kill (one and a
        half times): the industry's usual kill, which the text leaves to the Rules Submission."""
        last = self.blind_bets[-1]
        return 2 * last if self.kill == "kill" else last + last // 2

    def bet_size(self, street: int, killed: bool = False) -> Cents:
        """The fixed limit's bet (and raise) in betting round ``street`` (0 the first): the small bet
        in the first two, the big bet after; a killed round multiplies them as the kill blind does."""
        small = self.small_bet or self.blind_bets[-1]
        size = small if street < 2 else (self.big_bet or 2 * small)
        if killed:
            size = 2 * size if self.kill == "kill" else size + size // 2
        return size


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
