"""Fortune Asia Poker's Rules Submission (ch. 659a, § 659a.11 as amended, § 601a.2): the example
paytables, the Fortune Bonus, Envy, Insurance and Progressive options, and the checks between
them (the paytables, the payout limit of § 659a.12(c)). The game is :mod:`.game`;
docs/games/asia-poker.md lists every option."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from ...core.dispatch import did_you_mean
from ...core.money import Award, Cents, MeterShare, MoneyError, Odds, format_money, parse_money
from ...core.option_groups import ProgressiveOptions, SideWagerOptions
from ...core.options import OptionError, choice, money, option, paytable
from ...rankings.fortune import (
    FIVE_ACES,
    FLUSH,
    FORTUNE_HANDS,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    INSURANCE_HANDS,
    NATURAL_STRAIGHT_FLUSH,
    PROGRESSIVE_HANDS,
    ROYAL_FLUSH,
    SEVEN_CARD_STRAIGHT_FLUSH,
    SEVEN_CARD_STRAIGHT_FLUSH_WITH_A_JOKER,
    STRAIGHT,
    STRAIGHT_FLUSH_WITH_A_JOKER,
    THREE_OF_A_KIND,
    THREE_PAIR,
)
from ..asia_poker.game import AsiaTableRules, check_equipment, limit_problems

# --- the Rules Submission -------------------------------------------------------------------

FORTUNE_BONUS_EXAMPLE: Final = {
    SEVEN_CARD_STRAIGHT_FLUSH: "8,000 to 1",
    SEVEN_CARD_STRAIGHT_FLUSH_WITH_A_JOKER: "1,000 to 1",
    FIVE_ACES: "400 to 1",
    ROYAL_FLUSH: "150 to 1",
    NATURAL_STRAIGHT_FLUSH: "50 to 1",
    STRAIGHT_FLUSH_WITH_A_JOKER: "50 to 1",
    FOUR_OF_A_KIND: "25 to 1",
    FULL_HOUSE: "5 to 1",
    FLUSH: "4 to 1",
    THREE_OF_A_KIND: "3 to 1",
    STRAIGHT: "2 to 1",
    THREE_PAIR: "none",
}
"""Example Fortune Bonus paytable (modelled on published Fortune Pai Gow Poker tables; not certified)."""

ENVY_EXAMPLE: Final = {
    SEVEN_CARD_STRAIGHT_FLUSH: "5000.00",
    SEVEN_CARD_STRAIGHT_FLUSH_WITH_A_JOKER: "500.00",
    FIVE_ACES: "250.00",
    ROYAL_FLUSH: "50.00",
    NATURAL_STRAIGHT_FLUSH: "20.00",
    STRAIGHT_FLUSH_WITH_A_JOKER: "20.00",
    FOUR_OF_A_KIND: "5.00",
}
"""Example Envy Bonus amounts, four-of-a-kind or better (published Fortune Pai Gow Poker values)."""

INSURANCE_EXAMPLE: Final = {
    "ace-high": "1 to 1",
    "king-high": "3 to 1",
    "queen-high": "4 to 1",
    "jack-high": "10 to 1",
    "10-high": "25 to 1",
    "9-high": "100 to 1",
}
"""Example Insurance paytable (illustrative values, not from a certified paytable)."""

PROGRESSIVE_EXAMPLE: Final = {
    SEVEN_CARD_STRAIGHT_FLUSH: "100% of meter",
    SEVEN_CARD_STRAIGHT_FLUSH_WITH_A_JOKER: "10% of meter",
    FIVE_ACES: "500 for 1",
    ROYAL_FLUSH: "250 for 1",
    NATURAL_STRAIGHT_FLUSH: "50 for 1",
    STRAIGHT_FLUSH_WITH_A_JOKER: "50 for 1",
    FOUR_OF_A_KIND: "25 for 1",
    FULL_HOUSE: "5 for 1",
}
"""Example Progressive paytable (illustrative values, not from a certified paytable)."""


def envy_amounts(rows: Iterable[str]) -> Callable[[object], Mapping[str, str | None]]:
    """Envy Bonus amounts, ``{hand = "5000.00", ...}``: fixed sums, not odds; a row left out pays none.

    The amounts are kept as money text (``"5000.00"``), so the rules write back
    to the same file (``rules_to_mapping``); :func:`envy_amount` reads one.
    """
    names = tuple(rows)

    def parse(raw: object) -> Mapping[str, str | None]:
        if not isinstance(raw, Mapping):
            raise OptionError(f"must be a table of hand = amount for hands among {', '.join(names)}")
        bad = [k for k in raw if k not in names]
        if bad:
            hint = did_you_mean(str(bad[0]), names, 0.5)
            raise OptionError(f"has no hand {bad[0]!r}{hint} (hands: {', '.join(names)})")
        out: dict[str, str | None] = {}
        for n in names:
            v = raw.get(n, "none")
            if v == "none":
                out[n] = None
                continue
            if not isinstance(v, str):
                raise OptionError(f'{n} = {v!r}: write an amount such as "500.00"')
            try:
                cents = parse_money(v, n)
            except MoneyError as exc:
                raise OptionError(str(exc)) from None
            out[n] = format_money(cents) if cents else None
        return MappingProxyType(out)

    return parse


FORTUNE_BONUS_OPTIONS: Final = SideWagerOptions("fortune_bonus", "Fortune Bonus Wager", "§ 659a.7(e)")
INSURANCE_OPTIONS: Final = SideWagerOptions("insurance", "Insurance Wager", "§ 659a.7(e)")
PROGRESSIVE_OPTIONS: Final = ProgressiveOptions("progressive", "Progressive Payout Wager", "§ 659a.7(e)")


@dataclass(frozen=True)
class FortuneAsiaPokerRules(AsiaTableRules):
    """The Rules Submission of a Fortune Asia Poker table (ch. 659a, § 659a.11 as amended)."""

    fortune_asia_poker_minimum: Cents = option(
        "fortune_asia_poker.minimum",
        money(1, "one cent"),
        "5.00",
        section="§ 659a.12(c)",
        help="the table's minimum Fortune Asia Poker Wager",
    )
    fortune_bonus_offered: bool = FORTUNE_BONUS_OPTIONS.offered()
    fortune_bonus_paytable: Mapping[str, Award | None] = FORTUNE_BONUS_OPTIONS.paytable(
        paytable(FORTUNE_HANDS),
        FORTUNE_BONUS_EXAMPLE,
        section="§ 659a.11(h)(1), § 659a.12(b)",
        help="odds per Fortune hand; three pair may be 'none' (then a straight or higher wins)",
    )
    fortune_bonus_minimum: Cents = FORTUNE_BONUS_OPTIONS.minimum(section="§ 659a.12(c)")
    envy_qualifying_hand: str = option(
        "envy.qualifying_hand",
        choice(*FORTUNE_HANDS),
        FOUR_OF_A_KIND,
        section="§ 659a.11(h)(1)(i)(B), (C)",
        help="the least Envy Bonus Qualifying Hand (that hand or better)",
    )
    envy_paytable: Mapping[str, str | None] = option(
        "envy.paytable",
        envy_amounts(FORTUNE_HANDS),
        ENVY_EXAMPLE,
        section="§ 659a.11(h)(1)(ii), § 659a.12(b)",
        help="the Envy Bonus paid per qualifying hand of another player, a fixed sum",
    )

    def envy_amount(self, row: str) -> Cents:
        """The Envy Bonus for another player's ``row`` (0: none)."""
        text = self.envy_paytable[row]
        return parse_money(text) if text else 0

    envy_qualifying_wager: Cents = option(
        "envy.qualifying_wager",
        money(1, "one cent"),
        "5.00",
        section="§ 659a.11(h)(1)",
        help="the least Fortune Bonus or Progressive Payout Wager that is a Qualifying Wager (Envy lammer)",
    )
    insurance_offered: bool = INSURANCE_OPTIONS.offered()
    insurance_paytable: Mapping[str, Award | None] = INSURANCE_OPTIONS.paytable(
        paytable(INSURANCE_HANDS),
        INSURANCE_EXAMPLE,
        section="§ 659a.11(h)(2), § 659a.12(c)",
        help="odds per highest card of a hand with no pair or better",
    )
    insurance_minimum: Cents = INSURANCE_OPTIONS.minimum(section="§ 659a.12(c)")
    progressive_offered: bool = PROGRESSIVE_OPTIONS.offered()
    progressive_paytable: Mapping[str, Award | None] = PROGRESSIVE_OPTIONS.paytable(
        paytable(PROGRESSIVE_HANDS),
        PROGRESSIVE_EXAMPLE,
        section="§ 659a.11(h)(3), § 659a.12(d)",
        help="odds or a share of the meter per hand, full house or better",
    )
    progressive_wager: Cents = PROGRESSIVE_OPTIONS.wager(section="§ 659a.7(e), § 605a.7")
    progressive_reset: Cents = PROGRESSIVE_OPTIONS.reset(
        "10000.00", section="§ 659a.12(d)", minimum=1, minimum_rule="one cent"
    )
    """The text gives the meter this amount only: a table's first round begins with it too."""
    progressive_rate: str | None = PROGRESSIVE_OPTIONS.rate(section="§ 659a.12(d), § 601a.2")
    """The text of § 659a.12(d) we have gives no rate of progression; the central meter applies
    one, so it is the Rules Submission's (§ 601a.2, as § 639a.12(d)(3) says of Caribbean Stud).
    Optional at a table whose meter is not linked; a linked table must give it
    (:func:`controller.link.submission.link_problems`)."""
    progressive_share_returns_wager: bool = PROGRESSIVE_OPTIONS.share_returns_wager(
        True, section="§ 659a.11(h)(3)(ii), § 659a.12(d) (not in our copy)"
    )


def _odds_only(rules_key: str, table: Mapping[str, Award | None]) -> Iterable[str]:
    for row, award in table.items():
        if isinstance(award, MeterShare):
            yield (
                f"{rules_key} {row} = {award}: a share of the meter is paid only on the Progressive Payout "
                "Wager (§ 659a.11(h)(3)(ii)(D))"
            )


def check_paytables(rules: FortuneAsiaPokerRules) -> Iterable[str]:
    """Each wager pays the hands the text says it pays, and only odds except on the Progressive."""
    yield from _odds_only("fortune_bonus.paytable", rules.fortune_bonus_paytable)
    yield from _odds_only("insurance.paytable", rules.insurance_paytable)
    unpaid = [
        r
        for r in FORTUNE_HANDS[: FORTUNE_HANDS.index(STRAIGHT) + 1]
        if rules.fortune_bonus_paytable[r] is None
    ]
    if unpaid:
        yield (
            f"fortune_bonus.paytable pays nothing on {', '.join(unpaid)}: the Fortune Bonus Wager wins with "
            '"a straight or higher" (§ 659a.11(h)(1)(i)(B))'
        )
    unpaid = [r for r in INSURANCE_HANDS if rules.insurance_paytable[r] is None]
    if unpaid:
        yield (
            f"insurance.paytable pays nothing on {', '.join(unpaid)}: the Insurance Wager wins with no "
            "pair but "
            '"a 9-high or better" (§ 659a.11(h)(2)(ii))'
        )
    unpaid = [r for r in PROGRESSIVE_HANDS if rules.progressive_paytable[r] is None]
    if unpaid:
        yield (
            f"progressive.paytable pays nothing on {', '.join(unpaid)}: the Progressive Payout Wager "
            'wins with "a full house or better" (§ 659a.11(h)(3)(ii))'
        )
    q = FORTUNE_HANDS.index(rules.envy_qualifying_hand)
    missing = [r for r in FORTUNE_HANDS[: q + 1] if not rules.envy_paytable[r]]
    if missing:
        yield (
            f"envy.paytable has no amount for {', '.join(missing)}, an Envy Bonus Qualifying Hand "
            f"({rules.envy_qualifying_hand} or better, § 659a.11(h)(1)(ii))"
        )
    extra = [r for r in FORTUNE_HANDS[q + 1 :] if rules.envy_paytable[r] is not None]
    if extra:
        yield (
            f"envy.paytable pays {', '.join(extra)}, below the Envy Bonus Qualifying Hand "
            f"({rules.envy_qualifying_hand}); raise envy.qualifying_hand or take those rows out"
        )


def _top(table: Mapping[str, Award | None]) -> Odds:
    odds = [a for a in table.values() if isinstance(a, Odds)]
    return max(odds, key=lambda o: o.pays / o.per)


def most_one_player_wins(rules: FortuneAsiaPokerRules) -> Cents:
    """The most one player could win per round betting the minimum wagers (§ 659a.12(c)).

    The Fortune Asia Poker Wager at 1 to 1, and where offered the Fortune Bonus
    and Insurance Wagers at their highest odds; twice that with two adjacent
    betting areas. Progressive payouts and Envy Bonuses are not payouts on the
    wager of one hand at odds, and are left out (docs/games/asia-poker.md).
    """
    one = rules.fortune_asia_poker_minimum
    if rules.fortune_bonus_offered:
        one += _top(rules.fortune_bonus_paytable).net(rules.fortune_bonus_minimum)
    if rules.insurance_offered:
        one += _top(rules.insurance_paytable).net(rules.insurance_minimum)
    return 2 * one if rules.adjacent_betting_areas else one


def check_payout_limit(rules: FortuneAsiaPokerRules) -> Iterable[str]:
    """§ 659a.12(c): the limit is at least $50,000 and what one player could win betting the minimum."""
    yield from limit_problems(rules, most_one_player_wins(rules))


FORTUNE_RULES_CHECKS: Final[tuple[Callable[[Any], Iterable[str]], ...]] = (
    check_paytables,
    check_payout_limit,
    check_equipment,
)
