"""Which chain key a journal is checked and written with, and the migration of an unkeyed journal.

A journal is keyed from its first record (created so), or from the ``chain_keyed`` fact a
migration journaled (:func:`.schema.chain_keyed_from`); one made before the chain was keyed has
neither. The rules (docs/journal.md, "The chain key"):

- a keyed journal needs the table's key (:func:`.chain_key.key_path`): missing, it is refused;
- a new journal with no key makes it (the daemon's first start; ``tablectl journal key`` makes it
  before);
- an unkeyed journal where the table's key exists is refused: a journal once keyed is never
  unkeyed, so that is one rewritten without the key (or another journal);
- an unkeyed journal where no key exists is migrated forward, once: the key is made as
  ``<key>.new``, the journal's next record is the ``chain_keyed`` fact (its first keyed record,
  naming the unkeyed head), and only then is the key renamed into place. A crash in between leaves
  either the unkeyed journal and the ``.new`` key (the migration runs again with it) or the fact
  and the ``.new`` key (the rename is finished at the next open).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .chain_key import ChainKey, key_path, load_key, make_key
from .errors import JournalCorrupt
from .marker import sync_directory
from .schema import chain_keyed_from


@dataclass(frozen=True)
class TableKey:
    """The key to check and write ``path`` with; ``pending``: the journal is not keyed yet and is
    migrated with this key, made at ``pending`` and renamed to the table's key once the
    ``chain_keyed`` fact is committed (:func:`finish_migration`)."""

    key: ChainKey | None
    keyed_from: int | None
    pending: Path | None = None

    @property
    def migrate(self) -> bool:
        return self.keyed_from is None and self.key is not None


def pending_path(path: Path, table_id: str) -> Path:
    final = key_path(path, table_id)
    return final.with_name(final.name + ".new")


def resolve_key(
    conn: sqlite3.Connection, path: Path, table_id: str, *, given: ChainKey | None, writing: bool, new: bool
) -> TableKey:
    """The key for the journal ``path`` (``given``, else the table's key file); ``writing``: the
    daemon opening it (may make the key, migrate, finish a migration), else a read-only check
    (``tablectl journal verify``), which changes no file."""
    keyed_from = chain_keyed_from(conn, path)
    if given is not None:
        return TableKey(given, keyed_from)
    final, pending = key_path(path, table_id), pending_path(path, table_id)
    if keyed_from is not None:
        if not final.exists() and pending.exists():
            # A migration cut off after its fact was committed: its key is the pending one.
            if not writing:
                return TableKey(load_key(pending, table_id), keyed_from)
            os.replace(pending, final)
            sync_directory(path)
        if new and writing and not final.exists():
            return TableKey(make_key(final, table_id), keyed_from)
        return TableKey(load_key(final, table_id), keyed_from)
    if final.exists():
        raise JournalCorrupt(
            f"{path}: the journal's chain is not keyed, yet table {table_id}'s chain key {final.name} "
            "exists: a journal keyed once is never unkeyed, so this one was rewritten without the key "
            "(or is another journal); do not start the table on it: keep the file and its -wal for "
            "the investigation, and call the technician (docs/journal.md, 'The chain key')"
        )
    if not writing:
        return TableKey(None, None)
    key = load_key(pending, table_id) if pending.exists() else make_key(pending, table_id)
    return TableKey(key, None, pending)


def finish_migration(table_key: TableKey, path: Path, table_id: str) -> None:
    """The ``chain_keyed`` fact is committed: the pending key becomes the table's key."""
    if table_key.pending is not None:
        final = key_path(path, table_id)
        os.replace(table_key.pending, final)
        sync_directory(path)
