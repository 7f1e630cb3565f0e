"""The local API: JSON lines over a Unix socket, for the dealer's touchscreen and ``tablectl``.

One request a line, one response a line (``docs/local-api.md``)::

    -> {"id": 7, "cmd": "submit_event", "args": {"event": {"type": "no_more_bets"}}}
    <- {"id": 7, "ok": true, "result": {...}}
    -> {"id": 8, "cmd": "recall_round", "args": {"round": "r12"}, "auth": {"user": "mfloor", "pin": "..."}}
    <- {"id": 8, "ok": false, "error": {"code": "auth_failed", "message": "wrong user name or PIN; ..."}}

and, after ``subscribe``, notifications between the responses: ``{"notify": "state", "data": {...}}``.

Who may connect is the kernel's business: the socket is mode 0660 in a directory of mode 0750,
both of the configured group (the touchscreen's user and the technicians). Who may do what is
this module's: each command names the roles allowed (:data:`COMMANDS`); the dealer's touchscreen
is recognised by its Unix user (``SO_PEERCRED``); a floorperson or a technician signs each request
with a user name and PIN (:mod:`.auth`). Every command reaches the daemon's :class:`ApiHandler`
with its :class:`Actor` (role, user, and the peer's uid, gid and pid), refused ones included
(:meth:`ApiHandler.command_refused`), so the daemon journals them all.

Nothing here blocks the loop: the PIN check runs in a thread; a client that does not read its
notifications loses them (it is told how many), never slows the daemon. A bad line gets an error
and the connection goes on; a line longer than the limit is discarded unread. A PIN is never
logged, never repeated in a response, never given to the handler.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import errno
import grp
import json
import logging
import os
import pwd
import re
import socket
import stat
import struct
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Final, Protocol

from .auth import ROLE_WORDS, Authenticator, AuthError, Role
from .config import ApiSection

log = logging.getLogger(__name__)

PROTOCOL_VERSION: Final = 1
DEFAULT_MAX_LINE_BYTES: Final = 65536
DEFAULT_MAX_CLIENTS: Final = 32
# Notifications waiting for one slow subscriber; past this they are dropped and counted.
DEFAULT_SUBSCRIBER_QUEUE: Final = 1000
#: On close, how long a request being served may take to be answered before it is cut off.
DEFAULT_CLOSE_GRACE: Final = 2.0
SOCKET_MODE: Final = 0o660
DIRECTORY_MODE: Final = 0o750
_READ_CHUNK: Final = 65536
_MAX_ID_CHARS: Final = 128
_ENVELOPE_KEYS: Final = ("id", "cmd", "args", "auth")

Result = Mapping[str, Any]


class ErrorCode(StrEnum):
    """The ``error.code`` of a response (``docs/local-api.md`` says when each is sent)."""

    BAD_JSON = "bad_json"
    BAD_REQUEST = "bad_request"
    LINE_TOO_LONG = "line_too_long"
    UNKNOWN_COMMAND = "unknown_command"
    BAD_ARGS = "bad_args"
    AUTH_REQUIRED = "auth_required"
    AUTH_FAILED = "auth_failed"
    LOCKED_OUT = "locked_out"
    AUTH_UNAVAILABLE = "auth_unavailable"
    FORBIDDEN = "forbidden"
    REFUSED = "refused"
    NOT_FOUND = "not_found"
    UNAVAILABLE = "unavailable"
    BUSY = "busy"
    INTERNAL = "internal"


class CommandError(Exception):
    """Raised by a handler to refuse a command: ``code`` (usually ``refused``, ``not_found`` or
    ``unavailable``) and ``message`` go to the client as they are."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ApiStartError(Exception):
    """The API cannot start (no such group, another daemon on the socket, ...); the message says why."""


@dataclass(frozen=True, slots=True)
class Peer:
    """The connecting process, as the kernel vouches for it (``SO_PEERCRED``)."""

    pid: int | None
    uid: int | None
    gid: int | None

    def __str__(self) -> str:
        return f"(uid {self.uid} gid {self.gid} pid {self.pid})"

    def to_json(self) -> dict[str, int | None]:
        return {"uid": self.uid, "gid": self.gid, "pid": self.pid}


@dataclass(frozen=True, slots=True)
class Actor:
    """Who sent a command: the role it acts in, the signed-in user (if any) and the peer.

    ``role`` is ``None`` for a peer that is neither the dealer's touchscreen nor signed in; it may
    run the open commands (status, subscribe, list_rounds) only.
    """

    peer: Peer
    role: Role | None = None
    user: str | None = None

    def __str__(self) -> str:
        if self.user is not None:
            who = f"{self.role} {self.user!r}"
        elif self.role is Role.DEALER:
            who = "dealer's station"
        else:
            who = "peer"
        return f"{who} {self.peer}"

    def to_json(self) -> dict[str, object]:
        """For the journal: role, user and the peer's credentials."""
        return {
            "role": None if self.role is None else str(self.role),
            "user": self.user,
            **self.peer.to_json(),
        }


#: What a subscriber may ask for: ``state`` (the table's state after each change), ``event`` (each
#: event journaled), ``device`` (a device connected, lost, faulted), ``link`` (the progressive
#: link's status), ``input`` (raw inputs, for ``tablectl watch``), ``frames`` (every serial frame
#: both ways, for ``tablectl sniff``; technicians only, :data:`TOPIC_ROLES`).
TOPICS: Final = ("state", "event", "device", "link", "input", "frames")
#: Topics only some roles may subscribe to. ``frames`` is the slot technician's diagnostics: the raw
#: traffic of the shoe, the shuffler and the hole-card reader (the reader's withheld as its driver
#: withholds it, § 633a.7(h)).
TOPIC_ROLES: Final[Mapping[str, frozenset[Role]]] = {"frames": frozenset({Role.TECH})}
#: What ``subscribe`` without ``topics`` subscribes to: every topic anyone may have.
OPEN_TOPICS: Final = tuple(t for t in TOPICS if t not in TOPIC_ROLES)


class ApiHandler(Protocol):
    """What the daemon implements to serve the API. Each method gets the :class:`Actor` so the daemon
    journals the command and who gave it; a refusal is a :class:`CommandError`. Arguments arrive
    checked as :data:`COMMANDS` declares them. The result must be JSON-serialisable."""

    async def status(self, actor: Actor) -> Result:
        """Game, round, lock-out, wagers accepted per seat, devices, link, version."""
        ...

    async def submit_event(self, actor: Actor, event: Mapping[str, Any]) -> Result:
        """A dealer's or floorperson's action: an event as in ``docs/round-record.md`` (its ``type``
        already checked against :data:`EVENT_ROLES`), or a floorperson's ``verification``."""
        ...

    async def settle_round(self, actor: Actor) -> Result:
        """The dealer settles a round that could be settled but waits for the players' optional
        decisions (Asia Poker's surrender, § 659a.11(d))."""
        ...

    async def recall_round(self, actor: Actor, round_id: str) -> Result:
        """One past round, readable: its events, settlement and who did what."""
        ...

    async def export_round(self, actor: Actor, round_id: str) -> Result:
        """One round as a round record (``docs/round-record.md``) that ``tablectl replay`` replays."""
        ...

    async def list_rounds(self, actor: Actor, limit: int) -> Result:
        """The ``limit`` most recent rounds, newest first (id, game, time, state)."""
        ...

    async def toggle_lamp(self, actor: Actor, lamp: str, on: bool) -> Result:
        """Diagnostics: turn a lamp on or off (refuse it during a round)."""
        ...

    async def send_test_frame(self, actor: Actor, device: str, frame: bytes) -> Result:
        """Diagnostics: send raw bytes to a serial device (``shoe``, ``shuffler``, ``reader``)."""
        ...

    async def subscribe(self, actor: Actor, topics: frozenset[str]) -> Result:
        """The current state, sent as the response; the notifications after it come from
        :meth:`ApiServer.publish`."""
        ...

    async def command_refused(self, actor: Actor, cmd: str | None, code: str, message: str) -> None:
        """A request the API refused before it reached a method above (bad line, no permission,
        wrong PIN, ...) or that a method refused; ``cmd`` is ``None`` for an unreadable line."""
        ...


# --- commands and their arguments -----------------------------------------------------------------


class _ArgError(ValueError):
    """A command's arguments are not what it takes; the message says which."""


_REQUIRED: Final = object()


@dataclass(frozen=True)
class Arg:
    name: str
    parse: Callable[[object], object]
    default: object = _REQUIRED
    help: str = ""


def _integer(low: int, high: int) -> Callable[[object], object]:
    def parse(raw: object) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
            raise _ArgError(f"must be a whole number from {low} to {high}")
        return raw

    return parse


def _boolean(raw: object) -> bool:
    if not isinstance(raw, bool):
        raise _ArgError("must be true or false")
    return raw


_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}")


def _token(raw: object) -> str:
    if not isinstance(raw, str) or not _TOKEN.fullmatch(raw):
        raise _ArgError("must be a name of 1 to 64 letters, digits, '_', '.', ':' or '-'")
    return raw


def _choice(*allowed: str) -> Callable[[object], object]:
    def parse(raw: object) -> str:
        if not isinstance(raw, str) or raw not in allowed:
            raise _ArgError(
                f"must be one of {', '.join(map(repr, allowed))}{_did_you_mean(str(raw), allowed)}"
            )
        return raw

    return parse


def _topics(raw: object) -> frozenset[str]:
    if not isinstance(raw, list) or not raw or not all(isinstance(t, str) for t in raw):
        raise _ArgError(f"must be a list of topics from {', '.join(TOPICS)}")
    unknown = [t for t in raw if t not in TOPICS]
    if unknown:
        raise _ArgError(
            f"has no topic {unknown[0]!r}{_did_you_mean(unknown[0], TOPICS)} (topics: {', '.join(TOPICS)})"
        )
    return frozenset(raw)


_MAX_FRAME_BYTES: Final = 256


def _frame(raw: object) -> bytes:
    if not isinstance(raw, str):
        raise _ArgError('must be the frame\'s bytes in hexadecimal, such as "02 41 03"')
    try:
        data = bytes.fromhex(raw)
    except ValueError:
        raise _ArgError('must be the frame\'s bytes in hexadecimal, such as "02 41 03"') from None
    if not 1 <= len(data) <= _MAX_FRAME_BYTES:
        raise _ArgError(f"must be 1 to {_MAX_FRAME_BYTES} bytes")
    return data


#: Who may submit each type of event over the API. Types not listed come only from elsewhere.
EVENT_ROLES: Final[Mapping[str, frozenset[Role]]] = {
    "wager": frozenset({Role.DEALER, Role.FLOOR}),
    "no_more_bets": frozenset({Role.DEALER, Role.FLOOR}),
    "cards": frozenset({Role.DEALER, Role.FLOOR}),  # by hand, with a device out of order (§ 639a.13(g))
    "decision": frozenset({Role.DEALER, Role.FLOOR}),
    "irregularity": frozenset({Role.DEALER, Role.FLOOR}),
    "position": frozenset({Role.DEALER, Role.FLOOR}),
    "dice": frozenset({Role.DEALER, Role.FLOOR}),
    # A floorperson (or above) verifies or validates a flagged payout: § 633a.7(o)(2)(ii)(B),
    # § 639a.11(c)(5)(iii). The daemon journals it against the settlement line; the rules core
    # does not see it.
    "verification": frozenset({Role.FLOOR}),
}
#: Event types that never come over the API, and why.
EVENTS_NOT_FROM_API: Final[Mapping[str, str]] = {
    "meter": "meter amounts come only from the central meter, over the progressive link",
    "hole_card_reader": "the hole-card reader's answer comes only from the reader itself (§ 633a.7(h))",
}


def _event(raw: object) -> dict[str, Any]:
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        raise _ArgError('must be an event object with a "type", such as {"type": "no_more_bets"}')
    kind = raw["type"]
    if kind in EVENTS_NOT_FROM_API:
        raise _ArgError(f"a {kind} event is not accepted here: {EVENTS_NOT_FROM_API[kind]}")
    if kind not in EVENT_ROLES:
        raise _ArgError(
            f"unknown event type {kind!r}{_did_you_mean(kind, EVENT_ROLES)} (types: {', '.join(EVENT_ROLES)})"
        )
    return dict(raw)


@dataclass(frozen=True)
class Command:
    """A command of the API: the roles allowed, whether it is open, its arguments and its call."""

    name: str
    roles: frozenset[Role]
    args: tuple[Arg, ...]
    call: Callable[[ApiHandler, Actor, Mapping[str, Any]], Awaitable[Result]]
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
            frozenset({Role.DEALER, Role.FLOOR}),
            (Arg("event", _event),),
            lambda h, a, k: h.submit_event(a, k["event"]),
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


def _did_you_mean(word: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, sorted(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _roles_words(roles: Iterable[Role]) -> str:
    return " or ".join(ROLE_WORDS[r] for r in Role if r in set(roles))


def _show(raw: object) -> str:
    text = json.dumps(raw, ensure_ascii=False) if not isinstance(raw, bytes) else repr(raw)
    return text if len(text) <= 40 else text[:37] + "..."


# --- the wire ------------------------------------------------------------------------------------


class _Refusal(Exception):
    def __init__(self, code: ErrorCode | str, message: str) -> None:
        super().__init__(message)
        self.code = str(code)
        self.message = message


@dataclass(frozen=True, slots=True)
class _Credentials:
    user: str
    pin: str

    def __repr__(self) -> str:
        return f"_Credentials(user={self.user!r}, pin=<hidden>)"


@dataclass(frozen=True)
class _Request:
    id: str | int | None
    cmd: str
    args: Mapping[str, Any]
    auth: _Credentials | None


def _request_id(obj: Mapping[str, Any]) -> str | int | None:
    rid = obj.get("id")
    if rid is None or (isinstance(rid, int) and not isinstance(rid, bool)):
        return rid
    if isinstance(rid, str) and len(rid) <= _MAX_ID_CHARS:
        return rid
    return None


def parse_request(obj: object) -> _Request:
    """The request envelope, or a :class:`_Refusal` that never repeats what ``auth`` held."""
    if not isinstance(obj, dict):
        raise _Refusal(ErrorCode.BAD_REQUEST, 'a request is a JSON object: {"id": 1, "cmd": "status"}')
    problems = []
    for key in obj:
        if key not in _ENVELOPE_KEYS:
            problems.append(f"unknown key {key!r}{_did_you_mean(key, _ENVELOPE_KEYS)}")
    rid = obj.get("id")
    if _request_id(obj) != rid:
        problems.append(f"id must be a string of at most {_MAX_ID_CHARS} characters, a whole number or null")
    cmd = obj.get("cmd")
    if not isinstance(cmd, str):
        problems.append(f"cmd must be the command's name, a string (commands: {', '.join(COMMANDS)})")
    args = obj.get("args", {})
    if not isinstance(args, dict):
        problems.append("args must be an object")
    auth_raw = obj.get("auth")
    auth = None
    if auth_raw is not None:
        ok = (
            isinstance(auth_raw, dict)
            and set(auth_raw) == {"user", "pin"}
            and isinstance(auth_raw["user"], str)
            and isinstance(auth_raw["pin"], str)
        )
        if ok:
            auth = _Credentials(auth_raw["user"], auth_raw["pin"])
        else:
            # Said without the values: they may hold a PIN.
            problems.append('auth must be {"user": NAME, "pin": PIN}, both strings, and nothing else')
    if problems:
        raise _Refusal(ErrorCode.BAD_REQUEST, "; ".join(problems))
    assert isinstance(cmd, str) and isinstance(args, dict)
    return _Request(rid, cmd, args, auth)


def parse_args(command: Command, args: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments checked and converted; every problem at once in one :class:`_Refusal`."""
    known = [a.name for a in command.args]
    problems = [
        f"args.{key}: {command.name} has no such argument{_did_you_mean(key, known)}"
        + (f" (arguments: {', '.join(known)})" if known else " (it takes none)")
        for key in args
        if key not in known
    ]
    out: dict[str, Any] = {}
    for arg in command.args:
        if arg.name not in args:
            if arg.default is _REQUIRED:
                problems.append(f"args.{arg.name}: missing{f' ({arg.help})' if arg.help else ''}")
            else:
                out[arg.name] = arg.parse(arg.default)
            continue
        try:
            out[arg.name] = arg.parse(args[arg.name])
        except _ArgError as exc:
            problems.append(f"args.{arg.name} {_show(args[arg.name])}: {exc}")
    if problems:
        raise _Refusal(ErrorCode.BAD_ARGS, "; ".join(problems))
    return out


async def read_lines(reader: asyncio.StreamReader, limit: int) -> AsyncIterator[bytes | None]:
    """Lines from ``reader`` without their newline; ``None`` for a line longer than ``limit``.

    A line too long is discarded as it arrives, never held whole: memory stays under ``limit``
    plus one read. A last line without a newline still counts.
    """
    buf = bytearray()
    too_long = False
    while chunk := await reader.read(_READ_CHUNK):
        pos = 0
        while (nl := chunk.find(b"\n", pos)) >= 0:
            if too_long:
                too_long = False
                yield None
            else:
                buf += chunk[pos:nl]
                yield None if len(buf) > limit else bytes(buf)
            buf.clear()
            pos = nl + 1
        if not too_long:
            buf += chunk[pos:]
            if len(buf) > limit:
                too_long = True
                buf.clear()
    if too_long:
        yield None
    elif buf:
        yield bytes(buf)


def _encode(obj: Mapping[str, Any]) -> bytes:
    return json.dumps(obj, separators=(",", ":"), allow_nan=False).encode("ascii") + b"\n"


def _error_line(rid: str | int | None, code: str, message: str) -> bytes:
    return _encode({"id": rid, "ok": False, "error": {"code": code, "message": message}})


# --- the server ----------------------------------------------------------------------------------


class _Subscription:
    """One connection's notifications waiting to be written; bounded, never blocks the publisher."""

    def __init__(self, topics: frozenset[str], size: int) -> None:
        self.topics = topics
        self.size = size
        self.pending: deque[bytes] = deque()
        self.dropped = 0
        self.wake = asyncio.Event()

    def offer(self, topic: str, line: bytes) -> None:
        if topic not in self.topics:
            return
        if len(self.pending) >= self.size:
            self.dropped += 1
        else:
            self.pending.append(line)
        self.wake.set()


class ApiServer:
    """The local API on a Unix socket; :meth:`publish` feeds the subscribers.

    ``dealer_uids``: the Unix users whose connections act as the dealer without signing in (the
    touchscreen's user, ``[api] dealer_user``).
    """

    def __init__(
        self,
        handler: ApiHandler,
        socket_path: Path,
        group: str,
        authenticator: Authenticator,
        *,
        dealer_uids: Iterable[int] = (),
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        max_clients: int = DEFAULT_MAX_CLIENTS,
        subscriber_queue: int = DEFAULT_SUBSCRIBER_QUEUE,
        close_grace: float = DEFAULT_CLOSE_GRACE,
    ) -> None:
        self.handler = handler
        self.socket_path = socket_path
        self.group = group
        self.authenticator = authenticator
        self.dealer_uids = frozenset(dealer_uids)
        self.max_line_bytes = max_line_bytes
        self.max_clients = max_clients
        self.subscriber_queue = subscriber_queue
        self.close_grace = close_grace
        self._server: asyncio.AbstractServer | None = None
        self._socket_id: tuple[int, int] | None = None
        self._connections: set[_Connection] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False

    @property
    def clients(self) -> int:
        return len(self._connections)

    @property
    def closing(self) -> bool:
        """:meth:`close` has begun: no new connection or request is taken."""
        return self._closing

    async def start(self) -> None:
        """Create the socket (0660, the group's) and listen; :class:`ApiStartError` says what is wrong."""
        sock, self._socket_id = await asyncio.to_thread(_bind_socket, self.socket_path, self.group)
        self._server = await asyncio.start_unix_server(self._accept, sock=sock)
        log.info("local API listening on %s (group %s)", self.socket_path, self.group)

    async def close(self) -> None:
        """Stop listening, close every connection, remove the socket file.

        A request being served is answered first (for up to ``close_grace`` seconds, then cut
        off); no new request is read. Connections end as if the clients had hung up, so the
        shutdown logs nothing at ERROR (Python 3.11's streams log a cancelled connection task as
        an "unhandled exception in client_connected_cb").
        """
        self._closing = True
        if self._server is not None:
            self._server.close()
        for connection in list(self._connections):
            connection.stop_reading()
        tasks = set(self._tasks)
        if tasks:
            _, stuck = await asyncio.wait(tasks, timeout=self.close_grace)
            if stuck:
                log.warning(
                    "local API: %d connection(s) still busy after %g s; cutting them off",
                    len(stuck),
                    self.close_grace,
                )
                for task in stuck:
                    task.cancel()
                await asyncio.gather(*stuck, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None
        if self._socket_id is not None:
            with contextlib.suppress(FileNotFoundError):
                st = os.stat(self.socket_path)
                # Only our own socket: a newer daemon may have taken the path.
                if (st.st_dev, st.st_ino) == self._socket_id:
                    os.unlink(self.socket_path)
            self._socket_id = None

    async def __aenter__(self) -> ApiServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def has_subscribers(self, topic: str) -> bool:
        """Whether any connection subscribes to ``topic`` now (to skip work nobody would see)."""
        return any(c.subscription is not None and topic in c.subscription.topics for c in self._connections)

    def publish(self, topic: str, data: Mapping[str, Any]) -> None:
        """Send a notification to every subscriber of ``topic``; call it from the loop (threads:
        ``loop.call_soon_threadsafe``). Never blocks: a slow subscriber's excess is dropped and counted."""
        if topic not in TOPICS:
            raise ValueError(f"unknown topic {topic!r} (topics: {', '.join(TOPICS)})")
        subscriptions = [
            c.subscription
            for c in self._connections
            if c.subscription is not None and topic in c.subscription.topics
        ]
        if not subscriptions:
            return  # nobody listens: not even encoded
        line = _encode({"notify": topic, "data": data})
        for subscription in subscriptions:
            subscription.offer(topic, line)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        connection = _Connection(self, reader, writer)
        try:
            if self._closing:
                return  # accepted just as the server closed: hung up at once
            if len(self._connections) >= self.max_clients:
                log.warning(
                    "local API: refused a connection %s: %d clients already",
                    connection.peer,
                    self.max_clients,
                )
                with contextlib.suppress(ConnectionError):
                    writer.write(
                        _error_line(None, ErrorCode.BUSY, f"too many clients ({self.max_clients}); try later")
                    )
                    await writer.drain()
                return
            self._connections.add(connection)
            await connection.run()
        except asyncio.CancelledError:
            if not self._closing:
                raise
            # close() cut off a request past its grace: end as a client's hang-up would, since
            # Python 3.11's streams log a cancelled client_connected_cb as unhandled.
            log.debug("local API: connection %s cut off at close", connection.peer)
        finally:
            self._connections.discard(connection)
            self._tasks.discard(task)
            await connection.close()


class _Connection:
    def __init__(self, server: ApiServer, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.server = server
        self.reader = reader
        self.writer = writer
        self.peer = _peer_of(writer)
        self.subscription: _Subscription | None = None
        self._pump: asyncio.Task[None] | None = None
        self._write_lock = asyncio.Lock()
        self._closed = False

    async def run(self) -> None:
        log.debug("local API: connection %s", self.peer)
        try:
            async for line in read_lines(self.reader, self.server.max_line_bytes):
                if self.server.closing:
                    break  # the server is closing: nothing more is taken
                if line is not None and not line.strip():
                    continue  # a blank line: nothing asked, nothing answered
                await self._handle(line)
                if self._closed:
                    break
        except ConnectionError:
            log.debug("local API: connection %s reset by the peer", self.peer)
        log.debug("local API: connection %s closed", self.peer)

    def stop_reading(self) -> None:
        """The server is closing: end the read loop once the request being served (if any) is
        answered, as if the client had hung up."""
        self.reader.feed_eof()

    async def close(self) -> None:
        self._closed = True
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
        self.writer.close()
        with contextlib.suppress(ConnectionError):
            await self.writer.wait_closed()

    async def _write(self, line: bytes) -> None:
        if self._closed:
            return
        async with self._write_lock:
            try:
                self.writer.write(line)
                await self.writer.drain()
            except ConnectionError:
                self._closed = True

    async def _handle(self, line: bytes | None) -> None:
        actor = self._station()
        rid: str | int | None = None
        cmd: str | None = None
        try:
            if line is None:
                raise _Refusal(
                    ErrorCode.LINE_TOO_LONG,
                    f"request line longer than {self.server.max_line_bytes} bytes; discarded unread",
                )
            try:
                obj = json.loads(line.decode("utf-8"))
            except UnicodeDecodeError:
                raise _Refusal(ErrorCode.BAD_JSON, "the line is not UTF-8 text") from None
            except (ValueError, RecursionError) as exc:
                # The decoder's message gives a position, never the text (which may hold a PIN).
                reason = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
                raise _Refusal(ErrorCode.BAD_JSON, f"the line is not JSON: {reason}") from None
            if isinstance(obj, dict):
                rid = _request_id(obj)
            request = parse_request(obj)
            cmd = request.cmd
            command = COMMANDS.get(cmd)
            if command is None:
                raise _Refusal(
                    ErrorCode.UNKNOWN_COMMAND,
                    f"no command {cmd[:40]!r}{_did_you_mean(cmd, COMMANDS)} "
                    f"(commands: {', '.join(COMMANDS)})",
                )
            args = parse_args(command, request.args)
            actor = await self._actor(request.auth)
            self._authorize(command, args, actor)
            result = await self._call(command, actor, args)
        except _Refusal as refusal:
            log.log(
                logging.WARNING if refusal.code in _SECURITY_CODES else logging.INFO,
                "local API: %s: %s refused: %s: %s",
                actor,
                cmd or "(no command)",
                refusal.code,
                refusal.message,
            )
            await self._write(_error_line(rid, refusal.code, refusal.message))
            try:
                await self.server.handler.command_refused(actor, cmd, refusal.code, refusal.message)
            except Exception:
                log.exception("local API: the handler failed to record a refused command")
            return
        try:
            out = _encode({"id": rid, "ok": True, "result": result})
        except (TypeError, ValueError):
            log.exception("local API: %s: %s: the handler's result is not JSON", actor, cmd)
            out = _error_line(rid, ErrorCode.INTERNAL, "internal error; see the daemon's log")
        log.log(logging.DEBUG if command.is_open(args) else logging.INFO, "local API: %s: %s ok", actor, cmd)
        await self._write(out)
        if cmd == "subscribe" and self.subscription is not None and self._pump is None:
            self._pump = asyncio.create_task(self._pump_notifications(self.subscription))

    def _station(self) -> Actor:
        """The peer, not signed in: the dealer if it is the touchscreen's user, else nobody."""
        return Actor(self.peer, Role.DEALER if self.peer.uid in self.server.dealer_uids else None)

    async def _actor(self, auth: _Credentials | None) -> Actor:
        if auth is None:
            return self._station()
        try:
            user = await self.server.authenticator.authenticate(auth.user, auth.pin, str(self.peer))
        except AuthError as exc:
            raise _Refusal(exc.code, exc.message) from None
        return Actor(self.peer, user.role, user.name)

    def _authorize(self, command: Command, args: Mapping[str, Any], actor: Actor) -> None:
        if command.is_open(args):
            return
        roles = command.allowed(args)
        if actor.role in roles:
            return
        what = command.name
        if command.name == "submit_event":
            what = f"a {args['event']['type']} event"
        elif command.name == "subscribe":
            what = "the topic " + " and ".join(repr(t) for t in sorted(args["topics"]) if t in TOPIC_ROLES)
        if actor.user is None:
            raise _Refusal(
                ErrorCode.AUTH_REQUIRED,
                f"{what} is for {_roles_words(roles)}: sign in with user and PIN (auth)",
            )
        raise _Refusal(
            ErrorCode.FORBIDDEN,
            f"user {actor.user!r} is {ROLE_WORDS[actor.role] if actor.role else 'nobody'}; "
            f"{what} is for {_roles_words(roles)}",
        )

    async def _call(self, command: Command, actor: Actor, args: Mapping[str, Any]) -> Result:
        subscribing = command.name == "subscribe"
        before = self.subscription
        old_topics = before.topics if before is not None else frozenset()
        if subscribing:
            # Registered before the snapshot is taken, so nothing published meanwhile is lost; a
            # second subscribe on the connection changes the topics.
            if before is None:
                self.subscription = _Subscription(args["topics"], self.server.subscriber_queue)
            else:
                before.topics = args["topics"]
        try:
            return await command.call(self.server.handler, actor, args)
        except Exception as exc:
            if subscribing:
                self.subscription = before
                if before is not None:
                    before.topics = old_topics
            if isinstance(exc, CommandError):
                raise _Refusal(exc.code, exc.message) from None
            log.exception("local API: %s: %s failed", actor, command.name)
            raise _Refusal(ErrorCode.INTERNAL, "internal error; see the daemon's log") from None

    async def _pump_notifications(self, subscription: _Subscription) -> None:
        while not self._closed:
            await subscription.wake.wait()
            subscription.wake.clear()
            lines = list(subscription.pending)
            subscription.pending.clear()
            dropped, subscription.dropped = subscription.dropped, 0
            for line in lines:
                await self._write(line)
            if dropped:
                await self._write(_encode({"notify": "dropped", "data": {"count": dropped}}))


_SECURITY_CODES: Final = frozenset(
    {ErrorCode.AUTH_FAILED, ErrorCode.LOCKED_OUT, ErrorCode.FORBIDDEN, ErrorCode.AUTH_REQUIRED}
)


def _peer_of(writer: asyncio.StreamWriter) -> Peer:
    sock = writer.get_extra_info("socket")
    if sock is None or not hasattr(socket, "SO_PEERCRED"):
        return Peer(None, None, None)
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid, uid, gid = struct.unpack("3i", raw)
    return Peer(pid, uid, gid)


def _bind_socket(path: Path, group: str) -> tuple[socket.socket, tuple[int, int]]:
    """The listening socket's file: 0660 and ``group``'s, in a 0750 directory of ``group``.

    Bound, given its mode and group, and only then listened on (by asyncio), so no one connects
    while it is still open wider. A stale socket file from a crash is replaced; a live one (another
    daemon) or a file that is not a socket is an error.
    """
    try:
        gid = grp.getgrnam(group).gr_gid
    except KeyError:
        raise ApiStartError(f"local API: group {group!r} does not exist (groupadd {group})") from None
    if len(os.fsencode(path)) > 107:
        raise ApiStartError(f"local API: socket path {path} is longer than 107 bytes")
    directory = path.parent
    try:
        directory.mkdir(mode=DIRECTORY_MODE, parents=True, exist_ok=True)
        st = directory.stat()
        if st.st_uid == os.geteuid():
            os.chmod(directory, DIRECTORY_MODE)
            os.chown(directory, -1, gid)
        elif stat.S_IMODE(st.st_mode) & 0o007:
            log.warning(
                "local API: %s is open to all users; the socket's own mode still limits it", directory
            )
    except PermissionError as exc:
        raise ApiStartError(
            f"local API: cannot give {directory} to group {group!r}: {exc.strerror} "
            f"(the daemon's user must be in the group: SupplementaryGroups={group})"
        ) from None
    _remove_stale(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(os.fsencode(path))
        try:
            os.chmod(path, SOCKET_MODE)
            os.chown(path, -1, gid)
        except PermissionError as exc:
            os.unlink(path)
            raise ApiStartError(
                f"local API: cannot give {path} to group {group!r}: {exc.strerror} "
                f"(the daemon's user must be in the group: SupplementaryGroups={group})"
            ) from None
        sock.setblocking(False)
        st = os.stat(path)
    except BaseException:
        sock.close()
        raise
    return sock, (st.st_dev, st.st_ino)


def _remove_stale(path: Path) -> None:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(st.st_mode):
        raise ApiStartError(f"local API: {path} exists and is not a socket; not touching it")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(1.0)
        probe.connect(os.fsencode(path))
    except OSError as exc:
        if exc.errno not in (errno.ECONNREFUSED, errno.ENOENT):
            raise ApiStartError(f"local API: {path}: {exc.strerror}") from None
        log.info("local API: removing the stale socket %s", path)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        return
    finally:
        probe.close()
    raise ApiStartError(f"local API: another process is listening on {path} (is the daemon running twice?)")


def api_server_from_config(api: ApiSection, handler: ApiHandler) -> ApiServer:
    """The server as ``[api]`` configures it; :class:`ApiStartError` if the dealer's user is unknown."""
    try:
        dealer_uid = pwd.getpwnam(api.dealer_user).pw_uid
    except KeyError:
        raise ApiStartError(f"[api] dealer_user {api.dealer_user!r}: no such user on this machine") from None
    authenticator = Authenticator(api.users_file, api.pin_attempts, api.lockout_seconds)
    return ApiServer(
        handler,
        api.socket,
        api.group,
        authenticator,
        dealer_uids=(dealer_uid,),
        max_line_bytes=api.max_line_bytes,
    )
