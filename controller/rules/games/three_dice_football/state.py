"""The state of a game of Three Dice Football (ch. 661a): the wagers on the layout, the downs
thrown, its phase, what it waits for, and who holds the dice after it. Immutable: :mod:`.play`
makes each event's new state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

from ...core.engine import IllegalEvent
from ...core.hooks import Actor, Step, Waiting
from ...core.money import Cents
from .field import End, Field, GameResult, Roll
from .rules import (
    ThreeDiceFootballRules,
)

# --- the state -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Wager:
    seat: int
    name: str
    stake: Cents


@dataclass(frozen=True, slots=True)
class Down:
    """One valid throw and the single play wagers it decided."""

    before: Field
    roll: Roll
    after: Field
    end: End | None
    wagers: tuple[Wager, ...]

    @property
    def play(self) -> int:
        return self.before.play


IRREGULARITIES: Final[Mapping[str, str]] = {
    "no_roll": "§ 661a.5(c)",  # the stickperson calls "no roll" for a reason of (c)(1)-(6)
    "dice_off_table": "§ 661a.5(b)",  # invalid; a lost die means a new set of dice (§ 661a.4(d))
    "die_on_die": "§ 661a.5(b)",  # one die at rest on top of another: invalid
    "die_on_chips": "§ 661a.5(f)",  # more than one side of a die resting on chips: void
    "disputed_face": "§ 661a.5(g)",  # the stickperson orders the throw void in a dispute
}
"""The throws that do not count; each is thrown again, and no wager is decided by it."""


@dataclass(frozen=True, slots=True)
class Irregularity:
    at: str
    """``"play 2"`` or ``"the extra point roll"``."""
    kind: str
    detail: str
    section: str


DICE_ACTIONS: Final = ("accept_dice", "reject_dice", "retain_dice")

Phase = Literal["play", "extra_point", "over"]


@dataclass(frozen=True, slots=True)
class FootballState:
    """One game: immutable, so a refused event changes nothing."""

    rules: ThreeDiceFootballRules
    field: Field = Field()
    quarterback: int | None = None
    """The seat of the Quarterback (§ 661a.1), once a player accepted or kept the dice."""
    offers: tuple[int, ...] = ()
    """The seats that declined the dice, in the order offered (§ 661a.4(b), § 661a.7(a))."""
    full_game: tuple[Wager, ...] = ()
    single_play: tuple[Wager, ...] = ()
    """The single play wagers on the layout for the next throw."""
    downs: tuple[Down, ...] = ()
    end: End | None = None
    extra_point: Roll | None = None
    closed: bool = False
    """``no_more_bets`` before the next throw."""
    thrown: bool = False
    """Whether the dice were thrown (validly or not): full game wagers are then fixed (§ 661a.3(c))."""
    irregularities: tuple[Irregularity, ...] = ()

    @property
    def result(self) -> GameResult | None:
        return GameResult(self.end, len(self.downs)) if self.end is not None else None

    @property
    def extra_point_wagered(self) -> bool:
        return any(w.name == "extra_point" for w in self.full_game)

    @property
    def phase(self) -> Phase:
        if self.end is None:
            return "play"
        if self.end.scored and self.extra_point_wagered and self.extra_point is None:
            return "extra_point"  # § 661a.6(f)(1)
        return "over"

    def waiting_for(self) -> str:
        """What the game waits for, in words."""
        waiting = self.waiting()
        return waiting.what if waiting is not None else "nothing: the game is over"

    def waiting(self) -> Waiting | None:
        """What the game waits for, as data; ``None`` once it is over."""
        if self.phase == "over":
            return None
        if self.quarterback is None:
            what = "a Quarterback: the stickperson offers the dice (§ 661a.4(b), (c))"
            return Waiting(Actor.PLAYER, what, "§ 661a.4(b), (c)", step=Step.DECISION)
        if self.phase == "extra_point":
            what = "the extra point roll: an Extra Point Wager was placed (§ 661a.6(f)(1))"
            return Waiting(Actor.SHOE, what, "§ 661a.6(f)(1)", self.quarterback, step=Step.DICE)
        what = f"the throw of play {self.field.play}, {self.field.announcement()}"
        return Waiting(Actor.SHOE, what, "§ 661a.6", self.quarterback, step=Step.DICE)


def dice_next(state: FootballState) -> tuple[Literal["retain", "offer"], int]:
    """After the game: the Quarterback keeps the dice after a touchdown or Trips TD; otherwise the
    stickperson offers them to the player immediately left of the Quarterback, the next seat
    clockwise (the stickperson passes over an empty seat), and on clockwise (§ 661a.7(a))."""
    if state.phase != "over" or state.end is None or state.quarterback is None:
        raise IllegalEvent(f"the game is not over; it waits for {state.waiting_for()}")
    if state.end.scored:
        return ("retain", state.quarterback)
    return ("offer", state.quarterback % state.rules.seats + 1)


def stakes(state: FootballState) -> Mapping[int, Mapping[str, Cents]]:
    """Every wager on the layout now, by seat (for the dealer's screen)."""
    out: dict[int, dict[str, Cents]] = {}
    for w in state.full_game + state.single_play:
        out.setdefault(w.seat, {})[w.name] = w.stake
    return out
