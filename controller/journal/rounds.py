"""The rounds the table's state keeps: each closed round's summary, and the payouts that wait.

A :class:`RoundSummary` is a round as the dealer's and the technician's "last rounds" show it
(settled with its settlement, or cancelled with the reason); a :class:`PendingPayout` is a
settled payout flagged for a floorperson's verification (§ 633a.7(o)(2)(ii)(B),
§ 639a.11(c)(5)(iii)). Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..rules.core.events import Event
from ..rules.core.money import format_money
from .records import (
    ROUND_SETTLED,
    JournalRecord,
)

MeterAwards = Mapping[tuple[int, str], Mapping[str, object]]
"""(seat, wager) -> the central meter's award that seat was paid from (:func:`meter_awards`)."""


def meter_awards(events: Iterable[Event]) -> dict[tuple[int, str], dict[str, object]]:
    """The central meter's awards a round's seats were paid from: its seats' ``meter`` events
    from the link (which award of the meter, its record, the meter before and after, what it
    paid), so a floorperson validating a hand pay sees which award it is (§ 639a.11(c)(5)(iii))."""
    out: dict[tuple[int, str], dict[str, object]] = {}
    for e in events:
        if e.type != "meter" or e.seat is None or e.award_seq is None or e.name is None:
            continue
        award: dict[str, object] = {"award_seq": e.award_seq, "meter_record": e.meter_record}
        for key, cents in (("meter_before", e.amount), ("paid", e.paid), ("meter_after", e.meter_after)):
            award[key] = None if cents is None else format_money(cents)
        out[e.seat, e.name] = award
    return out


@dataclass(frozen=True)
class PendingPayout:
    """A settled payout that waits for a floorperson: its round, seat, wager, net and flags."""

    round_id: str
    seat: int
    wager: str
    net: str
    flags: tuple[str, ...]
    award: Mapping[str, object] | None = None
    """The central meter's award the payout is of (a linked progressive), else ``None``."""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "round": self.round_id,
            "seat": self.seat,
            "wager": self.wager,
            "net": self.net,
            "flags": list(self.flags),
        }
        if self.award is not None:
            out["award"] = dict(self.award)
        return out


@dataclass(frozen=True)
class RoundSummary:
    """A round in one line: for the last rounds and ``tablectl recall``."""

    round_id: str
    game: str
    begin_seq: int
    begin_wall_ns: int
    status: Literal["open", "settled", "cancelled"]
    end_seq: int | None = None
    end_wall_ns: int | None = None
    settlement: Mapping[str, Any] | None = None
    """The settlement JSON as journaled (docs/round-record.md), for a settled round."""
    reason: str = ""
    """Why the round was cancelled, or why its settlement is void."""
    awards: MeterAwards = field(default_factory=dict)
    """The central meter's awards its seats were paid from (:func:`meter_awards`)."""

    @classmethod
    def of(
        cls,
        round_id: str,
        game: str,
        begin_seq: int,
        begin_wall_ns: int,
        end: JournalRecord | None,
        awards: MeterAwards | None = None,
    ) -> RoundSummary:
        """The summary of a round begun at ``begin_seq`` and closed by ``end`` (``None``: open)."""
        a = dict(awards or {})
        if end is None:
            return cls(round_id, game, begin_seq, begin_wall_ns, "open", awards=a)
        if end.kind == ROUND_SETTLED:
            settlement = end.body.get("settlement")
            s = settlement if isinstance(settlement, Mapping) else None
            void = str(s.get("void", "")) if s is not None else ""
            return cls(round_id, game, begin_seq, begin_wall_ns, "settled", end.seq, end.wall_ns, s, void, a)
        reason = str(end.body.get("reason", ""))
        return cls(round_id, game, begin_seq, begin_wall_ns, "cancelled", end.seq, end.wall_ns, None, reason)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "round": self.round_id,
            "game": self.game,
            "status": self.status,
            "begin_seq": self.begin_seq,
            "begin_wall_ns": self.begin_wall_ns,
        }
        if self.end_seq is not None:
            out["end_seq"] = self.end_seq
            out["end_wall_ns"] = self.end_wall_ns
        if self.reason:
            out["reason"] = self.reason
        if self.settlement is not None:
            out["settlement"] = dict(self.settlement)
        if self.awards:
            out["awards"] = [{"seat": s, "wager": w, **a} for (s, w), a in sorted(self.awards.items())]
        return out


def settlement_lines(summary: RoundSummary) -> Iterable[tuple[int, str, Mapping[str, Any]]]:
    """(seat, wager, line) of a settled round's settlement JSON, in its order of settlement."""
    seats = (summary.settlement or {}).get("seats")
    if not isinstance(seats, Mapping):
        return
    for seat, wagers in seats.items():
        if not isinstance(wagers, Mapping) or not (str(seat).isascii() and str(seat).isdigit()):
            continue
        for wager, line in wagers.items():
            if isinstance(line, Mapping):
                yield int(seat), str(wager), line


def flags_of(line: Mapping[str, Any]) -> tuple[str, ...]:
    """A settlement line's flags (``floorperson_verification``, ...), whatever the JSON holds."""
    flags = line.get("flags", ())
    return tuple(str(f) for f in flags) if isinstance(flags, list | tuple) else ()
