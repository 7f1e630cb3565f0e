"""Asia Poker per hand: the dealer's house way and the Bonus evaluation, seven cards with the joker.

Run: ``.venv/bin/python bench/bench_asia_poker.py [--hands N] [--seed S] [--no-joker]``.

Each evaluation is timed alone with ``time.perf_counter_ns`` over the same
random hands (six cards and the joker, or seven cards of the 53 with
``--no-joker``); the median and the 99th percentile per hand are printed, and
the ratio of our median to a peer's measured in the same run:

- the house way (``asia_house_way.set_hands``, the card checks and the
  legality check included) against the brute force that tries all 105
  settings and keeps the one the house way prefers
  (``asia_house_way.best_legal_setting``), which gives the same setting;
- the Bonus evaluation of § 659a.6(d) (``asia_poker.bonus_key``, the joker
  included) against the five-card high evaluator on the six cards that are not
  the joker (``high.code_best``: ``high.code7`` takes exactly seven cards, so
  its six-card form is the peer; with ``--no-joker`` most hands have seven).

Not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from controller.rules.core.cards import JOKER, Card, deck_with_joker, standard_deck
from controller.rules.games.asia_poker.house_way import HOUSE_WAYS, HouseWay, best_legal_setting, set_hands
from controller.rules.rankings.asia_poker import Setting, bonus_key
from controller.rules.rankings.high import code_best


def per_hand_ns(
    fn: Callable[[Sequence[Card]], Any], hands: Sequence[Sequence[Card]], warm: int = 200
) -> list[int]:
    """Nanoseconds per call of ``fn`` on each hand, after an untimed warm-up pass over ``warm`` hands.

    The five-card evaluator remembers rank patterns it has seen; warming it (and
    ours, which remembers nothing) over every hand first times both in their
    steady state, as on a table that has dealt for a while.
    """
    for h in hands[:warm]:
        fn(h)
    clock = time.perf_counter_ns
    out = []
    for h in hands:
        t0 = clock()
        fn(h)
        out.append(clock() - t0)
    return out


def summary(ns: list[int]) -> tuple[float, float]:
    """Median and 99th percentile, in microseconds."""
    p99 = statistics.quantiles(ns, n=100, method="inclusive")[98]
    return statistics.median(ns) / 1000, p99 / 1000


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument(
        "--no-joker", action="store_true", help="seven cards of the 53, not six and the joker"
    )
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    if args.no_joker:
        deck53 = list(deck_with_joker())
        hands = [rng.sample(deck53, 7) for _ in range(args.hands)]
    else:
        deck52 = list(standard_deck())
        hands = [[*rng.sample(deck52, 6), JOKER] for _ in range(args.hands)]
    naturals = [[c for c in h if not c.is_joker] for h in hands]
    kind = "7 of the 53 cards" if args.no_joker else "6 cards and the joker"

    print(f"Asia Poker per hand, {args.hands:,} hands of {kind}, seed {args.seed}")
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), {platform.machine()}")
    print()
    rows: list[tuple[str, float, float, str]] = []

    def row(label: str, ns: list[int], peer: float | None = None) -> float:
        med, p99 = summary(ns)
        ratio = f"{med / peer:.2f}x the peer" if peer else "peer"
        rows.append((label, med, p99, ratio))
        return med

    for name, hw in HOUSE_WAYS.items():

        def brute_force(h: Sequence[Card], hw: HouseWay = hw) -> Setting:
            return best_legal_setting(h, hw)

        def house_way(h: Sequence[Card], hw: HouseWay = hw) -> Setting:
            return set_hands(h, hw)

        brute = row(f"house way {name}: brute force, 105 settings (peer)", per_hand_ns(brute_force, hands))
        row(f"house way {name}: set_hands", per_hand_ns(house_way, hands), brute)
        # Check on every hand that the two agree, outside the timing.
        for h in hands[:2000]:
            assert set_hands(h, hw) == best_legal_setting(h, hw)

    everything = len(hands)
    peer = row(
        "five-card high, code_best on the natural cards (peer)", per_hand_ns(code_best, naturals, everything)
    )
    row("Bonus hand, bonus_key on the 7 cards", per_hand_ns(bonus_key, hands, everything), peer)

    width = max(len(r[0]) for r in rows)
    print(f"{'evaluation':<{width}}  {'median':>10}  {'p99':>10}  ratio (median)")
    for label, med, p99, ratio in rows:
        print(f"{label:<{width}}  {med:>8.1f}us  {p99:>8.1f}us  {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
