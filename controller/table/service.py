"""The table service: rounds and their settlement, on the journal, one step at a time.

Every change goes through the journal first (:meth:`TableService.journal_entry`, which holds the
service's lock: callers never take it): a refused
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
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from hw.gpio import ProgressiveTableGameSystem

from ..journal import Appended, Journal, JournalError, Refused, Step, StepOutcome
from ..journal.outbox import Outbound
from ..journal.records import (
    PAYOUT_VERIFIED,
    ROUND_SETTLED,
    BeginRound,
    Entry,
    IrregularityReported,
    JournalRecord,
    LockOut,
    SettleRound,
    Unlock,
)
from ..journal.state import PROGRESSIVE_LINK, OpenRound, RequestOutcome, TableState
from ..rules.core.engine import Game
from ..rules.core.events import Event
from ..rules.core.money import Cents
from ..rules.core.submission import Submission
from . import authority, game_hooks, write_failures
from .lamps import payout_lamps, progressive_unavailable
from .refusals import RefusalLog

log = logging.getLogger(__name__)

Publish = Callable[[str, Mapping[str, Any]], None]
"""``publish(topic, data)``: to the local API's subscribers (docs/local-api.md)."""

#: The records after which the won lamps and the floorperson light may change (besides an
#: accepted ``no_more_bets`` event): see :func:`.lamps.payout_lamps`.
_LAMP_KINDS: Final = frozenset({ROUND_SETTLED, PAYOUT_VERIFIED})


class Repeated(Exception):
    """A request whose idempotency key the journal already holds: answer ``outcome``, apply nothing."""

    def __init__(self, key: str, outcome: RequestOutcome) -> None:
        super().__init__(f"request {key!r} was answered at seq {outcome.seqs[-1]}")
        self.key = key
        self.outcome = outcome


class IdempotencyConflict(Exception):
    """A request whose idempotency key the journal holds for another request (another command or
    body): refused, nothing applied, and the first request's records stay its answer."""

    def __init__(self, key: str, outcome: RequestOutcome) -> None:
        why = (
            "was journaled before keys were bound to their request"
            if not outcome.binding
            else "was given to another request (another command or body)"
        )
        super().__init__(
            f"idempotency_key {key!r} {why} at seq {outcome.seqs[-1]}: nothing was applied; a new "
            "request takes a new key (docs/local-api.md, 'Idempotency')"
        )
        self.key = key
        self.outcome = outcome


@dataclass(frozen=True)
class RequestKey:
    """A client's idempotency key and the binding of the request it came with
    (``records.request_binding``: its command and body)."""

    key: str
    binding: str


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

    async def paid_for(
        self, round_id: str, seat: int, wager: str, award: Mapping[str, object] | None
    ) -> list[Outbound]:
        """The ``paid`` a floorperson's verification of a seat's hand-paid award causes (the award
        handshake's third step, docs/progressive-link.md); empty where none."""

    async def hand_pay(self, seat: int, wager: str, verified: Cents, reason: str, actor: str | None) -> None:
        """A floorperson settles a claim the meter refused or did not award in time (the seat paid
        its share of the ``verified`` meter); ``ValueError`` with the words if none waits."""


Pins = Callable[[TableState], ProgressiveTableGameSystem]
"""``pins(state)``: the table's pins set up for the journal's recovered ``state`` (locked in a round
past "no more bets", the chips the journal accepted, the progressive journaled unavailable)."""


class TableService:
    """The table's rounds on an open :class:`Journal`, with its collaborators given when it is built.

    ``pins`` makes the pins (:data:`Pins`): :meth:`recover` calls it once, after the journal's
    recovery, so that no pin is read before the journal says what the round is (docs/daemon.md,
    "Start"); :attr:`gpio` is ``None`` until then and after :meth:`release_pins`. ``link`` makes
    the progressive link from the service (``controller.link.TableLink``), here, at construction.
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
        pins: Pins,
        link: Callable[[TableService], LinkHooks] | None = None,
        shoe_installed: bool = False,
    ) -> None:
        self.journal = journal
        self.submission = submission
        self.game: Game[Any, Any] = submission.game
        self.refusals = refusals
        self._pins = pins
        #: The pins, once :meth:`recover` has set them up.
        self.gpio: ProgressiveTableGameSystem | None = None
        #: One change of the round at a time: an event and the settlement it completes.
        self.round_lock = asyncio.Lock()
        self.healthy = True
        #: An automated dealing shoe is configured: cards by hand only while it is out of order.
        self.shoe_installed = shoe_installed
        #: The lock-out press the pins have locked on and the journal has not yet recorded: the
        #: next thing to enter the table journals it first (docs/daemon.md, "The lock-out").
        self.press_pending: object | None = None
        self._publish = publish
        self._status = status
        #: The progressive link (``controller.link``), if the table is linked to a central meter;
        #: made last, from the service it asks.
        self.link: LinkHooks | None = None if link is None else link(self)

    @property
    def state(self) -> TableState:
        return self.journal.state

    @property
    def round_id(self) -> str | None:
        current = self.state.current
        return None if current is None else current.round_id

    # --- the start and the end ----------------------------------------------------------------------

    async def recover(self) -> None:
        """The table as the journal left it, then the pins: a round the journal holds complete is
        settled, a round begun if none is open, wagering opened again if the daemon was killed
        between a round's beginning and its ``unlock`` (§ 639a.7(c)); only then are the pins set up
        (``pins(state)``, from the state recovered) and the lamps shown (a payout still waiting
        lights them again). Once: a second call is a :class:`RuntimeError`."""
        if self.gpio is not None:
            raise RuntimeError("the table service has recovered already: its pins are set up")
        await self.settle_if_complete()
        await self.ensure_round()
        opened = self.state.current
        if opened is not None and not opened.no_more_bets and self.state.locked_out:
            await self.open_wagering(f"round {opened.round_id} open for wagers")
        self.gpio = self._pins(self.state)
        self.show_lamps()

    def release_pins(self) -> None:
        """Close the pins (the daemon's stop); nothing is shown on them from here."""
        gpio, self.gpio = self.gpio, None
        if gpio is not None:
            gpio.close()

    # --- the round -------------------------------------------------------------------------------

    async def ensure_round(self, opening: Sequence[Entry] = ()) -> None:
        """Begin a round if none is open, with the meters it begins with (§ 639a.12(d)(3));
        ``opening``: what opens it (the ``unlock`` after a settlement), in the same transaction,
        so no one reads the new round still locked out (the dealer's screen, the status)."""
        if self.state.current is None:
            meters = game_hooks.opening_meters(self.submission, self.state)
            if self.link is not None:
                # The central meter holds a linked progressive's meter: the round takes it from
                # the meter's award (or last amount) when it needs it (§ 639a.12(d)(4)).
                meters = {k: v for k, v in meters.items() if k not in self.link.linked}
            # The round and what the last one carries to it (the poker room's button, § 637a.19(c)(2))
            # in ONE transaction: a crash keeps both or neither.
            begin = BeginRound(self.game.name, self.submission.rules, meters)
            carried = [Step(e, authority.DAEMON) for e in (*self.state.next_round, *opening)]
            with self._journal_writes():
                outcomes = await self.journal.append_many([Step(begin, authority.DAEMON), *carried])
            for outcome in outcomes:
                self._report(outcome)
            first = outcomes[0]
            if isinstance(first, Appended):
                log.info("round %s begun", first.record.round_id)

    async def settle_if_complete(self) -> None:
        """Settle the round as soon as it is complete, unless players may still decide something
        (Asia Poker's surrender, § 659a.11(d)): then the dealer settles (``settle_round``)."""
        current = self.state.current
        if current is not None and self.link is not None:
            for event in self.link.meter_events(current) or ():
                outcome = await self._append(Step(event, "link"), None)
                if isinstance(outcome, Refused):
                    return
            current = self.state.current
        if current is not None and game_hooks.settles_itself(current):
            await self.settle("daemon", None)

    async def complete_from_link(self) -> None:
        """The meter's word came (an award, an amount): settle a round that waited for it."""
        async with self.round_lock:
            await self.settle_if_complete()

    async def settle(self, source: str, actor: str | None) -> JournalRecord | None:
        """Journal the settlement, begin the next round and unlock the wagering devices."""
        record = await self._journal_entry(SettleRound(), source, actor)
        if record is None:
            return None
        why = f"round {record.round_id} settled"
        await self.ensure_round([Unlock(why)] if self.state.locked_out else [])
        await self.open_wagering(why)  # the pins (and the unlock, if no round was begun here)
        return record

    async def open_wagering(self, why: str) -> None:
        """Journal ``unlock`` (if the journal says locked) and open the pins for the new round."""
        if self.state.locked_out:
            await self._journal_entry(Unlock(why), "daemon", None)
        if self.gpio is not None:
            self.gpio.unlock()

    async def journal_entry(
        self,
        entry: Entry,
        source: str,
        actor: str | None,
        *,
        check: Callable[[TableState], None] | None = None,
        outbox: Sequence[Outbound] = (),
    ) -> JournalRecord | None:
        """Journal ``entry`` (a device's fact, a floorperson's word, a command) one change at a
        time: the service takes its lock, callers never do. ``check(state)`` runs first under the
        lock (a precondition that raises to refuse); a refusal is journaled by the journal,
        reported here, and ``None``. ``outbox``: the link's messages it causes, in its transaction."""
        async with self.round_lock:
            if check is not None:
                check(self.state)
            return await self._journal_entry(entry, source, actor, outbox)

    async def complete_by_floor(self, round_id: str, steps: Sequence[Step]) -> None:
        """A round the meter could not complete (a claim it refused, or did not award in time),
        completed by a floorperson's ``meter`` events in ONE transaction, then settled.
        ``ValueError`` if ``round_id`` is no longer the round waiting (an award settled it)."""
        async with self.round_lock:
            current = self.state.current
            if current is None or current.round_id != round_id or not current.round.waiting_for():
                raise ValueError(f"round {round_id} no longer waits for the meter (its award came)")
            for outcome in await self._append_many(list(steps), None):
                self._report(outcome)
                if isinstance(outcome, Refused):
                    raise outcome
            current = self.state.current
            if current is not None and game_hooks.settles_itself(current):
                await self.settle("daemon", None)

    async def settle_when(
        self, source: str, actor: str | None, check: Callable[[TableState], None]
    ) -> JournalRecord | None:
        """The dealer's settlement (:meth:`settle`) under the lock, once ``check(state)`` passes."""
        async with self.round_lock:
            check(self.state)
            return await self.settle(source, actor)

    async def _journal_entry(
        self, entry: Entry, source: str, actor: str | None, outbox: Sequence[Outbound] = ()
    ) -> JournalRecord | None:
        """Journal ``entry``, the lock held; a refusal is journaled by the journal, reported here,
        and ``None``."""
        try:
            with self._journal_writes():
                appended = await self.journal.append(entry, source=source, actor=actor, outbox=outbox)
        except Refused as exc:
            self.report_refusal(exc.record, str(exc))
            return None
        self.publish_record(appended.record)
        return appended.record

    @contextlib.contextmanager
    def _journal_writes(self) -> Iterator[None]:
        """The one path of a journal write that fails (disk full, I/O error): nothing more can be
        accepted durably. Lock wagering, tell systemd (the watchdog pings stop) so the daemon is
        restarted and a technician called, keep the failure beside the journal for the next start
        (:mod:`.write_failures`), and raise the :class:`JournalError` on."""
        try:
            yield
        except JournalError as exc:
            log.exception("journal write failed; the table is locked out")
            self.healthy = False
            if self.gpio is not None:
                self.gpio.lock()
            write_failures.note(self.journal.path, str(exc), self.round_id)
            raise

    async def submit(
        self, event: Event, source: str, actor: str | None, *, request: RequestKey | None = None
    ) -> JournalRecord:
        """Journal one rules event in the round, settle the round if it is complete.

        :func:`.authority.judge` first: a source that may not produce it is refused (journaled as
        refused, naming the authority), an irregularity that needs a floorperson is journaled as
        ``irregularity_reported`` and the round waits. :class:`Refused` if refused (by the
        authority or the rules; it is journaled and reported). ``request``: the client's
        idempotency key and its binding, journaled in the same transaction; :class:`Repeated` for
        a key the journal holds for this request, :class:`IdempotencyConflict` for another one.
        """
        async with self.round_lock:
            self._check_request(request)
            await self._journal_pending_press()
            return await self._submit_locked(event, source, actor, request)

    def limit_refusal(
        self, seat: int | None, wager: str | None, amount: int | None, kind: str = "wager"
    ) -> str | None:
        """Why a wager of ``amount`` is outside the table's minimum or maximum for ``wager`` (the
        Rules Submission's ``[limits]``), or ``None``."""
        limits = self.submission.limits.get(wager or "")
        if kind != "wager" or limits is None or amount is None or wager is None:
            return None
        return limits.refusal(seat, wager, amount)

    def _check_request(self, request: RequestKey | None) -> None:
        # Inside the round lock: a retry racing its first try sees the first's records.
        if request is None or request.key not in self.state.requests:
            return
        outcome = self.state.requests[request.key]
        if outcome.binding != request.binding:
            raise IdempotencyConflict(request.key, outcome)
        raise Repeated(request.key, outcome)

    async def _submit_locked(
        self, event: Event, source: str, actor: str | None, request: RequestKey | None
    ) -> JournalRecord:
        verdict = authority.judge(event, source, self.state, shoe_installed=self.shoe_installed)
        if verdict.await_floor is not None:
            entry: Entry = IrregularityReported(event.to_json(), verdict.await_floor)
            outcome = await self._append(Step(entry, source, actor), request)
        else:
            # The table's minimum and maximum (the Rules Submission's [limits]): journaled refused.
            refuse = verdict.refuse or self.limit_refusal(event.seat, event.wager, event.amount, event.type)
            step = Step(event, source, actor, refuse, self._link_outbox(event))
            outcome = await self._append(step, request)
        if isinstance(outcome, Refused):
            if verdict.refuse is not None:
                raise authority.NotAuthorized(str(outcome), outcome.record)
            raise outcome
        await self.settle_if_complete()
        return outcome.record

    def _link_outbox(self, event: Event) -> tuple[Outbound, ...] | Callable[[TableState], list[Outbound]]:
        """The link's messages ``event`` causes (the lock-out's contributions, a hit's claim),
        made from the state it is applied to and committed with it: docs/progressive-link.md,
        "Exactly once"."""
        link = self.link
        if link is None:
            return ()
        return lambda state: [] if state.current is None else link.outbox_for(state.current, event)

    async def _append_many(self, steps: list[Step], request: RequestKey | None) -> list[StepOutcome]:
        with self._journal_writes():
            if request is None:
                return await self.journal.append_many(steps)
            return await self.journal.append_many(steps, request=request.key, binding=request.binding)

    async def _append(self, step: Step, request: RequestKey | None) -> StepOutcome:
        (outcome,) = await self._append_many([step], request)
        self._report(outcome)
        return outcome

    def _report(self, outcome: StepOutcome) -> None:
        if isinstance(outcome, Refused):
            self.report_refusal(outcome.record, str(outcome))
        else:
            self.publish_record(outcome.record)

    async def submit_quietly(self, event: Event, source: str, actor: str | None = None) -> None:
        """:meth:`submit`, a refusal only journaled and reported (a device's event)."""
        with contextlib.suppress(Refused):
            await self.submit(event, source, actor)

    def press(self, event: object) -> None:
        """The pins locked on the lock-out press ``event`` (on the loop, at once): from now on
        nothing is accepted before the lock-out is journaled (§ 639a.2(c)(2))."""
        self.press_pending = event

    async def lock_out_pressed(self, event: object) -> None:
        """The bridge's turn for the press ``event``: journal it, unless something that entered
        the table since has journaled it already."""
        async with self.round_lock:
            if self.press_pending is event:
                await self._journal_pending_press()

    async def _journal_pending_press(self) -> None:
        if self.press_pending is None:
            return
        self.press_pending = None
        with contextlib.suppress(Refused):
            await self._lock_out("gpio", None, None)

    async def no_more_bets(
        self, source: str, actor: str | None, *, request: RequestKey | None = None
    ) -> JournalRecord:
        """The dealer's "no more bets" (API): the pins lock at once, then the lock-out is journaled.

        The pins follow the journal: a request answered before (:class:`Repeated`) or another
        request's key (:class:`IdempotencyConflict`) locks nothing, and a lock-out the journal
        refuses (or fails to write) leaves the pins as the journal says the round is.
        """
        self._check_request(request)  # before the pins: a retry or a reused key locks nothing
        locked_here = self.gpio is not None and self.gpio.lock()  # a chip from here is refused
        try:
            async with self.round_lock:
                self._check_request(request)
                await self._journal_pending_press()
                return await self._lock_out(source, actor, request)
        except BaseException:
            if locked_here:
                self._pins_follow_journal()
            raise

    def _pins_follow_journal(self) -> None:
        """Open the pins this request locked if the journal has wagering open: the lock-out was not
        committed (refused, a repeated or conflicting key), so the round still takes wagers. A
        table whose journal failed stays locked (:meth:`_journal_writes`), and so does one whose
        lock-out press waits to be journaled."""
        current = self.state.current
        if (
            self.gpio is not None
            and self.healthy
            and self.press_pending is None
            and not self.state.locked_out
            and (current is None or not current.no_more_bets)
        ):
            self.gpio.unlock()

    async def _lock_out(self, source: str, actor: str | None, request: RequestKey | None) -> JournalRecord:
        """The lock-out in ONE transaction: a ``wager`` for each device the sensors counted (the
        progressive it counts: Blackjack's three each on its own), ``lock_out``, then
        ``no_more_bets`` (a crash keeps all or none).

        § 639a.2(c)(2): from here the sensors recognize nothing; § 639a.8(b): the dealer counts the
        chips against the wagers the system accepted, which are these.
        """
        steps: list[Step] = []
        current = self.state.current
        if self.gpio is not None:
            self.gpio.lock()
            if current is not None and not current.no_more_bets:
                # The devices as they were at the lock-out's edge: a contact moving then is
                # counted once still (docs/gpio.md, "The lock-out's edge").
                await self.gpio.lock_out_counted()
                devices = self.gpio.accepted_devices
                if self.gpio.progressive_unavailable:
                    # The chips on the devices while the progressive is unavailable: journaled
                    # as the wagers they would be, which the journal's state refuses, naming why
                    # (N.J.A.C. 13:69E-1.39B), so the trail shows each device's chip once.
                    devices = self.gpio.present_devices
                wagers = [game_hooks.sensed_wager(self.submission, s, d) for s, d in devices]
                steps = [Step(w, "gpio", outbox=self._link_outbox(w)) for w in wagers]
        if current is not None and not current.no_more_bets and not self.state.locked_out:
            steps.append(Step(LockOut(f"no more bets ({source})"), source, actor))
        nmb = Event("no_more_bets")
        verdict = authority.judge(nmb, source, self.state, shoe_installed=self.shoe_installed)
        # The contributions ride on ``no_more_bets``: made from the round as the steps before it
        # leave it, so they count the wagers the sensors added in this transaction (§ 639a.12(d)(2)).
        steps.append(Step(nmb, source, actor, verdict.refuse, self._link_outbox(nmb)))
        outcomes = await self._append_many(steps, request)
        for outcome in outcomes:
            self._report(outcome)
        last = outcomes[-1]
        if isinstance(last, Refused):
            if steps[-1].refuse is not None:
                raise authority.NotAuthorized(str(last), last.record)
            raise last
        assert isinstance(last, Appended)
        await self.settle_if_complete()
        return last.record

    # --- publishing ------------------------------------------------------------------------------

    def report_refusal(self, record: JournalRecord, reason: str) -> None:
        self.refusals.add(reason)
        log.warning("refused (seq %d, from %s): %s", record.seq, record.source, reason)
        self.publish_record(record)

    def publish_link(self, link: Mapping[str, object]) -> None:
        """The progressive link's status on the API's ``link`` topic (a new meter amount, the
        connection, an award: docs/local-api.md)."""
        self._publish("link", dict(link))

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
        if (
            record.kind in _LAMP_KINDS
            or record.body.get("type") == "no_more_bets"
            or record.body.get("device") == PROGRESSIVE_LINK
        ):
            self.show_lamps()

    def show_lamps(self) -> None:
        """Show on the pins what :mod:`.lamps` says of the journaled state: the payout lamps, and
        the wager lamps' "progressive unavailable"."""
        gpio = self.gpio
        if gpio is None:
            return
        lamps = payout_lamps(self.state, gpio.seats)
        for seat, lamp in lamps.won.items():
            gpio.set_won_lamp(seat, lamp)
        gpio.set_floorperson_light(lamps.floorperson_light)
        gpio.set_progressive_unavailable(progressive_unavailable(self.state) is not None)
