"""The screen's view-models on their own: the meter's states, the settlement's words and order,
the keypads, the PIN pad, a restarted screen. Snapshots are the daemon's own (recorded on the
bench rig) where the rig cannot make the state (a disabled link).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from sim.screen_rig import console_on_rig, enter_wager, following, until
from ui.console import Console
from ui.entry import AmountKeys, CardKeys, DiceKeys, SettingKeys
from ui.meter import MeterState, meter_view, meter_views, title_of
from ui.money import amount, dollars
from ui.pin_pad import PinPad, Purpose
from ui.settlement import settlement_view
from ui.table import Betting, TableModel

# As the daemon sends it (status after a royal flush at seat 1, recorded on the bench rig).
HIT: dict[str, Any] = {
    "round": "CS-BENCH-3",
    "status": "settled",
    "settlement": {
        "game": "caribbean-stud",
        "seats": {
            "1": {
                "ante": {"result": "win", "net": "+10.00", "stake": "10.00"},
                "bet": {"result": "win", "net": "+2000.00", "stake": "20.00"},
                "progressive": {
                    "result": "win",
                    "net": "+9999.00",
                    "stake": "1.00",
                    "flags": ["not_paid_from_inventory", "floorperson_validation"],
                },
            },
            "4": {"ante": {"result": "push", "net": "0.00", "stake": "5.00"}},
        },
        "order": [[4, "ante"], [1, "ante"], [1, "bet"], [1, "progressive"]],
        "meters": {"progressive": "10000.00"},
    },
}
PENDING = [{"round": "CS-BENCH-3", "seat": 1, "wager": "progressive", "net": "+9999.00", "flags": []}]


def test_the_meter_shows_the_amount_pending_or_unavailable() -> None:
    meters = {"progressive": "12345.67"}
    assert meter_view(meters, {"configured": False}, []).text == "$12,345.67"
    assert meter_view(meters, {"configured": False}, PENDING).state is MeterState.PENDING
    # PENDING beside the amount, never instead of it: the floor reads what the meter stood at.
    assert meter_view(meters, {"configured": False}, PENDING).text == "PENDING $12,345.67"
    assert meter_view({}, {"configured": False}, PENDING).text == "PENDING"
    disabled = {"configured": True, "enabled": False, "host": "meter", "port": 8883}
    assert meter_view(meters, disabled, []).text == "UNAVAILABLE"
    # A linked meter while progressive wagering is closed (the link's reason): the amount last
    # heard is not shown as if wagers counted toward it.
    down = "meter not heard: no word from the meter since the daemon started"
    closed = {"configured": True, "enabled": True, "unavailable": down, "progressives": {"progressive": "cs"}}
    assert meter_view(meters, closed, []).text == "UNAVAILABLE"
    assert meter_view(meters, closed, []).reason == down
    assert meter_view(meters, {**closed, "unavailable": None}, []).text == "$12,345.67"
    # PENDING before it: the floor still reads the meter a payout waits on.
    assert meter_view(meters, closed, PENDING).text == "PENDING $12,345.67"
    # A meter the table keeps itself (not on the link) at a table whose link is down: as it is.
    two = {"progressive": "12345.67", "house": "500.00"}
    assert [v.text for v in meter_views(two, closed, [])] == ["UNAVAILABLE", "$500.00"]
    assert meter_view({}, {"configured": False}, []).state is MeterState.NONE
    with pytest.raises(ValueError, match=r"round\.meters\.progressive: an amount is a decimal string"):
        meter_view({"progressive": 12.3}, {}, [])


def test_a_meter_at_its_ceiling_says_max() -> None:
    meters = {"progressive": "10000.00"}
    ceilings = {"cs-floor": {"ceiling": "10000.00", "overflow_held": "0.18"}}
    link = {"progressives": {"progressive": "cs-floor"}, "ceilings": ceilings}
    assert meter_view(meters, link, []).text == "$10,000.00 MAX"
    below = {"progressive": "9999.99"}
    assert meter_view(below, link, []).text == "$9,999.99"
    assert meter_view(meters, {"progressives": {"progressive": "cs-floor"}}, []).text == "$10,000.00"


def test_blackjacks_three_meters_each_by_name_with_its_own_amount_and_pending() -> None:
    meters = {"bad_beat": "2500.00", "hit_and_run": "1000.00", "straight_jack": "5000.00"}
    # The link's names: each progressive's meter id; the Jackpot Lock held on the Straight Jack's.
    link = {
        "configured": True,
        "enabled": True,
        "progressives": {"bad_beat": "bj-bad-beat", "hit_and_run": "bj-hit-run", "straight_jack": "bj-sj"},
        "locks": {"bj-sj": {"table": "BJ-2", "seat": 4}},
    }
    pending = [{"round": "BJ-1-7", "seat": 2, "wager": "hit_and_run", "net": "+100.00", "flags": []}]
    views = meter_views(meters, link, pending)
    assert [(v.title, v.state, v.text) for v in views] == [
        ("Bad Beat", MeterState.AMOUNT, "$2,500.00"),
        ("Hit and Run", MeterState.PENDING, "PENDING $1,000.00"),
        ("Straight Jack", MeterState.PENDING, "PENDING $5,000.00 BJ-2 seat 4"),
    ]
    # A jackpot hand dealt holds its own meter only.
    dealt = [{"seat": 1, "wager": "bad_beat", "hand": "dealer 21 in seven cards"}]
    assert [v.state for v in meter_views(meters, {}, [], dealt)] == [
        MeterState.PENDING,
        MeterState.AMOUNT,
        MeterState.AMOUNT,
    ]
    assert title_of("progressive") == "Progressive"


def test_settlement_in_the_rules_order_with_the_hand_pay_and_the_floorperson() -> None:
    view = settlement_view(HIT, PENDING)
    assert view is not None
    assert [(x.seat, x.wager, x.action, x.amount_text) for x in view.lines] == [
        (4, "ante", "PUSH", "$5.00"),
        (1, "ante", "PAY", "$10.00"),
        (1, "bet", "PAY", "$2,000.00"),
        (1, "progressive", "PAY", "$10,000.00"),
    ]
    hit = view.lines[-1]
    assert hit.hand_pay and hit.waits_for_floorperson
    assert "HAND PAY" in hit.steps and "FLOORPERSON" in hit.steps
    assert not view.can_close
    verified = settlement_view(HIT, [])
    assert verified is not None and verified.can_close
    assert "verified by floorperson" in verified.lines[-1].steps


def test_settlement_by_seat_one_total_each_with_its_stake() -> None:
    """One block per seat, in the rules' order: the stake, one total from the rack (PAY, COLLECT or
    PUSH), a hand pay apart; a progressive chip lost at no more bets is not a row of its own."""
    view = settlement_view(HIT, PENDING)
    assert view is not None
    assert [(s.seat, s.action, s.net_text, dollars(s.stake)) for s in view.seats] == [
        (4, "PUSH", "$0.00", "$5.00"),
        (1, "PAY", "+$2,010.00", "$31.00"),
    ]
    one = view.seats[1]
    assert one.hand_pay == Decimal("10000.00") and one.waits_for_floorperson
    assert one.details == "ante PAY $10.00 · bet PAY $2,000.00 · progressive HAND PAY $10,000.00"
    lost = dict(HIT, settlement=dict(HIT["settlement"], order=None))
    lost["settlement"]["seats"] = {
        "2": {
            "ante": {"result": "lose", "net": "-10.00", "stake": "10.00"},
            "progressive": {"result": "lose", "net": "-1.00", "stake": "1.00"},
        }
    }
    lost_view = settlement_view(lost, [])
    assert lost_view is not None
    (two,) = lost_view.seats
    assert (two.action, two.net_text, two.wagers) == (
        "COLLECT",
        "-$10.00",
        ("ante COLLECT $10.00", "progressive chip taken at no more bets"),
    )


def test_a_seats_wagers_open_on_touch_for_that_settlement_only(tmp_path: Path) -> None:
    """The settlement opens on every seat's block; a seat's wagers (or the dealer's hand) at length
    on touch, a seat not settled refused with its name; the next round's settlement opens on the
    blocks again."""
    console = Console(tmp_path / "no-daemon.sock")
    console.table.apply_snapshot({"game": "caribbean-stud", "last_rounds": [HIT], "pending_payouts": PENDING})
    assert console.settlement_open and console.settled_detail == ""
    console.show_settled("1")
    assert console.settled_detail == "1"
    with pytest.raises(ValueError, match="round CS-BENCH-3 has no seat '2' settled"):
        console.show_settled("2")
    assert console.settled_detail == "1"
    console.show_settled("dealer")
    assert console.settled_detail == "dealer"
    later = dict(HIT, round="CS-BENCH-4")
    console.table.apply_snapshot({"game": "caribbean-stud", "last_rounds": [later], "pending_payouts": []})
    assert console.settled_detail == ""


def test_money_is_exact_and_bad_amounts_are_named() -> None:
    assert amount("+25.10", "x") == Decimal("25.10")
    assert dollars(Decimal("-1234567.5")) == "$1,234,567.50"
    with pytest.raises(ValueError, match="seat 2 net: 'ten' is not an amount"):
        amount("ten", "seat 2 net")
    with pytest.raises(ValueError, match="an amount is a decimal string"):
        amount(10.0, "seat 2 net")


@pytest.mark.parametrize(
    "text",
    [
        "٥.٠٠",  # Arabic-Indic digits: Decimal takes them as 5.00
        "２５.００",  # fullwidth
        "२५.००",  # Devanagari
        "25.0０",  # one fullwidth digit among ASCII ones
        "1_000.00",  # Decimal takes underscores
        " 25.00",  # and spaces around
        "25.00\n",
        "1e3",
        "2.5E+1",
        "Infinity",
        "NaN",
        "25.",
        ".50",
        "25.001",
    ],
)
def test_an_amount_from_the_daemon_is_ascii_digits_only(text: str) -> None:
    """The daemon's amounts are ASCII decimal strings (``"25.00"``, ``"+25.00"``, ``"-5.00"``);
    Decimal alone takes other scripts' digits, underscores, spaces and exponents."""
    with pytest.raises(ValueError, match=r"seat 2 net: .* is not an amount"):
        amount(text, "seat 2 net")


def test_the_daemons_amounts_are_read_exactly() -> None:
    assert amount("0.00", "x") == 0
    assert amount("-5.00", "x") == Decimal("-5.00")
    assert amount("12345.67", "x") == Decimal("12345.67")
    assert amount("25", "x") == Decimal(25)
    assert amount("25.5", "x") == Decimal("25.50")


def test_the_keypads() -> None:
    keys = AmountKeys()
    for d in "25":  # whole dollars, as a dealer counts chips: "2" "5" is $25, not $0.25
        keys.press(d)
    assert keys.text == "25.00"
    keys.chip(5)
    assert keys.text == "30.00"
    keys.back()
    assert keys.text == "3.00"
    with pytest.raises(ValueError):
        keys.press("x")
    dice = DiceKeys()
    with pytest.raises(ValueError, match="three dice"):
        dice.event()
    for face in (1, 6, 3, 4):
        dice.press(face)
    assert dice.event() == {"type": "dice", "dice": [1, 6, 3]}
    with pytest.raises(ValueError, match="1 to 6"):
        dice.press(7)
    cards = CardKeys()
    with pytest.raises(ValueError, match="rank before its suit"):
        cards.press("s")
    for key in ("A", "s", "T", "d", "JKR"):
        cards.press(key)
    assert cards.text == "As Td JKR"
    setting = SettingKeys()
    setting.load(["As", "Ad", "Ks", "Kd", "Qh", "7c", "3s"])
    with pytest.raises(ValueError, match="not one of this seat's cards"):
        setting.place("2c", "low")
    with pytest.raises(ValueError, match="high, medium and low"):
        setting.place("As", "top")


def test_the_pin_pad_hides_and_forgets_the_pin() -> None:
    pad = PinPad()
    pad.start(Purpose("verify", "verify seat 1", 1, "progressive", "r1"))
    for key in "mfloor":
        pad.press(key)
    with pytest.raises(ValueError, match="not a key of the user field"):
        pad.press("1")
    pad.choose("pin")
    for key in "204816":
        pad.press(key)
    assert pad.pin_dots == "●" * 6
    credentials = pad.take()
    assert credentials is not None and credentials.pin == "204816"
    assert "204816" not in repr(credentials)
    assert pad.pin_dots == ""
    pad.done("auth_failed: wrong user name or PIN", False)
    assert pad.open and pad.field == "pin"
    assert pad.take() is None and "enter the floorperson" in pad.message


def test_an_unknown_round_state_is_shown_as_closed_and_a_table_lock_out_wins() -> None:
    table = TableModel()
    table.apply_snapshot({"game": "caribbean-stud", "round": None, "locked_out": False})
    assert table.betting == Betting.NO_ROUND
    table.apply_snapshot({"game": "caribbean-stud", "round": None, "locked_out": True})
    assert table.betting == Betting.TABLE_LOCKED


def test_the_lock_out_with_no_more_bets_reads_no_more_bets_and_a_lock_on_an_open_round_does_not() -> None:
    # The daemon journals lock_out and no_more_bets together (docs/authority.md): the status says
    # locked_out all through the dealing, and the screen shows NO MORE BETS, not the table's lock.
    table = TableModel()
    dealing = {"id": "CS-1", "no_more_bets": True, "wagers": [], "waiting_for": ""}
    table.apply_snapshot({"game": "caribbean-stud", "round": dealing, "locked_out": True})
    assert table.betting == Betting.NO_MORE_BETS
    open_round = {**dealing, "no_more_bets": False}
    table.apply_snapshot({"game": "caribbean-stud", "round": open_round, "locked_out": False})
    assert table.betting == Betting.OPEN
    table.apply_snapshot({"game": "caribbean-stud", "round": open_round, "locked_out": True})
    assert table.betting == Betting.TABLE_LOCKED


@pytest.mark.asyncio
async def test_a_restarted_screen_shows_the_same_table_and_counts_the_events_it_missed() -> None:
    async with console_on_rig() as (rig, console):
        await enter_wager(console, 3, "ante", 10)
        await rig.place_chip(3)
        await rig.press_lock_out()
        await rig.deal("3", "As Ks Qs Js 9s")
        await until(lambda: len(console.table.hands) == 1, "seat 3's cards")
        async with following(rig.socket) as restarted:
            await until(lambda: restarted.online, "the restarted screen online")
            assert restarted.table.seats == console.table.seats
            assert restarted.banner == console.banner == Betting.NO_MORE_BETS
            assert restarted.table.wager_count == console.table.wager_count
            assert restarted.table.waiting_for == console.table.waiting_for
            # The status carries the round's cards; the events before it are counted, not guessed.
            assert restarted.table.hands == console.table.hands
            assert restarted.table.unseen_events == 4
            assert console.table.unseen_events == 0


def test_a_malformed_house_way_is_an_error_naming_where() -> None:
    from ui.house_way import house_way_views

    good = {"to": "dealer", "cards": "Jd 5h 4d 2c / Tc 8s / 6h", "section": "§ 659a.11(c)"}
    (view,) = house_way_views([good])
    assert (view.high, view.medium, view.low) == (("Jd", "5h", "4d", "2c"), ("Tc", "8s"), ("6h",))
    with pytest.raises(ValueError, match=r"status round.house_way\[1\]: a setting is"):
        house_way_views([good, {"to": "dealer", "cards": "Jd 5h 4d 2c / Tc 8s"}])


def test_the_irregularity_to_confirm_is_read_from_the_waiting_data_not_the_words() -> None:
    table = TableModel()
    waiting = {"who": "floorperson", "what": "(any words)", "irregularity": "shoe_jam", "reporter": "x"}
    dealing = {"id": "CS-1", "no_more_bets": True, "wagers": [], "waiting_for": "(any words)"}
    table.apply_snapshot({"game": "caribbean-stud", "round": {**dealing, "waiting": [waiting]}})
    assert table.floor_to_confirm == "shoe_jam"
    # Words alone that look like a report, with no such item in the data: nothing to confirm.
    words = "a floorperson to confirm or dismiss the misdeal reported by the dealer: ..."
    table.apply_snapshot(
        {"game": "caribbean-stud", "round": {**dealing, "waiting_for": words, "waiting": []}}
    )
    assert table.floor_to_confirm == ""


def test_the_settle_key_is_offered_from_the_waiting_data_not_the_words() -> None:
    table = TableModel()
    words = "the dealer to settle the round; seat 3 may still surrender (§ 659a.11(d))"
    dealing = {"id": "AP-1", "no_more_bets": True, "wagers": [], "waiting_for": words}
    settle = {"who": "dealer", "what": words, "command": "settle_round"}
    table.apply_snapshot({"game": "asia-poker", "round": {**dealing, "waiting": [settle]}})
    assert table.may_settle
    # The same words with no such item (the dealer's own hand to set, say): no SETTLE key.
    dealer_sets = {"who": "dealer", "what": words}
    table.apply_snapshot({"game": "asia-poker", "round": {**dealing, "waiting": [dealer_sets]}})
    assert not table.may_settle


def test_a_seat_chosen_before_its_cards_arrive_gets_its_seven_keys_when_they_do(tmp_path: Path) -> None:
    console = Console(tmp_path / "no-daemon.sock")  # never started: the models alone
    help_ = {"name": "help", "title": "Help", "section": "§ 659a.11(a)(1)"}
    vocabulary = {"wagers": [], "decisions": [help_]}
    round_ = {"id": "AP-1", "no_more_bets": True, "wagers": [], "waiting_for": "", "cards": []}
    hints = {"seats": 6, "sets_hands": True, "start": ["dice", "position"], "dice_game": False}
    console.table.apply_snapshot(
        {"game": "asia-poker", "vocabulary": vocabulary, "screen": hints, "seq": 10, "round": round_}
    )
    console.choose_seat(2)
    assert console.setting.seven == ()
    seven = "As Ad Ks Kd Qh 7c 3s"
    note = {"seq": 11, "kind": "event", "round": "AP-1", "body": {"type": "cards", "to": "2", "cards": seven}}
    console.table.apply_note("event", note)
    assert console.setting.seven == tuple(seven.split())
    console.setting.place("As", "high")
    # Another record (a decision elsewhere) keeps what the dealer placed.
    decision = {"type": "decision", "seat": 4, "action": "help"}
    console.table.apply_note("event", {"seq": 12, "kind": "event", "round": "AP-1", "body": decision})
    assert console.setting.placed == {"As": "high"}


def test_the_screen_offers_the_daemons_vocabulary_and_names_a_malformed_term() -> None:
    from ui.games import screen_for

    vocabulary = {
        "wagers": [{"name": "ante", "title": "Ante", "section": "§ 639a.7(a)"}],
        "decisions": [{"name": "bet", "title": "Bet", "section": "§ 639a.11(b)"}],
        "irregularities": [],
    }
    hints = {"seats": 7, "sets_hands": False, "start": [], "dice_game": False}
    screen = screen_for("caribbean-stud", vocabulary, hints, "Caribbean Stud Poker")
    assert [(c.name, c.title, c.section) for c in screen.wagers] == [("ante", "Ante", "§ 639a.7(a)")]
    assert [c.name for c in screen.decisions] == ["bet"] and screen.irregularities == ()
    # The layout is the game's too (its screen hook), not a copy in the screen.
    assert (screen.title, screen.seats, screen.sets_hands) == ("Caribbean Stud Poker", 7, False)
    with pytest.raises(ValueError, match=r"status vocabulary.decisions\[0\]: a term has a name"):
        screen_for("caribbean-stud", {**vocabulary, "decisions": [{"name": "bet"}]}, hints)
    with pytest.raises(ValueError, match=r"status screen.seats"):
        screen_for("caribbean-stud", vocabulary, {**hints, "seats": "7"})
    with pytest.raises(KeyError, match="does not deal 'poker-room'"):
        screen_for("poker-room", {}, {"seats": 0})


def test_the_seat_to_preselect_and_the_step_come_from_the_waiting_data_not_the_words() -> None:
    table = TableModel()
    words = "(any words: seat 5 hand 2)"
    item = {"who": "player", "step": "decision", "what": words, "seat": 3, "hand": 1}
    dealing = {"id": "BJ-1", "no_more_bets": True, "wagers": [], "waiting_for": words}
    table.apply_snapshot({"game": "blackjack", "round": {**dealing, "waiting": [item]}})
    assert (table.waiting_seat, table.waiting_step) == ((3, 1), "decision")
    # The Quarterback's seat at a throw is no seat to preselect (the dealer enters wagers by seat).
    throw = {"who": "shoe", "step": "dice", "what": "the throw of play 2", "seat": 4}
    table.apply_snapshot({"game": "three-dice-football", "round": {**dealing, "waiting": [throw]}})
    assert (table.waiting_seat, table.waiting_step) == (None, "dice")


@pytest.mark.asyncio
async def test_the_wagers_decisions_and_irregularities_come_from_the_daemon() -> None:
    async with console_on_rig("blackjack") as (_rig, console):
        client = console.connection.client
        assert client is not None
        served = (await client.status())["vocabulary"]
        screen = console.screen
        assert screen is not None
        for part in ("wagers", "decisions", "irregularities"):
            shown = [(c.name, c.title, c.section) for c in getattr(screen, part)]
            assert shown == [(t["name"], t["title"], t["section"]) for t in served[part]], part
        assert "split" in [c.name for c in screen.decisions]


def test_the_dealers_words_drop_citations_and_internal_names() -> None:
    from ui.words import dealer_words

    assert dealer_words("Seat 2's decision, bet or fold (§ 639a.11(b))") == "Seat 2's decision, bet or fold"
    assert dealer_words("The dealer's 'no more bets' (§ 639a.8(b))") == "The dealer's 'no more bets'"
    assert dealer_words("seat 1 hand 0: shoe_jam reported") == "seat 1: shoe jam reported"
    # An aside in the journal's words goes; one in the dealer's stays.
    meter = "the progressive meter (a meter event, or meters.progressive in the record): a wager is paid"
    assert dealer_words(meter) == "the progressive meter: a wager is paid"
    assert dealer_words("seat 3 (the last to act) to decide") == "seat 3 (the last to act) to decide"
    # The game's own names in its vocabulary's words; the peer's uid as the dealer's station.
    titles = {"shoe_jam": "Shoe jammed", "accept_dice": "Accept the dice", "bet": "Bet"}
    assert dealer_words("a floorperson to confirm or dismiss the shoe_jam reported by uid:0", titles) == (
        "a floorperson to confirm or dismiss the shoe jammed reported by the dealer's station"
    )
    assert dealer_words("seat 4: accept_dice", titles) == "seat 4: accept the dice"
    assert dealer_words("seat 2: bet", titles) == "seat 2: bet"
