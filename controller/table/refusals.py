"""What the table refused or dropped, for the dealer's screen, the bench rig and tests: bounded.

Every refusal is journaled (as a ``refused`` record) or logged; this is only the daemon's
memory of the recent ones, so it keeps the last :data:`KEEP` and counts the rest.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from typing import Final, overload

KEEP: Final = 1000
"""How many refusals the daemon remembers (a table's day has far fewer)."""


class RefusalLog(Sequence[str]):
    """The last refusals, oldest first; :attr:`total` is every one since the start.

    ``len()`` and indexing see the ones kept. To see what came after some moment, note
    :attr:`total` then and ask :meth:`since` (correct even once old ones are dropped).
    """

    def __init__(self, keep: int = KEEP) -> None:
        if keep < 1:
            raise ValueError(f"a refusal log keeps at least 1 refusal, not {keep}")
        self._kept: deque[str] = deque(maxlen=keep)
        self.total = 0

    def add(self, reason: str) -> None:
        self._kept.append(reason)
        self.total += 1

    @property
    def dropped(self) -> int:
        """How many were forgotten to keep the log bounded."""
        return self.total - len(self._kept)

    def since(self, mark: int) -> list[str]:
        """The refusals after the first ``mark`` (a :attr:`total` noted earlier), as far as kept."""
        first_kept = self.dropped
        return list(self._kept)[max(mark - first_kept, 0) :]

    def get_status(self) -> dict[str, object]:
        return {"total": self.total, "dropped": self.dropped, "last": self._kept[-1] if self._kept else None}

    def __len__(self) -> int:
        return len(self._kept)

    def __iter__(self) -> Iterator[str]:
        return iter(self._kept)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return list(self._kept)[index]
        return self._kept[index]

    def __repr__(self) -> str:
        return f"RefusalLog({list(self._kept)!r}, total={self.total})"
