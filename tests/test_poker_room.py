"""The poker room (§§ 637a.19-637a.21): button and blinds, pots and side pots, the odd chip, the draws and
their reshuffle, the showdowns of every variant, illegal events, the Rules Submission, the examples.

Every expected amount below is worked out by hand in the comment or docstring beside it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.core.cards import Card, format_cards, parse_card, parse_cards, standard_deck
from controller.rules.core.engine import IllegalEvent, Round, play
from controller.rules.core.events import Event
from controller.rules.core.explain import explain
from controller.rules.core.money import Cents, parse_money
from controller.rules.core.options import RulesError, load_rules, rules_to_mapping
from controller.rules.core.record import load_record, replay
from controller.rules.core.settlement import Result, Settlement
from controller.rules.core.submission import parse_submission
from controller.rules.games.poker_room.button import (
    HIGH_CARD,
    RIGHT_OF_DEALER,
    SeatingError,
    blind_seats,
    deal_order,
    first_to_act,
    first_to_act_after_first_round,
    left_of,
    next_button,
    starting_button,
    straddle_seat,
)
from controller.rules.games.poker_room.draw import Deck, DrawDeck, DrawError
from controller.rules.games.poker_room.game import (
    GAME,
    KILL_FLAG,
    RULES_CHECKS,
    VARIANTS,
    PokerRoomRules,
    PokerRoomState,
    pot_awards,
)
from controller.rules.games.poker_room.pots import (
    HIGH_CARD_BY_SUIT,
    LEFT_OF_BUTTON,
    LOW_CARD_BY_SUIT,
    ODD_CHIP,
    ODD_CHIP_LIMIT,
    PotError,
    build_pots,
    divide,
    odd_chip_seat,
    split_among,
)

from .rounds import NO_MORE_BETS, cards, decide, refused, wager

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "poker-room"


# --- helpers --------------------------------------------------------------------------------


def rules(variant: str, **extra: object) -> PokerRoomRules:
    return load_rules(PokerRoomRules, {"variant": variant, **extra}, "test", RULES_CHECKS)


def pos(button: int) -> Event:
    return Event("position", value=button)


def showdown(
    variant: str,
    hands: Mapping[int, str],
    bets: Mapping[int, str],
    board: str = "",
    folded: Iterable[int] = (),
    button: int | None = None,
    **extra: object,
) -> Settlement:
    """A showdown-only round: the button (if given), the bets, the hands, the board, the folds."""
    events = [pos(button)] if button is not None else []
    events += [wager(s, "bet", a) for s, a in bets.items()]
    events += [cards(s, h) for s, h in hands.items()]
    if board:
        events.append(cards("board", board))
    events += [decide(s, "fold") for s in folded]
    events.append(NO_MORE_BETS)
    return play(GAME, rules(variant, **extra), {}, events)


def received(settlement: Settlement) -> dict[tuple[int, str], Cents]:
    """What the dealer pushes to each player from each pot: stake + net."""
    return {(o.seat, o.wager): o.stake + o.net for o in settlement.outcomes}


def cents(text: str) -> Cents:
    return parse_money(text)


def run(variant: str, events: Sequence[Event], **extra: object) -> PokerRoomState:
    state = GAME.start(rules(variant, **extra), {})
    for e in events:
        state = GAME.apply(state, e)
    return state


# --- the button and the blinds, § 637a.19(c)-(h) ---------------------------------------------


def test_clockwise_is_up_the_seat_numbers_and_the_button_is_dealt_last() -> None:
    """§ 637a.19(f): "Starting with the player to the immediate left of the button and continuing around the
    table in a clockwise manner ... The player with the button shall be the last player to receive a card"."""
    assert deal_order(3, [1, 2, 3, 5, 6]) == (5, 6, 1, 2, 3)
    assert deal_order(6, [1, 2, 3, 5, 6]) == (1, 2, 3, 5, 6)
    assert left_of(3, [1, 2, 3, 5, 6]) == 5
    assert left_of(6, [1, 2, 3, 5, 6]) == 1  # round the table past the dealer
    # The button's seat emptied since it moved there: the order still runs from it.
    assert deal_order(4, [1, 2, 3, 5, 6]) == (5, 6, 1, 2, 3)


def test_the_button_at_the_commencement_of_play() -> None:
    """§ 637a.19(c)(1): "(i) The first player to the right of the dealer. (ii) The player randomly
    determined by rank of a single card dealt." Seat numbers run from the dealer's left, so the first
    player to his right is the highest occupied seat."""
    assert starting_button([2, 4, 7], RIGHT_OF_DEALER) == 7
    one_card = {2: parse_card("9s"), 4: parse_card("Kc"), 7: parse_card("3h")}
    assert starting_button([2, 4, 7], HIGH_CARD, one_card) == 4
    # Two kings: the suit order of § 637a.19(k)(2)(iv) (spades, hearts, diamonds, clubs) decides.
    kings = {2: parse_card("Kd"), 4: parse_card("Kc"), 7: parse_card("Kh")}
    assert starting_button([2, 4, 7], HIGH_CARD, kings) == 7
    with pytest.raises(SeatingError, match="one card for each of seats 2, 4, 7"):
        starting_button([2, 4, 7], HIGH_CARD, {2: parse_card("Kd")})
    with pytest.raises(SeatingError, match="the same card"):
        starting_button([2, 4], HIGH_CARD, {2: parse_card("Kd"), 4: parse_card("Kd")})
    with pytest.raises(SeatingError, match="one of right_of_dealer, high_card"):
        starting_button([2, 4], "dice")


def test_the_button_rotates_clockwise_and_the_blind_is_to_its_left() -> None:
    """§ 637a.19(c)(2) "rotate around the table in a clockwise manner after each round of play"; (d) "the
    player to the immediate left of the button shall ... [place] a Blind Bet", additional Blind Bets
    "immediately after"; (e) the Straddle by "the player to the left of the player who placed a Blind Bet";
    (g) the first to act is to the left of the blinds (or the straddle); (h) later rounds from the button's
    left."""
    seats = [1, 3, 4, 8]
    assert next_button(3, seats) == 4
    assert next_button(8, seats) == 1
    assert blind_seats(8, seats, 1) == (1,)
    assert blind_seats(8, seats, 2) == (1, 3)
    assert straddle_seat(8, seats, 2) == 4
    assert first_to_act(8, seats, 2) == 4
    assert first_to_act(8, seats, 2, straddle=True) == 8
    assert first_to_act_after_first_round(8, [3, 4]) == 3
    # Two players: the other posts the first blind, the button the second; the first to act is the other.
    assert blind_seats(5, [2, 5], 2) == (2, 5)
    assert first_to_act(5, [2, 5], 2) == 2
    with pytest.raises(SeatingError, match="3 Blind Bets need 3 players; 2 are seated"):
        blind_seats(5, [2, 5], 3)
    with pytest.raises(SeatingError, match="at least the one Blind Bet"):
        blind_seats(5, [2, 5], 0)
    with pytest.raises(SeatingError, match="listed twice"):
        deal_order(1, [2, 2])
    with pytest.raises(SeatingError, match="no player"):
        deal_order(1, [])


@given(st.sets(st.integers(1, 10), min_size=2, max_size=10), st.integers(1, 10))
def test_every_player_has_the_button_once_a_lap(seats: set[int], start: int) -> None:
    """Rotating the button once per round, each player has it exactly once in as many rounds as players,
    and each round's first blind is the player to the immediate left of that round's button."""
    button = start
    holders = []
    for _ in range(len(seats)):
        button = next_button(button, seats)
        holders.append(button)
        assert blind_seats(button, seats, 1) == (left_of(button, seats),)
        assert deal_order(button, seats)[-1] == button
    assert sorted(holders) == sorted(seats)
    assert next_button(button, seats) == holders[0]


# --- pots and side pots ---------------------------------------------------------------------


def test_one_pot_when_everyone_still_in_put_in_the_same() -> None:
    pots = build_pots({1: 1000, 2: 1000, 3: 200}, live=[1, 2])
    assert [(p.name, p.amount, p.eligible) for p in pots] == [("main_pot", 2200, (1, 2))]
    assert pots[0].contribution(3) == 200


def test_side_pots_from_all_in_players() -> None:
    """Seat 1 is all in for 10.00, seat 2 for 25.00, seats 3 and 4 put in 50.00; seat 5 folded after 5.00.
    main pot: 10 x 4 + 5 = 45.00, seats 1-4; side pot 1: 15 x 3 = 45.00, seats 2-4;
    side pot 2: 25 x 2 = 50.00, seats 3 and 4."""
    pots = build_pots({1: 1000, 2: 2500, 3: 5000, 4: 5000, 5: 500}, live=[1, 2, 3, 4])
    assert [(p.name, p.amount, p.eligible) for p in pots] == [
        ("main_pot", 4500, (1, 2, 3, 4)),
        ("side_pot_1", 4500, (2, 3, 4)),
        ("side_pot_2", 5000, (3, 4)),
    ]
    assert pots[1].contributions == ((2, 1500), (3, 1500), (4, 1500))
    assert not any(p.returned for p in pots)


def test_a_bet_nobody_called_is_returned() -> None:
    """Seat 1 is all in for 5.00 and seat 2 bets 20.00: main pot 10.00; the 15.00 nobody matched is a pot
    only seat 2 put chips in and may win: returned."""
    pots = build_pots({1: 500, 2: 2000}, live=[1, 2])
    assert [(p.amount, p.eligible, p.returned) for p in pots] == [(1000, (1, 2), False), (1500, (2,), True)]


def test_a_folded_bet_above_every_live_total_stays_in_the_last_pot() -> None:
    """Seat 3 folded after putting in 40.00; seats 1 and 2 are in for 10.00: the 30.00 above stays in the
    pot (dead money), 60.00 in all."""
    pots = build_pots({1: 1000, 2: 1000, 3: 4000}, live=[1, 2])
    assert [(p.amount, p.eligible) for p in pots] == [(6000, (1, 2))]
    assert pots[0].contribution(3) == 4000
    with pytest.raises(PotError, match="no player remains"):
        build_pots({1: 100}, live=[])


@given(
    st.dictionaries(st.integers(1, 9), st.integers(0, 50_000), min_size=2, max_size=9),
    st.data(),
)
def test_pots_hold_every_chip_and_only_who_matched_may_win(contributions: dict[int, int], data: Any) -> None:
    live = data.draw(st.sets(st.sampled_from(sorted(contributions)), min_size=1))
    pots = build_pots(contributions, live)
    assert sum(p.amount for p in pots) == sum(contributions.values())
    for seat, total in contributions.items():
        assert sum(p.contribution(seat) for p in pots) == total
    for p in pots:
        assert p.amount == sum(c for _, c in p.contributions)
        assert set(p.eligible) <= set(live)
        # an eligible player put in as much as any other player still in the round did to this pot
        live_parts = [p.contribution(s) for s in live if p.contribution(s)]
        assert all(p.contribution(s) == max(live_parts) for s in p.eligible if live_parts)


# --- dividing a pot: the odd chip ------------------------------------------------------------


def test_divide_in_chips_with_the_excess_at_most_one_dollar() -> None:
    """§ 637a.19(k)(2)(i): "If a pot cannot be divided equally, the excess, which may not exceed $1"."""
    assert divide(3100, 2, 100) == (1500, 100)  # $31 in $1 chips: 15 + 15 and the odd $1
    assert divide(3000, 2, 100) == (1500, 0)
    assert divide(1000, 3, 25) == (325, 25)  # $10 three ways in quarters: 3.25 each and 0.25
    # $31.50 in $1 chips would leave $1.50: divided to the cent instead.
    assert divide(3150, 2, 100) == (1575, 0)
    # $11 three ways in $1 chips would leave $2: to the cent, 3.66 each and 0.02.
    assert divide(1100, 3, 100) == (366, 2)
    assert divide(1, 2, 1) == (0, 1)
    with pytest.raises(PotError):
        divide(100, 0, 1)
    with pytest.raises(PotError):
        divide(100, 2, 0)


@given(st.integers(0, 10_000_000), st.integers(1, 9), st.sampled_from([1, 5, 25, 50, 100]))
def test_the_excess_never_exceeds_one_dollar(amount: int, ways: int, unit: int) -> None:
    share, excess = divide(amount, ways, unit)
    assert ways * share + excess == amount
    assert 0 <= excess <= ODD_CHIP_LIMIT
    assert share % unit == 0 or excess < ways  # in chips, or to the cent


def test_odd_chip_by_suit_high_and_low() -> None:
    """§ 637a.19(k)(2)(ii) "the player with the highest ranking high card by suit"; (iii) "the player with
    the lowest ranking low hand Poker card by suit"; (iv) spades, hearts, diamonds, clubs."""
    ace_high = lambda c: c.rank  # noqa: E731
    ace_low = lambda c: 1 if c.rank == 14 else c.rank  # noqa: E731
    straights = {1: [parse_cards("Ah Kd Qc Js Td")], 2: [parse_cards("As Kh Qd Jc Tc")]}
    assert odd_chip_seat(HIGH_CARD_BY_SUIT, straights, ace_high, None) == 2  # ace of spades
    # The top cards are the same board card: the next card that differs decides (Jh against Js).
    shared = {1: [parse_cards("As Kd Qc Jh Th")], 2: [parse_cards("As Kd Qc Js Tc")]}
    assert odd_chip_seat(HIGH_CARD_BY_SUIT, shared, ace_high, None) == 2
    # A player who can make the tied hand two ways is judged by his best grouping.
    two_ways = {
        1: [parse_cards("Ad Kd Qc Js Td"), parse_cards("As Kd Qc Js Td")],
        2: [parse_cards("Ah Kh Qd Jc Tc")],
    }
    assert odd_chip_seat(HIGH_CARD_BY_SUIT, two_ways, ace_high, None) == 1
    lows = {1: [parse_cards("7h 4s 3d 2c As")], 2: [parse_cards("7d 4c 3h 2s Ac")]}
    assert odd_chip_seat(LOW_CARD_BY_SUIT, lows, ace_low, None) == 2  # the ace of clubs is the lowest card
    assert odd_chip_seat(LEFT_OF_BUTTON, lows, ace_low, 1) == 2
    assert odd_chip_seat(LEFT_OF_BUTTON, lows, ace_low, 2) == 1
    with pytest.raises(PotError, match="does not say where the button is"):
        odd_chip_seat(LEFT_OF_BUTTON, lows, ace_low, None)
    with pytest.raises(PotError, match="no odd chip rule 'dealer'"):
        odd_chip_seat("dealer", lows, ace_low, None)


def test_split_among_asks_for_the_odd_chip_only_when_there_is_one() -> None:
    def never() -> int:
        raise AssertionError("no excess, no odd chip")

    shares = split_among(3000, "pot", [4, 2], 100, never)
    assert [(s.seat, s.amount, s.odd_chip, s.ways) for s in shares] == [(2, 1500, 0, 2), (4, 1500, 0, 2)]
    shares = split_among(3100, "pot", [4, 2], 100, lambda: 4)
    assert [(s.seat, s.amount, s.odd_chip) for s in shares] == [(2, 1500, 0), (4, 1600, 100)]
    with pytest.raises(PotError, match="not one of the tied players"):
        split_among(3100, "pot", [4, 2], 100, lambda: 3)


@given(
    st.integers(0, 1_000_000),
    st.sets(st.integers(1, 9), min_size=1, max_size=9),
    st.sampled_from([1, 25, 50, 100]),
    st.data(),
)
def test_a_split_hands_out_the_whole_part_and_the_odd_chip_to_one_player(
    amount: int, winners: set[int], unit: int, data: Any
) -> None:
    chosen = data.draw(st.sampled_from(sorted(winners)))
    shares = split_among(amount, "pot", sorted(winners), unit, lambda: chosen)
    assert sum(sh.amount for sh in shares) == amount
    assert len(shares) == len(winners)
    amounts = sorted(sh.amount - sh.odd_chip for sh in shares)
    assert amounts[0] == amounts[-1]  # equal shares, apart from the excess
    assert sum(1 for sh in shares if sh.odd_chip) <= 1
    assert all(sh.odd_chip <= ODD_CHIP_LIMIT for sh in shares)
    assert all(sh.seat == chosen for sh in shares if sh.odd_chip)


# --- the deck of the draw games, § 637a.20(h) -------------------------------------------------


def test_the_deck_counts_cards_nobody_saw() -> None:
    deck = DrawDeck()
    assert deck.deck.size == 52
    deck = deck.deal(parse_card("As")).burn().unseen(5)
    assert deck.deck.size == 45
    assert parse_card("As") not in deck.deck.candidates
    assert len(deck.deck.candidates) == 51  # the burn card and the five unseen cards may be any of them
    with pytest.raises(DrawError, match="As is not in the deck"):
        deck.deal(parse_card("As"))
    with pytest.raises(DrawError, match="cannot be dealt from a deck of 45"):
        deck.unseen(46)
    empty = DrawDeck(Deck(frozenset(), 0))
    assert empty.burn() == empty  # nothing to burn
    with pytest.raises(DrawError, match="the deck is empty"):
        empty.deal(parse_card("2c"))


def short_deck() -> DrawDeck:
    """A deck holding one card (9c) of two candidates (9c, 9d; one of them was burned), and discards of
    seats 1 (2c 3c), 2 (4d) and 3 (5h 6h)."""
    deck = DrawDeck(Deck(frozenset(parse_cards("9c 9d")), 1))
    deck = deck.discard(1, parse_cards("2c 3c")).discard(2, parse_cards("4d"))
    return deck.discard(3, parse_cards("5h 6h"))


def test_the_reshuffle_deals_the_deck_first_then_the_others_discards() -> None:
    """§ 637a.20(h): "If an insufficient number of cards remain in the deck for a player to draw new cards,
    the discarded cards, except the cards discarded by that player, shall be reshuffled and the new cards
    shall be dealt to the player." Seat 3 needs three cards; the deck holds one."""
    deck = short_deck()
    assert deck.may_draw(3) == frozenset(parse_cards("9c 9d"))
    with pytest.raises(DrawError, match="still holds 1 card: the discards are reshuffled only when"):
        deck.draw(3, parse_card("2c"))
    deck = deck.draw(3, parse_card("9c"))  # the last card of the deck
    assert deck.deck.size == 0
    assert deck.may_draw(3) == frozenset(parse_cards("2c 3c 4d"))
    with pytest.raises(DrawError, match="5h is seat 3's own discard"):
        deck.draw(3, parse_card("5h"))
    with pytest.raises(DrawError, match="9d is not among the other players' discards"):
        deck.draw(3, parse_card("9d"))  # the burned card
    deck = deck.draw(3, parse_card("4d"))
    (reshuffle,) = deck.reshuffles
    assert (reshuffle.seat, format_cards(reshuffle.cards), format_cards(reshuffle.set_aside)) == (
        3,
        "2c 3c 4d",
        "5h 6h",
    )
    assert deck.deck == Deck(frozenset(parse_cards("2c 3c")), 2)
    assert deck.discards == tuple((3, c) for c in parse_cards("5h 6h"))  # his stay out, for a later reshuffle
    deck = deck.draw(3, parse_card("2c"))
    # The next player draws from the reshuffled cards; when they run out, seat 3's discards are reshuffled.
    deck = deck.draw(1, parse_card("3c"))
    assert deck.may_draw(1) == frozenset(parse_cards("5h 6h"))
    assert deck.may_draw(3) == frozenset()
    with pytest.raises(DrawError, match="no other player's discards are left to reshuffle for seat 3"):
        deck.draw(3, parse_card("5h"))
    deck = deck.draw(1, parse_card("6h"))
    assert len(deck.reshuffles) == 2


@given(
    st.permutations(standard_deck()), st.lists(st.integers(0, 5), min_size=21, max_size=21), st.integers(2, 7)
)
@settings(max_examples=150)
def test_legal_draws_never_duplicate_a_card(order: list[Card], discards: list[int], players: int) -> None:
    """Deal five to each player, then three draws in turn, each player discarding some cards and taking any
    card he may legally draw: no card is ever in two places, and every card is in exactly one place."""
    deck = DrawDeck()
    hands: dict[int, list[Card]] = {}
    for seat in range(1, players + 1):
        hands[seat] = order[(seat - 1) * 5 : seat * 5]
        for c in hands[seat]:
            deck = deck.deal(c)
    pick = iter(discards * 3)
    for _ in range(3):
        deck = deck.burn()
        for seat in range(1, players + 1):
            n = next(pick)
            out, hands[seat] = hands[seat][:n], hands[seat][n:]
            deck = deck.discard(seat, out)
            for _ in range(n):
                legal = sorted(deck.may_draw(seat), key=lambda c: c.index)
                if not legal:
                    break
                c = legal[0]
                deck = deck.draw(seat, c)
                hands[seat].append(c)
    held = [c for h in hands.values() for c in h]
    pile = [c for _, c in deck.discards]
    assert len(set(held)) == len(held)
    assert not set(held) & set(pile)
    assert not set(held) & deck.deck.candidates
    assert not set(pile) & deck.deck.candidates
    assert deck.deck.size <= len(deck.deck.candidates)


# --- Five-card Omaha, § 637a.19(k), (l) -------------------------------------------------------


def test_omaha_two_hole_cards_and_three_community_cards() -> None:
    """§ 637a.19(k): "two of the five cards dealt to the player and three of the five community cards".
    Four hearts on the board and the ace of hearts in seat 1's hand make no flush: ace-king high. Seat 2's
    kings (Kd Ks) are a pair. Seat 2 receives the whole pot of 20.00."""
    s = showdown(
        "omaha-high",
        {1: "Ah Kc Qd Js 9c", 2: "Kd Ks 7c 7d 4s"},
        {1: "10.00", 2: "10.00"},
        board="2h 5h 8h Th 3c",
    )
    assert received(s) == {(2, "main_pot"): 2000, (1, "main_pot"): 0}
    seat2 = s.for_seat(2)["main_pot"]
    assert (seat2.result, seat2.net, seat2.section) == (Result.WIN, 1000, "§ 637a.19(k)(1)")
    assert seat2.hand == "high: pair, kings, with ten-eight-five (Kd Ks Th 8h 5h)"
    assert s.for_seat(1)["main_pot"].hand == "high: high card, ace-king-ten-eight-five (Ah Kc Th 8h 5h)"
    assert [(o.seat, o.wager) for o in s.outcomes] == [(2, "main_pot"), (1, "main_pot")]


def test_omaha_high_tie_the_excess_to_the_highest_card_by_suit() -> None:
    """Both seats make the ace-high straight; seat 1 with the ace of hearts, seat 2 with the ace of spades.
    Pot 21.00 (10 + 10 + seat 3's folded 1.00) in $1 chips: 10.00 each and the excess 1.00 to seat 2,
    "the highest ranking high card by suit" (§ 637a.19(k)(2)(ii), (iv), applied to Omaha High)."""
    hands = {1: "Ah Td 5c 6c 7c", 2: "As Th 8d 8s 9d"}
    bets = {1: "10.00", 2: "10.00", 3: "1.00"}
    s = showdown("omaha-high", hands, bets, board="Ks Qd Jc 4h 2c", folded=[3])
    assert received(s) == {(3, "main_pot"): 0, (2, "main_pot"): 1100, (1, "main_pot"): 1000}
    assert s.for_seat(2)["main_pot"].flags == (ODD_CHIP,)
    assert s.for_seat(1)["main_pot"].result is Result.PUSH
    assert "seats 1 and 2 tie: seat 1 10.00, seat 2 11.00 (with the excess 1.00)" in s.dealer
    # The Rules Submission may name the player instead: the first tied player left of the button (seat 2).
    s = showdown(
        "omaha-high",
        hands,
        bets,
        "Ks Qd Jc 4h 2c",
        [3],
        button=2,
        odd_chip={"high_tie": LEFT_OF_BUTTON},
    )
    assert received(s)[(1, "main_pot")] == 1100


def test_omaha_high_tie_on_a_shared_board_card_the_next_card_decides() -> None:
    """The straight A-K-Q-J-10 uses the board's As Kd Qc for both; the jacks differ: Js beats Jh."""
    s = showdown(
        "omaha-high",
        {1: "Jh Th 5c 6c 7c", 2: "Js Tc 8d 8s 9d"},
        {1: "5.00", 2: "5.00", 3: "0.50"},
        board="As Kd Qc 4h 2c",
        folded=[3],
    )
    # 10.50 in $1 chips: 5.00 each and the excess 0.50 to seat 2.
    assert received(s)[(2, "main_pot")] == 550
    assert received(s)[(1, "main_pot")] == 500


def test_omaha_high_low_split_the_odd_chip_to_the_high_hand() -> None:
    """§ 637a.19(k)(2)(i): the high and the low "shall divide the pot equally. If a pot cannot be divided
    equally, the excess, which may not exceed $1, shall be given to the player with the highest ranking high
    hand." Pot 31.00 (10 + 10 + 10 + seat 8's folded 1.00) in $1 chips: halves of 15.00 and 1.00 over.
    Seat 4's three kings take the high half and the excess, 16.00; seat 2's 7-4-3-2-A the low half, 15.00.
    Seat 6 (a pair of queens, no two low cards) receives nothing."""
    s = showdown(
        "omaha-high-low",
        {2: "As 3s Kh Qc Jc", 4: "Kc Ks 8h 8c 5h", 6: "Qh Qd Jd Td 6s"},
        {2: "10.00", 4: "10.00", 6: "10.00", 8: "1.00"},
        board="7h 4d 2c Kd 9s",
        folded=[8],
    )
    assert received(s) == {
        (8, "main_pot"): 0,
        (6, "main_pot"): 0,
        (4, "main_pot"): 1600,
        (2, "main_pot"): 1500,
    }
    assert [o.net for o in s.outcomes] == [-100, -1000, 600, 500]
    assert s.for_seat(4)["main_pot"].flags == (ODD_CHIP,)
    assert s.for_seat(2)["main_pot"].hand == (
        "high: pair, kings, with ace-nine-seven (Kh Kd As 9s 7h); "
        "low: seven-four-three-two-ace (7h 4d 3s 2c As)"
    )
    assert s.for_seat(6)["main_pot"].hand.endswith("low: no qualifying low")
    assert (
        "main pot 31.00: high 16.00 (half 15.00 and the excess 1.00) to seat 4; low 15.00 to seat 2"
        in s.dealer
    )


def test_omaha_high_low_a_pot_that_chips_cannot_halve_within_a_dollar() -> None:
    """The same hands with seat 8 folding 1.50: 31.50 in $1 chips would leave 1.50 over, more than the $1
    the text allows, so the pot is halved to the cent: 15.75 each, no excess."""
    s = showdown(
        "omaha-high-low",
        {2: "As 3s Kh Qc Jc", 4: "Kc Ks 8h 8c 5h", 6: "Qh Qd Jd Td 6s"},
        {2: "10.00", 4: "10.00", 6: "10.00", 8: "1.50"},
        board="7h 4d 2c Kd 9s",
        folded=[8],
    )
    assert received(s)[(4, "main_pot")] == 1575
    assert received(s)[(2, "main_pot")] == 1575
    assert all(not o.flags for o in s.outcomes)


def test_omaha_no_qualifying_low_the_high_hand_takes_the_pot() -> None:
    """§ 637a.19(l)(1): "In the event that none of the hands of the remaining players satisfy this
    requirement, the entire pot shall be awarded to the player with the highest ranking high hand." The
    board has two cards of 8 or lower: nobody can have a low. Seat 1's three kings take all 30.00."""
    s = showdown(
        "omaha-high-low",
        {1: "Kh Kc Ac 2d 3d", 2: "Qh Qs As 4c 5c"},
        {1: "15.00", 2: "15.00"},
        board="Kd Qd 9h 8s 2c",
    )
    assert received(s) == {(2, "main_pot"): 0, (1, "main_pot"): 3000}
    assert s.for_seat(1)["main_pot"].section == "§ 637a.19(l)(1)"
    assert "no qualifying low: the entire pot to the high hand" in s.dealer


def test_omaha_the_same_ace_low_and_high_scoops() -> None:
    """§ 637a.19(l)(2): "An ace may be used concurrently as a low hand card ... and as a high card". Seat 1's
    As 5s with 2c 3d 4h make the five-high straight and the 5-4-3-2-A low: both halves of 20.00."""
    s = showdown(
        "omaha-high-low",
        {1: "As 5s Kh Qc Jc", 2: "Kc Ks 7h 8h 6d"},
        {1: "10.00", 2: "10.00"},
        board="2c 3d 4h Kd 9s",
    )
    assert received(s) == {(2, "main_pot"): 0, (1, "main_pot"): 2000}
    assert s.for_seat(1)["main_pot"].hand == (
        "high: straight, five high (5s 4h 3d 2c As); low: five-four-three-two-ace (5s 4h 3d 2c As)"
    )


def test_omaha_low_tie_the_excess_to_the_lowest_card_by_suit() -> None:
    """Seats 1 and 2 tie for low with 7-4-3-2-A; seat 3's three kings win high. Pot 30.00: high 15.00 to
    seat 3; low 15.00 in $1 chips, 7.00 each and 1.00 over, to "the player with the lowest ranking low hand
    Poker card by suit" (§ 637a.19(k)(2)(iii), (iv)): the aces are the lowest cards, clubs the lowest suit,
    so seat 1 (Ac) receives 8.00 and seat 2 (Ad) 7.00. Each put in 10.00: seat 1 loses 2.00, seat 2 3.00."""
    hands = {1: "Ac 4s Qh Qd 9c", 2: "Ad 4c Jh Js 9d", 3: "Kh 9s 9h 8c 6c"}
    bets = {1: "10.00", 2: "10.00", 3: "10.00"}
    s = showdown("omaha-high-low", hands, bets, board="2c 3d 7h Kd Ks")
    assert received(s) == {(3, "main_pot"): 1500, (2, "main_pot"): 700, (1, "main_pot"): 800}
    assert [(o.seat, o.result, o.net) for o in s.outcomes] == [
        (3, Result.WIN, 500),
        (2, Result.LOSE, -300),
        (1, Result.LOSE, -200),
    ]
    # Or the first tied player left of the button: with the button at seat 1, seat 2.
    s = showdown(
        "omaha-high-low", hands, bets, "2c 3d 7h Kd Ks", button=1, odd_chip={"low_tie": LEFT_OF_BUTTON}
    )
    assert received(s)[(2, "main_pot")] == 800


def test_omaha_high_tie_takes_the_excess_of_the_split_with_it() -> None:
    """Pot 33.00: halves of 16.00 and 1.00 over, which goes with the high half (17.00). Seats 1 and 2 tie
    for high with the ace-high straight on the board's As Kd Qc: 8.00 each and 1.00 over to seat 2's Js
    (§ 637a.19(k)(2)(ii)). Seat 3's wheel is the only low: 16.00."""
    s = showdown(
        "omaha-high-low",
        {1: "Jh Th 8c 9c 9s", 2: "Js Tc Kh Kc 6d", 3: "3d 5h 7s 7d 6c"},
        {1: "11.00", 2: "11.00", 3: "11.00"},
        board="As Kd Qc 4h 2c",
    )
    assert received(s) == {(3, "main_pot"): 1600, (2, "main_pot"): 900, (1, "main_pot"): 800}


def test_omaha_side_pot_without_a_low_goes_to_the_high_hand() -> None:
    """Seat 1 is all in for 10.00 and holds the only low; seats 2 and 3 put in 30.00. Main pot 30.00: high
    (seat 3's eights full of kings) 15.00, low (seat 1's 8-5-3-2-A) 15.00. Side pot 40.00 between seats 2
    and 3: neither has a low, so all of it to seat 3's high hand (§ 637a.19(l)(1))."""
    s = showdown(
        "omaha-high-low",
        {1: "Ac 3s Qh Jd 9c", 2: "Kh Qd Qs Jc Tc", 3: "8c 8s 9h Th Jh"},
        {1: "10.00", 2: "30.00", 3: "30.00"},
        board="2c 5d 8h Kd Ks",
    )
    assert received(s) == {
        (3, "main_pot"): 1500,
        (3, "side_pot_1"): 4000,
        (2, "main_pot"): 0,
        (2, "side_pot_1"): 0,
        (1, "main_pot"): 1500,
    }
    assert [(o.seat, o.wager, o.stake, o.net) for o in s.outcomes] == [
        (3, "main_pot", 1000, 500),
        (3, "side_pot_1", 2000, 2000),
        (2, "main_pot", 1000, -1000),
        (2, "side_pot_1", 2000, -2000),
        (1, "main_pot", 1000, 500),
    ]
    assert s.for_seat(3)["side_pot_1"].section == "§ 637a.19(l)(1)"


def test_three_way_high_tie() -> None:
    """Each player makes the ace-high straight with his own jack and ten and the board's As Kd Qc; nothing
    beats it (no flush: two board cards of a suit at most). Pot 31.00 three ways in $1 chips: 10.00 each and
    1.00 over, to the highest card by suit: the ace, king and queen are the same board cards, so the jacks
    decide: seat 2's Js."""
    s = showdown(
        "omaha-high",
        {1: "Jh Th 2c 3c 4c", 2: "Js Ts 2d 3d 4d", 3: "Jc Tc 2h 3h 4h"},
        {1: "10.00", 2: "10.00", 3: "10.00", 4: "1.00"},
        board="As Kd Qc 9s 8h",
        folded=[4],
    )
    assert received(s) == {
        (4, "main_pot"): 0,
        (3, "main_pot"): 1000,
        (2, "main_pot"): 1100,
        (1, "main_pot"): 1000,
    }


# --- Triple Draw, § 637a.20(k), (l) -----------------------------------------------------------


def test_2_7_the_best_hand_is_seven_five_four_three_two_not_suited() -> None:
    """§ 637a.20(k)(3): the ace only high; "The best possible 2-7 Lowball Poker hand is 7-5-4-3-2 with all
    five cards not of the same suit"; straights, flushes and pairs count. Seat 1's 7-5-4-3-2 beats seat 2's
    suited 7-5-4-3-2 (a flush), seat 3's 6-5-4-3-2 (a straight) and seat 4's A-5-4-3-2 (ace high)."""
    s = showdown(
        "triple-draw-2-7",
        {1: "7c 5c 4h 3h 2d", 2: "7s 5s 4s 3s 2s", 3: "6d 5h 4d 3d 2h", 4: "Ah 5d 4c 3c 2c"},
        {1: "5.00", 2: "5.00", 3: "5.00", 4: "5.00"},
    )
    assert received(s)[(1, "main_pot")] == 2000
    assert s.for_seat(1)["main_pot"].hand == "2-7: seven-five-four-three-two (7c 5c 4h 3h 2d)"
    assert s.for_seat(2)["main_pot"].hand.startswith("2-7: flush")
    assert s.for_seat(3)["main_pot"].hand.startswith("2-7: straight, six high")


def test_a_5_wheels_tie_regardless_of_suit_and_the_excess_goes_to_the_named_player() -> None:
    """§ 637a.20(k)(4): "The best possible A-5 Lowball Poker hand is a 5-4-3-2-A, regardless of suit": seat
    3's suited wheel ties seat 5's. (k)(2): "the pot shall be divided equally among the tied players ... the
    excess ... shall be given to the player specified in the certificate holder's Rules Submission": here
    the first tied player left of the button (seat 5 holds it: seat 3). Pot 21.00: 10.00 and 11.00."""
    s = showdown(
        "triple-draw-a-5",
        {3: "5h 4h 3h 2h Ah", 5: "5c 4d 3s 2c Ad", 6: "6c 4c 3c 2d Ac"},
        {3: "7.00", 5: "7.00", 6: "7.00"},
        button=5,
    )
    assert received(s) == {(6, "main_pot"): 0, (5, "main_pot"): 1000, (3, "main_pot"): 1100}
    assert s.for_seat(3)["main_pot"].hand == "A-5: five-four-three-two-ace (5h 4h 3h 2h Ah)"
    assert s.for_seat(3)["main_pot"].section == "§ 637a.20(k)(4)"


def test_a_tie_given_to_the_left_of_the_button_needs_the_button() -> None:
    with pytest.raises(IllegalEvent, match="does not say where the button is"):
        showdown(
            "triple-draw-a-5",
            {3: "5h 4h 3h 2h Ah", 5: "5c 4d 3s 2c Ad"},
            {3: "7.00", 5: "7.00", 6: "1.00"},
            folded=[6],
        )
    # Without an excess the rule is not needed: 7.00 + 7.00 divides equally.
    s = showdown("triple-draw-a-5", {3: "5h 4h 3h 2h Ah", 5: "5c 4d 3s 2c Ad"}, {3: "7.00", 5: "7.00"})
    assert received(s) == {(5, "main_pot"): 700, (3, "main_pot"): 700}


def test_badeucey_splits_the_2_7_half_and_the_badugi_half_ace_high() -> None:
    """§ 637a.20(l)(1): half to the best 2-7 hand, half to the best Badugi, ranked with the ace high (the 2-7
    order of § 637a.6(c)): seat 2's ace-four-three-two Badugi loses to seat 3's king-queen-jack-ten. The
    excess of 21.00 (1.00 over two halves of 10.00) goes to the highest 2-7 hand (l)(1)(ii), seat 1."""
    s = showdown(
        "badeucey",
        {1: "7c 5d 4h 3d 2c", 2: "Ac 4d 3h 2s 2h", 3: "Kc Qd Jh Ts 9s"},
        {1: "7.00", 2: "7.00", 3: "7.00"},
    )
    assert received(s) == {(3, "main_pot"): 1000, (2, "main_pot"): 0, (1, "main_pot"): 1100}
    assert s.for_seat(2)["main_pot"].hand == (
        "2-7: pair, twos, with ace-four-three (2s 2h Ac 4d 3h); badugi, ace-four-three-two (Ac 4d 3h 2s)"
    )
    assert s.for_seat(1)["main_pot"].section == "§ 637a.20(l)(1)"


def test_badacey_the_best_badugi_is_ace_two_three_four() -> None:
    """§ 637a.20(l)(2): with A-5, the best Badugi is "an ace, 2, 3 and 4". Seat 2's A-2-3-4 of four suits
    takes the Badugi half; seat 1's 5-4-3-2-A (two suits: a two-card Badugi hand) the A-5 half. Pot 20.00:
    10.00 each, which is what each put in."""
    s = showdown(
        "badacey",
        {1: "5h 4h 3c 2c Ah", 2: "As 2d 3h 4c 9d"},
        {1: "10.00", 2: "10.00"},
    )
    assert received(s) == {(2, "main_pot"): 1000, (1, "main_pot"): 1000}
    assert s.for_seat(2)["main_pot"].result is Result.PUSH


def test_badeucey_tie_in_the_badugi_half() -> None:
    """The 2-7 half (15.00 of 30.00) to seat 1; seats 2 and 3 tie in the Badugi half with 5-4-3-2: 7.00 each
    and 1.00 over, here to the highest card by suit (odd_chip.tie): seat 3's 5s beats seat 2's 5h."""
    s = showdown(
        "badeucey",
        {1: "7c 6d 5c 3d 2h", 2: "5h 4c 3s 2d Kd", 3: "5s 4d 3h 2c Kh"},
        {1: "10.00", 2: "10.00", 3: "10.00"},
        odd_chip={"tie": HIGH_CARD_BY_SUIT},
    )
    assert received(s) == {(3, "main_pot"): 800, (2, "main_pot"): 700, (1, "main_pot"): 1500}


def test_cards_of_two_players_in_one_event_are_refused() -> None:
    state = run("badeucey", [wager(1, "bet", "1.00"), cards(1, "7c 5d 4c 3d 2d")])
    refused(GAME, state, cards(2, "5h 4c 3s 2s Kd"), "4c is not in the deck: seat 1 holds it")


# --- Badugi, § 637a.21(k) -----------------------------------------------------------------------


def test_badugi_more_cards_win_then_the_lowest() -> None:
    """§ 637a.21(k)(1)-(4): a four-card Badugi beats any three-card hand; seat 1's K-Q-J-10 Badugi beats
    seat 2's 3-2-A three-card hand."""
    s = showdown("badugi", {1: "Kc Qd Jh Ts", 2: "Ac 2d 3h 4h"}, {1: "5.00", 2: "5.00"})
    assert received(s) == {(2, "main_pot"): 0, (1, "main_pot"): 1000}
    assert s.for_seat(2)["main_pot"].hand == "badugi: three-card hand, three-two-ace (3h 2d Ac)"


@pytest.mark.parametrize(
    ("rule", "button", "seat_with_excess"),
    [
        (LEFT_OF_BUTTON, 5, 2),  # from the button at 5: 8, 2, 4, 5; seat 2 is the first tied player
        (LEFT_OF_BUTTON, 2, 5),  # from 2: 4, 5, 8, 2
        (HIGH_CARD_BY_SUIT, None, 5),  # from the top card: seat 5's 4s over seat 2's 4h
        (LOW_CARD_BY_SUIT, None, 2),  # from the lowest card: seat 2's Ac under seat 5's Ad
    ],
)
def test_badugi_tie_the_excess_to_the_player_the_rules_submission_names(
    rule: str, button: int | None, seat_with_excess: int
) -> None:
    """§ 637a.21(k)(5): "If a tie exists ... the pot shall be divided equally ... the excess, which may not
    exceed $1, shall be given to the player specified in the certificate holder's Rules Submission". Seats 2
    (Ac 2d 3s 4h) and 5 (Ad 2h 3c 4s) tie with A-2-3-4; pot 23.00 (7 + 7 + 7 + seat 4's folded 2): 11.00
    each and 1.00 over."""
    s = showdown(
        "badugi",
        {2: "Ac 2d 3s 4h", 5: "Ad 2h 3c 4s", 8: "5c 6d 7h 8s"},
        {2: "7.00", 5: "7.00", 8: "7.00", 4: "2.00"},
        folded=[4],
        button=button,
        odd_chip={"tie": rule},
    )
    other = 2 if seat_with_excess == 5 else 5
    assert received(s)[(seat_with_excess, "main_pot")] == 1200
    assert received(s)[(other, "main_pot")] == 1100
    assert received(s)[(8, "main_pot")] == 0


# --- the draws as events ----------------------------------------------------------------------

EXAMPLE_RESHUFFLE = EXAMPLES / "triple-draw-badeucey-reshuffle.json"


def example_events(path: Path) -> tuple[PokerRoomRules, tuple[Event, ...]]:
    record = load_record(json.loads(path.read_text()), {GAME.name: GAME})
    assert isinstance(record.rules, PokerRoomRules)
    return record.rules, record.events


def until(events: Sequence[Event], n: int, rules_: PokerRoomRules) -> PokerRoomState:
    state = GAME.start(rules_, {})
    for e in events[:n]:
        state = GAME.apply(state, e)
    return state


def test_the_reshuffle_in_a_round() -> None:
    """The example: seven players, 35 cards dealt, one burned; seats 2-5 draw 4, 4, 4 and 3 (15 of the 16);
    seat 6 discards Qc Jd Td and needs three: the deck's last card (4s), then two from the reshuffled
    discards of seats 2-5 (§ 637a.20(h))."""
    rules_, events = example_events(EXAMPLE_RESHUFFLE)
    i = next(
        k for k, e in enumerate(events) if e.type == "cards" and e.to == "6" and len(e.cards) == 3 and k > 20
    )
    state = until(events, i, rules_)
    assert state.drawing is not None and (state.drawing.seat, state.drawing.owed) == (6, 3)
    assert state.deck.deck.size == 1
    # A discard first, while the deck still holds the 4s: refused.
    refused(GAME, state, cards(6, "3h 4s Jc"), "the discards are reshuffled only when the deck runs short")
    # His own discards are not reshuffled for him.
    refused(GAME, state, cards(6, "4s Qc"), "Qc is seat 6's own discard")
    # The burn card (8s) was never seen: the controller cannot tell it from the stub, but once the stub is
    # dealt it is not among the discards.
    refused(GAME, state, cards(6, "4s 8s"), "8s is not among the other players' discards")
    # A card another player holds.
    refused(GAME, state, cards(6, "4s 2c"), "seat 4 holds it")
    # More cards than he discarded.
    refused(GAME, state, cards(6, "4s 3h Jc 7h"), "3 discarded cards still to replace, not 4")
    # Another player's cards while seat 6 is drawing; a bet; the end of the betting.
    refused(GAME, state, cards(7, "3d"), "seat 6 is drawing and is owed 3 cards")
    refused(GAME, state, wager(7, "bet", "2.00"), "bets wait until the draw is over")
    refused(GAME, state, NO_MORE_BETS, "the draw is not over")
    refused(GAME, state, Event("decision", seat=6, action="fold"), "seat 6 is drawing")
    state = GAME.apply(state, cards(6, "4s"))
    state = GAME.apply(state, cards(6, "3h Jc"))
    assert state.drawing is None
    assert state.deck.deck.size == 13
    (reshuffle,) = state.deck.reshuffles
    assert format_cards(reshuffle.set_aside) == "Qc Jd Td"


def test_draw_turns_and_limits() -> None:
    """Each player who has not folded draws in turn from the button's left (§ 637a.20(h)); three draws
    ((h)-(j)); the showdown follows the third."""
    rules_, events = example_events(EXAMPLE_RESHUFFLE)
    first_draw = next(k for k, e in enumerate(events) if e.type == "cards" and e.to == "dealer")
    state = until(events, first_draw, rules_)
    refused(GAME, state, decide(3, "stand_pat"), "it is seat 2's turn to draw, not seat 3's")
    refused(GAME, state, cards("dealer", "Kh 2c"), "seat 2 is drawing, and does not hold 2c")
    after_seat_2 = until(events, first_draw + 2, rules_)
    refused(GAME, after_seat_2, cards(2, "3c"), "receives cards only for the cards he discards")
    refused(GAME, after_seat_2, wager(9, "bet", "2.00"), "no player joins the round")
    # After the whole example: no fourth draw, and no bet after no_more_bets.
    end = until(events, len(events), rules_)
    refused(GAME, end, wager(4, "bet", "1.00"), "no more bets")
    refused(GAME, end, decide(4, "stand_pat"), "the draws are over")
    before_end = until(events, len(events) - 1, rules_)
    refused(GAME, before_end, decide(4, "stand_pat"), "all three draws have been made")
    # no_more_bets after only two draws is refused.
    second_draw_done = next(
        k for k, e in enumerate(events) if e.type == "decision" and e.action == "stand_pat" and e.seat == 7
    )
    mid = until(events, second_draw_done + 1, rules_)
    assert mid.draw_round == 2
    refused(GAME, mid, NO_MORE_BETS, "follows the third draw")


def test_a_draw_needs_the_button_and_complete_hands() -> None:
    events = [
        wager(1, "bet", "1.00"),
        wager(2, "bet", "2.00"),
        cards(1, "2c 3c 4c 5c 7d"),
        cards(2, "2d 3d 4d 5d 7h"),
    ]
    state = run("triple-draw-2-7", events)
    refused(GAME, state, cards("dealer", "2c"), "must give the button's position")
    state = run("triple-draw-2-7", [pos(2), *events[:-1], cards(2, "2d 3d 4d 5d")])
    refused(
        GAME,
        state,
        decide(1, "stand_pat"),
        "seat 2 holds 4 cards: each player is dealt 5 before the first draw",
    )
    alone = run(
        "triple-draw-2-7",
        [
            pos(2),
            wager(1, "bet", "1.00"),
            wager(2, "bet", "2.00"),
            cards(1, "2c 3c 4c 5c 7d"),
            decide(2, "fold"),
        ],
    )
    refused(GAME, alone, decide(1, "stand_pat"), "seat 1 is the only player left: there is no draw")
    omaha = run("omaha-high", [wager(1, "bet", "1.00")])
    refused(GAME, omaha, cards("dealer", "2c"), "has no draw")
    refused(GAME, omaha, decide(1, "stand_pat"), "has no draw")


def test_a_player_who_folded_unseen_still_took_five_cards_from_the_deck() -> None:
    """Seat 3 folds without showing his hand: at the first draw his five cards are counted out of the deck
    (52 - 10 seen - 5 unseen - 1 burn = 36)."""
    events = [
        pos(3),
        wager(1, "bet", "1.00"),
        wager(2, "bet", "2.00"),
        decide(3, "fold"),
        cards(1, "2c 3c 4c 5c 7d"),
        cards(2, "2d 3d 4d 5d 7h"),
    ]
    state = run("triple-draw-2-7", events)
    state = GAME.apply(state, decide(1, "stand_pat"))
    assert state.deck.deck.size == 36


# --- forced bets, kill, straddle, ante -----------------------------------------------------------


def test_blinds_come_from_the_left_of_the_button() -> None:
    """§ 637a.19(d): the Blind Bet by "the player to the immediate left of the button", additional ones
    "immediately after"."""
    hands = [cards(1, "Ah Kc Qd Js 9c"), cards(3, "Kd Ks 7c 7d 4s"), cards(5, "2d 3d 4d 5d 6d")]
    board = cards("board", "2h 5h 8h Th 3c")
    good = [
        pos(5),
        wager(1, "blind", "1.00"),
        wager(3, "blind", "2.00"),
        *hands,
        board,
        decide(5, "fold"),
        NO_MORE_BETS,
    ]
    assert play(GAME, rules("omaha-high"), {}, good)
    wrong = [
        pos(5),
        wager(3, "blind", "1.00"),
        wager(1, "blind", "2.00"),
        *hands,
        board,
        decide(5, "fold"),
        NO_MORE_BETS,
    ]
    with pytest.raises(
        IllegalEvent, match=r"seat 3 posted Blind Bet 1, but the player to the immediate left"
    ):
        play(GAME, rules("omaha-high"), {}, wrong)
    state = run("omaha-high", [pos(5), wager(1, "blind", "1.00")])
    refused(GAME, state, wager(3, "blind", "2.50"), "Blind Bet 2 is 2.00, not 2.50")
    refused(GAME, state, wager(1, "blind", "2.00"), "seat 1 has already posted a Blind Bet")
    state = GAME.apply(state, wager(3, "blind", "2.00"))
    refused(GAME, state, wager(4, "blind", "2.00"), "requires 2 Blind Bets; all were posted")
    refused(GAME, state, wager(5, "straddle", "2.00"), "this table does not offer the Straddle Bet")
    state = GAME.apply(state, hands[0])
    refused(GAME, state, wager(5, "kill", "1.00"), "a kill is placed before any cards are dealt")


def test_one_straddle_by_the_player_left_of_the_blinds() -> None:
    """§ 637a.19(e): "No more than one Straddle Bet may be made during a round of play."."""
    offered = {"straddle": {"offered": True}}
    state = run("omaha-high", [pos(8), wager(1, "blind", "1.00")], **offered)
    refused(GAME, state, wager(6, "straddle", "4.00"), "the Straddle Bet follows the Blind Bets")
    state = GAME.apply(state, wager(3, "blind", "2.00"))
    state = GAME.apply(state, wager(6, "straddle", "4.00"))
    refused(GAME, state, wager(7, "straddle", "8.00"), "seat 6 has placed the Straddle Bet: no more than one")
    refused(GAME, state, wager(6, "blind", "4.00"), "all were posted")
    # Seat 4 sits between seat 3 and seat 6: the straddle belonged to him.
    rest = [
        cards(4, "2d 3d 4d 5d 6d"),
        wager(1, "bet", "3.00"),
        cards(1, "Ah Kc Qd Js 9c"),
        decide(3, "fold"),
        decide(4, "fold"),
        decide(1, "fold"),
    ]
    for e in rest:
        state = GAME.apply(state, e)
    with pytest.raises(IllegalEvent, match="only the player to the left of the Blind Bets, seat 4, may"):
        GAME.settle(state)


def test_ante_and_kill_only_when_the_rules_submission_offers_them() -> None:
    state = run("badugi", [])
    refused(
        GAME,
        state,
        wager(1, "ante", "0.50"),
        r"this table has no Ante bet \(ante in the Rules Submission, § 637a.21\(b\)\)",
    )
    refused(GAME, state, wager(1, "kill", "4.00"), "does not use the Kill or Half-kill option")
    state = run("badugi", [], ante="0.25")
    refused(GAME, state, wager(1, "ante", "0.50"), "more than the table's Ante bet of 0.25")
    state = GAME.apply(state, wager(1, "ante", "0.25"))
    refused(GAME, state, wager(1, "ante", "0.25"), "already placed his Ante")
    refused(GAME, state, wager(1, "bet", "0.00"), "puts nothing in the pot")
    refused(GAME, state, wager(1, "raise", "1.00"), "no wager 'raise' in the poker room")
    state = run("badugi", [], kill={"option": "kill", "qualifying_pot": "50.00"})
    state = GAME.apply(state, wager(1, "kill", "4.00"))
    refused(GAME, state, wager(2, "kill", "4.00"), "seat 1 has posted the kill")


def kill_round(amounts: Mapping[int, str], hands: Mapping[int, str]) -> Settlement:
    return showdown("badugi", hands, amounts, kill={"option": "half-kill", "qualifying_pot": "50.00"})


def test_kill_shows_the_winner_of_a_whole_qualifying_pot() -> None:
    """§ 637a.19(l)(3): the Rules Submission names the Kill or Half-kill option and "the minimum value of a
    qualifying pot". Seat 1 wins the whole pot of 60.00 (at least 50.00): flagged; what the kill changes in
    the next round is not in the text, and the dealer line says so."""
    s = kill_round({1: "30.00", 2: "30.00"}, {1: "Ac 2d 3h 4s", 2: "Kc Qd Jh Ts"})
    assert s.for_seat(1)["main_pot"].flags == (KILL_FLAG,)
    assert (
        "Half-kill option: seat 1 won the whole pot of 60.00, at least the qualifying pot of 50.00"
        in s.dealer
    )
    assert "not defined in §§ 637a.19-637a.21" in s.dealer
    s = kill_round({1: "20.00", 2: "20.00"}, {1: "Ac 2d 3h 4s", 2: "Kc Qd Jh Ts"})
    assert s.for_seat(1)["main_pot"].flags == ()
    assert "the pot of 40.00 is below the qualifying pot of 50.00" in s.dealer
    s = kill_round({1: "30.00", 2: "30.00"}, {1: "Ac 2d 3h 4s", 2: "As 2c 3d 4h"})
    assert all(KILL_FLAG not in o.flags for o in s.outcomes)
    assert "was divided among seats 1, 2" in s.dealer


# --- the round: who wins without a showdown, what settle waits for -------------------------------


def test_the_last_player_takes_the_pot_without_a_showdown() -> None:
    """§ 637a.19(k): a showdown only "If more than one player remains". Seat 3 raises and the others fold:
    he receives the 3.00 of blinds and his 6.00 back, without showing."""
    events = [
        pos(1),
        wager(2, "blind", "1.00"),
        wager(3, "blind", "2.00"),
        wager(3, "bet", "4.00"),
        decide(2, "fold"),
        decide(1, "fold"),
    ]
    s = play(GAME, rules("omaha-high-low"), {}, events)
    assert received(s) == {(3, "main_pot"): 700, (2, "main_pot"): 0}
    assert s.for_seat(3)["main_pot"].hand == ""
    assert "the only player remaining in the round, without a showdown" in s.dealer
    state = run("omaha-high-low", events)
    refused(GAME, state, decide(3, "fold"), "seat 3 is the last player in the round")
    refused(GAME, state, decide(2, "fold"), "seat 2 has already folded")
    refused(GAME, state, wager(2, "bet", "1.00"), "seat 2 has folded")
    refused(GAME, state, cards(2, "2c 3c 4c 5c 6c"), "seat 2 has folded")


def test_a_bet_nobody_called_is_returned_in_the_settlement() -> None:
    """Seat 1 is all in for 5.00; seat 2 put in 20.00: main pot 10.00 to the winner; the side pot of 15.00
    is seat 2's own chips, returned: a push."""
    s = showdown("badugi", {1: "Ac 2d 3h 4s", 2: "Kc Qd Jh Ts"}, {1: "5.00", 2: "20.00"})
    assert received(s) == {(2, "main_pot"): 0, (2, "side_pot_1"): 1500, (1, "main_pot"): 1000}
    assert s.for_seat(2)["side_pot_1"].result is Result.PUSH
    assert "side pot 1 15.00 to seat 2 (a bet no other player called, returned)" in s.dealer


def test_settle_says_what_the_round_waits_for() -> None:
    with pytest.raises(IllegalEvent, match="no players"):
        GAME.settle(run("badugi", []))
    waits = run(
        "omaha-high",
        [
            wager(1, "bet", "2.00"),
            wager(2, "bet", "2.00"),
            cards(1, "Ah Kc Qd Js 9c"),
            cards(2, "Kd Ks 7c 7d 4s"),
        ],
    )
    with pytest.raises(
        IllegalEvent, match=r"waits for the final betting round to be completed \(no_more_bets\)"
    ):
        GAME.settle(waits)
    waits = GAME.apply(waits, NO_MORE_BETS)
    with pytest.raises(IllegalEvent, match="waits for the board: 0 of 5"):
        GAME.settle(waits)
    waits = GAME.apply(waits, cards("board", "2h 5h 8h"))
    with pytest.raises(IllegalEvent, match="waits for the board: 3 of 5"):
        GAME.settle(waits)
    short = run(
        "badugi",
        [
            wager(1, "bet", "2.00"),
            wager(2, "bet", "2.00"),
            cards(1, "Ac 2d 3h"),
            cards(2, "Kc Qd Jh Ts"),
            NO_MORE_BETS,
        ],
    )
    with pytest.raises(IllegalEvent, match="waits for seat 1's hand: 3 of 4 cards"):
        GAME.settle(short)
    rules_, events = example_events(EXAMPLE_RESHUFFLE)
    mid = until(events, 17, rules_)  # seat 2 discarded and is owed four cards
    with pytest.raises(IllegalEvent, match="waits for seat 2's 4 new cards"):
        GAME.settle(mid)


def test_cards_and_board_rules() -> None:
    state = run("omaha-high", [cards(1, "Ah Kc Qd")])
    refused(GAME, state, cards(1, "Js 9c 2c"), "seat 1 would hold 6 cards: the dealer deals 5")
    refused(GAME, state, cards(2, "Kd Ah"), "Ah is not in the deck: seat 1 holds it")
    state = GAME.apply(state, cards("board", "2h 5h 8h Th"))
    refused(GAME, state, cards("board", "3c 4c"), "the board would hold 6 cards")
    refused(GAME, state, cards("board", "Qd"), "board: Qd is not in the deck: seat 1 holds it")
    refused(GAME, state, cards(2, "Th"), "it is on the board")
    refused(GAME, state, Event("cards", to="2", cards=()), "at least one card")
    refused(GAME, state, Event("cards", to="2", cards=parse_cards("3c"), hand=1), "no split hands")
    draw = run("triple-draw-2-7", [])
    refused(GAME, draw, cards("board", "2h"), "has no community cards")
    refused(GAME, state, pos(3), "the button is placed before any bet or card")
    refused(GAME, GAME.apply(GAME.start(rules("badugi"), {}), pos(3)), pos(4), "the button is placed before")
    refused(GAME, state, Event("dice", dice=(1, 2, 3)), "the poker room has no dice event")
    refused(GAME, state, Event("decision", seat=1, action="call"), "no decision 'call'")
    refused(GAME, state, Event("decision", seat=1, action="fold", amount=100), "carries no amount")
    with pytest.raises(IllegalEvent, match="no progressive meter"):
        GAME.start(rules("badugi"), {"progressive": 1000})


def test_no_more_players_than_the_section_allows() -> None:
    """§ 637a.19(b) eight players, § 637a.20(b) seven, § 637a.21(b) nine."""
    for variant, most in (("omaha-high", 8), ("triple-draw-a-5", 7), ("badugi", 9)):
        state = run(variant, [wager(s, "bet", "1.00") for s in range(1, most + 1)])
        refused(GAME, state, wager(most + 1, "bet", "1.00"), f"no more than {most} players may participate")
        refused(GAME, state, decide(most + 1, "fold"), f"no more than {most} players")


def test_a_refused_event_leaves_the_round_as_it_was() -> None:
    rnd = Round.begin(GAME, rules("omaha-high-low"))
    rnd.apply(wager(1, "bet", "2.00"))
    rnd.apply(cards(1, "Ah Kc Qd Js 9c"))
    before, events = rnd.state, list(rnd.events)
    with pytest.raises(IllegalEvent):
        rnd.apply(cards(2, "Ah 2c 3c 4c 5c"))
    assert rnd.state is before and rnd.events == events


# --- the Rules Submission ----------------------------------------------------------------------


def test_every_rules_problem_at_once() -> None:
    with pytest.raises(RulesError) as err:
        load_rules(
            PokerRoomRules,
            {"variant": "omaha-hi-low", "odd_chip": {"unit": "2.00", "hightie": "x"}, "blinds": "1.00"},
            "PR-1",
            RULES_CHECKS,
        )
    text = str(err.value)
    assert "variant omaha-hi-low: must be one of" in text and "did you mean 'omaha-high-low'?" in text
    assert "odd_chip.hightie: unknown option; did you mean 'odd_chip.high_tie'?" in text
    assert "blinds 1.00: must be a list of one or more amounts" in text
    with pytest.raises(RulesError, match="variant: missing"):
        load_rules(PokerRoomRules, {}, "PR-1", RULES_CHECKS)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"odd_chip": {"unit": "2.00"}},
            r"odd_chip.unit 2.00 is above 1.00: the excess .* may not exceed \$1",
        ),
        (
            {"kill": {"option": "kill"}},
            r"kill.qualifying_pot 0.00: kill.option is 'kill', so the Rules Submission",
        ),
        ({"kill": {"qualifying_pot": "100.00"}}, "is given but kill.option is 'none'"),
        (
            {"blinds": ["1.00", "2.00", "3.00", "4.00", "5.00", "6.00", "7.00"]},
            "seats no more than 7 players",
        ),
        ({"blinds": ["1.00", "0.00"]}, "Blind Bet 2 must be more than 0.00"),
        ({"blinds": ["1.00", 2]}, "Blind Bet 2: write money as a string"),
        ({"blinds": ["1.00", "2.x"]}, "not an amount of money"),
        (
            {"odd_chip": {"high_tie": "low_card_by_suit"}},
            "must be one of 'high_card_by_suit', 'left_of_button'",
        ),
        ({"odd_chip": {"unit": "0.00"}}, "below one cent"),
    ],
)
def test_rules_checks(options: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        load_rules(PokerRoomRules, {"variant": "triple-draw-2-7", **options}, "PR-1", RULES_CHECKS)


def test_the_rules_write_back_to_the_same_rules() -> None:
    """What ``tablectl check`` and ``--explain`` print is the file form, and loads back to the same rules."""
    r = rules(
        "badeucey",
        ante="0.25",
        blinds=["1", "2.5"],
        kill={"option": "kill", "qualifying_pot": "80"},
        straddle={"offered": True},
        odd_chip={"unit": "0.50", "tie": LOW_CARD_BY_SUIT},
    )
    written = rules_to_mapping(r)
    assert written["blinds"] == ["1.00", "2.50"]
    assert (written["ante"], written["kill.qualifying_pot"], written["odd_chip.unit"]) == (
        "0.25",
        "80.00",
        "0.50",
    )
    assert load_rules(PokerRoomRules, written, "again", RULES_CHECKS) == r
    assert r.blind_bets == (100, 250)


def test_the_defaults() -> None:
    r = rules("omaha-high-low")
    assert (r.ante, r.blind_bets, r.straddle_offered, r.kill, r.odd_chip_unit) == (
        0,
        (100, 200),
        False,
        "none",
        100,
    )
    assert (r.odd_chip_high_tie, r.odd_chip_low_tie, r.odd_chip_tie) == (
        HIGH_CARD_BY_SUIT,
        LOW_CARD_BY_SUIT,
        LEFT_OF_BUTTON,
    )
    assert {v.name: (v.players, v.hand_size, v.board, v.draws) for v in VARIANTS.values()} == {
        "omaha-high": (8, 5, 5, 0),
        "omaha-high-low": (8, 5, 5, 0),
        "triple-draw-2-7": (7, 5, 0, 3),
        "triple-draw-a-5": (7, 5, 0, 3),
        "badeucey": (7, 5, 0, 3),
        "badacey": (7, 5, 0, 3),
        "badugi": (9, 4, 0, 3),
    }


# --- properties of every settlement ------------------------------------------------------------

DECK = standard_deck()


@st.composite
def rounds(draw: Any) -> tuple[PokerRoomRules, list[Event]]:
    variant = draw(st.sampled_from(sorted(VARIANTS)))
    v = VARIANTS[variant]
    players = draw(st.integers(2, min(v.players, 6)))
    seats = sorted(draw(st.sets(st.integers(1, 9), min_size=players, max_size=players)))
    order = draw(st.permutations(DECK))
    unit = draw(st.sampled_from(["0.01", "0.25", "0.50", "1.00"]))
    tie = draw(st.sampled_from([HIGH_CARD_BY_SUIT, LOW_CARD_BY_SUIT, LEFT_OF_BUTTON]))
    amounts = draw(st.lists(st.integers(1, 400), min_size=players, max_size=players))
    amounts = [a * draw(st.sampled_from([1, 25, 100])) for a in amounts]
    folded = draw(st.sets(st.sampled_from(seats), max_size=players - 1))
    events = [pos(draw(st.sampled_from(seats)))]
    events += [Event("wager", seat=s, wager="bet", amount=a) for s, a in zip(seats, amounts, strict=True)]
    at = 0
    for s in seats:
        events.append(Event("cards", to=str(s), cards=tuple(order[at : at + v.hand_size])))
        at += v.hand_size
    if v.board:
        events.append(Event("cards", to="board", cards=tuple(order[at : at + 5])))
    events += [decide(s, "fold") for s in sorted(folded)]
    events.append(NO_MORE_BETS)
    r = rules(variant, odd_chip={"unit": unit, "high_tie": HIGH_CARD_BY_SUIT, "tie": tie})
    return r, events


@given(rounds())
@settings(max_examples=250, deadline=None)
def test_every_pot_is_divided_exactly_and_deterministically(case: tuple[PokerRoomRules, list[Event]]) -> None:
    rules_, events = case
    state = GAME.start(rules_, {})
    for e in events:
        state = GAME.apply(state, e)
    settlement = GAME.settle(state)
    awards = pot_awards(state)
    for award in awards:
        assert sum(sh.amount for sh in award.shares) == award.pot.amount
        assert all(0 <= sh.odd_chip <= ODD_CHIP_LIMIT for sh in award.shares)
        assert set(sh.seat for sh in award.shares) <= set(award.pot.eligible)
        outcomes = [o for o in settlement.outcomes if o.wager == award.pot.name]
        assert sum(o.stake for o in outcomes) == award.pot.amount
        assert sum(o.net for o in outcomes) == 0  # nothing paid or taken by the house
    for o in settlement.outcomes:
        if o.hand == "folded":
            assert o.result is Result.LOSE and o.net == -o.stake  # a fold never wins
        assert o.stake + o.net >= 0
    assert [o.seat for o in settlement.outcomes] == sorted(
        (o.seat for o in settlement.outcomes), reverse=True
    )
    again = play(GAME, rules_, {}, events)
    assert json.dumps(again.to_json()) == json.dumps(settlement.to_json())


# --- the examples --------------------------------------------------------------------------------


def test_the_example_rules_submission_is_valid() -> None:
    sub = parse_submission(
        (EXAMPLES / "rules-submission.toml").read_text(), {GAME.name: GAME}, "rules-submission.toml"
    )
    assert sub.table == "PR-1"
    assert isinstance(sub.rules, PokerRoomRules)
    assert (sub.rules.variant, sub.rules.kill, sub.rules.kill_qualifying_pot) == (
        "omaha-high-low",
        "half-kill",
        10000,
    )
    with pytest.raises(RulesError, match=r"did you mean 'odd_chip\.unit'"):
        parse_submission(
            'table = "PR-1"\ngame = "poker-room"\n[rules]\nvariant = "badugi"\nodd_chip.units = "1.00"\n',
            {GAME.name: GAME},
            "bad.toml",
        )


def test_explain_tells_the_round_with_its_sections() -> None:
    record = load_record(json.loads(EXAMPLE_RESHUFFLE.read_text()), {GAME.name: GAME})
    text = "\n".join(explain(record, replay(record)))
    assert "seat 6 main_pot: win +10.00 on 12.00" in text
    assert "receives 22.00 of the main pot 43.00 (2-7 22.00 with the excess 1.00) (§ 637a.20(l)(1))" in text
    assert "seat 6's own discards Qc Jd Td stay out" in text


def test_a_record_replays_the_same_from_its_own_events() -> None:
    """The events of a record, written back to JSON and read again, replay to the same settlement."""
    record = load_record(json.loads(EXAMPLE_RESHUFFLE.read_text()), {GAME.name: GAME})
    data = {
        "game": GAME.name,
        "rules": {"variant": "badeucey"},
        "events": [e.to_json() for e in record.events],
    }
    again = load_record(json.loads(json.dumps(data)), {GAME.name: GAME})
    assert replay(again).to_json() == replay(record).to_json()


RECORDS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".settlement.json"))


def test_the_examples_cover_every_case_the_brief_names() -> None:
    names = {p.stem for p in RECORDS}
    assert {
        "omaha-high-side-pot",
        "omaha-high-low-split",
        "triple-draw-badeucey-reshuffle",
        "triple-draw-a-5-badacey-tie",
        "badugi-tie",
    } <= names
    assert (EXAMPLES / "rules-submission.toml").exists()


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_each_example_replays_to_its_settlement(path: Path) -> None:
    record = load_record(json.loads(path.read_text()), {GAME.name: GAME})
    expected = json.loads(path.with_suffix(".settlement.json").read_text())
    assert replay(record).to_json() == expected
    assert replay(record).to_json() == replay(record).to_json()
