"""What the table asks of the game, each question in one place.

The daemon's parts ask the game what one chip on a wagering device is, which progressives and
meters a round begins with, what a round still waits for, and which hand of a seat a shoe's card
goes to. Each answer comes from the game's hooks (:class:`~controller.rules.core.engine.Game`,
:mod:`controller.rules.core.hooks`): ``progressives(rules)``, ``waiting_for(state)``,
``open_decisions(state)``, ``hand_dealt_to(state, seat)``, ``house_way(state)``; this module is
where the daemon calls them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..journal.state import OpenRound, TableState
from ..rules.core.events import Event
from ..rules.core.hooks import Actor, HouseWaySetting, Progressive, Step, Waiting, in_words
from ..rules.core.money import Cents, parse_money
from ..rules.core.submission import Submission

#: The sensor-counted progressive wager's name in the rules core (Caribbean Stud, Three Card
#: Poker, Hold 'Em Bonus, Fortune Asia Poker); the name a sensed chip is wagered under when the
#: game declares no sensor-counted progressive (the rules then refuse it, naming the game).
PROGRESSIVE: Final = "progressive"


def progressives(submission: Submission) -> tuple[Progressive, ...]:
    """The progressive wagers the Rules Submission offers, as the game declares them (§ 601a.2)."""
    return tuple(submission.game.progressives(submission.rules))


def sensed_progressives(submission: Submission) -> tuple[Progressive, ...]:
    """Every progressive a wagering device of the Progressive Table Game System counts
    (§ 639a.8(b), § 633a.2(c), (d)): Caribbean Stud's and Fortune Asia Poker's one, Blackjack's
    Bad Beat, Hit and Run and Straight Jack, each on its own device at the seat."""
    return tuple(p for p in progressives(submission) if p.sensor)


def sensed_progressive(submission: Submission) -> Progressive | None:
    """The first progressive a sensor counts (the game's one, where it offers one), or ``None``."""
    return next(iter(sensed_progressives(submission)), None)


def progressive_wager(submission: Submission) -> Cents | None:
    """What one chip on a wagering device is: the Rules Submission's Progressive Payout Wager
    (§ 639a.2(c)); ``None`` for a game without a sensor-counted one. The sensor knows a chip is
    there, not its value."""
    sensed = sensed_progressive(submission)
    return None if sensed is None else sensed.wager


def sensed_wager(submission: Submission, seat: int, device: str = "") -> Event:
    """The wager event of a chip sensed on ``seat``'s ``device`` (§ 639a.8(b)): the progressive
    that device counts (``""``: the seat's one device, the game's first sensor-counted
    progressive), one chip of its ``<wager>.wager``.

    A device for a progressive the game does not offer (or a game without one): the rules
    refuse it, naming the wager (journaled as refused).
    """
    sensed = {p.name: p for p in sensed_progressives(submission)}
    first = sensed_progressive(submission)
    if device:
        progressive = sensed.get(device)
        name = device
    else:
        progressive = first
        name = PROGRESSIVE if first is None else first.name
    amount = progressive.wager if progressive is not None and progressive.wager is not None else 1
    return Event("wager", seat=seat, wager=name, amount=amount)


def opening_meters(
    submission: Submission, state: TableState, link: Mapping[str, Cents] | None = None
) -> dict[str, Cents]:
    """The meters a new round begins with, for each progressive the game declares: the central
    meter's amount when the link has one (``link``), else the last journaled, else those a RAM
    clear carried over, else the Rules Submission's initial amount (§ 639a.12(d)(3))."""
    out: dict[str, Cents] = {}
    for progressive in progressives(submission):
        name = progressive.name
        if link is not None and name in link:
            out[name] = link[name]
            continue
        journaled = _last_journaled(state, name)
        if journaled is not None:
            out[name] = journaled
        elif name in state.carried_meters:
            out[name] = state.carried_meters[name]
        elif progressive.initial is not None:
            out[name] = progressive.initial
    return out


def _last_journaled(state: TableState, name: str) -> Cents | None:
    for summary in reversed(state.recent):
        meters = (summary.settlement or {}).get("meters")
        if isinstance(meters, Mapping) and isinstance(meters.get(name), str):
            return parse_money(meters[name], f"meter {name}")
    return None


def waiting(current: OpenRound) -> tuple[Waiting, ...]:
    """What the round waits for, as the game declares it; empty once it can be settled."""
    return current.round.waiting_for()


def house_way(current: OpenRound) -> tuple[HouseWaySetting, ...]:
    """The house way's settings the dealer sets or tells now (Asia Poker, § 659a.11(a)(1), (c))."""
    return current.round.house_way()


def incomplete(current: OpenRound) -> str | None:
    """Why the round cannot be settled yet, in the rules core's words; ``None`` once it can."""
    items = waiting(current)
    return in_words(items) if items else None


def open_decisions(current: OpenRound) -> str:
    """What players may still decide in a round that could be settled now (``""``: nothing)."""
    return current.round.game.open_decisions(current.round.state)


def settles_itself(current: OpenRound) -> bool:
    """The round is complete and no player may still decide anything: the table settles it at
    once. Otherwise (Asia Poker's surrender, § 659a.11(d)) the dealer settles it."""
    return not waiting(current) and not open_decisions(current)


def waiting_to_settle(current: OpenRound) -> tuple[Waiting, ...]:
    """What the round waits for, as data: the game's items, or, once it could be settled while
    players may still decide, the dealer's ``settle_round`` (:attr:`~controller.rules.core.hooks.Step.SETTLE`,
    on the API with ``"command": "settle_round"``); empty: it is being settled."""
    items = waiting(current)
    if items:
        return items
    decisions = open_decisions(current)
    if not decisions:
        return ()
    return (Waiting(Actor.DEALER, f"the dealer to settle the round; {decisions}", step=Step.SETTLE),)


def hand_of_seat(current: OpenRound, seat: int) -> int:
    """Which hand of ``seat`` a card from the shoe goes to (``0``: its one hand); a seat that
    split pairs holds several hands (§ 633a.11)."""
    return current.round.game.hand_dealt_to(current.round.state, seat)
