"""The hardware bridge: GPIO and serial driver events in, table events out, one at a time.

The GPIO (``hw.gpio.ProgressiveTableGameSystem``, which already hands its edges to the loop with
``call_soon_threadsafe``) and the serial drivers (called on the loop) put their events on one
queue; one consumer takes them in order and looks each up in a handler table keyed by the
event's type (:meth:`HardwareBridge.register_handler`), so a new device adds a handler, not a
branch. The handlers turn them into the table's events:

- the lock-out is ``no_more_bets``, preceded by a ``wager progressive`` for each seat whose
  device holds a chip at that moment (§ 639a.2(c), § 639a.8(b));
- a chip placed after the lock-out is a ``wager`` that the rules refuse (§ 639a.7(c));
- a chip placed while the progressive is unavailable is shown, not journaled: the lock-out
  journals it as a refused ``wager`` (N.J.A.C. 13:69E-1.39B);
- a stack from the shoe is a ``cards`` event to its position; an incomplete one is left to the
  dealer to key in (§ 639a.13(g)); a burn is one where the game's round takes it (its
  ``devices(rules).burns``: the poker room, § 637a.19(h)-(j), § 637a.20(h)-(j)), else dropped;
- a device's fault mid-round is the game's irregularity (its ``faults`` hook: ``shoe_jam``,
  § 639a.13(f));
- the reader's answer is ``hole_card_reader`` (§ 633a.7(h));
- a device going online or offline is journaled when it changes;
- a fault storm (a device faulting hundreds of times a second) is its first fault, handled at
  once, and one ``faults_coalesced`` fact a second with the count (:mod:`.fault_storms`).

Nothing a device reports can stop the consumer: a failure is logged and the next event handled.

No event is ever dropped (there is no bounded queue to overflow): the lock-out, the sensors, the
shoe's stacks, faults and readings wait in one FIFO that the consumer empties first; a device's
state changes are coalesced (the latest per device), so a flapping device adds one entry however
fast it flaps and cannot starve the lock-out or a stack; the rest (cards read, counts, frames
lost) comes after.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import Any, Final, TypeVar

from hw.device_events import DeviceEvent, DeviceFault, DeviceState, FaultsCoalesced, FramesLost
from hw.gpio import (
    GpioEvent,
    LockOutPressed,
    LockOutRepeated,
    WagerNotRecognized,
    WagerRefused,
    WagerRemoved,
    WagerSensed,
)
from hw.hole_card_reader import HoleCardReading
from hw.shoe import CardRead, StackDelivered
from hw.shuffler import ShufflerCount

from ..journal import JournalError, Refused
from ..journal.records import DeviceOffline, DeviceOnline, HardwareFact
from ..rules.core.events import Event, EventError, parse_event
from . import game_hooks
from .fault_storms import STORM_SECONDS, FaultStorms, StormKey
from .service import Publish, TableService

log = logging.getLogger(__name__)

#: A device's configured name -> the journal's ``source`` for what it reports.
DEVICE_SOURCES: Final[Mapping[str, str]] = {
    "shoe": "shoe",
    "shuffler": "shuffler",
    "reader": "hole-card-reader",
}


#: Handled first, in the order they came: the lock-out, the sensors, the shoe, the reader.
URGENT: Final = (
    LockOutPressed,
    LockOutRepeated,
    WagerSensed,
    WagerRemoved,
    WagerRefused,
    WagerNotRecognized,
    StackDelivered,
    DeviceFault,
    HoleCardReading,
)

#: A wagering device's changes are logged once in this many seconds at most.
WAGER_LOG_SECONDS: Final = 1.0

HardwareEvent = GpioEvent | DeviceEvent
E = TypeVar("E")
Handler = Callable[[Any], Awaitable[None]]


class HardwareBridge:
    """The queue of hardware events, its consumer, and the handler of each type of event."""

    def __init__(self, service: TableService, publish: Publish) -> None:
        self.service = service
        self._publish = publish
        self._urgent: deque[object] = deque()
        self._rest: deque[object] = deque()
        #: The latest state change of each device not yet handled (coalesced).
        self._states: dict[str, DeviceState] = {}
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._busy = False
        self._handlers: dict[type, Handler] = {}
        self._task: asyncio.Task[None] | None = None
        self.handled = 0
        #: Device state changes folded into a later one of the same device (a flapping device).
        self.coalesced = 0
        #: Fault storms: a device's repeated faults counted, reported once an interval.
        self.storms = FaultStorms()
        self._storm_timers: dict[StormKey, asyncio.TimerHandle] = {}
        #: Per wagering device: when its last change was logged, and the changes not logged since.
        self._wager_logged: dict[str, tuple[float | None, int]] = {}
        self.register_handler(LockOutPressed, self._lock_out)
        self.register_handler(LockOutRepeated, self._lock_out_repeated)
        self.register_handler(FramesLost, self._frames_lost)
        self.register_handler(WagerRefused, self._wager_refused)
        self.register_handler(WagerSensed, self._wager_counted)
        self.register_handler(WagerRemoved, self._wager_counted)
        self.register_handler(WagerNotRecognized, self._wager_not_recognized)
        self.register_handler(CardRead, self._card_read)
        self.register_handler(StackDelivered, self._stack)
        self.register_handler(HoleCardReading, self._hole_card_reading)
        self.register_handler(DeviceFault, self._device_fault)
        self.register_handler(FaultsCoalesced, self._faults_coalesced)
        self.register_handler(DeviceState, self._device_state)
        self.register_handler(ShufflerCount, self._shuffler_count)

    def register_handler(self, event_type: type[E], handler: Callable[[E], Awaitable[None]]) -> None:
        """``handler`` handles every event of ``event_type`` (one handler a type)."""
        if event_type in self._handlers:
            raise ValueError(f"{event_type.__name__} already has a handler")
        self._handlers[event_type] = handler

    # --- the queue -------------------------------------------------------------------------------

    def on_event(self, event: HardwareEvent) -> None:
        """The GPIO's and the drivers' callback, on the loop: queue ``event``, never block, never drop."""
        if isinstance(event, LockOutPressed):
            # The pins have locked: from this instant nothing else is accepted before the
            # lock-out is journaled (the service journals it first, whoever comes next).
            self.service.press(event)
        storm = _storm_of(event, self.service.round_id if isinstance(event, WagerRefused) else None)
        if storm is not None:
            key = self.storms.note_kind(*storm)
            if key is None:
                return  # a repeat in a storm: counted, reported with the storm
            self._storm_timers[key] = asyncio.get_running_loop().call_later(
                STORM_SECONDS, self._storm_report, key
            )
        if isinstance(event, DeviceState):
            if event.device in self._states:
                self.coalesced += 1
            self._states[event.device] = event
        elif isinstance(event, URGENT):
            self._urgent.append(event)
        else:
            self._rest.append(event)
        self._idle.clear()
        self._wake.set()

    def _storm_report(self, key: StormKey) -> None:
        report = self.storms.report(key)
        if report is None:
            self._storm_timers.pop(key, None)
            return
        self._storm_timers[key] = asyncio.get_running_loop().call_later(
            STORM_SECONDS, self._storm_report, key
        )
        self._rest.append(report)
        self._idle.clear()
        self._wake.set()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._consume(), name="table events")

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def _queued(self) -> int:
        return len(self._urgent) + len(self._rest) + len(self._states)

    async def drain(self) -> None:
        """Until every hardware event queued so far has been handled (for tests and the rig)."""
        await self._idle.wait()

    async def stop(self, grace: float = 2.0) -> None:
        """Handle what the hardware already reported (for up to ``grace`` seconds), then stop."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(grace):
                await self.drain()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        for timer in self._storm_timers.values():
            timer.cancel()
        self._storm_timers.clear()

    def get_status(self) -> dict[str, object]:
        return {
            "running": self.running,
            "queued": self._queued(),
            "handled": self.handled,
            "coalesced": self.coalesced,
            "faults_coalesced": self.storms.coalesced,
            "fault_storms": self.storms.in_progress,
        }

    def _next(self) -> object | None:
        # The lock-out and the stacks first; then the rest; a device's latest state last.
        if self._urgent:
            return self._urgent.popleft()
        if self._rest:
            return self._rest.popleft()
        if self._states:
            device = next(iter(self._states))
            return self._states.pop(device)
        return None

    async def _consume(self) -> None:
        while True:
            event = self._next()
            if event is None:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            try:
                handler = self._handler_for(type(event))
                if handler is None:
                    log.debug("no handler for %s", event)
                else:
                    await handler(event)
                    self.handled += 1
            except JournalError:
                log.error("journal failed while handling %s; the table stays locked out", event)
            except Exception:
                log.exception("failed to handle %s", event)

    def _handler_for(self, event_type: type) -> Handler | None:
        # The event's own type first, then its bases: a driver's subclass of an event is handled
        # as the event it extends.
        for cls in event_type.__mro__:
            handler = self._handlers.get(cls)
            if handler is not None:
                return handler
        return None

    # --- the GPIO --------------------------------------------------------------------------------

    def _gpio_input(self, event: GpioEvent) -> None:
        self._publish("input", {"source": "gpio", **event.to_json()})

    async def _lock_out(self, event: LockOutPressed) -> None:
        self._gpio_input(event)
        with contextlib.suppress(Refused):
            await self.service.lock_out_pressed(event)

    async def _lock_out_repeated(self, event: LockOutRepeated) -> None:
        # A press while wagering is already locked (a round being dealt or settled): § 639a.2(c)(2)
        # keeps wagering locked until the round is settled, so it neither reopens it nor locks
        # the next round (whose wagering opens at its own beginning, § 639a.7(c)). Journaled, so
        # the trail shows every press.
        self._gpio_input(event)
        await self._fact(
            "gpio",
            "lock_out_pressed_while_locked",
            {"at_ns": event.at_ns, "presses": event.presses, "round": self.service.round_id},
        )

    async def _fact(self, device: str, fact: str, detail: Mapping[str, object]) -> None:
        source = DEVICE_SOURCES.get(device, "gpio" if device == "gpio" else "daemon")
        await self.service.journal_entry(HardwareFact(device, fact, detail), source, None)

    async def _wager_refused(self, event: WagerRefused) -> None:
        # A chip placed after the lock-out: journaled so a dispute can see it was sensed, and
        # refused by the rules (§ 639a.7(c), § 639a.2(c)(2)).
        self._gpio_input(event)
        await self.service.submit_quietly(
            game_hooks.sensed_wager(self.service.submission, event.seat, event.progressive), "gpio"
        )

    async def _wager_counted(self, event: WagerSensed | WagerRemoved) -> None:
        # Counted by the system; journaled as wagers at the lock-out, when the count is final.
        self._gpio_input(event)
        # Logged once a second a device at most (a flapping sensor, 50 changes a second at the
        # debounce's fastest, must not flood the log), with the changes left out.
        device = f" {event.progressive}" if event.progressive else ""
        key, now = f"seat {event.seat}{device}", time.monotonic()
        last, left = self._wager_logged.get(key, (None, 0))
        if last is not None and now - last < WAGER_LOG_SECONDS:
            self._wager_logged[key] = (last, left + 1)
            return
        self._wager_logged[key] = (now, 0)
        more = f" ({left} more change(s) not logged)" if left else ""
        log.info("%s: progressive wager %s%s", key, event.type.split("_")[1], more)

    async def _wager_not_recognized(self, event: WagerNotRecognized) -> None:
        # The progressive is unavailable (N.J.A.C. 13:69E-1.39B): the chip is no wager, its lamp
        # blinks slowly as every seat's. Shown to the dealer's screen; journaled at the lock-out
        # as a refused wager (TableService._lock_out), once per seat however often it is placed.
        self._gpio_input(event)
        log.info("seat %d: chip on the wagering device while the progressive is unavailable", event.seat)

    # --- the serial devices ----------------------------------------------------------------------

    async def _card_read(self, event: CardRead) -> None:
        self._publish("input", {"source": _source(event), "type": "card_read", "card": event.card})

    async def _hole_card_reading(self, event: HoleCardReading) -> None:
        await self.service.submit_quietly(Event("hole_card_reader", result=event.result), _source(event))

    async def _device_state(self, event: DeviceState) -> None:
        name = event.device
        self._publish("device", {"device": name, "state": event.state, "reason": event.reason})
        online = event.state == "online"
        previous = self.service.state.devices.get(name)
        if previous is None or previous.online != online:
            entry = DeviceOnline(name, event.reason) if online else DeviceOffline(name, event.reason)
            await self.service.journal_entry(entry, _source(event), None)

    async def _shuffler_count(self, event: ShufflerCount) -> None:
        self._publish(
            "device",
            {
                "device": event.device,
                "count": event.count,
                "expected": event.expected,
                "ok": event.all_present,
            },
        )
        if not event.all_present:
            # § 639a.5(b): a wrong count removes the deck from the table; the dealer's screen says so.
            log.warning("shuffler counted %d of %d cards: remove the deck", event.count, event.expected)
            await self._fact(event.device, "wrong_count", {"count": event.count, "expected": event.expected})

    async def _frames_lost(self, event: FramesLost) -> None:
        self._publish(
            "device",
            {"device": event.device, "state": "frames_lost", "expected": event.expected, "got": event.got},
        )
        await self._fact(event.device, "frames_lost", {"expected": event.expected, "got": event.got})

    async def _stack(self, stack: StackDelivered) -> None:
        service = self.service
        if stack.position == "burn" and not service.game.devices(service.submission.rules).burns:
            # A house-banked game's burn is no event of its round; the poker room's is
            # ("The dealer shall then burn the top card of the deck", § 637a.20(h)).
            return
        if not stack.complete:
            # A frame was lost: the cards are keyed in by the dealer (§ 639a.13(g)).
            message = f"shoe stack for {stack.position} incomplete ({len(stack.cards)} of {stack.count})"
            service.refusals.add(message)
            self._publish("device", {"device": stack.device, "state": "incomplete_stack", "detail": message})
            log.warning("%s: the dealer enters these cards by hand", message)
            detail = {"position": stack.position, "count": stack.count, "received": len(stack.cards)}
            await self._fact(stack.device, "incomplete_stack", detail)
            return
        spec: dict[str, object] = {"type": "cards", "to": stack.position, "cards": " ".join(stack.cards)}
        current = service.state.current
        if stack.position.isascii() and stack.position.isdigit() and current is not None:
            # The shoe deals to a seat; a seat that split pairs holds several hands (§ 633a.11).
            hand = game_hooks.hand_of_seat(current, int(stack.position))
            if hand:
                spec["hand"] = hand
        game = service.game
        try:
            event = parse_event(spec, "shoe", decks=game.decks(service.submission.rules), joker=game.joker)
        except EventError as exc:
            service.refusals.add(str(exc))
            log.warning("shoe: %s", exc)
            return
        await service.submit_quietly(event, _source(stack))

    async def _faults_coalesced(self, storm: FaultsCoalesced) -> None:
        # One interval of a fault storm: shown once, journaled once, with the count and the times.
        detail = {
            "kind": storm.kind,
            "count": storm.count,
            "first": _iso(storm.first_at),
            "last": _iso(storm.last_at),
        }
        refusals = storm.device == "gpio"
        self._publish(
            "device", {"device": storm.device, "state": "refused" if refusals else "fault", **detail}
        )
        log.warning(
            "%s: %d more %s from %s to %s, coalesced",
            storm.device,
            storm.count,
            storm.kind,
            detail["first"],
            detail["last"],
        )
        await self._fact(storm.device, "wagers_refused_coalesced" if refusals else "faults_coalesced", detail)

    async def _device_fault(self, fault: DeviceFault) -> None:
        self._publish("device", {"device": fault.device, "state": "fault", "kind": fault.kind})
        # The game's word for the fault (its ``faults`` hook, docs/serial-protocols.md).
        kind = self.service.game.faults(self.service.submission.rules).of(fault.device)
        if kind is None or self.service.state.current is None:
            return
        detail = f"{fault.device} {fault.kind}" + (f": {fault.detail}" if fault.detail else "")
        await self.service.submit_quietly(Event("irregularity", kind=kind, detail=detail), _source(fault))


def _storm_of(event: object, round_id: str | None) -> tuple[str, str] | None:
    """What a storm of ``event`` is made of (device, kind): a device's faults of one kind, a
    wagering device's chips refused after the lock-out in round ``round_id`` (a flapping sensor;
    each round's first refusal is journaled on its own); else ``None``."""
    if isinstance(event, DeviceFault):
        return event.device, event.kind
    if isinstance(event, WagerRefused):
        device = f" {event.progressive}" if event.progressive else ""
        return "gpio", f"wager_refused seat {event.seat}{device} round {round_id}"
    return None


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")


def _source(event: DeviceEvent) -> str:
    return DEVICE_SOURCES.get(event.device, "daemon")
