"""Asia Poker rankings, § 659a.6, and the hand-setting rule of § 659a.11(b).

Asia Poker is dealt from one deck with one joker (§ 659a.3(a)). Each player
sets seven cards into a four-card high hand, a two-card medium hand and a
one-card low hand (§ 659a.1 "Setting the hands").

The cards, § 659a.6(a): "ace, king, queen, jack, 10, 9, 8, 7, 6, 5, 4, 3 and
2"; "an ace may be used to complete a straight flush or a straight formed with
a 2, 3 and 4 but may not be combined with any other sequence of cards (for
example: queen, king, ace and 2)". "The joker shall be used and ranked as an
ace or may be used as any card to complete a straight, a flush, a straight
flush or a royal flush." The joker takes whichever of those readings gives the
best hand.

The hands, § 659a.6(b), highest first, with the category numbers of this
module: four aces (9: four aces or three aces and a joker), royal flush (8:
ace, king, queen and jack of one suit), straight flush (7: ace-2-3-4 highest,
king-queen-jack-10 second, 2-3-4-5 lowest), four-of-a-kind (6: four kings
highest, four 2s lowest), flush (5), straight (4: ace-king-queen-jack highest,
ace-2-3-4 second, then king-queen-jack-10 down to 2-3-4-5), three-of-a-kind
(3), two pair (2), pair (1), and a hand holding none of these, "no hand" (0).
The Rules Submission may make ace-2-3-4 the lowest straight flush and the
lowest straight (§ 659a.6(b)(3), (6)): that is the ranking
``"asia-poker-a234-low"``.

Ties, § 659a.6(c): "the hand that contains the highest ranking card under
subsection (a), which is not in the other hand, shall be considered the higher
ranking hand"; otherwise the hands are "a copy". Comparing the ranks in
significance order (the pair before its kickers), a shorter hand being the
lower when it is the start of the longer one, is that rule; this module uses
it across the hand sizes as well, which is what § 659a.11(b) needs: "if the
two-card medium hand contains a pair of sevens, the four-card high hand must
contain at least a pair of sevens and the two remaining cards".

Decisions where the text is open (see ``docs/rankings/asia-poker.md``):

- The joker in a flush is "any card to complete ... a flush" (§ 659a.6(a)): the
  best card of that suit not in the hand, so ``Ks Qs 5s JKR`` is the flush
  ace-king-queen-five, and ``As Qs 5s JKR`` the flush ace-king-queen-five too.
- The joker completes no four-of-a-kind but four aces: ``Kh Kd Kc JKR`` is
  three kings with an ace (§ 659a.6(a), (b)(1)).
- In the two-card and one-card hands no straight or flush exists (those are
  four-card hands, § 659a.6(b)(3), (5), (6)); the joker there is an ace.
  § 659a.6(b)(9) calls a two-card pair "a high hand or a low hand"; the
  two-card hand is the medium hand (§ 659a.1), and it is read so.

The Bonus Wager hands, § 659a.6(d), are the ranking ``"asia-poker-bonus"`` of
seven cards, ordered as the paytable of § 659a.12(b) lists them (see
:func:`bonus_key`); the dealer forms "the highest ranking hand" (§ 659a.11(h)),
so a hand that is several of them is the highest. Decisions there:

- the five-card straights are ace-king-queen-jack-10 down to 5-4-3-2-ace (the
  ace with "a 2, 3 and 4", § 659a.6(a)); no queen-king-ace-2-3;
- the joker is no card of a 9-high (it is an ace, or completes only a straight,
  flush, straight flush or royal flush, § 659a.6(a)), and no 8 of the
  three-of-a-kind and four 8s, but may be the third ace of it;
- a straight flush the joker completes is a "straight flush with a joker"
  (§ 659a.6(d)(5)) even where an ace in its place would make 5-4-3-2-ace, a
  natural straight flush ((d)(4)): the one case where the joker does worse than
  an ace;
- a 9-high ranks above a flush: seven cards 9-8-7-6-4-3-2 with five of one suit
  are a 9-high.

The Fortune Asia Poker hands of § 659a.11(h) (three pair, Envy Bonus
Qualifying Hand, Insurance, Progressive Payout) are not here: that section
points to a § 659a.6(d), (e) and § 659a.12(b)-(d) of Fortune Asia Poker that
our copy of the regulations does not print (see the doc).

Over 500 lines on purpose: the rankings of § 659a.6 (the five-, two- and one-card hands with the
joker, the A-2-3-4 choice) and the hand-setting rule of § 659a.11(b) they serve are one idea, each
a short function citing its paragraph; docs/rankings/asia-poker.md follows the same order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Final, Literal

from ..core.cards import ACE, JOKER, SUIT_CHARS, SUIT_NAMES, Card, CardError, check_cards, format_cards
from ..core.hand import HandValue, Ranking, kickers, rank_name, rank_plural, rank_run

Key = tuple[int, ...]
"""An order key: greater is better (§ 659a.6(b), (c))."""

# --- the high, medium and low hands, § 659a.6(a)-(c) -----------------------------------------

NO_HAND: Final = 0
PAIR: Final = 1
TWO_PAIR: Final = 2
THREE_OF_A_KIND: Final = 3
STRAIGHT: Final = 4
FLUSH: Final = 5
FOUR_OF_A_KIND: Final = 6
STRAIGHT_FLUSH: Final = 7
ROYAL_FLUSH: Final = 8
FOUR_ACES: Final = 9

#: Category names in the words of § 659a.6(b), indexed by category.
CATEGORY_NAMES: Final = (
    "no hand",
    "pair",
    "two pair",
    "three-of-a-kind",
    "straight",
    "flush",
    "four-of-a-kind",
    "straight flush",
    "royal flush",
    "four aces",
)

HIGH_HAND_SIZE: Final = 4
MEDIUM_HAND_SIZE: Final = 2
LOW_HAND_SIZE: Final = 1
HAND_NAMES: Final = ("high", "medium", "low")
"""The three hands of a setting, in the order this module takes them (§ 659a.1)."""
HAND_SIZES: Final = (HIGH_HAND_SIZE, MEDIUM_HAND_SIZE, LOW_HAND_SIZE)

_A234_LOW_RANK: Final = 1
"""The lowest card of the ace-2-3-4 sequence: the ace (§ 659a.6(a))."""
_ROYAL_LOW: Final = 11
"""The lowest card of ace-king-queen-jack."""


def _bit(rank: int) -> int:
    return 1 << (rank - 2)


def _window_ranks(low: int) -> tuple[int, int, int, int]:
    """The four ranks of the sequence starting at ``low`` (1 is ace-2-3-4), as spoken.

    Ace-2-3-4 is said as the text says it, "ace, 2, 3 and 4" (§ 659a.6(b)(3));
    the others top first, "king, queen, jack and 10".
    """
    if low == _A234_LOW_RANK:
        return (ACE, 2, 3, 4)
    return (low + 3, low + 2, low + 1, low)


#: The four-card sequences of § 659a.6(a): ace-2-3-4, 2-3-4-5, ..., jack-queen-king-ace (no
#: queen-king-ace-2), as ``rank mask -> lowest card`` (1 for ace-2-3-4).
_WINDOW_BY_MASK: Final[dict[int, int]] = {
    sum(_bit(r) for r in _window_ranks(low)): low for low in range(_A234_LOW_RANK, _ROYAL_LOW + 1)
}

#: For three distinct ranks, the sequences holding all three: ``mask -> lowest cards``.
_WINDOWS_HOLDING: Final[dict[int, tuple[int, ...]]] = {}
for _mask, _low in _WINDOW_BY_MASK.items():
    for _r in _window_ranks(_low):
        _three = _mask & ~_bit(_r)
        _WINDOWS_HOLDING[_three] = (*_WINDOWS_HOLDING.get(_three, ()), _low)
del _mask, _low, _r, _three


def _sequence_order(low: int, a234_low: bool) -> int:
    """Where a straight (flush) stands among the straights (flushes), greater is higher.

    § 659a.6(b)(6): "an ace, king, queen and jack being the highest ranking
    straight; an ace, 2, 3 and 4 being the second highest ranking straight; and
    a 2, 3, 4 and 5 being the lowest"; § 659a.6(b)(3) the same for straight
    flushes below the royal flush. With the Rules Submission option of (b)(3)
    and (b)(6) ace-2-3-4 is the lowest of all.
    """
    if low == _ROYAL_LOW:
        return 12
    if low == _A234_LOW_RANK:
        return 1 if a234_low else 11
    return low  # 2-3-4-5 is 2, ..., king-queen-jack-10 is 10


def _classify4(r0: int, r1: int, r2: int, r3: int, mask: int, suited: bool, a234_low: bool) -> Key:
    """The key of four cards given by rank ``r0 >= r1 >= r2 >= r3`` (§ 659a.6(b), (c))."""
    if r0 == r3:
        if r0 == ACE:
            return (FOUR_ACES,)  # (b)(1)
        return (FOUR_OF_A_KIND, r0)  # (b)(4)
    if r0 != r1 and r1 != r2 and r2 != r3:
        low = _WINDOW_BY_MASK.get(mask, 0)
        if suited:
            if low == _ROYAL_LOW:
                return (ROYAL_FLUSH,)  # (b)(2)
            if low:
                return (STRAIGHT_FLUSH, _sequence_order(low, a234_low))  # (b)(3)
            return (FLUSH, r0, r1, r2, r3)  # (b)(5), ties by (c)
        if low:
            return (STRAIGHT, _sequence_order(low, a234_low))  # (b)(6)
        return (NO_HAND, r0, r1, r2, r3)  # (c)
    if r0 == r2:
        return (THREE_OF_A_KIND, r0, r3)  # (b)(7)
    if r1 == r3:
        return (THREE_OF_A_KIND, r1, r0)
    if r0 == r1:
        if r2 == r3:
            return (TWO_PAIR, r0, r2)  # (b)(8)
        return (PAIR, r0, r2, r3)  # (b)(9)
    if r1 == r2:
        return (PAIR, r1, r0, r3)
    return (PAIR, r2, r0, r1)


def _best_reading4(cards: Sequence[Card], a234_low: bool) -> tuple[Key, int, str]:
    """The key of a four-card high hand and what the joker stands for (rank, suit; 0 and "" if none).

    The suit is given only where the joker completes a flush, a straight
    flush or a royal flush.
    """
    a, b, c, d = cards
    if a.rank and b.rank and c.rank and d.rank:
        r0, r1, r2, r3 = sorted((a.rank, b.rank, c.rank, d.rank), reverse=True)
        suited = a.suit == b.suit == c.suit == d.suit
        return _classify4(r0, r1, r2, r3, a.bit | b.bit | c.bit | d.bit, suited, a234_low), 0, ""
    naturals = [x for x in cards if x.rank]
    if len(naturals) != 3:
        jokers = 4 - len(naturals)
        raise CardError(f"one deck holds one joker (§ 659a.3(a)), not {jokers}: {format_cards(cards)}")
    x, y, z = naturals
    s0, s1, s2 = sorted((x.rank, y.rank, z.rank), reverse=True)
    mask = x.bit | y.bit | z.bit
    suit = x.suit if x.suit == y.suit == z.suit else ""
    # The joker ranked as an ace (§ 659a.6(a)); it has no suit of its own.
    best = (_classify4(ACE, s0, s1, s2, mask | _bit(ACE), False, a234_low), ACE, "")
    if mask.bit_count() == 3:
        # The joker as any card to complete a straight, straight flush or royal flush ...
        stand_ins = [
            next(r for r in _window_ranks(low) if not mask & _bit(r))
            for low in _WINDOWS_HOLDING.get(mask, ())
        ]
        if suit:
            # ... or a flush: the best card of the suit that is not in the hand.
            stand_ins.append(next(r for r in range(ACE, 1, -1) if not mask & _bit(r)))
        for r in stand_ins:
            t0, t1, t2, t3 = sorted((r, s0, s1, s2), reverse=True)
            key = _classify4(t0, t1, t2, t3, mask | _bit(r), bool(suit), a234_low)
            if key > best[0]:
                best = (key, r, suit)
    return best


def high_key(cards: Sequence[Card], *, a234_low: bool = False) -> Key:
    """The order key of a four-card high hand (§ 659a.6(b), (c)); no checks, for the house way.

    ``a234_low`` is the Rules Submission option of § 659a.6(b)(3), (6).
    """
    return _best_reading4(cards, a234_low)[0]


def medium_key(cards: Sequence[Card]) -> Key:
    """The order key of a two-card medium hand: a pair or no hand (§ 659a.6(b)(9), (c)).

    The joker is an ace (§ 659a.6(a)): ``JKR Ad`` is a pair of aces.
    """
    a, b = cards
    ra, rb = a.rank or ACE, b.rank or ACE
    if ra == rb:
        return (PAIR, ra)
    return (NO_HAND, ra, rb) if ra > rb else (NO_HAND, rb, ra)


def low_key(cards: Sequence[Card]) -> Key:
    """The order key of a one-card low hand: its card (§ 659a.6(a), (c)); the joker is an ace."""
    (a,) = cards
    return (NO_HAND, a.rank or ACE)


def hand_key(cards: Sequence[Card], *, a234_low: bool = False) -> Key:
    """The order key of a high (4 cards), medium (2) or low (1) hand; one order across the sizes."""
    n = len(cards)
    if n == HIGH_HAND_SIZE:
        return _best_reading4(cards, a234_low)[0]
    if n == MEDIUM_HAND_SIZE:
        return medium_key(cards)
    if n == LOW_HAND_SIZE:
        return low_key(cards)
    raise CardError(f"an Asia Poker hand has 4, 2 or 1 cards, not {n}: {format_cards(cards)!r}")


def _joker_note(rank: int, suit: str) -> str:
    if not rank:
        return ""
    if suit:
        return f" (joker as {rank_name(rank)} of {SUIT_NAMES[suit]})"
    return f" (joker as {rank_name(rank)})"


def _in_order(cards: Sequence[Card], category: int, stand_in: int) -> tuple[tuple[Card, ...], list[int]]:
    """The cards best-first (the joker where it stands) and their ranks as spoken."""
    ranked = [(x.rank or stand_in, x) for x in cards]
    ranks = {r for r, _ in ranked}
    if category in (STRAIGHT, STRAIGHT_FLUSH, ROYAL_FLUSH) and ranks == {ACE, 2, 3, 4}:
        order = {ACE: 4, 2: 3, 3: 2, 4: 1}
        ranked.sort(key=lambda rc: order[rc[0]], reverse=True)
    else:
        counts = {r: sum(1 for q, _ in ranked if q == r) for r in ranks}
        ranked.sort(key=lambda rc: (counts[rc[0]], rc[0], not rc[1].is_joker), reverse=True)
    return tuple(x for _, x in ranked), [r for r, _ in ranked]


def _words(category: int, ranks: Sequence[int]) -> str:
    name = CATEGORY_NAMES[category]
    if category in (FOUR_ACES, ROYAL_FLUSH):
        return name
    if category == FOUR_OF_A_KIND:
        return f"{name}, {rank_plural(ranks[0])}"
    if category == THREE_OF_A_KIND:
        return f"{name}, {rank_plural(ranks[0])}{kickers(ranks[3:])}"
    if category == TWO_PAIR:
        return f"{name}, {rank_plural(ranks[0])} and {rank_plural(ranks[2])}"
    if category == PAIR:
        return f"{name}, {rank_plural(ranks[0])}{kickers(ranks[2:])}"
    return f"{name}, {rank_run(ranks)}"


def _value(name: str, cards: Sequence[Card], a234_low: bool) -> HandValue:
    n = len(cards)
    if n == HIGH_HAND_SIZE:
        key, stand_in, suit = _best_reading4(cards, a234_low)
    else:
        key = medium_key(cards) if n == MEDIUM_HAND_SIZE else low_key(cards)
        stand_in, suit = (ACE if any(x.is_joker for x in cards) else 0), ""
    ordered, ranks = _in_order(cards, key[0], stand_in)
    words = _words(key[0], ranks) + _joker_note(stand_in, suit)
    return HandValue(name, key, CATEGORY_NAMES[key[0]], words, ordered)


def _asia_poker(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    return _value("asia-poker", cards, False)


def _asia_poker_a234_low(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    return _value("asia-poker-a234-low", cards, True)


ASIA_POKER: Final = Ranking(
    name="asia-poker",
    section="§ 659a.6(a)-(c)",
    summary="Asia Poker high (4 cards), medium (2) and low (1) hands, with the joker; "
    "ace-2-3-4 the highest straight flush",
    hand_sizes=(1, 2, 4),
    evaluate_unchecked=_asia_poker,
    joker=True,
)

ASIA_POKER_A234_LOW: Final = Ranking(
    name="asia-poker-a234-low",
    section="§ 659a.6(a)-(c); Rules Submission option of § 659a.6(b)(3), (6)",
    summary="asia-poker, but ace-2-3-4 the lowest straight flush and straight",
    hand_sizes=(1, 2, 4),
    evaluate_unchecked=_asia_poker_a234_low,
    joker=True,
)

_HAND_RANKINGS: Final = {ASIA_POKER.name: False, ASIA_POKER_A234_LOW.name: True}


def is_a234_low(ranking: Ranking | str) -> bool:
    """Whether ``ranking`` (``"asia-poker"`` or ``"asia-poker-a234-low"``) has ace-2-3-4 lowest."""
    name = ranking if isinstance(ranking, str) else ranking.name
    try:
        return _HAND_RANKINGS[name]
    except KeyError:
        raise ValueError(
            f"{name!r} is not a ranking of the Asia Poker high, medium and low hands: "
            f"use {ASIA_POKER.name!r} or {ASIA_POKER_A234_LOW.name!r} (§ 659a.6(b)(3), (6))"
        ) from None


def asia_poker_ranking(*, a234_lowest: bool) -> Ranking:
    """The ranking a Rules Submission names: ace-2-3-4 lowest or not (§ 659a.6(b)(3), (6))."""
    return ASIA_POKER_A234_LOW if a234_lowest else ASIA_POKER


def _resolve(ranking: Ranking | str) -> tuple[Ranking, bool]:
    a234_low = is_a234_low(ranking)
    return asia_poker_ranking(a234_lowest=a234_low), a234_low


# --- setting the hands, § 659a.11(b), and comparing them, § 659a.6(c), § 659a.11(f) ---------------


class HandSettingError(ValueError):
    """The three hands were not set as § 659a.11(b) requires.

    ``hands`` names the hands at fault: the hand that ranks too high
    (``"medium"`` when it is not lower than the high hand, ``"low"`` when it
    is not lower than the medium hand) or a hand with the wrong number of
    cards. ``rules`` are the provisions of § 659a.11(f)(1) under which the
    wager then loses.
    """

    def __init__(self, message: str, *, hands: tuple[str, ...], rules: tuple[str, ...]) -> None:
        super().__init__(message)
        self.hands = hands
        self.rules = rules


def _describe(cards: Sequence[Card], ranking: Ranking) -> str:
    return f"{format_cards(cards)} ({ranking.evaluate_unchecked(cards, ()).words})"


def check_setting(
    high: Sequence[Card],
    medium: Sequence[Card],
    low: Sequence[Card],
    ranking: Ranking | str = ASIA_POKER,
) -> None:
    """Refuse a setting that breaks § 659a.11(b); return nothing when it is right.

    "the four-card high hand must be higher in rank than the two-card medium
    hand and the medium hand must be higher in rank than the one-card low hand"
    (§ 659a.11(b)); a hand identical in rank is not higher. Raises
    :class:`HandSettingError` naming the hand that ranks too high (or has the
    wrong number of cards) and the provision of § 659a.11(f)(1) under which the
    wager loses; a card given twice, or a second joker, is a
    :class:`~.cards.CardError`.
    """
    named, a234_low = _resolve(ranking)
    check_cards([*high, *medium, *low], decks=1, allow_joker=True)
    wrong = [
        (name, len(hand), size)
        for name, hand, size in zip(HAND_NAMES, (high, medium, low), HAND_SIZES, strict=True)
        if len(hand) != size
    ]
    if wrong:
        raise HandSettingError(
            "hands not set correctly: "
            + "; ".join(f"the {name} hand has {n} cards, {size} needed" for name, n, size in wrong)
            + " (§ 659a.11(b); the wager loses under § 659a.11(f)(1)(v))",
            hands=tuple(name for name, _, _ in wrong),
            rules=("§ 659a.11(f)(1)(v)",),
        )
    kh, km, kl = high_key(high, a234_low=a234_low), medium_key(medium), low_key(low)
    problems: list[str] = []
    hands: list[str] = []
    rules: list[str] = []
    if not kh > km:
        problems.append(
            f"the medium hand {_describe(medium, named)} does not rank lower than "
            f"the high hand {_describe(high, named)}: "
            f"the four-card high hand must be higher in rank than the two-card medium hand "
            f"(§ 659a.11(b); the wager loses under § 659a.11(f)(1)(iii))"
        )
        hands.append("medium")
        rules.append("§ 659a.11(f)(1)(iii)")
    if not km > kl:
        problems.append(
            f"the low hand {_describe(low, named)} does not rank lower than "
            f"the medium hand {_describe(medium, named)}: "
            f"the medium hand must be higher in rank than the one-card low hand "
            f"(§ 659a.11(b); the wager loses under § 659a.11(f)(1)(iv))"
        )
        hands.append("low")
        rules.append("§ 659a.11(f)(1)(iv)")
    if problems:
        raise HandSettingError("; ".join(problems), hands=tuple(hands), rules=tuple(rules))


def setting_is_valid(
    high: Sequence[Card], medium: Sequence[Card], low: Sequence[Card], *, a234_low: bool = False
) -> bool:
    """:func:`check_setting` as a fast yes/no for right-sized hands (no card checks), for the house way."""
    km = medium_key(medium)
    return high_key(high, a234_low=a234_low) > km > low_key(low)


Setting = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
"""A high hand (4 cards), a medium hand (2) and a low hand (1)."""


def all_settings(seven: Sequence[Card]) -> Iterator[Setting]:
    """Every way of setting seven cards into a high, a medium and a low hand (7 x 15 = 105).

    The cards of each hand keep the order they have in ``seven``.
    """
    if len(seven) != 7:
        raise CardError(f"seven cards are set into three hands (§ 659a.11(b)), not {len(seven)}")
    for i, low_card in enumerate(seven):
        rest = [x for j, x in enumerate(seven) if j != i]
        for pair in combinations(range(6), 2):
            medium = (rest[pair[0]], rest[pair[1]])
            high = tuple(x for j, x in enumerate(rest) if j not in pair)
            yield high, medium, (low_card,)


def valid_settings(seven: Sequence[Card], ranking: Ranking | str = ASIA_POKER) -> list[Setting]:
    """The settings of :func:`all_settings` that § 659a.11(b) allows."""
    check_cards(seven, decks=1, allow_joker=True)
    a234_low = is_a234_low(ranking)
    return [s for s in all_settings(seven) if setting_is_valid(*s, a234_low=a234_low)]


Outcome = Literal["win", "lose", "copy"]
"""One hand of the player against the dealer's: higher, lower, or identical in rank (a copy hand)."""


def compare_keys(player: Key, dealer: Key) -> Outcome:
    """``"win"``, ``"lose"`` or ``"copy"`` (§ 659a.1 "Copy hand", § 659a.6(c))."""
    if player > dealer:
        return "win"
    if player < dealer:
        return "lose"
    return "copy"


def compare_hands(
    player: Sequence[Card], dealer: Sequence[Card], ranking: Ranking | str = ASIA_POKER
) -> Outcome:
    """One hand of the player against the dealer's corresponding hand (§ 659a.11(e)).

    The two hands must be of the same size: high with high (4 cards), medium
    with medium (2), low with low (1).
    """
    named, _ = _resolve(ranking)
    if len(player) != len(dealer):
        raise CardError(
            f"the player's hand {format_cards(player)!r} and the dealer's {format_cards(dealer)!r} "
            f"are not corresponding hands (§ 659a.11(e))"
        )
    return compare_keys(named.evaluate(player).key, named.evaluate(dealer).key)


def compare_sets(
    player: Sequence[Sequence[Card]],
    dealer: Sequence[Sequence[Card]],
    ranking: Ranking | str = ASIA_POKER,
) -> tuple[Outcome, Outcome, Outcome]:
    """The player's high, medium and low hands each against the dealer's (§ 659a.11(e)).

    Only the per-hand comparison: whether the Asia Poker Wager then wins or
    loses (two of three hands higher wins; copies go to the dealer, § 659a.11(f))
    and whether the player's hands were set correctly (:func:`check_setting`)
    is for the game's settlement.
    """
    outcomes: list[Outcome] = []
    for who, hands in (("player", player), ("dealer", dealer)):
        if len(hands) != 3:
            raise CardError(
                f"the {who} has {len(hands)} hands, three needed: high, medium and low (§ 659a.1)"
            )
        for name, hand, size in zip(HAND_NAMES, hands, HAND_SIZES, strict=True):
            if len(hand) != size:
                raise CardError(
                    f"the {who}'s {name} hand {format_cards(hand)!r} has {len(hand)} cards, "
                    f"{size} needed (§ 659a.1)"
                )
    for p, d in zip(player, dealer, strict=True):
        outcomes.append(compare_hands(p, d, ranking))
    return outcomes[0], outcomes[1], outcomes[2]


# --- the Bonus Wager hands, § 659a.6(d) -----------------------------------------------------------

NO_BONUS_HAND: Final = 0
BONUS_STRAIGHT: Final = 1
BONUS_THREE_OF_A_KIND: Final = 2
BONUS_FLUSH: Final = 3
BONUS_FULL_HOUSE: Final = 4
NINE_HIGH: Final = 5
BONUS_FOUR_OF_A_KIND: Final = 6
STRAIGHT_FLUSH_WITH_A_JOKER: Final = 7
NATURAL_STRAIGHT_FLUSH: Final = 8
BONUS_ROYAL_FLUSH: Final = 9
FIVE_ACES: Final = 10
THREE_OF_A_KIND_AND_FOUR_EIGHTS: Final = 11

#: Bonus category names, the rows of the paytable of § 659a.12(b), indexed by category.
BONUS_CATEGORY_NAMES: Final = (
    "no bonus hand",
    "straight",
    "three-of-a-kind",
    "flush",
    "full house",
    "9-high",
    "four-of-a-kind",
    "straight flush with a joker",
    "natural straight flush",
    "royal flush",
    "five aces",
    "three-of-a-kind and four 8s",
)

#: § 659a.6(d)(7): "a seven-card hand that contains a 9, 8, 7, 6, 4, 3 and 2 or a 9, 8, 7, 5, 4, 3 and 2".
NINE_HIGH_RANKS: Final = ((9, 8, 7, 6, 4, 3, 2), (9, 8, 7, 5, 4, 3, 2))
_NINE_HIGH_MASKS: Final = {sum(_bit(r) for r in ranks): ranks for ranks in NINE_HIGH_RANKS}

_WHEEL_TOP: Final = 5


def _five_window(top: int) -> tuple[int, ...]:
    """The five ranks of the straight with ``top`` as its highest card, top first (5: 5-4-3-2-ace)."""
    if top == _WHEEL_TOP:
        return (5, 4, 3, 2, ACE)
    return tuple(range(top, top - 5, -1))


_FIVE_WINDOWS: Final = tuple((top, sum(_bit(r) for r in _five_window(top))) for top in range(ACE, 4, -1))
"""Five-card straights, highest first: ace-king-queen-jack-10 ... 5-4-3-2-ace (§ 659a.6(a))."""


class _Picker:
    """Takes the cards of a hand out of the seven, the joker standing in where a card is missing."""

    def __init__(self, cards: Sequence[Card]) -> None:
        self.pool = list(cards)
        self.joker_as: tuple[int, str] = (0, "")

    def take(self, rank: int, suit: str = "") -> Card:
        for x in self.pool:
            if x.rank == rank and (not suit or x.suit == suit):
                self.pool.remove(x)
                return x
        self.pool.remove(JOKER)
        self.joker_as = (rank, suit)
        return JOKER

    def rest(self) -> list[Card]:
        """The cards not taken, best first (the joker as an ace)."""
        return sorted(self.pool, key=lambda x: (x.rank or ACE, not x.is_joker), reverse=True)


def _best_straight(mask: int, wild: int) -> int:
    """Top card of the best five-card straight in a rank mask with ``wild`` jokers to fill it, 0 if none."""
    for top, window in _FIVE_WINDOWS:
        if (window & ~mask).bit_count() <= wild:
            return top
    return 0


def _bonus(cards: Sequence[Card]) -> tuple[Key, tuple[Card, ...], str]:
    """Key, cards and words of the best Bonus hand of seven cards (§ 659a.6(d), § 659a.11(h))."""
    naturals = [x for x in cards if x.rank]
    wild = len(cards) - len(naturals)  # 1 with the joker, else 0
    if wild > 1:
        raise CardError(f"one deck holds one joker (§ 659a.3(a)), not {wild}: {format_cards(cards)}")
    counts = [0] * 15
    mask = 0
    suit_masks = dict.fromkeys(SUIT_CHARS, 0)
    for x in naturals:
        counts[x.rank] += 1
        mask |= x.bit
        suit_masks[x.suit] |= x.bit
    # The joker "shall be used and ranked as an ace" except where it completes a straight, a
    # flush, a straight flush or a royal flush (§ 659a.6(a)): the rank counts with it as an ace.
    with_ace = counts.copy()
    with_ace[ACE] += wild
    pick = _Picker(cards)

    def done(key: Key, chosen: Sequence[Card], detail: str = "") -> tuple[Key, tuple[Card, ...], str]:
        rank, suit = pick.joker_as
        words = BONUS_CATEGORY_NAMES[key[0]] + (f", {detail}" if detail else "")
        return key, tuple(chosen), words + _joker_note(rank, suit)

    # (d)(1) "A three-of-a-kind and four 8s": the joker is no 8, but may be the third ace.
    if counts[8] == 4:
        trips = [r for r in range(ACE, 1, -1) if r != 8 and with_ace[r] >= 3]
        if trips:
            t = trips[0]
            chosen = [pick.take(8) for _ in range(4)] + [pick.take(t) for _ in range(3)]
            return done((THREE_OF_A_KIND_AND_FOUR_EIGHTS, t), chosen, rank_plural(t))
    # (d)(2) "Five aces, which is a hand consisting of four aces and a joker".
    if with_ace[ACE] == 5:
        return done((FIVE_ACES,), [pick.take(ACE) for _ in range(5)])
    # (d)(3)-(5): the royal flush (the joker may complete it, § 659a.6(a)), the natural straight
    # flush ("with no joker") and the straight flush with a joker.
    royal_window = _FIVE_WINDOWS[0][1]
    for s in SUIT_CHARS:
        if (royal_window & ~suit_masks[s]).bit_count() <= wild:
            chosen = [pick.take(r, s) for r in _five_window(ACE)]
            return done((BONUS_ROYAL_FLUSH,), chosen)
    for category, jokers in ((NATURAL_STRAIGHT_FLUSH, 0), (STRAIGHT_FLUSH_WITH_A_JOKER, wild)):
        tops = [(_best_straight(suit_masks[s], jokers), s) for s in SUIT_CHARS]
        top, s = max(tops)
        if top:
            chosen = [pick.take(r, s) for r in _five_window(top)]
            return done((category, top), chosen, f"{rank_name(top)} high")
        if not wild:
            break
    # (d)(6) four-of-a-kind; the joker only as the fourth ace.
    quads = [r for r in range(ACE, 1, -1) if with_ace[r] >= 4]
    if quads:
        q = quads[0]
        chosen = [pick.take(q) for _ in range(4)]
        k = pick.rest()[0].rank or ACE
        chosen.append(pick.take(k))
        return done((BONUS_FOUR_OF_A_KIND, q, k), chosen, f"{rank_plural(q)}{kickers([k])}")
    # (d)(7) 9-high: the seven cards themselves; the joker is no card of it (it is an ace, or
    # completes only a straight, flush, straight flush or royal flush, § 659a.6(a)).
    if mask in _NINE_HIGH_MASKS:  # seven ranks: seven cards, none the joker
        ranks = _NINE_HIGH_MASKS[mask]
        chosen = [pick.take(r) for r in ranks]
        return done((NINE_HIGH, *ranks), chosen, rank_run(ranks))
    # (d)(8) full house; the joker as an ace.
    trips = [r for r in range(ACE, 1, -1) if with_ace[r] >= 3]
    if trips:
        t = trips[0]
        pairs = [r for r in range(ACE, 1, -1) if r != t and with_ace[r] >= 2]
        if pairs:
            p = pairs[0]
            chosen = [pick.take(t) for _ in range(3)] + [pick.take(p) for _ in range(2)]
            return done((BONUS_FULL_HOUSE, t, p), chosen, f"{rank_plural(t)} full of {rank_plural(p)}")
    # (d)(9) flush; the joker as the best card of the suit not in the hand.
    flushes: list[tuple[tuple[int, ...], str]] = []
    for s, m in suit_masks.items():
        if m.bit_count() + wild >= 5:
            if wild:
                m |= _bit(next(r for r in range(ACE, 1, -1) if not m & _bit(r)))
            flushes.append((tuple(r for r in range(ACE, 1, -1) if m & _bit(r))[:5], s))
    if flushes:
        ranks5, s = max(flushes)
        chosen = [pick.take(r, s) for r in ranks5]
        return done((BONUS_FLUSH, *ranks5), chosen, rank_run(ranks5))
    # (d)(10) three-of-a-kind, above the straight in the paytable of § 659a.12(b).
    if trips:
        t = trips[0]
        chosen = [pick.take(t) for _ in range(3)]
        ks = [x.rank or ACE for x in pick.rest()[:2]]
        chosen += [pick.take(k) for k in ks]
        return done((BONUS_THREE_OF_A_KIND, t, *ks), chosen, f"{rank_plural(t)}{kickers(ks)}")
    # (d)(11) straight; the joker may complete it.
    top = _best_straight(mask, wild)
    if top:
        chosen = [pick.take(r) for r in _five_window(top)]
        return done((BONUS_STRAIGHT, top), chosen, f"{rank_name(top)} high")
    return done((NO_BONUS_HAND,), pick.rest())


def bonus_key(cards: Sequence[Card]) -> Key:
    """The order key of the best Bonus hand of seven cards (§ 659a.6(d)); no checks.

    ``(category, ...)`` with the categories in the order of the paytable of
    § 659a.12(b), which is the order of § 659a.6(d)(1)-(11); within a category
    by the five-card ranks (a straight or straight flush by its top card,
    5-4-3-2-ace the lowest), which the paytable does not need.
    """
    return _bonus(cards)[0]


def _asia_poker_bonus(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    key, chosen, words = _bonus(cards)
    return HandValue("asia-poker-bonus", key, BONUS_CATEGORY_NAMES[key[0]], words, chosen)


ASIA_POKER_BONUS: Final = Ranking(
    name="asia-poker-bonus",
    section="§ 659a.6(d); § 659a.12(b)",
    summary="Asia Poker Bonus Wager hands of seven cards, with the joker, in the paytable's order",
    hand_sizes=(7,),
    evaluate_unchecked=_asia_poker_bonus,
    joker=True,
)

RANKINGS: Final[tuple[Ranking, ...]] = (ASIA_POKER, ASIA_POKER_A234_LOW, ASIA_POKER_BONUS)
