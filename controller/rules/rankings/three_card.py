"""Three Card Poker rankings, § 649a.6: three-card hands, mini-royal flush (e), Six Card Bonus (d).

Our copy of the regulations (43 Pa.B. 834) prints only the amended parts of
§ 649a.6: (d)(8), the Super Royal, and (e), the mini-royal flush. The base text
of § 649a.6(a)-(c) and the rest of (d) is not printed there and could not be
found in the reference search; this module implements the standard
Pennsylvania wording, the same words as the three-card lists in § 655a.6(c) and
§ 669a.6(c) and the rank/tie rules of § 639a.6(a),(c):

- (a) the rank of the cards, highest to lowest, is ace, king, queen, jack, 10,
  9, ..., 2; an ace may also be used low, but only in the straight (flush)
  ace, 2, 3; all suits are equal in rank;
- (b) the permissible three-card Poker hands, highest to lowest: a straight
  flush (three cards of the same suit in consecutive rank), a three-of-a-kind
  (three cards of the same rank), a straight (three cards of consecutive rank),
  a flush (three cards of the same suit), a pair (two cards of the same rank);
  a hand that is none of these is ranked by its cards ("high card");
  ace-king-queen is the highest straight (flush), ace-2-3 the lowest;
- (c) of two hands of identical rank, the one holding the highest ranking card
  "which is not contained in the other hand" wins, otherwise the hands tie.
  As in :mod:`.high`, comparing the ranks in significance order (the pair
  before its kicker, a straight by its top card with the ace-2-3 topped by
  the 3) is that rule.

The Six Card Bonus Wager (§ 649a.6(d)) is paid on the best five-card Poker hand
of the player's three cards and the dealer's three cards; the hands eligible
for a payout are royal flush down to three-of-a-kind. The five-card order is
:mod:`.high` (§ 639a.6(b)); this module only adds the Super Royal of paytable E,
§ 649a.6(d)(8): "a six-card Poker hand consisting of an ace, king, queen, jack,
10 and 9 of the same suit".

Blackjack's Three Card Poker Wager (§ 633a.7(g)(8)) ranks "the dealer's up card
and the player's initial two cards" as a three-card Poker hand; see
:func:`three_card_value` and :data:`THREE_CARD_POKER_SHOE` for hands dealt
from more than one deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from typing import Final

from ..core.cards import ACE, JACK, KING, QUEEN, TEN, Card, CardError
from ..core.hand import HandValue, Ranking, kickers, rank_plural, rank_run
from .high import CATEGORY_NAMES as FIVE_CARD_CATEGORY_NAMES
from .high import ROYAL_FLUSH, best_five, category_of, code_best, describe
from .high import THREE_OF_A_KIND as FIVE_CARD_THREE_OF_A_KIND

# --- three-card hands, § 649a.6(b) and (e) ---------------------------------------------------

HIGH_CARD: Final = 0
PAIR: Final = 1
FLUSH: Final = 2
STRAIGHT: Final = 3
THREE_OF_A_KIND: Final = 4
STRAIGHT_FLUSH: Final = 5
MINI_ROYAL_FLUSH: Final = 6
"""Only in ``"three-card-poker-mini-royal"``: § 649a.6(e)."""

#: Category names, indexed by the three-card categories above (§ 649a.6(b), (e)).
THREE_CARD_CATEGORY_NAMES: Final = (
    "high card",
    "pair",
    "flush",
    "straight",
    "three-of-a-kind",
    "straight flush",
    "mini-royal flush",
)

_LOW_ACE: Final = 1
"""The ace played low, in ace-2-3 only (§ 649a.6(a)); ``RANK_NAMES[1]`` is "ace"."""


def _straight_ranks(a: int, b: int, c: int) -> tuple[int, int, int] | None:
    """The ranks of a three-card straight, top first, or ``None``.

    ``a >= b >= c`` are the three ranks. King-ace-2 is no straight: the ace is
    low only in ace-2-3 (§ 649a.6(a)).
    """
    if a == b + 1 == c + 2:
        return (a, b, c)
    if (a, b, c) == (ACE, 3, 2):
        return (3, 2, _LOW_ACE)
    return None


def three_card_key(cards: Sequence[Card], *, mini_royal: bool = False) -> tuple[int, int, int, int]:
    """The order key of three cards: ``(category, rank, rank, rank)``, greater is better.

    The ranks are the hand's cards in significance order (§ 649a.6(c)): a pair
    is ``(p, p, kicker)``, a straight ``(top, top-1, top-2)`` with ace-2-3 as
    ``(3, 2, 1)``. With ``mini_royal`` the ace, king and queen of one suit is a
    mini-royal flush above every straight flush (§ 649a.6(e)).

    Cards from several decks (blackjack's shoe, § 633a.7(g)(8)) rank the same
    way: a hand is of the highest class whose definition it meets, so three
    cards of one rank and one suit are a three-of-a-kind and a suited pair
    (``8h 8h Kh``) is a flush, king-eight-eight.
    """
    x, y, z = cards
    a, b, c = sorted((x.rank, y.rank, z.rank), reverse=True)
    suited = x.suit == y.suit == z.suit
    run = _straight_ranks(a, b, c)
    if run is not None and suited:
        if mini_royal and run[0] == ACE:
            return (MINI_ROYAL_FLUSH, *run)  # § 649a.6(e)
        return (STRAIGHT_FLUSH, *run)  # § 649a.6(b)
    if a == c:
        return (THREE_OF_A_KIND, a, b, c)
    if run is not None:
        return (STRAIGHT, *run)
    if suited:
        return (FLUSH, a, b, c)
    if a == b:
        return (PAIR, a, b, c)
    if b == c:
        return (PAIR, b, c, a)
    return (HIGH_CARD, a, b, c)


def _words(key: Sequence[int]) -> str:
    cat, ranks = key[0], key[1:]
    name = THREE_CARD_CATEGORY_NAMES[cat]
    if cat == MINI_ROYAL_FLUSH:
        return name
    if cat == THREE_OF_A_KIND:
        return f"{name}, {rank_plural(ranks[0])}"
    if cat == PAIR:
        return f"{name}, {rank_plural(ranks[0])}{kickers(ranks[2:])}"
    return f"{name}, {rank_run(ranks)}"


def _in_order(cards: Sequence[Card], ranks: Sequence[int]) -> tuple[Card, ...]:
    """``cards`` in the order of ``ranks`` (1 stands for the low ace)."""
    pool = list(cards)
    out: list[Card] = []
    for r in ranks:
        want = ACE if r == _LOW_ACE else r
        pick = next(c for c in pool if c.rank == want)
        pool.remove(pick)
        out.append(pick)
    return tuple(out)


def _value(name: str, cards: Sequence[Card], mini_royal: bool) -> HandValue:
    key = three_card_key(cards, mini_royal=mini_royal)
    return HandValue(name, key, THREE_CARD_CATEGORY_NAMES[key[0]], _words(key), _in_order(cards, key[1:]))


def _three_card_poker(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    return _value("three-card-poker", cards, False)


def _three_card_poker_mini_royal(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    return _value("three-card-poker-mini-royal", cards, True)


def _three_card_poker_shoe(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    return _value("three-card-poker-shoe", cards, False)


THREE_CARD_POKER: Final = Ranking(
    name="three-card-poker",
    section="§ 649a.6(a)-(c)",
    summary="three cards: straight flush, three-of-a-kind, straight, flush, pair, high card",
    hand_sizes=(3,),
    evaluate_unchecked=_three_card_poker,
)

THREE_CARD_POKER_MINI_ROYAL: Final = Ranking(
    name="three-card-poker-mini-royal",
    section="§ 649a.6(b), (c), (e); § 649a.12(g)",
    summary="three-card-poker with the mini-royal flush (ace-king-queen suited) above every straight flush",
    hand_sizes=(3,),
    evaluate_unchecked=_three_card_poker_mini_royal,
)

SHOE_DECKS: Final = 8
"""The most decks :data:`THREE_CARD_POKER_SHOE` accepts cards from."""

THREE_CARD_POKER_SHOE: Final = Ranking(
    name="three-card-poker-shoe",
    section="§ 633a.7(g)(8); § 649a.6(a)-(c)",
    summary="three-card-poker order for cards from a shoe of up to eight decks (blackjack side wager)",
    hand_sizes=(3,),
    evaluate_unchecked=_three_card_poker_shoe,
    decks=SHOE_DECKS,
)


@cache
def _shoe_of(decks: int) -> Ranking:
    return replace(THREE_CARD_POKER_SHOE, decks=decks)


def three_card_value(cards: Sequence[Card], *, decks: int = 1) -> HandValue:
    """Three cards ranked by § 649a.6(a)-(c), the cards coming from ``decks`` decks.

    One deck gives a ``"three-card-poker"`` value; more decks (a blackjack
    shoe) give a ``"three-card-poker-shoe"`` value, in the same order, after
    refusing a card seen more often than ``decks`` decks hold it. Suited
    three-of-a-kind and suited pairs rank as :func:`three_card_key` says.
    """
    if decks < 1:
        raise CardError(f"decks must be at least 1, not {decks}")
    if decks == 1:
        return THREE_CARD_POKER.evaluate(cards)
    return _shoe_of(decks).evaluate(cards)


def is_suited(cards: Sequence[Card]) -> bool:
    """All the cards are of one suit (a flush, or "suited trips" from a shoe)."""
    return len({c.suit for c in cards}) == 1


# --- blackjack's Three Card Poker Wager, § 633a.7(g)(8) -------------------------------------

BLACKJACK_THREE_CARD_POKER_WINNERS: Final = frozenset(
    {"straight flush", "three-of-a-kind", "straight", "flush"}
)
"""§ 633a.7(g)(8): the hands that win the Three Card Poker Wager (paid under § 633a.13(k))."""


def blackjack_three_card_hand(player_cards: Sequence[Card], dealer_up_card: Card, *, decks: int) -> HandValue:
    """§ 633a.7(g)(8): "the dealer's up card and the player's initial two cards" as a three-card hand."""
    if len(player_cards) != 2:
        raise CardError(f"the player's initial two cards are needed, not {len(player_cards)} cards")
    return three_card_value([*player_cards, dealer_up_card], decks=decks)


def blackjack_three_card_poker_wins(value: HandValue) -> bool:
    """§ 633a.7(g)(8): the wager wins on a straight flush, three-of-a-kind, straight or flush."""
    return value.category in BLACKJACK_THREE_CARD_POKER_WINNERS


# --- the Six Card Bonus, § 649a.6(d) -----------------------------------------------------------

SUPER_ROYAL: Final = 10
"""The Super Royal's category in the six-card code, one above :data:`.high.ROYAL_FLUSH` (§ 649a.6(d)(8))."""
SUPER_ROYAL_NAME: Final = "Super Royal"
_SUPER_ROYAL_CODE: Final = SUPER_ROYAL << 20
_SUPER_ROYAL_RANKS: Final = (ACE, KING, QUEEN, JACK, TEN, 9)

#: § 649a.6(d): the five-card Poker hands eligible for a Six Card Bonus payout, highest first
#: (the Super Royal of § 649a.6(d)(8) only with paytable E).
SIX_CARD_BONUS_HANDS: Final = (
    SUPER_ROYAL_NAME,
    *reversed(FIVE_CARD_CATEGORY_NAMES[FIVE_CARD_THREE_OF_A_KIND:]),
)


def is_super_royal(cards: Sequence[Card]) -> bool:
    """§ 649a.6(d)(8): "an ace, king, queen, jack, 10 and 9 of the same suit"."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    return len(cards) == 6 and is_suited(cards) and tuple(ranks) == _SUPER_ROYAL_RANKS


def six_card_code(cards: Sequence[Card], *, super_royal: bool = False) -> int:
    """The order code of six cards: :func:`.high.code_best`, or the Super Royal above a royal flush."""
    code = code_best(cards)
    if super_royal and category_of(code) == ROYAL_FLUSH and is_super_royal(cards):
        return _SUPER_ROYAL_CODE
    return code


def _six_value(name: str, cards: Sequence[Card], super_royal: bool) -> HandValue:
    code = six_card_code(cards, super_royal=super_royal)
    if code == _SUPER_ROYAL_CODE:
        ordered = tuple(sorted(cards, key=lambda c: c.rank, reverse=True))
        words = f"{SUPER_ROYAL_NAME}, {rank_run(_SUPER_ROYAL_RANKS)}"
        return HandValue(name, (code,), SUPER_ROYAL_NAME, words, ordered)
    cat = category_of(code)
    return HandValue(name, (code,), FIVE_CARD_CATEGORY_NAMES[cat], describe(code), best_five(cards, code))


def _six_card_bonus(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    return _six_value("six-card-bonus", cards, False)


def _six_card_bonus_e(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    return _six_value("six-card-bonus-e", cards, True)


SIX_CARD_BONUS: Final = Ranking(
    name="six-card-bonus",
    section="§ 649a.6(d)",
    summary="best five-card Poker hand of six cards (player's three and dealer's three)",
    hand_sizes=(6,),
    evaluate_unchecked=_six_card_bonus,
)

SIX_CARD_BONUS_E: Final = Ranking(
    name="six-card-bonus-e",
    section="§ 649a.6(d), (d)(8); § 649a.12(f) paytable E",
    summary="six-card-bonus with the Super Royal (A-K-Q-J-10-9 of one suit) above the royal flush",
    hand_sizes=(6,),
    evaluate_unchecked=_six_card_bonus_e,
)


def six_card_bonus_value(
    player_cards: Sequence[Card], dealer_cards: Sequence[Card], *, super_royal: bool = False
) -> HandValue:
    """§ 649a.6(d): the player's three cards and the dealer's three cards as one six-card hand.

    ``super_royal`` is paytable E of § 649a.12(f) (§ 649a.6(d)(8)).
    """
    if len(player_cards) != 3 or len(dealer_cards) != 3:
        raise CardError(
            f"the Six Card Bonus needs the player's three cards and the dealer's three, "
            f"not {len(player_cards)} and {len(dealer_cards)}"
        )
    ranking = SIX_CARD_BONUS_E if super_royal else SIX_CARD_BONUS
    return ranking.evaluate([*player_cards, *dealer_cards])


def six_card_bonus_eligible(value: HandValue) -> bool:
    """§ 649a.6(d): the hand is eligible for a payout (three-of-a-kind or better)."""
    if value.ranking not in (SIX_CARD_BONUS.name, SIX_CARD_BONUS_E.name):
        raise ValueError(f"not a Six Card Bonus hand: a {value.ranking} value")
    return value.category in SIX_CARD_BONUS_HANDS


RANKINGS: Final[tuple[Ranking, ...]] = (
    THREE_CARD_POKER,
    THREE_CARD_POKER_MINI_ROYAL,
    THREE_CARD_POKER_SHOE,
    SIX_CARD_BONUS,
    SIX_CARD_BONUS_E,
)
