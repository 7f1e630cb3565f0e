"""What ``tablectl`` prints of the daemon's answers: each one in the technician's words, one line a thing.

Pure functions of the JSON the local API returns (``status``, a round summary, a notification, a
sniffed frame); ``--json`` prints the JSON itself (docs/tablectl.md).
"""

from __future__ import annotations

import datetime
import json
import math
from collections.abc import Iterator, Mapping
from typing import Any


def when(wall_ns: object) -> str:
    if not isinstance(wall_ns, int):
        return "?"
    moment = datetime.datetime.fromtimestamp(wall_ns / 1e9, tz=datetime.UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")


def describe_status(status: Mapping[str, Any]) -> Iterator[str]:
    """The daemon's ``status`` in lines for a person."""
    yield f"table {status.get('table')}: {status.get('game')}, daemon version {status.get('version')}"
    current = status.get("round")
    if isinstance(current, Mapping):
        wagers = current.get("wagers") or []
        line = f"round {current.get('id')}: {len(wagers)} wager(s), {current.get('events')} event(s)"
        line += ", no more bets" if current.get("no_more_bets") else ", wagering open"
        yield line
        if current.get("waiting_for"):
            yield f"  waiting for: {current['waiting_for']}"
    else:
        yield "round: none open"
    yield "lock-out: " + ("locked (no more bets)" if status.get("locked_out") else "open")
    devices = status.get("devices") or {}
    yield "devices: " + (
        ", ".join(f"{name} {d.get('state')}" for name, d in sorted(devices.items())) or "none configured"
    )
    yield "link: " + describe_link(status.get("link"))
    unavailable = status.get("progressive_unavailable")
    if unavailable:
        yield (
            f"progressive wagering: UNAVAILABLE ({unavailable}): every seat's wager lamp blinks slowly, "
            "a chip on a sensor is not a wager; the base game goes on, and wagering returns by itself"
        )
    elif "progressive_unavailable" in status and _linked(status.get("link")):
        yield "progressive wagering: recognized (the central meter is heard)"
    pending = status.get("pending_payouts")
    if isinstance(pending, list) and pending:
        yield f"pending payouts (for a floorperson to verify): {len(pending)}"
        for payout in pending:
            yield "  " + describe_pending_payout(payout)
    else:
        yield "pending payouts: none"
    yield f"journal: seq {status.get('seq')}"


def _linked(link: object) -> bool:
    return isinstance(link, Mapping) and bool(link.get("configured")) and bool(link.get("enabled"))


def describe_link(link: object) -> str:
    """The progressive link to the central meter as the daemon's status gives it."""
    if not isinstance(link, Mapping) or not link.get("configured"):
        return "not configured"
    where = f"central meter at {link.get('host')}:{link.get('port')}"
    return f"{where}, {'enabled' if link.get('enabled') else 'disabled'}"


def describe_pending_payout(payout: object) -> str:
    """A settled payout waiting for a floorperson: round, seat, wager, net and its flags."""
    if not isinstance(payout, Mapping):
        return str(payout)
    line = f"round {payout.get('round')} seat {payout.get('seat')} {payout.get('wager')} {payout.get('net')}"
    flags = payout.get("flags")
    if isinstance(flags, list) and flags:
        line += " (" + ", ".join(map(str, flags)) + ")"
    award = payout.get("award")
    if isinstance(award, Mapping):
        line += "; " + describe_award(award)
    return line


def describe_award(award: Mapping[str, Any]) -> str:
    """The central meter's award a seat was paid from: which award of the meter, its record,
    the meter before and after, what it paid (a floorperson checks a hand pay against it)."""
    return (
        f"the central meter's award {award.get('award_seq')} (its record {award.get('meter_record')}): "
        f"paid {award.get('paid')} of the meter at {award.get('meter_before')}, "
        f"the meter after {award.get('meter_after')}"
    )


def describe_round(summary: Mapping[str, Any]) -> str:
    """A round in one line: id, game, status, when, each seat's net."""
    line = f"{summary.get('round')}  {summary.get('game')}  {summary.get('status'):<9}"
    line += f"  {when(summary.get('begin_wall_ns'))}"
    settlement = summary.get("settlement")
    if isinstance(settlement, Mapping):
        if settlement.get("void"):
            line += f"  void: {settlement['void']}"
        seats = settlement.get("seats") or {}
        for seat, wagers in seats.items():
            line += f"  seat {seat}: " + " ".join(f"{w} {v.get('net')}" for w, v in wagers.items())
    elif summary.get("reason"):
        line += f"  {summary['reason']}"
    return line


def describe_notification(topic: str, data: Mapping[str, Any]) -> str:
    if topic == "event":
        body = json.dumps(data.get("body", {}), separators=(",", ":"), ensure_ascii=False)
        where = f"round {data.get('round')} from {data.get('source')}"
        return f"event  seq {data.get('seq')} {data.get('kind')} {where}: {body}"
    if topic == "state":
        return "state  " + "; ".join(describe_status(data))
    return f"{topic:<6} " + json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def describe_frame(data: Mapping[str, Any], raw: bool = False) -> str:
    """One sniffed frame in a line: the time (UTC, to the millisecond), ``in`` (from the device) or
    ``out`` (to it), and the frame as text (``CRD|12|As``), or why it was refused; ``raw``: its
    bytes in hexadecimal instead."""
    at = data.get("time")
    if isinstance(at, int | float) and not isinstance(at, bool) and math.isfinite(at):
        moment = datetime.datetime.fromtimestamp(at, tz=datetime.UTC)
        when = moment.strftime("%H:%M:%S.") + f"{moment.microsecond // 1000:03d}"
    else:
        when = "??:??:??.???"
    direction = f"{data.get('direction')!s:<3}"
    hex_bytes = str(data.get("raw") or "")
    if raw:
        return f"{when} {direction} {hex_bytes}"
    frame = data.get("frame")
    if isinstance(frame, str):
        return f"{when} {direction} {frame}"
    broken = data.get("broken")
    reason, detail = (
        ("?", "") if not isinstance(broken, Mapping) else (broken.get("reason"), broken.get("detail"))
    )
    return f"{when} {direction} BROKEN {reason}: {detail} [{hex_bytes}]"
