"""The link as a part of the daemon: the publisher's task and the watch over the meter's word.

The watch journals the link's losses and returns (``device_offline`` / ``device_online`` of
:data:`~controller.journal.state.PROGRESSIVE_LINK`) once a second at most: while it is journaled
offline the fold refuses progressive wagers (N.J.A.C. 13:69E-1.39B; G2S noProgInfo, 30 s by
default: ``[progressive_link] timeout_seconds``), the base game goes on, and wagering resumes by
itself when the meter is heard again. A refused declaration (the meter's verdict, the field
named) is journaled the same way, with the meter's reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Final

from ..config import ProgressiveLinkSection
from ..journal import JournalError
from ..journal.records import DeviceOffline, DeviceOnline
from ..journal.state import PROGRESSIVE_LINK, DeviceStatus
from ..table import game_hooks
from ..table.service import TableService
from .outbound import LinkPlan
from .publisher import LinkPublisher

log = logging.getLogger("controller.link")

#: How often the watch compares the meter's last word with the timeout.
WATCH_SECONDS: Final = 0.5


class TableLink:
    """The progressive link of one table: its plan, its publisher, its watch."""

    def __init__(self, link: ProgressiveLinkSection, service: TableService, plan: LinkPlan) -> None:
        self.link = link
        self.service = service
        self.plan = plan
        journal = service.journal
        self.publisher = LinkPublisher(link, journal.table_id, journal, on_change=self._changed)
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._wake = asyncio.Event()

    @classmethod
    def plan_of(cls, link: ProgressiveLinkSection, service: TableService) -> LinkPlan:
        return LinkPlan.of(game_hooks.progressives(service.submission), link)

    def start(self) -> None:
        """Contributions go out at the lock-out from now on; the publisher and watch run."""
        self.service.contributions = self.plan.contributions
        self._tasks = [
            asyncio.create_task(self.publisher.run(self._stop), name="link-publisher"),
            asyncio.create_task(self._watch(), name="link-watch"),
        ]

    async def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        tasks, self._tasks = self._tasks, []
        await asyncio.gather(*tasks, return_exceptions=True)

    def _changed(self) -> None:
        self._wake.set()

    async def _watch(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(WATCH_SECONDS):
                    await self._wake.wait()
            self._wake.clear()
            try:
                await self.check()
            except JournalError:
                return  # the service has locked the table and the watchdog stops
            except Exception:
                log.exception("progressive link: the watch failed")

    async def check(self) -> None:
        """Journal a loss or a return of the link, if the meter's word says one happened."""
        state = self.service.state
        reason = self.publisher.state.unavailable()
        journaled = state.devices.get(PROGRESSIVE_LINK)
        if reason is not None and (journaled is None or journaled.online):
            log.warning("progressive link unavailable: %s; progressive wagers are not recognized", reason)
            await self.service.journal_entry(DeviceOffline(PROGRESSIVE_LINK, reason), "link", None)
        elif reason is None and self.publisher.state.last_word is not None and not _online(journaled):
            log.info("progressive link available: progressive wagers are recognized again")
            back = DeviceOnline(PROGRESSIVE_LINK, "the meter is heard")
            await self.service.journal_entry(back, "link", None)

    def to_json(self) -> dict[str, object]:
        """The link for the API's status and ``tablectl link``."""
        out = self.publisher.state.to_json(self.publisher.queue_depth())
        out["configured"] = True
        out["enabled"] = self.link.enabled
        out["host"] = self.link.host
        out["port"] = self.link.port
        out["progressives"] = dict(self.plan.meter_ids)
        out["journaled_down"] = self.service.state.progressive_link_down
        return out


def _online(status: DeviceStatus | None) -> bool:
    return status is not None and status.online
