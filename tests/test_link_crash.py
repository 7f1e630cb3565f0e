"""``kill -9`` of the table daemon at random moments while it publishes to the meter.

The daemon runs as its own process (``bench/daemon_child.py``: the bench rig's mock pins, a chip
held on seat 1's sensor, so each lock-out counts a Progressive Payout Wager, § 639a.8(b)) on a
real Mosquitto (the shipped configuration) with the central meter in this process; rounds are
keyed through its local API, each step chosen from what the journal holds (the daemon recovers
the round after every kill). At the end every contribution the journal committed is in the meter's
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
from sim.bench_rig import BENCH_FLOOR
from sim.link_rig import PARAMS, PROGRESSIVE, link_section

from .meter_link import running_link
from .mosquitto import REPO, Pki
from .table_link import DEALER, SEAT_1
from .test_meter_link import contributions_in_store

pytestmark = pytest.mark.asyncio

TABLE = "t1"
#: One round keyed by the dealer; seat 1's Progressive Payout Wager is the chip held on its
#: sensor (``bench/daemon_child.py --chips 1``), counted at each lock-out (§ 639a.8(b)).
ANTE: dict[str, Any] = {"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"}
NO_MORE_BETS: dict[str, Any] = {"type": "no_more_bets"}
SHOE_OUT: dict[str, Any] = {"type": "device_out_of_order", "device": "shoe", "reason": "cards keyed by hand"}
AFTER_THE_LOCK_OUT: tuple[dict[str, Any], ...] = (
    {"type": "cards", "to": "1", "cards": SEAT_1},
    {"type": "cards", "to": "dealer", "cards": DEALER},
    {"type": "decision", "seat": 1, "action": "fold"},
)


def next_step(current: dict[str, Any]) -> dict[str, Any]:
    """The round's next step from the API's ``round``: the ante, "no more bets", then the cards
    and the fold (the lock-out's records: the wagers, then ``no_more_bets``)."""
    if not current["no_more_bets"]:
        return NO_MORE_BETS if current["wagers"] else ANTE
    done = current["events"] - len(current["wagers"]) - 1
    return AFTER_THE_LOCK_OUT[min(done, len(AFTER_THE_LOCK_OUT) - 1)]


def daemon_files(root: Path, pki: Pki, broker: Any) -> tuple[Path, Path]:
    """The table's directory (the bench rig's files, written by ``bench/daemon_child.py``) and
    its API socket; the link's section in a file beside it."""
    directory = root / "table"
    directory.mkdir()
    (root / "link.toml").write_text(link_section(root, pki, broker, TABLE))
    sock = directory / "run" / "api.sock"
    if len(str(sock)) > 107:
        pytest.skip("temporary directory too deep for a Unix socket")
    return directory / "table-controller.toml", sock


def spawn(config: Path) -> subprocess.Popen[bytes]:
    """The daemon on the bench rig's mock pins, a chip held on seat 1's sensor."""
    directory = config.parent
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bench.daemon_child",
            str(directory),
            "--chips",
            "1",
            "--table",
            TABLE,
            "--extra-config",
            str(directory.parent / "link.toml"),
        ],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdin=subprocess.PIPE,  # kept open: the child serves until its stdin ends
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
                    if "shoe" not in status["out_of_order"]:
                        # The cards are keyed by hand: a floorperson declares the shoe out of
                        # order first (§ 639a.13(g), docs/authority.md); journaled, it holds.
                        await api.submit_event(SHOE_OUT, BENCH_FLOOR)
                        continue
                    try:
                        await api.submit_event(next_step(status["round"]))
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
