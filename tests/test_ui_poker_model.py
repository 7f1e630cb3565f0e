"""The poker table's view model on the dealer's screen (``ui/poker.py``), without Kivy: read from the
status's ``round.table_view`` as the daemon writes it, the keys it offers, the events they send."""

from __future__ import annotations

from decimal import Decimal
from functools import partial
from typing import Any

import pytest

from ui.console import Console
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
