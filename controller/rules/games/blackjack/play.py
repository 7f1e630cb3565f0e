"""The events of a Blackjack round (ch. 633a), each making the new state or refusing, citing the
section: wagers, the deal, the card reader, the players' decisions, the dealer's cards, meters
and irregularities."""

from __future__ import annotations

import dataclasses
from collections import Counter
from types import MappingProxyType
from typing import Final

from ...core.cards import ACE, TEN, Card
from ...core.engine import EventTable, IllegalEvent
from ...core.events import Event, seat_of
from ...core.irregularities import irregularity_section
from ...core.meter_turns import take_turn
from ...core.money import Cents
from ...rankings.blackjack import blackjack_value, dealer_must_hit, hand_total, is_blackjack
from .decisions import decision_event
from .rules import BlackjackRules
from .state import (
    BETTING,
    CARD,
    CHECK,
    COMPLETE,
    DEALER,
    DEALER_BLACKJACK,
    DEALING,
    DECIDE,
    DONE,
    IRREGULARITIES,
    PLAY,
    SPANISH_DECK_SECTION,
    VOID,
    BlackjackState,
    PlayerHand,
    SeatState,
    advance,
    dollars,
    replace_hand,
    replace_seat,
)
from .wagers import BLACKJACK, DOUBLE_DOWN, INSURANCE, OPTIONAL_WAGERS, PROGRESSIVES, TITLES
from .waiting import waiting_for

# --- events --------------------------------------------------------------------------------------


EVENTS: Final = EventTable[BlackjackState]("Blackjack")
"""The handler of each event type this game takes."""


def check_meter(rules: BlackjackRules, name: str, amount: Cents) -> None:
    if name not in PROGRESSIVES or not rules.offered(name):
        offered = [p for p in PROGRESSIVES if rules.offered(p)]
        raise IllegalEvent(
            f"no {name!r} meter: the meters are those of the progressive wagers offered "
            f"({', '.join(offered) or 'none'})"
        )
    # No floor: a share of the meter may leave it below its reset amount (§ 633a.13(m)(2) "initial
    # and reset amounts": where the meter goes after a 100% award), and the next round begins there.


@EVENTS.register("meter")
def _meter(state: BlackjackState, event: Event) -> BlackjackState:
    if event.name is None or event.amount is None:
        raise IllegalEvent("a meter event needs a name and an amount")
    check_meter(state.rules, event.name, event.amount)
    if event.seat is not None:
        # § 633a.7(o): the meter when that seat's turn to be paid comes (the central meter's award).
        seats = (n for n, seat in state.seats.items() if event.name in seat.wagers)
        return dataclasses.replace(state, meter_turns=take_turn(state.meter_turns, event, seats))
    meters = dict(state.meters)
    meters[event.name] = event.amount
    return dataclasses.replace(state, meters=MappingProxyType(meters))


@EVENTS.register("wager")
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


@EVENTS.register("no_more_bets")
def _no_more_bets(state: BlackjackState, event: Event) -> BlackjackState:
    if state.phase != BETTING:
        raise IllegalEvent("the dealer has already announced 'no more bets'")
    if not state.seats:
        raise IllegalEvent("no Blackjack Wager has been placed; there is no round to deal")
    return dataclasses.replace(state, phase=DEALING)


def _check_seat(rules: BlackjackRules, seat: int) -> None:
    if not 1 <= seat <= rules.seats:
        raise IllegalEvent(f"seat {seat} is not at this table: seats 1 to {rules.seats} (seats, § 633a.2)")


@EVENTS.register("cards")
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
    return advance(dataclasses.replace(state, phase=PLAY))


@EVENTS.register("hole_card_reader")
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
    return advance(dataclasses.replace(state, reader="no_blackjack", phase=PLAY))


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
    return advance(dataclasses.replace(state, dealer=dealer))


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
        # § 635a.10(a) "two or more cards of any split pair": where the Spanish 21 table files it
        # (spanish_21.double_split_aces), the hand then waits for a stand or a double down.
        rules = state.rules
        can_resplit = (
            cards[1].rank == ACE and rules.resplit_aces and len(seat_state.hands) < rules.split_max_hands
        )
        can_double = rules.spanish_21_offered and rules.spanish_21_double_split_aces
        status = DECIDE if can_resplit or can_double else DONE
    elif total >= 21:
        status = DONE  # bust, or 21: no further card
    else:
        status = DECIDE
    hand = dataclasses.replace(hand, cards=cards, status=status)
    seats = replace_seat(state, seat, replace_hand(seat_state, event.hand, hand))
    return advance(dataclasses.replace(state, seats=seats))


@EVENTS.register("irregularity")
def _irregularity(state: BlackjackState, event: Event) -> BlackjackState:
    kind = event.kind or ""
    words = irregularity_section(IRREGULARITIES, kind, "Blackjack")
    if state.phase == COMPLETE:
        raise IllegalEvent("the round is complete; an irregularity can no longer void it")
    reason = f"{kind}: {words}" + (f" ({event.detail})" if event.detail else "")
    return dataclasses.replace(
        state,
        phase=VOID,
        void=reason,
        void_phase=state.phase,
        irregularities=(*state.irregularities, event),
    )


EVENTS.add("decision", decision_event)
