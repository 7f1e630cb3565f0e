"""The local API's commands: their arguments, how each is checked, and who may send it.

Each command names the roles allowed (:data:`COMMANDS`); ``submit_event`` by the event's type
(:data:`EVENT_ROLES`). An argument that is wrong is refused naming the argument and what it
takes, before the handler sees it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from controller.rules.core.dispatch import did_you_mean

from ..auth import ROLE_WORDS, Role
from .handler import OPEN_TOPICS, TOPIC_ROLES, TOPICS, ApiHandler, Caller, Result

# --- commands and their arguments -----------------------------------------------------------------


class ArgError(ValueError):
    """A command's arguments are not what it takes; the message says which."""


REQUIRED: Final = object()


@dataclass(frozen=True)
class Arg:
    name: str
    parse: Callable[[object], object]
    default: object = REQUIRED
    help: str = ""


def _integer(low: int, high: int) -> Callable[[object], object]:
    def parse(raw: object) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
            raise ArgError(f"must be a whole number from {low} to {high}")
        return raw

    return parse


def _boolean(raw: object) -> bool:
    if not isinstance(raw, bool):
        raise ArgError("must be true or false")
    return raw


_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}")


def _token(raw: object) -> str:
    if not isinstance(raw, str) or not _TOKEN.fullmatch(raw):
        raise ArgError("must be a name of 1 to 64 letters, digits, '_', '.', ':' or '-'")
    return raw


_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{7,127}")


def _key(raw: object) -> str | None:
    if raw is None:
        return None
    if not isinstance(raw, str) or not _KEY.fullmatch(raw):
        raise ArgError("must be a key of 8 to 128 letters, digits, '_', '.', ':' or '-' (a UUID will do)")
    return raw


def _choice(*allowed: str) -> Callable[[object], object]:
    def parse(raw: object) -> str:
        if not isinstance(raw, str) or raw not in allowed:
            raise ArgError(f"must be one of {', '.join(map(repr, allowed))}{did_you_mean(str(raw), allowed)}")
        return raw

    return parse


def _topics(raw: object) -> frozenset[str]:
    if not isinstance(raw, list) or not raw or not all(isinstance(t, str) for t in raw):
        raise ArgError(f"must be a list of topics from {', '.join(TOPICS)}")
    unknown = [t for t in raw if t not in TOPICS]
    if unknown:
        raise ArgError(
            f"has no topic {show(unknown[0])}{did_you_mean(unknown[0], TOPICS)} (topics: {', '.join(TOPICS)})"
        )
    return frozenset(raw)


_MAX_FRAME_BYTES: Final = 256


def _frame(raw: object) -> bytes:
    if not isinstance(raw, str):
        raise ArgError('must be the frame\'s bytes in hexadecimal, such as "02 41 03"')
    try:
        data = bytes.fromhex(raw)
    except ValueError:
        raise ArgError('must be the frame\'s bytes in hexadecimal, such as "02 41 03"') from None
    if not 1 <= len(data) <= _MAX_FRAME_BYTES:
        raise ArgError(f"must be 1 to {_MAX_FRAME_BYTES} bytes")
    return data


#: Who may submit each type of event over the API. Types not listed come only from elsewhere.
EVENT_ROLES: Final[Mapping[str, frozenset[Role]]] = {
    "wager": frozenset({Role.DEALER, Role.FLOOR}),
    # A wager changed or removed before "no more bets" (§ 639a.7(c)), journaled with the actor.
    "wager_changed": frozenset({Role.DEALER, Role.FLOOR}),
    "no_more_bets": frozenset({Role.DEALER, Role.FLOOR}),
    "cards": frozenset({Role.DEALER, Role.FLOOR}),  # by hand, with a device out of order (§ 639a.13(g))
    "decision": frozenset({Role.DEALER, Role.FLOOR}),
    "irregularity": frozenset({Role.DEALER, Role.FLOOR}),
    "position": frozenset({Role.DEALER, Role.FLOOR}),
    "deal": frozenset({Role.DEALER, Role.FLOOR}),  # a poker table without a card reader: counted
    "dice": frozenset({Role.DEALER, Role.FLOOR}),
    "second_area": frozenset({Role.DEALER, Role.FLOOR}),  # one player's two areas, § 659a.7(f)
    # A floorperson (or above) verifies or validates a flagged payout: § 633a.7(o)(2)(ii)(B),
    # § 639a.11(c)(5)(iii). The daemon journals it against the settlement line; the rules core
    # does not see it.
    "verification": frozenset({Role.FLOOR}),
    # § 639a.13(g): a device declared out of order (or returned to service), journaled with the actor.
    "device_out_of_order": frozenset({Role.FLOOR, Role.TECH}),
    "device_in_service": frozenset({Role.FLOOR, Role.TECH}),
    # A floorperson finds a reported irregularity did not happen (docs/authority.md).
    "irregularity_dismissed": frozenset({Role.FLOOR}),
    # A floorperson settles a linked claim the meter refused or did not award in time, with the
    # verified meter and the reason (docs/progressive-link.md, "The award handshake").
    "claim_hand_pay": frozenset({Role.FLOOR}),
}
#: Event types that never come over the API, and why.
EVENTS_NOT_FROM_API: Final[Mapping[str, str]] = {
    "meter": "meter amounts come only from the central meter, over the progressive link",
    "hole_card_reader": "the hole-card reader's answer comes only from the reader itself (§ 633a.7(h))",
}


def _event(raw: object) -> dict[str, Any]:
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        raise ArgError('must be an event object with a "type", such as {"type": "no_more_bets"}')
    kind = raw["type"]
    if kind in EVENTS_NOT_FROM_API:
        raise ArgError(f"a {kind} event is not accepted here: {EVENTS_NOT_FROM_API[kind]}")
    if kind not in EVENT_ROLES:
        raise ArgError(
            f"unknown event type {kind!r}{did_you_mean(kind, EVENT_ROLES)} (types: {', '.join(EVENT_ROLES)})"
        )
    return dict(raw)


@dataclass(frozen=True)
class Command:
    """A command of the API: the roles allowed, whether it is open, its arguments and its call."""

    name: str
    roles: frozenset[Role]
    args: tuple[Arg, ...]
    call: Callable[[ApiHandler, Caller, Mapping[str, Any]], Awaitable[Result]]
    help: str
    #: Open: any peer the socket lets in may run it, signed in or not (it changes nothing).
    open: bool = False
    #: The roles for these arguments, where they depend on them (an event's type).
    roles_for: Callable[[Mapping[str, Any]], frozenset[Role]] | None = None
    #: For an open command: the roles these arguments need after all (a technician's topic), or
    #: ``None`` where they leave it open.
    restricted_for: Callable[[Mapping[str, Any]], frozenset[Role] | None] | None = None

    def is_open(self, args: Mapping[str, Any]) -> bool:
        """Whether any peer may run it with these arguments, signed in or not."""
        return self.open and (self.restricted_for is None or self.restricted_for(args) is None)

    def allowed(self, args: Mapping[str, Any]) -> frozenset[Role]:
        if self.restricted_for is not None and (restricted := self.restricted_for(args)) is not None:
            return restricted
        return self.roles_for(args) if self.roles_for is not None else self.roles


_ALL: Final = frozenset(Role)
_ROUND = Arg("round", _token, help="the round's id")


def _topic_roles(args: Mapping[str, Any]) -> frozenset[Role] | None:
    """The roles that may subscribe to every restricted topic asked for; ``None`` if none is."""
    restricted = [TOPIC_ROLES[t] for t in sorted(args["topics"]) if t in TOPIC_ROLES]
    return frozenset.intersection(*restricted) if restricted else None


COMMANDS: Final[Mapping[str, Command]] = {
    c.name: c
    for c in (
        Command("status", _ALL, (), lambda h, a, _: h.status(a), "the table's state", open=True),
        Command(
            "subscribe",
            _ALL,
            (Arg("topics", _topics, list(OPEN_TOPICS)),),
            lambda h, a, k: h.subscribe(a, k["topics"]),
            "the state now, then notifications",
            open=True,
            restricted_for=_topic_roles,
        ),
        Command(
            "list_rounds",
            _ALL,
            (Arg("limit", _integer(1, 100), 10),),
            lambda h, a, k: h.list_rounds(a, k["limit"]),
            "the most recent rounds",
            open=True,
        ),
        Command(
            "submit_event",
            frozenset({Role.DEALER, Role.FLOOR, Role.TECH}),
            (
                Arg("event", _event),
                Arg("idempotency_key", _key, None, "the client's key: a retry is answered once"),
            ),
            lambda h, a, k: h.submit_event(a, k["event"], k["idempotency_key"]),
            "a dealer's or floorperson's action",
            roles_for=lambda k: EVENT_ROLES[k["event"]["type"]],
        ),
        Command(
            "settle_round",
            frozenset({Role.DEALER, Role.FLOOR}),
            (),
            lambda h, a, _: h.settle_round(a),
            "settle a round whose players' optional decisions are over",
        ),
        Command(
            "floorpersons",
            frozenset({Role.DEALER, Role.FLOOR}),
            (),
            lambda h, a, _: h.floorpersons(a),
            "the names of the floorpersons who may sign in (names only)",
        ),
        Command(
            "recall_round",
            frozenset({Role.FLOOR, Role.TECH}),
            (_ROUND,),
            lambda h, a, k: h.recall_round(a, k["round"]),
            "one past round, for a dispute",
        ),
        Command(
            "export_round",
            frozenset({Role.FLOOR, Role.TECH}),
            (_ROUND,),
            lambda h, a, k: h.export_round(a, k["round"]),
            "one round as a round record",
        ),
        Command(
            "toggle_lamp",
            frozenset({Role.TECH}),
            (Arg("lamp", _token), Arg("on", _boolean)),
            lambda h, a, k: h.toggle_lamp(a, k["lamp"], k["on"]),
            "diagnostics: a lamp on or off",
        ),
        Command(
            "send_test_frame",
            frozenset({Role.TECH}),
            (Arg("device", _choice("shoe", "shuffler", "reader")), Arg("frame", _frame)),
            lambda h, a, k: h.send_test_frame(a, k["device"], k["frame"]),
            "diagnostics: raw bytes to a serial device",
        ),
    )
}


def roles_words(roles: Iterable[Role]) -> str:
    return " or ".join(ROLE_WORDS[r] for r in Role if r in set(roles))


def show(raw: object) -> str:
    text = json.dumps(raw, ensure_ascii=False) if not isinstance(raw, bytes) else repr(raw)
    return text if len(text) <= 40 else text[:37] + "..."
