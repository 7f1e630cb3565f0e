"""The Jackpot Lock across the link (issue 17, point 5), on a real Mosquitto: while the meter
awards a hit on a progressive, every table on it shows PENDING with the table and seat that hit,
and the other tables' contributions are applied meanwhile (docs/progressive-link.md)."""

from __future__ import annotations

import json
import sqlite3
import time
from fractions import Fraction
from pathlib import Path

import pytest

from controller.link.state import LinkState
from controller.tablectl.link import describe_link
from meter.ledger import Ledger
from meter.store import iter_records
from sim.link_rig import PARAMS, PROGRESSIVE
from sim.sim_table import SimTable
from ui.meter import MeterState, meter_view
from wire import Pending, Share, WireError, decode_table_message

from .meter_link import running_link
from .mosquitto import Pki

pytestmark = pytest.mark.asyncio


def lock(t: SimTable) -> Pending | None:
    amount = t.amounts.get(PROGRESSIVE)
    return None if amount is None else amount.pending


def shown(t: SimTable) -> LinkState:
    """The table's link state as the daemon keeps it, fed the amount that came on the broker."""
    state = LinkState(timeout=30)
    state.heard(t.amounts[PROGRESSIVE])
    return state


async def test_two_tables_show_pending_during_ones_hit_and_the_other_contributes(
    tmp_path: Path, pki: Pki
) -> None:
    async with running_link(tmp_path, pki, {"t1": "site-a", "t2": "site-a"}) as link:
        t1, t2 = link.table("t1"), link.table("t2")
        t1.declare()
        t2.declare()
        for _ in range(5):
            t1.contribute(2500, 5)
            t2.contribute(1000, 2)
        await t1.all_acked()
        await t2.all_acked()
        for t in (t1, t2):
            await t.wait(lambda t=t: t.amounts.get(PROGRESSIVE) is not None, 5, "the amount")
            assert lock(t) is None
        hit_at = time.time_ns() - 1_500_000_000  # the table's own clock, 1.5 s before the claim
        h = t1.hit(Share(Fraction(10)), seat=3, hand="straight flush", hit_wall_ns=hit_at)
        await t1.wait(lambda: h.seq in t1.awards, 10, "t1's award")
        award = t1.awards[h.seq]
        want = Pending("t1", 3, award.award_seq, hit_at)
        for t in (t1, t2):
            await t.wait(lambda t=t: lock(t) == want, 5, "PENDING on the meter's amount")
        # Contributions elsewhere go on: t2's are applied while t1's hit is being awarded.
        before = t2.amounts[PROGRESSIVE].amount
        for _ in range(3):
            t2.contribute(10_000, 1)
        await t2.all_acked()
        for t in (t1, t2):
            await t.wait(
                lambda t=t: t.amounts[PROGRESSIVE].amount == before + 3 * 1800, 5, "t2's contributions"
            )
            assert lock(t) == want  # still PENDING, on both
        # What the daemon, tablectl link and the dealer's screen show at t2 (the other table).
        status = shown(t2).to_json()
        assert status["locks"] == {PROGRESSIVE: want.to_json()}
        words = "\n".join(describe_link({**status, "configured": True, "host": "meter", "port": 8883}))
        assert "PENDING: a hit at table t1 seat 3 is being awarded" in words
        view = meter_view({"progressive": "1.00"}, status, [])
        assert view.state is MeterState.PENDING and view.text == "PENDING $1.00 t1 seat 3"
        # The hitting table deals on: its next contribution does not end the lock; its paid does.
        t1.contribute(2500, 5)
        await t1.all_acked()
        for t in (t1, t2):
            await t.wait(lambda t=t: t.amounts[PROGRESSIVE].amount == before + 3 * 1800 + 450, 5, "t1's")
            assert lock(t) == want
        paid = t1.paid(h.seq, award.paid)
        await t1.wait(lambda: h.seq in t1.closed, 10, "the meter's acknowledgement of the paid")
        closed = t1.closed[h.seq]
        assert (closed.seq, closed.outcome, closed.award_seq) == (paid.seq, "paid", award.award_seq)
        for t in (t1, t2):
            await t.wait(lambda t=t: lock(t) is None, 5, "the lock cleared")
        assert meter_view({"progressive": "1.00"}, shown(t2).to_json(), []).text == "$1.00"
        # The hit time travels with the claim and is kept in the meter's history.
        assert link.store is not None
        conn = sqlite3.connect(link.store.path)
        (body,) = conn.execute("SELECT body FROM records WHERE kind = 'award'").fetchone()
        conn.close()
        assert json.loads(body)["hit_wall_ns"] == hit_at


async def test_awards_are_ordered_as_the_meter_receives_claims_and_the_last_holds_the_lock(
    tmp_path: Path, pki: Pki
) -> None:
    async with running_link(tmp_path, pki, {"t1": "site-a", "t2": "site-a"}) as link:
        t1, t2 = link.table("t1"), link.table("t2")
        t1.declare()
        t2.declare()
        await t1.all_acked()
        await t2.all_acked()
        # t2's hand was made known first at its table, but its claim reaches the meter second.
        h1 = t1.hit(Share(Fraction(100)), seat=1, hit_wall_ns=2_000)
        await t1.wait(lambda: h1.seq in t1.awards, 10, "t1's award")
        h2 = t2.hit(Share(Fraction(100)), seat=6, hit_wall_ns=1_000)
        await t2.wait(lambda: h2.seq in t2.awards, 10, "t2's award")
        assert (t1.awards[h1.seq].award_seq, t2.awards[h2.seq].award_seq) == (1, 2)
        assert t1.awards[h1.seq].paid == PARAMS.initial
        for t in (t1, t2):
            await t.wait(lambda t=t: lock(t) == Pending("t2", 6, 2, 1_000), 5, "t2's hit PENDING")
        # The fold of the records gives the same lock (a restarted meter publishes it again).
        assert link.store is not None
        again = Ledger()
        conn = sqlite3.connect(link.store.path)
        for record, *_ in iter_records(conn, link.store.path):
            again.fold(record)
        conn.close()
        assert again.progressives[PROGRESSIVE].pending == Pending("t2", 6, 2, 1_000)


@pytest.mark.filterwarnings("ignore::pytest.PytestWarning")
def test_the_hit_time_is_bounded_on_the_wire() -> None:
    t = SimTable("t1", "site-a", None, None)  # type: ignore[arg-type]
    m = t.hit(Share(Fraction(100)), hit_wall_ns=1_796_000_000_000_000_000)
    assert decode_table_message(m.encode()).payload == m.payload
    for bad in (0, -1, 2**63, "1796000000", True):
        text = m.encode().decode().replace("1796000000000000000", json.dumps(bad))
        with pytest.raises(WireError, match=r"payload\.hit_wall_ns"):
            decode_table_message(text)
