"""The table's GPIO as the asyncio daemon sees it: the progressive table game system.

§ 639a.2(c) and § 633a.2(d) require, where a progressive wager is offered, "a wagering device at
each betting position that acknowledges or accepts the placement" of the wager and "a mechanism,
such as a lock-out button, that prevents the recognition of any Progressive Payout Wager that a
player attempts to place after the dealer has announced 'no more bets'". That is this object:
the lock-out button, each seat's wager sensor with its wager-accepted and progressive-won lamps
(the light the dealer checks before paying, § 639a.8(c)(5)(ii)), and the call-floorperson light
on the same board.

It turns debounced edges into plain typed events (:class:`LockOutPressed`, :class:`WagerSensed`,
:class:`WagerRemoved`, :class:`WagerRefused`) and hands each to ``on_event`` *on the asyncio
loop*: gpiozero calls its handlers in its own thread, so they only
``loop.call_soon_threadsafe`` into the loop, and every piece of state here is read and changed on
the loop alone. The events of all pins reach the loop in the order their edges were handled, so a
chip placed an instant after the lock-out is refused however late the loop runs.

Rounds: while unlocked, a chip on a seat's device is an accepted wager (count 1 for that seat,
lamp steady) and taking it off withdraws it. The lock-out locks: from then on sensor edges are
not recognized (§ 639a.2(c)(2), § 633a.2(c)): a chip placed is refused (a :class:`WagerRefused`,
a count and a warning in the log), a chip taken off (the dealer collecting the wagers) changes
nothing, and the counts stay as they were at the lock-out for the dealer's chip count
(§ 639a.8(b)). The daemon calls :meth:`~ProgressiveTableGameSystem.unlock` for the next round.

Progressive unavailable (the table has lost its progressive controller: N.J.A.C. 13:69E-1.39B,
"unplayable for the progressive" until it returns): the daemon calls
:meth:`~ProgressiveTableGameSystem.set_progressive_unavailable`. Every seat's wager lamp then
blinks slowly (:attr:`LampState.SLOW_BLINKING`), and a chip on a device is not an accepted wager
(a placement is a :class:`WagerNotRecognized`); when it is available again, wagering is as the
devices are: while open, a chip already on one is an accepted wager (its lamp steady).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType, TracebackType
from typing import ClassVar, Final, Self, TypeAlias

from .gpio_devices import (
    DebouncedInput,
    EdgeHandler,
    Handler,
    Lamp,
    LampState,
    LockOutButton,
    PinFactory,
    WagerSensor,
)
from .lock_out_edge import ContactHistory
from .pin_map import SINGLE, PinMap, Pull, device_key

Device: TypeAlias = tuple[int, str]
"""A wagering device: its seat and the progressive it counts (:data:`~hw.pin_map.SINGLE` for the
seat's one)."""

log = logging.getLogger(__name__)

_PULL_UP: Final[Mapping[Pull, bool | None]] = {"up": True, "down": False, "none": None}


# --- events ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LockOutPressed:
    """The dealer pressed the lock-out: "no more bets" (§ 639a.2(c)(2), § 633a.2(c), (d)(2)).

    Sent once per round, when it locks; a press while locked is a :class:`LockOutRepeated`.
    ``at_ns``: ``time.monotonic_ns()`` when our code saw the edge.
    """

    at_ns: int
    type: ClassVar[str] = "lock_out_pressed"

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "at_ns": self.at_ns}


@dataclass(frozen=True, slots=True)
class LockOutRepeated:
    """The lock-out pressed while wagering is already locked (a round being dealt or settled):
    it changes nothing (§ 639a.2(c)(2)) but is reported, so the journal shows every press.
    ``presses``: the presses counted so far."""

    at_ns: int
    presses: int
    type: ClassVar[str] = "lock_out_repeated"

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "at_ns": self.at_ns, "presses": self.presses}


@dataclass(frozen=True, slots=True)
class WagerSensed:
    """A chip on seat ``seat``'s device while wagering is open: an accepted wager (§ 639a.2(c)(1))."""

    seat: int
    at_ns: int
    progressive: str = SINGLE
    """Which of the seat's devices: the progressive it counts (``""``: the seat's one)."""
    type: ClassVar[str] = "wager_sensed"

    def to_json(self) -> dict[str, object]:
        return _wager_json(self.type, self.seat, self.at_ns, self.progressive)


@dataclass(frozen=True, slots=True)
class WagerRemoved:
    """The chip taken off seat ``seat``'s device before the lock-out: the wager is withdrawn."""

    seat: int
    at_ns: int
    progressive: str = SINGLE
    """Which of the seat's devices: the progressive it counts (``""``: the seat's one)."""
    type: ClassVar[str] = "wager_removed"

    def to_json(self) -> dict[str, object]:
        return _wager_json(self.type, self.seat, self.at_ns, self.progressive)


@dataclass(frozen=True, slots=True)
class WagerRefused:
    """A chip placed on seat ``seat``'s device after the lock-out: not recognized, not counted.

    § 639a.2(c)(2), § 633a.2(c), (d)(2). For the journal and the dealer's screen (the dealer
    returns the chip); never a wager.
    """

    seat: int
    at_ns: int
    progressive: str = SINGLE
    """Which of the seat's devices: the progressive it counts (``""``: the seat's one)."""
    type: ClassVar[str] = "wager_refused"

    def to_json(self) -> dict[str, object]:
        return _wager_json(self.type, self.seat, self.at_ns, self.progressive)


@dataclass(frozen=True, slots=True)
class WagerNotRecognized:
    """A chip placed on seat ``seat``'s device while the progressive is unavailable (wagering
    open): not a wager (N.J.A.C. 13:69E-1.39B), its lamp blinking slowly as every seat's."""

    seat: int
    at_ns: int
    progressive: str = SINGLE
    """Which of the seat's devices: the progressive it counts (``""``: the seat's one)."""
    type: ClassVar[str] = "wager_not_recognized"

    def to_json(self) -> dict[str, object]:
        return _wager_json(self.type, self.seat, self.at_ns, self.progressive)


def _words(device: Device) -> str:
    seat, name = device
    return f"seat {seat}" + (f" {name}" if name else "")


def _wager_json(kind: str, seat: int, at_ns: int, progressive: str) -> dict[str, object]:
    out: dict[str, object] = {"type": kind, "seat": seat, "at_ns": at_ns}
    if progressive:
        out["progressive"] = progressive
    return out


GpioEvent: TypeAlias = (
    LockOutPressed | LockOutRepeated | WagerSensed | WagerRemoved | WagerRefused | WagerNotRecognized
)


@dataclass(frozen=True, slots=True)
class GpioStatus:
    """A snapshot for the local API and ``tablectl status``."""

    locked: bool
    accepted: Mapping[int, int]
    accepted_total: int
    refused: Mapping[int, int]
    wager_present: Mapping[int, bool]
    lamps: Mapping[str, LampState]
    progressive_unavailable: bool
    lock_out_presses: int
    ignored_while_locked: int
    bounces: int

    def to_json(self) -> dict[str, object]:
        return {
            "locked": self.locked,
            "accepted": {str(s): n for s, n in self.accepted.items()},
            "accepted_total": self.accepted_total,
            "refused": {str(s): n for s, n in self.refused.items()},
            "wager_present": {str(s): p for s, p in self.wager_present.items()},
            "lamps": {k: str(v) for k, v in self.lamps.items()},
            "progressive_unavailable": self.progressive_unavailable,
            "lock_out_presses": self.lock_out_presses,
            "ignored_while_locked": self.ignored_while_locked,
            "bounces": self.bounces,
        }


# --- the system ------------------------------------------------------------------------------


class ProgressiveTableGameSystem:
    """The table's GPIO devices, their events delivered on the asyncio loop.

    Build it on the loop's thread (``loop`` defaults to the running loop). ``on_event`` is
    called on the loop, never from gpiozero's thread, and must not block; only :meth:`unlock`
    calls it before returning. To resume a round
    after a restart, give ``locked=True`` and the seats whose wagers the journal accepted
    (``accepted``, read only when locked): chips then on the devices are not taken as new wagers.
    ``unavailable``: the progressive is unavailable from the start (a restart while the journal
    says so): no chip is an accepted wager until :meth:`set_progressive_unavailable` says otherwise.
    A pin that cannot be opened raises (gpiozero's error) with every pin already opened released.
    """

    lock_out_button: LockOutButton
    floorperson_light: Lamp

    def __init__(
        self,
        pin_map: PinMap,
        on_event: Callable[[GpioEvent], None],
        *,
        loop: asyncio.AbstractEventLoop | None = None,
        pin_factory: PinFactory = None,
        locked: bool = False,
        accepted: Iterable[int | Device] = (),
        unavailable: bool = False,
    ) -> None:
        self.pin_map: Final = pin_map
        self._on_event = on_event
        self._loop = loop if loop is not None else asyncio.get_running_loop()
        self._closed = False
        self._locked = locked
        self._unavailable = unavailable
        self._seats: tuple[int, ...] = tuple(s.seat for s in pin_map.seats)
        self._devices: tuple[Device, ...] = tuple((s.seat, d.name) for s in pin_map.seats for d in s.devices)
        self._accepted: dict[Device, bool] = dict.fromkeys(self._devices, False)
        self._present: dict[Device, bool] = dict.fromkeys(self._devices, False)
        self._refused: dict[int, int] = dict.fromkeys(self._seats, 0)
        #: Lock-out presses seen, the locking ones and the repeated ones.
        self.lock_out_presses = 0
        #: Sensor edges not recognized because wagering was locked (placements and removals).
        self.ignored_while_locked = 0
        # The lock-out's edge rule (hw/lock_out_edge.py): the ticks of the edge that locked, the
        # devices still moving then (their count waits until they are still), whether the
        # judgement of the devices at the edge is still to run, and when it is all counted.
        self._lock_ticks: float | None = None
        self._moving: dict[Device, float] = {}
        self._judge_due = False
        self._watch: asyncio.TimerHandle | None = None
        self._counted = asyncio.Event()
        self._counted.set()
        self._histories: dict[Device, ContactHistory] = {}

        taken = [(a, SINGLE) if isinstance(a, int) else a for a in accepted]
        unknown = [d for d in taken if d not in self._accepted]
        if unknown:
            seats = [seat for seat, _ in unknown]
            which = ", ".join(_words(d) for d in unknown)
            raise ValueError(f"accepted wagers at seats {seats} that the pin map does not have ({which})")

        self._inputs: list[DebouncedInput] = []
        self._lamps: dict[str, Lamp] = {}
        self._sensors: dict[Device, WagerSensor] = {}
        self._wager_lamps: dict[Device, Lamp] = {}
        self._won_lamps: dict[int, Lamp] = {}
        try:
            self._open(pin_map, pin_factory)
            # Hand over to the loop before the levels are read: an edge racing the start is then
            # delivered after the read, and recognized as a repeat (see _sensor_changed).
            self.lock_out_button.when_pressed = self._press_to_loop(self.lock_out_button)
            for device, sensor in self._sensors.items():
                self._histories[device] = ContactHistory(
                    sensor.debounce_ms / 1000, sensor.raw_active, sensor.ticks_diff
                )
                sensor.when_edge = self._edge_to_loop(device)
                sensor.when_placed = self._to_loop(partial(self._sensor_changed, device, True))
                sensor.when_removed = self._to_loop(partial(self._sensor_changed, device, False))
            at_start: list[Device] = []  # devices with a chip on them, filled once read
            if not locked:
                # Reported on the loop's next turn (on_event may need the object being built),
                # queued before the levels are read so that any edge after the read comes after.
                self._loop.call_soon(self._report_wagers, at_start, time.monotonic_ns())
            for device, sensor in self._sensors.items():
                self._present[device] = sensor.wager_present
            if locked:
                for device in taken:
                    self._accept(device, True)
            else:
                at_start.extend(self._open_wagering())
        except BaseException:
            self._closed = True
            self._close_devices()
            raise

    def _open(self, pin_map: PinMap, pin_factory: PinFactory) -> None:
        self.lock_out_button = LockOutButton(
            pin_map.lock_out,
            pull_up=_PULL_UP[pin_map.lock_out_pull],
            active_high=pin_map.lock_out_active == "high",
            debounce_ms=pin_map.debounce_ms,
            pin_factory=pin_factory,
        )
        self._inputs.append(self.lock_out_button)

        def lamp(key: str, pin: int) -> Lamp:
            made = Lamp(
                pin,
                active_high=pin_map.lamp_active == "high",
                blink_ms=pin_map.blink_ms,
                pin_factory=pin_factory,
            )
            self._lamps[key] = made
            return made

        self.floorperson_light = lamp("floorperson_light", pin_map.floorperson_light)
        for s in pin_map.seats:
            for d in s.devices:
                sensor = WagerSensor(
                    d.sensor,
                    pull_up=_PULL_UP[pin_map.sensor_pull],
                    active_high=pin_map.sensor_active == "high",
                    debounce_ms=pin_map.debounce_ms,
                    pin_factory=pin_factory,
                )
                self._inputs.append(sensor)
                self._sensors[s.seat, d.name] = sensor
                self._wager_lamps[s.seat, d.name] = lamp(
                    device_key(s.seat, d.name, "wager_lamp", ""), d.wager_lamp
                )
            self._won_lamps[s.seat] = lamp(f"seats.{s.seat}.won_lamp", s.won_lamp)

    # --- gpiozero's thread -> the loop -----------------------------------------------------

    def _to_loop(self, on_loop: Callable[[int], None]) -> Handler:
        loop = self._loop

        def handler(at_ns: int) -> None:
            try:
                loop.call_soon_threadsafe(on_loop, at_ns)
            except RuntimeError:
                # The loop closed under us (the daemon is stopping): nobody is listening any more.
                log.debug("edge at %d ns after the event loop closed; dropped", at_ns)

        return handler

    def _press_to_loop(self, button: LockOutButton) -> Handler:
        loop = self._loop

        def handler(at_ns: int) -> None:
            # Under the button's lock: its taken ticks are this press's edge.
            ticks = button.taken_ticks
            try:
                loop.call_soon_threadsafe(self._lock_out_pressed, at_ns, ticks)
            except RuntimeError:
                log.debug("lock-out at %d ns after the event loop closed; dropped", at_ns)

        return handler

    def _edge_to_loop(self, device: Device) -> EdgeHandler:
        loop = self._loop

        def handler(ticks: float, level: bool) -> None:
            at_ns = time.monotonic_ns()
            try:
                loop.call_soon_threadsafe(self._sensor_edge, device, ticks, level, at_ns)
            except RuntimeError:
                log.debug("sensor edge after the event loop closed; dropped")

        return handler

    # --- the loop --------------------------------------------------------------------------

    def _lock_out_pressed(self, at_ns: int, ticks: float | None = None) -> None:
        if self._closed:
            return
        self.lock_out_presses += 1
        if self._locked:
            log.debug("lock-out pressed again; wagering is already locked")
            self._emit(LockOutRepeated(at_ns, self.lock_out_presses))
            return
        self._begin_lock(self.lock_out_button.ticks() if ticks is None else ticks)
        log.info("lock-out: no more bets; the progressive wagers are counted at its edge")
        self._emit(LockOutPressed(at_ns))

    # --- the lock-out's edge (hw/lock_out_edge.py; docs/gpio.md "The lock-out's edge") -----------

    def _begin_lock(self, lock_ticks: float) -> None:
        """Lock at ``lock_ticks``: from here nothing is recognized; the devices are judged as they
        were at that edge on the loop's next turn (after every edge already on its way)."""
        self._locked = True
        self._lock_ticks = lock_ticks
        self._counted.clear()
        self._judge_due = True
        self._loop.call_soon(self._judge_at_edge)

    def _judge_at_edge(self) -> None:
        if not self._judge_due or self._closed or self._lock_ticks is None:
            return
        self._judge_due = False
        lock_ticks = self._lock_ticks
        for device, history in self._histories.items():
            at = history.at(lock_ticks)
            if at.moving_since is not None:
                self._moving[device] = at.moving_since  # begun before the edge: counted once settled
                continue
            self._count_at_edge(device, at.level, "still at the lock-out's edge")
            self._refuse_begun(device, history.begun_from(lock_ticks))
        self._watch_moving()

    def _refuse_begun(self, device: Device, began: list[bool]) -> None:
        for placed in began:
            if placed:
                self._refuse(device, time.monotonic_ns())

    def _watch_moving(self) -> None:
        self._watch = None
        if self._closed or self._lock_ticks is None:
            return
        if self._moving:
            now = self.lock_out_button.ticks()
            wait: float | None = None
            for device, begin in sorted(self._moving.items()):
                history = self._histories[device]
                if not history.settled(begin, now):
                    due = history.settles_in(begin, now)
                    wait = due if wait is None else min(wait, due)
                    continue
                del self._moving[device]
                self._count_at_edge(device, history.settled_level(begin), "moving at the lock-out's edge")
                self._refuse_begun(device, history.begun_from(self._lock_ticks, past=begin))
            if wait is not None:
                self._watch = self._loop.call_later(max(wait, 0.001), self._watch_moving)
                return
        log.info(
            "lock-out counted: %d progressive wager(s) accepted %s",
            self.accepted_total,
            list(self.accepted_devices),
        )
        self._counted.set()

    def _count_at_edge(self, device: Device, present: bool, why: str) -> None:
        counted = present and not self._unavailable
        if counted != self._accepted[device]:
            log.info(
                "%s: %s at the lock-out (%s; the debounced state at its edge)",
                _words(device),
                "counted" if counted else "not counted",
                why,
            )
            self._accept(device, counted)

    def _sensor_edge(self, device: Device, ticks: float, level: bool, at_ns: int) -> None:
        """Every raw edge of a sensor: kept for the lock-out's edge; while locked, a movement
        beginning toward a chip put down is refused (once a movement, not once an edge)."""
        if self._closed:
            return
        begins = self._histories[device].edge(ticks, level)
        if not self._locked or self._judge_due or device in self._moving:
            return  # open: the debounced edges decide; else part of what the edge's judgement sees
        if begins and level:
            self._refuse(device, at_ns)

    def _refuse(self, device: Device, at_ns: int) -> None:
        seat, name = device
        self._refused[seat] += 1
        log.warning(
            "%s: progressive wager placed after the lock-out; not recognized (§ 639a.2(c)(2), § 633a.2(c))",
            _words(device),
        )
        self._emit(WagerRefused(seat, at_ns, name))

    async def lock_out_counted(self, timeout: float = 2.0) -> bool:
        """Until the devices are counted as they were at the lock-out's edge (at once, unless a
        contact was moving then: at most one debounce
        window); ``False`` if ``timeout`` seconds passed first (the counts as they are)."""
        try:
            async with asyncio.timeout(timeout):
                await self._counted.wait()
        except TimeoutError:
            log.error("the lock-out's count did not settle in %.1f s; taken as it is", timeout)
            return False
        return True

    def _stop_judging(self) -> None:
        self._lock_ticks = None
        self._judge_due = False
        self._moving.clear()
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        self._counted.set()

    def _sensor_changed(self, device: Device, present: bool, at_ns: int) -> None:
        if self._closed:
            return
        seat, name = device
        if self._present[device] == present:
            # Only an edge that raced the start (the level was read already) comes twice.
            log.debug("%s: sensor already read as %s", _words(device), "covered" if present else "clear")
            return
        self._present[device] = present
        if not self._locked and self._unavailable:
            # N.J.A.C. 13:69E-1.39B: unplayable for the progressive; the lamps already say so.
            if present:
                log.warning(
                    "%s: chip on the wagering device while the progressive is unavailable", _words(device)
                )
                self._emit(WagerNotRecognized(seat, at_ns, name))
            return
        if self._locked:
            # Not recognized; a chip put down is refused from its raw edges (_sensor_edge), as
            # the lock-out's edge rule says, not from this debounced one.
            self.ignored_while_locked += 1
            if not present:
                log.debug("%s: chip taken off while locked (the dealer collecting)", _words(device))
            return
        self._accept(device, present)
        self._emit(WagerSensed(seat, at_ns, name) if present else WagerRemoved(seat, at_ns, name))

    def _accept(self, device: Device, accepted: bool) -> None:
        self._accepted[device] = accepted
        self._show_wager_lamp(device)

    def _show_wager_lamp(self, device: Device) -> None:
        if self._unavailable:
            shown = LampState.SLOW_BLINKING
        else:
            shown = LampState.STEADY if self._accepted[device] else LampState.OFF
        self._wager_lamps[device].show(shown)

    def _open_wagering(self) -> list[Device]:
        """Counts and lamps from the devices as they are: a chip already on one is this round's
        wager, unless the progressive is unavailable. The devices with one, to report."""
        taken = [d for d in self._devices if self._present[d] and not self._unavailable]
        for device in self._devices:
            self._accept(device, device in taken)
        return taken

    def _report_wagers(self, devices: list[Device], at_ns: int) -> None:
        for seat, name in devices:
            self._emit(WagerSensed(seat, at_ns, name))

    def _emit(self, event: GpioEvent) -> None:
        if self._closed:
            return
        try:
            self._on_event(event)
        except Exception:
            log.exception("on_event failed for %s", event)

    # --- what the daemon calls (on the loop) ---------------------------------------------------

    @property
    def locked(self) -> bool:
        """Wagering is locked: sensor edges are not recognized."""
        return self._locked

    def lock(self) -> bool:
        """Lock wagering without the button; ``True`` if it was open.

        For the daemon when the dealing starts without a press: § 633a.2(c), (d)(2) lock out
        wagers "after the dealer has begun dealing the cards". No event: the caller knows.
        """
        if self._locked or self._closed:
            return False
        self._begin_lock(self.lock_out_button.ticks())
        log.info("wagering locked by the daemon; the progressive wagers are counted at this instant")
        return True

    def unlock(self) -> None:
        """Open wagering for the next round: refusals cleared, counts and lamps from the devices.

        A chip already on a device counts as the new round's wager: its :class:`WagerSensed`
        goes to ``on_event`` before this returns, so it comes before any edge already on its
        way to the loop. Progressive-won lamps are left as they are (see :meth:`set_won_lamp`).
        Does nothing if not locked.
        """
        if not self._locked or self._closed:
            return
        self._stop_judging()
        self._locked = False
        self._refused = dict.fromkeys(self._seats, 0)
        log.info("wagering open for the next round")
        # Reported now: an edge already queued for the loop (that chip taken off) comes after.
        self._report_wagers(self._open_wagering(), time.monotonic_ns())

    @property
    def progressive_unavailable(self) -> bool:
        """Whether the sensors recognize no wager now (the progressive is unavailable)."""
        return self._unavailable

    def set_progressive_unavailable(self, unavailable: bool) -> None:
        """The progressive is unavailable (``True``: every wager lamp blinks slowly, no chip is an
        accepted wager) or available again (the lamps and counts from the devices).

        While wagering is open the counts follow at once: the chips accepted are withdrawn
        (a :class:`WagerRemoved` each) or, back, the chips on the devices are accepted (a
        :class:`WagerSensed` each, before this returns). While locked the counts stay as the
        lock-out left them (they are the round's, already counted); only the lamps change.
        Setting the state it already has does nothing.
        """
        if unavailable == self._unavailable or self._closed:
            return
        self._unavailable = unavailable
        now = time.monotonic_ns()
        log.warning(
            "progressive %s: %s",
            "unavailable" if unavailable else "available again",
            "no chip on a wagering device is a wager" if unavailable else "wagers recognized",
        )
        if self._locked:
            for device in self._devices:
                self._show_wager_lamp(device)
            return
        if unavailable:
            withdrawn = self.accepted_devices
            for device in self._devices:
                self._accept(device, False)
            for seat, name in withdrawn:
                self._emit(WagerRemoved(seat, now, name))
        else:
            self._report_wagers(self._open_wagering(), now)

    @property
    def devices(self) -> tuple[Device, ...]:
        """Every wagering device, ``(seat, progressive)``, in the pin map's order."""
        return self._devices

    @property
    def accepted_devices(self) -> tuple[Device, ...]:
        """The devices whose chip is an accepted wager this round, in the pin map's order."""
        return tuple(d for d in self._devices if self._accepted[d])

    @property
    def present_devices(self) -> tuple[Device, ...]:
        """The devices a chip is on now, accepted or not."""
        return tuple(d for d in self._devices if self._present[d])

    @property
    def present_by_seat(self) -> Mapping[int, bool]:
        """Whether a chip is on any of each seat's devices now (accepted or not)."""
        return MappingProxyType(
            {s: any(self._present[d] for d in self._devices if d[0] == s) for s in self._seats}
        )

    @property
    def seats(self) -> tuple[int, ...]:
        return self._seats

    def accepted(self, seat: int, progressive: str | None = None) -> int:
        """Progressive wagers accepted at ``seat`` this round: on every device of the seat, or on
        the one counting ``progressive`` (:data:`~hw.pin_map.SINGLE` for the seat's one)."""
        return sum(
            1
            for d in self._devices
            if d[0] == seat and self._accepted[d] and (progressive is None or d[1] == progressive)
        )

    @property
    def accepted_by_seat(self) -> Mapping[int, int]:
        return MappingProxyType({s: self.accepted(s) for s in self._seats})

    @property
    def accepted_total(self) -> int:
        """What the dealer's chip count must match after the lock-out (§ 639a.8(b))."""
        return sum(self._accepted.values())

    @property
    def refused_by_seat(self) -> Mapping[int, int]:
        """Chips placed after the lock-out this round, per seat."""
        return MappingProxyType(dict(self._refused))

    def sensor(self, seat: int, progressive: str = SINGLE) -> WagerSensor:
        return self._sensors[seat, progressive]

    def wager_lamp(self, seat: int, progressive: str = SINGLE) -> Lamp:
        return self._wager_lamps[seat, progressive]

    def won_lamp(self, seat: int) -> Lamp:
        return self._won_lamps[seat]

    def lamp(self, key: str) -> Lamp:
        """A lamp by its key in :meth:`status` (``seats.1.wager_lamp``,
        ``seats.1.progressives.bad_beat.wager_lamp``, ``floorperson_light``); ``KeyError``."""
        return self._lamps[key]

    def set_won_lamp(self, seat: int, state: LampState = LampState.BLINKING) -> None:
        """Light seat ``seat``'s progressive-won lamp, which the dealer verifies before paying
        (§ 639a.8(c)(5)(ii)); ``LampState.OFF`` once paid."""
        self._won_lamps[seat].show(state)

    def set_floorperson_light(self, state: LampState = LampState.STEADY) -> None:
        """Call the floorperson (a payout to verify or validate); ``LampState.OFF`` when answered."""
        self.floorperson_light.show(state)

    def status(self) -> GpioStatus:
        return GpioStatus(
            locked=self._locked,
            accepted=self.accepted_by_seat,
            accepted_total=self.accepted_total,
            refused=self.refused_by_seat,
            wager_present=self.present_by_seat,
            lamps=MappingProxyType({k: lamp.state for k, lamp in self._lamps.items()}),
            progressive_unavailable=self._unavailable,
            lock_out_presses=self.lock_out_presses,
            ignored_while_locked=self.ignored_while_locked,
            bounces=sum(i.bounces for i in self._inputs),
        )

    # --- life ----------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Stop delivering events, turn the lamps off and release every pin (idempotent)."""
        self._closed = True
        self._stop_judging()
        self._close_devices()

    def _close_devices(self) -> None:
        devices: list[DebouncedInput | Lamp] = [*self._inputs, *self._lamps.values()]
        for device in devices:
            try:
                device.close()
            except Exception:
                # One stuck pin must not keep the others reserved.
                log.exception("closing %r failed", device)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
