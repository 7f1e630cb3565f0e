"""The table's GPIO: debounce, the lock-out, wager sensors and counts, lamps, the pin map.

Pins are gpiozero's ``MockFactory`` pins, driven from a worker thread as gpiozero's own thread
would call us; nothing of our own is mocked. The mock pin does not bounce, so the tests bounce it.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from gpiozero import Button  # type: ignore[import-untyped]
from gpiozero.exc import GPIOPinInUse  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from hw.debounce import Debouncer
from hw.gpio import (
    GpioEvent,
    LockOutPressed,
    LockOutRepeated,
    ProgressiveTableGameSystem,
    WagerNotRecognized,
    WagerRefused,
    WagerRemoved,
    WagerSensed,
)
from hw.gpio_devices import SLOW_BLINK_FACTOR, Lamp, LampState, LockOutButton, WagerSensor
from hw.pin_map import PinMap, PinMapError, SeatPins, check_pin_map, load_pin_map

WINDOW_MS = 40
WINDOW = WINDOW_MS / 1000
LOCK_OUT, FLOOR = 17, 27
SEAT_PINS = {1: (5, 6, 13), 2: (19, 26, 21), 3: (20, 16, 12)}  # sensor, wager lamp, won lamp


@pytest.fixture
def factory() -> Iterator[Any]:
    f = MockFactory()
    yield f
    f.reset()


def pin_map(**overrides: Any) -> PinMap:
    seats = tuple(SeatPins(s, *pins) for s, pins in SEAT_PINS.items())
    values: dict[str, Any] = {
        "lock_out": LOCK_OUT,
        "floorperson_light": FLOOR,
        "seats": seats,
        "debounce_ms": WINDOW_MS,
        "blink_ms": 50,
    }
    values.update(overrides)
    return PinMap(**values)


def bounce(pin: Any, to_low: bool, bounces: int = 4) -> None:
    """Drive a contact to a level the way a real one gets there: chattering first."""
    first, then = (pin.drive_low, pin.drive_high) if to_low else (pin.drive_high, pin.drive_low)
    for _ in range(bounces):
        first()
        then()
    first()


async def until(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the condition")
        await asyncio.sleep(0.002)


class Table:
    """A system on mock pins with the events it delivered and the thread each came on."""

    def __init__(self, factory: Any, **kwargs: Any) -> None:
        self.factory = factory
        self.events: list[GpioEvent] = []
        self.threads: set[int] = set()
        self.system = ProgressiveTableGameSystem(
            kwargs.pop("pin_map", None) or pin_map(), self.on_event, pin_factory=factory, **kwargs
        )

    def on_event(self, event: GpioEvent) -> None:
        self.threads.add(threading.get_ident())
        self.events.append(event)

    def pin(self, n: int) -> Any:
        return self.factory.pin(n)

    def sensor(self, seat: int) -> Any:
        return self.pin(SEAT_PINS[seat][0])

    async def drive(self, *steps: Callable[[], None]) -> None:
        """Run pin changes in a worker thread (as gpiozero's thread delivers edges)."""

        def run() -> None:
            for step in steps:
                step()

        await asyncio.to_thread(run)

    async def wait_events(self, n: int) -> list[GpioEvent]:
        await until(lambda: len(self.events) >= n)
        await asyncio.sleep(0.01)  # and no more than n
        return self.events


# --- the debouncer on its own (edge times given) -------------------------------------------


def test_bounces_within_the_window_give_one_change() -> None:
    d = Debouncer(0.02, level=False)
    changes = [d.edge(t, lvl) for t, lvl in [(0.0, True), (0.001, False), (0.002, True), (0.015, False)]]
    assert changes == [(True,), (), (), ()]
    assert d.level is True and d.ignored == 3
    # The contact ended open within the window: the settle at its end takes that.
    assert d.settle_in(0.015) == pytest.approx(0.005)
    assert d.settle() is True and d.level is False


def test_changes_outside_the_window_each_count() -> None:
    d = Debouncer(0.02, level=False)
    changes = [d.edge(t, lvl) for t, lvl in [(0.0, True), (0.05, False), (0.1, True)]]
    assert changes == [(True,), (False,), (True,)]
    assert d.ignored == 0 and d.settle_in(0.1) is None and d.settle() is False


def test_a_press_is_not_lost_behind_a_late_settle() -> None:
    """Pressed, released within the window, pressed again after it, the settle's timer not run yet:
    the release the settle would have taken comes first, then the new press."""
    d = Debouncer(0.02, level=False)
    assert d.edge(0.0, True) == (True,)
    assert d.edge(0.001, False) == ()
    assert d.edge(0.032, True) == (False, True)
    assert d.settle() is False  # the late timer finds nothing left to do
    # A late settle whose window has not ended for the new edge: that edge is bounce of the release.
    d = Debouncer(0.02, level=False)
    d.edge(0.0, True)
    d.edge(0.019, False)
    assert d.edge(0.025, True) == (False,) and d.settle_in(0.025) == pytest.approx(0.014)
    assert d.settle() is True and d.level is True


def test_a_negative_window_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        Debouncer(-0.001, level=False)


@given(
    window_ms=st.integers(0, 50),
    edges=st.lists(st.tuples(st.integers(0, 80), st.booleans(), st.booleans()), max_size=60),
)
@settings(max_examples=300, deadline=None)
def test_debounced_changes_alternate_keep_the_window_and_end_at_the_contact(
    window_ms: int, edges: list[tuple[int, bool, bool]]
) -> None:
    """Any edges (gap in ms, level, whether the settle timer is late): the changes alternate, a
    change an edge brings is a window after the one before, and after the last window the level
    is the contact's. The settle runs when its timer would, or later when it is late."""
    window = window_ms / 1000
    d = Debouncer(window, level=False)
    level, t, due = False, 0.0, None
    last_taken: float | None = None  # when the window of the last change began
    last_edge = 0.0
    for gap_ms, raw, timer_late in edges:
        t += gap_ms / 1000
        if due is not None and due <= t and not timer_late:
            if d.settle():
                assert d.level != level
                level, last_taken = d.level, last_edge
            due = None
        # The settle of an earlier window still pending, that window over: the edge takes it first.
        late = d.raw_level != d.level and (last_taken is None or t - last_taken >= window)
        changes = d.edge(t, raw)
        if late:
            assert changes[0] != level
            level, last_taken = changes[0], last_edge
            changes = changes[1:]
        assert len(changes) <= 1
        for change in changes:  # taken by this edge: a window after the change before
            assert change == raw != level
            assert last_taken is None or t - last_taken >= window
            level, last_taken = change, t
        if due is None and (wait := d.settle_in(t)) is not None:
            due = t + wait
        last_edge = t
    d.settle()
    assert d.level == (edges[-1][1] if edges else False)
    assert d.ignored <= len(edges)


# --- the devices on mock pins ---------------------------------------------------------------


def test_lock_out_bounce_within_the_window_is_one_press(factory: Any) -> None:
    presses: list[int] = []
    with LockOutButton(LOCK_OUT, debounce_ms=WINDOW_MS, pin_factory=factory) as button:
        button.when_pressed = presses.append
        before = time.monotonic_ns()
        bounce(button.pin, to_low=True)  # pulled up: pressed is low
        assert len(presses) == 1 and before <= presses[0] <= time.monotonic_ns()
        assert button.is_pressed and button.bounces == 8


def test_lock_out_presses_outside_the_window_are_two(factory: Any) -> None:
    presses: list[int] = []
    releases: list[int] = []
    with LockOutButton(LOCK_OUT, debounce_ms=WINDOW_MS, pin_factory=factory) as button:
        button.when_pressed = presses.append
        button.when_released = releases.append
        bounce(button.pin, to_low=True)
        time.sleep(WINDOW * 2)
        bounce(button.pin, to_low=False)
        time.sleep(WINDOW * 2)
        bounce(button.pin, to_low=True)
        assert (len(presses), len(releases)) == (2, 1)


def test_a_tap_shorter_than_the_window_settles_released(factory: Any) -> None:
    seen: list[str] = []
    with LockOutButton(LOCK_OUT, debounce_ms=WINDOW_MS, pin_factory=factory) as button:
        button.when_pressed = lambda _ns: seen.append("pressed")
        button.when_released = lambda _ns: seen.append("released")
        button.pin.drive_low()
        button.pin.drive_high()  # within the window: ignored as bounce...
        assert seen == ["pressed"] and button.is_pressed
        time.sleep(WINDOW * 3)  # ...until the window ends with the button up
        assert seen == ["pressed", "released"] and not button.is_pressed


def test_a_sensor_wired_active_high_with_a_pull_down(factory: Any) -> None:
    with WagerSensor(5, pull_up=False, debounce_ms=0, pin_factory=factory) as sensor:
        placed: list[int] = []
        sensor.when_placed = placed.append
        assert not sensor.wager_present
        sensor.pin.drive_high()
        assert sensor.wager_present and len(placed) == 1


def test_a_floating_input_needs_its_active_level(factory: Any) -> None:
    with pytest.raises(ValueError, match="active_high"):
        WagerSensor(5, pull_up=None, pin_factory=factory)
    with WagerSensor(5, pull_up=None, active_high=True, pin_factory=factory) as sensor:
        assert sensor.pin.pull == "floating"


def test_a_failing_handler_is_logged_not_raised_into_gpiozero(
    factory: Any, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(_ns: int) -> None:
        raise RuntimeError("broken handler")

    with LockOutButton(LOCK_OUT, debounce_ms=0, pin_factory=factory) as button:
        button.when_pressed = broken
        with caplog.at_level(logging.ERROR):
            button.pin.drive_low()
        assert "broken handler" in caplog.text and button.is_pressed


def test_lamp_steady_and_blinking_read_from_the_mock_pin(factory: Any) -> None:
    with Lamp(6, blink_ms=20, pin_factory=factory) as lamp:
        pin = factory.pin(6)
        assert lamp.state is LampState.OFF and pin.state is False
        lamp.on()
        pin.clear_states()
        time.sleep(0.1)
        assert lamp.state is LampState.STEADY and pin.state is True and len(pin.states) == 1
        lamp.blink()
        time.sleep(0.2)
        levels = [s.state for s in pin.states]
        assert lamp.state is LampState.BLINKING and len(levels) >= 5
        assert all(a != b for a, b in itertools.pairwise(levels))  # on, off, on, ...
        lamp.blink()  # already blinking: not restarted
        lamp.off()
        settled = len(pin.states)
        time.sleep(0.1)
        assert pin.state is False and len(pin.states) == settled


def test_a_slow_blink_is_slower_than_a_blink(factory: Any) -> None:
    """The "progressive unavailable" pattern: on and off every SLOW_BLINK_FACTOR x blink_ms."""
    with Lamp(6, blink_ms=20, pin_factory=factory) as lamp:
        pin = factory.pin(6)
        lamp.show(LampState.SLOW_BLINKING)
        pin.clear_states()
        time.sleep(0.5)
        # Each state's timestamp is the time since the change before; the first ones follow
        # clear_states and the blink's start.
        gaps = [s.timestamp for s in pin.states][2:]
        assert lamp.state is LampState.SLOW_BLINKING and 3 <= len(gaps) <= 7
        period = 20 * SLOW_BLINK_FACTOR / 1000
        assert all(gap > period * 0.7 for gap in gaps), gaps  # a blink's 20 ms would be far less
        lamp.off()
        assert pin.state is False


def test_an_active_low_lamp_lights_with_a_low_pin(factory: Any) -> None:
    with Lamp(6, active_high=False, pin_factory=factory) as lamp:
        assert factory.pin(6).state is True
        lamp.on()
        assert factory.pin(6).state is False and lamp.is_lit


# --- the system on the loop -------------------------------------------------------------------


@pytest.mark.asyncio
async def test_lock_out_arrives_on_the_loop_thread_with_its_time(factory: Any) -> None:
    table = Table(factory)
    loop_thread = threading.get_ident()
    drivers: set[int] = set()
    before = time.monotonic_ns()
    await table.drive(lambda: drivers.add(threading.get_ident()), lambda: bounce(table.pin(LOCK_OUT), True))
    [event] = await table.wait_events(1)
    assert isinstance(event, LockOutPressed) and before <= event.at_ns <= time.monotonic_ns()
    assert table.threads == {loop_thread} and loop_thread not in drivers
    assert table.system.locked
    table.system.close()


@pytest.mark.asyncio
async def test_wagers_are_counted_and_lit_before_the_lock_out(factory: Any) -> None:
    table = Table(factory)
    s = table.system
    await table.drive(lambda: bounce(table.sensor(1), True), lambda: bounce(table.sensor(3), True))
    events = await table.wait_events(2)
    assert [(type(e), e.seat) for e in events if not isinstance(e, LockOutPressed)] == [
        (WagerSensed, 1),
        (WagerSensed, 3),
    ]
    assert dict(s.accepted_by_seat) == {1: 1, 2: 0, 3: 1} and s.accepted_total == 2
    assert factory.pin(SEAT_PINS[1][1]).state and factory.pin(SEAT_PINS[3][1]).state
    assert not factory.pin(SEAT_PINS[2][1]).state
    # Seat 3 changes its mind before "no more bets".
    await asyncio.sleep(WINDOW * 2)
    await table.drive(lambda: bounce(table.sensor(3), False))
    events = await table.wait_events(3)
    assert isinstance(events[2], WagerRemoved) and events[2].seat == 3
    assert s.accepted(3) == 0 and s.accepted_total == 1
    assert s.wager_lamp(3).state is LampState.OFF and not factory.pin(SEAT_PINS[3][1]).state
    s.close()


@pytest.mark.asyncio
async def test_a_wager_sensed_after_the_lock_out_is_refused(
    factory: Any, caplog: pytest.LogCaptureFixture
) -> None:
    table = Table(factory)
    s = table.system
    await table.drive(lambda: bounce(table.sensor(1), True))
    await table.wait_events(1)
    await table.drive(lambda: bounce(table.pin(LOCK_OUT), True))
    await table.wait_events(2)
    with caplog.at_level(logging.WARNING, logger="hw.gpio"):
        await table.drive(lambda: bounce(table.sensor(2), True))
        events = await table.wait_events(3)
    assert isinstance(events[2], WagerRefused) and events[2].seat == 2
    assert "not recognized" in caplog.text
    assert s.accepted_total == 1 and s.accepted(2) == 0 and dict(s.refused_by_seat)[2] == 1
    assert s.wager_lamp(2).state is LampState.OFF and not factory.pin(SEAT_PINS[2][1]).state
    # The dealer collects seat 1's chip for the count (past its placement's debounce window, as a
    # hand reaching it is): the count and its lamp stay (§ 639a.8(b)).
    await asyncio.sleep(WINDOW_MS / 1000)
    await table.drive(lambda: bounce(table.sensor(1), False))
    await asyncio.sleep(0.05)
    assert len(table.events) == 3 and s.accepted_total == 1 and s.wager_lamp(1).state is LampState.STEADY
    assert s.ignored_while_locked == 2
    s.close()


@pytest.mark.asyncio
async def test_a_chip_an_instant_after_the_lock_out_is_refused_however_late_the_loop(factory: Any) -> None:
    table = Table(factory)
    # Both edges in one go from gpiozero's thread; the loop only runs afterwards.
    await table.drive(lambda: table.pin(LOCK_OUT).drive_low(), lambda: table.sensor(2).drive_low())
    events = await table.wait_events(2)
    assert [type(e) for e in events] == [LockOutPressed, WagerRefused]
    assert table.system.accepted_total == 0
    table.system.close()


@pytest.mark.asyncio
async def test_a_second_press_while_locked_is_counted_and_sent_as_repeated(factory: Any) -> None:
    table = Table(factory)
    lock_out = table.pin(LOCK_OUT)
    await table.drive(lambda: bounce(lock_out, True))
    await table.wait_events(1)
    await asyncio.sleep(WINDOW * 2)
    await table.drive(lambda: bounce(lock_out, False))
    await asyncio.sleep(WINDOW * 2)
    await table.drive(lambda: bounce(lock_out, True))
    await until(lambda: table.system.lock_out_presses == 2)
    # Reported so the journal shows every press (issue 9, item 2), never a second lock-out.
    events = await table.wait_events(2)
    assert [type(e) for e in events] == [LockOutPressed, LockOutRepeated]
    assert events[1].presses == 2  # type: ignore[union-attr]
    table.system.close()


@pytest.mark.asyncio
async def test_unlock_opens_the_next_round(factory: Any) -> None:
    table = Table(factory)
    s = table.system
    await table.drive(lambda: table.sensor(1).drive_low(), lambda: table.pin(LOCK_OUT).drive_low())
    await table.drive(lambda: table.sensor(2).drive_low())  # refused
    await table.wait_events(3)
    await table.drive(lambda: table.sensor(1).drive_high())  # collected; seat 2's chip stays
    await until(lambda: not s.status().wager_present[1])  # after seat 1's window, if it was bounce
    # Seat 2's chip is taken off just as the round opens: its edge is still queued for the loop
    # when unlock() runs (the thread is joined without letting the loop turn).
    driver = threading.Thread(target=table.sensor(2).drive_high)
    driver.start()
    driver.join()
    s.unlock()
    assert not s.locked
    assert s.accepted(1) == 0 and dict(s.refused_by_seat)[2] == 0
    # The chip still on the device was the new round's wager, reported before unlock() returned...
    assert s.accepted(2) == 1 and len(table.events) == 4
    assert isinstance(table.events[3], WagerSensed) and table.events[3].seat == 2
    # ...so the edge already on its way comes after it, and the count ends right.
    events = await table.wait_events(5)
    assert isinstance(events[4], WagerRemoved) and events[4].seat == 2 and s.accepted_total == 0
    s.unlock()  # not locked: nothing
    assert len(table.events) == 5
    assert s.lock() is True and s.lock() is False and s.locked
    await table.drive(lambda: table.sensor(3).drive_low())
    assert isinstance((await table.wait_events(6))[5], WagerRefused)
    s.close()


@pytest.mark.asyncio
async def test_resuming_a_locked_round_keeps_the_journal_s_wagers(factory: Any) -> None:
    for seat, level in {1: False, 2: False, 3: True}.items():  # chips on seats 1 and 2 (active low)
        pin = factory.pin(SEAT_PINS[seat][0])
        pin.drive_high() if level else pin.drive_low()
    # Floating inputs, so setting up the pins does not pull the mock pins back up.
    table = Table(factory, pin_map=pin_map(sensor_pull="none"), locked=True, accepted=[1])
    await asyncio.sleep(0.02)
    s = table.system
    assert s.status().wager_present == {1: True, 2: True, 3: False}
    assert table.events == [] and s.locked and s.accepted_total == 1
    assert s.wager_lamp(1).state is LampState.STEADY and s.wager_lamp(2).state is LampState.OFF
    s.close()
    with pytest.raises(ValueError, match=r"seats \[9\]"):
        Table(factory, locked=True, accepted=[9])
    Table(factory).system.close()  # nothing was left reserved


@pytest.mark.asyncio
async def test_a_chip_on_a_device_at_start_is_a_wager_when_open(factory: Any) -> None:
    for seat, level in {1: True, 2: True, 3: False}.items():  # a chip on seat 3 (active low)
        pin = factory.pin(SEAT_PINS[seat][0])
        pin.drive_high() if level else pin.drive_low()
    table = Table(factory, pin_map=pin_map(sensor_pull="none"))
    assert table.events == []  # never from inside the constructor
    [event] = await table.wait_events(1)
    assert event == WagerSensed(3, event.at_ns) and table.system.accepted_total == 1
    table.system.close()


@pytest.mark.asyncio
async def test_progressive_unavailable_blinks_every_wager_lamp_and_recognizes_no_chip(factory: Any) -> None:
    """N.J.A.C. 13:69E-1.39B: while the progressive is unavailable every seat's wager lamp blinks
    slowly, an accepted chip is withdrawn, a chip placed is not recognized; back, the chips on
    the devices are the round's wagers again by themselves, their lamps steady."""
    table = Table(factory)
    s = table.system
    await table.drive(lambda: bounce(table.sensor(1), True))
    await table.wait_events(1)
    assert s.accepted(1) == 1 and s.wager_lamp(1).state is LampState.STEADY
    s.set_progressive_unavailable(True)
    assert isinstance(table.events[1], WagerRemoved) and table.events[1].seat == 1
    assert s.progressive_unavailable and s.accepted_total == 0
    assert {s.wager_lamp(seat).state for seat in s.seats} == {LampState.SLOW_BLINKING}
    assert s.status().to_json()["progressive_unavailable"] is True
    await table.drive(lambda: bounce(table.sensor(2), True))
    events = await table.wait_events(3)
    assert isinstance(events[2], WagerNotRecognized) and events[2].seat == 2
    assert s.accepted_total == 0 and dict(s.present_by_seat) == {1: True, 2: True, 3: False}
    assert s.wager_lamp(2).state is LampState.SLOW_BLINKING
    await asyncio.sleep(WINDOW * 2)
    await table.drive(lambda: bounce(table.sensor(2), False))  # taken off again: nothing to say
    await asyncio.sleep(WINDOW * 2)
    assert len(table.events) == 3
    s.set_progressive_unavailable(True)  # already: nothing
    assert len(table.events) == 3
    s.set_progressive_unavailable(False)
    assert [(type(e), e.seat) for e in table.events[3:]] == [(WagerSensed, 1)]  # type: ignore[union-attr]
    assert dict(s.accepted_by_seat) == {1: 1, 2: 0, 3: 0}
    assert s.wager_lamp(1).state is LampState.STEADY and s.wager_lamp(2).state is LampState.OFF
    s.close()


@pytest.mark.asyncio
async def test_progressive_unavailable_while_locked_keeps_the_round_s_counts(factory: Any) -> None:
    """After the lock-out the counts are the round's (journaled with it): unavailable changes the
    lamps only, and the lamps come back as the counts are; unlocked while unavailable, a chip on
    a device is no wager; a system built unavailable (a restart) recognizes none from the start."""
    table = Table(factory)
    s = table.system
    await table.drive(lambda: bounce(table.sensor(3), True))
    await table.wait_events(1)
    await table.drive(lambda: bounce(table.pin(LOCK_OUT), True))
    await table.wait_events(2)
    s.set_progressive_unavailable(True)
    assert s.accepted(3) == 1 and len(table.events) == 2
    assert {s.wager_lamp(seat).state for seat in s.seats} == {LampState.SLOW_BLINKING}
    s.set_progressive_unavailable(False)
    assert s.wager_lamp(3).state is LampState.STEADY and s.wager_lamp(1).state is LampState.OFF
    s.set_progressive_unavailable(True)
    s.unlock()
    assert s.accepted_total == 0 and len(table.events) == 2  # seat 3's chip is no wager
    assert s.wager_lamp(3).state is LampState.SLOW_BLINKING
    s.close()
    factory.reset()
    for seat in SEAT_PINS:  # a chip on seat 1 (active low, not pulled)
        pin = factory.pin(SEAT_PINS[seat][0])
        pin.drive_low() if seat == 1 else pin.drive_high()
    restarted = Table(factory, pin_map=pin_map(sensor_pull="none"), unavailable=True)
    await asyncio.sleep(0.05)
    assert restarted.events == [] and restarted.system.accepted_total == 0
    assert restarted.system.wager_lamp(1).state is LampState.SLOW_BLINKING
    restarted.system.set_progressive_unavailable(False)
    assert [(type(e), e.seat) for e in restarted.events] == [(WagerSensed, 1)]  # type: ignore[union-attr]
    restarted.system.close()


@pytest.mark.asyncio
async def test_won_lamp_and_floorperson_light(factory: Any) -> None:
    table = Table(factory, pin_map=pin_map(lamp_active="low"))
    s = table.system
    won = factory.pin(SEAT_PINS[2][2])
    assert won.state is True  # active low: off is high
    s.set_won_lamp(2)
    won.clear_states()
    await asyncio.sleep(0.3)
    levels = [p.state for p in won.states]
    assert s.won_lamp(2).state is LampState.BLINKING and len(levels) >= 4 and {True, False} <= set(levels)
    s.set_won_lamp(2, LampState.STEADY)
    assert won.state is False
    s.set_floorperson_light()
    assert factory.pin(FLOOR).state is False and s.floorperson_light.state is LampState.STEADY
    status = s.status().to_json()
    assert status["lamps"] == {
        "floorperson_light": "steady",
        **{f"seats.{n}.{k}": "off" for n in SEAT_PINS for k in ("wager_lamp", "won_lamp")},
        "seats.2.won_lamp": "steady",
    }
    s.set_won_lamp(2, LampState.OFF)
    s.set_floorperson_light(LampState.OFF)
    assert won.state is True and factory.pin(FLOOR).state is True
    s.close()


@pytest.mark.asyncio
async def test_close_releases_every_pin_and_stops_events(factory: Any) -> None:
    table = Table(factory)
    s = table.system
    with pytest.raises(GPIOPinInUse):
        Button(LOCK_OUT, pin_factory=factory)
    s.set_won_lamp(1)  # a blink thread running
    s.close()
    s.close()
    assert s.closed and s.lock_out_button.closed and s.won_lamp(1).closed
    await table.drive(lambda: table.pin(LOCK_OUT).drive_low(), lambda: table.sensor(1).drive_low())
    await asyncio.sleep(0.05)
    assert table.events == []
    pins = [LOCK_OUT, FLOOR, *(p for trio in SEAT_PINS.values() for p in trio)]
    for n in pins:
        Button(n, pin_factory=factory).close()
    factory.pin(LOCK_OUT).drive_high()
    factory.pin(SEAT_PINS[1][0]).drive_high()
    again = Table(factory)
    assert not again.system.locked
    again.system.close()


@pytest.mark.asyncio
async def test_a_pin_that_cannot_open_releases_those_opened(factory: Any) -> None:
    taken = Button(SEAT_PINS[2][1], pin_factory=factory)  # seat 2's wager lamp, held elsewhere
    with pytest.raises(GPIOPinInUse):
        Table(factory)
    taken.close()
    Button(LOCK_OUT, pin_factory=factory).close()  # opened before the failure, released after it
    Table(factory).system.close()


@pytest.mark.asyncio
async def test_a_failing_on_event_is_logged_and_the_state_kept(
    factory: Any, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(_event: GpioEvent) -> None:
        raise RuntimeError("daemon bug")

    s = ProgressiveTableGameSystem(pin_map(), broken, pin_factory=factory)
    with caplog.at_level(logging.ERROR, logger="hw.gpio"):
        await asyncio.to_thread(lambda: factory.pin(LOCK_OUT).drive_low())
        await until(lambda: s.locked)
        await asyncio.sleep(0.01)
    assert "daemon bug" in caplog.text
    s.close()


def test_the_events_in_json() -> None:
    assert LockOutPressed(5).to_json() == {"type": "lock_out_pressed", "at_ns": 5}
    assert WagerRefused(2, 7).to_json() == {"type": "wager_refused", "seat": 2, "at_ns": 7}


# --- the pin map ---------------------------------------------------------------------------------

GOOD: Mapping[str, Any] = {
    "lock_out": 17,
    "floorperson_light": 27,
    "seats": {
        "1": {"sensor": 5, "wager_lamp": 6, "won_lamp": 13},
        "2": {"sensor": 19, "wager_lamp": 26, "won_lamp": 21},
    },
}


def test_a_good_pin_map_loads_with_its_defaults() -> None:
    m = load_pin_map(GOOD)
    assert m == PinMap(17, 27, (SeatPins(1, 5, 6, 13), SeatPins(2, 19, 26, 21)))
    assert (m.debounce_ms, m.lock_out_pull, m.lock_out_active, m.lamp_active) == (20, "up", "low", "high")
    assert list(m.uses())[:3] == [
        ("gpio.lock_out", 17),
        ("gpio.floorperson_light", 27),
        ("gpio.seats.1.sensor", 5),
    ]
    assert check_pin_map(GOOD) == []


def test_every_pin_map_problem_at_once_naming_the_key() -> None:
    raw = {
        "lock_out": 17,
        "floorperson_lite": 27,
        "debounce_ms": 1000,
        "sensor_pull": "upp",
        "seats": {
            "1": {"sensor": 5, "wager_lamp": 6, "won_lamp": 13},
            "3": {"sensor": 17, "wager_lamp": "6", "wonlamp": 40},
            "12": {"sensor": 1, "wager_lamp": 2, "won_lamp": 3},
        },
    }
    with pytest.raises(PinMapError) as err:
        load_pin_map(raw)
    assert err.value.problems == (
        "gpio.floorperson_lite: unknown key; did you mean gpio.floorperson_light?",
        "gpio.debounce_ms 1000: must be from 0 to 250 ms",
        "gpio.sensor_pull 'upp': must be one of 'up', 'down', 'none'; did you mean 'up'?",
        "gpio.floorperson_light: missing; the BCM GPIO number of the call-floorperson light",
        "gpio.seats.12: a seat is numbered 1 to 10 from the dealer's far left",
        "gpio.seats.3.wonlamp: unknown key; did you mean gpio.seats.3.won_lamp?",
        "gpio.seats.3.sensor: pin 17 is already used by gpio.lock_out",
        "gpio.seats.3.wager_lamp '6': write the BCM GPIO number as a whole number such as 17",
        "gpio.seats.3.won_lamp: missing; the BCM GPIO number of the seat's progressive-won lamp"
        " (§ 639a.8(c)(5)(ii))",
    )
    assert str(err.value).startswith("gpio: 9 problems\n  - gpio.floorperson_lite")


#: A seat with a device for each of two progressives, and a seat with the single one.
NAMED = {
    "lock_out": 17,
    "floorperson_light": 27,
    "seats": {
        "1": {
            "won_lamp": 13,
            "progressives": {
                "bad_beat": {"sensor": 5, "wager_lamp": 6},
                "straight_jack": {"sensor": 19, "wager_lamp": 26},
            },
        },
        "2": {"sensor": 20, "wager_lamp": 21, "won_lamp": 12},
    },
}


def test_a_pin_map_with_one_device_per_progressive() -> None:
    """``progressives.NAME`` gives a seat one sensor and wager lamp per progressive; today's
    ``sensor``/``wager_lamp`` stay the seat's one device (:data:`hw.pin_map.SINGLE`)."""
    m = load_pin_map(NAMED)
    one, two = m.seats
    assert [(d.name, d.sensor, d.wager_lamp) for d in one.devices] == [
        ("bad_beat", 5, 6),
        ("straight_jack", 19, 26),
    ]
    assert one.sensor is None and [(d.name, d.sensor) for d in two.devices] == [("", 20)]
    assert dict(m.uses())["gpio.seats.1.progressives.straight_jack.wager_lamp"] == 26
    assert dict(m.uses())["gpio.seats.2.sensor"] == 20


def test_a_named_device_s_problems_name_their_keys() -> None:
    raw = {
        "lock_out": 17,
        "floorperson_light": 27,
        "seats": {
            "1": {
                "won_lamp": 13,
                "progressives": {
                    "bad_beat": {"sensr": 5, "wager_lamp": 6},
                    "Hit-Run": {"sensor": 7, "wager_lamp": 8},
                    "straight_jack": {"sensor": 6, "wager_lamp": 9},
                },
            },
            "2": {"won_lamp": 12, "progresives": {}},
            "3": {"won_lamp": 11, "progressives": []},
        },
    }
    assert check_pin_map(raw) == [
        "gpio.seats.1.progressives.bad_beat.sensr: unknown key; did you mean "
        "gpio.seats.1.progressives.bad_beat.sensor?",
        "gpio.seats.1.progressives.bad_beat.sensor: missing; the BCM GPIO number of the seat's progressive "
        "wagering device (§ 639a.2(c)(1), § 633a.2(d)(1)); a seat with one device per progressive gives "
        "progressives.NAME tables instead",
        "gpio.seats.1.progressives.Hit-Run: a progressive is named as its wager in the Rules Submission "
        "(lower-case letters, digits, _), such as bad_beat",
        "gpio.seats.1.progressives.straight_jack.sensor: pin 6 is already used by "
        "gpio.seats.1.progressives.bad_beat.wager_lamp",
        "gpio.seats.2.progresives: unknown key; did you mean gpio.seats.2.progressives?",
        "gpio.seats.2.sensor: missing; the BCM GPIO number of the seat's progressive wagering device "
        "(§ 639a.2(c)(1), § 633a.2(d)(1)); a seat with one device per progressive gives progressives.NAME "
        "tables instead",
        "gpio.seats.2.wager_lamp: missing; the BCM GPIO number of the seat's wager-accepted lamp",
        "gpio.seats.3.progressives: must be a table of progressives such as gpio.seats.3.progressives."
        "bad_beat = { sensor = 5, wager_lamp = 6 }, not []",
    ]


@pytest.mark.asyncio
async def test_each_progressive_s_device_is_counted_and_lit_on_its_own(factory: Any) -> None:
    """Two chips at seat 1, one on each progressive's device: two wagers, each named, each lamp
    steady; one lifted: only its own; after the lock-out a chip on a device is refused, named."""
    table = Table(factory, pin_map=load_pin_map({**NAMED, "debounce_ms": WINDOW_MS}))
    s = table.system
    assert s.devices == ((1, "bad_beat"), (1, "straight_jack"), (2, ""))
    await table.drive(lambda: bounce(table.pin(5), True), lambda: bounce(table.pin(19), True))
    events = await table.wait_events(2)
    assert [(type(e), e.seat, e.progressive) for e in events] == [  # type: ignore[union-attr]
        (WagerSensed, 1, "bad_beat"),
        (WagerSensed, 1, "straight_jack"),
    ]
    assert s.accepted(1) == 2 and s.accepted(1, "bad_beat") == 1 and s.accepted_total == 2
    assert s.wager_lamp(1, "straight_jack").state is LampState.STEADY
    assert events[0].to_json()["progressive"] == "bad_beat"
    await asyncio.sleep(WINDOW * 2)
    await table.drive(lambda: bounce(table.pin(5), False))
    events = await table.wait_events(3)
    assert isinstance(events[2], WagerRemoved) and events[2].progressive == "bad_beat"
    assert s.accepted_devices == ((1, "straight_jack"),)
    assert s.wager_lamp(1, "bad_beat").state is LampState.OFF
    assert s.lamp("seats.1.progressives.bad_beat.wager_lamp") is s.wager_lamp(1, "bad_beat")
    # The lock-out past the lifted chip's window: a chip back within it would be that movement's
    # (docs/gpio.md, "The lock-out's edge").
    await asyncio.sleep(WINDOW * 2)
    await table.drive(lambda: bounce(table.pin(LOCK_OUT), True))
    await table.wait_events(4)
    await table.drive(lambda: bounce(table.pin(5), True))
    events = await table.wait_events(5)
    assert isinstance(events[4], WagerRefused) and (events[4].seat, events[4].progressive) == (1, "bad_beat")
    s.close()


def test_pin_map_ranges_and_the_fixed_pull_ups() -> None:
    raw = {**GOOD, "lock_out": 2, "lock_out_pull": "down", "floorperson_light": 28, "seats": {}}
    assert check_pin_map(raw) == [
        "gpio.lock_out: pin 2 (I2C SDA) has a fixed pull-up on the board, so pull 'down' cannot work; "
        'set the pull to "up" or choose another pin',
        "gpio.floorperson_light 28: not a GPIO of the 40-pin header (BCM 0 to 27)",
        "gpio.seats: must be a table of seats such as gpio.seats.1, not {}",
    ]
    # A lamp on pin 3 is fine, and so is an input there pulled up.
    assert check_pin_map({**GOOD, "lock_out": 3, "floorperson_light": 2}) == []


def test_pin_map_keys_bare_for_a_caller_that_names_the_section() -> None:
    assert check_pin_map({**GOOD, "lock_out": 13}, where="") == [
        "seats.1.won_lamp: pin 13 is already used by lock_out"
    ]
    assert check_pin_map([], where="") == ["gpio: must be a table of pins, not []"]  # type: ignore[arg-type]


_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.text(max_size=6) | st.floats(allow_nan=False),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["sensor", "wager_lamp", "won_lamp", "1", "2", "x", "07"]) | st.text(max_size=4),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)
_tables = st.dictionaries(
    st.sampled_from([*GOOD, "debounce_ms", "blink_ms", "lock_out_pull", "lamp_active", "seat"])
    | st.text(max_size=5),
    _values,
    max_size=6,
)


@given(_tables)
@settings(max_examples=300, deadline=None)
def test_any_table_loads_or_lists_its_problems(raw: dict[str, Any]) -> None:
    problems = check_pin_map(raw)
    try:
        m = load_pin_map(raw)
    except PinMapError as e:
        assert list(e.problems) == problems and problems
    else:
        assert problems == []
        used = [pin for _, pin in m.uses()]
        assert len(used) == len(set(used)) and all(0 <= p <= 27 for p in used)
