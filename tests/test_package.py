"""The Debian packages, proven in fresh Debian 12 roots: ``scripts/test-package`` (slow).

It builds this commit's and the previous one's packages (``scripts/package``), makes an amd64
and an arm64 root with mmdebstrap (arm64 under qemu-user-static), and in each installs, checks,
plays the bench rig's rounds on the installed controller, upgrades over a journal left mid-round
(an edited conffile kept, no answered question asked again, also over a next release that changes
the conffile), rolls back, refuses a newer journal, removes and purges (docs/install.md). Root and Debian's
tools are needed: without the tools the test fails saying what to run (as tests/test_systemd.py
does); CI runs as root with them (scripts/test runs ``system-deps --packaging`` for slow runs).
``TEST_PACKAGE_ARCHES="amd64"`` limits it to one root.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TOOLS = ("mmdebstrap", "dpkg-deb", "fakeroot", "qemu-aarch64-static", "update-binfmts")


@pytest.mark.slow
def test_the_packages_install_upgrade_roll_back_and_purge_in_fresh_roots() -> None:
    if os.geteuid() != 0:
        pytest.skip("scripts/test-package makes roots with mmdebstrap --mode=root and chroot: run as root")
    missing = [tool for tool in TOOLS if shutil.which(tool) is None] + [
        p for p in ("/usr/bin/python3.11",) if not Path(p).exists()
    ]
    if missing:
        pytest.fail(f"{', '.join(missing)} missing: run bash scripts/system-deps --packaging (as root)")
    arches = os.environ.get("TEST_PACKAGE_ARCHES", "amd64 arm64").split()
    args = [arg for arch in arches for arg in ("--arch", arch)]
    result = subprocess.run(
        ["bash", str(REPO / "scripts/test-package"), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=75 * 60,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    for arch in arches:
        log = (REPO / f"dist/test-package-{arch}.log").read_text()
        assert log.startswith(f"test-package {arch}: passed"), log
