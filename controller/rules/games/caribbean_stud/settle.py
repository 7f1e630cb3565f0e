"""The settlement of a Caribbean Stud Poker round (§ 639a.11(c), § 639a.12): the dealer's
qualifying hand, the Ante and Bet against the dealer, the Bonus and the Progressive by their
paytables, each seat from the dealer's right."""

from __future__ import annotations

from collections.abc import Mapping

from ...core.cards import ACE, KING, format_cards
from ...core.hooks import JackpotHand
from ...core.meter_turns import when_paid
from ...core.money import Award, Cents, MeterShare, Odds, format_money, pay_from_meter
from ...core.settlement import (
    FLOORPERSON_VALIDATE,
    NOT_FROM_INVENTORY,
    PROGRESSIVE_LIGHT,
    Outcome,
    Result,
    Settlement,
)
from ...rankings.high import CATEGORY_NAMES, HIGH_CARD, PAIR, category_of, code5, describe, ranks_of
from .rules import (
    ANTE,
    ANTE_ODDS,
    BET,
    BET_PAYTABLE,
    BONUS,
    BONUS_LOWEST_PAIR,
    BONUS_PAYTABLES,
    FOLD,
    HAND_SIZE,
    NAME,
    PROGRESSIVE,
    PROGRESSIVE_PAYTABLES,
    CaribbeanStudRules,
)
from .state import CaribbeanStudState, placed_wagers

# --- the game ---------------------------------------------------------------------------------


def dealer_qualifies(code: int) -> bool:
    """§ 639a.11(c)(3): the dealer's hand is "an ace-king or better"."""
    if category_of(code) > HIGH_CARD:
        return True
    top = ranks_of(code)
    return top[0] == ACE and top[1] == KING


def bonus_award(rules: CaribbeanStudRules, code: int) -> Award | None:
    """The Bonus award for a hand (§ 639a.12(c)); a pair below 10s pays nothing (§ 639a.7(d)(3))."""
    category = category_of(code)
    if category == PAIR and ranks_of(code)[0] < BONUS_LOWEST_PAIR:
        return None
    return BONUS_PAYTABLES[rules.bonus_paytable].get(category)


def progressive_award(rules: CaribbeanStudRules, code: int) -> Award | None:
    """The Progressive award: only the highest ranking hand formed pays (§ 639a.12(d)(2))."""
    return PROGRESSIVE_PAYTABLES[rules.progressive_paytable].get(category_of(code))


def jackpot_hands(state: CaribbeanStudState) -> tuple[JackpotHand, ...]:
    """The seats whose five cards, dealt, make a Progressive row paid from the meter (§ 639a.12(d)(1),
    only the highest hand formed, (d)(2)), from the dealer's right as they are paid (§ 639a.11(c));
    not a seat that folded: it forfeits all its wagers (§ 639a.11(b))."""
    rules, out = state.rules, list[JackpotHand]()
    for seat in sorted(state.wagers, reverse=True):
        cards = state.hands.get(seat, ())
        if PROGRESSIVE not in state.wagers[seat] or len(cards) != HAND_SIZE:
            continue
        if state.decisions.get(seat) == FOLD:
            continue
        code = code5(cards)
        award = progressive_award(rules, code)
        if isinstance(award, MeterShare):
            hand = CATEGORY_NAMES[category_of(code)]
            out.append(JackpotHand(seat, PROGRESSIVE, hand, str(award), "§ 639a.12(d)(1), (2)"))
    return tuple(out)


def settle_showdown(state: CaribbeanStudState, meters: dict[str, Cents]) -> Settlement:
    rules = state.rules
    dealer_code = code5(state.dealer)
    qualifies = dealer_qualifies(dealer_code)
    dealer_words = f"{describe(dealer_code)} ({format_cards(state.dealer)}); " + (
        "qualifies with ace-king or better"
        if qualifies
        else "does not qualify: lower than an ace-king, Bet Wagers returned, Ante Wagers paid"
    )
    outcomes: list[Outcome] = []
    order = sorted(state.ante_seats, reverse=True)
    # § 639a.11(c): the forfeited wagers are collected before the dealer reveals his hole cards.
    for seat in order:
        if state.decisions[seat] == FOLD:
            for name, stake in placed_wagers(state, seat).items():
                outcomes.append(
                    Outcome(
                        seat,
                        name,
                        stake,
                        Result.LOSE,
                        -stake,
                        section="§ 639a.11(b)",
                        note="folded: forfeits all wagers",
                    )
                )
    meter = state.meter
    # § 639a.11(c): then from the player farthest to the dealer's right, counterclockwise.
    for seat in order:
        if state.decisions[seat] == FOLD:
            continue
        placed = placed_wagers(state, seat)
        code = code5(state.hands[seat])
        words = f"{describe(code)} ({format_cards(state.hands[seat])})"
        outcomes.extend(_ante_and_bet(seat, placed, code, dealer_code, qualifies, words))
        if BONUS in placed:
            outcomes.append(_bonus(rules, seat, placed[BONUS], code, words))
        if PROGRESSIVE in placed:
            assert meter is not None
            # § 639a.12(d)(4): the meter when this player's turn comes (its own, from the central meter).
            meter = when_paid(state.meter_turns, PROGRESSIVE, seat, meter)
            outcome, meter = _progressive(rules, seat, placed[PROGRESSIVE], code, words, meter)
            outcomes.append(outcome)
    if meter is not None:
        meters[PROGRESSIVE] = meter
    return Settlement(NAME, tuple(outcomes), meters, dealer=dealer_words)


def _ante_and_bet(
    seat: int, placed: Mapping[str, Cents], code: int, dealer_code: int, qualifies: bool, words: str
) -> list[Outcome]:
    ante, bet = placed[ANTE], placed[BET]
    if not qualifies:
        # § 639a.11(c)(3)(i): "return each player's Bet Wager and pay out the player's Ante Wager".
        section = "§ 639a.11(c)(3)(i), § 639a.12(a)"
        note = "dealer lower than ace-king"
        return [
            Outcome(seat, ANTE, ante, Result.WIN, ANTE_ODDS.net(ante), words, section, note + ": 1 to 1"),
            Outcome(seat, BET, bet, Result.PUSH, 0, words, "§ 639a.11(c)(3)(i)", note + ": returned"),
        ]
    if code < dealer_code:
        # § 639a.11(c)(3)(ii)(A): "collect the Ante and Bet Wagers".
        section, note = "§ 639a.11(c)(3)(ii)(A)", "lower than the dealer's hand"
        return [
            Outcome(seat, ANTE, ante, Result.LOSE, -ante, words, section, note),
            Outcome(seat, BET, bet, Result.LOSE, -bet, words, section, note),
        ]
    if code == dealer_code:
        # § 639a.11(c)(3)(ii)(C), § 639a.6(c): equal in rank -- a tie, both returned.
        section, note = "§ 639a.11(c)(3)(ii)(C)", "equal in rank to the dealer's hand"
        return [
            Outcome(seat, ANTE, ante, Result.PUSH, 0, words, section, note),
            Outcome(seat, BET, bet, Result.PUSH, 0, words, section, note),
        ]
    # § 639a.11(c)(3)(ii)(B): the Ante at 1 to 1 (§ 639a.12(a)), the Bet by its paytable (§ 639a.12(b)).
    odds = BET_PAYTABLE[category_of(code)]
    assert isinstance(odds, Odds)
    return [
        Outcome(
            seat,
            ANTE,
            ante,
            Result.WIN,
            ANTE_ODDS.net(ante),
            words,
            "§ 639a.11(c)(3)(ii)(B), § 639a.12(a)",
            "higher than the dealer's hand: 1 to 1",
        ),
        Outcome(
            seat,
            BET,
            bet,
            Result.WIN,
            odds.net(bet),
            words,
            "§ 639a.11(c)(3)(ii)(B), § 639a.12(b)",
            f"higher than the dealer's hand: {CATEGORY_NAMES[category_of(code)]} {odds}",
        ),
    ]


def _bonus(rules: CaribbeanStudRules, seat: int, stake: Cents, code: int, words: str) -> Outcome:
    # § 639a.11(c)(4): paid "irrespective of whether the player's five-card poker hand outranks the dealer's".
    award = bonus_award(rules, code)
    section = f"§ 639a.11(c)(4), § 639a.12(c) paytable {rules.bonus_paytable}"
    if award is None:
        return Outcome(seat, BONUS, stake, Result.LOSE, -stake, words, section, "less than a pair of 10s")
    assert isinstance(award, Odds)
    return Outcome(seat, BONUS, stake, Result.WIN, award.net(stake), words, section, str(award))


def _progressive(
    rules: CaribbeanStudRules, seat: int, stake: Cents, code: int, words: str, meter: Cents
) -> tuple[Outcome, Cents]:
    """The Progressive Payout Wager of one seat, and the meter after it (§ 639a.12(d)(4))."""
    award = progressive_award(rules, code)
    section = f"§ 639a.11(c)(5), § 639a.12(d) paytable {rules.progressive_paytable}"
    if award is None:
        return Outcome(
            seat, PROGRESSIVE, stake, Result.LOSE, -stake, words, section, "no Progressive Payout Hand"
        ), meter
    flags: tuple[str, ...] = (PROGRESSIVE_LIGHT, FLOORPERSON_VALIDATE)  # § 639a.11(c)(5)(ii),(iii)
    if isinstance(award, MeterShare):
        # § 639a.12(d)(4): "the amount on the meter when it is the player's turn to be paid"; the
        # meter then stands at what is left, or at its reset amount after a 100% award
        # (§ 639a.12(d)(3)); a share may leave it below the reset amount.
        payment = pay_from_meter(award, meter, rules.progressive_reset)
        paid, meter_after = payment.paid, payment.meter_after
        # § 639a.11(c)(5)(iv): a percentage of the meter "may not be paid from the table inventory container".
        flags = (*flags, NOT_FROM_INVENTORY)
        note = f"{award} as it stands: {format_money(paid)} of {format_money(meter)}"
    else:
        paid, meter_after = award.net(stake) + stake, meter
        note = str(award)
    # The column reads "for 1": what is paid is the whole award, the wager (in the table inventory
    # container since "no more bets", § 639a.8(b)) included.
    net = paid - stake
    result = Result.WIN if net > 0 else (Result.PUSH if net == 0 else Result.LOSE)
    return Outcome(seat, PROGRESSIVE, stake, result, net, words, section, note, flags), meter_after
