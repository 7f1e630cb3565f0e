"""The events of a poker room round (§§ 637a.19-637a.21), each making the new state or refusing,
citing the section: the button, the bets, the decisions, the cards and the draws, the end of the
betting; and :data:`EVENTS`, the handler of each event type, registered once."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

from ...core.cards import Card
from ...core.engine import EventTable, IllegalEvent
from ...core.events import Event, seat_of
from ...core.money import format_money
from . import procedure
from .button import deal_order
from .draw import DRAW_SECTION, DrawError
from .state import (
    BET,
    BLIND,
    FOLD,
    KILL,
    KILLS,
    PARTICIPATE,
    STAND_PAT,
    STRADDLE,
    WAGERS,
    Drawing,
    PokerRoomState,
    SeatState,
)

# --- events ---------------------------------------------------------------------------------


def position_event(state: PokerRoomState, event: Event) -> PokerRoomState:
    v = state.variant
    if state.procedure and state.button is None:
        raise IllegalEvent(
            f'this table\'s Rules Submission places the button by the draw (button.start = "high_card", '
            f"{v.at('(c)')}(1)(ii)): a single card to each player, the highest takes it"
        )
    if state.started or state.button is not None:
        raise IllegalEvent(
            f"the button is placed before any bet or card of the round ({v.at('(c)')}, {v.at('(d)')}): give "
            "its position first"
        )
    assert event.value is not None
    return replace(state, button=event.value)


def _put(state: PokerRoomState, seat: SeatState) -> PokerRoomState:
    others = [s for s in state.seats if s.seat != seat.seat]
    return replace(state, seats=tuple(sorted([*others, seat], key=lambda s: s.seat)))


def _player(state: PokerRoomState, number: int | None, what: str) -> SeatState:
    """The player at ``number``, dealing him in if he is new (refused where no one may join now)."""
    v = state.variant
    if number is None:
        raise IllegalEvent(f"{what} needs a seat")
    found = state.seat(number)
    if found is not None:
        return found
    if state.draw_round:
        raise IllegalEvent(
            f"seat {number} was not dealt in: after the first draw no player joins the round ({v.at('(f)')})"
        )
    if len(state.seats) >= v.players:
        raise IllegalEvent(
            f"seat {number} would be player {len(state.seats) + 1}: no more than {v.players} players may "
            f"participate in {v.title} ({v.at('(b)')})"
        )
    return SeatState(number)


def wager_event(state: PokerRoomState, event: Event) -> PokerRoomState:
    v = state.variant
    name, amount = event.wager or "", event.amount or 0
    if name not in WAGERS:
        raise IllegalEvent(
            f"no wager {name!r} in the poker room (wagers: {', '.join(WAGERS)}; a call or raise is a bet)"
        )
    if state.betting_over:
        raise IllegalEvent(
            f"the final betting round is complete (no_more_bets): no more bets ({v.at('(k)')})"
        )
    if amount < 1:
        raise IllegalEvent(f"seat {event.seat}: a {name} of {format_money(amount)} puts nothing in the pot")
    player = _player(state, event.seat, f"a {name}")
    number = player.seat
    if player.folded:
        raise IllegalEvent(f"seat {number} has folded: he puts no more chips in the pot")
    if state.drawing is not None:
        raise IllegalEvent(
            f"seat {state.drawing.seat} is drawing and is owed {state.drawing.owed} card"
            f"{'s' if state.drawing.owed != 1 else ''}: bets wait until the draw is over ({DRAW_SECTION})"
        )
    if name in (BLIND, STRADDLE, KILL) and state.any_cards:
        raise IllegalEvent(f"a {name} is placed before any cards are dealt ({v.at('(d)')})")
    if name != BET:
        state = procedure.posted(state, player, name, amount, in_turn=False)
    return _put(state, player.add_bet(name, amount))


def decision_event(state: PokerRoomState, event: Event) -> PokerRoomState:
    v = state.variant
    action = event.action or ""
    if event.hand:
        raise IllegalEvent("the poker room has no split hands (hand must be 0)")
    if event.amount is not None:
        raise IllegalEvent(f"a {action} carries no amount: chips put in the pot are a wager event (bet)")
    if action == FOLD:
        player = _player(state, event.seat, "a fold")
        if player.folded:
            raise IllegalEvent(f"seat {player.seat} has already folded")
        if state.drawing is not None and state.drawing.seat == player.seat:
            raise IllegalEvent(
                f"seat {player.seat} is drawing and is owed {state.drawing.owed} card"
                f"{'s' if state.drawing.owed != 1 else ''} ({DRAW_SECTION})"
            )
        others = [s for s in state.live if s != player.seat]
        if state.seat(player.seat) is not None and not others:
            raise IllegalEvent(
                f"seat {player.seat} is the last player in the round: nobody is left to fold to; he "
                "takes the pot"
            )
        return _put(state, replace(player, folded=True))
    if action == STAND_PAT:
        if not v.draws:
            raise IllegalEvent(f"{v.title} has no draw: nobody stands pat")
        if state.betting_over:
            raise IllegalEvent("the final betting round is complete (no_more_bets): the draws are over")
        state, drawer = _drawer(state)
        if event.seat != drawer:
            raise IllegalEvent(
                f"it is seat {drawer}'s turn to draw, not seat {event.seat}'s: each player who has not "
                f"folded draws in turn from the immediate left of the button ({v.at('(h)')})"
            )
        return replace(state, drawn=(*state.drawn, drawer))
    raise IllegalEvent(
        f"no decision {action!r} in the poker room (decisions: fold"
        + (", stand_pat" if v.draws else "")
        + "; a bet, call or raise is a wager event)"
    )


def cards_event(state: PokerRoomState, event: Event) -> PokerRoomState:
    v = state.variant
    cards = event.cards
    if event.hand:
        raise IllegalEvent("the poker room has no split hands (hand must be 0)")
    if not cards:
        raise IllegalEvent("a cards event needs at least one card")
    if event.to == "board":
        return _board(state, cards)
    if event.to == "dealer":
        return _discard(state, cards)
    number = seat_of(event.to)
    player = _player(state, number, "cards")
    if player.folded:
        raise IllegalEvent(f"seat {player.seat} has folded: no cards go to him")
    if state.drawing is not None:
        if state.drawing.seat != player.seat:
            raise IllegalEvent(
                f"seat {state.drawing.seat} is drawing and is owed {state.drawing.owed} card"
                f"{'s' if state.drawing.owed != 1 else ''}: the draw is one player at a time ({v.at('(h)')})"
            )
        return _replacements(state, player, cards)
    if state.draw_round:
        raise IllegalEvent(
            f"the hands were dealt before the first draw: seat {player.seat} receives cards only for the "
            f"cards he discards, in his turn ({v.at('(h)')})"
        )
    if len(player.cards) + len(cards) > v.hand_size:
        raise IllegalEvent(
            f"seat {player.seat} would hold {len(player.cards) + len(cards)} cards: the dealer deals "
            f"{v.hand_size} to each player ({v.at('(f)')})"
        )
    state = procedure.in_deck(state, cards, f"seat {player.seat}")
    return _put(state, replace(player, cards=player.cards + cards))


#: The board cards before which a card is burned: the flop, the fourth and the fifth (§ 637a.19(h)-(j)).
_BURN_BEFORE: Final = (0, 3, 4)


def _board(state: PokerRoomState, cards: Sequence[Card]) -> PokerRoomState:
    v = state.variant
    if not v.board:
        raise IllegalEvent(f"{v.title} has no community cards")
    if len(state.board) + len(cards) > v.board:
        raise IllegalEvent(
            f"the board would hold {len(state.board) + len(cards)} cards: three community cards, a fourth "
            f"and a fifth and final ({v.at('(h)')}-(j))"
        )
    deck = state.deck
    for i, c in enumerate(cards, start=len(state.board)):
        if i in _BURN_BEFORE:
            deck = deck.burn()  # "the dealer shall burn the top card of the deck", § 637a.19(h),(i),(j)
        if c not in deck.deck.candidates:
            raise IllegalEvent(f"board: {c} is not in the deck: {procedure.where(state, c)}")
        deck = deck.deal(c)
    return replace(state, deck=deck, board=state.board + tuple(cards))


def _drawer(state: PokerRoomState) -> tuple[PokerRoomState, int]:
    """The player whose turn it is to draw, beginning the next draw (with its burn) when needed."""
    v = state.variant
    button = state.button
    if button is None:
        raise IllegalEvent(
            f"the draw goes from the player to the immediate left of the button ({v.at('(h)')}): the round "
            "must give the button's position (a position event) first"
        )
    live = state.live
    if state.draw_round == 0 or all(s in state.drawn for s in live):
        if state.draw_round >= v.draws:
            raise IllegalEvent(
                f"all three draws have been made ({v.at('(h)')}, {v.at('(i)')}, {v.at('(j)')}); the showdown "
                "follows the final betting round"
            )
        if len(live) < 2:
            who = f"seat {live[0]} is the only player left" if live else "no player is left in the round"
            raise IllegalEvent(f"{who}: there is no draw")
        deck = state.deck
        if state.draw_round == 0:
            for s in state.seats:
                if not s.folded and len(s.cards) != v.hand_size:
                    raise IllegalEvent(
                        f"seat {s.seat} holds {len(s.cards)} cards: each player is dealt {v.hand_size} "
                        f"before the first draw ({v.at('(f)')})"
                    )
            # A player who folded without showing was dealt cards all the same.
            unseen = sum(v.hand_size - len(s.cards) for s in state.seats if s.folded)
            try:
                deck = deck.unseen(unseen)
            except DrawError as exc:
                raise IllegalEvent(str(exc)) from None
        deck = deck.burn()  # "the dealer shall then burn the top card of the deck", § 637a.20(h)-(j)
        state = replace(
            state,
            deck=deck,
            draw_round=state.draw_round + 1,
            drawn=(),
        )
    order = deal_order(button, live)
    return state, next(s for s in order if s not in state.drawn)


def _discard(state: PokerRoomState, cards: Sequence[Card]) -> PokerRoomState:
    v = state.variant
    if not v.draws:
        raise IllegalEvent(
            f"{v.title} has no draw: cards to the dealer are the discards of a player drawing "
            f"({DRAW_SECTION})"
        )
    if state.betting_over:
        raise IllegalEvent("the final betting round is complete (no_more_bets): the draws are over")
    if state.drawing is not None:
        raise IllegalEvent(
            f"seat {state.drawing.seat} is still owed {state.drawing.owed} card"
            f"{'s' if state.drawing.owed != 1 else ''} for his discards ({DRAW_SECTION})"
        )
    state, drawer = _drawer(state)
    player = state.seat(drawer)
    assert player is not None
    state, player = procedure.discarded(state, player, cards)
    return _put(replace(state, drawing=Drawing(drawer, len(cards))), player)


def _replacements(state: PokerRoomState, player: SeatState, cards: Sequence[Card]) -> PokerRoomState:
    assert state.drawing is not None
    owed = state.drawing.owed
    if len(cards) > owed:
        raise IllegalEvent(
            f"seat {player.seat} has {owed} discarded card{'s' if owed != 1 else ''} still to replace, not "
            f"{len(cards)}: each discarded card is replaced by one new card ({DRAW_SECTION})"
        )
    state = procedure.drawn_from_deck(state, player.seat, cards)
    left = owed - len(cards)
    state = replace(
        state,
        drawing=Drawing(player.seat, left) if left else None,
        drawn=state.drawn if left else (*state.drawn, player.seat),
    )
    return _put(state, replace(player, cards=player.cards + tuple(cards)))


def no_more_bets_event(state: PokerRoomState) -> PokerRoomState:
    v = state.variant
    if state.betting_over:
        raise IllegalEvent("the final betting round was already completed (no_more_bets)")
    if not state.seats:
        raise IllegalEvent("no player is in the round")
    if state.drawing is not None:
        raise IllegalEvent(
            f"seat {state.drawing.seat} is owed {state.drawing.owed} card"
            f"{'s' if state.drawing.owed != 1 else ''}: the draw is not over ({DRAW_SECTION})"
        )
    if v.draws and state.draw_round and len(state.live) > 1:
        complete = state.draw_round == v.draws and all(s in state.drawn for s in state.live)
        if not complete:
            raise IllegalEvent(
                f"the final betting round follows the third draw ({v.at('(j)')}); this round has begun "
                f"{state.draw_round} of the three (give no draws at all for a showdown-only record)"
            )
    return replace(state, betting_over=True)


# --- the table of events ---------------------------------------------------------------------

EVENTS: Final = EventTable[PokerRoomState]("the poker room")
"""The handler of each event type this game takes, each registered once here. A round record gives
the showdown (the handlers above); a table deals the round step by step (:mod:`.procedure`) once the
players join after the button. Every event but the button's position begins the round
(:func:`_begins_the_round`)."""

EVENTS.add("position", position_event)

Handler = Callable[[PokerRoomState, Event], PokerRoomState]


def _begins_the_round(handler: Handler) -> Handler:
    """``handler``, the round marked begun after it: the button is placed before anything else
    (§ 637a.19(c), :func:`position_event`)."""

    def begun(state: PokerRoomState, event: Event) -> PokerRoomState:
        return replace(handler(state, event), started=True)

    return begun


@EVENTS.register("wager")
@_begins_the_round
def _wager(state: PokerRoomState, event: Event) -> PokerRoomState:
    return procedure.forced_bet(state, event) if state.procedure else wager_event(state, event)


@EVENTS.register("decision")
@_begins_the_round
def _decision(state: PokerRoomState, event: Event) -> PokerRoomState:
    if state.procedure:
        return procedure.decision(state, event)
    if event.action in (PARTICIPATE, KILLS):
        # The round is dealt step by step from here (§§ 637a.19-637a.21): only the button came before,
        # or nothing, where the players draw for it (§ 637a.19(c)(1)(ii)).
        drawing = event.action == PARTICIPATE and procedure.draws_for_button(state)
        if (state.button is None and not drawing) or state.started:
            raise IllegalEvent(
                "a round dealt step by step begins with the button (a position event), then the players "
                f"join ({state.variant.at('(c)')}, {state.variant.at('(b)')})"
            )
        return procedure.decision(replace(state, procedure=True), event)
    return decision_event(state, event)


@EVENTS.register("cards")
@_begins_the_round
def _cards(state: PokerRoomState, event: Event) -> PokerRoomState:
    return procedure.cards_or_deal(state, event) if state.procedure else cards_event(state, event)


@EVENTS.register("deal")
@_begins_the_round
def _dealt(state: PokerRoomState, event: Event) -> PokerRoomState:
    if not state.procedure:
        raise IllegalEvent(
            "cards dealt face down and counted belong to a round dealt step by step (the button, then the "
            "players joining)"
        )
    return procedure.cards_or_deal(state, event)


@EVENTS.register("no_more_bets")
@_begins_the_round
def _no_more_bets(state: PokerRoomState, event: Event) -> PokerRoomState:
    if state.procedure:
        v = state.variant
        raise IllegalEvent(
            "a poker table has no 'no more bets': each betting round is complete after the last player has "
            f"responded to the most recent bet ({v.at('(g)')}); now {procedure.expecting(state)}"
        )
    return no_more_bets_event(state)


@EVENTS.register("irregularity")
@_begins_the_round
def _irregularity(state: PokerRoomState, event: Event) -> PokerRoomState:
    return procedure.irregularity(state, event)
