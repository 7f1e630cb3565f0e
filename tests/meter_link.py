"""A link on a real broker for the tests: the broker, the meter in this process, tables."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from pathlib import Path

from meter.config import load
from meter.core import MeterCore
from meter.desk import InThread
from meter.service import MeterService
from meter.store import Store
from sim.link_rig import meter_config
from sim.sim_table import SimTable

from .mosquitto import Broker, Pki


class Link:
    def __init__(
        self, root: Path, pki: Pki, broker: Broker, tables: Mapping[str, str], paytable: Sequence[str] = ()
    ) -> None:
        self.root = root
        self.pki = pki
        self.broker = broker
        self.config_path = meter_config(root / "meter", broker, pki, tables, paytable=paytable)
        self.config = load(self.config_path)
        self._linked = dict(tables)
        self.stop = asyncio.Event()
        self.tables: dict[str, SimTable] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self.store: Store | None = None
        self.service: MeterService | None = None
        self._meter_stop = asyncio.Event()
        self._meter_task: asyncio.Task[None] | None = None

    async def start_meter(self) -> MeterService:
        self.store = Store(self.config.store, self.config)
        self.service = MeterService(self.config, InThread(MeterCore(self.config, self.store)))
        self._meter_stop = asyncio.Event()
        self._meter_task = asyncio.create_task(self.service.run(self._meter_stop))
        async with asyncio.timeout(10):
            await self.service.connected.wait()
        return self.service

    async def stop_meter(self) -> None:
        self._meter_stop.set()
        if self._meter_task is not None:
            await self._meter_task
        if self.store is not None:
            self.store.close()
        self.store = self.service = self._meter_task = None

    async def reconfigure(
        self, paytable: Sequence[str], stopped: Callable[[], Awaitable[object]] | None = None
    ) -> MeterService:
        """The meter stopped, its configuration written again with ``paytable`` for each
        progressive's section, and started again on its store: the floor changing the meter's
        terms (a ``max_wager``) while the tables run. ``stopped``: awaited while the meter is
        down (a table's word that it saw the meter go, so what it hears next is the new one's)."""
        await self.stop_meter()
        if stopped is not None:
            await stopped()
        self.config_path = meter_config(
            self.root / "meter", self.broker, self.pki, self._linked, paytable=paytable
        )
        self.config = load(self.config_path)
        return await self.start_meter()

    def table(self, name: str, site: str = "site-a", broker: Broker | None = None) -> SimTable:
        t = SimTable(name, site, broker or self.broker, self.pki)
        self.tables[name] = t
        self._tasks.append(asyncio.create_task(t.run(self.stop)))
        return t

    async def close(self) -> None:
        self.stop.set()
        with contextlib.suppress(Exception):
            await asyncio.gather(*self._tasks)
        await self.stop_meter()


@contextlib.asynccontextmanager
async def running_link(
    root: Path, pki: Pki, tables: Mapping[str, str], meter: bool = True, paytable: Sequence[str] = ()
) -> AsyncIterator[Link]:
    """``paytable``: lines for each progressive's section of the meter's configuration."""
    broker = Broker(root, pki)
    broker.start()
    link = Link(root, pki, broker, tables, paytable)
    try:
        if meter:
            await link.start_meter()
        yield link
    finally:
        await link.close()
        broker.stop()
