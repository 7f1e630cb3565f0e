"""``kill -9`` of the meter process at random moments under a stream of contributions.

The meter runs as its own process (``python -m meter run``) on a real broker; three tables
keep dealing rounds while it is killed again and again, at random moments: half anywhere in its
start (verifying its store, connecting), half while it works (applying a batch, publishing its
acks), so that both kinds are many on a loaded machine too. Afterwards every contribution
is in the store exactly once, in each table's order, and the meter is initial + rate x wagers.
"""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path

import pytest

from meter.config import load
from meter.main import main
from sim.link_rig import PAYTABLE_B, meter_config, meter_process
from sim.sim_table import SimTable

from .mosquitto import Broker, Pki
from .test_meter_link import contributions_in_store, expected_meter, stream

pytestmark = pytest.mark.asyncio


async def _kill_the_meter(tmp_path: Path, kills: int, seed: int, ceiling: str | None = None) -> None:
    """``ceiling``: the progressive's (its own overflow meter takes what goes past it)."""
    rng = random.Random(seed)
    pki = Pki(tmp_path / "pki")
    broker = Broker(tmp_path, pki)
    broker.start()
    capped = () if ceiling is None else (*PAYTABLE_B, f'ceiling = "{ceiling}"')
    config = meter_config(
        tmp_path / "meter", broker, pki, {"t1": "site-a", "t2": "site-a", "t3": "site-a"}, paytable=capped
    )
    log = tmp_path / "meter.log"
    stop = asyncio.Event()
    tables = [SimTable(n, "site-a", broker, pki) for n in ("t1", "t2", "t3")]
    runs = [asyncio.create_task(t.run(stop)) for t in tables]
    try:
        for t in tables:
            t.declare()
        dealing = asyncio.create_task(stream(tables, 3600, rng))
        applied_between_kills = 0
        for _ in range(kills):
            before = sum(t.acked for t in tables)
            proc = meter_process(config, log)
            if rng.random() < 0.5:  # anywhere in its start: verifying the store, connecting, ...
                await asyncio.sleep(rng.uniform(0.05, 0.8))
            else:  # ... or while it applies: once an ack shows it working, a little later
                # A meter's start (Python, the store's chain check, TLS) takes seconds on a loaded
                # machine, more as the store grows: wait long enough that the test measures the
                # meter, not the machine.
                await tables[0].wait(
                    lambda b=before: sum(t.acked for t in tables) > b, 30, "the meter at work"
                )
                await asyncio.sleep(rng.uniform(0.0, 0.3))
            proc.send_signal(signal.SIGKILL)
            await asyncio.to_thread(proc.wait)
            assert proc.returncode == -signal.SIGKILL
            applied_between_kills += sum(t.acked for t in tables) > before
        dealing.cancel()
        started = log.read_text().count("verified:")
        proc = meter_process(config, log)
        try:
            for t in tables:
                await t.all_acked(timeout=40)
            # The previous meters may have applied everything: this one must be running (its
            # store verified, its SIGTERM handler set) before it is told to stop.
            await tables[0].wait(lambda: log.read_text().count("verified:") > started, 30, "the meter up")
            await asyncio.sleep(0.5)
        finally:
            proc.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(proc.wait, 10) == 0
        recorded = contributions_in_store(load(config).store)
        for t in tables:
            assert recorded[t.table] == [m.seq for m in t.outbox[1:]]  # each once, in order
        (status,) = _status(config)["progressives"]
        amount = int(status["amount"].replace(".", ""))
        if ceiling is None:
            assert amount == expected_meter(tables)
        else:  # the meter at its ceiling, the rest on its overflow meter: nothing lost or doubled
            held = int(status["overflow_held"].replace(".", ""))
            assert amount == int(ceiling.replace(".", "")) and amount + held == expected_meter(tables)
        # The stream ran through the kills (fewer kills, a shorter run: 60 messages a kill at least).
        assert sum(len(t.outbox) for t in tables) > min(1000, 60 * kills)
        assert applied_between_kills >= kills // 3, (
            f"{applied_between_kills} of {kills} kills fell while applying"
        )
        assert main(["--config", str(config), "verify"]) == 0
        assert pki.passwords["progressive-meter"] not in log.read_text()  # no secret in its log
    finally:
        stop.set()
        await asyncio.gather(*runs, return_exceptions=True)
        broker.stop()


def _status(config: Path) -> dict[str, list[dict[str, str]]]:
    import contextlib
    import io
    import json

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["--config", str(config), "status", "--json"]) == 0
    return dict(json.loads(out.getvalue()))


async def test_kill_9_of_the_meter_at_50_random_moments(tmp_path: Path) -> None:
    await _kill_the_meter(tmp_path, 50, seed=50)


async def test_kill_9_of_a_meter_past_its_ceiling_at_10_random_moments(tmp_path: Path) -> None:
    """The same with a ceiling the stream soon reaches: every cent past it on the overflow meter."""
    await _kill_the_meter(tmp_path, 10, seed=10, ceiling="10020.00")


@pytest.mark.slow
async def test_kill_9_of_the_meter_at_250_random_moments(tmp_path: Path) -> None:
    await _kill_the_meter(tmp_path, 250, seed=250)
