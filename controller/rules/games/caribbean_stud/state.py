"""The state of a Caribbean Stud Poker round (ch. 639a) and what it waits for. Immutable:
:class:`~.caribbean_stud.CaribbeanStud` makes each event's new state."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ...core.cards import Card
from ...core.engine import IllegalEvent
from ...core.events import Event
from ...core.hooks import Actor, Step, Waiting
from ...core.meter_turns import NO_TURNS, MeterTurns
from ...core.money import Cents
from .rules import ANTE, BET, BONUS, HAND_SIZE, PROGRESSIVE, SETTLEMENT_ORDER, CaribbeanStudRules

# --- the state of a round ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CaribbeanStudState:
    """One round so far. Immutable: :meth:`CaribbeanStud.apply` returns a new one."""

    rules: CaribbeanStudRules
    meters: Mapping[str, Cents]
    """The meters as given at the start (kept for the settlement)."""
    meter: Cents | None
    """The progressive meter as it stands now (``meters["progressive"]`` or the last ``meter`` event)."""
    meter_turns: MeterTurns = dataclasses.field(default_factory=lambda: NO_TURNS)
    """The meter when a seat is paid, from a ``meter`` event for that seat (the central meter's
    award for its hit, § 639a.12(d)(4)); the other seats are paid from :attr:`meter` walked down."""
    wagers: Mapping[int, Mapping[str, Cents]] = dataclasses.field(
        default_factory=lambda: MappingProxyType({})
    )
    """Per seat, the wagers placed before "no more bets" (ante, bonus, progressive)."""
    no_more_bets: bool = False
    hands: Mapping[int, tuple[Card, ...]] = dataclasses.field(default_factory=lambda: MappingProxyType({}))
    dealer: tuple[Card, ...] = ()
    decisions: Mapping[int, str] = dataclasses.field(default_factory=lambda: MappingProxyType({}))
    """Per seat, ``"bet"`` or ``"fold"``, made in turn from seat 1 upward."""
    irregularities: tuple[Event, ...] = ()
    """Irregularities recorded (those that void the round as well as those that do not)."""
    faced_up: int = 0
    """Single cards found face up in the shoe or deck during this deal (§ 639a.13(a))."""
    face_up: tuple[Card, ...] = ()
    """The card found face up, when its report names it: not used this round (§ 639a.13(a))."""
    void: str = ""
    void_section: str = ""

    # -- derived --

    @property
    def ante_seats(self) -> tuple[int, ...]:
        """Seats with an Ante Wager, from the dealer's left (dealt and asked in this order)."""
        return tuple(sorted(s for s, w in self.wagers.items() if ANTE in w))

    @property
    def dealt(self) -> bool:
        """Every hand with an ante, and the dealer's, holds its five cards."""
        return len(self.dealer) == HAND_SIZE and all(
            len(self.hands.get(s, ())) == HAND_SIZE for s in self.ante_seats
        )

    @property
    def next_to_decide(self) -> int | None:
        """The seat that decides next (§ 639a.11(b)), ``None`` when all have."""
        return next((s for s in self.ante_seats if s not in self.decisions), None)

    def all_cards(self) -> Iterator[Card]:
        for cards in self.hands.values():
            yield from cards
        yield from self.dealer


def wager_title(name: str) -> str:
    return {
        ANTE: "Ante Wager",
        BET: "Bet Wager",
        BONUS: "Caribbean Stud Bonus Wager",
        PROGRESSIVE: "Progressive Payout Wager",
    }[name]


def check_seat(rules: CaribbeanStudRules, seat: int) -> None:
    if not 1 <= seat <= rules.seats:
        raise IllegalEvent(f"seat {seat} is not at this table: seats 1 to {rules.seats} (seats, § 639a.2(a))")


def void_round(state: CaribbeanStudState, reason: str, section: str) -> CaribbeanStudState:
    return dataclasses.replace(state, void=reason, void_section=section)


def placed_wagers(state: CaribbeanStudState, seat: int) -> dict[str, Cents]:
    """The seat's wagers in settlement order, the Bet Wager included once made."""
    placed = dict(state.wagers[seat])
    if state.decisions.get(seat) == BET:
        placed[BET] = 2 * placed[ANTE]
    return {name: placed[name] for name in SETTLEMENT_ORDER if name in placed}


def missing_cards(state: CaribbeanStudState) -> str:
    short = [
        f"seat {s} has {len(state.hands.get(s, ()))} of 5 cards"
        for s in state.ante_seats
        if len(state.hands.get(s, ())) != HAND_SIZE
    ]
    if len(state.dealer) != HAND_SIZE:
        short.append(f"the dealer has {len(state.dealer)} of 5 cards")
    return "; ".join(short)


def round_waits_for(state: CaribbeanStudState) -> tuple[Waiting, ...]:
    if not state.no_more_bets:
        return (
            Waiting(Actor.DEALER, "the dealer's 'no more bets' (§ 639a.8(b))", "§ 639a.8(b)", step=Step.BETS),
        )
    if not state.ante_seats:
        return ()
    if not state.dealt:
        return (Waiting(Actor.SHOE, f"the cards: {missing_cards(state)}", "§ 639a.8(d)", step=Step.CARDS),)
    turn = state.next_to_decide
    if turn is not None:
        what = f"seat {turn}'s decision, bet or fold (§ 639a.11(b))"
        return (Waiting(Actor.PLAYER, what, "§ 639a.11(b)", turn, step=Step.DECISION),)
    if state.meter is None and any(PROGRESSIVE in w for w in state.wagers.values()):
        what = (
            "the progressive meter (a meter event, or meters.progressive in the record): a Progressive "
            "Payout Wager is paid from the meter as it stands (§ 639a.12(d)(4))"
        )
        return (Waiting(Actor.METER, what, "§ 639a.12(d)(4)", step=Step.METER),)
    return ()
