"""``tablectl``'s optional subcommands come from installed plugins (entry point group
``tablectl.commands``), never from an import of theirs: the bench rig's ``bench`` where the rig is
installed, nothing on a Pi without it, and a broken plugin costs a warning, not the command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TABLECTL = Path(sys.executable).with_name("tablectl")
TABLE_BENCH = Path(sys.executable).with_name("table-bench")


def run(*args: str, extra_path: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if extra_path is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(extra_path), env.get("PYTHONPATH", "")]))
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=60, check=False)


def fake_distribution(root: Path, name: str, entry: str) -> Path:
    """A distribution's metadata on a path entry of its own: what pip leaves for a plugin."""
    info = root / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[tablectl.commands]\n{entry}\n")
    return root


def test_the_bench_rig_adds_its_command_to_tablectl() -> None:
    result = run(str(TABLECTL), "bench", "--help")
    assert result.returncode == 0, result.stderr
    assert "usage: tablectl bench" in result.stdout and "--game NAME" in result.stdout


def test_the_bench_rig_has_its_own_script() -> None:
    result = run(str(TABLE_BENCH), "--game", "baccarat")
    assert result.returncode == 2
    assert "the bench rig deals no game 'baccarat'" in result.stderr


def test_a_broken_plugin_is_named_and_the_rest_of_tablectl_works(tmp_path: Path) -> None:
    path = fake_distribution(tmp_path, "broken_plugin", "explode = no_such_module_here:add")
    result = run(str(TABLECTL), "hand", "rank", "Ah Kh Qh Jh Th", extra_path=path)
    assert result.returncode == 0, result.stderr
    assert "royal" in result.stdout.lower() or "straight flush" in result.stdout.lower()
    assert "warning: command plugin 'explode' (no_such_module_here:add)" in result.stderr
    assert "No module named 'no_such_module_here'" in result.stderr


def test_tablectl_imports_nothing_of_the_bench_rig() -> None:
    """On a Pi the rig is absent: ``tablectl`` runs with ``sim`` impossible to import."""
    code = (
        "import sys; sys.modules['sim'] = None\n"  # an import of sim now raises ImportError
        "from controller import tablectl\n"
        "parser = tablectl.build_parser()\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr
    assert "warning: command plugin 'bench'" in result.stderr  # found by name, failed to load: named
