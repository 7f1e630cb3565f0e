"""Fortune Asia Poker: ch. 659a with § 659a.11 as amended, as a pure round engine.

The round is Asia Poker's (:mod:`.asia_poker_game`): the same starting
position, deal, hand setting, house way, surrender and settlement of the main
wager, here the "Fortune Asia Poker Wager" (§ 659a.11(e), (f)). Instead of the
Bonus Wager the table may offer three optional wagers, settled on the seven
cards after the main wager, all of a player's optional wagers before his cards
go to the discard rack (§ 659a.11(h), (i)):

- the **Fortune Bonus Wager** (h)(1)(i): wins with "a straight or higher ... or
  three pair or higher, depending on the payout table";
- the **Insurance Wager** (h)(2): loses with "a pair or better", wins when the
  player "does not have a pair or better, but has a card ranked a 9-high or
  better";
- the **Progressive Payout Wager** (h)(3): wins with "a full house or better";
  the dealer verifies the hand and the progressive light, a floorperson
  validates the payout, and a share of the meter is not paid from the table
  inventory container.

And the **Envy Bonus** (h)(1)(i)(B), (C), (ii): "if any player is the holder of
an Envy Bonus Qualifying Hand, the dealer shall pay an Envy Bonus ... to each
player who has an Envy lammer at the player's betting position. Players are
entitled to multiple Envy Bonuses when another player at the same Fortune Asia
Poker table is the holder of an Envy Bonus Qualifying Hand. A player is not
entitled to an Envy Bonus for his own hand or the hand of the dealer." "If any
player at the table placed a Qualifying Wager, the dealer shall rearrange the
cards of all players regardless of whether the player placed a Fortune Bonus
Wager" (h): so with any Qualifying Wager at the table, every player's seven
cards are looked at for an Envy Bonus Qualifying Hand, a player who
surrendered included ("the cards of the player must remain on the table",
(d)).

The text we have refers to a § 659a.6(d), (e) "relating to Fortune Asia Poker
rankings" and a § 659a.12(b)-(d) that it does not print. So the hands and every
paytable here come from the Rules Submission, on rows this module defines
(:data:`FORTUNE_HANDS`, :data:`INSURANCE_HANDS`, :data:`PROGRESSIVE_HANDS`); the
defaults are example values modelled on published Fortune Pai Gow Poker
paytables, marked as examples (``docs/games/asia-poker.md``).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from .asia_poker_game import (
    AsiaPokerGame,
    AsiaPokerState,
    AsiaTableRules,
    PayoutLimit,
    Settling,
    check_equipment,
    limit_problems,
)
from .cards import ACE, SUIT_CHARS, Card
from .engine import IllegalEvent
from .events import Event
from .money import Award, Cents, MeterShare, MoneyError, Odds, format_money, parse_money, pay_from_meter
from .options import OptionError, boolean, choice, money, option, paytable
from .settlement import FLOORPERSON_VALIDATE, NOT_FROM_INVENTORY, PROGRESSIVE_LIGHT, Outcome, Result

# --- the Fortune hands of seven cards -------------------------------------------------------

SEVEN_CARD_STRAIGHT_FLUSH: Final = "seven-card straight flush"
SEVEN_CARD_STRAIGHT_FLUSH_WITH_A_JOKER: Final = "seven-card straight flush with a joker"
FIVE_ACES: Final = "five aces"
ROYAL_FLUSH: Final = "royal flush"
NATURAL_STRAIGHT_FLUSH: Final = "natural straight flush"
STRAIGHT_FLUSH_WITH_A_JOKER: Final = "straight flush with a joker"
FOUR_OF_A_KIND: Final = "four-of-a-kind"
FULL_HOUSE: Final = "full house"
FLUSH: Final = "flush"
THREE_OF_A_KIND: Final = "three-of-a-kind"
STRAIGHT: Final = "straight"
THREE_PAIR: Final = "three pair"

FORTUNE_HANDS: Final = (
    SEVEN_CARD_STRAIGHT_FLUSH,
    SEVEN_CARD_STRAIGHT_FLUSH_WITH_A_JOKER,
    FIVE_ACES,
    ROYAL_FLUSH,
    NATURAL_STRAIGHT_FLUSH,
    STRAIGHT_FLUSH_WITH_A_JOKER,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    FLUSH,
    THREE_OF_A_KIND,
    STRAIGHT,
    THREE_PAIR,
)
"""The Fortune hands of seven cards, highest first: the rows of the Fortune Bonus and Envy paytables."""

PROGRESSIVE_HANDS: Final = FORTUNE_HANDS[: FORTUNE_HANDS.index(FULL_HOUSE) + 1]
"""§ 659a.11(h)(3): "a full house or better": the rows of the Progressive paytable."""

INSURANCE_HANDS: Final = ("ace-high", "king-high", "queen-high", "jack-high", "10-high", "9-high")
"""§ 659a.11(h)(2): no pair or better, "a 9-high or better", by the highest card: the Insurance rows."""

_HIGH_WORDS: Final = {
    14: "ace-high",
    13: "king-high",
    12: "queen-high",
    11: "jack-high",
    10: "10-high",
    9: "9-high",
}


def _window(top: int, length: int) -> int:
    """The rank mask of ``length`` consecutive ranks topped by ``top`` (the ace low under 2)."""
    mask = 0
    for r in range(top, top - length, -1):
        mask |= 1 << ((ACE if r == 1 else r) - 2)
    return mask


_FIVE: Final = tuple(_window(top, 5) for top in range(ACE, 4, -1))  # A-K-Q-J-10 ... 5-4-3-2-A
_SEVEN: Final = tuple(_window(top, 7) for top in range(ACE, 6, -1))  # A-K-...-8 ... 7-6-5-4-3-2-A
_ROYAL: Final = _FIVE[0]


@dataclass(frozen=True, slots=True)
class FortuneHand:
    """What the dealer finds rearranging a player's seven cards (§ 659a.11(h)).

    ``row``: the highest of :data:`FORTUNE_HANDS` the cards make, or ``None``;
    ``pair``: whether they hold a pair (or more of a rank), the joker an ace;
    ``high_card``: the highest card (the joker an ace), for Insurance.
    """

    row: str | None
    pair: bool
    high_card: int

    @property
    def insurance_row(self) -> str | None:
        """The Insurance row: no pair or better, by the highest card (§ 659a.11(h)(2)); else ``None``."""
        if self.row is not None or self.pair:
            return None
        return _HIGH_WORDS.get(self.high_card)

    def at_least(self, row: str) -> bool:
        return self.row is not None and FORTUNE_HANDS.index(self.row) <= FORTUNE_HANDS.index(row)


def fortune_hand(seven: Sequence[Card]) -> FortuneHand:
    """The Fortune hand of seven cards (§ 659a.11(h): "form the highest ranking hand").

    The joker as § 659a.6(a) allows: an ace, or any card to complete a
    straight, a flush, a straight flush or a royal flush (so: the fifth ace, the
    fourth ace of four-of-a-kind, an ace of a full house, three-of-a-kind or
    three pair; a card of a straight, flush or straight flush of five or seven
    cards). An ace counts high, or low before 2-3-4 (5-4-3-2-A, 7-6-5-4-3-2-A).
    """
    if len(seven) != 7:
        raise ValueError(f"the Fortune hands are of seven cards, not {len(seven)}")
    wild = sum(1 for c in seven if c.is_joker)
    counts = [0] * 15
    mask = 0
    suits = dict.fromkeys(SUIT_CHARS, 0)
    for c in seven:
        if c.rank:
            counts[c.rank] += 1
            mask |= c.bit
            suits[c.suit] |= c.bit
    with_ace = counts.copy()
    with_ace[ACE] += wild
    pairs = sum(1 for n in with_ace if n >= 2)
    high_card = ACE if wild else max(r for r in range(2, 15) if counts[r])

    def found(row: str) -> FortuneHand:
        return FortuneHand(row, pairs > 0, high_card)

    for m in suits.values():
        for w in _SEVEN:
            if m == w:
                return found(SEVEN_CARD_STRAIGHT_FLUSH)
            if wild and m.bit_count() == 6 and not m & ~w:
                return found(SEVEN_CARD_STRAIGHT_FLUSH_WITH_A_JOKER)
    if with_ace[ACE] >= 5:
        return found(FIVE_ACES)
    if any((_ROYAL & ~m).bit_count() <= wild for m in suits.values()):
        return found(ROYAL_FLUSH)
    if any(not w & ~m for m in suits.values() for w in _FIVE):
        return found(NATURAL_STRAIGHT_FLUSH)
    if wild and any((w & ~m).bit_count() <= wild for m in suits.values() for w in _FIVE):
        return found(STRAIGHT_FLUSH_WITH_A_JOKER)
    if max(with_ace) >= 4:
        return found(FOUR_OF_A_KIND)
    trips = [r for r in range(2, 15) if with_ace[r] >= 3]
    if trips and pairs >= 2:
        return found(FULL_HOUSE)
    if any(m.bit_count() + wild >= 5 for m in suits.values()):
        return found(FLUSH)
    if trips:
        return found(THREE_OF_A_KIND)
    if any((w & ~mask).bit_count() <= wild for w in _FIVE):
        return found(STRAIGHT)
    if pairs >= 3:
        return found(THREE_PAIR)
    return FortuneHand(None, pairs > 0, high_card)


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
            close = difflib.get_close_matches(str(bad[0]), names, n=1, cutoff=0.5)
            hint = f"; did you mean {close[0]!r}?" if close else ""
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
    fortune_bonus_offered: bool = option(
        "fortune_bonus.offered",
        boolean,
        False,
        section="§ 659a.7(e)",
        help="whether the Fortune Bonus Wager is offered",
    )
    fortune_bonus_paytable: Mapping[str, Award | None] = option(
        "fortune_bonus.paytable",
        paytable(FORTUNE_HANDS),
        FORTUNE_BONUS_EXAMPLE,
        section="§ 659a.11(h)(1), § 659a.12(b)",
        help="odds per Fortune hand; three pair may be 'none' (then a straight or higher wins)",
    )
    fortune_bonus_minimum: Cents = option(
        "fortune_bonus.minimum",
        money(1, "one cent"),
        "1.00",
        section="§ 659a.12(c)",
        help="the minimum Fortune Bonus Wager",
    )
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
    insurance_offered: bool = option(
        "insurance.offered",
        boolean,
        False,
        section="§ 659a.7(e)",
        help="whether the Insurance Wager is offered",
    )
    insurance_paytable: Mapping[str, Award | None] = option(
        "insurance.paytable",
        paytable(INSURANCE_HANDS),
        INSURANCE_EXAMPLE,
        section="§ 659a.11(h)(2), § 659a.12(c)",
        help="odds per highest card of a hand with no pair or better",
    )
    insurance_minimum: Cents = option(
        "insurance.minimum",
        money(1, "one cent"),
        "1.00",
        section="§ 659a.12(c)",
        help="the minimum Insurance Wager",
    )
    progressive_offered: bool = option(
        "progressive.offered",
        boolean,
        False,
        section="§ 659a.7(e)",
        help="whether the Progressive Payout Wager is offered",
    )
    progressive_paytable: Mapping[str, Award | None] = option(
        "progressive.paytable",
        paytable(PROGRESSIVE_HANDS),
        PROGRESSIVE_EXAMPLE,
        section="§ 659a.11(h)(3), § 659a.12(d)",
        help="odds or a share of the meter per hand, full house or better",
    )
    progressive_wager: Cents = option(
        "progressive.wager",
        money(1, "one cent"),
        "1.00",
        section="§ 659a.7(e), § 605a.7",
        help="the value chip one Progressive Payout Wager is: what the table records for each chip "
        "its wagering device accepts",
    )
    progressive_reset: Cents = option(
        "progressive.reset",
        money(1, "one cent"),
        "10000.00",
        section="§ 659a.12(d)",
        help="the meter's reset amount; a share of the meter never takes it below",
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

# --- the game -------------------------------------------------------------------------------

FORTUNE_ASIA_POKER: Final = "fortune_asia_poker"
FORTUNE_BONUS: Final = "fortune_bonus"
INSURANCE: Final = "insurance"
PROGRESSIVE: Final = "progressive"
ENVY_BONUS: Final = "envy_bonus"
PROGRESSIVE_METER: Final = "progressive"


def envy_wager_name(holder: int) -> str:
    """The settlement line of an Envy Bonus paid for seat ``holder``'s hand: ``"envy_bonus_seat_3"``."""
    return f"{ENVY_BONUS}_seat_{holder}"


class FortuneAsiaPokerGame(AsiaPokerGame):
    """Fortune Asia Poker (ch. 659a, § 659a.11 as amended); exported as :data:`GAME`."""

    name = "fortune-asia-poker"
    title = "Fortune Asia Poker"
    chapter = "58 Pa. Code ch. 659a (§ 659a.11 as amended)"
    rules_class = FortuneAsiaPokerRules
    rules_checks = FORTUNE_RULES_CHECKS
    main_wager = FORTUNE_ASIA_POKER
    main_words = "Fortune Asia Poker Wager"

    def optional_wagers(self, rules: AsiaTableRules) -> tuple[str, ...]:
        assert isinstance(rules, FortuneAsiaPokerRules)
        offered = (
            (FORTUNE_BONUS, rules.fortune_bonus_offered),
            (INSURANCE, rules.insurance_offered),
            (PROGRESSIVE, rules.progressive_offered),
        )
        return tuple(w for w, yes in offered if yes)

    def all_optional_wagers(self) -> tuple[str, ...]:
        return (FORTUNE_BONUS, INSURANCE, PROGRESSIVE)

    def _wager(self, state: AsiaPokerState, event: Event) -> AsiaPokerState:
        rules = state.rules
        assert isinstance(rules, FortuneAsiaPokerRules)
        amount = event.amount or 0
        if event.wager == PROGRESSIVE and amount and amount != rules.progressive_wager:
            # § 659a.7(e): the Progressive Payout Wager is the table's one value chip on the
            # wagering device (progressive.wager); 0.00 still takes it back before "no more bets".
            raise IllegalEvent(
                f"seat {event.seat} progressive: the Progressive Payout Wager is "
                f"{format_money(rules.progressive_wager)} (progressive.wager), not {format_money(amount)} "
                "(§ 659a.7(e))"
            )
        return super()._wager(state, event)

    def minimum(self, rules: AsiaTableRules, wager: str) -> Cents:
        assert isinstance(rules, FortuneAsiaPokerRules)
        return {
            FORTUNE_ASIA_POKER: rules.fortune_asia_poker_minimum,
            FORTUNE_BONUS: rules.fortune_bonus_minimum,
            INSURANCE: rules.insurance_minimum,
        }.get(wager, 1)

    def meter_names(self, rules: AsiaTableRules) -> tuple[str, ...]:
        assert isinstance(rules, FortuneAsiaPokerRules)
        return (PROGRESSIVE_METER,) if rules.progressive_offered else ()

    def lammers(self, ctx: Settling) -> list[int]:
        """The seats with an Envy lammer: a Qualifying Wager on a hand not voided.

        A Qualifying Wager is a Fortune Bonus or Progressive Payout Wager of at
        least ``envy.qualifying_wager``.
        """
        state = ctx.state
        rules = state.rules
        assert isinstance(rules, FortuneAsiaPokerRules)
        return [
            s
            for s in self.players(state)
            if s not in state.voided
            and max(state.stake(s, FORTUNE_BONUS), state.stake(s, PROGRESSIVE)) >= rules.envy_qualifying_wager
        ]

    def settle_optional(self, ctx: Settling, seat: int, limit: PayoutLimit) -> list[Outcome]:
        """The Fortune Bonus, Insurance and Progressive Payout Wagers, in order (§ 659a.11(h)(1)-(3), (i))."""
        state = ctx.state
        rules = state.rules
        assert isinstance(rules, FortuneAsiaPokerRules)
        hand = fortune_hand(state.cards_of(str(seat)))
        out: list[Outcome] = []
        stake = state.stake(seat, FORTUNE_BONUS)
        if stake:
            award = rules.fortune_bonus_paytable[hand.row] if hand.row is not None else None
            least = STRAIGHT if rules.fortune_bonus_paytable[THREE_PAIR] is None else THREE_PAIR
            if hand.row is None or award is None:
                out.append(
                    Outcome(
                        seat,
                        FORTUNE_BONUS,
                        stake,
                        Result.LOSE,
                        -stake,
                        hand.row or "no Fortune hand",
                        "§ 659a.11(h)(1)(i)(A)",
                        f"not a {least} or higher",
                    )
                )
            else:
                assert isinstance(award, Odds)
                out.append(
                    limit.pay(
                        Outcome(
                            seat,
                            FORTUNE_BONUS,
                            stake,
                            Result.WIN,
                            award.net(stake),
                            hand.row,
                            "§ 659a.11(h)(1)(i)(B), § 659a.12(b)",
                            str(award),
                        )
                    )
                )
        stake = state.stake(seat, INSURANCE)
        if stake:
            row = hand.insurance_row
            award = rules.insurance_paytable[row] if row is not None else None
            if row is None or award is None:
                words = hand.row or "a pair or better"
                out.append(
                    Outcome(
                        seat,
                        INSURANCE,
                        stake,
                        Result.LOSE,
                        -stake,
                        words,
                        "§ 659a.11(h)(2)(i)",
                        "a pair or better",
                    )
                )
            else:
                assert isinstance(award, Odds)
                out.append(
                    limit.pay(
                        Outcome(
                            seat,
                            INSURANCE,
                            stake,
                            Result.WIN,
                            award.net(stake),
                            row,
                            "§ 659a.11(h)(2)(ii), § 659a.12(c)",
                            f"no pair or better, {row}; {award}",
                        )
                    )
                )
        stake = state.stake(seat, PROGRESSIVE)
        if stake:
            out.append(self._progressive(ctx, seat, stake, hand))
        return out

    def _progressive(self, ctx: Settling, seat: int, stake: Cents, hand: FortuneHand) -> Outcome:
        rules = ctx.state.rules
        assert isinstance(rules, FortuneAsiaPokerRules)
        if hand.row is None or not hand.at_least(FULL_HOUSE):
            return Outcome(
                seat,
                PROGRESSIVE,
                stake,
                Result.LOSE,
                -stake,
                hand.row or "no Fortune hand",
                "§ 659a.11(h)(3)(i)",
                "not a full house or better",
            )
        award = rules.progressive_paytable[hand.row]
        section = "§ 659a.11(h)(3)(ii), § 659a.12(d)"
        flags: tuple[str, ...] = (PROGRESSIVE_LIGHT, FLOORPERSON_VALIDATE)
        if isinstance(award, Odds):
            return Outcome(
                seat, PROGRESSIVE, stake, Result.WIN, award.net(stake), hand.row, section, str(award), flags
            )
        assert isinstance(award, MeterShare)
        meter = ctx.meters.get(PROGRESSIVE_METER)
        if meter is None:
            raise IllegalEvent(
                f"seat {seat} won {award} on the Progressive Payout Wager, but no progressive meter was "
                "reported (a meter event, or the record's meters) (§ 659a.11(h)(3)(ii)(D))"
            )
        paid = pay_from_meter(award, meter, rules.progressive_reset)
        net = paid.paid + (award.plus.net(stake) if award.plus else 0)
        ctx.meters[PROGRESSIVE_METER] = paid.meter_after
        note = (
            f"{award}, the meter at {format_money(meter)}: {format_money(paid.paid)}; not paid from the "
            "table inventory container, the cards stay on the table until the documentation is complete"
        )
        return Outcome(
            seat,
            PROGRESSIVE,
            stake,
            Result.WIN if net > 0 else Result.PUSH,
            net,
            hand.row,
            section,
            note,
            (*flags, NOT_FROM_INVENTORY),
        )

    def settle_table(self, ctx: Settling) -> list[Outcome]:
        """The Envy Bonuses, after all Fortune Bonus Wagers (§ 659a.11(h)(1)(ii))."""
        state = ctx.state
        rules = state.rules
        assert isinstance(rules, FortuneAsiaPokerRules)
        lammers = self.lammers(ctx)
        if not lammers:
            return []
        # "If any player at the table placed a Qualifying Wager, the dealer shall rearrange the cards of all
        # players" (h): every hand not voided, a surrendered one included (d).
        holders: list[tuple[int, str]] = []
        for seat in reversed(self.players(state)):
            if seat in state.voided:
                continue
            hand = fortune_hand(state.cards_of(str(seat)))
            if hand.row is not None and hand.at_least(rules.envy_qualifying_hand):
                holders.append((seat, hand.row))
        out: list[Outcome] = []
        for seat in reversed(lammers):
            for holder, row in holders:
                if holder == seat:
                    continue  # "not entitled to an Envy Bonus for his own hand"
                amount = rules.envy_amount(row)
                assert amount > 0
                out.append(
                    Outcome(
                        seat,
                        envy_wager_name(holder),
                        0,
                        Result.WIN,
                        amount,
                        row,
                        "§ 659a.11(h)(1)(ii), § 659a.12(b)",
                        f"Envy Bonus for seat {holder}'s {row}",
                    )
                )
        return out


GAME: Final = FortuneAsiaPokerGame()

__all__ = [
    "ENVY_BONUS",
    "ENVY_EXAMPLE",
    "FIVE_ACES",
    "FLUSH",
    "FORTUNE_ASIA_POKER",
    "FORTUNE_BONUS",
    "FORTUNE_BONUS_EXAMPLE",
    "FORTUNE_HANDS",
    "FORTUNE_RULES_CHECKS",
    "FOUR_OF_A_KIND",
    "FULL_HOUSE",
    "GAME",
    "INSURANCE",
    "INSURANCE_EXAMPLE",
    "INSURANCE_HANDS",
    "NATURAL_STRAIGHT_FLUSH",
    "PROGRESSIVE",
    "PROGRESSIVE_EXAMPLE",
    "PROGRESSIVE_HANDS",
    "PROGRESSIVE_METER",
    "ROYAL_FLUSH",
    "SEVEN_CARD_STRAIGHT_FLUSH",
    "SEVEN_CARD_STRAIGHT_FLUSH_WITH_A_JOKER",
    "STRAIGHT",
    "STRAIGHT_FLUSH_WITH_A_JOKER",
    "THREE_OF_A_KIND",
    "THREE_PAIR",
    "FortuneAsiaPokerGame",
    "FortuneAsiaPokerRules",
    "FortuneHand",
    "check_payout_limit",
    "check_paytables",
    "envy_amounts",
    "envy_wager_name",
    "fortune_hand",
    "most_one_player_wins",
]
