"""A RAM clear (``tablectl journal new``): a technician with PIN archives the journal and begins a
new one chained to its last hash, the meters carried over (controller/journal/ram_clear.py)."""

from __future__ import annotations

import asyncio
import datetime
import io
import json
import sqlite3
import types
from pathlib import Path

import pytest

from controller.auth import Role, add_user
from controller.journal import Journal, JournalCorrupt, JournalReader
from controller.journal.link_count import Witnessed
from controller.journal.outbox import Outbound
from controller.journal.ram_clear import standing_meters
from controller.journal.records import RAM_CLEAR, HardwareFact
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


def new_outbox(path: Path) -> list[str]:
    with JournalReader(path, TABLE) as reader:
        return [e.kind for e in reader.outbox(0)]


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
    assert "told to the central meter" not in out  # never linked: nothing to tell
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
    assert new_outbox(path) == []  # a table that never spoke to the meter tells it nothing
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


def test_a_ram_clear_counts_the_link_on_from_the_archive(
    tmp_path: Path, users: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Forbids: a RAM clear numbering the new journal's records and outbox messages from 1 again,
    so that the central meter, which holds the archive's, reads it as an older copy put back
    ("behind") and drops its first messages as ones it has applied; and a RAM clear that loses
    outbox messages never sent to the meter."""
    path = tmp_path / "journal.sqlite3"

    def fact(n: int) -> HardwareFact:
        return HardwareFact("link", "test", {"n": n})

    async def linked_journal() -> list[str]:
        async with await Journal.open(path, TABLE) as journal:
            ids: list[str] = []
            for n in range(3):
                done = await journal.append(fact(n), source="link", outbox=[Outbound("status", {"n": n})])
                ids.extend(m.message_id for m in done.outbox)
            return ids

    ids = asyncio.run(linked_journal())
    assert clear(monkeypatch, path, users, "ttech", TECH_PIN) == EXIT_FAILED
    assert "outbox message seq 1 was never sent to the central meter" in capsys.readouterr().err
    assert list(tmp_path.glob("*.archived")) == []

    async def sent() -> None:
        async with await Journal.open(path, TABLE) as journal:
            assert await journal.mark_sent(ids) == 3

    asyncio.run(sent())
    with JournalReader(path, TABLE) as old:
        head, head_hash, some_hash = old.last_seq(), old.hash_at(old.last_seq()), old.hash_at(2)
    assert clear(monkeypatch, path, users, "ttech", TECH_PIN) == EXIT_OK
    out = capsys.readouterr().out
    assert f"the progressive link counts on from record {head}, outbox message 3" in out
    assert "the clear is told to the central meter (outbox message 4" in out
    (archive,) = tmp_path.glob("*.archived")
    with JournalReader(path, TABLE) as new:
        (first,) = new.records()
        assert (first.body["link_seq"], first.body["link_outbox_seq"]) == (head, 3)
        # Its one message: the clear itself, told to the meter as the archive's next (seq 4).
        (told,) = new.outbox(0)
        assert (told.seq, told.kind, told.event_seq) == (4, "ram_clear", head + 1)
        assert told.payload["previous"] == {"seq": head, "hash": head_hash}
        assert told.payload["by"] == "ttech" and told.payload["archive"] == archive.name
        assert TECH_PIN not in json.dumps(told.payload)  # who, never the PIN
        assert new.last_outbox_seq() == 4
        assert new.witnessed(head) == Witnessed(head_hash, f"the archive {archive.name} (its last record)")
        assert new.witnessed(2).hash == some_hash  # a witness older than the clear: in the archive
        assert new.witnessed(head + 2).hash is None  # past the journal's end: behind

    async def after() -> None:
        async with await Journal.open(path, TABLE) as journal:
            done = await journal.append(fact(9), source="link", outbox=[Outbound("status", {"n": 9})])
            (entry,) = done.outbox
            assert (entry.seq, entry.event_seq) == (5, head + journal.state.last_seq)  # counted on
            assert [e.seq for e in await journal.outbox_after(3)] == [4, 5]
            assert [e.seq for e in await journal.outbox_after(0)] == [4, 5]  # the archive's are not here
            assert await journal.last_outbox_seq() == 5
            witnessed = await journal.witnessed(entry.event_seq)
            assert witnessed.hash == journal.chain_head.hash and witnessed.checked
            await journal.mark_sent([e.message_id for e in await journal.outbox_after(3)])

    asyncio.run(after())
    with JournalReader(path, TABLE) as new:
        new_head = new.last_seq()

    # A second RAM clear counts on from both; a witness of the first archive is found two files back.
    later = types.SimpleNamespace(datetime=_Later, UTC=datetime.UTC)
    monkeypatch.setattr("controller.journal.ram_clear.datetime", later)
    assert clear(monkeypatch, path, users, "ttech", TECH_PIN) == EXIT_OK
    with JournalReader(path, TABLE) as newest:
        (first,) = newest.records()
        assert (first.body["link_seq"], first.body["link_outbox_seq"]) == (head + new_head, 5)
        assert newest.witnessed(2).hash == some_hash
        archive.rename(tmp_path / "elsewhere")  # the first archive taken away: cannot be compared
        assert not newest.witnessed(2).checked

    # The count is in the keyed chain: changed without the key, the journal is refused.
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER events_never_change")
    conn.execute("UPDATE events SET body = json_set(body, '$.link_seq', 0) WHERE seq = 1")
    conn.commit()
    conn.close()
    with JournalReader(path, TABLE) as changed, pytest.raises(JournalCorrupt, match="seq 1"):
        changed.verify()


class _Later(datetime.datetime):
    """A clock a minute on, so that a second RAM clear in the same second names another archive."""

    @classmethod
    def now(cls, tz: datetime.tzinfo | None = None) -> _Later:
        return cls.fromtimestamp(datetime.datetime.now(tz).timestamp() + 60, tz)
