"""The dealer's lock-out: edge on the pin -> the event on the loop with wagering locked. p50/p99.

Run: ``.venv/bin/python bench/bench_lock_out.py [--presses 400] [--debounce-ms 20]``.

A driver thread plays gpiozero's thread: it notes the time and drives the mock lock-out pin low
(one press); the edge goes through the debounce, the thread-to-loop hand-over
(``call_soon_threadsafe``) and the system's lock, and ``on_event`` notes the time on the loop,
having checked that wagering is locked. The driver then releases the button, waits out the
debounce window and has the loop unlock for the next press.

The peer, measured in the same run and interleaved press by press, is the bare hand-over: the
same driver thread notes the time and ``loop.call_soon_threadsafe`` a function that notes it on
the loop. The ratio is what our code costs on top of entering the loop at all. The debounce takes
the leading edge, so its window does not add to the latency. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import threading
import time
from typing import Any

from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from hw.gpio import GpioEvent, LockOutPressed, ProgressiveTableGameSystem
from hw.pin_map import PinMap, SeatPins

LOCK_OUT = 17
TIMEOUT = 2.0


def percentile(values: list[int], p: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))])


async def run(presses: int, debounce_ms: int) -> tuple[list[int], list[int]]:
    loop = asyncio.get_running_loop()
    factory: Any = MockFactory()
    pin_map = PinMap(
        lock_out=LOCK_OUT,
        floorperson_light=27,
        seats=tuple(SeatPins(s, *pins) for s, pins in {1: (5, 6, 13), 2: (19, 26, 21)}.items()),
        debounce_ms=debounce_ms,
    )
    arrived = threading.Event()
    landed_ns = 0

    def on_event(event: GpioEvent) -> None:
        nonlocal landed_ns
        if isinstance(event, LockOutPressed):
            landed_ns = time.perf_counter_ns()
            if not system.locked:
                raise AssertionError("LockOutPressed delivered with wagering still open")
            arrived.set()

    def peer_landed() -> None:
        nonlocal landed_ns
        landed_ns = time.perf_counter_ns()
        arrived.set()

    def unlock() -> None:
        system.unlock()
        arrived.set()

    system = ProgressiveTableGameSystem(pin_map, on_event, loop=loop, pin_factory=factory)
    pin = factory.pin(LOCK_OUT)
    ours: list[int] = []
    peer: list[int] = []

    def wait() -> None:
        if not arrived.wait(TIMEOUT):
            raise RuntimeError(f"the loop did not answer within {TIMEOUT} s: {system.status()}")
        arrived.clear()

    def driver() -> None:
        for i in range(presses):
            # Who goes first alternates, so neither always meets a cold cache after the sleep.
            for which in ("ours", "peer") if i % 2 else ("peer", "ours"):
                start = time.perf_counter_ns()
                if which == "ours":
                    pin.drive_low()  # pressed (pulled up, active low)
                else:
                    loop.call_soon_threadsafe(peer_landed)
                wait()
                (ours if which == "ours" else peer).append(landed_ns - start)

            pin.drive_high()
            time.sleep(debounce_ms / 1000 * 1.5 + 0.002)  # the release's window, and its settle
            loop.call_soon_threadsafe(unlock)
            wait()

    try:
        await asyncio.to_thread(driver)
    finally:
        system.close()
    return ours, peer


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--presses", type=int, default=400)
    ap.add_argument("--debounce-ms", type=int, default=20)
    args = ap.parse_args(argv)
    ours, peer = asyncio.run(run(args.presses, args.debounce_ms))
    print(
        f"lock-out edge -> LockOutPressed on the loop, wagering locked "
        f"({args.presses} presses, debounce {args.debounce_ms} ms, Python {sys.version.split()[0]})"
    )
    rows = [("ours (debounce, hand-over, lock)", ours), ("peer (bare call_soon_threadsafe)", peer)]
    for name, xs in rows:
        print(
            f"  {name:36} p50 {percentile(xs, 50) / 1000:8.1f} µs   p99 {percentile(xs, 99) / 1000:8.1f} µs"
            f"   max {max(xs) / 1000:8.1f} µs   mean {statistics.fmean(xs) / 1000:8.1f} µs"
        )
    print(
        f"  ratio ours/peer                      p50 {percentile(ours, 50) / percentile(peer, 50):8.2f}x"
        f"      p99 {percentile(ours, 99) / percentile(peer, 99):8.2f}x"
    )


if __name__ == "__main__":
    main()
