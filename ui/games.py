"""How the dealer's screen lays out each game the daemon deals, and the game's words from the daemon.

The wagers the dealer enters, the decisions and the irregularities, in the regulations' words and
with their sections, are the game's own (its ``vocabulary`` hook): the daemon's status carries them
(``vocabulary``) and :func:`screen_for` joins them to what is the screen's: the title, the seats,
whether hands are set, how the starting position is given, whether throws are entered. The screen
keeps no copy of the rules' words.

The screen only offers; the daemon's rules core decides. A decision offered that the round does not
allow is refused by the daemon with its section, and the screen shows that refusal. Progressive
wagers are never offered: only a seat's sensor may say one was made (design, "who may say what";
§ 639a.8(b)).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final


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


SCREENS: Final[Mapping[str, GameScreen]] = {
    s.game: s
    for s in (
        GameScreen("caribbean-stud", "Caribbean Stud Poker", 7),
        GameScreen("three-card-poker", "Three Card Poker", 7),
        GameScreen("holdem-bonus", "Texas Hold 'Em Bonus Poker", 6),
        GameScreen("blackjack", "Blackjack", 7),
        GameScreen("asia-poker", "Asia Poker", 6, sets_hands=True, start=("dice", "position")),
        GameScreen("fortune-asia-poker", "Fortune Asia Poker", 6, sets_hands=True, start=("position",)),
        GameScreen("three-dice-football", "Three Dice Football", 12, dice_game=True),
    )
}


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


def screen_for(game: str, vocabulary: Mapping[str, Any]) -> GameScreen:
    """The screen of ``game`` (the daemon's game name) with the daemon's ``vocabulary`` for it; a
    game this screen does not know is a ``KeyError`` naming it and the games it knows."""
    try:
        layout = SCREENS[game]
    except KeyError:
        raise KeyError(f"the screen knows no game {game!r} (games: {', '.join(SCREENS)})") from None
    return replace(
        layout,
        wagers=choices(vocabulary, "wagers"),
        decisions=choices(vocabulary, "decisions"),
        irregularities=choices(vocabulary, "irregularities"),
    )
