"""A table's RAM clear at the meter (issue 18): recorded in its store, checked against its witness,
named in the table's ack, listed by ``status`` and ``history`` (meter/clears.py, meter/witness.py).

The real store on disk and the real witness file; the table's side against the real broker is in
``tests/test_witness.py``."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest

from meter.config import load
from meter.core import MeterCore
from meter.main import main
from meter.store import Store, iter_records
from meter.witness import Witness, witness_path
from wire import Ack, ChainHead, Contribution, RamClear

from .test_meter import CONFIG, declare, msg

ARCHIVE_HEAD = ChainHead(812, "3f" * 32)
WALL_NS = 1_796_158_800_000_000_000  # 2026-12-01T21:00:00Z


def cleared(previous: ChainHead = ARCHIVE_HEAD) -> RamClear:
    return RamClear(previous, "ttech", WALL_NS, "journal.sqlite3.20261201T210000Z.archived")


def chained(m: object, head: ChainHead) -> object:
    return dataclasses.replace(m, chain=head)  # type: ignore[type-var]


@pytest.fixture
def config_path(tmp_path: Path) -> Path:
    path = tmp_path / "meter.toml"
    path.write_text(CONFIG)
    return path


def test_a_ram_clear_is_a_record_that_takes_the_tables_next_seq(
    config_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Forbids: a RAM clear the meter drops (nobody at the floor would see it), or one that moves
    money or stops the table's messages after it."""
    config = load(config_path)
    store = Store(config.store, config)
    try:
        out = store.apply([declare("t1", 1), msg("t1", 2, cleared()), msg("t1", 3)])
        assert [a.record.kind for a in out] == ["declaration", "ram_clear", "contribution"]
        record = out[1].record
        assert (record.table_id, record.table_seq, record.progressive, out[1].reply) == ("t1", 2, None, None)
        assert record.body["previous"] == ARCHIVE_HEAD.to_json() and record.body["by"] == "ttech"
        assert store.ledger.table("t1").applied_seq == 3
        amount = store.ledger.progressives["cs-floor"].amount
        again = store.duplicate(msg("t1", 2, cleared()))  # sent again: applied once
        assert again is not None and again.record.seq == record.seq
    finally:
        store.close()
    reopened = Store(config.store, config)  # folded again at start: the clear is read back
    try:
        assert reopened.ledger.table("t1").applied_seq == 3
        assert reopened.ledger.progressives["cs-floor"].amount == amount
    finally:
        reopened.close()
    assert main(["--config", str(config_path), "verify"]) == 0
    capsys.readouterr()
    assert main(["--config", str(config_path), "status"]) == 0
    text = capsys.readouterr().out
    assert "RAM clear by ttech at 2026-12-01T21:00:00.000Z: the journal restarted after seq 812" in text
    assert main(["--config", str(config_path), "history", "--kind", "ram_clear", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["table"], row["table_seq"], row["body"]["archive"]) == (
        "t1", 2, "journal.sqlite3.20261201T210000Z.archived",
    )  # fmt: skip
    assert main(["--config", str(config_path), "status", "--json"]) == 0
    (t1,) = [t for t in json.loads(capsys.readouterr().out)["tables"] if t["table"] == "t1"]
    assert [c["previous"] for c in t1["ram_clears"]] == [ARCHIVE_HEAD.to_json()]


def test_the_witness_names_a_clear_only_if_it_continues_what_it_witnessed(tmp_path: Path) -> None:
    """Forbids: an ack naming a RAM clear that begins before the record the meter last witnessed
    (a forged journal continuing from an older head), or at that seq with another hash."""
    path = witness_path(tmp_path / "meter.sqlite3")
    witness = Witness(path)
    head = ChainHead(812, "3f" * 32)
    witness.note([chained(msg("t1", 5), head)])  # type: ignore[list-item]
    assert witness.ack(Ack("t1", 5)).ram_clear is None

    for bad in (ChainHead(811, "3f" * 32), ChainHead(812, "40" * 32)):
        witness.note([chained(msg("t1", 6, cleared(bad)), ChainHead(bad.seq + 1, "41" * 32))])  # type: ignore[list-item]
        assert witness.ack(Ack("t1", 6)).ram_clear is None
        witness.heads["t1"] = head  # as it was, for the next try

    # The witnessed head itself, or a record after it (the cancel of the empty round): named.
    later = ChainHead(814, "42" * 32)
    witness.note([chained(msg("t1", 7, cleared(later)), ChainHead(815, "43" * 32))])  # type: ignore[list-item]
    assert witness.ack(Ack("t1", 7)).ram_clear == later
    assert witness.ack(Ack("t1", 7)).witness == ChainHead(815, "43" * 32)
    assert Witness(path).ack(Ack("t1", 7)).ram_clear == later  # durable, read back
    assert json.loads(path.read_text())["#ram_clears"] == {"t1": later.to_json()}
    assert Witness(path).ack(Ack("t2", 1)).ram_clear is None  # per table


def test_a_schema_3_store_is_brought_to_4_and_takes_a_ram_clear(config_path: Path) -> None:
    """A store made before the RAM clear (its records' kinds checked without ``ram_clear``) is
    rebuilt at open: every record kept with its hash, and a clear then recorded."""
    config = load(config_path)
    s = Store(config.store, config)
    s.apply([declare("t1", 1), msg("t1", 2, Contribution("cs-floor", 4, 2000))])
    s.close()
    conn = sqlite3.connect(config.store)
    before = [d for _, _, _, d in iter_records(conn, config.store)]
    sql = conn.execute("SELECT sql FROM sqlite_schema WHERE name = 'records'").fetchone()[0]
    old = sql.replace(", 'ram_clear'", "")
    assert old != sql
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_schema SET sql = ? WHERE name = 'records'", (old,))
    conn.commit()
    conn.execute("PRAGMA writable_schema = OFF")
    conn.execute("PRAGMA user_version = 3")
    conn.close()
    assert main(["--config", str(config_path), "verify"]) == 0  # read as it is
    s = Store(config.store, config)
    try:
        assert s.conn.execute("PRAGMA user_version").fetchone()[0] == 4
        assert [d for _, _, _, d in iter_records(s.conn, config.store)] == before
        assert s.apply([msg("t1", 3, cleared())])[0].record.kind == "ram_clear"
    finally:
        s.close()
    assert main(["--config", str(config_path), "verify"]) == 0


def test_a_clear_recorded_but_not_yet_noted_is_noted_at_start(config_path: Path) -> None:
    """Forbids: a meter killed between its store's commit and its witness file's save forgetting
    the clear for good (the table, acknowledged, never sends it again, and would stay closed)."""
    config = load(config_path)
    store = Store(config.store, config)
    try:
        own = ChainHead(813, "44" * 32)
        store.apply([declare("t1", 1), chained(msg("t1", 2, cleared()), own)])  # type: ignore[list-item]
        assert not witness_path(config.store).exists()  # killed before the witness was saved
        core = MeterCore(config, store)
        ack = core.witness.ack(Ack("t1", 2))
        assert (ack.ram_clear, ack.witness) == (ARCHIVE_HEAD, own)
        again = MeterCore(config, store).witness  # read back, not noted twice
        assert again.ack(Ack("t1", 2)).ram_clear == ARCHIVE_HEAD
    finally:
        store.close()
