"""The dealer's touchscreen: a touch to the daemon's answer drawn; start time and RSS.

Run: ``.venv/bin/python bench/bench_ui.py [--touches 55] [--starts 3]`` (PYTHONPATH at the
repository; needs Xvfb: each part starts its own, as the widget tests do).

0. Touch to answer drawn: the bench rig's daemon (Caribbean Stud) in a process of its own, as
   on the Pi (``--same-process``: in the screen's loop, the earlier arrangement), the console
   (``table-ui``'s view at 800x480) in this one. After "no more bets" with no cards, the
   dealer's BET key is touched (Kivy's ``UnitTestTouch``); the daemon refuses it with its
   section (the rules core's answer, journaled as refused), the refusal comes back, and the
   figure ends when the first frame showing it has been swapped onto the window (each frame
   is checked from before the touch, so the frame that shows it is never missed). One touch at
   a time. Then 7 wagers accepted (seats 1-7): PLACE WAGER to the seat's line drawn.
   The issue's aim: p99 under 100 ms on this machine.
1. Start: ``table-ui`` (``python -m ui.app`` with a probe) from exec to the first frame drawn
   connected to the daemon; peer: a bare Kivy app (one label) from exec to its first frame.
2. RSS: ``VmRSS`` of each at that first frame.

Figures are printed; nothing is asserted. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import time
from asyncio.subprocess import PIPE
from collections.abc import AsyncIterator, Callable
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from sim.screen_display import kivy_environment, running_app, start_display  # noqa: E402
from sim.screen_rig import console_on_rig, following, until  # noqa: E402
from ui.console import Console  # noqa: E402
from ui.words import dealer_words  # noqa: E402

PROBE = """
import os, sys, time
from kivy.clock import Clock
from kivy.core.window import Window

def report(*_):
    rss = next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmRSS'))
    print(f'{time.monotonic():.6f} {rss}', flush=True)
    os._exit(0)
"""

UI_PROBE = (
    PROBE
    + """
import asyncio
from pathlib import Path
from ui.app import configure_kivy, make_app, run
from ui.layout import Sizes
configure_kivy(800, 480, False)
app = make_app(Path(sys.argv[1]), Sizes(800, 480, 142.0))
def check(*_):
    if app.console.online:
        Window.bind(on_flip=report)
        return False
Clock.schedule_interval(check, 0)
asyncio.run(run(app))
"""
)

BARE_PROBE = (
    PROBE
    + """
from kivy.app import App
from kivy.uix.label import Label
class Bare(App):
    kv_file = "no-such.kv"  # no source file for -c code: tell Kivy there is no kv file
    def build(self):
        Window.bind(on_flip=report)
        return Label(text='bare')
Bare().run()
"""
)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def drawn(changed: Callable[[], bool], press: Callable[[], float]) -> float:
    """``press()``, then the time the first frame showing ``changed()`` was on the window.

    Each frame's ``on_flip`` (dispatched once the frame is drawn, before the buffers swap) checks
    ``changed()``; the frame that shows it is stamped when the loop next turns, after its swap.
    Watching from before the press: the frame that shows the answer is never missed (the screen
    may draw nothing more for a while after it)."""
    from kivy.core.window import Window

    loop = asyncio.get_running_loop()
    stamped: list[float] = []
    seen: list[bool] = []

    def frame(*_: object) -> None:
        if not seen and changed():
            seen.append(True)
            loop.call_soon(lambda: stamped.append(time.perf_counter()))

    Window.bind(on_flip=frame)
    try:
        start = press()
        while not stamped:
            await asyncio.sleep(0.001)
    finally:
        Window.unbind(on_flip=frame)
    return stamped[0] - start


#: The daemon on the bench rig in a process of its own, as on the Pi (table-ui is its own process):
#: it prints its socket and serves until its stdin closes.
DAEMON_CHILD = """
import asyncio, sys
from sim.bench_rig import BenchRig
async def serve():
    async with BenchRig() as rig:
        print(rig.socket, flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
asyncio.run(serve())
"""


@contextlib.asynccontextmanager
async def console_on_daemon(same_process: bool) -> AsyncIterator[Console]:
    """A console following the bench rig's daemon: in its own process, or in this one's loop."""
    if same_process:
        async with console_on_rig() as (_rig, console):
            yield console
        return
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", DAEMON_CHILD, stdin=PIPE, stdout=PIPE, env=env
    )
    assert child.stdout is not None and child.stdin is not None
    try:
        socket = Path((await asyncio.wait_for(child.stdout.readline(), 60)).decode().strip())
        async with following(socket) as console:
            await until(lambda: console.online, "the controller online")
            yield console
    finally:
        child.stdin.close()
        await asyncio.wait_for(child.wait(), 30)


async def touch_to_answer(touches: int, same_process: bool = False) -> tuple[list[float], list[float]]:
    from kivy.tests.common import UnitTestTouch

    refused: list[float] = []
    accepted: list[float] = []
    async with running_app(800, 480) as screen, console_on_daemon(same_process) as console:
        view = await screen.show(console)

        def press(name: str) -> float:
            key = screen.keys(name)[0]
            x, y = key.to_window(*key.center)
            touch = UnitTestTouch(x, y)
            start = time.perf_counter()
            touch.touch_down()
            touch.touch_up()
            return start

        def row_drawn(seat: int) -> bool:
            # The seats' column, line by line: the seat's own line shown.
            return any(name == f"seat:{seat}" for name, *_ in view.seats.shown)

        def refusal_drawn() -> bool:
            row = view.message  # the daemon's last refusal, its own line, in the dealer's words
            return (
                bool(console.message)
                and row.parent is not None
                and row.label.text.endswith(dealer_words(console.message))
            )

        for seat in range(1, 8):
            await screen.tap(f"seat:{seat}")
            await screen.tap("wager:ante")
            await screen.tap("amount:clear")
            await screen.tap("amount:5")
            accepted.append(await drawn(partial(row_drawn, seat), partial(press, "PLACE WAGER")))
        await screen.tap("NO MORE BETS")
        await until(lambda: console.panel == "decisions", "the decisions")
        await screen.frames()
        for i in range(touches):
            console.message = ""
            console.changed()  # the left column drawn without it, so its return is a change
            await screen.frames(2)
            took = await drawn(refusal_drawn, partial(press, "decision:bet"))
            if i >= min(5, touches - 1):  # warm-up
                refused.append(took)
    return refused, accepted


def start_once(probe: str, args: list[str]) -> tuple[float, int]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1"}
    start = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-c", probe, *args], capture_output=True, text=True, env=env, timeout=120, check=True
    ).stdout.split()
    return float(out[0]) - start, int(out[1])


async def start_times(starts: int) -> tuple[list[tuple[float, int]], list[tuple[float, int]]]:
    ui: list[tuple[float, int]] = []
    bare: list[tuple[float, int]] = []
    async with console_on_rig() as (rig, _console):
        for _ in range(starts):
            ui.append(await asyncio.to_thread(start_once, UI_PROBE, [str(rig.socket)]))
            bare.append(await asyncio.to_thread(start_once, BARE_PROBE, []))
    return ui, bare


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # 55 (50 measured after the warm-up): within the refusals a peer may have journaled one by one
    # (controller/api/limits.py, a burst of 60, then one a second; issue 18's flood rule). Past
    # it the bench measures that limit, not the screen: 200 gave p99 841 ms, 55 gave 79 ms.
    parser.add_argument("--touches", type=int, default=55)
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument(
        "--same-process",
        action="store_true",
        help="the daemon in the screen's own loop (the earlier arrangement; not as on the Pi)",
    )
    args = parser.parse_args()
    with start_display():
        kivy_environment(800, 480)
        refused, accepted = asyncio.run(touch_to_answer(args.touches, args.same_process))
        ms = [v * 1000 for v in refused]
        out = sys.__stdout__  # Kivy takes sys.stdout over
        print(
            f"touch -> daemon's refusal drawn: n={len(ms)} p50 {percentile(ms, 50):.1f} ms, "
            f"p99 {percentile(ms, 99):.1f} ms, max {max(ms):.1f} ms (aim: p99 < 100 ms)",
            file=out,
        )
        ms = [v * 1000 for v in accepted]
        print(
            f"touch -> wager accepted and drawn: n={len(ms)} median {statistics.median(ms):.1f} ms, "
            f"max {max(ms):.1f} ms",
            file=out,
        )
        ui, bare = asyncio.run(start_times(args.starts))
    for name, runs in (("table-ui (connected)", ui), ("bare Kivy app", bare)):
        seconds = statistics.median(t for t, _ in runs)
        rss = statistics.median(r for _, r in runs) / 1024
        print(
            f"{name}: start to first frame {seconds:.2f} s (median of {len(runs)}), RSS {rss:.0f} MiB",
            file=sys.__stdout__,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
