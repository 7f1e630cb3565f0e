"""The layers of docs/architecture.md hold, and the repository stands alone.

- ``lint-imports`` (the contracts in ``pyproject.toml``) is kept on the tree as it is, and breaks
  when a rules module imports ``asyncio`` or ``hw``, the core imports a ranking, one game another
  (but Fortune Asia Poker Asia Poker), a ranking more than cards and hand values, the controller
  imports ``sim``, or the screen reaches past the local API (each shown on a copy of the tree with
  one import added);
- no test or script reads anything beside the repository (the research folder next to it).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
#: The research folder beside the repository on the developers' machines, spelled in two parts so
#: that this file does not name it itself.
OUTSIDE = "shared" + "/"
PACKAGES = ("controller", "hw", "ui", "sim", "wire", "meter")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=root,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def tree_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The packages and the contracts, copied so that a test may add an import to them."""
    root = tmp_path_factory.mktemp("tree")
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    for package in PACKAGES:
        shutil.copytree(REPO / package, root / package, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_the_contracts_are_kept_by_the_tree_as_it_is() -> None:
    result = lint_imports(REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("controller/rules/core/money.py", "import asyncio", "The rules core is pure"),
        ("controller/rules/games/blackjack/game.py", "from hw import gpio", "The rules core is pure"),
        ("controller/rules/core/engine.py", "import sqlite3", "The rules core is pure"),
        ("controller/rules/core/events.py", "from controller import sd_notify", "The rules core is pure"),
        (
            "controller/rules/core/money.py",
            "from controller.rules.rankings import high",
            "The rules core has three",
        ),
        (
            "controller/rules/games/caribbean_stud/game.py",
            "from controller.rules.games.blackjack import rules",
            "Each game stands alone",
        ),
        (
            "controller/rules/games/asia_poker/state.py",
            "from controller.rules.games.fortune_asia_poker import rules",
            "Each game stands alone",
        ),
        (
            "controller/rules/rankings/badugi.py",
            "from controller.rules.core import money",
            "The hand rankings stand",
        ),
        ("controller/daemon.py", "from sim import devices", "The product never imports the bench rig"),
        ("hw/shoe.py", "from controller.rules import cards", "The hardware layer knows no rules"),
        ("ui/__init__.py", "from controller import journal", "The screen speaks the local API only"),
        ("controller/tablectl/cli.py", "import kivy", "The controller does not draw the screen"),
        ("wire/messages.py", "import asyncio", "The wire format stands alone"),
        ("meter/ledger.py", "from controller.rules import money", "The meter is its own service"),
        ("controller/daemon.py", "from meter import store", "The table reaches the meter only over the wire"),
        (
            # The meter's one door (meter/claims.py) leads through the rankings: what they import
            # would reach the meter too, so both contracts break.
            "controller/rules/rankings/high.py",
            "from controller.rules.core import money",
            ("The hand rankings stand", "Of the controller the meter sees only"),
        ),
        (
            # Past the rankings, the meter's door is shut by both of its contracts.
            "meter/claims.py",
            "from controller.rules.core import engine",
            ("The meter is its own service", "Of the controller the meter sees only"),
        ),
    ],
)
def test_a_forbidden_import_breaks_its_contract(
    tree_copy: Path, module: str, line: str, contract: str | tuple[str, ...]
) -> None:
    contracts = (contract,) if isinstance(contract, str) else contract
    path = tree_copy / module
    original = path.read_text()
    path.write_text(f"{original}\n{line}  # added by the test\n")
    try:
        result = lint_imports(tree_copy)
    finally:
        path.write_text(original)
    assert result.returncode != 0, result.stdout
    assert f" kept, {len(contracts)} broken." in result.stdout, result.stdout
    broken = result.stdout.split("Broken contracts", 1)[1]
    for name in contracts:
        assert name in broken, result.stdout


def test_nothing_reads_beside_the_repository() -> None:
    """A stranger's clone has nothing beside it: the regulation texts and the known answers are here."""
    readers = [
        *REPO.glob("tests/**/*.py"),
        *REPO.glob("scripts/*"),
        *REPO.glob("bench/*.py"),
        *REPO.glob(".ci/*"),
    ]
    offenders = [
        str(path.relative_to(REPO))
        for path in readers
        if path.is_file() and path != Path(__file__).resolve() and OUTSIDE in path.read_text(errors="replace")
    ]
    assert offenders == []
    assert (
        REPO / "docs/regulations/43-PaB-834_blackjack-poker-three-card-asia-poker-three-dice-football.txt"
    ).is_file()
    assert (REPO / "tests/data/five-card-hands-100k.jsonc").is_file()


def imports_of(path: Path) -> list[str]:
    """The modules ``path`` imports (``import a.b`` and ``from a.b import c``: ``a.b``), anywhere in it."""
    import ast

    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
            names.append(node.module)
    return names


def test_no_benchmark_imports_the_tests() -> None:
    """The benchmarks run on the bench rig (``sim``) and the product, never on the tests' own
    helpers: what a benchmark shares with the tests lives in ``sim/`` (the stand-in table, the
    screen on a private display, the console on the rig)."""
    benches = sorted(REPO.glob("bench/*.py"))
    assert len(benches) >= 10, benches
    offenders = [
        f"{path.relative_to(REPO)}: {name}"
        for path in benches
        for name in imports_of(path)
        if name == "tests" or name.startswith("tests.")
    ]
    assert offenders == []


def test_imports_of_sees_every_import_of_the_tests(tmp_path: Path) -> None:
    bench = tmp_path / "bench_x.py"
    bench.write_text("import tests.ui\nfrom tests.ui import x\ndef f():\n    from tests import y\n", "utf-8")
    assert imports_of(bench) == ["tests.ui", "tests.ui", "tests"]


def loggers_of(path: Path) -> list[str]:
    """The names ``path`` gets its loggers by (``logging.getLogger(...)``), as written."""
    import ast

    return [
        ast.unparse(node.args[0]) if node.args else ""
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path)))
        if isinstance(node, ast.Call) and ast.unparse(node.func) in ("logging.getLogger", "getLogger")
    ]


def test_each_module_logs_under_its_own_name() -> None:
    """A log line names the module that wrote it (``logging.getLogger(__name__)``, or a child of
    it), never a name another module also logs under (issue 22 point 4)."""
    modules = [
        p for package in PACKAGES for p in sorted((REPO / package).rglob("*.py")) if "build" not in p.parts
    ]
    named = {str(p.relative_to(REPO)): loggers_of(p) for p in modules}
    assert sum(len(n) for n in named.values()) >= 20, named
    offenders = [
        f"{path}: getLogger({name})"
        for path, names in named.items()
        for name in names
        if name != "__name__"
        and not name.startswith("f'{__name__}.")
        and not name.startswith('f"{__name__}.')
    ]
    assert offenders == []
