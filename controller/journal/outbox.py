"""The progressive link's outbox: messages to the central meter, committed with their record.

A message (:class:`Outbound`) is committed in the same transaction as the record that causes it;
the link publishes them (:class:`OutboxEntry`) at least once, each with a per-table sequence
number and a UUID for the meter to drop duplicates (docs/journal.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# --- outbox ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outbound:
    """A message for the central meter, committed with the record that causes it."""

    kind: str
    """What it is (``"contribution"``, ``"hit"``...): the link maps it to its topic."""
    payload: Mapping[str, object]


@dataclass(frozen=True)
class OutboxEntry:
    """A message in the outbox, as the link publishes it."""

    table_id: str
    seq: int
    """Gapless per table: the meter applies messages in this order and drops a seq it has."""
    message_id: str
    """A UUID: the same message, sent again after a crash, carries the same id."""
    event_seq: int
    event_id: str
    round_id: str | None
    kind: str
    payload: Mapping[str, Any]
    sent_wall_ns: int | None = None
    event_hash: str = ""
    """The keyed hash of the record that caused it: sent with it as the meter's witness of the
    journal (docs/progressive-link.md, "The witness"); not part of the envelope the chain covers."""

    def envelope(self) -> dict[str, object]:
        """What goes on the wire (the link adds its topic)."""
        return {
            "table": self.table_id,
            "seq": self.seq,
            "message_id": self.message_id,
            "event_seq": self.event_seq,
            "event_id": self.event_id,
            "round": self.round_id,
            "kind": self.kind,
            "payload": dict(self.payload),
        }
