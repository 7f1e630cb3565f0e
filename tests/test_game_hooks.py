"""What each game declares through its hooks (controller/rules/core/hooks.py): what a round waits for,
its progressives and their meters, its devices. The checks every game passes alike are in
tests/test_conformance.py; here, what each game's rules say.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from controller.rules.core.engine import Game, Round
from controller.rules.core.events import Event, parse_event
from controller.rules.core.hooks import Actor, Devices, initial_meters
from controller.rules.core.options import load_rules
from controller.rules.core.record import load_record
from controller.rules.core.settlement import NOT_FROM_INVENTORY
from controller.rules.core.submission import parse_submission
from controller.rules.games import GAMES
from controller.rules.games.asia_poker import game as asia_poker_game
from controller.rules.games.blackjack import game as blackjack
from controller.rules.games.caribbean_stud import game as caribbean_stud
from controller.rules.games.fortune_asia_poker import game as fortune_asia_poker
from controller.rules.games.holdem_bonus import game as holdem_bonus
from controller.rules.games.poker_room import game as poker_room
from controller.rules.games.three_card_poker import game as three_card_poker
from controller.rules.games.three_dice_football import game as three_dice_football

from .rounds import NO_MORE_BETS, cards, decide, money, round_refuses, second_area, throw, wager

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def example_rules(game: str) -> Any:
    path = EXAMPLES / game / "rules-submission.toml"
    return parse_submission(path.read_text("utf-8"), GAMES, str(path)).rules


def example_events(game: str, record: str) -> list[Event]:
    data = json.loads((EXAMPLES / game / record).read_text("utf-8"))
    return list(load_record(data, GAMES, record).events)


def begun(game: Game[Any, Any], rules: object, *events: Event) -> Round[Any, Any]:
    rnd = Round.begin(game, rules, initial_meters(game.progressives(rules)))
    for e in events:
        rnd.apply(e)
    return rnd


# --- progressives: every game's come from the game ------------------------------------------------


def test_a_fortune_asia_poker_round_begins_with_its_meter() -> None:
    """§ 659a.12(d) gives the meter a reset amount and no other: a table's first round begins with
    the meter there, and a hand that wins a share of it is paid without a meter event."""
    game = fortune_asia_poker.GAME
    rules = example_rules("fortune-asia-poker")
    (progressive,) = game.progressives(rules)
    assert progressive.name == "progressive" and progressive.sensor and progressive.wager == money("1.00")
    assert progressive.initial == progressive.reset == rules.progressive_reset == money("10000.00")
    assert "seven-card straight flush" in progressive.meter_rows
    assert initial_meters(game.progressives(rules)) == {"progressive": money("10000.00")}
    # The example's natural seven-card straight flush (seat 6), without its record's meter.
    events = example_events("fortune-asia-poker", "progressive-and-envy.json")
    rnd = Round.begin(game, rules, {})
    for e in events:
        rnd.apply(e)
    assert [w.who for w in rnd.waiting_for()] == [Actor.METER], "no meter: the round waits for it"
    rnd = begun(game, rules, *events)
    assert not rnd.waiting_for()
    paid = rnd.settle().for_seat(6)["progressive"]
    assert paid.net == money("10000.00")  # 100% of the meter at its reset amount
    assert NOT_FROM_INVENTORY in paid.flags


def test_fortune_asia_poker_declares_no_progressive_where_none_is_offered() -> None:
    rules = load_rules(
        fortune_asia_poker.FortuneAsiaPokerRules, {}, "t", fortune_asia_poker.GAME.rules_checks
    )
    assert fortune_asia_poker.GAME.progressives(rules) == ()


def test_blackjacks_three_progressives_are_in_its_rounds_meters() -> None:
    game = blackjack.GAME
    rules = example_rules("blackjack")
    declared = {p.name: p for p in game.progressives(rules)}
    assert set(declared) == {"bad_beat", "hit_and_run", "straight_jack"}
    assert {n: p.initial for n, p in declared.items()} == {
        "bad_beat": money("2500.00"),
        "hit_and_run": money("1000.00"),
        "straight_jack": money("5000.00"),
    }
    assert {n: p.rate_of_progression for n, p in declared.items()} == {
        "bad_beat": "12%",
        "hit_and_run": "10%",
        "straight_jack": "15%",
    }
    # Each counted by its own wagering device at the seat (§ 633a.2(c), (d)(1)): one chip is one
    # wager of the Rules Submission's <wager>.wager.
    assert all(p.sensor for p in declared.values())
    assert {n: p.wager for n, p in declared.items()} == {
        "bad_beat": money("5.00"),
        "hit_and_run": money("1.00"),
        "straight_jack": money("1.00"),
    }
    assert declared["straight_jack"].meter_rows == (  # § 633a.13(m)(1): 10% and 100% of the meter
        "six-card straight with an ace of diamonds, clubs or hearts",
        "six-card straight with an ace of spades",
    )
    assert declared["hit_and_run"].meter_rows == ("seven_cards", "eight_or_more_cards")
    assert declared["bad_beat"].meter_rows == ("dealer_21_six_cards", "dealer_21_seven_or_more_cards")
    rnd = begun(game, rules, *example_events("blackjack", "normal-round.json"))
    assert rnd.state.meters == initial_meters(declared.values())
    assert set(rnd.settle().meters) == set(declared)


def test_blackjack_offers_no_progressive_by_default() -> None:
    rules = load_rules(blackjack.BlackjackRules, {}, "t", blackjack.GAME.rules_checks)
    assert blackjack.GAME.progressives(rules) == ()


def test_caribbean_studs_progressive_is_its_rules_submissions() -> None:
    rules = example_rules("caribbean-stud")
    (p,) = caribbean_stud.GAME.progressives(rules)
    assert (p.name, p.sensor, p.wager, p.initial, p.reset, p.rate_of_progression) == (
        "progressive",
        True,
        money("1.00"),
        money("10000.00"),
        money("10000.00"),
        "18%",
    )
    assert p.meter_rows == ("royal flush", "straight flush")  # paytable B: 100% and 10% of meter


@pytest.mark.parametrize(
    "name", ["three-card-poker", "holdem-bonus", "asia-poker", "poker-room", "three-dice-football"]
)
def test_games_without_a_progressive_declare_none(name: str) -> None:
    assert GAMES[name].progressives(example_rules(name)) == ()


# --- devices ------------------------------------------------------------------------------------


def test_only_blackjack_needs_the_hole_card_reader() -> None:
    needs = {name: GAMES[name].devices(example_rules(name)).hole_card_reader for name in GAMES}
    assert needs == {name: name == "blackjack" for name in GAMES}


def test_devices_follow_the_dealing_and_the_shuffle() -> None:
    rules = load_rules(caribbean_stud.CaribbeanStudRules, {"dealing": "hand", "shuffler": "automated"}, "t")
    assert caribbean_stud.GAME.devices(rules) == Devices(shuffler=True, section="§ 639a.5(a), § 639a.10")
    rules = load_rules(
        holdem_bonus.HoldemBonusRules, {"dealing": "automated shoe", "shuffler": "manual"}, "t"
    )
    assert holdem_bonus.GAME.devices(rules).names == ("shoe",)
    two_decks = dataclasses.replace(example_rules("three-card-poker"), decks=2)
    assert three_card_poker.GAME.devices(two_decks).names == ("shuffler",)  # § 649a.3
    one_deck = dataclasses.replace(two_decks, decks=1)
    assert three_card_poker.GAME.devices(one_deck).names == ()
    assert three_dice_football.GAME.devices(example_rules("three-dice-football")).names == ()
    assert poker_room.GAME.devices(example_rules("poker-room")).names == ()


# --- what a round waits for, game by game ---------------------------------------------------------


def who(rnd: Round[Any, Any]) -> list[tuple[Actor, int | None, str]]:
    return [(w.who, w.seat, w.section) for w in rnd.waiting_for()]


def test_caribbean_stud_waits_for_the_dealer_the_cards_each_player_then_the_meter() -> None:
    rules = example_rules("caribbean-stud")
    rnd = Round.begin(caribbean_stud.GAME, rules, {})
    assert who(rnd) == [(Actor.DEALER, None, "§ 639a.8(b)")]
    for e in (
        wager(1, "ante", "10.00"),
        wager(1, "progressive", "1.00"),
        wager(3, "ante", "10.00"),
        NO_MORE_BETS,
    ):
        rnd.apply(e)
    assert who(rnd) == [(Actor.SHOE, None, "§ 639a.8(d)")]
    for e in (cards(1, "2c 3d 4h 5s 7c"), cards(3, "Ac Ad 9h 9s 2d"), cards("dealer", "Kc Kd Qh Js 8d")):
        rnd.apply(e)
    assert who(rnd) == [(Actor.PLAYER, 1, "§ 639a.11(b)")]  # from the dealer's left
    rnd.apply(decide(1, "fold"))
    assert who(rnd) == [(Actor.PLAYER, 3, "§ 639a.11(b)")]
    rnd.apply(decide(3, "bet"))
    assert who(rnd) == [(Actor.METER, None, "§ 639a.12(d)(4)")]
    round_refuses(rnd, wager(2, "ante", "5.00"), "no more bets")
    rnd.apply(Event("meter", name="progressive", amount=money("12000.00")))
    assert who(rnd) == []
    assert rnd.settle().for_seat(3)["ante"].net == money("10.00")


def test_blackjack_waits_for_the_reader_then_each_hand() -> None:
    rnd = Round.begin(blackjack.GAME, example_rules("blackjack"), {})
    assert who(rnd)[0][0] is Actor.DEALER
    for e in (
        wager(1, "blackjack", "10.00"),
        wager(2, "blackjack", "10.00"),
        NO_MORE_BETS,
        cards(1, "9c 7d"),
    ):
        rnd.apply(e)
    assert who(rnd) == [(Actor.SHOE, 2, "§ 633a.7")]
    for e in (cards(2, "Tc 6d"), cards("dealer", "Kh")):
        rnd.apply(e)
    assert who(rnd) == [(Actor.READER, None, "§ 633a.7(h)")]
    rnd.apply(Event("hole_card_reader", result="no_blackjack"))
    assert who(rnd) == [(Actor.PLAYER, 1, "§ 633a.7")]
    rnd.apply(decide(1, "hit"))
    assert who(rnd) == [(Actor.SHOE, 1, "§ 633a.7")]


def test_blackjack_waits_for_an_unknown_meter_a_hand_wins_a_share_of() -> None:
    rules = example_rules("blackjack")
    rnd = Round.begin(blackjack.GAME, rules, {})  # no meters given
    for e in (wager(4, "blackjack", "10.00"), wager(4, "straight_jack", "5.00"), NO_MORE_BETS):
        rnd.apply(e)
    for e in (cards(4, "2h 3d"), cards("dealer", "7c")):  # a 7 up: no card reader (§ 633a.7(h))
        rnd.apply(e)
    for c in ("As", "4c", "5s", "6h"):
        rnd.apply(decide(4, "hit"))
        rnd.apply(cards(4, c))
    rnd.apply(cards("dealer", "Tc"))  # six cards, a 21: the hand is done; the dealer stands on 17
    assert [(w.who, w.seat) for w in rnd.waiting_for()] == [(Actor.METER, 4)]
    assert "straight_jack meter" in rnd.waiting_for()[0].what


def test_three_card_poker_waits_for_the_dealers_cards_last() -> None:
    rnd = Round.begin(three_card_poker.GAME, example_rules("three-card-poker"), {})
    for e in (wager(2, "ante", "10.00"), NO_MORE_BETS):
        rnd.apply(e)
    assert who(rnd) == [(Actor.SHOE, 2, "§ 649a.8-649a.10")]
    rnd.apply(cards(2, "As 7h 3d"))
    assert who(rnd) == [(Actor.PLAYER, 2, "§ 649a.11(b)")]
    rnd.apply(decide(2, "play"))
    assert who(rnd) == [(Actor.SHOE, None, "§ 649a.8-649a.10")]


def test_holdem_bonus_waits_street_by_street() -> None:
    rnd = Round.begin(holdem_bonus.GAME, example_rules("holdem-bonus"), {})
    for e in (wager(1, "ante", "5.00"), NO_MORE_BETS, cards(1, "As Ad"), cards("dealer", "2c 7h")):
        rnd.apply(e)
    assert who(rnd) == [(Actor.PLAYER, 1, "§ 647a.11(b)")]
    rnd.apply(decide(1, "bet", "10.00"))
    assert who(rnd) == [(Actor.SHOE, None, "§ 647a.11(c)")]


def test_asia_poker_waits_for_the_starting_position_then_the_settings() -> None:
    rules = example_rules("asia-poker")
    rnd = Round.begin(asia_poker_game.GAME, rules, {})
    for e in (wager(3, "asia_poker", "10.00"), NO_MORE_BETS):
        rnd.apply(e)
    assert who(rnd) == [(Actor.DEALER, None, "§ 659a.5(g)")]


def test_three_dice_football_waits_for_a_quarterback_then_the_throw() -> None:
    rnd = Round.begin(three_dice_football.GAME, example_rules("three-dice-football"), {})
    assert who(rnd) == [(Actor.PLAYER, None, "§ 661a.4(b), (c)")]
    for e in (decide(2, "accept_dice"), wager(2, "touchdown", "10.00")):
        rnd.apply(e)
    assert who(rnd) == [(Actor.SHOE, 2, "§ 661a.6")]
    rnd.apply(throw(1, 2, 6))  # a turnover: the game is over
    assert who(rnd) == []


def test_poker_room_waits_for_the_showdowns_cards() -> None:
    rnd = Round.begin(poker_room.GAME, example_rules("poker-room"), {})
    assert who(rnd)[0][0] is Actor.DEALER
    for e in (
        parse_event({"type": "position", "value": 2}),
        wager(3, "blind", "1.00"),
        wager(4, "blind", "2.00"),
    ):
        rnd.apply(e)
    rnd.apply(NO_MORE_BETS)
    assert [w.who for w in rnd.waiting_for()] == [Actor.SHOE]


@pytest.mark.parametrize("name", sorted(set(GAMES) - {"asia-poker", "fortune-asia-poker"}))
def test_only_asia_poker_takes_a_second_area(name: str) -> None:
    # § 659a.7(f) is Asia Poker's: every other game refuses the event, changing nothing.
    rnd = begun(GAMES[name], example_rules(name))
    round_refuses(rnd, second_area(2, 3), "second_area")
