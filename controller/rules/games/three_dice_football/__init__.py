"""Three Dice Football, 58 Pa. Code ch. 661a: the whole game as a state machine fed by throws.

The game's folder: ``game`` (the round engine, :data:`GAME`), ``rules`` (its Rules Submission) and
the modules it needs beside them. See docs/new-game.md.
"""

from .game import GAME

__all__ = ["GAME"]
