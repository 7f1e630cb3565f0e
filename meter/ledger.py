"""The meter's state and the one function that changes it: :meth:`Ledger.fold` of a record.

A record is what the store keeps; the ledger is the fold of the records from the first. The
service decides which record a table's message makes (:func:`decide`), folds it, and writes
it; at every start the store folds every record again, which checks every amount, every
award and the gapless order of each table's messages, and compares the result with the state
tables it keeps for reading.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from wire import (
    Ack,
    Amount,
    Award,
    Closed,
    Contribution,
    Declaration,
    Fixed,
    Hit,
    LastAward,
    Paid,
    Parameters,
    Pending,
    RamClear,
    Refusal,
    Share,
    TableMessage,
    Verdict,
    Void,
    format_money,
)
from wire import fields as wf
from wire.errors import clip

from .claims import Refused, judge
from .config import MeterConfig
from .progression import pay, progress

OPENED: Final = "opened"
DECLARATION: Final = "declaration"
CONTRIBUTION: Final = "contribution"
AWARD: Final = "award"
REFUSED: Final = "refused"
PAID: Final = "paid"
VOID: Final = "void"
KINDS: Final = (OPENED, DECLARATION, CONTRIBUTION, AWARD, REFUSED, PAID, VOID)
TABLE_KINDS: Final = (DECLARATION, CONTRIBUTION, AWARD, REFUSED, PAID, VOID)
CLOSES: Final = (PAID, VOID)
"""The table's word that ends a hit: paid (the hand pay verified) or void (a floorperson's decision)."""


class FoldError(Exception):
    """A record that does not follow from the ones before it (``seq`` names it)."""

    def __init__(self, seq: int, problem: str) -> None:
        self.seq = seq
        super().__init__(f"record {seq}: {problem}")


@dataclass(frozen=True)
class Record:
    """One record of the store (``table_id``/``table_seq``: the dedup key of a table's message)."""

    seq: int
    wall_ns: int
    kind: str
    table_id: str | None
    table_seq: int | None
    message_id: str | None
    progressive: str | None
    body: Mapping[str, Any]


@dataclass
class ProgressiveState:
    id: str
    params: Parameters
    opened_seq: int
    amount: int
    carry: Fraction = Fraction(0)
    record_seq: int = 0
    contributions: int = 0
    wagers: int = 0
    wagered: int = 0
    awards: int = 0
    paid: int = 0
    last_award: LastAward | None = None
    ceiling: int | None = None
    """The Rules Submission's maximum of the meter (``[progressives.<id>] ceiling``), if it has one."""
    overflow: str | None = None
    """Where what would take the meter past its ceiling goes: another progressive, or (``None``) its
    own overflow meter, :attr:`held`."""
    held: int = 0
    """The own overflow meter: cents past the ceiling, put on the meter when a hit makes room."""
    over_ceiling: int = 0
    """Every cent that went past the ceiling (to the overflow), for the report."""
    pending: Pending | None = None
    """The Jackpot Lock: the hit being awarded (from its award record until the table's ``paid``
    or ``void`` of it; a later award takes it, and the latest award still open holds it)."""

    def amount_message(self) -> Amount:
        return Amount(
            self.id, self.amount, self.record_seq, self.last_award, self.pending,
            self.ceiling, self.overflow if self.ceiling is not None else None, self.held,
        )  # fmt: skip


@dataclass
class TableState:
    id: str
    applied_seq: int = 0
    verdict: Verdict | None = None
    accepted: frozenset[str] = frozenset()
    fixed_wager: Mapping[str, int] = field(default_factory=dict)
    """The one wager's amount the accepted declaration fixed, by progressive (where it fixed one)."""

    def ack_message(self) -> Ack:
        return Ack(self.id, self.applied_seq, self.verdict)


#: The longest reason a refusal records and sends (the wire's bound for a refusal's reason).
MAX_REASON: Final = 2000


@dataclass(frozen=True)
class Broken:
    """A table's message refused by its seq without being read whole: its envelope (table, seq,
    message id) is on the wire's schema, its body is not (``reason`` is the wire's), or the meter
    could not apply it. ``digest`` is the SHA-256 of the bytes as they came (its first 16 hex
    digits), so a refusal names the message without keeping it."""

    table: str
    seq: int
    message_id: str
    kind: str | None
    field: str
    reason: str
    digest: str


Item = TableMessage | Broken
"""What the store makes a record of: a table's message, read whole or refused by its seq."""


@dataclass(frozen=True)
class Draft:
    """A record to be made: its kind, progressive and body (the store numbers and chains it)."""

    kind: str
    progressive: str | None
    body: Mapping[str, Any]


@dataclass(frozen=True)
class OpenAward:
    """An award the hitting table has not yet reported paid or void (its Jackpot Lock's)."""

    progressive: str
    award_seq: int
    record_seq: int
    seat: int
    paid: int
    meter_before: int
    meter_after: int
    hit_wall_ns: int | None


@dataclass
class Ledger:
    progressives: dict[str, ProgressiveState] = field(default_factory=dict)
    tables: dict[str, TableState] = field(default_factory=dict)
    last_seq: int = 0
    award_count: int = 0
    open_awards: dict[tuple[str, int], OpenAward] = field(default_factory=dict)
    """(table, the hit's seq) -> its award, until the table's ``paid`` or ``void``."""
    refused_hits: set[tuple[str, int]] = field(default_factory=set)
    """(table, the hit's seq) of the claims the meter refused and the table has not yet closed."""
    legacy_locks: set[int] = field(default_factory=set)
    """The award seqs of awards recorded before the handshake (store schema 2): not closed by a
    ``paid``; their lock ends at the hitting table's next contribution, as it did then."""

    def table(self, table_id: str) -> TableState:
        return self.tables.setdefault(table_id, TableState(table_id))

    def fold(self, record: Record) -> None:
        """Apply ``record``; :class:`FoldError` if it does not follow from the state."""
        if record.seq != self.last_seq + 1:
            raise FoldError(record.seq, f"follows record {self.last_seq}: the store has a gap")
        if record.kind not in KINDS:
            raise FoldError(record.seq, f"unknown kind {record.kind!r}")
        try:
            if record.kind == OPENED:
                self._opened(record)
            else:
                self._table_record(record)
        except (KeyError, TypeError, ValueError) as exc:
            raise FoldError(record.seq, f"a {record.kind} record that cannot be read ({exc!r})") from None
        self.last_seq = record.seq

    def _opened(self, r: Record) -> None:
        pid = str(r.progressive)
        if pid in self.progressives:
            raise FoldError(r.seq, f"progressive {pid!r} is opened twice")
        params = Parameters(
            wf.money(r.body["initial"], "initial"),
            wf.money(r.body["reset"], "reset"),
            wf.rate(r.body["rate_of_progression"], "rate_of_progression"),
        )
        ceiling = r.body.get("ceiling")
        overflow = r.body.get("overflow")
        self.progressives[pid] = ProgressiveState(
            pid, params, r.seq, params.initial, record_seq=r.seq,
            ceiling=None if ceiling is None else wf.money(ceiling, "ceiling"),
            overflow=None if overflow is None else str(overflow),
        )  # fmt: skip

    def raise_by(self, p: ProgressiveState, cents: int, seq: int | None = None) -> tuple[int, int]:
        """Put ``cents`` on ``p`` up to its ceiling, the excess on its overflow (another progressive,
        up to that one's own ceiling, the rest on that one's own overflow meter; or ``p``'s own
        overflow meter): (cents on ``p``'s meter, cents to its overflow). ``seq``: the record doing it
        (the state changes); ``None``: only the arithmetic, nothing changed."""
        to_meter, excess = split(p.amount, cents, p.ceiling)
        if seq is None:
            return to_meter, excess
        p.amount += to_meter
        p.over_ceiling += excess
        target = self.progressives.get(p.overflow) if p.overflow is not None else None
        if target is None:
            p.held += excess
        elif excess:
            on, past = split(target.amount, excess, target.ceiling)
            target.amount += on
            target.held += past
            target.over_ceiling += past
            target.record_seq = seq
        return to_meter, excess

    def _table_record(self, r: Record) -> None:
        if r.table_id is None or r.table_seq is None or r.message_id is None:
            raise FoldError(r.seq, "a table's record without its table, seq and message id")
        t = self.table(r.table_id)
        if r.table_seq != t.applied_seq + 1:
            raise FoldError(
                r.seq,
                f"table {r.table_id!r} seq {r.table_seq} after its seq {t.applied_seq}: "
                "each table's messages are applied once, in order",
            )
        t.applied_seq = r.table_seq
        b = r.body
        if r.kind == DECLARATION:
            accepted = bool(b["accepted"])
            t.verdict = Verdict(r.table_seq, accepted, b.get("field"), b.get("reason"))
            t.accepted = frozenset(b["declared"]) if accepted else frozenset()
            t.fixed_wager = {
                pid: wf.money(declared["wager"], "wager")
                for pid, declared in b["declared"].items()
                if accepted and declared.get("wager") is not None
            }
        elif r.kind == CONTRIBUTION:
            p = self._progressive(r)
            wagered = wf.money(b["wagered"], "wagered")
            done = progress(p.amount, p.carry, wagered, p.params.rate)
            self._expect(r, "amount_before", format_money(p.amount))
            self._expect(r, "added", format_money(done.added))
            to_meter, excess = self.raise_by(p, done.added)
            self._expect(r, "amount_after", format_money(p.amount + to_meter))
            self._expect(r, "carry", str(done.carry))
            if p.ceiling is not None:
                self._expect(r, "to_overflow", format_money(excess))
            self.raise_by(p, done.added, r.seq)
            p.carry = done.carry
            p.contributions += 1
            p.wagers += int(b["wagers"])
            p.wagered += wagered
            p.record_seq = r.seq
            if (
                p.pending is not None
                and p.pending.table == r.table_id
                and p.pending.award_seq in self.legacy_locks
            ):
                # An award recorded before the handshake (no ``handshake`` in its body): its lock
                # ended at the hitting table's next contribution, as it did then.
                self.legacy_locks.discard(p.pending.award_seq)
                p.pending = None
        elif r.kind == REFUSED:
            if b.get("message_kind") == "hit":
                self.refused_hits.add((r.table_id, r.table_seq))
        elif r.kind in CLOSES:
            self._closed(r)
        elif r.kind == AWARD:
            p = self._progressive(r)
            terms = _terms(b["award"])
            paid = pay(terms, p.amount, p.params.reset)
            moved = from_overflow(p, paid.meter_after)
            self._expect(r, "meter_before", format_money(p.amount))
            self._expect(r, "paid", format_money(paid.paid))
            self._expect(r, "meter_after", format_money(paid.meter_after + moved))
            if p.ceiling is not None:
                self._expect(r, "from_overflow", format_money(moved))
            self._expect(r, "award_seq", self.award_count + 1)
            self.award_count += 1
            p.amount = paid.meter_after + moved
            p.held -= moved
            p.awards += 1
            p.paid += paid.paid
            p.record_seq = r.seq
            p.last_award = LastAward(r.table_id, paid.paid, self.award_count)
            hit_wall_ns = b.get("hit_wall_ns")
            p.pending = Pending(
                r.table_id,
                int(b["seat"]),
                self.award_count,
                None if hit_wall_ns is None else int(hit_wall_ns),
            )
            if not b.get("handshake"):
                self.legacy_locks.add(self.award_count)
                return
            # meter_after before the overflow's cents: a void gives back what the award took off.
            self.open_awards[r.table_id, r.table_seq] = OpenAward(
                p.id, self.award_count, r.seq, int(b["seat"]), paid.paid, wf.money(b["meter_before"], ""),
                paid.meter_after, p.pending.hit_wall_ns,
            )  # fmt: skip

    def _closed(self, r: Record) -> None:
        """The table's ``paid`` or ``void`` of a hit: its award closed (a void returns to the meter
        what the award took off it), the lock passed to the latest award still open, or none."""
        assert r.table_id is not None
        b = r.body
        key = (r.table_id, int(b["hit_seq"]))
        if b.get("award_seq") is None:
            if key not in self.refused_hits:
                raise FoldError(r.seq, f"closes hit {key[1]} of {key[0]!r}, which is no refused claim")
            self.refused_hits.discard(key)
            return
        award = self.open_awards.pop(key, None)
        if award is None or award.award_seq != int(b["award_seq"]):
            raise FoldError(r.seq, f"closes award {b['award_seq']}, which is not open for hit {key}")
        p = self._progressive(r)
        if r.kind == VOID:
            returned = max(0, award.meter_before - award.meter_after)
            self._expect(r, "returned", format_money(returned))
            self._expect(r, "amount_before", format_money(p.amount))
            if p.ceiling is not None:
                self._expect(r, "to_overflow", format_money(self.raise_by(p, returned)[1]))
            self.raise_by(p, returned, r.seq)
            p.record_seq = r.seq
        if p.pending is not None and p.pending.award_seq == award.award_seq:
            still = [a for a in self.open_awards.items() if a[1].progressive == p.id]
            if still:
                (table, _), latest = max(still, key=lambda kv: kv[1].award_seq)
                p.pending = Pending(table, latest.seat, latest.award_seq, latest.hit_wall_ns)
            else:
                p.pending = None
        p.record_seq = r.seq

    def _progressive(self, r: Record) -> ProgressiveState:
        p = self.progressives.get(str(r.progressive))
        if p is None:
            raise FoldError(r.seq, f"progressive {r.progressive!r} was never opened")
        return p

    @staticmethod
    def _expect(r: Record, key: str, value: object) -> None:
        if r.body.get(key) != value:
            raise FoldError(r.seq, f"{key} is {r.body.get(key)!r}, but the records before it give {value!r}")

    def copy(self) -> Ledger:
        return Ledger(
            {k: dataclasses.replace(v) for k, v in self.progressives.items()},
            {k: dataclasses.replace(v) for k, v in self.tables.items()},
            self.last_seq,
            self.award_count,
            dict(self.open_awards),
            set(self.refused_hits),
            set(self.legacy_locks),
        )


def split(amount: int, cents: int, ceiling: int | None) -> tuple[int, int]:
    """``cents`` going onto a meter at ``amount``: (what goes on it, what would take it past its
    ``ceiling`` and goes to its overflow), to the cent; without a ceiling, all of it goes on."""
    if ceiling is None:
        return cents, 0
    room = max(0, ceiling - amount)
    return min(cents, room), max(0, cents - room)


def from_overflow(p: ProgressiveState, meter_after: int) -> int:
    """What the own overflow meter puts back on the meter after an award leaves it at
    ``meter_after``: all it holds, up to the ceiling (docs/meter.md, "A ceiling and its overflow")."""
    if p.ceiling is None:
        return 0
    return min(p.held, max(0, p.ceiling - meter_after))


def _terms(raw: Mapping[str, Any]) -> Share | Fixed:
    if "share" in raw:
        return Share(wf.percent(raw["share"], "award.share"))
    return Fixed(wf.money(raw["fixed"], "award.fixed"))


# --- deciding what a table's message makes ----------------------------------------------------


def _envelope(m: TableMessage) -> dict[str, Any]:
    return {"event_seq": m.event_seq, "event_id": m.event_id, "round": m.round}


def refused(m: Item, fld: str, reason: str, progressive: str | None = None) -> Draft:
    """A refusal of ``m``: what is wrong (``fld``, never empty: ``"message"`` for the whole) and
    why, at most :data:`MAX_REASON` characters."""
    if isinstance(m, Broken):
        head: dict[str, Any] = {"event_seq": None, "event_id": None, "round": None, "digest": m.digest}
    else:
        head = _envelope(m)
    body = {**head, "message_kind": m.kind, "field": fld or "message", "reason": clip(reason, MAX_REASON)}
    return Draft(REFUSED, progressive, body)


def decide(ledger: Ledger, config: MeterConfig, m: Item, id_used_by: int | None = None) -> Draft:
    """The record a table's next message makes (its seq is the table's next: the sequencer's job).

    ``id_used_by``: the record that already carries ``m``'s message id, if one does (a message id
    names one message; a table that sends another under it is refused, § "Bounds").
    """
    if isinstance(m, Broken):
        return refused(m, m.field, m.reason)
    if id_used_by is not None:
        why = (
            f"message id {m.message_id} is already that of record {id_used_by}: a message id names one "
            "message; nothing of this one is applied"
        )
        return refused(m, "message_id", why)
    linked = config.tables[m.table].progressives
    p = m.payload
    if isinstance(p, Declaration):
        return _declaration(config, m, p, linked)
    if isinstance(p, RamClear):  # it moves no money: clears.py decides it
        raise TypeError("a RAM clear is decided by meter/clears.py, not the ledger")
    t = ledger.table(m.table)
    pid = p.progressive
    if pid not in linked:  # the link's configuration changed since the table's declaration
        why = f"table {m.table!r} is not linked to progressive {pid!r} (its link: {', '.join(linked)})"
        return refused(m, "payload.progressive", why, pid if pid in ledger.progressives else None)
    if pid not in t.accepted:
        why = (
            f"table {m.table!r} has no accepted declaration of progressive {pid!r}"
            + (f" (its last was refused: {t.verdict.reason})" if t.verdict and not t.verdict.accepted else "")
            + "; nothing of it is applied: the table sends a declaration that agrees with the meter first"
        )
        return refused(m, "payload.progressive", why, pid if pid in ledger.progressives else None)
    state = ledger.progressives[pid]
    if isinstance(p, (Paid, Void)):
        return _close(ledger, m, p, state)
    if isinstance(p, Contribution):
        most = p.wagers * config.max_wager(pid)
        each = t.fixed_wager.get(pid)
        if each is not None and p.wagered != p.wagers * each:
            why = (
                f"{format_money(p.wagered)} on {p.wagers} wager(s) is not {p.wagers} x the "
                f"{format_money(each)} wager of {pid!r} its accepted declaration fixed; "
                "nothing of it is applied"
            )
            return refused(m, "payload.wagered", why, pid)
        if p.wagered > most:
            why = (
                f"{format_money(p.wagered)} on {p.wagers} wager(s) is more than the largest progressive "
                f"wager of {pid!r} ({format_money(config.max_wager(pid))} each, [progressives.{pid}] "
                "max_wager, from the Rules Submission) allows"
            )
            return refused(m, "payload.wagered", why, pid)
        done = progress(state.amount, state.carry, p.wagered, state.params.rate)
        to_meter, excess = ledger.raise_by(state, done.added)
        body = {
            **_envelope(m),
            "wagers": p.wagers,
            "wagered": format_money(p.wagered),
            "added": format_money(done.added),
            "carry": str(done.carry),
            "amount_before": format_money(state.amount),
            "amount_after": format_money(state.amount + to_meter),
        }
        if state.ceiling is not None:
            body["to_overflow"] = format_money(excess)
            body["overflow"] = state.overflow
        return Draft(CONTRIBUTION, pid, body)
    assert isinstance(p, Hit)
    terms = _judged(config, m.table, p)
    if isinstance(terms, Refused):
        return refused(m, terms.field, terms.reason, pid)
    paid = pay(terms, state.amount, state.params.reset)
    moved = from_overflow(state, paid.meter_after)
    extra = {} if state.ceiling is None else {"from_overflow": format_money(moved)}
    return Draft(
        AWARD,
        pid,
        {
            **extra,
            **_envelope(m),
            "seat": p.seat,
            "hand": p.hand,
            "hit_wall_ns": p.hit_wall_ns,
            "cards": list(p.cards),
            "award": terms.to_json(),
            "award_seq": ledger.award_count + 1,
            "handshake": True,  # closed by the table's paid or void (docs/progressive-link.md)
            "meter_before": format_money(state.amount),
            "paid": format_money(paid.paid),
            "meter_after": format_money(paid.meter_after + moved),
        },
    )


def _close(ledger: Ledger, m: TableMessage, p: Paid | Void, state: ProgressiveState) -> Draft:
    """The table's ``paid`` or ``void`` of its hit ``p.hit_seq``: the meter's award of it closed
    (the lock ends), or the meter's refusal of the claim closed (the floorperson settled it at
    the table); anything else is refused, naming the field."""
    key = (m.table, p.hit_seq)
    award = ledger.open_awards.get(key)
    body: dict[str, Any] = {**_envelope(m), "hit_seq": p.hit_seq}
    if isinstance(p, Paid):
        body["paid"] = format_money(p.paid)
    else:
        body["reason"] = p.reason
    if award is None:
        if key in ledger.refused_hits:
            return Draft(p.kind, state.id, {**body, "award_seq": None})
        why = (
            f"seq {p.hit_seq} of table {m.table!r} is no claim of progressive {state.id!r} the meter "
            "awarded or refused and the table has not closed"
        )
        return refused(m, "payload.hit_seq", why, state.id)
    if award.progressive != state.id:
        why = f"hit {p.hit_seq} was awarded on {award.progressive!r}, not {state.id!r}"
        return refused(m, "payload.progressive", why, state.id)
    body["award_seq"] = award.award_seq
    body["award_record"] = award.record_seq
    if isinstance(p, Paid):
        if p.by_floorperson:
            # Settled at the table while the meter was away: the hand pay is the table's fact, the
            # award the meter's; both kept, for the audit (the meter's amount is the award's).
            body["by_floorperson"] = True
            body["award_paid"] = format_money(award.paid)
        elif p.paid != award.paid:
            why = (
                f"award {award.award_seq} paid {format_money(award.paid)}; the table says "
                f"{format_money(p.paid)}: the meter's award is what the player is paid"
            )
            return refused(m, "payload.paid", why, state.id)
        return Draft(PAID, state.id, body)
    returned = max(0, award.meter_before - award.meter_after)
    body["returned"] = format_money(returned)
    body["amount_before"] = format_money(state.amount)
    if state.ceiling is not None:
        body["to_overflow"] = format_money(ledger.raise_by(state, returned)[1])
    return Draft(VOID, state.id, body)


def _judged(config: MeterConfig, table: str, hit: Hit) -> Share | Fixed | Refused:
    """The meter's own terms for ``hit`` (meter/claims.py), or why it refuses it: every progressive
    has its paytable at the meter (meter/config.py), and a claim's terms are never trusted."""
    paytable = config.paytables[hit.progressive]
    return judge(paytable.ranking, paytable.rows, config.tables[table].seats, table, hit)


def _declaration(config: MeterConfig, m: TableMessage, p: Declaration, linked: tuple[str, ...]) -> Draft:
    problems: list[tuple[str, str]] = []
    for pid, declared in sorted(p.progressives.items()):
        where = f"payload.progressives.{pid}"
        mine = config.progressives.get(pid)
        if mine is None:
            problems.append(
                (
                    where,
                    f"progressive {pid!r} is not on this meter "
                    f"(its progressives: {', '.join(sorted(config.progressives))})",
                )
            )
            continue
        if pid not in linked:
            problems.append(
                (
                    where,
                    f"table {m.table!r} is not linked to progressive {pid!r} (its link: {', '.join(linked)})",
                )
            )
            continue
        if declared.wager is not None and declared.wager > config.max_wager(pid):
            problems.append(
                (
                    f"{where}.wager",
                    f"the table's Rules Submission says one wager is {format_money(declared.wager)}, "
                    f"more than the largest progressive wager the meter takes ([progressives.{pid}] "
                    f"max_wager {format_money(config.max_wager(pid))})",
                )
            )
        for name, theirs, ours in (
            ("initial", format_money(declared.initial), format_money(mine.initial)),
            ("reset", format_money(declared.reset), format_money(mine.reset)),
            (
                "rate_of_progression",
                wf.format_percent(declared.rate) + "%",
                wf.format_percent(mine.rate) + "%",
            ),
        ):
            if theirs != ours:
                problems.append(
                    (
                        f"{where}.{name}",
                        f"the table's Rules Submission says {name} {theirs}, the meter's link configuration "
                        f"[progressives.{pid}] says {ours}",
                    )
                )
    body: dict[str, Any] = {
        **_envelope(m),
        "declared": {k: v.to_json() for k, v in sorted(p.progressives.items())},
        "accepted": not problems,
        "field": problems[0][0] if problems else None,
        "reason": clip("; ".join(f"{f}: {why}" for f, why in problems), MAX_REASON) if problems else None,
    }
    return Draft(DECLARATION, None, body)


def reply(
    record: Record, ledger_award_terms: Mapping[str, Any] | None = None
) -> Award | Refusal | Closed | None:
    """What the meter tells the table about ``record`` on its reply topic (``None``: only the ack)."""
    b = record.body
    assert record.table_id is not None and record.table_seq is not None and record.message_id is not None
    if record.kind == AWARD:
        return Award(
            record.table_id,
            record.table_seq,
            record.message_id,
            str(record.progressive),
            int(b["award_seq"]),
            record.seq,
            _terms(b["award"]),
            wf.money(b["paid"], "paid"),
            wf.money(b["meter_before"], "meter_before"),
            wf.money(b["meter_after"], "meter_after"),
        )
    if record.kind in CLOSES:
        award_seq = b.get("award_seq")
        return Closed(
            record.table_id,
            record.table_seq,
            record.message_id,
            str(record.progressive),
            int(b["hit_seq"]),
            "paid" if record.kind == PAID else "void",
            None if award_seq is None else int(award_seq),
            record.seq,
        )
    if record.kind == REFUSED or (record.kind == DECLARATION and not b["accepted"]):
        return Refusal(
            record.table_id, record.table_seq, record.message_id, str(b["field"]), str(b["reason"])
        )
    return None
