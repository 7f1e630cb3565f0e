"""Caribbean Stud Poker's words, paytables and Rules Submission (ch. 639a, § 601a.2): the wagers,
the Bet, Bonus and Progressive paytables as § 639a.12 prints them, the options and the checks
between them, the irregularities of § 639a.13. The game is :mod:`.game`;
docs/games/caribbean-stud.md lists every option."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ...core.cards import TEN
from ...core.equipment import hand_dealing_needs_a_shuffler, two_decks_need_a_shuffler
from ...core.money import Award, Cents, Odds, parse_award
from ...core.option_groups import CardHandlingOptions, ProgressiveOptions, SideWagerOptions
from ...core.options import choice, integer, option
from ...rankings.high import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
)

NAME: Final = "caribbean-stud"
HAND_SIZE: Final = 5
"""Hand—"The five-card hand that is held by each player and the dealer" (§ 639a.1)."""

ANTE: Final = "ante"
BET: Final = "bet"
BONUS: Final = "bonus"
PROGRESSIVE: Final = "progressive"
FOLD: Final = "fold"
WAGERS: Final = (ANTE, BONUS, PROGRESSIVE)
"""The wagers placed before "no more bets"; the Bet Wager is the decision ``bet`` (§ 639a.7(c))."""
SETTLEMENT_ORDER: Final = (ANTE, BET, BONUS, PROGRESSIVE)
"""Within a seat: Ante and Bet (§ 639a.11(c)(3)), Bonus ((c)(4)), then Progressive ((c)(5))."""

CARD_HANDLING: Final = CardHandlingOptions("639a")
"""How the table shuffles (§ 639a.5(a)) and deals: § 639a.8 (a manual dealing shoe), § 639a.9 (the
dealer's hand), § 639a.10 (an automated dealing shoe)."""

MINIMUM_METER: Final[Cents] = 1_000_000
METER_RULE: Final = "the $10,000 minimum of § 639a.12(d)(3)"


# --- paytables, as § 639a.12 prints them ------------------------------------------------------


def _table(rows: Mapping[int, str]) -> Mapping[int, Award]:
    return MappingProxyType({category: parse_award(text) for category, text in rows.items()})


# § 639a.12(b): the Bet Wager ("A pair or less 1 to 1").
BET_PAYTABLE: Final[Mapping[int, Award]] = _table(
    {
        ROYAL_FLUSH: "100 to 1",
        STRAIGHT_FLUSH: "50 to 1",
        FOUR_OF_A_KIND: "20 to 1",
        FULL_HOUSE: "7 to 1",
        FLUSH: "5 to 1",
        STRAIGHT: "4 to 1",
        THREE_OF_A_KIND: "3 to 1",
        TWO_PAIR: "2 to 1",
        PAIR: "1 to 1",
        HIGH_CARD: "1 to 1",
    }
)
ANTE_ODDS: Final = Odds(1, 1, "to")  # § 639a.12(a)

# § 639a.12(c): the Caribbean Stud Bonus Wager. The PAIR row is "A pair of 10s or better".
BONUS_PAYTABLES: Final[Mapping[str, Mapping[int, Award]]] = MappingProxyType(
    {
        letter: _table(
            {
                ROYAL_FLUSH: "1,000 to 1",
                STRAIGHT_FLUSH: "200 to 1",
                FOUR_OF_A_KIND: "100 to 1",
                FULL_HOUSE: "50 to 1",
                FLUSH: "40 to 1",
                STRAIGHT: straight,
                THREE_OF_A_KIND: trips,
                TWO_PAIR: "3 to 1",
                PAIR: "1 to 1",
            }
        )
        for letter, straight, trips in (
            ("A", "25 to 1", "7 to 1"),
            ("B", "25 to 1", "6 to 1"),
            ("C", "20 to 1", "6 to 1"),
        )
    }
)
BONUS_LOWEST_PAIR: Final = TEN
"""§ 639a.7(d)(3): "a five-card poker hand with a rank of a pair of 10s or better"."""

# § 639a.12(d)(1): the Progressive Payout Wager. Paytable C has no Two pair row ("N/A").
PROGRESSIVE_PAYTABLES: Final[Mapping[str, Mapping[int, Award]]] = MappingProxyType(
    {
        "A": _table(
            {
                ROYAL_FLUSH: "100% of meter",
                STRAIGHT_FLUSH: "5,000 for 1",
                FOUR_OF_A_KIND: "500 for 1",
                FULL_HOUSE: "100 for 1",
                FLUSH: "50 for 1",
                STRAIGHT: "10 for 1",
                THREE_OF_A_KIND: "3 for 1",
                TWO_PAIR: "2 for 1",
            }
        ),
        "B": _table(
            {
                ROYAL_FLUSH: "100% of meter",
                STRAIGHT_FLUSH: "10% of meter",
                FOUR_OF_A_KIND: "500 for 1",
                FULL_HOUSE: "100 for 1",
                FLUSH: "50 for 1",
                STRAIGHT: "10 for 1",
                THREE_OF_A_KIND: "3 for 1",
                TWO_PAIR: "2 for 1",
            }
        ),
        "C": _table(
            {
                ROYAL_FLUSH: "100% of meter",
                STRAIGHT_FLUSH: "10% of meter",
                FOUR_OF_A_KIND: "200 for 1",
                FULL_HOUSE: "50 for 1",
                FLUSH: "40 for 1",
                STRAIGHT: "30 for 1",
                THREE_OF_A_KIND: "9 for 1",
            }
        ),
    }
)


# --- the Rules Submission ---------------------------------------------------------------------

BONUS_OPTIONS: Final = SideWagerOptions("bonus", "Caribbean Stud Bonus Wager", "§ 639a.7(d)(3)")
PROGRESSIVE_OPTIONS: Final = ProgressiveOptions("progressive", "Progressive Payout Wager", "§ 639a.7(d)(2)")


@dataclass(frozen=True)
class CaribbeanStudRules:
    """The options ch. 639a leaves to the Rules Submission (§ 601a.2).

    The chapter sets no payout limit (§ 639a.12 is "Payout odds; rate of
    progression" only), so there is no limit option.
    """

    seats: int = option(
        "seats",
        integer(1, 7),
        7,
        section="§ 639a.2(a)",
        help="betting positions: no more than seven players",
    )
    decks: int = option(
        "decks",
        integer(1, 2),
        1,
        section="§ 639a.3",
        help="one deck, or two alternated rounds by round with an automated card shuffling device",
    )
    shuffler: str = CARD_HANDLING.shuffler()
    dealing: str = CARD_HANDLING.dealing()
    bonus_offered: bool = BONUS_OPTIONS.offered()
    bonus_paytable: str = BONUS_OPTIONS.paytable(choice("A", "B", "C"), "A", section="§ 639a.12(c)")
    progressive_offered: bool = PROGRESSIVE_OPTIONS.offered()
    progressive_paytable: str = PROGRESSIVE_OPTIONS.paytable(
        choice("A", "B", "C"), "A", section="§ 639a.12(d)(1)"
    )
    progressive_wager: Cents = PROGRESSIVE_OPTIONS.wager(section="§ 639a.7(d)(2), § 639a.8(b)")
    progressive_initial: Cents = PROGRESSIVE_OPTIONS.initial(
        "10000.00", section="§ 639a.12(d)(3)", minimum=MINIMUM_METER, minimum_rule=METER_RULE
    )
    progressive_reset: Cents = PROGRESSIVE_OPTIONS.reset(
        "10000.00", section="§ 639a.12(d)(3)", minimum=MINIMUM_METER, minimum_rule=METER_RULE
    )
    progressive_rate: str | None = PROGRESSIVE_OPTIONS.rate(section="§ 639a.12(d)(3)")
    """Required when the wager is offered (:func:`_check_rate`)."""


def _check_rate(rules: CaribbeanStudRules) -> Iterator[str]:
    # § 639a.12(d)(3): "The rate of progression ... must be in the certificate holder's Rules Submission".
    if rules.progressive_offered and rules.progressive_rate is None:
        yield (
            "progressive.rate_of_progression: missing; the Rules Submission must give the rate of "
            "progression when the Progressive Payout Wager is offered (§ 639a.12(d)(3))"
        )


def _check_shuffler(rules: CaribbeanStudRules) -> Iterator[str]:
    # § 639a.3(b): "If an automated card shuffling device is utilized, ... may be played with two decks".
    yield from two_decks_need_a_shuffler(rules.decks, rules.shuffler, "§ 639a.3(b)")
    # § 639a.9(a)(1): "An automated shuffling device shall be used to shuffle the cards."
    yield from hand_dealing_needs_a_shuffler(rules.dealing, rules.shuffler, "§ 639a.9(a)(1)")


RULES_CHECKS: Final[tuple[Callable[[CaribbeanStudRules], Iterable[str]], ...]] = (
    _check_rate,
    _check_shuffler,
)


# --- irregularities ---------------------------------------------------------------------------

IRREGULARITIES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "card_face_up": "§ 639a.13(a)",
        "cards_face_up": "§ 639a.13(a)",
        "card_drawn_in_error": "§ 639a.13(b)",
        "wrong_card_count": "§ 639a.13(c)",
        "hole_card_exposed": "§ 639a.13(d)",
        "shuffler_jam": "§ 639a.13(e)",
        "shoe_jam": "§ 639a.13(f)",
        "stub_count_misdealt": "§ 639a.8(h), § 639a.9(f), § 639a.10(f)",
        "stub_count_wrong": "§ 639a.8(h), § 639a.9(f), § 639a.10(f)",
    }
)
"""The ``irregularity`` kinds this game accepts, with the section each follows.

- ``card_face_up``: one card found face up in the shoe or deck while dealing: not used, no void; a
  second one in the same deal voids the round (§ 639a.13(a)).
- ``cards_face_up``: more than one card found face up at once while dealing: void (§ 639a.13(a)).
- ``card_drawn_in_error``: used as the next card, no void (§ 639a.13(b)).
- ``wrong_card_count``: a player or the dealer dealt an incorrect number of cards: void (§ 639a.13(c)).
- ``hole_card_exposed``: before every player has bet or folded: void (§ 639a.13(d)); after, recorded.
- ``shuffler_jam``: before the deal: the cards are reshuffled, the wagers stand (§ 639a.13(e)).
- ``shoe_jam``: the automated dealing shoe jams, stops or fails to deal: void (§ 639a.13(f)).
- ``stub_count_misdealt`` / ``stub_count_wrong``: the stub count after the deal is wrong, the cards
  misdealt (52 remain) / not misdealt (the deck is removed): void either way (§ 639a.8(h), 639a.9(f),
  639a.10(f)).
"""

STUB_SECTIONS: Final = {
    "manual shoe": "§ 639a.8(h)",
    "hand": "§ 639a.9(f)",
    "automated shoe": "§ 639a.10(f)",
}
