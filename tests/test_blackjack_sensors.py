"""Blackjack's progressives counted by wagering devices, not keyed (§ 633a.2(c): "an electronic
wagering system for the placement of the Bad Beat Progressive Wager" with a lock-out; § 633a.2(d):
"a wagering device at each betting position" and "a device that controls or monitors the
placement of Progressive Payout Wagers ... lock-out button" for the Hit and Run and Straight
Jack).

The real daemon (the bench rig's Blackjack: one device per progressive at seats 1-3 on
gpiozero's MockFactory pins), its local API, the lock-out button; the configuration checks
through the daemon's own entry point."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from controller.api_client import ApiClient, ApiError
from controller.daemon import Daemon, main
from controller.rules.core.money import parse_money
from hw.gpio_devices import LampState
from sim.bench_rig import TABLE_ID, BenchRig, config_text, example_submission

GAME = "blackjack"
PROGRESSIVES = ("bad_beat", "hit_and_run", "straight_jack")
TITLES = {
    "bad_beat": ("Bad Beat Progressive Wager", "§ 633a.6(e)(8)"),
    "hit_and_run": ("Hit and Run Progressive Wager", "§ 633a.6(e)(10)"),
    "straight_jack": ("Straight Jack Progressive Wager", "§ 633a.6(e)(11)"),
}


def daemon_of(rig: BenchRig) -> Daemon:
    assert rig.daemon is not None
    return rig.daemon


def sensed(daemon: Daemon) -> list[tuple[int, str, int]]:
    current = daemon.state.current
    assert current is not None
    return sorted(
        (e.seat, e.wager, e.amount)
        for e in current.wagers()
        if e.wager in PROGRESSIVES and e.seat is not None and e.amount is not None
    )


@pytest.mark.asyncio
async def test_a_keyed_progressive_wager_is_refused_for_each_of_the_three() -> None:
    """The dealer's screen claiming a Bad Beat, Hit and Run or Straight Jack Progressive Wager:
    refused (``forbidden``) with the wager, the reason and the section; nothing is a wager."""
    async with BenchRig(game=GAME) as rig:
        daemon = daemon_of(rig)
        async with await ApiClient.connect(rig.socket) as api:
            await api.submit_event({"type": "wager", "seat": 1, "wager": "blackjack", "amount": "10.00"})
            for name in PROGRESSIVES:
                with pytest.raises(ApiError) as refused:
                    await api.submit_event({"type": "wager", "seat": 1, "wager": name, "amount": "1.00"})
                title, section = TITLES[name]
                message = refused.value.message
                assert refused.value.code == "forbidden", message
                assert f"the {title} is counted by the wagering devices at the lock-out ({section}" in message
                assert "§ 633a.2(c), (d)" in message
            assert sensed(daemon) == []


@pytest.mark.asyncio
async def test_each_progressive_is_counted_on_its_own_device_at_the_lock_out() -> None:
    """Chips on seat 1's Bad Beat and Straight Jack devices and seat 3's Hit and Run: each lamp
    steady, the others off; a chip flapping on seat 2's Bad Beat device while the lock-out is
    pressed: whatever the pins said at the lock-out is what the journal has, no more; each
    journaled wager is one chip of its ``<wager>.wager``; a chip after the lock-out is refused."""
    async with BenchRig(game=GAME) as rig:
        daemon = daemon_of(rig)
        gpio = daemon.gpio
        assert gpio is not None
        rules = daemon.submission.rules
        chip = {name: getattr(rules, f"{name}_wager") for name in PROGRESSIVES}
        assert chip == {"bad_beat": parse_money("5.00"), "hit_and_run": 100, "straight_jack": 100}
        async with await ApiClient.connect(rig.socket) as api:
            for seat in (1, 2, 3):
                await api.submit_event(
                    {"type": "wager", "seat": seat, "wager": "blackjack", "amount": "10.00"}
                )
            for seat, name in ((1, "bad_beat"), (1, "straight_jack"), (3, "hit_and_run")):
                await rig.place_chip(seat, name)
            lamps = {(seat, name): gpio.wager_lamp(seat, name).state for seat, name in gpio.devices}
            assert {d for d, lamp in lamps.items() if lamp is LampState.STEADY} == {
                (1, "bad_beat"),
                (1, "straight_jack"),
                (3, "hit_and_run"),
            }
            assert set(lamps.values()) == {LampState.STEADY, LampState.OFF}
            pin = rig.factory.pin(rig.sensor_pin(2, "bad_beat"))

            def flap() -> None:
                for _ in range(15):
                    pin.drive_low()
                    time.sleep(0.03)
                    pin.drive_high()
                    time.sleep(0.03)

            flapping = asyncio.create_task(asyncio.to_thread(flap))
            await asyncio.sleep(0.3)
            await rig.press_lock_out()
            await flapping
            await rig.settle()
            current = daemon.state.current
            assert current is not None and current.no_more_bets
            journaled = sensed(daemon)
            counted = sorted((s, n, chip[n]) for s, n in gpio.accepted_devices)
            assert journaled == counted  # the system's count is the journal's (§ 639a.8(b))
            assert {(1, "bad_beat", 500), (1, "straight_jack", 100), (3, "hit_and_run", 100)} <= set(
                journaled
            )
            assert set(journaled) - {
                (1, "bad_beat", 500),
                (1, "straight_jack", 100),
                (3, "hit_and_run", 100),
            } <= {(2, "bad_beat", 500)}
            before = len(daemon.refusals)
            await rig.place_chip(2, "straight_jack")
            await rig.settle()
            assert any("seat 2 straight_jack" in r for r in daemon.refusals.since(before))
            assert sensed(daemon) == journaled


@pytest.mark.asyncio
async def test_a_restart_after_the_lock_out_keeps_each_device_s_count(tmp_path: Path) -> None:
    """Killed and restarted after the lock-out: each device's count is the journal's again (its
    lamp steady), the chips then on the devices are not new wagers."""
    async with BenchRig(tmp_path / "rig", game=GAME) as rig:
        daemon = daemon_of(rig)
        async with await ApiClient.connect(rig.socket) as api:
            await api.submit_event({"type": "wager", "seat": 2, "wager": "blackjack", "amount": "10.00"})
            await rig.place_chip(2, "hit_and_run")
            await rig.press_lock_out()
        journaled = sensed(daemon)
        assert journaled == [(2, "hit_and_run", 100)]
        await rig.stop_daemon()
        await rig.start_daemon()
        daemon = daemon_of(rig)
        gpio = daemon.gpio
        assert gpio is not None and gpio.locked
        assert gpio.accepted_devices == ((2, "hit_and_run"),)
        assert gpio.wager_lamp(2, "hit_and_run").state is LampState.STEADY
        assert gpio.wager_lamp(2, "bad_beat").state is LampState.OFF
        assert sensed(daemon) == journaled


def write_table(
    tmp: Path, game: str, progressives: tuple[str, ...] = (), replace: tuple[str, str] = ("", "")
) -> Path:
    (tmp / "rules-submission.toml").write_text(example_submission(game), encoding="utf-8")
    text = config_text(tmp, progressives=progressives)
    if replace[0]:
        assert replace[0] in text
        text = text.replace(*replace)
    path = tmp / "table-controller.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_pin_map_that_does_not_fit_the_game_is_refused_naming_each_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Blackjack on today's one-sensor pin map: exit 78, each seat's ``sensor`` named and each
    progressive's missing device; a near miss of a progressive's name gets a "did you mean"; the
    same pin map for Caribbean Stud (one progressive) is good, and a named device for it too."""
    one = write_table(tmp_path, GAME)
    assert main(["--config", str(one), "--check"]) == 78
    err = capsys.readouterr().err
    assert (
        "[gpio] gpio.seats.1.sensor: Blackjack offers 3 progressives (bad_beat, hit_and_run, straight_jack)"
        in err
    )
    assert (
        "[gpio] gpio.seats.5.progressives.straight_jack: missing; the Straight Jack Progressive Wager" in err
    )
    (tmp_path / "typo").mkdir()
    typo = write_table(
        tmp_path / "typo", GAME, PROGRESSIVES, ("progressives.bad_beat =", "progressives.bad_bet =")
    )
    assert main(["--config", str(typo), "--check"]) == 78
    err = capsys.readouterr().err
    assert (
        "gpio.seats.1.progressives.bad_bet: Blackjack has no progressive 'bad_bet'; did you mean 'bad_beat'?"
        in err
    )
    assert "gpio.seats.1.progressives.bad_beat: missing" in err
    (tmp_path / "good").mkdir()
    good = write_table(tmp_path / "good", GAME, PROGRESSIVES)
    assert main(["--config", str(good), "--check"]) == 0
    (tmp_path / "stud").mkdir()
    stud = write_table(tmp_path / "stud", "caribbean-stud")
    assert main(["--config", str(stud), "--check"]) == 0
    capsys.readouterr()
    named = stud.read_text().replace(
        "[gpio.seats.1]\nsensor = 5\nwager_lamp = 6\n",
        "[gpio.seats.1]\nprogressives.progresive = { sensor = 5, wager_lamp = 6 }\n",
    )
    stud.write_text(named)
    assert main(["--config", str(stud), "--check"]) == 78
    err = capsys.readouterr().err
    assert "gpio.seats.1.progressives.progresive: Caribbean Stud Poker has no progressive" in err
    assert "did you mean 'progressive'?" in err
    stud.write_text(named.replace("progresive", "progressive"))
    assert main(["--config", str(stud), "--check"]) == 0
    assert TABLE_ID in stud.read_text()
