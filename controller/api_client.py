"""The local API's client, for ``tablectl`` and the dealer's touchscreen (``docs/local-api.md``).

Asynchronous, for the touchscreen and ``tablectl watch``::

    async with await ApiClient.connect(Path("/run/table-controller/api.sock")) as api:
        status = await api.call("status")
        snapshot = await api.subscribe(["state", "event"])
        async for note in api.notifications():
            ...

and one blocking call for a ``tablectl`` command that asks once and exits::

    result = request(path, "recall_round", {"round": "r12"}, Credentials("mfloor", pin))

A refusal is an :class:`ApiError` with the server's code and message; a lost or refused
connection is an :class:`ApiConnectionError`. The PIN in :class:`Credentials` is never shown by
``repr`` and never logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import socket
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

# Responses can be long (a round record); the server bounds what it sends, this only bounds a runaway.
MAX_RESPONSE_BYTES: Final = 16 * 2**20
DEFAULT_TIMEOUT: Final = 10.0


@dataclass(frozen=True)
class Credentials:
    """A floorperson's or technician's user name and PIN for one request; ``repr`` hides the PIN."""

    user: str
    pin: str = field(repr=False)

    def to_json(self) -> dict[str, str]:
        return {"user": self.user, "pin": self.pin}


class ApiError(Exception):
    """The server refused a request: ``code`` (``forbidden``, ``auth_failed``, ...) and ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ApiConnectionError(ConnectionError):
    """No daemon on the socket, no permission to connect, or the connection was lost."""


@dataclass(frozen=True)
class Notification:
    """A notification after ``subscribe``: ``topic`` (``state``, ``event``, ..., ``dropped``), ``data``."""

    topic: str
    data: Mapping[str, Any]


def _line(rid: int, cmd: str, args: Mapping[str, Any] | None, auth: Credentials | None) -> bytes:
    request: dict[str, Any] = {"id": rid, "cmd": cmd, "args": dict(args or {})}
    if auth is not None:
        request["auth"] = auth.to_json()
    return json.dumps(request, separators=(",", ":")).encode("utf-8") + b"\n"


def _result(response: Mapping[str, Any]) -> Any:
    if response.get("ok") is True:
        return response.get("result")
    error = response.get("error")
    if isinstance(error, Mapping):
        raise ApiError(str(error.get("code")), str(error.get("message")))
    raise ApiError("bad_response", f"the daemon sent a response without ok/result/error: {response!r}")


def _connect_error(path: Path, exc: OSError) -> ApiConnectionError:
    if isinstance(exc, FileNotFoundError):
        return ApiConnectionError(f"{path}: no such socket (is table-controller running?)")
    if isinstance(exc, ConnectionRefusedError):
        return ApiConnectionError(f"{path}: connection refused (is table-controller running?)")
    if isinstance(exc, PermissionError):
        return ApiConnectionError(f"{path}: permission denied (is this user in the API's group?)")
    return ApiConnectionError(f"{path}: {exc.strerror or exc}")


class ApiClient:
    """One connection to the daemon; requests may overlap, responses are matched by id."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._ids = itertools.count(1)
        self._pending: OrderedDict[int, asyncio.Future[Mapping[str, Any]]] = OrderedDict()
        self._notes: asyncio.Queue[Notification | None] = asyncio.Queue()
        self._lost: ApiConnectionError | None = None
        self._reading = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, path: Path, timeout: float = DEFAULT_TIMEOUT) -> ApiClient:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_unix_connection(str(path), limit=MAX_RESPONSE_BYTES), timeout
            )
        except TimeoutError:
            raise ApiConnectionError(f"{path}: no answer in {timeout} s") from None
        except OSError as exc:
            raise _connect_error(path, exc) from None
        return cls(reader, writer)

    async def __aenter__(self) -> ApiClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        self._reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reading
        self._writer.close()
        with contextlib.suppress(ConnectionError):
            await self._writer.wait_closed()
        self._fail(ApiConnectionError("connection closed"))

    async def call(
        self,
        cmd: str,
        args: Mapping[str, Any] | None = None,
        auth: Credentials | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
    ) -> Any:
        """Send one request and wait for its result; :class:`ApiError` if the daemon refuses it."""
        if self._lost is not None:
            raise self._lost
        rid = next(self._ids)
        future: asyncio.Future[Mapping[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[rid] = future
        try:
            self._writer.write(_line(rid, cmd, args, auth))
            await self._writer.drain()
            response = await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise ApiError("timeout", f"no answer to {cmd} in {timeout} s") from None
        except ConnectionError as exc:
            raise ApiConnectionError(f"connection lost: {exc}") from None
        finally:
            self._pending.pop(rid, None)
        return _result(response)

    async def subscribe(
        self, topics: Iterable[str] | None = None, auth: Credentials | None = None
    ) -> Mapping[str, Any]:
        """Subscribe (all topics if ``topics`` is ``None``) and return the state now;
        then read :meth:`notifications`."""
        args = {} if topics is None else {"topics": list(topics)}
        result: Mapping[str, Any] = await self.call("subscribe", args, auth)
        return result

    async def notifications(self) -> AsyncIterator[Notification]:
        """The notifications as they come; ends when the connection does."""
        while (note := await self._notes.get()) is not None:
            yield note

    # Conveniences, one a command.
    async def status(self) -> Any:
        return await self.call("status")

    async def submit_event(
        self, event: Mapping[str, Any], auth: Credentials | None = None, idempotency_key: str | None = None
    ) -> Any:
        """``idempotency_key``: a retry with the same key is answered with the first result."""
        args: dict[str, Any] = {"event": dict(event)}
        if idempotency_key is not None:
            args["idempotency_key"] = idempotency_key
        return await self.call("submit_event", args, auth)

    async def settle_round(self, auth: Credentials | None = None) -> Any:
        """The dealer settles a round that waits only for the players' optional decisions (Asia
        Poker's surrender, § 659a.11(d)); ``{"round", "seq", "next_round"}``."""
        return await self.call("settle_round", {}, auth)

    async def verify_payout(
        self, seat: int, wager: str, round: str | None = None, auth: Credentials | None = None
    ) -> Any:
        """A floorperson verifies a flagged payout (§ 633a.7(o)(2)(ii)(B), § 639a.11(c)(5)(iii)): a
        ``verification`` event for the seat's wager, in ``round`` if more than one round waits.
        ``{"verified": {"round", "seat", "wager", "net"}, "seq", "pending": [...]}``."""
        event: dict[str, Any] = {"type": "verification", "seat": seat, "wager": wager}
        if round is not None:
            event["round"] = round
        return await self.submit_event(event, auth)

    async def floorpersons(self) -> list[str]:
        """The names of the floorpersons who may sign in (the dealer's screen's keys before the PIN)."""
        result = await self.call("floorpersons", {})
        names = result.get("floorpersons") if isinstance(result, dict) else None
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ApiError("bad_response", f"floorpersons: not a list of names: {result!r}")
        return names

    async def list_rounds(self, limit: int = 10, auth: Credentials | None = None) -> Any:
        return await self.call("list_rounds", {"limit": limit}, auth)

    async def recall_round(self, round_id: str, auth: Credentials | None = None) -> Any:
        return await self.call("recall_round", {"round": round_id}, auth)

    async def export_round(self, round_id: str, auth: Credentials | None = None) -> Any:
        return await self.call("export_round", {"round": round_id}, auth)

    async def toggle_lamp(self, lamp: str, on: bool, auth: Credentials | None = None) -> Any:
        return await self.call("toggle_lamp", {"lamp": lamp, "on": on}, auth)

    async def send_test_frame(self, device: str, frame: bytes, auth: Credentials | None = None) -> Any:
        return await self.call("send_test_frame", {"device": device, "frame": frame.hex(" ")}, auth)

    async def _read(self) -> None:
        try:
            while line := await self._reader.readline():
                try:
                    message = json.loads(line)
                except ValueError:
                    continue  # not from our daemon; nothing to match it to
                if not isinstance(message, dict):
                    continue
                if "notify" in message:
                    data = message.get("data")
                    self._notes.put_nowait(
                        Notification(str(message["notify"]), data if isinstance(data, Mapping) else {})
                    )
                    continue
                rid = message.get("id")
                # An error without an id (a line the daemon could not read, or "busy") answers the
                # oldest request: the daemon answers one connection's requests in order.
                if rid is None and self._pending:
                    rid = next(iter(self._pending))
                future = self._pending.get(rid) if isinstance(rid, int) else None
                if future is not None and not future.done():
                    future.set_result(message)
        except (ConnectionError, ValueError) as exc:
            self._fail(ApiConnectionError(f"connection lost: {exc}"))
        else:
            self._fail(ApiConnectionError("the daemon closed the connection"))

    def _fail(self, error: ApiConnectionError) -> None:
        if self._lost is None:
            self._lost = error
            self._notes.put_nowait(None)
        for future in self._pending.values():
            if not future.done():
                future.set_exception(error)


def request(
    path: Path,
    cmd: str,
    args: Mapping[str, Any] | None = None,
    auth: Credentials | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> Any:
    """One request over a new connection, blocking: for a ``tablectl`` command that asks once."""
    deadline = time.monotonic() + timeout
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        try:
            sock.connect(str(path))
            sock.sendall(_line(1, cmd, args, auth))
        except OSError as exc:
            raise _connect_error(path, exc) from None
        buf = bytearray()
        while True:
            while (nl := buf.find(b"\n")) < 0:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise ApiError("timeout", f"no answer to {cmd} in {timeout} s")
                sock.settimeout(remaining)
                try:
                    chunk = sock.recv(65536)
                except TimeoutError:
                    raise ApiError("timeout", f"no answer to {cmd} in {timeout} s") from None
                except OSError as exc:
                    raise ApiConnectionError(f"connection lost: {exc.strerror or exc}") from None
                if not chunk:
                    raise ApiConnectionError("the daemon closed the connection without answering")
                buf += chunk
                if len(buf) > MAX_RESPONSE_BYTES:
                    raise ApiConnectionError(f"a response longer than {MAX_RESPONSE_BYTES} bytes")
            line, buf = bytes(buf[:nl]), buf[nl + 1 :]
            try:
                message = json.loads(line)
            except ValueError:
                raise ApiConnectionError("the daemon's answer is not JSON") from None
            if isinstance(message, dict) and "notify" not in message:
                return _result(message)
    finally:
        sock.close()
