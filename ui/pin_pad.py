"""The floorperson's sign-in on the dealer's screen: a user name and a PIN for one request.

The PIN is shown as dots, never kept after the request it signs (cleared whether the daemon
accepts it or not), and never logged. What it signs is decided before it is typed (``purpose``):
verifying a payout (§ 633a.7(o)(2)(ii)(B), § 639a.11(c)(5)(iii)) or confirming a void. A PIN's
rules (6 to 12 digits) are the daemon's (``controller/auth.py``); the pad only stops at 12.

The floorpersons' names (the daemon's ``floorpersons``, names only) are offered as keys beside
the PIN's digits (:meth:`PinPad.offer`): the floorperson types the PIN and touches his name,
which signs at once (seven touches for a six-digit PIN), or touches the name first and signs
with SIGN. A name not on the list (or no list: an older daemon, offline) is typed on the letters
(the ``user`` field).
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Final

from controller.api_client import Credentials

from .observable import Observable

MAX_PIN: Final = 12
MAX_USER: Final = 32
LETTERS: Final = string.ascii_lowercase
DIGITS: Final = string.digits


@dataclass(frozen=True)
class Purpose:
    """What the PIN signs: ``title`` in the dealer's words; ``kind`` ``verify``, ``void``, ``dismiss``
    (a reported irregularity that did not happen), ``out_of_order`` (``detail`` the device) or
    ``hand_pay`` (a claim the meter refused or did not award in time: ``amount`` the meter
    verified, ``detail`` the reason) or ``dead_hand`` (a disputed pot: ``seat``'s hand ruled dead,
    ``detail`` the ruling in words: ui/poker_floor.py)."""

    kind: str
    title: str
    seat: int = 0
    wager: str = ""
    round_id: str = ""
    detail: str = ""
    amount: str = ""


class PinPad(Observable):
    def __init__(self) -> None:
        super().__init__()
        self.purpose: Purpose | None = None
        self.user = ""
        self._pin = ""
        self.field = "user"
        self.message = ""
        #: The floorpersons' names the daemon gave for this pad (``()`` until it answers).
        self.names: tuple[str, ...] = ()

    @property
    def open(self) -> bool:
        return self.purpose is not None

    @property
    def pin_dots(self) -> str:
        return "●" * len(self._pin)

    @property
    def keys(self) -> str:
        return LETTERS if self.field == "user" else DIGITS

    @property
    def pin_typed(self) -> bool:
        return bool(self._pin)

    def start(self, purpose: Purpose) -> None:
        self.purpose, self.user, self._pin, self.field, self.message = purpose, "", "", "user", ""
        self.names = ()
        self.changed()

    def offer(self, names: tuple[str, ...]) -> None:
        """The floorpersons' names as keys; the PIN's digits shown beside them (unless a name is
        being typed on the letters already)."""
        if self.purpose is None:
            return
        self.names = names
        if names and self.field == "user" and not self.user:
            self.field = "pin"
        self.changed()

    def pick(self, name: str) -> bool:
        """A name key: the floorperson is ``name``. ``True`` when the PIN is typed already (the
        key signs); else the PIN is typed next, then SIGN."""
        if name not in self.names:
            raise ValueError(f"{name!r} is not a floorperson offered on this pad")
        self.user, self.field = name, "pin"
        self.changed()
        return bool(self._pin)

    def choose(self, field: str) -> None:
        if field not in ("user", "pin"):
            raise ValueError(f"the PIN pad has the fields user and pin, not {field!r}")
        self.field = field
        self.changed()

    def press(self, key: str) -> None:
        if key not in self.keys:
            raise ValueError(f"{key!r} is not a key of the {self.field} field")
        if self.field == "user" and len(self.user) < MAX_USER:
            self.user += key
        elif self.field == "pin" and len(self._pin) < MAX_PIN:
            self._pin += key
        self.changed()

    def back(self) -> None:
        if self.field == "user":
            self.user = self.user[:-1]
        else:
            self._pin = self._pin[:-1]
        self.changed()

    def clear(self) -> None:
        """Empty the field being typed."""
        if self.field == "user":
            self.user = ""
        else:
            self._pin = ""
        self.changed()

    def cancel(self) -> None:
        self.purpose, self.user, self._pin, self.message, self.names = None, "", "", "", ()
        self.changed()

    def take(self) -> Credentials | None:
        """The credentials for one request; the PIN is cleared now. ``None`` (and a message) if
        a field is empty."""
        if not self.user or not self._pin:
            self.message = "enter the floorperson's user name and PIN"
            self.changed()
            return None
        credentials = Credentials(self.user, self._pin)
        self._pin = ""
        self.changed()
        return credentials

    def done(self, message: str, ok: bool) -> None:
        """The daemon's answer: close on success, else keep the pad open with its words."""
        if ok:
            self.purpose, self.user, self.names = None, "", ()
        self.message = message
        self.field = "pin"
        self.changed()
