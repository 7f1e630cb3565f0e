"""The table's side of the meter's witness: is the journal behind or beside what the meter holds?

The meter keeps the last journal chain head (seq, keyed hash) each table sent with its messages
and returns it in the table's retained ack (``wire.witness``, ``meter/witness.py``), which comes at
every start and reconnect. The journal's own checks cannot see an older copy of the journal put
back with its marker (docs/journal.md, "The chain key"); the meter can:

- **behind**: the meter has applied outbox messages past the journal's outbox, or its witness
  names a seq the journal does not reach (records lost: an older copy put back);
- **beside**: the journal holds another record at the witness's seq (a journal rewritten, re-keyed,
  or another one); or the journal restarted at a RAM clear the meter has no record of
  (``Ack.ram_clear`` is not the journal's own clear once the meter has applied past it: a new
  journal begun without the clear being sent, or one whose clear does not continue the witness).

Either closes progressive wagering (N.J.A.C. 13:69E-1.39B, as a lost link does), says why in the
status and ``tablectl doctor``, and journals the evidence (``hardware_fact`` ``witness_mismatch``).
It stays closed while the daemon runs; a technician investigates (docs/progressive-link.md,
"The witness").
"""

from __future__ import annotations

from typing import Final

from wire import Ack, ChainHead

from ..journal import Journal
from ..journal.link_count import FROM_START, LinkCount, Witnessed

WITNESS_MISMATCH: Final = "witness_mismatch"
"""The ``hardware_fact`` (device ``journal``) that keeps the evidence."""

_WHAT_TO_DO: Final = (
    "progressive wagering stays closed; keep the journal, its -wal and marker for the "
    "investigation and call the technician (docs/progressive-link.md, 'The witness')"
)


async def judge(journal: Journal, ack: Ack) -> tuple[str, dict[str, object]] | None:
    """Why the journal is behind or beside the meter's ack, with the evidence; ``None`` if not.

    Seqs are the link's count: after a RAM clear the new journal counts on from its archive
    (``controller/journal/link_count.py``), and a witness of the archive's is looked up there."""
    last_outbox = await journal.last_outbox_seq()
    last_seq = journal.link_seq(journal.state.last_seq)
    witness = ack.witness
    found = None if witness is None else await journal.witnessed(witness.seq)
    return verdict(ack, last_seq, last_outbox, found, journal.link_count)


def own_clear(count: LinkCount) -> ChainHead | None:
    """The RAM clear this journal began with, as the meter was told of it (its archive's head on
    the link's count); ``None``: no clear, or one on a table that had never spoken to the meter."""
    if count.previous_journal is None or count.previous_hash is None or count.outbox_base == 0:
        return None
    return ChainHead(count.seq_base, count.previous_hash)


def verdict(
    ack: Ack, last_seq: int, last_outbox: int, found: Witnessed | None, count: LinkCount = FROM_START
) -> tuple[str, dict[str, object]] | None:
    """The judgement itself, from the journal's head (``last_seq``, ``last_outbox`` on the link's
    count), what it holds at the witness's seq (``found``) and how it counts (``count``: its RAM
    clear, if it began with one); ``tablectl doctor`` gives the same."""
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
    cleared = own_clear(count)
    if cleared is not None and ack.applied_seq > count.outbox_base and ack.ram_clear != cleared:
        evidence["journal_ram_clear"] = cleared.to_json()
        evidence["meter_ram_clear"] = None if ack.ram_clear is None else ack.ram_clear.to_json()
        last = (
            "none"
            if ack.ram_clear is None
            else f"from seq {ack.ram_clear.seq} (hash {ack.ram_clear.hash[:16]})"
        )
        why = (
            f"the journal is beside the meter: it restarted at a RAM clear from seq {cleared.seq} "
            f"(hash {cleared.hash[:16]}) that the meter has no record of (its last RAM clear of this "
            f"table: {last}): a new journal begun without the clear being sent, or a clear that does "
            f"not continue the meter's witness; {_WHAT_TO_DO}"
        )
        return why, evidence
    witness = ack.witness
    if witness is None or found is None or not found.checked:
        return None
    if found.hash is None:
        why = (
            f"the journal is behind the meter: the meter's witness is journal seq {witness.seq} "
            f"(hash {witness.hash[:16]}), the journal ends at seq {last_seq} (an older copy put back?); "
            f"{_WHAT_TO_DO}"
        )
        return why, evidence
    if found.hash != witness.hash:
        evidence["journal_hash"] = found.hash
        why = (
            f"the journal is beside the meter: at seq {witness.seq} the meter's witness has hash "
            f"{witness.hash[:16]}, {found.where} another record (hash {found.hash[:16]}): a journal "
            f"rewritten, or another one; {_WHAT_TO_DO}"
        )
        return why, evidence
    return None
