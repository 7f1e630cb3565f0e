"""What every game is built on: cards, money, options, events, the engine and its hooks, the
settlement, the irregularity table and the round record. Pure Python, stdlib only.

Nothing here knows a game: the games (``controller.rules.games``) and the hand rankings
(``controller.rules.rankings``) import from here, never the other way.
"""
