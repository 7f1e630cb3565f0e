"""One client's connection: its requests in order, who it is, what it may do, its notifications.

The dealer's touchscreen is recognised by its Unix user (``SO_PEERCRED``); a floorperson or a
technician signs each request with a user name and PIN (:mod:`controller.auth`), checked in a
thread so the loop never waits. Every request, refused ones included, reaches the handler
(:meth:`~.handler.ApiHandler.command_refused`), so the daemon journals them all. A PIN is never
logged, never repeated in a response, never given to the handler. A client that does not read
its notifications loses them (it is told how many), never slows the daemon.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import struct
from collections import deque
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from controller.rules.core.dispatch import did_you_mean

from ..auth import ROLE_WORDS, AuthError, Role
from .commands import COMMANDS, Command, roles_words
from .face_down import for_no_role_state
from .handler import TOPIC_ROLES, Caller, CommandError, ErrorCode, Peer, Result
from .wire import (
    Credentials,
    ReadTimeout,
    Refusal,
    encode,
    error_line,
    parse_args,
    parse_request,
    read_lines,
    request_id,
)

if TYPE_CHECKING:
    from .server import ApiServer

log = logging.getLogger(__name__)


class Subscription:
    """One connection's notifications waiting to be written; bounded, never blocks the publisher."""

    def __init__(self, topics: frozenset[str], size: int, sees_face_down: bool = False) -> None:
        self.topics = topics
        self.size = size
        self.sees_face_down = sees_face_down
        """The dealer's screen, a signed-in floorperson or technician: shown every card
        (else the face-down ones are withheld, :mod:`.face_down`)."""
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


GENERAL: Final = "general"
DEALER_SLOT: Final = "dealer"
TECH_SLOT: Final = "tech"
SLOTS: Final = (GENERAL, DEALER_SLOT, TECH_SLOT)
"""Where a connection sits: the general slots, or those reserved for the dealer's screen or a
technician (docs/local-api.md "Limits")."""


class Connection:
    def __init__(self, server: ApiServer, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.server = server
        self.reader = reader
        self.writer = writer
        self.peer = _peer_of(writer)
        self.slot = GENERAL
        self.subscription: Subscription | None = None
        self._pump: asyncio.Task[None] | None = None
        self._write_lock = asyncio.Lock()
        self._closed = False
        self._closed_after = False
        self._pause = 0.0

    async def run(self) -> None:
        log.debug("local API: connection %s", self.peer)
        lines = read_lines(
            self.reader,
            self.server.max_line_bytes,
            idle_seconds=self._idle_seconds,
            line_seconds=self.server.line_seconds,
        )
        try:
            async for line in lines:
                if self.server.closing:
                    break  # the server is closing: nothing more is taken
                if line is not None and not line.strip():
                    continue  # a blank line: nothing asked, nothing answered
                await self._handle(line)
                if self._closed:
                    break
                if self._pause:
                    # A peer past its rate: read nothing more from it until its next request may
                    # go on, so its flood fills its own socket buffer, not the daemon's loop.
                    await asyncio.sleep(self._pause)
                    self._pause = 0.0
        except ConnectionError:
            log.debug("local API: connection %s reset by the peer", self.peer)
        except ReadTimeout as timeout:
            # Closed so a peer that holds a slot without asking cannot keep the dealer out.
            self.server.tally.count(self.peer, ErrorCode.TIMEOUT)
            await self._write(error_line(None, ErrorCode.TIMEOUT, f"{timeout}; the connection is closed"))
        log.debug("local API: connection %s closed", self.peer)

    def _idle_seconds(self) -> float | None:
        # A subscriber waits for notifications, not for its own requests: never idle.
        return None if self.subscription is not None else self.server.idle_seconds

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
            self._admit(actor)
            if line is None:
                raise Refusal(
                    ErrorCode.LINE_TOO_LONG,
                    f"request line longer than {self.server.max_line_bytes} bytes; discarded unread",
                )
            try:
                obj = json.loads(line.decode("utf-8"))
            except UnicodeDecodeError:
                raise Refusal(ErrorCode.BAD_JSON, "the line is not UTF-8 text") from None
            except (ValueError, RecursionError) as exc:
                # The decoder's message gives a position, never the text (which may hold a PIN).
                reason = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
                raise Refusal(ErrorCode.BAD_JSON, f"the line is not JSON: {reason}") from None
            if isinstance(obj, dict):
                rid = request_id(obj)
            request = parse_request(obj)
            cmd = request.cmd
            command = COMMANDS.get(cmd)
            if command is None:
                raise Refusal(
                    ErrorCode.UNKNOWN_COMMAND,
                    f"no command {cmd[:40]!r}{did_you_mean(cmd, COMMANDS)} (commands: {', '.join(COMMANDS)})",
                )
            args = parse_args(command, request.args)
            actor = await self._actor(request.auth)
            if self.slot == TECH_SLOT and actor.role is not Role.TECH:
                self._closed_after = True
                raise Refusal(
                    ErrorCode.BUSY,
                    f"too many clients ({self.server.max_clients}); this connection took the slot "
                    "kept for a technician: sign in as one (auth), or try later",
                )
            self._authorize(command, args, actor)
            result = await self._call(command, actor, args)
        except Refusal as refusal:
            await self._write(error_line(rid, refusal.code, refusal.message))
            await self._refused(actor, cmd, refusal)
            if self._closed_after:
                self._closed = True
            return
        try:
            out = encode({"id": rid, "ok": True, "result": result})
        except (TypeError, ValueError):
            log.exception("local API: %s: %s: the handler's result is not JSON", actor, cmd)
            out = error_line(rid, ErrorCode.INTERNAL, "internal error; see the daemon's log")
        log.log(logging.DEBUG if command.is_open(args) else logging.INFO, "local API: %s: %s ok", actor, cmd)
        await self._write(out)
        if cmd == "subscribe" and self.subscription is not None and self._pump is None:
            self._pump = asyncio.create_task(self._pump_notifications(self.subscription))

    def _admit(self, actor: Caller) -> None:
        """Every peer within its rate (the dealer's screen at its own), and within the refusals it
        may have journaled one by one; else ``rate_limited``, and nothing is read from it until it
        may go on (docs/local-api.md "Limits")."""
        server, uid = self.server, self.peer.uid
        limiter = server.dealer_limiter if actor.role is Role.DEALER else server.limiter
        wait = limiter.allow(uid)
        if wait:
            self._pause = wait
            raise Refusal(
                ErrorCode.RATE_LIMITED,
                f"too many requests from uid {uid}: at most {limiter.rate:g} a second; "
                f"try again in {wait:.2f} s",
            )
        wait = server.journaled_refusals.wait(uid)
        if wait:
            self._pause = wait
            refusals = server.journaled_refusals
            raise Refusal(
                ErrorCode.RATE_LIMITED,
                f"too many refused requests from uid {uid}: at most {refusals.burst} at once and "
                f"{refusals.rate:g} a second afterwards; try again in {wait:.2f} s",
            )

    async def _refused(self, actor: Caller, cmd: str | None, refusal: Refusal) -> None:
        """Journal the refusal, or count it (docs/local-api.md "Limits").

        A peer with no role, a peer past its rate and every wrong PIN are counted, logged once an
        interval and never journaled one by one under the round lock, so a flood of them cannot
        slow the table or fill the journal; a lockout is journaled at once (once for each).
        """
        code = refusal.code
        counted = not refusal.began_lockout and (
            code in (ErrorCode.RATE_LIMITED, ErrorCode.AUTH_FAILED, ErrorCode.LOCKED_OUT)
            or actor.role is None
            # Past the peer's refusals journaled one by one: a flood, the dealer's screen's too.
            or self.server.journaled_refusals.allow(actor.peer.uid) > 0
        )
        if counted:
            role = None if actor.role is None else str(actor.role)
            self.server.tally.count(actor.peer, code, role)
            return
        log.log(
            logging.WARNING if code in _SECURITY_CODES else logging.INFO,
            "local API: %s: %s refused: %s: %s",
            actor,
            cmd or "(no command)",
            code,
            refusal.message,
        )
        try:
            await self.server.handler.command_refused(actor, cmd, code, refusal.message)
        except Exception:
            log.exception("local API: the handler failed to record a refused command")

    def _station(self) -> Caller:
        """The peer, not signed in: the dealer if it is the touchscreen's user, else nobody."""
        return Caller(self.peer, Role.DEALER if self.peer.uid in self.server.dealer_uids else None)

    async def _actor(self, auth: Credentials | None) -> Caller:
        if auth is None:
            return self._station()
        try:
            user = await self.server.authenticator.authenticate(
                auth.user,
                auth.pin,
                str(self.peer),
                peer=f"uid:{self.peer.uid}",
                trusted=self.peer.uid in self.server.dealer_uids,
            )
        except AuthError as exc:
            raise Refusal(exc.code, exc.message, began_lockout=exc.began_lockout) from None
        return Caller(self.peer, user.role, user.name)

    def _authorize(self, command: Command, args: Mapping[str, Any], actor: Caller) -> None:
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
            raise Refusal(
                ErrorCode.AUTH_REQUIRED,
                f"{what} is for {roles_words(roles)}: sign in with user and PIN (auth)",
            )
        raise Refusal(
            ErrorCode.FORBIDDEN,
            f"user {actor.user!r} is {ROLE_WORDS[actor.role] if actor.role else 'nobody'}; "
            f"{what} is for {roles_words(roles)}",
        )

    async def _call(self, command: Command, actor: Caller, args: Mapping[str, Any]) -> Result:
        subscribing = command.name == "subscribe"
        before = self.subscription
        old_topics = before.topics if before is not None else frozenset()
        old_sees = before.sees_face_down if before is not None else False
        if subscribing:
            # Registered before the snapshot is taken, so nothing published meanwhile is lost; a
            # second subscribe on the connection changes the topics.
            sees = actor.role is not None
            if before is None:
                self.subscription = Subscription(args["topics"], self.server.subscriber_queue, sees)
            else:
                before.topics = args["topics"]
                before.sees_face_down = sees
        try:
            result = await command.call(self.server.handler, actor, args)
        except Exception as exc:
            if subscribing:
                self.subscription = before
                if before is not None:
                    before.topics = old_topics
                    before.sees_face_down = old_sees
            if isinstance(exc, CommandError):
                raise Refusal(exc.code, exc.message) from None
            log.exception("local API: %s: %s failed", actor, command.name)
            raise Refusal(ErrorCode.INTERNAL, "internal error; see the daemon's log") from None
        if command.name in ("status", "subscribe") and actor.role is None and isinstance(result, Mapping):
            # The round's cards stay face down for a peer with no role, as in the notifications.
            return for_no_role_state(result)
        return result

    async def _pump_notifications(self, subscription: Subscription) -> None:
        while not self._closed:
            await subscription.wake.wait()
            subscription.wake.clear()
            lines = list(subscription.pending)
            subscription.pending.clear()
            dropped, subscription.dropped = subscription.dropped, 0
            for line in lines:
                await self._write(line)
            if dropped:
                await self._write(encode({"notify": "dropped", "data": {"count": dropped}}))


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
