"""Asia Poker, 58 Pa. Code ch. 659a: the settlement of a round (§ 659a.11(e)-(h), § 659a.12,
§ 659a.13).

:class:`AsiaPokerSettle` is built on :class:`~.play.AsiaPokerPlay`: from the dealer's right,
counterclockwise, each main wager against the dealer's hands set by the house way, then the seat's
optional wagers (:meth:`~AsiaPokerSettle.settle_optional`), then those of the table
(:meth:`~AsiaPokerSettle.settle_table`): the two steps Fortune Asia Poker settles its own way.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.engine import RoundIncomplete
from ...core.money import Cents
from ...core.payout_limit import PayoutLimit
from ...core.settlement import REMOVE_DECK, Outcome, Result, Settlement
from ...rankings.asia_poker import (
    BONUS_CATEGORY_NAMES,
    HandSettingError,
    Setting,
    asia_poker_ranking,
    bonus_key,
    check_setting,
    compare_sets,
)
from .house_way import describe_setting, set_hands
from .play import AsiaPokerPlay
from .rules import (
    BONUS,
    BONUS_PAYTABLES,
    DEALER,
    AsiaPokerRules,
)
from .state import (
    AsiaPokerState,
    Void,
)


@dataclass
class Settling:
    """What a settlement builds as it goes: the dealer's hands and the meters as paid so far."""

    state: AsiaPokerState
    dealer: Setting
    meters: dict[str, Cents]


class AsiaPokerSettle(AsiaPokerPlay):
    """The settlement of an Asia Poker round; :class:`~.game.AsiaPokerGame` is built on it."""

    def settle_optional(self, ctx: Settling, seat: int, limit: PayoutLimit) -> list[Outcome]:
        """The seat's optional wagers, after its main wager (§ 659a.11(h))."""
        state = ctx.state
        stake = state.stake(seat, BONUS)
        if not stake:
            return []
        rules = state.rules
        assert isinstance(rules, AsiaPokerRules)
        seven = state.cards_of(str(seat))
        category = bonus_key(seven)[0]
        section = "§ 659a.11(h), § 659a.12(b)"
        note = (
            "paid on every hand of § 659a.6(d), the paytable's rows; see docs/games/asia-poker.md on "
            '"9-high or better"'
        )
        if category == 0:
            return [
                Outcome(seat, BONUS, stake, Result.LOSE, -stake, "no bonus hand", "§ 659a.11(h)(1)", note)
            ]
        row = BONUS_CATEGORY_NAMES[category]
        odds = BONUS_PAYTABLES[rules.bonus_paytable][row]
        return [
            limit.pay(
                Outcome(seat, BONUS, stake, Result.WIN, odds.net(stake), row, section, f"{odds}; {note}")
            )
        ]

    def settle_table(self, ctx: Settling) -> list[Outcome]:
        """Outcomes settled after every seat's (none at Asia Poker; the Envy Bonuses at Fortune)."""
        return []

    def settle(self, state: AsiaPokerState) -> Settlement:
        if state.void is not None:
            return self._settle_void(state, state.void)
        waiting = self.dealing_waits_for(state)
        if waiting:
            # Fortune Asia Poker's meter, where a hand wins a share of it, is asked when it is paid.
            raise RoundIncomplete(waiting)
        rules = state.rules
        players = self.players(state)
        dealer_cards = state.cards_of(DEALER)
        active = [s for s in players if s not in state.voided]
        if not active:
            outcomes = [o for seat in reversed(players) for o in self._void_seat(state, seat)]
            return Settlement(self.name, tuple(outcomes), dict(state.meters))
        dealer = set_hands(dealer_cards, rules.house_way, a234_low=rules.a234_lowest)
        ctx = Settling(state, dealer, dict(state.meters))
        outcomes = []
        for seat in reversed(players):  # from the dealer's right, counterclockwise (§ 659a.11(e))
            if seat in state.voided:
                outcomes.extend(self._void_seat(state, seat))
                continue
            limit = PayoutLimit(rules.payout_limit, "§ 659a.12(c)")
            outcomes.append(limit.pay(self._main_outcome(state, seat, dealer)))
            outcomes.extend(self.settle_optional(ctx, seat, limit))
        outcomes.extend(self.settle_table(ctx))
        return Settlement(self.name, tuple(outcomes), ctx.meters, dealer=describe_setting(dealer))

    # --- settlement -------------------------------------------------------------------------------

    def _main_outcome(self, state: AsiaPokerState, seat: int, dealer: Setting) -> Outcome:
        stake = state.stake(seat, self.main_wager)
        name = self.main_wager
        if seat in state.surrendered:
            return Outcome(
                seat,
                name,
                stake,
                Result.LOSE,
                -stake,
                "surrendered",
                "§ 659a.11(d)",
                "the player surrendered; the dealer collects the wager",
            )
        setting = state.setting_of(seat)
        assert setting is not None
        ranking = asia_poker_ranking(a234_lowest=state.rules.a234_lowest)
        try:
            check_setting(*setting, ranking)
        except HandSettingError as exc:
            return Outcome(
                seat,
                name,
                stake,
                Result.LOSE,
                -stake,
                "hands not set correctly",
                ", ".join(exc.rules),
                str(exc),
            )
        outs = compare_sets(setting, dealer, ranking)
        hand = f"high {outs[0]}, medium {outs[1]}, low {outs[2]}"
        played = describe_setting(setting)
        if outs.count("win") >= 2:
            return Outcome(
                seat,
                name,
                stake,
                Result.WIN,
                stake,
                hand,
                "§ 659a.11(f)(2), § 659a.12(a)",
                f"{played}: two of three hands higher than the dealer's; 1 to 1",
            )
        section = "§ 659a.11(f)(1)(i)"
        if "copy" in outs and "lose" in outs:
            section += ", (ii)"
        return Outcome(
            seat,
            name,
            stake,
            Result.LOSE,
            -stake,
            hand,
            section,
            f"{played}: two hands identical (a copy goes to the dealer) or lower",
        )

    def _void_seat(self, state: AsiaPokerState, seat: int) -> list[Outcome]:
        reason = "the player voided the hand after the dealer exposed one of its cards"
        return [
            Outcome(seat, w, a, Result.VOID, 0, section="§ 659a.13(d)", note=reason)
            for w, a in self._ordered_wagers(state, seat)
        ]

    def _ordered_wagers(self, state: AsiaPokerState, seat: int) -> list[tuple[str, Cents]]:
        order = (self.main_wager, *self.all_optional_wagers())
        return [(w, state.stake(seat, w)) for w in order if state.stake(seat, w)]

    def _settle_void(self, state: AsiaPokerState, void: Void) -> Settlement:
        flags = (REMOVE_DECK,) if void.remove_deck else ()
        seats = sorted({s for s, _, a in state.wagers if a}, reverse=True)
        outcomes = tuple(
            Outcome(seat, w, a, Result.VOID, 0, section=void.section, note=void.reason, flags=flags)
            for seat in seats
            for w, a in self._ordered_wagers(state, seat)
        )
        return Settlement(self.name, outcomes, dict(state.meters), void=f"{void.reason} ({void.section})")
