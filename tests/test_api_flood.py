"""A flood from any one peer, the dealer's screen's too, is limited per peer; its refusals are
journaled as counts, not one by one (issue 18 point 6; docs/local-api.md "Limits").

Issue 18 found: "a flood from the dealer's own peer journals every refusal (3,348 in 8 s)".
Here the dealer's screen (a child process under its own Unix user) floods the real socket with
requests refused, as fast as it can: it is answered ``rate_limited`` past its rate and past the
refusals it may have journaled one by one, while another peer's requests are answered within a
bound; at most the burst and the rate of refusals are journaled one by one, and the rest as one
count record once the interval ends. Then the real daemon: the lock-out timed from the pin to the
journaled ``no_more_bets`` while its own dealer's peer floods.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any, Final

import pytest

from controller.api.limits import JOURNALED_REFUSALS_BURST, JOURNALED_REFUSALS_PER_SECOND
from controller.api_client import ApiClient
from sim.bench_rig import LOCK_OUT_PIN, BenchRig, timed_lock_out
from tests.test_api import users_file, users_template
from tests.test_api_abuse import NOBODY, serving

__all__ = ["users_file", "users_template"]  # fixtures from test_api, used here by name

SECONDS: Final = 3.0
ANSWER_BOUND: Final = 0.5
"""Seconds within which another peer's request is answered during the flood (each one)."""

FLOOD: Final = r"""
import asyncio, collections, json, sys
async def main(path, line, seconds):
    reader, writer = await asyncio.open_unix_connection(path, limit=2**20)
    codes = collections.Counter()
    async def read():
        while raw := await reader.readline():
            answer = json.loads(raw)
            codes["ok" if answer.get("ok") else answer["error"]["code"]] += 1
    task = asyncio.create_task(read())
    loop = asyncio.get_running_loop()
    print("ready", flush=True)
    start, sent = loop.time(), 0
    while loop.time() - start < seconds:
        writer.write(line * 50)
        sent += 50
        try:
            await asyncio.wait_for(writer.drain(), 0.05)
        except asyncio.TimeoutError:
            pass
        await asyncio.sleep(0)
    elapsed = loop.time() - start
    await asyncio.sleep(0.5)
    task.cancel()
    print(json.dumps({"sent": sent, "seconds": elapsed, "answers": dict(codes)}), flush=True)
asyncio.run(main(sys.argv[1], sys.argv[2].encode() + b"\n", float(sys.argv[3])))
"""

#: A request every peer may send and the table refuses: a wager at a seat the table has not.
REFUSED: Final = json.dumps({"id": 1, "cmd": "list_rounds", "args": {"limit": 0}}, separators=(",", ":"))


async def flood(socket: Path, uid: int, line: str, seconds: float) -> asyncio.subprocess.Process:
    """A child process under ``uid`` sending ``line`` as fast as the socket takes it."""
    python = shutil.which("python3", path="/usr/bin:/bin")
    if os.geteuid() != 0 or python is None:
        pytest.skip("needs root (and /usr/bin/python3) to flood from another Unix user")
    proc = await asyncio.create_subprocess_exec(
        python,
        "-c",
        FLOOD,
        str(socket),
        line,
        str(seconds),
        user=uid,
        group=os.getgid(),
        stdout=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert (await asyncio.wait_for(proc.stdout.readline(), 10)).strip() == b"ready"
    return proc


async def flood_result(proc: asyncio.subprocess.Process) -> dict[str, Any]:
    assert proc.stdout is not None
    out = json.loads(await asyncio.wait_for(proc.stdout.readline(), 30))
    await proc.wait()
    return dict(out)


def bound_of_refusals(seconds: float) -> int:
    """The refusals one peer may have journaled one by one in ``seconds``: its burst and rate."""
    return JOURNALED_REFUSALS_BURST + int(JOURNALED_REFUSALS_PER_SECOND * seconds) + 2


@pytest.mark.asyncio
async def test_the_dealer_s_flood_is_limited_and_counted_while_another_peer_is_answered(
    short_dir: Path, users_file: Path
) -> None:
    async with serving(short_dir, users_file) as (server, handler):
        proc = await flood(server.socket_path, NOBODY, REFUSED, SECONDS)
        waits: list[float] = []
        async with await ApiClient.connect(server.socket_path) as other:
            start = time.monotonic()
            while time.monotonic() - start < SECONDS:
                asked = time.monotonic()
                assert (await asyncio.wait_for(other.status(), 5))["table"] == "CS-3"
                waits.append(time.monotonic() - asked)
                await asyncio.sleep(0.02)
        result = await flood_result(proc)
        answers = result["answers"]
        # The flood: refused one by one up to its refusals' burst, then rate_limited, the server
        # reading nothing more from it until it may go on (the rest waits in its own socket).
        assert answers.get("bad_args", 0) > 0 and answers.get("rate_limited", 0) > 0, result
        assert sum(answers.values()) < result["sent"] / 10, result
        one_by_one = [j for j in handler.journal if j.get("refused") == "bad_args"]
        assert len(one_by_one) <= bound_of_refusals(result["seconds"] + 1), (len(one_by_one), result)
        # The other peer (another Unix user): every request answered within the bound.
        assert max(waits) < ANSWER_BOUND, sorted(waits)[-5:]
        counted_before = len(handler.journal)
        total = server.tally.total
        await server.flush_tally()
        counts = [j for j in handler.journal[counted_before:] if j["cmd"] == "(counted)"]
        assert len(counts) == 1, handler.journal[counted_before:]
        message = counts[0]["message"]
        assert f"{total} request(s) from (uid {NOBODY}" in message and "rate_limited" in message
        assert counts[0]["actor"]["role"] == "dealer"
        await server.flush_tally()
        assert len(handler.journal) == counted_before + 1  # nothing more: nothing counted since
        print(
            f"\nflood from the dealer's peer: {result['sent']} lines offered in {result['seconds']:.1f} s, "
            f"answered {answers}; journaled one by one {len(one_by_one)}, then 1 count record of {total}; "
            f"the other peer: {len(waits)} status, p50 {statistics.median(waits) * 1000:.1f} ms, "
            f"max {max(waits) * 1000:.1f} ms"
        )


@pytest.mark.asyncio
async def test_the_lock_out_while_the_dealer_s_own_peer_floods_the_daemon() -> None:
    """The real daemon: its dealer's user (root here) floods refused events while the lock-out is
    pressed 10 times; each press journaled, the flood's refusals bounded in the journal, and the
    lock-out's figure (pin to the journaled ``no_more_bets``) printed."""
    async with BenchRig() as rig:
        daemon = rig.daemon
        assert daemon is not None and daemon.journal is not None and daemon.api is not None
        pin = rig.factory.pin(LOCK_OUT_PIN)
        async with await ApiClient.connect(rig.socket) as watcher:
            await watcher.subscribe(["event"])
            notes = watcher.notifications()
            seq0 = daemon.state.last_seq
            wager = {"type": "wager", "seat": 9, "wager": "ante", "amount": "5.00"}  # no seat 9
            line = json.dumps({"id": 1, "cmd": "submit_event", "args": {"event": wager}})
            proc = await flood(rig.socket, os.geteuid(), line, SECONDS)
            presses = [await timed_lock_out(pin, notes) for _ in range(10)]
            result = await flood_result(proc)
        records = await daemon.journal.records(seq0)
        refused = [r for r in records if r.kind == "command" and r.body.get("args", {}).get("refused")]
        ours = [r for r in records if r.kind == "event" and r.body.get("type") == "no_more_bets"]
        assert len(ours) == 10
        assert len(refused) <= bound_of_refusals(result["seconds"] + 1), (len(refused), result["answers"])
        await daemon.api.flush_tally()
        after = await daemon.journal.records(records[-1].seq if records else seq0)
        assert [r.body["command"] for r in after if r.kind == "command"].count("(counted)") == 1
        print(
            f"\nlock-out under the dealer's flood ({result['sent']} lines offered "
            f"in {result['seconds']:.1f} s, "
            f"{result['answers']}): p50 {statistics.median(presses):.2f} ms, max {max(presses):.2f} ms; "
            f"{len(records)} records journaled in the flood, {len(refused)} of them refusals"
        )
