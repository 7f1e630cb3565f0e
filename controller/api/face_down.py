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
  ``cards`` (the same ``cards`` events) and ``house_way`` (the settings' ``cards``) withheld the
  same way: where they went, not what they are.

The round's settlement (``round_settled``) is published whole: the hands are shown down by then.
The dealer's screen and a signed-in floorperson or technician see everything
(docs/local-api.md "Face-down cards"). Cards dealt face up (a Blackjack player's hand, the
dealer's up card) are withheld too until the settlement: never shown early, only late.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

WITHHELD: Final = "withheld"
"""What a withheld card or reading reads as."""

_CARD_KEYS: Final = frozenset({"cards", "card"})
_ROUND_KINDS: Final = frozenset({"event", "refused"})
#: The round's parts in the table's state that show cards: its ``cards`` events, the house way's
#: settings (Asia Poker, § 659a.11).
_STATE_CARDS: Final = ("cards", "house_way")


def for_no_role(topic: str, data: Mapping[str, Any]) -> Mapping[str, Any]:
    """``data`` as a subscriber with no role may see it (``data`` itself if it shows no card)."""
    if topic == "input" and data.get("type") == "card_read":
        return {**data, "card": WITHHELD}
    if topic == "state":
        return for_no_role_state(data)
    if topic == "event" and data.get("kind") in _ROUND_KINDS:
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
    shown = {key: _withhold(round_[key]) for key in _STATE_CARDS if round_.get(key)}
    if all(shown[key] is round_[key] for key in shown):
        return status
    return {**status, "round": {**round_, **shown}}


def _withhold(value: Any) -> Any:
    """``value`` with every card and hole-card reading withheld (the same object if none)."""
    if isinstance(value, Mapping):
        changed = False
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key in _CARD_KEYS or (key == "result" and value.get("type") == "hole_card_reader"):
                out[key] = WITHHELD
                changed = True
            else:
                shown = _withhold(item)
                changed = changed or shown is not item
                out[key] = shown
        return out if changed else value
    if isinstance(value, list):
        items = [_withhold(item) for item in value]
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    return value
