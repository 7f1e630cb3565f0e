"""Every frame a serial device sends or receives, for ``tablectl sniff`` (docs/serial-protocols.md)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from .serial_protocol import (
    BrokenFrame,
    Frame,
    printable,
)


@dataclass(frozen=True, slots=True)
class SniffedFrame:
    """One frame as ``tablectl sniff`` shows it: ``direction`` ``"in"`` (from the device) or
    ``"out"``; ``frame`` if it was valid, ``broken`` if not; ``raw`` bytes (a valid frame
    re-encoded); ``at`` wall-clock seconds."""

    direction: str
    frame: Frame | None
    broken: BrokenFrame | None
    raw: bytes
    at: float

    def __str__(self) -> str:
        arrow = "<-" if self.direction == "in" else "->"
        if self.frame is not None:
            return f"{arrow} {self.frame}"
        reason = self.broken.reason if self.broken is not None else "?"
        return f"{arrow} BROKEN {reason}: {printable(self.raw)}"


class FrameSniffer:
    """What :meth:`SerialDevice.sniff` returns: an async iterator of :class:`SniffedFrame`,
    subscribed from the moment it is made until closed (``async with`` or :meth:`aclose`)."""

    def __init__(self, subscribers: set[asyncio.Queue[SniffedFrame]], maxsize: int) -> None:
        self._subscribers = subscribers
        self._queue: asyncio.Queue[SniffedFrame] = asyncio.Queue(maxsize)
        subscribers.add(self._queue)

    def __aiter__(self) -> FrameSniffer:
        return self

    async def __anext__(self) -> SniffedFrame:
        if self._queue not in self._subscribers and self._queue.empty():
            raise StopAsyncIteration
        return await self._queue.get()

    async def aclose(self) -> None:
        self._subscribers.discard(self._queue)

    async def __aenter__(self) -> FrameSniffer:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
