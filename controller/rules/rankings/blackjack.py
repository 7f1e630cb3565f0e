"""Blackjack hand values and the side-wager hands of 58 Pa. Code chapter 633a.

Point count, § 633a.3(e) (base text, not printed in our copy of 43 Pa.B. 834):
"Any card from 2 to 10 shall have its face value", a jack, queen or king counts
10 and an ace 1 or 11. Definitions of § 633a.1 used here: "Blackjack—An ace and
any card having a value of 10 dealt as the initial two cards to a player or the
dealer"; "Soft total—The total point count of a hand containing an ace when the
ace is counted as 11 in value"; "Hard total—... a hand which contains no aces or
which contains aces that are each counted as 1 in value" (the published Pa.
Code; our copy prints only the new definitions). Because the definition says
"dealt as the initial two cards", an ace and a 10-count card on a hand formed
by splitting pairs (§ 633a.11) is a 21, not a Blackjack.

The side-wager hands are the definitions our copy of § 633a.1 prints:
"Ace-king suited—An ace and a king of the same suit", "Any 20—Two cards of
different suits with a total point count of 20", "Triple Match—The player's
initial two cards and the dealer's up card which are all the same rank",
"Two-card straight—Two cards in consecutive rank regardless of suit",
"Two-card straight flush—Two cards in consecutive rank of the same suit", and
(published § 633a.1) "Pair—Two cards of the same rank".

The ace in a two-card straight: § 633a.7(o)(3)(i) says "provided that an ace,
king shall be a two-card straight", and the top hand of § 633a.13(m)(1), the
"Six-card straight with an ace", can only be A-2-3-4-5-6 (any other six-card
straight counts more than 21, and the card that busts the hand does not count,
§ 633a.7(o)(3)(i)(D)). So the ace is next to the king (high) and next to the 2
(low), but a sequence does not turn the corner: K-A-2 is no straight.

Rankings here: ``"blackjack"`` (the hand's total), ``"straight-jack"``
(§ 633a.6(e)(11), § 633a.7(o)(3), § 633a.13(m)) and ``"house-money"``
(§ 633a.6(e)(12), § 633a.7(g)(10), § 633a.13(n)). The Hit and Run Progressive
Wager (§ 633a.6(e)(10), § 633a.7(o)(2)) has a classifier, not a ranking: its
paytable, § 633a.13(l), is not in our copy, so the order of its hands comes
from the Rules Submission.

Over 500 lines on purpose: every hand value of ch. 633a and its side wagers (the point count, the
three-card poker hand with the up card, Straight Jack's straights, House Money's hands, Hit and
Run's and Bad Beat's dealer hands) is one small pure function with the text it follows; they are
one idea, the values of Blackjack hands, and :mod:`.blackjack_wagers` pays them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..core.cards import ACE, KING, SUIT_NAMES, Card, CardError, format_cards
from ..core.hand import HandValue, Ranking, rank_name, rank_plural, rank_run

#: Decks the blackjack rankings accept (a multi-deck shoe holds a card more than once).
DECKS: Final = 8

#: The most cards a hand can hold: 21 aces count 21 and the 22nd card busts the hand.
MAX_HAND_CARDS: Final = 22

BLACKJACK_TOTAL: Final = 21

# --- point count, § 633a.3(e) -------------------------------------------------------------------------


def point_value(c: Card) -> int:
    """The card's point count with an ace counted 1 (§ 633a.3(e)): 2-10 face value, J Q K 10."""
    if c.is_joker:
        raise CardError("the joker (JKR) is not used in Blackjack")
    if c.rank == ACE:
        return 1
    return min(c.rank, 10)


def hard_total(cards: Sequence[Card]) -> int:
    """The total with every ace counted as 1 (§ 633a.1 "Hard total")."""
    return sum(point_value(c) for c in cards)


def hand_total(cards: Sequence[Card]) -> tuple[int, bool]:
    """``(total, soft)``: the hand's point count and whether an ace in it counts 11.

    An ace counts 11 when that does not take the total over 21 (§ 633a.3(e)); then
    the total is a soft total, otherwise a hard total (§ 633a.1). Two aces can never
    both count 11 (22), so at most one does. A bust hand gives its hard total.
    """
    hard = hard_total(cards)
    if hard + 10 <= BLACKJACK_TOTAL and any(c.rank == ACE for c in cards):
        return hard + 10, True
    return hard, False


def is_ten_count(c: Card) -> bool:
    """A 10, jack, queen or king: "any card having a value of 10" (§ 633a.1 "Blackjack")."""
    return not c.is_joker and 10 <= c.rank <= KING


def is_blackjack(cards: Sequence[Card], *, after_split: bool = False) -> bool:
    """An ace and a 10-count card as the initial two cards of a hand (§ 633a.1 "Blackjack").

    ``after_split``: the hand was formed by splitting pairs (§ 633a.11); its two
    cards were not "dealt as the initial two cards", so ace and 10 make 21, not a
    Blackjack.
    """
    if after_split or len(cards) != 2:
        return False
    a, b = cards
    return (a.rank == ACE and is_ten_count(b)) or (b.rank == ACE and is_ten_count(a))


def is_bust(cards: Sequence[Card]) -> bool:
    """The hand's total point count is greater than 21 (§ 633a.7(o)(2)(i), (o)(3)(i)(D))."""
    return hard_total(cards) > BLACKJACK_TOTAL


def bust_position(cards: Sequence[Card]) -> int | None:
    """The index of the card that takes the total over 21, or None if the hand is not bust."""
    hard = 0
    for i, c in enumerate(cards):
        hard += point_value(c)
        if hard > BLACKJACK_TOTAL:
            return i
    return None


def check_no_card_after_bust(cards: Sequence[Card], whose: str = "hand") -> None:
    """Refuse a hand that goes on after the card that took it over 21: no card is drawn to a bust hand."""
    at = bust_position(cards)
    if at is not None and at + 1 < len(cards):
        raise CardError(
            f"the {whose} {format_cards(cards)!r} is over 21 at card {at + 1} ({cards[at]}); "
            f"no card is drawn to a hand over 21, but {format_cards(cards[at + 1 :])!r} came after it"
        )


def dealer_must_hit(cards: Sequence[Card], hits_soft_17: bool) -> bool:
    """Whether the dealer draws another card (§ 633a.7; the soft-17 rule is in the Rules Submission).

    The dealer draws on 16 or less and stands on 17 or more; with ``hits_soft_17``
    the dealer also draws on a soft 17 (an ace counted 11, e.g. A-6). A Blackjack
    takes no further card (§ 633a.7(h)), nor does a bust hand.
    """
    if len(cards) < 2:
        raise CardError(f"the dealer's hand {format_cards(cards)!r} has not yet its two initial cards")
    if is_blackjack(cards):
        return False
    total, soft = hand_total(cards)
    if total > BLACKJACK_TOTAL:
        return False
    if total < 17:
        return True
    return total == 17 and soft and hits_soft_17


# --- the Blackjack hand value ---------------------------------------------------------------------------

#: The key of a bust hand: below every total (all bust hands are equal: each loses).
BUST_KEY: Final = 0
#: The key of a Blackjack: above 21 made with more cards or after a split.
BLACKJACK_KEY: Final = 22

BLACKJACK_CATEGORY: Final = "Blackjack"
SOFT_TOTAL: Final = "soft total"
HARD_TOTAL: Final = "hard total"
BUST: Final = "bust"


def blackjack_value(cards: Sequence[Card], *, after_split: bool = False) -> HandValue:
    """The hand's value: bust < 4 < 5 < ... < 21 < Blackjack (§ 633a.1, § 633a.3(e)).

    ``words``: ``"blackjack"``, ``"soft 17"``, ``"hard 20"``, ``"bust (24)"``. Soft and
    hard hands of one total are equal. A card after the one that busts the hand is
    refused. ``after_split`` as in :func:`is_blackjack`.
    """
    check_no_card_after_bust(cards)
    hand = tuple(cards)
    if is_blackjack(hand, after_split=after_split):
        return HandValue("blackjack", (BLACKJACK_KEY,), BLACKJACK_CATEGORY, "blackjack", hand)
    total, soft = hand_total(hand)
    if total > BLACKJACK_TOTAL:
        return HandValue("blackjack", (BUST_KEY,), BUST, f"bust ({total})", hand)
    if soft:
        return HandValue("blackjack", (total,), SOFT_TOTAL, f"soft {total}", hand)
    return HandValue("blackjack", (total,), HARD_TOTAL, f"hard {total}", hand)


def _blackjack_unchecked(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    return blackjack_value(cards)


BLACKJACK: Final = Ranking(
    name="blackjack",
    section="§ 633a.1, § 633a.3(e)",
    summary="a Blackjack hand's point count: bust < 4 < ... < 21 < Blackjack (ace and 10-count card)",
    hand_sizes=tuple(range(2, MAX_HAND_CARDS + 1)),
    evaluate_unchecked=_blackjack_unchecked,
    decks=DECKS,
)

# --- Hit and Run Progressive Wager, § 633a.6(e)(10), § 633a.7(o)(2) ---------------------------------------

#: "a hand containing five or more cards" (§ 633a.6(e)(10)).
HIT_AND_RUN_MIN_CARDS: Final = 5


@dataclass(frozen=True, slots=True)
class HitAndRunHand:
    """The dealer's final hand as the Hit and Run Progressive Wager sees it (§ 633a.7(o)(2)(i)).

    ``card_count`` counts every card of the dealer's hand, "inclusive of any card
    which would give the dealer's hand a total point count of greater than 21".
    ``wins`` is true for a dealer Blackjack or five or more cards; what each pays
    is the paytable of § 633a.13(l) in the Rules Submission.
    """

    blackjack: bool
    card_count: int
    total: int
    bust: bool
    cards: tuple[Card, ...]

    @property
    def wins(self) -> bool:
        return self.blackjack or self.card_count >= HIT_AND_RUN_MIN_CARDS

    @property
    def words(self) -> str:
        """``"dealer Blackjack"``, ``"dealer six-card hand, bust (23)"``, ``"dealer three-card hand, 19"``."""
        if self.blackjack:
            return "dealer Blackjack"
        count = rank_name(self.card_count) if self.card_count <= 10 else str(self.card_count)
        total = f"bust ({self.total})" if self.bust else str(self.total)
        return f"dealer {count}-card hand, {total}"

    def __str__(self) -> str:
        return self.words


def hit_and_run_hand(dealer_cards: Sequence[Card]) -> HitAndRunHand:
    """Classify the dealer's final hand for the Hit and Run Progressive Wager (§ 633a.7(o)(2)(i)).

    "A player shall win if the dealer has Blackjack or the dealer's hand has five
    or more cards inclusive of any card which would give the dealer's hand a total
    point count of greater than 21": the busting card counts (the text's example:
    14 with five cards, then a card to 23, makes six cards). A card after the
    busting card, or after a dealer Blackjack ("additional cards may not be
    dealt", § 633a.7(h)), is refused.
    """
    hand = tuple(dealer_cards)
    if len(hand) < 2:
        raise CardError(f"the dealer's hand {format_cards(hand)!r} has fewer than its two initial cards")
    if is_blackjack(hand[:2]) and len(hand) > 2:
        raise CardError(
            f"the dealer's hand {format_cards(hand)!r} starts with a Blackjack, after which "
            f"additional cards may not be dealt (§ 633a.7(h))"
        )
    check_no_card_after_bust(hand, "dealer's hand")
    total, _soft = hand_total(hand)
    return HitAndRunHand(
        blackjack=is_blackjack(hand),
        card_count=len(hand),
        total=total,
        bust=total > BLACKJACK_TOTAL,
        cards=hand,
    )


# --- the side-wager hands of § 633a.1 ------------------------------------------------------------------

ACE_KING_SUITED: Final = "ace-king suited"
ANY_20: Final = "any 20"
TRIPLE_MATCH: Final = "triple match"
TWO_CARD_STRAIGHT: Final = "two-card straight"
TWO_CARD_STRAIGHT_FLUSH: Final = "two-card straight flush"
PAIR: Final = "pair"

#: The order :func:`side_wager_hands` lists them in.
SIDE_WAGER_HANDS: Final = (
    ACE_KING_SUITED,
    TWO_CARD_STRAIGHT_FLUSH,
    PAIR,
    TWO_CARD_STRAIGHT,
    ANY_20,
    TRIPLE_MATCH,
)


def _two(cards: Sequence[Card]) -> tuple[Card, Card]:
    if len(cards) != 2:
        raise CardError(f"a two-card hand is needed, not {len(cards)} cards ({format_cards(cards)!r})")
    for c in cards:
        if c.is_joker:
            raise CardError("the joker (JKR) is not used in Blackjack")
    return cards[0], cards[1]


def straight_ranks(rank: int) -> tuple[int, ...]:
    """The places a rank takes in a sequence: an ace is 1 (below the 2) or 14 (above the king)."""
    return (1, ACE) if rank == ACE else (rank,)


def is_two_card_straight(cards: Sequence[Card]) -> bool:
    """Two cards in consecutive rank regardless of suit (§ 633a.1); A-K and A-2 are (§ 633a.7(o)(3)(i))."""
    a, b = _two(cards)
    return any(abs(x - y) == 1 for x in straight_ranks(a.rank) for y in straight_ranks(b.rank))


def is_two_card_straight_flush(cards: Sequence[Card]) -> bool:
    """Two cards in consecutive rank of the same suit (§ 633a.1)."""
    a, b = _two(cards)
    return a.suit == b.suit and is_two_card_straight(cards)


def is_ace_king_suited(cards: Sequence[Card]) -> bool:
    """An ace and a king of the same suit (§ 633a.1)."""
    a, b = _two(cards)
    return a.suit == b.suit and {a.rank, b.rank} == {ACE, KING}


def is_pair(cards: Sequence[Card]) -> bool:
    """Two cards of the same rank (§ 633a.1 "Pair"): a 10 and a king are no pair."""
    a, b = _two(cards)
    return a.rank == b.rank


def is_any_20(cards: Sequence[Card]) -> bool:
    """Two cards of different suits with a total point count of 20 (§ 633a.1): K-Q, 10-J, A-9, ..."""
    a, b = _two(cards)
    return a.suit != b.suit and hand_total((a, b))[0] == 20


def is_triple_match(cards: Sequence[Card], up_card: Card) -> bool:
    """The player's initial two cards and the dealer's up card are all the same rank (§ 633a.1)."""
    a, b = _two(cards)
    if up_card.is_joker:
        raise CardError("the joker (JKR) is not used in Blackjack")
    return a.rank == b.rank == up_card.rank


def side_wager_hands(cards: Sequence[Card], up_card: Card | None = None) -> tuple[str, ...]:
    """Every § 633a.1 side-wager hand the player's initial two cards make, in :data:`SIDE_WAGER_HANDS` order.

    A hand can make several: A-K of spades is ace-king suited, a two-card straight
    flush and a two-card straight. Triple Match needs the dealer's ``up_card``; without
    it, it is not considered.
    """
    made = {
        ACE_KING_SUITED: is_ace_king_suited(cards),
        TWO_CARD_STRAIGHT_FLUSH: is_two_card_straight_flush(cards),
        PAIR: is_pair(cards),
        TWO_CARD_STRAIGHT: is_two_card_straight(cards),
        ANY_20: is_any_20(cards),
        TRIPLE_MATCH: up_card is not None and is_triple_match(cards, up_card),
    }
    return tuple(name for name in SIDE_WAGER_HANDS if made[name])


# --- House Money Wager, § 633a.6(e)(12), § 633a.7(g)(10), § 633a.13(n) ------------------------------------

NO_HOUSE_MONEY_HAND: Final = "no House Money hand"

#: § 633a.13(n): the hands, highest first, with their odds "to 1" for (1) a single deck
#: and (2) multiple decks.
HOUSE_MONEY_PAYTABLE: Final = (
    (ACE_KING_SUITED, 9, 9),
    (TWO_CARD_STRAIGHT_FLUSH, 5, 4),
    (PAIR, 3, 3),
    (TWO_CARD_STRAIGHT, 1, 1),
)

#: The key of each House Money hand: 4 for ace-king suited down to 1; 0 is no hand.
_HOUSE_MONEY_KEY: Final = {
    name: len(HOUSE_MONEY_PAYTABLE) - i for i, (name, _, _) in enumerate(HOUSE_MONEY_PAYTABLE)
}


def house_money_hand(cards: Sequence[Card]) -> str | None:
    """The House Money hand of the initial two cards, the highest-paying one, or None (§ 633a.7(g)(10)).

    A-K suited is also a two-card straight flush and a two-card straight; it is paid
    once, as "Ace-king suited", the first line of § 633a.13(n).
    """
    made = side_wager_hands(cards)
    for name, _single, _multi in HOUSE_MONEY_PAYTABLE:
        if name in made:
            return name
    return None


def house_money_odds(hand: str, *, single_deck: bool) -> int:
    """The odds "to 1" of a House Money hand: § 633a.13(n)(1) single deck, (n)(2) multiple decks."""
    for name, single, multi in HOUSE_MONEY_PAYTABLE:
        if name == hand:
            return single if single_deck else multi
    known = ", ".join(n for n, _, _ in HOUSE_MONEY_PAYTABLE)
    raise KeyError(f"{hand!r} is not a House Money hand of § 633a.13(n) ({known})")


def house_money_value(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    """The House Money value of the initial two cards, ordered as the paytable of § 633a.13(n)."""
    hand = tuple(cards)
    name = house_money_hand(hand)
    if name is None:
        return HandValue("house-money", (0,), NO_HOUSE_MONEY_HAND, NO_HOUSE_MONEY_HAND, hand)
    ace_low = {c.rank for c in hand} == {ACE, 2}  # the ace below the 2

    def place(c: Card) -> int:
        return 1 if ace_low and c.rank == ACE else c.rank

    ordered = tuple(sorted(hand, key=place, reverse=True))
    if name == PAIR:
        words = f"pair of {rank_plural(ordered[0].rank)}"
    elif name == ACE_KING_SUITED:
        words = f"ace-king suited, {SUIT_NAMES[hand[0].suit]}"
    else:
        words = f"{name}, {rank_run([place(c) for c in ordered])}"
    return HandValue("house-money", (_HOUSE_MONEY_KEY[name],), name, words, ordered)


HOUSE_MONEY: Final = Ranking(
    name="house-money",
    section="§ 633a.13(n)",
    summary="House Money Wager: ace-king suited > two-card straight flush > pair > two-card straight",
    hand_sizes=(2,),
    evaluate_unchecked=house_money_value,
    decks=DECKS,
)

# --- Straight Jack Progressive Wager, § 633a.6(e)(11), § 633a.7(o)(3), § 633a.13(m) -----------------------

NO_STRAIGHT: Final = "no two-card straight"
SIX_CARD_STRAIGHT_ACE_OF_SPADES: Final = "six-card straight with an ace of spades"
SIX_CARD_STRAIGHT_OTHER_ACE: Final = "six-card straight with an ace of diamonds, clubs or hearts"

#: § 633a.13(m)(1), lowest first (the losing hand added at the bottom): category, payout in
#: the table's words. The key of a Straight Jack value is the index in this table.
STRAIGHT_JACK_PAYTABLE: Final = (
    (NO_STRAIGHT, "lose"),
    ("two-card straight", "3 to 1"),
    ("three-card straight", "15 to 1"),
    ("four-card straight", "50 to 1"),
    ("five-card straight", "200 to 1"),
    (SIX_CARD_STRAIGHT_OTHER_ACE, "10% of meter and 200 to 1"),
    (SIX_CARD_STRAIGHT_ACE_OF_SPADES, "100% of meter and 200 to 1"),
)

_LENGTH_WORDS: Final = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass(frozen=True, slots=True)
class StraightJackRun:
    """The player's straight for the Straight Jack Progressive Wager (§ 633a.7(o)(3)(i)).

    ``length`` is 0 when the initial two cards are no two-card straight, else 2-6.
    ``cards`` are the cards of the straight, highest first (the ace of A-2-3 last),
    and ``places`` their places in the sequence (an ace 1 below the 2, 14 above the
    king). They are always the first ``length`` cards of the hand: counting stops
    at the first card that breaks the sequence or busts the hand. ``ace_of_spades``
    says, for a six-card straight only, whether its ace is the ace of spades.
    """

    length: int
    cards: tuple[Card, ...]
    places: tuple[int, ...]
    ace_of_spades: bool | None

    @property
    def category(self) -> str:
        """The paytable line of § 633a.13(m)(1) (or "no two-card straight")."""
        if self.length == 0:
            return NO_STRAIGHT
        if self.length == 6:
            return SIX_CARD_STRAIGHT_ACE_OF_SPADES if self.ace_of_spades else SIX_CARD_STRAIGHT_OTHER_ACE
        return f"{_LENGTH_WORDS[self.length]}-card straight"

    @property
    def paytable_index(self) -> int:
        """The position in :data:`STRAIGHT_JACK_PAYTABLE` (0 loses, 6 is the top award)."""
        if self.length == 0:
            return 0
        if self.length == 6:
            return 6 if self.ace_of_spades else 5
        return self.length - 1


def straight_jack_run(cards: Sequence[Card]) -> StraightJackRun:
    """The straight of a player's hand, its cards in the order dealt (§ 633a.7(o)(3)(i)).

    "A player shall win if the player's initial two cards were a two-card straight.
    Each additional card drawn by the player which does not break the sequence of
    the two-card straight shall result in a payout increase, provided that an ace,
    king shall be a two-card straight." A drawn card keeps the sequence when its
    rank is next to either end of it: 4-5 then a 3 and a 6 is a four-card straight
    (example (B)). The first drawn card that is not next to an end breaks the
    sequence and no later card counts: 4-5 then a 2 and a 3 is a two-card straight
    (example (C)). A card that takes the hand over 21 does not count (example (D)).
    An ace sits below the 2 or above the king, never both (no K-A-2).
    """
    hand = tuple(cards)
    if len(hand) < 2:
        raise CardError(f"the player's hand {format_cards(hand)!r} has fewer than its initial two cards")
    for c in hand:
        if c.is_joker:
            raise CardError("the joker (JKR) is not used in Blackjack")
    check_no_card_after_bust(hand, "player's hand")
    first, second = hand[0], hand[1]
    ends = _two_card_ends(first.rank, second.rank)
    if ends is None:
        return StraightJackRun(0, (), (), None)
    low, high = ends
    length = 2
    hard = point_value(first) + point_value(second)
    for c in hand[2:]:
        hard += point_value(c)
        if hard > BLACKJACK_TOTAL:  # (D): the card that busts the hand does not count
            break
        places = straight_ranks(c.rank)
        if low - 1 in places:
            low -= 1
        elif high + 1 in places:
            high += 1
        else:  # (C): this card breaks the sequence; no later card counts
            break
        length += 1

    def place(c: Card) -> int:
        return 1 if c.rank == ACE and low == 1 else c.rank

    ordered = tuple(sorted(hand[:length], key=place, reverse=True))
    ace_of_spades: bool | None = None
    if length == 6:
        # Six consecutive ranks without an ace count at least 2+3+4+5+6+7 = 27: the
        # only six-card straight that is not bust is A-2-3-4-5-6 (21), so the ace is
        # the last card of ``ordered`` (§ 633a.13(m)(1) names its suit).
        ace_of_spades = ordered[-1].suit == "s"
    return StraightJackRun(length, ordered, tuple(place(c) for c in ordered), ace_of_spades)


def _two_card_ends(a: int, b: int) -> tuple[int, int] | None:
    """The low and high place of a two-card straight of ranks ``a`` and ``b``, or None."""
    for x in straight_ranks(a):
        for y in straight_ranks(b):
            if abs(x - y) == 1:
                return min(x, y), max(x, y)
    return None


def straight_jack_value(cards: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    """The Straight Jack value, ordered as the paytable of § 633a.13(m)(1).

    All straights of one length are equal (they pay alike); the six-card straight
    with the ace of spades is above the one with another ace. ``words``:
    ``"three-card straight, six-five-four"``, ``"no two-card straight"``.
    """
    run = straight_jack_run(cards)
    if run.length == 0:
        return HandValue("straight-jack", (0,), NO_STRAIGHT, NO_STRAIGHT, ())
    words = f"{run.category}, {rank_run(run.places)}"
    return HandValue("straight-jack", (run.paytable_index,), run.category, words, run.cards)


STRAIGHT_JACK: Final = Ranking(
    name="straight-jack",
    section="§ 633a.7(o)(3), § 633a.13(m)",
    summary="Straight Jack: the straight from the initial two cards and each drawn card that keeps the "
    "sequence, in the order dealt; two-card < ... < six-card (ace of spades on top)",
    hand_sizes=tuple(range(2, MAX_HAND_CARDS + 1)),
    evaluate_unchecked=straight_jack_value,
    decks=DECKS,
)

RANKINGS: Final = (BLACKJACK, STRAIGHT_JACK, HOUSE_MONEY)
