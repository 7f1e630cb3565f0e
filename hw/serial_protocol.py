"""The table's serial wire protocol ``table-v1``: framing, checksum, and the codec interface.

One frame, device to host or host to device (every message is listed in
``docs/serial-protocols.md``)::

    STX  TYPE | field | field ...  *  CRC  ETX  [LF]
    0x02 "CRD|17|As"               "*" "1F2E" 0x03 0x0A

- ``TYPE`` is three capital letters; fields are printable ASCII without ``|`` and ``*``;
- ``CRC`` is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor; the check
  value of ``b"123456789"`` is ``29B1``) of the bytes between STX and ``*``, four hex digits;
- bytes outside STX...ETX are noise (CR, LF, space and tab between frames are not counted);
- an STX inside a frame starts a new frame: the interrupted one is broken (``truncated``), so a
  decoder always resynchronises on the next frame, whatever garbage came before.

A :class:`Codec` turns bytes into :class:`Frame` objects and back. The drivers only see frames, so
a vendor's device with another framing plugs in as another codec that maps its wire onto the same
message types (:func:`register_codec`); the device modules then work unchanged.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass
from typing import Final, Protocol

from wire.hints import closest

STX: Final = 0x02
ETX: Final = 0x03
_STX_BYTE: Final = b"\x02"
_ETX_BYTE: Final = b"\x03"

#: The most bytes between STX and ETX; a longer frame is broken (``too_long``).
MAX_FRAME_BODY: Final = 240

#: Between frames: line ends and blanks a terminal or a vendor adds; not noise.
INTER_FRAME_BLANKS: Final = b"\r\n\t "

TABLE_V1: Final = "table-v1"

_TYPE_RE: Final = re.compile(r"[A-Z]{3}")
_FIELD_RE: Final = re.compile(r"[\x20-\x7e]*")
_HEX4_RE: Final = re.compile(rb"[0-9A-Fa-f]{4}")

#: Why a frame was refused; the keys of :attr:`SerialStats.broken`.
BROKEN_REASONS: Final = (
    "bad_checksum",  # the CRC does not match the body
    "malformed",  # no '*', no four hex digits, not ASCII, no valid TYPE
    "truncated",  # an STX came before the ETX
    "too_long",  # more than MAX_FRAME_BODY bytes without an ETX
    "unknown_type",  # a well-formed frame whose TYPE this device does not send
    "bad_field",  # a known TYPE with a wrong number of fields or a bad value
)


class FrameError(ValueError):
    """A frame that cannot be read; ``reason`` is one of :data:`BROKEN_REASONS`."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Frame:
    """One message: ``type`` (e.g. ``"CRD"``) and its fields, all text."""

    type: str
    fields: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not _TYPE_RE.fullmatch(self.type):
            raise ValueError(f"frame type {self.type!r}: three capital letters A-Z")
        for field in self.fields:
            if not _FIELD_RE.fullmatch(field) or "|" in field or "*" in field:
                raise ValueError(f"frame field {field!r}: printable ASCII without '|' or '*'")

    def __str__(self) -> str:
        return "|".join((self.type, *self.fields))


@dataclass(frozen=True, slots=True)
class BrokenFrame:
    """Bytes that looked like a frame and were refused; ``raw`` as received (for logs and sniff)."""

    reason: str
    detail: str
    raw: bytes


class Decoder(Protocol):
    """Incremental: bytes in as they arrive, whole frames and broken ones out, in wire order."""

    noise_bytes: int

    def feed(self, data: bytes) -> list[Frame | BrokenFrame]: ...


class Codec(Protocol):
    """A wire protocol: how frames look on the line. One decoder per connection."""

    @property
    def name(self) -> str: ...

    def new_decoder(self) -> Decoder: ...

    def encode(self, frame: Frame) -> bytes: ...


def crc16_ccitt(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of ``data`` (``binascii.crc_hqx`` with init 0xFFFF, C speed)."""
    return binascii.crc_hqx(data, 0xFFFF)


def encode_frame(frame: Frame) -> bytes:
    """The ``table-v1`` bytes of ``frame``: STX, body, ``*``, CRC, ETX, LF."""
    body = str(frame).encode("ascii")
    return b"\x02%s*%04X\x03\n" % (body, crc16_ccitt(body))


def parse_body(body: bytes) -> Frame:
    """The frame in the bytes between STX and ETX; :class:`FrameError` says why not."""
    star = body.rfind(b"*")
    if star < 0:
        raise FrameError("malformed", "no '*' before the checksum")
    payload, crc_text = body[:star], body[star + 1 :]
    if not _HEX4_RE.fullmatch(crc_text):
        raise FrameError("malformed", f"checksum {crc_text!r} is not four hex digits")
    expected = crc16_ccitt(payload)
    if int(crc_text, 16) != expected:
        raise FrameError("bad_checksum", f"checksum {crc_text.decode('ascii')} != {expected:04X}")
    try:
        text = payload.decode("ascii")
    except UnicodeDecodeError:
        raise FrameError("malformed", "not ASCII") from None
    type_, *fields = text.split("|")
    try:
        return Frame(type_, tuple(fields))
    except ValueError as exc:
        raise FrameError("malformed", str(exc)) from None


class TableV1Decoder:
    """The ``table-v1`` decoder; finds STX/ETX with ``bytes.find`` (no per-byte Python loop)."""

    __slots__ = ("_body", "_in_frame", "noise_bytes")

    def __init__(self) -> None:
        self._body = bytearray()
        self._in_frame = False
        self.noise_bytes = 0

    def _noise(self, chunk: bytes) -> None:
        if chunk:
            self.noise_bytes += len(chunk.translate(None, INTER_FRAME_BLANKS))

    def feed(self, data: bytes) -> list[Frame | BrokenFrame]:
        out: list[Frame | BrokenFrame] = []
        i, n = 0, len(data)
        while i < n:
            if not self._in_frame:
                start = data.find(_STX_BYTE, i)
                if start < 0:
                    self._noise(data[i:])
                    break
                self._noise(data[i:start])
                self._in_frame = True
                self._body.clear()
                i = start + 1
                continue
            end = data.find(_ETX_BYTE, i)
            restart = data.find(_STX_BYTE, i)
            if restart >= 0 and (end < 0 or restart < end):
                self._body += data[i:restart]
                out.append(BrokenFrame("truncated", "STX before ETX", b"\x02" + bytes(self._body)))
                self._body.clear()
                i = restart + 1
                continue
            stop = n if end < 0 else end
            self._body += data[i:stop]
            if len(self._body) > MAX_FRAME_BODY:
                # Drop the rest up to the next STX as noise: the next frame still gets through.
                raw = b"\x02" + bytes(self._body[:MAX_FRAME_BODY]) + b"..."
                out.append(BrokenFrame("too_long", f"over {MAX_FRAME_BODY} bytes without ETX", raw))
                self._in_frame = False
                self._body.clear()
                i = stop if end < 0 else end + 1
                continue
            if end < 0:
                break
            self._in_frame = False
            body = bytes(self._body)
            i = end + 1
            try:
                out.append(parse_body(body))
            except FrameError as exc:
                out.append(BrokenFrame(exc.reason, str(exc), b"\x02" + body + b"\x03"))
        return out


class TableV1Codec:
    """The project's own protocol (see the module docstring and ``docs/serial-protocols.md``)."""

    @property
    def name(self) -> str:
        return TABLE_V1

    def new_decoder(self) -> Decoder:
        return TableV1Decoder()

    def encode(self, frame: Frame) -> bytes:
        return encode_frame(frame)


_CODECS: dict[str, Codec] = {TABLE_V1: TableV1Codec()}


def register_codec(codec: Codec) -> None:
    """Make a vendor protocol available by name (config ``protocol = "<name>"``)."""
    if codec.name in _CODECS and _CODECS[codec.name] is not codec:
        raise ValueError(f"a serial protocol named {codec.name!r} is already registered")
    _CODECS[codec.name] = codec


def codec_named(name: str) -> Codec:
    """The protocol called ``name``; ``KeyError`` with a "did you mean" otherwise."""
    try:
        return _CODECS[name]
    except KeyError:
        close = closest(name, list(_CODECS))
        hint = "" if close is None else f" (did you mean {close!r}?)"
        known = ", ".join(sorted(_CODECS))
        raise KeyError(f"no serial protocol {name!r}{hint}; known: {known}") from None


# -- field values shared by the devices ------------------------------------------------------------

SEQ_MODULUS: Final = 65536
"""Device sequence numbers run 0..65535 and wrap; a device starts at 0 when it powers up."""

#: Card text as the rules core writes it (``controller.rules.core.cards``): rank ``2-9 T J Q K A`` then
#: suit ``c d h s``, or the joker ``JKR``. Repeated here because ``hw/`` imports nothing of the rules.
CARD_RE: Final = re.compile(r"[2-9TJQKA][cdhs]|JKR")


def parse_number(text: str, what: str, low: int, high: int) -> int:
    """A decimal field in ``low..high``; :class:`FrameError` (``bad_field``) otherwise."""
    if not text.isdigit() or not text.isascii() or len(text) > 6:
        raise FrameError("bad_field", f"{what} {text!r} is not a number")
    value = int(text)
    if not low <= value <= high:
        raise FrameError("bad_field", f"{what} {value} is outside {low}..{high}")
    return value


def parse_seq(text: str) -> int:
    return parse_number(text, "sequence number", 0, SEQ_MODULUS - 1)


def expect_fields(frame: Frame, names: tuple[str, ...]) -> None:
    """The frame carries exactly the fields ``names`` (by count); ``bad_field`` otherwise."""
    if len(frame.fields) != len(names):
        raise FrameError(
            "bad_field",
            f"{frame.type} has {len(names)} fields ({', '.join(names)}), not {len(frame.fields)}",
        )


def printable(raw: bytes, limit: int = 80) -> str:
    """``raw`` for a log line: control bytes escaped, cut at ``limit``."""
    text = raw[:limit].decode("ascii", "backslashreplace")
    text = "".join(c if " " <= c <= "~" else f"\\x{ord(c):02x}" for c in text)
    return text + ("..." if len(raw) > limit else "")
