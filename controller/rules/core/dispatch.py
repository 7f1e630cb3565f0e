"""Two idioms every part of the controller shares: a handler table registered once, and the
"did you mean" of a word not known.

:class:`Handlers` is how a game (and the journal's state) turns an event into its handler: each
type is registered once, where the handler is written (as Klipper's ``register_command``), and
:meth:`Handlers.handle` looks the type up; a type with no handler is refused naming the types
there are. A new event is a new handler, not a new branch.

:func:`did_you_mean` is the hint every refusal of an unknown name ends with (a misspelt option,
wager, game, source, device): ``"; did you mean 'ante'?"``, or nothing when no name is close.

Standard library only: the rankings and the daemon use it alike.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K")
H = TypeVar("H", bound=Callable[..., object])


def did_you_mean(word: object, known: Iterable[str], cutoff: float = 0.6) -> str:
    """``"; did you mean 'x'?"`` for the name of ``known`` closest to ``word``; ``""`` when none is
    as close as ``cutoff`` (difflib's ratio, 0 to 1). ``known`` in any other order than a list's
    or tuple's is sorted (the same hint every time)."""
    text = str(word)
    if len(text) > 64:
        return ""  # no name is that long: not worth difflib's time on a megabyte key
    names = list(known) if isinstance(known, list | tuple) else sorted(known)
    close = difflib.get_close_matches(text, names, n=1, cutoff=cutoff)
    return f"; did you mean {close[0]!r}?" if close else ""


class Handlers(Generic[K, H]):
    """The handler of each key (an event's type, a record's class), each registered once.

    ``register(key)`` decorates the handler where it is written; :meth:`get` finds it. A second
    handler for a key is a :class:`ValueError` at import: two handlers would be a silent choice.
    """

    def __init__(self, owner: str) -> None:
        self.owner = owner
        """Whose handlers they are, for the refusals: ``"Three Card Poker"``."""
        self._handlers: dict[K, H] = {}

    def register(self, *keys: K) -> Callable[[H], H]:
        """A decorator: the function handles ``keys``."""

        def add(handler: H) -> H:
            for key in keys:
                self.add(key, handler)
            return handler

        return add

    def add(self, key: K, handler: H) -> None:
        """``handler`` handles ``key``; a key already handled is a :class:`ValueError`."""
        if key in self._handlers:
            raise ValueError(f"{self.owner}: {key!r} already has a handler")
        self._handlers[key] = handler

    def get(self, key: K) -> H | None:
        return self._handlers.get(key)

    def __contains__(self, key: object) -> bool:
        return key in self._handlers

    def __iter__(self) -> Iterator[K]:
        return iter(self._handlers)

    def names(self) -> str:
        """The keys handled, in words: ``"wager, no_more_bets, cards and decision"``."""
        keys = [str(k) for k in self._handlers]
        return keys[0] if len(keys) == 1 else f"{', '.join(keys[:-1])} and {keys[-1]}"
