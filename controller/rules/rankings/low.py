"""Five-card low poker: A-5 and 2-7 Lowball (§ 637a.20(k)) and the eight-or-better low (§ 637a.19(l)(1)).

§ 637a.6(c): "The rank of the cards used in low hand Poker in order of highest
to lowest rank, shall be: ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen and
king. In Triple Draw 2-7 Lowball Poker, the order of highest to lowest rank
shall be: 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, king and ace. All suits
shall be considered equal in rank."

§ 637a.6(d): "The ranking of a five-card low hand shall be the inverse of the
rankings for a five-card high hand as set forth in subsection (b). ... In
games except Triple Draw Lowball 2-7 Poker, straights and flushes will not be
considered for purposes of determining a winning hand at low Poker."

§ 637a.20(k)(1): "Hands are counted from the highest card in the hand to the
lowest card in the hand": two low hands of the same class are compared by
their highest cards first (a pair by its pair first, as in the high order),
and the lower card wins.

Three orders live here:

* ``"a5-low"``, Ace-5 Lowball (§ 637a.20(k)(4)): the ace only low, straights
  and flushes not considered, pairs are; best 5-4-3-2-A "regardless of suit".
* ``"27-low"``, 2-7 Lowball (§ 637a.20(k)(3)): the ace only high (A-5-4-3-2 is
  an ace-high hand, not a straight), straights, flushes and pairs all count;
  best 7-5-4-3-2 "not of the same suit". It is the high order of § 639a.6 with
  the ace only high, turned upside down.
* the eight-or-better low of Five-card Omaha High-low (§ 637a.19(l)(1)): five
  different ranks, none above 8 (ace low); straights and flushes not
  considered (§ 637a.6(d)). :mod:`.omaha` makes the ``"omaha-low8"`` ranking
  of it; a hand that does not qualify has the value "no qualifying low",
  below every qualifying low.

Low codes are integers where the SMALLER code is the better low hand; the
:class:`~.hand.HandValue` keys negate them, so there as everywhere a greater
key is a better hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from ..core.cards import ACE, Card
from ..core.hand import HandValue, Ranking, kickers, rank_plural, rank_run
from . import high

#: The ace played low (§ 637a.6(c)): rank 1, below the 2.
LOW_ACE: Final = 1

# A-5 classes, best first: the inverse of the high order of § 637a.6(b) with
# straights and flushes left out (§ 637a.6(d), § 637a.20(k)(4)(iii)).
NO_PAIR: Final = 0
PAIR: Final = 1
TWO_PAIR: Final = 2
THREE_OF_A_KIND: Final = 3
FULL_HOUSE: Final = 4
FOUR_OF_A_KIND: Final = 5

#: A-5 class names, indexed by class (best first). A hand of five different
#: ranks is "no pair"; it is named by its cards ("seven-five-four-three-ace").
A5_CATEGORY_NAMES: Final = (
    "no pair",
    "pair",
    "two pair",
    "three-of-a-kind",
    "full house",
    "four-of-a-kind",
)

#: Class names of the 2-7 order: those of the high order (§ 639a.6(b)), with
#: the hand of five different ranks, neither straight nor flush, called "no pair".
DEUCE_TO_SEVEN_CATEGORY_NAMES: Final = ("no pair", *high.CATEGORY_NAMES[1:])

EIGHT_OR_BETTER: Final = "eight-or-better low"
NO_QUALIFYING_LOW: Final = "no qualifying low"

#: The highest rank a card of an eight-or-better low may have (§ 637a.19(l)(1)).
EIGHT: Final = 8


def low_rank(c: Card) -> int:
    """The card's rank with the ace low (1), as § 637a.6(c) orders low hand Poker."""
    return LOW_ACE if c.rank == ACE else c.rank


def _pack(category: int, ranks: Sequence[int]) -> int:
    code = category
    for r in ranks:
        code = (code << 4) | r
    return code << 4 * (5 - len(ranks))


def _unpack(code: int) -> tuple[int, tuple[int, ...]]:
    ranks = tuple(r for r in ((code >> (16 - 4 * i)) & 15 for i in range(5)) if r)
    return code >> 20, ranks


# --- Ace-5 Lowball ---------------------------------------------------------------------------


def _a5_groups(cards: Sequence[Card]) -> tuple[int, list[int]]:
    """The A-5 class and the distinct ranks (ace 1) in significance order."""
    counts = Counter(low_rank(c) for c in cards)
    # The bigger group first, then the higher rank: "counted from the highest card" (§ 637a.20(k)(1)).
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [n for _, n in groups]
    if shape[0] >= 4:
        category = FOUR_OF_A_KIND
    elif shape[:2] == [3, 2]:
        category = FULL_HOUSE
    elif shape[0] == 3:
        category = THREE_OF_A_KIND
    elif shape[:2] == [2, 2]:
        category = TWO_PAIR
    elif shape[0] == 2:
        category = PAIR
    else:
        category = NO_PAIR
    return category, [r for r, _ in groups]


def a5_code(cards: Sequence[Card]) -> int:
    """A-5 low code of exactly five cards; the smaller code is the better hand.

    § 637a.20(k)(4): "(i) An ace is used only as a low card. (ii) The best
    possible A-5 Lowball Poker hand is a 5-4-3-2-A, regardless of suit. (iii) A
    straight or flush shall not be considered". Pairs are considered: the
    order is the inverse of the high order (§ 637a.6(d)), so a pair is worse
    than any hand of five different ranks.
    """
    if len(cards) != 5:
        raise ValueError(f"five cards needed, not {len(cards)}")
    category, ranks = _a5_groups(cards)
    return _pack(category, ranks)


def _ordered(cards: Sequence[Card], ranks: Sequence[int], rank_of: dict[Card, int]) -> tuple[Card, ...]:
    """``cards`` in the order of ``ranks`` (each group together), suits in a fixed order."""
    pool = sorted(cards, key=lambda c: c.suit)
    out: list[Card] = []
    for r in ranks:
        out.extend(c for c in pool if rank_of[c] == r)
    return tuple(out)


def _a5_words(code: int) -> str:
    category, r = _unpack(code)
    if category == NO_PAIR:
        return rank_run(r)
    name = A5_CATEGORY_NAMES[category]
    if category == FULL_HOUSE:
        return f"{name}, {rank_plural(r[0])} full of {rank_plural(r[1])}"
    if category == TWO_PAIR:
        return f"{name}, {rank_plural(r[0])} and {rank_plural(r[1])}{kickers(r[2:])}"
    return f"{name}, {rank_plural(r[0])}{kickers(r[1:])}"


def a5_low_value(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    """The A-5 Lowball value of five cards (§ 637a.20(k)(4)); ``board`` is unused."""
    code = a5_code(cards)
    _, ranks = _unpack(code)
    category = code >> 20
    ordered = _ordered(cards, ranks, {c: low_rank(c) for c in cards})
    return HandValue(A5_LOW.name, (-code,), A5_CATEGORY_NAMES[category], _a5_words(code), ordered)


# --- 2-7 Lowball -----------------------------------------------------------------------------


def deuce_to_seven_code(cards: Sequence[Card]) -> int:
    """The HIGH code (:mod:`.high`) of five cards with the ace only high; the smaller is the better 2-7 low.

    § 637a.20(k)(3): "(i) An ace is used only as a high card. (ii) The best
    possible 2-7 Lowball Poker hand is 7-5-4-3-2 with all five cards not of
    the same suit. (iii) A straight, flush or pair shall be considered". So
    the 2-7 order is the high order (§ 637a.6(b), as in § 639a.6(b)) turned
    upside down (§ 637a.6(d)), with A-5-4-3-2 an ace-high hand, no straight.
    """
    if len(cards) != 5:
        raise ValueError(f"five cards needed, not {len(cards)}")
    flush = len({c.suit for c in cards}) == 1
    return high.code_from_ranks([c.rank for c in cards], flush=flush, wheel=False)


def deuce_to_seven_value(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    """The 2-7 Lowball value of five cards (§ 637a.20(k)(3)); ``board`` is unused."""
    code = deuce_to_seven_code(cards)
    category = high.category_of(code)
    words = rank_run(high.ranks_of(code)) if category == high.HIGH_CARD else high.describe(code)
    return HandValue(
        DEUCE_TO_SEVEN_LOW.name,
        (-code,),
        DEUCE_TO_SEVEN_CATEGORY_NAMES[category],
        words,
        high.best_five(cards, code),
    )


# --- eight or better -------------------------------------------------------------------------


def eight_or_better_code(cards: Sequence[Card]) -> int | None:
    """The low code of a qualifying eight-or-better low, or ``None`` (smaller code = better low).

    § 637a.19(l)(1): "The winning low hand may not contain a pair, a
    three-of-a-kind or a four-of-a-kind or a 9, 10, jack, queen or king." So
    five cards of five different ranks, each an ace (low, § 637a.6(c)) or 2
    to 8. Straights and flushes are not considered (§ 637a.6(d)): 5-4-3-2-A
    of one suit is the best low.
    """
    if len(cards) != 5:
        raise ValueError(f"five cards needed, not {len(cards)}")
    ranks = sorted({low_rank(c) for c in cards}, reverse=True)
    if len(ranks) != 5 or ranks[0] > EIGHT:
        return None
    return _pack(NO_PAIR, ranks)


def qualifies_eight_or_better(cards: Sequence[Card]) -> bool:
    """Whether five cards make a low hand that may win the low half (§ 637a.19(l)(1))."""
    return eight_or_better_code(cards) is not None


def no_qualifying_low(ranking: str) -> HandValue:
    """The value of a hand with no eight-or-better low: below every qualifying low (§ 637a.19(l)(1))."""
    return HandValue(ranking, (0,), NO_QUALIFYING_LOW, NO_QUALIFYING_LOW, ())


def eight_or_better_from_code(code: int, cards: Sequence[Card], ranking: str) -> HandValue:
    """The value of a qualifying low of ``code`` made by the five ``cards``, highest card first."""
    _, ranks = _unpack(code)
    ordered = _ordered(cards, ranks, {c: low_rank(c) for c in cards})
    return HandValue(ranking, (1, -code), EIGHT_OR_BETTER, rank_run(ranks), ordered)


def eight_or_better_value(cards: Sequence[Card], ranking: str = "omaha-low8") -> HandValue:
    """The eight-or-better low value of five cards, or "no qualifying low" (§ 637a.19(l)(1)).

    Words read from the highest card down, as the hand is counted
    (§ 637a.20(k)(1)): ``"seven-five-four-two-ace"``. Every qualifying low has
    the key ``(1, -code)`` and the hand without one ``(0,)``, so it compares
    below all of them and equal to any other hand without one.
    """
    code = eight_or_better_code(cards)
    if code is None:
        return no_qualifying_low(ranking)
    return eight_or_better_from_code(code, cards, ranking)


A5_LOW: Final = Ranking(
    name="a5-low",
    section="§ 637a.20(k)(4), § 637a.6(c),(d)",
    summary="Ace-5 Lowball: ace only low, straights and flushes not considered; best 5-4-3-2-A",
    hand_sizes=(5,),
    evaluate_unchecked=a5_low_value,
)

DEUCE_TO_SEVEN_LOW: Final = Ranking(
    name="27-low",
    section="§ 637a.20(k)(3), § 637a.6(c),(d)",
    summary="2-7 Lowball: ace only high, straights, flushes and pairs count; best 7-5-4-3-2 not suited",
    hand_sizes=(5,),
    evaluate_unchecked=deuce_to_seven_value,
)

RANKINGS: Final[tuple[Ranking, ...]] = (A5_LOW, DEUCE_TO_SEVEN_LOW)
