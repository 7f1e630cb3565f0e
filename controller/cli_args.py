"""Argument types shared by ``tablectl``'s commands (one wording for every bad number).

ASCII digits only (issue 18, point 5): Python's ``int`` and ``float`` also read other scripts'
digits (``int("١٠")`` is 10), underscores and spaces, so a count is matched first.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Final

WHOLE: Final = re.compile(r"-?[0-9]+", re.ASCII)
"""A whole number as tablectl reads it: ASCII digits, an optional minus, nothing else."""
DECIMAL: Final = re.compile(r"[0-9]+(?:\.[0-9]+)?", re.ASCII)
"""A number of seconds: ASCII digits with an optional fraction."""


def whole_number(minimum: int = 1, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number from ``minimum`` (to ``maximum``)."""

    def parse(text: str) -> int:
        if not WHOLE.fullmatch(text):
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (ASCII digits)")
        n = int(text)
        if maximum is not None and not minimum <= n <= maximum:
            raise argparse.ArgumentTypeError(f"{n} is not from {minimum} to {maximum}")
        if n < minimum:
            raise argparse.ArgumentTypeError(f"{n} is not at least {minimum}")
        return n

    return parse
