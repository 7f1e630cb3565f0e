"""Blackjack, 58 Pa. Code ch. 633a: the round engine, its optional wagers, the Rules Submission, examples.

Expected amounts are worked out by hand in each test from the paytables: § 633a.13(a) (3 to 2, 1 to 1),
insurance 2 to 1, § 633a.13(m)(1) (Straight Jack), § 633a.13(n) (House Money), and the test paytables
below for what the text leaves to the Rules Submission (Three Card Poker, Hit and Run, Bad Beat).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from controller.rules.core.cards import TEN, parse_cards, shoe
from controller.rules.core.engine import IllegalEvent, Round, play
from controller.rules.core.events import Event
from controller.rules.core.options import RulesError, load_rules, rules_to_mapping
from controller.rules.core.record import load_record, replay
from controller.rules.core.settlement import (
    FLOORPERSON_VERIFY,
    NOT_FROM_INVENTORY,
    PAYOUT_LIMITED,
    Outcome,
    Result,
    Settlement,
)
from controller.rules.core.submission import parse_submission
from controller.rules.games import GAMES
from controller.rules.games.blackjack.game import GAME, BlackjackRules, BlackjackState
from controller.rules.games.blackjack.state import (
    CHECK,
    COMPLETE,
    DEALER_BLACKJACK,
    DECIDE,
    PLAY,
    PLAY_ACTIONS,
)
from controller.rules.rankings.blackjack import is_blackjack

from .known_answers import REGULATIONS
from .rounds import NO_MORE_BETS, cards, decide, irregularity, meter, money, wager

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "blackjack"
TEXT_FILE = "43-PaB-834_blackjack-poker-three-card-asia-poker-three-dice-football.txt"

# --- test paytables (the text leaves these to the Rules Submission) ---------------------------------

TCP_TABLE = {
    "straight_flush": "40 to 1",
    "three_of_a_kind": "30 to 1",
    "straight": "10 to 1",
    "flush": "5 to 1",
}
HR_TABLE = {
    "dealer_blackjack": "3 to 1",
    "five_cards": "10 to 1",
    "six_cards": "50 to 1",
    "seven_cards": "10% of meter",
    "eight_or_more_cards": "100% of meter",
}
BB_TABLE = {
    "dealer_blackjack": "2 to 1",
    "dealer_21_three_cards": "5 to 1",
    "dealer_21_four_cards": "10 to 1",
    "dealer_21_five_cards": "50 to 1",
    "dealer_21_six_cards": "10% of meter",
    "dealer_21_seven_or_more_cards": "100% of meter",
}
ALL: dict[str, Any] = {
    "decks": 6,
    "surrender": {"offered": True},
    "three_card_poker": {"offered": True, "paytable": TCP_TABLE},
    "straight_jack": {
        "offered": True,
        "initial": "5000.00",
        "reset": "5000.00",
        "rate_of_progression": "15%",
    },
    "house_money": {"offered": True},
    "hit_and_run": {
        "offered": True,
        "paytable": HR_TABLE,
        "initial": "1000.00",
        "reset": "1000.00",
        "rate_of_progression": "10%",
    },
    "bad_beat": {
        "offered": True,
        "paytable": BB_TABLE,
        "initial": "2500.00",
        "reset": "2500.00",
        "rate_of_progression": "12%",
    },
}


def merged(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        out[k] = merged(out[k], v) if isinstance(v, Mapping) and isinstance(out.get(k), Mapping) else v
    return out


def rules(over: Mapping[str, Any] | None = None, base: Mapping[str, Any] = ALL) -> BlackjackRules:
    return load_rules(BlackjackRules, merged(base, over or {}), "test rules", GAME.rules_checks)


# --- events --------------------------------------------------------------------------------------------


def READER(blackjack: bool) -> Event:
    return Event("hole_card_reader", result="blackjack" if blackjack else "no_blackjack")


SHOE_DECKS = 8
"""The cards of these rounds come from a shoe of up to eight decks (a card may repeat)."""


class Table:
    """A round being dealt: apply events, check refusals, settle."""

    def __init__(self, r: BlackjackRules | None = None, meters: Mapping[str, str] | None = None) -> None:
        self.round = Round.begin(GAME, r or rules(), {k: money(v) for k, v in (meters or {}).items()})

    @property
    def state(self) -> BlackjackState:
        state = self.round.state
        assert isinstance(state, BlackjackState)
        return state

    def __call__(self, *events: Event) -> Table:
        for e in events:
            self.round.apply(e)
        return self

    def refuses(self, event: Event, match: str) -> None:
        """The event is refused with a message matching ``match``; the state is exactly as before."""
        before, shown, count = self.round.state, repr(self.round.state), len(self.round.events)
        with pytest.raises(IllegalEvent, match=match):
            self.round.apply(event)
        assert self.round.state is before and repr(self.round.state) == shown
        assert len(self.round.events) == count

    def deal(self, hands: Mapping[int, str], up: str) -> Table:
        """Each seat's two cards and the dealer's up card (the wagers must be placed and locked)."""
        for seat, text in hands.items():
            self(cards(seat, text, decks=SHOE_DECKS))
        return self(cards("dealer", up, decks=SHOE_DECKS))

    def stand_all(self) -> Table:
        while self.state.phase == PLAY:
            turn = self.state.turn
            assert turn is not None
            self(decide(turn[0], "stand", hand=turn[1]))
        return self

    def dealer(self, text: str) -> Table:
        for c in text.split():
            self(cards("dealer", c, decks=SHOE_DECKS))
        assert self.state.phase == COMPLETE, self.state.phase
        return self

    def settle(self) -> Settlement:
        return GAME.settle(self.round.state)


def simple_round(
    seats: Mapping[int, tuple[str, Mapping[str, str]]],
    up: str,
    dealer_rest: str,
    r: BlackjackRules | None = None,
    meters: Mapping[str, str] | None = None,
) -> Settlement:
    """Wagers, the deal, the reader if the up card asks for it, every player stands, the dealer completes."""
    t = Table(r, meters)
    for seat, (_, wagers) in sorted(seats.items()):
        for name, amount in wagers.items():
            t(wager(seat, name, amount))
    t(NO_MORE_BETS).deal({s: h for s, (h, _) in sorted(seats.items())}, up)
    hole = dealer_rest.split()[0]
    if t.state.phase == CHECK:
        t(READER(is_blackjack(parse_cards(f"{up} {hole}", decks=8))))
    return t.stand_all().dealer(dealer_rest).settle()


def outcome(s: Settlement, seat: int, wager: str) -> Outcome:
    return s.for_seat(seat)[wager]


def check(o: Outcome, result: Result, net: str) -> None:
    assert o.result is result, o
    assert o.net == (money(net.lstrip("+-")) * (-1 if net.startswith("-") else 1)), o


# --- the Rules Submission -------------------------------------------------------------------------------


def test_defaults_are_the_standard_game() -> None:
    r = load_rules(BlackjackRules, {}, "defaults", GAME.rules_checks)
    assert (r.seats, r.decks, r.hits_soft_17, r.blackjack_payout) == (7, 6, False, "3 to 2")
    assert not (r.surrender_offered or r.straight_jack_offered or r.house_money_offered)
    assert r.insurance_offered and r.even_money_offered
    assert GAME.name in GAMES and GAMES["blackjack"] is GAME


def problems(mapping: Mapping[str, Any], base: Mapping[str, Any] | None = None) -> tuple[str, ...]:
    with pytest.raises(RulesError) as err:
        rules(mapping, base if base is not None else {})
    return err.value.problems


def test_straight_jack_reset_and_initial_at_least_5000() -> None:
    found = problems({"straight_jack": {**ALL["straight_jack"], "initial": "4999.99", "reset": "1000.00"}})
    assert found == (
        "straight_jack.initial 4999.99: is below the $5,000 minimum (§ 633a.13(m)(2))",
        "straight_jack.reset 1000.00: is below the $5,000 minimum (§ 633a.13(m)(2))",
    )
    assert rules({"straight_jack": {"reset": "5000.00", "initial": "5000.00"}}).straight_jack_reset == 500_000


def test_royal_match_kings_bounty_maximum_at_least_25000() -> None:
    found = problems({"royal_match_kings_bounty": {"maximum_payout": "24999.99"}})
    assert found == (
        "royal_match_kings_bounty.maximum_payout 24999.99: is below the $25,000 minimum (§ 633a.13(o))",
    )
    ok = rules({"royal_match_kings_bounty": {"maximum_payout": "25000.00"}})
    assert ok.aggregate_maximum == 2_500_000


def test_offered_wagers_need_their_paytables_and_meters() -> None:
    found = problems(
        {w: {"offered": True} for w in ("three_card_poker", "straight_jack", "hit_and_run", "bad_beat")}
    )
    assert len(found) == 12  # 3 paytables; initial, reset and rate for 3 progressives: all at once
    assert any(p.startswith("three_card_poker.paytable: missing") and "§ 633a.13(k)" in p for p in found)
    assert any(p.startswith("hit_and_run.paytable: missing") and "§ 633a.13(l)" in p for p in found)
    assert any(
        p.startswith("straight_jack.rate_of_progression: missing") and "§ 633a.13(m)(2)" in p for p in found
    )
    assert any(p.startswith("bad_beat.reset: missing") for p in found)


def test_unknown_option_and_unknown_paytable_row_say_did_you_mean() -> None:
    found = problems({"dealer": {"hit_soft_17": True}})
    assert found == ("dealer.hit_soft_17: unknown option; did you mean 'dealer.hits_soft_17'?",)
    table = dict(HR_TABLE)
    table["five_card"] = table.pop("five_cards")
    found = problems({"hit_and_run": {"paytable": table}}, ALL)
    assert len(found) == 1 and "did you mean 'five_cards'?" in found[0] and "§ 633a.13(l)" in found[0]


def test_three_card_poker_pays_no_share_of_a_meter() -> None:
    found = problems({"three_card_poker": {"paytable": {**TCP_TABLE, "straight_flush": "10% of meter"}}}, ALL)
    assert len(found) == 1 and "not a progressive wager" in found[0]


def test_every_error_at_once() -> None:
    found = problems(
        {
            "decks": 9,
            "blackjack": {"payout": "6 to 5"},
            "double_down": {"on": "any"},
            "surrender": {"offered": "yes"},
            "straight_jack": {"reset": "100.00"},
            "house_money": {"portion": 0},
            "bogus": 1,
        }
    )
    keys = [p.split(" ")[0].rstrip(":") for p in found]
    assert keys == [
        "bogus",
        "decks",
        "blackjack.payout",
        "double_down.on",
        "surrender.offered",
        "straight_jack.reset",
        "house_money.portion",
    ]


@pytest.mark.parametrize("base", [{}, ALL], ids=["defaults", "every wager offered"])
def test_rules_written_back_load_to_the_same_rules(base: Mapping[str, Any]) -> None:
    r = rules({}, base)
    assert load_rules(BlackjackRules, rules_to_mapping(r), "again", GAME.rules_checks) == r


def test_example_submission_is_valid() -> None:
    sub = parse_submission((EXAMPLES / "rules-submission.toml").read_text(), GAMES, "example")
    assert sub.game is GAME and sub.table == "BJ-12"
    assert isinstance(sub.rules, BlackjackRules) and sub.rules.straight_jack_reset == 500_000


# --- the main wager ---------------------------------------------------------------------------------------


def test_blackjack_pays_3_to_2_rounded_down_and_wins_lose_push() -> None:
    s = simple_round(
        {
            1: ("As Kd", {"blackjack": "5.25"}),  # 3 to 2: 7.875 -> 7.87
            2: ("Ts 9d", {"blackjack": "10.00"}),  # 19 vs 18: 1 to 1
            3: ("Tc 8d", {"blackjack": "10.00"}),  # 18 vs 18: push
            4: ("Th 7d", {"blackjack": "10.00"}),  # 17 vs 18: lose
        },
        "9h",
        "9c",
    )
    check(outcome(s, 1, "blackjack"), Result.WIN, "+7.87")
    check(outcome(s, 2, "blackjack"), Result.WIN, "+10.00")
    check(outcome(s, 3, "blackjack"), Result.PUSH, "0.00")
    check(outcome(s, 4, "blackjack"), Result.LOSE, "-10.00")
    assert [o.seat for o in s.outcomes] == [4, 3, 2, 1]  # from the dealer's right
    assert s.dealer == "9h 9c: hard 18"


def test_a_bust_player_loses_even_when_the_dealer_busts() -> None:
    t = Table()(wager(1, "blackjack", "10.00"), wager(2, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "Tc 6d", 2: "Ts 7s"}, "6h"
    )
    t(decide(1, "hit"), cards(1, "9c", decks=SHOE_DECKS))  # 25: bust, no more decisions
    assert t.state.turn == (2, 0)
    t(decide(2, "stand")).dealer("Td 8c")  # 24
    s = t.settle()
    check(outcome(s, 1, "blackjack"), Result.LOSE, "-10.00")
    check(outcome(s, 2, "blackjack"), Result.WIN, "+10.00")


@pytest.mark.parametrize(
    ("soft17", "dealer", "result"), [(False, "Ah", Result.PUSH), (True, "Ah 3d", Result.LOSE)]
)
def test_dealer_soft_17_both_ways(soft17: bool, dealer: str, result: Result) -> None:
    t = Table(rules({"dealer": {"hits_soft_17": soft17}}))(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "Tc 7d"}, "6c"
    )
    t(decide(1, "stand"))
    if soft17:
        t(cards("dealer", "Ah", decks=SHOE_DECKS))
        assert t.state.phase != COMPLETE  # 6-A is a soft 17: the dealer draws
        t.dealer("3d")  # 20
    else:
        t.dealer("Ah")  # 6-A soft 17: the dealer stands
        t.refuses(cards("dealer", "3d", decks=SHOE_DECKS), "stands with soft 17")
    check(outcome(t.settle(), 1, "blackjack"), result, "0.00" if result is Result.PUSH else "-10.00")


def test_dealer_draws_to_16_and_stands_on_hard_17() -> None:
    t = Table()(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal({1: "Tc 9d"}, "5c")
    t(decide(1, "stand"), cards("dealer", "Tc", decks=SHOE_DECKS))
    assert t.state.phase != COMPLETE  # 15: draws
    t(cards("dealer", "2d", decks=SHOE_DECKS))
    t.refuses(cards("dealer", "4s", decks=SHOE_DECKS), "stands with hard 17")


def test_the_dealer_draws_nothing_when_no_hand_remains() -> None:
    t = Table()(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal({1: "Tc 6d"}, "5h")
    t(decide(1, "hit"), cards(1, "Kc", decks=SHOE_DECKS))  # bust
    t(cards("dealer", "Th", decks=SHOE_DECKS))  # 15, but nothing is in play: the hand is complete
    assert t.state.phase == COMPLETE
    check(outcome(t.settle(), 1, "blackjack"), Result.LOSE, "-10.00")


def test_doubling_any_two_for_less_and_the_one_card() -> None:
    t = Table()(wager(1, "blackjack", "20.00"), wager(2, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "5c 6d", 2: "9c 8d"}, "6h"
    )
    t.refuses(decide(1, "double_down", amount="20.01"), "may not exceed")
    t(
        decide(1, "double_down", amount="10.00"), cards(1, "2s", decks=SHOE_DECKS)
    )  # 13, one card only: the hand is done
    assert t.state.turn == (2, 0)
    t(decide(2, "double_down"), cards(2, "3s", decks=SHOE_DECKS))  # 20 on a hard 17: any two cards
    s = t.dealer("Tc 3c").settle()  # 19
    check(outcome(s, 1, "blackjack"), Result.LOSE, "-20.00")
    check(outcome(s, 1, "double_down"), Result.LOSE, "-10.00")
    check(outcome(s, 2, "blackjack"), Result.WIN, "+10.00")
    check(outcome(s, 2, "double_down"), Result.WIN, "+10.00")


@pytest.mark.parametrize(
    ("on", "hand", "allowed"),
    [
        ("10_11", "5c 5d", True),
        ("10_11", "5c 4d", False),
        ("9_10_11", "5c 4d", True),
        ("9_10_11", "Ac 8d", False),
    ],
)
def test_double_down_totals(on: str, hand: str, allowed: bool) -> None:
    t = Table(rules({"double_down": {"on": on}}))(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: hand}, "6h"
    )
    if allowed:
        t(decide(1, "double_down"))
        assert t.state.seats[1].hands[0].double == 1000
    else:
        t.refuses(decide(1, "double_down"), "doubling down is allowed on")


def test_split_pairs_each_hand_settled_and_resplit_to_the_maximum() -> None:
    t = Table(rules({"split": {"max_hands": 3}}))(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "8c 8d"}, "6h"
    )
    t.refuses(decide(1, "split", amount="5.00"), "matches the whole Blackjack Wager")
    t(decide(1, "split"), cards(1, "8h", decks=SHOE_DECKS))  # hand 0: 8-8 again
    t(decide(1, "split"), cards(1, "Tc", decks=SHOE_DECKS))  # hand 0: 8-10; hands 1 (8d) and 2 (8h) wait
    t(decide(1, "stand"), cards(1, "3c", 1, decks=SHOE_DECKS))
    t(
        decide(1, "double_down", hand=1), cards(1, "9s", 1, decks=SHOE_DECKS)
    )  # 8-3-9 = 20 (double after split)
    t(cards(1, "8s", 2, decks=SHOE_DECKS))
    t.refuses(decide(1, "split", hand=2), "no more than 3 hands")
    t(decide(1, "stand", hand=2)).dealer("Tc 7c")  # 23: the dealer busts
    s = t.settle()
    assert [(o.wager, o.result, o.net) for o in s.outcomes] == [
        ("blackjack", Result.WIN, 1000),
        ("blackjack.1", Result.WIN, 1000),
        ("double_down.1", Result.WIN, 1000),
        ("blackjack.2", Result.WIN, 1000),
    ]


def test_split_aces_take_one_card_and_ace_ten_is_21_not_blackjack() -> None:
    t = Table()(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal({1: "Ac Ad"}, "6h")
    t(decide(1, "split"), cards(1, "Kh", decks=SHOE_DECKS))  # A-K after a split: 21, and one card only
    assert t.state.turn == (1, 1)
    t.refuses(decide(1, "hit", hand=1), "waits for a card")
    t(
        cards(1, "Ah", 1, decks=SHOE_DECKS)
    )  # another ace: resplitting aces is not offered, so the hand is done
    assert t.state.phase != PLAY
    s = t.dealer("Tc 4d").settle()  # 20
    check(outcome(s, 1, "blackjack"), Result.WIN, "+10.00")  # 1 to 1, not 3 to 2
    check(outcome(s, 1, "blackjack.1"), Result.LOSE, "-10.00")  # A-A = soft 12


def test_resplit_aces_when_offered_and_no_hit_on_split_aces() -> None:
    t = Table(rules({"split": {"resplit_aces": True}}))(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "Ac Ad"}, "6h"
    )
    t(decide(1, "split"), cards(1, "Ah", decks=SHOE_DECKS))
    t.refuses(decide(1, "hit"), "split aces receive one card each")
    t.refuses(decide(1, "double_down"), "not on split aces")
    t(decide(1, "split"), cards(1, "9c", decks=SHOE_DECKS))
    assert len(t.state.seats[1].hands) == 3


@pytest.mark.parametrize(("unlike", "ok"), [(True, True), (False, False)])
def test_splitting_unlike_tens(unlike: bool, ok: bool) -> None:
    t = Table(rules({"split": {"unlike_tens": unlike}}))(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "Tc Kd"}, "6h"
    )
    if ok:
        t(decide(1, "split"))
    else:
        t.refuses(decide(1, "split"), "identical value")


def test_no_double_after_split_when_not_offered() -> None:
    r = rules({"double_down": {"after_split": False}})
    t = Table(r)(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal({1: "5c 5d"}, "6h")
    t(decide(1, "split"), cards(1, "6c", decks=SHOE_DECKS))
    t.refuses(decide(1, "double_down"), "after splitting is not offered")


def test_late_surrender_forfeits_half_and_only_on_the_initial_two_cards() -> None:
    t = Table()(wager(1, "blackjack", "5.25"), wager(2, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "Tc 6d", 2: "Ts 6s"}, "Th"
    )
    t.refuses(decide(1, "surrender"), "waits for the card reader")  # late surrender: after the reader
    t(READER(False), decide(1, "surrender"), decide(2, "hit"), cards(2, "2c", decks=SHOE_DECKS))
    t.refuses(decide(2, "surrender"), "only the initial two cards")
    s = t(decide(2, "stand")).dealer("7c").settle()  # 17
    o = outcome(s, 1, "blackjack")
    check(o, Result.LOSE, "-2.63")  # 2.62 returned; the odd cent stays with the house
    assert o.section == "§ 633a.9"
    check(outcome(s, 2, "blackjack"), Result.WIN, "+10.00")  # 18 vs 17


def test_surrender_not_offered_and_not_on_a_split_hand() -> None:
    t = Table(rules({"surrender": {"offered": False}}))(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "Tc 6d"}, "9h"
    )
    t.refuses(decide(1, "surrender"), "not offered")
    t2 = Table()(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal({1: "8c 8d"}, "9h")
    t2(decide(1, "split"), cards(1, "8h", decks=SHOE_DECKS))
    t2.refuses(decide(1, "surrender"), "only the initial two cards")


def test_a_hand_of_21_takes_no_more_decisions() -> None:
    t = Table()(wager(1, "blackjack", "10.00"), wager(2, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "Tc 6d", 2: "9c 9d"}, "9h"
    )
    t(decide(1, "hit"), cards(1, "5c", decks=SHOE_DECKS))
    assert t.state.turn == (2, 0)
    t.refuses(decide(1, "stand"), "out of turn")


# --- insurance, even money and the card reader, § 633a.7(h), § 633a.8 ---------------------------------------


def test_insurance_wins_2_to_1_on_a_dealer_blackjack_and_the_round_ends() -> None:
    t = Table()(
        wager(1, "blackjack", "20.00"),
        wager(2, "blackjack", "10.00"),
        wager(3, "blackjack", "10.00"),
        NO_MORE_BETS,
    )
    t.deal({1: "Tc 9d", 2: "Ac Kd", 3: "8c 8d"}, "As")
    t.refuses(decide(1, "insurance", amount="10.01"), "at most half")
    t(decide(1, "insurance", amount="10.00"), READER(True))
    assert t.state.phase == DEALER_BLACKJACK
    t.refuses(decide(3, "split"), "no split now")  # additional cards may not be dealt
    t.refuses(cards("dealer", "9c", decks=SHOE_DECKS), "no Blackjack")
    t(cards("dealer", "Kh", decks=SHOE_DECKS))
    t.refuses(cards("dealer", "2c", decks=SHOE_DECKS), "additional cards may not be dealt")
    s = t.settle()
    check(outcome(s, 1, "insurance"), Result.WIN, "+20.00")
    check(outcome(s, 1, "blackjack"), Result.LOSE, "-20.00")
    check(outcome(s, 2, "blackjack"), Result.PUSH, "0.00")  # both have a Blackjack
    check(outcome(s, 3, "blackjack"), Result.LOSE, "-10.00")


def test_insurance_loses_when_the_reader_finds_no_blackjack() -> None:
    t = Table()(wager(1, "blackjack", "20.00"), NO_MORE_BETS).deal({1: "Tc 9d"}, "Ac")
    t(decide(1, "insurance"))  # half the wager by default
    t.refuses(decide(1, "insurance"), "already taken")
    t(READER(False), decide(1, "stand"))
    t.refuses(cards("dealer", "Kc", decks=SHOE_DECKS), "is a Blackjack")  # the reader said no Blackjack
    s = t.dealer("7c").settle()  # soft 18
    check(outcome(s, 1, "insurance"), Result.LOSE, "-10.00")
    check(outcome(s, 1, "blackjack"), Result.WIN, "+20.00")
    assert [o.wager for o in s.outcomes] == ["insurance", "blackjack"]


def test_even_money_pays_1_to_1_whatever_the_hole_card() -> None:
    t = Table()(wager(1, "blackjack", "10.00"), wager(2, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "Ac Kd", 2: "Tc 9d"}, "Ah"
    )
    t.refuses(decide(2, "even_money"), "only to a player with a Blackjack")
    t(decide(1, "even_money"), READER(False), decide(2, "stand"))
    s = t.dealer("9c").settle()  # soft 20
    o = outcome(s, 1, "blackjack")
    check(o, Result.WIN, "+10.00")
    assert "even money" in o.note
    check(outcome(s, 2, "blackjack"), Result.LOSE, "-10.00")


def test_no_insurance_on_a_ten_up_and_no_reader_on_a_low_up_card() -> None:
    t = Table()(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal({1: "Tc 9d"}, "Kh")
    t.refuses(decide(1, "insurance"), "only when the dealer's up card is an ace")
    t.refuses(decide(1, "stand"), "waits for the card reader")
    t(READER(False))
    t.refuses(READER(False), "already been used")
    t2 = Table()(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal({1: "Tc 9d"}, "9h")
    t2.refuses(READER(False), "only when the dealer's up card is an ace, king, queen, jack or 10")


def test_insurance_and_even_money_may_be_left_out_of_the_submission() -> None:
    r = rules({"insurance": {"offered": False}, "even_money": {"offered": False}})
    t = Table(r)(wager(1, "blackjack", "10.00"), wager(2, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "Ac Kd", 2: "Tc 9d"}, "Ah"
    )
    t.refuses(decide(1, "even_money"), "not offered")
    t.refuses(decide(2, "insurance"), "not offered")


# --- Three Card Poker Wager, § 633a.7(g)(8) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "up", "dealer", "net"),
    [
        ("5h 6h", "7h", "Tc", "+200.00"),  # straight flush 40 to 1
        ("8s 8d", "8h", "Tc", "+150.00"),  # three-of-a-kind 30 to 1
        ("5h 6d", "7c", "Tc", "+50.00"),  # straight 10 to 1
        ("As 2d", "3c", "Tc 5c", "+50.00"),  # ace-2-3 straight
        ("2h 9h", "Kh", "7c", "+25.00"),  # flush 5 to 1
        ("Ks Kd", "2c", "Tc 5c", "-5.00"),  # a pair does not win
        ("Ks 7d", "2c", "Tc 5c", "-5.00"),
    ],
)
def test_three_card_poker_paytable(hand: str, up: str, dealer: str, net: str) -> None:
    s = simple_round({3: (hand, {"blackjack": "10.00", "three_card_poker": "5.00"})}, up, dealer)
    o = outcome(s, 3, "three_card_poker")
    check(o, Result.WIN if net.startswith("+") else Result.LOSE, net)
    assert s.outcomes[0] is o  # settled right after the second card, before the Blackjack Wager


def test_three_card_poker_row_that_pays_nothing() -> None:
    r = rules({"three_card_poker": {"paytable": {**TCP_TABLE, "flush": "none"}}})
    s = simple_round({1: ("2h 9h", {"blackjack": "10.00", "three_card_poker": "5.00"})}, "Kh", "7c", r)
    check(outcome(s, 1, "three_card_poker"), Result.LOSE, "-5.00")


# --- House Money Wager, § 633a.7(g)(10), § 633a.13(n) -------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "single", "multi"),
    [
        ("As Ks", "+45.00", "+45.00"),  # ace-king suited 9 to 1
        ("7h 8h", "+25.00", "+20.00"),  # two-card straight flush 5 to 1 (n)(1), 4 to 1 (n)(2)
        ("9c 9d", "+15.00", "+15.00"),  # pair 3 to 1
        ("9c Td", "+5.00", "+5.00"),  # two-card straight 1 to 1
        ("Ad 2c", "+5.00", "+5.00"),  # the ace below the 2
        ("Ah Kc", "+5.00", "+5.00"),  # ace-king, not suited: a two-card straight
        ("2c 9d", "-5.00", "-5.00"),
    ],
)
def test_house_money_paytables(hand: str, single: str, multi: str) -> None:
    for decks, net in ((1, single), (6, multi)):
        r = rules({"decks": decks})
        seats = {
            2: (hand, {"blackjack": "10.00", "house_money": "5.00"}),
            5: ("Tc 8c", {"blackjack": "10.00"}),
        }
        s = simple_round(seats, "6d", "Ts 2s", r)
        check(outcome(s, 2, "house_money"), Result.WIN if net.startswith("+") else Result.LOSE, net)


def test_house_money_without_adding_to_the_wager() -> None:
    t = Table()(wager(1, "blackjack", "10.00"), wager(1, "house_money", "5.00"), NO_MORE_BETS).deal(
        {1: "7h 7d"}, "6d"
    )
    t(
        decide(1, "double_down"), cards(1, "4c", decks=SHOE_DECKS)
    )  # 18; the Double Down matches the $10.00 Blackjack Wager
    s = t.dealer("Tc 2s").settle()  # 18: push
    check(outcome(s, 1, "house_money"), Result.WIN, "+15.00")  # pair 3 to 1, handed to the player
    check(outcome(s, 1, "blackjack"), Result.PUSH, "0.00")
    assert outcome(s, 1, "double_down").stake == 1000


def test_house_money_added_then_doubled_on_the_whole_wager() -> None:
    t = Table()(wager(1, "blackjack", "10.00"), wager(1, "house_money", "5.00"), NO_MORE_BETS).deal(
        {1: "7h 7d"}, "6d"
    )
    t(decide(1, "add_house_money"))  # 10.00 + 15.00 = 25.00 is the entire Blackjack Wager (g)(10)(ii)(C)
    t.refuses(decide(1, "add_house_money"), "already added")
    t.refuses(decide(1, "double_down", amount="25.01"), "may not exceed")
    t(decide(1, "double_down"), cards(1, "4c", decks=SHOE_DECKS))  # 18
    s = t.dealer("Tc Ts").settle()  # dealer busts (26)
    check(outcome(s, 1, "house_money"), Result.WIN, "+15.00")
    check(outcome(s, 1, "blackjack"), Result.WIN, "+25.00")
    check(outcome(s, 1, "double_down"), Result.WIN, "+25.00")
    assert outcome(s, 1, "blackjack").stake == outcome(s, 1, "double_down").stake == 2500


def test_house_money_added_then_a_double_down_must_match_the_entire_wager() -> None:
    # § 633a.7(g)(10)(ii)(C): "the House Money payout and the Blackjack Wager must be considered the
    # entire Blackjack Wager. Thus, if the player elects to split ... or doubles down ..., the
    # player shall match the entire Blackjack Wager." A pair of 7s pays a $10 House Money Wager 3 to 1
    # (§ 633a.13(n)(2)): $30 added to the $10 Blackjack Wager; a double down is the whole $40.
    t = Table()(wager(1, "blackjack", "10.00"), wager(1, "house_money", "10.00"), NO_MORE_BETS).deal(
        {1: "7h 7d"}, "6d"
    )
    t(decide(1, "add_house_money"))  # 10.00 + 30.00 = 40.00, the entire Blackjack Wager
    t.refuses(decide(1, "double_down", amount="1.00"), r"shall match the entire Blackjack Wager, 40\.00")
    t.refuses(decide(1, "double_down", amount="39.99"), r"§ 633a\.7\(g\)\(10\)\(ii\)\(C\)")
    t(decide(1, "double_down", amount="40.00"), cards(1, "4c", decks=SHOE_DECKS))  # 18
    s = t.dealer("Tc Ts").settle()  # dealer busts (26)
    check(outcome(s, 1, "double_down"), Result.WIN, "+40.00")


def test_house_money_added_then_split_matches_the_whole_wager() -> None:
    t = Table()(wager(1, "blackjack", "10.00"), wager(1, "house_money", "5.00"), NO_MORE_BETS).deal(
        {1: "7h 7d"}, "6d"
    )
    t(decide(1, "add_house_money"))
    t.refuses(decide(1, "split", amount="10.00"), "matches the whole Blackjack Wager on the hand, 25.00")
    t(
        decide(1, "split"),
        cards(1, "Tc", decks=SHOE_DECKS),
        decide(1, "stand"),
        cards(1, "9c", 1, decks=SHOE_DECKS),
        decide(1, "stand", hand=1),
    )
    s = t.dealer("Ts 3s").settle()  # 19: 17 loses, 16 loses
    check(outcome(s, 1, "blackjack"), Result.LOSE, "-25.00")
    check(outcome(s, 1, "blackjack.1"), Result.LOSE, "-25.00")


def test_house_money_added_to_a_blackjack_is_paid_3_to_2() -> None:
    t = Table()(wager(1, "blackjack", "10.00"), wager(1, "house_money", "5.00"), NO_MORE_BETS).deal(
        {1: "As Ks"}, "6d"
    )
    t(decide(1, "add_house_money"))  # ace-king suited 9 to 1: 45.00, "the player may add" (g)(10)(ii)(B)
    s = t.dealer("Tc").settle()  # no hand is left in play: the dealer draws nothing
    check(outcome(s, 1, "house_money"), Result.WIN, "+45.00")
    check(outcome(s, 1, "blackjack"), Result.WIN, "+82.50")  # 55.00 x 3/2


def test_house_money_portion_of_the_submission() -> None:
    r = rules({"house_money": {"portion": 50}})
    t = Table(r)(wager(1, "blackjack", "10.00"), wager(1, "house_money", "5.00"), NO_MORE_BETS).deal(
        {1: "7h 7d"}, "6d"
    )
    t.refuses(decide(1, "add_house_money", amount="15.00"), "the amount added is 7.50")
    t(decide(1, "add_house_money"), decide(1, "stand"))
    s = t.dealer("Tc Ts").settle()
    check(outcome(s, 1, "blackjack"), Result.WIN, "+17.50")
    assert "7.50 handed to the player" in outcome(s, 1, "house_money").note


def test_house_money_add_refused_when_lost_late_or_before_the_reader() -> None:
    t = Table()(wager(1, "blackjack", "10.00"), wager(1, "house_money", "5.00"))
    t(wager(2, "blackjack", "10.00"), wager(2, "house_money", "5.00"), NO_MORE_BETS).deal(
        {1: "2c 9d", 2: "7h 7d"}, "6d"
    )
    t.refuses(decide(1, "add_house_money"), "lost")
    t(decide(1, "stand"))
    t.refuses(decide(2, "add_house_money"), "before play begins")
    t3 = Table()(wager(1, "blackjack", "10.00"), wager(1, "house_money", "5.00"), NO_MORE_BETS).deal(
        {1: "7h 7d"}, "Ad"
    )
    t3.refuses(decide(1, "add_house_money"), "before play begins")  # waits for the reader, (g)(10)(i)
    t3(READER(False), decide(1, "add_house_money"))
    assert t3.state.seats[1].hands[0].stake == 2500


def test_house_money_winner_waits_for_the_reader_and_is_paid_on_a_dealer_blackjack() -> None:
    t = Table()(wager(1, "blackjack", "10.00"), wager(1, "house_money", "5.00"))
    t(wager(2, "blackjack", "10.00"), wager(2, "house_money", "5.00"), NO_MORE_BETS).deal(
        {1: "7h 7d", 2: "2c 9d"}, "Kd"
    )
    t(READER(True))
    t.refuses(decide(1, "add_house_money"), "before play begins")  # the round is over: nothing to add to
    s = t(cards("dealer", "As", decks=SHOE_DECKS)).settle()
    assert [(o.seat, o.wager, o.result) for o in s.outcomes] == [
        (2, "house_money", Result.LOSE),  # (g)(10): collected right after the second card
        (1, "house_money", Result.WIN),  # (g)(10)(i)(A): after the reader
        (2, "blackjack", Result.LOSE),
        (1, "blackjack", Result.LOSE),
    ]
    check(outcome(s, 1, "house_money"), Result.WIN, "+15.00")


# --- Straight Jack Progressive Wager, § 633a.7(o)(3), § 633a.13(m) ------------------------------------------


def straight_jack_round(initial: str, draws: str, meter: str = "20000.00", dealer: str = "Tc") -> Settlement:
    """Seat 4 bets $10 and $5 Straight Jack, draws ``draws`` one by one; up card 7c."""
    t = Table(meters={"straight_jack": meter})(
        wager(4, "blackjack", "10.00"), wager(4, "straight_jack", "5.00"), NO_MORE_BETS
    )
    t.deal({4: initial}, "7c")
    for c in draws.split():
        t(decide(4, "hit"), cards(4, c, decks=SHOE_DECKS))
    return t.stand_all().dealer(dealer).settle()


def test_straight_jack_examples_quoted_from_the_text() -> None:
    text = re.sub(r"\s+", " ", (REGULATIONS / TEXT_FILE).read_text())
    for quote in (
        "(A) A 6, the player has a three-card straight.",
        "(B) A 3 then a 6, the player has a four-card straight.",
        "(C) A 2 then a 3, the 2 breaks the sequence and the player has a two-card straight.",
        "(D) A 6 then a 7, resulting in a hand with a total point count greater than 21, the last card "
        "drawn may not count toward the Straight Jack Progressive Payout. The player will receive a payout "
        "for only a three-card straight.",
        "Five-card straight 200 to 1 Four-card straight 50 to 1 Three-card straight 15 to 1 "
        "Two-card straight 3 to 1",
    ):
        assert quote in text


@pytest.mark.parametrize(
    ("draws", "net", "main"),
    [
        ("6s", "+75.00", "-10.00"),  # (A) three-card straight 15 to 1; 15 vs 17
        ("3c 6s", "+250.00", "+10.00"),  # (B) four-card straight 50 to 1; 18 vs 17
        ("2c 3s", "+15.00", "-10.00"),  # (C) the 2 breaks the sequence: two-card straight 3 to 1; 14
        ("6s 7h", "+75.00", "-10.00"),  # (D) 22: the 7 does not count: three-card straight; bust
    ],
    ids=["A", "B", "C", "D"],
)
def test_straight_jack_examples_through_a_round(draws: str, net: str, main: str) -> None:
    s = straight_jack_round("4h 5d", draws)
    check(outcome(s, 4, "straight_jack"), Result.WIN, net)
    check(outcome(s, 4, "blackjack"), Result.WIN if main.startswith("+") else Result.LOSE, main)
    assert s.outcomes[-1].wager == "straight_jack"  # settled after all cards, § 633a.7(o)(3)
    assert s.meters == {"straight_jack": money("20000.00")}


@pytest.mark.parametrize(
    ("initial", "draws", "net", "flags", "meter_after"),
    [
        ("4h 5d", "", "+15.00", (), "20000.00"),  # two-card straight 3 to 1
        (
            "2h 3d",
            "4c 5s 6h",
            "+1000.00",
            (FLOORPERSON_VERIFY,),
            "20000.00",
        ),  # five-card 200 to 1 = 201 for 1
        # six-card straight with an ace of hearts: 10% of 20,000.00 and 200 to 1 on 5.00
        ("2h 3d", "Ah 4c 5s 6h", "+3000.00", (FLOORPERSON_VERIFY, NOT_FROM_INVENTORY), "18000.00"),
        ("2h 3d", "Ad 4c 5s 6h", "+3000.00", (FLOORPERSON_VERIFY, NOT_FROM_INVENTORY), "18000.00"),
        ("2h 3d", "Ac 4c 5s 6h", "+3000.00", (FLOORPERSON_VERIFY, NOT_FROM_INVENTORY), "18000.00"),
        # six-card straight with an ace of spades: 100% of the meter and 200 to 1; the meter resets
        ("2h 3d", "As 4c 5s 6h", "+21000.00", (FLOORPERSON_VERIFY, NOT_FROM_INVENTORY), "5000.00"),
    ],
)
def test_straight_jack_paytable(
    initial: str, draws: str, net: str, flags: tuple[str, ...], meter_after: str
) -> None:
    s = straight_jack_round(initial, draws)
    o = outcome(s, 4, "straight_jack")
    check(o, Result.WIN, net)
    assert o.flags == flags
    assert s.meters["straight_jack"] == money(meter_after)


def test_straight_jack_without_a_two_card_straight_is_collected_after_the_second_card() -> None:
    s = straight_jack_round("4h 6d", "5s")  # 4-6-5 would be a run, but the initial two are no straight
    o = outcome(s, 4, "straight_jack")
    check(o, Result.LOSE, "-5.00")
    assert s.outcomes[0] is o and o.section == "§ 633a.7(g)(9)"


def test_several_players_at_100_percent_share_the_meter_equally() -> None:
    t = Table(meters={"straight_jack": "10000.01"})
    for seat in (2, 4):
        t(wager(seat, "blackjack", "10.00"), wager(seat, "straight_jack", "1.00"))
    t(wager(6, "blackjack", "10.00"), wager(6, "straight_jack", "1.00"), NO_MORE_BETS).deal(
        {2: "2h 3d", 4: "3c 2s", 6: "2d 3h"}, "7c"
    )
    for seat, ace in ((2, "As"), (4, "As"), (6, "Ah")):
        for c in (ace, "4c", "5s", "6h"):
            t(decide(seat, "hit"), cards(seat, c, decks=SHOE_DECKS))
    s = t.dealer("Tc").settle()
    # Seat 6 is paid first (the dealer's right): 10% of 10,000.01 = 1,000.00 and 200 to 1 on 1.00.
    check(outcome(s, 6, "straight_jack"), Result.WIN, "+1200.00")
    # Then seats 4 and 2 share the 9,000.01 left equally: 4,500.00 each (the odd cent stays), plus 200.00.
    check(outcome(s, 4, "straight_jack"), Result.WIN, "+4700.00")
    check(outcome(s, 2, "straight_jack"), Result.WIN, "+4700.00")
    assert all(NOT_FROM_INVENTORY in outcome(s, seat, "straight_jack").flags for seat in (2, 4, 6))
    assert s.meters["straight_jack"] == money("5000.00")


def test_straight_jack_on_a_split_and_on_a_dealer_blackjack_counts_the_initial_two_cards() -> None:
    t = Table(meters={"straight_jack": "9000.00"})(
        wager(1, "blackjack", "10.00"), wager(1, "straight_jack", "5.00")
    )
    t(NO_MORE_BETS).deal({1: "Jc Qd"}, "6h")
    t(
        decide(1, "split"),
        cards(1, "Kc", decks=SHOE_DECKS),
        decide(1, "stand"),
        cards(1, "Kh", 1, decks=SHOE_DECKS),
        decide(1, "stand", hand=1),
    )
    s = t.dealer("Tc 2s").settle()
    check(outcome(s, 1, "straight_jack"), Result.WIN, "+15.00")  # J-Q-K would be three; split: two-card
    seats = {1: ("Kc Qd", {"blackjack": "10.00", "straight_jack": "5.00"})}
    s2 = simple_round(seats, "Ad", "Kh", meters={"straight_jack": "9000.00"})  # the dealer's Blackjack
    check(outcome(s2, 1, "straight_jack"), Result.WIN, "+15.00")


def test_a_meter_share_waits_for_the_meter_and_meter_events_are_checked() -> None:
    t = Table()(wager(4, "blackjack", "10.00"), wager(4, "straight_jack", "5.00"), NO_MORE_BETS).deal(
        {4: "2h 3d"}, "7c"
    )
    for c in ("As", "4c", "5s", "6h"):
        t(decide(4, "hit"), cards(4, c, decks=SHOE_DECKS))
    t.dealer("Tc")
    with pytest.raises(IllegalEvent, match="straight_jack meter is not known"):
        t.settle()
    t.refuses(meter("progressive", "9000.00"), "no 'progressive' meter")
    t(meter("straight_jack", "9000.00"))
    check(outcome(t.settle(), 4, "straight_jack"), Result.WIN, "+10000.00")  # 9,000.00 + 200 x 5.00


def test_straight_jack_odds_of_ten_percent_of_the_meter_are_not_paid_from_inventory() -> None:
    # § 633a.7(o)(3)(ii)(C): "If a player has won a progressive payout that is 10% or more of the
    # jackpot amount on the progressive meter, the progressive payout may not be paid from the table
    # inventory container." A $25 five-card straight at 200 to 1 is $5,000: 10% of a $50,000 meter
    # (and 100% of a $5,000 one); $4,999.99 of a $50,000.10 meter is not.
    def five_card_straight(stake: str, meter_amount: str | None) -> Outcome:
        t = Table(meters={"straight_jack": meter_amount} if meter_amount else {})(
            wager(4, "blackjack", "10.00"), wager(4, "straight_jack", stake), NO_MORE_BETS
        )
        t.deal({4: "2h 3d"}, "7c")
        for c in ("4c", "5s", "6h"):
            t(decide(4, "hit"), cards(4, c, decks=SHOE_DECKS))
        t(decide(4, "stand"))
        t.dealer("Tc")
        if meter_amount is None:
            # The rule needs the meter as it stands: the round waits for it (§ 633a.7(o)(3)(ii)(C)).
            with pytest.raises(IllegalEvent, match="straight_jack meter is not known"):
                t.settle()
            t(meter("straight_jack", "5000.00"))
        return outcome(t.settle(), 4, "straight_jack")

    for meter_amount in ("5000.00", "50000.00", None):
        o = five_card_straight("25.00", meter_amount)
        check(o, Result.WIN, "+5000.00")
        assert NOT_FROM_INVENTORY in o.flags, meter_amount
    o = five_card_straight("25.00", "50000.10")
    check(o, Result.WIN, "+5000.00")
    assert NOT_FROM_INVENTORY not in o.flags


def test_a_share_leaves_the_meter_below_its_reset_amount() -> None:
    # § 633a.7(o)(3)(ii)(C): "Pay the player the winning Straight Jack Progressive Wager in accordance
    # with § 633a.13(m)": "10% of meter and 200 to 1" is 10% of the meter as it stands, and the meter
    # keeps the rest: $5,000 - $500 = $4,500, below the $5,000 reset amount (§ 633a.13(m)(2)), which
    # is where the meter goes after a 100% award. The next round begins at $4,500.
    t = Table(meters={"straight_jack": "5000.00"})(
        wager(4, "blackjack", "10.00"), wager(4, "straight_jack", "5.00"), NO_MORE_BETS
    )
    t.deal({4: "2h 3d"}, "7c")
    for c in ("Ad", "4c", "5s", "6h"):
        t(decide(4, "hit"), cards(4, c, decks=SHOE_DECKS))
    s = t.dealer("Tc").settle()
    check(outcome(s, 4, "straight_jack"), Result.WIN, "+1500.00")  # 500.00 + 200 x 5.00
    assert s.meters["straight_jack"] == money("4500.00")
    state = GAME.start(rules(), {"straight_jack": money("4500.00")})
    assert state.meters["straight_jack"] == money("4500.00")


def test_meters_at_the_start_are_checked() -> None:
    with pytest.raises(IllegalEvent, match="no 'straight_jack' meter"):
        GAME.start(rules({"straight_jack": {"offered": False}}), {"straight_jack": money("9000.00")})


# --- Hit and Run Progressive Wager, § 633a.7(o)(2) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("up", "rest", "net", "flags", "meter_after"),
    [
        ("Ah", "Kd", "+6.00", (), "30000.00"),  # dealer Blackjack 3 to 1 on 2.00
        ("2c", "3d 4h 2s 6c", "+20.00", (), "30000.00"),  # five cards (17): 10 to 1
        ("2c", "3d 4h 2s 2d 5c", "+100.00", (), "30000.00"),  # six cards (18): 50 to 1
        ("2c", "3d 2h 3s 4c 9d", "+100.00", (), "30000.00"),  # the text's example: 14 with five, 23 with six
        ("2c", "3d 2h 2s 2d 3c 4h", "+3000.00", (FLOORPERSON_VERIFY,), "27000.00"),  # seven: 10% of meter
        # eight cards counting the card that busts the hand (16, then 26): 100% of the meter
        ("2c", "2d 2h 2s 3c 3d 2c Td", "+30000.00", (FLOORPERSON_VERIFY, NOT_FROM_INVENTORY), "1000.00"),
        ("Tc", "7d", "-2.00", (), "30000.00"),  # two cards
        ("2c", "3d 4h 9s", "-2.00", (), "30000.00"),  # four cards (18)
    ],
)
def test_hit_and_run_paytable(up: str, rest: str, net: str, flags: tuple[str, ...], meter_after: str) -> None:
    s = simple_round(
        {5: ("Tc 9d", {"blackjack": "10.00", "hit_and_run": "2.00"})},
        up,
        rest,
        meters={"hit_and_run": "30000.00"},
    )
    o = outcome(s, 5, "hit_and_run")
    check(o, Result.WIN if net.startswith("+") else Result.LOSE, net)
    assert o.flags == flags
    assert s.meters["hit_and_run"] == money(meter_after)


@pytest.mark.parametrize(("returns", "net"), [(None, "+3000.00"), (True, "+3000.00"), (False, "+2998.00")])
def test_a_share_of_the_meter_returns_the_wager_as_the_submission_files(
    returns: bool | None, net: str
) -> None:
    # § 633a.13(l): the Hit and Run paytable is the Rules Submission's, and "10% of meter" does not say
    # whether the wager comes back beside it (odds "to 1" return it; "for 1" include it). Filed as
    # hit_and_run.meter_share_returns_wager; the default, true, is what the table did before.
    over = {} if returns is None else {"hit_and_run": {"meter_share_returns_wager": returns}}
    s = simple_round(
        {5: ("Tc 9d", {"blackjack": "10.00", "hit_and_run": "2.00"})},
        "2c",
        "3d 2h 2s 2d 3c 4h",
        rules(over),
        meters={"hit_and_run": "30000.00"},
    )
    check(outcome(s, 5, "hit_and_run"), Result.WIN, net)  # 10% of 30,000.00, less the wager if kept
    assert s.meters["hit_and_run"] == money("27000.00")


def test_hit_and_run_the_dealer_completes_the_hand_though_every_player_busts() -> None:
    t = Table(meters={"hit_and_run": "3000.00"})(
        wager(1, "blackjack", "10.00"), wager(1, "hit_and_run", "1.00"), NO_MORE_BETS
    )
    t.deal({1: "Tc 6d"}, "2h")
    t(decide(1, "hit"), cards(1, "Kc", decks=SHOE_DECKS))  # bust
    t(cards("dealer", "3c", decks=SHOE_DECKS))
    assert t.state.phase != COMPLETE  # 5: the Hit and Run needs the dealer's final hand
    s = t.dealer("2d 4s 3h 5s").settle()  # 2-3-2-4-3-5: 19 with six cards
    check(outcome(s, 1, "hit_and_run"), Result.WIN, "+50.00")  # six cards, 50 to 1 on 1.00


# --- Bad Beat Progressive Wager -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "up", "rest", "net"),
    [
        ("Kc Qd", "As", "Kd", "+10.00"),  # dealer Blackjack beats a 20: 2 to 1 on 5.00
        ("9c 9d", "As", "Kd", "-5.00"),  # an 18 does not qualify
        ("Kc Qd", "9c", "2d Th", "+25.00"),  # three-card 21: 5 to 1
        ("Kc Qd", "5c", "2d 4h Tc", "+50.00"),  # four-card 21: 10 to 1
        ("Kc Qd", "2c", "3d 4h 2s Tc", "+250.00"),  # five-card 21: 50 to 1
        ("Kc Qd", "2c", "3d 2h 2s 2d Tc", "+4000.00"),  # six-card 21: 10% of 40,000.00
        ("Kc Qd", "2c", "2d 2h 2s 3c Ac 9d", "+40000.00"),  # seven-card 21: 100% of the meter
        ("Kc Qd", "9c", "Ts", "-5.00"),  # 20 against 19: the player wins the hand
        ("Kc Qd", "Tc", "Ts", "-5.00"),  # 20 against 20: a push is no bad beat
        ("Kc 9d", "9c", "2d Th", "-5.00"),  # 19 loses to 21, but 19 is below the Bad Beat total
    ],
)
def test_bad_beat_paytable(player: str, up: str, rest: str, net: str) -> None:
    s = simple_round(
        {3: (player, {"blackjack": "10.00", "bad_beat": "5.00"})}, up, rest, meters={"bad_beat": "40000.00"}
    )
    check(outcome(s, 3, "bad_beat"), Result.WIN if net.startswith("+") else Result.LOSE, net)


def test_bad_beat_a_drawn_20_beaten_by_a_drawn_21() -> None:
    t = Table(meters={"bad_beat": "40000.00"})(
        wager(1, "blackjack", "10.00"), wager(1, "bad_beat", "5.00"), NO_MORE_BETS
    )
    t.deal({1: "5c 5d"}, "9c")
    t(decide(1, "hit"), cards(1, "Tc", decks=SHOE_DECKS), decide(1, "stand"))
    s = t.dealer("2d Th").settle()
    check(outcome(s, 1, "bad_beat"), Result.WIN, "+25.00")
    # The paytable's row first: the words a linked table's claim carries to the meter.
    assert outcome(s, 1, "bad_beat").hand == "dealer_21_three_cards (hard 20 beaten by dealer hard 21)"


# --- the payout limit ---------------------------------------------------------------------------------------


OUTSIDE_ROYAL_MATCH = (
    '§ 633a.13(o): "Any maximum payout limit established by the certificate holder shall apply only to '
    "payouts of Royal Match 21 Wagers and King's Bounty Wagers\""
)


def test_payout_limit_holds_no_wager_this_table_offers() -> None:
    # § 633a.13(o): "Any maximum payout limit established by the certificate holder shall apply only
    # to payouts of Royal Match 21 Wagers and King's Bounty Wagers" (neither is offered here), so a
    # $1,000 Three Card Poker straight flush pays 40 to 1 ($40,000) and a $3,000 House Money ace-king
    # suited 9 to 1 ($27,000) in full, past the $25,000 payout_limit the Rules Submission files.
    r = rules({"payout_limit": "25000.00"})
    s = simple_round(
        {
            1: ("5h 6h", {"blackjack": "10.00", "three_card_poker": "1000.00"}),
            2: ("As Ks", {"blackjack": "10.00", "house_money": "3000.00"}),
        },
        "7h",
        "Tc",
        r,
    )
    for seat, wager_name, net in ((1, "three_card_poker", "+40000.00"), (2, "house_money", "+27000.00")):
        o = outcome(s, seat, wager_name)
        check(o, Result.WIN, net)
        assert PAYOUT_LIMITED not in o.flags, OUTSIDE_ROYAL_MATCH
    t = Table(r, {"straight_jack": "20000.00"})(
        wager(4, "blackjack", "10.00"), wager(4, "straight_jack", "5.00"), NO_MORE_BETS
    )
    t.deal({4: "2h 3d"}, "7c")
    for c in ("As", "4c", "5s", "6h"):
        t(decide(4, "hit"), cards(4, c, decks=SHOE_DECKS))
    check(outcome(t.dealer("Tc").settle(), 4, "straight_jack"), Result.WIN, "+21000.00")


def test_payout_limit_below_25000_is_refused() -> None:
    # § 633a.13(o): "The maximum payout amount shall be at least $25,000 or the maximum amount that
    # one patron could win per round when betting the maximum possible wager, whichever is greater."
    assert problems({"payout_limit": "100.00"}) == (
        "payout_limit 100.00: is below the $25,000 minimum (§ 633a.13(o))",
    )
    assert rules({"payout_limit": "25000.00"}).payout_limit == 2_500_000


# --- irregularities -----------------------------------------------------------------------------------------


def test_shoe_jam_in_the_deal_voids_every_wager() -> None:
    t = Table()(
        wager(1, "blackjack", "10.00"),
        wager(1, "house_money", "5.00"),
        wager(2, "blackjack", "20.00"),
        NO_MORE_BETS,
    )
    t(cards(1, "7h", decks=SHOE_DECKS), irregularity("shoe_jam", detail="stopped"))
    s = t.settle()
    assert s.void.startswith("shoe_jam") and "stopped" in s.void
    assert [(o.seat, o.wager, o.result, o.net) for o in s.outcomes] == [
        (2, "blackjack", Result.VOID, 0),
        (1, "blackjack", Result.VOID, 0),
        (1, "house_money", Result.VOID, 0),
    ]
    t.refuses(cards(1, "7d", decks=SHOE_DECKS), "the round is void")


def test_shoe_jam_mid_round_what_was_settled_stands() -> None:
    t = Table()(
        wager(1, "blackjack", "10.00"), wager(1, "three_card_poker", "5.00"), wager(2, "blackjack", "10.00")
    )
    t(wager(3, "blackjack", "20.00"), wager(3, "house_money", "5.00"), NO_MORE_BETS).deal(
        {1: "Ac Kd", 2: "Tc 6d", 3: "7h 7d"}, "As"
    )
    t(
        decide(1, "even_money"),
        decide(3, "insurance"),
        READER(False),
        decide(3, "add_house_money"),
        decide(2, "surrender"),
    )
    t(decide(3, "split"), irregularity("shoe_jam"))
    s = t.settle()
    assert [(o.seat, o.wager, o.result, o.net) for o in s.outcomes] == [
        (1, "three_card_poker", Result.LOSE, -500),  # (g): A-K-A is a pair
        (1, "blackjack", Result.WIN, 1000),  # even money, paid
        (3, "house_money", Result.WIN, 1500),  # after the reader, added to the wager
        (3, "insurance", Result.LOSE, -1000),
        (2, "blackjack", Result.LOSE, -500),  # surrendered: half collected
        (3, "blackjack", Result.VOID, 0),  # 20.00 + 15.00 returned
        (3, "blackjack.1", Result.VOID, 0),
    ]
    assert outcome(s, 3, "blackjack").stake == 3500


def test_card_reader_malfunction_voids_insurance_not_yet_settled() -> None:
    t = Table()(wager(1, "blackjack", "10.00"), wager(1, "house_money", "5.00"), NO_MORE_BETS).deal(
        {1: "7h 7d"}, "Ac"
    )
    t(decide(1, "insurance"), irregularity("card_reader_malfunction"))
    s = t.settle()
    assert [(o.wager, o.result) for o in s.outcomes] == [
        ("blackjack", Result.VOID),
        ("house_money", Result.VOID),  # a winner waiting for the reader: not yet paid
        ("insurance", Result.VOID),
    ]


def test_irregularities_refused() -> None:
    t = Table()(wager(1, "blackjack", "10.00"), NO_MORE_BETS)
    t.refuses(irregularity("spilled_drink"), "no irregularity 'spilled_drink'")
    t.deal({1: "Tc 9d"}, "9h")(decide(1, "stand")).dealer("8c")
    t.refuses(irregularity("shoe_jam"), "the round is complete")


# --- illegal events are refused, the state unchanged --------------------------------------------------------


def test_illegal_events_before_and_during_the_deal() -> None:
    t = Table(rules({"three_card_poker": {"offered": False}}, ALL))
    t.refuses(wager(8, "blackjack", "10.00"), "seat 8 is not at this table")
    t.refuses(wager(1, "house_money", "5.00"), "place the blackjack wager first")
    t.refuses(wager(1, "royal_match_21", "5.00"), "no wager 'royal_match_21'")
    t.refuses(wager(1, "insurance", "5.00"), "a decision during the round")
    t.refuses(cards(1, "7h", decks=SHOE_DECKS), "no card is dealt")
    t.refuses(NO_MORE_BETS, "no Blackjack Wager has been placed")
    t(wager(1, "blackjack", "10.00"))
    t.refuses(wager(1, "three_card_poker", "5.00"), "not offered")
    t.refuses(wager(1, "blackjack", "10.00"), "already has a blackjack wager")
    t.refuses(wager(2, "blackjack", "0.00"), "more than 0.00")
    t(NO_MORE_BETS)
    t.refuses(wager(2, "blackjack", "10.00"), "after 'no more bets'")
    t.refuses(NO_MORE_BETS, "already announced")
    t.refuses(cards(1, "7h 8h 9h", decks=SHOE_DECKS), "would hold 3 cards")
    t.refuses(cards(2, "7h", decks=SHOE_DECKS), "seat 2 has no Blackjack Wager")
    t.refuses(cards("dealer", "7h 8h", decks=SHOE_DECKS), "hole card is dealt face down")
    t.refuses(cards("board", "7h", decks=SHOE_DECKS), "no community cards")
    t.refuses(decide(1, "stand"), "no stand now")
    t.refuses(READER(False), "after the deal")


def test_illegal_events_during_play() -> None:
    t = Table(rules({"decks": 1}))(
        wager(1, "blackjack", "10.00"), wager(2, "blackjack", "10.00"), NO_MORE_BETS
    )
    t.deal({1: "7h 8h", 2: "9c 9d"}, "6s")
    t.refuses(decide(2, "stand"), "out of turn")
    t.refuses(decide(1, "fold"), "no decision 'fold'")
    t.refuses(decide(3, "stand"), "seat 3 has no Blackjack Wager")
    t.refuses(decide(1, "split"), "identical value")
    t.refuses(decide(1, "stand", amount="1.00"), "give no amount")
    t.refuses(cards(1, "2c", decks=SHOE_DECKS), "waits for a decision")
    t.refuses(cards("dealer", "2c", decks=SHOE_DECKS), "no card is dealt to the dealer")
    t(decide(1, "hit"))
    t.refuses(decide(1, "hit"), "waits for a card")
    t.refuses(cards(1, "2c 3c", decks=SHOE_DECKS), "one card now")
    t.refuses(
        cards(1, "7h", decks=SHOE_DECKS), "7h would be dealt 2 times this round, but 1 deck holds it 1 time"
    )
    t(cards(1, "2c", decks=SHOE_DECKS), decide(1, "stand"), decide(2, "stand"))
    with pytest.raises(IllegalEvent, match="waits for the dealer's hole card"):
        t.settle()


# --- Spanish 21: the Double Down Wager and the rescue, § 635a.10 -------------------------------------------

SPANISH: dict[str, Any] = {"spanish_21": {"offered": True, "rescue": True}}
"""A Spanish 21 table offering the rescue, on top of ALL (every optional wager offered)."""


def spanish(over: Mapping[str, Any] | None = None) -> BlackjackRules:
    return rules(merged(SPANISH, over or {}))


def test_section_635a_10_a_is_quoted_from_the_text() -> None:
    """The sentences the tests below follow, word for word from our copy (43 Pa.B. 834)."""
    text = re.sub(r"\s+", " ", (REGULATIONS / TEXT_FILE).read_text())
    assert "CHAPTER 635a. SPANISH 21 § 635a.10. Double Down Wager; rescue." in text
    for quote in (
        "(a) Except when a player has Blackjack, a player may elect to make a Double Down Wager, which may "
        "not exceed the amount of his original Spanish 21 Wager",
        "A player may double down on two or more cards dealt to him or two or more cards of any split pair.",
        "Only one additional card shall be dealt to the hand on which the player has elected to double down.",
    ):
        assert quote in text


def test_spanish_21_options_default_off_and_load() -> None:
    r = load_rules(BlackjackRules, {}, "defaults", GAME.rules_checks)
    assert not (r.spanish_21_offered or r.spanish_21_rescue or r.spanish_deck)
    on = spanish({"spanish_21": {"spanish_deck": True}})
    assert (on.spanish_21_offered, on.spanish_21_rescue, on.spanish_deck) == (True, True, True)
    assert load_rules(BlackjackRules, rules_to_mapping(on), "again", GAME.rules_checks) == on
    doubling_only = rules({"spanish_21": {"offered": True}})
    assert doubling_only.spanish_21_offered and not doubling_only.spanish_21_rescue


def test_rescue_or_spanish_deck_without_spanish_21_is_an_error() -> None:
    found = problems({"spanish_21": {"rescue": True, "spanish_deck": True}})
    assert found == (
        "spanish_21.rescue true: the rescue follows a Spanish 21 Double Down Wager; it is offered only at a "
        "Spanish 21 table (set spanish_21.offered) (§ 635a.10)",
        "spanish_21.spanish_deck true: the Spanish deck is dealt only at a Spanish 21 table (set "
        "spanish_21.offered) (ch. 635a)",
    )
    # The same with the table said not to be Spanish 21 in so many words.
    assert len(problems({"spanish_21": {"offered": False, "rescue": True}})) == 1


def test_spanish_21_double_down_rules_may_not_be_narrowed() -> None:
    """§ 635a.10(a): "may double down on two or more cards ... or two or more cards of any split pair"."""
    found = problems({"spanish_21": {"offered": True}, "double_down": {"on": "10_11", "after_split": False}})
    assert found == (
        "double_down.on 10_11: at a Spanish 21 table a player may double down on two or more cards of any "
        "total; write any_two (§ 635a.10(a))",
        "double_down.after_split false: at a Spanish 21 table a player may double down on two or more cards "
        "of any split pair (§ 635a.10(a))",
    )


def test_spanish_21_option_values_and_unknown_keys() -> None:
    found = problems({"spanish_21": {"offered": "yes", "rescues": True}})
    assert found == (
        "spanish_21.rescues: unknown option; did you mean 'spanish_21.rescue'?",
        "spanish_21.offered yes: must be true or false (§ 635a.10(a); § 601a.2)",
    )


@pytest.mark.parametrize(
    ("dealt", "hits"),
    [("5c 4d", ""), ("2c 3d", "4s"), ("2c 2d", "3s 2h")],
    ids=["two cards", "three cards", "four cards"],
)
def test_spanish_21_double_down_on_two_or_more_cards(dealt: str, hits: str) -> None:
    t = Table(spanish())(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal({1: dealt}, "6h")
    for c in hits.split():
        t(decide(1, "hit"), cards(1, c, decks=SHOE_DECKS))
    assert sum(int(c.rank) for c in t.state.seats[1].hands[0].cards) == 9  # every hand is a hard 9 here
    t(decide(1, "double_down"), cards(1, "Ks", decks=SHOE_DECKS))  # 19: the one additional card
    assert t.state.seats[1].hands[0].double == 1000
    s = t(decide(1, "stand")).dealer("Kc 2d").settle()  # 6 + 10 = 16, draws a 2: 18
    # 19 beats 18: the Spanish 21 Wager and the Double Down Wager each win 1 to 1 (§ 633a.13(a)).
    check(outcome(s, 1, "blackjack"), Result.WIN, "+10.00")
    check(outcome(s, 1, "double_down"), Result.WIN, "+10.00")


@pytest.mark.parametrize("hits", ["4s", "3s 2h"], ids=["three cards", "four cards"])
def test_doubling_on_more_than_two_cards_needs_a_spanish_21_table(hits: str) -> None:
    t = Table()(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal({1: "2c 2d"}, "6h")
    for c in hits.split():
        t(decide(1, "hit"), cards(1, c, decks=SHOE_DECKS))
    t.refuses(
        decide(1, "double_down"), r"on two cards \(§ 633a\.10\); on two or more cards only at a Spanish 21"
    )


@pytest.mark.parametrize("table", ["spanish 21", "blackjack"])
def test_no_double_down_on_a_blackjack(table: str) -> None:
    r = spanish() if table == "spanish 21" else rules()
    t = Table(r)(wager(1, "blackjack", "10.00"), wager(2, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "As Kd", 2: "9c 7d"}, "6h"
    )
    t.refuses(decide(1, "double_down"), r"no Double Down Wager on a Blackjack .*§ 635a\.10\(a\)")
    t.refuses(decide(1, "double_down", amount="5.00"), "no Double Down Wager on a Blackjack")
    assert t.state.turn == (2, 0)
    s = t(decide(2, "stand")).dealer("Kc 2d").settle()  # 18
    check(outcome(s, 1, "blackjack"), Result.WIN, "+15.00")  # 3 to 2, and no double_down line
    assert "double_down" not in s.for_seat(1)


def test_spanish_21_double_down_may_not_exceed_the_original_wager() -> None:
    t = Table(spanish())(wager(1, "blackjack", "10.00"), wager(2, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "2c 3d", 2: "4c 3s"}, "6h"
    )
    t(decide(1, "hit"), cards(1, "4s", decks=SHOE_DECKS))  # 9 on three cards
    t.refuses(
        decide(1, "double_down", amount="10.01"),
        r"may not exceed the Blackjack Wager on the hand, 10\.00 \(§ 635a\.10\(a\): his original Spanish 21",
    )
    t.refuses(decide(1, "double_down", amount="0.00"), "more than 0.00")
    t(
        decide(1, "double_down", amount="10.00"), cards(1, "Ah", decks=SHOE_DECKS), decide(1, "stand")
    )  # 2-3-4-A: soft 20
    t(
        decide(2, "hit"),
        cards(2, "2d", decks=SHOE_DECKS),
        decide(2, "double_down", amount="4.00"),
        cards(2, "9d", decks=SHOE_DECKS),
        decide(2, "stand"),
    )  # 18
    s = t.dealer("Kc 3d").settle()  # 6 + 10 + 3 = 19
    check(outcome(s, 1, "blackjack"), Result.WIN, "+10.00")
    check(outcome(s, 1, "double_down"), Result.WIN, "+10.00")
    check(outcome(s, 2, "blackjack"), Result.LOSE, "-10.00")
    check(outcome(s, 2, "double_down"), Result.LOSE, "-4.00")  # less than the wager: what was wagered


def test_spanish_21_double_down_on_two_or_more_cards_of_a_split_pair() -> None:
    t = Table(spanish())(wager(1, "blackjack", "15.00"), NO_MORE_BETS).deal({1: "7s 7d"}, "5h")
    t(decide(1, "split"), cards(1, "4c", decks=SHOE_DECKS))  # hand 0: 7-4, 11
    t(
        decide(1, "double_down"), cards(1, "9c", decks=SHOE_DECKS), decide(1, "stand")
    )  # two cards of a split pair: 20
    t(
        cards(1, "2s", 1, decks=SHOE_DECKS), decide(1, "hit", hand=1), cards(1, "2d", 1, decks=SHOE_DECKS)
    )  # hand 1: 7-2-2, 11
    t(
        decide(1, "double_down", hand=1, amount="10.00"),
        cards(1, "Qs", 1, decks=SHOE_DECKS),
        decide(1, "stand", hand=1),
    )  # three cards: 21
    s = t.dealer("Kd 3h").settle()  # 5 + 10 + 3 = 18
    assert [(o.wager, o.result, o.net) for o in s.outcomes] == [
        ("blackjack", Result.WIN, 1500),
        ("double_down", Result.WIN, 1500),
        ("blackjack.1", Result.WIN, 1500),  # 21 after a split: 1 to 1
        ("double_down.1", Result.WIN, 1000),
    ]


def test_spanish_21_double_down_on_split_aces_when_the_submission_files_it() -> None:
    # § 635a.10(a): "A player may double down on two or more cards dealt to him or two or more cards
    # of any split pair": split aces are a split pair. Where split aces take one card each
    # (§ 633a.11; Spanish 21's own splitting section is not in our copy) the table files which
    # it follows: spanish_21.double_split_aces (default false: one card each, no double).
    r = spanish({"spanish_21": {"rescue": False, "double_split_aces": True}})
    assert r.spanish_21_double_split_aces
    t = Table(r)(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal({1: "As Ad"}, "6h")
    t(decide(1, "split"), cards(1, "5c", decks=SHOE_DECKS))  # hand 0: A-5, soft 16, waits for a decision
    t.refuses(decide(1, "hit"), "split aces receive one card each")
    t(decide(1, "double_down"), cards(1, "4h", decks=SHOE_DECKS))  # A-5-4: 20, one card only
    t(cards(1, "9d", 1, decks=SHOE_DECKS), decide(1, "stand", hand=1))  # hand 1: A-9, 20
    s = t.dealer("Th 3c").settle()  # 19
    assert [(o.wager, o.result, o.net) for o in s.outcomes] == [
        ("blackjack", Result.WIN, 1000),
        ("double_down", Result.WIN, 1000),
        ("blackjack.1", Result.WIN, 1000),
    ]
    # Filed false (today's reading), the split aces take one card each and no double.
    t = Table(spanish())(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal({1: "As Ad"}, "6h")
    t(decide(1, "split"), cards(1, "5c", decks=SHOE_DECKS))
    assert t.state.turn == (1, 1)  # hand 0 is done with its one card
    t.refuses(decide(1, "double_down"), "out of turn")
    assert problems({"spanish_21": {"double_split_aces": True}}) == (
        "spanish_21.double_split_aces true: doubling on split aces follows the Spanish 21 Double Down "
        "Wager; it is offered only at a Spanish 21 table (set spanish_21.offered) (§ 635a.10(a))",
    )


def test_only_one_additional_card_on_a_spanish_21_double_down() -> None:
    # With the rescue offered, the doubled hand waits for "stand" or "rescue" and takes nothing else.
    t = Table(spanish())(wager(1, "blackjack", "10.00"), wager(2, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "2c 3d", 2: "9c 9d"}, "6h"
    )
    t(decide(1, "hit"), cards(1, "4s", decks=SHOE_DECKS), decide(1, "double_down"))
    t.refuses(decide(1, "stand"), "waits for a card")
    t.refuses(cards(1, "2h 3h", decks=SHOE_DECKS), "one card now")
    t(cards(1, "2h", decks=SHOE_DECKS))  # 11
    t.refuses(cards(1, "9s", decks=SHOE_DECKS), "waits for a decision, not a card")
    for action in ("hit", "double_down", "split", "surrender"):
        t.refuses(
            decide(1, action), f"one additional card .*§ 635a\\.10\\(a\\).*may stand or rescue, not {action}"
        )
    with pytest.raises(IllegalEvent, match="waits for seat 1 hand 0 to stand or rescue"):
        t.settle()
    t(decide(1, "stand"))
    assert t.state.turn == (2, 0)
    t.refuses(cards(1, "9s", decks=SHOE_DECKS), "no card is dealt to seat 1 hand 0 now")
    # Without the rescue the doubled hand is complete at its one card.
    t2 = Table(rules({"spanish_21": {"offered": True}}))(
        wager(1, "blackjack", "10.00"), wager(2, "blackjack", "10.00")
    )
    t2(NO_MORE_BETS).deal({1: "2c 3d", 2: "9c 9d"}, "6h")
    t2(
        decide(1, "hit"),
        cards(1, "4s", decks=SHOE_DECKS),
        decide(1, "double_down"),
        cards(1, "2h", decks=SHOE_DECKS),
    )
    assert t2.state.turn == (2, 0)
    t2.refuses(cards(1, "9s", decks=SHOE_DECKS), "no card is dealt to seat 1 hand 0 now")
    t2.refuses(decide(1, "hit"), "out of turn")


def test_rescue_forfeits_the_original_wager_and_returns_the_double_down() -> None:
    t = Table(spanish())(wager(1, "blackjack", "10.00"), wager(2, "blackjack", "20.00"), NO_MORE_BETS).deal(
        {1: "2c 3d", 2: "6c 2d"}, "9h"
    )
    t(decide(1, "hit"), cards(1, "4s", decks=SHOE_DECKS))  # 9
    t.refuses(decide(1, "rescue"), "this hand has no Double Down Wager")
    t(decide(1, "double_down"))
    t.refuses(decide(1, "rescue"), "waits for a card")
    t(cards(1, "5h", decks=SHOE_DECKS))  # 14 against a 9 up
    t.refuses(decide(1, "rescue", amount="10.00"), "give no amount")
    t(decide(1, "rescue"))
    assert t.state.seats[1].hands[0].rescued and t.state.turn == (2, 0)
    t.refuses(decide(1, "rescue"), "out of turn")
    t(
        decide(2, "hit"),
        cards(2, "3c", decks=SHOE_DECKS),
        decide(2, "double_down"),
        cards(2, "Kd", decks=SHOE_DECKS),
        decide(2, "stand"),
    )  # 6-2-3-K: 21
    s = t.dealer("8s").settle()  # 17
    assert [(o.seat, o.wager) for o in s.outcomes] == [
        (2, "blackjack"),
        (2, "double_down"),
        (1, "blackjack"),
        (1, "double_down"),
    ]
    check(outcome(s, 2, "blackjack"), Result.WIN, "+20.00")
    check(outcome(s, 2, "double_down"), Result.WIN, "+20.00")
    lost, back = outcome(s, 1, "blackjack"), outcome(s, 1, "double_down")
    check(lost, Result.LOSE, "-10.00")  # the original wager is forfeited
    check(back, Result.PUSH, "0.00")  # the Double Down Wager is returned
    assert lost.hand == back.hand == "hard 14, rescued"
    assert "§ 635a.10" in lost.section and "forfeited" in lost.note and "returned" in back.note
    assert lost.to_json() == {"result": "lose", "net": "-10.00", "stake": "10.00", "hand": "hard 14, rescued"}
    assert back.to_json() == {"result": "push", "net": "0.00", "stake": "10.00", "hand": "hard 14, rescued"}


def test_rescue_of_a_smaller_double_down_costs_the_original_wager() -> None:
    t = Table(spanish())(wager(1, "blackjack", "10.00"), NO_MORE_BETS).deal({1: "5c 4d"}, "9h")
    t(decide(1, "double_down", amount="4.00"), cards(1, "3h", decks=SHOE_DECKS), decide(1, "rescue"))  # 12
    s = t(
        cards("dealer", "7c", decks=SHOE_DECKS)
    ).settle()  # nothing in play: the dealer turns the hole card and draws nothing
    check(outcome(s, 1, "blackjack"), Result.LOSE, "-10.00")
    check(outcome(s, 1, "double_down"), Result.PUSH, "0.00")
    assert outcome(s, 1, "double_down").stake == money("4.00")


def test_rescue_refused_on_a_hand_over_21_and_after_the_player_stood() -> None:
    t = Table(spanish())(wager(1, "blackjack", "10.00"), wager(2, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "Tc 2d", 2: "9c 5d"}, "9h"
    )
    t(decide(1, "double_down"), cards(1, "Kc", decks=SHOE_DECKS))  # 22: the hand has lost, no decision waits
    assert t.state.turn == (2, 0)
    t.refuses(decide(1, "rescue"), "over 21 and has lost; there is nothing to rescue")
    t(decide(2, "double_down"), cards(2, "4s", decks=SHOE_DECKS), decide(2, "stand"))  # 18, stood
    t.refuses(decide(2, "rescue"), "no rescue now")
    s = t.dealer("7c 2h").settle()  # 16, draws a 2: 18
    check(outcome(s, 1, "blackjack"), Result.LOSE, "-10.00")  # over 21: both wagers lose
    check(outcome(s, 1, "double_down"), Result.LOSE, "-10.00")
    check(outcome(s, 2, "blackjack"), Result.PUSH, "0.00")  # 18 against 18
    check(outcome(s, 2, "double_down"), Result.PUSH, "0.00")


@pytest.mark.parametrize(
    "over", [{}, {"spanish_21": {"offered": True}}], ids=["blackjack table", "spanish 21 without the rescue"]
)
def test_rescue_refused_where_not_offered(over: Mapping[str, Any]) -> None:
    t = Table(rules(over))(wager(1, "blackjack", "10.00"), wager(2, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "5c 4d", 2: "9c 5d"}, "9h"
    )
    t(decide(1, "double_down"), cards(1, "3h", decks=SHOE_DECKS))  # 12: the hand is complete at its one card
    t.refuses(
        decide(1, "rescue"),
        r"rescue is not offered in this Rules Submission \(spanish_21\.rescue, § 635a\.10",
    )
    t.refuses(decide(2, "rescue"), "rescue is not offered")
    t(decide(2, "stand"), cards("dealer", "8c", decks=SHOE_DECKS))  # 17
    s = t.settle()
    check(outcome(s, 1, "blackjack"), Result.LOSE, "-10.00")
    check(outcome(s, 1, "double_down"), Result.LOSE, "-10.00")  # no rescue: both wagers lose


def test_a_rescued_split_hand_stands_when_a_shoe_jam_voids_the_round() -> None:
    t = Table(spanish())(wager(1, "blackjack", "10.00"), wager(2, "blackjack", "10.00"), NO_MORE_BETS).deal(
        {1: "8c 8d", 2: "9c 8s"}, "Th"
    )
    t(READER(False), decide(1, "split"), cards(1, "Tc", decks=SHOE_DECKS), decide(1, "stand"))  # hand 0: 18
    t(
        cards(1, "3h", 1, decks=SHOE_DECKS),
        decide(1, "double_down", hand=1, amount="4.00"),
        cards(1, "5s", 1, decks=SHOE_DECKS),
        decide(1, "rescue", hand=1),
    )  # 16
    t(decide(2, "stand"), irregularity("shoe_jam"))
    s = t.settle()
    assert "shoe_jam" in s.void
    assert [(o.seat, o.wager, o.result, o.net) for o in s.outcomes] == [
        (1, "blackjack.1", Result.LOSE, -1000),  # the rescue was settled when made: it stands
        (1, "double_down.1", Result.PUSH, 0),
        (2, "blackjack", Result.VOID, 0),
        (1, "blackjack", Result.VOID, 0),
    ]


@pytest.mark.parametrize(
    ("action", "bad_beat", "double_down"), [("stand", "+25.00", "-10.00"), ("rescue", "-5.00", "0.00")]
)
def test_a_rescued_hand_does_not_lose_to_the_dealers_21_for_the_bad_beat(
    action: str, bad_beat: str, double_down: str
) -> None:
    meters = {"bad_beat": "40000.00", "hit_and_run": "30000.00"}
    t = Table(spanish(), meters)(
        wager(1, "blackjack", "10.00"), wager(1, "bad_beat", "5.00"), wager(1, "hit_and_run", "5.00")
    )
    t(NO_MORE_BETS).deal({1: "5c 5d"}, "9h")
    t(decide(1, "double_down"), cards(1, "Kc", decks=SHOE_DECKS), decide(1, action))  # 20
    s = t.dealer("2c Kd").settle()  # the Hit and Run Wager keeps the dealer drawing: 9-2-K, 21 in three cards
    check(outcome(s, 1, "blackjack"), Result.LOSE, "-10.00")
    check(outcome(s, 1, "double_down"), Result.LOSE if action == "stand" else Result.PUSH, double_down)
    # A 20 that stood and lost to a three-card 21 wins the Bad Beat at 5 to 1 (5.00 x 5); a rescued one
    # was forfeited, it did not lose to the 21.
    check(outcome(s, 1, "bad_beat"), Result.WIN if action == "stand" else Result.LOSE, bad_beat)


def test_the_spanish_deck_has_no_tens() -> None:
    t = Table(spanish({"spanish_21": {"spanish_deck": True}}))(wager(1, "blackjack", "10.00"), NO_MORE_BETS)
    t.refuses(
        cards(1, "Ts", decks=SHOE_DECKS),
        r"Ts is not in the shoe: a Spanish 21 table deals Spanish decks, 48 cards without",
    )
    t.refuses(cards(1, "9s Td", decks=SHOE_DECKS), "Td is not in the shoe")
    t(
        cards(1, "Ks Jd", decks=SHOE_DECKS), cards("dealer", "9h", decks=SHOE_DECKS)
    )  # jacks, queens and kings stay
    t.refuses(cards("dealer", "Tc", decks=SHOE_DECKS), "Tc is not in the shoe")
    t(decide(1, "stand"))
    t.refuses(cards("dealer", "Th", decks=SHOE_DECKS), "Th is not in the shoe")
    s = t.dealer("Qh").settle()  # 19
    check(outcome(s, 1, "blackjack"), Result.WIN, "+10.00")
    # A Spanish 21 table that keeps the 10s in its shoe (spanish_deck false) deals them.
    u = Table(spanish())(wager(1, "blackjack", "10.00"), NO_MORE_BETS)
    u(cards(1, "Ts 9d", decks=SHOE_DECKS))
    assert u.state.seats[1].initial == parse_cards("Ts 9d", decks=8)


# --- the examples -------------------------------------------------------------------------------------------


RECORDS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".settlement.json"))


def test_there_are_examples() -> None:
    assert {p.stem for p in RECORDS} >= {
        "normal-round",
        "side-wager-hits",
        "dealer-blackjack",
        "shoe-jam",
        "spanish-21-rescue",
    }


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_example_replays_to_its_settlement(path: Path) -> None:
    record = load_record(json.loads(path.read_text()), {GAME.name: GAME}, path.name)
    expected = json.loads(path.with_suffix(".settlement.json").read_text())
    first = replay(record).to_json()
    assert first == expected
    assert json.dumps(replay(record).to_json()) == json.dumps(first)


def test_a_compact_record_replays() -> None:
    data = {
        "game": "blackjack",
        "seats": {"2": {"blackjack": "10.00"}, "1": {"blackjack": "10.00"}},
        "cards": {"1": "Tc 7d", "2": "As Kd", "dealer": "9h"},
        "actions": [
            {"seat": 1, "action": "stand"},
            {"type": "cards", "to": "dealer", "cards": "5c 4c"},
        ],
    }
    s = replay(load_record(data, {GAME.name: GAME}))
    check(outcome(s, 2, "blackjack"), Result.WIN, "+15.00")  # 3 to 2
    check(outcome(s, 1, "blackjack"), Result.LOSE, "-10.00")  # 17 against 18


# --- properties ---------------------------------------------------------------------------------------------

PROPERTY_RULES = {
    (d, spanish_21): rules(
        {
            "decks": d,
            "split": {"resplit_aces": True},
            # A Spanish 21 table offering the rescue; the six-deck one deals Spanish decks (no 10s).
            "spanish_21": {
                "offered": spanish_21,
                "rescue": spanish_21,
                "spanish_deck": spanish_21 and d == 6,
                "double_split_aces": spanish_21,
            },
        }
    )
    for d in (1, 6)
    for spanish_21 in (False, True)
}
METERS = {"straight_jack": money("20000.00"), "hit_and_run": money("30000.00"), "bad_beat": money("40000.00")}


def random_round(rng: Any, r: BlackjackRules) -> tuple[list[Event], Settlement, BlackjackState]:
    """A random legal round: random seats, wagers and decisions, cards from a shuffled shoe.

    Every refused event is checked to leave the state unchanged, then another is tried.
    """
    deck = [c for c in shoe(r.decks) if not (r.spanish_deck and c.rank == TEN)]
    rng.shuffle(deck)
    rnd = Round.begin(GAME, r, METERS)

    def apply(event: Event) -> bool:
        before, shown = rnd.state, repr(rnd.state)
        try:
            rnd.apply(event)
            return True
        except IllegalEvent:
            assert rnd.state is before and repr(rnd.state) == shown
            return False

    def card(to: str, hand: int = 0) -> None:
        if not deck:
            reject()  # a single deck ran out: not a round the table can deal
        assert apply(Event("cards", to=to, cards=(deck.pop(),), hand=hand))

    seats = sorted(rng.sample(range(1, 8), rng.randint(1, 4)))
    for seat in seats:
        apply(Event("wager", seat=seat, wager="blackjack", amount=rng.choice([500, 1000, 2525])))
        for name in ("three_card_poker", "straight_jack", "house_money", "hit_and_run", "bad_beat"):
            if rng.random() < 0.5:
                apply(Event("wager", seat=seat, wager=name, amount=rng.choice([100, 500, 10000])))
    assert apply(NO_MORE_BETS)
    for seat in seats:
        card(str(seat))
    card("dealer")
    for seat in seats:
        card(str(seat))
    if not deck:
        reject()
    hole = deck.pop()
    state = rnd.state
    assert isinstance(state, BlackjackState)
    if state.phase == CHECK:
        for seat in seats:
            apply(Event("decision", seat=seat, action=rng.choice(["insurance", "even_money", "stand"])))
        assert apply(
            Event(
                "hole_card_reader",
                result="blackjack" if is_blackjack((state.dealer[0], hole)) else "no_blackjack",
            )
        )
    if rnd.state.phase == DEALER_BLACKJACK:
        assert apply(Event("cards", to="dealer", cards=(hole,)))
    for seat in seats:
        if rng.random() < 0.5:
            apply(Event("decision", seat=seat, action="add_house_money"))
    while rnd.state.phase == PLAY:
        turn = rnd.state.turn
        assert turn is not None
        seat, index = turn
        if rnd.state.seats[seat].hands[index].status != DECIDE:
            card(str(seat), index)
            continue
        hand = rnd.state.seats[seat].hands[index]
        # A doubled hand waiting for its decision (the rescue is offered) stands or rescues, half and half.
        action = rng.choice(["stand", "rescue"] if hand.double else PLAY_ACTIONS)
        if not apply(Event("decision", seat=seat, action=action, hand=index)):
            assert apply(Event("decision", seat=seat, action="stand", hand=index))
    if len(rnd.state.dealer) == 1:
        assert apply(Event("cards", to="dealer", cards=(hole,)))
    while rnd.state.phase != COMPLETE:
        card("dealer")
    state = rnd.state
    assert isinstance(state, BlackjackState)
    return rnd.events, rnd.settle(), state


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.sampled_from(sorted(PROPERTY_RULES)))
def test_random_rounds_replay_and_keep_their_invariants(rng: Any, table: tuple[int, bool]) -> None:
    r = PROPERTY_RULES[table]
    events, s, state = random_round(rng, r)
    # Replay is deterministic: the same events give the same settlement, byte for byte.
    again = play(GAME, r, METERS, events)
    assert json.dumps(again.to_json()) == json.dumps(s.to_json())
    for o in s.outcomes:
        if o.result is Result.LOSE:
            # A losing wager costs exactly its stake; only a surrender costs half.
            assert o.net == -o.stake or (o.section == "§ 633a.9" and o.net == -(o.stake - o.stake // 2))
        # § 633a.13(o): no payout limit holds a wager this table offers.
        assert PAYOUT_LIMITED not in o.flags
        if o.wager.startswith("double_down"):
            assert abs(o.net) <= o.stake
        if o.hand.endswith(", rescued"):
            # § 635a.10 rescue: the original wager lost, exactly; the Double Down Wager returned, exactly.
            assert r.spanish_21_rescue
            if o.wager.startswith("blackjack"):
                assert o.result is Result.LOSE and o.net == -o.stake
            else:
                assert o.wager.startswith("double_down") and o.result is Result.PUSH and o.net == 0
    for seat in state.seats.values():
        for hand in seat.hands:
            if hand.double:
                # Never on a Blackjack, never more than the wager, one additional card only; on more than
                # two cards only at a Spanish 21 table (§ 635a.10(a), § 633a.10).
                assert not hand.is_blackjack and 0 < hand.double <= hand.stake
                assert len(hand.cards) == 3 or (r.spanish_21_offered and len(hand.cards) > 3)
            if hand.rescued:
                assert hand.double and not hand.bust and not hand.surrendered
    if r.spanish_deck:
        assert all(c.rank != TEN for c in state.all_cards())
    for name, amount in s.meters.items():
        assert amount >= r.reset(name)
    # No payout at all is more than what the rules allow: the largest is 100% of a meter and 200 to 1.
    assert all(o.net <= max(METERS.values()) + 200 * o.stake for o in s.outcomes)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans())
def test_settlement_order_is_by_stage_then_from_the_dealers_right(rng: Any, spanish_21: bool) -> None:
    _, s, _ = random_round(rng, PROPERTY_RULES[6, spanish_21])
    main = [o.seat for o in s.outcomes if o.wager.startswith(("blackjack", "double_down"))]
    if not s.void:
        even_money = {o.seat for o in s.outcomes if "even money" in o.note}
        main = [seat for seat in main if seat not in even_money]
        assert main == sorted(main, reverse=True)
