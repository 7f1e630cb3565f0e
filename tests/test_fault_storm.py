"""A device's fault storm is coalesced: one fault handled, then one record a second with the count
and the first and last time; the log, the screen and the cards behind it are not flooded (issue 18
point 6: "a shuffler's fault storm is not coalesced (card events delayed over a minute, ~5,000
journal records a second)").

The real daemon (the bench rig), the shuffler on a real pseudo-terminal repeating ``FLT`` as fast
as the line takes it, the shoe reading cards meanwhile; the journal, the log and the local API's
notifications counted.
"""

from __future__ import annotations

import asyncio
import logging
import statistics
import time
from typing import Any

import pytest

from controller.api_client import ApiClient
from controller.table.fault_storms import STORM_SECONDS, FaultStorms
from hw.device_events import DeviceFault
from sim.bench_rig import BenchRig

STORM_SECONDS_RUN = 2.0
BURST = 200  # faults a write, every 50 ms: 4,000 a second
CARD_BOUND = 0.5  # seconds from the shoe's card to the screen's notification, during the storm


def test_a_storm_is_its_first_fault_then_counts_an_interval() -> None:
    now = [100.0]
    storms = FaultStorms(clock=lambda: now[0])
    jam = DeviceFault("shuffler", "jam", "", 1)
    key = storms.note(jam)
    assert key == ("shuffler", "jam")
    for i in range(500):
        now[0] = 100.0 + i / 1000
        assert storms.note(jam) is None
    assert storms.note(DeviceFault("shoe", "jam", "", 1)) == ("shoe", "jam")  # its own storm
    report = storms.report(key)
    assert report is not None and (report.count, report.first_at, report.last_at) == (500, 100.0, 100.499)
    assert storms.report(key) is None  # a quiet interval: over
    assert storms.note(jam) == key  # the next one begins a storm again
    assert storms.coalesced == 500


@pytest.mark.asyncio
async def test_a_shuffler_s_fault_storm_floods_nothing_and_delays_no_card(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with BenchRig() as rig:
        daemon, shuffler, shoe = rig.daemon, rig.shuffler, rig.shoe
        assert daemon is not None and daemon.journal is not None and shuffler is not None and shoe is not None
        seen: list[tuple[float, str, dict[str, Any]]] = []
        async with await ApiClient.connect(rig.socket) as screen:
            await screen.subscribe(["device", "input"])

            async def listen() -> None:
                async for note in screen.notifications():
                    seen.append((time.monotonic(), note.topic, dict(note.data)))

            listening = asyncio.create_task(listen())
            seq0 = daemon.state.last_seq
            sent = 0
            cards: list[float] = []
            with caplog.at_level(logging.WARNING):
                start = time.monotonic()
                while time.monotonic() - start < STORM_SECONDS_RUN:
                    await shuffler.fault_storm("jam", "stuck sensor", BURST)
                    sent += BURST
                    if len(cards) < int((time.monotonic() - start) / 0.2):
                        before, asked = len(seen), time.monotonic()
                        await shoe.read_cards("As")

                        def card_shown(b: int = before) -> bool:
                            return any(t == "input" for _, t, _ in seen[b:])

                        await rig.wait_for(card_shown, timeout=10)
                        cards.append(time.monotonic() - asked)
                    await asyncio.sleep(0.05)
                # The storm's last interval reported, then a quiet one ends it.
                await asyncio.sleep(STORM_SECONDS * 2.5)
                await daemon.drain()
            listening.cancel()
        records = await daemon.journal.records(seq0)
        reports = [
            r for r in records if r.kind == "hardware_fact" and r.body.get("fact") == "faults_coalesced"
        ]
        counted = sum(int(r.body["detail"]["count"]) for r in reports)
        faults_shown = [d for _, t, d in seen if t == "device" and d.get("kind") == "jam"]
        logged = [r for r in caplog.records if "fault jam" in r.getMessage()]
        # Every fault accounted for: the first handled on its own, the rest counted.
        assert counted + 1 == sent, (counted, sent)
        # Bounded: one record a second of storm (and the last interval), not one a fault.
        assert 1 <= len(reports) <= STORM_SECONDS_RUN / STORM_SECONDS + 3, len(reports)
        assert len(records) <= len(reports) + 12, [r.kind for r in records]
        for r in reports:
            detail = r.body["detail"]
            assert detail["kind"] == "jam" and detail["first"] <= detail["last"]
        assert len(faults_shown) == 1 + len(reports)  # the screen: the first, then each count
        assert len(logged) <= STORM_SECONDS_RUN + 3, len(logged)  # the log: once a second
        # The cards behind the storm: each shown within the bound.
        assert cards and max(cards) < CARD_BOUND, cards
        # After the storm, the next fault is a fault of its own again.
        bridge = daemon.bridge
        assert bridge is not None
        before = len(await daemon.journal.records(seq0))
        await shuffler.fault("jam", "again")
        await rig.wait_for(lambda: bridge.storms.in_progress == 1)
        assert bridge.get_status()["faults_coalesced"] == counted
        print(
            f"\nfault storm: {sent} faults in {STORM_SECONDS_RUN:.0f} s on the shuffler's pty; journal "
            f"{len(records)} records ({len(reports)} faults_coalesced, counts {counted}); log {len(logged)} "
            f"lines; screen {len(faults_shown)} fault notifications; {len(cards)} cards, p50 "
            f"{statistics.median(cards) * 1000:.1f} ms, max {max(cards) * 1000:.1f} ms; then {before} records"
        )


@pytest.mark.asyncio
async def test_a_sensor_flapping_after_the_lock_out_is_one_refusal_and_counts() -> None:
    """A wagering device whose contact flaps after the lock-out (every movement a chip "placed"):
    the round's first refusal journaled on its own, the rest counted and journaled once a second,
    every one in the GPIO's count."""
    async with BenchRig() as rig:
        daemon = rig.daemon
        assert daemon is not None and daemon.journal is not None and daemon.gpio is not None
        gpio = daemon.gpio
        async with await ApiClient.connect(rig.socket) as api:
            await api.submit_event({"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"})
        await rig.press_lock_out()
        seq0 = daemon.state.last_seq
        pin = rig.factory.pin(rig.sensor_pin(2))

        def flap() -> None:  # a movement every 25 ms, past the 20 ms window: each one a placement
            for _ in range(40):
                pin.drive_low()
                time.sleep(0.025)
                pin.drive_high()
                time.sleep(0.025)

        await asyncio.to_thread(flap)
        await asyncio.sleep(STORM_SECONDS * 2.5)
        await daemon.drain()
        records = await daemon.journal.records(seq0)
        refused = [r for r in records if r.kind == "refused"]
        reports = [r for r in records if r.body.get("fact") == "wagers_refused_coalesced"]
        placed = gpio.refused_by_seat[2]
        assert placed >= 30  # the machine may merge a few movements; most are each a placement
        assert len(refused) == 1 and refused[0].body["entry"]["body"]["seat"] == 2
        assert 1 <= len(reports) <= 4
        assert sum(int(r.body["detail"]["count"]) for r in reports) + 1 == placed
        assert len(records) == len(refused) + len(reports)


@pytest.mark.asyncio
async def test_a_sensor_flapping_while_wagering_is_open_floods_neither_log_nor_journal(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """40 chips put down and taken off in 2 s on one device (each past the debounce window): each
    change counted by the GPIO, the log once a second with the count left out, nothing journaled
    until the lock-out."""
    async with BenchRig() as rig:
        daemon = rig.daemon
        assert daemon is not None and daemon.journal is not None
        seq0 = daemon.state.last_seq
        pin = rig.factory.pin(rig.sensor_pin(3))

        def flap() -> None:
            for _ in range(40):
                pin.drive_low()
                time.sleep(0.025)
                pin.drive_high()
                time.sleep(0.025)

        with caplog.at_level(logging.INFO, logger="controller.table.bridge"):
            await asyncio.to_thread(flap)
            await daemon.drain()
        lines = [r for r in caplog.records if "seat 3: progressive wager" in r.getMessage()]
        assert 1 <= len(lines) <= 4, [r.getMessage() for r in lines]
        assert any("more change(s) not logged" in r.getMessage() for r in lines)
        # The rig's serial devices report ready on their own time: those are not the sensor's.
        since = await daemon.journal.records(seq0)
        assert [r for r in since if r.kind not in ("device_online", "device_offline")] == []
