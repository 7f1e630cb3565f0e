"""The players' decisions in a Blackjack round (ch. 633a): insurance and even money (§ 633a.8),
adding the House Money payout (§ 633a.7(g)(10)(ii)), hit, stand, double down (§ 633a.10; at a
Spanish 21 table § 635a.10), split (§ 633a.11), surrender (§ 633a.9) and the rescue."""

from __future__ import annotations

import dataclasses

from ...core.cards import ACE, Card
from ...core.engine import IllegalEvent
from ...core.events import Event
from ...core.money import Cents
from ...rankings.blackjack import hand_total, is_blackjack, is_ten_count
from .optional_settle import house_money_payout
from .rules import DOUBLE_TOTALS, BlackjackRules
from .state import (
    ACTIONS,
    ADD_HOUSE_MONEY,
    CARD,
    CHECK,
    DEALER,
    DONE,
    DOUBLE,
    EVEN_MONEY,
    HIT,
    INSURE,
    PLAY,
    RESCUE,
    RESCUE_SECTION,
    SPANISH_21_DOUBLE,
    STAND,
    SURRENDER,
    BlackjackState,
    PlayerHand,
    SeatState,
    advance,
    dollars,
    replace_hand,
    replace_seat,
)
from .wagers import HOUSE_MONEY
from .waiting import waiting_for


def decision_event(state: BlackjackState, event: Event) -> BlackjackState:
    seat, action = event.seat, event.action
    if seat is None or action is None:
        raise IllegalEvent("a decision needs a seat and an action")
    if action not in ACTIONS:
        raise IllegalEvent(
            f"seat {seat}: no decision {action!r} in Blackjack (decisions: {', '.join(ACTIONS)})"
        )
    seat_state = state.seats.get(seat)
    if seat_state is None:
        raise IllegalEvent(f"seat {seat} has no Blackjack Wager and makes no decision")
    if action in (INSURE, EVEN_MONEY):
        return _insurance(state, seat, seat_state, event)
    if action == ADD_HOUSE_MONEY:
        return _add_house_money(state, seat, seat_state, event)
    return _play(state, seat, seat_state, event)


def _insurance(state: BlackjackState, seat: int, seat_state: SeatState, event: Event) -> BlackjackState:
    rules = state.rules
    up = state.up_card
    if state.phase != CHECK or up is None or up.rank != ACE:
        raise IllegalEvent(
            f"seat {seat}: insurance and even money are offered only when the dealer's up card is an ace, "
            f"before the card reader is used (§ 633a.8, § 633a.7(h)); {waiting_for(state)}"
        )
    if seat_state.insurance or seat_state.even_money:
        raise IllegalEvent(f"seat {seat} has already taken insurance or even money")
    if event.action == EVEN_MONEY:
        if not rules.even_money_offered:
            raise IllegalEvent("even money is not offered in this Rules Submission (§ 633a.8)")
        if not is_blackjack(seat_state.initial):
            raise IllegalEvent(
                f"seat {seat}: even money is offered only to a player with a Blackjack (§ 633a.8)"
            )
        if event.amount is not None:
            raise IllegalEvent(f"seat {seat}: even money pays the Blackjack Wager 1 to 1; give no amount")
        return dataclasses.replace(
            state, seats=replace_seat(state, seat, dataclasses.replace(seat_state, even_money=True))
        )
    if not rules.insurance_offered:
        raise IllegalEvent("the Insurance Wager is not offered in this Rules Submission (§ 633a.8)")
    most = seat_state.stake // 2
    amount = most if event.amount is None else event.amount
    if not 0 < amount <= most:
        raise IllegalEvent(
            f"seat {seat}: an Insurance Wager is more than 0.00 and at most half the Blackjack Wager, "
            f"{dollars(most)} (§ 633a.8), not {dollars(amount)}"
        )
    return dataclasses.replace(
        state, seats=replace_seat(state, seat, dataclasses.replace(seat_state, insurance=amount))
    )


def _add_house_money(state: BlackjackState, seat: int, seat_state: SeatState, event: Event) -> BlackjackState:
    # When it is paid: after the deal (or the reader), before any player acts or the hole card is turned.
    if state.phase not in (PLAY, DEALER) or state.play_started or len(state.dealer) != 1:
        raise IllegalEvent(
            f"seat {seat}: the House Money payout is added to the Blackjack Wager when it is paid, before "
            f"play begins (§ 633a.7(g)(10)(ii)); the round waits for {waiting_for(state)}"
        )
    if HOUSE_MONEY not in seat_state.wagers:
        raise IllegalEvent(f"seat {seat} has no House Money Wager")
    hand, payout = house_money_payout(state.rules, seat_state)
    if hand is None:
        raise IllegalEvent(
            f"seat {seat}: the House Money Wager lost; there is no payout to add (§ 633a.7(g)(10))"
        )
    if seat_state.even_money:
        raise IllegalEvent(f"seat {seat}: the Blackjack Wager was paid even money; nothing to add it to")
    if seat_state.house_money_added:
        raise IllegalEvent(f"seat {seat} has already added the House Money payout")
    if event.hand != 0:
        raise IllegalEvent(f"seat {seat}: the payout is added to the Blackjack Wager (hand 0)")
    added = payout * state.rules.house_money_portion // 100
    if event.amount is not None and event.amount != added:
        raise IllegalEvent(
            f"seat {seat}: the amount added is {dollars(added)} ({state.rules.house_money_portion}% of the "
            f"payout {dollars(payout)}, § 633a.7(g)(10)(ii)(A)), not {dollars(event.amount)}"
        )
    hand0 = seat_state.hands[0]
    seat_state = dataclasses.replace(seat_state, house_money_added=added)
    seat_state = replace_hand(seat_state, 0, dataclasses.replace(hand0, stake=hand0.stake + added))
    return dataclasses.replace(state, seats=replace_seat(state, seat, seat_state))


def _same_value(cards: tuple[Card, ...], unlike_tens: bool) -> bool:
    a, b = cards
    if a.rank == b.rank:
        return True
    return unlike_tens and is_ten_count(a) and is_ten_count(b)


def _play(state: BlackjackState, seat: int, seat_state: SeatState, event: Event) -> BlackjackState:
    rules = state.rules
    action = event.action
    index = event.hand
    if action == RESCUE and not rules.spanish_21_rescue:
        raise IllegalEvent(
            f"seat {seat}: the rescue is not offered in this Rules Submission (spanish_21.rescue, "
            f"{RESCUE_SECTION})"
        )
    if state.phase != PLAY:
        raise IllegalEvent(f"seat {seat}: no {action} now; the round waits for {waiting_for(state)}")
    if 0 <= index < len(seat_state.hands):
        named = seat_state.hands[index]
        if action == DOUBLE and named.is_blackjack:
            cited = (
                SPANISH_21_DOUBLE
                if rules.spanish_21_offered
                else f"§ 633a.10, as {SPANISH_21_DOUBLE} words it"
            )
            raise IllegalEvent(
                f'seat {seat} hand {index}: no Double Down Wager on a Blackjack ("Except when a player has '
                f'Blackjack", {cited})'
            )
        if action == RESCUE and named.double and named.bust:
            raise IllegalEvent(
                f"seat {seat} hand {index}: the doubled hand is over 21 and has lost; there is nothing to "
                f"rescue ({RESCUE_SECTION})"
            )
    turn = state.turn
    if turn != (seat, index):
        raise IllegalEvent(
            f"seat {seat} hand {index}: {action} out of turn; players act from the dealer's left, "
            f"hand by hand (§ 633a.7): {waiting_for(state)}"
        )
    hand = seat_state.hands[index]
    if hand.status == CARD:
        raise IllegalEvent(f"seat {seat} hand {index} waits for a card, not a decision")
    if action in (HIT, STAND, SURRENDER, RESCUE) and event.amount is not None:
        raise IllegalEvent(f"seat {seat}: {action} makes no wager; give no amount")
    if hand.double and action not in (STAND, RESCUE):
        raise IllegalEvent(
            f"seat {seat} hand {index} has doubled down and received its one additional card ("
            f"{SPANISH_21_DOUBLE}; § 633a.10): it may stand or rescue, not {action}"
        )
    count = hand.decisions + 1
    if action == HIT:
        if hand.split_aces:
            raise IllegalEvent(f"seat {seat} hand {index}: split aces receive one card each (§ 633a.11)")
        new = dataclasses.replace(hand, status=CARD, decisions=count)
    elif action == STAND:
        new = dataclasses.replace(hand, status=DONE, decisions=count)
    elif action == SURRENDER:
        if not rules.surrender_offered:
            raise IllegalEvent("surrender is not offered in this Rules Submission (§ 633a.9)")
        if hand.split or len(hand.cards) != 2 or hand.decisions:
            raise IllegalEvent(
                f"seat {seat}: a player may surrender only the initial two cards, before any other "
                f"decision on the hand (§ 633a.9)"
            )
        new = dataclasses.replace(hand, status=DONE, surrendered=True, decisions=count)
    elif action == DOUBLE:
        new = _double(rules, seat, index, hand, event.amount, bool(seat_state.house_money_added))
    elif action == RESCUE:
        new = _rescue(seat, index, hand)
    else:
        return _split(state, seat, seat_state, index, hand, event.amount)
    seats = replace_seat(state, seat, replace_hand(seat_state, index, new))
    return advance(dataclasses.replace(state, seats=seats, play_started=True))


def _double(
    rules: BlackjackRules,
    seat: int,
    index: int,
    hand: PlayerHand,
    amount: Cents | None,
    house_money_added: bool,
) -> PlayerHand:
    where = f"seat {seat} hand {index}"
    spanish = rules.spanish_21_offered
    if hand.split_aces and not (spanish and rules.spanish_21_double_split_aces):
        raise IllegalEvent(
            f"{where}: split aces take one card each, so a Double Down Wager is not on split aces "
            f"(§ 633a.11; at a Spanish 21 table that files spanish_21.double_split_aces, {SPANISH_21_DOUBLE})"
        )
    if len(hand.cards) != 2 and not spanish:
        raise IllegalEvent(
            f"{where}: a Double Down Wager is made on two cards (§ 633a.10); on two or more cards only at "
            f"a Spanish 21 table (spanish_21.offered, {SPANISH_21_DOUBLE})"
        )
    if hand.split and not rules.double_after_split:
        raise IllegalEvent(f"{where}: doubling down after splitting is not offered (double_down.after_split)")
    totals = DOUBLE_TOTALS[rules.double_on]
    total = hand_total(hand.cards)[0]
    if totals is not None and total not in totals:
        allowed = ", ".join(str(t) for t in sorted(totals))
        raise IllegalEvent(f"{where}: doubling down is allowed on {allowed} (double_down.on), not on {total}")
    stake = hand.stake if amount is None else amount
    if not 0 < stake <= hand.stake:
        section = f"{SPANISH_21_DOUBLE}: his original Spanish 21 Wager" if spanish else "§ 633a.10"
        raise IllegalEvent(
            f"{where}: a Double Down Wager is more than 0.00 and may not exceed the Blackjack Wager on the "
            f"hand, {dollars(hand.stake)} ({section}; § 633a.7(g)(10)(ii)(C)), not {dollars(stake)}"
        )
    if house_money_added and stake != hand.stake:
        # § 633a.7(g)(10)(ii)(C): with the House Money payout added, "the player shall match the
        # entire Blackjack Wager" on a double down, as on a split: no smaller double.
        raise IllegalEvent(
            f"{where}: the House Money payout was added, so a Double Down Wager shall match the entire "
            f"Blackjack Wager, {dollars(hand.stake)} (§ 633a.7(g)(10)(ii)(C)), not {dollars(stake)}"
        )
    return dataclasses.replace(hand, double=stake, status=CARD, decisions=hand.decisions + 1)


def _rescue(seat: int, index: int, hand: PlayerHand) -> PlayerHand:
    """§ 635a.10: the player forfeits the original wager and takes back the Double Down Wager."""
    where = f"seat {seat} hand {index}"
    if not hand.double:
        raise IllegalEvent(
            f"{where}: a rescue is made only on a hand that has doubled down and received its one additional "
            f"card ({RESCUE_SECTION}); this hand has no Double Down Wager"
        )
    return dataclasses.replace(hand, rescued=True, status=DONE, decisions=hand.decisions + 1)


def _split(
    state: BlackjackState,
    seat: int,
    seat_state: SeatState,
    index: int,
    hand: PlayerHand,
    amount: Cents | None,
) -> BlackjackState:
    rules = state.rules
    where = f"seat {seat} hand {index}"
    if len(hand.cards) != 2 or not _same_value(hand.cards, rules.split_unlike_tens):
        raise IllegalEvent(f"{where}: only two initial cards of identical value are split (§ 633a.11)")
    if len(seat_state.hands) >= rules.split_max_hands:
        raise IllegalEvent(
            f"{where}: no more than {rules.split_max_hands} hands (split.max_hands, § 633a.11)"
        )
    if hand.split_aces and not rules.resplit_aces:
        raise IllegalEvent(f"{where}: split aces may not be split again (split.resplit_aces, § 633a.11)")
    if amount is not None and amount != hand.stake:
        raise IllegalEvent(
            f"{where}: the split hand's wager matches the whole Blackjack Wager on the hand, "
            f"{dollars(hand.stake)} (§ 633a.11; § 633a.7(g)(10)(ii)(C)), not {dollars(amount)}"
        )
    aces = hand.cards[0].rank == ACE
    first = dataclasses.replace(
        hand, cards=hand.cards[:1], split=True, split_aces=aces, status=CARD, decisions=hand.decisions + 1
    )
    second = PlayerHand(hand.cards[1:], hand.stake, split=True, split_aces=aces, status=CARD)
    hands = list(seat_state.hands)
    hands[index] = first
    hands.append(second)
    seat_state = dataclasses.replace(seat_state, hands=tuple(hands))
    return dataclasses.replace(state, seats=replace_seat(state, seat, seat_state), play_started=True)
