"""The journal: every event at the table, durable before anyone acts on it (docs/journal.md).

One idea a module:

- :mod:`.records`: the kinds of record, the sources, the entries the daemon asks for (pure);
- :mod:`.state`: :class:`~.state.TableState`, the fold of the records (pure), and :mod:`.rounds`,
  the closed rounds and the payouts waiting that it keeps;
- :mod:`.schema`: the SQLite DDL, its version, and the check that a file is a journal;
- :mod:`.queries`: reading through any connection (records, recovery, the last rounds, outbox);
- :mod:`.recall`: a round recalled for a dispute, and its round record for ``tablectl replay``;
- :mod:`.reader`: :class:`JournalReader`, read-only access while the daemon writes;
- :mod:`.store` and :mod:`.writer`: the writing connection and the thread that owns it;
- :mod:`.outbox`: the progressive link's messages, committed with their records;
- :mod:`.facade`: :class:`Journal`, the daemon's async journal.

This package's names (``__all__``) are the journal's contract, the one the daemon, ``tablectl``
and the progressive link import (``from controller.journal import Journal``); the rest is
imported from its module.
"""

from __future__ import annotations

from .errors import (
    JournalBusy,
    JournalCorrupt,
    JournalError,
    JournalVersionError,
    JournalWriteError,
    Refused,
    UnknownRound,
)
from .facade import Appended, Journal, Step, StepOutcome, read_boot_id
from .outbox import Outbound, OutboxEntry
from .reader import JournalReader
from .recall import RecalledRound
from .schema import APPLICATION_ID, SCHEMA, SCHEMA_VERSION

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
    "Step",
    "StepOutcome",
    "UnknownRound",
    "read_boot_id",
]
