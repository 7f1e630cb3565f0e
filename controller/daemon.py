"""``table-controller``: the daemon that turns the table's hardware into journaled rules events.

This module is the composition root (docs/daemon.md): it reads the configuration, builds the
parts, and starts and stops them in order. One asyncio loop; nothing blocks it.

- :mod:`controller.journal`: every event is journaled before anything acts on it;
- :mod:`controller.table.service`: rounds and settlement on the journal, the lock-out, the
  payout lamps (a pure function of the journaled state, :mod:`controller.table.lamps`);
- :mod:`controller.table.bridge`: the GPIO's and the serial drivers' events, in order, through
  a handler table keyed by the event's type, into the service;
- :mod:`controller.table.table_api`: the local API's commands (``controller.api``) into the service;
- :mod:`controller.table.status`: the table's state as the API shows it.

Start: the journal opens and recovers (a complete round is settled, a round begun), then the
pins, the consumer of hardware events, the serial drivers, the frame pumps and the API; systemd
hears READY once everything is up and WATCHDOG from the loop. SIGTERM or SIGINT: the API closes,
the drivers stop, the queued hardware events are handled, the pins are released, the journal
closes (each even if one before it fails).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import logging
import signal
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from gpiozero.exc import GPIOZeroError  # type: ignore[import-untyped]

from hw.device_events import EventCallback
from hw.gpio import ProgressiveTableGameSystem
from hw.gpio_devices import PinFactory
from hw.hole_card_reader import HoleCardReader
from hw.pin_map import PinMap, load_pin_map
from hw.serial_config import SerialDeviceConfig
from hw.serial_device import SerialDevice
from hw.shoe import DealingShoe
from hw.shuffler import Shuffler

from . import __version__, sd_notify
from .api import ApiServer, ApiStartError, api_server_from_config
from .config import (
    DEFAULT_PATH,
    Config,
    ConfigError,
    ProgressiveLinkSection,
    certificate_problem,
    load_config,
)
from .frame_pump import FRAMES_TOPIC, FramePumps
from .journal import Journal, JournalError, read_boot_id
from .journal.records import ConfigLoaded, HardwareFact, Started
from .journal.state import TableState
from .link.outbound import LinkPlan, LinkPlanError
from .link.submission import link_problems
from .link.table_link import TableLink
from .rules.core.engine import Game
from .rules.core.money import Cents
from .rules.core.options import RulesError
from .rules.core.submission import Submission, parse_submission
from .rules.games import GAMES
from .table import game_hooks, write_failures
from .table.bridge import HardwareBridge
from .table.lamps import progressive_unavailable
from .table.refusals import RefusalLog
from .table.sensors import devices_of, sensor_problems
from .table.service import TableService
from .table.status import table_status
from .table.table_api import TableApi

log = logging.getLogger(__name__)

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_CONFIG: Final = 78
"""EX_CONFIG (sysexits.h): the unit's ``RestartPreventExitStatus=78`` does not restart a daemon whose
configuration is wrong, since a restart cannot fix it (docs/systemd.md)."""

#: A serial device's configured name -> its driver (docs/serial-protocols.md).
DRIVERS: Final[Mapping[str, type[SerialDevice]]] = {
    "shoe": DealingShoe,
    "shuffler": Shuffler,
    "reader": HoleCardReader,
}


def load_submission(config: Config) -> Submission:
    """The table's Rules Submission (§ 601a.2); :class:`RulesError` lists every problem."""
    path = config.table.rules_submission
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RulesError(str(path), [f"cannot read the Rules Submission: {exc.strerror}"]) from None
    except UnicodeDecodeError as exc:
        raise RulesError(
            str(path), [f"the Rules Submission is not UTF-8 text (byte {exc.start}: {exc.reason})"]
        ) from None
    submission = parse_submission(text, GAMES, str(path))
    if submission.table != config.table.id:
        raise RulesError(
            str(path),
            [f"is for table {submission.table!r}, but [table] id is {config.table.id!r}"],
        )
    return submission


class Daemon:
    """The table controller: hardware, journal, rules core and local API on one loop.

    ``pin_factory`` is gpiozero's (``None``: its default, lgpio on a Pi; the bench rig gives
    ``MockFactory``). The parts exist while the daemon runs: :attr:`journal`, :attr:`service`
    (and its :attr:`gpio`), :attr:`bridge`, :attr:`devices`, :attr:`api`.
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
        #: What one chip on a wagering device is (``None``: the game has no Progressive Payout Wager).
        self.progressive_wager: Cents | None = game_hooks.progressive_wager(submission)
        self.notifier = notifier if notifier is not None else sd_notify.Notifier.from_environ()
        #: What happened that was not journaled as accepted: refusals, dropped stacks (bounded).
        self.refusals = RefusalLog()
        self.journal: Journal | None = None
        self.service: TableService | None = None
        self.bridge: HardwareBridge | None = None
        self.api: ApiServer | None = None
        self.devices: dict[str, SerialDevice] = {}
        #: The progressive link to the central meter (``[progressive_link]``), if enabled.
        self.link: TableLink | None = None
        self.frame_pumps: FramePumps | None = None
        #: The checked pin map (``[gpio]``), once :meth:`start` has read it.
        self.pin_map: PinMap | None = None
        self._watchdog: asyncio.Task[None] | None = None

    # --- life cycle ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the journal and recover, start the GPIO, the drivers and the API; then READY.

        :class:`ConfigError` first, before anything is opened, if the pin map's wagering devices
        do not fit the game's progressives (``controller/table/sensors.py``)."""
        self.pin_map = pin_map = load_pin_map(self.config.gpio)
        problems = sensor_problems(pin_map, self.submission)
        if problems:
            raise ConfigError(str(self.config_path or "the configuration"), [f"[gpio] {p}" for p in problems])
        self.notifier.status(f"recovering the journal {self.config.journal.path}")
        self.journal = journal = await Journal.open(self.config.journal.path, self.config.table.id)
        link = self.config.progressive_link
        self.service = service = TableService(
            journal,
            self.submission,
            self.refusals,
            publish=self._publish,
            status=self.snapshot,
            pins=self._pins,
            link=None if link is None or not link.enabled else self._link_of(link),
            shoe_installed="shoe" in self.config.serial_devices(),
        )
        self.bridge = bridge = HardwareBridge(service, self._publish)
        # The table declares its progressives to the meter each time it loads its Rules
        # Submission (docs/progressive-link.md, "Declaration").
        declaration = [] if self.link is None else [self.link.plan.declaration()]
        if journal.previous_shutdown != "clean":
            log.warning("journal: the daemon was not shut down cleanly last time (journaled in 'started')")
        await journal.append(
            Started(__version__, read_boot_id(), journal.previous_shutdown),
            source="daemon",
            outbox=declaration,
        )
        if self.link is not None:
            # Fails closed: no progressive wager until the meter accepts this declaration.
            await self.link.close_until_heard(await journal.last_outbox_seq())
        # The write failures of the last run, kept beside the journal: journaled now.
        failures = write_failures.take(journal.path)
        for failure in failures:
            await journal.append(HardwareFact("journal", "journal_write_failed", failure), source="daemon")
        if failures:
            write_failures.clear(journal.path)
        if self.config_path is not None:
            digest = await asyncio.to_thread(_sha256, self.config_path)
            await journal.append(
                ConfigLoaded(str(self.config_path), digest, {"game": self.game.name}), source="daemon"
            )
        # The round as the journal left it, and only then the pins (:meth:`_pins`).
        await service.recover()
        bridge.start()
        on_event: EventCallback = bridge.on_event
        for name, section in self.config.serial_devices().items():
            driver_config = SerialDeviceConfig(port=str(section.port), baudrate=section.baud)
            device = DRIVERS[name](driver_config, on_event, name=name)
            self.devices[name] = device
            await device.start()
        # Every device's frames for ``tablectl sniff``, only while a technician subscribes.
        self.frame_pumps = FramePumps(
            self.devices,
            self._publish,
            lambda: self.api is not None and self.api.has_subscribers(FRAMES_TOPIC),
        )
        self.frame_pumps.start()
        if self.link is not None:
            self.link.start()
        self.api = api_server_from_config(
            self.config.api, TableApi(service, self.devices, self.snapshot, self.config.api.users_file)
        )
        await self.api.start()
        self._watchdog = self.notifier.start_watchdog(self.healthy)
        self.notifier.ready(f"{self.config.table.id}: {self.game.title}, round {self.round_id}")
        log.info("table %s ready: %s, round %s", self.config.table.id, self.game.title, self.round_id)

    def _pins(self, state: TableState) -> ProgressiveTableGameSystem:
        """The pins, set up for the journal's recovered ``state`` (the service calls this once it
        has recovered, :meth:`TableService.recover`): locked in a round past "no more bets", the
        devices whose wagers the journal accepted counted, and no chip a wager from the first edge
        while the progressive link is journaled down."""
        assert self.pin_map is not None and self.bridge is not None
        current = state.current
        # A restart in the middle of a round: the devices whose wagers the journal accepted.
        journaled = [] if current is None else [(w.seat, w.wager) for w in current.wagers()]
        accepted = devices_of(
            self.pin_map, self.submission, [(s, w) for s, w in journaled if s is not None and w]
        )
        return ProgressiveTableGameSystem(
            self.pin_map,
            self.bridge.on_event,
            loop=asyncio.get_running_loop(),
            pin_factory=self.pin_factory,
            locked=current is not None and current.no_more_bets,
            accepted=accepted,
            unavailable=progressive_unavailable(state) is not None,
        )

    def _link_of(self, section: ProgressiveLinkSection) -> Callable[[TableService], TableLink]:
        """What makes the table's link from its service (``TableService(link=...)``), kept as
        :attr:`link` for its start and stop."""

        def made(service: TableService) -> TableLink:
            self.link = TableLink(section, service, TableLink.plan_of(section, service))
            return self.link

        return made

    def healthy(self) -> bool:
        """For the watchdog: the journal writes and the hardware events are still being handled."""
        return (
            self.service is not None
            and self.service.healthy
            and self.bridge is not None
            and self.bridge.running
        )

    async def stop(self) -> None:
        """Clean shutdown: API, drivers, hardware events, pins, journal, each even if one before it
        fails (the failure is logged, and the first raised once everything is released)."""
        self.notifier.stopping("shutting down")
        failures: list[Exception] = []
        for step in (
            self._stop_api,
            self._stop_devices,
            self._stop_bridge,
            self._stop_watchdog,
            self._stop_link,
            self._release_pins,
            self._close_journal,
        ):
            try:
                await step()
            except Exception as exc:
                log.exception("shutting down: %s failed", step.__name__.strip("_").replace("_", " "))
                failures.append(exc)
        if failures:
            raise failures[0]

    async def _stop_api(self) -> None:
        if self.api is not None:
            api, self.api = self.api, None
            await api.close()

    async def _stop_devices(self) -> None:
        if self.frame_pumps is not None:
            pumps, self.frame_pumps = self.frame_pumps, None
            await pumps.stop()
        devices = list(self.devices.items())
        self.devices.clear()
        failed: list[Exception] = []
        for name, device in devices:
            try:
                await device.stop()
            except Exception as exc:
                log.exception("shutting down: the %s's driver failed to stop", name)
                failed.append(exc)
        if failed:
            raise failed[0]

    async def _stop_bridge(self) -> None:
        if self.bridge is not None:
            # Let the consumer finish what the hardware already reported, then stop it.
            await self.bridge.stop()

    async def _stop_watchdog(self) -> None:
        if self._watchdog is not None:
            watchdog, self._watchdog = self._watchdog, None
            watchdog.cancel()
            await asyncio.gather(watchdog, return_exceptions=True)

    async def _stop_link(self) -> None:
        if self.link is not None:
            link, self.link = self.link, None
            await link.stop()

    async def _release_pins(self) -> None:
        if self.service is not None:
            self.service.release_pins()

    async def _close_journal(self) -> None:
        if self.journal is not None:
            journal, self.journal = self.journal, None
            await journal.close()

    async def drain(self) -> None:
        """Until every hardware event queued so far has been journaled (for tests and the rig)."""
        if self.bridge is not None:
            await self.bridge.drain()

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

    # --- what the parts show ---------------------------------------------------------------------

    @property
    def gpio(self) -> ProgressiveTableGameSystem | None:
        return None if self.service is None else self.service.gpio

    @property
    def state(self) -> TableState:
        assert self.journal is not None, "the daemon is not started"
        return self.journal.state

    @property
    def round_id(self) -> str | None:
        current = self.state.current
        return None if current is None else current.round_id

    def snapshot(self) -> dict[str, Any]:
        """The table's state for the API: round, lock-out, wagers, devices, GPIO, last rounds."""
        link = None if self.link is None else self.link.to_json()
        game, rules = self.game, self.submission.rules
        return table_status(
            self.config,
            game.name,
            self.state,
            self.devices,
            self.gpio,
            link,
            game.vocabulary(rules),
            game.screen(rules),
            game.title,
            self.submission.limits,
        )

    def _publish(self, topic: str, data: Mapping[str, Any]) -> None:
        if self.api is not None:
            self.api.publish(topic, data)


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
    submission = load_submission(config)
    problems = sensor_problems(load_pin_map(config.gpio), submission)
    if problems:
        raise ConfigError(str(path), [f"[gpio] {line}" for line in problems])
    link = config.progressive_link
    if link is not None and link.enabled:
        problems = link_problems(submission)
        if problems:
            raise ConfigError(str(path), [f"[progressive_link]: {line}" for line in problems])
        try:
            LinkPlan.of(game_hooks.progressives(submission), link)
        except LinkPlanError as exc:
            raise ConfigError(str(path), [f"[progressive_link]: {exc}"]) from None
        wrong = certificate_problem(config)
        if wrong is not None:
            raise ConfigError(str(path), [wrong])
    return config, submission


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
