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
  § 659a.11(a)(1)).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class Waiting:
    """One thing a round waits for: who must act, on what, citing the section."""

    who: Actor
    what: str
    """In words, as the refusals say it: ``"seat 2's decision, bet or fold (§ 639a.11(b))"``."""
    section: str = ""
    """The section the step follows; ``""`` where the words carry no rule (a wager not yet made)."""
    seat: int | None = None
    """The seat that must act (a player) or whose cards are awaited; ``None`` for the table."""

    def __str__(self) -> str:
        return self.what

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"who": str(self.who), "what": self.what}
        if self.section:
            out["section"] = self.section
        if self.seat is not None:
            out["seat"] = self.seat
        return out


def in_words(waiting: Iterable[Waiting]) -> str:
    """``"a; b"``: what a round waits for, in words; ``""`` when it can be settled."""
    return "; ".join(w.what for w in waiting)


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
