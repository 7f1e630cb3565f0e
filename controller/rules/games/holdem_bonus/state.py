"""The state of a Texas Hold 'Em Bonus Poker round (ch. 647a), its next step by the procedure of
§ 647a.8-647a.11, and what it waits for. Immutable: :mod:`.play` makes each event's
new state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ...core.cards import Card
from ...core.hooks import Actor, Step, Waiting
from ...core.money import Cents
from .rules import HoldemBonusRules

# --- the state of a round -------------------------------------------------------------------

ANTE: Final = "ante"
BONUS: Final = "bonus"
FLOP: Final = "flop"
TURN: Final = "turn"
RIVER: Final = "river"
BET: Final = "bet"
FOLD: Final = "fold"
CHECK: Final = "check"

#: The irregularity kinds this game accepts, with the section each follows.
IRREGULARITIES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "card_face_up": "§ 647a.13(a)",
        "cards_face_up": "§ 647a.13(a)",
        "card_drawn_in_error": "§ 647a.13(b)",
        "wrong_card_count": "§ 647a.13(c)",
        "dealer_card_exposed": "§ 647a.13(d)",
        "shuffler_jam": "§ 647a.13(e)",
        "shoe_jam": "§ 647a.13(f)",
        "stub_count_misdealt": "§ 647a.8(h), § 647a.9(f), § 647a.10(f)",
        "stub_count_wrong": "§ 647a.8(h), § 647a.9(f), § 647a.10(f)",
    }
)

STREETS: Final = (FLOP, TURN, RIVER)
STREET_WORDS: Final = {FLOP: "Flop", TURN: "Turn", RIVER: "River"}
DECISION_SECTIONS: Final = {FLOP: "§ 647a.11(b)", TURN: "§ 647a.11(d)", RIVER: "§ 647a.11(f)"}
BOARD_SECTIONS: Final = {FLOP: "§ 647a.11(c)", TURN: "§ 647a.11(e)", RIVER: "§ 647a.11(g)"}
BOARD_CARDS: Final = {FLOP: 3, TURN: 1, RIVER: 1}


@dataclass(frozen=True, slots=True)
class SeatState:
    """One player's wagers, cards and decisions. Flop/Turn/River Wagers are 2x, 1x, 1x the Ante."""

    seat: int
    ante: Cents = 0
    bonus: Cents = 0
    cards: tuple[Card, ...] = ()
    flop: str = ""  # "", "bet" or "fold"
    turn: str = ""  # "", "bet" or "check"
    river: str = ""  # "", "bet" or "check"

    @property
    def in_play(self) -> bool:
        """Placed a Flop Wager: goes to the showdown."""
        return self.flop == BET

    def decision(self, street: str) -> str:
        return {FLOP: self.flop, TURN: self.turn, RIVER: self.river}[street]

    def stake(self, wager: str) -> Cents:
        """The amount of ``wager`` on the layout (0: not placed)."""
        if wager == ANTE:
            return self.ante
        if wager == BONUS:
            return self.bonus
        if self.decision(wager) != BET:
            return 0
        return 2 * self.ante if wager == FLOP else self.ante


@dataclass(frozen=True, slots=True)
class Void:
    """Why the round is void, and whether the Bonus Wagers are still settled (§ 647a.13(a), (d))."""

    reason: str
    section: str
    bonus_settled: bool


@dataclass(frozen=True, slots=True)
class HoldemBonusState:
    rules: HoldemBonusRules
    meters: tuple[tuple[str, Cents], ...] = ()
    seats: tuple[SeatState, ...] = ()  # seats with a wager, ascending
    locked: bool = False  # "no more bets"
    dealer: tuple[Card, ...] = ()
    board: tuple[Card, ...] = ()
    discarded: tuple[Card, ...] = ()  # found face up and not used, § 647a.13(a)
    face_up_found: int = 0
    folds: tuple[int, ...] = ()  # seats in the order their Ante was collected, § 647a.11(b)(2)
    void: Void | None = None
    notes: tuple[str, ...] = ()

    def seat(self, number: int) -> SeatState | None:
        return next((s for s in self.seats if s.seat == number), None)

    @property
    def players(self) -> tuple[SeatState, ...]:
        """The seats that placed an Ante Wager, from the dealer's left."""
        return tuple(s for s in self.seats if s.ante)

    @property
    def any_cards(self) -> bool:
        return bool(self.dealer or self.board or any(s.cards for s in self.seats))

    @property
    def seen(self) -> tuple[Card, ...]:
        out: list[Card] = [*self.dealer, *self.board, *self.discarded]
        for s in self.seats:
            out.extend(s.cards)
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Awaiting:
    """What the round waits for next: ``step`` and, for a deal or a decision, the seat."""

    step: str  # wagers, deal, flop_decision, flop, turn_decision, turn, river_decision, river, done
    seat: int | None = None


def awaiting(state: HoldemBonusState) -> Awaiting:
    """The next step of the round, by the procedure of § 647a.8-647a.11."""
    if not state.locked:
        return Awaiting("wagers")
    players = state.players
    for p in players:
        if not p.cards:
            return Awaiting("deal", p.seat)
    if not state.dealer:
        return Awaiting("deal")
    for street in STREETS:
        asked = players if street == FLOP else tuple(p for p in players if p.in_play)
        for p in asked:
            if not p.decision(street):
                return Awaiting(f"{street}decision_event", p.seat)
        if len(state.board) < {FLOP: 3, TURN: 4, RIVER: 5}[street]:
            return Awaiting(street)
    return Awaiting("done")


def decisions_complete(state: HoldemBonusState) -> bool:
    """Every player has folded or made each of his decisions (§ 647a.13(d))."""
    step = awaiting(state).step
    if step in ("wagers", "deal") or step.endswith("decision_event"):
        return False
    return step in ("river", "done") or not any(p.in_play for p in state.players)


def initial_deal_complete(state: HoldemBonusState) -> bool:
    return bool(state.dealer) and all(p.cards for p in state.players)


def waiting_words(state: HoldemBonusState, now: Awaiting) -> str:
    """What the round waits for, as a refusal says it: ``"the round waits for the Flop (...)"``."""
    what = waiting_step(state, now).what
    return what if now.step == "done" else f"the round waits for {what}"


def waiting_step(state: HoldemBonusState, now: Awaiting) -> Waiting:
    step = now.step
    what = _words(now)
    if step == "wagers":
        return Waiting(Actor.DEALER, what, "§ 647a.7(c)", step=Step.BETS)
    if step == "deal":
        return Waiting(Actor.SHOE, what, "§ 647a.8(d)", now.seat, step=Step.CARDS)
    if step.endswith("decision_event"):
        return Waiting(
            Actor.PLAYER,
            what,
            DECISION_SECTIONS[step.removesuffix("decision_event")],
            now.seat,
            step=Step.DECISION,
        )
    if step in STREETS:
        return Waiting(Actor.SHOE, what, BOARD_SECTIONS[step], step=Step.CARDS)
    return Waiting(Actor.DEALER, what, "§ 647a.11(h)", step=Step.SETTLE)


def _words(now: Awaiting) -> str:
    step = now.step
    if step == "wagers":
        return 'wagers and "no more bets"'
    if step == "deal":
        if now.seat is not None:
            return f"seat {now.seat}'s two cards (§ 647a.8(d))"
        return "the dealer's two cards (§ 647a.8(d))"
    if step.endswith("decision_event"):
        street = step.removesuffix("decision_event")
        return f"seat {now.seat}'s {STREET_WORDS[street]} decision ({DECISION_SECTIONS[street]})"
    if step in STREETS:
        label = "the Flop" if step == FLOP else f"the {step} card"
        return f"{label} ({BOARD_SECTIONS[step]})"
    return "every card is out and every decision made; the round waits to be settled (§ 647a.11(h))"
