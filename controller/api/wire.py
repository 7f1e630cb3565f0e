"""The wire: one JSON request a line, one response a line, and lines read without holding a
long one whole (docs/local-api.md, "Framing").
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from controller.rules.core.dispatch import did_you_mean

from .commands import COMMANDS, REQUIRED, ArgError, Command, show
from .handler import ErrorCode

_READ_CHUNK: Final = 65536
_MAX_ID_CHARS: Final = 128
_ENVELOPE_KEYS: Final = ("id", "cmd", "args", "auth")
MAX_QUOTED_KEY: Final = 40
"""An unknown key is quoted in an error up to this many characters (a key may be megabytes)."""


def quoted(key: str) -> str:
    """``key`` as an error quotes it: ``repr``, cut to :data:`MAX_QUOTED_KEY` characters."""
    if len(key) <= MAX_QUOTED_KEY:
        return repr(key)
    return f"{key[:MAX_QUOTED_KEY]!r}... ({len(key)} characters)"


def shown_key(key: str) -> str:
    """An argument's name as an error shows it (``args.NAME``), cut like :func:`quoted`."""
    if len(key) <= MAX_QUOTED_KEY:
        return key
    return f"{key[:MAX_QUOTED_KEY]!r}... ({len(key)} characters)"


# --- the wire ------------------------------------------------------------------------------------


class Refusal(Exception):
    def __init__(self, code: ErrorCode | str, message: str, began_lockout: bool = False) -> None:
        super().__init__(message)
        self.code = str(code)
        self.message = message
        self.began_lockout = began_lockout
        """A wrong PIN that locked the name: journaled at once, where other wrong PINs are counted."""


@dataclass(frozen=True, slots=True)
class Credentials:
    user: str
    pin: str

    def __repr__(self) -> str:
        return f"Credentials(user={self.user!r}, pin=<hidden>)"


@dataclass(frozen=True)
class _Request:
    id: str | int | None
    cmd: str
    args: Mapping[str, Any]
    auth: Credentials | None


def request_id(obj: Mapping[str, Any]) -> str | int | None:
    rid = obj.get("id")
    if rid is None or (isinstance(rid, int) and not isinstance(rid, bool)):
        return rid
    if isinstance(rid, str) and len(rid) <= _MAX_ID_CHARS:
        return rid
    return None


def parse_request(obj: object) -> _Request:
    """The request envelope, or a :class:`Refusal` that never repeats what ``auth`` held."""
    if not isinstance(obj, dict):
        raise Refusal(ErrorCode.BAD_REQUEST, 'a request is a JSON object: {"id": 1, "cmd": "status"}')
    problems = []
    for key in obj:
        if key not in _ENVELOPE_KEYS:
            problems.append(f"unknown key {quoted(key)}{did_you_mean(key, _ENVELOPE_KEYS)}")
    rid = obj.get("id")
    if request_id(obj) != rid:
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
            auth = Credentials(auth_raw["user"], auth_raw["pin"])
        else:
            # Said without the values: they may hold a PIN.
            problems.append('auth must be {"user": NAME, "pin": PIN}, both strings, and nothing else')
    if problems:
        raise Refusal(ErrorCode.BAD_REQUEST, "; ".join(problems))
    assert isinstance(cmd, str) and isinstance(args, dict)
    return _Request(rid, cmd, args, auth)


def parse_args(command: Command, args: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments checked and converted; every problem at once in one :class:`Refusal`."""
    known = [a.name for a in command.args]
    problems = [
        f"args.{shown_key(key)}: {command.name} has no such argument{did_you_mean(key, known)}"
        + (f" (arguments: {', '.join(known)})" if known else " (it takes none)")
        for key in args
        if key not in known
    ]
    out: dict[str, Any] = {}
    for arg in command.args:
        if arg.name not in args:
            if arg.default is REQUIRED:
                problems.append(f"args.{arg.name}: missing{f' ({arg.help})' if arg.help else ''}")
            else:
                out[arg.name] = arg.parse(arg.default)
            continue
        try:
            out[arg.name] = arg.parse(args[arg.name])
        except ArgError as exc:
            problems.append(f"args.{arg.name} {show(args[arg.name])}: {exc}")
    if problems:
        raise Refusal(ErrorCode.BAD_ARGS, "; ".join(problems))
    return out


class ReadTimeout(Exception):
    """A peer kept its connection without a request (idle), or left a line half sent."""


async def read_lines(
    reader: asyncio.StreamReader,
    limit: int,
    *,
    idle_seconds: Callable[[], float | None] = lambda: None,
    line_seconds: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> AsyncIterator[bytes | None]:
    """Lines from ``reader`` without their newline; ``None`` for a line longer than ``limit``.

    A line too long is discarded as it arrives, never held whole: memory stays under ``limit``
    plus one read. A last line without a newline still counts. :class:`ReadTimeout` when no byte
    comes for ``idle_seconds()`` (``None``: wait for ever, e.g. a subscriber) between lines, or a
    line begun is not finished within ``line_seconds`` of its first byte.
    """
    buf = bytearray()
    too_long = False
    line_began: float | None = None
    while True:
        if line_began is not None and line_seconds is not None:
            timeout: float | None = max(line_began + line_seconds - clock(), 0.0)
            what = f"a request line was begun and not finished within {line_seconds:g} s"
        else:
            timeout = idle_seconds()
            what = f"no request for {timeout:g} s" if timeout is not None else ""
        try:
            if timeout is None:
                chunk = await reader.read(_READ_CHUNK)
            else:
                chunk = await asyncio.wait_for(reader.read(_READ_CHUNK), timeout)
        except TimeoutError:
            raise ReadTimeout(what) from None
        if not chunk:
            break
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
        if buf or too_long:
            # A line's time runs from its first byte: dribbling a byte at a time does not reset it.
            if line_began is None or pos > 0:
                line_began = clock()
        else:
            line_began = None
    if too_long:
        yield None
    elif buf:
        yield bytes(buf)


def encode(obj: Mapping[str, Any]) -> bytes:
    return json.dumps(obj, separators=(",", ":"), allow_nan=False).encode("ascii") + b"\n"


def error_line(rid: str | int | None, code: str, message: str) -> bytes:
    return encode({"id": rid, "ok": False, "error": {"code": code, "message": message}})
