"""The meter when each player is paid (§ 639a.12(d)(4)): a ``meter`` event for one seat, the rules
paying that seat from it, and the link's claims and ``meter`` events built on it (the central
meter's awards as the table would hear them, each from the meter as it then stood)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from controller.journal.state import OpenRound
from controller.link.hits import hits, meter_events
from controller.rules.core.engine import IllegalEvent, Round
from controller.rules.core.events import Event, EventError, parse_event
from controller.rules.games.caribbean_stud.game import GAME
from controller.rules.games.fortune_asia_poker.game import GAME as FORTUNE
from wire import Award, Share

from .rounds import NO_MORE_BETS, cards, decide, round_refuses, wager
from .test_asia_poker_game import ALL_FORTUNE, frules, line, m, round_events, run
from .test_blackjack import SHOE_DECKS, Table
from .test_caribbean_stud import deal_events, full_rules

ROYAL = "As Ks Qs Js Ts"
STRAIGHT_FLUSH = "9h 8h 7h 6h 5h"
DEALER = "2c 7d 9c 4s 3d"
METER = 1_234_567
RESET = 1_000_000
ARRIVED = 4_321
"""Cents other tables' contributions added to the meter between the two awards."""


def hit_round(seat_2: str = ROYAL, seat_1: str = STRAIGHT_FLUSH) -> Round[Any, Any]:
    """Seats 1 and 2 with an ante and a Progressive Payout Wager, both hands hitting paytable B
    (royal flush 100%, straight flush 10%): complete but for the meter."""
    rnd = Round.begin(GAME, full_rules(progressive="B"), {})
    seats = {s: {"ante": "10.00", "progressive": "1.00"} for s in (1, 2)}
    for event in deal_events(seats, {1: seat_1, 2: seat_2}, DEALER):
        rnd.apply(event)
    return rnd


def progressive_nets(rnd: Round[Any, Any]) -> dict[int, int]:
    return {o.seat: o.net for o in rnd.settle().outcomes if o.wager == "progressive"}


def test_a_seats_meter_pays_that_seat_the_meter_as_it_stood() -> None:
    """Seat 2's royal flush is paid first (§ 639a.11(c), from the dealer's right) from the meter;
    seat 1's 10% from the meter as the central meter says it stood when seat 1 was paid: the
    reset amount plus what arrived between, not the reset amount the table would walk to."""
    rnd = hit_round()
    rnd.apply(Event("meter", name="progressive", amount=METER))
    walked = Round(rnd.game, rnd.rules, rnd.state, list(rnd.events))
    # The table's own meter (unlinked): seat 1 is paid 10% of the reset amount it walked to.
    assert progressive_nets(walked) == {2: METER - 100, 1: RESET // 10 - 100}
    rnd.apply(Event("meter", name="progressive", amount=METER, seat=2))
    rnd.apply(Event("meter", name="progressive", amount=RESET + ARRIVED, seat=1))
    assert progressive_nets(rnd) == {2: METER - 100, 1: int((RESET + ARRIVED) * Fraction(1, 10)) - 100}


def test_a_seats_meter_is_refused_where_nothing_is_paid_from_it() -> None:
    rnd = hit_round()
    rnd.apply(Event("meter", name="progressive", amount=METER))
    round_refuses(
        rnd,
        Event("meter", name="progressive", amount=METER, seat=3),
        r"seat 3: no progressive wager placed.*seats with one: 1, 2",
    )
    rnd.apply(Event("meter", name="progressive", amount=METER, seat=2))
    round_refuses(rnd, Event("meter", name="progressive", amount=1, seat=2), r"seat 2: .* already given")


def test_a_seats_meter_reads_and_writes_as_json() -> None:
    event = Event("meter", name="progressive", amount=METER, seat=2)
    assert event.to_json() == {"type": "meter", "name": "progressive", "amount": "12345.67", "seat": 2}
    assert parse_event(event.to_json()) == event


@pytest.mark.parametrize(
    ("seat_2", "seat_1", "shares"),
    [(ROYAL, STRAIGHT_FLUSH, [(2, 100), (1, 10)]), (STRAIGHT_FLUSH, ROYAL, [(2, 10), (1, 100)])],
)
def test_every_hit_is_claimed_in_the_order_the_rules_pay_them(
    seat_2: str, seat_1: str, shares: list[tuple[int, int]]
) -> None:
    """Both hits are found (the second's payout is a share of its own meter, whatever the first
    left), and in the dealer's order of payment: the meter awards them in the order received."""
    rnd = hit_round(seat_2, seat_1)
    claims = hits(rnd, rnd.state, ["progressive"])
    assert [(c.seat, c.share) for c in claims] == shares


def award(seq: int, seat_share: int, before: int, reset_after: bool) -> Award:
    paid = int(before * Fraction(seat_share, 100))
    after = RESET if reset_after else before - paid
    return Award(
        "t1", seq, f"m-{seq}", "cs-floor", seq, 100 + seq, Share(Fraction(seat_share)), paid, before, after
    )


def seat_meter(seat: int, a: Award) -> Event:
    return Event(
        "meter",
        name="progressive",
        amount=a.meter_before,
        seat=seat,
        award_seq=a.award_seq,
        meter_record=a.record_seq,
        paid=a.paid,
        meter_after=a.meter_after,
    )


def test_an_award_is_read_only_with_its_seat() -> None:
    """The award's fields describe one seat's award: on the round's meter they are refused."""
    event = seat_meter(2, award(1, 100, METER, True))
    assert parse_event(event.to_json()) == event
    body = {k: v for k, v in event.to_json().items() if k != "seat"}
    with pytest.raises(EventError, match=r"award_seq, meter_record, paid, meter_after describe one seat"):
        parse_event(body, "seq 9")


def test_each_claim_is_settled_from_its_own_award() -> None:
    """The link's ``meter`` events: the round's meter (the first award's), then each claimed seat's
    own award's meter; the round settles each seat from its own."""
    rnd = hit_round()
    current = OpenRound("r-1", 1, 0, {}, {}, rnd)
    meter_ids = {"progressive": "cs-floor"}
    first = award(1, 100, METER, True)
    second = award(2, 10, RESET + ARRIVED, False)
    assert meter_events(current, meter_ids, None, {"cs-floor": RESET}) is None
    assert meter_events(current, meter_ids, {("cs-floor", 2): first}, {"cs-floor": RESET}) is None
    events = meter_events(current, meter_ids, {("cs-floor", 2): first, ("cs-floor", 1): second}, {})
    # Each seat's event keeps its award whole (which award, the meter's record, paid, after).
    assert events == [
        Event("meter", name="progressive", amount=METER),
        seat_meter(2, first),
        seat_meter(1, second),
    ]
    for event in events:
        rnd.apply(event)
    assert progressive_nets(rnd) == {2: first.paid - 100, 1: second.paid - 100}


def test_players_sharing_a_100_percent_award_claim_it_once_and_share_its_meter() -> None:
    """Blackjack's Straight Jack, linked (the round begins without its meter): seat 6's 10% is
    claimed first; seats 4 and 2 "share the maximum amount equally" (§ 633a.7(o)(3)(ii)(C)), so
    seat 4, the first of them, claims the 100% and seat 2 nothing; both are paid half of the
    meter seat 4's award stood at, and the meter resets once."""
    t = Table()
    for seat in (2, 4, 6):
        t(wager(seat, "blackjack", "10.00"), wager(seat, "straight_jack", "1.00"))
    t(NO_MORE_BETS).deal({2: "2h 3d", 4: "3c 2s", 6: "2d 3h"}, "7c")
    for seat, ace in ((2, "As"), (4, "As"), (6, "Ah")):
        for c in (ace, "4c", "5s", "6h"):
            t(decide(seat, "hit"), cards(seat, c, decks=SHOE_DECKS))
    t.dealer("Tc")
    rnd = t.round
    claims = hits(rnd, rnd.state, ["straight_jack"])
    assert [(c.seat, c.share) for c in claims] == [(6, 10), (4, 100)]
    current = OpenRound("r-1", 1, 0, {}, {}, rnd)
    meter_ids = {"straight_jack": "bj-sj"}
    sixth = Award("t1", 1, "m-1", "bj-sj", 1, 101, Share(Fraction(10)), 100_000, 1_000_001, 900_001)
    fourth = Award("t1", 2, "m-2", "bj-sj", 2, 102, Share(Fraction(100)), 900_101, 900_101, 500_000)
    events = meter_events(current, meter_ids, {("bj-sj", 6): sixth, ("bj-sj", 4): fourth}, {})
    assert events is not None
    for event in events:
        rnd.apply(event)
    settled = rnd.settle()
    nets = {o.seat: o.net for o in settled.outcomes if o.wager == "straight_jack"}
    # 10% of 10,000.01 and 200 to 1 on 1.00; then 9,001.01 (100 arrived between) shared by two.
    assert nets == {6: 100_000 + 20_000, 4: 450_050 + 20_000, 2: 450_050 + 20_000}
    assert settled.meters["straight_jack"] == 500_000


def test_fortune_asia_poker_pays_a_seat_from_its_own_meter() -> None:
    """Fortune Asia Poker's Progressive Payout Wager (§ 659a.11(h)(3)(ii)(D)): the seat with its
    own meter (the central meter's award) is paid from it, not from the round's meter."""
    r = frules(ALL_FORTUNE)
    hands = {"dealer": "Tc Td 9d 6d Qc 3c Kc", "2": "2s 3s 4s 5s 6s 7s 8s"}
    events = round_events(
        {2: {"fortune_asia_poker": "10.00", "progressive": "1.00"}}, hands, {2: "8s 7s 6s 5s / 4s 3s / 2s"}
    )
    meter = Event("meter", name="progressive", amount=m("20000.00"))
    own = Event("meter", name="progressive", amount=m("15000.00"), seat=2)
    s = run(FORTUNE, r, [*events[:2], meter, own, *events[2:]])
    assert line(s, 2, "progressive") == ("win", "+15000.00", "seven-card straight flush")
    assert s.meters == {"progressive": m("10000.00")}
    with pytest.raises(IllegalEvent, match=r"seat 3: no progressive wager placed.*seats with one: 2"):
        run(FORTUNE, r, [*events[:2], meter, Event("meter", name="progressive", amount=1, seat=3)])
