"""``tablectl journal migrate``: a journal's schema moved forward only, journaled, verified after
(controller/journal/migrate.py; the package's upgrade runs it: docs/install.md)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from controller.journal import SCHEMA_VERSION, Journal, JournalReader, JournalVersionError
from controller.journal.migrate import migrate
from controller.tablectl import EXIT_FAILED, EXIT_OK
from controller.tablectl import main as tablectl
from tests.test_journal import RECORDS, TABLE, deal, example


def journal_mid_round(path: Path) -> int:
    """A journal with a settled round and one left open (as a kill -9 mid-round leaves it)."""

    async def write() -> int:
        async with await Journal.open(path, TABLE) as journal:
            await deal(journal, example(RECORDS[0]))
            await deal(journal, example(RECORDS[0]), settle=False, upto=3)
            return journal.state.last_seq

    return asyncio.run(write())


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def test_a_journal_of_this_schema_is_verified_and_left_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite"
    last = journal_mid_round(path)
    before = path.read_bytes()
    assert tablectl(["journal", "migrate", "--journal", str(path)]) == EXIT_OK
    assert "nothing to migrate; verified" in capsys.readouterr().out
    assert path.read_bytes() == before
    with JournalReader(path, TABLE) as reader:
        assert reader.verify().last_seq == last


def test_each_step_runs_in_order_is_recorded_and_the_chain_is_verified_after(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    last = journal_mid_round(path)
    with sqlite3.connect(path) as conn:  # as an older software would have left it
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    ran: list[int] = []

    def step(conn: sqlite3.Connection) -> None:
        ran.append(SCHEMA_VERSION - 1)
        conn.execute("CREATE TABLE migrated_example (x INTEGER)")

    done = migrate(path, {SCHEMA_VERSION - 1: step}, oldest=SCHEMA_VERSION - 1)
    assert (done.from_version, done.to_version, done.records) == (SCHEMA_VERSION - 1, SCHEMA_VERSION, last)
    assert ran == [SCHEMA_VERSION - 1] and user_version(path) == SCHEMA_VERSION
    with sqlite3.connect(path) as conn:
        keys = [k for (k,) in conn.execute("SELECT key FROM meta WHERE key LIKE 'migrated_%'")]
    assert keys == [f"migrated_{SCHEMA_VERSION - 1}_to_{SCHEMA_VERSION}_wall_ns"]


def test_a_failing_step_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal_mid_round(path)
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")

    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE half_done (x INTEGER)")
        raise sqlite3.OperationalError("the step fails half way")

    with pytest.raises(sqlite3.OperationalError):
        migrate(path, {SCHEMA_VERSION - 1: broken}, oldest=SCHEMA_VERSION - 1)
    assert user_version(path) == SCHEMA_VERSION - 1
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'").fetchone() == (0,)


def test_a_newer_journal_is_refused_before_anything_is_touched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite"
    journal_mid_round(path)
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    assert tablectl(["journal", "migrate", "--journal", str(path)]) == EXIT_FAILED
    err = capsys.readouterr().err
    assert f"schema version {SCHEMA_VERSION + 1} is newer than this software's ({SCHEMA_VERSION})" in err
    assert "nothing changed" in err
    assert path.read_bytes() == before


def test_no_step_means_no_change_and_a_version_without_a_chain_is_never_moved(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal_mid_round(path)
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    with pytest.raises(JournalVersionError, match=f"no migration from schema version {SCHEMA_VERSION - 1}"):
        migrate(path, {}, oldest=SCHEMA_VERSION - 1)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 2")
    with pytest.raises(JournalVersionError, match="has no hash chain"):
        migrate(path, {2: lambda conn: None}, target=SCHEMA_VERSION)
    assert user_version(path) == 2


def test_not_while_the_daemon_writes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "journal.sqlite"

    async def hold() -> int:
        async with await Journal.open(path, TABLE) as journal:
            await deal(journal, example(RECORDS[0]))
            return await asyncio.to_thread(tablectl, ["journal", "migrate", "--journal", str(path)])

    assert asyncio.run(hold()) == EXIT_FAILED
    assert "stop the daemon first" in capsys.readouterr().err
