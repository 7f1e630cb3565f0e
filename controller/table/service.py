"""The table service: rounds and their settlement, on the journal, one step at a time.

Every change goes through the journal first (:meth:`TableService.journal_entry`): a refused
entry is journaled as refused by the journal, remembered in :class:`.RefusalLog` and published,
never raised out of the loop; a failed write locks wagering. A round complete is settled at
once (unless players may still decide, § 659a.11(d)) and the next one begun; the lock-out at
"no more bets" (§ 639a.2(c)(2)) and its release at the settlement are the service's, and the
payout lamps show :func:`.lamps.payout_lamps` of the journaled state after each record that can
change them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import Any, Final, Protocol

from hw.gpio import ProgressiveTableGameSystem

from ..journal import Journal, JournalError, Refused
from ..journal.outbox import Outbound
from ..journal.records import PAYOUT_VERIFIED, ROUND_SETTLED, BeginRound, Entry, JournalRecord, SettleRound
from ..journal.state import OpenRound, TableState
from ..rules.engine import Game
from ..rules.events import Event
from ..rules.submission import Submission
from . import game_hooks
from .lamps import payout_lamps
from .refusals import RefusalLog

log = logging.getLogger("controller.daemon")

Publish = Callable[[str, Mapping[str, Any]], None]
"""``publish(topic, data)``: to the local API's subscribers (docs/local-api.md)."""

#: The records after which the won lamps and the floorperson light may change (besides an
#: accepted ``no_more_bets`` event): see :func:`.lamps.payout_lamps`.
_LAMP_KINDS: Final = frozenset({ROUND_SETTLED, PAYOUT_VERIFIED})


class LinkHooks(Protocol):
    """What the table service asks of the progressive link (``controller.link.TableLink``)."""

    @property
    def linked(self) -> frozenset[str]:
        """The progressive wagers whose meter the central meter holds."""

    def outbox_for(self, current: OpenRound, event: Event) -> list[Outbound]:
        """The link's messages ``event`` causes (contributions at the lock-out, hit claims)."""

    def meter_events(self, current: OpenRound) -> list[Event] | None:
        """The ``meter`` events that complete ``current`` from the meter's word; empty when it
        needs none, ``None`` while a hit's award is pending."""


class TableService:
    """The table's rounds on an open :class:`Journal`; ``gpio`` once the pins are set up.

    ``status()`` is the table's state as the API shows it, published after every record.
    """

    def __init__(
        self,
        journal: Journal,
        submission: Submission,
        refusals: RefusalLog,
        *,
        publish: Publish,
        status: Callable[[], Mapping[str, Any]],
    ) -> None:
        self.journal = journal
        self.submission = submission
        self.game: Game[Any, Any] = submission.game
        self.refusals = refusals
        self.gpio: ProgressiveTableGameSystem | None = None
        #: One change of the round at a time: an event and the settlement it completes.
        self.round_lock = asyncio.Lock()
        self.healthy = True
        self._publish = publish
        self._status = status
        #: The progressive link (``controller.link``), if the table is linked to a central meter.
        self.link: LinkHooks | None = None

    @property
    def state(self) -> TableState:
        return self.journal.state

    @property
    def round_id(self) -> str | None:
        current = self.state.current
        return None if current is None else current.round_id

    def get_status(self) -> dict[str, object]:
        return {"round": self.round_id, "healthy": self.healthy, "refusals": self.refusals.get_status()}

    # --- the round -------------------------------------------------------------------------------

    async def ensure_round(self) -> None:
        """Begin a round if none is open, with the meters it begins with (§ 639a.12(d)(3))."""
        if self.state.current is None:
            meters = game_hooks.opening_meters(self.submission, self.state)
            if self.link is not None:
                # The central meter holds a linked progressive's meter: the round takes it from
                # the meter's award (or last amount) when it needs it (§ 639a.12(d)(4)).
                meters = {k: v for k, v in meters.items() if k not in self.link.linked}
            record = await self.journal_entry(
                BeginRound(self.game.name, self.submission.rules, meters), "daemon", None
            )
            if record is not None:
                log.info("round %s begun", record.round_id)

    async def settle_if_complete(self) -> None:
        """Settle the round as soon as it is complete, unless players may still decide something
        (Asia Poker's surrender, § 659a.11(d)): then the dealer settles (``settle_round``)."""
        current = self.state.current
        if current is not None and self.link is not None:
            for event in self.link.meter_events(current) or ():
                try:
                    appended = await self.journal.append(event, source="link")
                except Refused as exc:
                    self.report_refusal(exc.record, str(exc))
                    return
                self.publish_record(appended.record)
            current = self.state.current
        if current is not None and game_hooks.settles_itself(current):
            await self.settle("daemon", None)

    async def complete_from_link(self) -> None:
        """The meter's word came (an award, an amount): settle a round that waited for it."""
        async with self.round_lock:
            await self.settle_if_complete()

    async def settle(self, source: str, actor: str | None) -> JournalRecord | None:
        """Journal the settlement, begin the next round and unlock the wagering devices."""
        record = await self.journal_entry(SettleRound(), source, actor)
        if record is None:
            return None
        await self.ensure_round()
        if self.gpio is not None:
            self.gpio.unlock()
        return record

    async def journal_entry(self, entry: Entry, source: str, actor: str | None) -> JournalRecord | None:
        """Journal ``entry``; a refusal is journaled by the journal, reported here, and ``None``."""
        try:
            appended = await self.journal.append(entry, source=source, actor=actor)
        except Refused as exc:
            self.report_refusal(exc.record, str(exc))
            return None
        except JournalError:
            self._journal_failed()
            raise
        self.publish_record(appended.record)
        return appended.record

    def _journal_failed(self) -> None:
        # Disk full, I/O error: nothing more can be accepted durably. Lock wagering and tell
        # systemd (the watchdog pings stop) so the daemon is restarted and a technician called.
        log.exception("journal write failed; the table is locked out")
        self.healthy = False
        if self.gpio is not None:
            self.gpio.lock()

    async def submit(self, event: Event, source: str, actor: str | None) -> JournalRecord:
        """Journal one rules event in the round, settle the round if it is complete.

        :class:`Refused` if the rules refuse it (it is journaled as refused and reported).
        """
        async with self.round_lock:
            current = self.state.current
            # The link's messages this event causes, committed with it (the lock-out's
            # contributions, a hit's claim): docs/progressive-link.md, "Exactly once".
            outbox = [] if self.link is None or current is None else self.link.outbox_for(current, event)
            try:
                appended = await self.journal.append(event, source=source, actor=actor, outbox=outbox)
            except Refused as exc:
                self.report_refusal(exc.record, str(exc))
                raise
            except JournalError:
                self._journal_failed()
                raise
            self.publish_record(appended.record)
            await self.settle_if_complete()
            return appended.record

    async def submit_quietly(self, event: Event, source: str, actor: str | None = None) -> None:
        """:meth:`submit`, a refusal only journaled and reported (a device's event)."""
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
                await self.submit_quietly(game_hooks.sensed_wager(self.submission, seat), "gpio")
        return await self.submit(Event("no_more_bets"), source, actor)

    # --- publishing ------------------------------------------------------------------------------

    def report_refusal(self, record: JournalRecord, reason: str) -> None:
        self.refusals.add(reason)
        log.warning("refused (seq %d, from %s): %s", record.seq, record.source, reason)
        self.publish_record(record)

    def publish_record(self, record: JournalRecord) -> None:
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
        self._publish("state", self._status())
        if record.kind in _LAMP_KINDS or record.body.get("type") == "no_more_bets":
            self.show_payout_lamps()

    def show_payout_lamps(self) -> None:
        """Show on the pins what :func:`.lamps.payout_lamps` says of the journaled state."""
        gpio = self.gpio
        if gpio is None:
            return
        lamps = payout_lamps(self.state, gpio.seats)
        for seat, lamp in lamps.won.items():
            gpio.set_won_lamp(seat, lamp)
        gpio.set_floorperson_light(lamps.floorperson_light)
