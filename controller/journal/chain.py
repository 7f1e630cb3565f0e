"""The journal's hash chain: every record's hash covers the previous hash and its own bytes.

Critical memory must prove it was not altered (GLI-11 style, docs/journal.md "Integrity"):
record ``n``'s ``hash`` is SHA-256 over record ``n-1``'s hash and record ``n``'s canonical
bytes (:func:`canonical_bytes`: its columns as stored, and the outbox messages committed with
it). The first record chains to the journal's ``chain_genesis`` (32 zero bytes for a first
journal; the last hash of the archived journal after a RAM clear). Changing, removing or
reordering any record, or any outbox message, breaks every hash from there on: :func:`walk`
names the first bad ``seq``.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from .errors import JournalCorrupt

GENESIS: Final = "0" * 64
"""The ``chain_genesis`` of a first journal: what its seq 1 chains to."""

OutboxRow = tuple[int, str, str, str]
"""An outbox message as the chain covers it: seq, message id, kind, payload text."""

_EVENT_ROWS: Final = (
    "SELECT seq, event_id, wall_ns, mono_ns, source, actor, round_id, kind, body, hash "
    "FROM events ORDER BY seq"
)
_OUTBOX_ROWS: Final = "SELECT seq, message_id, event_seq, kind, payload FROM outbox ORDER BY seq"


def canonical_bytes(row: Sequence[Any], outbox: Sequence[OutboxRow]) -> bytes:
    """A record's bytes as the chain covers them: the nine columns (the body as stored, not
    re-encoded) and its outbox messages, as compact JSON."""
    return json.dumps(
        [list(row[:9]), [list(m) for m in outbox]], separators=(",", ":"), ensure_ascii=False
    ).encode("utf-8")


def link(previous: str, row: Sequence[Any], outbox: Sequence[OutboxRow] = ()) -> str:
    """The hash of the record ``row`` (with its ``outbox``) chained to ``previous`` (hex)."""
    digest = hashlib.sha256(bytes.fromhex(previous))
    digest.update(canonical_bytes(row, outbox))
    return digest.hexdigest()


@dataclass(frozen=True)
class ChainHead:
    """Where a chain ends: the last seq (0 for none yet) and its hash (the genesis for none)."""

    seq: int
    hash: str


def walk(conn: sqlite3.Connection, path: Path, genesis: str) -> ChainHead:
    """Check every record's hash from seq 1, gapless, with every outbox message; the head.

    Streams the rows (a year's journal does not fit in memory). :class:`JournalCorrupt` names
    the first bad seq, and a damaged page is one too (SQLite's error, never a traceback).
    """
    previous, expected = genesis, 1
    outbox_next = 1
    try:
        messages = _outbox_rows(conn)
        pending = next(messages, None)
        for row in conn.execute(_EVENT_ROWS):
            seq = row[0]
            if seq != expected:
                raise JournalCorrupt(
                    f"{path}: seq {expected} is missing (the next record is seq {seq}): the journal has a gap"
                )
            own: list[OutboxRow] = []
            while pending is not None and pending[0] == seq:
                _, (o_seq, message_id, kind, payload) = pending
                if o_seq != outbox_next:
                    raise JournalCorrupt(f"{path}: outbox message seq {outbox_next} is missing")
                own.append((o_seq, message_id, kind, payload))
                outbox_next += 1
                pending = next(messages, None)
            if pending is not None and pending[0] < seq:
                raise JournalCorrupt(
                    f"{path}: outbox message seq {pending[1][0]} names record seq {pending[0]}, "
                    "which is not in order: the outbox was altered"
                )
            stored = row[9]
            if not isinstance(stored, str) or stored != link(previous, row, own):
                raise JournalCorrupt(
                    f"{path}: seq {seq}: the record's hash does not match its bytes and the chain "
                    "before it: the journal was altered or damaged from this record on"
                )
            previous, expected = stored, seq + 1
        if pending is not None:
            raise JournalCorrupt(
                f"{path}: outbox message seq {pending[1][0]} names record seq {pending[0]}, "
                "which is not in the journal"
            )
    except sqlite3.DatabaseError as exc:
        raise JournalCorrupt(
            f"{path}: the journal cannot be read past seq {expected - 1}: {exc} (a damaged file)"
        ) from None
    except (TypeError, ValueError) as exc:  # a column of the wrong type where bytes were flipped
        raise JournalCorrupt(
            f"{path}: seq {expected}: a record with garbage in its columns ({exc})"
        ) from None
    return ChainHead(expected - 1, previous)


def _outbox_rows(conn: sqlite3.Connection) -> Iterator[tuple[int, OutboxRow]]:
    # A cursor of its own, read alongside the records' (both in the caller's snapshot).
    for seq, message_id, event_seq, kind, payload in conn.execute(_OUTBOX_ROWS):
        yield event_seq, (seq, message_id, kind, payload)


def hash_at(conn: sqlite3.Connection, path: Path, seq: int) -> str | None:
    """The stored hash of record ``seq`` (``None`` if there is none)."""
    try:
        row = conn.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
    except sqlite3.DatabaseError as exc:
        raise JournalCorrupt(f"{path}: cannot read seq {seq}: {exc}") from None
    return None if row is None else str(row[0])
