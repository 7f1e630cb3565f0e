"""The events of a Three Card Poker round (ch. 649a), each making the new state or refusing,
citing the section: wagers, "no more bets", cards, the play-or-fold decisions and the
irregularities of § 649a.13 (as § 639a.13)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Final

from ...core.cards import format_cards
from ...core.engine import EventTable, IllegalEvent
from ...core.events import Event, seat_of
from ...core.irregularities import cards_found_face_up, refuse_face_up
from ...core.money import Cents, format_money
from .rules import (
    ACTIONS,
    ANTE,
    DEALER,
    HAND_SIZE,
    PAIR_PLUS,
    PLAY,
    SEC_DEAL,
    SEC_DECISION,
    SEC_IRREGULARITIES,
    SEC_PLAY,
    SEC_SIX_CARD_OFFERED,
    SEC_WAGERS,
    SIX_CARD_BONUS,
    WAGERS,
)
from .state import IRREGULARITIES, ThreeCardPokerState, frozen_wagers

EVENTS: Final = EventTable[ThreeCardPokerState]("Three Card Poker")
"""The handler of each event type this game takes."""


@EVENTS.register("wager")
def _wager(state: ThreeCardPokerState, event: Event) -> ThreeCardPokerState:
    assert event.seat is not None and event.wager is not None and event.amount is not None
    seat, name, amount = event.seat, event.wager, event.amount
    if state.no_more_bets:
        raise IllegalEvent(
            f'no wager may be made, increased or withdrawn after "no more bets" ({SEC_WAGERS})'
        )
    if seat > state.rules.seats:
        raise IllegalEvent(f"seat {seat}: this table has seats 1 to {state.rules.seats} (rules: seats)")
    if name == PLAY:
        raise IllegalEvent(
            f"seat {seat}: the Play Wager is made after the cards are dealt, as a decision ({SEC_DECISION})"
        )
    if name not in WAGERS:
        raise IllegalEvent(
            f"seat {seat}: Three Card Poker has no {name!r} wager (wagers: {', '.join(WAGERS)})"
        )
    if name == SIX_CARD_BONUS and not state.rules.six_card_bonus_offered:
        raise IllegalEvent(
            f"seat {seat}: the Six Card Bonus Wager is not offered at this table "
            f"(six_card_bonus.offered is false, {SEC_SIX_CARD_OFFERED})"
        )
    if amount <= 0:
        raise IllegalEvent(f"seat {seat} {name}: a wager of {format_money(amount)} is no wager")
    wagers = {s: dict(w) for s, w in state.wagers.items()}
    # A repeated wager event reports the wager as it now stands (a player may change it until
    # "no more bets", § 649a.7(c)).
    wagers.setdefault(seat, {})[name] = amount
    return replace(state, wagers=frozen_wagers(wagers))


@EVENTS.register("no_more_bets")
def _no_more_bets(state: ThreeCardPokerState, event: Event) -> ThreeCardPokerState:
    if state.no_more_bets:
        raise IllegalEvent('"no more bets" was already announced this round')
    for seat in sorted(state.wagers):
        w = state.wagers[seat]
        if SIX_CARD_BONUS in w and ANTE not in w and PAIR_PLUS not in w:
            raise IllegalEvent(
                f"seat {seat}: a Six Card Bonus Wager needs an Ante or a Pair Plus Wager at the same seat "
                f"({SEC_SIX_CARD_OFFERED}); take the Six Card Bonus Wager down or add one first"
            )
    return replace(state, no_more_bets=True)


@EVENTS.register("cards")
def _cards(state: ThreeCardPokerState, event: Event) -> ThreeCardPokerState:
    to = event.to
    assert to is not None
    if not state.no_more_bets:
        raise IllegalEvent(f'cards are dealt only after "no more bets" ({SEC_DEAL})')
    if to == "board":
        raise IllegalEvent("Three Card Poker has no board: cards go to a seat or to the dealer")
    seat = seat_of(to)
    if seat is not None and seat not in state.wagers:
        raise IllegalEvent(f"seat {seat} placed no wager; cards go only to seats with a wager ({SEC_DEAL})")
    if event.hand != 0:
        raise IllegalEvent("Three Card Poker has one hand per seat (hand 0)")
    who = "the dealer" if seat is None else f"seat {seat}"
    if to in state.hands:
        raise IllegalEvent(f"{who} already has cards ({format_cards(state.hands[to])})")
    if len(event.cards) != HAND_SIZE:
        raise IllegalEvent(
            f"{who}: {len(event.cards)} cards; each player and the dealer get three ({SEC_DEAL}). "
            f"If the cards were dealt so, report the irregularity wrong_card_count ({SEC_IRREGULARITIES})"
        )
    refuse_face_up(event.cards, state.face_up, who, "§ 649a.13, as § 639a.13(a)")
    seen = {c: where for where, hand in state.hands.items() for c in hand}
    for c in event.cards:
        if c in seen:
            other = "the dealer" if seen[c] == DEALER else f"seat {seen[c]}"
            raise IllegalEvent(f"{who}: {c} is already in the hand of {other}; one deck holds it once")
    return replace(state, hands=MappingProxyType({**state.hands, to: tuple(event.cards)}))


@EVENTS.register("decision")
def _decision(state: ThreeCardPokerState, event: Event) -> ThreeCardPokerState:
    seat, action = event.seat, event.action
    assert seat is not None and action is not None
    if not state.no_more_bets or not state.players_dealt:
        raise IllegalEvent(
            f"seat {seat}: decisions come after every player's cards are dealt ({SEC_DECISION})"
        )
    if seat not in state.wagers or ANTE not in state.wagers[seat]:
        raise IllegalEvent(f"seat {seat} has no Ante Wager, so it has no Play Wager to make ({SEC_PLAY})")
    if seat in state.decisions:
        raise IllegalEvent(f"seat {seat} already decided to {state.decisions[seat]}")
    if action not in ACTIONS:
        raise IllegalEvent(f"seat {seat}: the action is play or fold, not {action!r} ({SEC_DECISION})")
    if event.hand != 0:
        raise IllegalEvent("Three Card Poker has one hand per seat (hand 0)")
    turn = state.next_to_decide
    if seat != turn:
        raise IllegalEvent(
            f"seat {seat} decided out of turn: the dealer asks each player from the dealer's left "
            f"and seat {turn} decides next ({SEC_DECISION})"
        )
    ante = state.wagers[seat][ANTE]
    wagers: Mapping[int, Mapping[str, Cents]] = state.wagers
    if action == PLAY:
        if event.amount is not None and event.amount != ante:
            raise IllegalEvent(
                f"seat {seat}: a Play Wager of {format_money(event.amount)}; it must equal the Ante Wager "
                f"of {format_money(ante)} ({SEC_PLAY})"
            )
        wagers = frozen_wagers({**state.wagers, seat: {**state.wagers[seat], PLAY: ante}})
    elif event.amount is not None:
        raise IllegalEvent(f"seat {seat}: a fold places no wager, so it has no amount")
    return replace(state, wagers=wagers, decisions=MappingProxyType({**state.decisions, seat: action}))


@EVENTS.register("irregularity")
def _irregularity(state: ThreeCardPokerState, event: Event) -> ThreeCardPokerState:
    kind = event.kind
    assert kind is not None
    detail = f": {event.detail}" if event.detail else ""
    if kind not in IRREGULARITIES:
        raise IllegalEvent(f"unknown irregularity {kind!r} (this game knows {', '.join(IRREGULARITIES)})")
    if kind == "shuffler_jam":
        # § 639a.13(e): the cards are reshuffled; no hand is void.
        if state.hands:
            raise IllegalEvent(
                "a shuffler jam is reported before the deal; the cards of this round are already out "
                f"({SEC_IRREGULARITIES}(e))"
            )
        return _noted(state, f"shuffler jam, cards reshuffled (§ 649a.13(e)){detail}")
    if not state.no_more_bets:
        raise IllegalEvent(
            f'{kind}: no cards are dealt before "no more bets", so it cannot have happened yet'
        )
    if kind == "card_face_up":
        # § 639a.13(a): one card found face up is discarded; a second voids the round.
        if state.players_dealt and DEALER in state.hands:
            raise IllegalEvent("card_face_up: a card found face up in the deck is reported during the deal")
        if state.cards_face_up >= 1:
            return _voided(
                state, f"more than one card found face up in the deck during the deal{detail}", "(a)"
            )
        noted = _noted(state, f"a card found face up in the deck was discarded (§ 649a.13(a)){detail}")
        return replace(
            noted, cards_face_up=state.cards_face_up + 1, face_up=cards_found_face_up(event.detail)
        )
    if kind == "card_drawn_in_error":
        # § 639a.13(b): used as though it were the next card.
        return _noted(state, f"a card drawn in error was used as the next card (§ 649a.13(b)){detail}")
    if kind == "wrong_card_count":
        return _voided(state, f"a player or the dealer was dealt an incorrect number of cards{detail}", "(c)")
    if kind == "hole_card_exposed":
        # § 639a.13(d): only before every player has played or folded.
        if state.players_dealt and state.next_to_decide is None:
            raise IllegalEvent(
                "hole_card_exposed: every player has played or folded, so the dealer's cards are revealed "
                f"anyway; this voids nothing ({SEC_IRREGULARITIES}(d))"
            )
        return _voided(
            state, f"a dealer's card was exposed before every player had played or folded{detail}", "(d)"
        )
    if kind == "shoe_jam":
        return _voided(state, f"the automated dealing shoe jammed or stopped dealing{detail}", "(f)")
    # stub_count_incorrect, § 639a.8(h) (repeated in § 639a.9(f), § 639a.10(f)).
    return _voided(
        state,
        f"the stub count shows the deck is incorrect; the deck is removed from the table{detail}",
        "",
        section="§ 649a.8-649a.10 (as § 639a.8(h))",
    )


def _noted(state: ThreeCardPokerState, text: str) -> ThreeCardPokerState:
    return replace(state, irregularities=(*state.irregularities, text))


def _voided(
    state: ThreeCardPokerState, reason: str, subsection: str, section: str = ""
) -> ThreeCardPokerState:
    return replace(
        state,
        void=f"{reason}: all hands are void and all wagers returned",
        void_section=section or f"§ 649a.13{subsection} (as § 639a.13{subsection})",
    )


@EVENTS.register("meter")
def _no_meter(state: ThreeCardPokerState, event: Event) -> ThreeCardPokerState:
    raise IllegalEvent("Three Card Poker here has no progressive meter (no Progressive Payout Wager)")
