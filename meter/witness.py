"""The meter's witness of each table's journal: the last chain head (seq, hash) the table sent.

A table's journal is keyed (docs/journal.md, "The chain key"), but an older copy of it put back
with its marker opens clean at the table: only something outside the box can see it is behind.
So each message a linked table sends carries the head of its journal at that message (the
record that caused it: ``TableMessage.chain``); the meter keeps the newest of each table here and
sends it back in the table's retained ack (``Ack.witness``). A table whose journal does not hold
that record with that hash refuses progressive wagering (``controller/link/witness.py``).

Kept in ``<store>.witness.json`` beside the meter's store, written whole (a temporary file,
fsync'd, renamed) after each batch is applied and before the acks go out: a witness the table
is told of has been made durable. The ledger is not touched (docs/meter.md).
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from wire import Ack, ChainHead, TableMessage, WireError
from wire.witness import chain_head


def witness_path(store: Path) -> Path:
    return store.with_name(store.name + ".witness.json")


class Witness:
    """The last chain head of each table, durable in :func:`witness_path`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.heads: dict[str, ChainHead] = dict(_load(path))

    def note(self, messages: Iterable[TableMessage]) -> None:
        """Keep the newest chain head of each table among ``messages`` (applied, in order), and
        make it durable if it moved."""
        moved = False
        for m in messages:
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

    def ack(self, ack: Ack) -> Ack:
        """``ack`` with the table's witness (unchanged if the table sent none yet)."""
        head = self.heads.get(ack.table)
        return ack if head is None else dataclasses.replace(ack, witness=head)

    def _save(self) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        text = json.dumps({t: h.to_json() for t, h in sorted(self.heads.items())}, indent=1)
        with open(tmp, "w", encoding="ascii") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, self.path)
        fd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _load(path: Path) -> Mapping[str, ChainHead]:
    try:
        obj = json.loads(path.read_text(encoding="ascii"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"{path}: the meter's witness file cannot be read: {exc}") from None
    if not isinstance(obj, dict):
        raise ValueError(f"{path}: the meter's witness file is not a JSON object of tables")
    try:
        return {str(table): chain_head(head, f"{path}: {table}") for table, head in obj.items()}
    except WireError as exc:
        raise ValueError(f"{path}: {exc}") from None
