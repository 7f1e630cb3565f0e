"""Three Dice Football, ch. 661a: the game, its wagers, its irregularities and its exact odds.

Expected amounts are worked out by hand from § 661a.8 in each test. The reference model at the
end of the file (:func:`model_game`, :func:`model_single`) is written from the text apart from the
product: the property tests compare the two over random dice, and the analyzer is checked
against a brute-force enumeration of dice sequences through the state machine and against the
model's own recursion.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.core.engine import IllegalEvent, play
from controller.rules.core.events import Event
from controller.rules.core.money import parse_money
from controller.rules.core.options import RulesError, load_rules, rules_to_mapping
from controller.rules.core.record import load_record, replay
from controller.rules.core.settlement import Result, Settlement
from controller.rules.core.submission import parse_submission
from controller.rules.games.three_dice_football.game import (
    FULL_GAME_WAGERS,
    GAME,
    GAME_LENGTHS,
    IRREGULARITIES,
    SINGLE_PLAY_WAGERS,
    WAGERS,
    End,
    Field,
    FootballState,
    Kind,
    Roll,
    ThreeDiceFootballRules,
    all_rolls,
    dice_next,
    down_outcomes,
    stakes,
)
from controller.rules.games.three_dice_football.odds import (
    analyze,
    format_table,
    game_length_distribution,
    game_results,
)

from .rounds import NO_MORE_BETS, decide, irregularity, refused, throw, wager

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "three-dice-football"
DOC = ROOT / "docs" / "games" / "three-dice-football.md"
RULES = ThreeDiceFootballRules()


# --- helpers ---------------------------------------------------------------------------------


def run(*events: Event, rules: ThreeDiceFootballRules = RULES) -> FootballState:
    state = GAME.start(rules, {})
    for e in events:
        state = GAME.apply(state, e)
    return state


def settle(*events: Event) -> Settlement:
    return play(GAME, RULES, {}, events)


def nets(s: Settlement) -> dict[tuple[int, str], int]:
    return {(o.seat, o.wager): o.net for o in s.outcomes}


OPEN = (
    decide(1, "accept_dice"),
    wager(1, "touchdown", "10.00"),
)  # a Quarterback with a wager, ready for the first throw
NO_GAIN = throw(1, 1, 2)  # 2 against 2
TEN = throw(6, 5, 1)  # a gain of 10


# --- the throw and the field, § 661a.1 and § 661a.6(c), (e) ----------------------------------


def test_the_worked_example_ten_against_two_moves_eight_yards() -> None:
    # § 661a.6(c)(1): "if the total of the Offensive Dice is 10 and the value of the Defensive
    # Die is 2, the dealer shall move the Yard Marker toward the end zone 8 yards"
    for roll in (throw(6, 4, 2), throw(5, 5, 2), throw(4, 6, 2)):
        state = run(*OPEN, roll)
        assert state.field == Field(marker=20 - 8, down=2, goal=False, play=2)
        assert state.downs[0].roll.kind is Kind.GAIN and state.downs[0].roll.yards == 8


def test_the_kickoff() -> None:
    # § 661a.6(a): 1st Down, the Yard Marker on the 20, Play 1
    state = GAME.start(RULES, {})
    assert state.field == Field(20, 1, False, 1)
    assert state.field.announcement() == "1st Down, 20 yards to the end zone"
    assert state.quarterback is None and state.phase == "play"


@pytest.mark.parametrize("dice", [(1, 1, 6), (1, 2, 6), (2, 1, 6)])
def test_a_turnover_is_a_defensive_6_with_offense_2_or_3(dice: tuple[int, int, int]) -> None:
    # § 661a.1 "Turnover"; § 661a.6(c)(4): the game ends at once
    state = run(*OPEN, throw(*dice))
    assert state.end is End.TURNOVER and state.phase == "over" and len(state.downs) == 1
    assert Roll.of(dice).kind is Kind.TURNOVER


@pytest.mark.parametrize(
    ("dice", "kind"),
    [
        ((2, 2, 6), Kind.PENALTY),  # 4 against 6: a penalty, not a turnover
        ((1, 1, 5), Kind.PENALTY),  # 2 against 5: the Defensive Die is not a 6
        ((1, 2, 5), Kind.PENALTY),
        ((3, 3, 6), Kind.NO_GAIN),
        ((6, 6, 6), Kind.TRIPS_TD),
    ],
)
def test_what_is_not_a_turnover(dice: tuple[int, int, int], kind: Kind) -> None:
    assert Roll.of(dice).kind is kind


@pytest.mark.parametrize("face", range(1, 7))
def test_every_triple_is_a_trips_td(face: int) -> None:
    # § 661a.1 "Trips TD", § 661a.6(c)(5): Yard Marker to the end zone, the game ends; 1-1-1 is
    # not read as a gain of 1, nor 6-6-6 as a gain of 6.
    state = run(*OPEN, throw(face, face, face))
    assert state.end is End.TRIPS_TD and state.field.marker == 0 and len(state.downs) == 1


def test_a_penalty_costs_one_yard_and_the_down() -> None:
    # § 661a.6(c)(2); § 661a.1 "Penalty": Offensive total below the Defensive Die
    state = run(*OPEN, throw(1, 2, 5))
    assert state.field == Field(21, 2, False, 2)
    state = GAME.apply(state, throw(2, 2, 5))
    assert state.field.announcement() == "3rd Down, 22 yards to the end zone"


def test_no_gain_is_the_next_down() -> None:
    # § 661a.6(c)(3)
    assert run(*OPEN, throw(2, 3, 5)).field == Field(20, 2, False, 2)


def test_three_downs_without_a_first_and_goal_end_the_game() -> None:
    # § 661a.6(e)(1)
    state = run(*OPEN, throw(3, 2, 1), NO_GAIN, throw(2, 2, 1))  # 4 yards, none, 3 yards: at the 13
    assert state.end is End.TURNOVER_ON_DOWNS and state.field.marker == 13 and len(state.downs) == 3


def test_first_and_goal_is_earned_when_the_10_is_reached() -> None:
    # § 661a.6(e): reaching the 10 on 1st Down earns the 1st & Goal at once, and three more downs
    state = run(*OPEN, TEN)
    assert state.field == Field(10, 1, True, 2)
    assert state.field.announcement() == "1st & Goal, 10 yards to the end zone"
    state = run(*OPEN, TEN, NO_GAIN, NO_GAIN)
    assert state.field.announcement() == "3rd & Goal, 10 yards to the end zone" and state.end is None
    state = GAME.apply(state, NO_GAIN)
    assert state.end is End.TURNOVER_ON_DOWNS and len(state.downs) == 4


def test_the_11_is_not_the_10() -> None:
    state = run(*OPEN, throw(6, 4, 1))  # 9 yards: at the 11, 2nd Down
    assert state.field == Field(11, 2, False, 2)


def test_a_penalty_in_the_goal_series_stays_in_it() -> None:
    state = run(*OPEN, TEN, throw(1, 1, 3))  # at the 10, then back to the 11
    assert state.field == Field(11, 2, True, 3)
    assert state.field.announcement() == "2nd & Goal, 11 yards to the end zone"


def test_reaching_the_goal_line_is_a_touchdown() -> None:
    # § 661a.1 "Touchdown": 10 + 10 from the 20 reaches the 0 yard line exactly
    state = run(*OPEN, TEN, TEN)
    assert state.end is End.TOUCHDOWN and state.field.marker == 0 and len(state.downs) == 2
    state = run(*OPEN, TEN, throw(6, 6, 1))  # 11 from the 10: past it
    assert state.end is End.TOUCHDOWN


def test_the_longest_game_is_six_plays() -> None:
    state = run(*OPEN, NO_GAIN, NO_GAIN, TEN, NO_GAIN, NO_GAIN, NO_GAIN)
    assert state.end is End.TURNOVER_ON_DOWNS and len(state.downs) == 6
    refused(GAME, state, NO_GAIN, "the game is over")


def test_the_six_play_bound_over_every_reachable_field() -> None:
    """The bound, exhaustively: from the kickoff, every field the 216 throws reach is carried
    forward; after six throws no game is running, and some game lasts six plays."""
    fields = {Field()}
    longest = 0
    for n in range(1, 8):
        carried = set()
        for f in fields:
            for roll in all_rolls():
                after, end = f.after(roll)
                if end is None:
                    carried.add(after)
                else:
                    longest = max(longest, n)
        fields = carried
        if n >= 6:
            assert not fields
    assert longest == 6
    # Every field ever reached is a legal place on the layout: yards 0-23 (§ 661a.2(b)(4)).


def test_the_yard_marker_stays_on_the_field() -> None:
    # § 661a.2(b)(4): "Each yard, from 1 through 23, shall also be labeled": three penalties from
    # the 20 is as far back as a game goes.
    seen, frontier, markers = set(), {Field()}, set()
    while frontier:
        seen |= frontier
        nxt = set()
        for f in frontier:
            for roll in all_rolls():
                after, end = f.after(roll)
                markers.add(after.marker)
                if end is None and after not in seen:
                    nxt.add(after)
        frontier = nxt
    assert markers == set(range(24))  # the 0 is a touchdown; a third penalty ends on the 23
    assert {f.marker for f in seen} == set(range(1, 23))  # a game in play is on yards 1-22


# --- single play wagers, § 661a.3(d) at § 661a.8(b) ------------------------------------------


@pytest.mark.parametrize(
    ("name", "dice", "net"),
    [
        ("trips_td", (3, 3, 3), "30 to 1"),
        ("trips_td", (3, 3, 2), None),
        ("penalty", (1, 2, 5), "9 to 1"),
        ("penalty", (1, 2, 6), "9 to 1"),  # a turnover
        ("penalty", (3, 3, 6), None),  # no gain
        ("turnover", (1, 2, 6), "60 to 1"),
        ("turnover", (2, 2, 6), None),  # a penalty
        ("cover_three", (5, 5, 5), "7 to 1"),
        ("cover_three", (1, 1, 4), "7 to 1"),
        ("cover_three", (2, 1, 6), "7 to 1"),
        ("cover_three", (3, 3, 6), None),
        ("no_gain", (3, 3, 6), "5 to 1"),
        ("no_gain", (1, 3, 5), "5 to 1"),
        ("no_gain", (1, 1, 6), "5 to 1"),
        ("no_gain", (2, 2, 3), None),  # a gain of 1
        ("no_gain", (2, 2, 2), None),  # Trips TD
        ("big_play", (6, 2, 1), "4 to 1"),  # 7 yards
        ("big_play", (6, 1, 1), None),  # 6 yards
        ("big_play", (1, 1, 1), "4 to 1"),  # Trips TD
        ("over_four_yards", (4, 2, 1), "1 to 1"),  # 5 yards
        ("over_four_yards", (3, 2, 1), None),  # 4 yards
        ("over_four_yards", (6, 6, 6), "7 to 1"),  # "Over 4 Yards Wager with Trips TD 7 to 1"
        ("over_four_yards", (2, 2, 2), "7 to 1"),
        ("under_four_yards", (2, 2, 1), "1 to 1"),  # 3 yards
        ("under_four_yards", (3, 2, 1), None),  # 4 yards
        ("under_four_yards", (3, 3, 6), "1 to 1"),  # no gain: 0 yards
        ("under_four_yards", (1, 1, 3), "1 to 1"),  # penalty
        ("under_four_yards", (1, 2, 6), "1 to 1"),  # turnover
        ("under_four_yards", (3, 3, 3), None),  # "A Trips TD does not qualify"
    ],
)
def test_every_single_play_wager_at_its_odds(name: str, dice: tuple[int, int, int], net: str | None) -> None:
    state = run(*OPEN, wager(4, name, "10.00"), throw(*dice))
    (outcome,) = down_outcomes(state.downs[0])
    assert outcome.wager == f"{name}@1" and outcome.seat == 4 and outcome.stake == 1000
    expected = {
        None: -1000,
        "30 to 1": 30000,
        "9 to 1": 9000,
        "60 to 1": 60000,
        "7 to 1": 7000,
        "5 to 1": 5000,
        "4 to 1": 4000,
        "1 to 1": 1000,
    }[net]
    assert outcome.net == expected
    assert outcome.result is (Result.LOSE if net is None else Result.WIN)


def test_single_play_wagers_read_the_dice_not_the_field() -> None:
    # § 661a.6(d): "The value of the dice determines the outcome of single play wagers, not the
    # actual yards moved on the field": a gain of 9 from the 3 moves 3 yards and is a Big Play.
    state = run(*OPEN, TEN, throw(6, 5, 4))  # the 10, then 7 yards: 2nd & Goal at the 3
    assert state.field == Field(3, 2, True, 3)
    s = settle(
        *OPEN,
        TEN,
        throw(6, 5, 4),
        wager(2, "big_play", "5.00"),
        wager(2, "over_four_yards", "5.00"),
        throw(6, 4, 1),
    )
    assert nets(s)[(2, "big_play@3")] == 2000  # 4 to 1 on $5
    assert nets(s)[(2, "over_four_yards@3")] == 500


def test_a_single_play_wager_rides_one_throw() -> None:
    state = run(*OPEN, wager(2, "penalty", "1.00"), NO_GAIN)
    assert state.single_play == ()
    assert [o.wager for o in down_outcomes(state.downs[0])] == ["penalty@1"]
    state = GAME.apply(state, NO_GAIN)
    assert state.downs[1].wagers == ()


# --- full game wagers, § 661a.3(b) at § 661a.8(a) --------------------------------------------

GAMES = {
    "trips on 1": [(2, 2, 2)],
    "td on 2": [(6, 5, 1), (6, 5, 1)],
    "td on 3": [(6, 5, 1), (1, 1, 2), (6, 5, 1)],
    "td on 4": [(6, 5, 1), (1, 1, 2), (1, 1, 2), (6, 5, 1)],
    "td on 5": [(1, 1, 2), (6, 5, 1), (1, 1, 2), (1, 1, 2), (6, 5, 1)],
    "td on 6": [(1, 1, 2), (1, 1, 2), (6, 5, 1), (1, 1, 2), (1, 1, 2), (6, 5, 1)],
    "turnover on 3": [(1, 1, 2), (1, 1, 2), (1, 2, 6)],
    "downs after 3": [(1, 1, 2), (1, 1, 2), (1, 1, 2)],
}

# $10 on each wager; what each wins, by hand from § 661a.8(a) (None: it loses the $10).
FULL_GAME_NETS: dict[str, dict[str, int | None]] = {
    "touchdown": {g: (1000 if g.startswith(("td", "trips")) else None) for g in GAMES},
    "defense": {g: (None if g.startswith(("td", "trips")) else 800) for g in GAMES},  # 4 to 5
    "quick_strike_td": {
        "trips on 1": 8000,
        "td on 2": 5000,
        "td on 3": 3000,
        "td on 4": 1000,
        "td on 5": None,
        "td on 6": None,
        "turnover on 3": None,
        "downs after 3": None,
    },
    "game_changer": {g: (5000 if g in ("trips on 1", "turnover on 3") else None) for g in GAMES},
    "game_length_1": {g: (22000 if g == "trips on 1" else None) for g in GAMES},
    "game_length_2": {g: (22000 if g == "td on 2" else None) for g in GAMES},
    "game_length_3": {
        g: (1200 if g in ("td on 3", "turnover on 3", "downs after 3") else None) for g in GAMES
    },
    "game_length_4": {g: (5000 if g == "td on 4" else None) for g in GAMES},
    "game_length_5": {g: (3000 if g == "td on 5" else None) for g in GAMES},
    "game_length_6": {g: (6000 if g == "td on 6" else None) for g in GAMES},
}


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("name", list(FULL_GAME_NETS))
def test_every_full_game_wager_at_its_odds(name: str, game: str) -> None:
    s = settle(decide(3, "accept_dice"), wager(3, name, "10.00"), *(throw(*d) for d in GAMES[game]))
    (outcome,) = s.outcomes
    expected = FULL_GAME_NETS[name][game]
    assert outcome.net == (-1000 if expected is None else expected), (name, game)


@pytest.mark.parametrize(
    ("roll", "net"),
    [
        ((1, 2, 3), 1000),  # a 1 on one of the dice, 1 to 1
        ((5, 4, 1), 1000),
        ((1, 1, 5), 10000),  # a 1 on two of the dice, 10 to 1
        ((1, 6, 1), 10000),
        ((1, 1, 1), 50000),  # a triple of 1s, 50 to 1
        ((4, 4, 4), 10000),  # any triple other than 1s, 10 to 1
        ((6, 6, 6), 10000),
        ((2, 3, 4), -1000),
        ((6, 6, 5), -1000),
    ],
)
def test_the_extra_point_wager_at_its_odds(roll: tuple[int, int, int], net: int) -> None:
    state = run(decide(3, "accept_dice"), wager(3, "extra_point", "10.00"), TEN, TEN)
    assert state.end is End.TOUCHDOWN and state.phase == "extra_point"
    with pytest.raises(IllegalEvent, match="extra point roll"):
        GAME.settle(state)
    s = GAME.settle(GAME.apply(state, throw(*roll)))
    assert nets(s) == {(3, "extra_point"): net}


def test_the_extra_point_roll_only_when_someone_bet_it() -> None:
    # § 661a.6(f)(1): "If any player at the table has placed an Extra Point Wager"
    state = run(*OPEN, TEN, TEN)
    assert state.phase == "over"
    refused(GAME, state, throw(1, 1, 1), "the game is over")
    state = run(
        decide(1, "accept_dice"),
        wager(1, "extra_point", "10.00"),
        wager(1, "extra_point", "0.00"),
        wager(1, "touchdown", "10.00"),
        TEN,
        TEN,
    )
    assert state.phase == "over"  # taken down before the first throw


def test_an_extra_point_wager_loses_without_a_touchdown_and_no_roll_is_thrown() -> None:
    state = run(decide(3, "accept_dice"), wager(3, "extra_point", "10.00"), NO_GAIN, NO_GAIN, NO_GAIN)
    assert state.phase == "over"
    assert nets(GAME.settle(state)) == {(3, "extra_point"): -1000}


@pytest.mark.parametrize(("stake", "net"), [("10.00", 800), ("7.25", 580), ("1.01", 80), ("0.04", 3)])
def test_the_defense_wager_pays_4_to_5_rounded_down(stake: str, net: int) -> None:
    # 4 to 5: $1.01 wins 80.8 cents, paid 80; 4 cents wins 3.2, paid 3
    s = settle(decide(3, "accept_dice"), wager(3, "defense", stake), NO_GAIN, NO_GAIN, NO_GAIN)
    assert nets(s) == {(3, "defense"): net}


# --- settlement order, § 661a.6(d), (f) ------------------------------------------------------


def test_settlement_order_after_a_touchdown() -> None:
    # § 661a.6(f)(1): Defense collected; single play wagers and full game wagers but Touchdown and
    # Extra Point; the extra point roll; Touchdown paid; Extra Point settled. Each stage from the
    # highest seat down; earlier downs' single play wagers were settled after each down (d).
    s = settle(
        decide(2, "accept_dice"),
        wager(2, "touchdown", "10.00"),
        wager(2, "extra_point", "10.00"),
        wager(2, "defense", "10.00"),
        wager(2, "game_length_2", "10.00"),
        wager(9, "defense", "10.00"),
        wager(9, "quick_strike_td", "10.00"),
        wager(9, "penalty", "10.00"),
        wager(5, "touchdown", "10.00"),
        TEN,
        wager(5, "big_play", "10.00"),
        wager(2, "no_gain", "10.00"),
        TEN,
        throw(2, 3, 4),
    )
    assert [(o.seat, o.wager) for o in s.outcomes] == [
        (9, "penalty@1"),
        (9, "defense"),
        (2, "defense"),
        (5, "big_play@2"),
        (2, "no_gain@2"),
        (9, "quick_strike_td"),
        (2, "game_length_2"),
        (5, "touchdown"),
        (2, "touchdown"),
        (2, "extra_point"),
    ]
    assert nets(s)[(2, "extra_point")] == -1000 and nets(s)[(9, "quick_strike_td")] == 5000


def test_settlement_order_without_a_touchdown() -> None:
    # § 661a.6(f)(2): Touchdown and Extra Point collected, Defense paid, then the single play
    # wagers and the remaining full game wagers.
    s = settle(
        decide(4, "accept_dice"),
        wager(4, "game_changer", "10.00"),
        wager(4, "extra_point", "10.00"),
        wager(4, "touchdown", "10.00"),
        wager(7, "defense", "10.00"),
        wager(7, "game_length_1", "10.00"),
        wager(7, "turnover", "10.00"),
        wager(1, "defense", "10.00"),
        wager(1, "penalty", "10.00"),
        throw(2, 1, 6),
    )
    assert [(o.seat, o.wager) for o in s.outcomes] == [
        (4, "touchdown"),
        (4, "extra_point"),
        (7, "defense"),
        (1, "defense"),
        (7, "turnover@1"),
        (1, "penalty@1"),
        (7, "game_length_1"),
        (4, "game_changer"),
    ]
    assert nets(s) == {
        (4, "touchdown"): -1000,
        (4, "extra_point"): -1000,
        (7, "defense"): 800,
        (1, "defense"): 800,
        (7, "turnover@1"): 60000,
        (1, "penalty@1"): 9000,
        (7, "game_length_1"): 22000,
        (4, "game_changer"): 5000,
    }
    assert "Turnover on play 1, 20 yards to the end zone" in s.dealer


def test_nobody_but_the_quarterback_at_the_table() -> None:
    s = settle(decide(1, "accept_dice"), wager(1, "penalty", "1.00"), NO_GAIN, NO_GAIN, NO_GAIN)
    assert nets(s) == {(1, "penalty@1"): -100}
    assert s.void == "" and dict(s.meters) == {}


# --- irregularities, § 661a.5 ----------------------------------------------------------------


@pytest.mark.parametrize("kind", list(IRREGULARITIES))
def test_an_invalid_throw_decides_nothing_and_is_thrown_again(kind: str) -> None:
    section = {
        "no_roll": "§ 661a.5(c)",
        "dice_off_table": "§ 661a.5(b)",
        "die_on_die": "§ 661a.5(b)",
        "die_on_chips": "§ 661a.5(f)",
        "disputed_face": "§ 661a.5(g)",
    }[kind]
    state = run(
        decide(1, "accept_dice"),
        wager(1, "touchdown", "10.00"),
        wager(2, "penalty", "10.00"),
        NO_MORE_BETS,
        irregularity(kind, detail="detail"),
    )
    assert state.field == Field() and state.downs == () and state.end is None
    assert [(i.at, i.kind, i.section, i.detail) for i in state.irregularities] == [
        ("play 1", kind, section, "detail")
    ]
    assert state.single_play[0].name == "penalty" and not state.closed
    # It was a throw: full game wagers are fixed (§ 661a.3(c)); single play wagers are still taken.
    refused(GAME, state, wager(3, "defense", "10.00"), "§ 661a.3\\(c\\)")
    state = GAME.apply(state, wager(3, "no_gain", "10.00"))
    state = GAME.apply(state, throw(1, 2, 4))
    assert [(o.wager, o.net) for o in down_outcomes(state.downs[0])] == [
        ("no_gain@1", 5000),
        ("penalty@1", 9000),
    ]
    assert state.field.play == 2


def test_an_invalid_extra_point_roll_is_thrown_again() -> None:
    state = run(
        decide(3, "accept_dice"), wager(3, "extra_point", "10.00"), throw(5, 5, 5), irregularity("die_on_die")
    )
    assert state.phase == "extra_point" and state.irregularities[0].at == "the extra point roll"
    s = GAME.settle(GAME.apply(state, throw(1, 4, 4)))
    assert nets(s) == {(3, "extra_point"): 1000}
    assert "the extra point roll: die on die (§ 661a.5(b))" in s.dealer


def test_irregularities_refused() -> None:
    refused(GAME, GAME.start(RULES, {}), irregularity("no_roll"), "no Quarterback")
    state = run(*OPEN)
    refused(GAME, state, irregularity("no_rol"), "did you mean 'no_roll'")
    refused(GAME, state, Event("irregularity", kind="no_roll", seat=17), "seat 17")
    refused(GAME, run(*OPEN, TEN, TEN), irregularity("no_roll"), "the game is over")


# --- the Quarterback, § 661a.4(b), (c) and § 661a.7 ------------------------------------------


def test_the_dice_go_clockwise_until_a_player_accepts() -> None:
    rules = ThreeDiceFootballRules(seats=12)
    state = run(decide(11, "reject_dice"), decide(12, "reject_dice"), rules=rules)
    assert state.quarterback is None and state.offers == (11, 12)
    refused(GAME, state, decide(12, "accept_dice"), "already declined")
    refused(GAME, state, decide(11, "reject_dice"), "already declined")
    state = GAME.apply(state, decide(3, "reject_dice"))  # round past 12 to 1, 2, 3 (empty seats skipped)
    refused(GAME, state, decide(2, "accept_dice"), "not next")
    state = GAME.apply(state, decide(5, "accept_dice"))
    assert state.quarterback == 5
    refused(GAME, state, decide(6, "accept_dice"), "seat 5 is the Quarterback")
    refused(GAME, state, decide(6, "retain_dice"), "seat 5 is the Quarterback")


def test_retaining_the_dice_is_before_any_offer() -> None:
    assert run(decide(7, "retain_dice")).quarterback == 7
    refused(GAME, run(decide(2, "reject_dice")), decide(7, "retain_dice"), "§ 661a.7\\(a\\)")


def test_who_has_the_dice_after_the_game() -> None:
    # § 661a.7(a): a touchdown or Trips TD, the Quarterback keeps the dice; otherwise they go to
    # the player to the Quarterback's immediate left, then clockwise.
    assert dice_next(run(decide(5, "accept_dice"), wager(5, "defense", "10.00"), TEN, TEN)) == ("retain", 5)
    assert dice_next(run(decide(5, "accept_dice"), wager(5, "defense", "10.00"), throw(3, 3, 3))) == (
        "retain",
        5,
    )
    assert dice_next(run(decide(5, "accept_dice"), wager(5, "defense", "10.00"), throw(1, 1, 6))) == (
        "offer",
        6,
    )
    assert dice_next(
        run(decide(16, "accept_dice"), wager(16, "defense", "10.00"), NO_GAIN, NO_GAIN, NO_GAIN)
    ) == ("offer", 1)
    rules = ThreeDiceFootballRules(seats=12)
    assert dice_next(
        run(decide(12, "accept_dice"), wager(12, "defense", "10.00"), throw(1, 1, 6), rules=rules)
    ) == ("offer", 1)
    with pytest.raises(IllegalEvent, match="not over"):
        dice_next(run(decide(5, "accept_dice"), wager(5, "defense", "10.00"), NO_GAIN))


def test_the_quarterback_must_have_a_wager_before_the_first_throw() -> None:
    # § 661a.6(b): "Prior to the first throw of the dice, each player shall place a wager"
    refused(
        GAME,
        run(decide(3, "accept_dice"), wager(4, "touchdown", "10.00")),
        throw(3, 3, 1),
        "seat 3, has no wager.*§ 661a.6\\(b\\)",
    )
    refused(GAME, run(decide(3, "accept_dice")), irregularity("no_roll"), "§ 661a.6\\(b\\)")
    assert (
        run(decide(3, "accept_dice"), wager(3, "no_gain", "10.00"), throw(3, 3, 1)).field.play == 2
    )  # a single play wager will do


def test_decisions_refused() -> None:
    state = GAME.start(RULES, {})
    refused(GAME, state, decide(3, "hit"), "no decision 'hit'")
    refused(GAME, state, decide(17, "accept_dice"), "seat 17")
    refused(GAME, state, Event("decision", seat=0, action="accept_dice"), "seat 0")


# --- placing wagers --------------------------------------------------------------------------


def test_a_wager_event_is_the_wager_as_it_now_stands() -> None:
    state = run(wager(2, "touchdown", "10.00"), wager(2, "touchdown", "25.00"), wager(2, "penalty", "1.00"))
    assert stakes(state) == {2: {"touchdown": 2500, "penalty": 100}}
    state = GAME.apply(state, wager(2, "touchdown", "0.00"))  # taken down before the first throw
    assert stakes(state) == {2: {"penalty": 100}}
    refused(GAME, state, wager(2, "touchdown", "0.00"), "no touchdown wager to take down")


def test_wagers_after_no_more_bets_wait_for_the_throw() -> None:
    state = run(*OPEN, NO_MORE_BETS)
    refused(GAME, state, wager(2, "penalty", "10.00"), "no more bets")
    refused(GAME, state, NO_MORE_BETS, "already closed")
    state = GAME.apply(state, NO_GAIN)
    assert not state.closed
    assert GAME.apply(state, wager(2, "penalty", "10.00")).single_play[0].stake == 1000


def test_full_game_wagers_are_fixed_at_the_first_throw() -> None:
    # § 661a.3(c): "may not be increased or withdrawn after the first throw of the dice"
    state = run(*OPEN, NO_GAIN)
    for event in (
        wager(1, "touchdown", "20.00"),
        wager(1, "touchdown", "0.00"),
        wager(2, "game_length_6", "10.00"),
    ):
        refused(GAME, state, event, "§ 661a.3\\(c\\)")
    assert GAME.apply(state, wager(2, "trips_td", "10.00")).single_play[0].name == "trips_td"  # § 661a.3(e)


def test_wagers_refused() -> None:
    state = run(*OPEN)
    refused(GAME, state, wager(1, "touchdwn", "10.00"), "did you mean 'touchdown'")
    refused(GAME, state, wager(1, "hard_eight", "10.00"), "not a wager of Three Dice Football")
    refused(
        GAME,
        state,
        wager(17, "touchdown", "10.00"),
        "seat 17 is not a seat of this table \\(1 to 16, § 661a.2\\(a\\)\\)",
    )
    refused(GAME, run(rules=ThreeDiceFootballRules(seats=6)), wager(7, "defense", "10.00"), "1 to 6")
    rules = load_rules(ThreeDiceFootballRules, {"wagers": {"offered": ["touchdown", "defense"]}}, "t")
    refused(GAME, run(rules=rules), wager(1, "penalty", "10.00"), "Penalty Wager is not offered")
    over = run(*OPEN, TEN, TEN)
    refused(GAME, over, wager(1, "penalty", "10.00"), "the game is over")
    refused(
        GAME,
        run(decide(1, "accept_dice"), wager(1, "extra_point", "10.00"), TEN, TEN),
        wager(1, "penalty", "10.00"),
        "the game is over",
    )


@pytest.mark.parametrize(
    ("event", "words"),
    [
        (Event("cards", to="1", cards=()), "no cards event"),
        (Event("meter", name="progressive", amount=100), "no meter event"),
        (Event("hole_card_reader", result="blackjack"), "no hole_card_reader event"),
        (Event("position", value=3), "no position event"),
    ],
)
def test_events_of_other_games_refused(event: Event, words: str) -> None:
    refused(GAME, run(*OPEN), event, words)


def test_dice_refused() -> None:
    refused(GAME, GAME.start(RULES, {}), throw(3, 3, 1), "no Quarterback")
    refused(GAME, run(*OPEN), Event("dice", dice=(3, 3)), "three dice")
    refused(GAME, run(*OPEN), Event("dice", dice=(3, 3, 7)), "three dice")


def test_settle_says_what_the_game_waits_for() -> None:
    with pytest.raises(IllegalEvent, match="a Quarterback"):
        GAME.settle(GAME.start(RULES, {}))
    with pytest.raises(IllegalEvent, match="the throw of play 2, 2nd Down, 12 yards to the end zone"):
        GAME.settle(run(*OPEN, throw(6, 4, 2)))


def test_no_more_bets_refused_once_the_game_is_over() -> None:
    refused(GAME, run(*OPEN, TEN, TEN), NO_MORE_BETS, "no wagers are taken now")


# --- the Rules Submission --------------------------------------------------------------------


def test_the_defaults() -> None:
    rules = load_rules(ThreeDiceFootballRules, {}, "t", GAME.rules_checks)
    assert rules.seats == 16 and rules.wagers_offered == WAGERS


def test_every_problem_at_once() -> None:
    with pytest.raises(RulesError) as err:
        load_rules(
            ThreeDiceFootballRules,
            {"seats": 17, "seat": 3, "wagers": {"offered": ["touchdown", "touchdwn"]}},
            "rules.toml",
            GAME.rules_checks,
        )
    text = str(err.value)
    assert "3 problems" in text
    assert "seats 17: is above the maximum of 16 (§ 661a.2(a))" in text
    assert "seat: unknown option; did you mean 'seats'?" in text
    assert "'touchdwn' is not a wager of § 661a.3; did you mean 'touchdown'?" in text


@pytest.mark.parametrize(
    ("offered", "words"),
    [
        ([], "non-empty list"),
        ("touchdown", "non-empty list"),
        (["touchdown", "touchdown"], "lists 'touchdown' twice"),
        ([1], "non-empty list"),
    ],
)
def test_wagers_offered_refused(offered: object, words: str) -> None:
    with pytest.raises(RulesError, match=words):
        load_rules(ThreeDiceFootballRules, {"wagers": {"offered": offered}}, "t", GAME.rules_checks)


def test_the_game_length_wagers_go_together() -> None:
    # § 661a.2(b)(6): the game length area is "labeled 1 through 6"
    with pytest.raises(RulesError, match=r"§ 661a\.2\(b\)\(6\)") as err:
        load_rules(
            ThreeDiceFootballRules,
            {"wagers": {"offered": ["touchdown", "game_length_3"]}},
            "t",
            GAME.rules_checks,
        )
    assert "not game_length_1, game_length_2, game_length_4, game_length_5, game_length_6" in str(err.value)
    rules = load_rules(
        ThreeDiceFootballRules, {"wagers": {"offered": ["defense", *GAME_LENGTHS]}}, "t", GAME.rules_checks
    )
    assert rules.wagers_offered == ("defense", *GAME_LENGTHS)
    with pytest.raises(RulesError, match="below the minimum of 1"):
        load_rules(ThreeDiceFootballRules, {"seats": 0}, "t", GAME.rules_checks)


def test_the_rules_write_back_to_what_loads_them() -> None:
    rules = ThreeDiceFootballRules(seats=9, wagers_offered=("touchdown", "penalty"))
    assert load_rules(ThreeDiceFootballRules, rules_to_mapping(rules), "t", GAME.rules_checks) == rules


def test_the_example_rules_submission() -> None:
    sub = parse_submission((EXAMPLES / "rules-submission.toml").read_text(), {GAME.name: GAME}, "example")
    assert sub.table == "TDF-1" and sub.game is GAME
    assert isinstance(sub.rules, ThreeDiceFootballRules) and sub.rules.seats == 12


# --- the example records ---------------------------------------------------------------------

RECORDS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".settlement.json"))


def test_there_are_examples() -> None:
    names = {p.name for p in RECORDS}
    assert {"touchdown.json", "trips-td.json", "no-roll-turnover.json", "six-plays.json"} <= names


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_each_example_replays_to_its_hand_written_settlement(path: Path) -> None:
    record = load_record(json.loads(path.read_text()), {GAME.name: GAME}, path.name)
    expected = json.loads(path.with_suffix(".settlement.json").read_text())
    first = replay(record).to_json()
    assert first == expected
    assert json.dumps(replay(record).to_json()) == json.dumps(first)


# --- a reference model written from the text, and the property tests -------------------------


def model_kind(g1: int, g2: int, r: int) -> str:
    if g1 == g2 == r:
        return "trips"
    if r == 6 and g1 + g2 <= 3:
        return "turnover"
    return "gain" if g1 + g2 > r else "penalty" if g1 + g2 < r else "no gain"


def model_game(throws: Sequence[tuple[int, int, int]]) -> tuple[str, int]:
    """How the game ends and after how many throws: ("td"|"trips"|"turnover"|"downs", plays)."""
    to_go, down, goal = 20, 1, False
    for n, (g1, g2, r) in enumerate(throws, start=1):
        kind = model_kind(g1, g2, r)
        if kind in ("trips", "turnover"):
            return kind, n
        to_go += {"gain": r - g1 - g2, "penalty": 1, "no gain": 0}[kind]
        if to_go <= 0:
            return "td", n
        if not goal and to_go <= 10:
            goal, down = True, 1
        elif down == 3:
            return "downs", n
        else:
            down += 1
    raise AssertionError("the game needs more throws")


def model_single(wager: str, g1: int, g2: int, r: int) -> Fraction:
    """What one unit on a single play wager wins (-1: lost), § 661a.3(d), § 661a.8(b)."""
    kind, gained = model_kind(g1, g2, r), g1 + g2 - r
    bad = kind in ("penalty", "turnover")
    wins = {
        "trips_td": (kind == "trips", 30),
        "penalty": (bad, 9),
        "turnover": (kind == "turnover", 60),
        "cover_three": (bad or kind == "trips", 7),
        "no_gain": (bad or kind == "no gain", 5),
        "big_play": (kind == "trips" or (kind == "gain" and gained >= 7), 4),
        "over_four_yards": (kind == "gain" and gained >= 5, 1),
        "under_four_yards": (kind != "trips" and (kind != "gain" or gained <= 3), 1),
    }
    if wager == "over_four_yards" and kind == "trips":
        return Fraction(7)
    won, pays = wins[wager]
    return Fraction(pays) if won else Fraction(-1)


def model_full(wager: str, end: str, plays: int, xp: tuple[int, int, int] | None) -> Fraction:
    scored = end in ("td", "trips")
    if wager == "touchdown":
        return Fraction(1) if scored else Fraction(-1)
    if wager == "defense":
        return Fraction(4, 5) if not scored else Fraction(-1)
    if wager == "extra_point":
        if not scored:
            return Fraction(-1)
        assert xp is not None
        ones = xp.count(1)
        if ones == 3:
            return Fraction(50)
        if xp[0] == xp[1] == xp[2]:
            return Fraction(10)
        return Fraction({0: -1, 1: 1, 2: 10}[ones])
    if wager == "quick_strike_td":
        return Fraction({1: 8, 2: 5, 3: 3, 4: 1}[plays]) if scored and plays <= 4 else Fraction(-1)
    if wager == "game_changer":
        return Fraction(5) if end in ("trips", "turnover") else Fraction(-1)
    n = int(wager.rsplit("_", 1)[1])
    pays = {
        1: Fraction(22),
        2: Fraction(22),
        3: Fraction(6, 5),
        4: Fraction(5),
        5: Fraction(3),
        6: Fraction(6),
    }
    return pays[n] if plays == n else Fraction(-1)


DIE = st.integers(1, 6)
THROW = st.tuples(DIE, DIE, DIE)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(THROW, min_size=7, max_size=7), st.integers(1, 16), st.sampled_from(["10.00", "5.00", "1.00"])
)
def test_random_games_end_within_six_plays_and_settle_as_the_model_says(
    throws: list[tuple[int, int, int]], qb: int, amount: str
) -> None:
    stake = parse_money(amount)
    full, single = qb, qb % 16 + 1  # the Quarterback bets every full game wager
    events = [decide(qb, "accept_dice"), *(wager(full, w, amount) for w in FULL_GAME_WAGERS)]
    state = run(*events)
    used = 0
    while state.phase != "over":
        if state.phase == "play":
            for w in SINGLE_PLAY_WAGERS:
                state = GAME.apply(state, wager(single, w, amount))
        state = GAME.apply(state, throw(*throws[used]))
        used += 1
    end, plays = model_game(throws)
    assert len(state.downs) == plays <= 6
    scored = end in ("td", "trips")
    assert used == plays + (1 if scored else 0)  # the extra point roll: an Extra Point Wager is up
    assert (
        state.end
        is {
            "td": End.TOUCHDOWN,
            "trips": End.TRIPS_TD,
            "turnover": End.TURNOVER,
            "downs": End.TURNOVER_ON_DOWNS,
        }[end]
    )
    s = GAME.settle(state)
    assert s == GAME.settle(state)  # deterministic
    xp = throws[plays] if scored else None
    got = nets(s)
    assert len(got) == len(FULL_GAME_WAGERS) + plays * len(SINGLE_PLAY_WAGERS)
    for w in FULL_GAME_WAGERS:
        assert got[(full, w)] == int(stake * model_full(w, end, plays, xp)), w
    for n in range(1, plays + 1):
        for w in SINGLE_PLAY_WAGERS:
            assert got[(single, f"{w}@{n}")] == int(stake * model_single(w, *throws[n - 1])), (w, n)
    for o in s.outcomes:
        assert (o.net == -o.stake) == (o.result is Result.LOSE)
        assert (o.net > 0) == (o.result is Result.WIN)
    assert dice_next(state) == (("retain", qb) if scored else ("offer", qb % 16 + 1))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(THROW, min_size=7, max_size=7),
    st.lists(st.sampled_from([*IRREGULARITIES, None]), min_size=7, max_size=7),
)
def test_invalid_throws_change_no_result(throws: list[tuple[int, int, int]], noise: list[str | None]) -> None:
    """Irregularities before any throw (§ 661a.5): the same game, the same settlement."""
    clean = noisy = run(
        decide(1, "accept_dice"),
        wager(1, "touchdown", "10.00"),
        wager(1, "extra_point", "10.00"),
        wager(1, "game_length_3", "10.00"),
    )
    count = 0
    for faces, irregular in zip(throws, noise, strict=True):
        if clean.phase == "over":
            break
        if irregular is not None:
            noisy = GAME.apply(noisy, irregularity(irregular))
            count += 1
            assert noisy.field == clean.field and noisy.phase == clean.phase
        clean, noisy = GAME.apply(clean, throw(*faces)), GAME.apply(noisy, throw(*faces))
    assert clean.phase == noisy.phase == "over"
    assert GAME.settle(clean).outcomes == GAME.settle(noisy).outcomes
    assert len(noisy.irregularities) == count


# --- the analyzer ----------------------------------------------------------------------------

ROWS = {row.wager: row for row in analyze()}


def test_every_wager_is_analyzed_and_its_outcomes_sum_to_1() -> None:
    assert list(ROWS) == list(WAGERS)
    for row in ROWS.values():
        assert sum(ln.probability for ln in row.lines) == 1, row.wager
        assert all(ln.probability > 0 for ln in row.lines)
        assert 0 < row.house_edge < 1, row.wager  # every wager favours the house


@pytest.mark.parametrize(
    ("wager", "wins", "returned"),
    [
        # (throws of 216 that win, units returned per unit over the 216 throws), counted by hand:
        ("trips_td", 6, 6 * 31),
        ("penalty", 20, 20 * 10),  # below the red die: 1 + 3 + 6 + 10 (red 3, 4, 5, 6)
        ("turnover", 3, 3 * 61),  # 1-1-6, 1-2-6, 2-1-6
        ("cover_three", 26, 26 * 8),
        ("no_gain", 35, 35 * 6),  # 15 equal (1 + 2 + 3 + 4 + 5) and the 20 above
        ("big_play", 41, 41 * 5),  # 35 gains of 7 or more (15 + 10 + 6 + 3 + 1) and 6 trips
        ("over_four_yards", 85, 79 * 2 + 6 * 8),  # 81 gains of 5 or more, less 5-5-5, 6-6-6
        ("under_four_yards", 105, 105 * 2),  # 73 gains of 1-3 less 1-1-1, 2-2-2, 3-3-3; 15; 20
    ],
)
def test_single_play_odds_by_hand(wager: str, wins: int, returned: int) -> None:
    row = ROWS[wager]
    assert row.per == "throw"
    assert row.p_win == Fraction(wins, 216)
    assert row.house_edge == 1 - Fraction(returned, 216)


def test_game_length_1_by_hand() -> None:
    # one play: a Trips TD (6 throws) or a turnover (3) on the first throw; 22 to 1 returns 23
    assert ROWS["game_length_1"].p_win == Fraction(9, 216)
    assert ROWS["game_length_1"].house_edge == 1 - Fraction(9 * 23, 216)
    assert ROWS["quick_strike_td"].lines[0].probability == Fraction(6, 216)  # 8 to 1 on play 1


def test_brute_force_over_two_throws_through_the_state_machine() -> None:
    """Every sequence of two throws, through GAME.apply: the chances of the games of one and two
    plays and of a touchdown on play 2 (Quick Strike at 5 to 1)."""
    start = run(*OPEN)
    ends: dict[int, int] = {1: 0, 2: 0}
    td_on_2 = changer = 0
    faces = list(product(range(1, 7), repeat=3))
    for first in faces:
        s1 = GAME.apply(start, throw(*first))
        if s1.end is not None:
            ends[1] += 216
            changer += 216 * (s1.end in (End.TRIPS_TD, End.TURNOVER))
            continue
        for second in faces:
            s2 = GAME.apply(s1, throw(*second))
            if s2.end is not None:
                ends[2] += 1
                td_on_2 += s2.end.scored
                changer += s2.end in (End.TRIPS_TD, End.TURNOVER)
    lengths = game_length_distribution()
    assert lengths[1] == Fraction(ends[1], 216**2) == ROWS["game_length_1"].p_win
    assert lengths[2] == Fraction(ends[2], 216**2) == ROWS["game_length_2"].p_win
    quick = {ln.why: ln.probability for ln in ROWS["quick_strike_td"].lines}
    assert quick["touchdown on play 2"] == Fraction(td_on_2, 216**2)
    in_two = sum(
        p for r, p in game_results().items() if r.plays <= 2 and r.end in (End.TRIPS_TD, End.TURNOVER)
    )
    assert in_two == Fraction(changer, 216**2)


def test_the_whole_game_against_the_models_own_recursion() -> None:
    """The reference model's game, summed over every sequence of throws by memoizing on
    (yards to go, down, goal, play): each ending's probability, exactly as the analyzer's."""
    gains: dict[tuple[str, int], int] = {}
    for g1, g2, r in product(range(1, 7), repeat=3):
        key = (model_kind(g1, g2, r), g1 + g2 - r)
        gains[key] = gains.get(key, 0) + 1
    memo: dict[tuple[int, int, bool, int], dict[tuple[str, int], Fraction]] = {}

    def ends(to_go: int, down: int, goal: bool, n: int) -> dict[tuple[str, int], Fraction]:
        if (to_go, down, goal, n) in memo:
            return memo[(to_go, down, goal, n)]
        out: dict[tuple[str, int], Fraction] = {}
        for (kind, gained), count in gains.items():
            p = Fraction(count, 216)
            sub: dict[tuple[str, int], Fraction]
            if kind in ("trips", "turnover"):
                sub = {(kind, n): Fraction(1)}
            else:
                left = to_go - (gained if kind == "gain" else -1 if kind == "penalty" else 0)
                if left <= 0:
                    sub = {("td", n): Fraction(1)}
                elif not goal and left <= 10:
                    sub = ends(left, 1, True, n + 1)
                elif down == 3:
                    sub = {("downs", n): Fraction(1)}
                else:
                    sub = ends(left, down + 1, goal, n + 1)
            for k, q in sub.items():
                out[k] = out.get(k, Fraction(0)) + p * q
        memo[(to_go, down, goal, n)] = out
        return out

    model = ends(20, 1, False, 1)
    names = {
        "td": End.TOUCHDOWN,
        "trips": End.TRIPS_TD,
        "turnover": End.TURNOVER,
        "downs": End.TURNOVER_ON_DOWNS,
    }
    assert {(names[k], n): p for (k, n), p in model.items()} == {
        (r.end, r.plays): p for r, p in game_results().items()
    }
    p_td = sum(p for (k, _), p in model.items() if k in ("td", "trips"))
    assert ROWS["touchdown"].p_win == p_td
    assert ROWS["touchdown"].house_edge == 1 - 2 * p_td
    assert ROWS["defense"].house_edge == 1 - Fraction(9, 5) * (1 - p_td)
    # The extra point roll: 75 throws with one 1 return 2, 15 with two return 11, 1-1-1 returns
    # 51, the 5 other triples 11 (§ 661a.8(a)).
    assert ROWS["extra_point"].house_edge == 1 - p_td * Fraction(75 * 2 + 15 * 11 + 51 + 5 * 11, 216)
    assert max(n for _, n in model) == 6


def test_the_printed_table_is_in_the_doc() -> None:
    table = format_table(analyze())
    for row in ROWS.values():
        assert row.title in table
    assert table in DOC.read_text()
