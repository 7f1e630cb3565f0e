"""How the progressive link counts a journal that follows a RAM clear: on from the archive's.

The central meter applies a table's messages in their seq order and keeps, as its witness, the
last journal chain head (seq, keyed hash) the table sent (docs/progressive-link.md, "The
witness"). A RAM clear (:mod:`.ram_clear`) begins a new journal whose records and outbox messages
are numbered from 1 again; counted so, the meter would take the new journal for an older copy put
back (it holds seqs the new one does not reach: "behind"), and drop its first messages as ones it
has applied. So the new journal's first record, ``ram_clear``, says where the archive ended on
the link's count (``link_seq``: its last record; ``link_outbox_seq``: its last outbox message),
and the link counts this journal on from there: record ``n`` is ``link_seq + n`` on the wire,
outbox message ``n`` is ``link_outbox_seq + n``. The ``ram_clear`` record is in the keyed chain,
so the count cannot be changed without the key. A journal with no RAM clear, or one cleared
before the count was kept, counts from 0 (as before).

:func:`witnessed` answers the table's question for the meter's witness: which record of this
journal, or of the archive before it, is the witness's seq on the link's count, and its hash.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from .chain import hash_at
from .errors import UNREADABLE, JournalError
from .records import RAM_CLEAR
from .schema import connect

#: The archives looked through for a witness older than a RAM clear (one per RAM clear).
MAX_ARCHIVES: Final = 16


@dataclass(frozen=True)
class LinkCount:
    """Where this journal's numbering stands on the link's count (0 and 0: from the start)."""

    seq_base: int = 0
    """The archive's last record on the link's count: this journal's record ``n`` is
    ``seq_base + n``."""
    outbox_base: int = 0
    """The archive's last outbox message on the link's count."""
    previous_journal: str | None = None
    """The archive's file name (beside this journal), if this journal follows a RAM clear."""
    previous_hash: str | None = None
    """The keyed hash of the archive's last record (this journal's chain begins from it)."""

    def link_seq(self, seq: int) -> int:
        """This journal's record ``seq`` on the link's count."""
        return self.seq_base + seq

    def link_outbox_seq(self, seq: int) -> int:
        """This journal's outbox message ``seq`` on the link's count."""
        return self.outbox_base + seq

    def local_outbox_seq(self, link_seq: int) -> int:
        """The outbox seq of this journal that is ``link_seq`` on the link's count (0: before it)."""
        return max(0, link_seq - self.outbox_base)


FROM_START: Final = LinkCount()
"""The count of a journal no RAM clear began (or one cleared before the count was kept)."""


def link_count(conn: sqlite3.Connection, path: Path) -> LinkCount:
    """The link's count of the journal open on ``conn``: from its first record if a RAM clear."""
    try:
        row = conn.execute("SELECT kind, body FROM events WHERE seq = 1").fetchone()
    except UNREADABLE as exc:
        raise JournalError(f"{path}: the journal's first record cannot be read: {exc}") from None
    if row is None or row[0] != RAM_CLEAR:
        return FROM_START
    body = json.loads(row[1])
    seq, outbox = body.get("link_seq", 0), body.get("link_outbox_seq", 0)
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (seq, outbox)):
        raise JournalError(f"{path}: seq 1 (ram_clear): link_seq and link_outbox_seq must be seqs")
    return LinkCount(seq, outbox, str(body["previous_journal"]), str(body["previous_hash"]))


@dataclass(frozen=True)
class Witnessed:
    """What the journal holds at a witness's seq (on the link's count)."""

    hash: str | None
    """The keyed hash of that record; ``None``: the journal does not reach it (behind)."""
    where: str
    """Which file holds it, in words: ``"the journal"``, or the archive a RAM clear left."""
    checked: bool = True
    """``False``: the record is in an archive that is no longer beside the journal, so it cannot
    be compared (the new journal's chain still begins from the archive's last hash)."""


def witnessed(
    conn: sqlite3.Connection, path: Path, count: LinkCount, link_seq: int, depth: int = 0
) -> Witnessed:
    """The record at ``link_seq`` on the link's count, in this journal or the archives before it."""
    local = link_seq - count.seq_base
    if local >= 1 or count.previous_journal is None:
        return Witnessed(hash_at(conn, path, local) if local >= 1 else None, f"the journal {path.name}")
    if local == 0:
        return Witnessed(count.previous_hash, f"the archive {count.previous_journal} (its last record)")
    archive = path.with_name(count.previous_journal)
    if depth >= MAX_ARCHIVES or not archive.exists():
        return Witnessed(None, f"the archive {count.previous_journal}, not beside the journal", False)
    older = connect(archive, read_only=True)
    try:
        return witnessed(older, archive, link_count(older, archive), link_seq, depth + 1)
    finally:
        older.close()
