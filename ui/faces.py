"""Cards and amounts in the words and symbols the dealer reads: ``"Td"`` is ``10♦``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

SUIT_SYMBOLS: Final = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
RED_SUITS: Final = ("d", "h")
RED: Final = "FF9E80"  # on the dark panel: 8.4 to 1; the symbol, not the colour, tells the suit


def face(card: str, markup: bool = False) -> str:
    """``"Td"`` -> ``"10♦"``; the joker stays ``JKR``; with ``markup``, red suits in Kivy markup."""
    if len(card) != 2 or card[1] not in SUIT_SYMBOLS:
        return card
    rank = "10" if card[0] == "T" else card[0]
    text = rank + SUIT_SYMBOLS[card[1]]
    return f"[color={RED}]{text}[/color]" if markup and card[1] in RED_SUITS else text


def faces(cards: Sequence[str], markup: bool = False) -> str:
    return " ".join(face(c, markup) for c in cards)
