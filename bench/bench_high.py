"""Five- and seven-card high evaluations per second, ours beside treys (and eval7), same hands.

Run: ``.venv/bin/python bench/bench_high.py [--hands N] [--repeat R] [--seed S]``.
Prints each evaluator's rate and its ratio to treys measured in the same run.
Not a test: nothing here passes or fails. treys is pure Python like ours;
eval7 is a C extension, shown for scale where it installs.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from controller.rules.core.cards import standard_deck
from controller.rules.rankings.high import HIGH, code5, code7


def best_rate(run: Callable[[], None], count: int, repeat: int) -> float:
    """Evaluations per second of the fastest of ``repeat`` timed runs."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    return count / best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    deck = list(standard_deck())
    sevens = [rng.sample(deck, 7) for _ in range(args.hands)]
    fives = [h[:5] for h in sevens]
    texts7 = [[str(c) for c in h] for h in sevens]
    n = args.hands

    results: dict[str, dict[str, float]] = {"5-card": {}, "7-card": {}}

    def ours5() -> None:
        for h in fives:
            code5(h)

    def ours7() -> None:
        for h in sevens:
            code7(h)

    results["5-card"]["ours (code5)"] = best_rate(ours5, n, args.repeat)
    results["7-card"]["ours (code7)"] = best_rate(ours7, n, args.repeat)

    api_n = min(n, 50_000)

    def ours_api7() -> None:
        for h in sevens[:api_n]:
            HIGH.evaluate(h)

    results["7-card"]["ours (HIGH.evaluate, with words and best five)"] = best_rate(
        ours_api7, api_n, max(1, args.repeat // 2)
    )

    try:
        from treys import Card as TCard  # type: ignore[import-untyped]
        from treys import Evaluator
    except ImportError:
        print("treys is not installed: pip install treys", file=sys.stderr)
        return 2
    ev = Evaluator()
    t7 = [[TCard.new(t) for t in h] for h in texts7]
    t5 = [h[:5] for h in t7]

    def treys5() -> None:
        for h in t5:
            ev.evaluate(h[:2], h[2:])

    # treys tries all 21 fives of a seven-card hand: a tenth of the hands keeps the run short.
    t7_sub = t7[: max(1, n // 10)]

    def treys7() -> None:
        for h in t7_sub:
            ev.evaluate(h[:2], h[2:])

    results["5-card"]["treys"] = best_rate(treys5, n, args.repeat)
    results["7-card"]["treys"] = best_rate(treys7, len(t7_sub), args.repeat)

    try:
        import eval7  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        print("(eval7 is not installed; its column is left out)")
    else:
        e7: list[list[Any]] = [[eval7.Card(t) for t in h] for h in texts7]
        e5 = [h[:5] for h in e7]

        def eval7_5() -> None:
            for h in e5:
                eval7.evaluate(h)

        def eval7_7() -> None:
            for h in e7:
                eval7.evaluate(h)

        results["5-card"]["eval7 (C extension)"] = best_rate(eval7_5, n, args.repeat)
        results["7-card"]["eval7 (C extension)"] = best_rate(eval7_7, n, args.repeat)

    print(f"high-hand evaluation, {n:,} random hands (seed {args.seed}), best of {args.repeat} runs")
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'cpu'}")
    for size, rows in results.items():
        base = rows["treys"]
        print(f"\n{size}")
        for name, rate in rows.items():
            print(f"  {name:<50} {rate:>13,.0f} /s   {rate / base:6.2f}x treys")
    return 0


if __name__ == "__main__":
    sys.exit(main())
