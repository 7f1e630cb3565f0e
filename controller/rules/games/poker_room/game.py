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

The game is in five modules, one idea each: :mod:`.rules` (the variants and the Rules
Submission), :mod:`.state` (the round's state), :mod:`.play` (the events),
:mod:`.settle` (what the showdown waits for, the pots and their division, the
settlement), and this one, the :class:`~.engine.Game` that joins them; the pots, the draw and the
button are :mod:`.pots`, :mod:`.draw` and :mod:`.button`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Final

from ...core.engine import GameBase, IllegalEvent
from ...core.events import Event
from ...core.hooks import Waiting
from ...core.money import Cents
from ...core.settlement import Settlement
from .play import cards_event, decision_event, no_more_bets_event, position_event, wager_event
from .rules import ALL_SECTIONS, NAME, RULES_CHECKS, VARIANTS, PokerRoomRules
from .settle import PotAward, pot_awards, settle_round, waiting_for
from .state import KILL_FLAG, PokerRoomState

# --- the game -------------------------------------------------------------------------------


class PokerRoomGame(GameBase[PokerRoomRules, PokerRoomState]):
    """The poker room's showdowns (58 Pa. Code §§ 637a.19-637a.21); exported as :data:`GAME`.

    No progressive (a meter given at the start is refused) and no device: the dealer deals by
    hand and keys in the cards (the defaults)."""

    name: Final = "poker-room"
    title: Final = "Poker: Five-card Omaha, Triple Draw and Badugi showdowns"
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
        if event.type == "position":
            return position_event(state, event)
        if event.type == "wager":
            new = wager_event(state, event)
        elif event.type == "decision":
            new = decision_event(state, event)
        elif event.type == "cards":
            new = cards_event(state, event)
        elif event.type == "no_more_bets":
            new = no_more_bets_event(state)
        else:
            raise IllegalEvent(
                f"the poker room has no {event.type} event (it takes position, wager, cards, decision and "
                "no_more_bets)"
            )
        return replace(new, started=True)

    def waiting_for(self, state: PokerRoomState) -> tuple[Waiting, ...]:
        return waiting_for(state)

    def settle(self, state: PokerRoomState) -> Settlement:
        self.require_complete(state)
        return settle_round(state)


GAME: Final = PokerRoomGame()

__all__ = [
    "ALL_SECTIONS",
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
