"""What can go wrong with a journal, each naming the file and what to do."""

from __future__ import annotations

import sqlite3
from typing import Final

from ..rules.core.engine import IllegalEvent
from .records import JournalRecord

# --- errors ------------------------------------------------------------------------------------

UNREADABLE: Final = (sqlite3.DatabaseError, UnicodeDecodeError)
"""What reading a damaged file raises: SQLite's errors, and text that is not UTF-8 (a flipped byte
in a page of text, the schema page's included): each made a :class:`JournalCorrupt` naming it."""


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
