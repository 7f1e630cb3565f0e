"""Debouncing a contact in our code, from the times of its edges.

A pushbutton or a chip on a wagering device does not switch cleanly: its contact
bounces for a few milliseconds, and each bounce is an edge. The pin factories
disagree on debouncing (``MockPin`` ignores ``bounce``, ``lgpio`` filters in the
kernel, ``RPi.GPIO`` drops edges in C), so we take every edge and decide here.

The rule is *leading edge, then settle*:

- the first edge after a quiet window is taken at once, so the dealer's lock-out
  reaches the loop within microseconds of the edge, not a window later
  (§ 639a.2(c)(2): no wager is recognized after "no more bets");
- edges within ``window`` seconds of the last taken edge are bounce, and ignored;
- when the window ends with the contact at another level than the one taken (a
  tap shorter than the window, a glitch), :meth:`Debouncer.settle` takes that
  level, so the debounced level never stays wrong until the next edge; should the
  settle's timer be late, the next edge after the window takes it first.

A glitch thus reads as a short press then a release: for the lock-out the safe
way round (wagering stops), for a wager sensor a wager sensed then removed.

Times are the pin factory's *ticks*, compared only through its ``ticks_diff``
(ticks are factory-specific: seconds of ``time.monotonic`` for the mock and lgpio
factories, wrapping microseconds for pigpio). The wait before :meth:`settle` is
measured by the caller's timer, so ticks are never compared with another clock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

TicksDiff = Callable[[float, float], float]
"""``ticks_diff(later, earlier)``: seconds between two ticks (a pin factory's ``ticks_diff``)."""


def seconds_between(later: float, earlier: float) -> float:
    """The ``ticks_diff`` of factories whose ticks are seconds (mock, lgpio, native)."""
    return later - earlier


class Debouncer:
    """The debounced level of one contact, from its raw edges (not thread-safe: the caller locks).

    ``level`` is the *active* level (pressed, chip present), already corrected
    for active-low wiring.
    """

    __slots__ = ("_level", "_raw", "_raw_ticks", "_taken_ticks", "_ticks_diff", "ignored", "window")

    def __init__(self, window: float, level: bool, ticks_diff: TicksDiff = seconds_between) -> None:
        if window < 0:
            raise ValueError(f"a debounce window cannot be negative ({window} s)")
        self.window: Final = window
        self._ticks_diff = ticks_diff
        self._level = level
        self._raw = level
        self._raw_ticks: float | None = None
        self._taken_ticks: float | None = None
        #: Edges ignored as bounce (for diagnostics: a worn button bounces more).
        self.ignored = 0

    @property
    def level(self) -> bool:
        """The debounced level."""
        return self._level

    @property
    def taken_ticks(self) -> float | None:
        """The ticks of the edge that brought the debounced level (``None`` before the first)."""
        return self._taken_ticks

    @property
    def raw_level(self) -> bool:
        """The level of the last edge seen, bounce or not."""
        return self._raw

    def edge(self, ticks: float, level: bool) -> tuple[bool, ...]:
        """Take one raw edge; the debounced levels it brings, in order (none, one or two).

        Two when the settle of an earlier window is late (its timer has not run yet, say on a
        loaded machine) and this edge comes after that window: the level the contact was left
        at is taken first, as the settle would have, then this edge. So a press is not lost
        behind a late settle of the release before it. After an ignored edge, ask
        :meth:`settle_in` when to call :meth:`settle`.
        """
        changes: tuple[bool, ...] = ()
        if self._raw != self._level and self._window_over(ticks):
            changes = self._take_raw()
        self._raw = level
        self._raw_ticks = ticks
        if not self._window_over(ticks):
            self.ignored += 1
            return changes
        if level == self._level:
            return changes
        self._level = level
        self._taken_ticks = ticks
        return (*changes, level)

    def _window_over(self, ticks: float) -> bool:
        return self._taken_ticks is None or self._ticks_diff(ticks, self._taken_ticks) >= self.window

    def _take_raw(self) -> tuple[bool, ...]:
        self._level = self._raw
        self._taken_ticks = self._raw_ticks
        return (self._level,)

    def settle_in(self, ticks: float) -> float | None:
        """Seconds from the edge at ``ticks`` until the window ends, if a settle may be due; else ``None``."""
        if self._raw == self._level or self._taken_ticks is None:
            return None
        return max(0.0, self.window - self._ticks_diff(ticks, self._taken_ticks))

    def settle(self) -> bool:
        """At the end of the window: take the contact's level if it differs; ``True`` if it changed.

        The new window runs from the edge that brought that level, so bounce after it is
        still ignored.
        """
        if self._raw == self._level:
            return False
        self._take_raw()
        return True
