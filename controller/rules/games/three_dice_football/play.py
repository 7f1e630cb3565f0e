"""The events of a game of Three Dice Football (ch. 661a), each making the new state or refusing,
citing the section: wagers, "no more bets" for a throw, the Quarterback's decisions on the dice,
the throws, and the irregularities. Each handler is registered once in :data:`EVENTS`."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ...core.dispatch import did_you_mean
from ...core.engine import EventTable, IllegalEvent
from ...core.events import Event
from .field import Roll
from .rules import (
    FULL_GAME_WAGERS,
    WAGER_TITLES,
    WAGERS,
)
from .state import DICE_ACTIONS, IRREGULARITIES, Down, FootballState, Irregularity, Wager

EVENTS: Final = EventTable[FootballState]("Three Dice Football")
"""The handler of each event type this game takes."""


def _seat(state: FootballState, seat: int | None) -> int:
    if seat is None or not 1 <= seat <= state.rules.seats:
        raise IllegalEvent(f"seat {seat} is not a seat of this table (1 to {state.rules.seats}, § 661a.2(a))")
    return seat


@EVENTS.register("wager")
def _wager(state: FootballState, event: Event) -> FootballState:
    seat = _seat(state, event.seat)
    name = event.wager or ""
    stake = event.amount or 0
    if name not in WAGERS:
        hint = did_you_mean(name, WAGERS)
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


@EVENTS.register("decision")
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


@EVENTS.register("dice")
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


@EVENTS.register("irregularity")
def _irregularity(state: FootballState, event: Event) -> FootballState:
    kind = event.kind or ""
    if kind not in IRREGULARITIES:
        hint = did_you_mean(kind, list(IRREGULARITIES), 0.5)
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


@EVENTS.register("no_more_bets")
def _no_more_bets(state: FootballState, event: Event) -> FootballState:
    if state.phase != "play":
        raise IllegalEvent(f"no wagers are taken now: the game waits for {state.waiting_for()}")
    if state.closed:
        raise IllegalEvent("wagers are already closed for this throw")
    return replace(state, closed=True)
