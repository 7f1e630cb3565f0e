"""Caribbean Stud Poker: 58 Pa. Code ch. 639a, as a pure round engine.

A player places an Ante Wager, and may add the optional Caribbean Stud Bonus
Wager and Progressive Payout Wager where the Rules Submission offers them
(§ 639a.7(d)). The dealer announces "no more bets" and deals five cards to each
player with an ante and five to himself (§ 639a.8-639a.10). Then, from the
dealer's left (seat 1 upward), each player makes a Bet Wager of exactly two
times the ante or folds, forfeiting all his wagers (§ 639a.11(b)). The dealer
collects the forfeited wagers, reveals his hand and settles each remaining
player from his right (the highest seat) counterclockwise: Ante and Bet
against the dealer, who must hold ace-king or better to qualify
(§ 639a.11(c)(3)); the Bonus by its paytable whatever the dealer holds
(§ 639a.11(c)(4)); then the Progressive (§ 639a.11(c)(5)), from the meter as it
stands when that player is paid (§ 639a.12(d)(4)).

Events (:mod:`.events`) and what they mean here:

- ``wager`` ``ante`` / ``bonus`` / ``progressive``, before ``no_more_bets``; the
  Bonus and the Progressive only at a seat that has an ante (§ 639a.7(c),(d)).
- ``no_more_bets``: the dealer's announcement and the progressive lock-out
  (§ 639a.8(b), § 639a.9(a)(3), § 639a.10(a)(2)).
- ``cards`` to a seat with an ante, or to ``"dealer"``, five in all per hand;
  they may come in several events (the up card, then the hole cards).
- ``decision`` ``bet`` (optional ``amount``, exactly 2x the ante) or ``fold``, in
  turn from seat 1 upward once every hand has its five cards (§ 639a.11(b)).
- ``meter`` ``progressive``: the central meter as it stands now.
- ``irregularity``: see :data:`IRREGULARITIES` (§ 639a.13).

Where the text was open, the choices are listed in docs/games/caribbean-stud.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from .cards import ACE, KING, TEN, Card, format_cards
from .engine import Game, IllegalEvent
from .events import Event, seat_of
from .high import (
    CATEGORY_NAMES,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    category_of,
    code5,
    describe,
    ranks_of,
)
from .money import Award, Cents, MeterShare, Odds, format_money, parse_award, pay_from_meter
from .options import boolean, choice, integer, money, option, rate_of_progression
from .settlement import (
    FLOORPERSON_VALIDATE,
    NOT_FROM_INVENTORY,
    PROGRESSIVE_LIGHT,
    Outcome,
    Result,
    Settlement,
    void_all,
)

NAME: Final = "caribbean-stud"
HAND_SIZE: Final = 5
"""Hand—"The five-card hand that is held by each player and the dealer" (§ 639a.1)."""

ANTE: Final = "ante"
BET: Final = "bet"
BONUS: Final = "bonus"
PROGRESSIVE: Final = "progressive"
FOLD: Final = "fold"
WAGERS: Final = (ANTE, BONUS, PROGRESSIVE)
"""The wagers placed before "no more bets"; the Bet Wager is the decision ``bet`` (§ 639a.7(c))."""
SETTLEMENT_ORDER: Final = (ANTE, BET, BONUS, PROGRESSIVE)
"""Within a seat: Ante and Bet (§ 639a.11(c)(3)), Bonus ((c)(4)), then Progressive ((c)(5))."""

DEALING: Final = ("manual shoe", "hand", "automated shoe")
"""§ 639a.8 (a manual dealing shoe), § 639a.9 (the dealer's hand), § 639a.10 (an automated dealing shoe)."""

MINIMUM_METER: Final[Cents] = 1_000_000
METER_RULE: Final = "the $10,000 minimum of § 639a.12(d)(3)"


# --- paytables, as § 639a.12 prints them ------------------------------------------------------


def _table(rows: Mapping[int, str]) -> Mapping[int, Award]:
    return MappingProxyType({category: parse_award(text) for category, text in rows.items()})


# § 639a.12(b): the Bet Wager ("A pair or less 1 to 1").
BET_PAYTABLE: Final[Mapping[int, Award]] = _table(
    {
        ROYAL_FLUSH: "100 to 1",
        STRAIGHT_FLUSH: "50 to 1",
        FOUR_OF_A_KIND: "20 to 1",
        FULL_HOUSE: "7 to 1",
        FLUSH: "5 to 1",
        STRAIGHT: "4 to 1",
        THREE_OF_A_KIND: "3 to 1",
        TWO_PAIR: "2 to 1",
        PAIR: "1 to 1",
        HIGH_CARD: "1 to 1",
    }
)
ANTE_ODDS: Final = Odds(1, 1, "to")  # § 639a.12(a)

# § 639a.12(c): the Caribbean Stud Bonus Wager. The PAIR row is "A pair of 10s or better".
BONUS_PAYTABLES: Final[Mapping[str, Mapping[int, Award]]] = MappingProxyType(
    {
        letter: _table(
            {
                ROYAL_FLUSH: "1,000 to 1",
                STRAIGHT_FLUSH: "200 to 1",
                FOUR_OF_A_KIND: "100 to 1",
                FULL_HOUSE: "50 to 1",
                FLUSH: "40 to 1",
                STRAIGHT: straight,
                THREE_OF_A_KIND: trips,
                TWO_PAIR: "3 to 1",
                PAIR: "1 to 1",
            }
        )
        for letter, straight, trips in (
            ("A", "25 to 1", "7 to 1"),
            ("B", "25 to 1", "6 to 1"),
            ("C", "20 to 1", "6 to 1"),
        )
    }
)
BONUS_LOWEST_PAIR: Final = TEN
"""§ 639a.7(d)(3): "a five-card poker hand with a rank of a pair of 10s or better"."""

# § 639a.12(d)(1): the Progressive Payout Wager. Paytable C has no Two pair row ("N/A").
PROGRESSIVE_PAYTABLES: Final[Mapping[str, Mapping[int, Award]]] = MappingProxyType(
    {
        "A": _table(
            {
                ROYAL_FLUSH: "100% of meter",
                STRAIGHT_FLUSH: "5,000 for 1",
                FOUR_OF_A_KIND: "500 for 1",
                FULL_HOUSE: "100 for 1",
                FLUSH: "50 for 1",
                STRAIGHT: "10 for 1",
                THREE_OF_A_KIND: "3 for 1",
                TWO_PAIR: "2 for 1",
            }
        ),
        "B": _table(
            {
                ROYAL_FLUSH: "100% of meter",
                STRAIGHT_FLUSH: "10% of meter",
                FOUR_OF_A_KIND: "500 for 1",
                FULL_HOUSE: "100 for 1",
                FLUSH: "50 for 1",
                STRAIGHT: "10 for 1",
                THREE_OF_A_KIND: "3 for 1",
                TWO_PAIR: "2 for 1",
            }
        ),
        "C": _table(
            {
                ROYAL_FLUSH: "100% of meter",
                STRAIGHT_FLUSH: "10% of meter",
                FOUR_OF_A_KIND: "200 for 1",
                FULL_HOUSE: "50 for 1",
                FLUSH: "40 for 1",
                STRAIGHT: "30 for 1",
                THREE_OF_A_KIND: "9 for 1",
            }
        ),
    }
)


# --- the Rules Submission ---------------------------------------------------------------------


@dataclass(frozen=True)
class CaribbeanStudRules:
    """The options ch. 639a leaves to the Rules Submission (§ 601a.2).

    The chapter sets no payout limit (§ 639a.12 is "Payout odds; rate of
    progression" only), so there is no limit option.
    """

    seats: int = option(
        "seats",
        integer(1, 7),
        7,
        section="§ 639a.2(a)",
        help="betting positions: no more than seven players",
    )
    decks: int = option(
        "decks",
        integer(1, 2),
        1,
        section="§ 639a.3",
        help="one deck, or two alternated rounds by round with an automated card shuffling device",
    )
    shuffler: str = option(
        "shuffler",
        choice("automated", "manual"),
        "automated",
        section="§ 639a.5(a)",
        help="how the cards are shuffled: by an automated card shuffling device or by hand",
    )
    dealing: str = option(
        "dealing",
        choice(*DEALING),
        "manual shoe",
        section="§ 639a.8, § 639a.9, § 639a.10",
        help="dealt from a manual dealing shoe, from the hand or from an automated dealing shoe",
    )
    bonus_offered: bool = option(
        "bonus.offered",
        boolean,
        False,
        section="§ 639a.7(d)(3)",
        help="whether the Caribbean Stud Bonus Wager is offered",
    )
    bonus_paytable: str = option(
        "bonus.paytable",
        choice("A", "B", "C"),
        "A",
        section="§ 639a.12(c)",
        help="the Bonus paytable selected",
    )
    progressive_offered: bool = option(
        "progressive.offered",
        boolean,
        False,
        section="§ 639a.7(d)(2)",
        help="whether the Progressive Payout Wager is offered",
    )
    progressive_paytable: str = option(
        "progressive.paytable",
        choice("A", "B", "C"),
        "A",
        section="§ 639a.12(d)(1)",
        help="the Progressive paytable selected",
    )
    progressive_wager: Cents = option(
        "progressive.wager",
        money(1, "one cent"),
        "1.00",
        section="§ 639a.7(d)(2), § 639a.8(b)",
        help="the value chip one Progressive Payout Wager is: what the table records for each chip "
        "its wagering device accepts",
    )
    progressive_initial: Cents = option(
        "progressive.initial",
        money(MINIMUM_METER, METER_RULE),
        "10000.00",
        section="§ 639a.12(d)(3)",
        help="the meter's initial amount, at least $10,000",
    )
    progressive_reset: Cents = option(
        "progressive.reset",
        money(MINIMUM_METER, METER_RULE),
        "10000.00",
        section="§ 639a.12(d)(3)",
        help="the meter's reset amount, at least $10,000",
    )
    progressive_rate: str | None = option(
        "progressive.rate_of_progression",
        rate_of_progression,
        None,
        section="§ 639a.12(d)(3)",
        help="percent of each Progressive Payout Wager added to the meter; required when offered",
    )


def _check_rate(rules: CaribbeanStudRules) -> Iterator[str]:
    # § 639a.12(d)(3): "The rate of progression ... must be in the certificate holder's Rules Submission".
    if rules.progressive_offered and rules.progressive_rate is None:
        yield (
            "progressive.rate_of_progression: missing; the Rules Submission must give the rate of "
            "progression when the Progressive Payout Wager is offered (§ 639a.12(d)(3))"
        )


def _check_shuffler(rules: CaribbeanStudRules) -> Iterator[str]:
    if rules.decks == 2 and rules.shuffler != "automated":
        # § 639a.3(b): "If an automated card shuffling device is utilized, ... may be played with two decks".
        yield (
            "decks 2 needs shuffler = 'automated': two decks only with an automated card shuffling "
            "device (§ 639a.3(b))"
        )
    if rules.dealing == "hand" and rules.shuffler != "automated":
        # § 639a.9(a)(1): "An automated shuffling device shall be used to shuffle the cards."
        yield (
            "dealing 'hand' needs shuffler = 'automated': an automated shuffling device shall be used "
            "(§ 639a.9(a)(1))"
        )


RULES_CHECKS: Final[tuple[Callable[[CaribbeanStudRules], Iterable[str]], ...]] = (
    _check_rate,
    _check_shuffler,
)


# --- irregularities ---------------------------------------------------------------------------

IRREGULARITIES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "card_face_up": "§ 639a.13(a)",
        "cards_face_up": "§ 639a.13(a)",
        "card_drawn_in_error": "§ 639a.13(b)",
        "wrong_card_count": "§ 639a.13(c)",
        "hole_card_exposed": "§ 639a.13(d)",
        "shuffler_jam": "§ 639a.13(e)",
        "shoe_jam": "§ 639a.13(f)",
        "stub_count_misdealt": "§ 639a.8(h), § 639a.9(f), § 639a.10(f)",
        "stub_count_wrong": "§ 639a.8(h), § 639a.9(f), § 639a.10(f)",
    }
)
"""The ``irregularity`` kinds this game accepts, with the section each follows.

- ``card_face_up``: one card found face up in the shoe or deck while dealing: not used, no void; a
  second one in the same deal voids the round (§ 639a.13(a)).
- ``cards_face_up``: more than one card found face up at once while dealing: void (§ 639a.13(a)).
- ``card_drawn_in_error``: used as the next card, no void (§ 639a.13(b)).
- ``wrong_card_count``: a player or the dealer dealt an incorrect number of cards: void (§ 639a.13(c)).
- ``hole_card_exposed``: before every player has bet or folded: void (§ 639a.13(d)); after, recorded.
- ``shuffler_jam``: before the deal: the cards are reshuffled, the wagers stand (§ 639a.13(e)).
- ``shoe_jam``: the automated dealing shoe jams, stops or fails to deal: void (§ 639a.13(f)).
- ``stub_count_misdealt`` / ``stub_count_wrong``: the stub count after the deal is wrong, the cards
  misdealt (52 remain) / not misdealt (the deck is removed): void either way (§ 639a.8(h), 639a.9(f),
  639a.10(f)).
"""

_STUB_SECTION: Final = {
    "manual shoe": "§ 639a.8(h)",
    "hand": "§ 639a.9(f)",
    "automated shoe": "§ 639a.10(f)",
}


# --- the state of a round ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CaribbeanStudState:
    """One round so far. Immutable: :meth:`CaribbeanStud.apply` returns a new one."""

    rules: CaribbeanStudRules
    meters: Mapping[str, Cents]
    """The meters as given at the start (kept for the settlement)."""
    meter: Cents | None
    """The progressive meter as it stands now (``meters["progressive"]`` or the last ``meter`` event)."""
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


# --- the game ---------------------------------------------------------------------------------


def dealer_qualifies(code: int) -> bool:
    """§ 639a.11(c)(3): the dealer's hand is "an ace-king or better"."""
    if category_of(code) > HIGH_CARD:
        return True
    top = ranks_of(code)
    return top[0] == ACE and top[1] == KING


def bonus_award(rules: CaribbeanStudRules, code: int) -> Award | None:
    """The Bonus award for a hand (§ 639a.12(c)); a pair below 10s pays nothing (§ 639a.7(d)(3))."""
    category = category_of(code)
    if category == PAIR and ranks_of(code)[0] < BONUS_LOWEST_PAIR:
        return None
    return BONUS_PAYTABLES[rules.bonus_paytable].get(category)


def progressive_award(rules: CaribbeanStudRules, code: int) -> Award | None:
    """The Progressive award: only the highest ranking hand formed pays (§ 639a.12(d)(2))."""
    return PROGRESSIVE_PAYTABLES[rules.progressive_paytable].get(category_of(code))


class CaribbeanStud:
    """The :class:`~.engine.Game` for Caribbean Stud Poker."""

    name: Final = NAME
    title: Final = "Caribbean Stud Poker"
    chapter: Final = "58 Pa. Code ch. 639a"
    rules_class: Final = CaribbeanStudRules
    rules_checks: Final = RULES_CHECKS
    joker: Final = False

    def decks(self, rules: CaribbeanStudRules) -> int:
        """One: with two decks they alternate, each used for every other round (§ 639a.3(b)(2)-(3))."""
        return 1

    def start(self, rules: CaribbeanStudRules, meters: Mapping[str, Cents]) -> CaribbeanStudState:
        meter = meters.get(PROGRESSIVE)
        if rules.progressive_offered and meter is not None:
            _check_meter(rules, meter)
        return CaribbeanStudState(rules=rules, meters=MappingProxyType(dict(meters)), meter=meter)

    # -- events --

    def apply(self, state: CaribbeanStudState, event: Event) -> CaribbeanStudState:
        if state.void:
            raise IllegalEvent(f"the round is void ({state.void}); it accepts nothing more")
        handler = {
            "wager": self._wager,
            "no_more_bets": self._no_more_bets,
            "cards": self._cards,
            "decision": self._decision,
            "meter": self._meter,
            "irregularity": self._irregularity,
        }.get(event.type)
        if handler is None:
            raise IllegalEvent(f"Caribbean Stud Poker has no {event.type} events")
        return handler(state, event)

    def _wager(self, state: CaribbeanStudState, event: Event) -> CaribbeanStudState:
        rules, seat, name, amount = state.rules, event.seat, event.wager, event.amount
        if seat is None or name is None or amount is None:
            raise IllegalEvent("a wager needs a seat, a wager name and an amount")
        if state.no_more_bets:
            # § 639a.7(c): "a wager may not be made, increased, or withdrawn after ... 'no more bets.'"
            raise IllegalEvent(
                f"seat {seat} {name}: no wager may be made after the dealer has announced "
                f"'no more bets' (§ 639a.7(c))"
            )
        _check_seat(rules, seat)
        if name == BET:
            raise IllegalEvent(
                "the Bet Wager is made after the cards are dealt, as the decision 'bet' (§ 639a.11(b))"
            )
        if name not in WAGERS:
            raise IllegalEvent(
                f"Caribbean Stud Poker has no {name!r} wager (wagers: ante, bonus, progressive)"
            )
        if name == BONUS and not rules.bonus_offered:
            raise IllegalEvent(
                "this table does not offer the Caribbean Stud Bonus Wager (bonus.offered, § 639a.7(d)(3))"
            )
        if name == PROGRESSIVE and not rules.progressive_offered:
            raise IllegalEvent(
                "this table does not offer the Progressive Payout Wager (progressive.offered, § 639a.7(d)(2))"
            )
        if amount <= 0:
            raise IllegalEvent(f"seat {seat} {name}: a wager must be more than 0.00")
        if name == PROGRESSIVE and amount != rules.progressive_wager:
            # § 639a.7(d)(2): the Progressive Payout Wager is the table's one value chip on the
            # wagering device, the Rules Submission's progressive.wager; nothing else is one.
            raise IllegalEvent(
                f"seat {seat} progressive: the Progressive Payout Wager is "
                f"{format_money(rules.progressive_wager)} (progressive.wager), not {format_money(amount)} "
                "(§ 639a.7(d)(2))"
            )
        placed = state.wagers.get(seat, {})
        if name in placed:
            raise IllegalEvent(
                f"seat {seat} has already placed its {_wager_title(name)} ({format_money(placed[name])})"
            )
        if name != ANTE and ANTE not in placed:
            sub = "(d)(3)" if name == BONUS else "(d)(2)"
            raise IllegalEvent(
                f"seat {seat} {name}: the {_wager_title(name)} is made after placing an Ante Wager "
                f"(§ 639a.7{sub})"
            )
        wagers = dict(state.wagers)
        wagers[seat] = MappingProxyType({**placed, name: amount})
        return dataclasses.replace(state, wagers=MappingProxyType(wagers))

    def _no_more_bets(self, state: CaribbeanStudState, event: Event) -> CaribbeanStudState:
        if state.no_more_bets:
            raise IllegalEvent("the dealer has already announced 'no more bets'")
        return dataclasses.replace(state, no_more_bets=True)

    def _cards(self, state: CaribbeanStudState, event: Event) -> CaribbeanStudState:
        if not state.no_more_bets:
            # § 639a.8(b), § 639a.9(a)(3), § 639a.10(a)(2): "no more bets" comes before the deal.
            raise IllegalEvent("no card is dealt before the dealer announces 'no more bets' (§ 639a.8(b))")
        if event.hand:
            raise IllegalEvent("Caribbean Stud Poker has one hand per player; there is no hand index")
        if event.to == "board":
            raise IllegalEvent("Caribbean Stud Poker has no community cards")
        seat = seat_of(event.to)
        if seat is not None:
            _check_seat(state.rules, seat)
            if seat not in state.ante_seats:
                # § 639a.8(d)(1): cards go "to each player who placed an Ante Wager".
                raise IllegalEvent(
                    f"seat {seat} has no Ante Wager and is dealt no cards (§ 639a.8(d)(1)); a misdeal is "
                    f"reported as the irregularity wrong_card_count"
                )
            held = state.hands.get(seat, ())
            who = f"seat {seat}"
        else:
            held = state.dealer
            who = "the dealer"
        if not event.cards:
            raise IllegalEvent(f"a cards event to {who} gives no cards")
        if len(held) + len(event.cards) > HAND_SIZE:
            raise IllegalEvent(
                f"{who} would hold {len(held) + len(event.cards)} cards; a hand is five cards (§ 639a.1). "
                f"A misdeal is reported as the irregularity wrong_card_count (§ 639a.13(c))"
            )
        if any(c.is_joker for c in event.cards):
            raise IllegalEvent("Caribbean Stud Poker is played without a joker (§ 639a.3(a))")
        seen = set(state.all_cards())
        for i, c in enumerate(event.cards):
            if c in seen or c in event.cards[:i]:
                # § 639a.3: one deck in play in a round (two decks alternate round by round).
                raise IllegalEvent(
                    f"{c} has already been dealt this round; the round uses one deck (§ 639a.3)"
                )
        if seat is None:
            return dataclasses.replace(state, dealer=held + event.cards)
        hands = dict(state.hands)
        hands[seat] = held + event.cards
        return dataclasses.replace(state, hands=MappingProxyType(hands))

    def _decision(self, state: CaribbeanStudState, event: Event) -> CaribbeanStudState:
        seat, action = event.seat, event.action
        if seat is None or action is None:
            raise IllegalEvent("a decision needs a seat and an action")
        if action not in (BET, FOLD):
            raise IllegalEvent(f"seat {seat}: the decision is 'bet' or 'fold' (§ 639a.11(b)), not {action!r}")
        if event.hand:
            raise IllegalEvent("Caribbean Stud Poker has one hand per player; there is no hand index")
        if seat not in state.ante_seats:
            raise IllegalEvent(f"seat {seat} has no Ante Wager and makes no decision (§ 639a.11(b))")
        if not state.no_more_bets or not state.dealt:
            raise IllegalEvent(
                f"seat {seat} decides after every player has examined his cards (§ 639a.11(b)); "
                f"the deal is not complete ({_missing_cards(state)})"
            )
        if seat in state.decisions:
            raise IllegalEvent(f"seat {seat} has already decided ({state.decisions[seat]})")
        turn = state.next_to_decide
        if seat != turn:
            raise IllegalEvent(
                f"seat {seat} decides out of turn: seat {turn} is asked first, beginning with the player "
                f"farthest to the dealer's left and moving clockwise (§ 639a.11(b))"
            )
        ante = state.wagers[seat][ANTE]
        if action == FOLD and event.amount is not None:
            raise IllegalEvent(f"seat {seat}: a fold makes no wager; give no amount")
        if action == BET and event.amount is not None and event.amount != 2 * ante:
            raise IllegalEvent(
                f"seat {seat}: the Bet Wager is two times the Ante Wager, {format_money(2 * ante)} on an "
                f"ante of {format_money(ante)}, not {format_money(event.amount)} (§ 639a.11(b))"
            )
        decisions = dict(state.decisions)
        decisions[seat] = action
        return dataclasses.replace(state, decisions=MappingProxyType(decisions))

    def _meter(self, state: CaribbeanStudState, event: Event) -> CaribbeanStudState:
        if event.name != PROGRESSIVE:
            raise IllegalEvent(f"Caribbean Stud Poker has one meter, 'progressive', not {event.name!r}")
        if not state.rules.progressive_offered:
            raise IllegalEvent(
                "this table does not offer the Progressive Payout Wager (progressive.offered, § 639a.7(d)(2))"
            )
        assert event.amount is not None
        _check_meter(state.rules, event.amount)
        return dataclasses.replace(state, meter=event.amount)

    def _irregularity(self, state: CaribbeanStudState, event: Event) -> CaribbeanStudState:
        kind = event.kind or ""
        if kind not in IRREGULARITIES:
            raise IllegalEvent(f"no irregularity {kind!r} in ch. 639a (kinds: {', '.join(IRREGULARITIES)})")
        section = IRREGULARITIES[kind]
        if event.seat is not None:
            _check_seat(state.rules, event.seat)
        recorded = dataclasses.replace(state, irregularities=(*state.irregularities, event))
        detail = f" ({event.detail})" if event.detail else ""
        any_cards = bool(state.dealer) or any(state.hands.values())
        if kind == "shuffler_jam":
            # § 639a.13(e): "the cards shall be reshuffled"; the wagers stand.
            if state.rules.shuffler != "automated":
                raise IllegalEvent(
                    f"this table shuffles by hand (shuffler = 'manual'); {kind} needs a shuffler ({section})"
                )
            if any_cards:
                raise IllegalEvent(
                    f"the shuffle is over once cards are dealt; a {kind} comes before the deal ({section})"
                )
            return recorded
        if not state.no_more_bets:
            raise IllegalEvent(
                f"no card is dealt before 'no more bets' (§ 639a.8(b)); a {kind} cannot happen yet "
                f"({section})"
            )
        dealing = not state.dealt
        if kind in ("card_face_up", "cards_face_up", "card_drawn_in_error", "shoe_jam") and not dealing:
            raise IllegalEvent(f"every card is dealt; a {kind} happens while the cards are dealt ({section})")
        if kind == "cards_face_up" or (kind == "card_face_up" and state.faced_up >= 1):
            # § 639a.13(a): "If more than one card is found face up in the shoe or the deck during the
            # dealing of the cards, all hands shall be void, all wagers shall be returned".
            return _void(
                dataclasses.replace(recorded, faced_up=state.faced_up + 1),
                f"more than one card found face up in the shoe or deck while dealing{detail}",
                section,
            )
        if kind == "card_face_up":
            # § 639a.13(a): the card "may not be used in that round of play and shall be placed in the
            # discard rack"; the cards events carry only the cards used.
            return dataclasses.replace(recorded, faced_up=1)
        if kind == "card_drawn_in_error":
            # § 639a.13(b): "shall be used as though it were the next card"; the cards events say where.
            return recorded
        if kind == "wrong_card_count":
            who = f"seat {event.seat}" if event.seat is not None else "a player or the dealer"
            return _void(recorded, f"{who} was dealt an incorrect number of cards{detail}", section)
        if kind == "hole_card_exposed":
            if state.dealt and state.next_to_decide is None:
                # Every player has bet or folded: the dealer reveals his hole cards now anyway
                # (§ 639a.11(c)); § 639a.13(d) does not apply.
                return recorded
            return _void(
                recorded,
                f"a dealer hole card exposed before each player had folded or placed a Bet Wager{detail}",
                section,
            )
        if kind == "shoe_jam":
            if state.rules.dealing != "automated shoe":
                raise IllegalEvent(
                    f"this table deals from the {state.rules.dealing}, not an automated dealing shoe "
                    f"({section})"
                )
            return _void(
                recorded, f"the automated dealing shoe jammed, stopped or failed to deal{detail}", section
            )
        # The stub counts: "After five cards have been dealt to each player and the dealer" (§ 639a.8(e)).
        if dealing:
            raise IllegalEvent(
                f"the stub is counted after five cards are dealt to each hand ({section}); not yet"
            )
        stub = _STUB_SECTION[state.rules.dealing]
        if kind == "stub_count_misdealt":
            return _void(
                recorded, f"the stub count was wrong and the cards misdealt, 52 cards remaining{detail}", stub
            )
        return _void(
            recorded,
            "the stub count was wrong and the cards not misdealt: the entire deck is removed from the "
            f"table{detail}",
            stub,
        )

    # -- settlement --

    def settle(self, state: CaribbeanStudState) -> Settlement:
        meters = dict(state.meters)
        if state.meter is not None:
            meters[PROGRESSIVE] = state.meter
        if state.void:
            return void_all(
                NAME,
                {s: _placed(state, s) for s in state.wagers},
                f"{state.void}: all hands void, all wagers returned",
                state.void_section,
                meters,
            )
        waiting = _waiting_for(state)
        if waiting:
            raise IllegalEvent(f"the round is not complete; it waits for {waiting}")
        if not state.ante_seats:
            return Settlement(NAME, (), meters)
        return _showdown(state, meters)


def _wager_title(name: str) -> str:
    return {
        ANTE: "Ante Wager",
        BET: "Bet Wager",
        BONUS: "Caribbean Stud Bonus Wager",
        PROGRESSIVE: "Progressive Payout Wager",
    }[name]


def _check_seat(rules: CaribbeanStudRules, seat: int) -> None:
    if not 1 <= seat <= rules.seats:
        raise IllegalEvent(f"seat {seat} is not at this table: seats 1 to {rules.seats} (seats, § 639a.2(a))")


def _check_meter(rules: CaribbeanStudRules, meter: Cents) -> None:
    if meter < rules.progressive_reset:
        raise IllegalEvent(
            f"progressive meter {format_money(meter)} is below the reset amount "
            f"{format_money(rules.progressive_reset)} (§ 639a.12(d)(3))"
        )


def _void(state: CaribbeanStudState, reason: str, section: str) -> CaribbeanStudState:
    return dataclasses.replace(state, void=reason, void_section=section)


def _placed(state: CaribbeanStudState, seat: int) -> dict[str, Cents]:
    """The seat's wagers in settlement order, the Bet Wager included once made."""
    placed = dict(state.wagers[seat])
    if state.decisions.get(seat) == BET:
        placed[BET] = 2 * placed[ANTE]
    return {name: placed[name] for name in SETTLEMENT_ORDER if name in placed}


def _missing_cards(state: CaribbeanStudState) -> str:
    short = [
        f"seat {s} has {len(state.hands.get(s, ()))} of 5 cards"
        for s in state.ante_seats
        if len(state.hands.get(s, ())) != HAND_SIZE
    ]
    if len(state.dealer) != HAND_SIZE:
        short.append(f"the dealer has {len(state.dealer)} of 5 cards")
    return "; ".join(short)


def _waiting_for(state: CaribbeanStudState) -> str:
    if not state.no_more_bets:
        return "the dealer's 'no more bets' (§ 639a.8(b))"
    if not state.ante_seats:
        return ""
    if not state.dealt:
        return f"the cards: {_missing_cards(state)}"
    turn = state.next_to_decide
    if turn is not None:
        return f"seat {turn}'s decision, bet or fold (§ 639a.11(b))"
    if state.meter is None and any(PROGRESSIVE in w for w in state.wagers.values()):
        return (
            "the progressive meter (a meter event, or meters.progressive in the record): a Progressive "
            "Payout Wager is paid from the meter as it stands (§ 639a.12(d)(4))"
        )
    return ""


def _showdown(state: CaribbeanStudState, meters: dict[str, Cents]) -> Settlement:
    rules = state.rules
    dealer_code = code5(state.dealer)
    qualifies = dealer_qualifies(dealer_code)
    dealer_words = f"{describe(dealer_code)} ({format_cards(state.dealer)}); " + (
        "qualifies with ace-king or better"
        if qualifies
        else "does not qualify: lower than an ace-king, Bet Wagers returned, Ante Wagers paid"
    )
    outcomes: list[Outcome] = []
    order = sorted(state.ante_seats, reverse=True)
    # § 639a.11(c): the forfeited wagers are collected before the dealer reveals his hole cards.
    for seat in order:
        if state.decisions[seat] == FOLD:
            for name, stake in _placed(state, seat).items():
                outcomes.append(
                    Outcome(
                        seat,
                        name,
                        stake,
                        Result.LOSE,
                        -stake,
                        section="§ 639a.11(b)",
                        note="folded: forfeits all wagers",
                    )
                )
    meter = state.meter
    # § 639a.11(c): then from the player farthest to the dealer's right, counterclockwise.
    for seat in order:
        if state.decisions[seat] == FOLD:
            continue
        placed = _placed(state, seat)
        code = code5(state.hands[seat])
        words = f"{describe(code)} ({format_cards(state.hands[seat])})"
        outcomes.extend(_ante_and_bet(seat, placed, code, dealer_code, qualifies, words))
        if BONUS in placed:
            outcomes.append(_bonus(rules, seat, placed[BONUS], code, words))
        if PROGRESSIVE in placed:
            assert meter is not None
            outcome, meter = _progressive(rules, seat, placed[PROGRESSIVE], code, words, meter)
            outcomes.append(outcome)
    if meter is not None:
        meters[PROGRESSIVE] = meter
    return Settlement(NAME, tuple(outcomes), meters, dealer=dealer_words)


def _ante_and_bet(
    seat: int, placed: Mapping[str, Cents], code: int, dealer_code: int, qualifies: bool, words: str
) -> list[Outcome]:
    ante, bet = placed[ANTE], placed[BET]
    if not qualifies:
        # § 639a.11(c)(3)(i): "return each player's Bet Wager and pay out the player's Ante Wager".
        section = "§ 639a.11(c)(3)(i), § 639a.12(a)"
        note = "dealer lower than ace-king"
        return [
            Outcome(seat, ANTE, ante, Result.WIN, ANTE_ODDS.net(ante), words, section, note + ": 1 to 1"),
            Outcome(seat, BET, bet, Result.PUSH, 0, words, "§ 639a.11(c)(3)(i)", note + ": returned"),
        ]
    if code < dealer_code:
        # § 639a.11(c)(3)(ii)(A): "collect the Ante and Bet Wagers".
        section, note = "§ 639a.11(c)(3)(ii)(A)", "lower than the dealer's hand"
        return [
            Outcome(seat, ANTE, ante, Result.LOSE, -ante, words, section, note),
            Outcome(seat, BET, bet, Result.LOSE, -bet, words, section, note),
        ]
    if code == dealer_code:
        # § 639a.11(c)(3)(ii)(C), § 639a.6(c): equal in rank -- a tie, both returned.
        section, note = "§ 639a.11(c)(3)(ii)(C)", "equal in rank to the dealer's hand"
        return [
            Outcome(seat, ANTE, ante, Result.PUSH, 0, words, section, note),
            Outcome(seat, BET, bet, Result.PUSH, 0, words, section, note),
        ]
    # § 639a.11(c)(3)(ii)(B): the Ante at 1 to 1 (§ 639a.12(a)), the Bet by its paytable (§ 639a.12(b)).
    odds = BET_PAYTABLE[category_of(code)]
    assert isinstance(odds, Odds)
    return [
        Outcome(
            seat,
            ANTE,
            ante,
            Result.WIN,
            ANTE_ODDS.net(ante),
            words,
            "§ 639a.11(c)(3)(ii)(B), § 639a.12(a)",
            "higher than the dealer's hand: 1 to 1",
        ),
        Outcome(
            seat,
            BET,
            bet,
            Result.WIN,
            odds.net(bet),
            words,
            "§ 639a.11(c)(3)(ii)(B), § 639a.12(b)",
            f"higher than the dealer's hand: {CATEGORY_NAMES[category_of(code)]} {odds}",
        ),
    ]


def _bonus(rules: CaribbeanStudRules, seat: int, stake: Cents, code: int, words: str) -> Outcome:
    # § 639a.11(c)(4): paid "irrespective of whether the player's five-card poker hand outranks the dealer's".
    award = bonus_award(rules, code)
    section = f"§ 639a.11(c)(4), § 639a.12(c) paytable {rules.bonus_paytable}"
    if award is None:
        return Outcome(seat, BONUS, stake, Result.LOSE, -stake, words, section, "less than a pair of 10s")
    assert isinstance(award, Odds)
    return Outcome(seat, BONUS, stake, Result.WIN, award.net(stake), words, section, str(award))


def _progressive(
    rules: CaribbeanStudRules, seat: int, stake: Cents, code: int, words: str, meter: Cents
) -> tuple[Outcome, Cents]:
    """The Progressive Payout Wager of one seat, and the meter after it (§ 639a.12(d)(4))."""
    award = progressive_award(rules, code)
    section = f"§ 639a.11(c)(5), § 639a.12(d) paytable {rules.progressive_paytable}"
    if award is None:
        return Outcome(
            seat, PROGRESSIVE, stake, Result.LOSE, -stake, words, section, "no Progressive Payout Hand"
        ), meter
    flags: tuple[str, ...] = (PROGRESSIVE_LIGHT, FLOORPERSON_VALIDATE)  # § 639a.11(c)(5)(ii),(iii)
    if isinstance(award, MeterShare):
        # § 639a.12(d)(4): "the amount on the meter when it is the player's turn to be paid"; the
        # meter then stands at what is left, never below its reset amount (§ 639a.12(d)(3)).
        payment = pay_from_meter(award, meter, rules.progressive_reset)
        paid, meter_after = payment.paid, payment.meter_after
        # § 639a.11(c)(5)(iv): a percentage of the meter "may not be paid from the table inventory container".
        flags = (*flags, NOT_FROM_INVENTORY)
        note = f"{award} as it stands: {format_money(paid)} of {format_money(meter)}"
    else:
        paid, meter_after = award.net(stake) + stake, meter
        note = str(award)
    # The column reads "for 1": what is paid is the whole award, the wager (in the table inventory
    # container since "no more bets", § 639a.8(b)) included.
    net = paid - stake
    result = Result.WIN if net > 0 else (Result.PUSH if net == 0 else Result.LOSE)
    return Outcome(seat, PROGRESSIVE, stake, result, net, words, section, note, flags), meter_after


GAME: Final[Game[CaribbeanStudRules, CaribbeanStudState]] = CaribbeanStud()
"""Caribbean Stud Poker, for :data:`~.games.GAMES`."""
