"""kill -9 of the REAL daemon process at random moments of scripted rounds (issue 9).

The child (``bench/daemon_child.py``) is ``controller.daemon.Daemon`` in a process of its own on
the bench rig's mock pins and pseudo-terminal shoe and shuffler; a scripted dealer drives it from
here: the antes, ``no_more_bets`` (every other round), the decisions and a floorperson's
verification over the local API, with an idempotency key on every ``submit_event``; the chips, the
lock-out button (the other rounds) and the shoe's stacks through the child's stdin. The test
kills it with SIGKILL at random moments spread over start-up, wagering, the lock-out, dealing,
decisions, settlement and verification; then the dealer restarts it and retries what was in
flight with the same key. After every kill:

- the journal opens as the daemon's would and its state equals a full replay of every record;
- every request the dealer saw answered is there exactly once (its ``request`` record), no key
  twice, and its record is the one answered;
- once restarted, a locked round's progressive wagers are exactly the seats the pins count.

At the end every script round is settled exactly once, with the example's settlement.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

import pytest

from controller.api_client import ApiConnectionError, ApiError, Credentials, request
from controller.auth import Role, make_user, save_users
from controller.journal import Journal
from controller.journal.records import JournalRecord
from sim.bench_rig import TABLE_ID

ROOT = Path(__file__).resolve().parents[1]
SEED = int(os.environ.get("CRASH_SEED", "20261201"))
KILLS = int(os.environ.get("CRASH_DAEMON_KILLS", "40"))
"""The default run's kills (about 2 s each: a restart is a new Python process); the slow one 210."""
FLOOR = Credentials("mfloor", "482916")

SEAT_1 = "2c 7d 9s Jh 4c"
FLUSH_1 = "2c 7c 9c Jc 4c"  # a flush: the Progressive pays, a floorperson validates it
SEAT_3 = "Kh Kd 8c 8s 2h"
DEALER = "As Ks 9d 6c 4h"


class Killed(Exception):
    """The daemon died while the dealer waited on it."""


@dataclass
class Child:
    proc: subprocess.Popen[str]
    answered: int = 0

    @classmethod
    def spawn(cls, directory: Path, chips: set[int]) -> Child:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.daemon_child",
                str(directory),
                "--chips",
                ",".join(map(str, sorted(chips))),
            ],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        return cls(proc)

    def line(self, timeout: float = 20.0) -> str:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        text = self.proc.stdout.readline() if ready else ""
        if not text:
            raise Killed()
        return text.strip()

    def wait_ready(self) -> None:
        if self.line() != "ready":
            raise Killed()

    def hardware(self, command: str) -> None:
        assert self.proc.stdin is not None
        self.answered += 1
        try:
            self.proc.stdin.write(f"{self.answered} {command}\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise Killed() from None
        if self.line() != f"ok {self.answered}":
            raise Killed()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)

    def reap(self) -> None:
        self.kill()
        self.proc.wait(timeout=20)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()


@dataclass
class Dealer:
    """The scripted dealer: one round after another, each step retried until it is answered."""

    socket: Path
    chips: set[int] = field(default_factory=set)
    acked: dict[str, Any] = field(default_factory=dict)
    rounds: dict[int, str] = field(default_factory=dict)
    done: int = 0
    verified: set[str] = field(default_factory=set)

    def api(self, cmd: str, args: dict[str, Any], auth: Credentials | None = None) -> Any:
        try:
            return request(self.socket, cmd, args, auth, timeout=10)
        except ApiConnectionError:
            raise Killed() from None
        except ApiError as exc:
            if exc.code == "timeout":
                raise Killed() from None
            raise

    def submit(self, key: str, event: dict[str, Any]) -> Any:
        result = self.api("submit_event", {"event": event, "idempotency_key": key})
        first = self.acked.setdefault(key, result)
        assert {k: v for k, v in result.items() if k != "repeated"} == {
            k: v for k, v in first.items() if k != "repeated"
        }, (key, first, result)
        return result

    def play(self, child: Child, r: int) -> None:
        """Round ``r`` of the script, from wherever the table is (after a restart too)."""
        flush = r % 3 == 2
        key = f"dealer-round-{r}"
        result = self.submit(f"{key}-ante1", {"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"})
        round_id = self.rounds.setdefault(r, result["round"])
        assert result["round"] == round_id
        status = self.api("status", {})
        if status["round"]["id"] == round_id:
            self.submit(f"{key}-ante3", {"type": "wager", "seat": 3, "wager": "ante", "amount": "25.00"})
            self.chips.add(1)
            child.hardware("chip 1")
            if not self.api("status", {})["round"]["no_more_bets"]:
                if r % 2:
                    self.submit(f"{key}-nmb", {"type": "no_more_bets"})
                else:
                    child.hardware("press")
            child.hardware(f"deal 1 {FLUSH_1 if flush else SEAT_1}")
            child.hardware(f"deal 3 {SEAT_3}")
            child.hardware(f"deal dealer {DEALER}")
            self.submit(f"{key}-d1", {"type": "decision", "seat": 1, "action": "bet" if flush else "fold"})
            last = self.submit(f"{key}-d3", {"type": "decision", "seat": 3, "action": "bet"})
            assert last["next_round"] != round_id
        if flush and round_id not in self.verified:
            event = {"type": "verification", "seat": 1, "wager": "progressive", "round": round_id}
            try:
                self.api("submit_event", {"event": event}, FLOOR)
            except ApiError as exc:
                assert "already verified" in exc.message, exc.message
            self.verified.add(round_id)
        self.chips.discard(1)
        child.hardware("lift 1")
        self.done = r + 1


async def _check_journal(path: Path, dealer: Dealer) -> list[JournalRecord]:
    """Opened as the daemon opens it, with a full replay that must give the recovered state."""
    journal = await Journal.open(path, TABLE_ID, create=False, full_replay=True)
    try:
        records = await journal.records()
    finally:
        await journal.close()
    requests = Counter(str(r.body["key"]) for r in records if r.kind == "request")
    assert not [k for k, n in requests.items() if n > 1], "a request applied twice"
    by_seq = {r.seq: r for r in records}
    for key, result in dealer.acked.items():
        assert requests[key] == 1, f"the acknowledged request {key} is not in the journal once"
        record = by_seq[result["seq"]]
        assert record.kind == "event" and record.round_id == result["round"], (key, record)
    return records


def _pins_equal_journal(socket: Path) -> None:
    status = request(socket, "status")
    current = status["round"]
    if current["no_more_bets"]:
        journaled = sorted(w["seat"] for w in current["wagers"] if w["wager"] == "progressive")
        counted = sorted(int(s) for s, n in status["gpio"]["accepted"].items() if n)
        assert journaled == counted, (journaled, counted)


def _crash_daemon(kills: int, seed: int) -> None:
    rng = Random(seed)
    directory = Path(tempfile.mkdtemp(prefix="crashd-"))
    save_users(directory / "users.json", {"mfloor": make_user("mfloor", Role.FLOOR, "482916")})
    journal = directory / "journal.sqlite"
    dealer = Dealer(directory / "run" / "api.sock")
    moments: Counter[str] = Counter()
    killed = 0
    started = time.monotonic()
    while killed < kills:
        child = Child.spawn(directory, dealer.chips)
        timer: threading.Timer | None = None
        try:
            if rng.random() < 0.12:
                # While it starts: opening and recovering the journal, the pins, the API.
                timer = threading.Timer(rng.uniform(0.0, 1.2), child.kill)
                timer.start()
                child.wait_ready()
            else:
                child.wait_ready()
                _pins_equal_journal(dealer.socket)
                timer = threading.Timer(rng.uniform(0.0, 1.0), child.kill)
                timer.start()
            while True:
                dealer.play(child, dealer.done)
        except Killed:
            pass
        finally:
            if timer is not None:
                timer.cancel()
            child.reap()
        killed += 1
        moments[_phase(journal)] += 1
        asyncio.run(_check_journal(journal, dealer))
    # Once more to the end of the round it was in, then every round's settlement checked.
    child = Child.spawn(directory, dealer.chips)
    try:
        child.wait_ready()
        _pins_equal_journal(dealer.socket)
        dealer.play(child, dealer.done)
    finally:
        child.proc.send_signal(signal.SIGTERM)
        child.proc.wait(timeout=20)
        child.reap()
    records = asyncio.run(_check_journal(journal, dealer))
    # The script is legal: nothing refused, not even a chip the restart took for a late one;
    # only a verification retried after its first try was journaled (verifications take no key).
    refused = [r.body for r in records if r.kind == "refused"]
    assert [b for b in refused if "already verified" not in b["reason"]] == []
    assert all(b["entry"]["kind"] == "payout_verified" for b in refused)
    settled = [r for r in records if r.kind == "round_settled"]
    assert sorted(r.round_id or "" for r in settled) == sorted(dealer.rounds[r] for r in range(dealer.done))
    for r in range(dealer.done):
        record = next(s for s in settled if s.round_id == dealer.rounds[r])
        seats = record.body["settlement"]["seats"]
        assert seats["3"]["ante"]["net"] == "+25.00" and seats["3"]["bet"]["net"] == "+100.00"
        assert seats["1"]["progressive"]["stake"] == "1.00"
        assert seats["1"]["progressive"]["result"] == ("win" if r % 3 == 2 else "lose")
    verified = [r for r in records if r.kind == "payout_verified"]
    assert sorted(str(r.body["round"]) for r in verified) == sorted(dealer.verified)
    assert dealer.done >= 3, f"only {dealer.done} rounds in {kills} kills"
    print(f"{kills} kills in {time.monotonic() - started:.0f} s, {dealer.done} rounds; at {dict(moments)}")
    shutil.rmtree(directory, ignore_errors=True)  # kept for a look only when a check failed


def _phase(journal: Path) -> str:
    """Where the round was when it died (for the spread of the kills)."""
    import sqlite3

    try:
        conn = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
        try:
            row = conn.execute(
                "SELECT kind, body FROM events WHERE kind <> 'request' ORDER BY seq DESC LIMIT 1"
            ).fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return "start-up"
    if row is None:
        return "start-up"
    kind, body = row
    if kind == "event":
        for phase in ("no_more_bets", "cards", "decision", "wager"):
            if f'"type":"{phase}"' in body:
                return {"no_more_bets": "lock-out", "cards": "dealing", "decision": "decisions"}.get(
                    phase, "wagering"
                )
    return {
        "round_settled": "settlement",
        "round_begin": "settlement",
        "unlock": "settlement",
        "payout_verified": "verification",
        "started": "start-up",
        "config_loaded": "start-up",
        "lock_out": "lock-out",
        "hardware_fact": "dealing",
    }.get(kind, kind)


def test_kill_9_of_the_real_daemon_loses_nothing_acknowledged_and_doubles_nothing() -> None:
    _crash_daemon(KILLS, SEED)


@pytest.mark.slow
def test_kill_9_of_the_real_daemon_200_times() -> None:
    _crash_daemon(max(KILLS, 210), SEED + 1)
