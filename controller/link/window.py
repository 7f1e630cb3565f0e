"""One window of the outbox on the wire: published in order, awaited as one future.

aiomqtt's ``publish`` makes, for every message, a task (to be awaited), an ``asyncio.Event``,
a ``wait_for`` and two walks of every call it awaits (to check the message id and to count
them, 200 with two windows of 100 on the wire). Here a window is handed to paho's own ``publish``
(which queues each message for the socket, in order), and one future stands for all its PUBACKs:
aiomqtt's own PUBACK callback finds this window under each message id and calls its
:meth:`_Pubacks.set`, as it would the event of one ``publish``. The drain after an outage
went from 131-149 to 77-101 µs of CPU a message (docs/benchmarks.md, "seventh step").

It reaches two of aiomqtt's attributes (``_client``, paho's client; ``_pending_publishes``,
the calls awaiting a PUBACK by message id): the packages pin aiomqtt
(packaging/constraints.txt) and pyproject.toml holds it to 2.5; both attributes are checked at
each window (a client without them is :class:`WindowUnsupported`, naming what is missing: the
link's session ends in a fault, progressive wagering closed) and by tests/test_link_window.py
against a real broker.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from importlib import metadata
from typing import Any, Final

import aiomqtt
import paho.mqtt.client as paho

QOS: Final = 1


class WindowUnsupported(RuntimeError):
    """The aiomqtt installed does not hold what a window needs (a version this code has not met)."""


class _Pubacks:
    """The PUBACKs one window awaits: ``set`` once each (aiomqtt's ``_on_publish`` calls it, by
    message id, as it would an ``asyncio.Event``'s); the future is done at the last."""

    __slots__ = ("_left", "done", "mids")

    def __init__(self, done: asyncio.Future[None]) -> None:
        self.done = done
        self.mids: list[int] = []
        self._left = 0

    def awaits(self, mid: int) -> None:
        self.mids.append(mid)
        self._left += 1

    def set(self) -> None:
        self._left -= 1
        if self._left == 0 and not self.done.done():
            self.done.set_result(None)


def _internals(client: aiomqtt.Client) -> tuple[paho.Client, dict[int, Any]]:
    held = vars(client)
    paho_client, pending = held.get("_client"), held.get("_pending_publishes")
    needed = (("_client", paho_client, paho.Client), ("_pending_publishes", pending, dict))
    missing = [name for name, value, kind in needed if not isinstance(value, kind)]
    if missing:
        raise WindowUnsupported(
            f"aiomqtt {metadata.version('aiomqtt')} has no {' or '.join(missing)} as 2.5 has: the "
            "link's windows are written for aiomqtt 2.5 (packaging/constraints.txt pins it)"
        )
    assert isinstance(paho_client, paho.Client) and isinstance(pending, dict)
    return paho_client, pending


def publish_window(client: aiomqtt.Client, topic: str, payloads: Sequence[bytes]) -> asyncio.Future[None]:
    """Publish ``payloads`` on ``topic`` at QoS 1, in order; done once the broker has PUBACKed
    every one. Cancelled (a window given up), it leaves none of its message ids awaited.

    A publish the client refuses (its connection gone) is :class:`aiomqtt.MqttCodeError`, as
    aiomqtt's ``publish`` raises it, and nothing of the window is left awaited."""
    paho_client, pending = _internals(client)
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    pubacks = _Pubacks(done)

    def forget(_: object = None) -> None:
        for mid in pubacks.mids:
            if pending.get(mid) is pubacks:
                del pending[mid]

    done.add_done_callback(forget)
    try:
        for payload in payloads:
            info = paho_client.publish(topic, payload, QOS)
            if info.rc != paho.MQTT_ERR_SUCCESS:
                raise aiomqtt.MqttCodeError(info.rc, "Could not publish message")
            if info.mid in pending:
                # aiomqtt refuses the same: a message id still awaited (65,535 in flight).
                raise aiomqtt.MqttError(f'There already exists a pending call for message ID "{info.mid}"')
            pending[info.mid] = pubacks
            pubacks.awaits(info.mid)
    except BaseException:
        done.cancel()
        forget()
        raise
    if not payloads:
        done.set_result(None)
    return done
