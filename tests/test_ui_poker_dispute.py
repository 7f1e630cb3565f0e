"""A disputed pot at the poker table's showdown, by touch (Kivy's ``UnitTestTouch``) against a real daemon
on the bench rig without a card reader, under the conftest's Xvfb at 800x480 and 1024x600. The round is
brought to the showdown through the API (Omaha High, as tests/test_daemon_poker_floor.py: every betting
round checked after the blinds, 6.00 in the pot, seat 1 shows Ah Qh 7c 6d 4s); then by touch: DISPUTE,
what is disputed (HAND SHOWN), the round waits for a floorperson, who signs in from the list with his
PIN and rules seat 1's hand dead, or dismisses. The settlement is the daemon's: seat 2's three kings take
the pot, +4.00. The screen never rules for him: before he signs, the round still waits.
"""

from __future__ import annotations

from typing import Any

import pytest

from sim.screen_display import Screen, running_app
from sim.screen_rig import FLOOR_USER, until
from ui.console import Console

from .test_ui_poker import SIZES, check_drawn
from .test_ui_poker_keyed import dealt, poker_without_reader
from .test_ui_widgets import tap_pin


async def to_the_showdown(console: Console) -> None:
    """Button 3, the blinds; every betting round checked; board Kc 8d 3s 9h 2c; seat 1 shows."""
    client = console.connection.client
    assert client is not None
    await dealt(console)
    for cards in ("Kc 8d 3s", "9h", "2c"):
        await client.submit_event({"type": "deal", "to": "burn", "value": 1})
        await client.submit_event({"type": "cards", "to": "board", "cards": cards})
        for seat in (1, 2, 3):
            await client.submit_event({"type": "decision", "seat": seat, "action": "check"})
    await client.submit_event({"type": "cards", "to": "1", "cards": "Ah Qh 7c 6d 4s"})


async def disputed_by_touch(screen: Screen, console: Console) -> None:
    """DISPUTE at the showdown, in view; HAND SHOWN; the round waits for a floorperson."""
    await until(lambda: console.poker is not None and console.poker.to_show == (2, 3), "seat 1 shown")
    await until(lambda: screen.keys("poker:dispute") != [], "the DISPUTE key")
    await check_drawn(screen)
    await screen.tap("poker:dispute")
    await until(lambda: screen.keys("dispute:hand_shown") != [], "what is disputed")
    await check_drawn(screen)
    await screen.tap("dispute:hand_shown")
    await until(lambda: console.table.floor_to_confirm == "disputed_pot", "the floorperson called")
    await until(lambda: screen.keys("dispute:dismiss") != [], "the floorperson's keys")
    await check_drawn(screen)
    assert [k.text for k in screen.keys("dispute:dead")] == ["RULE S? DEAD (PIN)"]
    waiting = console.table.round["waiting"] if console.table.round else []
    assert waiting and waiting[0]["who"] == "floorperson", waiting


async def the_rest_of_the_showdown(rig: Any, console: Console, round_id: str) -> dict[str, str]:
    """Seat 2 shows three kings, seat 3 mucks; each seat's net of the round, from the daemon."""
    client = console.connection.client
    assert client is not None
    await until(lambda: console.table.floor_to_confirm == "", "the floorperson's decision")
    await client.submit_event({"type": "cards", "to": "2", "cards": "Ks Kd 5c 5h Jd"})
    await client.submit_event({"type": "decision", "seat": 3, "action": "fold"})
    await until(lambda: console.table.round_id != round_id, "the next round")
    recalled = await rig.daemon.journal.recall(round_id)
    assert recalled.consistent and recalled.replayed is not None
    seats = recalled.replayed.to_json()["seats"]
    return {seat: pots["main_pot"]["net"] for seat, pots in seats.items()}


@pytest.mark.asyncio
@pytest.mark.parametrize("size", SIZES)
async def test_a_disputed_pot_a_hand_ruled_dead_by_touch(display: str, size: tuple[int, int]) -> None:
    """The floorperson rules seat 1's hand dead (six cards, say): his ruling's words from the keys, his
    PIN signs it; seat 2 takes the pot of 6.00 (+4.00), seats 1 and 3 lose 2.00 each."""
    async with running_app(*size) as screen, poker_without_reader("omaha-high") as (rig, console):
        await screen.show(console)
        await to_the_showdown(console)
        round_id = console.table.round_id
        await disputed_by_touch(screen, console)
        # The dealer cannot go on, nor report again: the daemon's refusal on the message line.
        assert not await console.report_dispute("pot_awarded")
        assert not console.message_ok and "floorperson" in console.message, console.message
        await screen.tap("dispute:dead")  # no seat chosen: nothing opened
        assert not console.pin.open and "choose the seat" in console.message, console.message
        await screen.tap("poker:seat:1")
        await until(lambda: screen.keys("dispute:dead")[0].text == "RULE S1 DEAD (PIN)", "seat 1 chosen")
        await check_drawn(screen)
        await screen.tap("dispute:dead")
        await until(lambda: console.pin.open, "the PIN pad")
        assert console.pin.purpose is not None and "seat 1's hand is dead" in console.pin.purpose.title
        assert console.table.floor_to_confirm == "disputed_pot"  # nothing ruled before he signs
        await tap_pin(screen, console)
        nets = await the_rest_of_the_showdown(rig, console, round_id)
        assert nets == {"1": "-2.00", "2": "+4.00", "3": "-2.00"}, nets
        assert console.connection.client is not None
        rounds = (await console.connection.client.list_rounds(3))["rounds"]
        summary = next(r for r in rounds if r["round"] == round_id)
        assert "seat 1's hand is dead" in summary["settlement"]["dealer"]
        recalled = await rig.daemon.journal.recall(round_id)
        ruled = [r for r in recalled.records if r.kind == "event" and r.body.get("kind") == "disputed_pot"]
        assert [r.actor for r in ruled] == [FLOOR_USER]


@pytest.mark.asyncio
@pytest.mark.parametrize("size", SIZES)
async def test_a_disputed_pot_dismissed_by_touch(display: str, size: tuple[int, int]) -> None:
    """BACK first (nothing reported), then the dispute; the floorperson dismisses it with his PIN: the
    showdown goes on as it was, seat 2's three kings +4.00."""
    async with running_app(*size) as screen, poker_without_reader("omaha-high") as (rig, console):
        await screen.show(console)
        await to_the_showdown(console)
        round_id = console.table.round_id
        await until(lambda: screen.keys("poker:dispute") != [], "the DISPUTE key")
        await screen.tap("poker:dispute")
        await until(lambda: screen.keys("dispute:back") != [], "BACK")
        await screen.tap("dispute:back")
        await until(lambda: screen.keys("poker:dispute") != [], "the showdown again")
        assert console.table.floor_to_confirm == ""
        await disputed_by_touch(screen, console)
        await screen.tap("dispute:dismiss")
        await tap_pin(screen, console)
        nets = await the_rest_of_the_showdown(rig, console, round_id)
        assert nets["2"] == "+4.00", nets
        recalled = await rig.daemon.journal.recall(round_id)
        dismissed = [r for r in recalled.records if r.kind == "irregularity_dismissed"]
        assert [r.actor for r in dismissed] == [FLOOR_USER]
