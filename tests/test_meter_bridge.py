"""Two sites, two brokers bridged on loopback (the shipped bridge example), one meter."""

from __future__ import annotations

import asyncio
from fractions import Fraction
from pathlib import Path

import pytest

from sim.link_rig import PARAMS, PROGRESSIVE
from wire import Share

from .meter_link import Link
from .mosquitto import Broker, Pki

pytestmark = pytest.mark.asyncio


async def test_contributions_and_a_hit_cross_the_bridge(tmp_path: Path) -> None:
    pki = Pki(tmp_path / "pki")
    home = Broker(tmp_path, pki, "a")  # the meter's site
    home.start()
    away = Broker(tmp_path, pki, "b", bridge_to=home)  # site-b, bridged to it
    away.start()
    link = Link(tmp_path, pki, home, {"t1": "site-a", "t3": "site-b"})
    try:
        await link.start_meter()
        t1 = link.table("t1", "site-a")
        t3 = link.table("t3", "site-b", broker=away)
        for t in (t1, t3):
            t.declare()
        for _ in range(30):
            t1.contribute(1000, 2)
            t3.contribute(2500, 5)
            await asyncio.sleep(0.01)
        await t1.all_acked(20)
        await t3.all_acked(20)  # its acks came back across the bridge
        meter = PARAMS.initial + 30 * (180 + 450)
        assert link.store is not None and link.store.ledger.progressives[PROGRESSIVE].amount == meter
        await t3.wait(lambda: t3.amounts[PROGRESSIVE].amount == meter, 10, "the amount at site b")
        hit = t3.hit(Share(Fraction(100)), seat=4)
        await t3.wait(lambda: hit.seq in t3.awards, 10, "the award at site b")
        assert (t3.awards[hit.seq].paid, t3.awards[hit.seq].meter_after) == (meter, PARAMS.reset)
        await t1.wait(lambda: t1.amounts[PROGRESSIVE].amount == PARAMS.reset, 10, "the reset at site a")
        await t3.wait(lambda: t3.amounts[PROGRESSIVE].amount == PARAMS.reset, 10, "the reset at site b")
        last = t1.amounts[PROGRESSIVE].last_award
        assert last is not None and (last.table, last.paid) == ("t3", meter)
        assert link.service is not None and link.service.table_status.get("t3") == "online"
    finally:
        await link.close()
        away.stop()
        home.stop()
