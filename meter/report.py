"""What a technician reads: ``progressive-meter status`` and ``history`` (read-only, while it runs)."""

from __future__ import annotations

import datetime as dt
import fcntl
import json
import sqlite3
from pathlib import Path
from typing import Any

from wire import format_money

from .clears import RAM_CLEAR
from .config import MeterConfig
from .ledger import AWARD, CONTRIBUTION, DECLARATION, OPENED, PAID, REFUSED, VOID
from .store import iter_records, open_read_only


def _utc(wall_ns: int) -> str:
    return dt.datetime.fromtimestamp(wall_ns / 1e9, dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z"


def running_pid(store: Path) -> int | None:
    """The pid of the meter holding the store, if one does."""
    lock = store.with_name(store.name + ".lock")
    if not lock.exists():
        return None
    try:
        handle = open(lock)  # noqa: SIM115 - closed below; read-only is enough for flock
    except OSError:
        return None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            text = handle.read().strip()
            return int(text) if text.isdigit() else -1
        fcntl.flock(handle, fcntl.LOCK_UN)
    return None


def status(config: MeterConfig) -> dict[str, Any]:
    conn = open_read_only(config.store)
    try:
        conn.execute("BEGIN")
        last = conn.execute("SELECT coalesce(max(seq), 0) FROM records").fetchone()[0]
        progs = [
            {
                "progressive": r[0],
                "amount": format_money(r[1]),
                "contributions": r[2],
                "wagers": r[3],
                "wagered": format_money(r[4]),
                "awards": r[5],
                "paid": format_money(r[6]),
                "record_seq": r[7],
                "linked": r[0] in config.progressives,
            }
            for r in conn.execute(
                "SELECT id, amount, contributions, wagers, wagered, awards, paid, record_seq "
                "FROM progressive_state ORDER BY id"
            )
        ]
        has_overflow = conn.execute(
            "SELECT 1 FROM sqlite_schema WHERE name = 'overflow_state'"
        ).fetchone()  # a store the meter of this version has not yet opened has none
        if has_overflow:
            ceilings = {
                r[0]: {
                    "ceiling": format_money(r[1]),
                    "overflow": r[2],
                    "overflow_held": format_money(r[3]),
                    "over_ceiling": format_money(r[4]),
                }
                for r in conn.execute("SELECT id, ceiling, overflow, held, over_ceiling FROM overflow_state")
            }
            for p in progs:
                p.update(ceilings.get(p["progressive"], {}))
        tables = [
            {
                "table": r[0],
                "applied_seq": r[1],
                "verdict": json.loads(r[2]) if r[2] else None,
                "progressives": json.loads(r[3]),
            }
            for r in conn.execute("SELECT id, applied_seq, verdict, accepted FROM table_state ORDER BY id")
        ]
        clears = _ram_clears(conn)
        for t in tables:
            t["ram_clears"] = clears.get(t["table"], [])
        conn.execute("COMMIT")
    finally:
        conn.close()
    pid = running_pid(config.store)
    return {
        "link": config.link,
        "store": str(config.store),
        "records": last,
        "running": pid,
        "progressives": progs,
        "tables": tables,
        "tables_never_heard": sorted(set(config.tables) - {t["table"] for t in tables}),
    }


def _ram_clears(conn: sqlite3.Connection) -> dict[str, list[dict[str, Any]]]:
    """Every RAM clear each table told the meter of, oldest first (clears.py)."""
    out: dict[str, list[dict[str, Any]]] = {}
    rows = conn.execute(
        "SELECT seq, table_id, table_seq, body FROM records WHERE kind = ? ORDER BY seq", (RAM_CLEAR,)
    )
    for seq, table, table_seq, body in rows:
        b = json.loads(body)
        out.setdefault(table, []).append(
            {
                "record_seq": seq,
                "table_seq": table_seq,
                "previous": b["previous"],
                "by": b["by"],
                "cleared_at": _utc(int(b["cleared_wall_ns"])),
                "archive": b["archive"],
            }
        )
    return out


def _clear_words(c: dict[str, Any]) -> str:
    p = c["previous"]
    return (
        f"RAM clear by {c['by']} at {c['cleared_at']}: the journal restarted after seq {p['seq']} "
        f"(hash {p['hash'][:16]}), archived as {c['archive']}"
    )


def format_status(s: dict[str, Any]) -> str:
    run = f"running (pid {s['running']})" if s["running"] else "not running"
    lines = [f"link {s['link']}: meter {run}; store {s['store']}, {s['records']} records", ""]
    lines.append(
        f"{'progressive':<20} {'meter':>14} {'contributions':>13} {'wagered':>14} {'awards':>6} {'paid':>14}"
    )
    for p in s["progressives"]:
        note = "" if p["linked"] else "  (not in the configuration)"
        lines.append(
            f"{p['progressive']:<20} {p['amount']:>14} {p['contributions']:>13} {p['wagered']:>14} "
            f"{p['awards']:>6} {p['paid']:>14}{note}"
        )
        if "ceiling" in p:
            where = p["overflow"] or "its own overflow meter"
            lines.append(
                f"{'':<20} ceiling {p['ceiling']}: {p['over_ceiling']} past it to {where}"
                + ("" if p["overflow"] else f", which holds {p['overflow_held']}")
            )
    lines += ["", f"{'table':<20} {'applied seq':>11}  declaration"]
    for t in s["tables"]:
        v = t["verdict"]
        word = "none yet" if v is None else ("accepted" if v["accepted"] else f"REFUSED: {v['reason']}")
        lines.append(f"{t['table']:<20} {t['applied_seq']:>11}  {word}")
        for c in t.get("ram_clears", []):
            lines.append(f"{'':<20} {'':>11}  {_clear_words(c)} (record {c['record_seq']})")
    for name in s["tables_never_heard"]:
        lines.append(f"{name:<20} {'-':>11}  never heard from")
    return "\n".join(lines)


def history(
    config: MeterConfig,
    kinds: tuple[str, ...] = (),
    table: str | None = None,
    progressive: str | None = None,
    last: int = 20,
) -> list[dict[str, Any]]:
    conn = open_read_only(config.store)
    try:
        where, params = [], []
        if kinds:
            where.append(f"kind IN ({', '.join('?' for _ in kinds)})")
            params += list(kinds)
        if table:
            where.append("table_id = ?")
            params.append(table)
        if progressive:
            where.append("progressive = ?")
            params.append(progressive)
        clause = ("WHERE " + " AND ".join(where)) if where else ""
        row = conn.execute(
            f"SELECT seq FROM records {clause} ORDER BY seq DESC LIMIT 1 OFFSET ?",
            (*params, max(last - 1, 0)),
        ).fetchone()
        after = row[0] - 1 if row else 0
        out = []
        for record, _, _, digest in iter_records(conn, config.store, after):
            if (kinds and record.kind not in kinds) or (table and record.table_id != table):
                continue
            if progressive and record.progressive != progressive:
                continue
            out.append(
                {
                    "seq": record.seq,
                    "at": _utc(record.wall_ns),
                    "kind": record.kind,
                    "table": record.table_id,
                    "table_seq": record.table_seq,
                    "progressive": record.progressive,
                    "body": dict(record.body),
                    "hash": digest,
                }
            )
        return out
    except sqlite3.DatabaseError as exc:
        raise SystemExit(f"{config.store}: cannot read the history: {exc}") from None
    finally:
        conn.close()


def _summary(r: dict[str, Any]) -> str:
    b = r["body"]
    k = r["kind"]
    if k == OPENED:
        cap = "" if b.get("ceiling") is None else f", ceiling {b['ceiling']}, overflow {_overflow(b)}"
        return f"opened at {b['initial']} (reset {b['reset']}, rate {b['rate_of_progression']}{cap})"
    if k == CONTRIBUTION:
        meter = f"meter {b['amount_before']} -> {b['amount_after']}"
        past = (
            f", {b['to_overflow']} past the ceiling to {_overflow(b)}"
            if b.get("to_overflow", "0.00") != "0.00"
            else ""
        )
        return f"{b['wagers']} wager(s), {b['wagered']}: +{b['added']}, {meter}{past}"
    if k == AWARD:
        terms = b["award"]
        what = f"{terms['share']}% of meter" if "share" in terms else f"fixed {terms['fixed']}"
        return (
            f"award #{b['award_seq']} seat {b['seat']} {b['hand']}: {what}, paid {b['paid']}, "
            f"meter {b['meter_before']} -> {b['meter_after']}"
            + (
                f" ({b['from_overflow']} of it from the overflow)"
                if b.get("from_overflow", "0.00") != "0.00"
                else ""
            )
        )
    if k == DECLARATION:
        return "declaration accepted" if b["accepted"] else f"declaration REFUSED: {b['reason']}"
    if k == REFUSED:
        return f"{b['message_kind']} refused: {b['field']}: {b['reason']}"
    if k == RAM_CLEAR:
        when = {"cleared_at": _utc(int(b["cleared_wall_ns"]))}
        return _clear_words({**b, **when})
    if k in (PAID, VOID):
        award = "a refused claim" if b["award_seq"] is None else f"award #{b['award_seq']}"
        if k == PAID:
            return f"paid {b['paid']}: hit seq {b['hit_seq']}, {award} closed"
        back = f", {b['returned']} back on the meter" if b.get("returned") else ""
        return f"void: hit seq {b['hit_seq']}, {award} closed{back}: {b['reason']}"
    return json.dumps(b)


def _overflow(body: dict[str, Any]) -> str:
    return str(body.get("overflow") or "its own overflow meter")


def format_history(rows: list[dict[str, Any]]) -> str:
    lines = []
    for r in rows:
        who = f"{r['table']}#{r['table_seq']}" if r["table"] else "-"
        lines.append(
            f"{r['seq']:>8} {r['at']} {r['kind']:<12} {who:<18} {r['progressive'] or '-':<16} {_summary(r)}"
        )
    return "\n".join(lines) if lines else "no records"
