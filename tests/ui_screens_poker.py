"""The poker table's screens, drawn from a real daemon on the bench rig (its shoe the card reader),
saved as PNG at 800x480 and 1024x600 (``scripts/screenshots``; docs/screenshots/): the button placed
and the players joining at a Badugi table, an Omaha round's first betting round (seat 3 to act: fold,
call or raise), a Triple Draw round's draw (STAND PAT, the discards touched among the cards read),
the settlement of the Omaha pots; at a table without a card reader, the card keypad of the board and
of a hand shown at the showdown, and a disputed pot there (the DISPUTE key, then the floorperson's
ruling: a hand dead or dismissed). Each scene reports any text cut off, any key under 9 mm or out of
view, any word broken; the run fails if there is one.

``python -m tests.ui_screens_poker OUT_DIR WIDTHxHEIGHT`` draws one size (one Kivy window a process).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from sim.screen_display import Screen, kivy_environment, running_app, start_display
from sim.screen_rig import until
from tests.ui_screens import _snap


async def omaha(screen: Screen, out: Path, problems: list[str]) -> None:
    from tests.test_ui_poker import poker_on_rig, seated

    hands = {1: "Ah 2h Kd Kh 9c", 2: "7c 7d 8s 8d Js", 3: "Tc Ts 4c 5s 9d"}
    async with poker_on_rig("omaha-high-low") as (rig, console):
        await screen.show(console)
        await seated(rig, console, hands)
        await until(lambda: console.poker is not None and console.poker.turn == 3, "seat 3's turn")
        await _snap(screen, out / "20-poker-omaha-to-act.png", problems)
        client = console.connection.client
        assert client is not None
        for seat, action in ((3, "call"), (1, "call"), (2, "check")):
            await client.submit_event({"type": "decision", "seat": seat, "action": action})
        await rig.deal("burn", "2c")
        await rig.deal("board", "3h 4h 6d")
        for seat, action in ((1, "bet"), (2, "fold"), (3, "call")):
            extra = {"amount": "2.00"} if action == "bet" else {}
            await client.submit_event({"type": "decision", "seat": seat, "action": action, **extra})
        for card, burn in (("Jd", "3c"), ("Qs", "3d")):
            await rig.deal("burn", burn)
            await rig.deal("board", card)
            for seat in (1, 3):
                await client.submit_event({"type": "decision", "seat": seat, "action": "check"})
        await until(lambda: console.settlement_open, "the settlement")
        await _snap(screen, out / "22-poker-settlement.png", problems)


async def players_join(screen: Screen, out: Path, problems: list[str]) -> None:
    from tests.test_ui_poker import poker_on_rig

    async with poker_on_rig("badugi") as (_rig, console):
        await screen.show(console)
        await until(lambda: console.poker is not None and console.poker.placing_button, "the button")
        console.poker_seat = 4
        console.changed()
        await _snap(screen, out / "23-poker-the-button.png", problems)
        client = console.connection.client
        assert client is not None
        await client.submit_event({"type": "position", "value": 4})
        for seat in (1, 2):
            await client.submit_event(
                {"type": "decision", "seat": seat, "action": "participate", "amount": "80.00"}
            )
        await until(lambda: console.poker is not None and len(console.poker.seats) == 2, "two players")
        console.poker_seat = 4
        for digit in "120":
            console.key("amount", digit)
        await _snap(screen, out / "24-poker-players-join.png", problems)


async def triple_draw(screen: Screen, out: Path, problems: list[str]) -> None:
    from tests.test_ui_poker import poker_on_rig, seated

    hands = {1: "7c 5d 4h Kd Kc", 2: "8c 8d 8h 8s Tc", 3: "9c 9d 9h 9s Jc"}
    async with poker_on_rig("triple-draw-2-7") as (rig, console):
        await screen.show(console)
        await seated(rig, console, hands)
        client = console.connection.client
        assert client is not None
        for seat, action in ((3, "call"), (1, "call"), (2, "check")):
            await client.submit_event({"type": "decision", "seat": seat, "action": action})
        await rig.deal("burn", "Qs")
        await until(lambda: console.poker_cards.discards.hand != (), "seat 1's hand to discard from")
        await screen.frames()
        for card in ("Kd", "Kc"):
            console.poker_cards.discards.toggle(card)
        console.changed()
        await _snap(screen, out / "29-poker-discards-touched.png", problems)
        await client.submit_event({"type": "cards", "to": "dealer", "cards": "Kd Kc"})
        await rig.deal(1, "3s 2c")
        await until(
            lambda: console.poker is not None and (console.poker.draw or {}).get("seat") == 2, "seat 2's draw"
        )
        await _snap(screen, out / "21-poker-triple-draw.png", problems)


async def omaha_without_reader(screen: Screen, out: Path, problems: list[str]) -> None:
    """A table without a card reader: the flop keyed (two of three), then the showdown, seat 1's hand
    keyed (two cards and a rank)."""
    from tests.test_ui_poker_keyed import dealt, poker_without_reader

    async with poker_without_reader("omaha-high-low") as (_rig, console):
        await screen.show(console)
        client = console.connection.client
        assert client is not None
        await dealt(console)
        await client.submit_event({"type": "deal", "to": "burn", "value": 1})
        await until(lambda: console.poker_cards.pad.wanted is not None, "the board's keypad")
        await screen.frames()
        for key in ("3", "h", "4", "h"):
            console.poker_cards.pad.press(key)
        console.changed()
        await _snap(screen, out / "27-poker-keyed-board.png", problems)
        await client.submit_event({"type": "cards", "to": "board", "cards": "3h 4h 6d"})
        for seat, action in ((1, "check"), (2, "check"), (3, "check")):
            await client.submit_event({"type": "decision", "seat": seat, "action": action})
        for card in ("Jd", "Qs"):
            await client.submit_event({"type": "deal", "to": "burn", "value": 1})
            await client.submit_event({"type": "cards", "to": "board", "cards": card})
            for seat in (1, 2, 3):
                await client.submit_event({"type": "decision", "seat": seat, "action": "check"})
        await until(lambda: console.poker is not None and bool(console.poker.to_show), "the showdown")
        await until(lambda: console.poker_cards.pad.wanted is not None, "the showdown's keypad")
        await screen.frames()
        for key in ("A", "h", "2", "h", "K"):
            console.poker_cards.pad.press(key)
        console.changed()
        await _snap(screen, out / "28-poker-keyed-showdown.png", problems)


async def dispute(screen: Screen, out: Path, problems: list[str]) -> None:
    """Omaha at a table without a reader, at the showdown after seat 1 showed: DISPUTE in the bar; then
    the dispute reported (hand shown), the floorperson's choice."""
    from tests.test_ui_poker_dispute import to_the_showdown
    from tests.test_ui_poker_keyed import poker_without_reader

    async with poker_without_reader("omaha-high") as (_rig, console):
        await screen.show(console)
        await to_the_showdown(console)
        await until(lambda: console.poker is not None and console.poker.to_show == (2, 3), "seat 1 shown")
        await until(lambda: screen.keys("poker:dispute") != [], "the DISPUTE key")
        await _snap(screen, out / "30-poker-dispute.png", problems)
        assert await console.report_dispute("hand_shown"), console.message
        await until(lambda: screen.keys("dispute:dismiss") != [], "the floorperson's keys")
        console.poker_seat = 1
        console.changed()
        await _snap(screen, out / "31-poker-dispute-ruling.png", problems)


async def draw(out: Path, width: int, height: int) -> list[str]:
    problems: list[str] = []
    async with running_app(width, height) as screen:
        for scene in (omaha, triple_draw, players_join, omaha_without_reader, dispute):
            await scene(screen, out / f"{width}x{height}", problems)
    return problems


def main(argv: list[str]) -> int:
    out, size = Path(argv[0]), argv[1]
    width, height = (int(x) for x in size.split("x"))
    with start_display():
        kivy_environment(width, height)
        problems = asyncio.run(draw(out, width, height))
    for p in problems:
        print(f"screenshots: {p}", file=sys.__stderr__)  # Kivy takes over sys.stderr
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
