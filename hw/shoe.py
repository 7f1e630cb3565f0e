"""The automated dealing shoe with card recognition (``docs/serial-protocols.md``, "Shoe").

The shoe reads each card as it leaves (``CRD``) and says when a stack has been dispensed for a
position (``STK``: a seat, the dealer, the board, or burnt). The driver collects the cards read
since the last stack and reports them with the stack, so the daemon knows whose hand they are;
a stack is ``complete`` only if no frame was lost while it was read and the shoe's count matches.
An incomplete stack is the daemon's cue to have the dealer key the missing cards in by hand; a
shoe out of order is covered and the cards dealt another way (§ 639a.13(g)). A jam, a stop or a
failure to deal (``FLT``) is a :class:`DeviceFault`; mid-round it is the game's ``shoe_jam``
irregularity (§ 639a.13(f), § 647a.13(f), § 659a.13(m); blackjack's ``shoe_jam`` too).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from .device_events import DeviceEvent, EventCallback
from .serial_config import SerialDeviceConfig
from .serial_device import SerialDevice
from .serial_protocol import CARD_RE, Codec, Frame, FrameError, expect_fields, parse_number

#: § 639a.13(f): the shoe "jams, stops dealing cards or fails to deal cards".
SHOE_FAULT_KINDS: Final = ("jam", "stopped", "failed_to_deal")

#: Where a stack goes: a seat (1..99, from the dealer's far left), ``dealer``, ``board`` or ``burn``.
POSITION_RE: Final = re.compile(r"[1-9][0-9]?|dealer|board|burn")

#: Eight decks with jokers is the most any shoe holds; a bigger count is a bad field.
MAX_STACK: Final = 8 * 53


@dataclass(frozen=True, slots=True)
class CardRead(DeviceEvent):
    """One card read by the shoe as it was dispensed: ``card`` as ``"As"``, ``seq`` its frame's number."""

    card: str
    seq: int


@dataclass(frozen=True, slots=True)
class StackDelivered(DeviceEvent):
    """A stack was dispensed for ``position`` (a seat number as text, ``dealer``, ``board`` or
    ``burn``): the ``cards`` read since the previous stack and the shoe's own ``count``.
    ``complete`` is false if a frame was lost meanwhile or the numbers differ."""

    position: str
    cards: tuple[str, ...]
    count: int
    complete: bool
    seq: int


class DealingShoe(SerialDevice):
    """The automated dealing shoe's driver: :class:`CardRead`, :class:`StackDelivered`, faults."""

    kind: ClassVar[str] = "shoe"
    FAULT_KINDS: ClassVar[tuple[str, ...]] = SHOE_FAULT_KINDS

    def __init__(
        self,
        config: SerialDeviceConfig,
        on_event: EventCallback,
        *,
        name: str | None = None,
        codec: Codec | None = None,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__(config, on_event, name=name, codec=codec, rng=rng)
        self._stack: list[str] = []
        # Set when the sequence skipped while this stack was read: a card may be missing.
        self._stack_suspect = False

    def _interpret(self, frame: Frame, seq: int) -> Sequence[DeviceEvent]:
        if frame.type == "CRD":
            expect_fields(frame, ("seq", "card"))
            card = frame.fields[1]
            if not CARD_RE.fullmatch(card):
                raise FrameError("bad_field", f"card {card!r} is not a card (As, Td, 2c, JKR)")
            self._stack.append(card)
            return (CardRead(self.name, card, seq),)
        if frame.type == "STK":
            expect_fields(frame, ("seq", "position", "count"))
            position = frame.fields[1]
            if not POSITION_RE.fullmatch(position):
                raise FrameError("bad_field", f"position {position!r}: a seat 1-99, dealer, board or burn")
            count = parse_number(frame.fields[2], "stack count", 1, MAX_STACK)
            cards = tuple(self._stack)
            complete = not self._stack_suspect and len(cards) == count
            self._stack, self._stack_suspect = [], False
            return (StackDelivered(self.name, position, cards, count, complete, seq),)
        raise FrameError("unknown_type", f"a shoe does not send {frame.type}")

    def _on_frames_lost(self, expected: int, got: int) -> None:
        # A shoe that restarted (sequence 0) between stacks starts a fresh stack: nothing of it
        # can be missing. Any other gap may have taken a card of the stack being read.
        if got == 0 and not self._stack:
            return
        self._stack_suspect = True
