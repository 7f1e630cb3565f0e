"""A progressive claim the central meter REFUSED or did not award in time (TIMED OUT), settled
by a floorperson's hand pay at the dealer's screen (docs/progressive-link.md, "The award
handshake"; the API's ``claim_hand_pay``, floor role only).

:func:`claims_to_settle` reads the daemon's ``link.pending`` (each claim of the round still
waiting) and names each claim's wager by the table's own name (``link.progressives``: wager ->
the meter's id). :class:`HandPayEntry` is what the floorperson keys in: the claim, the meter he
verified on its display (cents keyed in from the right, as a till: "1" "0" "0" "0" "0" "7" "2"
is $10,000.72, any amount of cents), and the reason, one of :data:`REASONS` or his own words
(:data:`OTHER`: typed on the words keypad, :data:`WORD_KEYS`, at most :data:`MAX_TYPED` characters,
so that what is journaled stays within the daemon's bound on a person's words), journaled with the
floorperson as the actor. Nothing is sent until the floorperson signs it with the PIN (§ 639a.11(c)(5)(iii)).
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final

from .money import cents_text, dollars

#: The claims a floorperson settles (the daemon's ``link.pending`` ``status``).
EXCEPTIONS: Final = ("REFUSED", "TIMED OUT")
#: The reasons offered as keys: the key's words, and the reason journaled.
REASONS: Final[Mapping[str, str]] = {
    "Display read": "the meter's display read by the floorperson; hand paid",
    "Meter refused": "the central meter refused the claim; the floorperson verified the hand and the meter",
    "No award in time": "no award from the central meter in time; the floorperson verified the meter",
}
#: The reason key that opens the words keypad: the floorperson's own reason, typed.
OTHER: Final = "Other"
#: What is journaled before the words typed.
OTHER_PREFIX: Final = "the floorperson's reason: "
#: The most characters typed: with :data:`OTHER_PREFIX`, within the 200 characters of a person's
#: words the daemon takes (``controller.rules.core.events.MAX_WORDS``; a test holds them together).
MAX_TYPED: Final = 160
#: The words keypad's keys: the digits, the letters in order (as the PIN pad's user name), and
#: three marks; 39 keys, three rows of 13 at 800x480. ``space`` and ``back`` are keys of their own.
WORD_KEYS: Final = string.digits + string.ascii_lowercase + ",.-"
_TYPED: Final = frozenset(WORD_KEYS)
#: The most cents keyed in (below $10,000,000,000.00).
MAX_CENTS: Final = 10**12


@dataclass(frozen=True)
class Claim:
    """One claim waiting for a floorperson: the seat, the table's wager, the meter's id, REFUSED
    or TIMED OUT, and the meter's (or the table's) reason."""

    seat: int
    wager: str
    progressive: str
    status: str
    reason: str

    @property
    def key(self) -> str:
        return f"{self.seat}:{self.wager}"


def claims_to_settle(link: Mapping[str, Any]) -> tuple[Claim, ...]:
    """The REFUSED and TIMED OUT claims of ``status``'s ``link``, in the daemon's order."""
    ids = link.get("progressives") or {}
    wager_of = {str(meter): str(wager) for wager, meter in ids.items()} if isinstance(ids, Mapping) else {}
    pending = link.get("pending") or ()
    out = []
    for p in pending if isinstance(pending, Sequence) else ():
        if not isinstance(p, Mapping) or p.get("status") not in EXCEPTIONS:
            continue
        seat, meter = p.get("seat"), str(p.get("progressive", ""))
        if isinstance(seat, bool) or not isinstance(seat, int):
            continue
        out.append(
            Claim(seat, wager_of.get(meter, meter), meter, str(p["status"]), str(p.get("reason") or ""))
        )
    return tuple(out)


class HandPayEntry:
    """The floorperson's entry of a hand pay: which claim, the verified meter, the reason."""

    def __init__(self) -> None:
        self.claim = ""
        self.cents = 0
        self.reason = ""
        #: The floorperson's own words (the reason :data:`OTHER`), and whether the words keypad is open.
        self.words = ""
        self.typing = False

    def choose(self, claims: Sequence[Claim], key: str) -> None:
        if key not in {c.key for c in claims}:
            raise ValueError(f"no claim {key!r} waits for a floorperson")
        self.claim = key

    def chosen(self, claims: Sequence[Claim]) -> Claim | None:
        """The claim chosen, else the only one."""
        by_key = {c.key: c for c in claims}
        if self.claim in by_key:
            return by_key[self.claim]
        return claims[0] if len(claims) == 1 else None

    def press(self, digit: str) -> None:
        if len(digit) != 1 or digit not in string.digits:
            raise ValueError(f"the meter keypad has the digits 0-9, not {digit!r}")
        if self.cents * 10 + int(digit) < MAX_CENTS:
            self.cents = self.cents * 10 + int(digit)

    def back(self) -> None:
        self.cents //= 10

    def choose_reason(self, reason: str) -> None:
        """``reason``: a key of :data:`REASONS`, or :data:`OTHER` (the words keypad opens)."""
        if reason not in REASONS and reason != OTHER:
            offered = ", ".join((*REASONS, OTHER))
            raise ValueError(f"{reason!r} is not one of the reasons offered ({offered})")
        self.reason = reason
        self.typing = reason == OTHER

    def type(self, key: str) -> None:
        """A key of the words keypad: a character of :data:`WORD_KEYS`, ``space`` or ``back``;
        past :data:`MAX_TYPED` characters a key adds nothing."""
        if key == "back":
            self.words = self.words[:-1]
            return
        char = " " if key == "space" else key
        if char != " " and char not in _TYPED:
            raise ValueError(f"the words keypad has letters, digits, space and , . -, not {key!r}")
        if len(self.words) < MAX_TYPED and not (char == " " and self.words.endswith(" ")):
            self.words += char

    def done_typing(self) -> None:
        """Back to the claim: the words stay the reason (empty words: "type the reason")."""
        self.typing = False

    @property
    def meter(self) -> str:
        """The verified meter as the wire has it (``"10000.72"``)."""
        return cents_text(self.cents)

    @property
    def shown(self) -> str:
        return dollars(Decimal(self.meter))

    @property
    def reason_text(self) -> str:
        """What is journaled: the reason chosen, in full, or the floorperson's words."""
        if self.reason == OTHER:
            words = self.words.strip()
            return OTHER_PREFIX + words if words else ""
        return REASONS.get(self.reason, "")

    def problem(self, claims: Sequence[Claim]) -> str:
        """Why it cannot be signed yet, in the floorperson's words; ``""`` when it can."""
        if self.chosen(claims) is None:
            return "choose the seat's claim" if claims else "no claim waits for a floorperson"
        if not self.cents:
            return "key in the meter's amount read on its display"
        if not self.reason_text:
            return "type the reason" if self.reason == OTHER else "choose a reason"
        return ""

    def clear(self) -> None:
        self.claim, self.cents, self.reason, self.words, self.typing = "", 0, "", "", False
