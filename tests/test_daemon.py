"""The daemon end to end on the bench rig: real pseudo-terminals for the shoe and the shuffler,
gpiozero's MockFactory pins driven from a worker thread, a real SQLite journal, the local API on a
real Unix socket, and ``table-controller`` as a real process for its exit codes and SIGTERM.

The cards are those of examples/caribbean-stud/normal-round.json, so the settlement is the
example's (§ 639a.11, § 639a.12).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from controller.api_client import ApiClient, ApiConnectionError, ApiError, Credentials, request
from controller.auth import Role, make_user, save_users
from controller.config import load_config
from controller.daemon import Daemon, load_submission, main
from controller.journal import Journal
from controller.sd_notify import Notifier
from sim.bench_rig import RULES_SUBMISSION, BenchRig, config_text

REPO = Path(__file__).resolve().parent.parent

SEAT_1 = "2c 7d 9s Jh 4c"
SEAT_3 = "Kh Kd 8c 8s 2h"
DEALER = "As Ks 9d 6c 4h"


def _daemon(rig: BenchRig) -> Daemon:
    assert rig.daemon is not None
    return rig.daemon


async def _antes(api: ApiClient, rig: BenchRig) -> None:
    await api.submit_event({"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"})
    await api.submit_event({"type": "wager", "seat": 3, "wager": "ante", "amount": "25.00"})
    await api.submit_event({"type": "wager", "seat": 3, "wager": "bonus", "amount": "5.00"})
    await rig.place_chip(1)


def _kinds(daemon: Daemon) -> list[tuple[str, str, str]]:
    current = daemon.state.current
    assert current is not None
    return [(e.type, str(e.seat or e.to or ""), e.wager or "") for e in current.events]


@pytest.mark.asyncio
async def test_a_full_round_from_wagers_to_settlement(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    async with await ApiClient.connect(rig.socket) as api:
        state = await api.subscribe(["event"])
        round_id = state["round"]["id"]
        await _antes(api, rig)
        # Until the lock-out the progressive chip is only counted, not yet a wager.
        assert daemon.gpio is not None and daemon.gpio.accepted_by_seat[1] == 1
        await rig.press_lock_out()
        assert _kinds(daemon)[-2:] == [("wager", "1", "progressive"), ("no_more_bets", "", "")]
        assert daemon.gpio.locked
        await rig.deal(1, SEAT_1)
        await rig.deal(3, SEAT_3)
        await rig.deal("dealer", DEALER)
        await api.submit_event({"type": "decision", "seat": 1, "action": "fold"})
        result = await api.submit_event({"type": "decision", "seat": 3, "action": "bet"})
        assert result["round"] == round_id and result["next_round"] != round_id

        rounds = (await api.list_rounds(2))["rounds"]
        settled = next(r for r in rounds if r["round"] == round_id)
        seats = settled["settlement"]["seats"]
        assert seats["3"]["ante"]["net"] == "+25.00"
        assert seats["3"]["bet"]["net"] == "+100.00"
        assert seats["3"]["bonus"]["net"] == "+15.00"
        assert seats["1"]["ante"]["net"] == "-10.00"
        assert seats["1"]["progressive"] == {"result": "lose", "net": "-1.00", "stake": "1.00"}

        # The subscriber saw every record, the cards from the shoe and the settlement among them.
        notes: list[dict[str, Any]] = []
        async with asyncio.timeout(2):
            async for note in api.notifications():
                if note.topic == "event":
                    notes.append(dict(note.data))
                if notes and notes[-1]["kind"] == "round_begin" and notes[-1]["round"] != round_id:
                    break
        sources = {(n["kind"], n["source"]) for n in notes}
        assert ("event", "shoe") in sources and ("event", "gpio") in sources
        assert ("round_settled", "daemon") in sources

    assert daemon.journal is not None
    recalled = await daemon.journal.recall(round_id)
    assert recalled.consistent and recalled.replayed is not None
    # Wagering is open again for the next round.
    assert daemon.gpio is not None and not daemon.gpio.locked


@pytest.mark.asyncio
async def test_a_wager_sensed_after_the_lock_out_is_refused(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    async with await ApiClient.connect(rig.socket) as api:
        await _antes(api, rig)
        await rig.press_lock_out()
        await rig.place_chip(3)  # § 639a.2(c)(2): after "no more bets"
        assert daemon.gpio is not None and daemon.gpio.refused_by_seat[3] == 1
        assert daemon.journal is not None
        last = (await daemon.journal.records(daemon.state.last_seq - 1))[-1]
        assert last.kind == "refused" and last.source == "gpio"
        assert "§ 639a.7(c)" in last.body["reason"]
        assert last.body["entry"]["body"]["wager"] == "progressive"
        current = daemon.state.current
        assert current is not None
        assert [(w.seat, w.wager) for w in current.wagers()] == [
            (1, "ante"),
            (3, "ante"),
            (3, "bonus"),
            (1, "progressive"),
        ]
        # The same through the API: refused with the rules' reason, the connection goes on.
        with pytest.raises(ApiError) as refused:
            await api.submit_event({"type": "wager", "seat": 5, "wager": "ante", "amount": "10.00"})
        assert refused.value.code == "refused" and "§ 639a.7(c)" in refused.value.message
        assert (await api.status())["round"]["no_more_bets"] is True


@pytest.mark.asyncio
async def test_a_shoe_jam_voids_the_round(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    save_users(rig.path / "users.json", {"mfloor": make_user("mfloor", Role.FLOOR, "482916")})
    async with await ApiClient.connect(rig.socket) as api:
        round_id = (await api.status())["round"]["id"]
        await _antes(api, rig)
        await rig.press_lock_out()
        await rig.deal(1, SEAT_1)
        await rig.jam()
        # The jam voids a round with wagers in play: it waits for a floorperson's PIN.
        status = await api.status()
        assert status["round"]["id"] == round_id
        assert "a floorperson to confirm" in status["round"]["waiting_for"]
        assert "shoe_jam" in status["round"]["waiting_for"]
        with pytest.raises(ApiError) as waiting:
            await api.submit_event({"type": "decision", "seat": 1, "action": "fold"})
        assert waiting.value.code == "forbidden" and "floorperson" in waiting.value.message
        jam = {"type": "irregularity", "kind": "shoe_jam", "detail": "confirmed: the shoe jammed"}
        await api.submit_event(jam, Credentials("mfloor", "482916"))
        rounds = (await api.list_rounds(2))["rounds"]
        settled = next(r for r in rounds if r["round"] == round_id)
        settlement = settled["settlement"]
        assert "§ 639a.13(f)" in settlement["void"] or "jam" in settlement["void"]
        results = {
            (s, w, o["result"], o["net"]) for s, ws in settlement["seats"].items() for w, o in ws.items()
        }
        assert results == {
            ("1", "ante", "void", "0.00"),
            ("1", "progressive", "void", "0.00"),
            ("3", "ante", "void", "0.00"),
            ("3", "bonus", "void", "0.00"),
        }
        status = await api.status()
        assert status["round"]["id"] != round_id and status["round"]["events"] == 0
        assert daemon.gpio is not None and not daemon.gpio.locked


@pytest.mark.asyncio
async def test_garbage_from_the_shoe_journals_nothing_and_the_deal_goes_on(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    assert rig.shoe is not None
    async with await ApiClient.connect(rig.socket) as api:
        await _antes(api, rig)
        await rig.press_lock_out()
        seq = daemon.state.last_seq
        rng = random.Random(5)
        for size in (1, 7, 64, 300):
            await rig.shoe.send_garbage(size, rng)
        await rig.shoe.send_corrupted("CRD", 99, "As")
        await rig.settle()
        assert daemon.state.last_seq == seq
        # The corrupted frame took a sequence number: a card of this stack may be lost, so the
        # stack is not used and the dealer keys the cards in (§ 639a.13(g)); the next one is clean.
        await rig.shoe.deal(1, SEAT_1)
        await rig.wait_for(lambda: bool(daemon.refusals) and "incomplete" in daemon.refusals[-1])
        await rig.settle()
        # Journaled as hardware facts only (issue 9, item 7): the frames lost, the stack not used.
        assert daemon.journal is not None
        facts = await daemon.journal.records(seq)
        assert sorted((r.kind, r.source, r.body["fact"]) for r in facts) == [
            ("hardware_fact", "shoe", "frames_lost"),
            ("hardware_fact", "shoe", "incomplete_stack"),
        ]
        stack = next(r for r in facts if r.body["fact"] == "incomplete_stack")
        assert stack.body["detail"] == {"position": "1", "count": 5, "received": 5}
        assert daemon.state.stack_to_key == ("1", 5)
        await api.submit_event({"type": "cards", "to": 1, "cards": SEAT_1})
        await rig.deal(3, SEAT_3)
        current = daemon.state.current
        assert current is not None
        assert [(e.type, e.to, " ".join(map(str, e.cards))) for e in current.events[-2:]] == [
            ("cards", "1", SEAT_1),
            ("cards", "3", SEAT_3),
        ]


@pytest.mark.asyncio
async def test_a_part_that_fails_to_stop_does_not_keep_the_others_open(
    rig: BenchRig, caplog: pytest.LogCaptureFixture
) -> None:
    """Shutdown releases every part even if one before it fails, then raises the first failure:
    the pins go out and the journal's lock is released, so the restarted daemon can open it."""
    daemon = _daemon(rig)
    api = daemon.api
    assert api is not None
    close = api.close

    async def close_then_fail() -> None:
        await close()
        raise RuntimeError("the socket's directory is gone")

    api.close = close_then_fail  # type: ignore[method-assign]
    path, table = daemon.config.journal.path, daemon.config.table.id
    with pytest.raises(RuntimeError, match="the socket's directory is gone"):
        await daemon.stop()
    assert "shutting down: stop api failed" in caplog.text
    assert daemon.api is None and daemon.devices == {} and daemon.gpio is None and daemon.journal is None
    assert not daemon.healthy()
    async with await Journal.open(path, table) as journal:  # not JournalBusy: the lock is released
        assert journal.state.current is not None


@pytest.mark.asyncio
async def test_restart_recovers_the_round_from_the_journal(rig: BenchRig) -> None:
    async with await ApiClient.connect(rig.socket) as api:
        round_id = (await api.status())["round"]["id"]
        await _antes(api, rig)
        await rig.press_lock_out()
        await rig.deal(1, SEAT_1)
    before = _kinds(_daemon(rig))
    await rig.stop_daemon()

    daemon = await rig.start_daemon()
    current = daemon.state.current
    assert current is not None and current.round_id == round_id
    assert _kinds(daemon) == before
    # Mid-round the lock-out holds: the chip still on seat 1's device is not a new wager.
    assert daemon.gpio is not None and daemon.gpio.locked and daemon.gpio.accepted_by_seat[1] == 1
    async with await ApiClient.connect(rig.socket) as api:
        await rig.deal(3, SEAT_3)
        await rig.deal("dealer", DEALER)
        await api.submit_event({"type": "decision", "seat": 1, "action": "fold"})
        await api.submit_event({"type": "decision", "seat": 3, "action": "bet"})
        rounds = (await api.list_rounds(2))["rounds"]
    settled = next(r for r in rounds if r["round"] == round_id)
    assert settled["settlement"]["seats"]["3"]["bet"]["net"] == "+100.00"


@pytest.mark.asyncio
async def test_ready_and_watchdog_are_sent_to_systemd(tmp_path: Path) -> None:
    notify = tmp_path / "notify"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify))
    listener.setblocking(False)
    async with BenchRig() as bench:
        config = load_config(bench.config_path)
        await bench.stop_daemon()
        daemon = Daemon(
            config,
            load_submission(config),
            pin_factory=bench.factory,
            notifier=Notifier.from_environ(
                {"NOTIFY_SOCKET": str(notify), "WATCHDOG_USEC": "100000", "WATCHDOG_PID": str(os.getpid())}
            ),
        )
        await daemon.start()
        messages: list[str] = []
        try:
            async with asyncio.timeout(2):
                while not {"READY=1", "WATCHDOG=1"} <= set(messages):
                    try:
                        messages.extend(listener.recv(4096).decode().splitlines())
                    except BlockingIOError:
                        await asyncio.sleep(0.01)
        finally:
            await daemon.stop()
            listener.close()
    assert messages.index("READY=1") >= 0
    assert "STOPPING=1" not in messages[: messages.index("READY=1")]


def test_a_bad_configuration_exits_2_listing_every_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.toml"
    text = (
        config_text(tmp_path)
        .replace("[journal]", "[journl]")
        .replace("debounce_ms = 20", "debounce_ms = 9999")
    )
    path.write_text(text)
    assert main(["--config", str(path)]) == 78  # EX_CONFIG: systemd does not restart it
    err = capsys.readouterr().err
    assert "journl" in err and "debounce_ms" in err


def _daemon_files(tmp_path: Path) -> tuple[Path, Path]:
    directory = Path(os.path.realpath(tmp_path))
    (directory / "rules-submission.toml").write_text(RULES_SUBMISSION)
    config = directory / "table-controller.toml"
    config.write_text(config_text(directory))
    sock = directory / "run" / "api.sock"
    if len(str(sock)) > 107:
        pytest.skip("temporary directory too deep for a Unix socket")
    return config, sock


def _spawn(config: Path, sock: Path) -> subprocess.Popen[str]:
    """``table-controller --mock-pins`` as a real process; returns once its API answers."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.daemon", "--config", str(config), "--mock-pins"],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 20
    while True:
        if proc.poll() is not None:
            pytest.fail(f"the daemon exited {proc.returncode}: {proc.stderr.read() if proc.stderr else ''}")
        try:
            request(sock, "status", timeout=1)
            return proc
        except ApiConnectionError:
            assert time.monotonic() < deadline, "the daemon did not start"
            time.sleep(0.05)


def _reap(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    if proc.stderr is not None:
        proc.stderr.close()


def test_sigterm_shuts_the_daemon_down_cleanly(tmp_path: Path) -> None:
    config, sock = _daemon_files(tmp_path)
    proc = _spawn(config, sock)
    try:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        _reap(proc)
    assert not sock.exists()  # the API removed its socket
    assert (config.parent / "journal.sqlite").exists()


def test_after_kill_9_the_restarted_daemon_goes_on_with_the_round(tmp_path: Path) -> None:
    config, sock = _daemon_files(tmp_path)
    proc = _spawn(config, sock)
    try:
        round_id = request(sock, "status")["round"]["id"]
        ante = {"type": "wager", "seat": 2, "wager": "ante", "amount": "15.00"}
        request(sock, "submit_event", {"event": ante})
        request(sock, "submit_event", {"event": {"type": "no_more_bets"}})
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=20)
    finally:
        _reap(proc)
    # The socket file is left behind by kill -9; the next daemon replaces it.
    proc = _spawn(config, sock)
    try:
        status = request(sock, "status")
        assert status["round"]["id"] == round_id and status["round"]["no_more_bets"] is True
        assert status["round"]["wagers"] == [ante]
        assert status["gpio"]["locked"] is True
        with pytest.raises(ApiError) as refused:
            request(sock, "submit_event", {"event": {**ante, "seat": 3}})
        assert "§ 639a.7(c)" in refused.value.message
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        _reap(proc)


@pytest.mark.asyncio
async def test_a_progressive_hit_lights_the_lamps_until_the_floorperson_validates_it(rig: BenchRig) -> None:
    """§ 639a.11(c)(5)(ii): the dealer verifies the progressive light; (iii) a floorperson or above
    validates the payout. The won lamp blinks and the floorperson light is on until then."""
    daemon = _daemon(rig)
    users = rig.path / "users.json"
    save_users(users, {"mfloor": make_user("mfloor", Role.FLOOR, "482916")})
    floor = Credentials("mfloor", "482916")
    async with await ApiClient.connect(rig.socket) as api:
        round_id = (await api.status())["round"]["id"]
        await _antes(api, rig)
        await rig.press_lock_out()
        await rig.deal(1, "2c 7c 9c Jc 4c")  # a flush: 50 for 1 on the Progressive (paytable B)
        await rig.deal(3, SEAT_3)
        await rig.deal("dealer", DEALER)
        await api.submit_event({"type": "decision", "seat": 1, "action": "bet"})
        await api.submit_event({"type": "decision", "seat": 3, "action": "bet"})
        await rig.lift_chip(1)

        status = await api.status()
        assert status["round"]["id"] != round_id
        assert status["pending_payouts"] == [
            {
                "round": round_id,
                "seat": 1,
                "wager": "progressive",
                "net": "+49.00",
                "flags": ["floorperson_validation"],
            }
        ]
        lamps = status["gpio"]["lamps"]
        assert lamps["seats.1.won_lamp"] == "blinking" and lamps["seats.3.won_lamp"] == "off"
        assert lamps["floorperson_light"] == "steady"

    # A power cut now: the restarted daemon lights them again from the journal.
    await rig.stop_daemon()
    daemon = await rig.start_daemon()
    async with await ApiClient.connect(rig.socket) as api:
        status = await api.status()
        assert [p["round"] for p in status["pending_payouts"]] == [round_id]
        lamps = status["gpio"]["lamps"]
        assert lamps["seats.1.won_lamp"] == "blinking" and lamps["floorperson_light"] == "steady"

        # The dealer cannot validate it; a floorperson can, once.
        with pytest.raises(ApiError, match="for a floorperson"):
            await api.submit_event({"type": "verification", "seat": 1, "wager": "progressive"})
        with pytest.raises(ApiError, match="no payout of seat 3 progressive waits"):
            await api.submit_event({"type": "verification", "seat": 3, "wager": "progressive"}, auth=floor)
        verified = await api.submit_event(
            {"type": "verification", "seat": 1, "wager": "progressive"}, auth=floor
        )
        assert verified["verified"] == {"round": round_id, "seat": 1, "wager": "progressive", "net": "+49.00"}
        assert verified["pending"] == []
        with pytest.raises(ApiError, match="no payout of seat 1 progressive waits"):
            await api.submit_event({"type": "verification", "seat": 1, "wager": "progressive"}, auth=floor)
        lamps = (await api.status())["gpio"]["lamps"]
        assert lamps["floorperson_light"] == "off" and lamps["seats.1.won_lamp"] == "blinking"

        # The next round's lock-out puts the won lamp out.
        await api.submit_event({"type": "wager", "seat": 3, "wager": "ante", "amount": "5.00"})
        await rig.press_lock_out()
        lamps = (await api.status())["gpio"]["lamps"]
        assert lamps["seats.1.won_lamp"] == "off"

    assert daemon.journal is not None
    records = await daemon.journal.records()
    verifications = [r for r in records if r.kind == "payout_verified"]
    assert [(r.source, r.actor, dict(r.body)) for r in verifications] == [
        ("floor", "mfloor", {"round": round_id, "seat": 1, "wager": "progressive"})
    ]
    # The hit's round, recalled for a dispute, shows who validated it.
    recalled = await daemon.journal.recall(round_id)
    assert [(r.actor, r.body["seat"]) for r in recalled.verifications] == [("mfloor", 1)]
    # Recovery folds the verification back: nothing waits after a restart either.
    assert (await daemon.journal.verify()).pending_payouts() == ()


@pytest.mark.asyncio
async def test_a_sensed_chip_is_the_rules_submissions_progressive_wager(rig: BenchRig) -> None:
    """The sensor knows a chip is there, not its value: the Rules Submission's ``progressive.wager``
    says what one chip on the wagering device is (§ 639a.7(d)(2), § 639a.8(b))."""
    await rig.stop_daemon()
    rules = rig.path / "rules-submission.toml"
    rules.write_text(
        RULES_SUBMISSION.replace('progressive.wager = "1.00"', 'progressive.wager = "5.00"'), encoding="utf-8"
    )
    # A new journal: the round open in the old one keeps the rules it began with (its
    # progressive.wager of 1.00, which the rules core holds every progressive wager of it to).
    for name in ("journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm"):
        (rig.path / name).unlink(missing_ok=True)
    daemon = await rig.start_daemon()
    async with await ApiClient.connect(rig.socket) as api:
        await api.submit_event({"type": "wager", "seat": 2, "wager": "ante", "amount": "10.00"})
        await rig.place_chip(2)
        await rig.press_lock_out()
        wagers = (await api.status())["round"]["wagers"]
    assert {"type": "wager", "seat": 2, "wager": "progressive", "amount": "5.00"} in wagers
    assert daemon.progressive_wager == 500
