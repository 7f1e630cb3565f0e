"""Badugi hands: Badugi Poker (§ 637a.21(k)) and the Badugi half of Badeucey and Badacey (§ 637a.20(l)).

§ 637a.21(k), "rankings in order from highest to lowest":

(1) "The lowest Badugi hand shall win the pot. For purposes of this section,
a Badugi hand shall be a hand in which each of the player's four cards are of
a different suit from the others and rank in accordance with § 637a.6(c) ...
with the best Badugi hand being an ace, 2, 3 and 4."
(2) "If no players have a Badugi, the player with the lowest hand containing
three cards, each of which are a different suit and rank."
(3) ... "the lowest hand containing two cards, each of which are a different
suit and rank" ...
(4) ... "the player with the lowest card."

So a hand's value is its best set of cards of different suits and different
ranks: more cards beat fewer (a four-card Badugi beats every three-card hand,
and so on), and between sets of the same size the lower wins, compared from
the highest card down (§ 637a.20(k)(1): "Hands are counted from the highest
card in the hand to the lowest card in the hand"). The ace is low
(§ 637a.6(c): "ace, 2, 3, ... king"); suits are equal.

Badeucey and Badacey (§ 637a.20(l)) split the pot between a lowball hand and
"the best Badugi hand", "a hand in which four of the player's five cards are
of a different suit from the others": the best Badugi of FIVE cards.

* ``"badeucey-badugi"`` (§ 637a.20(l)(1)(i)): with 2-7 Lowball, the ranks
  "in accordance with § 637a.6(c)", whose second sentence orders 2-7 Lowball
  2 to ace: the ace is HIGH, and the text names 2, 3, 4 and 5 the best.
* ``"badacey-badugi"`` (§ 637a.20(l)(2)(i)): with A-5 Lowball, the ace low;
  the best is ace, 2, 3 and 4.

The text defines only the four-card Badugi for these games and does not say
what happens when no player has one. We rank their hands without a four-card
Badugi by § 637a.21(k)(2)-(4), the section that defines the Badugi ranking:
(l) awards the half to "the best Badugi hand" and defines the hand by
reference to Badugi's rules, and § 637a.21(k) is where the regulations say how
Badugi hands without four suits are ranked. A game that would rather give the
half elsewhere when nobody has four suits can see it with :func:`is_badugi`.

The key of a value is ``(cards, -highest, -next, ...)``: more cards first,
then the lower ranks. Greater keys are better hands, as everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from ..core.cards import ACE, Card
from ..core.hand import HandValue, Ranking, rank_run

#: Category names by the number of cards in the hand (§ 637a.21(k)(1)-(4)).
CATEGORY_NAMES: Final = {
    4: "badugi",
    3: "three-card hand",
    2: "two-card hand",
    1: "one-card hand",
}


def _rank_ace_low(c: Card) -> int:
    """§ 637a.6(c), first sentence: "ace, 2, 3, ... king" from best to worst in low hand Poker."""
    return 1 if c.rank == ACE else c.rank


def _rank_ace_high(c: Card) -> int:
    """§ 637a.6(c), second sentence: "2, 3, 4, ... king and ace" (2-7 Lowball, so Badeucey)."""
    return c.rank


def best_badugi(cards: Sequence[Card], *, ace_low: bool = True) -> tuple[Card, ...]:
    """The cards of the best Badugi hand in ``cards``, highest rank first.

    The largest set of cards that are all of different suits and different
    ranks (§ 637a.21(k)(1)-(4)), and among those of that size the lowest,
    compared from the highest card down (§ 637a.20(k)(1)). At most four cards,
    as there are four suits. Between sets of equal ranks (they differ only in
    suits, which are equal) the first in the order of ``cards`` is chosen.
    """
    if not cards:
        raise ValueError("a Badugi hand needs at least one card")
    rank_of = _rank_ace_low if ace_low else _rank_ace_high
    for size in range(min(4, len(cards)), 0, -1):
        best: tuple[int, ...] | None = None
        chosen: tuple[Card, ...] = ()
        for combo in combinations(cards, size):
            if len({c.suit for c in combo}) != size:
                continue
            ranks = sorted((rank_of(c) for c in combo), reverse=True)
            if len(set(ranks)) != size:
                continue
            low = tuple(ranks)
            if best is None or low < best:
                best = low
                chosen = tuple(sorted(combo, key=rank_of, reverse=True))
        if best is not None:
            return chosen
    raise AssertionError("one card is always a one-card hand")  # pragma: no cover


def _value(cards: Sequence[Card], ranking: str, ace_low: bool) -> HandValue:
    chosen = best_badugi(cards, ace_low=ace_low)
    rank_of = _rank_ace_low if ace_low else _rank_ace_high
    ranks = [rank_of(c) for c in chosen]
    category = CATEGORY_NAMES[len(chosen)]
    key = (len(chosen), *(-r for r in ranks))
    return HandValue(ranking, key, category, f"{category}, {rank_run(ranks)}", chosen)


def badugi_value(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    """Badugi Poker, four cards, ace low (§ 637a.21(k)); ``board`` is unused."""
    return _value(cards, BADUGI.name, ace_low=True)


def badeucey_badugi_value(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    """The Badugi half of Badeucey: best Badugi of five cards, ace high (§ 637a.20(l)(1)(i))."""
    return _value(cards, BADEUCEY_BADUGI.name, ace_low=False)


def badacey_badugi_value(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    """The Badugi half of Badacey: best Badugi of five cards, ace low (§ 637a.20(l)(2)(i))."""
    return _value(cards, BADACEY_BADUGI.name, ace_low=True)


def badugi_size(value: HandValue) -> int:
    """How many cards make the Badugi hand ``value`` (4 for a Badugi, 3, 2 or 1)."""
    return value.key[0]


def is_badugi(value: HandValue) -> bool:
    """Whether ``value`` is a four-card Badugi, the hand § 637a.21(k)(1) and § 637a.20(l) define."""
    return badugi_size(value) == 4


BADUGI: Final = Ranking(
    name="badugi",
    section="§ 637a.21(k)",
    summary="Badugi: four cards; most cards of different suits and ranks, then lowest; best A-2-3-4",
    hand_sizes=(4,),
    evaluate_unchecked=badugi_value,
)

BADEUCEY_BADUGI: Final = Ranking(
    name="badeucey-badugi",
    section="§ 637a.20(l)(1)(i), § 637a.21(k), § 637a.6(c)",
    summary="Badeucey's Badugi half: best Badugi of five cards, ace high; best 2-3-4-5",
    hand_sizes=(5,),
    evaluate_unchecked=badeucey_badugi_value,
)

BADACEY_BADUGI: Final = Ranking(
    name="badacey-badugi",
    section="§ 637a.20(l)(2)(i), § 637a.21(k), § 637a.6(c)",
    summary="Badacey's Badugi half: best Badugi of five cards, ace low; best A-2-3-4",
    hand_sizes=(5,),
    evaluate_unchecked=badacey_badugi_value,
)

RANKINGS: Final[tuple[Ranking, ...]] = (BADUGI, BADEUCEY_BADUGI, BADACEY_BADUGI)
