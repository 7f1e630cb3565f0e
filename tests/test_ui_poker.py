"""The poker table on the dealer's screen, by touch (Kivy's ``UnitTestTouch``) against a real daemon on
the bench rig (its shoe the table's card reader), under a private Xvfb: one Omaha round and one Triple
Draw round. The players join and post the blinds through the API (the screen's seating keys are not
built yet); every action of every betting round is a touch on the key the screen offers, and the screen
offers only what the procedure takes (§ 637a.19(g), (h)); at every step no text is cut off, every key
is at least 9 mm and in view. The settlement of the pots shows at the end.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

import pytest

from sim.screen_display import (
    Screen,
    broken_words,
    cut_off,
    out_of_view,
    running_app,
    small_targets,
)
from sim.screen_rig import FLOOR_PIN, FLOOR_USER, following, until
from tests.test_ui_widgets import check_drawn as checked_now
from ui.console import Console


async def check_drawn(screen: Screen) -> None:
    """The widget tests' checks once the layout has settled: a panel rebuilt by the daemon's last
    answer wraps its labels over a few frames (more on a loaded machine); up to a second for it."""
    for _ in range(10):
        await screen.frames(3)
        if not (cut_off(screen) or small_targets(screen) or out_of_view(screen) or broken_words(screen)):
            break
    await checked_now(screen)


@contextlib.asynccontextmanager
async def poker_on_rig(variant: str) -> AsyncIterator[tuple[Any, Console]]:
    from controller.auth import add_user
    from sim.bench_rig import BenchRig

    async with BenchRig(game="poker-room", variant=variant) as rig:
        add_user(rig.path / "users.json", FLOOR_USER, "floor", FLOOR_PIN)
        async with following(rig.socket) as console:
            await until(lambda: console.online, "the controller online")
            yield rig, console


async def seated(rig: Any, console: Console, hands: dict[int, str]) -> None:
    """Button 3, seats 1-3 with 100.00, the blinds 1.00 and 2.00 (through the API); the shoe deals a
    card a stack from seat 1, the button last."""
    client = console.connection.client
    assert client is not None
    await client.submit_event({"type": "position", "value": 3})
    for seat in (1, 2, 3):
        await client.submit_event(
            {"type": "decision", "seat": seat, "action": "participate", "amount": "100.00"}
        )
    await client.submit_event({"type": "wager", "seat": 1, "wager": "blind", "amount": "1.00"})
    await client.submit_event({"type": "wager", "seat": 2, "wager": "blind", "amount": "2.00"})
    for i in range(len(hands[1].split())):
        for seat in (1, 2, 3):
            await rig.deal(seat, hands[seat].split()[i])


async def seated_by_touch(screen: Screen, rig: Any, console: Console, hands: dict[int, str]) -> None:
    """As :func:`seated`, by touch: the button at S3 (the table's first round), each player's seat, his
    chips on the keypad (100 dollars) and JOIN, then the Blind Bets the screen offers (the Straddle Bet
    offered too, not taken); the shoe deals."""
    await until(lambda: console.poker is not None and console.poker.placing_button, "the button to place")
    await check_drawn(screen)
    await screen.tap("poker:seat:3")
    await screen.tap("poker:button")
    for seat in (1, 2, 3):
        await until(lambda: console.poker is not None and console.poker.seating, "the players to join")
        await screen.tap(f"poker:seat:{seat}")
        for digit in "100":
            await screen.tap(f"amount:{digit}")
        await check_drawn(screen)
        await screen.tap("poker:join")
        await until(
            partial(lambda s: console.poker is not None and s in console.poker.joined, seat), "joined"
        )
    for seat, amount in ((1, "$1.00"), (2, "$2.00")):
        await until(
            partial(
                lambda s: console.poker is not None and any(f.seat == s for f in console.poker.forced), seat
            ),
            f"seat {seat}'s blind",
        )
        await screen.frames()
        await check_drawn(screen)
        key = screen.keys("poker:blind")[0]
        assert key.text == f"S{seat} BLIND {amount}", key.text
        await screen.tap("poker:blind")
    await until(lambda: console.poker is not None and console.poker.may_deal, "the deal")
    await screen.frames()
    assert screen.keys("poker:straddle")[0].text == "S3 STRADDLE $4.00"
    assert screen.keys("poker:deal") == []  # the shoe deals
    for i in range(len(hands[1].split())):
        for seat in (1, 2, 3):
            await rig.deal(seat, hands[seat].split()[i])


async def turn_of(screen: Screen, console: Console, seat: int) -> None:
    await until(lambda: console.poker is not None and console.poker.turn == seat, f"seat {seat}'s turn")
    await screen.frames()
    await check_drawn(screen)


async def first_round(screen: Screen, console: Console) -> None:
    """Seat 3 calls 2.00, seat 1 calls 1.00 more, seat 2 checks: 6.00 in the pot."""
    await turn_of(screen, console, 3)
    assert screen.keys("poker:check") == []  # 2.00 to call: no check
    assert "CALL $2.00" in screen.keys("poker:call")[0].text
    await screen.tap("poker:call")
    await turn_of(screen, console, 1)
    await screen.tap("poker:call")
    await turn_of(screen, console, 2)
    assert screen.keys("poker:call") == []  # his blind is the bet: nothing to call
    await screen.tap("poker:check")


#: The screen's two sizes (the conftest's one Xvfb; each test a Kivy window of its size).
SIZES = [(800, 480), (1024, 600)]
#: A whole round by touch is some 14 s a size: the 10-inch size runs with --all (as test_ui_widgets.py's
#: round), and scripts/screenshots draws these screens at both sizes with the same checks.
ROUND_SIZES = [(800, 480), pytest.param((1024, 600), marks=pytest.mark.slow)]


@pytest.mark.asyncio
@pytest.mark.parametrize("size", ROUND_SIZES)
async def test_an_omaha_round_by_touch(display: str, size: tuple[int, int]) -> None:
    """Omaha High-low at the example's fixed limit. After the flop seat 1 bets 2.00 (the small bet), seat 2
    folds, seat 3 calls; the turn and the river checked (board 3h 4h 6d Jd Qs). Seat 1 takes both halves:
    the high with kings (Kd Kh + Qs Jd 6d, against seat 3's tens) and the low, six-four-three-two-ace
    (Ah 2h + 3h 4h 6d; seat 3 has none): the pot 10.00, +6.00."""
    hands = {1: "Ah 2h Kd Kh 9c", 2: "7c 7d 8s 8d Js", 3: "Tc Ts 4c 5s 9d"}
    async with running_app(*size) as screen, poker_on_rig("omaha-high-low") as (rig, console):
        await screen.show(console)
        await seated_by_touch(screen, rig, console, hands)
        round_id = console.table.round_id
        await first_round(screen, console)
        await rig.deal("burn", "2c")
        await rig.deal("board", "3h 4h 6d")
        await turn_of(screen, console, 1)
        # The example's limit is fixed: the bet is the small bet, 2.00, and no amount is keyed.
        assert "BET TO $2.00" in screen.keys("poker:bet")[0].text
        assert screen.keys("amount:5") == []
        await screen.tap("poker:bet")
        await turn_of(screen, console, 2)
        await screen.tap("poker:fold")
        await turn_of(screen, console, 3)
        await screen.tap("poker:call")
        for card in ("Jd", "Qs"):
            await rig.deal("burn", "3c" if card == "Jd" else "3d")
            await rig.deal("board", card)
            for seat in (1, 3):
                await turn_of(screen, console, seat)
                await screen.tap("poker:check")
        await until(lambda: console.table.round_id != round_id, "the next round")
        await until(lambda: console.settlement_open, "the settlement")
        await screen.frames()
        await check_drawn(screen)
        view = console.table.settlement
        assert view is not None
        nets = {s.seat: s.amount_text for s in view.seats}
        assert nets[1].endswith("$6.00"), nets  # 10.00 less his 4.00


async def discards_by_touch(screen: Screen, console: Console, cards: str) -> None:
    """The player drawing's discards touched among his cards read (§ 637a.20(h)), then DISCARD."""
    await until(lambda: console.poker is not None and "hand" in (console.poker.draw or {}), "the hand")
    await screen.frames()
    for card in cards.split():
        await screen.tap(f"discard:{card}")
    await check_drawn(screen)
    assert screen.keys("poker:discard")[0].text.startswith("DISCARD ")
    await screen.tap("poker:discard")
    await until(lambda: console.poker is not None and (console.poker.draw or {}).get("owed") == 2, "owed")


@pytest.mark.asyncio
@pytest.mark.parametrize("size", ROUND_SIZES)
async def test_a_triple_draw_round_by_touch(display: str, size: tuple[int, int]) -> None:
    """Triple Draw 2-7 at the example's fixed limit: the first round by touch, then each draw's STAND PAT
    by touch (seat 1's two discards at the first touched among his cards read, and the shoe deals him
    two); every later betting round checked by touch. Seat 1's seven-five-four-three-two takes the pot of
    6.00."""
    hands = {1: "7c 5d 4h Kd Kc", 2: "8c 8d 8h 8s Tc", 3: "9c 9d 9h 9s Jc"}
    async with running_app(*size) as screen, poker_on_rig("triple-draw-2-7") as (rig, console):
        await screen.show(console)
        await seated(rig, console, hands)
        await first_round(screen, console)
        for draw in range(3):
            await rig.deal("burn", ("Qs", "Qd", "Qh")[draw])
            for seat in (1, 2, 3):
                if draw == 0 and seat == 1:
                    await discards_by_touch(screen, console, "Kd Kc")
                    await rig.deal(1, "3s 2c")
                    continue
                await until(
                    partial(
                        lambda s: console.poker is not None and (console.poker.draw or {}).get("seat") == s,
                        seat,
                    ),
                    f"seat {seat}'s draw",
                )
                await screen.frames()
                await check_drawn(screen)
                await screen.tap("poker:stand_pat")
            for seat in (1, 2, 3):
                await turn_of(screen, console, seat)
                await screen.tap("poker:check")
        await until(lambda: console.settlement_open, "the settlement")
        await screen.frames()
        await check_drawn(screen)
        view = console.table.settlement
        assert view is not None
        assert {s.seat: s.amount_text for s in view.seats}[1].endswith("$4.00")
