"""The award handshake through the real daemon (issue 17, point 4): claim -> the meter's award
-> the floorperson's verification of the hand pay (the table's ``paid``, in its transaction) ->
the meter's acknowledgement (journaled at the table), which ends the Jackpot Lock; a claim the
meter refuses, or does not award within its award timeout, is settled by a floorperson: a hand
pay of the verified meter, or a void of the round. Real Mosquitto, the real meter service, the
bench rig's daemon (docs/progressive-link.md, "The award handshake")."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from controller.api_client import ApiClient, ApiError
from controller.link.table_link import AWARD_CLOSED
from controller.rules.core.events import Event
from controller.table import authority
from controller.tablectl.link import describe_link
from meter.config import load
from meter.ledger import Record
from meter.store import Store, iter_records
from sim.bench_rig import BENCH_FLOOR
from sim.link_rig import PROGRESSIVE, meter_config

from .meter_link import running_link
from .mosquitto import Pki
from .table_link import api_round, daemon_of, linked_rig, linked_table, until, wagering_open
from .test_link_claims import DISAGREES
from .test_link_table import royal_until_decision, settled_progressive

pytestmark = pytest.mark.asyncio


def records(store: Store | None, *kinds: str) -> list[Record]:
    assert store is not None
    return [r for r, *_ in iter_records(store.conn, store.path) if r.kind in kinds]


def facts(journal: Path, fact: str) -> list[dict[str, object]]:
    import json

    conn = sqlite3.connect(journal)
    try:
        rows = conn.execute("SELECT body FROM events WHERE kind = 'hardware_fact'").fetchall()
    finally:
        conn.close()
    bodies = [json.loads(r[0]) for r in rows]
    return [b for b in bodies if b.get("fact") == fact]


def outbox(journal: Path, kind: str) -> list[tuple[int, str]]:
    conn = sqlite3.connect(journal)
    try:
        return [
            (int(s), str(p))
            for s, p in conn.execute("SELECT seq, payload FROM outbox WHERE kind = ?", (kind,))
        ]
    finally:
        conn.close()


async def test_the_verified_hand_pay_is_the_tables_paid_and_the_meters_ack_ends_the_lock(
    tmp_path: Path, pki: Pki
) -> None:
    async with linked_table(tmp_path, pki, "t1") as (link, rig):
        daemon = daemon_of(rig)
        assert daemon.service is not None
        journal = daemon.service.journal.path
        async with await ApiClient.connect(rig.socket) as api:
            for _ in range(2):
                await api_round(api, rig)
            round_id = daemon.round_id
            assert round_id is not None
            await royal_until_decision(api, rig)
            await api.submit_event({"type": "decision", "seat": 1, "action": "bet"})
            await until(lambda: daemon.round_id != round_id, 15, "the award settling the round")
            (award,) = records(link.store, "award")
            assert link.store is not None
            assert link.store.ledger.progressives[PROGRESSIVE].pending is not None  # the lock is on
            await api_round(api, rig)  # the table deals on: its contribution does not end the lock
            await until(lambda: len(records(link.store, "contribution")) == 4, 30, "the next contribution")
            assert link.store.ledger.progressives[PROGRESSIVE].pending is not None
            assert not outbox(journal, "paid")
            # The dealer may not verify; the floorperson does: the paid goes with the verification.
            with pytest.raises(ApiError):
                await api.verify_payout(1, "progressive", round=round_id)
            await api.verify_payout(1, "progressive", round=round_id, auth=BENCH_FLOOR)
            ((_, payload),) = outbox(journal, "paid")
            assert f'"paid":"{award.body["paid"]}"' in payload.replace(" ", "")
            await until(lambda: bool(records(link.store, "paid")), 10, "the meter's paid record")
            (paid,) = records(link.store, "paid")
            assert (
                paid.body["award_seq"] == award.body["award_seq"] and paid.body["paid"] == award.body["paid"]
            )
            assert link.store.ledger.progressives[PROGRESSIVE].pending is None
            await until(lambda: bool(facts(journal, AWARD_CLOSED)), 10, "the acknowledgement journaled")
            (closed,) = facts(journal, AWARD_CLOSED)
            detail = closed["detail"]
            assert isinstance(detail, dict) and detail["outcome"] == "paid"
            assert (detail["award_seq"], detail["record_seq"]) == (award.body["award_seq"], paid.seq)
            await until(lambda: not daemon.snapshot()["link"]["locks"], 10, "the lock ended at the table")


async def test_a_refused_claim_is_settled_by_a_floorpersons_hand_pay_not_the_dealer(
    tmp_path: Path, pki: Pki
) -> None:
    async with linked_table(tmp_path, pki, "t1", paytable=DISAGREES) as (link, rig):
        daemon = daemon_of(rig)
        assert daemon.service is not None
        journal = daemon.service.journal.path
        async with await ApiClient.connect(rig.socket) as api:
            await api_round(api, rig)
            round_id = daemon.round_id
            await royal_until_decision(api, rig)
            await api.submit_event({"type": "decision", "seat": 1, "action": "bet"})

            def status() -> str:
                pending = daemon.snapshot()["link"]["pending"]
                return str(pending[0]["status"]) if pending else ""

            await until(lambda: status() == "REFUSED", 15, "the meter's refusal at the table")
            # The dealer's screen cannot claim a meter award, nor settle the claim.
            with pytest.raises(ApiError) as forbidden:
                await api.submit_event(
                    {"type": "meter", "name": "progressive", "seat": 1, "amount": "10000.00"}
                )
            assert forbidden.value.code == "bad_args"
            assert "meter amounts come only from the central meter" in forbidden.value.message
            # Behind the API, the table's one authority table says the same of every other source.
            claim = Event("meter", name="progressive", amount=1_000_000, seat=1)
            for source in ("dealer-ui", "floor", "gpio"):
                verdict = authority.judge(claim, source, daemon.state, shoe_installed=False)
                assert (
                    verdict.refuse is not None
                    and f"a meter from {source}; who may: meter: link" in verdict.refuse
                )
            assert authority.judge(claim, "link", daemon.state, shoe_installed=False).refuse is None
            settle = {"type": "claim_hand_pay", "seat": 1, "wager": "progressive", "meter": "10000.72"}
            with pytest.raises(ApiError) as dealer:
                await api.submit_event({**settle, "reason": "the meter refused it"})
            assert dealer.value.code == "auth_required" and "floorperson" in dealer.value.message
            with pytest.raises(ApiError) as no_reason:
                await api.submit_event({**settle, "reason": " "}, auth=BENCH_FLOOR)
            assert no_reason.value.code == "bad_args"
            assert daemon.round_id == round_id  # nothing of them is applied
            reason = "meter display read by floorperson F-17; the meter refused the row's terms"
            await api.submit_event({**settle, "reason": reason}, auth=BENCH_FLOOR)
            await until(lambda: daemon.round_id != round_id, 10, "the round settled")
            line = await settled_progressive(api, str(round_id))
            assert line["net"] == "+9999.72"  # 100% of the verified 10,000.72 less the 1.00 stake
            recalled = await api.recall_round(str(round_id), auth=BENCH_FLOOR)
            meters = [
                r for r in recalled["records"] if r["kind"] == "event" and r["body"].get("type") == "meter"
            ]
            seat = next(r for r in meters if r["body"].get("seat") == 1)
            assert (seat["source"], seat["actor"], seat["body"]["detail"]) == (
                "floor",
                BENCH_FLOOR.user,
                reason,
            )
            ((_, payload),) = outbox(journal, "paid")
            assert '"paid":"10000.72"' in payload.replace(" ", "")
            await until(lambda: bool(records(link.store, "paid")), 10, "the meter's record of the hand pay")
            (paid,) = records(link.store, "paid")
            assert paid.body["award_seq"] is None and not records(link.store, "award")
            await until(lambda: bool(facts(journal, AWARD_CLOSED)), 10, "the acknowledgement journaled")
            # A second settlement of the same claim: no claim waits any more.
            with pytest.raises(ApiError) as again:
                await api.submit_event({**settle, "reason": reason}, auth=BENCH_FLOOR)
            assert again.value.code == "refused"


async def test_a_timed_out_claim_is_voided_by_a_floorperson_and_the_late_award_returned(
    tmp_path: Path, pki: Pki
) -> None:
    async with running_link(tmp_path, pki, {"t1": "site-a"}, meter=False) as link:
        link.config_path = meter_config(
            tmp_path / "meter", link.broker, pki, {"t1": "site-a"}, award_timeout=10
        )
        link.config = load(link.config_path)
        await link.start_meter()
        async with linked_rig(tmp_path, pki, link.broker, "t1") as rig:
            daemon = daemon_of(rig)
            assert daemon.service is not None
            journal = daemon.service.journal.path
            await wagering_open(rig)
            async with await ApiClient.connect(rig.socket) as api:
                await api_round(api, rig)
                await until(
                    lambda: daemon.snapshot()["link"]["award_timeout_seconds"] == 10, 10, "the timeout"
                )
                round_id = daemon.round_id
                await royal_until_decision(api, rig)
                await until(lambda: len(records(link.store, "contribution")) == 2, 10, "the contributions")
                assert link.store is not None
                before = link.store.ledger.progressives[PROGRESSIVE].amount
                await link.stop_meter()  # the meter goes away before the claim
                await api.submit_event({"type": "decision", "seat": 1, "action": "bet"})
                started = time.monotonic()

                def status() -> str:
                    pending = daemon.snapshot()["link"]["pending"]
                    return str(pending[0]["status"]) if pending else ""

                await until(lambda: status() == "PENDING", 20, "PENDING")
                await until(lambda: status() == "TIMED OUT", 15, "the claim timed out")
                assert time.monotonic() - started >= 9
                assert "within 10 s of the hit" in str(daemon.snapshot()["link"]["pending"][0]["reason"])
                words = "\n".join(describe_link(daemon.snapshot()["link"]))  # tablectl link
                assert "TIMED OUT: seat 1 royal flush" in words and "a floorperson settles it" in words
                # The floorperson voids the round (the shoe misdealt seat 1): every wager returned.
                await api.submit_event(
                    {
                        "type": "irregularity",
                        "kind": "wrong_card_count",
                        "seat": 1,
                        "detail": "void of the claim",
                    },
                    auth=BENCH_FLOOR,
                )
                await until(lambda: daemon.round_id != round_id, 10, "the round voided")
                rounds = (await api.list_rounds(5))["rounds"]
                summary = next(r for r in rounds if r["round"] == round_id)
                assert summary["settlement"].get("void")
                ((_, payload),) = outbox(journal, "void")
                assert "wrong_card_count" in payload
                # The meter back: it awards the claim (its order), then the void closes the award
                # and returns it to the meter; the lock ends, the table journals the acknowledgement.
                await link.start_meter()
                await until(lambda: bool(records(link.store, "void")), 15, "the meter's void record")
                (award,) = records(link.store, "award")
                (void,) = records(link.store, "void")
                assert void.body["award_seq"] == award.body["award_seq"]
                p = link.store.ledger.progressives[PROGRESSIVE]
                assert p.pending is None
                assert p.amount == before  # the award returned: the meter as it stood before the claim
                await until(lambda: bool(facts(journal, AWARD_CLOSED)), 10, "the acknowledgement journaled")


async def test_a_timed_out_claim_hand_paid_by_a_floorperson_closes_the_late_award(
    tmp_path: Path, pki: Pki
) -> None:
    """The meter away at the hit: the claim times out, the floorperson hand-pays the meter he
    verified; the meter back awards the claim (its order) and the table's ``paid`` (by the
    floorperson) closes that award, the hand pay kept beside the award's: the lock ends."""
    async with running_link(tmp_path, pki, {"t1": "site-a"}, meter=False) as link:
        link.config_path = meter_config(
            tmp_path / "meter", link.broker, pki, {"t1": "site-a"}, award_timeout=10
        )
        link.config = load(link.config_path)
        await link.start_meter()
        async with linked_rig(tmp_path, pki, link.broker, "t1") as rig:
            daemon = daemon_of(rig)
            await wagering_open(rig)
            async with await ApiClient.connect(rig.socket) as api:
                await api_round(api, rig)
                await until(
                    lambda: daemon.snapshot()["link"]["award_timeout_seconds"] == 10, 10, "the timeout"
                )
                round_id = daemon.round_id
                await royal_until_decision(api, rig)
                await until(lambda: len(records(link.store, "contribution")) == 2, 10, "the contributions")
                await link.stop_meter()
                await api.submit_event({"type": "decision", "seat": 1, "action": "bet"})

                def status() -> str:
                    pending = daemon.snapshot()["link"]["pending"]
                    return str(pending[0]["status"]) if pending else ""

                await until(lambda: status() == "TIMED OUT", 15, "the claim timed out")
                await api.submit_event(
                    {
                        "type": "claim_hand_pay",
                        "seat": 1,
                        "wager": "progressive",
                        "meter": "10000.36",
                        "reason": "the meter unreachable; its display read by floorperson F-17",
                    },
                    auth=BENCH_FLOOR,
                )
                await until(lambda: daemon.round_id != round_id, 10, "the round settled")
                line = await settled_progressive(api, str(round_id))
                assert line["net"] == "+9999.36"
                await link.start_meter()
                await until(lambda: bool(records(link.store, "paid")), 15, "the meter's paid record")
                (award,) = records(link.store, "award")
                (paid,) = records(link.store, "paid")
                assert paid.body["award_seq"] == award.body["award_seq"] and paid.body["by_floorperson"]
                assert (paid.body["paid"], paid.body["award_paid"]) == ("10000.36", award.body["paid"])
                assert link.store is not None
                assert link.store.ledger.progressives[PROGRESSIVE].pending is None


def sent(journal: Path, kind: str) -> bool:
    conn = sqlite3.connect(journal)
    try:
        rows = conn.execute("SELECT sent_wall_ns FROM outbox WHERE kind = ?", (kind,)).fetchall()
    finally:
        conn.close()
    return bool(rows) and all(r[0] is not None for r in rows)


async def test_the_meters_closed_lost_while_the_table_was_down_is_asked_again_and_journaled_once(
    tmp_path: Path, pki: Pki
) -> None:
    """The table's ``paid`` reaches the broker, the table goes down, the meter (back) applies it and
    answers ``closed`` to no one (the table's session is clean). At the next start the table finds
    no ``award_closed`` for that hit and sends the ``paid`` again; the meter, which has it, answers
    with its recorded ``closed`` and applies nothing twice: the acknowledgement is journaled once,
    and a start after that sends nothing again and journals nothing twice."""
    async with running_link(tmp_path, pki, {"t1": "site-a"}) as link:
        async with linked_rig(tmp_path, pki, link.broker, "t1") as rig:
            daemon = daemon_of(rig)
            assert daemon.service is not None
            journal = daemon.service.journal.path
            await wagering_open(rig)
            async with await ApiClient.connect(rig.socket) as api:
                await api_round(api, rig)
                round_id = daemon.round_id
                await royal_until_decision(api, rig)
                await api.submit_event({"type": "decision", "seat": 1, "action": "bet"})
                await until(lambda: daemon.round_id != round_id, 15, "the award settling the round")
                await link.stop_meter()  # its durable session keeps what the table sends meanwhile
                await api.verify_payout(1, "progressive", round=round_id, auth=BENCH_FLOOR)
                await until(lambda: sent(journal, "paid"), 10, "the paid at the broker")
        await link.start_meter()
        await until(lambda: bool(records(link.store, "paid")), 15, "the meter's paid record")
        assert not facts(journal, AWARD_CLOSED)  # its answer went to a table that was not there
        async with linked_rig(tmp_path, pki, link.broker, "t1"):
            await until(lambda: bool(facts(journal, AWARD_CLOSED)), 20, "the closed asked again, journaled")
            (closed,) = facts(journal, AWARD_CLOSED)
            (paid,) = records(link.store, "paid")  # the paid sent again applied nothing
            detail = closed["detail"]
            assert isinstance(detail, dict) and (detail["outcome"], detail["record_seq"]) == (
                "paid",
                paid.seq,
            )
        async with linked_rig(tmp_path, pki, link.broker, "t1") as rig:
            daemon = daemon_of(rig)
            await until(lambda: daemon.snapshot()["link"]["meter_online"], 10, "the meter heard")
            assert daemon.link is not None
            await until(lambda: daemon.link is not None and daemon.link.publisher.connects > 0, 10, "linked")
            await asyncio.sleep(daemon.link.publisher.resend_after * 2)  # past a resend's turn
        assert len(facts(journal, AWARD_CLOSED)) == 1
        assert len(records(link.store, "paid")) == 1
