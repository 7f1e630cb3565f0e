"""The poker room's round dealt step by step (§§ 637a.19-637a.21): the button, the players and their
chips, the blinds, the deal with the button last, the betting rounds in turn with their limits, the
burns, the draws, the board, all in and the side pots, the showdown, the misdeal, the button and
the kill carried to the next round.

Each test quotes the words it tries; every amount is worked out in the comment beside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.core.cards import format_cards, parse_cards, standard_deck
from controller.rules.core.engine import IllegalEvent, Round
from controller.rules.core.events import Event
from controller.rules.core.options import load_rules
from controller.rules.core.settlement import Result
from controller.rules.games.poker_room.game import GAME, RULES_CHECKS, PokerRoomRules
from controller.rules.games.poker_room.state import BETTING, BURNING, DRAWING, SHOWDOWN

from .rounds import NO_MORE_BETS, cards, decide, irregularity, money, round_refuses, wager


def rules(variant: str, **extra: object) -> PokerRoomRules:
    return load_rules(PokerRoomRules, {"variant": variant, **extra}, "test", RULES_CHECKS)


def pos(button: int) -> Event:
    return Event("position", value=button)


def deal(value: int, to: str | None = None) -> Event:
    return Event("deal", value=value, to=to)


def sit(seat: int, chips: str) -> Event:
    return decide(seat, "participate", chips)


def seated(
    variant: str,
    button: int,
    stacks: Mapping[int, str],
    *,
    blinds: Sequence[tuple[int, str]] = (),
    **extra: object,
) -> Round[Any, Any]:
    """The button placed, the players joined with their chips, the Blind Bets posted."""
    rnd = Round.begin(GAME, rules(variant, **extra))
    rnd.apply(pos(button))
    for seat, chips in stacks.items():
        rnd.apply(sit(seat, chips))
    for seat, amount in blinds:
        rnd.apply(wager(seat, "blind", amount))
    return rnd


def dealt_in_order(rnd: Round[Any, Any], hands: Mapping[int, str]) -> None:
    """One card at a time from the button's left, the button last each time (§ 637a.19(f))."""
    state = rnd.state
    from controller.rules.games.poker_room.button import deal_order

    order = deal_order(state.button, state.players)
    split = {s: parse_cards(h) for s, h in hands.items()}
    for i in range(len(next(iter(split.values())))):
        for s in order:
            rnd.apply(cards(s, format_cards(split[s][i : i + 1])))


def acts(rnd: Round[Any, Any], *steps: tuple[int, str] | tuple[int, str, str]) -> None:
    for step in steps:
        rnd.apply(decide(*step))


# --- the deal: the button last, § 637a.19(f) ---------------------------------------------------


def test_the_button_receives_the_last_card_each_time() -> None:
    """§ 637a.20(f): "Starting with the player to the immediate left of the button and continuing around
    the table in a clockwise manner ... The player with the button shall be the last player to receive a
    card each time." Button at 3, players 1, 3, 5: the order is 5, 1, 3."""
    rnd = seated(
        "triple-draw-2-7", 3, {1: "100.00", 3: "100.00", 5: "100.00"}, blinds=[(5, "1.00"), (1, "2.00")]
    )
    round_refuses(rnd, cards(3, "2c"), "the next card goes to seat 5, not seat 3")
    rnd.apply(cards(5, "2c"))
    round_refuses(rnd, cards(3, "3c"), "the next card goes to seat 1")
    rnd.apply(cards(1, "3c"))
    rnd.apply(cards(3, "4c"))
    round_refuses(rnd, cards(1, "5c"), "the next card goes to seat 5")
    round_refuses(rnd, cards(5, "5c 6c"), "one card per event")
    round_refuses(rnd, cards(5, "2c"), "2c is not in the deck: seat 5 holds it")


def test_the_blind_bets_come_from_the_left_of_the_button_before_any_card() -> None:
    """§ 637a.19(d): "Before any cards are dealt, the player to the immediate left of the button shall
    initiate the first betting round by placing a Blind Bet ... additional Blind Bets ... immediately
    after"."""
    rnd = seated("omaha-high", 6, {2: "50.00", 4: "50.00", 6: "50.00"})
    round_refuses(
        rnd,
        wager(4, "blind", "1.00"),
        "Blind Bet 1 is posted by the player to the immediate left of the button, seat 2",
    )
    round_refuses(rnd, wager(2, "blind", "1.50"), "Blind Bet 1 is 1.00, not 1.50")
    round_refuses(rnd, cards(2, "As"), "before any cards are dealt the Blind Bets are placed")
    rnd.apply(wager(2, "blind", "1.00"))
    round_refuses(rnd, wager(6, "blind", "2.00"), "the next player clockwise, seat 4")
    rnd.apply(wager(4, "blind", "2.00"))
    round_refuses(rnd, wager(4, "bet", "2.00"), "the player's decision in his turn")
    round_refuses(rnd, sit(1, "50.00"), "players join before them")


# --- the betting rounds: turn order, § 637a.20(g), (h) -----------------------------------------


def _triple_draw_dealt(**extra: object) -> Round[Any, Any]:
    """Button 4; seats 1 (small blind 1.00), 2 (big blind 2.00), 3, 4; 100.00 each; fixed limit 2/4."""
    rnd = seated(
        "triple-draw-2-7",
        4,
        {1: "100.00", 2: "100.00", 3: "100.00", 4: "100.00"},
        blinds=[(1, "1.00"), (2, "2.00")],
        **extra,
    )
    dealt_in_order(
        rnd,
        {1: "2c 3d 4h 5s 7c", 2: "2d 3h 4s 6c 8d", 3: "Kc Kd Kh Ks Qc", 4: "9c 9d 8h 8s Tc"},
    )
    return rnd


def test_a_bet_out_of_turn_is_refused() -> None:
    """§ 637a.20(g): "each player, starting with the player to the left of the player or players who were
    required to place a Blind Bet ... and continuing around the table in a clockwise manner, may fold, call
    or raise". Blinds at 1 and 2: seat 3 acts first."""
    rnd = _triple_draw_dealt()
    assert rnd.state.phase == BETTING and rnd.state.betting.turn == 3
    round_refuses(rnd, decide(4, "call"), "it is seat 3's turn, not seat 4's")
    round_refuses(rnd, decide(1, "fold"), "it is seat 3's turn")
    round_refuses(rnd, decide(3, "check"), "seat 3 cannot check: the bet is 2.00")
    rnd.apply(decide(3, "call"))
    assert rnd.state.betting.turn == 4


def test_the_round_is_complete_only_after_the_last_player_has_responded() -> None:
    """§ 637a.20(g): "The option to raise also applies to a player who made a Blind Bet ... After the last
    player has responded to the most recent bet, the betting round shall be considered complete." Seat 3
    calls, 4 calls, 1 completes, 2 (the big blind) raises to 4.00: 3, 4 and 1 respond again."""
    rnd = _triple_draw_dealt()
    acts(rnd, (3, "call"), (4, "call"), (1, "call"))
    assert rnd.state.betting.turn == 2  # the big blind's option
    rnd.apply(decide(2, "raise", "4.00"))
    round_refuses(rnd, Event("deal", value=1, to="burn"), "not a step of the round now")
    round_refuses(rnd, cards("burn", "Ah"), "not a step of the round now")
    acts(rnd, (3, "call"), (4, "fold"))
    assert rnd.state.betting.pending == (1,)
    rnd.apply(decide(1, "call"))
    assert rnd.state.phase == BURNING
    # Each of 1, 2, 3 put in 4.00, seat 4 2.00: 14.00.
    assert sum(s.total for s in rnd.state.seats) == money("14.00")


def test_a_check_in_the_second_betting_round_of_badugi() -> None:
    """§ 637a.21(h): "The first player to the left of the button who has not folded shall commence the next
    betting round and may bet or check. Each subsequent player may ... if preceding players have not made a
    bet, make an opening bet or check." After the draw, everyone checks: the round is complete."""
    rnd = seated("badugi", 3, {1: "40.00", 2: "40.00", 3: "40.00"}, blinds=[(1, "1.00"), (2, "2.00")])
    rnd.apply(deal(4))
    acts(rnd, (3, "call"), (1, "call"), (2, "check"))
    rnd.apply(deal(1, "burn"))
    assert rnd.state.phase == DRAWING
    round_refuses(rnd, decide(2, "stand_pat"), "it is seat 1's turn to draw, not seat 2's")
    rnd.apply(decide(1, "stand_pat"))
    rnd.apply(deal(2, "dealer"))  # seat 2 discards two face down
    round_refuses(rnd, deal(2, "3"), "seat 2 is drawing")
    round_refuses(rnd, deal(3, "2"), "2 discarded cards to replace, not 3")
    rnd.apply(deal(2, "2"))
    rnd.apply(decide(3, "stand_pat"))
    assert rnd.state.phase == BETTING and rnd.state.betting.turn == 1
    round_refuses(rnd, decide(1, "raise", "2.00"), "nobody has bet: seat 1 may bet or check")
    acts(rnd, (1, "check"), (2, "check"))
    assert rnd.state.phase == BETTING
    rnd.apply(decide(3, "check"))
    assert rnd.state.phase == BURNING


# --- the limits: the Rules Submission's, § 601a.2 ---------------------------------------------


def test_fixed_limit_bets_and_raises_are_the_fixed_bet_and_the_cap() -> None:
    """Fixed limit 2.00/4.00 with a cap of a bet and three raises: in the first round the blind is the bet,
    so three raises to 8.00, then only calls and folds."""
    rnd = _triple_draw_dealt()
    round_refuses(rnd, decide(3, "raise", "5.00"), "a raise at this fixed-limit table is to 4.00")
    acts(rnd, (3, "raise", "4.00"), (4, "raise", "6.00"), (1, "raise", "8.00"))
    round_refuses(rnd, decide(2, "raise", "10.00"), "the betting is capped: a bet and 3 raises")
    rnd.apply(decide(2, "call"))


def test_no_limit_a_raise_below_the_minimum_is_refused() -> None:
    """No-limit: a raise is at least the last bet or raise. Seat 3 raises to 6.00 (by 4.00): seat 4 may
    raise to 10.00 at least; 9.00 is refused, and nothing changes."""
    rnd = _triple_draw_dealt(betting={"limit": "no-limit"})
    rnd.apply(decide(3, "raise", "6.00"))
    round_refuses(
        rnd, decide(4, "raise", "9.00"), "below the minimum: at least 4.00 more than 6.00, to 10.00"
    )
    round_refuses(rnd, decide(4, "raise", "101.00"), "seat 4 has 100.00 in chips")
    rnd.apply(decide(4, "raise", "10.00"))


def test_pot_limit_a_bet_above_the_pot_is_refused() -> None:
    """Pot-limit: seat 3 may raise to the bet plus the pot after his call. Pot 3.00 (blinds), his call 2.00:
    at most 2.00 + 3.00 + 2.00 = 7.00."""
    rnd = _triple_draw_dealt(betting={"limit": "pot-limit"})
    round_refuses(rnd, decide(3, "raise", "7.50"), "the pot limit is a raise to 7.00")
    rnd.apply(decide(3, "raise", "7.00"))


# --- all in and the side pots ------------------------------------------------------------------


def test_two_all_ins_make_a_main_pot_and_two_side_pots() -> None:
    """Omaha High, no-limit. Button 4; blinds 1 (1.00), 2 (2.00). Seat 3 has 10.00, seat 4 30.00, seats 1
    and 2 100.00. Seat 3 all in 10.00, seat 4 all in 30.00, seat 1 calls 30.00, seat 2 calls 30.00; the
    remaining betting rounds need no one (only 1 and 2 can act: they check it down).
    Main pot 4 x 10.00 = 40.00 (1, 2, 3, 4); side pot 1: 3 x 20.00 = 60.00 (1, 2, 4); then 1 and 2 bet
    on: side pot 2."""
    rnd = seated(
        "omaha-high",
        4,
        {1: "100.00", 2: "100.00", 3: "10.00", 4: "30.00"},
        blinds=[(1, "1.00"), (2, "2.00")],
        betting={"limit": "no-limit"},
    )
    dealt_in_order(
        rnd,
        {1: "Qc Jc 9h 8h 2s", 2: "Qs Ts 9s 8c 2d", 3: "As Ah Kc Qd Jh", 4: "Ks Kh 9c 9d Tc"},
    )
    acts(rnd, (3, "all_in"), (4, "all_in"), (1, "call"), (2, "call"))
    rnd.apply(cards("burn", "2h"))
    rnd.apply(cards("board", "Ad Kd 7s"))
    acts(rnd, (1, "bet", "10.00"), (2, "call"))
    rnd.apply(cards("burn", "3c"))
    rnd.apply(cards("board", "4c"))
    acts(rnd, (1, "check"), (2, "check"))
    rnd.apply(cards("burn", "3s"))
    rnd.apply(cards("board", "5d"))
    acts(rnd, (1, "check"), (2, "check"))
    assert rnd.waiting_for() == ()
    s = rnd.settle()
    # Board Ad Kd 7s 4c 5d. Seat 3: As Ah + Ad Kd 7s, three aces, best of all: wins the main pot 40.00.
    # Seat 4: Ks Kh + Ad Kd 7s: three kings, wins side pot 1 (60.00) against 1 and 2.
    # Seat 1: Qc Jc + Ad Kd 7s, ace-king-queen-jack-seven; seat 2: Qs Ts + Ad Kd 7s, ace-king-queen-ten:
    # seat 1 wins side pot 2 (20.00, seat 1's and 2's 10.00 each).
    nets = {(o.seat, o.wager): o.net for o in s.outcomes}
    assert nets[(3, "main_pot")] == money("30.00")
    assert nets[(4, "side_pot_1")] == money("40.00")
    assert nets[(1, "side_pot_2")] == money("10.00") and nets[(2, "side_pot_2")] == -money("10.00")
    assert sum(o.net for o in s.outcomes) == 0


def test_a_short_all_in_raise_does_not_reopen_the_raise() -> None:
    """No-limit, blinds 1.00/2.00. Seat 3 raises to 6.00; seat 4, with 9.00, goes all in (a raise of 3.00,
    short of the 4.00 minimum). Seats 1 and 2 had not acted on 6.00: they may raise. Seat 3, who made the
    bet, may only call or fold."""
    rnd = seated(
        "triple-draw-a-5",
        4,
        {1: "100.00", 2: "100.00", 3: "100.00", 4: "9.00"},
        blinds=[(1, "1.00"), (2, "2.00")],
        betting={"limit": "no-limit"},
    )
    rnd.apply(deal(5))
    acts(rnd, (3, "raise", "6.00"), (4, "all_in"), (1, "fold"), (2, "call"))
    round_refuses(rnd, decide(3, "raise", "20.00"), "did not reopen the raise to him")
    rnd.apply(decide(3, "call"))
    assert rnd.state.phase == BURNING


# --- the draws, the burns, the showdown without a reader ---------------------------------------


def _counted_to_showdown(variant: str = "triple-draw-2-7") -> Round[Any, Any]:
    """Button 3; players 1, 2, 3; blinds 1 and 2; everyone calls and checks; three draws, all pat."""
    rnd = seated(variant, 3, {1: "50.00", 2: "50.00", 3: "50.00"}, blinds=[(1, "1.00"), (2, "2.00")])
    rnd.apply(deal(5))
    acts(rnd, (3, "call"), (1, "call"), (2, "check"))
    for _ in range(3):
        rnd.apply(deal(1, "burn"))
        acts(rnd, (1, "stand_pat"), (2, "stand_pat"), (3, "stand_pat"))
        acts(rnd, (1, "check"), (2, "check"), (3, "check"))
    return rnd


def test_the_showdown_asks_for_the_hands_shown_and_never_a_mucked_one() -> None:
    """§ 637a.20(k): "If more than one player remains ... a showdown". Without a reader the hands are keyed
    as they are shown; seat 2 mucks and is never asked for his."""
    rnd = _counted_to_showdown()
    assert rnd.state.phase == SHOWDOWN
    (waiting,) = rnd.waiting_for()
    assert waiting.seat == 1 and "shows his hand or mucks" in waiting.what
    round_refuses(rnd, NO_MORE_BETS, "a poker table has no 'no more bets'")
    rnd.apply(cards(1, "7c 5d 4h 3s 2c"))
    round_refuses(rnd, cards(3, "7c 6d 5h 4s 3c"), "7c is not in the deck: seat 1 holds it")
    round_refuses(rnd, cards(3, "7d 6d"), "shows his 5 cards, not 2")
    rnd.apply(decide(2, "fold"))
    assert rnd.waiting_for()[0].seat == 3
    rnd.apply(cards(3, "8c 6d 5h 4s 3c"))
    s = rnd.settle()
    # Pot 6.00: seat 1's seven-five wins; seat 1 +4.00, seats 2 and 3 -2.00.
    assert {o.seat: o.net for o in s.outcomes} == {1: money("4.00"), 2: -money("2.00"), 3: -money("2.00")}


def test_the_reshuffle_counted_when_the_deck_runs_short() -> None:
    """§ 637a.20(h): "If an insufficient number of cards remain in the deck for a player to draw new cards,
    the discarded cards, except the cards discarded by that player, shall be reshuffled". Seven players:
    35 dealt, one burned: 16 left. Seats 1-3 draw five each (15), seat 4 discards five: one from the deck,
    four from the 15 reshuffled discards of seats 1-3."""
    stacks = {s: "20.00" for s in range(1, 8)}
    rnd = seated("triple-draw-2-7", 7, stacks, blinds=[(1, "1.00"), (2, "2.00")])
    rnd.apply(deal(5))
    acts(rnd, (3, "call"), (4, "call"), (5, "call"), (6, "call"), (7, "call"), (1, "call"), (2, "check"))
    rnd.apply(deal(1, "burn"))
    for seat in (1, 2, 3):
        rnd.apply(deal(5, "dealer"))
        rnd.apply(deal(5, str(seat)))
    rnd.apply(deal(5, "dealer"))
    rnd.apply(deal(5, "4"))
    assert any("reshuffled" in n and "seat 4's own 5 discards stay out" in n for n in rnd.state.notes)
    # Left: 15 - 4 = 11 reshuffled cards. Seats 5 and 6 draw five each: 1 left, and the discards of 4, 5
    # and 6 (15) wait. Seat 7 discards two: one from the deck, then a second reshuffle (seat 4's cards go
    # into it now; seat 7's own two stay out) and one from it: 14 left.
    rnd.apply(deal(5, "dealer"))
    rnd.apply(deal(5, "5"))
    rnd.apply(deal(5, "dealer"))
    rnd.apply(deal(5, "6"))
    rnd.apply(deal(2, "dealer"))
    round_refuses(rnd, deal(3, "7"), "2 discarded cards to replace, not 3")
    rnd.apply(deal(2, "7"))
    assert rnd.state.counted.reshuffles == 2 and rnd.state.counted.stub == 14
    assert "seat 7's own 2 discards stay out" in rnd.state.notes[-1]


def test_a_misdeal_returns_every_bet() -> None:
    """The texts give no irregularity for the poker room: a misdeal is the floorperson's decision, and
    every bet is returned."""
    rnd = _triple_draw_dealt()
    rnd.apply(decide(3, "call"))
    rnd.apply(irregularity("misdeal", detail="two cards exposed in the deal"))
    s = rnd.settle()
    assert s.void and all(o.result is Result.VOID for o in s.outcomes)
    round_refuses(rnd, decide(4, "call"), "not a step of the round now|a call is made in a betting round")
    # After a misdeal the button stays.
    assert GAME.next_round(rnd.state) == (pos(4),)


def test_the_button_moves_and_the_kill_is_carried() -> None:
    """§ 637a.20(c)(2): "the button shall rotate around the table in a clockwise manner after each round of
    play". Kill option, qualifying pot 5.00: seat 1 wins the whole pot (6.00; his last bet of 4.00 nobody
    called is returned), so he kills the next round and posts the kill blind (twice the last Blind Bet,
    4.00), and the fixed bet doubles."""
    rnd = seated(
        "triple-draw-2-7",
        3,
        {1: "50.00", 2: "50.00", 3: "50.00"},
        blinds=[(1, "1.00"), (2, "2.00")],
        kill={"option": "kill", "qualifying_pot": "5.00"},
    )
    rnd.apply(deal(5))
    acts(rnd, (3, "call"), (1, "call"), (2, "check"))
    for street in range(3):
        rnd.apply(deal(1, "burn"))
        acts(rnd, (1, "stand_pat"), (2, "stand_pat"), (3, "stand_pat"))
        if street < 2:
            acts(rnd, (1, "check"), (2, "check"), (3, "check"))
    round_refuses(rnd, decide(1, "bet", "2.00"), "fixed-limit table is to 4.00")
    acts(rnd, (1, "bet", "4.00"), (2, "fold"), (3, "fold"))
    assert rnd.waiting_for() == ()
    assert "kill_pot" in rnd.settle().for_seat(1)["main_pot"].flags
    carried = GAME.next_round(rnd.state)
    assert carried == (pos(1), decide(1, "kill"))
    nxt = Round.begin(GAME, rnd.rules)
    for e in carried:
        nxt.apply(e)
    for seat in (1, 2, 3):
        nxt.apply(sit(seat, "50.00"))
    nxt.apply(wager(2, "blind", "1.00"))
    nxt.apply(wager(3, "blind", "2.00"))
    round_refuses(nxt, deal(5), "seat 1 posts the kill blind")
    round_refuses(nxt, wager(1, "kill", "2.00"), "the kill blind is 4.00")
    nxt.apply(wager(1, "kill", "4.00"))
    nxt.apply(deal(5))
    # The kill blind acts last; the bet to call is 4.00, a raise is by 4.00 (2.00 doubled).
    assert nxt.state.betting.pending == (2, 3, 1) and nxt.state.betting.high == money("4.00")
    round_refuses(nxt, decide(2, "raise", "6.00"), "to 8.00")
    nxt.apply(decide(2, "raise", "8.00"))


# --- properties: chips conserved, pots sum to the bets -----------------------------------------


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_random_rounds_conserve_every_chip(data: st.DataObject) -> None:
    """Random legal rounds of Triple Draw and Omaha, random stacks, limits and actions: what the players
    receive equals what they put in, each player's loss at most his bets, nobody bets more than his
    chips."""
    variant = data.draw(st.sampled_from(["triple-draw-2-7", "badeucey", "omaha-high-low", "badugi"]))
    limit = data.draw(st.sampled_from(["no-limit", "pot-limit", "fixed"]))
    n = data.draw(st.integers(2, 6))
    seats = sorted(data.draw(st.sets(st.integers(1, 7), min_size=n, max_size=n)))
    stacks = {s: data.draw(st.integers(1, 60)) * 100 for s in seats}
    button = data.draw(st.sampled_from(seats))
    rnd = Round.begin(GAME, rules(variant, betting={"limit": limit}, odd_chip={"tie": "left_of_button"}))
    rnd.apply(pos(button))
    for s in seats:
        rnd.apply(decide(s, "participate", f"{stacks[s] // 100}.00"))
    from controller.rules.games.poker_room.button import blind_seats

    for s, amount in zip(blind_seats(button, seats, 2), (100, 200), strict=False):
        rnd.apply(Event("wager", seat=s, wager="blind", amount=min(amount, stacks[s])))
    deck = list(standard_deck())
    deck = data.draw(st.permutations(deck))
    v = rnd.state.variant
    from controller.rules.games.poker_room.button import deal_order

    order = deal_order(button, seats)
    hands: dict[int, list[Any]] = {s: [] for s in seats}
    for _ in range(v.hand_size):
        for s in order:
            c = deck.pop()
            hands[s].append(c)
            rnd.apply(Event("cards", to=str(s), cards=(c,)))
    for _ in range(200):
        state = rnd.state
        if not rnd.waiting_for():
            break
        if state.phase == BETTING:
            b = state.betting
            seat = b.turn
            choice = data.draw(st.sampled_from(["fold", "check", "call", "raise", "all_in"]))
            options: list[Event] = [decide(seat, choice)]
            if choice == "raise":
                to = b.high + b.min_raise if b.high else b.min_raise
                options = [Event("decision", seat=seat, action="raise" if b.high else "bet", amount=to)]
            options += [decide(seat, "check"), decide(seat, "call"), decide(seat, "fold")]
            for e in options:
                try:
                    rnd.apply(e)
                    break
                except IllegalEvent:
                    continue
        elif state.phase == BURNING:
            rnd.apply(Event("cards", to="burn", cards=(deck.pop(),)))
        elif state.phase == DRAWING:
            seat = (
                state.drawing.seat
                if state.drawing
                else next(s for s in deal_order(button, state.live) if s not in state.drawn)
            )
            player = state.seat(seat)
            k = min(data.draw(st.integers(0, 2)), len(deck))  # the script's own deck: no reshuffle
            if k == 0 or not deck:
                rnd.apply(decide(seat, "stand_pat"))
            else:
                out = player.cards[:k]
                rnd.apply(Event("cards", to="dealer", cards=out))
                rnd.apply(Event("cards", to=str(seat), cards=tuple(deck.pop() for _ in range(k))))
        elif state.phase == "board":
            want = 3 if not state.board else 1
            rnd.apply(Event("cards", to="board", cards=tuple(deck.pop() for _ in range(want))))
        else:
            raise AssertionError(f"stuck in {state.phase}: {rnd.waiting_for()}")
    s = rnd.settle()
    put = {p.seat: p.total for p in rnd.state.seats}
    assert all(put[p] <= stacks[p] for p in seats)
    assert sum(o.net for o in s.outcomes) == 0
    for o in s.outcomes:
        assert -o.stake <= o.net
    assert sum(o.stake for o in s.outcomes) == sum(put.values())


def test_a_round_record_without_players_joining_is_still_a_showdown_record() -> None:
    """A round record that gives the bets as totals (no player joining) replays as before; a table deals
    the procedure (the daemon refuses the rest)."""
    rnd = Round.begin(GAME, rules("badugi"))
    rnd.apply(wager(1, "bet", "5.00"))
    with pytest.raises(IllegalEvent, match="begins with the button"):
        GAME.apply(rnd.state, sit(2, "10.00"))


# --- the draw for the button, § 637a.19(c)(1)(ii) -----------------------------------------------


def test_the_draw_for_the_button_places_it_in_front_of_the_highest_card() -> None:
    """§ 637a.20(c)(1): "At commencement of play, the button shall be placed in front of either ... (ii)
    The player randomly determined by rank of a single card dealt." Seats 2, 4, 6 join; they are dealt
    Kd, 7c, Ks: two kings, the king of spades above the king of diamonds by suit (spades, hearts,
    diamonds, clubs, § 637a.19(k)(2)(iv)): the button to seat 6; the Blind Bets then from its left
    (seat 2, then seat 4), and the draw's cards go back to the deck (Ks is dealt again)."""
    rnd = Round.begin(GAME, rules("triple-draw-2-7", **{"button.start": "high_card"}))
    for seat in (2, 4, 6):
        rnd.apply(sit(seat, "50.00"))
    round_refuses(rnd, wager(2, "blind", "1.00"), "follows the button: the draw for the button")
    round_refuses(rnd, pos(2), r"places the button by the draw .*§ 637a.20\(c\)\(1\)\(ii\)")
    round_refuses(rnd, deal(5), "the deal follows the button")
    round_refuses(rnd, cards(2, "Kd 7c"), "a single card to each player, not 2")
    rnd.apply(cards(2, "Kd"))
    round_refuses(rnd, cards(2, "Qh"), "seat 2 has his card")
    round_refuses(rnd, cards(4, "Kd"), "Kd was dealt to seat 2")
    round_refuses(rnd, sit(7, "50.00"), "players join before it")
    rnd.apply(cards(4, "7c"))
    assert rnd.state.button is None
    rnd.apply(cards(6, "Ks"))
    assert rnd.state.button == 6
    assert "the button to seat 6" in rnd.state.notes[-1]
    round_refuses(rnd, pos(2), "the button is placed before any bet or card")
    round_refuses(rnd, wager(4, "blind", "1.00"), "immediate left of the button, seat 2")
    rnd.apply(wager(2, "blind", "1.00"))
    rnd.apply(wager(4, "blind", "2.00"))
    dealt_in_order(rnd, {2: "Ks Qs Js Ts 9s", 4: "2c 3c 4c 5c 7d", 6: "2d 3d 4d 5d 7h"})
    betting = rnd.state.betting
    assert rnd.state.phase == BETTING and betting is not None and betting.turn == 6


def test_a_button_placed_by_the_draw_is_carried_clockwise() -> None:
    """(c)(2): "Thereafter, the button shall rotate around the table in a clockwise manner after each
    round of play": the round whose button the draw placed at seat 3 carries it to seat 1 (seats 1-3)."""
    rnd = Round.begin(GAME, rules("badugi", **{"button.start": "high_card"}))
    for seat in (1, 2, 3):
        rnd.apply(sit(seat, "20.00"))
    for seat, card in ((1, "9c"), (2, "Td"), (3, "Ah")):
        rnd.apply(cards(seat, card))
    assert rnd.state.button == 3
    rnd.apply(wager(1, "blind", "1.00"))
    rnd.apply(wager(2, "blind", "2.00"))
    rnd.apply(deal(4))
    acts(rnd, (3, "fold"), (1, "fold"))
    assert rnd.state.phase == "over"
    assert [e.to_json() for e in GAME.next_round(rnd.state)] == [{"type": "position", "value": 1}]


# --- a disputed pot: the floorperson's ruling (no irregularity section in §§ 637a.19-637a.21) ----


def test_a_disputed_pot_rules_a_hand_dead_only_at_the_showdown() -> None:
    """Badugi, seats 1-3, button 3: a ruling names a seat only at the showdown (before it the player folds
    in his turn); a ruling needs its words; at the showdown the dead hand leaves seat 2 alone: he takes
    the pot (6.00: +4.00)."""
    rnd = seated("badugi", 3, {1: "20.00", 2: "20.00", 3: "20.00"}, blinds=[(1, "1.00"), (2, "2.00")])
    rnd.apply(deal(4))
    round_refuses(rnd, irregularity("disputed_pot", seat=3, detail="dead"), "ruled dead at the showdown")
    round_refuses(rnd, irregularity("disputed_pot"), "give the floorperson's ruling in words")
    rnd.apply(irregularity("disputed_pot", detail="the blind stands as posted"))
    acts(rnd, (3, "call"), (1, "call"), (2, "check"))
    for _ in range(3):
        rnd.apply(deal(1, "burn"))
        for seat in (1, 2, 3):
            rnd.apply(decide(seat, "stand_pat"))
        acts(rnd, (1, "check"), (2, "check"), (3, "check"))
    assert rnd.state.phase == SHOWDOWN
    rnd.apply(cards(1, "Ac 2d 3h 4s"))
    rnd.apply(irregularity("disputed_pot", seat=1, detail="seat 1's hand is dead"))
    round_refuses(rnd, irregularity("disputed_pot", seat=1, detail="again"), "seat 1 has folded")
    rnd.apply(decide(3, "fold"))
    nets = {o.seat: o.net for o in rnd.settle().outcomes}
    assert nets == {1: -200, 2: 400, 3: -200}


def test_the_board_keyed_without_a_reader_is_counted_off_the_deck() -> None:
    """§ 637a.19(h)-(j): the dealer burns and deals the community cards from the deck. Without a reader
    the round counts the deck: Omaha, three players dealt five each (15), a burn (1) and the flop keyed
    (3): 33 left; the fourth and the fifth, each after a burn: 29 left. A card of the board keyed twice
    is refused, nothing counted."""
    rnd = seated("omaha-high", 3, {1: "50.00", 2: "50.00", 3: "50.00"}, blinds=[(1, "1.00"), (2, "2.00")])
    rnd.apply(deal(5))
    acts(rnd, (3, "call"), (1, "call"), (2, "check"))
    rnd.apply(deal(1, "burn"))
    rnd.apply(cards("board", "3h 4h 6d"))
    assert rnd.state.counted.stub == 33
    acts(rnd, (1, "check"), (2, "check"), (3, "check"))
    rnd.apply(deal(1, "burn"))
    round_refuses(rnd, cards("board", "6d"), "6d is not in the deck: it is on the board")
    assert rnd.state.counted.stub == 32  # the burn only
    rnd.apply(cards("board", "Jd"))
    assert rnd.state.counted.stub == 31
    acts(rnd, (1, "check"), (2, "check"), (3, "check"))
    rnd.apply(deal(1, "burn"))
    rnd.apply(cards("board", "Qs"))
    assert rnd.state.counted.stub == 29 and rnd.state.phase == BETTING
