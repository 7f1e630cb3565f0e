"""Caribbean Stud Poker, 58 Pa. Code ch. 639a: every paytable row, every irregularity, the rules file.

Expected amounts are worked out by hand from the paytables of § 639a.12 as printed
in the regulation (they are written out again below, not read from the module).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules.core.cards import format_cards, parse_cards, standard_deck
from controller.rules.core.engine import IllegalEvent, Round, play
from controller.rules.core.events import Event
from controller.rules.core.money import format_money
from controller.rules.core.options import RulesError, load_rules, rules_to_mapping
from controller.rules.core.record import load_record, replay
from controller.rules.core.settlement import (
    FLOORPERSON_VALIDATE,
    NOT_FROM_INVENTORY,
    PROGRESSIVE_LIGHT,
    Result,
    Settlement,
)
from controller.rules.core.submission import parse_submission
from controller.rules.games.caribbean_stud.game import (
    GAME,
    IRREGULARITIES,
    CaribbeanStudRules,
    CaribbeanStudState,
)

from .rounds import NO_MORE_BETS, cards, decide, irregularity, meter, round_refuses, wager

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "caribbean-stud"
D = 100  # cents in a dollar


# --- helpers --------------------------------------------------------------------------------------


def make_rules(**options: object) -> CaribbeanStudRules:
    """Rules from dotted keys: ``make_rules(**{"bonus.offered": True})``."""
    return load_rules(CaribbeanStudRules, dict(options), "test", GAME.rules_checks)


def full_rules(
    bonus: str = "A", progressive: str = "A", reset: str = "10000.00", chip: str = "1.00"
) -> CaribbeanStudRules:
    return make_rules(
        **{
            "bonus.offered": True,
            "bonus.paytable": bonus,
            "progressive.offered": True,
            "progressive.paytable": progressive,
            "progressive.reset": reset,
            "progressive.rate_of_progression": "18%",
            "progressive.wager": chip,
        }
    )


def deal_events(
    seats: Mapping[int, Mapping[str, str]],
    hands: Mapping[int, str],
    dealer: str,
    actions: Mapping[int, str] | None = None,
) -> list[Event]:
    """Wagers, no more bets, the cards, then every seat's decision (default: bet) from seat 1 up."""
    events = [wager(s, name, amt) for s in sorted(seats) for name, amt in seats[s].items()]
    events.append(NO_MORE_BETS)
    events += [cards(s, hands[s]) for s in sorted(hands)]
    events.append(cards("dealer", dealer))
    acts = actions or {}
    events += [decide(s, acts.get(s, "bet")) for s in sorted(seats)]
    return events


def settle(
    rules: CaribbeanStudRules,
    seats: Mapping[int, Mapping[str, str]],
    hands: Mapping[int, str],
    dealer: str,
    actions: Mapping[int, str] | None = None,
    meters: Mapping[str, int] | None = None,
) -> Settlement:
    return play(GAME, rules, meters or {}, deal_events(seats, hands, dealer, actions))


def round_after(
    rules: CaribbeanStudRules, events: Sequence[Event], meters: Mapping[str, int] | None = None
) -> Round[CaribbeanStudRules, CaribbeanStudState]:
    rnd = Round.begin(GAME, rules, meters or {})
    for e in events:
        rnd.apply(e)
    return rnd


# A qualifying dealer hand that is only ace-king high, and hands that beat it, disjoint from it.
DEALER_AK = "Ad Kc 9h 5c 3d"


# --- the Bet Wager: § 639a.12(a),(b) -----------------------------------------------------------

# § 639a.12(b), as printed: Royal Flush 100 to 1 ... A pair or less 1 to 1.
BET_ROWS = [
    ("royal flush", "As Ks Qs Js Ts", 100),
    ("straight flush", "9s 8s 7s 6s 5s", 50),
    ("four-of-a-kind", "Qs Qh Qd Qc 2s", 20),
    ("full house", "Js Jh Jd 4s 4h", 7),
    ("flush", "Ks Ts 8s 6s 2s", 5),
    ("straight", "8d 7c 6h 5s 4d", 4),
    ("three-of-a-kind", "7s 7h 7d Ks 2c", 3),
    ("two pair", "8s 8h 4c 4d Ks", 2),
    ("pair", "2s 2h Kd Qc Jh", 1),
    ("high card", "Ah Kd Qc Jh 9s", 1),  # "A pair or less": ace-king-queen beats ace-king-nine
]


@pytest.mark.parametrize(("category", "hand", "to_one"), BET_ROWS, ids=[r[0] for r in BET_ROWS])
def test_every_bet_paytable_row(category: str, hand: str, to_one: int) -> None:
    s = settle(make_rules(), {4: {"ante": "10.00"}}, {4: hand}, DEALER_AK)
    out = s.for_seat(4)
    assert out["ante"].result is Result.WIN and out["ante"].net == 10 * D  # 1 to 1, § 639a.12(a)
    assert out["bet"].stake == 20 * D  # two times the ante, § 639a.11(b)
    assert out["bet"].result is Result.WIN and out["bet"].net == to_one * 20 * D
    assert out["bet"].hand.startswith(category)
    assert "qualifies" in s.dealer


def test_bet_odds_on_an_odd_ante() -> None:
    # Ante $7.50, Bet $15.00; a full house pays 7 to 1 on the Bet: $105.00.
    s = settle(make_rules(), {1: {"ante": "7.50"}}, {1: "Js Jh Jd 4s 4h"}, DEALER_AK)
    assert s.for_seat(1)["ante"].net == 750
    assert s.for_seat(1)["bet"].net == 10500


def test_player_lower_than_a_qualifying_dealer_loses_ante_and_bet() -> None:
    s = settle(make_rules(), {2: {"ante": "10.00"}}, {2: "Ah Kd 8c 7h 2s"}, DEALER_AK)
    out = s.for_seat(2)
    assert (out["ante"].result, out["ante"].net) == (Result.LOSE, -10 * D)
    assert (out["bet"].result, out["bet"].net) == (Result.LOSE, -20 * D)


@pytest.mark.parametrize(
    ("dealer", "qualifies"),
    [
        ("Ad Qc 9h 5c 3d", False),  # ace-queen: lower than an ace-king
        ("Kd Qc 9h 5c 3d", False),
        ("Ad Kc 4h 3c 2d", True),  # the lowest ace-king
        ("2d 2c 9h 5c 3d", True),  # any pair
        ("5d 4c 3h 2c Ac", True),  # a straight (5-4-3-2-A) is better than ace-king
    ],
)
def test_dealer_qualifies_with_ace_king_or_better(dealer: str, qualifies: bool) -> None:
    # The player holds a pair of sevens with a king: it beats every dealer hand above but the straight.
    s = settle(make_rules(), {1: {"ante": "10.00"}}, {1: "7s 7h Ks 8d 6s"}, dealer)
    out = s.for_seat(1)
    if not qualifies:
        # § 639a.11(c)(3)(i): Bet returned, Ante paid 1 to 1.
        assert (out["ante"].result, out["ante"].net) == (Result.WIN, 10 * D)
        assert (out["bet"].result, out["bet"].net) == (Result.PUSH, 0)
        assert "does not qualify" in s.dealer
    else:
        assert "qualifies with ace-king" in s.dealer
        assert out["bet"].result is not Result.PUSH


def test_dealer_not_qualifying_pays_the_ante_even_to_a_lower_hand() -> None:
    # Dealer king-queen high does not qualify; the player's jack high is lower, yet the Ante is paid.
    s = settle(make_rules(), {3: {"ante": "25.00"}}, {3: "Js 9h 7c 4d 2s"}, "Kd Qc 9d 5c 3d")
    out = s.for_seat(3)
    assert (out["ante"].result, out["ante"].net) == (Result.WIN, 25 * D)
    assert (out["bet"].result, out["bet"].net, out["bet"].stake) == (Result.PUSH, 0, 50 * D)


def test_dealer_not_qualifying_returns_a_royal_flush_bet_unpaid() -> None:
    s = settle(make_rules(), {1: {"ante": "10.00"}}, {1: "As Ks Qs Js Ts"}, "Kd Qc 9d 5c 3d")
    assert s.for_seat(1)["bet"].result is Result.PUSH


@pytest.mark.parametrize(
    ("player", "dealer"),
    [
        ("Ah Kh 9d 5d 3h", DEALER_AK),  # same ranks, other suits
        ("8s 8h 4c 4d Ks", "8d 8c 4s 4h Kh"),  # two pair, same kicker
        ("Ts 9h 8c 7d 6s", "Th 9d 8h 7c 6d"),  # straights
    ],
)
def test_equal_hands_push_ante_and_bet(player: str, dealer: str) -> None:
    # § 639a.6(c), § 639a.11(c)(3)(ii)(C): equal in rank, the Ante and Bet are returned.
    s = settle(make_rules(), {1: {"ante": "10.00"}}, {1: player}, dealer)
    out = s.for_seat(1)
    assert (out["ante"].result, out["ante"].net) == (Result.PUSH, 0)
    assert (out["bet"].result, out["bet"].net) == (Result.PUSH, 0)


def test_a_kicker_breaks_the_tie() -> None:
    # § 639a.6(c): the highest card not contained in the other hand: queen against nine.
    s = settle(make_rules(), {1: {"ante": "10.00"}}, {1: "8s 8h 4c 4d Qs"}, "8d 8c 4s 4h 9d")
    assert s.for_seat(1)["bet"].net == 2 * 20 * D


# --- the Caribbean Stud Bonus Wager: § 639a.12(c) ---------------------------------------------

# § 639a.12(c) as printed: Paytable A / B / C, "to 1".
BONUS_HANDS = {
    "royal flush": ("As Ks Qs Js Ts", (1000, 1000, 1000)),
    "straight flush": ("9s 8s 7s 6s 5s", (200, 200, 200)),
    "four-of-a-kind": ("Qs Qh Qd Qc 2s", (100, 100, 100)),
    "full house": ("Js Jh Jd 4s 4h", (50, 50, 50)),
    "flush": ("Ks Ts 8s 6s 2s", (40, 40, 40)),
    "straight": ("8d 7c 6h 5s 4d", (25, 25, 20)),
    "three-of-a-kind": ("7s 7h 7d Ks 2c", (7, 6, 6)),
    "two pair": ("8s 8h 4c 4d Ks", (3, 3, 3)),
    "pair of 10s or better": ("Ts Th Kd 6c 2h", (1, 1, 1)),
}
BONUS_ROWS = [
    (letter, row, hand, odds[i])
    for row, (hand, odds) in BONUS_HANDS.items()
    for i, letter in enumerate("ABC")
]


@pytest.mark.parametrize(
    ("letter", "row", "hand", "to_one"), BONUS_ROWS, ids=[f"{r[0]}-{r[1]}" for r in BONUS_ROWS]
)
def test_every_bonus_paytable_row(letter: str, row: str, hand: str, to_one: int) -> None:
    s = settle(full_rules(bonus=letter), {5: {"ante": "10.00", "bonus": "5.00"}}, {5: hand}, DEALER_AK)
    out = s.for_seat(5)["bonus"]
    assert (out.result, out.net) == (Result.WIN, to_one * 5 * D)
    assert f"paytable {letter}" in out.section


@pytest.mark.parametrize("hand", ["9s 9c Kd 6c 2h", "Ah Kd Qc Jh 9s"], ids=["pair of nines", "ace high"])
def test_bonus_less_than_a_pair_of_tens_loses(hand: str) -> None:
    s = settle(full_rules(), {5: {"ante": "10.00", "bonus": "5.00"}}, {5: hand}, DEALER_AK)
    out = s.for_seat(5)["bonus"]
    assert (out.result, out.net) == (Result.LOSE, -5 * D)


def test_bonus_paid_whether_or_not_the_hand_beats_the_dealer() -> None:
    # § 639a.11(c)(4): the player's two pair loses to the dealer's trips, the Bonus still pays 3 to 1.
    s = settle(full_rules(), {1: {"ante": "10.00", "bonus": "1.00"}}, {1: "8s 8h 4c 4d Ks"}, "Qd Qc Qh 5c 3d")
    out = s.for_seat(1)
    assert out["ante"].result is Result.LOSE and out["bet"].result is Result.LOSE
    assert (out["bonus"].result, out["bonus"].net) == (Result.WIN, 3 * D)


def test_bonus_paid_when_the_dealer_does_not_qualify() -> None:
    s = settle(full_rules(), {1: {"ante": "10.00", "bonus": "1.00"}}, {1: "Js Jh Jd 4s 4h"}, "Kd Qc 9d 5c 3d")
    assert s.for_seat(1)["bonus"].net == 50 * D


# --- the Progressive Payout Wager: § 639a.12(d) -----------------------------------------------

METER = 2_500_000  # $25,000.00 on the meter
RESET = 1_000_000  # $10,000.00

# § 639a.12(d)(1) as printed: ("for", n) is "n for 1"; ("meter", p) is "p% of meter"; None is N/A.
PROGRESSIVE_HANDS: dict[str, tuple[str, tuple[tuple[str, int] | None, ...]]] = {
    "royal flush": ("As Ks Qs Js Ts", (("meter", 100), ("meter", 100), ("meter", 100))),
    "straight flush": ("9s 8s 7s 6s 5s", (("for", 5000), ("meter", 10), ("meter", 10))),
    "four-of-a-kind": ("Qs Qh Qd Qc 2s", (("for", 500), ("for", 500), ("for", 200))),
    "full house": ("Js Jh Jd 4s 4h", (("for", 100), ("for", 100), ("for", 50))),
    "flush": ("Ks Ts 8s 6s 2s", (("for", 50), ("for", 50), ("for", 40))),
    "straight": ("8d 7c 6h 5s 4d", (("for", 10), ("for", 10), ("for", 30))),
    "three-of-a-kind": ("7s 7h 7d Ks 2c", (("for", 3), ("for", 3), ("for", 9))),
    "two pair": ("8s 8h 4c 4d Ks", (("for", 2), ("for", 2), None)),
}
PROGRESSIVE_ROWS = [
    (letter, row, hand, awards[i])
    for row, (hand, awards) in PROGRESSIVE_HANDS.items()
    for i, letter in enumerate("ABC")
]


def test_a_progressive_wager_is_the_rules_submissions_chip_and_nothing_else() -> None:
    """§ 639a.7(d)(2): one chip on the wagering device is progressive.wager; $1,000 is refused."""
    rnd = round_after(full_rules(chip="5.00"), [wager(1, "ante", "10.00")], {"progressive": METER})
    with pytest.raises(
        IllegalEvent, match=r"is 5\.00 \(progressive\.wager\), not 1000\.00.*§ 639a\.7\(d\)\(2\)"
    ):
        rnd.apply(wager(1, "progressive", "1000.00"))
    rnd.apply(wager(1, "progressive", "5.00"))


@pytest.mark.parametrize(
    ("letter", "row", "hand", "award"),
    PROGRESSIVE_ROWS,
    ids=[f"{r[0]}-{r[1]}" for r in PROGRESSIVE_ROWS],
)
@pytest.mark.parametrize("stake", ["1.00", "5.00"])
def test_every_progressive_paytable_row(
    letter: str, row: str, hand: str, award: tuple[str, int] | None, stake: str
) -> None:
    s = settle(
        full_rules(progressive=letter, chip=stake),
        {6: {"ante": "10.00", "progressive": stake}},
        {6: hand},
        DEALER_AK,
        meters={"progressive": METER},
    )
    out = s.for_seat(6)["progressive"]
    staked = int(stake.split(".")[0]) * D
    if award is None:
        # Paytable C: "Two pair N/A".
        assert (out.result, out.net, out.flags) == (Result.LOSE, -staked, ())
        assert s.meters["progressive"] == METER
        return
    kind, n = award
    if kind == "for":
        # "n for 1": n in all for each 1, the wager included; nothing comes off the meter.
        assert out.net == n * staked - staked
        assert s.meters["progressive"] == METER
        assert set(out.flags) == {PROGRESSIVE_LIGHT, FLOORPERSON_VALIDATE}
    else:
        # "p% of meter", whatever the wager: p% of $25,000.00, the wager in it; the meter keeps the
        # rest, or goes to its reset amount after a 100% award (§ 639a.12(d)(3), (4)).
        paid = METER * n // 100
        assert out.net == paid - staked
        assert s.meters["progressive"] == (RESET if n == 100 else METER - paid)
        assert set(out.flags) == {PROGRESSIVE_LIGHT, FLOORPERSON_VALIDATE, NOT_FROM_INVENTORY}
    assert out.result is Result.WIN


def test_five_thousand_for_one_arithmetic() -> None:
    # Paytable A straight flush, $1.00: $5,000.00 in all, so the net is +$4,999.00.
    s = settle(
        full_rules(),
        {1: {"ante": "5.00", "progressive": "1.00"}},
        {1: "9s 8s 7s 6s 5s"},
        DEALER_AK,
        meters={"progressive": METER},
    )
    assert s.to_json()["seats"]["1"]["progressive"]["net"] == "+4999.00"  # type: ignore[index]


def test_ten_percent_of_meter_rounds_down_to_the_cent() -> None:
    # Paytable B straight flush, meter $12,345.67: 10% is $1,234.567, paid $1,234.56.
    s = settle(
        full_rules(progressive="B"),
        {1: {"ante": "5.00", "progressive": "1.00"}},
        {1: "9s 8s 7s 6s 5s"},
        DEALER_AK,
        meters={"progressive": 1_234_567},
    )
    assert s.for_seat(1)["progressive"].net == 123_456 - 100
    assert s.meters["progressive"] == 1_234_567 - 123_456


def test_only_the_highest_hand_pays() -> None:
    # § 639a.12(d)(2): a full house holds three-of-a-kind and a pair; it is paid 100 for 1 and nothing more.
    s = settle(
        full_rules(),
        {1: {"ante": "5.00", "progressive": "1.00"}},
        {1: "Js Jh Jd 4s 4h"},
        DEALER_AK,
        meters={"progressive": METER},
    )
    assert s.for_seat(1)["progressive"].net == 99 * D


def test_progressive_below_three_of_a_kind_loses() -> None:
    s = settle(
        full_rules(),
        {1: {"ante": "5.00", "progressive": "1.00"}},
        {1: "As Ah Kd 6c 2h"},
        DEALER_AK,
        meters={"progressive": METER},
    )
    out = s.for_seat(1)["progressive"]
    assert (out.result, out.net, out.flags) == (Result.LOSE, -D, ())


def test_progressive_paid_whatever_the_dealer_holds() -> None:
    # § 639a.11(c)(5): the player's flush loses to the dealer's full house; the Progressive pays 50 for 1.
    s = settle(
        full_rules(),
        {1: {"ante": "5.00", "progressive": "1.00"}},
        {1: "Ks Ts 8s 6s 2s"},
        "Qd Qc Qh 5c 5d",
        meters={"progressive": METER},
    )
    assert s.for_seat(1)["bet"].result is Result.LOSE
    assert s.for_seat(1)["progressive"].net == 49 * D


def test_two_royal_flushes_in_one_round_meter_as_it_stands() -> None:
    # § 639a.12(d)(4): seat 5 is paid first (the dealer's right), 100% of $25,000.00; the meter is reset to
    # $10,000.00, and seat 2 is paid 100% of the meter as it then stands.
    s = settle(
        full_rules(),
        {2: {"ante": "10.00", "progressive": "1.00"}, 5: {"ante": "10.00", "progressive": "1.00"}},
        {2: "Ah Kh Qh Jh Th", 5: "As Ks Qs Js Ts"},
        "2d 2c 9d 5c 3d",
        meters={"progressive": METER},
    )
    assert s.for_seat(5)["progressive"].net == 25_000 * D - D
    assert s.for_seat(2)["progressive"].net == 10_000 * D - D
    assert s.meters["progressive"] == RESET
    order = [(o.seat, o.wager) for o in s.outcomes]
    assert order.index((5, "progressive")) < order.index((2, "progressive"))
    for seat in (2, 5):
        assert NOT_FROM_INVENTORY in s.for_seat(seat)["progressive"].flags


def test_ten_percent_after_a_royal_and_before_it() -> None:
    rules = full_rules(progressive="B")
    seats = {3: {"ante": "5.00", "progressive": "1.00"}, 6: {"ante": "5.00", "progressive": "1.00"}}
    # Royal flush at seat 6 (paid first) takes $25,000.00; the straight flush at seat 3 gets 10% of
    # the $10,000.00 reset meter, which keeps the $9,000.00 left (§ 639a.12(d)(4)).
    s = settle(
        rules, seats, {6: "As Ks Qs Js Ts", 3: "9d 8d 7d 6d 5d"}, DEALER_AK, meters={"progressive": METER}
    )
    assert s.for_seat(6)["progressive"].net == 25_000 * D - D
    assert s.for_seat(3)["progressive"].net == 1_000 * D - D
    assert s.meters["progressive"] == 9_000 * D
    # The other way round: the straight flush at seat 6 takes 10% of $25,000.00 first, then the royal at seat
    # 3 takes the $22,500.00 left.
    s = settle(
        rules, seats, {3: "As Ks Qs Js Ts", 6: "9d 8d 7d 6d 5d"}, DEALER_AK, meters={"progressive": METER}
    )
    assert s.for_seat(6)["progressive"].net == 2_500 * D - D
    assert s.for_seat(3)["progressive"].net == 22_500 * D - D
    assert s.meters["progressive"] == RESET


def test_a_meter_event_sets_the_meter_as_it_stands() -> None:
    events = deal_events({1: {"ante": "5.00", "progressive": "1.00"}}, {1: "As Ks Qs Js Ts"}, DEALER_AK)
    s = play(
        GAME,
        full_rules(),
        {"progressive": METER},
        [*events[:-1], meter("progressive", "31000.00"), events[-1]],
    )
    assert s.for_seat(1)["progressive"].net == 31_000 * D - D


def test_a_progressive_wager_needs_the_meter() -> None:
    rnd = round_after(
        full_rules(),
        deal_events({1: {"ante": "5.00", "progressive": "1.00"}}, {1: "As Ks Qs Js Ts"}, DEALER_AK),
    )
    with pytest.raises(IllegalEvent, match=r"waits for the progressive meter.*§ 639a\.12\(d\)\(4\)"):
        rnd.settle()
    rnd.apply(meter("progressive", "12000.00"))
    assert rnd.settle().for_seat(1)["progressive"].net == 12_000 * D - D


def test_a_share_of_the_meter_as_it_stands_after_another_share() -> None:
    # § 639a.12(d)(4): "Winning Progressive Payout Hands shall be paid in accordance with the amount
    # on the meter when it is the player's turn to be paid". Paytable B, $10,500 on the meter: the
    # straight flush at seat 6 (paid first) takes 10%, $1,050 (net +1,049.00), leaving $9,450; the
    # royal flush at seat 4 takes that $9,450 (net +9,449.00), and the meter resets to $10,000.
    seats = {4: {"ante": "5.00", "progressive": "1.00"}, 6: {"ante": "5.00", "progressive": "1.00"}}
    s = settle(
        full_rules(progressive="B"),
        seats,
        {6: "9d 8d 7d 6d 5d", 4: "As Ks Qs Js Ts"},
        DEALER_AK,
        meters={"progressive": 1_050_000},
    )
    assert s.for_seat(6)["progressive"].net == 1_049 * D
    assert s.for_seat(4)["progressive"].net == 9_449 * D
    assert s.meters["progressive"] == RESET


def test_a_round_may_begin_with_the_meter_a_share_left_below_its_reset_amount() -> None:
    # § 639a.12(d)(3) sets "The initial and reset amount": where the meter starts and where it goes
    # after a 100% award. A share (§ 639a.12(d)(4)) can leave less; the next round begins there.
    s = settle(
        full_rules(progressive="B"),
        {1: {"ante": "5.00", "progressive": "1.00"}},
        {1: "9d 8d 7d 6d 5d"},
        DEALER_AK,
        meters={"progressive": 945_000},
    )
    assert s.for_seat(1)["progressive"].net == 94_500 - D
    assert s.meters["progressive"] == 850_500
    rnd = round_after(full_rules(), [])
    rnd.apply(meter("progressive", "9450.00"))
    assert rnd.state.meter == 945_000


def test_no_progressive_no_meter_needed() -> None:
    s = settle(make_rules(), {1: {"ante": "5.00"}}, {1: "As Ks Qs Js Ts"}, DEALER_AK)
    assert dict(s.meters) == {}


# --- folding: § 639a.11(b) ---------------------------------------------------------------------


def test_fold_forfeits_ante_bonus_and_progressive() -> None:
    # Even a royal flush forfeits everything once folded.
    s = settle(
        full_rules(),
        {1: {"ante": "10.00", "bonus": "5.00", "progressive": "1.00"}, 2: {"ante": "10.00"}},
        {1: "As Ks Qs Js Ts", 2: "7c 7h Kh 8d 6h"},
        DEALER_AK,
        actions={1: "fold"},
        meters={"progressive": METER},
    )
    out = s.for_seat(1)
    assert set(out) == {"ante", "bonus", "progressive"}  # no Bet Wager was made
    assert [(o.result, o.net) for o in out.values()] == [
        (Result.LOSE, -10 * D),
        (Result.LOSE, -5 * D),
        (Result.LOSE, -D),
    ]
    assert s.meters["progressive"] == METER
    # § 639a.11(c): forfeited wagers are collected first, then the others from the dealer's right.
    assert [(o.seat, o.wager) for o in s.outcomes] == [
        (1, "ante"),
        (1, "bonus"),
        (1, "progressive"),
        (2, "ante"),
        (2, "bet"),
    ]


def test_settlement_order_from_the_dealers_right() -> None:
    s = settle(
        full_rules(),
        {s: {"ante": "5.00", "bonus": "1.00", "progressive": "1.00"} for s in (1, 4, 7)},
        {1: "2s 3s 4h 5d 7c", 4: "8s 8h 9c Td Jc", 7: "Qs Qh 2c 4d 6c"},
        DEALER_AK,
        meters={"progressive": METER},
    )
    expected = [(seat, w) for seat in (7, 4, 1) for w in ("ante", "bet", "bonus", "progressive")]
    assert [(o.seat, o.wager) for o in s.outcomes] == expected


def test_everyone_folds() -> None:
    s = settle(
        make_rules(),
        {1: {"ante": "5.00"}, 2: {"ante": "5.00"}},
        {1: "2s 3s 4h 5d 7c", 2: "8s 8h 9c Td Jc"},
        DEALER_AK,
        actions={1: "fold", 2: "fold"},
    )
    assert [o.net for o in s.outcomes] == [-5 * D, -5 * D]


def test_no_player_at_all() -> None:
    s = play(GAME, make_rules(), {}, [NO_MORE_BETS])
    assert s.outcomes == ()


def test_bet_amount_may_be_given() -> None:
    events = deal_events({1: {"ante": "5.00"}}, {1: "Qs Qh 2c 4d 6c"}, DEALER_AK)
    s = play(GAME, make_rules(), {}, [*events[:-1], decide(1, "bet", "10.00")])
    assert s.for_seat(1)["bet"].stake == 10 * D


# --- irregularities: § 639a.13 ------------------------------------------------------------------

AUTO_SHOE = {"dealing": "automated shoe"}
IRR_WAGERS = {1: {"ante": "10.00", "bonus": "5.00"}, 3: {"ante": "10.00", "progressive": "1.00"}}
IRR_HANDS = {1: "As Ks Qs Js Ts", 3: "2s 3s 4h 5d 7c"}


def irr_rules(**more: object) -> CaribbeanStudRules:
    return make_rules(
        **{
            "bonus.offered": True,
            "progressive.offered": True,
            "progressive.rate_of_progression": "18%",
            **AUTO_SHOE,
            **more,
        }
    )


def while_dealing() -> list[Event]:
    """Wagers, no more bets and seat 1's cards: the deal is under way."""
    return deal_events(IRR_WAGERS, IRR_HANDS, DEALER_AK)[:5]


def after_seat_1_bet() -> list[Event]:
    """Every card dealt, seat 1 has bet, seat 3 has not decided."""
    return deal_events(IRR_WAGERS, IRR_HANDS, DEALER_AK)[:-1]


RETURNED_WHILE_DEALING = [
    (3, "ante", 10 * D),
    (3, "progressive", D),
    (1, "ante", 10 * D),
    (1, "bonus", 5 * D),
]
RETURNED_AFTER_SEAT_1_BET = [
    (3, "ante", 10 * D),
    (3, "progressive", D),
    (1, "ante", 10 * D),
    (1, "bet", 20 * D),  # the Bet Wager seat 1 made is returned too
    (1, "bonus", 5 * D),
]


@pytest.mark.parametrize(
    ("kind", "stage", "section", "reason"),
    [
        ("cards_face_up", "dealing", "§ 639a.13(a)", "more than one card found face up"),
        ("shoe_jam", "dealing", "§ 639a.13(f)", "the automated dealing shoe jammed"),
        ("wrong_card_count", "dealing", "§ 639a.13(c)", "incorrect number of cards"),
        ("wrong_card_count", "deciding", "§ 639a.13(c)", "seat 3 was dealt an incorrect number of cards"),
        ("hole_card_exposed", "dealing", "§ 639a.13(d)", "hole card exposed before each player"),
        ("hole_card_exposed", "deciding", "§ 639a.13(d)", "hole card exposed before each player"),
        ("stub_count_misdealt", "deciding", "§ 639a.10(f)", "cards misdealt, 52 cards remaining"),
        ("stub_count_wrong", "deciding", "§ 639a.10(f)", "the entire deck is removed"),
    ],
)
def test_irregularities_that_void_the_round(kind: str, stage: str, section: str, reason: str) -> None:
    events = while_dealing() if stage == "dealing" else after_seat_1_bet()
    seat = 3 if kind == "wrong_card_count" and stage == "deciding" else None
    rnd = round_after(irr_rules(), [*events, irregularity(kind, seat=seat)], {"progressive": METER})
    s = rnd.settle()
    assert reason in s.void and "all hands void, all wagers returned" in s.void
    returned = RETURNED_WHILE_DEALING if stage == "dealing" else RETURNED_AFTER_SEAT_1_BET
    assert [(o.seat, o.wager, o.stake) for o in s.outcomes] == returned
    assert all(o.result is Result.VOID and o.net == 0 and o.section == section for o in s.outcomes)
    assert s.meters["progressive"] == METER  # nothing paid from the meter
    assert s.to_json()["void"] == s.void
    # After a void the round accepts nothing more.
    for event in (
        decide(3, "bet"),
        meter("progressive", "30000.00"),
        cards("dealer", "2h"),
        irregularity("card_drawn_in_error"),
    ):
        round_refuses(rnd, event, "the round is void")


def test_wrong_card_count_during_the_deal() -> None:
    # Seat 1 got four cards and the dealer moved on: no decision is taken; once reported, the round is void.
    events = [wager(1, "ante", "5.00"), NO_MORE_BETS, cards(1, "2s 3s 4h 5d"), cards("dealer", DEALER_AK)]
    rnd = round_after(make_rules(), events)
    round_refuses(rnd, decide(1, "bet"), r"the deal is not complete \(seat 1 has 4 of 5 cards\)")
    rnd.apply(irregularity("wrong_card_count", seat=1))
    s = rnd.settle()
    assert "seat 1 was dealt an incorrect number of cards" in s.void
    assert [o.result for o in s.outcomes] == [Result.VOID]


@pytest.mark.parametrize(
    ("dealing", "section"),
    [("manual shoe", "§ 639a.8(h)"), ("hand", "§ 639a.9(f)"), ("automated shoe", "§ 639a.10(f)")],
)
def test_stub_count_cites_the_dealing_procedure(dealing: str, section: str) -> None:
    events = deal_events({1: {"ante": "5.00"}}, {1: "2s 3s 4h 5d 7c"}, DEALER_AK)
    rnd = round_after(make_rules(dealing=dealing), [*events[:-1], irregularity("stub_count_wrong")])
    assert rnd.settle().outcomes[0].section == section
    early = round_after(make_rules(dealing=dealing), events[:3])
    round_refuses(
        early, irregularity("stub_count_misdealt"), "the stub is counted after five cards are dealt"
    )


def test_one_card_face_up_does_not_void_but_a_second_does() -> None:
    # § 639a.13(a): one card found face up is not used; more than one voids the round.
    events = deal_events(IRR_WAGERS, IRR_HANDS, DEALER_AK)
    rnd = round_after(irr_rules(), [*events[:5], irregularity("card_face_up")], {"progressive": METER})
    assert not rnd.state.void and rnd.state.faced_up == 1
    for e in events[5:]:
        rnd.apply(e)
    s = rnd.settle()
    assert not s.void and s.for_seat(1)["bet"].net == 100 * 20 * D
    again = round_after(
        irr_rules(), [*events[:5], irregularity("card_face_up"), irregularity("card_face_up")]
    )
    assert "more than one card found face up" in again.settle().void


def test_a_card_drawn_in_error_does_not_void() -> None:
    # § 639a.13(b): used as though it were the next card.
    events = deal_events(IRR_WAGERS, IRR_HANDS, DEALER_AK)
    rnd = round_after(irr_rules(), [*events[:5], irregularity("card_drawn_in_error")], {"progressive": METER})
    assert rnd.state.irregularities[-1].kind == "card_drawn_in_error" and not rnd.state.void
    for e in events[5:]:
        rnd.apply(e)
    s = rnd.settle()
    assert not s.void and s.for_seat(3)["ante"].result is Result.LOSE


@pytest.mark.parametrize("kind", ["card_face_up", "cards_face_up", "card_drawn_in_error", "shoe_jam"])
def test_dealing_irregularities_only_while_dealing(kind: str) -> None:
    rnd = round_after(irr_rules(), after_seat_1_bet(), {"progressive": METER})
    round_refuses(rnd, irregularity(kind), "every card is dealt")


def test_shuffler_jam_is_recorded_without_a_void() -> None:
    # § 639a.13(e): the cards are reshuffled; the wagers stand.
    rnd = round_after(make_rules(), [wager(1, "ante", "5.00"), irregularity("shuffler_jam")])
    assert not rnd.state.void and len(rnd.state.irregularities) == 1
    rnd.apply(NO_MORE_BETS)
    rnd.apply(cards(1, "2s"))
    round_refuses(rnd, irregularity("shuffler_jam"), "the shuffle is over once cards are dealt")
    manual = round_after(make_rules(shuffler="manual"), [])
    round_refuses(manual, irregularity("shuffler_jam"), "this table shuffles by hand")


def test_hole_card_exposed_after_every_decision_does_not_void() -> None:
    events = deal_events(
        {1: {"ante": "5.00"}, 2: {"ante": "5.00"}},
        {1: "Qs Qh 2c 4d 6c", 2: "2s 3s 4h 5d 7c"},
        DEALER_AK,
        actions={2: "fold"},
    )
    rnd = round_after(make_rules(), [*events, irregularity("hole_card_exposed")])
    s = rnd.settle()
    assert not s.void and s.for_seat(1)["bet"].net == 10 * D  # a pair of queens: 1 to 1 on the $10.00 Bet


def test_shoe_jam_only_with_an_automated_dealing_shoe() -> None:
    rnd = round_after(make_rules(dealing="manual shoe"), [wager(1, "ante", "5.00"), NO_MORE_BETS])
    round_refuses(rnd, irregularity("shoe_jam"), r"not an automated dealing shoe \(§ 639a\.13\(f\)\)")


def test_irregularity_kinds_and_timing() -> None:
    rnd = round_after(make_rules(), [wager(1, "ante", "5.00")])
    round_refuses(rnd, irregularity("dealer_sneezed"), "no irregularity 'dealer_sneezed' in ch. 639a")
    for kind in IRREGULARITIES:
        if kind != "shuffler_jam":
            round_refuses(rnd, irregularity(kind), "no card is dealt before 'no more bets'")
    round_refuses(rnd, irregularity("wrong_card_count", seat=9), "seat 9 is not at this table")


# --- illegal events: refused, the round unchanged -----------------------------------------------


@pytest.fixture
def betting() -> Round[CaribbeanStudRules, CaribbeanStudState]:
    return round_after(full_rules(), [wager(1, "ante", "10.00")])


@pytest.fixture
def deciding() -> Round[CaribbeanStudRules, CaribbeanStudState]:
    return round_after(
        full_rules(),
        deal_events(
            {1: {"ante": "10.00"}, 3: {"ante": "10.00"}},
            {1: "As Ks Qs Js Ts", 3: "2s 3s 4h 5d 7c"},
            DEALER_AK,
        )[:-2],
        {"progressive": METER},
    )


def test_illegal_wagers(betting: Round[CaribbeanStudRules, CaribbeanStudState]) -> None:
    round_refuses(betting, wager(2, "bonus", "5.00"), r"after placing an Ante Wager \(§ 639a\.7\(d\)\(3\)\)")
    round_refuses(
        betting, wager(2, "progressive", "1.00"), r"after placing an Ante Wager \(§ 639a\.7\(d\)\(2\)\)"
    )
    round_refuses(betting, wager(1, "bet", "20.00"), r"as the decision 'bet' \(§ 639a\.11\(b\)\)")
    round_refuses(betting, wager(1, "pair_plus", "5.00"), "no 'pair_plus' wager")
    round_refuses(betting, wager(1, "ante", "10.00"), r"seat 1 has already placed its Ante Wager \(10\.00\)")
    round_refuses(betting, wager(8, "ante", "10.00"), r"seats 1 to 7 \(seats, § 639a\.2\(a\)\)")
    round_refuses(betting, wager(2, "ante", "0.00"), "more than 0.00")
    round_refuses(betting, decide(1, "bet"), "the deal is not complete")
    round_refuses(betting, cards(1, "As Ks Qs Js Ts"), r"before the dealer announces 'no more bets'")
    plain = round_after(make_rules(), [wager(1, "ante", "10.00")])
    round_refuses(
        plain,
        wager(1, "bonus", "5.00"),
        r"does not offer the Caribbean Stud Bonus Wager .*§ 639a\.7\(d\)\(3\)",
    )
    round_refuses(plain, wager(1, "progressive", "1.00"), r"does not offer the Progressive Payout Wager")
    round_refuses(plain, meter("progressive", "20000.00"), "does not offer the Progressive Payout Wager")


def test_no_wager_after_no_more_bets(betting: Round[CaribbeanStudRules, CaribbeanStudState]) -> None:
    betting.apply(NO_MORE_BETS)
    round_refuses(
        betting,
        wager(1, "bonus", "5.00"),
        r"after the dealer has announced 'no more bets' \(§ 639a\.7\(c\)\)",
    )
    round_refuses(betting, wager(2, "ante", "5.00"), r"§ 639a\.7\(c\)")
    round_refuses(betting, NO_MORE_BETS, "already announced")


def test_illegal_cards(deciding: Round[CaribbeanStudRules, CaribbeanStudState]) -> None:
    rnd = round_after(
        full_rules(),
        [wager(1, "ante", "10.00"), wager(3, "ante", "10.00"), NO_MORE_BETS, cards(1, "As Ks Qs")],
    )
    round_refuses(rnd, cards(1, "Js Ts 9s"), r"seat 1 would hold 6 cards; a hand is five cards \(§ 639a\.1\)")
    round_refuses(rnd, cards(3, "2s 3s 4h 5d Ks"), r"Ks has already been dealt this round")
    round_refuses(rnd, cards(2, "2s 3s 4h 5d 7c"), r"seat 2 has no Ante Wager and is dealt no cards")
    round_refuses(rnd, cards("board", "2s 3s 4h"), "no community cards")
    round_refuses(
        rnd, Event("cards", to="3", cards=parse_cards("2s 2s 4h 5d 7c", decks=2)), "2s has already been dealt"
    )
    round_refuses(deciding, cards("dealer", "2h"), "the dealer would hold 6 cards")
    round_refuses(deciding, cards(3, "9c"), "seat 3 would hold 6 cards")


def test_illegal_decisions(deciding: Round[CaribbeanStudRules, CaribbeanStudState]) -> None:
    round_refuses(
        deciding, decide(3, "bet"), r"seat 3 decides out of turn: seat 1 is asked first.*§ 639a\.11\(b\)"
    )
    round_refuses(
        deciding, decide(1, "bet", "15.00"), r"20\.00 on an ante of 10\.00, not 15\.00 \(§ 639a\.11\(b\)\)"
    )
    round_refuses(deciding, decide(1, "bet", "10.00"), r"two times the Ante Wager")
    round_refuses(deciding, decide(1, "raise"), "'bet' or 'fold'")
    round_refuses(deciding, decide(1, "fold", "10.00"), "a fold makes no wager")
    round_refuses(deciding, decide(2, "bet"), "seat 2 has no Ante Wager")
    deciding.apply(decide(1, "bet"))
    round_refuses(deciding, decide(1, "fold"), r"seat 1 has already decided \(bet\)")
    round_refuses(deciding, Event("dice", dice=(1, 2, 3)), "no dice events")


def test_settle_says_what_the_round_waits_for() -> None:
    steps = deal_events({1: {"ante": "5.00"}}, {1: "Qs Qh 2c 4d 6c"}, DEALER_AK)
    waits = [
        "'no more bets'",
        "the cards: seat 1 has 0 of 5 cards; the dealer has 0 of 5",
        "the cards: the dealer",
        "seat 1's decision",
    ]
    for upto, wait in zip((1, 2, 3, 4), waits, strict=True):
        with pytest.raises(IllegalEvent, match=wait):
            round_after(make_rules(), steps[:upto]).settle()


def test_state_is_immutable(deciding: Round[CaribbeanStudRules, CaribbeanStudState]) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        deciding.state.void = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        deciding.state.wagers[1] = {}  # type: ignore[index]


# --- the Rules Submission ------------------------------------------------------------------------


def test_defaults() -> None:
    rules = make_rules()
    assert (rules.seats, rules.decks, rules.bonus_offered, rules.progressive_offered) == (7, 1, False, False)
    assert rules.progressive_reset == rules.progressive_initial == 10_000 * D
    assert GAME.decks(make_rules(decks=2)) == 1  # the two decks alternate, one per round (§ 639a.3(b)(3))
    assert GAME.name == "caribbean-stud" and GAME.chapter == "58 Pa. Code ch. 639a" and not GAME.joker


def test_reset_below_the_minimum() -> None:
    with pytest.raises(RulesError) as err:
        make_rules(**{"progressive.reset": "5000.00"})
    assert err.value.problems == (
        "progressive.reset 5000.00: is below the $10,000 minimum of § 639a.12(d)(3) (§ 639a.12(d)(3))",
    )


def test_every_problem_at_once() -> None:
    with pytest.raises(RulesError) as err:
        load_rules(
            CaribbeanStudRules,
            {
                "seats": 8,
                "decks": 3,
                "bonus": {"paytabel": "A", "offered": "yes"},
                "progressive": {
                    "paytable": "D",
                    "initial": "9999.99",
                    "reset": "5000.00",
                    "rate_of_progression": "0%",
                },
                "dealing": "shoe",
            },
            "cs.toml",
            GAME.rules_checks,
        )
    problems = err.value.problems
    assert str(err.value).startswith("cs.toml: 9 problems")
    assert "bonus.paytabel: unknown option; did you mean 'bonus.paytable'?" in problems
    assert "seats 8: is above the maximum of 7 (§ 639a.2(a))" in problems
    assert "decks 3: is above the maximum of 2 (§ 639a.3)" in problems
    assert "bonus.offered yes: must be true or false (§ 639a.7(d)(3))" in problems
    assert "progressive.paytable D: must be one of 'A', 'B', 'C' (§ 639a.12(d)(1))" in problems
    assert (
        "progressive.initial 9999.99: is below the $10,000 minimum of § 639a.12(d)(3) (§ 639a.12(d)(3))"
        in problems
    )
    assert (
        "progressive.reset 5000.00: is below the $10,000 minimum of § 639a.12(d)(3) (§ 639a.12(d)(3))"
        in problems
    )
    assert any(p.startswith("progressive.rate_of_progression 0%: must be more than 0%") for p in problems)
    assert any(p.startswith("dealing shoe: must be one of") for p in problems)


def test_checks_between_options() -> None:
    with pytest.raises(RulesError) as err:
        make_rules(**{"progressive.offered": True, "decks": 2, "shuffler": "manual", "dealing": "hand"})
    assert err.value.problems == (
        "progressive.rate_of_progression: missing; the Rules Submission must give the rate of progression "
        "when the Progressive Payout Wager is offered (§ 639a.12(d)(3))",
        "decks 2 needs shuffler = 'automated': two decks only with an automated card shuffling device "
        "(§ 639a.3(b))",
        "dealing 'hand' needs shuffler = 'automated': an automated shuffling device shall be used "
        "(§ 639a.9(a)(1))",
    )


@pytest.mark.parametrize(("raw", "kept"), [("18%", "18%"), ("0.25%", "0.25%"), ("5", "5%"), (12, "12%")])
def test_rate_of_progression(raw: object, kept: str) -> None:
    rules = make_rules(**{"progressive.offered": True, "progressive.rate_of_progression": raw})
    assert rules.progressive_rate == kept
    assert rules_to_mapping(rules)["progressive.rate_of_progression"] == kept


def test_the_submission_file() -> None:
    text = (EXAMPLES / "rules-submission.toml").read_text()
    sub = parse_submission(text, {GAME.name: GAME}, "rules-submission.toml")
    assert sub.game is GAME
    assert isinstance(sub.rules, CaribbeanStudRules) and sub.rules.progressive_offered
    bad = text.replace('reset = "10000.00"', 'reset = "5000.00"')
    with pytest.raises(
        RulesError, match=r"rules\.progressive\.reset 5000\.00: is below the \$10,000 minimum"
    ):
        parse_submission(bad, {GAME.name: GAME}, "bad.toml")


# --- the examples ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "record",
    sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".settlement.json")),
    ids=lambda p: p.name,
)
def test_examples_replay_to_their_documented_settlement(record: Path) -> None:
    expected = json.loads(record.with_suffix(".settlement.json").read_text())
    rec = load_record(json.loads(record.read_text()), {GAME.name: GAME}, record.name)
    assert replay(rec).to_json() == expected
    assert replay(rec).to_json() == expected


def test_there_are_three_examples() -> None:
    assert len(list(EXAMPLES.glob("*.settlement.json"))) >= 3


# --- properties -----------------------------------------------------------------------------------


@st.composite
def rounds(draw: st.DrawFn) -> tuple[CaribbeanStudRules, dict[str, int], list[Event], dict[int, str]]:
    letters = st.sampled_from("ABC")
    chip = draw(st.sampled_from(["1.00", "5.00"]))
    rules = full_rules(bonus=draw(letters), progressive=draw(letters), chip=chip)
    deck = draw(st.permutations(standard_deck()))
    seats = sorted(draw(st.sets(st.integers(1, 7), min_size=1, max_size=7)))
    amounts = st.integers(1, 500).map(lambda d: format_money(d * 50))
    events: list[Event] = []
    for s in seats:
        events.append(wager(s, "ante", draw(amounts)))
        if draw(st.booleans()):
            events.append(wager(s, "bonus", draw(amounts)))
        if draw(st.booleans()):
            events.append(wager(s, "progressive", chip))
    events.append(NO_MORE_BETS)
    for i, s in enumerate(seats):
        events.append(cards(s, format_cards(deck[5 * i : 5 * i + 5])))
    events.append(cards("dealer", format_cards(deck[45:50])))
    actions = {s: draw(st.sampled_from(["bet", "fold"])) for s in seats}
    events += [decide(s, actions[s]) for s in seats]
    meter_cents = draw(st.integers(RESET, 100_000 * D))
    return rules, {"progressive": meter_cents}, events, actions


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds())
def test_properties(case: tuple[CaribbeanStudRules, dict[str, int], list[Event], dict[int, str]]) -> None:
    rules, meters, events, actions = case
    s = play(GAME, rules, meters, events)
    # Replay is deterministic, and a record of the events replays to the same settlement.
    assert play(GAME, rules, meters, events).to_json() == s.to_json()
    record = {
        "game": GAME.name,
        "rules": {  # rules_to_mapping() writes money as cents, which a record would read as dollars
            "bonus": {"offered": True, "paytable": rules.bonus_paytable},
            "progressive": {
                "offered": True,
                "paytable": rules.progressive_paytable,
                "rate_of_progression": "18%",
                "wager": format_money(rules.progressive_wager),
            },
        },
        "meters": {k: format_money(v) for k, v in meters.items()},
        "events": [e.to_json() for e in events],
    }
    assert replay(load_record(json.loads(json.dumps(record)), {GAME.name: GAME})).to_json() == s.to_json()
    folded_first = True
    for o in s.outcomes:
        if o.result is Result.LOSE:
            assert o.net == -o.stake  # a losing wager costs exactly its stake
        if actions[o.seat] == "fold":
            assert folded_first and o.result is Result.LOSE  # a fold never wins
        else:
            folded_first = False
        # No payout above the top of its paytable.
        top = {
            "ante": o.stake,
            "bet": 100 * o.stake,
            "bonus": 1000 * o.stake,
            "progressive": max(meters["progressive"], 5000 * o.stake),
        }[o.wager]
        assert o.net <= top
    dealer_qualifies = "does not qualify" not in s.dealer
    for seat, action in actions.items():
        out = s.for_seat(seat)
        if action == "bet":
            assert out["bet"].stake == 2 * out["ante"].stake
            if not dealer_qualifies:
                assert out["bet"].result is Result.PUSH and out["ante"].result is Result.WIN
            else:
                assert out["bet"].result is out["ante"].result
        else:
            assert "bet" not in out
    assert RESET <= s.meters["progressive"] <= meters["progressive"]
