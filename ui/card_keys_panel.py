"""The poker table's card keys drawn (Kivy): :mod:`ui.card_keys` on the poker panel.

Without a card reader: at Omaha's board and at the showdown, the rank and suit keys, DEL and C, and
in the fixed bar the key that sends the cards keyed (``BOARD``, ``SHOW S2``) with them on it; at the
showdown, in the keypad, the seat whose hand is keyed (touched: the next still to show) and in the
bar MUCK for him where he may. With a reader, in the draw: the cards of the hand of the player
drawing, touched to discard (chosen while touched), and ``DISCARD`` in the bar beside STAND PAT.
Every key is a 9 mm target; the keypad takes the panel's columns (seven at 800x480, eleven at
1024x600), so all is in view at both sizes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from .card_keys import CardsWanted
from .console import Console
from .entry import RANKS, SUITS
from .faces import face, faces
from .kivy_parts import CARD_FONT, Key
from .layout import Sizes
from .poker import PokerView
from .theme import BLUE, WHITE


def keyed_cards(box: Widget, c: Console, s: Sizes, view: PokerView) -> bool:
    """The card keypad where the dealer keys cards now (a table without a card reader: the board, a
    hand shown); ``False`` when nothing is keyed. Three rows of seven at 800x480 (two at 1024x600):
    the ranks, the suits, DEL and C, and at the showdown the seat whose hand is keyed (touched, the
    next still to show); the status line above says the step."""
    wanted = c.poker_cards.pad.wanted
    if wanted is None:
        return False
    pad = _grid(s.panel_columns, s)
    for k in (*RANKS, *SUITS):
        label = face("A" + k)[1:] if k in SUITS else ("10" if k == "T" else k)
        step = partial(_do, c, partial(c.poker_cards.pad.press, k))
        pad.add_widget(Key(label, s, step, font_name=CARD_FONT, name=f"pcard:{k}"))
    pad.add_widget(Key("DEL", s, partial(_do, c, c.poker_cards.pad.back), font_px=s.small, name="pcard:del"))
    pad.add_widget(Key("C", s, partial(_do, c, c.poker_cards.pad.clear), name="pcard:clear"))
    seat = int(wanted.to) if wanted.to.isdigit() else 0
    if seat and len(view.to_show) > 1:
        after = view.to_show[(view.to_show.index(seat) + 1) % len(view.to_show)]
        pad.add_widget(
            Key(
                f"S{seat} ▸",
                s,
                partial(_choose, c, after),
                font_px=s.small,
                font_name=CARD_FONT,  # Roboto has no ▸
                name="show:next",
                chosen=lambda: True,
            )
        )
    box.add_widget(pad)
    actions = getattr(box, "bar", box)
    actions.add_widget(
        Key(
            "",
            s,
            partial(_send_keyed, c),
            colour=BLUE,
            text_colour=WHITE,
            font_px=s.small,
            font_name=CARD_FONT,
            name="pcard:send",
            text_of=lambda: f"{_verb(wanted)}: {c.poker_cards.pad.text}",
            size_hint_x=3,
        )
    )
    if seat in view.may_muck:
        event = {"type": "decision", "seat": seat, "action": "fold"}
        muck = partial(_send, c, f"seat {seat} mucks", event)
        actions.add_widget(Key(f"MUCK S{seat}", s, muck, font_px=s.small, name=f"poker:muck:{seat}"))
    box.add_widget(Widget())
    return True


def discards(box: Widget, c: Console, s: Sizes) -> None:
    """A table with a card reader, in the draw: the cards of the player drawing, each touched to
    discard; DISCARD in the bar (beside STAND PAT) sends them (§ 637a.20(h))."""
    chosen = c.poker_cards.discards
    if not chosen.hand:
        return
    row = _grid(max(s.panel_columns, len(chosen.hand)), s)
    for card in chosen.hand:
        row.add_widget(
            Key(
                face(card),
                s,
                partial(_do, c, partial(chosen.toggle, card)),
                font_name=CARD_FONT,
                name=f"discard:{card}",
                chosen=partial(lambda x: x in chosen.chosen, card),
            )
        )
    box.add_widget(row)
    getattr(box, "bar", box).add_widget(
        Key(
            "",
            s,
            partial(_send_discards, c),
            colour=BLUE,
            font_px=s.small,
            font_name=CARD_FONT,
            name="poker:discard",
            text_of=lambda: "DISCARD " + (faces([x for x in chosen.hand if x in chosen.chosen]) or "?"),
            size_hint_x=2,
        )
    )


def _verb(wanted: CardsWanted) -> str:
    return "BOARD" if wanted.to == "board" else f"SHOW S{wanted.to}"


def _grid(cols: int, s: Sizes) -> GridLayout:
    grid = GridLayout(cols=cols, spacing=s.spacing, size_hint_y=None)
    grid.bind(minimum_height=grid.setter("height"))
    return grid


def _do(c: Console, step: Callable[[], object]) -> None:
    """A key of the card keys; a card refused is said on the message line, nothing changed."""
    try:
        step()
    except ValueError as exc:
        c.message, c.message_ok = str(exc), False
    c.changed()


def _choose(c: Console, seat: int) -> None:
    c.poker_cards.seat = seat
    c.changed()


def _send_keyed(c: Console) -> None:
    try:
        words, event = c.poker_cards.pad.event()
    except ValueError as exc:
        c.message, c.message_ok = str(exc), False
        c.changed()
        return

    async def send() -> None:
        if await c.poker_send(words, event):
            c.poker_cards.pad.clear()

    c.spawn(send())


def _send_discards(c: Console) -> None:
    try:
        words, event = c.poker_cards.discards.event()
    except ValueError as exc:
        c.message, c.message_ok = str(exc), False
        c.changed()
        return
    _send(c, words, event)


def _send(c: Console, words: str, event: dict[str, object]) -> None:
    async def send() -> None:
        await c.poker_send(words, event)

    c.spawn(send())
