"""The blackjack hole-card reader (``docs/serial-protocols.md``, "Hole-card reader").

§ 633a.7(h): the dealer inserts the hole card into the card reader device "without exposing it
to anyone at the table, including the dealer"; the device says whether the hole card gives the
dealer a Blackjack. So the protocol has no field for the card: the reader sends ``BJ`` or ``NO``
and nothing else, and the driver refuses (``bad_field``) a frame that carries anything more, so
no card can leak through this driver into the journal or the screen. A reader that cannot read
the card (``FLT``) is a :class:`DeviceFault`, the game's ``card_reader_malfunction``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from .device_events import DeviceEvent
from .serial_device import SerialDevice
from .serial_protocol import BrokenFrame, Frame, FrameError, expect_fields

READER_FAULT_KINDS: Final = ("no_read", "jam")

BLACKJACK: Final = "BJ"
NO_BLACKJACK: Final = "NO"


@dataclass(frozen=True, slots=True)
class HoleCardReading(DeviceEvent):
    """The reader's answer: the dealer has a Blackjack or not. Never the card (§ 633a.7(h))."""

    blackjack: bool
    seq: int

    @property
    def result(self) -> str:
        """In the words of the rules core's ``hole_card_reader`` event."""
        return "blackjack" if self.blackjack else "no_blackjack"


class HoleCardReader(SerialDevice):
    """The hole-card reader's driver: :class:`HoleCardReading` and faults."""

    kind: ClassVar[str] = "hole_card_reader"
    FAULT_KINDS: ClassVar[tuple[str, ...]] = READER_FAULT_KINDS

    def _interpret(self, frame: Frame, seq: int) -> Sequence[DeviceEvent]:
        if frame.type == "HCR":
            expect_fields(frame, ("seq", "result"))
            result = frame.fields[1]
            if result not in (BLACKJACK, NO_BLACKJACK):
                raise FrameError(
                    "bad_field", f"reader result {result!r} is not {BLACKJACK} or {NO_BLACKJACK}"
                )
            return (HoleCardReading(self.name, result == BLACKJACK, seq),)
        raise FrameError("unknown_type", f"a hole-card reader does not send {frame.type}")

    def _withhold(self, broken: BrokenFrame) -> BrokenFrame:
        """A refused frame could carry the hole card (a faulty reader, a vendor sending more than
        it should): keep the type, withhold the rest, in logs and sniff alike (§ 633a.7(h))."""
        return BrokenFrame(broken.reason, "contents withheld (§ 633a.7(h))", broken.raw[:4] + b"<withheld>")
