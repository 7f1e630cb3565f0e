"""Three Card Poker rankings, § 649a.6: examples, full enumerations, independent counts, properties.

Our copy of the regulation (43 Pa.B. 834) prints § 649a.6(d)(8) and (e) only; the base text of
§ 649a.6(a)-(c) is the standard Pennsylvania three-card order (see docs/rankings/three-card-poker.md).
"""

from __future__ import annotations

import itertools
from collections import Counter
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.core.cards import CardError, card, parse_card, parse_cards, standard_deck
from controller.rules.core.hand import HandValue
from controller.rules.rankings.high import CATEGORY_NAMES, code5
from controller.rules.rankings.three_card import (
    BLACKJACK_THREE_CARD_POKER_WINNERS,
    RANKINGS,
    SIX_CARD_BONUS,
    SIX_CARD_BONUS_E,
    SIX_CARD_BONUS_HANDS,
    THREE_CARD_CATEGORY_NAMES,
    THREE_CARD_POKER,
    THREE_CARD_POKER_MINI_ROYAL,
    THREE_CARD_POKER_SHOE,
    blackjack_three_card_hand,
    blackjack_three_card_poker_wins,
    is_suited,
    six_card_bonus_eligible,
    six_card_bonus_value,
    six_card_code,
    three_card_key,
    three_card_value,
)

DECK = standard_deck()


def tcp(text: str) -> HandValue:
    return THREE_CARD_POKER.evaluate(parse_cards(text))


def mini(text: str) -> HandValue:
    return THREE_CARD_POKER_MINI_ROYAL.evaluate(parse_cards(text))


def six(text: str) -> HandValue:
    return SIX_CARD_BONUS.evaluate(parse_cards(text))


def six_e(text: str) -> HandValue:
    return SIX_CARD_BONUS_E.evaluate(parse_cards(text))


# --- the regulation's own examples -----------------------------------------------------------


def test_super_royal() -> None:
    """§ 649a.6(d)(8): "A Super Royal, if the certificate holder selects paytable E in § 649a.12(f)
    ..., which is a six-card Poker hand consisting of an ace, king, queen, jack, 10 and 9 of the
    same suit"."""
    sr = six_e("As Ks Qs Js Ts 9s")
    assert sr.category == "Super Royal"
    assert sr.words == "Super Royal, ace-king-queen-jack-ten-nine"
    assert [str(c) for c in sr.cards] == ["As", "Ks", "Qs", "Js", "Ts", "9s"]
    # It outranks every royal flush, which is the best hand of paytables without it.
    royal = six_e("Ah Kh Qh Jh Th 2c")
    assert royal.category == "royal flush"
    assert sr > royal
    assert sr > six_e("Ad Kd Qd Jd Td 9c")  # the 9 of another suit: a royal flush only
    assert six_e("Ad Kd Qd Jd Td 9c").category == "royal flush"
    assert six_e("Kc Qc Jc Tc 9c 8c").category == "straight flush"
    # Without paytable E the same six cards are a royal flush, equal to any other royal flush.
    assert six("As Ks Qs Js Ts 9s").category == "royal flush"
    assert six("As Ks Qs Js Ts 9s") == six("Ah Kh Qh Jh Th 2c")


def test_mini_royal_flush() -> None:
    """§ 649a.6(e): "If the paytable selected by the certificate holder includes a mini-royal flush,
    which is a hand consisting of an ace, king and queen, a mini-royal flush outranks a straight
    flush in subsection (b)." (§ 649a.12(g) allows it in the paytables of (b) and (d).)"""
    mr = mini("Ah Kh Qh")
    assert mr.category == "mini-royal flush" and mr.words == "mini-royal flush"
    assert mr > mini("Kh Qh Jh") > mini("3s 2s As")
    assert mini("Ah Kh Qh") == mini("Qc Ac Kc")
    # "flush": the ace, king and queen of one suit; unsuited they are the highest straight.
    assert mini("Ah Kd Qh").category == "straight"
    assert mini("Ah Kd Qh") < mini("3s 2s As")
    # Without the mini-royal paytable, A-K-Q suited is the highest straight flush (§ 649a.6(b)).
    akq = tcp("Ah Kh Qh")
    assert akq.category == "straight flush"
    assert akq.words == "straight flush, ace-king-queen"


def test_ace_king_queen_highest_and_ace_two_three_lowest() -> None:
    """§ 649a.6(a),(b): the ace ranks high, and low only in ace, 2, 3; ace-king-queen is the highest
    straight (flush) and ace-2-3 the lowest; king-ace-2 is no straight."""
    assert tcp("As 2d 3c").category == "straight"
    assert tcp("As 2d 3c").words == "straight, three-two-ace"
    assert [str(c) for c in tcp("As 2d 3c").cards] == ["3c", "2d", "As"]
    assert tcp("As 2d 3c") < tcp("2c 3d 4h") < tcp("Qs Kd Ah")
    assert tcp("Qs Kd Ah") == max(tcp(" ".join(str(c) for c in h)) for h in _straights())
    assert tcp("3h 2h Ah").category == "straight flush"
    assert tcp("3h 2h Ah") < tcp("4c 3c 2c") < tcp("Kd Qd Jd") < tcp("Ad Kd Qd")
    assert tcp("Kh Ac 2d").category == "high card"
    assert tcp("Kh Ah 2h").category == "flush"


def _straights() -> list[tuple[object, ...]]:
    return [h for h in combinations(DECK, 3) if THREE_CARD_POKER.evaluate(h).category == "straight"]


def test_order_of_the_permissible_hands() -> None:
    """§ 649a.6(b), highest to lowest, each class's highest and lowest hand."""
    ladder = [
        ("straight flush", "Ah Kh Qh", "3c 2c Ac"),
        ("three-of-a-kind", "As Ah Ad", "2s 2h 2d"),
        ("straight", "As Kh Qd", "3c 2d Ah"),
        ("flush", "As Ks Js", "5d 3d 2d"),
        ("pair", "As Ah Kd", "2s 2h 3d"),
        ("high card", "As Kh Jd", "5c 3d 2h"),
    ]
    previous_lowest = None
    for name, best, worst in ladder:
        hi, lo = tcp(best), tcp(worst)
        assert hi.category == lo.category == name
        assert hi > lo
        if previous_lowest is not None:
            assert previous_lowest > hi, f"lowest {previous_lowest} should beat highest {hi}"
        previous_lowest = lo


def test_highest_card_not_in_the_other_hand() -> None:
    """§ 649a.6(c): of two hands of identical rank the one with the highest ranking card not
    contained in the other hand wins; otherwise a tie. Suits are equal (§ 649a.6(a))."""
    assert tcp("Ks 9d 7c") > tcp("Kh 9c 6d")  # 7 is not in the other hand
    assert tcp("Ks 9s 7s") > tcp("Kh 9h 6h")
    assert tcp("8s 8d Ac") < tcp("9h 9c 2d")  # the pair decides before the kicker
    assert tcp("9s 9d Ac") > tcp("9h 9c Kd")
    assert tcp("Ks 9d 7c") == tcp("Kc 9h 7d")  # a tie
    assert tcp("5s 4d 3c") == tcp("5h 4h 3d")
    assert tcp("Js Jd Jc") > tcp("Ts Td Tc")


def test_words_and_cards() -> None:
    assert tcp("7d 7s Kc").words == "pair, sevens, with king"
    assert [str(c) for c in tcp("Kc 7d 7s").cards] == ["7d", "7s", "Kc"]
    assert tcp("Jh Jd Js").words == "three-of-a-kind, jacks"
    assert tcp("Qc 4c 6c").words == "flush, queen-six-four"
    assert tcp("Qc 4d 6c").words == "high card, queen-six-four"
    assert tcp("9s 8h Ts").words == "straight, ten-nine-eight"
    assert six("As Ad Ah 2c 2d 7s").words == "full house, aces full of twos"


def test_sizes_duplicates_and_jokers_are_refused() -> None:
    with pytest.raises(CardError, match="2 cards given"):
        tcp("As Kd")
    with pytest.raises(CardError, match="appears 2 times"):
        THREE_CARD_POKER.evaluate([parse_card("As"), parse_card("As"), parse_card("2c")])
    with pytest.raises(CardError, match="joker"):
        THREE_CARD_POKER.evaluate(parse_cards("As JKR 2c"))
    with pytest.raises(CardError, match="5 cards given"):
        SIX_CARD_BONUS.evaluate(parse_cards("As Kd Qh Jc 9d"))
    with pytest.raises(CardError):
        six_card_bonus_value(parse_cards("As Kd"), parse_cards("Qh Jc 9d 2c"))


def test_rankings_export() -> None:
    names = [r.name for r in RANKINGS]
    assert names == [
        "three-card-poker",
        "three-card-poker-mini-royal",
        "three-card-poker-shoe",
        "six-card-bonus",
        "six-card-bonus-e",
    ]
    for r in RANKINGS:
        assert r.section.startswith("§ ")
        value = r.evaluate(DECK[-r.hand_sizes[0] :])
        assert value.ranking == r.name


# --- full enumeration of the 22,100 three-card hands ----------------------------------------


@pytest.mark.slow
def test_all_22100_three_card_hands_by_category() -> None:
    """Counts from tests/data/README.md (Three Card Poker order)."""
    counts = Counter(THREE_CARD_POKER.evaluate(h).category for h in combinations(DECK, 3))
    assert counts == {
        "straight flush": 48,
        "three-of-a-kind": 52,
        "straight": 720,
        "flush": 1_096,
        "pair": 3_744,
        "high card": 16_440,
    }
    with_mini = Counter(three_card_key(h, mini_royal=True)[0] for h in combinations(DECK, 3))
    by_name = {THREE_CARD_CATEGORY_NAMES[c]: n for c, n in with_mini.items()}
    assert by_name["mini-royal flush"] == 4 and by_name["straight flush"] == 44
    assert sum(with_mini.values()) == comb(52, 3)


@pytest.mark.slow
def test_all_three_card_hands_order_like_a_reference() -> None:
    """Every class of the 22,100 hands, sorted by our key, must strictly rise under a reference
    comparison written from the text (§ 649a.6(b),(c)), and equal keys must be reference ties."""
    classes: dict[tuple[int, ...], tuple[object, ...]] = {}
    for h in combinations(DECK, 3):
        key = three_card_key(h)
        if key in classes:
            assert reference_compare(list(h), list(classes[key])) == 0
        else:
            classes[key] = h
    ordered = [classes[k] for k in sorted(classes)]
    for lo, hi in itertools.pairwise(ordered):
        assert reference_compare(list(hi), list(lo)) > 0, (lo, hi)
    # Distinct hands: 13 trips, 12 straight flushes and 12 straights (A-2-3 .. A-K-Q),
    # C(13,3)-12 = 274 flushes and as many high cards, 13*12 = 156 pairs.
    assert len(classes) == 13 + 12 + 12 + 274 + 274 + 156
    # § 649a.6(e) renames the top straight flush; it does not reorder any two hands.
    mini_keys = [three_card_key(classes[k], mini_royal=True) for k in sorted(classes)]  # type: ignore[arg-type]
    assert mini_keys == sorted(mini_keys) and len(set(mini_keys)) == len(mini_keys)


# --- the six-card hands: § 649a.6(d) ------------------------------------------------------------

#: Best five of six cards, the counts given in the brief (verified by ``independent_six_card_counts``).
SIX_CARD_COUNTS = {
    "royal flush": 188,
    "straight flush": 1_656,
    "four-of-a-kind": 14_664,
    "full house": 165_984,
    "flush": 205_792,
    "straight": 361_620,
    "three-of-a-kind": 732_160,
    "two pair": 2_532_816,
    "pair": 9_730_740,
    "high card": 6_612_900,
}

RANKS = range(2, 15)


def _straight_top(ranks: object) -> int:
    """Top of the best five-card straight in a set of ranks (ace high, or low in 5-4-3-2-A)."""
    s = set(ranks)  # type: ignore[call-overload]
    for top in range(14, 4, -1):
        if all((r if r > 1 else 14) in s for r in range(top, top - 5, -1)):
            return top
    return 0


def _rank_vectors(i: int = 0, left: int = 6) -> list[tuple[int, ...]]:
    """All ways to hold ``left`` cards in ranks ``i``..12 (at most four of a rank)."""
    if i == 13:
        return [()] if left == 0 else []
    return [(n, *rest) for n in range(min(4, left) + 1) for rest in _rank_vectors(i + 1, left - n)]


def _flush_ways(distinct: int) -> int:
    """Suit assignments of a six-card rank pattern that hold five or six cards of one suit."""
    if distinct == 6:
        return 4 + 6 * 4 * 3  # all six of one suit; or five of suit s and the sixth of another
    if distinct == 5:
        return 4 * 3  # suit s for one card of each rank, the pair's other card of another suit
    return 0


def _category_by_ranks(vec: tuple[int, ...]) -> str:
    ranks = [r for r, n in zip(RANKS, vec, strict=True) if n]
    shape = sorted((n for n in vec if n), reverse=True)
    if shape[0] == 4:
        return "four-of-a-kind"
    if shape[0] == 3 and shape[1] >= 2:
        return "full house"
    if len(ranks) >= 5 and _straight_top(ranks):
        return "straight"
    if shape[0] == 3:
        return "three-of-a-kind"
    if shape[:2] == [2, 2]:
        return "two pair"
    if shape[0] == 2:
        return "pair"
    return "high card"


def _flush_category(suited_ranks: tuple[int, ...]) -> str:
    top = _straight_top(suited_ranks)
    return "royal flush" if top == 14 else "straight flush" if top else "flush"


def independent_six_card_counts() -> Counter[str]:
    """Best five of six, counted by rank pattern and suit combinatorics (no evaluator used).

    With five or six cards of one suit the hand is at least a flush and can be no full house or
    four-of-a-kind (the sixth card pairs one rank at most): count the suited rank sets. Otherwise
    the hand is fixed by its ranks: count the rank patterns, each by its suit assignments less the
    flush ones.
    """
    out: Counter[str] = Counter()
    for k, ways in ((5, 4 * 39), (6, 4)):
        for suited in combinations(RANKS, k):
            out[_flush_category(suited)] += ways
    for vec in _rank_vectors():
        ways = 1
        for n in vec:
            ways *= comb(4, n)
        out[_category_by_ranks(vec)] += ways - _flush_ways(sum(1 for n in vec if n))
    return out


def test_six_card_counts_by_an_independent_count() -> None:
    counts = independent_six_card_counts()
    assert counts == SIX_CARD_COUNTS
    assert sum(counts.values()) == comb(52, 6) == 20_358_520
    # § 649a.6(d)(8): a Super Royal is six suited cards whose ranks are exactly 9 to ace, one set of
    # ranks in each of the four suits; every one of them is also counted above as a royal flush.
    super_royal_rank_sets = [s for s in combinations(RANKS, 6) if set(s) == set(range(9, 15))]
    assert 4 * len(super_royal_rank_sets) == 4


def test_six_card_counts_with_our_evaluator_by_pattern() -> None:
    """Our ranking on one hand per rank pattern (weighted by its non-flush suit assignments) and on
    every flush hand up to the choice of suit, against the published counts."""
    spades = {r: card(r, "s") for r in RANKS}
    out: Counter[str] = Counter()
    for vec in _rank_vectors():
        ranks = [r for r, n in zip(RANKS, vec, strict=True) for _ in range(n)]
        hand = [card(r, "cdhs"[i % 4]) for i, r in enumerate(ranks)]  # at most two of a suit
        ways = 1
        for n in vec:
            ways *= comb(4, n)
        out[SIX_CARD_BONUS.evaluate(hand).category] += ways - _flush_ways(sum(1 for n in vec if n))
    others = [c for c in DECK if c.suit != "s"]
    for suited in combinations(RANKS, 5):
        five = [spades[r] for r in suited]
        for sixth in others:
            out[SIX_CARD_BONUS.evaluate([*five, sixth]).category] += 4
    supers = 0
    for suited in combinations(RANKS, 6):
        hand = [spades[r] for r in suited]
        out[SIX_CARD_BONUS.evaluate(hand).category] += 4
        supers += SIX_CARD_BONUS_E.evaluate(hand).category == "Super Royal"
    assert out == SIX_CARD_COUNTS
    assert supers == 1  # one per suit: 4 Super Royals in all


@pytest.mark.slow
def test_all_20358520_six_card_hands_by_category() -> None:
    """Every six-card hand (about 10 s on the development machine), with the Super Royal of
    § 649a.6(d)(8) counted apart."""
    counts = Counter(six_card_code(h, super_royal=True) >> 20 for h in combinations(DECK, 6))
    by_name = {("Super Royal" if c == 10 else CATEGORY_NAMES[c]): n for c, n in counts.items()}
    expected = {**SIX_CARD_COUNTS, "Super Royal": 4, "royal flush": 188 - 4}
    assert by_name == expected


def test_six_card_bonus_eligible_hands() -> None:
    """§ 649a.6(d): the hands eligible for a payout are royal flush down to three-of-a-kind (and the
    Super Royal with paytable E); two pair and below lose."""
    assert SIX_CARD_BONUS_HANDS == (
        "Super Royal",
        "royal flush",
        "straight flush",
        "four-of-a-kind",
        "full house",
        "flush",
        "straight",
        "three-of-a-kind",
    )
    assert six_card_bonus_eligible(six("7s 7d 7h Ac 2d 9c"))
    assert six_card_bonus_eligible(six_e("As Ks Qs Js Ts 9s"))
    assert six_card_bonus_eligible(six("2c 3d 4h 5s 6c Kd"))
    assert not six_card_bonus_eligible(six("7s 7d 9h 9c 2d Ac"))
    assert not six_card_bonus_eligible(six("7s 7d 9h 8c 2d Ac"))
    with pytest.raises(ValueError, match="not a Six Card Bonus hand"):
        six_card_bonus_eligible(tcp("As Ks Qs"))


def test_six_card_bonus_value_from_player_and_dealer() -> None:
    player, dealer = parse_cards("Ah Kh 2c"), parse_cards("Qh Jh Th")
    value = six_card_bonus_value(player, dealer)
    assert value.category == "royal flush" and value.ranking == "six-card-bonus"
    assert six_card_bonus_value(player, dealer, super_royal=True).ranking == "six-card-bonus-e"
    with pytest.raises(CardError, match="appears 2 times"):
        six_card_bonus_value(player, parse_cards("Ah Jh Th"))


# --- blackjack's Three Card Poker Wager, § 633a.7(g)(8) ------------------------------------------


def test_blackjack_three_card_poker_wager() -> None:
    """§ 633a.7(g)(8): "If a player placed a Three Card Poker Wager and the dealer's up card and the
    player's initial two cards form a three-card Poker hand of a straight flush, three-of-a-kind,
    straight or a flush, the dealer shall pay the winning Three Card Poker Wager"."""
    winners = BLACKJACK_THREE_CARD_POKER_WINNERS
    assert winners == {"straight flush", "three-of-a-kind", "straight", "flush"}
    win = blackjack_three_card_hand(parse_cards("5h 6h"), parse_card("7h"), decks=6)
    assert win.category == "straight flush" and blackjack_three_card_poker_wins(win)
    assert win.ranking == "three-card-poker-shoe"
    pair = blackjack_three_card_hand(parse_cards("5h 5d"), parse_card("7h"), decks=6)
    assert pair.category == "pair" and not blackjack_three_card_poker_wins(pair)
    one_deck = blackjack_three_card_hand(parse_cards("5h 5d"), parse_card("5c"), decks=1)
    assert one_deck.ranking == "three-card-poker" and blackjack_three_card_poker_wins(one_deck)
    with pytest.raises(CardError, match="initial two cards"):
        blackjack_three_card_hand(parse_cards("5h"), parse_card("7h"), decks=6)


def test_multi_deck_hands() -> None:
    """Cards from a shoe: each hand is of the highest class whose definition it meets."""
    trips = three_card_value(parse_cards("8h 8h 8h", decks=3), decks=3)
    assert trips.category == "three-of-a-kind" and is_suited(trips.cards)
    assert trips == three_card_value(parse_cards("8h 8d 8c", decks=2), decks=2)
    suited_pair = three_card_value(parse_cards("8h 8h Kh", decks=2), decks=2)
    assert suited_pair.category == "flush" and suited_pair.words == "flush, king-eight-eight"
    assert suited_pair < three_card_value(parse_cards("Kh 9h 2h"), decks=2)
    assert THREE_CARD_POKER_SHOE.decks == 8
    with pytest.raises(CardError, match="appears 3 times"):
        three_card_value(parse_cards("8h 8h 8h", decks=3), decks=2)
    with pytest.raises(CardError, match="appears 2 times"):
        three_card_value(parse_cards("8h 8h 8d", decks=2))
    with pytest.raises(CardError, match="at least 1"):
        three_card_value(parse_cards("8h 7h 8d"), decks=0)


# --- properties --------------------------------------------------------------------------------

hands3 = st.lists(st.sampled_from(DECK), min_size=3, max_size=3, unique=True)
shoe3 = st.lists(st.sampled_from(DECK), min_size=3, max_size=3)
hands6 = st.lists(st.sampled_from(DECK), min_size=6, max_size=6, unique=True)
suit_maps = st.permutations("cdhs")


def reference_compare(a: list, b: list) -> int:  # type: ignore[type-arg]
    """Compare two three-card hands straight from the words of § 649a.6(a)-(c); +1 if ``a`` wins."""
    order = ["high card", "pair", "flush", "straight", "three-of-a-kind", "straight flush"]

    def straight_top(ranks: list[int]) -> int:
        s = sorted(ranks)
        if s == [2, 3, 14]:
            return 3
        return s[2] if len(set(s)) == 3 and s[2] - s[0] == 2 else 0

    def classify(h: list) -> tuple[str, list[int]]:  # type: ignore[type-arg]
        ranks = [c.rank for c in h]
        flush = len({c.suit for c in h}) == 1
        top = straight_top(ranks)
        counts = Counter(ranks)
        if top and flush:
            return "straight flush", [top]
        if 3 in counts.values():
            return "three-of-a-kind", [ranks[0]]
        if top:
            return "straight", [top]
        if flush:
            return "flush", ranks
        if 2 in counts.values():
            paired = next(r for r, n in counts.items() if n == 2)
            return "pair", [paired]  # the pair first; the kicker below
        return "high card", ranks

    (ca, ra), (cb, rb) = classify(a), classify(b)
    if ca != cb:
        return 1 if order.index(ca) > order.index(cb) else -1
    if ca == "pair" and ra != rb:
        return 1 if ra[0] > rb[0] else -1
    # (c) the highest ranking card contained in one hand and not the other decides.
    left = Counter(c.rank for c in a) - Counter(c.rank for c in b)
    right = Counter(c.rank for c in b) - Counter(c.rank for c in a)
    if ca in ("straight", "straight flush"):
        return (ra[0] > rb[0]) - (ra[0] < rb[0])
    if not left:
        return 0
    return 1 if max(left) > max(right) else -1


@given(hands3, hands3)
def test_order_agrees_with_the_reference(a: list, b: list) -> None:  # type: ignore[type-arg]
    va, vb = THREE_CARD_POKER.evaluate(a), THREE_CARD_POKER.evaluate(b)
    assert reference_compare(a, b) == (va > vb) - (va < vb)


@given(hands3, hands3, hands3)
def test_total_order(a: list, b: list, c: list) -> None:  # type: ignore[type-arg]
    for ranking in (THREE_CARD_POKER, THREE_CARD_POKER_MINI_ROYAL):
        va, vb, vc = (ranking.evaluate(h) for h in (a, b, c))
        assert sum((va < vb, va == vb, va > vb)) == 1
        assert (va <= vb and vb <= va) == (va == vb)
        if va <= vb and vb <= vc:
            assert va <= vc
        # Equal values are exactly the hands with the same ranks and the same suitedness.
        same = sorted(x.rank for x in a) == sorted(x.rank for x in b) and is_suited(a) == is_suited(b)
        assert (va == vb) == same


@given(hands6, hands6, hands6)
@settings(max_examples=200)
def test_six_card_total_order(a: list, b: list, c: list) -> None:  # type: ignore[type-arg]
    for ranking in (SIX_CARD_BONUS, SIX_CARD_BONUS_E):
        va, vb, vc = (ranking.evaluate(h) for h in (a, b, c))
        assert sum((va < vb, va == vb, va > vb)) == 1
        if va <= vb and vb <= vc:
            assert va <= vc


@given(hands3, suit_maps)
def test_three_card_suits_are_equal_in_rank(cards: list, perm: list[str]) -> None:  # type: ignore[type-arg]
    mapping = dict(zip("cdhs", perm, strict=True))
    renamed = [card(c.rank, mapping[c.suit]) for c in cards]
    for ranking in (THREE_CARD_POKER, THREE_CARD_POKER_MINI_ROYAL):
        assert ranking.evaluate(renamed) == ranking.evaluate(cards)
        assert ranking.evaluate(renamed).words == ranking.evaluate(cards).words


@given(shoe3, suit_maps)
def test_shoe_hands_suits_are_equal_and_order_is_kept(cards: list, perm: list[str]) -> None:  # type: ignore[type-arg]
    mapping = dict(zip("cdhs", perm, strict=True))
    renamed = [card(c.rank, mapping[c.suit]) for c in cards]
    value = THREE_CARD_POKER_SHOE.evaluate(cards)
    assert THREE_CARD_POKER_SHOE.evaluate(renamed) == value
    assert value.key == three_card_key(cards)
    assert sorted(c.rank for c in value.cards) == sorted(c.rank for c in cards)
    if len(set(cards)) == 3:
        assert value.key == THREE_CARD_POKER.evaluate(cards).key


@given(hands6, suit_maps)
@settings(max_examples=200)
def test_six_card_suits_are_equal_in_rank(cards: list, perm: list[str]) -> None:  # type: ignore[type-arg]
    mapping = dict(zip("cdhs", perm, strict=True))
    renamed = [card(c.rank, mapping[c.suit]) for c in cards]
    for ranking in (SIX_CARD_BONUS, SIX_CARD_BONUS_E):
        assert ranking.evaluate(renamed) == ranking.evaluate(cards)


@given(hands6)
@settings(max_examples=300)
def test_six_card_bonus_is_at_least_every_five_of_its_six(cards: list) -> None:  # type: ignore[type-arg]
    """§ 649a.6(d): the best five-card Poker hand of the six cards."""
    fives = [code5(f) for f in combinations(cards, 5)]
    plain, with_e = SIX_CARD_BONUS.evaluate(cards), SIX_CARD_BONUS_E.evaluate(cards)
    assert plain.key[0] == max(fives)
    assert with_e.key[0] >= max(fives)
    assert len(plain.cards) == 5 and set(plain.cards) <= set(cards)
    assert code5(plain.cards) == plain.key[0]
    assert plain.words.startswith(plain.category)
