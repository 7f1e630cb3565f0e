"""Nothing face down reaches a peer with no role (issue 18, point 4): every event of every example
round of every game, as the ``event`` topic publishes it (and wrapped as a refusal or a report
waiting for a floorperson), and the round's part of the state, shown to a peer with no role name
no card of the round until the settlement.

The check is independent of the filter: the round's own cards (from its ``cards`` events and the
cards its decisions name) are looked for as words in what the peer is sent.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from controller.api.face_down import WITHHELD, for_no_role
from controller.rules.core.cards import CardError, parse_cards
from controller.rules.core.events import Event
from tests.test_journal import RECORDS, example

_WORDS = re.compile(r"[0-9A-Za-z]+")


def _cards_of(events: tuple[Event, ...]) -> set[str]:
    """Every card the round deals, as text ("Ad", "JKR"), and any a decision or detail names."""
    out: set[str] = set()
    for e in events:
        out.update(str(c) for c in e.cards)
        for text in (e.action, e.detail):
            for word in _WORDS.findall(text or ""):
                try:
                    out.update(str(c) for c in parse_cards(word, decks=8))
                except CardError:
                    continue
    return out


def _leaks(shown: Any, cards: set[str]) -> list[str]:
    return [w for w in _WORDS.findall(json.dumps(shown)) if w in cards]


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_event_of_any_game_shows_a_card_to_a_peer_with_no_role(path: Any) -> None:
    record = example(path)
    cards = _cards_of(record.events)
    types: set[str] = set()
    for seq, event in enumerate(record.events, 1):
        body = event.to_json()
        types.add(event.type)
        published = [
            {"seq": seq, "kind": "event", "round": "r1", "source": "dealer-ui", "actor": "d7", "body": body},
            {
                "seq": seq,
                "kind": "refused",
                "round": "r1",
                "body": {"entry": {"kind": "event", "body": body}},
            },
            {"seq": seq, "kind": "irregularity_reported", "round": "r1", "body": {"event": body, "why": "w"}},
        ]
        for data in published:
            shown = for_no_role("event", data)
            assert _leaks(shown, cards) == [], (event.type, shown)
    # The round's part of the table's state: its cards events and decisions, as the status lists them.
    round_ = {
        "id": "r1",
        "cards": [e.to_json() for e in record.events if e.type == "cards"],
        "decisions": [e.to_json() for e in record.events if e.type == "decision"],
        "waiting_for": "seat 1 to set the hands",
    }
    shown = for_no_role("state", {"seq": 1, "round": round_})
    assert _leaks(shown, cards) == []
    assert shown["round"]["waiting_for"] == "seat 1 to set the hands"  # words without a card stay


def test_the_set_hands_of_an_asia_poker_decision_are_withheld() -> None:
    """Forbids: "Asia Poker and Fortune Asia Poker decisions carry the set hands as text (`"set 7s
    7d 5s 2c / Ad Ts / 9d"`) on the open `event` topic before the settlement"."""
    decision = {"type": "decision", "seat": 2, "action": "set 7s 7d 5s 2c / Ad Ts / 9d"}
    shown = for_no_role("event", {"seq": 40, "kind": "event", "round": "AP-1-3", "body": decision})
    assert shown["body"] == {"type": "decision", "seat": 2, "action": WITHHELD}
    settled = {"seq": 41, "kind": "round_settled", "round": "AP-1-3", "body": {"settlement": decision}}
    assert for_no_role("event", settled) is settled  # shown down by then
    words = {
        "seq": 42,
        "kind": "event",
        "round": "AP-1-3",
        "body": {"type": "decision", "seat": 2, "action": "help"},
    }
    assert for_no_role("event", words) is words


def test_every_game_has_an_example_walked() -> None:
    from controller.rules.games import GAMES

    walked = {example(p).game.name for p in RECORDS}
    dealt = {name for name in GAMES if name != "poker_room"}
    assert dealt <= walked, dealt - walked
