"""A stand-in for a table on the link (the meter's setup is :mod:`sim.link_rig`), for the tests and
the bench (bench/bench_meter.py).

:class:`SimTable` behaves as the table's publisher will (docs/progressive-link.md, "Exactly
once"): it keeps its outbox (gapless seq, a UUID per message), sends it in seq order over
QoS 1, and sends again, in order, everything after the meter's retained ``ack`` on every
(re)connect and whenever the ack stops moving; a hit is sent again until its award comes. It
acts on the meter's messages only through :func:`wire.decode_meter_message` on the meter's
topics.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field

import aiomqtt

from controller.link.publisher import PUBACK_SECONDS
from controller.link.window import publish_window
from sim.link_rig import LINK, PARAMS, PROGRESSIVE, meter_config, meter_process
from wire import (
    Ack,
    Amount,
    Award,
    AwardTerms,
    Closed,
    Contribution,
    Declaration,
    Hit,
    MeterStatus,
    Paid,
    Parameters,
    Payload,
    Refusal,
    TableMessage,
    TableStatus,
    Topics,
    Void,
    WireError,
    decode_meter_message,
)

from .mosquitto import Broker, Pki

#: The cards a stand-in's claim carries where a test gives none: the hand's, as a table would
#: send them (the meter checks the cards make the row, meter/claims.py).
HAND_CARDS: Mapping[str, tuple[str, ...]] = {
    "royal flush": ("As", "Ks", "Qs", "Js", "Ts"),
    "straight flush": ("9h", "8h", "7h", "6h", "5h"),
}

__all__ = ["LINK", "PARAMS", "PROGRESSIVE", "SimTable", "meter_config", "meter_process"]


@dataclass
class SimTable:
    table: str
    site: str
    broker: Broker
    pki: Pki
    topics: Topics = field(default_factory=lambda: Topics(LINK))
    resend_after: float = 1.5
    window: int = 20
    outbox: list[TableMessage] = field(default_factory=list)
    acked: int = 0
    ack: Ack | None = None
    awards: dict[int, Award] = field(default_factory=dict)
    refusals: dict[int, Refusal] = field(default_factory=dict)
    closed: dict[int, Closed] = field(default_factory=dict)
    """The meter's acknowledgements of this table's ``paid``/``void``, by the hit's seq."""
    amounts: dict[str, Amount] = field(default_factory=dict)
    meter_status: MeterStatus | None = None
    sent: int = 0
    connects: int = 0

    def __post_init__(self) -> None:
        self._news = asyncio.Event()

    # -- the outbox --

    def add(self, payload: Payload, round_id: str | None = None) -> TableMessage:
        seq = len(self.outbox) + 1
        m = TableMessage(self.table, seq, str(uuid.uuid4()), seq, str(uuid.uuid4()), round_id, payload)
        self.outbox.append(m)
        self._news.set()
        return m

    def declare(self, progressives: Mapping[str, Parameters] | None = None) -> TableMessage:
        return self.add(Declaration(dict(progressives or {PROGRESSIVE: PARAMS})))

    def contribute(self, wagered: int, wagers: int = 1, progressive: str = PROGRESSIVE) -> TableMessage:
        return self.add(Contribution(progressive, wagers, wagered))

    def hit(
        self,
        award: AwardTerms,
        seat: int = 1,
        hand: str = "royal flush",
        progressive: str = PROGRESSIVE,
        hit_wall_ns: int | None = None,
        cards: tuple[str, ...] | None = None,
    ) -> TableMessage:
        """A claim; ``cards`` by default the hand's (:data:`HAND_CARDS`), ``()`` for none."""
        held = HAND_CARDS.get(hand, ()) if cards is None else cards
        return self.add(Hit(progressive, seat, hand, award, hit_wall_ns=hit_wall_ns, cards=held))

    def paid(self, hit_seq: int, amount: int, progressive: str = PROGRESSIVE) -> TableMessage:
        """The table paid its hit ``hit_seq`` (the award's amount, after the floorperson's check)."""
        return self.add(Paid(progressive, hit_seq, amount))

    def void(self, hit_seq: int, reason: str, progressive: str = PROGRESSIVE) -> TableMessage:
        """A floorperson voided the hit ``hit_seq``."""
        return self.add(Void(progressive, hit_seq, reason))

    # -- what the meter says --

    def accept(self, topic: str, payload: bytes | str) -> bool:
        """Act on a message if it is the meter's, on the meter's topic, for this table."""
        try:
            ref = self.topics.parse(topic)
            if ref.table and ref.table != self.table:
                return False
            message = decode_meter_message(payload, ref)
        except WireError:
            return False
        if isinstance(message, Ack):
            self.ack = message
            if message.applied_seq > self.acked:
                self.acked = message.applied_seq
                self._progress = time.monotonic()
        elif isinstance(message, Award):
            self.awards.setdefault(message.seq, message)
        elif isinstance(message, Refusal):
            self.refusals.setdefault(message.seq, message)
        elif isinstance(message, Closed):
            self.closed.setdefault(message.hit_seq, message)
        elif isinstance(message, Amount):
            old = self.amounts.get(message.progressive)
            if old is None or message.record_seq > old.record_seq:
                self.amounts[message.progressive] = message
        else:
            self.meter_status = message
        self._news.set()
        return True

    def unanswered_hits(self) -> list[TableMessage]:
        return [
            m
            for m in self.outbox[: self.acked]
            if isinstance(m.payload, Hit) and m.seq not in self.awards and m.seq not in self.refusals
        ]

    # -- the connection --

    def _client(self) -> aiomqtt.Client:
        offline = TableStatus(self.table, "offline").encode()
        client = aiomqtt.Client(
            self.broker.host,
            self.broker.port,
            identifier=self.table,  # the broker makes it the certificate's name in any case
            clean_session=True,
            keepalive=10,
            will=aiomqtt.Will(self.topics.table_status(self.site, self.table), offline, qos=1, retain=True),
            tls_context=self.pki.context(self.table),
            socket_options=((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),),
            timeout=5,
        )
        client.pending_calls_threshold = 100_000
        return client

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            with contextlib.suppress(aiomqtt.MqttError):  # a cut: connect again, as the table does
                async with self._client() as client:
                    self.connects += 1
                    await self._session(client, stop)
            if not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(0.2):
                        await stop.wait()

    async def _session(self, client: aiomqtt.Client, stop: asyncio.Event) -> None:
        for topic in self.topics.meter_for_table(self.table):
            await client.subscribe(topic, qos=1)
        status = TableStatus(self.table, "online").encode()
        await client.publish(self.topics.table_status(self.site, self.table), status, qos=1, retain=True)
        receive = asyncio.create_task(self._receive(client))
        send = asyncio.create_task(self._send(client))
        stopping = asyncio.create_task(stop.wait())
        try:
            done, _ = await asyncio.wait({receive, send, stopping}, return_when=asyncio.FIRST_COMPLETED)
            for task in done - {stopping}:
                task.result()
        finally:
            for task in (receive, send, stopping):
                task.cancel()
            await asyncio.gather(receive, send, stopping, return_exceptions=True)

    async def _receive(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            payload = message.payload if isinstance(message.payload, (bytes, str)) else b""
            self.accept(message.topic.value, payload)

    async def _send(self, client: aiomqtt.Client) -> None:
        topic = self.topics.table_event(self.site, self.table)
        await asyncio.sleep(0.05)  # the retained ack first: where the meter is
        next_seq = self.acked + 1
        self._progress = time.monotonic()
        while True:
            if next_seq <= len(self.outbox):
                window = self.outbox[next_seq - 1 : next_seq - 1 + self.window]
                # As the table's publisher sends a window (controller/link/window.py).
                acked = publish_window(client, topic, [m.encode() for m in window])
                try:
                    async with asyncio.timeout(PUBACK_SECONDS):
                        await acked
                except TimeoutError:
                    raise aiomqtt.MqttError(f"no PUBACK in {PUBACK_SECONDS:g} s") from None
                self.sent += len(window)
                next_seq += len(window)
                continue
            self._news.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.25):
                    await self._news.wait()
            stalled = time.monotonic() - self._progress > self.resend_after
            if stalled and self.acked < len(self.outbox):
                next_seq = self.acked + 1  # the meter has not got these: again, in order
                self._progress = time.monotonic()
            elif stalled and self.unanswered_hits():
                for m in self.unanswered_hits():
                    await client.publish(topic, m.encode(), qos=1)
                self._progress = time.monotonic()

    async def wait(self, predicate: object, timeout: float = 10.0, what: str = "") -> None:
        assert callable(predicate)
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"table {self.table}: timed out waiting for {what or predicate}")
            self._news.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.1):
                    await self._news.wait()

    async def all_acked(self, timeout: float = 20.0) -> None:
        await self.wait(lambda: self.acked == len(self.outbox), timeout, f"ack of seq {len(self.outbox)}")
