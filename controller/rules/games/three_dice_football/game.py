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

A throw and the field are :mod:`.three_dice_football_field`, the wagers, their odds and the Rules
Submission :mod:`.three_dice_football_rules`; this module is the game: its state, its events, its
settlement. It stays a little over 500 lines: the three are one state machine of one game, each
under 200 lines.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal

from ...core.engine import Game, GameBase, IllegalEvent
from ...core.events import Event
from ...core.hooks import Actor, Term, Vocabulary, Waiting, reported
from ...core.money import Cents
from ...core.settlement import Outcome, Result, Settlement
from .field import MAX_PLAYS, NAME, End, Field, GameResult, Kind, Roll, all_rolls
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
            return Waiting(Actor.PLAYER, what, "§ 661a.4(b), (c)")
        if self.phase == "extra_point":
            what = "the extra point roll: an Extra Point Wager was placed (§ 661a.6(f)(1))"
            return Waiting(Actor.SHOE, what, "§ 661a.6(f)(1)", self.quarterback)
        what = f"the throw of play {self.field.play}, {self.field.announcement()}"
        return Waiting(Actor.SHOE, what, "§ 661a.6", self.quarterback)


def dice_next(state: FootballState) -> tuple[Literal["retain", "offer"], int]:
    """After the game: the Quarterback keeps the dice after a touchdown or Trips TD; otherwise the
    stickperson offers them to the player immediately left of the Quarterback, the next seat
    clockwise (the stickperson passes over an empty seat), and on clockwise (§ 661a.7(a))."""
    if state.phase != "over" or state.end is None or state.quarterback is None:
        raise IllegalEvent(f"the game is not over; it waits for {state.waiting_for()}")
    if state.end.scored:
        return ("retain", state.quarterback)
    return ("offer", state.quarterback % state.rules.seats + 1)


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

    def decks(self, rules: ThreeDiceFootballRules) -> int:
        """No cards are dealt; 1 so that a stray ``cards`` event reads and is then refused."""
        return 1

    def start(self, rules: ThreeDiceFootballRules, meters: Mapping[str, Cents]) -> FootballState:
        """The kickoff: 1st Down, the Yard Marker on the 20, Play 1 (§ 661a.6(a))."""
        return FootballState(rules)

    def apply(self, state: FootballState, event: Event) -> FootballState:
        if event.type == "wager":
            return _wager(state, event)
        if event.type == "decision":
            return _decision(state, event)
        if event.type == "dice":
            return _dice(state, event)
        if event.type == "irregularity":
            return _irregularity(state, event)
        if event.type == "no_more_bets":
            if state.phase != "play":
                raise IllegalEvent(f"no wagers are taken now: the game waits for {state.waiting_for()}")
            if state.closed:
                raise IllegalEvent("wagers are already closed for this throw")
            return replace(state, closed=True)
        raise IllegalEvent(
            f"Three Dice Football has no {event.type} event; it takes wager, no_more_bets, decision "
            "(accept_dice, reject_dice, retain_dice), dice and irregularity events"
        )

    def waiting_for(self, state: FootballState) -> tuple[Waiting, ...]:
        """The Quarterback or the throw (:attr:`Actor.SHOE` stands for the dice); none once over."""
        waiting = state.waiting()
        return () if waiting is None else (waiting,)

    def settle(self, state: FootballState) -> Settlement:
        result = state.result
        if state.phase != "over" or result is None:
            raise IllegalEvent(f"the game is not over: it waits for {state.waiting_for()}")
        return _settlement(state, result)


def _seat(state: FootballState, seat: int | None) -> int:
    if seat is None or not 1 <= seat <= state.rules.seats:
        raise IllegalEvent(f"seat {seat} is not a seat of this table (1 to {state.rules.seats}, § 661a.2(a))")
    return seat


def _wager(state: FootballState, event: Event) -> FootballState:
    seat = _seat(state, event.seat)
    name = event.wager or ""
    stake = event.amount or 0
    if name not in WAGERS:
        close = difflib.get_close_matches(name, WAGERS, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise IllegalEvent(f"{name!r} is not a wager of Three Dice Football (§ 661a.3){hint}")
    if name not in state.rules.wagers_offered:
        raise IllegalEvent(f"the {WAGER_TITLES[name]} is not offered at this table (Rules Submission)")
    if state.phase == "extra_point":
        raise IllegalEvent("the game is over: no wager is taken before the extra point roll (§ 661a.6(f)(1))")
    if state.phase == "over":
        raise IllegalEvent("the game is over: no wager is taken")
    if state.closed:
        raise IllegalEvent("no more bets: wagers are closed until the throw (§ 661a.3(e))")
    full = name in FULL_GAME_WAGERS
    if full and state.thrown:
        raise IllegalEvent(
            f"the {WAGER_TITLES[name]} is a full game wager: it may not be placed, increased or "
            "withdrawn after the first throw of the dice (§ 661a.3(c))"
        )
    placed = state.full_game if full else state.single_play
    others = tuple(w for w in placed if not (w.seat == seat and w.name == name))
    if stake == 0 and len(others) == len(placed):
        raise IllegalEvent(f"seat {seat} has no {name} wager to take down")
    new = others + ((Wager(seat, name, stake),) if stake else ())
    new = tuple(sorted(new, key=lambda w: (w.seat, WAGERS.index(w.name))))
    return replace(state, full_game=new) if full else replace(state, single_play=new)


def _decision(state: FootballState, event: Event) -> FootballState:
    action = event.action or ""
    if action not in DICE_ACTIONS:
        raise IllegalEvent(
            f"Three Dice Football has no decision {action!r}; the players' decisions are "
            f"{', '.join(DICE_ACTIONS)} (§ 661a.4(b), (c); § 661a.7)"
        )
    seat = _seat(state, event.seat)
    if state.quarterback is not None:
        raise IllegalEvent(f"seat {state.quarterback} is the Quarterback of this game (§ 661a.4(c))")
    if action == "retain_dice":
        if state.offers:
            raise IllegalEvent(
                "the dice are being offered around the table; only the Quarterback of a game won by a "
                "touchdown retains them, before any offer (§ 661a.7(a))"
            )
        return replace(state, quarterback=seat)
    if state.offers:
        n = state.rules.seats
        first = state.offers[0]
        if seat in state.offers:
            raise IllegalEvent(f"seat {seat} already declined the dice (§ 661a.4(b))")
        if (seat - first) % n <= (state.offers[-1] - first) % n:
            raise IllegalEvent(
                f"the dice go clockwise from seat {state.offers[-1]} (§ 661a.4(b), § 661a.7(a)); "
                f"seat {seat} is not next"
            )
    if action == "accept_dice":
        return replace(state, quarterback=seat)
    return replace(state, offers=(*state.offers, seat))


def _throw_allowed(state: FootballState) -> None:
    if state.phase == "over":
        raise IllegalEvent("the game is over: no more throws")
    if state.quarterback is None:
        raise IllegalEvent(
            "no Quarterback: the stickperson offers the dice until a player accepts them "
            "(§ 661a.4(b), (c)); enter accept_dice first"
        )
    if not state.thrown and not any(w.seat == state.quarterback for w in state.full_game + state.single_play):
        raise IllegalEvent(
            f"the Quarterback, seat {state.quarterback}, has no wager: each player places a wager "
            "before the first throw (§ 661a.6(b))"
        )


def _dice(state: FootballState, event: Event) -> FootballState:
    _throw_allowed(state)
    try:
        roll = Roll.of(event.dice)
    except ValueError as exc:
        raise IllegalEvent(f"{exc} (§ 661a.5(e))") from None
    if state.phase == "extra_point":  # § 661a.6(f)(1)
        return replace(state, extra_point=roll)
    after, end = state.field.after(roll)
    down = Down(state.field, roll, after, end, state.single_play)
    return replace(
        state,
        field=after,
        downs=(*state.downs, down),
        end=end,
        single_play=(),
        closed=False,
        thrown=True,
    )


def _irregularity(state: FootballState, event: Event) -> FootballState:
    kind = event.kind or ""
    if kind not in IRREGULARITIES:
        close = difflib.get_close_matches(kind, list(IRREGULARITIES), n=1, cutoff=0.5)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise IllegalEvent(
            f"Three Dice Football has no irregularity {kind!r}{hint} (kinds: {', '.join(IRREGULARITIES)})"
        )
    if event.seat is not None:
        _seat(state, event.seat)
    _throw_allowed(state)
    section = IRREGULARITIES[kind]
    at = "the extra point roll" if state.phase == "extra_point" else f"play {state.field.play}"
    irregular = Irregularity(at, kind, event.detail, section)
    # The throw does not count: no down is played and no wager is decided; the dice are thrown
    # again. It is still a throw, so full game wagers stay as they are (§ 661a.3(c)).
    return replace(
        state,
        irregularities=(*state.irregularities, irregular),
        closed=False,
        thrown=state.thrown or state.phase == "play",
    )


# --- settlement ------------------------------------------------------------------------------


def _outcome(wager: Wager, key: str, award: Award, hand: str) -> Outcome:
    if award.odds is None:
        return Outcome(
            wager.seat,
            key,
            wager.stake,
            Result.LOSE,
            -wager.stake,
            hand,
            WAGER_SECTIONS[wager.name],
            award.why,
        )
    return Outcome(
        wager.seat,
        key,
        wager.stake,
        Result.WIN,
        award.odds.net(wager.stake),
        hand,
        WAGER_SECTIONS[wager.name],
        f"{award.why}: {award.odds}",
    )


def _table_order(wagers: Iterable[Wager]) -> list[Wager]:
    """From the dealer's right (the highest seat) counterclockwise; within a seat, § 661a.3's order."""
    return sorted(wagers, key=lambda w: (-w.seat, WAGERS.index(w.name)))


def down_outcomes(down: Down) -> tuple[Outcome, ...]:
    """The single play wagers a down decided, in the order settled (§ 661a.6(d))."""
    hand = f"play {down.play}: {down.roll}"
    return tuple(
        _outcome(w, f"{w.name}@{down.play}", single_play_award(w.name, down.roll), hand)
        for w in _table_order(down.wagers)
    )


def _settlement(state: FootballState, result: GameResult) -> Settlement:
    outcomes: list[Outcome] = []
    # § 661a.6(d): after each down but the last, its single play wagers.
    for down in state.downs[:-1]:
        outcomes.extend(down_outcomes(down))
    last = state.downs[-1]
    hand = str(result)
    xp_hand = hand
    if state.extra_point is not None:
        xp_hand += f"; extra point roll {'-'.join(map(str, state.extra_point.dice))}"

    def full(names: Sequence[str]) -> list[Outcome]:
        return [
            _outcome(
                w,
                w.name,
                full_game_award(w.name, result, state.extra_point),
                xp_hand if w.name == "extra_point" else hand,
            )
            for w in _table_order(w for w in state.full_game if w.name in names)
        ]

    rest = ("quick_strike_td", "game_changer", *GAME_LENGTHS)
    if result.end.scored:
        # § 661a.6(f)(1): collect the Defense Wagers; settle the single play wagers and the full
        # game wagers but Touchdown and Extra Point; the extra point roll; pay the Touchdown
        # Wagers; settle the Extra Point Wagers.
        outcomes += full(("defense",))
        outcomes += down_outcomes(last)
        outcomes += full(rest)
        outcomes += full(("touchdown",))
        outcomes += full(("extra_point",))
    else:
        # § 661a.6(f)(2): collect the Touchdown and Extra Point Wagers, pay the Defense Wagers,
        # then the single play wagers and the remaining full game wagers.
        outcomes += full(("touchdown", "extra_point"))
        outcomes += full(("defense",))
        outcomes += down_outcomes(last)
        outcomes += full(rest)
    return Settlement(NAME, tuple(outcomes), {}, _dealer_words(state, result))


def _dealer_words(state: FootballState, result: GameResult) -> str:
    words = [str(result)[0].upper() + str(result)[1:]]
    if result.end is End.TURNOVER_ON_DOWNS or result.end is End.TURNOVER:
        words[0] += f", {state.field.marker} yards to the end zone"
    if state.extra_point is not None:
        words.append(f"extra point roll {'-'.join(map(str, state.extra_point.dice))}")
    for irr in state.irregularities:
        words.append(f"{irr.at}: {irr.kind.replace('_', ' ')} ({irr.section})")
    how, seat = dice_next(state)
    if how == "retain":
        words.append(f"the Quarterback, seat {seat}, retains the dice (§ 661a.7(a))")
    else:
        words.append(
            f"the dice are offered to the player left of the Quarterback, seat {state.quarterback}: "
            f"seat {seat} first, then clockwise (§ 661a.7(a))"
        )
    return "; ".join(words)


GAME: Final[Game[ThreeDiceFootballRules, FootballState]] = ThreeDiceFootball()


def stakes(state: FootballState) -> Mapping[int, Mapping[str, Cents]]:
    """Every wager on the layout now, by seat (for the dealer's screen)."""
    out: dict[int, dict[str, Cents]] = {}
    for w in state.full_game + state.single_play:
        out.setdefault(w.seat, {})[w.name] = w.stake
    return out


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
