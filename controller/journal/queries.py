"""Reading a journal through any connection: records, recovery, the last rounds, the outbox.

Blocking SQLite reads; each query that must see one snapshot runs in one read transaction
(WAL: readers never block the writer). Everything unreadable is :class:`JournalCorrupt`
naming the seq.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from controller.rules.core.dispatch import did_you_mean

from .errors import UNREADABLE, JournalCorrupt
from .link_count import FROM_START, LinkCount
from .outbox import OutboxEntry
from .records import (
    CONFIG_LOADED,
    DEVICE_KINDS,
    DEVICE_SERVICE,
    KINDS,
    LOCK_KINDS,
    RAM_CLEAR,
    ROUND_BEGIN,
    ROUND_CLOSES,
    FoldError,
    JournalRecord,
)
from .rounds import RoundSummary
from .schema import COLUMNS, OUTBOX_COLUMNS
from .state import RECENT_ROUNDS, TableState

_FACTS_BEFORE: Final = f"""
SELECT {COLUMNS} FROM events WHERE seq IN (
    SELECT max(seq) FROM events WHERE seq < :start AND kind IN ({", ".join(f"'{k}'" for k in LOCK_KINDS)})
    UNION ALL
    SELECT max(seq) FROM events WHERE seq < :start AND kind = '{CONFIG_LOADED}'
    UNION ALL
    SELECT max(seq) FROM events WHERE seq < :start AND kind = '{RAM_CLEAR}'
    UNION ALL
    SELECT max(seq) FROM events WHERE seq < :start AND kind IN ({", ".join(f"'{k}'" for k in DEVICE_KINDS)})
        GROUP BY json_extract(body, '$.device')
    UNION ALL
    SELECT max(seq) FROM events WHERE seq < :start AND kind = '{DEVICE_SERVICE}'
        GROUP BY json_extract(body, '$.device')
) ORDER BY seq
"""


# --- reading (any connection) ------------------------------------------------------------------


def canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True)


def dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _record(row: Sequence[Any], path: Path) -> JournalRecord:
    seq = row[0]
    try:
        body = json.loads(row[8])
    except (TypeError, ValueError) as exc:
        raise JournalCorrupt(f"{path}: seq {seq}: the record's body is not JSON ({exc})") from None
    if not isinstance(body, dict):
        raise JournalCorrupt(f"{path}: seq {seq}: the record's body is not a JSON object")
    if row[7] not in KINDS:
        hint = did_you_mean(str(row[7]), KINDS)
        raise JournalCorrupt(f"{path}: seq {seq}: unknown kind of record {row[7]!r}{hint}")
    ints = (row[0], row[2], row[3])
    if not all(isinstance(v, int) for v in ints) or not all(isinstance(v, str) for v in (row[1], row[4])):
        raise JournalCorrupt(f"{path}: seq {seq}: a record with garbage in its columns: {tuple(row[:8])!r}")
    return JournalRecord(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], body)


def query(
    conn: sqlite3.Connection, path: Path, sql: str, params: Sequence[object] | Mapping[str, object] = ()
) -> list[Any]:
    try:
        return conn.execute(sql, params).fetchall()
    except UNREADABLE as exc:
        raise JournalCorrupt(f"{path}: cannot read the journal: {exc}") from None


def select_records(
    conn: sqlite3.Connection,
    path: Path,
    where: str = "",
    params: Sequence[object] | Mapping[str, object] = (),
) -> list[JournalRecord]:
    rows = query(conn, path, f"SELECT {COLUMNS} FROM events {where}", params)
    return [_record(row, path) for row in rows]


def _check_contiguous(records: Sequence[JournalRecord], first: int, path: Path) -> None:
    for expected, record in enumerate(records, start=first):
        if record.seq != expected:
            raise JournalCorrupt(
                f"{path}: seq {expected} is missing (the next record is seq {record.seq}): "
                "the journal has a gap"
            )


def last_seq(conn: sqlite3.Connection, path: Path) -> int:
    row = query(conn, path, "SELECT coalesce(max(seq), 0) FROM events")[0]
    return int(row[0])


def _recovery_records(conn: sqlite3.Connection, path: Path) -> list[JournalRecord]:
    """The records recovery folds: from the round before the last :data:`RECENT_ROUNDS`, and
    before that only the latest fact of each kind (the state keeps nothing older)."""
    row = query(
        conn,
        path,
        "SELECT seq FROM events WHERE kind = ? ORDER BY seq DESC LIMIT 1 OFFSET ?",
        (ROUND_BEGIN, RECENT_ROUNDS),
    )
    start = int(row[0][0]) if row else 1
    facts: list[JournalRecord] = []
    if start > 1:
        rows = query(conn, path, _FACTS_BEFORE, {"start": start})
        facts = [_record(r, path) for r in rows]
    tail = select_records(conn, path, "WHERE seq >= ? ORDER BY seq", (start,))
    _check_contiguous(tail, start, path)
    last = last_seq(conn, path)
    if (tail[-1].seq if tail else start - 1) != last:
        raise JournalCorrupt(f"{path}: the last record is seq {last}, but the records stop before it")
    return facts + tail


def fold(table_id: str, records: Iterable[JournalRecord], path: Path) -> TableState:
    try:
        return TableState.fold(table_id, records)
    except FoldError as exc:
        raise JournalCorrupt(f"{path}: {exc}") from None


def recover(conn: sqlite3.Connection, path: Path, table_id: str) -> TableState:
    with read_snapshot(conn, path):
        return fold(table_id, _recovery_records(conn, path), path)


def replay_all(conn: sqlite3.Connection, path: Path, table_id: str) -> TableState:
    """Every record folded from seq 1, checking there is no gap: slow on a long journal."""
    with read_snapshot(conn, path):
        records = select_records(conn, path, "ORDER BY seq")
        _check_contiguous(records, 1, path)
        outbox = query(conn, path, "SELECT seq FROM outbox ORDER BY seq")
        for expected, (seq,) in enumerate(outbox, start=1):
            if seq != expected:
                raise JournalCorrupt(f"{path}: outbox message seq {expected} is missing")
        return fold(table_id, records, path)


@contextlib.contextmanager
def read_snapshot(conn: sqlite3.Connection, path: Path) -> Iterator[None]:
    """One read transaction: several queries see one snapshot while the writer goes on.

    The ``COMMIT`` that ends it runs only if the reads succeeded: after a failure it is a quiet
    ``ROLLBACK``, so a damaged page's :class:`JournalCorrupt` is what the caller sees (a
    ``COMMIT`` in a ``finally`` used to replace it with SQLite's own error). A ``BEGIN`` or
    ``COMMIT`` that fails on a damaged file is :class:`JournalCorrupt` too.
    """
    began = not conn.in_transaction
    if began:
        query(conn, path, "BEGIN")
    try:
        yield
    except BaseException:
        if began and conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise
    if began and conn.in_transaction:
        query(conn, path, "COMMIT")


def recent_rounds(conn: sqlite3.Connection, path: Path, n: int) -> list[RoundSummary]:
    if n < 1:
        raise ValueError(f"the number of rounds is at least 1, not {n}")
    with read_snapshot(conn, path):
        begins = select_records(conn, path, "WHERE kind = ? ORDER BY seq DESC LIMIT ?", (ROUND_BEGIN, n))
        out = []
        for begin in begins:
            end = select_records(
                conn, path, "WHERE round_id = ? AND kind IN (?, ?)", (begin.round_id, *ROUND_CLOSES)
            )
            out.append(
                RoundSummary.of(
                    begin.round_id or "",
                    str(begin.body.get("game", "")),
                    begin.seq,
                    begin.wall_ns,
                    end[0] if end else None,
                )
            )
        return out


def outbox_entries(
    conn: sqlite3.Connection,
    path: Path,
    table_id: str,
    where: str,
    params: Sequence[object],
    count: LinkCount = FROM_START,
) -> list[OutboxEntry]:
    """The outbox messages ``where`` selects, numbered as the link counts them (``count``)."""
    rows = query(
        conn,
        path,
        f"SELECT {OUTBOX_COLUMNS} FROM outbox o JOIN events e ON e.seq = o.event_seq {where}",
        params,
    )
    out = []
    for seq, message_id, event_seq, event_id, round_id, kind, payload, sent, event_hash in rows:
        try:
            body = json.loads(payload)
        except (TypeError, ValueError) as exc:
            raise JournalCorrupt(f"{path}: outbox seq {seq}: the payload is not JSON ({exc})") from None
        out.append(
            OutboxEntry(
                table_id,
                count.link_outbox_seq(seq),
                message_id,
                count.link_seq(event_seq),
                event_id,
                round_id,
                kind,
                body,
                sent,
                str(event_hash),
            )
        )
    return out
