"""Asia Poker: 58 Pa. Code ch. 659a, as a pure round engine.

The game's folder: ``game`` (the round engine, :data:`GAME`), ``rules`` (its Rules Submission) and
the modules it needs beside them. See docs/new-game.md.
"""

from .game import GAME

__all__ = ["GAME"]
