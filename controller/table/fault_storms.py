"""Fault storms coalesced: a device that faults hundreds of times a second is one fault and a count.

A shoe, shuffler or reader whose firmware repeats ``FLT`` in a loop (a stuck jam sensor, a
flapping line) must not flood the journal, the log or the dealer's screen, nor hold up the cards
behind it (issue 18: "a shuffler's fault storm is not coalesced (card events delayed over a
minute, ~5,000 journal records a second)"). So, per device and kind of fault:

- the first fault is handled at once, as every fault was: the game's irregularity
  (§ 639a.13(e), (f): a jam or stop voids the round or reshuffles), the screen told;
- the repeats within :data:`STORM_SECONDS` of the storm's last report are counted, nothing else
  (O(1) on the loop, nothing queued);
- every :data:`STORM_SECONDS` while it lasts, one :class:`~hw.device_events.FaultsCoalesced`
  carries the count and the first and last time of the repeats (journaled as a
  ``hardware_fact`` ``faults_coalesced``, shown once);
- an interval with no repeat ends the storm: the next fault of that kind is a first again.

The same for a progressive wagering device whose chip is "placed" again and again after the
lock-out (a flapping sensor, one refusal a movement): the first refusal is journaled, the repeats
counted (``"gpio"``, ``wager_refused seat N round R``: a round's first is always journaled) and
journaled once a second as
``wagers_refused_coalesced``.

Bounded: one record a device and kind a second at most, however fast the device faults; at most
:data:`MAX_STORMS` storms followed at once (a device inventing kinds gets its oldest forgotten).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from hw.device_events import DeviceFault, FaultsCoalesced

STORM_SECONDS: Final = 1.0
"""A storm's report interval, and the quiet that ends it."""

MAX_STORMS: Final = 64

StormKey = tuple[str, str]
"""A storm: the device's name and the fault's kind."""


@dataclass(slots=True)
class _Storm:
    count: int = 0
    first_at: float = 0.0
    last_at: float = 0.0
    total: int = 0


class FaultStorms:
    """The storms in progress (the loop's: not thread-safe)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._storms: OrderedDict[StormKey, _Storm] = OrderedDict()
        #: Faults counted into a storm instead of handled one by one, since the start.
        self.coalesced = 0

    def note(self, fault: DeviceFault) -> StormKey | None:
        """Take one fault: its storm's key if it begins one (handle it, and call :meth:`report`
        in :data:`STORM_SECONDS`), ``None`` if it was counted into the storm in progress."""
        return self.note_kind(fault.device, fault.kind)

    def note_kind(self, device: str, kind: str) -> StormKey | None:
        """:meth:`note` for anything a device repeats (``kind``), not only a ``FLT``."""
        key = (device, kind)
        storm = self._storms.get(key)
        if storm is None:
            self._storms[key] = _Storm()
            while len(self._storms) > MAX_STORMS:
                self._storms.popitem(last=False)
            return key
        now = self._clock()
        if storm.count == 0:
            storm.first_at = now
        storm.count += 1
        storm.total += 1
        storm.last_at = now
        self.coalesced += 1
        return None

    def report(self, key: StormKey) -> FaultsCoalesced | None:
        """At the end of an interval: the repeats counted in it (then call again in
        :data:`STORM_SECONDS`), or ``None``: the storm is over (or forgotten)."""
        storm = self._storms.get(key)
        if storm is None:
            return None
        if storm.count == 0:
            del self._storms[key]
            return None
        device, kind = key
        report = FaultsCoalesced(device, kind, storm.count, storm.first_at, storm.last_at)
        storm.count = 0
        return report

    @property
    def in_progress(self) -> int:
        return len(self._storms)
