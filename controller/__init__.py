"""Casino table-game controller for the table games of 58 Pa. Code.

``controller.rules`` is the rules core (pure: cards, hand rankings, games);
the rest of this package is the daemon and the technician's ``tablectl``.
"""

__version__ = "0.1.0"
