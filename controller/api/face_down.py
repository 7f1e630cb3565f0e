"""Face-down cards stay face down: what a subscriber with no role is shown of the cards.

Any process in the API's group may subscribe to the open topics without a PIN. The cards a shoe
reads leave it face down, and many stay so for the round: Blackjack's hole card, read by the
reader "without exposing it to anyone at the table" (§ 633a.7(h)); every Asia Poker hand, its
stacks "delivered face down" (§ 659a.10(b)) until the dealer exposes them; at Caribbean Stud the
players' five cards and four of the dealer's (§ 639a.8(d)). So a subscriber with no role gets no
card value and no hole-card reading while a round is being dealt:

- ``input`` ``card_read``: the card is withheld (it is read as it leaves the shoe, face down);
- ``event`` records of the round (``event``, ``refused``): every ``cards``/``card`` value, and
  the hole-card reader's ``result``, are withheld;
- the table's state (``status``, ``subscribe``'s answer, the ``state`` topic): the round's
  ``cards`` (the same ``cards`` events), ``house_way`` (the settings' ``cards``), ``totals`` (each
  hand's ``total``), the ``decisions`` a ``waiting`` item offers and ``jackpot_hands`` (each
  one's ``hand`` and ``award``) withheld the same way: where they went, not what they are.

Cards written in words are withheld as well, wherever they are: a string anywhere in a record of
the round (any kind but the settlement) or in the round's part of the state that names a card
("set 7s 7d 5s 2c / Ad Ts / 9d", an Asia Poker or Fortune Asia Poker decision's set hands; a
``detail``; the words of an irregularity waiting for a floorperson) is withheld whole.

The round's settlement (``round_settled``) is published whole: the hands are shown down by then.
The dealer's screen and a signed-in floorperson or technician see everything
(docs/local-api.md "Face-down cards"). Cards dealt face up (a Blackjack player's hand, the
dealer's up card) are withheld too until the settlement: never shown early, only late.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

WITHHELD: Final = "withheld"
"""What a withheld card or reading reads as."""

#: A hand's total (``round.totals``) and the decisions the rules take (``round.waiting``) tell
#: what the cards are: withheld as the cards are.
_CARD_KEYS: Final = frozenset({"cards", "card", "total", "decisions"})
#: The keys withheld in one part of the round only: a jackpot hand's row and award name its cards
#: ("royal flush"); its seat stays shown (``round.jackpot_hands``).
_NAMED: Final = {"jackpot_hands": frozenset({"hand", "award"})}
#: Published whole: the hands are shown down by then.
_SHOWN_DOWN: Final = frozenset({"round_settled"})
#: A card written in text (``cards.py``'s form: rank and suit, ``10`` for ten, the joker ``JKR``).
_CARD_TEXT: Final = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA]|10)[cdhs](?![A-Za-z0-9])|JKR", re.ASCII)


def names_a_card(text: str) -> bool:
    """Whether ``text`` names a card ("Ad", "10h", "JKR"), as a word of its own."""
    return _CARD_TEXT.search(text) is not None


def for_no_role(topic: str, data: Mapping[str, Any]) -> Mapping[str, Any]:
    """``data`` as a subscriber with no role may see it (``data`` itself if it shows no card)."""
    if topic == "input" and data.get("type") == "card_read":
        return {**data, "card": WITHHELD}
    if topic == "state":
        return for_no_role_state(data)
    if topic == "event" and data.get("kind") not in _SHOWN_DOWN:
        body = data.get("body")
        if isinstance(body, Mapping):
            shown = _withhold(body)
            if shown is not body:
                return {**data, "body": shown}
    return data


def for_no_role_state(status: Mapping[str, Any]) -> Mapping[str, Any]:
    """The table's state (``status``, the ``state`` topic) as a peer with no role may see it: the
    round's ``cards`` withheld as its ``cards`` events are (``status`` itself if none)."""
    round_ = status.get("round")
    if not isinstance(round_, Mapping):
        return status
    # Each part of the round on its own: its ``cards`` is the list of ``cards`` events (where they
    # went stays shown), the house way's settings, the decisions, the words of what it waits for.
    shown = {key: _withhold(value, _NAMED.get(key, frozenset())) for key, value in round_.items()}
    if all(shown[key] is round_[key] for key in shown):
        return status
    return {**status, "round": shown}


def _withhold(value: Any, also: frozenset[str] = frozenset()) -> Any:
    """``value`` with every card and hole-card reading withheld (the same object if none), and the
    keys ``also``."""
    if isinstance(value, Mapping):
        changed = False
        out: dict[str, Any] = {}
        for key, item in value.items():
            if (
                key in _CARD_KEYS
                or key in also
                or (key == "result" and value.get("type") == "hole_card_reader")
            ):
                out[key] = WITHHELD
                changed = True
            else:
                shown = _withhold(item, also)
                changed = changed or shown is not item
                out[key] = shown
        return out if changed else value
    if isinstance(value, list):
        items = [_withhold(item, also) for item in value]
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    if isinstance(value, str) and names_a_card(value):
        return WITHHELD
    return value
