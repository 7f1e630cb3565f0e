"""The journal's schema: the SQLite tables, their triggers, the version, and opening a file.

``SCHEMA`` is the DDL of a new journal; :data:`SCHEMA_VERSION` (``PRAGMA user_version``) and
:data:`APPLICATION_ID` (``PRAGMA application_id``) mark a file as a journal this software reads;
:func:`schema_check` refuses any other, naming the file and what to do (docs/journal.md).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final
from urllib.parse import quote

from .chain import GENESIS
from .errors import UNREADABLE, JournalCorrupt, JournalError, JournalVersionError
from .records import KINDS

SCHEMA_VERSION: Final = 4
"""``PRAGMA user_version`` of a journal this software writes (3: the hash chain; 4: the chain keyed,
HMAC-SHA256 under the table's chain key, :mod:`.chain_key`)."""
OLDEST_READ: Final = 3
"""The oldest version read: a journal of version 3 is moved to 4 by the keying (:func:`keyed_chain_step`)."""
APPLICATION_ID: Final = 0x54424C4A  # "TBLJ": ``PRAGMA application_id`` marks the file as ours


SYNCHRONOUS: Final = ("FULL", "EXTRA", "NORMAL", "OFF")


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
    body     TEXT    NOT NULL CHECK (json_valid(body)),
    -- SHA-256 (hex) over the previous record's hash and this one's bytes (chain.py).
    hash     TEXT    NOT NULL CHECK (length(hash) = 64)
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

COLUMNS: Final = "seq, event_id, wall_ns, mono_ns, source, actor, round_id, kind, body"
INSERT_EVENT: Final = f"INSERT INTO events ({COLUMNS}, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
INSERT_OUTBOX: Final = "INSERT INTO outbox (seq, message_id, event_seq, kind, payload) VALUES (?, ?, ?, ?, ?)"
OUTBOX_COLUMNS: Final = (
    "o.seq, o.message_id, o.event_seq, e.event_id, e.round_id, o.kind, o.payload, o.sent_wall_ns, e.hash"
)


# --- opening ---------------------------------------------------------------------------------


def connect(path: Path, read_only: bool) -> sqlite3.Connection:
    uri = f"file:{quote(str(path))}?mode={'ro' if read_only else 'rw'}"
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False, timeout=10.0)
    except sqlite3.Error as exc:
        raise JournalError(f"{path}: cannot open the journal: {exc}") from None
    return conn


def schema_check(
    conn: sqlite3.Connection,
    path: Path,
    table_id: str | None,
    create: bool,
    genesis: str = GENESIS,
    meta: Mapping[str, str] | None = None,
) -> str:
    """The journal's table id, after checking the file is a journal this software reads."""
    try:
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
    except UNREADABLE as exc:
        raise JournalCorrupt(f"{path}: not a journal (SQLite says: {exc})") from None
    if app == 0 and version == 0 and tables == 0:
        if not create:
            raise JournalError(f"{path}: an empty file, not a journal")
        if not table_id:
            raise JournalError(f"{path}: a new journal needs the table id")
        _create(conn, table_id, genesis, meta or {})
        return table_id
    if app != APPLICATION_ID:
        raise JournalError(
            f"{path}: a SQLite file, but not a table controller journal (application_id {app:#x})"
        )
    if version > SCHEMA_VERSION:
        raise JournalVersionError(newer_refusal(path, version, SCHEMA_VERSION))
    if version < OLDEST_READ:
        raise JournalVersionError(
            f"{path}: journal schema version {version} is older than this software reads ({OLDEST_READ}): "
            "it has no hash chain, so nothing shows it was not altered; keep it as the table's record "
            "(move it aside, with its -wal), then start the daemon on a new journal (docs/journal.md)"
        )
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'table_id'").fetchone()
    except UNREADABLE as exc:
        raise JournalCorrupt(f"{path}: the journal's meta table cannot be read: {exc}") from None
    if row is None:
        raise JournalCorrupt(f"{path}: the journal does not name its table")
    if table_id is not None and row[0] != table_id:
        raise JournalError(
            f"{path}: this journal belongs to table {row[0]!r}, not {table_id!r}; "
            "check table.id and journal.path in the configuration"
        )
    return str(row[0])


def newer_refusal(path: Path, found: int, ours: int) -> str:
    """Why a journal of a schema newer than this release's is refused, and what to do (nothing on
    disk is changed: docs/install.md, "Roll back")."""
    return (
        f"{path}: journal schema {found} is newer than this release ({ours}): install the newer "
        "release again, or keep this journal (with its -wal) as the table's record, moved aside, "
        "and start this release on a new one (a RAM clear: docs/install.md, 'Roll back'); "
        "nothing was changed"
    )


def keyed_chain_step(conn: sqlite3.Connection) -> None:
    """The step from schema 3 to 4: the chain keyed. The keying itself is a record (the
    ``chain_keyed`` fact the daemon or ``tablectl journal migrate`` journals first, :mod:`.keying`);
    this step is refused until the journal is keyed, so version 4 always means keyed."""
    if chain_keyed_from(conn, Path(conn.execute("PRAGMA database_list").fetchone()[2])) is None:
        raise JournalVersionError("the journal's chain is not keyed yet: schema 4 is the keyed chain")


def run_step(conn: sqlite3.Connection, version: int, step: Callable[[sqlite3.Connection], None]) -> None:
    """``step`` from ``version`` to ``version + 1`` in one transaction, recorded in ``meta``
    (``migrated_<n>_to_<n+1>_wall_ns``) with the new ``user_version``; all of it or nothing."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        step(conn)
        conn.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?)",
            (f"migrated_{version}_to_{version + 1}_wall_ns", str(time.time_ns())),
        )
        conn.execute(f"PRAGMA user_version = {version + 1}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def chain_genesis(conn: sqlite3.Connection, path: Path) -> str:
    """What the journal's seq 1 chains to (``meta.chain_genesis``)."""
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'chain_genesis'").fetchone()
    except UNREADABLE as exc:
        raise JournalCorrupt(f"{path}: the journal's meta table cannot be read: {exc}") from None
    if row is None:
        raise JournalCorrupt(
            f"{path}: the journal does not say what its chain begins from (meta.chain_genesis)"
        )
    return str(row[0])


CHAIN_KEYED: Final = "chain_keyed"
"""The ``hardware_fact`` (device ``journal``) a journal migrated to the keyed chain begins it with."""


def chain_keyed_from(conn: sqlite3.Connection, path: Path) -> int | None:
    """The first seq whose hash is keyed: ``meta.chain_keyed_from`` (1: created keyed), else the
    seq of the ``chain_keyed`` fact of a journal migrated to the keyed chain, else ``None`` (a
    journal made before the chain was keyed, not yet migrated)."""
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'chain_keyed_from'").fetchone()
        if row is None:
            row = conn.execute(
                "SELECT min(seq) FROM events WHERE kind = 'hardware_fact' "
                "AND json_extract(body, '$.device') = 'journal' AND json_extract(body, '$.fact') = ?",
                (CHAIN_KEYED,),
            ).fetchone()
    except UNREADABLE as exc:
        raise JournalCorrupt(f"{path}: the journal's meta table cannot be read: {exc}") from None
    if row is None or row[0] is None:
        return None
    try:
        return int(row[0])
    except ValueError:
        raise JournalCorrupt(f"{path}: meta.chain_keyed_from is not a seq: {row[0]!r}") from None


def _create(conn: sqlite3.Connection, table_id: str, genesis: str, meta: Mapping[str, str]) -> None:
    conn.execute("BEGIN IMMEDIATE")
    try:
        for statement in _statements(SCHEMA):
            conn.execute(statement)
        conn.execute("INSERT INTO meta (key, value) VALUES ('table_id', ?)", (table_id,))
        conn.execute("INSERT INTO meta (key, value) VALUES ('created_wall_ns', ?)", (str(time.time_ns()),))
        conn.execute("INSERT INTO meta (key, value) VALUES ('chain_genesis', ?)", (genesis,))
        # Keyed from its first record (HMAC-SHA256 under the table's chain key, chain_key.py).
        conn.execute("INSERT INTO meta (key, value) VALUES ('chain_keyed_from', '1')")
        for key, value in meta.items():
            conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, value))
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
