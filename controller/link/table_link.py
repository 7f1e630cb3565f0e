"""The link as a part of the daemon: the publisher's task and the watch over the meter's word.

The table fails closed (G2S: disabled until the host is heard; N.J.A.C. 13:69E-1.39B): at each
start, before a sensor is read, :meth:`TableLink.close_until_heard` journals the link down
("meter not heard"), and it is journaled up only once the meter's ack carries an accepted verdict
on this run's declaration. The watch journals the link's losses and returns (``device_offline`` /
``device_online`` of :data:`~controller.journal.state.PROGRESSIVE_LINK`) twice a second at most,
and a new ``device_offline`` whenever the reason changes (not heard, a refused declaration with
the meter's reason, the meter offline, no word for the timeout: 30 s by default,
``[progressive_link] timeout_seconds``). While it is journaled offline the fold refuses
progressive wagers, the base game goes on, and wagering resumes by itself when the meter accepts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping
from fractions import Fraction
from typing import Final

from wire import Award, Contribution, Paid, Void
from wire.errors import clip
from wire.fields import money

from ..config import ProgressiveLinkSection
from ..journal import JournalError, Step
from ..journal.outbox import Outbound, OutboxEntry
from ..journal.records import DeviceOffline, DeviceOnline, HardwareFact
from ..journal.state import PROGRESSIVE_LINK, DeviceStatus, OpenRound
from ..rules.core.events import Event
from ..table import game_hooks
from ..table.authority import FLOOR, voids_wagers
from ..table.service import TableService
from .hits import claims_after, meter_events, waits_for_meter
from .outbound import LinkPlan, to_meter
from .publisher import LinkPublisher
from .witness import WITNESS_MISMATCH, judge

log = logging.getLogger(__name__)

#: How often the watch compares the meter's last word with the timeout.
WATCH_SECONDS: Final = 0.5
#: The longest of the meter's words on a refused contribution kept in the reason (status, journal).
REFUSAL_WORDS: Final = 300
#: The fact journaled when the meter acknowledges the table's ``paid`` or ``void`` (its ``closed``).
AWARD_CLOSED: Final = "award_closed"
#: A claim's states the floorperson settles (the meter refused it, or gave no award in time).
EXCEPTIONS: Final = ("REFUSED", "TIMED OUT")


class ClaimRefused(ValueError):
    """A floorperson's settlement of a claim the table cannot take now (the words say why)."""


class TableLink:
    """The progressive link of one table: its plan, its publisher, its watch.

    Made by the table service it serves, when the service is built (``TableService(link=...)``):
    the service asks it as its :class:`~controller.table.service.LinkHooks`."""

    def __init__(self, link: ProgressiveLinkSection, service: TableService, plan: LinkPlan) -> None:
        self.link = link
        self.service = service
        self.plan = plan
        journal = service.journal
        self.publisher = LinkPublisher(link, journal.table_id, journal, on_change=self._changed)
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._wake = asyncio.Event()
        #: The oldest message the meter has not acknowledged (refreshed by the watch).
        self._oldest: OutboxEntry | None = None
        #: The hit claims of the round waiting for the meter (loaded from the journal's outbox).
        self._claims: dict[str, list[OutboxEntry]] = {}
        #: The seqs of the meter's refusals already looked up in the outbox (:meth:`check_refusals`).
        self._refusals_judged: set[int] = set()
        #: The link as last published on the API's ``link`` topic (:meth:`_shown`).
        self._last_shown: tuple[object, ...] = ()
        #: The hits whose ``closed`` (the meter's acknowledgement) is journaled (this run's, and the
        #: last ones' found at the start).
        self._journaled_closed: set[int] = set()
        #: Held by :meth:`check` (one at a time).
        self._checking = asyncio.Lock()
        #: The watch's last failure in words (logged once per cause), ``None`` once it runs clean.
        self._watch_fault: str | None = None

    # -- what the table service asks (LinkHooks) --

    @property
    def linked(self) -> frozenset[str]:
        return frozenset(self.plan.meter_ids)

    def outbox_for(self, current: OpenRound, event: Event) -> list[Outbound]:
        if event.type == "no_more_bets":
            return self.plan.contributions(current)
        if event.type == "irregularity":
            return self._voids(current, event)
        return claims_after(current, event, self.plan.meter_ids)

    def _voids(self, current: OpenRound, event: Event) -> list[Outbound]:
        """A round with claims voided (a floorperson's irregularity, § 639a.13): each claim's
        ``void`` to the meter, committed with it (an award returns to the meter, its lock ends)."""
        claims = self._claims.get(current.round_id, [])
        if not claims or not voids_wagers(current, event):
            return []
        why = f"the round is void: {event.kind}" + (f" ({event.detail})" if event.detail else "")
        return [to_meter(Void(str(c.payload["progressive"]), c.seq, why[:200])) for c in claims]

    async def paid_for(
        self, round_id: str, seat: int, wager: str, award: Mapping[str, object] | None
    ) -> list[Outbound]:
        """The ``paid`` of the seat's claim, once a floorperson verified the hand pay of its award."""
        meter_id = self.plan.meter_ids.get(wager)
        if meter_id is None or award is None or award.get("paid") is None:
            return []
        claim = await self._claim_of(round_id, seat, meter_id)
        if claim is None:
            return []
        return [to_meter(Paid(meter_id, claim.seq, money(award["paid"], "paid")))]

    async def _claim_of(self, round_id: str, seat: int, meter_id: str) -> OutboxEntry | None:
        claims = await self.service.journal.outbox_of_round(round_id, "hit")
        return next(
            (c for c in claims if c.payload.get("seat") == seat and c.payload.get("progressive") == meter_id),
            None,
        )

    async def hand_pay(self, seat: int, wager: str, verified: int, reason: str, actor: str | None) -> None:
        """A floorperson settles a claim the meter refused or did not award in time: the seat is
        paid its share of the meter the floorperson ``verified``, journaled with ``reason``
        (source ``floor``), and the table's ``paid`` goes to the meter in the same transaction.
        :class:`ClaimRefused` if no such claim waits (the words say why)."""
        current = self.service.state.current
        meter_id = self.plan.meter_ids.get(wager)
        if meter_id is None:
            raise ClaimRefused(
                f"{wager!r} is not a linked progressive (linked: {', '.join(self.plan.meter_ids)})"
            )
        if current is None or not waits_for_meter(current):
            raise ClaimRefused("no round waits for the meter: no claim to settle")
        shown = {(p["progressive"], p["seat"]): p for p in self.pending()}
        claim = shown.get((meter_id, seat))
        if claim is None or claim["status"] not in EXCEPTIONS:
            words = "no claim" if claim is None else f"its claim is {claim['status']}"
            raise ClaimRefused(
                f"seat {seat} {wager}: {words}; a floorperson settles only a claim the meter refused or "
                "did not award within its award timeout"
            )
        waiting = [f"seat {p['seat']}" for p in shown.values() if p["status"] == "PENDING"]
        if waiting:
            raise ClaimRefused(f"{', '.join(waiting)}: a claim of this round still waits for its award")
        awards = self.publisher.state.awards
        got = {
            (str(c.payload["progressive"]), int(c.payload["seat"])): awards[c.seq]
            for c in self._claims.get(current.round_id, [])
            if c.seq in awards
        }
        state = self.publisher.state
        amounts = {
            mid: state.amounts[mid].amount if mid in state.amounts else params.reset
            for mid, params in self.plan.parameters.items()
        }
        events = meter_events(
            current, self.plan.meter_ids, got, amounts, {(meter_id, seat): (verified, reason)}
        )
        if events is None:
            raise ClaimRefused("another claim of this round is neither awarded nor the floorperson's")
        terms = claim["award"]
        assert isinstance(terms, Mapping)
        share = Fraction(str(terms["share"])) if "share" in terms else None
        paid = verified * share // 100 if share is not None else money(terms["fixed"], "fixed")
        mine = to_meter(Paid(meter_id, int(str(claim["seq"])), int(paid), by_floorperson=True))
        steps = [
            Step(e, FLOOR, actor, outbox=(mine,) if (e.seat, e.name) == (seat, wager) else ()) for e in events
        ]
        await self.service.complete_by_floor(current.round_id, steps)

    def meter_events(self, current: OpenRound) -> list[Event] | None:
        if not waits_for_meter(current):
            return []
        state = self.publisher.state
        amounts = {
            meter_id: state.amounts[meter_id].amount if meter_id in state.amounts else params.reset
            for meter_id, params in self.plan.parameters.items()
        }
        return meter_events(current, self.plan.meter_ids, self.awards_of(current.round_id), amounts)

    def awards_of(self, round_id: str) -> dict[tuple[str, int], Award] | None:
        """The award of each of the round's claims by (meter id, seat); ``None`` while one is
        pending (or the claims are not yet loaded)."""
        claims = self._claims.get(round_id)
        if claims is None:
            return None
        awards = self.publisher.state.awards
        if any(c.seq not in awards for c in claims):
            return None
        return {(awards[c.seq].progressive, int(c.payload["seat"])): awards[c.seq] for c in claims}

    def pending(self) -> list[dict[str, object]]:
        """The current round's hits claimed and not yet awarded: PENDING at the table, REFUSED with
        the meter's field and reason (the meter judged the claim: docs/progressive-link.md), or
        TIMED OUT (no award within the meter's award timeout of the hit): the last two wait for a
        floorperson (:meth:`hand_pay`, or a void of the round)."""
        current = self.service.state.current
        if current is None:
            return []
        state = self.publisher.state
        awards, refusals = state.awards, state.refusals
        now, timeout = time.time_ns(), state.award_timeout
        out: list[dict[str, object]] = []
        for c in self._claims.get(current.round_id, []):
            if c.seq in awards:
                continue
            refusal = refusals.get(c.seq)
            shown: dict[str, object] = {**dict(c.payload), "seq": c.seq}
            hit_ns = c.payload.get("hit_wall_ns")
            if refusal is not None:
                shown |= {"status": "REFUSED", "field": refusal.field, "reason": refusal.reason}
            elif isinstance(hit_ns, int) and now - hit_ns >= timeout * 1_000_000_000:
                why = (
                    f"no award from the meter within {timeout} s of the hit (the meter's award timeout): "
                    "a floorperson settles the claim (a hand pay of the verified meter, or a void)"
                )
                shown |= {"status": "TIMED OUT", "field": None, "reason": why}
            else:
                shown["status"] = "PENDING"
            out.append(shown)
        return out

    @classmethod
    def plan_of(cls, link: ProgressiveLinkSection, service: TableService) -> LinkPlan:
        return LinkPlan.of(game_hooks.progressives(service.submission), link)

    def start(self) -> None:
        """The publisher and the watch run."""
        self._tasks = [
            asyncio.create_task(self.publisher.run(self._stop), name="link-publisher"),
            asyncio.create_task(self._watch(), name="link-watch"),
        ]

    async def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        tasks, self._tasks = self._tasks, []
        await asyncio.gather(*tasks, return_exceptions=True)

    def _changed(self) -> None:
        self._wake.set()
        shown = self._shown()
        if shown != self._last_shown:
            # The API's ``link`` topic: the new meter on the table's screen as the meter's word
            # comes, without waiting for the next journal record or a poll of ``status``.
            self._last_shown = shown
            self.service.publish_link(self.to_json())

    def _shown(self) -> tuple[object, ...]:
        """What the table shows of the link (not the heartbeats and acks that change nothing)."""
        s = self.publisher.state
        amounts = tuple(sorted((k, a.amount, a.record_seq) for k, a in s.amounts.items()))
        shown = (s.connected, s.meter_online, amounts, len(s.awards), len(s.refusals), s.unavailable())
        claims = tuple((p["seq"], p["status"]) for p in self.pending())
        return (*shown, s.witness_refusal, claims, len(s.closed))

    async def _watch(self) -> None:
        await self._ask_closes_again()
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(WATCH_SECONDS):
                    await self._wake.wait()
            self._wake.clear()
            failed: str | None = None
            try:
                await self.check()
                await self.complete_round()
                await self.refresh_queue()
                await self.journal_closed()
                if self._shown() != self._last_shown:
                    self._changed()  # a claim timed out: the status and the screen show it
            except JournalError as exc:
                if not self.service.healthy:
                    return  # a write failed: the service has locked the table, the watchdog stops
                failed = self._watch_failed(exc)  # a read failed (a row changed on disk): go on
            except Exception as exc:
                failed = self._watch_failed(exc)
            self._watch_fault = failed

    def _watch_failed(self, exc: Exception) -> str:
        """Log a failure of the watch once per cause (it runs twice a second); its words."""
        words = f"{type(exc).__name__}: {exc}"
        if words != self._watch_fault:
            log.error("progressive link: the watch failed: %s", words, exc_info=exc)
        return words

    async def close_until_heard(self, declared_seq: int) -> None:
        """At the start, before the sensors are read: progressive wagering closed until the meter
        accepts the declaration journaled at ``declared_seq`` (whatever the journal said before)."""
        self.publisher.state.declared_seq = declared_seq
        await self.check()

    async def check(self) -> None:
        """Journal a loss or a return of the link, if the meter's word says one happened; first,
        at each new ack, whether the journal is behind or beside the meter's witness.

        One check at a time (the watch's and the start's may come together): a second one would
        find the ack being judged, not yet refused, and open progressive wagering meanwhile. And
        it opens only once every ack heard is judged: one that came while the last was judged
        (the meter's ack of the first message after a RAM clear, behind its retained one) is
        judged too, and so is a retained ack that a newer one followed before any check ran."""
        async with self._checking:
            link = self.publisher.state
            while True:
                await self.check_witness()
                await self.check_refusals()
                if not link.unjudged or link.witness_refusal is not None:
                    break
            state = self.service.state
            reason = link.unavailable()
            journaled = state.devices.get(PROGRESSIVE_LINK)
            if reason is not None and (journaled is None or journaled.online or journaled.detail != reason):
                log.warning("progressive link unavailable: %s; progressive wagers are not recognized", reason)
                await self.service.journal_entry(DeviceOffline(PROGRESSIVE_LINK, reason), "link", None)
            elif reason is None and link.last_word is not None and not _online(journaled):
                log.info("progressive link available: progressive wagers are recognized again")
                back = DeviceOnline(PROGRESSIVE_LINK, "the meter accepted the table's declaration")
                await self.service.journal_entry(back, "link", None)

    async def check_witness(self) -> None:
        """Compare the journal with the meter's ack (its witness): behind or beside closes
        progressive wagering and journals the evidence once (``witness.py``)."""
        state = self.publisher.state
        if state.witness_refusal is not None:
            state.unjudged.clear()  # closed for this run already: nothing more to judge
            return
        found = None
        while found is None and state.unjudged:
            # Every ack heard, in order (LinkState.unjudged); taken off only once judged.
            found = await judge(self.service.journal, state.unjudged[0])
            del state.unjudged[0]
        if found is None:
            return
        why, evidence = found
        state.witness_refusal = why
        log.error("progressive link: %s", why)
        fact = HardwareFact("journal", WITNESS_MISMATCH, {**evidence, "why": why})
        await self.service.journal_entry(fact, "link", None)
        self._changed()

    async def check_refusals(self) -> None:
        """A contribution the meter refused closes progressive wagering for this run: it is a wager
        the table took that the meter never counted, and the next would be refused alike (a table
        and a meter whose Rules Submissions disagree, a row changed on disk). The refusal's words
        and seq are journaled with the loss (``device_offline``) by :meth:`check`. A refused claim,
        ``paid`` or ``void`` is the floorperson's to settle (``hits.py``), not this."""
        state = self.publisher.state
        if state.contribution_refusal is not None or len(self._refusals_judged) == len(state.refusals):
            return
        for seq in sorted(state.refusals.keys() - self._refusals_judged):
            # The refusal names a seq only: the journal's outbox says what was sent under it.
            entries = await self.service.journal.outbox_after(seq - 1, 1)
            self._refusals_judged.add(seq)
            if not entries or entries[0].seq != seq or entries[0].kind != Contribution.kind:
                continue
            refusal = state.refusals[seq]
            said = clip(f"{refusal.field}: {refusal.reason}", REFUSAL_WORDS)
            state.contribution_refusal = (
                f"the meter refused the table's contribution (outbox seq {seq}, {said}): a progressive "
                "wager it would not count; closed until the daemon starts again with a Rules "
                "Submission the meter accepts"
            )
            log.error("progressive link: %s", state.contribution_refusal)
            self._changed()
            return

    async def _ask_closes_again(self) -> None:
        """At the start: the ``paid`` and ``void`` messages whose ``closed`` is not journaled (a
        power cut between the meter's answer and its record, or an answer sent while the table was
        down) are sent again until it comes, so it is journaled once; those journaled are not again."""
        try:
            unanswered, answered = await self.service.journal.closes_unanswered(AWARD_CLOSED)
        except JournalError:
            return
        self._journaled_closed |= answered
        self.publisher.remember_closes(unanswered)
        if unanswered:
            log.info("progressive link: %d paid or void sent again for the meter's closed", len(unanswered))

    async def journal_closed(self) -> None:
        """The meter's acknowledgement of a ``paid`` or ``void`` (the handshake's last step),
        journaled once: a ``hardware_fact`` of the link, ``award_closed``, with the reply whole."""
        for hit_seq, closed in sorted(self.publisher.state.closed.items()):
            if hit_seq in self._journaled_closed:
                continue
            self._journaled_closed.add(hit_seq)
            fact = HardwareFact(PROGRESSIVE_LINK, AWARD_CLOSED, closed.to_json())
            await self.service.journal_entry(fact, "link", None)

    async def refresh_queue(self) -> None:
        """The queue's depth and its oldest message, from the journal's outbox."""
        journal = self.service.journal
        publisher = self.publisher
        publisher.last_outbox_seq = max(publisher.last_outbox_seq, await journal.last_outbox_seq())
        oldest = await journal.outbox_after(publisher.state.applied_seq, 1)
        self._oldest = oldest[0] if oldest else None

    async def complete_round(self) -> None:
        """A round waiting for the meter: load its claims (sent again until awarded), and settle
        it once every claim's award has come."""
        current = self.service.state.current
        if current is None or not waits_for_meter(current):
            return
        claims = await self.service.journal.outbox_of_round(current.round_id, "hit")
        self._claims = {current.round_id: claims}
        self.publisher.remember_hits(claims)
        if self.meter_events(current) is not None:
            await self.service.complete_from_link()

    def to_json(self) -> dict[str, object]:
        """The link for the API's status and ``tablectl link``."""
        out = self.publisher.state.to_json(self.publisher.queue_depth())
        out["configured"] = True
        out["enabled"] = self.link.enabled
        out["host"] = self.link.host
        out["port"] = self.link.port
        out["progressives"] = dict(self.plan.meter_ids)
        out["journaled_down"] = self.service.state.progressive_link_down
        out["pending"] = self.pending()
        old = self._oldest
        if old is not None and old.seq > self.publisher.state.applied_seq:
            out["oldest_unacknowledged"] = {"seq": old.seq, "kind": old.kind, "round": old.round_id}
        return out


def _online(status: DeviceStatus | None) -> bool:
    return status is not None and status.online
