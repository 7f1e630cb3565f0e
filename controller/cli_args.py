"""Argument types shared by ``tablectl``'s commands (one wording for every bad number)."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole_number(minimum: int = 1, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number from ``minimum`` (to ``maximum``)."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if maximum is not None and not minimum <= n <= maximum:
            raise argparse.ArgumentTypeError(f"{n} is not from {minimum} to {maximum}")
        if n < minimum:
            raise argparse.ArgumentTypeError(f"{n} is not at least {minimum}")
        return n

    return parse
