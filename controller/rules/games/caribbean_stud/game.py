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
- ``meter`` ``progressive``: the central meter as it stands now; with a ``seat``, the meter when
  that seat is paid (the central meter's award for its hit, :mod:`.meter_turns`).
- ``irregularity``: see :data:`IRREGULARITIES` (§ 639a.13).

Where the text was open, the choices are listed in docs/games/caribbean-stud.md.

The game is in four modules, one idea each: :mod:`.caribbean_stud_rules` (the words, paytables and
Rules Submission), :mod:`.caribbean_stud_state` (the round's state and what it waits for),
:mod:`.caribbean_stud_settle` (the settlement), and this one, the :class:`~.engine.Game` whose
events make each new state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from ...core.engine import Game, GameBase, IllegalEvent
from ...core.events import Event, seat_of
from ...core.hooks import Devices, Progressive, Term, Vocabulary, Waiting, in_words, meter_rows, reported
from ...core.irregularities import irregularity_section
from ...core.meter_turns import take_turn
from ...core.money import Cents, format_money
from ...core.settlement import Settlement, void_all
from ...rankings.high import CATEGORY_NAMES
from .rules import (
    ANTE,
    BET,
    BONUS,
    FOLD,
    HAND_SIZE,
    IRREGULARITIES,
    NAME,
    PROGRESSIVE,
    PROGRESSIVE_PAYTABLES,
    RULES_CHECKS,
    STUB_SECTIONS,
    WAGERS,
    CaribbeanStudRules,
)
from .settle import settle_showdown
from .state import (
    CaribbeanStudState,
    check_seat,
    missing_cards,
    placed_wagers,
    round_waits_for,
    void_round,
    wager_title,
)

#: What the dealer's screen offers (the Progressive Payout Wager is the sensor's, § 639a.8(b)).
VOCABULARY: Final = Vocabulary(
    (Term("ante", "Ante", "§ 639a.7(a)"), Term("bonus", "Bonus", "§ 639a.7(b)")),
    (Term("bet", "Bet", "§ 639a.11(b)"), Term("fold", "Fold", "§ 639a.11(b)")),
    reported(
        IRREGULARITIES,
        ("shoe_jam", "Shoe jammed"),
        ("shuffler_jam", "Shuffler jammed"),
        ("card_face_up", "Card face up"),
        ("card_drawn_in_error", "Card drawn in error"),
        ("wrong_card_count", "Wrong card count"),
        ("hole_card_exposed", "Dealer card exposed"),
    ),
)


class CaribbeanStud(GameBase[CaribbeanStudRules, CaribbeanStudState]):
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

    def vocabulary(self, rules: CaribbeanStudRules) -> Vocabulary:
        """What the dealer's screen offers at this game (:data:`VOCABULARY`)."""
        return VOCABULARY

    def progressives(self, rules: CaribbeanStudRules) -> tuple[Progressive, ...]:
        """The Progressive Payout Wager where offered (§ 639a.7(d)(2)): one chip on the Progressive
        Table Game System's sensor is one wager (§ 639a.8(b)); the meter by § 639a.12(d)(3)."""
        if not rules.progressive_offered:
            return ()
        table = PROGRESSIVE_PAYTABLES[rules.progressive_paytable]
        return (
            Progressive(
                name=PROGRESSIVE,
                title=wager_title(PROGRESSIVE),
                section="§ 639a.7(d)(2), § 639a.12(d)",
                sensor=True,
                wager=rules.progressive_wager,
                initial=rules.progressive_initial,
                reset=rules.progressive_reset,
                rate_of_progression=rules.progressive_rate,
                meter_rows=meter_rows(table, CATEGORY_NAMES.__getitem__),
            ),
        )

    def devices(self, rules: CaribbeanStudRules) -> Devices:
        """The shuffler and the automated dealing shoe, where the Rules Submission uses them."""
        return Devices.for_cards(rules.shuffler, rules.dealing, "§ 639a.5(a), § 639a.10")

    def waiting_for(self, state: CaribbeanStudState) -> tuple[Waiting, ...]:
        return () if state.void else round_waits_for(state)

    def start(self, rules: CaribbeanStudRules, meters: Mapping[str, Cents]) -> CaribbeanStudState:
        # The meter as it stands, below the reset amount too after a share was paid (§ 639a.12(d)(4)).
        meter = meters.get(PROGRESSIVE)
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
        check_seat(rules, seat)
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
                f"seat {seat} has already placed its {wager_title(name)} ({format_money(placed[name])})"
            )
        if name != ANTE and ANTE not in placed:
            sub = "(d)(3)" if name == BONUS else "(d)(2)"
            raise IllegalEvent(
                f"seat {seat} {name}: the {wager_title(name)} is made after placing an Ante Wager "
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
            check_seat(state.rules, seat)
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
                f"the deal is not complete ({missing_cards(state)})"
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
        if event.seat is not None:
            # § 639a.12(d)(4): the meter when that seat's turn to be paid comes (the central meter's award).
            seats = (s for s, placed in state.wagers.items() if PROGRESSIVE in placed)
            return dataclasses.replace(state, meter_turns=take_turn(state.meter_turns, event, seats))
        return dataclasses.replace(state, meter=event.amount)

    def _irregularity(self, state: CaribbeanStudState, event: Event) -> CaribbeanStudState:
        kind = event.kind or ""
        section = irregularity_section(IRREGULARITIES, kind, "ch. 639a")
        if event.seat is not None:
            check_seat(state.rules, event.seat)
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
            return void_round(
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
            return void_round(recorded, f"{who} was dealt an incorrect number of cards{detail}", section)
        if kind == "hole_card_exposed":
            if state.dealt and state.next_to_decide is None:
                # Every player has bet or folded: the dealer reveals his hole cards now anyway
                # (§ 639a.11(c)); § 639a.13(d) does not apply.
                return recorded
            return void_round(
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
            return void_round(
                recorded, f"the automated dealing shoe jammed, stopped or failed to deal{detail}", section
            )
        # The stub counts: "After five cards have been dealt to each player and the dealer" (§ 639a.8(e)).
        if dealing:
            raise IllegalEvent(
                f"the stub is counted after five cards are dealt to each hand ({section}); not yet"
            )
        stub = STUB_SECTIONS[state.rules.dealing]
        if kind == "stub_count_misdealt":
            return void_round(
                recorded, f"the stub count was wrong and the cards misdealt, 52 cards remaining{detail}", stub
            )
        return void_round(
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
                {s: placed_wagers(state, s) for s in state.wagers},
                f"{state.void}: all hands void, all wagers returned",
                state.void_section,
                meters,
            )
        waiting = round_waits_for(state)
        if waiting:
            raise IllegalEvent(f"the round is not complete; it waits for {in_words(waiting)}")
        if not state.ante_seats:
            return Settlement(NAME, (), meters)
        return settle_showdown(state, meters)


GAME: Final[Game[CaribbeanStudRules, CaribbeanStudState]] = CaribbeanStud()
"""Caribbean Stud Poker, for :data:`~.games.GAMES`."""

__all__ = [
    "GAME",
    "IRREGULARITIES",
    "NAME",
    "CaribbeanStud",
    "CaribbeanStudRules",
    "CaribbeanStudState",
]
