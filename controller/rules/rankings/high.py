"""Five-card high poker: § 639a.6 (Caribbean Stud) and § 647a.6 (Texas Hold 'Em Bonus).

Both sections define the same order (b)(1)-(9) with "no hand" below the pair,
and the same tie rule (c): "the hand that contains the highest ranking card
... which is not contained in the other hand" wins, otherwise a tie. Comparing
the ranks in significance order (the pair before its kickers) is that rule.

An ace is high, or low only in the straight and straight flush 5-4-3-2-A
(§ 639a.6(a)); Q-K-A-2-3 is no straight. Suits are equal.

The best five of six (Three Card Poker's Six Card Bonus) and of seven (Hold 'Em)
is the highest of all five-card hands in them. The evaluator does not try the
21 combinations: it reads the rank counts (a base-5 sum) and the suit counts in
one integer addition and looks the answer up in tables built on first use.

Hand codes are integers that order like the hands: ``category << 20`` then up
to five ranks of four bits, most significant first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..core.cards import ACE, SUIT_CHARS, Card
from ..core.hand import HandValue, Ranking, kickers, rank_name, rank_plural, rank_run

HIGH_CARD: Final = 0
PAIR: Final = 1
TWO_PAIR: Final = 2
THREE_OF_A_KIND: Final = 3
STRAIGHT: Final = 4
FLUSH: Final = 5
FULL_HOUSE: Final = 6
FOUR_OF_A_KIND: Final = 7
STRAIGHT_FLUSH: Final = 8
ROYAL_FLUSH: Final = 9

#: Category names in the words of § 639a.6(b), indexed by category.
CATEGORY_NAMES: Final = (
    "high card",
    "pair",
    "two pair",
    "three-of-a-kind",
    "straight",
    "flush",
    "full house",
    "four-of-a-kind",
    "straight flush",
    "royal flush",
)

_LOW32: Final = (1 << 32) - 1
_WHEEL_BITS: Final = 0b1_0000_0000_1111  # A,5,4,3,2 as rank bits (2 is bit 0)


def _pack(category: int, ranks: Sequence[int]) -> int:
    code = category
    for i in range(5):
        code = (code << 4) | (ranks[i] if i < len(ranks) else 0)
    return code


def _straight_top(mask: int, wheel: bool = True) -> int:
    """Highest card of the best straight in a rank bit mask, 0 if none."""
    for top in range(ACE, 5, -1):
        run = 0b11111 << (top - 6)
        if mask & run == run:
            return top
    if wheel and mask & _WHEEL_BITS == _WHEEL_BITS:
        return 5
    return 0


def _top_bits(mask: int, n: int) -> list[int]:
    out: list[int] = []
    for r in range(ACE, 1, -1):
        if mask >> (r - 2) & 1:
            out.append(r)
            if len(out) == n:
                break
    return out


def _flush_code(mask: int) -> int:
    """Best hand from the ranks of one suit (five or more of them)."""
    top = _straight_top(mask)
    if top == ACE:
        return _pack(ROYAL_FLUSH, (ACE,))
    if top:
        return _pack(STRAIGHT_FLUSH, (top,))
    return _pack(FLUSH, _top_bits(mask, 5))


def _nonflush_code(counts: Sequence[int], wheel: bool = True) -> int:
    """Best five-card hand, ignoring suits, from ``counts[rank]`` (rank 2..14)."""
    by_count: list[list[int]] = [[], [], [], [], []]
    mask = 0
    for r in range(ACE, 1, -1):
        n = counts[r]
        if n:
            by_count[min(n, 4)].append(r)
            mask |= 1 << (r - 2)
    quads, trips, pairs = by_count[4], by_count[3], by_count[2]

    def rest(*used: int, n: int) -> list[int]:
        return [r for r in range(ACE, 1, -1) if counts[r] and r not in used][:n]

    if quads:
        q = quads[0]
        return _pack(FOUR_OF_A_KIND, [q, *rest(q, n=1)])
    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        p = max([*trips[1:], *pairs])
        return _pack(FULL_HOUSE, (t, p))
    top = _straight_top(mask, wheel)
    if top:
        return _pack(STRAIGHT, (top,))
    if trips:
        t = trips[0]
        return _pack(THREE_OF_A_KIND, [t, *rest(t, n=2)])
    if len(pairs) >= 2:
        a, b = pairs[0], pairs[1]
        return _pack(TWO_PAIR, [a, b, *rest(a, b, n=1)])
    if pairs:
        p = pairs[0]
        return _pack(PAIR, [p, *rest(p, n=3)])
    return _pack(HIGH_CARD, _top_bits(mask, 5))


# Tables, built once on import (a few milliseconds) or filled on first sight.
_FLUSH_TABLE: Final = [_flush_code(m) if m.bit_count() >= 5 else -1 for m in range(1 << 13)]
_FLUSH_SUIT: Final = [
    next((SUIT_CHARS[s] for s in range(4) if (k >> (3 * s)) & 7 >= 5), "") for k in range(1 << 12)
]
_NONFLUSH: dict[int, int] = {}


def _nonflush_from_key(key: int) -> int:
    counts = [0, 0] + [(key // 5**i) % 5 for i in range(13)]
    code = _nonflush_code(counts)
    _NONFLUSH[key] = code
    return code


def code5(cards: Sequence[Card]) -> int:
    """Hand code of exactly five cards (no joker)."""
    a, b, c, d, e = cards
    k = a.code + b.code + c.code + d.code + e.code
    if _FLUSH_SUIT[k >> 32]:
        return _FLUSH_TABLE[a.bit | b.bit | c.bit | d.bit | e.bit]
    k &= _LOW32
    v = _NONFLUSH.get(k)
    return _nonflush_from_key(k) if v is None else v


def code7(cards: Sequence[Card]) -> int:
    """Hand code of the best five of exactly seven cards (no joker)."""
    a, b, c, d, e, f, g = cards
    k = a.code + b.code + c.code + d.code + e.code + f.code + g.code
    s = _FLUSH_SUIT[k >> 32]
    if s:
        m = 0
        for x in cards:
            if x.suit == s:
                m |= x.bit
        return _FLUSH_TABLE[m]
    k &= _LOW32
    v = _NONFLUSH.get(k)
    return _nonflush_from_key(k) if v is None else v


def code_best(cards: Sequence[Card]) -> int:
    """Hand code of the best five of five, six or seven cards (no joker)."""
    k = 0
    for x in cards:
        k += x.code
    s = _FLUSH_SUIT[k >> 32]
    if s:
        m = 0
        for x in cards:
            if x.suit == s:
                m |= x.bit
        return _FLUSH_TABLE[m]
    k &= _LOW32
    v = _NONFLUSH.get(k)
    return _nonflush_from_key(k) if v is None else v


def code_from_ranks(ranks: Sequence[int], *, flush: bool, wheel: bool = True) -> int:
    """Hand code of five cards given by rank (2..14) and whether they are suited.

    ``wheel=False`` is for 2-7 lowball, where the ace is only high
    (§ 637a.20(k)(3)(i)) and 5-4-3-2-A is no straight.
    """
    if len(ranks) != 5:
        raise ValueError(f"five ranks needed, not {len(ranks)}")
    mask = 0
    counts = [0] * 15
    for r in ranks:
        counts[r] += 1
        mask |= 1 << (r - 2)
    code = _nonflush_code(counts, wheel)
    if flush and mask.bit_count() == 5:
        top = _straight_top(mask, wheel)
        if top == ACE:
            return _pack(ROYAL_FLUSH, (ACE,))
        if top:
            return _pack(STRAIGHT_FLUSH, (top,))
        return _pack(FLUSH, _top_bits(mask, 5))
    return code


def category_of(code: int) -> int:
    return code >> 20


def ranks_of(code: int) -> tuple[int, ...]:
    """The ranks packed in a code, most significant first, without padding."""
    out = [(code >> (16 - 4 * i)) & 15 for i in range(5)]
    return tuple(r for r in out if r)


def _expanded(code: int) -> list[int]:
    """The five ranks of the hand in significance order (straights spelled out)."""
    cat, r = category_of(code), ranks_of(code)
    if cat in (STRAIGHT, STRAIGHT_FLUSH, ROYAL_FLUSH):
        return [ACE if x == 1 else x for x in range(r[0], r[0] - 5, -1)] if r[0] > 5 else [5, 4, 3, 2, ACE]
    if cat == FOUR_OF_A_KIND:
        return [r[0]] * 4 + [r[1]]
    if cat == FULL_HOUSE:
        return [r[0]] * 3 + [r[1]] * 2
    if cat == THREE_OF_A_KIND:
        return [r[0]] * 3 + list(r[1:])
    if cat == TWO_PAIR:
        return [r[0]] * 2 + [r[1]] * 2 + [r[2]]
    if cat == PAIR:
        return [r[0]] * 2 + list(r[1:])
    return list(r)


def best_five(cards: Sequence[Card], code: int) -> tuple[Card, ...]:
    """The five of ``cards`` that make the hand ``code``, in significance order."""
    cat = category_of(code)
    pool = list(cards)
    if cat in (FLUSH, STRAIGHT_FLUSH, ROYAL_FLUSH):
        suit_counts = {s: sum(1 for c in pool if c.suit == s) for s in SUIT_CHARS}
        suit = max(suit_counts, key=lambda s: suit_counts[s])
        pool = [c for c in pool if c.suit == suit]
    chosen: list[Card] = []
    for rank in _expanded(code):
        pick = next(c for c in pool if c.rank == rank)
        pool.remove(pick)
        chosen.append(pick)
    return tuple(chosen)


def describe(code: int) -> str:
    """The hand in words: ``"flush, ace-king-queen-jack-nine"``."""
    cat, r = category_of(code), ranks_of(code)
    name = CATEGORY_NAMES[cat]
    if cat == ROYAL_FLUSH:
        return name
    if cat in (STRAIGHT, STRAIGHT_FLUSH):
        return f"{name}, {rank_name(r[0])} high"
    if cat in (FOUR_OF_A_KIND, THREE_OF_A_KIND, PAIR):
        return f"{name}, {rank_plural(r[0])}{kickers(r[1:])}"
    if cat == FULL_HOUSE:
        return f"{name}, {rank_plural(r[0])} full of {rank_plural(r[1])}"
    if cat == TWO_PAIR:
        return f"{name}, {rank_plural(r[0])} and {rank_plural(r[1])}{kickers(r[2:])}"
    return f"{name}, {rank_run(r)}"


def value_from_code(code: int, cards: Sequence[Card], ranking: str = "high") -> HandValue:
    """The printable value of ``code``, with the five of ``cards`` that make it."""
    category = CATEGORY_NAMES[category_of(code)]
    return HandValue(ranking, (code,), category, describe(code), best_five(cards, code))


def high_value(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    """The best five-card high hand of five, six or seven cards (with ``board``)."""
    allc = [*cards, *board]
    return value_from_code(code_best(allc), allc)


HIGH: Final = Ranking(
    name="high",
    section="§ 639a.6, § 647a.6",
    summary="five-card high poker; the best five of five, six or seven cards",
    hand_sizes=(5, 6, 7),
    evaluate_unchecked=high_value,
)

RANKINGS: Final = (HIGH,)
