"""The meter's systemd unit: systemd's own checks, and the command it runs exists."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from meter.main import _parser

from .test_systemd import SYSTEMD, analyze_verify, parse_unit, require_tool, values

UNIT = "progressive-meter.service"


def _root(tmp_path: Path) -> Path:
    require_tool("systemd-analyze")
    root = tmp_path / "root"
    system_units = next(
        p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")) if p.is_dir()
    )
    shutil.copytree(system_units, root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(SYSTEMD / UNIT, root / "etc/systemd/system" / UNIT)
    program = root / "opt/progressive-meter/bin/progressive-meter"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    return root


def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    result = analyze_verify(_root(tmp_path), UNIT)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_the_sandbox_stays_tight(tmp_path: Path) -> None:
    result = subprocess.run(
        [require_tool("systemd-analyze"), "security", "--offline=yes", f"--root={_root(tmp_path)}",
         "--threshold=20", UNIT],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr


def test_the_unit_runs_the_meters_own_command() -> None:
    (command,) = values(parse_unit(SYSTEMD / UNIT), "ExecStart")
    args = _parser().parse_args(command.split()[1:])
    assert (args.command, str(args.config)) == ("run", "/etc/progressive-meter/meter.toml")
