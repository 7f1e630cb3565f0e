"""Texas Hold 'Em Bonus Poker: 58 Pa. Code ch. 647a, as a pure round engine.

The round (§ 647a.8-647a.11):

1. Ante Wagers and optional Texas Hold 'Em Bonus Wagers, then "no more bets"
   (§ 647a.7(c), § 647a.8(b)).
2. Two cards to each player who placed an Ante Wager and to the dealer, the
   dealer's hand last (§ 647a.8(d), § 647a.9(b), § 647a.10(b)).
3. From the dealer's left (seat 1 up), each player folds or places a Flop Wager
   of twice the Ante (§ 647a.11(b)); then the Flop, three community cards (c).
4. Each player still in checks or places a Turn Wager equal to the Ante (d);
   the turn card (e). The same for the River Wager (f) and the river card (g).
5. The dealer's and each player's best five of seven; from the dealer's right,
   for each player still in: Ante, Flop, Turn and River Wagers, then the Bonus
   (§ 647a.11(h)); a folded player's Bonus is resolved at the conclusion of the
   round (§ 647a.11(b)(2)(i)).

Payouts: 1 to 1 on Ante, Flop, Turn and River (§ 647a.12(a)), the Ante only
when the winning hand is a straight or higher (or a flush or higher, per the
Rules Submission; § 647a.11(h)(2)(ii)), otherwise the Ante is returned; the
Bonus on the player's first two cards by paytable A or B (§ 647a.7(d)(2),
§ 647a.12(b)); at most the aggregate payout limit on one hand (§ 647a.12(c)).

Events (see docs/games/holdem-bonus.md): ``wager`` (``ante``, ``bonus``
before "no more bets"; ``flop``, ``turn``, ``river`` as the player's decision),
``no_more_bets``, ``cards`` (2 to a seat, 2 to the dealer, 3 + 1 + 1 to the
board), ``decision`` (``bet``, ``fold``, ``check``) and ``irregularity``
(the kinds in :data:`IRREGULARITIES`, § 647a.13 and the stub counts of
§ 647a.8(h), § 647a.9(f), § 647a.10(f)).

The game is in five modules, one idea each: :mod:`.rules` (the Bonus paytables and the
Rules Submission), :mod:`.state` (the round's state, its next step, what it waits
for), :mod:`.play` (the events), :mod:`.settle` (the settlement), and
this one, the :class:`~.engine.Game` that joins them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ...core.engine import GameBase, IllegalEvent
from ...core.events import Event
from ...core.hooks import Devices, Screen, Term, Vocabulary, Waiting, reported
from ...core.money import Cents
from ...core.settlement import Settlement
from .play import EVENTS
from .rules import (
    ACE_ACE,
    ACE_ACE_DEALER_AND_PLAYER,
    ACE_KING_OFFSUIT,
    ACE_KING_SUITED,
    ACE_QUEEN_JACK_OFFSUIT,
    ACE_QUEEN_JACK_SUITED,
    AGGREGATE_MINIMUM,
    BONUS_HANDS,
    BONUS_PAYTABLES,
    KINGS_QUEENS_JACKS,
    NAME,
    PAIR_TEN_TO_TWO,
    RULES_CHECKS,
    HoldemBonusRules,
    bonus_hand,
    most_one_patron_wins,
)
from .settle import settle_round, settle_void, settleable
from .state import (
    IRREGULARITIES,
    Awaiting,
    HoldemBonusState,
    SeatState,
    Void,
    awaiting,
    decisions_complete,
    waiting_step,
)

# --- the game -------------------------------------------------------------------------------


#: What the dealer's screen offers.
VOCABULARY: Final = Vocabulary(
    (Term("ante", "Ante", "§ 647a.7"), Term("bonus", "Bonus", "§ 647a.7")),
    (
        Term("bet", "Bet", "§ 647a.11(b), (d), (f)"),
        Term("check", "Check", "§ 647a.11(d), (f)"),
        Term("fold", "Fold", "§ 647a.11(b)"),
    ),
    reported(
        IRREGULARITIES,
        ("shoe_jam", "Shoe jammed"),
        ("shuffler_jam", "Shuffler jammed"),
        ("card_face_up", "Card face up"),
        ("card_drawn_in_error", "Card drawn in error"),
        ("wrong_card_count", "Wrong card count"),
        ("dealer_card_exposed", "Dealer card exposed"),
    ),
)


class HoldemBonusGame(GameBase[HoldemBonusRules, HoldemBonusState]):
    """Texas Hold 'Em Bonus Poker (58 Pa. Code ch. 647a); exported as :data:`GAME`. No
    progressive wager (the default)."""

    name: Final = NAME
    title: Final = "Texas Hold 'Em Bonus Poker"
    chapter: Final = "58 Pa. Code ch. 647a"
    rules_class: Final = HoldemBonusRules
    rules_checks: Final = RULES_CHECKS
    joker: Final = False

    def decks(self, rules: HoldemBonusRules) -> int:
        """One: with two decks, each round is dealt from one of them (§ 647a.3(b)(2)-(4))."""
        return 1

    def start(self, rules: HoldemBonusRules, meters: Mapping[str, Cents]) -> HoldemBonusState:
        return HoldemBonusState(rules, tuple(sorted(meters.items())))

    def waiting_for(self, state: HoldemBonusState) -> tuple[Waiting, ...]:
        if state.void is not None:
            return ()
        now = awaiting(state)
        return () if settleable(state, now) else (waiting_step(state, now),)

    def vocabulary(self, rules: HoldemBonusRules) -> Vocabulary:
        """What the dealer's screen offers at this game (:data:`VOCABULARY`)."""
        return VOCABULARY

    def screen(self, rules: HoldemBonusRules) -> Screen:
        """Seat 1 to the Rules Submission's ``seats`` (§ 647a.2(a))."""
        return Screen(seats=rules.seats)

    def devices(self, rules: HoldemBonusRules) -> Devices:
        """The shuffler and the automated dealing shoe, where the Rules Submission uses them."""
        return Devices.for_cards(rules.shuffler, rules.dealing, "§ 647a.5(a), § 647a.10")

    def apply(self, state: HoldemBonusState, event: Event) -> HoldemBonusState:
        if state.void is not None:
            raise IllegalEvent(f"the round is void ({state.void.reason}); it only remains to settle it")
        return EVENTS.apply(state, event)

    def settle(self, state: HoldemBonusState) -> Settlement:
        if state.void is not None:
            return settle_void(state, state.void)
        self.require_complete(state)
        return settle_round(state)


GAME: Final = HoldemBonusGame()


__all__ = [
    "ACE_ACE",
    "ACE_ACE_DEALER_AND_PLAYER",
    "ACE_KING_OFFSUIT",
    "ACE_KING_SUITED",
    "ACE_QUEEN_JACK_OFFSUIT",
    "ACE_QUEEN_JACK_SUITED",
    "AGGREGATE_MINIMUM",
    "BONUS_HANDS",
    "BONUS_PAYTABLES",
    "GAME",
    "IRREGULARITIES",
    "KINGS_QUEENS_JACKS",
    "PAIR_TEN_TO_TWO",
    "Awaiting",
    "HoldemBonusGame",
    "HoldemBonusRules",
    "HoldemBonusState",
    "SeatState",
    "Void",
    "awaiting",
    "bonus_hand",
    "decisions_complete",
    "most_one_patron_wins",
]
