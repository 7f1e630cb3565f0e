"""The journal's writer thread: it owns the writing connection and commits what has queued up.

Everything queued when the thread wakes shares one transaction (one fsync for a burst of bet
sensors, at most :data:`MAX_BATCH`); the loop learns of the commit through
``call_soon_threadsafe``, so the loop never waits on SQLite.

:class:`Writer` is what the :class:`~.facade.Journal` needs of whatever commits its appends; the
daemon's is this thread (:func:`start_writer_thread`). ``bench/bench_journal.py`` measures it
against a writer of its own (``asyncio.to_thread`` for each append).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol

from .errors import JournalWriteError
from .store import Outcome, PendingAppend, Store

MAX_BATCH: Final = 64
"""At most this many queued appends share one transaction (one fsync)."""


@dataclass(eq=False)
class WriterCall:
    fn: Callable[[], object]
    future: asyncio.Future[Any]


STOP: Final = object()

Done = Callable[[list[Outcome]], None]
"""Called on the loop with the outcome of each append of a batch, in order."""


class Writer(Protocol):
    """What commits the journal's appends, in the order submitted, and tells the loop (``done``)."""

    def submit(self, item: PendingAppend) -> None:
        """Commit ``item`` (with whatever else is queued); its outcome goes to ``done``."""
        ...

    def submit_group(self, items: tuple[PendingAppend, ...]) -> None:
        """Commit ``items`` in one transaction, never split (the lock-out's records)."""
        ...

    def call(self, fn: Callable[[], object], future: asyncio.Future[Any]) -> None:
        """Run ``fn`` on the writing connection between commits; its result resolves ``future``."""
        ...

    async def close(self) -> None:
        """Commit what is queued, then close the store."""
        ...


WriterFactory = Callable[[Store, asyncio.AbstractEventLoop, Done], Writer]
"""How :meth:`~.facade.Journal.open` gets its writer; :func:`start_writer_thread` by default."""


class WriterThread(threading.Thread):
    """Takes what has queued up, commits it, tells the loop (``call_soon_threadsafe``)."""

    def __init__(
        self,
        store: Store,
        loop: asyncio.AbstractEventLoop,
        done: Done,
    ) -> None:
        super().__init__(name=f"journal-writer {store.path.name}", daemon=True)
        self.store = store
        self.loop = loop
        self.done = done
        self.jobs: queue.SimpleQueue[object] = queue.SimpleQueue()

    # -- the loop's side (a Writer) --

    def submit(self, item: PendingAppend) -> None:
        self.jobs.put(item)

    def submit_group(self, items: tuple[PendingAppend, ...]) -> None:
        # One job: a batch takes it whole, so its records share one transaction.
        self.jobs.put(items)

    def call(self, fn: Callable[[], object], future: asyncio.Future[Any]) -> None:
        self.jobs.put(WriterCall(fn, future))

    async def close(self) -> None:
        self.jobs.put(STOP)
        await asyncio.to_thread(self.join)

    # -- the thread --

    def run(self) -> None:
        stopping = False
        while not stopping:
            jobs = [self.jobs.get()]
            while len(jobs) < MAX_BATCH:
                try:
                    jobs.append(self.jobs.get_nowait())
                except queue.Empty:
                    break
            batch: list[PendingAppend] = []
            for job in jobs:
                if isinstance(job, PendingAppend):
                    batch.append(job)
                    continue
                if isinstance(job, tuple):
                    batch.extend(job)
                    continue
                self._flush(batch)
                batch = []
                if job is STOP:
                    stopping = True
                elif isinstance(job, WriterCall):
                    self._call(job)
            self._flush(batch)
        self.store.close()

    def _flush(self, batch: list[PendingAppend]) -> None:
        if not batch:
            return
        try:
            outcomes = self.store.write(batch)
        except Exception as exc:  # a bug, not a disk: the appends still fail cleanly
            outcomes = [(item, JournalWriteError(f"the journal writer failed: {exc!r}")) for item in batch]
            self.store.failed_epoch = max(item.epoch for item in batch)
        self._tell(self.done, outcomes)

    def _call(self, job: WriterCall) -> None:
        try:
            result = job.fn()
        except Exception as exc:
            self._tell(fail, job.future, exc)
        else:
            self._tell(resolve, job.future, result)

    def _tell(self, fn: Callable[..., None], *args: object) -> None:
        # The loop may be gone at shutdown: then nobody waits for the answer.
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(fn, *args)


def resolve(future: asyncio.Future[Any], result: object) -> None:
    if not future.done():
        future.set_result(result)


def fail(future: asyncio.Future[Any], exc: BaseException) -> None:
    if not future.done():
        future.set_exception(exc)


def start_writer_thread(store: Store, loop: asyncio.AbstractEventLoop, done: Done) -> WriterThread:
    """The daemon's writer: a :class:`WriterThread`, started."""
    writer = WriterThread(store, loop, done)
    writer.start()
    return writer
