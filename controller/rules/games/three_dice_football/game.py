"""Three Dice Football, 58 Pa. Code ch. 661a: the whole game as a state machine fed by throws.

The Quarterback throws two green dice, the Offensive Dice, and one red die, the Defensive Die
(§ 661a.1). The stickperson calls the three faces (§ 661a.5(e)) and enters them on the
touchscreen: a ``dice`` event, ``[green, green, red]`` (the red die last). Each valid throw is a
down and a play (§ 661a.1 "Down"); the game starts with the Yard Marker on the 20, the Down Puck
on 1st Down and the Game Length Puck on Play 1 (§ 661a.6(a)).

What a throw does (§ 661a.6(c)), read in this order:

- all three dice the same: a Trips TD, the Yard Marker to the end zone, the game ends
  (§ 661a.1 "Trips TD", § 661a.6(c)(5));
- the Defensive Die a 6 and the Offensive Dice 2 or 3: a turnover, the game ends (§ 661a.1
  "Turnover", § 661a.6(c)(4)); "A turnover is not a penalty";
- Offensive Dice above the Defensive Die: a gain of the difference (§ 661a.6(c)(1): "if the
  total of the Offensive Dice is 10 and the value of the Defensive Die is 2, the dealer shall
  move the Yard Marker toward the end zone 8 yards");
- below it: a penalty, back 1 yard and the loss of the down (§ 661a.6(c)(2));
- equal: no gain, the next down (§ 661a.6(c)(3)).

The Quarterback has three downs to score or to reach the 10, which earns 1st & Goal at once,
and then three more downs to score (§ 661a.6(e)); reaching the 0 yard line is a touchdown
(§ 661a.1 "Touchdown"). So a game lasts at most six plays: the first series is at most three
downs, the goal series (entered once: the marker never leaves it) at most three more.

A round of this controller is one game, from the kickoff at the 20 to its end and the extra
point roll, which the Quarterback throws only when someone placed an Extra Point Wager
(§ 661a.6(f)(1)). Single play wagers ride one throw each and are settled after it
(§ 661a.3(e), § 661a.6(d)); in the settlement each is named by wager and play,
``"penalty@3"``, and the full game wagers by their names, ``"touchdown"``.

The Quarterback is the first player to accept the dice when the stickperson offers them
(§ 661a.4(b), (c)); ``decision`` events ``accept_dice``, ``reject_dice`` (the offer moves
clockwise: to higher seat numbers) and ``retain_dice`` (the Quarterback of a game won by a
touchdown keeps the dice, § 661a.7(a)). :func:`dice_next` says who holds or is offered the dice
after the game.

See docs/games/three-dice-football.md for the events, the settlement order and every reading
of the text.

A throw and the field are :mod:`.field`, the wagers, their odds and the Rules
Submission :mod:`.rules`; this module is the game: its state, its events, its
settlement. It stays a little over 500 lines: the three are one state machine of one game, each
under 200 lines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Final

from ...core.engine import Game, GameBase, RoundIncomplete
from ...core.events import Event
from ...core.hooks import Screen, Term, Vocabulary, Waiting, reported
from ...core.money import Cents
from ...core.settlement import Settlement
from .field import MAX_PLAYS, NAME, End, Field, GameResult, Kind, Roll, all_rolls
from .play import EVENTS
from .rules import (
    FULL_GAME_WAGERS,
    GAME_LENGTHS,
    SINGLE_PLAY_WAGERS,
    WAGER_SECTIONS,
    WAGER_TITLES,
    WAGERS,
    Award,
    ThreeDiceFootballRules,
    check_game_length_areas,
    full_game_award,
    single_play_award,
)
from .settle import down_outcomes, settle_game
from .state import IRREGULARITIES, FootballState, dice_next, stakes

# --- the game --------------------------------------------------------------------------------


#: What the dealer's screen offers: the wagers (the single play wagers before each down,
#: § 661a.3(d)), the shooter's decisions on the dice, the throws that do not count.
VOCABULARY: Final = Vocabulary(
    (
        Term("touchdown", "Touchdown", "§ 661a.3(b)(1)"),
        Term("defense", "Defense", "§ 661a.3(b)(2)"),
        Term("extra_point", "Extra Point", "§ 661a.3(b)(3)"),
        Term("quick_strike_td", "Quick Strike TD", "§ 661a.3(b)(4)"),
        Term("game_changer", "Game Changer", "§ 661a.3(b)(5)"),
        Term("trips_td", "Trips TD (1 play)", "§ 661a.3(d)(1)"),
        Term("big_play", "Big Play (1 play)", "§ 661a.3(d)(6)"),
    ),
    (
        Term("accept_dice", "Accepts dice", "§ 661a.4(c)"),
        Term("reject_dice", "Declines dice", "§ 661a.4(b)"),
        Term("retain_dice", "Retains dice", "§ 661a.7(a)"),
    ),
    reported(
        IRREGULARITIES,
        ("no_roll", "No roll"),
        ("dice_off_table", "Die off table"),
        ("die_on_die", "Die on die"),
    ),
)


class ThreeDiceFootball(GameBase[ThreeDiceFootballRules, FootballState]):
    """The :class:`~.engine.Game` of ch. 661a: dice, no cards, no progressive, no device (the
    defaults)."""

    name: Final = NAME
    title: Final = "Three Dice Football"
    chapter: Final = "58 Pa. Code ch. 661a"
    rules_class: Final = ThreeDiceFootballRules
    rules_checks: Final[tuple[Callable[[ThreeDiceFootballRules], Iterable[str]], ...]] = (
        check_game_length_areas,
    )
    joker: Final = False

    def vocabulary(self, rules: ThreeDiceFootballRules) -> Vocabulary:
        """What the dealer's screen offers at this game (:data:`VOCABULARY`)."""
        return VOCABULARY

    def screen(self, rules: ThreeDiceFootballRules) -> Screen:
        """Seat 1 to the Rules Submission's ``seats``; the throws are entered (§ 661a.6)."""
        return Screen(seats=rules.seats, dice_game=True)

    def decks(self, rules: ThreeDiceFootballRules) -> int:
        """No cards are dealt; 1 so that a stray ``cards`` event reads and is then refused."""
        return 1

    def start(self, rules: ThreeDiceFootballRules, meters: Mapping[str, Cents]) -> FootballState:
        """The kickoff: 1st Down, the Yard Marker on the 20, Play 1 (§ 661a.6(a))."""
        return FootballState(rules)

    def apply(self, state: FootballState, event: Event) -> FootballState:
        return EVENTS.apply(state, event)

    def waiting_for(self, state: FootballState) -> tuple[Waiting, ...]:
        """The Quarterback or the throw (:attr:`Actor.SHOE` stands for the dice); none once over."""
        waiting = state.waiting()
        return () if waiting is None else (waiting,)

    def settle(self, state: FootballState) -> Settlement:
        result = state.result
        if state.phase != "over" or result is None:
            raise RoundIncomplete(self.waiting_for(state))
        return settle_game(state, result)


GAME: Final[Game[ThreeDiceFootballRules, FootballState]] = ThreeDiceFootball()


__all__ = [
    "FULL_GAME_WAGERS",
    "GAME",
    "GAME_LENGTHS",
    "IRREGULARITIES",
    "MAX_PLAYS",
    "NAME",
    "SINGLE_PLAY_WAGERS",
    "WAGERS",
    "WAGER_SECTIONS",
    "WAGER_TITLES",
    "Award",
    "End",
    "Field",
    "FootballState",
    "GameResult",
    "Kind",
    "Roll",
    "ThreeDiceFootball",
    "ThreeDiceFootballRules",
    "all_rolls",
    "dice_next",
    "down_outcomes",
    "full_game_award",
    "single_play_award",
    "stakes",
]
