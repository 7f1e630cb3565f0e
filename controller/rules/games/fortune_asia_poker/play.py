"""Fortune Asia Poker (ch. 659a, § 659a.11 as amended): the events of a round.

The events are Asia Poker's (:class:`~controller.rules.games.asia_poker.play.AsiaPokerPlay`);
:class:`FortunePlay` answers the table's own wagers: the three optional wagers in place of the
Bonus Wager, their minimums, the progressive meter, and the Progressive Payout Wager's one chip.
"""

from __future__ import annotations

from ...core.engine import IllegalEvent
from ...core.events import Event
from ...core.money import Cents, format_money
from ..asia_poker.game import (
    AsiaPokerGame,
    AsiaPokerState,
    AsiaTableRules,
)
from .rules import (
    FORTUNE_RULES_CHECKS,
    FortuneAsiaPokerRules,
)
from .state import (
    FORTUNE_ASIA_POKER,
    FORTUNE_BONUS,
    INSURANCE,
    PROGRESSIVE,
    PROGRESSIVE_METER,
)


class FortunePlay(AsiaPokerGame):
    """The events of a Fortune Asia Poker round; :class:`~.game.FortuneAsiaPokerGame` is built on it."""

    name = "fortune-asia-poker"
    title = "Fortune Asia Poker"
    chapter = "58 Pa. Code ch. 659a (§ 659a.11 as amended)"
    rules_class = FortuneAsiaPokerRules
    rules_checks = FORTUNE_RULES_CHECKS
    main_wager = FORTUNE_ASIA_POKER
    main_words = "Fortune Asia Poker Wager"

    def optional_wagers(self, rules: AsiaTableRules) -> tuple[str, ...]:
        assert isinstance(rules, FortuneAsiaPokerRules)
        offered = (
            (FORTUNE_BONUS, rules.fortune_bonus_offered),
            (INSURANCE, rules.insurance_offered),
            (PROGRESSIVE, rules.progressive_offered),
        )
        return tuple(w for w, yes in offered if yes)

    def all_optional_wagers(self) -> tuple[str, ...]:
        return (FORTUNE_BONUS, INSURANCE, PROGRESSIVE)

    def check_wager(self, state: AsiaPokerState, event: Event) -> None:
        """The Progressive Payout Wager is one chip of the table's value (§ 659a.7(e))."""
        rules = state.rules
        assert isinstance(rules, FortuneAsiaPokerRules)
        amount = event.amount or 0
        if event.wager == PROGRESSIVE and amount and amount != rules.progressive_wager:
            # § 659a.7(e): the Progressive Payout Wager is the table's one value chip on the
            # wagering device (progressive.wager); 0.00 still takes it back before "no more bets".
            raise IllegalEvent(
                f"seat {event.seat} progressive: the Progressive Payout Wager is "
                f"{format_money(rules.progressive_wager)} (progressive.wager), not {format_money(amount)} "
                "(§ 659a.7(e))"
            )

    def minimum(self, rules: AsiaTableRules, wager: str) -> Cents:
        assert isinstance(rules, FortuneAsiaPokerRules)
        return {
            FORTUNE_ASIA_POKER: rules.fortune_asia_poker_minimum,
            FORTUNE_BONUS: rules.fortune_bonus_minimum,
            INSURANCE: rules.insurance_minimum,
        }.get(wager, 1)

    def meter_names(self, rules: AsiaTableRules) -> tuple[str, ...]:
        assert isinstance(rules, FortuneAsiaPokerRules)
        return (PROGRESSIVE_METER,) if rules.progressive_offered else ()
