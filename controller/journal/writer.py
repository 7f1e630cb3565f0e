"""The journal's writer thread: it owns the writing connection and commits what has queued up.

Everything queued when the thread wakes shares one transaction (one fsync for a burst of bet
sensors, at most :data:`MAX_BATCH`); the loop learns of the commit through
``call_soon_threadsafe``, so the loop never waits on SQLite.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from .errors import JournalWriteError
from .store import Outcome, PendingAppend, Store

MAX_BATCH: Final = 64
"""At most this many queued appends share one transaction (one fsync)."""


@dataclass(eq=False)
class WriterCall:
    fn: Callable[[], object]
    future: asyncio.Future[Any]


STOP: Final = object()


class WriterThread(threading.Thread):
    """Takes what has queued up, commits it, tells the loop (``call_soon_threadsafe``)."""

    def __init__(
        self,
        store: Store,
        loop: asyncio.AbstractEventLoop,
        done: Callable[[list[Outcome]], None],
    ) -> None:
        super().__init__(name=f"journal-writer {store.path.name}", daemon=True)
        self.store = store
        self.loop = loop
        self.done = done
        self.jobs: queue.SimpleQueue[object] = queue.SimpleQueue()

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
