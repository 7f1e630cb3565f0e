"""The meter's log of what it ignores or refuses: one bounded line each, a few a minute per table.

A hostile or broken table can send thousands of bad messages a second; each is counted
(``progressive-meter status`` and the service's ``ignored`` counter), but the log gets one line
per message only up to :data:`LINES_PER_MINUTE` per table (the rest counted, and said in the
next line), and each line names the reason, the table, the seq and a digest of the message,
never its body (docs/meter.md, "Logs").
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from wire.errors import clip

LINES_PER_MINUTE: Final = 10
MAX_DETAIL: Final = 240
UNKNOWN: Final = "(not a table of this link)"


def digest(data: bytes | str) -> str:
    """The first 16 hex digits of the SHA-256 of a message as it came."""
    raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
    return hashlib.sha256(raw).hexdigest()[:16]


@dataclass
class _Window:
    start: float
    lines: int = 0
    unlogged: int = 0


class Notices:
    """Counts by reason; logs a bounded line, at most :data:`LINES_PER_MINUTE` a minute per source."""

    def __init__(self, log: logging.Logger, clock: Callable[[], float] = time.monotonic) -> None:
        self.log = log
        self.counts: Counter[str] = Counter()
        self._clock = clock
        self._windows: dict[str, _Window] = {}

    def note(
        self, why: str, source: str, seq: int | None, detail: str, data: bytes | str | None = None
    ) -> None:
        """Count one message ignored or refused for ``why``; log it if the table's minute allows.

        ``source`` is a table id of the configuration or :data:`UNKNOWN` (so the windows are
        bounded by the configuration, whatever ids come).
        """
        self.counts[why] += 1
        now = self._clock()
        w = self._windows.get(source)
        if w is None or now - w.start >= 60:
            w = self._windows[source] = _Window(now, unlogged=w.unlogged if w is not None else 0)
        if w.lines >= LINES_PER_MINUTE:
            w.unlogged += 1
            return
        w.lines += 1
        where = f"table {source}" + (f" seq {seq}" if seq is not None else "")
        size = "" if data is None else f" ({len(data)} bytes, sha256 {digest(data)})"
        more = f"; {w.unlogged} more from it not logged" if w.unlogged else ""
        w.unlogged = 0
        self.log.warning("%s: %s%s: %s%s", why, where, size, clip(detail, MAX_DETAIL), more)
