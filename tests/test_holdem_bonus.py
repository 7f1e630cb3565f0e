"""Texas Hold 'Em Bonus Poker, 58 Pa. Code ch. 647a: the round engine, from events to settlement.

Every expected amount below is worked by hand from § 647a.12 (1 to 1; the Bonus paytables A
and B) and written into the test; none is copied from running the code.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules.core.cards import format_cards, standard_deck
from controller.rules.core.engine import IllegalEvent, Round, play
from controller.rules.core.events import Event
from controller.rules.core.money import Cents, Odds, parse_money
from controller.rules.core.options import RulesError, load_rules
from controller.rules.core.record import load_record, replay
from controller.rules.core.settlement import PAYOUT_LIMITED, Result, Settlement
from controller.rules.core.submission import parse_submission
from controller.rules.games.holdem_bonus.game import (
    ACE_ACE,
    ACE_ACE_DEALER_AND_PLAYER,
    ACE_KING_OFFSUIT,
    ACE_KING_SUITED,
    ACE_QUEEN_JACK_OFFSUIT,
    ACE_QUEEN_JACK_SUITED,
    BONUS_HANDS,
    BONUS_PAYTABLES,
    GAME,
    KINGS_QUEENS_JACKS,
    PAIR_TEN_TO_TWO,
    HoldemBonusRules,
    awaiting,
    bonus_hand,
    most_one_patron_wins,
)

from .rounds import NO_MORE_BETS, cards, decide, irregularity, round_refuses, wager

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "holdem-bonus"


# --- helpers ----------------------------------------------------------------------------------


def rules(**values: object) -> HoldemBonusRules:
    """Rules from dotted keys written with ``__`` for the dot: ``bonus__paytable="B"``."""
    mapping = {k.replace("__", "."): v for k, v in values.items()}
    return load_rules(HoldemBonusRules, mapping, "test", GAME.rules_checks)


def r(**values: object) -> HoldemBonusRules:
    return rules(**{"bonus__offered": True, **values})


def cents(text: str) -> Cents:
    return parse_money(text)


def settle(events: Iterable[Event], rule: HoldemBonusRules | None = None) -> Settlement:
    return play(GAME, rule or r(), {}, events)


def nets(s: Settlement) -> dict[tuple[int, str], tuple[Result, Cents]]:
    return {(o.seat, o.wager): (o.result, o.net) for o in s.outcomes}


def one_player(
    hole: str,
    dealer: str,
    flop: str,
    turn: str,
    river: str,
    *,
    ante: str = "10.00",
    bonus: str | None = None,
    flop_action: str = "bet",
    turn_action: str = "check",
    river_action: str = "check",
) -> list[Event]:
    """The events of a one-player round at seat 1."""
    events = [wager(1, "ante", ante)]
    if bonus:
        events.append(wager(1, "bonus", bonus))
    events += [NO_MORE_BETS, cards(1, hole), cards("dealer", dealer), decide(1, flop_action)]
    if flop_action == "fold":
        return events
    return [
        *events,
        cards("board", flop),
        decide(1, turn_action),
        cards("board", turn),
        decide(1, river_action),
        cards("board", river),
    ]


def begun(events: Iterable[Event], rule: HoldemBonusRules | None = None) -> Round[Any, Any]:
    rnd: Round[Any, Any] = Round.begin(GAME, rule or r())
    for e in events:
        rnd.apply(e)
    return rnd


# --- the Bonus paytables, § 647a.12(b) ----------------------------------------------------------

# (player, dealer, paytable, row, odds to 1) — every row of both tables, from the text's table.
BONUS_ROWS = [
    ("As Ah", "Ad Ac", "A", ACE_ACE_DEALER_AND_PLAYER, 1000),
    ("As Ah", "Ad Ac", "B", ACE_ACE, 30),  # "N/A" in B: the player's aces are ace-ace
    ("As Ah", "Ad Kc", "A", ACE_ACE, 30),
    ("As Ah", "Kd Kc", "B", ACE_ACE, 30),
    ("As Ks", "2d 3c", "A", ACE_KING_SUITED, 25),
    ("Kh Ah", "2d 3c", "B", ACE_KING_SUITED, 25),
    ("Ad Qd", "2d 3c", "A", ACE_QUEEN_JACK_SUITED, 20),
    ("Jc Ac", "2d 3c", "B", ACE_QUEEN_JACK_SUITED, 20),
    ("As Kd", "2d 3c", "A", ACE_KING_OFFSUIT, 15),
    ("Ks Ah", "2d 3c", "B", ACE_KING_OFFSUIT, 15),
    ("Ks Kd", "2d 3c", "A", KINGS_QUEENS_JACKS, 10),
    ("Qs Qd", "2d 3c", "B", KINGS_QUEENS_JACKS, 10),
    ("Js Jd", "2d 3c", "A", KINGS_QUEENS_JACKS, 10),
    ("As Qd", "2d 3c", "A", ACE_QUEEN_JACK_OFFSUIT, 5),
    ("Jh Ac", "2d 3c", "B", ACE_QUEEN_JACK_OFFSUIT, 5),
    ("Ts Td", "2d 3c", "A", PAIR_TEN_TO_TWO, 3),
    ("7s 7d", "2d 3c", "B", PAIR_TEN_TO_TWO, 3),
    ("2s 2h", "Ad 3c", "A", PAIR_TEN_TO_TWO, 3),
]


@pytest.mark.parametrize(("player", "dealer", "table", "row", "to_one"), BONUS_ROWS)
def test_every_bonus_row_pays_its_odds(player: str, dealer: str, table: str, row: str, to_one: int) -> None:
    # The player folds: the Bonus is settled anyway (§ 647a.11(b)(2)(i)); $5 at N to 1 wins 5 x N.
    events = one_player(player, dealer, "", "", "", bonus="5.00", flop_action="fold")
    s = settle(events, r(bonus__paytable=table))
    bonus = s.for_seat(1)["bonus"]
    assert bonus.result is Result.WIN and bonus.hand == row
    assert bonus.net == 5 * to_one * 100
    assert BONUS_PAYTABLES[table][row] == Odds(to_one, 1, "to")


def test_the_paytables_as_printed() -> None:
    # § 647a.12(b), read off the text: A then B, "N/A" for B's top row.
    printed = [1000, 30, 25, 20, 15, 10, 5, 3]
    assert [BONUS_PAYTABLES["A"][h] for h in BONUS_HANDS] == [Odds(n, 1, "to") for n in printed]
    assert BONUS_PAYTABLES["B"][ACE_ACE_DEALER_AND_PLAYER] is None
    assert [BONUS_PAYTABLES["B"][h] for h in BONUS_HANDS[1:]] == [Odds(n, 1, "to") for n in printed[1:]]


@pytest.mark.parametrize("player", ["Ks Qs", "As 9s", "7c 2d", "Kd Jd", "As Td", "Qh Tc"])
def test_bonus_loses_without_a_paying_hand(player: str) -> None:
    events = one_player(player, "4d 5c", "", "", "", bonus="5.00", flop_action="fold")
    assert nets(settle(events))[(1, "bonus")] == (Result.LOSE, -500)


def test_bonus_is_on_the_first_two_cards_only() -> None:
    # § 647a.7(d)(2): "that the player's first two cards will qualify": trips with the flop pay nothing.
    events = one_player("7c 2d", "4d 5c", "7h 7s 2c", "9d", "Kh", bonus="5.00")
    s = settle(events)
    assert s.for_seat(1)["bonus"].result is Result.LOSE
    assert s.for_seat(1)["flop"].result is Result.WIN  # full house, sevens full of twos


def test_ace_ace_dealer_and_player_needs_both_dealer_cards_aces() -> None:
    assert bonus_hand(cards(1, "As Ah").cards, cards(1, "Ad Kc").cards, "A") == ACE_ACE
    assert bonus_hand(cards(1, "As Ah").cards, cards(1, "Ad Ac").cards, "A") == ACE_ACE_DEALER_AND_PLAYER
    assert bonus_hand(cards(1, "Ks Kh").cards, cards(1, "Ad Ac").cards, "A") == KINGS_QUEENS_JACKS


def test_bonus_is_settled_after_the_seats_other_wagers() -> None:
    # § 647a.11(h)(3): "After settling a player's Ante, Flop, Turn and River Wagers ... any Bonus".
    events = one_player("Ks Kd", "4d 5c", "2h 7s 9c", "Jd", "3h", bonus="2.00", river_action="bet")
    order = [o.wager for o in settle(events).outcomes]
    assert order == ["ante", "flop", "river", "bonus"]


# --- the Ante rule, § 647a.11(h)(2)(ii) ---------------------------------------------------------

# Player 9h Th, dealer 2c 3d; board 6s 7c 8d Kh 4s: the player has a straight, nine... ten high.
STRAIGHT = ("9h Th", "2c 3d", "6s 7c 8d", "Kh", "Qs")  # T-9-8-7-6 straight; dealer K-Q-8-7-6
FLUSH = ("9h Th", "2c 3d", "2h 7h Kh", "4s", "Qs")  # heart flush; dealer pair of twos
TWO_PAIR = ("9h Th", "2c 3d", "9s Tc 5d", "Kh", "Qs")  # tens and nines; dealer K-Q-T-9-5


@pytest.mark.parametrize(
    ("hand", "rule", "ante"),
    [
        (STRAIGHT, "straight or higher", (Result.WIN, 1000)),
        (STRAIGHT, "flush or higher", (Result.PUSH, 0)),
        (FLUSH, "straight or higher", (Result.WIN, 1000)),
        (FLUSH, "flush or higher", (Result.WIN, 1000)),
        (TWO_PAIR, "straight or higher", (Result.PUSH, 0)),
        (TWO_PAIR, "flush or higher", (Result.PUSH, 0)),
    ],
)
def test_ante_is_paid_only_on_the_submitted_hand(
    hand: tuple[str, ...], rule: str, ante: tuple[Result, Cents]
) -> None:
    s = settle(one_player(*hand), r(ante__paid_on=rule))
    got = nets(s)
    assert got[(1, "ante")] == ante
    assert got[(1, "flop")] == (Result.WIN, 2000)  # Flop Wager $20 at 1 to 1 regardless


def test_ante_return_says_why() -> None:
    o = settle(one_player(*TWO_PAIR)).for_seat(1)["ante"]
    assert o.section == "§ 647a.11(h)(2)(ii)" and "straight or higher" in o.note


# --- decisions and the showdown, § 647a.11(b)-(h) ------------------------------------------------


def test_fold_at_the_flop_loses_the_ante_and_nothing_more() -> None:
    s = settle(one_player("7c 2d", "4d 5c", "", "", "", flop_action="fold"))
    assert nets(s) == {(1, "ante"): (Result.LOSE, -1000)}
    assert s.for_seat(1)["ante"].section == "§ 647a.11(b)(2)"


@pytest.mark.parametrize(
    ("turn", "river", "expected"),
    [
        ("check", "check", {"ante": 0, "flop": 2000}),
        ("bet", "check", {"ante": 0, "flop": 2000, "turn": 1000}),
        ("check", "bet", {"ante": 0, "flop": 2000, "river": 1000}),
        ("bet", "bet", {"ante": 0, "flop": 2000, "turn": 1000, "river": 1000}),
    ],
)
def test_turn_and_river_bet_or_check_when_the_player_wins(
    turn: str, river: str, expected: dict[str, Cents]
) -> None:
    # Two pair beats the dealer's king high: Ante returned, the rest 1 to 1 on $20 / $10 / $10.
    events = one_player(*TWO_PAIR, turn_action=turn, river_action=river)
    assert {o.wager: o.net for o in settle(events).outcomes} == expected


def test_dealer_beats_player_collects_every_wager() -> None:
    # Player 7c 2d: pair of sevens; dealer Ks Kd: pair of kings.
    events = one_player("7c 2d", "Ks Kd", "7h 9s 3c", "Jd", "4h", turn_action="bet", river_action="bet")
    assert nets(settle(events)) == {
        (1, "ante"): (Result.LOSE, -1000),
        (1, "flop"): (Result.LOSE, -2000),
        (1, "turn"): (Result.LOSE, -1000),
        (1, "river"): (Result.LOSE, -1000),
    }


def test_tie_returns_every_wager() -> None:
    # The board plays: A-K-Q-J-T straight for both.
    events = one_player("2c 3d", "4h 5s", "As Kd Qh", "Jc", "Ts", turn_action="bet", river_action="bet")
    s = settle(events)
    assert {o.result for o in s.outcomes} == {Result.PUSH}
    assert all(o.section == "§ 647a.11(h)(2)(iii)" for o in s.outcomes)


def test_kicker_decides_not_a_tie() -> None:
    # § 647a.6(c): pair of aces, king kicker beats pair of aces, queen kicker.
    events = one_player("As Kd", "Ac Qh", "Ah 7s 3c", "8d", "2h")
    assert nets(settle(events))[(1, "flop")] == (Result.WIN, 2000)


def test_wheel_is_a_straight_for_the_ante() -> None:
    events = one_player("Ah 5s", "Js Tc", "Qs 7d 2h", "3c", "4d")
    assert nets(settle(events))[(1, "ante")] == (Result.WIN, 1000)


def test_a_flop_wager_by_wager_event_is_the_same_as_a_bet() -> None:
    base = one_player(*TWO_PAIR)
    by_wager = [wager(1, "flop", "20.00") if e.type == "decision" and e.action == "bet" else e for e in base]
    assert settle(by_wager).to_json() == settle(base).to_json()


def test_settlement_order_folds_first_then_from_the_dealers_right_then_folded_bonuses() -> None:
    events = [
        wager(1, "ante", "5.00"),
        wager(1, "bonus", "1.00"),
        wager(2, "ante", "5.00"),
        wager(4, "ante", "5.00"),
        wager(4, "bonus", "1.00"),
        wager(6, "ante", "5.00"),
        wager(6, "bonus", "1.00"),
        NO_MORE_BETS,
        cards(1, "Kh Kc"),
        cards(2, "3h 4c"),
        cards(4, "9d 9c"),
        cards(6, "Qh Qc"),
        cards("dealer", "2s 5d"),
        decide(1, "fold"),
        decide(2, "fold"),
        decide(4, "bet"),
        decide(6, "bet"),
        cards("board", "7s 8d Jc"),
        decide(4, "check"),
        decide(6, "check"),
        cards("board", "Ts"),
        decide(4, "check"),
        decide(6, "check"),
        cards("board", "Ad"),
    ]
    s = settle(events)
    assert [(o.seat, o.wager) for o in s.outcomes] == [
        (1, "ante"),  # collected at the fold, § 647a.11(b)(2), in the order the dealer asked
        (2, "ante"),
        (6, "ante"),  # § 647a.11(h): from the dealer's right, each player who placed a Flop Wager
        (6, "flop"),
        (6, "bonus"),
        (4, "ante"),
        (4, "flop"),
        (4, "bonus"),
        (1, "bonus"),  # folded: "pending its resolution at the conclusion of the round"
    ]
    got = nets(s)
    assert got[(4, "ante")] == (Result.WIN, 500)  # straight J-T-9-8-7 beats the dealer's ace high
    assert got[(4, "bonus")] == (Result.WIN, 300)  # 9-9: 3 to 1
    assert got[(6, "ante")] == (Result.PUSH, 0)  # pair of queens: not a straight
    assert got[(6, "bonus")] == (Result.WIN, 1000)  # Q-Q: 10 to 1
    assert got[(1, "bonus")] == (Result.WIN, 1000)  # K-K: 10 to 1, folded
    assert s.dealer == "high card, ace-jack-ten-eight-seven"


def test_everyone_folds_the_round_settles_without_a_board() -> None:
    events = one_player("Qs Qd", "4d 5c", "", "", "", bonus="1.00", flop_action="fold")
    rnd = begun(events)
    assert awaiting(rnd.state).step == "flop"
    s = rnd.settle()
    assert nets(s) == {(1, "ante"): (Result.LOSE, -1000), (1, "bonus"): (Result.WIN, 1000)}
    # The dealer may still deal the board (§ 647a.11(c)); no one is asked to decide.
    rnd.apply(cards("board", "2h 3h 4h"))
    rnd.apply(cards("board", "5h"))
    rnd.apply(cards("board", "6h"))
    assert rnd.settle().to_json() == s.to_json() | {"dealer": "straight flush, six high"}


# --- the aggregate payout limit, § 647a.12(c) ---------------------------------------------------


def test_limit_holds_the_bonus_after_the_base_wagers() -> None:
    # Seat 1 As Ah vs dealer Ad Ac, board Ks Qs Js Ts 2d: player royal flush, dealer straight.
    # Base wins: Ante 10 + Flop 20 + Turn 10 + River 10 = $50; Bonus $100 x 1,000 = $100,000.
    # The hand may win $50,000 in all: the Bonus, settled last, gets $49,950.
    events = one_player(
        "As Ah", "Ad Ac", "Ks Qs Js", "Ts", "2d", bonus="100.00", turn_action="bet", river_action="bet"
    )
    s = settle(events)
    got = nets(s)
    assert got[(1, "ante")] == (Result.WIN, 1000)
    assert got[(1, "bonus")] == (Result.WIN, 4_995_000)
    assert s.for_seat(1)["bonus"].flags == (PAYOUT_LIMITED,)
    assert sum(o.net for o in s.outcomes if o.net > 0) == 5_000_000


def test_limit_is_per_hand_not_shared_among_players() -> None:
    # Two players, each $2,000 on the Bonus with ace-king suited: 25 x 2,000 = $50,000 each,
    # plus $50 base wins each; each hand alone is held to $50,000 (no sharing: § 647a.12(c) "for any hand").
    events = [
        wager(1, "ante", "10.00"),
        wager(1, "bonus", "2000.00"),
        wager(2, "ante", "10.00"),
        wager(2, "bonus", "2000.00"),
        NO_MORE_BETS,
        cards(1, "Ah Kh"),
        cards(2, "Ad Kd"),
        cards("dealer", "2c 3c"),
        decide(1, "bet"),
        decide(2, "bet"),
        cards("board", "Qh Jh Th"),
        decide(1, "bet"),
        decide(2, "bet"),
        cards("board", "9d"),
        decide(1, "bet"),
        decide(2, "bet"),
        cards("board", "4s"),
    ]
    s = settle(events)
    for seat in (1, 2):
        mine = s.for_seat(seat)
        assert mine["ante"].net == 1000  # royal flush / ace-high straight: Ante paid
        assert mine["bonus"].net == 4_995_000 and PAYOUT_LIMITED in mine["bonus"].flags
        assert sum(o.net for o in mine.values()) == 5_000_000


def test_a_higher_submitted_limit_pays_in_full() -> None:
    events = one_player("As Ah", "Ad Ac", "Ks Qs Js", "Ts", "2d", bonus="100.00")
    s = settle(events, r(payout_limit="150000.00"))
    assert nets(s)[(1, "bonus")] == (Result.WIN, 10_000_000) and not s.for_seat(1)["bonus"].flags


def test_limit_reached_by_the_base_wagers_leaves_nothing_for_the_bonus() -> None:
    # Ante $12,000: Ante 12,000 + Flop 24,000 + Turn 12,000 = 48,000; River 12,000 held to 2,000;
    # the Bonus (A-K suited, 25 x $1) then wins nothing more: its stake is returned.
    events = one_player(
        "Ah Kh",
        "2c 3c",
        "Qh Jh Th",
        "9d",
        "4s",
        ante="12000.00",
        bonus="1.00",
        turn_action="bet",
        river_action="bet",
    )
    got = nets(settle(events))
    assert got[(1, "turn")] == (Result.WIN, 1_200_000)
    assert got[(1, "river")] == (Result.WIN, 200_000)
    assert got[(1, "bonus")] == (Result.PUSH, 0)
    s = settle(events)
    assert PAYOUT_LIMITED in s.for_seat(1)["bonus"].flags and PAYOUT_LIMITED in s.for_seat(1)["river"].flags


# --- irregularities, § 647a.13 and the stub counts ----------------------------------------------


def two_seats_dealt() -> list[Event]:
    """Seats 1 (Q-Q, Bonus $5) and 3 (A-K suited, Bonus $2), both dealt; dealer 7d 3h."""
    return [
        wager(1, "ante", "10.00"),
        wager(1, "bonus", "5.00"),
        wager(3, "ante", "20.00"),
        wager(3, "bonus", "2.00"),
        NO_MORE_BETS,
        cards(1, "Qh Qs"),
        cards(3, "Ac Kc"),
        cards("dealer", "7d 3h"),
    ]


BONUSES_SETTLED = {(1, "bonus"): (Result.WIN, 5000), (3, "bonus"): (Result.WIN, 5000)}  # 10 x 5, 25 x 2


def test_one_card_face_up_is_discarded_and_the_round_goes_on() -> None:
    rnd = begun([*two_seats_dealt()[:5], irregularity("card_face_up", detail="2c")])
    assert rnd.state.void is None
    # The card found face up "may not be used in that round of play".
    round_refuses(rnd, cards(1, "2c 5d"), "found face up and may not be used")
    for e in two_seats_dealt()[5:]:
        rnd.apply(e)
    for e in (decide(1, "fold"), decide(3, "fold")):
        rnd.apply(e)
    got = nets(rnd.settle())
    assert got[(1, "ante")] == (Result.LOSE, -1000) and got[(3, "bonus")] == (Result.WIN, 5000)


def test_second_card_face_up_during_the_initial_deal_voids_everything() -> None:
    events = [*two_seats_dealt()[:6], irregularity("card_face_up", detail="9s"), irregularity("card_face_up")]
    s = settle(events)
    assert s.void and {o.result for o in s.outcomes} == {Result.VOID}
    assert len(s.outcomes) == 4  # both Antes and both Bonus Wagers returned


def test_two_cards_face_up_after_the_initial_deal_settle_the_bonus() -> None:
    events = [*two_seats_dealt(), decide(1, "bet"), irregularity("card_face_up", detail="9s 9d")]
    s = settle(events)
    assert s.void and "Bonus" in s.void
    got = nets(s)
    assert {k: v for k, v in got.items() if k[1] == "bonus"} == BONUSES_SETTLED
    assert got[(1, "ante")] == got[(1, "flop")] == got[(3, "ante")] == (Result.VOID, 0)
    assert s.for_seat(1)["bonus"].section == "§ 647a.13(a), § 647a.12(b)"


def test_several_cards_face_up_at_once() -> None:
    s = settle([*two_seats_dealt(), irregularity("cards_face_up")])
    assert s.void and {k: v for k, v in nets(s).items() if k[1] == "bonus"} == BONUSES_SETTLED
    s = settle([*two_seats_dealt()[:5], irregularity("cards_face_up", detail="4h 4d")])
    assert s.void and {o.result for o in s.outcomes} == {Result.VOID}


def test_card_face_up_while_dealing_community_cards_counts_across_the_round() -> None:
    events = [
        *two_seats_dealt(),
        irregularity("card_face_up", detail="5s"),
        decide(1, "bet"),
        decide(3, "bet"),
        irregularity("card_face_up", detail="6s"),
    ]
    s = settle(events)
    assert s.void and nets(s)[(3, "bonus")] == (Result.WIN, 5000)


def test_card_drawn_in_error_changes_nothing() -> None:
    plain = one_player(*TWO_PAIR)
    with_error = [*plain[:3], irregularity("card_drawn_in_error"), *plain[3:]]
    assert settle(with_error).to_json() == settle(plain).to_json()


def test_wrong_card_count_voids_every_wager_including_the_bonus() -> None:
    s = settle([*two_seats_dealt()[:5], irregularity("wrong_card_count", seat=1)])
    assert s.void and "seat 1" in s.void
    assert {o.result for o in s.outcomes} == {Result.VOID} and len(s.outcomes) == 4
    assert s.outcomes[0].section == "§ 647a.13(c)"


@pytest.mark.parametrize(
    "more",
    [
        [],  # during the Flop decisions
        [decide(1, "bet"), decide(3, "bet"), cards("board", "2s 9c Jd")],  # during the Turn decisions
        [
            decide(1, "bet"),
            decide(3, "bet"),
            cards("board", "2s 9c Jd"),
            decide(1, "check"),
            decide(3, "bet"),
        ],
    ],
)
def test_dealer_card_exposed_before_every_decision_voids_but_settles_the_bonus(more: list[Event]) -> None:
    s = settle([*two_seats_dealt(), *more, irregularity("dealer_card_exposed")])
    got = nets(s)
    assert {k: v for k, v in got.items() if k[1] == "bonus"} == BONUSES_SETTLED
    assert all(v == (Result.VOID, 0) for k, v in got.items() if k[1] != "bonus")
    assert s.void


def test_dealer_card_exposed_returns_a_folded_ante_too() -> None:
    # § 647a.13(d): "all hands shall be void and all Ante, Flop, Turn and River Wagers shall be
    # returned to the players"; a seat that folded before the dealer's card was exposed is one of them.
    events = [*two_seats_dealt(), decide(1, "fold"), irregularity("dealer_card_exposed")]
    got = nets(settle(events))
    assert got[(1, "ante")] == (Result.VOID, 0)
    assert got[(1, "bonus")] == (Result.WIN, 5000)
    assert got[(3, "ante")] == (Result.VOID, 0)


def test_wrong_card_count_returns_a_folded_ante_too() -> None:
    # § 647a.13(c): "all hands shall be void, all wagers shall be returned to the players".
    events = [*two_seats_dealt(), decide(1, "fold"), decide(3, "bet"), irregularity("wrong_card_count")]
    s = settle(events)
    assert s.void and {o.result for o in s.outcomes} == {Result.VOID}
    assert nets(s)[(1, "ante")] == (Result.VOID, 0)


def test_dealer_card_exposed_after_every_decision_changes_nothing() -> None:
    plain = one_player(*TWO_PAIR)
    # After the River decision, before the river card: every decision is made.
    late = [*plain[:-1], irregularity("dealer_card_exposed"), plain[-1]]
    rnd = begun(late[:-1])
    assert rnd.state.void is None and rnd.state.notes
    assert settle(late).to_json() == settle(plain).to_json()


def test_shuffler_jam_before_the_deal_reshuffles_and_the_round_goes_on() -> None:
    plain = one_player(*TWO_PAIR)
    jammed = [plain[0], irregularity("shuffler_jam"), *plain[1:]]
    assert settle(jammed).to_json() == settle(plain).to_json()


def test_shoe_jam_voids_every_wager_including_the_bonus() -> None:
    shoe = r(dealing="automated shoe")
    s = settle([*two_seats_dealt()[:6], irregularity("shoe_jam")], shoe)
    assert {o.result for o in s.outcomes} == {Result.VOID} and len(s.outcomes) == 4
    assert s.outcomes[0].section == "§ 647a.13(f)"


@pytest.mark.parametrize(("kind", "removed"), [("stub_count_misdealt", False), ("stub_count_wrong", True)])
def test_stub_count_after_the_river_voids_every_wager(kind: str, removed: bool) -> None:
    plain = one_player(*TWO_PAIR, bonus="5.00")
    s = settle([*plain, irregularity(kind)])
    assert {o.result for o in s.outcomes} == {Result.VOID}
    assert ("deck is removed" in s.void) is removed


@pytest.mark.parametrize(
    ("events", "rule", "event", "match"),
    [
        ([], None, irregularity("card_face_up"), "no card is dealt before"),
        (one_player(*TWO_PAIR), None, irregularity("card_face_up"), "every card is dealt"),
        (one_player(*TWO_PAIR)[:3], None, irregularity("card_face_up", detail="XX"), "names the card"),
        (one_player(*TWO_PAIR)[:4], None, irregularity("card_face_up", detail="9h"), "already out"),
        (one_player(*TWO_PAIR), None, irregularity("card_drawn_in_error"), "every card is dealt"),
        (one_player(*TWO_PAIR)[:3], None, irregularity("dealer_card_exposed"), "dealer has no cards yet"),
        (one_player(*TWO_PAIR)[:4], None, irregularity("shuffler_jam"), "once cards are dealt"),
        ([], {"shuffler": "manual"}, irregularity("shuffler_jam"), "shuffles by hand"),
        (one_player(*TWO_PAIR)[:4], None, irregularity("shoe_jam"), "not an automated dealing shoe"),
        (one_player(*TWO_PAIR)[:-1], None, irregularity("stub_count_misdealt"), "after all community cards"),
        (one_player(*TWO_PAIR)[:4], None, irregularity("misdeal"), "no irregularity 'misdeal'"),
    ],
)
def test_irregularities_refused_when_they_cannot_happen(
    events: list[Event], rule: dict[str, object] | None, event: Event, match: str
) -> None:
    round_refuses(begun(events, r(**rule) if rule else None), event, match)


def test_nothing_after_a_void() -> None:
    rnd = begun([*two_seats_dealt(), irregularity("dealer_card_exposed")])
    round_refuses(rnd, decide(1, "bet"), "the round is void")
    round_refuses(rnd, irregularity("wrong_card_count"), "the round is void")


# --- illegal events refused, state unchanged ---------------------------------------------------


DEALT = one_player(*TWO_PAIR)  # the full one-player round


@pytest.mark.parametrize(
    ("upto", "event", "match"),
    [
        (4, decide(1, "bet", "10.00"), "must be twice the Ante Wager of 10.00"),
        (4, wager(1, "flop", "30.00"), "must be twice the Ante"),
        (4, decide(1, "check"), "either fold or place a Flop Wager"),
        (4, wager(1, "turn", "10.00"), "Turn Wager now"),
        (4, decide(2, "bet"), "not a betting position|out of turn"),
        (5, decide(1, "bet"), "no decision now: the round waits for the Flop"),
        (6, decide(1, "fold"), "either check and remain"),
        (6, decide(1, "bet", "20.00"), "equal to the Ante Wager of 10.00"),
        (6, decide(1, "check", "10.00"), "no amount goes with it"),
        (1, wager(1, "flop", "20.00"), "placed only when the dealer asks"),
        (2, wager(1, "ante", "10.00"), 'after "no more bets"'),
        (2, wager(1, "bonus", "5.00"), 'after "no more bets"'),
        (2, wager(2, "ante", "10.00"), 'after "no more bets"'),
        (2, NO_MORE_BETS, "already announced"),
        (1, cards(1, "As Ks"), "before the dealer announces"),
        (2, cards(1, "As Ks Qs"), "two cards, not 3"),
        (2, cards(2, "As Ks"), "placed no Ante Wager"),
        (2, cards("dealer", "As Ks"), "after every player's"),
        (3, cards(1, "As Ks"), "already has its two cards"),
        (3, cards("dealer", "9h Kd"), "already out"),
        (3, cards("dealer", "As"), "two cards, not 1"),
        (4, cards("board", "4s 5s 6c"), "no community card now"),
        (5, cards("board", "4s 5s 6c 8c 9c"), "the Flop is three cards, not 5"),
        (5, cards("board", "4s 5s"), "three cards, not 2"),
        (7, cards("board", "4s 5s"), "the turn card is one card"),
        (1, wager(1, "pair_plus", "5.00"), "no wager 'pair_plus'"),
        (1, wager(7, "ante", "5.00"), "seat 7 is not a betting position"),
        (1, wager(2, "ante", "4.99"), "below the table's minimum of 5.00"),
        (1, wager(2, "bonus", "0.50"), "below the table's minimum of 1.00"),
        (1, Event("meter", name="progressive", amount=100), "no meter event"),
        (4, Event("decision", seat=1, action="bet", hand=1), "no split hands"),
    ],
)
def test_illegal_events_are_refused_and_change_nothing(upto: int, event: Event, match: str) -> None:
    round_refuses(begun(DEALT[:upto]), event, match)


def test_bonus_refused_where_not_offered() -> None:
    round_refuses(begun([], rules()), wager(1, "bonus", "5.00"), "does not offer")


def test_no_more_bets_needs_an_ante_and_a_bonus_needs_an_ante() -> None:
    round_refuses(begun([]), NO_MORE_BETS, "no player has placed an Ante Wager")
    round_refuses(
        begun([wager(1, "ante", "5.00"), wager(2, "bonus", "5.00")]),
        NO_MORE_BETS,
        "seat 2 has a Bonus Wager but no Ante",
    )


def test_a_wager_before_no_more_bets_stands_as_last_sensed() -> None:
    events = [
        wager(1, "ante", "5.00"),
        wager(1, "ante", "10.00"),
        wager(2, "ante", "5.00"),
        wager(2, "ante", "0"),
    ]
    state = begun(events).state
    assert [(s.seat, s.ante) for s in state.seats] == [(1, 1000)]


def test_decisions_in_clockwise_order_only() -> None:
    rnd = begun(two_seats_dealt())
    round_refuses(rnd, decide(3, "bet"), "seat 3 acts out of turn: the dealer asks seat 1 first")


def test_settle_says_what_the_round_waits_for() -> None:
    for upto, match in [
        (1, "wagers"),
        (2, "seat 1's two cards"),
        (3, "dealer's two cards"),
        (4, "seat 1's Flop decision"),
        (5, "the Flop"),
        (6, "seat 1's Turn decision"),
        (9, "the river card"),
    ]:
        with pytest.raises(IllegalEvent, match=match):
            begun(DEALT[:upto]).settle()


# --- the Rules Submission ---------------------------------------------------------------------


def test_defaults() -> None:
    d = rules()
    assert (d.seats, d.decks, d.ante_paid_on, d.bonus_offered, d.bonus_paytable, d.payout_limit) == (
        6,
        1,
        "straight or higher",
        False,
        "A",
        5_000_000,
    )
    assert GAME.decks(d) == 1 and GAME.decks(rules(decks=2)) == 1  # one deck per round, § 647a.3(b)(3)


def test_payout_limit_below_50000_is_refused() -> None:
    with pytest.raises(RulesError) as exc:
        rules(payout_limit="49999.99")
    assert exc.value.problems == (
        "payout_limit 49999.99: is below the $50,000 minimum of § 647a.12(c) (§ 647a.12(c))",
    )


def test_payout_limit_below_what_one_patron_wins_at_the_minimums() -> None:
    # $100 minimum Bonus, paytable A: 1,000 x 100 = 100,000, plus 5 x the $5 Ante = 25: $100,025.
    values = {"bonus.offered": True, "bonus.minimum": "100.00", "payout_limit": "100000.00"}
    with pytest.raises(RulesError) as exc:
        load_rules(HoldemBonusRules, values, "t", GAME.rules_checks)
    (problem,) = exc.value.problems
    assert problem.startswith("payout_limit 100000.00 is below $100025.00, the most one patron could win")
    assert "§ 647a.12(c)" in problem and "1,000 to 1" in problem
    assert load_rules(HoldemBonusRules, {**values, "payout_limit": "100025.00"}, "t", GAME.rules_checks)
    # Paytable B tops at 30 to 1: 3,000 + 25 is under $50,000.
    assert (
        most_one_patron_wins(
            rules(**{"bonus.offered": True, "bonus.minimum": "100.00", "bonus.paytable": "B"})
        )
        == 302_500
    )
    # An Ante minimum of $12,000 alone: 5 x 12,000 = $60,000.
    with pytest.raises(RulesError, match=r"below \$60000.00"):
        rules(**{"ante.minimum": "12000.00"})


def test_every_problem_at_once_with_did_you_mean() -> None:
    bad = {
        "seats": 7,
        "ante.paid_on": "pair or higher",
        "bonus.paytabel": "A",
        "bonus.paytable": "C",
        "payout_limit": "10000.00",
        "decks": 3,
    }
    with pytest.raises(RulesError) as exc:
        load_rules(HoldemBonusRules, bad, "t", GAME.rules_checks)
    text = str(exc.value)
    assert "6 problems" in text
    assert "bonus.paytabel: unknown option; did you mean 'bonus.paytable'?" in text
    assert "seats 7: is above the maximum of 6 (§ 647a.2(a))" in text
    assert "ante.paid_on 'pair or higher': must be one of 'straight or higher', 'flush or higher'" in text
    assert "bonus.paytable C: must be one of 'A', 'B'" in text
    assert "payout_limit 10000.00: is below the $50,000 minimum of § 647a.12(c)" in text
    assert "decks 3: is above the maximum of 2 (§ 647a.3)" in text


def test_equipment_checks() -> None:
    with pytest.raises(RulesError) as exc:
        rules(decks=2, shuffler="manual", dealing="hand")
    assert len(exc.value.problems) == 2
    assert "§ 647a.3(b)" in exc.value.problems[0] and "§ 647a.9(a)(1)" in exc.value.problems[1]


def test_example_submission_is_valid() -> None:
    sub = parse_submission((EXAMPLES / "rules-submission.toml").read_text(), {GAME.name: GAME}, "hb.toml")
    assert sub.table == "HB-1" and sub.game is GAME
    assert isinstance(sub.rules, HoldemBonusRules) and sub.rules.bonus_offered


# --- the examples ----------------------------------------------------------------------------

RECORDS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".settlement.json"))


def test_there_are_examples_of_each_kind() -> None:
    names = {p.stem for p in RECORDS}
    assert {"normal-round", "bonus-ace-ace-dealer-and-player", "dealer-card-exposed", "shoe-jam"} <= names


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_example_replays_to_its_settlement(path: Path) -> None:
    record = load_record(json.loads(path.read_text()), {GAME.name: GAME}, path.name)
    expected = json.loads(path.with_suffix(".settlement.json").read_text())
    assert replay(record).to_json() == expected
    assert json.dumps(replay(record).to_json()) == json.dumps(replay(record).to_json())


# --- properties ------------------------------------------------------------------------------

DECK = standard_deck()


@st.composite
def rounds(draw: st.DrawFn) -> tuple[HoldemBonusRules, list[Event]]:
    """A random complete round: 1-6 players, random wagers, cards and decisions, maybe an irregularity."""
    rule = r(
        bonus__paytable=draw(st.sampled_from(["A", "B"])),
        ante__paid_on=draw(st.sampled_from(["straight or higher", "flush or higher"])),
        dealing="automated shoe",
    )
    seats = sorted(draw(st.sets(st.integers(1, 6), min_size=1, max_size=6)))
    deck = list(draw(st.permutations(DECK)))
    big = st.sampled_from(["5.00", "10.00", "25.00", "12000.00"])
    events: list[Event] = []
    for s in seats:
        events.append(wager(s, "ante", draw(big)))
        if draw(st.booleans()):
            events.append(wager(s, "bonus", draw(st.sampled_from(["1.00", "5.00", "100.00", "2500.00"]))))
    events.append(NO_MORE_BETS)
    for s in seats:
        events.append(cards(s, format_cards(deck[:2])))
        del deck[:2]
    events.append(cards("dealer", format_cards(deck[:2])))
    del deck[:2]
    in_play = [s for s in seats if draw(st.booleans())]
    events += [decide(s, "bet" if s in in_play else "fold") for s in seats]
    for street, n in enumerate((3, 1, 1)):
        events.append(cards("board", format_cards(deck[:n])))
        del deck[:n]
        if street < 2:  # the Turn decisions after the Flop, the River decisions after the turn card
            events += [decide(s, draw(st.sampled_from(["bet", "check"]))) for s in in_play]
    kinds = [None, "dealer_card_exposed", "card_face_up2", "cards_face_up", "shoe_jam", "wrong_card_count"]
    kind = draw(st.sampled_from(kinds))
    if kind is not None:
        cut = draw(st.integers(events.index(NO_MORE_BETS) + 1, len(events)))
        if kind == "card_face_up2":
            extra = [irregularity("card_face_up"), irregularity("card_face_up")]
        else:
            extra = [irregularity(kind)]
        events = [*events[:cut], *extra, *events[cut:]]
    return rule, events


def accepted(events: list[Event], rule: HoldemBonusRules) -> list[Event]:
    """The events a table would keep: an irregularity where it cannot happen is refused (and changes
    nothing); after a void the round is over."""
    rnd: Round[Any, Any] = Round.begin(GAME, rule)
    for e in events:
        if rnd.state.void is not None:
            break
        before = rnd.state
        try:
            rnd.apply(e)
        except IllegalEvent:
            assert e.type == "irregularity" and rnd.state is before
    return rnd.events


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds())
def test_properties_of_any_round(case: tuple[HoldemBonusRules, list[Event]]) -> None:
    rule, events = case
    events = accepted(events, rule)
    s = settle(events, rule)
    # Replay is deterministic, byte for byte.
    assert json.dumps(s.to_json()) == json.dumps(settle(events, rule).to_json())
    folded = {e.seat for e in events if e.type == "decision" and e.action == "fold"}
    per_seat: dict[int, Cents] = {}
    for o in s.outcomes:
        # A losing wager loses exactly its stake; a push or void costs nothing.
        if o.result is Result.LOSE:
            assert o.net == -o.stake
        if o.result in (Result.PUSH, Result.VOID):
            assert o.net == 0
        # A fold never wins: only a folded player's Bonus can; a void returns its Ante (§ 647a.13).
        if o.seat in folded and o.wager != "bonus":
            assert o.result is (Result.VOID if s.void else Result.LOSE) and o.wager == "ante"
        per_seat[o.seat] = per_seat.get(o.seat, 0) + max(o.net, 0)
        # No wager pays more than its odds: 1 to 1, or the Bonus's top row.
        assert o.net <= (o.stake if o.wager != "bonus" else 1000 * o.stake)
    # No hand wins more than the aggregate payout limit (§ 647a.12(c)).
    assert all(total <= rule.payout_limit for total in per_seat.values())
    # Each wager placed is settled exactly once.
    keys = [(o.seat, o.wager) for o in s.outcomes]
    assert len(keys) == len(set(keys))
