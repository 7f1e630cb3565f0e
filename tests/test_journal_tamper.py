"""The keyed chain against whoever holds the file (issue 18, point 2): the tamper tests a lab tried,
the chain key's rules, and the migration of a journal made before the chain was keyed.

Each tamper test does what the issue found to work on main (0096c68), with the product's own
functions, and checks it is now refused, or, for a rollback on an unlinked table, that it is
exactly what docs/journal.md says the table alone cannot see.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from controller.journal import Journal, JournalCorrupt, JournalError, JournalReader
from controller.journal.chain import ChainHead, chain_hash, link
from controller.journal.chain_key import FileChainKey, key_path, load_key, make_key
from controller.journal.keying import pending_path
from controller.journal.marker import SLOT, HeadMarker, marker_path, write_marker
from controller.journal.records import HARDWARE_FACT
from controller.journal.schema import COLUMNS
from controller.tablectl import EXIT_FAILED, EXIT_OK
from controller.tablectl import main as tablectl
from tests.test_journal import EXAMPLES, RECORDS, TABLE, deal, example, raw

NAME = "journal.sqlite3"
PROGRESSIVE_HIT = EXAMPLES / "caribbean-stud" / "progressive-hit.json"


def _build(path: Path, rounds: int = 3) -> int:
    async def run() -> int:
        async with await Journal.open(path, TABLE) as journal:
            for p in [PROGRESSIVE_HIT, *RECORDS][:rounds]:
                await deal(journal, example(p))
            return journal.state.last_seq

    return asyncio.run(run())


def _opens(path: Path) -> bool:
    async def run() -> None:
        journal = await Journal.open(path, TABLE, create=False)
        await journal.close()

    try:
        asyncio.run(run())
    except JournalError:
        return False
    return True


def _rechain(path: Path, key: FileChainKey | None) -> ChainHead:
    """Every hash computed again with the product's own functions: ``chain_hash`` under ``key``
    (a forger's own key), or ``link`` (the unkeyed SHA-256 chain of main, 0096c68) for ``None``."""
    conn = raw(path)
    conn.execute("DROP TRIGGER IF EXISTS events_never_change")
    previous = conn.execute("SELECT value FROM meta WHERE key = 'chain_genesis'").fetchone()[0]
    rows = conn.execute(f"SELECT {COLUMNS} FROM events ORDER BY seq").fetchall()
    for row in rows:
        messages = conn.execute(
            "SELECT seq, message_id, kind, payload FROM outbox WHERE event_seq = ? ORDER BY seq", (row[0],)
        ).fetchall()
        if key is None:
            event = conn.execute("SELECT json_array(?, ?, ?, ?, ?, ?, ?, ?, ?)", row).fetchone()[0]
            texts = [conn.execute("SELECT json_array(?, ?, ?, ?)", m).fetchone()[0] for m in messages]
            previous = link(previous, event, texts)
        else:
            previous = chain_hash(conn, key, previous, row, messages)
        conn.execute("UPDATE events SET hash = ? WHERE seq = ?", (previous, row[0]))
    conn.close()
    return ChainHead(len(rows), previous)


def _unkeyed_marker(path: Path, head: ChainHead, clean: bool = True) -> None:
    """The head marker as main (0096c68) wrote it: its check a plain SHA-256, no key."""
    fields: dict[str, object] = {
        "table": TABLE,
        "seq": head.seq,
        "hash": head.hash,
        "clean": clean,
        "generation": 0,
    }
    check = hashlib.sha256(json.dumps(fields, sort_keys=True).encode("ascii")).hexdigest()[:16]
    line = json.dumps({**fields, "check": check}, separators=(",", ":")).encode("ascii")
    marker_path(path).write_bytes(line.ljust(SLOT - 1) + b"\n" + b"\0" * SLOT)


def _change_a_meter(path: Path) -> None:
    """The attack: a meter in a round's beginning raised by $1,000."""
    conn = raw(path)
    conn.execute("DROP TRIGGER IF EXISTS events_never_change")
    seq, body = conn.execute(
        "SELECT seq, body FROM events WHERE kind = 'round_begin' "
        "AND json_extract(body, '$.meters') != '{}' ORDER BY seq"
    ).fetchone()
    obj = json.loads(body)
    name = next(iter(obj["meters"]))
    obj["meters"][name] = f"{float(obj['meters'][name]) + 1000:.2f}"
    conn.execute("UPDATE events SET body = ? WHERE seq = ?", (json.dumps(obj), seq))
    conn.close()


def test_a_meter_changed_and_the_chain_recomputed_is_refused(tmp_path: Path) -> None:
    """Forbids: "change a meter in a record, recompute the chain with the product's own function,
    rewrite the head marker, and it opens and verifies"."""
    path = tmp_path / NAME
    _build(path)
    for attempt in ("unkeyed", "another key"):
        trial = tmp_path / attempt
        shutil.copytree(tmp_path, trial, ignore=shutil.ignore_patterns("unkeyed", "another key"))
        _change_a_meter(trial / NAME)
        if attempt == "unkeyed":
            head = _rechain(trial / NAME, None)
            _unkeyed_marker(trial / NAME, head)
        else:
            forged = trial / "forged.key"
            key = make_key(forged, TABLE)
            head = _rechain(trial / NAME, key)
            write_marker(trial / NAME, HeadMarker(TABLE, head, clean=True), key)
        with pytest.raises(JournalCorrupt, match=r"not made with the table's chain key|hash does not match"):
            asyncio.run(Journal.open(trial / NAME, TABLE, create=False))
        # Even with the genuine marker put back, the chain itself is not the key's.
        shutil.copy(marker_path(path), marker_path(trial / NAME))
        with pytest.raises(JournalCorrupt, match="the record's hash does not match"):
            asyncio.run(Journal.open(trial / NAME, TABLE, create=False))
        with JournalReader(trial / NAME, TABLE) as reader, pytest.raises(JournalCorrupt):
            reader.verify()


def test_the_last_records_deleted_and_the_marker_rewritten_are_refused(tmp_path: Path) -> None:
    """Forbids: "delete the last records and rewrite the marker (8/8 open)"."""
    path = tmp_path / NAME
    last = _build(path)
    refused = 0
    for cut in range(1, 9):
        trial = tmp_path / f"cut{cut}"
        trial.mkdir()
        for f in (path, marker_path(path), key_path(path, TABLE)):
            shutil.copy(f, trial / f.name)
        conn = raw(trial / NAME)
        conn.execute("DROP TRIGGER IF EXISTS events_never_deleted")
        conn.execute("DROP TRIGGER IF EXISTS outbox_never_deleted")
        conn.execute("DELETE FROM outbox WHERE event_seq > ?", (last - cut,))
        conn.execute("DELETE FROM events WHERE seq > ?", (last - cut,))
        stored = conn.execute("SELECT hash FROM events WHERE seq = ?", (last - cut,)).fetchone()[0]
        conn.close()
        # The marker rewritten as main wrote it (the check a plain SHA-256 anyone can compute).
        _unkeyed_marker(trial / NAME, ChainHead(last - cut, stored))
        with pytest.raises(JournalCorrupt, match="head marker is not made with the table's chain key"):
            asyncio.run(Journal.open(trial / NAME, TABLE, create=False))
        refused += 1
    assert refused == 8


def test_an_older_copy_put_back_is_what_an_unlinked_table_cannot_see(tmp_path: Path) -> None:
    """What the key does not catch, as docs/journal.md says: the journal and its marker put back
    together from an older copy are a journal the daemon once wrote, keyed and marked; only the
    central meter's witness of a linked table can show it is behind (tests/test_witness.py)."""
    path = tmp_path / NAME
    older = tmp_path / "older"
    older.mkdir()
    _build(path, 2)
    for f in (path, marker_path(path)):
        shutil.copy(f, older / f.name)
    last = _build(path, 4)
    for f in (older / NAME, older / marker_path(path).name):
        shutil.copy(f, tmp_path / f.name)
    assert _opens(path)  # the table alone cannot tell: documented, not hidden
    with JournalReader(path, TABLE) as reader:
        assert reader.verify().last_seq < last


def test_an_unkeyed_rewrite_of_a_keyed_journal_is_refused(tmp_path: Path) -> None:
    """A downgrade: the journal rewritten as one made before the chain was keyed (its meta's
    ``chain_keyed_from`` dropped, every hash SHA-256, the marker unkeyed) is refused, since the
    table's key exists: a journal keyed once is never unkeyed."""
    path = tmp_path / NAME
    _build(path)
    _change_a_meter(path)
    conn = raw(path)
    conn.execute("DELETE FROM meta WHERE key = 'chain_keyed_from'")
    conn.close()
    _unkeyed_marker(path, _rechain(path, None))
    with pytest.raises(JournalCorrupt, match="a journal keyed once is never unkeyed"):
        asyncio.run(Journal.open(path, TABLE, create=False))
    with JournalReader(path, TABLE) as reader, pytest.raises(JournalCorrupt, match="never unkeyed"):
        reader.verify()


def test_the_key_is_made_once_readable_by_the_daemon_only_and_needed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / NAME
    _build(path, 1)
    key = key_path(path, TABLE)
    assert key.name == f"{TABLE}.chain-key" and (key.stat().st_mode & 0o777) == 0o400
    assert key.stat().st_uid == os.geteuid()
    assert key.read_text() not in path.read_bytes().decode("latin-1")  # not in the journal
    with pytest.raises(JournalError, match="never replaced"):
        make_key(key, TABLE)
    # tablectl journal verify needs the key: moved away, it is refused; given with --key, it verifies.
    moved = tmp_path / "elsewhere.key"
    os.replace(key, moved)
    assert tablectl(["journal", "verify", "--journal", str(path)]) == EXIT_FAILED
    assert "the table's chain key is missing" in capsys.readouterr().err
    with pytest.raises(JournalError, match="chain key is missing"):
        asyncio.run(Journal.open(path, TABLE, create=False))  # and the daemon does not make another
    assert not key.exists()
    assert tablectl(["journal", "verify", "--journal", str(path), "--key", str(moved)]) == EXIT_OK
    assert "keyed hash chain (HMAC-SHA256" in capsys.readouterr().out
    os.replace(moved, key)
    key.chmod(0o440)
    with pytest.raises(JournalError, match="open to others"):
        asyncio.run(Journal.open(path, TABLE, create=False))
    key.chmod(0o400)
    assert _opens(path)


def test_tablectl_journal_key_makes_the_key_at_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / NAME
    assert tablectl(["journal", "key", "--journal", str(path), "--table", TABLE]) == EXIT_OK
    assert "mode 0400" in capsys.readouterr().out
    secret = key_path(path, TABLE).read_bytes()
    assert tablectl(["journal", "key", "--journal", str(path), "--table", TABLE]) == EXIT_FAILED
    assert "never replaced" in capsys.readouterr().err
    _build(path, 1)  # the daemon's first start keys its journal with that key
    assert key_path(path, TABLE).read_bytes() == secret
    with JournalReader(path, TABLE) as reader:
        assert reader.table_key(load_key(key_path(path, TABLE), TABLE)).keyed_from == 1


def _unkeyed_journal(path: Path) -> ChainHead:
    """A journal as main (0096c68) left it: no ``chain_keyed_from``, SHA-256 hashes, an unkeyed
    marker, no key file."""
    _build(path, 2)
    conn = raw(path)
    conn.execute("DELETE FROM meta WHERE key = 'chain_keyed_from'")
    conn.close()
    head = _rechain(path, None)
    _unkeyed_marker(path, head)
    key_path(path, TABLE).unlink()
    return head


def test_an_unkeyed_journal_is_migrated_forward_and_journaled(tmp_path: Path) -> None:
    path = tmp_path / NAME
    head = _unkeyed_journal(path)
    with JournalReader(path, TABLE) as reader:
        assert reader.verify().last_seq == head.seq  # verifiable as it was made, before the migration
    assert _opens(path)
    key = load_key(key_path(path, TABLE), TABLE)
    assert not pending_path(path, TABLE).exists()
    with JournalReader(path, TABLE) as reader:
        records = reader.records()
        assert reader.table_key().keyed_from == head.seq + 1
        reader.verify()
    fact = records[head.seq]
    assert (fact.seq, fact.kind, fact.source) == (head.seq + 1, HARDWARE_FACT, "daemon")
    assert fact.body["fact"] == "chain_keyed"
    assert fact.body["detail"] == {"unkeyed_seq": head.seq, "unkeyed_hash": head.hash, "key": key.name}
    # What came before keeps its hashes; a record before the migration changed is still refused.
    assert _opens(path)
    _change_a_meter(path)
    assert not _opens(path)


def test_a_migration_cut_off_finishes_at_the_next_open(tmp_path: Path) -> None:
    """The key is made as ``.new`` first: cut off before the fact, the migration runs again with
    that key; cut off after it, the rename is finished."""
    path = tmp_path / NAME
    head = _unkeyed_journal(path)
    pending = pending_path(path, TABLE)
    make_key(pending, TABLE)  # a first try made the key, then the power went
    secret = pending.read_bytes()
    assert _opens(path)
    assert key_path(path, TABLE).read_bytes() == secret and not pending.exists()
    # After the fact: the key put back as pending (the rename lost), the journal keyed.
    os.replace(key_path(path, TABLE), pending)
    assert _opens(path)
    assert key_path(path, TABLE).read_bytes() == secret
    with JournalReader(path, TABLE) as reader:
        assert [r.seq for r in reader.records() if r.body.get("fact") == "chain_keyed"] == [head.seq + 1]


def test_a_journal_refused_names_the_damage_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / NAME
    _build(path, 1)
    key = key_path(path, TABLE)
    key.chmod(0o600)
    key.write_text("not json")
    key.chmod(0o400)
    with pytest.raises(JournalError, match="chain key is damaged"):
        asyncio.run(Journal.open(path, TABLE, create=False))
