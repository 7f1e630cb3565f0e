"""The table's state: the fold of the journal.

Everything that happens at the table is a journal record (:class:`JournalRecord`); the
state of the table is what those records add up to (design: "events in, state out").
:meth:`TableState.apply` is one step of that fold and :meth:`TableState.fold` the whole of
it. The daemon never changes the state any other way: to accept something it first builds
the record (:meth:`TableState.prepare`), folds it, journals it, and only then uses the new
state. So the state after a restart (the journal folded again) is the state before the
power cut, by construction, and a round recalled from the journal replays through the same
code that accepted it.

What the state holds:

- the **current round**: the game, the Rules Submission options and the meters it began
  with (a ``round_begin`` record), and the rules core's :class:`~controller.rules.core.engine.Round`
  fed every ``event`` record accepted since; it ends with a ``round_settled`` record (the
  settlement, as the engine computes it) or, while no wager has been accepted, a
  ``round_cancelled`` record;
- the **last rounds** (:data:`RECENT_ROUNDS` of them) with their settlements;
- the **table's facts**: the lock-out, each device online or offline, the configuration
  last loaded. Each is the *latest* record of its kind, never a count, so the state can be
  recovered from the last rounds and the latest facts without folding years of records
  (docs/journal.md, "Recovery").

Records that change nothing but the sequence number: ``refused`` (something the rules
refused, kept for the audit trail), ``command`` (a local API command and its actor) and
``started`` (the daemon started; it names the boot, which gives meaning to the monotonic
times that follow).

This module is pure: no I/O, no clock, no randomness (the journal supplies the sequence
number, the times and the event id of each record).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from controller.rules.core.dispatch import Handlers, did_you_mean

from ..rules.core.engine import Game, IllegalEvent, Round
from ..rules.core.events import Event, EventError, parse_event
from ..rules.core.money import Cents, MoneyError, format_money, parse_money
from ..rules.core.options import RulesError, load_rules, rules_to_mapping
from ..rules.core.settlement import Settlement
from ..rules.games import GAMES
from .records import (
    COMMAND,
    CONFIG_LOADED,
    DEVICE_KINDS,
    DEVICE_ONLINE,
    DEVICE_SERVICE,
    HARDWARE_FACT,
    IRREGULARITY_DISMISSED,
    IRREGULARITY_REPORTED,
    KINDS,
    LOCK_KINDS,
    LOCK_OUT,
    PAYOUT_VERIFIED,
    PERSON_SOURCES,
    RAM_CLEAR,
    REFUSED,
    REQUEST,
    ROUND_BEGIN,
    ROUND_CANCELLED,
    ROUND_EVENT,
    ROUND_SETTLED,
    STARTED,
    VERIFICATION_FLAGS,
    WAGER_CHANGED,
    BeginRound,
    Entry,
    FoldError,
    JournalRecord,
    RecordMeta,
    SettleRound,
    TableRefusal,
    entry_body,
    normalized_body,
)
from .rounds import PendingPayout, RoundSummary, flags_of, meter_awards, settlement_lines

RECENT_ROUNDS: Final = 10
"""How many closed rounds the state keeps (the dealer's and the tech's "last rounds")."""

MAX_REQUESTS: Final = 10_000
"""How many idempotency keys the state remembers (the newest); a retry comes within seconds."""


# --- the state ---------------------------------------------------------------------------------


_ROUND_NUMBER: Final = re.compile(r"-(\d+)$")


@dataclass(frozen=True)
class OpenRound:
    """The round being dealt: the rules core's round, fed every accepted event."""

    round_id: str
    begin_seq: int
    begin_wall_ns: int
    rules_options: Mapping[str, object]
    """The Rules Submission options as journaled (file form): the record's ``rules``."""
    meters: Mapping[str, Cents]
    """The meters the round began with."""
    round: Round[Any, Any]

    @property
    def game(self) -> str:
        return self.round.game.name

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self.round.events)

    @property
    def no_more_bets(self) -> bool:
        """The dealer (or the lock-out) has called "no more bets" in this round (§ 639a.7(c))."""
        return any(e.type == "no_more_bets" for e in self.round.events)

    def wagers(self) -> list[Event]:
        """The accepted events that put money in play."""
        return [e for e in self.round.events if e.amount is not None and e.type != "meter"]

    def settlement(self) -> Settlement:
        """The settlement if the round is complete, else :class:`IllegalEvent` saying what is missing."""
        return self.round.settle()


#: The device name under which the progressive link's losses and returns are journaled
#: (``device_offline`` / ``device_online``): while it is offline, progressive wagers are refused.
PROGRESSIVE_LINK: Final = "progressive_link"


@dataclass(frozen=True)
class DeviceStatus:
    online: bool
    detail: str
    seq: int


@dataclass(frozen=True)
class ConfigStatus:
    path: str
    sha256: str
    seq: int


@dataclass(frozen=True)
class RequestOutcome:
    """What a client's request (by its idempotency key) was answered: its records and whether
    it was accepted."""

    seqs: tuple[int, ...]
    accepted: bool
    reason: str
    round_id: str | None
    """The round it was made in: a request is remembered while its round is among the last."""
    binding: str = ""
    """The SHA-256 of the request's command and body (``records.request_binding``); empty for a
    key journaled before keys were bound (it then matches no request)."""


@dataclass(frozen=True)
class AwaitingFloor:
    """An irregularity that waits for a floorperson's confirmation (the round waits too)."""

    event: Mapping[str, Any]
    why: str
    seq: int
    reporter: str


#: The step of the fold for each kind of record, each registered once where it is written
#: (:class:`~controller.rules.core.dispatch.Handlers`): a new kind of record is a new step.
FOLD: Final[Handlers[str, Callable[[TableState, JournalRecord], TableState]]] = Handlers("the journal")


@dataclass(frozen=True)
class TableState:
    """The fold of the journal so far. Immutable: each step gives a new state."""

    table_id: str
    last_seq: int = 0
    current: OpenRound | None = None
    recent: tuple[RoundSummary, ...] = ()
    """The last :data:`RECENT_ROUNDS` closed rounds, oldest first."""
    locked_out: bool = False
    lock_reason: str = ""
    devices: Mapping[str, DeviceStatus] = field(default_factory=dict)
    config: ConfigStatus | None = None
    verified: frozenset[tuple[str, int, str]] = frozenset()
    """(round, seat, wager) of the flagged payouts of :attr:`recent` a floorperson has verified."""
    out_of_order: Mapping[str, str] = field(default_factory=dict)
    """Devices a floorperson declared out of order (§ 639a.13(g)): device -> who, and why."""
    stack_to_key: tuple[str, int] | None = None
    """(position, cards) of the shoe's last incomplete stack: that stack may be keyed by hand."""
    awaiting_floor: AwaitingFloor | None = None
    """The irregularity the round waits on a floorperson to confirm or dismiss."""
    requests: Mapping[str, RequestOutcome] = field(default_factory=dict)
    """The clients' idempotency keys (of the current and the last rounds, at most
    :data:`MAX_REQUESTS`) and what each was answered."""
    carried_meters: Mapping[str, Cents] = field(default_factory=dict)
    """The meters a RAM clear carried over from the archived journal (its ``ram_clear`` record)."""
    round_number: int = 0
    """The number of the last round begun (its id's ``<table>-<n>``): the next round is number
    ``n + 1``, so rounds are numbered one by one as they are played (surveillance and the floor
    call a round by its number). From the id itself, so recovery's fold of the last rounds gives
    the full replay's; a journal whose ids were ``<table>-<seq>`` goes on after its highest."""
    next_round: tuple[Event, ...] = ()
    """What the last closed round carries to the next one (the game's ``next_round``: the poker
    room's button and kill, § 637a.19(c)(2)); the table begins the next round with them."""

    def pending_payouts(self) -> tuple[PendingPayout, ...]:
        """The flagged payouts of the last rounds no floorperson has verified yet, oldest first.

        A round older than the last :data:`RECENT_ROUNDS` is no longer waited for here; its
        record keeps the flags (``tablectl recall``)."""
        out: list[PendingPayout] = []
        for summary in self.recent:
            for seat, wager, line in settlement_lines(summary):
                flags = tuple(f for f in flags_of(line) if f in VERIFICATION_FLAGS)
                if flags and (summary.round_id, seat, wager) not in self.verified:
                    net, award = str(line.get("net", "")), summary.awards.get((seat, wager))
                    out.append(PendingPayout(summary.round_id, seat, wager, net, flags, award))
        return tuple(out)

    # -- the fold ---------------------------------------------------------------------------

    @classmethod
    def fold(cls, table_id: str, records: Iterable[JournalRecord]) -> TableState:
        """The state after ``records`` (a whole journal, or the records recovery selects).

        A record that cannot be folded is a :class:`FoldError` naming its seq: the journal
        does not hold what was accepted (a damaged file, or software that settles differently).
        """
        state = cls(table_id)
        for record in records:
            try:
                state = state.apply(record)
            except IllegalEvent as exc:
                raise FoldError(
                    f"seq {record.seq} ({record.kind}): accepted, but now refused: {exc}"
                ) from None
        return state

    def apply(self, record: JournalRecord) -> TableState:
        """The state after ``record``: :class:`IllegalEvent` if the rules refuse it,
        :class:`FoldError` if it cannot be read."""
        kind, body, seq = record.kind, record.body, record.seq
        if not isinstance(body, Mapping):
            raise FoldError(f"seq {seq}: the body of a record is a JSON object, not {body!r}")
        handler = FOLD.get(kind)
        if handler is None:
            hint = did_you_mean(str(kind), KINDS)
            raise FoldError(f"seq {seq}: unknown kind of record {kind!r}{hint}")
        return handler(dataclasses.replace(self, last_seq=seq), record)

    # --- the step of each kind of record, registered once in FOLD -----------------------------

    @FOLD.register(*LOCK_KINDS)
    def _apply_lock(self, record: JournalRecord) -> TableState:
        return dataclasses.replace(
            self, locked_out=record.kind == LOCK_OUT, lock_reason=_text(record, "reason")
        )

    @FOLD.register(*DEVICE_KINDS)
    def _apply_device(self, record: JournalRecord) -> TableState:
        device = _text(record, "device")
        status = DeviceStatus(record.kind == DEVICE_ONLINE, _text(record, "detail", empty=True), record.seq)
        return dataclasses.replace(self, devices={**self.devices, device: status})

    @FOLD.register(CONFIG_LOADED)
    def _apply_config(self, record: JournalRecord) -> TableState:
        config = ConfigStatus(_text(record, "path"), _text(record, "sha256"), record.seq)
        return dataclasses.replace(self, config=config)

    @FOLD.register(IRREGULARITY_DISMISSED)
    def _apply_dismissed(self, record: JournalRecord) -> TableState:
        self._open_round(record)
        if self.awaiting_floor is None:
            raise TableRefusal("no reported irregularity waits for a floorperson")
        _text(record, "reason")
        return dataclasses.replace(self, awaiting_floor=None)

    @FOLD.register(RAM_CLEAR)
    def _apply_ram_clear(self, record: JournalRecord) -> TableState:
        if record.seq != 1:
            raise TableRefusal("a RAM clear is the first record of a new journal (tablectl journal new)")
        return dataclasses.replace(self, carried_meters=_meters(record.body.get("meters", {}), record.seq))

    @FOLD.register(REFUSED, COMMAND, STARTED)
    def _apply_nothing(self, record: JournalRecord) -> TableState:
        """A refusal, a command and a start are kept for the record; they change no state."""
        return self

    @FOLD.register(HARDWARE_FACT)
    def _apply_hardware_fact(self, record: JournalRecord) -> TableState:
        _text(record, "device")
        detail = record.body.get("detail", {})
        if _text(record, "fact") != "incomplete_stack" or not isinstance(detail, Mapping):
            return self
        position, count = detail.get("position"), detail.get("count")
        if not isinstance(position, str) or isinstance(count, bool) or not isinstance(count, int):
            raise FoldError(f"seq {record.seq}: an incomplete_stack names its position and count")
        return dataclasses.replace(self, stack_to_key=(position, count))

    @FOLD.register(DEVICE_SERVICE)
    def _apply_device_service(self, record: JournalRecord) -> TableState:
        device, reason = _text(record, "device"), _text(record, "reason")
        in_service = record.body.get("in_service")
        if not isinstance(in_service, bool):
            raise FoldError(f"seq {record.seq}: a device_service record says in_service true or false")
        out = dict(self.out_of_order)
        if in_service:
            # Recovery folds only the latest of these per device: the declaration before it
            # may not be folded, so this is not refused here (the table service checks it).
            out.pop(device, None)
        else:
            if device in out:
                raise TableRefusal(f"the {device} is already declared out of order ({out[device]})")
            out[device] = f"by {record.actor or record.source}: {reason}"
        return dataclasses.replace(self, out_of_order=out)

    @FOLD.register(IRREGULARITY_REPORTED)
    def _apply_reported(self, record: JournalRecord) -> TableState:
        self._open_round(record)
        if self.awaiting_floor is not None:
            raise TableRefusal(
                f"the round already waits for a floorperson on {self.awaiting_floor.event.get('kind')}"
            )
        event = record.body.get("event")
        if not isinstance(event, Mapping) or event.get("type") != "irregularity":
            raise FoldError(f"seq {record.seq}: an irregularity_reported record holds an irregularity event")
        waiting = AwaitingFloor(dict(event), _text(record, "why"), record.seq, record.actor or record.source)
        return dataclasses.replace(self, awaiting_floor=waiting)

    @FOLD.register(REQUEST)
    def _apply_request(self, record: JournalRecord) -> TableState:
        key, seqs, accepted = _text(record, "key"), record.body.get("seqs"), record.body.get("accepted")
        if (
            not isinstance(seqs, list)
            or not seqs
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in seqs)
            or not isinstance(accepted, bool)
        ):
            raise FoldError(f"seq {record.seq}: a request record names its seqs and whether it was accepted")
        if key in self.requests:
            raise TableRefusal(f"request {key!r} was already answered (seq {self.requests[key].seqs[0]})")
        outcome = RequestOutcome(
            tuple(seqs),
            accepted,
            _text(record, "reason", empty=True),
            record.round_id,
            _text(record, "binding", empty=True),
        )
        requests = {**self.requests, key: outcome}
        if len(requests) > MAX_REQUESTS:
            requests = dict(list(requests.items())[-MAX_REQUESTS:])
        return dataclasses.replace(self, requests=requests)

    @property
    def progressive_link_down(self) -> str | None:
        """Why the progressive link is journaled down (its ``device_offline`` detail), or
        ``None``: up, or never journaled (a table without a link)."""
        link = self.devices.get(PROGRESSIVE_LINK)
        if link is None or link.online:
            return None
        return link.detail or "no word from the meter"

    def _open_round(self, record: JournalRecord) -> OpenRound:
        if self.current is None:
            raise TableRefusal("no round is open: a round begins (with its game and rules) before its events")
        if record.round_id != self.current.round_id:
            raise FoldError(
                f"seq {record.seq}: a record of round {record.round_id!r} while round "
                f"{self.current.round_id!r} is open"
            )
        return self.current

    @FOLD.register(ROUND_BEGIN)
    def _apply_begin(self, record: JournalRecord) -> TableState:
        if self.current is not None:
            raise TableRefusal(
                f"round {self.current.round_id} is open: it is settled (or, with no wager, cancelled) "
                "before another begins"
            )
        body, seq = record.body, record.seq
        if not record.round_id:
            raise FoldError(f"seq {seq}: a round_begin names its round")
        if any(r.round_id == record.round_id for r in self.recent):
            raise TableRefusal(f"round {record.round_id} was already dealt")
        game = _game(body.get("game"), seq)
        options = body.get("rules", {})
        if not isinstance(options, Mapping):
            raise FoldError(f"seq {seq}: rules must be an object of the game's options")
        try:
            rules = load_rules(game.rules_class, options, f"seq {seq}: rules", game.rules_checks)
        except RulesError as exc:
            raise FoldError(str(exc)) from None
        meters = _meters(body.get("meters", {}), seq)
        rnd: Round[Any, Any] = Round.begin(game, rules, meters)
        current = OpenRound(record.round_id, seq, record.wall_ns, dict(options), meters, rnd)
        return dataclasses.replace(self, current=current, round_number=_next_number(self, record.round_id))

    @FOLD.register(ROUND_EVENT)
    def _apply_event(self, record: JournalRecord) -> TableState:
        current = self._open_round(record)
        rnd = current.round
        try:
            event = parse_event(record.body, f"seq {record.seq}", rnd.game.decks(rnd.rules), rnd.game.joker)
        except EventError as exc:
            # Cards the deck cannot hold (two aces of spades from one deck) are refused like
            # any event the rules refuse.
            raise IllegalEvent(str(exc)) from None
        down = self.progressive_link_down
        if down is not None and event.type == "wager" and _is_progressive(rnd, event.wager):
            # N.J.A.C. 13:69E-1.39B, G2S noProgInfo: a table that has lost its progressive
            # controller does not recognize progressive wagers; the base game goes on.
            raise TableRefusal(
                f"seat {event.seat} {event.wager}: progressive wagers are not recognized while "
                f"the progressive link is down ({down})"
            )
        state = rnd.game.apply(rnd.state, event)  # IllegalEvent: refused, nothing changed
        # A new Round rather than Round.apply: the state before stays as it was, so a write
        # that fails leaves the table where the journal is.
        after = Round(rnd.game, rnd.rules, state, [*rnd.events, event])
        step = dataclasses.replace(self, current=dataclasses.replace(current, round=after))
        if event.type == "irregularity":
            # Confirmed by a floorperson, or a device's that needed no confirmation.
            step = dataclasses.replace(step, awaiting_floor=None)
        keyed = self.stack_to_key
        by_hand = event.type == "cards" and record.source in PERSON_SOURCES
        if by_hand and keyed is not None and str(event.to) == keyed[0]:
            # § 639a.13(g): the incomplete stack, keyed in by hand; the next one comes from the shoe.
            step = dataclasses.replace(step, stack_to_key=None)
        return step

    @FOLD.register(WAGER_CHANGED)
    def _apply_wager_changed(self, record: JournalRecord) -> TableState:
        """A wager changed or removed before "no more bets" (:class:`~.records.WagerChanged`): the
        round's events replayed with that wager (the seat's last of that name) changed or left
        out; the rules core refuses what it would refuse of the events so (IllegalEvent)."""
        current = self._open_round(record)
        rnd = current.round
        seat, wager, amount = _wager_change(record)
        what = f"seat {seat} {wager}"
        if current.no_more_bets:
            # § 639a.7(c): "a wager may not be made, increased, or withdrawn after the dealer has
            # announced 'no more bets'" (and each chapter's like it).
            raise TableRefusal(f"{what}: a wager is not changed or withdrawn after 'no more bets'")
        if _is_progressive(rnd, wager):
            raise TableRefusal(
                f"{what}: a progressive wager is the sensor's (one chip, one wager), not the screen's"
            )
        placed = [
            i for i, e in enumerate(rnd.events) if e.type == "wager" and e.seat == seat and e.wager == wager
        ]
        if not placed:
            raise TableRefusal(f"{what}: seat {seat} has no {wager} wager to change or remove")
        events = list(rnd.events)
        old = events[placed[-1]]
        if amount is None:
            del events[placed[-1]]
        elif amount == old.amount:
            raise TableRefusal(f"{what}: the wager is already {format_money(amount)}")
        else:
            events[placed[-1]] = dataclasses.replace(old, amount=amount)
        state = Round.begin(rnd.game, rnd.rules, current.meters).state
        for event in events:
            state = rnd.game.apply(state, event)  # IllegalEvent: refused, nothing changed
        after = Round(rnd.game, rnd.rules, state, events)
        return dataclasses.replace(self, current=dataclasses.replace(current, round=after))

    @FOLD.register(ROUND_SETTLED)
    def _apply_settled(self, record: JournalRecord) -> TableState:
        current = self._open_round(record)
        settlement = current.settlement().to_json()
        journaled = record.body.get("settlement")
        if _canonical(journaled) != _canonical(settlement):
            raise FoldError(
                f"seq {record.seq}: the journaled settlement of round {current.round_id} is not "
                "the settlement of its events (a damaged journal, or rules that now settle differently)"
            )
        return self._close(current, record)

    @FOLD.register(ROUND_CANCELLED)
    def _apply_cancelled(self, record: JournalRecord) -> TableState:
        current = self._open_round(record)
        _text(record, "reason")
        wagers = current.wagers()
        if wagers:
            raise TableRefusal(
                f"round {current.round_id} has accepted wagers ({wagers[0]}); it ends in its "
                "settlement (a void comes through the game's irregularity rules)"
            )
        return self._close(current, record)

    @FOLD.register(PAYOUT_VERIFIED)
    def _apply_verified(self, record: JournalRecord) -> TableState:
        round_id = _text(record, "round")
        seat, wager = record.body.get("seat"), _text(record, "wager")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise FoldError(f"seq {record.seq}: a payout_verified record needs a seat number, not {seat!r}")
        key = (round_id, seat, wager)
        if not any(r.round_id == round_id for r in self.recent):
            # Older than the rounds the state keeps: nothing here waits for it (see pending_payouts).
            return self
        if key in self.verified:
            raise TableRefusal(f"round {round_id} seat {seat} {wager}: the payout is already verified")
        if not any((p.round_id, p.seat, p.wager) == key for p in self.pending_payouts()):
            raise TableRefusal(
                f"round {round_id} seat {seat} {wager}: no payout there waits for a floorperson "
                f"({self._pending_words()})"
            )
        return dataclasses.replace(self, verified=self.verified | {key})

    def _pending_words(self) -> str:
        pending = self.pending_payouts()
        if not pending:
            return "none waits now"
        return "waiting: " + ", ".join(f"round {p.round_id} seat {p.seat} {p.wager}" for p in pending)

    def _close(self, current: OpenRound, record: JournalRecord) -> TableState:
        awards = meter_awards(current.round.events)
        summary = RoundSummary.of(
            current.round_id, current.game, current.begin_seq, current.begin_wall_ns, record, awards
        )
        recent = (*self.recent, summary)[-RECENT_ROUNDS:]
        carried = current.round.game.next_round(current.round.state)
        kept = {r.round_id for r in recent}
        verified = frozenset(k for k in self.verified if k[0] in kept)
        # Like the verifications: the requests of the rounds kept, which recovery folds again.
        requests = {k: v for k, v in self.requests.items() if v.round_id in kept}
        return dataclasses.replace(
            self,
            current=None,
            recent=recent,
            verified=verified,
            stack_to_key=None,
            awaiting_floor=None,
            requests=requests,
            next_round=tuple(carried),
        )

    # -- accepting new entries --------------------------------------------------------------

    def prepare(self, entry: Entry, meta: RecordMeta) -> tuple[JournalRecord, TableState]:
        """The record of ``entry`` and the state after it, or :class:`IllegalEvent` if the rules
        refuse it. Malformed input (an unknown game, rules with errors, money that is not
        cents, a body that is not JSON) is a ``ValueError``/``TypeError``: nothing to journal.

        The state after is computed by folding the record itself, the way recovery will.
        """
        if meta.seq != self.last_seq + 1:
            raise ValueError(f"seq {meta.seq} does not follow {self.last_seq}")
        round_id = self.current.round_id if self.current is not None else None
        body: Mapping[str, object]
        if isinstance(entry, Event):
            if self.current is None:
                raise TableRefusal(f"no round is open: {entry} comes after a round begins")
            try:
                body = entry.to_json()
            except (KeyError, AttributeError, TypeError):
                raise ValueError(f"not an event of the rules core: {entry!r}") from None
        elif isinstance(entry, BeginRound):
            body = self._begin_body(entry)
            round_id = entry.round_id or f"{self.table_id}-{self.round_number + 1}"
        elif isinstance(entry, SettleRound):
            if self.current is None:
                raise TableRefusal("no round is open to settle")
            body = {"settlement": self.current.settlement().to_json()}
        else:
            body = entry_body(entry)
        record = JournalRecord(
            meta.seq,
            meta.event_id,
            meta.wall_ns,
            meta.mono_ns,
            meta.source,
            meta.actor,
            round_id,
            entry.kind if not isinstance(entry, Event) else ROUND_EVENT,
            normalized_body(body),
        )
        try:
            return record, self.apply(record)
        except FoldError as exc:
            # The record would not fold back as accepted: refuse to journal it at all.
            raise ValueError(str(exc)) from None

    def refuse(self, entry: Entry, reason: str, meta: RecordMeta) -> tuple[JournalRecord, TableState]:
        """The ``refused`` record of an entry the rules refused (for the audit trail)."""
        if isinstance(entry, Event):
            try:
                what: Mapping[str, object] = {"kind": ROUND_EVENT, "body": entry.to_json()}
            except (KeyError, AttributeError, TypeError):
                what = {"kind": ROUND_EVENT, "body": {"type": entry.type}}
        elif isinstance(entry, SettleRound):
            what = {"kind": ROUND_SETTLED, "body": {}}
        elif isinstance(entry, BeginRound):
            what = {"kind": ROUND_BEGIN, "body": {"game": entry.game, "round": entry.round_id}}
        else:
            what = {"kind": entry.kind, "body": entry_body(entry)}
        round_id = self.current.round_id if self.current is not None else None
        body = normalized_body({"entry": what, "reason": reason})
        record = JournalRecord(
            meta.seq,
            meta.event_id,
            meta.wall_ns,
            meta.mono_ns,
            meta.source,
            meta.actor,
            round_id,
            REFUSED,
            body,
        )
        return record, self.apply(record)

    def _begin_body(self, entry: BeginRound) -> dict[str, object]:
        game = GAMES.get(entry.game)
        if game is None:
            hint = did_you_mean(entry.game, sorted(GAMES), 0.5)
            raise ValueError(f"unknown game {entry.game!r}{hint} (games: {', '.join(sorted(GAMES))})")
        rules = entry.rules
        if isinstance(rules, Mapping):
            rules = load_rules(game.rules_class, rules, "rules", game.rules_checks)  # RulesError: ValueError
        if not isinstance(rules, game.rules_class):
            raise TypeError(
                f"the rules of {game.name} are a {game.rules_class.__name__}, not {type(rules).__name__}"
            )
        options = rules_to_mapping(rules)
        again = load_rules(game.rules_class, normalized_body(options), "rules", game.rules_checks)
        if again != rules:
            raise ValueError(
                f"the rules of {game.name} do not load back from their file form; "
                "the round could not be recovered"
            )
        meters: dict[str, object] = {}
        for name, cents in entry.meters.items():
            if isinstance(cents, bool) or not isinstance(cents, int) or cents < 0:
                raise ValueError(f"meter {name!r}: an amount in cents, not {cents!r}")
            meters[name] = format_money(cents)
        if entry.round_id is not None and (
            not entry.round_id.strip() or entry.round_id != entry.round_id.strip()
        ):
            raise ValueError(f"round id {entry.round_id!r}: a non-empty name without surrounding spaces")
        return {"game": game.name, "rules": options, "meters": meters}


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True)


def _text(record: JournalRecord, key: str, empty: bool = False) -> str:
    value = record.body.get(key, "" if empty else None)
    if not isinstance(value, str) or (not empty and not value):
        raise FoldError(f"seq {record.seq}: a {record.kind} record needs {key} as text, not {value!r}")
    return value


def _game(name: object, seq: int) -> Game[Any, Any]:
    if not isinstance(name, str) or name not in GAMES:
        raise FoldError(f"seq {seq}: game {name!r} is not one of {', '.join(sorted(GAMES))}")
    return GAMES[name]


def _meters(raw: object, seq: int) -> dict[str, Cents]:
    if not isinstance(raw, Mapping):
        raise FoldError(f'seq {seq}: meters must be an object such as {{"progressive": "10000.00"}}')
    out: dict[str, Cents] = {}
    for name, amount in raw.items():
        if not isinstance(amount, str):
            raise FoldError(f"seq {seq}: meters.{name} must be money as a string, not {amount!r}")
        try:
            out[name] = parse_money(amount, f"meters.{name}")
        except MoneyError as exc:
            raise FoldError(f"seq {seq}: {exc}") from None
    return out


def _wager_change(record: JournalRecord) -> tuple[int, str, Cents | None]:
    """A ``wager_changed`` record's seat, wager and new amount (``None``: removed)."""
    body, seq = record.body, record.seq
    seat, wager, amount = body.get("seat"), body.get("wager"), body.get("amount")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
        raise FoldError(f"seq {seq}: a wager change names its seat (a number), not {seat!r}")
    if not isinstance(wager, str) or not wager:
        raise FoldError(f"seq {seq}: a wager change names its wager, not {wager!r}")
    if amount is None:
        return seat, wager, None
    if not isinstance(amount, str):
        raise FoldError(f"seq {seq}: a wager change's amount is money as a string or null, not {amount!r}")
    try:
        return seat, wager, parse_money(amount, "amount")
    except MoneyError as exc:
        raise FoldError(f"seq {seq}: {exc}") from None


def _is_progressive(rnd: Round[Any, Any], wager: str | None) -> bool:
    """``wager`` is one of the progressive wagers the round's game declares."""
    return wager is not None and any(p.name == wager for p in rnd.game.progressives(rnd.rules))


def _next_number(state: TableState, round_id: str) -> int:
    """The round number after ``round_id`` began: its ``-<n>`` if higher than the last (an id
    given by the caller, not of that form, keeps the count where it is)."""
    number = _ROUND_NUMBER.search(round_id)
    return max(state.round_number, int(number.group(1))) if number else state.round_number
