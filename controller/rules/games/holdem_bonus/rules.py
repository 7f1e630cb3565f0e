"""Texas Hold 'Em Bonus Poker's Bonus paytables and Rules Submission (ch. 647a, § 601a.2): the
Bonus hands of § 647a.12(b), the options and the checks between them (the payout limit of
§ 647a.12(c), the equipment). The game is :mod:`.game`; docs/games/holdem-bonus.md lists
every option."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ...core.cards import ACE, JACK, KING, QUEEN, Card
from ...core.equipment import hand_dealing_needs_a_shuffler, two_decks_need_a_shuffler
from ...core.money import Cents, Odds, format_money
from ...core.option_groups import CardHandlingOptions, SideWagerOptions
from ...core.options import choice, integer, money, option
from ...core.payout_limit import payout_limit_option

NAME: Final = "holdem-bonus"


# --- the Bonus paytables, § 647a.12(b) -------------------------------------------------------

ACE_ACE_DEALER_AND_PLAYER: Final = "ace-ace (dealer and player)"
ACE_ACE: Final = "ace-ace"
ACE_KING_SUITED: Final = "ace-king (same suit)"
ACE_QUEEN_JACK_SUITED: Final = "ace-queen or ace-jack (same suit)"
ACE_KING_OFFSUIT: Final = "ace-king (different suits)"
KINGS_QUEENS_JACKS: Final = "king-king, queen-queen or jack-jack"
ACE_QUEEN_JACK_OFFSUIT: Final = "ace-queen or ace-jack (different suits)"
PAIR_TEN_TO_TWO: Final = "a pair of 10-10 through 2-2"

#: The rows of § 647a.12(b), highest first, in the text's words.
BONUS_HANDS: Final = (
    ACE_ACE_DEALER_AND_PLAYER,
    ACE_ACE,
    ACE_KING_SUITED,
    ACE_QUEEN_JACK_SUITED,
    ACE_KING_OFFSUIT,
    KINGS_QUEENS_JACKS,
    ACE_QUEEN_JACK_OFFSUIT,
    PAIR_TEN_TO_TWO,
)


def _to1(n: int) -> Odds:
    return Odds(n, 1, "to")


#: § 647a.12(b): "Paytable A" and "Paytable B"; ``None`` where the table says "N/A".
BONUS_PAYTABLES: Final[Mapping[str, Mapping[str, Odds | None]]] = MappingProxyType(
    {
        "A": MappingProxyType(
            {
                ACE_ACE_DEALER_AND_PLAYER: _to1(1000),
                ACE_ACE: _to1(30),
                ACE_KING_SUITED: _to1(25),
                ACE_QUEEN_JACK_SUITED: _to1(20),
                ACE_KING_OFFSUIT: _to1(15),
                KINGS_QUEENS_JACKS: _to1(10),
                ACE_QUEEN_JACK_OFFSUIT: _to1(5),
                PAIR_TEN_TO_TWO: _to1(3),
            }
        ),
        "B": MappingProxyType(
            {
                ACE_ACE_DEALER_AND_PLAYER: None,
                ACE_ACE: _to1(30),
                ACE_KING_SUITED: _to1(25),
                ACE_QUEEN_JACK_SUITED: _to1(20),
                ACE_KING_OFFSUIT: _to1(15),
                KINGS_QUEENS_JACKS: _to1(10),
                ACE_QUEEN_JACK_OFFSUIT: _to1(5),
                PAIR_TEN_TO_TWO: _to1(3),
            }
        ),
    }
)


def bonus_hand(player: tuple[Card, ...], dealer: tuple[Card, ...], paytable: str) -> str | None:
    """The row of § 647a.12(b) that the player's first two cards qualify for, or ``None``.

    "Ace-ace (dealer and player)" is the player's two aces while the dealer's two
    cards are aces as well; paytable B has no such row ("N/A"), so there the
    player's aces are "ace-ace".
    """
    a, b = sorted(player, key=lambda c: c.rank, reverse=True)
    suited = a.suit == b.suit
    if a.rank == b.rank == ACE:
        dealer_aces = len(dealer) == 2 and all(c.rank == ACE for c in dealer)
        if dealer_aces and BONUS_PAYTABLES[paytable][ACE_ACE_DEALER_AND_PLAYER] is not None:
            return ACE_ACE_DEALER_AND_PLAYER
        return ACE_ACE
    if a.rank == ACE and b.rank == KING:
        return ACE_KING_SUITED if suited else ACE_KING_OFFSUIT
    if a.rank == ACE and b.rank in (QUEEN, JACK):
        return ACE_QUEEN_JACK_SUITED if suited else ACE_QUEEN_JACK_OFFSUIT
    if a.rank == b.rank:
        return KINGS_QUEENS_JACKS if a.rank in (KING, QUEEN, JACK) else PAIR_TEN_TO_TWO
    return None


# --- the Rules Submission -------------------------------------------------------------------

ANTE_RULES: Final = ("straight or higher", "flush or higher")
CARD_HANDLING: Final = CardHandlingOptions("647a")
AGGREGATE_MINIMUM: Final[Cents] = 5_000_000
"""§ 647a.12(c): "$50,000 or the maximum amount that one patron could win per round ..."."""


BONUS_OPTIONS: Final = SideWagerOptions("bonus", "Bonus Wager", "§ 647a.7(d)(2)")


@dataclass(frozen=True)
class HoldemBonusRules:
    """What ch. 647a leaves to the Rules Submission under § 601a.2, and the table's setup."""

    seats: int = option(
        "seats", integer(1, 6), 6, section="§ 647a.2(a)", help="betting positions, no more than six"
    )
    decks: int = option(
        "decks",
        integer(1, 2),
        1,
        section="§ 647a.3",
        help="one deck, or two decks alternated round by round with an automated shuffler",
    )
    shuffler: str = CARD_HANDLING.shuffler()
    dealing: str = CARD_HANDLING.dealing()
    ante_paid_on: str = option(
        "ante.paid_on",
        choice(*ANTE_RULES),
        "straight or higher",
        section="§ 647a.11(h)(2)(ii)",
        help="the least winning hand on which the Ante Wager is paid; below it the Ante is returned",
    )
    ante_minimum: Cents = option(
        "ante.minimum",
        money(1, "one cent"),
        "5.00",
        section="§ 647a.12(c)",
        help="the table's minimum Ante Wager",
    )
    bonus_offered: bool = BONUS_OPTIONS.offered()
    bonus_paytable: str = BONUS_OPTIONS.paytable(choice("A", "B"), "A", section="§ 647a.12(b)")
    bonus_minimum: Cents = BONUS_OPTIONS.minimum(section="§ 647a.12(c)")
    payout_limit: Cents = payout_limit_option(
        "§ 647a.12(c)",
        "the maximum aggregate payout on all winning wagers of one hand",
        default="50000.00",
        minimum=AGGREGATE_MINIMUM,
        minimum_rule="the $50,000 minimum of § 647a.12(c)",
    )


def most_one_patron_wins(rules: HoldemBonusRules) -> Cents:
    """The most one patron could win per round betting the minimum wagers (§ 647a.12(c)).

    The minimum Ante paid 1 to 1, the Flop Wager of twice it, the Turn and River
    Wagers of once it (5 x the Ante), and where the Bonus is offered the minimum
    Bonus at the paytable's highest odds.
    """
    base = 5 * rules.ante_minimum
    if not rules.bonus_offered:
        return base
    top = max(
        (o for o in BONUS_PAYTABLES[rules.bonus_paytable].values() if o is not None), key=lambda o: o.pays
    )
    return base + top.net(rules.bonus_minimum)


def check_payout_limit(rules: HoldemBonusRules) -> Iterable[str]:
    """§ 647a.12(c): the limit is at least what one patron could win betting the minimum."""
    least = most_one_patron_wins(rules)
    if rules.payout_limit < least:
        bonus = ""
        if rules.bonus_offered:
            top = BONUS_PAYTABLES[rules.bonus_paytable][
                ACE_ACE_DEALER_AND_PLAYER if rules.bonus_paytable == "A" else ACE_ACE
            ]
            bonus = f" and the ${format_money(rules.bonus_minimum)} minimum Bonus at {top}"
        yield (
            f"payout_limit {format_money(rules.payout_limit)} is below ${format_money(least)}, the most one "
            f"patron could win per round betting the minimum wagers (5 x the "
            f"${format_money(rules.ante_minimum)} minimum Ante{bonus}), which § 647a.12(c) makes the least "
            f"aggregate payout limit"
        )


def check_equipment(rules: HoldemBonusRules) -> Iterable[str]:
    """Two decks (§ 647a.3(b)) and dealing from the hand (§ 647a.9(a)(1)) need an automated shuffler."""
    yield from two_decks_need_a_shuffler(rules.decks, rules.shuffler, "§ 647a.3(b)")
    yield from hand_dealing_needs_a_shuffler(rules.dealing, rules.shuffler, "§ 647a.9(a)(1)")


RULES_CHECKS: Final[tuple[Callable[[HoldemBonusRules], Iterable[str]], ...]] = (
    check_payout_limit,
    check_equipment,
)
