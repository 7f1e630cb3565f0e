"""Ctrl-C ends a ``tablectl`` command that follows the daemon (``watch``, ``sniff``), whenever it
comes (controller/tablectl/common.py, ``run_until_interrupted``).

``asyncio.run``'s own SIGINT handler is a Python-level one: it runs only once the event loop
wakes. A SIGINT taken outside the loop's wait (just before the loop went to sleep, or by a thread
other than the loop's) left a quiet ``watch`` asleep until the daemon's next notification: on the
CI machine under load, ``tablectl watch`` was still running 10 s after Ctrl-C. Here the SIGINT is
taken by another thread of the command's process while the loop sleeps with nothing due: the
loop must still wake and the command end.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

FOLLOWER = textwrap.dedent(
    """
    import asyncio, signal, sys, threading, time
    from controller.tablectl.common import run_until_interrupted

    async def follow() -> None:
        loop = asyncio.get_running_loop()
        # A SIGINT taken by another thread while the loop waits for a notification that never
        # comes (no timer is due: the loop sleeps until a file descriptor wakes it).
        def ctrl_c() -> None:
            time.sleep(0.3)
            signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        threading.Thread(target=ctrl_c, daemon=True).start()
        print("following", flush=True)
        await loop.create_future()

    run_until_interrupted(follow())
    print("ended", flush=True)
    """
)


def test_a_ctrl_c_taken_off_the_loop_still_ends_the_command() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-X", "faulthandler", "-c", FOLLOWER],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)  # faulthandler: its stacks on stderr
        out, err = proc.communicate(timeout=10)
        pytest.fail(f"still running 20 s after Ctrl-C: {out!r}\n{err}")
    assert (proc.returncode, out) == (0, "following\nended\n"), err
