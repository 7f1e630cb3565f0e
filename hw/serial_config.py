"""A serial device's configuration: its port, speed, timeouts and reconnect backoff."""

from __future__ import annotations

import random
from dataclasses import dataclass

import serial  # type: ignore[import-untyped]  # pyserial ships no types; types-pyserial is not a dependency

from .serial_protocol import (
    TABLE_V1,
    codec_named,
)

# -- configuration -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Backoff:
    """Reconnect delays: ``initial * factor**attempt`` capped at ``maximum``, then less a random
    fraction up to ``jitter`` so that devices on one Pi do not retry in step."""

    initial: float = 0.1
    maximum: float = 5.0
    factor: float = 2.0
    jitter: float = 0.2

    def delay(self, attempt: int, rng: random.Random) -> float:
        base = min(self.maximum, self.initial * self.factor ** min(attempt, 64))
        return base * (1.0 - self.jitter * rng.random())


@dataclass(frozen=True, slots=True)
class SerialDeviceConfig:
    """One device's section of the daemon's config (``[serial.shoe]`` and so on)."""

    port: str
    baudrate: int = 115200
    protocol: str = TABLE_V1
    reconnect_initial: float = 0.1
    reconnect_max: float = 5.0
    reconnect_jitter: float = 0.2
    heartbeat_timeout: float = 3.0
    request_timeout: float = 1.0

    @property
    def backoff(self) -> Backoff:
        return Backoff(self.reconnect_initial, self.reconnect_max, 2.0, self.reconnect_jitter)

    def problems(self, section: str) -> list[str]:
        """Every error at once, each naming the section and the option."""
        out: list[str] = []
        if not self.port:
            out.append(f"[{section}] port: give the device's path, e.g. /dev/table-shoe")
        if self.baudrate not in serial.Serial.BAUDRATES:
            out.append(f"[{section}] baudrate {self.baudrate}: not a standard rate (e.g. 9600, 115200)")
        try:
            codec_named(self.protocol)
        except KeyError as exc:
            out.append(f"[{section}] protocol: {exc.args[0]}")
        if not 0 < self.reconnect_initial <= self.reconnect_max:
            out.append(
                f"[{section}] reconnect_initial {self.reconnect_initial} must be above 0 and at most "
                f"reconnect_max {self.reconnect_max}"
            )
        if self.reconnect_max > 300:
            out.append(f"[{section}] reconnect_max {self.reconnect_max}: at most 300 seconds")
        if not 0 <= self.reconnect_jitter < 1:
            out.append(f"[{section}] reconnect_jitter {self.reconnect_jitter}: a fraction from 0 to below 1")
        if self.heartbeat_timeout <= 0:
            out.append(f"[{section}] heartbeat_timeout {self.heartbeat_timeout}: must be above 0 seconds")
        if self.request_timeout <= 0:
            out.append(f"[{section}] request_timeout {self.request_timeout}: must be above 0 seconds")
        return out
