"""Three Dice Football's wagers, odds and Rules Submission (§ 661a.3, § 661a.8, § 601a.2): each
wager's section and title, the award of a single play and of a full game wager, and the options
(seats, the wagers offered). The game is :mod:`.game`;
docs/games/three-dice-football.md lists them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from ...core.dispatch import did_you_mean
from ...core.money import Odds
from ...core.options import OptionError, integer, option
from .field import END_WORDS, KIND_WORDS, MAX_PLAYS, MAX_SEATS, End, GameResult, Kind, Roll

# --- the wagers and their odds, § 661a.3 and § 661a.8 -----------------------------------------

GAME_LENGTHS: Final = tuple(f"game_length_{n}" for n in range(1, MAX_PLAYS + 1))
FULL_GAME_WAGERS: Final = (
    "touchdown",
    "defense",
    "extra_point",
    "quick_strike_td",
    "game_changer",
    *GAME_LENGTHS,
)
"""§ 661a.3(b), in its order."""
SINGLE_PLAY_WAGERS: Final = (
    "trips_td",
    "penalty",
    "turnover",
    "cover_three",
    "no_gain",
    "big_play",
    "over_four_yards",
    "under_four_yards",
)
"""§ 661a.3(d), in its order."""
WAGERS: Final = FULL_GAME_WAGERS + SINGLE_PLAY_WAGERS

_ROMAN: Final = ("i", "ii", "iii", "iv", "v", "vi")
WAGER_SECTIONS: Final[Mapping[str, str]] = {
    "touchdown": "§ 661a.3(b)(1); § 661a.8(a)",
    "defense": "§ 661a.3(b)(2); § 661a.8(a)",
    "extra_point": "§ 661a.3(b)(3); § 661a.8(a)",
    "quick_strike_td": "§ 661a.3(b)(4); § 661a.8(a)",
    "game_changer": "§ 661a.3(b)(5); § 661a.8(a)",
    **{w: f"§ 661a.3(b)(6)({_ROMAN[i]}); § 661a.8(a)" for i, w in enumerate(GAME_LENGTHS)},
    **{w: f"§ 661a.3(d)({i}); § 661a.8(b)" for i, w in enumerate(SINGLE_PLAY_WAGERS, start=1)},
}
WAGER_TITLES: Final[Mapping[str, str]] = {
    "touchdown": "Touchdown Wager",
    "defense": "Defense Wager",
    "extra_point": "Extra Point Wager",
    "quick_strike_td": "Quick Strike TD Wager",
    "game_changer": "Game Changer Wager",
    **{w: f"Game Length Wager, {n} play{'s' if n > 1 else ''}" for n, w in enumerate(GAME_LENGTHS, 1)},
    "trips_td": "Trips TD Wager",
    "penalty": "Penalty Wager",
    "turnover": "Turnover Wager",
    "cover_three": "Cover Three Wager",
    "no_gain": "No Gain Wager",
    "big_play": "Big Play Wager",
    "over_four_yards": "Over Four Yards Wager",
    "under_four_yards": "Under Four Yards Wager",
}

# § 661a.8(a)
TOUCHDOWN_ODDS: Final = Odds(1, 1, "to")
DEFENSE_ODDS: Final = Odds(4, 5, "to")
EXTRA_POINT_ONE_ONE: Final = Odds(1, 1, "to")
EXTRA_POINT_TWO_ONES: Final = Odds(10, 1, "to")
EXTRA_POINT_TRIPLE_ONES: Final = Odds(50, 1, "to")
EXTRA_POINT_OTHER_TRIPLE: Final = Odds(10, 1, "to")
QUICK_STRIKE_ODDS: Final[Mapping[int, Odds]] = {
    1: Odds(8, 1, "to"),
    2: Odds(5, 1, "to"),
    3: Odds(3, 1, "to"),
    4: Odds(1, 1, "to"),
}
GAME_CHANGER_ODDS: Final = Odds(5, 1, "to")
GAME_LENGTH_ODDS: Final[Mapping[int, Odds]] = {
    1: Odds(22, 1, "to"),
    2: Odds(22, 1, "to"),
    3: Odds(6, 5, "to"),
    4: Odds(5, 1, "to"),
    5: Odds(3, 1, "to"),
    6: Odds(6, 1, "to"),
}
# § 661a.8(b)
SINGLE_PLAY_ODDS: Final[Mapping[str, Odds]] = {
    "trips_td": Odds(30, 1, "to"),
    "penalty": Odds(9, 1, "to"),
    "turnover": Odds(60, 1, "to"),
    "cover_three": Odds(7, 1, "to"),
    "no_gain": Odds(5, 1, "to"),
    "big_play": Odds(4, 1, "to"),
    "over_four_yards": Odds(1, 1, "to"),
    "under_four_yards": Odds(1, 1, "to"),
}
OVER_FOUR_YARDS_TRIPS_ODDS: Final = Odds(7, 1, "to")
"""§ 661a.8(b): "Over 4 Yards Wager with Trips TD 7 to 1"."""


@dataclass(frozen=True, slots=True)
class Award:
    """A wager's result: the odds it is paid at (``None``: it loses) and why."""

    odds: Odds | None
    why: str


def single_play_award(wager: str, roll: Roll) -> Award:
    """A single play wager on ``roll`` (§ 661a.3(d)).

    "The value of the dice determines the outcome of single play wagers, not the actual yards
    moved on the field" (§ 661a.6(d)): a gain of 9 on the 3 yard line is a Big Play.
    """
    kind, yards = roll.kind, roll.yards
    odds = SINGLE_PLAY_ODDS[wager]
    won: str | None = None
    if wager == "trips_td":  # (d)(1)
        won = "Trips TD" if kind is Kind.TRIPS_TD else None
        lost = "no Trips TD"
    elif wager == "penalty":  # (d)(2)
        won = KIND_WORDS[kind] if kind in (Kind.PENALTY, Kind.TURNOVER) else None
        lost = "no penalty or turnover"
    elif wager == "turnover":  # (d)(3): "A turnover on downs does not qualify"
        won = "turnover" if kind is Kind.TURNOVER else None
        lost = "no turnover"
    elif wager == "cover_three":  # (d)(4)
        won = KIND_WORDS[kind] if kind in (Kind.TRIPS_TD, Kind.PENALTY, Kind.TURNOVER) else None
        lost = "a gain or no gain"
    elif wager == "no_gain":  # (d)(5)
        won = KIND_WORDS[kind] if kind in (Kind.NO_GAIN, Kind.PENALTY, Kind.TURNOVER) else None
        lost = "a gain or a Trips TD"
    elif wager == "big_play":  # (d)(6)
        if kind is Kind.TRIPS_TD:
            won = "Trips TD"
        elif yards >= 7:
            won = "a gain of 7 yards or more"
        lost = "a gain under 7 yards, no gain, a penalty or a turnover"
    elif wager == "over_four_yards":  # (d)(7); § 661a.8(b) "with Trips TD 7 to 1"
        if kind is Kind.TRIPS_TD:
            return Award(OVER_FOUR_YARDS_TRIPS_ODDS, "Trips TD")
        if yards >= 5:
            won = "a gain of 5 yards or more"
        lost = "a gain under 5 yards, no gain, a penalty or a turnover"
    elif wager == "under_four_yards":  # (d)(8): "A Trips TD does not qualify"
        if kind is Kind.GAIN and yards <= 3:
            won = "a gain of 3 yards or less"
        elif kind in (Kind.NO_GAIN, Kind.PENALTY, Kind.TURNOVER):
            won = KIND_WORDS[kind]
        lost = "a gain of 4 yards or more or a Trips TD"
    else:
        raise ValueError(f"{wager!r} is not a single play wager")
    return Award(odds, won) if won is not None else Award(None, lost)


def extra_point_award(roll: Roll) -> Award:
    """The extra point roll (§ 661a.3(b)(3), § 661a.8(a))."""
    ones = roll.ones()
    if ones == 3:
        return Award(EXTRA_POINT_TRIPLE_ONES, "a triple of 1s")
    if roll.triple:  # (b)(3)(ii): "Any triple, other than three 1s"
        return Award(EXTRA_POINT_OTHER_TRIPLE, "a triple other than 1s")
    if ones == 2:
        return Award(EXTRA_POINT_TWO_ONES, "a 1 on two of the dice")
    if ones == 1:
        return Award(EXTRA_POINT_ONE_ONE, "a 1 on one of the dice")
    return Award(None, "no 1 and no triple on the extra point roll")


def full_game_award(wager: str, result: GameResult, extra_point: Roll | None = None) -> Award:
    """A full game wager on the game's ``result`` (§ 661a.3(b)); ``extra_point`` is the extra
    point roll, needed for an Extra Point Wager when the game was won by a touchdown."""
    scored = result.end.scored
    if wager == "touchdown":  # (b)(1)
        return Award(TOUCHDOWN_ODDS, "touchdown or Trips TD") if scored else Award(None, "no touchdown")
    if wager == "defense":  # (b)(2)
        return Award(None, "touchdown or Trips TD") if scored else Award(DEFENSE_ODDS, "no touchdown")
    if wager == "extra_point":  # (b)(3)
        if not scored:
            return Award(None, "no touchdown")
        if extra_point is None:
            raise ValueError("an Extra Point Wager after a touchdown needs the extra point roll")
        return extra_point_award(extra_point)
    if wager == "quick_strike_td":  # (b)(4): "in 4 downs or fewer"
        if scored and result.plays in QUICK_STRIKE_ODDS:
            return Award(QUICK_STRIKE_ODDS[result.plays], f"touchdown on play {result.plays}")
        return Award(None, "no touchdown in 4 plays")
    if wager == "game_changer":  # (b)(5)
        if result.end in (End.TRIPS_TD, End.TURNOVER):
            return Award(GAME_CHANGER_ODDS, END_WORDS[result.end])
        return Award(None, "neither a Trips TD nor a turnover")
    if wager in GAME_LENGTHS:  # (b)(6)
        n = GAME_LENGTHS.index(wager) + 1
        if result.plays == n:
            return Award(GAME_LENGTH_ODDS[n], f"the game lasted {n} play{'s' if n > 1 else ''}")
        return Award(None, f"the game did not last {n} play{'s' if n > 1 else ''}")
    raise ValueError(f"{wager!r} is not a full game wager")


# --- the Rules Submission --------------------------------------------------------------------


def _wager_list(raw: object) -> tuple[str, ...]:
    """``wagers.offered``: a list of wager names (§ 661a.3(b), (d))."""
    if not isinstance(raw, (list, tuple)) or not raw or not all(isinstance(w, str) for w in raw):
        raise OptionError('must be a non-empty list of wager names, such as ["touchdown", "defense"]')
    for w in raw:
        if w not in WAGERS:
            hint = did_you_mean(w, WAGERS)
            raise OptionError(f"{w!r} is not a wager of § 661a.3{hint}")
    dup = [w for i, w in enumerate(raw) if w in raw[:i]]
    if dup:
        raise OptionError(f"lists {dup[0]!r} twice")
    return tuple(w for w in WAGERS if w in raw)


@dataclass(frozen=True)
class ThreeDiceFootballRules:
    """What ch. 661a leaves to the table: the seats and the wagers offered."""

    seats: int = option(
        "seats",
        integer(1, MAX_SEATS),
        MAX_SEATS,
        section="§ 661a.2(a)",
        help="player positions at the table, numbered clockwise from 1",
    )
    wagers_offered: tuple[str, ...] = option(
        "wagers.offered",
        _wager_list,
        list(WAGERS),
        section="§ 661a.2(b)(3); § 661a.3",
        help="the wagers of § 661a.3 the certificate holder offers",
    )


def check_game_length_areas(rules: ThreeDiceFootballRules) -> Iterable[str]:
    """The layout's game length area is "labeled 1 through 6" (§ 661a.2(b)(6)): all six or none."""
    offered = [w for w in GAME_LENGTHS if w in rules.wagers_offered]
    if offered and len(offered) != len(GAME_LENGTHS):
        missing = ", ".join(w for w in GAME_LENGTHS if w not in offered)
        yield (
            f"wagers.offered lists {', '.join(offered)} but not {missing}: the game length area is"
            ' "labeled 1 through 6" (§ 661a.2(b)(6)); offer all six Game Length Wagers or none'
        )
