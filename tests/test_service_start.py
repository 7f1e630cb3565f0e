"""The table service is built with its collaborators, and the pins come only after the journal's
recovery (docs/daemon.md, "Start-up, in order", steps 3 and 4; issue 22 point 4).

Real parts: the daemon in this process (``sim.bench_rig``), a real SQLite journal left by a run
and written to directly as a killed daemon leaves it, gpiozero's ``MockFactory`` pins. The factory
keeps the journal's state as it stood when the daemon opened its first pin: that state must be the
recovered one (the round begun or settled, the wagering reopened, this run's records journaled).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from controller.daemon import Daemon
from controller.journal import Journal
from controller.journal.records import LockOut
from controller.journal.state import TableState
from controller.rules.core.cards import parse_cards
from controller.rules.core.events import Event
from sim.bench_rig import TABLE_ID, BenchRig


class FirstPin(MockFactory):  # type: ignore[misc]
    """gpiozero's ``MockFactory`` that keeps the journal's state when the daemon opens a pin first."""

    def __init__(self) -> None:
        super().__init__()
        self.daemon_of: Callable[[], Daemon | None] = lambda: None
        self.seen: TableState | None = None

    def pin(self, *args: Any, **kwargs: Any) -> Any:
        daemon = self.daemon_of()
        if self.seen is None and daemon is not None and daemon.journal is not None:
            self.seen = daemon.journal.state  # immutable: the state as it is now
        return super().pin(*args, **kwargs)

    def restarted(self) -> TableState:
        seen, self.seen = self.seen, None
        assert seen is not None, "the daemon opened no pin"
        return seen


@pytest_asyncio.fixture
async def table() -> AsyncIterator[tuple[BenchRig, FirstPin]]:
    factory = FirstPin()
    bench = BenchRig(factory=factory)
    factory.daemon_of = lambda: bench.daemon
    async with bench:
        yield bench, factory


async def _written_while_stopped(rig: BenchRig, *entries: tuple[Any, str]) -> int:
    """Stop the daemon, journal ``entries`` as a killed daemon would have left them; the last seq."""
    assert rig.daemon is not None
    path = rig.daemon.config.journal.path
    await rig.stop_daemon()
    async with await Journal.open(path, TABLE_ID) as journal:
        for entry, source in entries:
            await journal.append(entry, source=source, actor="dealer1" if source == "dealer-ui" else None)
        return journal.state.last_seq


@pytest.mark.asyncio
async def test_a_cold_start_begins_the_round_before_it_opens_a_pin(table: tuple[BenchRig, FirstPin]) -> None:
    rig, factory = table
    seen = factory.restarted()
    assert seen.current is not None, "a pin was opened before the first round was begun"
    assert seen.config is not None, "a pin was opened before config_loaded was journaled"
    assert rig.daemon is not None and rig.daemon.gpio is not None and not rig.daemon.gpio.locked


@pytest.mark.asyncio
async def test_a_restart_past_no_more_bets_opens_the_pins_locked_on_the_recovered_round(
    table: tuple[BenchRig, FirstPin],
) -> None:
    rig, factory = table
    factory.restarted()
    ante = Event("wager", seat=1, wager="ante", amount=1000)
    before = await _written_while_stopped(
        rig,
        (ante, "dealer-ui"),
        (LockOut("no more bets (dealer-ui)"), "dealer-ui"),
        (Event("no_more_bets"), "dealer-ui"),
    )
    daemon = await rig.start_daemon()
    seen = factory.restarted()
    assert seen.current is not None and seen.current.no_more_bets
    assert seen.config is not None and seen.config.seq > before, "this run's records came after a pin"
    assert daemon.gpio is not None and daemon.gpio.locked


@pytest.mark.asyncio
async def test_a_round_killed_before_its_unlock_is_reopened_before_a_pin_is_read(
    table: tuple[BenchRig, FirstPin],
) -> None:
    rig, factory = table
    factory.restarted()
    await _written_while_stopped(
        rig, (LockOut("killed between the round's beginning and its unlock"), "daemon")
    )
    daemon = await rig.start_daemon()
    seen = factory.restarted()
    assert not seen.locked_out, "a pin was read while the journal still said locked out"
    assert daemon.gpio is not None and not daemon.gpio.locked


@pytest.mark.asyncio
async def test_a_complete_round_is_settled_before_a_pin_is_read(table: tuple[BenchRig, FirstPin]) -> None:
    rig, factory = table
    factory.restarted()
    assert rig.daemon is not None and rig.daemon.state.current is not None
    round_id = rig.daemon.state.current.round_id
    # Killed between the round's last event and its settlement (docs/daemon.md, step 3).
    await _written_while_stopped(
        rig,
        (Event("wager", seat=1, wager="ante", amount=1000), "dealer-ui"),
        (LockOut("no more bets (dealer-ui)"), "dealer-ui"),
        (Event("no_more_bets"), "dealer-ui"),
        (Event("cards", to="1", cards=parse_cards("2c 7d 9s Jh 4c")), "shoe"),
        (Event("cards", to="dealer", cards=parse_cards("Ks Kd 5c 8h 3s")), "shoe"),
        (Event("decision", seat=1, action="fold"), "dealer-ui"),
    )
    await rig.start_daemon()
    seen = factory.restarted()
    assert seen.current is not None and seen.current.round_id != round_id, "the next round was begun"
    assert seen.recent and seen.recent[-1].round_id == round_id, "the complete round was settled first"
    assert not seen.locked_out


@pytest.mark.asyncio
async def test_the_service_recovers_once_and_opens_its_pins_once(table: tuple[BenchRig, FirstPin]) -> None:
    rig, _factory = table
    assert rig.daemon is not None and rig.daemon.service is not None
    service = rig.daemon.service
    gpio = service.gpio
    with pytest.raises(RuntimeError, match="recovered already"):
        await service.recover()
    assert service.gpio is gpio
    service.release_pins()
    assert service.gpio is None and rig.daemon.gpio is None
