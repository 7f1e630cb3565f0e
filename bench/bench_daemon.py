"""The whole daemon as the bench rig runs it: lock-out, start to READY, idle RSS. p50/p99.

Run: ``.venv/bin/python bench/bench_daemon.py [--rounds 200] [--starts 10] [--idle 3]``.

0. Lock-out: the rig's daemon in this process; a thread drives the mock lock-out pin low, and the
   figure ends when a client subscribed on the local API receives the journaled ``no_more_bets``
   (the daemon publishes a record only after its append has committed; it locks the pins before
   it appends). A round without wagers settles at once and the daemon begins the next, unlocked.
   Peer: a bare ``Journal.append`` (FULL sync) of a ``Started`` record in another file, same run.
1. Start: ``python -m controller.daemon --mock-pins`` exec'd with ``NOTIFY_SOCKET`` set to a
   datagram socket this bench binds, until ``READY=1`` arrives. Peer: ``python -c pass``.
2. RSS: ``VmRSS`` of the daemon after ``--idle`` seconds idle. Peer: a bare asyncio process idle.

The issue's aims on this machine are printed beside the figures; nothing is asserted. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from controller.api_client import ApiClient
from controller.journal import Journal, read_boot_id
from controller.table_state import Started
from sim.bench_rig import EDGE_GAP, LOCK_OUT_PIN, RULES_SUBMISSION, BenchRig, config_text

TIMEOUT = 5.0
ROOT = Path(__file__).resolve().parent.parent
AIM_P99_MS = 5.0
AIM_READY_S = 2.0
AIM_RSS_MB = 80.0


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


async def lock_out(rounds: int) -> tuple[list[float], list[float]]:
    """Milliseconds: edge -> ``no_more_bets`` committed and received by a client; and the peer."""
    ours: list[float] = []
    peer: list[float] = []
    async with BenchRig() as rig:
        pin = rig.factory.pin(LOCK_OUT_PIN)
        peer_journal = await Journal.open(rig.path / "peer.sqlite", "PEER")
        boot = read_boot_id()
        async with await ApiClient.connect(rig.socket) as api:
            await api.subscribe(["event"])
            notes = api.notifications()
            for _ in range(rounds):
                start = time.perf_counter()
                await asyncio.to_thread(pin.drive_low)
                async with asyncio.timeout(TIMEOUT):
                    async for note in notes:
                        if note.data.get("body", {}).get("type") == "no_more_bets":
                            break
                ours.append((time.perf_counter() - start) * 1000)
                async with asyncio.timeout(TIMEOUT):
                    async for note in notes:
                        if note.data.get("kind") == "round_begin":
                            break
                await asyncio.to_thread(pin.drive_high)
                await asyncio.sleep(EDGE_GAP)  # past the debounce window, so the next press is taken
                start = time.perf_counter()
                await peer_journal.append(Started("bench", boot), source="daemon")
                peer.append((time.perf_counter() - start) * 1000)
        await peer_journal.close()
    return ours, peer


def prepare(directory: Path) -> Path:
    """The rig's configuration and Rules Submission in ``directory`` (no serial devices)."""
    (directory / "rules-submission.toml").write_text(RULES_SUBMISSION, encoding="utf-8")
    config = directory / "table-controller.toml"
    config.write_text(config_text(directory), encoding="utf-8")
    return config


def start_daemon(config: Path, notify: Path) -> tuple[subprocess.Popen[bytes], float]:
    """Exec the daemon, wait for READY=1 on ``notify``; the process and the seconds it took."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        notify.unlink(missing_ok=True)
        sock.bind(str(notify))
        sock.settimeout(TIMEOUT)
        env = {**os.environ, "NOTIFY_SOCKET": str(notify), "PYTHONPATH": str(ROOT)}
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "controller.daemon", "--config", str(config), "--mock-pins"],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            while b"READY=1" not in sock.recv(4096).split(b"\n"):
                pass
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        return proc, time.perf_counter() - start


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def bare_start() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--starts", type=int, default=10)
    ap.add_argument("--idle", type=float, default=3.0)
    args = ap.parse_args(argv)
    locks, appends = asyncio.run(lock_out(args.rounds))
    ours: list[float] = []
    peer: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        directory = Path(tmp)
        config = prepare(directory)
        notify = directory / "notify.sock"
        for i in range(args.starts):
            # Interleaved, so both meet the same page cache; the journal grows a little each start.
            proc, seconds = start_daemon(config, notify)
            if i == args.starts - 1:
                time.sleep(args.idle)
                daemon_rss = rss_mb(proc.pid)
            stop(proc)
            ours.append(seconds)
            peer.append(bare_start())
        idle = subprocess.Popen([sys.executable, "-c", "import asyncio; asyncio.run(asyncio.sleep(3600))"])
        time.sleep(args.idle)
        peer_rss = rss_mb(idle.pid)
        stop(idle)
    print(
        f"the daemon (bench rig, mock pins), {args.rounds} lock-outs, {args.starts} starts,"
        f" Python {sys.version.split()[0]}"
    )
    print(f"  {'':38} {'p50':>9} {'p99':>9}   aim")
    lp99 = percentile(locks, 99)
    print(
        f"  {'lock-out edge -> no_more_bets (ours)':38} {percentile(locks, 50):7.2f}ms {lp99:7.2f}ms"
        f"   p99 < {AIM_P99_MS:.0f} ms: {verdict(lp99 < AIM_P99_MS)}"
    )
    print(
        f"  {'bare journal append (peer)':38} {percentile(appends, 50):7.2f}ms"
        f" {percentile(appends, 99):7.2f}ms"
    )
    print(
        f"  {'ratio ours/peer':38} {percentile(locks, 50) / percentile(appends, 50):8.1f}x "
        f"{lp99 / percentile(appends, 99):8.1f}x"
    )
    p99 = percentile(ours, 99)
    print(
        f"  {'start -> READY=1 (ours)':38} {percentile(ours, 50):8.3f}s {p99:8.3f}s"
        f"   p99 < {AIM_READY_S:.0f} s: {verdict(p99 < AIM_READY_S)}"
    )
    print(f"  {'python -c pass (peer)':38} {percentile(peer, 50):8.3f}s {percentile(peer, 99):8.3f}s")
    print(
        f"  {'ratio ours/peer':38} {percentile(ours, 50) / percentile(peer, 50):8.1f}x "
        f"{p99 / percentile(peer, 99):8.1f}x"
    )
    print(
        f"  {'RSS idle after ' + format(args.idle, 'g') + ' s (ours)':38} {daemon_rss:7.1f} MB"
        f"             < {AIM_RSS_MB:.0f} MB: {verdict(daemon_rss < AIM_RSS_MB)}"
    )
    print(f"  {'RSS idle, bare asyncio (peer)':38} {peer_rss:7.1f} MB")
    print(f"  {'ratio ours/peer':38} {daemon_rss / peer_rss:8.1f}x")


if __name__ == "__main__":
    main()
