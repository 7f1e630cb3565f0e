"""The "did you mean" of a name not known: the one helper of the table, the meter, the hardware
layer and the wire (issue 22).

Every refusal of an unknown name (a misspelt option, key, field, wager, game, pin, protocol) ends
with the closest known name, ``"; did you mean 'ante'?"``, or with nothing when none is close.
It lives here because every part may import it: ``wire`` is the one package the table's and the
meter's distributions both carry, and the import contracts (``pyproject.toml``) let the rules core,
the hardware layer and the meter import it. The rules core re-exports it
(``controller.rules.core.dispatch.did_you_mean``). Standard library only, and nothing of the wire.

``tests/test_layers.py`` fails when a module beside this one calls ``difflib`` itself.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable

MAX_NAME = 64
"""No known name is longer: a longer word gets no hint (not worth difflib's time on a megabyte key)."""


def closest(word: object, known: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The name of ``known`` closest to ``word``; ``None`` when none is as close as ``cutoff``
    (difflib's ratio, 0 to 1). ``known`` in any other order than a list's or tuple's is sorted
    (the same name every time)."""
    text = str(word)
    if len(text) > MAX_NAME:
        return None
    names = list(known) if isinstance(known, list | tuple) else sorted(known)
    close = difflib.get_close_matches(text, names, n=1, cutoff=cutoff)
    return close[0] if close else None


def did_you_mean(
    word: object, known: Iterable[str], cutoff: float = 0.6, show: Callable[[str], str] = repr
) -> str:
    """``"; did you mean 'x'?"`` for the name of ``known`` closest to ``word`` (see :func:`closest`),
    the name written by ``show`` (``repr`` unless the message writes names its own way); ``""``
    when none is close."""
    name = closest(word, known, cutoff)
    return "" if name is None else f"; did you mean {show(name)}?"
