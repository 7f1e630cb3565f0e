"""The events of a Caribbean Stud Poker round (ch. 639a), each making the new state or refusing,
citing the section: wagers, "no more bets", cards, the bet-or-fold decisions, the meter, and the
irregularities of § 639a.13. Each handler is registered once in :data:`EVENTS`."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import Final

from ...core.engine import EventTable, IllegalEvent
from ...core.equipment import refuse_shoe_jam, refuse_shuffler_jam
from ...core.events import Event, seat_of
from ...core.irregularities import cards_found_face_up, irregularity_section, refuse_face_up
from ...core.meter_turns import take_turn
from ...core.money import format_money
from .rules import (
    ANTE,
    BET,
    BONUS,
    FOLD,
    HAND_SIZE,
    IRREGULARITIES,
    PROGRESSIVE,
    STUB_SECTIONS,
    WAGERS,
)
from .state import (
    CaribbeanStudState,
    check_seat,
    missing_cards,
    void_round,
    wager_title,
)

EVENTS: Final = EventTable[CaribbeanStudState]("Caribbean Stud Poker")
"""The handler of each event type this game takes."""


@EVENTS.register("wager")
def _wager(state: CaribbeanStudState, event: Event) -> CaribbeanStudState:
    rules, seat, name, amount = state.rules, event.seat, event.wager, event.amount
    if seat is None or name is None or amount is None:
        raise IllegalEvent("a wager needs a seat, a wager name and an amount")
    if state.no_more_bets:
        # § 639a.7(c): "a wager may not be made, increased, or withdrawn after ... 'no more bets.'"
        raise IllegalEvent(
            f"seat {seat} {name}: no wager may be made after the dealer has announced "
            f"'no more bets' (§ 639a.7(c))"
        )
    check_seat(rules, seat)
    if name == BET:
        raise IllegalEvent(
            "the Bet Wager is made after the cards are dealt, as the decision 'bet' (§ 639a.11(b))"
        )
    if name not in WAGERS:
        raise IllegalEvent(f"Caribbean Stud Poker has no {name!r} wager (wagers: ante, bonus, progressive)")
    if name == BONUS and not rules.bonus_offered:
        raise IllegalEvent(
            "this table does not offer the Caribbean Stud Bonus Wager (bonus.offered, § 639a.7(d)(3))"
        )
    if name == PROGRESSIVE and not rules.progressive_offered:
        raise IllegalEvent(
            "this table does not offer the Progressive Payout Wager (progressive.offered, § 639a.7(d)(2))"
        )
    if amount <= 0:
        raise IllegalEvent(f"seat {seat} {name}: a wager must be more than 0.00")
    if name == PROGRESSIVE and amount != rules.progressive_wager:
        # § 639a.7(d)(2): the Progressive Payout Wager is the table's one value chip on the
        # wagering device, the Rules Submission's progressive.wager; nothing else is one.
        raise IllegalEvent(
            f"seat {seat} progressive: the Progressive Payout Wager is "
            f"{format_money(rules.progressive_wager)} (progressive.wager), not {format_money(amount)} "
            "(§ 639a.7(d)(2))"
        )
    placed = state.wagers.get(seat, {})
    if name in placed:
        raise IllegalEvent(
            f"seat {seat} has already placed its {wager_title(name)} ({format_money(placed[name])})"
        )
    if name != ANTE and ANTE not in placed:
        sub = "(d)(3)" if name == BONUS else "(d)(2)"
        raise IllegalEvent(
            f"seat {seat} {name}: the {wager_title(name)} is made after placing an Ante Wager (§ 639a.7{sub})"
        )
    wagers = dict(state.wagers)
    wagers[seat] = MappingProxyType({**placed, name: amount})
    return dataclasses.replace(state, wagers=MappingProxyType(wagers))


@EVENTS.register("no_more_bets")
def _no_more_bets(state: CaribbeanStudState, event: Event) -> CaribbeanStudState:
    if state.no_more_bets:
        raise IllegalEvent("the dealer has already announced 'no more bets'")
    return dataclasses.replace(state, no_more_bets=True)


@EVENTS.register("cards")
def _cards(state: CaribbeanStudState, event: Event) -> CaribbeanStudState:
    if not state.no_more_bets:
        # § 639a.8(b), § 639a.9(a)(3), § 639a.10(a)(2): "no more bets" comes before the deal.
        raise IllegalEvent("no card is dealt before the dealer announces 'no more bets' (§ 639a.8(b))")
    if event.hand:
        raise IllegalEvent("Caribbean Stud Poker has one hand per player; there is no hand index")
    if event.to == "board":
        raise IllegalEvent("Caribbean Stud Poker has no community cards")
    seat = seat_of(event.to)
    if seat is not None:
        check_seat(state.rules, seat)
        if seat not in state.ante_seats:
            # § 639a.8(d)(1): cards go "to each player who placed an Ante Wager".
            raise IllegalEvent(
                f"seat {seat} has no Ante Wager and is dealt no cards (§ 639a.8(d)(1)); a misdeal is "
                f"reported as the irregularity wrong_card_count"
            )
        held = state.hands.get(seat, ())
        who = f"seat {seat}"
    else:
        held = state.dealer
        who = "the dealer"
    if not event.cards:
        raise IllegalEvent(f"a cards event to {who} gives no cards")
    if len(held) + len(event.cards) > HAND_SIZE:
        raise IllegalEvent(
            f"{who} would hold {len(held) + len(event.cards)} cards; a hand is five cards (§ 639a.1). "
            f"A misdeal is reported as the irregularity wrong_card_count (§ 639a.13(c))"
        )
    if any(c.is_joker for c in event.cards):
        raise IllegalEvent("Caribbean Stud Poker is played without a joker (§ 639a.3(a))")
    refuse_face_up(event.cards, state.face_up, who, "§ 639a.13(a)")
    seen = set(state.all_cards())
    for i, c in enumerate(event.cards):
        if c in seen or c in event.cards[:i]:
            # § 639a.3: one deck in play in a round (two decks alternate round by round).
            raise IllegalEvent(f"{c} has already been dealt this round; the round uses one deck (§ 639a.3)")
    if seat is None:
        return dataclasses.replace(state, dealer=held + event.cards)
    hands = dict(state.hands)
    hands[seat] = held + event.cards
    return dataclasses.replace(state, hands=MappingProxyType(hands))


@EVENTS.register("decision")
def _decision(state: CaribbeanStudState, event: Event) -> CaribbeanStudState:
    seat, action = event.seat, event.action
    if seat is None or action is None:
        raise IllegalEvent("a decision needs a seat and an action")
    if action not in (BET, FOLD):
        raise IllegalEvent(f"seat {seat}: the decision is 'bet' or 'fold' (§ 639a.11(b)), not {action!r}")
    if event.hand:
        raise IllegalEvent("Caribbean Stud Poker has one hand per player; there is no hand index")
    if seat not in state.ante_seats:
        raise IllegalEvent(f"seat {seat} has no Ante Wager and makes no decision (§ 639a.11(b))")
    if not state.no_more_bets or not state.dealt:
        raise IllegalEvent(
            f"seat {seat} decides after every player has examined his cards (§ 639a.11(b)); "
            f"the deal is not complete ({missing_cards(state)})"
        )
    if seat in state.decisions:
        raise IllegalEvent(f"seat {seat} has already decided ({state.decisions[seat]})")
    turn = state.next_to_decide
    if seat != turn:
        raise IllegalEvent(
            f"seat {seat} decides out of turn: seat {turn} is asked first, beginning with the player "
            f"farthest to the dealer's left and moving clockwise (§ 639a.11(b))"
        )
    ante = state.wagers[seat][ANTE]
    if action == FOLD and event.amount is not None:
        raise IllegalEvent(f"seat {seat}: a fold makes no wager; give no amount")
    if action == BET and event.amount is not None and event.amount != 2 * ante:
        raise IllegalEvent(
            f"seat {seat}: the Bet Wager is two times the Ante Wager, {format_money(2 * ante)} on an "
            f"ante of {format_money(ante)}, not {format_money(event.amount)} (§ 639a.11(b))"
        )
    decisions = dict(state.decisions)
    decisions[seat] = action
    return dataclasses.replace(state, decisions=MappingProxyType(decisions))


@EVENTS.register("meter")
def _meter(state: CaribbeanStudState, event: Event) -> CaribbeanStudState:
    if event.name != PROGRESSIVE:
        raise IllegalEvent(f"Caribbean Stud Poker has one meter, 'progressive', not {event.name!r}")
    if not state.rules.progressive_offered:
        raise IllegalEvent(
            "this table does not offer the Progressive Payout Wager (progressive.offered, § 639a.7(d)(2))"
        )
    assert event.amount is not None
    if event.seat is not None:
        # § 639a.12(d)(4): the meter when that seat's turn to be paid comes (the central meter's award).
        seats = (s for s, placed in state.wagers.items() if PROGRESSIVE in placed)
        return dataclasses.replace(state, meter_turns=take_turn(state.meter_turns, event, seats))
    return dataclasses.replace(state, meter=event.amount)


@EVENTS.register("irregularity")
def _irregularity(state: CaribbeanStudState, event: Event) -> CaribbeanStudState:
    kind = event.kind or ""
    section = irregularity_section(IRREGULARITIES, kind, "ch. 639a")
    if event.seat is not None:
        check_seat(state.rules, event.seat)
    recorded = dataclasses.replace(state, irregularities=(*state.irregularities, event))
    detail = f" ({event.detail})" if event.detail else ""
    any_cards = bool(state.dealer) or any(state.hands.values())
    if kind == "shuffler_jam":
        # § 639a.13(e): "the cards shall be reshuffled"; the wagers stand.
        refuse_shuffler_jam(state.rules.shuffler, any_cards, kind, section)
        return recorded
    if not state.no_more_bets:
        raise IllegalEvent(
            f"no card is dealt before 'no more bets' (§ 639a.8(b)); a {kind} cannot happen yet ({section})"
        )
    dealing = not state.dealt
    if kind in ("card_face_up", "cards_face_up", "card_drawn_in_error", "shoe_jam") and not dealing:
        raise IllegalEvent(f"every card is dealt; a {kind} happens while the cards are dealt ({section})")
    if kind == "cards_face_up" or (kind == "card_face_up" and state.faced_up >= 1):
        # § 639a.13(a): "If more than one card is found face up in the shoe or the deck during the
        # dealing of the cards, all hands shall be void, all wagers shall be returned".
        return void_round(
            dataclasses.replace(recorded, faced_up=state.faced_up + 1),
            f"more than one card found face up in the shoe or deck while dealing{detail}",
            section,
        )
    if kind == "card_face_up":
        # § 639a.13(a): the card "may not be used in that round of play and shall be placed in the
        # discard rack"; the cards events carry only the cards used, never that one.
        return dataclasses.replace(recorded, faced_up=1, face_up=cards_found_face_up(event.detail))
    if kind == "card_drawn_in_error":
        # § 639a.13(b): "shall be used as though it were the next card"; the cards events say where.
        return recorded
    if kind == "wrong_card_count":
        who = f"seat {event.seat}" if event.seat is not None else "a player or the dealer"
        return void_round(recorded, f"{who} was dealt an incorrect number of cards{detail}", section)
    if kind == "hole_card_exposed":
        if state.dealt and state.next_to_decide is None:
            # Every player has bet or folded: the dealer reveals his hole cards now anyway
            # (§ 639a.11(c)); § 639a.13(d) does not apply.
            return recorded
        return void_round(
            recorded,
            f"a dealer hole card exposed before each player had folded or placed a Bet Wager{detail}",
            section,
        )
    if kind == "shoe_jam":
        refuse_shoe_jam(state.rules.dealing, section)
        return void_round(
            recorded, f"the automated dealing shoe jammed, stopped or failed to deal{detail}", section
        )
    # The stub counts: "After five cards have been dealt to each player and the dealer" (§ 639a.8(e)).
    if dealing:
        raise IllegalEvent(
            f"the stub is counted after five cards are dealt to each hand ({section}); not yet"
        )
    stub = STUB_SECTIONS[state.rules.dealing]
    if kind == "stub_count_misdealt":
        return void_round(
            recorded, f"the stub count was wrong and the cards misdealt, 52 cards remaining{detail}", stub
        )
    return void_round(
        recorded,
        "the stub count was wrong and the cards not misdealt: the entire deck is removed from the "
        f"table{detail}",
        stub,
    )
