"""``scripts/new-game`` (docs/new-game.md): the folder it makes is a game the conformance checks
take as they are, once it has its registry line and a Rules Submission.

The scaffold runs in a copy of the rules core (``controller/`` under a temporary directory), so the
tree under test is never written; the copy's game is then imported, registered, held to the
layout and hook checks of ``tests/test_conformance.py``, played (wagers, "no more bets") and
settled; and the copy is removed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

CHECK = """
import sys
from controller.rules.core.engine import IllegalEvent, Round, RoundIncomplete
from controller.rules.core.events import Event
from controller.rules.core.hooks import initial_meters
from controller.rules.games import GAMES
from controller.rules.games.pai_gow_poker import GAME
from tests import test_conformance as conformance

assert GAMES[GAME.name] is GAME

assert conformance.GAMES_DIR.is_relative_to(sys.argv[1]), conformance.GAMES_DIR
conformance.test_every_game_has_the_files_of_the_layout(GAME.name)
conformance.test_every_game_answers_every_hook(GAME.name)
conformance.test_a_new_round_waits_for_the_wagers_and_the_dealer(GAME.name)
rules = conformance.submission_rules(GAME.name)
rnd = Round.begin(GAME, rules, initial_meters(GAME.progressives(rules)))
rnd.apply(Event("wager", seat=2, wager="ante", amount=500))
try:
    rnd.settle()
except RoundIncomplete:
    pass
else:
    raise AssertionError("a round settled before no more bets")
try:
    rnd.apply(Event("wager", seat=99, wager="ante", amount=100))
except IllegalEvent:
    pass
else:
    raise AssertionError("seat 99 was taken")
rnd.apply(Event("no_more_bets"))
assert rnd.waiting_for() == ()
settlement = rnd.settle().to_json()
assert list(settlement["seats"]) == ["2"], settlement
ante = settlement["seats"]["2"]["ante"]
assert ante["result"] == "void" and ante["stake"] == "5.00", settlement
print("ok")
"""


@pytest.fixture
def copy(tmp_path: Path) -> Iterator[Path]:
    """The rules core, the conformance checks and the scaffold, copied (the copy goes after)."""
    root = tmp_path / "tree"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "controller", root / "controller", ignore=ignore)
    (root / "tests").mkdir()
    for name in ("__init__.py", "test_conformance.py"):
        shutil.copy2(REPO / "tests" / name, root / "tests" / name)
    (root / "scripts").mkdir()
    shutil.copy2(REPO / "scripts" / "new-game", root / "scripts" / "new-game")
    yield root
    shutil.rmtree(root)


def test_the_scaffold_makes_a_game_the_conformance_checks_take(copy: Path) -> None:
    made = subprocess.run(
        [
            "bash",
            str(copy / "scripts" / "new-game"),
            "pai-gow-poker",
            "Pai Gow Poker",
            "58 Pa. Code ch. 6xxa",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    folder = copy / "controller" / "rules" / "games" / "pai_gow_poker"
    assert sorted(p.name for p in folder.iterdir()) == [
        "__init__.py",
        "game.py",
        "play.py",
        "rules.py",
        "settle.py",
        "state.py",
    ]
    assert "controller/rules/games/__init__.py" in made.stdout  # the registry line, for the author
    assert not (REPO / "controller" / "rules" / "games" / "pai_gow_poker").exists()
    # The registry line (step 2 of what the scaffold prints), in the copy's registry.
    registry = copy / "controller" / "rules" / "games" / "__init__.py"
    text = registry.read_text("utf-8")
    text = text.replace("    asia_poker,\n", "    asia_poker,\n    pai_gow_poker,\n", 1)
    text = text.replace(
        "            poker_room.GAME,\n", "            poker_room.GAME,\n            pai_gow_poker.GAME,\n", 1
    )
    registry.write_text(text, "utf-8")
    example = copy / "examples" / "pai-gow-poker"
    example.mkdir(parents=True)
    (example / "rules-submission.toml").write_text(
        'table = "PGP-1"\ngame = "pai-gow-poker"\n\n[rules]\nseats = 6\n', "utf-8"
    )
    env = {**os.environ, "PYTHONPATH": str(copy)}
    checked = subprocess.run(
        [sys.executable, "-c", CHECK, str(copy)],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0 and checked.stdout.strip() == "ok", checked.stdout + checked.stderr
    # A second run refuses: the folder is there, nothing is written over.
    again = subprocess.run(
        ["bash", str(copy / "scripts" / "new-game"), "pai-gow-poker"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert again.returncode != 0 and "exists already" in again.stderr


def test_the_scaffold_refuses_a_name_not_written_as_in_records(copy: Path) -> None:
    made = subprocess.run(
        ["bash", str(copy / "scripts" / "new-game"), "Pai_Gow"], capture_output=True, text=True, check=False
    )
    assert made.returncode != 0 and "lower-case words joined by '-'" in made.stderr
    assert not (copy / "controller" / "rules" / "games" / "Pai_Gow").exists()
