"""The poker table's panel on the dealer's screen (Kivy): the console's :class:`~ui.poker.PokerView`.

Beside the seats' column (each player's chips and bets, the pots, the board: :func:`ui.poker.seat_lines`)
the panel says whose turn it is and what he owes, and offers only the actions the daemon says the
procedure takes from him now (§ 637a.19(g), (h)): FOLD, CHECK, CALL $x, BET or RAISE TO the amount
keyed (whole dollars, held between the least and the most the limit allows; MIN and MAX set them), ALL
IN. The action keys sit in the fixed bar under the panel, in view at 800x480 as at 1024x600. Outside a
betting round the panel shows the step of the round (the deal, the burn, the draw, the board come
from the shoe where the table has one).
"""

from __future__ import annotations

from collections.abc import Hashable
from decimal import Decimal
from functools import partial
from typing import Final

from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from .console import Console
from .kivy_parts import Key, Text
from .layout import Sizes
from .money import dollars
from .poker import TITLES, PokerAction, PokerView
from .theme import BLACK, BLUE, GREY_TEXT, KEY, WHITE, YELLOW

#: The actions' colours: the one that raises the stakes stands out; a fold is plain.
LOOKS: Final = {"raise": (BLUE, WHITE), "bet": (BLUE, WHITE), "all_in": (YELLOW, BLACK)}


def poker_key(c: Console) -> Hashable:
    """What the panel is made of: rebuilt only when the table's turn or its actions change."""
    view = c.poker
    if view is None:
        return None
    return (view.phase, view.turn, view.betting_round, view.keys, view.draw and tuple(view.draw.items()))


def build(box: Widget, c: Console, s: Sizes) -> None:
    view = c.poker
    if view is None:
        return
    sized = next((a for a in view.keys if a.sized), None)
    words = view.headline
    if sized is not None and sized.least is not None and sized.most is not None and sized.least != sized.most:
        words += f"\n{TITLES[sized.action]} to {dollars(sized.least)}-{dollars(sized.most)}"
    box.add_widget(Text(words, s.small, grow=True, bold=True))
    if sized is not None and sized.least != sized.most:
        # A fixed limit has one amount: no keypad (§ 601a.2, betting.limit).
        _amount_keys(box, c, s)
    actions = getattr(box, "bar", box)
    for action in view.keys:
        colour, text_colour = LOOKS.get(action.action, (KEY, WHITE))
        actions.add_widget(
            Key(
                "",
                s,
                partial(_act, c, action),
                colour=colour,
                font_px=s.small,
                name=f"poker:{action.action}",
                text_of=partial(_title, c, action),
                text_colour=text_colour,
            )
        )
    if not view.keys:
        box.add_widget(Text(_step_words(view), s.small, grow=True, color=GREY_TEXT))
    box.add_widget(Widget())


def _amount_keys(box: Widget, c: Console, s: Sizes) -> None:
    """Whole dollars, as chips are counted; MIN and MAX the least and the most."""
    action = next(a for a in (c.poker.keys if c.poker else ()) if a.sized)
    pad = GridLayout(cols=7, spacing=s.spacing, size_hint_y=None)
    pad.bind(minimum_height=pad.setter("height"))
    for k in "1234567890":
        pad.add_widget(Key(k, s, partial(_press, c, k), name=f"amount:{k}"))
    pad.add_widget(Key("MIN", s, partial(_set, c, action.least), font_px=s.small, name="amount:min"))
    pad.add_widget(Key("MAX", s, partial(_set, c, action.most), font_px=s.small, name="amount:max"))
    pad.add_widget(Key("C", s, partial(_set, c, None), name="amount:clear"))
    box.add_widget(pad)


def _title(c: Console, action: PokerAction) -> str:
    return action.title(Decimal(c.amount.cents) / 100)


def _press(c: Console, digit: str) -> None:
    c.key("amount", digit)


def _set(c: Console, value: Decimal | None) -> None:
    c.amount.cents = 0 if value is None else int(value * 100)
    c.changed()


def _act(c: Console, action: PokerAction) -> None:
    async def act() -> None:
        await c.poker_act(action)

    c.spawn(act())


def _step_words(view: PokerView) -> str:
    if view.phase in ("dealing", "burning", "board", "drawing"):
        return "The shoe deals (a card reader reads every card); the dealer keys the discards."
    return ""
