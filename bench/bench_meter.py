"""One central meter under 200 simulated tables: contributions per second, sustained.

Run: ``PYTHONPATH=. .venv/bin/python bench/bench_meter.py [--tables 200] [--per-table 100]``
(needs ``mosquitto``: scripts/system-deps).

A real Mosquitto with the shipped configuration (TLS, each client named by its certificate,
the ACL, ``persistence true``) on loopback; the meter as its own process (``python -m meter
run``, its store with ``synchronous=FULL``); 200 tables in this process, each its own MQTT
connection, each with ``--per-table`` contributions in its outbox, sent as the table will
(QoS 1, 20 in flight, in seq order, again after the meter's ack). Timed: from the first
publish until every table holds the meter's ack of its last seq, i.e. every contribution
durable in the meter's store and acknowledged back. The meter's own rate is read from its
store (first to last contribution record).

Peers, in the same run:

- the bare store: ``meter.store.Store.apply`` called directly, in this process, on a new store
  of the same configuration, with the very messages of the run in the very batches the meter
  made of them (a batch is one ``apply``: its records share one ``wall_ns``), the live phase's
  first (not timed) and then the drain's (timed): what the meter adds to its store (the broker,
  reading and checking each message, ordering, the acks and amounts back) is the difference;
- a bare aiomqtt QoS 1 publish loop against the same broker (20 in flight, the same payload
  size, a topic nobody reads), the rate the broker and the client library give with no meter.

Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import sqlite3
import sys
import tempfile
import time
import uuid
from pathlib import Path

import aiomqtt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.cpu import cpu_by_part, per_item, shares
from meter.config import load
from meter.ledger import Item
from meter.store import Store
from sim.link_rig import meter_config, meter_process
from sim.mosquitto import USERS, Broker, Pki
from sim.sim_table import SimTable


async def peer(broker: Broker, pki: Pki, messages: int, size: int) -> float:
    payload = b"x" * size
    async with aiomqtt.Client(
        broker.host,
        broker.port,
        username="observer",
        password=pki.passwords["observer"],
        identifier=f"peer-{uuid.uuid4().hex[:6]}",
        tls_context=pki.context("observer"),
        socket_options=((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),),
    ) as client:
        client.pending_calls_threshold = 10**6
        start = time.perf_counter()
        for i in range(0, messages, 20):
            await asyncio.gather(
                *(client.publish("bench/peer", payload, qos=1) for _ in range(min(20, messages - i)))
            )
        return messages / (time.perf_counter() - start)


TABLES = "the tables (this process)"


def batches(db: Path, tables: dict[str, SimTable]) -> list[list[Item]]:
    """The meter's batches, in order, as the messages the tables sent (a batch: one ``wall_ns``)."""
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "SELECT wall_ns, table_id, table_seq FROM records WHERE table_id IS NOT NULL ORDER BY seq"
    ).fetchall()
    conn.close()
    out: list[list[Item]] = []
    last = None
    for wall_ns, table, seq in rows:
        if wall_ns != last:
            out.append([])
            last = wall_ns
        out[-1].append(tables[table].outbox[seq - 1])
    return out


def bare_store(config: Path, root: Path, phases: list[list[list[Item]]]) -> list[float]:
    """Contributions per second of ``Store.apply`` alone on each phase's batches, in turn."""
    store = Store(root / "bare.db", load(config))
    rates = []
    try:
        for phase in phases:
            start = time.perf_counter()
            for batch in phase:
                store.apply(batch)
            rates.append(sum(map(len, phase)) / (time.perf_counter() - start))
    finally:
        store.close()
    return rates


async def run(n_tables: int, per_table: int) -> None:
    root = Path(tempfile.mkdtemp(prefix="bench-meter-"))
    names = [f"t{i:03d}" for i in range(1, n_tables + 1)]
    pki = Pki(root / "pki", users=(*USERS, *names))
    broker = Broker(root, pki)
    broker.start()
    config = meter_config(root / "meter", broker, pki, dict.fromkeys(names, "site-a"), heartbeat=10)
    meter = meter_process(config, root / "meter.log")
    stop = asyncio.Event()
    tables = [SimTable(n, "site-a", broker, pki, resend_after=10.0) for n in names]
    for t in tables:
        t.declare()
        for k in range(per_table):
            t.contribute(500 + k % 7 * 25, 1 + k % 5)
    size = len(tables[0].outbox[1].encode())
    try:
        peer_rate = await peer(broker, pki, n_tables * per_table // 2, size)
        # 1. Live: every table sending at once, the meter applying and acknowledging.
        broker_pid = broker.pid
        assert broker_pid is not None
        cpu_before = cpu_by_part(TABLES, meter.pid, broker_pid)
        start = time.perf_counter()
        runs = [asyncio.create_task(t.run(stop)) for t in tables]
        for t in tables:
            await t.all_acked(timeout=600)
        live = time.perf_counter() - start
        cpu_live = cpu_by_part(TABLES, meter.pid, broker_pid)
        # 2. A backlog: the meter stopped while the tables go on; the broker keeps it all in the
        # meter's session; then the meter alone drains it (its own rate, not the tables').
        meter.send_signal(signal.SIGTERM)
        meter.wait(20)
        for t in tables:
            for k in range(per_table):
                t.contribute(500 + k % 7 * 25, 1 + k % 5)
        for t in tables:
            await t.wait(lambda t=t: t.sent >= len(t.outbox), 600, "the broker's PUBACKs")
        start = time.perf_counter()
        spawned_ns = time.time_ns()
        meter = meter_process(config, root / "meter.log")
        for t in tables:
            await t.all_acked(timeout=600)
        drain = time.perf_counter() - start
        acked_ns = time.time_ns()
        stop.set()
        await asyncio.gather(*runs, return_exceptions=True)
        peer_after = await peer(broker, pki, n_tables * per_table // 2, size)
    finally:
        meter.send_signal(signal.SIGTERM)
        meter.wait(20)
        broker.stop()
    total = n_tables * per_table
    db = root / "meter" / "meter.db"
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT wall_ns FROM records WHERE kind = 'contribution' ORDER BY seq").fetchall()
    conn.close()
    assert len(rows) == 2 * total, (len(rows), 2 * total)
    backlog = [r[0] for r in rows[total:]]
    # From the first batch's commit to the last's: the first batch's own apply is not in it.
    # A backlog the meter applied in one batch has no first-to-last span: not measured then.
    span = (backlog[-1] - backlog[0]) / 1e9
    meter_rate = (total - backlog.count(backlog[0])) / span if span > 0 else None
    made = batches(db, {t.table: t for t in tables})
    first_drained = next(i for i, b in enumerate(made) if b[0].seq > per_table + 1)
    live_batches, drain_batches = made[:first_drained], made[first_drained:]
    # The declarations (the first batches) are not timed.
    declared = next(i for i, b in enumerate(live_batches) if b[-1].seq > 1)
    _, bare_live, bare = bare_store(
        config, root, [live_batches[:declared], live_batches[declared:], drain_batches]
    )
    print(
        f"{n_tables} tables x {per_table} contributions ({size}-byte messages), TLS, QoS 1, synchronous=FULL"
    )
    print(f"  live, all tables at once, until every ack is back: {total / live:8.0f} contributions/s")
    print(f"    CPU in it ({live:.2f} s on {os.cpu_count()} cores): " + shares(cpu_before, cpu_live, live))
    cost = per_item(cpu_before, cpu_live, total)
    print("    CPU a contribution in it: " + ", ".join(f"{p} {c * 1e6:.0f} us" for p, c in cost.items()))
    print(
        f"  a backlog of {total} drained by the meter (start, verify, apply, ack): "
        f"{total / drain:8.0f} contributions/s"
    )
    own = "not measured (one batch)" if meter_rate is None else f"{meter_rate:8.0f} contributions/s"
    print(
        f"  the meter's own apply rate in that drain (its store): {own} "
        f"(its start, the check of its store and the connect to its first commit: "
        f"{(backlog[0] - spawned_ns) / 1e9:.2f} s; its last commit to the last ack at the table: "
        f"{(acked_ns - backlog[-1]) / 1e9:.2f} s)"
    )
    for name, phase, rate in (("live", live_batches, bare_live), ("drain", drain_batches, bare)):
        sizes = sorted(map(len, phase))
        print(
            f"  peer, the bare store (Store.apply alone) on the {name} phase's {len(sizes)} batches as the "
            f"meter made them (median {sizes[len(sizes) // 2]}, max {sizes[-1]}): {rate:8.0f} contributions/s"
        )
    print(
        f"  ratio to the bare store on the same batches: live {total / live / bare_live:.2f}x, "
        f"drain {total / drain / bare:.2f}x"
        + ("" if meter_rate is None else f" (the meter's own apply rate in it {meter_rate / bare:.2f}x)")
    )
    # The live rate's ceiling on this machine at those costs, every core busy: with the meter,
    # and with the meter costing nothing (the bench's tables and the broker alone).
    cores = os.cpu_count() or 1
    ceiling = cores / sum(cost.values())
    without_meter = cores / (cost[TABLES] + cost["the broker"])
    print(
        f"  the live rate these {cores} cores allow at that CPU a contribution: {ceiling:8.0f} /s "
        f"({ceiling / bare_live:.2f}x the bare store); with the meter costing nothing, the tables "
        f"and the broker alone: {without_meter:8.0f} /s ({without_meter / bare_live:.2f}x)"
    )
    print(f"  peer, bare aiomqtt QoS 1 publish loop to the same broker: {peer_rate:8.0f} msg/s before, "
          f"{peer_after:8.0f} msg/s after")  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--per-table", type=int, default=100)
    args = p.parse_args()
    if args.tables < 1 or args.per_table < 2:
        p.error("--tables must be at least 1 and --per-table at least 2 (a declaration and a contribution)")
    asyncio.run(run(args.tables, args.per_table))


if __name__ == "__main__":
    main()
