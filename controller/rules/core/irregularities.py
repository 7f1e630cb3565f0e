"""The irregularity table every game keeps: each ``irregularity`` kind it accepts, with the
section (or the words) it follows.

A game declares ``IRREGULARITIES: Mapping[str, str]`` and looks a reported kind up here, so an
unknown kind is refused in the same words at every table, naming the kinds the game knows.
"""

from __future__ import annotations

from collections.abc import Mapping

from .engine import IllegalEvent


def irregularity_section(table: Mapping[str, str], kind: str | None, where: str) -> str:
    """What ``table`` says of ``kind``; :class:`~.engine.IllegalEvent` for a kind ``where`` (``"ch.
    639a"``) does not know, naming the kinds it does."""
    if kind is None or kind not in table:
        raise IllegalEvent(f"no irregularity {kind or ''!r} in {where} (kinds: {', '.join(table)})")
    return table[kind]
