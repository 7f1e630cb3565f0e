"""The Rules Submission file: one TOML file per table (§ 601a.2).

::

    # Rules Submission for table CS-3
    table = "CS-3"
    game = "caribbean-stud"

    [rules]                 # the game's options: docs/rules-submission.md
    bonus.offered = true
    bonus.paytable = "B"

Every problem in the file is listed at once (:class:`~.options.RulesError`),
each naming the key, the value and the section it breaks.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .dispatch import did_you_mean
from .engine import Game
from .options import RulesError, load_rules

_TOP = ("table", "game", "rules")


@dataclass(frozen=True)
class Submission:
    table: str
    game: Game[Any, Any]
    rules: object


def parse_submission(text: str, games: Mapping[str, Game[Any, Any]], where: str) -> Submission:
    """Read a Rules Submission from TOML ``text``; ``where`` names the file in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(where, [f"not valid TOML: {exc}"]) from None
    except RecursionError:
        # tomllib recurses once per level of nesting: thousands of "[" exhaust the stack.
        too_deep = "not a usable Rules Submission: arrays or tables nested too deeply"
        raise RulesError(where, [too_deep]) from None
    problems: list[str] = []
    for key in data:
        if key not in _TOP:
            hint = did_you_mean(key, _TOP)
            problems.append(f"{key}: unknown key{hint} (the game's options go under [rules])")
    table = data.get("table")
    if not isinstance(table, str) or not table.strip():
        problems.append('table: missing; name the table, e.g. table = "CS-3"')
    name = data.get("game")
    game = games.get(name) if isinstance(name, str) else None
    if game is None:
        hint = did_you_mean(str(name), list(games), 0.5)
        problems.append(
            f"game {name!r}: not a game of this controller{hint} (games: {', '.join(sorted(games))})"
        )
    rules_raw = data.get("rules", {})
    if not isinstance(rules_raw, Mapping):
        problems.append("rules: must be a table, [rules]")
        rules_raw = {}
    rules: object = None
    if game is not None:
        try:
            rules = load_rules(game.rules_class, rules_raw, where, game.rules_checks)
        except RulesError as exc:
            problems.extend(f"rules.{p}" if not p.startswith("rules.") else p for p in exc.problems)
    if problems:
        raise RulesError(where, problems)
    assert game is not None and isinstance(table, str)
    return Submission(table, game, rules)
