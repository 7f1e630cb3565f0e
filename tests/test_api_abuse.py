"""The API cannot lock out the dealer or slow the table (issue 9, item 4; docs/local-api.md "Limits").

Idle connections and half lines are closed after their timeouts; past the general limit, slots
are kept for the dealer's screen (its Unix user: a child process under another uid here) and for
a technician; a peer past its rate is told ``rate_limited``; refusals to a peer with no role and
wrong PINs are counted, not journaled one by one (a lockout is journaled once); an unknown key is
quoted cut short. The real server, real Unix sockets, the test module's small table handler.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final

import pytest

from controller.api import ApiServer
from controller.api_client import ApiClient
from controller.auth import Authenticator
from tests.test_api import FLOOR, GROUP, TECH, Raw, TableHandler, users_file, users_template

__all__ = ["users_file", "users_template"]  # fixtures from test_api, used here by name

NOBODY: Final = 65534
"""The uid the dealer's screen runs under in these tests (the test itself is another peer)."""


@asynccontextmanager
async def serving(
    short_dir: Path, users_file: Path, **limits: Any
) -> AsyncIterator[tuple[ApiServer, TableHandler]]:
    handler = TableHandler()
    server = ApiServer(
        handler,
        short_dir / "run" / "api.sock",
        GROUP,
        Authenticator(users_file, attempts=5, lockout_seconds=300),
        dealer_uids={NOBODY},
        **limits,
    )
    handler.server = server
    async with server:
        yield server, handler


DEALER_SCREEN: Final = """
import asyncio, json, sys
async def main():
    reader, writer = await asyncio.open_unix_connection(sys.argv[1])
    writer.write(b'{"id": 1, "cmd": "status"}\\n')
    await writer.drain()
    print((await asyncio.wait_for(reader.readline(), 5)).decode().strip())
asyncio.run(main())
"""


async def dealer_screen(socket: Path) -> dict[str, Any]:
    """The dealer's screen, as its own Unix user: connects and presses no more bets."""
    # The system's Python: the venv's may sit where the other uid cannot reach; the script needs
    # the standard library only.
    python = shutil.which("python3", path="/usr/bin:/bin")
    if os.geteuid() != 0 or python is None:
        pytest.skip("needs root (and /usr/bin/python3) to run the dealer's screen under its own uid")
    proc = await asyncio.create_subprocess_exec(
        python,
        "-c",
        DEALER_SCREEN,
        str(socket),
        user=NOBODY,
        group=os.getgid(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 20)
    assert proc.returncode == 0, err.decode()
    answer = json.loads(out)
    assert isinstance(answer, dict)
    return answer


@pytest.mark.asyncio
async def test_32_idle_connections_and_the_dealer_still_connects(short_dir: Path, users_file: Path) -> None:
    async with serving(short_dir, users_file) as (server, handler):
        # Every general slot held: some idle, some with half a line sent.
        holders = [await Raw.connect(server.socket_path) for _ in range(server.max_clients)]
        for i, holder in enumerate(holders):
            if i % 2:
                await holder.send(b'{"id": 1, "cmd": "sta')
        for _ in range(200):
            if server.clients == server.max_clients:
                break
            await asyncio.sleep(0.01)
        assert server.clients == server.max_clients
        answer = await dealer_screen(server.socket_path)
        assert answer["ok"] is True, answer
        assert handler.journal[-1]["actor"]["role"] == "dealer"
        # A 33rd peer that is neither the dealer nor a technician waits for a slot.
        extra = await Raw.connect(server.socket_path)
        code = (await extra.ask({"id": 2, "cmd": "status"}))["error"]["code"]
        assert code == "busy"
        for holder in holders:
            await holder.close()


@pytest.mark.asyncio
async def test_the_technicians_slot_serves_a_technician_only(short_dir: Path, users_file: Path) -> None:
    async with serving(short_dir, users_file, max_clients=2, tech_slots=1) as (server, _):
        holders = [await Raw.connect(server.socket_path) for _ in range(2)]
        intruder = await Raw.connect(server.socket_path)
        refused = await intruder.ask({"id": 1, "cmd": "status"})
        assert refused["error"]["code"] == "busy" and "kept for a technician" in refused["error"]["message"]
        assert await intruder.reader.read() == b""  # and it is closed, freeing the slot
        for _ in range(200):
            if server.clients == 2:
                break
            await asyncio.sleep(0.01)
        tech = await Raw.connect(server.socket_path)
        answer = await tech.ask({"id": 2, "cmd": "status", "auth": {"user": TECH.user, "pin": TECH.pin}})
        assert answer["ok"] is True, answer
        for raw in (*holders, tech):
            await raw.close()


@pytest.mark.asyncio
async def test_a_half_line_is_closed_after_the_timeout(short_dir: Path, users_file: Path) -> None:
    async with serving(short_dir, users_file, line_seconds=0.3, idle_seconds=30) as (server, _):
        raw = await Raw.connect(server.socket_path)
        start = time.monotonic()
        await raw.send(b'{"id": 1, "cmd": ')
        # Dribbling a byte at a time does not keep a line alive: its time runs from its first byte.
        for _ in range(3):
            await asyncio.sleep(0.05)
            await raw.send(b" ")
        answer = await raw.line()
        assert answer["error"]["code"] == "timeout"
        assert "begun and not finished within 0.3 s" in answer["error"]["message"]
        assert await raw.reader.read() == b""
        assert 0.25 < time.monotonic() - start < 3
        await raw.close()


@pytest.mark.asyncio
async def test_an_idle_connection_is_closed_but_a_subscriber_is_not(
    short_dir: Path, users_file: Path
) -> None:
    async with serving(short_dir, users_file, idle_seconds=0.3, line_seconds=5) as (server, _):
        idle = await Raw.connect(server.socket_path)
        assert (await idle.ask({"id": 1, "cmd": "status"}))["ok"] is True
        answer = await idle.line()
        assert answer["error"]["code"] == "timeout" and "no request for 0.3 s" in answer["error"]["message"]
        async with await ApiClient.connect(server.socket_path) as watcher:
            await watcher.subscribe(["state"])
            await asyncio.sleep(0.8)
            assert (await watcher.status())["table"] == "CS-3"  # still connected
        await idle.close()


@pytest.mark.asyncio
async def test_a_rate_limited_peer_is_told_so_and_nothing_is_journaled(
    short_dir: Path, users_file: Path
) -> None:
    async with serving(short_dir, users_file, requests_per_second=20) as (server, handler):
        raw = await Raw.connect(server.socket_path)
        line = b'{"id": 1, "cmd": "submit_event", "args": {"event": {"type": "no_more_bets"}}}\n'
        start = time.monotonic()
        await raw.send(line * 120)
        codes = [(await raw.line())["error"] for _ in range(120)]
        elapsed = time.monotonic() - start
        limited = [c for c in codes if c["code"] == "rate_limited"]
        served = [c for c in codes if c["code"] == "auth_required"]
        assert len(limited) + len(served) == 120 and limited
        assert "at most 20 a second; try again in" in limited[0]["message"]
        # No more than the burst and the rate reached the daemon: the rest waited in the
        # peer's own socket, the server reading nothing from it until its next request may go on.
        assert len(served) <= 40 + 20 * elapsed + 2
        # Refusals to a peer with no role are counted, never journaled one by one.
        assert handler.journal == [] and server.tally.total == 120
        await asyncio.sleep(0.2)  # the bucket refills: the peer is served again
        assert (await raw.ask({"id": 2, "cmd": "status"}))["ok"] is True
        await raw.close()


@pytest.mark.asyncio
async def test_wrong_pins_are_journaled_bounded(short_dir: Path, users_file: Path) -> None:
    async with serving(short_dir, users_file) as (server, handler):
        raw = await Raw.connect(server.socket_path)
        wrong = {"user": FLOOR.user, "pin": "999999"}
        codes = [
            (await raw.ask({"id": i, "cmd": "status", "auth": wrong}))["error"]["code"] for i in range(12)
        ]
        assert codes == ["auth_failed"] * 4 + ["locked_out"] * 8
        # One record for the lockout, at once; the wrong PINs as one count per peer an interval.
        lockouts = [j for j in handler.journal if j.get("refused") == "locked_out"]
        assert len(lockouts) == 1 and len(handler.journal) == 1
        await server.flush_tally()
        counts = [j for j in handler.journal if j["cmd"] == "sign_in"]
        assert len(counts) == 1 and "11 wrong sign-in(s)" in counts[0]["message"]
        await server.flush_tally()
        assert len(handler.journal) == 2  # nothing new: nothing more journaled
        await raw.close()


@pytest.mark.asyncio
async def test_an_unknown_key_is_quoted_cut_short(short_dir: Path, users_file: Path) -> None:
    async with serving(short_dir, users_file) as (server, _):
        raw = await Raw.connect(server.socket_path)
        key = "k" * 20_000
        envelope = await raw.ask({"id": 1, "cmd": "status", key: 1})
        assert envelope["error"]["code"] == "bad_request"
        assert "(20000 characters)" in envelope["error"]["message"]
        assert len(envelope["error"]["message"]) < 300
        args = await raw.ask({"id": 2, "cmd": "list_rounds", "args": {key: 1}})
        assert args["error"]["code"] == "bad_args" and len(args["error"]["message"]) < 300
        await raw.close()
