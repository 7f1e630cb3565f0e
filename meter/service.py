"""The meter on the broker: takes tables' messages, applies them once and in order, tells them.

One connection (a durable MQTT session: ``clean_session=False``, so the broker keeps what
arrives while the meter is away), reconnected with a back-off whenever it drops. Two stages: the
messages that arrive are read in the event loop while the store's side (:mod:`.desk`: a process
of its own as systemd runs the meter) judges and applies the batch before them; then all read so
far are one batch, ordered by seq and applied in one store transaction (one fsync)
(:class:`~.core.MeterCore`); only after the commit does the meter publish what that batch
returned: each table's ``ack`` (retained: every message up to ``applied_seq`` is durable here),
the ``reply`` to a hit (the award), to a ``paid`` or ``void`` (the acknowledgement that closes
the award and ends its Jackpot Lock) or to a refused message, and each changed progressive's
``amount`` (retained).

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
from collections import Counter, deque
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any

import aiomqtt

from wire import MeterMessage, MeterStatus, encode

from .config import MeterConfig
from .core import Arrived, Word
from .desk import Desk, DeskFailed

log = logging.getLogger(__name__)
MAX_BATCH = 512
MAX_INFLIGHT = 1000
TOLD_AHEAD = 3
"""Batches (and the opening) whose words may wait for the broker's answers at once: each is one
ack a table of the batch and one amount a progressive, so a few stay under MAX_INFLIGHT."""


class _Arrivals(asyncio.Queue[aiomqtt.Message]):
    """The client's queue of arrived messages (aiomqtt's ``queue_type``), emptied a batch at a
    time: aiomqtt's iterator makes a task and a wait for every message, which cost the meter's
    loop about as much as paho's read of it; the first message of a batch is still awaited
    through it (it ends with an error when the connection drops), the rest taken as they lie."""

    def take(self, most: int) -> list[aiomqtt.Message]:
        taken: list[aiomqtt.Message] = []
        while len(taken) < most and not self.empty():
            taken.append(self.get_nowait())
        return taken


def _arrived(message: aiomqtt.Message) -> Arrived:
    payload = message.payload
    return message.topic.value, payload if isinstance(payload, bytes | str) else b""


@dataclass
class _Read:
    """The messages read off the connection, not yet taken by the applying (the store's side
    checks them)."""

    items: list[Arrived] = field(default_factory=list)
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
    def __init__(self, config: MeterConfig, desk: Desk) -> None:
        self.config = config
        self.desk = desk
        self.topics = config.topics
        self.ignored: Counter[str] = Counter()
        """What the meter ignored or refused, counted by reason (as of the last batch)."""
        self.table_status: dict[str, str] = {}
        """Each table's last word of its status (online, offline), as of the last batch."""
        self.connected = asyncio.Event()
        self.failed: str | None = None
        """Why the store failed (the meter then says so once, goes offline and stops)."""
        self.crashed = False
        """The store's process failed or ended (not its store): a restart may mend it."""
        self._beat = 0
        self._busy = asyncio.Lock()
        self._arrivals = _Arrivals()
        """The connection's queue of arrived messages (each client makes its own)."""
        self._told: deque[asyncio.Future[list[Any]]] = deque()
        """The broker's answers to the words handed to the client and not yet all answered (the
        opening's, the batches'): at most :data:`TOLD_AHEAD`."""

    def _client(self) -> aiomqtt.Client:
        b = self.config.broker
        status = MeterStatus("offline", self.config.heartbeat_seconds)
        made: list[_Arrivals] = []

        class Arrivals(_Arrivals):
            def __init__(self, maxsize: int = 0) -> None:
                super().__init__(maxsize)
                made.append(self)

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
            queue_type=Arrivals,
        )
        (self._arrivals,) = made
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
        # The subscriptions, the online status, every amount and every ack go out first, in this
        # order, before any batch's; their answers are not waited for before the first batch: the
        # durable session's backlog flows in at once, and is applied while they come.
        try:
            words = await self.desk.opening()
        except DeskFailed as exc:
            self.crashed = True
            await self._store_failed(client, str(exc))
        opening = [
            asyncio.ensure_future(c)
            for c in (
                client.subscribe(self.topics.every_table_event(), qos=1),
                client.subscribe(self.topics.every_table_status(), qos=1),
                self._publish(client, self.topics.meter_status(), self._status("online"), retain=True),
                *self._say(client, words),
            )
        ]
        await asyncio.sleep(0)  # each has handed its packet to the client, in order
        told = asyncio.gather(*opening)
        told.add_done_callback(self._opened)
        self._told = deque([told])
        read = _Read()
        reading = asyncio.create_task(self._reading(client, read))
        applying = asyncio.create_task(self._applying(client, read))
        beat = asyncio.create_task(self._heartbeat(client))
        watch = asyncio.create_task(self.desk.watch())
        stopping = asyncio.create_task(stop.wait())
        tasks = (reading, applying, beat, watch, stopping)
        try:
            done, _ = await asyncio.wait(set(tasks), return_when=asyncio.FIRST_COMPLETED)
            if stopping in done:
                async with self._busy:  # a batch being applied is finished and told first
                    reading.cancel()
                    applying.cancel()
                    await asyncio.gather(*self._told)  # what is handed to the client is sent first
                await self._publish(client, self.topics.meter_status(), self._status("offline"), retain=True)
            for task in done - {stopping}:
                try:
                    task.result()
                except DeskFailed as exc:
                    self.crashed = True
                    await self._store_failed(client, str(exc))
        finally:
            # Words still unanswered on a cut: the acks and amounts are published again at connect.
            # Messages read but not yet applied are dropped with the connection: the sequencer has
            # not seen them, and their tables send them again from the meter's ack.
            for answers in self._told:
                answers.cancel()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, *self._told, return_exceptions=True)

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

    def _say(self, client: aiomqtt.Client, words: Iterable[Word]) -> list[Coroutine[Any, Any, None]]:
        """Words the store's side encoded (after its commit), handed to the client in order."""
        return [client.publish(topic, payload, qos=1, retain=retain) for topic, payload, retain in words]

    async def _reading(self, client: aiomqtt.Client, read: _Read) -> None:
        """The first stage: the messages that have arrived read off the connection, in the event
        loop, while the store's side applies the batch before them; at most :data:`MAX_BATCH`
        wait, then the reading waits for the applying to take them."""
        messages = client.messages
        while True:
            while len(read.items) >= MAX_BATCH:
                read.taken.clear()
                await read.taken.wait()
            arrived = [await anext(messages)]
            while len(read.items) + len(arrived) < MAX_BATCH:
                more = self._arrivals.take(MAX_BATCH - len(read.items) - len(arrived))
                if not more:
                    break
                arrived += more
                await asyncio.sleep(0)  # the client reads what else the socket holds
            read.items.extend(map(_arrived, arrived))
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

    async def handle(self, client: aiomqtt.Client, arrived: list[Arrived]) -> None:
        """Hand a batch of arrived messages to the store's side (:meth:`~.core.MeterCore.take`:
        read, ordered, applied durably), then tell the tables what it returned."""
        told = await self.desk.take(arrived)
        self.ignored, self.table_status = told.ignored, told.table_status
        if told.failed is not None:
            await self._store_failed(client, told.failed)
            return
        # Handed to the client now, in order, after the commit. The broker answers them behind the
        # backlog it is delivering: the next batches are applied meanwhile, up to TOLD_AHEAD; then
        # the oldest words' answers are waited for (an error ends the session).
        self._told.append(asyncio.gather(*self._say(client, told.words)))
        while len(self._told) > TOLD_AHEAD:
            await self._told.popleft()

    async def _store_failed(self, client: aiomqtt.Client, failed: str) -> None:
        """Said once: the meter is offline (retained, with the reason) and stops serving; nothing of
        the batch was committed, so nothing of it is told (the tables send it again later)."""
        self.failed = failed
        log.critical(
            "%s; nothing of the last batch was told; the meter goes offline and stops (%s)",
            failed,
            "systemd starts it again"
            if self.crashed
            else "free the disk or restore the store, then start it again",
        )
        reason = f"the meter's store failed: {failed}"
        with contextlib.suppress(aiomqtt.MqttError):
            await self._publish(client, self.topics.meter_status(), self._status("offline", reason), True)
        raise _Stopped
