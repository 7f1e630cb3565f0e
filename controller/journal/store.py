"""The writing connection: one transaction a batch, and the lock file that keeps one writer.

Only one process writes a journal: a lock file beside it (``flock``, released by the kernel
when the process dies, even by ``kill -9``) refuses a second writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TextIO

from .chain import ChainHead, OutboxRow, chain_hash
from .chain_key import ChainKey
from .errors import JournalBusy, JournalWriteError
from .link_count import LinkCount
from .marker import HeadMarker, MarkerWriter
from .outbox import OutboxEntry
from .records import JournalRecord
from .schema import INSERT_EVENT, INSERT_OUTBOX
from .state import TableState

#: The ids (of a JSON array) that the outbox holds.
_KNOWN_IDS: Final = "SELECT message_id FROM outbox WHERE message_id IN (SELECT value FROM json_each(?))"
#: Those of them not yet marked, marked (the schema's trigger refuses any other change).
_MARK_SENT: Final = (
    "UPDATE outbox SET sent_wall_ns = ? "
    "WHERE sent_wall_ns IS NULL AND message_id IN (SELECT value FROM json_each(?))"
)

log = logging.getLogger(__name__)


def lock_writer(path: Path) -> TextIO:
    lock_path = path.with_name(path.name + ".lock")
    handle = open(lock_path, "a+")  # noqa: SIM115 - held open for the journal's life
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "unknown"
        handle.close()
        raise JournalBusy(
            f"{path}: the journal is open for writing by another process (pid {holder})"
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


# --- the writer --------------------------------------------------------------------------------


@dataclass(eq=False)
class PendingAppend:
    record: JournalRecord
    body: str
    outbox: tuple[tuple[str, str, str, Mapping[str, Any]], ...]  # message id, kind, payload text, payload
    state_after: TableState
    epoch: int
    future: asyncio.Future[tuple[OutboxEntry, ...]]


Outcome = tuple[PendingAppend, "tuple[OutboxEntry, ...] | BaseException"]


class Store:
    """The writing connection. Used by one thread at a time (the writer thread)."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        path: Path,
        table_id: str,
        head: ChainHead,
        key: ChainKey,
        count: LinkCount | None = None,
    ) -> None:
        self.conn = conn
        self.count = count or LinkCount()
        """How the link counts this journal's outbox (on from a RAM clear's archive: :mod:`.link_count`)."""
        self.key = key
        """The table's chain key: every record's hash and the head marker are keyed with it."""
        self.path = path
        self.table_id = table_id
        self.outbox_seq = self._max_outbox()
        self.failed_epoch = -1
        self.head = head
        """The chain's last committed record (seq and hash): what the next record chains to."""
        self._marked = head
        self._marker = MarkerWriter(path, key)

    def mark_head(self) -> None:
        """Write the head marker if a commit moved the head (after the commit: the marker may lag
        the journal, never lead it). A failure is logged: the old marker, behind the journal, is
        still true."""
        head = self.head
        if head == self._marked:
            return
        try:
            self._marker.write(HeadMarker(self.table_id, head, clean=False))
        except OSError as exc:
            log.error("journal: the head marker was not written (seq %d): %s", head.seq, exc)
            return
        self._marked = head

    def _max_outbox(self) -> int:
        return int(self.conn.execute("SELECT coalesce(max(seq), 0) FROM outbox").fetchone()[0])

    def write(self, items: Sequence[PendingAppend]) -> list[Outcome]:
        """Commit ``items`` in one transaction; an item that fails fails those after it too
        (they were checked against a state that included it)."""
        outcomes: list[Outcome] = []
        live: list[PendingAppend] = []
        for item in items:
            if item.epoch <= self.failed_epoch:
                outcomes.append((item, _earlier_failed(item)))
            else:
                live.append(item)
        if not live:
            return outcomes
        conn = self.conn
        done: list[Outcome] = []
        failure: tuple[int, BaseException] | None = None
        next_out = self.outbox_seq
        chained = self.head
        try:
            conn.execute("BEGIN IMMEDIATE")
            for i, item in enumerate(live):
                r = item.record
                before = next_out
                conn.execute("SAVEPOINT record")
                try:
                    row = (
                        r.seq,
                        r.event_id,
                        r.wall_ns,
                        r.mono_ns,
                        r.source,
                        r.actor,
                        r.round_id,
                        r.kind,
                        item.body,
                    )
                    messages: list[OutboxRow] = []
                    for message_id, kind, text, _ in item.outbox:
                        messages.append((next_out + 1 + len(messages), message_id, kind, text))
                    # § 639a / GLI-11 critical memory: each record's hash covers the one before
                    # it and its own bytes, its outbox messages included (chain.py).
                    digest = chain_hash(conn, self.key, chained.hash, row, messages)
                    conn.execute(INSERT_EVENT, (*row, digest))
                    entries = []
                    for message_id, kind, text, payload in item.outbox:
                        next_out += 1
                        conn.execute(INSERT_OUTBOX, (next_out, message_id, r.seq, kind, text))
                        entries.append(
                            OutboxEntry(
                                self.table_id,
                                self.count.link_outbox_seq(next_out),
                                message_id,
                                self.count.link_seq(r.seq),
                                r.event_id,
                                r.round_id,
                                kind,
                                payload,
                                event_hash=digest,
                            )
                        )
                    conn.execute("RELEASE record")
                except sqlite3.Error as exc:
                    conn.execute("ROLLBACK TO record")
                    conn.execute("RELEASE record")
                    next_out = before
                    failure = (i, exc)
                    break
                chained = ChainHead(r.seq, digest)
                done.append((item, tuple(entries)))
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            # Nothing of the batch is durable: BEGIN or COMMIT failed (disk full, I/O error).
            with contextlib.suppress(sqlite3.Error):
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            self.failed_epoch = live[-1].epoch
            self.outbox_seq = self._max_outbox()
            first = live[0]
            outcomes.append((first, self._error(first, exc)))
            outcomes.extend((item, _earlier_failed(item)) for item in live[1:])
            return outcomes
        self.outbox_seq = next_out
        self.head = chained
        # Before anyone is told: a record acknowledged is one the marker vouches for, so a lost
        # or torn -wal can never take it silently.
        self.mark_head()
        outcomes.extend(done)
        if failure is not None:
            i, error = failure
            self.failed_epoch = live[i].epoch
            outcomes.append((live[i], self._error(live[i], error)))
            outcomes.extend((item, _earlier_failed(item)) for item in live[i + 1 :])
        return outcomes

    def _error(self, item: PendingAppend, exc: BaseException) -> JournalWriteError:
        return JournalWriteError(
            f"{self.path}: seq {item.record.seq} ({item.record.kind}) was not journaled: {exc}"
        )

    def mark_sent(self, ids: Sequence[str], wall_ns: int) -> int:
        """Mark ``ids`` sent at ``wall_ns`` (those not already), in one transaction; an id not in the
        outbox is a ``ValueError`` and marks nothing. One statement for the whole set: the link
        marks a window of PUBACKs at a time (bench/bench_link.py)."""
        conn = self.conn
        listed = json.dumps(list(ids))
        conn.execute("BEGIN IMMEDIATE")
        try:
            marked = conn.execute(_MARK_SENT, (wall_ns, listed)).rowcount
            if marked < len(set(ids)):
                # Fewer marked than named: some were marked before, or are not in the outbox at
                # all; only then are the ids looked up (a window's PUBACKs mark every one).
                known = {row[0] for row in conn.execute(_KNOWN_IDS, (listed,))}
                missing = next((message_id for message_id in ids if message_id not in known), None)
                if missing is not None:
                    raise ValueError(f"no message {missing!r} in the outbox")
            conn.execute("COMMIT")
            return marked
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            # Fold the WAL back into the database while nobody waits for it.
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.conn.close()
        try:
            # Closed by the daemon: the next start is not an unclean shutdown.
            self._marker.write(HeadMarker(self.table_id, self.head, clean=True))
        except OSError as exc:
            log.error("journal: the head marker was not written at close (seq %d): %s", self.head.seq, exc)
        finally:
            self._marker.close()


def _earlier_failed(item: PendingAppend) -> JournalWriteError:
    return JournalWriteError(
        f"seq {item.record.seq} ({item.record.kind}) was not journaled: an earlier write failed"
    )
