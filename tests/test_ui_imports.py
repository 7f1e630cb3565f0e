"""The screen speaks the local API only (design: "the UI only renders state and sends commands"):
no module of ``ui`` imports anything of ``controller`` but ``controller.api_client``, nor ``sim``
or ``hw``. Read from the source, so a new module is checked too.
"""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parent.parent / "ui"
ALLOWED = {"controller.api_client"}
FORBIDDEN_ROOTS = {"controller", "sim", "hw", "meter"}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module)
    return out


def test_the_screen_imports_only_the_api_client() -> None:
    modules = sorted(UI.glob("*.py"))
    assert len(modules) > 10
    wrong = {
        f"{path.name}: {name}"
        for path in modules
        for name in imports_of(path)
        if name.split(".")[0] in FORBIDDEN_ROOTS and name not in ALLOWED
    }
    assert wrong == set()


def test_the_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from controller.rules.games.asia_poker.house_way import set_hands\nimport sim.bench_rig\n"
    )
    assert imports_of(bad) == {"controller.rules.games.asia_poker.house_way", "sim.bench_rig"}
