"""Three Card Poker, 58 Pa. Code ch. 649a: the round engine, its Rules Submission, its examples.

Every expected amount below is worked out by hand from the paytables written in this file
(``PAYTABLES``), never copied from a run of the code. Our copy of ch. 649a prints § 649a.6(d)(8),
§ 649a.6(e) and § 649a.12(g) only; the rest follows docs/games/three-card-poker.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.core.cards import format_cards, parse_cards, standard_deck
from controller.rules.core.engine import IllegalEvent, Round, play
from controller.rules.core.events import Event
from controller.rules.core.money import Odds, parse_money
from controller.rules.core.options import RulesError, load_rules, rules_to_mapping
from controller.rules.core.record import load_record, replay
from controller.rules.core.settlement import PAYOUT_LIMITED, Result, Settlement
from controller.rules.core.submission import parse_submission
from controller.rules.games.three_card_poker.game import (
    GAME,
    IRREGULARITIES,
    ThreeCardPokerRules,
    ThreeCardPokerState,
)

from .rounds import NO_MORE_BETS, cards, decide, irregularity, wager

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "three-card-poker"
GAMES = {GAME.name: GAME}

# The paytables of these tests (the published industry tables the example submission uses).
ANTE_BONUS = {"straight flush": "5 to 1", "three-of-a-kind": "4 to 1", "straight": "1 to 1"}
PAIR_PLUS = {
    "straight flush": "40 to 1",
    "three-of-a-kind": "30 to 1",
    "straight": "6 to 1",
    "flush": "4 to 1",
    "pair": "1 to 1",
}
SIX_CARD = {
    "royal flush": "1,000 to 1",
    "straight flush": "200 to 1",
    "four-of-a-kind": "50 to 1",
    "full house": "25 to 1",
    "flush": "15 to 1",
    "straight": "10 to 1",
    "three-of-a-kind": "5 to 1",
}
BASE: dict[str, Any] = {"ante_bonus": {"odds": ANTE_BONUS}, "pair_plus": {"odds": PAIR_PLUS}}
WITH_SIX: dict[str, Any] = {
    **BASE,
    "six_card_bonus": {"offered": True, "paytable": "A", "odds": SIX_CARD},
}
WITH_E: dict[str, Any] = {
    **BASE,
    "six_card_bonus": {
        "offered": True,
        "paytable": "E",
        "odds": {"Super Royal": "2,000 to 1", **SIX_CARD},
    },
}


def rules(mapping: Mapping[str, Any] = BASE, **flat: object) -> ThreeCardPokerRules:
    merged: dict[str, object] = {**mapping, **flat}
    return load_rules(ThreeCardPokerRules, merged, "test", GAME.rules_checks)


def c(cents_text: str) -> int:
    return parse_money(cents_text)


# --- events ----------------------------------------------------------------------------------


def deal(
    seats: Mapping[int, Mapping[str, str]],
    hands: Mapping[int, str],
    dealer: str,
    actions: Sequence[tuple[int, str]] = (),
) -> list[Event]:
    """The events of a round: wagers, no more bets, the players' cards, the dealer's, the decisions."""
    events = [wager(s, w, a) for s in sorted(seats) for w, a in seats[s].items()]
    events.append(NO_MORE_BETS)
    events += [cards(s, hands[s]) for s in sorted(hands)]
    events.append(cards("dealer", dealer))
    events += [decide(s, a) for s, a in actions]
    return events


def settle(events: Sequence[Event], r: ThreeCardPokerRules | None = None) -> Settlement:
    return play(GAME, r or rules(), {}, events)


def line(s: Settlement, seat: int, name: str) -> tuple[Result, int]:
    o = s.for_seat(seat)[name]
    return o.result, o.net


def one_seat(
    hand: str,
    dealer: str,
    bets: Mapping[str, str],
    action: str = "play",
    r: ThreeCardPokerRules | None = None,
) -> Settlement:
    actions = [(1, action)] if "ante" in bets else []
    return settle(deal({1: bets}, {1: hand}, dealer, actions), r)


# --- Ante and Play against the dealer (§ 649a.11(c)(3), § 649a.12(a)) -----------------------


def test_dealer_not_qualifying_pays_the_ante_and_returns_the_play() -> None:
    # Dealer jack-high: below queen-high, so no qualifying hand. The player's high card still
    # loses to nothing: Ante 1 to 1 (+10), Play returned.
    s = one_seat("9c 6d 2h", "Jd 9s 4c", {"ante": "10.00"})
    assert line(s, 1, "ante") == (Result.WIN, 1000)
    assert line(s, 1, "play") == (Result.PUSH, 0)
    assert "ante_bonus" not in s.for_seat(1)
    assert s.dealer.endswith("does not qualify (queen-high or better)")


def test_queen_high_is_the_lowest_qualifying_hand() -> None:
    # Queen-four-two qualifies; the player's king-high beats it: Ante and Play each 1 to 1.
    s = one_seat("Kc 5d 3h", "Qd 4s 2c", {"ante": "10.00"})
    assert line(s, 1, "ante") == (Result.WIN, 1000)
    assert line(s, 1, "play") == (Result.WIN, 1000)
    assert "; qualifies" in s.dealer
    # Queen-high beats the player's jack-high: both lose.
    s = one_seat("Jc 9d 3h", "Qd 4s 2c", {"ante": "10.00"})
    assert line(s, 1, "ante") == (Result.LOSE, -1000)
    assert line(s, 1, "play") == (Result.LOSE, -1000)


def test_player_beats_a_qualifying_dealer() -> None:
    s = one_seat("8c 8d 3h", "Ad Ks 2c", {"ante": "25.00"})  # pair of eights over ace-high
    assert line(s, 1, "ante") == (Result.WIN, 2500)
    assert line(s, 1, "play") == (Result.WIN, 2500)


def test_a_tie_returns_the_ante_and_the_play() -> None:
    # The same ranks in other suits: § 649a.6(c) finds no card "not contained in the other hand".
    s = one_seat("Kc 7d 4h", "Kd 7s 4c", {"ante": "10.00"})
    assert line(s, 1, "ante") == (Result.PUSH, 0)
    assert line(s, 1, "play") == (Result.PUSH, 0)


def test_tie_broken_by_the_last_card() -> None:
    s = one_seat("Kc 7d 5h", "Kd 7s 4c", {"ante": "10.00"})
    assert line(s, 1, "ante") == (Result.WIN, 1000)
    s = one_seat("Kc 7d 3h", "Kd 7s 4c", {"ante": "10.00"})
    assert line(s, 1, "ante") == (Result.LOSE, -1000)


def test_player_loses_to_a_qualifying_dealer_but_keeps_the_ante_bonus() -> None:
    # A straight loses to three-of-a-kind; the Ante Bonus still pays 1 to 1 on the $10 Ante.
    s = one_seat("9c 8d 7h", "5d 5s 5c", {"ante": "10.00"})
    assert line(s, 1, "ante") == (Result.LOSE, -1000)
    assert line(s, 1, "play") == (Result.LOSE, -1000)
    assert line(s, 1, "ante_bonus") == (Result.WIN, 1000)


def test_ante_bonus_is_paid_when_the_dealer_does_not_qualify() -> None:
    # Three-of-a-kind, dealer ten-high: Ante +10, Play returned, Ante Bonus 4 to 1 = +40.
    s = one_seat("7c 7d 7s", "Td 8s 2c", {"ante": "10.00"})
    assert [line(s, 1, w) for w in ("ante", "play", "ante_bonus")] == [
        (Result.WIN, 1000),
        (Result.PUSH, 0),
        (Result.WIN, 4000),
    ]
    assert s.for_seat(1)["ante_bonus"].stake == 1000  # paid on the Ante


def test_a_play_amount_equal_to_the_ante_is_accepted() -> None:
    events = [*deal({1: {"ante": "15.00"}}, {1: "Ac 9d 4h"}, "Qd 8s 2c"), decide(1, "play", "15.00")]
    s = settle(events)
    assert s.for_seat(1)["play"].stake == 1500
    assert line(s, 1, "play") == (Result.WIN, 1500)


# --- folding (§ 649a.11(b)) ---------------------------------------------------------------


def test_a_fold_forfeits_the_ante_the_pair_plus_and_the_six_card_bonus() -> None:
    # Even holding a pair (Pair Plus would win 1 to 1) and, with the dealer's cards, trips
    # (Six Card Bonus would win 5 to 1): a fold forfeits every wager of the seat.
    bets = {"ante": "10.00", "pair_plus": "5.00", "six_card_bonus": "5.00"}
    s = one_seat("4c 4d Jh", "4s 9d 2c", bets, action="fold", r=rules(WITH_SIX))
    seat = s.for_seat(1)
    assert [(w, seat[w].result, seat[w].net) for w in seat] == [
        ("ante", Result.LOSE, -1000),
        ("pair_plus", Result.LOSE, -500),
        ("six_card_bonus", Result.LOSE, -500),
    ]
    assert "play" not in seat and "ante_bonus" not in seat


def test_a_fold_with_a_straight_gets_no_ante_bonus() -> None:
    s = one_seat("9c 8d 7h", "2d 4s 6c", {"ante": "10.00"}, action="fold")
    assert list(s.for_seat(1)) == ["ante"]
    assert line(s, 1, "ante") == (Result.LOSE, -1000)


def test_pair_plus_alone_needs_no_decision() -> None:
    s = settle(deal({2: {"pair_plus": "5.00"}}, {2: "Qc Qd 3h"}, "Kd 8s 2c"))
    assert line(s, 2, "pair_plus") == (Result.WIN, 500)


# --- every paytable row ---------------------------------------------------------------------

# (player's cards, dealer's cards, hand, what a $10 Ante wins in the Ante Bonus by hand)
ANTE_BONUS_ROWS = [
    ("9h 8h 7h", "Kd 4s 2c", "straight flush", 5000),  # 5 to 1 on 10
    ("7c 7d 7s", "Kd 4s 2c", "three-of-a-kind", 4000),  # 4 to 1
    ("9c 8d 7h", "Kd 4s 2c", "straight", 1000),  # 1 to 1
    ("Ac 2d 3h", "Kd 4s 9c", "straight", 1000),  # ace-2-3 is a straight
    ("3h 2h Ah", "Kd 4s 9c", "straight flush", 5000),
]


@pytest.mark.parametrize(("hand", "dealer", "category", "won"), ANTE_BONUS_ROWS)
def test_ante_bonus_rows(hand: str, dealer: str, category: str, won: int) -> None:
    s = one_seat(hand, dealer, {"ante": "10.00"})
    o = s.for_seat(1)["ante_bonus"]
    assert (o.result, o.net, o.stake) == (Result.WIN, won, 1000)
    assert o.hand.startswith(category)


@pytest.mark.parametrize("hand", ["Ah 9h 4h", "Kc Kd 2h", "Ac Kd 9h", "Kc Ad 2h"])
def test_no_ante_bonus_below_a_straight(hand: str) -> None:
    # A flush, a pair, a high card, and king-ace-2 (no straight) pay no Ante Bonus.
    s = one_seat(hand, "5d 4s 2c", {"ante": "10.00"})
    assert "ante_bonus" not in s.for_seat(1)


# (player's cards, hand, what a $5 Pair Plus wins by hand; -500 = the stake lost)
PAIR_PLUS_ROWS = [
    ("Qs Js Ts", "straight flush", 20000),  # 40 to 1 on 5
    ("4c 4d 4s", "three-of-a-kind", 15000),  # 30 to 1
    ("Qc Jd Th", "straight", 3000),  # 6 to 1
    ("Kd 9d 2d", "flush", 2000),  # 4 to 1
    ("6c 6h Ad", "pair", 500),  # 1 to 1
    ("Ac Kd 9h", "high card", -500),  # loses
]


@pytest.mark.parametrize(("hand", "category", "won"), PAIR_PLUS_ROWS)
def test_pair_plus_rows(hand: str, category: str, won: int) -> None:
    s = settle(deal({3: {"pair_plus": "5.00"}}, {3: hand}, "8c 5s 3c"))
    o = s.for_seat(3)["pair_plus"]
    assert (o.result, o.net) == ((Result.WIN if won > 0 else Result.LOSE), won)
    assert o.hand.startswith(category)


def test_pair_plus_is_paid_whatever_the_dealer_holds() -> None:
    # The player's pair loses to the dealer's trips on the Ante and Play; Pair Plus still pays.
    s = one_seat("6c 6h Ad", "9c 9d 9s", {"ante": "10.00", "pair_plus": "5.00"})
    assert line(s, 1, "ante") == (Result.LOSE, -1000)
    assert line(s, 1, "pair_plus") == (Result.WIN, 500)


# (player's three, dealer's three, six-card hand, what a $5 Six Card Bonus wins by hand)
SIX_CARD_ROWS = [
    ("As Ks Qs", "Js Ts 2d", "royal flush", 500000),  # 1,000 to 1 on 5
    ("9h 8h 7h", "6h 5h 2c", "straight flush", 100000),  # 200 to 1
    ("8c 8d 8h", "8s 2d 5c", "four-of-a-kind", 25000),  # 50 to 1
    ("8c 8d 8h", "Ks Kd 2c", "full house", 12500),  # 25 to 1
    ("Ah 9h 4h", "2h 7h Kc", "flush", 7500),  # 15 to 1
    ("9c 8d 7h", "6s 5c Kd", "straight", 5000),  # 10 to 1
    ("8c 8d 8h", "Ks 2d 5c", "three-of-a-kind", 2500),  # 5 to 1
    ("8c 8d Kh", "Ks 2d 5c", "two pair", -500),  # loses
    ("8c 4d Kh", "Js 2d 5c", "high card", -500),  # loses
]


@pytest.mark.parametrize(("hand", "dealer", "category", "won"), SIX_CARD_ROWS)
def test_six_card_bonus_rows(hand: str, dealer: str, category: str, won: int) -> None:
    s = one_seat(hand, dealer, {"ante": "10.00", "six_card_bonus": "5.00"}, r=rules(WITH_SIX))
    o = s.for_seat(1)["six_card_bonus"]
    assert (o.result, o.net) == ((Result.WIN if won > 0 else Result.LOSE), won)
    assert o.hand.startswith(category)


def test_super_royal_pays_only_with_paytable_e() -> None:
    # § 649a.6(d)(8): ace, king, queen, jack, 10 and 9 of one suit. Paytable E (this file's
    # example: 2,000 to 1) pays $10,000 on $5; paytable A pays the royal flush, $5,000.
    bets = {"ante": "10.00", "six_card_bonus": "5.00"}
    e = one_seat("As Ks Qs", "Js Ts 9s", bets, r=rules(WITH_E))
    o = e.for_seat(1)["six_card_bonus"]
    assert (o.result, o.net, o.hand) == (Result.WIN, 1_000_000, "Super Royal, ace-king-queen-jack-ten-nine")
    assert "§ 649a.6(d)(8)" in o.section
    a = one_seat("As Ks Qs", "Js Ts 9s", bets, r=rules(WITH_SIX))
    assert line(a, 1, "six_card_bonus") == (Result.WIN, 500000)
    # Under E, a royal flush with the 9 of another suit is still the royal flush row.
    e2 = one_seat("As Ks Qs", "Js Ts 9d", bets, r=rules(WITH_E))
    assert line(e2, 1, "six_card_bonus") == (Result.WIN, 500000)


# --- the mini-royal flush (§ 649a.6(e), § 649a.12(g)) ----------------------------------------

MINI_BOTH = {**BASE, "mini_royal": {"offered": True, "ante_bonus": "6 to 1", "pair_plus": "50 to 1"}}


def test_mini_royal_in_both_paytables() -> None:
    # Ace-king-queen of hearts: Ante Bonus 6 to 1 on $10 = $60; Pair Plus 50 to 1 on $5 = $250.
    s = one_seat("Ah Kh Qh", "2d 4s 6c", {"ante": "10.00", "pair_plus": "5.00"}, r=rules(MINI_BOTH))
    assert line(s, 1, "ante_bonus") == (Result.WIN, 6000)
    assert line(s, 1, "pair_plus") == (Result.WIN, 25000)
    assert s.for_seat(1)["ante_bonus"].hand == "mini-royal flush"
    assert "§ 649a.12(g)(1)" in s.for_seat(1)["ante_bonus"].section
    assert "§ 649a.12(g)(2)" in s.for_seat(1)["pair_plus"].section


def test_mini_royal_in_one_paytable_only() -> None:
    # Only Pair Plus includes it: the Ante Bonus pays the straight flush row, 5 to 1 = $50.
    r = rules({**BASE, "mini_royal": {"offered": True, "pair_plus": "40 to 1"}})
    s = one_seat("Ah Kh Qh", "2d 4s 6c", {"ante": "10.00", "pair_plus": "5.00"}, r=r)
    assert line(s, 1, "ante_bonus") == (Result.WIN, 5000)
    assert line(s, 1, "pair_plus") == (Result.WIN, 20000)  # 40 to 1 on 5


def test_without_the_mini_royal_ace_king_queen_suited_is_a_straight_flush() -> None:
    s = one_seat("Ah Kh Qh", "2d 4s 6c", {"ante": "10.00", "pair_plus": "5.00"})
    assert line(s, 1, "ante_bonus") == (Result.WIN, 5000)
    assert line(s, 1, "pair_plus") == (Result.WIN, 20000)


def test_unsuited_ace_king_queen_is_no_mini_royal() -> None:
    s = one_seat("Ah Kd Qh", "2d 4s 6c", {"ante": "10.00", "pair_plus": "5.00"}, r=rules(MINI_BOTH))
    assert line(s, 1, "ante_bonus") == (Result.WIN, 1000)  # straight, 1 to 1
    assert line(s, 1, "pair_plus") == (Result.WIN, 3000)  # straight, 6 to 1


def test_mini_royal_outranks_the_dealers_straight_flush() -> None:
    s = one_seat("Ah Kh Qh", "Ks Qs Js", {"ante": "10.00"}, r=rules(MINI_BOTH))
    assert line(s, 1, "ante") == (Result.WIN, 1000)
    assert line(s, 1, "play") == (Result.WIN, 1000)


# --- payout limit ---------------------------------------------------------------------------


def test_payout_limit_holds_a_payout_and_flags_it() -> None:
    # A straight flush at 40 to 1 on $25 would win $1,000; the limit is $500.
    r = rules(BASE, payout_limit="500.00")
    s = settle(deal({1: {"pair_plus": "25.00"}}, {1: "Qs Js Ts"}, "8c 5s 3c"), r)
    o = s.for_seat(1)["pair_plus"]
    assert (o.result, o.net, o.flags) == (Result.WIN, 50000, (PAYOUT_LIMITED,))
    s = settle(deal({1: {"pair_plus": "10.00"}}, {1: "Qs Js Ts"}, "8c 5s 3c"), r)
    assert s.for_seat(1)["pair_plus"].net == 40000 and s.for_seat(1)["pair_plus"].flags == ()


# --- settlement order (§ 649a.11(c)) -------------------------------------------------------


def test_settlement_runs_from_the_dealers_right_and_in_order_within_a_seat() -> None:
    seats = {
        1: {"ante": "5.00", "pair_plus": "5.00", "six_card_bonus": "5.00"},
        4: {"pair_plus": "5.00"},
        7: {"ante": "5.00"},
    }
    hands = {1: "9c 8d 7h", 4: "2c 2d 5h", 7: "Ac Kd 2h"}
    s = settle(deal(seats, hands, "Qd 4s 3c", [(1, "play"), (7, "play")]), rules(WITH_SIX))
    assert [(o.seat, o.wager) for o in s.outcomes] == [
        (7, "ante"),
        (7, "play"),
        (4, "pair_plus"),
        (1, "ante"),
        (1, "play"),
        (1, "ante_bonus"),
        (1, "pair_plus"),
        (1, "six_card_bonus"),
    ]


# --- irregularities (§ 649a.13, as § 639a.13) ------------------------------------------------

TWO_SEATS = [
    wager(2, "ante", "10.00"),
    wager(2, "pair_plus", "5.00"),
    wager(5, "ante", "20.00"),
    NO_MORE_BETS,
]


def assert_void(s: Settlement, reason: str, section: str) -> None:
    assert reason in s.void
    assert all(o.result is Result.VOID and o.net == 0 for o in s.outcomes)
    assert all(o.section == section for o in s.outcomes)


def test_wrong_card_count_voids_the_round_and_returns_every_wager() -> None:
    events = [
        *TWO_SEATS,
        cards(2, "As 7h 3d"),
        cards(5, "Kc 9c 2s"),
        decide(2, "play"),
        irregularity("wrong_card_count", detail="the dealer holds four cards"),
    ]
    s = settle(events)
    assert_void(s, "incorrect number of cards", "§ 649a.13(c) (as § 639a.13(c))")
    # The Play Wager already placed is returned too.
    assert [(o.seat, o.wager, o.stake) for o in s.outcomes] == [
        (5, "ante", 2000),
        (2, "ante", 1000),
        (2, "pair_plus", 500),
        (2, "play", 1000),
    ]


def test_shoe_jam_voids_the_round() -> None:
    s = settle([*TWO_SEATS, cards(2, "As 7h 3d"), irregularity("shoe_jam")])
    assert_void(s, "automated dealing shoe jammed", "§ 649a.13(f) (as § 639a.13(f))")
    assert len(s.outcomes) == 3


def test_one_card_face_up_is_discarded_and_the_round_goes_on() -> None:
    events = [
        *TWO_SEATS,
        cards(2, "As 7h 3d"),
        irregularity("card_face_up", detail="4c"),
        cards(5, "Kc 9c 2s"),
    ]
    events += [cards("dealer", "Qd 8s 2c"), decide(2, "play"), decide(5, "play")]
    s = settle(events)
    assert not s.void
    assert line(s, 2, "ante") == (Result.WIN, 1000)  # ace-high beats queen-high


def test_a_second_card_face_up_voids_the_round() -> None:
    events = [*TWO_SEATS, irregularity("card_face_up"), cards(2, "As 7h 3d"), irregularity("card_face_up")]
    assert_void(settle(events), "more than one card found face up", "§ 649a.13(a) (as § 639a.13(a))")


def test_card_drawn_in_error_is_used_as_the_next_card() -> None:
    events = [*TWO_SEATS, irregularity("card_drawn_in_error"), cards(2, "As 7h 3d"), cards(5, "Kc 9c 2s")]
    events += [cards("dealer", "Qd 8s 2c"), decide(2, "fold"), decide(5, "play")]
    s = settle(events)
    assert line(s, 5, "ante") == (Result.WIN, 2000)  # king-high beats queen-high


def test_dealer_card_exposed_before_every_decision_voids_the_round() -> None:
    events = [*TWO_SEATS, cards(2, "As 7h 3d"), cards(5, "Kc 9c 2s"), cards("dealer", "Qd 8s 2c")]
    events += [decide(2, "play"), irregularity("hole_card_exposed")]
    assert_void(settle(events), "before every player had played or folded", "§ 649a.13(d) (as § 639a.13(d))")


def test_stub_count_incorrect_voids_the_round() -> None:
    events = [*TWO_SEATS, cards(2, "As 7h 3d"), irregularity("stub_count_incorrect")]
    assert_void(settle(events), "deck is removed from the table", "§ 649a.8-649a.10 (as § 639a.8(h))")


def test_shuffler_jam_before_the_deal_changes_nothing() -> None:
    events = [*TWO_SEATS, irregularity("shuffler_jam"), cards(2, "As 7h 3d"), cards(5, "Kc 9c 2s")]
    events += [cards("dealer", "Qd 8s 2c"), decide(2, "play"), decide(5, "fold")]
    s = settle(events)
    assert line(s, 5, "ante") == (Result.LOSE, -2000)


# --- illegal events: refused, state unchanged ----------------------------------------------

DEALT = [*TWO_SEATS, cards(2, "As 7h 3d"), cards(5, "Kc 9c 2s")]

ILLEGAL: list[tuple[str, list[Event], Event, str]] = [
    ("wager after no more bets", TWO_SEATS, wager(3, "ante", "5.00"), 'after "no more bets"'),
    ("seat beyond the table", [], wager(8, "ante", "5.00"), "seats 1 to 7"),
    ("play as a wager", [], wager(1, "play", "5.00"), "Play Wager is made after the cards"),
    ("unknown wager", [], wager(1, "bonus", "5.00"), "no 'bonus' wager"),
    ("six card bonus not offered", [], wager(1, "six_card_bonus", "5.00"), "not offered"),
    ("zero wager", [], wager(1, "ante", "0.00"), "is no wager"),
    ("no more bets twice", TWO_SEATS, NO_MORE_BETS, "already announced"),
    ("cards before no more bets", [wager(1, "ante", "5.00")], cards(1, "As 7h 3d"), 'after "no more bets"'),
    ("cards to the board", TWO_SEATS, cards("board", "As 7h 3d"), "no board"),
    ("cards to an empty seat", TWO_SEATS, cards(3, "As 7h 3d"), "seat 3 placed no wager"),
    ("cards twice", [*TWO_SEATS, cards(2, "As 7h 3d")], cards(2, "Kc 9c 2s"), "already has cards"),
    ("two cards", TWO_SEATS, cards(2, "As 7h"), "wrong_card_count"),
    ("four cards", TWO_SEATS, cards("dealer", "As 7h 3d 4d"), "each player and the dealer get three"),
    ("a card twice", [*TWO_SEATS, cards(2, "As 7h 3d")], cards("dealer", "Kc 7h 2s"), "7h is already"),
    ("split hand", TWO_SEATS, Event("cards", to="2", cards=parse_cards("As 7h 3d"), hand=1), "one hand"),
    ("decision before the deal", [*TWO_SEATS, cards(2, "As 7h 3d")], decide(2, "play"), "after every player"),
    (
        "decision without an ante",
        [wager(1, "pair_plus", "5.00"), NO_MORE_BETS, cards(1, "2c 3c 4c")],
        decide(1, "play"),
        "no Ante Wager",
    ),
    ("decision out of turn", DEALT, decide(5, "play"), "seat 2 decides next"),
    ("unknown action", DEALT, decide(2, "raise"), "play or fold"),
    ("play of another amount", DEALT, decide(2, "play", "20.00"), "must equal the Ante Wager of 10.00"),
    ("fold with an amount", DEALT, decide(2, "fold", "10.00"), "no amount"),
    ("decision twice", [*DEALT, decide(2, "play")], decide(2, "fold"), "already decided"),
    ("meter", [], Event("meter", name="progressive", amount=100), "no progressive meter"),
    ("hole-card reader", [], Event("hole_card_reader", result="blackjack"), "no hole_card_reader"),
    ("unknown irregularity", TWO_SEATS, irregularity("spilled_drink"), "unknown irregularity"),
    ("shoe jam before no more bets", [], irregularity("shoe_jam"), 'before "no more bets"'),
    ("shuffler jam after the deal", DEALT, irregularity("shuffler_jam"), "reported before the deal"),
    (
        "hole card exposed after every decision",
        [*DEALT, decide(2, "play"), decide(5, "fold")],
        irregularity("hole_card_exposed"),
        "voids nothing",
    ),
    (
        "card face up after the deal",
        [*DEALT, cards("dealer", "Qd 8s 2c")],
        irregularity("card_face_up"),
        "during the deal",
    ),
    (
        "anything after a void",
        [*TWO_SEATS, irregularity("shoe_jam")],
        cards(2, "As 7h 3d"),
        "the round is void",
    ),
]


@pytest.mark.parametrize(("name", "before", "bad", "message"), ILLEGAL, ids=[c[0] for c in ILLEGAL])
def test_illegal_events_are_refused_and_change_nothing(
    name: str, before: list[Event], bad: Event, message: str
) -> None:
    r = rules()
    rnd = Round.begin(GAME, r)
    for e in before:
        rnd.apply(e)
    state, events = rnd.state, list(rnd.events)
    with pytest.raises(IllegalEvent) as err:
        rnd.apply(bad)
    assert message in str(err.value), str(err.value)
    assert rnd.state is state and rnd.events == events


def test_six_card_bonus_alone_is_refused_at_no_more_bets() -> None:
    rnd = Round.begin(GAME, rules(WITH_SIX))
    rnd.apply(wager(3, "six_card_bonus", "5.00"))
    state = rnd.state
    with pytest.raises(IllegalEvent, match="needs an Ante or a Pair Plus Wager"):
        rnd.apply(NO_MORE_BETS)
    assert rnd.state is state


def test_a_repeated_wager_event_reports_the_wager_as_it_stands() -> None:
    events = [wager(1, "pair_plus", "5.00"), wager(1, "pair_plus", "10.00"), NO_MORE_BETS]
    s = settle([*events, cards(1, "2c 2d 9h"), cards("dealer", "Qd 8s 3c")])
    o = s.for_seat(1)["pair_plus"]
    assert (o.stake, o.net) == (1000, 1000)


@pytest.mark.parametrize(
    ("events", "waiting"),
    [
        ([], '"no more bets"'),
        (TWO_SEATS, "the cards of seats 2, 5"),
        (DEALT, "seat 2 to play or fold"),
        ([*DEALT, decide(2, "play"), decide(5, "play")], "the dealer's cards"),
    ],
)
def test_settle_says_what_the_round_waits_for(events: list[Event], waiting: str) -> None:
    rnd = Round.begin(GAME, rules())
    for e in events:
        rnd.apply(e)
    with pytest.raises(IllegalEvent, match="waits for") as err:
        rnd.settle()
    assert waiting in str(err.value)


def test_a_refused_event_names_its_position_in_play() -> None:
    with pytest.raises(IllegalEvent, match=r"event 2 \(no_more_bets\)"):
        settle([NO_MORE_BETS, NO_MORE_BETS])


# --- the Rules Submission -------------------------------------------------------------------


def problems(mapping: Mapping[str, Any]) -> tuple[str, ...]:
    with pytest.raises(RulesError) as err:
        load_rules(ThreeCardPokerRules, mapping, "t", GAME.rules_checks)
    return err.value.problems


def test_defaults_and_the_written_paytables() -> None:
    r = rules()
    assert (r.seats, r.decks, r.six_card_bonus_offered, r.mini_royal_offered) == (7, 1, False, False)
    assert r.ante_bonus_odds["straight flush"] == Odds(5, 1, "to")
    assert r.pair_plus_odds["pair"] == Odds(1, 1, "to")
    assert r.six_card_bonus_odds is None and r.payout_limit is None
    assert GAME.decks(rules(BASE, decks=2)) == 1  # two decks alternate; a round uses one
    assert rules_to_mapping(r)["ante_bonus.odds"] == ANTE_BONUS


def test_the_paytables_must_be_given() -> None:
    lines = problems({})
    assert any(p.startswith("ante_bonus.odds: missing") and "§ 649a.12(b)" in p for p in lines)
    assert any(p.startswith("pair_plus.odds: missing") and "§ 649a.12(d)" in p for p in lines)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        (
            "ante_bonus",
            "4 to 1",
            "mini_royal.ante_bonus '4 to 1': is below the 5 to 1 minimum of § 649a.12(g)(1)",
        ),
        ("ante_bonus", "5 for 1", "is below the 5 to 1 minimum of § 649a.12(g)(1)"),  # 5 for 1 wins 4
        (
            "pair_plus",
            "39 to 1",
            "mini_royal.pair_plus '39 to 1': is below the 40 to 1 minimum of § 649a.12(g)(2)",
        ),
        ("pair_plus", "5 to 1", "is below the 40 to 1 minimum of § 649a.12(g)(2)"),
    ],
)
def test_mini_royal_minimums(key: str, value: str, message: str) -> None:
    lines = problems({**BASE, "mini_royal": {"offered": True, key: value}})
    assert any(message in p for p in lines), lines


@pytest.mark.parametrize(("ab", "pp"), [("5 to 1", "40 to 1"), ("6 for 1", "41 for 1"), ("10 to 1", "none")])
def test_mini_royal_at_the_minimums_is_accepted(ab: str, pp: str) -> None:
    r = rules({**BASE, "mini_royal": {"offered": True, "ante_bonus": ab, "pair_plus": pp}})
    assert r.mini_royal_ante_bonus is not None


def test_mini_royal_offered_needs_odds_and_odds_need_offered() -> None:
    assert problems({**BASE, "mini_royal": {"offered": True}}) == (
        "mini_royal.offered is true, but neither mini_royal.ante_bonus nor mini_royal.pair_plus gives the "
        "odds of a mini-royal flush (§ 649a.12(g))",
    )
    assert problems({**BASE, "mini_royal": {"pair_plus": "40 to 1"}}) == (
        "mini_royal.pair_plus 40 to 1: given, but mini_royal.offered is false (§ 649a.12(g))",
    )


def test_six_card_bonus_paytable_rules() -> None:
    offered = {**BASE, "six_card_bonus": {"offered": True}}
    assert problems(offered)[0].startswith("six_card_bonus.odds: missing; six_card_bonus.offered is true")
    given = {**BASE, "six_card_bonus": {"odds": SIX_CARD}}
    assert problems(given) == (
        "six_card_bonus.odds: given, but six_card_bonus.offered is false (§ 649a.7(d)(5))",
    )
    e_without = {**BASE, "six_card_bonus": {"offered": True, "paytable": "E", "odds": SIX_CARD}}
    assert 'six_card_bonus.odds "Super Royal" = none: paytable E pays a Super Royal' in problems(e_without)[0]
    a_with = {
        **BASE,
        "six_card_bonus": {
            "offered": True,
            "paytable": "B",
            "odds": {"Super Royal": "2,000 to 1", **SIX_CARD},
        },
    }
    assert (
        "only paytable E pays a Super Royal (§ 649a.6(d)(8)), and six_card_bonus.paytable is B"
        in problems(a_with)[0]
    )
    assert (
        "must be one of 'A', 'B', 'C', 'D', 'E'" in problems({**BASE, "six_card_bonus": {"paytable": "F"}})[0]
    )


def test_paytables_pay_odds_not_a_share_of_a_meter() -> None:
    lines = problems({**BASE, "pair_plus": {"odds": {**PAIR_PLUS, "straight flush": "10% of meter"}}})
    assert lines == (
        'pair_plus.odds "straight flush" = 10% of meter: this paytable pays odds such as "5 to 1" '
        "(§ 649a.12(d))",
    )


def test_every_problem_at_once_with_did_you_mean() -> None:
    lines = problems(
        {
            "seats": 8,
            "ante_bonus": {
                "odds": {"straight flush": "5 to 1", "three of a kind": "4 to 1", "straight": "1 to 1"}
            },
            "six_card_bonus": {"offerd": True},
            "mini_royal": {"offered": True, "ante_bonus": "4 to 1", "pair_plus": "30 to 1"},
            "payout_limit": 500.0,
        }
    )
    text = "\n".join(lines)
    assert "seats 8: is above the maximum of 7" in text
    assert "has no hand 'three of a kind'; did you mean 'three-of-a-kind'?" in text
    assert "six_card_bonus.offerd: unknown option; did you mean 'six_card_bonus.offered'?" in text
    assert "pair_plus.odds: missing" in text
    assert "5 to 1 minimum of § 649a.12(g)(1)" in text and "40 to 1 minimum of § 649a.12(g)(2)" in text
    assert "payout_limit 500.0: write money as a string" in text
    assert len(lines) == 7


# --- the examples ---------------------------------------------------------------------------

RECORDS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".settlement.json"))


def test_there_are_the_three_kinds_of_example() -> None:
    assert {p.stem for p in RECORDS} >= {"normal-round", "six-card-bonus-hit", "shoe-jam-void"}


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_example_replays_to_its_documented_settlement(path: Path) -> None:
    record = load_record(json.loads(path.read_text()), GAMES, str(path))
    expected = json.loads(path.with_name(path.stem + ".settlement.json").read_text())
    assert replay(record).to_json() == expected
    assert json.dumps(replay(record).to_json()) == json.dumps(replay(record).to_json())


def test_example_submission_is_valid() -> None:
    sub = parse_submission((EXAMPLES / "rules-submission.toml").read_text(), GAMES, "rules-submission.toml")
    assert sub.table == "TCP-1" and sub.game is GAME
    assert isinstance(sub.rules, ThreeCardPokerRules) and sub.rules.six_card_bonus_offered


# --- properties ------------------------------------------------------------------------------

DECK = standard_deck()


@st.composite
def rounds(draw: st.DrawFn) -> tuple[ThreeCardPokerRules, list[Event]]:
    limit = draw(st.sampled_from([None, "100.00", "1000.00"]))
    r = rules(WITH_E if draw(st.booleans()) else WITH_SIX, payout_limit=limit)
    seats = draw(st.lists(st.integers(1, 7), min_size=1, max_size=7, unique=True))
    deck = draw(st.permutations(DECK))
    amounts = st.sampled_from(["1.00", "5.00", "10.00", "25.00"])
    placed: dict[int, dict[str, str]] = {}
    for s in seats:
        bets = draw(st.sets(st.sampled_from(["ante", "pair_plus", "six_card_bonus"]), min_size=1))
        if bets == {"six_card_bonus"}:
            bets.add("ante")
        placed[s] = {b: draw(amounts) for b in sorted(bets)}
    hands = {s: format_cards(deck[3 * i : 3 * i + 3]) for i, s in enumerate(sorted(placed))}
    dealer = format_cards(deck[21:24])
    actions = [(s, draw(st.sampled_from(["play", "fold"]))) for s in sorted(placed) if "ante" in placed[s]]
    return r, deal(placed, hands, dealer, actions)


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_properties_of_any_round(case: tuple[ThreeCardPokerRules, list[Event]]) -> None:
    r, events = case
    s = settle(events, r)
    # Replay is deterministic, byte for byte.
    assert json.dumps(settle(events, r).to_json()) == json.dumps(s.to_json())
    folded = {e.seat for e in events if e.type == "decision" and e.action == "fold"}
    placed = {(e.seat, e.wager): e.amount for e in events if e.type == "wager"}
    for o in s.outcomes:
        # A fold never wins (nor pushes) anything: every wager of the seat is lost.
        if o.seat in folded:
            assert o.result is Result.LOSE and o.wager != "play"
        # A lost wager costs exactly its stake; a push or a void costs nothing.
        if o.result is Result.LOSE:
            assert o.net == -o.stake
        if o.result in (Result.PUSH, Result.VOID):
            assert o.net == 0
        # No payout exceeds the limit.
        if r.payout_limit is not None:
            assert o.net <= r.payout_limit
        # Each line's stake is the wager placed (the Play and the Ante Bonus: the Ante).
        wager_name = "ante" if o.wager in ("play", "ante_bonus") else o.wager
        assert o.stake == placed[(o.seat, wager_name)]
    # Seats settle from the dealer's right.
    order = [o.seat for o in s.outcomes]
    assert order == sorted(order, reverse=True)
    # The Ante and the Play of a seat that played share their result, except when the dealer
    # does not qualify (Ante paid, Play returned).
    for seat in {o.seat for o in s.outcomes} - folded:
        lines = s.for_seat(seat)
        if "play" in lines:
            ante, play_ = lines["ante"], lines["play"]
            assert (ante.result, play_.result) in {
                (Result.WIN, Result.WIN),
                (Result.PUSH, Result.PUSH),
                (Result.LOSE, Result.LOSE),
                (Result.WIN, Result.PUSH),
            }
            if play_.result is Result.PUSH and ante.result is Result.WIN:
                assert "does not qualify" in s.dealer


@settings(max_examples=50, deadline=None)
@given(rounds(), st.integers(0, 40), st.sampled_from(IRREGULARITIES))
def test_a_refused_event_never_changes_the_state(
    case: tuple[ThreeCardPokerRules, list[Event]], cut: int, kind: str
) -> None:
    r, events = case
    rnd = Round.begin(GAME, r)
    for e in events[: min(cut, len(events))]:
        rnd.apply(e)
    state: ThreeCardPokerState = rnd.state
    for bad in (irregularity(kind), NO_MORE_BETS, decide(1, "raise"), wager(9, "ante", "1.00")):
        try:
            rnd.apply(bad)
        except IllegalEvent:
            assert rnd.state is state
        else:
            state = rnd.state


@pytest.mark.parametrize("mapping", [BASE, WITH_SIX, WITH_E, MINI_BOTH, {**BASE, "payout_limit": "500.00"}])
def test_rules_written_back_load_to_the_same_rules(mapping: Mapping[str, Any]) -> None:
    r = rules(mapping)
    assert load_rules(ThreeCardPokerRules, rules_to_mapping(r), "again", GAME.rules_checks) == r
