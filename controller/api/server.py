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
with its :class:`Caller` (role, user, and the peer's uid, gid and pid), refused ones included
(:meth:`ApiHandler.command_refused`), so the daemon journals them all.

Nothing here blocks the loop: the PIN check runs in a thread; a client that does not read its
notifications loses them (it is told how many), never slows the daemon. A bad line gets an error
and the connection goes on; a line longer than the limit is discarded unread. A PIN is never
logged, never repeated in a response, never given to the handler.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import grp
import logging
import os
import pwd
import socket
import stat
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from ..auth import Authenticator, Role
from ..config import ApiSection
from .connection import DEALER_SLOT, GENERAL, TECH_SLOT, Connection
from .face_down import for_no_role
from .handler import TOPICS, ApiHandler, ApiStartError, Caller, ErrorCode
from .limits import JOURNALED_REFUSALS_BURST, JOURNALED_REFUSALS_PER_SECOND, RateLimiter, RefusalTally
from .wire import encode, error_line

log = logging.getLogger(__name__)


DEFAULT_MAX_LINE_BYTES: Final = 65536
DEFAULT_MAX_CLIENTS: Final = 32
# Notifications waiting for one slow subscriber; past this they are dropped and counted.
DEFAULT_SUBSCRIBER_QUEUE: Final = 1000
#: On close, how long a request being served may take to be answered before it is cut off.
DEFAULT_CLOSE_GRACE: Final = 2.0
#: A connection with no subscription and no request for this long is closed.
DEFAULT_IDLE_SECONDS: Final = 60.0
#: A request line begun must be finished within this many seconds of its first byte.
DEFAULT_LINE_SECONDS: Final = 5.0
#: Connections kept past ``max_clients`` for the dealer's screen, and for a technician.
DEFAULT_DEALER_SLOTS: Final = 2
DEFAULT_TECH_SLOTS: Final = 2
#: Requests a second per peer (its uid), in bursts of twice that.
DEFAULT_REQUESTS_PER_SECOND: Final = 50
#: The same for the dealer's screen (its Unix user): a person's taps and the screen's own reads.
DEFAULT_DEALER_REQUESTS_PER_SECOND: Final = 200
#: How often the refusals counted (not journaled one by one) are logged, and wrong PINs journaled.
DEFAULT_TALLY_SECONDS: Final = 60.0
SOCKET_MODE: Final = 0o660
DIRECTORY_MODE: Final = 0o750


# --- the server ----------------------------------------------------------------------------------


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
        tech_uids: Iterable[int] = (0,),
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        max_clients: int = DEFAULT_MAX_CLIENTS,
        subscriber_queue: int = DEFAULT_SUBSCRIBER_QUEUE,
        close_grace: float = DEFAULT_CLOSE_GRACE,
        idle_seconds: float = DEFAULT_IDLE_SECONDS,
        line_seconds: float = DEFAULT_LINE_SECONDS,
        dealer_slots: int = DEFAULT_DEALER_SLOTS,
        tech_slots: int = DEFAULT_TECH_SLOTS,
        requests_per_second: float = DEFAULT_REQUESTS_PER_SECOND,
        dealer_requests_per_second: float = DEFAULT_DEALER_REQUESTS_PER_SECOND,
        tally_seconds: float = DEFAULT_TALLY_SECONDS,
    ) -> None:
        self.handler = handler
        self.socket_path = socket_path
        self.group = group
        self.authenticator = authenticator
        self.dealer_uids = frozenset(dealer_uids)
        #: Whose peers may take a technician's reserved slot (``SO_PEERCRED``): root, as
        #: ``sudo tablectl`` runs; a peer of any other user waits for a general slot.
        self.tech_uids = frozenset(tech_uids)
        self.max_line_bytes = max_line_bytes
        self.max_clients = max_clients
        self.subscriber_queue = subscriber_queue
        self.close_grace = close_grace
        self.idle_seconds = idle_seconds
        self.line_seconds = line_seconds
        self.reserved = {DEALER_SLOT: dealer_slots, TECH_SLOT: tech_slots}
        self.limiter = RateLimiter(requests_per_second, max(1, round(2 * requests_per_second)))
        #: The dealer's screen's own bucket (a flood from it is limited as any peer's).
        self.dealer_limiter = RateLimiter(
            dealer_requests_per_second, max(1, round(2 * dealer_requests_per_second))
        )
        #: The refusals each peer may have journaled one by one; past them counted, the peer waits.
        self.journaled_refusals = RateLimiter(JOURNALED_REFUSALS_PER_SECOND, JOURNALED_REFUSALS_BURST)
        self.tally = RefusalTally()
        self.tally_seconds = tally_seconds
        self._tally_task: asyncio.Task[None] | None = None
        self._server: asyncio.AbstractServer | None = None
        self._socket_id: tuple[int, int] | None = None
        self._connections: set[Connection] = set()
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
        self._tally_task = asyncio.create_task(self._tally_every_interval())
        log.info("local API listening on %s (group %s)", self.socket_path, self.group)

    async def close(self) -> None:
        """Stop listening, close every connection, remove the socket file.

        A request being served is answered first (for up to ``close_grace`` seconds, then cut
        off); no new request is read. Connections end as if the clients had hung up, so the
        shutdown logs nothing at ERROR (Python 3.11's streams log a cancelled connection task as
        an "unhandled exception in client_connected_cb").
        """
        self._closing = True
        if self._tally_task is not None:
            self._tally_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._tally_task
            self._tally_task = None
            await self.flush_tally()
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
        line = encode({"notify": topic, "data": data})
        withheld: bytes | None = None
        for subscription in subscriptions:
            if subscription.sees_face_down:
                subscription.offer(topic, line)
                continue
            if withheld is None:
                # Face-down cards stay face down for a peer with no role (face_down.py).
                shown = for_no_role(topic, data)
                withheld = line if shown is data else encode({"notify": topic, "data": shown})
            subscription.offer(topic, withheld)

    async def flush_tally(self) -> None:
        """Log the refusals counted since the last flush, and journal them as counts: the wrong
        PINs, one record a peer an interval (``command_refused`` ``sign_in`` with ``auth_failed``
        and the count); the rest (a flood's ``rate_limited``, a peer with no role's refusals,
        the refusals past a peer's journaled ones), one record a peer an interval
        (``command_refused`` ``(counted)`` with ``rate_limited`` and the counts by code)."""
        report = self.tally.flush()
        if report is None:
            return
        log.warning("%s", report.log_line())
        for peer, role, codes in report.counted:
            counts = ", ".join(f"{n} {code}" for code, n in codes.items())
            try:
                await self.handler.command_refused(
                    Caller(peer, Role(role) if role is not None else None),
                    "(counted)",
                    ErrorCode.RATE_LIMITED,
                    f"{sum(codes.values())} request(s) from {peer} refused in the last "
                    f"{report.seconds:.0f} s, counted, not journaled one by one: {counts}",
                )
            except Exception:
                log.exception("local API: the handler failed to record the refusals' count")
        for peer, count in report.wrong_pins:
            try:
                await self.handler.command_refused(
                    Caller(peer, None),
                    "sign_in",
                    ErrorCode.AUTH_FAILED,
                    f"{count} wrong sign-in(s) from {peer} in the last {report.seconds:.0f} s",
                )
            except Exception:
                log.exception("local API: the handler failed to record the wrong PINs' count")

    async def _tally_every_interval(self) -> None:
        while True:
            await asyncio.sleep(self.tally_seconds)
            await self.flush_tally()

    def _slot_for(self, connection: Connection) -> str | None:
        """The general slots first; past them the dealer's screen, then a technician, have their own,
        each only for a peer whose Unix user (``SO_PEERCRED``) fits: the dealer's user, root."""
        taken = Counter(c.slot for c in self._connections)
        if taken[GENERAL] < self.max_clients:
            return GENERAL
        uid = connection.peer.uid
        if uid in self.dealer_uids and taken[DEALER_SLOT] < self.reserved[DEALER_SLOT]:
            return DEALER_SLOT
        if uid in self.tech_uids and taken[TECH_SLOT] < self.reserved[TECH_SLOT]:
            return TECH_SLOT
        return None

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        connection = Connection(self, reader, writer)
        try:
            if self._closing:
                return  # accepted just as the server closed: hung up at once
            slot = self._slot_for(connection)
            if slot is None:
                self.tally.count(connection.peer, ErrorCode.BUSY)
                with contextlib.suppress(ConnectionError):
                    writer.write(
                        error_line(None, ErrorCode.BUSY, f"too many clients ({self.max_clients}); try later")
                    )
                    await writer.drain()
                return
            connection.slot = slot
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
        idle_seconds=api.idle_seconds,
        line_seconds=api.line_seconds,
        dealer_slots=api.dealer_slots,
        tech_slots=api.tech_slots,
        requests_per_second=api.requests_per_second,
        dealer_requests_per_second=api.dealer_requests_per_second,
    )
