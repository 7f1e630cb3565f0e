"""The table's GPIO devices, in gpiozero's manner: one class per part, over a swappable pin factory.

- :class:`LockOutButton`: the dealer's "no more bets" button (§ 639a.2(c)(2), § 633a.2(c), (d)(2));
- :class:`WagerSensor`: a seat's progressive wagering device, active while a chip is on it
  (§ 639a.2(c)(1), § 633a.2(d)(1));
- :class:`Lamp`: a lamp that is off, steady, blinking or blinking slowly (wager accepted,
  progressive won, call-floorperson, progressive unavailable).

Each takes ``pin`` (a BCM number or a gpiozero pin name) and ``pin_factory``, passed through to
gpiozero as its own devices do: ``None`` is gpiozero's default factory (lgpio on a Pi), tests
give ``gpiozero.pins.mock.MockFactory()``. gpiozero reserves the pin; :meth:`close` releases it.

Inputs are debounced here (:mod:`hw.debounce`), not by the pin factory. Their handlers
(``when_pressed``, ``when_placed``, ...) are called in gpiozero's thread, or in the debounce
timer's, with the time our code saw the edge (``time.monotonic_ns()``): they must not block,
and should hand over to the asyncio loop with ``loop.call_soon_threadsafe`` (as
:class:`hw.gpio.ProgressiveTableGameSystem` does). A handler that raises is logged, never
propagated into gpiozero's thread.

gpiozero ships no type information, so its objects are held here as ``Any`` behind typed methods.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from enum import StrEnum
from types import TracebackType
from typing import Any, Final, Self

from gpiozero import DigitalOutputDevice, GPIODevice  # type: ignore[import-untyped]

from .debounce import Debouncer
from .pin_map import DEFAULT_BLINK_MS, DEFAULT_DEBOUNCE_MS

log = logging.getLogger(__name__)

Handler = Callable[[int], None]
"""An input's handler: called with the monotonic time of the edge in ns, in gpiozero's thread."""

EdgeHandler = Callable[[float, bool], None]
"""An input's raw-edge handler: every edge, bounce or not, with the pin factory's ticks and the
active level it brings (gpiozero's thread, before the debounced handlers of the same edge)."""

PinFactory = Any
"""A gpiozero pin factory (``gpiozero.pins.Factory``), or ``None`` for gpiozero's default."""

_PULL_WORD: Final = {True: "up", False: "down", None: "floating"}


class DebouncedInput:
    """A contact on one GPIO, debounced in our code, with handlers for its two edges.

    ``pull_up`` is gpiozero's: ``True`` pulls the pin up, ``False`` down, ``None`` leaves it
    floating. ``active_high`` says which level is active; ``None`` infers it from the pull
    as gpiozero does (pulled up: active low). Unlike gpiozero, an explicit ``active_high``
    goes with any pull, so a normally-closed button to ground (pulled up, active high) fits.
    """

    def __init__(
        self,
        pin: int | str,
        *,
        pull_up: bool | None = True,
        active_high: bool | None = None,
        debounce_ms: float = DEFAULT_DEBOUNCE_MS,
        pin_factory: PinFactory = None,
    ) -> None:
        if active_high is None:
            if pull_up is None:
                raise ValueError(f"pin {pin} floats: say which level is active (active_high)")
            active_high = not pull_up
        self._active_high = active_high
        self.debounce_ms: Final = debounce_ms
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._closed = False
        self.when_activated: Handler | None = None
        self.when_deactivated: Handler | None = None
        #: Every raw edge (for the lock-out's edge rule, :mod:`hw.lock_out_edge`).
        self.when_edge: EdgeHandler | None = None
        self._device: Any = GPIODevice(pin, pin_factory=pin_factory)
        try:
            p = self._device.pin
            p.function = "input"
            pull = _PULL_WORD[pull_up]
            if p.pull != pull:  # GPIO 2 and 3 refuse even a pull they already have on some factories
                p.pull = pull
            p.bounce = None  # ours, below: the factories disagree on what bounce does
            p.edges = "both"
            factory = self._factory = self._device.pin_factory
            self._debouncer = Debouncer(debounce_ms / 1000, self._is_active(p.state), factory.ticks_diff)
            # Last: setting the pull drives a mock pin, which must not reach a half-built device.
            p.when_changed = self._pin_changed
        except BaseException:
            self._device.close()
            raise

    # --- state ---------------------------------------------------------------------------

    @property
    def is_active(self) -> bool:
        """The debounced level: pressed, or a chip on the device."""
        return self._debouncer.level

    @property
    def raw_active(self) -> bool:
        """The level of the last raw edge seen, bounce or not (active: pressed, chip present)."""
        return self._debouncer.raw_level

    @property
    def taken_ticks(self) -> float | None:
        """The factory's ticks of the edge that brought the debounced level (``None``: none yet).

        Read it in a debounced handler (called under the input's lock) for that edge's time."""
        return self._debouncer.taken_ticks

    def ticks(self) -> float:
        """The pin factory's ticks now (compare only through :meth:`ticks_diff`)."""
        return float(self._factory.ticks())

    def ticks_diff(self, later: float, earlier: float) -> float:
        """Seconds from ``earlier`` to ``later``, two of the factory's ticks."""
        return float(self._factory.ticks_diff(later, earlier))

    @property
    def bounces(self) -> int:
        """Edges ignored as contact bounce so far."""
        return self._debouncer.ignored

    @property
    def pin(self) -> Any:
        """gpiozero's pin (in tests a ``MockPin``: ``drive_low()``, ``drive_high()``); ``None`` if closed."""
        return self._device.pin

    @property
    def closed(self) -> bool:
        return self._closed

    # --- edges (gpiozero's thread, or the debounce timer's) ------------------------------

    def _is_active(self, state: object) -> bool:
        return bool(state) == self._active_high

    def _pin_changed(self, ticks: float, state: object) -> None:
        at_ns = time.monotonic_ns()
        active = self._is_active(state)
        with self._lock:
            if self._closed:
                return
            raw = self.when_edge
            if raw is not None:
                try:
                    raw(ticks, active)
                except Exception:
                    log.exception("raw-edge handler of %r failed", self)
            changes = self._debouncer.edge(ticks, active)
            for level in changes:
                self._fire(level, at_ns)
            if self._timer is None:
                delay = self._debouncer.settle_in(ticks)
                if delay is not None:
                    self._timer = threading.Timer(delay, self._settle)
                    self._timer.name = f"debounce {self.pin}"
                    self._timer.daemon = True
                    self._timer.start()

    def _settle(self) -> None:
        at_ns = time.monotonic_ns()
        with self._lock:
            self._timer = None
            if not self._closed and self._debouncer.settle():
                self._fire(self._debouncer.level, at_ns)

    def _fire(self, active: bool, at_ns: int) -> None:
        # Under the lock, so a settle and an edge of this contact reach the handlers in order.
        handler = self.when_activated if active else self.when_deactivated
        if handler is None:
            return
        try:
            handler(at_ns)
        except Exception:
            log.exception("handler of %r failed", self)

    # --- life ----------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the handlers and release the pin (idempotent)."""
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        self._device.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        if self._closed:
            return f"<{type(self).__name__} closed>"
        return f"<{type(self).__name__} on pin {self.pin!r}, is_active={self.is_active}>"


class LockOutButton(DebouncedInput):
    """The dealer's lock-out button: "no more bets" (§ 639a.2(c)(2), § 633a.2(c), (d)(2)).

    Defaults to a button to ground with the pin pulled up (pressed = low).
    """

    @property
    def is_pressed(self) -> bool:
        return self.is_active

    @property
    def when_pressed(self) -> Handler | None:
        return self.when_activated

    @when_pressed.setter
    def when_pressed(self, handler: Handler | None) -> None:
        self.when_activated = handler

    @property
    def when_released(self) -> Handler | None:
        return self.when_deactivated

    @when_released.setter
    def when_released(self, handler: Handler | None) -> None:
        self.when_deactivated = handler


class WagerSensor(DebouncedInput):
    """A seat's progressive wagering device: active while a value chip is on it (§ 639a.7(d)(2)).

    Defaults to a switch to ground with the pin pulled up (chip present = low).
    """

    @property
    def wager_present(self) -> bool:
        return self.is_active

    @property
    def when_placed(self) -> Handler | None:
        return self.when_activated

    @when_placed.setter
    def when_placed(self, handler: Handler | None) -> None:
        self.when_activated = handler

    @property
    def when_removed(self) -> Handler | None:
        return self.when_deactivated

    @when_removed.setter
    def when_removed(self, handler: Handler | None) -> None:
        self.when_deactivated = handler


class LampState(StrEnum):
    OFF = "off"
    STEADY = "steady"
    BLINKING = "blinking"
    SLOW_BLINKING = "slow_blinking"
    """Every :data:`SLOW_BLINK_FACTOR` x ``blink_ms`` on and off: the seats' wager lamps while the
    progressive is unavailable (``ProgressiveTableGameSystem.set_progressive_unavailable``), a
    pattern no payout lamp uses."""


SLOW_BLINK_FACTOR: Final = 4
"""A slow blink is this many times a blink's ``blink_ms`` (the default: 1 s on, 1 s off)."""


class Lamp:
    """A lamp on one GPIO: off, steady, blinking or blinking slowly (gpiozero's ``DigitalOutputDevice``).

    Blinking runs in gpiozero's own thread. Changing the state stops that thread first
    (it wakes at once), so a call returns within a pin write or two. Setting the state it
    already has does nothing, so a blink is not restarted.
    """

    def __init__(
        self,
        pin: int | str,
        *,
        active_high: bool = True,
        blink_ms: int = DEFAULT_BLINK_MS,
        pin_factory: PinFactory = None,
    ) -> None:
        self.blink_ms = blink_ms
        self._state = LampState.OFF
        self._device: Any = DigitalOutputDevice(
            pin, active_high=active_high, initial_value=False, pin_factory=pin_factory
        )

    @property
    def state(self) -> LampState:
        """What the lamp was told to do."""
        return self._state

    @property
    def is_lit(self) -> bool:
        """Whether it is lit at this instant (a blinking lamp alternates)."""
        return bool(self._device.is_active)

    @property
    def pin(self) -> Any:
        """gpiozero's pin (a ``MockPin`` in tests: ``state``, ``states``); ``None`` once closed."""
        return self._device.pin

    @property
    def closed(self) -> bool:
        return bool(self._device.closed)

    def show(self, state: LampState) -> None:
        """Turn the lamp off, on steady, blinking every ``blink_ms`` on and off, or blinking
        slowly (:data:`SLOW_BLINK_FACTOR` times that)."""
        if state == self._state:
            return
        if state is LampState.OFF:
            self._device.off()
        elif state is LampState.STEADY:
            self._device.on()
        else:
            factor = SLOW_BLINK_FACTOR if state is LampState.SLOW_BLINKING else 1
            seconds = self.blink_ms * factor / 1000
            self._device.blink(on_time=seconds, off_time=seconds)
        self._state = state

    def on(self) -> None:
        self.show(LampState.STEADY)

    def off(self) -> None:
        self.show(LampState.OFF)

    def blink(self) -> None:
        self.show(LampState.BLINKING)

    def close(self) -> None:
        """Stop blinking, turn off and release the pin (idempotent)."""
        if not self._device.closed:
            self._device.off()
        self._device.close()
        self._state = LampState.OFF

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        if self.closed:
            return "<Lamp closed>"
        return f"<Lamp on pin {self.pin!r}, {self._state}>"
