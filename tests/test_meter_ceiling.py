"""A progressive's ceiling and its overflow, at the meter (issue 17, point 3's last sentence).

Against the meter's own store (meter/store.py), as tests/test_meter.py: contributions that would
take a meter past its ceiling go to its overflow, split to the cent; a hit puts the own overflow
meter's cents back on the meter up to the ceiling; ``verify`` passes; ``kill -9`` of a process
applying them loses nothing committed.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meter.config import ConfigError, load
from meter.main import main
from meter.store import ConfigMismatch, Store
from sim.link_rig import PAYTABLE_B, PROGRESSIVE
from sim.sim_table import SimTable
from wire import Award, Contribution, Declaration, Hit, Parameters, Share, TableMessage, Void

from .meter_link import running_link
from .mosquitto import Pki

ROYAL = ("As", "Ks", "Qs", "Js", "Ts")
PARAMS = Parameters(1_000_000, 1_000_000, Fraction(18))

CONFIG = """
[link]
id = "floor"
[store]
path = "meter.db"
[broker]
tls = false
[progressives.cs-floor]
initial = "10000.00"
reset = "10000.00"
rate_of_progression = "18%"
ranking = "high"
rows = { "royal flush" = "100%", "straight flush" = "10%" }
ceiling = "10010.00"
[progressives.cs-next]
initial = "5000.00"
reset = "5000.00"
rate_of_progression = "18%"
ranking = "high"
rows = { "royal flush" = "100%" }
[tables.t1]
site = "site-a"
progressives = ["cs-floor", "cs-next"]
"""
TO_NEXT = CONFIG.replace('ceiling = "10010.00"', 'ceiling = "10010.00"\noverflow = "cs-next"')


def write(tmp: Path, text: str) -> Path:
    path = tmp / "meter.toml"
    path.write_text(text)
    return path


def open_store(path: Path) -> Store:
    config = load(path)
    return Store(config.store, config)


def msg(seq: int, payload: object) -> TableMessage:
    return TableMessage("t1", seq, str(uuid.uuid4()), seq, f"e{seq}", None, payload)  # type: ignore[arg-type]


def declare() -> TableMessage:
    return msg(1, Declaration({"cs-floor": PARAMS, "cs-next": Parameters(500_000, 500_000, Fraction(18))}))


def contribution(seq: int, wagered: int, progressive: str = "cs-floor") -> TableMessage:
    return msg(seq, Contribution(progressive, max(1, -(-wagered // 10_000)), wagered))


@pytest.fixture
def own(tmp_path: Path) -> Iterator[tuple[Store, Path]]:
    path = write(tmp_path, CONFIG)
    store = open_store(path)
    yield store, path
    store.close()


# --- configuration -----------------------------------------------------------------------------


def test_every_ceiling_error_at_once_naming_the_option_and_the_section(tmp_path: Path) -> None:
    text = (
        CONFIG.replace('ceiling = "10010.00"', 'ceiling = "9999.99"\noverflow = "cs-nxt"')
        .replace('rows = { "royal flush" = "100%" }', 'rows = { "royal flush" = "100%" }\n'
                 'overflow = "cs-floor"')
        .replace('[tables.t1]', '[tables.progressive-meter]\nsite = "site-a"\nprogressives = ["cs-floor"]\n'
                 '[tables.bridge-site-b]\nsite = "site-a"\nprogressives = ["cs-floor"]\n[tables.t1]')
    )  # fmt: skip
    with pytest.raises(ConfigError) as err:
        load(write(tmp_path, text))
    problems = err.value.problems
    assert (
        "[progressives.cs-floor] ceiling: 9999.99 is below its initial amount 10000.00: the meter starts "
        "and resets at or below its ceiling" in problems
    )
    assert any(
        p.startswith("[progressives.cs-floor] ceiling: 9999.99 is below its reset amount") for p in problems
    )
    assert any(
        p.startswith("[progressives.cs-floor] overflow: 'cs-nxt' is not a progressive of this meter; "
                     "did you mean 'cs-next'?") for p in problems
    )  # fmt: skip
    assert (
        "[progressives.cs-next] overflow: needs a ceiling (the amount past which the excess goes to it)"
        in problems
    )
    assert any(
        p.startswith("[tables.progressive-meter]: the table id 'progressive-meter' is the broker's")
        for p in problems
    )
    assert any(
        p.startswith("[tables.bridge-site-b]: the table id 'bridge-site-b' is the broker's") for p in problems
    )
    assert len(problems) == 6, problems


def test_an_overflow_of_itself_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load(
            write(
                tmp_path,
                CONFIG.replace('ceiling = "10010.00"', 'ceiling = "10010.00"\noverflow = "cs-floor"'),
            )
        )
    assert err.value.problems == ["[progressives.cs-floor] overflow: 'cs-floor' is this progressive itself"]


def test_a_ceiling_equal_to_initial_and_reset_is_allowed(tmp_path: Path) -> None:
    config = load(write(tmp_path, CONFIG.replace('ceiling = "10010.00"', 'ceiling = "10000.00"')))
    assert config.ceilings["cs-floor"].amount == 1_000_000


def test_a_running_progressive_keeps_its_ceiling(own: tuple[Store, Path]) -> None:
    store, path = own
    store.close()
    write(path.parent, CONFIG.replace('ceiling = "10010.00"', 'ceiling = "20000.00"'))
    with pytest.raises(ConfigMismatch, match=r"\[progressives.cs-floor\] ceiling: 20000.00 .* at 10010.00"):
        open_store(path)
    write(path.parent, TO_NEXT)
    with pytest.raises(
        ConfigMismatch, match=r"\[progressives.cs-floor\] overflow: cs-next .* its own overflow"
    ):
        open_store(path)


# --- the split and the hit ---------------------------------------------------------------------


def test_a_contribution_crossing_the_ceiling_splits_to_the_cent(own: tuple[Store, Path]) -> None:
    store, path = own
    # 18% of 55.25 is 994.5 cents: 994 cents, the half carried; the meter is 10,009.94.
    store.apply([declare(), contribution(2, 5525)])
    p = store.ledger.progressives["cs-floor"]
    assert (p.amount, p.carry, p.held) == (1_000_994, Fraction(1, 2), 0)
    # 18% of 1.00 + the half = 18.5: 18 cents, 6 to the ceiling of 10,010.00 and 12 past it.
    out = store.apply([contribution(3, 100)])[0].record.body
    assert (out["added"], out["amount_after"], out["to_overflow"], out["overflow"]) == (
        "0.18",
        "10010.00",
        "0.12",
        None,
    )
    assert (p := store.ledger.progressives["cs-floor"]).amount == 1_001_000 and p.held == 12
    store.apply([contribution(4, 10_000)])  # 18.00 + the half: all of it past the ceiling
    p = store.ledger.progressives["cs-floor"]
    assert (p.amount, p.held, p.over_ceiling, p.carry) == (1_001_000, 1812, 1812, Fraction(1, 2))
    # The royal flush takes the whole meter; the meter resets to 10,000.00 and its own overflow
    # meter puts back what it holds, up to the ceiling: 10.00 of the 18.12, 8.12 still held.
    hit = store.apply([msg(5, Hit("cs-floor", 1, "royal flush", Share(Fraction(100)), cards=ROYAL))])[0]
    assert hit.reply is not None and hit.reply.kind == "award"
    assert (hit.reply.paid, hit.reply.meter_after) == (1_001_000, 1_001_000)
    assert hit.record.body["from_overflow"] == "10.00"
    p = store.ledger.progressives["cs-floor"]
    assert (p.amount, p.held) == (1_001_000, 812)
    store.close()
    again = open_store(path)  # the chain and every amount folded again, the overflow's state checked
    assert (again.ledger.progressives["cs-floor"].amount, again.ledger.progressives["cs-floor"].held) == (
        1_001_000,
        812,
    )
    again.close()


def test_a_void_gives_back_to_the_meter_and_its_overflow_what_the_hit_took(own: tuple[Store, Path]) -> None:
    store, _ = own
    store.apply(
        [declare(), contribution(2, 10_000), contribution(3, 10_000)]
    )  # 36.00 on: 10.00 on, 26.00 past
    before = store.ledger.progressives["cs-floor"]
    total = before.amount + before.held
    store.apply([msg(4, Hit("cs-floor", 1, "royal flush", Share(Fraction(100)), cards=ROYAL))])
    store.apply([msg(5, Void("cs-floor", 4, "floorperson F-17: a misread card"))])
    p = store.ledger.progressives["cs-floor"]
    assert (p.amount, p.held) == (1_001_000, 2600) and p.amount + p.held == total


def test_the_excess_goes_to_the_progressive_the_submission_names(tmp_path: Path) -> None:
    path = write(tmp_path, TO_NEXT)
    store = open_store(path)
    try:
        store.apply([declare(), contribution(2, 10_000)])  # 18.00: 10.00 on cs-floor, 8.00 on cs-next
        floor, nxt = store.ledger.progressives["cs-floor"], store.ledger.progressives["cs-next"]
        assert (floor.amount, floor.held, floor.over_ceiling, nxt.amount) == (1_001_000, 0, 800, 500_800)
        hit = store.apply([msg(3, Hit("cs-floor", 1, "royal flush", Share(Fraction(100)), cards=ROYAL))])[0]
        assert isinstance(hit.reply, Award) and hit.reply.meter_after == 1_000_000  # cs-next keeps its own
        assert hit.record.body["from_overflow"] == "0.00"
        assert store.ledger.progressives["cs-next"].amount == 500_800
    finally:
        store.close()
    assert main(["--config", str(path), "verify"]) == 0


def test_an_overflow_progressive_with_its_own_ceiling_keeps_the_rest_on_its_own_overflow(
    tmp_path: Path,
) -> None:
    text = TO_NEXT.replace(
        'rows = { "royal flush" = "100%" }', 'rows = { "royal flush" = "100%" }\nceiling = "5000.05"'
    )
    path = write(tmp_path, text)
    store = open_store(path)
    try:
        store.apply(
            [declare(), contribution(2, 10_000)]
        )  # 18.00: 10.00 on cs-floor, 0.05 on cs-next, 7.95 held
        nxt = store.ledger.progressives["cs-next"]
        assert (nxt.amount, nxt.held, nxt.over_ceiling) == (500_005, 795, 795)
        hit = store.apply([msg(3, Hit("cs-next", 1, "royal flush", Share(Fraction(100)), cards=ROYAL))])[0]
        assert isinstance(hit.reply, Award) and (hit.reply.paid, hit.reply.meter_after) == (500_005, 500_005)
        assert store.ledger.progressives["cs-next"].held == 790
    finally:
        store.close()
    assert main(["--config", str(path), "verify"]) == 0


def test_status_shows_the_overflow(own: tuple[Store, Path], capsys: pytest.CaptureFixture[str]) -> None:
    store, path = own
    store.apply([declare(), contribution(2, 10_000)])
    assert main(["--config", str(path), "status", "--json"]) == 0
    floor = next(
        p for p in json.loads(capsys.readouterr().out)["progressives"] if p["progressive"] == "cs-floor"
    )
    assert (floor["amount"], floor["ceiling"], floor["overflow"]) == ("10010.00", "10010.00", None)
    assert (floor["overflow_held"], floor["over_ceiling"]) == ("8.00", "8.00")
    assert main(["--config", str(path), "status"]) == 0
    assert (
        "ceiling 10010.00: 8.00 past it to its own overflow meter, which holds 8.00"
        in capsys.readouterr().out
    )
    store.apply([msg(3, Hit("cs-floor", 1, "royal flush", Share(Fraction(100)), cards=ROYAL))])
    assert main(["--config", str(path), "history"]) == 0
    out = capsys.readouterr().out
    assert (
        "opened at 10000.00 (reset 10000.00, rate 18%, ceiling 10010.00, overflow its own overflow meter)"
        in out
    )
    assert "+18.00, meter 10000.00 -> 10010.00, 8.00 past the ceiling to its own overflow meter" in out
    assert "meter 10010.00 -> 10008.00 (8.00 of it from the overflow)" in out
    assert main(["--config", str(path), "verify"]) == 0


def test_the_store_refuses_a_changed_overflow(
    own: tuple[Store, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    store, path = own
    store.apply([declare(), contribution(2, 10_000)])
    store.close()
    conn = sqlite3.connect(path.parent / "meter.db")
    conn.execute("UPDATE overflow_state SET held = held + 100")
    conn.commit()
    conn.close()
    assert main(["--config", str(path), "verify"]) == 65
    assert "the overflow kept" in capsys.readouterr().err


# --- the property: nothing contributed is lost or made ------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(min_value=1, max_value=100_000), min_size=1, max_size=30),
    st.booleans(),
    st.booleans(),
)
def test_what_is_contributed_is_the_meters_growth_plus_the_overflows(
    wagers: list[int], to_next: bool, hit_halfway: bool
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = write(Path(tmp), TO_NEXT if to_next else CONFIG)
        store = open_store(path)
        try:
            messages = [declare()] + [contribution(i + 2, w) for i, w in enumerate(wagers)]
            half = len(messages) // 2 + 1
            first = store.apply(messages[:half])
            hits = []
            if hit_halfway:
                hits = store.apply(
                    [msg(half + 1, Hit("cs-floor", 1, "royal flush", Share(Fraction(100)), cards=ROYAL))]
                )
            rest = [dataclasses_replace_seq(m, m.seq + (1 if hit_halfway else 0)) for m in messages[half:]]
            last = store.apply(rest)
            added = sum(
                int(Fraction(a.record.body["added"]) * 100)
                for a in first + last
                if a.record.kind == "contribution"
            )
            floor, nxt = store.ledger.progressives["cs-floor"], store.ledger.progressives["cs-next"]
            paid = sum(h.reply.paid for h in hits if h.reply is not None and h.reply.kind == "award")
            # A 100% award pays the whole meter and puts it back at its reset amount (the house's
            # 10,000.00 again): what came in is what the meters and overflows grew, plus what was paid.
            growth = (floor.amount - 1_000_000) + floor.held + (nxt.amount - 500_000) + nxt.held + paid
            growth -= 1_000_000 * len(hits)
            assert growth == added
            assert floor.amount <= 1_001_000
            assert floor.over_ceiling == (nxt.amount - 500_000 if to_next else floor.held + sum(
                int(Fraction(h.record.body.get("from_overflow", "0")) * 100) for h in hits
            ))  # fmt: skip
        finally:
            store.close()
        assert main(["--config", str(path), "verify"]) == 0


def dataclasses_replace_seq(m: TableMessage, seq: int) -> TableMessage:
    return TableMessage(m.table, seq, m.message_id, seq, f"e{seq}", None, m.payload)


# --- kill -9 ----------------------------------------------------------------------------------

_WRITER = """
import sys, uuid
from pathlib import Path
from fractions import Fraction
from meter.config import load
from meter.store import Store
from wire import Contribution, Declaration, Parameters, TableMessage
config = load(Path(sys.argv[1]))
store = Store(config.store, config)
seq = store.applied_seqs().get("t1", 0)
if seq == 0:
    decl = Declaration({"cs-floor": Parameters(1_000_000, 1_000_000, Fraction(18)),
                        "cs-next": Parameters(500_000, 500_000, Fraction(18))})
    store.apply([TableMessage("t1", 1, str(uuid.uuid4()), 1, "e1", None, decl)])
    seq = 1
while True:
    batch = [TableMessage("t1", s, str(uuid.uuid4()), s, f"e{s}", None, Contribution("cs-floor", 1, 737))
             for s in range(seq + 1, seq + 6)]
    store.apply(batch)
    seq += 5
    print(seq, flush=True)
"""


def test_kill_9_while_contributions_cross_the_ceiling_loses_nothing_committed(tmp_path: Path) -> None:
    path = write(tmp_path, TO_NEXT)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    told = 0
    for round_ in range(4):
        proc = subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(path)], stdout=subprocess.PIPE, text=True, env=env
        )
        assert proc.stdout is not None
        deadline = time.monotonic() + 30
        line = ""
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if line and int(line) >= told + 5 * (3 + round_):
                break
        told = int(line)  # the seq last committed and told
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        store = open_store(path)  # verified from record 1
        try:
            seq = store.applied_seqs()["t1"]
            assert seq >= told
            floor, nxt = store.ledger.progressives["cs-floor"], store.ledger.progressives["cs-next"]
            contributed = seq - 1
            # 18% of 7.37 is 132.66 cents each: exactly floor(13266 x n / 100) cents on the two meters.
            assert (floor.amount - 1_000_000) + (nxt.amount - 500_000) == 13266 * contributed // 100
            assert floor.amount <= 1_001_000
            told = seq
        finally:
            store.close()
    assert main(["--config", str(path), "verify"]) == 0


# --- on a real broker: what the tables are told ----------------------------------------------------


@pytest.mark.asyncio
async def test_on_the_link_the_tables_are_told_the_meter_stops_at_its_ceiling(
    tmp_path: Path, pki: Pki
) -> None:
    """The meter's service on a real Mosquitto (TLS, the ACL): two tables' contributions take the
    meter past its ceiling of 10,001.00; the amount they are told stops there, the excess is on
    the own overflow meter (every table told the ceiling and what the overflow holds), and the royal
    flush's award puts it back on the meter up to the ceiling."""
    ceiling = (*PAYTABLE_B, 'ceiling = "10001.00"')
    async with running_link(tmp_path, pki, {"t1": "site-a", "t2": "site-a"}, paytable=ceiling) as link:
        stop = asyncio.Event()
        tables = [SimTable(n, "site-a", link.broker, link.pki) for n in ("t1", "t2")]
        runs = [asyncio.create_task(t.run(stop)) for t in tables]
        try:
            for t in tables:
                t.declare()
                for _ in range(5):
                    t.contribute(525)  # 18% of 5.25: 94.5 cents each
            for t in tables:
                await t.all_acked()
            # 10 x 94.5 = 945 cents: 100 on the meter, 845 past the ceiling.
            # Each table is told the ceiling and what its own overflow meter holds.
            await tables[0].wait(
                lambda: (
                    tables[0].amounts.get(PROGRESSIVE) is not None
                    and tables[0].amounts[PROGRESSIVE].amount == 1_000_100
                    and tables[0].amounts[PROGRESSIVE].overflow_held == 845
                ),
                10,
                "the meter at its ceiling, 8.45 on its overflow",
            )
            told = tables[0].amounts[PROGRESSIVE]
            assert (told.ceiling, told.overflow_to) == (1_000_100, None)
            assert link.store is not None
            p = link.store.ledger.progressives[PROGRESSIVE]
            assert (p.amount, p.held, p.carry) == (1_000_100, 845, Fraction(0))
            hit = tables[1].hit(Share(Fraction(100)))
            await tables[1].wait(lambda: hit.seq in tables[1].awards, 10, "the award")
            award = tables[1].awards[hit.seq]
            # Paid the meter (10,001.00); the reset (10,000.00) plus 1.00 of the overflow's 8.45.
            assert (award.paid, award.meter_after) == (1_000_100, 1_000_100)
            assert link.store.ledger.progressives[PROGRESSIVE].held == 745
            await tables[0].wait(
                lambda: tables[0].amounts[PROGRESSIVE].overflow_held == 745, 10, "the other table told 7.45"
            )
        finally:
            stop.set()
            await asyncio.gather(*runs)
    assert main(["--config", str(link.config_path), "verify"]) == 0


@pytest.mark.asyncio
async def test_a_daemon_on_the_link_shows_the_ceiling_and_its_overflow_meter(
    tmp_path: Path, pki: Pki
) -> None:
    """A meter whose ceiling is its initial amount (every cent to its own overflow meter): the real
    daemon's status and ``tablectl link`` say the ceiling and what the overflow meter holds, as the
    meter told it, after a round's contribution."""
    from controller.api_client import ApiClient
    from controller.tablectl.link import describe_link

    from .table_link import api_round, daemon_of, linked_rig, until, wagering_open

    at_initial = (*PAYTABLE_B, 'ceiling = "10000.00"')
    async with (
        running_link(tmp_path, pki, {"t1": "site-a"}, paytable=at_initial) as link,
        linked_rig(tmp_path, pki, link.broker, "t1") as rig,
    ):
        daemon = daemon_of(rig)
        await wagering_open(rig)
        async with await ApiClient.connect(rig.socket) as api:
            await api_round(api, rig)

        def told() -> dict[str, object]:
            ceilings: dict[str, dict[str, object]] = daemon.snapshot()["link"]["ceilings"]
            return ceilings.get(PROGRESSIVE, {})

        await until(lambda: told().get("overflow_held", "0.00") != "0.00", 10, "the overflow told")
        assert link.store is not None
        p = link.store.ledger.progressives[PROGRESSIVE]
        assert p.amount == 1_000_000 and p.held > 0
        held = f"{p.held // 100}.{p.held % 100:02d}"
        assert told() == {"ceiling": "10000.00", "overflow_held": held}
        words = "\n".join(describe_link({**daemon.snapshot()["link"], "configured": True}))
        assert f"ceiling 10000.00: its overflow meter holds {held}" in words, words
