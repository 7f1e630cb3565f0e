"""The irregularity table every game keeps: each ``irregularity`` kind it accepts, with the
section (or the words) it follows.

A game declares ``IRREGULARITIES: Mapping[str, str]`` and looks a reported kind up here, so an
unknown kind is refused in the same words at every table, naming the kinds the game knows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .cards import Card, CardError, parse_cards
from .engine import IllegalEvent


def irregularity_section(table: Mapping[str, str], kind: str | None, where: str) -> str:
    """What ``table`` says of ``kind``; :class:`~.engine.IllegalEvent` for a kind ``where`` (``"ch.
    639a"``) does not know, naming the kinds it does."""
    if kind is None or kind not in table:
        raise IllegalEvent(f"no irregularity {kind or ''!r} in {where} (kinds: {', '.join(table)})")
    return table[kind]


def cards_found_face_up(detail: str | None) -> tuple[Card, ...]:
    """The card(s) a ``card_face_up`` report names in its ``detail`` ("Ah", "Ah Kd"); none if the
    detail is words. A card found face up while the cards are dealt may not be used in that round
    (§ 639a.13(a), § 647a.13(a), § 659a.13(f); § 649a.13 as § 639a.13)."""
    if not detail:
        return ()
    try:
        return parse_cards(detail, decks=1, allow_joker=True)
    except CardError:
        return ()


def refuse_face_up(cards: Iterable[Card], found: Iterable[Card], who: str, section: str) -> None:
    """:class:`~.engine.IllegalEvent` if one of ``cards`` dealt to ``who`` is one ``found`` face up."""
    barred = set(found)
    for c in cards:
        if c in barred:
            raise IllegalEvent(
                f"{c} to {who}: it was found face up in the shoe or the deck while the cards were dealt "
                f'and "may not be used in that round of play" ({section})'
            )
