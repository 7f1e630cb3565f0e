"""What the local API and the daemon agree on: the actor, the errors, the topics, the handler.

Every command reaches the daemon's :class:`ApiHandler` with its :class:`Caller` (role, user, and
the peer's uid, gid and pid); a method refuses with :class:`CommandError` and an
:class:`ErrorCode` (docs/local-api.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Protocol

from ..auth import Role

PROTOCOL_VERSION: Final = 1


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
    IDEMPOTENCY_CONFLICT = "idempotency_conflict"
    NOT_FOUND = "not_found"
    UNAVAILABLE = "unavailable"
    BUSY = "busy"
    RATE_LIMITED = "rate_limited"
    TIMEOUT = "timeout"
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
class Caller:
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
    """What the daemon implements to serve the API. Each method gets the :class:`Caller` so the daemon
    journals the command and who gave it; a refusal is a :class:`CommandError`. Arguments arrive
    checked as :data:`COMMANDS` declares them. The result must be JSON-serialisable."""

    async def status(self, actor: Caller) -> Result:
        """Game, round, lock-out, wagers accepted per seat, devices, link, version."""
        ...

    async def submit_event(
        self, actor: Caller, event: Mapping[str, Any], idempotency_key: str | None = None
    ) -> Result:
        """A dealer's or floorperson's action: an event as in ``docs/round-record.md`` (its ``type``
        already checked against :data:`EVENT_ROLES`), or a floorperson's ``verification``. With
        ``idempotency_key``, a retry is answered with the first result, never applied twice."""
        ...

    async def settle_round(self, actor: Caller) -> Result:
        """The dealer settles a round that could be settled but waits for the players' optional
        decisions (Asia Poker's surrender, § 659a.11(d))."""
        ...

    async def floorpersons(self, actor: Caller) -> Result:
        """``{"floorpersons": [names]}``: the users who hold the floorperson role, names only (never a
        PIN, a hash or a count), for the dealer's screen to offer as keys before the PIN."""
        ...

    async def recall_round(self, actor: Caller, round_id: str) -> Result:
        """One past round, readable: its events, settlement and who did what."""
        ...

    async def export_round(self, actor: Caller, round_id: str) -> Result:
        """One round as a round record (``docs/round-record.md``) that ``tablectl replay`` replays."""
        ...

    async def list_rounds(self, actor: Caller, limit: int) -> Result:
        """The ``limit`` most recent rounds, newest first (id, game, time, state)."""
        ...

    async def toggle_lamp(self, actor: Caller, lamp: str, on: bool) -> Result:
        """Diagnostics: turn a lamp on or off (refuse it during a round)."""
        ...

    async def send_test_frame(self, actor: Caller, device: str, frame: bytes) -> Result:
        """Diagnostics: send raw bytes to a serial device (``shoe``, ``shuffler``, ``reader``)."""
        ...

    async def subscribe(self, actor: Caller, topics: frozenset[str]) -> Result:
        """The current state, sent as the response; the notifications after it come from
        :meth:`ApiServer.publish`."""
        ...

    async def command_refused(self, actor: Caller, cmd: str | None, code: str, message: str) -> None:
        """A request the API refused before it reached a method above (bad line, no permission,
        wrong PIN, ...) or that a method refused; ``cmd`` is ``None`` for an unreadable line."""
        ...
