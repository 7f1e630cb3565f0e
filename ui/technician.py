"""The slot technician's page: devices, the progressive link, the journal as it streams, version.

Read-only, from ``status`` and the ``device``/``event`` notifications; diagnostics that change
the table (lamps, test frames) stay with ``tablectl`` over SSH (they need a technician's PIN).
"""

from __future__ import annotations

from dataclasses import dataclass

from .connection import Connection
from .table import TableModel


@dataclass(frozen=True)
class TechView:
    version: str
    table: str
    devices: tuple[str, ...]
    link: str
    journal: tuple[str, ...]
    screen: str
    gpio: str


def tech_view(table: TableModel, connection: Connection) -> TechView:
    status = table.status
    devices = tuple(
        f"{name}: {d.get('state')}" + (f" ({table.device_notes[name]})" if name in table.device_notes else "")
        for name, d in sorted(table.devices.items())
    )
    link = status.get("link", {})
    if not link.get("configured"):
        link_text = "progressive link: not configured (meter kept by this table)"
    else:
        state = "enabled" if link.get("enabled") else "DISABLED"
        link_text = f"progressive link: {state}, {link.get('host')}:{link.get('port')}"
    gpio = status.get("gpio") or {}
    gpio_text = (
        f"lock-out presses {gpio.get('lock_out_presses', 0)}, ignored while locked "
        f"{gpio.get('ignored_while_locked', 0)}, bounces {gpio.get('bounces', 0)}"
        if gpio
        else "GPIO: not started"
    )
    journal = tuple(f"{j.seq:>6}  {j.kind:<14} {j.source:<16} {j.text}" for j in reversed(table.journal))
    screen = f"screen: {connection.state}, {connection.attempts} reconnect(s), socket {connection.socket}"
    return TechView(
        str(status.get("version", "")),
        str(status.get("table", "")),
        devices,
        link_text,
        journal,
        screen,
        gpio_text,
    )
