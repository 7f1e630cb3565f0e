"""Fortune Asia Poker: ch. 659a with § 659a.11 as amended, as a pure round engine.

The round is Asia Poker's (:mod:`controller.rules.games.asia_poker.game`): the same starting
position, deal, hand setting, house way, surrender and settlement of the main
wager, here the "Fortune Asia Poker Wager" (§ 659a.11(e), (f)). Instead of the
Bonus Wager the table may offer three optional wagers, settled on the seven
cards after the main wager, all of a player's optional wagers before his cards
go to the discard rack (§ 659a.11(h), (i)):

- the **Fortune Bonus Wager** (h)(1)(i): wins with "a straight or higher ... or
  three pair or higher, depending on the payout table";
- the **Insurance Wager** (h)(2): loses with "a pair or better", wins when the
  player "does not have a pair or better, but has a card ranked a 9-high or
  better";
- the **Progressive Payout Wager** (h)(3): wins with "a full house or better";
  the dealer verifies the hand and the progressive light, a floorperson
  validates the payout, and a share of the meter is not paid from the table
  inventory container.

And the **Envy Bonus** (h)(1)(i)(B), (C), (ii): "if any player is the holder of
an Envy Bonus Qualifying Hand, the dealer shall pay an Envy Bonus ... to each
player who has an Envy lammer at the player's betting position. Players are
entitled to multiple Envy Bonuses when another player at the same Fortune Asia
Poker table is the holder of an Envy Bonus Qualifying Hand. A player is not
entitled to an Envy Bonus for his own hand or the hand of the dealer." "If any
player at the table placed a Qualifying Wager, the dealer shall rearrange the
cards of all players regardless of whether the player placed a Fortune Bonus
Wager" (h): so with any Qualifying Wager at the table, every player's seven
cards are looked at for an Envy Bonus Qualifying Hand, a player who
surrendered included ("the cards of the player must remain on the table",
(d)).

The text we have refers to a § 659a.6(d), (e) "relating to Fortune Asia Poker
rankings" and a § 659a.12(b)-(d) that it does not print. So the hands and every
paytable here come from the Rules Submission, on rows this module defines
(:data:`FORTUNE_HANDS`, :data:`INSURANCE_HANDS`, :data:`PROGRESSIVE_HANDS`); the
defaults are example values modelled on published Fortune Pai Gow Poker
paytables, marked as examples (``docs/games/asia-poker.md``).

The game is in five modules, as Asia Poker: :mod:`.rules` (the Rules Submission), :mod:`.state`
(the words of the wagers and the meter), :mod:`.play` (the events), :mod:`.settle` (the
settlement) and this one, the game that joins them.
"""

from __future__ import annotations

from typing import Final

from ...core.hooks import Actor, Progressive, Screen, Step, Term, Vocabulary, Waiting, meter_rows, reported
from ...rankings.fortune import FortuneHand, fortune_hand
from ..asia_poker.game import (
    DECISIONS,
    IRREGULARITIES,
    REPORTED,
    SEATS,
    AsiaPokerState,
    AsiaTableRules,
)
from .rules import (
    ENVY_EXAMPLE,
    FORTUNE_BONUS_EXAMPLE,
    FORTUNE_RULES_CHECKS,
    INSURANCE_EXAMPLE,
    PROGRESSIVE_EXAMPLE,
    FortuneAsiaPokerRules,
)
from .settle import FortuneSettle
from .state import (
    ENVY_BONUS,
    FORTUNE_ASIA_POKER,
    FORTUNE_BONUS,
    INSURANCE,
    PROGRESSIVE,
    PROGRESSIVE_METER,
    envy_wager_name,
    meter_shares,
)

#: What the dealer's screen offers at Fortune Asia Poker (the Progressive Payout Wager is the
#: sensor's, § 659a.7(e)); the starting position is the button's, so no shaker's no roll.
VOCABULARY: Final = Vocabulary(
    (
        Term(FORTUNE_ASIA_POKER, "Fortune Asia Poker", "§ 659a.7"),
        Term(FORTUNE_BONUS, "Fortune Bonus", "§ 659a.7"),
        Term(INSURANCE, "Insurance", "§ 659a.7"),
    ),
    DECISIONS,
    reported(IRREGULARITIES, *REPORTED),
)


class FortuneAsiaPokerGame(FortuneSettle):
    """Fortune Asia Poker (ch. 659a, § 659a.11 as amended); exported as :data:`GAME`."""

    def vocabulary(self, rules: AsiaTableRules) -> Vocabulary:
        """What the dealer's screen offers at this game (:data:`VOCABULARY`)."""
        return VOCABULARY

    def screen(self, rules: AsiaTableRules) -> Screen:
        """As Asia Poker's, the starting position given as a number 1-7 (§ 659a.5(g))."""
        return Screen(seats=SEATS, sets_hands=True, start=("position",))

    def progressives(self, rules: AsiaTableRules) -> tuple[Progressive, ...]:
        """The Progressive Payout Wager where offered (§ 659a.7(e), § 659a.11(h)(3)): one chip on
        the sensor is one wager. The text gives the meter a reset amount and no separate initial
        amount (§ 659a.12(d)), so a table's first round begins with the meter at its reset; its rate
        of progression is the Rules Submission's (``progressive.rate_of_progression``, § 601a.2)."""
        assert isinstance(rules, FortuneAsiaPokerRules)
        if not rules.progressive_offered:
            return ()
        return (
            Progressive(
                name=PROGRESSIVE_METER,
                title="Progressive Payout Wager",
                section="§ 659a.7(e), § 659a.11(h)(3), § 659a.12(d)",
                sensor=True,
                wager=rules.progressive_wager,
                initial=rules.progressive_reset,
                reset=rules.progressive_reset,
                rate_of_progression=rules.progressive_rate,
                meter_rows=meter_rows(rules.progressive_paytable),
            ),
        )

    def waiting_for(self, state: AsiaPokerState) -> tuple[Waiting, ...]:
        """As Asia Poker's, and then the meter where a hand wins a share of it and no meter is
        known (§ 659a.11(h)(3)(ii)(D))."""
        waiting = super().waiting_for(state)
        if waiting or state.void is not None or PROGRESSIVE_METER in dict(state.meters):
            return waiting
        rules = state.rules
        assert isinstance(rules, FortuneAsiaPokerRules)
        return tuple(
            Waiting(
                Actor.METER,
                f"the progressive meter: seat {seat} won {award} on the Progressive Payout Wager (a meter "
                "event, or the record's meters) (§ 659a.11(h)(3)(ii)(D))",
                "§ 659a.11(h)(3)(ii)(D)",
                seat,
                step=Step.METER,
            )
            for seat, award in meter_shares(state, self.players(state))
        )


GAME: Final = FortuneAsiaPokerGame()

__all__ = [
    "ENVY_BONUS",
    "ENVY_EXAMPLE",
    "FORTUNE_ASIA_POKER",
    "FORTUNE_BONUS",
    "FORTUNE_BONUS_EXAMPLE",
    "FORTUNE_RULES_CHECKS",
    "GAME",
    "INSURANCE",
    "INSURANCE_EXAMPLE",
    "PROGRESSIVE",
    "PROGRESSIVE_EXAMPLE",
    "PROGRESSIVE_METER",
    "FortuneAsiaPokerGame",
    "FortuneAsiaPokerRules",
    "FortuneHand",
    "envy_wager_name",
    "fortune_hand",
]
