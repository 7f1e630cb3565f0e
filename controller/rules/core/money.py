"""Money, odds and shares of a progressive meter: exact, in integer cents.

Words of the regulations that decide a payout:

- "5 to 1" pays 5 for each 1 wagered *and returns the wager*: net ``+5 x stake``
  (§ 639a.12(b)).
- "500 for 1" pays 500 *in all* for each 1, the wager included: net
  ``+499 x stake`` (§ 639a.12(d)(1)).
- "100% of meter", "10% of meter": a share of the progressive meter *as it stands
  when that player is paid* (§ 639a.12(d)(4)); "10% of meter and 200 to 1" adds
  both (§ 633a.13(m)(1)).

Rounding, the one place money is not exact: an award that is not a whole number
of cents (3 to 2 on $5.25; 10% of $12,345.67) is rounded *down* to the cent,
and the fraction stays with the house. Payouts shared under a limit are
shared the same way (:func:`share_limit`). Amounts are never floats.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Final, Literal

Cents = int
"""An amount of money in cents. ``12.50`` dollars is ``1250``."""


class MoneyError(ValueError):
    """An amount, odds or award that cannot be read; the message says which and why."""


# ASCII digits only (re.ASCII): "٥.٠٠", fullwidth or Devanagari digits are not an amount here.
_AMOUNT: Final = re.compile(r"\$?(?P<whole>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<frac>\d{1,2}))?", re.ASCII)


def parse_money(text: str | int, what: str = "amount") -> Cents:
    """Cents from ``"12.50"``, ``"1,000"``, ``"$25"`` or a whole number of dollars.

    A float is refused (it cannot be exact); so is a negative amount, or one with
    fractions of a cent.
    """
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise MoneyError(f'{what} {text!r} must be written as a decimal string such as "12.50"')
    if isinstance(text, int):
        if text < 0:
            raise MoneyError(f"{what} {text} is negative")
        return text * 100
    m = _AMOUNT.fullmatch(text.strip())
    if m is None:
        raise MoneyError(f'{what} {text!r} is not an amount of money like "12.50" (dollars and cents)')
    whole = int(m["whole"].replace(",", ""))
    frac = (m["frac"] or "").ljust(2, "0")
    return whole * 100 + int(frac)


def format_money(cents: Cents) -> str:
    """``1250`` -> ``"12.50"``; negative amounts carry a minus sign."""
    sign = "-" if cents < 0 else ""
    whole, frac = divmod(abs(cents), 100)
    return f"{sign}{whole}.{frac:02d}"


def format_net(cents: Cents) -> str:
    """A signed result for a settlement: ``"+12.50"``, ``"-10.00"``, ``"0.00"``."""
    return "0.00" if cents == 0 else ("+" if cents > 0 else "") + format_money(cents)


@dataclass(frozen=True, slots=True)
class Odds:
    """Payout odds: ``pays`` ``kind`` ``per`` ("3 to 2", "500 for 1")."""

    pays: int
    per: int
    kind: Literal["to", "for"]

    def net(self, stake: Cents) -> Cents:
        """What a winning ``stake`` wins, the stake itself not counted (rounded down)."""
        total = stake * self.pays // self.per
        return total if self.kind == "to" else total - stake

    def __str__(self) -> str:
        return f"{self.pays:,} {self.kind} {self.per}"


@dataclass(frozen=True, slots=True)
class MeterShare:
    """A share of the progressive meter, with odds on top where the paytable says "and"."""

    percent: Fraction
    plus: Odds | None = None

    def amount(self, meter: Cents) -> Cents:
        """The share of ``meter`` (the meter as it stands now), rounded down to the cent."""
        return int(meter * self.percent / 100)

    def __str__(self) -> str:
        # The percent was read from a decimal ("12.5"), so its decimal expansion ends.
        pct = f"{Decimal(self.percent.numerator) / Decimal(self.percent.denominator):f}"
        return f"{pct}% of meter" + (f" and {self.plus}" if self.plus else "")


Award = Odds | MeterShare
"""One line of a paytable: odds, or a share of the meter (and odds)."""

_ODDS: Final = re.compile(r"^(?P<pays>\d{1,3}(?:,\d{3})+|\d+)\s+(?P<kind>to|for)\s+(?P<per>\d+)$", re.ASCII)
_SHARE: Final = re.compile(
    r"^(?P<pct>\d+(?:\.\d+)?)\s*%\s+of\s+(?:the\s+)?meter(?:\s+and\s+(?P<odds>.+))?$", re.ASCII
)


def parse_odds(text: str, what: str = "odds") -> Odds:
    """``"5 to 1"``, ``"3 to 2"``, ``"1,000 for 1"``."""
    m = _ODDS.match(" ".join(str(text).split()).lower())
    if m is None:
        raise MoneyError(f'{what} {text!r} is not odds like "5 to 1" or "500 for 1"')
    pays, per = int(m["pays"].replace(",", "")), int(m["per"])
    if per == 0:
        raise MoneyError(f"{what} {text!r}: odds cannot be per 0")
    return Odds(pays, per, "to" if m["kind"] == "to" else "for")


def parse_award(text: str, what: str = "award") -> Award:
    """A paytable line: odds, ``"100% of meter"`` or ``"10% of meter and 200 to 1"``."""
    norm = " ".join(str(text).split()).lower()
    m = _SHARE.match(norm)
    if m is None:
        return parse_odds(text, what)
    pct = Fraction(m["pct"])
    if not 0 < pct <= 100:
        raise MoneyError(f"{what} {text!r}: a share of the meter must be more than 0% and at most 100%")
    plus = parse_odds(m["odds"], what) if m["odds"] else None
    return MeterShare(pct, plus)


@dataclass(frozen=True, slots=True)
class MeterPayment:
    """One player's payment from a share of the meter, and the meter after it."""

    paid: Cents
    meter_after: Cents


def pay_from_meter(share: MeterShare, meter: Cents, reset: Cents) -> MeterPayment:
    """Pay ``share`` of ``meter`` as it stands; the meter then holds the rest.

    § 639a.12(d)(4): paid "in accordance with the amount on the meter when it is the
    player's turn to be paid". A 100% award leaves the reset amount (§ 639a.12(d)(3)
    "initial and reset amount"); a smaller share leaves what is left, even below the
    reset amount: the reset is where the meter goes after a 100% award, not a floor.
    The meter never rises but by contributions or that reset.
    """
    paid = share.amount(meter)
    return MeterPayment(paid, reset if share.percent == 100 else meter - paid)


def share_limit(payouts: Mapping[str, Cents], wagers: Mapping[str, Cents], limit: Cents) -> dict[str, Cents]:
    """Share an aggregate payout limit among winners in proportion to their wagers.

    § 633a.13(o): "each player shall share the maximum payout amount
    proportionately to the amount of the player's respective wager". When the
    payouts together are within ``limit`` they stand. Otherwise each winner gets
    ``limit x wager / all wagers``, rounded down, and never more than the payout
    the odds gave; the cents that rounding leaves over stay with the house.
    """
    total = sum(payouts.values())
    if total <= limit:
        return dict(payouts)
    stakes = sum(wagers[k] for k in payouts)
    if stakes == 0:
        raise MoneyError("cannot share a payout limit among wagers of nothing")
    return {k: min(payouts[k], limit * wagers[k] // stakes) for k in payouts}


def cap(payout: Cents, limit: Cents | None) -> Cents:
    """A payout held to a per-hand limit (``None``: no limit)."""
    return payout if limit is None else min(payout, limit)


def split_evenly(amount: Cents, ways: int) -> tuple[Cents, Cents]:
    """Each of ``ways`` equal shares, and the cents left over (an odd chip)."""
    if ways < 1:
        raise MoneyError(f"cannot split among {ways} players")
    return divmod(amount, ways)
