"""The poker room's showdowns: Five-card Omaha, Triple Draw and Badugi (58 Pa. Code §§ 637a.19-637a.21).

One game, ``"poker-room"``, whose Rules Submission names the ``variant`` the
table deals (:data:`VARIANTS`):

==================  ====================================================  ====================
``omaha-high``      Five-card Omaha High, § 637a.19(k)(1)                 8 players, 5 + board
``omaha-high-low``  Five-card Omaha High-low Split Eight or Better,       8 players, 5 + board
                    § 637a.19(k)(2), (l)
``triple-draw-2-7`` Triple Draw 2-7 Lowball, § 637a.20(k)(3)              7 players, 5, 3 draws
``triple-draw-a-5`` Triple Draw Ace-5 Lowball, § 637a.20(k)(4)            7 players, 5, 3 draws
``badeucey``        Triple Draw 2-7 with Badeucey, § 637a.20(l)(1)        7 players, 5, 3 draws
``badacey``         Triple Draw A-5 with Badacey, § 637a.20(l)(2)         7 players, 5, 3 draws
``badugi``          Badugi Poker, § 637a.21(k)                            9 players, 4, 3 draws
==================  ====================================================  ====================

Poker is not house-banked: the players' bets make the pots and the showdown
divides them. The round's events say what each player put in (``wager``:
``ante``, ``blind``, ``straddle``, ``kill``, ``bet``), who folded, the cards
(each player's hand, the board, and in the draw games every discard and every
new card), and the end of the final betting round (``no_more_bets``). The
settlement builds the main pot and the side pots from the bets
(:func:`.poker_pots.build_pots`) and divides each one by the variant's
showdown, to the cent.

The settlement has one line per player per pot he put chips in:
``wager`` is the pot (``main_pot``, ``side_pot_1``, ...), ``stake`` what he put
into that pot, and ``net`` what he receives from it less his stake: ``win``
when he receives more than he put in, ``push`` when he receives exactly that
(a bet nobody called, a three-way split of a pot all three built equally),
``lose`` when he receives less (``net`` is minus his stake if he receives
nothing, more than that if he receives part). Nothing is paid or collected by
the house, so the nets of a pot add up to zero, and what the dealer pushes to
a player from a pot is ``stake + net``. The settlement's ``dealer`` line says,
pot by pot, who receives what.

See docs/games/poker-room.md for the events, the options and every reading of
the text this module makes.

The game is in modules of one idea each: :mod:`.rules` (the variants and the Rules Submission),
:mod:`.state` (the round's state), :mod:`.play` (the events of a round record that gives the
showdown), :mod:`.procedure` and :mod:`.betting` (a round dealt step by step, §§ 637a.19-637a.21:
the turn, the betting rounds and their limits, the deal, the burns, the draws, the board),
:mod:`.settle` (what the showdown waits for, the pots and their division, the settlement), and
this one, the :class:`~.engine.Game` that joins them (its events through the one handler table
:data:`.play.EVENTS`); the pots, the draw
and the button are :mod:`.pots`, :mod:`.draw` and :mod:`.button`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ...core.engine import GameBase, IllegalEvent
from ...core.events import Event
from ...core.hooks import Actor, Devices, Step, Waiting
from ...core.money import Cents
from ...core.settlement import Settlement, void_all
from . import procedure
from .button import next_button
from .play import EVENTS
from .rules import ALL_SECTIONS, NAME, RULES_CHECKS, VARIANTS, PokerRoomRules
from .settle import PotAward, kill_winner, pot_awards, settle_round, waiting_for
from .state import KILL_FLAG, KILLS, OVER, PARTICIPATE, SHOWDOWN, VOID, PokerRoomState
from .view import table_view

# --- the game -------------------------------------------------------------------------------


class PokerRoomGame(GameBase[PokerRoomRules, PokerRoomState]):
    """The poker room's rounds (58 Pa. Code §§ 637a.19-637a.21); exported as :data:`GAME`.

    No progressive (a meter given at the start is refused) and no device: the dealer enters the
    bets and deals; the cards come from a card reader or are counted and shown (docs/games/poker-room.md)."""

    name: Final = "poker-room"
    title: Final = "Poker: Five-card Omaha, Triple Draw and Badugi"
    chapter: Final = "58 Pa. Code ch. 637a, §§ 637a.19-637a.21"
    rules_class: Final = PokerRoomRules
    rules_checks: Final = RULES_CHECKS
    joker: Final = False

    def decks(self, rules: PokerRoomRules) -> int:
        """One deck of 52 cards: the reshuffle of § 637a.20(h) only makes sense with one."""
        return 1

    def start(self, rules: PokerRoomRules, meters: Mapping[str, Cents]) -> PokerRoomState:
        if meters:
            raise IllegalEvent(
                f"the poker room has no progressive meter (given: {', '.join(sorted(meters))})"
            )
        return PokerRoomState(rules)

    def apply(self, state: PokerRoomState, event: Event) -> PokerRoomState:
        return EVENTS.apply(state, event)

    def waiting_for(self, state: PokerRoomState) -> tuple[Waiting, ...]:
        if state.phase == VOID:
            return ()
        if state.procedure and state.phase not in (OVER, SHOWDOWN):
            return (_procedure_waits(state),)
        if state.procedure and state.phase == SHOWDOWN and state.keyed:
            v = state.variant
            for s in state.seats:
                if not s.folded and not s.cards:
                    what = f"seat {s.seat} shows his hand or mucks it at the showdown ({v.showdown})"
                    return (Waiting(Actor.PLAYER, what, v.at("(k)"), s.seat, step=Step.CARDS),)
        return waiting_for(state)

    def settle(self, state: PokerRoomState) -> Settlement:
        if state.phase == VOID:
            wagers = {s.seat: dict(s.bets) for s in state.seats if s.bets}
            return void_all(NAME, wagers, state.void, ALL_SECTIONS, {})
        self.require_complete(state)
        return settle_round(state)

    def next_round(self, state: PokerRoomState) -> tuple[Event, ...]:
        """The button carried to the next round, "clockwise after each round of play"
        (§ 637a.19(c)(2)); after a misdeal it stays. The kill, if this round's pot qualified
        (§ 637a.19(l)(3))."""
        if not state.procedure or state.button is None or not state.seats:
            return ()
        if state.phase == VOID:
            return (Event("position", value=state.button),)
        out = [Event("position", value=next_button(state.button, state.players))]
        killer = kill_winner(state)
        if killer is not None:
            out.append(Event("decision", seat=killer, action=KILLS))
        return tuple(out)

    def devices(self, rules: PokerRoomRules) -> Devices:
        """None required (a table without a card reader counts the cards); where the table's shoe
        reads them, its burn is an event ("The dealer shall then burn the top card of the deck",
        § 637a.20(h); § 637a.19(h)-(j))."""
        return Devices(burns=True, section="§ 637a.19(f)-(j), § 637a.20(f)-(j), § 637a.21(f)-(j)")

    def chosen_cards(self, state: PokerRoomState, event: Event) -> str:
        return procedure.chosen_cards(state, event)

    def floor_decides(self, state: PokerRoomState, event: Event) -> str:
        return procedure.floor_decides(state, event)

    def table_view(self, state: PokerRoomState) -> Mapping[str, Any]:
        return table_view(state)

    def not_at_table(self, state: PokerRoomState, event: Event) -> str:
        """A poker table deals every round step by step: the button, then the players joining; the
        bets as totals and "no more bets" belong to round records of a showdown."""
        if state.procedure:
            return ""
        v = state.variant
        if procedure.draws_for_button(state):
            if event.type == "decision" and event.action == PARTICIPATE:
                return ""  # the players join, then draw for the button
            return (
                f'this table places the button by the draw (button.start = "high_card", '
                f"{v.at('(c)')}(1)(ii)): the players join first (decision participate with their chips), "
                "then a single card to each"
            )
        if event.type == "position":
            return ""  # the rules place the button once, before anything else
        if event.type == "decision" and event.action in (PARTICIPATE, KILLS) and state.button is not None:
            return ""
        if state.button is None:
            return (
                f"a poker table's round begins with the button ({v.at('(c)')}): the dealer places it "
                "(a position event) before anything else"
            )
        return (
            f"a poker table deals the round step by step: the players join first (decision participate "
            f"with their chips, {v.at('(b)')})"
        )


def _procedure_waits(state: PokerRoomState) -> Waiting:
    what = procedure.expecting(state)
    v = state.variant
    betting = state.betting
    if betting is not None and betting.turn is not None:
        return Waiting(
            Actor.PLAYER,
            what,
            v.at("(g)") if state.street == 0 else v.at("(h)"),
            betting.turn,
            step=Step.DECISION,
        )
    if state.drawing is not None:
        return Waiting(Actor.SHOE, what, v.at("(h)"), state.drawing.seat, step=Step.CARDS)
    return Waiting(Actor.DEALER, what, v.section, step=Step.CARDS)


GAME: Final = PokerRoomGame()

__all__ = [
    "ALL_SECTIONS",
    "EVENTS",
    "GAME",
    "KILL_FLAG",
    "NAME",
    "RULES_CHECKS",
    "VARIANTS",
    "PokerRoomGame",
    "PokerRoomRules",
    "PokerRoomState",
    "PotAward",
    "pot_awards",
    "waiting_for",
]
