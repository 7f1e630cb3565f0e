"""What a serial device reports: its state, faults, lost frames, status; typed events.

Every driver (:mod:`hw.shoe`, :mod:`hw.shuffler`, :mod:`hw.hole_card_reader`) reports through
``on_event`` (:data:`EventCallback`) a :class:`DeviceEvent` whose ``device`` is its configured name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

ONLINE: Final = "online"
OFFLINE: Final = "offline"
FAULT: Final = "fault"
DEVICE_STATES: Final = (ONLINE, OFFLINE, FAULT)

#: ``STS`` states a device reports.
STATUS_READY: Final = "ready"
STATUS_FAULT: Final = "fault"


# -- events ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeviceEvent:
    """Something a serial device reported; ``device`` is its configured name (``"shoe"``)."""

    device: str


@dataclass(frozen=True, slots=True)
class DeviceState(DeviceEvent):
    """The device went ``online``, ``offline`` or into ``fault``; ``reason`` in words."""

    state: str
    reason: str


@dataclass(frozen=True, slots=True)
class DeviceFault(DeviceEvent):
    """The device reported a fault (``FLT``): ``kind`` such as ``jam``, ``stopped``, ``failed_to_deal``.

    Mid-round it is an irregularity of the game being dealt (``shoe_jam``, ``shuffler_jam``...,
    see ``docs/serial-protocols.md``); the daemon decides which, the driver only reports it.
    """

    kind: str
    detail: str
    seq: int


@dataclass(frozen=True, slots=True)
class FaultsCoalesced(DeviceEvent):
    """A fault storm: ``count`` more faults of ``kind`` from the device after the first one (which
    was reported on its own), the first of them at ``first_at`` and the last at ``last_at``
    (``time.time()`` seconds). One for each interval a storm lasts, however fast it faults."""

    kind: str
    count: int
    first_at: float
    last_at: float


@dataclass(frozen=True, slots=True)
class FramesLost(DeviceEvent):
    """The device's sequence number skipped from ``expected`` to ``got``: frames were lost
    (or the device restarted, which also starts it again at 0)."""

    expected: int
    got: int


@dataclass(frozen=True, slots=True)
class DeviceStatus(DeviceEvent):
    """A status answer (``STS``); returned by :meth:`SerialDevice.request_status`."""

    state: str
    model: str
    firmware: str
    seq: int
    tag: int


EventCallback = Callable[[DeviceEvent], object]
