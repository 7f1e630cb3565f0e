"""The screen's view-models through a round of Blackjack, Asia Poker and Three Dice Football on
the bench rig: the decisions the dealer enters there, the dice, the hand setting, the settlement.
"""

from __future__ import annotations

import pytest

from controller.rules.games.asia_poker.game import clockwise_from, starting_position
from sim.screen_rig import console_on_rig, enter_wager, until
from ui.table import Betting


@pytest.mark.asyncio
async def test_blackjack_hit_and_stand_from_the_screen() -> None:
    async with console_on_rig("blackjack") as (rig, console):
        await enter_wager(console, 3, "blackjack", 10)
        await rig.press_lock_out()
        await until(lambda: console.banner == Betting.NO_MORE_BETS, "NO MORE BETS")
        for position, card in (("3", "Th"), ("dealer", "9c"), ("3", "6d")):
            await rig.deal(position, card)
        await until(lambda: "seat 3 hand 0 to decide (hard 16)" in console.table.waiting_for, "seat 3")
        assert (console.seat, console.hand) == (3, 0)
        assert await console.decide("hit"), console.message
        await rig.deal("3", "2s")
        await until(lambda: "(hard 18)" in console.table.waiting_for, "seat 3 with 18")
        assert await console.decide("stand"), console.message
        await until(lambda: "hole card" in console.table.waiting_for, "the hole card")
        await rig.deal("dealer", "8h")
        await until(lambda: console.table.settlement is not None, "the settlement")
        view = console.table.settlement
        assert view is not None
        assert [(line.seat, line.action, line.amount_text) for line in view.lines] == [(3, "PAY", "$10.00")]
        await until(lambda: console.table.last_round_entered, "the round's decisions kept for the replay")
        assert console.table.last_round_entered == ("seat 3: hit", "seat 3: stand")
        assert [" ".join(h.cards) for h in console.table.last_round_hands] == ["Th 6d 2s", "9c 8h"]


@pytest.mark.asyncio
async def test_asia_poker_shaker_setting_and_the_dealer_settles() -> None:
    async with console_on_rig("asia-poker") as (rig, console):
        await enter_wager(console, 2, "asia_poker", 10)
        await rig.press_lock_out()
        await until(lambda: console.banner == Betting.NO_MORE_BETS, "NO MORE BETS")
        for face in (4, 2, 1):
            console.key("dice", str(face))
        assert await console.throw(), console.message
        sevens = {"2": "As Ad Ks Kd Qh 7c 3s", "dealer": "2c 4d 6h 8s Tc Jd 5h"}
        for position in clockwise_from(starting_position("shaker", 7)):
            if position in sevens:
                await rig.deal(position, sevens[position])
        await until(lambda: "seat 2 to set" in console.table.waiting_for, "seat 2 to set its hands")
        console.choose_seat(2)
        # § 659a.11(a)(1): the player asks for help; the daemon's house way for the seat is on the
        # wire. The standard house way keeps the pair of aces high, the best medium hand (the
        # kings), the best low card left (the queen), the rest high.
        assert console.house_way_for("2") is None
        assert await console.decide("help"), console.message
        await until(lambda: console.house_way_for("2") is not None, "the house way for seat 2")
        helped = console.house_way_for("2")
        assert helped is not None
        assert (helped.high, helped.medium, helped.low) == (("As", "Ad", "7c", "3s"), ("Ks", "Kd"), ("Qh",))
        assert helped.section == "§ 659a.11(a)(1)"
        assert console.house_way_for("dealer") is None  # the dealer's cards stay down until then
        assert console.setting.seven == tuple(sevens["2"].split())
        for card, hand in (("As", "high"), ("Ad", "high"), ("Ks", "high"), ("Kd", "high"), ("Qh", "medium")):
            console.key("setting", f"{card}:{hand}")
        assert not await console.set_hands()
        assert "§ 659a.11(b)" in console.message
        with pytest.raises(ValueError, match="has 4 card"):
            console.key("setting", "7c:high")
        console.key("setting", "7c:medium")
        console.key("setting", "3s:low")
        assert await console.set_hands(), console.message
        await until(lambda: console.may_settle, "the dealer to settle")
        # § 659a.11(c): every player has set; the dealer's seven are set by the house way (no pair:
        # the jack high, the best medium hand below it, the best low card left).
        dealer = console.house_way_for("dealer")
        assert dealer is not None and dealer.section == "§ 659a.11(c)"
        assert (dealer.high, dealer.medium, dealer.low) == (("Jd", "5h", "4d", "2c"), ("Tc", "8s"), ("6h",))
        assert console.house_way_for("2") is None  # set: nothing more to suggest
        assert await console.settle(), console.message
        await until(lambda: console.table.settlement is not None, "the settlement")
        view = console.table.settlement
        assert view is not None and view.dealer.startswith("high")
        assert [(line.seat, line.wager, line.action) for line in view.lines] == [(2, "asia_poker", "PAY")]


@pytest.mark.asyncio
async def test_three_dice_football_the_dice_accepted_and_thrown() -> None:
    async with console_on_rig("three-dice-football") as (rig, console):
        console.choose_seat(4)
        assert await console.decide("accept_dice"), console.message
        await enter_wager(console, 4, "touchdown", 10)
        await rig.press_lock_out()
        await until(lambda: "throw of play 1" in console.table.waiting_for, "the first throw")
        assert "yards to the end zone" in console.table.waiting_for
        for face in (2, 3, 1):
            console.key("dice", str(face))
        assert await console.throw(), console.message
        await until(lambda: "dice 2 3 1" in console.table.entered, "the throw entered")
        await until(lambda: "throw of play 2" in console.table.waiting_for, "the second throw")
        screen = console.screen
        assert screen is not None and screen.dice_game
        no_roll = next(c for c in screen.irregularities if c.name == "no_roll")
        # A dice game's no roll is the dealer's to enter, without a floorperson (§ 661a.5(c)).
        await console.report_irregularity(no_roll)
        assert not console.pin.open
        await until(lambda: "irregularity: no_roll" in console.table.entered, "the no roll")


@pytest.mark.asyncio
async def test_fortune_asia_poker_takes_the_buttons_position() -> None:
    async with console_on_rig("fortune-asia-poker") as (rig, console):
        await enter_wager(console, 1, "fortune_asia_poker", 25)
        await rig.press_lock_out()
        await until(lambda: "starting position by the button" in console.table.waiting_for, "the button")
        assert console.panel == "position"
        assert not await console.start_position(8)
        assert "refused" in console.message or "bad_args" in console.message
        assert await console.start_position(1), console.message
        await until(lambda: "position 1" in console.table.entered, "the position entered")
        await until(lambda: "seven cards" in console.table.waiting_for, "the deal")
