"""kill -9 at random moments of scripted rounds: nothing accepted is lost or doubled.

The child (``bench/journal_writer.py``, a real process) deals the example rounds into a real
journal and prints each seq once it is durable. The test kills it with SIGKILL at a random
moment (while it starts and recovers, or while it appends), reopens the journal as the
daemon would, and checks:

- every seq the child reported durable is there, the record it said;
- the recovered state equals a fresh replay of every record from seq 1;
- the rounds are the script's, in order: each accepted event once, in its place; the refused
  late wager journaled as refused, never as accepted; each settlement once, equal to the
  example's ``.settlement.json``; every outbox message once, with its cause;

then starts the child again, which goes on from where the journal stands.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

import pytest

from bench.journal_writer import ScriptRound, examples, script_round
from controller.journal import Journal, JournalReader
from controller.journal.records import REFUSED, ROUND_BEGIN, ROUND_EVENT, ROUND_SETTLED, JournalRecord

ROOT = Path(__file__).resolve().parents[1]
TABLE = "CS-9"
KILLS = 200
KILLS_PER_JOURNAL = 25  # a fresh journal now and then keeps each full replay short
SEED = int(os.environ.get("CRASH_SEED", "20260509"))


@dataclass
class Child:
    proc: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)
    ready: threading.Event = field(default_factory=threading.Event)
    reader: threading.Thread | None = None

    @classmethod
    def start(cls, journal: Path, rounds: int = 100_000) -> Child:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.journal_writer",
                str(journal),
                "--table",
                TABLE,
                "--rounds",
                str(rounds),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        child = cls(proc)
        child.reader = threading.Thread(target=child._read, daemon=True)
        child.reader.start()
        return child

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.strip())
            if line.strip() == "ready":
                self.ready.set()
        self.ready.set()

    def kill(self) -> int:
        self.proc.send_signal(signal.SIGKILL)
        code = self.proc.wait()
        assert self.reader is not None
        self.reader.join()  # every line the child wrote before it died
        assert self.proc.stderr is not None
        self.stderr = self.proc.stderr.read()
        return code

    def reported(self) -> list[tuple[int, str, str]]:
        out = []
        for line in self.lines:
            parts = line.split()
            if len(parts) == 3 and parts[0].isdigit():
                out.append((int(parts[0]), parts[1], parts[2]))
        return out


def check(journal: Path, reported: list[tuple[int, str, str]], scripts: dict[int, ScriptRound]) -> bool:
    """Every check after a kill; returns whether the kill left a round open."""
    recovered = asyncio.run(_recover(journal))
    with JournalReader(journal, TABLE) as reader:
        full = reader.replay_all()
        records = reader.records()
        outbox = reader.outbox()
    assert recovered == full, "the recovered state is not the replay of the journal"

    by_seq = {r.seq: r for r in records}
    for seq, kind, said_round in reported:
        assert seq in by_seq, f"seq {seq} was reported durable and is not in the journal"
        assert (by_seq[seq].kind, by_seq[seq].round_id) == (kind, said_round)

    begun = [r.round_id for r in records if r.kind == ROUND_BEGIN]
    assert begun == [f"r{k:06d}" for k in range(len(begun))], "a round lost, doubled or out of order"
    per_round: dict[str, list[JournalRecord]] = {rid: [] for rid in begun if rid is not None}
    for r in records:
        if r.kind in (ROUND_EVENT, REFUSED, ROUND_SETTLED) and r.round_id is not None:
            per_round[r.round_id].append(r)
    for k, round_id in enumerate(begun):
        assert round_id is not None
        sr = scripts.setdefault(k, script_round(k, examples()))
        steps = [r for r in per_round[round_id] if r.kind != ROUND_SETTLED]
        expected = sr.steps[: len(steps)]
        assert len(steps) <= len(sr.steps), f"{round_id}: more events than the round has"
        for record, step in zip(steps, expected, strict=True):
            assert record.kind == (REFUSED if step.refused else ROUND_EVENT), f"{round_id} seq {record.seq}"
            body = record.body["entry"]["body"] if step.refused else record.body
            assert body == step.event.to_json(), f"{round_id} seq {record.seq}"
        settled = [r for r in per_round[round_id] if r.kind == ROUND_SETTLED]
        last = k == len(begun) - 1
        if not last:
            assert len(steps) == len(sr.steps) and len(settled) == 1, f"{round_id} was left unfinished"
        assert len(settled) <= 1
        if settled:
            assert settled[0].body["settlement"] == sr.settlement, f"{round_id}: not the example's settlement"
            assert per_round[round_id][-1] is settled[0]

    # The outbox: gapless, each message once, with the record that caused it.
    assert [m.seq for m in outbox] == list(range(1, len(outbox) + 1))
    assert len({m.message_id for m in outbox}) == len(outbox)
    causes = [(m.event_seq, m.kind) for m in outbox]
    expected_causes = [
        (r.seq, "wagers_locked" if r.kind == ROUND_EVENT else "round_settled")
        for r in records
        if (r.kind == ROUND_EVENT and r.body["type"] == "no_more_bets") or r.kind == ROUND_SETTLED
    ]
    assert causes == expected_causes
    return full.current is not None


async def _recover(journal: Path) -> object:
    j = await Journal.open(
        journal, TABLE
    )  # as the daemon restarts: the child may have died before creating it
    try:
        return j.state
    finally:
        await j.close()


@pytest.mark.slow
def test_kill_9_at_random_moments(tmp_path: Path) -> None:
    rng = Random(SEED)
    scripts: dict[int, ScriptRound] = {}
    journal = tmp_path / "journal-0.sqlite3"
    appended_before_kill = 0
    left_open = 0
    started = time.monotonic()
    for kill in range(KILLS):
        if kill and kill % KILLS_PER_JOURNAL == 0:
            journal = tmp_path / f"journal-{kill // KILLS_PER_JOURNAL}.sqlite3"
        child = Child.start(journal)
        if rng.random() < 0.15:
            # Anywhere: while Python starts, while the journal opens and recovers, or later.
            time.sleep(rng.uniform(0.0, 0.35))
        else:
            assert child.ready.wait(10), "the child did not start"
            time.sleep(rng.uniform(0.0, 0.06))
        code = child.kill()
        assert code == -signal.SIGKILL, f"the child ended on its own ({code}): {child.stderr}"
        reported = child.reported()
        appended_before_kill += bool(reported)
        left_open += check(journal, reported, scripts)
    # The kills landed where they matter: mid-append, with rounds open.
    assert appended_before_kill >= KILLS // 2
    assert left_open >= KILLS // 4

    # Restarted once more without a kill, the child finishes the rounds it was dealing.
    with JournalReader(journal, TABLE) as reader:
        state = reader.recover()
    begun = int(state.current.round_id[1:]) if state.current else int(state.recent[-1].round_id[1:]) + 1
    child = Child.start(journal, rounds=begun + 2)
    assert child.proc.wait(30) == 0, child.proc.stderr.read() if child.proc.stderr else ""
    assert child.reader is not None
    child.reader.join()
    assert child.lines[-1] == "done"
    check(journal, child.reported(), scripts)
    with JournalReader(journal, TABLE) as reader:
        final = reader.verify()
    assert final.current is None and final.recent[-1].round_id == f"r{begun + 1:06d}"
    print(f"{KILLS} kills in {time.monotonic() - started:.1f} s; {left_open} left a round open")


def test_the_child_reports_only_durable_seqs(tmp_path: Path) -> None:
    """The driver itself: run to the end, every reported seq is in the journal as reported."""
    journal = tmp_path / "journal.sqlite3"
    done = subprocess.run(
        [sys.executable, "-m", "bench.journal_writer", str(journal), "--table", TABLE, "--rounds", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.split("\n")
    assert lines[0] == "ready" and "done" in lines
    reported = [(int(s), k, r) for s, k, r in (line.split() for line in lines[1:] if line[:1].isdigit())]
    assert check(journal, reported, {}) is False
    assert [kind for _, kind, _ in reported].count(ROUND_SETTLED) == 3
    summary = json.dumps([r for r in reported if r[1] == REFUSED])
    assert REFUSED in summary  # the late wager after "no more bets" was refused and journaled as such
