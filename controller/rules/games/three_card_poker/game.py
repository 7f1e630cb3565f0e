"""Three Card Poker, 58 Pa. Code ch. 649a: the round engine.

A player competes against the dealer with an Ante Wager and then a Play Wager
equal to it, or folds; the Ante Bonus is paid on the Ante for a straight or
better whatever the dealer holds; the Pair Plus Wager is paid on a pair or
better of the player's own three cards; the optional Six Card Bonus Wager on
the best five-card hand of the player's three cards and the dealer's three.

Which text this relies on
-------------------------
Our copy of ch. 649a (43 Pa.B. 834) prints only the amended parts:
§ 649a.6(d)(8) (the Super Royal of paytable E in § 649a.12(f)),
§ 649a.6(e) (the mini-royal flush) and § 649a.12(g) (a mini-royal flush in the
paytables of § 649a.12(b) at no less than 5 to 1 and of § 649a.12(d) at no less
than 40 to 1). The rest of § 649a.7, § 649a.11, § 649a.12 and § 649a.13 was not
found by the reference search. So:

- the flow of the round follows the Pennsylvania poker chapters we do have,
  section for section (§ 639a.7, § 639a.11 and § 639a.13 of Caribbean Stud), and
  the standard Three Card Poker rules: Play = 1x Ante or fold, from the dealer's
  left; the dealer qualifies with a queen-high or better; a dealer who does not
  qualify pays the Ante 1 to 1 and returns the Play; otherwise the higher hand
  wins both, a tie returns both;
- a secondary source quoting § 649a.11(b)(1) says a player who folds forfeits
  the Pair Plus Wager with the Ante; this module does that, and forfeits the Six
  Card Bonus Wager with them (the folded hand and its wagers are collected
  before the dealer's cards are revealed, as § 639a.11(b),(c) do);
- § 649a.12(b) is the Ante Bonus and § 649a.12(d) the Pair Plus paytable (the
  5 to 1 and 40 to 1 minimums of § 649a.12(g) fit those two tables, and the same
  source names them so); their odds, and those of the Six Card Bonus paytable
  the submission selects by letter (§ 649a.12(f)), are written out in the Rules
  Submission (``*.odds``), because our copy does not print the tables;
- the irregularities are those of § 639a.13(a)-(f), which every Pennsylvania
  poker chapter we have repeats: a second card found face up, a wrong number of
  cards, a dealer's card exposed before every decision, a jammed dealing shoe
  void the round and return every wager.

``docs/games/three-card-poker.md`` lists every such choice.

The words and the Rules Submission are :mod:`.three_card_poker_rules`, the settlement
:mod:`.three_card_poker_settle`; this module is the round: its state, its events, the
:class:`~.engine.Game`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Final

from ...core.cards import Card, format_cards
from ...core.engine import Game, GameBase, IllegalEvent
from ...core.events import Event, seat_of
from ...core.hooks import Actor, Devices, Term, Vocabulary, Waiting, in_words
from ...core.money import Cents, format_money
from ...core.settlement import Settlement, void_all
from .rules import (
    ACTIONS,
    ANTE,
    DEALER,
    HAND_SIZE,
    PAIR_PLUS,
    PLAY,
    RULES_CHECKS,
    SEC_DEAL,
    SEC_DECISION,
    SEC_IRREGULARITIES,
    SEC_PLAY,
    SEC_SIX_CARD_OFFERED,
    SEC_WAGERS,
    SIX_CARD_BONUS,
    WAGERS,
    ThreeCardPokerRules,
)
from .settle import settle_round

# --- the round -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThreeCardPokerState:
    """A round of Three Card Poker so far (immutable: a refused event changes nothing)."""

    rules: ThreeCardPokerRules
    meters: Mapping[str, Cents]
    wagers: Mapping[int, Mapping[str, Cents]] = field(default_factory=lambda: MappingProxyType({}))
    """Each seat's wagers by name, the Play Wager included once made."""
    no_more_bets: bool = False
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=lambda: MappingProxyType({}))
    """Three cards for each seat (``"1"``...) and the dealer (``"dealer"``)."""
    decisions: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    """``"play"`` or ``"fold"`` for each seat with an Ante Wager, in the order made."""
    cards_face_up: int = 0
    """Cards found face up in the deck during the deal (§ 649a.13(a))."""
    void: str = ""
    void_section: str = ""
    irregularities: tuple[str, ...] = ()
    """Irregularities that left the round standing, in words."""

    @property
    def ante_seats(self) -> tuple[int, ...]:
        """Seats with an Ante Wager, from the dealer's left (seat 1) clockwise."""
        return tuple(sorted(s for s, w in self.wagers.items() if ANTE in w))

    @property
    def next_to_decide(self) -> int | None:
        """The seat asked next to play or fold (§ 649a.11(b)), or ``None`` when all have."""
        return next((s for s in self.ante_seats if s not in self.decisions), None)

    @property
    def players_dealt(self) -> bool:
        return all(str(s) in self.hands for s in self.wagers)

    @property
    def phase(self) -> str:
        """In words, for messages: what the round is doing now."""
        if self.void:
            return "void"
        if not self.no_more_bets:
            return "taking wagers"
        if not self.players_dealt:
            return "dealing"
        if self.next_to_decide is not None:
            return "taking decisions"
        return "complete" if DEALER in self.hands else "waiting for the dealer's cards"


def _frozen(d: Mapping[int, Mapping[str, Cents]]) -> Mapping[int, Mapping[str, Cents]]:
    return MappingProxyType({s: MappingProxyType(dict(w)) for s, w in d.items()})


IRREGULARITIES: Final = (
    "card_face_up",
    "card_drawn_in_error",
    "wrong_card_count",
    "hole_card_exposed",
    "shuffler_jam",
    "shoe_jam",
    "stub_count_incorrect",
)
"""The ``kind`` of each irregularity event this game accepts (docs/games/three-card-poker.md)."""


#: What the dealer's screen offers; the irregularities follow § 649a.13, which applies § 639a.13
#: (``SEC_IRREGULARITIES``), each with its subsection there.
VOCABULARY: Final = Vocabulary(
    (
        Term("ante", "Ante", "§ 649a.7"),
        Term("pair_plus", "Pair Plus", "§ 649a.7"),
        Term("six_card_bonus", "Six Card Bonus", "§ 649a.7"),
    ),
    (Term("play", "Play", "§ 649a.11(b)"), Term("fold", "Fold", "§ 649a.11(b)")),
    tuple(
        Term(kind, title, f"§ 649a.13 (as § 639a.13({sub}))")
        for kind, title, sub in (
            ("shoe_jam", "Shoe jammed", "f"),
            ("shuffler_jam", "Shuffler jammed", "e"),
            ("card_face_up", "Card face up", "a"),
            ("card_drawn_in_error", "Card drawn in error", "b"),
            ("wrong_card_count", "Wrong card count", "c"),
        )
    ),
)


@dataclass(frozen=True)
class ThreeCardPokerGame(GameBase[ThreeCardPokerRules, ThreeCardPokerState]):
    """Three Card Poker as a :class:`~.engine.Game`. No progressive wager (the default)."""

    name: str = "three-card-poker"
    title: str = "Three Card Poker"
    chapter: str = "58 Pa. Code ch. 649a"
    rules_class: type[ThreeCardPokerRules] = ThreeCardPokerRules
    rules_checks: tuple[Callable[[ThreeCardPokerRules], Iterable[str]], ...] = RULES_CHECKS
    joker: bool = False

    def decks(self, rules: ThreeCardPokerRules) -> int:
        """Every round is dealt from one deck, even where two alternate (as § 639a.3(b)(2),(3))."""
        return 1

    def start(self, rules: ThreeCardPokerRules, meters: Mapping[str, Cents]) -> ThreeCardPokerState:
        return ThreeCardPokerState(rules, MappingProxyType(dict(meters)))

    def waiting_for(self, state: ThreeCardPokerState) -> tuple[Waiting, ...]:
        return () if state.void else _waiting_for(state)

    def vocabulary(self, rules: ThreeCardPokerRules) -> Vocabulary:
        """What the dealer's screen offers at this game (:data:`VOCABULARY`)."""
        return VOCABULARY

    def devices(self, rules: ThreeCardPokerRules) -> Devices:
        """Two decks only alternated with an automated card shuffling device (§ 649a.3, as
        § 639a.3(b)); the cards may come from an automated dealing shoe (its jam is an
        irregularity, § 649a.13), which the Rules Submission does not require."""
        return Devices(shuffler=rules.decks == 2, section="§ 649a.3")

    # --- events ----------------------------------------------------------------------------

    def apply(self, state: ThreeCardPokerState, event: Event) -> ThreeCardPokerState:
        if state.void:
            raise IllegalEvent(f"the round is void ({state.void}); it waits only to be settled")
        handler = _HANDLERS.get(event.type)
        if handler is None:
            raise IllegalEvent(
                f"Three Card Poker has no {event.type} event "
                f"(it takes wager, no_more_bets, cards, decision and irregularity)"
            )
        return handler(state, event)

    # --- settlement ------------------------------------------------------------------------

    def settle(self, state: ThreeCardPokerState) -> Settlement:
        if state.void:
            return void_all(self.name, state.wagers, state.void, state.void_section, state.meters)
        missing = _waiting_for(state)
        if missing:
            raise IllegalEvent(f"the round is not complete: it waits for {in_words(missing)}")
        return settle_round(self.name, state)


def _waiting_for(state: ThreeCardPokerState) -> tuple[Waiting, ...]:
    if not state.no_more_bets:
        return (Waiting(Actor.DEALER, '"no more bets"', SEC_WAGERS),)
    undealt = [str(s) for s in sorted(state.wagers) if str(s) not in state.hands]
    if undealt:
        what = f"the cards of seat{'s' if len(undealt) > 1 else ''} {', '.join(undealt)}"
        return (Waiting(Actor.SHOE, what, SEC_DEAL, int(undealt[0]) if len(undealt) == 1 else None),)
    seat = state.next_to_decide
    if seat is not None:
        return (Waiting(Actor.PLAYER, f"seat {seat} to play or fold ({SEC_DECISION})", SEC_DECISION, seat),)
    if DEALER not in state.hands:
        return (Waiting(Actor.SHOE, "the dealer's cards", SEC_DEAL),)
    return ()


def _wager(state: ThreeCardPokerState, event: Event) -> ThreeCardPokerState:
    assert event.seat is not None and event.wager is not None and event.amount is not None
    seat, name, amount = event.seat, event.wager, event.amount
    if state.no_more_bets:
        raise IllegalEvent(
            f'no wager may be made, increased or withdrawn after "no more bets" ({SEC_WAGERS})'
        )
    if seat > state.rules.seats:
        raise IllegalEvent(f"seat {seat}: this table has seats 1 to {state.rules.seats} (rules: seats)")
    if name == PLAY:
        raise IllegalEvent(
            f"seat {seat}: the Play Wager is made after the cards are dealt, as a decision ({SEC_DECISION})"
        )
    if name not in WAGERS:
        raise IllegalEvent(
            f"seat {seat}: Three Card Poker has no {name!r} wager (wagers: {', '.join(WAGERS)})"
        )
    if name == SIX_CARD_BONUS and not state.rules.six_card_bonus_offered:
        raise IllegalEvent(
            f"seat {seat}: the Six Card Bonus Wager is not offered at this table "
            f"(six_card_bonus.offered is false, {SEC_SIX_CARD_OFFERED})"
        )
    if amount <= 0:
        raise IllegalEvent(f"seat {seat} {name}: a wager of {format_money(amount)} is no wager")
    wagers = {s: dict(w) for s, w in state.wagers.items()}
    # A repeated wager event reports the wager as it now stands (a player may change it until
    # "no more bets", § 649a.7(c)).
    wagers.setdefault(seat, {})[name] = amount
    return replace(state, wagers=_frozen(wagers))


def _no_more_bets(state: ThreeCardPokerState, event: Event) -> ThreeCardPokerState:
    if state.no_more_bets:
        raise IllegalEvent('"no more bets" was already announced this round')
    for seat in sorted(state.wagers):
        w = state.wagers[seat]
        if SIX_CARD_BONUS in w and ANTE not in w and PAIR_PLUS not in w:
            raise IllegalEvent(
                f"seat {seat}: a Six Card Bonus Wager needs an Ante or a Pair Plus Wager at the same seat "
                f"({SEC_SIX_CARD_OFFERED}); take the Six Card Bonus Wager down or add one first"
            )
    return replace(state, no_more_bets=True)


def _cards(state: ThreeCardPokerState, event: Event) -> ThreeCardPokerState:
    to = event.to
    assert to is not None
    if not state.no_more_bets:
        raise IllegalEvent(f'cards are dealt only after "no more bets" ({SEC_DEAL})')
    if to == "board":
        raise IllegalEvent("Three Card Poker has no board: cards go to a seat or to the dealer")
    seat = seat_of(to)
    if seat is not None and seat not in state.wagers:
        raise IllegalEvent(f"seat {seat} placed no wager; cards go only to seats with a wager ({SEC_DEAL})")
    if event.hand != 0:
        raise IllegalEvent("Three Card Poker has one hand per seat (hand 0)")
    who = "the dealer" if seat is None else f"seat {seat}"
    if to in state.hands:
        raise IllegalEvent(f"{who} already has cards ({format_cards(state.hands[to])})")
    if len(event.cards) != HAND_SIZE:
        raise IllegalEvent(
            f"{who}: {len(event.cards)} cards; each player and the dealer get three ({SEC_DEAL}). "
            f"If the cards were dealt so, report the irregularity wrong_card_count ({SEC_IRREGULARITIES})"
        )
    seen = {c: where for where, hand in state.hands.items() for c in hand}
    for c in event.cards:
        if c in seen:
            other = "the dealer" if seen[c] == DEALER else f"seat {seen[c]}"
            raise IllegalEvent(f"{who}: {c} is already in the hand of {other}; one deck holds it once")
    return replace(state, hands=MappingProxyType({**state.hands, to: tuple(event.cards)}))


def _decision(state: ThreeCardPokerState, event: Event) -> ThreeCardPokerState:
    seat, action = event.seat, event.action
    assert seat is not None and action is not None
    if not state.no_more_bets or not state.players_dealt:
        raise IllegalEvent(
            f"seat {seat}: decisions come after every player's cards are dealt ({SEC_DECISION})"
        )
    if seat not in state.wagers or ANTE not in state.wagers[seat]:
        raise IllegalEvent(f"seat {seat} has no Ante Wager, so it has no Play Wager to make ({SEC_PLAY})")
    if seat in state.decisions:
        raise IllegalEvent(f"seat {seat} already decided to {state.decisions[seat]}")
    if action not in ACTIONS:
        raise IllegalEvent(f"seat {seat}: the action is play or fold, not {action!r} ({SEC_DECISION})")
    if event.hand != 0:
        raise IllegalEvent("Three Card Poker has one hand per seat (hand 0)")
    turn = state.next_to_decide
    if seat != turn:
        raise IllegalEvent(
            f"seat {seat} decided out of turn: the dealer asks each player from the dealer's left "
            f"and seat {turn} decides next ({SEC_DECISION})"
        )
    ante = state.wagers[seat][ANTE]
    wagers: Mapping[int, Mapping[str, Cents]] = state.wagers
    if action == PLAY:
        if event.amount is not None and event.amount != ante:
            raise IllegalEvent(
                f"seat {seat}: a Play Wager of {format_money(event.amount)}; it must equal the Ante Wager "
                f"of {format_money(ante)} ({SEC_PLAY})"
            )
        wagers = _frozen({**state.wagers, seat: {**state.wagers[seat], PLAY: ante}})
    elif event.amount is not None:
        raise IllegalEvent(f"seat {seat}: a fold places no wager, so it has no amount")
    return replace(state, wagers=wagers, decisions=MappingProxyType({**state.decisions, seat: action}))


def _irregularity(state: ThreeCardPokerState, event: Event) -> ThreeCardPokerState:
    kind = event.kind
    assert kind is not None
    detail = f": {event.detail}" if event.detail else ""
    if kind not in IRREGULARITIES:
        raise IllegalEvent(f"unknown irregularity {kind!r} (this game knows {', '.join(IRREGULARITIES)})")
    if kind == "shuffler_jam":
        # § 639a.13(e): the cards are reshuffled; no hand is void.
        if state.hands:
            raise IllegalEvent(
                "a shuffler jam is reported before the deal; the cards of this round are already out "
                f"({SEC_IRREGULARITIES}(e))"
            )
        return _noted(state, f"shuffler jam, cards reshuffled (§ 649a.13(e)){detail}")
    if not state.no_more_bets:
        raise IllegalEvent(
            f'{kind}: no cards are dealt before "no more bets", so it cannot have happened yet'
        )
    if kind == "card_face_up":
        # § 639a.13(a): one card found face up is discarded; a second voids the round.
        if state.players_dealt and DEALER in state.hands:
            raise IllegalEvent("card_face_up: a card found face up in the deck is reported during the deal")
        if state.cards_face_up >= 1:
            return _voided(
                state, f"more than one card found face up in the deck during the deal{detail}", "(a)"
            )
        noted = _noted(state, f"a card found face up in the deck was discarded (§ 649a.13(a)){detail}")
        return replace(noted, cards_face_up=state.cards_face_up + 1)
    if kind == "card_drawn_in_error":
        # § 639a.13(b): used as though it were the next card.
        return _noted(state, f"a card drawn in error was used as the next card (§ 649a.13(b)){detail}")
    if kind == "wrong_card_count":
        return _voided(state, f"a player or the dealer was dealt an incorrect number of cards{detail}", "(c)")
    if kind == "hole_card_exposed":
        # § 639a.13(d): only before every player has played or folded.
        if state.players_dealt and state.next_to_decide is None:
            raise IllegalEvent(
                "hole_card_exposed: every player has played or folded, so the dealer's cards are revealed "
                f"anyway; this voids nothing ({SEC_IRREGULARITIES}(d))"
            )
        return _voided(
            state, f"a dealer's card was exposed before every player had played or folded{detail}", "(d)"
        )
    if kind == "shoe_jam":
        return _voided(state, f"the automated dealing shoe jammed or stopped dealing{detail}", "(f)")
    # stub_count_incorrect, § 639a.8(h) (repeated in § 639a.9(f), § 639a.10(f)).
    return _voided(
        state,
        f"the stub count shows the deck is incorrect; the deck is removed from the table{detail}",
        "",
        section="§ 649a.8-649a.10 (as § 639a.8(h))",
    )


def _noted(state: ThreeCardPokerState, text: str) -> ThreeCardPokerState:
    return replace(state, irregularities=(*state.irregularities, text))


def _voided(
    state: ThreeCardPokerState, reason: str, subsection: str, section: str = ""
) -> ThreeCardPokerState:
    return replace(
        state,
        void=f"{reason}: all hands are void and all wagers returned",
        void_section=section or f"§ 649a.13{subsection} (as § 639a.13{subsection})",
    )


def _no_meter(state: ThreeCardPokerState, event: Event) -> ThreeCardPokerState:
    raise IllegalEvent("Three Card Poker here has no progressive meter (no Progressive Payout Wager)")


_HANDLERS: Final[Mapping[str, Callable[[ThreeCardPokerState, Event], ThreeCardPokerState]]] = {
    "wager": _wager,
    "no_more_bets": _no_more_bets,
    "cards": _cards,
    "decision": _decision,
    "irregularity": _irregularity,
    "meter": _no_meter,
}


GAME: Final[Game[ThreeCardPokerRules, ThreeCardPokerState]] = ThreeCardPokerGame()

__all__ = ["GAME", "IRREGULARITIES", "ThreeCardPokerGame", "ThreeCardPokerRules", "ThreeCardPokerState"]
