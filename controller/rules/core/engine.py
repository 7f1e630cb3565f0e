"""The round engine: a game is a pure state machine fed by events.

Each game module (``caribbean_stud``, ``holdem_bonus``, ...) provides a
:class:`Game`: ``start`` makes the state of a new round from the Rules
Submission and the meters; ``apply`` takes one event and returns the new state
or raises :class:`IllegalEvent` (the state is immutable, so a refused event
changes nothing: a wager after "no more bets", § 639a.7(c), leaves the round as
it was); ``settle`` gives the :class:`~.settlement.Settlement` once the round is
complete, and otherwise raises :class:`IllegalEvent` saying what the round is waiting for.

Every other hook is declared here with its default (:class:`GameBase`, which every game derives
from), so callers ask the game and never probe for attributes: ``waiting_for`` (what the round
waits for, as :class:`~.hooks.Waiting` data), ``open_decisions``, ``hand_dealt_to``,
``progressives``, ``devices``, ``house_way``, ``totals``, ``jackpot_hands``, ``vocabulary``,
``screen`` and ``faults`` (:mod:`.hooks`). A game's events go through its :class:`EventTable`,
each handler registered once; an early ``settle`` is refused as :class:`RoundIncomplete`
(:meth:`GameBase.require_complete`).

:class:`Round` drives a game: it keeps the state and the events accepted so
far, which is exactly what the journal stores and a round record replays.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .dispatch import Handlers
from .events import Event
from .hooks import (
    Devices,
    Faults,
    HandTotal,
    HouseWaySetting,
    JackpotHand,
    Progressive,
    Screen,
    Vocabulary,
    Waiting,
    in_words,
)
from .money import Cents
from .settlement import Settlement


class IllegalEvent(ValueError):
    """An event the rules do not allow now; the message says why, citing the section."""


class RoundIncomplete(IllegalEvent):
    """A settlement asked for before the round is complete: every game refuses it in this one
    shape, the words (``"the round is not complete: it waits for ..."``) and the data
    (:attr:`waiting`, what :meth:`Game.waiting_for` says)."""

    def __init__(self, waiting: Iterable[Waiting]) -> None:
        self.waiting = tuple(waiting)
        super().__init__(f"the round is not complete: it waits for {in_words(self.waiting)}")


R = TypeVar("R")
S = TypeVar("S")


class EventTable(Handlers[str, Callable[[S, Event], S]]):
    """A game's handler of each event type, each registered once where it is written
    (``@EVENTS.register("wager")``); :meth:`apply` refuses a type with no handler, naming those the
    game takes."""

    def apply(self, state: S, event: Event) -> S:
        handler = self.get(event.type)
        if handler is None:
            raise IllegalEvent(f"{self.owner} has no {event.type} events (it takes {self.names()})")
        return handler(state, event)


class Game(Protocol[R, S]):
    """What every game module exports as ``GAME``."""

    @property
    def name(self) -> str:
        """The game's name in records and Rules Submissions: ``"caribbean-stud"``."""

    @property
    def title(self) -> str:
        """``"Caribbean Stud Poker"``."""

    @property
    def chapter(self) -> str:
        """``"58 Pa. Code ch. 639a"``."""

    @property
    def rules_class(self) -> type[R]:
        """The frozen dataclass of the game's Rules Submission options (see :mod:`.options`)."""

    @property
    def rules_checks(self) -> Iterable[Callable[[R], Iterable[str]]]:
        """Checks between options, each yielding problem lines."""

    def decks(self, rules: R) -> int:
        """How many decks the rules deal from (for the card checks of events)."""

    @property
    def joker(self) -> bool:
        """Whether the deck holds a joker."""

    def start(self, rules: R, meters: Mapping[str, Cents]) -> S:
        """The state of a new round."""

    def apply(self, state: S, event: Event) -> S:
        """The state after ``event``, or :class:`IllegalEvent`."""

    def settle(self, state: S) -> Settlement:
        """The settlement of a complete round, or :class:`IllegalEvent` saying what is missing."""

    def waiting_for(self, state: S) -> tuple[Waiting, ...]:
        """What the round waits for before it can be settled; empty exactly when :meth:`settle`
        succeeds (a void round waits for nothing: it settles by returning every wager)."""

    def open_decisions(self, state: S) -> str:
        """The decisions players may still make in a round :meth:`settle` could settle now, in
        words; ``""`` when there are none (see :func:`open_decisions`)."""

    def hand_dealt_to(self, state: S, seat: int) -> int:
        """Which hand of ``seat`` a card dealt to the seat now goes to (see :func:`hand_dealt_to`)."""

    def progressives(self, rules: R) -> tuple[Progressive, ...]:
        """The progressive wagers ``rules`` offer, each with its meter (:class:`~.hooks.Progressive`)."""

    def devices(self, rules: R) -> Devices:
        """The devices a table with ``rules`` needs (:class:`~.hooks.Devices`)."""

    def house_way(self, state: S) -> tuple[HouseWaySetting, ...]:
        """The places whose hands the house way sets now (:class:`~.hooks.HouseWaySetting`)."""

    def totals(self, state: S) -> tuple[HandTotal, ...]:
        """Each hand's total as the game counts it, for the screen (:class:`~.hooks.HandTotal`)."""

    def jackpot_hands(self, state: S) -> tuple[JackpotHand, ...]:
        """The hands dealt that make a row paid from a progressive's meter, before the round is
        settled (:class:`~.hooks.JackpotHand`)."""

    def vocabulary(self, rules: R) -> Vocabulary:
        """What the dealer's screen offers (:class:`~.hooks.Vocabulary`)."""

    def screen(self, rules: R) -> Screen:
        """How the dealer's screen lays the game out (:class:`~.hooks.Screen`)."""

    def faults(self, rules: R) -> Faults:
        """The irregularity a device's fault mid-round is at this game (:class:`~.hooks.Faults`)."""

    def next_round(self, state: S) -> tuple[Event, ...]:
        """The events the table begins the next round with, carried from the round ``state`` ends
        (the poker room's button and kill, § 637a.19(c)(2), (l)(3))."""

    def not_at_table(self, state: S, event: Event) -> str:
        """Why a table does not take ``event`` now although a round record may (``""``: it does):
        the poker room's table deals the procedure step by step, a record may give the showdown."""

    def chosen_cards(self, state: S, event: Event) -> str:
        """Why the dealer keys ``event``'s cards although the shoe works (``""``: he does not): they
        are a player's choice among cards the shoe already read (the poker room's discards,
        § 637a.20(h)), not cards from the deck."""

    def floor_decides(self, state: S, event: Event) -> str:
        """Why ``event`` takes effect only from a floorperson signed in (``""``: it does not need
        one): the game's irregularities that are the floorperson's decision (the poker room's
        disputed pot)."""

    def table_view(self, state: S) -> Mapping[str, Any]:
        """The table as the dealer's screen draws it, as data (``{}``: the screen's own panels do):
        the poker room's button, turn, legal actions, stacks and pots."""


class GameBase(ABC, Generic[R, S]):
    """What every game derives from: the hooks each game writes (``start``, ``apply``, ``settle``,
    ``waiting_for``) and the defaults of the others.

    A subclass sets ``name``, ``title``, ``chapter``, ``rules_class``, ``rules_checks`` and
    ``joker`` as class attributes and overrides a default only where its rules say otherwise.
    """

    def decks(self, rules: R) -> int:
        """One: every round is dealt from one deck (a game with a multi-deck shoe says so)."""
        return 1

    @abstractmethod
    def start(self, rules: R, meters: Mapping[str, Cents]) -> S: ...

    @abstractmethod
    def apply(self, state: S, event: Event) -> S: ...

    @abstractmethod
    def settle(self, state: S) -> Settlement: ...

    @abstractmethod
    def waiting_for(self, state: S) -> tuple[Waiting, ...]: ...

    def require_complete(self, state: S) -> None:
        """Nothing when the round can be settled; else :class:`RoundIncomplete`, what it waits for
        (every game's ``settle`` refuses an early settlement so, in one shape)."""
        waiting = self.waiting_for(state)
        if waiting:
            raise RoundIncomplete(waiting)

    def open_decisions(self, state: S) -> str:
        """None: most games settle as soon as they can (Asia Poker's surrender is the exception)."""
        return ""

    def hand_dealt_to(self, state: S, seat: int) -> int:
        """``0``, the seat's one hand (Blackjack's split hands are the exception)."""
        return 0

    def progressives(self, rules: R) -> tuple[Progressive, ...]:
        """None: a game without a progressive wager."""
        return ()

    def devices(self, rules: R) -> Devices:
        """None: the dealer keys in what happens (a game dealt by hand, or with dice)."""
        return Devices()

    def house_way(self, state: S) -> tuple[HouseWaySetting, ...]:
        """None: a game whose hands are not set (Asia Poker's are, § 659a.11)."""
        return ()

    def totals(self, state: S) -> tuple[HandTotal, ...]:
        """None: a game whose hands are ranked, not counted (Blackjack's are counted)."""
        return ()

    def jackpot_hands(self, state: S) -> tuple[JackpotHand, ...]:
        """None known before the settlement (the settlement's hand pays name them then)."""
        return ()

    def vocabulary(self, rules: R) -> Vocabulary:
        """None: a game the dealer's screen does not deal (the poker room's games)."""
        return Vocabulary()

    def screen(self, rules: R) -> Screen:
        """None: a game the dealer's screen does not deal (the poker room's games); a game it
        deals gives its seats, and whether hands are set or dice thrown."""
        return Screen()

    def faults(self, rules: R) -> Faults:
        """The Pennsylvania poker chapters' words (§ 639a.13(e), (f)): a shoe's fault is a
        ``shoe_jam``, a shuffler's a ``shuffler_jam``, a reader's a ``card_reader_malfunction``."""
        return Faults()

    def next_round(self, state: S) -> tuple[Event, ...]:
        """None: each round begins afresh (the poker room carries its button)."""
        return ()

    def not_at_table(self, state: S, event: Event) -> str:
        """Nothing: a table takes what a round record takes."""
        return ""

    def chosen_cards(self, state: S, event: Event) -> str:
        """None: every card the dealer keys is a card from the deck (by hand only while the shoe is
        out of order, § 639a.13(g))."""
        return ""

    def floor_decides(self, state: S, event: Event) -> str:
        """None beyond the table's own rule (an irregularity that voids wagers waits for a
        floorperson)."""
        return ""

    def table_view(self, state: S) -> Mapping[str, Any]:
        """Nothing: the house-banked games' screens are drawn from the status's other parts."""
        return {}


@dataclass
class Round(Generic[R, S]):
    """One round of a game: its rules, its state and the events accepted so far."""

    game: Game[R, S]
    rules: R
    state: S
    events: list[Event]

    @classmethod
    def begin(cls, game: Game[R, S], rules: R, meters: Mapping[str, Cents] | None = None) -> Round[R, S]:
        return cls(game, rules, game.start(rules, dict(meters or {})), [])

    def apply(self, event: Event) -> None:
        """Apply ``event``; if the rules refuse it, nothing changes."""
        self.state = self.game.apply(self.state, event)
        self.events.append(event)

    def settle(self) -> Settlement:
        return self.game.settle(self.state)

    def waiting_for(self) -> tuple[Waiting, ...]:
        """What the round waits for before it can be settled (:meth:`Game.waiting_for`)."""
        return self.game.waiting_for(self.state)

    def open_decisions(self) -> str:
        """What the players may still decide although the round could be settled; see
        :func:`open_decisions`."""
        return open_decisions(self.game, self.state)

    def house_way(self) -> tuple[HouseWaySetting, ...]:
        """The house way's settings the dealer sets or tells now (:meth:`Game.house_way`)."""
        return self.game.house_way(self.state)

    def totals(self) -> tuple[HandTotal, ...]:
        """Each hand's total as the game counts it (:meth:`Game.totals`)."""
        return self.game.totals(self.state)

    def jackpot_hands(self) -> tuple[JackpotHand, ...]:
        """The hands dealt that make a row paid from a meter (:meth:`Game.jackpot_hands`)."""
        return self.game.jackpot_hands(self.state)


def open_decisions(game: Game[Any, S], state: S) -> str:
    """The decisions players may still make in a round that :meth:`Game.settle` could settle now,
    in words; ``""`` when there are none.

    A game whose rules leave a player a choice after the last event the round needs (Asia Poker's
    surrender once the dealer's hands are set, § 659a.11(d)) overrides ``open_decisions(state)``;
    the table then settles only when the dealer says so, not as soon as it can.
    """
    return game.open_decisions(state)


def play(
    game: Game[Any, Any], rules: object, meters: Mapping[str, Cents], events: Iterable[Event]
) -> Settlement:
    """Feed ``events`` to a new round and settle it; the first refused event stops it.

    The error names the event's position (from 1) and the event.
    """
    rnd = Round.begin(game, rules, meters)
    for i, event in enumerate(events, start=1):
        try:
            rnd.apply(event)
        except IllegalEvent as exc:
            raise IllegalEvent(f"event {i} ({event}): {exc}") from None
    return rnd.settle()


def hand_dealt_to(game: Game[Any, S], state: S, seat: int) -> int:
    """Which hand of ``seat`` a card dealt to the seat now goes to; ``0``, the seat's one hand,
    for most games.

    A dealing shoe deals to a position, not to a hand: at Blackjack a seat that split pairs holds
    several hands, and the card goes to the one in play (§ 633a.11). A game where that matters
    overrides ``hand_dealt_to(state, seat)``.
    """
    return game.hand_dealt_to(state, seat)
