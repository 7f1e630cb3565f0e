"""Asia Poker: 58 Pa. Code ch. 659a, as a pure round engine.

The round (§ 659a.5, § 659a.7-659a.12):

1. Asia Poker Wagers and, where the Rules Submission offers it, Bonus Wagers;
   then "no more bets" (§ 659a.7(c), § 659a.8(b)). A player may play two
   adjacent betting areas where the Rules Submission permits (§ 659a.7(f)).
2. The starting position (§ 659a.5(g)): the shaker's three dice, a number 1-7
   from the random number generator, or the button; counted from the dealer as
   one, counterclockwise around all seven positions "regardless of whether there
   is a wager at the betting position" (a ``position`` event, or a ``dice``
   event for the shaker).
3. Seven cards to every position and the dealer, clockwise from the starting
   position (§ 659a.8(c)); the four-card stub (§ 659a.8(d), (e)).
4. Each player sets a high, a medium and a low hand (§ 659a.11(b)); "help me
   set" shows the house way (§ 659a.11(a)(1)).
5. The dealer's hands are set by the house way of the Rules Submission
   (§ 659a.11(c), :mod:`.house_way`); a player without a Bonus Wager may
   surrender (§ 659a.11(d)).
6. From the dealer's right, counterclockwise: each Asia Poker Wager wins 1 to 1
   if two of the player's three hands are higher than the dealer's, and loses
   otherwise, copies going to the dealer; a hand set wrongly loses
   (§ 659a.11(e), (f), § 659a.12(a)); then the player's Bonus Wager on the
   best hand of his seven cards (§ 659a.11(h), § 659a.12(b)); all within the
   Rules Submission's payout limit per hand (§ 659a.12(c)).

The positions: seats ``1`` (the dealer's far left, dealt first clockwise) to
``6`` (the dealer's right) and ``"dealer"``. Counting counterclockwise from the
dealer as one: 1 the dealer, 2 seat 6, 3 seat 5, ... 7 seat 1, 8 the dealer
again, and so on (:func:`position_of_count`).

Events (``docs/games/asia-poker.md``): ``wager``, ``no_more_bets``,
``second_area`` (one player's two adjacent betting areas, § 659a.7(f)),
``position`` / ``dice``, ``cards``, ``decision`` (``set <high> / <medium> /
<low>``, ``help``, ``surrender``, ``void`` / ``play`` after an exposed card)
and ``irregularity`` (:data:`IRREGULARITIES`).

Fortune Asia Poker (the amended § 659a.11) is :mod:`controller.rules.games.fortune_asia_poker`, a
game of its own built on this engine.

The game is in five modules, one idea each: :mod:`.rules` (the words and the Rules
Submission), :mod:`.state` (the round's state and the steps of it both games share),
:mod:`.play` (the events), :mod:`.settle` (the settlement) and this one, the
:class:`~...core.engine.Game` that joins them. The three classes are built one on the other
(:class:`~.play.AsiaPokerPlay`, :class:`~.settle.AsiaPokerSettle`, :class:`AsiaPokerGame`), because
Fortune Asia Poker subclasses the game and answers a few of its steps its own way
(``optional_wagers``, ``check_wager``, ``settle_optional``, ``settle_table``, ``waiting_for``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ...core.hooks import (
    Devices,
    HouseWaySetting,
    Screen,
    Term,
    Vocabulary,
    Waiting,
    reported,
)
from ...core.money import Cents
from ...core.option_groups import DEALING
from ...core.payout_limit import PayoutLimit
from ...core.settlement import REMOVE_DECK
from .play import EVENTS, AsiaPokerPlay
from .rules import (
    ACTIONS,
    ASIA_POKER,
    BONUS,
    BONUS_HANDS,
    BONUS_PAYTABLES,
    CARDS_PER_HAND,
    DEALER,
    HELP,
    IRREGULARITIES,
    PAYOUT_LIMIT_MINIMUM,
    PLAY_HAND,
    POSITIONS,
    SEATS,
    SET,
    STARTING_POSITION_METHODS,
    SURRENDER,
    VOID_HAND,
    AsiaPokerRules,
    AsiaTableRules,
    button_after_round,
    check_equipment,
    check_payout_limit,
    clockwise_from,
    count_of_position,
    limit_problems,
    most_one_player_wins,
    parse_setting,
    position_of_count,
    position_words,
    setting_action,
    starting_position,
)
from .settle import AsiaPokerSettle, Settling
from .state import (
    AsiaPokerState,
    Void,
    deal_order,
    format_setting,
    help_me_set,
    settings_of,
)

#: The decisions the dealer's screen offers at Asia Poker and Fortune Asia Poker (a setting is
#: entered on the screen's hand-setting keys, § 659a.11(b)).
DECISIONS: Final = (
    Term("help", "Help: house way", "§ 659a.11(a)(1)"),
    Term("surrender", "Surrender", "§ 659a.11(d)"),
)
#: The irregularities a dealer reports at both games (the shaker's no roll only where it is used).
REPORTED: Final = (
    ("shoe_jam", "Shoe jammed"),
    ("shuffler_jam", "Shuffler jammed"),
    ("card_face_up", "Card face up"),
    ("wrong_starting_position", "Wrong start position"),
)
#: What the dealer's screen offers at Asia Poker.
VOCABULARY: Final = Vocabulary(
    (Term("asia_poker", "Asia Poker", "§ 659a.7(a)"), Term("bonus", "Bonus", "§ 659a.7(e)")),
    DECISIONS,
    reported(IRREGULARITIES, *REPORTED, ("no_roll", "No roll (shaker)")),
)


class AsiaPokerGame(AsiaPokerSettle):
    """Asia Poker (58 Pa. Code ch. 659a); exported as :data:`GAME`.

    :mod:`controller.rules.games.fortune_asia_poker` subclasses it: the round is the same, the wagers
    beside the main one and their settlement differ.
    """

    # --- the Game protocol ----------------------------------------------------------------------

    def decks(self, rules: AsiaTableRules) -> int:
        """One deck with one joker; two decks are alternated round by round (§ 659a.3)."""
        return 1

    def start(self, rules: AsiaTableRules, meters: Mapping[str, Cents]) -> AsiaPokerState:
        if not isinstance(rules, self.rules_class):
            raise TypeError(f"{self.title} needs {self.rules_class.__name__}, not {type(rules).__name__}")
        return AsiaPokerState(rules, tuple(sorted(meters.items())))

    def house_way(self, state: AsiaPokerState) -> tuple[HouseWaySetting, ...]:
        """The dealer's hands once every player has set (§ 659a.11(c)); before that, for each
        player who asked for help and has not set yet, the setting the dealer tells him
        (§ 659a.11(a)(1))."""
        out = [
            HouseWaySetting(str(seat), format_setting(shown), "§ 659a.11(a)(1)")
            for seat, shown in state.helped
            if state.setting_of(seat) is None and seat not in state.voided
        ]
        dealer = self.dealer_setting(state)
        if dealer is not None:
            out.append(HouseWaySetting(DEALER, format_setting(dealer), "§ 659a.11(c)"))
        return tuple(out)

    def waiting_for(self, state: AsiaPokerState) -> tuple[Waiting, ...]:
        return () if state.void is not None else self.dealing_waits_for(state)

    def vocabulary(self, rules: AsiaTableRules) -> Vocabulary:
        """What the dealer's screen offers at this game (:data:`VOCABULARY`)."""
        return VOCABULARY

    def screen(self, rules: AsiaTableRules) -> Screen:
        """Six seats; the players set their hands (§ 659a.10); the starting position by the shaker's
        dice or a number 1-7 (§ 659a.5(g))."""
        return Screen(seats=SEATS, sets_hands=True, start=("dice", "position"))

    def devices(self, rules: AsiaTableRules) -> Devices:
        """The shuffler and the automated dealing shoe, where the Rules Submission uses them."""
        return Devices.for_cards(rules.shuffler, rules.dealing, "§ 659a.5(a), § 659a.10")

    def may_surrender(self, state: AsiaPokerState) -> list[int]:
        """The seats that may still surrender: the dealer's hands are set, and the player has no
        optional wager, has not surrendered and has not voided his hand (§ 659a.11(d))."""
        if state.void is not None or not self.dealer_set(state):
            return []
        return [
            seat
            for seat in self.players(state)
            if seat not in state.voided
            and seat not in state.surrendered
            and not any(w != self.main_wager and a for w, a in state.seat_wagers(seat))
        ]

    def open_decisions(self, state: AsiaPokerState) -> str:
        """The surrenders still open once the round could be settled (see
        :func:`.engine.open_decisions`): "after the hands of the dealer have been set ... a player
        who has not placed an optional wager may surrender" (§ 659a.11(d))."""
        seats = self.may_surrender(state)
        if not seats or self.awaiting(state):
            return ""
        which = ", ".join(str(s) for s in seats)
        return f"seat{'s' if len(seats) > 1 else ''} {which} may still surrender (§ 659a.11(d))"


GAME: Final = AsiaPokerGame()


__all__ = [
    "ACTIONS",
    "ASIA_POKER",
    "BONUS",
    "BONUS_HANDS",
    "BONUS_PAYTABLES",
    "CARDS_PER_HAND",
    "DEALER",
    "DEALING",
    "DECISIONS",
    "EVENTS",
    "GAME",
    "HELP",
    "IRREGULARITIES",
    "PAYOUT_LIMIT_MINIMUM",
    "PLAY_HAND",
    "POSITIONS",
    "REMOVE_DECK",
    "REPORTED",
    "SEATS",
    "SET",
    "STARTING_POSITION_METHODS",
    "SURRENDER",
    "VOCABULARY",
    "VOID_HAND",
    "AsiaPokerGame",
    "AsiaPokerPlay",
    "AsiaPokerRules",
    "AsiaPokerSettle",
    "AsiaPokerState",
    "AsiaTableRules",
    "PayoutLimit",
    "Settling",
    "Void",
    "button_after_round",
    "check_equipment",
    "check_payout_limit",
    "clockwise_from",
    "count_of_position",
    "deal_order",
    "format_setting",
    "help_me_set",
    "limit_problems",
    "most_one_player_wins",
    "parse_setting",
    "position_of_count",
    "position_words",
    "setting_action",
    "settings_of",
    "starting_position",
]
