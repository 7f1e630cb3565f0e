"""Playing cards: parse, print, decks.

Card text is rank then suit: ranks ``2-9 T J Q K A``, suits ``c d h s``; the
joker is ``JKR`` (Asia Poker, § 659a.3). ``"As Td 2c"`` and ``"AsTd2c"`` both
parse. A card is an interned, immutable object: ``parse_card("As") is
parse_card("as")``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

RANK_CHARS: Final = "23456789TJQKA"
SUIT_CHARS: Final = "cdhs"
JOKER_TEXT: Final = "JKR"

#: Numeric ranks: 2..10 as themselves, jack 11, queen 12, king 13, ace 14.
ACE: Final = 14
KING: Final = 13
QUEEN: Final = 12
JACK: Final = 11
TEN: Final = 10

RANK_NAMES: Final = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
    1: "ace",
}
RANK_PLURALS: Final = {
    2: "twos",
    3: "threes",
    4: "fours",
    5: "fives",
    6: "sixes",
    7: "sevens",
    8: "eights",
    9: "nines",
    10: "tens",
    11: "jacks",
    12: "queens",
    13: "kings",
    14: "aces",
    1: "aces",
}
SUIT_NAMES: Final = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


class CardError(ValueError):
    """A card or a hand is not valid; the message names the card and where it is."""


class Card:
    """One playing card, or the joker.

    ``rank`` is 2..14 (ace 14) and ``suit`` one of ``c d h s``; the joker has
    rank 0 and suit ``""``. ``index`` is 0..51 (rank-major: ``2c`` is 0, ``As``
    51) and 52 for the joker. ``bit`` is ``1 << (rank - 2)`` (0 for the joker);
    ``code`` packs rank and suit counts for the evaluators in :mod:`.high`.
    """

    __slots__ = ("_text", "bit", "code", "index", "rank", "suit")

    rank: int
    suit: str
    index: int
    bit: int
    code: int
    _text: str

    def __new__(cls, rank: int, suit: str) -> Card:  # pragma: no cover - use parse_card/card
        raise TypeError("use parse_card('As') or card(14, 's'); cards are interned")

    @classmethod
    def _make(cls, rank: int, suit: str) -> Card:
        self = object.__new__(cls)
        self.rank = rank
        self.suit = suit
        if rank == 0:
            self.index, self.bit, self.code, self._text = 52, 0, 0, JOKER_TEXT
        else:
            s = SUIT_CHARS.index(suit)
            self.index = (rank - 2) * 4 + s
            self.bit = 1 << (rank - 2)
            # Rank counts in base 5 (at most 4 of a rank in seven cards of one
            # deck) in the low 32 bits, suit counts in 3-bit fields above.
            self.code = 5 ** (rank - 2) + (1 << (32 + 3 * s))
            self._text = RANK_CHARS[rank - 2] + suit
        return self

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __str__(self) -> str:
        return self._text

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_card, (self._text,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @property
    def words(self) -> str:
        """``"ace of spades"``, ``"joker"``."""
        if self.rank == 0:
            return "joker"
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"


_BY_TEXT: dict[str, Card] = {}
_BY_INDEX: list[Card] = []
for _r in range(2, 15):
    for _s in SUIT_CHARS:
        _c = Card._make(_r, _s)
        _BY_INDEX.append(_c)
        _BY_TEXT[str(_c)] = _c
JOKER: Final = Card._make(0, "")
_BY_INDEX.append(JOKER)
_BY_TEXT[JOKER_TEXT] = JOKER
del _r, _s, _c

_TOKEN = re.compile(r"JKR|[2-9TJQKA][cdhs]", re.IGNORECASE)
_SPLIT = re.compile(r"[\s,]+")


def card(rank: int, suit: str) -> Card:
    """The card of ``rank`` (2..14) and ``suit`` (``c d h s``)."""
    if rank not in range(2, 15) or suit not in SUIT_CHARS or len(suit) != 1:
        raise CardError(f"no card has rank {rank!r} and suit {suit!r}")
    return _BY_INDEX[(rank - 2) * 4 + SUIT_CHARS.index(suit)]


def card_from_index(index: int) -> Card:
    """The card with ``index`` 0..52 (52 is the joker)."""
    if not 0 <= index <= 52:
        raise CardError(f"card index {index} is outside 0..52")
    return _BY_INDEX[index]


def parse_card(text: str) -> Card:
    """One card from its text, e.g. ``"As"``, ``"td"``, ``"JKR"``."""
    t = text.strip()
    found = _BY_TEXT.get(_canonical(t))
    if found is None:
        raise CardError(
            f"{text!r} is not a card: write rank then suit, ranks 2-9 T J Q K A, "
            f"suits c d h s, or JKR for the joker"
        )
    return found


def _canonical(t: str) -> str:
    if t.upper() == JOKER_TEXT:
        return JOKER_TEXT
    if len(t) == 2:
        return t[0].upper() + t[1].lower()
    return t


def parse_cards(
    text: str | Iterable[str],
    *,
    decks: int = 1,
    allow_joker: bool = True,
    count: int | Sequence[int] | None = None,
) -> tuple[Card, ...]:
    """Cards from text such as ``"As Td 2c"`` or ``"AsTd2c"``.

    ``decks`` is how many decks the cards come from: a card may appear at most
    that often (a single-deck hand may not hold the same card twice). ``count``
    is the number of cards required (or the allowed numbers). Errors name the
    offending token and its position, counted from 1.
    """
    tokens: list[str]
    if isinstance(text, str):
        tokens = []
        for chunk in _SPLIT.split(text.strip()):
            if not chunk:
                continue
            pieces, bad = _split_chunk(chunk)
            if bad:
                raise CardError(
                    f"card {len(tokens) + len(pieces) + 1}: {bad!r} (in {chunk!r}) is not a card: "
                    f"write rank then suit, ranks 2-9 T J Q K A, suits c d h s, or JKR"
                )
            tokens.extend(pieces)
    else:
        tokens = list(text)
    cards: list[Card] = []
    for position, token in enumerate(tokens, start=1):
        try:
            cards.append(parse_card(token))
        except CardError as exc:
            raise CardError(f"card {position}: {exc}") from None
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(cards) not in allowed:
            want = " or ".join(str(n) for n in allowed)
            raise CardError(f"{len(cards)} cards given, {want} needed: {format_cards(cards)!r}")
    check_cards(cards, decks=decks, allow_joker=allow_joker)
    return tuple(cards)


def _split_chunk(chunk: str) -> tuple[list[str], str]:
    """Card tokens of ``chunk`` up to the first part that is not a card (or ``""``)."""
    pieces: list[str] = []
    pos = 0
    while pos < len(chunk):
        m = _TOKEN.match(chunk, pos)
        if m is None:
            width = 3 if chunk[pos : pos + 2].upper() == "JK" else 2
            return pieces, chunk[pos : pos + width]
        pieces.append(m.group())
        pos = m.end()
    return pieces, ""


def check_cards(cards: Sequence[Card], *, decks: int = 1, allow_joker: bool = True) -> None:
    """Refuse a hand that could not come from ``decks`` decks (one joker each)."""
    if decks < 1:
        raise CardError(f"decks must be at least 1, not {decks}")
    counts = Counter(cards)
    for c, n in counts.items():
        if c.is_joker and not allow_joker:
            raise CardError("the joker (JKR) is not used in this game")
        if n > decks:
            if decks == 1:
                raise CardError(f"{c} appears {n} times, but one deck holds it once")
            raise CardError(f"{c} appears {n} times, but {decks} decks hold it {decks} times")


def format_cards(cards: Iterable[Card]) -> str:
    """``"As Td 2c"``."""
    return " ".join(str(c) for c in cards)


def standard_deck() -> tuple[Card, ...]:
    """The 52 cards, ``2c`` first, ``As`` last."""
    return tuple(_BY_INDEX[:52])


def deck_with_joker() -> tuple[Card, ...]:
    """The 52 cards and the joker (Asia Poker, § 659a.3)."""
    return tuple(_BY_INDEX)


def shoe(decks: int, *, joker: bool = False) -> tuple[Card, ...]:
    """``decks`` decks together, as a multi-deck shoe holds them (unshuffled)."""
    if decks < 1:
        raise CardError(f"a shoe holds at least one deck, not {decks}")
    one = deck_with_joker() if joker else standard_deck()
    return one * decks
