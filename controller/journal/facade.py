""":class:`Journal`: the daemon's async journal; every event at the table durable before anyone acts on it.

A SQLite file in WAL mode with ``synchronous=FULL``: a record is on the disk (the WAL
fsync'd) before :meth:`Journal.append` returns, so a power cut loses nothing that was
accepted. The table's state is the fold of the records (:mod:`.state`); opening the
journal folds them again and recovers the round being dealt exactly where it was.

The same file is the progressive link's **outbox**: a message to the central meter is
committed in the same transaction as the record that causes it (``append(entry,
outbox=[...])``), so a record and its messages are both durable or both absent; the link
publishes :meth:`Journal.pending` messages and :meth:`Journal.mark_sent` them once the
broker has them: at least once, each with a per-table sequence number and a UUID for the
meter to drop duplicates (docs/journal.md).

asyncio: the loop never waits on SQLite. Appends are checked against the state on the
loop (the rules core is pure and fast), then written by one writer thread that owns the
writing connection and commits what has queued up in one transaction (one fsync for a
burst of bet sensors); the loop learns of the commit through ``call_soon_threadsafe``.
Reads go through a second, read-only connection in ``asyncio.to_thread`` (WAL: readers
never block the writer). ``bench/bench_journal.py`` measures this against a writer of its own
(``asyncio.to_thread`` for each write) and against ``synchronous=OFF``.

Only one process writes a journal: a lock file beside it (``flock``, released by the
kernel when the process dies, even by ``kill -9``) refuses a second writer.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from controller.rules.core.dispatch import did_you_mean

from ..rules.core.engine import IllegalEvent
from .chain import GENESIS, ChainHead
from .chain_key import ChainKey, key_path
from .errors import JournalCorrupt, JournalError, Refused
from .integrity import check_integrity
from .keying import TableKey, finish_migration, resolve_key
from .link_count import LinkCount, Witnessed, link_count
from .marker import HeadMarker, sync_directory, write_marker
from .outbox import Outbound, OutboxEntry
from .queries import dumps, recover, replay_all
from .reader import JournalReader
from .recall import RecalledRound
from .records import (
    PERSON_SOURCES,
    SOURCES,
    Command,
    Entry,
    HardwareFact,
    JournalRecord,
    RecordMeta,
    Request,
)
from .rounds import RoundSummary
from .schema import (
    CHAIN_KEYED,
    SCHEMA_VERSION,
    SYNCHRONOUS,
    connect,
    keyed_chain_step,
    run_step,
    schema_check,
)
from .state import RECENT_ROUNDS, TableState
from .store import Outcome, PendingAppend, Store, lock_writer
from .writer import WriterFactory, fail, resolve, start_writer_thread


@dataclass(frozen=True)
class Appended:
    """A durable append: the record, its outbox messages, and the state after it."""

    record: JournalRecord
    outbox: tuple[OutboxEntry, ...]
    state: TableState


@dataclass(frozen=True)
class Step:
    """One entry of :meth:`Journal.append_many`. ``refuse``: journal it as ``refused`` with this
    reason without asking the rules (the table's authority refused it, docs/authority.md).
    ``outbox``: the messages it causes, committed with it (dropped if it is refused); or what
    makes them from the state the step is applied to (the steps before it in the transaction
    included: the lock-out's contributions count the wagers the sensors added in it)."""

    entry: Entry
    source: str
    actor: str | None = None
    refuse: str | None = None
    outbox: tuple[Outbound, ...] | Callable[[TableState], Iterable[Outbound]] = ()


StepOutcome = Appended | Refused
"""An accepted step, or the refusal (journaled as ``refused``) of one."""


def read_boot_id() -> str:
    """This boot's id (monotonic times are comparable only within one boot)."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip() or "unknown"
    except OSError:
        return "unknown"


# --- the journal -------------------------------------------------------------------------------


class Journal:
    """The daemon's journal: async appends that return once durable, and the state they fold to.

    Open with :meth:`open`; close with :meth:`close` (or ``async with``).
    """

    def __init__(
        self,
        path: Path,
        table_id: str,
        store: Store,
        reader: JournalReader,
        lock: TextIO,
        state: TableState,
        writer: WriterFactory,
        has_pending: bool,
    ) -> None:
        self.path = path
        self.table_id = table_id
        self._store = store
        self._reader = reader
        self._lock_file = lock
        self._durable = state
        self._head = state  # the durable state plus what is checked and queued for writing
        self._epoch = 0
        self._loop = asyncio.get_running_loop()
        self._outbox_ready = asyncio.Event()
        if has_pending:
            self._outbox_ready.set()
        self._closed = False
        self._writer = writer(store, self._loop, self._complete)
        self.previous_shutdown = "clean"
        """``"unclean"`` if the journal was not closed the last time (a power cut, ``kill -9``):
        the daemon journals it in its ``started`` record."""

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        table_id: str,
        *,
        create: bool = True,
        full_replay: bool = False,
        synchronous: str = "FULL",
        writer: WriterFactory = start_writer_thread,
        genesis: str = GENESIS,
        meta: Mapping[str, str] | None = None,
        key: ChainKey | None = None,
        migrated_by: tuple[str, str | None] = ("daemon", None),
    ) -> Journal:
        """Open (or create) the journal of ``table_id`` and recover the table's state.

        ``full_replay`` folds every record from seq 1 as well and checks recovery gives the
        same state (slow on a long journal). ``synchronous`` other than ``FULL`` and
        another ``writer`` than the writer thread exist for the benchmark: the daemon uses neither.
        ``genesis`` and ``meta`` are for a journal created here: what its seq 1 chains to and more
        ``meta`` rows (a RAM clear's, :mod:`.ram_clear`). ``key``: the table's chain key (default:
        its key file beside the journal, made for a new journal: :mod:`.keying`); a journal made
        before the chain was keyed is migrated here, its next record the ``chain_keyed`` fact
        journaled by ``migrated_by`` (source, actor).
        """
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, not {synchronous!r}")
        opened = await asyncio.to_thread(
            _open_sync, Path(path), table_id, create, full_replay, synchronous, genesis, meta, key
        )
        journal = cls(
            Path(path),
            table_id,
            opened.store,
            opened.reader,
            opened.lock,
            opened.state,
            writer,
            opened.has_pending,
        )
        journal.previous_shutdown = opened.previous_shutdown
        try:
            if opened.table_key.migrate:
                await journal._migrate(opened.table_key, migrated_by)
            await asyncio.to_thread(_to_keyed_schema, Path(path))
        except BaseException:
            await journal.close()
            raise
        return journal

    async def _migrate(self, table_key: TableKey, by: tuple[str, str | None]) -> None:
        """The first keyed record of a journal made before the chain was keyed (:mod:`.keying`)."""
        head = self.chain_head
        assert table_key.key is not None
        # The key by where it will be (a pending key is renamed into place once this is committed).
        name = (
            table_key.key.name if table_key.pending is None else f"file {key_path(self.path, self.table_id)}"
        )
        detail = {"unkeyed_seq": head.seq, "unkeyed_hash": head.hash, "key": name}
        await self.append(HardwareFact("journal", CHAIN_KEYED, detail), source=by[0], actor=by[1])
        finish_migration(table_key, self.path, self.table_id)

    async def __aenter__(self) -> Journal:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def chain_head(self) -> ChainHead:
        """The last committed record's seq and hash (what the next record chains to)."""
        return self._store.head

    @property
    def state(self) -> TableState:
        """The table's state as journaled (every append whose ``await`` has returned, and more)."""
        return self._durable

    async def append(
        self,
        entry: Entry,
        *,
        source: str,
        actor: str | None = None,
        outbox: Iterable[Outbound] = (),
    ) -> Appended:
        """Journal ``entry`` and its outbox messages in one transaction; return once durable.

        A refused entry (the rules core raises :class:`IllegalEvent`) is journaled as
        ``refused`` with the reason, its outbox dropped, and :class:`Refused` raised: it
        never counts as accepted. Malformed input raises ``ValueError``/``TypeError`` and
        journals nothing; a failed write raises :class:`JournalWriteError` and leaves the
        state as the journal is.
        """
        self._check_open()
        _check_source(source, actor, entry)
        messages = tuple(_outbound(m) for m in outbox)
        head = self._head
        meta = RecordMeta(
            head.last_seq + 1, str(uuid.uuid4()), time.time_ns(), time.monotonic_ns(), source, actor
        )
        try:
            record, after = head.prepare(entry, meta)
        except IllegalEvent as exc:
            refused, after = head.refuse(entry, str(exc), meta)
            await self._submit(refused, (), after)
            raise Refused(str(exc), refused) from None
        entries = await self._submit(record, messages, after)
        return Appended(record, entries, after)

    async def append_many(
        self, steps: Sequence[Step], *, request: str | None = None, binding: str = ""
    ) -> list[StepOutcome]:
        """Journal ``steps`` in ONE transaction (a crash keeps all or none); return once durable.

        Each step is checked against the state after the ones before it: accepted, or journaled
        as ``refused`` (its :class:`Refused` is its outcome; the others still count). With
        ``request`` (a client's idempotency key) a ``request`` record naming the steps' seqs and
        whether the last was accepted closes the transaction, so a retry is answered from the
        journal, even after a restart; ``binding`` (``records.request_binding``) is journaled
        with the key, so the same key with another body is known for another request. Each
        accepted step's ``outbox`` is committed in the same
        transaction (a refused step's is dropped). Malformed input raises
        ``ValueError``/``TypeError`` and journals nothing.
        """
        self._check_open()
        if not steps:
            raise ValueError("append_many needs at least one step")
        for step in steps:
            _check_source(step.source, step.actor, step.entry)
        head = self._head
        prepared: list[tuple[JournalRecord, TableState, Refused | None]] = []
        outboxes: list[tuple[tuple[str, str, str, Mapping[str, Any]], ...]] = []
        for step in steps:
            # Made and checked before anything is submitted: a malformed message journals nothing.
            outbox = step.outbox(head) if callable(step.outbox) else step.outbox
            outboxes.append(tuple(_outbound(m) for m in outbox))
            meta = RecordMeta(
                head.last_seq + 1,
                str(uuid.uuid4()),
                time.time_ns(),
                time.monotonic_ns(),
                step.source,
                step.actor,
            )
            reason = step.refuse
            if reason is None:
                try:
                    record, head = head.prepare(step.entry, meta)
                except IllegalEvent as exc:
                    reason = str(exc)
                else:
                    prepared.append((record, head, None))
                    continue
            refused, head = head.refuse(step.entry, reason, meta)
            prepared.append((refused, head, Refused(reason, refused)))
        if request is not None:
            last = prepared[-1]
            seqs = tuple(p[0].seq for p in prepared)
            entry = Request(request, seqs, last[2] is None, str(last[2] or ""), binding)
            meta = RecordMeta(
                head.last_seq + 1, str(uuid.uuid4()), time.time_ns(), time.monotonic_ns(), "daemon"
            )
            record, head = head.prepare(entry, meta)
            prepared.append((record, head, None))
        messages = [outboxes[i] if i < len(steps) and p[2] is None else () for i, p in enumerate(prepared)]
        futures = self._submit_group(
            [(r, after, m) for (r, after, _), m in zip(prepared, messages, strict=True)]
        )
        out: list[StepOutcome] = []
        for (record, after, refusal), future in zip(prepared, futures, strict=True):
            entries = await future
            out.append(refusal if refusal is not None else Appended(record, entries, after))
        return out[: len(steps)]

    def _submit_group(
        self,
        records: list[tuple[JournalRecord, TableState, tuple[tuple[str, str, str, Mapping[str, Any]], ...]]],
    ) -> list[asyncio.Future[tuple[OutboxEntry, ...]]]:
        items = []
        for record, after, messages in records:
            future: asyncio.Future[tuple[OutboxEntry, ...]] = self._loop.create_future()
            items.append(PendingAppend(record, dumps(record.body), messages, after, self._epoch, future))
            self._head = after
        self._writer.submit_group(tuple(items))
        return [item.future for item in items]

    def _submit(
        self,
        record: JournalRecord,
        messages: tuple[tuple[str, str, str, Mapping[str, Any]], ...],
        after: TableState,
    ) -> asyncio.Future[tuple[OutboxEntry, ...]]:
        future: asyncio.Future[tuple[OutboxEntry, ...]] = self._loop.create_future()
        item = PendingAppend(record, dumps(record.body), messages, after, self._epoch, future)
        self._head = after
        self._writer.submit(item)
        # A caller that stops waiting (cancelled) does not undo the write: the state still
        # follows it when it commits (see _complete).
        return future

    def _complete(self, outcomes: list[Outcome]) -> None:
        """On the loop: the writer's answer for a batch, in order."""
        for item, result in outcomes:
            if isinstance(result, BaseException):
                if item.epoch == self._epoch:
                    # Everything checked after the failed record is void: start again from
                    # what the journal holds.
                    self._epoch += 1
                    self._head = self._durable
                fail(item.future, result)
            else:
                self._durable = item.state_after
                if result:
                    self._outbox_ready.set()
                resolve(item.future, result)

    async def _call(self, fn: Callable[[], Any]) -> Any:
        self._check_open()
        future: asyncio.Future[Any] = self._loop.create_future()
        self._writer.call(fn, future)
        return await future

    # -- the outbox ---------------------------------------------------------------------------

    async def pending(self, limit: int = 100) -> list[OutboxEntry]:
        """Messages committed and not yet marked sent, oldest first."""
        self._check_open()
        return await asyncio.to_thread(self._reader.pending, limit)

    async def outbox_after(self, after_seq: int, limit: int = 100) -> list[OutboxEntry]:
        """Messages after ``after_seq``, sent or not, oldest first: what the link sends again
        after the meter's acknowledgement (docs/progressive-link.md, "Exactly once")."""
        self._check_open()
        return await asyncio.to_thread(self._reader.outbox, after_seq, limit)

    async def hash_at(self, seq: int) -> str | None:
        """The stored hash of record ``seq`` (``None``: the journal does not reach it): what the
        meter's witness is compared with (``controller/link/witness.py``)."""
        self._check_open()
        return await asyncio.to_thread(self._reader.hash_at, seq)

    async def witnessed(self, link_seq: int) -> Witnessed:
        """The record at ``link_seq`` on the progressive link's count, in this journal or the
        archive a RAM clear left (:mod:`.link_count`): what the meter's witness is compared with
        (``controller/link/witness.py``)."""
        self._check_open()
        return await asyncio.to_thread(self._reader.witnessed, link_seq)

    @property
    def link_count(self) -> LinkCount:
        """How this journal counts on the progressive link (:mod:`.link_count`)."""
        return self._reader.link_count

    def link_seq(self, seq: int) -> int:
        """Record ``seq`` of this journal on the progressive link's count (:mod:`.link_count`)."""
        return self._reader.link_count.link_seq(seq)

    async def last_outbox_seq(self) -> int:
        """The seq of the last message committed to the outbox on the link's count (``0``: none
        yet; after a RAM clear, the archive's last until this journal has one)."""
        self._check_open()
        return await asyncio.to_thread(self._reader.last_outbox_seq)

    async def closes_unanswered(self, fact: str) -> tuple[list[OutboxEntry], set[int]]:
        """The last ``paid`` and ``void`` messages whose answer (the ``hardware_fact`` ``fact``)
        is not journaled, and the hit seqs whose answer is (:meth:`JournalReader.closes_unanswered`)."""
        self._check_open()
        return await asyncio.to_thread(self._reader.closes_unanswered, fact)

    async def outbox_of_round(self, round_id: str, kind: str) -> list[OutboxEntry]:
        """The messages of ``kind`` (``"hit"``) committed with round ``round_id``'s records."""
        self._check_open()
        return await asyncio.to_thread(self._reader.outbox_of_round, round_id, kind)

    async def mark_sent(self, ids: Iterable[str]) -> int:
        """Mark messages sent (the broker acknowledged them); returns how many were not already.
        An id not in the outbox is a ``ValueError`` and marks nothing."""
        message_ids = list(ids)
        wall = time.time_ns()
        marked: int = await self._call(lambda: self._store.mark_sent(message_ids, wall))
        return marked

    async def wait_for_outbox(self) -> None:
        """Return when a message may be pending (at once if one is); then read :meth:`pending`.

        The link's loop: ``await wait_for_outbox()``, ``pending()``, publish, ``mark_sent()``.
        No wake-up is lost: the flag is cleared before returning, so a commit after it sets it
        again.
        """
        await self._outbox_ready.wait()
        self._outbox_ready.clear()

    # -- reading ------------------------------------------------------------------------------

    async def records(self, after_seq: int = 0, limit: int | None = None) -> list[JournalRecord]:
        self._check_open()
        return await asyncio.to_thread(self._reader.records, after_seq, limit)

    async def recent_rounds(self, n: int = RECENT_ROUNDS) -> list[RoundSummary]:
        """The last ``n`` rounds begun, newest first (the state itself keeps the last ten)."""
        self._check_open()
        return await asyncio.to_thread(self._reader.recent_rounds, n)

    async def recall(self, round_id: str) -> RecalledRound:
        self._check_open()
        return await asyncio.to_thread(self._reader.recall, round_id)

    async def export_round(self, round_id: str) -> dict[str, object]:
        """The round record of ``round_id`` (docs/round-record.md), which ``tablectl replay`` replays."""
        return (await self.recall(round_id)).record

    async def verify(self) -> TableState:
        """A full check of the file (slow on a long journal: for ``tablectl``, not the loop's path)."""
        self._check_open()
        return await asyncio.to_thread(self._reader.verify)

    # -- closing ------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise JournalError(f"{self.path}: the journal is closed")

    async def close(self) -> None:
        """Write what is queued, then close; later calls raise :class:`JournalError`."""
        if self._closed:
            return
        self._closed = True
        # The reader first: the last connection to close removes the WAL file.
        await asyncio.to_thread(self._reader.close)
        await self._writer.close()
        self._lock_file.close()


@dataclass(frozen=True)
class Opened:
    store: Store
    reader: JournalReader
    lock: TextIO
    state: TableState
    has_pending: bool
    previous_shutdown: str
    table_key: TableKey


def _open_sync(
    path: Path,
    table_id: str,
    create: bool,
    full_replay: bool,
    synchronous: str,
    genesis: str = GENESIS,
    meta: Mapping[str, str] | None = None,
    given_key: ChainKey | None = None,
) -> Opened:
    if not table_id or not table_id.strip():
        raise ValueError("the table id is a non-empty name")
    if not path.parent.is_dir():
        raise JournalError(f"{path}: the directory {path.parent} does not exist")
    if not path.exists() and not create:
        raise JournalError(f"{path}: no journal there")
    lock = lock_writer(path)
    conn: sqlite3.Connection | None = None
    try:
        new = not path.exists() or path.stat().st_size == 0
        if not path.exists():
            path.touch()
        conn = connect(path, read_only=False)
        schema_check(conn, path, table_id, create, genesis, meta)
        table_key = resolve_key(conn, path, table_id, given=given_key, writing=True, new=new)
        key = table_key.key
        assert key is not None  # writing: the table's key, or the one it is migrated with
        if new:
            # The marker of an empty journal, before any record can be committed.
            write_marker(path, HeadMarker(table_id, ChainHead(0, genesis), clean=True), key)
            sync_directory(path)
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise JournalError(f"{path}: SQLite refused WAL mode (journal_mode {mode})")
        conn.execute(f"PRAGMA synchronous = {synchronous}")
        conn.execute("PRAGMA foreign_keys = ON")
        # A WAL file that a checkpoint has emptied is cut back to this size.
        conn.execute("PRAGMA journal_size_limit = 8388608")
        # Critical memory is checked whole at every start: the chain from seq 1, and not behind
        # the head marker (a lost or rolled-back -wal). Refused, never started on (docs/journal.md).
        if table_key.migrate:
            head, marker = check_integrity(conn, path, table_id, key, unkeyed_marker=True)
        else:
            head, marker = check_integrity(conn, path, table_id, key)
        write_marker(path, HeadMarker(table_id, head, clean=False), key)
        state = recover(conn, path, table_id)
        if state.last_seq != head.seq:
            raise JournalCorrupt(
                f"{path}: recovery ends at seq {state.last_seq}, the chain at seq {head.seq}"
            )
        if full_replay:
            full = replay_all(conn, path, table_id)
            if full != state:
                raise JournalCorrupt(f"{path}: recovery does not give the state of a full replay")
        store = Store(conn, path, table_id, head, key, link_count(conn, path))
        reader = JournalReader(path, table_id)
        has_pending = reader.pending(1) != []
        shutdown = "clean" if marker.clean else "unclean"
        return Opened(store, reader, lock, state, has_pending, shutdown, table_key)
    except BaseException:
        if conn is not None:
            conn.close()
        lock.close()
        raise


def _check_source(source: str, actor: str | None, entry: Entry) -> None:
    if source not in SOURCES:
        hint = did_you_mean(str(source), SOURCES, 0.5)
        raise ValueError(f"unknown source {source!r}{hint} (sources: {', '.join(SOURCES)})")
    needs_actor = source in PERSON_SOURCES or isinstance(entry, Command)
    if actor is not None and (not isinstance(actor, str) or not actor.strip()):
        raise ValueError(f"the actor is a person's id (badge, user), not {actor!r}")
    if needs_actor and actor is None:
        what = "a command" if isinstance(entry, Command) else f"a record from {source}"
        raise ValueError(f"{what} names its actor (the person who did it)")


def _outbound(message: Outbound) -> tuple[str, str, str, Mapping[str, Any]]:
    if not isinstance(message, Outbound):
        raise TypeError(f"an outbox message is an Outbound, not {message!r}")
    if not isinstance(message.kind, str) or not message.kind.strip():
        raise ValueError(f"an outbox message needs a kind, not {message.kind!r}")
    try:
        text = dumps(dict(message.payload))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"outbox message {message.kind!r}: the payload is not JSON: {exc}") from None
    payload: dict[str, Any] = json.loads(text)
    return str(uuid.uuid4()), message.kind, text, payload


def _to_keyed_schema(path: Path) -> None:
    """A journal of schema 3, keyed now (created so, or by the ``chain_keyed`` fact just
    journaled), says schema 4 (:func:`.schema.keyed_chain_step`); the writer's lock is held."""
    conn = connect(path, read_only=False)
    try:
        if conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION - 1:
            run_step(conn, SCHEMA_VERSION - 1, keyed_chain_step)
    finally:
        conn.close()
