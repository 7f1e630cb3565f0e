"""Badugi, § 637a.21(k), and the Badugi half of Badeucey and Badacey, § 637a.20(l): examples, outside
answers, counts, properties."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.core.cards import CardError, card, parse_cards, standard_deck
from controller.rules.rankings.badugi import (
    BADACEY_BADUGI,
    BADEUCEY_BADUGI,
    BADUGI,
    RANKINGS,
    badugi_size,
    best_badugi,
    is_badugi,
)

from .known_answers import assert_same_order, five_card_rows

DECK = standard_deck()


def bd(text: str):  # type: ignore[no-untyped-def]
    return BADUGI.evaluate(parse_cards(text))


def deucey(text: str):  # type: ignore[no-untyped-def]
    return BADEUCEY_BADUGI.evaluate(parse_cards(text))


def acey(text: str):  # type: ignore[no-untyped-def]
    return BADACEY_BADUGI.evaluate(parse_cards(text))


# --- the regulation's own examples -----------------------------------------------------------


def test_best_badugi_is_ace_two_three_four() -> None:
    """§ 637a.21(k)(1): "a Badugi hand shall be a hand in which each of the player's four cards are of a
    different suit from the others and rank in accordance with § 637a.6(c) ... with the best Badugi hand
    being an ace, 2, 3 and 4." Over all 270,725 four-card hands the best are exactly the 4! = 24 ways
    to suit A-2-3-4 in four suits."""
    best = bd("As 2d 3h 4c")
    assert best.category == "badugi"
    assert best.words == "badugi, four-three-two-ace"
    assert [str(c) for c in best.cards] == ["4c", "3h", "2d", "As"]
    values = [BADUGI.evaluate(h) for h in combinations(DECK, 4)]
    top = max(values)
    assert top == best
    assert sum(1 for v in values if v == top) == 24
    sizes = Counter(badugi_size(v) for v in values)
    # Four cards of four suits and four ranks: C(13,4) rank sets * 4! suitings. A one-card hand: every
    # two cards share a suit or a rank, which four cards do only when all are one suit or one rank.
    assert sizes[4] == 715 * 24
    assert sizes[1] == 4 * 715 + 13
    assert sum(sizes.values()) == 270_725
    assert len(set(values)) == 715 + 286 + 78 + 13  # C(13,4) + C(13,3) + C(13,2) + 13 classes


def test_fewer_cards_lose_to_more() -> None:
    """§ 637a.21(k)(1)-(4): "(2) If no players have a Badugi, the player with the lowest hand containing
    three cards, each of which are a different suit and rank. (3) ... the lowest hand containing two
    cards, each of which are a different suit and rank ... (4) ... the player with the lowest card." The
    worst hand of each size beats the best of the next smaller size."""
    worst4 = bd("Kc Qd Jh Ts")
    best3 = bd("As 2d 3h 3s")  # the two threes: one of them plays
    worst3 = bd("Kc Qd Jh Jd")
    best2 = bd("Ac 2d 2c Ad")
    worst2 = bd("Kc Qd Kd Qc")
    best1 = bd("Ah 2h 3h 4h")
    worst1 = bd("Kc Kd Kh Ks")
    sizes = [badugi_size(v) for v in (worst4, best3, worst3, best2, worst2, best1, worst1)]
    assert sizes == [4, 3, 3, 2, 2, 1, 1]
    assert worst4 > best3 >= worst3 > best2 >= worst2 > best1 >= worst1
    assert best3.words == "three-card hand, three-two-ace"
    assert worst3.words == "three-card hand, king-queen-jack"
    assert best2.words == "two-card hand, two-ace"
    assert best1.words == "one-card hand, ace"
    assert worst1.words == "one-card hand, king"
    assert bd("Kh Qh Jh Th").words == "one-card hand, ten"  # (4) "the lowest card"


def test_lowest_counted_from_the_highest_card() -> None:
    """§ 637a.21(k)(1) "The lowest Badugi hand shall win"; § 637a.20(k)(1) hands "are counted from the
    highest card in the hand to the lowest"; § 637a.6(c) the ace is low; suits equal (a tie)."""
    assert bd("As 2d 3h 7c") > bd("4s 5d 6h 8c")
    assert bd("As 5d 6h 7c") < bd("2s 3d 4h 6c")  # 7 is higher than 6: the ace does not save it
    assert bd("8s 6d 4h 2c") > bd("8s 6d 5h Ac")
    assert bd("As 2d 3h 4c") == bd("Ah 2s 3c 4d")
    assert bd("As 2s 3d 4h") == bd("Ac 2c 3d 4h")  # ace and 2 share a suit: A-3-4 either way
    assert bd("As 2s 3d 4h").words == "three-card hand, four-three-ace"


def test_badeucey_ace_high_best_two_three_four_five() -> None:
    """§ 637a.20(l)(1)(i): for Badeucey "a Badugi hand is a hand in which four of the player's five cards
    are of a different suit from the others and rank in accordance with § 637a.6(c) ... with the best
    Badugi hand being a 2, 3, 4 and 5." § 637a.6(c): in 2-7 "2, 3, ... king and ace": the ace is high."""
    best = deucey("2s 3d 4h 5c Kc")
    assert best.words == "badugi, five-four-three-two"
    assert deucey("As 2d 3h 4c Kc").words == "badugi, ace-four-three-two"
    assert deucey("As 2d 3h 4c Kc") < deucey("Ks Qd Jh Tc 9c")
    assert deucey("As 2d 3h 4c 5s") == best  # the 5 of spades replaces the ace of spades
    assert deucey("As 2d 3h 4c 5c").words == "badugi, ace-four-three-two"  # 5 and 4 both clubs
    assert deucey("2s 3d 4h 5c 6c") == deucey("2h 3c 4s 5d 6d")
    hands = [h for h in combinations(DECK, 5) if {c.rank for c in h} <= {14, 2, 3, 4, 5, 6}]
    values = [BADEUCEY_BADUGI.evaluate(h) for h in hands]
    assert max(values) == best
    assert all(sorted(c.rank for c in v.cards) == [2, 3, 4, 5] for v in values if v == best)


def test_badacey_ace_low_best_ace_two_three_four() -> None:
    """§ 637a.20(l)(2)(i): for Badacey "a Badugi hand is a hand in which four of the player's five cards
    are of a different suit from the others and rank in accordance with § 637a.6(c) with the best Badugi
    hand being an ace, 2, 3 and 4." The fifth card does not play."""
    best = acey("As 2d 3h 4c Kc")
    assert best.words == "badugi, four-three-two-ace"
    assert len(best.cards) == 4
    assert acey("As 2d 3h 4c 4s") == best == acey("Ac 2h 3s 4d 5d")
    assert acey("2s 3d 4h 5c 6c") < best
    hands = [h for h in combinations(DECK, 5) if {c.rank for c in h} <= {14, 2, 3, 4, 5, 6}]
    assert max(BADACEY_BADUGI.evaluate(h) for h in hands) == best


def test_five_card_hands_without_a_badugi() -> None:
    """§ 637a.20(l) defines only the four-card Badugi and does not say how hands without one compare; we
    rank them by § 637a.21(k)(2)-(4) (docs/rankings/low-omaha-badugi.md). A three-card hand is below
    every Badugi and above every two-card hand; :func:`is_badugi` lets a game see which hands have one."""
    three = acey("As 2s 3d 4h 4d")
    assert three.words == "three-card hand, four-three-ace"
    assert not is_badugi(three) and is_badugi(acey("Ks Qd Jh Tc 9c"))
    assert acey("Ks Qd Jh Tc 9c") > three > acey("As 2s 3s 4d 5d")
    assert acey("As 2s 3s 4d 5d").words == "two-card hand, four-ace"
    assert deucey("As 2s 3s 4d 5d").words == "two-card hand, four-two"
    assert acey("9h Th Jh Qh Kh").words == "one-card hand, nine"
    assert deucey("Ah Kh Qh Jh Th").words == "one-card hand, ten"
    assert acey("Ah Kh Qh Jh Th").words == "one-card hand, ace"


def test_sizes_and_names() -> None:
    assert {r.name for r in RANKINGS} == {"badugi", "badeucey-badugi", "badacey-badugi"}
    with pytest.raises(CardError, match="5 cards given"):
        bd("As 2d 3h 4c 5s")
    with pytest.raises(CardError, match="4 cards given"):
        acey("As 2d 3h 4c")
    with pytest.raises(CardError, match="appears 2 times"):
        deucey("As As 3h 4c 5s")
    with pytest.raises(ValueError, match="at least one card"):
        best_badugi([])


# --- outside answers ---------------------------------------------------------------------------


def test_badugi_known_answers() -> None:
    """All 100,000 rows of the onejoker five-card file, "badugi" column (best four of the five cards,
    ace low): our Badacey Badugi. Our four-card Badugi agrees: the best of the five four-card subsets
    has the same key, and so do the cards Badacey picked, filled up to four from the rest."""
    rows = five_card_rows()
    assert len(rows) == 100_000
    pairs = []
    for row in rows:
        cards = parse_cards(row[0])
        value = BADACEY_BADUGI.evaluate(cards)
        pairs.append((row[5], value.key))
        subsets = [BADUGI.evaluate(four).key for four in combinations(cards, 4)]
        assert max(subsets) == value.key, row[0]
        rest = [c for c in cards if c not in value.cards]
        assert BADUGI.evaluate([*value.cards, *rest][:4]).key == value.key, row[0]
    seen = assert_same_order(pairs, "badugi")
    assert seen == 1088  # 1,092 classes, less the one-card ten, jack, queen and king (need a 5-card flush)


# --- properties --------------------------------------------------------------------------------

hands4 = st.lists(st.sampled_from(DECK), min_size=4, max_size=4, unique=True)
hands5 = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
suit_maps = st.permutations("cdhs")


def reference(cards: list, ace_low: bool) -> tuple:  # type: ignore[type-arg]
    """Written apart from the product, by brute force over every subset (bit masks): the most cards of
    pairwise different suits and ranks, then the lowest from the top; SMALLER is better."""
    best: tuple | None = None  # type: ignore[type-arg]
    n = len(cards)
    for mask in range(1, 1 << n):
        chosen = [cards[i] for i in range(n) if mask >> i & 1]
        ok = all(a.suit != b.suit and a.rank != b.rank for a, b in combinations(chosen, 2))
        if not ok:
            continue
        ranks = sorted(((1 if c.rank == 14 and ace_low else c.rank) for c in chosen), reverse=True)
        k = (-len(chosen), tuple(ranks))
        if best is None or k < best:
            best = k
    assert best is not None
    return best


def _sign(x: object, y: object) -> int:
    return (x > y) - (x < y)  # type: ignore[operator]


@given(hands4, hands4, hands5, hands5)
def test_orders_agree_with_a_reference(a: list, b: list, c: list, d: list) -> None:  # type: ignore[type-arg]
    assert _sign(BADUGI.evaluate(a), BADUGI.evaluate(b)) == _sign(reference(b, True), reference(a, True))
    assert _sign(BADACEY_BADUGI.evaluate(c), BADACEY_BADUGI.evaluate(d)) == _sign(
        reference(d, True), reference(c, True)
    )
    assert _sign(BADEUCEY_BADUGI.evaluate(c), BADEUCEY_BADUGI.evaluate(d)) == _sign(
        reference(d, False), reference(c, False)
    )


@given(hands5, hands5, hands5)
def test_total_order(a: list, b: list, c: list) -> None:  # type: ignore[type-arg]
    for ranking, n in ((BADUGI, 4), (BADEUCEY_BADUGI, 5), (BADACEY_BADUGI, 5)):
        x, y, z = ranking.evaluate(a[:n]), ranking.evaluate(b[:n]), ranking.evaluate(c[:n])
        assert (x < y) + (x == y) + (x > y) == 1
        assert (x < y) == (y > x) and (x <= y) == (not x > y)
        if x <= y and y <= z:
            assert x <= z
        if x == y:
            assert hash(x) == hash(y)


@given(hands5, st.randoms(use_true_random=False), suit_maps)
def test_order_of_the_cards_and_names_of_suits_do_not_matter(cards: list, rnd, perm) -> None:  # type: ignore[no-untyped-def, type-arg]
    """The value never depends on the order the cards are in; suits are equal (§ 637a.6(c)), so renaming
    them changes nothing."""
    mapping = dict(zip("cdhs", perm, strict=True))
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    renamed = [card(c.rank, mapping[c.suit]) for c in shuffled]
    for ranking, n in ((BADUGI, 4), (BADEUCEY_BADUGI, 5), (BADACEY_BADUGI, 5)):
        base = ranking.evaluate(cards[:n])
        mixed = list(cards[:n])
        rnd.shuffle(mixed)
        assert ranking.evaluate(mixed) == base
        assert ranking.evaluate(mixed).words == base.words
        assert ranking.evaluate([card(c.rank, mapping[c.suit]) for c in mixed]) == base
    assert BADACEY_BADUGI.evaluate(renamed) == BADACEY_BADUGI.evaluate(cards)


@given(hands5)
def test_value_cards_make_the_hand(cards: list) -> None:  # type: ignore[type-arg]
    for ranking, n in ((BADUGI, 4), (BADEUCEY_BADUGI, 5), (BADACEY_BADUGI, 5)):
        value = ranking.evaluate(cards[:n])
        chosen = value.cards
        assert set(chosen) <= set(cards[:n]) and len(chosen) == badugi_size(value)
        assert len({c.suit for c in chosen}) == len({c.rank for c in chosen}) == len(chosen)
        assert value.words.startswith(value.category)
        if ranking is not BADEUCEY_BADUGI:  # ace low: the four-card Badugi agrees on four holding them
            rest = [c for c in cards[:n] if c not in chosen]
            assert BADUGI.evaluate([*chosen, *rest][:4]).key == value.key
