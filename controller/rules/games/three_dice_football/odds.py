"""Three Dice Football's odds, exactly: each wager's chance of winning and the house edge.

Nothing is sampled. A throw is one of 216 equally likely ``[green, green, red]`` faces; each is
read by the game's own rules (:meth:`Roll.kind <.three_dice_football.Roll.kind>`,
:meth:`Field.after <.three_dice_football.Field.after>`), so the figures are the figures of the
game the controller settles. The game is a Markov chain on the field (Yard Marker, down, 1st &
Goal, play): from the kickoff every reachable field is carried forward throw by throw with
:class:`fractions.Fraction` probabilities until every game has ended, which takes at most six
throws (asserted). Each wager is then paid by the same functions the settlement uses
(:func:`~.three_dice_football.full_game_award`, :func:`~.three_dice_football.single_play_award`),
the extra point roll again over its 216 faces.

The house edge is what the house keeps per unit wagered: ``1 - E[stake returned + winnings]``,
for a full game wager per game (an Extra Point Wager included, which loses without a
touchdown), for a single play wager per throw. Payouts are taken unrounded (the settlement
rounds a payout down to the cent; "4 to 5" on a stake that is not a multiple of 5 cents is the
one place that matters).

``tablectl analyze three-dice-football`` prints :func:`format_table` of :func:`analyze`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal

from ...core.money import Odds
from .game import (
    FULL_GAME_WAGERS,
    MAX_PLAYS,
    SINGLE_PLAY_WAGERS,
    WAGER_SECTIONS,
    WAGER_TITLES,
    Award,
    Field,
    GameResult,
    Kind,
    Roll,
    all_rolls,
    full_game_award,
    single_play_award,
)

THROWS: Final = 216


@dataclass(frozen=True, slots=True)
class Line:
    """One outcome of a wager: why, the odds it pays (``None``: it loses) and its probability."""

    why: str
    odds: Odds | None
    probability: Fraction

    @property
    def net(self) -> Fraction:
        """What one unit wins (the unit returned besides), or -1 when it loses."""
        if self.odds is None:
            return Fraction(-1)
        win = Fraction(self.odds.pays, self.odds.per)
        return win if self.odds.kind == "to" else win - 1


@dataclass(frozen=True, slots=True)
class WagerOdds:
    """One row of the analysis: a wager and the probabilities of its outcomes."""

    wager: str
    title: str
    section: str
    per: Literal["game", "throw"]
    lines: tuple[Line, ...]

    @property
    def p_win(self) -> Fraction:
        return sum((ln.probability for ln in self.lines if ln.odds is not None), Fraction(0))

    @property
    def expected(self) -> Fraction:
        """The player's expected result per unit wagered."""
        return sum((ln.probability * ln.net for ln in self.lines), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        return -self.expected

    @property
    def pays(self) -> str:
        seen: list[str] = []
        for ln in self.lines:
            if ln.odds is not None and str(ln.odds) not in seen:
                seen.append(str(ln.odds))
        return ", ".join(seen)


def throw_classes() -> tuple[tuple[Roll, int], ...]:
    """The 216 throws grouped by what they do on the field: a representative throw and how many.

    :meth:`Field.after` reads a throw only through its kind and its yards, so throws alike in
    both move every field alike.
    """
    groups: dict[tuple[Kind, int], tuple[Roll, int]] = {}
    for roll in all_rolls():
        key = (roll.kind, roll.yards)
        first, count = groups.get(key, (roll, 0))
        groups[key] = (first, count + 1)
    return tuple(groups.values())


def game_results() -> Mapping[GameResult, Fraction]:
    """The probability of each way a game ends (how, on which play), from the kickoff."""
    fields: dict[Field, Fraction] = {Field(): Fraction(1)}
    results: dict[GameResult, Fraction] = {}
    classes = throw_classes()
    for play in range(1, MAX_PLAYS + 1):
        carried: dict[Field, Fraction] = {}
        for field, p in fields.items():
            for roll, count in classes:
                after, end = field.after(roll)
                q = p * Fraction(count, THROWS)
                if end is None:
                    carried[after] = carried.get(after, Fraction(0)) + q
                else:
                    key = GameResult(end, play)
                    results[key] = results.get(key, Fraction(0)) + q
        fields = carried
    if fields:  # § 661a.6(e): three downs, and three more after a 1st & Goal
        raise AssertionError(f"games still running after {MAX_PLAYS} plays: {sorted(map(str, fields))}")
    return results


def _lines(outcomes: Iterable[tuple[Award, Fraction]]) -> tuple[Line, ...]:
    acc: dict[tuple[str, Odds | None], Fraction] = {}
    for award, p in outcomes:
        key = (award.why, award.odds)
        acc[key] = acc.get(key, Fraction(0)) + p
    lines = [Line(why, odds, p) for (why, odds), p in acc.items()]
    lines.sort(key=lambda ln: (ln.odds is None, -ln.net))
    return tuple(lines)


def analyze() -> tuple[WagerOdds, ...]:
    """Every wager of § 661a.3 at the odds of § 661a.8: its outcomes, chance and house edge."""
    results = game_results()
    rolls = all_rolls()
    each = Fraction(1, THROWS)
    rows: list[WagerOdds] = []
    for wager in FULL_GAME_WAGERS:
        outcomes: list[tuple[Award, Fraction]] = []
        for result, p in results.items():
            if wager == "extra_point" and result.end.scored:
                outcomes += [(full_game_award(wager, result, xp), p * each) for xp in rolls]
            else:
                outcomes.append((full_game_award(wager, result), p))
        rows.append(WagerOdds(wager, WAGER_TITLES[wager], WAGER_SECTIONS[wager], "game", _lines(outcomes)))
    for wager in SINGLE_PLAY_WAGERS:
        lines = _lines((single_play_award(wager, roll), each) for roll in rolls)
        rows.append(WagerOdds(wager, WAGER_TITLES[wager], WAGER_SECTIONS[wager], "throw", lines))
    return tuple(rows)


def game_length_distribution() -> Mapping[int, Fraction]:
    """The probability that a game lasts exactly 1, 2, ... 6 plays."""
    out = {n: Fraction(0) for n in range(1, MAX_PLAYS + 1)}
    for result, p in game_results().items():
        out[result.plays] += p
    return out


def _fixed(value: Fraction, places: int) -> str:
    """``value`` rounded to ``places`` decimals, exactly (no floats)."""
    scaled = round(value * 10**places)
    sign = "-" if scaled < 0 else ""
    whole, frac = divmod(abs(scaled), 10**places)
    return f"{sign}{whole}.{frac:0{places}d}"


def format_table(rows: Sequence[WagerOdds]) -> str:
    """The analysis as text: a summary line per wager, then each wager's outcomes."""
    out = [
        "Three Dice Football (58 Pa. Code ch. 661a): exact odds, 216 equally likely throws",
        "House edge per unit wagered: full game wagers per game, single play wagers per throw.",
        "",
        f"{'Wager':<31} {'per':<5} {'pays':<34} {'P(win)':>10} {'house edge':>11}",
    ]
    for row in rows:
        out.append(
            f"{row.title:<31} {row.per:<5} {row.pays:<34} {_fixed(row.p_win, 6):>10}"
            f" {_fixed(row.house_edge * 100, 4) + '%':>11}"
        )
    out += ["", "Outcomes (probabilities exact; each wager's sum to 1):"]
    for row in rows:
        out.append(f"{row.title} ({row.section}):")
        for ln in row.lines:
            pays = str(ln.odds) if ln.odds is not None else "loses"
            out.append(f"  {ln.why:<58} {pays:<8} {_fixed(ln.probability, 10):>12}  {ln.probability}")
    return "\n".join(out) + "\n"
