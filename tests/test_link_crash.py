"""``kill -9`` of the table daemon at random moments while it publishes to the meter.

The daemon runs as its own process (``python -m controller.daemon --mock-pins``) on a real
Mosquitto (the shipped configuration) with the central meter in this process; rounds are keyed
through its local API, each step chosen from what the journal holds (the daemon recovers the
round after every kill). At the end every contribution the journal committed is in the meter's
store exactly once, in the journal's order, and the meter is initial + rate x wagers. Half the
kills fall anywhere in the daemon's start, half while it serves (timed from its API's first
answer, so a loaded machine's slow start does not leave every kill in the start).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from controller.api_client import ApiClient, ApiConnectionError, ApiError
from sim.bench_rig import RULES_SUBMISSION, TABLE_ID, config_text
from sim.link_rig import link_section

from .link_table import PARAMS, PROGRESSIVE
from .meter_link import running_link
from .mosquitto import REPO, Pki
from .table_link import DEALER, SEAT_1
from .test_meter_link import contributions_in_store

pytestmark = pytest.mark.asyncio

TABLE = "t1"
#: The steps of one round, in order: the next is the one after the round's events so far.
STEPS: tuple[dict[str, Any], ...] = (
    {"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"},
    {"type": "wager", "seat": 1, "wager": "progressive", "amount": "1.00"},
    {"type": "no_more_bets"},
    {"type": "cards", "to": "1", "cards": SEAT_1},
    {"type": "cards", "to": "dealer", "cards": DEALER},
    {"type": "decision", "seat": 1, "action": "fold"},
)


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return Pki(tmp_path_factory.mktemp("pki"))


def daemon_files(root: Path, pki: Pki, broker: Any) -> tuple[Path, Path]:
    directory = root / "table"
    directory.mkdir()
    submission = RULES_SUBMISSION.replace(f'table = "{TABLE_ID}"', f'table = "{TABLE}"')
    (directory / "rules-submission.toml").write_text(submission)
    text = config_text(directory).replace(f'id = "{TABLE_ID}"', f'id = "{TABLE}"')
    config = directory / "table-controller.toml"
    config.write_text(text + link_section(root, pki, broker, TABLE))
    sock = directory / "run" / "api.sock"
    if len(str(sock)) > 107:
        pytest.skip("temporary directory too deep for a Unix socket")
    return config, sock


def spawn(config: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "controller.daemon", "--config", str(config), "--mock-pins"],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def key_rounds(sock: Path, stop: asyncio.Event) -> None:
    """Key the round's next step, again and again; a dead daemon: wait for the next one."""
    while not stop.is_set():
        try:
            async with await ApiClient.connect(sock) as api:
                while not stop.is_set():
                    status = await api.status()
                    done = status["round"]["events"]
                    try:
                        await api.submit_event(STEPS[done])
                    except ApiError:
                        await asyncio.sleep(0.01)  # refused: read the round again
        except (ApiConnectionError, OSError, ConnectionError, asyncio.IncompleteReadError, ApiError):
            await asyncio.sleep(0.02)


async def until_serving(sock: Path, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    """Until the daemon's API answers (a loaded machine starts it slowly)."""
    deadline = time.monotonic() + timeout
    while True:
        assert proc.poll() is None, f"the daemon exited {proc.returncode}"
        try:
            async with await ApiClient.connect(sock) as api:
                await api.status()
                return
        except (ApiConnectionError, OSError, ConnectionError, asyncio.IncompleteReadError):
            assert time.monotonic() < deadline, "the daemon did not start"
            await asyncio.sleep(0.02)


def journal_contributions(db: Path) -> list[int]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT seq FROM outbox WHERE kind = 'contribution' ORDER BY seq").fetchall()
    finally:
        conn.close()
    return [int(r[0]) for r in rows]


async def kill_at_random_moments(tmp_path: Path, pki: Pki, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    async with running_link(tmp_path, pki, {TABLE: "site-a"}) as link:
        config, sock = daemon_files(tmp_path, pki, link.broker)
        stop = asyncio.Event()
        keyer = asyncio.create_task(key_rounds(sock, stop))
        proc = spawn(config)
        try:
            for i in range(kills):
                if i % 2:
                    # Anywhere in its start (recovery, the declaration, the first connect).
                    await asyncio.sleep(rng.uniform(0.05, 0.4))
                else:
                    # While it serves: rounds keyed, lock-outs committed, the outbox publishing.
                    await until_serving(sock, proc)
                    await asyncio.sleep(rng.uniform(0.0, 0.3))
                proc.send_signal(signal.SIGKILL)
                await asyncio.to_thread(proc.wait)
                proc = spawn(config)
            await asyncio.sleep(2.0)
            stop.set()
            await keyer
            db = config.parent / "journal.sqlite"
            seqs = journal_contributions(db)
            assert len(seqs) >= kills // 10, f"only {len(seqs)} contributions in {kills} kills"
            assert link.store is not None
            deadline = time.monotonic() + 30
            while link.store.applied_seqs().get(TABLE, 0) < max(seqs):
                assert time.monotonic() < deadline, "the meter did not get every message"
                await asyncio.sleep(0.1)
            assert contributions_in_store(link.store.path)[TABLE] == seqs  # once each, in order
            meter = link.store.ledger.progressives[PROGRESSIVE].amount
            assert meter == PARAMS.initial + int(Fraction(len(seqs) * 100) * PARAMS.rate / 100)
        finally:
            stop.set()
            proc.send_signal(signal.SIGTERM)
            await asyncio.to_thread(proc.wait)
            keyer.cancel()


async def test_kill_9_of_the_daemon_at_100_random_moments(tmp_path: Path, pki: Pki) -> None:
    await kill_at_random_moments(tmp_path, pki, kills=100, seed=9)


@pytest.mark.slow
async def test_kill_9_of_the_daemon_at_300_random_moments(tmp_path: Path, pki: Pki) -> None:
    await kill_at_random_moments(tmp_path, pki, kills=300, seed=99)
