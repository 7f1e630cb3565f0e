"""Three Card Poker's words and Rules Submission (ch. 649a, § 601a.2): the wagers, the sections
the game cites, the paytables the certificate holder writes out, the Six Card Bonus and the
mini-royal flush options, and the checks between them. The game is :mod:`.game`;
docs/games/three-card-poker.md lists every option."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from ...core.money import Award, Cents, Odds
from ...core.option_groups import SideWagerOptions
from ...core.options import boolean, choice, integer, odds, option, paytable
from ...core.payout_limit import payout_limit_option
from ...rankings.three_card import (
    MINI_ROYAL_FLUSH,
    SIX_CARD_BONUS_HANDS,
    SUPER_ROYAL_NAME,
    THREE_CARD_CATEGORY_NAMES,
)

# --- wagers and the words of the text --------------------------------------------------------

ANTE: Final = "ante"
PLAY: Final = "play"
ANTE_BONUS: Final = "ante_bonus"
"""Not a wager of its own: the Ante Bonus paid on the Ante (§ 649a.12(b)); its ``stake`` is the Ante."""
PAIR_PLUS: Final = "pair_plus"
SIX_CARD_BONUS: Final = "six_card_bonus"

WAGERS: Final = (ANTE, PAIR_PLUS, SIX_CARD_BONUS)
"""The wagers placed before "no more bets" (§ 649a.7(c)); the Play Wager comes by a decision."""
SETTLEMENT_ORDER: Final = (ANTE, PLAY, ANTE_BONUS, PAIR_PLUS, SIX_CARD_BONUS)
"""Within a seat: Ante and Play, the Ante Bonus, Pair Plus, then the Six Card Bonus (§ 649a.11(c))."""

ACTIONS: Final = (PLAY, "fold")
HAND_SIZE: Final = 3
DEALER: Final = "dealer"

MINI_ROYAL_NAME: Final = THREE_CARD_CATEGORY_NAMES[MINI_ROYAL_FLUSH]
ANTE_BONUS_HANDS: Final = ("straight flush", "three-of-a-kind", "straight")
"""§ 649a.12(b): the Ante Bonus pays a straight or better (the mini-royal flush by § 649a.12(g)(1))."""
PAIR_PLUS_HANDS: Final = ("straight flush", "three-of-a-kind", "straight", "flush", "pair")
"""§ 649a.12(d): the Pair Plus Wager pays a pair or better (the mini-royal flush by § 649a.12(g)(2))."""
SIX_CARD_PAYTABLES: Final = ("A", "B", "C", "D", "E")
SUPER_ROYAL_PAYTABLE: Final = "E"
"""§ 649a.6(d)(8): the Super Royal is a hand only with paytable E of § 649a.12(f)."""

SEC_WAGERS: Final = "§ 649a.7(c)"
SEC_PLAY: Final = "§ 649a.7(d)(1)"
SEC_SIX_CARD_OFFERED: Final = "§ 649a.7(d)(5)"
SEC_DEAL: Final = "§ 649a.8-649a.10"
SEC_DECISION: Final = "§ 649a.11(b)"
SEC_FOLD: Final = "§ 649a.11(b)(1)"
SEC_SETTLE: Final = "§ 649a.11(c)"
SEC_ANTE_PLAY: Final = "§ 649a.11(c)(3); § 649a.12(a)"
SEC_ANTE_BONUS: Final = "§ 649a.12(b)"
SEC_PAIR_PLUS: Final = "§ 649a.11(c)(4); § 649a.12(d)"
SEC_SIX_CARD: Final = "§ 649a.6(d); § 649a.12(f)"
SEC_SUPER_ROYAL: Final = "§ 649a.6(d)(8); § 649a.12(f)"
SEC_MINI_ROYAL_AB: Final = "§ 649a.6(e); § 649a.12(g)(1)"
SEC_MINI_ROYAL_PP: Final = "§ 649a.6(e); § 649a.12(g)(2)"
SEC_IRREGULARITIES: Final = "§ 649a.13 (as § 639a.13)"


# --- the Rules Submission --------------------------------------------------------------------


def _optional(parse: Callable[[object], object]) -> Callable[[object], object]:
    """``parse``, or ``None`` where the file leaves the option out (or writes ``"none"``)."""

    def inner(raw: object) -> object:
        if raw is None or raw == "none":
            return None
        return parse(raw)

    return inner


def _six_card_rows(raw: object) -> object:
    """The Six Card Bonus paytable; the Super Royal row may be left out (it is ``"none"``)."""
    rows = paytable(SIX_CARD_BONUS_HANDS)
    if isinstance(raw, Mapping) and SUPER_ROYAL_NAME not in raw:
        raw = {SUPER_ROYAL_NAME: "none", **raw}
    return rows(raw)


SIX_CARD_BONUS_OPTIONS: Final = SideWagerOptions(SIX_CARD_BONUS, "Six Card Bonus Wager", SEC_SIX_CARD_OFFERED)


@dataclass(frozen=True)
class ThreeCardPokerRules:
    """What ch. 649a leaves to the certificate holder's Rules Submission (§ 601a.2)."""

    seats: int = option(
        "seats",
        integer(1, 7),
        7,
        section="§ 649a.2(a)",
        help="betting positions at the table (at most seven, as § 639a.2(a))",
    )
    decks: int = option(
        "decks",
        integer(1, 2),
        1,
        section="§ 649a.3",
        help="1, or 2 used alternately with an automated card shuffling device (as § 639a.3(b)); "
        "every round is dealt from one deck",
    )
    ante_bonus_odds: Mapping[str, Award | None] = option(
        "ante_bonus.odds",
        paytable(ANTE_BONUS_HANDS),
        section=SEC_ANTE_BONUS,
        help="the Ante Bonus paytable, written out: straight flush, three-of-a-kind, straight",
    )
    pair_plus_odds: Mapping[str, Award | None] = option(
        "pair_plus.odds",
        paytable(PAIR_PLUS_HANDS),
        section="§ 649a.12(d)",
        help="the Pair Plus paytable, written out: straight flush down to pair",
    )
    six_card_bonus_offered: bool = SIX_CARD_BONUS_OPTIONS.offered()
    six_card_bonus_paytable: str = SIX_CARD_BONUS_OPTIONS.paytable(
        choice(*SIX_CARD_PAYTABLES),
        "A",
        section="§ 649a.12(f)",
        help="the letter of the § 649a.12(f) paytable selected; E adds the Super Royal (§ 649a.6(d)(8))",
    )
    six_card_bonus_odds: Mapping[str, Award | None] | None = option(
        "six_card_bonus.odds",
        _optional(_six_card_rows),
        None,
        section="§ 649a.12(f)",
        help="that paytable written out: Super Royal (paytable E only) down to three-of-a-kind",
    )
    mini_royal_offered: bool = option(
        "mini_royal.offered",
        boolean,
        False,
        section="§ 649a.12(g)",
        help="whether the paytables include a mini-royal flush (§ 649a.6(e))",
    )
    mini_royal_ante_bonus: Odds | None = option(
        "mini_royal.ante_bonus",
        _optional(odds(Odds(5, 1, "to"), "the 5 to 1 minimum of § 649a.12(g)(1)")),
        None,
        section="§ 649a.12(g)(1)",
        help="the Ante Bonus odds of a mini-royal flush, no less than 5 to 1",
    )
    mini_royal_pair_plus: Odds | None = option(
        "mini_royal.pair_plus",
        _optional(odds(Odds(40, 1, "to"), "the 40 to 1 minimum of § 649a.12(g)(2)")),
        None,
        section="§ 649a.12(g)(2)",
        help="the Pair Plus odds of a mini-royal flush, no less than 40 to 1",
    )
    payout_limit: Cents | None = payout_limit_option(
        "§ 601a.2", "the most any one wager pays (its stake returned besides); none by default"
    )


def check_paytables_pay_odds(rules: ThreeCardPokerRules) -> Iterable[str]:
    """Every paytable here pays odds: a share of a meter belongs to no Three Card Poker wager here."""
    tables: list[tuple[str, Mapping[str, Award | None] | None, str]] = [
        ("ante_bonus.odds", rules.ante_bonus_odds, SEC_ANTE_BONUS),
        ("pair_plus.odds", rules.pair_plus_odds, "§ 649a.12(d)"),
        ("six_card_bonus.odds", rules.six_card_bonus_odds, "§ 649a.12(f)"),
    ]
    for key, table, section in tables:
        for hand, award in (table or {}).items():
            if award is not None and not isinstance(award, Odds):
                yield f'{key} "{hand}" = {award}: this paytable pays odds such as "5 to 1" ({section})'


def check_six_card_bonus(rules: ThreeCardPokerRules) -> Iterable[str]:
    """The Six Card Bonus paytable is given when offered, with a Super Royal exactly for paytable E."""
    table = rules.six_card_bonus_odds
    if rules.six_card_bonus_offered and table is None:
        yield (
            "six_card_bonus.odds: missing; six_card_bonus.offered is true, so the Rules Submission "
            "must give the paytable (§ 649a.12(f))"
        )
    if not rules.six_card_bonus_offered and table is not None:
        yield f"six_card_bonus.odds: given, but six_card_bonus.offered is false ({SEC_SIX_CARD_OFFERED})"
    if table is None:
        return
    super_royal = table[SUPER_ROYAL_NAME]
    letter = rules.six_card_bonus_paytable
    if letter == SUPER_ROYAL_PAYTABLE and super_royal is None:
        yield (
            f'six_card_bonus.odds "{SUPER_ROYAL_NAME}" = none: paytable E pays a Super Royal '
            f"(§ 649a.6(d)(8)); give its odds"
        )
    if letter != SUPER_ROYAL_PAYTABLE and super_royal is not None:
        yield (
            f'six_card_bonus.odds "{SUPER_ROYAL_NAME}" = {super_royal}: only paytable E pays a Super Royal '
            f"(§ 649a.6(d)(8)), and six_card_bonus.paytable is {letter}"
        )


def check_mini_royal(rules: ThreeCardPokerRules) -> Iterable[str]:
    """A mini-royal flush is paid only where offered, and then in at least one of the two paytables."""
    given = [
        (key, value)
        for key, value in (
            ("mini_royal.ante_bonus", rules.mini_royal_ante_bonus),
            ("mini_royal.pair_plus", rules.mini_royal_pair_plus),
        )
        if value is not None
    ]
    if rules.mini_royal_offered and not given:
        yield (
            "mini_royal.offered is true, but neither mini_royal.ante_bonus nor mini_royal.pair_plus "
            "gives the odds of a mini-royal flush (§ 649a.12(g))"
        )
    if not rules.mini_royal_offered:
        for key, value in given:
            yield f"{key} {value}: given, but mini_royal.offered is false (§ 649a.12(g))"


RULES_CHECKS: Final[tuple[Callable[[ThreeCardPokerRules], Iterable[str]], ...]] = (
    check_paytables_pay_odds,
    check_six_card_bonus,
    check_mini_royal,
)
