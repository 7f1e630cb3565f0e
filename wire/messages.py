"""The messages of the progressive link, schema version :data:`SCHEMA_VERSION`.

Every message is a JSON object with ``"schema"`` and ``"kind"``; decoding is strict (an
unknown field, a float, a missing field or a topic that does not match the body is a
:class:`~.errors.WireError` naming the field). docs/progressive-link.md gives an example of each.

A table's message is the journal's outbox entry (``controller/journal.py``,
``OutboxEntry.envelope()``) with the schema version: the table id, its gapless per-table
``seq``, the ``message_id`` (a UUID, the same when sent again), the journal record that caused
it (``event_seq``, ``event_id``, ``round``), the ``kind`` and its ``payload``.

A little over 500 lines on purpose: every message of schema version 1 in one place, so a version
bump is one reviewed file (the field parsers are in :mod:`.fields` and :mod:`.reader`).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal

from . import fields as f
from .errors import WireError, shown
from .reader import Obj, boolean, dumps, exactly, load, one_of
from .topics import TopicRef
from .witness import ChainHead, chain_head

SCHEMA_VERSION: Final = 1

TABLE_KINDS: Final = ("declaration", "contribution", "hit", "paid", "void", "ram_clear")
DEFAULT_AWARD_TIMEOUT: Final = 120
"""Seconds a table waits for the meter's award of a claim, where the meter has not said its own
(``award_timeout_seconds`` in its status): then the claim is the floorperson's (a timed-out claim)."""
MAX_AWARD_TIMEOUT: Final = 3600
STATUSES: Final = ("online", "offline")


def _schema(value: object, field_name: str) -> int:
    if value != SCHEMA_VERSION or isinstance(value, bool):
        raise WireError(
            field_name, f"{shown(value)}: this software reads schema version {SCHEMA_VERSION} of the link"
        )
    return SCHEMA_VERSION


def _uuid(value: object, field_name: str) -> str:
    if not isinstance(value, str):
        raise WireError(field_name, f"{shown(value)} is not a UUID string")
    try:
        uuid.UUID(value)
    except ValueError:
        raise WireError(field_name, f"{shown(value)} is not a UUID") from None
    return value


# --- awards -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Share:
    """A share of the meter as it stands when the player is paid (§ 639a.12(d)(4)): 100% or less."""

    percent: Fraction

    def to_json(self) -> dict[str, str]:
        return {"share": f.format_percent(self.percent)}


@dataclass(frozen=True)
class Fixed:
    """A fixed amount, recorded by the meter; it does not come off the meter."""

    amount: int

    def to_json(self) -> dict[str, str]:
        return {"fixed": f.format_money(self.amount)}


AwardTerms = Share | Fixed


def _award_terms(value: object, path: str) -> AwardTerms:
    obj = Obj(value, path)
    if "share" in obj.value:
        terms: AwardTerms = Share(obj.get("share", f.percent))
    elif "fixed" in obj.value:
        terms = Fixed(obj.get("fixed", f.money))
    else:
        raise WireError(path, 'an award is {"share": "100"} (percent of the meter) or {"fixed": "500.00"}')
    obj.done()
    return terms


# --- table -> meter ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Parameters:
    """A progressive's parameters as the table's Rules Submission gives them."""

    initial: int
    reset: int
    rate: Fraction
    """Percent of each progressive wager added to the meter (``18`` for ``"18%"``)."""
    wager: int | None = None
    """The amount of one progressive wager where the Rules Submission fixes it (what the table
    records for each chip a sensor counts); ``None`` where the player wagers any amount. The
    meter refuses a declaration whose wager is past its own largest, and a contribution that is
    not its count of them (docs/progressive-link.md, "Declaration")."""

    def to_json(self) -> dict[str, str]:
        out = {
            "initial": f.format_money(self.initial),
            "reset": f.format_money(self.reset),
            "rate_of_progression": f.format_percent(self.rate) + "%",
        }
        if self.wager is not None:
            out["wager"] = f.format_money(self.wager)
        return out


@dataclass(frozen=True)
class Declaration:
    """The table's progressives and their parameters, sent when it loads its Rules Submission."""

    progressives: Mapping[str, Parameters]
    kind: Literal["declaration"] = "declaration"

    def to_json(self) -> dict[str, object]:
        return {"progressives": {k: p.to_json() for k, p in sorted(self.progressives.items())}}


@dataclass(frozen=True)
class Contribution:
    """A progressive's accepted wagers at one lock-out: how many and the amount wagered."""

    progressive: str
    wagers: int
    wagered: int
    kind: Literal["contribution"] = "contribution"

    def to_json(self) -> dict[str, object]:
        return {
            "progressive": self.progressive,
            "wagers": self.wagers,
            "wagered": f.format_money(self.wagered),
        }


@dataclass(frozen=True)
class Hit:
    """A player's winning hand that the paytable pays from the progressive: the table's claim."""

    progressive: str
    seat: int
    hand: str
    award: AwardTerms
    hit_wall_ns: int | None = None
    """When the hand was made known at the table (its wall clock, ns): kept in the meter's
    history beside the award; the awards themselves are ordered as the meter receives claims."""
    cards: tuple[str, ...] = ()
    """The seat's cards as the table read them (``"Ah"``...): the meter checks they make ``hand``."""
    kind: Literal["hit"] = "hit"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "progressive": self.progressive,
            "seat": self.seat,
            "hand": self.hand,
            "award": self.award.to_json(),
        }
        if self.hit_wall_ns is not None:
            out["hit_wall_ns"] = self.hit_wall_ns
        if self.cards:
            out["cards"] = list(self.cards)
        return out


@dataclass(frozen=True)
class Paid:
    """The table paid the hit of its seq ``hit_seq``: the hand pay the floorperson verified or
    validated (§ 639a.11(c)(5)(iv)), ``paid`` (the award's own, or the floorperson's verified
    amount where the meter refused the claim or did not answer it in time). The meter's
    acknowledgement ends the Jackpot Lock (G2S: progressiveCommit after setProgressiveWin)."""

    progressive: str
    hit_seq: int
    paid: int
    by_floorperson: bool = False
    """The floorperson settled the claim at the table (the meter refused it, or gave no award in
    time): ``paid`` is the hand pay of the meter the floorperson verified, which may differ from
    an award the meter made meanwhile; absent from the wire when false."""
    kind: Literal["paid"] = "paid"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "progressive": self.progressive,
            "hit_seq": self.hit_seq,
            "paid": f.format_money(self.paid),
        }
        if self.by_floorperson:
            out["by_floorperson"] = True
        return out


@dataclass(frozen=True)
class Void:
    """A floorperson voided the hit of seq ``hit_seq`` (the reason as journaled at the table): the
    player is not paid from the meter; an award returns to the meter what it took off it."""

    progressive: str
    hit_seq: int
    reason: str
    kind: Literal["void"] = "void"

    def to_json(self) -> dict[str, object]:
        return {"progressive": self.progressive, "hit_seq": self.hit_seq, "reason": self.reason}


@dataclass(frozen=True)
class RamClear:
    """The table's journal was cleared (``tablectl journal new``): archived, a new one begun that
    continues from the archive's last record ``previous`` (seq on the link's count, keyed hash).
    ``by`` authorised it (the technician's or floorperson's name, never a PIN), at
    ``cleared_wall_ns``; ``archive`` is the archived file's name. The first message of the new
    journal: the meter records it (every clear of every table in its history) and names it in the
    table's ack (``Ack.ram_clear``); a journal that restarted without it is not opened
    (docs/progressive-link.md, "A RAM clear on the link")."""

    previous: ChainHead
    by: str
    cleared_wall_ns: int
    archive: str
    kind: Literal["ram_clear"] = "ram_clear"

    def to_json(self) -> dict[str, object]:
        return {
            "previous": self.previous.to_json(),
            "by": self.by,
            "cleared_wall_ns": self.cleared_wall_ns,
            "archive": self.archive,
        }


Payload = Declaration | Contribution | Hit | Paid | Void | RamClear


def _parameters(value: object, path: str) -> Parameters:
    obj = Obj(value, path)
    out = Parameters(
        obj.get("initial", f.money),
        obj.get("reset", f.money),
        obj.get("rate_of_progression", f.rate),
        obj.optional("wager", f.wager_amount),
    )
    obj.done()
    return out


def _payload(kind: str, obj: Obj) -> Payload:
    if kind == "declaration":
        progs = obj.obj("progressives")
        if len(progs.value) > f.MAX_PROGRESSIVES:
            raise WireError(progs.path, f"{len(progs.value)} progressives: at most {f.MAX_PROGRESSIVES}")
        declared = {
            f.ident(k, progs.field(k)): _parameters(v, progs.field(k)) for k, v in progs.value.items()
        }
        progs.done(progs.value)
        payload: Payload = Declaration(declared)
    elif kind == "contribution":
        payload = Contribution(
            obj.get("progressive", f.ident), obj.get("wagers", f.wagers), obj.get("wagered", f.money)
        )
    elif kind == "paid":
        payload = Paid(
            obj.get("progressive", f.ident),
            obj.get("hit_seq", f.count),
            obj.get("paid", f.money),
            bool(obj.optional("by_floorperson", boolean)),
        )
    elif kind == "void":
        payload = Void(
            obj.get("progressive", f.ident), obj.get("hit_seq", f.count), obj.get("reason", f.text)
        )
    elif kind == "ram_clear":
        payload = RamClear(
            obj.get("previous", chain_head),
            obj.get("by", f.text),
            obj.get("cleared_wall_ns", f.wall_ns),
            obj.get("archive", f.text),
        )
    else:
        payload = Hit(
            obj.get("progressive", f.ident),
            obj.get("seat", f.seat),
            obj.get("hand", f.text),
            obj.get("award", _award_terms),
            hit_wall_ns=obj.optional("hit_wall_ns", f.wall_ns),
            cards=obj.get("cards", f.cards) if "cards" in obj.value else (),
        )
    obj.done()
    return payload


def checked_json(payload: Payload) -> dict[str, object]:
    """``payload`` as a table's message carries it, read back by the wire's own reader: a value
    past the wire's bounds (a count of wagers, an amount, a seat, a text's length) is a
    :class:`WireError` naming the field here, where the message is made, not at the meter.

    The table makes every message of its outbox with this (``controller/link/outbound.py``), so
    what the journal commits is what the wire reads; the link then sends the journal's bytes
    without reading them again (``controller/link/publisher.py``).
    """
    out = payload.to_json()
    _payload(payload.kind, Obj(out, "payload"))
    return out


@dataclass(frozen=True)
class TableMessage:
    """One message of a table's outbox, as it goes on the wire."""

    table: str
    seq: int
    message_id: str
    event_seq: int
    event_id: str
    round: str | None
    payload: Payload
    chain: ChainHead | None = None
    """The table's journal record that caused it, seq and hash: the meter's witness (witness.py)."""

    @property
    def kind(self) -> str:
        return self.payload.kind

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "schema": SCHEMA_VERSION,
            "table": self.table,
            "seq": self.seq,
            "message_id": self.message_id,
            "event_seq": self.event_seq,
            "event_id": self.event_id,
            "round": self.round,
            "kind": self.kind,
            "payload": self.payload.to_json(),
        }
        if self.chain is not None:
            out["chain"] = self.chain.to_json()
        return out

    def encode(self) -> bytes:
        return dumps(self.to_json())


def decode_table_message(data: bytes | str, ref: TopicRef | None = None) -> TableMessage:
    """A table's message; with ``ref`` (its topic), the table id must be the topic's."""
    obj = Obj(load(data, "table message"), "")
    obj.get("schema", _schema)
    table = obj.get("table", f.ident)
    if ref is not None:
        if ref.channel != "event":
            raise WireError(
                "topic", f"a table's message goes on its event topic, not the {ref.channel} topic"
            )
        if ref.table != table:
            raise WireError("table", f"{shown(table)} is not the table of the topic ({ref.table!r})")
    kind = obj.get("kind", one_of(TABLE_KINDS))
    message = TableMessage(
        table,
        obj.get("seq", f.count),
        obj.get("message_id", _uuid),
        obj.get("event_seq", f.count),
        obj.get("event_id", f.text),
        obj.optional("round", f.text),
        _payload(kind, obj.obj("payload")),
        obj.optional("chain", chain_head),
    )
    obj.done()
    return message


@dataclass(frozen=True)
class Envelope:
    """What names a table's message, read alone: its table, seq and message id.

    A message whose envelope is whole but whose body is not on the schema is refused by its seq
    (the meter records the refusal and acknowledges it), so one broken message never holds back
    the table's messages behind it.
    """

    table: str
    seq: int
    message_id: str
    kind: str | None
    """The kind, if it is one of the table's kinds."""


def decode_envelope(data: bytes | str, ref: TopicRef) -> Envelope:
    """The envelope of a table's message on its event topic, or :class:`WireError`."""
    obj = Obj(load(data, "table message", strict=False), "")
    table = obj.get("table", f.ident)
    if ref.channel != "event" or ref.table != table:
        raise WireError("table", f"{shown(table)} is not the table of the topic ({shown(ref.table)})")
    kind = obj.value.get("kind")
    return Envelope(
        table,
        obj.get("seq", f.count),
        obj.get("message_id", _uuid),
        kind if isinstance(kind, str) and kind in TABLE_KINDS else None,
    )


@dataclass(frozen=True)
class TableStatus:
    """A table's retained online/offline status (``offline`` is also its last will)."""

    table: str
    status: Literal["online", "offline"]

    def encode(self) -> bytes:
        return dumps(
            {"schema": SCHEMA_VERSION, "kind": "table_status", "table": self.table, "status": self.status}
        )


def decode_table_status(data: bytes | str, ref: TopicRef) -> TableStatus:
    obj = Obj(load(data, "table status"), "")
    obj.get("schema", _schema)
    obj.get("kind", exactly("table_status"))
    table = obj.get("table", f.ident)
    if ref.channel != "table_status" or ref.table != table:
        raise WireError("table", f"{shown(table)} is not the table of the topic ({ref.table!r})")
    status = obj.get("status", one_of(STATUSES))
    obj.done()
    return TableStatus(table, "online" if status == "online" else "offline")


# --- meter -> tables --------------------------------------------------------------------------


@dataclass(frozen=True)
class MeterStatus:
    """The meter's retained status; re-sent every ``heartbeat_seconds`` while online (its word)."""

    status: Literal["online", "offline"]
    heartbeat_seconds: int
    beat: int = 0
    """Counts the heartbeats since the meter started (a new word each time)."""
    reason: str | None = None
    """Why the meter is offline, where it knows (its store failed); absent from the wire if none."""
    award_timeout_seconds: int | None = None
    """How long a table waits for the award of a claim before the floorperson settles it (the
    meter's ``[link] award_timeout_seconds``); absent: :data:`DEFAULT_AWARD_TIMEOUT`."""
    kind: Literal["meter_status"] = "meter_status"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "status": self.status,
            "heartbeat_seconds": self.heartbeat_seconds,
            "beat": self.beat,
        }
        if self.reason is not None:
            out["reason"] = self.reason
        if self.award_timeout_seconds is not None:
            out["award_timeout_seconds"] = self.award_timeout_seconds
        return out


@dataclass(frozen=True)
class LastAward:
    table: str
    paid: int
    award_seq: int

    def to_json(self) -> dict[str, object]:
        return {"table": self.table, "paid": f.format_money(self.paid), "award_seq": self.award_seq}


@dataclass(frozen=True)
class Pending:
    """The Jackpot Lock: a hit on the progressive is being awarded (docs/progressive-link.md)."""

    table: str
    seat: int
    award_seq: int
    hit_wall_ns: int | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "table": self.table,
            "seat": self.seat,
            "award_seq": self.award_seq,
            "hit_wall_ns": self.hit_wall_ns,
        }


@dataclass(frozen=True)
class Amount:
    """A progressive's meter amount (retained). ``record_seq`` grows: drop one not newer.
    ``pending``: while a hit on it is being awarded, which (every table shows PENDING).
    ``ceiling``: the meter's maximum where the Rules Submission sets one; what would pass it goes
    to ``overflow_to`` (another progressive) or, without one, to the meter's own overflow meter,
    which holds ``overflow_held`` (put on the meter as a hit makes room, docs/meter.md)."""

    progressive: str
    amount: int
    record_seq: int
    last_award: LastAward | None = None
    pending: Pending | None = None
    ceiling: int | None = None
    overflow_to: str | None = None
    overflow_held: int = 0
    kind: Literal["amount"] = "amount"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "progressive": self.progressive,
            "amount": f.format_money(self.amount),
            "record_seq": self.record_seq,
            "last_award": None if self.last_award is None else self.last_award.to_json(),
        }
        if self.pending is not None:
            out["pending"] = self.pending.to_json()
        if self.ceiling is not None:
            out["ceiling"] = f.format_money(self.ceiling)
            if self.overflow_to is not None:
                out["overflow_to"] = self.overflow_to
            else:
                out["overflow_held"] = f.format_money(self.overflow_held)
        return out


@dataclass(frozen=True)
class Verdict:
    """The meter's word on the table's latest declaration."""

    declaration_seq: int
    accepted: bool
    field: str | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "declaration_seq": self.declaration_seq,
            "accepted": self.accepted,
            "field": self.field,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Ack:
    """Retained, per table: every message up to ``applied_seq`` is durable at the meter."""

    table: str
    applied_seq: int
    verdict: Verdict | None = None
    witness: ChainHead | None = None
    """The last journal chain head the meter holds of the table (witness.py)."""
    ram_clear: ChainHead | None = None
    """The archive head (``RamClear.previous``) of the table's last RAM clear the meter recorded
    and found continuing from its witness; absent: none."""
    kind: Literal["ack"] = "ack"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "table": self.table,
            "applied_seq": self.applied_seq,
            "verdict": None if self.verdict is None else self.verdict.to_json(),
        }
        if self.witness is not None:
            out["witness"] = self.witness.to_json()
        if self.ram_clear is not None:
            out["ram_clear"] = self.ram_clear.to_json()
        return out


@dataclass(frozen=True)
class Award:
    """The meter's award for a table's hit (sent again if the table sends the hit again)."""

    table: str
    seq: int
    """The hit's seq at the table."""
    message_id: str
    progressive: str
    award_seq: int
    """The order of awards on this meter: claims are awarded in the order received."""
    record_seq: int
    terms: AwardTerms
    paid: int
    meter_before: int
    meter_after: int
    kind: Literal["award"] = "award"

    def to_json(self) -> dict[str, object]:
        return {
            "table": self.table,
            "seq": self.seq,
            "message_id": self.message_id,
            "progressive": self.progressive,
            "award_seq": self.award_seq,
            "record_seq": self.record_seq,
            "award": self.terms.to_json(),
            "paid": f.format_money(self.paid),
            "meter_before": f.format_money(self.meter_before),
            "meter_after": f.format_money(self.meter_after),
        }


@dataclass(frozen=True)
class Refusal:
    """The meter refused a table's message: nothing of it was applied. ``field`` names what."""

    table: str
    seq: int
    message_id: str
    field: str
    reason: str
    kind: Literal["refusal"] = "refusal"

    def to_json(self) -> dict[str, object]:
        return {
            "table": self.table,
            "seq": self.seq,
            "message_id": self.message_id,
            "field": self.field,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Closed:
    """The meter's acknowledgement of a table's ``paid`` or ``void`` (its ``seq``, ``message_id``)
    of the hit ``hit_seq``: recorded (``record_seq``); an award's Jackpot Lock ends with it.
    ``award_seq`` is the award closed, ``None`` where the meter had refused the claim."""

    table: str
    seq: int
    message_id: str
    progressive: str
    hit_seq: int
    outcome: Literal["paid", "void"]
    award_seq: int | None
    record_seq: int
    kind: Literal["closed"] = "closed"

    def to_json(self) -> dict[str, object]:
        return {
            "table": self.table,
            "seq": self.seq,
            "message_id": self.message_id,
            "progressive": self.progressive,
            "hit_seq": self.hit_seq,
            "outcome": self.outcome,
            "award_seq": self.award_seq,
            "record_seq": self.record_seq,
        }


MeterMessage = MeterStatus | Amount | Ack | Award | Refusal | Closed

_CHANNEL_KINDS: Final[Mapping[str, tuple[str, ...]]] = {
    "meter_status": ("meter_status",),
    "amount": ("amount",),
    "ack": ("ack",),
    "reply": ("award", "refusal", "closed"),
}


def encode(message: MeterMessage) -> bytes:
    return dumps({"schema": SCHEMA_VERSION, "kind": message.kind, **message.to_json()})


def _last_award(value: object, path: str) -> LastAward:
    obj = Obj(value, path)
    out = LastAward(obj.get("table", f.ident), obj.get("paid", f.money), obj.get("award_seq", f.count))
    obj.done()
    return out


def _pending(value: object, path: str) -> Pending:
    obj = Obj(value, path)
    out = Pending(
        obj.get("table", f.ident),
        obj.get("seat", f.seat),
        obj.get("award_seq", f.count),
        obj.optional("hit_wall_ns", f.wall_ns),
    )
    obj.done()
    return out


def _verdict(value: object, path: str) -> Verdict:
    obj = Obj(value, path)
    out = Verdict(
        obj.get("declaration_seq", f.count),
        obj.get("accepted", boolean),
        obj.optional("field", f.text),
        obj.optional("reason", lambda v, p: f.text(v, p, 2000)),
    )
    obj.done()
    return out


def decode_meter_message(data: bytes | str, ref: TopicRef) -> MeterMessage:
    """A message from the meter's topics, checked against its topic.

    A table acts on what this returns only: a message on any other topic is refused here
    (:class:`WireError` on ``topic``), whatever it says.
    """
    if not ref.from_meter:
        raise WireError("topic", f"the {ref.channel} topic is not one of the meter's: ignored")
    obj = Obj(load(data, "meter message"), "")
    obj.get("schema", _schema)
    kind = obj.get("kind", one_of(_CHANNEL_KINDS[ref.channel]))
    message: MeterMessage
    if kind == "meter_status":
        status = obj.get("status", one_of(STATUSES))
        message = MeterStatus(
            "online" if status == "online" else "offline",
            obj.get("heartbeat_seconds", lambda v, p: f.count(v, p, 1, 3600)),
            obj.get("beat", lambda v, p: f.count(v, p, 0)),
            obj.optional("reason", lambda v, p: f.text(v, p, 2000)),
            obj.optional("award_timeout_seconds", lambda v, p: f.count(v, p, 1, MAX_AWARD_TIMEOUT)),
        )
    elif kind == "amount":
        message = Amount(
            obj.get("progressive", f.ident),
            obj.get("amount", f.money),
            obj.get("record_seq", f.count),
            obj.optional("last_award", _last_award),
            obj.optional("pending", _pending),
            obj.optional("ceiling", f.money),
            obj.optional("overflow_to", f.ident),
            obj.optional("overflow_held", f.money) or 0,
        )
        if message.ceiling is None and (message.overflow_to is not None or message.overflow_held):
            raise WireError("overflow_to", "an overflow without a ceiling")
        if message.progressive != ref.progressive:
            raise WireError(
                "progressive", f"{shown(message.progressive)} is not the topic's ({ref.progressive!r})"
            )
    else:
        table = obj.get("table", f.ident)
        if table != ref.table:
            raise WireError("table", f"{shown(table)} is not the table of the topic ({ref.table!r})")
        if kind == "ack":
            message = Ack(
                table,
                obj.get("applied_seq", lambda v, p: f.count(v, p, 0)),
                obj.optional("verdict", _verdict),
                obj.optional("witness", chain_head),
                obj.optional("ram_clear", chain_head),
            )
        elif kind == "award":
            message = Award(
                table,
                obj.get("seq", f.count),
                obj.get("message_id", _uuid),
                obj.get("progressive", f.ident),
                obj.get("award_seq", f.count),
                obj.get("record_seq", f.count),
                obj.get("award", _award_terms),
                obj.get("paid", f.money),
                obj.get("meter_before", f.money),
                obj.get("meter_after", f.money),
            )
        elif kind == "closed":
            outcome = obj.get("outcome", one_of(("paid", "void")))
            message = Closed(
                table,
                obj.get("seq", f.count),
                obj.get("message_id", _uuid),
                obj.get("progressive", f.ident),
                obj.get("hit_seq", f.count),
                "paid" if outcome == "paid" else "void",
                obj.optional("award_seq", f.count),
                obj.get("record_seq", f.count),
            )
        else:
            message = Refusal(
                table,
                obj.get("seq", f.count),
                obj.get("message_id", _uuid),
                obj.get("field", f.text),
                obj.get("reason", lambda v, p: f.text(v, p, 2000)),
            )
    obj.done()
    return message


__all__ = [
    "DEFAULT_AWARD_TIMEOUT",
    "SCHEMA_VERSION",
    "Ack",
    "Amount",
    "Award",
    "AwardTerms",
    "Closed",
    "Contribution",
    "Declaration",
    "Envelope",
    "Fixed",
    "Hit",
    "LastAward",
    "MeterMessage",
    "MeterStatus",
    "Paid",
    "Parameters",
    "Payload",
    "Refusal",
    "Share",
    "TableMessage",
    "TableStatus",
    "Verdict",
    "Void",
    "decode_envelope",
    "decode_meter_message",
    "decode_table_message",
    "decode_table_status",
    "encode",
]
