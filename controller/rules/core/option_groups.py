"""Option groups of the Rules Submission schema: the options every side wager and every
progressive has, declared once and named alike in every game.

A side wager's options are ``<key>.offered``, ``<key>.paytable`` and ``<key>.minimum``; a
progressive's add ``<key>.wager`` (the chip one wager is), ``<key>.initial`` and ``<key>.reset``
(its meter) and ``<key>.rate_of_progression``. A game declares the group once, then each field
from it with the parts that are the game's own (the paytable's parser, a regulatory minimum, the
section)::

    PROGRESSIVE = ProgressiveOptions("progressive", "Progressive Payout Wager", "§ 639a.7(d)(2)")

    @dataclass(frozen=True)
    class CaribbeanStudRules:
        progressive_offered: bool = PROGRESSIVE.offered()
        progressive_reset: Cents = PROGRESSIVE.reset("10000.00", section="§ 639a.12(d)(3)",
                                                     minimum=MINIMUM_METER, minimum_rule=METER_RULE)

The keys are those the TOML files have always used; :func:`~.options.load_rules` reads the
fields as any other option.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .money import Cents
from .options import Parser, boolean, choice, money, option, rate_of_progression


@dataclass(frozen=True, slots=True)
class SideWagerOptions:
    """The options of an optional wager: whether it is offered, its paytable, its minimum."""

    key: str
    """The wager's table in the submission: ``"bonus"`` for ``bonus.offered``."""
    title: str
    """``"Caribbean Stud Bonus Wager"``: how the help names it."""
    section: str
    """Where the text makes the wager optional (the section of ``<key>.offered``)."""

    def offered(self, default: bool = False) -> Any:
        """``<key>.offered``: whether the table offers the wager."""
        return option(
            f"{self.key}.offered",
            boolean,
            default,
            section=self.section,
            help=f"whether the {self.title} is offered",
        )

    def paytable(self, parse: Parser, default: object, *, section: str, help: str = "") -> Any:
        """``<key>.paytable``: the paytable selected (a letter) or written out (a table of rows)."""
        return option(
            f"{self.key}.paytable",
            parse,
            default,
            section=section,
            help=help or f"the {self.title}'s paytable",
        )

    def minimum(self, default: str = "1.00", *, section: str) -> Any:
        """``<key>.minimum``: the table's minimum wager, at least one cent."""
        return option(
            f"{self.key}.minimum",
            money(1, "one cent"),
            default,
            section=section,
            help=f"the table's minimum {self.title}",
        )


@dataclass(frozen=True, slots=True)
class ProgressiveOptions(SideWagerOptions):
    """A progressive wager's options: a side wager's, and its chip, its meter and its rate."""

    def wager(self, default: str = "1.00", *, section: str) -> Any:
        """``<key>.wager``: the value chip one wager is, where a sensor counts the chips."""
        return option(
            f"{self.key}.wager",
            money(1, "one cent"),
            default,
            section=section,
            help=f"the value chip one {self.title} is: what the table records for each chip its "
            "wagering device accepts",
        )

    def initial(
        self, default: str | None, *, section: str, minimum: Cents | None = None, minimum_rule: str = ""
    ) -> Any:
        """``<key>.initial``: the meter's initial amount (``default`` ``None``: optional, absent)."""
        return self._meter("initial", default, section, minimum, minimum_rule)

    def reset(
        self, default: str | None, *, section: str, minimum: Cents | None = None, minimum_rule: str = ""
    ) -> Any:
        """``<key>.reset``: the meter's reset amount, where a 100% award leaves it; a smaller share
        may leave it below (§ 639a.12(d)(4))."""
        return self._meter("reset", default, section, minimum, minimum_rule)

    def share_returns_wager(self, default: bool, *, section: str) -> Any:
        """``<key>.meter_share_returns_wager``: whether a winning share of the meter ("10% of meter")
        returns the wager beside it (as odds "to 1" do) or includes it (as odds "for 1" do). Only
        where the paytable is the Rules Submission's and its text does not say
        (docs/games/caribbean-stud.md, "A share of the meter and the wager")."""
        return option(
            f"{self.key}.meter_share_returns_wager",
            boolean,
            default,
            section=section,
            help=f"whether a {self.title} won as a share of the meter returns the wager beside it "
            "(true) or includes it (false)",
        )

    def rate(self, *, section: str) -> Any:
        """``<key>.rate_of_progression``: the percent of each wager the central meter adds."""
        return option(
            f"{self.key}.rate_of_progression",
            rate_of_progression,
            None,
            section=section,
            help=f"percent of each {self.title} added to the meter",
        )

    def _meter(
        self, which: str, default: str | None, section: str, minimum: Cents | None, minimum_rule: str
    ) -> Any:
        parse = money(minimum, minimum_rule, optional=default is None)
        return option(
            f"{self.key}.{which}", parse, default, section=section, help=f"the meter's {which} amount"
        )


SHUFFLERS: Final = ("automated", "manual")
"""How the cards are shuffled: by an automated card shuffling device, or by hand."""
DEALING: Final = ("manual shoe", "hand", "automated shoe")
"""How the cards are dealt: from a manual dealing shoe, from the dealer's hand, from an automated
dealing shoe. The chapters of the house-banked poker games give each its section: ``.8``, ``.9``
and ``.10`` (§ 639a.8-639a.10, § 647a.8-647a.10, § 659a.8-659a.10)."""


@dataclass(frozen=True, slots=True)
class CardHandlingOptions:
    """How a table of a chapter that lets it choose shuffles and deals its cards: ``shuffler``
    (§ 6xxa.5(a)) and ``dealing`` (§ 6xxa.8, .9, .10), the same options in each such chapter."""

    chapter: str
    """``"639a"``: the sections are that chapter's."""

    def shuffler(self) -> Any:
        return option(
            "shuffler",
            choice(*SHUFFLERS),
            "automated",
            section=f"§ {self.chapter}.5(a)",
            help="how the cards are shuffled: by an automated card shuffling device or by hand",
        )

    def dealing(self) -> Any:
        ch = self.chapter
        return option(
            "dealing",
            choice(*DEALING),
            "manual shoe",
            section=f"§ {ch}.8, § {ch}.9, § {ch}.10",
            help="dealt from a manual dealing shoe, from the hand or from an automated dealing shoe",
        )
