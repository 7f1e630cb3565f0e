"""The award handshake at the meter (issue 17, point 4), on a real Mosquitto: claim -> the meter's
award (the amount locked, the Jackpot Lock on) -> the table's ``paid`` (or a floorperson's
``void``) -> the meter's acknowledgement (``closed``), which ends the lock; each a record of the
meter's store, exactly once (docs/progressive-link.md, "The award handshake")."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest

from meter.config import ConfigError, load
from meter.ledger import Ledger
from meter.service import meter_status
from meter.store import iter_records
from sim.link_rig import PARAMS, PROGRESSIVE, meter_config, meter_process
from sim.sim_table import SimTable
from wire import Paid, Share, decode_meter_message, encode, format_money

from .meter_link import running_link
from .mosquitto import Broker, Pki

pytestmark = pytest.mark.asyncio


def kinds(path: Path) -> list[tuple[str, str | None, int | None]]:
    conn = sqlite3.connect(path)
    try:
        return [(r.kind, r.table_id, r.table_seq) for r, *_ in iter_records(conn, path)]
    finally:
        conn.close()


def folded(path: Path) -> Ledger:
    ledger = Ledger()
    conn = sqlite3.connect(path)
    try:
        for record, *_ in iter_records(conn, path):
            ledger.fold(record)
    finally:
        conn.close()
    return ledger


async def test_paid_closes_the_award_void_returns_it_and_a_refused_claim_is_closed_too(
    tmp_path: Path, pki: Pki
) -> None:
    async with running_link(tmp_path, pki, {"t1": "site-a", "t2": "site-a"}) as link:
        t1, t2 = link.table("t1"), link.table("t2")
        t1.declare()
        t2.declare()
        t1.contribute(100_000, 10)  # 18% of 1,000.00: the meter at 10,180.00
        await t1.all_acked()
        await t2.all_acked()
        # A 10% award, then a void: the meter gets back what the award took off it.
        h = t1.hit(Share(Fraction(10)), seat=2, hand="straight flush")
        await t1.wait(lambda: h.seq in t1.awards, 10, "the award")
        assert t1.awards[h.seq].paid == 101_800
        t2.contribute(10_000, 1)  # meanwhile: 18.00 more
        await t2.all_acked()
        v = t1.void(h.seq, "floorperson F-17: the shoe misread seat 2's third card")
        await t1.wait(lambda: h.seq in t1.closed, 10, "the meter's acknowledgement of the void")
        assert (t1.closed[h.seq].outcome, t1.closed[h.seq].seq) == ("void", v.seq)
        await t2.wait(
            lambda: (
                t2.amounts[PROGRESSIVE].pending is None
                and t2.amounts[PROGRESSIVE].amount == PARAMS.initial + 18_000 + 1_800
            ),
            5,
            "the lock ended and the award returned",
        )
        # A paid that is not the award's amount is refused, the lock stays until the right one.
        h2 = t2.hit(Share(Fraction(100)), seat=4)
        await t2.wait(lambda: h2.seq in t2.awards, 10, "t2's award")
        wrong = t2.paid(h2.seq, t2.awards[h2.seq].paid + 1)
        await t2.wait(lambda: wrong.seq in t2.refusals, 10, "the wrong paid refused")
        assert t2.refusals[wrong.seq].field == "payload.paid"
        assert t2.amounts[PROGRESSIVE].pending is not None
        # The floorperson settled it at the table (the meter away, the claim timed out there): its
        # hand pay is recorded beside the award's, and closes it.
        right = t2.add(Paid(PROGRESSIVE, h2.seq, 1_234_500, by_floorperson=True))
        await t2.wait(lambda: h2.seq in t2.closed, 10, "the paid acknowledged")
        await t1.wait(lambda: t1.amounts[PROGRESSIVE].pending is None, 5, "the lock ended on t1")
        # A claim the meter refused (cards that do not make the row), settled at the table by a
        # floorperson's hand pay: the meter records it and acknowledges, no award to close.
        bad = t1.hit(Share(Fraction(100)), seat=1, cards=("2c", "2d", "9s", "Jh", "4c"))
        await t1.wait(lambda: bad.seq in t1.refusals, 10, "the refused claim")
        settled = t1.paid(bad.seq, 50_000)
        await t1.wait(lambda: bad.seq in t1.closed, 10, "the hand pay acknowledged")
        assert (t1.closed[bad.seq].award_seq, t1.closed[bad.seq].outcome) == (None, "paid")
        # A paid of what is no claim, and a second close of the same hit: refused.
        again = t1.paid(bad.seq, 50_000)
        nothing = t1.void(1, "no claim at seq 1")
        await t1.all_acked()
        await t1.wait(lambda: {again.seq, nothing.seq} <= set(t1.refusals), 10, "both refused")
        assert t1.refusals[nothing.seq].field == "payload.hit_seq"
        assert link.store is not None
        records = kinds(link.store.path)
        assert [k for k, *_ in records].count("paid") == 2 and [k for k, *_ in records].count("void") == 1
        assert ("paid", "t2", right.seq) in records and ("void", "t1", v.seq) in records
        assert ("paid", "t1", settled.seq) in records
        (by_floor,) = [
            r
            for r, *_ in iter_records(link.store.conn, link.store.path)
            if (r.table_id, r.table_seq) == ("t2", right.seq)
        ]
        assert by_floor.body["paid"] == "12345.00" and by_floor.body["by_floorperson"] is True
        assert by_floor.body["award_paid"] == format_money(t2.awards[h2.seq].paid)
        ledger = folded(link.store.path)
        assert not ledger.open_awards and not ledger.refused_hits
        assert ledger.progressives[PROGRESSIVE].pending is None


async def test_the_lock_passes_to_the_latest_award_still_open(tmp_path: Path, pki: Pki) -> None:
    async with running_link(tmp_path, pki, {"t1": "site-a", "t2": "site-a"}) as link:
        t1, t2 = link.table("t1"), link.table("t2")
        t1.declare()
        t2.declare()
        h1 = t1.hit(Share(Fraction(10)), seat=1, hand="straight flush")
        await t1.wait(lambda: h1.seq in t1.awards, 10, "t1's award")
        h2 = t2.hit(Share(Fraction(10)), seat=6, hand="straight flush")
        await t2.wait(lambda: h2.seq in t2.awards, 10, "t2's award")
        t2.paid(h2.seq, t2.awards[h2.seq].paid)
        await t2.wait(lambda: h2.seq in t2.closed, 10, "t2's paid acknowledged")
        # t2's award closed first: t1's, still open, holds the lock again.
        await t2.wait(
            lambda: (p := t2.amounts[PROGRESSIVE].pending) is not None and (p.table, p.seat) == ("t1", 1),
            5,
            "t1's hit PENDING again",
        )
        t1.paid(h1.seq, t1.awards[h1.seq].paid)
        await t2.wait(lambda: t2.amounts[PROGRESSIVE].pending is None, 5, "no lock")


async def test_a_kill_9_of_the_meter_between_award_and_paid_loses_and_doubles_nothing(
    tmp_path: Path, pki: Pki
) -> None:
    broker = Broker(tmp_path, pki)
    broker.start()
    config = meter_config(tmp_path / "meter", broker, pki, {"t1": "site-a", "t2": "site-a"})
    log = tmp_path / "meter.log"
    meter = meter_process(config, log)
    stop = asyncio.Event()
    t1, t2 = SimTable("t1", "site-a", broker, pki), SimTable("t2", "site-a", broker, pki)
    tasks = [asyncio.create_task(t.run(stop)) for t in (t1, t2)]
    try:
        t1.declare()
        t2.declare()
        for _ in range(20):
            t1.contribute(2_500, 5)
            t2.contribute(1_000, 2)
        h = t1.hit(Share(Fraction(100)), seat=3)
        await t1.wait(lambda: h.seq in t1.awards, 20, "the award")
        award = t1.awards[h.seq]
        os.kill(meter.pid, signal.SIGKILL)  # between the award and the table's paid
        meter.wait()
        paid = t1.paid(h.seq, award.paid)  # sent while the meter is down: waits on the broker
        for _ in range(5):
            t2.contribute(1_000, 2)
        await asyncio.sleep(1.0)
        meter = meter_process(config, log)
        await t1.wait(lambda: h.seq in t1.closed, 30, "the paid acknowledged by the new meter")
        await t1.all_acked(30)
        await t2.all_acked(30)
        assert t1.closed[h.seq].seq == paid.seq and t1.awards[h.seq] == award  # the same award
        await t2.wait(
            lambda: t2.amounts.get(PROGRESSIVE) is not None and t2.amounts[PROGRESSIVE].pending is None,
            10,
            "the lock ended",
        )
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        meter.terminate()
        meter.wait(timeout=10)
        broker.stop()
    store = load(config).store
    records = kinds(store)
    assert [k for k, t, s in records if k == "award"] == ["award"]
    assert [(k, t, s) for k, t, s in records if k == "paid"] == [("paid", "t1", paid.seq)]
    for table, sent in (("t1", t1.outbox), ("t2", t2.outbox)):
        assert [s for k, t, s in records if t == table] == [m.seq for m in sent]  # each once, in order
    ledger = folded(store)
    p = ledger.progressives[PROGRESSIVE]
    wagered = 20 * 2_500 + 25 * 1_000
    assert (p.wagered, p.awards, p.paid) == (wagered, 1, award.paid)
    # Exact to the cent: every wager's 18% in, the one award's take out (a 100% award: to the reset).
    assert award.meter_after == PARAMS.reset
    assert p.amount == PARAMS.initial + wagered * 18 // 100 - (award.meter_before - award.meter_after)
    assert not ledger.open_awards and p.pending is None


@pytest.mark.filterwarnings("ignore::pytest.PytestWarning")
def test_the_award_timeout_is_bounded_named_and_told(tmp_path: Path, pki: Pki) -> None:
    broker = Broker(tmp_path, pki)
    path = meter_config(tmp_path / "meter", broker, pki, {"t1": "site-a"})
    assert load(path).award_timeout_seconds == 120  # the default
    text = path.read_text()
    for bad in ("0", "5", "3601", '"60"', "true"):
        path.write_text(text.replace("[link]\n", f"[link]\naward_timeout_seconds = {bad}\n"))
        with pytest.raises(ConfigError, match=r"\[link\] award_timeout_seconds: .*from 10 to 3600"):
            load(path)
    path.write_text(text.replace("[link]\n", "[link]\naward_timeout_seconds = 90\n"))
    config = load(path)
    assert config.award_timeout_seconds == 90
    status = meter_status(config, "online", 3)
    ref = config.topics.parse(config.topics.meter_status())
    assert decode_meter_message(encode(status), ref).award_timeout_seconds == 90  # type: ignore[union-attr]
