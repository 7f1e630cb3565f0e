"""Low poker, § 637a.6(c),(d), § 637a.20(k)(3),(4), § 637a.19(l)(1): examples, outside answers, properties."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement, pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.core.cards import CardError, card, parse_cards, standard_deck
from controller.rules.rankings.low import (
    A5_LOW,
    DEUCE_TO_SEVEN_LOW,
    RANKINGS,
    a5_code,
    deuce_to_seven_code,
    eight_or_better_code,
    eight_or_better_value,
    qualifies_eight_or_better,
)

from .known_answers import assert_same_order, five_card_rows

DECK = standard_deck()


def a5(text: str):  # type: ignore[no-untyped-def]
    return A5_LOW.evaluate(parse_cards(text))


def d27(text: str):  # type: ignore[no-untyped-def]
    return DEUCE_TO_SEVEN_LOW.evaluate(parse_cards(text))


def low8(text: str):  # type: ignore[no-untyped-def]
    return eight_or_better_value(parse_cards(text))


def every_class(flush_too: bool) -> list[tuple]:  # type: ignore[type-arg]
    """One five-card hand per multiset of ranks (no rank five times), unsuited; with ``flush_too`` also
    each five different ranks in one suit. Every class of both orders is among them."""
    hands = []
    for ranks in combinations_with_replacement(range(2, 15), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        seen: Counter[int] = Counter()
        cards = []
        for r in ranks:
            cards.append(card(r, "cdhs"[seen[r]]))
            seen[r] += 1
        if len({c.suit for c in cards}) == 1:  # five different ranks, all clubs: make one a spade
            cards[-1] = card(cards[-1].rank, "s")
        hands.append(tuple(cards))
        if flush_too and len(set(ranks)) == 5:
            hands.append(tuple(card(r, "h") for r in ranks))
    return hands


# --- the regulation's own examples -----------------------------------------------------------


def test_best_two_to_seven_hand() -> None:
    """§ 637a.20(k)(3)(ii): "The best possible 2-7 Lowball Poker hand is 7-5-4-3-2 with all five cards
    not of the same suit." Checked against one hand of every class of five cards."""
    best = d27("7c 5d 4h 3s 2c")
    assert best.category == "no pair"
    assert best.words == "seven-five-four-three-two"
    hands = every_class(flush_too=True)
    values = [DEUCE_TO_SEVEN_LOW.evaluate(h) for h in hands]
    top = max(values)
    assert top == best
    winners = [h for h, v in zip(hands, values, strict=True) if v == top]
    assert [sorted(c.rank for c in h) for h in winners] == [[2, 3, 4, 5, 7]]
    assert d27("7h 5h 4h 3h 2h") < best  # "not of the same suit": a flush
    assert d27("7h 5h 4h 3h 2h").category == "flush"


def test_two_to_seven_ace_only_high() -> None:
    """§ 637a.20(k)(3)(i): "An ace is used only as a high card." § 637a.6(c): "In Triple Draw 2-7 Lowball
    Poker, the order of highest to lowest rank shall be: 2, 3, 4, ... king and ace." A-2-3-4-5 is no
    straight but an ace-high hand, worse than any king-high hand."""
    wheel = d27("Ah 2c 3d 4s 5s")
    assert wheel.category == "no pair"
    assert wheel.words == "ace-five-four-three-two"
    assert wheel < d27("Kh Qc Jd 9s 8s")
    assert d27("Ah 2h 3h 4h 5h").category == "flush"  # suited: a flush, no straight flush
    assert d27("As Ah 3d 4c 5h") < d27("2s 2h 3d 4c 5h")  # aces are the worst pair


def test_two_to_seven_straights_flushes_pairs_count() -> None:
    """§ 637a.20(k)(3)(iii): "A straight, flush or pair shall be considered for purposes of determining a
    winning hand." § 637a.6(d): the order is "the inverse of the rankings for a five-card high hand"."""
    straight = d27("6c 5d 4h 3s 2c")
    assert straight.category == "straight"
    assert straight.words == "straight, six high"
    assert straight < d27("Ac Kd Qh Js 9c")  # the worst no-pair hand still beats a straight
    pair = d27("2c 2d 3h 4s 5c")
    assert pair.category == "pair"
    assert pair < d27("Ac Kd Qh Js 9c")
    assert d27("7c 5c 4c 3c 2c") < pair  # a flush is worse than a pair
    ladder = [
        "Ac Kd Qh Js 9c",  # no pair
        "2c 2d 3h 4s 5c",  # pair
        "2c 2d 3h 3s 4c",  # two pair
        "2c 2d 2h 3s 4c",  # three-of-a-kind
        "6c 5d 4h 3s 2c",  # straight
        "7c 5c 4c 3c 2c",  # flush
        "2c 2d 2h 3s 3c",  # full house
        "2c 2d 2h 2s 3c",  # four-of-a-kind
        "6c 5c 4c 3c 2c",  # straight flush
        "Ac Kc Qc Jc Tc",  # royal flush
    ]
    values = [d27(h) for h in ladder]
    assert all(a > b for a, b in pairwise(values))
    assert [v.category for v in values][-1] == "royal flush"


def test_best_ace_to_five_hand() -> None:
    """§ 637a.20(k)(4)(ii): "The best possible A-5 Lowball Poker hand is a 5-4-3-2-A, regardless of
    suit." Checked against one hand of every class; the suited wheel equals it."""
    best = a5("5c 4d 3h 2s Ac")
    assert best.words == "five-four-three-two-ace"
    assert [str(c) for c in best.cards] == ["5c", "4d", "3h", "2s", "Ac"]
    assert a5("5h 4h 3h 2h Ah") == best
    hands = every_class(flush_too=True)
    values = [A5_LOW.evaluate(h) for h in hands]
    assert max(values) == best
    winners = {tuple(sorted(c.rank for c in h)) for h, v in zip(hands, values, strict=True) if v == best}
    assert winners == {(2, 3, 4, 5, 14)}


def test_ace_to_five_ace_only_low_no_straights_or_flushes() -> None:
    """§ 637a.20(k)(4)(i) "An ace is used only as a low card"; (iii) "A straight or flush shall not be
    considered"; § 637a.6(c) ace is the best rank in low hand Poker; § 637a.6(d) "straights and flushes
    will not be considered" except in 2-7."""
    assert a5("Kc Qd Jh Ts Ac").words == "king-queen-jack-ten-ace"
    assert a5("Kc Qd Jh Ts Ac") > a5("Kc Qd Jh Ts 2c")
    assert a5("6h 5h 4h 3h 2h") > a5("7c 5d 4h 3s 2c")  # a straight flush is just a six low
    assert a5("6h 5h 4h 3h 2h").category == "no pair"
    assert a5("9h 7h 5h 3h 2h") == a5("9c 7h 5h 3h 2h")
    assert a5("Ac Ad 2h 3s 4c") > a5("2c 2d 3h 4s 5c")  # aces are the best pair
    assert a5("Ac Ad 2h 3s 4c").words == "pair, aces, with four-three-two"
    ladder = [
        "Kc Qd Jh Ts 9c",  # no pair
        "Ac Ad 2h 3s 4c",  # pair
        "Ac Ad 2h 2s 3c",  # two pair
        "Ac Ad Ah 2s 3c",  # three-of-a-kind
        "Ac Ad Ah 2s 2c",  # full house
        "Ac Ad Ah As 2c",  # four-of-a-kind
    ]
    values = [a5(h) for h in ladder]
    assert all(a > b for a, b in pairwise(values))
    assert [v.category for v in values] == [
        "no pair",
        "pair",
        "two pair",
        "three-of-a-kind",
        "full house",
        "four-of-a-kind",
    ]


def test_counted_from_the_highest_card() -> None:
    """§ 637a.20(k)(1): "Hands are counted from the highest card in the hand to the lowest card in the
    hand." The lower highest card wins; on equal highest cards the next decides."""
    assert a5("7c 6d 5h 4s 3c") > a5("8c 4d 3h 2s Ac")
    assert a5("8c 6d 4h 2s Ac") > a5("8c 6d 5h 2s Ac")
    assert a5("8c 6d 4h 3s 2c") < a5("8d 6h 4s 3c Ac")
    assert d27("8c 6d 4h 3s 2c") > d27("8d 6h 5s 3c 2d")
    assert d27("7c 6d 4h 3s 2c") > d27("8d 5h 4s 3c 2d")
    assert a5("4c 4d 7h 3s Ac") > a5("4h 4s 8c 2d Ad")  # same pair: the kickers from the highest
    assert a5("4c 4d 7h 3s Ac").words == "pair, fours, with seven-three-ace"
    assert a5("Ac Ad 4h 4s 7c").words == "two pair, fours and aces, with seven"
    assert a5("9c 7d 5h 3s 2c") == a5("9d 7h 5s 3c 2h")  # suits equal: a tie


def test_eight_or_better() -> None:
    """§ 637a.19(l)(1): "The winning low hand may not contain a pair, a three-of-a-kind or a
    four-of-a-kind or a 9, 10, jack, queen or king." Ace low (§ 637a.6(c)); straights and flushes are not
    considered (§ 637a.6(d))."""
    assert qualifies_eight_or_better(parse_cards("8c 7d 6h 5s 4c"))
    assert qualifies_eight_or_better(parse_cards("5h 4h 3h 2h Ah"))
    assert not qualifies_eight_or_better(parse_cards("9c 4d 3h 2s Ac"))
    assert not qualifies_eight_or_better(parse_cards("Kc 4d 3h 2s Ac"))
    assert not qualifies_eight_or_better(parse_cards("2c 2d 3h 4s 5c"))
    assert not qualifies_eight_or_better(parse_cards("2c 2d 2h 4s 5c"))
    assert not qualifies_eight_or_better(parse_cards("2c 2d 2h 2s 5c"))
    worst, best = low8("8c 7d 6h 5s 4c"), low8("5h 4h 3h 2h Ah")
    assert best.words == "five-four-three-two-ace"
    assert best.category == "eight-or-better low"
    assert low8("7c 5d 4h 2s Ac").words == "seven-five-four-two-ace"
    none = low8("9c 4d 3h 2s Ac")
    assert none.category == none.words == "no qualifying low"
    assert none < worst < low8("8c 7d 6h 5s 3c") < best
    assert none == low8("Kc Kd Qh Js Tc")  # no low ties no low
    assert low8("8c 6d 4h 2s Ac") > low8("8c 6d 5h 2s Ac")  # counted from the highest card
    with pytest.raises(ValueError, match="five cards"):
        eight_or_better_code(parse_cards("5h 4h 3h 2h"))


def test_classes_and_sizes() -> None:
    """Distinct values over every class: 7,462 in 2-7 (the high order's count), 6,175 in A-5 (no
    straights or flushes: 1,287 no pair + 2,860 pair + 858 two pair + 858 three + 156 full + 156 four),
    and C(8,5) = 56 eight-or-better lows."""
    hands = every_class(flush_too=True)
    assert len({DEUCE_TO_SEVEN_LOW.evaluate(h).key for h in hands}) == 7462
    assert len({A5_LOW.evaluate(h).key for h in hands}) == 1287 + 2860 + 858 + 858 + 156 + 156
    assert len({eight_or_better_value(h).key for h in hands}) == 56 + 1
    assert {r.name for r in RANKINGS} == {"a5-low", "27-low"}
    for ranking in RANKINGS:
        with pytest.raises(CardError, match="4 cards given"):
            ranking.evaluate(parse_cards("As Kd Qh Jc"))
        with pytest.raises(CardError, match="appears 2 times"):
            ranking.evaluate(parse_cards("As As Qh Jc 9d"))
        with pytest.raises(CardError, match="joker"):
            ranking.evaluate(parse_cards("As JKR Qh Jc 9d"))


# --- outside answers ---------------------------------------------------------------------------


def test_two_to_seven_known_answers() -> None:
    """All 100,000 rows of the onejoker five-card file, "2-to-7" column: it agrees with § 637a.20(k)(3)."""
    rows = five_card_rows()
    assert len(rows) == 100_000
    seen = assert_same_order(((row[2], d27(row[0]).key) for row in rows), "2-7 low")
    assert seen == 7462


def test_ace_to_five_known_answers() -> None:
    """All 100,000 rows, "A-to-5" column: it agrees with § 637a.20(k)(4), straights and flushes ignored."""
    rows = five_card_rows()
    seen = assert_same_order(((row[3], a5(row[0]).key) for row in rows), "A-5 low")
    assert seen == 6175


def _is_flush(hand: str) -> bool:
    return len(set(hand[1::2])) == 1


def _is_straight(hand: str) -> bool:
    ranks = {"23456789TJQKA".index(c) + 2 for c in hand[0::2]}
    lows = {1 if r == 14 else r for r in ranks}
    return len(ranks) == 5 and (max(ranks) - min(ranks) == 4 or max(lows) - min(lows) == 4)


def test_the_files_ace_to_five_column_ignores_straights_and_flushes() -> None:
    """Read from the file alone, without our ranking: its "A-to-5" class depends only on the ranks (a
    flush has the class of the same ranks unsuited), and a straight or flush is a no-pair hand, better
    than every pair, as § 637a.20(k)(4)(iii) requires. Its "2-to-7" column does count them (the contrast
    shows the check can fail)."""
    rows = five_card_rows()
    by_ranks: dict[str, dict[int, set[int]]] = {}
    for hand, _high, d27_cls, a5_cls, _a6, _badugi in rows:
        key = "".join(sorted(hand[0::2]))
        by_ranks.setdefault(key, {2: set(), 3: set()})
        by_ranks[key][2].add(d27_cls)
        by_ranks[key][3].add(a5_cls)
    assert all(len(c[3]) == 1 for c in by_ranks.values())
    flush_ranks = {"".join(sorted(r[0][0::2])) for r in rows if _is_flush(r[0])}
    plain_ranks = {"".join(sorted(r[0][0::2])) for r in rows if not _is_flush(r[0])}
    both = flush_ranks & plain_ranks
    assert len(both) > 20, "the file should hold flushes whose ranks also appear unsuited"
    assert all(len(by_ranks[k][2]) == 2 for k in both)  # 2-7: flush and non-flush differ
    worst_no_pair = max(r[3] for r in rows if len(set(r[0][0::2])) == 5)
    best_pair = min(r[3] for r in rows if len(set(r[0][0::2])) == 4)
    assert worst_no_pair < best_pair
    assert any(_is_straight(r[0]) for r in rows) and any(_is_flush(r[0]) for r in rows)


# --- properties --------------------------------------------------------------------------------

hands5 = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
suit_maps = st.permutations("cdhs")


def reference_a5(cards: list) -> tuple:  # type: ignore[type-arg]
    """A-5 written apart from the product: (shape of the rank groups, ranks by group); SMALLER is better.
    Shapes compare as (1,1,1,1,1) < (2,1,1,1) < (2,2,1) < (3,1,1) < (3,2) < (4,1), the inverse of high."""
    counts = Counter(1 if c.rank == 14 else c.rank for c in cards)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    return (tuple(n for _, n in groups), tuple(r for r, _ in groups))


def reference_27(cards: list) -> tuple:  # type: ignore[type-arg]
    """2-7 written apart from the product: the textbook high key with no wheel; SMALLER is better."""
    counts = Counter(c.rank for c in cards)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    ordered = tuple(r for r, _ in groups)
    flush = len({c.suit for c in cards}) == 1
    straight = len(counts) == 5 and max(ordered) - min(ordered) == 4
    if straight and flush:
        cls = 8
    elif shape == (4, 1):
        cls = 7
    elif shape == (3, 2):
        cls = 6
    elif flush:
        cls = 5
    elif straight:
        cls = 4
    else:
        cls = {(3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1, (1, 1, 1, 1, 1): 0}[shape]
    return (cls, ordered)


def reference_8(cards: list) -> tuple:  # type: ignore[type-arg]
    """Eight-or-better written apart: (0,) for no low, else (1, negated ranks high to low); GREATER better."""
    ranks = sorted((1 if c.rank == 14 else c.rank for c in cards), reverse=True)
    if len(set(ranks)) < 5 or ranks[0] > 8:
        return (0,)
    return (1, *(-r for r in ranks))


def _sign(x: object, y: object) -> int:
    return (x > y) - (x < y)  # type: ignore[operator]


@given(hands5, hands5)
def test_orders_agree_with_references(a: list, b: list) -> None:  # type: ignore[type-arg]
    assert _sign(A5_LOW.evaluate(a), A5_LOW.evaluate(b)) == _sign(reference_a5(b), reference_a5(a))
    assert _sign(DEUCE_TO_SEVEN_LOW.evaluate(a), DEUCE_TO_SEVEN_LOW.evaluate(b)) == _sign(
        reference_27(b), reference_27(a)
    )
    assert _sign(eight_or_better_value(a), eight_or_better_value(b)) == _sign(reference_8(a), reference_8(b))
    assert qualifies_eight_or_better(a) == (reference_8(a) != (0,))


@given(hands5, hands5, hands5)
def test_total_order(a: list, b: list, c: list) -> None:  # type: ignore[type-arg]
    for ranking in RANKINGS:
        x, y, z = ranking.evaluate(a), ranking.evaluate(b), ranking.evaluate(c)
        assert (x < y) + (x == y) + (x > y) == 1
        assert (x < y) == (y > x) and (x == y) == (y == x)
        if x <= y and y <= z:
            assert x <= z
        if x == y:
            assert hash(x) == hash(y)


@given(hands5, suit_maps)
def test_suits_are_equal(cards: list, perm: list[str]) -> None:  # type: ignore[type-arg]
    """§ 637a.6(c): "All suits shall be considered equal in rank." A suit permutation keeps a flush a
    flush, so every order is invariant under it."""
    mapping = dict(zip("cdhs", perm, strict=True))
    renamed = [card(c.rank, mapping[c.suit]) for c in cards]
    assert A5_LOW.evaluate(renamed) == A5_LOW.evaluate(cards)
    assert DEUCE_TO_SEVEN_LOW.evaluate(renamed) == DEUCE_TO_SEVEN_LOW.evaluate(cards)
    assert eight_or_better_value(renamed) == eight_or_better_value(cards)


@given(hands5, st.lists(st.sampled_from("cdhs"), min_size=5, max_size=5))
def test_suits_matter_only_through_the_flush(cards: list, suits: list[str]) -> None:  # type: ignore[type-arg]
    """Any new suits (no duplicate cards): A-5 and eight-or-better never change (§ 637a.20(k)(4)(iii));
    2-7 changes only when the hand becomes or stops being a flush (§ 637a.20(k)(3)(iii))."""
    resuited = [card(c.rank, s) for c, s in zip(cards, suits, strict=True)]
    if len(set(resuited)) < 5:
        return
    assert a5_code(resuited) == a5_code(cards)
    assert eight_or_better_code(resuited) == eight_or_better_code(cards)
    was_flush = len({c.suit for c in cards}) == 1
    is_flush = len(set(suits)) == 1
    assert (deuce_to_seven_code(resuited) == deuce_to_seven_code(cards)) == (was_flush == is_flush)


@given(hands5)
def test_value_is_printable_and_its_cards_make_it(cards: list) -> None:  # type: ignore[type-arg]
    for ranking in RANKINGS:
        value = ranking.evaluate(cards)
        assert sorted(value.cards, key=str) == sorted(cards, key=str)
        assert ranking.evaluate(list(value.cards)) == value
        assert value.words and value.category
        assert value.to_json()["ranking"] == ranking.name


# --- full enumeration --------------------------------------------------------------------------


@pytest.mark.slow
def test_all_five_card_hands_counts() -> None:
    """Over all 2,598,960 hands: 57,344 = C(8,5) * 4^5 eight-or-better lows; 1,317,888 = C(13,5) * 4^5
    A-5 no-pair hands (flushes and straights included, § 637a.20(k)(4)(iii)); in 2-7 the 1,302,540
    "high card" hands of the high order (testdata README) and the 4^5 - 4 unsuited A-5-4-3-2, which is
    no straight when the ace is only high (§ 637a.20(k)(3)(i))."""
    low = a5_no_pair = d27_no_pair = wheels = 0
    for five in combinations(DECK, 5):
        if eight_or_better_code(five) is not None:
            low += 1
        if a5_code(five) >> 20 == 0:
            a5_no_pair += 1
        if deuce_to_seven_code(five) >> 20 == 0:
            d27_no_pair += 1
            if sorted(c.rank for c in five) == [2, 3, 4, 5, 14]:
                wheels += 1
    assert low == 56 * 4**5
    assert a5_no_pair == 1287 * 4**5
    # High's "high card" count (README) plus the unsuited A-5-4-3-2, no straight in 2-7.
    assert wheels == 4**5 - 4
    assert d27_no_pair == 1_302_540 + wheels
