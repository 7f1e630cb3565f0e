"""The dealer's screen in Kivy: it draws the :class:`~ui.console.Console` and calls its methods.

No decision is made here. Only what changed is drawn again: each panel has a key (what it is made
of) and is rebuilt only when that changes, while its keys and labels bound to the console's
values (the seat chosen, the amount typed) follow them in place; the seats' column is kept line
by line (:class:`Lines`), the daemon's refusal is one line of its own. Under a software renderer
a new text texture costs milliseconds and every discarded widget is garbage to collect
(docs/ui.md, "Benchmark"). Layout, top to bottom: the lock-out banner with the meter; the game, round and
what it waits for; the seats with their wagers and cards (left) beside the panel the dealer works
in (right); the daemon's last answer and the technician's page. Sizes: :mod:`ui.layout`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import partial
from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from . import panels
from .console import Console
from .faces import faces
from .kivy_parts import (
    Filled,
    Key,
    Row,
    Text,
    followers,
    scroll,
)
from .layout import PANEL_SHARE, Sizes
from .meter import MeterState, MeterView
from .money import dollars
from .poker import seat_lines as poker_seat_lines
from .table import Betting
from .theme import (
    BACKGROUND,
    BLACK,
    BLUE,
    GREY_TEXT,
    KEY,
    ORANGE,
    PANEL,
    PURPLE,
    RGBA,
    SKY,
    VERMILLION,
    WHITE,
    YELLOW,
)
from .words import dealer_words

BANNER_COLOURS = {
    Betting.OPEN: (BLUE, WHITE, "[font=DejaVuSans]○[/font]  "),
    Betting.NO_MORE_BETS: (YELLOW, BLACK, "[font=DejaVuSans]■[/font]  "),
    Betting.TABLE_LOCKED: (VERMILLION, BLACK, "[font=DejaVuSans]■[/font]  "),
    Betting.NO_ROUND: (PANEL, WHITE, ""),
    Betting.PAYING: (SKY, BLACK, "[font=DejaVuSans]▶[/font]  "),
    Betting.HOLD: (ORANGE, BLACK, "[font=DejaVuSans]◆[/font]  "),
}


class Part:
    """A container rebuilt by ``build(container)`` when ``key()`` changes; between rebuilds its
    keys and labels bound to the console's values follow them in place (``follow``). ``also``:
    other containers the build fills (the panel's fixed action bar), cleared with it. A container in
    a scroll view (the panel) shows from its top once rebuilt."""

    def __init__(
        self,
        container: Widget,
        key: Callable[[], Hashable],
        build: Callable[[Widget], None],
        also: tuple[Widget, ...] = (),
    ):
        self.container, self.key, self.build, self.also = container, key, build, also
        self.last: Hashable = object()
        self.live: list[Any] = []

    def refresh(self) -> None:
        key = self.key()
        if key != self.last:
            self.last = key
            for box in (self.container, *self.also):
                box.clear_widgets()
            self.build(self.container)
            if isinstance(self.container.parent, ScrollView):
                self.container.parent.scroll_y = 1  # a new panel shows from its top
            self.live = [
                w for box in (self.container, *self.also) for w in followers(box.walk(restrict=True))
            ]
        for widget in self.live:
            widget.follow()


#: One line of the seats' column: what it is (its widget is kept for it), text, colours.
Line = tuple[str, str, RGBA, RGBA]


class Lines:
    """The seats' column, line by line: a line keeps its widget while it is on screen and is
    drawn again only when its own text or colour changes (a wager redraws its seat's line)."""

    def __init__(self, grid: Widget, sizes: Sizes, lines: Callable[[], list[Line]]):
        self.grid, self.sizes, self.lines = grid, sizes, lines
        self.rows: dict[str, Row] = {}
        self.shown: list[Line] = []

    def refresh(self) -> None:
        lines = self.lines()
        if lines == self.shown:
            return
        order = [name for name, *_ in lines]
        if order != [name for name, *_ in self.shown]:
            self.rows = {name: self.rows.get(name) or Row(self.sizes) for name in order}
            self.grid.clear_widgets()
            for name in order:
                self.grid.add_widget(self.rows[name])
        for name, text, colour, fill in lines:
            self.rows[name].show(text, colour, fill)
        self.shown = lines


def meter_colours(meter: MeterView) -> tuple[RGBA, RGBA]:
    """A meter's box: orange with black words while PENDING, else the panel's."""
    return (ORANGE, BLACK) if meter.state is MeterState.PENDING else (PANEL, WHITE)


class MeterStrip(BoxLayout):
    """The meters of a table of several progressives, one line each atop the seats' column: its
    name, its amount, and PENDING (orange, with the word) while it is held."""

    def __init__(self, sizes: Sizes) -> None:
        super().__init__(orientation="vertical", size_hint_y=None, height=0, spacing=sizes.spacing // 2)
        self.sizes = sizes
        self.lines: list[tuple[Filled, Text]] = []

    def show(self, meters: tuple[MeterView, ...]) -> None:
        s = self.sizes
        if len(self.lines) != len(meters):
            self.clear_widgets()
            self.lines = []
            for _ in meters:
                box = Filled(PANEL, padding=(s.spacing, 0))
                text = Text(size_px=s.small, halign="left")
                box.add_widget(text)
                self.add_widget(box)
                self.lines.append((box, text))
            line = round(s.small * 1.3)
            self.height = len(meters) * line + (len(meters) - 1) * self.spacing if meters else 0
        for (box, text), meter in zip(self.lines, meters, strict=True):
            colour, text_colour = meter_colours(meter)
            box.paint(colour)
            text.color = text_colour
            held = meter.state is MeterState.PENDING
            amount = dollars(meter.amount) if meter.amount is not None else ("" if held else meter.text)
            text.text = f"{meter.title}  " + (f"PENDING {amount}".strip() if held else amount)


class ConsoleView(Filled):
    def __init__(self, console: Console, sizes: Sizes, **kwargs: Any) -> None:
        super().__init__(BACKGROUND, orientation="vertical", spacing=sizes.spacing, **kwargs)
        self.console, self.sizes = console, sizes
        s = sizes
        top = BoxLayout(size_hint_y=None, height=round(s.banner * 1.3), spacing=s.spacing)
        self.banner_box = Filled(BLUE, padding=(s.spacing * 2, 0))
        self.banner = Text(size_px=s.banner, bold=True, halign="center")
        self.banner.markup = True
        self.banner_box.add_widget(self.banner)
        self.banner_box.bind(size=lambda *_: self._fit_banner())
        self.meter_box = Filled(PANEL, size_hint_x=0.42, padding=(s.spacing, 0))
        self.meter = Text(size_px=s.small, bold=True, halign="center")
        self.meter_box.add_widget(self.meter)
        top.add_widget(self.banner_box)
        top.add_widget(self.meter_box)
        self.top_row = top
        self.add_widget(top)
        # A table of several progressives (Blackjack's three): one line per meter, by name, atop
        # the seats' column (MeterStrip); the banner then has the whole top row.
        self.strip = MeterStrip(s)
        # As tall as the daemon's words need: they are never cut off.
        status = Filled(PANEL, size_hint_y=None, padding=(s.spacing * 2, s.spacing // 2))
        self.waits = Text(size_px=s.small, grow=True)
        status.add_widget(self.waits)
        self.waits.bind(
            height=lambda _w, h: setattr(status, "height", max(round(s.small * 2.6), h + s.spacing))
        )
        self.add_widget(status)
        self.body = BoxLayout(spacing=s.spacing)
        self.add_widget(self.body)
        bottom = self.tabs_bar = BoxLayout(size_hint_y=None, height=s.target, spacing=s.spacing)
        self.tabs_row = BoxLayout(spacing=s.spacing)
        self.page_key = Key(
            "Technician", s, lambda: self._toggle_page(), size_hint_x=None, width=s.target * 3
        )
        self.page_key.font_size = s.small
        bottom.add_widget(self.tabs_row)
        bottom.add_widget(self.page_key)
        self.add_widget(bottom)

        self.table_page = BoxLayout(spacing=s.spacing)
        left = BoxLayout(orientation="vertical", size_hint_x=1 - PANEL_SHARE, spacing=s.spacing)
        # The daemon's last refusal, word for word; its own line, so a refusal redraws only it.
        self.message_box = BoxLayout(size_hint_y=None, height=0)
        self.message = Row(s)
        self.message.bind(height=lambda *_: self._size_message())
        left.add_widget(self.strip)
        left.add_widget(self.message_box)
        self.seats_grid = GridLayout(cols=1, size_hint_y=None, spacing=s.spacing)
        self.seats_grid.bind(minimum_height=self.seats_grid.setter("height"))
        seats_scroll = scroll()
        seats_scroll.add_widget(self.seats_grid)
        left.add_widget(seats_scroll)
        self.table_page.add_widget(left)
        # The panel the dealer works in, and below it the action the round needs next: a bar
        # that is never scrolled, always above the tabs (panels.action_bar).
        self.seats_column = left
        self.panel_column = BoxLayout(orientation="vertical", size_hint_x=PANEL_SHARE, spacing=s.spacing)
        right_scroll = scroll()
        self.panel_box = BoxLayout(orientation="vertical", spacing=s.spacing, size_hint_y=None)
        self.panel_box.bind(minimum_height=self.panel_box.setter("height"))
        right_scroll.add_widget(self.panel_box)
        self.panel_column.add_widget(right_scroll)
        self.bar = panels.NextKeys(s)
        self.panel_box.bar = self.bar
        self.panel_column.add_widget(self.bar)
        self.table_page.add_widget(self.panel_column)
        self.tech_page = BoxLayout(orientation="vertical", padding=(s.spacing * 2, 0))
        self.body.add_widget(self.table_page)

        c = console
        self.seats = Lines(self.seats_grid, s, self._seat_lines)
        self.parts = [
            Part(self.tabs_row, lambda: (c.tabs, c.panel), self._build_tabs),
            Part(
                self.panel_box,
                lambda: panels.key(c),
                lambda box: panels.build(box, c, s),
                also=(self.bar,),
            ),
            Part(self.tech_page, lambda: panels.tech_key(c), lambda box: panels.build_tech(box, c, s)),
        ]
        self._trigger = Clock.create_trigger(lambda *_: self.refresh(), 0)
        console.subscribe(self._trigger)
        self.refresh()

    def _toggle_page(self) -> None:
        self.console.show("table" if self.console.page == "technician" else "technician")

    # -- refresh ---------------------------------------------------------------------------------

    def refresh(self) -> None:
        c, table = self.console, self.console.table
        if c.online:
            colour, text_colour, mark = BANNER_COLOURS.get(c.banner_state, (PANEL, WHITE, ""))
            self.banner.text = mark + c.banner
            self._fit_banner()
        else:
            colour, text_colour = VERMILLION, BLACK
            self.banner.text = "[font=DejaVuSans]■[/font]  OFFLINE"
        self.banner_box.paint(colour)
        self.banner.color = text_colour
        meters = table.meters
        several = len(meters) > 1
        self.strip.show(meters if several else ())
        if several and self.meter_box.parent is not None:
            self.top_row.remove_widget(self.meter_box)
        elif not several and self.meter_box.parent is None:
            self.top_row.add_widget(self.meter_box)
        meter = table.meter
        colour, text_colour = meter_colours(meter)
        self.meter_box.paint(colour)
        self.meter.color = text_colour
        if meter.state is MeterState.PENDING and meter.amount is not None:
            self.meter.text = f"{meter.title} PENDING\n{dollars(meter.amount)}"
        elif meter.text:
            self.meter.text = f"{meter.title}\n{meter.text}"
        else:
            self.meter.text = "no progressive" if table.connected_once else "meter: not known"
        waits = c.connection.reason if not c.online else c.waits_for
        self.waits.text = f"{c.title}\n{waits}" if waits else c.title
        self.page_key.text = "Table" if c.page == "technician" else "Technician"
        page = self.tech_page if c.page == "technician" else self.table_page
        if page.parent is None:
            self.body.clear_widgets()
            self.body.add_widget(page)
        self._arrange(c.panel in panels.FULL_WIDTH)
        self.seats.refresh()
        self._show_message()
        for part in self.parts:
            part.refresh()

    def _fit_banner(self) -> None:
        """The banner's words on one line: its biggest size, smaller only when the words are long
        (JACKPOT PENDING - HOLD at 800x480); never under the body text's size."""
        banner, room = self.banner, self.banner_box.height
        size = self.sizes.banner
        while True:
            banner.font_size = size
            banner.texture_update()
            if banner.texture_size[1] <= room or size <= self.sizes.font or room <= 0:
                return
            size -= 2

    def _arrange(self, full_width: bool) -> None:
        """A panel that needs the whole width and height (the floorperson's PIN pad) hides the
        seats' column and the tabs while it is open; every other panel sits beside the seats."""
        shown = self.seats_column.parent is not None
        if full_width and shown:
            self.table_page.remove_widget(self.seats_column)
            self.panel_column.size_hint_x = 1
            self.remove_widget(self.tabs_bar)
        elif not full_width and not shown:
            self.table_page.add_widget(self.seats_column, index=1)
            self.panel_column.size_hint_x = PANEL_SHARE
            self.add_widget(self.tabs_bar)

    # -- the seats -------------------------------------------------------------------------------

    def _seat_lines(self) -> list[Line]:
        poker = self.console.poker
        if poker is not None and not self.console.settlement_open:
            # The poker room's players, pots and board (ui/poker.py).
            return [(name, text, WHITE, KEY) for name, text in poker_seat_lines(poker, self.sizes.small)]
        t = self.console.table
        hands = self.console.hands_shown
        out: list[Line] = []
        if t.betting == Betting.NO_MORE_BETS and (
            t.wager_count.accepted or t.meter.state is not MeterState.NONE
        ):
            out.append(("count", t.wager_count.text, BLACK, YELLOW))
        shown: set[tuple[str, int]] = set()
        for seat in t.seats:
            wagers = " · ".join(
                f"{w.wager.replace('_', ' ')} ${w.amount:,}" for w in seat.wagers if w.wager != "progressive"
            )
            lines = [f"[b]Seat {seat.seat}[/b]  {wagers}"]
            if seat.progressive:
                lines.append(f"◆ progressive accepted ×{seat.progressive}")
            for dealt in self.console.jackpots_at(seat.seat):
                lines.append(f"[b]◆ {dealt}: DO NOT MUCK, CALL THE FLOOR[/b]")
            for hand in hands:
                if hand.to == str(seat.seat):
                    lines.append(
                        (f"hand {hand.hand + 1}: " if hand.hand else "")
                        + faces(hand.cards, True)
                        + self._total(hand.to, hand.hand)
                    )
                    shown.add((hand.to, hand.hand))
            out.append((f"seat:{seat.seat}", "\n".join(lines), WHITE, KEY))
        for hand in hands:
            if (hand.to, hand.hand) not in shown:
                total = self._total(hand.to, hand.hand)
                text = f"[b]{hand.title}[/b]  {faces(hand.cards, markup=True)}{total}"
                out.append((f"hand:{hand.to}:{hand.hand}", text, WHITE, KEY))
        if t.shoe_reading:
            out.append(("shoe", "shoe reading: " + faces(t.shoe_reading, markup=True), GREY_TEXT, PANEL))
        settled = t.settlement
        if settled is not None and settled.dealer and self.console.settlement_open:
            # Secondary text, so the dealer's hand's name ("ace-king-seven-five-three") is one word.
            words = f"[size={self.sizes.small}]Dealer: {settled.dealer}[/size]"
            out.append(("dealer", words, GREY_TEXT, PANEL))
        if t.unseen_events:
            note = (
                f"{t.unseen_events} event(s) of this round came before this screen connected: "
                "their cards are shown, the decisions entered then are not listed"
            )
            out.append(("unseen", note, GREY_TEXT, PANEL))
        titles = self.console.titles
        out.extend(
            (f"entered:{i}", dealer_words(line, titles), GREY_TEXT, PANEL)
            for i, line in enumerate(t.entered[-3:])
        )
        return out

    def _total(self, to: str, hand: int) -> str:
        """A hand's total beside its cards (Blackjack's "soft 17"), the daemon's; "" elsewhere.
        Not after the round is settled: the settlement names the hands then."""
        total = "" if self.console.settlement_open else self.console.total_of(to, hand)
        return f"  [b]{total}[/b]" if total else ""

    def _show_message(self) -> None:
        c = self.console
        shown = bool(c.message) and not c.message_ok
        if shown:
            # A refusal: its own line above the seats, reddish purple with a cross (not PENDING's
            # orange), in the dealer's words; the next action clears it.
            words = dealer_words(c.message, c.titles)
            self.message.show("[font=DejaVuSans]✖[/font] " + words, BLACK, PURPLE)
        if shown and self.message.parent is None:
            self.message_box.add_widget(self.message)
        elif not shown and self.message.parent is not None:
            self.message_box.remove_widget(self.message)
        self._size_message()

    def _size_message(self) -> None:
        self.message_box.height = self.message.height if self.message.parent is not None else 0

    def _build_tabs(self, row: Widget) -> None:
        c, s = self.console, self.sizes
        tabs = [t for t in c.tabs if t not in ("pin", "settlement")]
        if len(tabs) < 2:
            return
        for tab in tabs:
            chosen = tab == c.panel
            row.add_widget(
                Key(
                    panels.TAB_TITLES.get(tab, tab),
                    s,
                    partial(c.open_tab, tab),
                    name=f"tab:{tab}",
                    colour=WHITE if chosen else KEY,
                    text_colour=BLACK if chosen else WHITE,
                    font_px=s.small,
                )
            )
