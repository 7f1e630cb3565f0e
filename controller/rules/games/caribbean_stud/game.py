"""Caribbean Stud Poker: 58 Pa. Code ch. 639a, as a pure round engine.

A player places an Ante Wager, and may add the optional Caribbean Stud Bonus
Wager and Progressive Payout Wager where the Rules Submission offers them
(§ 639a.7(d)). The dealer announces "no more bets" and deals five cards to each
player with an ante and five to himself (§ 639a.8-639a.10). Then, from the
dealer's left (seat 1 upward), each player makes a Bet Wager of exactly two
times the ante or folds, forfeiting all his wagers (§ 639a.11(b)). The dealer
collects the forfeited wagers, reveals his hand and settles each remaining
player from his right (the highest seat) counterclockwise: Ante and Bet
against the dealer, who must hold ace-king or better to qualify
(§ 639a.11(c)(3)); the Bonus by its paytable whatever the dealer holds
(§ 639a.11(c)(4)); then the Progressive (§ 639a.11(c)(5)), from the meter as it
stands when that player is paid (§ 639a.12(d)(4)).

Events (:mod:`~controller.rules.core.events`) and what they mean here:

- ``wager`` ``ante`` / ``bonus`` / ``progressive``, before ``no_more_bets``; the
  Bonus and the Progressive only at a seat that has an ante (§ 639a.7(c),(d)).
- ``no_more_bets``: the dealer's announcement and the progressive lock-out
  (§ 639a.8(b), § 639a.9(a)(3), § 639a.10(a)(2)).
- ``cards`` to a seat with an ante, or to ``"dealer"``, five in all per hand;
  they may come in several events (the up card, then the hole cards).
- ``decision`` ``bet`` (optional ``amount``, exactly 2x the ante) or ``fold``, in
  turn from seat 1 upward once every hand has its five cards (§ 639a.11(b)).
- ``meter`` ``progressive``: the central meter as it stands now; with a ``seat``, the meter when
  that seat is paid (the central meter's award for its hit, :mod:`~controller.rules.core.meter_turns`).
- ``irregularity``: see :data:`IRREGULARITIES` (§ 639a.13).

Where the text was open, the choices are listed in docs/games/caribbean-stud.md.

The game is in four modules, one idea each: :mod:`.rules` (the words, paytables and
Rules Submission), :mod:`.state` (the round's state and what it waits for),
:mod:`.settle` (the settlement), and this one, the :class:`~.engine.Game` whose
events make each new state.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from ...core.engine import Game, GameBase, IllegalEvent
from ...core.events import Event
from ...core.hooks import (
    Devices,
    JackpotHand,
    Progressive,
    Screen,
    Term,
    Vocabulary,
    Waiting,
    meter_rows,
    reported,
)
from ...core.money import Cents
from ...core.settlement import Settlement, void_all
from ...rankings.high import CATEGORY_NAMES
from .play import EVENTS
from .rules import (
    IRREGULARITIES,
    NAME,
    PROGRESSIVE,
    PROGRESSIVE_PAYTABLES,
    RULES_CHECKS,
    CaribbeanStudRules,
)
from .settle import jackpot_hands, settle_showdown
from .state import (
    CaribbeanStudState,
    placed_wagers,
    round_waits_for,
    wager_title,
)

#: What the dealer's screen offers (the Progressive Payout Wager is the sensor's, § 639a.8(b)).
VOCABULARY: Final = Vocabulary(
    (Term("ante", "Ante", "§ 639a.7(a)"), Term("bonus", "Bonus", "§ 639a.7(b)")),
    (Term("bet", "Bet", "§ 639a.11(b)"), Term("fold", "Fold", "§ 639a.11(b)")),
    reported(
        IRREGULARITIES,
        ("shoe_jam", "Shoe jammed"),
        ("shuffler_jam", "Shuffler jammed"),
        ("card_face_up", "Card face up"),
        ("card_drawn_in_error", "Card drawn in error"),
        ("wrong_card_count", "Wrong card count"),
        ("hole_card_exposed", "Dealer card exposed"),
    ),
)


class CaribbeanStud(GameBase[CaribbeanStudRules, CaribbeanStudState]):
    """The :class:`~.engine.Game` for Caribbean Stud Poker."""

    name: Final = NAME
    title: Final = "Caribbean Stud Poker"
    chapter: Final = "58 Pa. Code ch. 639a"
    rules_class: Final = CaribbeanStudRules
    rules_checks: Final = RULES_CHECKS
    joker: Final = False

    def decks(self, rules: CaribbeanStudRules) -> int:
        """One: with two decks they alternate, each used for every other round (§ 639a.3(b)(2)-(3))."""
        return 1

    def vocabulary(self, rules: CaribbeanStudRules) -> Vocabulary:
        """What the dealer's screen offers at this game (:data:`VOCABULARY`)."""
        return VOCABULARY

    def screen(self, rules: CaribbeanStudRules) -> Screen:
        """Seat 1 to the Rules Submission's ``seats`` (§ 639a.2(a))."""
        return Screen(seats=rules.seats)

    def progressives(self, rules: CaribbeanStudRules) -> tuple[Progressive, ...]:
        """The Progressive Payout Wager where offered (§ 639a.7(d)(2)): one chip on the Progressive
        Table Game System's sensor is one wager (§ 639a.8(b)); the meter by § 639a.12(d)(3)."""
        if not rules.progressive_offered:
            return ()
        table = PROGRESSIVE_PAYTABLES[rules.progressive_paytable]
        return (
            Progressive(
                name=PROGRESSIVE,
                title=wager_title(PROGRESSIVE),
                section="§ 639a.7(d)(2), § 639a.12(d)",
                sensor=True,
                wager=rules.progressive_wager,
                initial=rules.progressive_initial,
                reset=rules.progressive_reset,
                rate_of_progression=rules.progressive_rate,
                meter_rows=meter_rows(table, CATEGORY_NAMES.__getitem__),
            ),
        )

    def devices(self, rules: CaribbeanStudRules) -> Devices:
        """The shuffler and the automated dealing shoe, where the Rules Submission uses them."""
        return Devices.for_cards(rules.shuffler, rules.dealing, "§ 639a.5(a), § 639a.10")

    def waiting_for(self, state: CaribbeanStudState) -> tuple[Waiting, ...]:
        return () if state.void else round_waits_for(state)

    def jackpot_hands(self, state: CaribbeanStudState) -> tuple[JackpotHand, ...]:
        """The seats dealt a Progressive row paid from the meter (:func:`.settle.jackpot_hands`)."""
        return () if state.void else jackpot_hands(state)

    def start(self, rules: CaribbeanStudRules, meters: Mapping[str, Cents]) -> CaribbeanStudState:
        # The meter as it stands, below the reset amount too after a share was paid (§ 639a.12(d)(4)).
        meter = meters.get(PROGRESSIVE)
        return CaribbeanStudState(rules=rules, meters=MappingProxyType(dict(meters)), meter=meter)

    # -- events --

    def apply(self, state: CaribbeanStudState, event: Event) -> CaribbeanStudState:
        if state.void:
            raise IllegalEvent(f"the round is void ({state.void}); it accepts nothing more")
        return EVENTS.apply(state, event)

    # -- settlement --

    def settle(self, state: CaribbeanStudState) -> Settlement:
        meters = dict(state.meters)
        if state.meter is not None:
            meters[PROGRESSIVE] = state.meter
        if state.void:
            return void_all(
                NAME,
                {s: placed_wagers(state, s) for s in state.wagers},
                f"{state.void}: all hands void, all wagers returned",
                state.void_section,
                meters,
            )
        self.require_complete(state)
        if not state.ante_seats:
            return Settlement(NAME, (), meters)
        return settle_showdown(state, meters)


GAME: Final[Game[CaribbeanStudRules, CaribbeanStudState]] = CaribbeanStud()
"""Caribbean Stud Poker, for :data:`~.games.GAMES`."""

__all__ = [
    "GAME",
    "IRREGULARITIES",
    "NAME",
    "CaribbeanStud",
    "CaribbeanStudRules",
    "CaribbeanStudState",
]
