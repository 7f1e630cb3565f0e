"""Settling a full seven-seat round of each game: median and p99 per round.

Run: ``.venv/bin/python bench/bench_settle.py [--rounds N] [--seed S]``.

Each round is dealt from a shuffled deck to every seat the game's table has
(seven, or the table's maximum where it has fewer), every seat making every
wager its example Rules Submission offers, with a simple player strategy.
The timed work is the whole round engine: every event applied to the
immutable state (with its checks) and the settlement. The peer, measured on
the same rounds in the same run, is the bare hand evaluation those rounds
need (every seat's and the dealer's best hand): the ratio says what the
rules, checks and money cost on top of ranking the cards. Not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from random import Random
from typing import Any

from controller.rules.core.cards import Card, shoe, standard_deck
from controller.rules.core.engine import Game, play
from controller.rules.core.engine import Round as EngineRound
from controller.rules.core.events import Event
from controller.rules.core.submission import parse_submission
from controller.rules.games import GAMES
from controller.rules.rankings.blackjack import hand_total, is_blackjack
from controller.rules.rankings.high import code5, code7, code_best
from controller.rules.rankings.three_card import three_card_key

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
Round = tuple[list[Event], Callable[[], object]]  # the events, and the peer's bare evaluation


def w(seat: int, wager: str, amount: int) -> Event:
    return Event("wager", seat=seat, wager=wager, amount=amount)


def deal(to: str, cards: Sequence[Card]) -> Event:
    return Event("cards", to=to, cards=tuple(cards))


def act(seat: int, action: str, hand: int = 0) -> Event:
    return Event("decision", seat=seat, action=action, hand=hand)


def caribbean_stud(rng: Random, seats: int, rules: Any) -> Round:
    deck = list(standard_deck())
    rng.shuffle(deck)
    ev: list[Event] = []
    for s in range(1, seats + 1):
        ev += [w(s, "ante", 1000), w(s, "bonus", 500), w(s, "progressive", 100)]
    ev.append(Event("no_more_bets"))
    hands = {s: [deck.pop() for _ in range(5)] for s in range(1, seats + 1)}
    dealer = [deck.pop() for _ in range(5)]
    ev += [deal(str(s), h) for s, h in hands.items()] + [deal("dealer", dealer)]
    for s, h in hands.items():  # bet with a pair or better (code >= one pair)
        ev.append(act(s, "bet" if code5(h) >> 20 >= 1 else "fold"))
    return ev, lambda: [code5(h) for h in (*hands.values(), dealer)]


def holdem_bonus(rng: Random, seats: int, rules: Any) -> Round:
    deck = list(standard_deck())
    rng.shuffle(deck)
    ev: list[Event] = []
    for s in range(1, seats + 1):
        ev += [w(s, "ante", 1000), w(s, "bonus", 500)]
    ev.append(Event("no_more_bets"))
    hands = {s: [deck.pop(), deck.pop()] for s in range(1, seats + 1)}
    dealer = [deck.pop(), deck.pop()]
    ev += [deal(str(s), h) for s, h in hands.items()] + [deal("dealer", dealer)]
    board = [deck.pop() for _ in range(5)]
    ev += [act(s, "bet") for s in hands]
    ev.append(deal("board", board[:3]))
    ev += [act(s, "check") for s in hands]
    ev.append(deal("board", board[3:4]))
    ev += [act(s, "check") for s in hands]
    ev.append(deal("board", board[4:]))
    return ev, lambda: [code7([*h, *board]) for h in (*hands.values(), dealer)]


def three_card_poker(rng: Random, seats: int, rules: Any) -> Round:
    deck = list(standard_deck())
    rng.shuffle(deck)
    ev: list[Event] = []
    for s in range(1, seats + 1):
        ev += [w(s, "ante", 1000), w(s, "pair_plus", 500), w(s, "six_card_bonus", 500)]
    ev.append(Event("no_more_bets"))
    hands = {s: [deck.pop() for _ in range(3)] for s in range(1, seats + 1)}
    dealer = [deck.pop() for _ in range(3)]
    ev += [deal(str(s), h) for s, h in hands.items()] + [deal("dealer", dealer)]
    queen_six_four = (0, 12, 6, 4)  # the usual playing strategy: play queen-six-four or better
    ev += [act(s, "play" if three_card_key(h) >= queen_six_four else "fold") for s, h in hands.items()]
    return (
        ev,
        lambda: (
            [three_card_key(h) for h in (*hands.values(), dealer)]
            + [code_best([*h, *dealer]) for h in hands.values()]
        ),
    )


def blackjack(rng: Random, seats: int, rules: Any) -> Round:
    """Every seat bets the Blackjack Wager and each optional wager offered; hit to 17, then stand."""
    game = GAMES["blackjack"]
    cards = list(shoe(rules.decks))
    rng.shuffle(cards)
    names = ("three_card_poker", "straight_jack", "house_money", "hit_and_run", "bad_beat")
    optional = [n for n in names if rules.offered(n)]
    rnd = EngineRound.begin(game, rules, METERS["blackjack"])
    for s in range(1, seats + 1):
        rnd.apply(w(s, "blackjack", 1000))
        for name in optional:
            rnd.apply(w(s, name, 100))
    rnd.apply(Event("no_more_bets"))
    hands: dict[int, list[Card]] = {s: [] for s in range(1, seats + 1)}
    dealer: list[Card] = []
    for _ in range(2):
        for s in hands:
            hands[s].append(cards.pop())
            rnd.apply(deal(str(s), hands[s][-1:]))
        if not dealer:
            dealer.append(cards.pop())
            rnd.apply(deal("dealer", dealer))
    hole = cards.pop()
    if rnd.state.reader_used:
        dealer_bj = is_blackjack([dealer[0], hole])
        rnd.apply(Event("hole_card_reader", result="blackjack" if dealer_bj else "no_blackjack"))
    while rnd.state.turn is not None and not (rnd.state.reader_used and is_blackjack([dealer[0], hole])):
        seat, index = rnd.state.turn
        if hand_total(hands[seat])[0] < 17:
            rnd.apply(act(seat, "hit", index))
            hands[seat].append(cards.pop())
            rnd.apply(deal(str(seat), hands[seat][-1:]))
        else:
            rnd.apply(act(seat, "stand", index))
    dealer.append(hole)
    rnd.apply(deal("dealer", [hole]))
    while not rnd.state.dealer_complete:
        dealer.append(cards.pop())
        rnd.apply(deal("dealer", dealer[-1:]))
    return rnd.events, lambda: [hand_total(h) for h in (*hands.values(), dealer)]


METERS: dict[str, dict[str, int]] = {
    "caribbean-stud": {"progressive": 5_000_000},
    "blackjack": {"straight_jack": 1_000_000, "hit_and_run": 500_000, "bad_beat": 500_000},
}

BUILDERS: dict[str, Callable[[Random, int, Any], Round]] = {
    "caribbean-stud": caribbean_stud,
    "holdem-bonus": holdem_bonus,
    "three-card-poker": three_card_poker,
    "blackjack": blackjack,
}


def timed(fn: Callable[[], object]) -> int:
    t0 = time.perf_counter_ns()
    fn()
    return time.perf_counter_ns() - t0


def pct(values: list[int], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] / 1000


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args(argv)
    rng = Random(args.seed)
    print(f"settling full rounds, {args.rounds:,} random rounds per game (seed {args.seed}); microseconds")
    print(f"{'game':<18} {'seats':>5} {'median':>9} {'p99':>9}   {'peer median':>11}  ratio")
    for name, build in BUILDERS.items():
        game: Game[Any, Any] = GAMES[name]
        sub = parse_submission((EXAMPLES / name / "rules-submission.toml").read_text(), GAMES, name)
        rules = sub.rules
        seats = min(7, getattr(rules, "seats", 7))
        meters = METERS.get(name, {})
        rounds = [build(rng, seats, rules) for _ in range(args.rounds)]
        engine = [timed(partial(play, game, rules, meters, ev)) for ev, _ in rounds]
        peer = [timed(peer_fn) for _, peer_fn in rounds]
        med, peer_med = statistics.median(engine) / 1000, statistics.median(peer) / 1000
        p99 = pct(engine, 0.99)
        print(f"{name:<18} {seats:>5} {med:>9.1f} {p99:>9.1f}   {peer_med:>11.1f}  {med / peer_med:5.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
