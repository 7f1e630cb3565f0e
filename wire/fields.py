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

from .errors import WireError

ID_PATTERN: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
"""An id of a site, link, table or progressive: one topic level, no wildcard, no ``/``, at most 64."""
_MONEY: Final = re.compile(r"^(0|[1-9][0-9]{0,14})\.([0-9]{2})$")
_PERCENT: Final = re.compile(r"^(0|[1-9][0-9]{0,2})(\.[0-9]{1,6})?$")


def ident(value: object, field: str) -> str:
    if not isinstance(value, str) or not ID_PATTERN.match(value):
        raise WireError(
            field,
            f"{value!r} is not an id (letters, digits, '_', '.', '-', starting with a letter or digit, "
            "at most 64)",
        )
    return value


def count(value: object, field: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise WireError(field, f"{value!r} is not a whole number of at least {minimum}")
    return value


def text(value: object, field: str, max_len: int = 200) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > max_len:
        raise WireError(field, f"{value!r} is not a non-empty string of at most {max_len} characters")
    return value


def money(value: object, field: str) -> int:
    """Cents from ``"12.50"`` (exactly two decimals; never a float)."""
    if not isinstance(value, str):
        raise WireError(field, f'{value!r} is not an amount written as a decimal string like "12.50"')
    m = _MONEY.match(value)
    if m is None:
        raise WireError(field, f'{value!r} is not an amount like "12.50" (dollars, a point, two decimals)')
    return int(m[1]) * 100 + int(m[2])


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
            field, f'{value!r} is not a percentage written as a decimal string like "10" or "12.5"'
        )
    pct = Fraction(value)
    if not 0 < pct <= 100:
        raise WireError(field, f"{value!r} must be more than 0 and at most 100 percent")
    return pct


def format_percent(pct: Fraction) -> str:
    """The decimal a percent was read from (``Fraction(25, 2)`` -> ``"12.5"``)."""
    d = Decimal(pct.numerator) / Decimal(pct.denominator)
    out = f"{d:f}"
    return out.rstrip("0").rstrip(".") if "." in out else out


def rate(value: object, field: str) -> Fraction:
    """A rate of progression as the Rules Submission writes it: ``"18%"`` -> 18 (percent)."""
    if not isinstance(value, str) or not value.endswith("%"):
        raise WireError(field, f'{value!r} is not a rate of progression like "18%"')
    return percent(value[:-1].strip(), field)
