"""The meter and tables on a real Mosquitto (the shipped configuration: TLS, each client named
by its certificate, the ACL)."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
import uuid
from fractions import Fraction
from pathlib import Path

import aiomqtt
import pytest

from meter.main import main
from sim.link_rig import LINK, PARAMS, PROGRESSIVE
from sim.sim_table import SimTable
from wire import Award, Contribution, Parameters, Share, TableMessage, Topics, encode, format_money

from .meter_link import Link, running_link
from .mosquitto import Pki

pytestmark = pytest.mark.asyncio


def contributions_in_store(db: Path) -> dict[str, list[int]]:
    """Each table's contribution seqs, in the order the meter recorded them."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(
            "SELECT table_id, table_seq FROM records WHERE kind = 'contribution' ORDER BY seq"
        ).fetchall()
    finally:
        conn.close()
    out: dict[str, list[int]] = {}
    for table, seq in rows:
        out.setdefault(table, []).append(seq)
    return out


def expected_meter(tables: list[SimTable]) -> int:
    wagered = sum(m.payload.wagered for t in tables for m in t.outbox if isinstance(m.payload, Contribution))
    return PARAMS.initial + int(Fraction(wagered) * PARAMS.rate / 100)


async def stream(tables: list[SimTable], seconds: float, rng: random.Random) -> None:
    """Rounds at each table: a lock-out every ~20 ms with 1 to 7 progressive wagers of $1-$5."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for t in tables:
            wagers = rng.randint(1, 7)
            t.contribute(sum(rng.choice((100, 200, 500, 525)) for _ in range(wagers)), wagers)
        await asyncio.sleep(0.02)


async def test_the_broker_stopped_for_10_s_loses_and_doubles_nothing(tmp_path: Path, pki: Pki) -> None:
    rng = random.Random(10)
    async with running_link(tmp_path, pki, {"t1": "site-a", "t2": "site-a", "t3": "site-a"}) as link:
        tables = [link.table(n) for n in ("t1", "t2", "t3")]
        for t in tables:
            t.declare()
        await stream(tables, 2.0, rng)
        link.broker.stop(kill=True)  # kill -9: what the broker had in memory is gone
        await stream(tables, 10.0, rng)  # the rounds go on at the tables
        link.broker.start()
        await stream(tables, 2.0, rng)
        for t in tables:
            await t.all_acked(timeout=30)
        assert link.store is not None
        db = link.store.path
        recorded = contributions_in_store(db)
        for t in tables:
            seqs = [m.seq for m in t.outbox if isinstance(m.payload, Contribution)]
            assert recorded[t.table] == seqs  # every one, once, in order
            assert len(seqs) > 300
        meter = link.store.ledger.progressives[PROGRESSIVE].amount
        assert meter == expected_meter(tables)
        await tables[0].wait(
            lambda: tables[0].amounts[PROGRESSIVE].amount == meter, 10, "the meter on the table"
        )
        assert sum(t.connects for t in tables) >= 6  # each table did lose the broker


async def test_two_tables_claim_100_percent_within_milliseconds(tmp_path: Path, pki: Pki) -> None:
    async with running_link(tmp_path, pki, {"t1": "site-a", "t2": "site-a"}) as link:
        t1, t2 = link.table("t1"), link.table("t2")
        t1.declare()
        t2.declare()
        for _ in range(20):
            t1.contribute(2500, 5)
            t2.contribute(1000, 2)
        await t1.all_acked()
        await t2.all_acked()
        meter = PARAMS.initial + 20 * (450 + 180)
        assert link.store is not None and link.store.ledger.progressives[PROGRESSIVE].amount == meter
        royal = Share(Fraction(100))
        h1, h2 = t1.hit(royal, seat=3), t2.hit(royal, seat=6)  # sent at once
        await t1.wait(lambda: h1.seq in t1.awards, 10, "t1's award")
        await t2.wait(lambda: h2.seq in t2.awards, 10, "t2's award")
        a1, a2 = t1.awards[h1.seq], t2.awards[h2.seq]
        first, second = sorted((a1, a2), key=lambda a: a.award_seq)
        assert (first.award_seq, second.award_seq) == (1, 2)
        assert (first.paid, first.meter_after) == (meter, PARAMS.reset)  # the first paid the meter
        assert (second.paid, second.meter_after) == (PARAMS.reset, PARAMS.reset)  # the next the reset
        for t in (t1, t2):
            await t.wait(lambda t=t: t.amounts[PROGRESSIVE].amount == PARAMS.reset, 5, "the reset amount")
        # A 10% share, then a royal, at one table.
        for _ in range(50):
            t1.contribute(100_000, 10)
        await t1.all_acked()
        meter = PARAMS.reset + 50 * 18_000  # 10% of it leaves the meter above its reset amount
        h3 = t1.hit(Share(Fraction(10)), seat=2, hand="straight flush")
        await t1.wait(lambda: h3.seq in t1.awards, 10, "the 10% award")
        assert (t1.awards[h3.seq].paid, t1.awards[h3.seq].meter_after) == (meter // 10, meter - meter // 10)
        h4 = t1.hit(royal, seat=4)
        await t1.wait(lambda: h4.seq in t1.awards, 10, "the royal")
        assert (t1.awards[h4.seq].paid, t1.awards[h4.seq].meter_after) == (meter - meter // 10, PARAMS.reset)
        await t2.wait(lambda: t2.amounts[PROGRESSIVE].record_seq == t1.awards[h4.seq].record_seq, 5, "amount")
        assert t2.amounts[PROGRESSIVE].amount == PARAMS.reset
        assert (
            t2.amounts[PROGRESSIVE].last_award is not None
            and t2.amounts[PROGRESSIVE].last_award.table == "t1"
        )
        # The meter's history says the same, in the same order.
        rows = json.loads(_cli(link, "history", "--awards", "--json"))
        assert [(r["table"], r["body"]["paid"]) for r in rows] == [
            (first.table, format_money(first.paid)),
            (second.table, format_money(second.paid)),
            ("t1", format_money(meter // 10)),
            ("t1", format_money(meter - meter // 10)),
        ]


def _cli(link: Link, *args: str) -> str:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["--config", str(link.config_path), *args]) == 0
    return out.getvalue()


async def test_a_table_that_disagrees_is_refused_and_told(tmp_path: Path, pki: Pki) -> None:
    async with running_link(tmp_path, pki, {"t1": "site-a", "t2": "site-a"}) as link:
        t2 = link.table("t2")
        t2.declare({PROGRESSIVE: Parameters(PARAMS.initial, 500_000, PARAMS.rate)})
        c = t2.contribute(10_000)
        await t2.all_acked()
        assert t2.ack is not None and t2.ack.verdict is not None and not t2.ack.verdict.accepted
        assert t2.ack.verdict.field == "payload.progressives.cs-floor.reset"
        await t2.wait(lambda: 1 in t2.refusals and c.seq in t2.refusals, 5, "the refusals")
        assert "reset 5000.00" in t2.refusals[1].reason and "says 10000.00" in t2.refusals[1].reason
        assert t2.refusals[c.seq].field == "payload.progressive"
        assert link.store is not None and link.store.ledger.progressives[PROGRESSIVE].amount == PARAMS.initial
        assert "REFUSED" in _cli(link, "status")


async def _client(link: Link, user: str, cert: str | None = None) -> aiomqtt.Client:
    return aiomqtt.Client(
        link.broker.host,
        link.broker.port,
        username=user,
        password=link.pki.passwords[user],
        identifier=f"{user}-{uuid.uuid4().hex[:6]}",
        tls_context=link.pki.context(cert or user),
    )


async def test_acl_another_tables_credentials_and_forged_awards_change_nothing(
    tmp_path: Path, pki: Pki
) -> None:
    topics = Topics(LINK)
    async with running_link(tmp_path, pki, {"t1": "site-a", "t2": "site-a"}) as link:
        t1 = link.table("t1")
        t1.declare()
        t1.contribute(1000)
        await t1.all_acked()
        meter = PARAMS.initial + 180
        seen: list[str] = []
        async with await _client(link, "observer") as observer, await _client(link, "t2") as rogue:
            await observer.subscribe("progressive/#", qos=1)

            async def watch() -> None:
                async for m in observer.messages:
                    seen.append(m.topic.value)

            watching = asyncio.create_task(watch())
            await asyncio.sleep(0.3)
            seen.clear()
            # t2's credentials publishing as t1, on t1's topic: the broker refuses it.
            forged = TableMessage(
                "t1", 3, str(uuid.uuid4()), 3, "e", None, Contribution(PROGRESSIVE, 1, 10**9)
            )
            await rogue.publish(topics.table_event("site-a", "t1"), forged.encode(), qos=1)
            # A forged award to t1 on the meter's reply topic: refused by the broker too.
            award = Award(
                "t1", 2, t1.outbox[1].message_id, PROGRESSIVE, 1, 9, Share(Fraction(100)), 10**9, 10**9, 0
            )
            await rogue.publish(topics.reply("t1"), encode(award), qos=1)
            await rogue.publish(topics.amount(PROGRESSIVE), b'{"schema":1}', qos=1, retain=True)
            # On its own topic, t2 claiming to be t1: the broker lets it through, the meter ignores it.
            await rogue.publish(topics.table_event("site-a", "t2"), forged.encode(), qos=1)
            await asyncio.sleep(1.0)
            watching.cancel()
        assert seen == [topics.table_event("site-a", "t2")]  # only what t2 may publish went anywhere
        assert link.service is not None and link.service.ignored["not a valid message"] == 1
        # The forged award, had it reached the table on some other topic, is not taken there either.
        assert not t1.accept(topics.table_event("site-a", "t2"), encode(award))
        assert not t1.accept(topics.reply("t2"), encode(award))
        assert t1.awards == {}
        # t1's own next message (seq 3) is applied: nothing of the forgeries was.
        t1.contribute(500)
        await t1.all_acked()
        assert link.store is not None and link.store.ledger.progressives[PROGRESSIVE].amount == meter + 90
        assert t1.amounts[PROGRESSIVE].amount in (meter, meter + 90)


async def test_a_gap_waits_and_a_duplicate_is_not_applied_twice(tmp_path: Path, pki: Pki) -> None:
    topics = Topics(LINK)
    async with running_link(tmp_path, pki, {"t1": "site-a"}) as link:
        table = SimTable("t1", "site-a", link.broker, link.pki)  # its outbox, sent by hand below
        declared, first, second = table.declare(), table.contribute(1000), table.contribute(2000)
        async with await _client(link, "t1") as raw, await _client(link, "observer") as observer:
            await observer.subscribe(topics.ack("t1"), qos=1)
            acks: list[int] = []

            async def watch() -> None:
                async for m in observer.messages:
                    acks.append(json.loads(m.payload)["applied_seq"])  # type: ignore[arg-type]

            watching = asyncio.create_task(watch())
            event = topics.table_event("site-a", "t1")
            for m in (declared, second):  # seq 3 before seq 2: it waits
                await raw.publish(event, m.encode(), qos=1)
            await asyncio.sleep(0.5)
            assert link.store is not None and link.store.applied_seqs() == {"t1": 1}
            assert acks and acks[-1] == 1  # told where the meter is, so the table can send seq 2
            for m in (first, first, second, declared):  # the gap filled, and duplicates
                await raw.publish(event, m.encode(), qos=1)
            await asyncio.sleep(0.5)
            watching.cancel()
        assert link.store.applied_seqs() == {"t1": 3} and acks[-1] == 3
        assert link.store.ledger.progressives[PROGRESSIVE].amount == PARAMS.initial + 180 + 360
        assert contributions_in_store(link.store.path) == {"t1": [2, 3]}
        # A table publishing under another site's topic (its ACL allows its id under any site):
        # the meter knows its site and ignores it.
        async with await _client(link, "t1") as raw:
            await raw.publish(topics.table_event("site-b", "t1"), table.contribute(5000).encode(), qos=1)
        await asyncio.sleep(0.3)
        assert link.service is not None and link.service.ignored["wrong site"] == 1
        assert link.store.applied_seqs() == {"t1": 3}


async def test_statuses_online_offline_with_last_wills(tmp_path: Path, pki: Pki) -> None:
    topics = Topics(LINK)
    async with running_link(tmp_path, pki, {"t1": "site-a"}) as link:
        t1 = link.table("t1")
        await t1.wait(lambda: t1.meter_status is not None and t1.meter_status.status == "online", 5, "online")
        beat = t1.meter_status.beat  # type: ignore[union-attr]
        await t1.wait(lambda: t1.meter_status.beat > beat, 5, "a heartbeat")  # type: ignore[union-attr]
        assert link.service is not None
        await t1.wait(lambda: link.service.table_status.get("t1") == "online", 5, "t1 online at the meter")  # type: ignore[union-attr]
        await link.stop_meter()
        await t1.wait(lambda: t1.meter_status.status == "offline", 5, "offline")  # type: ignore[union-attr]
        async with await _client(link, "observer") as observer:
            await observer.subscribe(topics.meter_status(), qos=1)
            async for m in observer.messages:  # retained
                assert json.loads(m.payload)["status"] == "offline"  # type: ignore[arg-type]
                break


async def test_a_missing_broker_fails_saying_what_to_run() -> None:
    from .mosquitto import tool

    with pytest.raises(
        pytest.fail.Exception, match=r"mosquitto-that-is-not-installed is missing: run scripts/system-deps"
    ):
        tool("mosquitto-that-is-not-installed")
