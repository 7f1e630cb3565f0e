"""The Fortune hands of seven cards (Fortune Asia Poker, § 659a.6(d), (e) as the Rules Submission
writes them): seven-card straight flush down to three pair, the highest card of a hand with no
pair for the Insurance Wager. Pure values: the game is :mod:`.fortune_asia_poker`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..core.cards import ACE, SUIT_CHARS, Card

# --- the Fortune hands of seven cards -------------------------------------------------------

SEVEN_CARD_STRAIGHT_FLUSH: Final = "seven-card straight flush"
SEVEN_CARD_STRAIGHT_FLUSH_WITH_A_JOKER: Final = "seven-card straight flush with a joker"
FIVE_ACES: Final = "five aces"
ROYAL_FLUSH: Final = "royal flush"
NATURAL_STRAIGHT_FLUSH: Final = "natural straight flush"
STRAIGHT_FLUSH_WITH_A_JOKER: Final = "straight flush with a joker"
FOUR_OF_A_KIND: Final = "four-of-a-kind"
FULL_HOUSE: Final = "full house"
FLUSH: Final = "flush"
THREE_OF_A_KIND: Final = "three-of-a-kind"
STRAIGHT: Final = "straight"
THREE_PAIR: Final = "three pair"

FORTUNE_HANDS: Final = (
    SEVEN_CARD_STRAIGHT_FLUSH,
    SEVEN_CARD_STRAIGHT_FLUSH_WITH_A_JOKER,
    FIVE_ACES,
    ROYAL_FLUSH,
    NATURAL_STRAIGHT_FLUSH,
    STRAIGHT_FLUSH_WITH_A_JOKER,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    FLUSH,
    THREE_OF_A_KIND,
    STRAIGHT,
    THREE_PAIR,
)
"""The Fortune hands of seven cards, highest first: the rows of the Fortune Bonus and Envy paytables."""

PROGRESSIVE_HANDS: Final = FORTUNE_HANDS[: FORTUNE_HANDS.index(FULL_HOUSE) + 1]
"""§ 659a.11(h)(3): "a full house or better": the rows of the Progressive paytable."""

INSURANCE_HANDS: Final = ("ace-high", "king-high", "queen-high", "jack-high", "10-high", "9-high")
"""§ 659a.11(h)(2): no pair or better, "a 9-high or better", by the highest card: the Insurance rows."""

_HIGH_WORDS: Final = {
    14: "ace-high",
    13: "king-high",
    12: "queen-high",
    11: "jack-high",
    10: "10-high",
    9: "9-high",
}


def _window(top: int, length: int) -> int:
    """The rank mask of ``length`` consecutive ranks topped by ``top`` (the ace low under 2)."""
    mask = 0
    for r in range(top, top - length, -1):
        mask |= 1 << ((ACE if r == 1 else r) - 2)
    return mask


_FIVE: Final = tuple(_window(top, 5) for top in range(ACE, 4, -1))  # A-K-Q-J-10 ... 5-4-3-2-A
_SEVEN: Final = tuple(_window(top, 7) for top in range(ACE, 6, -1))  # A-K-...-8 ... 7-6-5-4-3-2-A
_ROYAL: Final = _FIVE[0]


@dataclass(frozen=True, slots=True)
class FortuneHand:
    """What the dealer finds rearranging a player's seven cards (§ 659a.11(h)).

    ``row``: the highest of :data:`FORTUNE_HANDS` the cards make, or ``None``;
    ``pair``: whether they hold a pair (or more of a rank), the joker an ace;
    ``high_card``: the highest card (the joker an ace), for Insurance.
    """

    row: str | None
    pair: bool
    high_card: int

    @property
    def insurance_row(self) -> str | None:
        """The Insurance row: no pair or better, by the highest card (§ 659a.11(h)(2)); else ``None``."""
        if self.row is not None or self.pair:
            return None
        return _HIGH_WORDS.get(self.high_card)

    def at_least(self, row: str) -> bool:
        return self.row is not None and FORTUNE_HANDS.index(self.row) <= FORTUNE_HANDS.index(row)


def fortune_hand(seven: Sequence[Card]) -> FortuneHand:
    """The Fortune hand of seven cards (§ 659a.11(h): "form the highest ranking hand").

    The joker as § 659a.6(a) allows: an ace, or any card to complete a
    straight, a flush, a straight flush or a royal flush (so: the fifth ace, the
    fourth ace of four-of-a-kind, an ace of a full house, three-of-a-kind or
    three pair; a card of a straight, flush or straight flush of five or seven
    cards). An ace counts high, or low before 2-3-4 (5-4-3-2-A, 7-6-5-4-3-2-A).
    """
    if len(seven) != 7:
        raise ValueError(f"the Fortune hands are of seven cards, not {len(seven)}")
    wild = sum(1 for c in seven if c.is_joker)
    counts = [0] * 15
    mask = 0
    suits = dict.fromkeys(SUIT_CHARS, 0)
    for c in seven:
        if c.rank:
            counts[c.rank] += 1
            mask |= c.bit
            suits[c.suit] |= c.bit
    with_ace = counts.copy()
    with_ace[ACE] += wild
    pairs = sum(1 for n in with_ace if n >= 2)
    high_card = ACE if wild else max(r for r in range(2, 15) if counts[r])

    def found(row: str) -> FortuneHand:
        return FortuneHand(row, pairs > 0, high_card)

    for m in suits.values():
        for w in _SEVEN:
            if m == w:
                return found(SEVEN_CARD_STRAIGHT_FLUSH)
            if wild and m.bit_count() == 6 and not m & ~w:
                return found(SEVEN_CARD_STRAIGHT_FLUSH_WITH_A_JOKER)
    if with_ace[ACE] >= 5:
        return found(FIVE_ACES)
    if any((_ROYAL & ~m).bit_count() <= wild for m in suits.values()):
        return found(ROYAL_FLUSH)
    if any(not w & ~m for m in suits.values() for w in _FIVE):
        return found(NATURAL_STRAIGHT_FLUSH)
    if wild and any((w & ~m).bit_count() <= wild for m in suits.values() for w in _FIVE):
        return found(STRAIGHT_FLUSH_WITH_A_JOKER)
    if max(with_ace) >= 4:
        return found(FOUR_OF_A_KIND)
    trips = [r for r in range(2, 15) if with_ace[r] >= 3]
    if trips and pairs >= 2:
        return found(FULL_HOUSE)
    if any(m.bit_count() + wild >= 5 for m in suits.values()):
        return found(FLUSH)
    if trips:
        return found(THREE_OF_A_KIND)
    if any((w & ~mask).bit_count() <= wild for w in _FIVE):
        return found(STRAIGHT)
    if pairs >= 3:
        return found(THREE_PAIR)
    return FortuneHand(None, pairs > 0, high_card)
