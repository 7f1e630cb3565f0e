"""Texas Hold 'Em Bonus Poker: 58 Pa. Code ch. 647a, as a pure round engine.

The round (§ 647a.8-647a.11):

1. Ante Wagers and optional Texas Hold 'Em Bonus Wagers, then "no more bets"
   (§ 647a.7(c), § 647a.8(b)).
2. Two cards to each player who placed an Ante Wager and to the dealer, the
   dealer's hand last (§ 647a.8(d), § 647a.9(b), § 647a.10(b)).
3. From the dealer's left (seat 1 up), each player folds or places a Flop Wager
   of twice the Ante (§ 647a.11(b)); then the Flop, three community cards (c).
4. Each player still in checks or places a Turn Wager equal to the Ante (d);
   the turn card (e). The same for the River Wager (f) and the river card (g).
5. The dealer's and each player's best five of seven; from the dealer's right,
   for each player still in: Ante, Flop, Turn and River Wagers, then the Bonus
   (§ 647a.11(h)); a folded player's Bonus is resolved at the conclusion of the
   round (§ 647a.11(b)(2)(i)).

Payouts: 1 to 1 on Ante, Flop, Turn and River (§ 647a.12(a)), the Ante only
when the winning hand is a straight or higher (or a flush or higher, per the
Rules Submission; § 647a.11(h)(2)(ii)), otherwise the Ante is returned; the
Bonus on the player's first two cards by paytable A or B (§ 647a.7(d)(2),
§ 647a.12(b)); at most the aggregate payout limit on one hand (§ 647a.12(c)).

Events (see docs/games/holdem-bonus.md): ``wager`` (``ante``, ``bonus``
before "no more bets"; ``flop``, ``turn``, ``river`` as the player's decision),
``no_more_bets``, ``cards`` (2 to a seat, 2 to the dealer, 3 + 1 + 1 to the
board), ``decision`` (``bet``, ``fold``, ``check``) and ``irregularity``
(the kinds in :data:`IRREGULARITIES`, § 647a.13 and the stub counts of
§ 647a.8(h), § 647a.9(f), § 647a.10(f)).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Final

from .cards import ACE, JACK, KING, QUEEN, Card, CardError, format_cards, parse_cards
from .engine import GameBase, IllegalEvent
from .events import Event, seat_of
from .high import FLUSH, STRAIGHT, category_of, code7, describe
from .hooks import Actor, Devices, Waiting
from .money import Cents, Odds, format_money
from .option_groups import CardHandlingOptions, SideWagerOptions
from .options import choice, integer, money, option
from .payout_limit import PayoutLimit
from .settlement import Outcome, Result, Settlement

# --- the Bonus paytables, § 647a.12(b) -------------------------------------------------------

ACE_ACE_DEALER_AND_PLAYER: Final = "ace-ace (dealer and player)"
ACE_ACE: Final = "ace-ace"
ACE_KING_SUITED: Final = "ace-king (same suit)"
ACE_QUEEN_JACK_SUITED: Final = "ace-queen or ace-jack (same suit)"
ACE_KING_OFFSUIT: Final = "ace-king (different suits)"
KINGS_QUEENS_JACKS: Final = "king-king, queen-queen or jack-jack"
ACE_QUEEN_JACK_OFFSUIT: Final = "ace-queen or ace-jack (different suits)"
PAIR_TEN_TO_TWO: Final = "a pair of 10-10 through 2-2"

#: The rows of § 647a.12(b), highest first, in the text's words.
BONUS_HANDS: Final = (
    ACE_ACE_DEALER_AND_PLAYER,
    ACE_ACE,
    ACE_KING_SUITED,
    ACE_QUEEN_JACK_SUITED,
    ACE_KING_OFFSUIT,
    KINGS_QUEENS_JACKS,
    ACE_QUEEN_JACK_OFFSUIT,
    PAIR_TEN_TO_TWO,
)


def _to1(n: int) -> Odds:
    return Odds(n, 1, "to")


#: § 647a.12(b): "Paytable A" and "Paytable B"; ``None`` where the table says "N/A".
BONUS_PAYTABLES: Final[Mapping[str, Mapping[str, Odds | None]]] = MappingProxyType(
    {
        "A": MappingProxyType(
            {
                ACE_ACE_DEALER_AND_PLAYER: _to1(1000),
                ACE_ACE: _to1(30),
                ACE_KING_SUITED: _to1(25),
                ACE_QUEEN_JACK_SUITED: _to1(20),
                ACE_KING_OFFSUIT: _to1(15),
                KINGS_QUEENS_JACKS: _to1(10),
                ACE_QUEEN_JACK_OFFSUIT: _to1(5),
                PAIR_TEN_TO_TWO: _to1(3),
            }
        ),
        "B": MappingProxyType(
            {
                ACE_ACE_DEALER_AND_PLAYER: None,
                ACE_ACE: _to1(30),
                ACE_KING_SUITED: _to1(25),
                ACE_QUEEN_JACK_SUITED: _to1(20),
                ACE_KING_OFFSUIT: _to1(15),
                KINGS_QUEENS_JACKS: _to1(10),
                ACE_QUEEN_JACK_OFFSUIT: _to1(5),
                PAIR_TEN_TO_TWO: _to1(3),
            }
        ),
    }
)


def bonus_hand(player: tuple[Card, ...], dealer: tuple[Card, ...], paytable: str) -> str | None:
    """The row of § 647a.12(b) that the player's first two cards qualify for, or ``None``.

    "Ace-ace (dealer and player)" is the player's two aces while the dealer's two
    cards are aces as well; paytable B has no such row ("N/A"), so there the
    player's aces are "ace-ace".
    """
    a, b = sorted(player, key=lambda c: c.rank, reverse=True)
    suited = a.suit == b.suit
    if a.rank == b.rank == ACE:
        dealer_aces = len(dealer) == 2 and all(c.rank == ACE for c in dealer)
        if dealer_aces and BONUS_PAYTABLES[paytable][ACE_ACE_DEALER_AND_PLAYER] is not None:
            return ACE_ACE_DEALER_AND_PLAYER
        return ACE_ACE
    if a.rank == ACE and b.rank == KING:
        return ACE_KING_SUITED if suited else ACE_KING_OFFSUIT
    if a.rank == ACE and b.rank in (QUEEN, JACK):
        return ACE_QUEEN_JACK_SUITED if suited else ACE_QUEEN_JACK_OFFSUIT
    if a.rank == b.rank:
        return KINGS_QUEENS_JACKS if a.rank in (KING, QUEEN, JACK) else PAIR_TEN_TO_TWO
    return None


# --- the Rules Submission -------------------------------------------------------------------

ANTE_RULES: Final = ("straight or higher", "flush or higher")
CARD_HANDLING: Final = CardHandlingOptions("647a")
AGGREGATE_MINIMUM: Final[Cents] = 5_000_000
"""§ 647a.12(c): "$50,000 or the maximum amount that one patron could win per round ..."."""


BONUS_OPTIONS: Final = SideWagerOptions("bonus", "Bonus Wager", "§ 647a.7(d)(2)")


@dataclass(frozen=True)
class HoldemBonusRules:
    """What ch. 647a leaves to the Rules Submission under § 601a.2, and the table's setup."""

    seats: int = option(
        "seats", integer(1, 6), 6, section="§ 647a.2(a)", help="betting positions, no more than six"
    )
    decks: int = option(
        "decks",
        integer(1, 2),
        1,
        section="§ 647a.3",
        help="one deck, or two decks alternated round by round with an automated shuffler",
    )
    shuffler: str = CARD_HANDLING.shuffler()
    dealing: str = CARD_HANDLING.dealing()
    ante_paid_on: str = option(
        "ante.paid_on",
        choice(*ANTE_RULES),
        "straight or higher",
        section="§ 647a.11(h)(2)(ii)",
        help="the least winning hand on which the Ante Wager is paid; below it the Ante is returned",
    )
    ante_minimum: Cents = option(
        "ante.minimum",
        money(1, "one cent"),
        "5.00",
        section="§ 647a.12(c)",
        help="the table's minimum Ante Wager",
    )
    bonus_offered: bool = BONUS_OPTIONS.offered()
    bonus_paytable: str = BONUS_OPTIONS.paytable(choice("A", "B"), "A", section="§ 647a.12(b)")
    bonus_minimum: Cents = BONUS_OPTIONS.minimum(section="§ 647a.12(c)")
    payout_limit: Cents = option(
        "payout_limit",
        money(AGGREGATE_MINIMUM, "the $50,000 minimum of § 647a.12(c)"),
        "50000.00",
        section="§ 647a.12(c)",
        help="the maximum aggregate payout on all winning wagers of one hand",
    )


def most_one_patron_wins(rules: HoldemBonusRules) -> Cents:
    """The most one patron could win per round betting the minimum wagers (§ 647a.12(c)).

    The minimum Ante paid 1 to 1, the Flop Wager of twice it, the Turn and River
    Wagers of once it (5 x the Ante), and where the Bonus is offered the minimum
    Bonus at the paytable's highest odds.
    """
    base = 5 * rules.ante_minimum
    if not rules.bonus_offered:
        return base
    top = max(
        (o for o in BONUS_PAYTABLES[rules.bonus_paytable].values() if o is not None), key=lambda o: o.pays
    )
    return base + top.net(rules.bonus_minimum)


def check_payout_limit(rules: HoldemBonusRules) -> Iterable[str]:
    """§ 647a.12(c): the limit is at least what one patron could win betting the minimum."""
    least = most_one_patron_wins(rules)
    if rules.payout_limit < least:
        bonus = ""
        if rules.bonus_offered:
            top = BONUS_PAYTABLES[rules.bonus_paytable][
                ACE_ACE_DEALER_AND_PLAYER if rules.bonus_paytable == "A" else ACE_ACE
            ]
            bonus = f" and the ${format_money(rules.bonus_minimum)} minimum Bonus at {top}"
        yield (
            f"payout_limit {format_money(rules.payout_limit)} is below ${format_money(least)}, the most one "
            f"patron could win per round betting the minimum wagers (5 x the "
            f"${format_money(rules.ante_minimum)} minimum Ante{bonus}), which § 647a.12(c) makes the least "
            f"aggregate payout limit"
        )


def check_equipment(rules: HoldemBonusRules) -> Iterable[str]:
    """Two decks (§ 647a.3(b)) and dealing from the hand (§ 647a.9(a)(1)) need an automated shuffler."""
    if rules.decks == 2 and rules.shuffler != "automated":
        yield (
            "decks 2 needs shuffler = 'automated': two decks only with an automated card shuffling device "
            "(§ 647a.3(b))"
        )
    if rules.dealing == "hand" and rules.shuffler != "automated":
        yield (
            "dealing 'hand' needs shuffler = 'automated': an automated shuffling device shall be used "
            "(§ 647a.9(a)(1))"
        )


RULES_CHECKS: Final[tuple[Callable[[HoldemBonusRules], Iterable[str]], ...]] = (
    check_payout_limit,
    check_equipment,
)

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

_STREETS: Final = (FLOP, TURN, RIVER)
_STREET_WORDS: Final = {FLOP: "Flop", TURN: "Turn", RIVER: "River"}
_DECISION_SECTION: Final = {FLOP: "§ 647a.11(b)", TURN: "§ 647a.11(d)", RIVER: "§ 647a.11(f)"}
_BOARD_SECTION: Final = {FLOP: "§ 647a.11(c)", TURN: "§ 647a.11(e)", RIVER: "§ 647a.11(g)"}
_BOARD_CARDS: Final = {FLOP: 3, TURN: 1, RIVER: 1}


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
    for street in _STREETS:
        asked = players if street == FLOP else tuple(p for p in players if p.in_play)
        for p in asked:
            if not p.decision(street):
                return Awaiting(f"{street}_decision", p.seat)
        if len(state.board) < {FLOP: 3, TURN: 4, RIVER: 5}[street]:
            return Awaiting(street)
    return Awaiting("done")


def decisions_complete(state: HoldemBonusState) -> bool:
    """Every player has folded or made each of his decisions (§ 647a.13(d))."""
    step = awaiting(state).step
    if step in ("wagers", "deal") or step.endswith("_decision"):
        return False
    return step in ("river", "done") or not any(p.in_play for p in state.players)


def _initial_deal_complete(state: HoldemBonusState) -> bool:
    return bool(state.dealer) and all(p.cards for p in state.players)


# --- the game -------------------------------------------------------------------------------


class HoldemBonusGame(GameBase[HoldemBonusRules, HoldemBonusState]):
    """Texas Hold 'Em Bonus Poker (58 Pa. Code ch. 647a); exported as :data:`GAME`. No
    progressive wager (the default)."""

    name: Final = "holdem-bonus"
    title: Final = "Texas Hold 'Em Bonus Poker"
    chapter: Final = "58 Pa. Code ch. 647a"
    rules_class: Final = HoldemBonusRules
    rules_checks: Final = RULES_CHECKS
    joker: Final = False

    def decks(self, rules: HoldemBonusRules) -> int:
        """One: with two decks, each round is dealt from one of them (§ 647a.3(b)(2)-(4))."""
        return 1

    def start(self, rules: HoldemBonusRules, meters: Mapping[str, Cents]) -> HoldemBonusState:
        return HoldemBonusState(rules, tuple(sorted(meters.items())))

    def waiting_for(self, state: HoldemBonusState) -> tuple[Waiting, ...]:
        if state.void is not None:
            return ()
        now = awaiting(state)
        return () if _settleable(state, now) else (_waiting(state, now),)

    def devices(self, rules: HoldemBonusRules) -> Devices:
        """The shuffler and the automated dealing shoe, where the Rules Submission uses them."""
        return Devices.for_cards(rules.shuffler, rules.dealing, "§ 647a.5(a), § 647a.10")

    def apply(self, state: HoldemBonusState, event: Event) -> HoldemBonusState:
        if state.void is not None:
            raise IllegalEvent(f"the round is void ({state.void.reason}); it only remains to settle it")
        if event.type == "wager":
            return _wager(state, event)
        if event.type == "no_more_bets":
            return _no_more_bets(state)
        if event.type == "cards":
            return _cards(state, event)
        if event.type == "decision":
            return _decision(state, event)
        if event.type == "irregularity":
            return _irregularity(state, event)
        raise IllegalEvent(
            f"Texas Hold 'Em Bonus Poker has no {event.type} event "
            "(it takes wager, no_more_bets, cards, decision and irregularity)"
        )

    def settle(self, state: HoldemBonusState) -> Settlement:
        if state.void is not None:
            return _settle_void(state, state.void)
        _check_complete(state)
        return _settle_round(state)


GAME: Final = HoldemBonusGame()

# --- events ---------------------------------------------------------------------------------


def _seat_number(state: HoldemBonusState, seat: int | None) -> int:
    if seat is None or not 1 <= seat <= state.rules.seats:
        raise IllegalEvent(
            f"seat {seat} is not a betting position of this table (1 to {state.rules.seats}, § 647a.2(a))"
        )
    return seat


def _put_seat(state: HoldemBonusState, seat: SeatState | None, number: int) -> HoldemBonusState:
    others = [s for s in state.seats if s.seat != number]
    if seat is not None:
        others.append(seat)
    return replace(state, seats=tuple(sorted(others, key=lambda s: s.seat)))


def _wager(state: HoldemBonusState, event: Event) -> HoldemBonusState:
    number = _seat_number(state, event.seat)
    name, amount = event.wager or "", event.amount or 0
    if name in _STREETS:
        if not state.locked:
            raise IllegalEvent(
                f"a {_STREET_WORDS[name]} Wager is placed only when the dealer asks, after the cards are "
                f"dealt ({_DECISION_SECTION[name]})"
            )
        return _decision(state, Event("decision", seat=number, action=BET, amount=event.amount), street=name)
    if name not in (ANTE, BONUS):
        raise IllegalEvent(
            f"no wager {name!r} at Texas Hold 'Em Bonus Poker "
            "(wagers: ante, bonus; flop, turn and river when the dealer asks; § 647a.7(d))"
        )
    if state.locked:
        raise IllegalEvent(
            f'seat {number}: no wager may be made, increased or withdrawn after "no more bets" (§ 647a.7(c))'
        )
    rules = state.rules
    if name == BONUS and not rules.bonus_offered:
        raise IllegalEvent(
            "this table does not offer the Texas Hold 'Em Bonus Wager (bonus.offered, § 647a.7(d)(2))"
        )
    minimum = rules.ante_minimum if name == ANTE else rules.bonus_minimum
    if 0 < amount < minimum:
        word = "Ante" if name == ANTE else "Bonus"
        raise IllegalEvent(
            f"seat {number}: a {word} Wager of {format_money(amount)} is below the table's minimum of "
            f"{format_money(minimum)} ({word.lower()}.minimum in the Rules Submission)"
        )
    current = state.seat(number) or SeatState(number)
    # Before "no more bets" the wager on the layout is as last sensed; 0.00 takes it back.
    updated = replace(current, ante=amount) if name == ANTE else replace(current, bonus=amount)
    return _put_seat(state, updated if updated.ante or updated.bonus else None, number)


def _no_more_bets(state: HoldemBonusState) -> HoldemBonusState:
    if state.locked:
        raise IllegalEvent('"no more bets" was already announced for this round (§ 647a.8(b))')
    if not state.players:
        raise IllegalEvent("no player has placed an Ante Wager: there is no one to deal to (§ 647a.8(d))")
    for s in state.seats:
        if s.bonus and not s.ante:
            raise IllegalEvent(
                f"seat {s.seat} has a Bonus Wager but no Ante Wager: cards are dealt only to players who "
                "placed an Ante Wager (§ 647a.8(d)), and the Bonus is on the player's first two cards "
                "(§ 647a.7(d)(2))"
            )
    return replace(state, locked=True)


def _check_new_cards(state: HoldemBonusState, cards: tuple[Card, ...], where: str) -> None:
    seen = state.seen
    for c in cards:
        if c in state.discarded:
            raise IllegalEvent(
                f"{c} to {where}: it was found face up and may not be used this round (§ 647a.13(a))"
            )
        if c in seen:
            raise IllegalEvent(f"{c} to {where}: it is already out this round (one deck, § 647a.3)")


def _cards(state: HoldemBonusState, event: Event) -> HoldemBonusState:
    if not state.locked:
        raise IllegalEvent('no card is dealt before the dealer announces "no more bets" (§ 647a.8(b))')
    if event.hand:
        raise IllegalEvent("Texas Hold 'Em Bonus Poker has no split hands (hand must be 0)")
    cards = event.cards
    now = awaiting(state)
    wrong_count = "; if it was dealt so, record the irregularity wrong_card_count (§ 647a.13(c))"
    seat = seat_of(event.to)
    if seat is not None:
        _seat_number(state, seat)
        s = state.seat(seat)
        if s is None or not s.ante:
            raise IllegalEvent(
                f"seat {seat} placed no Ante Wager: cards are dealt only to players who did (§ 647a.8(d))"
            )
        if s.cards:
            raise IllegalEvent(f"seat {seat} already has its two cards ({format_cards(s.cards)})")
        if len(cards) != 2:
            raise IllegalEvent(f"seat {seat} is dealt two cards, not {len(cards)} (§ 647a.8(d)){wrong_count}")
        _check_new_cards(state, cards, f"seat {seat}")
        return _put_seat(state, replace(s, cards=cards), seat)
    if event.to == "dealer":
        if state.dealer:
            raise IllegalEvent(f"the dealer already has his two cards ({format_cards(state.dealer)})")
        if now.step == "deal" and now.seat is not None:
            raise IllegalEvent(
                f"the dealer's cards come after every player's (seat {now.seat} has none yet; § 647a.8(d), "
                "§ 647a.10(b))"
            )
        if len(cards) != 2:
            raise IllegalEvent(f"the dealer is dealt two cards, not {len(cards)} (§ 647a.8(d)){wrong_count}")
        _check_new_cards(state, cards, "the dealer")
        return replace(state, dealer=cards)
    # The board: the Flop (3), the turn card (1), the river card (1), each after its decisions.
    if now.step not in _STREETS:
        raise IllegalEvent(f"no community card now: {_waiting_words(state, now)}")
    need = _BOARD_CARDS[now.step]
    if len(cards) != need:
        label = "the Flop is three cards" if now.step == FLOP else f"the {now.step} card is one card"
        raise IllegalEvent(
            f"{label}, not {len(cards)} ({_BOARD_SECTION[now.step]}): the community cards come 3, 1 and 1, "
            f"each after the players' decisions{wrong_count}"
        )
    _check_new_cards(state, cards, "the board")
    return replace(state, board=state.board + cards)


def _decision(state: HoldemBonusState, event: Event, street: str | None = None) -> HoldemBonusState:
    number = _seat_number(state, event.seat)
    if event.hand:
        raise IllegalEvent("Texas Hold 'Em Bonus Poker has no split hands (hand must be 0)")
    now = awaiting(state)
    if not now.step.endswith("_decision"):
        raise IllegalEvent(f"seat {number}: no decision now: {_waiting_words(state, now)}")
    current = now.step.removesuffix("_decision")
    if street is not None and street != current:
        raise IllegalEvent(
            f"seat {number}: a {_STREET_WORDS[street]} Wager now? The dealer is asking for "
            f"{_STREET_WORDS[current]} Wagers ({_DECISION_SECTION[current]})"
        )
    if number != now.seat:
        raise IllegalEvent(
            f"seat {number} acts out of turn: the dealer asks seat {now.seat} first, moving clockwise from "
            f"his left ({_DECISION_SECTION[current]})"
        )
    s = state.seat(number)
    assert s is not None
    action = event.action or ""
    words = _STREET_WORDS[current]
    section = _DECISION_SECTION[current]
    allowed = (BET, FOLD) if current == FLOP else (BET, CHECK)
    if action not in allowed:
        raise IllegalEvent(
            f"seat {number}: {action!r} is not a choice at the {words} Wager: the player may "
            + (
                "either fold or place a Flop Wager ('bet')"
                if current == FLOP
                else f"either check and remain in the game or place a {words} Wager ('bet')"
            )
            + f" ({section})"
        )
    if action == BET:
        due = 2 * s.ante if current == FLOP else s.ante
        if event.amount is not None and event.amount != due:
            times = "twice" if current == FLOP else "equal to"
            raise IllegalEvent(
                f"seat {number}: a {words} Wager of {format_money(event.amount)}; it must be {times} the "
                f"Ante Wager of {format_money(s.ante)}, i.e. {format_money(due)} ({section})"
            )
    elif event.amount is not None:
        raise IllegalEvent(f"seat {number}: to {action} is to wager nothing; no amount goes with it")
    if current == FLOP:
        updated = replace(s, flop=action)
    elif current == TURN:
        updated = replace(s, turn=action)
    else:
        updated = replace(s, river=action)
    new = _put_seat(state, updated, number)
    if action == FOLD:
        # § 647a.11(b)(2): the Ante is collected now; the cards stay under a Bonus Wager.
        new = replace(new, folds=(*new.folds, number))
    return new


def _waiting_words(state: HoldemBonusState, now: Awaiting) -> str:
    return _waiting(state, now).what


def _waiting(state: HoldemBonusState, now: Awaiting) -> Waiting:
    step = now.step
    what = _words(now)
    if step == "wagers":
        return Waiting(Actor.DEALER, what, "§ 647a.7(c)")
    if step == "deal":
        return Waiting(Actor.SHOE, what, "§ 647a.8(d)", now.seat)
    if step.endswith("_decision"):
        return Waiting(Actor.PLAYER, what, _DECISION_SECTION[step.removesuffix("_decision")], now.seat)
    if step in _STREETS:
        return Waiting(Actor.SHOE, what, _BOARD_SECTION[step])
    return Waiting(Actor.DEALER, what, "§ 647a.11(h)")


def _words(now: Awaiting) -> str:
    step = now.step
    if step == "wagers":
        return 'the round waits for wagers and "no more bets"'
    if step == "deal":
        if now.seat is not None:
            return f"the round waits for seat {now.seat}'s two cards (§ 647a.8(d))"
        return "the round waits for the dealer's two cards (§ 647a.8(d))"
    if step.endswith("_decision"):
        street = step.removesuffix("_decision")
        return (
            f"the round waits for seat {now.seat}'s {_STREET_WORDS[street]} decision "
            f"({_DECISION_SECTION[street]})"
        )
    if step in _STREETS:
        label = "the Flop" if step == FLOP else f"the {step} card"
        return f"the round waits for {label} ({_BOARD_SECTION[step]})"
    return "every card is out and every decision made; the round waits to be settled (§ 647a.11(h))"


# --- irregularities, § 647a.13 --------------------------------------------------------------


def _irregularity(state: HoldemBonusState, event: Event) -> HoldemBonusState:
    kind = event.kind or ""
    if kind not in IRREGULARITIES:
        raise IllegalEvent(f"no irregularity {kind!r} in ch. 647a (kinds: {', '.join(IRREGULARITIES)})")
    section = IRREGULARITIES[kind]
    now = awaiting(state)
    dealing = state.locked and now.step != "done"
    if kind == "shuffler_jam":
        # § 647a.13(e): "the cards shall be reshuffled"; the wagers stand.
        if state.rules.shuffler != "automated":
            raise IllegalEvent(
                f"this table shuffles by hand (shuffler = 'manual'); {kind} needs a shuffler ({section})"
            )
        if state.any_cards:
            raise IllegalEvent(
                f"the shuffle is over once cards are dealt; a {kind} comes before the deal ({section})"
            )
        return _note(state, f"the automated shuffler jammed: the cards are reshuffled ({section})")
    if not state.locked:
        raise IllegalEvent(f'no card is dealt before "no more bets"; a {kind} cannot happen yet ({section})')
    if kind in ("card_face_up", "cards_face_up"):
        return _card_face_up(state, event, dealing, at_least=1 if kind == "card_face_up" else 2)
    if kind == "card_drawn_in_error":
        # § 647a.13(b): "used as though it were the next card": the cards events already say where it went.
        if not dealing:
            raise IllegalEvent(f"every card is dealt; no card can be drawn in error now ({section})")
        return _note(state, f"a card drawn in error, face not exposed, is used as the next card ({section})")
    if kind == "wrong_card_count":
        who = f"seat {event.seat}" if event.seat is not None else (event.detail or "a hand")
        return _void(
            state, f"{who} was dealt an incorrect number of cards; the cards are reshuffled", section
        )
    if kind == "dealer_card_exposed":
        if not state.dealer:
            raise IllegalEvent(f"the dealer has no cards yet; record his two cards first ({section})")
        if decisions_complete(state):
            return _note(
                state,
                f"a dealer's card was exposed after every decision was made; the round goes on ({section})",
            )
        return _void(
            state,
            "a dealer's card was exposed before every player had decided; Ante, Flop, Turn and River Wagers "
            "are returned, the Bonus Wagers settled, the cards reshuffled",
            section,
            bonus_settled=True,
        )
    if kind == "shoe_jam":
        if state.rules.dealing != "automated shoe":
            raise IllegalEvent(
                f"this table deals from the {state.rules.dealing}, not an automated dealing shoe ({section})"
            )
        if not dealing:
            raise IllegalEvent(f"every card is dealt; the shoe cannot fail to deal now ({section})")
        return _void(
            state,
            "the automated dealing shoe failed to deal; the cards are removed and reshuffled with those "
            "dealt",
            section,
        )
    # The stub counts: after all the community cards are dealt (§ 647a.8(e)-(h)).
    if not (decisions_complete(state) and (now.step == "done" or not any(p.in_play for p in state.players))):
        raise IllegalEvent(f"the stub is counted after all community cards are dealt ({section}); not yet")
    if kind == "stub_count_misdealt":
        return _void(state, "the stub count was wrong and the cards misdealt, 52 cards remaining", section)
    return _void(
        state,
        "the stub count was wrong and the cards not misdealt: the entire deck is removed from the table",
        section,
    )


def _card_face_up(state: HoldemBonusState, event: Event, dealing: bool, at_least: int) -> HoldemBonusState:
    """One card (``card_face_up``) or several at once (``cards_face_up``), named in ``detail`` or not."""
    section = IRREGULARITIES["card_face_up"]
    if not dealing:
        raise IllegalEvent(
            f"every card is dealt; a card found face up now is not a dealing irregularity ({section})"
        )
    found: tuple[Card, ...] = ()
    if event.detail:
        try:
            found = parse_cards(event.detail, decks=1, allow_joker=False)
        except CardError as exc:
            raise IllegalEvent(f"{event.kind}: the detail names the card(s) found face up: {exc}") from None
        _check_new_cards(state, found, "found face up")
    total = state.face_up_found + max(len(found), at_least)
    if total > 1:
        # "If more than one card is found face up ... all hands shall be void ... Notwithstanding the
        # foregoing, if the cards are found face up after each player and the dealer have received their
        # initial two cards, any Texas Hold 'Em Bonus Wager shall be settled."
        settled = _initial_deal_complete(state)
        return _void(
            state,
            "more than one card was found face up while dealing; the cards are reshuffled"
            + ("; the Bonus Wagers are settled" if settled else ""),
            section,
            bonus_settled=settled,
        )
    # One card: "may not be used in that round of play and shall be placed in the discard rack".
    note = (
        f"{format_cards(found) or 'a card'} found face up: not used, placed in the discard rack ({section})"
    )
    return replace(_note(state, note), discarded=state.discarded + found, face_up_found=total)


def _note(state: HoldemBonusState, note: str) -> HoldemBonusState:
    return replace(state, notes=(*state.notes, note))


def _void(
    state: HoldemBonusState, reason: str, section: str, bonus_settled: bool = False
) -> HoldemBonusState:
    return replace(state, void=Void(reason, section, bonus_settled))


# --- settlement ----------------------------------------------------------------------------


def _settleable(state: HoldemBonusState, now: Awaiting) -> bool:
    if now.step == "done":
        return True
    nobody_in = not any(p.in_play for p in state.players)
    # Every player folded: no showdown; the Bonus Wagers need only the first cards.
    return now.step in _STREETS and nobody_in


def _check_complete(state: HoldemBonusState) -> None:
    now = awaiting(state)
    if not _settleable(state, now):
        raise IllegalEvent(f"the round cannot be settled yet: {_waiting_words(state, now)}")


def _bonus_outcome(state: HoldemBonusState, s: SeatState, section: str, note: str = "") -> Outcome:
    paytable = state.rules.bonus_paytable
    row = bonus_hand(s.cards, state.dealer, paytable)
    odds = BONUS_PAYTABLES[paytable][row] if row is not None else None
    if row is None or odds is None:
        return Outcome(
            s.seat,
            BONUS,
            s.bonus,
            Result.LOSE,
            -s.bonus,
            hand=f"no paying hand ({format_cards(s.cards)})",
            section=section,
            note=note,
        )
    return Outcome(
        s.seat, BONUS, s.bonus, Result.WIN, odds.net(s.bonus), hand=row, section=section, note=note
    )


def _folded_ante(s: SeatState) -> Outcome:
    return Outcome(
        s.seat,
        ANTE,
        s.ante,
        Result.LOSE,
        -s.ante,
        section="§ 647a.11(b)(2)",
        note="folded: the Ante Wager is collected",
    )


def _settle_round(state: HoldemBonusState) -> Settlement:
    rules = state.rules
    outcomes: list[Outcome] = [_folded_ante(_must_seat(state, n)) for n in state.folds]
    players = state.players
    showdown = [p for p in reversed(players) if p.in_play]  # from the dealer's right, § 647a.11(h)
    dealer_words, dcode = "", 0
    if len(state.board) == 5:
        dcode = code7(state.dealer + state.board)
        dealer_words = describe(dcode)
    threshold = STRAIGHT if rules.ante_paid_on == "straight or higher" else FLUSH
    for p in showdown:
        limit = PayoutLimit(rules.payout_limit, "§ 647a.12(c)", "the aggregate payout limit")
        pcode = code7(p.cards + state.board)
        words = describe(pcode)
        for wager in (ANTE, FLOP, TURN, RIVER):
            stake = p.stake(wager)
            if not stake:
                continue
            if pcode < dcode:
                o = Outcome(p.seat, wager, stake, Result.LOSE, -stake, words, "§ 647a.11(h)(2)(i)")
            elif pcode == dcode:
                o = Outcome(p.seat, wager, stake, Result.PUSH, 0, words, "§ 647a.11(h)(2)(iii)", "a tie")
            elif wager == ANTE and category_of(pcode) < threshold:
                o = Outcome(
                    p.seat,
                    wager,
                    stake,
                    Result.PUSH,
                    0,
                    words,
                    "§ 647a.11(h)(2)(ii)",
                    f"the winning hand is not a {rules.ante_paid_on}: the Ante Wager is returned",
                )
            else:
                o = Outcome(p.seat, wager, stake, Result.WIN, stake, words, "§ 647a.12(a)")
            outcomes.append(limit.pay(o))
        if p.bonus:
            outcomes.append(limit.pay(_bonus_outcome(state, p, "§ 647a.11(h)(3), § 647a.12(b)")))
    # § 647a.11(b)(2)(i): a folded player's Bonus, "pending its resolution at the conclusion of the round".
    for p in reversed(players):
        if p.flop == FOLD and p.bonus:
            limit = PayoutLimit(rules.payout_limit, "§ 647a.12(c)", "the aggregate payout limit")
            outcomes.append(
                limit.pay(
                    _bonus_outcome(state, p, "§ 647a.11(b)(2)(i), § 647a.12(b)", "folded; Bonus settled")
                )
            )
    return Settlement(GAME.name, tuple(outcomes), dict(state.meters), dealer=dealer_words)


def _must_seat(state: HoldemBonusState, number: int) -> SeatState:
    s = state.seat(number)
    assert s is not None
    return s


def _settle_void(state: HoldemBonusState, void: Void) -> Settlement:
    """All wagers still on the layout returned; Bonus Wagers settled where § 647a.13(a), (d) say so.

    An Ante collected on a fold before the irregularity was settled then (§ 647a.11(b)(2)); it is
    no longer a wager to return.
    """
    outcomes: list[Outcome] = [_folded_ante(_must_seat(state, n)) for n in state.folds]
    for s in reversed(state.seats):
        limit = PayoutLimit(state.rules.payout_limit, "§ 647a.12(c)", "the aggregate payout limit")
        for wager in (ANTE, FLOP, TURN, RIVER):
            stake = s.stake(wager)
            if stake and not (wager == ANTE and s.flop == FOLD):
                outcomes.append(
                    Outcome(s.seat, wager, stake, Result.VOID, 0, section=void.section, note=void.reason)
                )
        if s.bonus:
            if void.bonus_settled:
                outcomes.append(limit.pay(_bonus_outcome(state, s, f"{void.section}, § 647a.12(b)")))
            else:
                outcomes.append(
                    Outcome(s.seat, BONUS, s.bonus, Result.VOID, 0, section=void.section, note=void.reason)
                )
    return Settlement(GAME.name, tuple(outcomes), dict(state.meters), void=void.reason)


__all__ = [
    "ACE_ACE",
    "ACE_ACE_DEALER_AND_PLAYER",
    "ACE_KING_OFFSUIT",
    "ACE_KING_SUITED",
    "ACE_QUEEN_JACK_OFFSUIT",
    "ACE_QUEEN_JACK_SUITED",
    "AGGREGATE_MINIMUM",
    "BONUS_HANDS",
    "BONUS_PAYTABLES",
    "GAME",
    "IRREGULARITIES",
    "KINGS_QUEENS_JACKS",
    "PAIR_TEN_TO_TWO",
    "Awaiting",
    "HoldemBonusGame",
    "HoldemBonusRules",
    "HoldemBonusState",
    "SeatState",
    "Void",
    "awaiting",
    "bonus_hand",
    "decisions_complete",
    "most_one_patron_wins",
]
