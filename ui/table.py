"""The table as the daemon tells it: the fold of ``subscribe``'s snapshot and the notifications.

:class:`TableModel` keeps the last ``status`` the daemon sent and, for the round in play, the
events journaled since the screen subscribed (the cards as the shoe read them, the decisions, the
dice). Everything it shows comes from the daemon; nothing is decided here. A restart of the
screen subscribes again and shows the same table; a restart of the daemon is a new snapshot.

The snapshot carries the round's wagers and its cards (``round.cards``, the ``cards`` events as
journaled): a screen (re)started mid-round shows every card dealt. Decisions entered before the
screen subscribed are not in it: they are counted (``round.events``) and reported as not listed
(``unseen_events``), never guessed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Final

from .house_way import HouseWayView, house_way_views
from .meter import MeterView, meter_view, meter_views
from .money import amount
from .observable import Observable
from .seats import SeatView, WagerCount, seat_views, wager_count
from .settlement import SettlementView, settlement_view

JOURNAL_LINES: Final = 40
_NO_VOCABULARY: Final[Mapping[str, Any]] = {}


class Betting:
    """The lock-out banner's words (§ 639a.7(c), § 639a.2(c)(2))."""

    OPEN = "BETS OPEN"
    NO_MORE_BETS = "NO MORE BETS"
    TABLE_LOCKED = "TABLE LOCKED OUT"
    NO_ROUND = "ROUND CLOSED"
    #: The settled round still on the table (the daemon has opened the next): the dealer pays.
    PAYING = "PAYING"
    #: ... and a payout waits for a floorperson (§ 639a.11(c)(5)(iii)): nothing is paid or mucked.
    HOLD = "JACKPOT PENDING - HOLD"


@dataclass(frozen=True)
class Hand:
    """Cards journaled for one place at the table (a seat, a seat's split hand, the dealer, the
    board), in the order read."""

    to: str
    hand: int
    cards: tuple[str, ...]

    @property
    def title(self) -> str:
        if self.to.isdigit():
            return f"Seat {self.to}" + (f" hand {self.hand + 1}" if self.hand else "")
        return self.to.capitalize()


@dataclass
class RoundSeen:
    """The events of the round in play this screen saw (by ``seq``: a repeat is dropped)."""

    round_id: str
    events: list[tuple[int, Mapping[str, Any]]] = field(default_factory=list)
    #: The round's ``cards`` events as the daemon's last snapshot had them, and its ``seq``.
    dealt: tuple[Mapping[str, Any], ...] | None = None
    dealt_seq: int = 0

    def add(self, seq: int, body: Mapping[str, Any]) -> None:
        if all(s != seq for s, _ in self.events):
            self.events.append((seq, body))

    def hands(self) -> tuple[Hand, ...]:
        """The cards of each place: the snapshot's, then those journaled after it; without a
        snapshot's cards, the ``cards`` events this screen saw."""
        out: dict[tuple[str, int], list[str]] = {}
        later = [b for s, b in self.events if self.dealt is None or s > self.dealt_seq]
        for body in (*(self.dealt or ()), *later):
            if body.get("type") == "cards":
                key = (str(body.get("to")), int(body.get("hand", 0)))
                out.setdefault(key, []).extend(str(body.get("cards", "")).split())
        return tuple(Hand(to, hand, tuple(cards)) for (to, hand), cards in out.items())

    def decisions(self) -> tuple[str, ...]:
        """What was entered, in order: ``"seat 3: bet"``, ``"dice 4 2 1"``, ``"position 1"``."""
        lines = []
        for _, body in self.events:
            kind = body.get("type")
            if kind == "decision":
                hand = f" hand {int(body['hand']) + 1}" if body.get("hand") else ""
                lines.append(f"seat {body.get('seat')}{hand}: {body.get('action')}")
            elif kind == "dice":
                lines.append("dice " + " ".join(str(d) for d in body.get("dice", ())))
            elif kind == "position":
                lines.append(f"position {body.get('value')}")
            elif kind == "irregularity":
                lines.append(f"irregularity: {body.get('kind')}")
        return tuple(lines)


@dataclass(frozen=True)
class JournalLine:
    seq: int
    kind: str
    source: str
    text: str


class TableModel(Observable):
    """The daemon's table state as last told; ``apply_snapshot`` and ``apply_note`` fold it."""

    def __init__(self) -> None:
        super().__init__()
        self.status: Mapping[str, Any] = {}
        self.seen: RoundSeen | None = None
        #: The round before, for the settlement's hand replay.
        self.previous: RoundSeen | None = None
        self.journal: deque[JournalLine] = deque(maxlen=JOURNAL_LINES)
        self.device_notes: dict[str, str] = {}
        self.shoe_reading: list[str] = []

    # -- folding ---------------------------------------------------------------------------------

    def apply_snapshot(self, status: Mapping[str, Any]) -> None:
        """A full ``status`` (``subscribe``'s answer, a ``state`` notification, a re-read)."""
        self.status = status
        round_ = status.get("round")
        if isinstance(round_, Mapping) and (self.seen is None or self.seen.round_id != round_.get("id")):
            self._begin(str(round_.get("id")))
            self.shoe_reading = []
        if isinstance(round_, Mapping) and isinstance(round_.get("cards"), list) and self.seen is not None:
            self.seen.dealt = tuple(c for c in round_["cards"] if isinstance(c, Mapping))
            self.seen.dealt_seq = int(status.get("seq", 0))
        self.changed()

    def apply_note(self, topic: str, data: Mapping[str, Any]) -> None:
        if topic == "state":
            self.apply_snapshot(data)
            return
        if topic == "event":
            self._event(data)
        elif topic == "link":
            # The progressive link's status between the state's (a meter's amount, a claim
            # REFUSED by the meter or TIMED OUT): the status's ``link`` as the daemon has it now.
            self.status = {**self.status, "link": dict(data)}
        elif topic == "device":
            self.device_notes[str(data.get("device"))] = ", ".join(
                f"{k} {v}" for k, v in data.items() if k != "device"
            )
        elif topic == "input" and data.get("type") == "card_read":
            self.shoe_reading.append(str(data.get("card")))
        self.changed()

    def _begin(self, round_id: str) -> None:
        if self.seen is not None and (self.seen.events or self.seen.dealt):
            self.previous = self.seen
        self.seen = RoundSeen(round_id)
        self.shoe_reading = []

    def _event(self, data: Mapping[str, Any]) -> None:
        seq, kind, body = int(data.get("seq", 0)), str(data.get("kind")), data.get("body") or {}
        round_id = data.get("round")
        if kind == "round_begin" and (self.seen is None or self.seen.round_id != round_id):
            self._begin(str(round_id))
        elif kind == "event" and round_id is not None:
            if self.seen is None or self.seen.round_id != round_id:
                self._begin(str(round_id))
            assert self.seen is not None
            self.seen.add(seq, body)
            if body.get("type") == "cards":
                self.shoe_reading = []
        text = body.get("reason") if kind == "refused" else (body.get("type") or body.get("device") or "")
        self.journal.append(JournalLine(seq, kind, str(data.get("source")), str(text)))

    # -- what the screen shows -------------------------------------------------------------------

    @property
    def connected_once(self) -> bool:
        return bool(self.status)

    @property
    def game(self) -> str:
        return str(self.status.get("game", ""))

    @property
    def vocabulary(self) -> Mapping[str, Any]:
        """The game's wagers, decisions and irregularities with their sections (the daemon's)."""
        vocabulary = self.status.get("vocabulary")
        return vocabulary if isinstance(vocabulary, Mapping) else _NO_VOCABULARY

    @property
    def title(self) -> str:
        """The game's title, as the daemon names it."""
        return str(self.status.get("title", "") or self.game)

    @property
    def screen_hints(self) -> Mapping[str, Any]:
        """The game's screen hints (its seats, hand setting, starting position, dice; the daemon's)."""
        hints = self.status.get("screen")
        return hints if isinstance(hints, Mapping) else _NO_VOCABULARY

    @property
    def round(self) -> Mapping[str, Any] | None:
        round_ = self.status.get("round")
        return round_ if isinstance(round_, Mapping) else None

    @property
    def round_id(self) -> str:
        return str(self.round.get("id", "")) if self.round else ""

    @property
    def betting(self) -> str:
        # The daemon journals ``lock_out`` with every round's no more bets (the atomic lock-out,
        # docs/authority.md): "locked out" beside a round past its lock-out is NO MORE BETS; only
        # a lock with no round, or on a round still open, is the table's own lock-out.
        locked = bool(self.status.get("locked_out"))
        if self.round is None:
            return Betting.TABLE_LOCKED if locked else Betting.NO_ROUND
        if self.round.get("no_more_bets"):
            return Betting.NO_MORE_BETS  # § 639a.2(c)(2), § 639a.7(c)
        return Betting.TABLE_LOCKED if locked else Betting.OPEN

    @property
    def open_for_bets(self) -> bool:
        return self.betting == Betting.OPEN

    @property
    def waiting_for(self) -> str:
        """The daemon's words for what the round waits for ("" when it can be settled)."""
        return str(self.round.get("waiting_for", "")) if self.round else ""

    @property
    def waiting(self) -> tuple[Mapping[str, Any], ...]:
        """What the round waits for, as the daemon's data (``round.waiting``: who, the step, the
        seat and hand); the screen steers by these, never by the words."""
        waiting = self.round.get("waiting", ()) if self.round else ()
        if not isinstance(waiting, list | tuple):
            return ()
        return tuple(w for w in waiting if isinstance(w, Mapping))

    @property
    def waiting_step(self) -> str:
        """The step the round waits for first (``"decision"``, ``"cards"``, ``"dice"``...; the
        daemon's :class:`~controller.rules.core.hooks.Step`), ``""`` when it waits for nothing."""
        return str(self.waiting[0].get("step", "")) if self.waiting else ""

    @property
    def waiting_seat(self) -> tuple[int, int] | None:
        """The seat (and split hand) the round waits for first, to preselect its buttons; not the
        Quarterback's seat at a throw (the dealer keeps choosing seats for the wagers)."""
        for item in self.waiting:
            seat = item.get("seat")
            if isinstance(seat, int) and item.get("step") != "dice":
                hand = item.get("hand")
                return seat, hand if isinstance(hand, int) else 0
        return None

    @property
    def limits(self) -> Mapping[str, tuple[Decimal | None, Decimal | None]]:
        """The table's minimum and maximum of each wager the dealer enters (the daemon's
        ``limits``, from the Rules Submission), by wager; a malformed one is a ``ValueError``."""
        found = self.status.get("limits")
        if not isinstance(found, Mapping):
            return {}
        out: dict[str, tuple[Decimal | None, Decimal | None]] = {}
        for name, both in found.items():
            if isinstance(both, Mapping):
                low, high = (both.get(k) for k in ("minimum", "maximum"))
                out[str(name)] = (
                    None if low is None else amount(low, f"status limits.{name}.minimum"),
                    None if high is None else amount(high, f"status limits.{name}.maximum"),
                )
        return out

    @property
    def open_decisions(self) -> frozenset[str] | None:
        """The decisions the rules take now, as the daemon lists them in ``round.waiting`` (a game
        that lists them: Blackjack); ``None`` when the daemon lists none (the screen offers the
        game's every decision and the rules refuse what they do not take)."""
        listed = [w["decisions"] for w in self.waiting if isinstance(w.get("decisions"), list)]
        if not listed:
            return None
        return frozenset(str(name) for names in listed for name in names)

    @property
    def totals(self) -> Mapping[tuple[str, int], str]:
        """Each hand's total as the daemon's game counts it (``round.totals``: Blackjack's soft
        and hard), by where the cards went and the hand."""
        found = self.round.get("totals", ()) if self.round else ()
        if not isinstance(found, list | tuple):
            return {}
        return {
            (str(t.get("to")), int(t.get("hand", 0))): str(t.get("total"))
            for t in found
            if isinstance(t, Mapping) and isinstance(t.get("total"), str)
        }

    @property
    def seats(self) -> tuple[SeatView, ...]:
        return seat_views(self.round.get("wagers", ())) if self.round else ()

    @property
    def house_way(self) -> tuple[HouseWayView, ...]:
        """The house way's settings the daemon gives now (§ 659a.11(a)(1), (c))."""
        return house_way_views(self.round.get("house_way", ())) if self.round else ()

    @property
    def wager_count(self) -> WagerCount:
        return wager_count(self.seats)

    @property
    def meter(self) -> MeterView:
        """The Progressive's meter (at a game of several, the first by name)."""
        pending = self.status.get("pending_payouts", ())
        return meter_view(
            self._meter_amounts, self.status.get("link", {}), pending, jackpots=self.jackpot_hands
        )

    @property
    def meters(self) -> tuple[MeterView, ...]:
        """Every meter by its own name, amount and state (Blackjack's Bad Beat, Hit and Run and
        Straight Jack), in the daemon's order."""
        pending = self.status.get("pending_payouts", ())
        return meter_views(self._meter_amounts, self.status.get("link", {}), pending, self.jackpot_hands)

    @property
    def _meter_amounts(self) -> Mapping[str, Any]:
        meters = self.round.get("meters", {}) if self.round else {}
        if not meters and self.status.get("last_rounds"):
            meters = (self.status["last_rounds"][0].get("settlement") or {}).get("meters", {})
        return meters if isinstance(meters, Mapping) else {}

    @property
    def jackpot_hands(self) -> tuple[Mapping[str, Any], ...]:
        """The hands dealt that make a row paid from a meter (``round.jackpot_hands``: seat,
        progressive, the hand's name), from the dealer's right: DO NOT MUCK, CALL THE FLOOR."""
        found = self.round.get("jackpot_hands", ()) if self.round else ()
        if not isinstance(found, list | tuple):
            return ()
        return tuple(j for j in found if isinstance(j, Mapping))

    @property
    def hands(self) -> tuple[Hand, ...]:
        return self.seen.hands() if self.seen else ()

    @property
    def entered(self) -> tuple[str, ...]:
        return self.seen.decisions() if self.seen else ()

    @property
    def last_round_hands(self) -> tuple[Hand, ...]:
        """The cards of the round just settled, if this screen saw them (the hand replay)."""
        return self.previous.hands() if self.previous else ()

    @property
    def hands_on_screen(self) -> tuple[Hand, ...]:
        """This round's cards; until its first card, the last round's (the hand replay)."""
        return self.hands if self.hands or not self.last_round_hands else self.last_round_hands

    @property
    def last_round_entered(self) -> tuple[str, ...]:
        return self.previous.decisions() if self.previous else ()

    @property
    def unseen_events(self) -> int:
        """Events of this round journaled before the screen subscribed (their cards are shown from
        the snapshot; the decisions among them are not listed)."""
        if self.round is None:
            return 0
        seen = len(self.seen.events) if self.seen else 0
        return max(0, int(self.round.get("events", 0)) - seen)

    @property
    def pending_payouts(self) -> tuple[Mapping[str, Any], ...]:
        return tuple(self.status.get("pending_payouts", ()))

    @property
    def settlement(self) -> SettlementView | None:
        """The last round's settlement, while it is the dealer's business: until the next round's
        first event, and for as long as a payout of it waits for a floorperson."""
        last = self.status.get("last_rounds") or ()
        if not last:
            return None
        view = settlement_view(last[0], self.pending_payouts)
        if view is None:
            return None
        # The events the table carried into the round (the poker room's button) are not the dealer's.
        begun = int(self.round.get("events", 0)) > int(self.round.get("carried", 0)) if self.round else False
        if begun and view.can_close:
            return None
        return view

    @property
    def devices(self) -> Mapping[str, Mapping[str, Any]]:
        devices = self.status.get("devices", {})
        return devices if isinstance(devices, Mapping) else {}

    @property
    def devices_out_of_order(self) -> tuple[str, ...]:
        """§ 639a.13(g): the devices offline or faulted, and those a floorperson declared out of order."""
        declared = self.out_of_order
        offline = [name for name, d in self.devices.items() if not d.get("online") and name not in declared]
        return (*offline, *declared)

    @property
    def out_of_order(self) -> Mapping[str, Any]:
        """The devices a floorperson or technician declared out of order (device -> who, why)."""
        declared = self.status.get("out_of_order", {})
        return declared if isinstance(declared, Mapping) else {}

    @property
    def keying_by_hand(self) -> str | None:
        """The daemon's words for why cards may be keyed by hand now; ``None`` while the shoe deals
        them (§ 639a.13(g)): the daemon decides, the screen only offers its keypad then."""
        why = self.status.get("keying_by_hand")
        return str(why) if why else None

    @property
    def may_settle(self) -> bool:
        """The round is complete but a player may still decide (Asia Poker's surrender,
        § 659a.11(d)): the status's ``round.waiting`` names the dealer's ``settle_round``."""
        waiting = self.round.get("waiting", ()) if self.round else ()
        return any(isinstance(w, Mapping) and w.get("command") == "settle_round" for w in waiting)

    @property
    def floor_to_confirm(self) -> str:
        """The irregularity reported (by the dealer or a device) that the round waits on a
        floorperson to confirm or dismiss (docs/authority.md), "" if none: the status's
        ``round.waiting`` item for the floorperson that names it."""
        waiting = self.round.get("waiting", ()) if self.round else ()
        found = (w for w in waiting if isinstance(w, Mapping) and w.get("who") == "floorperson")
        return next((str(w["irregularity"]) for w in found if w.get("irregularity")), "")
