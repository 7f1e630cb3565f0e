"""The settlement of a Texas Hold 'Em Bonus Poker round (§ 647a.11(h), § 647a.12): the Ante,
Bet and Bonus Wagers of each player from the dealer's right, held to the aggregate payout limit;
and the settlement of a void round."""

from __future__ import annotations

from ...core.cards import format_cards
from ...core.payout_limit import PayoutLimit
from ...core.settlement import Outcome, Result, Settlement
from ...rankings.high import FLUSH, STRAIGHT, category_of, code7, describe
from .rules import BONUS_PAYTABLES, NAME, bonus_hand
from .state import (
    ANTE,
    BONUS,
    FLOP,
    FOLD,
    RIVER,
    STREETS,
    TURN,
    Awaiting,
    HoldemBonusState,
    SeatState,
    Void,
)

# --- settlement ----------------------------------------------------------------------------


def settleable(state: HoldemBonusState, now: Awaiting) -> bool:
    if now.step == "done":
        return True
    nobody_in = not any(p.in_play for p in state.players)
    # Every player folded: no showdown; the Bonus Wagers need only the first cards.
    return now.step in STREETS and nobody_in


def _bonus_outcome(state: HoldemBonusState, s: SeatState, section: str, note: str = "") -> Outcome:
    paytable = state.rules.bonus_paytable
    row = bonus_hand(s.cards, state.dealer, paytable)
    odds = BONUS_PAYTABLES[paytable][row] if row is not None else None
    if row is None or odds is None:
        return Outcome(
            s.seat,
            BONUS,
            s.bonus,
            Result.LOSE,
            -s.bonus,
            hand=f"no paying hand ({format_cards(s.cards)})",
            section=section,
            note=note,
        )
    return Outcome(
        s.seat, BONUS, s.bonus, Result.WIN, odds.net(s.bonus), hand=row, section=section, note=note
    )


def _folded_ante(s: SeatState) -> Outcome:
    return Outcome(
        s.seat,
        ANTE,
        s.ante,
        Result.LOSE,
        -s.ante,
        section="§ 647a.11(b)(2)",
        note="folded: the Ante Wager is collected",
    )


def settle_round(state: HoldemBonusState) -> Settlement:
    rules = state.rules
    outcomes: list[Outcome] = [_folded_ante(_must_seat(state, n)) for n in state.folds]
    players = state.players
    showdown = [p for p in reversed(players) if p.in_play]  # from the dealer's right, § 647a.11(h)
    dealer_words, dcode = "", 0
    if len(state.board) == 5:
        dcode = code7(state.dealer + state.board)
        dealer_words = describe(dcode)
    threshold = STRAIGHT if rules.ante_paid_on == "straight or higher" else FLUSH
    for p in showdown:
        limit = PayoutLimit(rules.payout_limit, "§ 647a.12(c)", "the aggregate payout limit")
        pcode = code7(p.cards + state.board)
        words = describe(pcode)
        for wager in (ANTE, FLOP, TURN, RIVER):
            stake = p.stake(wager)
            if not stake:
                continue
            if pcode < dcode:
                o = Outcome(p.seat, wager, stake, Result.LOSE, -stake, words, "§ 647a.11(h)(2)(i)")
            elif pcode == dcode:
                o = Outcome(p.seat, wager, stake, Result.PUSH, 0, words, "§ 647a.11(h)(2)(iii)", "a tie")
            elif wager == ANTE and category_of(pcode) < threshold:
                o = Outcome(
                    p.seat,
                    wager,
                    stake,
                    Result.PUSH,
                    0,
                    words,
                    "§ 647a.11(h)(2)(ii)",
                    f"the winning hand is not a {rules.ante_paid_on}: the Ante Wager is returned",
                )
            else:
                o = Outcome(p.seat, wager, stake, Result.WIN, stake, words, "§ 647a.12(a)")
            outcomes.append(limit.pay(o))
        if p.bonus:
            outcomes.append(limit.pay(_bonus_outcome(state, p, "§ 647a.11(h)(3), § 647a.12(b)")))
    # § 647a.11(b)(2)(i): a folded player's Bonus, "pending its resolution at the conclusion of the round".
    for p in reversed(players):
        if p.flop == FOLD and p.bonus:
            limit = PayoutLimit(rules.payout_limit, "§ 647a.12(c)", "the aggregate payout limit")
            outcomes.append(
                limit.pay(
                    _bonus_outcome(state, p, "§ 647a.11(b)(2)(i), § 647a.12(b)", "folded; Bonus settled")
                )
            )
    return Settlement(NAME, tuple(outcomes), dict(state.meters), dealer=dealer_words)


def _must_seat(state: HoldemBonusState, number: int) -> SeatState:
    s = state.seat(number)
    assert s is not None
    return s


def settle_void(state: HoldemBonusState, void: Void) -> Settlement:
    """Every Ante, Flop, Turn and River Wager returned; Bonus Wagers settled where § 647a.13(a),
    (d) say so.

    A folded seat's Ante is returned too: "all hands shall be void and all Ante, Flop, Turn and
    River Wagers shall be returned to the players" (§ 647a.13(d)), "all wagers shall be returned"
    ((a), (c), (f)). The text makes no exception for a hand that folded before the irregularity;
    the void undoes the collection of § 647a.11(b)(2).
    """
    outcomes: list[Outcome] = []
    for s in reversed(state.seats):
        limit = PayoutLimit(state.rules.payout_limit, "§ 647a.12(c)", "the aggregate payout limit")
        for wager in (ANTE, FLOP, TURN, RIVER):
            stake = s.stake(wager)
            if stake:
                outcomes.append(
                    Outcome(s.seat, wager, stake, Result.VOID, 0, section=void.section, note=void.reason)
                )
        if s.bonus:
            if void.bonus_settled:
                outcomes.append(limit.pay(_bonus_outcome(state, s, f"{void.section}, § 647a.12(b)")))
            else:
                outcomes.append(
                    Outcome(s.seat, BONUS, s.bonus, Result.VOID, 0, section=void.section, note=void.reason)
                )
    return Settlement(NAME, tuple(outcomes), dict(state.meters), void=void.reason)
