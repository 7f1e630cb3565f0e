"""The lock-out while a peer with no role floods the local API with 1,000 refused requests a second.

Run (as root: the flood runs as another Unix user, ``nobody``, in the API's group):
``.venv/bin/python bench/bench_api_flood.py [--presses 200] [--rate 1000]``.

The bench rig's daemon in this process (mock pins, simulated devices). Each press: a thread drives
the mock lock-out pin low, and the figure ends when a client subscribed on the local API receives
the journaled ``no_more_bets`` (as ``bench/bench_daemon.py`` measures it). The same run measures
``--presses`` presses quiet, then ``--presses`` presses while a child process (``/usr/bin/python3``,
uid ``nobody``, the standard library only) sends ``--rate`` ``submit_event`` requests a second
that its role may not send, and reads the answers. On this version they are answered
``rate_limited`` past the peer's rate, or ``auth_required``; counted, never journaled one by one
(docs/local-api.md "Limits"). The child's count of answers by code is printed, and how many
records the journal gained that were not the presses' rounds. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from controller.api_client import ApiClient
from sim.bench_rig import LOCK_OUT_PIN, BenchRig, timed_lock_out

TIMEOUT = 5.0
AIM_P99_MS = 10.0
NOBODY = 65534

FLOOD = r"""
import asyncio, collections, json, sys
async def main(path, rate, seconds, line):
    reader, writer = await asyncio.open_unix_connection(path, limit=2**20)
    codes = collections.Counter()
    loop = asyncio.get_running_loop()
    async def read():
        while raw := await reader.readline():
            answer = json.loads(raw)
            codes["ok" if answer.get("ok") else answer["error"]["code"]] += 1
    task = asyncio.create_task(read())
    print("ready", flush=True)
    start, sent, tick = loop.time(), 0, 0.01
    while loop.time() - start < seconds:
        due = int((loop.time() - start) * rate)
        if due > sent:
            writer.write(line * (due - sent))
            sent = due
            await writer.drain()
        await asyncio.sleep(tick)
    await asyncio.sleep(0.5)
    task.cancel()
    print(json.dumps({"sent": sent, "seconds": loop.time() - start, "answers": dict(codes)}), flush=True)
asyncio.run(main(sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4].encode() + b"\n"))
"""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def presses(rig: BenchRig, n: int) -> list[float]:
    """Milliseconds from the edge to the journaled ``no_more_bets`` received by a subscriber."""
    out: list[float] = []
    pin = rig.factory.pin(LOCK_OUT_PIN)
    async with await ApiClient.connect(rig.socket) as api:
        await api.subscribe(["event"])
        notes = api.notifications()
        for _ in range(n):
            out.append(await timed_lock_out(pin, notes, TIMEOUT))
    return out


#: What the flood sends: as a peer with no role, a lock-out its role may not ask for; as the
#: dealer's screen, a wager the table refuses (seat 9 of 7), each refusal one the journal would hold.
NO_ROLE_LINE = '{"id": 1, "cmd": "submit_event", "args": {"event": {"type": "no_more_bets"}}}'
DEALER_LINE = (
    '{"id": 1, "cmd": "submit_event", "args": {"event": '
    '{"type": "wager", "seat": 9, "wager": "ante", "amount": "5.00"}}}'
)


async def run(n: int, rate: float, as_dealer: bool = False) -> dict[str, Any]:
    python = shutil.which("python3", path="/usr/bin:/bin")
    if os.geteuid() != 0 or python is None:
        raise SystemExit("run as root (the flood runs as the user nobody), with /usr/bin/python3")
    directory = Path(tempfile.mkdtemp(prefix="flood-", dir="/tmp"))
    directory.chmod(0o755)  # the flood's uid reaches the socket through its group
    try:
        async with BenchRig(directory) as rig:
            assert rig.daemon is not None
            quiet = await presses(rig, n)
            before = rig.daemon.state.last_seq
            flood = await asyncio.create_subprocess_exec(
                python,
                "-c",
                FLOOD,
                str(rig.socket),
                str(rate),
                str(3600),
                DEALER_LINE if as_dealer else NO_ROLE_LINE,
                # The bench rig's dealer_user is the user running it.
                user=os.geteuid() if as_dealer else NOBODY,
                group=os.getgid(),
                stdout=subprocess.PIPE,
            )
            assert flood.stdout is not None
            assert (await flood.stdout.readline()).strip() == b"ready"
            await asyncio.sleep(0.5)  # the flood at its rate before the first press
            started = time.monotonic()
            flooded = await presses(rig, n)
            seconds = time.monotonic() - started
            records = rig.daemon.state.last_seq - before
            flood.terminate()
            await flood.wait()
            api = rig.daemon.api
            refusals = api.tally.total if api is not None else None
        return {
            "quiet": quiet,
            "flood": flooded,
            "seconds": seconds,
            "records": records,
            "tally": refusals,
        }
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--rate", type=float, default=1000.0)
    parser.add_argument(
        "--as-dealer",
        action="store_true",
        help="flood from the dealer's screen's own user (refused wagers), not a peer with no role",
    )
    args = parser.parse_args()
    out = asyncio.run(run(args.presses, args.rate, args.as_dealer))
    for name in ("quiet", "flood"):
        values = out[name]
        print(
            f"lock-out, {name:5}: p50 {statistics.median(values):6.2f} ms  "
            f"p99 {percentile(values, 99):6.2f} ms  max {max(values):6.2f} ms  ({len(values)} presses)"
        )
    p99 = percentile(out["flood"], 99)
    print(f"aim: p99 under {AIM_P99_MS:g} ms during the flood: {'met' if p99 < AIM_P99_MS else 'NOT MET'}")
    print(
        f"journal: {out['records']} records in {out['seconds']:.1f} s of flood "
        f"({args.presses} presses: each a no_more_bets, a cancelled round and a new round_begin)"
    )
    print(f"refusals counted by the API (not journaled one by one): {out['tally']}")


if __name__ == "__main__":
    main()
