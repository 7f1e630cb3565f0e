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
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


@pytest.mark.parametrize("screen", ["1024x600", "800x480"])
def test_table_ui_without_a_size_fills_the_display_it_is_given(screen: str) -> None:
    """``table-ui`` with no ``--size`` (as the bench rig and the unit start it) is laid out at the
    display's own size (issue 19: a 1024x600 display opened an 800x600 window); it says so once."""
    table_ui = Path(sys.executable).with_name("table-ui")
    with start_display(screen), tempfile.TemporaryDirectory(prefix="kivy-home-") as home:
        env = dict(os.environ, KIVY_HOME=home)
        proc = subprocess.Popen(
            [str(table_ui), "--socket", f"{home}/no-daemon.sock"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        said: list[str] = []
        try:
            assert proc.stderr is not None
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                line = proc.stderr.readline()
                if not line:
                    break
                said.append(line)
                if "table-ui: window" in line:
                    break
        finally:
            proc.kill()  # only its start is looked at (a SIGTERM before its loop runs is not seen)
            proc.communicate(timeout=30)
    assert f"table-ui: window {screen}, laid out for {screen}" in [line.strip() for line in said], said[-5:]
