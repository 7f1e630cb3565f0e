"""A jackpot hand is known the moment its cards are dealt (issue 19, point 3): the game names the
seats whose hands make a progressive row paid from the meter (``jackpot_hands``), before any
decision and before the settlement, so the screen says DO NOT MUCK, CALL THE FLOOR at once."""

from __future__ import annotations

from controller.rules.core.events import Event
from controller.rules.core.hooks import JackpotHand
from controller.rules.games.caribbean_stud.game import GAME

from .rounds import NO_MORE_BETS, cards, decide, wager
from .test_caribbean_stud import full_rules, round_after

ROYAL = "As Ks Qs Js Ts"
STRAIGHT_FLUSH = "9h 8h 7h 6h 5h"
DEALER = "Ad Kc 9d 5c 3d"


def dealt(hands: dict[int, str], progressive: tuple[int, ...]) -> list[Event]:
    events = [wager(s, "ante", "10.00") for s in sorted(hands)]
    events += [wager(s, "progressive", "1.00") for s in progressive]
    events.append(NO_MORE_BETS)
    events += [cards(s, hands[s]) for s in sorted(hands)]
    return events


def test_a_royal_flush_dealt_is_named_with_its_seat_before_any_decision() -> None:
    rnd = round_after(
        full_rules(), dealt({1: ROYAL, 4: "2c 4d 6h 8s Tc"}, (1, 4)), {"progressive": 1_000_000}
    )
    assert GAME.jackpot_hands(rnd.state) == (
        JackpotHand(1, "progressive", "royal flush", "100% of meter", "§ 639a.12(d)(1), (2)"),
    )
    assert rnd.jackpot_hands()[0].to_json()["hand"] == "royal flush"


def test_only_rows_paid_from_the_meter_and_only_with_a_progressive_wager() -> None:
    hands = {1: ROYAL, 2: STRAIGHT_FLUSH, 3: "Ac Kc Qc Jc Tc"}
    # Paytable A pays a straight flush 5,000 for 1 (not from the meter); seat 3 made no wager.
    rnd = round_after(full_rules(progressive="A"), dealt(hands, (1, 2)), {"progressive": 1_000_000})
    assert [(j.seat, j.hand) for j in GAME.jackpot_hands(rnd.state)] == [(1, "royal flush")]
    # Paytable B pays it 10% of the meter: both, from the dealer's right as they are paid.
    rnd = round_after(full_rules(progressive="B"), dealt(hands, (1, 2)), {"progressive": 1_000_000})
    assert [(j.seat, j.hand, j.award) for j in GAME.jackpot_hands(rnd.state)] == [
        (2, "straight flush", "10% of meter"),
        (1, "royal flush", "100% of meter"),
    ]


def test_a_seat_that_folds_forfeits_its_wagers_and_is_no_jackpot_hand() -> None:
    events = dealt({1: ROYAL, 2: "2c 4d 6h 8s Tc"}, (1,))
    rnd = round_after(
        full_rules(), [*events, cards("dealer", DEALER), decide(1, "fold")], {"progressive": 1_000_000}
    )
    assert GAME.jackpot_hands(rnd.state) == ()


def test_nothing_before_the_five_cards_and_nothing_before_the_lock_out() -> None:
    rnd = round_after(full_rules(), dealt({1: ROYAL}, (1,))[:-1], {"progressive": 1_000_000})
    assert GAME.jackpot_hands(rnd.state) == ()
    # The rounds before its cards: the default (GameBase) names none.
    rnd = round_after(full_rules(), dealt({1: ROYAL}, (1,))[:2], {"progressive": 1_000_000})
    assert rnd.jackpot_hands() == ()
