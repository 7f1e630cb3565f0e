"""The house way's settings as the daemon gives them (Asia Poker, Fortune Asia Poker, § 659a.11).

The daemon's status carries ``round.house_way``: the dealer's hands set by the house way once every
player has set (§ 659a.11(c)), and, for a player who asked for help and has not set yet, the
setting the dealer tells him (§ 659a.11(a)(1)). The screen shows them beside the hand-setting
keys; it never works a house way out itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .faces import faces


@dataclass(frozen=True)
class HouseWayView:
    """One place's setting: ``to`` is ``"dealer"`` or the seat's number."""

    to: str
    high: tuple[str, ...]
    medium: tuple[str, ...]
    low: tuple[str, ...]
    section: str

    @property
    def text(self) -> str:
        who = "Dealer" if self.to == "dealer" else f"Seat {self.to}"
        hands = "   ".join(f"{name} {faces(cards)}" for name, cards in self.hands)
        return f"House way ({self.section}), {who}: {hands}"

    @property
    def hands(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return (("high", self.high), ("medium", self.medium), ("low", self.low))


def house_way_views(items: Sequence[Mapping[str, Any]]) -> tuple[HouseWayView, ...]:
    """The status's ``round.house_way``; a malformed item is a ``ValueError`` naming it."""
    out = []
    for i, item in enumerate(items):
        where = f"status round.house_way[{i}]"
        to, cards, section = item.get("to"), item.get("cards"), item.get("section", "")
        hands = cards.split("/") if isinstance(cards, str) else []
        if not isinstance(to, str) or len(hands) != 3 or not isinstance(section, str):
            raise ValueError(
                f'{where}: a setting is {{"to", "cards": "high / medium / low"}}, not {dict(item)!r}'
            )
        high, medium, low = (tuple(h.split()) for h in hands)
        out.append(HouseWayView(to, high, medium, low, section))
    return tuple(out)
