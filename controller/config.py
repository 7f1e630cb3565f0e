"""The daemon's configuration file: one TOML file per table (``docs/config.md``).

::

    [table]
    id = "CS-3"
    rules_submission = "/etc/table-controller/rules-submission.toml"

    [journal]
    path = "/var/lib/table-controller/journal.sqlite"

    [api]
    socket = "/run/table-controller/api.sock"
    group = "table-api"

    [gpio]                 # the pin map: checked by hw.pin_map (see parse_config)
    lock_out = 17
    ...

    [shoe]                 # and [shuffler], [reader]
    port = "/dev/table-shoe"
    baud = 115200

    [progressive_link]
    host = "meter.casino.internal"
    ...

Read like the Rules Submission (:mod:`.rules.options`): each section is a frozen dataclass whose
fields are declared with :func:`~.rules.options.option`; every problem in the file is listed at
once (:class:`ConfigError`), each naming ``[section] key``, the value and why, and an unknown key
or section gets a "did you mean". A secret is never written here (the broker's password is in a
file of its own, ``password_file``) and never shown in a message.

A little over 500 lines on purpose: it is one schema, every section's declaration beside the
checks between them, read top to bottom by whoever adds a key; the pin map's own checks live in
``hw/pin_map.py``.
"""

from __future__ import annotations

import dataclasses
import grp
import ipaddress
import os
import pwd
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, TypeVar

from controller.rules.core.dispatch import did_you_mean
from hw.pin_map import check_pin_map
from wire.identity import certificate_name

from .auth import DEFAULT_ATTEMPTS, DEFAULT_LOCKOUT_SECONDS, UsersFileError, load_users
from .rules.core.options import OptionError, RulesError, boolean, integer, option, specs
from .rules.core.submission import parse_submission
from .rules.games import GAMES

DOCS: Final = "docs/config.md"
DEFAULT_PATH: Final = Path("/etc/table-controller/table-controller.toml")

# sockaddr_un.sun_path holds 108 bytes with the terminating NUL.
UNIX_PATH_MAX: Final = 107
STANDARD_BAUDS: Final = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
# Keys whose value is never repeated in a message (they should not be in the file at all).
_SECRET_KEYS: Final = frozenset({"password", "pin", "secret", "token"})

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,31}")
_POSIX_NAME = re.compile(r"[a-z_][a-z0-9_-]{0,31}")
_TOPIC_LEVEL = re.compile(r"[A-Za-z0-9._-]{1,64}")
_HOST = re.compile(r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*")


class ConfigError(RulesError):
    """Every problem found in the daemon's configuration file, one line each."""


GpioCheck = Callable[[Mapping[str, Any]], Iterable[str]]
"""Checks the ``[gpio]`` table: yields one line per problem, naming the key, value and why."""


def check_gpio(table: Mapping[str, Any]) -> list[str]:
    """The pin map's own checks (:func:`hw.pin_map.check_pin_map`), keys named within ``[gpio]``."""
    return check_pin_map(table, where="")


# --- parsers ----------------------------------------------------------------------------------------


def absolute_path(raw: object) -> Path:
    if not isinstance(raw, str) or not raw:
        raise OptionError('must be a path written as a string, such as "/var/lib/table-controller/..."')
    if "\0" in raw:
        raise OptionError("must not contain a NUL character")
    if not raw.startswith("/"):
        # The daemon runs from / under systemd; a relative path would depend on where it was started.
        raise OptionError("must be an absolute path (starting with /)")
    return Path(raw)


def optional_path(raw: object) -> Path | None:
    if raw is None or raw == "":
        return None
    return absolute_path(raw)


def socket_path(raw: object) -> Path:
    path = absolute_path(raw)
    if len(os.fsencode(path)) > UNIX_PATH_MAX:
        raise OptionError(f"is longer than the {UNIX_PATH_MAX} bytes a Unix socket's path may have")
    return path


def table_name(raw: object) -> str:
    """A table's or site's name: it is a level of the MQTT topics, so no '/', '+' or '#'."""
    if not isinstance(raw, str) or not _NAME.fullmatch(raw):
        raise OptionError(
            "must be 1 to 32 letters, digits, '.', '_' or '-', starting with a letter or digit "
            "(it is a level of the progressive link's MQTT topics)"
        )
    return raw


def posix_name(raw: object) -> str:
    if not isinstance(raw, str) or not _POSIX_NAME.fullmatch(raw):
        raise OptionError("must be a Unix user or group name (lower-case letters, digits, '_', '-')")
    return raw


def topic_prefix(raw: object) -> str:
    if not isinstance(raw, str) or not all(_TOPIC_LEVEL.fullmatch(level) for level in raw.split("/")):
        raise OptionError(
            "must be MQTT topic levels separated by '/', each of letters, digits, '.', '_' or '-' "
            "(no '+', '#', spaces, or empty level)"
        )
    return raw


def meter_progressives(raw: object) -> Mapping[str, str]:
    """``{wager = "meter id"}``: each progressive wager of the game and the central meter's
    progressive it contributes to (the meter's ``[progressives.<id>]``)."""
    if not isinstance(raw, Mapping):
        raise OptionError('must be a table like { progressive = "cs-floor" }')
    out: dict[str, str] = {}
    for wager, meter_id in raw.items():
        if not isinstance(meter_id, str) or not _NAME.fullmatch(meter_id):
            raise OptionError(
                f"{wager}: the meter's progressive id is 1 to 32 letters, digits, '.', '_' or '-' "
                "(a level of the link's topics)"
            )
        out[str(wager)] = meter_id
    return MappingProxyType(out)


def host_name(raw: object) -> str:
    if isinstance(raw, str):
        try:
            ipaddress.ip_address(raw)
            return raw
        except ValueError:
            if _HOST.fullmatch(raw):
                return raw
    raise OptionError("must be a host name or an IP address")


def baud_rate(raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw not in STANDARD_BAUDS:
        raise OptionError(f"must be one of the standard rates {', '.join(map(str, STANDARD_BAUDS))}")
    return raw


def optional_text(raw: object) -> str | None:
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str) or raw != raw.strip():
        raise OptionError("must be a string without leading or trailing spaces")
    return raw


# --- the sections ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableSection:
    id: str = option(
        "id",
        table_name,
        section=f"{DOCS}#table",
        help='the table\'s name, as in its Rules Submission ("CS-3")',
    )
    rules_submission: Path = option(
        "rules_submission",
        absolute_path,
        section=f"{DOCS}#table",
        help="the table's Rules Submission (§ 601a.2)",
    )


@dataclass(frozen=True)
class JournalSection:
    path: Path = option(
        "path",
        absolute_path,
        "/var/lib/table-controller/journal.sqlite",
        section=f"{DOCS}#journal",
        help="the SQLite journal of every event (systemd's StateDirectory)",
    )


@dataclass(frozen=True)
class ApiSection:
    socket: Path = option(
        "socket",
        socket_path,
        "/run/table-controller/api.sock",
        section=f"{DOCS}#api",
        help="the local API's socket",
    )
    group: str = option(
        "group",
        posix_name,
        "table-api",
        section=f"{DOCS}#api",
        help="the group that may connect (the touchscreen's user and the technicians)",
    )
    dealer_user: str = option(
        "dealer_user",
        posix_name,
        "table-ui",
        section=f"{DOCS}#api",
        help="the Unix user of the dealer's touchscreen: its connections act as the dealer",
    )
    users_file: Path = option(
        "users_file",
        absolute_path,
        "/etc/table-controller/users.json",
        section=f"{DOCS}#api",
        help="floorpersons' and technicians' PINs, hashed (mode 0600)",
    )
    pin_attempts: int = option(
        "pin_attempts",
        integer(1, 20),
        DEFAULT_ATTEMPTS,
        section=f"{DOCS}#api",
        help="wrong PINs before a lockout",
    )
    lockout_seconds: int = option(
        "lockout_seconds",
        integer(10, 86400),
        DEFAULT_LOCKOUT_SECONDS,
        section=f"{DOCS}#api",
        help="how long a name stays locked",
    )
    max_line_bytes: int = option(
        "max_line_bytes",
        integer(1024, 16 * 2**20),
        65536,
        section=f"{DOCS}#api",
        help="the longest request line accepted",
    )
    idle_seconds: int = option(
        "idle_seconds",
        integer(5, 86400),
        60,
        section=f"{DOCS}#api",
        help="a connection with no subscription and no request for this long is closed",
    )
    line_seconds: int = option(
        "line_seconds",
        integer(1, 300),
        5,
        section=f"{DOCS}#api",
        help="a request line begun must be finished within this long",
    )
    dealer_slots: int = option(
        "dealer_slots",
        integer(1, 16),
        2,
        section=f"{DOCS}#api",
        help="connections kept for the dealer's screen past the general limit of 32",
    )
    tech_slots: int = option(
        "tech_slots",
        integer(1, 16),
        2,
        section=f"{DOCS}#api",
        help="connections kept for a technician past the general limit of 32",
    )
    requests_per_second: int = option(
        "requests_per_second",
        integer(1, 10000),
        50,
        section=f"{DOCS}#api",
        help="requests a second per peer (Unix user), in bursts of twice that",
    )
    dealer_requests_per_second: int = option(
        "dealer_requests_per_second",
        integer(1, 10000),
        200,
        section=f"{DOCS}#api",
        help="requests a second from the dealer's screen (its Unix user), in bursts of twice that",
    )


@dataclass(frozen=True)
class SerialDevice:
    port: Path = option(
        "port", absolute_path, section=f"{DOCS}#serial", help='the device, e.g. "/dev/table-shoe"'
    )
    baud: int = option("baud", baud_rate, 115200, section=f"{DOCS}#serial")
    enabled: bool = option("enabled", boolean, True, section=f"{DOCS}#serial")


@dataclass(frozen=True)
class ProgressiveLinkSection:
    host: str = option("host", host_name, section=f"{DOCS}#progressive_link", help="the MQTT broker")
    site: str = option(
        "site", table_name, section=f"{DOCS}#progressive_link", help="this casino's name in the topics"
    )
    enabled: bool = option("enabled", boolean, True, section=f"{DOCS}#progressive_link")
    port: int = option("port", integer(1, 65535), 8883, section=f"{DOCS}#progressive_link")
    tls: bool = option("tls", boolean, True, section=f"{DOCS}#progressive_link")
    ca_file: Path | None = option("ca_file", optional_path, None, section=f"{DOCS}#progressive_link")
    cert_file: Path | None = option("cert_file", optional_path, None, section=f"{DOCS}#progressive_link")
    key_file: Path | None = option("key_file", optional_path, None, section=f"{DOCS}#progressive_link")
    username: str | None = option("username", optional_text, None, section=f"{DOCS}#progressive_link")
    password_file: Path | None = option(
        "password_file", optional_path, None, section=f"{DOCS}#progressive_link"
    )
    topic_prefix: str = option(
        "topic_prefix",
        topic_prefix,
        "progressive",
        section=f"{DOCS}#progressive_link",
        help="the link's topic root: the meter's [link] root",
    )
    link: str = option(
        "link", table_name, "floor", section=f"{DOCS}#progressive_link", help="the meter's [link] id"
    )
    timeout_seconds: int = option(
        "timeout_seconds",
        integer(1, 3600),
        30,
        section=f"{DOCS}#progressive_link",
        help="no word from the meter this long: progressive wagering stops (G2S noProgInfo)",
    )
    progressives: Mapping[str, str] = option(
        "progressives",
        meter_progressives,
        {},
        section=f"{DOCS}#progressive_link",
        help="the game's progressive wager -> the meter's progressive id",
    )


_LOOPBACK_NAMES: Final = frozenset({"localhost", "localhost.localdomain"})


def _is_loopback(host: str) -> bool:
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check_link(link: ProgressiveLinkSection) -> Iterable[str]:
    if link.tls and link.ca_file is None:
        # A private casino CA, named explicitly: the link must not trust whatever the OS trusts.
        yield "ca_file: missing; with tls = true name the CA that signed the broker's certificate"
    if not link.tls and not _is_loopback(link.host):
        yield (
            f"tls = false: the link carries meter amounts and awards; without TLS it may only go to a broker "
            f"on this machine (localhost), not {link.host!r}"
        )
    if (link.cert_file is None) != (link.key_file is None):
        yield "cert_file, key_file: give both (a client certificate and its key) or neither"
    if link.password_file is not None and link.username is None:
        yield "password_file: a password needs a username"
    if not link.tls and (link.cert_file or link.key_file or link.ca_file):
        yield "tls = false, but ca_file/cert_file/key_file are given: set tls = true or remove them"


T = TypeVar("T")


@dataclass(frozen=True)
class _Section:
    name: str
    cls: type[Any] | None  # None: kept as a mapping for another module to read (gpio)
    required: bool
    checks: tuple[Callable[[Any], Iterable[str]], ...] = ()


_SECTIONS: Final = (
    _Section("table", TableSection, True),
    _Section("journal", JournalSection, False),
    _Section("api", ApiSection, False),
    _Section("gpio", None, True),
    _Section("shoe", SerialDevice, False),
    _Section("shuffler", SerialDevice, False),
    _Section("reader", SerialDevice, False),
    _Section("progressive_link", ProgressiveLinkSection, False, (_check_link,)),
)
SECTION_NAMES: Final = tuple(s.name for s in _SECTIONS)
SERIAL_DEVICES: Final = ("shoe", "shuffler", "reader")


@dataclass(frozen=True)
class Config:
    """The daemon's configuration. A serial device or the progressive link left out is ``None``."""

    table: TableSection
    journal: JournalSection
    api: ApiSection
    gpio: Mapping[str, Any]
    shoe: SerialDevice | None
    shuffler: SerialDevice | None
    reader: SerialDevice | None
    progressive_link: ProgressiveLinkSection | None
    source: str = ""

    def serial_devices(self) -> dict[str, SerialDevice]:
        """The serial devices configured and enabled, by section name."""
        out = {}
        for name in SERIAL_DEVICES:
            device = getattr(self, name)
            if device is not None and device.enabled:
                out[name] = device
        return out


def _show(key: str, raw: object) -> str:
    if key in _SECRET_KEYS:
        return "(not shown)"
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, str):
        return '"' + raw.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(raw, Mapping):
        return "(a table)"
    return repr(raw)


def _load_section(section: _Section, raw: Mapping[str, Any], problems: list[str]) -> Any:
    """The section's dataclass from its TOML table; appends its problems and returns None if any."""
    assert section.cls is not None
    where = f"[{section.name}]"
    fields = specs(section.cls)
    known = {spec.key for _, spec in fields}
    required = {
        f.name
        for f in dataclasses.fields(section.cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }
    before = len(problems)
    for key in raw:
        if key in known:
            continue
        if key in _SECRET_KEYS and "password_file" in known:
            problems.append(
                f"{where} {key}: a password is never written in this file; put it in a file only the "
                "daemon's user can read and name that file in password_file"
            )
        else:
            problems.append(f"{where} {key}: unknown key{did_you_mean(key, known)}")
    kwargs: dict[str, object] = {}
    for name, spec in fields:
        if spec.key not in raw:
            if name in required:
                problems.append(f"{where} {spec.key}: missing; {spec.help} ({spec.section})")
            continue
        value = raw[spec.key]
        try:
            kwargs[name] = spec.parse(value)
        except OptionError as exc:
            problems.append(f"{where} {spec.key} = {_show(spec.key, value)}: {exc}")
    if len(problems) > before:
        return None
    loaded = section.cls(**kwargs)
    for check in section.checks:
        problems.extend(f"{where} {p}" for p in check(loaded))
    return None if len(problems) > before else loaded


def parse_config(text: str, where: str = "config", gpio_check: GpioCheck | None = check_gpio) -> Config:
    """Read the configuration from TOML ``text``; ``where`` names the file in errors.

    ``gpio_check`` is given the ``[gpio]`` table; its problem lines are listed with the others,
    under ``[gpio]``. It is the pin map's own check (:func:`check_gpio`); ``None`` checks only that
    the table is there.
    """
    return config_from_mapping(_toml(text, where), where, gpio_check)


def _toml(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(where, [f"not valid TOML: {exc}"]) from None
    except RecursionError:
        # tomllib recurses once per level of nesting: a file of thousands of "[" exhausts the stack.
        raise ConfigError(where, ["not a usable configuration: arrays or tables nested too deeply"]) from None


def config_from_mapping(
    data: Mapping[str, Any], where: str = "config", gpio_check: GpioCheck | None = check_gpio
) -> Config:
    """The configuration from its TOML tables already read (as :func:`parse_config` reads them)."""
    problems: list[str] = []
    for key in data:
        if key not in SECTION_NAMES:
            # The value is not repeated: a misplaced key may hold a secret.
            problems.append(f"{key}: unknown section or key{did_you_mean(key, SECTION_NAMES)}")
    loaded: dict[str, object] = {}
    for section in _SECTIONS:
        raw = data.get(section.name)
        if raw is None:
            if section.required:
                problems.append(f"[{section.name}]: missing; see {DOCS}#{section.name}")
            elif section.cls in (JournalSection, ApiSection):
                loaded[section.name] = _load_section(section, {}, problems)
            continue
        if not isinstance(raw, Mapping):
            problems.append(
                f"{section.name} = {_show(section.name, raw)}: must be a section, [{section.name}], not a key"
            )
            continue
        if section.cls is None:
            loaded[section.name] = MappingProxyType(dict(raw))
            if gpio_check is not None:
                problems.extend(p if p.startswith("[") else f"[{section.name}] {p}" for p in gpio_check(raw))
        else:
            loaded[section.name] = _load_section(section, raw, problems)
    ports: dict[Path, str] = {}
    for name in SERIAL_DEVICES:
        device = loaded.get(name)
        if isinstance(device, SerialDevice) and device.enabled:
            if device.port in ports:
                problems.append(
                    f'[{name}] port = "{device.port}": is also the port of [{ports[device.port]}]'
                )
            ports.setdefault(device.port, name)
    if problems:
        raise ConfigError(where, problems)
    return Config(
        table=_get(loaded, "table", TableSection),
        journal=_get(loaded, "journal", JournalSection),
        api=_get(loaded, "api", ApiSection),
        gpio=_get(loaded, "gpio", MappingProxyType),
        shoe=_opt(loaded, "shoe", SerialDevice),
        shuffler=_opt(loaded, "shuffler", SerialDevice),
        reader=_opt(loaded, "reader", SerialDevice),
        progressive_link=_opt(loaded, "progressive_link", ProgressiveLinkSection),
        source=where,
    )


def _get(loaded: Mapping[str, object], name: str, cls: type[T]) -> T:
    value = loaded[name]
    assert isinstance(value, cls)
    return value


def _opt(loaded: Mapping[str, object], name: str, cls: type[T]) -> T | None:
    return _get(loaded, name, cls) if name in loaded else None


def drop_in_dir(path: Path) -> Path:
    """The drop-ins read over ``path``: ``table-controller.d/`` beside ``table-controller.toml``."""
    return path.with_name(f"{path.stem}.d")


def load_config(path: Path, gpio_check: GpioCheck | None = check_gpio) -> Config:
    """Read and check the configuration file and its drop-ins; :class:`ConfigError` lists every problem.

    The drop-ins are the ``*.toml`` files of :func:`drop_in_dir`, read in name order after the
    file, each key over the same key before it (sections merged key by key). The package ships
    the file with the defaults, as a conffile, and its installer writes the table's own answers
    (``[table]``, ``[progressive_link]``) in ``table-controller.d/10-table.toml`` (docs/install.md).
    """
    drop_ins = sorted(drop_in_dir(path).glob("*.toml"))
    merged: dict[str, Any] = {}
    for file in (path, *drop_ins):
        _merge(merged, _read_toml(file))
    where = str(path) if not drop_ins else f"{path} with {', '.join(str(f) for f in drop_ins)}"
    return config_from_mapping(merged, where, gpio_check)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError(str(path), [f"cannot read: {reason}"]) from None
    return _toml(text, str(path))


def _merge(into: dict[str, Any], over: Mapping[str, Any]) -> None:
    """``over``'s keys into ``into``: a table into the same table key by key, any other value replaced."""
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = dict(value) if isinstance(value, Mapping) else value


def check_config_file(
    path: Path, gpio_check: GpioCheck | None = check_gpio, system: bool = True
) -> list[str]:
    """Every problem with the configuration file, one line each; an empty list if it is good.

    For ``tablectl check``. With ``system`` (on the table's own machine) it also checks what the
    file refers to: the Rules Submission is valid and is for this table, the API's group and the
    dealer's user exist, the users file is usable, the TLS and password files exist, and the
    link's certificate names this table (its CN is the table id the broker knows it by).
    """
    try:
        config = load_config(path, gpio_check)
    except ConfigError as exc:
        return list(exc.problems)
    return check_system(config) if system else []


def check_system(config: Config) -> list[str]:
    """What :func:`check_config_file` checks on this machine beyond the file itself."""
    problems: list[str] = []
    sub_path = config.table.rules_submission
    try:
        text = sub_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        problems.append(f'[table] rules_submission = "{sub_path}": cannot read: {reason}')
    else:
        try:
            submission = parse_submission(text, GAMES, str(sub_path))
        except RulesError as exc:
            problems.extend(f'[table] rules_submission = "{sub_path}": {p}' for p in exc.problems)
        else:
            if submission.table != config.table.id:
                problems.append(
                    f'[table] id = "{config.table.id}": the Rules Submission {sub_path} is for table '
                    f'"{submission.table}"'
                )
    try:
        grp.getgrnam(config.api.group)
    except KeyError:
        problems.append(f'[api] group = "{config.api.group}": no such group on this machine (groupadd it)')
    try:
        pwd.getpwnam(config.api.dealer_user)
    except KeyError:
        problems.append(f'[api] dealer_user = "{config.api.dealer_user}": no such user on this machine')
    try:
        load_users(config.api.users_file)
    except UsersFileError as exc:
        problems.append(f'[api] users_file = "{config.api.users_file}": {exc}')
    link = config.progressive_link
    if link is not None and link.enabled:
        for key in ("ca_file", "cert_file", "key_file", "password_file"):
            file = getattr(link, key)
            if file is None:
                continue
            try:
                os.stat(file)
            except FileNotFoundError:
                problems.append(f'[progressive_link] {key} = "{file}": no such file')
            except PermissionError:
                continue  # the daemon's user can read it; the technician running the check may not
    wrong = certificate_problem(config)
    if wrong is not None:
        problems.append(wrong)
    return problems


def certificate_problem(config: Config) -> str | None:
    """What is wrong if the link's certificate names another table than ``[table] id``: the
    broker takes the table's name from its CN (docs/progressive-link.md, "Security"), so with it
    this table would be refused its own topics. ``None`` when it names this table, or when there
    is no certificate to read (a missing or unreadable file is said by the other checks)."""
    link = config.progressive_link
    if link is None or not link.enabled or link.cert_file is None:
        return None
    try:
        name = certificate_name(link.cert_file)
    except ValueError:
        return None
    table = config.table.id
    if name == table:
        return None
    return (
        f'[progressive_link] cert_file = "{link.cert_file}": the certificate names {name!r} (its CN), '
        f'not this table ([table] id = "{table}"); the broker would take this table for {name!r}: '
        f"install the certificate enrolled for {table!r} (progressive-link-enroll table {table})"
    )
