"""The journal: every event at the table, durable before anyone acts on it.

A SQLite file in WAL mode with ``synchronous=FULL``: a record is on the disk (the WAL
fsync'd) before :meth:`Journal.append` returns, so a power cut loses nothing that was
accepted. The table's state is the fold of the records (:mod:`.table_state`); opening the
journal folds them again and recovers the round being dealt exactly where it was.

The same file is the progressive link's **outbox**: a message to the central meter is
committed in the same transaction as the record that causes it (``append(entry,
outbox=[...])``), so a record and its messages are both durable or both absent; the link
publishes :meth:`Journal.pending` messages and :meth:`Journal.mark_sent` them once the
broker has them: at least once, each with a per-table sequence number and a UUID for the
meter to drop duplicates (docs/journal.md).

asyncio: the loop never waits on SQLite. Appends are checked against the state on the
loop (the rules core is pure and fast), then written by one writer thread that owns the
writing connection and commits what has queued up in one transaction (one fsync for a
burst of bet sensors); the loop learns of the commit through ``call_soon_threadsafe``.
Reads go through a second, read-only connection in ``asyncio.to_thread`` (WAL: readers
never block the writer). ``bench/bench_journal.py`` measures this against
``asyncio.to_thread`` for each write and against ``synchronous=OFF``.

Only one process writes a journal: a lock file beside it (``flock``, released by the
kernel when the process dies, even by ``kill -9``) refuses a second writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import fcntl
import json
import os
import queue
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, TextIO
from urllib.parse import quote

from .rules.engine import IllegalEvent
from .rules.record import RECORD_VERSION
from .rules.settlement import Settlement
from .table_state import (
    CONFIG_LOADED,
    DEVICE_KINDS,
    KINDS,
    LOCK_KINDS,
    PAYOUT_VERIFIED,
    PERSON_SOURCES,
    RECENT_ROUNDS,
    ROUND_BEGIN,
    ROUND_CLOSES,
    ROUND_EVENT,
    SOURCES,
    Command,
    Entry,
    FoldError,
    JournalRecord,
    RecordMeta,
    RoundSummary,
    TableState,
)

SCHEMA_VERSION: Final = 2
"""``PRAGMA user_version`` of a journal this software writes and reads."""
APPLICATION_ID: Final = 0x54424C4A  # "TBLJ": ``PRAGMA application_id`` marks the file as ours
MAX_BATCH: Final = 64
"""At most this many queued appends share one transaction (one fsync)."""
SYNCHRONOUS: Final = ("FULL", "EXTRA", "NORMAL", "OFF")

Dispatch = Literal["thread", "to_thread"]

_KIND_LIST: Final = ", ".join(f"'{k}'" for k in KINDS)
SCHEMA: Final = f"""
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- Every record of the table, in order. Append-only: the triggers refuse an update, a
-- delete, or a seq that does not follow the last one (gapless, so a lost record shows).
CREATE TABLE events (
    seq      INTEGER PRIMARY KEY CHECK (seq >= 1),
    event_id TEXT    NOT NULL UNIQUE,
    wall_ns  INTEGER NOT NULL,
    mono_ns  INTEGER NOT NULL,
    source   TEXT    NOT NULL CHECK (source <> ''),
    actor    TEXT,
    round_id TEXT,
    kind     TEXT    NOT NULL CHECK (kind IN ({_KIND_LIST})),
    body     TEXT    NOT NULL CHECK (json_valid(body))
);
CREATE INDEX events_round ON events (round_id, seq) WHERE round_id IS NOT NULL;
CREATE INDEX events_kind ON events (kind, seq);
-- A round begins once and ends once: a settlement can never be journaled twice.
CREATE UNIQUE INDEX round_begins_once ON events (round_id) WHERE kind = 'round_begin';
CREATE UNIQUE INDEX round_ends_once ON events (round_id)
    WHERE kind IN ('round_settled', 'round_cancelled');
CREATE TRIGGER events_gapless BEFORE INSERT ON events
    WHEN NEW.seq IS NOT (SELECT coalesce(max(seq), 0) + 1 FROM events)
    BEGIN SELECT RAISE(ABORT, 'journal: a seq follows the last record without a gap'); END;
CREATE TRIGGER events_never_change BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'journal: a record is never changed'); END;
CREATE TRIGGER events_never_deleted BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'journal: a record is never deleted'); END;

-- Messages to the central meter, each committed with the record that causes it.
CREATE TABLE outbox (
    seq          INTEGER PRIMARY KEY CHECK (seq >= 1),
    message_id   TEXT    NOT NULL UNIQUE,
    event_seq    INTEGER NOT NULL REFERENCES events (seq),
    kind         TEXT    NOT NULL CHECK (kind <> ''),
    payload      TEXT    NOT NULL CHECK (json_valid(payload)),
    sent_wall_ns INTEGER
);
CREATE INDEX outbox_pending ON outbox (seq) WHERE sent_wall_ns IS NULL;
CREATE TRIGGER outbox_gapless BEFORE INSERT ON outbox
    WHEN NEW.seq IS NOT (SELECT coalesce(max(seq), 0) + 1 FROM outbox)
    BEGIN SELECT RAISE(ABORT, 'outbox: a seq follows the last message without a gap'); END;
CREATE TRIGGER outbox_only_marked_sent BEFORE UPDATE ON outbox
    WHEN OLD.sent_wall_ns IS NOT NULL OR NEW.sent_wall_ns IS NULL
        OR NEW.seq IS NOT OLD.seq OR NEW.message_id IS NOT OLD.message_id
        OR NEW.event_seq IS NOT OLD.event_seq OR NEW.kind IS NOT OLD.kind
        OR NEW.payload IS NOT OLD.payload
    BEGIN SELECT RAISE(ABORT, 'outbox: a message is only ever marked sent, once'); END;
CREATE TRIGGER outbox_never_deleted BEFORE DELETE ON outbox
    BEGIN SELECT RAISE(ABORT, 'outbox: a message is never deleted'); END;
"""

_COLUMNS: Final = "seq, event_id, wall_ns, mono_ns, source, actor, round_id, kind, body"
_INSERT_EVENT: Final = f"INSERT INTO events ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
_INSERT_OUTBOX: Final = (
    "INSERT INTO outbox (seq, message_id, event_seq, kind, payload) VALUES (?, ?, ?, ?, ?)"
)
_OUTBOX_COLUMNS: Final = (
    "o.seq, o.message_id, o.event_seq, e.event_id, e.round_id, o.kind, o.payload, o.sent_wall_ns"
)
_FACTS_BEFORE: Final = f"""
SELECT {_COLUMNS} FROM events WHERE seq IN (
    SELECT max(seq) FROM events WHERE seq < :start AND kind IN ({", ".join(f"'{k}'" for k in LOCK_KINDS)})
    UNION ALL
    SELECT max(seq) FROM events WHERE seq < :start AND kind = '{CONFIG_LOADED}'
    UNION ALL
    SELECT max(seq) FROM events WHERE seq < :start AND kind IN ({", ".join(f"'{k}'" for k in DEVICE_KINDS)})
        GROUP BY json_extract(body, '$.device')
) ORDER BY seq
"""


# --- errors ------------------------------------------------------------------------------------


class JournalError(Exception):
    """The journal cannot be used as asked; the message names the file and what to do."""


class JournalCorrupt(JournalError):
    """The journal does not hold what was accepted: a damaged file, a garbage record, a gap."""


class JournalVersionError(JournalError):
    """The journal's schema is not the one this software writes (newer, or too old)."""


class JournalBusy(JournalError):
    """Another process has the journal open for writing."""


class JournalWriteError(JournalError):
    """A write failed (disk full, I/O error): nothing of that append is in the journal."""


class UnknownRound(JournalError, LookupError):
    """No round of that id in the journal."""


class Refused(IllegalEvent):
    """The rules refused the entry; it is journaled as ``refused`` (``record``), not accepted."""

    def __init__(self, reason: str, record: JournalRecord) -> None:
        super().__init__(reason)
        self.record = record


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


@dataclass(frozen=True)
class Appended:
    """A durable append: the record, its outbox messages, and the state after it."""

    record: JournalRecord
    outbox: tuple[OutboxEntry, ...]
    state: TableState


@dataclass(frozen=True)
class RecalledRound:
    """One round out of the journal, for ``tablectl recall`` and disputes."""

    summary: RoundSummary
    records: tuple[JournalRecord, ...]
    """Every record made while the round was open: its events, refusals, commands, devices."""
    record: dict[str, object]
    """The round record (docs/round-record.md, "events" form) that ``tablectl replay`` replays."""
    replayed: Settlement | None
    """The settlement the rules core gives the events today; ``None`` while incomplete."""
    waiting_for: str = ""
    """What the round still waits for, if it is not complete."""
    verifications: tuple[JournalRecord, ...] = ()
    """The ``payout_verified`` records of the round's flagged payouts: made after it closed, while
    the next rounds were open, so not among :attr:`records`."""

    @property
    def consistent(self) -> bool:
        """The journaled settlement is the replayed one (true for a round still open)."""
        if self.summary.settlement is None:
            return True
        replayed = self.replayed.to_json() if self.replayed is not None else None
        return _canonical(replayed) == _canonical(self.summary.settlement)


# --- reading (any connection) ------------------------------------------------------------------


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True)


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _record(row: Sequence[Any], path: Path) -> JournalRecord:
    seq = row[0]
    try:
        body = json.loads(row[8])
    except (TypeError, ValueError) as exc:
        raise JournalCorrupt(f"{path}: seq {seq}: the record's body is not JSON ({exc})") from None
    if not isinstance(body, dict):
        raise JournalCorrupt(f"{path}: seq {seq}: the record's body is not a JSON object")
    if row[7] not in KINDS:
        close = difflib.get_close_matches(str(row[7]), KINDS, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise JournalCorrupt(f"{path}: seq {seq}: unknown kind of record {row[7]!r}{hint}")
    ints = (row[0], row[2], row[3])
    if not all(isinstance(v, int) for v in ints) or not all(isinstance(v, str) for v in (row[1], row[4])):
        raise JournalCorrupt(f"{path}: seq {seq}: a record with garbage in its columns: {tuple(row[:8])!r}")
    return JournalRecord(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], body)


def _query(
    conn: sqlite3.Connection, path: Path, sql: str, params: Sequence[object] | Mapping[str, object] = ()
) -> list[Any]:
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.DatabaseError as exc:
        raise JournalCorrupt(f"{path}: cannot read the journal: {exc}") from None


def _records(
    conn: sqlite3.Connection,
    path: Path,
    where: str = "",
    params: Sequence[object] | Mapping[str, object] = (),
) -> list[JournalRecord]:
    rows = _query(conn, path, f"SELECT {_COLUMNS} FROM events {where}", params)
    return [_record(row, path) for row in rows]


def _check_contiguous(records: Sequence[JournalRecord], first: int, path: Path) -> None:
    for expected, record in enumerate(records, start=first):
        if record.seq != expected:
            raise JournalCorrupt(
                f"{path}: seq {expected} is missing (the next record is seq {record.seq}): "
                "the journal has a gap"
            )


def _last_seq(conn: sqlite3.Connection, path: Path) -> int:
    row = _query(conn, path, "SELECT coalesce(max(seq), 0) FROM events")[0]
    return int(row[0])


def _recovery_records(conn: sqlite3.Connection, path: Path) -> list[JournalRecord]:
    """The records recovery folds: from the round before the last :data:`RECENT_ROUNDS`, and
    before that only the latest fact of each kind (the state keeps nothing older)."""
    row = _query(
        conn,
        path,
        "SELECT seq FROM events WHERE kind = ? ORDER BY seq DESC LIMIT 1 OFFSET ?",
        (ROUND_BEGIN, RECENT_ROUNDS),
    )
    start = int(row[0][0]) if row else 1
    facts: list[JournalRecord] = []
    if start > 1:
        rows = _query(conn, path, _FACTS_BEFORE, {"start": start})
        facts = [_record(r, path) for r in rows]
    tail = _records(conn, path, "WHERE seq >= ? ORDER BY seq", (start,))
    _check_contiguous(tail, start, path)
    last = _last_seq(conn, path)
    if (tail[-1].seq if tail else start - 1) != last:
        raise JournalCorrupt(f"{path}: the last record is seq {last}, but the records stop before it")
    return facts + tail


def _fold(table_id: str, records: Iterable[JournalRecord], path: Path) -> TableState:
    try:
        return TableState.fold(table_id, records)
    except FoldError as exc:
        raise JournalCorrupt(f"{path}: {exc}") from None


def _recover(conn: sqlite3.Connection, path: Path, table_id: str) -> TableState:
    _begin_read(conn)
    try:
        return _fold(table_id, _recovery_records(conn, path), path)
    finally:
        _end_read(conn)


def _replay_all(conn: sqlite3.Connection, path: Path, table_id: str) -> TableState:
    """Every record folded from seq 1, checking there is no gap: slow on a long journal."""
    _begin_read(conn)
    try:
        records = _records(conn, path, "ORDER BY seq")
        _check_contiguous(records, 1, path)
        outbox = _query(conn, path, "SELECT seq FROM outbox ORDER BY seq")
        for expected, (seq,) in enumerate(outbox, start=1):
            if seq != expected:
                raise JournalCorrupt(f"{path}: outbox message seq {expected} is missing")
        return _fold(table_id, records, path)
    finally:
        _end_read(conn)


def _begin_read(conn: sqlite3.Connection) -> None:
    # One read transaction: several queries see one snapshot while the writer goes on.
    if not conn.in_transaction:
        conn.execute("BEGIN")


def _end_read(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        conn.execute("COMMIT")


def _recent_rounds(conn: sqlite3.Connection, path: Path, n: int) -> list[RoundSummary]:
    if n < 1:
        raise ValueError(f"the number of rounds is at least 1, not {n}")
    _begin_read(conn)
    try:
        begins = _records(conn, path, "WHERE kind = ? ORDER BY seq DESC LIMIT ?", (ROUND_BEGIN, n))
        out = []
        for begin in begins:
            end = _records(
                conn, path, "WHERE round_id = ? AND kind IN (?, ?)", (begin.round_id, *ROUND_CLOSES)
            )
            out.append(
                RoundSummary.of(
                    begin.round_id or "",
                    str(begin.body.get("game", "")),
                    begin.seq,
                    begin.wall_ns,
                    end[0] if end else None,
                )
            )
        return out
    finally:
        _end_read(conn)


def _recall(conn: sqlite3.Connection, path: Path, table_id: str, round_id: str) -> RecalledRound:
    _begin_read(conn)
    try:
        records = _records(conn, path, "WHERE round_id = ? ORDER BY seq", (round_id,))
        if not any(r.kind == ROUND_BEGIN for r in records):
            last = _records(conn, path, "WHERE kind = ? ORDER BY seq DESC LIMIT 3", (ROUND_BEGIN,))
            known = ", ".join(repr(r.round_id) for r in last) or "none yet"
            raise UnknownRound(f"{path}: no round {round_id!r} in the journal (the last rounds: {known})")
        verifications = _records(
            conn,
            path,
            "WHERE kind = ? AND json_extract(body, '$.round') = ? ORDER BY seq",
            (PAYOUT_VERIFIED, round_id),
        )
    finally:
        _end_read(conn)
    begin = next(r for r in records if r.kind == ROUND_BEGIN)
    events = [r for r in records if r.kind == ROUND_EVENT]
    end = next((r for r in records if r.kind in ROUND_CLOSES), None)
    # The same fold that accepted the events replays them.
    state = _fold(table_id, [begin, *events], path)
    assert state.current is not None
    replayed: Settlement | None = None
    waiting_for = ""
    try:
        replayed = state.current.settlement()
    except IllegalEvent as exc:
        waiting_for = str(exc)
    summary = RoundSummary.of(round_id, state.current.game, begin.seq, begin.wall_ns, end)
    return RecalledRound(
        summary,
        tuple(records),
        _export(table_id, begin, events, end),
        replayed,
        waiting_for,
        tuple(verifications),
    )


def _export(
    table_id: str, begin: JournalRecord, events: Sequence[JournalRecord], end: JournalRecord | None
) -> dict[str, object]:
    last = end.seq if end is not None else (events[-1].seq if events else begin.seq)
    return {
        "record": "round",
        "version": RECORD_VERSION,
        "game": begin.body["game"],
        "table": table_id,
        "round": begin.round_id,
        "note": f"exported from the journal of table {table_id}, seq {begin.seq} to {last}",
        "rules": begin.body.get("rules", {}),
        "meters": begin.body.get("meters", {}),
        "events": [dict(e.body) for e in events],
    }


def _outbox(
    conn: sqlite3.Connection, path: Path, table_id: str, where: str, params: Sequence[object]
) -> list[OutboxEntry]:
    rows = _query(
        conn,
        path,
        f"SELECT {_OUTBOX_COLUMNS} FROM outbox o JOIN events e ON e.seq = o.event_seq {where}",
        params,
    )
    out = []
    for seq, message_id, event_seq, event_id, round_id, kind, payload, sent in rows:
        try:
            body = json.loads(payload)
        except (TypeError, ValueError) as exc:
            raise JournalCorrupt(f"{path}: outbox seq {seq}: the payload is not JSON ({exc})") from None
        out.append(OutboxEntry(table_id, seq, message_id, event_seq, event_id, round_id, kind, body, sent))
    return out


# --- opening ---------------------------------------------------------------------------------


def _connect(path: Path, read_only: bool) -> sqlite3.Connection:
    uri = f"file:{quote(str(path))}?mode={'ro' if read_only else 'rw'}"
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False, timeout=10.0)
    except sqlite3.Error as exc:
        raise JournalError(f"{path}: cannot open the journal: {exc}") from None
    return conn


def _schema_check(conn: sqlite3.Connection, path: Path, table_id: str | None, create: bool) -> str:
    """The journal's table id, after checking the file is a journal this software reads."""
    try:
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise JournalCorrupt(f"{path}: not a journal (SQLite says: {exc})") from None
    if app == 0 and version == 0 and tables == 0:
        if not create:
            raise JournalError(f"{path}: an empty file, not a journal")
        if not table_id:
            raise JournalError(f"{path}: a new journal needs the table id")
        _create(conn, table_id)
        return table_id
    if app != APPLICATION_ID:
        raise JournalError(
            f"{path}: a SQLite file, but not a table controller journal (application_id {app:#x})"
        )
    if version > SCHEMA_VERSION:
        raise JournalVersionError(
            f"{path}: journal schema version {version} is newer than this software reads ({SCHEMA_VERSION}); "
            "run the controller version that wrote it, or a newer one"
        )
    if version < SCHEMA_VERSION:
        raise JournalVersionError(
            f"{path}: journal schema version {version} is older than this software reads ({SCHEMA_VERSION})"
        )
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'table_id'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise JournalCorrupt(f"{path}: the journal's meta table cannot be read: {exc}") from None
    if row is None:
        raise JournalCorrupt(f"{path}: the journal does not name its table")
    if table_id is not None and row[0] != table_id:
        raise JournalError(
            f"{path}: this journal belongs to table {row[0]!r}, not {table_id!r}; "
            "check table.id and journal.path in the configuration"
        )
    return str(row[0])


def _create(conn: sqlite3.Connection, table_id: str) -> None:
    conn.execute("BEGIN IMMEDIATE")
    try:
        for statement in _statements(SCHEMA):
            conn.execute(statement)
        conn.execute("INSERT INTO meta (key, value) VALUES ('table_id', ?)", (table_id,))
        conn.execute("INSERT INTO meta (key, value) VALUES ('created_wall_ns', ?)", (str(time.time_ns()),))
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _statements(script: str) -> list[str]:
    """The script's statements, one by one (``executescript`` would commit on its own)."""
    out, current = [], ""
    for line in script.splitlines():
        if line.strip().startswith("--") or not line.strip():
            continue
        current += line + "\n"
        if sqlite3.complete_statement(current):
            out.append(current.strip())
            current = ""
    return out


def _lock(path: Path) -> TextIO:
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


def read_boot_id() -> str:
    """This boot's id (monotonic times are comparable only within one boot)."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip() or "unknown"
    except OSError:
        return "unknown"


# --- the reader --------------------------------------------------------------------------------


class JournalReader:
    """Read-only access to a journal, while the daemon writes it (WAL): ``tablectl``, tests.

    Blocking: call it from a thread (the daemon's :class:`Journal` does).
    """

    def __init__(self, path: str | os.PathLike[str], table_id: str | None = None) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise JournalError(f"{self.path}: no journal there")
        self._conn = _connect(self.path, read_only=True)
        self._lock = threading.Lock()
        try:
            self.table_id = _schema_check(self._conn, self.path, table_id, create=False)
        except BaseException:
            self._conn.close()
            raise

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> JournalReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def records(self, after_seq: int = 0, limit: int | None = None) -> list[JournalRecord]:
        with self._lock:
            return _records(
                self._conn,
                self.path,
                "WHERE seq > ? ORDER BY seq LIMIT ?",
                (after_seq, -1 if limit is None else limit),
            )

    def last_seq(self) -> int:
        with self._lock:
            return _last_seq(self._conn, self.path)

    def recover(self) -> TableState:
        """The state as the daemon recovers it on open (the last rounds and the latest facts)."""
        with self._lock:
            return _recover(self._conn, self.path, self.table_id)

    def replay_all(self) -> TableState:
        """Every record folded from seq 1 (the check that recovery is the full replay)."""
        with self._lock:
            return _replay_all(self._conn, self.path, self.table_id)

    def verify(self) -> TableState:
        """A full check: SQLite's integrity check, no gap, every record folds, recovery agrees."""
        with self._lock:
            problems = [r[0] for r in _query(self._conn, self.path, "PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise JournalCorrupt(f"{self.path}: SQLite integrity check: {'; '.join(problems[:5])}")
            full = _replay_all(self._conn, self.path, self.table_id)
            recovered = _recover(self._conn, self.path, self.table_id)
        if full != recovered:
            raise JournalCorrupt(f"{self.path}: recovery does not give the state of a full replay")
        return full

    def recent_rounds(self, n: int = RECENT_ROUNDS) -> list[RoundSummary]:
        """The last ``n`` rounds begun, newest first."""
        with self._lock:
            return _recent_rounds(self._conn, self.path, n)

    def recall(self, round_id: str) -> RecalledRound:
        with self._lock:
            return _recall(self._conn, self.path, self.table_id, round_id)

    def export_round(self, round_id: str) -> dict[str, object]:
        return self.recall(round_id).record

    def pending(self, limit: int = 100) -> list[OutboxEntry]:
        """Messages not yet marked sent, oldest first."""
        with self._lock:
            return _outbox(
                self._conn,
                self.path,
                self.table_id,
                "WHERE o.sent_wall_ns IS NULL ORDER BY o.seq LIMIT ?",
                (limit,),
            )

    def outbox(self, after_seq: int = 0) -> list[OutboxEntry]:
        """Every message after ``after_seq``, sent or not."""
        with self._lock:
            return _outbox(
                self._conn, self.path, self.table_id, "WHERE o.seq > ? ORDER BY o.seq", (after_seq,)
            )


# --- the writer --------------------------------------------------------------------------------


@dataclass(eq=False)
class _Append:
    record: JournalRecord
    body: str
    outbox: tuple[tuple[str, str, str, Mapping[str, Any]], ...]  # message id, kind, payload text, payload
    state_after: TableState
    epoch: int
    future: asyncio.Future[tuple[OutboxEntry, ...]]


_Outcome = tuple[_Append, "tuple[OutboxEntry, ...] | BaseException"]


class _Store:
    """The writing connection. Used by one thread at a time (the writer thread)."""

    def __init__(self, conn: sqlite3.Connection, path: Path, table_id: str) -> None:
        self.conn = conn
        self.path = path
        self.table_id = table_id
        self.outbox_seq = self._max_outbox()
        self.failed_epoch = -1

    def _max_outbox(self) -> int:
        return int(self.conn.execute("SELECT coalesce(max(seq), 0) FROM outbox").fetchone()[0])

    def write(self, items: Sequence[_Append]) -> list[_Outcome]:
        """Commit ``items`` in one transaction; an item that fails fails those after it too
        (they were checked against a state that included it)."""
        outcomes: list[_Outcome] = []
        live: list[_Append] = []
        for item in items:
            if item.epoch <= self.failed_epoch:
                outcomes.append((item, _earlier_failed(item)))
            else:
                live.append(item)
        if not live:
            return outcomes
        conn = self.conn
        done: list[_Outcome] = []
        failure: tuple[int, BaseException] | None = None
        next_out = self.outbox_seq
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
                    conn.execute(_INSERT_EVENT, row)
                    entries = []
                    for message_id, kind, text, payload in item.outbox:
                        next_out += 1
                        conn.execute(_INSERT_OUTBOX, (next_out, message_id, r.seq, kind, text))
                        entries.append(
                            OutboxEntry(
                                self.table_id,
                                next_out,
                                message_id,
                                r.seq,
                                r.event_id,
                                r.round_id,
                                kind,
                                payload,
                            )
                        )
                    conn.execute("RELEASE record")
                except sqlite3.Error as exc:
                    conn.execute("ROLLBACK TO record")
                    conn.execute("RELEASE record")
                    next_out = before
                    failure = (i, exc)
                    break
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
        outcomes.extend(done)
        if failure is not None:
            i, error = failure
            self.failed_epoch = live[i].epoch
            outcomes.append((live[i], self._error(live[i], error)))
            outcomes.extend((item, _earlier_failed(item)) for item in live[i + 1 :])
        return outcomes

    def _error(self, item: _Append, exc: BaseException) -> JournalWriteError:
        return JournalWriteError(
            f"{self.path}: seq {item.record.seq} ({item.record.kind}) was not journaled: {exc}"
        )

    def mark_sent(self, ids: Sequence[str], wall_ns: int) -> int:
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            marked = 0
            for message_id in ids:
                row = conn.execute(
                    "SELECT sent_wall_ns FROM outbox WHERE message_id = ?", (message_id,)
                ).fetchone()
                if row is None:
                    raise ValueError(f"no message {message_id!r} in the outbox")
                if row[0] is None:
                    conn.execute(
                        "UPDATE outbox SET sent_wall_ns = ? WHERE message_id = ?", (wall_ns, message_id)
                    )
                    marked += 1
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


def _earlier_failed(item: _Append) -> JournalWriteError:
    return JournalWriteError(
        f"seq {item.record.seq} ({item.record.kind}) was not journaled: an earlier write failed"
    )


@dataclass(eq=False)
class _Call:
    fn: Callable[[], object]
    future: asyncio.Future[Any]


_STOP: Final = object()


class _WriterThread(threading.Thread):
    """Takes what has queued up, commits it, tells the loop (``call_soon_threadsafe``)."""

    def __init__(
        self,
        store: _Store,
        loop: asyncio.AbstractEventLoop,
        done: Callable[[list[_Outcome]], None],
    ) -> None:
        super().__init__(name=f"journal-writer {store.path.name}", daemon=True)
        self.store = store
        self.loop = loop
        self.done = done
        self.jobs: queue.SimpleQueue[object] = queue.SimpleQueue()

    def run(self) -> None:
        stopping = False
        while not stopping:
            jobs = [self.jobs.get()]
            while len(jobs) < MAX_BATCH:
                try:
                    jobs.append(self.jobs.get_nowait())
                except queue.Empty:
                    break
            batch: list[_Append] = []
            for job in jobs:
                if isinstance(job, _Append):
                    batch.append(job)
                    continue
                self._flush(batch)
                batch = []
                if job is _STOP:
                    stopping = True
                elif isinstance(job, _Call):
                    self._call(job)
            self._flush(batch)
        self.store.close()

    def _flush(self, batch: list[_Append]) -> None:
        if not batch:
            return
        try:
            outcomes = self.store.write(batch)
        except Exception as exc:  # a bug, not a disk: the appends still fail cleanly
            outcomes = [(item, JournalWriteError(f"the journal writer failed: {exc!r}")) for item in batch]
            self.store.failed_epoch = max(item.epoch for item in batch)
        self._tell(self.done, outcomes)

    def _call(self, job: _Call) -> None:
        try:
            result = job.fn()
        except Exception as exc:
            self._tell(_fail, job.future, exc)
        else:
            self._tell(_resolve, job.future, result)

    def _tell(self, fn: Callable[..., None], *args: object) -> None:
        # The loop may be gone at shutdown: then nobody waits for the answer.
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(fn, *args)


def _resolve(future: asyncio.Future[Any], result: object) -> None:
    if not future.done():
        future.set_result(result)


def _fail(future: asyncio.Future[Any], exc: BaseException) -> None:
    if not future.done():
        future.set_exception(exc)


# --- the journal -------------------------------------------------------------------------------


class Journal:
    """The daemon's journal: async appends that return once durable, and the state they fold to.

    Open with :meth:`open`; close with :meth:`close` (or ``async with``).
    """

    def __init__(
        self,
        path: Path,
        table_id: str,
        store: _Store,
        reader: JournalReader,
        lock: TextIO,
        state: TableState,
        dispatch: Dispatch,
        has_pending: bool,
    ) -> None:
        self.path = path
        self.table_id = table_id
        self._store = store
        self._reader = reader
        self._lock_file = lock
        self._durable = state
        self._head = state  # the durable state plus what is checked and queued for writing
        self._epoch = 0
        self._dispatch = dispatch
        self._loop = asyncio.get_running_loop()
        self._outbox_ready = asyncio.Event()
        if has_pending:
            self._outbox_ready.set()
        self._closed = False
        self._write_lock = asyncio.Lock()  # "to_thread": one write at a time, in order
        self._tasks: set[asyncio.Task[None]] = set()
        self._writer: _WriterThread | None = None
        if dispatch == "thread":
            self._writer = _WriterThread(store, self._loop, self._complete)
            self._writer.start()

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        table_id: str,
        *,
        create: bool = True,
        full_replay: bool = False,
        synchronous: str = "FULL",
        dispatch: Dispatch = "thread",
    ) -> Journal:
        """Open (or create) the journal of ``table_id`` and recover the table's state.

        ``full_replay`` folds every record from seq 1 as well and checks recovery gives the
        same state (slow on a long journal). ``synchronous`` other than ``FULL`` and
        ``dispatch="to_thread"`` exist for the benchmark: the daemon uses neither.
        """
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, not {synchronous!r}")
        if dispatch not in ("thread", "to_thread"):
            raise ValueError(f"dispatch must be 'thread' or 'to_thread', not {dispatch!r}")
        opened = await asyncio.to_thread(_open_sync, Path(path), table_id, create, full_replay, synchronous)
        store, reader, lock, state, has_pending = opened
        return cls(Path(path), table_id, store, reader, lock, state, dispatch, has_pending)

    async def __aenter__(self) -> Journal:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def state(self) -> TableState:
        """The table's state as journaled (every append whose ``await`` has returned, and more)."""
        return self._durable

    async def append(
        self,
        entry: Entry,
        *,
        source: str,
        actor: str | None = None,
        outbox: Iterable[Outbound] = (),
    ) -> Appended:
        """Journal ``entry`` and its outbox messages in one transaction; return once durable.

        A refused entry (the rules core raises :class:`IllegalEvent`) is journaled as
        ``refused`` with the reason, its outbox dropped, and :class:`Refused` raised: it
        never counts as accepted. Malformed input raises ``ValueError``/``TypeError`` and
        journals nothing; a failed write raises :class:`JournalWriteError` and leaves the
        state as the journal is.
        """
        self._check_open()
        _check_source(source, actor, entry)
        messages = tuple(_outbound(m) for m in outbox)
        head = self._head
        meta = RecordMeta(
            head.last_seq + 1, str(uuid.uuid4()), time.time_ns(), time.monotonic_ns(), source, actor
        )
        try:
            record, after = head.prepare(entry, meta)
        except IllegalEvent as exc:
            refused, after = head.refuse(entry, str(exc), meta)
            await self._submit(refused, (), after)
            raise Refused(str(exc), refused) from None
        entries = await self._submit(record, messages, after)
        return Appended(record, entries, after)

    def _submit(
        self,
        record: JournalRecord,
        messages: tuple[tuple[str, str, str, Mapping[str, Any]], ...],
        after: TableState,
    ) -> asyncio.Future[tuple[OutboxEntry, ...]]:
        future: asyncio.Future[tuple[OutboxEntry, ...]] = self._loop.create_future()
        item = _Append(record, _dumps(record.body), messages, after, self._epoch, future)
        self._head = after
        if self._writer is not None:
            self._writer.jobs.put(item)
        else:
            task = self._loop.create_task(self._write_to_thread(item))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        # A caller that stops waiting (cancelled) does not undo the write: the state still
        # follows it when it commits (see _complete).
        return future

    async def _write_to_thread(self, item: _Append) -> None:
        async with self._write_lock:
            outcomes = await asyncio.to_thread(self._store.write, [item])
        self._complete(outcomes)

    def _complete(self, outcomes: list[_Outcome]) -> None:
        """On the loop: the writer's answer for a batch, in order."""
        for item, result in outcomes:
            if isinstance(result, BaseException):
                if item.epoch == self._epoch:
                    # Everything checked after the failed record is void: start again from
                    # what the journal holds.
                    self._epoch += 1
                    self._head = self._durable
                _fail(item.future, result)
            else:
                self._durable = item.state_after
                if result:
                    self._outbox_ready.set()
                _resolve(item.future, result)

    async def _call(self, fn: Callable[[], Any]) -> Any:
        self._check_open()
        if self._writer is None:
            async with self._write_lock:
                return await asyncio.to_thread(fn)
        future: asyncio.Future[Any] = self._loop.create_future()
        self._writer.jobs.put(_Call(fn, future))
        return await future

    # -- the outbox ---------------------------------------------------------------------------

    async def pending(self, limit: int = 100) -> list[OutboxEntry]:
        """Messages committed and not yet marked sent, oldest first."""
        self._check_open()
        return await asyncio.to_thread(self._reader.pending, limit)

    async def mark_sent(self, ids: Iterable[str]) -> int:
        """Mark messages sent (the broker acknowledged them); returns how many were not already.
        An id not in the outbox is a ``ValueError`` and marks nothing."""
        message_ids = list(ids)
        wall = time.time_ns()
        marked: int = await self._call(lambda: self._store.mark_sent(message_ids, wall))
        return marked

    async def wait_for_outbox(self) -> None:
        """Return when a message may be pending (at once if one is); then read :meth:`pending`.

        The link's loop: ``await wait_for_outbox()``, ``pending()``, publish, ``mark_sent()``.
        No wake-up is lost: the flag is cleared before returning, so a commit after it sets it
        again.
        """
        await self._outbox_ready.wait()
        self._outbox_ready.clear()

    # -- reading ------------------------------------------------------------------------------

    async def records(self, after_seq: int = 0, limit: int | None = None) -> list[JournalRecord]:
        self._check_open()
        return await asyncio.to_thread(self._reader.records, after_seq, limit)

    async def recent_rounds(self, n: int = RECENT_ROUNDS) -> list[RoundSummary]:
        """The last ``n`` rounds begun, newest first (the state itself keeps the last ten)."""
        self._check_open()
        return await asyncio.to_thread(self._reader.recent_rounds, n)

    async def recall(self, round_id: str) -> RecalledRound:
        self._check_open()
        return await asyncio.to_thread(self._reader.recall, round_id)

    async def export_round(self, round_id: str) -> dict[str, object]:
        """The round record of ``round_id`` (docs/round-record.md), which ``tablectl replay`` replays."""
        return (await self.recall(round_id)).record

    async def verify(self) -> TableState:
        """A full check of the file (slow on a long journal: for ``tablectl``, not the loop's path)."""
        self._check_open()
        return await asyncio.to_thread(self._reader.verify)

    # -- closing ------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise JournalError(f"{self.path}: the journal is closed")

    async def close(self) -> None:
        """Write what is queued, then close; later calls raise :class:`JournalError`."""
        if self._closed:
            return
        self._closed = True
        # The reader first: the last connection to close removes the WAL file.
        await asyncio.to_thread(self._reader.close)
        if self._writer is not None:
            self._writer.jobs.put(_STOP)
            await asyncio.to_thread(self._writer.join)
        else:
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)
            async with self._write_lock:
                await asyncio.to_thread(self._store.close)
        self._lock_file.close()


def _open_sync(
    path: Path, table_id: str, create: bool, full_replay: bool, synchronous: str
) -> tuple[_Store, JournalReader, TextIO, TableState, bool]:
    if not table_id or not table_id.strip():
        raise ValueError("the table id is a non-empty name")
    if not path.parent.is_dir():
        raise JournalError(f"{path}: the directory {path.parent} does not exist")
    if not path.exists() and not create:
        raise JournalError(f"{path}: no journal there")
    lock = _lock(path)
    conn: sqlite3.Connection | None = None
    try:
        if not path.exists():
            path.touch()
        conn = _connect(path, read_only=False)
        _schema_check(conn, path, table_id, create)
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise JournalError(f"{path}: SQLite refused WAL mode (journal_mode {mode})")
        conn.execute(f"PRAGMA synchronous = {synchronous}")
        conn.execute("PRAGMA foreign_keys = ON")
        # A WAL file that a checkpoint has emptied is cut back to this size.
        conn.execute("PRAGMA journal_size_limit = 8388608")
        state = _recover(conn, path, table_id)
        if full_replay:
            full = _replay_all(conn, path, table_id)
            if full != state:
                raise JournalCorrupt(f"{path}: recovery does not give the state of a full replay")
        store = _Store(conn, path, table_id)
        reader = JournalReader(path, table_id)
        has_pending = reader.pending(1) != []
        return store, reader, lock, state, has_pending
    except BaseException:
        if conn is not None:
            conn.close()
        lock.close()
        raise


def _check_source(source: str, actor: str | None, entry: Entry) -> None:
    if source not in SOURCES:
        close = difflib.get_close_matches(str(source), SOURCES, n=1, cutoff=0.5)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"unknown source {source!r}{hint} (sources: {', '.join(SOURCES)})")
    needs_actor = source in PERSON_SOURCES or isinstance(entry, Command)
    if actor is not None and (not isinstance(actor, str) or not actor.strip()):
        raise ValueError(f"the actor is a person's id (badge, user), not {actor!r}")
    if needs_actor and actor is None:
        what = "a command" if isinstance(entry, Command) else f"a record from {source}"
        raise ValueError(f"{what} names its actor (the person who did it)")


def _outbound(message: Outbound) -> tuple[str, str, str, Mapping[str, Any]]:
    if not isinstance(message, Outbound):
        raise TypeError(f"an outbox message is an Outbound, not {message!r}")
    if not isinstance(message.kind, str) or not message.kind.strip():
        raise ValueError(f"an outbox message needs a kind, not {message.kind!r}")
    try:
        text = _dumps(dict(message.payload))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"outbox message {message.kind!r}: the payload is not JSON: {exc}") from None
    payload: dict[str, Any] = json.loads(text)
    return str(uuid.uuid4()), message.kind, text, payload


__all__ = [
    "APPLICATION_ID",
    "SCHEMA",
    "SCHEMA_VERSION",
    "Appended",
    "Journal",
    "JournalBusy",
    "JournalCorrupt",
    "JournalError",
    "JournalReader",
    "JournalVersionError",
    "JournalWriteError",
    "Outbound",
    "OutboxEntry",
    "RecalledRound",
    "Refused",
    "UnknownRound",
    "read_boot_id",
]
