"""The journal's records and the entries the daemon asks it to record.

Every record of the table has a kind (:data:`KINDS`), a source (:data:`SOURCES`) and a body;
an entry (:data:`Entry`) is what the daemon asks for: a rules core event or a table entry
(begin, settle, lock-out, device, configuration, command, start, verification). The fold of
the records is :mod:`.state`. Pure: no I/O, no clock (docs/journal.md).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from ..rules.core.engine import IllegalEvent
from ..rules.core.events import Event
from ..rules.core.money import Cents, format_money
from ..rules.core.settlement import FLOORPERSON_VALIDATE, FLOORPERSON_VERIFY

# --- record kinds ------------------------------------------------------------------------------

ROUND_BEGIN: Final = "round_begin"
ROUND_EVENT: Final = "event"
ROUND_SETTLED: Final = "round_settled"
ROUND_CANCELLED: Final = "round_cancelled"
REFUSED: Final = "refused"
LOCK_OUT: Final = "lock_out"
UNLOCK: Final = "unlock"
DEVICE_ONLINE: Final = "device_online"
DEVICE_OFFLINE: Final = "device_offline"
CONFIG_LOADED: Final = "config_loaded"
COMMAND: Final = "command"
STARTED: Final = "started"
PAYOUT_VERIFIED: Final = "payout_verified"
HARDWARE_FACT: Final = "hardware_fact"
DEVICE_SERVICE: Final = "device_service"
IRREGULARITY_REPORTED: Final = "irregularity_reported"
IRREGULARITY_DISMISSED: Final = "irregularity_dismissed"
REQUEST: Final = "request"
RAM_CLEAR: Final = "ram_clear"
WAGER_CHANGED: Final = "wager_changed"

KINDS: Final = (
    ROUND_BEGIN,
    ROUND_EVENT,
    ROUND_SETTLED,
    ROUND_CANCELLED,
    REFUSED,
    LOCK_OUT,
    UNLOCK,
    DEVICE_ONLINE,
    DEVICE_OFFLINE,
    CONFIG_LOADED,
    COMMAND,
    STARTED,
    PAYOUT_VERIFIED,
    HARDWARE_FACT,
    DEVICE_SERVICE,
    IRREGULARITY_REPORTED,
    IRREGULARITY_DISMISSED,
    REQUEST,
    RAM_CLEAR,
    WAGER_CHANGED,
)
ROUND_CLOSES: Final = (ROUND_SETTLED, ROUND_CANCELLED)
LOCK_KINDS: Final = (LOCK_OUT, UNLOCK)
DEVICE_KINDS: Final = (DEVICE_ONLINE, DEVICE_OFFLINE)
FACT_KINDS: Final = (*LOCK_KINDS, *DEVICE_KINDS, CONFIG_LOADED)
"""The table's facts: the state keeps the latest of each (per device for the devices)."""

VERIFICATION_FLAGS: Final = (FLOORPERSON_VERIFY, FLOORPERSON_VALIDATE)
"""Settlement flags that wait for a floorperson (or above) to verify or validate the payout
(§ 633a.7(o)(2)(ii)(B), § 639a.11(c)(5)(iii)); until then the call-floorperson light is on."""

SHUTDOWNS: Final = ("clean", "unclean")
"""How the daemon last left the journal, as its ``started`` record says."""

# --- sources -----------------------------------------------------------------------------------

SOURCES: Final = (
    "gpio",  # the lock-out button, the bet sensors
    "shoe",  # the automated dealing shoe
    "shuffler",
    "hole-card-reader",
    "dealer-ui",  # the dealer's touchscreen (through the local API)
    "floor",  # a floorperson (PIN or badge)
    "tablectl",  # a slot technician
    "daemon",  # the controller itself (start, config, device watch)
    "link",  # the progressive link to the central meter
)
PERSON_SOURCES: Final = frozenset({"dealer-ui", "floor", "tablectl"})
"""Sources where a person acts: their records name the actor (badge, user)."""


class FoldError(ValueError):
    """A record that cannot be folded: unreadable, or not what was accepted. Names the seq."""


class TableRefusal(IllegalEvent):
    """What the table's own rules refuse (a round begun while another is open, ...)."""


# --- records -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class JournalRecord:
    """One record of the journal: what happened, when, from where, by whom."""

    seq: int
    """Gapless from 1: the order of everything at the table."""
    event_id: str
    """A UUID, unique in all journals: a duplicate anywhere downstream can be dropped."""
    wall_ns: int
    """Wall-clock time (``time.time_ns()``) when the journal received it."""
    mono_ns: int
    """Monotonic time (``time.monotonic_ns()``); comparable within one boot (see ``started``)."""
    source: str
    actor: str | None
    round_id: str | None
    """The round open when it happened (the new round's, for ``round_begin``), else ``None``."""
    kind: str
    body: Mapping[str, Any]

    def to_json(self) -> dict[str, object]:
        return {
            "seq": self.seq,
            "event_id": self.event_id,
            "wall_ns": self.wall_ns,
            "mono_ns": self.mono_ns,
            "source": self.source,
            "actor": self.actor,
            "round": self.round_id,
            "kind": self.kind,
            "body": dict(self.body),
        }


@dataclass(frozen=True, slots=True)
class RecordMeta:
    """What the journal adds to an entry to make it a record."""

    seq: int
    event_id: str
    wall_ns: int
    mono_ns: int
    source: str
    actor: str | None = None


# --- entries: what the daemon asks the journal to record ---------------------------------------


@dataclass(frozen=True)
class BeginRound:
    """A new round of ``game`` under ``rules`` (the game's rules dataclass, or its options in
    file form), the meters as they stand. ``round_id`` defaults to ``"<table>-<n>"``, the next
    round's number (rounds are numbered one by one)."""

    kind: ClassVar[str] = ROUND_BEGIN
    game: str
    rules: object
    meters: Mapping[str, Cents] = field(default_factory=dict)
    round_id: str | None = None


@dataclass(frozen=True)
class SettleRound:
    """The end of a complete round: the journal records the engine's settlement."""

    kind: ClassVar[str] = ROUND_SETTLED


@dataclass(frozen=True)
class CancelRound:
    """The end of a round in which no wager was accepted (nobody played)."""

    kind: ClassVar[str] = ROUND_CANCELLED
    reason: str


@dataclass(frozen=True)
class LockOut:
    """Wagering disabled at the table (e.g. the progressive link lost, § 639a.2(c)(2))."""

    kind: ClassVar[str] = LOCK_OUT
    reason: str


@dataclass(frozen=True)
class Unlock:
    kind: ClassVar[str] = UNLOCK
    reason: str


@dataclass(frozen=True)
class DeviceOnline:
    kind: ClassVar[str] = DEVICE_ONLINE
    device: str
    detail: str = ""


@dataclass(frozen=True)
class DeviceOffline:
    kind: ClassVar[str] = DEVICE_OFFLINE
    device: str
    detail: str = ""


@dataclass(frozen=True)
class ConfigLoaded:
    """The daemon's configuration (and the Rules Submission) as loaded: path and digest."""

    kind: ClassVar[str] = CONFIG_LOADED
    path: str
    sha256: str
    detail: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Command:
    """A local API command, with the role it was given under (the actor is the record's)."""

    kind: ClassVar[str] = COMMAND
    command: str
    role: str
    args: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Started:
    """The daemon started: its version, and the boot (monotonic times restart at each boot).

    ``previous_shutdown`` is ``"unclean"`` when the journal was not closed by the daemon the
    last time (a power cut, ``kill -9``: the journal's head marker says so), else ``"clean"``.
    """

    kind: ClassVar[str] = STARTED
    version: str
    boot_id: str
    previous_shutdown: str = "clean"


@dataclass(frozen=True)
class PayoutVerified:
    """A floorperson verified (or validated) the flagged payout of ``seat``'s ``wager`` in the
    settled round ``round_id`` (the actor is the record's)."""

    kind: ClassVar[str] = PAYOUT_VERIFIED
    round_id: str
    seat: int
    wager: str


@dataclass(frozen=True)
class WagerChanged:
    """The dealer changes ``seat``'s ``wager`` to ``amount``, or removes it (``amount`` ``None``),
    before "no more bets": a wager may be withdrawn until then, never after (§ 639a.7(c), and each
    chapter's like it); the actor is the record's. The round's events are those accepted with
    this one wager changed or left out, replayed by the rules core (which may refuse: a Bonus
    Wager without its Ante)."""

    kind: ClassVar[str] = WAGER_CHANGED
    seat: int
    wager: str
    amount: Cents | None


@dataclass(frozen=True)
class HardwareFact:
    """What a device reported that is not a rules event: an incomplete stack, a wrong shuffler
    count, frames lost, a lock-out press while locked, a journal write that failed. Journaled for
    the audit trail; only ``incomplete_stack`` changes the state (that stack may be keyed by hand,
    § 639a.13(g))."""

    kind: ClassVar[str] = HARDWARE_FACT
    device: str
    fact: str
    detail: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class DeviceService:
    """A floorperson (or technician) declares ``device`` out of order (``in_service`` false) or
    returns it to service (§ 639a.13(g)); the actor is the record's."""

    kind: ClassVar[str] = DEVICE_SERVICE
    device: str
    in_service: bool
    reason: str


@dataclass(frozen=True)
class IrregularityReported:
    """An irregularity that takes effect only once a floorperson confirms it: a dealer's report
    of a device's irregularity, or one that voids a round with wagers in play. ``event`` is the
    rules event's JSON; ``why`` says why it waits."""

    kind: ClassVar[str] = IRREGULARITY_REPORTED
    event: Mapping[str, object]
    why: str


@dataclass(frozen=True)
class IrregularityDismissed:
    """A floorperson found the reported irregularity did not happen; the round goes on."""

    kind: ClassVar[str] = IRREGULARITY_DISMISSED
    reason: str


@dataclass(frozen=True)
class Request:
    """The client's idempotency key of the request whose records are ``seqs`` (the same
    transaction), and whether it was ``accepted``: a retry is answered from this, never
    applied again. ``binding`` is the SHA-256 of the request's command and body
    (:func:`request_binding`): the same key with another body is another request, refused."""

    kind: ClassVar[str] = REQUEST
    key: str
    seqs: tuple[int, ...]
    accepted: bool
    reason: str = ""
    binding: str = ""


def request_binding(command: str, body: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) a key is bound to: the command and its body as canonical JSON (sorted
    keys, no spaces, ASCII), so one key means one request (docs/local-api.md, "Idempotency")."""
    text = json.dumps({"command": command, "body": body}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


@dataclass(frozen=True)
class RamClear:
    """A "RAM clear": the first record of a journal that follows an archived one (``tablectl
    journal new``, a technician with PIN, the actor). It names the archived file and its last
    record, whose hash this journal's chain begins from, and carries the meters over; and where
    the archive ended on the progressive link's count (``link_seq``, ``link_outbox_seq``), which
    this journal's records and outbox messages count on from (:mod:`.link_count`)."""

    kind: ClassVar[str] = RAM_CLEAR
    previous_journal: str
    previous_seq: int
    previous_hash: str
    meters: Mapping[str, Cents] = field(default_factory=dict)
    link_seq: int = 0
    link_outbox_seq: int = 0


TableEntry = (
    BeginRound
    | SettleRound
    | CancelRound
    | LockOut
    | Unlock
    | DeviceOnline
    | DeviceOffline
    | ConfigLoaded
    | Command
    | Started
    | PayoutVerified
    | HardwareFact
    | DeviceService
    | IrregularityReported
    | IrregularityDismissed
    | Request
    | RamClear
    | WagerChanged
)
Entry = Event | TableEntry
"""What :meth:`TableState.prepare` accepts: a round event of the rules core, or a table entry."""


def entry_body(entry: TableEntry) -> dict[str, object]:
    if isinstance(entry, CancelRound | LockOut | Unlock):
        return {"reason": _nonempty(entry.reason, "reason")}
    if isinstance(entry, DeviceOnline | DeviceOffline):
        out: dict[str, object] = {"device": _nonempty(entry.device, "device")}
        if entry.detail:
            out["detail"] = entry.detail
        return out
    if isinstance(entry, ConfigLoaded):
        # The detail (the Rules Submission's path and digest, ...) cannot stand in for these two.
        return {
            **entry.detail,
            "path": _nonempty(entry.path, "path"),
            "sha256": _nonempty(entry.sha256, "sha256"),
        }
    if isinstance(entry, Command):
        return {
            "command": _nonempty(entry.command, "command"),
            "role": _nonempty(entry.role, "role"),
            "args": dict(entry.args),
        }
    if isinstance(entry, PayoutVerified):
        if isinstance(entry.seat, bool) or not isinstance(entry.seat, int) or entry.seat < 1:
            raise ValueError(f"seat must be a seat number, not {entry.seat!r}")
        return {
            "round": _nonempty(entry.round_id, "round"),
            "seat": entry.seat,
            "wager": _nonempty(entry.wager, "wager"),
        }
    if isinstance(entry, WagerChanged):
        if isinstance(entry.seat, bool) or not isinstance(entry.seat, int) or entry.seat < 1:
            raise ValueError(f"seat must be a seat number, not {entry.seat!r}")
        if entry.amount is not None and (
            isinstance(entry.amount, bool) or not isinstance(entry.amount, int) or entry.amount <= 0
        ):
            raise ValueError(f"amount must be whole cents above 0, or None to remove, not {entry.amount!r}")
        return {
            "seat": entry.seat,
            "wager": _nonempty(entry.wager, "wager"),
            "amount": None if entry.amount is None else format_money(entry.amount),
        }
    if isinstance(entry, HardwareFact):
        return {
            "device": _nonempty(entry.device, "device"),
            "fact": _nonempty(entry.fact, "fact"),
            "detail": dict(entry.detail),
        }
    if isinstance(entry, DeviceService):
        return {
            "device": _nonempty(entry.device, "device"),
            "in_service": bool(entry.in_service),
            "reason": _nonempty(entry.reason, "reason"),
        }
    if isinstance(entry, IrregularityReported):
        if not isinstance(entry.event, Mapping) or entry.event.get("type") != "irregularity":
            raise ValueError(
                f"an irregularity_reported record holds an irregularity event, not {entry.event!r}"
            )
        return {"event": dict(entry.event), "why": _nonempty(entry.why, "why")}
    if isinstance(entry, IrregularityDismissed):
        return {"reason": _nonempty(entry.reason, "reason")}
    if isinstance(entry, Request):
        if not entry.seqs or not all(isinstance(s, int) and s >= 1 for s in entry.seqs):
            raise ValueError(f"a request names the seqs of its records, not {entry.seqs!r}")
        out_request: dict[str, object] = {
            "key": _nonempty(entry.key, "key"),
            "seqs": list(entry.seqs),
            "accepted": bool(entry.accepted),
        }
        if entry.reason:
            out_request["reason"] = entry.reason
        if entry.binding:
            out_request["binding"] = entry.binding
        return out_request
    if isinstance(entry, RamClear):
        for name in ("previous_seq", "link_seq", "link_outbox_seq"):
            value = getattr(entry, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a seq, not {value!r}")
        meters: dict[str, object] = {}
        for name, cents in entry.meters.items():
            if isinstance(cents, bool) or not isinstance(cents, int):
                raise TypeError(f"meters.{name} must be whole cents, not {cents!r}")
            meters[_nonempty(name, "a meter's name")] = format_money(cents)
        return {
            "previous_journal": _nonempty(entry.previous_journal, "previous_journal"),
            "previous_seq": entry.previous_seq,
            "previous_hash": _nonempty(entry.previous_hash, "previous_hash"),
            "meters": meters,
            "link_seq": entry.link_seq,
            "link_outbox_seq": entry.link_outbox_seq,
        }
    if isinstance(entry, Started):
        if entry.previous_shutdown not in SHUTDOWNS:
            raise ValueError(
                f"previous_shutdown is one of {', '.join(SHUTDOWNS)}, not {entry.previous_shutdown!r}"
            )
        return {
            "version": _nonempty(entry.version, "version"),
            "boot_id": _nonempty(entry.boot_id, "boot_id"),
            "previous_shutdown": entry.previous_shutdown,
        }
    raise TypeError(f"not an entry of the journal: {entry!r}")


def _nonempty(value: str, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} must be a non-empty string, not {value!r}")
    return value


def normalized_body(body: Mapping[str, object]) -> dict[str, Any]:
    """The body as it reads back from the journal's JSON (tuples become lists, ...)."""
    try:
        out = json.loads(json.dumps(body, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the record is not JSON: {exc}") from None
    assert isinstance(out, dict)
    return out
