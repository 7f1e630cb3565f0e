""":class:`JournalReader`: read-only access to a journal while the daemon writes it (WAL)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from .chain import hash_at
from .chain_key import ChainKey
from .errors import JournalCorrupt, JournalError
from .integrity import check_integrity
from .keying import TableKey, resolve_key
from .link_count import LinkCount, Witnessed, link_count, witnessed
from .outbox import OutboxEntry
from .queries import (
    last_seq,
    outbox_entries,
    query,
    read_snapshot,
    recent_rounds,
    recover,
    replay_all,
    select_records,
)
from .recall import RecalledRound, recall_round
from .records import JournalRecord
from .rounds import RoundSummary
from .schema import connect, schema_check
from .state import RECENT_ROUNDS, TableState

#: How many of the table's last ``paid`` and ``void`` messages are asked again at a start when the
#: meter's acknowledgement of them is not journaled (:meth:`JournalReader.closes_unanswered`).
RECENT_CLOSES = 32

# --- the reader --------------------------------------------------------------------------------


class JournalReader:
    """Read-only access to a journal, while the daemon writes it (WAL): ``tablectl``, tests.

    Blocking: call it from a thread (the daemon's :class:`Journal` does).
    """

    def __init__(self, path: str | os.PathLike[str], table_id: str | None = None) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise JournalError(f"{self.path}: no journal there")
        self._conn = connect(self.path, read_only=True)
        self._lock = threading.Lock()
        self._count: LinkCount | None = None
        try:
            self.table_id = schema_check(self._conn, self.path, table_id, create=False)
        except BaseException:
            self._conn.close()
            raise

    @property
    def link_count(self) -> LinkCount:
        """How the progressive link counts this journal (on from a RAM clear's archive:
        :mod:`.link_count`); read from its first record once there is one."""
        with self._lock:
            return self._link_count()

    def _link_count(self) -> LinkCount:
        if self._count is None:
            count = link_count(self._conn, self.path)
            if last_seq(self._conn, self.path) == 0:
                return count  # a journal being created: its first record is not there yet
            self._count = count
        return self._count

    def witnessed(self, link_seq: int) -> Witnessed:
        """The record at ``link_seq`` on the link's count (the meter's witness names it), in this
        journal or the archive a RAM clear left beside it."""
        with self._lock:
            return witnessed(self._conn, self.path, self._link_count(), link_seq)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> JournalReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def records(self, after_seq: int = 0, limit: int | None = None) -> list[JournalRecord]:
        with self._lock:
            return select_records(
                self._conn,
                self.path,
                "WHERE seq > ? ORDER BY seq LIMIT ?",
                (after_seq, -1 if limit is None else limit),
            )

    def last_seq(self) -> int:
        with self._lock:
            return last_seq(self._conn, self.path)

    def recover(self) -> TableState:
        """The state as the daemon recovers it on open (the last rounds and the latest facts)."""
        with self._lock:
            return recover(self._conn, self.path, self.table_id)

    def replay_all(self) -> TableState:
        """Every record folded from seq 1 (the check that recovery is the full replay)."""
        with self._lock:
            return replay_all(self._conn, self.path, self.table_id)

    def verify(self, key: ChainKey | None = None) -> TableState:
        """A full check: SQLite's integrity check, the keyed hash chain from seq 1 and its head
        marker under the table's chain key (``key``, else its key file: :mod:`.keying`), no gap,
        every record folds, recovery agrees. :class:`JournalCorrupt` names the first bad seq; a
        keyed journal without its key is a :class:`JournalError`. Changes no file."""
        with self._lock:
            table_key = self._table_key(key)
            # A journal made before the chain was keyed (and no key yet) is checked as it was made.
            check_integrity(
                self._conn,
                self.path,
                self.table_id,
                table_key.key,
                unkeyed_marker=table_key.keyed_from is None,
            )
            problems = [r[0] for r in query(self._conn, self.path, "PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise JournalCorrupt(f"{self.path}: SQLite integrity check: {'; '.join(problems[:5])}")
            # One snapshot for both: a record appended meanwhile is in neither.
            with read_snapshot(self._conn, self.path):
                full = replay_all(self._conn, self.path, self.table_id)
                recovered = recover(self._conn, self.path, self.table_id)
        if full != recovered:
            raise JournalCorrupt(f"{self.path}: recovery does not give the state of a full replay")
        return full

    def table_key(self, key: ChainKey | None = None) -> TableKey:
        """The key :meth:`verify` checks with (``key``, else the table's key file) and where the
        chain is keyed from (``keyed_from`` ``None``: a journal made before the chain was keyed)."""
        with self._lock:
            return self._table_key(key)

    def _table_key(self, key: ChainKey | None) -> TableKey:
        return resolve_key(self._conn, self.path, self.table_id, given=key, writing=False, new=False)

    def hash_at(self, seq: int) -> str | None:
        """The stored hash of record ``seq`` (``None``: the journal does not reach it)."""
        with self._lock:
            return hash_at(self._conn, self.path, seq)

    def facts_since_start(self, fact: str) -> list[JournalRecord]:
        """The ``hardware_fact`` records of ``fact`` since the daemon's last ``started``."""
        with self._lock:
            return select_records(
                self._conn,
                self.path,
                "WHERE kind = 'hardware_fact' AND json_extract(body, '$.fact') = ? AND seq > "
                "(SELECT coalesce(max(seq), 0) FROM events WHERE kind = 'started') ORDER BY seq",
                (fact,),
            )

    def closes_unanswered(
        self, fact: str, kinds: tuple[str, str] = ("paid", "void"), last: int = RECENT_CLOSES
    ) -> tuple[list[OutboxEntry], set[int]]:
        """The table's last ``last`` messages of ``kinds`` (the ``paid`` or ``void`` of a hit)
        whose answer, the ``hardware_fact`` ``fact`` with that ``hit_seq`` in its detail, is not
        journaled, oldest first; and the hit seqs whose answer is. One range of the journal read:
        from the oldest of those messages on."""
        placeholders = ", ".join("?" for _ in kinds)
        with self._lock:
            closes = outbox_entries(
                self._conn,
                self.path,
                self.table_id,
                f"WHERE o.kind IN ({placeholders}) ORDER BY o.seq DESC LIMIT ?",
                (*kinds, last),
                self._link_count(),
            )
            if not closes:
                return [], set()
            answers = select_records(
                self._conn,
                self.path,
                "WHERE kind = 'hardware_fact' AND json_extract(body, '$.fact') = ? AND seq > "
                "(SELECT coalesce(min(event_seq), 0) FROM (SELECT event_seq FROM outbox "
                f"WHERE kind IN ({placeholders}) ORDER BY seq DESC LIMIT ?)) ORDER BY seq",
                (fact, *kinds, last),
            )
        answered = set()
        for record in answers:
            detail = record.body.get("detail")
            hit_seq = detail.get("hit_seq") if isinstance(detail, dict) else None
            if isinstance(hit_seq, int) and not isinstance(hit_seq, bool):
                answered.add(hit_seq)
        unanswered = [e for e in reversed(closes) if e.payload.get("hit_seq") not in answered]
        return unanswered, answered

    def recent_rounds(self, n: int = RECENT_ROUNDS) -> list[RoundSummary]:
        """The last ``n`` rounds begun, newest first."""
        with self._lock:
            return recent_rounds(self._conn, self.path, n)

    def recall(self, round_id: str) -> RecalledRound:
        with self._lock:
            return recall_round(self._conn, self.path, self.table_id, round_id)

    def export_round(self, round_id: str) -> dict[str, object]:
        return self.recall(round_id).record

    def pending(self, limit: int = 100) -> list[OutboxEntry]:
        """Messages not yet marked sent, oldest first."""
        with self._lock:
            return outbox_entries(
                self._conn,
                self.path,
                self.table_id,
                "WHERE o.sent_wall_ns IS NULL ORDER BY o.seq LIMIT ?",
                (limit,),
                self._link_count(),
            )

    def last_outbox_seq(self) -> int:
        """The seq of the last message committed to the outbox, as the link counts it (``0``:
        none yet; after a RAM clear, the archive's last if this journal has none yet)."""
        with self._lock:
            rows = query(self._conn, self.path, "SELECT coalesce(max(seq), 0) FROM outbox", ())
            return self._link_count().link_outbox_seq(int(rows[0][0]))

    def outbox_of_round(self, round_id: str, kind: str) -> list[OutboxEntry]:
        """The messages of ``kind`` committed with a record of round ``round_id``, in order."""
        with self._lock:
            return outbox_entries(
                self._conn,
                self.path,
                self.table_id,
                "WHERE e.round_id = ? AND o.kind = ? ORDER BY o.seq",
                (round_id, kind),
                self._link_count(),
            )

    def outbox(self, after_seq: int = 0, limit: int | None = None) -> list[OutboxEntry]:
        """Every message after ``after_seq`` (on the link's count), sent or not (at most ``limit``)."""
        with self._lock:
            count = self._link_count()
            return outbox_entries(
                self._conn,
                self.path,
                self.table_id,
                "WHERE o.seq > ? ORDER BY o.seq LIMIT ?",
                (count.local_outbox_seq(after_seq), -1 if limit is None else limit),
                count,
            )
