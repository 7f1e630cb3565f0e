"""Round records: one round's rules, meters and events, replayed to its settlement.

The texts require the cards to be kept "in a manner that permits the reconstruction of each
hand in the event of a question or dispute" (§ 639a.11(d), § 647a.11(i)); a record is that
reconstruction, and replaying it gives the settlement again.

A record is JSON (docs/round-record.md)::

    {"record": "round", "version": 1, "game": "caribbean-stud",
     "rules": {...the game's Rules Submission options...},
     "meters": {"progressive": "12000.00"},
     "seats": {"1": {"ante": "10.00"}},          # wagers before "no more bets"
     "cards": {"1": "As Ks Qs Js Ts", "dealer": "..."},
     "actions": [{"seat": 1, "action": "bet"}]}

or, where the order of cards and actions matters (Blackjack's hits), the
round's ``"events"`` in order (see :mod:`.events`) instead of ``seats``,
``cards`` and ``actions``. The compact form stands for these events: each
seat's wagers (seats in order, wagers as written), ``no_more_bets``, the cards
(seats in order, then the dealer, then the board), then the actions in order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .engine import Game, IllegalEvent, play
from .events import Event, EventError, parse_event
from .money import Cents, MoneyError, parse_money
from .options import RulesError, load_rules
from .settlement import Settlement

RECORD_VERSION = 1
_TOP_KEYS = (
    "record",
    "version",
    "game",
    "table",
    "round",
    "rules",
    "meters",
    "seats",
    "cards",
    "actions",
    "events",
    "note",
)


class RecordError(ValueError):
    """A round record that cannot be replayed; the message names the key or event."""


@dataclass(frozen=True)
class Record:
    game: Game[Any, Any]
    rules: object
    meters: Mapping[str, Cents]
    events: tuple[Event, ...]
    table: str = ""
    round: str = ""


def load_record(data: object, games: Mapping[str, Game[Any, Any]], where: str = "record") -> Record:
    """Read a round record; every problem is a :class:`RecordError` naming where it is."""
    if not isinstance(data, Mapping):
        raise RecordError(f"{where}: a round record is a JSON object")
    unknown = [k for k in data if k not in _TOP_KEYS]
    if unknown:
        raise RecordError(f"{where}: unknown key {unknown[0]!r} (keys: {', '.join(_TOP_KEYS)})")
    if data.get("version", RECORD_VERSION) != RECORD_VERSION:
        raise RecordError(f"{where}: version {data.get('version')!r}; this replays version {RECORD_VERSION}")
    name = data.get("game")
    if not isinstance(name, str) or name not in games:
        raise RecordError(f"{where}: game {name!r} is not one of {', '.join(sorted(games))}")
    game = games[name]
    rules_raw = data.get("rules", {})
    if not isinstance(rules_raw, Mapping):
        raise RecordError(f"{where}: rules must be an object of the game's options")
    try:
        rules = load_rules(game.rules_class, rules_raw, f"{where}: rules", game.rules_checks)
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    meters_raw = data.get("meters", {})
    if not isinstance(meters_raw, Mapping):
        raise RecordError(f'{where}: meters must be an object such as {{"progressive": "10000.00"}}')
    meters: dict[str, Cents] = {}
    for k, v in meters_raw.items():
        try:
            meters[k] = parse_money(v if isinstance(v, str) else repr(v), f"meters.{k}")
        except MoneyError as exc:
            raise RecordError(f"{where}: {exc}") from None
    decks, joker = game.decks(rules), game.joker
    compact = [k for k in ("seats", "cards", "actions") if k in data]
    raw_events: list[tuple[str, object]]
    if "events" in data:
        if compact:
            raise RecordError(
                f"{where}: give either events or seats/cards/actions, not both ({compact[0]!r})"
            )
        ev = data["events"]
        if not isinstance(ev, list):
            raise RecordError(f"{where}: events must be a list")
        raw_events = [(f"{where}: events[{i}]", e) for i, e in enumerate(ev)]
    else:
        raw_events = _compact_events(data, where)
    events = []
    for at, raw in raw_events:
        try:
            events.append(parse_event(raw, at, decks, joker))
        except EventError as exc:
            raise RecordError(str(exc)) from None
    return Record(game, rules, meters, tuple(events), str(data.get("table", "")), str(data.get("round", "")))


def _compact_events(data: Mapping[str, Any], where: str) -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    seats = data.get("seats", {})
    if not isinstance(seats, Mapping):
        raise RecordError(f"{where}: seats must be an object of seat number to wagers")
    for seat in sorted(seats, key=_seat_number(where)):
        wagers = seats[seat]
        if not isinstance(wagers, Mapping):
            raise RecordError(f"{where}: seats.{seat} must be an object of wager name to amount")
        for wager, amount in wagers.items():
            out.append(
                (
                    f"{where}: seats.{seat}.{wager}",
                    {"type": "wager", "seat": int(seat), "wager": wager, "amount": amount},
                )
            )
    out.append((f"{where}: no more bets", {"type": "no_more_bets"}))
    cards = data.get("cards", {})
    if not isinstance(cards, Mapping):
        raise RecordError(f'{where}: cards must be an object of seat, "dealer" or "board" to cards')
    order = sorted((k for k in cards if k not in ("dealer", "board")), key=_seat_number(where))
    order += [k for k in ("dealer", "board") if k in cards]
    for to in order:
        out.append((f"{where}: cards.{to}", {"type": "cards", "to": to, "cards": cards[to]}))
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(f"{where}: actions must be a list")
    for i, action in enumerate(actions):
        if not isinstance(action, Mapping):
            raise RecordError(
                f'{where}: actions[{i}] must be an object such as {{"seat": 1, "action": "bet"}}'
            )
        event = dict(action)
        event.setdefault("type", "decision")
        out.append((f"{where}: actions[{i}]", event))
    return out


def _seat_number(where: str) -> Any:
    def key(seat: object) -> int:
        if not (isinstance(seat, str) and seat.isascii() and seat.isdigit() and int(seat) >= 1):
            raise RecordError(f"{where}: {seat!r} is not a seat number (1, 2, ...)")
        return int(seat)

    return key


def replay(record: Record) -> Settlement:
    """The record's settlement: the same record always gives the same settlement."""
    try:
        return play(record.game, record.rules, record.meters, record.events)
    except IllegalEvent as exc:
        raise RecordError(f"the round cannot be replayed: {exc}") from None
