"""The serial device driver every table device is built on: port, reconnect, frames, diagnostics.

A :class:`SerialDevice` owns one serial port (opened with pyserial-asyncio-fast's
``open_serial_connection``; the blocking open runs in the default executor) and one :class:`Codec`.
It reads bytes, lets the codec cut them into frames, handles the messages every device shares
(status, test echo, refusal, fault; ``docs/serial-protocols.md``) and hands the others to the
subclass (:mod:`hw.shoe`, :mod:`hw.shuffler`, :mod:`hw.hole_card_reader`), which turns them into
typed events. Events go to the ``on_event`` callback, called on the event loop.

Failure behaviour, so that nothing a device does can stop the daemon:

- a broken or unknown frame, or noise, is counted in :attr:`SerialDevice.stats` and logged (at
  most one warning a second per kind, with the number left unlogged), never raised;
- a sequence number that skips is counted, logged and reported as :class:`FramesLost`;
- a lost port (read error, end of file: the device unplugged) or a port that will not open is
  retried with exponential backoff (:class:`Backoff`: bounded, jittered, configurable);
- no valid frame for ``heartbeat_timeout`` seconds marks the device offline (the port stays
  open, a status request goes out each period) until it speaks again;
- an exception in ``on_event`` is logged and the driver goes on.

The device's state (online / offline / fault) is reported as :class:`DeviceState` events on each
change. ``request_status`` and ``send_test_frame`` serve ``tablectl`` diagnostics; ``sniff``
yields every frame both ways.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Sequence
from typing import ClassVar, Final, Self

import serial  # type: ignore[import-untyped]  # pyserial ships no types; types-pyserial is not a dependency
import serial_asyncio_fast

from .device_events import (
    FAULT,
    OFFLINE,
    ONLINE,
    STATUS_FAULT,
    STATUS_READY,
    DeviceEvent,
    DeviceFault,
    DeviceState,
    DeviceStatus,
    EventCallback,
    FramesLost,
)
from .frame_sniffer import FrameSniffer, SniffedFrame
from .serial_config import SerialDeviceConfig
from .serial_protocol import (
    SEQ_MODULUS,
    BrokenFrame,
    Codec,
    Decoder,
    Frame,
    FrameError,
    codec_named,
    expect_fields,
    parse_number,
    parse_seq,
    printable,
)
from .serial_stats import RateLimitedWarnings, SerialStats

_LOGGER: Final = logging.getLogger(__name__)


#: Host tags run 1..65535; tag 0 means "nobody waits for the answer" (heartbeats, the status
#: request sent on connect).
MAX_TAG: Final = 65535
READ_SIZE: Final = 4096


# -- errors, counters, sniff --------------------------------------------------------------------------


class DeviceError(Exception):
    """A diagnostic request that did not succeed; the message names the device."""


class DeviceOffline(DeviceError):
    """The port is not open."""


class DeviceTimeout(DeviceError):
    """No answer in time."""


class DeviceRefused(DeviceError):
    """The device answered ``NAK``."""


# -- the driver ---------------------------------------------------------------------------------------


class SerialDevice:
    """Base of the serial device drivers; a subclass sets ``kind`` and ``FAULT_KINDS`` and
    implements :meth:`_interpret` for its own messages.

    Use::

        shoe = DealingShoe(SerialDeviceConfig(port="/dev/table-shoe"), on_event=queue.put_nowait)
        await shoe.start()
        ...
        await shoe.stop()
    """

    kind: ClassVar[str] = "device"
    #: The fault kinds this device's ``FLT`` frames name; another kind is still reported (a fault
    #: is never dropped) with a warning.
    FAULT_KINDS: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self,
        config: SerialDeviceConfig,
        on_event: EventCallback,
        *,
        name: str | None = None,
        codec: Codec | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.config = config
        self.name = name or self.kind
        self.codec = codec if codec is not None else codec_named(config.protocol)
        self.stats = SerialStats()
        self._on_event = on_event
        self._backoff = config.backoff
        self._rng = rng or random.Random()
        self._warnings = RateLimitedWarnings()
        self._task: asyncio.Task[None] | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._decoder: Decoder | None = None
        self._linked = False
        self._fault: str | None = None
        self._state = OFFLINE
        self._state_changed = asyncio.Event()
        self._last_seq: int | None = None
        self._last_valid = 0.0
        self._tag = 0
        self._pending: dict[int, tuple[str, asyncio.Future[DeviceStatus | str]]] = {}
        self._sniffers: set[asyncio.Queue[SniffedFrame]] = set()
        self.last_status: DeviceStatus | None = None

    # -- life cycle --

    @property
    def state(self) -> str:
        """``online``, ``offline`` or ``fault``."""
        return self._state

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(self) -> None:
        """Start connecting in the background; returns at once (the port may be absent)."""
        if self.running:
            return
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"serial {self.name}")

    async def stop(self) -> None:
        """Close the port and stop retrying."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._linked = False
        self._set_state("driver stopped")

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def wait_for_state(self, state: str, timeout: float) -> None:
        """Until the device is in ``state``; ``DeviceTimeout`` after ``timeout`` seconds."""
        try:
            async with asyncio.timeout(timeout):
                while self._state != state:
                    await self._state_changed.wait()
        except TimeoutError:
            raise DeviceTimeout(f"{self.name}: still {self._state} after {timeout} s, not {state}") from None

    # -- diagnostics (tablectl) --

    async def request_status(self, timeout: float | None = None) -> DeviceStatus:
        """Ask the device for its status (``REQ``) and wait for the ``STS`` answer."""
        result = await self._request("STS", Frame("REQ", (str(self._next_tag()),)), timeout)
        assert isinstance(result, DeviceStatus)
        return result

    async def send_test_frame(self, payload: str = "TEST", timeout: float | None = None) -> float:
        """Send a test frame (``TST``) and wait for the device's echo; returns the round trip in
        seconds. ``DeviceError`` if the echo differs, ``DeviceTimeout`` without one."""
        frame = Frame("TST", (str(self._next_tag()), payload))
        started = time.perf_counter()
        echoed = await self._request("TST", frame, timeout)
        if echoed != payload:
            raise DeviceError(f"{self.name}: test frame echoed {echoed!r}, sent {payload!r}")
        return time.perf_counter() - started

    def sniff(self, maxsize: int = 1000) -> FrameSniffer:
        """Every frame both ways, valid or broken, from this call on (not from the first ``anext``).
        A slow reader loses frames (counted in ``stats.sniff_dropped``), never the driver::

            async with shoe.sniff() as frames:
                async for sniffed in frames:
                    print(sniffed)
        """
        return FrameSniffer(self._sniffers, maxsize)

    # -- subclass hooks --

    def _interpret(self, frame: Frame, seq: int) -> Sequence[DeviceEvent]:
        """The events of one of this device's own frames; ``FrameError`` (``unknown_type`` or
        ``bad_field``) if it is not one. Validate every field before changing any state."""
        raise FrameError("unknown_type", f"{self.kind} does not send {frame.type}")

    def _on_frames_lost(self, expected: int, got: int) -> None:
        """The sequence skipped from ``expected`` to ``got``: frames were lost before this one, or
        the device restarted (``got`` 0)."""

    def _withhold(self, broken: BrokenFrame) -> BrokenFrame:
        """A refused frame as logs and sniff may show it; a device whose frames must not be shown
        (the hole-card reader) hides the bytes and the detail."""
        return broken

    # -- the connection loop --

    async def _run(self) -> None:
        attempt = 0
        while True:
            try:
                reader, writer = await serial_asyncio_fast.open_serial_connection(
                    url=self.config.port, baudrate=self.config.baudrate
                )
            except (serial.SerialException, OSError, ValueError) as exc:
                self.stats.open_failures += 1
                reason = f"cannot open {self.config.port}: {exc}"
            else:
                self.stats.connects += 1
                _LOGGER.info("%s: port %s open", self.name, self.config.port)
                try:
                    reason, healthy = await self._serve(reader, writer)
                except Exception as exc:
                    # A bug of ours must not end the driver for good: log it, reopen the port.
                    _LOGGER.exception("%s: driver error; reopening the port", self.name)
                    reason, healthy = f"driver error: {exc!r}", False
                finally:
                    await self._close(writer)
                self.stats.disconnects += 1
                if healthy:
                    attempt = 0
            self._linked = False
            self._set_state(reason)
            delay = self._backoff.delay(attempt, self._rng)
            attempt += 1
            self._warnings.warn(f"offline:{self.name}", f"{self.name}: {reason}; retrying in {delay:.2f} s")
            await asyncio.sleep(delay)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> tuple[str, bool]:
        """Read until the port is lost; returns why, and whether the device spoke at all."""
        loop = asyncio.get_running_loop()
        self._writer = writer
        # The sequence check carries over reconnects: frames lost while away show as a gap.
        self._decoder = self.codec.new_decoder()
        heartbeat = self.config.heartbeat_timeout
        self._last_valid = loop.time()
        frames_before = self.stats.frames_in
        self._send_quietly(Frame("REQ", ("0",)))
        while True:
            try:
                async with asyncio.timeout_at(self._last_valid + heartbeat):
                    data = await reader.read(READ_SIZE)
            except TimeoutError:
                self.stats.silences += 1
                if self._linked:
                    self._linked = False
                    self._set_state(f"silent for {heartbeat:g} s")
                self._last_valid = loop.time()
                self._send_quietly(Frame("REQ", ("0",)))
                continue
            except (serial.SerialException, OSError) as exc:
                return f"port lost: {exc}", self.stats.frames_in > frames_before
            if not data:
                return "port closed", self.stats.frames_in > frames_before
            self._receive(data)

    async def _close(self, writer: asyncio.StreamWriter) -> None:
        self._writer = None
        self._decoder = None
        for _, future in self._pending.values():
            if not future.done():
                future.set_exception(DeviceOffline(f"{self.name}: the port closed before the answer"))
        writer.close()
        # The transport closes the port in an executor; wait so the next open finds it closed.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer.wait_closed(), 2.0)

    # -- receiving --

    def _receive(self, data: bytes) -> None:
        decoder = self._decoder
        assert decoder is not None
        self.stats.bytes_in += len(data)
        noise_before = decoder.noise_bytes
        items = decoder.feed(data)
        noise = decoder.noise_bytes - noise_before
        if noise:
            self.stats.noise_bytes += noise
            self._warnings.warn(f"noise:{self.name}", f"{self.name}: {noise} bytes of noise between frames")
        for item in items:
            if isinstance(item, BrokenFrame):
                self._broken(item)
                continue
            try:
                self._handle(item)
            except FrameError as exc:
                self._broken(BrokenFrame(exc.reason, str(exc), self.codec.encode(item)))
                continue
            if self._sniffers:
                self._publish(SniffedFrame("in", item, None, self.codec.encode(item), time.time()))

    def _broken(self, item: BrokenFrame) -> None:
        # No _on_frames_lost here: noise is not a lost device frame; a lost one shows as a gap.
        self.stats.broken[item.reason] += 1
        shown = self._withhold(item)
        if self._sniffers:
            self._publish(SniffedFrame("in", None, shown, shown.raw, time.time()))
        self._warnings.warn(
            f"{item.reason}:{self.name}",
            f"{self.name}: broken frame ({shown.reason}: {shown.detail}): {printable(shown.raw)}",
        )

    def _handle(self, frame: Frame) -> None:
        """One valid frame: its sequence first (so a device sees a gap before the frame after
        it), then its events, then the state it leaves the device in."""
        if not frame.fields:
            raise FrameError("bad_field", f"{frame.type} without a sequence number")
        seq = parse_seq(frame.fields[0])
        expected = None if self._last_seq is None else (self._last_seq + 1) % SEQ_MODULUS
        self._last_seq = seq
        if expected is not None and seq != expected:
            self.stats.sequence_gaps += 1
            self._on_frames_lost(expected, seq)
            self._warnings.warn(
                f"gap:{self.name}",
                f"{self.name}: sequence {seq} where {expected} was due: frames lost or the device restarted",
            )
            self._emit(FramesLost(self.name, expected, seq))
        reason = "device answering"
        events: Sequence[DeviceEvent] = ()
        if frame.type == "STS":
            reason = self._status(frame, seq)
        elif frame.type == "TST":
            expect_fields(frame, ("seq", "tag", "payload"))
            self._answer(frame, parse_number(frame.fields[1], "tag", 0, MAX_TAG), frame.fields[2])
        elif frame.type == "NAK":
            expect_fields(frame, ("seq", "tag", "reason"))
            self._refused(parse_number(frame.fields[1], "tag", 0, MAX_TAG), frame.fields[2])
        elif frame.type == "FLT":
            fault = self._device_fault(frame, seq)
            events = (fault,)
            reason = f"{fault.kind}: {fault.detail}" if fault.detail else fault.kind
        else:
            events = self._interpret(frame, seq)
        self.stats.frames_in += 1
        self._last_valid = asyncio.get_running_loop().time()
        for event in events:
            self._emit(event)
        self._linked = True
        self._set_state(reason)

    def _status(self, frame: Frame, seq: int) -> str:
        expect_fields(frame, ("seq", "tag", "state", "model", "firmware"))
        tag = parse_number(frame.fields[1], "tag", 0, MAX_TAG)
        state = frame.fields[2]
        if state not in (STATUS_READY, STATUS_FAULT):
            raise FrameError("bad_field", f"status {state!r} is not {STATUS_READY} or {STATUS_FAULT}")
        status = DeviceStatus(self.name, state, frame.fields[3], frame.fields[4], seq, tag)
        self.last_status = status
        if state == STATUS_READY:
            self._fault = None
        elif self._fault is None:
            self._fault = "status fault"
        self._answer(frame, tag, status)
        return f"device reports {state}"

    def _device_fault(self, frame: Frame, seq: int) -> DeviceFault:
        expect_fields(frame, ("seq", "kind", "detail"))
        kind, detail = frame.fields[1], frame.fields[2]
        if not kind or not kind.replace("_", "").isalpha() or not kind.islower():
            raise FrameError("bad_field", f"fault kind {kind!r}: lower-case letters and '_'")
        # Rate-limited (once a second a kind, with the count left out): a fault storm, hundreds a
        # second, must not flood the log; the daemon coalesces the events (controller/table/bridge.py).
        if kind not in self.FAULT_KINDS:
            self._warnings.warn(
                f"fault-kind:{self.name}:{kind}",
                f"{self.name}: fault of a kind not in its protocol: {kind!r} (reported all the same)",
            )
        self._warnings.warn(f"fault:{self.name}:{kind}", f"{self.name}: fault {kind} {detail}")
        self._fault = kind
        return DeviceFault(self.name, kind, detail, seq)

    # -- requests --

    def _next_tag(self) -> int:
        self._tag = self._tag % MAX_TAG + 1
        return self._tag

    async def _request(self, answer_type: str, frame: Frame, timeout: float | None) -> DeviceStatus | str:
        wait = self.config.request_timeout if timeout is None else timeout
        tag = int(frame.fields[0])
        future: asyncio.Future[DeviceStatus | str] = asyncio.get_running_loop().create_future()
        self._pending[tag] = (answer_type, future)
        try:
            self._send(frame)
            return await asyncio.wait_for(future, wait)
        except TimeoutError:
            raise DeviceTimeout(f"{self.name}: no answer to {frame.type} in {wait:g} s") from None
        finally:
            self._pending.pop(tag, None)

    def _answer(self, frame: Frame, tag: int, value: DeviceStatus | str) -> None:
        pending = self._pending.get(tag) if tag else None
        if pending is None:
            return
        answer_type, future = pending
        if answer_type != frame.type:
            _LOGGER.warning(
                "%s: answered tag %d with %s, expected %s", self.name, tag, frame.type, answer_type
            )
        elif not future.done():
            future.set_result(value)

    def _refused(self, tag: int, reason: str) -> None:
        pending = self._pending.get(tag) if tag else None
        if pending is None:
            self._warnings.warn(f"nak:{self.name}", f"{self.name}: device refused a frame: {reason}")
        elif not pending[1].done():
            pending[1].set_exception(DeviceRefused(f"{self.name}: device refused the frame: {reason}"))

    # -- sending, events, sniff --

    def _send(self, frame: Frame) -> None:
        writer = self._writer
        if writer is None or writer.is_closing():
            raise DeviceOffline(f"{self.name}: port {self.config.port} is not open")
        raw = self.codec.encode(frame)
        writer.write(raw)
        self.stats.frames_out += 1
        if self._sniffers:
            self._publish(SniffedFrame("out", frame, None, raw, time.time()))

    def _send_quietly(self, frame: Frame) -> None:
        try:
            self._send(frame)
        except (DeviceOffline, serial.SerialException, OSError) as exc:
            _LOGGER.debug("%s: could not send %s: %s", self.name, frame.type, exc)

    def _publish(self, item: SniffedFrame) -> None:
        for queue in self._sniffers:
            try:
                queue.put_nowait(item)
            except asyncio.QueueFull:
                self.stats.sniff_dropped += 1

    def _set_state(self, reason: str) -> None:
        new = OFFLINE if not self._linked else FAULT if self._fault is not None else ONLINE
        if new == self._state:
            return
        self._state = new
        _LOGGER.info("%s: %s (%s)", self.name, new, reason)
        self._state_changed.set()
        self._state_changed = asyncio.Event()
        self._emit(DeviceState(self.name, new, reason))

    def _emit(self, event: DeviceEvent) -> None:
        try:
            self._on_event(event)
        except Exception:
            _LOGGER.exception("%s: the event handler failed on %r", self.name, event)
