"""The meter's witness of each table's journal: the last chain head (seq, hash) the table sent.

A table's journal is keyed (docs/journal.md, "The chain key"), but an older copy of it put back
with its marker opens clean at the table: only something outside the box can see it is behind.
So each message a linked table sends carries the head of its journal at that message (the
record that caused it: ``TableMessage.chain``); the meter keeps the newest of each table here and
sends it back in the table's retained ack (``Ack.witness``). A table whose journal does not hold
that record with that hash refuses progressive wagering (``controller/link/witness.py``).

A table's RAM clear (``wire.RamClear``, its new journal's first message) is checked against the
witness as it stands before it: it must continue from the witnessed record or after it
(``previous.seq`` not below the witness's; at the same seq, the same hash). One that does is
kept as the table's last clear and named in its ack (``Ack.ram_clear``); one that does not is
logged and not kept, so the table, whose journal restarted at it, finds no clear of its own in
the ack and is not opened (``controller/link/witness.py``; docs/progressive-link.md, "A RAM clear
on the link").

Kept in ``<store>.witness.json`` beside the meter's store, written whole (a temporary file,
fsync'd, renamed) after each batch is applied and before the acks go out: a witness the table
is told of has been made durable. The ledger is not touched (docs/meter.md).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

from wire import Ack, ChainHead, RamClear, TableMessage, WireError
from wire.witness import chain_head

log = logging.getLogger(__name__)
_CLEARS: Final = "#ram_clears"
"""The witness file's key for the last RAM clear of each table (no table's id: ``#`` is not in
the wire's ids)."""


def witness_path(store: Path) -> Path:
    return store.with_name(store.name + ".witness.json")


class Witness:
    """The last chain head of each table, durable in :func:`witness_path`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        heads, clears = _load(path)
        self.heads: dict[str, ChainHead] = dict(heads)
        self.clears: dict[str, ChainHead] = dict(clears)
        """Each table's last RAM clear that continued from the witness (its archive's head)."""

    def note(self, messages: Iterable[TableMessage]) -> None:
        """Keep the newest chain head of each table among ``messages`` (applied, in order), and
        make it durable if it moved."""
        moved = False
        for m in messages:
            if isinstance(m.payload, RamClear):
                moved = self._cleared(m.table, m.payload.previous) or moved
            head = m.chain
            if head is None:
                continue
            known = self.heads.get(m.table)
            if known is None or head.seq > known.seq or (head.seq == known.seq and head != known):
                # The same seq with another hash is kept too: the table's journal is beside it.
                self.heads[m.table] = head
                moved = True
        if moved:
            self._save()

    def _cleared(self, table: str, previous: ChainHead) -> bool:
        """A RAM clear of ``table`` continuing from ``previous``: kept if it continues the witness."""
        known = self.heads.get(table)
        if known is not None and (
            previous.seq < known.seq or (previous.seq == known.seq and previous.hash != known.hash)
        ):
            log.warning(
                "table %s: a RAM clear from journal seq %d (hash %s) does not continue the witness "
                "seq %d (hash %s): not named in its ack",
                table, previous.seq, previous.hash[:16], known.seq, known.hash[:16],
            )  # fmt: skip
            return self.clears.pop(table, None) is not None
        self.clears[table] = previous
        return True

    def recover(self, clears: Mapping[str, tuple[ChainHead, ChainHead]]) -> None:
        """At start: note each table's last recorded RAM clear (``previous``, its own head) that
        this file does not reflect yet (the meter stopped between the store's commit and this
        file's save: the witness's head is still before the clear's own)."""
        moved = False
        for table, (previous, own) in sorted(clears.items()):
            known = self.heads.get(table)
            if known is None or known.seq < own.seq:
                self._cleared(table, previous)
                self.heads[table] = own
                moved = True
        if moved:
            self._save()

    def ack(self, ack: Ack) -> Ack:
        """``ack`` with the table's witness and last RAM clear (each if the meter holds one)."""
        head, cleared = self.heads.get(ack.table), self.clears.get(ack.table)
        return dataclasses.replace(ack, witness=head or ack.witness, ram_clear=cleared or ack.ram_clear)

    def _save(self) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        out: dict[str, object] = {t: h.to_json() for t, h in sorted(self.heads.items())}
        if self.clears:
            out[_CLEARS] = {t: h.to_json() for t, h in sorted(self.clears.items())}
        text = json.dumps(out, indent=1)
        with open(tmp, "w", encoding="ascii") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        fd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _load(path: Path) -> tuple[Mapping[str, ChainHead], Mapping[str, ChainHead]]:
    """The heads and the RAM clears of the witness file."""
    try:
        obj = json.loads(path.read_text(encoding="ascii"))
    except FileNotFoundError:
        return {}, {}
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"{path}: the meter's witness file cannot be read: {exc}") from None
    if not isinstance(obj, dict):
        raise ValueError(f"{path}: the meter's witness file is not a JSON object of tables")
    clears = obj.pop(_CLEARS, {})
    if not isinstance(clears, dict):
        raise ValueError(f"{path}: {_CLEARS} is not a JSON object of tables")
    try:
        return (
            {str(table): chain_head(head, f"{path}: {table}") for table, head in obj.items()},
            {str(table): chain_head(h, f"{path}: {_CLEARS}.{table}") for table, h in clears.items()},
        )
    except WireError as exc:
        raise ValueError(f"{path}: {exc}") from None
