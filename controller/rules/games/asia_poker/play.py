"""Asia Poker, 58 Pa. Code ch. 659a: the events of a round (§ 659a.7-659a.11, § 659a.13).

:class:`AsiaPokerPlay` is the first of the game's three classes (:mod:`.play`, :mod:`.settle`,
:mod:`.game`, each built on the one before): the table's words, the questions about a round the
events need, and each event's step, registered once in :data:`EVENTS`. The steps are methods,
because Fortune Asia Poker plays the same round with its own wagers: it answers
:meth:`~AsiaPokerPlay.optional_wagers`, :meth:`~AsiaPokerPlay.minimum`,
:meth:`~AsiaPokerPlay.meter_names` and :meth:`~AsiaPokerPlay.check_wager` its own way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, Final

from ...core.cards import format_cards
from ...core.dispatch import Handlers
from ...core.engine import GameBase, IllegalEvent
from ...core.equipment import refuse_shoe_jam, refuse_shuffler_jam
from ...core.events import Event
from ...core.hooks import (
    Actor,
    Step,
    Waiting,
    in_words,
)
from ...core.irregularities import irregularity_section
from ...core.meter_turns import take_turn
from ...core.money import Cents, format_money
from ...rankings.asia_poker import (
    Setting,
)
from .house_way import describe_setting, set_hands
from .rules import (
    ACTIONS,
    ASIA_POKER,
    BONUS,
    CARDS_PER_HAND,
    DEALER,
    HELP,
    IRREGULARITIES,
    PLAY_HAND,
    RULES_CHECKS,
    SET,
    STUB_SECTIONS,
    SURRENDER,
    VOID_HAND,
    AsiaPokerRules,
    AsiaTableRules,
    parse_setting,
    position_words,
)
from .state import (
    AsiaPokerState,
    card_face_up,
    deal_cards,
    noted,
    position_event,
    seat_number,
    void_round,
)

#: The step of each event type, each registered once where it is written (as Klipper's
#: ``register_command``); the game's own refusal names the types it takes.
EVENTS: Final[Handlers[str, Callable[[AsiaPokerPlay, AsiaPokerState, Event], AsiaPokerState]]] = Handlers(
    "Asia Poker"
)


class AsiaPokerPlay(GameBase[AsiaTableRules, AsiaPokerState]):
    """The events of an Asia Poker round; :class:`~.game.AsiaPokerGame` is built on it."""

    name: str = "asia-poker"
    title: str = "Asia Poker"
    chapter: str = "58 Pa. Code ch. 659a"
    rules_class: type[AsiaTableRules] = AsiaPokerRules
    rules_checks: tuple[Callable[[Any], Iterable[str]], ...] = RULES_CHECKS
    joker: bool = True
    main_wager: str = ASIA_POKER
    main_words: str = "Asia Poker Wager"

    # --- what differs between Asia Poker and Fortune Asia Poker ---------------------------------

    def optional_wagers(self, rules: AsiaTableRules) -> tuple[str, ...]:
        """The optional wagers the table offers, in the order they are settled."""
        assert isinstance(rules, AsiaPokerRules)
        return (BONUS,) if rules.bonus_offered else ()

    def all_optional_wagers(self) -> tuple[str, ...]:
        return (BONUS,)

    def minimum(self, rules: AsiaTableRules, wager: str) -> Cents:
        assert isinstance(rules, AsiaPokerRules)
        return rules.asia_poker_minimum if wager == ASIA_POKER else rules.bonus_minimum

    def meter_names(self, rules: AsiaTableRules) -> tuple[str, ...]:
        return ()

    def check_wager(self, state: AsiaPokerState, event: Event) -> None:
        """Refuses a wager this game takes otherwise than Asia Poker (none here; Fortune Asia Poker's
        Progressive Payout Wager is one chip of the table's value, § 659a.7(e))."""

    # --- the events -----------------------------------------------------------------------------

    def apply(self, state: AsiaPokerState, event: Event) -> AsiaPokerState:
        if state.void is not None:
            raise IllegalEvent(f"the round is void ({state.void.reason}); it only remains to settle it")
        handler = EVENTS.get(event.type)
        if handler is None:
            raise IllegalEvent(
                f"{self.title} has no {event.type} event "
                "(it takes wager, no_more_bets, second_area, position or dice, cards, decision, irregularity"
                + (", meter)" if self.meter_names(state.rules) else ")")
            )
        return handler(self, state, event)

    # --- questions about a round ----------------------------------------------------------------

    def players(self, state: AsiaPokerState) -> list[int]:
        """The seats with a main wager, ascending."""
        return sorted({s for s, w, a in state.wagers if w == self.main_wager and a})

    def dealer_set(self, state: AsiaPokerState) -> bool:
        """Whether every player has set his hands and the dealer's seven cards are in (§ 659a.11(c))."""
        active = [s for s in self.players(state) if s not in state.voided]
        return (
            state.start is not None
            and len(state.cards_of(DEALER)) == CARDS_PER_HAND
            and all(state.setting_of(s) is not None for s in active)
        )

    def dealer_setting(self, state: AsiaPokerState) -> Setting | None:
        """The dealer's hands by the house way, once they are set (§ 659a.11(c))."""
        if not self.dealer_set(state):
            return None
        return set_hands(state.cards_of(DEALER), state.rules.house_way, a234_low=state.rules.a234_lowest)

    def awaiting(self, state: AsiaPokerState) -> str:
        """What the round waits for before it can be settled, in words; ``""`` when it can be."""
        return in_words(self.dealing_waits_for(state))

    def dealing_waits_for(self, state: AsiaPokerState) -> tuple[Waiting, ...]:
        """What the round waits for until every hand is set and the dealer's cards are in."""
        if not state.locked:
            return (
                Waiting(
                    Actor.DEALER, 'wagers and "no more bets" (§ 659a.7(c))', "§ 659a.7(c)", step=Step.BETS
                ),
            )
        if state.start is None:
            method = state.rules.starting_position
            what = f"the starting position by the {method} (§ 659a.5(g))"
            step = Step.DICE if method == "shaker" else Step.STARTING_POSITION
            return (Waiting(Actor.DEALER, what, "§ 659a.5(g)", step=step),)
        players = self.players(state)
        for seat in players:
            if seat in state.voided:
                continue
            n = len(state.cards_of(str(seat)))
            if n < CARDS_PER_HAND:
                what = f"seat {seat}'s seven cards ({n} so far, § 659a.8(c))"
                return (Waiting(Actor.SHOE, what, "§ 659a.8(c)", seat, step=Step.CARDS),)
        if state.exposed:
            seat = state.exposed[0]
            what = f"seat {seat}'s choice to play or void the hand after an exposed card (§ 659a.13(d))"
            return (Waiting(Actor.PLAYER, what, "§ 659a.13(d)", seat, step=Step.DECISION),)
        for seat in players:
            if seat not in state.voided and state.setting_of(seat) is None:
                what = f"seat {seat} to set the high, medium and low hands (§ 659a.11(b))"
                return (Waiting(Actor.PLAYER, what, "§ 659a.11(b)", seat, step=Step.SETTING_HANDS),)
        if any(s not in state.voided for s in players):
            n = len(state.cards_of(DEALER))
            if n < CARDS_PER_HAND:
                what = f"the dealer's seven cards ({n} so far, § 659a.8(c))"
                return (Waiting(Actor.SHOE, what, "§ 659a.8(c)", step=Step.CARDS),)
        return ()

    # --- events ---------------------------------------------------------------------------------

    @EVENTS.register("position", "dice")
    def _position(self, state: AsiaPokerState, event: Event) -> AsiaPokerState:
        return position_event(state, event)

    @EVENTS.register("cards")
    def _cards(self, state: AsiaPokerState, event: Event) -> AsiaPokerState:
        return deal_cards(state, event, self.main_wager)

    @EVENTS.register("wager")
    def _wager(self, state: AsiaPokerState, event: Event) -> AsiaPokerState:
        self.check_wager(state, event)
        seat = seat_number(event.seat)
        name, amount = event.wager or "", event.amount or 0
        rules = state.rules
        known = (self.main_wager, *self.all_optional_wagers())
        if name not in known:
            raise IllegalEvent(f"no wager {name!r} at {self.title} (wagers: {', '.join(known)}; § 659a.7)")
        if state.locked:
            raise IllegalEvent(
                f"seat {seat}: a wager may not be made, increased or withdrawn after the dealer has "
                'announced "no more bets" (§ 659a.7(c))'
            )
        if name != self.main_wager and name not in self.optional_wagers(rules):
            raise IllegalEvent(f"this table does not offer the {name} wager ({name}.offered, § 659a.7(e))")
        minimum = self.minimum(rules, name)
        if 0 < amount < minimum:
            raise IllegalEvent(
                f"seat {seat}: the {name} wager of {format_money(amount)} is below the table's minimum of "
                f"{format_money(minimum)} ({name}.minimum in the Rules Submission)"
            )
        if name != self.main_wager and amount and not state.stake(seat, self.main_wager):
            raise IllegalEvent(
                f"seat {seat}: the {name} wager is offered to each player who placed an {self.main_words}; "
                f"place that first (§ 659a.7(d), (e))"
            )
        if name == self.main_wager and not amount and any(a for w, a in state.seat_wagers(seat) if w != name):
            raise IllegalEvent(
                f"seat {seat}: take back the optional wagers before the {self.main_words} they go with (§ "
                "659a.7(e))"
            )
        # Before "no more bets" a wager is as last sensed on the layout; 0.00 takes it back.
        others = tuple(x for x in state.wagers if not (x[0] == seat and x[1] == name))
        placed = (*others, (seat, name, amount)) if amount else others
        adjacent = state.adjacent
        if not amount and name == self.main_wager:
            adjacent = tuple(p for p in adjacent if seat not in p)
        return replace(state, wagers=placed, adjacent=adjacent)

    @EVENTS.register("no_more_bets")
    def _no_more_bets(self, state: AsiaPokerState, event: Event) -> AsiaPokerState:
        if state.locked:
            raise IllegalEvent('"no more bets" was already announced for this round (§ 659a.8(b))')
        return replace(state, locked=True)

    @EVENTS.register("decision")
    def _decision(self, state: AsiaPokerState, event: Event) -> AsiaPokerState:
        seat = seat_number(event.seat)
        if event.hand:
            raise IllegalEvent(
                "an Asia Poker decision has no hand index; each betting area is its own seat (§ 659a.7(f))"
            )
        action = " ".join((event.action or "").split())
        word, _, rest = action.partition(" ")
        if word not in ACTIONS:
            raise IllegalEvent(
                f"seat {seat}: no action {word!r} at {self.title} (actions: set <high> / <medium> / <low>, "
                "help, surrender, void, play)"
            )
        if word != SET and rest:
            raise IllegalEvent(f"seat {seat}: {word!r} takes nothing after it, not {rest!r}")
        if event.amount is not None:
            raise IllegalEvent(f"seat {seat}: no amount goes with {word!r}")
        if not state.stake(seat, self.main_wager):
            raise IllegalEvent(
                f"seat {seat} placed no {self.main_words}: no hand to play there (§ 659a.7(d))"
            )
        if seat in state.voided:
            raise IllegalEvent(f"seat {seat}'s hand is void (§ 659a.13(d)); nothing more happens there")
        if word in (VOID_HAND, PLAY_HAND):
            if seat not in state.exposed:
                raise IllegalEvent(
                    f"seat {seat}: to {word} the hand is the player's choice only after the dealer exposed "
                    "one of his cards (§ 659a.13(d))"
                )
            exposed = tuple(s for s in state.exposed if s != seat)
            if word == PLAY_HAND:
                return replace(state, exposed=exposed)
            return replace(state, exposed=exposed, voided=(*state.voided, seat))
        if word == SURRENDER:
            return self._surrender(state, seat)
        # set and help need the seven cards.
        if state.setting_of(seat) is not None:
            raise IllegalEvent(
                f"seat {seat} has set the hands and placed them face down; the player may not touch the "
                "cards again (§ 659a.11(a)(3))"
            )
        seven = state.cards_of(str(seat))
        if len(seven) != CARDS_PER_HAND:
            raise IllegalEvent(
                f"seat {seat} has {len(seven)} of its seven cards; the hands are set from seven (§ "
                "659a.11(b))"
            )
        if seat in state.exposed:
            raise IllegalEvent(
                f"seat {seat}: the player first chooses to play or void the hand, without looking at the "
                "unexposed cards (§ 659a.13(d))"
            )
        rules = state.rules
        if word == HELP:
            shown = set_hands(seven, rules.house_way, a234_low=rules.a234_lowest)
            note = (
                f"seat {seat} asked for help: the house way sets {describe_setting(shown)} (§ 659a.11(a)(1))"
            )
            return replace(state, helped=(*state.helped, (seat, shown)), notes=(*state.notes, note))
        setting = parse_setting(rest)
        given = Counter(c for hand in setting for c in hand)
        if given != Counter(seven):
            raise IllegalEvent(
                f"seat {seat} sets {format_cards(c for hand in setting for c in hand)}, but was dealt "
                f"{format_cards(seven)}: the three hands are formed from the seven cards dealt (§ 659a.1)"
            )
        partner = state.partner(seat)
        if partner is not None and partner not in state.voided and state.setting_of(partner) is None:
            first = self._first_of_pair(state, seat, partner)
            if first != seat:
                mine, theirs = state.stake(seat, self.main_wager), state.stake(partner, self.main_wager)
                why = (
                    "the hand with the larger wager is set before the other"
                    if mine != theirs
                    else "the wagers are equal: the hands are set counterclockwise, from the dealer's right"
                )
                raise IllegalEvent(
                    f"seat {seat} and seat {partner} are one player's two betting areas: {why}, so seat "
                    f"{first} first (§ 659a.7(f))"
                )
        return replace(state, settings=(*state.settings, (seat, setting)))

    def _first_of_pair(self, state: AsiaPokerState, a: int, b: int) -> int:
        """§ 659a.7(f): the larger wager first; equal wagers counterclockwise (the higher seat first)."""
        wa, wb = state.stake(a, self.main_wager), state.stake(b, self.main_wager)
        if wa != wb:
            return a if wa > wb else b
        return max(a, b)

    @EVENTS.register("second_area")
    def _second_area(self, state: AsiaPokerState, event: Event) -> AsiaPokerState:
        """The player at betting area ``seat`` takes the adjacent ``area`` as his second (§ 659a.7(f)
        "a player to wager on two adjacent betting areas"): both areas carry his main wager, and
        neither hand is set yet (the order of setting is the pair's, § 659a.7(f))."""
        if not state.rules.adjacent_betting_areas:
            raise IllegalEvent(
                "this table does not permit wagering on two adjacent betting areas "
                "(adjacent_betting_areas, § 659a.7(f))"
            )
        seat, other = seat_number(event.seat), seat_number(event.area)
        if abs(other - seat) != 1:
            raise IllegalEvent(f"seat {seat} and seat {other} are not adjacent betting areas (§ 659a.7(f))")
        for s in (seat, other):
            if not state.stake(s, self.main_wager):
                raise IllegalEvent(
                    f"seat {s} has no {self.main_words}: the player wagers on both areas (§ 659a.7(f))"
                )
        for s in (seat, other):
            if state.partner(s) is not None:
                raise IllegalEvent(f"seat {s} is already one of a player's two betting areas (§ 659a.7(f))")
            if state.setting_of(s) is not None:
                raise IllegalEvent(f"seat {s} has already set its hands; the order of § 659a.7(f) is past")
        return replace(state, adjacent=(*state.adjacent, (min(seat, other), max(seat, other))))

    def _surrender(self, state: AsiaPokerState, seat: int) -> AsiaPokerState:
        optional = [w for w, a in state.seat_wagers(seat) if w != self.main_wager and a]
        if optional:
            raise IllegalEvent(
                f"seat {seat} placed an optional wager ({', '.join(optional)}): a player may surrender only "
                "without one (§ 659a.11(d))"
            )
        if seat in state.surrendered:
            raise IllegalEvent(f"seat {seat} has already surrendered (§ 659a.11(d))")
        if not self.dealer_set(state):
            raise IllegalEvent(
                f"seat {seat}: a player may surrender after the hands of the dealer have been set (§ "
                f"659a.11(d)); the round waits for {self.awaiting(state) or 'the dealer'}"
            )
        return replace(state, surrendered=(*state.surrendered, seat))

    @EVENTS.register("meter")
    def _meter(self, state: AsiaPokerState, event: Event) -> AsiaPokerState:
        names = self.meter_names(state.rules)
        if event.name not in names:
            if not names:
                raise IllegalEvent(f"{self.title} at this table has no progressive meter")
            raise IllegalEvent(f"no meter {event.name!r} at this table (meters: {', '.join(names)})")
        if event.seat is not None:
            # § 659a.11(h)(3)(ii)(D): the meter when that seat's turn to be paid comes (its award).
            seats = (seat for seat, wager, _ in state.wagers if wager == event.name)
            return replace(state, meter_turns=take_turn(state.meter_turns, event, seats))
        meters = dict(state.meters)
        meters[event.name] = event.amount or 0
        return replace(state, meters=tuple(sorted(meters.items())))

    # --- irregularities, § 659a.13 ----------------------------------------------------------------

    @EVENTS.register("irregularity")
    def _irregularity(self, state: AsiaPokerState, event: Event) -> AsiaPokerState:
        kind = event.kind or ""
        section = irregularity_section(IRREGULARITIES, kind, "ch. 659a")
        rules = state.rules
        dealing = state.start is not None and not state.settings  # cards are being dealt, no hand set yet
        if kind == "shuffler_jam":
            refuse_shuffler_jam(rules.shuffler, bool(state.hands), kind, section)
            return noted(
                state, f"the automated shuffler jammed or stopped: the cards are reshuffled ({section})"
            )
        if not state.locked:
            raise IllegalEvent(f'nothing is dealt before "no more bets"; no {kind} yet ({section})')
        if kind == "no_roll":
            if rules.starting_position != "shaker":
                raise IllegalEvent(f"this table does not use the Asia Poker shaker; no {kind} ({section})")
            if state.start is not None:
                raise IllegalEvent(
                    f"the dice were counted: the starting position is {position_words(state.start)} "
                    f"({section})"
                )
            return replace(
                noted(
                    state, f"no roll: the dice did not land flat or fell out; the dealer reshakes ({section})"
                ),
                no_rolls=state.no_rolls + 1,
            )
        if kind == "wrong_card_count":
            who = (
                f"seat {event.seat}"
                if event.seat is not None
                else (event.detail or "a position or the dealer")
            )
            return void_round(
                state, f"{who} was dealt an incorrect number of cards; the cards are reshuffled", section
            )
        if state.start is None:
            raise IllegalEvent(
                f"no card is dealt before the starting position is determined; no {kind} yet ({section})"
            )
        if kind == "player_card_exposed":
            seat = seat_number(event.seat)
            if not state.stake(seat, self.main_wager):
                raise IllegalEvent(
                    f"seat {seat} placed no {self.main_words}; its stack is collected unexposed (§ 659a.8(f))"
                )
            if state.setting_of(seat) is not None or seat in state.voided or seat in state.exposed:
                raise IllegalEvent(f"seat {seat} has already set, voided or been asked to choose ({section})")
            note = (
                f"a card of seat {seat} was exposed by the dealer: the player may void the hand ({section})"
            )
            return replace(noted(state, note), exposed=(*state.exposed, seat))
        if kind == "dealer_set_incorrectly":
            if not self.dealer_set(state):
                raise IllegalEvent(f"the dealer's hands are not set yet ({section})")
            return noted(
                state,
                "the dealer did not set the hands by the house way: they are reset by it and the round "
                f"completed ({section})",
            )
        if kind == "dealer_card_exposed":
            if self.dealer_set(state):
                raise IllegalEvent(
                    f"the dealer's cards are turned over once every player has set (§ 659a.11(c)) ({section})"
                )
            return void_round(
                state, "a card of the dealer's hand was exposed; the cards are reshuffled", section
            )
        if not dealing:
            raise IllegalEvent(f"the deal is over (a player has set his hands); no {kind} now ({section})")
        if kind == "wrong_starting_position":
            return void_round(
                state,
                f"the dealer dealt the first card to the wrong position (the count was {state.count}: "
                f"{position_words(state.start)}); the cards are reshuffled",
                section,
            )
        if kind == "dealer_card_exposed_while_dealing":
            return void_round(
                state, "a dealer's card was exposed while dealing; the cards are reshuffled", section
            )
        if kind == "card_face_up":
            return card_face_up(state, event)
        if kind == "card_drawn_in_error":
            return noted(
                state, f"a card drawn in error without its face exposed is used as the next card ({section})"
            )
        if kind == "shoe_jam":
            refuse_shoe_jam(rules.dealing, section)
            return void_round(
                state,
                "the automated dealing shoe jammed or failed to deal; the cards are removed from the "
                "device and reshuffled with those dealt",
                section,
            )
        stub = STUB_SECTIONS[rules.dealing]
        if kind == "stub_count_misdealt":
            return void_round(
                state, "more or less than four cards remained and the cards were misdealt", stub
            )
        return void_round(
            state,
            "more or less than four cards remained and the cards were not misdealt: remove the deck, the "
            "entire deck of cards shall be removed from the table",
            stub,
            remove_deck=True,
        )
