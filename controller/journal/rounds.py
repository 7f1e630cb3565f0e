"""The rounds the table's state keeps: each closed round's summary, and the payouts that wait.

A :class:`RoundSummary` is a round as the dealer's and the technician's "last rounds" show it
(settled with its settlement, or cancelled with the reason); a :class:`PendingPayout` is a
settled payout flagged for a floorperson's verification (§ 633a.7(o)(2)(ii)(B),
§ 639a.11(c)(5)(iii)). Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .records import (
    ROUND_SETTLED,
    JournalRecord,
)


@dataclass(frozen=True)
class PendingPayout:
    """A settled payout that waits for a floorperson: its round, seat, wager, net and flags."""

    round_id: str
    seat: int
    wager: str
    net: str
    flags: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "round": self.round_id,
            "seat": self.seat,
            "wager": self.wager,
            "net": self.net,
            "flags": list(self.flags),
        }


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

    @classmethod
    def of(
        cls, round_id: str, game: str, begin_seq: int, begin_wall_ns: int, end: JournalRecord | None
    ) -> RoundSummary:
        """The summary of a round begun at ``begin_seq`` and closed by ``end`` (``None``: open)."""
        if end is None:
            return cls(round_id, game, begin_seq, begin_wall_ns, "open")
        if end.kind == ROUND_SETTLED:
            settlement = end.body.get("settlement")
            s = settlement if isinstance(settlement, Mapping) else None
            void = str(s.get("void", "")) if s is not None else ""
            return cls(round_id, game, begin_seq, begin_wall_ns, "settled", end.seq, end.wall_ns, s, void)
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
        return out


def settlement_lines(summary: RoundSummary) -> Iterable[tuple[int, str, Mapping[str, Any]]]:
    """(seat, wager, line) of a settled round's settlement JSON, in its order of settlement."""
    seats = (summary.settlement or {}).get("seats")
    if not isinstance(seats, Mapping):
        return
    for seat, wagers in seats.items():
        if not isinstance(wagers, Mapping) or not str(seat).isdigit():
            continue
        for wager, line in wagers.items():
            if isinstance(line, Mapping):
                yield int(seat), str(wager), line


def flags_of(line: Mapping[str, Any]) -> tuple[str, ...]:
    """A settlement line's flags (``floorperson_verification``, ...), whatever the JSON holds."""
    flags = line.get("flags", ())
    return tuple(str(f) for f in flags) if isinstance(flags, list | tuple) else ()
