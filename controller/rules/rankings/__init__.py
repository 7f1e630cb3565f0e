"""Every hand ranking of the rules core, by name.

One place that knows them all, for ``tablectl hand`` and for the games'
Rules Submissions, which name a ranking where the text leaves a choice
(e.g. Asia Poker's A-2-3-4 straight, § 659a.6(b)(3),(6)).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from ..core.dispatch import did_you_mean
from ..core.hand import Ranking
from . import asia_poker, badugi, high, low, omaha, three_card
from . import blackjack as blackjack_hands

RANKINGS: Final[Mapping[str, Ranking]] = MappingProxyType(
    {
        r.name: r
        for module in (high, three_card, low, omaha, badugi, asia_poker, blackjack_hands)
        for r in module.RANKINGS
    }
)


class UnknownRanking(KeyError):
    """A ranking name that is not one of :data:`RANKINGS`."""

    def __str__(self) -> str:
        return str(self.args[0])


def get_ranking(name: str) -> Ranking:
    """The ranking called ``name``; an unknown name says what was meant."""
    try:
        return RANKINGS[name]
    except KeyError:
        hint = did_you_mean(name, list(RANKINGS), 0.5)
        raise UnknownRanking(
            f"no ranking is called {name!r}{hint} (known: {', '.join(sorted(RANKINGS))})"
        ) from None
