"""The meter's store in a process of its own (meter/desk.py): it lives and dies with the meter.

The meter as systemd runs it (``python -m meter run``) on a real broker, a table dealing: a
``kill -9`` of the meter ends its store's process within the batch in hand (no orphan holding
the store's lock or writing behind a new meter's back); a SIGTERM ends both, the last batch told;
the store's process killed alone stops the meter with its reason published, never a meter that
looks online and applies nothing.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from meter.main import EX_SOFTWARE, main
from sim.link_rig import PARAMS, PROGRESSIVE, meter_config, meter_process
from sim.sim_table import SimTable

from .meter_link import running_link
from .mosquitto import Broker, Pki

pytestmark = pytest.mark.asyncio
STORE_PID = re.compile(r"verified: .*in the store's process, pid (\d+)\)")


@dataclass
class _Rig:
    config: Path
    log: Path
    table: SimTable

    async def store_pid(self, starts: int) -> int:
        """The store's process of the ``starts``-th meter started on this rig, from its log."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            pids = STORE_PID.findall(self.log.read_text())
            if len(pids) >= starts:
                return int(pids[starts - 1])
            await asyncio.sleep(0.05)
        raise AssertionError(f"no store process in the meter's log:\n{self.log.read_text()}")


@asynccontextmanager
async def _rig(tmp_path: Path) -> AsyncIterator[_Rig]:
    pki = Pki(tmp_path / "pki")
    broker = Broker(tmp_path, pki)
    broker.start()
    config = meter_config(tmp_path / "meter", broker, pki, {"t1": "site-a"})
    table = SimTable("t1", "site-a", broker, pki)
    stop = asyncio.Event()
    run = asyncio.create_task(table.run(stop))
    try:
        table.declare()
        yield _Rig(config, tmp_path / "meter.log", table)
    finally:
        stop.set()
        await asyncio.gather(run, return_exceptions=True)
        broker.stop()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead (reaped by init once its parent is gone): its state says so.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


async def _gone(pid: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


async def test_kill_9_of_the_meter_takes_its_store_process_with_it(tmp_path: Path) -> None:
    """Forbids: the store's process outliving a killed meter (its transaction committed behind
    the next meter's back, or its lock keeping the next meter from starting)."""
    async with _rig(tmp_path) as rig:
        t = rig.table
        proc = meter_process(rig.config, rig.log)
        store = await rig.store_pid(1)
        await t.all_acked(timeout=30)
        for _ in range(200):
            t.contribute(500)
        await t.wait(lambda: t.acked > 50, 30, "the meter at work")
        proc.send_signal(signal.SIGKILL)
        await asyncio.to_thread(proc.wait)
        assert await _gone(store, 2.0), "the store's process outlived the meter"
        # The next meter opens the store at once and applies the rest, each once.
        again = meter_process(rig.config, rig.log)
        try:
            await rig.store_pid(2)
            t.contribute(500)
            await t.all_acked(timeout=30)
        finally:
            again.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(again.wait, 10) == 0
    assert main(["--config", str(rig.config), "verify"]) == 0


async def test_sigterm_ends_the_meter_and_its_store_process(tmp_path: Path) -> None:
    async with _rig(tmp_path) as rig:
        proc = meter_process(rig.config, rig.log)
        store = await rig.store_pid(1)
        await rig.table.all_acked(timeout=30)
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(proc.wait, 10) == 0
        assert await _gone(store, 1.0)
        await rig.table.wait(
            lambda: rig.table.meter_status is not None and rig.table.meter_status.status == "offline",
            10,
            "the meter's offline",
        )


async def test_the_store_process_killed_alone_stops_the_meter_with_its_reason(tmp_path: Path) -> None:
    """Forbids: a meter whose store is gone staying online (heartbeats, no acks), or hanging."""
    async with _rig(tmp_path) as rig:
        t = rig.table
        proc = meter_process(rig.config, rig.log)
        try:
            store = await rig.store_pid(1)
            await t.all_acked(timeout=30)
            os.kill(store, signal.SIGKILL)  # idle: nothing sent meanwhile
            assert await asyncio.to_thread(proc.wait, 10) == EX_SOFTWARE
        finally:
            if proc.poll() is None:
                proc.kill()
        await t.wait(lambda: t.meter_status is not None and t.meter_status.status == "offline", 10, "offline")
        assert t.meter_status is not None and f"store process (pid {store}) ended" in (
            t.meter_status.reason or ""
        )
        assert f"store process (pid {store}) ended unasked (killed by signal 9)" in rig.log.read_text()
    assert main(["--config", str(rig.config), "verify"]) == 0


async def test_a_full_disk_stops_the_meter_offline_with_its_reason_and_nothing_told(
    tmp_path: Path, pki: Pki
) -> None:
    """The store's failure comes back with the batch (``Told.failed``): the meter tells nothing of
    it, publishes ``offline`` with the reason once, and stops (``progressive-meter run`` exits 74)."""
    async with running_link(tmp_path, pki, {"t1": "site-a"}) as link:
        t1 = link.table("t1")
        t1.declare()
        t1.contribute(1000)
        await t1.all_acked()
        assert link.store is not None and link.service is not None
        pages = link.store.conn.execute("PRAGMA page_count").fetchone()[0]
        link.store.conn.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's "database or disk is full"
        for _ in range(400):
            t1.contribute(500)
        await t1.wait(
            lambda: t1.meter_status is not None and t1.meter_status.status == "offline", 20, "offline"
        )
        assert "database or disk is full" in (t1.meter_status.reason or "")
        assert link.service.failed is not None and not link.service.crashed
        # What was told is what is kept (a first small batch may still fit the last page); the
        # failed batch is neither, and the meter stopped before the rest.
        kept = link.store.applied_seqs()["t1"]
        assert t1.acked == kept < 402
        assert link.store.ledger.progressives[PROGRESSIVE].amount == PARAMS.initial + 180 + (kept - 2) * 90
