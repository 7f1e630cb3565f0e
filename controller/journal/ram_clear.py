"""A "RAM clear": the journal archived and a new one begun, chained to it (``tablectl journal new``).

Critical memory is cleared only by a technician who signs in with a PIN (the caller checks it), with
the daemon stopped (the journal's writer lock), between rounds. The old journal must pass the check
the daemon runs at start (:mod:`.integrity`): a journal that fails it is kept for the
investigation, never cleared. Then:

1. the old journal is closed cleanly and renamed, with its head marker, to
   ``<journal>.<UTC time>.archived`` (``.head`` beside it): nothing is deleted;
2. a new journal is created at the same path, its chain beginning from the old one's last hash
   (``meta.chain_genesis``), ``meta.previous_journal`` naming the archive;
3. its first record is ``ram_clear``: the archive, its last seq and hash, the meters carried over
   (the last journaled: § 639a.12(d)(3) meters never restart from the initial amount because a
   file was cleared), where the archive ended on the progressive link's count (``link_seq``,
   ``link_outbox_seq``: the new journal counts on from there, so the central meter's witness
   sees a RAM clear, not an older copy put back: :mod:`.link_count`), and the technician as the
   actor;
4. on a table that has spoken to the central meter (its archive's outbox not empty), the
   ``ram_clear`` record's transaction puts the clear in the outbox, the new journal's first
   message (``wire.RamClear``: the archive's head on the link's count, the technician's name,
   never a PIN, and the time): the meter records every clear, and a journal that restarted
   without it is not opened (docs/progressive-link.md, "A RAM clear on the link").

A linked table's archive must have handed every outbox message to the broker (each marked sent):
one never sent would be lost with the archive, and the meter, which applies a table's messages in
seq order, would wait for it for ever. Such a journal is refused, nothing changed.

docs/journal.md "RAM clear".
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from wire import ChainHead, checked_json
from wire import RamClear as RamClearMessage

from ..rules.core.money import Cents, parse_money
from .errors import JournalError
from .facade import Journal
from .marker import marker_path, sync_directory
from .outbox import Outbound
from .reader import JournalReader
from .records import CancelRound, RamClear
from .state import TableState


@dataclass(frozen=True)
class Cleared:
    archive: Path
    previous_seq: int
    previous_hash: str
    meters: Mapping[str, Cents]
    table_id: str
    link_seq: int = 0
    """The archive's last record on the progressive link's count (:mod:`.link_count`)."""
    link_outbox_seq: int = 0


def standing_meters(state: TableState) -> dict[str, Cents]:
    """The meters as they stand: the last settlement's, else the last round's, else those the
    journal itself carried over."""
    for summary in reversed(state.recent):
        meters = (summary.settlement or {}).get("meters")
        if isinstance(meters, Mapping) and meters:
            return {str(k): parse_money(str(v), f"meters.{k}") for k, v in meters.items()}
    return dict(state.carried_meters)


async def ram_clear(path: Path, actor: str, now: datetime.datetime | None = None) -> Cleared:
    """Archive the journal at ``path`` and begin a new one chained to it; ``actor`` did it."""
    if not actor or not actor.strip():
        raise ValueError("a RAM clear names the technician who does it")
    with JournalReader(path) as reader:
        table_id = reader.table_id
    old = await Journal.open(path, table_id, create=False)  # the start check, and the writer lock
    try:
        current = old.state.current
        if current is not None and current.events:
            raise JournalError(
                f"{path}: round {current.round_id} is open; settle or void it before a RAM clear"
            )
        if current is not None:
            # The empty round the daemon begins after each settlement: nothing entered it, so it
            # is cancelled (journaled, by the technician) and the archive ends with no round open.
            why = "RAM clear: nothing entered the round the daemon began"
            await old.append(CancelRound(why), source="tablectl", actor=actor)
        unsent = await old.pending(1)
        if unsent:
            raise JournalError(
                f"{path}: outbox message seq {unsent[0].seq} was never sent to the central meter: "
                "start the daemon with the progressive link up until `tablectl link` shows an empty "
                "queue, then stop it and clear"
            )
        state, head = old.state, old.chain_head
        meters = standing_meters(state)
        link_seq, link_outbox_seq = old.link_seq(head.seq), await old.last_outbox_seq()
    finally:
        await old.close()
    when = now or datetime.datetime.now(datetime.UTC)
    stamp = when.strftime("%Y%m%dT%H%M%SZ")
    archive = path.with_name(f"{path.name}.{stamp}.archived")
    if archive.exists():
        raise JournalError(f"{archive}: an archive of that name exists already; try again in a second")
    for suffix in ("-wal", "-shm"):
        leftover = path.with_name(path.name + suffix)
        if leftover.exists():  # closed cleanly: SQLite removed them; if not, they go with it
            os.replace(leftover, archive.with_name(archive.name + suffix))
    os.replace(marker_path(path), marker_path(archive))
    os.replace(path, archive)
    sync_directory(path)
    meta = {"previous_journal": archive.name, "previous_seq": str(head.seq)}
    new = await Journal.open(path, table_id, create=True, genesis=head.hash, meta=meta)
    try:
        cleared = RamClear(archive.name, head.seq, head.hash, meters, link_seq, link_outbox_seq)
        told: tuple[Outbound, ...] = ()
        if link_outbox_seq > 0:  # the meter knows this table: it is told, exactly once
            wall_ns = int(when.timestamp()) * 1_000_000_000 + when.microsecond * 1000
            message = RamClearMessage(ChainHead(link_seq, head.hash), actor, wall_ns, archive.name)
            told = (Outbound(message.kind, checked_json(message)),)
        await new.append(cleared, source="tablectl", actor=actor, outbox=told)
    finally:
        await new.close()
    return Cleared(archive, head.seq, head.hash, meters, table_id, link_seq, link_outbox_seq)
