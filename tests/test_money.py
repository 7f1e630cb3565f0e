"""Money: cents, "to 1" against "for 1", shares of the meter, limits."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.core.money import (
    MeterShare,
    MoneyError,
    Odds,
    cap,
    format_money,
    format_net,
    parse_award,
    parse_money,
    parse_odds,
    pay_from_meter,
    share_limit,
    split_evenly,
)


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("12.50", 1250),
        ("12.5", 1250),
        ("12", 1200),
        ("$25", 2500),
        ("1,000.00", 100_000),
        ("0.05", 5),
        (7, 700),
    ],
)
def test_parse_money(text: str | int, cents: int) -> None:
    assert parse_money(text) == cents


@pytest.mark.parametrize("text", ["12.505", "-5.00", "1,00.00", "ten", "", "1e3", 12.5, True])
def test_bad_money_is_refused(text: object) -> None:
    with pytest.raises(MoneyError):
        parse_money(text)  # type: ignore[arg-type]


def test_format() -> None:
    assert format_money(123456) == "1234.56" and format_money(5) == "0.05" and format_money(-500) == "-5.00"
    assert (format_net(1000), format_net(-1000), format_net(0)) == ("+10.00", "-10.00", "0.00")


def test_to_one_and_for_one_are_different() -> None:
    """§ 639a.12(b) "5 to 1" returns the wager besides; § 639a.12(d)(1) "500 for 1" includes it."""
    assert parse_odds("5 to 1").net(1000) == 5000
    assert parse_odds("500 for 1").net(100) == 49_900
    assert parse_odds("2 for 1").net(100) == 100  # two for one: even money
    assert parse_odds("1,000 to 1").net(100) == 100_000


def test_three_to_two_rounds_down_to_the_cent() -> None:
    assert parse_odds("3 to 2").net(1000) == 1500
    assert parse_odds("3 to 2").net(525) == 787  # 7.875 -> 7.87: the fraction stays with the house


def test_meter_awards() -> None:
    """§ 633a.13(m)(1): "10% of meter and 200 to 1"; § 639a.12(d)(1) "100% of meter"."""
    full = parse_award("100% of meter")
    assert full == MeterShare(Fraction(100))
    assert full.amount(1_234_567) == 1_234_567
    tenth = parse_award("10% of meter and 200 to 1")
    assert isinstance(tenth, MeterShare) and tenth.plus == Odds(200, 1, "to")
    assert tenth.amount(1_234_567) == 123_456  # $1,234.567 rounds down
    assert str(tenth) == "10% of meter and 200 to 1"
    with pytest.raises(MoneyError):
        parse_award("150% of meter")
    with pytest.raises(MoneyError, match="not odds"):
        parse_award("lots")


def test_the_meter_as_it_stands_when_each_player_is_paid() -> None:
    """§ 639a.12(d)(4): two winners in one round, paid one after the other."""
    first = pay_from_meter(MeterShare(Fraction(100)), 5_000_000, reset=1_000_000)
    assert first == (first.__class__(5_000_000, 1_000_000))
    second = pay_from_meter(MeterShare(Fraction(100)), first.meter_after, reset=1_000_000)
    assert second.paid == 1_000_000
    tenth = pay_from_meter(MeterShare(Fraction(10)), 5_000_000, reset=1_000_000)
    assert (tenth.paid, tenth.meter_after) == (500_000, 4_500_000)


def test_a_share_lowers_the_meter_below_its_reset_amount() -> None:
    """§ 639a.12(d)(4): "paid in accordance with the amount on the meter when it is the player's
    turn to be paid". 10% of $10,500 leaves $9,450 on the meter; the $10,000 reset amount of
    § 639a.12(d)(3) is where the meter goes after a 100% award, not a floor."""
    tenth = pay_from_meter(MeterShare(Fraction(10)), 1_050_000, reset=1_000_000)
    assert (tenth.paid, tenth.meter_after) == (105_000, 945_000)
    royal = pay_from_meter(MeterShare(Fraction(100)), tenth.meter_after, reset=1_000_000)
    assert (royal.paid, royal.meter_after) == (945_000, 1_000_000)


def test_share_limit_in_proportion_to_wagers() -> None:
    """§ 633a.13(o): "each player shall share the maximum payout amount proportionately"."""
    payouts = {"a": 3_000_000, "b": 3_000_000}
    wagers = {"a": 1000, "b": 3000}
    assert share_limit(payouts, wagers, 2_500_000) == {"a": 625_000, "b": 1_875_000}
    assert share_limit({"a": 100}, {"a": 5}, 1000) == {"a": 100}


@given(
    st.dictionaries(st.sampled_from("abcdefg"), st.integers(1, 10**9), min_size=1),
    st.integers(1, 10**6),
    st.integers(0, 10**10),
)
def test_share_limit_never_pays_more_than_the_limit(payouts: dict[str, int], unit: int, limit: int) -> None:
    wagers = {k: unit * (i + 1) for i, k in enumerate(payouts)}
    shared = share_limit(payouts, wagers, limit)
    assert sum(shared.values()) <= max(limit, 0) or sum(payouts.values()) <= limit
    assert all(0 <= shared[k] <= payouts[k] for k in payouts)


@given(st.integers(0, 10**9), st.integers(1, 1000), st.integers(1, 100), st.sampled_from(["to", "for"]))
def test_odds_are_exact(stake: int, pays: int, per: int, kind: str) -> None:
    odds = parse_odds(f"{pays} {kind} {per}")
    total = Fraction(stake * pays, per)
    expected = total if kind == "to" else total - stake
    assert odds.net(stake) <= expected < odds.net(stake) + 1


def test_cap_and_split() -> None:
    assert cap(10_000, None) == 10_000 and cap(10_000, 5_000) == 5_000
    assert split_evenly(1001, 2) == (500, 1)
    with pytest.raises(MoneyError):
        split_evenly(100, 0)
