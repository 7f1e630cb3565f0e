"""Amounts as the daemon sends them (decimal strings) and as the dealer reads them.

Exact: :class:`decimal.Decimal` from the wire's strings, never a float. A string that is not an
amount is a :class:`ValueError` naming it and where it came from.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

CENT = Decimal("0.01")


def amount(text: object, where: str) -> Decimal:
    """``"25.00"`` or ``"+25.00"`` / ``"-5.00"`` -> ``Decimal``; ``where`` names the field."""
    if not isinstance(text, str):
        raise ValueError(f"{where}: an amount is a decimal string, not {text!r}")
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"{where}: {text!r} is not an amount") from None
    if not value.is_finite() or value != value.quantize(CENT):
        raise ValueError(f"{where}: {text!r} is not an amount in cents")
    return value


def dollars(value: Decimal) -> str:
    """``Decimal("12345.5")`` -> ``"$12,345.50"`` (the sign left to the caller's words)."""
    return f"${abs(value).quantize(CENT):,}"


def cents_text(cents: int) -> str:
    """What the amount keypad shows: 2500 -> ``"25.00"`` (the wire's form)."""
    if cents < 0:
        raise ValueError(f"an amount keyed in is not negative: {cents}")
    return f"{cents // 100}.{cents % 100:02d}"
