"""Five-card Omaha showdown hands: high, and the eight-or-better low (§ 637a.19(k),(l)).

§ 637a.19(k): "Each player remaining in the game shall form a five-card hand
using two of the five cards dealt to the player and three of the five
community cards." Exactly two and exactly three: four hearts on the board and
one in the hand are no flush, and four aces in the hand are only a pair.

* ``"omaha-high"`` (§ 637a.19(k)(1), (k)(2)(i)): the highest five-card high
  hand (:mod:`.high`) of the 10 x 10 ways to take two hole and three board cards.
* ``"omaha-low8"`` (§ 637a.19(k)(2)(i), (l)(1),(2)): the best low (:mod:`.low`)
  of the same groupings that qualifies: "The winning low hand may not contain
  a pair, a three-of-a-kind or a four-of-a-kind or a 9, 10, jack, queen or
  king." A hand with no such grouping has the value "no qualifying low", which
  compares below every qualifying low and equal to another hand without one;
  if no hand qualifies, the text gives the whole pot to the high hand
  (§ 637a.19(l)(1)), which the game decides with :func:`has_qualifying_low`.

§ 637a.19(l)(2): "The player may form two different hands of five cards each
... A player may use the same five-card grouping to make a high hand and a
low hand. An ace may be used concurrently as a low hand card to make up a low
hand and as a high card to make up a high hand." The two values are found
independently, so :func:`omaha_high_low` gives both for the showdown.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from ..core.cards import Card
from ..core.hand import HandValue, Ranking
from . import high
from .low import EIGHT, eight_or_better_from_code, low_rank, no_qualifying_low

#: Cards a player must use from the hand and from the board (§ 637a.19(k), (l)(2)).
HOLE_CARDS_USED: Final = 2
BOARD_CARDS_USED: Final = 3


def omaha_high_value(hole: Sequence[Card], board: Sequence[Card]) -> HandValue:
    """The highest five-card high hand of exactly two ``hole`` and three ``board`` cards (§ 637a.19(k)(1))."""
    best = -1
    best_cards: tuple[Card, ...] = ()
    board_triples = list(combinations(board, BOARD_CARDS_USED))
    for a, b in combinations(hole, HOLE_CARDS_USED):
        for c, d, e in board_triples:
            five = (a, b, c, d, e)
            code = high.code5(five)
            if code > best:
                best, best_cards = code, five
    return high.value_from_code(best, best_cards, OMAHA_HIGH.name)


def omaha_low8_value(hole: Sequence[Card], board: Sequence[Card]) -> HandValue:
    """The best eight-or-better low of two ``hole`` and three ``board`` cards, or "no qualifying low".

    § 637a.19(l)(1), (l)(2); ace low and straights and flushes not considered
    (§ 637a.6(c),(d)). Only cards of rank 8 or lower (or aces) can take part,
    and the five ranks must all differ.
    """
    low_hole = [c for c in hole if low_rank(c) <= EIGHT]
    low_board = [c for c in board if low_rank(c) <= EIGHT]
    best: int | None = None
    best_cards: tuple[Card, ...] = ()
    board_triples = []
    for triple in combinations(low_board, BOARD_CARDS_USED):
        ranks = {low_rank(c) for c in triple}
        if len(ranks) == BOARD_CARDS_USED:
            board_triples.append((triple, ranks))
    for pair in combinations(low_hole, HOLE_CARDS_USED):
        pair_ranks = {low_rank(c) for c in pair}
        if len(pair_ranks) != HOLE_CARDS_USED:
            continue
        for triple, ranks in board_triples:
            if pair_ranks & ranks:
                continue
            code = 0
            for r in sorted(pair_ranks | ranks, reverse=True):
                code = (code << 4) | r
            if best is None or code < best:
                best, best_cards = code, (*pair, *triple)
    if best is None:
        return no_qualifying_low(OMAHA_LOW8.name)
    return eight_or_better_from_code(best, best_cards, OMAHA_LOW8.name)


def has_qualifying_low(value: HandValue) -> bool:
    """Whether an ``"omaha-low8"`` value is an eight-or-better low (§ 637a.19(l)(1))."""
    return value.key[0] == 1


def omaha_high_low(hole: Sequence[Card], board: Sequence[Card]) -> tuple[HandValue, HandValue]:
    """The player's (high, low) hands for the showdown of Omaha High-low Split Eight or Better.

    § 637a.19(k)(2)(i), (l)(2): two hands of five cards, each of two hole and
    three board cards, possibly the same grouping, an ace counting high in
    the one and low in the other. Checks the cards like :meth:`Ranking.evaluate`.
    """
    return OMAHA_HIGH.evaluate(hole, board), OMAHA_LOW8.evaluate(hole, board)


OMAHA_HIGH: Final = Ranking(
    name="omaha-high",
    section="§ 637a.19(k)(1), (k)(2)(i)",
    summary="Five-card Omaha: best high hand of exactly two of five hole cards and three of five board cards",
    hand_sizes=(5,),
    evaluate_unchecked=omaha_high_value,
    board_sizes=(5,),
)

OMAHA_LOW8: Final = Ranking(
    name="omaha-low8",
    section="§ 637a.19(k)(2)(i), (l)(1),(2)",
    summary="Five-card Omaha eight-or-better low: two hole and three board cards, five ranks 8 or lower",
    hand_sizes=(5,),
    evaluate_unchecked=omaha_low8_value,
    board_sizes=(5,),
)

RANKINGS: Final[tuple[Ranking, ...]] = (OMAHA_HIGH, OMAHA_LOW8)
