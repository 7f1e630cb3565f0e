"""Amounts as the daemon sends them (decimal strings) and as the dealer reads them.

Exact: :class:`decimal.Decimal` from the wire's strings, never a float. An amount is ASCII
digits, a sign and at most two decimals (``"25.00"``, ``"+25.00"``, ``"-5.00"``), as the daemon
writes them: ``Decimal`` alone would also take other scripts' digits ("٥.٠٠"), underscores,
spaces and exponents. A string that is not an amount is a :class:`ValueError` naming it and
where it came from.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Final

CENT = Decimal("0.01")
#: The wire's amounts: ASCII digits only (``[0-9]``, not ``\d``), no exponent, no spaces.
_AMOUNT: Final = re.compile(r"[+-]?[0-9]+(?:\.[0-9]{1,2})?")


def amount(text: object, where: str) -> Decimal:
    """``"25.00"`` or ``"+25.00"`` / ``"-5.00"`` -> ``Decimal``; ``where`` names the field."""
    if not isinstance(text, str):
        raise ValueError(f"{where}: an amount is a decimal string, not {text!r}")
    if not _AMOUNT.fullmatch(text):
        raise ValueError(f"{where}: {text!r} is not an amount (ASCII digits, at most two decimals)")
    return Decimal(text)


def dollars(value: Decimal) -> str:
    """``Decimal("12345.5")`` -> ``"$12,345.50"`` (the sign left to the caller's words)."""
    return f"${abs(value).quantize(CENT):,}"


def cents_text(cents: int) -> str:
    """What the amount keypad shows: 2500 -> ``"25.00"`` (the wire's form)."""
    if cents < 0:
        raise ValueError(f"an amount keyed in is not negative: {cents}")
    return f"{cents // 100}.{cents % 100:02d}"
