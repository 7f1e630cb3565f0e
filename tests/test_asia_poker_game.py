"""Asia Poker (58 Pa. Code ch. 659a) and Fortune Asia Poker (§ 659a.11 as amended) as round engines.

Every expected amount here is worked out by hand from the paytables as the text
prints them (§ 659a.12(b)) or, for Fortune, from the example paytables of the
Rules Submission (written out below); the dealer's hands from the house way's
words (docs/games/asia-poker.md). Nothing is copied from a run.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.core.cards import Card, deck_with_joker, parse_cards
from controller.rules.core.engine import Game, IllegalEvent, Round, open_decisions, play
from controller.rules.core.events import Event
from controller.rules.core.explain import explain
from controller.rules.core.money import parse_money
from controller.rules.core.options import RulesError, load_rules, rules_to_mapping
from controller.rules.core.record import load_record, replay
from controller.rules.core.settlement import (
    FLOORPERSON_VALIDATE,
    NOT_FROM_INVENTORY,
    PAYOUT_LIMITED,
    PROGRESSIVE_LIGHT,
    Result,
    Settlement,
)
from controller.rules.core.submission import parse_submission
from controller.rules.games import GAMES
from controller.rules.games.asia_poker import game as apg
from controller.rules.games.asia_poker.game import (
    GAME,
    REMOVE_DECK,
    AsiaPokerRules,
    AsiaPokerState,
    button_after_round,
    clockwise_from,
    count_of_position,
    deal_order,
    help_me_set,
    position_of_count,
    setting_action,
    starting_position,
)
from controller.rules.games.asia_poker.house_way import set_hands
from controller.rules.games.fortune_asia_poker import game as fap
from controller.rules.games.fortune_asia_poker.game import GAME as FORTUNE
from controller.rules.games.fortune_asia_poker.game import FortuneAsiaPokerRules, fortune_hand
from controller.rules.rankings.asia_poker import all_settings, bonus_key, setting_is_valid

from .rounds import cards, decide, refused, second_area, wager

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
DECK53 = deck_with_joker()

# --- helpers --------------------------------------------------------------------------------------


def rules(mapping: Mapping[str, object] | None = None) -> AsiaPokerRules:
    r = load_rules(AsiaPokerRules, dict(mapping or {}), "test", GAME.rules_checks)
    assert isinstance(r, AsiaPokerRules)
    return r


def frules(mapping: Mapping[str, object] | None = None) -> FortuneAsiaPokerRules:
    r = load_rules(FortuneAsiaPokerRules, dict(mapping or {}), "test", FORTUNE.rules_checks)
    assert isinstance(r, FortuneAsiaPokerRules)
    return r


def m(text: str) -> int:
    return parse_money(text)


def put(seat: int, hands: str) -> Event:
    return decide(seat, f"set {hands}")


def irregular(kind: str, seat: int | None = None, detail: str = "") -> Event:
    return Event("irregularity", kind=kind, seat=seat, detail=detail)


NO_MORE_BETS = Event("no_more_bets")
DICE_DEALER = Event("dice", dice=(2, 3, 3))  # 8: the count goes once round and stops at the dealer


def round_events(
    wagers: Mapping[int, Mapping[str, str]],
    hands: Mapping[str, str],
    settings_: Mapping[int, str] = (),  # type: ignore[assignment]
    after: Iterable[Event] = (),
) -> list[Event]:
    """Wagers, "no more bets", dice 2-3-3 (the dealer first), the dealer's cards then the seats',
    the settings (seats descending), then ``after``."""
    out = [wager(s, w, a) for s in sorted(wagers) for w, a in wagers[s].items()]
    out += [NO_MORE_BETS, DICE_DEALER]
    if "dealer" in hands:
        out.append(cards("dealer", hands["dealer"]))
    out += [cards(int(p), hands[p]) for p in sorted((p for p in hands if p != "dealer"), key=int)]
    out += [put(s, settings_[s]) for s in sorted(dict(settings_), reverse=True)]
    out += list(after)
    return out


def run(
    game: Game[Any, Any], r: object, events: Iterable[Event], meters: Mapping[str, int] | None = None
) -> Settlement:
    return play(game, r, dict(meters or {}), events)


def state_after(
    game: Any, r: object, events: Iterable[Event], meters: Mapping[str, int] | None = None
) -> Any:
    state = game.start(r, dict(meters or {}))
    for e in events:
        state = game.apply(state, e)
    return state


def line(s: Settlement, seat: int, wager_name: str) -> tuple[str, str, str]:
    o = s.for_seat(seat)[wager_name]
    j = o.to_json()
    return str(j["result"]), str(j["net"]), str(j.get("hand", ""))


# --- the starting position, § 659a.5(g) ---------------------------------------------------------------

# Counted from the dealer as one, counterclockwise (from the dealer's right, seat 6, down to seat 1),
# every position whether or not it has a wager: 1 dealer, 2 seat 6, ..., 7 seat 1, 8 dealer, ...
COUNTS = {
    1: "dealer", 2: "6", 3: "5", 4: "4", 5: "3", 6: "2", 7: "1",
    8: "dealer", 9: "6", 10: "5", 11: "4", 12: "3", 13: "2", 14: "1",
    15: "dealer", 16: "6", 17: "5", 18: "4",
}  # fmt: skip


@pytest.mark.parametrize(("count", "position"), sorted(COUNTS.items()))
def test_the_count_from_the_dealer_counterclockwise(count: int, position: str) -> None:
    assert position_of_count(count) == position
    if count <= 7:
        assert count_of_position(position) == count


def test_the_shaker_worked_example() -> None:
    """§ 659a.5(g)(1): three dice 3, 4 and 5 total 12: dealer 1, seat 6 is 2, ..., seat 3 is 12."""
    r = rules()
    state = state_after(
        GAME, r, [wager(3, "asia_poker", "10.00"), NO_MORE_BETS, Event("dice", dice=(3, 4, 5))]
    )
    assert (state.count, state.start) == (12, "3")
    # Then clockwise from seat 3: 4, 5, 6, the dealer, 1, 2 (§ 659a.8(c)).
    assert deal_order(state) == ("3", "4", "5", "6", "dealer", "1", "2")
    assert starting_position("shaker", 12) == "3"


def test_the_random_number_generator_and_the_button() -> None:
    assert [starting_position("random number generator", n) for n in range(1, 8)] == [
        "dealer", "6", "5", "4", "3", "2", "1",
    ]  # fmt: skip
    # The button starts in front of the dealer and moves clockwise: dealer, seat 1, seat 2, ...
    walk = [1]
    for _ in range(7):
        walk.append(button_after_round(walk[-1]))
    assert [position_of_count(v) for v in walk] == ["dealer", "1", "2", "3", "4", "5", "6", "dealer"]
    assert clockwise_from("dealer") == ("dealer", "1", "2", "3", "4", "5", "6")


@pytest.mark.parametrize(
    ("method", "value", "match"),
    [
        ("shaker", 2, "three dice total 3 to 18"),
        ("shaker", 19, "three dice total 3 to 18"),
        ("random number generator", 8, "from 1 to 7"),
        ("button", 0, "counted 1"),
    ],
)
def test_starting_position_out_of_range(method: str, value: int, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        starting_position(method, value)


def test_position_events_in_the_wrong_place_are_refused() -> None:
    r = rules({"starting_position": "random number generator"})
    s0 = state_after(GAME, r, [wager(1, "asia_poker", "5.00")])
    refused(
        GAME,
        s0,
        Event("position", value=3),
        'after the dealer announces "no more bets"|announces "no more bets"',
    )
    s1 = GAME.apply(s0, NO_MORE_BETS)
    refused(GAME, s1, Event("position", value=8), "from 1 to 7")
    refused(GAME, s1, Event("dice", dice=(1, 2, 3)), "not the shaker")
    refused(GAME, s1, cards(1, "As Ks Qs Js 7c 7d 2h"), "before the starting position")
    s2 = GAME.apply(s1, Event("position", value=7))
    assert s2.start == "1"
    refused(GAME, s2, Event("position", value=2), "already determined: seat 1")


# --- a full round: every way the Asia Poker Wager is settled, § 659a.11(d)-(f) ---------------------------

# The dealer holds K-K, A, Q, 9, 7, 4. House way "standard" (docs): a pair stays high; the best
# medium is A-Q (A-K would take a king and leave no pair high); the best low card left is the 9;
# high K-K-7-4.
DEALER_A = "Kc Kd Ac Qd 9s 4h 7s"
ROUND_A_HANDS = {
    "dealer": DEALER_A,
    "6": "As Ks Qs Js 7c 7d 2h",
    "5": "Ah Qh 9d 6h 6s 5c 5d",
    "4": "Ad Qc 8d 8s 2s 2d 3h",
    "3": "6c 6d Th Jh Jd 4s 3s",
    "2": "Tc Ts 9h 9c 5h 4c 3d",
    "1": "8h 8c Jc 2c 4d 5s Kh",
}
ROUND_A_SETTINGS = {
    6: "As Ks Qs Js / 7c 7d / 2h",  # royal flush > pair of kings; 7-7 > A-Q; 2 < 9: win, win, lose
    5: "6h 6s 5c 5d / Ah Qh / 9d",  # two pair > pair; A-Q copies A-Q; 9 copies 9: win, copy, copy
    4: "8d 8s 2s 2d / Ad Qc / 3h",  # two pair wins; A-Q a copy; 3 < 9: win, copy, lose
    3: "6c 6d Th 4s / Jh Jd / 3s",  # the medium pair of jacks outranks the high pair of sixes: (iii)
    2: "Tc Ts 5h 4c / 9h 9c / 3d",  # set legally, then surrenders
    1: "8h 8c 2c 4d / Jc 5s / Kh",  # the low king outranks the medium jack-five: (iv)
}
ROUND_A_WAGERS = {
    6: {"asia_poker": "10.00"},
    5: {"asia_poker": "20.00"},
    4: {"asia_poker": "15.00"},
    3: {"asia_poker": "5.00"},
    2: {"asia_poker": "25.00"},
    1: {"asia_poker": "10.00"},
}


def round_a() -> list[Event]:
    return round_events(ROUND_A_WAGERS, ROUND_A_HANDS, ROUND_A_SETTINGS, after=[decide(2, "surrender")])


def test_round_a_every_outcome() -> None:
    s = run(GAME, rules(), round_a())
    assert s.dealer == "high Kd Kc 7s 4h, medium Ac Qd, low 9s"
    assert [o.seat for o in s.outcomes] == [6, 5, 4, 3, 2, 1]  # from the dealer's right (§ 659a.11(e))
    assert line(s, 6, "asia_poker") == ("win", "+10.00", "high win, medium win, low lose")  # 1 to 1
    assert line(s, 5, "asia_poker") == ("lose", "-20.00", "high win, medium copy, low copy")  # (f)(1)(i)
    assert line(s, 4, "asia_poker") == ("lose", "-15.00", "high win, medium copy, low lose")  # (f)(1)(ii)
    assert line(s, 3, "asia_poker") == ("lose", "-5.00", "hands not set correctly")
    assert line(s, 2, "asia_poker") == ("lose", "-25.00", "surrendered")
    assert line(s, 1, "asia_poker") == ("lose", "-10.00", "hands not set correctly")
    sections = {o.seat: o.section for o in s.outcomes}
    assert sections[6] == "§ 659a.11(f)(2), § 659a.12(a)"
    assert sections[5] == "§ 659a.11(f)(1)(i)"
    assert sections[4] == "§ 659a.11(f)(1)(i), (ii)"
    assert sections[3] == "§ 659a.11(f)(1)(iii)"
    assert sections[2] == "§ 659a.11(d)"
    assert sections[1] == "§ 659a.11(f)(1)(iv)"


# K-K, A, Q, 9, 8, 4: the same way, high K-K-8-4, medium A-Q, low 9 (no seven, for the four sevens below).
DEALER_B = "Kc Kd Ac Qd 9s 4h 8c"


def test_the_medium_pair_of_sevens_worked_example() -> None:
    """§ 659a.11(b): "if the two-card medium hand contains a pair of sevens, the four-card high hand must
    contain at least a pair of sevens and the two remaining cards"."""
    hands = {"dealer": DEALER_B, "3": "7h 7d 3c 2d 7c 7s 5h"}
    legal = run(
        GAME, rules(), round_events({3: {"asia_poker": "10.00"}}, hands, {3: "7h 7d 3c 2d / 7c 7s / 5h"})
    )
    # 7-7-3-2 vs K-K-8-4: lower; 7-7 vs A-Q: higher; 5 vs 9: lower. Set right, but loses.
    assert line(legal, 3, "asia_poker") == ("lose", "-10.00", "high lose, medium win, low lose")
    hands = {"dealer": DEALER_B, "3": "6h 6d 3c 2d 7c 7s 5h"}
    wrong = run(
        GAME, rules(), round_events({3: {"asia_poker": "10.00"}}, hands, {3: "6h 6d 3c 2d / 7c 7s / 5h"})
    )
    assert line(wrong, 3, "asia_poker") == ("lose", "-10.00", "hands not set correctly")
    assert wrong.outcomes[0].section == "§ 659a.11(f)(1)(iii)"
    assert "pair, sevens" in wrong.outcomes[0].note


def test_hands_of_the_wrong_size_lose_under_v() -> None:
    hands = {"dealer": DEALER_A, "1": "8h 8c Jc 2c 4d 5s Kh"}
    s = run(GAME, rules(), round_events({1: {"asia_poker": "10.00"}}, hands, {1: "8h 8c 2c / 4d Jc 5s / Kh"}))
    assert line(s, 1, "asia_poker") == ("lose", "-10.00", "hands not set correctly")
    assert s.outcomes[0].section == "§ 659a.11(f)(1)(v)"


def test_one_win_loses_two_wins_win_whatever_the_third() -> None:
    hands = {"dealer": DEALER_A, "2": "Kh Ks Qs Js Ah Jc 9h"}
    # K-K-Q-J beats K-K-7-4 (the same pair; the queen is the highest card not in the other,
    # § 659a.6(c)); A-J is lower than A-Q; 9 copies 9: one win only.
    s = run(GAME, rules(), round_events({2: {"asia_poker": "10.00"}}, hands, {2: "Kh Ks Qs Js / Ah Jc / 9h"}))
    assert line(s, 2, "asia_poker") == ("lose", "-10.00", "high win, medium lose, low copy")
    # The same cards set K-K-J-9 / A-Q / J: higher, a copy, higher: two hands higher, 1 to 1.
    s = run(GAME, rules(), round_events({2: {"asia_poker": "10.00"}}, hands, {2: "Kh Ks Jc 9h / Ah Qs / Js"}))
    assert line(s, 2, "asia_poker") == ("win", "+10.00", "high win, medium copy, low win")


# --- surrender, § 659a.11(d) ----------------------------------------------------------------------------


def test_surrender_only_after_the_dealer_is_set_and_only_without_a_bonus() -> None:
    r = rules({"bonus": {"offered": True}})
    hands = {"dealer": DEALER_A, "2": ROUND_A_HANDS["2"], "5": ROUND_A_HANDS["5"]}
    wagers = {2: {"asia_poker": "25.00"}, 5: {"asia_poker": "20.00", "bonus": "5.00"}}
    before_set = state_after(GAME, r, round_events(wagers, hands, {2: ROUND_A_SETTINGS[2]}))
    refused(GAME, before_set, decide(2, "surrender"), r"after the hands of the dealer have been set")
    state = GAME.apply(before_set, put(5, ROUND_A_SETTINGS[5]))
    refused(GAME, state, decide(5, "surrender"), r"placed an optional wager \(bonus\)")
    state = GAME.apply(state, decide(2, "surrender"))
    refused(GAME, state, decide(2, "surrender"), "already surrendered")
    s = GAME.settle(state)
    assert line(s, 2, "asia_poker") == ("lose", "-25.00", "surrendered")


# --- help me set, § 659a.11(a)(1) -----------------------------------------------------------------------


def test_help_me_set_shows_the_house_way() -> None:
    hands = {"dealer": DEALER_A, "4": "Kh Ks 5s 5c Ah 9d 2c"}
    state = state_after(GAME, rules(), round_events({4: {"asia_poker": "10.00"}}, hands))
    state = GAME.apply(state, decide(4, "help"))
    # Two pair: kings high, fives in the middle, the ace low (the house way's words).
    expected = "Ks Kh 9d 2c / 5s 5c / Ah"
    assert apg.format_setting(state.helped[0][1]) == expected
    assert apg.format_setting(help_me_set(state, 4)) == expected
    assert "help" in state.notes[-1]
    # The player may follow it: K-K-9-2 beats K-K-7-4, 5-5 beats A-Q, the ace beats the 9.
    state = GAME.apply(state, decide(4, setting_action(state.helped[0][1])))
    assert line(GAME.settle(state), 4, "asia_poker") == ("win", "+10.00", "high win, medium win, low win")


@pytest.mark.parametrize(
    ("game", "rules_of", "wager"), [(GAME, rules, "asia_poker"), (FORTUNE, frules, "fortune_asia_poker")]
)
def test_the_house_way_hook_gives_the_helped_seat_then_the_dealer(
    game: Any, rules_of: Any, wager: str
) -> None:
    hands = {"dealer": DEALER_A, "4": "Kh Ks 5s 5c Ah 9d 2c"}
    state = state_after(game, rules_of(), round_events({4: {wager: "10.00"}}, hands))
    assert game.house_way(state) == ()  # nobody asked; the dealer's cards stay down (§ 659a.11(c))
    state = game.apply(state, decide(4, "help"))
    (told,) = game.house_way(state)
    # Two pair: kings high, fives in the middle, the ace low (the house way's words), § 659a.11(a)(1).
    assert (told.to, told.cards, told.section) == ("4", "Ks Kh 9d 2c / 5s 5c / Ah", "§ 659a.11(a)(1)")
    state = game.apply(state, decide(4, "set Ks Kh 9d 2c / 5s 5c / Ah"))
    # Every player has set: the dealer's kings stay high, the best medium hand (A-Q) and the best
    # low card left (the 9), § 659a.11(c).
    (dealer,) = game.house_way(state)
    assert (dealer.to, dealer.cards, dealer.section) == ("dealer", "Kd Kc 7s 4h / Ac Qd / 9s", "§ 659a.11(c)")


# --- the Bonus Wager, § 659a.12(b): every row of paytables A, B and C ---------------------------------------

# § 659a.12(b) as printed: hand, Paytable A, Paytable B, Paytable C ("N to 1").
PAYTABLE_TEXT = [
    ("three-of-a-kind and four 8s", 5000, 5000, 5000),
    ("five aces", 800, 800, 800),
    ("royal flush", 200, 200, 200),
    ("natural straight flush", 80, 50, 50),
    ("straight flush with a joker", 40, 40, 40),
    ("four-of-a-kind", 30, 30, 25),
    ("9-high", 10, 10, 10),
    ("full house", 5, 5, 5),
    ("flush", 4, 4, 4),
    ("three-of-a-kind", 3, 3, 3),
    ("straight", 2, 2, 2),
]
# A seven-card hand for each row, none of its cards the dealer's (BONUS_DEALER).
BONUS_ROWS = {
    "three-of-a-kind and four 8s": "8s 8h 8d 8c Js Jh Jc",
    "five aces": "As Ah Ad Ac JKR 2c 3d",
    "royal flush": "Ts Js Qs Ks As 2c 3d",
    "natural straight flush": "5h 6h 7h 8h 9h 2c 3c",
    "straight flush with a joker": "5h 6h 7h 8h JKR 2c 3c",
    "four-of-a-kind": "Js Jh Jd Jc 2c 5d 9h",
    "9-high": "9c 8h 7d 6c 4s 3h 2d",
    "full house": "Js Jh Jd 5c 5s 9h 2d",
    "flush": "2s 5s 8s Js Ks 3h 4d",
    "three-of-a-kind": "7c 7d 7h Ks 9d 5c 2s",
    "straight": "4c 5d 6h 7d 8c Kh 2h",
}
BONUS_DEALER = "Kc Kd Qd 9s 4h 7s Tc"


def test_the_paytable_rows_are_the_texts() -> None:
    assert tuple(r[0] for r in PAYTABLE_TEXT) == apg.BONUS_HANDS == tuple(BONUS_ROWS)
    # Four 8s with two kings and the joker: the joker is an ace, no third king (§ 659a.6(a)): not the
    # top row but four-of-a-kind.
    assert bonus_key(parse_cards("8s 8h 8d 8c Ks Kh JKR"))[0] == 6


@pytest.mark.parametrize("table", ["A", "B", "C"])
@pytest.mark.parametrize("row", PAYTABLE_TEXT, ids=[r[0] for r in PAYTABLE_TEXT])
def test_every_bonus_paytable_row(table: str, row: tuple[str, int, int, int]) -> None:
    name, *odds = row
    pays = odds["ABC".index(table)]
    seven = BONUS_ROWS[name]
    r = rules({"bonus": {"offered": True, "paytable": table}})
    setting = apg.format_setting(set_hands(parse_cards(seven)))
    events = round_events(
        {3: {"asia_poker": "10.00", "bonus": "2.00"}}, {"dealer": BONUS_DEALER, "3": seven}, {3: setting}
    )
    s = run(GAME, r, events)
    # N to 1 on $2: the stake returned and 2 x N won.
    assert line(s, 3, "bonus") == ("win", f"+{2 * pays}.00", name)
    assert s.for_seat(3)["bonus"].section == "§ 659a.11(h), § 659a.12(b)"
    assert [o.wager for o in s.outcomes] == ["asia_poker", "bonus"]  # the Bonus after the wager (h)


def test_no_bonus_hand_loses_and_the_bonus_does_not_follow_the_wager() -> None:
    r = rules({"bonus": {"offered": True}})
    # A pair of sevens and nothing else of § 659a.6(d): the Bonus loses though the wager wins
    # (7-7-3-2 < K-K-7-4, A-K > A-Q, Q > 9).
    seven = "Qc Kh Ah 2s 3d 7c 7d"
    events = round_events(
        {3: {"asia_poker": "10.00", "bonus": "2.00"}},
        {"dealer": DEALER_A, "3": seven},
        {3: "7c 7d 3d 2s / Ah Kh / Qc"},
    )
    s = run(GAME, r, events)
    assert line(s, 3, "asia_poker") == ("win", "+10.00", "high lose, medium win, low win")
    assert line(s, 3, "bonus") == ("lose", "-2.00", "no bonus hand")
    # A straight set wrongly still pays its Bonus: the dealer forms the hand from the seven cards (h).
    seven = BONUS_ROWS["straight"]
    events = round_events(
        {3: {"asia_poker": "10.00", "bonus": "2.00"}},
        {"dealer": DEALER_A, "3": seven},
        {3: "4c 5d 6h 2h / Kh 8c / 7d"},
    )
    s = run(GAME, r, events)
    assert line(s, 3, "asia_poker")[0:2] == ("lose", "-10.00")
    assert line(s, 3, "bonus") == ("win", "+4.00", "straight")


# --- the payout limit, § 659a.12(c) -------------------------------------------------------------------


def test_the_payout_limit_holds_one_hand_to_its_amount() -> None:
    r = rules({"bonus": {"offered": True, "paytable": "B"}, "payout_limit": "50000.00"})
    # Five aces on $100 at 800 to 1 would be $80,000; the hand also wins its $10 wager first.
    seven = "As Ah Ad Ac JKR 2c 3d"
    events = round_events(
        {3: {"asia_poker": "10.00", "bonus": "100.00"}},
        {"dealer": "Qc Qd 8s 7d 5s 4c 2d", "3": seven},
        {3: "Ad Ac 3d 2c / As Ah / JKR"},
    )
    s = run(GAME, r, events)
    assert line(s, 3, "asia_poker") == ("win", "+10.00", "high win, medium win, low win")
    # $50,000 less the $10 already paid on this hand.
    assert line(s, 3, "bonus") == ("win", "+49990.00", "five aces")
    assert PAYOUT_LIMITED in s.for_seat(3)["bonus"].flags


@pytest.mark.parametrize(
    ("mapping", "problem"),
    [
        ({"payout_limit": "40000.00"}, "payout_limit 40000.00: is below the $50,000 minimum of § 659a.12(c)"),
        # $11 minimum Bonus x 5,000 + $10 minimum wager = $55,010: above $50,000.
        (
            {
                "payout_limit": "50000.00",
                "bonus": {"offered": True, "minimum": "11.00"},
                "asia_poker": {"minimum": "10.00"},
            },
            "payout_limit 50000.00 is below $55010.00, the most one player could win per round",
        ),
        # Two adjacent betting areas: twice ($10 + $10 x 5,000) = $100,020.
        (
            {
                "payout_limit": "60000.00",
                "adjacent_betting_areas": True,
                "bonus": {"offered": True, "minimum": "10.00"},
                "asia_poker": {"minimum": "10.00"},
            },
            "is below $100020.00",
        ),
        ({"starting_position": "button"}, "starting_position 'button' needs dealing = 'automated shoe'"),
        ({"dealing": "hand", "shuffler": "manual"}, "dealing 'hand' needs shuffler = 'automated'"),
    ],
)
def test_rules_submission_problems(mapping: dict[str, object], problem: str) -> None:
    with pytest.raises(RulesError) as err:
        rules(mapping)
    assert problem in str(err.value)


def test_every_problem_at_once_with_did_you_mean() -> None:
    with pytest.raises(RulesError) as err:
        rules(
            {
                "house_wya": "standard",
                "bonus": {"paytable": "D"},
                "payout_limit": "1.00",
                "ranking": {"a234_lowest": 1},
            }
        )
    text = str(err.value)
    assert "4 problems" in text
    assert "house_wya: unknown option; did you mean 'house_way'?" in text
    assert "bonus.paytable D: must be one of 'A', 'B', 'C'" in text
    assert "the $50,000 minimum of § 659a.12(c)" in text
    assert "ranking.a234_lowest 1: must be true or false" in text
    with pytest.raises(RulesError, match="did you mean 'standard'"):
        rules({"house_way": "standrd"})


def test_rules_write_back_to_themselves() -> None:
    r = rules(
        {
            "bonus": {"offered": True, "paytable": "C"},
            "payout_limit": "75000.00",
            "house_way": "strongest-high",
        }
    )
    assert rules(rules_to_mapping(r)) == r
    f = frules({"fortune_bonus": {"offered": True}, "progressive": {"offered": True}})
    assert frules(rules_to_mapping(f)) == f


# --- two adjacent betting areas, § 659a.7(f) --------------------------------------------------------------


def test_adjacent_areas_larger_wager_first_then_counterclockwise() -> None:
    r = rules({"adjacent_betting_areas": True})
    hands = {"dealer": DEALER_A, "2": ROUND_A_HANDS["2"], "3": ROUND_A_HANDS["3"]}
    wagers = {2: {"asia_poker": "25.00"}, 3: {"asia_poker": "10.00"}}
    state = state_after(GAME, r, [*round_events(wagers, hands), second_area(3, 2)])
    refused(
        GAME, state, put(3, ROUND_A_SETTINGS[3]), r"larger wager is set before the other, so seat 2 first"
    )
    state = GAME.apply(state, put(2, ROUND_A_SETTINGS[2]))
    state = GAME.apply(state, put(3, ROUND_A_SETTINGS[3]))
    assert [s for s, _ in state.settings] == [2, 3]
    # Equal wagers: counterclockwise, from the dealer's right: seat 3 before seat 2.
    wagers = {2: {"asia_poker": "10.00"}, 3: {"asia_poker": "10.00"}}
    state = state_after(GAME, r, [*round_events(wagers, hands), second_area(2, 3)])
    refused(GAME, state, put(2, ROUND_A_SETTINGS[2]), "the wagers are equal: .* so seat 3 first")
    # Not permitted, not adjacent, no wager there:
    plain = state_after(GAME, rules(), round_events(wagers, hands))
    refused(GAME, plain, second_area(2, 3), "does not permit wagering on two adjacent betting areas")
    apart = state_after(GAME, r, round_events({2: {"asia_poker": "5.00"}, 4: {"asia_poker": "5.00"}}, {}))
    refused(GAME, apart, second_area(2, 4), "not adjacent")
    alone = state_after(GAME, r, round_events({2: {"asia_poker": "5.00"}}, {}))
    refused(GAME, alone, second_area(2, 1), "seat 1 has no Asia Poker Wager")


# --- irregularities, § 659a.13, and the stub, § 659a.8(d), (e) -----------------------------------------


def _dealt(r: AsiaPokerRules | None = None) -> AsiaPokerState:
    """Seats 2 (with a Bonus) and 5 wagered, every wagered hand and the dealer dealt, nothing set."""
    r = r or rules({"bonus": {"offered": True}})
    hands = {"dealer": DEALER_A, "2": ROUND_A_HANDS["2"], "5": ROUND_A_HANDS["5"]}
    wagers = {2: {"asia_poker": "25.00", "bonus": "5.00"}, 5: {"asia_poker": "20.00"}}
    state = state_after(GAME, r, round_events(wagers, hands))
    assert isinstance(state, AsiaPokerState)
    return state


def _all_void(s: Settlement) -> list[tuple[int, str, str]]:
    assert all(o.result is Result.VOID and o.net == 0 for o in s.outcomes)
    return [(o.seat, o.wager, str(o.to_json()["stake"])) for o in s.outcomes]


VOID_ALL_KINDS = [
    ("wrong_starting_position", "§ 659a.13(c)", "wrong position"),
    ("dealer_card_exposed", "§ 659a.13(e)", "dealer's hand was exposed"),
    ("dealer_card_exposed_while_dealing", "§ 659a.13(j)", "exposed while dealing"),
    ("wrong_card_count", "§ 659a.13(h), (k)", "incorrect number of cards"),
    ("stub_count_misdealt", "§ 659a.8(d), (e)", "misdealt"),
]


@pytest.mark.parametrize(("kind", "section", "words"), VOID_ALL_KINDS)
def test_irregularities_that_void_every_hand(kind: str, section: str, words: str) -> None:
    state = GAME.apply(_dealt(), irregular(kind, detail="seat 5" if kind == "wrong_card_count" else ""))
    s = GAME.settle(state)
    assert _all_void(s) == [(5, "asia_poker", "20.00"), (2, "asia_poker", "25.00"), (2, "bonus", "5.00")]
    assert s.void.startswith("all hands void, all wagers returned: ")
    assert words in s.void and s.void.endswith(f"({section})")
    assert all(REMOVE_DECK not in o.flags for o in s.outcomes)
    refused(GAME, state, put(2, ROUND_A_SETTINGS[2]), "the round is void")


def test_stub_not_four_and_not_misdealt_removes_the_deck() -> None:
    """§ 659a.8(e): "If the cards were not misdealt, all hands shall be void, all wagers shall be returned
    to the players and the entire deck of cards shall be removed from the table"."""
    s = GAME.settle(GAME.apply(_dealt(), irregular("stub_count_wrong")))
    assert _all_void(s)
    assert all(o.flags == (REMOVE_DECK,) for o in s.outcomes)
    assert "remove the deck" in s.void and "(§ 659a.8(d), (e))" in s.void
    # From an automated dealing shoe the section is § 659a.10(c), (d).
    auto = rules({"dealing": "automated shoe", "bonus": {"offered": True}})
    s = GAME.settle(GAME.apply(_dealt(auto), irregular("stub_count_wrong")))
    assert s.void.endswith("(§ 659a.10(c), (d))")


def test_the_first_card_to_the_wrong_position_voids_the_round() -> None:
    """§ 659a.13(c): the dice say 12 (seat 3), the first card goes to seat 5."""
    r = rules()
    events = [
        wager(3, "asia_poker", "10.00"),
        wager(5, "asia_poker", "10.00"),
        NO_MORE_BETS,
        Event("dice", dice=(3, 4, 5)),
    ]
    state = state_after(GAME, r, events)
    state = GAME.apply(state, cards(5, ROUND_A_HANDS["5"]))
    s = GAME.settle(state)
    assert _all_void(s) == [(5, "asia_poker", "10.00"), (3, "asia_poker", "10.00")]
    assert "the first card went to seat 5, but the count of 12 starts at seat 3" in s.void
    # A stack dealt to an empty position need not be reported: count 13 starts at seat 2 (no wager);
    # the first reported stack may be seat 3's.
    state = state_after(GAME, r, [*events[:3], Event("dice", dice=(4, 4, 5))])
    state = GAME.apply(state, cards(3, ROUND_A_HANDS["3"]))
    assert state.void is None


def test_a_card_found_face_up_once_is_discarded_twice_voids() -> None:
    state = GAME.apply(_dealt(), irregular("card_face_up", detail="2c"))
    assert state.void is None and state.discarded == parse_cards("2c")
    assert "not used" in state.notes[-1]
    refused(GAME, state, cards(6, "2c 3c 8c 7c 6c Jc Qs"), "found face up")
    s = GAME.settle(GAME.apply(state, irregular("card_face_up")))
    assert "more than one card was found face up" in s.void and s.void.endswith("(§ 659a.13(f))")


def test_notes_that_change_nothing() -> None:
    # § 659a.13(g): used as the next card; (a), (b): no roll and reshake; (l): the shuffler reshuffles.
    state = GAME.apply(_dealt(), irregular("card_drawn_in_error"))
    assert state.void is None and "used as the next card" in state.notes[-1]
    r = rules()
    s0 = state_after(GAME, r, [wager(1, "asia_poker", "5.00"), irregular("shuffler_jam"), NO_MORE_BETS])
    s1 = GAME.apply(s0, irregular("no_roll"))
    s2 = GAME.apply(s1, irregular("no_roll"))
    assert (s2.no_rolls, s2.start) == (2, None)
    s3 = GAME.apply(s2, Event("dice", dice=(1, 1, 5)))  # 7: seat 1
    assert s3.start == "1"
    refused(GAME, s3, irregular("no_roll"), "the dice were counted")
    s4 = GAME.apply(s3, cards(1, ROUND_A_HANDS["1"]))
    refused(GAME, s4, irregular("shuffler_jam"), "comes before the deal")


def test_the_shoe_jam_and_its_table() -> None:
    refused(GAME, _dealt(), irregular("shoe_jam"), "not an automated dealing shoe")
    auto = rules({"dealing": "automated shoe", "bonus": {"offered": True}})
    s = GAME.settle(GAME.apply(_dealt(auto), irregular("shoe_jam")))
    assert "reshuffled with those dealt" in s.void and s.void.endswith("(§ 659a.13(m))")


def test_a_player_whose_card_was_exposed_may_void_or_play() -> None:
    """§ 659a.13(d): the player's choice, made before setting."""
    state = GAME.apply(_dealt(), irregular("player_card_exposed", seat=2))
    refused(GAME, state, put(2, ROUND_A_SETTINGS[2]), "first chooses to play or void")
    refused(GAME, state, decide(5, "void"), "only after the dealer exposed")
    voided = GAME.apply(state, decide(2, "void"))
    voided = GAME.apply(voided, put(5, ROUND_A_SETTINGS[5]))
    s = GAME.settle(voided)
    assert [(o.seat, o.wager, o.result) for o in s.outcomes] == [
        (5, "asia_poker", Result.LOSE),
        (2, "asia_poker", Result.VOID),
        (2, "bonus", Result.VOID),
    ]
    assert s.for_seat(2)["bonus"].section == "§ 659a.13(d)"
    played = GAME.apply(state, decide(2, "play"))
    played = GAME.apply(GAME.apply(played, put(2, ROUND_A_SETTINGS[2])), put(5, ROUND_A_SETTINGS[5]))
    # T-T-5-4 < K-K-7-4; 9-9 > A-Q; 3 < 9.
    assert line(GAME.settle(played), 2, "asia_poker") == ("lose", "-25.00", "high lose, medium win, low lose")


def test_the_dealer_set_incorrectly_is_reset_by_the_house_way() -> None:
    """§ 659a.13(i): the settlement is the house way's whatever the dealer did."""
    state = GAME.apply(GAME.apply(_dealt(), put(2, ROUND_A_SETTINGS[2])), put(5, ROUND_A_SETTINGS[5]))
    noted = GAME.apply(state, irregular("dealer_set_incorrectly"))
    assert "reset" in noted.notes[-1]
    assert GAME.settle(noted) == GAME.settle(state)
    refused(GAME, _dealt(), irregular("dealer_set_incorrectly"), "not set yet")
    refused(GAME, state, irregular("dealer_card_exposed"), "turned over")
    refused(GAME, state, irregular("stub_count_wrong"), "the deal is over")


# --- events the rules refuse, with the state unchanged ---------------------------------------------


@pytest.mark.parametrize(
    ("event", "match"),
    [
        (wager(7, "asia_poker", "10.00"), r"seat 7 is not a betting position \(1 to 6"),
        (wager(1, "ante", "10.00"), "no wager 'ante' at Asia Poker"),
        (wager(1, "bonus", "1.00"), "does not offer the bonus wager"),
        (wager(1, "asia_poker", "1.00"), "below the table's minimum of 5.00"),
        (cards(1, "As"), 'before "no more bets"'),
        (decide(1, "set As / Ks / Qs"), "placed no Asia Poker Wager"),
        (Event("meter", name="progressive", amount=100), "no progressive meter"),
        (Event("hole_card_reader", result="blackjack"), "no hole_card_reader event"),
        (irregular("monkey"), "no irregularity 'monkey'"),
        (irregular("stub_count_wrong"), 'nothing is dealt before "no more bets"'),
    ],
)
def test_refused_before_the_deal(event: Event, match: str) -> None:
    refused(GAME, GAME.start(rules(), {}), event, match)


def test_bonus_needs_the_wager_first() -> None:
    state = GAME.start(rules({"bonus": {"offered": True}}), {})
    refused(GAME, state, wager(1, "bonus", "1.00"), "place that first")


@pytest.mark.parametrize(
    ("event", "match"),
    [
        (wager(1, "asia_poker", "10.00"), 'after the dealer has announced "no more bets"'),
        (NO_MORE_BETS, "already announced"),
        (cards(6, "Ac"), "already out"),
        (cards(2, "2s"), "would hold 8 cards"),
        (cards("board", "2s"), "no cards go to 'board'"),
        (put(2, "Tc Ts 5h 4c / 9h 9c / 2s"), "was dealt"),
        (put(2, "Tc Ts 5h 4c 9h 9c 3d"), 'a setting is "set <high> / <medium> / <low>"'),
        (decide(2, "fold"), "no action 'fold'"),
        (decide(2, "help me"), "takes nothing after it"),
        (Event("decision", seat=2, action="set Tc Ts 5h 4c / 9h 9c / 3d", hand=1), "no hand index"),
        (decide(3, "help"), "placed no Asia Poker Wager"),
        (irregular("player_card_exposed", seat=3), "stack is collected unexposed"),
        (irregular("no_roll"), "the dice were counted"),
    ],
)
def test_refused_after_the_deal(event: Event, match: str) -> None:
    refused(GAME, _dealt(), event, match)


def test_a_hand_is_set_once() -> None:
    state = GAME.apply(_dealt(), put(2, ROUND_A_SETTINGS[2]))
    refused(GAME, state, put(2, ROUND_A_SETTINGS[2]), "may not touch the cards again")
    refused(GAME, state, decide(2, "help"), "may not touch the cards again")


def test_settle_says_what_it_waits_for() -> None:
    with pytest.raises(IllegalEvent, match='wagers and "no more bets"'):
        GAME.settle(GAME.start(rules(), {}))
    with pytest.raises(IllegalEvent, match="seat 5 to set the high, medium and low hands"):
        GAME.settle(GAME.apply(_dealt(), put(2, ROUND_A_SETTINGS[2])))
    partial = state_after(
        GAME, rules(), [wager(4, "asia_poker", "5.00"), NO_MORE_BETS, DICE_DEALER, cards("dealer", DEALER_A)]
    )
    with pytest.raises(IllegalEvent, match="seat 4's seven cards"):
        GAME.settle(partial)


def test_a_wager_taken_back_before_no_more_bets() -> None:
    state = state_after(GAME, rules(), [wager(3, "asia_poker", "10.00"), wager(3, "asia_poker", "0.00")])
    assert state.wagers == ()
    state = state_after(
        GAME,
        rules({"bonus": {"offered": True}}),
        [wager(3, "asia_poker", "10.00"), wager(3, "bonus", "1.00")],
    )
    refused(GAME, state, wager(3, "asia_poker", "0.00"), "take back the optional wagers")


# --- properties over random rounds -----------------------------------------------------------------------


def _random_round(rng: random.Random, r: AsiaPokerRules) -> tuple[list[Event], dict[int, str]]:
    """A random round: random seats, stakes, a Bonus where offered, random settings (some illegal)."""
    deck = list(DECK53)
    rng.shuffle(deck)
    seats = sorted(rng.sample(range(1, 7), rng.randint(1, 6)))
    events = []
    kinds: dict[int, str] = {}
    for s in seats:
        events.append(Event("wager", seat=s, wager="asia_poker", amount=rng.choice([500, 1000, 2500, 10000])))
        if r.bonus_offered and rng.random() < 0.5:
            events.append(Event("wager", seat=s, wager="bonus", amount=rng.choice([100, 500, 2000])))
    events += [NO_MORE_BETS, DICE_DEALER]
    hands = {"dealer": tuple(deck[:7])}
    events.append(Event("cards", to="dealer", cards=hands["dealer"]))
    for i, s in enumerate(seats):
        cards = tuple(deck[7 * (i + 1) : 7 * (i + 2)])
        hands[str(s)] = cards
        events.append(Event("cards", to=str(s), cards=cards))
    for s in reversed(seats):
        options = list(all_settings(hands[str(s)]))
        choice = rng.choice(options) if rng.random() < 0.5 else set_hands(hands[str(s)])
        legal = setting_is_valid(*choice, a234_low=r.a234_lowest)
        kinds[s] = "legal" if legal else "illegal"
        events.append(Event("decision", seat=s, action=setting_action(choice)))
    bonus_seats = {e.seat for e in events if e.type == "wager" and e.wager == "bonus"}
    for s in seats:
        if s not in bonus_seats and rng.random() < 0.2:
            events.append(Event("decision", seat=s, action="surrender"))
            kinds[s] = "surrendered"
    return events, kinds


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), table=st.sampled_from("ABC"), limit=st.sampled_from(["", "50000.00"]))
def test_random_rounds(seed: int, table: str, limit: str) -> None:
    r = rules({"bonus": {"offered": True, "paytable": table}, "payout_limit": limit})
    events, kinds = _random_round(random.Random(seed), r)
    s = run(GAME, r, events)
    again = run(GAME, r, events)
    assert json.dumps(s.to_json()) == json.dumps(again.to_json())  # deterministic replay
    for o in s.outcomes:
        if o.result is Result.LOSE:
            assert o.net == -o.stake  # a loss is exactly the stake
        if o.result is Result.WIN:
            assert o.net > 0
            if r.payout_limit is not None:
                assert o.net <= r.payout_limit
        if o.wager == "asia_poker":
            if kinds[o.seat] in ("illegal", "surrendered"):
                assert o.result is Result.LOSE  # a mis-set hand or a surrender never wins
            if o.result is Result.WIN:
                assert o.net == o.stake  # 1 to 1 (§ 659a.12(a))
    per_seat: dict[int, int] = {}
    for o in s.outcomes:
        if o.result is Result.WIN:
            per_seat[o.seat] = per_seat.get(o.seat, 0) + o.net
    if r.payout_limit is not None:
        assert all(v <= r.payout_limit for v in per_seat.values())


# --- Fortune Asia Poker -------------------------------------------------------------------------------------

FORTUNE_ROWS = {
    "seven-card straight flush": "2h 3h 4h 5h 6h 7h 8h",
    "seven-card straight flush with a joker": "2h 3h 4h 5h 6h JKR 8h",
    "five aces": "As Ah Ad Ac JKR 2c 3d",
    "royal flush": "Ts Js Qs Ks As 2c 3d",
    "natural straight flush": "5h 6h 7h 8h 9h 2c Kd",
    "straight flush with a joker": "5h 6h 7h 8h JKR 2c Kd",
    "four-of-a-kind": "Qs Qh Qd Qc 2c 5d 9h",
    "full house": "Js Jh Jd 4c 4s 9h 2d",
    "flush": "2s 5s 9s Js Ks 3h 4d",
    "three-of-a-kind": "7c 7d 7h Ks 9d 4c 2s",
    "straight": "4c 5d 6h 7s 8c Kd 2h",
    "three pair": "4c 4d 9h 9s Kc Kd 2h",
}
INSURANCE_ROWS = {
    "ace-high": "Ah Jd 9c 7s 5h 3d 2c",
    "king-high": "Kh Jd 9c 7s 5h 3d 2c",
    "queen-high": "Qh Jd 9c 7s 5h 3d 2c",
    "jack-high": "Jh 9d 8c 6s 5h 3d 2c",
    "10-high": "Th 9d 8c 6s 5h 3d 2c",
    "9-high": "9h 8d 7c 6s 4h 3d 2c",
}


@pytest.mark.parametrize(("row", "seven"), list(FORTUNE_ROWS.items()))
def test_fortune_hands(row: str, seven: str) -> None:
    h = fortune_hand(parse_cards(seven))
    assert h.row == row
    assert h.insurance_row is None


@pytest.mark.parametrize(("row", "seven"), list(INSURANCE_ROWS.items()))
def test_insurance_hands(row: str, seven: str) -> None:
    h = fortune_hand(parse_cards(seven))
    assert (h.row, h.pair, h.insurance_row) == (None, False, row)


def test_fortune_hands_with_the_joker() -> None:
    # The joker as an ace: no pair without an ace, ace-high; with 2-3-5 it cannot make a straight
    # (ace and 4 both missing).
    assert fortune_hand(parse_cards("JKR Kd 9c 7s 5h 3d 2c")).insurance_row == "ace-high"
    # With an ace it pairs it: no Insurance, no Fortune hand.
    h = fortune_hand(parse_cards("JKR Ad 9c 7s 5h 3d Kc"))
    assert (h.row, h.pair, h.insurance_row) == (None, True, None)
    # 7-6-5-4-3-2 of hearts and the joker: a seven-card straight flush with a joker (as the 8 or ace).
    assert fortune_hand(parse_cards("7h 6h 5h 4h 3h 2h JKR")).row == "seven-card straight flush with a joker"
    # 8-8, K-K, 3-3 and the joker (an ace, alone): three pair.
    assert fortune_hand(parse_cards("8c 8d JKR Kc Kd 3s 3h")).row == "three pair"
    assert fortune_hand(parse_cards("8c 8d JKR Ac Kd 3s 3h")).row == "three pair"  # A-A via the joker
    assert fortune_hand(parse_cards("Ac Ad JKR Kc Kd 3s 2h")).row == "full house"


@settings(max_examples=300, deadline=None)
@given(seven=st.lists(st.sampled_from(DECK53), min_size=7, max_size=7, unique=True))
def test_fortune_agrees_with_the_bonus_where_their_hands_meet(seven: list[Card]) -> None:
    """Where the Asia Poker Bonus hand (§ 659a.6(d)) is one the Fortune list also has, and no
    seven-card straight flush is there, the two evaluators name the same hand."""
    same = {
        "five aces": 10, "royal flush": 9, "natural straight flush": 8, "straight flush with a joker": 7,
        "four-of-a-kind": 6, "full house": 4, "flush": 3, "three-of-a-kind": 2, "straight": 1,
    }  # fmt: skip
    b = bonus_key(seven)[0]
    f = fortune_hand(seven)
    if f.row is not None and f.row.startswith("seven-card"):
        return
    if b in same.values():
        assert f.row is not None and same[f.row] == b
    if f.row is None:
        assert b in (0, 5)  # nothing, or a 9-high (not a Fortune hand)


# The example Rules Submission's paytables (examples/fortune-asia-poker/rules-submission.toml, marked there
# as examples), written out again here as the odds each row pays.
FORTUNE_BONUS_TO_1 = {
    "seven-card straight flush": 8000, "seven-card straight flush with a joker": 1000, "five aces": 400,
    "royal flush": 150, "natural straight flush": 50, "straight flush with a joker": 50,
    "four-of-a-kind": 25, "full house": 5, "flush": 4, "three-of-a-kind": 3, "straight": 2,
}  # fmt: skip
INSURANCE_TO_1 = {
    "ace-high": 1,
    "king-high": 3,
    "queen-high": 4,
    "jack-high": 10,
    "10-high": 25,
    "9-high": 100,
}
PROGRESSIVE_FOR_1 = {
    "five aces": 500, "royal flush": 250, "natural straight flush": 50, "straight flush with a joker": 50,
    "four-of-a-kind": 25, "full house": 5,
}  # fmt: skip
ENVY = {
    "seven-card straight flush": "5000.00", "seven-card straight flush with a joker": "500.00",
    "five aces": "250.00", "royal flush": "50.00", "natural straight flush": "20.00",
    "straight flush with a joker": "20.00", "four-of-a-kind": "5.00",
}  # fmt: skip
ALL_FORTUNE = {
    "fortune_bonus": {"offered": True},
    "insurance": {"offered": True},
    "progressive": {"offered": True},
}
# Dealers' hands for the row tests: the first sharing no card with the player's.
FORTUNE_DEALERS = ("Tc Td 8s 6d Kc 3c 9s", "Tc Td 8d 6c Qh 3c 2d")


def dealer_for(seven: str) -> str:
    mine = set(parse_cards(seven))
    return next(d for d in FORTUNE_DEALERS if not mine & set(parse_cards(d)))


def _fortune_round(
    wagers: Mapping[int, Mapping[str, str]],
    hands: Mapping[str, str],
    after: Sequence[Event] = (),
    **over: object,
) -> Settlement:
    r = frules({**ALL_FORTUNE, **over})
    settings_ = {
        int(p): apg.format_setting(set_hands(parse_cards(c))) for p, c in hands.items() if p != "dealer"
    }
    return run(FORTUNE, r, round_events(wagers, hands, settings_, after), {"progressive": m("12345.67")})


@pytest.mark.parametrize("row", list(FORTUNE_BONUS_TO_1))
def test_every_fortune_bonus_row(row: str) -> None:
    seven = FORTUNE_ROWS[row]
    s = _fortune_round(
        {4: {"fortune_asia_poker": "10.00", "fortune_bonus": "5.00"}},
        {"dealer": dealer_for(seven), "4": seven},
    )
    assert line(s, 4, "fortune_bonus") == ("win", f"+{5 * FORTUNE_BONUS_TO_1[row]}.00", row)


def test_fortune_bonus_three_pair_loses_unless_the_paytable_pays_it() -> None:
    seven = FORTUNE_ROWS["three pair"]
    hands = {"dealer": dealer_for(seven), "4": seven}
    s = _fortune_round({4: {"fortune_asia_poker": "10.00", "fortune_bonus": "5.00"}}, hands)
    assert line(s, 4, "fortune_bonus") == ("lose", "-5.00", "three pair")
    table = {**fap.FORTUNE_BONUS_EXAMPLE, "three pair": "1 to 1"}
    s = _fortune_round(
        {4: {"fortune_asia_poker": "10.00", "fortune_bonus": "5.00"}},
        hands,
        fortune_bonus={"offered": True, "paytable": table},
    )
    assert line(s, 4, "fortune_bonus") == ("win", "+5.00", "three pair")


@pytest.mark.parametrize("row", list(INSURANCE_TO_1))
def test_every_insurance_row(row: str) -> None:
    seven = INSURANCE_ROWS[row]
    hands = {"dealer": dealer_for(seven), "4": seven}
    s = _fortune_round({4: {"fortune_asia_poker": "10.00", "insurance": "2.00"}}, hands)
    assert line(s, 4, "insurance") == ("win", f"+{2 * INSURANCE_TO_1[row]}.00", row)


@pytest.mark.parametrize("seven", ["Qc Kd Ah 2s 3d 7c 7d", FORTUNE_ROWS["straight"], FORTUNE_ROWS["flush"]])
def test_insurance_loses_with_a_pair_or_better(seven: str) -> None:
    hands = {"dealer": dealer_for(seven), "4": seven}
    s = _fortune_round({4: {"fortune_asia_poker": "10.00", "insurance": "2.00"}}, hands)
    assert line(s, 4, "insurance")[:2] == ("lose", "-2.00")


@pytest.mark.parametrize("row", list(PROGRESSIVE_FOR_1))
def test_every_fixed_progressive_row(row: str) -> None:
    seven = FORTUNE_ROWS[row]
    s = _fortune_round(
        {4: {"fortune_asia_poker": "10.00", "progressive": "1.00"}}, {"dealer": dealer_for(seven), "4": seven}
    )
    # N for 1 on $1: N in all, the $1 included: net N - 1.
    assert line(s, 4, "progressive") == ("win", f"+{PROGRESSIVE_FOR_1[row] - 1}.00", row)
    o = s.for_seat(4)["progressive"]
    assert o.flags == (PROGRESSIVE_LIGHT, FLOORPERSON_VALIDATE)
    assert s.meters == {"progressive": m("12345.67")}


def test_progressive_shares_of_the_meter_paid_in_order() -> None:
    """A share of the meter as it stands when that player is paid; 100% resets it."""
    hands = {
        "dealer": "Tc Td 9d 6d Qc 3c Kc",
        "5": FORTUNE_ROWS["seven-card straight flush with a joker"],  # 10% of meter: 1,234.56 (rounded down)
        "2": "2s 3s 4s 5s 6s 7s 8s",  # 100% of the meter then left: 11,111.11; the meter resets to 10,000
    }
    s = _fortune_round(
        {
            5: {"fortune_asia_poker": "10.00", "progressive": "1.00"},
            2: {"fortune_asia_poker": "10.00", "progressive": "1.00"},
        },
        hands,
    )
    assert line(s, 5, "progressive") == ("win", "+1234.56", "seven-card straight flush with a joker")
    assert line(s, 2, "progressive") == ("win", "+11111.11", "seven-card straight flush")
    for seat in (5, 2):
        assert s.for_seat(seat)["progressive"].flags == (
            PROGRESSIVE_LIGHT,
            FLOORPERSON_VALIDATE,
            NOT_FROM_INVENTORY,
        )
    assert s.meters == {"progressive": m("10000.00")}


@pytest.mark.parametrize(("returns", "net"), [(None, "+1234.56"), (False, "+1233.56")])
def test_a_share_of_the_meter_returns_the_wager_as_the_submission_files(
    returns: bool | None, net: str
) -> None:
    # § 659a.12(d) is not in our copy: whether "10% of meter" returns the wager beside it is the
    # Rules Submission's (progressive.meter_share_returns_wager; default true, the table's behaviour
    # before it was an option). 10% of $12,345.67 is $1,234.56.
    hands = {
        "dealer": "Tc Td 9d 6d Qc 3c Kc",
        "5": FORTUNE_ROWS["seven-card straight flush with a joker"],
    }
    over = {} if returns is None else {"progressive": {"offered": True, "meter_share_returns_wager": returns}}
    s = _fortune_round({5: {"fortune_asia_poker": "10.00", "progressive": "1.00"}}, hands, **over)
    assert line(s, 5, "progressive") == ("win", net, "seven-card straight flush with a joker")


def test_a_share_of_the_meter_needs_the_meter() -> None:
    r = frules(ALL_FORTUNE)
    hands = {"dealer": "Tc Td 9d 6d Qc 3c Kc", "2": "2s 3s 4s 5s 6s 7s 8s"}
    events = round_events(
        {2: {"fortune_asia_poker": "10.00", "progressive": "1.00"}}, hands, {2: "8s 7s 6s 5s / 4s 3s / 2s"}
    )
    with pytest.raises(IllegalEvent, match="no progressive meter was reported"):
        run(FORTUNE, r, events)
    # A meter event gives it.
    s = run(FORTUNE, r, [*events[:2], Event("meter", name="progressive", amount=m("20000.00")), *events[2:]])
    # 100% of the $20,000 on the meter; the meter goes back to its $10,000 reset amount.
    assert line(s, 2, "progressive") == ("win", "+20000.00", "seven-card straight flush")
    assert s.meters == {"progressive": m("10000.00")}


def test_envy_bonus_for_every_other_players_qualifying_hand() -> None:
    hands = {
        "dealer": "Tc Td 8s 6d Kh Kd Js",
        "6": "Qs Qh Qd Qc 2c 5d 9h",  # four queens: a qualifying hand; a lammer ($5 Fortune Bonus)
        "4": "As Ah Ad Ac JKR 7c 3d",  # five aces; no lammer (a $4 Fortune Bonus is no Qualifying Wager)
        "3": "2h 3h 4h 8h Jh Kc 6s",  # a flush, no qualifying hand; a lammer by its $5 Progressive
        "1": "Ts 9d 9c 7d 7s 5c 4d",  # two pair; no lammer
    }
    wagers = {
        6: {"fortune_asia_poker": "10.00", "fortune_bonus": "5.00"},
        4: {"fortune_asia_poker": "10.00", "fortune_bonus": "4.00"},
        3: {"fortune_asia_poker": "10.00", "progressive": "5.00"},
        1: {"fortune_asia_poker": "10.00"},
    }
    s = _fortune_round(wagers, hands, **{"progressive.wager": "5.00"})
    envy = [(o.seat, o.wager, o.to_json()["net"], o.hand) for o in s.outcomes if o.wager.startswith("envy")]
    # Seat 6 (lammer): for seat 4's five aces ($250), not for its own four queens.
    # Seat 3 (lammer): for seat 6's four-of-a-kind ($5) and seat 4's five aces ($250).
    assert envy == [
        (6, "envy_bonus_seat_4", "+250.00", "five aces"),
        (3, "envy_bonus_seat_6", "+5.00", "four-of-a-kind"),
        (3, "envy_bonus_seat_4", "+250.00", "five aces"),
    ]
    # Every seat's own wagers first, from the dealer's right; the Envy Bonuses after all of them.
    order = [(o.seat, o.wager) for o in s.outcomes]
    assert order[:7] == [
        (6, "fortune_asia_poker"), (6, "fortune_bonus"), (4, "fortune_asia_poker"), (4, "fortune_bonus"),
        (3, "fortune_asia_poker"), (3, "progressive"), (1, "fortune_asia_poker"),
    ]  # fmt: skip


ENVY_DEALER_TWO_AREAS = "Tc Td 8s 6d Kh Kd Js"


def _two_areas_round(wagers: Mapping[int, Mapping[str, str]], hands: Mapping[str, str]) -> Settlement:
    """A Fortune round where the player at area 5 takes area 4 too (§ 659a.7(f)), the table
    permitting it; the hands set by the house way, area 5 first (equal wagers: counterclockwise)."""
    r = frules({**ALL_FORTUNE, "adjacent_betting_areas": True})
    settings_ = {
        int(p): apg.format_setting(set_hands(parse_cards(c))) for p, c in hands.items() if p != "dealer"
    }
    events = round_events(wagers, hands, settings_)
    events.insert(events.index(NO_MORE_BETS), second_area(5, 4))
    return run(FORTUNE, r, events, {"progressive": m("12345.67")})


def _envy(s: Settlement) -> list[tuple[int, str, object, str]]:
    return [(o.seat, o.wager, o.to_json()["net"], o.hand) for o in s.outcomes if o.wager.startswith("envy")]


def test_no_envy_bonus_for_the_players_own_hand_on_his_other_area() -> None:
    # § 659a.11(h)(1)(ii): "A player is not entitled to an Envy Bonus for his own hand". The player on
    # areas 5 and 4 (§ 659a.7(f)) has a Fortune Bonus (a lammer) on 5 and four queens on 4: no Envy
    # Bonus for them; the player at area 2, with a lammer, is paid one.
    hands = {
        "dealer": ENVY_DEALER_TWO_AREAS,
        "5": "2h 3h 4h 8h Jh Kc 6s",
        "4": "Qs Qh Qd Qc 2c 5d 9h",
        "2": "Ts 9d 9c 7d 7s 5c 4d",
    }
    wagers = {
        5: {"fortune_asia_poker": "10.00", "fortune_bonus": "5.00"},
        4: {"fortune_asia_poker": "10.00"},
        2: {"fortune_asia_poker": "10.00", "fortune_bonus": "5.00"},
    }
    assert _envy(_two_areas_round(wagers, hands)) == [(2, "envy_bonus_seat_4", "+5.00", "four-of-a-kind")]


def test_a_player_with_two_lammers_receives_one_envy_bonus_per_qualifying_hand() -> None:
    # § 659a.11(h)(1)(ii): "the dealer shall pay an Envy Bonus ... to each player who has an Envy
    # lammer at the player's betting position": the player on areas 5 and 4, a lammer on each, is one
    # player, paid one Envy Bonus for the five aces at area 2, at area 5 (set first, § 659a.7(f)).
    hands = {
        "dealer": ENVY_DEALER_TWO_AREAS,
        "5": "Ts 9d 9c 7d 7s 5c 4d",
        "4": "2h 3h 4h 8h Jh Kc 6s",
        "2": "As Ah Ad Ac JKR 7c 3d",
    }
    wagers = {
        5: {"fortune_asia_poker": "10.00", "fortune_bonus": "5.00"},
        4: {"fortune_asia_poker": "10.00", "fortune_bonus": "5.00"},
        2: {"fortune_asia_poker": "10.00"},
    }
    assert _envy(_two_areas_round(wagers, hands)) == [(5, "envy_bonus_seat_2", "+250.00", "five aces")]


def test_second_area_is_refused_where_it_cannot_be() -> None:
    # § 659a.7(f): only "If specified in its Rules Submission", only "two adjacent betting areas".
    hands = {"dealer": DEALER_A, "2": ROUND_A_HANDS["2"], "3": ROUND_A_HANDS["3"]}
    wagers = {2: {"asia_poker": "10.00"}, 3: {"asia_poker": "10.00"}, 5: {"asia_poker": "10.00"}}
    r = rules({"adjacent_betting_areas": True})
    state = state_after(GAME, r, [*round_events(wagers, hands), second_area(2, 3)])
    refused(GAME, state, second_area(3, 2), "seat 3 is already one of a player's two betting areas")
    refused(GAME, state, second_area(5, 5), "not adjacent")
    refused(GAME, state, Event("second_area", seat=2), "seat None is not a betting position")
    refused(GAME, state, second_area(2, 7), "seat 7 is not a betting position")


# The lammer holder's own hand: no pair, no straight (A-2-3-4 lacks the 5), four diamonds: nothing.
ENVY_LAMMER = "Ad Kc 9d 7c 4d 3s 2d"
ENVY_DEALER = "Tc Td 8s 6d Qc 5c 9c"


@pytest.mark.parametrize(
    "row",
    [
        "seven-card straight flush",
        "seven-card straight flush with a joker",
        "royal flush",
        "natural straight flush",
        "straight flush with a joker",
    ],
)
def test_every_envy_row(row: str) -> None:
    """Seat 5's Qualifying Wager earns the Envy table's sum for seat 2's hand (five aces and
    four-of-a-kind are in the test below)."""
    wagers = {5: {"fortune_asia_poker": "10.00", "fortune_bonus": "5.00"}, 2: {"fortune_asia_poker": "10.00"}}
    hands = {"dealer": ENVY_DEALER, "5": ENVY_LAMMER, "2": FORTUNE_ROWS[row]}
    s = _fortune_round(wagers, hands)
    assert line(s, 5, "envy_bonus_seat_2") == ("win", f"+{ENVY[row]}", row)
    assert [o.wager for o in s.outcomes if o.wager.startswith("envy")] == ["envy_bonus_seat_2"]


def test_envy_counts_a_surrendered_hand_not_a_voided_one() -> None:
    wagers = {
        5: {"fortune_asia_poker": "10.00"},  # will surrender: four jacks
        2: {"fortune_asia_poker": "10.00", "fortune_bonus": "5.00"},
    }
    hands = {"dealer": "Tc Td 8s 6d Qc 3c 9s", "5": "Js Jh Jd Jc 2c 5d 9h", "2": "4c 4d 9c Kh Kd 2h 7s"}
    s = _fortune_round(wagers, hands, after=[decide(5, "surrender")])
    assert line(s, 5, "fortune_asia_poker") == ("lose", "-10.00", "surrendered")
    assert line(s, 2, "envy_bonus_seat_5") == ("win", "+5.00", "four-of-a-kind")
    # Voided instead (§ 659a.13(d)): no Envy for it.
    r = frules(ALL_FORTUNE)
    ev = round_events(wagers, hands)
    ev.insert(ev.index(cards(2, hands["2"])) + 1, irregular("player_card_exposed", seat=5))
    ev += [decide(5, "void"), put(2, apg.format_setting(set_hands(parse_cards(hands["2"]))))]
    s = run(FORTUNE, r, ev, {"progressive": m("12345.67")})
    assert [o.wager for o in s.outcomes if o.seat == 2] == ["fortune_asia_poker", "fortune_bonus"]


def test_a_qualifying_wager_is_at_least_the_minimum() -> None:
    wagers = {5: {"fortune_asia_poker": "10.00"}, 2: {"fortune_asia_poker": "10.00", "fortune_bonus": "4.99"}}
    hands = {"dealer": "Tc Td 8s 6d Qc 3c 9s", "5": "Js Jh Jd Jc 2c 5d 9h", "2": "4c 4d 9c Kh Kd 2h 7s"}
    s = _fortune_round(wagers, hands)
    assert not [o for o in s.outcomes if o.wager.startswith("envy")]
    s = _fortune_round(wagers, hands, envy={"qualifying_wager": "1.00"})
    assert line(s, 2, "envy_bonus_seat_5") == ("win", "+5.00", "four-of-a-kind")


def test_fortune_surrender_only_without_an_optional_wager() -> None:
    r = frules(ALL_FORTUNE)
    hands = {"dealer": "Tc Td 8s 6d Qc 3c 9s", "2": "4c 4d 9c Kh Kd 2h 7s"}
    events = round_events(
        {2: {"fortune_asia_poker": "10.00", "insurance": "1.00"}}, hands, {2: "Kh Kd 7s 2h / 4c 4d / 9c"}
    )
    state = state_after(FORTUNE, r, events)
    refused(FORTUNE, state, decide(2, "surrender"), r"optional wager \(insurance\)")


@pytest.mark.parametrize(
    ("mapping", "problem"),
    [
        (
            {"fortune_bonus": {"paytable": {**fap.FORTUNE_BONUS_EXAMPLE, "royal flush": "10% of meter"}}},
            "fortune_bonus.paytable royal flush = 10% of meter: a share of the meter is paid only on the",
        ),
        (
            {"fortune_bonus": {"paytable": {**fap.FORTUNE_BONUS_EXAMPLE, "straight": "none"}}},
            'pays nothing on straight: the Fortune Bonus Wager wins with "a straight or higher"',
        ),
        (
            {"insurance": {"paytable": {**fap.INSURANCE_EXAMPLE, "9-high": "none"}}},
            "insurance.paytable pays nothing on 9-high",
        ),
        (
            {"progressive": {"paytable": {**fap.PROGRESSIVE_EXAMPLE, "full house": "none"}}},
            "progressive.paytable pays nothing on full house",
        ),
        ({"envy": {"qualifying_hand": "full house"}}, "envy.paytable has no amount for full house"),
        ({"envy": {"paytable": {**fap.ENVY_EXAMPLE, "flush": "1.00"}}}, "envy.paytable pays flush, below"),
        ({"envy": {"paytable": {"four of a kind": "5.00"}}}, "did you mean 'four-of-a-kind'?"),
        (
            {"payout_limit": "50000.00", "fortune_bonus": {"offered": True, "minimum": "10.00"}},
            # $5 + $10 x 8,000 = $80,005
            "payout_limit 50000.00 is below $80005.00",
        ),
    ],
)
def test_fortune_rules_problems(mapping: dict[str, object], problem: str) -> None:
    with pytest.raises(RulesError) as err:
        frules(mapping)
    assert problem in str(err.value)


# --- the examples: each record replays to its hand-written settlement ---------------------------------------


def _records() -> list[Path]:
    out = []
    for game in ("asia-poker", "fortune-asia-poker"):
        out += sorted(p for p in (EXAMPLES / game).glob("*.json") if not p.name.endswith(".settlement.json"))
    return out


@pytest.mark.parametrize("path", _records(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_example_records_replay_to_their_settlements(path: Path) -> None:
    games = {GAME.name: GAME, FORTUNE.name: FORTUNE}
    record = load_record(json.loads(path.read_text()), games, str(path))
    expected = json.loads(path.with_suffix(".settlement.json").read_text())
    assert replay(record).to_json() == expected
    assert replay(record).to_json() == replay(record).to_json()


@pytest.mark.parametrize("path", _records(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_example_records_explain_with_sections(path: Path) -> None:
    games = {GAME.name: GAME, FORTUNE.name: FORTUNE}
    record = load_record(json.loads(path.read_text()), games, str(path))
    text = "\n".join(explain(record, replay(record)))
    assert "§ 659a" in text and "Settlement" in text


def test_each_game_has_three_examples_and_a_valid_submission() -> None:
    games = {GAME.name: GAME, FORTUNE.name: FORTUNE}
    for game in games:
        assert len(list((EXAMPLES / game).glob("*.settlement.json"))) >= 3, game
        text = (EXAMPLES / game / "rules-submission.toml").read_text()
        sub = parse_submission(text, games, game)
        assert sub.game.name == game


def test_the_game_objects() -> None:
    assert (GAME.name, GAME.title, GAME.chapter, GAME.joker) == (
        "asia-poker",
        "Asia Poker",
        "58 Pa. Code ch. 659a",
        True,
    )
    assert (FORTUNE.name, FORTUNE.joker, FORTUNE.main_wager) == (
        "fortune-asia-poker",
        True,
        "fortune_asia_poker",
    )
    assert GAME.decks(rules()) == 1 and FORTUNE.decks(frules()) == 1
    with pytest.raises(TypeError):
        GAME.start(frules(), {})


@pytest.mark.parametrize(
    "path",
    sorted(
        p
        for game in ("asia-poker", "fortune-asia-poker")
        for p in (EXAMPLES / game).glob("*.json")
        if not p.name.endswith(".settlement.json")
    ),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_the_dealer_settles_while_a_surrender_is_open(path: Path) -> None:
    """§ 659a.11(d): "a player may surrender his wager after the hands of the dealer have been set"
    unless he placed an optional wager. After every event of the example, the open decisions are
    exactly those seats, computed here from the events alone, and only once the round could be
    settled."""
    record = load_record(json.loads(path.read_text()), GAMES, str(path))
    game = record.game
    main = "asia_poker" if game.name == "asia-poker" else "fortune_asia_poker"
    rnd = Round.begin(game, record.rules, record.meters)
    for event in record.events:
        rnd.apply(event)
        events = rnd.events
        wagers = {(e.seat, e.wager) for e in events if e.type == "wager"}
        out = {e.seat for e in events if e.type == "decision" and e.action in ("surrender", "void")}
        eligible = sorted(
            s
            for s, w in wagers
            if w == main and s not in out and not any(x == s and v != main for x, v in wagers)
        )
        try:
            settleable = rnd.settle().void == ""  # a void round only remains to be settled
        except IllegalEvent:
            settleable = False
        decisions = open_decisions(game, rnd.state)
        dealer_cards = sum(len(e.cards or ()) for e in events if e.type == "cards" and e.to == "dealer")
        if settleable and dealer_cards == 7 and eligible:
            assert decisions.endswith("may still surrender (§ 659a.11(d))"), decisions
            assert [int(n) for n in decisions.split(" may ")[0].split(" ", 1)[1].split(", ")] == eligible
        else:
            assert decisions == "", (event, decisions)
