"""The wire: every message round-trips, every bad field is named, topics bind ids to levels."""

from __future__ import annotations

import ast
import json
import re
import uuid
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.journal import OutboxEntry
from wire import (
    SCHEMA_VERSION,
    Ack,
    Amount,
    Award,
    Closed,
    Contribution,
    Declaration,
    Fixed,
    Hit,
    LastAward,
    MeterStatus,
    Paid,
    Parameters,
    Refusal,
    Share,
    TableMessage,
    TableStatus,
    Topics,
    Verdict,
    Void,
    WireError,
    decode_envelope,
    decode_meter_message,
    decode_table_message,
    decode_table_status,
    encode,
)
from wire import fields as wf

T = Topics("floor")
EVENT = T.parse(T.table_event("site-a", "t1"))
ID = str(uuid.uuid4())
PARAMETERS = Parameters(1_000_000, 1_000_000, Fraction(18))


def table_message(payload: object, **over: object) -> TableMessage:
    fields: dict[str, object] = {
        "table": "t1",
        "seq": 7,
        "message_id": ID,
        "event_seq": 40,
        "event_id": "e-40",
        "round": "r-3",
        "payload": payload,
    }
    fields.update(over)
    return TableMessage(**fields)  # type: ignore[arg-type]


PAYLOADS = [
    Declaration(
        {
            "cs-floor": Parameters(1_000_000, 1_000_000, Fraction(18)),
            "bb": Parameters(500, 100, Fraction(25, 2)),
            "hit_and_run": Parameters(100_000, 100_000, Fraction(10), wager=500),
        }
    ),
    Contribution("cs-floor", 3, 1575),
    Hit("cs-floor", 5, "royal flush", Share(Fraction(100))),
    Hit("cs-floor", 2, "straight flush", Share(Fraction(10))),
    Hit("bb", 1, "four of a kind", Fixed(50_000)),
    Paid("cs-floor", 43, 1_234_567),
    Paid("cs-floor", 44, 1_000_000, by_floorperson=True),
    Void("cs-floor", 43, "floorperson F-17: the shoe misread seat 5's cards"),
]


@pytest.mark.parametrize("payload", PAYLOADS, ids=lambda p: type(p).__name__)
def test_a_table_message_round_trips(payload: object) -> None:
    m = table_message(payload)
    assert decode_table_message(m.encode(), EVENT) == m
    assert json.loads(m.encode())["schema"] == SCHEMA_VERSION


def test_the_journal_outbox_envelope_is_a_table_message() -> None:
    # The table publishes its outbox entries: the envelope plus the schema version is the wire.
    entry = OutboxEntry(
        "t1", 3, ID, 12, "e-12", "r-1", "contribution", Contribution("cs-floor", 2, 1000).to_json()
    )
    m = decode_table_message(json.dumps({"schema": SCHEMA_VERSION, **entry.envelope()}), EVENT)
    assert (m.table, m.seq, m.message_id, m.event_seq, m.round) == ("t1", 3, ID, 12, "r-1")
    assert m.payload == Contribution("cs-floor", 2, 1000)


METER = [
    (T.meter_status(), MeterStatus("online", 10, 4)),
    (T.meter_status(), MeterStatus("online", 10, 5, None, 120)),
    (T.amount("cs-floor"), Amount("cs-floor", 1_234_567, 99, LastAward("t2", 1_000_000, 3))),
    (T.amount("cs-floor"), Amount("cs-floor", 1_000_000, 100)),
    (T.amount("cs-floor"), Amount("cs-floor", 1_000_100, 101, ceiling=1_000_100, overflow_held=845)),
    (T.amount("cs-floor"), Amount("cs-floor", 1_000_100, 102, ceiling=1_000_100, overflow_to="cs-next")),
    (T.ack("t1"), Ack("t1", 41, Verdict(1, False, "payload.progressives.cs-floor.reset", "reset differs"))),
    (T.ack("t1"), Ack("t1", 0)),
    (T.reply("t1"), Award("t1", 8, ID, "cs-floor", 3, 120, Share(Fraction(10)), 12_345, 123_456, 111_111)),
    (T.reply("t1"), Refusal("t1", 9, ID, "payload.progressive", "not declared")),
    (T.reply("t1"), Closed("t1", 10, ID, "cs-floor", 8, "paid", 3, 121)),
    (T.reply("t1"), Closed("t1", 11, ID, "cs-floor", 9, "void", None, 122)),
]


@pytest.mark.parametrize(("topic", "message"), METER, ids=lambda x: type(x).__name__)
def test_a_meter_message_round_trips(topic: str, message: object) -> None:
    assert decode_meter_message(encode(message), T.parse(topic)) == message  # type: ignore[arg-type]


def test_statuses_round_trip() -> None:
    ref = T.parse(T.table_status("site-a", "t1"))
    assert decode_table_status(TableStatus("t1", "offline").encode(), ref) == TableStatus("t1", "offline")


def _raw(payload: object = None, **over: object) -> dict[str, object]:
    raw = table_message(payload or Contribution("cs-floor", 1, 500)).to_json()
    raw.update(over)
    return raw


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (lambda r: r["payload"].update(wagered=5.25), "", "fraction"),  # a float never passes
        (lambda r: r["payload"].update(wagered="5.250"), "payload.wagered", "two decimals"),
        (lambda r: r["payload"].update(wagered=525), "payload.wagered", "decimal string"),
        (lambda r: r["payload"].update(wagers=0), "payload.wagers", "from 1 to 1000"),
        # The bounds (docs/progressive-link.md, "Bounds"): what stopped the meter on main.
        (lambda r: r["payload"].update(wagers=10**20), "payload.wagers", "from 1 to 1000"),
        (lambda r: r["payload"].update(wagered="999999999999999.99"), "payload.wagered", "largest"),
        (lambda r: r.update(seq=2**53), "seq", "from 1 to 9007199254740991"),
        (lambda r: r.update(event_id="x" * 201), "event_id", "at most 200"),
        (
            lambda r: r.update(seq="1" * 10_000),
            "seq",
            "'111111111111111111111111111111111111111111111111111111111",
        ),
        (lambda r: r["payload"].update(wagerd="1.00"), "payload.wagerd", "did you mean 'wagered'"),
        (lambda r: r["payload"].pop("progressive"), "payload.progressive", "missing"),
        (lambda r: r.update(schema=2), "schema", "schema version 1"),
        (lambda r: r.update(seq=True), "seq", "whole number"),
        (lambda r: r.update(message_id="42"), "message_id", "not a UUID"),
        (lambda r: r.update(kind="contribtion"), "kind", "did you mean 'contribution'"),
        (lambda r: r.update(table="t2"), "table", "not the table of the topic"),
        (lambda r: r.update(extra=1), "extra", "unknown field"),
        (lambda r: r["payload"].update(progressive="cs/floor"), "payload.progressive", "not an id"),
    ],
)
def test_a_bad_table_message_names_its_field(change: object, field: str, words: str) -> None:
    raw = _raw()
    change(raw)  # type: ignore[operator]
    with pytest.raises(WireError) as err:
        decode_table_message(json.dumps(raw), EVENT)
    assert err.value.field == field
    assert words in str(err.value)
    assert len(str(err.value)) < 800  # a value is quoted cut short, never whole


def test_a_seat_and_a_declaration_are_bounded_too() -> None:
    hit = _raw(Hit("cs-floor", 1, "royal flush", Share(Fraction(100))))
    hit["payload"]["seat"] = 99999  # type: ignore[index]
    with pytest.raises(WireError, match=r"payload.seat: 99999 is not a whole number from 1 to 99"):
        decode_table_message(json.dumps(hit), EVENT)
    many = {f"p{i}": PARAMETERS.to_json() for i in range(65)}
    declared = _raw(Declaration({"p": PARAMETERS}))
    declared["payload"] = {"progressives": many}
    with pytest.raises(WireError, match=r"65 progressives: at most 64"):
        decode_table_message(json.dumps(declared), EVENT)


@pytest.mark.parametrize(
    ("wager", "words"),
    [("0.00", "a wager is at least 0.01"), ("5", 'not an amount like "12.50"'), (5, "decimal string")],
)
def test_a_declared_wager_is_an_amount_of_at_least_a_cent(wager: object, words: str) -> None:
    declared = _raw(Declaration({"p": PARAMETERS}))
    declared["payload"]["progressives"]["p"]["wager"] = wager  # type: ignore[index]
    with pytest.raises(WireError, match=re.escape(words)) as err:
        decode_table_message(json.dumps(declared), EVENT)
    assert err.value.field == "payload.progressives.p.wager"
    # Where the Rules Submission fixes none, the declaration carries none.
    assert "wager" not in PARAMETERS.to_json()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"{" + b" " * 16_400 + b"}", "16402 bytes, more than the link's 16384"),
        (b"[" * 5000 + b"]" * 5000, "nested too deep"),
        (b"[" * 16_000, "nested too deep"),
        (b'{"seq": ' + b"9" * 5000 + b"}", "not JSON"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_a_message_too_big_or_too_deep_is_refused_by_the_reader(data: bytes, words: str) -> None:
    with pytest.raises(WireError) as err:
        decode_table_message(data, EVENT)
    assert words in str(err.value) and len(str(err.value)) < 800


def test_the_envelope_of_a_broken_message_is_read_alone() -> None:
    raw = _raw()
    raw["payload"] = {"wagers": "lots"}
    env = decode_envelope(json.dumps(raw), EVENT)
    assert (env.table, env.seq, env.message_id, env.kind) == (
        raw["table"],
        raw["seq"],
        raw["message_id"],
        "contribution",
    )
    raw["table"] = "t2"
    with pytest.raises(WireError, match="not the table of the topic"):
        decode_envelope(json.dumps(raw), EVENT)


def test_a_bad_award_names_its_field() -> None:
    raw = _raw(Hit("cs-floor", 1, "royal flush", Share(Fraction(100))))
    raw["payload"]["award"] = {"share": "120"}  # type: ignore[index]
    with pytest.raises(WireError, match=r"payload\.award\.share: '120' must be more than 0 and at most 100"):
        decode_table_message(json.dumps(raw), EVENT)
    raw["payload"]["award"] = {"jackpot": "1"}  # type: ignore[index]
    with pytest.raises(WireError, match=r"payload\.award: an award is"):
        decode_table_message(json.dumps(raw), EVENT)


def test_a_meter_message_is_read_only_from_the_meters_topics() -> None:
    forged = encode(Award("t1", 8, ID, "cs-floor", 3, 120, Share(Fraction(100)), 99_999_999, 99_999_999, 0))
    for topic in (T.table_event("site-a", "t2"), T.table_status("site-a", "t1")):
        with pytest.raises(WireError, match="not one of the meter's"):
            decode_meter_message(forged, T.parse(topic))
    with pytest.raises(WireError, match="'award' is not one of ack"):
        decode_meter_message(forged, T.parse(T.ack("t1")))  # a reply is not an ack
    with pytest.raises(WireError, match="table: 't1' is not the table of the topic"):
        decode_meter_message(forged, T.parse(T.reply("t2")))
    amount = encode(Amount("bb", 100, 1))
    with pytest.raises(WireError, match="progressive: 'bb' is not the topic's"):
        decode_meter_message(amount, T.parse(T.amount("cs-floor")))


def test_topics() -> None:
    assert T.table_event("site-a", "t1") == "progressive/floor/site/site-a/table/t1/event"
    assert T.parse("progressive/floor/meter/amount/cs-floor").progressive == "cs-floor"
    assert T.parse(T.reply("t9")).from_meter and not T.parse(T.table_event("s", "t9")).from_meter
    for bad in ("progressive/other/meter/status", "progressive/floor/meter/secret", "elsewhere"):
        with pytest.raises(WireError, match="topic"):
            T.parse(bad)
    for bad_id in ("a/b", "+", "#", "", "x" * 65, "-lead"):
        with pytest.raises(WireError):
            T.table_event("site-a", bad_id)
    with pytest.raises(WireError, match="link"):
        Topics("fl+oor")


@given(st.integers(min_value=0, max_value=10**15))
def test_money_is_exact(cents: int) -> None:
    if cents <= wf.MAX_MONEY:
        assert wf.money(wf.format_money(cents), "x") == cents
    else:
        with pytest.raises(WireError, match=r"largest amount, 1000000000\.00"):
            wf.money(wf.format_money(cents), "x")


@given(st.decimals(min_value="0.000001", max_value="100", places=6))
def test_percent_is_exact(pct: object) -> None:
    text = wf.format_percent(Fraction(str(pct)))
    assert wf.percent(text, "x") == Fraction(str(pct))


def test_the_wire_imports_only_the_standard_library() -> None:
    # Both the meter and the table import the wire; it imports neither (docs/architecture.md).
    import sys

    for path in (Path(__file__).parent.parent / "wire").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                assert node.module.split(".")[0] in sys.stdlib_module_names, (path.name, node.module)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    assert alias.name.split(".")[0] in sys.stdlib_module_names, (path.name, alias.name)


def test_every_example_in_the_docs_decodes() -> None:
    import re

    doc = (Path(__file__).parent.parent / "docs" / "progressive-link.md").read_text()
    examples = re.findall(r"^`(progressive/[^`]+)`\n\n```json\n(.*?)```", doc, re.M | re.S)
    assert len(examples) == 15
    for topic, body in examples:
        ref = T.parse(topic)
        if ref.channel == "event":
            decode_table_message(body, ref)
        elif ref.channel == "table_status":
            decode_table_status(body, ref)
        else:
            decode_meter_message(body, ref)
