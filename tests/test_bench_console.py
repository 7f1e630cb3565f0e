"""``bash scripts/run`` opens the dealer's console beside the bench rig when a display is present
(issue 11, item 5), and stays headless otherwise.

The console is the real ``table-ui`` process on a private Xvfb, a client of the rig's daemon; the
rig plays its round, then serves on until the console's window is closed.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal

import pytest

from sim.bench_rig import display_present, run_bench
from sim.screen_display import start_display


def test_a_console_opens_only_where_there_is_a_display(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert not display_present()
    monkeypatch.setenv("DISPLAY", ":99")
    assert display_present()


@pytest.mark.asyncio
async def test_the_console_runs_beside_the_rig_until_its_window_is_closed() -> None:
    lines: list[str] = []
    with start_display():
        bench = asyncio.create_task(run_bench(1, 7, lines.append, console=True))
        deadline = asyncio.get_running_loop().time() + 120
        while not any("close the console's window" in line for line in lines):
            assert not bench.done(), (bench.result(), lines)
            assert asyncio.get_running_loop().time() < deadline, lines
            await asyncio.sleep(0.1)
        # The rounds are played and the console is still up: the rig waits for it.
        await asyncio.sleep(1.0)
        assert not bench.done(), lines
        (started,) = [line for line in lines if line.startswith("console: table-ui started")]
        pid = int(re.search(r"pid (\d+)", started)[1])  # type: ignore[index]
        os.kill(pid, signal.SIGTERM)  # the window closed
        assert await asyncio.wait_for(bench, 30) == 0, lines
    assert any(line.startswith("done: 1 round(s)") for line in lines), lines
