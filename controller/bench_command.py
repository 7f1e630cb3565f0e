"""``tablectl bench``: play rounds on the bench rig (``sim/bench_rig.py``), no hardware needed.

The shoe and the shuffler run on pseudo-terminals, the pins are gpiozero's ``MockFactory``, the
daemon runs with a temporary configuration, journal and socket, and a scripted dealer plays
Caribbean Stud rounds through the local API, printing what happens. Works without a display or
root. ``sim`` is imported only when the command runs: the product never needs it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .cli_args import whole_number


def cmd_bench(args: argparse.Namespace) -> int:
    from sim.bench_rig import run

    directory = Path(args.keep) if args.keep is not None else None
    return run(args.rounds, args.seed, directory)


def add_bench_command(sub: Any) -> None:
    """Add ``bench`` to ``tablectl``'s subcommands (``sub``: ``add_subparsers()``'s result)."""
    bench = sub.add_parser(
        "bench", help="play Caribbean Stud rounds on the simulated bench rig (no hardware, no root)"
    )
    bench.add_argument(
        "--rounds",
        type=whole_number(),
        default=3,
        help="rounds to play (default 3; the last of 3 or more has a shoe jam)",
    )
    bench.add_argument("--seed", type=int, help="the dealer's random seed, to repeat a run")
    bench.add_argument("--keep", metavar="DIR", help="keep the configuration and the journal in DIR")
    bench.set_defaults(func=cmd_bench)
