"""The sensors and lamps say "progressive unavailable" while the progressive link is down
(issue item 5; N.J.A.C. 13:69E-1.39B: a table that has lost its progressive controller is
unplayable for the progressive and returns to its prior state when it is back).

The real daemon (the bench rig's, gpiozero's MockFactory pins), a real Mosquitto with the
shipped configuration stopped and started, the central meter. What the pins show is read from
the mock pins themselves."""

from __future__ import annotations

import asyncio
import time
from fractions import Fraction
from pathlib import Path

import pytest

from controller.api_client import ApiClient, ApiError, Credentials
from controller.auth import Role, make_user, save_users
from controller.daemon import Daemon
from controller.journal.state import PROGRESSIVE_LINK
from controller.tablectl import main as tablectl_main
from hw.gpio_devices import SLOW_BLINK_FACTOR, LampState
from sim.bench_rig import SEAT_PINS, BenchRig
from sim.link_rig import PARAMS
from ui.meter import MeterState
from ui.table import TableModel

from .meter_link import Link, running_link
from .mosquitto import Pki
from .table_link import DEALER, SEAT_1, daemon_of, linked_rig, linked_table, until

pytestmark = pytest.mark.asyncio

TECH = Credentials("lamp-tech", "731905")
#: The link's timeout in these tests: no word from the meter for 3 s is a lost link.
TIMEOUT = 3


def wager_lamps(rig: BenchRig) -> dict[int, LampState]:
    gpio = daemon_of(rig, linked=False).gpio
    assert gpio is not None
    return {seat: gpio.wager_lamp(seat).state for seat in gpio.seats}


def lamp_pin(rig: BenchRig, seat: int) -> object:
    return rig.factory.pin(SEAT_PINS[seat][1])


async def blinks_slowly(rig: BenchRig, seat: int) -> None:
    """The seat's wager lamp pin goes on and off, each level held a slow blink's time."""
    pin = lamp_pin(rig, seat)
    pin.clear_states()  # type: ignore[attr-defined]
    gpio = daemon_of(rig, linked=False).gpio
    assert gpio is not None
    half = gpio.wager_lamp(seat).blink_ms * SLOW_BLINK_FACTOR / 1000
    await asyncio.sleep(half * 3.5)
    levels = [s.state for s in pin.states]  # type: ignore[attr-defined]
    assert len(levels) >= 3 and {True, False} <= set(levels), levels
    assert len(levels) <= 6, levels  # not a blink's 250 ms


def link_up(daemon: Daemon) -> bool:
    journaled = daemon.state.devices.get(PROGRESSIVE_LINK)
    return journaled is not None and journaled.online


async def lose_the_broker(link: Link, daemon: Daemon) -> None:
    link.broker.stop(kill=True)
    await until(lambda: daemon.state.progressive_link_down is not None, TIMEOUT + 10, "the link down")


async def bring_back_the_broker(link: Link, daemon: Daemon) -> None:
    link.broker.start()
    await until(lambda: link_up(daemon), 20, "the link back")


async def test_every_wager_lamp_blinks_slowly_while_the_link_is_down_and_comes_back_by_itself(
    tmp_path: Path, pki: Pki, capsys: pytest.CaptureFixture[str]
) -> None:
    """A chip accepted (lamp steady); the broker killed: past the timeout every seat's wager lamp
    blinks slowly, the chip is no longer an accepted wager, a chip placed then is not either, the
    status and ``tablectl status`` say so; the broker back: the lamps and the chips on the sensors
    are the round's wagers again by themselves, counted at the lock-out and sent to the meter."""
    async with linked_table(tmp_path, pki, "t1", timeout=TIMEOUT) as (link, rig):
        daemon = daemon_of(rig, linked=False)
        gpio = daemon.gpio
        assert gpio is not None
        await until(lambda: link_up(daemon), 10, "the link up")
        async with await ApiClient.connect(rig.socket) as api:
            await rig.place_chip(1)
            assert wager_lamps(rig)[1] is LampState.STEADY and gpio.accepted(1) == 1
            assert (await api.status())["progressive_unavailable"] is None

            await lose_the_broker(link, daemon)
            assert set(wager_lamps(rig).values()) == {LampState.SLOW_BLINKING}
            assert gpio.accepted_total == 0
            await blinks_slowly(rig, 1)
            await rig.place_chip(3)
            await daemon.drain()
            assert gpio.accepted_total == 0 and wager_lamps(rig)[3] is LampState.SLOW_BLINKING
            status = await api.status()
            assert status["progressive_unavailable"] == daemon.state.progressive_link_down
            # The dealer's screen, from the same status: the meter UNAVAILABLE, with the reason.
            screen = TableModel()
            screen.apply_snapshot(status)
            assert screen.meter.text == "UNAVAILABLE"
            assert screen.meter.reason == status["link"]["unavailable"] is not None
            assert status["gpio"]["progressive_unavailable"] is True
            assert set(status["gpio"]["lamps"][f"seats.{s}.wager_lamp"] for s in SEAT_PINS) == {
                "slow_blinking"
            }
            assert await asyncio.to_thread(tablectl_main, ["status", "--socket", str(rig.socket)]) == 0
            shown = capsys.readouterr().out
            assert "progressive wagering: UNAVAILABLE" in shown and "blinks slowly" in shown
            # A technician's lamp test would hide it from the players: refused, the lamp as it was.
            save_users(rig.path / "users.json", {TECH.user: make_user(TECH.user, Role.TECH, TECH.pin)})
            with pytest.raises(ApiError) as refused:
                await api.toggle_lamp("seats.2.wager_lamp", True, TECH)
            assert refused.value.code == "refused" and "progressive unavailable" in refused.value.message
            assert wager_lamps(rig)[2] is LampState.SLOW_BLINKING
            # The base game goes on meanwhile (§ 639a.7(d)(2): a Progressive Payout Wager goes with an Ante).
            for seat in (1, 3):
                await api.submit_event({"type": "wager", "seat": seat, "wager": "ante", "amount": "10.00"})

            await bring_back_the_broker(link, daemon)
            assert wager_lamps(rig) == {
                seat: LampState.STEADY if seat in (1, 3) else LampState.OFF for seat in SEAT_PINS
            }
            assert dict(gpio.accepted_by_seat) == {seat: int(seat in (1, 3)) for seat in SEAT_PINS}
            assert lamp_pin(rig, 1).state is True  # type: ignore[attr-defined]
            status = await api.status()
            assert status["progressive_unavailable"] is None
            screen.apply_snapshot(status)
            assert screen.meter.state is MeterState.NONE  # open again (no round begun: no amount yet)
            assert await asyncio.to_thread(tablectl_main, ["status", "--socket", str(rig.socket)]) == 0
            assert "progressive wagering: recognized" in capsys.readouterr().out
            round_id = daemon.round_id
            await rig.press_lock_out()
            current = daemon.state.current
            assert current is not None and current.no_more_bets
            assert sorted((e.seat, e.wager) for e in current.wagers()) == [
                (1, "ante"),
                (1, "progressive"),
                (3, "ante"),
                (3, "progressive"),
            ]
            await rig.deal(1, SEAT_1)
            await rig.deal(3, "3c 8d Ts 2h 5c")
            await rig.deal("dealer", DEALER)
            for seat in (1, 3):
                await api.submit_event({"type": "decision", "seat": seat, "action": "fold"})
            assert daemon.round_id != round_id
            expected = PARAMS.initial + int(Fraction(2 * 100) * PARAMS.rate / 100)
            await until(
                lambda: (
                    link.store is not None and link.store.ledger.progressives["cs-floor"].amount == expected
                ),
                15,
                "the two wagers on the meter",
            )


async def test_a_chip_flapping_at_the_lock_out_while_unavailable_is_never_a_wager(
    tmp_path: Path, pki: Pki
) -> None:
    """A chip flapping on a sensor while the link is down, and the lock-out pressed in the middle of
    it: no progressive wager is accepted; the chip on the sensor at the lock-out is journaled as a
    refused wager once (the reason: the link is down), each placement after it as any late chip;
    the lamps keep blinking slowly, and the base game goes on."""
    async with linked_table(tmp_path, pki, "t2", timeout=TIMEOUT) as (link, rig):
        daemon = daemon_of(rig, linked=False)
        await until(lambda: link_up(daemon), 10, "the link up")
        async with await ApiClient.connect(rig.socket) as api:
            await lose_the_broker(link, daemon)
            await api.submit_event({"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"})
            before = len(daemon.refusals)
            sensor = rig.factory.pin(SEAT_PINS[2][0])

            def flap(times: int) -> None:
                for _ in range(times):
                    sensor.drive_low()
                    time.sleep(0.03)
                    sensor.drive_high()
                    time.sleep(0.03)
                sensor.drive_low()  # left on the sensor

            flapping = asyncio.create_task(asyncio.to_thread(flap, 20))
            await asyncio.sleep(0.4)
            await rig.press_lock_out()
            await flapping
            await rig.settle()
            current = daemon.state.current
            assert current is not None and current.no_more_bets
            assert [(e.seat, e.wager) for e in current.wagers()] == [(1, "ante")]
            refused = daemon.refusals.since(before)
            assert refused and all(
                r.startswith(
                    "seat 2 progressive: progressive wagers are not recognized while the progressive link"
                )
                for r in refused
            ), refused
            # Before the lock-out a placement is only shown (not journaled); at the lock-out the
            # chip, if it was on the sensor then, is journaled refused once; the first placement
            # after it once, as any chip after "no more bets" (§ 639a.7(c)), the rest of the
            # flapping counted and journaled as one count a second (docs/daemon.md).
            gpio = daemon.gpio
            assert gpio is not None and daemon.journal is not None
            await asyncio.sleep(2.5)  # the storm's count reported, then a quiet second ends it
            await daemon.drain()
            records = await daemon.journal.records()
            coalesced = sum(
                int(r.body["detail"]["count"])
                for r in records
                if r.body.get("fact") == "wagers_refused_coalesced" and "seat 2" in r.body["detail"]["kind"]
            )
            one_by_one = len(daemon.refusals.since(before))
            assert one_by_one <= 2 and one_by_one + coalesced - gpio.refused_by_seat[2] in (0, 1), (
                one_by_one,
                coalesced,
                gpio.refused_by_seat,
            )
            assert set(wager_lamps(rig).values()) == {LampState.SLOW_BLINKING}
            await rig.deal(1, SEAT_1)
            await rig.deal("dealer", DEALER)
            await api.submit_event({"type": "decision", "seat": 1, "action": "fold"})
            assert daemon.state.current is not None and daemon.state.current.round_id != current.round_id


async def test_a_restart_while_unavailable_shows_it_from_the_journal_at_once(
    tmp_path: Path, pki: Pki
) -> None:
    """The daemon restarted while the link is journaled down (the broker still away): from its
    first moment, before any timeout, every wager lamp blinks slowly and the chip left on a
    sensor is no wager; the broker back: the chip is this round's wager by itself."""
    async with linked_table(tmp_path, pki, "t3", timeout=TIMEOUT) as (link, rig):
        daemon = daemon_of(rig, linked=False)
        await until(lambda: link_up(daemon), 10, "the link up")
        await lose_the_broker(link, daemon)
        await rig.stop_daemon()
        await rig.start_daemon()
        daemon = daemon_of(rig, linked=False)
        gpio = daemon.gpio
        assert gpio is not None
        assert daemon.state.progressive_link_down is not None
        assert set(wager_lamps(rig).values()) == {LampState.SLOW_BLINKING}
        assert gpio.progressive_unavailable and gpio.accepted_total == 0
        # gpiozero's mock pin is driven to its pull when an input opens on it: the chip left on
        # seat 4's sensor reads as lifted after the restart, so it is placed again (not a wager).
        await rig.place_chip(4)
        assert gpio.accepted_total == 0 and wager_lamps(rig)[4] is LampState.SLOW_BLINKING
        await bring_back_the_broker(link, daemon)
        await daemon.drain()
        assert gpio.accepted(4) == 1 and wager_lamps(rig)[4] is LampState.STEADY
        assert {wager_lamps(rig)[s] for s in SEAT_PINS if s != 4} == {LampState.OFF}


async def test_the_link_dropping_at_the_lock_out_leaves_journal_lamps_and_meter_agreeing(
    tmp_path: Path, pki: Pki
) -> None:
    """The meter goes away (its last will) at the instant of the lock-out: whichever the journal
    took first, the round's progressive wagers and its contributions agree (a wager accepted is
    sent when the meter is back, a refused one is not), the lamps blink slowly from the loss, and
    the meter ends at initial + rate x the wagers accepted."""
    async with linked_table(tmp_path, pki, "t4", timeout=TIMEOUT) as (link, rig):
        daemon = daemon_of(rig, linked=False)
        await until(lambda: link_up(daemon), 10, "the link up")
        async with await ApiClient.connect(rig.socket) as api:
            for seat in (1, 2):
                await api.submit_event({"type": "wager", "seat": seat, "wager": "ante", "amount": "10.00"})
                await rig.place_chip(seat)
            round_id = daemon.round_id
            await asyncio.gather(rig.press_lock_out(), link.stop_meter())
            await until(lambda: daemon.state.progressive_link_down is not None, 10, "the link down")
            await daemon.drain()
            current = daemon.state.current
            assert current is not None and current.round_id == round_id and current.no_more_bets
            accepted = [e.seat for e in current.wagers() if e.wager == "progressive"]
            assert accepted in ([], [1, 2])  # one transaction: all the sensors' wagers or none
            assert set(wager_lamps(rig).values()) == {LampState.SLOW_BLINKING}
            assert daemon.journal is not None
            outbox = await daemon.journal.outbox_of_round(round_id, "contribution")
            assert len(outbox) == (1 if accepted else 0)
            for seat, cards in ((1, SEAT_1), (2, "3c 8d Ts 2h 5c"), ("dealer", DEALER)):
                await rig.deal(seat, cards)
            for seat in (1, 2):
                await api.submit_event({"type": "decision", "seat": seat, "action": "fold"})
            assert daemon.round_id != round_id
            await link.start_meter()
            await until(lambda: link_up(daemon), 15, "the link back")
            expected = PARAMS.initial + int(Fraction(len(accepted) * 100) * PARAMS.rate / 100)
            last = await daemon.journal.last_outbox_seq()
            await until(
                lambda: daemon.link is not None and daemon.link.publisher.state.applied_seq >= last,
                15,
                "the meter's ack",
            )
            assert link.store is not None and link.store.ledger.progressives["cs-floor"].amount == expected


async def test_a_cold_start_with_the_meter_down_keeps_progressive_wagering_closed_until_it_accepts(
    tmp_path: Path, pki: Pki, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 17 point 6 (G2S, N.J.A.C. 13:69E-1.39B: disabled until the host is heard). The daemon
    started while the meter is down, the link's timeout a long 30 s: from its first moment the
    link is journaled down "meter not heard", every wager lamp blinks slowly, a chip on the sensor
    at the lock-out is no progressive wager, and status and ``tablectl link`` say why; the meter
    started: once it has accepted the table's declaration the chip is a wager again by itself."""
    async with (
        running_link(tmp_path, pki, {"t1": "site-a"}, meter=False) as link,
        linked_rig(tmp_path, pki, link.broker, "t1", timeout=30) as rig,
    ):
        daemon = daemon_of(rig)
        gpio = daemon.gpio
        assert gpio is not None
        down = daemon.state.progressive_link_down
        assert down is not None and "meter not heard" in down
        assert set(wager_lamps(rig).values()) == {LampState.SLOW_BLINKING}
        async with await ApiClient.connect(rig.socket) as api:
            await until(
                lambda: daemon.link is not None and daemon.link.publisher.state.connected, 10, "the broker"
            )
            await asyncio.sleep(1.0)  # the broker is there, the meter is not: still closed
            await api.submit_event({"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"})
            await rig.place_chip(1)
            assert gpio.accepted_total == 0 and wager_lamps(rig)[1] is LampState.SLOW_BLINKING
            status = await api.status()
            assert "meter not heard" in str(status["progressive_unavailable"])
            assert await asyncio.to_thread(tablectl_main, ["link", "--socket", str(rig.socket)]) == 0
            assert "progressive wagering: CLOSED: meter not heard" in capsys.readouterr().out
            round_id = daemon.round_id
            await rig.press_lock_out()
            await daemon.drain()
            current = daemon.state.current
            assert current is not None and current.round_id == round_id and current.no_more_bets
            assert [(e.seat, e.wager) for e in current.wagers()] == [(1, "ante")]
            assert daemon.journal is not None
            assert await daemon.journal.outbox_of_round(round_id, "contribution") == []
            await rig.deal(1, SEAT_1)
            await rig.deal("dealer", DEALER)
            await api.submit_event({"type": "decision", "seat": 1, "action": "fold"})
            assert daemon.round_id != round_id

            await link.start_meter()
            await until(lambda: link_up(daemon), 15, "the meter's acceptance")
            assert daemon.link is not None
            ack = daemon.link.publisher.state.ack
            assert ack is not None and ack.verdict is not None and ack.verdict.accepted
            await daemon.drain()
            assert gpio.accepted(1) == 1 and wager_lamps(rig)[1] is LampState.STEADY
            assert (await api.status())["progressive_unavailable"] is None
            assert await asyncio.to_thread(tablectl_main, ["link", "--socket", str(rig.socket)]) == 0
            assert "progressive wagering: OPEN" in capsys.readouterr().out


async def test_a_table_the_meter_does_not_know_stays_closed_with_the_reason(tmp_path: Path, pki: Pki) -> None:
    """The meter heard (its status and heartbeats) but not linked to this table: it applies
    nothing of it and tells it why (its ack, a refused verdict with the meter's reason), so
    progressive wagering stays closed with the meter's words; a chip on a sensor is no wager."""
    async with (
        running_link(tmp_path, pki, {"t1": "site-a"}) as link,
        linked_rig(tmp_path, pki, link.broker, "t2", timeout=30) as rig,
    ):
        daemon = daemon_of(rig)
        assert daemon.link is not None
        state = daemon.link.publisher.state
        await until(lambda: state.meter_online and state.last_word is not None, 10, "the meter's word")
        said = "the meter refused the table's declaration: table 't2' is not a table of this meter's link"
        await until(
            lambda: said in (daemon.state.progressive_link_down or ""), 10, "the meter's reason journaled"
        )
        await asyncio.sleep(1.0)  # and it stays so
        assert said in (daemon.state.progressive_link_down or "")
        assert state.ack is not None and state.ack.applied_seq == 0  # nothing of it applied
        assert link.store is not None and "t2" not in link.store.ledger.tables
        gpio = daemon.gpio
        assert gpio is not None
        await rig.place_chip(1)
        await daemon.drain()
        assert gpio.accepted_total == 0 and wager_lamps(rig)[1] is LampState.SLOW_BLINKING
        assert "is not a table of this meter's link" in str(daemon.snapshot()["link"]["unavailable"])
