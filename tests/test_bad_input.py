"""Every bad input a clear error (issue 18, point 5): a deeply nested Rules Submission, a damaged
schema page of the journal, money and counts written in other digits than ASCII's."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.daemon import main
from controller.journal import Journal, JournalError, JournalReader
from controller.journal.records import LockOut
from controller.rules.core.events import EventError, parse_event
from controller.rules.core.money import MoneyError, parse_money, parse_odds
from controller.tablectl import EXIT_FAILED
from controller.tablectl import main as tablectl
from sim.bench_rig import RULES_SUBMISSION, config_text

#: Digits that are not ASCII's: Arabic-Indic, fullwidth, Devanagari, Bengali, mathematical bold.
OTHER_DIGITS = ("٠١٢٣٤٥٦٧٨٩", "０１２３４５６７８９", "०१२३४५६७८९", "০১২৩৪৫৬৭৮৯", "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗")


def test_a_deeply_nested_rules_submission_is_a_named_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Forbids: "a deeply nested Rules Submission ends the daemon with a `RecursionError`
    traceback"."""
    nested = "x = " + "[" * 50_000 + "]" * 50_000 + "\n"
    (tmp_path / "rules-submission.toml").write_text(RULES_SUBMISSION + "\n" + nested)
    config = tmp_path / "table-controller.toml"
    config.write_text(config_text(tmp_path))
    assert main(["--config", str(config), "--check"]) == 78
    err = capsys.readouterr().err
    assert "nested too deeply" in err and "Traceback" not in err and "RecursionError" not in err
    assert tablectl(["check", str(tmp_path / "rules-submission.toml")]) == EXIT_FAILED
    assert "nested too deeply" in capsys.readouterr().err


def test_a_damaged_schema_page_is_refused_by_name(tmp_path: Path) -> None:
    """Forbids: "one corrupted byte of the schema page gives a `UnicodeDecodeError` traceback".
    Every printable byte of the journal's first page (the schema and, in a small journal, the
    meta rows) made 0xff: each image is refused as a ``JournalError`` naming the file, by the
    daemon's open and by ``tablectl journal verify``'s reader."""
    source = tmp_path / "source"
    source.mkdir()
    path = source / "j.sqlite3"

    async def build() -> None:
        async with await Journal.open(path, "CS-3") as journal:
            await journal.append(LockOut("x"), source="daemon")

    asyncio.run(build())
    data = path.read_bytes()
    trial = tmp_path / "trial"
    tried = 0
    for at in range(100, 4096, 3):
        if not 0x20 <= data[at] < 0x7F:
            continue
        shutil.rmtree(trial, ignore_errors=True)
        shutil.copytree(source, trial)
        image = bytearray(data)
        image[at] = 0xFF
        (trial / path.name).write_bytes(bytes(image))
        tried += 1

        async def open_it() -> None:
            journal = await Journal.open(trial / path.name, "CS-3", create=False)
            await journal.close()

        for attempt in (lambda: asyncio.run(open_it()), lambda: JournalReader(trial / path.name).verify()):
            try:
                attempt()
            except JournalError as exc:
                assert path.name in str(exc)
    assert tried > 100


@given(st.sampled_from(OTHER_DIGITS), st.integers(min_value=0, max_value=9999))
def test_money_in_other_digits_than_ascii_is_refused(digits: str, dollars: int) -> None:
    """Forbids: money written in non-ASCII digits ("٥.٠٠", fullwidth, Devanagari) accepted as $5.00."""
    text = "".join(digits[int(c)] for c in str(dollars)) + "." + digits[0] * 2
    with pytest.raises(MoneyError, match="not an amount of money"):
        parse_money(text)
    with pytest.raises(MoneyError):
        parse_money("$" + text)
    with pytest.raises(MoneyError):
        parse_odds(f"{digits[5]} to 1")
    assert parse_money(f"{dollars}.00") == dollars * 100  # the ASCII amount still reads


def test_a_seat_in_other_digits_is_not_a_seat() -> None:
    with pytest.raises(EventError):
        parse_event({"type": "cards", "to": "٣", "cards": "2c 7d 9s Jh 4c"}, "event")
    with pytest.raises(EventError):
        parse_event({"type": "wager", "seat": 1, "wager": "ante", "amount": "٥.٠٠"}, "event")


@pytest.mark.parametrize("digits", OTHER_DIGITS)
def test_tablectl_counts_in_other_digits_are_refused(digits: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Forbids: a count on tablectl's command line written in non-ASCII digits (``rounds -n ١٠``,
    a seat ``٣``, ``--seconds ٥``) read as the number (Python's ``int`` and ``float`` take them):
    ASCII only, everywhere money or counts are read."""
    ten, three, five = digits[1] + digits[0], digits[3], digits[5]
    for argv in (
        ["rounds", "--journal", "/nonexistent", "-n", ten],
        ["lamp", three, "on"],
        ["sniff", "shoe", "--seconds", five],
        ["demo", "--rounds", three],
    ):
        with pytest.raises(SystemExit) as exited:
            tablectl(argv)
        assert exited.value.code == 2, argv
        err = capsys.readouterr().err
        assert "not a whole number" in err or "not a number of seconds" in err, (argv, err)
