"""The state of an Asia Poker or Fortune Asia Poker round (ch. 659a), and the event steps both
games share: the starting position, the cards, a card found face up, the settings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from ...core.cards import Card, CardError, format_cards, parse_cards
from ...core.engine import IllegalEvent
from ...core.events import Event, seat_of
from ...core.meter_turns import NO_TURNS, MeterTurns
from ...core.money import Cents
from ...rankings.asia_poker import Setting
from .house_way import set_hands
from .rules import (
    CARDS_PER_HAND,
    DEALER,
    IRREGULARITIES,
    SEATS,
    AsiaTableRules,
    clockwise_from,
    position_words,
    starting_position,
)

# --- the state of a round -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Void:
    """Why every hand is void and every wager returned; ``remove_deck`` per § 659a.8(e)."""

    reason: str
    section: str
    remove_deck: bool = False


@dataclass(frozen=True, slots=True)
class AsiaPokerState:
    """One round of Asia Poker or Fortune Asia Poker; every field immutable."""

    rules: AsiaTableRules
    meters: tuple[tuple[str, Cents], ...] = ()
    # The meter when a seat is paid (the central meter's award for it), § 659a.11(h)(3)(ii)(D).
    meter_turns: MeterTurns = field(default_factory=lambda: NO_TURNS)
    wagers: tuple[tuple[int, str, Cents], ...] = ()  # (seat, wager, amount), as placed
    adjacent: tuple[tuple[int, int], ...] = ()  # one player's two betting areas, § 659a.7(f)
    locked: bool = False  # "no more bets"
    count: int | None = None  # the dice total, the number drawn or the button's position
    start: str | None = None  # the starting position, § 659a.5(g)
    no_rolls: int = 0
    hands: tuple[tuple[str, tuple[Card, ...]], ...] = ()  # position -> cards, in the order dealt
    discarded: tuple[Card, ...] = ()  # found face up and not used, § 659a.13(f)
    face_up_found: int = 0
    settings: tuple[tuple[int, Setting], ...] = ()  # in the order the players set
    exposed: tuple[int, ...] = ()  # seats whose player must choose to play or void, § 659a.13(d)
    voided: tuple[int, ...] = ()  # seats whose player voided the hand, § 659a.13(d)
    surrendered: tuple[int, ...] = ()
    helped: tuple[tuple[int, Setting], ...] = ()  # "help me set": the house way shown, § 659a.11(a)(1)
    void: Void | None = None
    notes: tuple[str, ...] = ()

    def stake(self, seat: int, wager: str) -> Cents:
        return next((a for s, w, a in self.wagers if s == seat and w == wager), 0)

    def seat_wagers(self, seat: int) -> tuple[tuple[str, Cents], ...]:
        return tuple((w, a) for s, w, a in self.wagers if s == seat)

    def cards_of(self, position: str) -> tuple[Card, ...]:
        return next((c for p, c in self.hands if p == position), ())

    def setting_of(self, seat: int) -> Setting | None:
        return next((st for s, st in self.settings if s == seat), None)

    def partner(self, seat: int) -> int | None:
        for a, b in self.adjacent:
            if seat in (a, b):
                return b if seat == a else a
        return None

    @property
    def seen(self) -> tuple[Card, ...]:
        out: list[Card] = list(self.discarded)
        for _, cards in self.hands:
            out.extend(cards)
        return tuple(out)


# --- event helpers shared by both games -------------------------------------------------------


def seat_number(seat: int | None) -> int:
    if seat is None or not 1 <= seat <= SEATS:
        raise IllegalEvent(f"seat {seat} is not a betting position (1 to {SEATS}, § 659a.2(a))")
    return seat


def noted(state: AsiaPokerState, note: str) -> AsiaPokerState:
    return replace(state, notes=(*state.notes, note))


def void_round(
    state: AsiaPokerState, reason: str, section: str, *, remove_deck: bool = False
) -> AsiaPokerState:
    return replace(state, void=Void(f"all hands void, all wagers returned: {reason}", section, remove_deck))


def position_event(state: AsiaPokerState, event: Event) -> AsiaPokerState:
    if not state.locked:
        raise IllegalEvent(
            'the dealer announces "no more bets" before determining the starting position (§ 659a.8(b), '
            "§ 659a.9(a)(3), § 659a.10(a)(2))"
        )
    if state.start is not None:
        raise IllegalEvent(
            f"the starting position is already determined: {position_words(state.start)} (count "
            f"{state.count}, § 659a.5(g))"
        )
    method = state.rules.starting_position
    if event.type == "dice":
        if method != "shaker":
            raise IllegalEvent(
                f"this table determines the starting position by the {method}, not the shaker (§ 659a.5(g))"
            )
        value = sum(event.dice)
    else:
        value = event.value or 0
    try:
        start = starting_position(method, value)
    except ValueError as exc:
        raise IllegalEvent(str(exc)) from None
    return replace(state, count=value, start=start)


def _first_positions(state: AsiaPokerState, main_wager: str) -> tuple[str, ...]:
    """Where the first cards reported may go: the starting position, or the positions clockwise after it
    up to the first that must be reported (the dealer or a seat with a wager), since a stack dealt to an
    empty position need not be reported (§ 659a.8(f))."""
    assert state.start is not None
    out: list[str] = []
    for pos in clockwise_from(state.start):
        out.append(pos)
        if pos == DEALER or state.stake(int(pos), main_wager):
            break
    return tuple(out)


def deal_cards(state: AsiaPokerState, event: Event, main_wager: str) -> AsiaPokerState:
    if state.start is None:
        raise IllegalEvent(
            "no card is dealt before the starting position is determined (§ 659a.8(b), (c))"
            if state.locked
            else 'no card is dealt before "no more bets" (§ 659a.8(b))'
        )
    if event.hand:
        raise IllegalEvent("Asia Poker has no split hands (hand must be 0)")
    to = event.to or ""
    seat = seat_of(to)
    if seat is not None:
        position = str(seat_number(seat))
    elif to == DEALER:
        position = DEALER
    else:
        raise IllegalEvent(f"no cards go to {to!r} at Asia Poker: to a seat 1-6 or the dealer (§ 659a.8(c))")
    held = state.cards_of(position)
    new = event.cards
    if len(held) + len(new) > CARDS_PER_HAND:
        raise IllegalEvent(
            f"{position_words(position)} would hold {len(held) + len(new)} cards; each position and the "
            "dealer is "
            f"dealt seven (§ 659a.8(c)); if it was dealt so, record the irregularity wrong_card_count "
            f"(§ 659a.13(h), (k))"
        )
    seen = state.seen
    for c in new:
        if c in state.discarded:
            raise IllegalEvent(
                f"{c} to {position_words(position)}: it was found face up and is not used (§ 659a.13(f))"
            )
        if c in seen:
            raise IllegalEvent(
                f"{c} to {position_words(position)}: it is already out this round (one deck, § 659a.3(a))"
            )
    if not state.hands and position not in _first_positions(state, main_wager):
        dealt = replace(state, hands=((position, new),))
        return void_round(
            dealt,
            f"the first card went to {position_words(position)}, but the count of {state.count} starts at "
            f"{position_words(state.start)}; the cards are reshuffled",
            IRREGULARITIES["wrong_starting_position"],
        )
    hands = tuple((p, c + new) if p == position else (p, c) for p, c in state.hands)
    if not held:
        hands += ((position, new),)
    return replace(state, hands=hands)


def card_face_up(state: AsiaPokerState, event: Event) -> AsiaPokerState:
    section = IRREGULARITIES["card_face_up"]
    found: tuple[Card, ...] = ()
    if event.detail:
        try:
            found = parse_cards(event.detail, decks=1, allow_joker=True)
        except CardError as exc:
            raise IllegalEvent(f"card_face_up: the detail names the card(s) found face up: {exc}") from None
        for c in found:
            if c in state.seen:
                raise IllegalEvent(f"card_face_up: {c} is already out this round (one deck, § 659a.3(a))")
    total = state.face_up_found + max(len(found), 1)
    if total > 1:
        return void_round(
            state,
            "more than one card was found face up in the shoe or the deck; the cards are reshuffled",
            section,
        )
    note = (
        f"{format_cards(found) or 'a card'} found face up: not used, placed in the discard rack ({section})"
    )
    return replace(noted(state, note), discarded=state.discarded + found, face_up_found=total)


def help_me_set(state: AsiaPokerState, seat: int) -> Setting:
    """The house way's setting of a seat's seven cards, as the dealer tells it (§ 659a.11(a)(1))."""
    seven = state.cards_of(str(seat))
    if len(seven) != CARDS_PER_HAND:
        raise IllegalEvent(f"seat {seat} has {len(seven)} of its seven cards (§ 659a.11(b))")
    return set_hands(seven, state.rules.house_way, a234_low=state.rules.a234_lowest)


def deal_order(state: AsiaPokerState) -> tuple[str, ...]:
    """The seven positions in the order they are dealt this round (§ 659a.8(c)); ``()`` before the count."""
    return clockwise_from(state.start) if state.start is not None else ()


def settings_of(state: AsiaPokerState) -> Mapping[int, Setting]:
    return MappingProxyType(dict(state.settings))


def format_setting(setting: Sequence[Sequence[Card]]) -> str:
    """``"As Ks Qs Js / 7c 7d / 2h"``."""
    return " / ".join(format_cards(h) for h in setting)
