"""The check at every start (and ``tablectl journal verify``): the chain whole, and not behind its marker.

:func:`check_integrity` walks the hash chain from seq 1 (:mod:`.chain`) and compares its head with
the marker kept outside the database (:mod:`.marker`). A journal that fails either is refused
with :class:`JournalCorrupt` naming the first bad seq, or what was lost, and what to do: nothing
starts on records that were altered or lost (docs/journal.md "Integrity").
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import Final

from .chain import ChainHead, hash_at, walk
from .chain_key import ChainKey
from .errors import JournalCorrupt
from .marker import HeadMarker, marker_path, read_marker
from .queries import read_snapshot
from .schema import chain_genesis, chain_keyed_from

WHAT_TO_DO: Final = (
    "do not start the table on it: keep the file and its -wal for the investigation, "
    "and call the technician (docs/journal.md, 'A journal refused at start')"
)


def check_integrity(
    conn: sqlite3.Connection,
    path: Path,
    table_id: str,
    key: ChainKey | None,
    *,
    unkeyed_marker: bool = False,
) -> tuple[ChainHead, HeadMarker]:
    """The chain's head and the marker, once both are shown to agree; else :class:`JournalCorrupt`.

    The chain and the marker are checked under ``key`` (the table's chain key); ``key`` ``None``,
    or ``unkeyed_marker``, only for a journal made before the chain was keyed, being migrated.
    """
    # The marker first, then the snapshot: a daemon writing meanwhile only puts the marker
    # behind the snapshot, never ahead of it.
    marker = read_marker(path, key, unkeyed_too=unkeyed_marker)
    with read_snapshot(conn, path):
        keyed_from = chain_keyed_from(conn, path)
        if keyed_from is not None and key is None:
            raise JournalCorrupt(
                f"{path}: the journal's chain is keyed; it is checked with the table's chain key"
            )
        head = walk(conn, path, chain_genesis(conn, path), key, keyed_from or sys.maxsize)
        if marker is None:
            raise JournalCorrupt(
                f"{path}: the journal's head marker {marker_path(path).name} is missing, so nothing shows "
                f"the journal holds every committed record; {WHAT_TO_DO}"
            )
        if marker.table_id != table_id:
            raise JournalCorrupt(
                f"{marker_path(path)}: the head marker is table {marker.table_id!r}'s, not {table_id!r}'s"
            )
        committed = marker.head
        if head.seq < committed.seq:
            raise JournalCorrupt(
                f"{path}: the journal ends at seq {head.seq}, but seq {committed.seq} was committed "
                f"(its head marker): {committed.seq - head.seq} committed record(s) are missing (a lost, "
                f"torn or rolled-back -wal, or an older copy of the file); {WHAT_TO_DO}"
            )
        stored = head.hash if committed.seq == head.seq else hash_at(conn, path, committed.seq)
        if committed.seq == 0:
            stored = chain_genesis(conn, path)
        if stored != committed.hash:
            raise JournalCorrupt(
                f"{path}: seq {committed.seq} is not the record that was committed (its hash differs from "
                f"the head marker's): another or an older copy of the journal; {WHAT_TO_DO}"
            )
    return head, marker
