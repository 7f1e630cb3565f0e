"""Topics of a progressive link: per link, per site, per table; the meter's under the link.

::

    {root}/{link}/site/{site}/table/{table}/event     table -> meter, QoS 1
    {root}/{link}/site/{site}/table/{table}/status    table, retained, last will "offline"
    {root}/{link}/meter/status                        meter, retained, last will "offline"
    {root}/{link}/meter/amount/{progressive}          meter, retained
    {root}/{link}/meter/table/{table}/ack             meter -> one table, retained
    {root}/{link}/meter/table/{table}/reply           meter -> one table (award, refusal), QoS 1

Every id fills one topic level, so a broker ACL can bind a table's username to its own
topics (``pattern write {root}/+/site/+/table/%u/#``) and a table reads only the meter's.
A bridge carries ``{root}/{link}/site/{site}/#`` out of a site and ``{root}/{link}/meter/#``
in (docs/progressive-link.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from .errors import WireError, shown
from .fields import ident

DEFAULT_ROOT: Final = "progressive"

Channel = Literal["event", "table_status", "meter_status", "amount", "ack", "reply"]


@dataclass(frozen=True)
class TopicRef:
    """What a topic names: its channel and the ids in it (``""`` where the channel has none)."""

    channel: Channel
    site: str = ""
    table: str = ""
    progressive: str = ""

    @property
    def from_meter(self) -> bool:
        """A topic only the meter may publish on (the broker's ACL says so)."""
        return self.channel in ("meter_status", "amount", "ack", "reply")


def _root(root: str) -> str:
    levels = root.split("/")
    for i, level in enumerate(levels):
        ident(level, f"topic root level {i + 1}")
    return root


@dataclass(frozen=True)
class Topics:
    """The topics of one link (``link``) under ``root``."""

    link: str
    root: str = DEFAULT_ROOT

    def __post_init__(self) -> None:
        ident(self.link, "link")
        _root(self.root)

    @property
    def base(self) -> str:
        return f"{self.root}/{self.link}"

    def table_event(self, site: str, table: str) -> str:
        return f"{self.base}/site/{ident(site, 'site')}/table/{ident(table, 'table')}/event"

    def table_status(self, site: str, table: str) -> str:
        return f"{self.base}/site/{ident(site, 'site')}/table/{ident(table, 'table')}/status"

    def meter_status(self) -> str:
        return f"{self.base}/meter/status"

    def amount(self, progressive: str) -> str:
        return f"{self.base}/meter/amount/{ident(progressive, 'progressive')}"

    def ack(self, table: str) -> str:
        return f"{self.base}/meter/table/{ident(table, 'table')}/ack"

    def reply(self, table: str) -> str:
        return f"{self.base}/meter/table/{ident(table, 'table')}/reply"

    # -- subscriptions --

    def every_table_event(self) -> str:
        """What the meter subscribes to for tables' messages."""
        return f"{self.base}/site/+/table/+/event"

    def every_table_status(self) -> str:
        return f"{self.base}/site/+/table/+/status"

    def meter_for_table(self, table: str) -> tuple[str, ...]:
        """What a table subscribes to: the meter's status and amounts, and its own ack and replies."""
        return (self.meter_status(), f"{self.base}/meter/amount/+", self.ack(table), self.reply(table))

    def parse(self, topic: str) -> TopicRef:
        """What ``topic`` names, or :class:`WireError` if it is not a topic of this link."""
        prefix = self.base + "/"
        if not topic.startswith(prefix):
            raise WireError("topic", f"{shown(topic)} is not under this link's {prefix!r}")
        levels = topic[len(prefix) :].split("/")
        match levels:
            case ["site", site, "table", table, "event"]:
                return TopicRef("event", ident(site, "topic site"), ident(table, "topic table"))
            case ["site", site, "table", table, "status"]:
                return TopicRef("table_status", ident(site, "topic site"), ident(table, "topic table"))
            case ["meter", "status"]:
                return TopicRef("meter_status")
            case ["meter", "amount", progressive]:
                return TopicRef("amount", progressive=ident(progressive, "topic progressive"))
            case ["meter", "table", table, "ack"]:
                return TopicRef("ack", table=ident(table, "topic table"))
            case ["meter", "table", table, "reply"]:
                return TopicRef("reply", table=ident(table, "topic table"))
        raise WireError("topic", f"{shown(topic)} is not a topic of the progressive link")
