"""What every hand ranking returns: a totally ordered, printable hand value.

Each ranking (five-card high, A-5 low, Badugi, Asia Poker, ...) is a
:class:`Ranking`: a name, the section of 58 Pa. Code that defines it, the hand
sizes it accepts and an ``evaluate`` function. ``evaluate`` gives a
:class:`HandValue`; for one ranking the better hand compares greater and equal
hands compare equal, so ``max()`` finds the winner and ``==`` finds a tie (a
"copy" in Asia Poker). Values of different rankings do not compare.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from .cards import RANK_NAMES, RANK_PLURALS, Card, CardError, check_cards, format_cards


@dataclass(frozen=True, eq=False, slots=True)
class HandValue:
    """The value of one hand under one ranking.

    ``key`` orders hands of the same ranking (greater is better). ``category``
    is the name of the hand class in the regulation's words ("flush",
    "two pair", "badugi"); ``words`` says the whole value ("flush,
    ace-king-queen-jack-nine"). ``cards`` are the cards that make the hand (the
    best five of seven, the four cards of a Badugi), in significance order.
    """

    ranking: str
    key: tuple[int, ...]
    category: str
    words: str
    cards: tuple[Card, ...] = field(default=())

    def _other_key(self, other: object) -> tuple[int, ...] | None:
        """``other``'s key, ``None`` if it is no hand value; refuses another ranking's value."""
        if not isinstance(other, HandValue):
            return None
        if other.ranking != self.ranking:
            raise TypeError(f"cannot compare a {self.ranking} hand with a {other.ranking} hand")
        return other.key

    def __eq__(self, other: object) -> bool:
        key = self._other_key(other)
        return NotImplemented if key is None else self.key == key

    def __ne__(self, other: object) -> bool:
        key = self._other_key(other)
        return NotImplemented if key is None else self.key != key

    def __lt__(self, other: object) -> bool:
        key = self._other_key(other)
        return NotImplemented if key is None else self.key < key

    def __le__(self, other: object) -> bool:
        key = self._other_key(other)
        return NotImplemented if key is None else self.key <= key

    def __gt__(self, other: object) -> bool:
        key = self._other_key(other)
        return NotImplemented if key is None else self.key > key

    def __ge__(self, other: object) -> bool:
        key = self._other_key(other)
        return NotImplemented if key is None else self.key >= key

    def __hash__(self) -> int:
        return hash((self.ranking, self.key))

    def __str__(self) -> str:
        return self.words

    def to_json(self) -> dict[str, object]:
        """A plain dict for the CLI and round records."""
        return {
            "ranking": self.ranking,
            "category": self.category,
            "words": self.words,
            "cards": format_cards(self.cards),
            "key": list(self.key),
        }


@dataclass(frozen=True, slots=True)
class Ranking:
    """One way of ranking hands, as one section of the regulations defines it.

    ``hand_sizes`` are the numbers of cards ``evaluate`` accepts; for a ranking
    played with community cards (Omaha) ``board_sizes`` is not empty and
    ``evaluate`` takes the board as its second argument. ``decks`` and
    ``joker`` say what the cards may come from, for the duplicate check.
    """

    name: str
    section: str
    summary: str
    hand_sizes: tuple[int, ...]
    evaluate_unchecked: Callable[[Sequence[Card], Sequence[Card]], HandValue]
    board_sizes: tuple[int, ...] = ()
    joker: bool = False
    decks: int = 1

    def evaluate(self, cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
        """The value of ``cards`` (with ``board`` where the ranking uses one).

        Refuses, with a :class:`~.cards.CardError`, a wrong number of cards, a
        joker where the game has none, or a card more often than the decks hold.
        """
        if len(cards) not in self.hand_sizes:
            raise CardError(
                f"{self.name}: {len(cards)} cards given ({format_cards(cards)!r}), "
                f"{_either(self.hand_sizes)} needed"
            )
        if self.board_sizes:
            if len(board) not in self.board_sizes:
                raise CardError(
                    f"{self.name}: a board of {len(board)} cards given, {_either(self.board_sizes)} needed"
                )
        elif board:
            raise CardError(f"{self.name}: this ranking uses no board")
        check_cards([*cards, *board], decks=self.decks, allow_joker=self.joker)
        return self.evaluate_unchecked(cards, board)


def _either(sizes: Sequence[int]) -> str:
    """``"5 or 7"``, or ``"2 to 22"`` for a run of sizes."""
    if len(sizes) > 2 and list(sizes) == list(range(sizes[0], sizes[-1] + 1)):
        return f"{sizes[0]} to {sizes[-1]}"
    return " or ".join(str(n) for n in sizes)


# --- words -----------------------------------------------------------------


def rank_name(rank: int) -> str:
    """``"ace"``, ``"ten"``; rank 1 is the ace played low."""
    return RANK_NAMES[rank]


def rank_plural(rank: int) -> str:
    """``"aces"``, ``"sixes"``."""
    return RANK_PLURALS[rank]


def rank_run(ranks: Sequence[int]) -> str:
    """``"ace-king-queen-jack-nine"``."""
    return "-".join(RANK_NAMES[r] for r in ranks)


def kickers(ranks: Sequence[int]) -> str:
    """``", with ace-king"`` or ``""`` when there are none."""
    return f", with {rank_run(ranks)}" if ranks else ""


SUIT_ORDER_SPADES_HIGH: Final = {"s": 4, "h": 3, "d": 2, "c": 1}
"""Suit order where suits break ties (odd chip, § 637a.19(k)(2)(iv))."""
