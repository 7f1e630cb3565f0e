"""The poker table without a card reader, by touch (Kivy's ``UnitTestTouch``) against a real daemon on the
bench rig with no shoe (``BenchRig(card_reader=False)``), under the conftest's Xvfb at 800x480: one
Omaha High-low round. The dealer deals face down by touch (DEAL 5 EACH, BURN 1: the round counts), keys
the board on the card keypad (three community cards, a fourth, a fifth: § 637a.19(h)-(j)) and at the
showdown each hand shown (§ 637a.19(k)); a card keyed twice, one on the board, one another player showed
are refused on the screen before anything is sent. The pots are awarded as the rules core computes them
from the journaled events (``tablectl recall``'s replay). At every step no text is cut off, every key is
at least 9 mm and in view.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from sim.screen_display import Screen, running_app
from sim.screen_rig import FLOOR_PIN, FLOOR_USER, following, until
from ui.console import Console

from .test_ui_poker import check_drawn, first_round, turn_of


@contextlib.asynccontextmanager
async def poker_without_reader(variant: str) -> AsyncIterator[tuple[Any, Console]]:
    from controller.auth import add_user
    from sim.bench_rig import BenchRig

    async with BenchRig(game="poker-room", variant=variant, card_reader=False) as rig:
        add_user(rig.path / "users.json", FLOOR_USER, "floor", FLOOR_PIN)
        async with following(rig.socket) as console:
            await until(lambda: console.online, "the controller online")
            yield rig, console


async def joined(console: Console) -> None:
    """Button 3, seats 1-3 with 100.00, the blinds 1.00 and 2.00 (through the API)."""
    client = console.connection.client
    assert client is not None
    await client.submit_event({"type": "position", "value": 3})
    for seat in (1, 2, 3):
        await client.submit_event(
            {"type": "decision", "seat": seat, "action": "participate", "amount": "100.00"}
        )
    await client.submit_event({"type": "wager", "seat": 1, "wager": "blind", "amount": "1.00"})
    await client.submit_event({"type": "wager", "seat": 2, "wager": "blind", "amount": "2.00"})


async def dealt(console: Console) -> None:
    """As :func:`joined`, then DEAL 5 EACH and the first betting round (3 calls, 1 calls, 2 checks:
    6.00), all through the API."""
    client = console.connection.client
    assert client is not None
    await joined(console)
    await client.submit_event({"type": "deal", "value": 5})
    for seat, action in ((3, "call"), (1, "call"), (2, "check")):
        await client.submit_event({"type": "decision", "seat": seat, "action": action})


async def key_cards(screen: Screen, cards: str) -> None:
    for card in cards.split():
        await screen.tap(f"pcard:{card[0]}")
        await screen.tap(f"pcard:{card[1]}")


async def refused_on_screen(screen: Screen, console: Console, card: str, why: str) -> None:
    """``card`` keyed is refused with ``why`` on the message line; the keypad keeps what it had."""
    before = list(console.poker_cards.pad.cards)
    await key_cards(screen, card)
    assert not console.message_ok and why in console.message, console.message
    assert console.poker_cards.pad.cards == before
    await screen.tap("pcard:del")  # the rank pressed


async def burn_and_board(screen: Screen, console: Console, cards: str) -> None:
    """BURN 1 by touch (counted), then the board's cards on the keypad and BOARD."""
    await until(lambda: console.poker is not None and console.poker.phase == "burning", "the burn")
    await screen.tap("poker:burn")
    await until(lambda: console.poker_cards.pad.wanted is not None, "the board's keypad")
    await check_drawn(screen)
    await key_cards(screen, cards)
    assert screen.keys("pcard:send")[0].text.startswith("BOARD: ")
    await screen.tap("pcard:send")
    await until(
        lambda: console.poker is not None and console.poker.board.endswith(cards), f"{cards} on the board"
    )


@pytest.mark.asyncio
async def test_an_omaha_round_without_a_reader_keyed_by_touch(display: str) -> None:
    """Omaha High-low at the example's fixed limit, seats 1-3, button 3. DEAL 5 EACH; the first round by
    touch (3 calls, 1 calls, 2 checks: 6.00); BURN 1, the flop 3h 4h 6d keyed; 1 bets 2.00, 2 folds, 3
    calls (10.00); the turn Jd and the river Qs keyed (6d again refused: on the board), checked. At the
    showdown seat 1 shows Ah 2h Kd Kh 9c, seat 3 Tc Ts 4c 5s 9d (Kd refused: seat 1 showed it; Tc keyed
    twice refused). Seat 1 takes both halves (kings up high; the low six-four-three-two-ace, seat 3 has
    none): 10.00, +6.00; seat 3 -4.00, seat 2 -2.00: as the rules core's replay of the journal says."""
    async with running_app(800, 480) as screen, poker_without_reader("omaha-high-low") as (rig, console):
        await screen.show(console)
        await joined(console)
        await until(lambda: console.poker is not None and console.poker.may_deal, "the deal")
        await screen.frames()
        await check_drawn(screen)
        assert screen.keys("poker:deal")[0].text == "DEAL 5 EACH"
        await screen.tap("poker:deal")
        round_id = console.table.round_id
        await first_round(screen, console)
        await burn_and_board(screen, console, "3h 4h 6d")
        await turn_of(screen, console, 1)
        await screen.tap("poker:bet")
        await turn_of(screen, console, 2)
        await screen.tap("poker:fold")
        await turn_of(screen, console, 3)
        await screen.tap("poker:call")
        for card in ("Jd", "Qs"):
            await until(lambda: console.poker is not None and console.poker.phase == "burning", "the burn")
            await screen.tap("poker:burn")
            await until(lambda: console.poker_cards.pad.wanted is not None, "the board's keypad")
            await refused_on_screen(screen, console, "6d", "6♦: on the board")
            await key_cards(screen, card)
            await screen.tap("pcard:send")
            for seat in (1, 3):
                await turn_of(screen, console, seat)
                await screen.tap("poker:check")
        # The showdown: seats 1 and 3 to show or muck; the keypad is aimed at seat 1's hand.
        await until(lambda: console.poker is not None and console.poker.to_show == (1, 3), "the showdown")
        await until(lambda: console.poker_cards.pad.wanted is not None, "the keypad")
        await screen.frames()
        await check_drawn(screen)
        # The seat keyed moves to the next still to show, and back: each a keypad of its own.
        assert screen.keys("show:next")[0].text == "S1 ▸" and screen.keys("poker:muck:1") != []
        await screen.tap("show:next")
        await until(lambda: screen.keys("pcard:send")[0].text == "SHOW S3: ? ? ? ? ?", "seat 3's keypad")
        await screen.tap("show:next")
        await until(lambda: screen.keys("pcard:send")[0].text == "SHOW S1: ? ? ? ? ?", "seat 1's keypad")
        await key_cards(screen, "Ah 2h Kd Kh")
        await refused_on_screen(screen, console, "Kh", "K♥ is keyed already")
        await screen.tap("pcard:send")  # four of five: not sent
        assert "key 5 cards, not 4" in console.message and console.poker is not None
        assert console.poker.to_show == (1, 3)
        await key_cards(screen, "9c")
        assert screen.keys("pcard:send")[0].text == "SHOW S1: A♥ 2♥ K♦ K♥ 9♣"
        await screen.tap("pcard:send")
        await until(lambda: console.poker is not None and console.poker.to_show == (3,), "seat 1 shown")
        await screen.frames()
        await check_drawn(screen)
        assert screen.keys("poker:muck:3") != []  # seat 1 is in: seat 3 may muck
        await key_cards(screen, "Tc")
        await refused_on_screen(screen, console, "Tc", "10♣ is keyed already")
        await refused_on_screen(screen, console, "Kd", "K♦: seat 1 showed it")
        await key_cards(screen, "Ts 4c 5s 9d")
        await screen.tap("pcard:send")
        await until(lambda: console.table.round_id != round_id, "the next round")
        await until(lambda: console.settlement_open, "the settlement")
        await screen.frames()
        await check_drawn(screen)
        view = console.table.settlement
        assert view is not None
        nets = {s.seat: s.amount_text for s in view.seats}
        assert nets[1].endswith("$6.00"), nets  # 10.00 less his 4.00
        # The rules core's settlement of the journaled events is the one journaled and shown.
        assert rig.daemon is not None and rig.daemon.journal is not None
        recalled = await rig.daemon.journal.recall(round_id)
        assert recalled.consistent and recalled.replayed is not None
        replayed = recalled.replayed.to_json()["seats"]
        assert replayed["1"]["main_pot"]["net"] == "+6.00", replayed
        assert replayed["3"]["main_pot"]["net"] == "-4.00" and replayed["2"]["main_pot"]["net"] == "-2.00"
