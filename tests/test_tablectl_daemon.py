"""``tablectl``'s daemon commands against a real daemon on the bench rig.

The daemon runs in this process (``sim.bench_rig.BenchRig``: mock pins, the shoe and the shuffler
on pseudo-terminals, a real SQLite journal, a real Unix socket); ``tablectl`` runs as a real
subprocess, so the loop keeps serving it, and its output and exit status are what a technician sees.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import sys
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from controller.api_client import ApiClient, ApiError, Credentials
from controller.tablectl.describe import describe_status
from hw.serial_protocol import Frame
from sim.bench_rig import BenchRig, ScriptedDealer

REPO = Path(__file__).resolve().parent.parent
TECH_PIN = "480163"
FLOOR_PIN = "739251"


#: A following command's stacks on its standard error at SIGABRT: why it did not end, if it did not.
FAULTHANDLER = ("-X", "faulthandler")


async def ctrl_c(proc: asyncio.subprocess.Process, seconds: float = 30) -> tuple[bytes, bytes]:
    """Ctrl-C (SIGINT) to a command started with :data:`FAULTHANDLER`, and what it printed once
    it ended; still running after ``seconds``, the test fails with its stacks."""
    proc.send_signal(signal.SIGINT)
    try:
        return await asyncio.wait_for(proc.communicate(), seconds)
    except TimeoutError:
        proc.send_signal(signal.SIGABRT)
        _, err = await asyncio.wait_for(proc.communicate(), 10)
        pytest.fail(f"still running {seconds:g} s after Ctrl-C; its stacks:\n{err.decode(errors='replace')}")


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


async def tablectl(*args: str | Path, stdin: str = "", timeout: float = 20) -> Run:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "controller.tablectl",
        *map(str, args),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=REPO,
    )
    out, err = await asyncio.wait_for(proc.communicate(stdin.encode()), timeout)
    assert proc.returncode is not None
    return Run(proc.returncode, out.decode(), err.decode())


@pytest_asyncio.fixture
async def rig() -> AsyncIterator[BenchRig]:
    async with BenchRig() as bench:
        users = bench.path / "users.json"
        added = await tablectl(
            "user", "add", "tech1", "--role", "tech", "--users-file", users, stdin=f"{TECH_PIN}\n{TECH_PIN}\n"
        )
        assert added.code == 0, added.err
        added = await tablectl(
            "user", "add", "floor1", "--role", "floor", "--users-file", users, stdin=f"{FLOOR_PIN}\n" * 2
        )
        assert added.code == 0, added.err
        yield bench


def _no_pin(*runs: Run) -> None:
    for run in runs:
        for pin in (TECH_PIN, FLOOR_PIN):
            assert pin not in run.out and pin not in run.err


async def _play(rig: BenchRig, seed: int = 7) -> str:
    async with await ApiClient.connect(rig.socket) as api:
        dealer = ScriptedDealer(rig, api, random.Random(seed), say=lambda _line: None)
        summary = await dealer.play_round()
    assert summary["status"] == "settled"
    return str(summary["round"])


@pytest.mark.asyncio
async def test_status_in_words_and_json(rig: BenchRig) -> None:
    words = await tablectl("status", "--socket", rig.socket)
    assert words.code == 0, words.err
    assert "table CS-BENCH: caribbean-stud" in words.out
    assert "lock-out: open" in words.out and "shoe online" in words.out
    assert "link: not configured" in words.out and "pending payouts: none" in words.out
    # A new round waits for its wagers and the lock-out; the rules core says so.
    assert re.search(r"^  waiting for: .+", words.out, re.MULTILINE), words.out
    as_json = await tablectl("status", "--socket", rig.socket, "--json")
    assert as_json.code == 0
    status = json.loads(as_json.out)
    assert status["table"] == "CS-BENCH"
    assert status["link"] == {"configured": False} and status["pending_payouts"] == []
    assert status["round"]["waiting_for"] and status["round"]["waiting_for"] in words.out

    # The same daemon with a (disabled) progressive link configured: restarted, it says so.
    await rig.stop_daemon()
    with rig.config_path.open("a", encoding="utf-8") as config:
        config.write(
            '\n[progressive_link]\nhost = "localhost"\nsite = "bench"\nport = 1883\n'
            "tls = false\nenabled = false\n"
        )
    await rig.start_daemon()
    linked = await tablectl("status", "--socket", rig.socket)
    assert linked.code == 0, linked.err
    assert "link: central meter at localhost:1883, disabled" in linked.out
    linked_json = json.loads((await tablectl("status", "--socket", rig.socket, "--json")).out)
    assert linked_json["link"] == {"configured": True, "enabled": False, "host": "localhost", "port": 1883}


def test_status_in_words_names_each_payout_waiting_for_a_floorperson() -> None:
    status = {
        "table": "BJ-7",
        "game": "blackjack",
        "version": "0.1.0",
        "seq": 88,
        "locked_out": False,
        "round": {"id": "BJ-7-13", "wagers": [], "events": 0, "no_more_bets": False, "waiting_for": ""},
        "pending_payouts": [
            {
                "round": "BJ-7-12",
                "seat": 3,
                "wager": "progressive",
                "net": "+25000.00",
                "flags": ["floorperson_verification", "not_paid_from_inventory"],
            },
            {
                "round": "BJ-7-12",
                "seat": 5,
                "wager": "envy",
                "net": "+50.00",
                "flags": ["floorperson_validation"],
            },
        ],
        "link": {"configured": True, "enabled": True, "host": "meter.casino.internal", "port": 8883},
        "devices": {"shoe": {"state": "offline", "online": False}},
    }
    lines = list(describe_status(status))
    assert lines == [
        "table BJ-7: blackjack, daemon version 0.1.0",
        "round BJ-7-13: 0 wager(s), 0 event(s), wagering open",
        "lock-out: open",
        "devices: shoe offline",
        "link: central meter at meter.casino.internal:8883, enabled",
        "pending payouts (for a floorperson to verify): 2",
        "  round BJ-7-12 seat 3 progressive +25000.00 (floorperson_verification, not_paid_from_inventory)",
        "  round BJ-7-12 seat 5 envy +50.00 (floorperson_validation)",
        "journal: seq 88",
    ]


@pytest.mark.asyncio
async def test_an_unreachable_socket_exits_1_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "api.sock"
    for args in (("status",), ("rounds",), ("watch",), ("export", "r1"), ("sniff", "shoe")):
        run = await tablectl(*args, "--socket", missing)
        assert run.code == 1, args
        assert str(missing) in run.err and "is table-controller running?" in run.err
        assert run.out == ""


@pytest.mark.asyncio
async def test_rounds_recall_and_export_replay_to_the_recalled_settlement(rig: BenchRig) -> None:
    round_id = await _play(rig)
    journal = rig.path / "journal.sqlite"
    by_api = await tablectl("rounds", "--socket", rig.socket, "-n", "3")
    by_file = await tablectl("rounds", "--journal", journal, "-n", "3")
    assert by_api.code == by_file.code == 0
    assert by_api.out == by_file.out
    assert any(line.startswith(f"{round_id}  caribbean-stud  settled") for line in by_api.out.splitlines())

    recalled = await tablectl("recall", round_id, "--journal", journal)
    assert recalled.code == 0, recalled.err
    assert "Caribbean Stud" in recalled.out and "Settlement, in the order the dealer settles" in recalled.out
    via_api = await tablectl("recall", round_id, "--socket", rig.socket, "--user", "floor1", stdin=FLOOR_PIN)
    assert via_api.code == 0, via_api.err
    assert via_api.out == recalled.out

    record_file = rig.path / "round.json"
    exported = await tablectl(
        "export", round_id, "--socket", rig.socket, "--user", "tech1", "-o", record_file, stdin=TECH_PIN
    )
    assert exported.code == 0, exported.err
    from_file = await tablectl("export", round_id, "--journal", journal)
    assert json.loads(from_file.out) == json.loads(record_file.read_text())
    replayed = await tablectl("replay", record_file)
    assert replayed.code == 0, replayed.err
    daemon = rig.daemon
    assert daemon is not None and daemon.journal is not None
    summary = (await daemon.journal.recall(round_id)).summary
    assert json.loads(replayed.out) == summary.settlement
    _no_pin(via_api, exported)


@pytest.mark.asyncio
async def test_recall_needs_a_floorperson_and_an_unknown_round_is_bad_input(rig: BenchRig) -> None:
    unsigned = await tablectl("recall", "r1", "--socket", rig.socket)
    assert unsigned.code == 1 and "auth_required" in unsigned.err
    wrong = await tablectl("recall", "r1", "--socket", rig.socket, "--user", "floor1", stdin="111999")
    assert wrong.code == 1 and "auth_failed" in wrong.err and "111999" not in wrong.err
    unknown = await tablectl("recall", "r999", "--journal", rig.path / "journal.sqlite")
    assert unknown.code == 2 and "no round 'r999'" in unknown.err
    no_journal = await tablectl("rounds", "--journal", rig.path / "nothing.sqlite")
    assert no_journal.code == 1 and "no journal there" in no_journal.err
    both = await tablectl("rounds", "--journal", "j", "--socket", "s")
    assert both.code == 2 and "not allowed with" in both.err


@pytest.mark.asyncio
async def test_journal_export_is_every_record_as_json_lines(rig: BenchRig) -> None:
    await _play(rig)
    journal = rig.path / "journal.sqlite"
    before = journal.stat().st_mtime_ns
    run = await tablectl("journal", "export", "--journal", journal)
    assert run.code == 0, run.err
    lines = [json.loads(line) for line in run.out.splitlines()]
    daemon = rig.daemon
    assert daemon is not None
    assert [r["seq"] for r in lines] == list(range(1, daemon.state.last_seq + 1))
    assert {"round_begin", "round_settled"} <= {r["kind"] for r in lines}
    assert journal.stat().st_mtime_ns == before  # read-only
    out = rig.path / "all.jsonl"
    to_file = await tablectl("journal", "export", "--journal", journal, "-o", out)
    assert to_file.code == 0 and to_file.out == ""
    assert out.read_text() == run.out


@pytest.mark.asyncio
async def test_watch_prints_live_events_until_interrupted(rig: BenchRig) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        *FAULTHANDLER,
        "-m",
        "controller.tablectl",
        "watch",
        "--socket",
        str(rig.socket),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=REPO,
    )
    assert proc.stdout is not None
    first = await asyncio.wait_for(proc.stdout.readline(), 10)
    assert first.startswith(b"now    table CS-BENCH")
    async with await ApiClient.connect(rig.socket) as api:
        await api.submit_event({"type": "wager", "seat": 2, "wager": "ante", "amount": "10.00"})
    seen = b""
    while b"event  seq" not in seen:
        seen += await asyncio.wait_for(proc.stdout.readline(), 10)
    assert b'"wager":"ante"' in seen
    await ctrl_c(proc)
    assert proc.returncode == 0


@pytest.mark.asyncio
async def test_lamp_and_test_frame_for_a_technician_with_the_pin_from_stdin(rig: BenchRig) -> None:
    daemon = rig.daemon
    assert daemon is not None and daemon.gpio is not None
    on = await tablectl("lamp", "2", "won", "on", "--socket", rig.socket, "--user", "tech1", stdin=TECH_PIN)
    assert on.code == 0, on.err
    assert on.out == "seat 2 won lamp: on\n"
    assert str(daemon.gpio.status().lamps["seats.2.won_lamp"]) != "off"
    off = await tablectl("lamp", "2", "won", "off", "--socket", rig.socket, "--user", "tech1", stdin=TECH_PIN)
    assert off.code == 0 and str(daemon.gpio.status().lamps["seats.2.won_lamp"]) == "off"
    no_lamp = await tablectl(
        "lamp", "9", "accepted", "on", "--socket", rig.socket, "--user", "tech1", stdin=TECH_PIN
    )
    assert no_lamp.code == 2 and "no lamp 'seats.9.wager_lamp'" in no_lamp.err
    floor = await tablectl(
        "lamp", "2", "won", "on", "--socket", rig.socket, "--user", "floor1", stdin=FLOOR_PIN
    )
    assert floor.code == 1 and "forbidden" in floor.err

    frame = await tablectl("test-frame", "shoe", "--socket", rig.socket, "--user", "tech1", stdin=TECH_PIN)
    assert frame.code == 0, frame.err
    assert frame.out.startswith("shoe: test frame echoed in ")
    absent = await tablectl("test-frame", "reader", "--socket", rig.socket, "--user", "tech1", stdin=TECH_PIN)
    assert absent.code == 1 and "the reader is not connected" in absent.err
    no_pin = await tablectl("test-frame", "shoe", "--socket", rig.socket, "--user", "tech1")
    assert no_pin.code == 2 and "no PIN" in no_pin.err
    bad = await tablectl("lamp", "0", "won", "on")
    assert bad.code == 2 and "not a seat" in bad.err
    _no_pin(on, off, no_lamp, floor, frame, absent, no_pin)


@pytest.mark.asyncio
async def test_user_add_and_remove(tmp_path: Path) -> None:
    users = tmp_path / "users.json"
    added = await tablectl(
        "user", "add", "mfloor", "--role", "floor", "--users-file", users, stdin="205816\n205816\n"
    )
    assert added.code == 0, added.err
    assert added.out == f"added user mfloor (floor) in {users}\n"
    assert os.stat(users).st_mode & 0o777 == 0o600
    assert "205816" not in users.read_text()
    differ = await tablectl(
        "user", "add", "x1", "--role", "tech", "--users-file", users, stdin="205816\n205817\n"
    )
    assert differ.code == 2 and "the two PINs differ" in differ.err
    weak = await tablectl(
        "user", "add", "x1", "--role", "tech", "--users-file", users, stdin="123456\n123456\n"
    )
    assert weak.code == 2 and "123456" not in weak.out
    again = await tablectl(
        "user", "add", "mfloor", "--role", "tech", "--users-file", users, stdin="205816\n205816\n"
    )
    assert again.code == 2 and "exists already" in again.err
    role = await tablectl("user", "add", "x1", "--role", "boss", "--users-file", users)
    assert role.code == 2 and "invalid choice" in role.err
    removed = await tablectl("user", "remove", "mfloor", "--users-file", users)
    assert removed.code == 0 and removed.out == f"removed user mfloor (floor) from {users}\n"
    gone = await tablectl("user", "remove", "mfloor", "--users-file", users)
    assert gone.code == 2 and "no user 'mfloor'" in gone.err
    for run in (added, differ, again, removed):
        assert "205816" not in run.out + run.err


@pytest.mark.asyncio
async def test_check_tells_the_daemon_config_from_a_rules_submission(rig: BenchRig) -> None:
    good = await tablectl("check", rig.config_path)
    assert good.code == 0, good.err
    assert "the daemon's configuration: valid" in good.out
    broken = rig.path / "broken.toml"
    broken.write_text(rig.config_path.read_text().replace("[journal]", "[journal]\nsynchronus = 1"))
    bad = await tablectl("check", broken)
    assert bad.code == 1 and "synchronus" in bad.err
    submission = await tablectl("check", rig.path / "rules-submission.toml")
    assert submission.code == 0 and "table CS-BENCH, Caribbean Stud" in submission.out
    # The package's layout: the defaults without [table] (a conffile), the table's answers in
    # table-controller.d/10-table.toml beside it (docs/install.md); checked together.
    layered = rig.path / "layered"
    (layered / "table-controller.d").mkdir(parents=True)
    defaults: list[str] = []
    table: list[str] = []
    into = defaults
    for line in rig.config_path.read_text().splitlines(keepends=True):
        if line.startswith("["):
            into = table if line.startswith("[table]") else defaults
        into.append(line)
    (layered / "table-controller.toml").write_text("".join(defaults))
    (layered / "table-controller.d" / "10-table.toml").write_text("".join(table))
    assert table and "[table]" not in "".join(defaults)
    split = await tablectl("check", layered / "table-controller.toml")
    assert split.code == 0 and "the daemon's configuration: valid" in split.out, split.err
    (layered / "table-controller.d" / "10-table.toml").unlink()
    alone = await tablectl("check", layered / "table-controller.toml")
    assert alone.code == 1 and "[table]: missing" in alone.err


# --- sniff -----------------------------------------------------------------------------------------

#: A sniffed frame's line: the time (UTC, ms), in or out, then the frame.
FRAME_LINE = re.compile(r"^\d\d:\d\d:\d\d\.\d{3} (in |out) (\S.*)$")


async def _sniffing(rig: BenchRig, *args: str) -> asyncio.subprocess.Process:
    """``tablectl sniff`` as a technician, once it has said it is sniffing (subscribed)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        *FAULTHANDLER,
        "-m",
        "controller.tablectl",
        "sniff",
        *args,
        "--socket",
        str(rig.socket),
        "--user",
        "tech1",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=REPO,
    )
    assert proc.stdin is not None and proc.stderr is not None
    proc.stdin.write(TECH_PIN.encode() + b"\n")
    await proc.stdin.drain()
    proc.stdin.close()
    said = await asyncio.wait_for(proc.stderr.readline(), 10)
    assert said.startswith(b"sniffing the "), said
    return proc


@pytest.mark.asyncio
async def test_sniff_shows_the_shoes_frames_both_ways_until_interrupted(rig: BenchRig) -> None:
    assert rig.shoe is not None and rig.daemon is not None
    proc = await _sniffing(rig, "shoe")
    assert proc.stdout is not None
    sent = await rig.shoe.read_cards("As Kd Qh")
    tested = asyncio.create_task(
        tablectl("test-frame", "shoe", "--socket", rig.socket, "--user", "tech1", stdin=TECH_PIN)
    )
    lines: list[str] = []
    while not (
        sum("CRD|" in line for line in lines) == 3
        and any(" out TST|" in line for line in lines)
        and any(" in  TST|" in line for line in lines)
    ):
        line = (await asyncio.wait_for(proc.stdout.readline(), 10)).decode()
        assert FRAME_LINE.match(line.rstrip("\n")), line
        lines.append(line.rstrip("\n"))
    assert (await tested).code == 0
    # The shoe's cards as it sent them, in order; the test frame out and its echo in.
    shown = [m.groups() for m in map(FRAME_LINE.match, lines) if m is not None]
    assert [frame for _, frame in shown if frame.startswith("CRD|")] == [str(f) for f in sent]
    assert {direction for direction, frame in shown if frame.startswith("CRD|")} == {"in "}
    assert any(re.search(r" in  TST\|\d+\|\d+\|TEST$", line) for line in lines)
    out, err = await ctrl_c(proc)
    assert proc.returncode == 0, err
    assert TECH_PIN.encode() not in out + err
    # Only the shoe's frames: the shuffler's heartbeats are not shown.
    assert "SIM-SHUFFLER" not in "\n".join(lines)


@pytest.mark.asyncio
async def test_sniff_stops_after_count_or_seconds_and_shows_bytes_raw(rig: BenchRig) -> None:
    assert rig.shoe is not None
    proc = await _sniffing(rig, "shoe", "--count", "2", "--raw")
    sent = [await rig.shoe.send("CRD", card) for card in ("2c", "3d")]
    out, err = await asyncio.wait_for(proc.communicate(), 10)
    assert proc.returncode == 0, err
    lines = out.decode().splitlines()
    assert len(lines) == 2
    shown = [FRAME_LINE.match(line) for line in lines]
    assert all(m is not None and m.group(1) == "in " for m in shown), lines
    # Each line is a frame's bytes: the cards sent (a heartbeat STS may come between them).
    decoder = rig.shoe.codec.new_decoder()
    frames = decoder.feed(b"".join(bytes.fromhex(m.group(2)) for m in shown if m is not None))
    assert len(frames) == 2 and {f.type for f in frames if isinstance(f, Frame)} <= {"CRD", "STS"}
    assert frames[0] in sent or frames[1] in sent
    timed = await tablectl(
        "sniff", "shoe", "--seconds", "0.3", "--socket", rig.socket, "--user", "tech1", stdin=TECH_PIN
    )
    assert timed.code == 0, timed.err
    assert all(FRAME_LINE.match(line) for line in timed.out.splitlines())


@pytest.mark.asyncio
async def test_sniff_refuses_an_unknown_device_and_anyone_but_a_technician(rig: BenchRig) -> None:
    typo = await tablectl("sniff", "sheo", "--socket", rig.socket, "--user", "tech1", stdin=TECH_PIN)
    assert typo.code == 2 and "no device 'sheo'; did you mean 'shoe'?" in typo.err
    assert typo.out == ""
    absent = await tablectl("sniff", "reader", "--socket", rig.socket, "--user", "tech1", stdin=TECH_PIN)
    assert absent.code == 2
    assert "the reader is not configured on this table (its serial devices: shoe, shuffler)" in absent.err
    floor = await tablectl("sniff", "shoe", "--socket", rig.socket, "--user", "floor1", stdin=FLOOR_PIN)
    assert floor.code == 1 and "forbidden" in floor.err and "is for a slot technician" in floor.err
    unsigned = await tablectl("sniff", "shoe", "--socket", rig.socket)
    assert unsigned.code == 1 and "auth_required" in unsigned.err
    wrong = await tablectl("sniff", "shoe", "--socket", rig.socket, "--user", "tech1", stdin="111999")
    assert wrong.code == 1 and "auth_failed" in wrong.err
    bad = await tablectl("sniff", "shoe", "--seconds", "0")
    assert bad.code == 2 and "more than 0" in bad.err
    _no_pin(typo, absent, floor, unsigned, wrong)


@pytest.mark.asyncio
async def test_the_dealers_station_may_not_subscribe_to_frames_and_the_refusal_is_journaled(
    rig: BenchRig,
) -> None:
    daemon = rig.daemon
    assert daemon is not None and daemon.journal is not None and daemon.api is not None
    async with await ApiClient.connect(rig.socket) as dealer:
        await dealer.subscribe()  # every open topic: allowed, and frames are not among them
        assert not daemon.api.has_subscribers("frames")
        with pytest.raises(ApiError) as info:
            await dealer.subscribe(["state", "frames"])
        assert info.value.code == "auth_required"
        assert "the topic 'frames' is for a slot technician" in info.value.message
        with pytest.raises(ApiError) as info:
            await dealer.subscribe(["frames"], auth=Credentials("floor1", FLOOR_PIN))
        assert info.value.code == "forbidden"
        assert not daemon.api.has_subscribers("frames")
    # A refusal is journaled just after it is answered: wait for both.
    refused: list[Mapping[str, Any]] = []
    for _ in range(200):
        refused = [
            r.body
            for r in await daemon.journal.records()
            if r.kind == "command"
            and r.body.get("command") == "subscribe"
            and "refused" in r.body.get("args", {})
        ]
        if len(refused) >= 2:
            break
        await asyncio.sleep(0.01)
    assert [(b["role"], b["args"]["refused"]) for b in refused] == [
        ("dealer", "auth_required"),
        ("floor", "forbidden"),
    ]
