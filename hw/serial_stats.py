"""A serial device's counters (frames, broken frames, noise, reconnects) and its rate-limited warnings.

Nothing a device sends can flood the log: a warning of one kind is logged at most once a second,
with the number left unlogged.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Final

_LOGGER: Final = logging.getLogger(__name__)


@dataclass(slots=True)
class SerialStats:
    """Counters since the driver started (``tablectl status``)."""

    frames_in: int = 0
    frames_out: int = 0
    broken: Counter[str] = field(default_factory=Counter)
    noise_bytes: int = 0
    bytes_in: int = 0
    sequence_gaps: int = 0
    connects: int = 0
    disconnects: int = 0
    open_failures: int = 0
    silences: int = 0
    sniff_dropped: int = 0

    @property
    def broken_total(self) -> int:
        return sum(self.broken.values())

    def as_dict(self) -> dict[str, object]:
        return {
            "frames_in": self.frames_in,
            "frames_out": self.frames_out,
            "broken": dict(sorted(self.broken.items())),
            "noise_bytes": self.noise_bytes,
            "bytes_in": self.bytes_in,
            "sequence_gaps": self.sequence_gaps,
            "connects": self.connects,
            "disconnects": self.disconnects,
            "open_failures": self.open_failures,
            "silences": self.silences,
            "sniff_dropped": self.sniff_dropped,
        }


class RateLimitedWarnings:
    """At most one warning a second per key; the next one says how many were left out."""

    def __init__(self, interval: float = 1.0) -> None:
        self._interval = interval
        self._last: dict[str, float] = {}
        self._left_out: Counter[str] = Counter()

    def warn(self, key: str, message: str) -> None:
        now = time.monotonic()
        last = self._last.get(key)
        if last is not None and now - last < self._interval:
            self._left_out[key] += 1
            return
        self._last[key] = now
        left_out = self._left_out.pop(key, 0)
        if left_out:
            message += f" ({left_out} more like it not logged)"
        _LOGGER.warning("%s", message)
