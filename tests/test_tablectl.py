"""``tablectl hand`` and ``tablectl demo`` as a technician uses them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.demo import SHOWDOWNS
from controller.tablectl import EXIT_BAD_INPUT, EXIT_OK, main

TABLECTL = Path(sys.executable).with_name("tablectl")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rank(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hand", "rank", "Ah Kh Qh Jh 9h")
    assert code == EXIT_OK
    assert out.startswith("flush, ace-king-queen-jack-nine  [Ah Kh Qh Jh 9h]")


def test_rank_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hand", "rank", "--json", "7c 7d 7h 2s 2d 9c 9d")
    assert code == EXIT_OK
    data = json.loads(out)
    assert data["category"] == "full house" and data["cards"] == "7c 7d 7h 9c 9d"


def test_compare_badugi_from_the_issue(capsys: pytest.CaptureFixture[str]) -> None:
    """§ 637a.21(k)(1): a four-card Badugi (A-2-3-4, the best) beats a three-card hand."""
    code, out, _ = run(capsys, "hand", "compare", "--ranking", "badugi", "Ac 2d 3h 4s", "2s 3s 4d 7h")
    assert code == EXIT_OK
    assert out.splitlines()[-1] == "hand 1 wins"


def test_compare_tie(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hand", "compare", "As Kd 9c 7h 2s", "Ac Kh 9d 7s 2d")
    assert code == EXIT_OK
    assert out.splitlines()[-1] == "tie between hands 1, 2"


def test_compare_with_a_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "hand",
        "compare",
        "-r",
        "omaha-high",
        "-b",
        "2h 3h 4h 5h 9c",
        "Ah Kd Qd Jd Td",
        "6h 6c 7s 8s Ts",
    )
    assert code == EXIT_OK, out
    # § 637a.19(k): exactly two hole cards. Hand 1's lone heart makes no flush and A-K with three of
    # 2-3-4-5 no straight; hand 2's 6-7 with the board's 3-4-5 is a seven-high straight.
    assert out.splitlines()[-1] == "hand 2 wins"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["hand", "rank", "As Kd Qh Jc 1s"], "card 5: '1s'"),
        (["hand", "rank", "As Kd Qh Jc"], "4 cards given"),
        (["hand", "rank", "--ranking", "badugy", "As 2d 3h 4c"], "did you mean 'badugi'?"),
        (["hand", "compare", "As Kd Qh Jc 9s", "As 2d 3h 4c 5s"], "cannot come from one deal: As appears 2"),
        (["hand", "compare", "As Kd Qh Jc 9s"], "at least two hands"),
        (["hand", "rank", "-r", "omaha-high", "As Kd Qh Jc 9s"], "needs --board"),
        (["hand", "rank", "As Kd Qh Jc JKR"], "joker"),
    ],
)
def test_bad_input_is_named_and_exits_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == EXIT_BAD_INPUT
    assert out == ""
    assert err.startswith("tablectl: error: ") and message in err


def test_rankings_lists_every_ranking_with_its_section(capsys: pytest.CaptureFixture[str]) -> None:
    from controller.rules.rankings import RANKINGS

    code, out, _ = run(capsys, "hand", "rankings")
    assert code == EXIT_OK
    heads = [line for line in out.splitlines() if not line.startswith(" ")]
    assert sorted(line.split()[0] for line in heads) == sorted(RANKINGS)
    assert all("§" in line for line in heads)


def test_demo_deals_every_game_and_repeats_with_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code, first, _ = run(capsys, "demo", "--rounds", "2", "--seed", "42")
    assert code == EXIT_OK
    _, second, _ = run(capsys, "demo", "--rounds", "2", "--seed", "42")
    assert first == second
    for show in SHOWDOWNS:
        assert first.count(show.game + " (") == 2


def test_the_installed_command() -> None:
    """The console script that setup installs, as a tech runs it over SSH."""
    done = subprocess.run(
        [str(TABLECTL), "hand", "rank", "2c 3d 4h 5s 7c", "-r", "27-low"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "seven" in done.stdout
    bad = subprocess.run(
        [str(TABLECTL), "hand", "rank", "2c 3d"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2 and "2 cards given" in bad.stderr


def test_analyze_three_dice_football(capsys: pytest.CaptureFixture[str]) -> None:
    """§ 661a.8: every wager of the chapter with its exact probability and house edge."""
    code, out, _ = run(capsys, "analyze", "three-dice-football")
    assert code == EXIT_OK
    for wager in ("Touchdown Wager", "Defense Wager", "Extra Point Wager", "Trips TD Wager", "Penalty Wager"):
        assert wager in out
    assert "house edge" in out


def test_output_cut_short_by_the_reader_is_not_an_error() -> None:
    """``tablectl hand rankings | head -1``: no traceback when the pipe closes."""
    done = subprocess.run(
        f"{TABLECTL} analyze three-dice-football | head -1",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr
