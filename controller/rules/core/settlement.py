"""A round's settlement: per seat, per wager, what the dealer pays or collects.

Outcomes are listed in the order the dealer settles them: from the player
farthest to the dealer's right (the highest seat) counterclockwise
(e.g. § 639a.11(c)), within a seat in the order the game's section prescribes.
``net`` is signed cents: the payout won (the stake is returned besides), minus
the stake for a loss, 0 for a push or a void.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from .money import Cents, format_money, format_net


class Result(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    VOID = "void"


# Flags a settlement line may carry (the dealer's screen shows them; a record keeps them).
NOT_FROM_INVENTORY: Final = "not_paid_from_inventory"
"""A percent-of-meter award may not be paid from the table inventory container (§ 639a.11(c)(5)(iv))."""
FLOORPERSON_VERIFY: Final = "floorperson_verification"
"""A floorperson or above must verify the payout (e.g. odds of 100 for 1 or more, § 633a.7(o)(2)(ii)(B))."""
FLOORPERSON_VALIDATE: Final = "floorperson_validation"
"""A floorperson or above must validate a progressive payout (§ 639a.11(c)(5)(iii))."""
PAYOUT_LIMITED: Final = "payout_limit_applied"
"""The odds would pay more than the Rules Submission's payout limit; the limit was paid."""
REMOVE_DECK: Final = "remove_deck"
"""The deck is removed from the table after a void (e.g. a stub count that was not a misdeal, § 659a.8(e))."""
PROGRESSIVE_LIGHT: Final = "check_progressive_light"
"""The dealer verifies the progressive table game system's light (§ 639a.11(c)(5)(ii))."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The settlement of one wager."""

    seat: int
    wager: str
    stake: Cents
    result: Result
    net: Cents
    hand: str = ""
    section: str = ""
    note: str = ""
    flags: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # A loss costs exactly the stake; a push or void costs nothing; a win is positive.
        expected = {
            Result.LOSE: self.net == -self.stake,
            Result.PUSH: self.net == 0,
            Result.VOID: self.net == 0,
            Result.WIN: self.net > 0,
        }[self.result]
        if not expected and not (self.result is Result.LOSE and -self.stake <= self.net < 0):
            raise ValueError(f"seat {self.seat} {self.wager}: {self.result} with net {format_net(self.net)}")

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "result": str(self.result),
            "net": format_net(self.net),
            "stake": format_money(self.stake),
        }
        if self.hand:
            out["hand"] = self.hand
        if self.flags:
            out["flags"] = list(self.flags)
        return out


@dataclass(frozen=True, slots=True)
class Settlement:
    """All outcomes of one round, in the order they are settled."""

    game: str
    outcomes: tuple[Outcome, ...]
    meters: Mapping[str, Cents] = field(default_factory=dict)
    dealer: str = ""
    void: str = ""

    def for_seat(self, seat: int) -> dict[str, Outcome]:
        return {o.wager: o for o in self.outcomes if o.seat == seat}

    def to_json(self) -> dict[str, object]:
        """The settlement JSON of ``tablectl replay`` (docs/round-record.md)."""
        seats: dict[str, dict[str, object]] = {}
        for o in self.outcomes:
            seats.setdefault(str(o.seat), {})[o.wager] = o.to_json()
        out: dict[str, object] = {"game": self.game}
        if self.void:
            out["void"] = self.void
        if self.dealer:
            out["dealer"] = self.dealer
        out["seats"] = seats
        out["order"] = [[o.seat, o.wager] for o in self.outcomes]
        out["meters"] = {k: format_money(v) for k, v in self.meters.items()}
        return out


def void_all(
    game: str,
    wagers: Mapping[int, Mapping[str, Cents]],
    reason: str,
    section: str,
    meters: Mapping[str, Cents],
) -> Settlement:
    """Every wager returned: "all hands shall be void, all wagers shall be returned" (e.g. § 639a.13(c))."""
    outcomes = tuple(
        Outcome(seat, name, stake, Result.VOID, 0, section=section, note=reason)
        for seat in sorted(wagers, reverse=True)
        for name, stake in wagers[seat].items()
    )
    return Settlement(game, outcomes, dict(meters), void=reason)
