"""The table's pin map: which GPIO does what, read from the daemon's ``[gpio]`` table.

::

    [gpio]
    lock_out = 17               # the dealer's lock-out button (BCM number)
    floorperson_light = 27      # the call-floorperson light
    debounce_ms = 20            # optional; 0-250
    lock_out_pull = "up"        # optional; "up", "down" or "none"
    lock_out_active = "low"     # optional; the level that means pressed: "low" or "high"
    sensor_pull = "up"          # optional; the same, for every seat's wager sensor
    sensor_active = "low"       # optional; the level that means a chip is on the device
    lamp_active = "high"        # optional; the level that lights a lamp
    blink_ms = 250              # optional; a blinking lamp's on time and off time, 50-5000

    [gpio.seats.1]
    sensor = 5                  # the progressive wagering device (§ 639a.2(c)(1))
    wager_lamp = 6              # lit while the seat's progressive wager is accepted
    won_lamp = 13               # lit for a progressive payout (§ 639a.8(c)(5)(ii))

    [gpio.seats.2]              # a game that offers several progressives (Blackjack's
    won_lamp = 12               # Bad Beat, Hit and Run, Straight Jack): one device each
    progressives.bad_beat = { sensor = 19, wager_lamp = 26 }
    progressives.hit_and_run = { sensor = 20, wager_lamp = 21 }

A seat's ``sensor`` and ``wager_lamp`` are the device of the game's one progressive; its
``progressives.NAME`` tables are one device each for the progressive named ``NAME`` (the
wager's name in the Rules Submission: which names the game offers is the daemon's to check,
``controller/table/sensors.py``). Every seat has at least one device.
:func:`load_pin_map` checks the whole table and raises :class:`PinMapError`
listing *every* problem at once, each naming its key (``gpio.seats.3.sensor: pin
17 is already used by gpio.lock_out``), with a "did you mean" for an unknown key
(``wire.hints``, the one helper every part shares). It is the same manner as the Rules
Submission loader (``controller/rules/core/options.py``), written again here because ``hw/``
imports nothing of the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Final, Literal, TypeVar

from wire.hints import did_you_mean

Pull = Literal["up", "down", "none"]
Level = Literal["low", "high"]

PULLS: Final[tuple[Pull, ...]] = ("up", "down", "none")
LEVELS: Final[tuple[Level, ...]] = ("low", "high")

#: BCM numbers of the GPIOs on the Raspberry Pi's 40-pin header.
FIRST_GPIO: Final = 0
LAST_GPIO: Final = 27
#: GPIO 2 and 3 (I2C SDA and SCL) have fixed 1.8 kΩ pull-ups on the board: no other pull works.
FIXED_PULL_UP: Final[Mapping[int, str]] = {2: "I2C SDA", 3: "I2C SCL"}
#: Seat numbers, from the dealer's far left (seat 1). A poker room table seats ten.
MAX_SEATS: Final = 10
MAX_DEBOUNCE_MS: Final = 250
BLINK_MS_RANGE: Final = (50, 5000)

DEFAULT_DEBOUNCE_MS: Final = 20
DEFAULT_BLINK_MS: Final = 250

SEAT_PINS: Final = ("sensor", "wager_lamp", "won_lamp")
SEAT_KEYS: Final = (*SEAT_PINS, "progressives")
DEVICE_PINS: Final = ("sensor", "wager_lamp")
SINGLE: Final = ""
"""The name of a seat's device for the game's one progressive (its ``sensor`` and ``wager_lamp``)."""
#: A progressive's name in ``progressives.NAME``: as the Rules Submission names its wager.
_NAME_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")
_REQUIRED_PINS: Final = ("lock_out", "floorperson_light")
_SETTINGS: Final = (
    "debounce_ms",
    "lock_out_pull",
    "lock_out_active",
    "sensor_pull",
    "sensor_active",
    "lamp_active",
    "blink_ms",
)
TOP_KEYS: Final = (*_REQUIRED_PINS, "seats", *_SETTINGS)

_WHAT: Final[Mapping[str, str]] = {
    "lock_out": "the dealer's lock-out button (§ 639a.2(c)(2), § 633a.2(c), (d)(2))",
    "floorperson_light": "the call-floorperson light",
    "sensor": "the seat's progressive wagering device (§ 639a.2(c)(1), § 633a.2(d)(1)); a seat with one "
    "device per progressive gives progressives.NAME tables instead",
    "wager_lamp": "the seat's wager-accepted lamp",
    "won_lamp": "the seat's progressive-won lamp (§ 639a.8(c)(5)(ii))",
}


class PinMapError(ValueError):
    """Every problem found in a pin map, one line each."""

    def __init__(self, where: str, problems: Iterable[str]) -> None:
        self.where = where
        self.problems = tuple(problems)
        super().__init__(self.__str__())

    def __str__(self) -> str:
        n = len(self.problems)
        head = f"{self.where}: {n} problem{'s' if n != 1 else ''}"
        return head + "".join(f"\n  - {p}" for p in self.problems)


@dataclass(frozen=True, slots=True)
class DevicePins:
    """One progressive wagering device at a seat: its sensor and its wager-accepted lamp."""

    name: str
    """The progressive it counts (``progressives.NAME``), or :data:`SINGLE` for the seat's
    ``sensor``/``wager_lamp``: the game's one progressive."""
    sensor: int
    wager_lamp: int


@dataclass(frozen=True, slots=True)
class SeatPins:
    """The pins of one betting position's progressive wagering devices and its lamps."""

    seat: int
    sensor: int | None
    """The game's one progressive's device (``None``: the seat has only named ones)."""
    wager_lamp: int | None
    won_lamp: int
    progressives: tuple[DevicePins, ...] = ()
    """One device per progressive, where the game offers more than one."""

    @property
    def devices(self) -> tuple[DevicePins, ...]:
        """Every wagering device of the seat: the single one first, then the named ones."""
        single = (
            (DevicePins(SINGLE, self.sensor, self.wager_lamp),)
            if self.sensor is not None and self.wager_lamp is not None
            else ()
        )
        return (*single, *self.progressives)


@dataclass(frozen=True, slots=True)
class PinMap:
    """A checked pin map (BCM numbers). Build it with :func:`load_pin_map` from a config table."""

    lock_out: int
    floorperson_light: int
    seats: tuple[SeatPins, ...]
    debounce_ms: int = DEFAULT_DEBOUNCE_MS
    lock_out_pull: Pull = "up"
    lock_out_active: Level = "low"
    sensor_pull: Pull = "up"
    sensor_active: Level = "low"
    lamp_active: Level = "high"
    blink_ms: int = DEFAULT_BLINK_MS

    def uses(self, where: str = "gpio") -> Iterator[tuple[str, int]]:
        """``(key, pin)`` for every pin, in the order of the file (for ``tablectl`` and the logs)."""
        yield _key(where, "lock_out"), self.lock_out
        yield _key(where, "floorperson_light"), self.floorperson_light
        for s in self.seats:
            for d in s.devices:
                for name in DEVICE_PINS:
                    yield device_key(s.seat, d.name, name, where), getattr(d, name)
            yield _key(where, "seats", str(s.seat), "won_lamp"), s.won_lamp


def device_key(seat: int, name: str, pin: str, where: str = "gpio") -> str:
    """The key of a device's ``pin`` (``sensor``, ``wager_lamp``): ``gpio.seats.1.sensor`` for
    the single device, ``gpio.seats.1.progressives.bad_beat.sensor`` for a named one."""
    if name == SINGLE:
        return _key(where, "seats", str(seat), pin)
    return _key(where, "seats", str(seat), "progressives", name, pin)


def load_pin_map(raw: Mapping[str, object], where: str = "gpio") -> PinMap:
    """The :class:`PinMap` of a ``[gpio]`` table; :class:`PinMapError` lists every problem.

    ``where`` prefixes every key in the messages; ``""`` leaves them bare, for a caller that
    names the section itself (``[gpio] seats.3.sensor: ...``).
    """
    problems, pin_map = _read(raw, where)
    if problems or pin_map is None:
        raise PinMapError(where or "gpio", problems)
    return pin_map


def check_pin_map(raw: Mapping[str, object], where: str = "gpio") -> list[str]:
    """Every problem of a ``[gpio]`` table, one line each naming its key; empty if it is good."""
    return _read(raw, where)[0]


# --- reading ---------------------------------------------------------------------------------


def _read(raw: Mapping[str, object], where: str) -> tuple[list[str], PinMap | None]:
    if not isinstance(raw, Mapping):
        return [f"{where or 'gpio'}: must be a table of pins, not {raw!r}"], None
    r = _Reader(where)
    r.unknown_keys(raw, TOP_KEYS, where)
    debounce_ms = r.number(raw, "debounce_ms", DEFAULT_DEBOUNCE_MS, 0, MAX_DEBOUNCE_MS)
    blink_ms = r.number(raw, "blink_ms", DEFAULT_BLINK_MS, *BLINK_MS_RANGE)
    lock_out_pull = r.choice(raw, "lock_out_pull", _PULL, "up")
    lock_out_active = r.choice(raw, "lock_out_active", _LEVEL, "low")
    sensor_pull = r.choice(raw, "sensor_pull", _PULL, "up")
    sensor_active = r.choice(raw, "sensor_active", _LEVEL, "low")
    lamp_active = r.choice(raw, "lamp_active", _LEVEL, "high")

    lock_out = r.pin(raw, where, "lock_out", lock_out_pull)
    floorperson_light = r.pin(raw, where, "floorperson_light", None)
    seats = r.seats(raw, sensor_pull)

    if r.problems or lock_out is None or floorperson_light is None:
        return r.problems, None
    return r.problems, PinMap(
        lock_out=lock_out,
        floorperson_light=floorperson_light,
        seats=seats,
        debounce_ms=debounce_ms,
        lock_out_pull=lock_out_pull,
        lock_out_active=lock_out_active,
        sensor_pull=sensor_pull,
        sensor_active=sensor_active,
        lamp_active=lamp_active,
        blink_ms=blink_ms,
    )


# The typed value of each word (a lookup keeps the Literal types without casts).
_PULL: Final[Mapping[str, Pull]] = {p: p for p in PULLS}
_LEVEL: Final[Mapping[str, Level]] = {v: v for v in LEVELS}

T = TypeVar("T")


class _Reader:
    """Reads one ``[gpio]`` table, collecting every problem and who owns each pin."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.problems: list[str] = []
        self.owner: dict[int, str] = {}

    def unknown_keys(self, table: Mapping[str, object], known: tuple[str, ...], prefix: str) -> None:
        for k in table:
            if k not in known:
                hint = did_you_mean(k, known, show=lambda name: _key(prefix, name))
                hint = hint or f" (known: {', '.join(known)})"
                self.problems.append(f"{_key(prefix, str(k))}: unknown key{hint}")

    def number(self, raw: Mapping[str, object], name: str, default: int, low: int, high: int) -> int:
        if name not in raw:
            return default
        v = raw[name]
        key = _key(self.where, name)
        if isinstance(v, bool) or not isinstance(v, int):
            self.problems.append(f"{key} {v!r}: must be a whole number of milliseconds")
        elif not low <= v <= high:
            self.problems.append(f"{key} {v}: must be from {low} to {high} ms")
        else:
            return v
        return default

    def choice(self, raw: Mapping[str, object], name: str, allowed: Mapping[str, T], default: T) -> T:
        if name not in raw:
            return default
        v = raw[name]
        if isinstance(v, str) and v in allowed:
            return allowed[v]
        hint = did_you_mean(v, list(allowed), 0.5)
        words = ", ".join(map(repr, allowed))
        self.problems.append(f"{_key(self.where, name)} {v!r}: must be one of {words}{hint}")
        return default

    def pin(self, table: Mapping[str, object], prefix: str, name: str, pull: Pull | None) -> int | None:
        """The pin at ``prefix.name``; ``pull`` is an input's pull (``None`` for a lamp)."""
        key = _key(prefix, name)
        if name not in table:
            self.problems.append(f"{key}: missing; the BCM GPIO number of {_WHAT[name]}")
            return None
        raw = table[name]
        if isinstance(raw, bool) or not isinstance(raw, int):
            self.problems.append(f"{key} {raw!r}: write the BCM GPIO number as a whole number such as 17")
            return None
        if not FIRST_GPIO <= raw <= LAST_GPIO:
            self.problems.append(
                f"{key} {raw}: not a GPIO of the 40-pin header (BCM {FIRST_GPIO} to {LAST_GPIO})"
            )
            return None
        if raw in self.owner:
            self.problems.append(f"{key}: pin {raw} is already used by {self.owner[raw]}")
            return None
        self.owner[raw] = key
        if pull is not None and pull != "up" and raw in FIXED_PULL_UP:
            self.problems.append(
                f"{key}: pin {raw} ({FIXED_PULL_UP[raw]}) has a fixed pull-up on the board, so pull "
                f'{pull!r} cannot work; set the pull to "up" or choose another pin'
            )
        return raw

    def seats(self, raw: Mapping[str, object], sensor_pull: Pull) -> tuple[SeatPins, ...]:
        key = _key(self.where, "seats")
        table = raw.get("seats")
        if table is None:
            self.problems.append(f"{key}: missing; give each betting position a table {key}.1, {key}.2, ...")
            return ()
        if not isinstance(table, Mapping) or not table:
            self.problems.append(f"{key}: must be a table of seats such as {key}.1, not {table!r}")
            return ()
        numbered: list[tuple[int, str, object]] = []
        for name, pins in table.items():
            seat = _seat_number(name)
            if seat is None:
                self.problems.append(
                    f"{key}.{name}: a seat is numbered 1 to {MAX_SEATS} from the dealer's far left"
                )
            else:
                numbered.append((seat, str(name), pins))
        out: list[SeatPins] = []
        for seat, name, pins in sorted(numbered, key=lambda t: t[0]):
            seat_key = f"{key}.{name}"
            if not isinstance(pins, Mapping):
                self.problems.append(f"{seat_key}: must be a table with {', '.join(SEAT_PINS)}, not {pins!r}")
                continue
            self.unknown_keys(pins, SEAT_KEYS, seat_key)
            before = len(self.problems)
            named = self.named_devices(pins.get("progressives"), f"{seat_key}.progressives", sensor_pull)
            sensor = wager_lamp = None
            if "sensor" in pins or "wager_lamp" in pins or "progressives" not in pins:
                # Today's keys: the device of the game's one progressive (both, or neither
                # where the seat's devices are all named).
                sensor = self.pin(pins, seat_key, "sensor", sensor_pull)
                wager_lamp = self.pin(pins, seat_key, "wager_lamp", None)
            won_lamp = self.pin(pins, seat_key, "won_lamp", None)
            if len(self.problems) == before and won_lamp is not None:
                out.append(SeatPins(seat, sensor, wager_lamp, won_lamp, named))
        return tuple(out)

    def named_devices(self, table: object, key: str, sensor_pull: Pull) -> tuple[DevicePins, ...]:
        """``progressives.NAME = { sensor = .., wager_lamp = .. }``: one device per progressive."""
        if table is None:
            return ()
        if not isinstance(table, Mapping) or not table:
            self.problems.append(
                f"{key}: must be a table of progressives such as {key}.bad_beat = "
                f"{{ sensor = 5, wager_lamp = 6 }}, not {table!r}"
            )
            return ()
        out: list[DevicePins] = []
        for name, pins in table.items():
            name_key = f"{key}.{name}"
            if not (isinstance(name, str) and name and set(name) <= _NAME_CHARS):
                self.problems.append(
                    f"{name_key}: a progressive is named as its wager in the Rules Submission "
                    "(lower-case letters, digits, _), such as bad_beat"
                )
                continue
            if not isinstance(pins, Mapping):
                self.problems.append(f"{name_key}: must be a table with sensor and wager_lamp, not {pins!r}")
                continue
            self.unknown_keys(pins, DEVICE_PINS, name_key)
            sensor = self.pin(pins, name_key, "sensor", sensor_pull)
            wager_lamp = self.pin(pins, name_key, "wager_lamp", None)
            if sensor is not None and wager_lamp is not None:
                out.append(DevicePins(name, sensor, wager_lamp))
        return tuple(out)


def _key(*parts: str) -> str:
    """A dotted key; an empty ``where`` leaves the section's own keys bare (``lock_out``)."""
    return ".".join(p for p in parts if p)


def _seat_number(name: object) -> int | None:
    """A seat's number from its key (TOML keys are strings: ``"3"``); ``None`` if it is not one."""
    if isinstance(name, bool):
        return None
    if isinstance(name, int):
        seat = name
    elif isinstance(name, str) and name.isascii() and name.isdigit() and name == str(int(name)):
        seat = int(name)
    else:
        return None
    return seat if 1 <= seat <= MAX_SEATS else None
