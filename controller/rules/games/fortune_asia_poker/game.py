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
"""

from __future__ import annotations

from typing import Final

from ...core.engine import IllegalEvent
from ...core.events import Event
from ...core.hooks import Actor, Progressive, Screen, Step, Term, Vocabulary, Waiting, meter_rows, reported
from ...core.meter_turns import when_paid
from ...core.money import Award, Cents, MeterShare, Odds, format_money, pay_from_meter
from ...core.payout_limit import PayoutLimit
from ...core.settlement import FLOORPERSON_VALIDATE, NOT_FROM_INVENTORY, PROGRESSIVE_LIGHT, Outcome, Result
from ...rankings.fortune import FULL_HOUSE, STRAIGHT, THREE_PAIR, FortuneHand, fortune_hand
from ..asia_poker.game import (
    DECISIONS,
    IRREGULARITIES,
    REPORTED,
    SEATS,
    AsiaPokerGame,
    AsiaPokerState,
    AsiaTableRules,
    Settling,
)
from .rules import (
    ENVY_EXAMPLE,
    FORTUNE_BONUS_EXAMPLE,
    FORTUNE_RULES_CHECKS,
    INSURANCE_EXAMPLE,
    PROGRESSIVE_EXAMPLE,
    FortuneAsiaPokerRules,
)

# --- the game -------------------------------------------------------------------------------

FORTUNE_ASIA_POKER: Final = "fortune_asia_poker"
FORTUNE_BONUS: Final = "fortune_bonus"
INSURANCE: Final = "insurance"
PROGRESSIVE: Final = "progressive"
ENVY_BONUS: Final = "envy_bonus"
PROGRESSIVE_METER: Final = "progressive"


def envy_wager_name(holder: int) -> str:
    """The settlement line of an Envy Bonus paid for seat ``holder``'s hand: ``"envy_bonus_seat_3"``."""
    return f"{ENVY_BONUS}_seat_{holder}"


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


class FortuneAsiaPokerGame(AsiaPokerGame):
    """Fortune Asia Poker (ch. 659a, § 659a.11 as amended); exported as :data:`GAME`."""

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

    def _wager(self, state: AsiaPokerState, event: Event) -> AsiaPokerState:
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
        return super()._wager(state, event)

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
            for seat, award in self._meter_shares(state, rules)
        )

    def _meter_shares(self, state: AsiaPokerState, rules: FortuneAsiaPokerRules) -> list[tuple[int, Award]]:
        """The seats whose Progressive Payout Wager wins a share of the meter, from the right."""
        out: list[tuple[int, Award]] = []
        for seat in reversed(self.players(state)):
            if seat in state.voided or not state.stake(seat, PROGRESSIVE):
                continue
            hand = fortune_hand(state.cards_of(str(seat)))
            if hand.row is not None and hand.at_least(FULL_HOUSE):
                award = rules.progressive_paytable[hand.row]
                if isinstance(award, MeterShare):
                    out.append((seat, award))
        return out

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
