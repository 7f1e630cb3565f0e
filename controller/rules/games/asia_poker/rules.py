"""Asia Poker's table and Rules Submission (ch. 659a, § 601a.2): the six betting positions and the
dealer, the starting position, the Bonus paytables, the options shared with Fortune Asia Poker and
Asia Poker's own, the checks between them, and the words of the round (decisions, irregularities,
a setting). The game is :mod:`.game`; docs/games/asia-poker.md lists every option."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from ...core.cards import Card, CardError, format_cards, parse_cards
from ...core.engine import IllegalEvent
from ...core.equipment import hand_dealing_needs_a_shuffler
from ...core.money import Cents, Odds, format_money
from ...core.option_groups import CardHandlingOptions, SideWagerOptions
from ...core.options import boolean, choice, money, option
from ...core.payout_limit import payout_limit_option
from ...rankings.asia_poker import BONUS_CATEGORY_NAMES, Setting
from .house_way import DEFAULT_HOUSE_WAY, HOUSE_WAYS

# --- the table: six betting positions and the dealer, § 659a.2(a), § 659a.5(g) --------------

SEATS: Final = 6
"""§ 659a.2(a): "betting positions for no more than six players"."""
POSITIONS: Final = 7
"""The six betting positions and the dealer: seven stacks of seven cards, four left (§ 659a.8(c), (d))."""
DEALER: Final = "dealer"
CARDS_PER_HAND: Final = 7

STARTING_POSITION_METHODS: Final = ("shaker", "random number generator", "button")
CARD_HANDLING: Final = CardHandlingOptions("659a")
STUB_SECTIONS: Final = {
    "manual shoe": "§ 659a.8(d), (e)",
    "hand": "§ 659a.9(c), (d)",
    "automated shoe": "§ 659a.10(c), (d)",
}


def position_of_count(count: int) -> str:
    """The position a count reaches, the dealer being one, counterclockwise (§ 659a.5(g)(1)(iii), (2)).

    1 is the dealer, 2 seat 6 (the dealer's right), ..., 7 seat 1, 8 the dealer
    again: "the dealer shall count each betting position in order, regardless of
    whether there is a wager at the betting position, beginning with the dealer
    as number one and continuing around the table in a counterclockwise manner,
    until the count matches the total of the three dice".
    """
    if count < 1:
        raise ValueError(f"a count starts at one (the dealer), not {count}")
    k = (count - 1) % POSITIONS
    return DEALER if k == 0 else str(POSITIONS - k)


def count_of_position(position: str) -> int:
    """The count 1-7 that reaches ``position`` (the inverse of :func:`position_of_count` on 1-7)."""
    if position == DEALER:
        return 1
    return POSITIONS + 1 - int(position)


def starting_position(method: str, value: int) -> str:
    """The starting position for ``value`` by ``method`` (§ 659a.5(g)); a :class:`ValueError` if out of range.

    ``"shaker"``: ``value`` is the total of the three dice, 3 to 18 ((g)(1));
    ``"random number generator"``: a number from 1 to 7 ((g)(2)); ``"button"``:
    where the button lies, as the same count 1 to 7 (1: in front of the dealer,
    where it starts, (g)(3)).
    """
    if method == "shaker":
        if not 3 <= value <= 18:
            raise ValueError(f"three dice total 3 to 18, not {value} (§ 659a.5(g)(1)(ii))")
    elif method == "random number generator":
        if not 1 <= value <= POSITIONS:
            raise ValueError(
                f"the random number generator displays a number from 1 to 7, not {value} (§ 659a.5(g)(2))"
            )
    elif method == "button":
        if not 1 <= value <= POSITIONS:
            raise ValueError(
                f"the button lies at one of the seven positions, counted 1 (the dealer) to 7 (seat 1), "
                f"not {value} (§ 659a.5(g)(3))"
            )
    else:
        raise ValueError(
            f"no starting-position method {method!r} (§ 659a.5(g): {', '.join(STARTING_POSITION_METHODS)})"
        )
    return position_of_count(value)


def clockwise_from(start: str) -> tuple[str, ...]:
    """The seven positions in dealing order from ``start``, clockwise (§ 659a.8(c))."""
    order = [str(s) for s in range(1, SEATS + 1)] + [DEALER]
    i = order.index(start)
    return tuple(order[i:] + order[:i])


def button_after_round(value: int) -> int:
    """Where the button lies after a round: one position clockwise (§ 659a.5(g)(3)), as a count 1-7."""
    if not 1 <= value <= POSITIONS:
        raise ValueError(f"the button lies at a count of 1 to 7, not {value}")
    return POSITIONS if value == 1 else value - 1


def position_words(position: str) -> str:
    return "the dealer" if position == DEALER else f"seat {position}"


# --- the Bonus Wager paytables, § 659a.12(b) ------------------------------------------------

BONUS_HANDS: Final = tuple(reversed(BONUS_CATEGORY_NAMES[1:]))
"""The rows of the paytable of § 659a.12(b), highest first, in the words of § 659a.6(d)."""


def _to1(*pays: int) -> tuple[Odds, ...]:
    return tuple(Odds(p, 1, "to") for p in pays)


#: § 659a.12(b): "Paytable A", "Paytable B" and "Paytable C", row by row as printed.
BONUS_PAYTABLES: Final[Mapping[str, Mapping[str, Odds]]] = MappingProxyType(
    {
        letter: MappingProxyType(dict(zip(BONUS_HANDS, odds, strict=True)))
        for letter, odds in (
            ("A", _to1(5000, 800, 200, 80, 40, 30, 10, 5, 4, 3, 2)),
            ("B", _to1(5000, 800, 200, 50, 40, 30, 10, 5, 4, 3, 2)),
            ("C", _to1(5000, 800, 200, 50, 40, 25, 10, 5, 4, 3, 2)),
        )
    }
)

PAYOUT_LIMIT_MINIMUM: Final[Cents] = 5_000_000
"""§ 659a.12(c): "at least $50,000 or the maximum amount that one player could win per round ..."."""

# --- the Rules Submission -------------------------------------------------------------------


@dataclass(frozen=True)
class AsiaTableRules:
    """What ch. 659a leaves to the Rules Submission for the table, shared by Asia Poker and Fortune."""

    shuffler: str = CARD_HANDLING.shuffler()
    dealing: str = CARD_HANDLING.dealing()
    starting_position: str = option(
        "starting_position",
        choice(*STARTING_POSITION_METHODS),
        "shaker",
        section="§ 659a.5(g)",
        help="the shaker's three dice, a random number generator (1-7) or the button",
    )
    a234_lowest: bool = option(
        "ranking.a234_lowest",
        boolean,
        False,
        section="§ 659a.6(b)(3), (6)",
        help="ace-2-3-4 is the lowest straight flush and straight (else the second highest)",
    )
    house_way: str = option(
        "house_way",
        choice(*HOUSE_WAYS),
        DEFAULT_HOUSE_WAY,
        section="§ 659a.11(c)",
        help="the manner in which the dealer's hands are set (games/asia_poker/house_way.py)",
    )
    adjacent_betting_areas: bool = option(
        "adjacent_betting_areas",
        boolean,
        False,
        section="§ 659a.7(f)",
        help="whether a player may wager on two adjacent betting areas",
    )
    payout_limit: Cents | None = payout_limit_option(
        "§ 659a.12(c)",
        'the maximum payable to a player on a single hand; "" for none',
        default="",
        minimum=PAYOUT_LIMIT_MINIMUM,
        minimum_rule="the $50,000 minimum of § 659a.12(c)",
    )


BONUS_OPTIONS: Final = SideWagerOptions("bonus", "Bonus Wager", "§ 659a.7(e)")


@dataclass(frozen=True)
class AsiaPokerRules(AsiaTableRules):
    """The Rules Submission of an Asia Poker table (ch. 659a)."""

    asia_poker_minimum: Cents = option(
        "asia_poker.minimum",
        money(1, "one cent"),
        "5.00",
        section="§ 659a.12(c)",
        help="the table's minimum Asia Poker Wager",
    )
    bonus_offered: bool = BONUS_OPTIONS.offered()
    bonus_paytable: str = BONUS_OPTIONS.paytable(choice("A", "B", "C"), "A", section="§ 659a.12(b)")
    bonus_minimum: Cents = BONUS_OPTIONS.minimum(section="§ 659a.12(c)")


def most_one_player_wins(rules: AsiaPokerRules) -> Cents:
    """The most one player could win per round betting the minimum wagers (§ 659a.12(c)).

    The minimum Asia Poker Wager at 1 to 1 and, where offered, the minimum Bonus
    Wager at the paytable's highest odds; twice that where a player may play two
    adjacent betting areas (§ 659a.7(f)): "per round", not per hand.
    """
    one = rules.asia_poker_minimum
    if rules.bonus_offered:
        top = max(BONUS_PAYTABLES[rules.bonus_paytable].values(), key=lambda o: o.pays / o.per)
        one += top.net(rules.bonus_minimum)
    return 2 * one if rules.adjacent_betting_areas else one


def check_payout_limit(rules: AsiaPokerRules) -> Iterable[str]:
    """§ 659a.12(c): the limit is at least $50,000 and what one player could win betting the minimum."""
    yield from limit_problems(rules, most_one_player_wins(rules))


def limit_problems(rules: AsiaTableRules, least: Cents) -> Iterable[str]:
    if rules.payout_limit is not None and rules.payout_limit < least:
        yield (
            f"payout_limit {format_money(rules.payout_limit)} is below ${format_money(least)}, the most one "
            "player could win per round betting the minimum permissible wagers, which § 659a.12(c) makes the "
            "least payout limit"
        )


def check_equipment(rules: AsiaTableRules) -> Iterable[str]:
    """The button needs an automated shuffler and shoe (§ 659a.5(g)(3)); hand dealing, a shuffler.

    § 659a.9(a)(1): dealt from the hand, "an automated shuffling device shall be used".
    """
    if rules.starting_position == "button" and (
        rules.dealing != "automated shoe" or rules.shuffler != "automated"
    ):
        yield (
            "starting_position 'button' needs dealing = 'automated shoe' and shuffler = 'automated': the "
            "button is used where an automated card shuffling device and dealing shoe are used (§ "
            "659a.5(g)(3))"
        )
    yield from hand_dealing_needs_a_shuffler(rules.dealing, rules.shuffler, "§ 659a.9(a)(1)")


RULES_CHECKS: Final[tuple[Callable[[Any], Iterable[str]], ...]] = (check_payout_limit, check_equipment)

# --- words of the round ---------------------------------------------------------------------

ASIA_POKER: Final = "asia_poker"
BONUS: Final = "bonus"

SET: Final = "set"
HELP: Final = "help"
SURRENDER: Final = "surrender"
VOID_HAND: Final = "void"
PLAY_HAND: Final = "play"
ACTIONS: Final = (SET, HELP, SURRENDER, VOID_HAND, PLAY_HAND)

#: The irregularity kinds, with the section each follows (§ 659a.13 and the stub of § 659a.8-659a.10).
IRREGULARITIES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "no_roll": "§ 659a.13(a), (b)",
        "wrong_starting_position": "§ 659a.13(c)",
        "player_card_exposed": "§ 659a.13(d)",
        "dealer_card_exposed": "§ 659a.13(e)",
        "card_face_up": "§ 659a.13(f)",
        "card_drawn_in_error": "§ 659a.13(g)",
        "wrong_card_count": "§ 659a.13(h), (k)",
        "dealer_set_incorrectly": "§ 659a.13(i)",
        "dealer_card_exposed_while_dealing": "§ 659a.13(j)",
        "shuffler_jam": "§ 659a.13(l)",
        "shoe_jam": "§ 659a.13(m)",
        "stub_count_misdealt": "§ 659a.8(e), § 659a.9(d), § 659a.10(d)",
        "stub_count_wrong": "§ 659a.8(e), § 659a.9(d), § 659a.10(d)",
    }
)


def setting_action(setting: Setting) -> str:
    """The ``decision`` action that sets ``setting``: ``"set As Ks Qs Js / 7c 7d / 2h"``."""
    high, medium, low = setting
    return f"{SET} {format_cards(high)} / {format_cards(medium)} / {format_cards(low)}"


def parse_setting(text: str) -> Setting:
    """The three hands of ``"<high> / <medium> / <low>"``; :class:`IllegalEvent` if unreadable.

    The sizes are not checked here: four, two and one card is what § 659a.11(b)
    asks, and a hand set otherwise loses (§ 659a.11(f)(1)(v)).
    """
    parts = text.split("/")
    if len(parts) != 3:
        raise IllegalEvent(
            'a setting is "set <high> / <medium> / <low>", e.g. "set As Ks Qs Js / 7c 7d / 2h": the high, '
            "medium and low hands (§ 659a.11(b))"
        )
    hands: list[tuple[Card, ...]] = []
    for name, part in zip(("high", "medium", "low"), parts, strict=True):
        try:
            hands.append(parse_cards(part, decks=1, allow_joker=True))
        except CardError as exc:
            raise IllegalEvent(f"the {name} hand: {exc}") from None
    return hands[0], hands[1], hands[2]
