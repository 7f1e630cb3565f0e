"""A card found face up while the cards are dealt is not used in that round (issue 18, point 7).

§ 639a.13(a) (Caribbean Stud): "A card that is found face up in the shoe or the deck while the
cards are being dealt may not be used in that round of play and shall be placed in the discard
rack"; Three Card Poker follows § 639a.13 (§ 649a.13); Texas Hold 'Em Bonus § 647a.13(a) and Asia
Poker § 659a.13(f) say the same (Fortune Asia Poker deals as Asia Poker). The report names the
card ("detail": "Ah"); that card dealt afterwards is refused with the section.
"""

from __future__ import annotations

from controller.rules.core.cards import parse_cards
from controller.rules.core.engine import Round

from .rounds import cards, irregularity, refused, round_refuses
from .test_asia_poker_game import (
    DEALER_A,
    FORTUNE,
    ROUND_A_HANDS,
    frules,
    irregular,
    round_events,
    state_after,
)
from .test_caribbean_stud import DEALER_AK, IRR_HANDS, IRR_WAGERS, deal_events, irr_rules, round_after
from .test_three_card_poker import GAME as THREE_CARD_POKER
from .test_three_card_poker import TWO_SEATS, rules


def test_caribbean_stud_refuses_the_card_found_face_up_when_it_is_dealt() -> None:
    """Forbids: "Caribbean Stud records that a card was found face up but accepts that card dealt
    to the dealer afterwards and settles with it"."""
    events = deal_events(IRR_WAGERS, IRR_HANDS, DEALER_AK)
    at = next(i for i, e in enumerate(events) if e.type == "cards" and e.to == "dealer")
    first = str(parse_cards(DEALER_AK)[0])
    rnd = round_after(irr_rules(), [*events[:at], irregularity("card_face_up", detail=first)])
    assert [str(c) for c in rnd.state.face_up] == [first]
    round_refuses(rnd, events[at], rf"{first} to the dealer: it was found face up .*\(§ 639a\.13\(a\)\)")
    # Not used: the dealer's hand comes with another card in its place, and the round settles.
    other = cards("dealer", DEALER_AK.replace(first, "2d"))
    rnd.apply(other)
    assert not rnd.state.void


def test_caribbean_stud_a_report_in_words_names_no_card() -> None:
    events = deal_events(IRR_WAGERS, IRR_HANDS, DEALER_AK)
    rnd = round_after(irr_rules(), [*events[:5], irregularity("card_face_up", detail="one card, face up")])
    assert rnd.state.faced_up == 1 and rnd.state.face_up == ()


def test_three_card_poker_refuses_the_card_found_face_up_when_it_is_dealt() -> None:
    """§ 649a.13 as § 639a.13(a): "Three Card Poker looks the same" (issue 18)."""
    rnd = Round.begin(THREE_CARD_POKER, rules(), {})
    for e in [*TWO_SEATS, cards(2, "As 7h 3d"), irregularity("card_face_up", detail="Kc")]:
        rnd.apply(e)
    round_refuses(
        rnd, cards(5, "Kc 9c 2s"), r"Kc to seat 5: it was found face up .*§ 649a\.13, as § 639a\.13\(a\)"
    )
    rnd.apply(cards(5, "Kd 9c 2s"))
    assert not rnd.state.void and [str(c) for c in rnd.state.face_up] == ["Kc"]


def test_fortune_asia_poker_refuses_the_card_found_face_up_when_it_is_dealt() -> None:
    """§ 659a.13(f) at Fortune Asia Poker too (its deal is Asia Poker's): the card found face up
    "shall not be used in that round of play"; dealt afterwards, it is refused with the section."""
    state = state_after(
        FORTUNE, frules(), round_events({2: {"fortune_asia_poker": "25.00"}}, {"dealer": DEALER_A})
    )
    state = FORTUNE.apply(state, irregular("card_face_up", detail="2c"))
    assert state.void is None and [str(c) for c in state.discarded] == ["2c"]
    refused(
        FORTUNE, state, cards(2, "2c 3c 8c 7c 6c Jc Qs"), r"found face up and is not used \(§ 659a\.13\(f\)\)"
    )
    state = FORTUNE.apply(state, cards(2, ROUND_A_HANDS["2"]))
    assert state.void is None
