"""The central meter without a broker: its arithmetic, order, store, configuration and CLI."""

from __future__ import annotations

import dataclasses
import json
import shutil
import sqlite3
import uuid
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rules.core.money import MeterShare, pay_from_meter
from meter.config import ConfigError, load
from meter.ledger import Ledger
from meter.main import main
from meter.progression import pay, progress
from meter.sequencer import Sequencer
from meter.store import ConfigMismatch, Store, StoreBusy, StoreCorrupt, iter_records
from wire import Contribution, Declaration, Fixed, Hit, Paid, Parameters, Refusal, Share, TableMessage, Void

from .mosquitto import Pki

PARAMS = Parameters(1_000_000, 1_000_000, Fraction(18))
ROYAL = ("As", "Ks", "Qs", "Js", "Ts")
STRAIGHT_FLUSH = ("9h", "8h", "7h", "6h", "5h")

CONFIG = """
[link]
id = "floor"
[store]
path = "meter.db"
[broker]
tls = false
[progressives.cs-floor]
initial = "10000.00"
reset = "10000.00"
rate_of_progression = "18%"
ranking = "high"
rows = { "royal flush" = "100%", "straight flush" = "10%" }
[tables.t1]
site = "site-a"
progressives = ["cs-floor"]
[tables.t2]
site = "site-a"
progressives = ["cs-floor"]
"""


# --- arithmetic --------------------------------------------------------------------------------


@given(
    st.lists(st.integers(min_value=1, max_value=100_000), max_size=60),
    st.sampled_from(["18", "12.5", "1/3", "100"]),
)
def test_the_meter_is_initial_plus_rate_times_wagers_exactly(wagers: list[int], rate_text: str) -> None:
    rate = Fraction(rate_text)
    amount, carry = 1_000_000, Fraction(0)
    for w in wagers:
        done = progress(amount, carry, w, rate)
        assert 0 <= done.carry < 1 and done.added >= 0
        amount, carry = done.amount, done.carry
    exact = Fraction(sum(wagers)) * rate / 100
    assert amount == 1_000_000 + int(exact)  # the fraction of a cent is carried, never lost
    assert amount + carry == 1_000_000 + exact


@given(st.integers(min_value=1_000_000, max_value=10**10), st.sampled_from(["100", "10", "12.5", "50"]))
def test_a_share_is_paid_as_the_rules_core_pays_it(meter: int, pct: str) -> None:
    # § 639a.12(d)(4): the same rule at the table (controller.rules.core.money) and at the meter.
    ours = pay(Share(Fraction(pct)), meter, 1_000_000)
    theirs = pay_from_meter(MeterShare(Fraction(pct)), meter, 1_000_000)
    assert (ours.paid, ours.meter_after) == (theirs.paid, theirs.meter_after)


def test_awards() -> None:
    assert pay(Share(Fraction(100)), 1_234_567, 1_000_000) == pay(Share(Fraction(100)), 1_234_567, 1_000_000)
    assert pay(Share(Fraction(100)), 1_234_567, 1_000_000).paid == 1_234_567
    assert pay(Share(Fraction(100)), 1_234_567, 1_000_000).meter_after == 1_000_000
    ten = pay(Share(Fraction(10)), 1_234_567, 1_000_000)
    assert (ten.paid, ten.meter_after) == (123_456, 1_111_111)  # 12,345.67 x 10% rounded down
    assert pay(Fixed(50_000), 1_234_567, 1_000_000).meter_after == 1_234_567  # not from the meter


# --- order -------------------------------------------------------------------------------------


def msg(table: str, seq: int, payload: object = None) -> TableMessage:
    return TableMessage(
        table, seq, str(uuid.uuid4()), seq, f"e{seq}", None, payload or Contribution("cs-floor", 1, 500)
    )  # type: ignore[arg-type]


def test_the_sequencer_applies_in_order_once() -> None:
    s = Sequencer({"t1": 2})
    assert s.offer(msg("t1", 2)).duplicate
    assert s.offer(msg("t1", 4)).gap and s.offer(msg("t1", 5)).gap and s.waiting("t1") == 2
    assert [m.seq for m in s.offer(msg("t1", 3)).ready] == [3, 4, 5]
    assert s.applied_seq("t1") == 5 and s.waiting("t1") == 0
    assert [m.seq for m in s.offer(msg("t2", 1)).ready] == [1]
    assert s.offer(msg("t1", 4)).duplicate


# --- the store ---------------------------------------------------------------------------------


@pytest.fixture
def config_path(tmp_path: Path) -> Path:
    path = tmp_path / "meter.toml"
    path.write_text(CONFIG)
    return path


@pytest.fixture
def store(config_path: Path) -> Iterator[Store]:
    s = Store(load(config_path).store, load(config_path))
    yield s
    s.close()


def declare(table: str, seq: int, params: Parameters = PARAMS) -> TableMessage:
    return msg(table, seq, Declaration({"cs-floor": params}))


def test_a_declaration_then_contributions_and_a_hit(store: Store, config_path: Path) -> None:
    out = store.apply([declare("t1", 1), msg("t1", 2, Contribution("cs-floor", 2, 525)), msg("t1", 3)])
    assert [a.record.kind for a in out] == ["declaration", "contribution", "contribution"]
    p = store.ledger.progressives["cs-floor"]
    assert (p.amount, p.carry) == (1_000_000 + 94 + 90, Fraction(1, 2))  # 18% of 5.25 = 94.5 cents
    hit = store.apply([msg("t1", 4, Hit("cs-floor", 3, "royal flush", Share(Fraction(100)), cards=ROYAL))])[0]
    assert hit.reply is not None and hit.reply.kind == "award"
    assert (hit.reply.paid, hit.reply.meter_after, hit.reply.award_seq) == (1_000_184, 1_000_000, 1)
    again = store.duplicate(msg("t1", 4))
    assert again is not None and again.reply == hit.reply  # a hit sent again gets its award again
    store.close()
    reopened = Store(load(config_path).store, load(config_path))  # verified again from record 1
    assert reopened.ledger.progressives["cs-floor"].amount == 1_000_000
    assert reopened.ledger.progressives["cs-floor"].carry == Fraction(1, 2)
    assert reopened.applied_seqs() == {"t1": 4}
    reopened.close()


def test_a_table_that_disagrees_is_refused_naming_the_field(store: Store) -> None:
    bad = Parameters(1_000_000, 1_000_000, Fraction(15))
    out = store.apply([declare("t2", 1, bad), msg("t2", 2)])
    refusal = out[0].reply
    assert isinstance(refusal, Refusal)
    assert refusal.field == "payload.progressives.cs-floor.rate_of_progression"
    assert "rate_of_progression 15%" in refusal.reason and "says 18%" in refusal.reason
    assert out[1].record.kind == "refused" and isinstance(out[1].reply, Refusal)
    assert store.ledger.progressives["cs-floor"].amount == 1_000_000  # nothing of it applied
    assert store.ledger.tables["t2"].ack_message().verdict.accepted is False  # type: ignore[union-attr]
    # An undeclared progressive, and one the table is not linked to, are refused too.
    out = store.apply([msg("t2", 3, Declaration({"cs-floor": PARAMS, "elsewhere": PARAMS}))])
    assert out[0].reply.field == "payload.progressives.elsewhere"  # type: ignore[union-attr]


def test_a_declared_wager_past_the_meters_largest_is_refused_and_a_fixed_one_is_held_to(
    store: Store, config_path: Path
) -> None:
    """The declaration carries one wager's amount where the Rules Submission fixes it: past the
    meter's ``max_wager`` (by default 100.00) the declaration is refused naming ``wager``, so the
    table never opens progressive wagering (and a restart declares it again: refused again); an
    accepted one holds each contribution to its count of that amount."""
    too_big = dataclasses.replace(PARAMS, wager=10_001)
    out = store.apply([declare("t2", 1, too_big), msg("t2", 2, Contribution("cs-floor", 1, 10_001))])
    refusal = out[0].reply
    assert isinstance(refusal, Refusal) and refusal.field == "payload.progressives.cs-floor.wager"
    assert "one wager is 100.01" in refusal.reason and "max_wager 100.00" in refusal.reason
    assert out[1].record.kind == "refused"  # no accepted declaration: nothing of it applied
    assert store.ledger.progressives["cs-floor"].amount == 1_000_000
    one_dollar = dataclasses.replace(PARAMS, wager=100)
    out = store.apply(
        [
            declare("t1", 1, one_dollar),
            msg("t1", 2, Contribution("cs-floor", 3, 300)),
            msg("t1", 3, Contribution("cs-floor", 3, 250)),  # not 3 x 1.00: refused
        ]
    )
    assert [a.record.kind for a in out] == ["declaration", "contribution", "refused"]
    assert out[2].record.body["field"] == "payload.wagered"
    assert "2.50 on 3 wager(s) is not 3 x the 1.00 wager" in out[2].record.body["reason"]
    assert store.ledger.progressives["cs-floor"].amount == 1_000_000 + 54  # 18% of 3.00
    store.close()
    again = Store(load(config_path).store, load(config_path))  # the fold keeps the declared wager
    try:
        (refused,) = again.apply([msg("t1", 4, Contribution("cs-floor", 1, 50))])
        assert refused.record.kind == "refused"
        assert "is not 1 x the 1.00 wager" in refused.record.body["reason"]
    finally:
        again.close()


def test_a_table_unlinked_since_its_declaration_is_refused(store: Store, config_path: Path) -> None:
    store.apply([declare("t2", 1)])
    store.close()
    relinked = CONFIG.replace(
        '[tables.t2]\nsite = "site-a"\nprogressives = ["cs-floor"]',
        '[tables.t2]\nsite = "site-a"\nprogressives = ["other"]',
    )
    config_path.write_text(
        relinked
        + '[progressives.other]\ninitial = "5.00"\nreset = "5.00"\nrate_of_progression = "1%"\n'
        + 'ranking = "named"\nrows = { "any" = "100%" }\n'
    )
    again = Store(load(config_path).store, load(config_path))
    try:
        out = again.apply([msg("t2", 2)])
        assert out[0].record.kind == "refused"
        assert "is not linked to progressive 'cs-floor' (its link: other)" in out[0].record.body["reason"]
        assert again.ledger.progressives["cs-floor"].amount == 1_000_000
    finally:
        again.close()


def test_the_store_refuses_a_changed_record(store: Store, config_path: Path) -> None:
    store.apply([declare("t1", 1), msg("t1", 2), msg("t1", 3)])
    path = store.path
    store.close()
    conn = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError, match="never changed"):
        conn.execute("UPDATE records SET body = body WHERE seq = 3")
    conn.execute("DROP TRIGGER records_never_change")
    conn.execute("UPDATE records SET body = json_set(body, '$.wagered', '50.00') WHERE seq = 3")
    conn.commit()
    conn.close()
    with pytest.raises(StoreCorrupt, match=r"record 3 \(contribution\): its hash does not match"):
        Store(path, load(config_path))


def test_the_store_refuses_a_changed_state(store: Store, config_path: Path) -> None:
    store.apply([declare("t1", 1), msg("t1", 2)])
    path = store.path
    store.close()
    conn = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError, match="lowered only by a recorded award"):
        conn.execute("UPDATE progressive_state SET amount = amount - 1")
    conn.execute("UPDATE progressive_state SET amount = amount + 1000")
    conn.commit()
    conn.close()
    with pytest.raises(StoreCorrupt, match="progressive 'cs-floor': the state kept"):
        Store(path, load(config_path))


def test_one_meter_per_store(store: Store, config_path: Path) -> None:
    with pytest.raises(StoreBusy, match="another meter process"):
        Store(store.path, load(config_path))


def test_a_running_progressive_keeps_its_parameters(store: Store, config_path: Path) -> None:
    store.close()
    config_path.write_text(CONFIG.replace('rate_of_progression = "18%"', 'rate_of_progression = "20%"'))
    with pytest.raises(ConfigMismatch, match=r"\[progressives.cs-floor\] rate_of_progression: 20%.*at 18%"):
        Store(load(config_path).store, load(config_path))


# --- configuration -----------------------------------------------------------------------------


def test_every_configuration_error_at_once(tmp_path: Path) -> None:
    path = tmp_path / "meter.toml"
    path.write_text(
        CONFIG.replace('id = "floor"', 'id = "floor"\nheartbeat_second = 5')
        .replace('initial = "10000.00"', 'initial = "10000.5"')
        .replace('progressives = ["cs-floor"]\n[tables.t2]', 'progressives = ["cs-flor"]\n[tables.t2]')
        .replace("tls = false", "tls = false\nport = 70000")
    )
    with pytest.raises(ConfigError) as err:
        load(path)
    text = str(err.value)
    assert "[link] heartbeat_second: unknown option; did you mean 'heartbeat_seconds'?" in text
    assert "[progressives.cs-floor] initial: '10000.5'" in text
    assert (
        "[tables.t1] progressives: 'cs-flor' is not a progressive of this meter; did you mean 'cs-floor'?"
        in text
    )
    assert "[broker] port: 70000: must be a whole number from 1 to 65535" in text
    assert len(err.value.problems) == 4


def test_a_progressive_without_its_paytable_is_refused_naming_the_option_and_the_section(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The meter pays only its own paytable (issue 17, point 4): a progressive without ``rows``
    (or its ``ranking``) is refused by ``check-config`` and at start, with every other problem."""
    path = tmp_path / "meter.toml"
    (tmp_path / "meter.db").write_text("")
    no_rows = CONFIG.replace('rows = { "royal flush" = "100%", "straight flush" = "10%" }\n', "")
    path.write_text(no_rows.replace('ranking = "high"\n', "").replace("tls = false", "tls = false\nport = 0"))
    with pytest.raises(ConfigError) as err:
        load(path)
    assert err.value.problems == [
        "[broker] port: 0: must be a whole number from 1 to 65535",
        "[progressives.cs-floor] ranking: missing; the hand ranking that names the rows "
        "(one of high, fortune, named)",
        "[progressives.cs-floor] rows: missing; the meter pays only its own paytable, filed with the "
        'Rules Submission (§ 601a.2): rows = { "royal flush" = "100%", ... }',
    ]
    path.write_text(no_rows)
    for command in ("check-config", "run"):
        assert main(["--config", str(path), command]) == 78
        err_text = capsys.readouterr().err
        assert "[progressives.cs-floor] rows: missing" in err_text
        assert "[progressives.cs-floor] ranking" not in err_text  # its ranking is given
    path.write_text(CONFIG.replace('ranking = "high"', 'ranking = "hihg"'))
    with pytest.raises(ConfigError, match=r"\[progressives.cs-floor\] ranking: 'hihg': must be one of"):
        load(path)


def test_tls_needs_a_ca(tmp_path: Path) -> None:
    path = tmp_path / "meter.toml"
    path.write_text(CONFIG.replace("tls = false", 'cert_file = "nowhere.crt"'))
    with pytest.raises(ConfigError) as err:
        load(path)
    assert "[broker] ca_file: missing" in str(err.value)
    assert "[broker] cert_file and key_file: give both" in str(err.value)


# --- the technician's commands -----------------------------------------------------------------


def test_status_history_and_verify(
    store: Store, config_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store.apply([declare("t1", 1), msg("t1", 2, Contribution("cs-floor", 4, 2000))])
    store.apply(
        [msg("t1", 3, Hit("cs-floor", 2, "straight flush", Share(Fraction(10)), cards=STRAIGHT_FLUSH))]
    )
    assert main(["--config", str(config_path), "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["running"] is not None  # the store is held by this process's Store
    # 10,003.60 less 10% (1,000.36): the meter keeps the 9,003.24 left, below its reset amount
    # (§ 639a.12(d)(4); the reset is where a 100% award leaves it, not a floor).
    assert status["progressives"][0]["amount"] == "9003.24"
    assert status["tables"][0] == {
        "table": "t1",
        "applied_seq": 3,
        "verdict": {"declaration_seq": 1, "accepted": True, "field": None, "reason": None},
        "progressives": ["cs-floor"],
        "ram_clears": [],
    }
    assert status["tables_never_heard"] == ["t2"]
    assert main(["--config", str(config_path), "history", "--awards"]) == 0
    out = capsys.readouterr().out
    assert "award #1 seat 2 straight flush: 10% of meter, paid 1000.36, meter 10003.60 -> 9003.24" in out
    store.apply([msg("t1", 4, Void("cs-floor", 3, "floorperson F-17: a misread card"))])
    assert main(["--config", str(config_path), "history"]) == 0
    out = capsys.readouterr().out
    assert (
        "void: hit seq 3, award #1 closed, 1000.36 back on the meter: floorperson F-17: a misread card" in out
    )
    assert store.ledger.progressives["cs-floor"].amount == 1_000_360
    assert main(["--config", str(config_path), "verify"]) == 0
    assert "5 records, hash chain intact" in capsys.readouterr().out


def test_the_example_configuration_reads(tmp_path: Path, pki: Pki) -> None:
    example = Path(__file__).parent.parent / "meter" / "meter.example.toml"
    shutil.copy(pki.ca_file, tmp_path / "progressive-ca.crt")
    shutil.copy(pki.cert("progressive-meter"), tmp_path / "progressive-meter.crt")  # its CN checked
    shutil.copy(pki.key("progressive-meter"), tmp_path / "progressive-meter.key")
    (tmp_path / "meter.toml").write_text(example.read_text())
    config = load(tmp_path / "meter.toml")
    assert sorted(config.progressives) == ["bad-beat", "cs-floor"]
    assert config.progressives["bad-beat"].rate == Fraction(25, 2)
    assert config.tables["bj-07"].site == "site-b"
    assert (config.broker.port, config.broker.tls, config.heartbeat_seconds) == (8883, True, 10)
    with pytest.raises(ConfigError, match=r"\[broker\] ca_file: '.*progressive-ca.crt': no such file"):
        load(example)  # beside the example, its files are missing: said so


def test_exit_statuses(store: Store, config_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store.apply([declare("t1", 1), msg("t1", 2)])
    path = store.path
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER records_never_change")
    conn.execute("UPDATE records SET wall_ns = wall_ns + 1 WHERE seq = 2")
    conn.commit()
    conn.close()
    # A damaged store: 65, and systemd does not restart it (RestartPreventExitStatus).
    assert main(["--config", str(config_path), "run"]) == 65
    assert "record 2 (declaration): its hash does not match" in capsys.readouterr().err
    assert main(["--config", str(config_path), "verify"]) == 65
    capsys.readouterr()
    config_path.write_text(CONFIG.replace("[store]", "[stor]"))
    assert main(["--config", str(config_path), "check-config"]) == 78
    err = capsys.readouterr().err
    assert "top level] stor: unknown option; did you mean 'store'?" in err and "[store] path: missing" in err


# --- one message never stops the meter (docs/meter.md, "One message at a time") ---------------


def test_a_reused_message_id_is_refused_and_the_table_goes_on(store: Store, config_path: Path) -> None:
    first = declare("t1", 1)
    c = msg("t1", 2)
    reuse = TableMessage("t1", 3, c.message_id, 3, "e3", None, Contribution("cs-floor", 1, 500))
    elsewhere = TableMessage("t2", 1, first.message_id, 1, "e1", None, first.payload)
    out = store.apply([first, c, reuse, msg("t1", 4), elsewhere, declare("t2", 2)])
    assert [a.record.kind for a in out] == [
        "declaration", "contribution", "refused", "contribution", "refused", "declaration"
    ]  # fmt: skip
    assert (
        out[2].record.body["field"] == "message_id"
        and "already that of record 3" in out[2].record.body["reason"]
    )
    assert isinstance(out[2].reply, Refusal) and out[2].reply.field == "message_id"
    assert store.applied_seqs() == {"t1": 4, "t2": 2}
    assert store.ledger.progressives["cs-floor"].amount == 1_000_000 + 90 + 90  # seq 2 and 4 only
    store.close()
    again = Store(load(config_path).store, load(config_path))  # every record folds again
    assert again.applied_seqs() == {"t1": 4, "t2": 2}
    again.close()


def test_a_contribution_past_the_largest_wager_is_refused(store: Store) -> None:
    out = store.apply([declare("t1", 1), msg("t1", 2, Contribution("cs-floor", 1, 99_999_999_999))])
    assert out[1].record.kind == "refused" and out[1].record.body["field"] == "payload.wagered"
    assert "largest progressive wager of 'cs-floor' (100.00 each" in out[1].record.body["reason"]
    assert store.ledger.progressives["cs-floor"].amount == 1_000_000
    ok = store.apply([msg("t1", 3, Contribution("cs-floor", 3, 30_000))])  # $100 x 3: the limit
    assert ok[0].record.kind == "contribution"


def test_a_message_the_store_cannot_take_is_refused_alone(store: Store) -> None:
    # SQLite itself refuses one record of the batch (a trigger here, standing for any error the
    # meter's checks did not foresee): the batch is applied again one message at a time, that one
    # refused with SQLite's words, the others applied.
    store.conn.execute(
        "CREATE TEMP TRIGGER refuse_seq_3 BEFORE INSERT ON records "
        "WHEN NEW.table_seq = 3 AND NEW.kind = 'contribution' "
        "BEGIN SELECT RAISE(ABORT, 'the disk refuses this one'); END"
    )
    out = store.apply([declare("t1", 1), msg("t1", 2), msg("t1", 3), msg("t1", 4)])
    assert [a.record.kind for a in out] == ["declaration", "contribution", "refused", "contribution"]
    assert "IntegrityError: the disk refuses this one" in out[2].record.body["reason"]
    assert store.applied_seqs() == {"t1": 4}
    assert store.ledger.progressives["cs-floor"].amount == 1_000_000 + 90 + 90


def test_a_full_disk_fails_the_batch_whole_and_says_so(store: Store, config_path: Path) -> None:
    from meter.store import StoreFailed

    store.apply([declare("t1", 1)])
    pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
    store.conn.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own "database or disk is full"
    with pytest.raises(StoreFailed, match="the store could not be written: database or disk is full"):
        store.apply([msg("t1", i, Contribution("cs-floor", 1, 500 + i)) for i in range(2, 400)])
    assert store.applied_seqs() == {"t1": 1}  # nothing of the batch
    store.close()
    again = Store(load(config_path).store, load(config_path))
    assert again.applied_seqs() == {"t1": 1} and again.ledger.progressives["cs-floor"].amount == 1_000_000
    again.close()


def test_a_version_1_store_is_brought_to_version_4(config_path: Path) -> None:
    path = load(config_path).store
    s = Store(path, load(config_path))
    s.apply([declare("t1", 1)])
    s.close()
    conn = sqlite3.connect(path)
    conn.executescript(
        "DROP INDEX records_message; "
        "CREATE UNIQUE INDEX records_message ON records (message_id) WHERE message_id IS NOT NULL; "
        "PRAGMA user_version = 1;"
    )
    conn.close()
    assert main(["--config", str(config_path), "verify"]) == 0  # read as it is
    s = Store(path, load(config_path))
    try:
        assert s.conn.execute("PRAGMA user_version").fetchone()[0] == 4
        reused = TableMessage(
            "t1", 2, s.ledger and s.earlier("t1", 1).message_id, 2, "e", None, Contribution("cs-floor", 1, 1)
        )  # type: ignore[union-attr]
        assert s.apply([reused])[0].record.kind == "refused"
    finally:
        s.close()


def test_a_version_2_store_takes_the_award_handshake(config_path: Path) -> None:
    """A store made before the handshake (its records' kinds checked without ``paid``/``void``)
    is rebuilt at open: every record kept with its hash, and a hit's ``paid`` then recorded."""
    path = load(config_path).store
    s = Store(path, load(config_path))
    s.apply([declare("t1", 1), msg("t1", 2, Contribution("cs-floor", 4, 2000))])
    s.close()
    conn = sqlite3.connect(path)
    sql = conn.execute("SELECT sql FROM sqlite_schema WHERE name = 'records'").fetchone()[0]
    old = sql.replace(", 'paid', 'void'", "")
    assert old != sql
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_schema SET sql = ? WHERE name = 'records'", (old,))
    conn.commit()
    conn.execute("PRAGMA writable_schema = OFF")
    conn.execute("PRAGMA user_version = 2")
    conn.close()
    conn = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        conn.execute("INSERT INTO records (seq, wall_ns, kind, body, prev_hash, hash) "
                     "VALUES (4, 1, 'paid', '{}', '', 'x')")  # fmt: skip
    conn.close()
    s = Store(path, load(config_path))
    try:
        assert s.conn.execute("PRAGMA user_version").fetchone()[0] == 4
        hit = s.apply([msg("t1", 3, Hit("cs-floor", 2, "royal flush", Share(Fraction(100)), cards=ROYAL))])
        paid = s.apply([msg("t1", 4, Paid("cs-floor", 3, 1_000_360))])
        assert (hit[0].record.kind, paid[0].record.kind) == ("award", "paid")
    finally:
        s.close()
    assert main(["--config", str(config_path), "verify"]) == 0


def test_an_award_from_before_the_handshake_keeps_its_old_end(store: Store) -> None:
    """A store's awards recorded before the handshake (no ``handshake`` in the body) keep the lock
    they had: it ends at the hitting table's next contribution; an award of today's waits for the
    table's paid or void (docs/progressive-link.md, "The Jackpot Lock")."""
    hit = Hit("cs-floor", 2, "straight flush", Share(Fraction(10)), cards=STRAIGHT_FLUSH)
    store.apply([declare("t1", 1), msg("t1", 2, hit), msg("t1", 3)])
    records = [r for r, *_ in iter_records(store.conn, store.path)]
    assert store.ledger.progressives["cs-floor"].pending is not None  # today's: the contribution kept it
    old = Ledger()
    for r in records:
        if r.kind == "award":
            assert r.body["handshake"] is True
            r = dataclasses.replace(r, body={k: v for k, v in r.body.items() if k != "handshake"})
        old.fold(r)
        if r.kind == "award":
            assert old.progressives["cs-floor"].pending is not None and not old.open_awards
    assert old.progressives["cs-floor"].pending is None  # ended by t1's next contribution
