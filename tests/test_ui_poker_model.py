"""The poker table's view model on the dealer's screen (``ui/poker.py``), without Kivy: read from the
status's ``round.table_view`` as the daemon writes it, the keys it offers, the events they send."""

from __future__ import annotations

from decimal import Decimal
from functools import partial
from typing import Any

import pytest

from ui.card_keys import CardPad, CardsWanted, PokerCards, wanted
from ui.console import Console
from ui.faces import faces
from ui.poker import PokerAction, PokerView, action_event, counted_steps, join_event, poker_view, seat_lines

TABLE: dict[str, Any] = {
    "variant": "omaha-high",
    "phase": "betting",
    "button": 4,
    "blinds": [1, 2],
    "straddle": None,
    "kill": None,
    "betting_round": 1,
    "turn": 3,
    "to_call": "2.00",
    "actions": [
        {"action": "fold"},
        {"action": "call", "amount": "2.00"},
        {"action": "raise", "least": "4.00", "most": "7.00"},
    ],
    "seats": [
        {
            "seat": s,
            "stack": "100.00",
            "behind": b,
            "this_round": t,
            "in_pot": t,
            "folded": False,
            "all_in": False,
            "holds": 5,
        }
        for s, b, t in (
            (1, "99.00", "1.00"),
            (2, "98.00", "2.00"),
            (3, "100.00", "0.00"),
            (4, "100.00", "0.00"),
        )
    ],
    "pots": [{"name": "main_pot", "amount": "3.00", "eligible": [1, 2, 3, 4]}],
    "board": "",
    "draw": None,
    "draw_for_button": [],
}


def status(**changes: Any) -> dict[str, Any]:
    return {"round": {"id": "PR-1-1", "table_view": {**TABLE, **changes}}}


def test_the_view_says_whose_turn_and_offers_only_the_daemons_actions() -> None:
    view = poker_view(status())
    assert view is not None
    assert view.headline == "Seat 3 to act · betting round 1 · $2.00 to call"
    assert [a.title() for a in view.keys] == ["FOLD", "CALL $2.00", "RAISE TO $4.00"]
    assert view.marks(4) == "D" and view.marks(1) == "SB" and view.marks(2) == "BB"
    lines = dict(seat_lines(view))
    assert lines["poker:3"].startswith("[b]Seat 3 ◀[/b]") and view.banner == "SEAT 3 TO ACT"
    assert lines["poker:2"] == "[b]Seat 2[/b] BB  $98.00\nbet $2.00 · pot $2.00 · 5 cards"
    assert lines["poker:pots"].endswith("Main pot $3.00")


def test_a_raise_is_to_the_amount_keyed_held_between_the_least_and_the_most() -> None:
    view = poker_view(status())
    assert view is not None
    raise_ = next(a for a in view.keys if a.action == "raise")
    for typed, to in (
        (Decimal(0), "4.00"),
        (Decimal(5), "5.00"),
        (Decimal(3), "4.00"),
        (Decimal(50), "7.00"),
    ):
        words, event = action_event(view, raise_, typed)
        assert words == f"seat 3: raise to ${to}"
        assert event == {"type": "decision", "seat": 3, "action": "raise", "amount": to}, typed
    assert action_event(view, PokerAction("fold"), Decimal(9))[1] == {
        "type": "decision",
        "seat": 3,
        "action": "fold",
    }


def test_in_the_draw_the_screen_offers_stand_pat_to_the_player_drawing() -> None:
    view = poker_view(
        status(phase="drawing", turn=None, actions=[], draw={"draw": 1, "seat": 1, "owed": 0, "drawn": []})
    )
    assert view is not None
    assert view.headline == "Draw 1: seat 1 stands pat or discards"
    assert [a.action for a in view.keys] == ["stand_pat"]
    assert action_event(view, view.keys[0], Decimal(0))[1] == {
        "type": "decision",
        "seat": 1,
        "action": "stand_pat",
    }
    owed = poker_view(
        status(phase="drawing", turn=None, actions=[], draw={"draw": 1, "seat": 1, "owed": 2, "drawn": []})
    )
    assert owed is not None and owed.keys == () and "is owed 2 cards" in owed.headline
    with pytest.raises(ValueError, match="nobody's turn"):
        action_event(owed, PokerAction("stand_pat"), Decimal(0))


def test_another_game_has_no_poker_view_and_a_malformed_one_names_the_field() -> None:
    assert poker_view({"round": {"id": "x", "table_view": {}}}) is None
    assert poker_view({"round": None}) is None
    with pytest.raises(ValueError, match=r"table_view.to_call"):
        poker_view(status(to_call="lots"))
    with pytest.raises(ValueError, match=r"table_view.seats"):
        poker_view(status(seats=["seat 1"]))


@pytest.mark.asyncio
async def test_a_table_without_a_reader_counts_the_burn_and_the_draw_from_the_screens_keys() -> None:
    """The console on a real daemon at a Badugi table without a card reader: every step sent as its key
    sends it: BUTTON AT S3, JOIN with 20 dollars, the Blind Bets due, DEAL 4 EACH, CALL / CALL / CHECK,
    BURN 1, seat 1's DISCARD 2 and DEAL 2 TO S1, STAND PAT for seats 2 and 3; the daemon takes each."""
    from sim.screen_rig import following, until

    from .test_daemon_poker import poker_table, submission

    async with (
        poker_table(submission("badugi")) as table,
        following(table.directory / "run" / "api.sock") as c,
    ):
        await until(lambda: c.poker is not None and c.poker.placing_button, "the button")
        assert await c.poker_send("the button", {"type": "position", "value": 3})
        for seat in (1, 2, 3):
            await until(lambda: c.poker is not None and c.poker.seating, "seating")
            assert await c.poker_send(*join_event(seat, Decimal(20)))
        for _ in range(2):
            await until(
                lambda: c.poker is not None and any(not f.optional for f in c.poker.forced), "a blind"
            )
            view = c.poker
            assert view is not None
            forced = next(f for f in view.forced if not f.optional)
            assert await c.poker_send(forced.title, forced.event())
        await until(lambda: c.poker is not None and c.poker.may_deal, "the deal")
        assert c.table.keying_by_hand is not None  # no reader: the dealer deals face down, counted
        assert await c.poker_send("the deal", {"type": "deal", "value": shown(c).hand_size})
        for seat, action in ((3, "call"), (1, "call"), (2, "check")):
            await until(
                partial(lambda s: c.poker is not None and c.poker.turn == s, seat), f"seat {seat}'s turn"
            )
            assert await c.poker_act(next(a for a in shown(c).keys if a.action == action)), c.message
        await until(lambda: c.poker is not None and c.poker.phase == "burning", "the burn")
        ((name, _, event),) = counted_steps(shown(c))
        assert name == "burn" and await c.poker_send("burn", event)
        await until(lambda: c.poker is not None and c.poker.draw is not None, "the draw")
        steps = {n: e for n, _, e in counted_steps(shown(c))}
        assert list(steps) == ["discard:1", "discard:2", "discard:3", "discard:4"]
        assert await c.poker_send("discard 2", steps["discard:2"])
        await until(lambda: c.poker is not None and (c.poker.draw or {}).get("owed") == 2, "seat 1 owed 2")
        ((name, title, event),) = counted_steps(shown(c))
        assert (name, title) == ("deal:2", "DEAL 2 TO S1") and await c.poker_send(title, event)
        for seat in (2, 3):
            await until(
                partial(lambda s: c.poker is not None and (c.poker.draw or {}).get("seat") == s, seat), "draw"
            )
            assert await c.poker_act(shown(c).keys[0]), c.message
        await until(lambda: c.poker is not None and c.poker.turn == 1, "the second betting round")
        assert c.message_ok


def shown(c: Console) -> PokerView:
    view = c.poker
    assert view is not None
    return view


# --- the card keys (ui/card_keys.py) --------------------------------------------------------------


def keyed(pad: CardPad, *cards: str) -> None:
    for card in cards:
        pad.press(card[0])
        pad.press(card[1])


@pytest.mark.parametrize(("variant", "size"), [("omaha-high", 5), ("triple-draw-2-7", 5), ("badugi", 4)])
def test_a_hand_shown_is_keyed_in_the_variants_size(variant: str, size: int) -> None:
    """At the showdown of a round dealt face down the keypad takes the hand of the first player still to
    show, the variant's size (§ 637a.19(f), § 637a.20(f), § 637a.21(f)): not one card more, and SHOW
    only once all are keyed."""
    view = poker_view(
        status(
            variant=variant,
            phase="showdown",
            turn=None,
            actions=[],
            hand_size=size,
            to_show=[
                {"seat": 2, "may_muck": True},
                {"seat": 3, "may_muck": True},
            ],
        )
    )
    assert view is not None
    pad = CardPad()
    pad.aim(wanted(view))
    assert pad.wanted == CardsWanted("2", size, "S2 SHOWS")
    hand = ("Ac", "2d", "3h", "4s", "5c")[:size]
    keyed(pad, *hand[:-1])
    with pytest.raises(ValueError, match=f"key {size} cards, not {size - 1}"):
        pad.event()
    keyed(pad, hand[-1])
    with pytest.raises(ValueError, match=f"{size} cards keyed; DEL one"):
        pad.press("K")
    assert pad.event() == (
        f"seat 2 shows: {faces(list(hand))}",
        {"type": "cards", "to": "2", "cards": " ".join(hand)},
    )
    # Seat 3 chosen: the keypad starts again for his hand.
    pad.aim(wanted(view, 3))
    assert pad.wanted is not None and pad.wanted.to == "3" and pad.cards == []


def test_a_card_keyed_twice_or_already_face_up_is_refused_before_sending() -> None:
    """Omaha's showdown, the board 3h 4h 6d Jd Qs and seat 1's hand shown: seat 3's hand refuses a card
    keyed twice, a card of the board, a card seat 1 showed; nothing changes; DEL takes back the rank,
    then the last card."""
    view = poker_view(
        status(
            phase="showdown",
            turn=None,
            actions=[],
            hand_size=5,
            board="3h 4h 6d Jd Qs",
            to_show=[{"seat": 3, "may_muck": False}],
            shown=[{"seat": 1, "cards": "Ah 2h Kd Kh 9c"}],
        )
    )
    assert view is not None
    pad = CardPad()
    pad.aim(wanted(view))
    keyed(pad, "Tc")
    for card, why in (
        ("Tc", "10♣ is keyed already"),
        ("Jd", "J♦: on the board"),
        ("Kd", "K♦: seat 1 showed it"),
    ):
        pad.press(card[0])
        with pytest.raises(ValueError, match=why):
            pad.press(card[1])
        assert pad.cards == ["Tc"]
        pad.back()
    assert pad.rank == "" and pad.text == "10♣ ? ? ? ?"
    pad.press("T")
    assert pad.text == "10♣ T? ? ? ?"
    pad.back()
    pad.back()
    assert pad.cards == []
    with pytest.raises(ValueError, match="rank before its suit"):
        pad.press("s")


def test_the_board_is_keyed_three_then_the_fourth_then_the_fifth() -> None:
    """§ 637a.19(h)-(j): three community cards, a fourth, a fifth and final; each its own entry."""
    for board, size, title in (
        ("", 3, "3 COMMUNITY CARDS"),
        ("3h 4h 6d", 1, "4TH COMMUNITY CARD"),
        ("3h 4h 6d Jd", 1, "5TH COMMUNITY CARD"),
    ):
        view = poker_view(status(phase="board", turn=None, actions=[], board=board))
        assert view is not None
        want = wanted(view)
        assert want is not None and (want.to, want.size, want.title) == ("board", size, title)
    pad = CardPad()
    pad.aim(wanted(view))
    with pytest.raises(ValueError, match="on the board"):
        keyed(pad, "6d")
    keyed(pad, "Qs")
    assert pad.event()[1] == {"type": "cards", "to": "board", "cards": "Qs"}
    # Outside the board and the showdown nothing is keyed; the keypad refuses a key.
    assert wanted(poker_view(status()) or view) is None
    pad.aim(None)
    with pytest.raises(ValueError, match="no cards are keyed now"):
        pad.press("A")


def test_at_a_table_with_a_reader_the_discards_are_the_cards_touched() -> None:
    """Triple Draw read by the shoe: the player drawing's hand is in the view; the dealer touches the
    cards he gives up (§ 637a.20(h)), touched again to take back; the event is ``cards`` to ``dealer``
    in the hand's order; at his next turn the choice starts again."""
    draw = {"draw": 1, "seat": 1, "owed": 0, "drawn": [], "hand": "7c 5d 4h Kd Kc"}
    view = poker_view(status(phase="drawing", turn=None, actions=[], draw=draw))
    assert view is not None
    cards = PokerCards()
    cards.aim(view, reader=True)
    assert cards.pad.wanted is None and cards.discards.hand == ("7c", "5d", "4h", "Kd", "Kc")
    with pytest.raises(ValueError, match="touch the cards he discards"):
        cards.discards.event()
    for card in ("Kc", "4h", "Kd", "4h"):
        cards.discards.toggle(card)
    assert cards.discards.event() == (
        "seat 1 discards K♦ K♣",
        {"type": "cards", "to": "dealer", "cards": "Kd Kc"},
    )
    with pytest.raises(ValueError, match="does not hold 2♣"):
        cards.discards.toggle("2c")
    cards.aim(view, reader=True)
    assert cards.discards.chosen == ["Kc", "Kd"]  # the same turn: the choice stays
    later = poker_view(
        status(phase="drawing", turn=None, actions=[], draw={**draw, "seat": 2, "hand": "8c 8d 8h 8s Tc"})
    )
    cards.aim(later, reader=True)
    assert cards.discards.seat == 2 and cards.discards.chosen == []
