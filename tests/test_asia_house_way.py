"""The dealer's house way at Asia Poker (§ 659a.11(c)), and "help me set" (§ 659a.11(a)(1)).

The expected settings below are worked out by hand from the house way's words
(docs/games/asia-poker.md), not copied from a run. The legality checks use the
rankings module's own ``setting_is_valid`` / ``valid_settings``; the fast house
ways are checked against the brute force over all 105 settings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.core.cards import (
    JOKER,
    Card,
    CardError,
    card,
    deck_with_joker,
    format_cards,
    parse_cards,
)
from controller.rules.games.asia_poker.house_way import (
    DEFAULT_HOUSE_WAY,
    HOUSE_WAYS,
    STANDARD,
    STRONGEST_HIGH,
    HouseWay,
    best_legal_setting,
    describe_setting,
    holds_pair,
    house_way,
    set_hands,
    setting_keys,
)
from controller.rules.rankings.asia_poker import Setting, check_setting, setting_is_valid, valid_settings

DECK53 = deck_with_joker()
SUITS = "cdhs"


def c(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def shown(setting: Setting) -> str:
    return " / ".join(format_cards(h) for h in setting)


def same_cards(setting: Setting, seven: Sequence[Card]) -> bool:
    return Counter(x for h in setting for x in h) == Counter(seven)


# --- the registry -------------------------------------------------------------------------------


def test_registry_names_and_default() -> None:
    assert set(HOUSE_WAYS) == {"standard", "strongest-high"}
    assert DEFAULT_HOUSE_WAY == "standard"
    assert house_way("strongest-high") is STRONGEST_HIGH
    assert HOUSE_WAYS["standard"] is STANDARD


def test_unknown_house_way_says_did_you_mean() -> None:
    with pytest.raises(ValueError, match=r"did you mean 'strongest-high'\?"):
        house_way("strongest-hi")
    with pytest.raises(ValueError, match="house ways: standard, strongest-high"):
        set_hands(c("As Ks Qs Js 7c 7d 2h"), "pai-gow")


# --- the default house way in words (the module docstring), worked by hand -------------------------


@pytest.mark.parametrize(
    ("seven", "expected", "why"),
    [
        # No pair: the highest card in the high hand, the next two the medium hand, the next the low
        # hand. (A-K-Q-J is a four-card straight, but no medium hand holding the ace is legal beside
        # the rest, and without a pair rule 1 does not ask for it.)
        ("Ah Kd Qc Js 9h 5d 3c", "Ah 9h 5d 3c / Kd Qc / Js", "no pair"),
        # One pair: the pair stays high; the two highest other cards are the medium hand.
        ("7h 7d Ac Kd Qs 3c 2d", "7h 7d 3c 2d / Ac Kd / Qs", "one pair"),
        # A pair of aces stays high (rule 1): without it the best medium would be A-Q beside A-K-5-2.
        ("Ah Ad Kc Qd 9s 5h 2c", "Ah Ad 5h 2c / Kc Qd / 9s", "pair of aces"),
        # Two pair: the higher pair high, the lower pair as the medium hand, the highest other card low.
        ("Kh Kd 5s 5c Ah 9d 2c", "Kh Kd 9d 2c / 5s 5c / Ah", "two pair"),
        # Three pair: the highest pair as the medium hand, the other two pairs as the high hand.
        ("As Ah Kd Kc 5s 5h 2c", "Kd Kc 5s 5h / As Ah / 2c", "three pair"),
        # A four-card straight lets the higher pair be the medium hand: 9-9 beside 5-6-7-8.
        ("9s 9h 5d 5c 6h 7d 8c", "8c 7d 6h 5d / 9s 9h / 5c", "pair beside a straight"),
        # A royal flush in the high hand beside the pair.
        ("As Ks Qs Js 7c 7d 2h", "As Ks Qs Js / 7d 7c / 2h", "royal flush and a pair"),
        # Three of a kind: a king in the low hand beats a queen there; the pair of kings stays high.
        ("Ks Kh Kd 5c 5s Qh 2c", "Ks Kh Qh 2c / 5s 5c / Kd", "full house"),
        # Three nines and A-K: A-K is the best medium the cards allow (a pair of 9s in the middle
        # would need a higher high hand); the third nine is the best low card left.
        ("9c 9d 9h Ac Kd 5s 2c", "9h 9d 5s 2c / Ac Kd / 9c", "three of a kind"),
        # The joker as an ace pairs the ace; with 3-2 it makes the straight ace-2-3-4 high.
        ("JKR Ah Kd 7c 7d 3s 2c", "JKR Ah 3s 2c / 7d 7c / Kd", "joker"),
        # Four of a kind split: two and two, the best other card low.
        ("Qs Qh Qd Qc 9d 5c 2h", "Qs Qh 5c 2h / Qd Qc / 9d", "four of a kind"),
    ],
)
def test_standard_worked_examples(seven: str, expected: str, why: str) -> None:
    got = set_hands(c(seven))
    assert shown(got) == expected, why
    check_setting(*got)  # legal under § 659a.11(b)


@pytest.mark.parametrize(
    ("seven", "expected"),
    [
        # The best high hand first: the four-card straight A-K-Q-J; then the best medium of the rest.
        ("Ah Kd Qc Js 9h 5d 3c", "Ah Kd Qc Js / 9h 5d / 3c"),
        # The pair with the two best kickers high: 7-7-A-K; the medium Q-3, the low 2.
        ("7h 7d Ac Kd Qs 3c 2d", "Ac Kd 7h 7d / Qs 3c / 2d"),
        # Three nines with the ace high.
        ("9c 9d 9h Ac Kd 5s 2c", "Ac 9h 9d 9c / Kd 5s / 2c"),
        # Two pair aces and kings in the high hand, fives in the medium.
        ("As Ah Kd Kc 5s 5h 2c", "As Ah Kd Kc / 5s 5h / 2c"),
    ],
)
def test_strongest_high_worked_examples(seven: str, expected: str) -> None:
    assert shown(set_hands(c(seven), "strongest-high")) == expected


def test_the_setting_does_not_depend_on_the_order_the_cards_arrive() -> None:
    seven = c("Kh Kd 5s 5c Ah 9d 2c")
    assert set_hands(seven) == set_hands(tuple(reversed(seven))) == set_hands(seven[3:] + seven[:3])


def test_a234_option_changes_only_the_order_of_straights() -> None:
    # K-K in the middle, beside the straight the joker makes with 2-3-4: ace-2-3-4 (order 11, the
    # second highest straight) or, where ace-2-3-4 ranks lowest (§ 659a.6(b)(6)), 2-3-4-5 (order 2,
    # above ace-2-3-4's 1): the joker reads as a 5 then.
    seven = c("JKR 2c 3d 4h Kc Kd 9s")
    plain, low = set_hands(seven), set_hands(seven, a234_low=True)
    assert shown(plain) == shown(low) == "JKR 4h 3d 2c / Kd Kc / 9s"
    assert setting_keys(plain)[0] == (4, 11)
    assert setting_keys(low, a234_low=True)[0] == (4, 2)


def test_holds_pair_counts_the_joker_as_an_ace() -> None:
    assert holds_pair(c("JKR Ah Kd 9c 7s 5h 3d"))
    assert not holds_pair(c("JKR Kh Qd 9c 7s 5h 3d"))
    assert holds_pair(c("2c 2d 9c 7s 5h 3d Kh"))


def test_describe_setting() -> None:
    assert describe_setting(set_hands(c("Kc Kd Ac Qd 9s 4h 7s"))) == "high Kd Kc 7s 4h, medium Ac Qd, low 9s"


# --- errors -------------------------------------------------------------------------------------


def test_set_hands_needs_seven_cards_of_one_deck() -> None:
    with pytest.raises(CardError, match="seven cards"):
        set_hands(c("As Ks Qs Js 7c 7d"))
    with pytest.raises(CardError, match="appears 2 times"):
        set_hands((*c("As Ks Qs Js 7c 7d 2h")[:6], card(14, "s")))
    with pytest.raises(CardError, match="one deck"):
        set_hands((JOKER, JOKER, *c("As Ks Qs Js 7c")))


def test_a_plugged_in_house_way_that_breaks_the_rule_fails_loudly() -> None:
    def backwards(seven: Sequence[Card], a234_low: bool) -> Setting:
        s = sorted(seven, key=lambda x: x.rank)
        return (tuple(s[:4]), tuple(s[4:6]), (s[6],))  # the best card in the low hand

    bad = HouseWay("backwards", "the best card low", lambda seven, keys: (), backwards)
    with pytest.raises(CardError, match=r"against § 659a\.11"):
        set_hands(c("Ah Kd Qc Js 9h 5d 3c"), bad)

    def drops_a_card(seven: Sequence[Card], a234_low: bool) -> Setting:
        s = list(seven)
        return (tuple(s[:4]), tuple(s[4:6]), (s[5],))

    with pytest.raises(CardError, match="did not set the cards"):
        set_hands(c("Ah Kd Qc Js 9h 5d 3c"), HouseWay("x", "", lambda seven, keys: (), drops_a_card))


# --- always a legal setting: every rank pattern, with and without the joker ---------------------------


def _patterns(n: int) -> list[tuple[int, ...]]:
    return [
        combo for combo in combinations_with_replacement(range(2, 15), n) if max(Counter(combo).values()) <= 4
    ]


def _no_flush_hand(ranks: Sequence[int]) -> list[Card]:
    """Suits dealt round: at most two cards a suit, so no four-card flush can help the high hand."""
    return [card(r, SUITS[i % 4]) for i, r in enumerate(ranks)]


@pytest.mark.slow
def test_every_rank_pattern_of_seven_cards_gets_a_legal_setting() -> None:
    """Every multiset of seven ranks (49,205) and of six ranks with the joker (18,395).

    Suits are chosen so no flush is possible: suits can only raise a four-card hand (a flush or
    straight flush ranks above the same cards unsuited), never the medium or low hand, so a setting
    legal here is legal for every choice of suits; and the ace-2-3-4 option only reorders straights,
    which beat every medium hand either way. So this covers all C(53, 7) hands.
    """
    seven = _patterns(7)
    six = _patterns(6)
    assert (len(seven), len(six)) == (49205, 18395)
    for ranks in seven:
        hand = _no_flush_hand(ranks)
        h, m, lo = set_hands(hand)
        assert setting_is_valid(h, m, lo)
    for ranks in six:
        hand = [*_no_flush_hand(ranks), JOKER]
        h, m, lo = set_hands(hand)
        assert setting_is_valid(h, m, lo)


# --- properties over random hands ---------------------------------------------------------------

hands7 = st.lists(st.sampled_from(DECK53), min_size=7, max_size=7, unique=True)
hands_with_joker = st.lists(st.sampled_from(DECK53[:52]), min_size=6, max_size=6, unique=True).map(
    lambda six: [*six, JOKER]
)


@settings(max_examples=300, deadline=None)
@given(seven=st.one_of(hands7, hands_with_joker), way=st.sampled_from(sorted(HOUSE_WAYS)), a234=st.booleans())
def test_house_way_is_legal_and_equals_the_brute_force(seven: list[Card], way: str, a234: bool) -> None:
    got = set_hands(seven, way, a234_low=a234)
    assert same_cards(got, seven)
    assert setting_is_valid(*got, a234_low=a234)
    assert got == best_legal_setting(seven, way, a234_low=a234)


@settings(max_examples=150, deadline=None)
@given(seven=st.one_of(hands7, hands_with_joker))
def test_the_default_keeps_a_pair_high_then_takes_the_best_medium_hand(seven: list[Card]) -> None:
    """Rule 1 and 2 of the standard house way, checked on the rankings module's own legal settings."""
    got = set_hands(seven)
    legal = valid_settings(seven)
    assert legal  # § 659a.11(b) can always be met
    ranks = [x.rank or 14 for x in seven]
    if len(set(ranks)) < 7:  # the cards hold a pair: the high hand is a pair or better
        assert setting_keys(got)[0][0] >= 1
        legal = [s for s in legal if setting_keys(s)[0][0] >= 1]
        assert legal
    best_medium = max(setting_keys(s)[1] for s in legal)
    assert setting_keys(got)[1] == best_medium
    with_it = [s for s in legal if setting_keys(s)[1] == best_medium]
    assert setting_keys(got)[2] == max(setting_keys(s)[2] for s in with_it)


@settings(max_examples=100, deadline=None)
@given(seven=st.one_of(hands7, hands_with_joker), order=st.permutations(range(7)))
def test_input_order_does_not_matter(seven: list[Card], order: list[int]) -> None:
    assert set_hands(seven) == set_hands([seven[i] for i in order])
    assert set_hands(seven, "strongest-high") == set_hands([seven[i] for i in order], "strongest-high")
