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
import json
import logging
import socket
import ssl
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

import aiomqtt

from wire import Hit, TableStatus, Topics, WireError, decode_meter_message, decode_table_message

from ..config import ProgressiveLinkSection
from ..journal import Journal
from ..journal.outbox import OutboxEntry
from .state import LinkState

log = logging.getLogger("controller.link")

#: Messages in flight at once: the shipped broker's ``max_inflight_messages`` (the meter waits in
#: memory for a gap to fill; the order is the seq's).
WINDOW: Final = 100
#: Seconds to wait for the retained ack after subscribing, before sending from it.
ACK_GRACE: Final = 0.2


def _log_failure(future: asyncio.Future[int]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("progressive link: marking messages sent failed: %s", future.exception())


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
    """The outbox entry as the wire carries it, checked by the wire's own decoder."""
    return decode_table_message(json.dumps({"schema": 1, **entry.envelope()})).encode()


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

    def _client(self) -> aiomqtt.Client:
        offline = TableStatus(self.table, "offline").encode()
        status_topic = self.topics.table_status(self.link.site, self.table)
        client = aiomqtt.Client(
            self.link.host,
            self.link.port,
            username=self.link.username,
            password=read_password(self.link.password_file),
            identifier=f"table-{self.table}",
            clean_session=True,
            keepalive=10,
            will=aiomqtt.Will(status_topic, offline, qos=1, retain=True),
            tls_context=tls_context(self.link),
            socket_options=((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),),
            timeout=5,
        )
        client.pending_calls_threshold = 100_000
        return client

    async def run(self, stop: asyncio.Event) -> None:
        """Connect, run a session, and again after a cut (0.5 s later), until ``stop``."""
        while not stop.is_set():
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
            finally:
                if self.state.connected:
                    self.state.connected = False
                    self._on_change()
            if not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(0.5):
                        await stop.wait()

    async def _session(self, client: aiomqtt.Client, stop: asyncio.Event) -> None:
        for topic in self.topics.meter_for_table(self.table):
            await client.subscribe(topic, qos=1)
        online = TableStatus(self.table, "online").encode()
        await client.publish(self.topics.table_status(self.link.site, self.table), online, qos=1, retain=True)
        tasks = {
            asyncio.create_task(self._receive(client)),
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
        self.state.heard(message)
        self._news.set()
        self._on_change()
        return True

    async def _receive(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            payload = message.payload if isinstance(message.payload, (bytes, str)) else b""
            self.accept(message.topic.value, payload)

    # -- the outbox --

    async def _send(self, client: aiomqtt.Client) -> None:
        topic = self.topics.table_event(self.link.site, self.table)
        await asyncio.sleep(ACK_GRACE)  # the retained ack first: where the meter is
        cursor = self.state.applied_seq
        last_sent = time.monotonic()
        marking: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        marking.set_result(0)
        while True:
            entries = await self.journal.outbox_after(cursor, WINDOW)
            if entries:
                await asyncio.gather(*(client.publish(topic, wire_bytes(e), qos=1) for e in entries))
                unsent = [e.message_id for e in entries if e.sent_wall_ns is None]
                if unsent:
                    # The broker has them (its PUBACK). Marked while the next window goes out:
                    # ``sent_wall_ns`` says where a message got to, the meter's ack decides what
                    # is sent again, so the mark need not hold the next window back.
                    await marking
                    marking = asyncio.ensure_future(self.journal.mark_sent(unsent))
                    marking.add_done_callback(_log_failure)
                self._hits.update((e.seq, e) for e in entries if e.kind == Hit.kind)
                cursor = entries[-1].seq
                self.state.sent_seq = max(self.state.sent_seq, cursor)
                self.last_outbox_seq = max(self.last_outbox_seq, cursor)
                last_sent = time.monotonic()
                continue
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

    async def _wait_for_work(self) -> None:
        waiter = asyncio.create_task(self.journal.wait_for_outbox())
        try:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.25):
                    await waiter
        finally:
            waiter.cancel()

    async def _unanswered_hits(self) -> list[OutboxEntry]:
        """Hits the meter has applied but whose award (or refusal) has not come."""
        applied, state = self.state.applied_seq, self.state
        return [
            e
            for seq, e in sorted(self._hits.items())
            if seq <= applied and seq not in state.awards and seq not in state.refusals
        ]

    def remember_hits(self, entries: list[OutboxEntry]) -> None:
        """Hits journaled before this run (or not yet sent by it), to send again until awarded."""
        self._hits.update((e.seq, e) for e in entries if e.kind == Hit.kind)

    def queue_depth(self) -> int:
        """Messages the meter has not acknowledged (as far as this run has seen the outbox)."""
        return max(0, self.last_outbox_seq - self.state.applied_seq)
