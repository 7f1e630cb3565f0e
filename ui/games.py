"""How the dealer's screen lays out the game the daemon deals, from the daemon's status alone.

The wagers the dealer enters, the decisions and the irregularities, in the regulations' words and
with their sections, are the game's own (its ``vocabulary`` hook), and so are its title and its
screen hints (its ``screen`` hook: the seats, whether hands are set, how the starting position is
given, whether throws are entered): the daemon's status carries them (``title``, ``vocabulary``,
``screen``) and :func:`screen_for` reads them. The screen keeps no copy of any game's knowledge: a
new game needs nothing here.

The screen only offers; the daemon's rules core decides. A decision offered that the round does not
allow is refused by the daemon with its section, and the screen shows that refusal. Progressive
wagers are never offered: only a seat's sensor may say one was made (design, "who may say what";
§ 639a.8(b)).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Choice:
    """One button: what the wire says (``name``), what the dealer reads (``title``), and why."""

    name: str
    title: str
    section: str


@dataclass(frozen=True)
class GameScreen:
    """One game's screen: its title, seats, the dealer-entered wagers, the decisions, the
    irregularities (from the daemon); ``start``: how the starting position may be given, by the
    Rules Submission's choice (§ 659a.5(g)): the shaker's ``dice``, or a ``position`` 1-7 (the
    random number generator's, or the button's); ``dice_game``: the throws are entered (Three
    Dice Football)."""

    game: str
    title: str
    seats: int
    wagers: tuple[Choice, ...] = ()
    decisions: tuple[Choice, ...] = ()
    irregularities: tuple[Choice, ...] = ()
    sets_hands: bool = False
    start: tuple[str, ...] = ()
    dice_game: bool = False


def choices(vocabulary: Mapping[str, Any], part: str) -> tuple[Choice, ...]:
    """The status's ``vocabulary[part]``; a malformed term is a ``ValueError`` naming it."""
    out = []
    for i, term in enumerate(vocabulary.get(part, ())):
        words = [term.get(k) if isinstance(term, Mapping) else None for k in ("name", "title", "section")]
        if not all(isinstance(w, str) and w for w in words):
            raise ValueError(
                f"status vocabulary.{part}[{i}]: a term has a name, a title and a section, not {term!r}"
            )
        out.append(Choice(*(str(w) for w in words)))
    return tuple(out)


def screen_for(
    game: str, vocabulary: Mapping[str, Any], hints: Mapping[str, Any], title: str = ""
) -> GameScreen:
    """The screen of ``game`` (the daemon's game name) from the status's ``vocabulary`` and
    ``screen`` hints; a game without seats on the screen (the poker room's) is a ``KeyError``
    naming it, malformed hints a ``ValueError`` naming the field."""
    seats = hints.get("seats", 0)
    if not isinstance(seats, int) or isinstance(seats, bool) or seats < 0:
        raise ValueError(f"status screen.seats: a number of seats, not {seats!r}")
    if not seats:
        raise KeyError(f"the dealer's screen does not deal {game!r} (its status offers no seats)")
    start = hints.get("start", ())
    if not isinstance(start, list | tuple) or not all(isinstance(s, str) for s in start):
        raise ValueError(f"status screen.start: a list of ways to give the starting position, not {start!r}")
    return GameScreen(
        game,
        title or game,
        seats,
        wagers=choices(vocabulary, "wagers"),
        decisions=choices(vocabulary, "decisions"),
        irregularities=choices(vocabulary, "irregularities"),
        sets_hands=hints.get("sets_hands") is True,
        start=tuple(start),
        dice_game=hints.get("dice_game") is True,
    )
