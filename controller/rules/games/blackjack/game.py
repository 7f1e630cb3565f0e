"""Blackjack and its optional wagers: 58 Pa. Code ch. 633a, as a pure round engine.

Our copy of the chapter (43 Pa.B. 834) prints only the amended parts: § 633a.1
(some definitions), § 633a.2(b)(13)-(16), (c), (d), § 633a.6(e)(10)-(12), (f),
§ 633a.7(g)(8)-(10), (h), (o)(2), (o)(3), § 633a.13(m)-(o) and § 635a.10(a). The
base game (§ 633a.7(a)-(f), § 633a.8 insurance, § 633a.9 surrender, § 633a.10
doubling, § 633a.11 splitting, § 633a.13(a)-(l), § 633a.14 irregularities) is the
standard Pennsylvania game: a Blackjack pays 3 to 2, insurance 2 to 1, other
winning wagers 1 to 1; the dealer draws to 16 and stands on 17 (on a soft 17 as
the Rules Submission says); doubling, splitting and surrender as the Rules
Submission says. Where the text was open, the choice is in docs/games/blackjack.md.

The round, as events (:mod:`~controller.rules.core.events`):

1. ``wager`` ``blackjack`` and the optional wagers offered (``three_card_poker``,
   ``straight_jack``, ``house_money``, ``hit_and_run``, ``bad_beat``), each at a
   seat holding a Blackjack Wager (§ 633a.6(e)); then ``no_more_bets`` (the
   lock-out of § 633a.2(c), (d)(2)).
2. ``cards``: two to each seat with a Blackjack Wager and one, the up card, to the
   dealer. The hole card is dealt face down; it is given when it is revealed.
3. The optional wagers are settled right after the second card, from the
   dealer's right, in the order of § 633a.7(g): Three Card Poker ((g)(8)),
   Straight Jack that lost ((g)(9)), House Money ((g)(10)). A winning House Money
   Wager waits for the card reader when the up card is an ace or a 10-count card
   ((g)(10)(i)).
4. Up card an ace: ``decision`` ``insurance`` (optional ``amount``, at most half the
   Blackjack Wager) or ``even_money`` (a player's Blackjack) (§ 633a.8). Up card an
   ace or a 10-count: ``hole_card_reader`` (§ 633a.7(h)). A dealer Blackjack ends
   the round: the dealer's hole card (``cards`` to ``"dealer"``) and settlement.
5. ``decision`` ``add_house_money`` (§ 633a.7(g)(10)(ii)) before play begins; then
   from seat 1 (the dealer's left), hand by hand: ``hit``, ``stand``,
   ``double_down`` (optional ``amount``), ``split``, ``surrender``; each card a
   ``cards`` event to the seat (``hand`` for a hand formed by splitting). At a
   Spanish 21 table (``spanish_21.offered``, § 635a.10(a)) ``double_down`` is also
   made on three or more cards; with ``spanish_21.rescue`` a doubled hand that is
   not over 21 then waits for ``stand`` or ``rescue`` (§ 635a.10: the original
   wager is forfeited, the Double Down Wager returned).
6. The dealer's hole card and draws (``cards`` to ``"dealer"``), then settlement in
   the order the dealer settles, each stage from the dealer's right: the optional
   wagers of § 633a.7(g) (step 3), even money, what waited for the card reader
   (House Money, insurance), the Blackjack and Double Down Wagers, then the
   remaining optional wagers of § 633a.7(o): Bad Beat, Hit and Run ((o)(2)),
   Straight Jack ((o)(3)).

``meter`` events (``straight_jack``, ``hit_and_run``, ``bad_beat``) may come at any
time; ``irregularity`` (:data:`.state.IRREGULARITIES`) voids what is not yet settled.

The game is in ten modules, one idea each: :mod:`.rules` (the Rules Submission and its checks),
:mod:`.state` (the round's state), :mod:`.waiting` (what it waits for), :mod:`.play` (the events),
:mod:`.decisions` (the players' decisions), :mod:`.offered` (the decisions taken now, the hands'
totals), :mod:`.settle` (the settlement), :mod:`.wagers` (the optional wagers' paytables and
progressive payouts), :mod:`.optional_settle` (settling them), and this one, the
:class:`~.engine.Game` that joins them; the hand values are
:mod:`~controller.rules.rankings.blackjack`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from ...core.engine import Game, GameBase, IllegalEvent, RoundIncomplete
from ...core.events import Event
from ...core.hooks import (
    Devices,
    Faults,
    HandTotal,
    Progressive,
    Screen,
    Term,
    Vocabulary,
    Waiting,
    meter_rows,
)
from ...core.money import Cents
from ...core.settlement import Settlement
from . import offered
from .play import EVENTS, check_meter
from .rules import NAME, RULES_CHECKS, BlackjackRules
from .settle import settlement, void_settlement
from .state import COMPLETE, VOID, BlackjackState
from .wagers import BAD_BEAT, HIT_AND_RUN, STRAIGHT_JACK, STRAIGHT_JACK_AWARDS, TITLES
from .waiting import waiting, waiting_for

# --- the game ------------------------------------------------------------------------------------


#: What the dealer's screen offers (Blackjack and Spanish 21: Spanish 21's rescue is refused at a
#: Blackjack table by the rules, with its section).
VOCABULARY: Final = Vocabulary(
    (
        Term("blackjack", "Blackjack", "§ 633a.6"),
        Term("three_card_poker", "Three Card Poker", "§ 633a.6(e), § 633a.7(g)(8)"),
    ),
    (
        Term("hit", "Hit", "§ 633a.7"),
        Term("stand", "Stand", "§ 633a.7"),
        Term("double_down", "Double", "§ 633a.10"),
        Term("split", "Split", "§ 633a.11"),
        Term("surrender", "Surrender", "§ 633a.9"),
        Term("insurance", "Insurance", "§ 633a.8"),
        Term("even_money", "Even money", "§ 633a.8"),
        Term("rescue", "Rescue (Spanish 21)", "§ 635a.10"),
    ),
    (
        Term("shoe_jam", "Shoe jammed", "§ 633a.14 (design: void)"),
        Term("card_reader_malfunction", "Reader failed", "§ 633a.7(h)"),
        Term("shuffler_malfunction", "Shuffler failed", "§ 633a.14 (design: void)"),
    ),
)


class Blackjack(GameBase[BlackjackRules, BlackjackState]):
    """Blackjack (ch. 633a) for the round engine (:class:`~.engine.Game`)."""

    name = NAME
    title = "Blackjack"
    chapter = "58 Pa. Code ch. 633a"
    rules_class = BlackjackRules
    rules_checks = RULES_CHECKS
    joker = False

    def decks(self, rules: BlackjackRules) -> int:
        return rules.decks

    def start(self, rules: BlackjackRules, meters: Mapping[str, Cents]) -> BlackjackState:
        current: dict[str, Cents] = {}
        for name, amount in meters.items():
            check_meter(rules, name, amount)
            current[name] = amount
        return BlackjackState(rules, MappingProxyType(current))

    def apply(self, state: BlackjackState, event: Event) -> BlackjackState:
        if state.phase == VOID:
            raise IllegalEvent(f"the round is void ({state.void}); it accepts nothing more")
        return EVENTS.apply(state, event)

    def hand_dealt_to(self, state: BlackjackState, seat: int) -> int:
        """The hand of ``seat`` a card dealt to the seat now goes to (see
        :func:`.engine.hand_dealt_to`): the hand in play there, since split hands are played one
        at a time (§ 633a.11); ``0`` when no hand of that seat is in play."""
        turn = state.turn
        return turn[1] if turn is not None and turn[0] == seat else 0

    def waiting_for(self, state: BlackjackState) -> tuple[Waiting, ...]:
        """What the round waits for, each item with the decisions the rules take at it
        (:func:`.offered.with_decisions`: the dealer's screen offers only those)."""
        return offered.with_decisions(state, waiting(state))

    def totals(self, state: BlackjackState) -> tuple[HandTotal, ...]:
        """Each hand's total, soft or hard (:func:`.offered.totals`, § 633a.1)."""
        return offered.totals(state)

    def vocabulary(self, rules: BlackjackRules) -> Vocabulary:
        """What the dealer's screen offers at this game (:data:`VOCABULARY`)."""
        return VOCABULARY

    def screen(self, rules: BlackjackRules) -> Screen:
        """Seat 1 to the Rules Submission's ``seats`` (§ 633a.2)."""
        return Screen(seats=rules.seats)

    def faults(self, rules: BlackjackRules) -> Faults:
        """A shuffler's fault is a ``shuffler_malfunction`` at Blackjack (its irregularities,
        :data:`.state.IRREGULARITIES`)."""
        return Faults(shuffler="shuffler_malfunction")

    def progressives(self, rules: BlackjackRules) -> tuple[Progressive, ...]:
        """The Bad Beat, Hit and Run and Straight Jack Progressive Wagers the Rules Submission
        offers (§ 633a.6(e)(8), (10), (11)), each with its meter of the same name, each counted by
        its own wagering device at the seat (§ 633a.2(c): "an electronic wagering system for the
        placement of the Bad Beat Progressive Wager"; § 633a.2(d)(1): "a wagering device at each
        betting position" for the Hit and Run and Straight Jack): one chip is one wager of
        ``<wager>.wager``."""
        declared = (
            (
                BAD_BEAT,
                rules.bad_beat_offered,
                "§ 633a.6(e)(8)",
                rules.bad_beat_initial,
                rules.bad_beat_reset,
                rules.bad_beat_rate,
                rules.bad_beat_wager,
                meter_rows(rules.bad_beat_paytable or {}),
            ),
            (
                HIT_AND_RUN,
                rules.hit_and_run_offered,
                "§ 633a.6(e)(10), § 633a.13(l)",
                rules.hit_and_run_initial,
                rules.hit_and_run_reset,
                rules.hit_and_run_rate,
                rules.hit_and_run_wager,
                meter_rows(rules.hit_and_run_paytable or {}),
            ),
            (
                STRAIGHT_JACK,
                rules.straight_jack_offered,
                "§ 633a.6(e)(11), § 633a.13(m)",
                rules.straight_jack_initial,
                rules.straight_jack_reset,
                rules.straight_jack_rate,
                rules.straight_jack_wager,
                meter_rows(STRAIGHT_JACK_AWARDS),
            ),
        )
        return tuple(
            Progressive(name, TITLES[name], section, True, wager, initial, reset, rate, rows)
            for name, offered, section, initial, reset, rate, wager, rows in declared
            if offered
        )

    def devices(self, rules: BlackjackRules) -> Devices:
        """The automated dealing shoe and the hole-card reader: with an ace or a 10-count up card
        the hole card goes to the reader (§ 633a.7(h))."""
        return Devices(shoe=True, hole_card_reader=True, section="§ 633a.7(h)")

    def settle(self, state: BlackjackState) -> Settlement:
        if state.phase == VOID:
            return void_settlement(state)
        if state.phase != COMPLETE:
            raise RoundIncomplete(self.waiting_for(state))
        return settlement(state)


GAME: Final[Game[BlackjackRules, BlackjackState]] = Blackjack()
"""Blackjack, for :data:`~.games.GAMES`."""

__all__ = [
    "GAME",
    "NAME",
    "RULES_CHECKS",
    "Blackjack",
    "BlackjackRules",
    "BlackjackState",
    "waiting",
    "waiting_for",
]
