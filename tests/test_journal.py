"""The journal: real SQLite files, real threads, the real rules core.

Appends and their order, the gapless seq, the outbox committed with its record (a failure
rolls back both), refusals journaled as refused, recovery equal to a full replay, the
example rounds exported and replayed to their settlements, damaged or foreign files named
clearly, and readers reading while the daemon writes.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import tempfile
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.bench_journal import ToThreadWriter
from controller.journal import (
    SCHEMA_VERSION,
    Journal,
    JournalBusy,
    JournalCorrupt,
    JournalError,
    JournalReader,
    JournalVersionError,
    JournalWriteError,
    Outbound,
    Refused,
    Step,
    UnknownRound,
    read_boot_id,
)
from controller.journal.chain import ChainHead, chain_hash
from controller.journal.chain_key import FileChainKey, key_path, load_key
from controller.journal.marker import HeadMarker, write_marker
from controller.journal.records import (
    REFUSED,
    ROUND_BEGIN,
    ROUND_EVENT,
    ROUND_SETTLED,
    BeginRound,
    CancelRound,
    Command,
    ConfigLoaded,
    DeviceOffline,
    DeviceOnline,
    LockOut,
    PayoutVerified,
    SettleRound,
    Started,
    Unlock,
)
from controller.journal.schema import COLUMNS
from controller.journal.state import RECENT_ROUNDS, TableState
from controller.journal.writer import WriterFactory, start_writer_thread
from controller.rules.core.cards import parse_cards
from controller.rules.core.events import Event
from controller.rules.core.record import Record, load_record, replay
from controller.rules.games import GAMES
from controller.tablectl import EXIT_OK
from controller.tablectl import main as tablectl

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RECORDS = sorted(p for p in EXAMPLES.glob("*/*.json") if not p.name.endswith(".settlement.json"))
TABLE = "CS-3"
CARIBBEAN = EXAMPLES / "caribbean-stud" / "normal-round.json"


def example(path: Path) -> Record:
    return load_record(json.loads(path.read_text()), GAMES, str(path))


def settlement_of(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.with_name(path.name.removesuffix(".json") + ".settlement.json").read_text()))


def source_of(event: Event) -> tuple[str, str | None]:
    if event.type in ("wager", "no_more_bets"):
        return "gpio", None
    if event.type == "cards":
        return "shoe", None
    return "dealer-ui", "dealer-7"


async def deal(journal: Journal, record: Record, *, settle: bool = True, upto: int | None = None) -> str:
    """The record's round into the journal; returns its round id."""
    begun = await journal.append(
        BeginRound(record.game.name, record.rules, record.meters), source="dealer-ui", actor="dealer-7"
    )
    for event in record.events[:upto]:
        where, actor = source_of(event)
        await journal.append(event, source=where, actor=actor)
    if settle:
        await journal.append(SettleRound(), source="dealer-ui", actor="dealer-7")
    assert begun.record.round_id is not None
    return begun.record.round_id


@pytest_asyncio.fixture
async def journal(tmp_path: Path) -> AsyncIterator[Journal]:
    j = await Journal.open(tmp_path / "journal.sqlite3", TABLE)
    yield j
    await j.close()


def raw(path: Path) -> sqlite3.Connection:
    """A plain SQLite connection, as a damaged disk or a careless hand would use."""
    return sqlite3.connect(path, isolation_level=None)


# --- append, read, order ---------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize("writer", [start_writer_thread, ToThreadWriter])
async def test_append_read_in_order(tmp_path: Path, writer: WriterFactory) -> None:
    record = example(CARIBBEAN)
    async with await Journal.open(tmp_path / "j.sqlite3", TABLE, writer=writer) as journal:
        await journal.append(Started("1.0", read_boot_id()), source="daemon")
        round_id = await deal(journal, record)
        records = await journal.records()
        assert [r.seq for r in records] == list(range(1, len(record.events) + 4))
        assert [r.kind for r in records[:2]] == ["started", ROUND_BEGIN]
        assert records[-1].kind == ROUND_SETTLED
        events = [r for r in records if r.kind == ROUND_EVENT]
        assert [r.body for r in events] == [e.to_json() for e in record.events]
        assert all(r.round_id == round_id for r in records[1:])
        assert records[0].round_id is None
        assert records[1].actor == "dealer-7" and events[0].source == "gpio" and events[0].actor is None
        assert len({r.event_id for r in records}) == len(records)
        walls = [r.wall_ns for r in records]
        monos = [r.mono_ns for r in records]
        assert walls == sorted(walls) and monos == sorted(monos)
        assert [r.seq for r in await journal.records(after_seq=3, limit=2)] == [4, 5]
        assert journal.state.current is None
        assert journal.state.recent[-1].settlement == settlement_of(CARIBBEAN)


@pytest.mark.asyncio
async def test_concurrent_appends_keep_their_order_and_seq(journal: Journal) -> None:
    record = example(CARIBBEAN)
    await journal.append(BeginRound(record.game.name, record.rules), source="dealer-ui", actor="d")
    wagers = [e for e in record.events if e.type == "wager"]
    # The bet sensors at once: checked in call order, committed together.
    done = await asyncio.gather(*(journal.append(e, source="gpio") for e in wagers))
    assert [a.record.seq for a in done] == list(range(2, 2 + len(wagers)))
    assert journal.state.current is not None
    assert journal.state.current.events == tuple(wagers)


@pytest.mark.asyncio
async def test_a_cancelled_caller_does_not_undo_the_write(journal: Journal) -> None:
    task = asyncio.create_task(journal.append(LockOut("link lost"), source="link"))
    await asyncio.sleep(0)
    task.cancel()
    await journal.append(Unlock("link back"), source="link")
    kinds = [r.kind for r in await journal.records()]
    assert kinds == ["lock_out", "unlock"]
    assert journal.state.last_seq == 2 and not journal.state.locked_out


# --- gapless, append-only ----------------------------------------------------------------------


@pytest.mark.asyncio
async def test_seq_is_gapless_and_the_file_refuses_a_gap_or_a_change(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    async with await Journal.open(path, TABLE) as journal:
        await deal(journal, example(CARIBBEAN), settle=False, upto=3)
        with pytest.raises(Refused):
            await journal.append(SettleRound(), source="dealer-ui", actor="d")  # not complete: refused
        last = journal.state.last_seq
        assert [r.seq for r in await journal.records()] == list(range(1, last + 1))
    conn = raw(path)
    row = conn.execute("SELECT * FROM events WHERE seq = 1").fetchone()
    with pytest.raises(sqlite3.IntegrityError, match="without a gap"):
        conn.execute(
            "INSERT INTO events VALUES (?, 'x', 0, 0, 'gpio', NULL, NULL, 'started', '{}', ?)",
            (last + 2, "0" * 64),
        )
    with pytest.raises(sqlite3.IntegrityError, match="never changed"):
        conn.execute("UPDATE events SET body = '{}' WHERE seq = 2")
    with pytest.raises(sqlite3.IntegrityError, match="never deleted"):
        conn.execute("DELETE FROM events WHERE seq = ?", (last,))
    assert conn.execute("SELECT * FROM events WHERE seq = 1").fetchone() == row
    conn.close()


@pytest.mark.asyncio
async def test_a_settlement_is_journaled_once(journal: Journal) -> None:
    await deal(journal, example(CARIBBEAN))
    with pytest.raises(Refused, match="no round is open"):
        await journal.append(SettleRound(), source="dealer-ui", actor="d")
    records = await journal.records()
    assert [r.kind for r in records].count(ROUND_SETTLED) == 1
    assert records[-1].kind == REFUSED


# --- refusals ----------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_refused_event_is_journaled_as_refused_never_accepted(journal: Journal) -> None:
    record = example(CARIBBEAN)
    upto = next(i for i, e in enumerate(record.events) if e.type == "no_more_bets") + 1
    await deal(journal, record, settle=False, upto=upto)
    before = journal.state
    late = Event("wager", seat=1, wager="ante", amount=1000)
    with pytest.raises(Refused, match=r"no more bets|§") as refused:
        await journal.append(late, source="gpio", outbox=[Outbound("contribution", {"seat": 1})])
    assert refused.value.record.kind == REFUSED
    assert refused.value.record.body["entry"] == {"kind": ROUND_EVENT, "body": late.to_json()}
    assert refused.value.record.body["reason"] == str(refused.value)
    assert journal.state.current == before.current  # the round is as it was
    assert journal.state.last_seq == before.last_seq + 1
    assert await journal.pending() == []  # the refused entry's message was dropped
    for event in record.events[upto:]:
        where, actor = source_of(event)
        await journal.append(event, source=where, actor=actor)
    settled = await journal.append(SettleRound(), source="dealer-ui", actor="d")
    assert settled.record.body["settlement"] == settlement_of(CARIBBEAN)


@pytest.mark.asyncio
async def test_the_tables_own_rules(journal: Journal) -> None:
    record = example(CARIBBEAN)
    with pytest.raises(Refused, match="no round is open"):
        await journal.append(record.events[0], source="gpio")
    await journal.append(BeginRound(record.game.name, record.rules), source="dealer-ui", actor="d")
    with pytest.raises(Refused, match="is open"):
        await journal.append(BeginRound(record.game.name, record.rules), source="dealer-ui", actor="d")
    await journal.append(record.events[0], source="gpio")
    with pytest.raises(Refused, match="accepted wagers"):
        await journal.append(CancelRound("nobody plays"), source="dealer-ui", actor="d")
    assert journal.state.current is not None
    assert [r.kind for r in await journal.records()].count(REFUSED) == 3


@pytest.mark.asyncio
async def test_cards_the_deck_cannot_hold_are_refused(journal: Journal) -> None:
    record = example(CARIBBEAN)
    await journal.append(BeginRound(record.game.name, record.rules), source="dealer-ui", actor="d")
    # One deck: the ace of spades twice in one read.
    twice = Event("cards", to="1", cards=parse_cards("As Ks Qs", decks=2) + parse_cards("As Kd"))
    with pytest.raises(Refused, match="As"):
        await journal.append(twice, source="shoe")
    assert journal.state.current is not None and journal.state.current.events == ()


@pytest.mark.asyncio
async def test_a_round_without_wagers_is_cancelled(journal: Journal) -> None:
    record = example(CARIBBEAN)
    await journal.append(BeginRound(record.game.name, record.rules), source="dealer-ui", actor="d")
    await journal.append(CancelRound("nobody sat down"), source="dealer-ui", actor="d")
    (summary,) = await journal.recent_rounds(1)
    assert summary.status == "cancelled" and summary.reason == "nobody sat down"
    assert journal.state.current is None and journal.state.recent == (summary,)


@pytest.mark.asyncio
async def test_malformed_input_journals_nothing(journal: Journal) -> None:
    record = example(CARIBBEAN)
    with pytest.raises(ValueError, match="did you mean 'dealer-ui'"):
        await journal.append(LockOut("x"), source="dealer_ui", actor="d")
    with pytest.raises(ValueError, match="names its actor"):
        await journal.append(LockOut("x"), source="floor")
    with pytest.raises(ValueError, match="names its actor"):
        await journal.append(Command("status", "tech"), source="daemon")
    with pytest.raises(ValueError, match="did you mean 'caribbean-stud'"):
        await journal.append(BeginRound("caribean-stud", record.rules), source="daemon")
    with pytest.raises(ValueError, match="paytabel"):
        await journal.append(BeginRound("caribbean-stud", {"bonus": {"paytabel": "A"}}), source="daemon")
    with pytest.raises(TypeError, match="CaribbeanStudRules"):
        await journal.append(BeginRound("caribbean-stud", example(RECORDS[0]).rules), source="daemon")
    with pytest.raises(ValueError, match="not JSON"):
        await journal.append(LockOut("x"), source="link", outbox=[Outbound("hit", {"amount": 1.5j})])
    assert await journal.records() == [] and journal.state == TableState(TABLE)


# --- the outbox --------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_outbox_pending_mark_sent_and_at_least_once_across_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    async with await Journal.open(path, TABLE) as journal:
        a = await journal.append(
            LockOut("link lost"),
            source="link",
            outbox=[Outbound("status", {"online": False}), Outbound("status", {"online": True})],
        )
        b = await journal.append(Unlock("link back"), source="link", outbox=[Outbound("status", {"x": 1})])
        assert [m.seq for m in (*a.outbox, *b.outbox)] == [1, 2, 3]
        assert a.outbox[0].event_seq == a.record.seq and a.outbox[0].event_id == a.record.event_id
        pending = await journal.pending()
        assert pending == [*a.outbox, *b.outbox]
        assert await journal.mark_sent([pending[0].message_id]) == 1
        assert await journal.mark_sent([pending[0].message_id]) == 0  # again: nothing new
        with pytest.raises(ValueError, match="no message"):
            await journal.mark_sent([pending[1].message_id, "not-an-id"])
        assert [m.seq for m in await journal.pending()] == [2, 3]  # the bad call marked nothing
        envelope = pending[1].envelope()
        assert envelope["table"] == TABLE and envelope["seq"] == 2 and envelope["payload"] == {"online": True}
    # After a restart (or a crash before mark_sent) the same messages, same ids and seqs, again.
    async with await Journal.open(path, TABLE) as journal:
        await asyncio.wait_for(journal.wait_for_outbox(), 1)
        assert await journal.pending() == pending[1:]
        c = await journal.append(LockOut("again"), source="link", outbox=[Outbound("status", {})])
        assert c.outbox[0].seq == 4


@pytest.mark.asyncio
async def test_wait_for_outbox_wakes_on_commit(journal: Journal) -> None:
    waiter = asyncio.create_task(journal.wait_for_outbox())
    await asyncio.sleep(0.01)
    assert not waiter.done()
    await journal.append(LockOut("x"), source="link")  # no message: no wake-up
    await asyncio.sleep(0.01)
    assert not waiter.done()
    await journal.append(Unlock("x"), source="link", outbox=[Outbound("status", {"online": True})])
    await asyncio.wait_for(waiter, 1)


@pytest.mark.asyncio
async def test_an_outbox_failure_rolls_back_the_record_too(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    async with await Journal.open(path, TABLE) as journal:
        await journal.append(LockOut("first"), source="link", outbox=[Outbound("status", {"n": 1})])
        conn = raw(path)
        conn.execute(
            "CREATE TRIGGER disk_trouble BEFORE INSERT ON outbox WHEN NEW.kind = 'hit' "
            "BEGIN SELECT RAISE(ABORT, 'disk trouble'); END"
        )
        before = journal.state
        # The failing append and two queued behind it (checked against a state that included it).
        results = await asyncio.gather(
            journal.append(Unlock("second"), source="link", outbox=[Outbound("hit", {"n": 2})]),
            journal.append(DeviceOnline("shoe"), source="shoe"),
            journal.append(DeviceOnline("shuffler"), source="shuffler"),
            return_exceptions=True,
        )
        assert all(isinstance(r, JournalWriteError) for r in results), results
        assert "disk trouble" in str(results[0])
        assert journal.state == before
        assert [r.seq for r in await journal.records()] == [1]
        assert [m.seq for m in await journal.pending()] == [1]
        # The journal goes on from what it holds: the same seq, the next outbox seq.
        again = await journal.append(Unlock("second"), source="link", outbox=[Outbound("status", {"n": 2})])
        assert again.record.seq == 2 and again.outbox[0].seq == 2
        conn.execute("DROP TRIGGER disk_trouble")
        conn.close()
    with JournalReader(path) as reader:
        assert reader.verify() == reader.recover()


@pytest.mark.asyncio
async def test_a_round_id_used_long_ago_is_refused_by_the_file(journal: Journal) -> None:
    """The state remembers ten rounds; the file's unique index remembers them all."""
    record = example(CARIBBEAN)
    first = await deal(journal, record)
    for _ in range(RECENT_ROUNDS):
        await deal(journal, record)
    before = journal.state
    with pytest.raises(JournalWriteError, match="UNIQUE"):
        await journal.append(
            BeginRound(record.game.name, record.rules, round_id=first),
            source="dealer-ui",
            actor="d",
            outbox=[Outbound("round", {"id": first})],
        )
    assert journal.state == before
    assert (await journal.records())[-1].seq == before.last_seq
    assert await journal.pending() == []


# --- recovery is the replay ------------------------------------------------------------------


@pytest.mark.asyncio
async def test_recovery_mid_round_is_exact_and_equals_a_full_replay(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    records = [example(p) for p in RECORDS]
    async with await Journal.open(path, TABLE) as journal:
        await journal.append(ConfigLoaded("/etc/table-controller/config.toml", "ab" * 32), source="daemon")
        await journal.append(DeviceOffline("shoe", "port lost"), source="daemon")
        await journal.append(LockOut("link lost"), source="link")
        for r in records[: RECENT_ROUNDS + 3]:  # more rounds than recovery folds
            await deal(journal, r)
        await journal.append(DeviceOnline("shuffler"), source="daemon")
        half = len(records[5].events) // 2
        open_round = await deal(journal, records[5], settle=False, upto=half)
        live = journal.state
    async with await Journal.open(path, TABLE, full_replay=True) as journal:
        assert journal.state == live
        current = journal.state.current
        assert current is not None and current.round_id == open_round
        assert current.events == records[5].events[:half]
        assert journal.state.locked_out and journal.state.lock_reason == "link lost"
        assert not journal.state.devices["shoe"].online and journal.state.devices["shuffler"].online
        assert journal.state.config is not None and journal.state.config.sha256 == "ab" * 32
        assert len(journal.state.recent) == RECENT_ROUNDS
        # The round goes on where it was.
        for event in records[5].events[half:]:
            where, actor = source_of(event)
            await journal.append(event, source=where, actor=actor)
        done = await journal.append(SettleRound(), source="dealer-ui", actor="d")
        assert done.record.body["settlement"] == settlement_of(RECORDS[5])
    with JournalReader(path, TABLE) as reader:
        assert reader.recover() == reader.replay_all() == reader.verify()


@st.composite
def table_lives(draw: st.DrawFn) -> list[tuple[str, int]]:
    """A table's life: rounds (example index), some left open at the end, facts between."""
    steps = draw(
        st.lists(
            st.one_of(
                st.tuples(st.just("round"), st.integers(0, len(RECORDS) - 1)),
                st.tuples(
                    st.sampled_from(["lock", "unlock", "online", "offline", "config", "command", "verify"]),
                    st.integers(0, 2),
                ),
            ),
            max_size=30,
        )
    )
    if draw(st.booleans()):
        steps.append(("open", draw(st.integers(0, len(RECORDS) - 1))))
    return steps


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table_lives())
def test_recovery_equals_replay_for_any_life(life: list[tuple[str, int]]) -> None:
    async def live(path: Path) -> TableState:
        async with await Journal.open(path, TABLE) as journal:
            for what, n in life:
                if what == "round":
                    await deal(journal, example(RECORDS[n]))
                elif what == "open":
                    await deal(journal, example(RECORDS[n]), settle=False, upto=n % 5)
                elif what in ("lock", "unlock"):
                    await journal.append(
                        LockOut(f"r{n}") if what == "lock" else Unlock(f"r{n}"), source="link"
                    )
                elif what in ("online", "offline"):
                    device = ("shoe", "shuffler", "hole-card-reader")[n]
                    fact = DeviceOnline(device) if what == "online" else DeviceOffline(device, "lost")
                    await journal.append(fact, source="daemon")
                elif what == "config":
                    await journal.append(ConfigLoaded("/c.toml", str(n) * 64), source="daemon")
                elif what == "verify":
                    pending = journal.state.pending_payouts()
                    if pending:
                        p = pending[n % len(pending)]
                        verified = PayoutVerified(p.round_id, p.seat, p.wager)
                        await journal.append(verified, source="floor", actor="floor-2")
                else:
                    await journal.append(
                        Command("status", "tech", {"n": n}), source="tablectl", actor="tech-1"
                    )
            return journal.state

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "j.sqlite3"
        state = asyncio.run(live(path))
        with JournalReader(path, TABLE) as reader:
            assert reader.recover() == state == reader.replay_all()


@pytest.mark.asyncio
async def test_a_flagged_payout_waits_for_one_verification(journal: Journal) -> None:
    """§ 639a.11(c)(5)(iii): a floorperson validates each progressive payout, once."""
    hit = EXAMPLES / "caribbean-stud" / "progressive-hit.json"
    round_id = await deal(journal, example(hit))
    pending = journal.state.pending_payouts()
    flagged = {
        (int(seat), wager)
        for seat, wagers in settlement_of(hit)["seats"].items()
        for wager, line in wagers.items()
        if "floorperson_validation" in line.get("flags", [])
    }
    assert flagged and {(p.seat, p.wager) for p in pending} == flagged
    assert all(p.round_id == round_id for p in pending)
    first = pending[0]
    await journal.append(PayoutVerified(round_id, first.seat, first.wager), source="floor", actor="f")
    assert first not in journal.state.pending_payouts()
    assert len(journal.state.pending_payouts()) == len(pending) - 1
    for wrong, why in (
        (PayoutVerified(round_id, first.seat, first.wager), "already verified"),
        (PayoutVerified(round_id, 7, "ante"), "no payout there waits"),
    ):
        with pytest.raises(Refused, match=why):
            await journal.append(wrong, source="floor", actor="f")
    # Ten rounds later the hit is no longer among the last rounds: nothing waits for it here.
    for _ in range(RECENT_ROUNDS):
        await deal(journal, example(CARIBBEAN))
    assert journal.state.pending_payouts() == ()
    assert journal.state.verified == frozenset()


# --- recall and export ---------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
async def test_export_replays_to_the_examples_settlement(
    journal: Journal, path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    round_id = await deal(journal, example(path))
    exported = await journal.export_round(round_id)
    assert exported["game"] == example(path).game.name and exported["round"] == round_id
    again = load_record(json.loads(json.dumps(exported)), GAMES, "exported")
    assert replay(again).to_json() == settlement_of(path)
    recalled = await journal.recall(round_id)
    assert recalled.consistent and recalled.summary.settlement == settlement_of(path)
    assert recalled.replayed is not None and recalled.replayed.to_json() == settlement_of(path)
    # And through the technician's tool.
    file = tmp_path / "exported.json"
    file.write_text(json.dumps(exported))
    assert tablectl(["replay", str(file)]) == EXIT_OK
    assert json.loads(capsys.readouterr().out) == settlement_of(path)


@pytest.mark.asyncio
async def test_recent_rounds_and_recall_by_id(journal: Journal) -> None:
    ids = [await deal(journal, example(RECORDS[i])) for i in range(RECENT_ROUNDS + 2)]
    await journal.append(LockOut("break"), source="floor", actor="floor-3")
    open_id = await deal(journal, example(RECORDS[0]), settle=False, upto=2)
    recent = await journal.recent_rounds(RECENT_ROUNDS + 3)
    assert [r.round_id for r in recent] == [open_id, *reversed(ids)]
    assert recent[0].status == "open" and all(r.status == "settled" for r in recent[1:])
    assert [r.round_id for r in journal.state.recent] == ids[-RECENT_ROUNDS:]
    oldest = await journal.recall(ids[0])  # older than the state keeps: still recalled from the file
    assert oldest.summary.settlement == settlement_of(RECORDS[0])
    still_open = await journal.recall(open_id)
    assert still_open.summary.status == "open" and still_open.replayed is None
    assert still_open.waiting_for and len(still_open.record["events"]) == 2  # type: ignore[arg-type]
    with pytest.raises(UnknownRound, match=open_id):
        await journal.recall("no-such-round")


@pytest.mark.asyncio
async def test_recall_shows_the_refusals_and_commands_of_the_round(journal: Journal) -> None:
    record = example(CARIBBEAN)
    round_id = await deal(journal, record, settle=False, upto=4)
    await journal.append(Command("verify_payout", "floor", {"seat": 3}), source="floor", actor="floor-3")
    with pytest.raises(Refused):
        await journal.append(BeginRound(record.game.name, record.rules), source="dealer-ui", actor="d")
    recalled = await journal.recall(round_id)
    assert [r.kind for r in recalled.records][-2:] == ["command", REFUSED]
    assert len(recalled.record["events"]) == 4  # type: ignore[arg-type]


# --- damaged, foreign and newer files ----------------------------------------------------------


@pytest.mark.asyncio
async def test_a_file_of_garbage_is_named(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"this is not a database, it is a grocery list\n" * 200)
    with pytest.raises(JournalCorrupt, match="not a journal"):
        await Journal.open(path, TABLE)


@pytest.mark.asyncio
async def test_a_foreign_sqlite_file_is_not_taken(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    conn = raw(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.close()
    with pytest.raises(JournalError, match="not a table controller journal"):
        await Journal.open(path, TABLE)


@pytest.mark.asyncio
async def test_a_newer_schema_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    async with await Journal.open(path, TABLE) as journal:
        await journal.append(LockOut("x"), source="link")
    conn = raw(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(
        JournalVersionError, match=f"journal schema {SCHEMA_VERSION + 1} is newer than this release"
    ):
        await Journal.open(path, TABLE)
    with pytest.raises(JournalVersionError):
        JournalReader(path)


@pytest.mark.asyncio
async def test_another_tables_journal_and_a_second_writer(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    async with await Journal.open(path, TABLE):
        with pytest.raises(JournalBusy, match="another process"):
            await Journal.open(path, TABLE)
    with pytest.raises(JournalError, match="belongs to table 'CS-3', not 'CS-4'"):
        await Journal.open(path, "CS-4")
    with pytest.raises(JournalError, match="no journal there"):
        await Journal.open(tmp_path / "missing.sqlite3", TABLE, create=False)


def _garbage(path: Path, seq: int, kind: str, body: str, round_id: str | None) -> None:
    """A garbage record, chained as the writer would chain it: what the fold's own checks see
    once the hash chain holds (a writer with a bug, not a damaged disk)."""
    conn = raw(path)
    conn.execute("PRAGMA ignore_check_constraints = ON")  # what bit rot does not ask for
    previous = conn.execute("SELECT hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()[0]
    row = (seq, f"garbage-{seq}", 0, 0, "shoe", None, round_id, kind, body)
    conn.execute(
        "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (*row, chain_hash(conn, table_key(path), previous, row)),
    )
    conn.close()


def table_key(path: Path) -> FileChainKey:
    """The table's chain key beside ``path`` (as the daemon made it)."""
    return load_key(key_path(path, TABLE), TABLE)


def rechain(path: Path) -> None:
    """Every hash computed again and the head marker rewritten: a forger who has the table's key."""
    key = table_key(path)
    conn = raw(path)
    conn.execute("DROP TRIGGER IF EXISTS events_never_change")
    genesis = conn.execute("SELECT value FROM meta WHERE key = 'chain_genesis'").fetchone()[0]
    previous = genesis
    rows = conn.execute(f"SELECT {COLUMNS} FROM events ORDER BY seq").fetchall()
    for row in rows:
        messages = conn.execute(
            "SELECT seq, message_id, kind, payload FROM outbox WHERE event_seq = ? ORDER BY seq", (row[0],)
        ).fetchall()
        previous = chain_hash(conn, key, previous, row, messages)
        conn.execute("UPDATE events SET hash = ? WHERE seq = ?", (previous, row[0]))
    conn.close()
    write_marker(path, HeadMarker(TABLE, ChainHead(len(rows), previous), clean=True), key)


async def _journal_mid_round(path: Path) -> tuple[int, str]:
    async with await Journal.open(path, TABLE) as journal:
        round_id = await deal(journal, example(CARIBBEAN), settle=False, upto=5)
        return journal.state.last_seq, round_id


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("kind", "body", "message"),
    [
        (ROUND_EVENT, "{not json", "not JSON"),
        (ROUND_EVENT, "[1, 2]", "not a JSON object"),
        ("evnet", '{"type": "no_more_bets"}', "did you mean 'event'"),
        (ROUND_EVENT, '{"type": "wager", "seat": 1}', "needs wager, amount"),
        (
            ROUND_EVENT,
            '{"type": "wager", "seat": 9, "wager": "ante", "amount": "5.00"}',
            "accepted, but now refused",
        ),
        (ROUND_SETTLED, '{"settlement": {"game": "caribbean-stud"}}', "refused"),
    ],
)
async def test_a_garbage_record_is_named_by_its_seq(
    tmp_path: Path, kind: str, body: str, message: str
) -> None:
    path = tmp_path / "j.sqlite3"
    last, round_id = await _journal_mid_round(path)
    _garbage(path, last + 1, kind, body, round_id)
    with pytest.raises(JournalCorrupt, match=message) as error:
        await Journal.open(path, TABLE)
    assert f"seq {last + 1}" in str(error.value)


@pytest.mark.asyncio
async def test_a_tampered_settlement_is_named(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    async with await Journal.open(path, TABLE) as journal:
        round_id = await deal(journal, example(CARIBBEAN))
    conn = raw(path)
    conn.execute("DROP TRIGGER events_never_change")
    body = conn.execute("SELECT body FROM events WHERE kind = 'round_settled'").fetchone()[0]
    conn.execute("UPDATE events SET body = ? WHERE kind = 'round_settled'", (body.replace("+", "+1"),))
    seq = conn.execute("SELECT seq FROM events WHERE kind = 'round_settled'").fetchone()[0]
    conn.close()
    with pytest.raises(JournalCorrupt, match=f"seq {seq}: the record's hash does not match"):
        await Journal.open(path, TABLE)
    # A forger who rewrites the whole chain and its marker still meets the fold's own check.
    rechain(path)
    with pytest.raises(
        JournalCorrupt, match=f"settlement of round {round_id} is not the settlement of its events"
    ):
        await Journal.open(path, TABLE)


@pytest.mark.asyncio
async def test_a_gap_is_named(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    last, round_id = await _journal_mid_round(path)
    conn = raw(path)
    conn.execute("DROP TRIGGER events_gapless")
    conn.close()
    _garbage(path, last + 2, ROUND_EVENT, '{"type": "no_more_bets"}', round_id)
    with pytest.raises(JournalCorrupt, match=f"seq {last + 1} is missing"):
        await Journal.open(path, TABLE)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(
        [ROUND_EVENT, ROUND_BEGIN, ROUND_SETTLED, "lock_out", "device_online", "refused", "x"]
    ),
    body=st.one_of(
        st.text(max_size=40),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(max_size=8),
            lambda inner: (
                st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
            ),
            max_leaves=8,
        ).map(json.dumps),
    ),
)
def test_garbage_never_opens_as_anything_but_a_named_error(kind: str, body: str) -> None:
    async def attempt(path: Path) -> None:
        last, round_id = await _journal_mid_round(path)
        _garbage(path, last + 1, kind, body, "another-round" if kind == ROUND_BEGIN else round_id)
        try:
            journal = await Journal.open(path, TABLE)
        except JournalCorrupt as exc:
            assert "seq" in str(exc)
        else:  # a body that happens to be a valid record: it folds like any other
            with JournalReader(path, TABLE) as reader:
                assert reader.replay_all() == journal.state
            await journal.close()

    with tempfile.TemporaryDirectory() as d:
        asyncio.run(attempt(Path(d) / "j.sqlite3"))


# --- readers while writing ----------------------------------------------------------------


@pytest.mark.asyncio
async def test_readers_read_while_the_daemon_writes(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    seen: list[int] = []
    problems: list[BaseException] = []
    stop = threading.Event()

    def reader_thread() -> None:
        mine: list[int] = []
        try:
            with JournalReader(path, TABLE) as reader:
                while not stop.is_set():
                    records = reader.records()
                    seqs = [r.seq for r in records]
                    assert seqs == list(range(1, len(seqs) + 1))  # always a whole prefix
                    assert not mine or len(seqs) >= mine[-1]  # never goes back
                    mine.append(len(seqs))
                    reader.recent_rounds(3)
                    reader.recover()
        except BaseException as exc:
            problems.append(exc)
        seen.extend(mine)

    async with await Journal.open(path, TABLE) as journal:
        threads = [threading.Thread(target=reader_thread) for _ in range(2)]
        for t in threads:
            t.start()
        for p in RECORDS[:8]:
            await deal(journal, example(p))
        last = journal.state.last_seq
        stop.set()
        for t in threads:
            t.join()
    assert not problems, problems
    assert len(seen) > 2 and max(seen) <= last
    assert len(set(seen)) > 1  # they saw the journal grow


@pytest.mark.asyncio
async def test_a_closed_journal_says_so(tmp_path: Path) -> None:
    journal = await Journal.open(tmp_path / "j.sqlite3", TABLE)
    await journal.close()
    await journal.close()
    with pytest.raises(JournalError, match="closed"):
        await journal.append(LockOut("x"), source="link")


@pytest.mark.asyncio
async def test_a_group_commits_each_steps_outbox_chained_a_refused_steps_dropped(tmp_path: Path) -> None:
    """``append_many``: each accepted step's outbox in the one transaction, covered by the hash
    chain; a refused step's outbox dropped; an outbox made from the state the step is applied to
    sees the steps before it (the lock-out's contributions count the sensed wagers)."""
    path = tmp_path / "j.sqlite3"
    record = example(CARIBBEAN)
    wagers = [e for e in record.events if e.type == "wager"]
    async with await Journal.open(path, TABLE) as journal:
        await journal.append(BeginRound(record.game.name, record.rules), source="dealer-ui", actor="d")

        def counted(state: TableState) -> list[Outbound]:
            assert state.current is not None
            return [Outbound("contribution", {"wagers": len(state.current.wagers())})]

        steps = [
            *(Step(w, "gpio") for w in wagers),
            Step(Event("no_more_bets"), "gpio", outbox=(Outbound("hit", {"never": 1}),), refuse="not now"),
            Step(Event("no_more_bets"), "gpio", outbox=counted),
        ]
        outcomes = await journal.append_many(steps)
        assert isinstance(outcomes[-2], Refused)
        last = outcomes[-1]
        assert not isinstance(last, Refused)
        assert [(m.kind, m.payload, m.event_seq) for m in last.outbox] == [
            ("contribution", {"wagers": len(wagers)}, last.record.seq)
        ]
        assert [m.kind for m in await journal.pending()] == ["contribution"]
        # A malformed message journals nothing of the group.
        before = journal.state.last_seq
        with pytest.raises((TypeError, ValueError)):
            await journal.append_many(
                [Step(Unlock("x"), "link", outbox=(Outbound("hit", {"amount": 1.5j}),))]
            )
        assert journal.state.last_seq == before
    with JournalReader(path) as reader:
        assert reader.verify() == reader.recover()  # the chain walked over the outbox too
    conn = raw(path)
    conn.execute("DROP TRIGGER outbox_only_marked_sent")  # a careless hand, past the guard
    conn.execute("UPDATE outbox SET payload = replace(payload, 'wagers', 'wagerz')")
    conn.close()
    with pytest.raises(JournalCorrupt):
        await Journal.open(path, TABLE)


@pytest.mark.asyncio
async def test_rounds_are_numbered_one_by_one_and_recovery_goes_on_from_the_last(tmp_path: Path) -> None:
    """Surveillance and the floor call a round by its number: CS-3-1, CS-3-2, ... whatever the
    records between (wagers, cards, decisions, a lock-out), and after a restart the next."""
    path = tmp_path / "j.sqlite3"
    record = example(CARIBBEAN)
    async with await Journal.open(path, TABLE) as journal:
        ids = [await deal(journal, record) for _ in range(3)]
        await journal.append(LockOut("break"), source="floor", actor="floor-3")
    assert ids == [f"{TABLE}-1", f"{TABLE}-2", f"{TABLE}-3"]
    async with await Journal.open(path, TABLE) as journal:
        assert await deal(journal, record) == f"{TABLE}-4"
    with JournalReader(path) as reader:
        assert reader.verify().round_number == 4


def test_every_kind_of_record_has_one_step_of_the_fold() -> None:
    """Each kind of journal record is folded by the one step registered for it (a kind without
    one would be refused as unknown), and a second step for a kind is refused at import."""
    from controller.journal.state import FOLD, KINDS
    from controller.rules.core.dispatch import Handlers

    assert set(FOLD) == set(KINDS)
    table: Handlers[str, Any] = Handlers("a journal")
    table.add("round_begin", print)
    with pytest.raises(ValueError, match="'round_begin' already has a handler"):
        table.add("round_begin", print)
