"""Blackjack's Rules Submission (ch. 633a, § 601a.2): the options, their groups and the checks
between them. The game is :mod:`.game`; docs/games/blackjack.md lists every option."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ...core.money import Award, Cents, MeterShare, Odds
from ...core.option_groups import ProgressiveOptions, SideWagerOptions
from ...core.options import boolean, choice, integer, money, option
from ...core.payout_limit import payout_limit_option
from .wagers import (
    BAD_BEAT,
    BAD_BEAT_ROWS,
    HIT_AND_RUN,
    HIT_AND_RUN_ROWS,
    HOUSE_MONEY,
    STRAIGHT_JACK,
    THREE_CARD_POKER,
    THREE_CARD_POKER_ROWS,
    TITLES,
    optional_paytable,
)

NAME: Final = "blackjack"

BLACKJACK_ODDS: Final = Odds(3, 2, "to")  # § 633a.13(a): a Blackjack pays 3 to 2
EVEN_ODDS: Final = Odds(1, 1, "to")  # § 633a.13(a): other winning Blackjack and Double Down Wagers
INSURANCE_ODDS: Final = Odds(2, 1, "to")  # § 633a.13: a winning Insurance Wager pays 2 to 1

STRAIGHT_JACK_MINIMUM: Final[Cents] = 500_000
"""§ 633a.13(m)(2): the Straight Jack initial and reset amounts "be at least $5,000"."""
AGGREGATE_MINIMUM: Final[Cents] = 2_500_000
"""§ 633a.13(o): the Royal Match 21 / King's Bounty maximum payout "shall be at least $25,000"."""


DOUBLE_TOTALS: Final[Mapping[str, frozenset[int] | None]] = MappingProxyType(
    {"any_two": None, "9_10_11": frozenset({9, 10, 11}), "10_11": frozenset({10, 11})}
)
"""§ 633a.10: the totals of two cards a player may double down on, by ``double_down.on``."""


# --- the Rules Submission ------------------------------------------------------------------------


THREE_CARD_POKER_OPTIONS: Final = SideWagerOptions(
    THREE_CARD_POKER, TITLES[THREE_CARD_POKER], "§ 633a.6(e), § 633a.7(g)(8)"
)
HOUSE_MONEY_OPTIONS: Final = SideWagerOptions(HOUSE_MONEY, TITLES[HOUSE_MONEY], "§ 633a.6(e)(12)")
STRAIGHT_JACK_OPTIONS: Final = ProgressiveOptions(STRAIGHT_JACK, TITLES[STRAIGHT_JACK], "§ 633a.6(e)(11)")
HIT_AND_RUN_OPTIONS: Final = ProgressiveOptions(HIT_AND_RUN, TITLES[HIT_AND_RUN], "§ 633a.6(e)(10)")
BAD_BEAT_OPTIONS: Final = ProgressiveOptions(BAD_BEAT, TITLES[BAD_BEAT], "§ 633a.6(e)(8)")
BAD_BEAT_METER_SECTION: Final = "§ 633a.6(e)(8), § 605a.7"
#: § 633a.2(c): "Each betting position must contain an electronic wagering system for the
#: placement of the Bad Beat Progressive Wager" with a lock-out; § 633a.2(d)(1), (2): "a wagering
#: device at each betting position" for the Hit and Run and Straight Jack. One chip on the seat's
#: device for that progressive is one wager of ``<wager>.wager``.
DEVICE_SECTION_BAD_BEAT: Final = "§ 633a.2(c), § 605a.7"
DEVICE_SECTION_HIT_AND_RUN_STRAIGHT_JACK: Final = "§ 633a.2(d)(1), § 605a.7"


@dataclass(frozen=True)
class BlackjackRules:
    """The options ch. 633a leaves to the Rules Submission (§ 601a.2)."""

    seats: int = option("seats", integer(1, 7), 7, section="§ 633a.2", help="betting positions (boxes)")
    decks: int = option(
        "decks",
        integer(1, 8),
        6,
        section="§ 633a.3; § 633a.13(n)",
        help="decks in the shoe; one deck selects House Money paytable (n)(1), more (n)(2)",
    )
    hits_soft_17: bool = option(
        "dealer.hits_soft_17",
        boolean,
        False,
        section="§ 633a.7 (base text)",
        help="whether the dealer draws on a soft 17",
    )
    blackjack_payout: str = option(
        "blackjack.payout", choice("3 to 2"), "3 to 2", section="§ 633a.13(a)", help="a Blackjack pays 3 to 2"
    )
    double_on: str = option(
        "double_down.on",
        choice(*DOUBLE_TOTALS),
        "any_two",
        section="§ 633a.10",
        help="the two-card totals a player may double down on: any_two, 9_10_11 or 10_11",
    )
    double_after_split: bool = option(
        "double_down.after_split", boolean, True, section="§ 633a.10, § 633a.11", help="double after a split"
    )
    split_max_hands: int = option(
        "split.max_hands",
        integer(2, 4),
        4,
        section="§ 633a.11",
        help="the most hands splitting (and resplitting) may make from one Blackjack Wager",
    )
    resplit_aces: bool = option(
        "split.resplit_aces",
        boolean,
        False,
        section="§ 633a.11",
        help="whether split aces may be split again",
    )
    split_unlike_tens: bool = option(
        "split.unlike_tens",
        boolean,
        True,
        section="§ 633a.11",
        help="whether two 10-count cards of different rank (10-K) may be split as identical in value",
    )
    surrender_offered: bool = option(
        "surrender.offered", boolean, False, section="§ 633a.9", help="late surrender, after the reader check"
    )
    insurance_offered: bool = option(
        "insurance.offered", boolean, True, section="§ 633a.8", help="the Insurance Wager, 2 to 1"
    )
    even_money_offered: bool = option(
        "even_money.offered", boolean, True, section="§ 633a.8", help="even money for a player's Blackjack"
    )
    spanish_21_offered: bool = option(
        "spanish_21.offered",
        boolean,
        False,
        section="§ 635a.10(a); § 601a.2",
        help="a Spanish 21 table: the Double Down Wager on two or more cards of a hand or a split pair",
    )
    spanish_21_rescue: bool = option(
        "spanish_21.rescue",
        boolean,
        False,
        section="§ 635a.10; § 601a.2",
        help="after the double-down card, the player may forfeit the original wager and take back the double",
    )
    spanish_21_double_split_aces: bool = option(
        "spanish_21.double_split_aces",
        boolean,
        False,
        section="§ 635a.10(a); § 601a.2",
        help='a split ace, after its one card, may double down: "two or more cards of any split pair"',
    )
    spanish_deck: bool = option(
        "spanish_21.spanish_deck",
        boolean,
        False,
        section="ch. 635a (§ 635a.3 not in our copy); § 601a.2",
        help="the shoe holds Spanish decks: 48 cards, the four 10s removed (jacks, queens, kings stay)",
    )
    payout_limit: Cents | None = payout_limit_option(
        "§ 633a.13(o)",
        "the payout limit the layout inscribes (§ 633a.2(b)(16)), at least $25,000; it holds no wager "
        "offered here: it applies only to Royal Match 21 and King's Bounty Wagers (§ 633a.13(o))",
        minimum=AGGREGATE_MINIMUM,
        minimum_rule="the $25,000 minimum",
    )
    aggregate_maximum: Cents | None = option(
        "royal_match_kings_bounty.maximum_payout",
        money(AGGREGATE_MINIMUM, "the $25,000 minimum", optional=True),
        None,
        section="§ 633a.13(o)",
        help="Royal Match 21 / King's Bounty aggregate maximum; validated only (the wagers are not offered)",
    )
    three_card_poker_offered: bool = THREE_CARD_POKER_OPTIONS.offered()
    three_card_poker_paytable: Mapping[str, Award | None] | None = THREE_CARD_POKER_OPTIONS.paytable(
        optional_paytable(THREE_CARD_POKER_ROWS),
        None,
        section="§ 633a.13(k)",
        help="straight_flush, three_of_a_kind, straight, flush; required when offered",
    )
    straight_jack_offered: bool = STRAIGHT_JACK_OPTIONS.offered()
    straight_jack_initial: Cents | None = STRAIGHT_JACK_OPTIONS.initial(
        None, section="§ 633a.13(m)(2)", minimum=STRAIGHT_JACK_MINIMUM, minimum_rule="the $5,000 minimum"
    )
    straight_jack_reset: Cents | None = STRAIGHT_JACK_OPTIONS.reset(
        None, section="§ 633a.13(m)(2)", minimum=STRAIGHT_JACK_MINIMUM, minimum_rule="the $5,000 minimum"
    )
    straight_jack_rate: str | None = STRAIGHT_JACK_OPTIONS.rate(section="§ 633a.13(m)(2)")
    straight_jack_wager: Cents = STRAIGHT_JACK_OPTIONS.wager(section=DEVICE_SECTION_HIT_AND_RUN_STRAIGHT_JACK)
    house_money_offered: bool = HOUSE_MONEY_OPTIONS.offered()
    house_money_portion: int = option(
        "house_money.portion",
        integer(1, 100),
        100,
        section="§ 633a.7(g)(10)(ii)(A)",
        help="percent of the House Money payout a player may add to the Blackjack Wager",
    )
    hit_and_run_offered: bool = HIT_AND_RUN_OPTIONS.offered()
    hit_and_run_paytable: Mapping[str, Award | None] | None = HIT_AND_RUN_OPTIONS.paytable(
        optional_paytable(HIT_AND_RUN_ROWS),
        None,
        section="§ 633a.13(l)",
        help="dealer_blackjack, five_cards ... eight_or_more_cards; required when offered",
    )
    hit_and_run_initial: Cents | None = HIT_AND_RUN_OPTIONS.initial(None, section="§ 633a.13(l)")
    hit_and_run_reset: Cents | None = HIT_AND_RUN_OPTIONS.reset(None, section="§ 633a.13(l)")
    hit_and_run_rate: str | None = HIT_AND_RUN_OPTIONS.rate(section="§ 633a.13(l)")
    hit_and_run_wager: Cents = HIT_AND_RUN_OPTIONS.wager(section=DEVICE_SECTION_HIT_AND_RUN_STRAIGHT_JACK)
    hit_and_run_share_returns_wager: bool = HIT_AND_RUN_OPTIONS.share_returns_wager(
        True, section="§ 633a.13(l)"
    )
    bad_beat_offered: bool = BAD_BEAT_OPTIONS.offered()
    bad_beat_player_total: int = option(
        "bad_beat.player_total",
        integer(4, 21),
        20,
        section="§ 633a.6(e)(8)",
        help="the least total of a player's hand that wins the Bad Beat when it loses to a dealer's 21",
    )
    bad_beat_paytable: Mapping[str, Award | None] | None = BAD_BEAT_OPTIONS.paytable(
        optional_paytable(BAD_BEAT_ROWS),
        None,
        section="§ 633a.6(e)(8)",
        help="dealer_blackjack, dealer_21_three_cards ... ; required when offered",
    )
    bad_beat_initial: Cents | None = BAD_BEAT_OPTIONS.initial(None, section=BAD_BEAT_METER_SECTION)
    bad_beat_reset: Cents | None = BAD_BEAT_OPTIONS.reset(None, section=BAD_BEAT_METER_SECTION)
    bad_beat_rate: str | None = BAD_BEAT_OPTIONS.rate(section=BAD_BEAT_METER_SECTION)
    bad_beat_wager: Cents = BAD_BEAT_OPTIONS.wager(section=DEVICE_SECTION_BAD_BEAT)
    bad_beat_share_returns_wager: bool = BAD_BEAT_OPTIONS.share_returns_wager(True, section="§ 633a.6(e)(8)")

    def offered(self, wager: str) -> bool:
        return {
            THREE_CARD_POKER: self.three_card_poker_offered,
            STRAIGHT_JACK: self.straight_jack_offered,
            HOUSE_MONEY: self.house_money_offered,
            HIT_AND_RUN: self.hit_and_run_offered,
            BAD_BEAT: self.bad_beat_offered,
        }[wager]

    def share_returns_wager(self, wager: str) -> bool:
        """Whether a share of ``wager``'s meter returns the wager beside it. Straight Jack's paytable
        is the text's, at odds "to 1" ("10% of meter and 200 to 1", § 633a.13(m)(1)): it does."""
        return {
            STRAIGHT_JACK: True,
            HIT_AND_RUN: self.hit_and_run_share_returns_wager,
            BAD_BEAT: self.bad_beat_share_returns_wager,
        }[wager]

    def reset(self, wager: str) -> Cents:
        value = {
            STRAIGHT_JACK: self.straight_jack_reset,
            HIT_AND_RUN: self.hit_and_run_reset,
            BAD_BEAT: self.bad_beat_reset,
        }[wager]
        return value or 0


def check_spanish_21(rules: BlackjackRules) -> Iterator[str]:
    """The Spanish 21 options hang together (§ 635a.10)."""
    if not rules.spanish_21_offered:
        if rules.spanish_21_rescue:
            yield (
                "spanish_21.rescue true: the rescue follows a Spanish 21 Double Down Wager; it is offered "
                "only at a Spanish 21 table (set spanish_21.offered) (§ 635a.10)"
            )
        if rules.spanish_21_double_split_aces:
            yield (
                "spanish_21.double_split_aces true: doubling on split aces follows the Spanish 21 Double "
                "Down Wager; it is offered only at a Spanish 21 table (set spanish_21.offered) (§ 635a.10(a))"
            )
        if rules.spanish_deck:
            yield (
                "spanish_21.spanish_deck true: the Spanish deck is dealt only at a Spanish 21 table "
                "(set spanish_21.offered) (ch. 635a)"
            )
        return
    if rules.double_on != "any_two":
        yield (
            f"double_down.on {rules.double_on}: at a Spanish 21 table a player may double down on two or "
            f"more cards of any total; write any_two (§ 635a.10(a))"
        )
    if not rules.double_after_split:
        yield (
            "double_down.after_split false: at a Spanish 21 table a player may double down on two or more "
            "cards of any split pair (§ 635a.10(a))"
        )


def check_paytables(rules: BlackjackRules) -> Iterator[str]:
    tables = (
        (THREE_CARD_POKER, rules.three_card_poker_paytable, "§ 633a.13(k)"),
        (HIT_AND_RUN, rules.hit_and_run_paytable, "§ 633a.13(l)"),
        (BAD_BEAT, rules.bad_beat_paytable, "§ 633a.6(e)(8)"),
    )
    for wager, table, section in tables:
        if rules.offered(wager) and table is None:
            yield (
                f"{wager}.paytable: missing; the Rules Submission must write out the paytable when the "
                f"{TITLES[wager]} is offered ({section})"
            )
    table = rules.three_card_poker_paytable
    if table is not None:
        for row, award in table.items():
            if isinstance(award, MeterShare):
                yield (
                    f"three_card_poker.paytable {row} = {award}: the Three Card Poker Wager is not a "
                    f'progressive wager; write odds such as "40 to 1" (§ 633a.7(g)(8))'
                )


def check_progressives(rules: BlackjackRules) -> Iterator[str]:
    fields = (
        (
            STRAIGHT_JACK,
            rules.straight_jack_initial,
            rules.straight_jack_reset,
            rules.straight_jack_rate,
            "§ 633a.13(m)(2)",
        ),
        (
            HIT_AND_RUN,
            rules.hit_and_run_initial,
            rules.hit_and_run_reset,
            rules.hit_and_run_rate,
            "§ 633a.13(l), § 605a.7",
        ),
        (
            BAD_BEAT,
            rules.bad_beat_initial,
            rules.bad_beat_reset,
            rules.bad_beat_rate,
            "§ 633a.6(e)(8), § 605a.7",
        ),
    )
    for wager, initial, reset, rate, section in fields:
        if not rules.offered(wager):
            continue
        for key, value in (("initial", initial), ("reset", reset), ("rate_of_progression", rate)):
            if value is None:
                yield (
                    f"{wager}.{key}: missing; the Rules Submission must give the meter's "
                    f"{key.replace('_', ' ')} when the {TITLES[wager]} is offered ({section})"
                )


RULES_CHECKS: Final[tuple[Callable[[BlackjackRules], Iterable[str]], ...]] = (
    check_paytables,
    check_progressives,
    check_spanish_21,
)
