"""One central meter under 200 simulated tables: contributions per second, sustained.

Run: ``PYTHONPATH=. .venv/bin/python bench/bench_meter.py [--tables 200] [--per-table 100]``
(needs ``mosquitto``: scripts/system-deps).

A real Mosquitto with the shipped configuration (TLS with client certificates, passwords,
ACL, ``persistence true``) on loopback; the meter as its own process (``python -m meter
run``, its store with ``synchronous=FULL``); 200 tables in this process, each its own MQTT
connection, each with ``--per-table`` contributions in its outbox, sent as the table will
(QoS 1, 20 in flight, in seq order, again after the meter's ack). Timed: from the first
publish until every table holds the meter's ack of its last seq, i.e. every contribution
durable in the meter's store and acknowledged back. The meter's own rate is read from its
store (first to last contribution record).

The peer, measured in the same run against the same broker: a bare aiomqtt QoS 1 publish
loop (20 in flight, the same payload size, a topic nobody reads), the rate the broker and
the client library give with no meter at all. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
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
        start = time.perf_counter()
        runs = [asyncio.create_task(t.run(stop)) for t in tables]
        for t in tables:
            await t.all_acked(timeout=600)
        live = time.perf_counter() - start
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
        meter = meter_process(config, root / "meter.log")
        for t in tables:
            await t.all_acked(timeout=600)
        drain = time.perf_counter() - start
        stop.set()
        await asyncio.gather(*runs, return_exceptions=True)
        peer_after = await peer(broker, pki, n_tables * per_table // 2, size)
    finally:
        meter.send_signal(signal.SIGTERM)
        meter.wait(20)
        broker.stop()
    total = n_tables * per_table
    conn = sqlite3.connect(root / "meter" / "meter.db")
    rows = conn.execute("SELECT wall_ns FROM records WHERE kind = 'contribution' ORDER BY seq").fetchall()
    conn.close()
    assert len(rows) == 2 * total, (len(rows), 2 * total)
    backlog = [r[0] for r in rows[total:]]
    meter_rate = (total - 1) / ((backlog[-1] - backlog[0]) / 1e9)
    print(
        f"{n_tables} tables x {per_table} contributions ({size}-byte messages), TLS, QoS 1, synchronous=FULL"
    )
    print(f"  live, all tables at once, until every ack is back: {total / live:8.0f} contributions/s")
    print(
        f"  a backlog of {total} drained by the meter (start, verify, apply, ack): "
        f"{total / drain:8.0f} contributions/s"
    )
    print(f"  the meter's own apply rate in that drain (its store): {meter_rate:8.0f} contributions/s")
    print(f"  peer, bare aiomqtt QoS 1 publish loop to the same broker: {peer_rate:8.0f} msg/s before, "
          f"{peer_after:8.0f} msg/s after")  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--per-table", type=int, default=100)
    args = p.parse_args()
    asyncio.run(run(args.tables, args.per_table))


if __name__ == "__main__":
    main()
