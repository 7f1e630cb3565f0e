"""Moving a journal's schema forward to this software's (docs/journal.md "Schema versions").

An upgrade of the package runs ``tablectl journal migrate`` before the daemon starts
(docs/install.md). Each step :data:`MIGRATIONS` ``[n]`` takes a journal from version ``n`` to
``n + 1`` inside one transaction, with the writer's lock held (the daemon stopped), and records
itself in the journal's ``meta`` table (``migrated_<n>_to_<n+1>_wall_ns``); the whole chain is
verified after the last step. Only forward: a journal newer than this software is refused before
anything is touched, and so is one older than the first version a step exists from (version 2
and before have no hash chain to carry forward: docs/journal.md).

Version 3 is the first schema with a hash chain, and this software's: no step exists yet, so a
journal of version 3 is left as it is.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from .errors import JournalError, JournalVersionError
from .reader import JournalReader
from .schema import APPLICATION_ID, SCHEMA_VERSION, connect
from .store import lock_writer

Step = Callable[[sqlite3.Connection], None]

#: from version -> the step to version + 1 (its DDL and data changes, no COMMIT of its own).
MIGRATIONS: Final[Mapping[int, Step]] = {}
#: The oldest version a journal can be moved forward from: the first with a hash chain.
OLDEST_MIGRATABLE: Final = 3


@dataclass(frozen=True)
class Migrated:
    path: Path
    from_version: int
    to_version: int
    records: int


def migrate(
    path: Path,
    migrations: Mapping[int, Step] = MIGRATIONS,
    target: int = SCHEMA_VERSION,
    oldest: int = OLDEST_MIGRATABLE,
) -> Migrated:
    """Move ``path`` forward to ``target``, step by step, then verify its chain; or refuse.
    ``migrations``, ``target`` and ``oldest`` are this software's unless a test gives its own."""
    lock = lock_writer(path)
    try:
        conn = connect(path, read_only=False)
        try:
            found = _version(conn, path)
            if found > target:
                raise JournalVersionError(
                    f"{path}: journal schema version {found} is newer than this software's ({target}); "
                    "nothing changed: run the version that wrote it, or a newer one"
                )
            if found < oldest:
                raise JournalVersionError(
                    f"{path}: journal schema version {found} has no hash chain and cannot be moved "
                    f"forward; keep it as the table's record and start a new journal (docs/journal.md)"
                )
            missing = [v for v in range(found, target) if v not in migrations]
            if missing:
                raise JournalVersionError(
                    f"{path}: no migration from schema version {missing[0]} to {missing[0] + 1}; "
                    "nothing changed"
                )
            for version in range(found, target):
                _step(conn, version, migrations[version])
        finally:
            conn.close()
        with JournalReader(path) as reader:
            state = reader.verify()
        return Migrated(path, found, target, state.last_seq)
    finally:
        lock.close()


def _version(conn: sqlite3.Connection, path: Path) -> int:
    try:
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        raise JournalError(f"{path}: not a journal (SQLite says: {exc})") from None
    if app != APPLICATION_ID:
        raise JournalError(f"{path}: not a table controller journal (application_id {app:#x})")
    return version


def _step(conn: sqlite3.Connection, version: int, step: Step) -> None:
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
