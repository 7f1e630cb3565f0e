"""The table's lamps as a pure function of the journaled state: the progressive-won lamps, the
call-floorperson light, and whether the wager lamps say "progressive unavailable".

A seat's won lamp blinks from the settlement of a winning Progressive Payout Wager, for the dealer
to verify (§ 639a.11(c)(5)(ii)), until the next round's "no more bets" or, if the payout waits for
a floorperson, until the floorperson verifies it; the floorperson light is on while any payout
waits (§ 639a.11(c)(5)(iii), § 633a.7(o)(2)(ii)(B)). Every seat's wager lamp blinks slowly
while the progressive link is journaled down (N.J.A.C. 13:69E-1.39B: a table that has lost its
progressive controller is unplayable for the progressive, and returns to its prior state when it
is back): :func:`progressive_unavailable`. Nothing here touches a pin: the table service shows
what these say, after each record that can change them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from hw.gpio_devices import LampState

from ..journal.rounds import settlement_lines
from ..journal.state import TableState
from .game_hooks import PROGRESSIVE


@dataclass(frozen=True)
class PayoutLamps:
    """What the payout lamps show: each seat's won lamp, and the call-floorperson light."""

    won: Mapping[int, LampState]
    floorperson_light: LampState


def payout_lamps(state: TableState, seats: Iterable[int]) -> PayoutLamps:
    """The won lamp of each of ``seats`` and the floorperson light, from ``state`` alone."""
    pending = state.pending_payouts()
    won = {p.seat for p in pending if p.wager == PROGRESSIVE}
    current = state.current
    dealing = current is not None and current.no_more_bets
    if state.recent and not dealing:
        # § 639a.11(c)(5)(ii): the last round's winners blink until this round's "no more bets".
        won |= {
            seat
            for seat, wager, line in settlement_lines(state.recent[-1])
            if wager == PROGRESSIVE and line.get("result") == "win"
        }
    return PayoutLamps(
        won={seat: LampState.BLINKING if seat in won else LampState.OFF for seat in seats},
        floorperson_light=LampState.STEADY if pending else LampState.OFF,
    )


def progressive_unavailable(state: TableState) -> str | None:
    """Why the sensors recognize no progressive wager and every wager lamp blinks slowly, or
    ``None``: the progressive link journaled down (no word from the meter, its ``offline``, a
    refused declaration), from its ``device_offline`` until its ``device_online``. A table
    without a link never has it."""
    return state.progressive_link_down
