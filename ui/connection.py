"""The screen's link to the daemon: connected, or "controller offline" while it reconnects.

:class:`Connection` connects to the local API's socket, subscribes, feeds the snapshot and every
notification to the :class:`~ui.table.TableModel`, and when the connection is lost (or was never
made) says "controller offline" and tries again, waiting a little longer each time up to
:data:`MAX_BACKOFF` seconds. The daemon never waits for the screen (its notifications to a slow
reader are dropped and counted: a ``dropped`` notification makes the screen read ``status``
again). The screen is a client of ``controller.api_client`` only.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from enum import StrEnum
from pathlib import Path
from typing import Final

from controller.api_client import ApiClient, ApiConnectionError, ApiError

from .observable import Observable
from .table import TableModel

FIRST_BACKOFF: Final = 0.2
MAX_BACKOFF: Final = 5.0
OFFLINE: Final = "CONTROLLER OFFLINE"


class LinkState(StrEnum):
    CONNECTING = "connecting"
    CONNECTED = "connected"
    OFFLINE = "offline"


class Connection(Observable):
    """Keeps one subscribed :class:`ApiClient` to ``socket`` while :meth:`run` runs."""

    def __init__(
        self,
        socket: Path,
        table: TableModel,
        connect: Callable[[Path], Awaitable[ApiClient]] = ApiClient.connect,
    ) -> None:
        super().__init__()
        self.socket = socket
        self.table = table
        self._connect = connect
        self.state = LinkState.CONNECTING
        self.reason = ""
        self.attempts = 0
        self.retry_in = 0.0
        self.connected_at = 0.0
        self.client: ApiClient | None = None

    @property
    def banner(self) -> str:
        """What the screen says across the top when it is not connected ("" when it is)."""
        if self.state is LinkState.CONNECTED:
            return ""
        if self.state is LinkState.CONNECTING and not self.attempts:
            return "connecting to the controller"
        return f"{OFFLINE}: {self.reason}" if self.reason else OFFLINE

    def _set(self, state: LinkState, reason: str = "") -> None:
        self.state, self.reason = state, reason
        self.changed()

    async def run(self) -> None:
        """Until cancelled: connect, subscribe, follow; offline and back off when it fails."""
        backoff = FIRST_BACKOFF
        while True:
            try:
                client = await self._connect(self.socket)
            except ApiConnectionError as exc:
                self.attempts += 1
                self.retry_in = backoff
                self._set(LinkState.OFFLINE, str(exc))
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF)
                continue
            try:
                await self._follow(client)
            except (ApiConnectionError, ApiError) as exc:
                self.attempts += 1
                self._set(LinkState.OFFLINE, str(exc))
            finally:
                self.client = None
                await client.close()
            if self.state is not LinkState.OFFLINE:
                self.attempts += 1
                self._set(LinkState.OFFLINE, "the controller closed the connection")
            backoff = FIRST_BACKOFF
            self.retry_in = backoff
            await asyncio.sleep(backoff)

    async def _follow(self, client: ApiClient) -> None:
        snapshot = await client.subscribe()
        self.client = client
        self.connected_at = time.monotonic()
        self.table.apply_snapshot(snapshot)
        self._set(LinkState.CONNECTED)
        async for note in client.notifications():
            if note.topic == "dropped":
                # We read too slowly and lost some: the state now is the truth (docs/local-api.md).
                self.table.apply_snapshot(await client.status())
                continue
            self.table.apply_note(note.topic, note.data)
