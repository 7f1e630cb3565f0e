"""gpiozero's MockFactory on a clock the test sets: edges at exact times, in ticks.

gpiozero's pin factories give each edge a *tick* (``Factory.ticks()``; ``MockPin`` takes
``time.monotonic()``); ours compare ticks only through ``ticks_diff``. Here the factory's
``ticks()`` and every mock pin's edges read :attr:`ClockedMockFactory.now`, so a test can put a
chip down exactly 1 ms before the lock-out's edge however loaded the machine is. The pins are
gpiozero's ``MockPin`` in every other way (``drive_low``, ``drive_high``, ``state``).
"""

from __future__ import annotations

from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin, PinState  # type: ignore[import-untyped]


class ClockedMockPin(MockPin):  # type: ignore[misc]
    """A ``MockPin`` whose edges happen at its factory's :attr:`~ClockedMockFactory.now`."""

    def _change_state(self, value: Any) -> bool:
        if self._state == value:  # type: ignore[has-type]
            return False
        t = self._factory.ticks()
        self._state = value
        self.states.append(PinState(t - self._last_change, value))  # type: ignore[has-type]
        self._last_change = t
        return True


class ClockedMockFactory(MockFactory):  # type: ignore[misc]
    """``MockFactory`` whose ticks are :attr:`now` (seconds), set by the test."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        super().__init__(pin_class=ClockedMockPin)

    def ticks(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now
