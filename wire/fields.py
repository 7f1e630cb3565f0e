"""The field types of the wire: ids that fill one topic level, exact money, percentages.

Money is exact: a decimal string with exactly two decimals (``"12.50"``), read into integer
cents; a float is refused. A share of a meter is a decimal percent (``"10"``, ``"12.5"``); a
rate of progression is written as the Rules Submission writes it (``"18%"``).
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Final

from .errors import WireError, shown

ID_PATTERN: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
"""An id of a site, link, table or progressive: one topic level, no wildcard, no ``/``, at most 64."""
_MONEY: Final = re.compile(r"^(0|[1-9][0-9]{0,14})\.([0-9]{2})$")
_PERCENT: Final = re.compile(r"^(0|[1-9][0-9]{0,2})(\.[0-9]{1,6})?$")

# Bounds of every number on the wire (docs/progressive-link.md, "Bounds"): a number past them is
# refused naming the field, so no count or amount can overflow the meter's store (SQLite's
# 64-bit integers) or its arithmetic, however many messages add it up.
MAX_SEQ: Final = 2**53 - 1
"""Any seq, count of records or of awards: exact in every JSON reader, far below 2**63."""
MAX_WAGERS: Final = 1_000
"""Progressive wagers in one contribution (one lock-out at one table): seats x sensors is far less."""
MAX_SEAT: Final = 99
"""The highest seat number a message may name (a table's own seat count is the meter's check)."""
MAX_MONEY: Final = 100_000_000_000
"""The largest amount on the wire, in cents: $1,000,000,000.00."""
MAX_PROGRESSIVES: Final = 64
"""Progressives in one declaration."""
MAX_WALL_NS: Final = 2**63 - 1
"""A wall-clock time in nanoseconds since the epoch (the year 2262: SQLite's 64-bit integers)."""


def ident(value: object, field: str) -> str:
    if not isinstance(value, str) or not ID_PATTERN.match(value):
        raise WireError(
            field,
            f"{shown(value)} is not an id (letters, digits, '_', '.', '-', starting with a letter or digit, "
            "at most 64)",
        )
    return value


def count(value: object, field: str, minimum: int = 1, maximum: int = MAX_SEQ) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise WireError(field, f"{shown(value)} is not a whole number from {minimum} to {maximum}")
    return value


def wall_ns(value: object, field: str) -> int:
    return count(value, field, 1, MAX_WALL_NS)


def seat(value: object, field: str) -> int:
    return count(value, field, 1, MAX_SEAT)


def wagers(value: object, field: str) -> int:
    return count(value, field, 1, MAX_WAGERS)


#: The most cards a claim carries (a seven-card hand and two to spare).
MAX_CARDS: Final = 9


def cards(value: object, field: str) -> tuple[str, ...]:
    """A claim's cards: a list of at most :data:`MAX_CARDS` short texts (``"Ah"``, ``"Tc"``);
    the meter reads them as cards, the wire only bounds them."""
    if not isinstance(value, list) or len(value) > MAX_CARDS:
        raise WireError(field, f"{shown(value)} is not a list of at most {MAX_CARDS} cards")
    return tuple(text(v, f"{field}[{i}]", 4) for i, v in enumerate(value))


def text(value: object, field: str, max_len: int = 200) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > max_len:
        raise WireError(field, f"{shown(value)} is not a non-empty string of at most {max_len} characters")
    return value


def money(value: object, field: str) -> int:
    """Cents from ``"12.50"`` (exactly two decimals; never a float)."""
    if not isinstance(value, str):
        raise WireError(field, f'{shown(value)} is not an amount written as a decimal string like "12.50"')
    m = _MONEY.match(value)
    if m is None:
        raise WireError(
            field, f'{shown(value)} is not an amount like "12.50" (dollars, a point, two decimals)'
        )
    cents = int(m[1]) * 100 + int(m[2])
    if cents > MAX_MONEY:
        raise WireError(
            field, f"{shown(value)} is more than the wire's largest amount, {format_money(MAX_MONEY)}"
        )
    return cents


def wager_amount(value: object, field: str) -> int:
    """One wager's amount: money, at least 0.01."""
    cents = money(value, field)
    if cents < 1:
        raise WireError(field, f"{shown(value)}: a wager is at least 0.01")
    return cents


def format_money(cents: int) -> str:
    """``1250`` -> ``"12.50"`` (never negative on the wire)."""
    if cents < 0:
        raise ValueError(f"an amount on the wire is never negative, not {cents} cents")
    whole, frac = divmod(cents, 100)
    return f"{whole}.{frac:02d}"


def percent(value: object, field: str) -> Fraction:
    """A share of a meter: ``"10"``, ``"12.5"``, ``"100"``; more than 0 and at most 100."""
    if not isinstance(value, str) or not _PERCENT.match(value):
        raise WireError(
            field, f'{shown(value)} is not a percentage written as a decimal string like "10" or "12.5"'
        )
    pct = Fraction(value)
    if not 0 < pct <= 100:
        raise WireError(field, f"{shown(value)} must be more than 0 and at most 100 percent")
    return pct


def format_percent(pct: Fraction) -> str:
    """The decimal a percent was read from (``Fraction(25, 2)`` -> ``"12.5"``)."""
    d = Decimal(pct.numerator) / Decimal(pct.denominator)
    out = f"{d:f}"
    return out.rstrip("0").rstrip(".") if "." in out else out


def rate(value: object, field: str) -> Fraction:
    """A rate of progression as the Rules Submission writes it: ``"18%"`` -> 18 (percent)."""
    if not isinstance(value, str) or not value.endswith("%"):
        raise WireError(field, f'{shown(value)} is not a rate of progression like "18%"')
    return percent(value[:-1].strip(), field)
