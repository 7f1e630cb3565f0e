"""Where the meter's store works: a process of its own, or a thread of the service's.

The service reads the broker in its event loop; the store's work (each message checked, ordered,
applied, its hash and its fsync; the words to tell encoded) is :class:`~.core.MeterCore`'s. Both
are Python: in one process they share one interpreter lock, and the meter ran at the speed of
one core (docs/benchmarks.md, ``bench_meter.py``). :class:`StoreProcess` forks the store's
process before the event loop starts; the two talk over a pipe, one request at a time, a batch
each: the messages as they came go in, the words to publish come back, after the commit. So the
broker's next messages are read on one core while the store applies on another, and "durable
before told" holds as before (the service publishes only what a committed batch returned).

The store's process lives and dies with the service: it ignores SIGTERM and SIGINT (the service
stops it after its last batch), and it ends when the pipe closes: a ``kill -9`` of the meter
ends it once the call in hand is done (a batch committed then is durable and not told, as when
the meter is killed between its commit and its acks; the tables send it again and it is
acknowledged as a duplicate). It holds the store's lock until it ends, so a meter started
meanwhile waits for it (:data:`BUSY_WAIT_SECONDS`) and never opens the store beside it.
:class:`InThread` runs the same core in a thread of the service's
process, for the tests that look into the store's ledger while the meter serves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import signal
import sqlite3
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any, Final, Protocol

from .config import MeterConfig
from .core import Arrived, MeterCore, Told, Word
from .store import Store, StoreBusy, StoreError

log = logging.getLogger(__name__)

BUSY_WAIT_SECONDS: Final = 3.0
"""How long the store's process waits for the lock of a store that a killed meter's store process
(dying with it) still holds; a second meter running on the same store is refused after it."""


class Desk(Protocol):
    """The store's side of the meter, as the service calls it: one call at a time."""

    async def opening(self) -> list[Word]: ...

    async def take(self, arrived: Sequence[Arrived]) -> Told: ...

    async def watch(self) -> None:
        """Return never; raise :class:`DeskFailed` the moment the store's side is gone."""


class DeskFailed(Exception):
    """The store's process failed or ended without being asked (a crash of the meter)."""


class _Calls:
    """What the service calls, as one blocking call by name in a thread (:meth:`_call`)."""

    def _call(self, name: str, *args: object) -> Any:
        raise NotImplementedError

    async def opening(self) -> list[Word]:
        words: list[Word] = await asyncio.to_thread(self._call, "opening")
        return words

    async def take(self, arrived: Sequence[Arrived]) -> Told:
        told: Told = await asyncio.to_thread(self._call, "take", list(arrived))
        return told


class InThread(_Calls):
    """The core in a thread of the service's process (the tests', which read its store live).

    One call at a time, as the store's process answers them: a call whose caller was cancelled
    (a cut connection) runs to its end before the next begins."""

    def __init__(self, core: MeterCore) -> None:
        self.core = core
        self._one = threading.Lock()

    def _call(self, name: str, *args: object) -> Any:
        with self._one:
            return getattr(self.core, name)(*args)

    async def watch(self) -> None:
        await asyncio.Future()  # the thread is the service's own: it ends with it


class StoreProcess(_Calls):
    """The store and its core in a process of their own (what ``progressive-meter run`` uses).

    Made before any event loop or thread starts (it forks). Raises :class:`~.store.StoreError`
    or :class:`sqlite3.OperationalError`, as opening the store in this process would, with the
    child's words, if the store cannot be opened."""

    def __init__(self, config: MeterConfig) -> None:
        ctx = multiprocessing.get_context("fork")
        self._one = threading.Lock()
        self._pipe, theirs = ctx.Pipe()
        self._process = ctx.Process(
            target=_serve, args=(config, theirs, self._pipe), name="progressive-meter store"
        )
        self._process.start()
        theirs.close()
        try:
            opened = self._answer()
        except BaseException:
            self.close()
            raise
        kind, text, self.records, self.amounts = opened
        if kind == "store_error":
            self.close()
            raise StoreError(text)
        if kind == "io_error":
            self.close()
            raise sqlite3.OperationalError(text)

    @property
    def pid(self) -> int | None:
        return self._process.pid

    def _ended(self) -> str:
        code = self._process.exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit status {code}"
        return f"the meter's store process (pid {self._process.pid}) ended unasked ({how})"

    def _answer(self) -> Any:
        try:
            kind, value = self._pipe.recv()
        except (EOFError, OSError):
            self._process.join(5)
            raise DeskFailed(self._ended()) from None
        if kind == "crash":
            raise DeskFailed(f"the meter's store process failed:\n{value}")
        return value

    def _call(self, name: str, *args: object) -> Any:
        with self._one:  # a call whose caller was cancelled (a cut connection) is answered first
            self._pipe.send((name, *args))
            return self._answer()

    async def watch(self) -> None:
        """Its end seen at once, idle or not (the process's sentinel), not at the next batch."""
        loop = asyncio.get_running_loop()
        ended: asyncio.Future[None] = loop.create_future()
        sentinel = self._process.sentinel

        def seen() -> None:
            if not ended.done():
                ended.set_result(None)

        loop.add_reader(sentinel, seen)
        try:
            await ended
        finally:
            loop.remove_reader(sentinel)
        self._process.join(1)
        raise DeskFailed(self._ended())

    def close(self) -> None:
        """Ask the store's process to end (its store closed), and wait for it."""
        with contextlib.suppress(OSError, ValueError):
            self._pipe.send(("stop",))
        self._process.join(10)
        if self._process.is_alive():  # it does not answer: its transaction, if any, rolls back
            self._process.kill()
            self._process.join()
        self._pipe.close()


def _open(config: MeterConfig) -> Store:
    deadline = time.monotonic() + BUSY_WAIT_SECONDS
    while True:
        try:
            return Store(config.store, config)
        except StoreBusy:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.05)


def _serve(config: MeterConfig, pipe: Connection, services_end: Connection) -> None:
    """The store's process: open the store, say so, then answer the service's calls in turn."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the service stops it, after its last batch
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    services_end.close()  # its copy from the fork: the pipe then closes when the service dies
    try:
        store = _open(config)
    except StoreError as exc:
        pipe.send(("ok", ("store_error", str(exc), 0, "")))
        return
    except sqlite3.OperationalError as exc:
        pipe.send(("ok", ("io_error", str(exc), 0, "")))
        return
    except BaseException:
        pipe.send(("crash", traceback.format_exc()))
        return
    try:
        core = MeterCore(config, store)
        amounts = ", ".join(f"{p.id} {p.amount / 100:.2f}" for p in store.ledger.progressives.values())
        pipe.send(("ok", ("ready", "", store.ledger.last_seq, amounts)))
        handlers: dict[str, Callable[..., object]] = {"opening": core.opening, "take": core.take}
        while True:
            try:
                name, *args = pipe.recv()
            except EOFError:  # the service is gone
                return
            if name == "stop":
                return
            pipe.send(("ok", handlers[name](*args)))
    except BaseException:
        with contextlib.suppress(OSError):
            pipe.send(("crash", traceback.format_exc()))
    finally:
        store.close()
