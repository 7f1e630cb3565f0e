"""What a game declares beside its events, as data: what a round waits for, its progressives,
the devices its table needs.

Every :class:`~.engine.Game` answers these (:class:`~.engine.GameBase` gives the defaults), so the
daemon, the journal and the bench rig learn them from the game, not from attribute names or the
text of an :class:`~.engine.IllegalEvent`:

- :meth:`~.engine.Game.waiting_for` gives :class:`Waiting` items: who must act (:class:`Actor`),
  on what, citing the section; none when the round can be settled;
- :meth:`~.engine.Game.progressives` gives a :class:`Progressive` for each progressive wager the
  Rules Submission offers (§ 601a.2): its name, whether a sensor counts it, its wager, its meter's
  initial and reset amounts, its rate of progression, the paytable rows that pay a share of the
  meter;
- :meth:`~.engine.Game.devices` gives the :class:`Devices` the table needs (a dealing shoe that
  reads the cards, an automated card shuffling device, a hole-card reader);
- :meth:`~.engine.Game.vocabulary` gives the game's :class:`Vocabulary`: the wagers the dealer
  enters, the decisions, the irregularities a dealer reports, each a :class:`Term` (the wire's
  name, the dealer's words, the section), which the dealer's screen draws (over the local API);
- :meth:`~.engine.Game.house_way` gives a :class:`HouseWaySetting` for each place whose hands the
  house way sets now (Asia Poker's dealer, § 659a.11(c); a player who asked for help,
  § 659a.11(a)(1));
- :meth:`~.engine.Game.screen` gives the :class:`Screen` hints the dealer's screen lays the game
  out by (its seats, whether hands are set, how the starting position is given, whether throws
  are entered), and :meth:`~.engine.Game.faults` the :class:`Faults`: which irregularity a
  device's fault mid-round is at this game.

Each :class:`Waiting` carries its :class:`Step`, the machine-readable kind of what is awaited:
the screen steers by the step, never by the words (rewording a message changes nothing it shows).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

from .money import Cents, MeterShare


class Actor(StrEnum):
    """Who must act before a round goes on."""

    DEALER = "dealer"
    """The dealer: "no more bets", a starting position, the dealer's own decision or setting."""
    PLAYER = "player"
    """The player at :attr:`Waiting.seat`: a decision, a setting, a choice after an irregularity."""
    SHOE = "shoe"
    """The cards (or the dice): the dealing shoe, or the dealer dealing by hand."""
    READER = "reader"
    """The hole-card reader (Blackjack, § 633a.7(h))."""
    METER = "meter"
    """The progressive meter as it stands: the progressive link, or the dealer's ``meter`` event."""
    FLOORPERSON = "floorperson"
    """A floorperson (a verification the rules make before the round goes on)."""


class Step(StrEnum):
    """What kind of thing a round waits for, as data (the screen picks its panel by it)."""

    BETS = "bets"
    """Wagers, then the dealer's "no more bets" (a wager still to be made, § 639a.7(c))."""
    STARTING_POSITION = "starting_position"
    """The starting position as a number (a random number generator's, the button's, § 659a.5(g)(2), (3))."""
    DICE = "dice"
    """Dice thrown: Three Dice Football's throw, Asia Poker's shaker (§ 659a.5(g)(1))."""
    CARDS = "cards"
    """Cards dealt (by the shoe, or keyed by hand)."""
    DECISION = "decision"
    """A player's decision: bet or fold, play, hit or stand, surrender, accept the dice."""
    SETTING_HANDS = "setting_hands"
    """Hands to be set (Asia Poker, § 659a.10): a player's, or the dealer's by the house way."""
    READER = "reader"
    """The hole-card reader's answer (§ 633a.7(h))."""
    METER = "meter"
    """A progressive meter as it stands (the link, or the dealer's ``meter`` event)."""
    FLOORPERSON = "floorperson"
    """A floorperson's PIN (a reported irregularity to confirm or dismiss)."""
    SETTLE = "settle"
    """The dealer's ``settle_round``: complete, while players may still decide (§ 659a.11(d))."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """One thing a round waits for: who must act, on what (:class:`Step`), citing the section."""

    who: Actor
    what: str
    """In words, as the refusals say it: ``"seat 2's decision, bet or fold (§ 639a.11(b))"``."""
    section: str = ""
    """The section the step follows; ``""`` where the words carry no rule (a wager not yet made)."""
    seat: int | None = None
    """The seat that must act (a player) or whose cards are awaited; ``None`` for the table."""
    step: Step = field(kw_only=True)
    """What kind of thing is awaited: the data the screen steers by."""
    hand: int | None = field(default=None, kw_only=True)
    """Which hand of :attr:`seat` (a Blackjack seat that split pairs holds several); ``None``: its one."""
    decisions: tuple[str, ...] | None = field(default=None, kw_only=True)
    """The decisions the rules take now, by their names in events (Blackjack's ``hit``,
    ``stand``...; ``()``: none at this step); ``None``: the game does not list them (the screen
    offers its every decision and the rules refuse what they do not take)."""

    def __str__(self) -> str:
        return self.what

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"who": str(self.who), "step": str(self.step), "what": self.what}
        if self.section:
            out["section"] = self.section
        if self.seat is not None:
            out["seat"] = self.seat
        if self.hand is not None:
            out["hand"] = self.hand
        if self.decisions is not None:
            out["decisions"] = list(self.decisions)
        if self.step is Step.SETTLE:
            out["command"] = "settle_round"
        return out


def in_words(waiting: Iterable[Waiting]) -> str:
    """``"a; b"``: what a round waits for, in words; ``""`` when it can be settled."""
    return "; ".join(w.what for w in waiting)


@dataclass(frozen=True, slots=True)
class HandTotal:
    """A hand's total as the game counts it, for the dealer's screen beside its cards: Blackjack's
    ``"soft 17"``, ``"hard 16"``, ``"blackjack"``, ``"bust (24)"`` (§ 633a.1)."""

    to: str
    """``"dealer"`` or the seat's number, as a ``cards`` event says where cards go."""
    hand: int
    """Which hand of the seat (``0``: its one, or the first of a split)."""
    total: str

    def to_json(self) -> dict[str, object]:
        return {"to": self.to, "hand": self.hand, "total": self.total}


@dataclass(frozen=True, slots=True)
class JackpotHand:
    """A hand dealt that makes a progressive paytable's row paid from the meter, known the moment
    its cards are: the dealer does not muck it and calls the floor before the meter's award comes
    (the payout is not from the table inventory, § 639a.11(c)(5)(iii), (iv))."""

    seat: int
    wager: str
    """The progressive wager's name, which is also its meter's (``"progressive"``)."""
    hand: str
    """The paytable's row: ``"royal flush"``."""
    award: str
    """The row's award as the paytable writes it: ``"100% of meter"``."""
    section: str

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "wager": self.wager,
            "hand": self.hand,
            "award": self.award,
            "section": self.section,
        }


@dataclass(frozen=True, slots=True)
class Progressive:
    """One progressive wager a Rules Submission offers, as the game declares it."""

    name: str
    """The wager's name in events and settlements, which is also its meter's name in ``meters``."""
    title: str
    """``"Progressive Payout Wager"``, ``"Bad Beat Progressive Wager"``."""
    section: str
    """Where the text offers the wager."""
    sensor: bool
    """Whether a sensor of the Progressive Table Game System counts it (one chip, one wager)."""
    wager: Cents | None
    """The amount one wager is (what the table records for each chip a sensor takes); ``None``
    when the player wagers any amount within the table's limits."""
    initial: Cents | None
    """The meter's initial amount: what a table's first round begins with."""
    reset: Cents | None
    """The meter's reset amount: where a 100% award leaves the meter (a smaller share may leave
    it below, § 639a.12(d)(4))."""
    rate_of_progression: str | None
    """The percent of each wager the central meter adds (``"18%"``), as the submission writes it."""
    meter_rows: tuple[str, ...]
    """The paytable rows that pay a share of the meter (``"royal flush"``), in the paytable's order."""


@dataclass(frozen=True, slots=True)
class Term:
    """One word of a game's vocabulary: the name events use, the dealer's words, the section."""

    name: str
    title: str
    section: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "title": self.title, "section": self.section}


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """What the dealer's screen offers at a game: the wagers the dealer enters (never a
    sensor-counted progressive wager, § 639a.8(b)), the players' decisions, and the irregularities
    a dealer reports. The rules core accepts or refuses each; the screen only offers."""

    wagers: tuple[Term, ...] = ()
    decisions: tuple[Term, ...] = ()
    irregularities: tuple[Term, ...] = ()

    def to_json(self) -> dict[str, list[dict[str, str]]]:
        return {
            "wagers": [t.to_json() for t in self.wagers],
            "decisions": [t.to_json() for t in self.decisions],
            "irregularities": [t.to_json() for t in self.irregularities],
        }


def reported(table: Mapping[str, str], *kinds: tuple[str, str]) -> tuple[Term, ...]:
    """The irregularities a dealer reports, ``(kind, title)`` each, with the section the game's
    irregularity table gives the kind (a kind missing from it is a ``KeyError``: a typo)."""
    return tuple(Term(kind, title, table[kind]) for kind, title in kinds)


@dataclass(frozen=True, slots=True)
class HouseWaySetting:
    """The house way's setting of one place's cards: the dealer's hands as the dealer sets them
    (§ 659a.11(c)), or what the dealer tells a player who asked for help (§ 659a.11(a)(1))."""

    to: str
    """``"dealer"`` or the seat's number, as a ``cards`` event says where cards go."""
    cards: str
    """The hands high to low as a ``set`` decision writes them: ``"As Ad 7c 3s / Ks Kd / Qh"``."""
    section: str

    def to_json(self) -> dict[str, object]:
        # "cards": withheld from a peer with no role like every card (controller/api/face_down.py).
        return {"to": self.to, "cards": self.cards, "section": self.section}


K = TypeVar("K")


def initial_meters(progressives: Iterable[Progressive]) -> dict[str, Cents]:
    """The meters a table's first round begins with: each progressive's initial amount."""
    return {p.name: p.initial for p in progressives if p.initial is not None}


def meter_rows(table: Mapping[K, object], name: Callable[[K], str] = str) -> tuple[str, ...]:
    """The rows of a paytable whose award is a share of the meter, each named by ``name``."""
    return tuple(name(row) for row, award in table.items() if isinstance(award, MeterShare))


@dataclass(frozen=True, slots=True)
class Devices:
    """The devices a table of the game needs, by its Rules Submission."""

    shoe: bool = False
    """A dealing shoe that reads the cards it deals (the daemon's ``[shoe]``)."""
    shuffler: bool = False
    """An automated card shuffling device (the daemon's ``[shuffler]``)."""
    hole_card_reader: bool = False
    """A hole-card reader that tells whether the dealer holds a Blackjack (the daemon's ``[reader]``)."""
    section: str = ""
    """Where the text requires them."""
    burns: bool = False
    """The shoe's burn card is an event of the round (``cards`` to ``burn``: the poker room's burn
    before each draw and each part of the board, § 637a.19(h)-(j)); otherwise the table does not
    journal it."""

    @classmethod
    def for_cards(cls, shuffler: str, dealing: str, section: str) -> Devices:
        """The devices of a card game whose Rules Submission says how it shuffles (``"automated"``
        or ``"manual"``) and deals (``"automated shoe"``, ``"manual shoe"`` or ``"hand"``)."""
        return cls(shoe=dealing == "automated shoe", shuffler=shuffler == "automated", section=section)

    @property
    def names(self) -> tuple[str, ...]:
        """The daemon's names of the devices needed: ``("shoe", "shuffler", "reader")``."""
        needed = (("shoe", self.shoe), ("shuffler", self.shuffler), ("reader", self.hole_card_reader))
        return tuple(name for name, yes in needed if yes)


@dataclass(frozen=True, slots=True)
class Screen:
    """How the dealer's screen lays a game out, as the game declares it (the screen keeps no copy
    of any game's knowledge): the seats offered, whether players' hands are set, how the
    starting position may be given, whether throws are entered."""

    seats: int = 0
    """The betting positions the screen offers (seat 1 to ``seats``); ``0``: a game the dealer's
    screen does not deal."""
    sets_hands: bool = False
    """Players set their cards into hands (Asia Poker's high, medium and low, § 659a.10)."""
    start: tuple[str, ...] = ()
    """How the starting position may be given, by the Rules Submission (§ 659a.5(g)): ``"dice"``
    (the shaker's), ``"position"`` (a number 1-7, a random number generator's or the button's)."""
    dice_game: bool = False
    """Throws of dice are entered (Three Dice Football)."""

    def to_json(self) -> dict[str, object]:
        return {
            "seats": self.seats,
            "sets_hands": self.sets_hands,
            "start": list(self.start),
            "dice_game": self.dice_game,
        }


@dataclass(frozen=True, slots=True)
class Faults:
    """The irregularity a device's fault mid-round is at a game (docs/serial-protocols.md): the
    game's own word, which its rules then accept or refuse."""

    shoe: str = "shoe_jam"
    shuffler: str = "shuffler_jam"
    reader: str = "card_reader_malfunction"

    def of(self, device: str) -> str | None:
        """The irregularity of ``device``'s fault (``"shoe"``, ``"shuffler"``, ``"reader"``); ``None``
        for a device whose fault is no irregularity of the game."""
        return {"shoe": self.shoe, "shuffler": self.shuffler, "reader": self.reader}.get(device)
