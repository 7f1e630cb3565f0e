"""What the dealer's screen offers for each game the daemon deals: the wagers the dealer enters,
the decisions, the irregularities, in the regulations' words and with their sections.

The screen only offers; the daemon's rules core decides. A decision offered here that the round
does not allow is refused by the daemon with its section, and the screen shows that refusal. The
wager and decision names are the local API's (``docs/local-api.md``, ``docs/games/``).
Progressive wagers are never offered here: only a seat's sensor may say one was made (design,
"who may say what"; § 639a.8(b)).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Choice:
    """One button: what the wire says (``name``), what the dealer reads (``title``), and why."""

    name: str
    title: str
    section: str


@dataclass(frozen=True)
class GameScreen:
    """One game's screen: its title, seats, the dealer-entered wagers, the decisions, the
    irregularities; ``start``: how the starting position may be given, by the Rules Submission's
    choice (§ 659a.5(g)): the shaker's ``dice``, or a ``position`` 1-7 (the random number
    generator's, or the button's); ``dice_game``: the throws are
    entered (Three Dice Football)."""

    game: str
    title: str
    seats: int
    wagers: tuple[Choice, ...]
    decisions: tuple[Choice, ...]
    irregularities: tuple[Choice, ...]
    sets_hands: bool = False
    start: tuple[str, ...] = ()
    dice_game: bool = False


_CARD_IRREGULARITIES: Final = (
    Choice("shoe_jam", "Shoe jammed", "§ 639a.13(f)"),
    Choice("shuffler_jam", "Shuffler jammed", "§ 639a.13(e)"),
    Choice("card_face_up", "Card face up", "§ 639a.13(a)"),
    Choice("card_drawn_in_error", "Card drawn in error", "§ 639a.13(b)"),
    Choice("wrong_card_count", "Wrong card count", "§ 639a.13(c)"),
)


def _with_sections(chapter: str, *kinds: tuple[str, str, str]) -> tuple[Choice, ...]:
    return tuple(Choice(name, title, f"§ {chapter}.{sub}") for name, title, sub in kinds)


SCREENS: Final[Mapping[str, GameScreen]] = {
    s.game: s
    for s in (
        GameScreen(
            "caribbean-stud",
            "Caribbean Stud Poker",
            7,
            (Choice("ante", "Ante", "§ 639a.7(a)"), Choice("bonus", "Bonus", "§ 639a.7(b)")),
            (Choice("bet", "Bet", "§ 639a.11(b)"), Choice("fold", "Fold", "§ 639a.11(b)")),
            (*_CARD_IRREGULARITIES, Choice("hole_card_exposed", "Dealer card exposed", "§ 639a.13(d)")),
        ),
        GameScreen(
            "three-card-poker",
            "Three Card Poker",
            7,
            (
                Choice("ante", "Ante", "§ 649a.7"),
                Choice("pair_plus", "Pair Plus", "§ 649a.7"),
                Choice("six_card_bonus", "Six Card Bonus", "§ 649a.7"),
            ),
            (Choice("play", "Play", "§ 649a.11(b)"), Choice("fold", "Fold", "§ 649a.11(b)")),
            _with_sections(
                "649a",
                ("shoe_jam", "Shoe jammed", "13 (as § 639a.13(f))"),
                ("shuffler_jam", "Shuffler jammed", "13 (as § 639a.13(e))"),
                ("card_face_up", "Card face up", "13 (as § 639a.13(a))"),
                ("card_drawn_in_error", "Card drawn in error", "13 (as § 639a.13(b))"),
                ("wrong_card_count", "Wrong card count", "13 (as § 639a.13(c))"),
            ),
        ),
        GameScreen(
            "holdem-bonus",
            "Texas Hold 'Em Bonus Poker",
            6,
            (Choice("ante", "Ante", "§ 647a.7"), Choice("bonus", "Bonus", "§ 647a.7")),
            (
                Choice("bet", "Bet", "§ 647a.11(b), (d), (f)"),
                Choice("check", "Check", "§ 647a.11(d), (f)"),
                Choice("fold", "Fold", "§ 647a.11(b)"),
            ),
            _with_sections(
                "647a",
                ("shoe_jam", "Shoe jammed", "13(f)"),
                ("shuffler_jam", "Shuffler jammed", "13(e)"),
                ("card_face_up", "Card face up", "13(a)"),
                ("card_drawn_in_error", "Card drawn in error", "13(b)"),
                ("wrong_card_count", "Wrong card count", "13(c)"),
                ("dealer_card_exposed", "Dealer card exposed", "13(d)"),
            ),
        ),
        GameScreen(
            "blackjack",
            "Blackjack",
            7,
            (
                Choice("blackjack", "Blackjack", "§ 633a.6"),
                Choice("three_card_poker", "Three Card Poker", "§ 633a.6(e), § 633a.7(g)(8)"),
            ),
            (
                Choice("hit", "Hit", "§ 633a.7"),
                Choice("stand", "Stand", "§ 633a.7"),
                Choice("double_down", "Double", "§ 633a.10"),
                Choice("split", "Split", "§ 633a.11"),
                Choice("surrender", "Surrender", "§ 633a.9"),
                Choice("insurance", "Insurance", "§ 633a.8"),
                Choice("even_money", "Even money", "§ 633a.8"),
                Choice("rescue", "Rescue (Spanish 21)", "§ 635a.10"),
            ),
            (
                Choice("shoe_jam", "Shoe jammed", "§ 633a.14 (design: void)"),
                Choice("card_reader_malfunction", "Reader failed", "§ 633a.7(h)"),
                Choice("shuffler_malfunction", "Shuffler failed", "§ 633a.14 (design: void)"),
            ),
        ),
        GameScreen(
            "asia-poker",
            "Asia Poker",
            6,
            (Choice("asia_poker", "Asia Poker", "§ 659a.7(a)"), Choice("bonus", "Bonus", "§ 659a.7(e)")),
            (
                Choice("help", "Help: house way", "§ 659a.11(a)(1)"),
                Choice("surrender", "Surrender", "§ 659a.11(d)"),
            ),
            _with_sections(
                "659a",
                ("shoe_jam", "Shoe jammed", "13(m)"),
                ("shuffler_jam", "Shuffler jammed", "13(l)"),
                ("card_face_up", "Card face up", "13(f)"),
                ("wrong_starting_position", "Wrong start position", "13(c)"),
                ("no_roll", "No roll (shaker)", "13(a), (b)"),
            ),
            sets_hands=True,
            start=("dice", "position"),
        ),
        GameScreen(
            "fortune-asia-poker",
            "Fortune Asia Poker",
            6,
            (
                Choice("fortune_asia_poker", "Fortune Asia Poker", "§ 659a.7"),
                Choice("fortune_bonus", "Fortune Bonus", "§ 659a.7"),
                Choice("insurance", "Insurance", "§ 659a.7"),
            ),
            (
                Choice("help", "Help: house way", "§ 659a.11(a)(1)"),
                Choice("surrender", "Surrender", "§ 659a.11(d)"),
            ),
            _with_sections(
                "659a",
                ("shoe_jam", "Shoe jammed", "13(m)"),
                ("shuffler_jam", "Shuffler jammed", "13(l)"),
                ("card_face_up", "Card face up", "13(f)"),
                ("wrong_starting_position", "Wrong start position", "13(c)"),
            ),
            sets_hands=True,
            start=("position",),
        ),
        GameScreen(
            "three-dice-football",
            "Three Dice Football",
            12,
            tuple(
                Choice(name, title, section)
                for name, title, section in (
                    ("touchdown", "Touchdown", "§ 661a.3(b)(1)"),
                    ("defense", "Defense", "§ 661a.3(b)(2)"),
                    ("extra_point", "Extra Point", "§ 661a.3(b)(3)"),
                    ("quick_strike_td", "Quick Strike TD", "§ 661a.3(b)(4)"),
                    ("game_changer", "Game Changer", "§ 661a.3(b)(5)"),
                    ("trips_td", "Trips TD (1 play)", "§ 661a.3(d)(1)"),
                    ("big_play", "Big Play (1 play)", "§ 661a.3(d)(6)"),
                )
            ),
            (
                Choice("accept_dice", "Accepts dice", "§ 661a.4(c)"),
                Choice("reject_dice", "Declines dice", "§ 661a.4(b)"),
                Choice("retain_dice", "Retains dice", "§ 661a.7(a)"),
            ),
            (
                Choice("no_roll", "No roll", "§ 661a.5(c)"),
                Choice("dice_off_table", "Die off table", "§ 661a.5(b)"),
                Choice("die_on_die", "Die on die", "§ 661a.5(b)"),
            ),
            dice_game=True,
        ),
    )
}


def screen_for(game: str) -> GameScreen:
    """The screen of ``game`` (the daemon's game name); a game this screen does not know is a
    ``KeyError`` naming it and the games it knows."""
    try:
        return SCREENS[game]
    except KeyError:
        raise KeyError(f"the screen knows no game {game!r} (games: {', '.join(SCREENS)})") from None
