"""Events: everything that happens at the table, as the rules core hears it.

The round engines are pure functions of these events (design: "events in,
state out"). The hardware layer, the dealer's touchscreen and round records
all produce the same events, so a round replays to the same settlement.

An event in JSON is an object with ``"type"`` and that type's fields:

========================  ==========================================================
``wager``                 ``seat``, ``wager`` (its name), ``amount`` ("10.00")
``no_more_bets``          (nothing): the dealer's lock-out
``cards``                 ``to`` (a seat number, ``"dealer"``, ``"board"`` or ``"burn"``),
                          ``cards`` ("As Kd"), optional ``hand`` (a split hand, from 0)
``deal``                  ``value`` (how many cards), optional ``to``: cards dealt face down
                          that nobody reads, counted only (the poker room without a card
                          reader: the hands, a player's discards and new cards, a burn)
``decision``              ``seat``, ``action`` (the game's words: ``"bet"``, ``"fold"``,
                          ``"hit"``...), optional ``hand``, optional ``amount``
``meter``                 ``name`` (``"progressive"``), ``amount``: the meter as read;
                          optional ``seat``: the meter when that seat is paid
                          (:mod:`.meter_turns`, § 639a.12(d)(4)), with the central
                          meter's award it comes from: ``award_seq``, ``meter_record``,
                          ``paid``, ``meter_after`` (kept for the record, not used to pay)
``hole_card_reader``      ``result``: ``"blackjack"`` or ``"no_blackjack"`` (§ 633a.7(h))
``irregularity``          ``kind`` (``"shoe_jam"``, ``"hole_card_exposed"``,
                          ``"wrong_card_count"``...), optional ``seat``, ``detail``
``position``              ``value``: a starting position (Asia Poker) or the button seat (poker room)
``dice``                  ``dice``: three numbers 1-6 (Three Dice Football)
``second_area``           ``seat``, ``area``: the player at betting area ``seat`` takes
                          the adjacent area ``area`` as his second (Asia Poker, § 659a.7(f))
========================  ==========================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .cards import Card, CardError, format_cards, parse_cards
from .money import Cents, MoneyError, format_money, parse_money


class EventError(ValueError):
    """An event that cannot be read; the message names the field."""


#: The most characters of a person's words the table journals (an irregularity's ``detail``, a
#: floorperson's reason or ruling): a sentence or two. Longer, or with a line break or another
#: control character, is refused whole, never cut: what was said is journaled as said.
MAX_WORDS: Final = 200


def person_words(raw: object, where: str) -> str:
    """``raw`` as a person's words the journal keeps: a string with something in it, at most
    :data:`MAX_WORDS` characters, printable (no line breaks: one line in the log and the journal's
    export). An :class:`EventError` naming ``where`` otherwise."""
    if not isinstance(raw, str) or not raw.strip():
        raise EventError(f"{where}: words, such as what was seen, not {raw!r}")
    if len(raw) > MAX_WORDS:
        raise EventError(f"{where}: at most {MAX_WORDS} characters, not {len(raw)}")
    if not raw.isprintable():
        raise EventError(f"{where}: one line of printable characters (no line breaks or control characters)")
    return raw


@dataclass(frozen=True, slots=True)
class Event:
    """One event; only the fields of its ``type`` are set."""

    type: str
    seat: int | None = None
    wager: str | None = None
    amount: Cents | None = None
    to: str | None = None
    cards: tuple[Card, ...] = ()
    hand: int = 0
    action: str | None = None
    name: str | None = None
    result: str | None = None
    kind: str | None = None
    detail: str = ""
    value: int | None = None
    dice: tuple[int, ...] = ()
    area: int | None = None
    award_seq: int | None = None
    """A seat's ``meter``: which award of the central meter it is (the meter's order of awards)."""
    meter_record: int | None = None
    """A seat's ``meter``: the central meter's record of that award (its event in the meter's store)."""
    paid: Cents | None = None
    """A seat's ``meter``: what the central meter recorded as paid by that award."""
    meter_after: Cents | None = None
    """A seat's ``meter``: the central meter after that award (its reset amount after 100%)."""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"type": self.type}
        for key in EVENT_FIELDS[self.type][0] + EVENT_FIELDS[self.type][1]:
            v = getattr(self, key)
            if key == "cards":
                out[key] = format_cards(v)
            elif key in MONEY_FIELDS and v is not None:
                out[key] = format_money(v)
            elif key == "dice":
                out[key] = list(v)
            elif (key == "hand" and v == 0) or (key == "detail" and not v):
                continue
            elif v is not None:
                out[key] = v
        return out

    def __str__(self) -> str:
        parts = [self.type]
        for key, v in self.to_json().items():
            if key != "type":
                parts.append(f"{key}={v}")
        return " ".join(parts)


#: For each type: (required fields, optional fields).
EVENT_FIELDS: Final[Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "wager": (("seat", "wager", "amount"), ()),
    "no_more_bets": ((), ()),
    "cards": (("to", "cards"), ("hand",)),
    "deal": (("value",), ("to",)),
    "decision": (("seat", "action"), ("hand", "amount")),
    "meter": (("name", "amount"), ("seat", "award_seq", "meter_record", "paid", "meter_after", "detail")),
    "hole_card_reader": (("result",), ()),
    "irregularity": (("kind",), ("seat", "detail")),
    "position": (("value",), ()),
    "dice": (("dice",), ()),
    "second_area": (("seat", "area"), ()),
}

HOLE_CARD_READER_RESULTS: Final = ("blackjack", "no_blackjack")
MONEY_FIELDS: Final = ("amount", "paid", "meter_after")
AWARD_FIELDS: Final = ("award_seq", "meter_record", "paid", "meter_after")
"""What a seat's ``meter`` event keeps of the central meter's award (for the record)."""
PLACES: Final = ("dealer", "board", "burn")
"""Where cards go that are not a seat's: the dealer, the board, the burn (the poker room)."""
COUNT_FIELDS: Final = ("seat", "hand", "value", "area", "award_seq", "meter_record")


def parse_event(data: object, where: str = "event", decks: int = 1, joker: bool = False) -> Event:
    """An :class:`Event` from its JSON object; errors say ``where`` and which field."""
    if not isinstance(data, Mapping):
        raise EventError(f'{where}: an event is a JSON object with a "type", not {data!r}')
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in EVENT_FIELDS:
        raise EventError(f"{where}: unknown event type {kind!r} (known: {', '.join(EVENT_FIELDS)})")
    required, optional = EVENT_FIELDS[kind]
    extra = [k for k in data if k != "type" and k not in required and k not in optional]
    if extra:
        raise EventError(f"{where}: a {kind} event has no field {extra[0]!r}")
    missing = [k for k in required if k not in data]
    if missing:
        raise EventError(f"{where}: a {kind} event needs {', '.join(missing)}")
    fields: dict[str, object] = {}
    for key in required + optional:
        if key in data:
            fields[key] = _field(key, data[key], f"{where}: {kind}.{key}", decks, joker)
    if kind == "meter" and "seat" not in fields:
        award = [k for k in AWARD_FIELDS if k in fields]
        if award:
            words = ", ".join(award)
            raise EventError(f"{where}: {words} describe one seat's award of the meter: give the seat")
    return Event(type=kind, **fields)  # type: ignore[arg-type]


def _field(key: str, raw: object, where: str, decks: int, joker: bool) -> object:
    try:
        if key in COUNT_FIELDS:
            if isinstance(raw, bool) or not isinstance(raw, int) or raw < (0 if key == "hand" else 1):
                raise EventError(
                    f"{where} must be a whole number{' from 0' if key == 'hand' else ' from 1'}, not {raw!r}"
                )
            return raw
        if key in MONEY_FIELDS:
            if not isinstance(raw, str):
                raise EventError(f'{where}: write money as a string such as "10.00", not {raw!r}')
            return parse_money(raw, key)
        if key == "cards":
            if not isinstance(raw, str):
                raise EventError(f'{where} must be cards as text such as "As Kd", not {raw!r}')
            return parse_cards(raw, decks=decks, allow_joker=joker)
        if key == "to":
            if isinstance(raw, int) and not isinstance(raw, bool) and raw >= 1:
                return str(raw)
            seat = isinstance(raw, str) and raw.isascii() and raw.isdigit() and int(raw) >= 1
            if raw in PLACES or seat:
                return str(raw)
            raise EventError(f'{where} must be a seat number, "dealer", "board" or "burn", not {raw!r}')
        if key == "result":
            if raw not in HOLE_CARD_READER_RESULTS:
                raise EventError(f'{where} must be "blackjack" or "no_blackjack", not {raw!r}')
            return raw
        if key == "dice":
            ok = (
                isinstance(raw, list)
                and len(raw) == 3
                and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in raw)
            )
            if not ok:
                raise EventError(f"{where} must be three dice, each 1 to 6, not {raw!r}")
            assert isinstance(raw, list)
            return tuple(raw)
        if not isinstance(raw, str) or not raw:
            raise EventError(f"{where} must be a non-empty string, not {raw!r}")
        return raw
    except (CardError, MoneyError) as exc:
        raise EventError(f"{where}: {exc}") from None


def seat_of(to: str | None) -> int | None:
    """The seat number of a ``cards`` event's ``to``, or ``None`` for dealer/board/burn."""
    return int(to) if to is not None and to.isascii() and to.isdigit() else None
