"""Every example in examples/: records replay to their documented settlements, submissions check.

Runs the real ``tablectl`` for each, as a technician or a lab engineer would.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.tablectl import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
TABLECTL = Path(sys.executable).with_name("tablectl")
RECORDS = sorted(p for p in EXAMPLES.glob("*/*.json") if not p.name.endswith(".settlement.json"))
SUBMISSIONS = sorted(EXAMPLES.glob("*/*.toml"))


def test_every_game_has_examples() -> None:
    from controller.rules.games import GAMES

    for name in GAMES:
        assert len(list((EXAMPLES / name).glob("*.settlement.json"))) >= 3, name
        assert (EXAMPLES / name / "rules-submission.toml").exists(), name


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_replay_gives_the_documented_settlement(record: Path) -> None:
    expected = json.loads(record.with_suffix(".settlement.json").read_text())
    done = subprocess.run([str(TABLECTL), "replay", str(record)], capture_output=True, text=True, check=False)
    assert done.returncode == EXIT_OK, done.stderr
    assert json.loads(done.stdout) == expected
    again = subprocess.run(
        [str(TABLECTL), "replay", str(record)], capture_output=True, text=True, check=False
    )
    assert again.stdout == done.stdout  # byte for byte


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_explain_cites_sections(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--explain", str(record)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "§" in out and "Settlement" in out


@pytest.mark.parametrize("submission", SUBMISSIONS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_example_submissions_are_valid(submission: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(submission)]) == EXIT_OK
    assert "valid" in capsys.readouterr().out


@pytest.mark.parametrize("submission", SUBMISSIONS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rules_written_back_load_to_the_same_rules(submission: Path) -> None:
    """What ``check`` and ``--explain`` print is the file form: it loads back to the same rules."""
    from controller.rules.core.options import load_rules, rules_to_mapping
    from controller.rules.core.submission import parse_submission
    from controller.rules.games import GAMES

    sub = parse_submission(submission.read_text(), GAMES, str(submission))
    again = load_rules(sub.game.rules_class, rules_to_mapping(sub.rules), "again", sub.game.rules_checks)
    assert again == sub.rules


def test_check_lists_every_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'table = "CS-3"\ngame = "caribbean-stud"\nbogus = 1\n[rules]\nprogressive.offered = true\n'
        'progressive.reset = "5000.00"\nbonus.paytabel = "A"\n'
    )
    assert main(["check", str(bad)]) == EXIT_FAILED
    err = capsys.readouterr().err
    assert "bogus: unknown key" in err
    assert "5000.00" in err and "§ 639a.12(d)(3)" in err
    assert "did you mean 'bonus.paytable'?" in err


def test_check_names_a_wrong_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('table = "X"\ngame = "caribean-stud"\n')
    assert main(["check", str(bad)]) == EXIT_FAILED
    assert "did you mean 'caribbean-stud'?" in capsys.readouterr().err


def test_check_a_file_that_is_not_there(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "/nonexistent/rules.toml"]) == EXIT_BAD_INPUT
    assert "cannot read Rules Submission /nonexistent/rules.toml" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("not json", "not JSON"),
        ("[]", "a round record is a JSON object"),
        ('{"game": "craps"}', "game 'craps' is not one of"),
        ('{"game": "caribbean-stud", "seets": {}}', "unknown key 'seets'"),
        ('{"game": "caribbean-stud", "seats": {"1": {"ante": 10}}}', "write money as a string"),
        ('{"game": "caribbean-stud", "seats": {"x": {"ante": "10"}}}', "'x' is not a seat number"),
        ('{"game": "caribbean-stud", "version": 2}', "version 2"),
    ],
)
def test_a_bad_record_exits_2_naming_the_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: str, message: str
) -> None:
    path = tmp_path / "r.json"
    path.write_text(record)
    assert main(["replay", str(path)]) == EXIT_BAD_INPUT
    assert message in capsys.readouterr().err
