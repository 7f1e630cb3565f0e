"""The tests' shared fixtures are written once, in ``tests/conftest.py`` (issue 22 point 5): no
test module writes one of them again under its name (the certificates, the short directories and
the bench rig were written seven, four and three times)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def fixtures(path: Path) -> dict[str, str]:
    """The fixtures ``path`` defines at its top level: name -> its code (decorators and docstring aside)."""
    out: dict[str, str] = {}
    for node in ast.parse(path.read_text("utf-8"), str(path)).body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        decorators = [ast.unparse(d) for d in node.decorator_list]
        if not any(".fixture" in d or d == "fixture" for d in decorators):
            continue
        body = node.body[1:] if ast.get_docstring(node) is not None else node.body
        out[node.name] = "\n".join(ast.unparse(statement) for statement in body)
    return out


def test_no_test_module_writes_a_shared_fixture_again() -> None:
    shared = fixtures(TESTS / "conftest.py")
    assert {"pki", "short_dir", "rig"} <= set(shared)
    again = [
        f"{path.name}: {name}"
        for path in sorted(TESTS.glob("test_*.py"))
        for name, code in fixtures(path).items()
        if shared.get(name) == code
    ]
    assert again == [], "use the fixture of tests/conftest.py"


def test_fixtures_sees_a_fixture_written_again(tmp_path: Path) -> None:
    conftest = (TESTS / "conftest.py").read_text("utf-8")
    copy = tmp_path / "test_copy.py"
    copy.write_text(conftest, "utf-8")
    assert fixtures(copy) == fixtures(TESTS / "conftest.py") != {}
