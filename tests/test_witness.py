"""The meter's witness (issue 18, point 2): a linked table's journal put back from an older copy,
with its marker, opens clean at the table (docs/journal.md, "The chain key"); the meter, which
keeps the last journal chain head the table sent, shows it is behind.

The real daemon, a real Mosquitto (TLS, a certificate per table) and the central meter, as in
``tests/test_link_table.py``.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import shutil
from pathlib import Path

import pytest

from controller.api_client import ApiClient
from controller.auth import Role, add_user
from controller.journal import Journal, JournalReader
from controller.journal.chain_key import key_path, load_key
from controller.journal.marker import HeadMarker, marker_path, write_marker
from controller.journal.ram_clear import standing_meters
from controller.journal.records import RAM_CLEAR, CancelRound, RamClear
from controller.journal.state import PROGRESSIVE_LINK
from controller.link.witness import WITNESS_MISMATCH
from controller.tablectl import main as tablectl_main
from meter.report import format_status, history
from meter.report import status as meter_status
from meter.witness import witness_path
from sim.bench_rig import BenchRig
from wire import Ack, ChainHead, Topics, decode_meter_message

from .mosquitto import Pki
from .table_link import api_round, daemon_of, linked_table, until
from .test_journal import raw
from .test_journal_tamper import _rechain


def test_the_witness_rides_on_the_wire_and_is_optional() -> None:
    topics = Topics("progressive")
    head = ChainHead(41, "ab" * 32)
    ack = Ack("t1", 7, None, head)
    data = json.dumps({"schema": 1, "kind": "ack", **ack.to_json()})
    assert decode_meter_message(data, topics.parse(topics.ack("t1"))) == ack
    plain = json.dumps({"schema": 1, "kind": "ack", **Ack("t1", 7).to_json()})
    assert decode_meter_message(plain, topics.parse(topics.ack("t1"))).witness is None  # type: ignore[union-attr]


@pytest.mark.asyncio
async def test_an_older_copy_put_back_on_a_linked_table_closes_progressive_wagering(
    tmp_path: Path, pki: Pki, capsys: pytest.CaptureFixture[str]
) -> None:
    """Forbids: "put the journal and its marker back from an older copy (opens clean, 72 records
    gone). On a linked table the meter had applied outbox seqs 4-7 that the restored journal no
    longer held: nobody noticed, wagering stayed open, four rounds' contributions were never sent."""
    async with linked_table(tmp_path, pki, "t1") as (link, rig):
        daemon = daemon_of(rig)
        journal = rig.path / "journal.sqlite"
        older = tmp_path / "older"
        older.mkdir()

        def link_up() -> bool:
            status = daemon.state.devices.get(PROGRESSIVE_LINK)
            return status is not None and status.online

        async with await ApiClient.connect(rig.socket) as api:
            await until(link_up, 10, "the link up")
            await api_round(api, rig)
            await until(
                lambda: daemon.link is not None and daemon.link.publisher.state.applied_seq >= 2, 10, "acked"
            )
        await rig.stop_daemon()
        for f in (journal, marker_path(journal)):
            shutil.copy(f, older / f.name)  # the older copy, taken while the daemon was stopped
        daemon = await rig.start_daemon()
        async with await ApiClient.connect(rig.socket) as api:
            await until(link_up, 10, "the link up again")
            for _ in range(4):
                await api_round(api, rig)
            last = await daemon.journal.last_outbox_seq()  # type: ignore[union-attr]
            await until(
                lambda: daemon.link is not None and daemon.link.publisher.state.applied_seq >= last,
                20,
                "acked",
            )
        witnessed = json.loads(witness_path(link.config.store).read_text())["t1"]
        assert witnessed["seq"] > 0 and len(witnessed["hash"]) == 64
        await rig.stop_daemon()
        for f in (older / journal.name, older / marker_path(journal).name):
            shutil.copy(f, rig.path / f.name)
        for suffix in ("-wal", "-shm"):
            journal.with_name(journal.name + suffix).unlink(missing_ok=True)
        daemon = await rig.start_daemon()  # it opens: the journal alone cannot tell
        await until(
            lambda: "the journal is behind the meter" in (daemon.state.progressive_link_down or ""),
            15,
            "progressive wagering closed",
        )
        assert "the journal is behind the meter" in str(daemon.state.progressive_link_down)
        async with await ApiClient.connect(rig.socket) as api:
            status = await api.status()
        assert "behind the meter" in str(status["link"]["witness"]["refusal"])
        assert status["link"]["witness"]["meter"] == witnessed
        facts = [r for r in await daemon.journal.records() if r.body.get("fact") == WITNESS_MISMATCH]  # type: ignore[union-attr]
        assert len(facts) == 1 and facts[0].body["detail"]["witness"] == witnessed
        assert facts[0].body["detail"]["meter_applied_seq"] > facts[0].body["detail"]["journal_outbox_seq"]
        # It stays closed: the meter's word coming again does not open it.
        await until(
            lambda: daemon.link is not None and daemon.link.publisher.state.last_word is not None, 10, "word"
        )
        assert daemon.state.progressive_link_down is not None
        await rig.stop_daemon()
        capsys.readouterr()
        # The daemon stopped: doctor reads the meter's retained ack on the broker (its own thread:
        # the broker and meter run on this loop).
        await asyncio.to_thread(tablectl_main, ["doctor", "--config", str(rig.config_path)])
        out = capsys.readouterr().out
        (live,) = [line for line in out.splitlines() if "witness says" in line]
        assert live.startswith("FAIL meter's witness: journal head seq") and "behind the meter" in live
        assert f"witness says seq {witnessed['seq']}" in live and "retained ack on the broker" in live
        assert "journaled at seq" in out, out  # and the evidence the daemon kept


TECH, TECH_PIN = "ttech", "730152"


async def _ram_clear(rig_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tablectl journal new`` as the technician does it (PIN on stdin), the daemon stopped."""
    users = rig_path / "users.json"
    add_user(users, TECH, Role.TECH, TECH_PIN)
    monkeypatch.setattr("sys.stdin", io.StringIO(TECH_PIN + "\n"))
    journal = rig_path / "journal.sqlite"
    argv = ["journal", "new", "--journal", str(journal), "--user", TECH, "--users-file", str(users)]
    assert await asyncio.to_thread(tablectl_main, argv) == 0  # its own event loop


@pytest.mark.asyncio
async def test_a_ram_clear_is_witnessed_not_behind_and_an_old_copy_after_it_still_is(
    tmp_path: Path, pki: Pki, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forbids: after a RAM clear (``tablectl journal new``) the new journal, shorter than what the
    meter last saw, read as "behind the meter" (progressive wagering closed for good, the new
    journal's contributions taken by the meter for seqs it had applied already). The RAM clear is
    counted on: the new journal's records and outbox messages follow the archive's on the link,
    its first record names the archive's head; an older copy of the new journal put back is
    still behind."""
    async with linked_table(tmp_path, pki, "t1") as (link, rig):
        daemon = daemon_of(rig)
        journal = rig.path / "journal.sqlite"

        def link_up() -> bool:
            status = daemon.state.devices.get(PROGRESSIVE_LINK)
            return status is not None and status.online

        async def rounds(n: int) -> int:
            async with await ApiClient.connect(rig.socket) as api:
                await until(link_up, 10, "the link up")
                for _ in range(n):
                    await api_round(api, rig)
                last = await daemon.journal.last_outbox_seq()  # type: ignore[union-attr]
                await until(
                    lambda: daemon.link is not None and daemon.link.publisher.state.applied_seq >= last,
                    20,
                    "acked",
                )
            return last

        before = await rounds(2)
        await rig.stop_daemon()
        await _ram_clear(rig.path, monkeypatch)
        capsys.readouterr()
        (archive,) = rig.path.glob("*.archived")
        with JournalReader(archive) as old:
            old_head = old.last_seq()
            old_hash = old.hash_at(old_head)
        with JournalReader(journal) as new:
            (first,) = new.records(0, 1)
        assert first.kind == RAM_CLEAR and first.actor == TECH
        assert (first.body["previous_seq"], first.body["previous_hash"]) == (old_head, old_hash)
        # Where the archive ended on the link's count: the new journal counts on from there.
        assert (first.body["link_seq"], first.body["link_outbox_seq"]) == (old_head, before)
        older = tmp_path / "older"
        older.mkdir()
        for f in (journal, marker_path(journal)):
            shutil.copy(f, older / f.name)  # an older copy of the new journal, right after the clear

        daemon = await rig.start_daemon()
        after = await rounds(2)
        assert daemon.state.progressive_link_down is None
        assert daemon.link is not None and daemon.link.publisher.state.witness_refusal is None
        assert after > before  # the outbox counts on: the meter applied the new journal's messages
        witnessed = json.loads(witness_path(link.config.store).read_text())["t1"]
        assert witnessed["seq"] > old_head  # the meter's witness moved onto the new journal
        facts = [r for r in await daemon.journal.records() if r.body.get("fact") == WITNESS_MISMATCH]  # type: ignore[union-attr]
        assert facts == []
        # The clear was told: the meter recorded it (who, when, the archive's head) and names it.
        (record,) = history(link.config, kinds=(RAM_CLEAR,))
        assert (record["table"], record["table_seq"]) == ("t1", before + 1)
        assert record["body"]["previous"] == {"seq": old_head, "hash": old_hash}
        assert record["body"]["by"] == TECH and record["body"]["archive"] == archive.name
        assert TECH_PIN not in json.dumps(record)
        assert daemon.link.publisher.state.ack is not None
        assert daemon.link.publisher.state.ack.ram_clear == ChainHead(old_head, str(old_hash))
        assert "RAM clear by ttech at" in format_status(meter_status(link.config))
        capsys.readouterr()
        # The slot tech's view: the daemon answers on its socket (doctor in its own thread).
        await asyncio.to_thread(tablectl_main, ["doctor", "--config", str(rig.config_path)])
        out = capsys.readouterr().out
        assert f"witness says seq {witnessed['seq']}" in out and "ok   meter's witness" in out, out
        assert "live, from the running daemon" in out and "journal head seq" in out

        await rig.stop_daemon()
        for f in (older / journal.name, older / marker_path(journal).name):
            shutil.copy(f, rig.path / f.name)
        for suffix in ("-wal", "-shm"):
            journal.with_name(journal.name + suffix).unlink(missing_ok=True)
        daemon = await rig.start_daemon()
        await until(
            lambda: "the journal is behind the meter" in (daemon.state.progressive_link_down or ""),
            15,
            "progressive wagering closed",
        )


async def _forge_clear(path: Path) -> None:
    """What root can do with the table's key and the product's own functions: a new journal that
    continues from the archive's head exactly as a RAM clear's does, its ``ram_clear`` record and
    count the real ones', but the clear's message to the meter left out."""
    with JournalReader(path) as reader:
        table_id = reader.table_id
    old = await Journal.open(path, table_id, create=False)
    try:
        if old.state.current is not None:
            await old.append(CancelRound("forged"), source="tablectl", actor=TECH)
        head, meters = old.chain_head, standing_meters(old.state)
        link_seq, link_outbox_seq = old.link_seq(head.seq), await old.last_outbox_seq()
    finally:
        await old.close()
    archive = path.with_name(f"{path.name}.20261202T000000Z.archived")
    os.replace(marker_path(path), marker_path(archive))
    os.replace(path, archive)
    meta = {"previous_journal": archive.name, "previous_seq": str(head.seq)}
    new = await Journal.open(path, table_id, create=True, genesis=head.hash, meta=meta)
    try:
        entry = RamClear(archive.name, head.seq, head.hash, meters, link_seq, link_outbox_seq)
        await new.append(entry, source="tablectl", actor=TECH)  # no outbox: the meter is never told
    finally:
        await new.close()


@pytest.mark.asyncio
async def test_a_new_journal_whose_clear_the_meter_never_heard_of_is_not_opened(
    tmp_path: Path, pki: Pki, capsys: pytest.CaptureFixture[str]
) -> None:
    """Forbids: root, who can read the journal key and edit the users file, beginning a new journal
    that continues from the meter's last witnessed head (so it is neither behind nor beside the
    witness) without the meter being told of the clear, and the table dealing on with the
    progressive open (docs/progressive-link.md, "A RAM clear on the link")."""
    async with linked_table(tmp_path, pki, "t1") as (link, rig):
        daemon = daemon_of(rig)
        journal = rig.path / "journal.sqlite"
        async with await ApiClient.connect(rig.socket) as api:
            await until(lambda: daemon.state.progressive_link_down is None, 10, "the link up")
            for _ in range(2):
                await api_round(api, rig)
            last = await daemon.journal.last_outbox_seq()  # type: ignore[union-attr]
            await until(
                lambda: daemon.link is not None and daemon.link.publisher.state.applied_seq >= last,
                20,
                "acked",
            )
        await rig.stop_daemon()
        await _forge_clear(journal)
        with JournalReader(journal) as reader:
            reader.verify()  # the journal alone cannot tell: made with the key
            assert reader.outbox(0) == []
        daemon = await rig.start_daemon()
        await until(
            lambda: "restarted at a RAM clear" in (daemon.state.progressive_link_down or ""),
            15,
            "progressive wagering not opened",
        )
        assert "the meter has no record of" in str(daemon.state.progressive_link_down)
        records = await daemon.journal.records()  # type: ignore[union-attr]
        facts = [r for r in records if r.body.get("fact") == WITNESS_MISMATCH]
        assert len(facts) == 1 and facts[0].body["detail"]["meter_ram_clear"] is None
        assert facts[0].body["detail"]["journal_ram_clear"]["seq"] == records[0].body["link_seq"]
        opened = [
            r for r in records if r.kind == "device_online" and r.body.get("device") == PROGRESSIVE_LINK
        ]
        assert opened == []  # never open on the forged journal
        assert history(link.config, kinds=(RAM_CLEAR,)) == []  # and the meter holds no clear
        # Two checks at once (the watch's and the start's), the ack not yet judged: the second
        # waits for the first's judgement and does not open meanwhile (a race of a few ms that
        # once journaled device_online on this journal).
        table_link = daemon.link
        assert table_link is not None
        state = table_link.publisher.state
        assert state.ack is not None
        state.witness_refusal = None
        state.unjudged.append(state.ack)
        await asyncio.gather(table_link.check(), table_link.check())
        records = await daemon.journal.records()  # type: ignore[union-attr]
        opened = [
            r for r in records if r.kind == "device_online" and r.body.get("device") == PROGRESSIVE_LINK
        ]
        assert opened == []
        assert "restarted at a RAM clear" in str(daemon.state.progressive_link_down)
        capsys.readouterr()
        await asyncio.to_thread(tablectl_main, ["doctor", "--config", str(rig.config_path)])
        out = capsys.readouterr().out
        (live,) = [line for line in out.splitlines() if "witness says" in line]
        assert live.startswith("FAIL meter's witness") and "restarted at a RAM clear" in live, out


@pytest.mark.asyncio
async def test_doctor_says_what_an_unlinked_table_cannot_see(
    rig: BenchRig, capsys: pytest.CaptureFixture[str]
) -> None:
    """Forbids: a table with no witness shown as if its journal were witnessed."""
    capsys.readouterr()
    await asyncio.to_thread(tablectl_main, ["doctor", "--config", str(rig.config_path)])
    out = capsys.readouterr().out
    (line,) = [x for x in out.splitlines() if "meter's witness" in x]
    assert line.startswith("ok   meter's witness: none: the table is not linked")
    assert "older copy of the journal and its marker put back cannot be seen" in line


@pytest.mark.asyncio
async def test_a_history_rewritten_with_the_key_is_beside_the_meter(
    tmp_path: Path, pki: Pki, capsys: pytest.CaptureFixture[str]
) -> None:
    """Forbids: root, who can read the chain key, changing a meter in an old record, recomputing
    the chain and the marker with the table's own key (the journal opens and verifies), and the
    linked table dealing on as if nothing happened: the meter's witness holds another hash at
    its seq (docs/journal.md, "The chain key": what the witness adds)."""
    async with linked_table(tmp_path, pki, "t1") as (_, rig):
        daemon = daemon_of(rig)
        journal = rig.path / "journal.sqlite"
        async with await ApiClient.connect(rig.socket) as api:
            await until(lambda: daemon.state.progressive_link_down is None, 10, "the link up")
            for _ in range(2):
                await api_round(api, rig)
            last = await daemon.journal.last_outbox_seq()  # type: ignore[union-attr]
            await until(
                lambda: daemon.link is not None and daemon.link.publisher.state.applied_seq >= last,
                20,
                "acked",
            )
        assert daemon.link is not None
        retained = daemon.link.publisher.state.ack  # what the meter keeps for the next start
        await rig.stop_daemon()
        key = load_key(key_path(journal, "t1"), "t1")
        conn = raw(journal)  # a device's first report rewritten: the rounds still settle as journaled
        conn.execute("DROP TRIGGER IF EXISTS events_never_change")
        changed = conn.execute(
            "UPDATE events SET body = json_set(body, '$.detail', 'rewritten') WHERE seq = "
            "(SELECT min(seq) FROM events WHERE kind = 'device_online')"
        ).rowcount
        conn.close()
        assert changed == 1
        head = _rechain(journal, key)
        write_marker(journal, HeadMarker("t1", head, clean=True), key)
        with JournalReader(journal) as reader:
            reader.verify()  # the journal alone cannot tell: made with the key
        daemon = await rig.start_daemon()
        await until(
            lambda: "the journal is beside the meter" in (daemon.state.progressive_link_down or ""),
            15,
            "progressive wagering closed",
        )
        facts = [r for r in await daemon.journal.records() if r.body.get("fact") == WITNESS_MISMATCH]  # type: ignore[union-attr]
        assert len(facts) == 1 and "journal_hash" in facts[0].body["detail"]
        capsys.readouterr()
        await asyncio.to_thread(tablectl_main, ["doctor", "--config", str(rig.config_path)])
        out = capsys.readouterr().out
        (live,) = [line for line in out.splitlines() if "witness says" in line]
        assert live.startswith("FAIL meter's witness") and "beside the meter" in live, out
        # The retained ack and the meter's ack of this run's declaration both heard before a check
        # ran (a loaded machine): the newer one's witness is the forged journal's own head, so it
        # agrees; the retained one must still be judged (once, only the newest was: the CI-like
        # run under load opened progressive wagering on this journal).
        table_link = daemon.link
        assert table_link is not None and retained is not None
        state = table_link.publisher.state
        newer = state.ack
        assert newer is not None and newer.witness != retained.witness
        await until(lambda: not state.unjudged, 10, "every ack judged")
        state.witness_refusal = None
        state.heard(retained)
        state.heard(newer)
        await table_link.check()
        assert state.witness_refusal is not None and "beside the meter" in state.witness_refusal
        opened = [
            r
            for r in await daemon.journal.records()  # type: ignore[union-attr]
            if r.kind == "device_online" and r.body.get("device") == PROGRESSIVE_LINK
        ]
        restarted = max(r.seq for r in await daemon.journal.records() if r.kind == "started")  # type: ignore[union-attr]
        assert [r for r in opened if r.seq > restarted] == []


@pytest.mark.asyncio
async def test_the_witness_is_compared_when_the_link_comes_back(tmp_path: Path, pki: Pki) -> None:
    """At the start and on reconnect: an older copy put back while the broker is down opens, the
    link is down ("meter not heard"), and once the broker is back the meter's retained ack shows
    the journal behind; progressive wagering never opened in between."""
    async with linked_table(tmp_path, pki, "t1") as (link, rig):
        daemon = daemon_of(rig)
        journal = rig.path / "journal.sqlite"
        older = tmp_path / "older"
        older.mkdir()

        async def rounds(n: int) -> None:
            async with await ApiClient.connect(rig.socket) as api:
                await until(lambda: daemon.state.progressive_link_down is None, 10, "the link up")
                for _ in range(n):
                    await api_round(api, rig)
                last = await daemon.journal.last_outbox_seq()  # type: ignore[union-attr]
                await until(
                    lambda: daemon.link is not None and daemon.link.publisher.state.applied_seq >= last,
                    20,
                    "acked",
                )

        await rounds(1)
        await rig.stop_daemon()
        for f in (journal, marker_path(journal)):
            shutil.copy(f, older / f.name)
        daemon = await rig.start_daemon()
        await rounds(3)
        await rig.stop_daemon()
        for f in (older / journal.name, older / marker_path(journal).name):
            shutil.copy(f, rig.path / f.name)
        for suffix in ("-wal", "-shm"):
            journal.with_name(journal.name + suffix).unlink(missing_ok=True)
        link.broker.stop()
        daemon = await rig.start_daemon()
        await asyncio.sleep(1.0)
        assert daemon.link is not None and daemon.link.publisher.state.witness_refusal is None  # not heard
        assert "meter not heard" in str(daemon.state.progressive_link_down)
        link.broker.start()
        await until(
            lambda: "the journal is behind the meter" in (daemon.state.progressive_link_down or ""),
            20,
            "progressive wagering closed on reconnect",
        )
        opened = [
            r
            for r in await daemon.journal.records()  # type: ignore[union-attr]
            if r.kind == "device_online" and r.body.get("device") == PROGRESSIVE_LINK
        ]
        started = max(r.seq for r in await daemon.journal.records() if r.kind == "started")  # type: ignore[union-attr]
        assert [r.seq for r in opened if r.seq > started] == []  # never open in between
