"""Fortune Asia Poker (ch. 659a, § 659a.11 as amended): the round's words beyond Asia Poker's.

The round's state is Asia Poker's (:class:`~controller.rules.games.asia_poker.state.AsiaPokerState`);
this module holds the names of the wagers and the meter, and the one question of a round the
events and the settlement both ask: which hands win a share of the meter.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from ...core.money import Award, MeterShare
from ...rankings.fortune import FULL_HOUSE, fortune_hand
from ..asia_poker.game import (
    AsiaPokerState,
)
from .rules import (
    FortuneAsiaPokerRules,
)

FORTUNE_ASIA_POKER: Final = "fortune_asia_poker"
FORTUNE_BONUS: Final = "fortune_bonus"
INSURANCE: Final = "insurance"
PROGRESSIVE: Final = "progressive"
ENVY_BONUS: Final = "envy_bonus"
PROGRESSIVE_METER: Final = "progressive"


def envy_wager_name(holder: int) -> str:
    """The settlement line of an Envy Bonus paid for seat ``holder``'s hand: ``"envy_bonus_seat_3"``."""
    return f"{ENVY_BONUS}_seat_{holder}"


def meter_shares(state: AsiaPokerState, players: Iterable[int]) -> list[tuple[int, Award]]:
    """The seats of ``players`` (ascending) whose Progressive Payout Wager wins a share of the meter,
    from the right (§ 659a.11(h)(3)(ii))."""
    out: list[tuple[int, Award]] = []
    rules = state.rules
    assert isinstance(rules, FortuneAsiaPokerRules)
    for seat in reversed(list(players)):
        if seat in state.voided or not state.stake(seat, PROGRESSIVE):
            continue
        hand = fortune_hand(state.cards_of(str(seat)))
        if hand.row is not None and hand.at_least(FULL_HOUSE):
            award = rules.progressive_paytable[hand.row]
            if isinstance(award, MeterShare):
                out.append((seat, award))
    return out
