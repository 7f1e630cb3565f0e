"""The meter's arithmetic: the rate of progression and awards, exact, in integer cents.

Pure: no I/O. The store records what these return, and folds the records through them again
at every start to prove the amounts.

Where the fraction goes. A rate of progression rarely gives whole cents (18% of $5.25 is
94.5 cents). The meter shows whole cents and keeps the fraction below one cent as the
progressive's ``carry``, an exact fraction added to the next contribution: nothing is rounded
away, so after any contributions the meter is ``initial + floor(rate x wagers)`` exactly (and
``carry`` is the rest). An award is of the whole cents on the meter; the carry stays.

A share of the meter is rounded down to the cent and the meter keeps the rest, even below its
reset amount; 100% leaves the reset amount (§ 639a.12(d)(3)-(4), the same rule as
``controller.rules.core.money``'s ``pay_from_meter``). A fixed award does not come off the meter.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from wire import AwardTerms, Fixed, Share


@dataclass(frozen=True)
class Progressed:
    amount: int
    carry: Fraction
    added: int
    """Whole cents this contribution put on the meter."""


def progress(amount: int, carry: Fraction, wagered: int, rate: Fraction) -> Progressed:
    """The meter after ``wagered`` cents of progressive wagers at ``rate`` percent.

    § 639a.12(d)(3), § 633a.13(m)(2): the rate of progression is the Rules Submission's; the
    exact share of the wagers is added, its fraction of a cent carried (module docstring).
    """
    # In integers (a Fraction's denominator is positive): carry + wagered x rate / 100, the same
    # exact value as the Fractions' sum at a fraction of its cost (it runs twice per contribution,
    # and once again for each at every start).
    cn, cd, rn, rd = carry.numerator, carry.denominator, rate.numerator, rate.denominator
    if wagered < 0 or amount < 0 or not 0 <= cn < cd or not 0 < rn <= 100 * rd:
        raise ValueError(f"progress({amount}, {carry}, {wagered}, {rate}): out of range")
    den = cd * rd * 100
    num = cn * rd * 100 + wagered * rn * cd
    added = num // den
    return Progressed(amount + added, Fraction(num - added * den, den), added)


@dataclass(frozen=True)
class Paid:
    paid: int
    meter_after: int


def pay(terms: AwardTerms, amount: int, reset: int) -> Paid:
    """What an award pays from the meter as it stands (``amount``), and the meter after it.

    § 639a.12(d)(4): "the amount on the meter when it is the player's turn to be paid"; a share
    is rounded down to the cent and the meter keeps the rest, or goes to its reset amount after
    a 100% award (§ 639a.12(d)(3)): the reset is no floor, and the meter never rises but by
    contributions or that reset; a fixed amount is paid by the house, not from the meter.
    """
    if isinstance(terms, Share):
        paid = amount * terms.percent.numerator // (100 * terms.percent.denominator)
        return Paid(paid, reset if terms.percent == 100 else amount - paid)
    if isinstance(terms, Fixed):
        return Paid(terms.amount, amount)
    raise TypeError(f"unknown award terms {terms!r}")
