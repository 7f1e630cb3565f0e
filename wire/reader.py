"""Strict reading of a JSON object: every key known, every field named in an error."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, Final, TypeVar

from .errors import WireError, shown
from .hints import did_you_mean

T = TypeVar("T")

MAX_MESSAGE_BYTES: Final = 16_384
"""The largest message the link reads (the shipped broker refuses a packet past 20 KiB,
``max_packet_size``): every message of the link is far smaller."""


def load(data: bytes | str, what: str, strict: bool = True) -> dict[str, Any]:
    """The JSON object in ``data`` (UTF-8), or :class:`WireError` saying why not.

    ``strict=False`` reads a number with a fraction (as a float) and ``NaN`` too: for reading a
    message's envelope alone, whatever its body holds (its body is then refused by the strict read).
    """
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise WireError("", f"{what}: {size} bytes, more than the link's {MAX_MESSAGE_BYTES}")
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        if strict:
            if text.startswith("\ufeff"):  # as json.loads refuses it
                raise ValueError("Unexpected UTF-8 BOM (decode using utf-8-sig)")
            value = _STRICT.decode(text)
        else:
            value = json.loads(text)
    except UnicodeDecodeError as exc:
        raise WireError("", f"{what}: not UTF-8 ({exc})") from None
    except ValueError as exc:
        raise WireError("", f"{what}: not JSON ({exc})") from None
    except RecursionError:
        raise WireError("", f"{what}: nested too deep to be one of the link's messages") from None
    if not isinstance(value, dict):
        raise WireError("", f"{what}: a JSON object is expected, not {type(value).__name__}")
    return value


def _no_float(text: str) -> object:
    # Money and shares are decimal strings; a JSON number with a point would be read as a float.
    raise ValueError(f"the number {text} has a fraction: amounts and percents are decimal strings")


def _no_constant(text: str) -> object:
    raise ValueError(f"{text} is not a number")


_STRICT: Final = json.JSONDecoder(parse_float=_no_float, parse_constant=_no_constant)
"""Made once: ``json.loads`` with these arguments builds a decoder for every message."""


def dumps(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


class Obj:
    """A JSON object being read: :meth:`get` each field, then :meth:`done` refuses the rest."""

    def __init__(self, value: object, path: str) -> None:
        if not isinstance(value, dict):
            raise WireError(path, f"a JSON object is expected, not {shown(value)}")
        self.value: dict[str, Any] = value
        self.path = path
        self._seen: set[str] = set()

    def field(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str, read: Callable[[object, str], T]) -> T:
        self._seen.add(key)
        if key not in self.value:
            raise WireError(self.field(key), "missing")
        return read(self.value[key], self.field(key))

    def optional(self, key: str, read: Callable[[object, str], T]) -> T | None:
        self._seen.add(key)
        raw = self.value.get(key)
        return None if raw is None else read(raw, self.field(key))

    def obj(self, key: str) -> Obj:
        self._seen.add(key)
        if key not in self.value:
            raise WireError(self.field(key), "missing")
        return Obj(self.value[key], self.field(key))

    def done(self, also_known: Iterable[str] = ()) -> None:
        known = self._seen | set(also_known)
        for key in self.value:
            if key not in known:
                raise WireError(self.field(key), f"unknown field{did_you_mean(key, known, show=shown)}")


def exactly(expected: object) -> Callable[[object, str], object]:
    def read(value: object, field: str) -> object:
        if value != expected or isinstance(value, bool) != isinstance(expected, bool):
            raise WireError(field, f"{shown(value)} is not {shown(expected)}")
        return value

    return read


def one_of(choices: tuple[str, ...]) -> Callable[[object, str], str]:
    def read(value: object, field: str) -> str:
        if not isinstance(value, str) or value not in choices:
            hint = did_you_mean(value, choices, show=shown)
            raise WireError(field, f"{shown(value)} is not one of {', '.join(choices)}{hint}")
        return value

    return read


def boolean(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise WireError(field, f"{shown(value)} is not true or false")
    return value


def string(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise WireError(field, f"{shown(value)} is not a string")
    return value
