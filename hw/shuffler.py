"""The automated card shuffler's card count (``docs/serial-protocols.md``, "Shuffler").

After each shuffle the shuffler counts the deck and says how many cards it found and how many
there should be (``CNT``): § 639a.5(b), a device "which counts the number of cards in the deck
after the completion of each shuffle and indicates whether 52 cards are present"; if the count
is wrong "the deck shall be removed from the table". A jam, a stop mid-shuffle or a shuffle
cycle not completed (``FLT``) is a :class:`DeviceFault`: the cards are reshuffled (§ 639a.13(e)),
the game's ``shuffler_jam`` (``shuffler_malfunction`` in blackjack).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from .device_events import DeviceEvent
from .serial_device import SerialDevice
from .serial_protocol import Frame, FrameError, expect_fields, parse_number

#: § 639a.13(e): the shuffler "jams, stops shuffling during a shuffle or fails to complete a
#: shuffle cycle".
SHUFFLER_FAULT_KINDS: Final = ("jam", "stopped", "incomplete")

MAX_CARDS: Final = 8 * 53


@dataclass(frozen=True, slots=True)
class ShufflerCount(DeviceEvent):
    """The count after a shuffle: ``count`` found, ``expected`` for the deck in use (52, 53 with
    the joker, 104 for two decks)."""

    count: int
    expected: int
    seq: int

    @property
    def all_present(self) -> bool:
        """Whether the deck is complete; if not it is removed from the table (§ 639a.5(b))."""
        return self.count == self.expected


class Shuffler(SerialDevice):
    """The shuffler's driver: :class:`ShufflerCount` and faults."""

    kind: ClassVar[str] = "shuffler"
    FAULT_KINDS: ClassVar[tuple[str, ...]] = SHUFFLER_FAULT_KINDS

    def _interpret(self, frame: Frame, seq: int) -> Sequence[DeviceEvent]:
        if frame.type == "CNT":
            expect_fields(frame, ("seq", "count", "expected"))
            count = parse_number(frame.fields[1], "card count", 0, MAX_CARDS)
            expected = parse_number(frame.fields[2], "expected count", 1, MAX_CARDS)
            return (ShufflerCount(self.name, count, expected, seq),)
        raise FrameError("unknown_type", f"a shuffler does not send {frame.type}")
