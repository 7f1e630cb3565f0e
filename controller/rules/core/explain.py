"""``tablectl replay --explain``: a round told in words, citing the sections.

For a floorperson or a lab engineer replaying a disputed hand (the reconstruction
of § 639a.11(d)): the rules in
force, every event in order, then each wager's settlement in the order the
dealer settles them, with the hand, the reason and the section.
"""

from __future__ import annotations

from collections.abc import Iterator

from .money import format_money, format_net
from .options import rules_to_mapping
from .record import Record
from .settlement import Settlement


def explain(record: Record, settlement: Settlement) -> Iterator[str]:
    game = record.game
    head = f"{game.title} ({game.chapter})"
    if record.table or record.round:
        head += f", table {record.table or '?'}, round {record.round or '?'}"
    yield head
    yield "Rules in force:"
    for key, value in rules_to_mapping(record.rules).items():
        yield f"  {key} = {value}"
    if record.meters:
        yield "Meters at the start: " + ", ".join(f"{k} {format_money(v)}" for k, v in record.meters.items())
    yield "Events:"
    for i, event in enumerate(record.events, start=1):
        yield f"  {i:>3}. {event}"
    if settlement.void:
        yield f"Round void: {settlement.void}"
    if settlement.dealer:
        yield f"Dealer: {settlement.dealer}"
    yield "Settlement, in the order the dealer settles (from the dealer's right):"
    for o in settlement.outcomes:
        line = f"  seat {o.seat} {o.wager}: {o.result} {format_net(o.net)} on {format_money(o.stake)}"
        if o.hand:
            line += f"; {o.hand}"
        if o.note:
            line += f"; {o.note}"
        if o.section:
            line += f" ({o.section})"
        yield line
        for flag in o.flags:
            yield f"      ! {flag.replace('_', ' ')}"
    if settlement.meters:
        yield "Meters after: " + ", ".join(f"{k} {format_money(v)}" for k, v in settlement.meters.items())
