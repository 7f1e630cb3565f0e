"""The table's daemon on a real link for the tests: the bench rig's daemon with a
``[progressive_link]`` to a real Mosquitto (the shipped configuration) and the central meter."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path

from controller.api_client import ApiClient
from controller.daemon import Daemon
from sim.bench_rig import BenchRig
from sim.link_rig import link_section

from .meter_link import Link, running_link
from .mosquitto import Broker, Pki

#: Seat 1 folds a losing hand against a dealer who qualifies (the cards keyed by the dealer).
SEAT_1 = "2c 7d 9s Jh 4c"
DEALER = "As Ks 9d 6c 4h"


async def until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Wait for ``condition`` (checked every 20 ms), or fail naming ``what``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def daemon_of(rig: BenchRig, linked: bool = True) -> Daemon:
    """The rig's daemon (``linked``: with its progressive link)."""
    assert rig.daemon is not None and (rig.daemon.link is not None or not linked)
    return rig.daemon


async def wagering_open(rig: BenchRig, timeout: float = 20) -> None:
    """Until the daemon's progressive wagering is open: the meter heard and the table's
    declaration accepted (a chip put down before that is no wager, N.J.A.C. 13:69E-1.39B, and a
    slow machine gets there later than a test's first round)."""
    daemon = daemon_of(rig)
    gpio = daemon.gpio

    def open_() -> bool:
        return daemon.state.progressive_link_down is None and (
            gpio is None or not gpio.progressive_unavailable
        )

    try:
        await until(open_, timeout, "progressive wagering open")
    except AssertionError as e:
        raise AssertionError(f"{e}: still closed: {daemon.state.progressive_link_down}") from None


async def meter_gone(rig: BenchRig, timeout: float = 20) -> None:
    """Until the daemon has heard the meter go offline (its status on a clean stop): after it,
    what the daemon hears is a new meter's, not the old one's last words still on their way."""
    link = daemon_of(rig).link
    assert link is not None
    await until(lambda: not link.publisher.state.meter_online, timeout, "the meter offline at the table")


def linked_rig(
    root: Path,
    pki: Pki,
    broker: Broker,
    table: str,
    timeout: int = 30,
    game: str = "caribbean-stud",
    meter_ids: Mapping[str, str] | None = None,
) -> BenchRig:
    """A bench rig (not yet entered) whose daemon is table ``table`` on the link, dealing ``game``
    (``meter_ids``: its wagers' progressive ids on the meter, :func:`sim.link_rig.link_section`)."""
    directory = root / table
    directory.mkdir(parents=True, exist_ok=True)
    return BenchRig(
        directory=directory,
        table_id=table,
        game=game,
        extra_config=link_section(root, pki, broker, table, timeout, meter_ids),
    )


async def api_round(api: ApiClient, rig: BenchRig, progressive: bool = True) -> None:
    """One Caribbean Stud round keyed through the API: seat 1's ante (and a chip on its
    progressive sensor: a Progressive Payout Wager of 1.00, counted at the lock-out, § 639a.8(b);
    it stays there for the next round), "no more bets", the cards, seat 1 folds: settled, the next
    round begun."""
    await (rig.place_chip(1) if progressive else rig.lift_chip(1))
    await api.submit_event({"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"})
    await api.submit_event({"type": "no_more_bets"})
    await rig.deal(1, SEAT_1)
    await rig.deal("dealer", DEALER)
    await api.submit_event({"type": "decision", "seat": 1, "action": "fold"})


@contextlib.asynccontextmanager
async def linked_table(
    root: Path, pki: Pki, table: str, timeout: int = 30, paytable: Sequence[str] = ()
) -> AsyncIterator[tuple[Link, BenchRig]]:
    """The broker and the meter (``running_link``), and table ``table``'s daemon on them, its
    progressive wagering open."""
    async with (
        running_link(root, pki, {table: "site-a"}, paytable=paytable) as link,
        linked_rig(root, pki, link.broker, table, timeout) as rig,
    ):
        await wagering_open(rig)
        yield link, rig
