"""Every main screen of the dealer's console, drawn from a real daemon on the bench rig, saved as
PNG at 800x480 and 1024x600 (``scripts/screenshots``; docs/screenshots/).

``python -m tests.ui_screens OUT_DIR WIDTHxHEIGHT`` draws one size (Kivy opens one window per
process: the script runs this once per size). Each scene reports any text cut off and any key
under 9 mm; the run fails if there is one.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sim.bench_rig import BenchRig
from sim.screen_display import (
    Screen,
    broken_words,
    cut_off,
    kivy_environment,
    out_of_view,
    running_app,
    small_targets,
    start_display,
)
from sim.screen_rig import console_on_rig, enter_wager, following, tap_pin, until
from ui.console import Console

if TYPE_CHECKING:
    from tests.meter_link import Link

Scene = Callable[[Screen, Path], Awaitable[None]]


async def _snap(screen: Screen, path: Path, problems: list[str]) -> None:
    await screen.screenshot(path)
    found = cut_off(screen) + small_targets(screen) + out_of_view(screen) + broken_words(screen)
    problems.extend(f"{path.name}: {p}" for p in found)


async def caribbean_stud(screen: Screen, out: Path, problems: list[str]) -> None:
    async with console_on_rig() as (rig, console):
        await screen.show(console)
        await enter_wager(console, 2, "ante", 10)
        await enter_wager(console, 5, "ante", 25)
        await enter_wager(console, 5, "bonus", 5)
        await rig.place_chip(5)
        console.choose_seat(1)
        console.choose_wager("ante")
        console.clear_amount()
        for digit in "25":
            console.key("amount", digit)
        await _snap(screen, out / "01-open-wagers.png", problems)
        console.amount.cents = 0
        await rig.press_lock_out()
        for position, cards in (
            ("2", "9d 9c 3d 7d 2h"),
            ("5", "2c 4d 6h 8s Tc"),
            ("dealer", "Ah Kd 7s 5c 3h"),
        ):
            await rig.deal(position, cards)
        await until(lambda: console.seat == 2, "seat 2 to decide")
        await _snap(screen, out / "02-no-more-bets-decide.png", problems)
        await console.decide("bet")
        await until(lambda: console.seat == 5, "seat 5 to decide")
        await console.decide("fold")
        await until(lambda: console.table.settlement is not None, "the settlement")
        await _snap(screen, out / "03-settlement.png", problems)
        console.close_settlement()
        await _snap(screen, out / "03b-after-close.png", problems)


SEVEN_HANDS = (
    "9d 9c 3d 7d 2h",
    "2c 4d 6h 8s Tc",
    "Kh Kd 5s 5c 9h",
    "Ac Qc 8c 6c 3c",
    "3h 4h 5d 6s 7c",
    "Js Jh Jd 2s 4s",
    "Ts 8h 7h 2d 3s",
)


#: Seat 1's royal flush (its progressive a hand pay); seats 6 and 7 without its jack and ten.
SEVEN_HANDS_WITH_A_ROYAL = ("As Ks Qs Js Ts", *SEVEN_HANDS[1:5], "Jc Jh Jd 2s 4s", "Th 8h 7h 2d 3s")


async def seven_seats(screen: Screen, out: Path, problems: list[str]) -> None:
    """Seven seats settled at once, a royal flush's hand pay among them: one block per seat with its
    stake and total, PAY / COLLECT / PUSH by word, sign and colour; a seat's wagers and the dealer's
    hand on touch."""
    async with console_on_rig() as (rig, console):
        await screen.show(console)
        for seat in range(1, 8):
            await enter_wager(console, seat, "ante", 5 * seat)
        await rig.place_chip(1)
        await rig.press_lock_out()
        for seat, cards in enumerate(SEVEN_HANDS_WITH_A_ROYAL, start=1):
            await rig.deal(str(seat), cards)
        await rig.deal("dealer", "Ah Kc 9s 5h 4c")
        for seat in range(1, 8):
            await until(lambda s=seat: console.seat == s, f"seat {seat} to decide")
            await console.decide("fold" if seat == 7 else "bet")
        await until(lambda: console.table.settlement is not None, "the settlement")
        await _snap(screen, out / "03c-settlement-seven-seats.png", problems)
        console.show_settled("6")
        await _snap(screen, out / "03d-settlement-a-seat-s-wagers.png", problems)
        console.show_settled("dealer")
        await _snap(screen, out / "03e-settlement-the-dealer-s-hand.png", problems)
        console.show_settled("")


async def progressive_hit(screen: Screen, out: Path, problems: list[str]) -> None:
    async with console_on_rig() as (rig, console):
        await screen.show(console)
        await enter_wager(console, 1, "ante", 10)
        await rig.place_chip(1)
        await rig.press_lock_out()
        await rig.deal("1", "As Ks Qs Js Ts")
        await until(lambda: bool(console.table.jackpot_hands), "the jackpot hand dealt")
        await _snap(screen, out / "04a-jackpot-dealt.png", problems)
        await rig.deal("dealer", "Ah Kd 7s 5c 3h")
        await until(lambda: console.seat == 1, "seat 1 to decide")
        await console.decide("bet")
        await until(lambda: console.table.settlement is not None, "the settlement")
        await _snap(screen, out / "04-progressive-hit-pending.png", problems)
        view = console.table.settlement
        assert view is not None
        console.ask_verification(1, "progressive", view.round_id)
        await _type_pin(console, "2048")
        await _snap(screen, out / "05-floorperson-pin.png", problems)
        console.pin.cancel()
        console.show("technician")
        await _snap(screen, out / "10-technician.png", problems)


async def shoe_out_of_order(screen: Screen, out: Path, problems: list[str]) -> None:
    async with console_on_rig() as (rig, console):
        await screen.show(console)
        await enter_wager(console, 4, "ante", 10)
        await rig.press_lock_out()
        assert rig.shoe is not None
        await rig.shoe.stop()
        await until(lambda: console.may_key_cards, "the shoe out of order")
        console.card_to = "4"
        for key in ("A", "s", "K", "s"):
            console.key("cards", key)
        await _snap(screen, out / "06-shoe-out-keyed-cards.png", problems)
        console.open_tab("irregularity")
        await _snap(screen, out / "07-irregularity.png", problems)


async def _type_pin(console: Console, pin: str) -> None:
    """Part of a floorperson's PIN typed (dots), beside the floorpersons' names from the daemon
    (the name's key signs), as a screenshot shows them."""
    await until(lambda: bool(console.pin.names), "the floorpersons' names offered")
    for key in pin:
        console.pin.press(key)


async def floorperson_steps(screen: Screen, out: Path, problems: list[str]) -> None:
    """§ 639a.13(g): a floorperson declares the shoe out of order (PIN) before cards are keyed by
    hand; a reported irregularity waits for a floorperson's CONFIRM or DISMISS (docs/authority.md)."""
    async with console_on_rig() as (rig, console):
        await screen.show(console)
        await enter_wager(console, 4, "ante", 10)
        await rig.press_lock_out()
        await until(lambda: "decisions" in console.tabs, "the dealing")
        console.open_tab("irregularity")
        await _snap(screen, out / "15-irregular-shoe-out-of-order.png", problems)
        console.declare_out_of_order("shoe")
        await _type_pin(console, "20")
        await _snap(screen, out / "16-shoe-out-of-order-pin.png", problems)
        console.pin.cancel()
        console.declare_out_of_order("shoe")
        assert await tap_pin(console), console.pin.message
        await until(lambda: console.may_key_cards, "the shoe declared out of order")
        console.open_tab("cards")
        console.card_to = "4"
        for key in ("A", "s", "K", "s"):
            console.key("cards", key)
        await _snap(screen, out / "17-declared-out-of-order-keyed-cards.png", problems)
        client = console.connection.client
        assert client is not None
        await client.submit_event({"type": "irregularity", "kind": "shoe_jam"})
        await until(lambda: console.table.floor_to_confirm == "shoe_jam", "the report waiting")
        console.open_tab("irregularity")
        await _snap(screen, out / "18-reported-confirm-dismiss.png", problems)
        console.dismiss_reported()
        await _type_pin(console, "2048")
        await _snap(screen, out / "19-dismiss-pin.png", problems)


async def blackjack(screen: Screen, out: Path, problems: list[str]) -> None:
    async with console_on_rig("blackjack") as (rig, console):
        await screen.show(console)
        await enter_wager(console, 3, "blackjack", 10)
        await enter_wager(console, 6, "blackjack", 25)
        await enter_wager(console, 6, "three_card_poker", 5)
        await rig.press_lock_out()
        for position, card in (("3", "Th"), ("6", "8s"), ("dealer", "9c"), ("3", "6d"), ("6", "8d")):
            await rig.deal(position, card)
        await until(lambda: console.seat == 3, "seat 3 to decide")
        await _snap(screen, out / "11-blackjack-decide.png", problems)


async def asia_poker(screen: Screen, out: Path, problems: list[str]) -> None:
    from controller.rules.games.asia_poker.game import clockwise_from, starting_position

    async with console_on_rig("asia-poker") as (rig, console):
        await screen.show(console)
        await enter_wager(console, 2, "asia_poker", 10)
        await rig.press_lock_out()
        await _snap(screen, out / "12-asia-poker-shaker.png", problems)
        for face in (4, 2, 1):
            console.key("dice", str(face))
        await console.throw()
        sevens = {"2": "As Ad Ks Kd Qh 7c 3s", "dealer": "2c 4d 6h 8s Tc Jd 5h"}
        for position in clockwise_from(starting_position("shaker", 7)):
            if position in sevens:
                await rig.deal(position, sevens[position])
        await until(lambda: "to set" in console.table.waiting_for, "seat 2 to set")
        console.choose_seat(2)
        await console.decide("help")  # § 659a.11(a)(1): the daemon's house way shows beside the keys
        await until(lambda: console.house_way_for("2") is not None, "the house way for seat 2")
        for card in ("As", "Ad", "Ks", "Kd"):
            console.key("setting", card)
        console.key("setting_hand", "medium")
        await _snap(screen, out / "13-asia-poker-setting.png", problems)


async def three_dice_football(screen: Screen, out: Path, problems: list[str]) -> None:
    async with console_on_rig("three-dice-football") as (rig, console):
        await screen.show(console)
        console.choose_seat(4)
        await console.decide("accept_dice")
        await enter_wager(console, 4, "touchdown", 10)
        await rig.press_lock_out()
        await until(lambda: "throw" in console.table.waiting_for, "the first throw")
        console.key("dice", "2")
        console.key("dice", "3")
        await _snap(screen, out / "14-three-dice-football-throw.png", problems)


async def offline(screen: Screen, out: Path, problems: list[str]) -> None:
    async with following(Path("/nonexistent/api.sock")) as console:
        await until(lambda: console.connection.attempts > 0, "controller offline")
        await screen.show(console)
        await _snap(screen, out / "08-controller-offline.png", problems)


@contextlib.asynccontextmanager
async def linked_screen(
    screen: Screen, paytable: Sequence[str]
) -> AsyncIterator[tuple[BenchRig, Console, Link]]:
    """Table t1 on the real broker and meter (``paytable``: the meter's rows for it,
    tests/table_link.py), and the screen following its daemon, online and shown; the link too
    (its meter restarted with other terms, ``Link.reconfigure``)."""
    from sim.mosquitto import USERS
    from tests.mosquitto import Pki
    from tests.table_link import linked_table

    with tempfile.TemporaryDirectory(prefix="shots-") as tmp:
        root = Path(tmp)
        async with (
            linked_table(root, Pki(root / "pki", users=USERS), "t1", paytable=paytable) as (link, rig),
            following(rig.socket) as console,
        ):
            await until(lambda: console.online, "the screen online")
            await screen.show(console)
            yield rig, console, link


async def claim_hand_pay(screen: Screen, out: Path, problems: list[str]) -> None:
    """A claim the central meter REFUSED (its paytable disagrees): the hand pay's panel with the
    meter keyed in and a reason, then its PIN (the real broker and meter, tests/table_link.py)."""
    from controller.api_client import ApiClient
    from tests.table_link import api_round
    from tests.test_link_claims import DISAGREES
    from tests.test_link_table import royal_until_decision

    async with linked_screen(screen, DISAGREES) as (rig, console, _):
        async with await ApiClient.connect(rig.socket) as api:
            await api_round(api, rig)
            await royal_until_decision(api, rig)
            await api.submit_event({"type": "decision", "seat": 1, "action": "bet"})
        await until(lambda: console.panel == "claim", "the claim refused by the meter")
        for key in "1000072":
            console.key("meter", key)
        console.key("reason", "Other")  # the floorperson's own words, typed
        for char in "display read by f-17":
            console.key("words", "space" if char == " " else char)
        await _snap(screen, out / "25a-claim-hand-pay-reason-typed.png", problems)
        console.key("words_done", "")
        console.key("reason", "Meter refused")
        await _snap(screen, out / "25-claim-refused-hand-pay.png", problems)
        console.ask_hand_pay()
        await _type_pin(console, "20")
        await _snap(screen, out / "26-claim-hand-pay-pin.png", problems)
        console.pin.cancel()


async def link_closed(screen: Screen, out: Path, problems: list[str]) -> None:
    """A contribution the central meter refused (its ``max_wager`` lowered below the table's wager
    while the table ran): progressive wagering closed, the meter UNAVAILABLE on the next round
    (the real broker and meter)."""
    from controller.api_client import ApiClient
    from sim.link_rig import PAYTABLE_B
    from tests.table_link import api_round, meter_gone, wagering_open

    async with linked_screen(screen, PAYTABLE_B) as (rig, console, link):
        await link.reconfigure((*PAYTABLE_B, 'max_wager = "0.50"'), lambda: meter_gone(rig))
        await wagering_open(rig)
        async with await ApiClient.connect(rig.socket) as api:
            await api_round(api, rig)
            await until(lambda: console.table.meter.state.value == "unavailable", "the meter unavailable")
            await api.submit_event({"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"})
        await _snap(screen, out / "32-link-closed-meter-unavailable.png", problems)


SCENES = (
    caribbean_stud,
    seven_seats,
    progressive_hit,
    shoe_out_of_order,
    floorperson_steps,
    offline,
    blackjack,
    asia_poker,
    three_dice_football,
    claim_hand_pay,
    link_closed,
)


async def draw(out: Path, width: int, height: int) -> list[str]:
    problems: list[str] = []
    async with running_app(width, height) as screen:
        for scene in SCENES:
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
