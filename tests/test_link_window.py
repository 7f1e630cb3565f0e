"""One window of the outbox on the wire (controller/link/window.py), against a real Mosquitto.

The window is published with paho's own ``publish`` and awaited as one future, done only when
the broker has acknowledged (PUBACK) every message of it: a broker that has not answered
(``SIGSTOP``) leaves it waiting, a connection gone refuses the publish as aiomqtt would, and a
window given up leaves nothing behind in the client.
"""

from __future__ import annotations

import asyncio
import os
import signal
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import aiomqtt
import pytest
import pytest_asyncio

from controller.link.window import WindowUnsupported, publish_window
from sim.mosquitto import Broker, Pki

pytestmark = pytest.mark.asyncio
TOPIC = "progressive/floor/site/site-a/table/t1/status"  # the table's user may write it


@pytest_asyncio.fixture
async def broker(pki: Pki, tmp_path: Path) -> AsyncIterator[Broker]:
    b = Broker(tmp_path, pki)
    b.start()
    try:
        yield b
    finally:
        b.stop()


def _table(broker: Broker, pki: Pki) -> aiomqtt.Client:
    return aiomqtt.Client(
        broker.host,
        broker.port,
        username="t1",
        password=pki.passwords["t1"],
        identifier="t1",
        tls_context=pki.context("t1"),
        max_inflight_messages=0,
        timeout=5,
    )


def _observer(broker: Broker, pki: Pki) -> aiomqtt.Client:
    return aiomqtt.Client(
        broker.host,
        broker.port,
        identifier=f"observer-{uuid.uuid4().hex[:6]}",
        tls_context=pki.context("observer"),
    )


async def test_a_window_is_done_when_the_broker_has_acknowledged_every_message_in_order(
    broker: Broker, pki: Pki
) -> None:
    payloads = [f"message {i}".encode() for i in range(150)]
    async with _observer(broker, pki) as observer, _table(broker, pki) as table:
        await observer.subscribe(TOPIC, qos=1)
        assert broker.pid is not None
        os.kill(broker.pid, signal.SIGSTOP)  # the broker answers nothing until it goes on
        try:
            acked = publish_window(table, TOPIC, payloads)
            await asyncio.sleep(0.5)
            assert not acked.done(), "the window was done before any PUBACK could come"
        finally:
            os.kill(broker.pid, signal.SIGCONT)
        async with asyncio.timeout(10):
            await acked
        # Done at the last PUBACK, not before: paho holds none of the window's messages unanswered.
        assert not vars(table)["_client"]._out_messages
        got: list[bytes] = []
        async with asyncio.timeout(10):
            async for message in observer.messages:
                assert isinstance(message.payload, bytes)
                got.append(message.payload)
                if len(got) == len(payloads):
                    break
        assert got == payloads  # the broker has them all, in the window's order
        # Nothing of the window is left in the client's table of awaited PUBACKs.
        assert not vars(table)["_pending_publishes"]


async def test_the_window_is_done_at_its_last_puback_and_not_before(broker: Broker, pki: Pki) -> None:
    async with _table(broker, pki) as table:
        assert broker.pid is not None
        os.kill(broker.pid, signal.SIGSTOP)  # no PUBACK from the broker while the callback is driven
        try:
            acked = publish_window(table, TOPIC, [b"a", b"b", b"c"])
            mids = sorted(vars(table)["_pending_publishes"])
            assert len(mids) == 3
            # aiomqtt's own PUBACK callback, as paho calls it for each PUBACK read.
            for n, mid in enumerate(mids, 1):
                table._on_publish(table._client, None, mid, None, None)  # type: ignore[arg-type]
                await asyncio.sleep(0)
                assert acked.done() == (n == 3), f"after {n} of 3 PUBACKs"
        finally:
            os.kill(broker.pid, signal.SIGCONT)


async def test_a_window_given_up_leaves_nothing_awaited_in_the_client(broker: Broker, pki: Pki) -> None:
    async with _table(broker, pki) as table:
        assert broker.pid is not None
        os.kill(broker.pid, signal.SIGSTOP)
        try:
            acked = publish_window(table, TOPIC, [b"a", b"b", b"c"])
            assert len(vars(table)["_pending_publishes"]) == 3
            with pytest.raises(TimeoutError):
                async with asyncio.timeout(0.3):
                    await acked  # as the publisher's window times out (PUBACK_SECONDS)
            assert acked.cancelled()
            assert not vars(table)["_pending_publishes"]
            # A PUBACK that comes after all is nobody's: aiomqtt's callback finds no one.
        finally:
            os.kill(broker.pid, signal.SIGCONT)
        await table.publish(TOPIC, b"after", qos=1)  # the connection goes on


async def test_a_publish_on_a_lost_connection_is_refused_as_aiomqtt_refuses_it(
    broker: Broker, pki: Pki
) -> None:
    async with _table(broker, pki) as table:
        broker.stop(kill=True)
        with pytest.raises(aiomqtt.MqttError):
            async with asyncio.timeout(10):
                await anext(table.messages)  # the client sees the connection go
        with pytest.raises(aiomqtt.MqttError, match="not currently connected"):
            publish_window(table, TOPIC, [b"x", b"y"])
        assert not vars(table)["_pending_publishes"]


async def test_an_aiomqtt_without_the_table_of_awaited_pubacks_is_named() -> None:
    client = aiomqtt.Client("127.0.0.1", 1, identifier="t1")
    del client._pending_publishes  # as a later aiomqtt might hold it otherwise
    with pytest.raises(WindowUnsupported, match=r"aiomqtt 2\.\d+\.\d+.*_pending_publishes.*constraints"):
        publish_window(client, TOPIC, [b"x"])
