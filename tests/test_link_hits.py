"""Two hits on one progressive in one round at one table: each player is paid the meter as it
stands when that player is paid (§ 639a.12(d)(4)). The real daemon, a real Mosquitto (the shipped
configuration) and the central meter; the cards from the bench rig's shoe, the Progressive Payout
Wagers from the sensors."""

from __future__ import annotations

import asyncio
from fractions import Fraction
from pathlib import Path

import pytest

from controller.api_client import ApiClient
from controller.journal.reader import JournalReader
from controller.tablectl import main as tablectl_main
from sim.link_rig import PARAMS
from wire import Award

from .mosquitto import Pki
from .table_link import api_round, linked_table
from .test_link_table import contribution_seqs, daemon_of, meter_amount, money_text, until

pytestmark = pytest.mark.asyncio

ROYAL = "As Ks Qs Js Ts"
STRAIGHT_FLUSH = "9h 8h 7h 6h 5h"
"""10% of the meter on the example's paytable B (§ 639a.12(d)(1))."""
DEALER = "2c 7d 9c 4s 3d"


def share(meter: int, percent: int) -> int:
    return int(meter * Fraction(percent, 100))


@pytest.mark.parametrize(
    ("seat_2", "seat_1"),
    [(ROYAL, STRAIGHT_FLUSH), (STRAIGHT_FLUSH, ROYAL)],
    ids=["100%-then-10%", "10%-then-100%"],
)
async def test_two_hits_in_one_round_are_each_paid_the_meter_as_it_stands(
    tmp_path: Path, pki: Pki, seat_2: str, seat_1: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seats 2 and 1 both hit the progressive: the rules pay seat 2 first (§ 639a.11(c), from the
    player farthest to the dealer's right), so the table claims in that order, the meter awards
    each claim from the meter as it stands then, and each seat is settled from its own award;
    the meter, the awards and the table agree, and the journal replays to the same settlement."""
    async with linked_table(tmp_path, pki, "t1") as (link, rig):
        daemon = daemon_of(rig)
        async with await ApiClient.connect(rig.socket) as api:
            for _ in range(3):
                await api_round(api, rig)
            round_id = daemon.round_id
            assert round_id is not None
            for seat in (1, 2):
                await rig.place_chip(seat)
                await api.submit_event({"type": "wager", "seat": seat, "wager": "ante", "amount": "10.00"})
            await api.submit_event({"type": "no_more_bets"})
            await rig.deal(1, seat_1)
            await rig.deal(2, seat_2)
            await rig.deal("dealer", DEALER)
            last = max(contribution_seqs(Path(str(daemon.config.journal.path))))
            assert daemon.link is not None
            publisher = daemon.link.publisher
            await until(lambda: publisher.state.applied_seq >= last, 10, "the contributions")
            # Three rounds of one 1.00 wager, and this round's two.
            meter = PARAMS.initial + int(Fraction(5 * 100) * PARAMS.rate / 100)
            assert meter_amount(link) == meter
            await api.submit_event({"type": "decision", "seat": 1, "action": "bet"})
            await api.submit_event({"type": "decision", "seat": 2, "action": "bet"})
            await until(lambda: daemon.round_id != round_id, 15, "both awards settling the round")

            awards: list[Award] = sorted(publisher.state.awards.values(), key=lambda a: a.award_seq)
            # Claimed in the order the rules pay them: seat 2, then seat 1.
            hits = await daemon.journal.outbox_of_round(round_id, "hit") if daemon.journal else []
            by_seq = {h.seq: h.payload["seat"] for h in hits}
            assert [by_seq[a.seq] for a in awards] == [2, 1]
            first, second = awards
            percent = {ROYAL: 100, STRAIGHT_FLUSH: 10}
            assert first.meter_before == meter
            assert first.paid == share(meter, percent[seat_2])
            # The second is paid from the meter as the first left it (§ 639a.12(d)(4)).
            assert second.meter_before == first.meter_after
            assert second.paid == share(second.meter_before, percent[seat_1])
            if percent[seat_2] == 100:
                assert first.meter_after == PARAMS.reset
                assert meter_amount(link) == second.meter_before - second.paid
            else:
                assert meter_amount(link) == PARAMS.reset

            rounds = (await api.list_rounds(5))["rounds"]
            summary = next(r for r in rounds if r["round"] == round_id)
            seats = summary["settlement"]["seats"]
            # Each seat's net is its own award less its 1.00 wager (collected since "no more bets").
            assert seats["2"]["progressive"]["net"] == f"+{money_text(first.paid - 100)}"
            assert seats["1"]["progressive"]["net"] == f"+{money_text(second.paid - 100)}"
            assert daemon.journal is not None
            recalled = await daemon.journal.recall(round_id)
            assert recalled.consistent and recalled.replayed is not None
            replayed = recalled.replayed.to_json()["seats"]
            assert replayed["1"]["progressive"]["net"] == seats["1"]["progressive"]["net"]

            # The award whole in the journal: each seat's meter event holds which award of the
            # meter it is, the meter's record of it, what it paid and the meter after.
            seat_meters = [
                r.body for r in recalled.records if r.body.get("type") == "meter" and "seat" in r.body
            ]
            assert seat_meters == [
                {
                    "type": "meter",
                    "name": "progressive",
                    "amount": money_text(a.meter_before),
                    "seat": seat,
                    "award_seq": a.award_seq,
                    "meter_record": a.record_seq,
                    "paid": money_text(a.paid),
                    "meter_after": money_text(a.meter_after),
                }
                for seat, a in ((2, first), (1, second))
            ]
            # A floorperson validating each hand pay sees on status which award of the meter it is.
            status = await api.status()
            pending = {
                (p["seat"], p["wager"]): p for p in status["pending_payouts"] if p["round"] == round_id
            }
            for seat, a in ((2, first), (1, second)):
                shown = pending[seat, "progressive"]["award"]
                assert shown == {
                    "award_seq": a.award_seq,
                    "meter_record": a.record_seq,
                    "meter_before": money_text(a.meter_before),
                    "paid": money_text(a.paid),
                    "meter_after": money_text(a.meter_after),
                }
        # Recovery from the journal is its replay from seq 1, and the daemon's round (its awards too).
        journal = str(daemon.config.journal.path)
        with JournalReader(Path(journal), "t1") as reader:
            # verify() folds both in one read snapshot (the daemon journals on meanwhile) and
            # raises JournalCorrupt if recovery is not the full replay.
            recovered = reader.verify()
        ours = [r for r in daemon.state.recent if r.round_id == round_id]
        assert [r for r in recovered.recent if r.round_id == round_id] == ours
        assert ours[0].awards and set(ours[0].awards) == {(1, "progressive"), (2, "progressive")}
        assert [p for p in recovered.pending_payouts() if p.round_id == round_id] == [
            p for p in daemon.state.pending_payouts() if p.round_id == round_id
        ]
        # tablectl recall (from the journal file) and tablectl status say the same.
        assert await asyncio.to_thread(tablectl_main, ["recall", round_id, "--journal", journal]) == 0
        out = capsys.readouterr().out
        for seat, a in ((2, first), (1, second)):
            assert (
                f"seat {seat} progressive: the central meter's award {a.award_seq} "
                f"(its record {a.record_seq}): paid {money_text(a.paid)} "
                f"of the meter at {money_text(a.meter_before)}, "
                f"the meter after {money_text(a.meter_after)}"
            ) in out
        assert await asyncio.to_thread(tablectl_main, ["status", "--socket", str(rig.socket)]) == 0
        out = capsys.readouterr().out
        assert f"the central meter's award {first.award_seq} (its record {first.record_seq})" in out
