"""The progressive meter as the dealer's screen shows it: the amount, unavailable, or PENDING.

PENDING: while a progressive payout waits for a floorperson (§ 639a.11(c)(5)(iii)), the screen
shows PENDING beside the meter's amount (never instead of it: the dealer and the floorperson read
what the meter stood at when the hand was made; issue 19). Unavailable: the game offers a
progressive but the daemon reports no meter, or the progressive link is configured and disabled
(design: a lost link disables progressive wagering, not the base game). Everything comes from ``status``.

The Jackpot Lock across the link: while the central meter awards a hit on a linked progressive
(``link.locks`` of ``status``: the meter's amount carries it, docs/progressive-link.md), this
table shows PENDING too, with the table and seat that hit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Any

from .money import amount, dollars

PROGRESSIVE = "progressive"


class MeterState(StrEnum):
    AMOUNT = "amount"
    PENDING = "pending"
    UNAVAILABLE = "unavailable"
    NONE = "none"


@dataclass(frozen=True)
class MeterView:
    state: MeterState
    name: str = ""
    amount: Decimal | None = None
    reason: str = ""
    hitter: str = ""
    """Where the hit being awarded was made (another table's, across the link)."""

    @property
    def text(self) -> str:
        if self.state is MeterState.PENDING:
            shown = "PENDING" + (f" {dollars(self.amount)}" if self.amount is not None else "")
            return f"{shown} {self.hitter}" if self.hitter else shown
        if self.state is MeterState.UNAVAILABLE:
            return "UNAVAILABLE"
        if self.state is MeterState.AMOUNT and self.amount is not None:
            return dollars(self.amount)
        return ""


def meter_view(
    meters: Mapping[str, Any], link: Mapping[str, Any], pending: Sequence[Mapping[str, Any]]
) -> MeterView:
    """From ``round.meters``, ``link`` and ``pending_payouts`` of ``status``."""
    if any(p.get("wager") == PROGRESSIVE for p in pending):
        at = meters.get(PROGRESSIVE)
        return MeterView(
            MeterState.PENDING,
            PROGRESSIVE,
            amount(at, f"status round.meters.{PROGRESSIVE}") if at is not None else None,
            reason="a progressive payout waits for a floorperson",
        )
    for lock in (link.get("locks") or {}).values():
        hitter = f"{lock['table']} seat {lock['seat']}"
        at = meters.get(PROGRESSIVE)
        return MeterView(
            MeterState.PENDING,
            PROGRESSIVE,
            amount(at, f"status round.meters.{PROGRESSIVE}") if at is not None else None,
            reason=f"a hit at {hitter} is being awarded",
            hitter=hitter,
        )
    if link.get("configured") and not link.get("enabled", True):
        return MeterView(MeterState.UNAVAILABLE, PROGRESSIVE, reason="the progressive link is disabled")
    if not meters:
        return MeterView(MeterState.NONE)
    name = PROGRESSIVE if PROGRESSIVE in meters else sorted(meters)[0]
    return MeterView(MeterState.AMOUNT, name, amount(meters[name], f"status round.meters.{name}"))
