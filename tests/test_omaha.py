"""Five-card Omaha, § 637a.19(k),(l): exactly two hole and three board cards; examples, outside answers,
properties against a brute-force reference."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.core.cards import CardError, parse_cards, standard_deck
from controller.rules.rankings.high import code5
from controller.rules.rankings.omaha import (
    OMAHA_HIGH,
    OMAHA_LOW8,
    RANKINGS,
    has_qualifying_low,
    omaha_high_low,
)

from .known_answers import assert_same_order, omaha_rows

DECK = standard_deck()


def hi(hole: str, board: str):  # type: ignore[no-untyped-def]
    return OMAHA_HIGH.evaluate(parse_cards(hole), parse_cards(board))


def lo(hole: str, board: str):  # type: ignore[no-untyped-def]
    return OMAHA_LOW8.evaluate(parse_cards(hole), parse_cards(board))


def split(value, hole: str, board: str) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """How many of the value's cards come from the hole cards and from the board."""
    h, b = set(parse_cards(hole)), set(parse_cards(board))
    return sum(c in h for c in value.cards), sum(c in b for c in value.cards)


# --- the regulation's own examples -----------------------------------------------------------


def test_exactly_two_hole_cards_and_three_board_cards() -> None:
    """§ 637a.19(k): "Each player remaining in the game shall form a five-card hand using two of the five
    cards dealt to the player and three of the five community cards." Four hearts on the board and one
    in the hand are no flush; four aces in the hand are one pair; four kings on the board are three."""
    board = "2h 5h 8h Th 3c"
    no_flush = hi("Ah Kc Qd Js 9c", board)
    assert no_flush.category == "high card"
    assert no_flush.words == "high card, ace-king-ten-eight-five"
    assert split(no_flush, "Ah Kc Qd Js 9c", board) == (2, 3)
    flush = hi("Ah Kh Qd Js 9c", board)
    assert flush.words == "flush, ace-king-ten-eight-five"
    assert split(flush, "Ah Kh Qd Js 9c", board) == (2, 3)
    quads_in_hand = hi("As Ah Ad Ac 2c", "7d 9h Js 3s 4h")
    assert quads_in_hand.words == "pair, aces, with jack-nine-seven"
    quads_on_board = hi("As Ah 2c 3d 6h", "Ks Kh Kd Kc 8s")
    assert quads_on_board.words == "full house, kings full of aces"
    straight_on_board = hi("As Kd Qh Jc 2s", "5c 6d 7h 8s 9c")
    assert straight_on_board.words == "high card, ace-king-nine-eight-seven"
    assert hi("As Kd Qh Tc 2s", "5c 6d 7h 8s 9c").category == "high card"  # a ten alone makes no straight
    assert hi("Js Td Qh 2c 3s", "5c 6d 7h 8s 9c").words == "straight, jack high"
    assert hi("4s 3d Qh Tc 2s", "5c 6d 7h 8s 9c").words == "straight, seven high"


def test_low_hand_qualifies_eight_or_better() -> None:
    """§ 637a.19(l)(1): "The winning low hand may not contain a pair, a three-of-a-kind or a
    four-of-a-kind or a 9, 10, jack, queen or king. In the event that none of the hands of the remaining
    players satisfy this requirement, the entire pot shall be awarded to the player with the highest
    ranking high hand." Two hole cards and three board cards, here too (§ 637a.19(l)(2))."""
    wheel = lo("Ac 2d Kh Kc Qs", "3h 4s 5d Jh Jd")
    assert wheel.words == "five-four-three-two-ace"
    assert wheel.category == "eight-or-better low"
    assert has_qualifying_low(wheel)
    assert split(wheel, "Ac 2d Kh Kc Qs", "3h 4s 5d Jh Jd") == (2, 3)
    # Only two low cards on the board: no low, whatever the hand holds.
    assert not has_qualifying_low(lo("Ah 2h 3h 4h 5h", "Kd Qc 7s 8d 9c"))
    # Five low cards on the board, one low card in the hand: no low.
    assert not has_qualifying_low(lo("Kd Kh Qs Qh 2c", "Ac 3c 4c 5c 6c"))
    # A pair in the hand is no two low cards.
    assert not has_qualifying_low(lo("2d 2h Ks Qh Jc", "Ac 3c 4c Kh Qd"))
    # The hand's cards must differ from the board's three in rank: 2-3 with a board of 2-3-8 and 9s.
    assert not has_qualifying_low(lo("2d 3h Ks Qh Jc", "2c 3c 8c 9h Td"))
    assert lo("2d 3h 4s Qh Jc", "2c 3c 8c 9h 7d").words == "eight-seven-four-three-two"
    none = lo("Kd Kh Qs Qh 2c", "Ac 3c 4c 5c 6c")
    assert none.words == none.category == "no qualifying low"
    assert none < lo("8d 7h Ks Qh Jc", "6c 5c 4c Kh Qd")  # the worst low (8-7-6-5-4) still beats it
    assert lo("8d 7h Ks Qh Jc", "6c 5c 4c Kh Qd").words == "eight-seven-six-five-four"
    assert none == lo("Kd Kh Qs Qh Jc", "Ac 2c 3c Th 9d")


def test_ace_high_and_low_at_once() -> None:
    """§ 637a.19(l)(2): "A player may use the same five-card grouping to make a high hand and a low hand.
    An ace may be used concurrently as a low hand card to make up a low hand and as a high card to make
    up a high hand." """
    hole, board = "As 2s 9c 9d Jh", "Ah 4c 6d Kc 8h"
    high, low = omaha_high_low(parse_cards(hole), parse_cards(board))
    assert high.words == "pair, aces, with king-jack-eight"
    assert low.words == "eight-six-four-two-ace"
    ace = parse_cards("As")[0]
    assert ace in high.cards and ace in low.cards
    # The same grouping both ways: a five-high straight flush and the best low.
    hole, board = "As 2s Kd Kh Qc", "3s 4s 5s Jd Td"
    high, low = omaha_high_low(parse_cards(hole), parse_cards(board))
    assert high.words == "straight flush, five high"
    assert low.words == "five-four-three-two-ace"
    assert set(high.cards) == set(low.cards)


def test_errors_and_names() -> None:
    assert {r.name for r in RANKINGS} == {"omaha-high", "omaha-low8"}
    for ranking in RANKINGS:
        assert ranking.board_sizes == (5,)
        with pytest.raises(CardError, match="4 cards given"):
            ranking.evaluate(parse_cards("As Kd Qh Jc"), parse_cards("2c 3c 4c 5c 6c"))
        with pytest.raises(CardError, match="board of 4 cards"):
            ranking.evaluate(parse_cards("As Kd Qh Jc Tc"), parse_cards("2c 3c 4c 5c"))
        with pytest.raises(CardError, match="appears 2 times"):
            ranking.evaluate(parse_cards("As Kd Qh Jc Tc"), parse_cards("As 3c 4c 5c 6c"))
    with pytest.raises(CardError):
        omaha_high_low(parse_cards("As Kd Qh Jc"), parse_cards("2c 3c 4c 5c 6c"))


# --- outside answers ---------------------------------------------------------------------------


def test_omaha_high_known_answers() -> None:
    """All 1,000 rows of PokerHandEvaluator's five-card Omaha file: card_1..card_5 are the board,
    card_6..card_10 the hand (testdata README); exactly two from the hand and three from the board."""
    rows = omaha_rows()
    assert len(rows) == 1000
    pairs = []
    for row in rows:
        cards = parse_cards([row[f"card_{i}"] for i in range(1, 11)])
        board, hole = cards[:5], cards[5:]
        value = OMAHA_HIGH.evaluate(hole, board)
        assert sum(c in hole for c in value.cards) == 2 and sum(c in board for c in value.cards) == 3
        pairs.append((int(row["rank"]), value.key))
    assert assert_same_order(pairs, "omaha high") > 500


# --- properties --------------------------------------------------------------------------------

deals = st.lists(st.sampled_from(DECK), min_size=15, max_size=15, unique=True)


def reference_high(cards: tuple) -> tuple:  # type: ignore[type-arg]
    """A textbook five-card high key, written apart from the product; GREATER is better."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    ordered = tuple(r for r, _ in groups)
    flush = len({c.suit for c in cards}) == 1
    top = 0
    if len(counts) == 5 and ranks[0] - ranks[4] == 4:
        top = ranks[0]
    elif ranks == [14, 5, 4, 3, 2]:
        top = 5
    if top and flush:
        return (8, top)
    if shape == (4, 1):
        return (7, ordered)
    if shape == (3, 2):
        return (6, ordered)
    if flush:
        return (5, tuple(ranks))
    if top:
        return (4, top)
    return ({(3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1, (1, 1, 1, 1, 1): 0}[shape], ordered)


def reference_low(cards: tuple) -> tuple:  # type: ignore[type-arg]
    """Eight-or-better, written apart: (0,) when no low, else (1, negated ranks high to low)."""
    ranks = sorted((1 if c.rank == 14 else c.rank for c in cards), reverse=True)
    if len(set(ranks)) < 5 or ranks[0] > 8:
        return (0,)
    return (1, *(-r for r in ranks))


def reference_best(hole: list, board: list, key) -> tuple:  # type: ignore[no-untyped-def, type-arg]
    """Brute force over the 10 x 10 groupings of exactly two hole and three board cards."""
    return max(key(two + three) for two in combinations(hole, 2) for three in combinations(board, 3))


def _sign(x: object, y: object) -> int:
    return (x > y) - (x < y)  # type: ignore[operator]


@given(deals)
def test_agrees_with_a_brute_force_reference(cards: list) -> None:  # type: ignore[type-arg]
    """Two players against one board: ours orders them as the reference does, and each value is made of
    two of the player's cards and three of the board's."""
    board, a, b = cards[:5], cards[5:10], cards[10:]
    ha, hb = OMAHA_HIGH.evaluate(a, board), OMAHA_HIGH.evaluate(b, board)
    rha, rhb = reference_best(a, board, reference_high), reference_best(b, board, reference_high)
    assert _sign(ha, hb) == _sign(rha, rhb)
    la, lb = OMAHA_LOW8.evaluate(a, board), OMAHA_LOW8.evaluate(b, board)
    ra, rb = reference_best(a, board, reference_low), reference_best(b, board, reference_low)
    assert _sign(la, lb) == _sign(ra, rb)
    assert has_qualifying_low(la) == (ra != (0,))
    for value, hole in ((ha, a), (hb, b), (la, a), (lb, b)):
        if value.cards:
            assert sum(c in hole for c in value.cards) == 2
            assert sum(c in board for c in value.cards) == 3
    assert code5(ha.cards) == ha.key[0]
    assert reference_high(tuple(ha.cards)) == reference_best(a, board, reference_high)
    if has_qualifying_low(la):
        assert reference_low(tuple(la.cards)) == ra


@given(deals)
def test_not_the_best_of_all_ten_cards(cards: list) -> None:  # type: ignore[type-arg]
    """The hand is never better than the best five of all ten cards taken freely (§ 637a.19(k) limits
    the choice); the exact value is checked against the reference above."""
    board, hole = cards[:5], cards[5:10]
    ours = reference_high(tuple(OMAHA_HIGH.evaluate(hole, board).cards))
    free = max(reference_high(five) for five in combinations(board + hole, 5))
    assert ours <= free


@given(deals, deals)
def test_total_order(x: list, y: list) -> None:  # type: ignore[type-arg]
    for ranking in RANKINGS:
        a = ranking.evaluate(x[5:10], x[:5])
        b = ranking.evaluate(x[10:], x[:5])
        c = ranking.evaluate(y[5:10], y[:5])
        assert (a < b) + (a == b) + (a > b) == 1
        assert (a < b) == (b > a)
        if a <= b and b <= c:
            assert a <= c
        if a == b:
            assert hash(a) == hash(b)
