"""The poker room's showdowns: Five-card Omaha, Triple Draw and Badugi (58 Pa. Code §§ 637a.19-637a.21).

The game's folder: ``game`` (the round engine, :data:`GAME`), ``rules`` (its Rules Submission) and
the modules it needs beside them. See docs/new-game.md.
"""

from .game import GAME

__all__ = ["GAME"]
