"""Progressive hits at a linked table: which seats the paytable pays from the meter, the claims the
table sends, and the ``meter`` events that settle the round from the meter's awards.

A linked table's round begins without the linked progressives' meters (the central meter holds
them), so the game waits for the meter (:class:`~controller.rules.core.hooks.Actor` ``METER``)
where a share of it is paid. Which seats those are is asked of the game itself: its round is
settled on probe meters, one seat at a time (each seat given the meter when it is paid, a
``meter`` event with its ``seat``, :mod:`controller.rules.core.meter_turns`), and a seat whose
progressive wagers' payouts grow with its own meter is a hit, its share the growth's percentage:
paid from the table inventory or not (§ 639a.11(c)(5)(iv); a Bad Beat's 10% is paid from it,
§ 633a.7(o)(2)(ii)(C)), a share comes off the linked meter, so the meter must award it. Probing
each seat alone finds a hit the seat before it would hide (a 10% share paid after a 100% award
on the reset meter), and its share of the whole: players sharing a 100% award
(§ 633a.7(o)(2)(ii)(C)) are paid from the first one's meter, so that one claims the 100% and the
others nothing. The claims go out in the order the rules pay them (the settlement's order:
§ 639a.11(c), from the dealer's right), committed with the event that made them known, and the
round stays PENDING until every award has come. Each seat is then paid from its own award's
``meter_before`` (the meter as it stood when that player is paid, § 639a.12(d)(4),
§ 659a.11(h)(3)(ii)(D)): the round's ``meter`` event (the first award's, or the meter's last
amount without a hit) and one ``meter`` event per claim with its seat, source ``link``, so a
replay gives the same result.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from wire import Award, Hit, Share
from wire.fields import MAX_CARDS

from ..journal.outbox import Outbound
from ..journal.state import OpenRound
from ..rules.core.engine import IllegalEvent, Round
from ..rules.core.events import Event
from ..rules.core.hooks import Actor
from ..rules.core.money import Cents
from ..rules.core.settlement import Outcome, Result
from .outbound import to_meter

#: Two meters no real one reaches: a payout that follows them is a share of the meter. Both are
#: divisible by 100 x 420 (every seat count to 7), so players sharing a meter equally, or a whole
#: percent of it, leave no odd cent to blur the share.
PROBES: Final = (1_008_000_000, 2_016_000_000)


@dataclass(frozen=True)
class Claim:
    """A hit at the table: the seat, the progressive (the game's wager name), its share."""

    wager: str
    seat: int
    hand: str
    share: Fraction
    """Percent of the meter when the seat is paid (``100`` for a royal flush's 100%)."""


def waits_for_meter(current: OpenRound) -> bool:
    """The round waits for the meter and nothing else."""
    waiting = current.round.waiting_for()
    return bool(waiting) and all(w.who == Actor.METER for w in waiting)


def _apply(rnd: Round[Any, Any], state: object, event: Event) -> object:
    try:
        return rnd.game.apply(state, event)
    except IllegalEvent:
        return state  # a meter the round does not take (already known, or not offered)


def _probed(
    rnd: Round[Any, Any], state: object, names: tuple[str, ...], seats: Mapping[tuple[str, int], Cents]
) -> list[Outcome] | None:
    """The outcomes of ``names`` with every meter at the low probe but each seat's own in
    ``seats``; ``None`` if the round is not complete but for its meters."""
    for name in names:
        state = _apply(rnd, state, Event("meter", name=name, amount=PROBES[0]))
    for (name, seat), amount in seats.items():
        state = _apply(rnd, state, Event("meter", name=name, amount=amount, seat=seat))
    try:
        settled = rnd.game.settle(state)
    except IllegalEvent:
        return None
    return [o for o in settled.outcomes if o.wager in names]


def hits(rnd: Round[Any, Any], state: object, names: Iterable[str]) -> list[Claim]:
    """The seats of ``state`` whose progressive wager (one of ``names``) wins a share of the
    meter, in the order the rules pay them; empty if the round is not complete but for its
    meters."""
    names = tuple(names)
    wagers = (e for e in rnd.events if e.type == "wager" and e.wager in names and e.seat is not None)
    placed = sorted({(str(e.wager), int(e.seat or 0)) for e in wagers})
    low = dict.fromkeys(placed, PROBES[0])
    base = _probed(rnd, state, names, low)
    if base is None:
        return []
    order = {(o.wager, o.seat): i for i, o in enumerate(base)}
    out: list[tuple[int, Claim]] = []
    for wager, seat in placed:
        high = _probed(rnd, state, names, {**low, (wager, seat): PROBES[1]})
        if high is None:
            continue
        # What the seat's own meter moves: its payout, and those of the players sharing it with it.
        grown = sum(o.net for o in high if o.wager == wager) - sum(o.net for o in base if o.wager == wager)
        won = next((o for o in high if (o.wager, o.seat) == (wager, seat)), None)
        if grown > 0 and won is not None and won.result is Result.WIN:
            share = Fraction(grown * 100, PROBES[1] - PROBES[0])
            claim = Claim(wager, seat, won.hand or "a share of the meter", share)
            out.append((order.get((wager, seat), len(order)), claim))
    return [claim for _, claim in sorted(out, key=lambda pair: pair[0])]


def claims_after(current: OpenRound, event: Event, meter_ids: Mapping[str, str]) -> list[Outbound]:
    """The ``hit`` messages ``event`` makes known (the round then waits only for the meter), in
    the order the rules pay them: the meter awards them in the order it receives them."""
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
    made_known = time.time_ns()  # the table's own hit time, kept in the meter's history
    return [
        to_meter(
            Hit(
                meter_ids[c.wager],
                c.seat,
                c.hand[:200],
                Share(c.share),
                hit_wall_ns=made_known,
                cards=seat_cards(rnd, c.seat),
            )
        )
        for c in hits(rnd, after, meter_ids)
    ]


def seat_cards(rnd: Round[Any, Any], seat: int) -> tuple[str, ...]:
    """The cards the seat's hand is made of, as the round recorded them (the seat's own and the
    board's): the meter checks they make the row claimed (docs/progressive-link.md)."""
    out: list[str] = []
    for e in rnd.events:
        if e.type == "cards" and (e.to == str(seat) or e.to == "board"):
            out.extend(str(c) for c in e.cards)
    return tuple(out[:MAX_CARDS])


def meter_events(
    current: OpenRound,
    meter_ids: Mapping[str, str],
    awards: Mapping[tuple[str, int], Award] | None,
    amounts: Mapping[str, Cents],
    by_floor: Mapping[tuple[str, int], tuple[Cents, str]] | None = None,
) -> list[Event] | None:
    """The ``meter`` events that complete the round, or ``None`` while a hit's award is pending.

    ``awards``: the award of each of the round's claims by (meter id, seat), ``None`` if some
    claim has none yet. ``amounts``: each meter id's amount to use without a hit (the meter's last
    word, else its reset). Each claimed seat gets its own award's meter (§ 639a.12(d)(4)).
    ``by_floor``: claims a floorperson settles instead (the meter refused them or did not award
    them in time): (meter id, seat) -> the meter the floorperson verified, and the reason.
    """
    rnd = current.round
    claims = hits(rnd, rnd.state, meter_ids)
    got = awards or {}
    floor = by_floor or {}
    if any(
        (meter_ids[c.wager], c.seat) not in got and (meter_ids[c.wager], c.seat) not in floor for c in claims
    ):
        return None
    events: list[Event] = []
    state: object = rnd.state

    def meter_of(c: Claim) -> Cents:
        key = (meter_ids[c.wager], c.seat)
        return got[key].meter_before if key in got else floor[key][0]

    for wager, meter_id in meter_ids.items():
        first = next((c for c in claims if c.wager == wager), None)
        amount = meter_of(first) if first is not None else amounts[meter_id]
        event = Event("meter", name=wager, amount=amount)
        try:
            state = rnd.game.apply(state, event)
        except IllegalEvent:
            continue
        events.append(event)
    for c in claims:
        key = (meter_ids[c.wager], c.seat)
        if key in got:
            award = got[key]
            # The award whole, for the record: which award of the meter, its record, what it paid
            # and where it left the meter (a floorperson validating the hand pay reads them on status).
            event = Event(
                "meter",
                name=c.wager,
                amount=award.meter_before,
                seat=c.seat,
                award_seq=award.award_seq,
                meter_record=award.record_seq,
                paid=award.paid,
                meter_after=award.meter_after,
            )
        else:
            verified, reason = floor[key]
            event = Event("meter", name=c.wager, amount=verified, seat=c.seat, detail=reason)
        state = rnd.game.apply(state, event)  # IllegalEvent: a claim the round cannot take, a bug
        events.append(event)
    return events
