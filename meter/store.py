"""The meter's store: SQLite, every record durable before anyone is told, hash-chained.

The journal's discipline (``controller/journal.py``): WAL and ``synchronous=FULL`` (a record
is on the disk before :meth:`Store.apply` returns, so a power cut loses nothing that was
acknowledged); records are append-only, gapless, never changed (triggers refuse it); each
table's message is one record carrying its dedup key ``(table_id, table_seq)`` (unique), in
the same transaction as the state it changes. Each record carries the SHA-256 of the one
before it and of itself: at every start the chain is checked and every record folded again
(:class:`~.ledger.Ledger`), and a damaged store is refused naming the first bad record.

No amount is ever lowered except by a recorded award: the fold allows nothing else, and a
trigger refuses any update of a progressive's amount downwards whose record is not an award
(N.J.A.C. 13:69D-1.52(f), "not decreased unless paid and recorded").
"""

from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, TextIO
from urllib.parse import quote

from wire import Award, Closed, Refusal, format_money
from wire import fields as wf
from wire.errors import clip

from .clears import KINDS, decide, fold
from .config import MeterConfig
from .ledger import AWARD, OPENED, Draft, FoldError, Item, Ledger, Record, refused, reply

log = logging.getLogger(__name__)
SCHEMA_VERSION: Final = 4
"""2: a refused message may carry a message id already used (a hostile or broken table's); the
id stays unique among every other record. 3: the records of the award handshake (``paid``,
``void``: the table's word that ends a hit). 4: a table's RAM clear (``ram_clear``, clears.py).
A version-1, -2 or -3 store is brought to 4 when the meter opens it (:func:`_migrate`);
``status`` and ``history`` read each."""
READABLE_VERSIONS: Final = (1, 2, 3, 4)
APPLICATION_ID: Final = 0x504D5452  # "PMTR"
GENESIS: Final = "0" * 64

_KIND_LIST: Final = ", ".join(f"'{k}'" for k in KINDS)
SCHEMA: Final = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE records (
    seq         INTEGER PRIMARY KEY CHECK (seq >= 1),
    wall_ns     INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ({_KIND_LIST})),
    table_id    TEXT,
    table_seq   INTEGER CHECK (table_seq >= 1),
    message_id  TEXT,
    progressive TEXT,
    body        TEXT    NOT NULL CHECK (json_valid(body)),
    prev_hash   TEXT    NOT NULL,
    hash        TEXT    NOT NULL UNIQUE,
    CHECK ((table_id IS NULL) = (table_seq IS NULL) AND (table_id IS NULL) = (message_id IS NULL))
);
CREATE UNIQUE INDEX records_dedup ON records (table_id, table_seq) WHERE table_id IS NOT NULL;
CREATE UNIQUE INDEX records_message ON records (message_id)
    WHERE message_id IS NOT NULL AND kind <> 'refused';
CREATE INDEX records_kind ON records (kind, seq);
CREATE TRIGGER records_gapless BEFORE INSERT ON records
    WHEN NEW.seq IS NOT (SELECT coalesce(max(seq), 0) + 1 FROM records)
    BEGIN SELECT RAISE(ABORT, 'meter store: a seq follows the last record without a gap'); END;
CREATE TRIGGER records_never_change BEFORE UPDATE ON records
    BEGIN SELECT RAISE(ABORT, 'meter store: a record is never changed'); END;
CREATE TRIGGER records_never_deleted BEFORE DELETE ON records
    BEGIN SELECT RAISE(ABORT, 'meter store: a record is never deleted'); END;

-- The state after the last record, kept for reading (status) and checked against the fold.
CREATE TABLE progressive_state (
    id            TEXT PRIMARY KEY,
    amount        INTEGER NOT NULL CHECK (amount >= 0),
    carry         TEXT    NOT NULL,
    record_seq    INTEGER NOT NULL REFERENCES records (seq),
    contributions INTEGER NOT NULL,
    wagers        INTEGER NOT NULL,
    wagered       INTEGER NOT NULL,
    awards        INTEGER NOT NULL,
    paid          INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TRIGGER meter_lowered_only_by_award BEFORE UPDATE ON progressive_state
    WHEN NEW.amount < OLD.amount AND NOT EXISTS (
        SELECT 1 FROM records WHERE seq = NEW.record_seq AND kind = 'award' AND progressive = NEW.id)
    BEGIN SELECT RAISE(ABORT, 'meter store: a meter is lowered only by a recorded award'); END;
CREATE TABLE table_state (
    id          TEXT PRIMARY KEY,
    applied_seq INTEGER NOT NULL,
    verdict     TEXT CHECK (verdict IS NULL OR json_valid(verdict)),
    accepted    TEXT NOT NULL CHECK (json_valid(accepted))
) WITHOUT ROWID;
CREATE TRIGGER table_seq_never_back BEFORE UPDATE ON table_state
    WHEN NEW.applied_seq < OLD.applied_seq
    BEGIN SELECT RAISE(ABORT, 'meter store: a table''s applied seq never goes back'); END;
"""

OVERFLOW_SCHEMA: Final = """
-- A progressive's ceiling and its overflow (issue 17; kept beside progressive_state, which it
-- leaves as it was): created in a store of any version when the meter opens it, no migration.
CREATE TABLE IF NOT EXISTS overflow_state (
    id           TEXT PRIMARY KEY REFERENCES progressive_state (id),
    ceiling      INTEGER NOT NULL CHECK (ceiling >= 0),
    overflow     TEXT,
    held         INTEGER NOT NULL CHECK (held >= 0),
    over_ceiling INTEGER NOT NULL CHECK (over_ceiling >= 0),
    record_seq   INTEGER NOT NULL REFERENCES records (seq)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS overflow_lowered_only_by_award BEFORE UPDATE ON overflow_state
    WHEN NEW.held < OLD.held AND NOT EXISTS (
        SELECT 1 FROM records WHERE seq = NEW.record_seq AND kind = 'award' AND progressive = NEW.id)
    BEGIN SELECT RAISE(ABORT, 'meter store: an overflow meter is lowered only by a recorded award'); END;
"""
"""The own overflow meter is money of the progressive's players: like the meter, it goes down only
by a recorded award (the hit that puts it back on the meter)."""

_COLUMNS: Final = "seq, wall_ns, kind, table_id, table_seq, message_id, progressive, body, prev_hash, hash"


class StoreError(Exception):
    """The store cannot be used as asked; the message names the file and what to do."""


class StoreCorrupt(StoreError):
    """The store does not hold what was recorded; the message names the first bad record."""


class StoreBusy(StoreError):
    """Another meter process has the store open."""


class ConfigMismatch(StoreError):
    """The configuration changes a running progressive's parameters."""


class StoreFailed(StoreError):
    """The store itself could not be written or read (disk full, an I/O error, a corrupt page):
    nothing of the batch being applied was committed, so nothing of it may be told."""


def _store_failure(exc: BaseException) -> bool:
    """An error of the store itself, not of the one message being applied."""
    if isinstance(exc, (OSError, MemoryError)):
        return True
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(
        exc, (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.DataError)
    )


_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), sort_keys=True, ensure_ascii=False, allow_nan=False)
"""Made once (``json.dumps`` with these arguments builds one per call, three times a record)."""


def _dumps(value: object) -> str:
    return _ENCODER.encode(value)


def record_hash(prev: str, seq: int, wall_ns: int, kind: str, table_id: str | None, table_seq: int | None,
                message_id: str | None, progressive: str | None, body: str) -> str:  # fmt: skip
    """SHA-256 of the previous record's hash and every column of this record."""
    fields = _dumps([seq, wall_ns, kind, table_id, table_seq, message_id, progressive, body])
    return hashlib.sha256(f"{prev}\n{fields}".encode()).hexdigest()


def _connect(path: Path, read_only: bool) -> sqlite3.Connection:
    uri = f"file:{quote(str(path))}?mode={'ro' if read_only else 'rwc'}"
    try:
        return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False, timeout=10.0)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open the meter store: {exc}") from None


def _statements(script: str) -> list[str]:
    out, current = [], ""
    for line in script.splitlines():
        if line.strip().startswith("--") or not line.strip():
            continue
        current += line + "\n"
        if sqlite3.complete_statement(current):
            out.append(current.strip())
            current = ""
    return out


def _check_schema(conn: sqlite3.Connection, path: Path, create: bool) -> None:
    try:
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise StoreCorrupt(f"{path}: not a meter store (SQLite says: {exc})") from None
    if app == 0 and version == 0 and tables == 0:
        if not create:
            raise StoreError(f"{path}: an empty file, not a meter store")
        conn.execute("BEGIN IMMEDIATE")
        for statement in _statements(SCHEMA):
            conn.execute(statement)
        conn.execute("INSERT INTO meta VALUES ('created_wall_ns', ?)", (str(time.time_ns()),))
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
        return
    if app != APPLICATION_ID:
        raise StoreError(
            f"{path}: a SQLite file, but not a progressive meter store (application_id {app:#x})"
        )
    if create and version in (1, 2, 3):
        _migrate(conn)
    elif version not in READABLE_VERSIONS:
        raise StoreError(
            f"{path}: meter store schema version {version}; this software reads version {SCHEMA_VERSION}"
        )


#: The records table's own indexes and triggers, and the trigger that reads it (rebuilt with it).
_RECORDS_PARTS: Final = (
    "records_dedup", "records_message", "records_kind",
    "records_gapless", "records_never_change", "records_never_deleted", "meter_lowered_only_by_award",
)  # fmt: skip


def _migrate(conn: sqlite3.Connection) -> None:
    """Version 1, 2 or 3 to 4, in one transaction: the records table rebuilt on this schema (a
    refused record's message id need not be unique; the kinds of the award handshake and of a
    RAM clear), every
    record copied as it is (its hash unchanged), its indexes and triggers made again."""
    parts = [s for s in _statements(SCHEMA) if "CREATE TABLE records" in s or any(
        f" {name} " in s for name in _RECORDS_PARTS
    )]  # fmt: skip
    # The other tables keep naming ``records`` (a FOREIGN KEY is not moved to the old one).
    conn.execute("PRAGMA legacy_alter_table = ON")
    conn.execute("BEGIN IMMEDIATE")
    try:
        for name in _RECORDS_PARTS:
            kind = "TRIGGER" if name.startswith(("records_g", "records_n", "meter_")) else "INDEX"
            conn.execute(f"DROP {kind} IF EXISTS {name}")
        conn.execute("ALTER TABLE records RENAME TO records_before")
        for statement in parts:
            if "CREATE TABLE records" in statement:
                conn.execute(statement)
        conn.execute(f"INSERT INTO records ({_COLUMNS}) SELECT {_COLUMNS} FROM records_before")
        conn.execute("DROP TABLE records_before")
        for statement in parts:
            if "CREATE TABLE records" not in statement:
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    finally:
        conn.execute("PRAGMA legacy_alter_table = OFF")


def _row_record(row: Sequence[Any], path: Path) -> tuple[Record, str, str, str]:
    seq, wall_ns, kind, table_id, table_seq, message_id, progressive, body, prev, digest = row
    try:
        parsed = json.loads(body)
    except (TypeError, ValueError):
        raise StoreCorrupt(f"{path}: record {seq}: its body is not JSON") from None
    return (
        Record(seq, wall_ns, kind, table_id, table_seq, message_id, progressive, parsed),
        body,
        prev,
        digest,
    )


def iter_records(
    conn: sqlite3.Connection, path: Path, after: int = 0
) -> Iterator[tuple[Record, str, str, str]]:
    try:
        cursor = conn.execute(f"SELECT {_COLUMNS} FROM records WHERE seq > ? ORDER BY seq", (after,))
        for row in cursor:
            yield _row_record(row, path)
    except sqlite3.DatabaseError as exc:
        raise StoreCorrupt(f"{path}: cannot read the records: {exc}") from None


def verify(conn: sqlite3.Connection, path: Path) -> tuple[Ledger, str]:
    """Check the chain and fold every record; the ledger and the last hash, or :class:`StoreCorrupt`."""
    problems = [r[0] for r in conn.execute("PRAGMA quick_check").fetchall()]
    if problems != ["ok"]:
        raise StoreCorrupt(f"{path}: SQLite's check of the file: {'; '.join(problems[:5])}")
    ledger = Ledger()
    prev = GENESIS
    conn.execute("BEGIN")
    try:
        for record, body, stored_prev, digest in iter_records(conn, path):
            where = f"{path}: record {record.seq} ({record.kind})"
            if stored_prev != prev:
                raise StoreCorrupt(f"{where}: does not follow the hash of the record before it")
            again = record_hash(prev, record.seq, record.wall_ns, record.kind, record.table_id,
                                record.table_seq, record.message_id, record.progressive, body)  # fmt: skip
            if again != digest:
                raise StoreCorrupt(f"{where}: its hash does not match what it holds: it was changed")
            try:
                fold(ledger, record)
            except FoldError as exc:
                raise StoreCorrupt(f"{path}: {exc}") from None
            prev = digest
        _check_state(conn, path, ledger)
    finally:
        conn.execute("COMMIT")
    return ledger, prev


def _check_state(conn: sqlite3.Connection, path: Path, ledger: Ledger) -> None:
    rows = conn.execute(
        "SELECT id, amount, carry, record_seq, contributions, wagers, wagered, awards, paid "
        "FROM progressive_state"
    ).fetchall()
    kept = {r[0]: tuple(r[1:]) for r in rows}
    folded = {
        p.id: (p.amount, str(p.carry), p.record_seq, p.contributions, p.wagers, p.wagered, p.awards, p.paid)
        for p in ledger.progressives.values()
    }
    for pid in sorted(set(kept) | set(folded)):
        if kept.get(pid) != folded.get(pid):
            raise StoreCorrupt(
                f"{path}: progressive {pid!r}: the state kept {kept.get(pid)} "
                f"is not the records' {folded.get(pid)}"
            )
    if conn.execute("SELECT 1 FROM sqlite_schema WHERE name = 'overflow_state'").fetchone():
        held_kept = {r[0]: tuple(r[1:]) for r in conn.execute(
            "SELECT id, ceiling, overflow, held, over_ceiling, record_seq FROM overflow_state"
        )}  # fmt: skip
        held_folded = {
            p.id: (p.ceiling, p.overflow, p.held, p.over_ceiling, p.record_seq)
            for p in ledger.progressives.values()
            if p.ceiling is not None
        }
        for pid in sorted(set(held_kept) | set(held_folded)):
            if held_kept.get(pid) != held_folded.get(pid):
                raise StoreCorrupt(
                    f"{path}: progressive {pid!r}: the overflow kept {held_kept.get(pid)} "
                    f"is not the records' {held_folded.get(pid)}"
                )
    tables = {r[0]: r[1] for r in conn.execute("SELECT id, applied_seq FROM table_state")}
    for tid in sorted(set(tables) | set(ledger.tables)):
        want = ledger.tables[tid].applied_seq if tid in ledger.tables else None
        if tables.get(tid) != want:
            raise StoreCorrupt(
                f"{path}: table {tid!r}: applied seq kept {tables.get(tid)}, the records give {want}"
            )


@dataclass(frozen=True)
class Applied:
    """A table's message made into a record (or a duplicate of one already made)."""

    message: Item
    record: Record
    reply: Award | Refusal | Closed | None
    duplicate: bool = False


def _lock(path: Path) -> TextIO:
    lock_path = path.with_name(path.name + ".lock")
    handle = open(lock_path, "a+")  # noqa: SIM115 - held for the store's life; the kernel frees it at exit
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "unknown"
        handle.close()
        raise StoreBusy(f"{path}: the meter store is open by another meter process (pid {holder})") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


class Store:
    """The one writer of a meter store. Blocking: the service calls it from a thread, one call at a time."""

    def __init__(self, path: Path, config: MeterConfig) -> None:
        self.path = path
        self.config = config
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = _lock(path)
        self.conn = _connect(path, read_only=False)
        try:
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = FULL")
            _check_schema(self.conn, path, create=True)
            for statement in _statements(OVERFLOW_SCHEMA):
                self.conn.execute(statement)
            self.ledger, self._last_hash = verify(self.conn, path)
            self._open_progressives()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self.conn.close()
        self._lock.close()

    # -- the configuration against the records --

    def _open_progressives(self) -> None:
        drafts = []
        for pid, params in sorted(self.config.progressives.items()):
            state = self.ledger.progressives.get(pid)
            ceiling = self.config.ceilings.get(pid)
            if state is None:
                extra = {} if ceiling is None else {
                    "ceiling": format_money(ceiling.amount), "overflow": ceiling.overflow,
                }  # fmt: skip
                drafts.append(Draft(OPENED, pid, {"progressive": pid, **params.to_json(), **extra}))
                continue
            for name, ours, theirs in (
                ("initial", format_money(params.initial), format_money(state.params.initial)),
                ("reset", format_money(params.reset), format_money(state.params.reset)),
                ("rate_of_progression", _rate(params.rate), _rate(state.params.rate)),
                (
                    "ceiling",
                    _maybe_money(None if ceiling is None else ceiling.amount),
                    _maybe_money(state.ceiling),
                ),
                (
                    "overflow",
                    _own(None if ceiling is None else ceiling.overflow, ceiling),
                    _own(state.overflow, state.ceiling),
                ),
            ):
                if ours != theirs:
                    raise ConfigMismatch(
                        f"{self.config.path}: [progressives.{pid}] {name}: {ours} in the configuration, "
                        f"but the meter has run it at {theirs} since record {state.opened_seq}; "
                        "the parameters of a running progressive are those filed (§ 639a.12(d)(3)): a new "
                        "progressive id starts a new meter"
                    )
        if drafts:
            self._commit(drafts, time.time_ns())

    # -- applying --

    def applied_seqs(self) -> dict[str, int]:
        return {t.id: t.applied_seq for t in self.ledger.tables.values()}

    def apply(self, messages: Sequence[Item], wall_ns: int | None = None) -> list[Applied]:
        """Make each message (each the next of its table, in order) a record.

        One transaction for them all (one fsync); if one of them cannot be applied (an error the
        meter's own checks did not foresee), the transaction is rolled back and each message is
        applied alone, in its own transaction, the one that fails refused with the error as its
        reason: one message never stops the meter, nor holds back those behind it.
        :class:`StoreFailed` if the store itself fails (nothing of the batch is then recorded).
        """
        if not messages:
            return []
        wall = wall_ns or time.time_ns()
        try:
            records = self._commit(messages, wall)
        except Exception as exc:
            if _store_failure(exc):
                raise StoreFailed(f"{self.path}: the store could not be written: {exc}") from exc
            log.warning(
                "a batch of %d messages could not be applied whole (%s: %s): each alone, in turn",
                len(messages), type(exc).__name__, clip(str(exc), 200),
            )  # fmt: skip
            records = [self._alone(m, wall) for m in messages]
        return [Applied(m, r, reply(r)) for m, r in zip(messages, records, strict=True)]

    def _alone(self, message: Item, wall_ns: int) -> Record:
        try:
            return self._commit([message], wall_ns)[0]
        except Exception as exc:
            if _store_failure(exc):
                raise StoreFailed(f"{self.path}: the store could not be written: {exc}") from exc
            why = f"the meter could not apply it ({type(exc).__name__}: {exc})"
            try:
                return self._commit([message], wall_ns, refused(message, "message", why))[0]
            except Exception as again:
                raise StoreFailed(f"{self.path}: a refusal could not be recorded: {again}") from again

    def _id_used_by(self, message_id: str) -> int | None:
        """The record (not a refusal) that carries ``message_id`` already, if one does."""
        row = self.conn.execute(
            "SELECT seq FROM records WHERE message_id = ? AND message_id IS NOT NULL AND kind <> 'refused'",
            (message_id,),
        ).fetchone()
        return None if row is None else int(row[0])

    def _commit(
        self, items: Sequence[Item | Draft], wall_ns: int, instead: Draft | None = None
    ) -> list[Record]:
        """Decide, fold and write each item on a copy of the ledger; it replaces the ledger at
        COMMIT. ``instead``: the record the one item makes (a refusal), not the one it decides."""
        ledger = self.ledger.copy()
        prev = self._last_hash
        out = []
        conn = self.conn
        # The state rows are written once per transaction (the last record's state), and at once
        # after an award: the trigger lets a meter be lowered only by the award's own record.
        progressives: set[str] = set()
        tables: set[str] = set()
        conn.execute("BEGIN IMMEDIATE")
        try:
            for item in items:
                seq = ledger.last_seq + 1
                if isinstance(item, Draft):
                    record = Record(seq, wall_ns, item.kind, None, None, None, item.progressive, item.body)
                    digest = self._insert(record, prev)
                else:
                    d = instead or decide(ledger, self.config, item)
                    record = Record(
                        seq, wall_ns, d.kind, item.table, item.seq, item.message_id, d.progressive, d.body
                    )
                    try:
                        digest = self._insert(record, prev)
                    except sqlite3.IntegrityError as exc:
                        # A message id already used (the unique index refuses the INSERT alone, the
                        # transaction goes on): this message is refused instead, naming the record.
                        if instead is not None or "records.message_id" not in str(exc):
                            raise
                        d = decide(ledger, self.config, item, self._id_used_by(item.message_id))
                        record = dataclasses.replace(
                            record, kind=d.kind, progressive=d.progressive, body=d.body
                        )
                        digest = self._insert(record, prev)
                fold(ledger, record)
                if record.progressive is not None and record.progressive in ledger.progressives:
                    progressives.add(record.progressive)
                    overflow = ledger.progressives[record.progressive].overflow
                    if overflow is not None and overflow in ledger.progressives:
                        progressives.add(overflow)  # the excess past the ceiling went on it
                    if record.kind == AWARD:
                        self._write_progressive(ledger, record.progressive)
                if record.table_id is not None:
                    tables.add(record.table_id)
                prev = digest
                out.append(record)
            for pid in sorted(progressives):
                self._write_progressive(ledger, pid)
            for table in sorted(tables):
                self._write_table(ledger, table)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self.ledger, self._last_hash = ledger, prev
        return out

    def _insert(self, record: Record, prev: str) -> str:
        """Write ``record`` after the one whose hash is ``prev``; its own hash."""
        body = _dumps(dict(record.body))
        digest = record_hash(
            prev, record.seq, record.wall_ns, record.kind, record.table_id,
            record.table_seq, record.message_id, record.progressive, body,
        )  # fmt: skip
        self.conn.execute(
            f"INSERT INTO records ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (record.seq, record.wall_ns, record.kind, record.table_id, record.table_seq, record.message_id,
             record.progressive, body, prev, digest),
        )  # fmt: skip
        return digest

    def _write_progressive(self, ledger: Ledger, pid: str) -> None:
        p = ledger.progressives[pid]
        self.conn.execute(
            "INSERT INTO progressive_state VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET amount = excluded.amount, carry = excluded.carry, "
            "record_seq = excluded.record_seq, contributions = excluded.contributions, "
            "wagers = excluded.wagers, wagered = excluded.wagered, "
            "awards = excluded.awards, paid = excluded.paid",
            (
                p.id,
                p.amount,
                str(p.carry),
                p.record_seq,
                p.contributions,
                p.wagers,
                p.wagered,
                p.awards,
                p.paid,
            ),
        )
        if p.ceiling is not None:
            self.conn.execute(
                "INSERT INTO overflow_state VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
                "held = excluded.held, over_ceiling = excluded.over_ceiling, "
                "record_seq = excluded.record_seq",
                (p.id, p.ceiling, p.overflow, p.held, p.over_ceiling, p.record_seq),
            )

    def _write_table(self, ledger: Ledger, table: str) -> None:
        t = ledger.tables[table]
        self.conn.execute(
            "INSERT INTO table_state VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
            "applied_seq = excluded.applied_seq, verdict = excluded.verdict, "
            "accepted = excluded.accepted",
            (
                t.id,
                t.applied_seq,
                None if t.verdict is None else _dumps(t.verdict.to_json()),
                _dumps(sorted(t.accepted)),
            ),
        )

    def earlier(self, table: str, seq: int) -> Record | None:
        """The record a table's message made, by its dedup key (for a duplicate)."""
        row = self.conn.execute(
            f"SELECT {_COLUMNS} FROM records WHERE table_id = ? AND table_seq = ?", (table, seq)
        ).fetchone()
        return None if row is None else _row_record(row, self.path)[0]

    def duplicate(self, message: Item) -> Applied | None:
        """The earlier record of a message sent again, with its reply again (an award is re-sent)."""
        record = self.earlier(message.table, message.seq)
        if record is None:
            return None
        return Applied(message, record, reply(record), duplicate=True)


# --- reading, while the meter runs (status, history) ------------------------------------------


def open_read_only(path: Path) -> sqlite3.Connection:
    if not path.exists():
        raise StoreError(f"{path}: no meter store there (check [store] path)")
    conn = _connect(path, read_only=True)
    _check_schema(conn, path, create=False)
    return conn


def _rate(rate: Fraction) -> str:
    return wf.format_percent(rate) + "%"


def _maybe_money(cents: int | None) -> str:
    return "none" if cents is None else format_money(cents)


def _own(overflow: str | None, ceiling: object) -> str:
    """An overflow as the refusal names it: another progressive, its own overflow meter, or none."""
    if ceiling is None:
        return "none"
    return overflow if overflow is not None else "its own overflow meter"
