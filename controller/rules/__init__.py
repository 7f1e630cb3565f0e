"""The rules core: cards, every hand ranking of the regulated games, and (growing) the games.

Pure Python, stdlib only: no I/O, no asyncio, no hardware. The public API:

- cards: :class:`Card`, :func:`parse_cards`, :func:`format_cards`, :data:`JOKER`, decks;
- hand values: :class:`HandValue` (ordered within one ranking, printable) and
  :class:`Ranking`; every ranking by name in :data:`RANKINGS` / :func:`get_ranking`;
- the rankings, one module per family, each citing its section (§ 639a.6, § 649a.6, ...): :mod:`.high`,
  :mod:`.three_card`, :mod:`.low`, :mod:`.omaha`, :mod:`.badugi`,
  :mod:`.asia_poker`, :mod:`.blackjack_hands`.

See docs/rules-api.md.
"""

from .core.cards import (
    JOKER,
    Card,
    CardError,
    card,
    deck_with_joker,
    format_cards,
    parse_card,
    parse_cards,
    shoe,
    standard_deck,
)
from .core.hand import HandValue, Ranking
from .rankings import RANKINGS, UnknownRanking, get_ranking
from .rankings.asia_poker import (
    ASIA_POKER,
    ASIA_POKER_A234_LOW,
    ASIA_POKER_BONUS,
    check_setting,
    compare_sets,
)
from .rankings.badugi import BADACEY_BADUGI, BADEUCEY_BADUGI, BADUGI
from .rankings.blackjack import (
    BLACKJACK,
    HOUSE_MONEY,
    STRAIGHT_JACK,
    hand_total,
    hit_and_run_hand,
    is_blackjack,
    side_wager_hands,
    straight_jack_run,
)
from .rankings.high import HIGH
from .rankings.low import A5_LOW, DEUCE_TO_SEVEN_LOW, qualifies_eight_or_better
from .rankings.omaha import OMAHA_HIGH, OMAHA_LOW8, omaha_high_low
from .rankings.three_card import (
    SIX_CARD_BONUS,
    SIX_CARD_BONUS_E,
    THREE_CARD_POKER,
    THREE_CARD_POKER_MINI_ROYAL,
    THREE_CARD_POKER_SHOE,
)

__all__ = [
    "A5_LOW",
    "ASIA_POKER",
    "ASIA_POKER_A234_LOW",
    "ASIA_POKER_BONUS",
    "BADACEY_BADUGI",
    "BADEUCEY_BADUGI",
    "BADUGI",
    "BLACKJACK",
    "DEUCE_TO_SEVEN_LOW",
    "HIGH",
    "HOUSE_MONEY",
    "JOKER",
    "OMAHA_HIGH",
    "OMAHA_LOW8",
    "RANKINGS",
    "SIX_CARD_BONUS",
    "SIX_CARD_BONUS_E",
    "STRAIGHT_JACK",
    "THREE_CARD_POKER",
    "THREE_CARD_POKER_MINI_ROYAL",
    "THREE_CARD_POKER_SHOE",
    "Card",
    "CardError",
    "HandValue",
    "Ranking",
    "UnknownRanking",
    "card",
    "check_setting",
    "compare_sets",
    "deck_with_joker",
    "format_cards",
    "get_ranking",
    "hand_total",
    "hit_and_run_hand",
    "is_blackjack",
    "omaha_high_low",
    "parse_card",
    "parse_cards",
    "qualifies_eight_or_better",
    "shoe",
    "side_wager_hands",
    "standard_deck",
    "straight_jack_run",
]
