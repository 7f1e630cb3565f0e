"""Trust at the table (issue 9): who may say what, a lock-out that cannot be raced, no hardware
event dropped, hardware facts journaled, idempotent requests, clear errors.

The daemon runs on the bench rig (mock pins, the shoe and the shuffler on pseudo-terminals, the
local API on a real socket); the races drive the pins from a worker thread, as gpiozero does.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from controller.api.limits import RateLimiter
from controller.api_client import ApiClient, ApiError, Credentials, request
from controller.daemon import Daemon, main
from controller.journal import JournalWriteError
from controller.journal.records import JournalRecord
from controller.rules.core.events import Event
from controller.table import write_failures
from controller.table.authority import AUTHORITY
from sim.bench_rig import LOCK_OUT_PIN, RULES_SUBMISSION, SEAT_PINS, BenchRig, config_text

SEAT_1 = "2c 7d 9s Jh 4c"
SEAT_3 = "Kh Kd 8c 8s 2h"
DEALER = "As Ks 9d 6c 4h"
FLOOR = Credentials("mfloor", "482916")
TECH = Credentials("tmtech", "731905")
ANTE_1 = {"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"}
RACES = int(os.environ.get("RACE_TRIES", "100"))


def _daemon(rig: BenchRig) -> Daemon:
    assert rig.daemon is not None
    return rig.daemon


async def _records_since(daemon: Daemon, seq: int) -> list[JournalRecord]:
    assert daemon.journal is not None
    return await daemon.journal.records(seq)


async def _refused(call: Any) -> ApiError:
    with pytest.raises(ApiError) as refused:
        await call
    return refused.value


# --- who may say what ------------------------------------------------------------------------------


def test_the_authority_table_names_every_fact_once() -> None:
    assert AUTHORITY["wager progressive"].sources == {"gpio"}
    assert AUTHORITY["cards"].sources == {"shoe"}
    assert "dealer-ui" not in AUTHORITY["irregularity of a device"].sources
    for authority in AUTHORITY.values():
        assert authority.section.startswith("§") or "rules" in authority.section, authority


@pytest.mark.asyncio
async def test_the_dealer_cannot_create_a_progressive_wager(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    async with await ApiClient.connect(rig.socket) as api:
        await api.submit_event(ANTE_1)
        seq = daemon.state.last_seq
        wager = {"type": "wager", "seat": 1, "wager": "progressive", "amount": "1000.00"}
        refused = await _refused(api.submit_event(wager))
        assert refused.code == "forbidden"
        assert "who may: wager progressive: gpio" in refused.message and "§ 639a.8(b)" in refused.message
        # Not even a floorperson, nor at the table's own chip value.
        refused = await _refused(api.submit_event({**wager, "amount": "1.00"}, FLOOR))
        assert refused.code == "forbidden"
        records = [r for r in await _records_since(daemon, seq) if r.kind == "refused"]
        assert [r.source for r in records] == ["dealer-ui", "floor"]
        assert all(r.body["entry"]["body"]["wager"] == "progressive" for r in records)
        current = daemon.state.current
        assert current is not None and [w.wager for w in current.wagers()] == ["ante"]


@pytest.mark.asyncio
async def test_cards_by_hand_only_while_the_shoe_is_out_of_order(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    async with await ApiClient.connect(rig.socket) as api:
        await api.submit_event(ANTE_1)
        await rig.place_chip(1)
        await rig.press_lock_out()
        keyed = {"type": "cards", "to": 1, "cards": "Ac Ad Ah As Kc"}
        refused = await _refused(api.submit_event(keyed))
        assert refused.code == "forbidden" and "§ 639a.13(g)" in refused.message
        assert (await api.status())["keying_by_hand"] is None
        # A floorperson declares it out of order: journaled with the actor.
        out = {"type": "device_out_of_order", "device": "shoe", "reason": "jammed; covered"}
        assert (await _refused(api.submit_event(out))).code == "auth_required"  # not the dealer
        await api.submit_event(out, FLOOR)
        status = await api.status()
        assert status["out_of_order"] == {"shoe": "by mfloor: jammed; covered"}
        assert "declared out of order" in status["keying_by_hand"]
        result = await api.submit_event({"type": "cards", "to": 1, "cards": SEAT_1})
        assert result["round"] == status["round"]["id"]
        # A technician returns it to service: the shoe deals again, and only the shoe.
        back = {"type": "device_in_service", "device": "shoe", "reason": "cleared"}
        await api.submit_event(back, TECH)
        refused = await _refused(api.submit_event({"type": "cards", "to": 3, "cards": SEAT_3}))
        assert refused.code == "forbidden"
        services = [r for r in await _records_since(daemon, 0) if r.kind == "device_service"]
        assert [(r.actor, r.source, r.body["in_service"]) for r in services] == [
            ("mfloor", "floor", False),
            ("tmtech", "tablectl", True),
        ]


@pytest.mark.asyncio
async def test_cards_by_hand_while_the_shoe_is_offline_and_then_no_longer(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    assert rig.shoe is not None
    async with await ApiClient.connect(rig.socket) as api:
        await api.submit_event(ANTE_1)
        await api.submit_event({"type": "no_more_bets"})
        await rig.shoe.go_away()
        await rig.wait_for(lambda: not daemon.state.devices["shoe"].online)
        assert "offline or in fault" in (await api.status())["keying_by_hand"]
        await api.submit_event({"type": "cards", "to": 1, "cards": SEAT_1})
        await rig.shoe.come_back()
        await rig.wait_for(lambda: daemon.state.devices["shoe"].online)
        refused = await _refused(api.submit_event({"type": "cards", "to": "dealer", "cards": DEALER}))
        assert refused.code == "forbidden"


@pytest.mark.asyncio
async def test_an_incomplete_stack_allows_keying_that_stack_only(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    assert rig.shoe is not None
    async with await ApiClient.connect(rig.socket) as api:
        await api.submit_event(ANTE_1)
        await api.submit_event({"type": "wager", "seat": 3, "wager": "ante", "amount": "10.00"})
        await api.submit_event({"type": "no_more_bets"})
        await rig.shoe.send_corrupted("CRD", 99, "As")  # a lost frame: the next stack is suspect
        await rig.shoe.deal(1, SEAT_1)
        await rig.wait_for(lambda: daemon.state.stack_to_key == ("1", 5))
        assert (await api.status())["keying_by_hand"] == "the incomplete stack of 5 cards to 1 only"
        refused = await _refused(api.submit_event({"type": "cards", "to": 3, "cards": SEAT_3}))
        assert refused.code == "forbidden" and "incomplete stack (5 cards to 1)" in refused.message
        await api.submit_event({"type": "cards", "to": 1, "cards": SEAT_1})
        assert daemon.state.stack_to_key is None
        refused = await _refused(api.submit_event({"type": "cards", "to": 3, "cards": SEAT_3}))
        assert refused.code == "forbidden"


@pytest.mark.asyncio
async def test_the_dealer_cannot_void_a_round_alone(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    async with await ApiClient.connect(rig.socket) as api:
        round_id = (await api.status())["round"]["id"]
        await api.submit_event(ANTE_1)
        await rig.place_chip(1)
        await rig.press_lock_out()
        await rig.deal(1, SEAT_1)
        jam = {"type": "irregularity", "kind": "shoe_jam", "detail": "says the dealer"}
        result = await api.submit_event(jam)
        assert "a floorperson" in result["waiting_for"]
        status = await api.status()
        assert status["round"]["id"] == round_id
        assert (
            "a floorperson to confirm or dismiss the shoe_jam reported by" in status["round"]["waiting_for"]
        )
        # The round waits: nothing else goes in, and a second report is no confirmation.
        assert (await _refused(api.submit_event(jam))).code == "forbidden"
        # The floorperson dismisses it: the round goes on, nothing was voided.
        dismissed = {"type": "irregularity_dismissed", "reason": "the shoe works"}
        assert (await _refused(api.submit_event(dismissed))).code == "auth_required"  # not the dealer
        await api.submit_event(dismissed, FLOOR)
        current = daemon.state.current
        assert current is not None and current.round_id == round_id and daemon.state.awaiting_floor is None
        # Another irregularity that voids the round with wagers in play (§ 639a.13(c)) waits too.
        wrong = {"type": "irregularity", "kind": "wrong_card_count", "detail": "six cards to seat 1"}
        result = await api.submit_event(wrong)
        assert "voids a round with wagers in play" in result["waiting_for"]
        await api.submit_event(wrong, FLOOR)
        assert daemon.state.current is not None and daemon.state.current.round_id != round_id
        records = [r for r in await _records_since(daemon, 0) if r.round_id == round_id]
        kinds = [(r.kind, r.source) for r in records]
        assert kinds.count(("irregularity_reported", "dealer-ui")) == 2
        assert ("irregularity_dismissed", "floor") in kinds and ("event", "floor") in kinds
        assert {r.actor for r in records if r.source == "floor"} == {"mfloor"}


@pytest.mark.asyncio
async def test_while_a_report_waits_the_lock_out_still_locks(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    async with await ApiClient.connect(rig.socket) as api:
        await api.submit_event(ANTE_1)
        report = {"type": "irregularity", "kind": "shuffler_jam", "detail": "says the dealer"}
        assert "a floorperson" in (await api.submit_event(report))["waiting_for"]
        refused = await _refused(api.submit_event({**ANTE_1, "seat": 2}))
        assert refused.code == "forbidden" and "waits for a floorperson" in refused.message
        await api.submit_event({"type": "no_more_bets"})  # locking out wagers is always safe
        current = daemon.state.current
        assert current is not None and current.no_more_bets and daemon.state.awaiting_floor is not None


@pytest.mark.asyncio
async def test_a_shoe_fault_is_the_devices_and_a_void_waits_for_the_floorperson(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    async with await ApiClient.connect(rig.socket) as api:
        round_id = (await api.status())["round"]["id"]
        await api.submit_event(ANTE_1)
        await api.submit_event({"type": "no_more_bets"})
        await rig.jam()
        waiting = daemon.state.awaiting_floor
        assert waiting is not None and waiting.reporter == "shoe" and "voids a round" in waiting.why
        await api.submit_event({"type": "irregularity", "kind": "shoe_jam", "detail": "confirmed"}, FLOOR)
        assert daemon.state.recent[-1].round_id == round_id


# --- the lock-out -------------------------------------------------------------------------------------


async def _drive(rig: BenchRig, pin: int, low: bool) -> None:
    mock = rig.factory.pin(pin)
    await asyncio.to_thread(mock.drive_low if low else mock.drive_high)


async def _next_round(rig: BenchRig) -> None:
    """Chips off, the round voided by a floorperson (in the service), wagering open again."""
    daemon = _daemon(rig)
    for seat in SEAT_PINS:
        await _drive(rig, SEAT_PINS[seat][0], False)
    await _drive(rig, LOCK_OUT_PIN, False)
    await asyncio.sleep(0.03)  # past the debounce window
    await daemon.drain()
    assert daemon.service is not None
    if daemon.state.current is not None and daemon.state.current.wagers():
        if not daemon.state.current.no_more_bets:
            await daemon.service.no_more_bets("floor", "mfloor")
        await daemon.service.submit(
            Event("irregularity", kind="shoe_jam", detail="next race"), "floor", "mfloor"
        )
    await daemon.drain()
    assert daemon.gpio is not None and not daemon.gpio.locked


def _pins_equal_journal(daemon: Daemon) -> None:
    current = daemon.state.current
    assert current is not None and daemon.gpio is not None
    journaled = sorted(w.seat for w in current.wagers() if w.wager == "progressive" and w.seat)
    counted = sorted(s for s, n in daemon.gpio.accepted_by_seat.items() if n)
    assert journaled == counted


@pytest.mark.asyncio
async def test_no_api_wager_after_the_button_is_accepted(rig: BenchRig) -> None:
    """The dealer's screen sends an ante 0-5 ms after the press (from another process, as the
    touchscreen does), while chips at three seats make the lock-out several records."""
    daemon = _daemon(rig)
    rng = random.Random(9)
    late = {"type": "wager", "seat": 2, "wager": "ante", "amount": "15.00"}
    answers: list[str] = []

    def press_then_ante(delay: float) -> None:
        rig.factory.pin(LOCK_OUT_PIN).drive_low()
        time.sleep(delay)
        try:
            request(rig.socket, "submit_event", {"event": late})
            answers.append("accepted")
        except ApiError as exc:
            answers.append(exc.code if "§ 639a.7(c)" in exc.message else exc.message)

    # RACES refused antes from the dealer's screen in a few seconds are past the refusals a peer
    # may have journaled one by one (a flood: tests/test_api_flood.py); here the race alone.
    assert daemon.api is not None
    daemon.api.journaled_refusals = RateLimiter(1000, 1000)
    async with await ApiClient.connect(rig.socket) as api:
        for _ in range(RACES):
            for seat in (1, 3, 4):
                await api.submit_event({"type": "wager", "seat": seat, "wager": "ante", "amount": "10.00"})
                await _drive(rig, SEAT_PINS[seat][0], True)
            await asyncio.sleep(0.03)
            await asyncio.to_thread(press_then_ante, rng.uniform(0, 0.005))
            await daemon.drain()
            current = daemon.state.current
            assert current is not None and current.no_more_bets
            _pins_equal_journal(daemon)
            await _next_round(rig)
    assert answers == ["refused"] * RACES


@pytest.mark.asyncio
async def test_no_chip_after_an_api_no_more_bets_is_accepted(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    rng = random.Random(10)
    async with await ApiClient.connect(rig.socket) as api:
        for _ in range(RACES):
            await api.submit_event(ANTE_1)
            await api.submit_event({"type": "wager", "seat": 3, "wager": "ante", "amount": "10.00"})
            await _drive(rig, SEAT_PINS[1][0], True)
            await asyncio.sleep(0.03)
            nmb = asyncio.ensure_future(api.submit_event({"type": "no_more_bets"}))
            await asyncio.sleep(rng.uniform(0, 0.005))
            await _drive(rig, SEAT_PINS[3][0], True)
            await nmb
            await asyncio.sleep(0.03)
            await daemon.drain()
            _pins_equal_journal(daemon)
            assert daemon.gpio is not None
            if daemon.gpio.refused_by_seat[3]:
                current = daemon.state.current
                assert current is not None
                assert (3, "progressive") not in [(w.seat, w.wager) for w in current.wagers()]
            await _next_round(rig)


@pytest.mark.asyncio
async def test_no_chip_after_the_button_is_accepted_and_chatter_changes_nothing(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    rng = random.Random(11)
    async with await ApiClient.connect(rig.socket) as api:
        for i in range(RACES):
            await api.submit_event(ANTE_1)
            await api.submit_event({"type": "wager", "seat": 3, "wager": "ante", "amount": "10.00"})
            await _drive(rig, SEAT_PINS[1][0], True)
            await asyncio.sleep(0.03)
            await _drive(rig, LOCK_OUT_PIN, True)
            await asyncio.sleep(rng.uniform(0, 0.005))
            chip = SEAT_PINS[3][0]
            for _ in range(1 + i % 4):  # sensor chatter around the lock-out
                await _drive(rig, chip, True)
                await _drive(rig, chip, False)
            await _drive(rig, chip, True)
            await asyncio.sleep(0.03)
            await daemon.drain()
            _pins_equal_journal(daemon)
            current = daemon.state.current
            assert current is not None and current.no_more_bets
            assert [(w.seat, w.wager) for w in current.wagers() if w.wager == "progressive"] == [
                (1, "progressive")
            ]
            await _next_round(rig)


@pytest.mark.asyncio
async def test_the_lock_out_is_one_transaction(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    assert daemon.journal is not None
    async with await ApiClient.connect(rig.socket) as api:
        await api.submit_event(ANTE_1)
        await rig.place_chip(1)
        seq = daemon.state.last_seq
        groups: list[tuple[Any, ...]] = []
        writer: Any = daemon.journal._writer
        submit_group = writer.submit_group

        def spy(items: tuple[Any, ...]) -> None:
            groups.append(tuple(item.record.kind for item in items))
            submit_group(items)

        writer.submit_group = spy
        await rig.press_lock_out()
        records = await _records_since(daemon, seq)
        kinds = [(r.kind, r.body.get("type") or r.body.get("reason")) for r in records]
        assert kinds == [("event", "wager"), ("lock_out", "no more bets (gpio)"), ("event", "no_more_bets")]
        assert ("event", "lock_out", "event") in groups  # the three in ONE writer job
        assert (await api.status())["locked_out"] is True


@pytest.mark.asyncio
async def test_a_press_while_the_round_is_dealt_is_journaled_and_changes_nothing(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    async with await ApiClient.connect(rig.socket) as api:
        await api.submit_event(ANTE_1)
        await rig.press_lock_out()
        seq = daemon.state.last_seq
        await rig.press_lock_out()
        records = await _records_since(daemon, seq)
        assert [(r.kind, r.body.get("fact")) for r in records] == [
            ("hardware_fact", "lock_out_pressed_while_locked")
        ]
        assert records[0].body["detail"]["round"] == daemon.round_id


@pytest.mark.asyncio
async def test_wagering_opens_with_an_unlock_record(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    async with await ApiClient.connect(rig.socket) as api:
        round_id = (await api.status())["round"]["id"]
        await api.submit_event(ANTE_1)
        await api.submit_event({"type": "no_more_bets"})
        await api.submit_event({"type": "irregularity", "kind": "shoe_jam", "detail": "x"}, FLOOR)
        records = [r for r in await _records_since(daemon, 0) if r.kind in ("lock_out", "unlock")]
        assert [r.kind for r in records] == ["lock_out", "unlock"]
        assert records[1].body["reason"] == f"round {round_id} settled"
        assert (await api.status())["locked_out"] is False


# --- no hardware event dropped ------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_flapping_device_loses_no_press_and_no_stack(rig: BenchRig) -> None:
    await _flapping(rig, 10.0)


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_device_flapping_for_60_s_loses_no_press_and_no_stack(rig: BenchRig) -> None:
    await _flapping(rig, 60.0)


async def _flapping(rig: BenchRig, seconds: float) -> None:
    daemon = _daemon(rig)
    assert daemon.bridge is not None and rig.shuffler is not None
    stop = asyncio.Event()

    async def flap() -> None:
        # Far faster than a real device: its state changes, straight into the bridge.
        from hw.device_events import DeviceState

        bridge = daemon.bridge
        assert bridge is not None
        n = 0
        while not stop.is_set():
            for _ in range(200):
                n += 1
                bridge.on_event(DeviceState("shuffler", "offline" if n % 2 else "online", "flap"))
            # 200 changes a millisecond, still far past any device; sleep(0) here let this task
            # take the whole loop on a loaded machine and starve the table (a test artefact: a real
            # driver's events arrive from its own reads).
            await asyncio.sleep(0.001)

    flapper = asyncio.create_task(flap())
    rounds = 0
    deadline = time.monotonic() + seconds
    try:
        async with await ApiClient.connect(rig.socket) as api:
            while time.monotonic() < deadline:
                round_id = (await api.status())["round"]["id"]
                await api.submit_event(ANTE_1)
                await rig.place_chip(1)
                await rig.press_lock_out()
                current = daemon.state.current
                assert current is not None and current.no_more_bets, "the press was lost"
                await rig.deal(1, SEAT_1)
                await rig.deal("dealer", DEALER)
                await api.submit_event({"type": "decision", "seat": 1, "action": "fold"})
                assert daemon.state.recent[-1].round_id == round_id, "a stack was lost"
                await rig.lift_chip(1)
                rounds += 1
    finally:
        stop.set()
        await flapper
    await daemon.drain()
    assert rounds >= 3 and daemon.bridge.coalesced > 1000
    assert daemon.bridge.get_status()["queued"] == 0


# --- hardware facts -----------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_wrong_shuffler_count_is_journaled(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    assert rig.shuffler is not None
    seq = daemon.state.last_seq
    await rig.shuffler.report_count(51, 52)
    # Other records may come first on a loaded machine (a device state): look for the fact itself.
    facts: list[Any] = []
    for _ in range(100):
        facts = [r for r in await _records_since(daemon, seq) if r.kind == "hardware_fact"]
        if facts:
            break
        await asyncio.sleep(0.05)
    (record,) = facts
    assert (record.kind, record.source, record.body["fact"]) == ("hardware_fact", "shuffler", "wrong_count")
    assert record.body["detail"] == {"count": 51, "expected": 52}


@pytest.mark.asyncio
async def test_a_journal_write_failure_is_journaled_on_the_next_start(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    assert daemon.service is not None and daemon.journal is not None
    journal_path = daemon.journal.path

    async def failing(*args: Any, **kwargs: Any) -> Any:
        raise JournalWriteError("disk I/O error (simulated)")

    daemon.journal.append_many = failing  # type: ignore[method-assign]
    async with await ApiClient.connect(rig.socket) as api:
        refused = await _refused(api.submit_event(ANTE_1))
        assert refused.code == "internal" or "journal" in refused.message
    assert not daemon.healthy()
    assert write_failures.path_of(journal_path).exists()
    await rig.stop_daemon()
    daemon = await rig.start_daemon()
    facts = [r for r in await _records_since(daemon, 0) if r.kind == "hardware_fact"]
    assert [(r.body["device"], r.body["fact"]) for r in facts] == [("journal", "journal_write_failed")]
    assert "disk I/O error (simulated)" in facts[0].body["detail"]["error"]
    assert not write_failures.path_of(journal_path).exists()


# --- idempotency --------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_retry_with_the_same_key_is_answered_once_even_after_a_restart(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    async with await ApiClient.connect(rig.socket) as api:
        first = await api.submit_event(ANTE_1, idempotency_key="req-0001-ante")
        again = await api.submit_event(ANTE_1, idempotency_key="req-0001-ante")
        assert again == {**first, "repeated": True}
        refused = await _refused(api.submit_event(ANTE_1, idempotency_key="req-0002-again"))
        assert "already placed" in refused.message
        assert (await _refused(api.submit_event(ANTE_1, idempotency_key="req-0002-again"))).message == (
            refused.message
        )
    await rig.stop_daemon()
    daemon = await rig.start_daemon()
    async with await ApiClient.connect(rig.socket) as api:
        assert await api.submit_event(ANTE_1, idempotency_key="req-0001-ante") == {**first, "repeated": True}
        bad = await _refused(api.submit_event(ANTE_1, idempotency_key="no"))
        assert bad.code == "bad_args" and "idempotency_key" in bad.message
        verification = {"type": "verification", "seat": 1, "wager": "progressive"}
        bad = await _refused(api.submit_event(verification, FLOOR, idempotency_key="req-0003-verify"))
        assert bad.code == "bad_args" and "takes none" in bad.message
    current = daemon.state.current
    assert current is not None and [w.to_json() for w in current.wagers()] == [ANTE_1]


# --- clear errors ------------------------------------------------------------------------------------


def test_a_rules_submission_that_is_not_utf8_is_a_named_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "rules-submission.toml").write_bytes(RULES_SUBMISSION.encode() + b"\n# caf\xe9\n")
    config = tmp_path / "table-controller.toml"
    config.write_text(config_text(tmp_path))
    assert main(["--config", str(config), "--check"]) == 78
    err = capsys.readouterr().err
    assert "not UTF-8" in err and "Traceback" not in err


@pytest.mark.asyncio
async def test_a_verification_of_a_round_that_does_not_exist_is_not_found(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    async with await ApiClient.connect(rig.socket) as api:
        seq = daemon.state.last_seq
        refused = await _refused(api.verify_payout(1, "progressive", "CS-BENCH-999", FLOOR))
        assert refused.code == "not_found" and "CS-BENCH-999" in refused.message
        # Nothing journaled for it but the refused command (today: a payout_verified, accepted).
        kinds = {r.kind for r in await _records_since(daemon, seq)}
        assert "payout_verified" not in kinds and "refused" not in kinds


@pytest.mark.asyncio
async def test_a_won_lamp_is_not_toggled_while_it_shows_a_payout(rig: BenchRig) -> None:
    daemon = _daemon(rig)
    async with await ApiClient.connect(rig.socket) as api:
        await api.submit_event(ANTE_1)
        await rig.place_chip(1)
        await rig.press_lock_out()
        await rig.deal(1, "2c 7c 9c Jc 4c")  # a flush wins the Progressive
        await rig.deal("dealer", DEALER)
        await api.submit_event({"type": "decision", "seat": 1, "action": "bet"})
        assert daemon.gpio is not None
        assert daemon.gpio.status().lamps["seats.1.won_lamp"] == "blinking"
        refused = await _refused(api.toggle_lamp("seats.1.won_lamp", False, TECH))
        assert refused.code == "refused" and "shows a payout" in refused.message
        assert daemon.gpio.status().lamps["seats.1.won_lamp"] == "blinking"
        await api.toggle_lamp("seats.2.won_lamp", True, TECH)  # a lamp that shows nothing: tested


@pytest.mark.asyncio
async def test_blackjacks_shuffler_fault_is_a_shuffler_malfunction() -> None:
    async with BenchRig(game="blackjack") as bench:
        daemon = _daemon(bench)
        assert bench.shuffler is not None
        seq = daemon.state.last_seq
        await bench.shuffler.fault("jam", "cards stuck")
        await bench.wait_for(lambda: daemon.state.last_seq > seq)
        await daemon.drain()
        records = await _records_since(daemon, seq)
        irregular = [r for r in records if r.body.get("type") == "irregularity" or r.kind == "refused"]
        body = irregular[0].body if irregular[0].kind == "event" else irregular[0].body["entry"]["body"]
        assert body["kind"] == "shuffler_malfunction"
