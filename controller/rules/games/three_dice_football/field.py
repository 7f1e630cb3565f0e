"""Three Dice Football's throw and field (ch. 661a): the kinds of a roll of two Offensive Dice and
one Defensive Die (§ 661a.1, § 661a.6(c)), the Yard Marker, the downs and how a game ends
(§ 661a.6). Pure values: the game is :mod:`.three_dice_football`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final

NAME: Final = "three-dice-football"

KICKOFF: Final = 20
"""The Yard Marker starts "in the 20 yard line circle" (§ 661a.6(a)): 20 yards to the end zone."""
GOAL_TO_GO: Final = 10
"""Reaching the 10 yard line earns a 1st & Goal (§ 661a.6(e))."""
DOWNS: Final = 3
"""Three downs to score or earn a 1st & Goal, three more to score (§ 661a.6(e))."""
MAX_PLAYS: Final = 6
"""The longest game (§ 661a.2(b)(6): the game length area is "labeled 1 through 6")."""
MAX_SEATS: Final = 16
"""§ 661a.2(a): "wagering locations for a maximum of 16 players"."""


# --- a throw ---------------------------------------------------------------------------------


class Kind(StrEnum):
    """What a throw is on the field (§ 661a.6(c))."""

    GAIN = "gain"
    NO_GAIN = "no_gain"
    PENALTY = "penalty"
    TURNOVER = "turnover"
    TRIPS_TD = "trips_td"


KIND_WORDS: Final[Mapping[Kind, str]] = {
    Kind.GAIN: "gain",
    Kind.NO_GAIN: "no gain",
    Kind.PENALTY: "penalty",
    Kind.TURNOVER: "turnover",
    Kind.TRIPS_TD: "Trips TD",
}


@dataclass(frozen=True, slots=True)
class Roll:
    """One valid throw: the two green Offensive Dice and the red Defensive Die (§ 661a.1)."""

    green: tuple[int, int]
    red: int

    @classmethod
    def of(cls, dice: Sequence[int]) -> Roll:
        """From ``[green, green, red]``, the order of the ``dice`` event."""
        if len(dice) != 3 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
            raise ValueError(f"three dice, each 1 to 6 (green, green, red), not {list(dice)!r}")
        return cls((dice[0], dice[1]), dice[2])

    @property
    def dice(self) -> tuple[int, int, int]:
        return (self.green[0], self.green[1], self.red)

    @property
    def offense(self) -> int:
        """The total of the Offensive Dice."""
        return self.green[0] + self.green[1]

    @property
    def value(self) -> int:
        """The value of the dice: the Offensive total less the Defensive Die (§ 661a.6(c)(1), (d))."""
        return self.offense - self.red

    @property
    def triple(self) -> bool:
        return self.green[0] == self.green[1] == self.red

    @property
    def kind(self) -> Kind:
        if self.triple:  # § 661a.1 "Trips TD": all three dice show the same number
            return Kind.TRIPS_TD
        if self.red == 6 and self.offense in (2, 3):  # § 661a.1 "Turnover"
            return Kind.TURNOVER
        if self.value < 0:  # § 661a.1 "Penalty", § 661a.6(c)(2)
            return Kind.PENALTY
        if self.value == 0:  # § 661a.6(c)(3)
            return Kind.NO_GAIN
        return Kind.GAIN  # § 661a.6(c)(1)

    @property
    def yards(self) -> int:
        """Yards gained by the value of the dice (0 unless a gain)."""
        return self.value if self.kind is Kind.GAIN else 0

    def ones(self) -> int:
        return self.dice.count(1)

    def __str__(self) -> str:
        text = f"green {self.green[0]}+{self.green[1]}, red {self.red}: {KIND_WORDS[self.kind]}"
        if self.kind is Kind.GAIN:
            text += f" of {self.yards} yard{'s' if self.yards != 1 else ''}"
        return text


def all_rolls() -> tuple[Roll, ...]:
    """The 216 equally likely throws."""
    return tuple(Roll((a, b), c) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7))


# --- the field -------------------------------------------------------------------------------


class End(StrEnum):
    """How a game ends."""

    TOUCHDOWN = "touchdown"  # § 661a.1 "Touchdown"
    TRIPS_TD = "trips_td"  # § 661a.1 "Trips TD"
    TURNOVER = "turnover"  # § 661a.1 "Turnover"
    TURNOVER_ON_DOWNS = "turnover_on_downs"  # § 661a.6(e)(1), (2); § 661a.3(d)(3)

    @property
    def scored(self) -> bool:
        return self in (End.TOUCHDOWN, End.TRIPS_TD)


END_WORDS: Final[Mapping[End, str]] = {
    End.TOUCHDOWN: "touchdown",
    End.TRIPS_TD: "Trips TD",
    End.TURNOVER: "turnover",
    End.TURNOVER_ON_DOWNS: "turnover on downs",
}

_ORDINAL: Final = {1: "1st", 2: "2nd", 3: "3rd"}


@dataclass(frozen=True, slots=True)
class Field:
    """The Yard Marker, the Down Puck and the Game Length Puck (§ 661a.6(a))."""

    marker: int = KICKOFF
    """Yards to the end zone."""
    down: int = 1
    goal: bool = False
    """Whether the 1st & Goal is earned (§ 661a.6(e))."""
    play: int = 1
    """The Game Length Puck: the number of the next play."""

    @property
    def down_name(self) -> str:
        """The area of the layout the Down Puck is on (§ 661a.2(b)(5))."""
        return f"{_ORDINAL[self.down]} & Goal" if self.goal else f"{_ORDINAL[self.down]} Down"

    def announcement(self) -> str:
        """What the dealer announces after a down: the down and the distance (§ 661a.6(d))."""
        return f"{self.down_name}, {self.marker} yard{'s' if self.marker != 1 else ''} to the end zone"

    def after(self, roll: Roll) -> tuple[Field, End | None]:
        """The field after ``roll``, and how the game ended if it did."""
        play = self.play + 1
        kind = roll.kind
        if kind is Kind.TRIPS_TD:  # § 661a.6(c)(5): "move the Yard Marker to the end zone"
            return replace(self, marker=0, play=play), End.TRIPS_TD
        if kind is Kind.TURNOVER:  # § 661a.6(c)(4): "announce the turnover and end the game"
            return replace(self, play=play), End.TURNOVER
        marker = self.marker
        if kind is Kind.GAIN:  # § 661a.6(c)(1)
            marker -= roll.yards
            if marker <= 0:  # § 661a.1 "Touchdown": the 0 yard line is reached (and passed)
                return replace(self, marker=0, play=play), End.TOUCHDOWN
        elif kind is Kind.PENALTY:  # § 661a.6(c)(2): back 1 yard, the down is lost
            marker += 1
        if not self.goal and marker <= GOAL_TO_GO:  # § 661a.6(e): 1st & Goal "by reaching the 10"
            return Field(marker, 1, True, play), None
        if self.down == DOWNS:  # § 661a.6(e)(1), and the three more downs of (e)(2) are spent
            return replace(self, marker=marker, play=play), End.TURNOVER_ON_DOWNS
        return Field(marker, self.down + 1, self.goal, play), None


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended and on which play."""

    end: End
    plays: int

    def __str__(self) -> str:
        if self.end is End.TURNOVER_ON_DOWNS:
            return f"turnover on downs after play {self.plays}"
        return f"{END_WORDS[self.end]} on play {self.plays}"
