"""The table's side of the progressive link: the real daemon, a real Mosquitto (the shipped
configuration: TLS, a client certificate per table naming it, the ACL) and the central
meter (``meter.service``). Rounds are keyed through the daemon's local API."""

from __future__ import annotations

import asyncio
import json
import time
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import aiomqtt
import pytest
from cryptography import x509

from controller.api_client import ApiClient
from controller.journal.state import PROGRESSIVE_LINK
from controller.tablectl import main as tablectl_main
from meter.config import load
from sim.bench_rig import BenchRig, run_bench
from sim.link_rig import LINK, PARAMS, PAYTABLE_B, PROGRESSIVE, meter_config
from ui.table import TableModel
from wire import Award, Parameters, Share, Topics, encode

from .meter_link import Link, running_link
from .mosquitto import Pki
from .table_link import api_round, daemon_of, linked_rig, linked_table, meter_gone, until, wagering_open
from .test_meter_link import contributions_in_store

pytestmark = pytest.mark.asyncio


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
                    await api_round(api, rig)
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
    """No word from the meter for the timeout: journaled, the sensed progressive refused (the API
    never takes one, docs/authority.md), the round goes on without it; the meter back: journaled, the queued
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
            await api_round(api, rig)
            await link.stop_meter()
            await until(lambda: daemon.state.progressive_link_down is not None, 10, "the link down")
            status = await api.status()
            assert status["link"]["unavailable"] and status["link"]["journaled_down"]
            # The base game goes on; the progressive wager is refused, journaled as refused.
            await rig.lift_chip(1)
            await api.submit_event({"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"})
            # A chip on seat 3's sensor, then the lock-out button: the sensed wager is
            # journaled as refused, not as a wager.
            round_id = daemon.round_id
            await rig.place_chip(3)
            before = len(daemon.refusals)
            await rig.press_lock_out()
            await until(lambda: len(daemon.refusals) > before, 20, "the sensed chip refused")
            assert "seat 3 progressive: progressive wagers are not recognized" in daemon.refusals[-1]
            current = daemon.state.current
            assert current is not None and current.no_more_bets
            assert [(e.seat, e.wager) for e in current.wagers()] == [(1, "ante")]
            await rig.lift_chip(3)
            await rig.deal(1, "2c 7d 9s Jh 4c")
            await rig.deal("dealer", "As Ks 9d 6c 4h")
            await api.submit_event({"type": "decision", "seat": 1, "action": "fold"})
            assert daemon.round_id != round_id  # settled without the progressive
            await link.start_meter()
            await until(lambda: daemon.state.progressive_link_down is None, 10, "the link back")
            await api_round(api, rig)  # progressive wagers are recognized again
            assert daemon.journal is not None
            records = await daemon.journal.records()
            link_records = [r for r in records if r.body.get("device") == PROGRESSIVE_LINK]
            # Closed from the start ("meter not heard") until the meter accepts the declaration; a
            # new reason is a new device_offline.
            assert "meter not heard" in str(link_records[0].body.get("detail"))
            changes = [r.kind for r in link_records]
            transitions = [k for i, k in enumerate(changes) if i == 0 or changes[i - 1] != k]
            assert transitions == ["device_offline", "device_online", "device_offline", "device_online"]
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
        # The meter's ack and its acceptance journaled (device_online), before anything is forged.
        await until(lambda: publisher.state.ack is not None, 10, "the meter's ack")
        await until(lambda: daemon.state.progressive_link_down is None, 10, "the link journaled up")
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


ROYAL = "As Ks Qs Js Ts"
NO_QUALIFY = "2c 7d 9h 4c 3d"


async def royal_until_decision(api: ApiClient, rig: BenchRig) -> None:
    """Seat 1's ante and Progressive Payout Wager (its chip on the sensor), "no more bets", a
    royal flush dealt."""
    await rig.place_chip(1)
    await api.submit_event({"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"})
    await api.submit_event({"type": "no_more_bets"})
    await rig.deal(1, ROYAL)
    await rig.deal("dealer", NO_QUALIFY)


async def settled_progressive(api: ApiClient, round_id: str) -> dict[str, object]:
    rounds = (await api.list_rounds(5))["rounds"]
    summary = next(r for r in rounds if r["round"] == round_id)
    assert summary["status"] == "settled", summary
    line: dict[str, object] = summary["settlement"]["seats"]["1"]["progressive"]
    return line


def money_text(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


async def test_a_hit_is_pending_until_the_award_and_settles_from_it(tmp_path: Path, pki: Pki) -> None:
    """A royal flush while the meter is away: the claim is journaled with the decision, the round
    shows PENDING and waits; the meter back, its award settles the round at the meter as it
    stood (§ 639a.12(d)(4)), flagged for the floorperson and not paid from the inventory; the
    round replays from the journal to the same settlement."""
    async with linked_table(tmp_path, pki, "t1") as (link, rig):
        daemon = daemon_of(rig)
        async with await ApiClient.connect(rig.socket) as api:
            for _ in range(3):
                await api_round(api, rig)
            await until(lambda: daemon.state.devices.get(PROGRESSIVE_LINK) is not None, 10, "the link up")
            round_id = daemon.round_id
            assert round_id is not None
            await royal_until_decision(api, rig)
            await link.stop_meter()
            await until(lambda: daemon.state.progressive_link_down is not None, 10, "the link down")
            await api.submit_event({"type": "decision", "seat": 1, "action": "bet"})
            await until(lambda: bool(daemon.snapshot()["link"]["pending"]), 20, "PENDING")
            status = await api.status()
            assert status["round"]["id"] == round_id  # the round waits for the meter
            assert [w["who"] for w in status["round"]["waiting"]] == ["meter"]
            (pending,) = status["link"]["pending"]
            assert pending["status"] == "PENDING" and pending["seat"] == 1
            assert pending["award"] == {"share": "100"}
            await asyncio.sleep(1.0)
            assert daemon.round_id == round_id  # still pending without the meter
            await link.start_meter()
            await until(lambda: daemon.round_id != round_id, 15, "the award settling the round")
            meter = PARAMS.initial + int(Fraction(4 * 100) * PARAMS.rate / 100)
            line = await settled_progressive(api, round_id)
            # The player is paid the meter; the net is that less the 1.00 wager (collected).
            assert line["result"] == "win" and line["net"] == f"+{money_text(meter - 100)}"
            flags = line["flags"]
            assert isinstance(flags, list) and "not_paid_from_inventory" in flags
            assert daemon.journal is not None
            recalled = await daemon.journal.recall(round_id)
            assert recalled.consistent and recalled.replayed is not None
            meter_events = [r for r in recalled.records if r.body.get("type") == "meter"]
            # The round's meter, and seat 1's own: the meter when it is paid (§ 639a.12(d)(4)).
            assert [(r.source, r.body["amount"], r.body.get("seat")) for r in meter_events] == [
                ("link", money_text(meter), None),
                ("link", money_text(meter), 1),
            ]
            assert meter_amount(link) == PARAMS.reset
            await until(
                lambda: daemon.snapshot()["link"]["amounts"].get(PROGRESSIVE) == money_text(PARAMS.reset),
                10,
                "the reset meter on the table's API",
            )


async def test_two_tables_claim_100_percent_within_milliseconds(tmp_path: Path, pki: Pki) -> None:
    """Two daemons' royal flushes claimed at once: the meter pays one the meter and the next the
    reset amount, in the order it received them; both tables' settlements and the meter agree."""
    tables = {"t1": "site-a", "t2": "site-a"}
    async with (
        running_link(tmp_path, pki, tables) as link,
        linked_rig(tmp_path, pki, link.broker, "t1") as r1,
        linked_rig(tmp_path, pki, link.broker, "t2") as r2,
    ):
        d1, d2 = daemon_of(r1), daemon_of(r2)
        await wagering_open(r1)
        await wagering_open(r2)
        async with await ApiClient.connect(r1.socket) as a1, await ApiClient.connect(r2.socket) as a2:
            for _ in range(5):
                await api_round(a1, r1)
                await api_round(a2, r2)
            ids = (d1.round_id, d2.round_id)
            await royal_until_decision(a1, r1)
            await royal_until_decision(a2, r2)
            # 5 rounds at each table and the two royal rounds: 12 wagers of 1.00.
            meter = PARAMS.initial + int(Fraction(12 * 100) * PARAMS.rate / 100)
            for d in (d1, d2):
                last = max(contribution_seqs(Path(str(d.config.journal.path))))
                await until(
                    lambda d=d, last=last: d.link is not None and d.link.publisher.state.applied_seq >= last,
                    10,
                    "the contributions",
                )
            assert meter_amount(link) == meter
            await asyncio.gather(
                a1.submit_event({"type": "decision", "seat": 1, "action": "bet"}),
                a2.submit_event({"type": "decision", "seat": 1, "action": "bet"}),
            )
            await until(lambda: d1.round_id != ids[0] and d2.round_id != ids[1], 15, "both awards")
            lines = [await settled_progressive(a, i) for a, i in ((a1, ids[0]), (a2, ids[1]))]
            nets = sorted(str(line["net"]) for line in lines)
            # Paid the meter, then the reset amount; each net of its 1.00 wager.
            assert nets == sorted([f"+{money_text(meter - 100)}", f"+{money_text(PARAMS.reset - 100)}"])
            assert d1.link is not None and d2.link is not None
            awards = [*d1.link.publisher.state.awards.values(), *d2.link.publisher.state.awards.values()]
            first, second = sorted(awards, key=lambda a: a.award_seq)
            assert (first.paid, second.paid) == (meter, PARAMS.reset)
            assert meter_amount(link) == PARAMS.reset


async def test_a_declaration_the_meter_refuses_is_journaled_and_shown(tmp_path: Path, pki: Pki) -> None:
    """The meter's link configuration says 15%, the table's Rules Submission 18%: the meter
    refuses the declaration naming the field; the table journals it, shows it, and does not
    recognize progressive wagers (nothing of them would be applied)."""
    async with running_link(tmp_path, pki, {"t4": "site-a"}, meter=False) as link:
        other = Parameters(PARAMS.initial, PARAMS.reset, Fraction(15))
        link.config_path = meter_config(
            tmp_path / "meter", link.broker, pki, {"t4": "site-a"}, {PROGRESSIVE: other}
        )
        link.config = load(link.config_path)
        await link.start_meter()
        async with linked_rig(tmp_path, pki, link.broker, "t4") as rig:
            daemon = daemon_of(rig)
            await until(
                lambda: "rate_of_progression" in (daemon.state.progressive_link_down or ""),
                10,
                "the refusal journaled",
            )
            down = daemon.state.progressive_link_down
            assert down is not None and "rate_of_progression" in down and "15%" in down
            status = daemon.snapshot()["link"]
            assert status["verdict"]["accepted"] is False
            assert status["verdict"]["field"] == f"payload.progressives.{PROGRESSIVE}.rate_of_progression"
            async with await ApiClient.connect(rig.socket) as api:
                # A chip on seat 1's sensor, then "no more bets": the sensed wager is refused.
                await rig.place_chip(1)
                await api.submit_event({"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"})
                before = len(daemon.refusals)
                await api.submit_event({"type": "no_more_bets"})
                assert len(daemon.refusals) > before
                assert "progressive link is down" in daemon.refusals[-1]


async def test_a_wager_past_the_meters_largest_never_opens_progressive_wagering(
    tmp_path: Path, pki: Pki
) -> None:
    """The table's declaration carries its 1.00 Progressive Payout Wager; the meter's
    ``max_wager`` is 0.50 (a table and a meter configured apart): the meter refuses the
    declaration naming ``wager``, so progressive wagering never opens and no wager is taken that
    the meter would refuse, at the first start and after a restart alike (before, the declaration
    carried no wager: wagering opened, and each start took one wager the meter then refused)."""
    paytable = (*PAYTABLE_B, 'max_wager = "0.50"')
    async with running_link(tmp_path, pki, {"t3": "site-a"}, paytable=paytable) as link:
        for start in ("the first start", "a restart"):
            async with linked_rig(tmp_path, pki, link.broker, "t3") as rig:
                daemon = daemon_of(rig)
                await until(lambda d=daemon: "max_wager" in (d.state.progressive_link_down or ""), 20, start)
                down = daemon.state.progressive_link_down
                assert down is not None and "one wager is 1.00" in down and "max_wager 0.50" in down, down
                verdict = daemon.snapshot()["link"]["verdict"]
                assert verdict["accepted"] is False
                assert verdict["field"] == f"payload.progressives.{PROGRESSIVE}.wager"
                async with await ApiClient.connect(rig.socket) as api:
                    before = len(daemon.refusals)
                    await api_round(api, rig)
                    assert any("progressive link is down" in r for r in daemon.refusals.since(before)), start
                assert contribution_seqs(rig.path / "journal.sqlite") == [], start
        assert link.store is not None and contributions_in_store(link.store.path).get("t3", []) == []


async def test_tablectl_link_and_doctor(tmp_path: Path, pki: Pki, capsys: pytest.CaptureFixture[str]) -> None:
    """``tablectl link`` shows the daemon's link (connected, the meter's word, the queue, the
    meter's amount, the certificate); ``tablectl doctor`` checks the broker with the table's
    certificate and the certificates' expiry, each line with what to do."""
    async with linked_table(tmp_path, pki, "t2") as (link, rig):
        daemon = daemon_of(rig)
        async with await ApiClient.connect(rig.socket) as api:
            await api_round(api, rig)
        await until(lambda: daemon.snapshot()["link"]["applied_seq"] >= 2, 30, "the meter's ack")
        args = ["link", "--socket", str(rig.socket), "--config", str(rig.config_path)]
        assert await asyncio.to_thread(tablectl_main, [*args, "--json"]) == 0
        shown = json.loads(capsys.readouterr().out)
        assert shown["connected"] is True and shown["queue_depth"] == 0
        assert shown["amounts"] == {PROGRESSIVE: "10000.18"}
        cert = x509.load_pem_x509_certificate(pki.cert("t2").read_bytes())
        expected = (cert.not_valid_after_utc.timestamp() - time.time()) / 86400
        assert abs(shown["certificate_days_left"] - expected) < 0.2
        assert await asyncio.to_thread(tablectl_main, args) == 0
        text = capsys.readouterr().out
        assert "connected" in text and "progressive wagering: OPEN" in text
        assert f"meter {PROGRESSIVE}: 10000.18 (from the meter)" in text
        code = await asyncio.to_thread(
            tablectl_main, ["doctor", "--config", str(rig.config_path), "--socket", str(rig.socket)]
        )
        lines = capsys.readouterr().out.splitlines()
        broker = next(line for line in lines if " broker:" in line)
        assert broker.startswith("ok") and "TLS" in broker
        assert any(line.startswith("ok   certificate cert_file") for line in lines)
        assert f"ok   certificate identity: {pki.cert('t2')} names table 't2'" in lines
        assert any(line.startswith("ok   journal") for line in lines)
        failed = [line for line in lines if line.startswith("FAIL")]
        assert code == (1 if failed else 0)
        assert all(" -> " in line for line in failed)  # each with what to do
        link.broker.stop()
        await asyncio.to_thread(
            tablectl_main, ["doctor", "--config", str(rig.config_path), "--socket", str(rig.socket)]
        )
        lines = capsys.readouterr().out.splitlines()
        broker = next(line for line in lines if " broker:" in line)
        assert broker.startswith("FAIL") and "mosquitto" in broker
        link.broker.start()


async def test_the_bench_rig_on_the_link_shows_the_meter_moving_and_a_hit_paid() -> None:
    """``table-bench --link`` (``bash scripts/run``'s default): Mosquitto and the meter started,
    the meter's amount after each round, a royal flush PENDING then paid from the meter."""
    lines: list[str] = []
    assert await run_bench(2, 3, say=lines.append, link=True) == 0, "\n".join(lines)
    meters = [line for line in lines if line.startswith("central meter cs-floor:")]
    amounts = [line.split()[3] for line in meters]
    assert amounts[0] == "10000.00" and amounts[1] < amounts[2]  # the meter moves
    assert amounts[-1] == "10000.00"  # reset after the royal flush
    assert any(line.startswith("table shows PENDING") for line in lines)
    award = next(line for line in lines if line.startswith("the meter's award"))
    # The meter before the royal round, plus 18% of that round's own 1.00 wager.
    before = Decimal(amounts[-2]) + Decimal("0.18")
    assert f"paid {before}" in award
    assert any("validate, then hand-pay: not from the table inventory" in line for line in lines)


async def test_blackjacks_three_progressives_contribute_to_their_meters(tmp_path: Path, pki: Pki) -> None:
    """Bad Beat, Hit and Run and Straight Jack (§ 633a.6(e)(8), (10), (11)) declared by the
    Blackjack daemon as its Rules Submission files them, each counted by its own wagering device
    at the seat (§ 633a.2(c), (d)(1)); the lock-out's contributions raise each meter by its own
    rate, and the table's API shows each meter from the meter's topics."""
    bj = {
        "bad_beat": Parameters(250_000, 250_000, Fraction(12)),
        "hit_and_run": Parameters(100_000, 100_000, Fraction(10)),
        "straight_jack": Parameters(500_000, 500_000, Fraction(15)),
    }
    async with running_link(tmp_path, pki, {"t3": "site-a"}, meter=False) as link:
        link.config_path = meter_config(tmp_path / "meter", link.broker, pki, {"t3": "site-a"}, bj)
        link.config = load(link.config_path)
        await link.start_meter()
        async with linked_rig(tmp_path, pki, link.broker, "t3", game="blackjack") as rig:
            daemon = daemon_of(rig)
            await until(lambda: daemon.snapshot()["link"]["verdict"] is not None, 10, "the meter's verdict")
            assert daemon.snapshot()["link"]["verdict"]["accepted"] is True
            await wagering_open(rig)
            async with await ApiClient.connect(rig.socket) as api:
                for seat in (1, 2):
                    await api.submit_event(
                        {"type": "wager", "seat": seat, "wager": "blackjack", "amount": "10.00"}
                    )
                # The chips on the devices: seat 1's Bad Beat and Straight Jack, seat 2's Bad Beat.
                for seat, progressive in ((1, "bad_beat"), (1, "straight_jack"), (2, "bad_beat")):
                    await rig.place_chip(seat, progressive)
                await rig.press_lock_out()
            current = daemon.state.current
            assert current is not None and current.no_more_bets
            assert sorted(
                (e.seat, e.wager, e.amount) for e in current.wagers() if e.wager != "blackjack"
            ) == [
                (1, "bad_beat", 500),  # bad_beat.wager = "5.00": one chip
                (1, "straight_jack", 100),
                (2, "bad_beat", 500),
            ]
            # 12% of 10.00 on the Bad Beat, 15% of 1.00 on the Straight Jack, nothing on the Hit and Run.
            expected = {"bad_beat": "2501.20", "hit_and_run": "1000.00", "straight_jack": "5000.15"}
            await until(lambda: daemon.snapshot()["link"]["amounts"] == expected, 10, "the three meters")
            assert link.store is not None
            assert {k: p.amount for k, p in link.store.ledger.progressives.items()} == {
                "bad_beat": bj["bad_beat"].initial + 120,
                "hit_and_run": bj["hit_and_run"].initial,
                "straight_jack": bj["straight_jack"].initial + 15,
            }


async def test_a_new_meter_amount_is_pushed_on_the_link_topic(tmp_path: Path, pki: Pki) -> None:
    """A subscriber of the API's ``link`` topic (the dealer's screen) gets the meter's new amount
    as it comes, with no journal record and no poll of ``status`` (docs/local-api.md)."""
    async with linked_table(tmp_path, pki, "t1") as (_link, rig):
        daemon = daemon_of(rig)
        await until(lambda: bool(daemon.snapshot()["link"]["amounts"]), 10, "the meter's amount")
        async with await ApiClient.connect(rig.socket) as api, await ApiClient.connect(rig.socket) as watch:
            await watch.subscribe(["link"])
            await api_round(api, rig)
            async with asyncio.timeout(10):
                async for note in watch.notifications():
                    assert note.topic == "link"
                    if note.data["amounts"].get(PROGRESSIVE) == "10000.18":
                        break
            assert note.data["connected"] is True
            assert note.data["progressives"] == {"progressive": PROGRESSIVE}


def tamper_outbox(db: Path, seq: int, old: str, new: str) -> str:
    """As one who holds the file would, while the daemon runs: the outbox message ``seq``'s
    payload with ``old`` made ``new`` (past the schema's trigger, which refuses any change but
    the mark); returns the payload as it was."""
    import sqlite3

    conn = sqlite3.connect(db, isolation_level=None)
    try:
        (trigger,) = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'outbox_only_marked_sent'"
        ).fetchone()
        (payload,) = conn.execute("SELECT payload FROM outbox WHERE seq = ?", (seq,)).fetchone()
        assert old in payload, payload
        conn.execute("PRAGMA ignore_check_constraints = ON")  # json_valid(payload), too
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("DROP TRIGGER outbox_only_marked_sent")
        conn.execute("UPDATE outbox SET payload = ? WHERE seq = ?", (payload.replace(old, new), seq))
        conn.execute(trigger)
        conn.execute("COMMIT")
    finally:
        conn.close()
    return str(payload)


@pytest.mark.parametrize(
    ("tampered", "words"),
    [
        ('"wagers":1e999', "outbox seq {last} (contribution) cannot be encoded"),  # the encoder's
        ('"wagers":1,,', "outbox seq {last}: the payload is not JSON"),  # the journal's reader's
    ],
    ids=["unencodable", "not-json"],
)
async def test_a_fault_in_the_links_sender_closes_progressive_wagering_and_it_comes_back(
    tmp_path: Path, pki: Pki, tampered: str, words: str
) -> None:
    """A fault of the table's own (here a queued contribution changed on disk while the broker
    was down: a count the wire's encoder refuses, or a payload that is no JSON) ends neither the
    link's task nor its watch for good: progressive wagering closes at once, journaled with the
    fault's words, and the link tries again by itself; once the message can be read and sent it
    is, once, and the link is back."""
    async with linked_table(tmp_path, pki, "t3") as (link, rig):
        daemon = daemon_of(rig)
        assert daemon.link is not None
        publisher = daemon.link.publisher
        async with await ApiClient.connect(rig.socket) as api:
            await until(lambda: daemon.state.progressive_link_down is None, 10, "the link up")
            await api_round(api, rig)
            link.broker.stop(kill=True)
            await api_round(api, rig)  # its contribution waits in the outbox
            journal = rig.path / "journal.sqlite"
            last = max(contribution_seqs(journal))
            original = tamper_outbox(journal, last, '"wagers":1', tampered)
            connects = publisher.connects
            link.broker.start()
            await until(lambda: publisher.state.fault is not None, 10, "the sender's fault")
            status = await api.status()
            reason = status["link"]["unavailable"]
            assert "the table's link failed" in reason and words.format(last=last) in reason, reason
            await until(
                lambda: (daemon.state.progressive_link_down or "").startswith("the table's link failed"),
                5,
                "the fault journaled",
            )
            # It tries again by itself (and fails again on the same message, logged once).
            await until(lambda: publisher.connects >= connects + 2, 10, "a second try")
            tamper_outbox(journal, last, tampered, '"wagers":1')
            await until(lambda: daemon.state.progressive_link_down is None, 20, "the link back")
            await until(lambda: publisher.state.applied_seq >= last, 20, f"the meter's ack of seq {last}")
            assert link.store is not None
            assert contributions_in_store(link.store.path)["t3"] == contribution_seqs(journal)
            assert tampered not in original and publisher.state.fault is None


async def test_a_contribution_the_meter_refuses_closes_progressive_wagering_and_is_shown(
    tmp_path: Path, pki: Pki, capsys: pytest.CaptureFixture[str]
) -> None:
    """The meter refuses the table's contribution: its ``max_wager`` lowered to 0.50, below the
    table's 1.00 Progressive Payout Wager, after it accepted the table's declaration (the floor
    changed the meter's terms while the table ran). A refused contribution is a wager the table
    took that the meter never counted: progressive wagering closes at once with the meter's
    words (journaled, in status), so the next lock-out takes no progressive wager; nothing of it
    is applied at the meter; the refusal is shown with the meter's field and reason, in status
    and in ``tablectl link``, beside the count."""
    async with linked_table(tmp_path, pki, "t4") as (link, rig):
        daemon = daemon_of(rig)
        assert daemon.link is not None
        state = daemon.link.publisher.state
        await link.reconfigure((*PAYTABLE_B, 'max_wager = "0.50"'), lambda: meter_gone(rig))
        await wagering_open(rig)  # the new meter heard, the declaration it accepted still stands
        async with await ApiClient.connect(rig.socket) as api:
            await api_round(api, rig)
            (refused_seq,) = contribution_seqs(rig.path / "journal.sqlite")
            await until(lambda: daemon.state.progressive_link_down is not None, 10, "wagering closed")
            down = daemon.state.progressive_link_down
            assert down is not None
            assert f"the meter refused the table's contribution (outbox seq {refused_seq}" in down
            assert "max_wager" in down and "payload.wagered" in down
            assert (await api.status())["link"]["unavailable"] == down == state.contribution_refusal
            screen = TableModel()  # the dealer's screen, from the same status
            screen.apply_snapshot(await api.status())
            assert screen.meter.text == "UNAVAILABLE" and screen.meter.reason == down
            # The chip is still on seat 1's sensor: the next lock-out does not take it.
            before = len(daemon.refusals)
            await api_round(api, rig)
            assert contribution_seqs(rig.path / "journal.sqlite") == [refused_seq]
            refused_wagers = daemon.refusals.since(before)
            assert any(
                r.startswith("seat 1 progressive: progressive wagers are not recognized while")
                for r in refused_wagers
            ), refused_wagers
            refused = (await api.status())["link"]["refused"]
        assert refused["count"] == 1
        assert [r["seq"] for r in refused["last"]] == [refused_seq]
        (last,) = refused["last"]
        assert last["field"] == "payload.wagered" and "max_wager" in last["reason"]
        assert link.store is not None and contributions_in_store(link.store.path).get("t4", []) == []
        args = ["link", "--socket", str(rig.socket), "--config", str(rig.config_path)]
        assert await asyncio.to_thread(tablectl_main, args) == 0
        text = capsys.readouterr().out
        assert "  the meter refused 1 of the table's messages; the last:" in text
        assert f"    seq {refused_seq}, payload.wagered: 1.00 on 1 wager(s) is more than" in text
