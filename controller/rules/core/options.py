"""The Rules Submission's schema: options declared once, on the game's rules dataclass.

§ 601a.2 leaves choices to the certificate holder's Rules Submission (the
paytable, the optional wagers offered, meter reset amounts, payout limits, ...).
Each game declares them as fields of a frozen dataclass, each field carrying an
:func:`option` with its key, parser, default and the section it comes from::

    @dataclass(frozen=True)
    class CaribbeanStudRules:
        bonus_paytable: str = option("bonus.paytable", choice("A", "B", "C"), "A",
                                     section="§ 639a.12(c)")

:func:`load_rules` reads a mapping (a TOML table, a round record's ``rules``)
into that dataclass and lists *every* error at once, each naming the key, the
value and the rule it breaks; an unknown key gets a "did you mean".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Final, TypeVar

from .dispatch import did_you_mean
from .money import (
    Award,
    Cents,
    MeterShare,
    MoneyError,
    Odds,
    format_money,
    parse_award,
    parse_money,
    parse_odds,
)


class OptionError(ValueError):
    """One value that does not fit its option; the loader adds the key."""


class RulesError(ValueError):
    """Every problem found in a set of rules, one line each."""

    def __init__(self, where: str, problems: Iterable[str]) -> None:
        self.where = where
        self.problems = tuple(problems)
        super().__init__(self.__str__())

    def __str__(self) -> str:
        n = len(self.problems)
        head = f"{self.where}: {n} problem{'s' if n != 1 else ''}"
        return head + "".join(f"\n  - {p}" for p in self.problems)


Parser = Callable[[object], Any]
_META: Final = "table_controller_option"
_REQUIRED: Final = object()


@dataclass(frozen=True, slots=True)
class OptionSpec:
    key: str
    parse: Parser
    section: str
    help: str
    default: object


def option(
    key: str,
    parse: Parser,
    default: object = _REQUIRED,
    *,
    section: str,
    help: str = "",
) -> Any:
    """A dataclass field read from ``key`` (dotted for nested tables) by ``parse``.

    ``default`` is the value *before* parsing, as it would be written in the file
    (``"A"``, ``"10000.00"``); leave it out for an option the file must give.
    """
    spec = OptionSpec(key, parse, section, help, default)
    # Keyword-only, so required and defaulted options may come in any order.
    if default is _REQUIRED:
        return dataclasses.field(metadata={_META: spec}, kw_only=True)
    value = parse(default)
    if getattr(type(value), "__hash__", None) is None:
        # An immutable mapping (a paytable) is unhashable; dataclasses want a factory for it.
        return dataclasses.field(default_factory=lambda: value, metadata={_META: spec}, kw_only=True)
    return dataclasses.field(default=value, metadata={_META: spec}, kw_only=True)


def specs(rules_class: type) -> list[tuple[str, OptionSpec]]:
    """``(field name, spec)`` for each option of a rules dataclass, in declaration order."""
    out = []
    for f in dataclasses.fields(rules_class):
        spec = f.metadata.get(_META)
        if spec is None:
            raise TypeError(f"{rules_class.__name__}.{f.name} is not declared with option()")
        out.append((f.name, spec))
    return out


def flatten(
    mapping: Mapping[str, object], known: frozenset[str] = frozenset(), prefix: str = ""
) -> dict[str, object]:
    """``{"bonus": {"paytable": "A"}}`` -> ``{"bonus.paytable": "A"}``.

    A table whose dotted key is itself an option (a paytable written out) stays whole.
    """
    flat: dict[str, object] = {}
    for k, v in mapping.items():
        key = f"{prefix}{k}"
        if isinstance(v, Mapping) and key not in known:
            flat.update(flatten(v, known, key + "."))
        else:
            flat[key] = v
    return flat


T = TypeVar("T")


def load_rules(
    rules_class: type[T],
    values: Mapping[str, object],
    where: str,
    checks: Iterable[Callable[[T], Iterable[str]]] = (),
) -> T:
    """Build ``rules_class`` from ``values``; raise :class:`RulesError` listing every problem.

    ``checks`` run on the built rules for conditions between options (a limit
    against a paytable); each yields problem lines.
    """
    fields = specs(rules_class)
    known = frozenset(spec.key for _, spec in fields)
    flat = flatten(values, known)
    problems: list[str] = []
    for key in flat:
        if key not in known:
            hint = did_you_mean(key, sorted(known))
            problems.append(f"{key}: unknown option{hint}")
    kwargs: dict[str, object] = {}
    for name, spec in fields:
        if spec.key not in flat:
            if spec.default is _REQUIRED:
                problems.append(f"{spec.key}: missing; the Rules Submission must give it ({spec.section})")
            continue
        raw = flat[spec.key]
        try:
            kwargs[name] = spec.parse(raw)
        except (OptionError, MoneyError) as exc:
            problems.append(f"{spec.key} {_show(raw)}: {exc} ({spec.section})")
    if problems:
        raise RulesError(where, problems)
    rules = rules_class(**kwargs)
    for check in checks:
        problems.extend(check(rules))
    if problems:
        raise RulesError(where, problems)
    return rules


def _show(raw: object) -> str:
    return raw if isinstance(raw, str) and raw and " " not in raw else repr(raw)


# Parsers whose values are written back differently than ``_to_text`` would (money as "10000.00").
_WRITERS: dict[Parser, Callable[[Any], object]] = {}


def rules_to_mapping(rules: object) -> dict[str, object]:
    """The rules as a flat ``{key: value}`` mapping in file form, which loads back to the same rules."""
    out: dict[str, object] = {}
    for f in dataclasses.fields(rules):  # type: ignore[arg-type]
        spec: OptionSpec = f.metadata[_META]
        out[spec.key] = _WRITERS.get(spec.parse, _to_text)(getattr(rules, f.name))
    return out


def _to_text(value: object) -> object:
    if value is None:
        return "none"
    if isinstance(value, (Odds, MeterShare)):
        return str(value)
    if isinstance(value, Mapping):
        return {k: _to_text(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_to_text(v) for v in value]
    return value if not isinstance(value, Fraction) else str(value)


# --- parsers --------------------------------------------------------------------------------


def choice(*allowed: str) -> Parser:
    def parse(raw: object) -> str:
        if not isinstance(raw, str) or raw not in allowed:
            hint = did_you_mean(str(raw), allowed, 0.5)
            raise OptionError(f"must be one of {', '.join(map(repr, allowed))}{hint}")
        return raw

    return parse


def boolean(raw: object) -> bool:
    if not isinstance(raw, bool):
        raise OptionError("must be true or false")
    return raw


def integer(minimum: int | None = None, maximum: int | None = None) -> Parser:
    def parse(raw: object) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise OptionError("must be a whole number")
        if minimum is not None and raw < minimum:
            raise OptionError(f"is below the minimum of {minimum}")
        if maximum is not None and raw > maximum:
            raise OptionError(f"is above the maximum of {maximum}")
        return raw

    return parse


def money(minimum: Cents | None = None, minimum_rule: str = "", optional: bool = False) -> Parser:
    """An amount in dollars and cents, written as a string (``"10000.00"``).

    ``minimum_rule`` names where a regulatory minimum comes from, for the
    message ("the $10,000 minimum of § 639a.12(d)(3)").
    """

    def parse(raw: object) -> Cents | None:
        if optional and (raw is None or raw == ""):
            return None
        if isinstance(raw, float):
            raise OptionError('write money as a string such as "25.00", not a number with a point')
        cents = parse_money(raw if isinstance(raw, (str, int)) else repr(raw), "the amount")
        if minimum is not None and cents < minimum:
            rule = minimum_rule or f"the minimum of ${format_money(minimum)}"
            raise OptionError(f"is below {rule}")
        return cents

    _WRITERS[parse] = lambda cents: "" if cents is None else format_money(cents)
    return parse


def odds(minimum: Odds | None = None, minimum_rule: str = "") -> Parser:
    """Odds such as ``"5 to 1"``; ``minimum`` compares what one unit wins."""

    def parse(raw: object) -> Odds:
        if not isinstance(raw, str):
            raise OptionError('odds are written as a string such as "5 to 1"')
        value = parse_odds(raw, "the odds")
        if minimum is not None and _unit_win(value) < _unit_win(minimum):
            raise OptionError(f"is below {minimum_rule or f'the minimum of {minimum}'}")
        return value

    return parse


def _unit_win(o: Odds) -> Fraction:
    """What one unit wins, the unit not counted: "5 to 1" -> 5, "500 for 1" -> 499."""
    return Fraction(o.pays, o.per) - (1 if o.kind == "for" else 0)


def paytable(rows: Iterable[str]) -> Parser:
    """A paytable written out in the file: ``{hand name = "award", ...}`` for exactly ``rows``.

    For paytables the text leaves to the Rules Submission (Hit and Run,
    § 633a.13(l)); a row may be ``"none"`` where the hand pays nothing.
    """
    names = tuple(rows)

    def parse(raw: object) -> Mapping[str, Award | None]:
        if not isinstance(raw, Mapping):
            raise OptionError(f"must be a table of {', '.join(names)}")
        out: dict[str, Award | None] = {}
        bad = [k for k in raw if k not in names]
        if bad:
            hint = did_you_mean(str(bad[0]), names, 0.5)
            raise OptionError(f"has no hand {bad[0]!r}{hint} (hands: {', '.join(names)})")
        missing = [n for n in names if n not in raw]
        if missing:
            raise OptionError(f"is missing {', '.join(missing)}")
        for n in names:
            v = raw[n]
            if v == "none":
                out[n] = None
            elif isinstance(v, str):
                out[n] = parse_award(v, n)
            else:
                raise OptionError(f'{n} = {v!r}: write an award such as "50 to 1" or "10% of meter"')
        return MappingProxyType(out)

    return parse


def rate_of_progression(raw: object) -> str | None:
    """A rate of progression: the percent of each progressive wager added to the meter (``"18%"``).

    The texts leave it to the Rules Submission (e.g. § 639a.12(d)(3), § 633a.13(m)(2)); the
    central meter applies it, so it is kept as written. Absent (``None``, ``""`` or ``"none"``,
    as :func:`rules_to_mapping` writes it): ``None``.
    """
    if raw is None or raw in ("", "none"):
        return None
    if isinstance(raw, bool) or not isinstance(raw, (str, int)):
        raise OptionError('must be a percentage written as a string such as "18%"')
    written = str(raw).strip().removesuffix("%").strip()
    try:
        pct = Fraction(written)
    except (ValueError, ZeroDivisionError):
        raise OptionError('must be a percentage such as "18%"') from None
    if not 0 < pct <= 100:
        raise OptionError("must be more than 0% and at most 100% of the wager")
    return f"{written}%"


def text(raw: object) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise OptionError("must be a non-empty string")
    return raw
