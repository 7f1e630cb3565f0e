"""The settlement of a game of Three Dice Football (ch. 661a): each down's single play wagers as
thrown, then the full game wagers by the game's end, in the table's order (§ 661a.6, § 661a.8)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...core.settlement import Outcome, Result, Settlement
from .field import NAME, End, GameResult
from .rules import (
    GAME_LENGTHS,
    WAGER_SECTIONS,
    WAGERS,
    Award,
    full_game_award,
    single_play_award,
)
from .state import Down, FootballState, Wager, dice_next

# --- settlement ------------------------------------------------------------------------------


def _outcome(wager: Wager, key: str, award: Award, hand: str) -> Outcome:
    if award.odds is None:
        return Outcome(
            wager.seat,
            key,
            wager.stake,
            Result.LOSE,
            -wager.stake,
            hand,
            WAGER_SECTIONS[wager.name],
            award.why,
        )
    return Outcome(
        wager.seat,
        key,
        wager.stake,
        Result.WIN,
        award.odds.net(wager.stake),
        hand,
        WAGER_SECTIONS[wager.name],
        f"{award.why}: {award.odds}",
    )


def _table_order(wagers: Iterable[Wager]) -> list[Wager]:
    """From the dealer's right (the highest seat) counterclockwise; within a seat, § 661a.3's order."""
    return sorted(wagers, key=lambda w: (-w.seat, WAGERS.index(w.name)))


def down_outcomes(down: Down) -> tuple[Outcome, ...]:
    """The single play wagers a down decided, in the order settled (§ 661a.6(d))."""
    hand = f"play {down.play}: {down.roll}"
    return tuple(
        _outcome(w, f"{w.name}@{down.play}", single_play_award(w.name, down.roll), hand)
        for w in _table_order(down.wagers)
    )


def settle_game(state: FootballState, result: GameResult) -> Settlement:
    outcomes: list[Outcome] = []
    # § 661a.6(d): after each down but the last, its single play wagers.
    for down in state.downs[:-1]:
        outcomes.extend(down_outcomes(down))
    last = state.downs[-1]
    hand = str(result)
    xp_hand = hand
    if state.extra_point is not None:
        xp_hand += f"; extra point roll {'-'.join(map(str, state.extra_point.dice))}"

    def full(names: Sequence[str]) -> list[Outcome]:
        return [
            _outcome(
                w,
                w.name,
                full_game_award(w.name, result, state.extra_point),
                xp_hand if w.name == "extra_point" else hand,
            )
            for w in _table_order(w for w in state.full_game if w.name in names)
        ]

    rest = ("quick_strike_td", "game_changer", *GAME_LENGTHS)
    if result.end.scored:
        # § 661a.6(f)(1): collect the Defense Wagers; settle the single play wagers and the full
        # game wagers but Touchdown and Extra Point; the extra point roll; pay the Touchdown
        # Wagers; settle the Extra Point Wagers.
        outcomes += full(("defense",))
        outcomes += down_outcomes(last)
        outcomes += full(rest)
        outcomes += full(("touchdown",))
        outcomes += full(("extra_point",))
    else:
        # § 661a.6(f)(2): collect the Touchdown and Extra Point Wagers, pay the Defense Wagers,
        # then the single play wagers and the remaining full game wagers.
        outcomes += full(("touchdown", "extra_point"))
        outcomes += full(("defense",))
        outcomes += down_outcomes(last)
        outcomes += full(rest)
    return Settlement(NAME, tuple(outcomes), {}, _dealer_words(state, result))


def _dealer_words(state: FootballState, result: GameResult) -> str:
    words = [str(result)[0].upper() + str(result)[1:]]
    if result.end is End.TURNOVER_ON_DOWNS or result.end is End.TURNOVER:
        words[0] += f", {state.field.marker} yards to the end zone"
    if state.extra_point is not None:
        words.append(f"extra point roll {'-'.join(map(str, state.extra_point.dice))}")
    for irr in state.irregularities:
        words.append(f"{irr.at}: {irr.kind.replace('_', ' ')} ({irr.section})")
    how, seat = dice_next(state)
    if how == "retain":
        words.append(f"the Quarterback, seat {seat}, retains the dice (§ 661a.7(a))")
    else:
        words.append(
            f"the dice are offered to the player left of the Quarterback, seat {state.quarterback}: "
            f"seat {seat} first, then clockwise (§ 661a.7(a))"
        )
    return "; ".join(words)
