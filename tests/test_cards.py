"""Cards: parsing, printing, decks and the duplicate check."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.core.cards import (
    JOKER,
    CardError,
    card,
    card_from_index,
    deck_with_joker,
    format_cards,
    parse_card,
    parse_cards,
    shoe,
    standard_deck,
)


def test_parse_and_print_round_trip() -> None:
    cards = parse_cards("As Td 2c")
    assert [(c.rank, c.suit) for c in cards] == [(14, "s"), (10, "d"), (2, "c")]
    assert format_cards(cards) == "As Td 2c"
    assert parse_cards("AsTd2c") == cards
    assert parse_cards("as, TD 2C") == cards


def test_joker() -> None:
    (j,) = parse_cards("JKR")
    assert j is JOKER and j.is_joker and str(j) == "JKR" and j.words == "joker"
    assert parse_cards("AsJKRkd")[1] is JOKER


def test_words() -> None:
    assert parse_card("Qh").words == "queen of hearts"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As Xd", "card 2: 'Xd'"),
        ("AsKd1c", "card 3: '1c'"),
        ("10s", "card 1: '10'"),
        ("As Kd Zz Qh", "card 3: 'Zz'"),
        ("As As", "As appears 2 times, but one deck holds it once"),
        ("", None),
    ],
)
def test_bad_cards_are_named(text: str, expected: str | None) -> None:
    if expected is None:
        assert parse_cards(text) == ()
        return
    with pytest.raises(CardError) as err:
        parse_cards(text)
    assert expected in str(err.value)


def test_duplicates_allowed_up_to_the_number_of_decks() -> None:
    assert len(parse_cards("7h 7h", decks=6)) == 2
    with pytest.raises(CardError, match="appears 3 times, but 2 decks hold it 2 times"):
        parse_cards("7h 7h 7h", decks=2)


def test_joker_refused_where_the_game_has_none() -> None:
    with pytest.raises(CardError, match="joker"):
        parse_cards("As JKR", allow_joker=False)


def test_count() -> None:
    with pytest.raises(CardError, match="2 cards given, 5 needed"):
        parse_cards("As Kd", count=5)


def test_decks() -> None:
    deck = standard_deck()
    assert len(deck) == 52 == len(set(deck))
    assert {c.suit for c in deck} == set("cdhs") and {c.rank for c in deck} == set(range(2, 15))
    assert deck_with_joker() == (*deck, JOKER)
    assert len(shoe(6)) == 312 and len(set(shoe(6))) == 52
    assert [c.index for c in deck_with_joker()] == list(range(53))


def test_card_constructor_checks() -> None:
    assert card(14, "s") is parse_card("As")
    with pytest.raises(CardError):
        card(1, "s")
    with pytest.raises(CardError):
        card(10, "x")
    with pytest.raises(CardError):
        card_from_index(53)


@given(st.lists(st.sampled_from(deck_with_joker()), max_size=12, unique=True))
def test_round_trip_any_hand(cards: list) -> None:  # type: ignore[type-arg]
    assert parse_cards(format_cards(cards)) == tuple(cards)
    assert pickle.loads(pickle.dumps(tuple(cards))) == tuple(cards)
