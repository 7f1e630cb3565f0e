"""Progressive hits at a linked table: which seats the paytable pays from the meter, the claims
the table sends, and the ``meter`` events that settle the round from the meter's awards.

A linked table's round begins without the linked progressives' meters (the central meter
holds them), so the game waits for the meter (:class:`~controller.rules.hooks.Actor` ``METER``)
where a share of it is paid. Which seats those are is asked of the game itself: its round is
settled twice on two probe meters, and a progressive wager whose payout grows with the meter
(flagged not paid from the table inventory, § 639a.11(c)(5)(iv)) is a hit, its share the
growth's percentage. The table claims each hit (a ``hit`` message, committed with the event that
made it known) and the round stays PENDING until the meter's award comes; the award's
``meter_before`` (the meter as it stood when the player is paid, § 639a.12(d)(4)) is then
journaled as the round's ``meter`` event, source ``link``, so a replay gives the same result.
A round without a hit gets the meter's last amount (it changes no payout).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from wire import Award, Hit, Share

from ..journal.outbox import Outbound
from ..journal.state import OpenRound
from ..rules.engine import IllegalEvent, Round
from ..rules.events import Event
from ..rules.hooks import Actor
from ..rules.money import Cents
from ..rules.settlement import NOT_FROM_INVENTORY, Result

#: Two meters no real one reaches: a payout that follows them is a share of the meter.
PROBES: Final = (1_000_000_000, 2_000_000_000)


@dataclass(frozen=True)
class Claim:
    """A hit at the table: the seat, the progressive (the game's wager name), its share."""

    wager: str
    seat: int
    hand: str
    share: Fraction
    """Percent of the meter (``100`` for a royal flush's 100%)."""


def waits_for_meter(current: OpenRound) -> bool:
    """The round waits for the meter and nothing else."""
    waiting = current.round.waiting_for()
    return bool(waiting) and all(w.who == Actor.METER for w in waiting)


def _with_meters(rnd: Round[Any, Any], state: object, names: Iterable[str], amount: Cents) -> object:
    for name in names:
        try:
            state = rnd.game.apply(state, Event("meter", name=name, amount=amount))
        except IllegalEvent:
            continue  # a meter the round does not take (already known, or not offered)
    return state


def hits(rnd: Round[Any, Any], state: object, names: Iterable[str]) -> list[Claim]:
    """The seats of ``state`` whose progressive wager (one of ``names``) wins a share of the
    meter; empty if the round is not complete but for its meters."""
    names = tuple(names)
    nets: list[dict[tuple[int, str], tuple[int, str]]] = []
    for probe in PROBES:
        try:
            settled = rnd.game.settle(_with_meters(rnd, state, names, probe))
        except IllegalEvent:
            return []
        nets.append(
            {
                (o.seat, o.wager): (o.net, o.hand)
                for o in settled.outcomes
                if o.wager in names and o.result is Result.WIN and NOT_FROM_INVENTORY in o.flags
            }
        )
    low, high = nets
    out: list[Claim] = []
    for (seat, wager), (net, hand) in sorted(high.items()):
        grown = net - low.get((seat, wager), (net, ""))[0]
        if grown > 0:
            share = Fraction(grown * 100, PROBES[1] - PROBES[0])
            out.append(Claim(wager, seat, hand or "a share of the meter", share))
    return out


def claims_after(current: OpenRound, event: Event, meter_ids: Mapping[str, str]) -> list[Outbound]:
    """The ``hit`` messages ``event`` makes known (the round then waits only for the meter)."""
    rnd = current.round
    if event.type == "meter":
        return []
    try:
        after = rnd.game.apply(rnd.state, event)
    except IllegalEvent:
        return []  # refused: the journal says so, and sends nothing
    waiting = rnd.game.waiting_for(after)
    if not waiting or any(w.who != Actor.METER for w in waiting):
        return []
    return [
        Outbound("hit", Hit(meter_ids[c.wager], c.seat, c.hand[:200], Share(c.share)).to_json())
        for c in hits(rnd, after, meter_ids)
    ]


def meter_events(
    current: OpenRound,
    meter_ids: Mapping[str, str],
    awards: Mapping[str, Award] | None,
    amounts: Mapping[str, Cents],
) -> list[Event] | None:
    """The ``meter`` events that complete the round, or ``None`` while a hit's award is pending.

    ``awards``: the first award (lowest ``award_seq``) of each meter id among the round's claims,
    ``None`` if some claim has none yet. ``amounts``: each meter id's amount to use without a
    hit (the meter's last word, else its reset).
    """
    rnd = current.round
    claimed = {meter_ids[c.wager] for c in hits(rnd, rnd.state, meter_ids)}
    if claimed and awards is None:
        return None
    events: list[Event] = []
    state: object = rnd.state
    for wager, meter_id in meter_ids.items():
        if awards is not None and meter_id in awards:
            amount = awards[meter_id].meter_before
        elif meter_id in claimed:
            return None
        else:
            amount = amounts[meter_id]
        event = Event("meter", name=wager, amount=amount)
        try:
            state = rnd.game.apply(state, event)
        except IllegalEvent:
            continue
        events.append(event)
    return events
