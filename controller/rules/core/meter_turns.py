"""The meter as it stands when each player is paid: a ``meter`` event for one seat.

A share of a progressive meter is paid "in accordance with the amount on the meter when it is the
player's turn to be paid" (§ 639a.12(d)(4); Fortune Asia Poker § 659a.11(h)(3)(ii)(D); Blackjack's
progressives § 633a.7(o)). A table that keeps its own meter walks it down seat by seat in the
order the rules pay them. A linked table does not: the central meter awards each hit in the order
it receives the claims, from the meter as it stands then, other tables' contributions included,
and tells the table that amount. A ``meter`` event with a ``seat`` carries it: the meter when that
seat's wager ``name`` is paid. The settlement pays that seat from it; seats without one are paid
from the meter as the table walks it. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from .engine import IllegalEvent
from .events import Event
from .money import Cents, format_money

MeterTurns = Mapping[tuple[str, int], Cents]
"""(meter name, seat) -> the meter as it stands when that seat is paid."""

NO_TURNS: MeterTurns = MappingProxyType({})


def take_turn(turns: MeterTurns, event: Event, seats: Iterable[int]) -> MeterTurns:
    """``turns`` with the seat's meter of ``event`` (a ``meter`` event with a ``seat``).

    ``seats``: the seats with a wager ``event.name`` placed; a meter for any other seat is
    refused (nothing would be paid from it), and so is a second one for the same seat.
    """
    seat, name, amount = event.seat, event.name, event.amount
    assert seat is not None and name is not None and amount is not None
    placed = sorted(set(seats))
    if seat not in placed:
        where = ", ".join(map(str, placed)) or "none"
        raise IllegalEvent(
            f"seat {seat}: no {name} wager placed, so no meter is paid to it (seats with one: {where})"
        )
    if (name, seat) in turns:
        raise IllegalEvent(
            f"seat {seat}: the {name} meter when it is paid is already given "
            f"({format_money(turns[name, seat])}; § 639a.12(d)(4): one amount, when its turn comes)"
        )
    return MappingProxyType({**turns, (name, seat): amount})


def when_paid(turns: MeterTurns, name: str, seat: int, running: Cents) -> Cents:
    """The meter when ``seat``'s wager ``name`` is paid: the seat's own meter if one was given,
    else ``running``, the meter as the table walked it (§ 639a.12(d)(4))."""
    return turns.get((name, seat), running)
