"""Blackjack hand values and side-wager hands, 58 Pa. Code ch. 633a: definitions, examples, references."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.core.cards import JOKER, Card, CardError, card, parse_card, parse_cards, shoe
from controller.rules.core.hand import HandValue
from controller.rules.rankings.blackjack import (
    ACE_KING_SUITED,
    ANY_20,
    BLACKJACK,
    HOUSE_MONEY,
    MAX_HAND_CARDS,
    PAIR,
    RANKINGS,
    STRAIGHT_JACK,
    TRIPLE_MATCH,
    TWO_CARD_STRAIGHT,
    TWO_CARD_STRAIGHT_FLUSH,
    blackjack_value,
    dealer_must_hit,
    hand_total,
    hard_total,
    hit_and_run_hand,
    house_money_hand,
    house_money_odds,
    is_ace_king_suited,
    is_any_20,
    is_blackjack,
    is_bust,
    is_pair,
    is_triple_match,
    is_two_card_straight,
    is_two_card_straight_flush,
    side_wager_hands,
    straight_jack_run,
)

from .known_answers import REGULATIONS

SHOE8 = shoe(8)
TEXT_FILE = "43-PaB-834_blackjack-poker-three-card-asia-poker-three-dice-football.txt"


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text, decks=8)


def regulation_text() -> str:
    return re.sub(r"\s+", " ", (REGULATIONS / TEXT_FILE).read_text())


# --- an independent reference: every ace 1 or 11 -----------------------------------------------------


def reference_total(hand: Sequence[Card]) -> tuple[int, bool]:
    """Best total by trying every 1/11 assignment of the aces; soft if it needs an ace at 11."""
    fixed = 0
    aces = 0
    for c in hand:
        if c.rank == 14:
            aces += 1
        elif c.rank >= 10:
            fixed += 10
        else:
            fixed += c.rank
    totals = {fixed + sum(choice) for choice in itertools.product((1, 11), repeat=aces)}
    all_ones = fixed + aces
    good = [t for t in totals if t <= 21]
    if good:
        best = max(good)
        return best, best != all_ones
    return min(totals), False


def hand_of_ranks(ranks: Sequence[int]) -> tuple[Card, ...]:
    """Cards of ``ranks``, suits cycling so that any rank multiset fits an 8-deck shoe."""
    return tuple(card(r, "cdhs"[i % 4]) for i, r in enumerate(ranks))


ALL_RANKS = range(2, 15)


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
def test_totals_of_every_rank_multiset_against_brute_force(size: int) -> None:
    """Every multiset of up to five ranks: total and soft/hard as the 1-or-11 enumeration says."""
    for ranks in itertools.combinations_with_replacement(ALL_RANKS, size):
        hand = hand_of_ranks(ranks)
        want_total, want_soft = reference_total(hand)
        assert hand_total(hand) == (want_total, want_soft), hand
        assert hard_total(hand) == sum(1 if r == 14 else min(r, 10) for r in ranks)
        assert is_bust(hand) == (want_total > 21)
        if size < 2:
            continue
        # A hand stops at the card that busts it: deal the highest count last, and a hand still
        # over 21 without that card cannot be dealt at all.
        dealt = tuple(sorted(hand, key=lambda c: 1 if c.rank == 14 else min(c.rank, 10)))
        if reference_total(dealt[:-1])[0] > 21:
            with pytest.raises(CardError, match="over 21"):
                BLACKJACK.evaluate(dealt)
            continue
        v = BLACKJACK.evaluate(dealt)
        natural = size == 2 and 14 in ranks and any(10 <= r <= 13 for r in ranks)
        if natural:
            assert (v.key, v.words, v.category) == ((22,), "blackjack", "Blackjack")
        elif want_total > 21:
            assert (v.key, v.words, v.category) == ((0,), f"bust ({want_total})", "bust")
        else:
            kind = "soft" if want_soft else "hard"
            assert (v.key, v.words, v.category) == ((want_total,), f"{kind} {want_total}", f"{kind} total")
        # The dealer's rule: draw to 16, stand on 17; soft 17 as the Rules Submission says.
        if natural or want_total > 21:
            expect = (False, False)
        else:
            expect = (want_total <= 16, want_total <= 16 or (want_total == 17 and want_soft))
        assert (dealer_must_hit(hand, False), dealer_must_hit(hand, True)) == expect, hand


# --- § 633a.1 Blackjack, § 633a.3(e) point count --------------------------------------------------


@pytest.mark.parametrize("ten", ["T", "J", "Q", "K"])
def test_blackjack_is_an_ace_and_any_ten_count_card(ten: str) -> None:
    """§ 633a.1: "Blackjack—An ace and any card having a value of 10 dealt as the initial two cards"."""
    for text in (f"As {ten}d", f"{ten}d As"):
        hand = cards(text)
        assert is_blackjack(hand)
        assert str(BLACKJACK.evaluate(hand)) == "blackjack"
        assert not is_blackjack(hand, after_split=True)
        assert blackjack_value(hand, after_split=True).words == "soft 21"
    assert not is_blackjack(cards("As 9d"))
    assert not is_blackjack(cards("As 5d 5c"))  # 21 of three cards


def test_words_of_the_brief() -> None:
    assert str(BLACKJACK.evaluate(cards("As 6d"))) == "soft 17"
    assert str(BLACKJACK.evaluate(cards("Ks Qd"))) == "hard 20"
    assert str(BLACKJACK.evaluate(cards("Ks 4d Th"))) == "bust (24)"
    assert str(BLACKJACK.evaluate(cards("As As"))) == "soft 12"
    assert str(BLACKJACK.evaluate(cards("As 6d Kh"))) == "hard 17"
    assert str(BLACKJACK.evaluate(cards("2s 2d"))) == "hard 4"


def test_order_bust_4_to_21_blackjack() -> None:
    ladder = ["Ks 4d Th", "2s 2d", "2s 3d", *[f"Ts {r}d" for r in "23456789"], "Ts Jd", "As Kd Th", "As Kd"]
    values = [BLACKJACK.evaluate(cards(t)) for t in ladder]
    assert [v.words for v in values][:3] == ["bust (24)", "hard 4", "hard 5"]
    assert all(a < b for a, b in itertools.pairwise(values))
    assert BLACKJACK.evaluate(cards("Ks Qd Jh")) == BLACKJACK.evaluate(cards("9s 9d 9h"))  # bust = bust
    assert BLACKJACK.evaluate(cards("As 6d")) == BLACKJACK.evaluate(cards("Ts 7d"))  # soft 17 = hard 17
    assert BLACKJACK.evaluate(cards("5s 6d Th")) < BLACKJACK.evaluate(cards("As Td"))  # 21 < Blackjack


def test_rankings_refuse_bad_hands() -> None:
    assert {r.name for r in RANKINGS} == {"blackjack", "straight-jack", "house-money"}
    with pytest.raises(CardError, match=r"1 cards given .*, 2 to 22 needed"):
        BLACKJACK.evaluate(cards("As"))
    with pytest.raises(CardError, match="joker"):
        BLACKJACK.evaluate((parse_card("As"), JOKER))
    with pytest.raises(CardError, match="8 decks"):
        BLACKJACK.evaluate(tuple(parse_card("2s") for _ in range(9)))
    with pytest.raises(CardError, match="over 21 at card 3"):
        BLACKJACK.evaluate(cards("Ks 4d Th 2c"))
    with pytest.raises(CardError):
        HOUSE_MONEY.evaluate(cards("As Ks Qs"))
    # 21 aces are 21; the 22nd card busts the hand: the longest hand there can be.
    aces = tuple(card(14, "cdhs"[i % 4]) for i in range(21))
    assert BLACKJACK.evaluate(aces).words == "hard 21"
    assert BLACKJACK.evaluate((*aces, parse_card("2c"))).words == "bust (23)"
    assert MAX_HAND_CARDS == 22


# --- § 633a.1 side-wager hands ---------------------------------------------------------------------


def test_side_wager_definitions() -> None:
    """§ 633a.1: Ace-king suited, Any 20, Triple Match, Two-card straight (flush), Pair."""
    # "Ace-king suited—An ace and a king of the same suit."
    assert is_ace_king_suited(cards("As Ks")) and is_ace_king_suited(cards("Kh Ah"))
    assert not is_ace_king_suited(cards("As Kd")) and not is_ace_king_suited(cards("As Qs"))
    # "Any 20—Two cards of different suits with a total point count of 20."
    assert is_any_20(cards("Ks Qd")) and is_any_20(cards("Ts Jh")) and is_any_20(cards("As 9d"))
    assert not is_any_20(cards("Ks Qs")) and not is_any_20(cards("Ks Ks")) and not is_any_20(cards("As Kd"))
    # "Triple Match—The player's initial two cards and the dealer's up card which are all the same rank."
    assert is_triple_match(cards("7s 7d"), parse_card("7h"))
    assert not is_triple_match(cards("Ks Kd"), parse_card("Th"))  # same value, not same rank
    assert not is_triple_match(cards("7s 7d"), parse_card("8h"))
    # "Two-card straight—Two cards in consecutive rank regardless of suit."
    for text in ("4s 5d", "9c Th", "Tc Jh", "Qc Kh", "Kc Ah", "Ac 2h", "2c Ah"):
        assert is_two_card_straight(cards(text)), text
    for text in ("4s 6d", "Kc 2h", "Ac Qh", "5s 5d", "Ts Kd"):
        assert not is_two_card_straight(cards(text)), text
    # "Two-card straight flush—Two cards in consecutive rank of the same suit."
    assert is_two_card_straight_flush(cards("4s 5s")) and not is_two_card_straight_flush(cards("4s 5d"))
    assert is_two_card_straight_flush(cards("Ah 2h")) and is_two_card_straight_flush(cards("Ah Kh"))
    # "Pair—Two cards of the same rank."
    assert is_pair(cards("8s 8d")) and is_pair(cards("Ks Ks")) and not is_pair(cards("Ts Kd"))


def test_side_wager_hands_lists_every_hand_made() -> None:
    assert side_wager_hands(cards("As Ks")) == (ACE_KING_SUITED, TWO_CARD_STRAIGHT_FLUSH, TWO_CARD_STRAIGHT)
    assert side_wager_hands(cards("As Kd")) == (TWO_CARD_STRAIGHT,)
    assert side_wager_hands(cards("Ts Td"), parse_card("Th")) == (PAIR, ANY_20, TRIPLE_MATCH)
    assert side_wager_hands(cards("Ts Td")) == (PAIR, ANY_20)
    assert side_wager_hands(cards("9s Jd")) == ()


def test_ace_king_straight_is_in_the_text() -> None:
    """§ 633a.7(o)(3)(i): "provided that an ace, king shall be a two-card straight"; § 633a.13(m)(1)
    pays a "Six-card straight with an ace", which without busting can only be A-2-3-4-5-6."""
    text = regulation_text()
    assert "provided that an ace, king shall be a two-card straight" in text
    assert "Six-card straight with an ace of spades 100% of meter" in text
    assert "Six-card straight with an ace of diamonds, clubs or hearts 10% of meter" in text
    sixes = [r for r in range(1, 10) if sum(min(x, 10) for x in range(r, r + 6)) <= 21]
    assert sixes == [1]  # only ace(1)-2-3-4-5-6 is a six-card straight of 21 or less


# --- House Money, § 633a.13(n) ------------------------------------------------------------------------


def test_house_money_paytable_order() -> None:
    """§ 633a.13(n): (1) single deck "Ace-king suited 9 to 1 Two-card straight flush 5 to 1 Pair 3 to 1
    Two-card straight 1 to 1"; (2) multiple decks the same with "Two-card straight flush 4 to 1"."""
    table = [("As Ks", 9, 9), ("5h 6h", 5, 4), ("Qc Qd", 3, 3), ("Ad 2c", 1, 1)]
    values = []
    for text, single, multi in table:
        hand = cards(text)
        name = house_money_hand(hand)
        assert name is not None
        assert house_money_odds(name, single_deck=True) == single
        assert house_money_odds(name, single_deck=False) == multi
        values.append(HOUSE_MONEY.evaluate(hand))
    assert [v.category for v in values] == [ACE_KING_SUITED, TWO_CARD_STRAIGHT_FLUSH, PAIR, TWO_CARD_STRAIGHT]
    assert all(a > b for a, b in itertools.pairwise(values))
    lose = HOUSE_MONEY.evaluate(cards("As 9d"))
    assert lose.category == "no House Money hand" and lose < values[-1]
    assert house_money_hand(cards("Ks As")) == ACE_KING_SUITED  # paid once, on the top line
    assert house_money_hand(cards("Ks Ad")) == TWO_CARD_STRAIGHT
    assert HOUSE_MONEY.evaluate(cards("7c 7c")).words == "pair of sevens"
    assert HOUSE_MONEY.evaluate(cards("Ah 2h")).words == "two-card straight flush, two-ace"
    assert HOUSE_MONEY.evaluate(cards("Ah 2h")).cards == cards("2h Ah")
    assert HOUSE_MONEY.evaluate(cards("Ah Kc")).cards == cards("Ah Kc")
    with pytest.raises(KeyError):
        house_money_odds(ANY_20, single_deck=True)


# --- Hit and Run, § 633a.6(e)(10), § 633a.7(o)(2)(i) ----------------------------------------------------


def test_hit_and_run_example_busting_sixth_card_counts() -> None:
    """§ 633a.7(o)(2)(i): "if the dealer's hand has a total point count of 14 with five cards drawn and
    the dealer draws an additional card resulting in a total point count of 23, the dealer's sixth card
    shall also count toward the Hit and Run Progressive payout"."""
    hand = cards("2s 3d 2c 3h 4s 9d")
    assert hand_total(hand[:5]) == (14, False)
    h = hit_and_run_hand(hand)
    assert (h.card_count, h.total, h.bust, h.wins) == (6, 23, True, True)
    assert str(h) == "dealer six-card hand, bust (23)"


def test_hit_and_run_blackjack_or_five_cards() -> None:
    """§ 633a.6(e)(10): "the dealer will have Blackjack or a hand containing five or more cards"."""
    bj = hit_and_run_hand(cards("Ad Qs"))
    assert bj.blackjack and bj.wins and bj.words == "dealer Blackjack"
    five = hit_and_run_hand(cards("2s 3d As 4c 7h"))
    assert (five.card_count, five.total, five.wins) == (5, 17, True)
    four = hit_and_run_hand(cards("2s 3d 4c 8h"))
    assert not four.wins and str(four) == "dealer four-card hand, 17"
    busted_four = hit_and_run_hand(cards("Ts 2d 4c Kh"))
    assert not busted_four.wins and busted_four.bust
    assert not hit_and_run_hand(cards("5s 6d Th")).blackjack  # 21, not a Blackjack
    with pytest.raises(CardError, match=r"633a\.7\(h\)"):
        hit_and_run_hand(cards("As Kd 2c"))  # (h): no card after a dealer Blackjack
    with pytest.raises(CardError, match="over 21"):
        hit_and_run_hand(cards("Ts 6d 9c 2h 2s"))
    with pytest.raises(CardError):
        hit_and_run_hand(cards("Ts"))


def test_dealer_must_hit_soft_17() -> None:
    assert dealer_must_hit(cards("As 6d"), True) and not dealer_must_hit(cards("As 6d"), False)
    assert dealer_must_hit(cards("As As 5d"), True)  # soft 17 of three cards
    assert not dealer_must_hit(cards("As 6d Kh"), True)  # hard 17
    assert not dealer_must_hit(cards("Ts 7d"), True)
    assert dealer_must_hit(cards("Ts 6d"), False)
    assert not dealer_must_hit(cards("As 7d"), True)  # soft 18
    assert not dealer_must_hit(cards("As Kd"), True)
    with pytest.raises(CardError):
        dealer_must_hit(cards("Ts"), True)


# --- Straight Jack, § 633a.7(o)(3), § 633a.13(m) --------------------------------------------------------


def sj(text: str) -> HandValue:
    return STRAIGHT_JACK.evaluate(cards(text))


def test_example_a_six_makes_a_three_card_straight() -> None:
    """§ 633a.7(o)(3)(i): "if the player's initial two cards are a 4 and a 5 and the player draws:
    (A) A 6, the player has a three-card straight."""
    v = sj("4s 5d 6c")
    assert v.category == "three-card straight" and v.words == "three-card straight, six-five-four"


def test_example_b_either_end_extends() -> None:
    """(B) "A 3 then a 6, the player has a four-card straight." """
    v = sj("4s 5d 3c 6h")
    assert v.category == "four-card straight"
    assert straight_jack_run(cards("4s 5d 3c 6h")).places == (6, 5, 4, 3)


def test_example_c_a_break_ends_the_count() -> None:
    """(C) "A 2 then a 3, the 2 breaks the sequence and the player has a two-card straight." """
    v = sj("4s 5d 2c 3h")
    assert v.category == "two-card straight"
    assert v.cards == cards("5d 4s")


def test_example_d_the_busting_card_does_not_count() -> None:
    """(D) "A 6 then a 7, resulting in a hand with a total point count greater than 21, the last card drawn
    may not count toward the Straight Jack Progressive Payout. The player will receive a payout for only a
    three-card straight." """
    hand = cards("4s 5d 6c 7h")
    assert is_bust(hand)
    assert sj("4s 5d 6c 7h").category == "three-card straight"
    assert straight_jack_run(hand).cards == cards("6c 5d 4s")


def test_examples_are_quoted_from_the_text() -> None:
    text = regulation_text()
    for phrase in (
        "if the player's initial two cards are a 4 and a 5 and the player draws:",
        "(A) A 6, the player has a three-card straight.",
        "(B) A 3 then a 6, the player has a four-card straight.",
        "(C) A 2 then a 3, the 2 breaks the sequence and the player has a two-card straight.",
        "(D) A 6 then a 7, resulting in a hand with a total point count greater than 21",
        "The player will receive a payout for only a three-card straight.",
    ):
        assert phrase in text, phrase


def test_straight_jack_aces() -> None:
    """The ace next to the king and next to the 2, never both; the six-card straight's ace by suit."""
    assert sj("Ks Ad").category == "two-card straight"
    assert sj("Ad 2c").category == "two-card straight"
    assert sj("Qs Kd Ac").words == "three-card straight, ace-king-queen"
    assert sj("Ad 2c 3h").words == "three-card straight, three-two-ace"
    assert sj("2d 3c Ah").category == "three-card straight"  # drawn ace at the low end
    assert sj("Ad 2c Kh").category == "two-card straight"  # no K-A-2
    assert sj("Ad Kc 2h").category == "two-card straight"  # no K-A-2
    spade = sj("As 2d 3c 4h 5h 6d")
    other = sj("3c 4h 2d Ah 5h 6d")
    assert spade.category == "six-card straight with an ace of spades"
    assert other.category == "six-card straight with an ace of diamonds, clubs or hearts"
    assert straight_jack_run(cards("As 2d 3c 4h 5h 6d")).ace_of_spades is True
    assert straight_jack_run(cards("3c 4h 2d Ah 5h 6d")).ace_of_spades is False
    assert straight_jack_run(cards("2c 3d 4h 5h 6d")).ace_of_spades is None
    assert spade > other > sj("2c 3d 4h 5h 6d")
    assert sj("Ts Jd").category == "two-card straight"  # consecutive rank, both count 10
    assert sj("Ts Kd").category == "no two-card straight"
    assert sj("9s 9d").category == "no two-card straight"
    assert sj("9s Td 9c").category == "two-card straight"  # a repeated rank breaks the sequence


def test_straight_jack_order_follows_the_paytable() -> None:
    """§ 633a.13(m)(1): six with ace of spades (100% of meter and 200 to 1) > six with another ace (10% of
    meter and 200 to 1) > five (200 to 1) > four (50 to 1) > three (15 to 1) > two (3 to 1)."""
    hands = [
        "As 2d 3c 4h 5h 6d",
        "Ad 2d 3c 4h 5h 6d",
        "2d 3c 4h 5h 6d",
        "2d 3c 4h 5h",
        "2d 3c 4h",
        "2d 3c",
        "2d 4c",
    ]
    values = [sj(h) for h in hands]
    assert all(a > b for a, b in itertools.pairwise(values))
    # straights of one length pay alike, so they are equal
    assert sj("4s 5d 6c") == sj("Qs Kd Ac") == sj("Ad 2c 3h")


def test_straight_jack_refuses_a_card_after_the_bust() -> None:
    with pytest.raises(CardError, match="over 21"):
        sj("4s 5d 6c 7h 8c")


def reference_straight_jack(hand: Sequence[Card]) -> int:
    """Independent reading of § 633a.7(o)(3)(i): the largest k such that for every j <= k the first j
    cards are not over 21 and their ranks are j distinct consecutive places (the ace 1 or 14 throughout).
    Adding a card to a sequence keeps it a sequence only at an end, and a card that breaks it ends
    the count for good since the later prefixes contain it."""

    def consecutive(prefix: Sequence[Card]) -> bool:
        for ace in (1, 14):
            places = sorted(ace if c.rank == 14 else c.rank for c in prefix)
            if places == list(range(places[0], places[0] + len(places))):
                return True
        return False

    best = 0
    for j in range(2, len(hand) + 1):
        prefix = hand[:j]
        if hand_total(prefix)[0] > 21 or not consecutive(prefix):
            break
        best = j
    return best


@pytest.mark.parametrize("size", [2, 3, 4])
def test_straight_jack_every_rank_sequence_against_reference(size: int) -> None:
    for ranks in itertools.product(ALL_RANKS, repeat=size):
        hand = hand_of_ranks(ranks)
        if any(is_bust(hand[:j]) for j in range(1, size)):
            continue  # no card is drawn after a bust
        run = straight_jack_run(hand)
        assert run.length == reference_straight_jack(hand), hand


# --- properties -------------------------------------------------------------------------------------------


def draw_sequences(max_len: int = 8) -> st.SearchStrategy[tuple[Card, ...]]:
    """Hands as dealt from an 8-deck shoe, cut after the card that busts them."""

    def cut(seq: list[int]) -> tuple[Card, ...]:
        hand = [SHOE8[i] for i in seq]
        out: list[Card] = []
        for c in hand:
            out.append(c)
            if is_bust(out):
                break
        return tuple(out)

    return st.lists(st.integers(0, len(SHOE8) - 1), min_size=2, max_size=max_len, unique=True).map(cut)


def draw_sequences_min2() -> st.SearchStrategy[tuple[Card, ...]]:
    return draw_sequences().filter(lambda h: len(h) >= 2)


SUIT_PERMS = list(itertools.permutations("cdhs"))


def permute_suits(hand: Sequence[Card], perm: Sequence[str]) -> tuple[Card, ...]:
    mapping = dict(zip("cdhs", perm, strict=True))
    return tuple(card(c.rank, mapping[c.suit]) for c in hand)


@settings(max_examples=300, deadline=None)
@given(draw_sequences_min2(), draw_sequences_min2(), draw_sequences_min2())
def test_orders_are_total(a: tuple[Card, ...], b: tuple[Card, ...], c: tuple[Card, ...]) -> None:
    for ranking in (BLACKJACK, STRAIGHT_JACK):
        x, y, z = (ranking.evaluate(h) for h in (a, b, c))
        assert (x < y) + (x == y) + (x > y) == 1
        assert (x <= y and y <= x) == (x == y)
        if x <= y and y <= z:
            assert x <= z
    x, y, z = (HOUSE_MONEY.evaluate(h[:2]) for h in (a, b, c))
    assert (x < y) + (x == y) + (x > y) == 1
    if x <= y and y <= z:
        assert x <= z


@settings(max_examples=300, deadline=None)
@given(draw_sequences_min2(), st.sampled_from(SUIT_PERMS))
def test_suits_never_change_a_blackjack_total(hand: tuple[Card, ...], perm: Sequence[str]) -> None:
    other = permute_suits(hand, perm)
    v, w = BLACKJACK.evaluate(hand), BLACKJACK.evaluate(other)
    assert (v.key, v.words) == (w.key, w.words)
    assert hand_total(hand) == hand_total(other)
    assert is_blackjack(hand) == is_blackjack(other)
    # Straight Jack: suits matter only for the ace of the six-card straight.
    s, t = straight_jack_run(hand), straight_jack_run(other)
    assert s.length == t.length


@settings(max_examples=300, deadline=None)
@given(draw_sequences(), st.sampled_from(SHOE8))
def test_adding_a_card_never_lowers_the_hard_total(hand: tuple[Card, ...], extra: Card) -> None:
    assert hard_total((*hand, extra)) > hard_total(hand)
    assert hard_total((*hand, extra)) >= hand_total(hand)[0] - 10
    total, soft = hand_total(hand)
    assert total == hard_total(hand) + (10 if soft else 0)


@settings(max_examples=400, deadline=None)
@given(draw_sequences(10))
def test_straight_jack_counts_no_more_than_the_cards_and_nothing_after_a_bust(
    hand: tuple[Card, ...],
) -> None:
    run = straight_jack_run(hand)
    assert run.length <= len(hand)
    assert run.length == len(run.cards) == len(run.places)
    assert sorted(run.cards, key=lambda c: c.index) == sorted(hand[: run.length], key=lambda c: c.index)
    if is_bust(hand):
        assert run.length <= len(hand) - 1  # the busting card is the last and never counts
        assert hard_total(hand[: run.length]) <= 21
    assert run.length == reference_straight_jack(hand)
    if run.length:
        assert run.places == tuple(range(run.places[0], run.places[0] - run.length, -1))
