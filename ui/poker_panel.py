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

from collections.abc import Callable, Hashable
from decimal import Decimal
from functools import partial
from typing import Final

from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from .card_keys import wanted
from .card_keys_panel import discards, keyed_cards
from .console import Console
from .kivy_parts import Key, Text
from .layout import Sizes
from .money import dollars
from .poker import TITLES, ForcedBet, PokerAction, PokerView, counted_steps, join_event, muck_steps
from .poker_floor import DISPUTED_POT, DISPUTES, hands_in_showdown, may_dispute
from .theme import BLACK, BLUE, GREY_TEXT, KEY, WHITE, YELLOW

#: The actions' colours: the one that raises the stakes stands out; a fold is plain.
LOOKS: Final = {"raise": (BLUE, WHITE), "bet": (BLUE, WHITE), "all_in": (YELLOW, BLACK)}


def poker_key(c: Console) -> Hashable:
    """What the panel is made of: rebuilt only when the table's turn or its actions change."""
    view = c.poker
    if view is None:
        return None
    draw = view.draw and tuple(view.draw.items())
    return (
        view.phase,
        view.turn,
        view.betting_round,
        view.keys,
        draw,
        view.joined,
        view.forced,
        view.may_muck,
        # What the card keys key now (the board, the hand of the seat chosen at the showdown).
        c.table.keying_by_hand is not None and wanted(view, c.poker_cards.seat),
        # A disputed pot: the dealer saying what, then the floorperson's ruling.
        c.poker_dispute,
        c.table.floor_to_confirm,
    )


def build(box: Widget, c: Console, s: Sizes) -> None:
    view = c.poker
    if view is None:
        return
    if view.placing_button:
        _button(box, c, s, view)
        return
    if view.seating:
        _seating(box, c, s, view)
        return
    if c.table.floor_to_confirm == DISPUTED_POT:
        _floor_ruling(box, c, s, view)
        return
    if c.poker_dispute and may_dispute(view):
        _what_disputed(box, c, s)
        return
    c.poker_cards.aim(view, reader=c.table.keying_by_hand is None)
    keyed = keyed_cards(box, c, s, view)
    if may_dispute(view):
        getattr(box, "bar", box).add_widget(
            # Wider than MUCK: the word whole beside the SHOW key at 800x480.
            Key(
                "DISPUTE",
                s,
                partial(c.ask_dispute, True),
                font_px=s.small,
                name="poker:dispute",
                size_hint_x=1.5,
            )
        )
    if keyed:
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
    if c.table.keying_by_hand is not None:
        _counted(box, c, s, view)
    elif view.draw is not None:
        discards(box, c, s)
    elif not view.keys:
        box.add_widget(Text(_step_words(view), s.small, grow=True, color=GREY_TEXT))
    box.add_widget(Widget())


def _counted(box: Widget, c: Console, s: Sizes, view: PokerView) -> None:
    """No card reader: the burn and the draw's counts, each a key (``deal`` events)."""
    steps = counted_steps(view) + muck_steps(view)
    if not steps:
        return
    grid = GridLayout(cols=min(len(steps), 5), spacing=s.spacing, size_hint_y=None)
    grid.bind(minimum_height=grid.setter("height"))
    for name, title, event in steps:
        grid.add_widget(
            Key(title, s, partial(_count, c, title, event), font_px=s.small, name=f"poker:{name}")
        )
    box.add_widget(grid)


def _count(c: Console, title: str, event: dict[str, object]) -> None:
    async def send() -> None:
        await c.poker_send(title.lower(), event)

    c.spawn(send())


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


def _seating(box: Widget, c: Console, s: Sizes, view: PokerView) -> None:
    """The players join with their chips (the seat, the amount, JOIN: § 637a.19(b)), then the forced
    bets the daemon says are due, each a key (§ 637a.19(d), (e)), then the deal where no shoe reads
    the cards (the hands dealt face down, counted: § 637a.19(f)). The status line above says what is
    due: the panel is the keys."""
    if not view.blinds:  # players join before the first Blind Bet (§ 637a.19(d))
        box.add_widget(_seat_strip(c, s, view))
        pad = GridLayout(cols=7, spacing=s.spacing, size_hint_y=None)
        pad.bind(minimum_height=pad.setter("height"))
        for k in "1234567890":
            pad.add_widget(Key(k, s, partial(_press, c, k), name=f"amount:{k}"))
        pad.add_widget(Key("+25", s, partial(_chip, c, 25), font_px=s.small, name="chip:25"))
        pad.add_widget(Key("+100", s, partial(_chip, c, 100), font_px=s.small, name="chip:100"))
        pad.add_widget(Key("C", s, partial(_set, c, None), name="amount:clear"))
        box.add_widget(pad)
    actions = getattr(box, "bar", box)
    if not view.blinds:  # players join before the first Blind Bet (§ 637a.19(d))
        actions.add_widget(
            Key(
                "",
                s,
                partial(_join, c),
                colour=BLUE,
                font_px=s.small,
                name="poker:join",
                text_of=lambda: f"JOIN S{c.poker_seat or '?'} ${c.amount.text}",
            )
        )
    for forced in view.forced:
        colour = KEY if forced.optional else BLUE
        actions.add_widget(
            Key(
                forced.title,
                s,
                partial(_post, c, forced),
                colour=colour,
                font_px=s.small,
                name=f"poker:{forced.wager}",
            )
        )
    if view.may_deal and c.table.keying_by_hand is not None:
        actions.add_widget(
            Key(
                f"DEAL {view.hand_size} EACH",
                s,
                partial(_deal, c, view.hand_size),
                colour=BLUE,
                font_px=s.small,
                name="poker:deal",
            )
        )
    box.add_widget(Widget())


def _button(box: Widget, c: Console, s: Sizes, view: PokerView) -> None:
    """The table's first round: the seat the button goes to, then BUTTON AT (a ``position`` event)."""
    _seat_then(box, c, s, view, view.headline, partial(_place_button, c), "poker:button", "BUTTON AT S{}")
    box.add_widget(Widget())


def _seat_then(
    box: Widget,
    c: Console,
    s: Sizes,
    view: PokerView,
    words: str,
    step: Callable[[], object],
    name: str,
    title: str,
    offered: tuple[int, ...] | None = None,
) -> Widget:
    """The words, the seats' strip (the seats ``offered``), and in the bar the step for the seat chosen
    (``title`` with the seat, ``?`` until one is chosen); the bar, for the keys beside it."""
    box.add_widget(Text(words, s.small, grow=True, bold=True))
    box.add_widget(_seat_strip(c, s, view, offered))
    actions: Widget = getattr(box, "bar", box)
    allowed = offered if offered is not None else range(1, view.places + 1)
    actions.add_widget(
        Key(
            "",
            s,
            step,
            colour=BLUE,
            font_px=s.small,
            name=name,
            text_of=lambda: title.format(c.poker_seat if c.poker_seat in allowed else "?"),
            size_hint_x=2,
        )
    )
    return actions


def _place_button(c: Console) -> None:
    seat = c.poker_seat
    if not seat:
        c.message, c.message_ok = "the button: choose the seat first", False
        c.changed()
        return

    async def send() -> None:
        if await c.poker_send(f"the button to seat {seat}", {"type": "position", "value": seat}):
            c.poker_seat = 0

    c.spawn(send())


def _seat_strip(c: Console, s: Sizes, view: PokerView, offered: tuple[int, ...] | None = None) -> Widget:
    """The seats in one row that scrolls sideways (nine at Badugi): the keypad stays in view. The seats
    ``offered`` may be chosen (by default those no player has joined yet)."""
    strip = ScrollView(do_scroll_x=True, do_scroll_y=False, size_hint_y=None, height=s.target)
    strip.choices_list = True
    line = GridLayout(rows=1, spacing=s.spacing, size_hint_x=None)
    line.bind(minimum_width=line.setter("width"))
    for seat in range(1, view.places + 1):
        may = seat in offered if offered is not None else seat not in view.joined
        key = Key(
            f"S{seat}",
            s,
            partial(_choose_seat, c, seat),
            enabled=may,
            name=f"poker:seat:{seat}",
            chosen=partial(lambda n: c.poker_seat == n, seat),
            size_hint_x=None,
            width=round(s.target * 1.3),
        )
        line.add_widget(key)
    strip.add_widget(line)
    return strip


def _choose_seat(c: Console, seat: int) -> None:
    c.poker_seat = seat
    c.changed()


def _chip(c: Console, dollars_: int) -> None:
    c.key("chip", str(dollars_))


def _join(c: Console) -> None:
    try:
        words, event = join_event(c.poker_seat, Decimal(c.amount.cents) / 100)
    except ValueError as exc:
        c.message, c.message_ok = str(exc), False
        c.changed()
        return

    async def send() -> None:
        if await c.poker_send(words, event):
            c.poker_seat = 0

    c.spawn(send())


def _post(c: Console, forced: ForcedBet) -> None:
    async def send() -> None:
        await c.poker_send(f"seat {forced.seat}: {forced.wager} {dollars(forced.amount)}", forced.event())

    c.spawn(send())


def _deal(c: Console, size: int) -> None:
    async def send() -> None:
        await c.poker_send(f"the deal: {size} cards each, face down", {"type": "deal", "value": size})

    c.spawn(send())


def _what_disputed(box: Widget, c: Console, s: Sizes) -> None:
    """DISPUTE pressed: what is disputed, in fixed words, each a key; BACK to the showdown."""
    box.add_widget(Text("Disputed pot: what do the players dispute?", s.small, grow=True, bold=True))
    grid = GridLayout(cols=len(DISPUTES), spacing=s.spacing, size_hint_y=None)
    grid.bind(minimum_height=grid.setter("height"))
    for name, words in DISPUTES:
        grid.add_widget(
            Key(words.upper(), s, partial(_report, c, name), font_px=s.small, name=f"dispute:{name}")
        )
    box.add_widget(grid)
    getattr(box, "bar", box).add_widget(
        Key("BACK", s, partial(c.ask_dispute, False), font_px=s.small, name="dispute:back")
    )
    box.add_widget(Widget())


def _report(c: Console, name: str) -> None:
    async def send() -> None:
        await c.report_dispute(name)

    c.spawn(send())


def _floor_ruling(box: Widget, c: Console, s: Sizes, view: PokerView) -> None:
    """The round waits for a floorperson (docs/authority.md): he rules a hand dead (its seat chosen
    among the hands in the showdown, the strip scrolling at nine) or dismisses the dispute, either
    signed with his PIN; the screen says nothing of the ruling itself."""
    words = "Disputed pot: the round waits for a floorperson. Floorperson: rule a hand dead, or dismiss."
    hands = hands_in_showdown(view)
    actions = _seat_then(
        box, c, s, view, words, partial(_rule_dead, c), "dispute:dead", "RULE S{} DEAD (PIN)", hands
    )
    actions.add_widget(Key("DISMISS (PIN)", s, c.dismiss_dispute, font_px=s.small, name="dispute:dismiss"))
    box.add_widget(Widget())


def _rule_dead(c: Console) -> None:
    c.rule_dead_hand(c.poker_seat)
