"""The panel the dealer works in, one builder per :attr:`ui.console.Console.panel`, and the
technician's page. Each builder only lays out the console's values and binds its keys to the
console's methods; :func:`key` says when a panel must be drawn again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import partial
from typing import Any, Final

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from . import poker_panel
from .console import Console
from .entry import JOKER, RANKS, SUITS
from .faces import face, faces
from .hand_pay import MAX_TYPED, OTHER, REASONS, WORD_KEYS
from .kivy_parts import (
    CARD_FONT,
    Key,
    Text,
    scroll,
)
from .layout import Sizes
from .money import dollars
from .settlement import SettlementView
from .technician import tech_view
from .theme import (
    BLACK,
    BLUE,
    GREY_TEXT,
    KEY,
    ORANGE,
    PANEL,
    SKY,
    WHITE,
    YELLOW,
)
from .words import dealer_words

TAB_TITLES: Final = {
    "wagers": "Wagers",
    "decisions": "Decide",
    "dice": "Dice",
    "position": "Start",
    "setting": "Set hands",
    "cards": "Key cards",
    "irregularity": "Irregular",
    "claim": "Hand pay",
    "poker": "Poker",
}


#: The chip keys of the amount keypad (dollars each adds).
CHIPS: Final = (5, 25)

#: Panels drawn across the whole width, the seats' column and the tabs hidden while they are open
#: (the PIN pad; the hand pay of a claim, its meter keypad in one row; the settlement, its seven
#: seats in view at once at 800x480).
FULL_WIDTH: Final = frozenset({"pin", "claim", "settlement"})


class NextKeys(BoxLayout):
    """The action the round needs next, in a row of its own under the panel: never scrolled away,
    always above the tabs, at 800x480 as at 1024x600. As tall as a key when it has one, else
    nothing. A panel's builder fills it with :func:`bar` (a new panel does the same)."""

    def __init__(self, s: Sizes, **kwargs: Any) -> None:
        super().__init__(spacing=s.spacing, size_hint_y=None, height=0, **kwargs)
        self.target = s.target
        self.bind(children=self._fit)

    def _fit(self, *_: object) -> None:
        self.height = max((w.height for w in self.children), default=0) if self.children else 0
        for w in self.children:
            w.bind(height=self._fit_once)

    def _fit_once(self, *_: object) -> None:
        self.height = max((w.height for w in self.children), default=0)


def bar(box: Widget) -> Widget:
    """The fixed action bar under the panel ``box`` (the view gives it as ``box.bar``); a panel
    built without one (a test's bare box) keeps its action keys at its end."""
    found: Widget | None = getattr(box, "bar", None)
    return found if found is not None else box


def key(c: Console) -> Hashable:
    """What the open panel is made of: it is built again only when this changes (each panel's
    own keys, so a wager placed at another seat does not rebuild the amount keypad). What the
    dealer chooses and types (the seat, the wager, the amount, the cards) is not in it: the keys
    and labels bound to those values follow them in place (``chosen``, ``text_of``)."""
    t = c.table
    seats = tuple(s.seat for s in t.seats)
    parts: dict[str, Callable[[], Hashable]] = {
        "wagers": lambda: (),
        "decisions": lambda: (
            seats,
            c.may_settle,
            tuple(d.name for d in c.decisions_offered),
            bool(c.dealer_cards),
        ),
        "dice": lambda: tuple(c.dice.dice),
        "position": lambda: (),
        "setting": lambda: (
            seats,
            c.setting.seven,
            c.setting.complete,
            c.may_settle,
        ),
        "cards": lambda: (seats,),
        "irregularity": lambda: (t.floor_to_confirm, t.keying_by_hand),
        "settlement": lambda: (t.settlement, c.settled_detail),
        "pin": lambda: (c.pin.purpose, c.pin.field, c.pin.message, c.pin.names),
        "claim": lambda: (c.claims, c.hand_pay.typing),
        "poker": lambda: poker_panel.poker_key(c),
    }
    part = parts.get(c.panel)
    return (c.panel, c.online, t.game, part() if part else None)


def _tap(c: Console, work: Callable[[], Any]) -> Callable[[], None]:
    """A key that sends a command: run it in the loop; a wrong key's ValueError is the message."""

    def tap() -> None:
        try:
            result = work()
        except ValueError as exc:
            c.message, c.message_ok = str(exc), False
            c.changed()
            return
        if hasattr(result, "__await__"):
            c.spawn(result)

    return tap


def _grid(cols: int, s: Sizes, **kwargs: Any) -> GridLayout:
    grid = GridLayout(cols=cols, spacing=s.spacing, size_hint_y=None, **kwargs)
    grid.bind(minimum_height=grid.setter("height"))
    return grid


def _choose(
    text: str, s: Sizes, on_tap: Callable[[], None], chosen: Callable[[], bool], **kwargs: Any
) -> Key:
    """A key of a choice: white while ``chosen()``, recoloured in place when the choice moves."""
    return Key(text, s, on_tap, chosen=chosen, **kwargs)


def _seat_keys(c: Console, s: Sizes, seats: tuple[int, ...]) -> Widget:
    """The seat keys in one row: seven side by side, more (a dice table's) in a row that scrolls
    sideways, so the keypad and the action bar below stay in view at 800x480."""
    keys = [
        _choose(
            f"S{seat}",  # not a bare digit: the amount keypad's digits are below
            s,
            _tap(c, partial(c.choose_seat, seat)),
            partial(lambda n: c.seat == n, seat),
            name=f"seat:{seat}",
        )
        for seat in seats
    ]
    return _choices_row(keys, s, side_by_side=7, width=round(s.target * 1.3))


def build(box: Widget, c: Console, s: Sizes) -> None:
    BUILDERS.get(c.panel, _offline)(box, c, s)


def _offline(box: Widget, c: Console, s: Sizes) -> None:
    text = "CONTROLLER OFFLINE\nThe screen reconnects by itself." if not c.online else ""
    box.add_widget(Text(text, s.font, grow=True, halign="center"))


def _wagers(box: Widget, c: Console, s: Sizes) -> None:
    screen = c.screen
    assert screen is not None
    box.add_widget(_seat_keys(c, s, c.seats_offered))
    keys = [
        _choose(
            choice.title,
            s,
            _tap(c, partial(c.choose_wager, choice.name)),
            partial(lambda n: c.wager == n, choice.name),
            font_px=s.small,
            name=f"wager:{choice.name}",
        )
        for choice in screen.wagers
    ]
    box.add_widget(_choices_row(keys, s))
    # Whole dollars, and two chip keys that add a chip's value: fourteen keys, two rows of seven.
    pad = _grid(7, s)
    for k in "1234567890":
        pad.add_widget(Key(k, s, _tap(c, partial(c.key, "amount", k)), name=f"amount:{k}"))
    for chip in CHIPS:
        pad.add_widget(
            Key(
                f"+{chip}",
                s,
                _tap(c, partial(c.key, "chip", str(chip))),
                font_px=s.small,
                name=f"chip:{chip}",
            )
        )
    pad.add_widget(Key("DEL", s, _tap(c, lambda: c.key("amount", "back")), font_px=s.small))
    pad.add_widget(Key("C", s, _tap(c, c.clear_amount), name="amount:clear"))
    box.add_widget(pad)
    actions = bar(box)
    # The amount typed is read on the key that places it; on a wager the seat has made, the key
    # changes it (CHANGE TO), and REMOVE takes it off: before "no more bets" only (§ 639a.7(c)).
    actions.add_widget(
        Key(
            "",
            s,
            _tap(c, c.place_or_change),
            colour=BLUE,
            name="PLACE WAGER",
            text_of=lambda: f"{'PLACE' if c.placed is None else 'CHANGE TO'} ${c.amount.text}",
            font_px=s.small,
            size_hint_x=1.5,
        )
    )
    actions.add_widget(Key("REMOVE", s, _tap(c, c.remove_wager), font_px=s.small, name="REMOVE WAGER"))
    actions.add_widget(
        Key(
            "NO MORE BETS",
            s,
            _tap(c, c.no_more_bets),
            colour=YELLOW,
            text_colour=BLACK,
            font_px=s.small,
            size_hint_x=1.3,
        )
    )
    box.add_widget(Widget())


def _choices_row(keys: list[Key], s: Sizes, side_by_side: int = 4, width: int = 0) -> Widget:
    """One row of choices (the wagers): side by side when up to four fit, else a row that scrolls
    sideways (Three Dice Football's eighteen wagers), so the seats, the keypad and the action bar
    never scroll away with it. The tests' view check knows such a row by ``choices_list``."""
    if len(keys) <= side_by_side:
        row = _grid(len(keys) or 1, s)
        for k in keys:
            row.add_widget(k)
        return row
    strip = scroll(sideways=True, size_hint_y=None, height=s.target)
    strip.choices_list = True
    line = GridLayout(rows=1, spacing=s.spacing, size_hint_x=None)
    line.bind(minimum_width=line.setter("width"))
    for k in keys:
        k.size_hint_x, k.width = None, width or s.target * 3
        line.add_widget(k)
    strip.add_widget(line)
    return strip


def _decisions(box: Widget, c: Console, s: Sizes) -> None:
    screen = c.screen
    assert screen is not None
    seats = tuple(seat.seat for seat in c.table.seats) or c.seats_offered
    if screen.dice_game:
        seats = c.seats_offered
    box.add_widget(_seat_keys(c, s, seats))

    def where() -> str:
        seat = f"Seat {c.seat}" + (f" hand {c.hand + 1}" if c.hand else "") if c.seat else "Choose the seat"
        total = c.total_of(str(c.seat), c.hand) if c.seat else ""
        return seat + "  " + faces(c.seat_cards, True) + (f"  [b]{total}[/b]" if total else "")

    box.add_widget(
        Text(
            text_of=where,
            size_px=s.font,
            markup=True,
            font_name=CARD_FONT,
            size_hint_y=None,
            height=s.target,
        )
    )
    if c.dealer_cards:
        # The dealer's up card in view while the player decides (the seats' column may scroll).
        box.add_widget(
            Text(
                text_of=lambda: "Dealer  " + faces(c.dealer_cards, True),
                size_px=s.font,
                markup=True,
                font_name=CARD_FONT,
                size_hint_y=None,
                height=s.target,
            )
        )
    # Only the decisions the daemon says the rules take now, where it lists them (Blackjack);
    # four across when there are many: every decision in view at 800x480.
    offered = c.decisions_offered
    grid = _grid(3 if len(offered) <= 6 else 4, s)
    for choice in offered:
        decide = _tap(c, partial(c.decide, choice.name))
        grid.add_widget(Key(choice.title, s, decide, font_px=s.small, name=f"decision:{choice.name}"))
    box.add_widget(grid)
    if c.may_settle:
        bar(box).add_widget(Key("SETTLE THE ROUND", s, _tap(c, c.settle), colour=BLUE))
    box.add_widget(Widget())


def _dice(box: Widget, c: Console, s: Sizes) -> None:
    screen = c.screen
    names = ("green", "green", "red") if screen is not None and screen.dice_game else ("die", "die", "die")
    shown = (
        "   ".join(f"{n} {d}" for n, d in zip(names, c.dice.dice, strict=False)) or "tap the dice as thrown"
    )
    box.add_widget(Text(shown, s.font, bold=True, size_hint_y=None, height=s.target, halign="center"))
    pad = _grid(7, s)
    for face_ in range(1, 7):
        pad.add_widget(Key(str(face_), s, _tap(c, partial(c.key, "dice", str(face_))), name=f"dice:{face_}"))
    pad.add_widget(Key("DEL", s, _tap(c, lambda: c.key("dice", "back")), font_px=s.small))
    box.add_widget(pad)
    bar(box).add_widget(Key("ENTER THE THROW", s, _tap(c, c.throw), colour=BLUE, enabled=c.dice.complete))
    box.add_widget(Widget())


def _position(box: Widget, c: Console, s: Sizes) -> None:
    words = "Starting position 1-7: the random number or the button (§ 659a.5(g)(2), (3))"
    box.add_widget(Text(words, s.small, grow=True))
    pad = _grid(7, s)
    for n in range(1, 8):
        pad.add_widget(Key(str(n), s, _tap(c, partial(c.start_position, n)), name=f"position:{n}"))
    box.add_widget(pad)
    box.add_widget(Widget())


def _setting(box: Widget, c: Console, s: Sizes) -> None:
    seats = tuple(seat.seat for seat in c.table.seats)
    box.add_widget(_seat_keys(c, s, seats))
    hands = _grid(3, s)
    for name in ("high", "medium", "low"):
        hands.add_widget(
            _choose(
                "",
                s,
                _tap(c, partial(c.key, "setting_hand", name)),
                partial(lambda n: c.setting_hand == n, name),
                text_of=partial(lambda n: f"{n}: {faces(c.setting.hand(n))}", name),
                font_px=s.small,
                font_name=CARD_FONT,
                name=f"hand:{name}",
            )
        )
    box.add_widget(hands)
    cards = _grid(7, s)
    for card in c.setting.seven:
        cards.add_widget(
            Key(
                face(card),
                s,
                _tap(c, partial(c.key, "setting", card)),
                font_name=CARD_FONT,
                # A card placed in a hand is greyed where it is, recoloured in place.
                chosen=partial(lambda x: x in c.setting.placed, card),
                chosen_look=(PANEL, GREY_TEXT),
                font_px=s.small,
                name=f"setcard:{card}",
            )
        )
    box.add_widget(cards)
    # § 659a.11(a)(1), (c): the daemon's house way for the chosen seat (after its "help") and the
    # dealer's, beside the keys; it follows the seat chosen in place.
    box.add_widget(
        Text(text_of=lambda: c.house_way_text, size_px=s.small, grow=True, markup=False, font_name=CARD_FONT)
    )
    actions = bar(box)
    actions.add_widget(
        Key("SET HANDS", s, _tap(c, c.set_hands), colour=BLUE, enabled=c.setting.complete, font_px=s.small)
    )
    actions.add_widget(Key("Help: house way", s, _tap(c, lambda: c.decide("help")), font_px=s.small))
    actions.add_widget(Key("Surrender", s, _tap(c, lambda: c.decide("surrender")), font_px=s.small))
    if c.may_settle:
        bar(box).add_widget(Key("SETTLE THE ROUND", s, _tap(c, c.settle), colour=BLUE))
    box.add_widget(Widget())


def _cards(box: Widget, c: Console, s: Sizes) -> None:
    places = (*(str(seat.seat) for seat in c.table.seats), "dealer")
    row = _grid(min(len(places), 8), s)
    for place in places:
        row.add_widget(
            _choose(
                place.capitalize() if place == "dealer" else place,
                s,
                _tap(c, partial(_card_to, c, place)),
                partial(lambda p: c.card_to == p, place),
                font_px=s.small,
                name=f"place:{place}",
            )
        )
    box.add_widget(row)
    pad = _grid(s.panel_columns, s)
    for k in (*RANKS, *SUITS, JOKER):
        label = face("A" + k)[1:] if k in SUITS else ("10" if k == "T" else k)
        pad.add_widget(
            Key(
                label,
                s,
                _tap(c, partial(c.key, "cards", k)),
                font_name=CARD_FONT,
                font_px=s.small,
                name=f"card:{k}",
            )
        )
    pad.add_widget(Key("DEL", s, _tap(c, lambda: c.key("cards", "back")), font_px=s.small))
    box.add_widget(pad)
    # The cards typed are read on the key that enters them (§ 639a.13(g)).
    bar(box).add_widget(
        Key(
            "",
            s,
            _tap(c, c.key_in_cards),
            colour=BLUE,
            font_px=s.small,
            font_name=CARD_FONT,
            name="ENTER CARDS",
            text_of=lambda: (
                f"ENTER CARDS  {c.card_to or 'where?'}: "
                + faces(c.cards.cards)
                + (f" {c.cards.rank}?" if c.cards.rank else "")
            ),
        )
    )
    box.add_widget(Widget())


def _card_to(c: Console, place: str) -> None:
    c.card_to = place
    c.changed()


def _irregularity(box: Widget, c: Console, s: Sizes) -> None:
    screen = c.screen
    assert screen is not None
    reported = c.table.floor_to_confirm
    # The irregularity in the game's own words ("Shoe jammed"), not its name in events.
    reported = c.titles.get(reported, reported)
    if reported:
        # docs/authority.md: the round waits until a floorperson confirms or dismisses the report:
        # that step first, in view without scrolling, above the irregularities the dealer reports.
        steps = bar(box)
        steps.add_widget(
            Key(
                f"CONFIRM {reported} (PIN)", s, _tap(c, c.confirm_reported), colour=BLUE, name="floor:confirm"
            )
        )
        steps.add_widget(
            Key(
                f"DISMISS {reported} (PIN)",
                s,
                _tap(c, c.dismiss_reported),
                name="floor:dismiss",
                font_px=s.small,
            )
        )
    grid = _grid(2, s)
    for choice in screen.irregularities:
        grid.add_widget(
            Key(
                choice.title,
                s,
                _tap(c, partial(c.report_irregularity, choice)),
                name=f"irregularity:{choice.name}",
                font_px=s.small,
            )
        )
    box.add_widget(grid)
    if not reported and not screen.dice_game and c.table.keying_by_hand is None:
        # § 639a.13(g): the shoe is signed out of order by a floorperson before cards are keyed.
        box.add_widget(
            Key(
                "SHOE OUT OF ORDER (PIN, § 639a.13(g))",
                s,
                _tap(c, lambda: c.declare_out_of_order("shoe")),
                name="floor:out_of_order",
                font_px=s.small,
            )
        )
    words = "a floorperson confirms a void with a PIN" if not screen.dice_game else "entered by the dealer"
    box.add_widget(Text(words, s.small, color=GREY_TEXT, size_hint_y=None, height=s.target))
    box.add_widget(Widget())


def _settlement(box: Widget, c: Console, s: Sizes) -> None:
    view = c.table.settlement
    assert view is not None
    if view.void:
        box.add_widget(Text(f"Round {view.round_id} VOID: {view.void}", s.small, grow=True, bold=True))
    shown = c.settled_detail
    if shown:
        _settled_at_length(box, c, s, view, shown)
    else:
        _settled_seats(box, c, s, view)
    actions = bar(box)
    # The first payout waiting for a floorperson: its PIN key beside the close, never scrolled away.
    waiting = next((line for line in view.lines if line.waits_for_floorperson), None)
    if waiting is not None:
        verify = partial(c.ask_verification, waiting.seat, waiting.wager, view.round_id)
        actions.add_widget(
            Key(
                f"PIN: seat {waiting.seat}",
                s,
                _tap(c, verify),
                colour=ORANGE,
                text_colour=BLACK,
                font_px=s.small,
                name=f"verify:{waiting.seat}",
            )
        )
    close = "CLOSE THE ROUND" if view.can_close else "FLOORPERSON FIRST"
    actions.add_widget(
        Key(close, s, _tap(c, c.close_settlement), colour=BLUE, enabled=view.can_close, name="close-round")
    )


def _settled_seats(box: Widget, c: Console, s: Sizes, view: SettlementView) -> None:
    """One block per seat, in the rules' order, four across: all seven in view at 800x480 without
    scrolling, each with its stake and its total from the rack, PAY / COLLECT / PUSH by word, sign,
    mark and colour together (SEAT_LOOKS), the word and the total in bold body text, a hand pay
    apart below. A touch opens the seat's wagers; the dealer's hand is a block of its own (the
    eighth place of seven seats), so nothing below the blocks runs under the bar."""
    keys = _grid(min(len(view.seats) + bool(view.dealer), SETTLED_ACROSS) or 1, s)
    for seat in view.seats:
        state = "HOLD" if seat.waits_for_floorperson else seat.action
        colour, text_colour, mark = SEAT_LOOKS[state]
        words = (
            f"[size={s.small}]Seat {seat.seat}\nstake {dollars(seat.stake)}[/size]\n"
            f"[b][font={CARD_FONT}]{mark}[/font] {seat.action}\n{seat.net_text}[/b]"
        )
        if seat.hand_pay:
            words += f"\n[size={s.small}][b]HAND PAY\n{dollars(seat.hand_pay)}[/b][/size]"
        keys.add_widget(
            Key(
                words,
                s,
                _tap(c, partial(c.show_settled, str(seat.seat))),
                colour=colour,
                text_colour=text_colour,
                name=f"settled:{seat.seat}",
                markup=True,
                # Roboto's lines are 1.17 em apart; closer, a block with a hand pay (six lines)
                # and a row of four still fit above the bar at 800x480.
                line_height=SETTLED_LINES,
            )
        )
    if view.dealer:
        what = "the pots" if c.poker is not None else "the hand"
        keys.add_widget(
            Key(
                f"[b]Dealer[/b]\n[size={s.small}]touch for\n{what}[/size]",
                s,
                _tap(c, partial(c.show_settled, "dealer")),
                name="settled:dealer",
                markup=True,
            )
        )
    box.add_widget(keys)


def _settled_at_length(box: Widget, c: Console, s: Sizes, view: SettlementView, shown: str) -> None:
    """One seat's wagers, a line each in the body size, or the dealer's hand (the poker room's pots
    and the sections they follow: a details view); ALL SEATS goes back to the blocks."""
    back = f"[font={CARD_FONT}]◀[/font] ALL SEATS"
    box.add_widget(Key(back, s, _tap(c, partial(c.show_settled, "")), name="settled:all", markup=True))
    if shown == "dealer":
        box.add_widget(Text(f"Dealer: {view.dealer}", s.small, grow=True))
        return
    seat = next(seat for seat in view.seats if str(seat.seat) == shown)
    mark = SEAT_LOOKS["HOLD" if seat.waits_for_floorperson else seat.action][2]
    head = (
        f"Seat {seat.seat}  ·  stake {dollars(seat.stake)}  ·  "
        f"[font={CARD_FONT}]{mark}[/font] {seat.action} {seat.net_text}"
    )
    box.add_widget(Text(head, s.font, grow=True, bold=True, markup=True))
    for words in seat.wagers:
        box.add_widget(Text(words, s.font, grow=True))


#: The settlement's seat keys side by side: seven seats and the dealer in two rows.
SETTLED_ACROSS: Final = 4
#: The settlement blocks' line spacing (of the font's own).
SETTLED_LINES: Final = 0.85

#: A seat's settlement: (background, text, mark); never colour alone (WCAG 1.4.1).
SEAT_LOOKS: Final = {
    "PAY": (SKY, BLACK, "▲"),
    "COLLECT": (KEY, WHITE, "▼"),
    "PUSH": (PANEL, GREY_TEXT, "="),
    "HOLD": (ORANGE, BLACK, "◆"),
}


def _pin(box: Widget, c: Console, s: Sizes) -> None:
    pad = c.pin
    title = pad.purpose.title if pad.purpose else ""
    box.add_widget(Text("Floorperson: " + title, s.small, grow=True, bold=True))
    fields = _grid(2, s)
    fields.add_widget(
        _choose(
            "",
            s,
            _tap(c, lambda: pad.choose("user")),
            lambda: pad.field == "user",
            text_of=lambda: f"user: {pad.user}",
            font_px=s.small,
            name="field:user",
        )
    )
    fields.add_widget(
        _choose(
            "",
            s,
            _tap(c, lambda: pad.choose("pin")),
            lambda: pad.field == "pin",
            text_of=lambda: f"PIN: {pad.pin_dots}",
            font_px=s.small,
            font_name=CARD_FONT,
            name="field:pin",
        )
    )
    box.add_widget(fields)
    if pad.message:
        box.add_widget(Text(pad.message, s.small, grow=True, color=ORANGE))
    if pad.names and pad.field == "pin":
        # The floorpersons' names (the daemon's): the PIN typed, the name signs at once.
        names = _grid(min(len(pad.names), 4), s)
        for name in pad.names:
            pick = _tap(c, partial(c.pick_floorperson, name))
            names.add_widget(Key(name, s, pick, font_px=s.small, name=f"floor:{name}"))
        box.add_widget(names)
    # The PIN's ten digits in one row (the pad has the whole width): room for the names above.
    keys = _grid(s.columns(s.width) if pad.field == "user" else 10, s)
    for k in pad.keys:
        keys.add_widget(Key(k, s, _tap(c, partial(pad.press, k)), font_px=s.small, name=f"pin:{k}"))
    box.add_widget(keys)
    actions = bar(box)
    actions.add_widget(Key("DEL", s, _tap(c, pad.back), font_px=s.small))
    actions.add_widget(Key("Clear", s, _tap(c, pad.clear), font_px=s.small))
    actions.add_widget(Key("Cancel", s, _tap(c, pad.cancel), font_px=s.small))
    actions.add_widget(Key("SIGN", s, _tap(c, c.sign), colour=BLUE, font_px=s.small))
    box.add_widget(Widget())


def _is(value: Callable[[], str], expected: str) -> bool:
    return value() == expected


def _claim(box: Widget, c: Console, s: Sizes) -> None:
    """A claim the central meter REFUSED or did not award in time (TIMED OUT): the floorperson
    chooses it, keys in the meter read on its display and a reason, and signs the hand pay with
    the PIN (``claim_hand_pay``, docs/progressive-link.md "The award handshake")."""
    entry, claims = c.hand_pay, c.claims
    if entry.typing:
        _reason_typed(box, c, s)
        return
    for claim in claims:
        why = dealer_words(claim.reason, c.titles)
        box.add_widget(
            Text(
                f"Seat {claim.seat} {c.titles.get(claim.wager, claim.wager)}: claim {claim.status}. {why}",
                s.small,
                grow=True,
                color=ORANGE,
            )
        )
    if len(claims) > 1:
        keys = [
            _choose(
                f"Seat {claim.seat}",
                s,
                _tap(c, partial(c.key, "claim", claim.key)),
                partial(_is, lambda: entry.claim, claim.key),
                font_px=s.small,
                name=f"claim:{claim.key}",
            )
            for claim in claims
        ]
        box.add_widget(_choices_row(keys, s))
    # The meter read on its display, keyed in cents from the right (the amount on the key that
    # signs it, as PLACE shows the wager's): eleven keys in one row across the whole width.
    pad = _grid(11, s)
    for k in "1234567890":
        pad.add_widget(Key(k, s, _tap(c, partial(c.key, "meter", k)), name=f"meter:{k}"))
    pad.add_widget(
        Key("DEL", s, _tap(c, partial(c.key, "meter", "back")), font_px=s.small, name="meter:back")
    )
    box.add_widget(pad)
    reasons = [
        _choose(
            label,
            s,
            _tap(c, partial(c.key, "reason", label)),
            partial(_is, lambda: entry.reason, label),
            font_px=s.small,
            name=f"reason:{label}",
        )
        for label in (*REASONS, OTHER)
    ]
    box.add_widget(_choices_row(reasons, s))
    if entry.reason == OTHER and entry.reason_text:
        box.add_widget(Text(entry.reason_text, s.small, grow=True))
    actions = bar(box)
    # A void instead (the round's irregularity): the Irregular panel, with the tabs.
    actions.add_widget(
        Key(
            "VOID INSTEAD",
            s,
            _tap(c, partial(c.open_tab, "irregularity")),
            font_px=s.small,
            name="claim:void",
        )
    )
    actions.add_widget(
        Key(
            "",
            s,
            _tap(c, c.ask_hand_pay),
            colour=BLUE,
            text_of=lambda: f"HAND PAY {entry.shown} (PIN)",
            name="hand-pay",
        )
    )


def _reason_typed(box: Widget, c: Console, s: Sizes) -> None:
    """The floorperson's own reason for the hand pay, on the words keypad (the whole width: three
    rows at 800x480), what is typed shown above with the characters left; DONE back to the claim."""
    entry = c.hand_pay
    shown = Text(
        text_of=lambda: f"Reason: {entry.words}_   ({MAX_TYPED - len(entry.words)} left)",
        size_px=s.font,
        grow=True,
        markup=False,
    )
    box.add_widget(shown)
    keys = _grid(s.columns(s.width), s)
    for char in WORD_KEYS:
        keys.add_widget(Key(char, s, _tap(c, partial(c.key, "words", char)), name=f"words:{char}"))
    box.add_widget(keys)
    actions = bar(box)
    actions.add_widget(Key("DEL", s, _tap(c, partial(c.key, "words", "back")), name="words:back"))
    actions.add_widget(Key("SPACE", s, _tap(c, partial(c.key, "words", "space")), name="words:space"))
    done = Key("DONE", s, _tap(c, partial(c.key, "words_done", "")), colour=BLUE, name="words:done")
    actions.add_widget(done)


BUILDERS: Final[dict[str, Callable[[Widget, Console, Sizes], None]]] = {
    "wagers": _wagers,
    "decisions": _decisions,
    "dice": _dice,
    "position": _position,
    "setting": _setting,
    "cards": _cards,
    "irregularity": _irregularity,
    "settlement": _settlement,
    "claim": _claim,
    "pin": _pin,
    "poker": poker_panel.build,
}


def tech_key(c: Console) -> Hashable:
    if c.page != "technician":
        return None
    return tech_view(c.table, c.connection)


def build_tech(box: Widget, c: Console, s: Sizes) -> None:
    if c.page != "technician":
        return
    view = tech_view(c.table, c.connection)
    head = BoxLayout(orientation="vertical", size_hint_y=None, spacing=s.spacing)
    for text in (
        f"table {view.table}  ·  software {view.version}",
        *view.devices,
        view.link,
        view.gpio,
        view.screen,
    ):
        head.add_widget(Text(text, s.small, grow=True))
    head.bind(minimum_height=head.setter("height"))
    box.add_widget(head)
    journal_scroll = scroll()
    journal = _grid(1, s)
    for line in view.journal or ("(no journal records since this screen connected)",):
        journal.add_widget(Text(line, s.small, grow=True, font_name="RobotoMono-Regular", color=GREY_TEXT))
    journal_scroll.add_widget(journal)
    box.add_widget(journal_scroll)
