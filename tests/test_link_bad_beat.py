"""Blackjack's Bad Beat claim judged at the meter (issue 17, point 3; § 633a.6(e)(8), § 633a.7(h)).

The meter cannot rank a Bad Beat alone (the dealer's 21 and the player's losing total), so its
paytable is ``ranking = "named"``: its rows are the Rules Submission's row names and the claim's
hand must begin with one (meter/claims.py). The table's claim, as the link makes it from a real
Blackjack round (controller/link/hits.py), is applied to the meter's own store.
"""

from __future__ import annotations

import uuid
from fractions import Fraction
from pathlib import Path

import pytest

from controller.journal.outbox import OutboxEntry
from controller.journal.state import OpenRound
from controller.link.hits import claims_after
from controller.link.publisher import wire_bytes
from meter.config import load
from meter.store import Store
from wire import Award, Declaration, Hit, Parameters, TableMessage, decode_table_message

from .rounds import NO_MORE_BETS, cards, wager
from .test_blackjack import SHOE_DECKS, Table

BAD_BEAT = Parameters(250_000, 250_000, Fraction(12))
CONFIG = """
[link]
id = "floor"
[store]
path = "meter.db"
[broker]
tls = false
[progressives.bj-bad-beat]
initial = "2500.00"
reset = "2500.00"
rate_of_progression = "12%"
ranking = "named"
rows = { "dealer_21_six_cards" = "10%", "dealer_21_seven_or_more_cards" = "100%" }
[tables.t1]
site = "site-a"
progressives = ["bj-bad-beat"]
"""


def bad_beat_claim(player: str, up: str, dealer_rest: str) -> TableMessage:
    """The link's hit for seat 1's Bad Beat, made when the dealer's last card completes the round."""
    t = Table()(wager(1, "blackjack", "10.00"), wager(1, "bad_beat", "5.00"), NO_MORE_BETS)
    t.deal({1: player}, up).stand_all()
    *first, last = dealer_rest.split()
    for card in first:
        t(cards("dealer", card, decks=SHOE_DECKS))
    current = OpenRound("r1", 1, 0, {}, {}, t.round)
    (claim,) = claims_after(current, cards("dealer", last, decks=SHOE_DECKS), {"bad_beat": "bj-bad-beat"})
    # On the wire as the table's outbox publishes it, read as the meter reads it.
    entry = OutboxEntry("t1", 2, str(uuid.uuid4()), 2, "e2", "r1", claim.kind, claim.payload)
    return decode_table_message(wire_bytes(entry))


@pytest.mark.parametrize(
    ("dealer_rest", "row", "paid"),
    [
        ("2d 2h 2s 3c Ac 9d", "dealer_21_seven_or_more_cards", 250_000),  # seven cards: 100% of the meter
        ("2d 2h 2s 3c Ac Ad 8d", "dealer_21_seven_or_more_cards", 250_000),  # eight cards: the same row
        # Six cards: 10% of the meter, paid from the table inventory (§ 633a.7(o)(2)(ii)(C) keeps only
        # 100% from it) but off the linked meter all the same: the meter must hear of it.
        ("2d 2h 3s 2s Kc", "dealer_21_six_cards", 25_000),
    ],
)
def test_the_tables_bad_beat_claim_names_the_meters_row_and_is_paid(
    tmp_path: Path, dealer_rest: str, row: str, paid: int
) -> None:
    message = bad_beat_claim("Kc Qd", "2c", dealer_rest)
    hit = message.payload
    assert isinstance(hit, Hit)
    assert hit.hand.startswith(row + " (")  # the row's name, then the table's own words
    assert hit.seat == 1 and hit.progressive == "bj-bad-beat"
    path = tmp_path / "meter.toml"
    path.write_text(CONFIG)
    config = load(path)
    store = Store(config.store, config)
    try:
        declared = Declaration({"bj-bad-beat": BAD_BEAT})
        store.apply([TableMessage("t1", 1, str(uuid.uuid4()), 1, "e1", None, declared)])
        (out,) = store.apply([message])
        assert isinstance(out.reply, Award), out.reply
        assert out.reply.paid == paid
        assert out.record.body["hand"].startswith(row)
    finally:
        store.close()
