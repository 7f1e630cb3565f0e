"""Random showdowns of every game, ranked: the README's run command until the bench rig exists.

Each deal shuffles the game's own deck (one deck, the joker for Asia Poker,
a shoe for Blackjack), deals the game's hands and ranks them with the
game's ranking, so a new machine shows the whole rules core at work.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from random import Random

from .rules.core.cards import Card, deck_with_joker, format_cards, shoe, standard_deck
from .rules.core.hand import HandValue
from .rules.rankings import get_ranking


@dataclass(frozen=True)
class Showdown:
    game: str
    ranking: str
    hand_size: int
    seats: int = 2
    board: int = 0
    shared_board: bool = False  # the board joins each hand (Hold 'Em) rather than being passed apart


SHOWDOWNS = (
    Showdown("Caribbean Stud Poker", "high", 5),
    Showdown("Texas Hold 'Em Bonus Poker", "high", 2, board=5, shared_board=True),
    Showdown("Three Card Poker", "three-card-poker", 3),
    Showdown("Three Card Poker, Six Card Bonus", "six-card-bonus-e", 6, seats=1),
    Showdown("Asia Poker, Bonus Wager hand", "asia-poker-bonus", 7, seats=1),
    Showdown("Five-card Omaha High", "omaha-high", 5, seats=3, board=5),
    Showdown("Five-card Omaha, eight-or-better low", "omaha-low8", 5, seats=3, board=5),
    Showdown("Triple Draw 2-7 Lowball", "27-low", 5, seats=3),
    Showdown("Triple Draw A-5 Lowball", "a5-low", 5, seats=3),
    Showdown("Badugi", "badugi", 4, seats=3),
    Showdown("Blackjack", "blackjack", 2),
)


def _deck(joker: bool, decks: int) -> list[Card]:
    if decks > 1:
        return list(shoe(decks, joker=joker))
    return list(deck_with_joker() if joker else standard_deck())


def deal(show: Showdown, rng: Random) -> list[str]:
    ranking = get_ranking(show.ranking)
    deck = _deck(ranking.joker, ranking.decks)
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(show.hand_size)] for _ in range(show.seats)]
    board = [deck.pop() for _ in range(show.board)]
    values: list[HandValue] = []
    for hand in hands:
        if show.shared_board:
            values.append(ranking.evaluate([*hand, *board]))
        else:
            values.append(ranking.evaluate(hand, board))
    best = max(values)
    names = ["dealer"] if show.seats == 2 else []
    lines = [f"{show.game} ({ranking.section})" + (f"  board {format_cards(board)}" if board else "")]
    for i, (hand, value) in enumerate(zip(hands, values, strict=True), start=1):
        who = f"seat {i}" if show.seats != 2 or i == 1 else names[0]
        everyone_ties = all(v == best for v in values)
        mark = "  <- best" if show.seats > 1 and value == best and not everyone_ties else ""
        lines.append(f"    {who:<7} {format_cards(hand):<21} {value.words}{mark}")
    return lines


def showdowns(rng: Random, rounds: int) -> Iterator[str]:
    for show in SHOWDOWNS:
        for _ in range(rounds):
            yield from deal(show, rng)
