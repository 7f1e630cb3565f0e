"""The bench rig's shoe, shuffler and hole-card reader, each on a real pseudo-terminal.

Each simulator opens a pty pair (``os.openpty``), puts the slave in raw mode and publishes it
under a stable name, a symlink such as ``/run/table-sim/shoe`` pointing at ``/dev/pts/N``, as the
udev rules do for the real devices. The driver opens that path like any serial port; the
simulator speaks the documented protocol on the master side, on the event loop (non-blocking
writes, ``loop.add_reader`` for the host's commands), and answers status requests and test
frames by itself.

Scripting (every method is a coroutine that returns once the bytes are written)::

    async with ShoeSimulator(tmp / "shoe") as shoe:
        await shoe.deal(1, "As Kd 5c 7h 9s")    # CRD x5 then STK|1|5
        await shoe.jam()                          # FLT|jam
        await shoe.send_garbage(b"\\x02\\xff...")
        await shoe.go_away()                      # unplugged: pty closed, symlink gone
        await shoe.come_back()                    # plugged in again: new pty, same path

Not part of the product: the daemon never imports ``sim``.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import random
import tempfile
import tty
from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar, Self

from hw.serial_protocol import SEQ_MODULUS, BrokenFrame, Codec, Frame, codec_named


class PseudoTerminal:
    """A pty pair whose slave stands in for a device's serial port, reachable at ``link``."""

    def __init__(self, link: Path) -> None:
        self.link = link
        self.master = -1
        self.slave = -1
        self.slave_path = ""

    @property
    def is_open(self) -> bool:
        return self.master >= 0

    def open(self) -> None:
        self.master, self.slave = os.openpty()
        # Raw at once, before the driver opens it: no echo of our frames back to us, no newline
        # translation. The simulator keeps its slave fd so the master never reads EIO while the
        # driver is away.
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.slave_path = os.ttyname(self.slave)
        self.link.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.link.with_name(self.link.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        tmp.symlink_to(self.slave_path)
        tmp.replace(self.link)

    def close(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.link.unlink()
        for fd in (self.master, self.slave):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.master = self.slave = -1


class SimulatedDevice:
    """A device on a pty speaking ``table-v1`` (or another codec): status, test echo, faults,
    garbage, unplugging. Subclasses add the device's own messages."""

    kind: ClassVar[str] = "device"
    model: ClassVar[str] = "SIM"
    firmware: ClassVar[str] = "1.0"

    def __init__(
        self,
        link: str | os.PathLike[str] | None = None,
        *,
        codec: Codec | None = None,
        heartbeat_interval: float | None = 1.0,
    ) -> None:
        if link is None:
            link = Path(tempfile.mkdtemp(prefix="table-sim-")) / self.kind
        self.pty = PseudoTerminal(Path(link))
        self.codec = codec if codec is not None else codec_named("table-v1")
        self.heartbeat_interval = heartbeat_interval
        #: Host frames received, in order, and the broken ones.
        self.received: list[Frame] = []
        self.received_broken: list[BrokenFrame] = []
        #: When true the device says nothing: no heartbeats, no answers (a hung device).
        self.muted = False
        #: When false the device ignores the host's commands (but still sends heartbeats).
        self.answers = True
        self.fault_kind: str | None = None
        self._seq = 0
        self._decoder = self.codec.new_decoder()
        self._out = bytearray()
        self._drained: asyncio.Future[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._received_event = asyncio.Event()

    @property
    def path(self) -> str:
        """The port's stable name, for the driver's config."""
        return str(self.pty.link)

    @property
    def present(self) -> bool:
        return self.pty.is_open

    # -- life cycle --

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._plug_in()
        if self.heartbeat_interval is not None and self._heartbeat is None:
            self._heartbeat = self._loop.create_task(self._beat(self.heartbeat_interval))

    async def stop(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
            self._heartbeat = None
        self._unplug()

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def go_away(self) -> None:
        """Unplugged: the pty closes (the driver's reads fail) and the port's name disappears."""
        self._unplug()

    async def come_back(self) -> None:
        """Plugged in again: a new pty under the same name; the device powers up (sequence 0)."""
        if not self.present:
            self._seq = 0
            self._plug_in()

    def _plug_in(self) -> None:
        assert self._loop is not None
        self.pty.open()
        self._decoder = self.codec.new_decoder()
        self._loop.add_reader(self.pty.master, self._readable)

    def _unplug(self) -> None:
        if self._loop is not None and self.pty.is_open:
            self._loop.remove_reader(self.pty.master)
            if self._out:
                self._loop.remove_writer(self.pty.master)
        self._out.clear()
        self._wake_drained()
        self.pty.close()

    # -- scripting --

    async def send(self, type_: str, *fields: str | int) -> Frame:
        """A frame of this device with the next sequence number first."""
        frame = Frame(type_, (str(self._next_seq()), *(str(f) for f in fields)))
        await self.send_frame(frame)
        return frame

    async def send_frame(self, frame: Frame) -> None:
        """Exactly ``frame``, encoded by the codec."""
        await self.send_raw(self.codec.encode(frame))

    async def send_raw(self, data: bytes) -> None:
        self._write(data)
        await self.drain()

    async def send_corrupted(self, type_: str, *fields: str | int) -> bytes:
        """A frame whose checksum is wrong (a byte damaged on the line); it uses up a sequence
        number as a real damaged frame would. Returns the bytes sent."""
        raw = bytearray(self.codec.encode(Frame(type_, (str(self._next_seq()), *(str(f) for f in fields)))))
        # Damage one bit of the second byte (inside the type for table-v1, after STX): the frame
        # is still framed, its checksum no longer matches.
        raw[1] ^= 0x01
        await self.send_raw(bytes(raw))
        return bytes(raw)

    async def send_garbage(self, data: bytes | int = 32, rng: random.Random | None = None) -> bytes:
        """Line noise: ``data`` as given, or that many random bytes."""
        if isinstance(data, int):
            data = (rng or random.Random()).randbytes(data)
        await self.send_raw(data)
        return data

    async def fault(self, kind: str, detail: str = "") -> Frame:
        """A fault (``FLT``); the device reports ``fault`` in its status until :meth:`clear`."""
        self.fault_kind = kind
        return await self.send("FLT", kind, detail)

    async def fault_storm(self, kind: str, detail: str = "", count: int = 100) -> None:
        """``count`` faults (``FLT``) in one write, each with its own sequence number: a device's
        firmware repeating a fault in a loop (a stuck sensor), as fast as the line takes them."""
        self.fault_kind = kind
        frames = (
            self.codec.encode(Frame("FLT", (str(self._next_seq()), kind, detail))) for _ in range(count)
        )
        await self.send_raw(b"".join(frames))

    async def clear(self) -> Frame:
        """The fault is cleared: an unsolicited ready status."""
        self.fault_kind = None
        return await self.send("STS", 0, "ready", self.model, self.firmware)

    async def drain(self, timeout: float = 5.0) -> None:
        """Until everything written has gone into the pty."""
        if not self._out:
            return
        loop = asyncio.get_running_loop()
        if self._drained is None or self._drained.done():
            self._drained = loop.create_future()
        await asyncio.wait_for(asyncio.shield(self._drained), timeout)

    async def wait_received(self, type_: str, timeout: float = 2.0, since: int = 0) -> Frame:
        """The first host frame of ``type_`` at or after index ``since`` of :attr:`received`
        (``since=len(sim.received)`` before a command waits for that command), waiting for it."""
        async with asyncio.timeout(timeout):
            while True:
                for frame in self.received[since:]:
                    if frame.type == type_:
                        return frame
                self._received_event.clear()
                await self._received_event.wait()

    # -- the host's commands --

    def _readable(self) -> None:
        try:
            data = os.read(self.pty.master, 4096)
        except BlockingIOError:
            return
        except OSError as exc:
            if exc.errno == errno.EIO:
                return
            raise
        for item in self._decoder.feed(data):
            if isinstance(item, BrokenFrame):
                self.received_broken.append(item)
                if self.answers and not self.muted:
                    self._reply("NAK", 0, item.reason)
                continue
            self.received.append(item)
            self._received_event.set()
            if self.answers and not self.muted:
                self._command(item)

    def _command(self, frame: Frame) -> None:
        tag = frame.fields[0] if frame.fields else "0"
        if frame.type == "REQ" and len(frame.fields) == 1:
            self._reply("STS", tag, self._status(), self.model, self.firmware)
        elif frame.type == "TST" and len(frame.fields) == 2:
            self._reply("TST", tag, frame.fields[1])
        else:
            self._reply("NAK", tag if tag.isdigit() else 0, f"unknown command {frame.type}")

    def _status(self) -> str:
        return "fault" if self.fault_kind is not None else "ready"

    def _reply(self, type_: str, *fields: str | int) -> None:
        self._write(self.codec.encode(Frame(type_, (str(self._next_seq()), *(str(f) for f in fields)))))

    async def _beat(self, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            if self.present and not self.muted:
                self._reply("STS", 0, self._status(), self.model, self.firmware)

    # -- writing --

    def _next_seq(self) -> int:
        seq = self._seq
        self._seq = (self._seq + 1) % SEQ_MODULUS
        return seq

    def _write(self, data: bytes) -> None:
        if not self.present or self.muted:
            return  # unplugged or hung: the bytes go nowhere
        if not self._out:
            try:
                written = os.write(self.pty.master, data)
            except BlockingIOError:
                written = 0
            data = data[written:]
            if not data:
                return
            assert self._loop is not None
            self._loop.add_writer(self.pty.master, self._writable)
        self._out += data

    def _writable(self) -> None:
        try:
            written = os.write(self.pty.master, self._out)
        except BlockingIOError:
            return
        del self._out[:written]
        if not self._out:
            assert self._loop is not None
            self._loop.remove_writer(self.pty.master)
            self._wake_drained()

    def _wake_drained(self) -> None:
        if self._drained is not None and not self._drained.done():
            self._drained.set_result(None)


class ShoeSimulator(SimulatedDevice):
    """An automated dealing shoe with card recognition."""

    kind: ClassVar[str] = "shoe"
    model: ClassVar[str] = "SIM-SHOE"

    async def read_cards(self, cards: str | Iterable[str], card_interval: float = 0.0) -> list[Frame]:
        """``CRD`` for each card (``"As Kd"`` or a list), ``card_interval`` seconds apart."""
        out = []
        for i, card in enumerate(cards.split() if isinstance(cards, str) else cards):
            if i and card_interval:
                await asyncio.sleep(card_interval)
            out.append(await self.send("CRD", card))
        return out

    async def deliver(self, position: str | int, count: int) -> Frame:
        """``STK``: a stack of ``count`` cards dispensed for ``position``."""
        return await self.send("STK", position, count)

    async def deal(self, position: str | int, cards: str | Iterable[str], card_interval: float = 0.0) -> None:
        """Read these cards and dispense them as one stack for ``position``."""
        sent = await self.read_cards(cards, card_interval)
        await self.deliver(position, len(sent))

    async def jam(self, kind: str = "jam", detail: str = "") -> Frame:
        """``jam``, ``stopped`` or ``failed_to_deal`` (§ 639a.13(f))."""
        return await self.fault(kind, detail)


class ShufflerSimulator(SimulatedDevice):
    """An automated card shuffler that counts the deck after each shuffle (§ 639a.5(b))."""

    kind: ClassVar[str] = "shuffler"
    model: ClassVar[str] = "SIM-SHUFFLER"

    async def report_count(self, count: int, expected: int = 52) -> Frame:
        return await self.send("CNT", count, expected)

    async def jam(self, kind: str = "jam", detail: str = "") -> Frame:
        """``jam``, ``stopped`` or ``incomplete`` (§ 639a.13(e))."""
        return await self.fault(kind, detail)


class HoleCardReaderSimulator(SimulatedDevice):
    """A blackjack hole-card reader: says blackjack or not (§ 633a.7(h))."""

    kind: ClassVar[str] = "hole_card_reader"
    model: ClassVar[str] = "SIM-READER"

    async def read(self, blackjack: bool) -> Frame:
        return await self.send("HCR", "BJ" if blackjack else "NO")

    async def fail(self, kind: str = "no_read", detail: str = "") -> Frame:
        return await self.fault(kind, detail)
