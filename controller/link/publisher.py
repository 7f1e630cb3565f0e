"""The link's one task: send the outbox in seq order, follow the meter's ack, read the meter.

docs/progressive-link.md, "Exactly once": every message goes out QoS 1, in seq order; the
broker's PUBACK marks it sent in the journal (``mark_sent``) but is not trusted for more: on
every (re)connect the table starts again after the meter's retained ack (``applied_seq``), and
whenever the ack has not moved for ``resend_after`` seconds while messages wait, it sends
again, in order, everything after it. A hit is sent again until its award or refusal comes.
The meter drops a seq it has, so nothing is counted twice; the outbox is durable before the
event that causes it is acted on, so nothing is lost (a ``kill -9`` of the daemon included).

Only messages on the meter's topics for this table are read, and only through
:func:`wire.decode_meter_message`: anything else (a forged award on a table's topic) is
counted and dropped. The broker password is read from its file and never logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import ssl
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import aiomqtt
from aiomqtt.client import MessagesIterator

from wire import Hit, Paid, Refusal, TableStatus, Topics, Void, WireError, decode_meter_message
from wire.reader import dumps

from ..config import ProgressiveLinkSection
from ..journal import Journal
from ..journal.outbox import OutboxEntry
from .state import LinkState
from .window import publish_window

log = logging.getLogger(__name__)

#: Messages read from the outbox and published at once (one window).
WINDOW: Final = 100
#: Windows on the wire at once: the next is read from the journal and published while the one
#: before waits for its PUBACKs, so the socket never idles between windows (the order of the
#: publishes, and so of the broker, is the seq's either way). ``WINDOW * FLIGHTS`` is the most
#: messages awaiting their PUBACK; the broker's ``max_inflight_messages`` bounds only what it
#: sends (MQTT 3.1.1 has no receive maximum).
FLIGHTS: Final = 2
#: paho's own in-flight limit: none (``0``), as the windows are the limit. With a limit paho
#: walks its whole list of messages at every PUBACK to find one to send (bench/bench_link.py).
PAHO_INFLIGHT: Final = 0
#: Seconds a window waits at most for its PUBACKs before the session is given up (and the
#: messages sent again from the meter's ack on the next).
PUBACK_SECONDS: Final = 10.0
#: Seconds before the link tries again after a fault of the table's own (the first; doubled
#: at each fault in a row, up to :data:`FAULT_RETRY_MAX`).
FAULT_RETRY_FIRST: Final = 0.5
FAULT_RETRY_MAX: Final = 30.0
#: The longest fault's words kept (status, the journal's ``device_offline``).
FAULT_WORDS: Final = 300
#: The table's messages that close a hit (the handshake's ``paid`` and ``void``).
CLOSES: Final = (Paid.kind, Void.kind)


@dataclass
class _Flight:
    """One window on the wire: its entries and the PUBACKs of all of them (:mod:`.window`)."""

    entries: list[OutboxEntry]
    acked: asyncio.Future[None]


def tls_context(link: ProgressiveLinkSection) -> ssl.SSLContext | None:
    """TLS with the casino's CA (named, not the system's) and the table's client certificate."""
    if not link.tls:
        return None
    ctx = ssl.create_default_context(cafile=None if link.ca_file is None else str(link.ca_file))
    if link.cert_file is not None and link.key_file is not None:
        ctx.load_cert_chain(str(link.cert_file), str(link.key_file))
    return ctx


def read_password(path: Path | None) -> str | None:
    """The broker password from its file (the first line), never logged."""
    if path is None:
        return None
    return path.read_text(encoding="utf-8").splitlines()[0].strip() if path.stat().st_size else ""


def wire_bytes(entry: OutboxEntry) -> bytes:
    """The outbox entry as the wire carries it, encoded once and not read back here.

    Its payload was read back by the wire's own reader where it was made (:func:`.outbound.to_meter`),
    the rest of the envelope is the journal's own columns, and the record's keyed hash covers
    every outbox message (verified at every start); the meter reads every message again and
    refuses a bad one by its seq (in its history, and in the refusal it sends the table), the
    messages behind it going on (docs/progressive-link.md, "Bounds"). A row that cannot be
    encoded (changed on disk) is a ``ValueError`` naming its seq: a fault of the link's session."""
    message: dict[str, object] = {"schema": 1, **entry.envelope()}
    if entry.event_hash:
        # The journal's head at this message: the meter keeps the last as its witness (witness.py).
        message["chain"] = {"seq": entry.event_seq, "hash": entry.event_hash}
    try:
        return dumps(message)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"outbox seq {entry.seq} ({entry.kind}) cannot be encoded: {exc}") from exc


class LinkPublisher:
    """Sends ``journal``'s outbox to the meter and keeps :attr:`state` from the meter's topics."""

    def __init__(
        self,
        link: ProgressiveLinkSection,
        table: str,
        journal: Journal,
        *,
        on_change: Callable[[], None] = lambda: None,
        resend_after: float = 2.0,
    ) -> None:
        self.link = link
        self.table = table
        self.journal = journal
        self.topics = Topics(link.link, link.topic_prefix)
        self.state = LinkState(timeout=float(link.timeout_seconds))
        self.resend_after = resend_after
        self.connects = 0
        self.last_outbox_seq = 0
        self._on_change = on_change
        self._news = asyncio.Event()
        #: The hits sent this run, by seq: sent again until their award or refusal comes.
        self._hits: dict[int, OutboxEntry] = {}
        #: The ``paid`` and ``void`` messages, by seq: sent again until the meter's ``closed`` comes.
        self._closes: dict[int, OutboxEntry] = {}
        #: Message ids PUBACKed and not yet marked sent: marked together, one transaction for
        #: all that came while the last one committed.
        self._to_mark: list[str] = []
        self._marker: asyncio.Task[None] | None = None
        #: Seconds to wait before the next session (:meth:`run`): longer after each fault in a row.
        self._retry = FAULT_RETRY_FIRST

    def _client(self) -> aiomqtt.Client:
        offline = TableStatus(self.table, "offline").encode()
        status_topic = self.topics.table_status(self.link.site, self.table)
        client = aiomqtt.Client(
            self.link.host,
            self.link.port,
            username=self.link.username,
            password=read_password(self.link.password_file),
            # The shipped broker makes the client id the certificate's CN, which is the table id.
            identifier=self.table,
            clean_session=True,
            keepalive=10,
            max_inflight_messages=PAHO_INFLIGHT,
            will=aiomqtt.Will(status_topic, offline, qos=1, retain=True),
            tls_context=tls_context(self.link),
            socket_options=((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),),
            timeout=5,
        )
        client.pending_calls_threshold = 100_000
        return client

    async def run(self, stop: asyncio.Event) -> None:
        """Connect, run a session, and again after a cut (0.5 s later), until ``stop``.

        A fault of the table's own (the journal unreadable, a message it cannot encode, a bug)
        never ends the link for good: it closes progressive wagering at once with its words
        (:attr:`LinkState.fault`), is logged once, and the link tries again by itself, waiting
        longer after each session in a row that ends in a fault (up to :data:`FAULT_RETRY_MAX`
        s); the next session that reads and sends the outbox clears it."""
        while not stop.is_set():
            wait: float | None = None
            try:
                async with self._client() as client:
                    self.connects += 1
                    self.state.connected = True
                    log.info("progressive link connected to %s:%d", self.link.host, self.link.port)
                    self._on_change()
                    await self._session(client, stop)
            except aiomqtt.MqttError as exc:
                log.warning("progressive link: %s", exc)
            except (OSError, ssl.SSLError) as exc:
                log.warning("progressive link: %s", exc)
            except Exception as exc:
                wait = self._faulted(exc)
            finally:
                if self.state.connected:
                    self.state.connected = False
                    self._on_change()
            if wait is None:
                # A cut or a stop, not a fault of ours: again soon, and the next fault waits little.
                wait = self._retry = FAULT_RETRY_FIRST
            if not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(wait):
                        await stop.wait()
        if self._marker is not None:
            # The last marks, before the journal closes.
            await asyncio.gather(self._marker, return_exceptions=True)

    def _faulted(self, exc: Exception) -> float:
        """Progressive wagering closed with the fault's words; the seconds until the next try."""
        words = f"the table's link failed ({type(exc).__name__}: {exc})"[:FAULT_WORDS]
        words += "; it tries again by itself"
        if words != self.state.fault:
            # Once per cause, with its traceback: the same fault again at every try is not logged.
            log.error("progressive link: %s", words, exc_info=exc)
            self.state.fault = words
            self._on_change()
        wait, self._retry = self._retry, min(FAULT_RETRY_MAX, self._retry * 2)
        return wait

    def _recovered(self) -> None:
        """A session read and sent the outbox: the fault, if there was one, is over (the wait
        before the next try grows on while sessions end in faults: one that comes back at every
        session is logged once a try, at most every :data:`FAULT_RETRY_MAX` s)."""
        if self.state.fault is not None:
            log.info("progressive link: working again after %s", self.state.fault)
            self.state.fault = None
            self._on_change()

    async def _session(self, client: aiomqtt.Client, stop: asyncio.Event) -> None:
        for topic in self.topics.meter_for_table(self.table):
            await client.subscribe(topic, qos=1)
        online = TableStatus(self.table, "online").encode()
        await client.publish(self.topics.table_status(self.link.site, self.table), online, qos=1, retain=True)
        # The broker sends a subscription's retained messages before it answers the next packet
        # (MQTT 3.1.1 § 4.6, in order on one connection): the meter's retained ack, if it has one
        # for this table, has come before the PUBACK of the status, and is read here, first.
        messages = client.messages
        while len(messages):
            self._read(await anext(messages))
        tasks = {
            asyncio.create_task(self._receive(messages)),
            asyncio.create_task(self._send(client)),
            asyncio.create_task(stop.wait()),
        }
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    # -- the meter's topics --

    def accept(self, topic: str, payload: bytes | str) -> bool:
        """Act on a message only if it is the meter's, on the meter's topic for this table."""
        try:
            ref = self.topics.parse(topic)
            if not ref.from_meter or (ref.table and ref.table != self.table):
                raise WireError("topic", f"{topic!r} is not a meter topic of table {self.table!r}")
            message = decode_meter_message(payload, ref)
        except WireError as exc:
            self.state.forged += 1
            log.warning("progressive link: dropped a message on %s: %s", topic, exc)
            return False
        if isinstance(message, Refusal) and message.seq not in self.state.refusals:
            why = (message.seq, message.field, message.reason)
            log.warning("progressive link: the meter refused seq %d (%s): %s", *why)
        self.state.heard(message)
        self._news.set()
        self._on_change()
        return True

    def _read(self, message: aiomqtt.Message) -> None:
        payload = message.payload if isinstance(message.payload, (bytes, str)) else b""
        self.accept(message.topic.value, payload)

    async def _receive(self, messages: MessagesIterator) -> None:
        async for message in messages:
            self._read(message)

    # -- the outbox --

    async def _send(self, client: aiomqtt.Client) -> None:
        topic = self.topics.table_event(self.link.site, self.table)
        # From the meter's retained ack, read with the subscriptions (:meth:`_session`; a meter
        # that has never acknowledged this table has none).
        cursor = self.state.applied_seq
        last_sent = time.monotonic()
        flights: deque[_Flight] = deque()
        try:
            while True:
                entries = await self.journal.outbox_after(cursor, WINDOW) if len(flights) < FLIGHTS else []
                if entries:
                    # Encoded before anything is counted sent: a message that cannot be is a fault.
                    payloads = [wire_bytes(e) for e in entries]
                    # Written at once, in order; one future for the window's PUBACKs, one timer
                    # for it (:meth:`_oldest`).
                    flights.append(_Flight(entries, publish_window(client, topic, payloads)))
                    self._hits.update((e.seq, e) for e in entries if e.kind == Hit.kind)
                    self._closes.update((e.seq, e) for e in entries if e.kind in CLOSES)
                    cursor = entries[-1].seq
                    self.last_outbox_seq = max(self.last_outbox_seq, cursor)
                    last_sent = time.monotonic()
                    continue
                if flights:
                    self._landed(await self._oldest(flights))
                    last_sent = time.monotonic()
                    continue
                self._recovered()  # the outbox read and sent: nothing of a fault is left
                await self._wait_for_work()
                now = time.monotonic()
                stalled = now - max(self.state.ack_moved, last_sent) > self.resend_after
                if stalled and self.state.applied_seq < cursor:
                    # The meter has not got these: again, in order, from its ack.
                    log.info("progressive link: resending after seq %d", self.state.applied_seq)
                    cursor = self.state.applied_seq
                    last_sent = now
                elif stalled:
                    unanswered = await self._unanswered_hits()
                    for entry in unanswered:
                        await client.publish(topic, wire_bytes(entry), qos=1)
                    if unanswered:
                        last_sent = now
        finally:
            # A cut: the windows still in flight are sent again from the meter's ack.
            for flight in flights:
                flight.acked.cancel()

    @staticmethod
    async def _oldest(flights: deque[_Flight]) -> list[OutboxEntry]:
        """The oldest window's entries, once the broker has acknowledged every one (PUBACK)."""
        flight = flights.popleft()
        try:
            async with asyncio.timeout(PUBACK_SECONDS):
                await flight.acked
        except TimeoutError:
            seqs = f"{flight.entries[0].seq}-{flight.entries[-1].seq}"
            raise aiomqtt.MqttError(f"no PUBACK for seqs {seqs} in {PUBACK_SECONDS:g} s") from None
        return flight.entries

    def _landed(self, entries: list[OutboxEntry]) -> None:
        """The broker has ``entries`` (their PUBACKs): mark the unsent ones sent.

        ``sent_wall_ns`` says where a message got to; the meter's ack decides what is sent again,
        so the mark holds nothing back: it is committed beside the next windows, every id that
        came while the last mark committed in one transaction.
        """
        self.state.sent(entries[-1].seq)
        self._recovered()
        self._to_mark.extend(e.message_id for e in entries if e.sent_wall_ns is None)
        if self._to_mark and (self._marker is None or self._marker.done()):
            self._marker = asyncio.create_task(self._mark(), name="link-mark-sent")

    async def _mark(self) -> None:
        while self._to_mark:
            ids, self._to_mark = self._to_mark, []
            try:
                await self.journal.mark_sent(ids)
            except Exception as exc:  # the journal locks the table itself; the link goes on
                log.warning("progressive link: marking %d messages sent failed: %s", len(ids), exc)

    async def _wait_for_work(self) -> None:
        waiter = asyncio.create_task(self.journal.wait_for_outbox())
        try:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.25):
                    await waiter
        finally:
            waiter.cancel()

    async def _unanswered_hits(self) -> list[OutboxEntry]:
        """Hits the meter has applied but whose award (or refusal) has not come, and ``paid`` or
        ``void`` messages it has applied whose ``closed`` (or refusal) has not come (an answer lost
        while the table was down: the meter answers a message sent again with its recorded reply;
        a refused one is the floorperson's, not sent again)."""
        applied, state = self.state.applied_seq, self.state
        hits = [
            e
            for seq, e in sorted(self._hits.items())
            if seq <= applied
            and seq not in state.awards
            and seq not in state.refusals
            and seq not in state.closed
        ]
        closes = [
            e
            for seq, e in sorted(self._closes.items())
            if seq <= applied and seq not in state.refusals and e.payload.get("hit_seq") not in state.closed
        ]
        return hits + closes

    def remember_hits(self, entries: list[OutboxEntry]) -> None:
        """Hits journaled before this run (or not yet sent by it), to send again until awarded."""
        self._hits.update((e.seq, e) for e in entries if e.kind == Hit.kind)

    def remember_closes(self, entries: list[OutboxEntry]) -> None:
        """``paid`` and ``void`` messages whose ``closed`` is not journaled, to send again until
        the meter's ``closed`` comes."""
        self._closes.update((e.seq, e) for e in entries if e.kind in CLOSES)

    def queue_depth(self) -> int:
        """Messages the meter has not acknowledged (as far as this run has seen the outbox)."""
        return max(0, self.last_outbox_seq - self.state.applied_seq)
