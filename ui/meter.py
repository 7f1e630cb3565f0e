"""The progressive meter as the dealer's screen shows it: the amount, unavailable, or PENDING.

PENDING: while a progressive payout waits for a floorperson (§ 639a.11(c)(5)(iii)), the screen
shows PENDING beside the meter's amount (never instead of it: the dealer and the floorperson read
what the meter stood at when the hand was made; issue 19). Unavailable: the game offers a
progressive but the daemon reports no meter, the progressive link is configured and disabled, or
a linked meter while progressive wagering is closed (``link.unavailable``: the meter not heard, a
refused declaration or contribution; design: a lost link disables progressive wagering, not the
base game). Everything comes from ``status``.

A hand dealt that makes a row paid from the meter (``round.jackpot_hands``) shows PENDING on that
meter at once, before the meter's award comes. A table with several progressives (Blackjack's
Bad Beat, Hit and Run and Straight Jack) shows each meter by its name, with its own amount and
state (:func:`meter_views`).

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
    at_ceiling: bool = False
    """The meter stands at its maximum (the link's ``ceilings``): what comes goes to its overflow."""

    @property
    def title(self) -> str:
        """The meter's name as the dealer says it (``"Bad Beat"``)."""
        return title_of(self.name or PROGRESSIVE)

    @property
    def text(self) -> str:
        if self.state is MeterState.PENDING:
            shown = "PENDING" + (f" {dollars(self.amount)}" if self.amount is not None else "")
            return f"{shown} {self.hitter}" if self.hitter else shown
        if self.state is MeterState.UNAVAILABLE:
            return "UNAVAILABLE"
        if self.state is MeterState.AMOUNT and self.amount is not None:
            return dollars(self.amount) + (" MAX" if self.at_ceiling else "")
        return ""


#: The meters' names in the dealer's words where the wager's name does not say it as is.
_TITLES = {"hit_and_run": "Hit and Run"}


def title_of(name: str) -> str:
    """A meter's name as the dealer says it: ``"bad_beat"`` is Bad Beat, ``"hit_and_run"`` Hit
    and Run, ``"progressive"`` Progressive."""
    return _TITLES.get(name) or " ".join(w.capitalize() for w in name.split("_"))


def meter_view(
    meters: Mapping[str, Any],
    link: Mapping[str, Any],
    pending: Sequence[Mapping[str, Any]],
    name: str = "",
    jackpots: Sequence[Mapping[str, Any]] = (),
) -> MeterView:
    """One meter, ``name`` (the wager's and the meter's name in ``round.meters``; ``""``: the
    Progressive, else the first), from ``round.meters``, ``link``, ``pending_payouts`` and
    ``round.jackpot_hands`` of ``status``: PENDING while a payout of it waits for a floorperson,
    while a hand dealt makes one of its rows, or while the central meter awards a hit on it (the
    link's ``locks``, by the meter's id in ``link.progressives``)."""
    if not name:
        name = PROGRESSIVE if PROGRESSIVE in meters or not meters else sorted(meters)[0]
    at = meters.get(name)
    shown = amount(at, f"status round.meters.{name}") if at is not None else None
    if any(p.get("wager") == name for p in pending):
        return MeterView(
            MeterState.PENDING, name, shown, reason="a progressive payout waits for a floorperson"
        )
    dealt = next((j for j in jackpots if j.get("wager") == name), None)
    if dealt is not None:
        reason = f"seat {dealt.get('seat')}: {dealt.get('hand')} dealt, the meter's award to come"
        return MeterView(MeterState.PENDING, name, shown, reason=reason)
    ids = link.get("progressives")
    meter_id = ids.get(name) if isinstance(ids, Mapping) else None
    for key, lock in (link.get("locks") or {}).items():
        if key != meter_id and not (meter_id is None and name == PROGRESSIVE):
            continue
        hitter = f"{lock['table']} seat {lock['seat']}"
        return MeterView(
            MeterState.PENDING, name, shown, reason=f"a hit at {hitter} is being awarded", hitter=hitter
        )
    if link.get("configured") and not link.get("enabled", True):
        return MeterView(MeterState.UNAVAILABLE, name, reason="the progressive link is disabled")
    down = link.get("unavailable")
    linked = meter_id is not None or not isinstance(ids, Mapping)
    if link.get("configured") and linked and isinstance(down, str) and down:
        # Progressive wagering closed (the link's reason): the amount last heard is not shown as
        # if the wagers on the sensors counted toward it.
        return MeterView(MeterState.UNAVAILABLE, name, reason=down)
    if not meters:
        return MeterView(MeterState.NONE)
    assert shown is not None
    ceilings = link.get("ceilings")
    key = meter_id if meter_id is not None else name
    ceiling = ceilings.get(key) if isinstance(ceilings, Mapping) else None
    top = ceiling.get("ceiling") if isinstance(ceiling, Mapping) else None
    at_top = isinstance(top, str) and shown >= amount(top, f"status link.ceilings.{key}.ceiling")
    return MeterView(MeterState.AMOUNT, name, shown, at_ceiling=at_top)


def meter_views(
    meters: Mapping[str, Any],
    link: Mapping[str, Any],
    pending: Sequence[Mapping[str, Any]],
    jackpots: Sequence[Mapping[str, Any]] = (),
) -> tuple[MeterView, ...]:
    """Every meter of the round, each by its own name, amount and state (Blackjack's Bad Beat,
    Hit and Run and Straight Jack side by side); one view when there is none (NONE, or UNAVAILABLE)."""
    if not meters:
        return (meter_view(meters, link, pending, jackpots=jackpots),)
    return tuple(meter_view(meters, link, pending, name, jackpots) for name in meters)
