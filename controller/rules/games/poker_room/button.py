"""The poker room's button and blinds: § 637a.19(c)-(h), § 637a.20(c)-(h), § 637a.21(c)-(h).

The three sections say the same, word for word:

(c) "A button shall be used to indicate the order in which the cards shall be
dealt and the order in which players shall bet ... (1) At commencement of
play, the button shall be placed in front of either: (i) The first player to
the right of the dealer. (ii) The player randomly determined by rank of a
single card dealt. (2) Thereafter, the button shall rotate around the table in
a clockwise manner after each round of play."

(d) "Before any cards are dealt, the player to the immediate left of the
button shall initiate the first betting round by placing a Blind Bet. A
certificate holder may require additional Blind Bets to be made immediately
after the initial Blind Bet."

(e) "The player to the left of the player who placed a Blind Bet may place a
Straddle Bet ... No more than one Straddle Bet may be made during a round of
play."

(f) "Starting with the player to the immediate left of the button and
continuing around the table in a clockwise manner, the dealer shall deal ...
The player with the button shall be the last player to receive a card each
time."

Seats are numbered as everywhere in the controller: 1 at the dealer's far left
(dealt first in the house games) up to the dealer's right. Clockwise, seen
from above, runs from the dealer's left round to the dealer's right, so
clockwise is up the seat numbers, and "the player to the left" of a seat is the
next occupied seat clockwise (the next higher number, wrapping round after
the highest). "The first player to the right of the dealer" is the occupied
seat with the highest number.

``seats`` below are the occupied seats: the players in the round. The button
need not be one of them (a seat may have emptied since the button moved
there); the order still runs clockwise from the button's seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from ...core.cards import Card
from ...core.hand import SUIT_ORDER_SPADES_HIGH

#: § 637a.19(c)(1): where the button goes at the commencement of play.
RIGHT_OF_DEALER: Final = "right_of_dealer"
HIGH_CARD: Final = "high_card"
BUTTON_STARTS: Final = (RIGHT_OF_DEALER, HIGH_CARD)


class SeatingError(ValueError):
    """Seats, a button or a number of blinds that do not fit together; the message says why."""


def _occupied(seats: Iterable[int]) -> tuple[int, ...]:
    out = tuple(sorted(seats))
    if not out:
        raise SeatingError("no player is seated")
    if any(isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in out):
        raise SeatingError(f"seats are numbered from 1: {list(out)}")
    if len(set(out)) != len(out):
        raise SeatingError(f"a seat is listed twice: {list(out)}")
    return out


def deal_order(button: int, seats: Iterable[int]) -> tuple[int, ...]:
    """The players from the immediate left of the button clockwise, the button's player last.

    § 637a.19(f): "Starting with the player to the immediate left of the button
    and continuing around the table in a clockwise manner ... The player with
    the button shall be the last player to receive a card each time." The same
    order draws (§ 637a.20(h)) and, from the button's left, bets after the
    first round (§ 637a.19(h)).
    """
    occupied = _occupied(seats)
    after = tuple(s for s in occupied if s > button)
    return after + tuple(s for s in occupied if s <= button)


def left_of(seat: int, seats: Iterable[int]) -> int:
    """The player to the immediate left of ``seat``: the next occupied seat clockwise."""
    return deal_order(seat, seats)[0]


def starting_button(seats: Iterable[int], start: str, cards: Mapping[int, Card] | None = None) -> int:
    """Where the button is placed at the commencement of play (§ 637a.19(c)(1)).

    ``start`` is the Rules Submission's choice: ``"right_of_dealer"``, "the first
    player to the right of the dealer" (the highest occupied seat), or
    ``"high_card"``, "the player randomly determined by rank of a single card
    dealt": ``cards`` gives each player's one card and the highest rank takes
    the button. The text does not say how two cards of the same rank are told
    apart; we use the suits in the order § 637a.19(k)(2)(iv) gives for the odd
    chip (spades, hearts, diamonds, clubs), the order the text already uses to
    rank cards by suit.
    """
    occupied = _occupied(seats)
    if start == RIGHT_OF_DEALER:
        return occupied[-1]
    if start != HIGH_CARD:
        raise SeatingError(f"the button starts {start!r}: it is one of {', '.join(BUTTON_STARTS)}")
    if cards is None or set(cards) != set(occupied):
        raise SeatingError(
            f"the button by rank of a single card dealt (§ 637a.19(c)(1)(ii)) needs one card for each of "
            f"seats {', '.join(map(str, occupied))}"
        )
    if len(set(cards.values())) != len(cards):
        raise SeatingError("two players were dealt the same card")
    if any(c.is_joker for c in cards.values()):
        raise SeatingError("the joker is not a card of the poker room's deck")
    return max(occupied, key=lambda s: (cards[s].rank, SUIT_ORDER_SPADES_HIGH[cards[s].suit]))


def next_button(button: int, seats: Iterable[int]) -> int:
    """The button for the next round: "rotate around the table in a clockwise manner after each round
    of play" (§ 637a.19(c)(2)): to the next occupied seat clockwise."""
    return left_of(button, seats)


def blind_seats(button: int, seats: Iterable[int], blinds: int) -> tuple[int, ...]:
    """Who posts the Blind Bets, in order: the player to the immediate left of the button, then, for
    "additional Blind Bets ... immediately after the initial Blind Bet", the next players clockwise
    (§ 637a.19(d))."""
    order = deal_order(button, seats)
    if blinds < 1:
        raise SeatingError(f"a round has at least the one Blind Bet of § 637a.19(d), not {blinds}")
    if blinds > len(order):
        raise SeatingError(f"{blinds} Blind Bets need {blinds} players; {len(order)} are seated")
    return order[:blinds]


def straddle_seat(button: int, seats: Iterable[int], blinds: int) -> int:
    """Who may place the Straddle Bet: "The player to the left of the player who placed a Blind Bet"
    (§ 637a.19(e)). With additional Blind Bets we read it as the player to the left of the last of them,
    the player next in turn once the blinds are posted (the text names no other)."""
    order = deal_order(button, seats)
    blind_seats(button, seats, blinds)
    return order[blinds % len(order)]


def first_to_act(button: int, seats: Iterable[int], blinds: int, straddle: bool = False) -> int:
    """Who acts first once the cards are dealt: "the player to the left of the player or players who
    were required to place a Blind Bet or the player who placed a Straddle Bet" (§ 637a.19(g))."""
    order = deal_order(button, seats)
    blind_seats(button, seats, blinds)
    return order[(blinds + (1 if straddle else 0)) % len(order)]


def first_to_act_after_first_round(button: int, live: Iterable[int]) -> int:
    """Who opens each later betting round: "The first player to the left of the button who has not
    folded" (§ 637a.19(h), § 637a.20(h))."""
    return deal_order(button, live)[0]
