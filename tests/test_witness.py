"""The meter's witness (issue 18, point 2): a linked table's journal put back from an older copy,
with its marker, opens clean at the table (docs/journal.md, "The chain key"); the meter, which
keeps the last journal chain head the table sent, shows it is behind.

The real daemon, a real Mosquitto (TLS, a certificate per table) and the central meter, as in
``tests/test_link_table.py``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from controller.api_client import ApiClient
from controller.journal.marker import marker_path
from controller.journal.state import PROGRESSIVE_LINK
from controller.link.witness import WITNESS_MISMATCH
from controller.tablectl import main as tablectl_main
from meter.witness import witness_path
from wire import Ack, ChainHead, Topics, decode_meter_message

from .mosquitto import Pki
from .table_link import api_round, daemon_of, linked_table, until


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
        tablectl_main(["doctor", "--config", str(rig.config_path)])
        out = capsys.readouterr().out
        assert "meter's witness" in out and "behind the meter" in out
