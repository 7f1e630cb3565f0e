"""Settling a Blackjack round's optional wagers (§ 633a.7(g), (o)): House Money after the second
card, and the progressive claims (Bad Beat, Hit and Run, Straight Jack) after all cards, each
from the dealer's right; what each wager pays is :mod:`.wagers`."""

from __future__ import annotations

from fractions import Fraction

from ...core.cards import format_cards
from ...core.money import (
    Award,
    Cents,
    Odds,
    format_money,
)
from ...core.settlement import Outcome, Result
from ...rankings.blackjack import (
    blackjack_value,
    hand_total,
    house_money_value,
    is_two_card_straight,
    straight_jack_run,
    straight_jack_value,
)
from .rules import BlackjackRules
from .state import BlackjackState, SeatState
from .wagers import (
    BAD_BEAT_SECTION,
    HIT_AND_RUN,
    HIT_AND_RUN_SECTION,
    HOUSE_MONEY,
    HOUSE_MONEY_SECTION,
    PROGRESSIVES,
    STRAIGHT_JACK,
    STRAIGHT_JACK_SECTION,
    THREE_CARD_POKER,
    THREE_CARD_POKER_SECTION,
    Claim,
    Progressive,
    bad_beat_row,
    hit_and_run_row,
    house_money_award,
    lose,
    pay_odds,
    pay_progressive,
    straight_jack_award,
    three_card_poker_hand,
)


def house_money_payout(rules: BlackjackRules, seat_state: SeatState) -> tuple[str | None, Cents]:
    """The House Money hand and its payout by § 633a.13(n), in full (§ 633a.13(o): a payout limit
    applies "only to payouts of Royal Match 21 Wagers and King's Bounty Wagers")."""
    stake = seat_state.wagers.get(HOUSE_MONEY)
    if stake is None:
        return None, 0
    hand, odds = house_money_award(seat_state.initial, rules.decks)
    if hand is None or odds is None:
        return None, 0
    return hand, odds.net(stake)


def settle_second_card(state: BlackjackState) -> list[Outcome]:
    """§ 633a.7(g): "Immediately after the second card", from the dealer's right: (8), (9), (10).

    A House Money Wager that wins while the up card is an ace or a 10-count card waits for the
    card reader ((g)(10)(i)); the engine settles it after the reader (:func:`house_money_outcome`).
    """
    rules = state.rules
    up = state.up_card
    assert up is not None
    out: list[Outcome] = []
    for number in sorted(state.seats, reverse=True):
        seat = state.seats[number]
        if THREE_CARD_POKER in seat.wagers:
            stake = seat.wagers[THREE_CARD_POKER]
            row, value = three_card_poker_hand(seat.initial, up, rules.decks)
            award = (
                rules.three_card_poker_paytable.get(row) if row and rules.three_card_poker_paytable else None
            )
            if isinstance(award, Odds):
                out.append(
                    pay_odds(
                        number,
                        THREE_CARD_POKER,
                        stake,
                        award,
                        hand=value.words,
                        section=THREE_CARD_POKER_SECTION,
                    )
                )
            else:
                note = "not a straight flush, three-of-a-kind, straight or flush"
                out.append(
                    lose(
                        number,
                        THREE_CARD_POKER,
                        stake,
                        hand=value.words,
                        section=THREE_CARD_POKER_SECTION,
                        note=note if row is None else f"{row} pays nothing in the paytable",
                    )
                )
        if STRAIGHT_JACK in seat.wagers and not is_two_card_straight(seat.initial):
            out.append(
                lose(
                    number,
                    STRAIGHT_JACK,
                    seat.wagers[STRAIGHT_JACK],
                    hand=f"{format_cards(seat.initial)}: no winning hand",
                    section="§ 633a.7(g)(9)",
                    note="the initial two cards are no two-card straight",
                )
            )
        if HOUSE_MONEY in seat.wagers and not (state.reader_used and house_money_wins(rules, seat)):
            out.append(house_money_outcome(state, number, seat))
    return out


def house_money_wins(rules: BlackjackRules, seat: SeatState) -> bool:
    """The seat's initial two cards win its House Money Wager (§ 633a.7(g)(10))."""
    return house_money_payout(rules, seat)[0] is not None


def house_money_outcome(state: BlackjackState, number: int, seat: SeatState) -> Outcome:
    """The House Money Wager settled: collected, or paid by § 633a.13(n), added to the wager or not."""
    stake = seat.wagers[HOUSE_MONEY]
    hand, payout = house_money_payout(state.rules, seat)
    table = "(n)(1) single deck" if state.rules.decks == 1 else "(n)(2) multiple decks"
    if hand is None:
        return lose(
            number,
            HOUSE_MONEY,
            stake,
            hand=f"{format_cards(seat.initial)}: no winning hand",
            section="§ 633a.7(g)(10)",
            note="not a two-card straight, a pair, a two-card straight flush or an ace-king suited",
        )
    _, odds = house_money_award(seat.initial, state.rules.decks)
    assert odds is not None
    note = f"{odds} ({table})"
    if seat.house_money_added:
        rest = payout - seat.house_money_added
        note += (
            f"; {format_money(seat.house_money_added)} added to the Blackjack Wager (§ 633a.7(g)(10)(ii)(C))"
        )
        if rest:
            note += f", {format_money(rest)} handed to the player"
    elif state.reader == "blackjack":
        note += "; the dealer has a Blackjack (§ 633a.7(g)(10)(i)(A))"
    words = house_money_value(seat.initial).words
    return Outcome(number, HOUSE_MONEY, stake, Result.WIN, payout, words, HOUSE_MONEY_SECTION, note)


def _progressive(state: BlackjackState, wager: str) -> Progressive:
    if wager == STRAIGHT_JACK:
        # § 633a.7(o)(3)(ii)(C): "10% or more of the jackpot amount" is not paid from the inventory.
        return Progressive(wager, STRAIGHT_JACK_SECTION, state.rules.reset(wager), Fraction(10))
    section = HIT_AND_RUN_SECTION if wager == HIT_AND_RUN else BAD_BEAT_SECTION
    # § 633a.7(o)(2)(ii)(C): "100% of the jackpot amount" is not paid from the inventory (Bad Beat alike).
    returns = state.rules.share_returns_wager(wager)
    return Progressive(wager, section, state.rules.reset(wager), Fraction(100), returns)


def _claim(state: BlackjackState, number: int, seat: SeatState, wager: str) -> Claim | None:
    rules = state.rules
    stake = seat.wagers[wager]
    if wager == STRAIGHT_JACK:
        if not is_two_card_straight(seat.initial):
            return None  # collected at § 633a.7(g)(9)
        split = len(seat.hands) > 1
        # A split breaks the sequence: only the initial two cards count (docs/games/blackjack.md).
        cards = seat.initial if split or state.reader == "blackjack" else seat.hands[0].cards
        run = straight_jack_run(cards)
        words = straight_jack_value(cards).words
        return Claim(
            number, stake, straight_jack_award(run), words, "hand split: initial two cards" if split else ""
        )
    if wager == HIT_AND_RUN:
        row, dealer_hand = hit_and_run_row(state.dealer)
        table = rules.hit_and_run_paytable or {}
        return Claim(
            number,
            stake,
            table.get(row) if row else None,
            dealer_hand.words,
            "" if row else "the dealer has no Blackjack and fewer than five cards",
        )
    row = bad_beat_row(state.dealer)
    table = rules.bad_beat_paytable or {}
    beaten = _bad_beat_hand(state, seat) if row else None
    if row is None or beaten is None:
        why = (
            "the dealer has no 21"
            if row is None
            else (f"no hand of {rules.bad_beat_player_total} or more lost to the dealer's 21")
        )
        return Claim(number, stake, None, blackjack_value(state.dealer).words, why)
    # The row's name first, as the Rules Submission's paytable names it (BAD_BEAT_ROWS): a linked
    # table's claim carries these words, and the meter's "named" paytable pays the row they begin
    # with (meter/claims.py; docs/progressive-link.md, "What the meter checks in a claim").
    words = f"{row} ({beaten} beaten by dealer {blackjack_value(state.dealer).words})"
    return Claim(number, stake, table.get(row), words)


def _bad_beat_hand(state: BlackjackState, seat: SeatState) -> str | None:
    """A hand of the seat with at least the Bad Beat total that lost to the dealer's 21."""
    if seat.even_money:
        return None
    dealer = blackjack_value(state.dealer)
    for hand in seat.hands:
        if hand.surrendered or hand.rescued or hand.bust:  # forfeited hands did not lose to the 21
            continue
        value = hand.value
        total = hand_total(hand.cards)[0]
        if total >= state.rules.bad_beat_player_total and value < dealer:
            return value.words
    return None


def unknown_meters(state: BlackjackState) -> tuple[tuple[str, int, Award], ...]:
    """``(wager, seat, award)`` for each progressive wager that wins (a share of the meter, or odds:
    whether they are paid from the table inventory container depends on the meter,
    § 633a.7(o)(3)(ii)(C)) on a meter the round does not know: the round waits for that meter
    before it is settled (:func:`pay_progressive`)."""
    out = []
    for wager in PROGRESSIVES:
        if wager in state.meters:
            continue
        for number in sorted(state.seats, reverse=True):
            seat = state.seats[number]
            if wager in seat.wagers:
                claim = _claim(state, number, seat, wager)
                if claim is not None and claim.award is not None:
                    out.append((wager, number, claim.award))
    return tuple(out)


def settle_remaining(state: BlackjackState, meters: dict[str, Cents]) -> list[Outcome]:
    """§ 633a.7(o): after all cards, from the dealer's right: Bad Beat, Hit and Run (2), Straight Jack (3)."""
    found: dict[tuple[int, str], Outcome] = {}
    for wager in PROGRESSIVES:
        claims = []
        for number in sorted(state.seats, reverse=True):
            seat = state.seats[number]
            if wager in seat.wagers:
                claim = _claim(state, number, seat, wager)
                if claim is not None:
                    claims.append(claim)
        if not claims:
            continue
        turns = {seat: cents for (name, seat), cents in state.meter_turns.items() if name == wager}
        outcomes, after = pay_progressive(_progressive(state, wager), claims, meters.get(wager), turns)
        if after is not None:
            meters[wager] = after
        for o in outcomes:
            found[(o.seat, wager)] = o
    return [found[key] for key in sorted(found, key=lambda k: (-k[0], PROGRESSIVES.index(k[1])))]
