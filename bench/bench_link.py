"""The table's side of the progressive link: the outbox draining after an outage, and a wager at
the lock-out to the new meter amount on the table's API.

Run: ``PYTHONPATH=. .venv/bin/python bench/bench_link.py [--backlog 5000] [--rounds 200]``
(needs ``mosquitto``: scripts/system-deps).

A real Mosquitto with the shipped configuration (TLS, each client named by its certificate, ACL)
on loopback and the central meter as its own process (``python -m meter run``, its store with
``synchronous=FULL``), both from ``sim.link_rig``.

1. **Drain**: a journal (``synchronous=FULL``) holds a declaration and ``--backlog``
   contributions that the lock-outs committed while the link was down; the table's publisher
   (``controller.link.LinkPublisher``: windows of 100, up to 2 on the wire, in seq order,
   the journal's ``mark_sent`` after the PUBACKs) then starts: timed until the meter's ack
   covers the last seq, i.e. every contribution durable in the meter's store and
   acknowledged back. Peer, the same broker in
   the same run: a bare aiomqtt QoS 1 publish loop (20 in flight, the same payload size).
2. **Latency**: the daemon (the bench rig, in this process) with a Progressive Payout Wager
   on seat 1's sensor, the cards from the rig's shoe; timed from the ``no_more_bets`` request
   to the API's ``link`` notification whose amount is the new meter (a subscriber, as the
   dealer's screen; with the ``event`` notification of the journaled ``no_more_bets`` on the
   way), then as many rounds to the first polled ``status`` that shows it. Peers: a bare
   aiomqtt QoS 1 publish to a subscriber through the same broker (one hop of the round trip's
   three), and a bare SQLite commit with ``synchronous=FULL`` (the table and the meter each
   make one on the way).
Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
import tempfile
import time
import uuid
from pathlib import Path

import aiomqtt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.cpu import cpu_by_part, shares
from controller.api_client import ApiClient
from controller.config import parse_config
from controller.journal import Journal
from controller.journal.records import Started
from controller.link.outbound import to_meter
from controller.link.publisher import LinkPublisher, wire_bytes
from sim.bench_rig import TABLE_ID, BenchRig, config_text
from sim.link_rig import PARAMS, PROGRESSIVE, LinkRig
from wire import Contribution, Declaration

PUBLISHER = "the publisher (this process)"
PEER = "the peer (this process)"
SEAT_1 = "2c 7d 9s Jh 4c"
DEALER = "As Ks 9d 6c 4h"


async def peer_rate(rig: LinkRig, messages: int, size: int) -> float:
    """A bare aiomqtt QoS 1 publish loop, 20 in flight (paho's default), on the table's own
    topic and user."""
    payload = b"x" * size
    async with aiomqtt.Client(
        rig.broker.host,
        rig.broker.port,
        username=rig.table,
        password=rig.pki.passwords[rig.table],
        identifier=f"peer-{uuid.uuid4().hex[:6]}",
        tls_context=rig.pki.context(rig.table),
    ) as client:
        client.pending_calls_threshold = 10**6
        topic = f"progressive/floor/site/site-a/table/{rig.table}/status"  # the meter ignores it
        start = time.perf_counter()
        for i in range(0, messages, 20):
            await asyncio.gather(
                *(client.publish(topic, payload, qos=1) for _ in range(min(20, messages - i)))
            )
        return messages / (time.perf_counter() - start)


async def timed_peer(rig: LinkRig, messages: int, size: int) -> tuple[float, float, str]:
    """The peer's rate, its CPU per message in this process, and the CPU of each part meanwhile."""
    broker_pid = rig.broker.pid
    assert broker_pid is not None
    before = cpu_by_part(PEER, rig.meter.pid, broker_pid)
    cpu, start = time.process_time(), time.perf_counter()
    rate = await peer_rate(rig, messages, size)
    cpu, elapsed = time.process_time() - cpu, time.perf_counter() - start
    parts = shares(before, cpu_by_part(PEER, rig.meter.pid, broker_pid), elapsed)
    return rate, cpu / messages, parts


async def drain(backlog: int) -> None:
    with LinkRig.running(TABLE_ID) as rig:
        root = Path(tempfile.mkdtemp(prefix="bench-link-"))
        text = config_text(root) + rig.daemon_config
        config = parse_config(text, "bench", gpio_check=None)
        assert config.progressive_link is not None
        journal = await Journal.open(root / "journal.sqlite", TABLE_ID)
        try:
            declaration = to_meter(Declaration({PROGRESSIVE: PARAMS}))
            await journal.append(Started("bench", "bench"), source="daemon", outbox=[declaration])
            contribution = to_meter(Contribution(PROGRESSIVE, 2, 500))
            start = time.perf_counter()
            for i in range(0, backlog, 100):
                await asyncio.gather(
                    *(
                        journal.append(
                            Started("bench", "bench"),
                            source="daemon",
                            outbox=[contribution],
                        )
                        for _ in range(min(100, backlog - i))
                    )
                )
            committed = time.perf_counter() - start
            size = len(wire_bytes((await journal.outbox_after(1, 1))[0]))
            # The peer before and after the drain: the mean of the two is the ratio's peer
            # (the machine's pace drifts over a run; the meter reads the peer's topic too).
            peer_first = await timed_peer(rig, backlog, size)
            publisher = LinkPublisher(config.progressive_link, TABLE_ID, journal)
            stop = asyncio.Event()
            broker_pid = rig.broker.pid
            assert broker_pid is not None
            parts_before = cpu_by_part(PUBLISHER, rig.meter.pid, broker_pid)
            cpu = time.process_time()
            start = time.perf_counter()
            task = asyncio.create_task(publisher.run(stop))
            pubacked: float | None = None
            # The first window on the wire (after the TLS connect, the subscriptions and the
            # wait for a retained ack that a meter which never heard this table does not have):
            # the peer's loop is timed from there too. Polled every 2 ms.
            first_sent: float | None = None
            while publisher.state.applied_seq < backlog + 1:
                if first_sent is None and publisher.last_outbox_seq > 0:
                    first_sent = time.perf_counter() - start
                if pubacked is None and publisher.state.sent_seq >= backlog + 1:
                    pubacked = time.perf_counter() - start
                await asyncio.sleep(0.002)
            elapsed = time.perf_counter() - start
            cpu = time.process_time() - cpu
            parts = shares(parts_before, cpu_by_part(PUBLISHER, rig.meter.pid, broker_pid), elapsed)
            stop.set()
            await task
        finally:
            await journal.close()
        peer_then = await timed_peer(rig, backlog, size)
    peer = (peer_first[0] + peer_then[0]) / 2
    print(
        f"outbox drain: {backlog} contributions committed while the link was down "
        f"({backlog / committed:.0f}/s to the journal), {size} bytes each"
    )
    print(
        f"  publisher until the meter's ack of the last: {backlog / elapsed:8.0f} messages/s "
        f"({elapsed:.2f} s, connect included)"
    )
    if first_sent is not None:
        print(
            f"  the same from its first window on the wire (connect, subscribe and the wait for "
            f"a retained ack left out: {first_sent:.2f} s): "
            f"{backlog / (elapsed - first_sent):8.0f} messages/s"
        )
    if pubacked is not None:
        print(
            f"  publisher until the broker's PUBACK of the last: {backlog / pubacked:8.0f} messages/s "
            f"({pubacked:.2f} s)"
        )
    print(
        f"  peer, bare aiomqtt QoS 1 publish loop to the same broker: {peer:8.0f} messages/s "
        f"(before the drain {peer_first[0]:.0f}, after it {peer_then[0]:.0f})"
    )
    print(
        f"  ratio to the peer: {backlog / elapsed / peer:.2f} until the meter's ack, "
        + (f"{backlog / pubacked / peer:.2f} until the PUBACK" if pubacked else "")
    )
    print(
        f"  CPU in this process per message: publisher {cpu / backlog * 1e6:.0f} us, "
        f"peer {peer_first[1] * 1e6:.0f} and {peer_then[1] * 1e6:.0f} us"
    )
    print(f"  CPU of each part ({os.cpu_count()} cores), in the drain: {parts}")
    print(f"    in the peer's loop before it: {peer_first[2]}")
    print(f"    and after it: {peer_then[2]}")


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def latency(rounds: int) -> None:
    with LinkRig.running(TABLE_ID) as rig:
        async with BenchRig(extra_config=rig.daemon_config) as bench:
            daemon = bench.daemon
            assert daemon is not None
            await bench.wait_for(lambda: bool(daemon.snapshot()["link"].get("amounts")), timeout=20)
            pushed: list[float] = []
            committed: list[float] = []
            polled: list[float] = []
            warm_up = 0.0
            # Seat 1's chip stays on its sensor: a Progressive Payout Wager counted at each lock-out.
            await bench.place_chip(1)
            async with (
                await ApiClient.connect(bench.socket) as api,
                await ApiClient.connect(bench.socket) as screen,
            ):
                # The dealer's screen: the journal's records and the link's word, as pushed.
                await screen.subscribe(["event", "link"])
                notes = screen.notifications()
                for n in range(2 * rounds + 1):  # the first: a warm-up, not counted (below)
                    poll = n > rounds  # the second half: as a client polling ``status`` sees it
                    before = (await api.status())["link"]["amounts"][PROGRESSIVE]
                    await api.submit_event({"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"})
                    start = time.perf_counter()
                    await api.submit_event({"type": "no_more_bets"})
                    journaled = 0.0
                    if poll:
                        while (await api.status())["link"]["amounts"][PROGRESSIVE] == before:
                            pass
                    else:
                        async for note in notes:
                            if (
                                note.topic == "event"
                                and note.data.get("body", {}).get("type") == "no_more_bets"
                            ):
                                journaled = time.perf_counter() - start
                            elif note.topic == "link" and note.data["amounts"].get(PROGRESSIVE) != before:
                                break
                    took = (time.perf_counter() - start) * 1000
                    if n == 0:
                        # The table may have declared before the meter, just started, subscribed:
                        # that declaration is sent again after the stalled ack (2 s).
                        warm_up = took
                    elif poll:
                        polled.append(took)
                    else:
                        pushed.append(took)
                        committed.append(journaled * 1000)
                    # The cards from the rig's shoe (a PTY): the API keys cards only while the
                    # shoe is out of order (docs/authority.md).
                    await bench.deal(1, SEAT_1)
                    await bench.deal("dealer", DEALER)
                    await api.submit_event({"type": "decision", "seat": 1, "action": "fold"})
        peer = await peer_round_trip(rig, rounds)
    fsync = sqlite_full_commits(rounds)
    print(f"wager at the lock-out -> the new meter on the table's API, {rounds} rounds each:")
    print(f"  pushed on the link topic: {spread(pushed)}")
    print(f"    of which the lock-out journaled (no_more_bets on the event topic): {spread(committed)}")
    print(f"  polling status:           {spread(polled)}")
    print(f"  (the warm-up round after the start, not counted: {warm_up:.0f} ms)")
    print(f"  peer, bare aiomqtt QoS 1 publish -> subscriber, same broker: {spread(peer)}")
    print(f"  peer, a bare SQLite commit with synchronous=FULL in WAL, same disk: {spread(fsync)}")


def spread(values: list[float]) -> str:
    return f"p50 {pct(values, 50):6.1f} ms  p99 {pct(values, 99):6.1f} ms  max {max(values):6.1f} ms"


def sqlite_full_commits(n: int) -> list[float]:
    """One small insert per commit, ``synchronous=FULL`` in WAL: the fsync a durable step costs."""
    with tempfile.TemporaryDirectory(prefix="bench-fsync-") as tmp:
        conn = sqlite3.connect(Path(tmp) / "peer.sqlite", isolation_level=None)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("CREATE TABLE t (x INTEGER)")
        out = []
        for i in range(n):
            start = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO t VALUES (?)", (i,))
            conn.execute("COMMIT")
            out.append((time.perf_counter() - start) * 1000)
        conn.close()
    return out


async def peer_round_trip(rig: LinkRig, n: int) -> list[float]:
    topic = f"progressive/floor/site/site-a/table/{rig.table}/status"
    kw = {
        "username": rig.table,
        "password": rig.pki.passwords[rig.table],
        "tls_context": rig.pki.context(rig.table),
    }
    out: list[float] = []
    # The table's user may write its status topic but not read it: the rig's observer reads it
    # (not the meter's identity: the broker binds the client id to the certificate, so a second
    # "progressive-meter" would knock the running meter off).
    async with (
        aiomqtt.Client(rig.broker.host, rig.broker.port, identifier="peer-pub", **kw) as pub,
        aiomqtt.Client(
            rig.broker.host,
            rig.broker.port,
            identifier="peer-sub",
            tls_context=rig.pki.context("observer"),
        ) as sub,
    ):
        await sub.subscribe(topic, qos=1)
        messages = sub.messages
        for i in range(n):
            start = time.perf_counter()
            await pub.publish(topic, f"peer {i}".encode(), qos=1)
            async for m in messages:
                if m.payload == f"peer {i}".encode():
                    break
            out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--backlog", type=int, default=5000)
    p.add_argument("--rounds", type=int, default=200)
    p.add_argument("--only", choices=("drain", "latency"), help="one section only")
    args = p.parse_args()
    if args.only != "latency":
        asyncio.run(drain(args.backlog))
    if args.only != "drain":
        asyncio.run(latency(args.rounds))


if __name__ == "__main__":
    main()
