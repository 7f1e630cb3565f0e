"""Fortune Asia Poker (ch. 659a, § 659a.11 as amended): the settlement of a round.

The main wager is settled as Asia Poker's (:mod:`controller.rules.games.asia_poker.settle`);
:class:`FortuneSettle` settles each seat's Fortune Bonus, Insurance and Progressive Payout Wagers
after it (§ 659a.11(h)(1)-(3), (i)) and the table's Envy Bonuses after all of them
(§ 659a.11(h)(1)(ii)).
"""

from __future__ import annotations

from ...core.engine import IllegalEvent
from ...core.meter_turns import when_paid
from ...core.money import Cents, MeterShare, Odds, format_money, pay_from_meter
from ...core.payout_limit import PayoutLimit
from ...core.settlement import FLOORPERSON_VALIDATE, NOT_FROM_INVENTORY, PROGRESSIVE_LIGHT, Outcome, Result
from ...rankings.fortune import FULL_HOUSE, STRAIGHT, THREE_PAIR, FortuneHand, fortune_hand
from ..asia_poker.game import (
    AsiaPokerState,
    Settling,
)
from .play import FortunePlay
from .rules import (
    FortuneAsiaPokerRules,
)
from .state import (
    FORTUNE_BONUS,
    INSURANCE,
    PROGRESSIVE,
    PROGRESSIVE_METER,
    envy_wager_name,
)


class FortuneSettle(FortunePlay):
    """The settlement of a Fortune Asia Poker round; :class:`~.game.FortuneAsiaPokerGame` is built on it."""

    def lammers(self, ctx: Settling) -> list[int]:
        """The seats with an Envy lammer: a Qualifying Wager on a hand not voided.

        A Qualifying Wager is a Fortune Bonus or Progressive Payout Wager of at
        least ``envy.qualifying_wager``.
        """
        state = ctx.state
        rules = state.rules
        assert isinstance(rules, FortuneAsiaPokerRules)
        return [
            s
            for s in self.players(state)
            if s not in state.voided
            and max(state.stake(s, FORTUNE_BONUS), state.stake(s, PROGRESSIVE)) >= rules.envy_qualifying_wager
        ]

    def _envy_areas(self, state: AsiaPokerState, lammers: list[int]) -> list[int]:
        """The areas Envy Bonuses are paid at: one per player with an Envy lammer (§ 659a.11(h)(1)(ii)
        "to each player who has an Envy lammer at the player's betting position").

        A player on two adjacent areas (§ 659a.7(f), the ``second_area`` event) with a lammer on
        each is one player: he is paid one Envy Bonus for each other player's qualifying hand, at
        the area whose hand he sets first (the larger wager; equal, the higher seat). With one
        lammer, at that area. docs/games/asia-poker.md gives the other reading.
        """
        out: list[int] = []
        for seat in lammers:
            partner = state.partner(seat)
            if partner in lammers and self._first_of_pair(state, seat, partner) != seat:
                continue
            out.append(seat)
        return out

    def settle_optional(self, ctx: Settling, seat: int, limit: PayoutLimit) -> list[Outcome]:
        """The Fortune Bonus, Insurance and Progressive Payout Wagers, in order (§ 659a.11(h)(1)-(3), (i))."""
        state = ctx.state
        rules = state.rules
        assert isinstance(rules, FortuneAsiaPokerRules)
        hand = fortune_hand(state.cards_of(str(seat)))
        out: list[Outcome] = []
        stake = state.stake(seat, FORTUNE_BONUS)
        if stake:
            award = rules.fortune_bonus_paytable[hand.row] if hand.row is not None else None
            least = STRAIGHT if rules.fortune_bonus_paytable[THREE_PAIR] is None else THREE_PAIR
            if hand.row is None or award is None:
                out.append(
                    Outcome(
                        seat,
                        FORTUNE_BONUS,
                        stake,
                        Result.LOSE,
                        -stake,
                        hand.row or "no Fortune hand",
                        "§ 659a.11(h)(1)(i)(A)",
                        f"not a {least} or higher",
                    )
                )
            else:
                assert isinstance(award, Odds)
                out.append(
                    limit.pay(
                        Outcome(
                            seat,
                            FORTUNE_BONUS,
                            stake,
                            Result.WIN,
                            award.net(stake),
                            hand.row,
                            "§ 659a.11(h)(1)(i)(B), § 659a.12(b)",
                            str(award),
                        )
                    )
                )
        stake = state.stake(seat, INSURANCE)
        if stake:
            row = hand.insurance_row
            award = rules.insurance_paytable[row] if row is not None else None
            if row is None or award is None:
                words = hand.row or "a pair or better"
                out.append(
                    Outcome(
                        seat,
                        INSURANCE,
                        stake,
                        Result.LOSE,
                        -stake,
                        words,
                        "§ 659a.11(h)(2)(i)",
                        "a pair or better",
                    )
                )
            else:
                assert isinstance(award, Odds)
                out.append(
                    limit.pay(
                        Outcome(
                            seat,
                            INSURANCE,
                            stake,
                            Result.WIN,
                            award.net(stake),
                            row,
                            "§ 659a.11(h)(2)(ii), § 659a.12(c)",
                            f"no pair or better, {row}; {award}",
                        )
                    )
                )
        stake = state.stake(seat, PROGRESSIVE)
        if stake:
            out.append(self._progressive(ctx, seat, stake, hand))
        return out

    def _progressive(self, ctx: Settling, seat: int, stake: Cents, hand: FortuneHand) -> Outcome:
        rules = ctx.state.rules
        assert isinstance(rules, FortuneAsiaPokerRules)
        if hand.row is None or not hand.at_least(FULL_HOUSE):
            return Outcome(
                seat,
                PROGRESSIVE,
                stake,
                Result.LOSE,
                -stake,
                hand.row or "no Fortune hand",
                "§ 659a.11(h)(3)(i)",
                "not a full house or better",
            )
        award = rules.progressive_paytable[hand.row]
        section = "§ 659a.11(h)(3)(ii), § 659a.12(d)"
        flags: tuple[str, ...] = (PROGRESSIVE_LIGHT, FLOORPERSON_VALIDATE)
        if isinstance(award, Odds):
            return Outcome(
                seat, PROGRESSIVE, stake, Result.WIN, award.net(stake), hand.row, section, str(award), flags
            )
        assert isinstance(award, MeterShare)
        meter = ctx.meters.get(PROGRESSIVE_METER)
        if meter is not None:
            # § 659a.11(h)(3)(ii)(D): the meter when this player's turn comes (the central meter's).
            meter = when_paid(ctx.state.meter_turns, PROGRESSIVE_METER, seat, meter)
        if meter is None:
            raise IllegalEvent(
                f"seat {seat} won {award} on the Progressive Payout Wager, but no progressive meter was "
                "reported (a meter event, or the record's meters) (§ 659a.11(h)(3)(ii)(D))"
            )
        paid = pay_from_meter(award, meter, rules.progressive_reset)
        net = paid.paid + (award.plus.net(stake) if award.plus else 0)
        if not rules.progressive_share_returns_wager:
            net -= stake  # the share includes the wager (progressive.meter_share_returns_wager)
        ctx.meters[PROGRESSIVE_METER] = paid.meter_after
        note = (
            f"{award}, the meter at {format_money(meter)}: {format_money(paid.paid)}; not paid from the "
            "table inventory container, the cards stay on the table until the documentation is complete"
        )
        return Outcome(
            seat,
            PROGRESSIVE,
            stake,
            Result.WIN if net > 0 else (Result.PUSH if net == 0 else Result.LOSE),
            net,
            hand.row,
            section,
            note,
            (*flags, NOT_FROM_INVENTORY),
        )

    def settle_table(self, ctx: Settling) -> list[Outcome]:
        """The Envy Bonuses, after all Fortune Bonus Wagers (§ 659a.11(h)(1)(ii))."""
        state = ctx.state
        rules = state.rules
        assert isinstance(rules, FortuneAsiaPokerRules)
        lammers = self.lammers(ctx)
        if not lammers:
            return []
        # "If any player at the table placed a Qualifying Wager, the dealer shall rearrange the cards of all
        # players" (h): every hand not voided, a surrendered one included (d).
        holders: list[tuple[int, str]] = []
        for seat in reversed(self.players(state)):
            if seat in state.voided:
                continue
            hand = fortune_hand(state.cards_of(str(seat)))
            if hand.row is not None and hand.at_least(rules.envy_qualifying_hand):
                holders.append((seat, hand.row))
        out: list[Outcome] = []
        for seat in reversed(self._envy_areas(state, lammers)):
            partner = state.partner(seat)
            for holder, row in holders:
                if holder in (seat, partner):
                    # "A player is not entitled to an Envy Bonus for his own hand": a player on two
                    # adjacent areas (§ 659a.7(f)) holds both hands.
                    continue
                amount = rules.envy_amount(row)
                assert amount > 0
                out.append(
                    Outcome(
                        seat,
                        envy_wager_name(holder),
                        0,
                        Result.WIN,
                        amount,
                        row,
                        "§ 659a.11(h)(1)(ii), § 659a.12(b)",
                        f"Envy Bonus for seat {holder}'s {row}",
                    )
                )
        return out
