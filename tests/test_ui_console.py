"""The dealer's screen's view-models against the real daemon on the bench rig (issue 11).

Each test drives a :class:`ui.console.Console` as the Kivy widgets do (the same methods), while
the rig plays the table's hardware: the progressive sensors, the lock-out button, the shoe.
What the console shows must be what the daemon journaled.
"""

from __future__ import annotations

import asyncio
from decimal import Decimal

import pytest

from controller.api_client import ApiClient
from sim.screen_rig import console_on_rig, enter_wager, following, tap_pin, until
from ui.connection import LinkState
from ui.meter import MeterState
from ui.table import Betting

ROYAL = "As Ks Qs Js Ts"
NOTHING = "2c 4d 6h 8s Tc"


@pytest.mark.asyncio
async def test_a_caribbean_stud_round_from_open_to_settlement() -> None:
    async with console_on_rig() as (rig, console):
        assert console.banner == Betting.OPEN
        assert console.wager == "ante"  # the main wager, selected by default
        assert console.title.startswith("Caribbean Stud Poker")
        assert console.table.meter.state is MeterState.AMOUNT
        assert console.table.meter.text == "$10,000.00"
        # The key, not the rule: what the dealer presses next while the bets are open.
        assert console.waits_for == "Next: place the wagers, then press NO MORE BETS"
        await enter_wager(console, 2, "ante", 10)
        await enter_wager(console, 5, "ante", 25)
        await enter_wager(console, 5, "bonus", 5)
        await rig.place_chip(5)
        await rig.press_lock_out()
        await until(lambda: console.banner == Betting.NO_MORE_BETS, "NO MORE BETS")
        # § 639a.8(b): the count of progressive chips to collect is the system's.
        assert console.table.wager_count.text == "collect 1 progressive chip (seat 5)"
        seat5 = next(s for s in console.table.seats if s.seat == 5)
        assert [(w.wager, w.amount) for w in seat5.wagers] == [
            ("ante", Decimal("25.00")),
            ("bonus", Decimal("5.00")),
            ("progressive", Decimal("1.00")),
        ]
        assert not console.may_take_wagers
        assert not await console.place_wager()
        assert "open" in console.message
        for position, cards in (("2", "9d 9c 3d 7d 2h"), ("5", NOTHING), ("dealer", "Ah Kd 7s 5c 3h")):
            await rig.deal(position, cards)
        await until(lambda: len(console.table.hands) == 3, "three hands")
        assert [(h.title, " ".join(h.cards)) for h in console.table.hands] == [
            ("Seat 2", "9d 9c 3d 7d 2h"),
            ("Seat 5", NOTHING),
            ("Dealer", "Ah Kd 7s 5c 3h"),
        ]
        await until(lambda: console.seat == 2, "seat 2 preselected for its decision")
        assert "seat 2's decision" in console.table.waiting_for
        assert await console.decide("bet"), console.message
        await until(lambda: console.seat == 5, "seat 5 preselected")
        assert await console.decide("fold"), console.message
        await until(lambda: console.table.settlement is not None, "the settlement")
        view = console.table.settlement
        assert view is not None
        # From the dealer's right (seat 5) counterclockwise to seat 2.
        assert [(line.seat, line.wager, line.action, line.amount_text) for line in view.lines] == [
            (5, "ante", "COLLECT", "$25.00"),
            (5, "bonus", "COLLECT", "$5.00"),
            (5, "progressive", "COLLECTED", "$1.00"),
            (2, "ante", "PAY", "$10.00"),
            (2, "bet", "PAY", "$20.00"),
        ]
        assert console.settlement_open and view.can_close
        console.close_settlement()
        assert not console.settlement_open
        assert console.may_take_wagers
        # The last wager entered was a bonus: the next round starts at the main wager again.
        assert console.wager == "ante" and console.amount.cents == 0


@pytest.mark.asyncio
async def test_a_refusal_is_shown_in_the_daemons_words_and_changes_nothing() -> None:
    async with console_on_rig() as (rig, console):
        await enter_wager(console, 3, "ante", 10)
        await rig.press_lock_out()
        await until(lambda: console.banner == Betting.NO_MORE_BETS, "NO MORE BETS")
        console.choose_seat(3)
        assert not await console.decide("bet")
        assert console.message.startswith("seat 3: bet: refused:")
        assert "§" in console.message
        assert not console.message_ok
        assert [s.seat for s in console.table.seats] == [3]


@pytest.mark.asyncio
async def test_a_progressive_hit_waits_for_the_floorpersons_pin_before_the_round_closes() -> None:
    async with console_on_rig() as (rig, console):
        await enter_wager(console, 1, "ante", 10)
        await rig.place_chip(1)
        await rig.press_lock_out()
        await until(lambda: console.banner == Betting.NO_MORE_BETS, "NO MORE BETS")
        await rig.deal("1", ROYAL)
        # The moment the cards make the royal flush, before any decision and the meter's award:
        # the hand named with its seat, HOLD, DO NOT MUCK, CALL THE FLOOR, the meter PENDING.
        await until(lambda: bool(console.table.jackpot_hands), "the jackpot hand dealt")
        assert [(j["seat"], j["hand"]) for j in console.table.jackpot_hands] == [(1, "royal flush")]
        assert console.banner == Betting.HOLD
        assert console.waits_for.startswith("JACKPOT seat 1 royal flush: DO NOT MUCK, CALL THE FLOOR")
        assert console.jackpots_at(1) == ("JACKPOT royal flush",)
        assert console.table.meter.text == "PENDING $10,000.00"
        await rig.deal("dealer", "Ah Kd 7s 5c 3h")
        await until(lambda: ". Then: seat 1's decision" in console.waits_for, "the alert, then the decision")
        await until(lambda: console.seat == 1, "seat 1 preselected")
        assert await console.decide("bet"), console.message
        await until(lambda: console.table.settlement is not None, "the settlement")
        view = console.table.settlement
        assert view is not None
        waiting = view.waiting
        assert [(w.seat, w.wager) for w in waiting] == [(1, "progressive")]
        assert "FLOORPERSON" in waiting[0].steps
        # 100% of the meter is not paid from the table inventory container (§ 639a.11(c)(5)(iv)).
        assert waiting[0].hand_pay and waiting[0].action == "PAY"
        # 100% of the $10,000 meter; the $1 chip went to the rack at the lock-out (§ 639a.8(b)).
        assert waiting[0].net == Decimal("9999.00") and waiting[0].amount_text == "$10,000.00"
        # PENDING on the meter while the hit waits (§ 639a.11(c)(5)(iii)).
        assert console.table.meter.state is MeterState.PENDING
        assert console.table.meter.text == "PENDING $10,000.00"
        console.close_settlement()
        assert console.settlement_open and not console.may_take_wagers
        assert "floorperson must verify" in console.message
        console.ask_verification(1, "progressive", view.round_id)
        assert not await tap_pin(console, pin="999999")
        assert console.pin.open and "auth_failed" in console.pin.message
        assert console.pin.pin_dots == ""  # the PIN is never kept after the request it signed
        assert await tap_pin(console), console.pin.message
        assert not console.pin.open
        await until(lambda: not console.table.pending_payouts, "the payout verified")
        assert console.table.meter.state is MeterState.AMOUNT
        console.close_settlement()
        assert not console.settlement_open


@pytest.mark.asyncio
async def test_keyed_cards_only_while_the_shoe_is_out_of_order_and_a_void_needs_a_floorperson() -> None:
    async with console_on_rig() as (rig, console):
        await enter_wager(console, 4, "ante", 10)
        await rig.press_lock_out()
        await until(lambda: console.banner == Betting.NO_MORE_BETS, "NO MORE BETS")
        console.card_to = "4"
        console.key("cards", "A")
        console.key("cards", "s")
        assert not console.may_key_cards
        assert not await console.key_in_cards()
        assert "§ 639a.13(g)" in console.message
        assert rig.shoe is not None
        await rig.shoe.stop()
        await until(lambda: console.table.devices_out_of_order == ("shoe",), "the shoe out of order")
        assert console.may_key_cards
        for key in "KsQsJsTs":
            console.key("cards", key)
        assert console.cards.text == "As Ks Qs Js Ts"
        assert await console.key_in_cards(), console.message
        await until(lambda: len(console.table.hands) == 1, "the keyed-in hand")
        # The dealer reports the shoe: a void takes a floorperson's PIN.
        screen = console.screen
        assert screen is not None
        shoe_jam = next(c for c in screen.irregularities if c.name == "shoe_jam")
        assert not await console.report_irregularity(shoe_jam)
        assert console.pin.open and console.pin.purpose is not None
        assert console.pin.purpose.kind == "void"
        assert await tap_pin(console), console.pin.message
        await until(lambda: console.table.settlement is not None, "the void")
        view = console.table.settlement
        assert view is not None and view.void
        assert [(line.action, line.amount_text) for line in view.lines] == [("RETURN", "$10.00")]


@pytest.mark.asyncio
async def test_controller_offline_then_back_with_the_same_table() -> None:
    async with console_on_rig() as (rig, console):
        await enter_wager(console, 2, "ante", 25)
        before = console.table.seats
        await rig.stop_daemon()
        await until(lambda: console.connection.state is LinkState.OFFLINE, "controller offline")
        assert console.banner.startswith("CONTROLLER OFFLINE")
        assert not await console.decide("bet")
        assert "offline" in console.message
        await rig.start_daemon()
        await until(lambda: console.online, "the controller back")
        assert console.table.seats == before
        assert console.banner == Betting.OPEN


@pytest.mark.asyncio
async def test_a_screen_started_mid_round_shows_the_cards_dealt_before_it_connected() -> None:
    async with console_on_rig() as (rig, console):
        await enter_wager(console, 2, "ante", 10)
        await enter_wager(console, 4, "ante", 10)
        await rig.press_lock_out()
        await rig.deal("2", "9d 9c 3d 7d 2h")
        await rig.deal("4", NOTHING)
        await until(lambda: len(console.table.hands) == 2, "two hands")
        # A screen restarted now: the cards come from the daemon's status, as they were journaled.
        async with following(rig.socket) as restarted:
            await until(lambda: restarted.online, "the restarted screen online")
            assert [(h.title, " ".join(h.cards)) for h in restarted.table.hands] == [
                ("Seat 2", "9d 9c 3d 7d 2h"),
                ("Seat 4", NOTHING),
            ]
            await rig.deal("dealer", "Ah Kd 7s 5c 3h")
            await until(lambda: len(restarted.table.hands) == 3, "the dealer's hand")
            assert restarted.table.hands == console.table.hands  # each card once


@pytest.mark.asyncio
async def test_a_reported_irregularity_waits_for_a_floorperson_who_dismisses_or_confirms_it_with_a_pin() -> (
    None
):
    async with console_on_rig() as (rig, console):
        await enter_wager(console, 3, "ante", 10)
        await rig.press_lock_out()
        await until(lambda: console.banner == Betting.NO_MORE_BETS, "NO MORE BETS")
        assert console.table.floor_to_confirm == ""
        console.dismiss_reported()
        assert not console.pin.open and "no reported irregularity" in console.message
        # The dealer reports the shoe jammed: the daemon journals it as reported and the round waits.
        client = console.connection.client
        assert client is not None
        await client.submit_event({"type": "irregularity", "kind": "shoe_jam"})
        await until(
            lambda: console.table.floor_to_confirm == "shoe_jam", "the report waiting for a floorperson"
        )
        assert console.waits_for.startswith("A floorperson to confirm or dismiss the shoe jam")
        # The status says it as data too: whom the round waits for, on which irregularity.
        (waiting,) = (await client.status())["round"]["waiting"]
        assert waiting["who"] == "floorperson" and waiting["irregularity"] == "shoe_jam"
        assert waiting["reporter"] and waiting["what"] == console.table.waiting_for
        console.dismiss_reported()
        assert console.pin.open and console.pin.purpose is not None and console.pin.purpose.kind == "dismiss"
        assert await tap_pin(console), console.pin.message
        await until(lambda: console.table.floor_to_confirm == "", "the report dismissed")
        assert console.table.settlement is None or not console.table.settlement.void
        # Reported again, and this time confirmed: the round is void and the ante goes back.
        await client.submit_event({"type": "irregularity", "kind": "shoe_jam"})
        await until(lambda: console.table.floor_to_confirm == "shoe_jam", "the second report")
        console.confirm_reported()
        assert console.pin.open and console.pin.purpose is not None and console.pin.purpose.kind == "void"
        assert await tap_pin(console), console.pin.message
        await until(lambda: console.table.settlement is not None, "the void")
        view = console.table.settlement
        assert view is not None and view.void
        assert [(line.action, line.amount_text) for line in view.lines] == [("RETURN", "$10.00")]


@pytest.mark.asyncio
async def test_a_floorperson_declares_the_shoe_out_of_order_before_cards_are_keyed_by_hand() -> None:
    async with console_on_rig() as (rig, console):
        await enter_wager(console, 4, "ante", 10)
        await rig.press_lock_out()
        await until(lambda: console.banner == Betting.NO_MORE_BETS, "NO MORE BETS")
        assert console.table.keying_by_hand is None and not console.may_key_cards
        console.declare_out_of_order("shoe")
        assert console.pin.open and console.pin.purpose is not None
        assert console.pin.purpose.kind == "out_of_order"
        assert await tap_pin(console), console.pin.message
        await until(lambda: "shoe" in console.table.out_of_order, "the shoe declared out of order")
        assert console.table.keying_by_hand is not None
        assert "shoe" in console.table.devices_out_of_order
        assert console.may_key_cards
        console.card_to = "4"
        for key in "AsKsQsJsTs":
            console.key("cards", key)
        assert await console.key_in_cards(), console.message
        await until(lambda: len(console.table.hands) == 1, "the keyed-in hand")


@pytest.mark.asyncio
async def test_no_state_between_rounds_shows_the_next_round_locked_out() -> None:
    """The settlement's next round and its unlock are one transaction: no ``state`` the daemon
    publishes shows the new round (bets open) with the table still locked out, which the screen
    would flash as TABLE LOCKED OUT between every two rounds."""
    async with console_on_rig() as (rig, console), await ApiClient.connect(rig.socket) as watcher:
        await watcher.subscribe(["state"])
        notes = watcher.notifications()
        await enter_wager(console, 1, "ante", 10)
        await rig.place_chip(1)
        await rig.press_lock_out()
        await rig.deal("1", "2c 7d 9s Jh 4c")
        await rig.deal("dealer", "Ah Kd 7s 5c 3h")
        await until(lambda: console.seat == 1, "seat 1 to decide")
        first = console.table.round_id
        assert await console.decide("fold"), console.message
        seen = []
        while not seen or seen[-1]["round"] is None or seen[-1]["round"]["id"] == first:
            seen.append((await asyncio.wait_for(anext(notes), 10)).data)
        opened = [s for s in seen if s["round"] is not None and s["round"]["id"] != first]
        assert opened and all(not s["locked_out"] for s in opened), opened


@pytest.mark.asyncio
async def test_the_banner_says_paying_until_the_round_is_closed_and_the_header_names_that_round() -> None:
    """The daemon opens the next round at once; the screen says BETS OPEN only once the dealer has
    closed the settled round (a payout waiting for a floorperson: JACKPOT PENDING - HOLD), the
    header's round is the round on screen, and the settled round's cards go at its close."""
    async with console_on_rig() as (rig, console):
        await enter_wager(console, 1, "ante", 10)
        await rig.place_chip(1)
        await rig.press_lock_out()
        await rig.deal("1", ROYAL)
        await rig.deal("dealer", "Ah Kd 7s 5c 3h")
        await until(lambda: console.seat == 1, "seat 1 to decide")
        assert await console.decide("bet"), console.message
        await until(lambda: console.table.settlement is not None, "the settlement")
        view = console.table.settlement
        assert view is not None
        settled = view.round_id
        await until(lambda: console.table.round_id not in ("", settled), "the daemon's next round")
        assert console.table.betting == Betting.OPEN  # the daemon's: the next round is open
        assert console.banner == "JACKPOT PENDING - HOLD"
        assert console.waits_for == "Next: DO NOT MUCK seat 1: CALL THE FLOOR (PIN)"
        assert f"round {settled}" in console.title
        assert console.hands_shown and console.hands_shown[0].cards == tuple(ROYAL.split())
        console.ask_verification(1, "progressive", settled)
        assert await tap_pin(console), console.pin.message
        await until(lambda: not console.table.pending_payouts, "the payout verified")
        assert console.banner == "PAYING" and f"round {settled}" in console.title
        assert console.waits_for == "Next: pay and collect, then CLOSE THE ROUND"
        console.close_settlement()
        assert console.banner == Betting.OPEN
        assert f"round {console.table.round_id}" in console.title and settled not in console.title
        assert console.hands_shown == ()
