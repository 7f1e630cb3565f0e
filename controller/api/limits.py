"""What keeps a flood of requests from locking out the dealer or slowing the table.

- :class:`RateLimiter`: a token bucket per peer (its Unix uid, which the kernel vouches for): a
  peer past its rate is answered ``rate_limited``, cheaply, and nothing reaches the daemon. Every
  peer has one, the dealer's screen too (at its own rate); and a second one for the refusals a
  peer may have journaled one by one (:data:`JOURNALED_REFUSALS_PER_SECOND`, in bursts of
  :data:`JOURNALED_REFUSALS_BURST`): past it the peer's requests wait as if past its rate, so a
  flood of refused requests, the dealer's too, reaches the daemon at that rate at most.
- :class:`RefusalTally`: refusals to peers with no role, ``rate_limited`` and every wrong PIN are
  counted, not journaled one by one under the round lock; :meth:`RefusalTally.flush` logs them
  once an interval and hands the counts per peer to the journal (at most two records a peer an
  interval: the wrong PINs', the rest's); a lockout is journaled at once, once (docs/local-api.md
  "Limits").
"""

from __future__ import annotations

import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from .handler import Peer

MAX_PEERS: Final = 256
"""Peers (uids) a table keeps a bucket or a count for; past it the oldest is forgotten."""

JOURNALED_REFUSALS_PER_SECOND: Final = 1.0
"""Refusals a second per peer journaled one by one (a person's mistakes, each on the trail)."""
JOURNALED_REFUSALS_BURST: Final = 60
"""... in bursts of this many; past them the refusals are counted and the peer waits."""

PIN_CODES: Final = frozenset({"auth_failed", "locked_out"})
"""The wrong PINs' codes: counted in a record of their own (``sign_in``)."""


@dataclass
class _Bucket:
    tokens: float
    stamp: float


class RateLimiter:
    """At most ``rate`` requests a second per key, in bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError(
                f"a rate limit is more than 0 a second with a burst of at least 1, not {rate}/{burst}"
            )
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._buckets: OrderedDict[int | None, _Bucket] = OrderedDict()

    def allow(self, key: int | None) -> float:
        """0 if a request from ``key`` may go on now (and counts it); else the seconds to wait."""
        now = self._clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(float(self.burst), now)
            while len(self._buckets) > MAX_PEERS:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
            bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.stamp) * self.rate)
            bucket.stamp = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.rate

    def wait(self, key: int | None) -> float:
        """The seconds until ``key`` has a token again (0: it has one now); takes none."""
        bucket = self._buckets.get(key)
        if bucket is None:
            return 0.0
        tokens = min(float(self.burst), bucket.tokens + (self._clock() - bucket.stamp) * self.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate


@dataclass
class _PeerCount:
    peer: Peer
    role: str | None
    codes: Counter[str] = field(default_factory=Counter)


@dataclass(frozen=True)
class TallyReport:
    """One interval's refusals: the total by code, and per peer."""

    seconds: float
    total: int
    by_code: dict[str, int]
    wrong_pins: list[tuple[Peer, int]]
    """Per peer, how many sign-ins failed (``auth_failed`` and ``locked_out``)."""
    counted: list[tuple[Peer, str | None, dict[str, int]]] = field(default_factory=list)
    """Per peer (and the role it had), the other refusals counted, by code."""

    def log_line(self) -> str:
        codes = ", ".join(f"{n} {code}" for code, n in sorted(self.by_code.items()))
        return (
            f"local API: {self.total} request(s) refused in the last {self.seconds:.0f} s, "
            f"counted, not journaled one by one: {codes}"
        )


class RefusalTally:
    """Counts refusals between two :meth:`flush` calls, bounded (at most :data:`MAX_PEERS` peers)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._since = clock()
        self._peers: OrderedDict[int | None, _PeerCount] = OrderedDict()
        self.total = 0
        """Every refusal counted since the start (for status and tests)."""

    def count(self, peer: Peer, code: str, role: str | None = None) -> None:
        entry = self._peers.get(peer.uid)
        if entry is None:
            entry = self._peers[peer.uid] = _PeerCount(peer, role)
            while len(self._peers) > MAX_PEERS:
                self._peers.popitem(last=False)
        entry.codes[code] += 1
        self.total += 1

    def flush(self) -> TallyReport | None:
        """The interval's report (``None`` if nothing was refused), and a new interval."""
        now = self._clock()
        seconds, self._since = now - self._since, now
        if not self._peers:
            return None
        by_code: Counter[str] = Counter()
        wrong: list[tuple[Peer, int]] = []
        counted: list[tuple[Peer, str | None, dict[str, int]]] = []
        for entry in self._peers.values():
            by_code.update(entry.codes)
            pins = sum(n for code, n in entry.codes.items() if code in PIN_CODES)
            if pins:
                wrong.append((entry.peer, pins))
            rest = {code: n for code, n in sorted(entry.codes.items()) if code not in PIN_CODES and n}
            if rest:
                counted.append((entry.peer, entry.role, rest))
        self._peers.clear()
        return TallyReport(seconds, sum(by_code.values()), dict(by_code), wrong, counted)
