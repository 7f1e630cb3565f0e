"""The journal's hash chain: every record's hash covers the previous hash and its own bytes.

Critical memory must prove it was not altered (GLI-11 style, docs/journal.md "Integrity"):
record ``n``'s ``hash`` is HMAC-SHA256 under the table's chain key (:mod:`.chain_key`, never in
the journal) over record ``n-1``'s hash and record ``n``'s canonical
bytes (its columns as stored, as SQLite's ``json_array``, and the outbox messages committed with
it, the same way). The first record chains to the journal's ``chain_genesis`` (32 zero bytes for a first
journal; the last hash of the archived journal after a RAM clear). Changing, removing or
reordering any record, or any outbox message, breaks every hash from there on: :func:`walk`
names the first bad ``seq``; and without the key nobody can make the hashes again.

A journal made before the chain was keyed holds plain SHA-256 hashes up to its migration: its
``meta.chain_keyed_from`` is the first keyed seq (the ``chain_keyed`` fact the migration
journaled); a journal created keyed has ``chain_keyed_from`` 1.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from .chain_key import ChainKey
from .errors import UNREADABLE, JournalCorrupt

GENESIS: Final = "0" * 64
"""The ``chain_genesis`` of a first journal: what its seq 1 chains to."""

OutboxRow = tuple[int, str, str, str]
"""An outbox message as the chain covers it: seq, message id, kind, payload text."""

# The canonical bytes are SQLite's own ``json_array`` of the columns, computed in C both when the
# writer chains a record and when the walk checks it (the same function over the same values: a
# byte changed on disk, or a column's type, changes them). A record's bytes, then its messages',
# each a JSON array, so their concatenation reads one way only.
_EVENT_JSON: Final = "json_array(seq, event_id, wall_ns, mono_ns, source, actor, round_id, kind, body)"
_OUTBOX_JSON: Final = "json_array(seq, message_id, kind, payload)"
_EVENT_ROWS: Final = f"SELECT seq, hash, {_EVENT_JSON} FROM events ORDER BY seq"
_OUTBOX_ROWS: Final = f"SELECT event_seq, seq, {_OUTBOX_JSON} FROM outbox ORDER BY seq"
_EVENT_BYTES: Final = "SELECT json_array(?, ?, ?, ?, ?, ?, ?, ?, ?)"
_OUTBOX_BYTES: Final = "SELECT json_array(?, ?, ?, ?)"


def link(previous: str, event: str, messages: Sequence[str] = ()) -> str:
    """SHA-256 (hex) over ``previous`` (hex) and the canonical text of a record and its messages."""
    digest = hashlib.sha256(bytes.fromhex(previous))
    digest.update(event.encode("utf-8"))
    for message in messages:
        digest.update(message.encode("utf-8"))
    return digest.hexdigest()


def keyed_link(key: ChainKey, previous: str, event: str, messages: Sequence[str] = ()) -> str:
    """HMAC-SHA256 (hex) under ``key`` over ``previous`` (hex) and the canonical text of a record
    and its messages: :func:`link`, keyed."""
    digest = key.hasher()
    digest.update(bytes.fromhex(previous))
    digest.update(event.encode("utf-8"))
    for message in messages:
        digest.update(message.encode("utf-8"))
    return digest.digest().hex()


def chain_hash(
    conn: sqlite3.Connection,
    key: ChainKey,
    previous: str,
    row: Sequence[Any],
    outbox: Sequence[OutboxRow] = (),
) -> str:
    """The keyed hash of the record ``row`` (its nine columns) with its ``outbox``, chained to
    ``previous``."""
    event = conn.execute(_EVENT_BYTES, tuple(row[:9])).fetchone()[0]
    messages = [conn.execute(_OUTBOX_BYTES, tuple(m)).fetchone()[0] for m in outbox]
    return keyed_link(key, previous, str(event), [str(m) for m in messages])


@dataclass(frozen=True)
class ChainHead:
    """Where a chain ends: the last seq (0 for none yet) and its hash (the genesis for none)."""

    seq: int
    hash: str


def walk(
    conn: sqlite3.Connection, path: Path, genesis: str, key: ChainKey | None, keyed_from: int = 1
) -> ChainHead:
    """Check every record's hash from seq 1, gapless, with every outbox message; the head.

    Records from ``keyed_from`` on are checked under ``key`` (HMAC-SHA256), those before it as
    plain SHA-256 (a journal migrated to the keyed chain); ``key`` ``None`` only for a journal not
    keyed at all (``keyed_from`` past its end: one about to be migrated). Streams the rows (a
    year's journal does not fit in memory). :class:`JournalCorrupt` names the first bad seq, and a
    damaged page is one too (SQLite's error, never a traceback).
    """
    expected, outbox_next = 1, 1
    try:
        previous = bytes.fromhex(genesis)
        messages = conn.execute(_OUTBOX_ROWS)
        pending = messages.fetchone()
        sha256 = hashlib.sha256
        for seq, stored, event in conn.execute(_EVENT_ROWS):
            if seq != expected:
                raise JournalCorrupt(
                    f"{path}: seq {expected} is missing (the next record is seq {seq}): the journal has a gap"
                )
            if seq >= keyed_from:
                if key is None:
                    raise JournalCorrupt(f"{path}: seq {seq} is keyed, and no chain key was given")
                digest: Any = key.hasher()
                digest.update(previous)
            else:
                digest = sha256(previous)
            digest.update(event.encode("utf-8"))
            while pending is not None and pending[0] == seq:
                if pending[1] != outbox_next:
                    raise JournalCorrupt(f"{path}: outbox message seq {outbox_next} is missing")
                digest.update(pending[2].encode("utf-8"))
                outbox_next += 1
                pending = messages.fetchone()
            if pending is not None and pending[0] < seq:
                raise JournalCorrupt(
                    f"{path}: outbox message seq {pending[1]} names record seq {pending[0]}, "
                    "which is not in order: the outbox was altered"
                )
            previous = digest.digest()
            if stored != previous.hex():
                raise JournalCorrupt(
                    f"{path}: seq {seq}: the record's hash does not match its bytes and the chain "
                    "before it: the journal was altered or damaged from this record on"
                )
            expected = seq + 1
        if pending is not None:
            raise JournalCorrupt(
                f"{path}: outbox message seq {pending[1]} names record seq {pending[0]}, "
                "which is not in the journal"
            )
    except UNREADABLE as exc:
        raise JournalCorrupt(
            f"{path}: the journal cannot be read past seq {expected - 1}: {exc} (a damaged file)"
        ) from None
    except (TypeError, ValueError, AttributeError, UnicodeError) as exc:
        # A column of the wrong type where bytes were flipped, a genesis that is not hex.
        raise JournalCorrupt(
            f"{path}: seq {expected}: a record with garbage in its columns ({exc})"
        ) from None
    return ChainHead(expected - 1, previous.hex())


def hash_at(conn: sqlite3.Connection, path: Path, seq: int) -> str | None:
    """The stored hash of record ``seq`` (``None`` if there is none)."""
    try:
        row = conn.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
    except UNREADABLE as exc:
        raise JournalCorrupt(f"{path}: cannot read seq {seq}: {exc}") from None
    return None if row is None else str(row[0])
