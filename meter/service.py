"""The meter on the broker: takes tables' messages, applies them once and in order, tells them.

One connection (a durable MQTT session: ``clean_session=False``, so the broker keeps what
arrives while the meter is away), reconnected with a back-off whenever it drops. Two stages in
one event loop: the messages that arrive are read and checked while the store applies the batch
before them in its thread; then all read so far are one batch, ordered by seq and applied in one
store transaction (one fsync); only after
the commit does the meter publish: each table's ``ack`` (retained: every message up to
``applied_seq`` is durable here), the ``reply`` to a hit (the award), to a ``paid`` or ``void``
(the acknowledgement that closes the award and ends its Jackpot Lock) or to a refused message,
and each changed progressive's ``amount`` (retained). A duplicate is acknowledged again, and
a hit sent again gets its recorded award again. What is not a table's own message on its own
topic (unknown table, another site, a table id that is not the topic's, a broken message) is
ignored and logged: it changes nothing.

At connect the meter publishes its retained ``online`` status (its last will says
``offline``), every amount and every table's ack; then a heartbeat every
``heartbeat_seconds`` (the tables' "word from the meter").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import ssl
from collections import Counter
from collections.abc import Coroutine, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiomqtt

from wire import (
    Ack,
    MeterMessage,
    MeterStatus,
    TableMessage,
    TopicRef,
    Verdict,
    WireError,
    decode_envelope,
    decode_table_message,
    decode_table_status,
    encode,
)
from wire.errors import clip

from .clears import last_clears
from .config import MeterConfig
from .ledger import Broken, Item
from .notices import UNKNOWN, Notices, digest
from .sequencer import Sequencer
from .store import Applied, Store, StoreFailed
from .witness import Witness, witness_path

log = logging.getLogger(__name__)
MAX_BATCH = 512
MAX_INFLIGHT = 1000


@dataclass
class _Batch:
    ready: list[Item] = field(default_factory=list)
    duplicates: list[Item] = field(default_factory=list)
    acks: set[str] = field(default_factory=set)


@dataclass
class _Read:
    """The messages read and checked, not yet taken by the applying (both stages in one loop)."""

    items: list[Item] = field(default_factory=list)
    filled: asyncio.Event = field(default_factory=asyncio.Event)
    taken: asyncio.Event = field(default_factory=asyncio.Event)


def tls_context(config: MeterConfig) -> ssl.SSLContext | None:
    b = config.broker
    if not b.tls:
        return None
    ctx = ssl.create_default_context(cafile=str(b.ca_file) if b.ca_file else None)
    if b.cert_file is not None and b.key_file is not None:
        ctx.load_cert_chain(str(b.cert_file), str(b.key_file))
    return ctx


def meter_status(config: MeterConfig, status: str, beat: int = 0, reason: str | None = None) -> MeterStatus:
    """The meter's status as it publishes it: its heartbeat and the award timeout the tables use."""
    return MeterStatus(
        "online" if status == "online" else "offline",
        config.heartbeat_seconds,
        beat,
        reason,
        config.award_timeout_seconds,
    )


class _Stopped(Exception):
    """The meter stops serving: its store failed (:attr:`MeterService.failed` says why)."""


class MeterService:
    def __init__(self, config: MeterConfig, store: Store) -> None:
        self.config = config
        self.store = store
        self.topics = config.topics
        self.sequencer = Sequencer(store.applied_seqs())
        self.notices = Notices(log)
        self.witness = Witness(witness_path(store.path))
        self.witness.recover(last_clears(store.conn))
        self.table_status: dict[str, str] = {}
        self.connected = asyncio.Event()
        self.failed: str | None = None
        """Why the store failed (the meter then says so once, goes offline and stops)."""
        self._beat = 0
        self._busy = asyncio.Lock()
        self._strangers: set[str] = set()
        """Tables not of this link that sent an event, to be told so (once each, per connection)."""
        self._told_strangers: set[str] = set()
        self._refs: dict[str, TopicRef] = {}
        """Each linked table's topics as parsed (the same topic string is parsed once)."""
        self._told: asyncio.Future[list[Any]] | None = None
        """The broker's answers to the last words handed to the client (a batch's, or the opening's)."""

    @property
    def ignored(self) -> Counter[str]:
        """What the meter ignored or refused, counted by reason."""
        return self.notices.counts

    def _client(self) -> aiomqtt.Client:
        b = self.config.broker
        status = MeterStatus("offline", self.config.heartbeat_seconds)
        client = aiomqtt.Client(
            b.host,
            b.port,
            username=b.username,
            password=b.password(),
            identifier=b.client_id,
            clean_session=False,
            keepalive=b.keepalive_seconds,
            will=aiomqtt.Will(self.topics.meter_status(), encode(status), qos=1, retain=True),
            tls_context=tls_context(self.config),
            socket_options=((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),),
            # A batch's acks and amounts (one per table, per progressive) in flight at once.
            max_inflight_messages=MAX_INFLIGHT,
            logger=logging.getLogger(f"{__name__}.mqtt"),
        )
        client.pending_calls_threshold = 100_000  # a batch's acks and amounts go out together
        return client

    async def run(self, stop: asyncio.Event) -> None:
        """Serve until ``stop`` is set; reconnect whenever the broker goes away."""
        backoff = 0.2
        b = self.config.broker
        while not stop.is_set():
            try:
                async with self._client() as client:
                    backoff = 0.2
                    log.info("connected to the broker %s:%d as %s", b.host, b.port, b.client_id)
                    await self._session(client, stop)
            except aiomqtt.MqttError as exc:
                log.warning("broker %s:%d: %s; connecting again in %.1f s", b.host, b.port, exc, backoff)
            except _Stopped:
                return
            finally:
                self.connected.clear()
            if stop.is_set():
                break
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(backoff):
                    await stop.wait()
            backoff = min(backoff * 2, 5.0)

    async def _session(self, client: aiomqtt.Client, stop: asyncio.Event) -> None:
        self._told_strangers.clear()  # told again on this connection, if they send again
        # The subscriptions, the online status, every amount and every ack go out first, in this
        # order, before any batch's; their answers are not waited for before the first batch: the
        # durable session's backlog flows in at once, and is applied while they come.
        opening = [
            asyncio.ensure_future(c)
            for c in (
                client.subscribe(self.topics.every_table_event(), qos=1),
                client.subscribe(self.topics.every_table_status(), qos=1),
                *self._publish_all(client),
            )
        ]
        await asyncio.sleep(0)  # each has handed its packet to the client, in order
        self._told = told = asyncio.gather(*opening)
        told.add_done_callback(self._opened)
        read = _Read()
        reading = asyncio.create_task(self._reading(client, read))
        applying = asyncio.create_task(self._applying(client, read))
        beat = asyncio.create_task(self._heartbeat(client))
        stopping = asyncio.create_task(stop.wait())
        tasks = (reading, applying, beat, stopping)
        try:
            done, _ = await asyncio.wait(set(tasks), return_when=asyncio.FIRST_COMPLETED)
            if stopping in done:
                async with self._busy:  # a batch being applied is finished and told first
                    reading.cancel()
                    applying.cancel()
                    await self._told  # what is handed to the client is sent before the last word
                await self._publish(client, self.topics.meter_status(), self._status("offline"), retain=True)
            for task in done - {stopping}:
                task.result()
        finally:
            # Words still unanswered on a cut: the acks and amounts are published again at connect.
            # Messages read but not yet applied are dropped with the connection: the sequencer has
            # not seen them, and their tables send them again from the meter's ack.
            last = self._told or told
            last.cancel()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, last, return_exceptions=True)

    def _opened(self, told: asyncio.Future[list[Any]]) -> None:
        if not told.cancelled() and told.exception() is None:
            self.connected.set()

    def _status(self, status: str, reason: str | None = None) -> MeterStatus:
        return meter_status(self.config, status, self._beat, reason)

    async def _heartbeat(self, client: aiomqtt.Client) -> None:
        while True:
            await asyncio.sleep(self.config.heartbeat_seconds)
            self._beat += 1
            await self._publish(client, self.topics.meter_status(), self._status("online"), retain=True)

    async def _publish(self, client: aiomqtt.Client, topic: str, message: MeterMessage, retain: bool) -> None:
        await client.publish(topic, encode(message), qos=1, retain=retain)

    def _publish_all(self, client: aiomqtt.Client) -> list[Coroutine[Any, Any, None]]:
        """The meter's status, every amount and every ack (retained), as at connect."""
        ledger = self.store.ledger
        out = [self._publish(client, self.topics.meter_status(), self._status("online"), retain=True)]
        out += [
            self._publish(client, self.topics.amount(p.id), p.amount_message(), retain=True)
            for p in ledger.progressives.values()
            if p.id in self.config.progressives
        ]
        out += [
            self._publish(client, self.topics.ack(t.id), self.witness.ack(t.ack_message()), retain=True)
            for t in ledger.tables.values()
            if t.id in self.config.tables
        ]
        return out

    async def _reading(self, client: aiomqtt.Client, read: _Read) -> None:
        """The first stage: the messages that have arrived read and checked (:meth:`_item`), in
        the event loop, while the store applies the batch before them in its thread; at most
        :data:`MAX_BATCH` wait, then the reading waits for the applying to take them."""
        messages = client.messages
        while True:
            while len(read.items) >= MAX_BATCH:
                read.taken.clear()
                await read.taken.wait()
            arrived = [await anext(messages)]
            while len(messages) and len(read.items) + len(arrived) < MAX_BATCH:
                arrived.append(await anext(messages))
            read.items.extend(item for item in map(self._item, arrived) if item is not None)
            if read.items or self._strangers:  # a stranger is told why even when nothing applies
                read.filled.set()

    async def _applying(self, client: aiomqtt.Client, read: _Read) -> None:
        """The second stage: all that is read so far taken as one batch, ordered, applied and told
        (:meth:`handle`), one batch at a time, in the order read."""
        while True:
            await read.filled.wait()
            read.filled.clear()
            items, read.items = read.items, []
            read.taken.set()
            async with self._busy:
                await self.handle(client, items)

    # -- a batch --

    def _sort(self, items: Iterable[Item]) -> _Batch:
        batch = _Batch()
        for item in items:
            offered = self.sequencer.offer(item)
            if offered.duplicate:
                batch.duplicates.append(item)
            elif offered.too_far:
                self.notices.note(
                    "seq too far ahead", item.table, item.seq,
                    f"the meter has applied its seq {self.sequencer.applied_seq(item.table)}; dropped",
                )  # fmt: skip
            elif offered.gap:
                log.debug(
                    "table %s seq %d waits for seq %d",
                    item.table,
                    item.seq,
                    self.sequencer.applied_seq(item.table) + 1,
                )
            batch.ready.extend(offered.ready)
            batch.acks.add(item.table)
        return batch

    def _item(self, message: aiomqtt.Message) -> Item | None:
        """A table's message read whole, or refused by its seq (its envelope whole, its body not);
        ``None`` for what is not a table's own message on its own topic (counted and logged)."""
        topic = message.topic.value
        payload = message.payload if isinstance(message.payload, (bytes, str)) else b""
        ref = self._refs.get(topic)
        if ref is None:
            try:
                ref = self.topics.parse(topic)
            except WireError as exc:
                self.notices.note("not a topic of the link", UNKNOWN, None, str(exc), payload)
                return None
            if ref.table in self.config.tables:  # bounded: two topics a linked table, no stranger's
                self._refs[topic] = ref
        if ref.channel not in ("event", "table_status"):
            return None  # the meter's own topics (and its echoes)
        table = self.config.tables.get(ref.table)
        if table is None:
            self.notices.note("not a table of this link", UNKNOWN, None, topic, payload)
            if ref.channel == "event" and ref.table not in self._told_strangers:
                self._strangers.add(ref.table)
            return None
        if table.site != ref.site:
            detail = f"published under site {ref.site!r}, but it is at site {table.site!r}"
            self.notices.note("wrong site", table.id, None, detail, payload)
            return None
        try:
            if ref.channel == "table_status":
                self.table_status[table.id] = decode_table_status(payload, ref).status
                return None
            return decode_table_message(payload, ref)
        except WireError as exc:
            try:
                env = decode_envelope(payload, ref)
            except WireError:
                self.notices.note("not a valid message", table.id, None, str(exc), payload)
                return None
            self.notices.note("refused", table.id, env.seq, str(exc), payload)
            return Broken(
                env.table, env.seq, env.message_id, env.kind, exc.field, exc.problem, digest(payload)
            )

    async def handle(self, client: aiomqtt.Client, items: Sequence[Item]) -> None:
        """Order a batch of read messages (:class:`~.sequencer.Sequencer`), apply it durably, then
        tell the tables (acks, replies, amounts)."""
        batch = self._sort(items)
        try:
            applied = await asyncio.to_thread(self._apply, batch)
        except StoreFailed as exc:
            await self._store_failed(client, exc)
            return
        out = []
        progressives: set[str] = set()
        for a in applied:
            if a.duplicate and a.message.message_id != a.record.message_id:
                self.notices.note(
                    "conflicting duplicate", a.message.table, a.message.seq,
                    f"message id {a.message.message_id} is not the applied {a.record.message_id}: "
                    "acknowledged again, nothing of it applied",
                )  # fmt: skip
                continue
            if a.reply is not None:
                out.append(self._publish(client, self.topics.reply(a.message.table), a.reply, retain=False))
            if (
                not a.duplicate
                and a.record.progressive is not None
                and a.record.kind in ("contribution", "award", "paid", "void")
            ):
                progressives.add(a.record.progressive)
        ledger = self.store.ledger
        for pid in sorted(progressives):
            out.append(
                self._publish(
                    client, self.topics.amount(pid), ledger.progressives[pid].amount_message(), True
                )
            )
        for table in sorted(batch.acks):
            ack = self.witness.ack(ledger.table(table).ack_message())
            out.append(self._publish(client, self.topics.ack(table), ack, True))
        out += self._tell_strangers(client)
        # Handed to the client now, in order, after the commit; the broker's answers to the batch
        # before are waited for (an error ends the session), this batch's while the next is applied.
        told, self._told = self._told, asyncio.gather(*out)
        if told is not None:
            await told

    def _tell_strangers(self, client: aiomqtt.Client) -> list[Coroutine[Any, Any, None]]:
        """A table the meter does not link is told why (its ack, retained, with a refused verdict
        and the reason), once per connection: it closes progressive wagering with the meter's
        words, not its own guess (docs/progressive-link.md, "Ack")."""
        out = []
        for table in sorted(self._strangers - self._told_strangers):
            why = (
                f"table {table!r} is not a table of this meter's link {self.config.link!r} (its "
                f"[tables]: {', '.join(sorted(self.config.tables)) or 'none'}): nothing it sends is applied"
            )
            ack = Ack(table, 0, Verdict(1, False, "table", clip(why, 2000)))
            out.append(self._publish(client, self.topics.ack(table), ack, True))
            self._told_strangers.add(table)
        self._strangers.clear()
        return out

    async def _store_failed(self, client: aiomqtt.Client, exc: StoreFailed) -> None:
        """Said once: the meter is offline (retained, with the reason) and stops serving; nothing of
        the batch was committed, so nothing of it is told (the tables send it again later)."""
        self.failed = str(exc)
        log.critical(
            "%s; nothing of the last batch was applied or told; the meter goes offline and stops "
            "(free the disk or restore the store, then start it again)",
            exc,
        )
        reason = f"the meter's store failed: {exc}"
        with contextlib.suppress(aiomqtt.MqttError):
            await self._publish(client, self.topics.meter_status(), self._status("offline", reason), True)
        raise _Stopped

    def _apply(self, batch: _Batch) -> list[Applied]:
        applied = self.store.apply(batch.ready)
        # Before the acks go out; a message refused unread (Broken) carries no chain head to keep.
        self.witness.note(
            a.message for a in applied if not a.duplicate and isinstance(a.message, TableMessage)
        )
        for m in batch.duplicates:
            earlier = self.store.duplicate(m)
            if earlier is not None:
                applied.append(earlier)
        return applied
