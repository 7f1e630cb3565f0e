"""A round recalled from the journal, for ``tablectl recall`` and disputes.

The round's records, its round record (docs/round-record.md, "events" form, which ``tablectl
replay`` replays), the settlement the rules core gives its events today, and the floorperson's
verifications of its flagged payouts.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..rules.core.hooks import in_words
from ..rules.core.record import RECORD_VERSION
from ..rules.core.settlement import Settlement
from .errors import UnknownRound
from .queries import canonical, fold, read_snapshot, select_records
from .records import (
    PAYOUT_VERIFIED,
    ROUND_BEGIN,
    ROUND_CLOSES,
    ROUND_EVENT,
    WAGER_CHANGED,
    JournalRecord,
    normalized_body,
)
from .rounds import RoundSummary, meter_awards


@dataclass(frozen=True)
class RecalledRound:
    """One round out of the journal, for ``tablectl recall`` and disputes."""

    summary: RoundSummary
    records: tuple[JournalRecord, ...]
    """Every record made while the round was open: its events, refusals, commands, devices."""
    record: dict[str, object]
    """The round record (docs/round-record.md, "events" form) that ``tablectl replay`` replays."""
    replayed: Settlement | None
    """The settlement the rules core gives the events today; ``None`` while incomplete."""
    waiting_for: str = ""
    """What the round still waits for, if it is not complete."""
    verifications: tuple[JournalRecord, ...] = ()
    """The ``payout_verified`` records of the round's flagged payouts: made after it closed, while
    the next rounds were open, so not among :attr:`records`."""

    @property
    def consistent(self) -> bool:
        """The journaled settlement is the replayed one (true for a round still open)."""
        if self.summary.settlement is None:
            return True
        replayed = self.replayed.to_json() if self.replayed is not None else None
        return canonical(replayed) == canonical(self.summary.settlement)


def recall_round(conn: sqlite3.Connection, path: Path, table_id: str, round_id: str) -> RecalledRound:
    with read_snapshot(conn, path):
        records = select_records(conn, path, "WHERE round_id = ? ORDER BY seq", (round_id,))
        if not any(r.kind == ROUND_BEGIN for r in records):
            last = select_records(conn, path, "WHERE kind = ? ORDER BY seq DESC LIMIT 3", (ROUND_BEGIN,))
            known = ", ".join(repr(r.round_id) for r in last) or "none yet"
            raise UnknownRound(f"{path}: no round {round_id!r} in the journal (the last rounds: {known})")
        verifications = select_records(
            conn,
            path,
            "WHERE kind = ? AND json_extract(body, '$.round') = ? ORDER BY seq",
            (PAYOUT_VERIFIED, round_id),
        )
    begin = next(r for r in records if r.kind == ROUND_BEGIN)
    events = [r for r in records if r.kind == ROUND_EVENT]
    # A wager changed or removed before "no more bets" folds where it was made.
    changes = [r for r in records if r.kind in (ROUND_EVENT, WAGER_CHANGED)]
    end = next((r for r in records if r.kind in ROUND_CLOSES), None)
    # The same fold that accepted the events replays them.
    state = fold(table_id, [begin, *changes], path)
    assert state.current is not None
    if len(changes) != len(events):
        # The record holds the round's events as they stand after the change (one wager changed
        # or left out); the change itself, with its actor, is the journal's record.
        bodies = [normalized_body(e.to_json()) for e in state.current.round.events]
    else:
        bodies = [dict(e.body) for e in events]
    # What the round waits for, as the game declares it (its ``waiting_for`` hook).
    waiting = state.current.round.waiting_for()
    replayed: Settlement | None = None if waiting else state.current.settlement()
    waiting_for = in_words(waiting)
    awards = meter_awards(state.current.round.events)
    summary = RoundSummary.of(round_id, state.current.game, begin.seq, begin.wall_ns, end, awards)
    return RecalledRound(
        summary,
        tuple(records),
        _export(table_id, begin, events, bodies, end),
        replayed,
        waiting_for,
        tuple(verifications),
    )


def _export(
    table_id: str,
    begin: JournalRecord,
    events: Sequence[JournalRecord],
    bodies: Sequence[Mapping[str, object]],
    end: JournalRecord | None,
) -> dict[str, object]:
    last = end.seq if end is not None else (events[-1].seq if events else begin.seq)
    return {
        "record": "round",
        "version": RECORD_VERSION,
        "game": begin.body["game"],
        "table": table_id,
        "round": begin.round_id,
        "note": f"exported from the journal of table {table_id}, seq {begin.seq} to {last}",
        "rules": begin.body.get("rules", {}),
        "meters": begin.body.get("meters", {}),
        "events": [dict(b) for b in bodies],
    }
