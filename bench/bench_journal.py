"""A durable append from the event loop: p50/p99, and what durability costs.

Run: ``.venv/bin/python bench/bench_journal.py [--appends N] [--dir DIR]``.

Each append is one event of the example rounds (begin, wagers, cards, decisions,
settlement), awaited from the loop until it is committed, timed from the call to the
return. Configurations, each on a fresh journal in ``--dir`` (put it on the Pi's SD card
to measure the card):

- the journal as the daemon runs it: the writer thread, ``synchronous=FULL``;
- the peer ``synchronous=OFF`` (no fsync: what a power cut could lose), same writer;
- ``asyncio.to_thread`` for each write instead of the writer thread, ``synchronous=FULL``
  (:class:`ToThreadWriter`, this benchmark's own: the daemon has only the writer thread);

and a burst of 8 appends at once (seven bet sensors and the lock-out button), awaited
together: the writer thread commits them in one transaction (one fsync), to_thread one by
one. While appending, a ticker task measures how late the loop runs it (the loop must not
block). Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

from controller.journal import Journal
from controller.journal.records import BeginRound, Entry, SettleRound
from controller.journal.store import PendingAppend, Store
from controller.journal.writer import Done, WriterFactory, fail, resolve, start_writer_thread
from controller.rules.core.record import load_record
from controller.rules.games import GAMES

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def entries() -> Iterator[Entry]:
    """The example rounds' entries, over and over."""
    records = []
    for path in sorted(EXAMPLES.glob("*/*.json")):
        if not path.name.endswith(".settlement.json"):
            records.append(load_record(json.loads(path.read_text()), GAMES, str(path)))
    while True:
        for r in records:
            yield BeginRound(r.game.name, r.rules, r.meters)
            yield from r.events
            yield SettleRound()


def source_of(entry: Entry) -> tuple[str, str | None]:
    if isinstance(entry, BeginRound | SettleRound):
        return "dealer-ui", "dealer-1"
    return "shoe", None


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def ticker(lateness: list[float], stop: asyncio.Event) -> None:
    period = 0.0005
    while not stop.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(period)
        lateness.append((time.perf_counter() - t0 - period) * 1000)


class ToThreadWriter:
    """A journal writer that commits each append alone with ``asyncio.to_thread``, in order (one
    transaction, one fsync each): the peer the writer thread is measured against."""

    def __init__(self, store: Store, loop: asyncio.AbstractEventLoop, done: Done) -> None:
        self.store = store
        self.loop = loop
        self.done = done
        self._lock = asyncio.Lock()  # one write at a time, in the order submitted
        self._tasks: set[asyncio.Task[None]] = set()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = self.loop.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def submit(self, item: PendingAppend) -> None:
        self._spawn(self._write((item,)))

    def submit_group(self, items: tuple[PendingAppend, ...]) -> None:
        self._spawn(self._write(items))

    async def _write(self, items: tuple[PendingAppend, ...]) -> None:
        async with self._lock:
            outcomes = await asyncio.to_thread(self.store.write, list(items))
        self.done(outcomes)

    def call(self, fn: Callable[[], object], future: asyncio.Future[Any]) -> None:
        self._spawn(self._call(fn, future))

    async def _call(self, fn: Callable[[], object], future: asyncio.Future[Any]) -> None:
        async with self._lock:
            try:
                result = await asyncio.to_thread(fn)
            except Exception as exc:
                fail(future, exc)
            else:
                resolve(future, result)

    async def close(self) -> None:
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        async with self._lock:
            await asyncio.to_thread(self.store.close)


async def one_by_one(directory: Path, n: int, writer: WriterFactory, synchronous: str) -> dict[str, Any]:
    path = Path(tempfile.mkdtemp(dir=directory)) / "journal.sqlite3"
    journal = await Journal.open(path, "BENCH-1", writer=writer, synchronous=synchronous)
    times: list[float] = []
    lateness: list[float] = []
    stop = asyncio.Event()
    tick = asyncio.create_task(ticker(lateness, stop))
    try:
        source = entries()
        for _ in range(n):
            entry = next(source)
            where, actor = source_of(entry)
            t0 = time.perf_counter_ns()
            await journal.append(entry, source=where, actor=actor)
            times.append((time.perf_counter_ns() - t0) / 1e6)
    finally:
        stop.set()
        await tick
        await journal.close()
    return {"times": times, "lateness": lateness}


async def bursts(directory: Path, n: int, writer: WriterFactory, size: int = 8) -> list[float]:
    """``size`` appends at once (outbox-free facts: they need no round), until all are durable."""
    from controller.journal.records import DeviceOnline

    path = Path(tempfile.mkdtemp(dir=directory)) / "journal.sqlite3"
    journal = await Journal.open(path, "BENCH-1", writer=writer)
    times: list[float] = []
    try:
        for i in range(n // size):
            t0 = time.perf_counter_ns()
            await asyncio.gather(
                *(journal.append(DeviceOnline(f"sensor-{s}", str(i)), source="gpio") for s in range(size))
            )
            times.append((time.perf_counter_ns() - t0) / 1e6)
    finally:
        await journal.close()
    return times


def line(label: str, times: list[float], peer: float) -> str:
    p50, p99 = statistics.median(times), pct(times, 99)
    return (
        f"  {label:<44} p50 {p50:7.3f} ms   p99 {p99:7.3f} ms   max {max(times):7.3f} ms   {p50 / peer:5.2f}x"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--appends", type=int, default=3000)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args()
    n = args.appends
    # Warm up SQLite, the rules core and the file system once.
    await one_by_one(args.dir, 200, start_writer_thread, "FULL")

    full = await one_by_one(args.dir, n, start_writer_thread, "FULL")
    off = await one_by_one(args.dir, n, start_writer_thread, "OFF")
    to_thread = await one_by_one(args.dir, n, ToThreadWriter, "FULL")
    peer = statistics.median(off["times"])
    print(f"durable append from the loop, {n} appends each (ratio: p50 / p50 of synchronous=OFF)")
    print(line("writer thread, synchronous=FULL (the daemon)", full["times"], peer))
    print(line("asyncio.to_thread, synchronous=FULL", to_thread["times"], peer))
    print(line("writer thread, synchronous=OFF (peer)", off["times"], peer))
    idle: list[float] = []
    stop = asyncio.Event()
    tick = asyncio.create_task(ticker(idle, stop))
    await asyncio.sleep(1.0)
    stop.set()
    await tick
    print("loop lateness of a 0.5 ms ticker while appending (does anything block the loop?)")
    runs = (("idle loop (the timer's own lateness)", {"lateness": idle}), ("writer thread, FULL", full))
    for label, run in (*runs, ("asyncio.to_thread, FULL", to_thread)):
        late = run["lateness"]
        print(f"  {label:<44} p50 {statistics.median(late):7.3f} ms   p99 {pct(late, 99):7.3f} ms")

    b_thread = await bursts(args.dir, n, start_writer_thread)
    b_to_thread = await bursts(args.dir, n, ToThreadWriter)
    bpeer = statistics.median(b_thread)
    print("a burst of 8 appends awaited together, synchronous=FULL (ratio: p50 / p50 of the writer thread)")
    print(line("writer thread (one transaction per burst)", b_thread, bpeer))
    print(line("asyncio.to_thread (one transaction each)", b_to_thread, bpeer))


if __name__ == "__main__":
    asyncio.run(main())
