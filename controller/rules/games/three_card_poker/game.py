"""Three Card Poker, 58 Pa. Code ch. 649a: the round engine.

A player competes against the dealer with an Ante Wager and then a Play Wager
equal to it, or folds; the Ante Bonus is paid on the Ante for a straight or
better whatever the dealer holds; the Pair Plus Wager is paid on a pair or
better of the player's own three cards; the optional Six Card Bonus Wager on
the best five-card hand of the player's three cards and the dealer's three.

Which text this relies on
-------------------------
Our copy of ch. 649a (43 Pa.B. 834) prints only the amended parts:
§ 649a.6(d)(8) (the Super Royal of paytable E in § 649a.12(f)),
§ 649a.6(e) (the mini-royal flush) and § 649a.12(g) (a mini-royal flush in the
paytables of § 649a.12(b) at no less than 5 to 1 and of § 649a.12(d) at no less
than 40 to 1). The rest of § 649a.7, § 649a.11, § 649a.12 and § 649a.13 was not
found by the reference search. So:

- the flow of the round follows the Pennsylvania poker chapters we do have,
  section for section (§ 639a.7, § 639a.11 and § 639a.13 of Caribbean Stud), and
  the standard Three Card Poker rules: Play = 1x Ante or fold, from the dealer's
  left; the dealer qualifies with a queen-high or better; a dealer who does not
  qualify pays the Ante 1 to 1 and returns the Play; otherwise the higher hand
  wins both, a tie returns both;
- a secondary source quoting § 649a.11(b)(1) says a player who folds forfeits
  the Pair Plus Wager with the Ante; this module does that, and forfeits the Six
  Card Bonus Wager with them (the folded hand and its wagers are collected
  before the dealer's cards are revealed, as § 639a.11(b),(c) do);
- § 649a.12(b) is the Ante Bonus and § 649a.12(d) the Pair Plus paytable (the
  5 to 1 and 40 to 1 minimums of § 649a.12(g) fit those two tables, and the same
  source names them so); their odds, and those of the Six Card Bonus paytable
  the submission selects by letter (§ 649a.12(f)), are written out in the Rules
  Submission (``*.odds``), because our copy does not print the tables;
- the irregularities are those of § 639a.13(a)-(f), which every Pennsylvania
  poker chapter we have repeats: a second card found face up, a wrong number of
  cards, a dealer's card exposed before every decision, a jammed dealing shoe
  void the round and return every wager.

``docs/games/three-card-poker.md`` lists every such choice.

The game is in five modules, one idea each: :mod:`.rules` (the words and the Rules Submission),
:mod:`.state` (the round's state and what it waits for), :mod:`.play` (the events),
:mod:`.settle` (the settlement), and this one, the :class:`~.engine.Game` that joins them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ...core.engine import Game, GameBase, IllegalEvent
from ...core.events import Event
from ...core.hooks import Devices, Screen, Term, Vocabulary, Waiting
from ...core.money import Cents
from ...core.settlement import Settlement, void_all
from .play import EVENTS
from .rules import (
    RULES_CHECKS,
    ThreeCardPokerRules,
)
from .settle import settle_round
from .state import IRREGULARITIES, ThreeCardPokerState, waiting_for

#: What the dealer's screen offers; the irregularities follow § 649a.13, which applies § 639a.13
#: (``SEC_IRREGULARITIES``), each with its subsection there.
VOCABULARY: Final = Vocabulary(
    (
        Term("ante", "Ante", "§ 649a.7"),
        Term("pair_plus", "Pair Plus", "§ 649a.7"),
        Term("six_card_bonus", "Six Card Bonus", "§ 649a.7"),
    ),
    (Term("play", "Play", "§ 649a.11(b)"), Term("fold", "Fold", "§ 649a.11(b)")),
    tuple(
        Term(kind, title, f"§ 649a.13 (as § 639a.13({sub}))")
        for kind, title, sub in (
            ("shoe_jam", "Shoe jammed", "f"),
            ("shuffler_jam", "Shuffler jammed", "e"),
            ("card_face_up", "Card face up", "a"),
            ("card_drawn_in_error", "Card drawn in error", "b"),
            ("wrong_card_count", "Wrong card count", "c"),
        )
    ),
)


@dataclass(frozen=True)
class ThreeCardPokerGame(GameBase[ThreeCardPokerRules, ThreeCardPokerState]):
    """Three Card Poker as a :class:`~.engine.Game`. No progressive wager (the default)."""

    name: str = "three-card-poker"
    title: str = "Three Card Poker"
    chapter: str = "58 Pa. Code ch. 649a"
    rules_class: type[ThreeCardPokerRules] = ThreeCardPokerRules
    rules_checks: tuple[Callable[[ThreeCardPokerRules], Iterable[str]], ...] = RULES_CHECKS
    joker: bool = False

    def decks(self, rules: ThreeCardPokerRules) -> int:
        """Every round is dealt from one deck, even where two alternate (as § 639a.3(b)(2),(3))."""
        return 1

    def start(self, rules: ThreeCardPokerRules, meters: Mapping[str, Cents]) -> ThreeCardPokerState:
        return ThreeCardPokerState(rules, MappingProxyType(dict(meters)))

    def waiting_for(self, state: ThreeCardPokerState) -> tuple[Waiting, ...]:
        return () if state.void else waiting_for(state)

    def vocabulary(self, rules: ThreeCardPokerRules) -> Vocabulary:
        """What the dealer's screen offers at this game (:data:`VOCABULARY`)."""
        return VOCABULARY

    def screen(self, rules: ThreeCardPokerRules) -> Screen:
        """Seat 1 to the Rules Submission's ``seats``."""
        return Screen(seats=rules.seats)

    def devices(self, rules: ThreeCardPokerRules) -> Devices:
        """Two decks only alternated with an automated card shuffling device (§ 649a.3, as
        § 639a.3(b)); the cards may come from an automated dealing shoe (its jam is an
        irregularity, § 649a.13), which the Rules Submission does not require."""
        return Devices(shuffler=rules.decks == 2, section="§ 649a.3")

    # --- events ----------------------------------------------------------------------------

    def apply(self, state: ThreeCardPokerState, event: Event) -> ThreeCardPokerState:
        if state.void:
            raise IllegalEvent(f"the round is void ({state.void}); it waits only to be settled")
        return EVENTS.apply(state, event)

    # --- settlement ------------------------------------------------------------------------

    def settle(self, state: ThreeCardPokerState) -> Settlement:
        if state.void:
            return void_all(self.name, state.wagers, state.void, state.void_section, state.meters)
        self.require_complete(state)
        return settle_round(self.name, state)


GAME: Final[Game[ThreeCardPokerRules, ThreeCardPokerState]] = ThreeCardPokerGame()

__all__ = ["GAME", "IRREGULARITIES", "ThreeCardPokerGame", "ThreeCardPokerRules", "ThreeCardPokerState"]
