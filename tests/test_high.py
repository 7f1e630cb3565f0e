"""Five-card high poker, § 639a.6 and § 647a.6: examples, outside answers, counts, properties."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.core.cards import CardError, card, parse_cards, standard_deck
from controller.rules.rankings.high import (
    CATEGORY_NAMES,
    HIGH,
    code5,
    code7,
    code_best,
    code_from_ranks,
    ranks_of,
)

from .known_answers import assert_same_order, five_card_rows, seven_card_rows

DECK = standard_deck()


def v(text: str):  # type: ignore[no-untyped-def]
    return HIGH.evaluate(parse_cards(text))


# --- the regulation's own examples -----------------------------------------------------------


def test_ace_completes_only_the_five_high_straight() -> None:
    """§ 639a.6(a), § 647a.6(a): "an ace may be used to complete a straight flush or straight formed
    with a 2, 3, 4 and 5, but may not be combined with any other sequence of cards (for example,
    queen, king, ace, 2 and 3)"."""
    assert v("As 2d 3c 4h 5s").category == "straight"
    assert v("As 2s 3s 4s 5s").category == "straight flush"
    assert v("Qs Kd Ac 2h 3s").category == "high card"
    assert v("Qs Ks As 2s 3s").category == "flush"


def test_order_of_the_permissible_hands() -> None:
    """§ 639a.6(b)(1)-(9), highest to lowest, each with its highest and lowest example."""
    ladder = [
        # (1) royal flush
        ("As Ks Qs Js Ts", "As Ks Qs Js Ts"),
        # (2) straight flush: K-Q-J-10-9 highest, 5-4-3-2-A lowest
        ("Kh Qh Jh Th 9h", "5h 4h 3h 2h Ah"),
        # (3) four aces highest, four 2s lowest
        ("As Ah Ad Ac 2s", "2s 2h 2d 2c 3s"),
        # (4) three aces and two kings highest, three 2s and two 3s lowest
        ("As Ah Ad Kc Ks", "2s 2h 2d 3c 3s"),
        # (5) A-K-Q-J-9 highest flush, 2-3-4-5-7 lowest
        ("Ad Kd Qd Jd 9d", "2c 3c 4c 5c 7c"),
        # (6) A-K-Q-J-10 highest straight, 5-4-3-2-A lowest
        ("Ad Kc Qd Jd Td", "5c 4c 3c 2c Ad"),
        # (7) three aces highest, three 2s lowest
        ("As Ah Ad Kc Qs", "2s 2h 2d 3c 4s"),
        # (8) two aces and two kings highest, two 3s and two 2s lowest
        ("As Ah Kd Kc Qs", "3s 3h 2d 2c 4s"),
        # (9) two aces highest, two 2s lowest
        ("As Ah Kd Qc Js", "2s 2h 3d 4c 5s"),
        # no hand
        ("Ad Kc Qd Jd 9s", "7c 5d 4h 3s 2c"),
    ]
    names = [
        "royal flush",
        "straight flush",
        "four-of-a-kind",
        "full house",
        "flush",
        "straight",
        "three-of-a-kind",
        "two pair",
        "pair",
        "high card",
    ]
    previous_lowest = None
    for (best, worst), name in zip(ladder, names, strict=True):
        hi, lo = v(best), v(worst)
        assert hi.category == lo.category == name
        assert hi >= lo
        if previous_lowest is not None:
            assert previous_lowest > hi, f"lowest {previous_lowest} should beat highest {hi}"
        previous_lowest = lo


def test_highest_card_not_in_the_other_hand() -> None:
    """§ 639a.6(c): of two hands of identical rank, the one with the highest ranking card "which is
    not contained in the other hand" wins; otherwise a tie. Suits are equal (§ 639a.6(a))."""
    assert v("Ks Kd 9c 7h 2s") > v("Kh Kc 9d 6h 5s")  # 7 is not in the other hand
    assert v("As Ah 3d 3c 2s") < v("Ad Ac 4d 4c 2c")
    assert v("Js Jd 4c 4h 9s") > v("Jh Jc 4d 4s 8s")
    assert v("As Kd 9c 7h 2s") == v("Ac Kh 9d 7s 2d")  # a tie
    assert v("9s 8s 7s 6s 5s") == v("9h 8h 7h 6h 5h")


def test_words() -> None:
    assert v("Ah Kh Qh Jh 9h").words == "flush, ace-king-queen-jack-nine"
    assert v("As Ah Ad Kc Ks").words == "full house, aces full of kings"
    assert v("3s 3h 2d 2c 4s").words == "two pair, threes and twos, with four"
    assert v("5h 4h 3h 2h Ah").words == "straight flush, five high"
    assert v("As Ks Qs Js Ts").words == "royal flush"
    assert v("7c 5d 4h 3s 2c").words == "high card, seven-five-four-three-two"


def test_best_five_of_six_and_seven() -> None:
    """§ 647a.11: the best five of the player's two cards and the five community cards."""
    seven = v("Ah Kh 2c 3d Qh Jh Th")
    assert seven.category == "royal flush"
    assert sorted(str(c) for c in seven.cards) == sorted(["Ah", "Kh", "Qh", "Jh", "Th"])
    assert v("7c 7d 7h 2s 2d 9c 9d").words == "full house, sevens full of nines"
    assert v("As Ad Ah Ac Ks Kd").words == "four-of-a-kind, aces, with king"
    with pytest.raises(CardError, match="4 cards given"):
        v("As Kd Qh Jc")
    with pytest.raises(CardError, match="appears 2 times"):
        v("As As Qh Jc 9d")
    with pytest.raises(CardError, match="joker"):
        v("As JKR Qh Jc 9d")


def test_code_from_ranks_without_the_wheel() -> None:
    wheel = [14, 5, 4, 3, 2]
    assert CATEGORY_NAMES[code_from_ranks(wheel, flush=False) >> 20] == "straight"
    assert CATEGORY_NAMES[code_from_ranks(wheel, flush=False, wheel=False) >> 20] == "high card"
    assert CATEGORY_NAMES[code_from_ranks(wheel, flush=True, wheel=False) >> 20] == "flush"


# --- outside answers ---------------------------------------------------------------------------


def test_five_card_known_answers() -> None:
    """All 100,000 rows of the onejoker five-card file, high column."""
    rows = five_card_rows()
    assert len(rows) == 100_000
    seen = assert_same_order(((row[1], code5(parse_cards(row[0]))) for row in rows), "five-card high")
    assert seen > 5000


def test_seven_card_known_answers() -> None:
    """All 100,000 rows of the onejoker seven-card file: the class order and the best five."""
    rows = seven_card_rows()
    assert len(rows) == 100_000
    pairs = []
    for hand, cls, best in rows:
        cards = parse_cards(hand)
        code = code7(cards)
        pairs.append((cls, code))
        assert code == code5(parse_cards(best)), hand
        mine = HIGH.evaluate(cards)
        assert sorted(c.rank for c in mine.cards) == sorted(c.rank for c in parse_cards(best)), hand
    assert_same_order(pairs, "seven-card high")


# --- full enumeration --------------------------------------------------------------------------


@pytest.mark.slow
def test_all_2598960_five_card_hands_by_category() -> None:
    """Counts from tests/data/README.md (royal flushes counted apart, § 639a.6(b)(1))."""
    counts = Counter(code5(h) >> 20 for h in combinations(DECK, 5))
    by_name = {CATEGORY_NAMES[c]: n for c, n in counts.items()}
    assert by_name == {
        "royal flush": 4,
        "straight flush": 36,
        "four-of-a-kind": 624,
        "full house": 3_744,
        "flush": 5_108,
        "straight": 10_200,
        "three-of-a-kind": 54_912,
        "two pair": 123_552,
        "pair": 1_098_240,
        "high card": 1_302_540,
    }
    assert sum(counts.values()) == 2_598_960


# --- properties --------------------------------------------------------------------------------

hands5 = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
hands7 = st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True)
suit_maps = st.permutations("cdhs")


def reference_key(cards: list) -> tuple:  # type: ignore[type-arg]
    """A plain textbook evaluator, written apart from the product, for cross-checks."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    ordered = tuple(r for r, _ in groups)
    flush = len({c.suit for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    top = 0
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        top = distinct[0]
    elif distinct == [14, 5, 4, 3, 2]:
        top = 5
    shape = sorted(counts.values(), reverse=True)
    if top and flush:
        return (9 if top == 14 else 8, top)
    if shape[0] == 4:
        return (7, *ordered)
    if shape[:2] == [3, 2]:
        return (6, *ordered)
    if flush:
        return (5, *ranks)
    if top:
        return (4, top)
    if shape[0] == 3:
        return (3, *ordered)
    if shape[:2] == [2, 2]:
        return (2, *ordered)
    if shape[0] == 2:
        return (1, *ordered)
    return (0, *ranks)


@given(hands5, hands5)
def test_order_agrees_with_a_reference(a: list, b: list) -> None:  # type: ignore[type-arg]
    ca, cb = code5(a), code5(b)
    ra, rb = reference_key(a), reference_key(b)
    assert (ca > cb) == (ra > rb) and (ca == cb) == (ra == rb)
    va, vb = HIGH.evaluate(a), HIGH.evaluate(b)
    assert (va > vb) == (ca > cb) and (va == vb) == (ca == cb) and (va < vb) == (ca < cb)


@given(hands7)
@settings(max_examples=300)
def test_seven_is_the_best_of_its_twenty_one_fives(cards: list) -> None:  # type: ignore[type-arg]
    best = max(code5(five) for five in combinations(cards, 5))
    assert code7(cards) == best == code_best(cards)
    assert max(code5(five) for five in combinations(cards[:6], 5)) == code_best(cards[:6])


@given(hands7, suit_maps)
def test_suits_are_equal_in_rank(cards: list, perm: list[str]) -> None:  # type: ignore[type-arg]
    """§ 639a.6(a): "All suits shall be equal in rank"."""
    mapping = dict(zip("cdhs", perm, strict=True))
    renamed = [card(c.rank, mapping[c.suit]) for c in cards]
    assert code7(renamed) == code7(cards)
    assert code5(renamed[:5]) == code5(cards[:5])


@given(hands7)
def test_value_is_printable_and_its_cards_make_it(cards: list) -> None:  # type: ignore[type-arg]
    value = HIGH.evaluate(cards)
    assert len(value.cards) == 5 and set(value.cards) <= set(cards)
    assert code5(value.cards) == value.key[0]
    assert value.words.startswith(value.category)
    assert ranks_of(value.key[0])
