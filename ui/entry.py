"""What the dealer keys in: a wager's amount, dice, a starting position, a card by hand, an Asia
Poker setting. Plain values that build the local API's events; the daemon checks them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .money import cents_text

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
JOKER: Final = "JKR"
MAX_CENTS: Final = 10**9


@dataclass
class AmountKeys:
    """The amount keypad in whole dollars, as a dealer counts chips: "2" "5" is $25.00 (issue 19:
    digits as cents made "25" an ante of $0.25); chip keys add a chip's value."""

    cents: int = 0

    def press(self, digit: str) -> None:
        if digit not in "0123456789" or len(digit) != 1:
            raise ValueError(f"the amount keypad has the digits 0-9, not {digit!r}")
        dollars = self.cents // 100 * 10 + int(digit)
        if dollars * 100 < MAX_CENTS:
            self.cents = dollars * 100

    def back(self) -> None:
        self.cents = self.cents // 1000 * 100

    def chip(self, dollars: int) -> None:
        """A chip button: adds ``dollars``."""
        if self.cents + dollars * 100 < MAX_CENTS:
            self.cents += dollars * 100

    @property
    def text(self) -> str:
        return cents_text(self.cents)


@dataclass
class DiceKeys:
    """Three dice as thrown: Three Dice Football's two green and one red (§ 661a.5), or Asia
    Poker's shaker (§ 659a.5(g)(1))."""

    dice: list[int] = field(default_factory=list)

    def press(self, face: int) -> None:
        if not 1 <= face <= 6:
            raise ValueError(f"a die shows 1 to 6, not {face}")
        if len(self.dice) < 3:
            self.dice.append(face)

    def back(self) -> None:
        self.dice = self.dice[:-1]

    @property
    def complete(self) -> bool:
        return len(self.dice) == 3

    def event(self) -> dict[str, Any]:
        if not self.complete:
            raise ValueError(f"three dice are entered, not {len(self.dice)}")
        return {"type": "dice", "dice": list(self.dice)}


@dataclass
class CardKeys:
    """Cards keyed in by hand while the shoe is out of order (§ 639a.13(g)): a rank then a suit."""

    cards: list[str] = field(default_factory=list)
    rank: str = ""

    def press(self, key: str) -> None:
        if key == JOKER:
            self.cards.append(JOKER)
            self.rank = ""
        elif key in RANKS and len(key) == 1:
            self.rank = key
        elif key in SUITS and len(key) == 1:
            if not self.rank:
                raise ValueError("choose the card's rank before its suit")
            self.cards.append(self.rank + key)
            self.rank = ""
        else:
            raise ValueError(f"{key!r} is neither a rank ({RANKS}) nor a suit ({SUITS})")

    def back(self) -> None:
        if self.rank:
            self.rank = ""
        else:
            self.cards = self.cards[:-1]

    @property
    def text(self) -> str:
        return " ".join(self.cards) + (f" {self.rank}?" if self.rank else "")


HAND_SIZES: Final = (("high", 4), ("medium", 2), ("low", 1))
"""§ 659a.11(b): a high hand of four cards, a medium of two, a low of one."""


@dataclass
class SettingKeys:
    """Asia Poker: the dealer taps a seat's seven cards into the high, medium and low hands."""

    seven: tuple[str, ...] = ()
    placed: dict[str, str] = field(default_factory=dict)
    """card -> hand name"""

    def load(self, cards: Sequence[str]) -> None:
        self.seven, self.placed = tuple(cards), {}

    def place(self, card: str, hand: str) -> None:
        if card not in self.seven:
            raise ValueError(f"{card} is not one of this seat's cards ({' '.join(self.seven)})")
        sizes = dict(HAND_SIZES)
        if hand not in sizes:
            raise ValueError(f"the hands are high, medium and low, not {hand!r}")
        if sum(1 for h in self.placed.values() if h == hand) >= sizes[hand] and self.placed.get(card) != hand:
            raise ValueError(f"the {hand} hand has {sizes[hand]} card(s) already (§ 659a.11(b))")
        self.placed[card] = hand

    def hand(self, name: str) -> tuple[str, ...]:
        return tuple(c for c in self.seven if self.placed.get(c) == name)

    @property
    def complete(self) -> bool:
        return all(len(self.hand(name)) == size for name, size in HAND_SIZES)

    def action(self) -> str:
        """The ``decision`` action: ``"set As Ks Qs Js / 7c 7d / 2h"``."""
        if not self.complete:
            raise ValueError("set four cards high, two medium and one low (§ 659a.11(b))")
        return "set " + " / ".join(" ".join(self.hand(name)) for name, _ in HAND_SIZES)
