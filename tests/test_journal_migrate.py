"""``tablectl journal migrate``: a journal's schema moved forward only, journaled, verified after
(controller/journal/migrate.py; the package's upgrade runs it: docs/install.md)."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from controller.journal import SCHEMA_VERSION, Journal, JournalReader, JournalVersionError
from controller.journal.chain_key import key_path, load_key
from controller.journal.migrate import migrate
from controller.journal.records import HARDWARE_FACT
from controller.tablectl import EXIT_FAILED, EXIT_OK
from controller.tablectl import main as tablectl
from tests.test_journal import RECORDS, TABLE, deal, example
from tests.test_journal_tamper import NAME, _unkeyed_journal


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
    assert f"journal schema {SCHEMA_VERSION + 1} is newer than this release ({SCHEMA_VERSION})" in err
    assert "nothing was changed" in err
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


# --- schema 4: the keyed chain (issue 18), the step from 3 ----------------------------------


def meta_keys(path: Path, like: str) -> list[str]:
    with sqlite3.connect(path) as conn:
        return [k for (k,) in conn.execute("SELECT key FROM meta WHERE key LIKE ?", (like,))]


def test_schema_4_is_the_keyed_chain_and_a_new_journal_is_made_at_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal_mid_round(path)
    assert SCHEMA_VERSION == 4 and user_version(path) == 4


def test_an_unkeyed_schema_3_journal_is_keyed_by_migrate_and_says_4(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a release before the keyed chain left: schema 3, SHA-256 hashes, no key file."""
    path = tmp_path / NAME
    head = _unkeyed_journal(path)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 3")
    assert tablectl(["journal", "migrate", "--journal", str(path)]) == EXIT_OK
    assert f"schema version 3 -> 4; {head.seq + 1} record(s) verified" in capsys.readouterr().out
    assert user_version(path) == 4
    assert meta_keys(path, "migrated_%") == ["migrated_3_to_4_wall_ns"]
    key = load_key(key_path(path, TABLE), TABLE)
    with JournalReader(path, TABLE) as reader:
        assert reader.table_key().keyed_from == head.seq + 1
        fact = reader.records()[head.seq]
        reader.verify()
    assert (fact.kind, fact.source, fact.body["fact"]) == (HARDWARE_FACT, "daemon", "chain_keyed")
    assert fact.body["detail"] == {"unkeyed_seq": head.seq, "unkeyed_hash": head.hash, "key": key.name}


def test_a_keyed_schema_3_journal_is_moved_to_4_by_migrate_or_by_the_daemon(tmp_path: Path) -> None:
    """Keyed under schema 3 (the keyed chain came before the bump): the step only says so."""
    for by_daemon in (False, True):
        path = tmp_path / f"{by_daemon}.sqlite"
        last = journal_mid_round(path)
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA user_version = 3")
        if by_daemon:

            async def reopen(path: Path = path) -> int:
                async with await Journal.open(path, TABLE) as journal:
                    return journal.state.last_seq

            assert asyncio.run(reopen()) == last
        else:
            assert migrate(path).records == last
        assert user_version(path) == 4
        assert meta_keys(path, "migrated_%") == ["migrated_3_to_4_wall_ns"]


def test_a_journal_of_a_newer_schema_is_refused_naming_both_versions_changing_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    journal_mid_round(path)
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    files = sorted(tmp_path.iterdir())
    # The journal and its -wal, byte for byte (-shm is SQLite's shared-memory index of the WAL).
    before = {f: f.read_bytes() for f in files if not f.name.endswith("-shm")}
    said = (
        f"journal schema {SCHEMA_VERSION + 1} is newer than this release ({SCHEMA_VERSION}): "
        "install the newer release again"
    )
    with pytest.raises(JournalVersionError, match=re.escape(said)):
        asyncio.run(Journal.open(path, TABLE))
    with pytest.raises(JournalVersionError, match=re.escape(said)):
        JournalReader(path, TABLE)
    with pytest.raises(JournalVersionError, match=re.escape(said)):
        migrate(path)
    assert sorted(tmp_path.iterdir()) == files
    assert {f: f.read_bytes() for f in before} == before


PREINST = Path(__file__).parent.parent / "packaging/table-controller/preinst"


def run_preinst(tmp_path: Path, supports: int, *args: str) -> subprocess.CompletedProcess[str]:
    """The package's preinst as packaging/build.py renders it for a release reading ``supports``,
    its state directory moved to ``tmp_path`` (``python3.11``: this interpreter)."""
    text = PREINST.read_text().replace("@JOURNAL_SCHEMA@", str(supports)).replace("@VERSION@", "0.9")
    text = text.replace("STATE=/var/lib/table-controller", f"STATE={tmp_path}")
    script = tmp_path / "preinst"
    script.write_text(text)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    if not (bin_dir / "python3.11").exists():
        (bin_dir / "python3.11").symlink_to(sys.executable)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    return subprocess.run(["sh", str(script), *args], capture_output=True, text=True, env=env, check=False)


def test_the_packages_preinst_refuses_a_downgrade_that_would_strand_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal_mid_round(path)
    before = path.read_bytes()
    older = SCHEMA_VERSION - 1
    done = run_preinst(tmp_path, older, "upgrade", "1.0")
    assert done.returncode == 1
    assert f"journal schema {SCHEMA_VERSION} is newer than this release ({older})" in done.stderr
    assert "install the newer release again" in done.stderr and "Nothing was changed" in done.stderr
    assert path.read_bytes() == before
    # The release that reads it installs (``install``: this machine's units are never stopped).
    assert run_preinst(tmp_path, SCHEMA_VERSION, "install").returncode == 0
