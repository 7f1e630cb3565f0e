"""A plain-Python observer: the view-models tell the widgets they changed, without Kivy.

The Kivy widgets subscribe a callback that schedules a redraw; the tests subscribe a callback
that records. Nothing here knows about a window.
"""

from __future__ import annotations

from collections.abc import Callable

Listener = Callable[[], object]


class Observable:
    """Something the screen draws: :meth:`subscribe` a callback, :meth:`changed` calls them all."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener()`` after every change; returns the function that unsubscribes it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def changed(self) -> None:
        for listener in list(self._listeners):
            listener()
