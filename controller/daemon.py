"""``table-controller``: the daemon that turns the table's hardware into journaled rules events.

One asyncio loop (docs/daemon.md):

- the GPIO (``hw.gpio.ProgressiveTableGameSystem``) and the serial drivers (``hw.shoe``,
  ``hw.shuffler``, ``hw.hole_card_reader``) hand their events to one queue on the loop;
- one consumer takes them in order and turns each into a rules core event: the lock-out is
  ``no_more_bets`` (preceded by a ``wager progressive`` for each seat whose device holds a chip at
  that moment, § 639a.2(c), § 639a.8(b)), a chip placed after the lock-out is a ``wager`` that the
  rules refuse (§ 639a.7(c)), a stack from the shoe is a ``cards`` event to its position, a shoe
  fault is the ``shoe_jam`` irregularity (§ 639a.13(f)), the reader's answer is
  ``hole_card_reader`` (§ 633a.7(h));
- the local API (``controller.api``) brings the dealer's and the floorperson's events;
- every event is journaled (``controller.journal``) before anything acts on it; a refused one is
  journaled as refused and reported, never raised out of the loop;
- a complete round is settled at once and the next one begun; the state goes to the API's
  subscribers; systemd hears READY once everything is up and WATCHDOG from the loop.

SIGTERM or SIGINT: the API closes, the drivers stop, the pins are released, the journal closes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import logging
import signal
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from gpiozero.exc import GPIOZeroError  # type: ignore[import-untyped]

from hw.gpio import (
    GpioEvent,
    LockOutPressed,
    ProgressiveTableGameSystem,
    WagerRefused,
    WagerRemoved,
    WagerSensed,
)
from hw.gpio_devices import LampState, PinFactory
from hw.hole_card_reader import HoleCardReader, HoleCardReading
from hw.pin_map import load_pin_map
from hw.serial_device import DeviceEvent, DeviceFault, DeviceState, SerialDevice, SerialDeviceConfig
from hw.shoe import CardRead, DealingShoe, StackDelivered
from hw.shuffler import Shuffler, ShufflerCount

from . import __version__, sd_notify
from .api import Actor, ApiServer, ApiStartError, CommandError, ErrorCode, Result, api_server_from_config
from .config import DEFAULT_PATH, Config, load_config
from .frame_pump import FRAMES_TOPIC, FramePumps
from .journal import Journal, JournalError, Refused, UnknownRound, read_boot_id
from .journal.records import (
    PAYOUT_VERIFIED,
    ROUND_SETTLED,
    BeginRound,
    Command,
    ConfigLoaded,
    DeviceOffline,
    DeviceOnline,
    Entry,
    JournalRecord,
    PayoutVerified,
    SettleRound,
    Started,
)
from .journal.state import TableState, settlement_lines
from .rules.engine import Game, IllegalEvent, hand_dealt_to
from .rules.events import Event, EventError, parse_event
from .rules.games import GAMES
from .rules.money import Cents, format_money, parse_money
from .rules.options import RulesError
from .rules.submission import Submission, parse_submission

log = logging.getLogger(__name__)

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_CONFIG: Final = 78
"""EX_CONFIG (sysexits.h): the unit's ``RestartPreventExitStatus=78`` does not restart a daemon whose
configuration is wrong, since a restart cannot fix it (docs/systemd.md)."""

#: The progressive wager's name in the rules core (Caribbean Stud, Three Card Poker, Hold 'Em Bonus).
PROGRESSIVE: Final = "progressive"

#: A device's configured name -> the journal's ``source`` for what it reports.
DEVICE_SOURCES: Final[Mapping[str, str]] = {
    "shoe": "shoe",
    "shuffler": "shuffler",
    "reader": "hole-card-reader",
}

#: A device's fault mid-round -> the game's irregularity (docs/serial-protocols.md).
FAULT_IRREGULARITIES: Final[Mapping[str, str]] = {
    "shoe": "shoe_jam",
    "shuffler": "shuffler_jam",
    "reader": "card_reader_malfunction",
}

_QUEUE_SIZE: Final = 10_000

#: The records after which the won lamps and the floorperson light may change (besides an
#: accepted ``no_more_bets`` event): see :meth:`Daemon._show_payout_lamps`.
_LAMP_KINDS: Final = frozenset({ROUND_SETTLED, PAYOUT_VERIFIED})


@dataclass(frozen=True)
class _DeviceSignal:
    """A serial driver's event (``event.device`` is the driver's configured name)."""

    event: DeviceEvent


_Signal = GpioEvent | _DeviceSignal


def load_submission(config: Config) -> Submission:
    """The table's Rules Submission (§ 601a.2); :class:`RulesError` lists every problem."""
    path = config.table.rules_submission
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RulesError(str(path), [f"cannot read the Rules Submission: {exc.strerror}"]) from None
    submission = parse_submission(text, GAMES, str(path))
    if submission.table != config.table.id:
        raise RulesError(
            str(path),
            [f"is for table {submission.table!r}, but [table] id is {config.table.id!r}"],
        )
    return submission


def _actor_name(actor: Actor) -> str:
    if actor.user is not None:
        return actor.user
    return f"uid:{actor.peer.uid}"


def _source_of(actor: Actor) -> str:
    return "floor" if actor.role is not None and str(actor.role) == "floor" else "dealer-ui"


class Daemon:
    """The table controller: hardware, journal, rules core and local API on one loop.

    Implements :class:`controller.api.ApiHandler`. ``pin_factory`` is gpiozero's (``None``: its
    default, lgpio on a Pi; the bench rig gives ``MockFactory``). A sensed chip is a Progressive
    Payout Wager of the Rules Submission's ``progressive.wager``: the sensor knows a chip is
    there, not its value.
    """

    def __init__(
        self,
        config: Config,
        submission: Submission,
        *,
        config_path: Path | None = None,
        pin_factory: PinFactory = None,
        notifier: sd_notify.Notifier | None = None,
    ) -> None:
        self.config = config
        self.submission = submission
        self.game: Game[Any, Any] = submission.game
        self.config_path = config_path
        self.pin_factory = pin_factory
        wager = getattr(submission.rules, "progressive_wager", None)
        #: What one chip on a wagering device is (``None``: the game has no Progressive Payout Wager).
        self.progressive_wager: Cents | None = wager if isinstance(wager, int) else None
        self.notifier = notifier if notifier is not None else sd_notify.Notifier.from_environ()
        self.journal: Journal | None = None
        self.gpio: ProgressiveTableGameSystem | None = None
        self.api: ApiServer | None = None
        self.devices: dict[str, SerialDevice] = {}
        self.frame_pumps: FramePumps | None = None
        self._queue: asyncio.Queue[_Signal] = asyncio.Queue(_QUEUE_SIZE)
        self._round_lock = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []
        self._stopped = asyncio.Event()
        self._healthy = True
        #: What happened that was not journaled as accepted: refusals, dropped stacks (for tests/UI).
        self.refusals: list[str] = []

    # --- life cycle ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the journal and recover, start the GPIO, the drivers and the API; then READY."""
        self.notifier.status(f"recovering the journal {self.config.journal.path}")
        self.journal = await Journal.open(self.config.journal.path, self.config.table.id)
        journal = self.journal
        await journal.append(Started(__version__, read_boot_id()), source="daemon")
        if self.config_path is not None:
            digest = await asyncio.to_thread(_sha256, self.config_path)
            await journal.append(
                ConfigLoaded(str(self.config_path), digest, {"game": self.game.name}), source="daemon"
            )
        await self._settle_if_complete()
        await self._ensure_round()

        current = journal.state.current
        locked = current is not None and any(e.type == "no_more_bets" for e in current.events)
        accepted = [] if current is None else [w.seat for w in current.wagers() if w.wager == PROGRESSIVE]
        loop = asyncio.get_running_loop()
        self.gpio = ProgressiveTableGameSystem(
            load_pin_map(self.config.gpio),
            self._queue.put_nowait,
            loop=loop,
            pin_factory=self.pin_factory,
            locked=locked,
            accepted=[s for s in accepted if s is not None],
        )
        self._show_payout_lamps()  # after a restart: a payout still waiting lights them again
        self._tasks.append(loop.create_task(self._consume(), name="table events"))
        for name, section in self.config.serial_devices().items():
            driver_config = SerialDeviceConfig(port=str(section.port), baudrate=section.baud)
            on_event = self._on_device_event
            device: SerialDevice
            if name == "shoe":
                device = DealingShoe(driver_config, on_event, name=name)
            elif name == "shuffler":
                device = Shuffler(driver_config, on_event, name=name)
            else:
                device = HoleCardReader(driver_config, on_event, name=name)
            self.devices[name] = device
            await device.start()
        # Every device's frames for ``tablectl sniff``, only while a technician subscribes.
        self.frame_pumps = FramePumps(
            self.devices,
            self._publish,
            lambda: self.api is not None and self.api.has_subscribers(FRAMES_TOPIC),
        )
        self.frame_pumps.start()
        self.api = api_server_from_config(self.config.api, self)
        await self.api.start()
        task = self.notifier.start_watchdog(self.healthy)
        if task is not None:
            self._tasks.append(task)
        self.notifier.ready(f"{self.config.table.id}: {self.game.title}, round {self.round_id}")
        log.info("table %s ready: %s, round %s", self.config.table.id, self.game.title, self.round_id)

    def healthy(self) -> bool:
        """For the watchdog: the journal writes and the hardware events are still being handled."""
        return self._healthy and bool(self._tasks) and not self._tasks[0].done()

    def _on_device_event(self, event: DeviceEvent) -> None:
        self._queue.put_nowait(_DeviceSignal(event))

    async def stop(self) -> None:
        """Clean shutdown: API, drivers, queue consumer, pins, journal (each even if one fails)."""
        self.notifier.stopping("shutting down")
        if self.api is not None:
            await self.api.close()
            self.api = None
        if self.frame_pumps is not None:
            await self.frame_pumps.stop()
            self.frame_pumps = None
        for device in self.devices.values():
            await device.stop()
        self.devices.clear()
        # Let the consumer finish what the hardware already reported, then stop it.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(2.0):
                await self.drain()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks.clear()
        if self.gpio is not None:
            self.gpio.close()
            self.gpio = None
        if self.journal is not None:
            await self.journal.close()
            self.journal = None
        self._stopped.set()

    async def drain(self) -> None:
        """Until every hardware event queued so far has been journaled (for tests and the rig)."""
        await self._queue.join()

    async def run(self, stop: asyncio.Event) -> None:
        """Start, wait for ``stop`` (SIGTERM), shut down; a failed start releases what it opened."""
        try:
            await self.start()
        except BaseException:
            await self.stop()
            raise
        try:
            await stop.wait()
        finally:
            await self.stop()

    # --- the round -------------------------------------------------------------------------------

    @property
    def state(self) -> TableState:
        assert self.journal is not None, "the daemon is not started"
        return self.journal.state

    @property
    def round_id(self) -> str | None:
        current = self.state.current
        return None if current is None else current.round_id

    def _meters(self) -> dict[str, Cents]:
        """The meters a new round begins with: the last journaled, else the Rules Submission's
        initial amount (§ 639a.12(d)(3)). The central meter's amounts come over the link."""
        rules = self.submission.rules
        if not getattr(rules, "progressive_offered", False):
            return {}
        for summary in reversed(self.state.recent):
            meters = (summary.settlement or {}).get("meters")
            if isinstance(meters, Mapping) and isinstance(meters.get(PROGRESSIVE), str):
                return {PROGRESSIVE: parse_money(meters[PROGRESSIVE], "meter")}
        initial = getattr(rules, "progressive_initial", None)
        return {PROGRESSIVE: initial} if isinstance(initial, int) else {}

    async def _ensure_round(self) -> None:
        if self.state.current is None:
            record = await self._journal_entry(
                BeginRound(self.game.name, self.submission.rules, self._meters()), "daemon", None
            )
            if record is not None:
                log.info("round %s begun", record.round_id)

    async def _settle_if_complete(self) -> None:
        """Settle the round as soon as it is complete, unless players may still decide something
        (Asia Poker's surrender, § 659a.11(d)): then the dealer settles (:meth:`settle_round`)."""
        current = self.state.current
        if current is None:
            return
        try:
            current.settlement()
        except IllegalEvent:
            return
        if current.round.open_decisions():
            return
        await self._settle("daemon", None)

    async def _settle(self, source: str, actor: str | None) -> JournalRecord | None:
        record = await self._journal_entry(SettleRound(), source, actor)
        if record is None:
            return None
        await self._ensure_round()
        if self.gpio is not None:
            self.gpio.unlock()
        return record

    async def _journal_entry(self, entry: Entry, source: str, actor: str | None) -> JournalRecord | None:
        """Journal ``entry``; a refusal is journaled by the journal, reported here, and ``None``."""
        assert self.journal is not None
        try:
            appended = await self.journal.append(entry, source=source, actor=actor)
        except Refused as exc:
            self._report_refusal(exc.record, str(exc))
            return None
        except JournalError:
            self._journal_failed()
            raise
        self._publish_record(appended.record)
        return appended.record

    def _journal_failed(self) -> None:
        # Disk full, I/O error: nothing more can be accepted durably. Lock wagering and tell
        # systemd (the watchdog pings stop) so the daemon is restarted and a technician called.
        log.exception("journal write failed; the table is locked out")
        self._healthy = False
        if self.gpio is not None:
            self.gpio.lock()

    async def submit(self, event: Event, source: str, actor: str | None) -> JournalRecord:
        """Journal one rules event in the round, settle the round if it is complete.

        :class:`Refused` if the rules refuse it (it is journaled as refused and reported).
        """
        async with self._round_lock:
            assert self.journal is not None
            try:
                appended = await self.journal.append(event, source=source, actor=actor)
            except Refused as exc:
                self._report_refusal(exc.record, str(exc))
                raise
            except JournalError:
                self._journal_failed()
                raise
            self._publish_record(appended.record)
            await self._settle_if_complete()
            return appended.record

    async def _submit_quietly(self, event: Event, source: str, actor: str | None = None) -> None:
        with contextlib.suppress(Refused):
            await self.submit(event, source, actor)

    async def no_more_bets(self, source: str, actor: str | None) -> JournalRecord:
        """The lock-out: journal the progressive wagers the devices hold, then ``no_more_bets``.

        § 639a.2(c)(2): from here the sensors recognize nothing; § 639a.8(b): the dealer counts the
        chips against the wagers the system accepted, which are these.
        """
        if self.gpio is not None:
            self.gpio.lock()
            seats = [s for s, n in self.gpio.accepted_by_seat.items() if n]
            for seat in seats:
                await self._submit_quietly(self._progressive_wager(seat), "gpio")
        return await self.submit(Event("no_more_bets"), source, actor)

    def _progressive_wager(self, seat: int) -> Event:
        # A game without the wager: the rules refuse it, naming the game (journaled as refused).
        amount = self.progressive_wager if self.progressive_wager is not None else 1
        return Event("wager", seat=seat, wager=PROGRESSIVE, amount=amount)

    # --- hardware events -----------------------------------------------------------------------

    async def _consume(self) -> None:
        while True:
            signal_ = await self._queue.get()
            try:
                await self._handle(signal_)
            except JournalError:
                log.error("journal failed while handling %s; the table stays locked out", signal_)
            except Exception:
                log.exception("failed to handle %s", signal_)
            finally:
                self._queue.task_done()

    async def _handle(self, signal_: _Signal) -> None:
        if isinstance(signal_, _DeviceSignal):
            await self._handle_device(signal_.event)
            return
        self._publish("input", {"source": "gpio", **signal_.to_json()})
        if isinstance(signal_, LockOutPressed):
            with contextlib.suppress(Refused):
                await self.no_more_bets("gpio", None)
        elif isinstance(signal_, WagerRefused):
            # A chip placed after the lock-out: journaled so a dispute can see it was sensed, and
            # refused by the rules (§ 639a.7(c), § 639a.2(c)(2)).
            await self._submit_quietly(self._progressive_wager(signal_.seat), "gpio")
        elif isinstance(signal_, WagerSensed | WagerRemoved):
            # Counted by the system; journaled as wagers at the lock-out, when the count is final.
            log.info("seat %d: progressive wager %s", signal_.seat, signal_.type.split("_")[1])

    async def _handle_device(self, event: DeviceEvent) -> None:
        name = event.device
        source = DEVICE_SOURCES.get(name, "daemon")
        if isinstance(event, CardRead):
            self._publish("input", {"source": source, "type": "card_read", "card": event.card})
        elif isinstance(event, StackDelivered):
            await self._stack(event, source)
        elif isinstance(event, HoleCardReading):
            await self._submit_quietly(Event("hole_card_reader", result=event.result), source)
        elif isinstance(event, DeviceFault):
            self._publish("device", {"device": name, "state": "fault", "kind": event.kind})
            await self._device_fault(event, source)
        elif isinstance(event, DeviceState):
            self._publish("device", {"device": name, "state": event.state, "reason": event.reason})
            entry = (
                DeviceOnline(name, event.reason)
                if event.state == "online"
                else DeviceOffline(name, event.reason)
            )
            previous = self.state.devices.get(name)
            if previous is None or previous.online != (event.state == "online"):
                async with self._round_lock:
                    await self._journal_entry(entry, source, None)
        elif isinstance(event, ShufflerCount):
            self._publish(
                "device",
                {"device": name, "count": event.count, "expected": event.expected, "ok": event.all_present},
            )
            if not event.all_present:
                # § 639a.5(b): a wrong count removes the deck from the table; the dealer's screen says so.
                log.warning("shuffler counted %d of %d cards: remove the deck", event.count, event.expected)

    async def _stack(self, stack: StackDelivered, source: str) -> None:
        if stack.position == "burn":
            return
        if not stack.complete:
            # A frame was lost: the cards are keyed in by the dealer (§ 639a.13(g)).
            message = f"shoe stack for {stack.position} incomplete ({len(stack.cards)} of {stack.count})"
            self.refusals.append(message)
            self._publish("device", {"device": stack.device, "state": "incomplete_stack", "detail": message})
            log.warning("%s: the dealer enters these cards by hand", message)
            return
        cards = " ".join(stack.cards)
        spec: dict[str, object] = {"type": "cards", "to": stack.position, "cards": cards}
        current = self.state.current
        if stack.position.isdigit() and current is not None:
            # The shoe deals to a seat; a seat that split pairs holds several hands (§ 633a.11).
            hand = hand_dealt_to(current.round.game, current.round.state, int(stack.position))
            if hand:
                spec["hand"] = hand
        try:
            event = parse_event(
                spec,
                "shoe",
                decks=self.game.decks(self.submission.rules),
                joker=self.game.joker,
            )
        except EventError as exc:
            self.refusals.append(str(exc))
            log.warning("shoe: %s", exc)
            return
        await self._submit_quietly(event, source)

    async def _device_fault(self, fault: DeviceFault, source: str) -> None:
        kind = FAULT_IRREGULARITIES.get(fault.device)
        current = self.state.current
        if kind is None or current is None:
            return
        detail = f"{fault.device} {fault.kind}" + (f": {fault.detail}" if fault.detail else "")
        await self._submit_quietly(Event("irregularity", kind=kind, detail=detail), source)

    # --- publishing ------------------------------------------------------------------------------

    def _report_refusal(self, record: JournalRecord, reason: str) -> None:
        self.refusals.append(reason)
        log.warning("refused (seq %d, from %s): %s", record.seq, record.source, reason)
        self._publish_record(record)

    def _publish_record(self, record: JournalRecord) -> None:
        self._publish(
            "event",
            {
                "seq": record.seq,
                "kind": record.kind,
                "round": record.round_id,
                "source": record.source,
                "actor": record.actor,
                "body": dict(record.body),
            },
        )
        self._publish("state", self.snapshot())
        if record.kind in _LAMP_KINDS or record.body.get("type") == "no_more_bets":
            self._show_payout_lamps()

    def _show_payout_lamps(self) -> None:
        """The progressive-won lamps and the call-floorperson light, from the journaled state.

        A seat's won lamp blinks from the settlement of a winning Progressive Payout Wager, for the
        dealer to verify (§ 639a.11(c)(5)(ii)), until the next round's "no more bets" or, if the
        payout waits for a floorperson, until the floorperson verifies it; the floorperson light
        is on while any payout waits (§ 639a.11(c)(5)(iii), § 633a.7(o)(2)(ii)(B)).
        """
        gpio = self.gpio
        if gpio is None or self.journal is None:
            return
        state = self.state
        pending = state.pending_payouts()
        won = {p.seat for p in pending if p.wager == PROGRESSIVE}
        current = state.current
        dealing = current is not None and any(e.type == "no_more_bets" for e in current.events)
        if state.recent and not dealing:
            won |= {
                seat
                for seat, wager, line in settlement_lines(state.recent[-1])
                if wager == PROGRESSIVE and line.get("result") == "win"
            }
        for seat in gpio.seats:
            gpio.set_won_lamp(seat, LampState.BLINKING if seat in won else LampState.OFF)
        gpio.set_floorperson_light(LampState.STEADY if pending else LampState.OFF)

    def _publish(self, topic: str, data: Mapping[str, Any]) -> None:
        if self.api is not None:
            self.api.publish(topic, data)

    def snapshot(self) -> dict[str, Any]:
        """The table's state for the API: round, lock-out, wagers, devices, GPIO, last rounds."""
        state = self.state
        current = state.current
        out: dict[str, Any] = {
            "table": self.config.table.id,
            "game": self.game.name,
            "version": __version__,
            "seq": state.last_seq,
            "locked_out": state.locked_out,
            "round": None,
        }
        if current is not None:
            try:
                current.settlement()
                decisions = current.round.open_decisions()
                waiting = f"the dealer to settle the round; {decisions}" if decisions else ""
            except IllegalEvent as exc:
                waiting = str(exc)
            out["round"] = {
                "id": current.round_id,
                "no_more_bets": any(e.type == "no_more_bets" for e in current.events),
                "wagers": [e.to_json() for e in current.wagers()],
                "events": len(current.events),
                "meters": {k: format_money(v) for k, v in current.meters.items()},
                "waiting_for": waiting,
            }
        out["last_rounds"] = [s.to_json() for s in reversed(state.recent)][:3]
        out["pending_payouts"] = [p.to_json() for p in state.pending_payouts()]
        out["link"] = self._link_status()
        out["devices"] = {
            name: {"state": device.state, "online": device.state == "online"}
            for name, device in self.devices.items()
        }
        out["gpio"] = None if self.gpio is None else self.gpio.status().to_json()
        return out

    # --- the local API (controller.api.ApiHandler) -----------------------------------------------

    async def status(self, actor: Actor) -> Result:
        return self.snapshot()

    async def subscribe(self, actor: Actor, topics: frozenset[str]) -> Result:
        return self.snapshot()

    async def submit_event(self, actor: Actor, event: Mapping[str, Any]) -> Result:
        if event.get("type") == "verification":
            return await self._verify_payout(actor, event)
        try:
            parsed = parse_event(
                event, "event", decks=self.game.decks(self.submission.rules), joker=self.game.joker
            )
        except EventError as exc:
            raise CommandError(ErrorCode.BAD_ARGS, str(exc)) from None
        source, who = _source_of(actor), _actor_name(actor)
        try:
            if parsed.type == "no_more_bets":
                record = await self.no_more_bets(source, who)
            else:
                record = await self.submit(parsed, source, who)
        except Refused as exc:
            raise CommandError(ErrorCode.REFUSED, str(exc)) from None
        return {"round": record.round_id, "seq": record.seq, "next_round": self.round_id}

    async def _verify_payout(self, actor: Actor, event: Mapping[str, Any]) -> Result:
        """A floorperson verifies a flagged payout: ``seat``, ``wager`` and, if more than one
        round waits, ``round`` (§ 633a.7(o)(2)(ii)(B), § 639a.11(c)(5)(iii))."""
        unknown = sorted(set(event) - {"type", "seat", "wager", "round"})
        if unknown:
            raise CommandError(
                ErrorCode.BAD_ARGS, f"verification: unknown field {unknown[0]!r} (fields: seat, wager, round)"
            )
        seat, wager, round_id = event.get("seat"), event.get("wager"), event.get("round")
        if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(wager, str):
            raise CommandError(
                ErrorCode.BAD_ARGS,
                'verification: give seat (a number) and wager (its name), such as {"type": '
                '"verification", "seat": 3, "wager": "progressive"}',
            )
        if round_id is not None and not isinstance(round_id, str):
            raise CommandError(
                ErrorCode.BAD_ARGS, f"verification: round must be a round's id, not {round_id!r}"
            )
        pending = self.state.pending_payouts()
        matching = [p for p in pending if (p.seat, p.wager) == (seat, wager)]
        if round_id is not None:
            matching = [p for p in matching if p.round_id == round_id]
        if len(matching) > 1:
            rounds = ", ".join(p.round_id for p in matching)
            raise CommandError(
                ErrorCode.BAD_ARGS,
                f"verification: seat {seat} {wager} waits in rounds {rounds}; name the round",
            )
        target = round_id if round_id is not None else (matching[0].round_id if matching else "")
        if not target:
            waiting = ", ".join(f"round {p.round_id} seat {p.seat} {p.wager}" for p in pending) or "none"
            raise CommandError(
                ErrorCode.REFUSED,
                f"no payout of seat {seat} {wager} waits for a floorperson (waiting: {waiting})",
            )
        async with self._round_lock:
            entry = PayoutVerified(target, seat, wager)
            record = await self._journal_entry(entry, "floor", _actor_name(actor))
        if record is None:
            raise CommandError(ErrorCode.REFUSED, self.refusals[-1])
        line = next((p for p in matching if p.round_id == target), None)
        return {
            "verified": {"round": target, "seat": seat, "wager": wager, "net": line.net if line else ""},
            "seq": record.seq,
            "pending": [p.to_json() for p in self.state.pending_payouts()],
        }

    async def settle_round(self, actor: Actor) -> Result:
        """The dealer settles a round that waits only for the players' optional decisions."""
        source, who = _source_of(actor), _actor_name(actor)
        async with self._round_lock:
            current = self.state.current
            if current is None:
                raise CommandError(ErrorCode.REFUSED, "no round is open")
            round_id = current.round_id
            try:
                current.settlement()
            except IllegalEvent as exc:
                raise CommandError(ErrorCode.REFUSED, f"round {round_id}: {exc}") from None
            record = await self._settle(source, who)
        if record is None:
            raise CommandError(ErrorCode.REFUSED, self.refusals[-1])
        return {"round": round_id, "seq": record.seq, "next_round": self.round_id}

    def _link_status(self) -> dict[str, Any]:
        """The progressive link to the central meter as configured (docs/config.md)."""
        link = self.config.progressive_link
        if link is None:
            return {"configured": False}
        return {"configured": True, "enabled": link.enabled, "host": link.host, "port": link.port}

    async def _command(self, actor: Actor, command: str, args: Mapping[str, object]) -> None:
        role = "none" if actor.role is None else str(actor.role)
        source = {"dealer": "dealer-ui", "floor": "floor"}.get(role, "tablectl")
        async with self._round_lock:
            await self._journal_entry(Command(command, role, dict(args)), source, _actor_name(actor))

    async def recall_round(self, actor: Actor, round_id: str) -> Result:
        await self._command(actor, "recall_round", {"round": round_id})
        assert self.journal is not None
        try:
            recalled = await self.journal.recall(round_id)
        except UnknownRound as exc:
            raise CommandError(ErrorCode.NOT_FOUND, str(exc)) from None
        return {
            "summary": recalled.summary.to_json(),
            "records": [r.to_json() for r in recalled.records],
            "record": recalled.record,
            "replayed": None if recalled.replayed is None else recalled.replayed.to_json(),
            "consistent": recalled.consistent,
            "waiting_for": recalled.waiting_for,
            "verifications": [r.to_json() for r in recalled.verifications],
        }

    async def export_round(self, actor: Actor, round_id: str) -> Result:
        await self._command(actor, "export_round", {"round": round_id})
        assert self.journal is not None
        try:
            return await self.journal.export_round(round_id)
        except UnknownRound as exc:
            raise CommandError(ErrorCode.NOT_FOUND, str(exc)) from None

    async def list_rounds(self, actor: Actor, limit: int) -> Result:
        assert self.journal is not None
        rounds = await self.journal.recent_rounds(limit)
        return {"rounds": [r.to_json() for r in rounds]}

    async def toggle_lamp(self, actor: Actor, lamp: str, on: bool) -> Result:
        if self.gpio is None:
            raise CommandError(ErrorCode.UNAVAILABLE, "the GPIO is not started")
        current = self.state.current
        if current is not None and current.events:
            raise CommandError(ErrorCode.REFUSED, "a round is being dealt; lamps are tested between rounds")
        lamps = self.gpio.status().lamps
        if lamp not in lamps:
            raise CommandError(ErrorCode.BAD_ARGS, f"no lamp {lamp!r} (lamps: {', '.join(sorted(lamps))})")
        await self._command(actor, "toggle_lamp", {"lamp": lamp, "on": on})
        if lamp == "floorperson_light":
            target = self.gpio.floorperson_light
        else:
            seat, which = int(lamp.split(".")[1]), lamp.split(".")[2]
            target = self.gpio.wager_lamp(seat) if which == "wager_lamp" else self.gpio.won_lamp(seat)
        if on:
            target.on()
        else:
            target.off()
        return {"lamp": lamp, "on": on}

    async def send_test_frame(self, actor: Actor, device: str, frame: bytes) -> Result:
        driver = self.devices.get(device)
        if driver is None or driver.state != "online":
            raise CommandError(ErrorCode.UNAVAILABLE, f"the {device} is not connected")
        await self._command(actor, "send_test_frame", {"device": device, "frame": frame.hex()})
        try:
            seconds = await driver.send_test_frame(frame.decode("ascii", "replace"))
        except Exception as exc:
            raise CommandError(ErrorCode.UNAVAILABLE, f"the {device} did not answer: {exc}") from None
        return {"device": device, "round_trip_ms": round(seconds * 1000, 3)}

    async def command_refused(self, actor: Actor, cmd: str | None, code: str, message: str) -> None:
        if self.journal is None:
            return
        with contextlib.suppress(JournalError, ValueError):
            await self._command(actor, cmd or "(unreadable)", {"refused": code, "message": message})


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- main ------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="table-controller", description="The table controller daemon.")
    parser.add_argument("--config", "-c", type=Path, default=DEFAULT_PATH, help=f"default {DEFAULT_PATH}")
    parser.add_argument(
        "--mock-pins",
        action="store_true",
        help="gpiozero's MockFactory instead of the Pi's pins (the bench rig; no hardware, no root)",
    )
    parser.add_argument("--check", action="store_true", help="validate the configuration and exit")
    parser.add_argument("--verbose", "-v", action="store_true", help="log at DEBUG")
    return parser


def prepare(path: Path) -> tuple[Config, Submission]:
    """The configuration and the Rules Submission, or :class:`RulesError` with every problem."""
    config = load_config(path)
    return config, load_submission(config)


async def serve(daemon: Daemon) -> None:
    """Run ``daemon`` until SIGTERM or SIGINT."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    try:
        await daemon.run(stop)
    finally:
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(sd_notify.log_formatter(sys.stderr))
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, handlers=[handler])
    try:
        config, submission = prepare(args.config)
    except RulesError as exc:
        print(f"table-controller: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if args.check:
        print(f"{args.config}: good ({submission.game.title}, table {config.table.id})")
        return EXIT_OK
    pin_factory: PinFactory = None
    if args.mock_pins:
        from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

        pin_factory = MockFactory()
    daemon = Daemon(
        config, submission, config_path=args.config, pin_factory=pin_factory, notifier=sd_notify.notifier()
    )
    try:
        asyncio.run(serve(daemon))
    except (JournalError, ApiStartError, GPIOZeroError, OSError) as exc:
        print(f"table-controller: cannot start: {exc}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
