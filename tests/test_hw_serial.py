"""The serial devices over real pseudo-terminals: shoe, shuffler, hole-card reader.

The drivers (``hw/``) open the slave side of a pty through pyserial-asyncio-fast, exactly as they
open a USB serial port; the simulators (``sim/devices.py``) speak the protocol on the master side.
Nothing of our own is mocked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hw.device_events import FAULT, OFFLINE, ONLINE, DeviceEvent, DeviceFault, DeviceState, FramesLost
from hw.frame_sniffer import SniffedFrame
from hw.hole_card_reader import HoleCardReader, HoleCardReading
from hw.serial_config import Backoff, SerialDeviceConfig
from hw.serial_device import DeviceError, DeviceOffline, DeviceRefused, DeviceTimeout, SerialDevice
from hw.serial_protocol import (
    MAX_FRAME_BODY,
    TABLE_V1,
    BrokenFrame,
    Frame,
    TableV1Decoder,
    codec_named,
    crc16_ccitt,
    encode_frame,
    parse_body,
    register_codec,
)
from hw.shoe import SHOE_FAULT_KINDS, CardRead, DealingShoe, StackDelivered
from hw.shuffler import Shuffler, ShufflerCount
from sim.devices import (
    HoleCardReaderSimulator,
    ShoeSimulator,
    ShufflerSimulator,
    SimulatedDevice,
)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "serial-protocols.md"
CARDS = [r + s for r in "23456789TJQKA" for s in "cdhs"]
E = TypeVar("E", bound=DeviceEvent)


# -- helpers -----------------------------------------------------------------------------------------


def config(port: str, **overrides: float | str) -> SerialDeviceConfig:
    """Quick reconnects and timeouts for tests; the defaults are for a table."""
    values: dict[str, float | str] = {
        "reconnect_initial": 0.02,
        "reconnect_max": 0.2,
        "heartbeat_timeout": 2.0,
        "request_timeout": 1.0,
    }
    values.update(overrides)
    return SerialDeviceConfig(port=port, **values)  # type: ignore[arg-type]


class EventLog:
    """The driver's ``on_event``: keeps every event; :meth:`take` hands out the next ones of a kind
    without dropping the others."""

    def __init__(self) -> None:
        self.events: list[DeviceEvent] = []
        self._taken: dict[type[DeviceEvent], int] = {}
        self._changed = asyncio.Event()

    def __call__(self, event: DeviceEvent) -> None:
        self.events.append(event)
        self._changed.set()

    def of(self, kind: type[E]) -> list[E]:
        return [e for e in self.events if isinstance(e, kind)]

    async def take(self, kind: type[E], n: int = 1, timeout: float = 2.0) -> list[E]:
        start = self._taken.get(kind, 0)
        async with asyncio.timeout(timeout):
            while len(self.of(kind)) < start + n:
                self._changed.clear()
                await self._changed.wait()
        self._taken[kind] = start + n
        return self.of(kind)[start : start + n]


@contextlib.asynccontextmanager
async def rig(
    sim: SimulatedDevice,
    driver_class: type[SerialDevice],
    **overrides: float | str,
) -> AsyncIterator[tuple[SerialDevice, EventLog]]:
    """The simulator on its pty and the driver on the other end, online."""
    log = EventLog()
    async with sim:
        driver = driver_class(config(sim.path, **overrides), log, codec=sim.codec)
        async with driver:
            await driver.wait_for_state(ONLINE, 2.0)
            await log.take(DeviceState)  # online
            yield driver, log


# -- the wire format (no I/O) ------------------------------------------------------------------------


def test_crc_is_ccitt_false() -> None:
    # CRC-16/CCITT-FALSE check value (poly 0x1021, init 0xFFFF).
    assert crc16_ccitt(b"123456789") == 0x29B1


def test_frame_round_trip_and_exact_bytes() -> None:
    frame = Frame("CRD", ("17", "As"))
    raw = encode_frame(frame)
    assert raw == b"\x02CRD|17|As*7A63\x03\n"
    assert TableV1Decoder().feed(raw) == [frame]
    # A sender writes upper-case hex; a receiver accepts either.
    assert parse_body(b"CRD|17|As*7a63") == frame


@pytest.mark.parametrize(
    ("fields", "message"),
    [(("a|b",), "without"), (("a*b",), "without"), (("caf\u00e9",), "printable"), (("\x01",), "printable")],
)
def test_frame_refuses_fields_that_would_break_framing(fields: tuple[str, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Frame("CRD", fields)
    with pytest.raises(ValueError, match="three capital letters"):
        Frame("crd")


def test_every_example_in_the_docs_has_a_valid_checksum() -> None:
    text = DOCS.read_text(encoding="utf-8")
    examples = re.findall(r"<STX>([A-Z]{3}\|[^<\n]*)<ETX>", text)
    assert len(examples) >= 20, "the protocol document shows every message with an example"
    types = set()
    for body in examples:
        frame = parse_body(body.encode("ascii"))
        types.add(frame.type)
    assert types >= {"REQ", "TST", "STS", "NAK", "FLT", "CRD", "STK", "CNT", "HCR"}


@pytest.mark.parametrize(
    ("wire", "reason"),
    [
        (b"\x02CRD|17|As*7A64\x03", "bad_checksum"),
        (b"\x02CRD|17|As\x03", "malformed"),
        (b"\x02CRD|17|As*7A6\x03", "malformed"),
        (b"\x02crd|17|As*" + b"%04X" % crc16_ccitt(b"crd|17|As") + b"\x03", "malformed"),
        (b"\x02CRD|17|A\xffs*" + b"%04X" % crc16_ccitt(b"CRD|17|A\xffs") + b"\x03", "malformed"),
        (b"\x02CRD|17|As*7A\x02", "truncated"),
        (b"\x02" + b"x" * (MAX_FRAME_BODY + 1) + b"\x03", "too_long"),
    ],
)
def test_decoder_names_why_a_frame_is_broken(wire: bytes, reason: str) -> None:
    decoder = TableV1Decoder()
    items = decoder.feed(wire) + decoder.feed(encode_frame(Frame("CRD", ("18", "Kd"))))
    assert isinstance(items[0], BrokenFrame) and items[0].reason == reason
    # Whatever came before, the next frame gets through.
    assert items[-1] == Frame("CRD", ("18", "Kd"))


def test_decoder_counts_noise_but_not_line_ends() -> None:
    decoder = TableV1Decoder()
    decoder.feed(b"\r\n \t" + encode_frame(Frame("REQ", ("1",))) + b"\r\n")
    assert decoder.noise_bytes == 0
    decoder.feed(b"hello\x03")
    assert decoder.noise_bytes == 6


def test_codec_registry_suggests_a_name() -> None:
    assert codec_named(TABLE_V1).name == TABLE_V1
    with pytest.raises(KeyError, match="did you mean 'table-v1'"):
        codec_named("table_v1")


@settings(max_examples=300)
@given(
    st.lists(st.tuples(st.binary(max_size=60), st.sampled_from(CARDS)), min_size=1, max_size=10),
    st.binary(max_size=60),
    st.lists(st.integers(1, 50), max_size=20),
)
def test_decoder_resynchronises_whatever_the_garbage_and_the_chunking(
    pairs: list[tuple[bytes, str]], tail: bytes, cuts: list[int]
) -> None:
    """Garbage between frames never hides a valid frame, however the bytes are split into reads."""
    wire = (
        b"".join(g + encode_frame(Frame("CRD", (str(i), card))) for i, (g, card) in enumerate(pairs)) + tail
    )
    decoder = TableV1Decoder()
    items: list[Frame | BrokenFrame] = []
    at = 0
    for cut in [*cuts, len(wire)]:
        items += decoder.feed(wire[at : at + cut])
        at += cut
    items += decoder.feed(wire[at:])
    frames = [item for item in items if isinstance(item, Frame) and item.type == "CRD"]
    expected = [Frame("CRD", (str(i), card)) for i, (_, card) in enumerate(pairs)]
    # A subsequence check: random garbage could, in principle, hold a valid frame of its own.
    it = iter(frames)
    assert all(any(f == want for f in it) for want in expected)


def test_backoff_grows_to_its_bound_with_jitter() -> None:
    backoff = Backoff(initial=0.1, maximum=2.0, factor=2.0, jitter=0.25)
    rng = random.Random(5)
    for attempt in range(12):
        base = min(2.0, 0.1 * 2**attempt)
        for _ in range(50):
            assert 0.75 * base <= backoff.delay(attempt, rng) <= base
    assert backoff.delay(10_000, rng) <= 2.0  # no overflow on a device gone for days
    assert Backoff(jitter=0.0).delay(3, rng) == pytest.approx(0.8)


def test_config_lists_every_problem_at_once() -> None:
    problems = SerialDeviceConfig(
        port="",
        baudrate=12345,
        protocol="tabel-v1",
        reconnect_initial=10.0,
        reconnect_max=1.0,
        reconnect_jitter=1.5,
        heartbeat_timeout=0,
        request_timeout=-1,
    ).problems("serial.shoe")
    assert len(problems) == 7
    assert all(p.startswith("[serial.shoe] ") for p in problems)
    assert any("did you mean 'table-v1'" in p for p in problems)
    assert SerialDeviceConfig(port="/dev/table-shoe").problems("serial.shoe") == []


# -- the devices over real ptys ----------------------------------------------------------------------


@pytest.mark.asyncio
async def test_shoe_cards_and_stacks_end_to_end(tmp_path: Path) -> None:
    simulator = ShoeSimulator(tmp_path / "shoe")
    async with rig(simulator, DealingShoe) as (shoe, log):
        await simulator.deal(1, "As Kd 5c 7h 9s")
        await simulator.deal("dealer", "2c 3c 4c 5d JKR")
        reads = await log.take(CardRead, 10)
        stacks = await log.take(StackDelivered, 2)
    assert [r.card for r in reads] == ["As", "Kd", "5c", "7h", "9s", "2c", "3c", "4c", "5d", "JKR"]
    assert [r.seq for r in reads] == sorted(r.seq for r in reads)
    assert stacks[0].position == "1" and stacks[0].cards == ("As", "Kd", "5c", "7h", "9s")
    assert stacks[1].position == "dealer" and stacks[1].count == 5
    assert all(s.complete for s in stacks)
    assert shoe.stats.broken_total == 0 and shoe.stats.sequence_gaps == 0


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", SHOE_FAULT_KINDS)
async def test_shoe_jam_is_a_fault_until_cleared(tmp_path: Path, kind: str) -> None:
    simulator = ShoeSimulator(tmp_path / "shoe")
    async with rig(simulator, DealingShoe) as (shoe, log):
        await simulator.read_cards("As Kd")
        await simulator.jam(kind, "card stuck at the exit")
        (fault,) = await log.take(DeviceFault)
        (state,) = await log.take(DeviceState)
        assert (fault.device, fault.kind, fault.detail) == ("shoe", kind, "card stuck at the exit")
        assert state.state == FAULT and shoe.state == FAULT
        # The status answer says fault too, until the dealer clears the shoe.
        assert (await shoe.request_status()).state == "fault"
        await simulator.clear()
        await shoe.wait_for_state(ONLINE, 1.0)
        assert (await shoe.request_status()).state == "ready"


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("count", "expected", "all_present"), [(52, 52, True), (51, 52, False), (53, 53, True)]
)
async def test_shuffler_card_count(tmp_path: Path, count: int, expected: int, all_present: bool) -> None:
    simulator = ShufflerSimulator(tmp_path / "shuffler")
    async with rig(simulator, Shuffler) as (_, log):
        await simulator.report_count(count, expected)
        (event,) = await log.take(ShufflerCount)
    assert (event.device, event.count, event.expected, event.all_present) == (
        "shuffler",
        count,
        expected,
        all_present,
    )


@pytest.mark.asyncio
async def test_shuffler_jam(tmp_path: Path) -> None:
    simulator = ShufflerSimulator(tmp_path / "shuffler")
    async with rig(simulator, Shuffler) as (_, log):
        await simulator.jam("incomplete", "cycle aborted")
        (fault,) = await log.take(DeviceFault)
    assert (fault.device, fault.kind) == ("shuffler", "incomplete")


@pytest.mark.asyncio
async def test_hole_card_reader_says_blackjack_or_not(tmp_path: Path) -> None:
    simulator = HoleCardReaderSimulator(tmp_path / "reader")
    async with rig(simulator, HoleCardReader) as (_, log):
        await simulator.read(blackjack=True)
        await simulator.read(blackjack=False)
        first, second = await log.take(HoleCardReading, 2)
    assert (first.blackjack, first.result) == (True, "blackjack")
    assert (second.blackjack, second.result) == (False, "no_blackjack")
    assert not hasattr(first, "card")


@pytest.mark.asyncio
async def test_hole_card_reader_never_shows_the_card(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """§ 633a.7(h): a frame that carries more than the answer is refused, and its bytes are
    withheld from the logs and from sniff (they could be the card)."""
    caplog.set_level(logging.DEBUG)
    simulator = HoleCardReaderSimulator(tmp_path / "reader")
    async with (
        rig(simulator, HoleCardReader) as (reader, log),
        reader.sniff() as sniffed,
    ):
        await simulator.send("HCR", "BJ", "Qh")
        await simulator.send("HCR", "Qh")
        await simulator.send_corrupted("HCR", "Qh")
        await simulator.read(blackjack=False)
        (reading,) = await log.take(HoleCardReading)
        seen: list[SniffedFrame] = []
        while not any(s.frame is not None and s.frame.type == "HCR" for s in seen):
            seen.append(await asyncio.wait_for(anext(sniffed), 1.0))
    assert reading.result == "no_blackjack"
    assert reader.stats.broken["bad_field"] == 2 and reader.stats.broken["bad_checksum"] == 1
    assert not any("Qh" in record.getMessage() for record in caplog.records)
    assert not any(b"Qh" in s.raw or "Qh" in str(s) for s in seen)
    assert sum(1 for s in seen if s.broken is not None) == 3


@pytest.mark.asyncio
async def test_broken_frame_is_counted_and_logged_not_fatal(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    simulator = ShoeSimulator(tmp_path / "shoe")
    async with rig(simulator, DealingShoe) as (shoe, log):
        await simulator.read_cards("As Kd")
        await simulator.send_corrupted("CRD", "5c")
        await simulator.read_cards("7h 9s")
        await simulator.deliver(1, 5)
        reads = await log.take(CardRead, 4)
        (stack,) = await log.take(StackDelivered)
        lost = log.of(FramesLost)
        assert shoe.state == ONLINE
    assert [r.card for r in reads] == ["As", "Kd", "7h", "9s"]
    assert shoe.stats.broken["bad_checksum"] == 1
    assert shoe.stats.sequence_gaps == 1
    # The stack is reported with the four cards read, and flagged: the dealer keys the fifth.
    assert stack.cards == ("As", "Kd", "7h", "9s") and stack.count == 5 and not stack.complete
    assert "bad_checksum" in caplog.text and "sequence" in caplog.text
    assert len(lost) == 1 and lost[0].expected + 1 == lost[0].got


@pytest.mark.asyncio
async def test_unknown_and_bad_frames_are_counted(tmp_path: Path) -> None:
    simulator = ShufflerSimulator(tmp_path / "shuffler")
    async with rig(simulator, Shuffler) as (shuffler, log):
        await simulator.send("CRD", "As")  # a shoe's message on the shuffler's port
        await simulator.send("CNT", "fifty-two", 52)
        await simulator.send("CNT", 52)
        await simulator.send_garbage(b"\x02\x02\x03junk\x03")
        await simulator.report_count(52)
        (count,) = await log.take(ShufflerCount)
    assert count.count == 52
    assert shuffler.stats.broken["unknown_type"] == 1
    assert shuffler.stats.broken["bad_field"] == 2
    assert shuffler.stats.broken["truncated"] == 1 and shuffler.stats.broken["malformed"] == 1
    assert shuffler.stats.noise_bytes == 5


def test_garbage_over_the_pty_never_stops_the_driver(tmp_path: Path) -> None:
    """Arbitrary bytes between valid frames, over a real pty: the driver stays up and every valid
    frame still arrives, in order."""
    loop = asyncio.new_event_loop()
    queue: asyncio.Queue[DeviceEvent] = asyncio.Queue()
    simulator = ShoeSimulator(tmp_path / "shoe", heartbeat_interval=None)
    shoe = DealingShoe(config(simulator.path, heartbeat_timeout=60.0), queue.put_nowait)

    async def setup() -> None:
        await simulator.start()
        await shoe.start()
        await shoe.wait_for_state(ONLINE, 2.0)

    async def one(pairs: list[tuple[bytes, str]], tail: bytes) -> None:
        sent: list[tuple[int, str]] = []
        for garbage, card in pairs:
            await simulator.send_raw(garbage)
            frame = await simulator.send("CRD", card)
            sent.append((int(frame.fields[0]), card))
        await simulator.send_raw(tail)
        last_seq = sent[-1][0]
        got: list[tuple[int, str]] = []
        async with asyncio.timeout(3.0):
            while not got or got[-1][0] != last_seq:
                event = await queue.get()
                if isinstance(event, CardRead):
                    got.append((event.seq, event.card))
        assert [g for g in got if g in sent] == sent
        assert shoe.running and shoe.state == ONLINE

    loop.run_until_complete(setup())
    try:

        @settings(
            max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
        )
        @given(
            st.lists(st.tuples(st.binary(max_size=120), st.sampled_from(CARDS)), min_size=1, max_size=8),
            st.binary(max_size=120),
        )
        def check(pairs: list[tuple[bytes, str]], tail: bytes) -> None:
            examples.append(len(pairs))
            loop.run_until_complete(one(pairs, tail))

        examples: list[int] = []
        check()
        assert len(examples) >= 100 and shoe.stats.frames_in >= sum(examples)
        assert shoe.stats.noise_bytes > 0 and shoe.stats.connects == 1
    finally:
        loop.run_until_complete(shoe.stop())
        loop.run_until_complete(simulator.stop())
        loop.close()


@pytest.mark.asyncio
async def test_unplugged_device_reconnects_with_backoff(tmp_path: Path) -> None:
    simulator = ShoeSimulator(tmp_path / "shoe")
    async with rig(
        simulator, DealingShoe, reconnect_initial=0.02, reconnect_max=0.16, reconnect_jitter=0.5
    ) as (
        shoe,
        log,
    ):
        await simulator.go_away()
        (offline,) = await log.take(DeviceState)
        assert offline.state == OFFLINE and "port lost" in offline.reason
        failures_before = shoe.stats.open_failures
        await asyncio.sleep(0.6)
        failures = shoe.stats.open_failures - failures_before
        # Delays 0.02, 0.04, 0.08, then 0.16 each (less up to half): a handful of tries, not a spin.
        assert 3 <= failures <= 16, failures
        await simulator.come_back()
        (online,) = await log.take(DeviceState, timeout=5.0)
        assert online.state == ONLINE
        await simulator.deal(3, "Tc Jc")
        (stack,) = await log.take(StackDelivered)
    assert stack.cards == ("Tc", "Jc") and stack.complete  # a restart between stacks loses nothing
    assert shoe.stats.connects == 2 and shoe.stats.disconnects == 1


@pytest.mark.asyncio
async def test_driver_started_before_the_device_waits_for_it(tmp_path: Path) -> None:
    log = EventLog()
    simulator = ShufflerSimulator(tmp_path / "shuffler")
    async with Shuffler(config(simulator.path), log) as shuffler:
        await asyncio.sleep(0.1)
        assert shuffler.state == OFFLINE and shuffler.stats.open_failures >= 2
        with pytest.raises(DeviceOffline):
            await shuffler.request_status()
        async with simulator:
            await shuffler.wait_for_state(ONLINE, 1.0)
            await simulator.report_count(52)
            (count,) = await log.take(ShufflerCount)
    assert count.all_present


@pytest.mark.asyncio
async def test_silent_device_goes_offline_and_comes_back(tmp_path: Path) -> None:
    simulator = ShoeSimulator(tmp_path / "shoe", heartbeat_interval=0.05)
    async with rig(simulator, DealingShoe, heartbeat_timeout=0.25) as (shoe, log):
        simulator.muted = True
        (state,) = await log.take(DeviceState)
        assert state.state == OFFLINE and "silent" in state.reason
        simulator.muted = False
        (state,) = await log.take(DeviceState)
        assert state.state == ONLINE
    assert shoe.stats.silences >= 1 and shoe.stats.connects == 1  # the port stayed open


@pytest.mark.asyncio
async def test_status_request_and_test_frame(tmp_path: Path) -> None:
    simulator = ShoeSimulator(tmp_path / "shoe")
    async with rig(simulator, DealingShoe, request_timeout=0.2) as (shoe, _):
        status = await shoe.request_status()
        assert (status.state, status.model, status.firmware) == ("ready", "SIM-SHOE", "1.0")
        assert status.tag != 0
        round_trip = await shoe.send_test_frame("PING 1")
        assert 0 < round_trip < 0.5
        assert (await simulator.wait_received("TST")).fields[1] == "PING 1"
        simulator.answers = False
        with pytest.raises(DeviceTimeout, match="shoe: no answer to REQ"):
            await shoe.request_status()
        # A device that refuses: NAK with the request's tag.
        mark = len(simulator.received)
        pending = asyncio.ensure_future(shoe.send_test_frame("X", timeout=2.0))
        request = await simulator.wait_received("TST", since=mark)
        assert request.fields[1] == "X"
        await simulator.send("NAK", request.fields[0], "busy")
        with pytest.raises(DeviceRefused, match="busy"):
            await pending
    with pytest.raises(DeviceError):
        await shoe.send_test_frame()


@pytest.mark.asyncio
async def test_sniff_shows_frames_both_ways(tmp_path: Path) -> None:
    simulator = ShoeSimulator(tmp_path / "shoe", heartbeat_interval=None)
    async with rig(simulator, DealingShoe) as (shoe, log), shoe.sniff() as sniffed:
        await simulator.read_cards("As")
        await simulator.send_corrupted("CRD", "Kd")
        await log.take(CardRead)
        await shoe.send_test_frame("HI")
        seen = [await asyncio.wait_for(anext(sniffed), 1.0) for _ in range(4)]
    # Each direction in order; the two directions may interleave.
    incoming = [str(s) for s in seen if s.direction == "in"]
    outgoing = [s for s in seen if s.direction == "out"]
    assert incoming[0].startswith("<- CRD|") and incoming[0].endswith("|As")
    assert incoming[1].startswith("<- BROKEN bad_checksum: \\x02BRD|")
    assert incoming[2].startswith("<- TST|") and incoming[2].endswith("|HI")
    assert len(outgoing) == 1 and outgoing[0].frame is not None and outgoing[0].frame.type == "TST"
    assert outgoing[0].raw.startswith(b"\x02TST|")


@pytest.mark.asyncio
async def test_a_failing_event_handler_does_not_stop_the_driver(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    log = EventLog()

    def handler(event: DeviceEvent) -> None:
        if isinstance(event, CardRead) and event.card == "As":
            raise RuntimeError("the daemon's handler broke")
        log(event)

    simulator = ShoeSimulator(tmp_path / "shoe")
    async with simulator, DealingShoe(config(simulator.path), handler) as shoe:
        await shoe.wait_for_state(ONLINE, 2.0)
        await simulator.read_cards("As Kd")
        (read,) = await log.take(CardRead)
    assert read.card == "Kd"
    assert "the event handler failed" in caplog.text


# -- a second protocol plugs in ----------------------------------------------------------------------


class LineDecoder:
    """A vendor's line protocol: ``TYPE field field;CS`` + LF, CS = byte sum mod 256 in hex."""

    def __init__(self) -> None:
        self.noise_bytes = 0
        self._pending = b""

    def feed(self, data: bytes) -> list[Frame | BrokenFrame]:
        *lines, self._pending = (self._pending + data).split(b"\n")
        out: list[Frame | BrokenFrame] = []
        for line in lines:
            body, sep, checksum = line.rpartition(b";")
            if not sep or len(checksum) != 2:
                out.append(BrokenFrame("malformed", "no ;CS", line))
            elif int(checksum, 16) != sum(body) & 0xFF:
                out.append(BrokenFrame("bad_checksum", "sum differs", line))
            else:
                type_, *fields = body.decode("ascii").split(" ")
                out.append(Frame(type_, tuple(fields)))
        return out


class LineCodec:
    name = "test-vendor-lines"

    def new_decoder(self) -> LineDecoder:
        return LineDecoder()

    def encode(self, frame: Frame) -> bytes:
        body = " ".join((frame.type, *frame.fields)).encode("ascii")
        return body + b";%02X\n" % (sum(body) & 0xFF)


LINE_CODEC = LineCodec()
register_codec(LINE_CODEC)


@pytest.mark.asyncio
async def test_a_vendor_protocol_plugs_in_as_a_codec(tmp_path: Path) -> None:
    log = EventLog()
    async with ShoeSimulator(tmp_path / "shoe", codec=LINE_CODEC) as simulator:
        # Chosen by name, as the config file would: protocol = "test-vendor-lines".
        cfg = config(simulator.path, protocol="test-vendor-lines")
        assert cfg.problems("serial.shoe") == []
        async with DealingShoe(cfg, log) as shoe:
            assert shoe.codec is LINE_CODEC
            await shoe.wait_for_state(ONLINE, 2.0)
            await simulator.send_raw(b"CRD 1 As;00\n")  # a wrong sum
            await simulator.deal(2, "Qs Jd")
            (stack,) = await log.take(StackDelivered)
            assert (await shoe.request_status()).model == "SIM-SHOE"
            assert (await simulator.wait_received("REQ")).type == "REQ"
    assert stack.cards == ("Qs", "Jd")
    assert shoe.stats.broken == {"bad_checksum": 1}
