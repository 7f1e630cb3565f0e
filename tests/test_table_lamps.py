"""The payout lamps as a pure function of the journaled state (``controller.table.lamps``).

§ 639a.11(c)(5)(ii): a seat's progressive-won lamp blinks from the settlement of its winning
Progressive Payout Wager, for the dealer to verify, until the next round's "no more bets" (or, if
the payout waits for a floorperson, until one verifies it); § 639a.11(c)(5)(iii), § 633a.7(o)(2)
(ii)(B): the call-floorperson light is on while any payout waits for a floorperson.

The states are built the way the daemon builds them, record by record (``TableState.prepare``),
from the example round ``examples/caribbean-stud/progressive-hit.json``: seats 2, 4 and 6 hit the
progressive (a straight flush, four of a kind, a royal flush), each flagged for a floorperson's
validation.
"""

from __future__ import annotations

import json
from pathlib import Path

from controller.journal.records import (
    BeginRound,
    DeviceOffline,
    DeviceOnline,
    Entry,
    JournalRecord,
    PayoutVerified,
    RecordMeta,
    SettleRound,
)
from controller.journal.state import PROGRESSIVE_LINK, TableState
from controller.rules.core.events import Event
from controller.rules.core.record import Record, load_record
from controller.rules.games import GAMES
from controller.table.lamps import PayoutLamps, payout_lamps, progressive_unavailable
from hw.gpio_devices import LampState

ROOT = Path(__file__).resolve().parents[1]
HIT = ROOT / "examples" / "caribbean-stud" / "progressive-hit.json"
SEATS = range(1, 8)
WINNERS = {2, 4, 6}
TABLE = "CS-3"


class Table:
    """A table's state, one record at a time, as the journal folds it (no file, no clock)."""

    def __init__(self) -> None:
        self.state = TableState.fold(TABLE, [])
        self.records: list[JournalRecord] = []

    def add(self, entry: Entry, source: str = "dealer-ui", actor: str | None = "dealer-7") -> None:
        seq = self.state.last_seq + 1
        meta = RecordMeta(seq, f"event-{seq}", 1_700_000_000_000_000_000 + seq, seq, source, actor)
        record, self.state = self.state.prepare(entry, meta)
        self.records.append(record)

    def play(self, record: Record) -> None:
        self.add(BeginRound(record.game.name, record.rules, record.meters), "daemon", None)
        for event in record.events:
            self.add(event)
        self.add(SettleRound(), "daemon", None)

    def lamps(self) -> PayoutLamps:
        return payout_lamps(self.state, SEATS)


def hit() -> Record:
    return load_record(json.loads(HIT.read_text()), GAMES, str(HIT))


def blinking(lamps: PayoutLamps) -> set[int]:
    return {seat for seat, lamp in lamps.won.items() if lamp is LampState.BLINKING}


def test_a_table_that_settled_nothing_shows_no_lamp() -> None:
    lamps = Table().lamps()
    assert lamps.won == {seat: LampState.OFF for seat in SEATS}
    assert lamps.floorperson_light is LampState.OFF


def test_the_winners_lamps_blink_and_the_floorperson_light_is_on_after_the_settlement() -> None:
    table = Table()
    table.play(hit())
    lamps = table.lamps()
    assert blinking(lamps) == WINNERS
    assert all(lamps.won[seat] is LampState.OFF for seat in set(SEATS) - WINNERS)
    assert lamps.floorperson_light is LampState.STEADY


def test_the_floorperson_light_stays_on_until_every_waiting_payout_is_verified() -> None:
    table = Table()
    record = hit()
    table.play(record)
    round_id = table.state.recent[-1].round_id
    for seat in sorted(WINNERS)[:-1]:
        table.add(PayoutVerified(round_id, seat, "progressive"), "floor", "mfloor")
        assert table.lamps().floorperson_light is LampState.STEADY
    table.add(PayoutVerified(round_id, sorted(WINNERS)[-1], "progressive"), "floor", "mfloor")
    lamps = table.lamps()
    assert lamps.floorperson_light is LampState.OFF
    # Verified, but still the last round's winners: they blink until the next "no more bets".
    assert blinking(lamps) == WINNERS


def test_the_next_rounds_no_more_bets_puts_out_the_verified_winners_lamps_only() -> None:
    table = Table()
    record = hit()
    table.play(record)
    round_id = table.state.recent[-1].round_id
    table.add(PayoutVerified(round_id, 2, "progressive"), "floor", "mfloor")
    table.add(BeginRound(record.game.name, record.rules, record.meters), "daemon", None)
    table.add(Event("wager", seat=3, wager="ante", amount=500))
    assert blinking(table.lamps()) == WINNERS  # betting is open: still the last round's winners
    table.add(Event("no_more_bets"))
    lamps = table.lamps()
    # Seats 4 and 6 still wait for a floorperson: their lamps blink on through the next round.
    assert blinking(lamps) == WINNERS - {2}
    assert lamps.floorperson_light is LampState.STEADY


def test_the_lamps_are_the_same_from_the_journal_folded_again() -> None:
    """After a restart the daemon folds the journal again: the lamps show what they showed."""
    table = Table()
    record = hit()
    table.play(record)
    table.add(BeginRound(record.game.name, record.rules, record.meters), "daemon", None)
    table.add(Event("wager", seat=3, wager="ante", amount=500))
    again = TableState.fold(TABLE, table.records)
    assert again == table.state
    assert payout_lamps(again, SEATS) == table.lamps()


def test_only_the_seats_asked_for_are_answered() -> None:
    table = Table()
    table.play(hit())
    assert payout_lamps(table.state, [4, 5]).won == {4: LampState.BLINKING, 5: LampState.OFF}


def test_the_wager_lamps_say_progressive_unavailable_from_the_journaled_link_loss_to_its_return() -> None:
    """N.J.A.C. 13:69E-1.39B: from the link's journaled ``device_offline`` (its reason) until its
    ``device_online``; another device going offline, or a table never linked, is not it."""
    table = Table()
    assert progressive_unavailable(table.state) is None
    table.add(DeviceOffline("shoe", "unplugged"), "shoe", None)
    assert progressive_unavailable(table.state) is None
    table.play(hit())
    table.add(DeviceOffline(PROGRESSIVE_LINK, "no word from the meter for 30 s"), "link", None)
    assert progressive_unavailable(table.state) == "no word from the meter for 30 s"
    assert blinking(table.lamps()) == WINNERS  # the payouts already won are shown as ever
    table.add(DeviceOnline(PROGRESSIVE_LINK, "the meter is heard"), "link", None)
    assert progressive_unavailable(table.state) is None
