"""The CPU each process of a bench run uses: this process, the meter's two, the broker."""

from __future__ import annotations

import os
import time
from pathlib import Path


def cpu_seconds(pid: int) -> float:
    """The CPU (user and system) a process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_by_part(this: str, meter: int, broker: int) -> dict[str, float]:
    """CPU seconds so far of: this process (named ``this``), the meter's own process (the
    broker's connection, reading the messages, telling), its store's process, the broker."""
    children = Path(f"/proc/{meter}/task/{meter}/children").read_text().split()
    parts = {this: time.process_time(), "the meter's process": cpu_seconds(meter)}
    parts["its store's process"] = sum(cpu_seconds(int(c)) for c in children)
    parts["the broker"] = cpu_seconds(broker)
    return parts


def shares(before: dict[str, float], after: dict[str, float], seconds: float) -> str:
    """Each part's CPU between ``before`` and ``after``, as a share of one core over ``seconds``."""
    return ", ".join(f"{part} {(after[part] - before[part]) / seconds:.0%}" for part in after)


def per_item(before: dict[str, float], after: dict[str, float], items: int) -> dict[str, float]:
    """Each part's CPU seconds between ``before`` and ``after`` per item."""
    return {part: (after[part] - before[part]) / items for part in after}
