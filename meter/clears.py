"""A table's RAM clear on the link: the meter records it, so every clear of every table is seen.

A RAM clear (``tablectl journal new``) archives the table's journal and begins a new one that
counts on from the archive on the link (docs/journal.md, "RAM clear"). Root, who can read the
journal's key, could forge such a journal; the meter cannot tell a forged one from a real one by
its counts alone. So the clear is itself a message, the new journal's first (``wire.RamClear``,
exactly-once like the rest): the archive's head (seq, hash), who authorised it, when. The meter
makes it a record of kind :data:`RAM_CLEAR` (its history: ``progressive-meter history``), and
its witness (``witness.py``) names the last one that continues from what it had witnessed in the
table's ack; a table whose journal restarted without it is judged beside the meter
(``controller/link/witness.py``) and does not open progressive wagering.

The ledger (``ledger.py``) decides and folds the money's records; a RAM clear moves no money, so
it is decided and folded here: it only takes the table's next seq.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Final

from wire import ChainHead, RamClear, TableMessage
from wire.witness import chain_head

from .config import MeterConfig
from .ledger import KINDS as LEDGER_KINDS
from .ledger import Draft, FoldError, Item, Ledger, Record
from .ledger import decide as ledger_decide

RAM_CLEAR: Final = "ram_clear"
KINDS: Final = (*LEDGER_KINDS, RAM_CLEAR)
"""Every kind of the store's records (the store's CHECK)."""


def decide(ledger: Ledger, config: MeterConfig, m: Item, id_used_by: int | None = None) -> Draft:
    """The record a table's next message makes: a RAM clear's here, every other the ledger's."""
    if id_used_by is not None or not isinstance(m, TableMessage) or not isinstance(m.payload, RamClear):
        return ledger_decide(ledger, config, m, id_used_by)
    p = m.payload
    body: dict[str, object] = {"event_seq": m.event_seq, "event_id": m.event_id, "round": m.round}
    body.update(p.to_json())
    if m.chain is not None:  # the clear's own record: how the witness recovers it (last_clears)
        body["chain"] = m.chain.to_json()
    return Draft(RAM_CLEAR, None, body)


def last_clears(conn: sqlite3.Connection) -> dict[str, tuple[ChainHead, ChainHead]]:
    """Each table's last RAM clear in the store that carried its chain head: (its ``previous``,
    its own head). The witness file is saved after the store commits; a meter killed between the
    two has the clear recorded but not noted, and the table, whose ack then came, does not send
    it again: :meth:`~.witness.Witness.recover` notes it at start."""
    out: dict[str, tuple[ChainHead, ChainHead]] = {}
    rows = conn.execute("SELECT table_id, body FROM records WHERE kind = ? ORDER BY seq", (RAM_CLEAR,))
    for table, text in rows:
        body = json.loads(text)
        if "chain" in body:
            out[str(table)] = (chain_head(body["previous"], "previous"), chain_head(body["chain"], "chain"))
    return out


def fold(ledger: Ledger, record: Record) -> None:
    """Apply ``record`` to ``ledger``; a RAM clear takes its table's next seq and nothing else."""
    if record.kind != RAM_CLEAR:
        ledger.fold(record)
        return
    if record.seq != ledger.last_seq + 1:
        raise FoldError(record.seq, f"follows record {ledger.last_seq}: the store has a gap")
    if record.table_id is None or record.table_seq is None or record.message_id is None:
        raise FoldError(record.seq, "a table's record without its table, seq and message id")
    t = ledger.table(record.table_id)
    if record.table_seq != t.applied_seq + 1:
        raise FoldError(
            record.seq,
            f"table {record.table_id!r} seq {record.table_seq} after its seq {t.applied_seq}: "
            "each table's messages are applied once, in order",
        )
    try:
        chain_head(record.body["previous"], "previous")
        str(record.body["by"])
    except (KeyError, TypeError, ValueError) as exc:
        raise FoldError(record.seq, f"a ram_clear record that cannot be read ({exc!r})") from None
    t.applied_seq = record.table_seq
    ledger.last_seq = record.seq
