"""The events of a Blackjack round (ch. 633a), each making the new state or refusing, citing the
section: wagers, the deal, the card reader, the players' decisions, the dealer's cards, meters
and irregularities."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final

from .blackjack_hands import (
    blackjack_value,
    dealer_must_hit,
    hand_total,
    is_blackjack,
    is_ten_count,
)
from .blackjack_rules import DOUBLE_TOTALS, BlackjackRules
from .blackjack_state import (
    ACTIONS,
    ADD_HOUSE_MONEY,
    BETTING,
    CARD,
    CHECK,
    COMPLETE,
    DEALER,
    DEALER_BLACKJACK,
    DEALING,
    DECIDE,
    DONE,
    DOUBLE,
    EVEN_MONEY,
    HIT,
    INSURE,
    IRREGULARITIES,
    PLAY,
    RESCUE,
    RESCUE_SECTION,
    SPANISH_21_DOUBLE,
    SPANISH_DECK_SECTION,
    STAND,
    SURRENDER,
    VOID,
    BlackjackState,
    PlayerHand,
    SeatState,
    dollars,
    replace_hand,
    replace_seat,
    waiting_for,
)
from .blackjack_wagers import (
    BLACKJACK,
    DOUBLE_DOWN,
    HOUSE_MONEY,
    INSURANCE,
    OPTIONAL_WAGERS,
    PROGRESSIVES,
    TITLES,
    house_money_payout,
)
from .cards import ACE, TEN, Card
from .engine import IllegalEvent
from .events import Event, seat_of
from .money import Cents

# --- events --------------------------------------------------------------------------------------


def check_meter(rules: BlackjackRules, name: str, amount: Cents) -> None:
    if name not in PROGRESSIVES or not rules.offered(name):
        offered = [p for p in PROGRESSIVES if rules.offered(p)]
        raise IllegalEvent(
            f"no {name!r} meter: the meters are those of the progressive wagers offered "
            f"({', '.join(offered) or 'none'})"
        )
    reset = rules.reset(name)
    if amount < reset:
        raise IllegalEvent(
            f"the {name} meter {dollars(amount)} is below its reset amount {dollars(reset)} "
            f"(the meter never falls below it)"
        )


def _meter(state: BlackjackState, event: Event) -> BlackjackState:
    if event.name is None or event.amount is None:
        raise IllegalEvent("a meter event needs a name and an amount")
    check_meter(state.rules, event.name, event.amount)
    meters = dict(state.meters)
    meters[event.name] = event.amount
    return dataclasses.replace(state, meters=MappingProxyType(meters))


def _wager(state: BlackjackState, event: Event) -> BlackjackState:
    rules = state.rules
    seat, name, amount = event.seat, event.wager, event.amount
    if seat is None or name is None or amount is None:
        raise IllegalEvent("a wager needs a seat, a wager name and an amount")
    if state.phase != BETTING:
        raise IllegalEvent(
            f"seat {seat} {name}: no wager is placed after 'no more bets' (§ 633a.6; the lock-out of "
            f"§ 633a.2(c), (d)(2))"
        )
    _check_seat(rules, seat)
    if name in (INSURANCE, DOUBLE_DOWN):
        raise IllegalEvent(f"seat {seat}: {name} is a decision during the round, not a wager before the deal")
    if name != BLACKJACK and name not in OPTIONAL_WAGERS:
        known = ", ".join((BLACKJACK, *OPTIONAL_WAGERS))
        raise IllegalEvent(f"seat {seat}: no wager {name!r} in this game (wagers: {known})")
    if name != BLACKJACK and not rules.offered(name):
        raise IllegalEvent(
            f"seat {seat}: the {TITLES[name]} is not offered in this Rules Submission (§ 633a.6(e))"
        )
    if amount <= 0:
        raise IllegalEvent(f"seat {seat} {name}: a wager must be more than 0.00")
    placed = state.seats.get(seat)
    if name != BLACKJACK and (placed is None or BLACKJACK not in placed.wagers):
        raise IllegalEvent(
            f"seat {seat}: the {TITLES[name]} is offered to a player who placed a Blackjack Wager "
            f"(§ 633a.6(e)); place the blackjack wager first"
        )
    wagers = dict(placed.wagers) if placed is not None else {}
    if name in wagers:
        raise IllegalEvent(f"seat {seat} already has a {name} wager of {dollars(wagers[name])}")
    wagers[name] = amount
    seat_state = SeatState(MappingProxyType(wagers))
    return dataclasses.replace(state, seats=replace_seat(state, seat, seat_state))


def _no_more_bets(state: BlackjackState, event: Event) -> BlackjackState:
    if state.phase != BETTING:
        raise IllegalEvent("the dealer has already announced 'no more bets'")
    if not state.seats:
        raise IllegalEvent("no Blackjack Wager has been placed; there is no round to deal")
    return dataclasses.replace(state, phase=DEALING)


def _check_seat(rules: BlackjackRules, seat: int) -> None:
    if not 1 <= seat <= rules.seats:
        raise IllegalEvent(f"seat {seat} is not at this table: seats 1 to {rules.seats} (seats, § 633a.2)")


def _cards(state: BlackjackState, event: Event) -> BlackjackState:
    cards = event.cards
    who = "the dealer" if event.to == "dealer" else f"seat {event.to}"
    if event.to == "board":
        raise IllegalEvent("Blackjack has no community cards")
    if not cards:
        raise IllegalEvent(f"a cards event to {who} gives no cards")
    if any(c.is_joker for c in cards):
        raise IllegalEvent("Blackjack is played without a joker (§ 633a.3)")
    if state.rules.spanish_deck:
        tens = [str(c) for c in cards if c.rank == TEN]
        if tens:
            raise IllegalEvent(
                f"{', '.join(tens)} is not in the shoe: a Spanish 21 table deals Spanish decks, 48 cards "
                f"without the four 10s (spanish_21.spanish_deck; {SPANISH_DECK_SECTION})"
            )
    counts = Counter(state.all_cards())
    counts.update(cards)
    decks = state.rules.decks
    for c, n in counts.items():
        if n > decks:
            raise IllegalEvent(
                f"{c} would be dealt {n} times this round, but {decks} deck{'s' if decks > 1 else ''} "
                f"hold{'' if decks > 1 else 's'} it {decks} time{'s' if decks > 1 else ''}"
            )
    seat = seat_of(event.to)
    if state.phase == DEALING:
        return _deal(state, seat, event)
    if state.phase == PLAY and seat is not None:
        return _player_card(state, seat, event)
    if state.phase in (DEALER, DEALER_BLACKJACK, COMPLETE) and seat is None:
        return _dealer_cards(state, cards)
    raise IllegalEvent(f"no card is dealt to {who} now: the round waits for {waiting_for(state)}")


def _deal(state: BlackjackState, seat: int | None, event: Event) -> BlackjackState:
    cards = event.cards
    if seat is None:
        if state.dealer or len(cards) != 1:
            raise IllegalEvent(
                "in the deal the dealer receives one card face up; the hole card is dealt face down and "
                "given when it is revealed (§ 633a.7(h))"
            )
        state = dataclasses.replace(state, dealer=cards)
    else:
        placed = state.seats.get(seat)
        if placed is None:
            raise IllegalEvent(f"seat {seat} has no Blackjack Wager and is dealt no cards (§ 633a.7)")
        if event.hand != 0:
            raise IllegalEvent(
                f"seat {seat}: there is no hand {event.hand} in the deal; hands are split later"
            )
        if len(placed.initial) + len(cards) > 2:
            raise IllegalEvent(
                f"seat {seat} would hold {len(placed.initial) + len(cards)} cards; the deal gives each "
                f"player two (§ 633a.7)"
            )
        seat_state = dataclasses.replace(placed, initial=placed.initial + cards)
        state = dataclasses.replace(state, seats=replace_seat(state, seat, seat_state))
    dealt = len(state.dealer) == 1 and all(len(s.initial) == 2 for s in state.seats.values())
    if not dealt:
        return state
    # The deal is complete: § 633a.7(g) settles the optional wagers now (computed at settlement).
    seats = {
        number: dataclasses.replace(
            s,
            hands=(PlayerHand(s.initial, s.stake, status=DONE if is_blackjack(s.initial) else DECIDE),),
        )
        for number, s in state.seats.items()
    }
    state = dataclasses.replace(state, seats=MappingProxyType(seats))
    if state.reader_used:
        return dataclasses.replace(state, phase=CHECK)
    return _advance(dataclasses.replace(state, phase=PLAY))


def _advance(state: BlackjackState) -> BlackjackState:
    if state.phase == PLAY and state.turn is None:
        state = dataclasses.replace(state, phase=DEALER)
    if state.phase in (DEALER, DEALER_BLACKJACK) and state.dealer_complete:
        state = dataclasses.replace(state, phase=COMPLETE)
    return state


def _reader(state: BlackjackState, event: Event) -> BlackjackState:
    if state.phase != CHECK:
        if state.phase in (BETTING, DEALING):
            raise IllegalEvent("the card reader is used after the deal (§ 633a.7(h))")
        if state.reader is not None:
            raise IllegalEvent(f"the card reader has already been used ({state.reader})")
        raise IllegalEvent(
            "the card reader is used only when the dealer's up card is an ace, king, queen, jack or 10 "
            f"(§ 633a.7(h)); the up card is {state.up_card}"
        )
    if event.result == "blackjack":
        return dataclasses.replace(state, reader="blackjack", phase=DEALER_BLACKJACK)
    return _advance(dataclasses.replace(state, reader="no_blackjack", phase=PLAY))


def _dealer_cards(state: BlackjackState, cards: tuple[Card, ...]) -> BlackjackState:
    dealer = state.dealer
    for c in cards:
        if len(dealer) == 1:
            hole = (*dealer, c)
            if state.reader == "blackjack" and not is_blackjack(hole):
                raise IllegalEvent(
                    f"the card reader found a Blackjack, but the hole card {c} with the up card {dealer[0]} "
                    f"is no Blackjack; record a card_reader_malfunction irregularity instead"
                )
            if state.reader == "no_blackjack" and is_blackjack(hole):
                raise IllegalEvent(
                    f"the card reader found no Blackjack, but the hole card {c} with the up card {dealer[0]} "
                    f"is a Blackjack; record a card_reader_malfunction irregularity instead"
                )
            dealer = hole
            continue
        done = dataclasses.replace(state, dealer=dealer)
        if state.reader == "blackjack":
            raise IllegalEvent("the dealer has a Blackjack: additional cards may not be dealt (§ 633a.7(h))")
        if not done.dealer_draws:
            raise IllegalEvent(
                "no player's hand remains in play and no Hit and Run Progressive Wager was placed: the "
                "dealer reveals the hole card and draws no card (§ 633a.7)"
            )
        if not dealer_must_hit(dealer, state.rules.hits_soft_17):
            rule = "hits" if state.rules.hits_soft_17 else "stands on"
            raise IllegalEvent(
                f"the dealer stands with {blackjack_value(dealer).words} and draws no card {c} (the dealer "
                f"draws to 16 and stands on 17; {rule} a soft 17 per the Rules Submission, § 633a.7)"
            )
        dealer = (*dealer, c)
    return _advance(dataclasses.replace(state, dealer=dealer))


def _player_card(state: BlackjackState, seat: int, event: Event) -> BlackjackState:
    turn = state.turn
    if turn != (seat, event.hand):
        raise IllegalEvent(f"no card is dealt to seat {seat} hand {event.hand} now: {waiting_for(state)}")
    seat_state = state.seats[seat]
    hand = seat_state.hands[event.hand]
    if hand.status != CARD:
        raise IllegalEvent(
            f"seat {seat} hand {event.hand} waits for a decision, not a card: {waiting_for(state)}"
        )
    if len(event.cards) != 1:
        raise IllegalEvent(f"seat {seat} hand {event.hand} receives one card now, not {len(event.cards)}")
    cards = (*hand.cards, event.cards[0])
    total = hand_total(cards)[0]
    if hand.double:
        # § 635a.10(a), § 633a.10: only one additional card on a Double Down. With the rescue offered,
        # a hand not over 21 then waits for the player to stand or rescue (§ 635a.10).
        status = DECIDE if state.rules.spanish_21_rescue and total <= 21 else DONE
    elif hand.split_aces and len(cards) == 2:
        # § 633a.11: split aces receive one card each; a second ace may be split again if allowed.
        can_resplit = (
            cards[1].rank == ACE
            and state.rules.resplit_aces
            and len(seat_state.hands) < state.rules.split_max_hands
        )
        status = DECIDE if can_resplit else DONE
    elif total >= 21:
        status = DONE  # bust, or 21: no further card
    else:
        status = DECIDE
    hand = dataclasses.replace(hand, cards=cards, status=status)
    seats = replace_seat(state, seat, replace_hand(seat_state, event.hand, hand))
    return _advance(dataclasses.replace(state, seats=seats))


def _decision(state: BlackjackState, event: Event) -> BlackjackState:
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
    hand, payout, _ = house_money_payout(state.rules, seat_state)
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
        new = _double(rules, seat, index, hand, event.amount)
    elif action == RESCUE:
        new = _rescue(seat, index, hand)
    else:
        return _split(state, seat, seat_state, index, hand, event.amount)
    seats = replace_seat(state, seat, replace_hand(seat_state, index, new))
    return _advance(dataclasses.replace(state, seats=seats, play_started=True))


def _double(
    rules: BlackjackRules, seat: int, index: int, hand: PlayerHand, amount: Cents | None
) -> PlayerHand:
    where = f"seat {seat} hand {index}"
    spanish = rules.spanish_21_offered
    if hand.split_aces:
        raise IllegalEvent(
            f"{where}: split aces take one card each, so a Double Down Wager is not on split aces (§ 633a.11)"
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


def _irregularity(state: BlackjackState, event: Event) -> BlackjackState:
    kind = event.kind or ""
    if kind not in IRREGULARITIES:
        raise IllegalEvent(f"no irregularity {kind!r} in Blackjack (kinds: {', '.join(IRREGULARITIES)})")
    if state.phase == COMPLETE:
        raise IllegalEvent("the round is complete; an irregularity can no longer void it")
    reason = f"{kind}: {IRREGULARITIES[kind]}" + (f" ({event.detail})" if event.detail else "")
    return dataclasses.replace(
        state,
        phase=VOID,
        void=reason,
        void_phase=state.phase,
        irregularities=(*state.irregularities, event),
    )


HANDLERS: Final[Mapping[str, Callable[[BlackjackState, Event], BlackjackState]]] = MappingProxyType(
    {
        "wager": _wager,
        "no_more_bets": _no_more_bets,
        "cards": _cards,
        "decision": _decision,
        "hole_card_reader": _reader,
        "meter": _meter,
        "irregularity": _irregularity,
    }
)
"""The handler of each event type this game takes."""
