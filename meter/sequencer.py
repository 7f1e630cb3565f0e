"""In-order, once-only: each table's messages are applied in ``seq`` order, each once.

A message whose seq the meter has already applied is a duplicate (QoS 1 delivers at least
once, and a table sends again what the meter has not acknowledged): it is acknowledged again,
never applied again. A message ahead of the next expected seq waits in memory for the gap to
fill (the table sends the missing ones again when the meter's ack does not move); at most
:data:`MAX_WAITING` wait per table, the farthest dropped first (they come again), and none more
than :data:`MAX_AHEAD` ahead (a table's own window is a few hundred; such a seq is hostile).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from .ledger import Item

MAX_WAITING: Final = 10_000
MAX_AHEAD: Final = 100_000


@dataclass
class Offered:
    ready: list[Item] = field(default_factory=list)
    """Now applicable, in seq order (this message and the waiting ones after it)."""
    duplicate: bool = False
    gap: bool = False
    """The message is ahead of the next expected seq: it waits."""
    too_far: bool = False
    """The message is more than :data:`MAX_AHEAD` ahead: dropped, nothing of it kept."""


class Sequencer:
    """The next expected seq of each table; the messages waiting for a gap to fill."""

    def __init__(self, applied: Mapping[str, int]) -> None:
        self._next = {table: seq + 1 for table, seq in applied.items()}
        self._waiting: dict[str, dict[int, Item]] = {}

    def applied_seq(self, table: str) -> int:
        return self._next.get(table, 1) - 1

    def waiting(self, table: str) -> int:
        return len(self._waiting.get(table, {}))

    def offer(self, message: Item) -> Offered:
        """Take ``message``; the caller applies ``ready`` durably, in order, before the next offer."""
        expected = self._next.get(message.table, 1)
        if message.seq < expected:
            return Offered(duplicate=True)
        if message.seq > expected + MAX_AHEAD:
            return Offered(too_far=True)
        waiting = self._waiting.setdefault(message.table, {})
        if message.seq > expected:
            waiting.setdefault(message.seq, message)
            if len(waiting) > MAX_WAITING:
                del waiting[max(waiting)]
            return Offered(gap=True)
        ready = [message]
        seq = expected + 1
        while seq in waiting:
            ready.append(waiting.pop(seq))
            seq += 1
        self._next[message.table] = seq
        return Offered(ready)
