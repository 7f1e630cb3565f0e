"""``tablectl doctor`` on a broken configuration: each problem said once, with what to do."""

from __future__ import annotations

from pathlib import Path

from controller.tablectl.link import doctor


def test_a_missing_table_section_is_one_finding(tmp_path: Path) -> None:
    """A configuration without ``[table]`` cannot be loaded: doctor says so once (the count of
    problems, the first one, and ``tablectl check`` for the rest), not again as the load's error,
    and stops there, since every later check needs the configuration."""
    path = tmp_path / "table-controller.toml"
    text = Path("examples/table-controller.toml").read_text()
    start = text.index("[table]")
    end = text.index("\n[", start + 1)
    path.write_text(text[:start] + text[end + 1 :])
    findings = list(doctor(path, None))
    assert [f.what for f in findings] == ["configuration"], [f.line() for f in findings]
    (finding,) = findings
    assert not finding.ok
    assert "[table]" in finding.detail or "table" in finding.detail
    assert "tablectl check" in finding.what_to_do


def test_a_loadable_configuration_with_problems_is_one_finding_and_the_checks_go_on(
    tmp_path: Path,
) -> None:
    """The example names files and a group this machine lacks: the configuration still loads, so
    doctor says its problems once and goes on to the pins, the ports and the rest."""
    path = tmp_path / "table-controller.toml"
    path.write_text(Path("examples/table-controller.toml").read_text())
    findings = list(doctor(path, tmp_path / "no-socket"))
    configuration = [f for f in findings if f.what == "configuration"]
    assert len(configuration) == 1, [f.line() for f in configuration]
    assert not configuration[0].ok
    assert "pins" in [f.what for f in findings]
