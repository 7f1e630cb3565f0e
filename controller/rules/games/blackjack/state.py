"""The state of a Blackjack round (ch. 633a): its phases, the players' hands and decisions
(what it waits for: :mod:`.waiting`). Immutable: :mod:`.play` makes each event's new state."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ...core.cards import ACE, Card
from ...core.events import Event
from ...core.hand import HandValue
from ...core.meter_turns import NO_TURNS, MeterTurns
from ...core.money import Cents, format_money
from ...rankings.blackjack import blackjack_value, dealer_must_hit, hand_total, is_blackjack, is_ten_count
from .rules import BlackjackRules
from .wagers import BLACKJACK, HIT_AND_RUN

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
    meter_turns: MeterTurns = dataclasses.field(default_factory=lambda: NO_TURNS)
    """The meter when a seat is paid, from a ``meter`` event for that seat (the central meter's
    award for its hit, § 633a.7(o)); the other seats are paid from :attr:`meters` walked down."""
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


def replace_seat(state: BlackjackState, number: int, seat: SeatState) -> Mapping[int, SeatState]:
    seats = dict(state.seats)
    seats[number] = seat
    return MappingProxyType(seats)


def replace_hand(seat: SeatState, index: int, hand: PlayerHand) -> SeatState:
    hands = list(seat.hands)
    hands[index] = hand
    return dataclasses.replace(seat, hands=tuple(hands))


def dollars(cents: Cents) -> str:
    return format_money(cents)


def advance(state: BlackjackState) -> BlackjackState:
    """The next phase once the players' hands, then the dealer's, are complete."""
    if state.phase == PLAY and state.turn is None:
        state = dataclasses.replace(state, phase=DEALER)
    if state.phase in (DEALER, DEALER_BLACKJACK) and state.dealer_complete:
        state = dataclasses.replace(state, phase=COMPLETE)
    return state
