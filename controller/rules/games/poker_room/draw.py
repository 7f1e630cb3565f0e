"""The deck of the poker room's draw games: deals, burns, discards, draws and the reshuffle.

§ 637a.20(h) (Triple Draw) and § 637a.21(h) (Badugi), the same words: "The
dealer shall then burn the top card of the deck. Each player who has not
folded ... shall have the opportunity to draw new cards one player at a time.
Each player may keep his original hand or discard as many cards as he chooses.
Each discarded card shall be replaced by the dealer with a new card from the
deck. If an insufficient number of cards remain in the deck for a player to
draw new cards, the discarded cards, except the cards discarded by that
player, shall be reshuffled and the new cards shall be dealt to the player."

The controller cannot shuffle (a pure function has no randomness, and the
order of a real deck is not known to it): the cards a player receives come in
as events, and this module checks that each could legally have come off the
deck. So a :class:`Deck` is not an ordered list but the set of cards that may
still be in it (``candidates``) and how many it holds (``size``). A card dealt
face down that the controller never sees (a burn card, the hand of a player
who folded without showing it) lowers ``size`` but not ``candidates``: any
unseen card may be it.

The reshuffle, as we read § 637a.20(h):

* it happens when the deck holds fewer cards than the player drawing still
  needs; the cards left in the deck are dealt to him first, and when it is
  empty the discards are reshuffled and his remaining new cards dealt from
  them (the text reshuffles "the discarded cards", not the rest of the deck);
* "the discarded cards" are the cards discarded in the draws and not yet
  reshuffled, from this and earlier draws; burn cards and folded hands are not
  discards (the text says "discarded", and a folded hand is not replaced);
* "except the cards discarded by that player": every card that player has
  discarded and that has not been reshuffled, from any draw, stays out; they
  remain in the discard pile and may go into a later reshuffle for another
  player;
* after a reshuffle the reshuffled cards are the deck, for the rest of the
  draw and the draws that follow.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Final

from ...core.cards import Card, format_cards, standard_deck

#: § 637a.20(h): the section the draw and the reshuffle come from (§ 637a.21(h) for Badugi says the same).
DRAW_SECTION: Final = "§ 637a.20(h), § 637a.21(h)"


class DrawError(ValueError):
    """A card that could not have come off the deck; the message says why."""


@dataclass(frozen=True, slots=True)
class Deck:
    """The cards that may still be in the deck (their order unknown) and how many it holds."""

    candidates: frozenset[Card]
    size: int

    @classmethod
    def full(cls) -> Deck:
        """The 52 cards of the poker room's one deck, none dealt."""
        cards = frozenset(standard_deck())
        return cls(cards, len(cards))

    def take(self, card: Card) -> Deck:
        """The deck after ``card`` is dealt from it."""
        if self.size < 1:
            raise DrawError(f"the deck is empty: {card} cannot be dealt from it")
        if card not in self.candidates:
            raise DrawError(f"{card} is not in the deck")
        return Deck(self.candidates - {card}, self.size - 1)

    def unseen(self, count: int) -> Deck:
        """The deck after ``count`` cards nobody saw were dealt or burned from it."""
        if count > self.size:
            raise DrawError(f"{count} cards cannot be dealt from a deck of {self.size}")
        return Deck(self.candidates, self.size - count)


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """One reshuffle of § 637a.20(h): for whom, which discards went in, which of his stayed out."""

    seat: int
    cards: tuple[Card, ...]
    set_aside: tuple[Card, ...]

    def words(self) -> str:
        kept = (
            f"; seat {self.seat}'s own discards {format_cards(self.set_aside)} stay out"
            if self.set_aside
            else ""
        )
        return (
            f"the deck ran short for seat {self.seat}'s draw: the other players' discards "
            f"{format_cards(self.cards)} were reshuffled and dealt from{kept} ({DRAW_SECTION})"
        )


@dataclass(frozen=True, slots=True)
class DrawDeck:
    """The deck and the discard pile of one round of a draw game (or the deck of a flop game).

    ``discards`` are ``(seat, card)`` in the order discarded, since the last
    reshuffle; ``reshuffles`` every reshuffle of the round so far.
    """

    deck: Deck = field(default_factory=Deck.full)
    discards: tuple[tuple[int, Card], ...] = ()
    reshuffles: tuple[Reshuffle, ...] = ()

    def deal(self, card: Card) -> DrawDeck:
        """A card dealt from the deck to a hand or the board (not a draw: no reshuffle)."""
        return replace(self, deck=self.deck.take(card))

    def burn(self) -> DrawDeck:
        """The top card burned, unseen; nothing to burn from an empty deck (the text does not say what
        then happens, and there is no card to burn)."""
        if self.deck.size == 0:
            return self
        return replace(self, deck=self.deck.unseen(1))

    def unseen(self, count: int) -> DrawDeck:
        """``count`` cards dealt that the controller did not see (a hand folded face down)."""
        return replace(self, deck=self.deck.unseen(count))

    def discard(self, seat: int, cards: Iterable[Card]) -> DrawDeck:
        """``seat`` discards ``cards`` (face down to the dealer)."""
        return replace(self, discards=self.discards + tuple((seat, c) for c in cards))

    def eligible_for_reshuffle(self, seat: int) -> tuple[Card, ...]:
        """The discards a reshuffle for ``seat`` takes: all but his own."""
        return tuple(c for s, c in self.discards if s != seat)

    def draw(self, seat: int, card: Card) -> DrawDeck:
        """``seat`` receives ``card`` as one of his new cards.

        From the deck while it holds a card; when it is empty, the other
        players' discards are reshuffled first (§ 637a.20(h)).
        """
        if self.deck.size > 0:
            if card not in self.deck.candidates:
                raise DrawError(
                    f"{card} is not in the deck, which still holds {self.deck.size} card"
                    f"{'s' if self.deck.size != 1 else ''}: the discards are reshuffled only when the deck "
                    f"runs short ({DRAW_SECTION})"
                )
            return replace(self, deck=self.deck.take(card))
        reshuffled = self.eligible_for_reshuffle(seat)
        if not reshuffled:
            raise DrawError(
                f"the deck is empty and no other player's discards are left to reshuffle for seat {seat} "
                f"({DRAW_SECTION}): {card} cannot be dealt"
            )
        own = tuple(c for s, c in self.discards if s == seat)
        if card not in reshuffled:
            why = (
                f"{card} is seat {seat}'s own discard, which is not reshuffled for him"
                if card in own
                else f"{card} is not among the other players' discards"
            )
            raise DrawError(
                f"the deck is empty; the discards of the other players are reshuffled and dealt to seat "
                f"{seat}, but {why} ({DRAW_SECTION})"
            )
        new_deck = Deck(frozenset(reshuffled), len(reshuffled))
        return DrawDeck(
            new_deck.take(card),
            tuple((s, c) for s, c in self.discards if s == seat),
            (*self.reshuffles, Reshuffle(seat, reshuffled, own)),
        )

    def may_draw(self, seat: int) -> frozenset[Card]:
        """Every card ``seat`` could legally receive next (for the touchscreen and the tests)."""
        if self.deck.size > 0:
            return self.deck.candidates
        return frozenset(self.eligible_for_reshuffle(seat))


@dataclass(frozen=True, slots=True)
class CountedDeck:
    """The deck of a table without a card reader: the dealer deals face down and the round counts.

    ``stub`` is how many cards the deck holds, ``pile`` how many each player has discarded since
    the last reshuffle (seat, count). The reshuffle of § 637a.20(h) is counted the same way as
    :meth:`DrawDeck.draw` does it with the cards known: the deck first, then the other players'
    discards, the drawing player's own staying out.
    """

    stub: int = 52
    pile: tuple[tuple[int, int], ...] = ()
    reshuffles: int = 0

    def take(self, count: int, what: str) -> CountedDeck:
        """``count`` cards dealt from the deck (the hands, a burn, the board)."""
        if count > self.stub:
            raise DrawError(f"{what}: {count} cards cannot be dealt from a deck of {self.stub}")
        return replace(self, stub=self.stub - count)

    def discard(self, seat: int, count: int) -> CountedDeck:
        pile = dict(self.pile)
        pile[seat] = pile.get(seat, 0) + count
        return replace(self, pile=tuple(sorted(pile.items())))

    def draw(self, seat: int, count: int) -> tuple[CountedDeck, str]:
        """``seat`` receives ``count`` new cards; the words of a reshuffle, if the deck ran short."""
        if count <= self.stub:
            return replace(self, stub=self.stub - count), ""
        others = sum(n for s, n in self.pile if s != seat)
        own = sum(n for s, n in self.pile if s == seat)
        need = count - self.stub
        if need > others:
            raise DrawError(
                f"the deck holds {self.stub} and the other players' discards {others}: seat {seat}'s "
                f"{count} new cards cannot be dealt ({DRAW_SECTION})"
            )
        words = (
            f"the deck ran short for seat {seat}'s draw: {self.stub} dealt from the deck, then the other "
            f"players' {others} discards were reshuffled and {need} dealt from them"
            + (f"; seat {seat}'s own {own} discards stay out" if own else "")
            + f" ({DRAW_SECTION})"
        )
        pile = ((seat, own),) if own else ()
        return CountedDeck(others - need, pile, self.reshuffles + 1), words
