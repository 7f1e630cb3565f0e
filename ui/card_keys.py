"""The poker table's cards keyed on the dealer's screen, in plain Python (no Kivy).

At a table **without** a card reader the dealer deals face down and the round counts the cards
(``deal`` events); what is face up he keys by touch, card by card, a rank then a suit:

- the board at Omaha: "three community cards face up", then "a fourth", then "a fifth and final"
  (§ 637a.19(h)-(j)), the API's ``cards`` to ``board``;
- at the showdown each hand shown, the variant's hand size (five at Omaha and Triple Draw, four at
  Badugi, § 637a.19(f), § 637a.20(f), § 637a.21(f)), the API's ``cards`` to his seat; a mucked hand
  is never asked for (the MUCK keys, ``ui.poker.muck_steps``).

A card keyed twice, or one already face up (on the board, in a hand shown), is refused here before
anything is sent; the daemon checks the rest (§ 637a.19(k): the hand against the deck).

At a table **with** a reader every card is the shoe's, and in the draw the dealer touches the cards
of the player's hand that he discards (:class:`Discards`; the daemon gives the hand of the player
drawing, read when dealt: "Each player may keep his original hand or discard as many cards as he
chooses", § 637a.20(h)); the API's ``cards`` to ``dealer``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from .entry import RANKS, SUITS
from .faces import face, faces
from .poker import PokerView

#: The board's parts in the regulation's words (§ 637a.19(h), (i), (j)).
BOARD_PARTS: Final = {0: "3 COMMUNITY CARDS", 3: "4TH COMMUNITY CARD", 4: "5TH COMMUNITY CARD"}


@dataclass(frozen=True)
class CardsWanted:
    """What the dealer keys now: where the cards go (the API's ``to``: ``board`` or a seat), how
    many, what the key says, and the cards already face up with where they are (refused)."""

    to: str
    size: int
    title: str
    known: tuple[tuple[str, str], ...] = ()

    def where(self, card: str) -> str:
        return next((w for c, w in self.known if c == card), "")


def wanted(view: PokerView, seat: int = 0) -> CardsWanted | None:
    """The cards the dealer keys now at a table without a card reader, or ``None``: the board's next
    part (§ 637a.19(h)-(j)), or at the showdown the hand of ``seat`` (the first still to show when
    ``seat`` is not one of them, § 637a.19(k))."""
    board = view.board.split()
    known = tuple((c, "on the board") for c in board)
    if view.phase == "board":
        size = 3 if not board else 1
        return CardsWanted("board", size, BOARD_PARTS.get(len(board), "THE BOARD"), known)
    if view.to_show and view.hand_size:
        chosen = seat if seat in view.to_show else view.to_show[0]
        shown = tuple((c, f"seat {s} showed it") for s, hand in view.shown for c in hand.split())
        return CardsWanted(str(chosen), view.hand_size, f"S{chosen} SHOWS", known + shown)
    return None


@dataclass
class CardPad:
    """The card keypad: a rank then a suit makes a card; no more than the cards wanted, none twice,
    none already face up. Aimed at what is wanted now (:meth:`aim`): aimed elsewhere, it starts
    again."""

    wanted: CardsWanted | None = None
    cards: list[str] = field(default_factory=list)
    rank: str = ""

    def aim(self, wanted: CardsWanted | None) -> None:
        if wanted != self.wanted:
            self.wanted = wanted
            self.clear()

    def press(self, key: str) -> None:
        """A rank or a suit key; ``ValueError`` (nothing changed) for a card refused."""
        wanted = self.wanted
        if wanted is None:
            raise ValueError("no cards are keyed now")
        if len(key) == 1 and key in RANKS:
            if len(self.cards) >= wanted.size:
                raise ValueError(f"{wanted.title.lower()}: {wanted.size} cards keyed; DEL one to change it")
            self.rank = key
            return
        if len(key) != 1 or key not in SUITS:
            raise ValueError(f"{key!r} is neither a rank ({RANKS}) nor a suit ({SUITS})")
        if not self.rank:
            raise ValueError("choose the card's rank before its suit")
        card = self.rank + key
        if card in self.cards:
            raise ValueError(f"{face(card)} is keyed already: a card is dealt once")
        where = wanted.where(card)
        if where:
            raise ValueError(f"{face(card)}: {where}; a card is dealt once")
        self.cards.append(card)
        self.rank = ""

    def back(self) -> None:
        """DEL: the rank pressed, else the last card."""
        if self.rank:
            self.rank = ""
        else:
            self.cards = self.cards[:-1]

    def clear(self) -> None:
        self.cards, self.rank = [], ""

    @property
    def complete(self) -> bool:
        return self.wanted is not None and len(self.cards) == self.wanted.size

    @property
    def text(self) -> str:
        """The cards keyed as the dealer reads them, a ``?`` for each still to key."""
        size = self.wanted.size if self.wanted is not None else 0
        keyed = faces(self.cards) + (f" {self.rank}?" if self.rank else "")
        left = size - len(self.cards) - bool(self.rank)
        return " ".join(p for p in (keyed.strip(), " ".join("?" * left)) if p)

    def event(self) -> tuple[str, dict[str, Any]]:
        """The words and the event of the cards keyed; ``ValueError`` until all are."""
        wanted = self.wanted
        if wanted is None:
            raise ValueError("no cards are keyed now")
        if not self.complete:
            raise ValueError(f"{wanted.title.lower()}: key {wanted.size} cards, not {len(self.cards)}")
        cards = " ".join(self.cards)
        words = "the board" if wanted.to == "board" else f"seat {wanted.to} shows"
        return f"{words}: {faces(self.cards)}", {"type": "cards", "to": wanted.to, "cards": cards}


@dataclass
class Discards:
    """At a table with a card reader, the cards of his hand the player drawing gives up, touched on
    the screen (§ 637a.20(h)); aimed at his turn to draw (:meth:`aim`), a new turn starts again."""

    seat: int = 0
    hand: tuple[str, ...] = ()
    chosen: list[str] = field(default_factory=list)

    def aim(self, view: PokerView) -> None:
        draw = view.draw or {}
        seat, hand = draw.get("seat"), str(draw.get("hand") or "")
        turn = (seat if isinstance(seat, int) else 0, tuple(hand.split()))
        if turn != (self.seat, self.hand):
            self.seat, self.hand = turn
            self.chosen = []

    def toggle(self, card: str) -> None:
        if card not in self.hand:
            raise ValueError(f"seat {self.seat} does not hold {face(card)}")
        if card in self.chosen:
            self.chosen.remove(card)
        else:
            self.chosen.append(card)

    def event(self) -> tuple[str, dict[str, Any]]:
        if not self.chosen:
            raise ValueError(f"seat {self.seat}: touch the cards he discards (or STAND PAT)")
        cards = [c for c in self.hand if c in self.chosen]
        words = f"seat {self.seat} discards {faces(cards)}"
        return words, {"type": "cards", "to": "dealer", "cards": " ".join(cards)}


@dataclass
class PokerCards:
    """The console's card keys at a poker table: the keypad, the seat chosen at the showdown, the
    discards at a table with a reader."""

    pad: CardPad = field(default_factory=CardPad)
    seat: int = 0
    discards: Discards = field(default_factory=Discards)

    def aim(self, view: PokerView | None, reader: bool) -> None:
        """Follow the table: what is keyed now (nothing at a table with a reader), whose discards."""
        self.pad.aim(None if view is None or reader else wanted(view, self.seat))
        if view is not None:
            self.discards.aim(view)
