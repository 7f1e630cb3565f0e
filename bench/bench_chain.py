"""The journal's check at every start: the keyed chain of 10^6 records verified, beside a bare peer.

Run: ``.venv/bin/python bench/bench_chain.py [--records 1000000] [--dir DIR]``.

A journal of ``--records`` records (a lock-out and an unlock in turn, bodies the size of a
wager's, an outbox message every tenth) is written straight into a new journal file, chained as
the writer chains it, in one transaction (fast to build; the file is what the daemon would have
written). Then, in the same run:

- ``check_integrity``: what ``Journal.open`` and ``tablectl journal verify`` run, the keyed chain
  (HMAC-SHA256 under the table's chain key) walked from seq 1 with every outbox message, and the
  keyed head marker compared;
- the peer: a bare ``sqlite3`` scan of the same rows with ``hashlib.sha256`` over each body, no
  chaining and no checks: the floor of reading and hashing the file at all.

The ratio is what the chain's checks cost on top of reading the file. Not a test.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sqlite3
import tempfile
import time
import uuid
from pathlib import Path

from controller.journal.chain import GENESIS, ChainHead, OutboxRow, chain_hash
from controller.journal.chain_key import ChainKey, key_path, make_key
from controller.journal.integrity import check_integrity
from controller.journal.marker import HeadMarker, write_marker
from controller.journal.schema import INSERT_EVENT, INSERT_OUTBOX, connect, schema_check

TABLE = "BENCH-1"


def build(path: Path, n: int, key: ChainKey) -> None:
    path.touch()
    conn = connect(path, read_only=False)
    schema_check(conn, path, TABLE, create=True)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    previous, outbox_seq = GENESIS, 0
    for seq in range(1, n + 1):
        kind = "lock_out" if seq % 2 else "unlock"
        body = json.dumps(
            {"reason": f"bench {seq}", "seat": seq % 7, "amount": "25.00"}, separators=(",", ":")
        )
        row = (seq, str(uuid.uuid4()), time.time_ns(), time.monotonic_ns(), "link", None, None, kind, body)
        messages: list[OutboxRow] = []
        if seq % 10 == 0:
            outbox_seq += 1
            messages.append((outbox_seq, str(uuid.uuid4()), "status", '{"up":1}'))
        previous = chain_hash(conn, key, previous, row, messages)
        conn.execute(INSERT_EVENT, (*row, previous))
        for o_seq, message_id, kind_, payload in messages:
            conn.execute(INSERT_OUTBOX, (o_seq, message_id, seq, kind_, payload))
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    write_marker(path, HeadMarker(TABLE, ChainHead(n, previous), clean=True), key)


def peer(path: Path) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    count = 0
    for (body,) in conn.execute("SELECT body FROM events ORDER BY seq"):
        hashlib.sha256(body.encode()).digest()
        count += 1
    conn.close()
    return count


def ours(path: Path, key: ChainKey) -> int:
    conn = connect(path, read_only=True)
    head, _ = check_integrity(conn, path, TABLE, key)
    conn.close()
    return head.seq


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=3, help="timings of each, interleaved")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as d:
        path = Path(d) / "journal.sqlite3"
        key = make_key(key_path(path, TABLE), TABLE)
        t0 = time.perf_counter()
        build(path, args.records, key)
        print(
            f"built {args.records} records in {time.perf_counter() - t0:.1f} s "
            f"({path.stat().st_size / 1e6:.0f} MB)"
        )
        times: dict[str, list[float]] = {"check_integrity (keyed)": [], "peer (sqlite3 scan + sha256)": []}
        runs = (
            ("check_integrity (keyed)", lambda: ours(path, key)),
            ("peer (sqlite3 scan + sha256)", lambda: peer(path)),
        )
        for _ in range(args.rounds):
            for name, fn in runs:
                t = time.perf_counter()
                assert fn() == args.records
                times[name].append(time.perf_counter() - t)
        best = {name: min(values) for name, values in times.items()}
        for name, value in best.items():
            per = value / args.records * 1e6
            print(f"{name:32} best of {args.rounds}: {value:6.2f} s  ({per:.2f} µs/record)")
        ratio = best["check_integrity (keyed)"] / best["peer (sqlite3 scan + sha256)"]
        print(f"ratio: {ratio:.2f}x the peer")


if __name__ == "__main__":
    main()
