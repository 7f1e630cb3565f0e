"""The poker room's pots, side pots and shares, to the cent.

Poker is not house-banked: the players' bets make the pot and the showdown
divides it. This module is the arithmetic of that division:

* :func:`build_pots`: the main pot and the side pots from what each player
  put in and who is still in the round. A player may win from a pot only what
  the others matched of his own bets: each level of a live player's total bets
  closes a pot, and the players who put in at least that much are eligible for
  it. A folded player's chips stay in the pots ("dead money") and he is
  eligible for none.
* :func:`divide`: equal shares and the excess. § 637a.19(k)(2)(i): "the player
  with the highest ranking five-card high hand and the player with the highest
  ranking five-card low hand ... shall divide the pot equally. If a pot cannot
  be divided equally, the excess, which may not exceed $1, shall be given to
  ..."; likewise for ties, (k)(2)(ii),(iii), § 637a.20(k)(2), (l)(1)(ii),
  (l)(2)(ii) and § 637a.21(k)(5).
* :func:`odd_chip_seat`: who receives the excess among tied players, by one of
  the rules of :data:`ODD_CHIP_RULES`.

Dividing "equally" is done in whole units of the smallest chip the room divides
a pot with (the Rules Submission's ``odd_chip.unit``, at most $1.00). Where
that would leave an excess above $1 (a pot of $31.50 halved in $1 chips, or
three players sharing $11 in $1 chips) the pot is divided to the cent instead,
so the excess is never more than $1: with cents it is at most one cent less
than a cent per player.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ...core.cards import Card
from ...core.hand import SUIT_ORDER_SPADES_HIGH
from ...core.money import Cents, format_money
from .button import deal_order

#: "the excess, which may not exceed $1" (§ 637a.19(k)(2)(i)-(iii), § 637a.20(k)(2), (l), § 637a.21(k)(5)).
ODD_CHIP_LIMIT: Final[Cents] = 100

#: The player who receives the excess of a tie.
HIGH_CARD_BY_SUIT: Final = "high_card_by_suit"
"""§ 637a.19(k)(2)(ii): "the player with the highest ranking high card by suit"."""
LOW_CARD_BY_SUIT: Final = "low_card_by_suit"
"""§ 637a.19(k)(2)(iii): "the player with the lowest ranking low hand Poker card by suit"."""
LEFT_OF_BUTTON: Final = "left_of_button"
"""A player "specified in the certificate holder's Rules Submission": the first of the tied players
clockwise from the button (the player nearest the button's left)."""
ODD_CHIP_RULES: Final = (HIGH_CARD_BY_SUIT, LOW_CARD_BY_SUIT, LEFT_OF_BUTTON)

#: Flag on a share that received an excess (the dealer's screen shows it).
ODD_CHIP: Final = "odd_chip"


class PotError(ValueError):
    """Contributions, shares or a tie that cannot be settled as given; the message says why."""


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot of a round: the main pot or a side pot.

    ``contributions`` is what each seat put into this pot (seats ascending);
    ``eligible`` the players still in the round who may win it.
    """

    name: str
    amount: Cents
    eligible: tuple[int, ...]
    contributions: tuple[tuple[int, Cents], ...]

    def contribution(self, seat: int) -> Cents:
        return next((c for s, c in self.contributions if s == seat), 0)

    @property
    def returned(self) -> bool:
        """Only one player put chips in it and he may win it: his bet nobody called, given back."""
        return len(self.contributions) == 1 and self.eligible == (self.contributions[0][0],)

    @property
    def words(self) -> str:
        return self.name.replace("_", " ")


def pot_name(index: int) -> str:
    """``"main_pot"``, then ``"side_pot_1"``, ``"side_pot_2"`` ..."""
    return "main_pot" if index == 0 else f"side_pot_{index}"


def build_pots(contributions: Mapping[int, Cents], live: Iterable[int]) -> tuple[Pot, ...]:
    """The main pot and the side pots, in the order they are made.

    ``contributions`` is each seat's total bets in the round (antes, blinds,
    straddle, kill, bets, calls and raises); ``live`` the seats that have not
    folded. Each distinct total of a live player closes a pot at that level:
    everyone's chips up to it (less what earlier pots took) go in, and the live
    players who put in at least that much are eligible. Chips of folded players
    above the highest live total (a bet nobody still in matched) go to the last
    pot: once folded, a player has given them up. The amounts add up to the
    total contributed, to the cent.
    """
    live_seats = tuple(sorted(set(live)))
    if not live_seats:
        raise PotError("no player remains in the round to win the pot")
    for seat, amount in contributions.items():
        if amount < 0:
            raise PotError(f"seat {seat} put in a negative amount {format_money(amount)}")
    levels = sorted({contributions.get(s, 0) for s in live_seats} - {0})
    pots: list[Pot] = []
    prev = 0
    for level in levels:
        parts = tuple(
            (s, min(c, level) - min(c, prev))
            for s, c in sorted(contributions.items())
            if min(c, level) - min(c, prev) > 0
        )
        eligible = tuple(s for s in live_seats if contributions.get(s, 0) >= level)
        pots.append(Pot(pot_name(len(pots)), sum(c for _, c in parts), eligible, parts))
        prev = level
    rest = tuple((s, c - prev) for s, c in sorted(contributions.items()) if c > prev)
    if rest:
        if pots:
            last = pots[-1]
            merged: dict[int, Cents] = dict(last.contributions)
            for s, c in rest:
                merged[s] = merged.get(s, 0) + c
            pots[-1] = Pot(
                last.name,
                last.amount + sum(c for _, c in rest),
                last.eligible,
                tuple(sorted(merged.items())),
            )
        else:
            pots.append(Pot(pot_name(0), sum(c for _, c in rest), live_seats, rest))
    return tuple(pots)


def divide(amount: Cents, ways: int, unit: Cents = 1) -> tuple[Cents, Cents]:
    """Each of ``ways`` equal shares of ``amount``, and the excess that cannot be divided equally.

    Shares are whole multiples of ``unit`` (the smallest chip the pot is divided
    in) unless that leaves an excess of more than $1, which the text forbids
    ("the excess, which may not exceed $1"); then the amount is divided to the
    cent. ``ways * share + excess == amount`` always.
    """
    if ways < 1:
        raise PotError(f"a pot cannot be divided among {ways} players")
    if unit < 1:
        raise PotError(f"the unit a pot is divided in must be at least one cent, not {unit}")
    share = amount // (ways * unit) * unit
    excess = amount - ways * share
    if excess > ODD_CHIP_LIMIT:
        share, excess = divmod(amount, ways)
    if excess > ODD_CHIP_LIMIT:
        raise PotError(
            f"{format_money(amount)} among {ways} players leaves {format_money(excess)}, more than the $1 "
            "the text allows"
        )
    return share, excess


RankOf = Callable[[Card], int]


def high_card_key(cards: Sequence[Card], rank_of: RankOf) -> tuple[tuple[int, int], ...]:
    """The cards from the highest down, each as (rank, suit) with spades > hearts > diamonds > clubs
    (§ 637a.19(k)(2)(iv)); the greater key holds "the highest ranking high card by suit"."""
    return tuple(sorted(((rank_of(c), SUIT_ORDER_SPADES_HIGH[c.suit]) for c in cards), reverse=True))


def low_card_key(cards: Sequence[Card], rank_of: RankOf) -> tuple[tuple[int, int], ...]:
    """The cards from the lowest up, each as (rank, suit), clubs the lowest suit (§ 637a.19(k)(2)(iv));
    the smaller key holds "the lowest ranking low hand Poker card by suit"."""
    return tuple(sorted((rank_of(c), SUIT_ORDER_SPADES_HIGH[c.suit]) for c in cards))


def odd_chip_seat(
    rule: str,
    tied: Mapping[int, Sequence[Sequence[Card]]],
    rank_of: RankOf,
    button: int | None,
) -> int:
    """The tied player who receives the excess.

    ``tied`` gives, for each tied seat, every grouping of his cards that makes
    his (tied) hand: with equal ranks a player may make the hand with cards of
    different suits, and the text asks who holds the card, so each player is
    judged by his best grouping for the rule. ``rank_of`` orders the ranks as
    the hand does (the ace high in a high hand and in 2-7, low in a low hand,
    A-5 and Badugi).

    * ``high_card_by_suit`` (§ 637a.19(k)(2)(ii), (iv)): compare the tied hands
      card by card from the highest, by rank then suit, spades > hearts >
      diamonds > clubs; the first difference decides. The hands tie, so their
      ranks are equal and the suits decide; where they share a community card
      the next card decides, and two players' groupings always differ in their
      own cards.
    * ``low_card_by_suit`` (§ 637a.19(k)(2)(iii), (iv)): the player holding the
      lowest ranking card, card by card from the lowest, rank then suit, clubs
      the lowest suit.
    * ``left_of_button``: the first tied player clockwise from the button.
    """
    if not tied:
        raise PotError("no tied player to receive the excess")
    if rule == LEFT_OF_BUTTON:
        if button is None:
            raise PotError(
                "the Rules Submission gives the excess to the first tied player to the left of the button, "
                "but the round does not say where the button is (a position event)"
            )
        return deal_order(button, tied)[0]
    if rule == HIGH_CARD_BY_SUIT:
        best = {s: max(high_card_key(g, rank_of) for g in groups) for s, groups in tied.items()}
        return max(best, key=lambda s: best[s])
    if rule == LOW_CARD_BY_SUIT:
        low = {s: min(low_card_key(g, rank_of) for g in groups) for s, groups in tied.items()}
        return min(low, key=lambda s: low[s])
    raise PotError(f"no odd chip rule {rule!r} (rules: {', '.join(ODD_CHIP_RULES)})")


@dataclass(frozen=True, slots=True)
class Share:
    """What one player receives from one part of one pot.

    ``part`` names the part in the text's words ("pot", "high", "low", "2-7",
    "badugi"); ``odd_chip`` is the excess included in ``amount``.
    """

    seat: int
    part: str
    amount: Cents
    odd_chip: Cents = 0
    ways: int = 1


def split_among(
    amount: Cents,
    part: str,
    winners: Sequence[int],
    unit: Cents,
    odd_chip_to: Callable[[], int],
) -> tuple[Share, ...]:
    """``amount`` divided equally among ``winners``, the excess to ``odd_chip_to()``'s seat.

    ``odd_chip_to`` is only called when there is an excess, so a rule that
    needs what a round may lack (the button) is asked only when it matters.
    """
    seats = tuple(sorted(winners))
    if not seats:
        raise PotError(f"no player to receive the {part}")
    if len(seats) == 1:
        return (Share(seats[0], part, amount),)
    each, excess = divide(amount, len(seats), unit)
    receiver = odd_chip_to() if excess else None
    if receiver is not None and receiver not in seats:
        raise PotError(f"seat {receiver} is not one of the tied players {list(seats)}")
    return tuple(
        Share(s, part, each + (excess if s == receiver else 0), excess if s == receiver else 0, len(seats))
        for s in seats
    )
