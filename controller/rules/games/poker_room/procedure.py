"""A poker room round dealt step by step: the procedure of §§ 637a.19-637a.21, event by event.

A round whose first event places the button (``position``) follows the procedure; every event
is refused, citing the section, unless it is the step the procedure expects now and legal for
its amount. The steps (docs/games/poker-room.md, "A round at the table"):

1. **Seating** (§ 637a.19(b)-(e)): each player who elects to participate (``decision
   participate`` with his chips, the stack he plays the round with), the Ante if the Rules
   Submission requires one, the Blind Bets by "the player to the immediate left of the button"
   and the players "immediately after" (d), the Straddle Bet by "the player to the left of the
   player who placed a Blind Bet" (e), the kill blind in a killed round.
2. **The deal** (f): "Starting with the player to the immediate left of the button and
   continuing around the table in a clockwise manner ... The player with the button shall be
   the last player to receive a card each time": with a card reader, one ``cards`` event per card
   in that order; without one, one ``deal`` event (the hands dealt face down, counted).
3. **The betting rounds** (g), (h) (:mod:`.betting`): fold, check, call, bet, raise, all in, only
   by the player whose turn it is; complete "after the last player has responded to the most
   recent bet".
4. **The burn** before each draw (§ 637a.20(h)-(j), § 637a.21(h)-(j)) and each part of the
   board (§ 637a.19(h)-(j)): an event of its own (``cards`` to ``burn``, or ``deal`` to ``burn``).
5. **The draws** (§ 637a.20(h)): "one player at a time", from the button's left; the reshuffle
   when the deck runs short. **The board** (§ 637a.19(h)-(j)): three, a fourth, a fifth.
6. **The showdown** (k): with a reader every hand is known; without one each player remaining
   shows his hand (``cards`` to his seat, checked against the board and the other hands shown)
   or mucks it (``decision fold``); a mucked hand is never asked for.

The text names no irregularity for the poker room; a ``misdeal`` (every bet returned) and an
``exposed_card`` (journaled, the round goes on) are what the floorperson decides
(docs/games/poker-room.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from ...core.cards import Card, format_cards
from ...core.engine import IllegalEvent
from ...core.events import Event, seat_of
from ...core.money import Cents, format_money
from .betting import Betting, rotate
from .button import HIGH_CARD, blind_seats, deal_order, first_to_act, starting_button, straddle_seat
from .draw import DRAW_SECTION, DrawError
from .rules import FIXED_LIMIT, LIMIT_SECTION, POT_LIMIT
from .state import (
    ALL_IN,
    ANTE,
    BETTING,
    BLIND,
    BOARD,
    BURNING,
    CALL,
    CHECK,
    DEALING,
    DRAWING,
    FOLD,
    KILL,
    KILLS,
    OVER,
    PARTICIPATE,
    RAISE,
    SEATING,
    SHOWDOWN,
    STAND_PAT,
    STRADDLE,
    VOID,
    WAGERS,
    Drawing,
    PokerRoomState,
    SeatState,
)

BET: Final = "bet"
DISPUTED_POT: Final = "disputed_pot"
#: The players' actions in a betting round (§ 637a.19(g), (h)).
ACTIONS: Final = (FOLD, CHECK, CALL, BET, RAISE, ALL_IN)
_FLOOR: Final = "the floorperson's decision (no irregularity section in §§ 637a.19-637a.21)"
#: The irregularities a floorperson decides; the text gives none for the poker room.
IRREGULARITIES: Final = {
    "misdeal": f"{_FLOOR}: every bet returned",
    "exposed_card": f"{_FLOOR}: journaled, the round goes on",
    "disputed_pot": f"{_FLOOR}, with his PIN: his ruling journaled; at the showdown a seat he names has a "
    "dead hand (no claim to any pot)",
}


def _put(state: PokerRoomState, seat: SeatState) -> PokerRoomState:
    others = [s for s in state.seats if s.seat != seat.seat]
    return replace(state, seats=tuple(sorted([*others, seat], key=lambda s: s.seat)))


def _player(state: PokerRoomState, number: int | None, what: str) -> SeatState:
    found = state.seat(number) if number is not None else None
    if found is None:
        raise IllegalEvent(
            f"{what}: seat {number} is not a player of this round (players: "
            f"{', '.join(map(str, state.players)) or 'none'}; {state.variant.at('(b)')})"
        )
    return found


def _phase(state: PokerRoomState, *phases: str, what: str) -> None:
    if state.phase not in phases:
        raise IllegalEvent(f"{what} is not a step of the round now: {expecting(state)}")


def _exact(seat: SeatState, amount: Cents, due: Cents, what: str, section: str) -> None:
    """A forced bet of ``due``: exactly that, or less only when it is all his chips."""
    if amount == due or (amount < due and amount == seat.behind):
        return
    if amount > seat.behind:
        raise IllegalEvent(
            f"seat {seat.seat}: {what} of {format_money(amount)} is more than his "
            f"{format_money(seat.behind)} in chips"
        )
    raise IllegalEvent(
        f"seat {seat.seat}: {what} is {format_money(due)}, not {format_money(amount)} "
        f"(less only all in; {section})"
    )


# --- the draw for the button ------------------------------------------------------------------


def draws_for_button(state: PokerRoomState) -> bool:
    """The round places the button by the draw: the Rules Submission says "the player randomly
    determined by rank of a single card dealt" (``button.start = "high_card"``,
    § 637a.19(c)(1)(ii)) and no button was placed (the table's first round: after it the table
    carries the button, (c)(2))."""
    return state.rules.button_start == HIGH_CARD and state.button is None


def _draw_section(state: PokerRoomState) -> str:
    return f"{state.variant.at('(c)')}(1)(ii)"


def button_draw(state: PokerRoomState, number: int, cards: tuple[Card, ...]) -> PokerRoomState:
    """One player's card of the draw for the button: "At commencement of play, the button shall be
    placed in front of ... (ii) The player randomly determined by rank of a single card dealt"
    (§ 637a.20(c)(1)(ii); § 637a.19(c)(1)(ii), § 637a.21(c)(1)(ii)). Once every player has his card
    the button goes to the highest (:func:`.button.starting_button`: a tie of rank broken by suit),
    and the cards go back to the deck for the round's shuffle."""
    section = _draw_section(state)
    player = _player(state, number, "the draw for the button")
    if len(state.seats) < 2:
        raise IllegalEvent(f"the draw for the button needs two players first ({state.variant.at('(b)')})")
    if len(cards) != 1:
        raise IllegalEvent(
            f"the draw for the button is a single card to each player, not {len(cards)} ({section})"
        )
    drawn = dict(state.button_draw)
    if player.seat in drawn:
        raise IllegalEvent(
            f"seat {player.seat} has his card of the draw for the button ({drawn[player.seat]}; {section})"
        )
    holder = next((s for s, c in drawn.items() if c == cards[0]), None)
    if holder is not None:
        raise IllegalEvent(f"the draw for the button: {cards[0]} was dealt to seat {holder} ({section})")
    draw = (*state.button_draw, (player.seat, cards[0]))
    state = replace(state, button_draw=draw)
    if len(draw) < len(state.seats):
        return state
    button = starting_button(state.players, HIGH_CARD, dict(draw))
    note = (
        f"the draw for the button: {', '.join(f'seat {s} {c}' for s, c in draw)}; the button to seat "
        f"{button}, the highest card ({section}; a tie of rank by suit); the cards go back to the deck"
    )
    return replace(state, button=button, notes=(*state.notes, note))


# --- seating: the players, the Ante, the blinds, the straddle, the kill ------------------------


def participate(state: PokerRoomState, event: Event) -> PokerRoomState:
    v = state.variant
    _phase(state, SEATING, what="a player joining")
    if state.blinds:
        raise IllegalEvent(f"the Blind Bets have begun: players join before them ({v.at('(d)')})")
    if state.button_draw:
        raise IllegalEvent(
            f"the draw for the button has begun: players join before it ({_draw_section(state)})"
        )
    number = event.seat
    assert number is not None
    if state.seat(number) is not None:
        raise IllegalEvent(f"seat {number} is already in the round")
    if len(state.seats) >= v.players:
        raise IllegalEvent(
            f"seat {number} would be player {len(state.seats) + 1}: no more than {v.players} players may "
            f"participate in {v.title} ({v.at('(b)')})"
        )
    if not event.amount:
        raise IllegalEvent(f"seat {number} participates with his chips: give the amount (his stack)")
    return _put(state, SeatState(number, stack=event.amount))


def killed_by(state: PokerRoomState, event: Event) -> PokerRoomState:
    """The table's word that the last round's qualifying pot kills this one (§ 637a.19(l)(3))."""
    _phase(state, SEATING, what="a kill")
    _kill_offered(state)
    if state.killer is not None or state.seats:
        raise IllegalEvent("the kill is carried at the beginning of the round, once")
    return replace(state, killer=event.seat)


def _kill_offered(state: PokerRoomState) -> None:
    if state.rules.kill == "none":
        raise IllegalEvent(
            f"this table does not use the Kill or Half-kill option (kill.option, {state.variant.at('(b)')})"
        )


def forced_bet(state: PokerRoomState, event: Event) -> PokerRoomState:
    """A forced bet in a round dealt step by step: in the seating, after the button, by a player
    of the round; its legality is :func:`posted`'s."""
    v = state.variant
    name, amount = event.wager or "", event.amount or 0
    if name not in WAGERS:
        raise IllegalEvent(f"no wager {name!r} in the poker room (wagers: {', '.join(WAGERS)})")
    if name == BET:
        raise IllegalEvent(
            "a bet, call or raise is the player's decision in his turn (decision bet, call, raise or "
            f"all_in, {v.at('(g)')})"
        )
    _phase(state, SEATING, what=f"a {name}")
    if state.button is None:
        raise IllegalEvent(f"a {name} follows the button: {expecting(state)}")
    player = _player(state, event.seat, f"a {name}")
    if len(state.players) < 2:
        raise IllegalEvent(f"a round needs two players before the {name} ({v.at('(b)')})")
    return _put(posted(state, player, name, amount, in_turn=True), player.add_bet(name, amount))


def posted(
    state: PokerRoomState, player: SeatState, name: str, amount: Cents, *, in_turn: bool
) -> PokerRoomState:
    """The one authority on a forced bet, the Ante, a Blind Bet, the Straddle Bet or the kill blind
    (§ 637a.19(b), (d), (e), (l)(3); § 637a.20(b), (d), (e); § 637a.21(b), (d), (e)): ``player``'s
    ``name`` of ``amount`` refused, citing the section, unless the Rules Submission offers it, it is
    not placed twice, and it is no more than its amount; the state returned records who posted the
    Blind Bets, the Straddle Bet and the kill (the chips are the caller's to put in the pot).

    ``in_turn``: the round is dealt step by step (:func:`forced_bet`): each Blind Bet is by the seat
    § 637a.20(d) names ("the player to the immediate left of the button" and those "immediately
    after"), the Straddle Bet by "the player to the left of the player who placed a Blind Bet" (e)
    and the kill blind by the last qualifying pot's winner, each of exactly its amount (less only
    all in). A round record (:func:`.play.wager_event`) gives the bets as they were placed: their
    seats are checked at the settlement (:mod:`.settle`)."""
    v, rules = state.variant, state.rules
    if name == ANTE:
        if rules.ante == 0:
            raise IllegalEvent(f"this table has no Ante bet (ante in the Rules Submission, {v.at('(b)')})")
        if player.bet(ANTE):
            raise IllegalEvent(f"seat {player.seat} has already placed his Ante bet ({v.at('(b)')})")
        if in_turn:
            _exact(player, amount, rules.ante, "the Ante", v.at("(b)"))
        elif amount > rules.ante:
            raise IllegalEvent(
                f"seat {player.seat}: an Ante of {format_money(amount)} is more than the table's Ante bet "
                f"of {format_money(rules.ante)} ({v.at('(b)')})"
            )
        return state
    if name == BLIND:
        return _blind(state, player, amount, in_turn=in_turn)
    if name == STRADDLE:
        return _straddle(state, player, amount, in_turn=in_turn)
    if name == KILL:
        _kill_offered(state)
        if state.kill_seat is not None:
            raise IllegalEvent(f"seat {state.kill_seat} has posted the kill blind for this round")
        if in_turn:
            if state.killer != player.seat:
                who = f"seat {state.killer}" if state.killer is not None else "nobody (not a killed round)"
                raise IllegalEvent(
                    f"the kill blind is posted by the winner of the last qualifying pot: {who}"
                )
            _exact(player, amount, rules.kill_blind, "the kill blind", "kill.option, § 637a.19(l)(3)")
        return replace(state, kill_seat=player.seat)
    raise IllegalEvent(f"a {name} is not a forced bet (forced bets: {ANTE}, {BLIND}, {STRADDLE}, {KILL})")


def _blind(state: PokerRoomState, player: SeatState, amount: Cents, *, in_turn: bool) -> PokerRoomState:
    v, rules = state.variant, state.rules
    index = len(state.blinds)
    if index >= len(rules.blinds):
        raise IllegalEvent(
            f"the Rules Submission requires {len(rules.blinds)} Blind Bet"
            f"{'s' if len(rules.blinds) != 1 else ''}; all were posted ({v.at('(d)')})"
        )
    if player.seat in state.blinds:
        raise IllegalEvent(f"seat {player.seat} has already posted a Blind Bet ({v.at('(d)')})")
    if in_turn:
        order = deal_order(state.button or 0, state.players)
        want = blind_seats(state.button or 0, order, min(len(rules.blinds), len(order)))
        if index >= len(want):
            raise IllegalEvent(f"{len(order)} players post no more than {len(want)} Blind Bets")
        if player.seat != want[index]:
            who = "the next player clockwise" if index else "the player to the immediate left of the button"
            raise IllegalEvent(
                f"Blind Bet {index + 1} is posted by {who}, seat {want[index]}, not seat {player.seat} "
                f"(the button is at seat {state.button}; {v.at('(d)')})"
            )
        _exact(player, amount, rules.blind_bets[index], f"Blind Bet {index + 1}", v.at("(d)"))
    elif amount > rules.blind_bets[index]:
        raise IllegalEvent(
            f"seat {player.seat}: Blind Bet {index + 1} is {rules.blinds[index]}, not "
            f"{format_money(amount)} (blinds in the Rules Submission, {v.at('(d)')})"
        )
    return replace(state, blinds=(*state.blinds, player.seat))


def _straddle(state: PokerRoomState, player: SeatState, amount: Cents, *, in_turn: bool) -> PokerRoomState:
    v, rules = state.variant, state.rules
    if not rules.straddle_offered:
        raise IllegalEvent(f"this table does not offer the Straddle Bet (straddle.offered, {v.at('(e)')})")
    if state.straddle is not None:
        raise IllegalEvent(
            f"seat {state.straddle} has placed the Straddle Bet: no more than one Straddle Bet may be "
            f"made during a round of play ({v.at('(e)')})"
        )
    order = deal_order(state.button or 0, state.players) if in_turn else ()
    blinds = min(len(rules.blinds), len(order)) if in_turn else len(rules.blinds)
    if len(state.blinds) < blinds:
        raise IllegalEvent(
            f"the Straddle Bet follows the Blind Bets ({v.at('(e)')}): "
            f"{blinds - len(state.blinds)} still to post"
        )
    if in_turn:
        if state.killer is not None:
            raise IllegalEvent(
                "a killed round has the kill blind and no Straddle Bet (docs/games/poker-room.md)"
            )
        want = straddle_seat(state.button or 0, order, len(state.blinds))
        if player.seat != want:
            raise IllegalEvent(
                f"only the player to the left of the Blind Bets, seat {want}, may place the Straddle "
                f"Bet, not seat {player.seat} ({v.at('(e)')})"
            )
        _exact(player, amount, rules.straddle_bet, "the Straddle Bet", "straddle.amount")
    return replace(state, straddle=player.seat)


def _seated(state: PokerRoomState) -> None:
    """Before the first card: everything forced is posted (§ 637a.19(b), (d))."""
    v, rules = state.variant, state.rules
    if len(state.seats) < 2:
        raise IllegalEvent(f"a round needs at least two players before the deal ({v.at('(f)')})")
    if state.button is None:
        raise IllegalEvent(f"the deal follows the button: {expecting(state)}")
    blinds = min(len(rules.blinds), len(state.seats))
    if len(state.blinds) < blinds:
        raise IllegalEvent(
            f"before any cards are dealt the Blind Bets are placed ({v.at('(d)')}): "
            f"{len(state.blinds)} of {blinds} posted"
        )
    if rules.ante:
        missing = [s.seat for s in state.seats if not s.bet(ANTE)]
        if missing:
            raise IllegalEvent(
                f"seats {', '.join(map(str, missing))} have not placed the Ante ({v.at('(b)')})"
            )
    if state.killer is not None and state.kill_seat is None and state.seat(state.killer) is not None:
        raise IllegalEvent(f"this round is killed: seat {state.killer} posts the kill blind before the deal")


# --- the deal --------------------------------------------------------------------------------


def _next_to_deal(state: PokerRoomState) -> int:
    order = deal_order(state.button or 0, state.players)
    return order[state.dealt % len(order)]


def in_deck(state: PokerRoomState, cards: Sequence[Card], what: str) -> PokerRoomState:
    """``cards`` dealt from the deck (a round dealt step by step and a round record alike), each
    refused where the deck no longer holds it (:func:`where`)."""
    deck = state.deck
    for c in cards:
        if c not in deck.deck.candidates:
            raise IllegalEvent(f"{what}: {c} is not in the deck: {where(state, c)}")
        try:
            deck = deck.deal(c)
        except DrawError as exc:
            raise IllegalEvent(f"{what}: {exc}") from None
    return replace(state, deck=deck)


def where(state: PokerRoomState, c: Card) -> str:
    """Where a card the deck no longer holds is, for an error message."""
    for s in state.seats:
        if c in s.cards:
            return f"seat {s.seat} {'folded' if s.folded else 'holds'} it"
        if c in s.discards:
            return f"seat {s.seat} discarded it"
    if c in state.board:
        return "it is on the board"
    return "it was dealt already (burned)"


def _mode(state: PokerRoomState, keyed: bool) -> PokerRoomState:
    if state.keyed is None:
        return replace(state, keyed=keyed)
    if state.keyed != keyed:
        how = "face down and counted (deal events)" if state.keyed else "read card by card (cards events)"
        raise IllegalEvent(f"this round's cards are dealt {how}; one round does not mix the two")
    return state


def deal_read(state: PokerRoomState, number: int, cards: tuple[Card, ...]) -> PokerRoomState:
    """A card of the hands, read as it is dealt (§ 637a.19(f))."""
    v = state.variant
    if state.phase == SEATING:
        _seated(state)
        state = replace(state, phase=DEALING)
    state = _mode(state, False)
    if len(cards) != 1:
        raise IllegalEvent(
            f"the dealer deals {v.hand_size} rounds of cards, one card to each player each time "
            f"({v.at('(f)')}): one card per event, not {len(cards)}"
        )
    want = _next_to_deal(state)
    if number != want:
        raise IllegalEvent(
            f"the next card goes to seat {want}, not seat {number}: from the immediate left of the button "
            f"clockwise, the button last each time ({v.at('(f)')})"
        )
    player = _player(state, number, "cards")
    state = in_deck(state, cards, f"seat {number}")
    state = _put(state, replace(player, cards=player.cards + cards))
    state = replace(state, dealt=state.dealt + 1)
    if state.dealt == v.hand_size * len(state.seats):
        state = _begin_betting(state, 0)
    return state


def deal_counted(state: PokerRoomState, count: int) -> PokerRoomState:
    """The hands dealt face down, counted (a table without a card reader, § 637a.19(f))."""
    v = state.variant
    _seated(state)
    state = _mode(state, True)
    if count != v.hand_size:
        raise IllegalEvent(
            f"the dealer deals {v.hand_size} cards to each player ({v.at('(f)')}), not {count}"
        )
    try:
        counted = state.counted.take(count * len(state.seats), "the deal")
    except DrawError as exc:
        raise IllegalEvent(str(exc)) from None
    seats = tuple(replace(s, hidden=count) for s in state.seats)
    order = deal_order(state.button or 0, state.players)
    note = (
        f"dealt {count} cards face down to each player, seats {', '.join(map(str, order))} in turn, the "
        f"button (seat {state.button}) last ({v.at('(f)')})"
    )
    state = replace(state, seats=seats, counted=counted, dealt=count * len(seats), notes=(*state.notes, note))
    return _begin_betting(replace(state, phase=DEALING), 0)


# --- the betting rounds ----------------------------------------------------------------------


def _last_street(state: PokerRoomState) -> int:
    """The final betting round: after the third draw, or after the fifth community card."""
    return 3


def _begin_betting(state: PokerRoomState, street: int) -> PokerRoomState:
    rules = state.rules
    button = state.button or 0
    killed = state.kill_seat is not None
    size = rules.bet_size(street, killed)
    if street == 0:
        put = tuple(
            (s.seat, s.bet(BLIND) + s.bet(STRADDLE) + s.bet(KILL))
            for s in state.seats
            if s.total - s.bet(ANTE)
        )
        high = max((a for _, a in put), default=0)
        first = first_to_act(button, state.players, len(state.blinds), state.straddle is not None)
        order = rotate(deal_order(button, state.players), first)
        if state.kill_seat is not None:
            # The kill blind acts last in the first betting round, as a straddle would.
            order = (*[s for s in order if s != state.kill_seat], state.kill_seat)
        minimum = size if rules.betting_limit == FIXED_LIMIT else max(high, rules.blind_bets[-1])
        raises = 1 + (state.straddle is not None) + killed
    else:
        put, high, raises = (), 0, 0
        order = deal_order(button, state.live)
        minimum = size if rules.betting_limit == FIXED_LIMIT else (rules.small_bet or rules.blind_bets[-1])
    actors = set(state.actors)
    pending = tuple(s for s in order if s in actors)
    betting = Betting(street, high, minimum, raises, pending, put=put)
    state = replace(state, phase=BETTING, street=street, betting=betting)
    return _maybe_complete(state, order)


def _order(state: PokerRoomState) -> tuple[int, ...]:
    return deal_order(state.button or 0, state.players)


def _maybe_complete(state: PokerRoomState, order: tuple[int, ...] | None = None) -> PokerRoomState:
    """The betting round is complete when nobody has to respond; also when no more than one player
    may act and he owes nothing (the others are all in)."""
    betting = state.betting
    assert betting is not None
    v = state.variant
    if len(state.live) == 1:
        return replace(state, phase=OVER, betting=None, betting_over=True)
    actors = state.actors
    if betting.pending and len(actors) == 1 and betting.to_call(actors[0]) <= 0:
        betting = replace(betting, pending=())
    if betting.pending:
        return replace(state, betting=betting)
    note = f"betting round {betting.street + 1} complete: the last player has responded ({v.at('(g)')})"
    state = replace(state, betting=None, notes=(*state.notes, note))
    if betting.street >= _last_street(state):
        return replace(state, phase=SHOWDOWN, betting_over=True)
    return replace(state, phase=BURNING)


def act(state: PokerRoomState, event: Event) -> PokerRoomState:
    """A player's action in a betting round."""
    v = state.variant
    action = event.action or ""
    betting = state.betting
    if state.phase != BETTING or betting is None:
        raise IllegalEvent(f"a {action} is made in a betting round: {expecting(state)}")
    number = event.seat
    if number != betting.turn:
        raise IllegalEvent(
            f"it is seat {betting.turn}'s turn, not seat {number}'s: each player acts in turn, clockwise "
            f"({v.at('(g)')}, {v.at('(h)')})"
        )
    player = _player(state, number, action)
    to_call = betting.to_call(player.seat)
    mine = betting.put_by(player.seat)
    order = _order(state)
    if action in (BET, RAISE) and event.amount is None:
        raise IllegalEvent(f"a {action} gives the amount his bets in this betting round come to")
    if action not in (BET, RAISE) and event.amount is not None:
        raise IllegalEvent(f"a {action} carries no amount")
    if action == FOLD:
        state = _put(state, replace(player, folded=True))
        betting = betting.responded(player.seat, state.actors)
        return _maybe_complete(replace(state, betting=betting))
    if action == CHECK:
        if to_call > 0:
            raise IllegalEvent(
                f"seat {player.seat} cannot check: the bet is {format_money(betting.high)}, he has put in "
                f"{format_money(mine)}; he may fold, call or raise ({v.at('(h)')})"
            )
        betting = betting.responded(player.seat, state.actors)
        return _maybe_complete(replace(state, betting=betting))
    if action == CALL:
        if to_call <= 0:
            raise IllegalEvent(f"seat {player.seat} has nothing to call: he may check or bet ({v.at('(h)')})")
        amount = min(to_call, player.behind)
        return _chips(state, player, mine + amount, responded=True)
    if action == ALL_IN:
        if player.behind <= 0:
            raise IllegalEvent(f"seat {player.seat} has no chips left")
        to = mine + player.behind
        if to <= betting.high:
            return _chips(state, player, to, responded=True)
        return _raise_to(state, player, to, order, all_in=True)
    assert event.amount is not None
    to = event.amount
    if action == BET:
        if betting.high > 0:
            raise IllegalEvent(
                f"the bet is {format_money(betting.high)}: seat {player.seat} may call or raise, not open "
                f"the betting ({v.at('(h)')})"
            )
    elif betting.high == 0:
        raise IllegalEvent(f"nobody has bet: seat {player.seat} may bet or check, not raise ({v.at('(h)')})")
    if to - mine > player.behind:
        raise IllegalEvent(
            f"seat {player.seat} has {format_money(player.behind)} in chips: he cannot {action} to "
            f"{format_money(to)} (he may go all in)"
        )
    if to == mine + player.behind:
        return _raise_to(state, player, to, order, all_in=True)
    return _raise_to(state, player, to, order, all_in=False)


def _raise_to(
    state: PokerRoomState, player: SeatState, to: Cents, order: tuple[int, ...], all_in: bool
) -> PokerRoomState:
    rules = state.rules
    betting = state.betting
    assert betting is not None
    word = "bet" if betting.high == 0 else "raise"
    increment = to - betting.high
    full = increment >= betting.min_raise
    if player.seat in betting.no_raise:
        raise IllegalEvent(
            f"seat {player.seat} may call or fold: the short all-in after his turn did not reopen the "
            f"raise to him ({LIMIT_SECTION})"
        )
    if rules.raise_cap and betting.high > 0 and betting.raises >= 1 + rules.raise_cap:
        raise IllegalEvent(
            f"the betting is capped: a bet and {rules.raise_cap} raises in this betting round "
            f"(betting.raise_cap, {LIMIT_SECTION}); seat {player.seat} may call or fold"
        )
    limit = rules.betting_limit
    if limit == FIXED_LIMIT:
        want = betting.high + betting.min_raise
        if to > want or (to < want and not all_in):
            raise IllegalEvent(
                f"seat {player.seat}: a {word} at this fixed-limit table is to {format_money(want)} "
                f"(the bet of {format_money(betting.min_raise)} in betting round {betting.street + 1}), not "
                f"{format_money(to)} ({LIMIT_SECTION})"
            )
    else:
        if not full and not all_in:
            raise IllegalEvent(
                f"seat {player.seat}: a {word} to {format_money(to)} is below the minimum: at least "
                f"{format_money(betting.min_raise)} more than {format_money(betting.high)}, to "
                f"{format_money(betting.high + betting.min_raise)} ({LIMIT_SECTION})"
            )
        if limit == POT_LIMIT:
            pot = sum(s.total for s in state.seats)
            most = betting.high + pot + betting.to_call(player.seat)
            if to > most:
                raise IllegalEvent(
                    f"seat {player.seat}: the pot limit is a {word} to {format_money(most)} (the pot "
                    f"{format_money(pot)} after his call of {format_money(betting.to_call(player.seat))}), "
                    "not "
                    f"{format_money(to)} ({LIMIT_SECTION})"
                )
    state = _put(state, player.add_bet(BET, to - betting.put_by(player.seat)))
    betting = betting.with_put(player.seat, to).reopened(player.seat, to, order, full)
    actors = set(state.actors)
    betting = replace(betting, pending=tuple(s for s in betting.pending if s in actors))
    return _maybe_complete(replace(state, betting=betting))


def _chips(state: PokerRoomState, player: SeatState, to: Cents, *, responded: bool) -> PokerRoomState:
    """A call (or an all-in for no more than the bet): ``to`` is his total in this betting round."""
    betting = state.betting
    assert betting is not None
    mine = betting.put_by(player.seat)
    state = _put(state, player.add_bet(BET, to - mine))
    betting = betting.with_put(player.seat, to).responded(player.seat, state.actors)
    return _maybe_complete(replace(state, betting=betting))


# --- the burn, the board, the draws ----------------------------------------------------------


def burn(state: PokerRoomState, cards: tuple[Card, ...] | None) -> PokerRoomState:
    """The burn before a draw (§ 637a.20(h)-(j)) or a part of the board (§ 637a.19(h)-(j))."""
    v = state.variant
    _phase(state, BURNING, what="a burn")
    state = _mode(state, cards is None)
    if cards is not None:
        if len(cards) != 1:
            raise IllegalEvent(f"the dealer burns the top card of the deck: one card, not {len(cards)}")
        state = in_deck(state, cards, "the burn")
    else:
        try:
            state = replace(state, counted=state.counted.take(1, "the burn"))
        except DrawError as exc:
            raise IllegalEvent(str(exc)) from None
    section = v.at("(h)") if state.street == 0 else v.at("(i)") if state.street == 1 else v.at("(j)")
    state = replace(state, notes=(*state.notes, f"burned the top card ({section})"))
    if v.draws:
        return replace(state, phase=DRAWING, draw_round=state.draw_round + 1, drawn=())
    return replace(state, phase=BOARD)


def board(state: PokerRoomState, cards: tuple[Card, ...]) -> PokerRoomState:
    """The community cards, face up: "three community cards", then "a fourth", then "a fifth and
    final" (§ 637a.19(h)-(j)), always the cards (keyed by the dealer at a table without a card
    reader, read by the shoe at one). Dealt from the deck either way: without a reader the round's
    count of the deck takes them too, as it takes the hands, the burns and the draws."""
    v = state.variant
    if not v.board:
        raise IllegalEvent(f"{v.title} has no community cards")
    _phase(state, BOARD, what="community cards")
    want = 3 if not state.board else 1
    if len(cards) != want:
        words = (
            "three community cards" if want == 3 else "the fourth" if len(state.board) == 3 else "the fifth"
        )
        raise IllegalEvent(
            f"the dealer deals {words}, {want} card{'s' if want > 1 else ''}, not {len(cards)} "
            f"({v.at('(h)')}-(j))"
        )
    state = in_deck(state, cards, "board")
    if state.keyed:
        try:
            state = replace(state, counted=state.counted.take(len(cards), "the board"))
        except DrawError as exc:
            raise IllegalEvent(str(exc)) from None
    state = replace(state, board=state.board + cards)
    return _begin_betting(state, state.street + 1)


def next_drawer(state: PokerRoomState) -> int:
    """The next player to draw: from the button's left, one at a time, each who has not folded
    (§ 637a.20(h))."""
    return _drawer(state)


def _drawer(state: PokerRoomState) -> int:
    return next(s for s in deal_order(state.button or 0, state.live) if s not in state.drawn)


def _drawn(state: PokerRoomState, seat: int) -> PokerRoomState:
    state = replace(state, drawn=(*state.drawn, seat), drawing=None)
    if all(s in state.drawn for s in state.live):
        return _begin_betting(state, state.street + 1)
    return state


def _turn_to_draw(state: PokerRoomState, seat: int | None) -> int:
    v = state.variant
    _phase(state, DRAWING, what="a draw")
    drawer = state.drawing.seat if state.drawing is not None else _drawer(state)
    if seat != drawer:
        raise IllegalEvent(
            f"it is seat {drawer}'s turn to draw, not seat {seat}'s: one player at a time, from the "
            f"immediate left of the button ({v.at('(h)')})"
        )
    return drawer


def stand_pat(state: PokerRoomState, event: Event) -> PokerRoomState:
    seat = _turn_to_draw(state, event.seat)
    if state.drawing is not None:
        raise IllegalEvent(f"seat {seat} has discarded: he receives his new cards ({DRAW_SECTION})")
    return _drawn(state, seat)


def discard(state: PokerRoomState, cards: tuple[Card, ...] | None, count: int) -> PokerRoomState:
    v = state.variant
    _phase(state, DRAWING, what="a discard")
    if state.drawing is not None:
        raise IllegalEvent(
            f"seat {state.drawing.seat} has discarded: he receives his new cards ({DRAW_SECTION})"
        )
    drawer = _drawer(state)
    state = _mode(state, cards is None)
    player = _player(state, drawer, "a discard")
    if count < 1 or count > v.hand_size:
        raise IllegalEvent(f"seat {drawer} discards 1 to {v.hand_size} cards, not {count} ({v.at('(h)')})")
    if cards is not None:
        state, player = discarded(state, player, cards)
    else:
        state = replace(state, counted=state.counted.discard(drawer, count))
        player = replace(player, hidden=player.hidden - count)
    return replace(_put(state, player), drawing=Drawing(drawer, count))


def discarded(
    state: PokerRoomState, player: SeatState, cards: Sequence[Card]
) -> tuple[PokerRoomState, SeatState]:
    """``player``'s discards, known by card (a card reader's table, or a round record): refused
    unless he holds each, "a player discards from his own hand" (§ 637a.20(h)); the deck's
    discard pile takes them (the reshuffle's cards, § 637a.20(h))."""
    missing = [c for c in cards if c not in player.cards]
    if missing:
        raise IllegalEvent(
            f"seat {player.seat} is drawing, and does not hold {format_cards(missing)}: a player discards "
            f"from his own hand ({state.variant.at('(h)')})"
        )
    kept = tuple(c for c in player.cards if c not in cards)
    state = replace(state, deck=state.deck.discard(player.seat, cards))
    return state, replace(player, cards=kept, discards=player.discards + tuple(cards))


def drawn_from_deck(state: PokerRoomState, number: int, cards: Sequence[Card]) -> PokerRoomState:
    """The new cards to seat ``number``, known by card, drawn from the deck, with the reshuffle of
    the discards when the deck runs short (§ 637a.20(h)) noted; a card the deck does not hold is
    refused with where it is (:func:`where`)."""
    deck, notes = state.deck, state.notes
    for c in cards:
        before = len(deck.reshuffles)
        try:
            deck = deck.draw(number, c)
        except DrawError as exc:
            held = "" if c in deck.may_draw(number) else f" ({where(state, c)})"
            raise IllegalEvent(f"seat {number}: {exc}{held}") from None
        if len(deck.reshuffles) > before:
            notes = (*notes, deck.reshuffles[-1].words())
    return replace(state, deck=deck, notes=notes)


def new_cards(
    state: PokerRoomState, number: int, cards: tuple[Card, ...] | None, count: int
) -> PokerRoomState:
    drawing = state.drawing
    if state.phase != DRAWING or drawing is None:
        raise IllegalEvent(f"new cards go to a player who has discarded, in his turn: {expecting(state)}")
    if number != drawing.seat:
        raise IllegalEvent(
            f"seat {drawing.seat} is drawing and is owed {drawing.owed}: the draw is one player at a time "
            f"({state.variant.at('(h)')})"
        )
    state = _mode(state, cards is None)
    if count > drawing.owed:
        raise IllegalEvent(
            f"seat {number} has {drawing.owed} discarded card{'s' if drawing.owed != 1 else ''} to replace, "
            f"not {count}: each discarded card is replaced by one new card ({DRAW_SECTION})"
        )
    player = _player(state, number, "new cards")
    notes = state.notes
    if cards is not None:
        state = drawn_from_deck(state, number, cards)
        notes = state.notes
        player = replace(player, cards=player.cards + cards)
    else:
        try:
            counted, words = state.counted.draw(number, count)
        except DrawError as exc:
            raise IllegalEvent(str(exc)) from None
        if words:
            notes = (*notes, words)
        state = replace(state, counted=counted)
        player = replace(player, hidden=player.hidden + count)
    state = replace(_put(state, player), notes=notes)
    left = drawing.owed - count
    if left:
        return replace(state, drawing=Drawing(number, left))
    return _drawn(state, number)


# --- the showdown, the irregularities --------------------------------------------------------


def show(state: PokerRoomState, number: int, cards: tuple[Card, ...]) -> PokerRoomState:
    """A hand shown at the showdown of a round dealt face down (§ 637a.19(k))."""
    v = state.variant
    _phase(state, SHOWDOWN, what="a hand shown")
    player = _player(state, number, "a hand shown")
    if player.folded:
        raise IllegalEvent(f"seat {number} has folded: his hand is not shown")
    if player.cards:
        raise IllegalEvent(f"seat {number}'s hand is already {'shown' if state.keyed else 'known (read)'}")
    if len(cards) != v.hand_size:
        raise IllegalEvent(f"seat {number} shows his {v.hand_size} cards, not {len(cards)} ({v.showdown})")
    state = in_deck(state, cards, f"seat {number}'s hand")
    return _put(state, replace(player, cards=cards, hidden=0))


def muck(state: PokerRoomState, number: int | None) -> PokerRoomState:
    _phase(state, SHOWDOWN, what="a muck")
    player = _player(state, number, "a muck")
    if player.folded:
        raise IllegalEvent(f"seat {player.seat} has already folded")
    if player.cards and not state.keyed:
        raise IllegalEvent(f"seat {player.seat}'s hand was read: it is in the showdown")
    if len(state.live) == 1:
        raise IllegalEvent(f"seat {player.seat} is the last player in the round: he takes the pot")
    return _out_of_the_showdown(state, player)


def _out_of_the_showdown(state: PokerRoomState, player: SeatState) -> PokerRoomState:
    """``player``'s hand is out (mucked, or ruled dead); the last player left takes the pots he is
    eligible for at once, without showing."""
    state = _put(state, replace(player, folded=True))
    return replace(state, phase=OVER) if len(state.live) == 1 else state


def irregularity(state: PokerRoomState, event: Event) -> PokerRoomState:
    kind = event.kind or ""
    if kind not in IRREGULARITIES:
        raise IllegalEvent(f"no irregularity {kind!r} in the poker room (kinds: {', '.join(IRREGULARITIES)})")
    if state.phase in (OVER, VOID):
        raise IllegalEvent("the round is over: an irregularity no longer changes it")
    words = f"{kind}: {IRREGULARITIES[kind]}" + (f" ({event.detail})" if event.detail else "")
    if kind == "misdeal":
        return replace(state, phase=VOID, void=words, betting=None, notes=(*state.notes, words))
    if kind == DISPUTED_POT:
        return disputed_pot(state, event, words)
    return replace(state, notes=(*state.notes, words))


def floor_decides(state: PokerRoomState, event: Event) -> str:
    """Why ``event`` waits for a floorperson's PIN: a disputed pot. §§ 637a.19-637a.21 give no
    irregularity for the poker room; who receives a pot is what the players dispute, and the
    floorperson decides it (docs/games/poker-room.md, "Irregularities")."""
    if event.type != "irregularity" or event.kind != DISPUTED_POT:
        return ""
    return f"a disputed pot is the floorperson's decision: the pots wait for his ruling ({_FLOOR})"


def disputed_pot(state: PokerRoomState, event: Event, words: str) -> PokerRoomState:
    """The floorperson's ruling on a disputed pot, in his words (``detail``); with a ``seat``, at the
    showdown (§ 637a.19(k)), that player's hand is dead: he has no claim to any pot, his chips stay
    in them. When one player is left, he takes the pots he is eligible for."""
    if not event.detail:
        raise IllegalEvent("a disputed pot: give the floorperson's ruling in words (detail)")
    state = replace(state, notes=(*state.notes, words))
    if event.seat is None:
        return state
    if state.phase != SHOWDOWN:
        raise IllegalEvent(
            f"a hand is ruled dead at the showdown ({state.variant.showdown}); before it the player folds in "
            f"his turn: now {expecting(state)}"
        )
    player = _player(state, event.seat, "a dead hand")
    if player.folded:
        raise IllegalEvent(f"seat {player.seat} has folded: he has no claim to the pot to rule on")
    return _out_of_the_showdown(state, player)


def expecting(state: PokerRoomState) -> str:
    """What the round expects now, in words."""
    v = state.variant
    phase = state.phase
    if phase == SEATING:
        if len(state.seats) < 2:
            return f"the players join (decision participate with their chips; {v.at('(b)')})"
        if state.button is None:
            drawn = dict(state.button_draw)
            left = [s for s in state.players if s not in drawn]
            return (
                f"the draw for the button: a single card to each player (seats {', '.join(map(str, left))} "
                f"still; {_draw_section(state)})"
            )
        blinds = min(len(state.rules.blinds), len(state.seats))
        if len(state.blinds) < blinds:
            want = blind_seats(state.button or 0, state.players, blinds)[len(state.blinds)]
            return f"seat {want} posts Blind Bet {len(state.blinds) + 1} ({v.at('(d)')})"
        return f"the deal, from the immediate left of the button ({v.at('(f)')})"
    if phase == DEALING:
        return f"the next card to seat {_next_to_deal(state)} ({v.at('(f)')})"
    if phase == BETTING and state.betting is not None:
        seat = state.betting.turn
        owe = state.betting.to_call(seat or 0)
        choices = "fold, call or raise" if owe > 0 else "check or bet"
        return f"seat {seat}'s turn: {choices} ({v.at('(g)') if state.street == 0 else v.at('(h)')})"
    if phase == BURNING:
        return f"the dealer burns the top card of the deck ({v.at('(h)')})"
    if phase == DRAWING:
        seat = state.drawing.seat if state.drawing is not None else _drawer(state)
        if state.drawing is not None:
            return f"seat {seat}'s {state.drawing.owed} new cards ({DRAW_SECTION})"
        return f"seat {seat}'s draw: stand pat or discard ({v.at('(h)')})"
    if phase == BOARD:
        return f"the community cards ({v.at('(h)')}-(j))"
    if phase == SHOWDOWN:
        return "the hands shown at the showdown"
    if phase == VOID:
        return f"nothing: the round is void ({state.void})"
    return "nothing: the pots are awarded"


def chosen_cards(state: PokerRoomState, event: Event) -> str:
    """Why the dealer keys ``event``'s cards at a table whose shoe reads every card: the discards of
    the player drawing, cards of his own hand the shoe read when they were dealt, which he chooses
    ("Each player may keep his original hand or discard as many cards as he chooses", § 637a.20(h));
    ``""`` for any other cards (they come from the shoe)."""
    if not (state.procedure and event.type == "cards" and event.to == "dealer"):
        return ""
    if state.phase != DRAWING or state.keyed is not False or state.drawing is not None:
        return ""
    return f"seat {_drawer(state)}'s discards: his choice among his cards read when dealt ({DRAW_SECTION})"


def cards_or_deal(state: PokerRoomState, event: Event) -> PokerRoomState:
    """A ``cards`` (read) or ``deal`` (counted) event in a round dealt step by step."""
    read = event.type == "cards"
    cards = event.cards if read else None
    count = len(event.cards) if read else (event.value or 0)
    if event.hand:
        raise IllegalEvent("the poker room has no split hands (hand must be 0)")
    to = event.to
    if to == "burn":
        if count != 1:
            raise IllegalEvent(f"the dealer burns one card, not {count}")
        return burn(state, cards)
    if to == "board":
        if not read:
            raise IllegalEvent("the community cards are dealt face up: give them (cards to board)")
        return board(state, event.cards)
    if to == "dealer":
        return discard(state, cards, count)
    if to is None:
        if read:
            raise IllegalEvent("cards go to a seat, the board, the burn or the dealer")
        _phase(state, SEATING, what="the deal")
        return deal_counted(state, count)
    number = seat_of(to)
    assert number is not None
    if state.phase == SEATING and state.button is None:
        if not read:
            raise IllegalEvent(
                "the draw for the button is of cards dealt face up: give each player's card "
                f"({_draw_section(state)})"
            )
        return button_draw(state, number, event.cards)
    if state.phase in (SEATING, DEALING):
        if not read:
            raise IllegalEvent("the hands dealt face down are one deal event (no seat): every player in turn")
        return deal_read(state, number, event.cards)
    if state.phase == SHOWDOWN:
        if not read:
            raise IllegalEvent("a hand shown at the showdown is its cards")
        return show(state, number, event.cards)
    return new_cards(state, number, cards, count)


def decision(state: PokerRoomState, event: Event) -> PokerRoomState:
    action = event.action or ""
    if event.hand:
        raise IllegalEvent("the poker room has no split hands (hand must be 0)")
    if action == PARTICIPATE:
        return participate(state, event)
    if action == KILLS:
        return killed_by(state, event)
    if action == STAND_PAT:
        if not state.variant.draws:
            raise IllegalEvent(f"{state.variant.title} has no draw: nobody stands pat")
        return stand_pat(state, event)
    if action == FOLD and state.phase == SHOWDOWN:
        return muck(state, event.seat)
    if action in ACTIONS:
        return act(state, event)
    raise IllegalEvent(
        f"no decision {action!r} in the poker room (decisions: "
        f"{', '.join((PARTICIPATE, *ACTIONS, STAND_PAT))})"
    )
