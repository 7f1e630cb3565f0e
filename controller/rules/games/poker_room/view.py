"""The poker table as the dealer's screen shows it: one answer of the rules core, as data.

The button, the blinds and whose turn it is; the amount he has to call and the actions the
procedure takes from him now, each tried on the round's state (§ 637a.19(g), (h): "each player ...
may fold, call or raise the bet"; "may bet or check"), with the least and the most a bet or raise
may be (the Rules Submission's limit); each player's chips, what he has put in this betting round
and in the round, folded or all in, how many cards he holds (never which: a hand is the player's,
but for the player drawing at a table whose shoe read it, who chooses his discards among its cards);
the pots and side pots with who may win each; the board (face up); the hands shown at the showdown
(face up); the draw (whose turn, how many cards he is owed, who has drawn). The screen keeps no copy
of the rules: it draws this.
"""

from __future__ import annotations

from typing import Any, Final

from ...core.cards import format_cards
from ...core.engine import IllegalEvent
from ...core.events import Event
from ...core.money import Cents, format_money
from . import procedure
from .button import blind_seats, straddle_seat
from .state import (
    ALL_IN,
    ANTE,
    BETTING,
    BLIND,
    CALL,
    CHECK,
    DRAWING,
    FOLD,
    KILL,
    RAISE,
    SEATING,
    SHOWDOWN,
    STRADDLE,
    PokerRoomState,
)

BET: Final = "bet"
#: The order the screen offers the actions in.
OFFERED: Final = (FOLD, CHECK, CALL, BET, RAISE, ALL_IN)


def table_view(state: PokerRoomState) -> dict[str, Any]:
    """The table now (``{}`` for a round record that gives the showdown only)."""
    if not state.procedure and state.started:
        return {}  # a round record that gives the showdown
    betting = state.betting
    turn = betting.turn if betting is not None and state.phase == BETTING else None
    out: dict[str, Any] = {
        "variant": state.variant.name,
        "title": state.variant.title,
        # Before anything: the dealer places the button (§ 637a.19(c)(1)(i)), or the players join and
        # draw for it ((c)(1)(ii)); the table carries it after the first round ((c)(2)).
        "phase": "button" if state.button is None and not procedure.draws_for_button(state) else state.phase,
        "button": state.button,
        "blinds": list(state.blinds),
        "straddle": state.straddle,
        "kill": state.kill_seat if state.kill_seat is not None else state.killer,
        "betting_round": state.street + 1 if betting is not None else None,
        "turn": turn,
        "to_call": format_money(betting.to_call(turn)) if betting is not None and turn is not None else None,
        "actions": _actions(state, turn) if turn is not None else [],
        "seats": [_seat(state, s.seat) for s in state.seats],
        "pots": _pots(state),
        "board": format_cards(state.board),
        "draw": _draw(state),
        "draw_for_button": [{"seat": s, "card": str(c)} for s, c in state.button_draw],
        "places": state.variant.players,
        "hand_size": state.variant.hand_size,
        "forced": _forced(state),
        "to_show": _to_show(state),
        "shown": _shown(state),
    }
    return out


def _to_show(state: PokerRoomState) -> list[dict[str, Any]]:
    """At the showdown of a round dealt face down (§ 637a.19(k)): each player who has still to show
    his hand or muck it, and whether the procedure takes his muck (the last player may not)."""
    if state.phase != SHOWDOWN or not state.keyed:
        return []
    return [
        {"seat": s.seat, "may_muck": _legal(state, Event("decision", seat=s.seat, action=FOLD))}
        for s in state.seats
        if not s.folded and not s.cards
    ]


def _shown(state: PokerRoomState) -> list[dict[str, Any]]:
    """At the showdown of a round dealt face down, the hands shown so far: face up on the table
    (§ 637a.19(k)), so the screen's card keypad refuses their cards for another hand before sending
    (the procedure refuses them too: a card dealt twice)."""
    if state.phase != SHOWDOWN or not state.keyed:
        return []
    return [{"seat": s.seat, "cards": format_cards(s.cards)} for s in state.seats if s.cards]


def _forced(state: PokerRoomState) -> list[dict[str, Any]]:
    """The forced bets the procedure takes now, each tried on the state: the Ante, the next Blind Bet
    (§ 637a.19(d)), the kill blind, the Straddle Bet (optional, (e)); each at its amount, or all the
    player's chips when he has less."""
    if state.phase != SEATING or state.button is None or len(state.seats) < 2:
        return []
    rules = state.rules
    players = state.players
    wanted: list[tuple[int, str, Cents]] = []
    wanted += [(s.seat, ANTE, rules.ante) for s in state.seats if rules.ante and not s.bet(ANTE)][:1]
    blinds = min(len(rules.blind_bets), len(players))
    if len(state.blinds) < blinds:
        seat = blind_seats(state.button, players, blinds)[len(state.blinds)]
        wanted.append((seat, BLIND, rules.blind_bets[len(state.blinds)]))
    elif state.killer is not None and state.kill_seat is None:
        wanted.append((state.killer, KILL, rules.kill_blind))
    elif rules.straddle_offered and state.straddle is None and state.killer is None:
        wanted.append((straddle_seat(state.button, players, blinds), STRADDLE, rules.straddle_bet))
    out = []
    for seat, wager, due in wanted:
        player = state.seat(seat)
        if player is None:
            continue
        amount = min(due, player.behind)
        try:
            procedure.forced_bet(state, Event("wager", seat=seat, wager=wager, amount=amount))
        except IllegalEvent:
            continue
        out.append(
            {"seat": seat, "wager": wager, "amount": format_money(amount), "optional": wager == STRADDLE}
        )
    return out


def _seat(state: PokerRoomState, number: int) -> dict[str, Any]:
    seat = state.seat(number)
    assert seat is not None
    betting = state.betting
    return {
        "seat": number,
        "stack": format_money(seat.stack or 0),
        "behind": format_money(seat.behind),
        "this_round": format_money(betting.put_by(number) if betting is not None else 0),
        "in_pot": format_money(seat.total),
        "folded": seat.folded,
        "all_in": seat.all_in,
        "holds": seat.holds,
    }


def _pots(state: PokerRoomState) -> list[dict[str, Any]]:
    """The pots as they stand: one pot, and a side pot above each player all in (§ 637a.19(k)'s pots
    once the betting is over; the settlement's :func:`.pots.build_pots` divides them then)."""
    totals = {s.seat: s.total for s in state.seats}
    live = [s for s in state.seats if not s.folded]
    caps = sorted({s.total for s in live if s.all_in})
    out: list[dict[str, Any]] = []
    floor = 0
    for level in [*caps, None]:
        amount = sum(max(0, (t if level is None else min(t, level)) - floor) for t in totals.values())
        # A player all in below this level is out of it; every other may still match it.
        eligible = [s.seat for s in live if not s.all_in or (level is not None and s.total >= level)]
        if amount or level is not None:
            name = "main_pot" if not out else f"side_pot_{len(out)}"
            out.append({"name": name, "amount": format_money(amount), "eligible": eligible})
        if level is not None:
            floor = level
    return out


def _draw(state: PokerRoomState) -> dict[str, Any] | None:
    """The draw: whose turn, how many new cards he is owed, who has drawn. At a table whose shoe read
    the hands, in his turn before he discards, the ``hand`` of the player drawing: his discards are
    his choice among those cards ("Each player may keep his original hand or discard as many cards as
    he chooses", § 637a.20(h)), which the dealer touches on the screen (:func:`.procedure.chosen_cards`);
    no other player's hand is ever in the view."""
    if state.phase != DRAWING:
        return None
    drawing = state.drawing
    seat = drawing.seat if drawing is not None else procedure.next_drawer(state)
    out: dict[str, Any] = {
        "draw": state.draw_round,
        "seat": seat,
        "owed": drawing.owed if drawing is not None else 0,
        "drawn": list(state.drawn),
    }
    player = state.seat(seat)
    if state.keyed is False and drawing is None and player is not None:
        out["hand"] = format_cards(player.cards)
    return out


def _takes(state: PokerRoomState, seat: int, action: str, amount: Cents) -> bool:
    return _legal(state, Event("decision", seat=seat, action=action, amount=amount))


def _legal(state: PokerRoomState, event: Event) -> bool:
    try:
        procedure.decision(state, event)
    except IllegalEvent:
        return False
    return True


def _actions(state: PokerRoomState, seat: int) -> list[dict[str, Any]]:
    """Each action the procedure takes from ``seat`` now; a bet or raise with the least and the most
    it may be "to" (his bets in this betting round), found by trying the amounts on the state."""
    betting = state.betting
    player = state.seat(seat)
    assert betting is not None and player is not None
    out: list[dict[str, Any]] = []
    for action in OFFERED:
        if action in (BET, RAISE):
            least = betting.high + betting.min_raise if betting.high else betting.min_raise
            most = betting.put_by(seat) + player.behind
            if not _takes(state, seat, action, least):
                if not _takes(state, seat, action, most):
                    continue
                least = most  # short of the minimum: all his chips
            top = _most(state, seat, action, least, most)
            out.append({"action": action, "least": format_money(least), "most": format_money(top)})
        elif _legal(state, Event("decision", seat=seat, action=action)):
            item: dict[str, Any] = {"action": action}
            if action == CALL:
                item["amount"] = format_money(min(betting.to_call(seat), player.behind))
            if action == ALL_IN:
                item["amount"] = format_money(betting.put_by(seat) + player.behind)
            out.append(item)
    return out


def _most(state: PokerRoomState, seat: int, action: str, least: Cents, most: Cents) -> Cents:
    """The most a bet or raise may be "to": the largest amount from ``least`` to ``most`` the limit
    takes (pot-limit's "a raise to at most ...", fixed's one amount), by halving."""
    if _takes(state, seat, action, most):
        return most
    low, high = least, most  # low is legal, high is not
    while high - low > 1:
        mid = (low + high) // 2
        if _takes(state, seat, action, mid):
            low = mid
        else:
            high = mid
    return low


__all__ = ["table_view"]
