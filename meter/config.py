"""The meter's configuration (TOML): the link, the store, the broker, the progressives, the tables.

Every error is reported at once, each naming the section and the option, with a "did you
mean" for an unknown one (docs/meter.md lists every option). A secret never sits in this
file: the broker password is read from ``password_file``.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, TypeVar

from wire import DEFAULT_AWARD_TIMEOUT, AwardTerms, Fixed, Parameters, Share, Topics, WireError
from wire import fields as wf
from wire.hints import did_you_mean
from wire.identity import METER_IDENTITY, certificate_name
from wire.messages import MAX_AWARD_TIMEOUT

from .claims import RANKINGS, row_problems

T = TypeVar("T")
DEFAULT_PATH: Final = Path("/etc/progressive-meter/meter.toml")
DEFAULT_MAX_WAGER: Final = 10_000
"""$100.00: the largest progressive wager, where ``[progressives.<id>] max_wager`` gives none."""


class ConfigError(Exception):
    """The configuration cannot be used; ``problems`` lists every one found."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        self.path = path
        self.problems = problems
        super().__init__(f"{path}: {len(problems)} problem(s):\n" + "\n".join(f"  - {p}" for p in problems))


@dataclass(frozen=True)
class BrokerConfig:
    host: str
    port: int
    client_id: str
    username: str | None
    password_file: Path | None
    tls: bool
    ca_file: Path | None
    cert_file: Path | None
    key_file: Path | None
    keepalive_seconds: int

    def password(self) -> str | None:
        """The broker password, read when connecting (never logged, never in the config)."""
        if self.password_file is None:
            return None
        return self.password_file.read_text(encoding="utf-8").strip()


@dataclass(frozen=True)
class TableConfig:
    id: str
    site: str
    progressives: tuple[str, ...]
    seats: int = 7
    """The table's player positions, 1 to ``seats`` (``[tables.<id>] seats``): a claim's seat is one."""


@dataclass(frozen=True)
class Paytable:
    """What a progressive pays, row by row, as the filed Rules Submission gives it (``ranking``:
    the hand ranking that names the rows; each row a share of the meter or a fixed amount)."""

    ranking: str
    rows: Mapping[str, AwardTerms]


@dataclass(frozen=True)
class Ceiling:
    """A progressive's maximum (``ceiling``, cents) and where what would take it past goes
    (``overflow``: another progressive of this meter, or ``None``: the progressive's own overflow
    meter, put back on it after a hit). The Rules Submission's option (§ 601a.2): the regulation
    texts name no maximum of a progressive meter (docs/meter.md, "A ceiling and its overflow")."""

    amount: int
    overflow: str | None = None


@dataclass(frozen=True)
class MeterConfig:
    path: Path
    link: str
    root: str
    heartbeat_seconds: int
    store: Path
    broker: BrokerConfig
    progressives: Mapping[str, Parameters]
    tables: Mapping[str, TableConfig]
    max_wagers: Mapping[str, int] = dataclasses.field(default_factory=dict)
    """Each progressive's largest wager in cents (``max_wager``), where the file gives one."""
    award_timeout_seconds: int = DEFAULT_AWARD_TIMEOUT
    """How long a table waits for the award of a claim before it is the floorperson's
    (``[link] award_timeout_seconds``; told to the tables in the meter's status)."""
    paytables: Mapping[str, Paytable] = dataclasses.field(default_factory=dict)
    """Each progressive's paytable (``ranking`` and ``rows``): every progressive has one."""
    ceilings: Mapping[str, Ceiling] = dataclasses.field(default_factory=dict)
    """Each progressive's ceiling and overflow, where the file gives one."""

    def max_wager(self, progressive: str) -> int:
        """The largest progressive wager the Rules Submission allows on ``progressive`` (cents)."""
        return self.max_wagers.get(progressive, DEFAULT_MAX_WAGER)

    @property
    def topics(self) -> Topics:
        return Topics(self.link, self.root)


_SECTIONS: Final = ("link", "store", "broker", "progressives", "tables")
_LINK: Final = ("id", "root", "heartbeat_seconds", "award_timeout_seconds")
#: The bounds of ``[link] award_timeout_seconds``: long enough for a round trip through a cut
#: broker, short enough that a claim is never left PENDING for long (an hour at most).
AWARD_TIMEOUT_BOUNDS: Final = (10, MAX_AWARD_TIMEOUT)
_STORE: Final = ("path",)
_BROKER: Final = (
    "host",
    "port",
    "client_id",
    "username",
    "password_file",
    "tls",
    "ca_file",
    "cert_file",
    "key_file",
    "keepalive_seconds",
)
_PROGRESSIVE: Final = (
    "initial", "reset", "rate_of_progression", "max_wager", "ranking", "rows", "ceiling", "overflow",
)  # fmt: skip
#: Table ids the meter's own [tables] may not use: the meter's and the bridge's names on the broker
#: (the enrolment refuses them too: a table of that name would be the meter, or a bridge, in the ACL).
RESERVED_TABLE_IDS: Final = (METER_IDENTITY,)
RESERVED_TABLE_PREFIXES: Final = ("bridge-",)
_TABLE: Final = ("site", "progressives", "seats")


def _identity_problems(cert: Path) -> list[str]:
    """The broker names the meter by its certificate's CN: it must be the ACL's
    ``user progressive-meter`` (docs/progressive-link.md, "Security")."""
    try:
        name = certificate_name(cert)
    except ValueError as exc:
        return [f"[broker] cert_file: {exc}"]
    if name == METER_IDENTITY:
        return []
    return [
        f"[broker] cert_file: {str(cert)!r} names {name!r} (its CN), not the meter "
        f"({METER_IDENTITY!r}, its name on the broker and in the ACL): the broker would take the "
        f"meter for {name!r}; install the meter's certificate (progressive-link-enroll floor)"
    ]


class _Reader:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def table(self, raw: Mapping[str, Any], section: str, known: tuple[str, ...]) -> Mapping[str, Any]:
        for key in raw:
            if key not in known:
                hint = did_you_mean(key, known) or f" (options: {', '.join(known)})"
                self.problems.append(f"[{section}] {key}: unknown option{hint}")
        return raw

    def section(self, raw: Mapping[str, Any], name: str) -> Mapping[str, Any]:
        value = raw.get(name, {})
        if not isinstance(value, dict):
            self.problems.append(f"[{name}]: must be a table (a [{name}] section)")
            return {}
        return value

    def get(
        self,
        raw: Mapping[str, Any],
        section: str,
        key: str,
        read: Callable[[object], T],
        default: T | None = None,
        required: bool = False,
    ) -> T | None:
        if key not in raw:
            if required:
                self.problems.append(f"[{section}] {key}: missing")
            return default
        try:
            return read(raw[key])
        except (ValueError, TypeError) as exc:
            self.problems.append(f"[{section}] {key}: {raw[key]!r}: {_reason(exc)}")
            return default


def _reason(exc: BaseException) -> str:
    return exc.problem if isinstance(exc, WireError) else str(exc)


def _str(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("must be a non-empty string")
    return value


def _id(value: object) -> str:
    return wf.ident(value, "")


def _int_in(low: int, high: int) -> Callable[[object], int]:
    def read(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"must be a whole number from {low} to {high}")
        return value

    return read


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


def _path_relative_to(base: Path) -> Callable[[object], Path]:
    def read(value: object) -> Path:
        return base / _str(value)

    return read


def _money(value: object) -> int:
    return wf.money(value, "")


def _rate(value: object) -> Fraction:
    return wf.rate(value, "")


def _ranking(value: object) -> str:
    if value not in RANKINGS:
        raise ValueError(f"must be one of {', '.join(RANKINGS)} (the hand ranking that names the rows)")
    return str(value)


def _rows(value: object) -> dict[str, AwardTerms]:
    """``{"royal flush" = "100%", "four-of-a-kind" = "500.00"}``: a share of the meter or a fixed amount."""
    if not isinstance(value, dict) or not value:
        raise ValueError('must be a table of rows: "royal flush" = "100%" or "flush" = "75.00"')
    out: dict[str, AwardTerms] = {}
    for row, pays in value.items():
        if not isinstance(pays, str):
            raise ValueError(f'row {row!r}: {pays!r} must be a text such as "100%" or "500.00"')
        try:
            if pays.endswith("%"):
                out[str(row)] = Share(wf.percent(pays[:-1], f"rows.{row}"))
            else:
                out[str(row)] = Fixed(wf.money(pays, f"rows.{row}"))
        except WireError as exc:
            raise ValueError(f"row {row!r}: {pays}: {exc.problem}") from None
    return out


def _ids(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise ValueError("must be a non-empty list of progressive ids")
    return tuple(_id(v) for v in value)


def load(path: Path) -> MeterConfig:
    """Read and check the configuration at ``path``; :class:`ConfigError` lists every problem."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(path, [f"cannot read the file: {exc.strerror or exc}"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, [f"not TOML: {exc}"]) from None
    return parse(raw, path)


def parse(raw: Mapping[str, Any], path: Path) -> MeterConfig:
    r = _Reader()
    r.table(raw, "top level", _SECTIONS)
    base = path.parent
    here = _path_relative_to(base)

    link = r.table(r.section(raw, "link"), "link", _LINK)
    link_id = r.get(link, "link", "id", _id, required=True)
    root = r.get(link, "link", "root", _str, "progressive")
    heartbeat = r.get(link, "link", "heartbeat_seconds", _int_in(1, 3600), 10)
    award_timeout = r.get(
        link, "link", "award_timeout_seconds", _int_in(*AWARD_TIMEOUT_BOUNDS), DEFAULT_AWARD_TIMEOUT
    )

    store = r.table(r.section(raw, "store"), "store", _STORE)
    store_path = r.get(store, "store", "path", here, required=True)

    b = r.table(r.section(raw, "broker"), "broker", _BROKER)
    tls = r.get(b, "broker", "tls", _bool, True)
    broker = BrokerConfig(
        host=r.get(b, "broker", "host", _str, "localhost") or "localhost",
        port=r.get(b, "broker", "port", _int_in(1, 65535), 8883 if tls else 1883) or 8883,
        client_id=r.get(b, "broker", "client_id", _id, "progressive-meter") or "progressive-meter",
        username=r.get(b, "broker", "username", _str),
        password_file=r.get(b, "broker", "password_file", here),
        tls=bool(tls),
        ca_file=r.get(b, "broker", "ca_file", here, required=bool(tls)),
        cert_file=r.get(b, "broker", "cert_file", here),
        key_file=r.get(b, "broker", "key_file", here),
        keepalive_seconds=r.get(b, "broker", "keepalive_seconds", _int_in(5, 3600), 30) or 30,
    )
    if (broker.cert_file is None) != (broker.key_file is None):
        r.problems.append(
            "[broker] cert_file and key_file: give both (the meter's certificate and its key) or neither"
        )
    if broker.password_file is not None and broker.username is None:
        r.problems.append("[broker] password_file: a password needs a username")
    for key in ("password_file", "ca_file", "cert_file", "key_file"):
        file = getattr(broker, key)
        if file is not None and not file.is_file():
            r.problems.append(f"[broker] {key}: {str(file)!r}: no such file")
    if broker.cert_file is not None and broker.cert_file.is_file():
        r.problems.extend(_identity_problems(broker.cert_file))

    progressives: dict[str, Parameters] = {}
    max_wagers: dict[str, int] = {}
    paytables: dict[str, Paytable] = {}
    ceilings: dict[str, Ceiling] = {}
    named = set(r.section(raw, "progressives"))  # a table may link one whose values are wrong
    for pid, body in r.section(raw, "progressives").items():
        section = f"progressives.{pid}"
        try:
            _id(pid)
        except ValueError as exc:
            r.problems.append(f"[{section}]: the progressive id {_reason(exc)}")
            continue
        if not isinstance(body, dict):
            r.problems.append(f"[{section}]: must be a table")
            continue
        r.table(body, section, _PROGRESSIVE)
        initial = r.get(body, section, "initial", _money, required=True)
        reset = r.get(body, section, "reset", _money, required=True)
        rate = r.get(body, section, "rate_of_progression", _rate, required=True)
        most = r.get(body, section, "max_wager", _money)
        if most is not None:
            if most < 1:
                r.problems.append(f"[{section}] max_wager: '0.00': must be at least 0.01")
            max_wagers[pid] = most
        if initial is not None and reset is not None and rate is not None:
            progressives[pid] = Parameters(initial, reset, rate)
        # The paytable is the meter's, filed with the Rules Submission (§ 601a.2, § 639a.12(d)(1)):
        # a claim's own terms are never paid, so a progressive without its rows cannot be linked.
        ranking = r.get(body, section, "ranking", _ranking)
        rows = r.get(body, section, "rows", _rows)
        if "ranking" not in body:
            r.problems.append(
                f"[{section}] ranking: missing; the hand ranking that names the rows "
                f"(one of {', '.join(RANKINGS)})"
            )
        if "rows" not in body:
            r.problems.append(
                f"[{section}] rows: missing; the meter pays only its own paytable, filed with the "
                'Rules Submission (§ 601a.2): rows = { "royal flush" = "100%", ... }'
            )
        if rows is not None and ranking is not None:
            r.problems.extend(f"[{section}] rows: {p}" for p in row_problems(ranking, rows))
            paytables[pid] = Paytable(ranking, rows)
        ceiling = _ceiling(r, body, section, pid, initial, reset)
        if ceiling is not None:
            ceilings[pid] = ceiling
    for pid, ceiling in ceilings.items():
        if ceiling.overflow is not None and ceiling.overflow not in named:
            hint = did_you_mean(ceiling.overflow, sorted(named - {pid}))
            r.problems.append(
                f"[progressives.{pid}] overflow: {ceiling.overflow!r} is not a progressive of this meter"
                f"{hint} (leave it out for the progressive's own overflow meter)"
            )
    if not named:
        r.problems.append("[progressives]: at least one progressive ([progressives.<id>])")

    tables: dict[str, TableConfig] = {}
    for tid, body in r.section(raw, "tables").items():
        section = f"tables.{tid}"
        try:
            _id(tid)
        except ValueError as exc:
            r.problems.append(f"[{section}]: the table id {_reason(exc)}")
            continue
        if not isinstance(body, dict):
            r.problems.append(f"[{section}]: must be a table")
            continue
        r.table(body, section, _TABLE)
        if tid in RESERVED_TABLE_IDS or tid.startswith(RESERVED_TABLE_PREFIXES):
            r.problems.append(
                f"[{section}]: the table id {tid!r} is the broker's name of the meter or of a bridge "
                f"({METER_IDENTITY!r}, 'bridge-*'), not a table's: the ACL would give the table their rights"
            )
        site = r.get(body, section, "site", _id, required=True)
        linked = r.get(body, section, "progressives", _ids, required=True)
        seats = r.get(body, section, "seats", _int_in(1, wf.MAX_SEAT), 7) or 7
        for pid in linked or ():
            if pid not in named:
                hint = did_you_mean(pid, sorted(named))
                r.problems.append(
                    f"[{section}] progressives: {pid!r} is not a progressive of this meter{hint}"
                )
        if site is not None and linked is not None:
            tables[tid] = TableConfig(tid, site, linked, seats)

    try:
        if link_id is not None and root is not None:
            Topics(link_id, root)
    except WireError as exc:
        r.problems.append(f"[link] root: {root!r}: {exc.problem}")
    if r.problems:
        raise ConfigError(path, r.problems)
    assert link_id is not None and root is not None and heartbeat is not None and store_path is not None
    return MeterConfig(
        path,
        link_id,
        root,
        heartbeat,
        store_path,
        broker,
        progressives,
        tables,
        max_wagers,
        award_timeout_seconds=award_timeout or DEFAULT_AWARD_TIMEOUT,
        paytables=paytables,
        ceilings=ceilings,
    )


def _ceiling(
    r: _Reader, body: Mapping[str, Any], section: str, pid: str, initial: int | None, reset: int | None
) -> Ceiling | None:
    """``ceiling`` and ``overflow`` of one progressive: a ceiling at least its initial and reset
    amounts (the meter starts and resets at or below it), an overflow only with a ceiling, never itself."""
    amount = r.get(body, section, "ceiling", _money)
    overflow = r.get(body, section, "overflow", _id)
    if "overflow" in body and "ceiling" not in body:
        r.problems.append(
            f"[{section}] overflow: needs a ceiling (the amount past which the excess goes to it)"
        )
    if overflow is not None and overflow == pid:
        r.problems.append(f"[{section}] overflow: {overflow!r} is this progressive itself")
        overflow = None
    if amount is None:
        return None
    for name, value in (("initial", initial), ("reset", reset)):
        if value is not None and amount < value:
            r.problems.append(
                f"[{section}] ceiling: {wf.format_money(amount)} is below its {name} amount "
                f"{wf.format_money(value)}: the meter starts and resets at or below its ceiling"
            )
    return Ceiling(amount, overflow)
