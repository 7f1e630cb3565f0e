"""A disputed pot at the poker table, in plain Python: what the dealer reports and what the
floorperson signs.

§§ 637a.19-637a.21 give no irregularity for the poker room: who receives a pot the players dispute is
the floorperson's decision (docs/games/poker-room.md, "Irregularities"; docs/authority.md, "who may
say what"). At the showdown the dealer reports what is disputed, in fixed words (``disputed_pot``);
the round then waits for a floorperson, who rules a hand in the showdown dead or dismisses the
dispute, each signed with his PIN in words built from the keys (the seat and a fixed phrase). The
screen never rules: it sends what the floorperson chose, and shows what the daemon says after.
"""

from __future__ import annotations

from typing import Any, Final

from .pin_pad import Purpose
from .poker import PokerView

#: The irregularity's name in events (the daemon's ``disputed_pot``).
DISPUTED_POT: Final = "disputed_pot"
#: What the dealer may say is disputed, as keys: ``(name, words)``.
DISPUTES: Final = (
    ("hand_shown", "Hand shown"),
    ("pot_awarded", "Pot awarded"),
    ("cards_exposed", "Cards exposed"),
)
#: The fixed phrase of a dead hand's ruling, after the seat.
DEAD_HAND: Final = "hand is dead, ruled by the floorperson at the showdown"


def may_dispute(view: PokerView) -> bool:
    """A pot is disputed at the showdown (§ 637a.19(k)), before it is awarded."""
    return view.phase == "showdown"


def dispute_event(name: str) -> tuple[str, dict[str, Any]]:
    """The words and the event of the dealer's report; ``ValueError`` for words not offered."""
    words = dict(DISPUTES).get(name)
    if words is None:
        raise ValueError(f"disputed pot: say what is disputed ({', '.join(w for _, w in DISPUTES)})")
    detail = f"disputed at the showdown: {words.lower()}"
    return f"disputed pot ({words.lower()}): the floorperson is called", {
        "type": "irregularity",
        "kind": DISPUTED_POT,
        "detail": detail,
    }


def hands_in_showdown(view: PokerView) -> tuple[int, ...]:
    """The seats whose hands are still in (shown or still to show or muck): the hands a floorperson
    may rule dead."""
    return tuple(s.seat for s in view.seats if not s.folded)


def dead_hand(view: PokerView, seat: int) -> Purpose:
    """What the floorperson's PIN signs when he rules ``seat``'s hand dead; ``ValueError`` for a seat
    not in the showdown."""
    if seat not in hands_in_showdown(view):
        raise ValueError(f"seat {seat} has no hand in the showdown")
    words = f"seat {seat}'s {DEAD_HAND}"
    return Purpose("dead_hand", f"disputed pot: {words}", seat=seat, detail=words)


def dismissal() -> Purpose:
    """What his PIN signs when he dismisses the dispute: the showdown goes on as it was."""
    return Purpose("dismiss", "disputed pot: dismissed, the showdown goes on", detail=DISPUTED_POT)


def ruling_event(purpose: Purpose) -> dict[str, Any]:
    """The floorperson's ruling of a dead hand, as the daemon takes it (``seat`` and his words)."""
    if not purpose.seat or not purpose.detail:
        raise ValueError("give the floorperson's ruling in words: the seat and the ruling")
    return {"type": "irregularity", "kind": DISPUTED_POT, "seat": purpose.seat, "detail": purpose.detail}
