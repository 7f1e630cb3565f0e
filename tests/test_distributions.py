"""The repository's four distributions build cleanly and work installed, not only from the tree.

- each builds without a warning (the license in the current PEP 639 form, no data directory
  mistaken for a package);
- the product's wheel for the Pi carries ``controller``, ``hw`` and ``ui``: never the bench rig,
  the meter or the tests;
- ``wire`` is in one distribution, ``progressive-link-wire``, and both the table's and the
  meter's require it: one environment with both has one copy;
- an installed (not editable) bench rig finds each game's example Rules Submission and the
  example Mosquitto configuration in its own package, and plays a round with no source tree.
"""

from __future__ import annotations

import email.parser
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: distribution directory -> (wheel name prefix, its top-level packages)
DISTRIBUTIONS = {
    ".": ("table_controller", {"controller", "hw", "ui"}),
    "wire": ("progressive_link_wire", {"wire"}),
    "meter": ("progressive_meter", {"meter"}),
    "sim": ("table_bench_rig", {"sim"}),
}


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Path], str]:
    out = tmp_path_factory.mktemp("wheels")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(out)]
        + [str(REPO / d) for d in DISTRIBUTIONS],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    found = {d: next(out.glob(f"{prefix}-*.whl")) for d, (prefix, _) in DISTRIBUTIONS.items()}
    return found, build.stdout + build.stderr


def _top_level(wheel: Path) -> set[str]:
    names = zipfile.ZipFile(wheel).namelist()
    return {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}


def _metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        return email.parser.Parser().parsestr(z.read(name).decode())


def test_every_distribution_builds_without_a_warning(wheels: tuple[dict[str, Path], str]) -> None:
    found, log = wheels
    assert "Warning" not in log and "deprecated" not in log, log
    for wheel in found.values():
        meta = _metadata(wheel)
        assert meta["License-Expression"] == "LicenseRef-Proprietary", wheel.name


def test_wire_is_one_distribution_that_the_table_and_the_meter_require(
    wheels: tuple[dict[str, Path], str],
) -> None:
    found, _ = wheels
    for directory, (_, packages) in DISTRIBUTIONS.items():
        assert _top_level(found[directory]) == packages, directory
    for directory in (".", "meter"):
        requires = _metadata(found[directory]).get_all("Requires-Dist") or []
        assert any(r.startswith("progressive-link-wire") for r in requires), (directory, requires)


def test_an_installed_bench_rig_plays_a_round_without_the_source_tree(
    wheels: tuple[dict[str, Path], str], tmp_path: Path
) -> None:
    found, _ = wheels
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site)]
        + [str(w) for w in found.values()],
        check=True,
        capture_output=True,
        timeout=300,
    )
    names = zipfile.ZipFile(found["sim"]).namelist()
    games = ("caribbean-stud", "blackjack", "three-dice-football", "holdem-bonus")
    for game in games:
        assert f"sim/bench-examples/{game}/rules-submission.toml" in names
    assert "sim/mosquitto-conf/mosquitto.conf" in names
    # The wheels' copies come first on the path (the venv's editable installs point at the tree);
    # the current directory is elsewhere, so nothing of the source tree is found by accident.
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sim.bench_rig as b, wire; print(b.EXAMPLES, wire.__file__)",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert where.stdout.startswith(str(site)) and str(REPO) not in where.stdout, where.stdout
    bench = subprocess.run(
        [sys.executable, "-m", "sim.bench_command", "--rounds", "1", "--console", "no", "--seed", "7"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bench.returncode == 0, bench.stdout + bench.stderr
    assert "round" in bench.stdout.lower()


def test_the_meter_package_carries_every_module_its_claims_import(tmp_path: Path) -> None:
    """The meter's Debian package has no controller wheel: it carries the hand rankings' modules
    as listed in packaging/build.py (METER.shared). With only those beside the meter and the wire,
    the meter's judge of claims imports, and no module of the controller outside the list loads."""
    sys.path.insert(0, str(REPO / "packaging"))
    try:
        import build as packaging_build  # packaging/build.py
    finally:
        sys.path.remove(str(REPO / "packaging"))
    for name in ("meter", "wire"):
        subprocess.run(["cp", "-r", str(REPO / name), str(tmp_path / name)], check=True)
    for shared in packaging_build.METER.shared:
        (tmp_path / shared).parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cp", "-r", str(REPO / shared), str(tmp_path / shared)], check=True)
    probe = (
        "import sys; import meter.claims; print(sorted(m for m in sys.modules if m.startswith('controller')))"
    )
    # -S: no site-packages, so none of our editable installs: only what lies in tmp_path.
    result = subprocess.run(
        [sys.executable, "-S", "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    loaded = eval(result.stdout)  # a list of module names printed by the probe
    assert loaded and all(
        m.startswith(("controller.rules.core", "controller.rules.rankings"))
        or m in ("controller", "controller.rules")
        for m in loaded
    ), loaded


def test_the_packages_defaults_and_the_tables_drop_in_make_the_examples_configuration(tmp_path: Path) -> None:
    """The conffile table-controller.toml (the defaults, no [table]) and the drop-in postinst writes
    from the template (the table's id filled) read together as the example does, but for the table;
    the defaults alone name what is missing."""
    from controller.config import ConfigError, load_config

    sys.path.insert(0, str(REPO / "packaging"))
    try:
        import build as packaging_build  # packaging/build.py
    finally:
        sys.path.remove(str(REPO / "packaging"))
    defaults, table = packaging_build.config_files()
    assert not {"table", "progressive_link"} & set(tomllib.loads(defaults)) and "CS-3" not in defaults
    (tmp_path / "table-controller.toml").write_text(defaults)
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path / "table-controller.toml", gpio_check=None)
    assert info.value.problems == ("[table]: missing; see docs/config.md#table",)
    (tmp_path / "table-controller.d").mkdir()
    (tmp_path / "table-controller.d/10-table.toml").write_text(table.replace("@TABLE_ID@", "CS-9"))
    config = load_config(tmp_path / "table-controller.toml")
    example = load_config(REPO / "examples/table-controller.toml")
    assert config.table.id == "CS-9" and config.progressive_link is None
    assert (config.journal, config.api, config.gpio, config.shoe, config.shuffler) == (
        example.journal, example.api, example.gpio, example.shoe, example.shuffler
    )  # fmt: skip
