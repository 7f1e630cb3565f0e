"""Each seat's wagers, and the progressive wagers the system accepted, for the dealer to check
against the chips collected (§ 639a.8(b)).

Built from the daemon's ``status`` (``round.wagers``): the screen holds no count of its own. A
progressive wager is only ever the sensor's (journaled at the lock-out, design "who may say
what"); the dealer's screen shows it, never enters it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .money import amount

PROGRESSIVE = "progressive"


@dataclass(frozen=True)
class SeatWager:
    wager: str
    amount: Decimal


@dataclass(frozen=True)
class SeatView:
    """One seat: its wagers in the order made, and how many progressive wagers were accepted."""

    seat: int
    wagers: tuple[SeatWager, ...]
    progressive: int


@dataclass(frozen=True)
class WagerCount:
    """§ 639a.8(b): after "no more bets" the dealer collects the progressive chips and checks their
    number against the system's count. ``seats``: the seats with one, in seat order."""

    accepted: int
    seats: tuple[int, ...]

    @property
    def text(self) -> str:
        if not self.accepted:
            return "no progressive wagers accepted"
        where = ", ".join(str(s) for s in self.seats)
        seats = "seats" if len(self.seats) > 1 else "seat"
        return (
            f"collect {self.accepted} progressive chip{'s' if self.accepted != 1 else ''} ({seats} {where})"
        )


def seat_views(wagers: Sequence[Mapping[str, Any]]) -> tuple[SeatView, ...]:
    """The seats with a wager, in seat order; a malformed wager is a ``ValueError`` naming it."""
    by_seat: dict[int, list[SeatWager]] = {}
    for i, w in enumerate(wagers):
        if w.get("type", "wager") != "wager":
            continue  # a poker player's chips and actions (decision participate, bet, raise): not a wager
        where = f"status round.wagers[{i}]"
        seat, name = w.get("seat"), w.get("wager")
        if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(name, str):
            raise ValueError(f"{where}: a wager has a seat number and a wager name, not {dict(w)!r}")
        by_seat.setdefault(seat, []).append(SeatWager(name, amount(w.get("amount"), f"{where}.amount")))
    return tuple(
        SeatView(seat, tuple(ws), sum(1 for x in ws if x.wager == PROGRESSIVE))
        for seat, ws in sorted(by_seat.items())
    )


def wager_count(seats: Sequence[SeatView]) -> WagerCount:
    with_one = tuple(s.seat for s in seats if s.progressive)
    return WagerCount(sum(s.progressive for s in seats), with_one)
