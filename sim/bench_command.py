"""``table-bench`` (and ``tablectl bench``): play rounds on the bench rig, no hardware needed.

The shoe and the shuffler run on pseudo-terminals, the pins are gpiozero's ``MockFactory``, the
daemon runs with a temporary configuration, journal and socket, and a scripted dealer plays
rounds of the chosen house-banked game or of the poker room (``--game``, ``--variant``) through
the local API, printing what happens. Works without a display or root. docs/bench-rig.md.

The bench rig is its own distribution (``sim/pyproject.toml``, ``table-bench-rig``), never in the
product's wheel for the Pi. It gives the command twice: as the script ``table-bench``
(:func:`main`), and as a ``tablectl`` subcommand through the entry point group
``tablectl.commands`` (:func:`add_bench_command`), which ``tablectl`` discovers without importing
``sim``: on a Pi without the rig, ``tablectl`` simply has no ``bench``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from controller.cli_args import whole_number
from controller.rules.core.dispatch import did_you_mean

#: The games the bench rig deals, the house-banked ones and the poker room (``sim.bench_games`` has
#: a dealer for each).
BENCH_GAMES: Final = (
    "caribbean-stud",
    "holdem-bonus",
    "three-card-poker",
    "blackjack",
    "asia-poker",
    "fortune-asia-poker",
    "three-dice-football",
    "poker-room",
)
POKER_ROOM: Final = "poker-room"
#: The poker room's variants (docs/games/poker-room.md); ``--variant`` names one.
POKER_VARIANTS: Final = (
    "omaha-high",
    "omaha-high-low",
    "triple-draw-2-7",
    "triple-draw-a-5",
    "badeucey",
    "badacey",
    "badugi",
)


def bench_game(text: str) -> str:
    """An argparse ``type``: one of :data:`BENCH_GAMES`, else an error with a "did you mean"."""
    if text in BENCH_GAMES:
        return text
    hint = did_you_mean(text, BENCH_GAMES, 0.5)
    raise argparse.ArgumentTypeError(
        f"the bench rig deals no game {text!r}{hint} (games: {', '.join(BENCH_GAMES)})"
    )


def bench_variant(text: str) -> str:
    """An argparse ``type``: one of :data:`POKER_VARIANTS`, else an error with a "did you mean"."""
    if text in POKER_VARIANTS:
        return text
    hint = did_you_mean(text, POKER_VARIANTS, 0.5)
    raise argparse.ArgumentTypeError(
        f"the poker room deals no variant {text!r}{hint} (variants: {', '.join(POKER_VARIANTS)})"
    )


def cmd_bench(args: argparse.Namespace) -> int:
    from sim.bench_rig import display_present, run

    if args.variant and args.game != POKER_ROOM:
        print(
            f"table-bench: --variant is the poker room's (--game {POKER_ROOM}), not {args.game}'s",
            file=sys.stderr,
        )
        return 2
    if args.no_reader and args.game != POKER_ROOM:
        print(
            f"table-bench: --no-reader is the poker room's (--game {POKER_ROOM}): a house-banked table "
            "deals from its shoe",
            file=sys.stderr,
        )
        return 2
    directory = Path(args.keep) if args.keep is not None else None
    console = display_present() if args.console == "auto" else args.console == "yes"
    return int(
        run(
            args.rounds,
            args.seed,
            directory,
            game=args.game,
            console=console,
            link=args.link,
            variant=args.variant or "",
            card_reader=not args.no_reader,
        )
    )


def add_bench_command(sub: Any) -> None:
    """Add ``bench`` to ``tablectl``'s subcommands (``sub``: ``add_subparsers()``'s result)."""
    bench = sub.add_parser(
        "bench", help="play rounds of a game on the simulated bench rig (no hardware, no root)"
    )
    _add_arguments(bench)


def _add_arguments(bench: argparse.ArgumentParser) -> None:
    bench.add_argument(
        "--game",
        type=bench_game,
        default="caribbean-stud",
        metavar="NAME",
        help=f"the game to deal (default caribbean-stud; {', '.join(BENCH_GAMES)})",
    )
    bench.add_argument(
        "--variant",
        type=bench_variant,
        metavar="NAME",
        help=f"the poker room's variant (--game {POKER_ROOM}; default the example's): "
        + ", ".join(POKER_VARIANTS),
    )
    bench.add_argument(
        "--no-reader",
        action="store_true",
        help=f"--game {POKER_ROOM} at a table without a card reader (no shoe): the hands dealt face down "
        "and counted, the board and the hands shown keyed",
    )
    bench.add_argument(
        "--rounds",
        type=whole_number(),
        default=3,
        help="rounds to play (default 3; at Caribbean Stud the last of 3 or more has a shoe jam)",
    )
    bench.add_argument("--seed", type=int, help="the dealer's random seed, to repeat a run")
    bench.add_argument("--keep", metavar="DIR", help="keep the configuration and the journal in DIR")
    bench.add_argument(
        "--console",
        choices=("auto", "yes", "no"),
        default="auto",
        help="open the dealer's touchscreen (table-ui) beside the rig: auto = when a display is present",
    )
    bench.add_argument(
        "--link",
        action="store_true",
        help="Caribbean Stud on a progressive link: Mosquitto and the central meter beside the daemon; "
        "the meter moves at each lock-out and a last round's royal flush is paid from it",
    )
    bench.set_defaults(func=cmd_bench)


def main(argv: Sequence[str] | None = None) -> int:
    """``table-bench``: the same command without ``tablectl`` (``bash scripts/run`` runs it)."""
    parser = argparse.ArgumentParser(
        prog="table-bench",
        description="Play rounds of a game on the simulated bench rig (no hardware, no root).",
    )
    _add_arguments(parser)
    return cmd_bench(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
