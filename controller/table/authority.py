"""Who may say what at the table: one table of the sources that may produce each kind of fact.

Every rules event enters the table through :meth:`.service.TableService.submit`, which asks
:func:`judge` first (docs/authority.md). A fact from a source the table does not name is refused
with the reason and the authority, and journaled as refused; a fact that needs a floorperson's
PIN waits for one (an ``irregularity_reported`` record), and the round waits with it.

- A Progressive Payout Wager exists only because a sensor counted it at the lock-out: the
  system's count is what the dealer checks the chips against (§ 639a.8(b), § 639a.2(c)).
- Cards come from the automated dealing shoe; by hand only while it is out of order
  (§ 639a.13(g)): its driver reports it offline or in fault, a floorperson declared it out of
  order, or it is not installed; an incomplete stack allows keying that stack only.
- A device's irregularity (a jam, a malfunction) comes from the device; a dealer's report of
  one, and any irregularity that voids a round with wagers in play, takes effect only when a
  floorperson confirms it (§ 639a.13(g): the floorperson has the device covered or signed out
  of order before any other method of dealing).
- At a poker table whose shoe reads every card, the dealer keys only what is a player's choice
  among cards already read, his discards (§ 637a.20(h): "Each player may keep his original hand
  or discard as many cards as he chooses"), and deals nothing face down and counted; what the
  game says is the floorperson's decision (the disputed pot) waits for one.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..journal import Refused
from ..journal.state import OpenRound, TableState
from ..rules.core.engine import IllegalEvent, Round
from ..rules.core.events import Event

GPIO: Final = "gpio"
SHOE: Final = "shoe"
SHUFFLER: Final = "shuffler"
READER: Final = "hole-card-reader"
DEALER: Final = "dealer-ui"
FLOOR: Final = "floor"
TECH: Final = "tablectl"
LINK: Final = "link"
DAEMON: Final = "daemon"
PEOPLE: Final = frozenset({DEALER, FLOOR})


@dataclass(frozen=True)
class Authority:
    """Who may produce a kind of fact, under which section, and on what condition."""

    fact: str
    sources: frozenset[str]
    section: str
    condition: str = ""

    def words(self) -> str:
        who = ", ".join(sorted(self.sources))
        return f"{self.fact}: {who} ({self.section}" + (f"; {self.condition})" if self.condition else ")")


def _a(fact: str, sources: Collection[str], section: str, condition: str = "") -> Authority:
    return Authority(fact, frozenset(sources), section, condition)


#: Fact kind -> who may produce it. docs/authority.md is this table in words.
AUTHORITY: Final[Mapping[str, Authority]] = {
    a.fact: a
    for a in (
        _a(
            "wager progressive",
            {GPIO},
            "§ 639a.8(b), § 639a.2(c), § 633a.2(c), (d)",
            "every progressive a wagering device counts (Caribbean Stud's and Fortune Asia Poker's "
            "Progressive Payout Wager, Blackjack's Bad Beat, Hit and Run and Straight Jack): only "
            "the sensors' count at the lock-out; the API refuses it from every role",
        ),
        _a("wager", PEOPLE, "§ 639a.7", "before 'no more bets' (§ 639a.7(c))"),
        _a("no_more_bets", {GPIO, *PEOPLE}, "§ 639a.2(c)(2), § 639a.7(c)"),
        _a("cards", {SHOE}, "§ 639a.10"),
        _a(
            "cards by hand",
            PEOPLE,
            "§ 639a.13(g)",
            "only while the shoe is out of order (offline, in fault, declared out of order, not "
            "installed); after an incomplete stack, that stack only",
        ),
        _a("decision", PEOPLE, "§ 639a.11"),
        _a(
            "position",
            PEOPLE,
            "the game's rules",
            "the poker room's button: the table carries it after the first round",
        ),
        _a(
            "cards chosen by a player",
            PEOPLE,
            "§ 637a.20(h), § 637a.21(h)",
            "the poker room's discards while the shoe works: which of his cards, read when dealt, the "
            "player gives up (the game's chosen_cards)",
        ),
        _a(
            "deal",
            PEOPLE,
            "§ 637a.19(f), § 637a.20(f)-(h), § 637a.21(f)-(h)",
            "a poker table without a working card-reading shoe: cards dealt face down, counted (the "
            "hands shown are keyed at the showdown, a mucked hand never)",
        ),
        _a("dice", PEOPLE, "the game's rules"),
        _a("hole_card_reader", {READER}, "§ 633a.7(h)"),
        _a("meter", {LINK}, "§ 639a.12(d)", "the central meter, over the progressive link"),
        _a(
            "irregularity of a device",
            {SHOE, SHUFFLER, READER, FLOOR},
            "§ 639a.13(e), (f), (g)",
            "the device itself, or a floorperson with a PIN; a dealer's report waits for one",
        ),
        _a(
            "irregularity",
            {*PEOPLE, SHOE, SHUFFLER, READER},
            "§ 639a.13 (each game's irregularities)",
            "one that voids a round with wagers in play waits for a floorperson's PIN",
        ),
        _a("device out of order / in service", {FLOOR, TECH}, "§ 639a.13(g)", "journaled with the actor"),
        _a("payout verification", {FLOOR}, "§ 639a.11(c)(5)(iii), § 633a.7(o)(2)(ii)(B)"),
    )
}

#: An irregularity a device reports -> the device's journal source.
DEVICE_IRREGULARITIES: Final[Mapping[str, str]] = {
    "shoe_jam": SHOE,
    "shuffler_jam": SHUFFLER,
    "shuffler_malfunction": SHUFFLER,
    "card_reader_malfunction": READER,
}

#: A device's configured name -> its journal source (and its name in ``out_of_order``).
SHOE_DEVICE: Final = "shoe"


class NotAuthorized(Refused):
    """Refused by the authority table (not by the rules): the source may not produce the fact.
    Journaled as ``refused``; the API answers ``forbidden``."""


@dataclass(frozen=True)
class Verdict:
    """:func:`judge`'s answer: accept (both ``None``), refuse with the reason and the authority,
    or wait for a floorperson (``await_floor``: why)."""

    refuse: str | None = None
    await_floor: str | None = None


ACCEPT: Final = Verdict()


def _refuse(what: str, authority: Authority) -> Verdict:
    return Verdict(refuse=f"{what}; who may: {authority.words()}")


def shoe_out_of_order(state: TableState, shoe_installed: bool) -> str | None:
    """Why cards may be keyed by hand now (§ 639a.13(g)), or ``None`` while the shoe works."""
    if not shoe_installed:
        return "no automated dealing shoe is installed"
    if SHOE_DEVICE in state.out_of_order:
        return f"the shoe is declared out of order {state.out_of_order[SHOE_DEVICE]}"
    status = state.devices.get(SHOE_DEVICE)
    if status is None or not status.online:
        detail = f" ({status.detail})" if status is not None and status.detail else ""
        return f"the shoe's driver reports it offline or in fault{detail}"
    return None


def _sensed_progressive(current: OpenRound | None, event: Event) -> tuple[str, str] | None:
    """The title and section of ``event``'s wager if a wagering device counts it: any progressive
    the round's game declares sensor-counted (Blackjack's Bad Beat, Hit and Run and Straight Jack,
    § 633a.2(c), (d); Caribbean Stud's, § 639a.2(c)), and the name ``progressive`` at every
    table (the rules then say whether the game offers it)."""
    if current is not None:
        rnd = current.round
        for p in rnd.game.progressives(rnd.rules):
            if p.sensor and p.name == event.wager:
                return p.title, p.section
    if event.wager == "progressive":
        return "Progressive Payout Wager", "§ 639a.8(b), § 639a.2(c)"
    return None


def judge(event: Event, source: str, state: TableState, *, shoe_installed: bool) -> Verdict:
    """Whether ``source`` may produce ``event`` now: the one place the table checks it."""
    current = state.current
    # While the round waits for a floorperson nothing goes on, except the floorperson's answer
    # and "no more bets": locking out wagers is always safe (§ 639a.2(c)(2)).
    waits = event.type != "no_more_bets" and not (source == FLOOR and event.type == "irregularity")
    if state.awaiting_floor is not None and waits:
        waiting = state.awaiting_floor
        return Verdict(
            refuse=f"the round waits for a floorperson to confirm or dismiss the "
            f"{waiting.event.get('kind')} reported by {waiting.reporter} ({waiting.why})"
        )
    kind = event.type
    if current is not None and source != DAEMON:
        rnd = current.round
        why = rnd.game.not_at_table(rnd.state, event)
        if why:
            return Verdict(refuse=why)
    sensed = _sensed_progressive(current, event) if kind == "wager" else None
    if sensed is not None:
        if source != GPIO:
            title, section = sensed
            return _refuse(
                f"a progressive wager from {source} is not accepted: the {title} is counted by the "
                f"wagering devices at the lock-out ({section})",
                AUTHORITY["wager progressive"],
            )
        return ACCEPT
    if kind == "cards":
        if source == SHOE:
            return ACCEPT
        if source not in PEOPLE:
            return _refuse(f"cards from {source}", AUTHORITY["cards"])
        if current is not None and current.round.game.chosen_cards(current.round.state, event):
            return ACCEPT
        return _cards_by_hand(event, state, shoe_installed)
    if kind == "deal" and source in PEOPLE and shoe_out_of_order(state, shoe_installed) is None:
        return _refuse(
            "the shoe reads the cards it deals: nothing is dealt face down and counted while it works",
            AUTHORITY["deal"],
        )
    if kind == "irregularity":
        return _irregularity(event, source, current)
    if kind == "hole_card_reader" and source != READER:
        return _refuse(f"a hole-card reading from {source}", AUTHORITY["hole_card_reader"])
    if kind == "meter" and source != LINK:
        return _refuse(f"a meter from {source}", AUTHORITY["meter"])
    if kind in ("wager", "decision", "position", "dice", "deal") and source not in PEOPLE:
        return _refuse(f"a {kind} from {source}", AUTHORITY[kind])
    return ACCEPT


def _cards_by_hand(event: Event, state: TableState, shoe_installed: bool) -> Verdict:
    authority = AUTHORITY["cards by hand"]
    if shoe_out_of_order(state, shoe_installed) is not None:
        return ACCEPT
    keyed = state.stack_to_key
    if keyed is not None:
        position, count = keyed
        if str(event.to) == position and len(event.cards) <= count:
            return ACCEPT
        return _refuse(
            f"the shoe works; only its incomplete stack ({count} cards to {position}) may be keyed by hand",
            authority,
        )
    return _refuse("the shoe works: its cards come from the shoe, not by hand", authority)


def _irregularity(event: Event, source: str, current: OpenRound | None) -> Verdict:
    kind = event.kind or ""
    device = DEVICE_IRREGULARITIES.get(kind)
    if device is not None:
        if source == DEALER:
            return Verdict(
                await_floor=f"a dealer's report of {kind}: a floorperson confirms it (§ 639a.13(g))"
            )
        if source not in (device, FLOOR):
            return _refuse(f"{kind} from {source}", AUTHORITY["irregularity of a device"])
    if source != FLOOR and current is not None:
        why = current.round.game.floor_decides(current.round.state, event)
        if why:
            return Verdict(await_floor=why)
    if source != FLOOR and current is not None and voids_wagers(current, event):
        return Verdict(
            await_floor=f"{kind} voids a round with wagers in play: a floorperson confirms it with a PIN"
        )
    return ACCEPT


def voids_wagers(current: OpenRound, event: Event) -> bool:
    """``event`` would void wagers in play (the round's settlement after it returns them)."""
    if not current.wagers():
        return False
    rnd = current.round
    try:
        after = rnd.game.apply(rnd.state, event)
        settlement = Round(rnd.game, rnd.rules, after, [*rnd.events, event]).settle()
    except IllegalEvent:
        return False
    data: Mapping[str, Any] = settlement.to_json()
    if data.get("void"):
        return True
    seats = data.get("seats", {})
    return any(
        isinstance(line, Mapping) and line.get("result") == "void"
        for wagers in (seats.values() if isinstance(seats, Mapping) else ())
        if isinstance(wagers, Mapping)
        for line in wagers.values()
    )
