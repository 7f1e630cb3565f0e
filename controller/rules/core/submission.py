"""The Rules Submission file: one TOML file per table (§ 601a.2).

::

    # Rules Submission for table CS-3
    table = "CS-3"
    game = "caribbean-stud"

    [rules]                 # the game's options: docs/rules-submission.md
    bonus.offered = true
    bonus.paytable = "B"

    [limits]                # the table's minimum and maximum of each wager the dealer enters
    ante = { minimum = "5.00", maximum = "500.00" }

Every problem in the file is listed at once (:class:`~.options.RulesError`),
each naming the key, the value and the section it breaks.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .dispatch import did_you_mean
from .engine import Game
from .money import Cents, MoneyError, format_money, parse_money
from .options import RulesError, load_rules

_TOP = ("table", "game", "rules", "limits")
_LIMIT_KEYS = ("minimum", "maximum")


@dataclass(frozen=True)
class WagerLimits:
    """The table's minimum and maximum of one wager (the posted table limits, § 601a.2's Rules
    Submission); ``None``: no limit that way."""

    minimum: Cents | None = None
    maximum: Cents | None = None

    def refusal(self, seat: int | None, wager: str, amount: Cents) -> str | None:
        """Why ``amount`` is not a ``wager`` at this table (below its minimum, above its
        maximum), in words; ``None`` if it is within them."""
        if self.minimum is not None and amount < self.minimum:
            return (
                f"seat {seat} {wager} ${format_money(amount)}: below the table minimum of "
                f"${format_money(self.minimum)} (the Rules Submission's limits.{wager})"
            )
        if self.maximum is not None and amount > self.maximum:
            return (
                f"seat {seat} {wager} ${format_money(amount)}: above the table maximum of "
                f"${format_money(self.maximum)} (the Rules Submission's limits.{wager})"
            )
        return None

    def to_json(self) -> dict[str, str | None]:
        return {
            "minimum": None if self.minimum is None else format_money(self.minimum),
            "maximum": None if self.maximum is None else format_money(self.maximum),
        }


@dataclass(frozen=True)
class Submission:
    table: str
    game: Game[Any, Any]
    rules: object
    limits: Mapping[str, WagerLimits] = field(default_factory=dict)
    """The table's minimum and maximum of each wager the dealer enters (``[limits]``)."""


def _limits(raw: object, wagers: tuple[str, ...], problems: list[str]) -> dict[str, WagerLimits]:
    """``[limits]``: ``<wager> = { minimum = "5.00", maximum = "500.00" }`` for wagers the dealer
    enters (a sensor's progressive wager is one chip of ``<wager>.wager``, never a limit here)."""
    if not isinstance(raw, Mapping):
        problems.append('limits: must be a table, [limits], such as ante = { minimum = "5.00" }')
        return {}
    out: dict[str, WagerLimits] = {}
    for wager, both in raw.items():
        where = f"limits.{wager}"
        if wager not in wagers:
            hint = did_you_mean(wager, wagers)
            problems.append(
                f"{where}: not a wager the dealer enters at this game{hint} ({', '.join(wagers)})"
            )
            continue
        if not isinstance(both, Mapping) or not both:
            problems.append(f'{where}: give minimum and/or maximum, such as {{ minimum = "5.00" }}')
            continue
        amounts: dict[str, Cents] = {}
        for key, value in both.items():
            if key not in _LIMIT_KEYS:
                problems.append(
                    f"{where}.{key}: unknown key{did_you_mean(key, _LIMIT_KEYS)} (minimum, maximum)"
                )
                continue
            try:
                if not isinstance(value, str):
                    raise MoneyError(f'{where}.{key}: money as a string, such as "5.00", not {value!r}')
                amounts[key] = parse_money(value, f"{where}.{key}")
            except MoneyError as exc:
                problems.append(str(exc))
                continue
            if amounts[key] <= 0:
                problems.append(f"{where}.{key} {value}: a limit is more than 0.00")
        low, high = amounts.get("minimum"), amounts.get("maximum")
        if low is not None and high is not None and low > high:
            problems.append(
                f"{where}: the minimum {format_money(low)} is above the maximum {format_money(high)}"
            )
        out[wager] = WagerLimits(low, high)
    return out


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
    limits: dict[str, WagerLimits] = {}
    if game is not None and rules is not None and "limits" in data:
        entered = tuple(t.name for t in game.vocabulary(rules).wagers)
        limits = _limits(data["limits"], entered, problems)
    if problems:
        raise RulesError(where, problems)
    assert game is not None and isinstance(table, str)
    return Submission(table, game, rules, limits)
