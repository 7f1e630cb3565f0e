"""What the dealer's screen is offered at a Blackjack round: only the decisions the rules take now
(the round's ``waiting`` items), and each hand's total (controller/rules/games/blackjack/offered.py).

Each case is checked both ways: every decision offered is taken by the rules, and every one not
offered is refused (the offer is the rules' own answer, never a second copy of them)."""

from __future__ import annotations

from typing import Any

from controller.rules.core.engine import IllegalEvent
from controller.rules.core.hooks import Step
from controller.rules.games.blackjack.game import GAME
from controller.rules.games.blackjack.state import ACTIONS

from .rounds import NO_MORE_BETS, cards, decide, wager
from .test_blackjack import READER, Table, rules


def offered(t: Table) -> tuple[str, ...]:
    items = [w for w in GAME.waiting_for(t.state) if w.step is Step.DECISION]
    assert len(items) == 1, items
    assert items[0].decisions is not None
    return items[0].decisions


def check_both_ways(t: Table, seat: int, hand: int = 0) -> None:
    shown = offered(t)
    for action in ACTIONS:
        event = decide(seat, action, hand=hand)
        try:
            GAME.apply(t.state, event)
        except IllegalEvent:
            assert action not in shown, f"{action} offered but refused"
        else:
            assert action in shown, f"{action} taken but not offered"


def dealt(hands: dict[int, str], up: str, over: dict[str, Any] | None = None) -> Table:
    t = Table(rules(over))
    for seat in hands:
        t(wager(seat, "blackjack", "10.00"))
    return t(NO_MORE_BETS).deal(hands, up)


def test_with_a_9_up_no_insurance_even_money_surrender_of_a_hit_hand_or_rescue() -> None:
    t = dealt({3: "Th 6d"}, "9c")
    assert offered(t) == ("hit", "stand", "double_down", "surrender")
    check_both_ways(t, 3)
    t(decide(3, "hit"))
    assert [w.decisions for w in GAME.waiting_for(t.state)] == [()]  # a card, not a decision
    t(cards(3, "2s", decks=8))
    # After a hit: no surrender (§ 633a.9), no double on three cards (§ 633a.10).
    assert offered(t) == ("hit", "stand")
    check_both_ways(t, 3)


def test_a_pair_may_be_split_and_surrender_only_where_the_submission_offers_it() -> None:
    t = dealt({1: "8s 8d"}, "7c", {"surrender": {"offered": False}})
    assert offered(t) == ("hit", "stand", "double_down", "split")
    check_both_ways(t, 1)


def test_with_an_ace_up_insurance_and_even_money_for_the_blackjack_only_then_play() -> None:
    t = dealt({2: "As Kd", 5: "9h 7h"}, "Ac")
    # One item for every seat while the players decide on insurance (§ 633a.8).
    assert offered(t) == ("insurance", "even_money")
    t(READER(False))
    assert offered(t) == ("hit", "stand", "double_down", "surrender")
    check_both_ways(t, 5)


def test_each_hands_total_soft_or_hard_and_the_up_card_alone() -> None:
    t = dealt({2: "As 6d", 4: "Th 6c"}, "9c")
    assert [(h.to, h.hand, h.total) for h in GAME.totals(t.state)] == [
        ("2", 0, "soft 17"),
        ("4", 0, "hard 16"),
        ("dealer", 0, "hard 9"),
    ]
    assert GAME.totals(t.state)[0].to_json() == {"to": "2", "hand": 0, "total": "soft 17"}


def test_the_waiting_data_carries_the_decisions_and_a_game_that_lists_none_carries_no_key() -> None:
    t = dealt({3: "Th 6d"}, "9c")
    (item,) = GAME.waiting_for(t.state)
    assert item.to_json()["decisions"] == ["hit", "stand", "double_down", "surrender"]
    from controller.rules.games import GAMES

    stud = GAMES["caribbean-stud"]
    state = stud.start(stud.rules_class(), {})
    assert all("decisions" not in w.to_json() for w in stud.waiting_for(state))


def test_the_reader_step_offers_no_decision() -> None:
    t = dealt({3: "Th 6d"}, "Tc")
    assert [(w.step, w.decisions) for w in GAME.waiting_for(t.state)] == [(Step.READER, ())]
