"""Blackjack and its optional wagers: 58 Pa. Code ch. 633a, as a pure round engine.

Our copy of the chapter (43 Pa.B. 834) prints only the amended parts: § 633a.1
(some definitions), § 633a.2(b)(13)-(16), (c), (d), § 633a.6(e)(10)-(12), (f),
§ 633a.7(g)(8)-(10), (h), (o)(2), (o)(3), § 633a.13(m)-(o) and § 635a.10(a). The
base game (§ 633a.7(a)-(f), § 633a.8 insurance, § 633a.9 surrender, § 633a.10
doubling, § 633a.11 splitting, § 633a.13(a)-(l), § 633a.14 irregularities) is the
standard Pennsylvania game: a Blackjack pays 3 to 2, insurance 2 to 1, other
winning wagers 1 to 1; the dealer draws to 16 and stands on 17 (on a soft 17 as
the Rules Submission says); doubling, splitting and surrender as the Rules
Submission says. Where the text was open, the choice is in docs/games/blackjack.md.

The round, as events (:mod:`.events`):

1. ``wager`` ``blackjack`` and the optional wagers offered (``three_card_poker``,
   ``straight_jack``, ``house_money``, ``hit_and_run``, ``bad_beat``), each at a
   seat holding a Blackjack Wager (§ 633a.6(e)); then ``no_more_bets`` (the
   lock-out of § 633a.2(c), (d)(2)).
2. ``cards``: two to each seat with a Blackjack Wager and one, the up card, to the
   dealer. The hole card is dealt face down; it is given when it is revealed.
3. The optional wagers are settled right after the second card, from the
   dealer's right, in the order of § 633a.7(g): Three Card Poker ((g)(8)),
   Straight Jack that lost ((g)(9)), House Money ((g)(10)). A winning House Money
   Wager waits for the card reader when the up card is an ace or a 10-count card
   ((g)(10)(i)).
4. Up card an ace: ``decision`` ``insurance`` (optional ``amount``, at most half the
   Blackjack Wager) or ``even_money`` (a player's Blackjack) (§ 633a.8). Up card an
   ace or a 10-count: ``hole_card_reader`` (§ 633a.7(h)). A dealer Blackjack ends
   the round: the dealer's hole card (``cards`` to ``"dealer"``) and settlement.
5. ``decision`` ``add_house_money`` (§ 633a.7(g)(10)(ii)) before play begins; then
   from seat 1 (the dealer's left), hand by hand: ``hit``, ``stand``,
   ``double_down`` (optional ``amount``), ``split``, ``surrender``; each card a
   ``cards`` event to the seat (``hand`` for a hand formed by splitting). At a
   Spanish 21 table (``spanish_21.offered``, § 635a.10(a)) ``double_down`` is also
   made on three or more cards; with ``spanish_21.rescue`` a doubled hand that is
   not over 21 then waits for ``stand`` or ``rescue`` (§ 635a.10: the original
   wager is forfeited, the Double Down Wager returned).
6. The dealer's hole card and draws (``cards`` to ``"dealer"``), then settlement in
   the order the dealer settles, each stage from the dealer's right: the optional
   wagers of § 633a.7(g) (step 3), even money, what waited for the card reader
   (House Money, insurance), the Blackjack and Double Down Wagers, then the
   remaining optional wagers of § 633a.7(o): Bad Beat, Hit and Run ((o)(2)),
   Straight Jack ((o)(3)).

``meter`` events (``straight_jack``, ``hit_and_run``, ``bad_beat``) may come at any
time; ``irregularity`` (:data:`IRREGULARITIES`) voids what is not yet settled.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from .blackjack_hands import (
    blackjack_value,
    dealer_must_hit,
    hand_total,
    is_blackjack,
    is_ten_count,
)
from .blackjack_wagers import (
    BAD_BEAT,
    BAD_BEAT_ROWS,
    BLACKJACK,
    DOUBLE_DOWN,
    HIT_AND_RUN,
    HIT_AND_RUN_ROWS,
    HOUSE_MONEY,
    INSURANCE,
    OPTIONAL_WAGERS,
    PROGRESSIVES,
    STRAIGHT_JACK,
    STRAIGHT_JACK_AWARDS,
    THREE_CARD_POKER,
    THREE_CARD_POKER_ROWS,
    TITLES,
    check_paytables,
    check_progressives,
    house_money_outcome,
    house_money_payout,
    house_money_wins,
    lose,
    optional_paytable,
    settle_remaining,
    settle_second_card,
    unknown_meters,
)
from .cards import ACE, TEN, Card, format_cards
from .engine import Game, GameBase, IllegalEvent
from .events import Event, seat_of
from .hand import HandValue
from .hooks import Actor, Devices, Progressive, Waiting, in_words, meter_rows
from .money import Award, Cents, Odds, format_money
from .option_groups import ProgressiveOptions, SideWagerOptions
from .options import boolean, choice, integer, money, option
from .settlement import Outcome, Result, Settlement, void_all

NAME: Final = "blackjack"

BLACKJACK_ODDS: Final = Odds(3, 2, "to")  # § 633a.13(a): a Blackjack pays 3 to 2
EVEN_ODDS: Final = Odds(1, 1, "to")  # § 633a.13(a): other winning Blackjack and Double Down Wagers
INSURANCE_ODDS: Final = Odds(2, 1, "to")  # § 633a.13: a winning Insurance Wager pays 2 to 1

STRAIGHT_JACK_MINIMUM: Final[Cents] = 500_000
"""§ 633a.13(m)(2): the Straight Jack initial and reset amounts "be at least $5,000"."""
AGGREGATE_MINIMUM: Final[Cents] = 2_500_000
"""§ 633a.13(o): the Royal Match 21 / King's Bounty maximum payout "shall be at least $25,000"."""

# Phases of a round.
BETTING: Final = "betting"
DEALING: Final = "dealing"
CHECK: Final = "check"
"""Up card an ace or a 10-count card: insurance offered (ace), then the card reader (§ 633a.7(h))."""
DEALER_BLACKJACK: Final = "dealer_blackjack"
"""The reader found a Blackjack: waiting for the hole card to be turned over."""
PLAY: Final = "play"
DEALER: Final = "dealer"
COMPLETE: Final = "complete"
VOID: Final = "void"

# Decisions, in the regulation's words.
HIT: Final = "hit"
STAND: Final = "stand"
DOUBLE: Final = "double_down"
SPLIT: Final = "split"
SURRENDER: Final = "surrender"
RESCUE: Final = "rescue"
"""§ 635a.10 ("Double Down Wager; rescue"): after the double-down card, forfeit the original wager and
take back the Double Down Wager."""
INSURE: Final = "insurance"
EVEN_MONEY: Final = "even_money"
ADD_HOUSE_MONEY: Final = "add_house_money"
PLAY_ACTIONS: Final = (HIT, STAND, DOUBLE, SPLIT, SURRENDER, RESCUE)
ACTIONS: Final = (*PLAY_ACTIONS, INSURE, EVEN_MONEY, ADD_HOUSE_MONEY)

# Status of a player's hand.
DECIDE: Final = "decide"
CARD: Final = "card"
DONE: Final = "done"

DOUBLE_TOTALS: Final[Mapping[str, frozenset[int] | None]] = MappingProxyType(
    {"any_two": None, "9_10_11": frozenset({9, 10, 11}), "10_11": frozenset({10, 11})}
)

IRREGULARITIES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "shoe_jam": "the automated dealing shoe jams, stops or fails to deal",
        "card_reader_malfunction": "the card reader device fails to read the hole card",
        "shuffler_malfunction": "the automated card shuffling device fails during the round",
    }
)
"""Device faults; each voids every wager not yet settled (design rule, § 633a.14 not in our copy)."""
SPANISH_21_DOUBLE: Final = "§ 635a.10(a)"
"""The Spanish 21 Double Down Wager: on two or more cards of a hand or of a split pair, never on a
Blackjack, at most the original wager, one more card only."""
RESCUE_SECTION: Final = "§ 635a.10 rescue (its subsection is not in our copy: the published Spanish 21 rule)"
SPANISH_DECK_SECTION: Final = "ch. 635a (§ 635a.3 not in our copy): the published Spanish 21 deck"

IRREGULARITY_SECTION: Final = (
    "§ 633a.14 (not in our copy); design: a device fault voids the round and returns the wagers"
)


# --- the Rules Submission ------------------------------------------------------------------------


THREE_CARD_POKER_OPTIONS: Final = SideWagerOptions(
    THREE_CARD_POKER, TITLES[THREE_CARD_POKER], "§ 633a.6(e), § 633a.7(g)(8)"
)
HOUSE_MONEY_OPTIONS: Final = SideWagerOptions(HOUSE_MONEY, TITLES[HOUSE_MONEY], "§ 633a.6(e)(12)")
STRAIGHT_JACK_OPTIONS: Final = ProgressiveOptions(STRAIGHT_JACK, TITLES[STRAIGHT_JACK], "§ 633a.6(e)(11)")
HIT_AND_RUN_OPTIONS: Final = ProgressiveOptions(HIT_AND_RUN, TITLES[HIT_AND_RUN], "§ 633a.6(e)(10)")
BAD_BEAT_OPTIONS: Final = ProgressiveOptions(BAD_BEAT, TITLES[BAD_BEAT], "§ 633a.6(e)(8)")
BAD_BEAT_METER_SECTION: Final = "§ 633a.6(e)(8), § 605a.7"


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
    spanish_deck: bool = option(
        "spanish_21.spanish_deck",
        boolean,
        False,
        section="ch. 635a (§ 635a.3 not in our copy); § 601a.2",
        help="the shoe holds Spanish decks: 48 cards, the four 10s removed (jacks, queens, kings stay)",
    )
    payout_limit: Cents | None = option(
        "payout_limit",
        money(optional=True),
        None,
        section="§ 633a.2(b)(16)",
        help="payout limit per hand on the optional wagers' odds payouts (not shares of a meter)",
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

    def offered(self, wager: str) -> bool:
        return {
            THREE_CARD_POKER: self.three_card_poker_offered,
            STRAIGHT_JACK: self.straight_jack_offered,
            HOUSE_MONEY: self.house_money_offered,
            HIT_AND_RUN: self.hit_and_run_offered,
            BAD_BEAT: self.bad_beat_offered,
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


RULES_CHECKS: Final[tuple[Callable[[BlackjackRules], Iterable[str]], ...]] = (
    check_paytables,
    check_progressives,
    check_spanish_21,
)


# --- the state of a round ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One hand of a player: the Blackjack Wager's hand, or one formed by splitting pairs."""

    cards: tuple[Card, ...]
    stake: Cents
    """The Blackjack Wager on this hand (with an added House Money payout; a split hand's matching wager)."""
    double: Cents = 0
    """The Double Down Wager (§ 633a.10), 0 if none."""
    split: bool = False
    split_aces: bool = False
    status: str = DECIDE
    surrendered: bool = False
    rescued: bool = False
    """§ 635a.10: the original wager forfeited, the Double Down Wager taken back."""
    decisions: int = 0

    @property
    def value(self) -> HandValue:
        return blackjack_value(self.cards, after_split=self.split)

    @property
    def is_blackjack(self) -> bool:
        return is_blackjack(self.cards, after_split=self.split)

    @property
    def bust(self) -> bool:
        return hand_total(self.cards)[0] > 21


@dataclass(frozen=True, slots=True)
class SeatState:
    """One betting position: its wagers, initial two cards and hands."""

    wagers: Mapping[str, Cents]
    """The wagers placed before "no more bets", in the order placed."""
    initial: tuple[Card, ...] = ()
    hands: tuple[PlayerHand, ...] = ()
    insurance: Cents = 0
    even_money: bool = False
    house_money_added: Cents = 0

    @property
    def stake(self) -> Cents:
        return self.wagers[BLACKJACK]


def _empty() -> Mapping[int, SeatState]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class BlackjackState:
    """One round so far. Immutable: :meth:`Blackjack.apply` returns a new one."""

    rules: BlackjackRules
    meters: Mapping[str, Cents]
    """The progressive meters as they stand now (from the start, then ``meter`` events)."""
    seats: Mapping[int, SeatState] = dataclasses.field(default_factory=_empty)
    phase: str = BETTING
    dealer: tuple[Card, ...] = ()
    reader: str | None = None
    play_started: bool = False
    irregularities: tuple[Event, ...] = ()
    void: str = ""
    void_phase: str = ""
    """The phase the round was in when it was voided: what was settled before stands."""

    @property
    def up_card(self) -> Card | None:
        return self.dealer[0] if self.dealer else None

    @property
    def reader_used(self) -> bool:
        """The up card is an ace or a 10-count card: the hole card goes to the reader (§ 633a.7(h))."""
        up = self.up_card
        return up is not None and (up.rank == ACE or is_ten_count(up))

    @property
    def turn(self) -> tuple[int, int] | None:
        """The seat and hand to act next, from the dealer's left (seat 1), hand by hand."""
        for number in sorted(self.seats):
            for index, hand in enumerate(self.seats[number].hands):
                if hand.status != DONE:
                    return number, index
        return None

    @property
    def dealer_draws(self) -> bool:
        """Whether the dealer completes the hand: a player's hand is still in play, or a Hit and Run wager."""
        for seat in self.seats.values():
            if HIT_AND_RUN in seat.wagers:
                return True
            if seat.even_money:
                continue
            for hand in seat.hands:
                if not (hand.surrendered or hand.rescued or hand.bust or hand.is_blackjack):
                    return True
        return False

    @property
    def dealer_complete(self) -> bool:
        if len(self.dealer) < 2:
            return False
        return not self.dealer_draws or not dealer_must_hit(self.dealer, self.rules.hits_soft_17)

    def all_cards(self) -> Iterator[Card]:
        for seat in self.seats.values():
            if seat.hands:
                for hand in seat.hands:
                    yield from hand.cards
            else:
                yield from seat.initial
        yield from self.dealer


def _replace_seat(state: BlackjackState, number: int, seat: SeatState) -> Mapping[int, SeatState]:
    seats = dict(state.seats)
    seats[number] = seat
    return MappingProxyType(seats)


def _replace_hand(seat: SeatState, index: int, hand: PlayerHand) -> SeatState:
    hands = list(seat.hands)
    hands[index] = hand
    return dataclasses.replace(seat, hands=tuple(hands))


def _money(cents: Cents) -> str:
    return format_money(cents)


# --- the game ------------------------------------------------------------------------------------


class Blackjack(GameBase[BlackjackRules, BlackjackState]):
    """Blackjack (ch. 633a) for the round engine (:class:`~.engine.Game`)."""

    name = NAME
    title = "Blackjack"
    chapter = "58 Pa. Code ch. 633a"
    rules_class = BlackjackRules
    rules_checks = RULES_CHECKS
    joker = False

    def decks(self, rules: BlackjackRules) -> int:
        return rules.decks

    def start(self, rules: BlackjackRules, meters: Mapping[str, Cents]) -> BlackjackState:
        current: dict[str, Cents] = {}
        for name, amount in meters.items():
            _check_meter(rules, name, amount)
            current[name] = amount
        return BlackjackState(rules, MappingProxyType(current))

    def apply(self, state: BlackjackState, event: Event) -> BlackjackState:
        if state.phase == VOID:
            raise IllegalEvent(f"the round is void ({state.void}); it accepts nothing more")
        handlers: dict[str, Callable[[BlackjackState, Event], BlackjackState]] = {
            "wager": _wager,
            "no_more_bets": _no_more_bets,
            "cards": _cards,
            "decision": _decision,
            "hole_card_reader": _reader,
            "meter": _meter,
            "irregularity": _irregularity,
        }
        handler = handlers.get(event.type)
        if handler is None:
            raise IllegalEvent(f"Blackjack has no {event.type} events")
        return handler(state, event)

    def hand_dealt_to(self, state: BlackjackState, seat: int) -> int:
        """The hand of ``seat`` a card dealt to the seat now goes to (see
        :func:`.engine.hand_dealt_to`): the hand in play there, since split hands are played one
        at a time (§ 633a.11); ``0`` when no hand of that seat is in play."""
        turn = state.turn
        return turn[1] if turn is not None and turn[0] == seat else 0

    def waiting_for(self, state: BlackjackState) -> tuple[Waiting, ...]:
        return waiting(state)

    def progressives(self, rules: BlackjackRules) -> tuple[Progressive, ...]:
        """The Bad Beat, Hit and Run and Straight Jack Progressive Wagers the Rules Submission
        offers (§ 633a.6(e)(8), (10), (11)), each with its meter of the same name; placed through
        the touchscreen in any amount, no sensor counts them."""
        declared = (
            (
                BAD_BEAT,
                rules.bad_beat_offered,
                "§ 633a.6(e)(8)",
                rules.bad_beat_initial,
                rules.bad_beat_reset,
                rules.bad_beat_rate,
                meter_rows(rules.bad_beat_paytable or {}),
            ),
            (
                HIT_AND_RUN,
                rules.hit_and_run_offered,
                "§ 633a.6(e)(10), § 633a.13(l)",
                rules.hit_and_run_initial,
                rules.hit_and_run_reset,
                rules.hit_and_run_rate,
                meter_rows(rules.hit_and_run_paytable or {}),
            ),
            (
                STRAIGHT_JACK,
                rules.straight_jack_offered,
                "§ 633a.6(e)(11), § 633a.13(m)",
                rules.straight_jack_initial,
                rules.straight_jack_reset,
                rules.straight_jack_rate,
                meter_rows(STRAIGHT_JACK_AWARDS),
            ),
        )
        return tuple(
            Progressive(name, TITLES[name], section, False, None, initial, reset, rate, rows)
            for name, offered, section, initial, reset, rate, rows in declared
            if offered
        )

    def devices(self, rules: BlackjackRules) -> Devices:
        """The automated dealing shoe and the hole-card reader: with an ace or a 10-count up card
        the hole card goes to the reader (§ 633a.7(h))."""
        return Devices(shoe=True, hole_card_reader=True, section="§ 633a.7(h)")

    def settle(self, state: BlackjackState) -> Settlement:
        if state.phase == VOID:
            return _void_settlement(state)
        if state.phase != COMPLETE:
            raise IllegalEvent(f"the round is not complete; it waits for {waiting_for(state)}")
        return _settlement(state)


# --- events --------------------------------------------------------------------------------------


def _check_meter(rules: BlackjackRules, name: str, amount: Cents) -> None:
    if name not in PROGRESSIVES or not rules.offered(name):
        offered = [p for p in PROGRESSIVES if rules.offered(p)]
        raise IllegalEvent(
            f"no {name!r} meter: the meters are those of the progressive wagers offered "
            f"({', '.join(offered) or 'none'})"
        )
    reset = rules.reset(name)
    if amount < reset:
        raise IllegalEvent(
            f"the {name} meter {_money(amount)} is below its reset amount {_money(reset)} "
            f"(the meter never falls below it)"
        )


def _meter(state: BlackjackState, event: Event) -> BlackjackState:
    if event.name is None or event.amount is None:
        raise IllegalEvent("a meter event needs a name and an amount")
    _check_meter(state.rules, event.name, event.amount)
    meters = dict(state.meters)
    meters[event.name] = event.amount
    return dataclasses.replace(state, meters=MappingProxyType(meters))


def _wager(state: BlackjackState, event: Event) -> BlackjackState:
    rules = state.rules
    seat, name, amount = event.seat, event.wager, event.amount
    if seat is None or name is None or amount is None:
        raise IllegalEvent("a wager needs a seat, a wager name and an amount")
    if state.phase != BETTING:
        raise IllegalEvent(
            f"seat {seat} {name}: no wager is placed after 'no more bets' (§ 633a.6; the lock-out of "
            f"§ 633a.2(c), (d)(2))"
        )
    _check_seat(rules, seat)
    if name in (INSURANCE, DOUBLE_DOWN):
        raise IllegalEvent(f"seat {seat}: {name} is a decision during the round, not a wager before the deal")
    if name != BLACKJACK and name not in OPTIONAL_WAGERS:
        known = ", ".join((BLACKJACK, *OPTIONAL_WAGERS))
        raise IllegalEvent(f"seat {seat}: no wager {name!r} in this game (wagers: {known})")
    if name != BLACKJACK and not rules.offered(name):
        raise IllegalEvent(
            f"seat {seat}: the {TITLES[name]} is not offered in this Rules Submission (§ 633a.6(e))"
        )
    if amount <= 0:
        raise IllegalEvent(f"seat {seat} {name}: a wager must be more than 0.00")
    placed = state.seats.get(seat)
    if name != BLACKJACK and (placed is None or BLACKJACK not in placed.wagers):
        raise IllegalEvent(
            f"seat {seat}: the {TITLES[name]} is offered to a player who placed a Blackjack Wager "
            f"(§ 633a.6(e)); place the blackjack wager first"
        )
    wagers = dict(placed.wagers) if placed is not None else {}
    if name in wagers:
        raise IllegalEvent(f"seat {seat} already has a {name} wager of {_money(wagers[name])}")
    wagers[name] = amount
    seat_state = SeatState(MappingProxyType(wagers))
    return dataclasses.replace(state, seats=_replace_seat(state, seat, seat_state))


def _no_more_bets(state: BlackjackState, event: Event) -> BlackjackState:
    if state.phase != BETTING:
        raise IllegalEvent("the dealer has already announced 'no more bets'")
    if not state.seats:
        raise IllegalEvent("no Blackjack Wager has been placed; there is no round to deal")
    return dataclasses.replace(state, phase=DEALING)


def _check_seat(rules: BlackjackRules, seat: int) -> None:
    if not 1 <= seat <= rules.seats:
        raise IllegalEvent(f"seat {seat} is not at this table: seats 1 to {rules.seats} (seats, § 633a.2)")


def _cards(state: BlackjackState, event: Event) -> BlackjackState:
    cards = event.cards
    who = "the dealer" if event.to == "dealer" else f"seat {event.to}"
    if event.to == "board":
        raise IllegalEvent("Blackjack has no community cards")
    if not cards:
        raise IllegalEvent(f"a cards event to {who} gives no cards")
    if any(c.is_joker for c in cards):
        raise IllegalEvent("Blackjack is played without a joker (§ 633a.3)")
    if state.rules.spanish_deck:
        tens = [str(c) for c in cards if c.rank == TEN]
        if tens:
            raise IllegalEvent(
                f"{', '.join(tens)} is not in the shoe: a Spanish 21 table deals Spanish decks, 48 cards "
                f"without the four 10s (spanish_21.spanish_deck; {SPANISH_DECK_SECTION})"
            )
    counts = Counter(state.all_cards())
    counts.update(cards)
    decks = state.rules.decks
    for c, n in counts.items():
        if n > decks:
            raise IllegalEvent(
                f"{c} would be dealt {n} times this round, but {decks} deck{'s' if decks > 1 else ''} "
                f"hold{'' if decks > 1 else 's'} it {decks} time{'s' if decks > 1 else ''}"
            )
    seat = seat_of(event.to)
    if state.phase == DEALING:
        return _deal(state, seat, event)
    if state.phase == PLAY and seat is not None:
        return _player_card(state, seat, event)
    if state.phase in (DEALER, DEALER_BLACKJACK, COMPLETE) and seat is None:
        return _dealer_cards(state, cards)
    raise IllegalEvent(f"no card is dealt to {who} now: the round waits for {waiting_for(state)}")


def _deal(state: BlackjackState, seat: int | None, event: Event) -> BlackjackState:
    cards = event.cards
    if seat is None:
        if state.dealer or len(cards) != 1:
            raise IllegalEvent(
                "in the deal the dealer receives one card face up; the hole card is dealt face down and "
                "given when it is revealed (§ 633a.7(h))"
            )
        state = dataclasses.replace(state, dealer=cards)
    else:
        placed = state.seats.get(seat)
        if placed is None:
            raise IllegalEvent(f"seat {seat} has no Blackjack Wager and is dealt no cards (§ 633a.7)")
        if event.hand != 0:
            raise IllegalEvent(
                f"seat {seat}: there is no hand {event.hand} in the deal; hands are split later"
            )
        if len(placed.initial) + len(cards) > 2:
            raise IllegalEvent(
                f"seat {seat} would hold {len(placed.initial) + len(cards)} cards; the deal gives each "
                f"player two (§ 633a.7)"
            )
        seat_state = dataclasses.replace(placed, initial=placed.initial + cards)
        state = dataclasses.replace(state, seats=_replace_seat(state, seat, seat_state))
    dealt = len(state.dealer) == 1 and all(len(s.initial) == 2 for s in state.seats.values())
    if not dealt:
        return state
    # The deal is complete: § 633a.7(g) settles the optional wagers now (computed at settlement).
    seats = {
        number: dataclasses.replace(
            s,
            hands=(PlayerHand(s.initial, s.stake, status=DONE if is_blackjack(s.initial) else DECIDE),),
        )
        for number, s in state.seats.items()
    }
    state = dataclasses.replace(state, seats=MappingProxyType(seats))
    if state.reader_used:
        return dataclasses.replace(state, phase=CHECK)
    return _advance(dataclasses.replace(state, phase=PLAY))


def _advance(state: BlackjackState) -> BlackjackState:
    if state.phase == PLAY and state.turn is None:
        state = dataclasses.replace(state, phase=DEALER)
    if state.phase in (DEALER, DEALER_BLACKJACK) and state.dealer_complete:
        state = dataclasses.replace(state, phase=COMPLETE)
    return state


def _reader(state: BlackjackState, event: Event) -> BlackjackState:
    if state.phase != CHECK:
        if state.phase in (BETTING, DEALING):
            raise IllegalEvent("the card reader is used after the deal (§ 633a.7(h))")
        if state.reader is not None:
            raise IllegalEvent(f"the card reader has already been used ({state.reader})")
        raise IllegalEvent(
            "the card reader is used only when the dealer's up card is an ace, king, queen, jack or 10 "
            f"(§ 633a.7(h)); the up card is {state.up_card}"
        )
    if event.result == "blackjack":
        return dataclasses.replace(state, reader="blackjack", phase=DEALER_BLACKJACK)
    return _advance(dataclasses.replace(state, reader="no_blackjack", phase=PLAY))


def _dealer_cards(state: BlackjackState, cards: tuple[Card, ...]) -> BlackjackState:
    dealer = state.dealer
    for c in cards:
        if len(dealer) == 1:
            hole = (*dealer, c)
            if state.reader == "blackjack" and not is_blackjack(hole):
                raise IllegalEvent(
                    f"the card reader found a Blackjack, but the hole card {c} with the up card {dealer[0]} "
                    f"is no Blackjack; record a card_reader_malfunction irregularity instead"
                )
            if state.reader == "no_blackjack" and is_blackjack(hole):
                raise IllegalEvent(
                    f"the card reader found no Blackjack, but the hole card {c} with the up card {dealer[0]} "
                    f"is a Blackjack; record a card_reader_malfunction irregularity instead"
                )
            dealer = hole
            continue
        done = dataclasses.replace(state, dealer=dealer)
        if state.reader == "blackjack":
            raise IllegalEvent("the dealer has a Blackjack: additional cards may not be dealt (§ 633a.7(h))")
        if not done.dealer_draws:
            raise IllegalEvent(
                "no player's hand remains in play and no Hit and Run Progressive Wager was placed: the "
                "dealer reveals the hole card and draws no card (§ 633a.7)"
            )
        if not dealer_must_hit(dealer, state.rules.hits_soft_17):
            rule = "hits" if state.rules.hits_soft_17 else "stands on"
            raise IllegalEvent(
                f"the dealer stands with {blackjack_value(dealer).words} and draws no card {c} (the dealer "
                f"draws to 16 and stands on 17; {rule} a soft 17 per the Rules Submission, § 633a.7)"
            )
        dealer = (*dealer, c)
    return _advance(dataclasses.replace(state, dealer=dealer))


def _player_card(state: BlackjackState, seat: int, event: Event) -> BlackjackState:
    turn = state.turn
    if turn != (seat, event.hand):
        raise IllegalEvent(f"no card is dealt to seat {seat} hand {event.hand} now: {waiting_for(state)}")
    seat_state = state.seats[seat]
    hand = seat_state.hands[event.hand]
    if hand.status != CARD:
        raise IllegalEvent(
            f"seat {seat} hand {event.hand} waits for a decision, not a card: {waiting_for(state)}"
        )
    if len(event.cards) != 1:
        raise IllegalEvent(f"seat {seat} hand {event.hand} receives one card now, not {len(event.cards)}")
    cards = (*hand.cards, event.cards[0])
    total = hand_total(cards)[0]
    if hand.double:
        # § 635a.10(a), § 633a.10: only one additional card on a Double Down. With the rescue offered,
        # a hand not over 21 then waits for the player to stand or rescue (§ 635a.10).
        status = DECIDE if state.rules.spanish_21_rescue and total <= 21 else DONE
    elif hand.split_aces and len(cards) == 2:
        # § 633a.11: split aces receive one card each; a second ace may be split again if allowed.
        can_resplit = (
            cards[1].rank == ACE
            and state.rules.resplit_aces
            and len(seat_state.hands) < state.rules.split_max_hands
        )
        status = DECIDE if can_resplit else DONE
    elif total >= 21:
        status = DONE  # bust, or 21: no further card
    else:
        status = DECIDE
    hand = dataclasses.replace(hand, cards=cards, status=status)
    seats = _replace_seat(state, seat, _replace_hand(seat_state, event.hand, hand))
    return _advance(dataclasses.replace(state, seats=seats))


def _decision(state: BlackjackState, event: Event) -> BlackjackState:
    seat, action = event.seat, event.action
    if seat is None or action is None:
        raise IllegalEvent("a decision needs a seat and an action")
    if action not in ACTIONS:
        raise IllegalEvent(
            f"seat {seat}: no decision {action!r} in Blackjack (decisions: {', '.join(ACTIONS)})"
        )
    seat_state = state.seats.get(seat)
    if seat_state is None:
        raise IllegalEvent(f"seat {seat} has no Blackjack Wager and makes no decision")
    if action in (INSURE, EVEN_MONEY):
        return _insurance(state, seat, seat_state, event)
    if action == ADD_HOUSE_MONEY:
        return _add_house_money(state, seat, seat_state, event)
    return _play(state, seat, seat_state, event)


def _insurance(state: BlackjackState, seat: int, seat_state: SeatState, event: Event) -> BlackjackState:
    rules = state.rules
    up = state.up_card
    if state.phase != CHECK or up is None or up.rank != ACE:
        raise IllegalEvent(
            f"seat {seat}: insurance and even money are offered only when the dealer's up card is an ace, "
            f"before the card reader is used (§ 633a.8, § 633a.7(h)); {waiting_for(state)}"
        )
    if seat_state.insurance or seat_state.even_money:
        raise IllegalEvent(f"seat {seat} has already taken insurance or even money")
    if event.action == EVEN_MONEY:
        if not rules.even_money_offered:
            raise IllegalEvent("even money is not offered in this Rules Submission (§ 633a.8)")
        if not is_blackjack(seat_state.initial):
            raise IllegalEvent(
                f"seat {seat}: even money is offered only to a player with a Blackjack (§ 633a.8)"
            )
        if event.amount is not None:
            raise IllegalEvent(f"seat {seat}: even money pays the Blackjack Wager 1 to 1; give no amount")
        return dataclasses.replace(
            state, seats=_replace_seat(state, seat, dataclasses.replace(seat_state, even_money=True))
        )
    if not rules.insurance_offered:
        raise IllegalEvent("the Insurance Wager is not offered in this Rules Submission (§ 633a.8)")
    most = seat_state.stake // 2
    amount = most if event.amount is None else event.amount
    if not 0 < amount <= most:
        raise IllegalEvent(
            f"seat {seat}: an Insurance Wager is more than 0.00 and at most half the Blackjack Wager, "
            f"{_money(most)} (§ 633a.8), not {_money(amount)}"
        )
    return dataclasses.replace(
        state, seats=_replace_seat(state, seat, dataclasses.replace(seat_state, insurance=amount))
    )


def _add_house_money(state: BlackjackState, seat: int, seat_state: SeatState, event: Event) -> BlackjackState:
    # When it is paid: after the deal (or the reader), before any player acts or the hole card is turned.
    if state.phase not in (PLAY, DEALER) or state.play_started or len(state.dealer) != 1:
        raise IllegalEvent(
            f"seat {seat}: the House Money payout is added to the Blackjack Wager when it is paid, before "
            f"play begins (§ 633a.7(g)(10)(ii)); the round waits for {waiting_for(state)}"
        )
    if HOUSE_MONEY not in seat_state.wagers:
        raise IllegalEvent(f"seat {seat} has no House Money Wager")
    hand, payout, _ = house_money_payout(state.rules, seat_state)
    if hand is None:
        raise IllegalEvent(
            f"seat {seat}: the House Money Wager lost; there is no payout to add (§ 633a.7(g)(10))"
        )
    if seat_state.even_money:
        raise IllegalEvent(f"seat {seat}: the Blackjack Wager was paid even money; nothing to add it to")
    if seat_state.house_money_added:
        raise IllegalEvent(f"seat {seat} has already added the House Money payout")
    if event.hand != 0:
        raise IllegalEvent(f"seat {seat}: the payout is added to the Blackjack Wager (hand 0)")
    added = payout * state.rules.house_money_portion // 100
    if event.amount is not None and event.amount != added:
        raise IllegalEvent(
            f"seat {seat}: the amount added is {_money(added)} ({state.rules.house_money_portion}% of the "
            f"payout {_money(payout)}, § 633a.7(g)(10)(ii)(A)), not {_money(event.amount)}"
        )
    hand0 = seat_state.hands[0]
    seat_state = dataclasses.replace(seat_state, house_money_added=added)
    seat_state = _replace_hand(seat_state, 0, dataclasses.replace(hand0, stake=hand0.stake + added))
    return dataclasses.replace(state, seats=_replace_seat(state, seat, seat_state))


def _same_value(cards: tuple[Card, ...], unlike_tens: bool) -> bool:
    a, b = cards
    if a.rank == b.rank:
        return True
    return unlike_tens and is_ten_count(a) and is_ten_count(b)


def _play(state: BlackjackState, seat: int, seat_state: SeatState, event: Event) -> BlackjackState:
    rules = state.rules
    action = event.action
    index = event.hand
    if action == RESCUE and not rules.spanish_21_rescue:
        raise IllegalEvent(
            f"seat {seat}: the rescue is not offered in this Rules Submission (spanish_21.rescue, "
            f"{RESCUE_SECTION})"
        )
    if state.phase != PLAY:
        raise IllegalEvent(f"seat {seat}: no {action} now; the round waits for {waiting_for(state)}")
    if 0 <= index < len(seat_state.hands):
        named = seat_state.hands[index]
        if action == DOUBLE and named.is_blackjack:
            cited = (
                SPANISH_21_DOUBLE
                if rules.spanish_21_offered
                else f"§ 633a.10, as {SPANISH_21_DOUBLE} words it"
            )
            raise IllegalEvent(
                f'seat {seat} hand {index}: no Double Down Wager on a Blackjack ("Except when a player has '
                f'Blackjack", {cited})'
            )
        if action == RESCUE and named.double and named.bust:
            raise IllegalEvent(
                f"seat {seat} hand {index}: the doubled hand is over 21 and has lost; there is nothing to "
                f"rescue ({RESCUE_SECTION})"
            )
    turn = state.turn
    if turn != (seat, index):
        raise IllegalEvent(
            f"seat {seat} hand {index}: {action} out of turn; players act from the dealer's left, "
            f"hand by hand (§ 633a.7): {waiting_for(state)}"
        )
    hand = seat_state.hands[index]
    if hand.status == CARD:
        raise IllegalEvent(f"seat {seat} hand {index} waits for a card, not a decision")
    if action in (HIT, STAND, SURRENDER, RESCUE) and event.amount is not None:
        raise IllegalEvent(f"seat {seat}: {action} makes no wager; give no amount")
    if hand.double and action not in (STAND, RESCUE):
        raise IllegalEvent(
            f"seat {seat} hand {index} has doubled down and received its one additional card ("
            f"{SPANISH_21_DOUBLE}; § 633a.10): it may stand or rescue, not {action}"
        )
    count = hand.decisions + 1
    if action == HIT:
        if hand.split_aces:
            raise IllegalEvent(f"seat {seat} hand {index}: split aces receive one card each (§ 633a.11)")
        new = dataclasses.replace(hand, status=CARD, decisions=count)
    elif action == STAND:
        new = dataclasses.replace(hand, status=DONE, decisions=count)
    elif action == SURRENDER:
        if not rules.surrender_offered:
            raise IllegalEvent("surrender is not offered in this Rules Submission (§ 633a.9)")
        if hand.split or len(hand.cards) != 2 or hand.decisions:
            raise IllegalEvent(
                f"seat {seat}: a player may surrender only the initial two cards, before any other "
                f"decision on the hand (§ 633a.9)"
            )
        new = dataclasses.replace(hand, status=DONE, surrendered=True, decisions=count)
    elif action == DOUBLE:
        new = _double(rules, seat, index, hand, event.amount)
    elif action == RESCUE:
        new = _rescue(seat, index, hand)
    else:
        return _split(state, seat, seat_state, index, hand, event.amount)
    seats = _replace_seat(state, seat, _replace_hand(seat_state, index, new))
    return _advance(dataclasses.replace(state, seats=seats, play_started=True))


def _double(
    rules: BlackjackRules, seat: int, index: int, hand: PlayerHand, amount: Cents | None
) -> PlayerHand:
    where = f"seat {seat} hand {index}"
    spanish = rules.spanish_21_offered
    if hand.split_aces:
        raise IllegalEvent(
            f"{where}: split aces take one card each, so a Double Down Wager is not on split aces (§ 633a.11)"
        )
    if len(hand.cards) != 2 and not spanish:
        raise IllegalEvent(
            f"{where}: a Double Down Wager is made on two cards (§ 633a.10); on two or more cards only at "
            f"a Spanish 21 table (spanish_21.offered, {SPANISH_21_DOUBLE})"
        )
    if hand.split and not rules.double_after_split:
        raise IllegalEvent(f"{where}: doubling down after splitting is not offered (double_down.after_split)")
    totals = DOUBLE_TOTALS[rules.double_on]
    total = hand_total(hand.cards)[0]
    if totals is not None and total not in totals:
        allowed = ", ".join(str(t) for t in sorted(totals))
        raise IllegalEvent(f"{where}: doubling down is allowed on {allowed} (double_down.on), not on {total}")
    stake = hand.stake if amount is None else amount
    if not 0 < stake <= hand.stake:
        section = f"{SPANISH_21_DOUBLE}: his original Spanish 21 Wager" if spanish else "§ 633a.10"
        raise IllegalEvent(
            f"{where}: a Double Down Wager is more than 0.00 and may not exceed the Blackjack Wager on the "
            f"hand, {_money(hand.stake)} ({section}; § 633a.7(g)(10)(ii)(C)), not {_money(stake)}"
        )
    return dataclasses.replace(hand, double=stake, status=CARD, decisions=hand.decisions + 1)


def _rescue(seat: int, index: int, hand: PlayerHand) -> PlayerHand:
    """§ 635a.10: the player forfeits the original wager and takes back the Double Down Wager."""
    where = f"seat {seat} hand {index}"
    if not hand.double:
        raise IllegalEvent(
            f"{where}: a rescue is made only on a hand that has doubled down and received its one additional "
            f"card ({RESCUE_SECTION}); this hand has no Double Down Wager"
        )
    return dataclasses.replace(hand, rescued=True, status=DONE, decisions=hand.decisions + 1)


def _split(
    state: BlackjackState,
    seat: int,
    seat_state: SeatState,
    index: int,
    hand: PlayerHand,
    amount: Cents | None,
) -> BlackjackState:
    rules = state.rules
    where = f"seat {seat} hand {index}"
    if len(hand.cards) != 2 or not _same_value(hand.cards, rules.split_unlike_tens):
        raise IllegalEvent(f"{where}: only two initial cards of identical value are split (§ 633a.11)")
    if len(seat_state.hands) >= rules.split_max_hands:
        raise IllegalEvent(
            f"{where}: no more than {rules.split_max_hands} hands (split.max_hands, § 633a.11)"
        )
    if hand.split_aces and not rules.resplit_aces:
        raise IllegalEvent(f"{where}: split aces may not be split again (split.resplit_aces, § 633a.11)")
    if amount is not None and amount != hand.stake:
        raise IllegalEvent(
            f"{where}: the split hand's wager matches the whole Blackjack Wager on the hand, "
            f"{_money(hand.stake)} (§ 633a.11; § 633a.7(g)(10)(ii)(C)), not {_money(amount)}"
        )
    aces = hand.cards[0].rank == ACE
    first = dataclasses.replace(
        hand, cards=hand.cards[:1], split=True, split_aces=aces, status=CARD, decisions=hand.decisions + 1
    )
    second = PlayerHand(hand.cards[1:], hand.stake, split=True, split_aces=aces, status=CARD)
    hands = list(seat_state.hands)
    hands[index] = first
    hands.append(second)
    seat_state = dataclasses.replace(seat_state, hands=tuple(hands))
    return dataclasses.replace(state, seats=_replace_seat(state, seat, seat_state), play_started=True)


def _irregularity(state: BlackjackState, event: Event) -> BlackjackState:
    kind = event.kind or ""
    if kind not in IRREGULARITIES:
        raise IllegalEvent(f"no irregularity {kind!r} in Blackjack (kinds: {', '.join(IRREGULARITIES)})")
    if state.phase == COMPLETE:
        raise IllegalEvent("the round is complete; an irregularity can no longer void it")
    reason = f"{kind}: {IRREGULARITIES[kind]}" + (f" ({event.detail})" if event.detail else "")
    return dataclasses.replace(
        state,
        phase=VOID,
        void=reason,
        void_phase=state.phase,
        irregularities=(*state.irregularities, event),
    )


def waiting_for(state: BlackjackState) -> str:
    """What the round waits for, in words (``"nothing"`` once it can be settled)."""
    return in_words(waiting(state)) or "nothing"


def waiting(state: BlackjackState) -> tuple[Waiting, ...]:
    """What the round waits for, as :class:`~.hooks.Waiting` data; empty once it can be settled."""
    if state.phase == BETTING:
        return (Waiting(Actor.DEALER, "wagers and 'no more bets'", "§ 633a.6"),)
    if state.phase == DEALING:
        short = [n for n, s in sorted(state.seats.items()) if len(s.initial) < 2]
        out = []
        if short:
            seats = f"seat{'s' if len(short) > 1 else ''} {', '.join(map(str, short))}"
            seat = short[0] if len(short) == 1 else None
            out.append(Waiting(Actor.SHOE, f"the initial two cards of {seats}", "§ 633a.7", seat))
        if not state.dealer:
            out.append(Waiting(Actor.SHOE, "the dealer's up card", "§ 633a.7"))
        return (Waiting(Actor.SHOE, " and ".join(w.what for w in out), "§ 633a.7", out[0].seat),)
    if state.phase == CHECK:
        reader = "the card reader (hole_card_reader, § 633a.7(h))"
        if state.up_card is not None and state.up_card.rank == ACE:
            return (Waiting(Actor.PLAYER, f"insurance decisions, then {reader}", "§ 633a.8, § 633a.7(h)"),)
        return (Waiting(Actor.READER, reader, "§ 633a.7(h)"),)
    if state.phase == DEALER_BLACKJACK:
        return (
            Waiting(Actor.SHOE, "the dealer's hole card (the card reader found a Blackjack)", "§ 633a.7(h)"),
        )
    if state.phase == PLAY:
        turn = state.turn
        assert turn is not None
        seat, index = turn
        hand = state.seats[seat].hands[index]
        if hand.status == CARD:
            return (Waiting(Actor.SHOE, f"a card to seat {seat} hand {index}", "§ 633a.7", seat),)
        if hand.double:
            what = f"seat {seat} hand {index} to stand or rescue ({hand.value.words}, doubled down)"
            return (Waiting(Actor.PLAYER, what, RESCUE_SECTION, seat),)
        return (
            Waiting(
                Actor.PLAYER, f"seat {seat} hand {index} to decide ({hand.value.words})", "§ 633a.7", seat
            ),
        )
    if state.phase == DEALER:
        if len(state.dealer) < 2:
            return (Waiting(Actor.SHOE, "the dealer's hole card", "§ 633a.7"),)
        what = f"the dealer's next card (the dealer has {blackjack_value(state.dealer).words})"
        return (Waiting(Actor.SHOE, what, "§ 633a.7"),)
    if state.phase == COMPLETE:
        return tuple(
            Waiting(
                Actor.METER,
                f"the {wager} meter: seat {seat} won {award} (a meter event, or the record's meters)",
                "§ 633a.7(o)",
                seat,
            )
            for wager, seat, award in unknown_meters(state)
        )
    return ()


# --- settlement ----------------------------------------------------------------------------------


def _hand_name(base: str, index: int) -> str:
    return base if index == 0 else f"{base}.{index}"


def _even_money(state: BlackjackState) -> list[Outcome]:
    return [
        Outcome(
            number,
            BLACKJACK,
            seat.stake,
            Result.WIN,
            EVEN_ODDS.net(seat.stake),
            "blackjack",
            "§ 633a.8",
            "even money: the Blackjack Wager paid 1 to 1 before the card reader is used",
        )
        for number, seat in sorted(state.seats.items(), reverse=True)
        if seat.even_money
    ]


def _stage_h(state: BlackjackState) -> list[Outcome]:
    """§ 633a.7(h), after the card reader: a House Money winner waiting for it, and the Insurance Wagers."""
    dealer_bj = state.reader == "blackjack"
    out: list[Outcome] = []
    for number in sorted(state.seats, reverse=True):
        seat = state.seats[number]
        if state.reader_used and HOUSE_MONEY in seat.wagers and house_money_wins(state.rules, seat):
            out.append(house_money_outcome(state, number, seat))
        if seat.insurance:
            if dealer_bj:
                out.append(
                    Outcome(
                        number,
                        INSURANCE,
                        seat.insurance,
                        Result.WIN,
                        INSURANCE_ODDS.net(seat.insurance),
                        "",
                        "§ 633a.8, § 633a.7(h)",
                        "the dealer has a Blackjack: 2 to 1",
                    )
                )
            else:
                out.append(
                    lose(
                        number,
                        INSURANCE,
                        seat.insurance,
                        hand="",
                        section="§ 633a.8, § 633a.7(h)",
                        note="the dealer has no Blackjack",
                    )
                )
    return out


def _surrendered(number: int, hand: PlayerHand) -> Outcome:
    # § 633a.9: half the wager is forfeited; an odd cent of the half returned stays with the house.
    kept = hand.stake - hand.stake // 2
    return Outcome(
        number,
        BLACKJACK,
        hand.stake,
        Result.LOSE,
        -kept,
        hand.value.words,
        "§ 633a.9",
        f"surrender: {_money(hand.stake // 2)} returned, {_money(kept)} forfeited",
    )


def _rescued(number: int, index: int, hand: PlayerHand) -> list[Outcome]:
    """§ 635a.10 rescue: the original wager is lost, the Double Down Wager returned (net 0)."""
    words = f"{hand.value.words}, rescued"
    return [
        lose(
            number,
            _hand_name(BLACKJACK, index),
            hand.stake,
            hand=words,
            section=RESCUE_SECTION,
            note=f"rescue: the original wager of {_money(hand.stake)} is forfeited",
        ),
        Outcome(
            number,
            _hand_name(DOUBLE_DOWN, index),
            hand.double,
            Result.PUSH,
            0,
            words,
            RESCUE_SECTION,
            f"rescue: the Double Down Wager of {_money(hand.double)} is returned to the player",
        ),
    ]


def _main(state: BlackjackState) -> list[Outcome]:
    """The Blackjack and Double Down Wagers, from the dealer's right (§ 633a.7(p), § 633a.13(a))."""
    dealer = blackjack_value(state.dealer)
    dealer_bj = state.reader == "blackjack"
    out: list[Outcome] = []
    for number in sorted(state.seats, reverse=True):
        seat = state.seats[number]
        if seat.even_money:
            continue
        for index, hand in enumerate(seat.hands):
            name, dd = _hand_name(BLACKJACK, index), _hand_name(DOUBLE_DOWN, index)
            if hand.surrendered:
                out.append(_surrendered(number, hand))
                continue
            if hand.rescued:
                out.extend(_rescued(number, index, hand))
                continue
            value = hand.value
            vs = f"dealer {dealer.words}"
            if dealer_bj:
                section = "§ 633a.7(h)"
                if hand.is_blackjack:
                    out.append(
                        Outcome(
                            number,
                            name,
                            hand.stake,
                            Result.PUSH,
                            0,
                            value.words,
                            section,
                            "both have a Blackjack: a push",
                        )
                    )
                else:
                    out.append(
                        lose(
                            number,
                            name,
                            hand.stake,
                            hand=value.words,
                            section=section,
                            note="the dealer has a Blackjack",
                        )
                    )
                continue
            if hand.bust:
                result, odds, note = Result.LOSE, None, "over 21"
            elif hand.is_blackjack:
                result, odds, note = Result.WIN, BLACKJACK_ODDS, f"Blackjack, {vs}: {BLACKJACK_ODDS}"
            elif dealer.category == "bust" or value > dealer:
                result, odds, note = Result.WIN, EVEN_ODDS, f"{vs}: {EVEN_ODDS}"
            elif value == dealer:
                result, odds, note = Result.PUSH, None, f"{vs}: a push"
            else:
                result, odds, note = Result.LOSE, None, vs
            section = "§ 633a.7(p), § 633a.13(a)"
            for wager, stake in ((name, hand.stake), (dd, hand.double)):
                if not stake:
                    continue
                if result is Result.WIN and odds is not None:
                    wager_odds = odds if wager == name else EVEN_ODDS
                    out.append(
                        Outcome(
                            number, wager, stake, result, wager_odds.net(stake), value.words, section, note
                        )
                    )
                elif result is Result.PUSH:
                    out.append(Outcome(number, wager, stake, result, 0, value.words, section, note))
                else:
                    out.append(lose(number, wager, stake, hand=value.words, section=section, note=note))
    return out


def _dealer_words(state: BlackjackState) -> str:
    if len(state.dealer) < 2:
        return f"up card {format_cards(state.dealer)}" if state.dealer else ""
    return f"{format_cards(state.dealer)}: {blackjack_value(state.dealer).words}"


def _settlement(state: BlackjackState) -> Settlement:
    meters = dict(state.meters)
    outcomes = [
        *settle_second_card(state),
        *_even_money(state),
        *_stage_h(state),
        *_main(state),
        *settle_remaining(state, meters),
    ]
    return Settlement(NAME, tuple(outcomes), meters, _dealer_words(state))


def _all_wagers(seat: SeatState) -> list[tuple[str, Cents]]:
    out: list[tuple[str, Cents]] = []
    for name, stake in seat.wagers.items():
        if name == BLACKJACK and seat.hands:
            for index, hand in enumerate(seat.hands):
                out.append((_hand_name(BLACKJACK, index), hand.stake))
                if hand.double:
                    out.append((_hand_name(DOUBLE_DOWN, index), hand.double))
        else:
            out.append((name, stake))
    if seat.insurance:
        out.append((INSURANCE, seat.insurance))
    return out


def _void_settlement(state: BlackjackState) -> Settlement:
    """A device fault: what was settled before it stands; every other wager is returned."""
    reason = state.void
    dealt = state.void_phase in (CHECK, DEALER_BLACKJACK, PLAY, DEALER)
    if not dealt:
        wagers = {n: dict(s.wagers) for n, s in state.seats.items()}
        return void_all(NAME, wagers, reason, IRREGULARITY_SECTION, state.meters)
    settled = [*settle_second_card(state), *_even_money(state)]
    if state.void_phase != CHECK:
        settled += _stage_h(state)
    for number, seat in sorted(state.seats.items(), reverse=True):
        for index, hand in enumerate(seat.hands):
            if hand.surrendered:
                settled.append(_surrendered(number, hand))
            elif hand.rescued:
                settled.extend(_rescued(number, index, hand))
    done = {(o.seat, o.wager) for o in settled}
    voided = [
        Outcome(number, name, stake, Result.VOID, 0, section=IRREGULARITY_SECTION, note=reason)
        for number, seat in sorted(state.seats.items(), reverse=True)
        for name, stake in _all_wagers(seat)
        if (number, name) not in done
    ]
    reason += "; wagers settled before it stand, every other wager is returned"
    return Settlement(NAME, (*settled, *voided), dict(state.meters), _dealer_words(state), reason)


GAME: Final[Game[BlackjackRules, BlackjackState]] = Blackjack()
"""Blackjack, for :data:`~.games.GAMES`."""
