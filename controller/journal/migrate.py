"""Moving a journal's schema forward to this software's (docs/journal.md "Schema versions").

An upgrade of the package runs ``tablectl journal migrate`` before the daemon starts
(docs/install.md). Each step :data:`MIGRATIONS` ``[n]`` takes a journal from version ``n`` to
``n + 1`` inside one transaction, with the writer's lock held (the daemon stopped), and records
itself in the journal's ``meta`` table (``migrated_<n>_to_<n+1>_wall_ns``); the whole chain is
verified after the last step. Only forward: a journal newer than this software is refused before
anything is touched, and so is one older than the first version a step exists from (version 2
and before have no hash chain to carry forward: docs/journal.md).

Version 3 is the first schema with a hash chain; version 4 (this software's) is that chain keyed
(HMAC-SHA256 under the table's chain key, :mod:`.keying`). The step from 3 to 4 is the keying: an
unkeyed journal's next record is the ``chain_keyed`` fact, journaled here as the daemon journals it
at its start (source ``daemon``: the package's upgrade runs this, no person), then
:func:`.schema.keyed_chain_step` says version 4.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from .errors import JournalError, JournalVersionError
from .facade import Journal
from .reader import JournalReader
from .schema import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    chain_keyed_from,
    connect,
    keyed_chain_step,
    newer_refusal,
    run_step,
)
from .store import lock_writer

Step = Callable[[sqlite3.Connection], None]

#: from version -> the step to version + 1 (its DDL and data changes, no COMMIT of its own).
MIGRATIONS: Final[Mapping[int, Step]] = {3: keyed_chain_step}
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
    found = _key_first(path, migrations, target)
    lock = lock_writer(path)
    try:
        conn = connect(path, read_only=False)
        try:
            now = _version(conn, path)
            found = min(found, now)
            if found > target:
                raise JournalVersionError(newer_refusal(path, found, target))
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
            for version in range(now, target):
                run_step(conn, version, migrations[version])
        finally:
            conn.close()
        with JournalReader(path) as reader:
            state = reader.verify()
        return Migrated(path, found, target, state.last_seq)
    finally:
        lock.close()


def _key_first(path: Path, migrations: Mapping[int, Step], target: int) -> int:
    """The journal's version; an unkeyed one of version 3 keyed first (its ``chain_keyed`` fact
    journaled by the facade, which takes the writer's lock itself and moves it to 4)."""
    conn = connect(path, read_only=True)
    try:
        found = _version(conn, path)
        if found != 3 or target < 4 or migrations.get(3) is not keyed_chain_step:
            return found
        if chain_keyed_from(conn, path) is not None:
            return found
        row = conn.execute("SELECT value FROM meta WHERE key = 'table_id'").fetchone()
    finally:
        conn.close()
    if row is None:
        raise JournalError(f"{path}: the journal does not name its table")

    async def key() -> None:
        journal = await Journal.open(path, str(row[0]), create=False, migrated_by=("daemon", None))
        await journal.close()

    asyncio.run(key())
    return found


def _version(conn: sqlite3.Connection, path: Path) -> int:
    try:
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        raise JournalError(f"{path}: not a journal (SQLite says: {exc})") from None
    if app != APPLICATION_ID:
        raise JournalError(f"{path}: not a table controller journal (application_id {app:#x})")
    return version
