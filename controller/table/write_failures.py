"""Journal write failures, kept beside the journal until the next start journals them.

A write that fails (disk full, I/O error) cannot be journaled by the journal that failed. The
table service appends one line (JSON: wall time, round, the error) to ``<journal>.write-failures``
and fsyncs it; at the next start the daemon journals each as a ``hardware_fact``
``journal_write_failed`` and removes the file (issue 9, item 7: hardware facts journaled, not
only logged). A line that cannot be written is logged: the disk is failing already.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def path_of(journal: Path) -> Path:
    return journal.with_name(journal.name + ".write-failures")


def note(journal: Path, error: str, round_id: str | None) -> None:
    """Append one failure (fsync'd); never raises."""
    line = json.dumps({"wall_ns": time.time_ns(), "round": round_id, "error": error[:500]}) + "\n"
    try:
        fd = os.open(path_of(journal), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
        try:
            os.write(fd, line.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        log.error("cannot keep the journal write failure for the next start: %s", exc)


def take(journal: Path) -> list[dict[str, Any]]:
    """The failures kept since the last start (a damaged line is kept as its text)."""
    path = path_of(journal)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return []
    out: list[dict[str, Any]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError:
            item = None
        out.append(item if isinstance(item, dict) else {"line": line[:500]})
    return out


def clear(journal: Path) -> None:
    """Once journaled: remove the file."""
    with contextlib.suppress(FileNotFoundError):
        path_of(journal).unlink()
