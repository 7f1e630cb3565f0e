"""The daemon's configuration file: every problem at once, each naming [section] key, value and why."""

from __future__ import annotations

import grp
import os
import pwd
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.auth import Role, add_user
from controller.config import (
    ApiSection,
    Config,
    ConfigError,
    check_config_file,
    config_from_mapping,
    load_config,
    parse_config,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "table-controller.toml"
RULES_SUBMISSION = ROOT / "examples" / "caribbean-stud" / "rules-submission.toml"

GPIO = """
[gpio]
lock_out = 17
floorperson_light = 27

[gpio.seats.1]
sensor = 5
wager_lamp = 6
won_lamp = 13
"""
MINIMAL = (
    """
[table]
id = "CS-3"
rules_submission = "/etc/table-controller/rules-submission.toml"
"""
    + GPIO
)
GPIO_TABLE = {
    "lock_out": 17,
    "floorperson_light": 27,
    "seats": {"1": {"sensor": 5, "wager_lamp": 6, "won_lamp": 13}},
}


def problems_of(text: str, **kw: Any) -> list[str]:
    with pytest.raises(ConfigError) as info:
        parse_config(text, "table-controller.toml", **kw)
    assert str(info.value).startswith("table-controller.toml: ")
    return list(info.value.problems)


def test_the_example_is_valid() -> None:
    config = load_config(EXAMPLE)
    assert config.table.id == "CS-3"
    assert config.api.socket == Path("/run/table-controller/api.sock")
    assert config.api.group == "table-api" and config.api.dealer_user == "table-ui"
    assert config.api.pin_attempts == 5 and config.api.lockout_seconds == 300
    assert config.gpio["lock_out"] == 17 and config.gpio["seats"]["2"]["sensor"] == 19
    assert config.shoe is not None and config.shoe.port == Path("/dev/table-shoe")
    assert config.shuffler is not None and config.shuffler.baud == 9600 and config.shuffler.enabled
    assert config.reader is None
    assert set(config.serial_devices()) == {"shoe", "shuffler"}
    link = config.progressive_link
    assert link is not None and link.tls and link.port == 8883
    assert link.cert_file == Path("/etc/table-controller/link/cs-3.pem")
    assert link.username is None and link.password_file is None  # the certificate names the table


def test_left_out_sections_take_their_defaults() -> None:
    config = parse_config(MINIMAL)
    assert config.journal.path == Path("/var/lib/table-controller/journal.sqlite")
    assert config.api == ApiSection()
    assert config.api.users_file == Path("/etc/table-controller/users.json")
    assert config.shoe is None and config.progressive_link is None and config.serial_devices() == {}


def test_every_problem_at_once_naming_section_key_value_and_why() -> None:
    text = """
[table]
id = "CS/3"

[api]
sockt = "/run/x.sock"
pin_attempts = 0
users_file = "users.json"

[shoo]
port = "/dev/ttyUSB0"

[journal]
path = 5

[shoe]
port = "/dev/ttyUSB1"
baud = 115201

[shuffler]
port = "/dev/ttyUSB0"

[reader]
port = "/dev/ttyUSB0"

[progressive_link]
host = "meter.casino.example"
site = "PA"
tls = false
cert_file = "/etc/cert.pem"
"""
    problems = problems_of(text)
    expected = [
        "shoo: unknown section or key; did you mean 'shoe'?",
        '[table] id = "CS/3": must be 1 to 32 letters, digits',
        "[table] rules_submission: missing; the table's Rules Submission (§ 601a.2)",
        "[api] sockt: unknown key; did you mean 'socket'?",
        '[api] users_file = "users.json": must be an absolute path',
        "[api] pin_attempts = 0: is below the minimum of 1",
        "[gpio]: missing",
        "[shoe] baud = 115201: must be one of the standard rates",
        "[journal] path = 5: must be a path written as a string",
        "[progressive_link] tls = false: the link carries meter amounts and awards",
        "[progressive_link] cert_file, key_file: give both",
        '[reader] port = "/dev/ttyUSB0": is also the port of [shuffler]',
    ]
    for line in expected:
        assert any(p.startswith(line) for p in problems), (line, problems)
    assert len(problems) == len(expected) + 1  # and tls = false with a certificate
    assert any("tls = false, but ca_file/cert_file/key_file are given" in p for p in problems)


def test_a_password_is_never_inline_and_never_repeated() -> None:
    text = (
        MINIMAL
        + """
[progressive_link]
host = "meter.casino.example"
site = "PA"
ca_file = "/etc/ca.pem"
username = "cs3"
password = "hunter2-in-the-file"
"""
    )
    problems = problems_of(text)
    assert problems == [
        "[progressive_link] password: a password is never written in this file; put it in a file only the "
        "daemon's user can read and name that file in password_file"
    ]
    assert "hunter2" not in str(problems)


def test_misplaced_keys_are_not_repeated_either() -> None:
    problems = problems_of('pasword = "hunter2"\n' + MINIMAL)
    assert problems == ["pasword: unknown section or key"]


def test_link_rules() -> None:
    base = MINIMAL + '[progressive_link]\nhost = "meter.casino.example"\nsite = "PA"\n'
    assert problems_of(base) == [
        "[progressive_link] ca_file: missing; "
        "with tls = true name the CA that signed the broker's certificate"
    ]
    problems = problems_of(base + 'ca_file = "/ca.pem"\npassword_file = "/pw"\ntopic_prefix = "a/+/b"\n')
    assert problems[0].startswith('[progressive_link] topic_prefix = "a/+/b": must be MQTT topic levels')
    assert len(problems) == 1  # the parse failed, so the checks between keys wait for a good value
    problems = problems_of(base + 'ca_file = "/ca.pem"\npassword_file = "/pw"\n')
    assert problems == ["[progressive_link] password_file: a password needs a username"]
    # Without TLS only to a broker on this machine: the bench rig.
    local = MINIMAL + '[progressive_link]\nhost = "127.0.0.1"\nsite = "BENCH"\ntls = false\nport = 1883\n'
    link = parse_config(local).progressive_link
    assert link is not None and not link.tls and link.port == 1883
    ipv6 = parse_config(local.replace("127.0.0.1", "::1")).progressive_link
    assert ipv6 is not None and ipv6.host == "::1"


def test_a_key_instead_of_a_section_and_bad_toml() -> None:
    problems = problems_of('table = "CS-3"\n' + GPIO)
    assert problems == ['table = "CS-3": must be a section, [table], not a key']
    problems = problems_of("[table\nid = 1\n")
    assert len(problems) == 1 and problems[0].startswith("not valid TOML:")


@pytest.mark.parametrize(
    "nesting",
    ["[table]\nid = " + "[" * 5000 + "]" * 5000, "[table]\nid = " + "{a = " * 3000 + "1" + "}" * 3000],
)
def test_toml_nested_too_deeply_is_a_named_error_not_a_traceback(nesting: str) -> None:
    """Issue 9, item 8: tomllib recurses per level; the stack's end is a config error, not a crash."""
    assert problems_of(nesting + "\n" + GPIO) == [
        "not a usable configuration: arrays or tables nested too deeply"
    ]


def test_socket_path_length_is_bounded() -> None:
    long = "/run/" + "x" * 120 + ".sock"
    problems = problems_of(MINIMAL + f'[api]\nsocket = "{long}"\n')
    assert len(problems) == 1 and "longer than the 107 bytes" in problems[0]


def test_the_gpio_table_goes_to_its_checker() -> None:
    seen: list[Mapping[str, Any]] = []

    def check(table: Mapping[str, Any]) -> Iterable[str]:
        seen.append(table)
        if table.get("lock_out") == 17:
            yield "lock_out 17: pin 17 is the shuffler's on this board"
        yield "[gpio] debounce_ms: missing"

    text = MINIMAL.replace("[gpio]", "[api]\npin_attempts = -1\n[gpio]")
    problems = problems_of(text, gpio_check=check)
    assert seen == [GPIO_TABLE]
    assert problems == [
        "[api] pin_attempts = -1: is below the minimum of 1",
        "[gpio] lock_out 17: pin 17 is the shuffler's on this board",
        "[gpio] debounce_ms: missing",
    ]
    # By default the pin map's own checks (hw/pin_map.py), keys named within [gpio].
    clash = MINIMAL.replace("floorperson_light = 27", "floorperson_light = 5")
    assert problems_of(clash) == ["[gpio] seats.1.sensor: pin 5 is already used by floorperson_light"]
    assert parse_config(clash, gpio_check=None).gpio["floorperson_light"] == 5


def test_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path / "nope.toml")
    assert info.value.problems == ("cannot read: No such file or directory",)
    assert check_config_file(tmp_path / "nope.toml") == ["cannot read: No such file or directory"]


def _write_config(tmp_path: Path, table: str = "CS-3", extra: str = "") -> Path:
    group = grp.getgrgid(os.getgid()).gr_name
    user = pwd.getpwuid(os.getuid()).pw_name
    path = tmp_path / "table-controller.toml"
    path.write_text(
        f"""
[table]
id = "{table}"
rules_submission = "{RULES_SUBMISSION}"

[api]
group = "{group}"
dealer_user = "{user}"
users_file = "{tmp_path / "users.json"}"

{GPIO}
{extra}
"""
    )
    return path


def test_check_on_this_machine_passes(tmp_path: Path) -> None:
    path = _write_config(tmp_path)
    assert check_config_file(path) == []


def test_check_on_this_machine_finds_what_the_file_refers_to(tmp_path: Path) -> None:
    link = f"""
[progressive_link]
host = "meter.casino.example"
site = "PA"
ca_file = "{tmp_path / "ca.pem"}"
"""
    path = _write_config(tmp_path, table="CS-4", extra=link)
    text = (
        path.read_text()
        .replace('group = "', 'group = "no-such-group-')
        .replace('dealer_user = "', 'dealer_user = "nosuchuser')
    )
    path.write_text(text)
    users = tmp_path / "users.json"
    add_user(users, "mfloor", Role.FLOOR, "204816")
    users.chmod(0o644)
    problems = check_config_file(path)
    assert problems[0] == (
        f'[table] id = "CS-4": the Rules Submission {RULES_SUBMISSION} is for table "CS-3"'
    )
    assert any(p.startswith('[api] group = "no-such-group-') and "no such group" in p for p in problems)
    assert any(p.startswith('[api] dealer_user = "nosuchuser') and "no such user" in p for p in problems)
    assert any("users.json" in p and "mode 0644" in p for p in problems)
    assert any(p == f'[progressive_link] ca_file = "{tmp_path / "ca.pem"}": no such file' for p in problems)
    assert len(problems) == 5
    # The file alone is good: without the machine's checks there is nothing to say.
    assert check_config_file(path, system=False) == []


def test_check_lists_the_rules_submissions_own_problems(tmp_path: Path) -> None:
    submission = tmp_path / "rules.toml"
    submission.write_text('table = "CS-3"\ngame = "caribbean-stud"\n[rules]\nbonus.paytabel = "A"\n')
    path = _write_config(tmp_path)
    path.write_text(path.read_text().replace(str(RULES_SUBMISSION), str(submission)))
    problems = check_config_file(path)
    assert problems == [
        f'[table] rules_submission = "{submission}": rules.bonus.paytabel: unknown option; '
        "did you mean 'bonus.paytable'?"
    ]


_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
_keys = st.sampled_from(
    [
        "socket",
        "group",
        "dealer_user",
        "users_file",
        "pin_attempts",
        "lockout_seconds",
        "max_line_bytes",
        "sokcet",
    ]
)


@settings(max_examples=200, deadline=None)
@given(
    api=st.dictionaries(_keys, _values, max_size=8),
    shoe=st.dictionaries(st.sampled_from(["port", "baud", "enabled", "bud"]), _values, max_size=4),
)
def test_any_values_give_a_config_or_a_config_error(api: dict[str, Any], shoe: dict[str, Any]) -> None:
    data = {
        "table": {"id": "CS-3", "rules_submission": "/etc/rs.toml"},
        "gpio": GPIO_TABLE,
        "api": {k: v for k, v in api.items() if v is not None},
        "shoe": {k: v for k, v in shoe.items() if v is not None},
    }
    try:
        config = config_from_mapping(data)
    except ConfigError as exc:
        assert exc.problems
        assert all(p.startswith(("[api] ", "[shoe] ")) for p in exc.problems), exc.problems
    else:
        assert isinstance(config, Config)


# --- the drop-ins: the package's defaults (a conffile) and the installer's answers beside them ----


def _layered(tmp_path: Path, main: str, **drop_ins: str) -> Path:
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "table-controller.toml"
    path.write_text(main)
    if drop_ins:
        (tmp_path / "table-controller.d").mkdir()
        for name, text in drop_ins.items():
            (tmp_path / "table-controller.d" / f"{name}.toml").write_text(text)
    return path


TABLE_ONLY = MINIMAL.split("[gpio]")[0]  # [table] id and rules_submission: the installer's answers


def test_the_drop_ins_are_read_over_the_file_in_name_order_section_by_key(tmp_path: Path) -> None:
    main = GPIO + "\n[api]\npin_attempts = 4\nlockout_seconds = 600\n"
    path = _layered(
        tmp_path,
        main,
        **{"10-table": TABLE_ONLY, "90-local": "[api]\npin_attempts = 3\n[gpio.seats.1]\nwon_lamp = 12\n"},
    )
    config = load_config(path)
    assert config.table.id == "CS-3"
    # 90-local's key over the file's; the file's other key of the same section kept.
    assert config.api.pin_attempts == 3 and config.api.lockout_seconds == 600
    assert dict(config.gpio["seats"]["1"]) == {"sensor": 5, "wager_lamp": 6, "won_lamp": 12}
    # Files that are not *.toml are not read (dpkg's and editors' leftovers).
    (tmp_path / "table-controller.d" / "10-table.toml.dpkg-old").write_text("[table]\nid = 'XX-1'\n")
    assert load_config(path).table.id == "CS-3"


def test_without_its_drop_in_the_packages_defaults_name_what_is_missing(tmp_path: Path) -> None:
    path = _layered(tmp_path, GPIO)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.problems == ("[table]: missing; see docs/config.md#table",)


def test_a_bad_drop_in_is_named(tmp_path: Path) -> None:
    path = _layered(tmp_path / "a", GPIO, **{"10-table": "[table\nid = 1\n"})
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value).startswith(f"{path.parent}/table-controller.d/10-table.toml: 1 problem")
    assert info.value.problems[0].startswith("not valid TOML")
    path = _layered(tmp_path / "b", GPIO, **{"10-table": 'nope = 1\n[table]\nid = "CS-3"\n'})
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value).startswith(f"{path} with {path.parent}/table-controller.d/10-table.toml: ")
    assert "nope: unknown section or key" in info.value.problems
