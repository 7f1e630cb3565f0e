"""A real table's claim judged at the meter (issue 17, point 3): the daemon sends the seat's cards
with its hit; the meter pays its own row of the filed paytable, or refuses the claim with the
reason and the table shows it (docs/progressive-link.md, "What the meter checks")."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from controller.api_client import ApiClient
from meter.ledger import Record
from meter.store import Store, iter_records
from sim.link_rig import PARAMS

from .mosquitto import Pki
from .table_link import api_round, daemon_of, linked_table, until
from .test_link_table import money_text, royal_until_decision, settled_progressive

pytestmark = pytest.mark.asyncio

#: Caribbean Stud's Progressive paytable B (§ 639a.12(d)(1)), the top rows, at the meter.
PAYTABLE_B = ('ranking = "high"', 'rows = { "royal flush" = "100%", "straight flush" = "10%" }')
#: A meter whose filing disagrees with the table's (royal flush 50%): the claim is refused.
DISAGREES = ('ranking = "high"', 'rows = { "royal flush" = "50%", "straight flush" = "10%" }')


def awards(store: Store | None) -> list[Record]:
    assert store is not None
    return [r for r, *_ in iter_records(store.conn, store.path) if r.kind == "award"]


async def test_the_tables_royal_flush_is_judged_and_paid_from_the_meters_row(
    tmp_path: Path, pki: Pki
) -> None:
    async with linked_table(tmp_path, pki, "t1", paytable=PAYTABLE_B) as (link, rig):
        daemon = daemon_of(rig)
        async with await ApiClient.connect(rig.socket) as api:
            for _ in range(3):
                await api_round(api, rig)
            round_id = daemon.round_id
            assert round_id is not None
            await royal_until_decision(api, rig)
            await api.submit_event({"type": "decision", "seat": 1, "action": "bet"})
            await until(lambda: daemon.round_id != round_id, 15, "the award settling the round")
            meter = PARAMS.initial + int(Fraction(4 * 100) * PARAMS.rate / 100)
            line = await settled_progressive(api, round_id)
            assert line["result"] == "win" and line["net"] == f"+{money_text(meter - 100)}"
            (award,) = awards(link.store)
            assert award.body["cards"] == ["As", "Ks", "Qs", "Js", "Ts"] and award.body["seat"] == 1
            assert award.body["paid"] == money_text(meter)


async def test_a_claim_the_meter_refuses_is_shown_refused_at_the_table(tmp_path: Path, pki: Pki) -> None:
    async with linked_table(tmp_path, pki, "t1", paytable=DISAGREES) as (link, rig):
        daemon = daemon_of(rig)
        async with await ApiClient.connect(rig.socket) as api:
            await api_round(api, rig)
            round_id = daemon.round_id
            await royal_until_decision(api, rig)
            await api.submit_event({"type": "decision", "seat": 1, "action": "bet"})

            def refused() -> bool:
                return any(p["status"] == "REFUSED" for p in daemon.snapshot()["link"]["pending"])

            await until(refused, 15, "the meter's refusal at the table")
            (shown,) = daemon.snapshot()["link"]["pending"]
            assert shown["field"] == "payload.award" and shown["seat"] == 1
            assert "royal flush pays 50% of the meter in the meter's paytable" in str(shown["reason"])
            assert daemon.round_id == round_id  # nothing paid: the round is not settled from it
            assert not awards(link.store)
