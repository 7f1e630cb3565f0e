"""What the table asks of the game, each question in one place.

The daemon's parts ask the game four things: what one chip on a wagering device is, which meters
a round begins with, what a round still waits for, and which hand of a seat a shoe's card goes
to. Until the ``Game`` protocol declares these as hooks, the answers are found here by the
Rules Submission's attribute names (``progressive_wager``, ``progressive_offered``,
``progressive_initial``), by ``engine.open_decisions`` / ``engine.hand_dealt_to``, and by the
text of the :class:`IllegalEvent` a settlement raises; each such call site is in this module
alone, so moving to the protocol's hooks changes this module and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..journal.state import OpenRound, TableState
from ..rules.engine import IllegalEvent, hand_dealt_to
from ..rules.events import Event
from ..rules.money import Cents, parse_money
from ..rules.submission import Submission

#: The progressive wager's name in the rules core (Caribbean Stud, Three Card Poker, Hold 'Em Bonus).
PROGRESSIVE: Final = "progressive"


def progressive_wager(submission: Submission) -> Cents | None:
    """What one chip on a wagering device is: the Rules Submission's Progressive Payout Wager
    (§ 639a.2(c)); ``None`` for a game without one. The sensor knows a chip is there, not its
    value."""
    wager = getattr(submission.rules, "progressive_wager", None)
    return wager if isinstance(wager, int) else None


def sensed_wager(submission: Submission, seat: int) -> Event:
    """The ``wager progressive`` event of a chip sensed at ``seat`` (§ 639a.8(b)).

    A game without the wager: the rules refuse it, naming the game (journaled as refused).
    """
    amount = progressive_wager(submission)
    return Event("wager", seat=seat, wager=PROGRESSIVE, amount=amount if amount is not None else 1)


def opening_meters(submission: Submission, state: TableState) -> dict[str, Cents]:
    """The meters a new round begins with: the last journaled, else those a RAM clear carried
    over, else the Rules Submission's initial amount (§ 639a.12(d)(3)). The central meter's
    amounts come over the link."""
    rules = submission.rules
    if not getattr(rules, "progressive_offered", False):
        return {}
    for summary in reversed(state.recent):
        meters = (summary.settlement or {}).get("meters")
        if isinstance(meters, Mapping) and isinstance(meters.get(PROGRESSIVE), str):
            return {PROGRESSIVE: parse_money(meters[PROGRESSIVE], "meter")}
    if PROGRESSIVE in state.carried_meters:
        return {PROGRESSIVE: state.carried_meters[PROGRESSIVE]}
    initial = getattr(rules, "progressive_initial", None)
    return {PROGRESSIVE: initial} if isinstance(initial, int) else {}


def incomplete(current: OpenRound) -> str | None:
    """Why the round cannot be settled yet, in the rules core's words; ``None`` once it can."""
    try:
        current.settlement()
    except IllegalEvent as exc:
        return str(exc)
    return None


def settles_itself(current: OpenRound) -> bool:
    """The round is complete and no player may still decide anything: the table settles it at
    once. Otherwise (Asia Poker's surrender, § 659a.11(d)) the dealer settles it."""
    return incomplete(current) is None and not current.round.open_decisions()


def waiting_for(current: OpenRound) -> str:
    """What the round waits for, in words (``""``: nothing, it is being settled)."""
    reason = incomplete(current)
    if reason is not None:
        return reason
    decisions = current.round.open_decisions()
    return f"the dealer to settle the round; {decisions}" if decisions else ""


def hand_of_seat(current: OpenRound, seat: int) -> int:
    """Which hand of ``seat`` a card from the shoe goes to (``0``: its one hand); a seat that
    split pairs holds several hands (§ 633a.11)."""
    return hand_dealt_to(current.round.game, current.round.state, seat)
