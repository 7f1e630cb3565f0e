"""``tablectl``: the technician's command line.

Over SSH at 3 a.m. a slot tech needs plain answers and plain errors: every
command prints what it did, every bad input says what is wrong and where,
and the exit status is 0 for success, 1 for a failed check and 2 for bad
input or usage.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from collections.abc import Callable, Mapping, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from random import Random

from .. import __version__, demo
from ..cli_args import whole_number
from ..rules.core.cards import Card, CardError, format_cards, parse_cards
from ..rules.core.explain import explain
from ..rules.core.hand import HandValue, Ranking
from ..rules.core.options import RulesError, rules_to_mapping
from ..rules.core.record import RecordError, load_record, replay
from ..rules.core.submission import parse_submission
from ..rules.games import GAMES
from ..rules.games.three_dice_football.odds import analyze, format_table
from ..rules.rankings import RANKINGS, UnknownRanking, get_ranking
from .common import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK
from .daemon import add_daemon_commands, check_daemon_config, is_daemon_config
from .link import add_link_commands

#: The entry point group of optional subcommands from other distributions installed beside the
#: product: the bench rig's ``bench`` (``sim/pyproject.toml``). Found by name, never imported
#: here, so the product carries no import of them (docs/architecture.md).
COMMAND_PLUGINS = "tablectl.commands"


class InputError(Exception):
    """Bad input from the command line; the message says what and where."""


def _ranking(name: str) -> Ranking:
    try:
        return get_ranking(name)
    except UnknownRanking as exc:
        raise InputError(str(exc)) from None


def _hand(ranking: Ranking, text: str, which: str) -> tuple[Card, ...]:
    try:
        return parse_cards(text, decks=ranking.decks, allow_joker=ranking.joker)
    except CardError as exc:
        raise InputError(f"{which} {text!r}: {exc}") from None


def _evaluate(ranking: Ranking, cards: Sequence[Card], board: Sequence[Card], which: str) -> HandValue:
    try:
        return ranking.evaluate(cards, board)
    except CardError as exc:
        raise InputError(f"{which}: {exc}") from None


def _board(ranking: Ranking, text: str | None) -> tuple[Card, ...]:
    if ranking.board_sizes and text is None:
        sizes = " or ".join(map(str, ranking.board_sizes))
        raise InputError(f"{ranking.name} needs --board with {sizes} community cards")
    if text is None:
        return ()
    return _hand(ranking, text, "--board")


def cmd_hand_rank(args: argparse.Namespace) -> int:
    ranking = _ranking(args.ranking)
    board = _board(ranking, args.board)
    value = _evaluate(ranking, _hand(ranking, args.cards, "hand"), board, "hand")
    if args.json:
        print(json.dumps(value.to_json()))
    else:
        print(f"{value.words}  [{format_cards(value.cards)}]  ({ranking.name}, {ranking.section})")
    return EXIT_OK


def cmd_hand_compare(args: argparse.Namespace) -> int:
    ranking = _ranking(args.ranking)
    board = _board(ranking, args.board)
    if len(args.hands) < 2:
        raise InputError("compare needs at least two hands")
    seen: list[Card] = list(board)
    values: list[HandValue] = []
    for i, text in enumerate(args.hands, start=1):
        cards = _hand(ranking, text, f"hand {i}")
        seen.extend(cards)
        values.append(_evaluate(ranking, cards, board, f"hand {i}"))
    try:
        # The hands are dealt from the same deck(s): a card may not be in two of them.
        parse_cards([str(c) for c in seen], decks=ranking.decks, allow_joker=ranking.joker)
    except CardError as exc:
        raise InputError(f"the hands cannot come from one deal: {exc}") from None
    best = max(values)
    winners = [i for i, value in enumerate(values, start=1) if value == best]
    if args.json:
        print(json.dumps({"ranking": ranking.name, "hands": [v.to_json() for v in values], "best": winners}))
        return EXIT_OK
    print(f"{ranking.name} ({ranking.section})" + (f", board {format_cards(board)}" if board else ""))
    width = max(len(h) for h in args.hands)
    for i, (text, value) in enumerate(zip(args.hands, values, strict=True), start=1):
        mark = "  <- best" if i in winners else ""
        print(f"  {i}. {text:<{width}}  {value.words}{mark}")
    if len(winners) == 1:
        print(f"hand {winners[0]} wins")
    else:
        print("tie between hands " + ", ".join(map(str, winners)))
    return EXIT_OK


def cmd_hand_rankings(args: argparse.Namespace) -> int:
    width = max(map(len, RANKINGS))
    for name in sorted(RANKINGS):
        r = RANKINGS[name]
        cards = f"{_sizes(r.hand_sizes)} cards"
        if r.board_sizes:
            cards += f" + board {_sizes(r.board_sizes)}"
        print(f"{name:<{width}}  {cards:<20} {r.section}")
        print(f"{'':<{width}}  {r.summary}")
    return EXIT_OK


def _sizes(sizes: Sequence[int]) -> str:
    """``"5"``, ``"1/2/4"``, ``"2-22"``."""
    if len(sizes) > 3 and list(sizes) == list(range(sizes[0], sizes[-1] + 1)):
        return f"{sizes[0]}-{sizes[-1]}"
    return "/".join(map(str, sizes))


def _read(path: str, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read {what} {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{what} {path} is not UTF-8 text") from None


def cmd_check(args: argparse.Namespace) -> int:
    text = _read(args.file, "Rules Submission")
    if is_daemon_config(text):
        return check_daemon_config(args.file)
    try:
        sub = parse_submission(text, GAMES, args.file)
    except RulesError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_FAILED
    print(f"{args.file}: table {sub.table}, {sub.game.title} ({sub.game.chapter}): valid")
    for key, value in rules_to_mapping(sub.rules).items():
        print(f"  {key} = {_option_text(value)}")
    return EXIT_OK


def _option_text(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} = {_option_text(v)}" for k, v in value.items()) + "}"
    return json.dumps(value) if not isinstance(value, str) else f'"{value}"'


def cmd_replay(args: argparse.Namespace) -> int:
    text = _read(args.record, "round record")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{args.record}: not JSON: {exc}") from None
    try:
        record = load_record(data, GAMES, args.record)
        settlement = replay(record)
    except RecordError as exc:
        raise InputError(str(exc)) from None
    if args.explain:
        for line in explain(record, settlement):
            print(line)
    else:
        print(json.dumps(settlement.to_json(), indent=2))
    return EXIT_OK


def cmd_analyze(args: argparse.Namespace) -> int:
    # One game has an analyzer today; argparse's choices name it.
    print(format_table(analyze()))
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    rng = Random(seed)
    print(f"tablectl demo: {args.rounds} deal(s) of each game's showdown, seed {seed}")
    for line in demo.showdowns(rng, args.rounds):
        print(line)
    return EXIT_OK


def cmd_version(args: argparse.Namespace) -> int:
    print(f"tablectl {__version__}")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tablectl", description="Table controller: the technician's tool.")
    parser.add_argument("--version", action="version", version=f"tablectl {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    hand = sub.add_parser("hand", help="rank and compare hands under any ranking of the rules")
    hand_sub = hand.add_subparsers(dest="hand_command", required=True, metavar="ACTION")

    rank = hand_sub.add_parser("rank", help="the value of one hand")
    rank.add_argument("--ranking", "-r", default="high", help="ranking name (see 'tablectl hand rankings')")
    rank.add_argument("--board", "-b", help="community cards, for rankings that use a board (Omaha)")
    rank.add_argument("--json", action="store_true", help="print JSON")
    rank.add_argument("cards", help='the cards, e.g. "As Td 2c 9h 9d"')
    rank.set_defaults(func=cmd_hand_rank)

    compare = hand_sub.add_parser("compare", help="which of two or more hands wins")
    compare.add_argument(
        "--ranking", "-r", default="high", help="ranking name (see 'tablectl hand rankings')"
    )
    compare.add_argument("--board", "-b", help="community cards shared by the hands (Omaha)")
    compare.add_argument("--json", action="store_true", help="print JSON")
    compare.add_argument("hands", nargs="+", help="each hand as one quoted argument")
    compare.set_defaults(func=cmd_hand_compare)

    rankings = hand_sub.add_parser("rankings", help="list the rankings and their sections")
    rankings.set_defaults(func=cmd_hand_rankings)

    check = sub.add_parser(
        "check", help="validate a Rules Submission or the daemon's configuration without starting anything"
    )
    check.add_argument("file", help="the table's Rules Submission or the daemon's configuration (TOML)")
    check.set_defaults(func=cmd_check)

    replay_p = sub.add_parser("replay", help="replay a round record to its settlement")
    replay_p.add_argument("record", help="a round record (JSON, docs/round-record.md)")
    replay_p.add_argument("--explain", action="store_true", help="a readable reconstruction citing sections")
    replay_p.set_defaults(func=cmd_replay)

    analyze_p = sub.add_parser(
        "analyze", help="each wager's exact probability of winning and house edge, by enumeration"
    )
    analyze_p.add_argument("game", choices=["three-dice-football"], help="the game to analyze")
    analyze_p.set_defaults(func=cmd_analyze)

    demo_p = sub.add_parser("demo", help="deal random showdowns of every game and rank them")
    demo_p.add_argument("--rounds", type=whole_number(), default=1, help="deals per game (default 1)")
    demo_p.add_argument("--seed", type=int, help="shuffle seed, to repeat a demo")
    demo_p.set_defaults(func=cmd_demo)

    add_daemon_commands(sub)
    add_link_commands(sub)
    _add_plugin_commands(sub)

    version = sub.add_parser("version", help="print the version")
    version.set_defaults(func=cmd_version)
    return parser


def _add_plugin_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Each installed plugin adds its subcommands; a broken one is named on stderr and skipped, so
    a slot tech's ``tablectl status`` never fails because of a bench tool."""
    for plugin in sorted(entry_points(group=COMMAND_PLUGINS), key=lambda p: p.name):
        try:
            add: Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None] = plugin.load()
            add(sub)
        except Exception as exc:  # a plugin is not ours to trust: say what failed and go on
            print(
                f"tablectl: warning: command plugin {plugin.name!r} ({plugin.value}): {exc}", file=sys.stderr
            )


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except InputError as exc:
        print(f"tablectl: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader went away (``tablectl check FILE | head``): not a fault of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
