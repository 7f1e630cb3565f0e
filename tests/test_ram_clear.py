"""A RAM clear (``tablectl journal new``): a technician with PIN archives the journal and begins a
new one chained to its last hash, the meters carried over (controller/journal/ram_clear.py)."""

from __future__ import annotations

import asyncio
import io
import sqlite3
from pathlib import Path

import pytest

from controller.auth import Role, add_user
from controller.journal import Journal, JournalReader
from controller.journal.ram_clear import standing_meters
from controller.journal.records import RAM_CLEAR
from controller.tablectl import EXIT_FAILED, EXIT_OK
from controller.tablectl import main as tablectl
from tests.test_journal import EXAMPLES, RECORDS, TABLE, deal, example

TECH_PIN = "730152"
FLOOR_PIN = "204816"
PROGRESSIVE_HIT = EXAMPLES / "caribbean-stud" / "progressive-hit.json"


@pytest.fixture
def users(tmp_path: Path) -> Path:
    path = tmp_path / "users.json"
    add_user(path, "ttech", Role.TECH, TECH_PIN)
    add_user(path, "mfloor", Role.FLOOR, FLOOR_PIN)
    path.chmod(0o600)
    return path


def clear(monkeypatch: pytest.MonkeyPatch, path: Path, users: Path, user: str, pin: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(pin + "\n"))
    return tablectl(["journal", "new", "--journal", str(path), "--user", user, "--users-file", str(users)])


def test_a_ram_clear_archives_chains_and_carries_the_meters(
    tmp_path: Path, users: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite3"

    async def before() -> tuple[int, str, dict[str, int]]:
        async with await Journal.open(path, TABLE) as journal:
            await deal(journal, example(RECORDS[0]))
            await deal(journal, example(PROGRESSIVE_HIT))
            return journal.state.last_seq, journal.chain_head.hash, standing_meters(journal.state)

    last, last_hash, meters = asyncio.run(before())
    assert meters and all(isinstance(v, int) for v in meters.values())

    # Not a technician, or a wrong PIN: nothing is touched.
    assert clear(monkeypatch, path, users, "mfloor", FLOOR_PIN) == EXIT_FAILED
    assert "a RAM clear is for a technician" in capsys.readouterr().err
    assert clear(monkeypatch, path, users, "ttech", "111112") == EXIT_FAILED
    assert "wrong user name or PIN" in capsys.readouterr().err
    assert list(tmp_path.glob("*.archived")) == []

    assert clear(monkeypatch, path, users, "ttech", TECH_PIN) == EXIT_OK
    out = capsys.readouterr().out
    assert f"(seq {last}, hash {last_hash[:16]}" in out and "RAM clear by ttech" in out
    (archive,) = tmp_path.glob("*.archived")
    assert Path(f"{archive}.head").exists()
    with JournalReader(archive, TABLE) as old:
        assert old.verify().last_seq == last  # the archive, whole and verifiable
    with JournalReader(path, TABLE) as new:
        state = new.verify()
        (first,) = new.records()
    assert first.kind == RAM_CLEAR and first.source == "tablectl" and first.actor == "ttech"
    assert first.body["previous_journal"] == archive.name and first.body["previous_seq"] == last
    assert first.body["previous_hash"] == last_hash
    assert state.carried_meters == meters
    conn = sqlite3.connect(path)
    genesis = conn.execute("SELECT value FROM meta WHERE key = 'chain_genesis'").fetchone()[0]
    conn.close()
    assert genesis == last_hash  # the new chain begins where the old one ended

    # The meters survive recovery once the RAM clear is older than the rounds recovery folds.
    async def later() -> None:
        async with await Journal.open(path, TABLE) as journal:
            for p in RECORDS[:11]:
                await deal(journal, example(p))
        async with await Journal.open(path, TABLE) as journal:
            assert journal.state.carried_meters == meters
            with JournalReader(path, TABLE) as reader:
                assert reader.replay_all() == journal.state

    asyncio.run(later())


def test_no_ram_clear_while_the_daemon_writes_or_a_round_is_open(
    tmp_path: Path, users: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite3"

    async def daemon_running() -> int:
        async with await Journal.open(path, TABLE) as journal:
            await deal(journal, example(RECORDS[0]), settle=False, upto=3)
            return await asyncio.to_thread(clear, monkeypatch, path, users, "ttech", TECH_PIN)

    assert asyncio.run(daemon_running()) == EXIT_FAILED
    assert "stop the daemon first" in capsys.readouterr().err
    assert clear(monkeypatch, path, users, "ttech", TECH_PIN) == EXIT_FAILED
    assert "is open; settle or void it before a RAM clear" in capsys.readouterr().err
    assert list(tmp_path.glob("*.archived")) == []
