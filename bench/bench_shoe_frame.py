"""A shoe's card frame written on the pty to the typed ``CardRead`` on the loop: p50 and p99.

Run: ``.venv/bin/python bench/bench_shoe_frame.py [--frames N] [--warmup W]``.

The timed path is the product's: a ``CRD`` frame written on the master side of a real
pseudo-terminal (as the shoe would put it on the wire), the driver's port (pyserial-asyncio-fast
on the slave) woken by the event loop, the bytes read, framed, checked (CRC-16), interpreted,
and the ``CardRead`` event delivered to the callback on the loop. One frame at a time: the next
is written once the event has arrived.

The peer, measured in the same run and interleaved frame by frame, is the bare round trip the
driver cannot beat: the same bytes written on a second pty's master and read from its slave by a
``loop.add_reader`` callback, with nothing else. The ratio says what pyserial, the stream reader,
the framing, the checksum and the driver cost on top of the kernel and the loop. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
import tty
from pathlib import Path

from hw.device_events import DeviceEvent
from hw.serial_config import SerialDeviceConfig
from hw.serial_protocol import Frame, encode_frame
from hw.shoe import CardRead, DealingShoe
from sim.devices import ShoeSimulator

CARDS = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def percentile(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] / 1000.0


async def run(frames: int, warmup: int) -> tuple[list[int], list[int]]:
    loop = asyncio.get_running_loop()
    tmp = Path(tempfile.mkdtemp(prefix="bench-shoe-"))

    # The product path: simulator's pty (master written directly, to time the wire) and the driver.
    arrived: asyncio.Future[int] | None = None

    def on_event(event: DeviceEvent) -> None:
        if isinstance(event, CardRead) and arrived is not None and not arrived.done():
            arrived.set_result(time.perf_counter_ns())

    simulator = ShoeSimulator(tmp / "shoe", heartbeat_interval=None)
    await simulator.start()
    shoe = DealingShoe(SerialDeviceConfig(port=simulator.path, heartbeat_timeout=3600.0), on_event)
    await shoe.start()
    await shoe.wait_for_state("online", 5.0)

    # The peer: a bare pty, read by an add_reader callback.
    peer_master, peer_slave = os.openpty()
    tty.setraw(peer_slave)
    os.set_blocking(peer_slave, False)
    peer_arrived: asyncio.Future[int] | None = None
    peer_buffer = bytearray()

    def peer_readable() -> None:
        peer_buffer.extend(os.read(peer_slave, 4096))
        if peer_buffer.endswith(b"\n") and peer_arrived is not None and not peer_arrived.done():
            peer_buffer.clear()
            peer_arrived.set_result(time.perf_counter_ns())

    loop.add_reader(peer_slave, peer_readable)

    ours: list[int] = []
    peer: list[int] = []
    master = simulator.pty.master
    try:
        for i in range(warmup + frames):
            # The simulator's answer to the driver's first status request used sequence 0.
            raw = encode_frame(Frame("CRD", (str((i + 1) % 65536), CARDS[i % 52])))
            arrived = loop.create_future()
            started = time.perf_counter_ns()
            os.write(master, raw)
            done = await asyncio.wait_for(arrived, 5.0)
            peer_arrived = loop.create_future()
            peer_started = time.perf_counter_ns()
            os.write(peer_master, raw)
            peer_done = await asyncio.wait_for(peer_arrived, 5.0)
            if i >= warmup:
                ours.append(done - started)
                peer.append(peer_done - peer_started)
    finally:
        loop.remove_reader(peer_slave)
        os.close(peer_master)
        os.close(peer_slave)
        await shoe.stop()
        await simulator.stop()
    if shoe.stats.broken_total or shoe.stats.sequence_gaps:
        raise SystemExit(f"the driver refused frames: {shoe.stats.as_dict()}")
    return ours, peer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--frames", type=int, default=5000)
    parser.add_argument("--warmup", type=int, default=300)
    args = parser.parse_args(argv)
    ours, peer = asyncio.run(run(args.frames, args.warmup))
    p50, p99 = percentile(ours, 0.50), percentile(ours, 0.99)
    q50, q99 = percentile(peer, 0.50), percentile(peer, 0.99)
    print(f"shoe frame -> CardRead on the loop, {len(ours)} frames over a real pty (microseconds)")
    print(f"  driver (pyserial-asyncio-fast, table-v1, DealingShoe)  p50 {p50:7.1f}  p99 {p99:7.1f}")
    print(f"  peer (bare pty write -> add_reader read)              p50 {q50:7.1f}  p99 {q99:7.1f}")
    print(
        f"  ratio driver / peer                                   p50 {p50 / q50:6.2f}x p99 {p99 / q99:6.2f}x"
    )
    print(f"  mean: driver {statistics.fmean(ours) / 1000:.1f}, peer {statistics.fmean(peer) / 1000:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
