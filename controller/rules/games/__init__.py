"""Every game the round engine settles, by the name used in records and Rules Submissions."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from ..core.engine import Game
from . import (
    asia_poker,
    blackjack,
    caribbean_stud,
    fortune_asia_poker,
    holdem_bonus,
    poker_room,
    three_card_poker,
    three_dice_football,
)

GAMES: Final[Mapping[str, Game[Any, Any]]] = MappingProxyType(
    {
        g.name: g
        for g in (
            caribbean_stud.GAME,
            holdem_bonus.GAME,
            three_card_poker.GAME,
            blackjack.GAME,
            three_dice_football.GAME,
            asia_poker.GAME,
            fortune_asia_poker.GAME,
            poker_room.GAME,
        )
    }
)
