"""The events of a Texas Hold 'Em Bonus Poker round (ch. 647a), each making the new state or
refusing, citing the section: wagers, "no more bets", cards, decisions street by street, and the
irregularities of § 647a.13."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ...core.cards import Card, CardError, format_cards, parse_cards
from ...core.engine import EventTable, IllegalEvent
from ...core.equipment import refuse_shoe_jam, refuse_shuffler_jam
from ...core.events import Event, seat_of
from ...core.irregularities import irregularity_section
from ...core.money import format_money
from .state import (
    ANTE,
    BET,
    BOARD_CARDS,
    BOARD_SECTIONS,
    BONUS,
    CHECK,
    DECISION_SECTIONS,
    FLOP,
    FOLD,
    IRREGULARITIES,
    STREET_WORDS,
    STREETS,
    TURN,
    HoldemBonusState,
    SeatState,
    Void,
    awaiting,
    decisions_complete,
    initial_deal_complete,
    waiting_words,
)

# --- events ---------------------------------------------------------------------------------


EVENTS: Final = EventTable[HoldemBonusState]("Texas Hold 'Em Bonus Poker")
"""The handler of each event type this game takes."""


def _seat_number(state: HoldemBonusState, seat: int | None) -> int:
    if seat is None or not 1 <= seat <= state.rules.seats:
        raise IllegalEvent(
            f"seat {seat} is not a betting position of this table (1 to {state.rules.seats}, § 647a.2(a))"
        )
    return seat


def _put_seat(state: HoldemBonusState, seat: SeatState | None, number: int) -> HoldemBonusState:
    others = [s for s in state.seats if s.seat != number]
    if seat is not None:
        others.append(seat)
    return replace(state, seats=tuple(sorted(others, key=lambda s: s.seat)))


@EVENTS.register("wager")
def wager_event(state: HoldemBonusState, event: Event) -> HoldemBonusState:
    number = _seat_number(state, event.seat)
    name, amount = event.wager or "", event.amount or 0
    if name in STREETS:
        if not state.locked:
            raise IllegalEvent(
                f"a {STREET_WORDS[name]} Wager is placed only when the dealer asks, after the cards are "
                f"dealt ({DECISION_SECTIONS[name]})"
            )
        return decision_event(
            state, Event("decision", seat=number, action=BET, amount=event.amount), street=name
        )
    if name not in (ANTE, BONUS):
        raise IllegalEvent(
            f"no wager {name!r} at Texas Hold 'Em Bonus Poker "
            "(wagers: ante, bonus; flop, turn and river when the dealer asks; § 647a.7(d))"
        )
    if state.locked:
        raise IllegalEvent(
            f'seat {number}: no wager may be made, increased or withdrawn after "no more bets" (§ 647a.7(c))'
        )
    rules = state.rules
    if name == BONUS and not rules.bonus_offered:
        raise IllegalEvent(
            "this table does not offer the Texas Hold 'Em Bonus Wager (bonus.offered, § 647a.7(d)(2))"
        )
    minimum = rules.ante_minimum if name == ANTE else rules.bonus_minimum
    if 0 < amount < minimum:
        word = "Ante" if name == ANTE else "Bonus"
        raise IllegalEvent(
            f"seat {number}: a {word} Wager of {format_money(amount)} is below the table's minimum of "
            f"{format_money(minimum)} ({word.lower()}.minimum in the Rules Submission)"
        )
    current = state.seat(number) or SeatState(number)
    # Before "no more bets" the wager on the layout is as last sensed; 0.00 takes it back.
    updated = replace(current, ante=amount) if name == ANTE else replace(current, bonus=amount)
    return _put_seat(state, updated if updated.ante or updated.bonus else None, number)


@EVENTS.register("no_more_bets")
def no_more_bets_event(state: HoldemBonusState, event: Event) -> HoldemBonusState:
    if state.locked:
        raise IllegalEvent('"no more bets" was already announced for this round (§ 647a.8(b))')
    if not state.players:
        raise IllegalEvent("no player has placed an Ante Wager: there is no one to deal to (§ 647a.8(d))")
    for s in state.seats:
        if s.bonus and not s.ante:
            raise IllegalEvent(
                f"seat {s.seat} has a Bonus Wager but no Ante Wager: cards are dealt only to players who "
                "placed an Ante Wager (§ 647a.8(d)), and the Bonus is on the player's first two cards "
                "(§ 647a.7(d)(2))"
            )
    return replace(state, locked=True)


def _check_new_cards(state: HoldemBonusState, cards: tuple[Card, ...], where: str) -> None:
    seen = state.seen
    for c in cards:
        if c in state.discarded:
            raise IllegalEvent(
                f"{c} to {where}: it was found face up and may not be used this round (§ 647a.13(a))"
            )
        if c in seen:
            raise IllegalEvent(f"{c} to {where}: it is already out this round (one deck, § 647a.3)")


@EVENTS.register("cards")
def cards_event(state: HoldemBonusState, event: Event) -> HoldemBonusState:
    if not state.locked:
        raise IllegalEvent('no card is dealt before the dealer announces "no more bets" (§ 647a.8(b))')
    if event.hand:
        raise IllegalEvent("Texas Hold 'Em Bonus Poker has no split hands (hand must be 0)")
    cards = event.cards
    now = awaiting(state)
    wrong_count = "; if it was dealt so, record the irregularity wrong_card_count (§ 647a.13(c))"
    seat = seat_of(event.to)
    if seat is not None:
        _seat_number(state, seat)
        s = state.seat(seat)
        if s is None or not s.ante:
            raise IllegalEvent(
                f"seat {seat} placed no Ante Wager: cards are dealt only to players who did (§ 647a.8(d))"
            )
        if s.cards:
            raise IllegalEvent(f"seat {seat} already has its two cards ({format_cards(s.cards)})")
        if len(cards) != 2:
            raise IllegalEvent(f"seat {seat} is dealt two cards, not {len(cards)} (§ 647a.8(d)){wrong_count}")
        _check_new_cards(state, cards, f"seat {seat}")
        return _put_seat(state, replace(s, cards=cards), seat)
    if event.to == "dealer":
        if state.dealer:
            raise IllegalEvent(f"the dealer already has his two cards ({format_cards(state.dealer)})")
        if now.step == "deal" and now.seat is not None:
            raise IllegalEvent(
                f"the dealer's cards come after every player's (seat {now.seat} has none yet; § 647a.8(d), "
                "§ 647a.10(b))"
            )
        if len(cards) != 2:
            raise IllegalEvent(f"the dealer is dealt two cards, not {len(cards)} (§ 647a.8(d)){wrong_count}")
        _check_new_cards(state, cards, "the dealer")
        return replace(state, dealer=cards)
    # The board: the Flop (3), the turn card (1), the river card (1), each after its decisions.
    if now.step not in STREETS:
        raise IllegalEvent(f"no community card now: {waiting_words(state, now)}")
    need = BOARD_CARDS[now.step]
    if len(cards) != need:
        label = "the Flop is three cards" if now.step == FLOP else f"the {now.step} card is one card"
        raise IllegalEvent(
            f"{label}, not {len(cards)} ({BOARD_SECTIONS[now.step]}): the community cards come 3, 1 and 1, "
            f"each after the players' decisions{wrong_count}"
        )
    _check_new_cards(state, cards, "the board")
    return replace(state, board=state.board + cards)


def decision_event(state: HoldemBonusState, event: Event, street: str | None = None) -> HoldemBonusState:
    number = _seat_number(state, event.seat)
    if event.hand:
        raise IllegalEvent("Texas Hold 'Em Bonus Poker has no split hands (hand must be 0)")
    now = awaiting(state)
    if not now.step.endswith("decision_event"):
        raise IllegalEvent(f"seat {number}: no decision now: {waiting_words(state, now)}")
    current = now.step.removesuffix("decision_event")
    if street is not None and street != current:
        raise IllegalEvent(
            f"seat {number}: a {STREET_WORDS[street]} Wager now? The dealer is asking for "
            f"{STREET_WORDS[current]} Wagers ({DECISION_SECTIONS[current]})"
        )
    if number != now.seat:
        raise IllegalEvent(
            f"seat {number} acts out of turn: the dealer asks seat {now.seat} first, moving clockwise from "
            f"his left ({DECISION_SECTIONS[current]})"
        )
    s = state.seat(number)
    assert s is not None
    action = event.action or ""
    words = STREET_WORDS[current]
    section = DECISION_SECTIONS[current]
    allowed = (BET, FOLD) if current == FLOP else (BET, CHECK)
    if action not in allowed:
        raise IllegalEvent(
            f"seat {number}: {action!r} is not a choice at the {words} Wager: the player may "
            + (
                "either fold or place a Flop Wager ('bet')"
                if current == FLOP
                else f"either check and remain in the game or place a {words} Wager ('bet')"
            )
            + f" ({section})"
        )
    if action == BET:
        due = 2 * s.ante if current == FLOP else s.ante
        if event.amount is not None and event.amount != due:
            times = "twice" if current == FLOP else "equal to"
            raise IllegalEvent(
                f"seat {number}: a {words} Wager of {format_money(event.amount)}; it must be {times} the "
                f"Ante Wager of {format_money(s.ante)}, i.e. {format_money(due)} ({section})"
            )
    elif event.amount is not None:
        raise IllegalEvent(f"seat {number}: to {action} is to wager nothing; no amount goes with it")
    if current == FLOP:
        updated = replace(s, flop=action)
    elif current == TURN:
        updated = replace(s, turn=action)
    else:
        updated = replace(s, river=action)
    new = _put_seat(state, updated, number)
    if action == FOLD:
        # § 647a.11(b)(2): the Ante is collected now; the cards stay under a Bonus Wager.
        new = replace(new, folds=(*new.folds, number))
    return new


# --- irregularities, § 647a.13 --------------------------------------------------------------


# Registered here, not by a decorator: the fold of a street calls it with its ``street``.
EVENTS.add("decision", decision_event)


@EVENTS.register("irregularity")
def irregularity_event(state: HoldemBonusState, event: Event) -> HoldemBonusState:
    kind = event.kind or ""
    section = irregularity_section(IRREGULARITIES, kind, "ch. 647a")
    now = awaiting(state)
    dealing = state.locked and now.step != "done"
    if kind == "shuffler_jam":
        # § 647a.13(e): "the cards shall be reshuffled"; the wagers stand.
        refuse_shuffler_jam(state.rules.shuffler, state.any_cards, kind, section)
        return _note(state, f"the automated shuffler jammed: the cards are reshuffled ({section})")
    if not state.locked:
        raise IllegalEvent(f'no card is dealt before "no more bets"; a {kind} cannot happen yet ({section})')
    if kind in ("card_face_up", "cards_face_up"):
        return _card_face_up(state, event, dealing, at_least=1 if kind == "card_face_up" else 2)
    if kind == "card_drawn_in_error":
        # § 647a.13(b): "used as though it were the next card": the cards events already say where it went.
        if not dealing:
            raise IllegalEvent(f"every card is dealt; no card can be drawn in error now ({section})")
        return _note(state, f"a card drawn in error, face not exposed, is used as the next card ({section})")
    if kind == "wrong_card_count":
        who = f"seat {event.seat}" if event.seat is not None else (event.detail or "a hand")
        return _void(
            state, f"{who} was dealt an incorrect number of cards; the cards are reshuffled", section
        )
    if kind == "dealer_card_exposed":
        if not state.dealer:
            raise IllegalEvent(f"the dealer has no cards yet; record his two cards first ({section})")
        if decisions_complete(state):
            return _note(
                state,
                f"a dealer's card was exposed after every decision was made; the round goes on ({section})",
            )
        return _void(
            state,
            "a dealer's card was exposed before every player had decided; Ante, Flop, Turn and River Wagers "
            "are returned, the Bonus Wagers settled, the cards reshuffled",
            section,
            bonus_settled=True,
        )
    if kind == "shoe_jam":
        refuse_shoe_jam(state.rules.dealing, section)
        if not dealing:
            raise IllegalEvent(f"every card is dealt; the shoe cannot fail to deal now ({section})")
        return _void(
            state,
            "the automated dealing shoe failed to deal; the cards are removed and reshuffled with those "
            "dealt",
            section,
        )
    # The stub counts: after all the community cards are dealt (§ 647a.8(e)-(h)).
    if not (decisions_complete(state) and (now.step == "done" or not any(p.in_play for p in state.players))):
        raise IllegalEvent(f"the stub is counted after all community cards are dealt ({section}); not yet")
    if kind == "stub_count_misdealt":
        return _void(state, "the stub count was wrong and the cards misdealt, 52 cards remaining", section)
    return _void(
        state,
        "the stub count was wrong and the cards not misdealt: the entire deck is removed from the table",
        section,
    )


def _card_face_up(state: HoldemBonusState, event: Event, dealing: bool, at_least: int) -> HoldemBonusState:
    """One card (``card_face_up``) or several at once (``cards_face_up``), named in ``detail`` or not."""
    section = IRREGULARITIES["card_face_up"]
    if not dealing:
        raise IllegalEvent(
            f"every card is dealt; a card found face up now is not a dealing irregularity ({section})"
        )
    found: tuple[Card, ...] = ()
    if event.detail:
        try:
            found = parse_cards(event.detail, decks=1, allow_joker=False)
        except CardError as exc:
            raise IllegalEvent(f"{event.kind}: the detail names the card(s) found face up: {exc}") from None
        _check_new_cards(state, found, "found face up")
    total = state.face_up_found + max(len(found), at_least)
    if total > 1:
        # "If more than one card is found face up ... all hands shall be void ... Notwithstanding the
        # foregoing, if the cards are found face up after each player and the dealer have received their
        # initial two cards, any Texas Hold 'Em Bonus Wager shall be settled."
        settled = initial_deal_complete(state)
        return _void(
            state,
            "more than one card was found face up while dealing; the cards are reshuffled"
            + ("; the Bonus Wagers are settled" if settled else ""),
            section,
            bonus_settled=settled,
        )
    # One card: "may not be used in that round of play and shall be placed in the discard rack".
    note = (
        f"{format_cards(found) or 'a card'} found face up: not used, placed in the discard rack ({section})"
    )
    return replace(_note(state, note), discarded=state.discarded + found, face_up_found=total)


def _note(state: HoldemBonusState, note: str) -> HoldemBonusState:
    return replace(state, notes=(*state.notes, note))


def _void(
    state: HoldemBonusState, reason: str, section: str, bonus_settled: bool = False
) -> HoldemBonusState:
    return replace(state, void=Void(reason, section, bonus_settled))
