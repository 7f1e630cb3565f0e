"""The real daemon in a process of its own, with the table's hardware simulated around it.

``python -m bench.daemon_child DIR [--chips 1,3]`` runs :class:`controller.daemon.Daemon` (the
composition root, the journal, the API on ``DIR/run/api.sock``) on the bench rig's mock pins and
pseudo-terminal devices, and takes the hardware's actions on stdin, one a line, answering each
with ``ok <id>`` once the daemon has handled it:

- ``<id> chip <seat>`` / ``<id> lift <seat>``: a chip put on / taken off a seat's device;
- ``<id> press``: the lock-out pressed and released;
- ``<id> deal <position> <cards...>``: the shoe deals a stack (skipped if the round holds cards
  for that position already: the shoe never deals a position twice).

``--chips``: the chips on the devices when the power comes back (a chip stays where it is when
the daemon dies). ``--table``: the table's id; ``--extra-config FILE``: more of the daemon's
configuration (a ``[progressive_link]`` section: ``tests/test_link_crash.py``). ``ready`` on
stdout once the daemon is up. ``tests/test_crash_daemon.py`` kills it with SIGKILL at random
moments; everything the hardware did dies with it, as at a power cut.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPin  # type: ignore[import-untyped]

from sim.bench_rig import LOCK_OUT_PIN, SEAT_PINS, TABLE_ID, BenchRig

EDGE = 0.03
"""Past the debounce window (20 ms) between two edges of one input."""


class ChipPin(MockPin):  # type: ignore[misc]
    """A mock pin that keeps a chip put on its device before the power came back: gpiozero's
    MockPin drives itself to its pull when the sensor opens it, which would lift the chip."""

    held_low = False

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        if self.held_low:
            self.drive_low()


async def _drive(rig: BenchRig, pin: int, low: bool) -> None:
    mock = rig.factory.pin(pin)
    await asyncio.to_thread(mock.drive_low if low else mock.drive_high)
    await asyncio.sleep(EDGE)
    assert rig.daemon is not None
    await rig.daemon.drain()


async def _deal(rig: BenchRig, position: str, cards: str) -> None:
    daemon = rig.daemon
    assert daemon is not None
    current = daemon.state.current
    if current is not None and any(e.type == "cards" and str(e.to) == position for e in current.events):
        return
    await rig.deal(position, cards)


async def _serve(directory: Path, chips: list[int], table: str, extra_config: str) -> None:
    factory = MockFactory(pin_class=ChipPin)
    for seat in chips:
        pin = factory.pin(SEAT_PINS[seat][0])
        pin.held_low = True
        pin.drive_low()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    rig = BenchRig(directory=directory, factory=factory, table_id=table, extra_config=extra_config)
    async with rig:
        print("ready", flush=True)
        while line := (await reader.readline()).decode().strip():
            number, command, *args = line.split()
            if command in ("chip", "lift"):
                await _drive(rig, SEAT_PINS[int(args[0])][0], command == "chip")
            elif command == "press":
                await _drive(rig, LOCK_OUT_PIN, True)
                await _drive(rig, LOCK_OUT_PIN, False)
            elif command == "deal":
                await _deal(rig, args[0], " ".join(args[1:]))
            else:
                raise SystemExit(f"daemon_child: unknown command {command!r}")
            print(f"ok {number}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="daemon_child", description=__doc__)
    parser.add_argument("directory", type=Path)
    parser.add_argument("--chips", default="", help="seats with a chip on their device, such as 1,3")
    parser.add_argument("--table", default=TABLE_ID, help="the table's id")
    parser.add_argument("--extra-config", type=Path, help="a file of more of the daemon's configuration")
    args = parser.parse_args()
    chips = [int(s) for s in args.chips.split(",") if s]
    extra = "" if args.extra_config is None else args.extra_config.read_text(encoding="utf-8")
    asyncio.run(_serve(args.directory, chips, args.table, extra))


if __name__ == "__main__":
    main()
