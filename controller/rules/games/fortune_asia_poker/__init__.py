"""Fortune Asia Poker: ch. 659a with § 659a.11 as amended, as a pure round engine.

The game's folder: ``game`` (the round engine, :data:`GAME`), ``rules`` (its Rules Submission) and
the modules it needs beside them. See docs/new-game.md.
"""

from .game import GAME

__all__ = ["GAME"]
