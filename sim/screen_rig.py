"""The screen on the bench rig, for its tests and its benchmark (``bench/bench_ui.py``): a
:class:`ui.console.Console` following a real daemon on the bench rig (``sim.bench_rig.BenchRig``),
the dealer's and the floorperson's keys, and waiting until it shows something.

The console is the one the Kivy app draws: the tests tap its methods as a widget would.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from controller.auth import add_user
from sim.bench_rig import BenchRig
from ui.console import Console

FLOOR_USER = "mfloor"
FLOOR_PIN = "204816"
WAIT = 10.0


async def until(condition: Callable[[], object], what: str, timeout: float = WAIT) -> None:
    """Until ``condition()`` is true; an ``AssertionError`` naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"the screen did not show {what} within {timeout} s")
        await asyncio.sleep(0.01)


@contextlib.asynccontextmanager
async def following(socket: Path) -> AsyncIterator[Console]:
    """A console connecting (and reconnecting) to ``socket`` for the ``with`` block."""
    console = Console(socket)
    task = asyncio.get_running_loop().create_task(console.connection.run())
    try:
        yield console
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        client = console.connection.client
        if client is not None:
            await client.close()


@contextlib.asynccontextmanager
async def console_on_rig(game: str = "caribbean-stud") -> AsyncIterator[tuple[BenchRig, Console]]:
    """The bench rig dealing ``game``, a floorperson signed up, and a console following it."""
    async with BenchRig(game=game) as rig:
        add_user(rig.path / "users.json", FLOOR_USER, "floor", FLOOR_PIN)
        async with following(rig.socket) as console:
            await until(lambda: console.online, "the controller online")
            yield rig, console


async def enter_wager(console: Console, seat: int, wager: str, dollars: int) -> None:
    """The dealer taps the seat, the wager, the amount, and Place."""
    console.choose_seat(seat)
    console.choose_wager(wager)
    console.clear_amount()
    for digit in f"{dollars}":
        console.key("amount", digit)
    assert await console.place_wager(), console.message
    await until(
        lambda: any(s.seat == seat and any(w.wager == wager for w in s.wagers) for s in console.table.seats),
        f"seat {seat}'s {wager}",
    )


async def tap_pin(console: Console, user: str = FLOOR_USER, pin: str = FLOOR_PIN) -> bool:
    """The floorperson types the user name and PIN on the pad and signs."""
    console.pin.choose("user")
    console.pin.clear()
    for key in user:
        console.pin.press(key)
    console.pin.choose("pin")
    for key in pin:
        console.pin.press(key)
    return await console.sign()
