"""The lock-out's edge rule: what a progressive wagering device counts as at "no more bets".

§ 639a.2(c)(2) (Caribbean Stud; § 647a.2 and § 659a.2 word it the same): "a mechanism, such as a
lock-out button, that prevents the recognition of any Progressive Payout Wager that a player
attempts to place after the dealer has announced 'no more bets'"; § 633a.2(c), (d)(2)
(Blackjack): one "that prevents the placement of any ... Progressive Wagers that a player attempts
to place after the dealer has begun dealing the cards". § 639a.8(b): the dealer then verifies
"that the number of value chips wagered equals the number of Progressive Payout Wagers accepted by
the progressive table game system".

The rule (docs/gpio.md, "The lock-out's edge"): what counts is each device's debounced state at
the lock-out's edge, ``T`` (the ticks of the button's first edge, or of the daemon's
:meth:`~hw.gpio.ProgressiveTableGameSystem.lock`), as the debouncer (:mod:`hw.debounce`) sees a
contact:

- a *movement* of a contact (a chip put down or taken off, its chatter included) begins at an
  edge with no edge in the debounce window before it, and lasts one window: the level the contact
  is at when that window ends is where the movement settled;
- a device with no movement in progress at ``T`` counts as the level it was at;
- a device whose movement began before ``T`` and is still in its window counts as the level that
  movement settles at (a chip put down before the press counts however it chatters across the
  press; one taken off before it does not; a chip jostled before it stays counted);
- a movement that begins at ``T`` or after it is not recognized: a chip put down then never counts
  (it is refused, :class:`~hw.gpio.WagerRefused`, once a movement), one taken off then never goes
  missing;
- an edge at the same tick as ``T`` is after it: the lock-out wins a tie.

The count is final at once when no device is moving at ``T``, else when the last movement's
window ends: at most one debounce window after the press. The window must be longer than the
sensor's chatter (20 ms by default), as for every debounced input.

Pure: ticks in, levels out, compared only through the pin factory's ``ticks_diff``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Final

from .debounce import TicksDiff, seconds_between

KEPT_EDGES: Final = 64
"""Raw edges a contact's history keeps (the oldest one dropped leaves its level and ticks as the
base)."""


@dataclass(frozen=True, slots=True)
class AtEdge:
    """A device at the lock-out's edge: the level it was at just before it (``level``: a chip on
    it), and the ticks of the beginning of the movement in progress then (``moving_since``;
    ``None``: still, so ``level`` is its count)."""

    level: bool
    moving_since: float | None


class ContactHistory:
    """The recent raw edges of one contact, in the order they came (not thread-safe: the loop's)."""

    __slots__ = ("_base_level", "_base_ticks", "_edges", "_ticks_diff", "window")

    def __init__(self, window: float, level: bool, ticks_diff: TicksDiff = seconds_between) -> None:
        if window < 0:
            raise ValueError(f"a debounce window cannot be negative ({window} s)")
        self.window: Final = window
        self._ticks_diff = ticks_diff
        self._edges: deque[tuple[float, bool]] = deque(maxlen=KEPT_EDGES)
        self._base_level = level
        self._base_ticks: float | None = None

    def edge(self, ticks: float, level: bool) -> bool:
        """Take one raw edge; ``True`` if it begins a movement (no edge in the window before it)."""
        last = self._edges[-1][0] if self._edges else self._base_ticks
        begins = last is None or self._ticks_diff(ticks, last) >= self.window
        if len(self._edges) == self._edges.maxlen:
            self._base_ticks, self._base_level = self._edges[0]
        self._edges.append((ticks, level))
        return begins

    @property
    def level(self) -> bool:
        """The contact's raw level now (its last edge's)."""
        return self._edges[-1][1] if self._edges else self._base_level

    def at(self, lock_ticks: float) -> AtEdge:
        """The device at the lock-out's edge ``lock_ticks`` (edges at or after it are after it)."""
        level, last = self._base_level, self._base_ticks
        begin = last
        for ticks, edge_level in self._edges:
            if self._ticks_diff(ticks, lock_ticks) >= 0:
                break
            if last is None or self._ticks_diff(ticks, last) >= self.window:
                begin = ticks
            level, last = edge_level, ticks
        if begin is not None and self._ticks_diff(lock_ticks, begin) < self.window:
            return AtEdge(level, begin)
        return AtEdge(level, None)

    def settled(self, begin: float, now_ticks: float) -> bool:
        """Whether the movement begun at ``begin`` is over (its window ended) at ``now_ticks``."""
        return self._ticks_diff(now_ticks, begin) >= self.window

    def settles_in(self, begin: float, now_ticks: float) -> float:
        """Seconds from ``now_ticks`` until the window of the movement begun at ``begin`` ends."""
        return max(0.0, self.window - self._ticks_diff(now_ticks, begin))

    def settled_level(self, begin: float) -> bool:
        """Where the movement begun at ``begin`` settled: the level of its last edge in the window."""
        level = self._base_level
        for ticks, edge_level in self._edges:
            if self._ticks_diff(ticks, begin) >= self.window:
                break
            level = edge_level
        return level

    def begun_from(self, lock_ticks: float, past: float | None = None) -> list[bool]:
        """The levels toward which the movements kept went that began at or after ``lock_ticks``
        (and, given ``past``, after the window of the movement begun at ``past``): ``True`` for a
        chip put down, ``False`` for one taken off."""
        began: list[bool] = []
        last = self._base_ticks
        for ticks, level in self._edges:
            begins = last is None or self._ticks_diff(ticks, last) >= self.window
            last = ticks
            if not begins or self._ticks_diff(ticks, lock_ticks) < 0:
                continue
            if past is not None and self._ticks_diff(ticks, past) < self.window:
                continue
            began.append(level)
        return began
