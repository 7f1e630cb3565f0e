"""Two idioms every part of the controller shares: a handler table registered once, and the
"did you mean" of a word not known.

:class:`Handlers` is how a game (and the journal's state) turns an event into its handler: each
type is registered once, where the handler is written (as Klipper's ``register_command``), and
:meth:`Handlers.handle` looks the type up; a type with no handler is refused naming the types
there are. A new event is a new handler, not a new branch.

:func:`did_you_mean` is the hint every refusal of an unknown name ends with (a misspelt option,
wager, game, source, device): ``"; did you mean 'ante'?"``, or nothing when no name is close: a
Rules Submission filed "in accordance with § 601a.2 (relating to table games Rules Submissions)"
names its options and wagers exactly, so a near miss is refused with the name it was likely to be,
never taken as the nearest one. It
is :func:`wire.hints.did_you_mean`, the one helper the hardware layer, the meter and the wire use
too, re-exported here for the rules and the daemon.

Standard library only (and the wire's standard-library helper): the rankings and the daemon use
it alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from wire.hints import did_you_mean as did_you_mean

K = TypeVar("K")
H = TypeVar("H", bound=Callable[..., object])


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
