"""The table's side of the progressive link: the real daemon, a real Mosquitto (the shipped
configuration: TLS, a client certificate and a password per table, the ACL) and the central
meter (``meter.service``). Rounds are keyed through the daemon's local API."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import aiomqtt
import pytest

from controller.api_client import ApiClient
from controller.daemon import Daemon
from controller.journal.state import PROGRESSIVE_LINK
from sim.bench_rig import BenchRig
from wire import Award, Share, Topics, encode

from .link_table import LINK, PARAMS, PROGRESSIVE
from .meter_link import Link
from .mosquitto import USERS, Pki
from .table_link import api_round, linked_table
from .test_meter_link import contributions_in_store

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return Pki(tmp_path_factory.mktemp("pki"), users=USERS)


async def until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def daemon_of(rig: BenchRig) -> Daemon:
    assert rig.daemon is not None and rig.daemon.link is not None
    return rig.daemon


def contribution_seqs(db: Path) -> list[int]:
    """The table's outbox seqs of its contributions, in order (the journal's own outbox)."""
    import sqlite3

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT seq FROM outbox WHERE kind = 'contribution' ORDER BY seq").fetchall()
    finally:
        conn.close()
    return [int(r[0]) for r in rows]


def meter_amount(link: Link) -> int:
    assert link.store is not None
    return link.store.ledger.progressives[PROGRESSIVE].amount


async def test_the_broker_stopped_for_10_s_in_a_stream_of_rounds(tmp_path: Path, pki: Pki) -> None:
    """Every contribution of the daemon's lock-outs reaches the meter once, in order, across a
    broker killed for 10 s; the meter is initial + rate x wagers; the table's API shows it."""
    async with linked_table(tmp_path, pki, "t1") as (link, rig):
        daemon = daemon_of(rig)
        assert daemon.link is not None
        async with await ApiClient.connect(rig.socket) as api:
            await until(
                lambda: daemon.link is not None and daemon.link.publisher.state.ack is not None,
                10,
                "the meter's ack of the declaration",
            )
            rounds = 0

            async def play(seconds: float) -> None:
                nonlocal rounds
                deadline = time.monotonic() + seconds
                while time.monotonic() < deadline:
                    await api_round(api)
                    rounds += 1

            await play(1.5)
            link.broker.stop(kill=True)  # kill -9: what the broker had in memory is gone
            await play(10.0)  # the rounds go on at the table; the link has no broker
            link.broker.start()
            await play(1.5)
            journal = rig.path / "journal.sqlite"
            seqs = contribution_seqs(journal)
            assert len(seqs) == rounds > 20
            last = max(seqs)
            await until(
                lambda: daemon.link is not None and daemon.link.publisher.state.applied_seq >= last,
                30,
                f"the meter's ack of seq {last}",
            )
            assert link.store is not None
            assert contributions_in_store(link.store.path)["t1"] == seqs  # once each, in order
            # 18% of 1.00 a round, in exact cents (the fraction of a cent carried by the meter).
            expected = PARAMS.initial + int(Fraction(rounds * 100) * PARAMS.rate / 100)
            assert meter_amount(link) == expected
            shown = f"{expected // 100}.{expected % 100:02d}"
            await until(
                lambda: daemon.snapshot()["link"]["amounts"].get(PROGRESSIVE) == shown,
                10,
                "the meter's amount on the table's API",
            )
            status = await api.status()
            assert status["link"]["amounts"][PROGRESSIVE] == shown
            assert status["link"]["queue_depth"] == 0
            assert daemon.link.publisher.connects >= 2  # it did lose the broker


async def test_link_loss_stops_progressive_wagers_not_the_base_game(tmp_path: Path, pki: Pki) -> None:
    """No word from the meter for the timeout: journaled, the progressive refused (from the API
    and from the sensor), the round goes on without it; the meter back: journaled, the queued
    contributions delivered, progressive wagers recognized again by themselves."""
    async with linked_table(tmp_path, pki, "t2", timeout=3) as (link, rig):
        daemon = daemon_of(rig)
        async with await ApiClient.connect(rig.socket) as api:
            await until(
                lambda: (
                    daemon.state.devices.get(PROGRESSIVE_LINK) is not None
                    and daemon.state.devices[PROGRESSIVE_LINK].online
                ),
                10,
                "the link up",
            )
            await api_round(api)
            await link.stop_meter()
            await until(lambda: daemon.state.progressive_link_down is not None, 10, "the link down")
            status = await api.status()
            assert status["link"]["unavailable"] and status["link"]["journaled_down"]
            # The base game goes on; the progressive wager is refused, journaled as refused.
            await api.submit_event({"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"})
            with pytest.raises(Exception, match="progressive link is down"):
                await api.submit_event({"type": "wager", "seat": 1, "wager": "progressive", "amount": "1.00"})
            # A chip on seat 3's sensor, then the lock-out button: the sensed wager is
            # journaled as refused, not as a wager.
            round_id = daemon.round_id
            await rig.place_chip(3)
            before = len(daemon.refusals)
            await rig.press_lock_out()
            await until(lambda: len(daemon.refusals) > before, 5, "the sensed chip refused")
            assert "seat 3 progressive: progressive wagers are not recognized" in daemon.refusals[-1]
            current = daemon.state.current
            assert current is not None and current.no_more_bets
            assert [(e.seat, e.wager) for e in current.wagers()] == [(1, "ante")]
            await rig.lift_chip(3)
            await api.submit_event({"type": "cards", "to": "1", "cards": "2c 7d 9s Jh 4c"})
            await api.submit_event({"type": "cards", "to": "dealer", "cards": "As Ks 9d 6c 4h"})
            await api.submit_event({"type": "decision", "seat": 1, "action": "fold"})
            assert daemon.round_id != round_id  # settled without the progressive
            await link.start_meter()
            await until(lambda: daemon.state.progressive_link_down is None, 10, "the link back")
            await api_round(api)  # progressive wagers are recognized again
            assert daemon.journal is not None
            records = await daemon.journal.records()
            changes = [r.kind for r in records if r.body.get("device") == PROGRESSIVE_LINK]
            assert changes == ["device_online", "device_offline", "device_online"]
            last = max(contribution_seqs(rig.path / "journal.sqlite"))
            await until(
                lambda: daemon.link is not None and daemon.link.publisher.state.applied_seq >= last,
                20,
                "the queued contributions",
            )
            assert meter_amount(link) == PARAMS.initial + int(Fraction(2 * 100) * PARAMS.rate / 100)


async def test_a_forged_award_on_a_wrong_topic_changes_nothing(tmp_path: Path, pki: Pki) -> None:
    """An award published by another client on a table's topic (the ACL lets the observer write
    only bench/#; a table's own event topic is the table's) or under another table's reply
    topic is not the meter's word for this table: dropped, counted, nothing journaled."""
    async with linked_table(tmp_path, pki, "t3") as (link, rig):
        daemon = daemon_of(rig)
        publisher = daemon.link.publisher if daemon.link is not None else None
        assert publisher is not None
        await until(lambda: publisher.state.ack is not None, 10, "the meter's ack")
        before = daemon.state.last_seq
        forged = Award(
            "t3",
            1,
            "0b5e2c1a-7f43-4e0e-8d7c-5a1f3e9b2c44",
            PROGRESSIVE,
            1,
            1,
            Share(Fraction(100)),
            999_999_99,
            999_999_99,
            PARAMS.reset,
        )
        topics = Topics(LINK)
        # Straight into the publisher: the meter's award for t3 on a table's topic, and on
        # another table's reply topic; neither is taken.
        assert not publisher.accept(topics.table_event("site-a", "t3"), encode(forged))
        assert not publisher.accept(topics.reply("t4"), encode(forged))
        assert not publisher.accept("elsewhere/award", encode(forged))
        # And through the broker: a client with t4's credentials may not write t3's reply.
        ctx = pki.context("t4")
        async with aiomqtt.Client(
            link.broker.host,
            link.broker.port,
            username="t4",
            password=pki.passwords["t4"],
            tls_context=ctx,
        ) as client:
            await client.publish(topics.reply("t3"), encode(forged), qos=1)
        await asyncio.sleep(0.5)
        assert publisher.state.awards == {}
        assert publisher.state.forged >= 3
        assert daemon.state.last_seq == before
        assert json.dumps(daemon.snapshot()["link"]["amounts"]) == json.dumps({PROGRESSIVE: "10000.00"})
