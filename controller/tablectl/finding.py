"""One line of ``tablectl doctor``: a check, what it found, and what to do when it failed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    ok: bool
    what: str
    detail: str
    what_to_do: str = ""

    def line(self) -> str:
        mark = "ok  " if self.ok else "FAIL"
        tail = f" -> {self.what_to_do}" if self.what_to_do and not self.ok else ""
        return f"{mark} {self.what}: {self.detail}{tail}"
