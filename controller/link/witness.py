"""The table's side of the meter's witness: is the journal behind or beside what the meter holds?

The meter keeps the last journal chain head (seq, keyed hash) each table sent with its messages
and returns it in the table's retained ack (``wire.witness``, ``meter/witness.py``), which comes at
every start and reconnect. The journal's own checks cannot see an older copy of the journal put
back with its marker (docs/journal.md, "The chain key"); the meter can:

- **behind**: the meter has applied outbox messages past the journal's outbox, or its witness
  names a seq the journal does not reach (records lost: an older copy put back);
- **beside**: the journal holds another record at the witness's seq (a journal rewritten, re-keyed,
  or another one).

Either closes progressive wagering (N.J.A.C. 13:69E-1.39B, as a lost link does), says why in the
status and ``tablectl doctor``, and journals the evidence (``hardware_fact`` ``witness_mismatch``).
It stays closed while the daemon runs; a technician investigates (docs/progressive-link.md,
"The witness").
"""

from __future__ import annotations

from typing import Final

from wire import Ack

from ..journal import Journal

WITNESS_MISMATCH: Final = "witness_mismatch"
"""The ``hardware_fact`` (device ``journal``) that keeps the evidence."""

_WHAT_TO_DO: Final = (
    "progressive wagering stays closed; keep the journal, its -wal and marker for the "
    "investigation and call the technician (docs/progressive-link.md, 'The witness')"
)


async def judge(journal: Journal, ack: Ack) -> tuple[str, dict[str, object]] | None:
    """Why the journal is behind or beside the meter's ack, with the evidence; ``None`` if not."""
    last_outbox = await journal.last_outbox_seq()
    last_seq = journal.state.last_seq
    evidence: dict[str, object] = {
        "meter_applied_seq": ack.applied_seq,
        "witness": None if ack.witness is None else ack.witness.to_json(),
        "journal_seq": last_seq,
        "journal_outbox_seq": last_outbox,
    }
    if ack.applied_seq > last_outbox:
        why = (
            f"the journal is behind the meter: the meter has applied this table's messages to seq "
            f"{ack.applied_seq}, the journal's outbox ends at seq {last_outbox} (an older copy of the "
            f"journal put back?); {_WHAT_TO_DO}"
        )
        return why, evidence
    witness = ack.witness
    if witness is None:
        return None
    stored = await journal.hash_at(witness.seq)
    if stored is None:
        why = (
            f"the journal is behind the meter: the meter's witness is journal seq {witness.seq} "
            f"(hash {witness.hash[:16]}), the journal ends at seq {last_seq} (an older copy put back?); "
            f"{_WHAT_TO_DO}"
        )
        return why, evidence
    if stored != witness.hash:
        evidence["journal_hash"] = stored
        why = (
            f"the journal is beside the meter: at seq {witness.seq} the meter's witness has hash "
            f"{witness.hash[:16]}, the journal another record (hash {stored[:16]}): a journal "
            f"rewritten, or another one; {_WHAT_TO_DO}"
        )
        return why, evidence
    return None
