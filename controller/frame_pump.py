"""The serial devices' frames on the local API's ``frames`` topic, for ``tablectl sniff``.

One task per device reads the driver's :meth:`hw.serial_device.SerialDevice.sniff` (every frame
both ways, valid or broken) and publishes each one as ``{"notify": "frames", "data": ...}``
(:func:`frame_to_json`). Only a signed-in slot technician may subscribe to ``frames``
(``controller.api.TOPIC_ROLES``). The hole-card reader's refused frames arrive already withheld by
its driver, as its logs show them (§ 633a.7(h)); its valid frames carry only blackjack or not.

While nobody subscribes, a frame is read from the driver and let go: nothing is built or encoded
for it. A failure to publish one frame is logged and the next is published as usual; a slow
technician loses frames at the API (counted there), never slows a driver.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import Any, Final

from hw.frame_sniffer import SniffedFrame
from hw.serial_device import SerialDevice

log = logging.getLogger(__name__)

#: The API's topic the frames go to.
FRAMES_TOPIC: Final = "frames"

Publish = Callable[[str, Mapping[str, Any]], None]


def frame_to_json(device: str, sniffed: SniffedFrame) -> dict[str, Any]:
    """One sniffed frame for the API: ``device`` (its configured name), ``direction`` (``in`` from
    the device, ``out`` to it), ``frame`` (the valid frame as text, ``TYPE|field|...``, else
    ``null``), ``broken`` (``{"reason", "detail"}`` for a refused one, else ``null``), ``raw`` (the
    bytes in hexadecimal) and ``time`` (wall-clock seconds since the epoch)."""
    broken = sniffed.broken
    return {
        "device": device,
        "direction": sniffed.direction,
        "frame": None if sniffed.frame is None else str(sniffed.frame),
        "broken": None if broken is None else {"reason": broken.reason, "detail": broken.detail},
        "raw": sniffed.raw.hex(" "),
        "time": sniffed.at,
    }


class FramePumps:
    """Publishes every device's sniffed frames on ``frames`` while anyone listens.

    ``devices``: the daemon's drivers by configured name (``shoe``, ``shuffler``, ``reader``);
    ``publish``: ``ApiServer.publish`` or the daemon's wrapper of it; ``listening``: whether any
    connection subscribes to ``frames`` now (``None``: always publish)::

        pumps = FramePumps(daemon.devices, api.publish, lambda: api.has_subscribers("frames"))
        pumps.start()
        ...
        await pumps.stop()
    """

    def __init__(
        self,
        devices: Mapping[str, SerialDevice],
        publish: Publish,
        listening: Callable[[], bool] | None = None,
    ) -> None:
        self.devices = devices
        self._publish = publish
        self._listening = listening
        self._tasks: dict[str, asyncio.Task[None]] = {}

    @property
    def running(self) -> bool:
        return any(not task.done() for task in self._tasks.values())

    def start(self) -> None:
        """One task per device, each sniffing from now on; call it on the loop, after the drivers
        are made (they may still be connecting)."""
        loop = asyncio.get_running_loop()
        for name, device in self.devices.items():
            if name not in self._tasks or self._tasks[name].done():
                self._tasks[name] = loop.create_task(self._pump(name, device), name=f"frames {name}")

    async def stop(self) -> None:
        """Stop every task; each closes its sniffer, so the drivers stop copying frames for it."""
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _pump(self, name: str, device: SerialDevice) -> None:
        try:
            async with device.sniff() as frames:
                async for sniffed in frames:
                    if self._listening is not None and not self._listening():
                        continue
                    try:
                        self._publish(FRAMES_TOPIC, frame_to_json(name, sniffed))
                    except Exception:
                        log.exception("%s: could not publish a sniffed frame; going on", name)
        except Exception:
            # Not the table's business: the driver and the game go on without it.
            log.exception("%s: the frames pump failed; tablectl sniff shows no more of its frames", name)
