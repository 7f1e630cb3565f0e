"""The settlement of a Blackjack round (ch. 633a), stage by stage in the order the dealer settles,
each from the dealer's right; and the settlement of a void round."""

from __future__ import annotations

from ...core.cards import format_cards
from ...core.money import Cents
from ...core.settlement import Outcome, Result, Settlement, void_all
from ...rankings.blackjack import blackjack_value
from .optional_settle import house_money_outcome, house_money_wins, settle_remaining, settle_second_card
from .rules import BLACKJACK_ODDS, EVEN_ODDS, INSURANCE_ODDS, NAME
from .state import (
    CHECK,
    DEALER,
    DEALER_BLACKJACK,
    IRREGULARITY_SECTION,
    PLAY,
    RESCUE_SECTION,
    BlackjackState,
    PlayerHand,
    SeatState,
    dollars,
)
from .wagers import BLACKJACK, DOUBLE_DOWN, HOUSE_MONEY, INSURANCE, lose

# --- settlement ----------------------------------------------------------------------------------


def _hand_name(base: str, index: int) -> str:
    return base if index == 0 else f"{base}.{index}"


def _even_money(state: BlackjackState) -> list[Outcome]:
    return [
        Outcome(
            number,
            BLACKJACK,
            seat.stake,
            Result.WIN,
            EVEN_ODDS.net(seat.stake),
            "blackjack",
            "§ 633a.8",
            "even money: the Blackjack Wager paid 1 to 1 before the card reader is used",
        )
        for number, seat in sorted(state.seats.items(), reverse=True)
        if seat.even_money
    ]


def _stage_h(state: BlackjackState) -> list[Outcome]:
    """§ 633a.7(h), after the card reader: a House Money winner waiting for it, and the Insurance Wagers."""
    dealer_bj = state.reader == "blackjack"
    out: list[Outcome] = []
    for number in sorted(state.seats, reverse=True):
        seat = state.seats[number]
        if state.reader_used and HOUSE_MONEY in seat.wagers and house_money_wins(state.rules, seat):
            out.append(house_money_outcome(state, number, seat))
        if seat.insurance:
            if dealer_bj:
                out.append(
                    Outcome(
                        number,
                        INSURANCE,
                        seat.insurance,
                        Result.WIN,
                        INSURANCE_ODDS.net(seat.insurance),
                        "",
                        "§ 633a.8, § 633a.7(h)",
                        "the dealer has a Blackjack: 2 to 1",
                    )
                )
            else:
                out.append(
                    lose(
                        number,
                        INSURANCE,
                        seat.insurance,
                        hand="",
                        section="§ 633a.8, § 633a.7(h)",
                        note="the dealer has no Blackjack",
                    )
                )
    return out


def _surrendered(number: int, hand: PlayerHand) -> Outcome:
    # § 633a.9: half the wager is forfeited; an odd cent of the half returned stays with the house.
    kept = hand.stake - hand.stake // 2
    return Outcome(
        number,
        BLACKJACK,
        hand.stake,
        Result.LOSE,
        -kept,
        hand.value.words,
        "§ 633a.9",
        f"surrender: {dollars(hand.stake // 2)} returned, {dollars(kept)} forfeited",
    )


def _rescued(number: int, index: int, hand: PlayerHand) -> list[Outcome]:
    """§ 635a.10 rescue: the original wager is lost, the Double Down Wager returned (net 0)."""
    words = f"{hand.value.words}, rescued"
    return [
        lose(
            number,
            _hand_name(BLACKJACK, index),
            hand.stake,
            hand=words,
            section=RESCUE_SECTION,
            note=f"rescue: the original wager of {dollars(hand.stake)} is forfeited",
        ),
        Outcome(
            number,
            _hand_name(DOUBLE_DOWN, index),
            hand.double,
            Result.PUSH,
            0,
            words,
            RESCUE_SECTION,
            f"rescue: the Double Down Wager of {dollars(hand.double)} is returned to the player",
        ),
    ]


def _main(state: BlackjackState) -> list[Outcome]:
    """The Blackjack and Double Down Wagers, from the dealer's right (§ 633a.7(p), § 633a.13(a))."""
    dealer = blackjack_value(state.dealer)
    dealer_bj = state.reader == "blackjack"
    out: list[Outcome] = []
    for number in sorted(state.seats, reverse=True):
        seat = state.seats[number]
        if seat.even_money:
            continue
        for index, hand in enumerate(seat.hands):
            name, dd = _hand_name(BLACKJACK, index), _hand_name(DOUBLE_DOWN, index)
            if hand.surrendered:
                out.append(_surrendered(number, hand))
                continue
            if hand.rescued:
                out.extend(_rescued(number, index, hand))
                continue
            value = hand.value
            vs = f"dealer {dealer.words}"
            if dealer_bj:
                section = "§ 633a.7(h)"
                if hand.is_blackjack:
                    out.append(
                        Outcome(
                            number,
                            name,
                            hand.stake,
                            Result.PUSH,
                            0,
                            value.words,
                            section,
                            "both have a Blackjack: a push",
                        )
                    )
                else:
                    out.append(
                        lose(
                            number,
                            name,
                            hand.stake,
                            hand=value.words,
                            section=section,
                            note="the dealer has a Blackjack",
                        )
                    )
                continue
            if hand.bust:
                result, odds, note = Result.LOSE, None, "over 21"
            elif hand.is_blackjack:
                result, odds, note = Result.WIN, BLACKJACK_ODDS, f"Blackjack, {vs}: {BLACKJACK_ODDS}"
            elif dealer.category == "bust" or value > dealer:
                result, odds, note = Result.WIN, EVEN_ODDS, f"{vs}: {EVEN_ODDS}"
            elif value == dealer:
                result, odds, note = Result.PUSH, None, f"{vs}: a push"
            else:
                result, odds, note = Result.LOSE, None, vs
            section = "§ 633a.7(p), § 633a.13(a)"
            for wager, stake in ((name, hand.stake), (dd, hand.double)):
                if not stake:
                    continue
                if result is Result.WIN and odds is not None:
                    wager_odds = odds if wager == name else EVEN_ODDS
                    out.append(
                        Outcome(
                            number, wager, stake, result, wager_odds.net(stake), value.words, section, note
                        )
                    )
                elif result is Result.PUSH:
                    out.append(Outcome(number, wager, stake, result, 0, value.words, section, note))
                else:
                    out.append(lose(number, wager, stake, hand=value.words, section=section, note=note))
    return out


def _dealer_words(state: BlackjackState) -> str:
    if len(state.dealer) < 2:
        return f"up card {format_cards(state.dealer)}" if state.dealer else ""
    return f"{format_cards(state.dealer)}: {blackjack_value(state.dealer).words}"


def settlement(state: BlackjackState) -> Settlement:
    meters = dict(state.meters)
    outcomes = [
        *settle_second_card(state),
        *_even_money(state),
        *_stage_h(state),
        *_main(state),
        *settle_remaining(state, meters),
    ]
    return Settlement(NAME, tuple(outcomes), meters, _dealer_words(state))


def _all_wagers(seat: SeatState) -> list[tuple[str, Cents]]:
    out: list[tuple[str, Cents]] = []
    for name, stake in seat.wagers.items():
        if name == BLACKJACK and seat.hands:
            for index, hand in enumerate(seat.hands):
                out.append((_hand_name(BLACKJACK, index), hand.stake))
                if hand.double:
                    out.append((_hand_name(DOUBLE_DOWN, index), hand.double))
        else:
            out.append((name, stake))
    if seat.insurance:
        out.append((INSURANCE, seat.insurance))
    return out


def void_settlement(state: BlackjackState) -> Settlement:
    """A device fault: what was settled before it stands; every other wager is returned."""
    reason = state.void
    dealt = state.void_phase in (CHECK, DEALER_BLACKJACK, PLAY, DEALER)
    if not dealt:
        wagers = {n: dict(s.wagers) for n, s in state.seats.items()}
        return void_all(NAME, wagers, reason, IRREGULARITY_SECTION, state.meters)
    settled = [*settle_second_card(state), *_even_money(state)]
    if state.void_phase != CHECK:
        settled += _stage_h(state)
    for number, seat in sorted(state.seats.items(), reverse=True):
        for index, hand in enumerate(seat.hands):
            if hand.surrendered:
                settled.append(_surrendered(number, hand))
            elif hand.rescued:
                settled.extend(_rescued(number, index, hand))
    done = {(o.seat, o.wager) for o in settled}
    voided = [
        Outcome(number, name, stake, Result.VOID, 0, section=IRREGULARITY_SECTION, note=reason)
        for number, seat in sorted(state.seats.items(), reverse=True)
        for name, stake in _all_wagers(seat)
        if (number, name) not in done
    ]
    reason += "; wagers settled before it stand, every other wager is returned"
    return Settlement(NAME, (*settled, *voided), dict(state.meters), _dealer_words(state), reason)
