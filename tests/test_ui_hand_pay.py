"""The screen's key for a progressive claim the central meter REFUSED (issue 19): the Kivy screen
under its own Xvfb, driven by touches, on the real daemon linked through a real Mosquitto to the
real meter service, whose paytable disagrees with the table's (the claim refused). The
floorperson keys in the meter read on its display, types his own reason on the words keypad,
signs with the PIN (his name from the daemon's list): the round settles from that meter, journaled
from the floorperson with the reason (``claim_hand_pay``, docs/progressive-link.md "The award handshake")."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from controller.api_client import ApiClient
from meter.config import load
from sim.bench_rig import BENCH_FLOOR
from sim.link_rig import meter_config
from sim.screen_display import (
    cut_off,
    out_of_view,
    running_app,
    small_targets,
)
from sim.screen_rig import following
from ui.hand_pay import MAX_TYPED, OTHER_PREFIX, REASONS, HandPayEntry, claims_to_settle

from .meter_link import running_link
from .mosquitto import Pki
from .table_link import api_round, daemon_of, linked_rig, linked_table, until, wagering_open
from .test_link_claims import DISAGREES
from .test_link_table import royal_until_decision, settled_progressive


def test_the_claims_a_floorperson_settles_are_read_from_the_links_status() -> None:
    link = {
        "progressives": {"progressive": "cs-floor"},
        "pending": [
            {
                "seat": 1,
                "progressive": "cs-floor",
                "status": "REFUSED",
                "field": "hand",
                "reason": "no such row",
            },
            {"seat": 2, "progressive": "cs-floor", "status": "PENDING"},
            {"seat": 3, "progressive": "cs-floor", "status": "TIMED OUT", "field": None, "reason": "late"},
        ],
    }
    claims = claims_to_settle(link)
    assert [(c.seat, c.wager, c.status) for c in claims] == [
        (1, "progressive", "REFUSED"),
        (3, "progressive", "TIMED OUT"),
    ]
    entry = HandPayEntry()
    assert entry.problem(claims) == "choose the seat's claim"
    entry.choose(claims, "3:progressive")
    assert entry.problem(claims) == "key in the meter's amount read on its display"
    for d in "1000072":
        entry.press(d)
    assert (entry.meter, entry.shown) == ("10000.72", "$10,000.72")
    entry.back()
    assert entry.meter == "1000.07"
    assert entry.problem(claims) == "choose a reason"
    entry.choose_reason("Display read")
    assert entry.problem(claims) == "" and entry.reason_text == REASONS["Display read"]
    with pytest.raises(ValueError, match="no claim '2:progressive'"):
        entry.choose(claims, "2:progressive")
    with pytest.raises(ValueError, match="digits 0-9"):
        entry.press("٥")


#: The floorperson's own reason, typed by touch.
TYPED = "display read by f-17, meter 10,000.72"


def test_the_floorpersons_own_reason_is_typed_bounded_and_journaled_as_typed() -> None:
    entry = HandPayEntry()
    entry.choose_reason("Other")
    assert entry.typing and entry.reason_text == ""
    for char in "seen  on camera":
        entry.type("space" if char == " " else char)
    assert entry.words == "seen on camera"  # one space between words
    entry.type("back")
    entry.done_typing()
    assert not entry.typing and entry.reason_text == OTHER_PREFIX + "seen on camer"
    for _ in range(MAX_TYPED + 5):
        entry.type("z")
    assert len(entry.words) == MAX_TYPED
    with pytest.raises(ValueError, match="the words keypad has letters"):
        entry.type("\n")
    with pytest.raises(ValueError, match="not 'Z'"):
        entry.type("Z")
    entry.choose_reason("Display read")
    assert not entry.typing and entry.reason_text == REASONS["Display read"]
    entry.clear()
    assert (entry.reason, entry.words, entry.typing) == ("", "", False)


@pytest.mark.asyncio
async def test_a_refused_claim_is_hand_paid_by_touch_with_the_floorpersons_pin(
    display: str, tmp_path: Path, pki: Pki
) -> None:
    async with (
        running_app(800, 480) as screen,
        linked_table(tmp_path, pki, "t1", paytable=DISAGREES) as (_link, rig),
        following(rig.socket) as console,
    ):
        daemon = daemon_of(rig)
        await until(lambda: console.online, 10, "the screen online")
        await screen.show(console)
        async with await ApiClient.connect(rig.socket) as api:
            await api_round(api, rig)
            round_id = str(daemon.round_id)
            await royal_until_decision(api, rig)
            await api.submit_event({"type": "decision", "seat": 1, "action": "bet"})
            await until(
                lambda: any(c.status == "REFUSED" for c in console.claims), 15, "the refusal on screen"
            )
            await until(lambda: console.panel == "claim", 20, "the hand pay panel")
            await screen.frames(3)
            assert cut_off(screen) == [] and small_targets(screen) == []
            assert out_of_view(screen) == [], "\n".join(out_of_view(screen))
            # Not signed yet: the key says what is missing and sends nothing.
            await screen.tap("hand-pay")
            assert not console.pin.open and "meter's amount" in console.message
            for digit in "1000072":
                await screen.tap(f"meter:{digit}")
            # His own reason, typed on the words keypad (every key in view, at 9 mm).
            await screen.tap("reason:Other")
            await screen.frames(3)
            assert cut_off(screen) == [] and small_targets(screen) == []
            assert out_of_view(screen) == [], "\n".join(out_of_view(screen))
            await screen.tap("words:done")
            await screen.tap("hand-pay")
            assert not console.pin.open and "type the reason" in console.message
            await screen.tap("reason:Other")
            for char in TYPED:
                await screen.tap("words:space" if char == " " else f"words:{char}")
            await screen.tap("words:x")
            await screen.tap("words:back")
            await screen.tap("words:done")
            assert console.hand_pay.meter == "10000.72"
            await screen.tap("hand-pay")
            assert console.pin.open and console.pin.purpose is not None
            assert console.pin.purpose.kind == "hand_pay"
            await until(lambda: BENCH_FLOOR.user in console.pin.names, 20, "the floorpersons' names")
            await screen.frames(3)
            assert cut_off(screen) == [] and out_of_view(screen) == []
            for digit in BENCH_FLOOR.pin:
                await screen.tap(f"pin:{digit}")
            await screen.tap(f"floor:{BENCH_FLOOR.user}")  # the name signs
            await until(lambda: daemon.round_id != round_id, 10, "the round settled")
            await until(lambda: not console.pin.open, 20, "the PIN pad closed on the answer")
            line = await settled_progressive(api, round_id)
            assert Decimal(str(line["net"])) == Decimal("9999.72")  # 100% of 10,000.72 less the 1.00 stake
            recalled = await api.recall_round(round_id, auth=BENCH_FLOOR)
            meters = [
                r for r in recalled["records"] if r["kind"] == "event" and r["body"].get("type") == "meter"
            ]
            seat = next(r for r in meters if r["body"].get("seat") == 1)
            assert (seat["source"], seat["actor"], seat["body"]["detail"]) == (
                "floor",
                BENCH_FLOOR.user,
                OTHER_PREFIX + TYPED,
            )
            await until(lambda: not console.claims, 10, "no claim waits any more")


@pytest.mark.asyncio
async def test_a_timed_out_claim_shows_on_the_screen_and_is_hand_paid(tmp_path: Path, pki: Pki) -> None:
    """The meter gone before the claim: no award within its award timeout (10 s). The screen learns
    it from the link's own notification (no journal record marks the moment) and the floorperson
    hand-pays it from the console, his name from the daemon's list signing."""
    async with running_link(tmp_path, pki, {"t1": "site-a"}, meter=False) as link:
        link.config_path = meter_config(
            tmp_path / "meter", link.broker, pki, {"t1": "site-a"}, award_timeout=10
        )
        link.config = load(link.config_path)
        await link.start_meter()
        async with linked_rig(tmp_path, pki, link.broker, "t1") as rig, following(rig.socket) as console:
            daemon = daemon_of(rig)
            await wagering_open(rig)
            async with await ApiClient.connect(rig.socket) as api:
                await api_round(api, rig)
                await until(
                    lambda: daemon.snapshot()["link"]["award_timeout_seconds"] == 10, 10, "the timeout"
                )
                round_id = str(daemon.round_id)
                await royal_until_decision(api, rig)
                await link.stop_meter()  # the meter goes away before the claim
                await api.submit_event({"type": "decision", "seat": 1, "action": "bet"})
                await until(
                    lambda: any(c.status == "TIMED OUT" for c in console.claims), 20, "TIMED OUT on screen"
                )
                assert console.panel == "claim"
                for digit in "1000000":
                    console.key("meter", digit)
                console.key("reason", "No award in time")
                console.ask_hand_pay()
                assert console.pin.purpose is not None and console.pin.purpose.kind == "hand_pay"
                await until(lambda: BENCH_FLOOR.user in console.pin.names, 20, "the floorpersons' names")
                for digit in BENCH_FLOOR.pin:
                    console.pin.press(digit)
                assert await console.pick_floorperson(BENCH_FLOOR.user), console.pin.message
                await until(lambda: daemon.round_id != round_id, 10, "the round settled")
                line = await settled_progressive(api, round_id)
                assert Decimal(str(line["net"])) == Decimal("9999.00")
