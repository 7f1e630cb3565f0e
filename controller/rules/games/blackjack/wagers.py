"""Blackjack's optional wagers (58 Pa. Code § 633a.6(e)): their hands, paytables and payouts.

The round engine (:mod:`.game`) decides *when* each wager is settled (:mod:`.optional_settle`
settles them); this module says *what* it pays, knowing nothing of the round's state. Hand values
come from :mod:`~controller.rules.rankings.blackjack` and :mod:`~controller.rules.rankings.three_card`;
money from :mod:`~controller.rules.core.money`. The checks of their options are in :mod:`.rules`.

- Three Card Poker Wager, § 633a.7(g)(8): "the dealer's up card and the player's
  initial two cards form a three-card Poker hand of a straight flush,
  three-of-a-kind, straight or a flush"; paid "in accordance with § 633a.13(k)",
  which our copy does not print: the paytable is the Rules Submission's.
- Straight Jack Progressive Wager, § 633a.7(g)(9), (o)(3), § 633a.13(m)(1): the
  paytable is printed and fixed here.
- House Money Wager, § 633a.7(g)(10), § 633a.13(n): printed, one table for a
  single deck and one for multiple decks.
- Hit and Run Progressive Wager, § 633a.7(o)(2): the paytable, § 633a.13(l), is
  not in our copy; the Rules Submission writes it out, one row per hand of
  :data:`HIT_AND_RUN_ROWS`.
- Bad Beat Progressive Wager, § 633a.6(e)(8), § 633a.2(c), § 633a.7(h): neither
  its winning hands nor its paytable are in our copy. This controller pays it
  when a player's hand of at least the Rules Submission's total (20 by default)
  loses to a dealer's 21, by the dealer's 21 (:data:`BAD_BEAT_ROWS`), with the
  paytable from the Rules Submission (docs/games/blackjack.md says why).

Progressive payouts (§ 633a.7(o)(2)(ii), (o)(3)(ii)): a share of the meter is of
the meter "as it stands" when that player is paid, from the dealer's right
(:func:`pay_progressive`); several players winning 100% of the meter "share the
maximum amount equally"; a payout of "odds of 100 for 1 or greater" is verified
by a floorperson; a payout of 10% of the meter or more (Straight Jack) or of 100%
(Hit and Run) "may not be paid from the table inventory container".

One optional wager after another (Three Card Poker, House Money, Straight Jack, Hit and Run, Bad
Beat), each its paytable and its payout, and the progressive payout they share
(:func:`pay_progressive`); a wager's rules read in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Final

from ...core.cards import Card
from ...core.engine import IllegalEvent
from ...core.hand import HandValue
from ...core.money import (
    Award,
    Cents,
    MeterShare,
    Odds,
    format_money,
    parse_award,
    pay_from_meter,
    split_evenly,
)
from ...core.options import paytable
from ...core.settlement import FLOORPERSON_VERIFY, NOT_FROM_INVENTORY, Outcome, Result
from ...rankings.blackjack import (
    STRAIGHT_JACK_PAYTABLE,
    HitAndRunHand,
    StraightJackRun,
    blackjack_value,
    hit_and_run_hand,
    house_money_hand,
    house_money_odds,
    is_blackjack,
)
from ...rankings.three_card import blackjack_three_card_hand

# --- wager names, as records and settlements write them ------------------------------------------

BLACKJACK: Final = "blackjack"
"""The Blackjack Wager (§ 633a.6(d)); a hand formed by splitting is ``blackjack.1``, ``blackjack.2``..."""
DOUBLE_DOWN: Final = "double_down"
"""The Double Down Wager (§ 633a.10) on a hand: ``double_down``, ``double_down.1``..."""
INSURANCE: Final = "insurance"
"""The Insurance Wager (§ 633a.8), a decision when the dealer's up card is an ace."""
BAD_BEAT: Final = "bad_beat"
THREE_CARD_POKER: Final = "three_card_poker"
HIT_AND_RUN: Final = "hit_and_run"
STRAIGHT_JACK: Final = "straight_jack"
HOUSE_MONEY: Final = "house_money"

OPTIONAL_WAGERS: Final = (BAD_BEAT, THREE_CARD_POKER, HIT_AND_RUN, STRAIGHT_JACK, HOUSE_MONEY)
"""The optional wagers this controller settles, in the order § 633a.6(e) lists them ((8), (10)-(12))."""
PROGRESSIVES: Final = (BAD_BEAT, HIT_AND_RUN, STRAIGHT_JACK)
"""The progressive wagers; each has a meter of the same name."""

TITLES: Final[Mapping[str, str]] = MappingProxyType(
    {
        BLACKJACK: "Blackjack Wager",
        DOUBLE_DOWN: "Double Down Wager",
        INSURANCE: "Insurance Wager",
        BAD_BEAT: "Bad Beat Progressive Wager",
        THREE_CARD_POKER: "Three Card Poker Wager",
        HIT_AND_RUN: "Hit and Run Progressive Wager",
        STRAIGHT_JACK: "Straight Jack Progressive Wager",
        HOUSE_MONEY: "House Money Wager",
    }
)

# --- Three Card Poker Wager, § 633a.7(g)(8) --------------------------------------------------------

THREE_CARD_POKER_ROWS: Final = ("straight_flush", "three_of_a_kind", "straight", "flush")
"""The winning hands of § 633a.7(g)(8), highest first: the rows of the Rules Submission's paytable."""
_THREE_CARD_ROW: Final = {
    "straight flush": "straight_flush",
    "three-of-a-kind": "three_of_a_kind",
    "straight": "straight",
    "flush": "flush",
}
THREE_CARD_POKER_SECTION: Final = "§ 633a.7(g)(8), § 633a.13(k)"


def three_card_poker_hand(initial: Sequence[Card], up_card: Card, decks: int) -> tuple[str | None, HandValue]:
    """The paytable row the initial two cards and the dealer's up card make (or None), and the hand."""
    value = blackjack_three_card_hand(initial, up_card, decks=decks)
    return _THREE_CARD_ROW.get(value.category), value


# --- House Money Wager, § 633a.7(g)(10), § 633a.13(n) ----------------------------------------------

HOUSE_MONEY_SECTION: Final = "§ 633a.7(g)(10), § 633a.13(n)"


def house_money_award(initial: Sequence[Card], decks: int) -> tuple[str | None, Odds | None]:
    """The House Money hand of the initial two cards and its odds: (n)(1) one deck, (n)(2) several."""
    hand = house_money_hand(initial)
    if hand is None:
        return None, None
    return hand, Odds(house_money_odds(hand, single_deck=decks == 1), 1, "to")


# --- Straight Jack Progressive Wager, § 633a.13(m)(1) ----------------------------------------------

STRAIGHT_JACK_AWARDS: Final[Mapping[str, Award]] = MappingProxyType(
    {category: parse_award(text) for category, text in STRAIGHT_JACK_PAYTABLE if text != "lose"}
)
"""§ 633a.13(m)(1), by the category of :class:`~.blackjack_hands.StraightJackRun`."""
STRAIGHT_JACK_SECTION: Final = "§ 633a.7(o)(3), § 633a.13(m)(1)"


def straight_jack_award(run: StraightJackRun) -> Award | None:
    """What the straight pays under § 633a.13(m)(1); None for no two-card straight (§ 633a.7(g)(9))."""
    return STRAIGHT_JACK_AWARDS.get(run.category)


# --- Hit and Run Progressive Wager, § 633a.7(o)(2) -------------------------------------------------

HIT_AND_RUN_ROWS: Final = (
    "dealer_blackjack",
    "five_cards",
    "six_cards",
    "seven_cards",
    "eight_or_more_cards",
)
"""The winning dealer hands of § 633a.7(o)(2)(i), the rows of the paytable (§ 633a.13(l), not printed)."""
HIT_AND_RUN_SECTION: Final = "§ 633a.7(o)(2), § 633a.13(l)"
_CARD_COUNT_ROW: Final = {5: "five_cards", 6: "six_cards", 7: "seven_cards"}


def hit_and_run_row(dealer: Sequence[Card]) -> tuple[str | None, HitAndRunHand]:
    """The row the dealer's final hand wins on, counting the card that busts it (§ 633a.7(o)(2)(i))."""
    hand = hit_and_run_hand(dealer)
    if hand.blackjack:
        return "dealer_blackjack", hand
    if not hand.wins:
        return None, hand
    return _CARD_COUNT_ROW.get(hand.card_count, "eight_or_more_cards"), hand


# --- Bad Beat Progressive Wager, § 633a.6(e)(8) -------------------------------------------------------

BAD_BEAT_ROWS: Final = (
    "dealer_blackjack",
    "dealer_21_three_cards",
    "dealer_21_four_cards",
    "dealer_21_five_cards",
    "dealer_21_six_cards",
    "dealer_21_seven_or_more_cards",
)
"""The dealer's 21 that beats the player: the rows of the Rules Submission's Bad Beat paytable."""
BAD_BEAT_SECTION: Final = "§ 633a.6(e)(8), § 633a.7(h); paytable of the Rules Submission"
_BAD_BEAT_COUNT_ROW: Final = {
    3: "dealer_21_three_cards",
    4: "dealer_21_four_cards",
    5: "dealer_21_five_cards",
    6: "dealer_21_six_cards",
}


def bad_beat_row(dealer: Sequence[Card]) -> str | None:
    """The row of a dealer's 21 (a Blackjack, or 21 of three or more cards); None for any other hand."""
    if is_blackjack(dealer):
        return "dealer_blackjack"
    value = blackjack_value(dealer)
    if value.key != (21,):
        return None
    return _BAD_BEAT_COUNT_ROW.get(len(dealer), "dealer_21_seven_or_more_cards")


# --- paying -------------------------------------------------------------------------------------------

FLOORPERSON_ODDS: Final = 100
"""§ 633a.7(o)(2)(ii)(B), (o)(3)(ii)(B): a floorperson verifies "odds of 100 for 1 or greater"."""


def for_one(odds: Odds) -> Fraction:
    """The odds "for 1": what one unit returns in all, the unit included ("200 to 1" is 201 for 1)."""
    return Fraction(odds.pays, odds.per) + (1 if odds.kind == "to" else 0)


def pay_odds(
    seat: int,
    wager: str,
    stake: Cents,
    odds: Odds,
    *,
    hand: str,
    section: str,
    note: str = "",
) -> Outcome:
    """A winning wager paid at ``odds`` in full: § 633a.13(o) "Any maximum payout limit established
    by the certificate holder shall apply only to payouts of Royal Match 21 Wagers and King's
    Bounty Wagers", and neither is offered here."""
    words = f"{odds}; {note}" if note else f"{odds}"
    return Outcome(seat, wager, stake, Result.WIN, odds.net(stake), hand, section, words)


def lose(seat: int, wager: str, stake: Cents, *, hand: str, section: str, note: str) -> Outcome:
    return Outcome(seat, wager, stake, Result.LOSE, -stake, hand, section, note)


@dataclass(frozen=True, slots=True)
class Claim:
    """One seat's progressive wager as the dealer comes to it: what it won (``award``; None: lost)."""

    seat: int
    stake: Cents
    award: Award | None
    hand: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Progressive:
    """How one progressive wager pays: its meter and the rules of § 633a.7(o)(2)(ii) or (o)(3)(ii)."""

    wager: str
    section: str
    reset: Cents
    inventory_percent: Fraction
    """A share of the meter at least this percent "may not be paid from the table inventory container"."""
    share_returns_wager: bool = True
    """Whether a share of the meter returns the wager beside it (``<wager>.meter_share_returns_wager``)."""


def pay_progressive(
    progressive: Progressive,
    claims: Sequence[Claim],
    meter: Cents | None,
    turns: Mapping[int, Cents] | None = None,
) -> tuple[list[Outcome], Cents | None]:
    """Settle ``claims`` (in the dealer's order, from the right) and give the meter after them.

    ``turns``: seat -> the meter when that seat is paid, where the central meter said so (its
    award for the seat's hit, :mod:`~controller.rules.core.meter_turns`); the other seats are paid
    from ``meter`` walked down. Players sharing a 100% award share the meter of the first of them.

    A share of the meter is of the meter as it stands when that player is paid,
    and the meter then holds the rest, or its reset amount after a 100% award
    (:func:`~.money.pay_from_meter`). When more than one player wins 100% of the
    meter, "each player shall share the maximum amount equally" (§ 633a.7(o)(2)(ii)(C),
    (o)(3)(ii)(C)): the meter as it stands when the first of them is paid is
    divided equally (the odd cent stays on the meter's side, that is with the
    house), and the meter goes back to its reset amount. Odds added to a share
    ("and 200 to 1") are paid on the player's own wager. No payout limit holds
    them (§ 633a.13(o): a limit applies "only to payouts of Royal Match 21 Wagers
    and King's Bounty Wagers").
    """
    sharing = sum(1 for c in claims if isinstance(c.award, MeterShare) and c.award.percent == 100)
    shared: Cents | None = None
    outcomes: list[Outcome] = []
    for claim in claims:
        award = claim.award
        if award is None:
            outcomes.append(
                lose(
                    claim.seat,
                    progressive.wager,
                    claim.stake,
                    hand=claim.hand,
                    section=progressive.section,
                    note=claim.note or "no winning hand",
                )
            )
            continue
        flags: list[str] = []
        sharer = isinstance(award, MeterShare) and award.percent == 100 and sharing > 1
        if turns and not (sharer and shared is not None):
            # § 633a.7(o): the meter as it stands when this player is paid, as the central meter said.
            meter = turns.get(claim.seat, meter)
        if meter is None:
            # A share is of the meter; a payout at odds is held against it to know whether it is paid
            # from the table inventory container (§ 633a.7(o)(2)(ii)(C), (o)(3)(ii)(C)).
            raise IllegalEvent(
                f"the {progressive.wager} meter is not known: seat {claim.seat} won {award}; "
                f'give a meter event {{"type": "meter", "name": "{progressive.wager}", ...}}'
            )
        before = meter
        if isinstance(award, Odds):
            high_odds = for_one(award) >= FLOORPERSON_ODDS
            net = award.net(claim.stake)
            note = str(award)
        else:
            if award.percent == 100 and sharing > 1:
                if shared is None:
                    shared, _odd = split_evenly(meter, sharing)
                    meter = progressive.reset
                paid = shared
                note = f"{award}: 100% of {format_money(before)} shared equally by {sharing} players"
            else:
                payment = pay_from_meter(award, meter, progressive.reset)
                paid, meter = payment.paid, payment.meter_after
                note = f"{award}: {format_money(paid)} of the meter {format_money(before)}"
            plus = award.plus.net(claim.stake) if award.plus is not None else 0
            # The wager comes back beside the share, or the share includes it (the option's two
            # readings, docs/games/blackjack.md).
            net = paid + plus - (0 if progressive.share_returns_wager else claim.stake)
            high_odds = net + claim.stake >= FLOORPERSON_ODDS * claim.stake
        # § 633a.7(o)(3)(ii)(C): "a progressive payout that is 10% or more of the jackpot amount on
        # the progressive meter" (Hit and Run, (o)(2)(ii)(C): 100%) is not paid from the table
        # inventory container: a share of that percent, or any payout, odds too, of that much of the
        # meter as it stands when the player is paid.
        share = award.percent if isinstance(award, MeterShare) else Fraction(0)
        if share >= progressive.inventory_percent or net * 100 >= progressive.inventory_percent * before:
            flags.append(NOT_FROM_INVENTORY)
        if high_odds:
            flags.insert(0, FLOORPERSON_VERIFY)
        result = Result.WIN if net > 0 else (Result.PUSH if net == 0 else Result.LOSE)
        if claim.note:
            note = f"{note}; {claim.note}"
        outcomes.append(
            Outcome(
                claim.seat,
                progressive.wager,
                claim.stake,
                result,
                net,
                claim.hand,
                progressive.section,
                note,
                tuple(flags),
            )
        )
    return outcomes, meter


# --- the Rules Submission of the optional wagers ---------------------------------------------------


def optional_paytable(rows: Iterable[str]) -> Callable[[object], Mapping[str, Award | None] | None]:
    """A paytable written out in the Rules Submission, or None where it gives none (``"none"``)."""
    parse = paytable(rows)

    def parse_optional(raw: object) -> Mapping[str, Award | None] | None:
        return None if raw is None or raw in ("", "none") else parse(raw)

    return parse_optional
