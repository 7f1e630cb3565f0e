"""``tablectl``: the technician's command line (docs/tablectl.md).

One package, one module per concern: :mod:`.cli` (the parser, the offline commands: hands,
checks, replays), :mod:`.daemon` (the commands that speak to the running daemon or read its
journal), :mod:`.link` (the progressive link and ``doctor``), :mod:`.describe` (what those print)
and :mod:`.common` (exit statuses, errors, PIN input). The console script is
``controller.tablectl:main``.
"""

from __future__ import annotations

from .cli import build_parser, main
from .common import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "EXIT_OK", "build_parser", "main"]
