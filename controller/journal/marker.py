"""The head marker: the last committed ``seq`` and hash, kept outside the database.

SQLite's WAL holds every record since the last checkpoint: a lost, torn or rolled-back
``-wal`` (or an older copy of the file put back) loses committed records without a trace in the
file itself. So after each commit the writer also writes the chain's head to a small file beside
the journal (``<journal>.head``), fsync'd, by atomic replace. The marker may lag the journal (a
crash between the commit and the marker), never lead it: a journal *behind* its marker, or with
another hash at the marker's seq, has lost or changed committed records and is refused
(docs/journal.md "Integrity").

The marker also says whether the daemon closed the journal (``clean``): opening one that was not
closed is an unclean shutdown (a power cut, ``kill -9``), journaled in the next ``started``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from .chain import ChainHead
from .errors import JournalCorrupt


@dataclass(frozen=True)
class HeadMarker:
    table_id: str
    head: ChainHead
    clean: bool
    """The journal was closed by the daemon (not cut off by a crash or a power cut)."""

    def to_json(self) -> dict[str, object]:
        return {"table": self.table_id, "seq": self.head.seq, "hash": self.head.hash, "clean": self.clean}


def marker_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".head")


def write_marker(journal: Path, marker: HeadMarker) -> None:
    """Replace the marker atomically: written beside it, fsync'd, renamed over it.

    The directory is not fsync'd: if the rename does not survive a power cut, the old marker
    (behind the journal, which is allowed) does.
    """
    path = marker_path(journal)
    tmp = path.with_name(path.name + ".tmp")
    data = (json.dumps(marker.to_json(), separators=(",", ":")) + "\n").encode("ascii")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def sync_directory(journal: Path) -> None:
    """fsync the journal's directory (a new marker's name made durable)."""
    fd = os.open(journal.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_marker(journal: Path) -> HeadMarker | None:
    """The marker beside ``journal``, ``None`` if there is none; :class:`JournalCorrupt` if unreadable."""
    path = marker_path(journal)
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise JournalCorrupt(f"{path}: the journal's head marker cannot be read: {exc.strerror}") from None
    try:
        obj = json.loads(text.decode("ascii"))
        table, seq, digest, clean = obj["table"], obj["seq"], obj["hash"], obj["clean"]
        ok = (
            isinstance(table, str)
            and isinstance(seq, int)
            and not isinstance(seq, bool)
            and seq >= 0
            and isinstance(digest, str)
            and len(digest) == 64
            and all(c in "0123456789abcdef" for c in digest)
            and isinstance(clean, bool)
        )
    except (UnicodeDecodeError, ValueError, KeyError, TypeError):
        ok = False
    if not ok:
        raise JournalCorrupt(
            f"{path}: the journal's head marker is damaged; the journal cannot be shown to hold every "
            "committed record (a technician checks it with `tablectl journal verify`, docs/journal.md)"
        )
    return HeadMarker(table, ChainHead(seq, digest), clean)
