"""The few Kivy widgets the screen is made of: text that wraps and never overflows its box, and a
key (a button) at least 9 mm each way. Colours: the Okabe-Ito palette, with words and shapes as
well, never colour alone (WCAG 1.4.1). Contrast ratios: docs/ui.md.

Import only after Kivy's environment is set (``ui.app``): importing Kivy's widgets opens a window.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from kivy.graphics import Color, Line, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from .layout import Sizes
from .theme import (
    BLACK,
    CHOSEN,
    DISABLED,
    DISABLED_EDGE,
    GREY_TEXT,
    KEY,
    KEY_EDGE,
    PANEL,
    RGBA,
    WHITE,
    rgb,
)

CARD_FONT: Final = "DejaVuSans"  # Kivy's own copy; it has the suit symbols


class Filled(BoxLayout):
    """A box with a solid background colour."""

    def __init__(self, colour: RGBA = PANEL, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.canvas.before:
            self._colour = Color(*colour)
            self._rect = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._redraw, size=self._redraw)

    def paint(self, colour: RGBA) -> None:
        self._colour.rgba = colour

    def _redraw(self, *_: object) -> None:
        self._rect.pos, self._rect.size = self.pos, self.size


#: The scroll bar, one colour always: Kivy fades it over half a second after every change of the
#: content, redrawing the whole window each frame (under a software renderer, CPU taken from the
#: daemon's answer); a bar that does not fade costs no frame, and the dealer always sees it.
BAR: Final = rgb("#8A8A8A")


def scroll(sideways: bool = False, **kwargs: Any) -> ScrollView:
    """A scroll view (vertical, or ``sideways``) whose bar never fades (no animation after a
    change) and whose content, when it fits, never moves: Kivy's ``always_overscroll`` (on by
    default) lets a touch or a scroll pull a panel that fits off its place and spring it back
    over a few frames, the keys at its top out of view meanwhile."""
    return ScrollView(
        do_scroll_x=sideways,
        do_scroll_y=not sideways,
        always_overscroll=False,
        bar_color=BAR,
        bar_inactive_color=BAR,
        **kwargs,
    )


class Text(Label):
    """A label that wraps to its width; its height follows its lines when ``grow``.

    ``text_of``: the console's value it shows, read again by :meth:`follow` after every change
    (Kivy draws a new texture only when the text differs)."""

    def __init__(
        self,
        text: str = "",
        size_px: int = 20,
        grow: bool = False,
        text_of: Callable[[], str] | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("color", WHITE)
        kwargs.setdefault("halign", "left")
        kwargs.setdefault("valign", "middle")
        super().__init__(text=text_of() if text_of else text, font_size=size_px, **kwargs)
        self.text_of = text_of
        self.bind(width=self._wrap)
        if grow:
            self.size_hint_y = None
            self.bind(texture_size=self._grow)

    def _wrap(self, *_: object) -> None:
        self.text_size = (self.width, None)

    def _grow(self, *_: object) -> None:
        self.height = self.texture_size[1]

    def follow(self) -> None:
        if self.text_of is not None:
            self.text = self.text_of()


class Key(Button):
    """A touch target of at least ``sizes.target`` pixels each way."""

    def __init__(
        self,
        text: str,
        sizes: Sizes,
        on_tap: Callable[[], object] | None = None,
        colour: RGBA = KEY,
        text_colour: RGBA = WHITE,
        enabled: bool = True,
        font_px: int | None = None,
        name: str = "",
        chosen: Callable[[], bool] | None = None,
        chosen_look: tuple[RGBA, RGBA] = (CHOSEN, BLACK),
        text_of: Callable[[], str] | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", sizes.target)
        super().__init__(
            text=text_of() if text_of else text,
            font_size=font_px or sizes.font,
            background_normal="",
            background_down="",
            background_color=colour if enabled else DISABLED,
            color=text_colour if enabled else GREY_TEXT,
            halign="center",
            valign="middle",
            **kwargs,
        )
        self.min_side = sizes.target
        #: What the key is for, for the tests' taps ("seat:3", "decision:bet"); defaults to its text.
        self.name = name or text
        self.disabled = not enabled
        # Bound to the console's values: :meth:`follow` recolours and relabels the key in place.
        self.chosen, self.text_of = chosen, text_of
        self._looks = ((colour, text_colour), chosen_look)
        # The key's edge: light on an enabled key (3:1 or more, WCAG 1.4.11), none on a disabled one.
        with self.canvas.after:
            Color(*(KEY_EDGE if enabled else DISABLED_EDGE))
            self._edge = Line(rectangle=(self.x, self.y, self.width, self.height), width=1.5)
        self.bind(pos=self._draw_edge, size=self._draw_edge)
        self.bind(size=self._wrap, texture_size=self._fit)
        if on_tap is not None:
            self.bind(on_release=lambda *_: on_tap())
        self.follow()

    def follow(self) -> None:
        if self.text_of is not None:
            self.text = self.text_of()
        if self.chosen is not None and not self.disabled:
            self.background_color, self.color = self._looks[bool(self.chosen())]

    def _draw_edge(self, *_: object) -> None:
        self._edge.rectangle = (self.x + 1, self.y + 1, self.width - 2, self.height - 2)

    def _wrap(self, *_: object) -> None:
        self.text_size = (max(self.width - 8, 1), None)

    def _fit(self, *_: object) -> None:
        # Two lines of a long name: the key grows, its text is never cut off.
        if self.size_hint_y is None:
            self.height = max(self.min_side, self.texture_size[1] + 6)


class Row(Filled):
    """A line of the seats' column: its text wraps and its height follows; :meth:`show` changes
    it in place, so an unchanged line keeps its texture."""

    def __init__(self, sizes: Sizes, **kwargs: Any) -> None:
        super().__init__(KEY, size_hint_y=None, padding=(sizes.spacing, sizes.spacing), **kwargs)
        self.label = Text("", sizes.font, grow=True, markup=True, font_name=CARD_FONT)
        self.add_widget(self.label)
        pad = 2 * sizes.spacing
        self.label.bind(height=lambda _w, h: setattr(self, "height", h + pad))

    def show(self, text: str, colour: RGBA, fill: RGBA) -> None:
        self.paint(fill)
        self.label.color = colour
        self.label.text = text


def followers(widgets: Iterable[Any]) -> list[Any]:
    """The widgets bound to the console's values (a ``follow`` method with something to follow)."""
    return [
        w
        for w in widgets
        if getattr(w, "text_of", None) is not None or getattr(w, "chosen", None) is not None
    ]
