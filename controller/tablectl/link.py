"""``tablectl link`` and ``tablectl doctor`` (docs/tablectl.md).

``link``: the progressive link as the running daemon sees it (connected, the meter's last word,
the queue, PENDING hits, the meter's amounts) and the table's certificate expiry.
``doctor``: what a slot tech checks first, each line with what to do about it: the
configuration, the pins, the serial ports, groups and the API socket's permissions, the
journal's integrity, the journal's head beside the central meter's witness (``witness.py``), the
disk, the clock, the broker (a TLS handshake with the table's certificate) and the certificates.
Exit 0 when every check passes, 1 when one fails.
"""

from __future__ import annotations

import argparse
import grp
import json
import os
import shutil
import socket
import ssl
import stat
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from wire.identity import certificate_name

from ..api_client import ApiConnectionError, ApiError, request
from ..config import DEFAULT_PATH, Config, certificate_problem, check_config_file, load_config
from ..journal import JournalError, JournalReader
from ..link.certificates import days_left
from ..link.publisher import tls_context
from ..rules.core.options import RulesError
from .common import DEFAULT_SOCKET, EXIT_FAILED, EXIT_OK, guarded
from .finding import Finding
from .witness import witness_findings

#: Fewer days than this before a certificate expires is a warning (renew it).
CERT_WARN_DAYS: Final = 30
#: Less free space than this on the journal's file system fails (the journal stops the table).
MIN_FREE_BYTES: Final = 200 * 1024 * 1024


# --- link ------------------------------------------------------------------------------------------


@guarded
def cmd_link(args: argparse.Namespace) -> int:
    status = request(args.socket, "status")
    link: dict[str, Any] = dict(status.get("link") or {})
    config = _config_or_none(args.config)
    if config is not None and config.progressive_link is not None:
        cert = config.progressive_link.cert_file
        if cert is not None:
            try:
                link["certificate_days_left"] = round(days_left(cert), 1)
            except ValueError as exc:
                link["certificate_days_left"] = str(exc)
    if args.json:
        print(json.dumps(link, indent=2))
        return EXIT_OK
    for line in describe_link(link):
        print(line)
    return EXIT_OK


def describe_link(link: dict[str, Any]) -> Iterator[str]:
    """``tablectl link`` in words."""
    if not link.get("configured"):
        yield "progressive link: not configured ([progressive_link] missing: progressive wagering off)"
        return
    if "connected" not in link:
        yield f"progressive link: configured ({link.get('host')}:{link.get('port')}), not running"
        return
    connected = "connected" if link["connected"] else "NOT connected"
    yield f"progressive link: {link['host']}:{link['port']}, {connected}"
    ago = link.get("last_word_seconds_ago")
    yield f"  last word from the meter: {'never' if ago is None else f'{ago:.1f} s ago'}"
    closed = link.get("unavailable")
    yield f"  progressive wagering: {'OPEN' if not closed else 'CLOSED: ' + closed}"
    yield f"  queue: {link.get('queue_depth', 0)} message(s) the meter has not acknowledged"
    if link.get("oldest_unacknowledged"):
        old = link["oldest_unacknowledged"]
        yield f"  oldest unacknowledged: seq {old['seq']} ({old['kind']}, round {old['round']})"
    applied, sent = link.get("applied_seq", 0), link.get("sent_seq", 0)
    yield f"  the meter applied up to seq {applied}; the broker took up to seq {sent}"
    verdict = link.get("verdict")
    if verdict is not None and not verdict.get("accepted"):
        yield f"  the meter REFUSED the declaration: {verdict.get('reason')}"
    refused = link.get("refused") or {}
    if refused.get("count"):
        yield f"  the meter refused {refused['count']} of the table's messages; the last:"
        for r in refused.get("last") or ():
            yield f"    seq {r['seq']}, {r['field']}: {r['reason']}"
    for hit in link.get("pending") or ():
        status = hit.get("status", "PENDING")
        why = (
            f": {hit['reason']}; a floorperson settles it (claim_hand_pay, or a void)"
            if hit.get("reason")
            else ""
        )
        claim = f"seat {hit['seat']} {hit['hand']} on {hit['progressive']} (claim seq {hit['seq']})"
        yield f"  {status}: {claim}{why}"
    locks = link.get("locks") or {}
    for progressive, amount in (link.get("amounts") or {}).items():
        lock = locks.get(progressive)
        held = (
            ""
            if lock is None
            else f", PENDING: a hit at table {lock['table']} seat {lock['seat']} is being awarded"
        )
        ceiling = (link.get("ceilings") or {}).get(progressive)
        if ceiling:
            over = (
                f"the excess to {ceiling['overflow_to']}"
                if ceiling.get("overflow_to")
                else f"its overflow meter holds {ceiling.get('overflow_held')}"
            )
            held += f", ceiling {ceiling['ceiling']}: {over}"
        yield f"  meter {progressive}: {amount} (from the meter){held}"
    days = link.get("certificate_days_left")
    if days is not None:
        yield f"  table certificate: {days if isinstance(days, str) else f'{days} days left'}"


def _config_or_none(path: Path | None) -> Config | None:
    try:
        return load_config(path or DEFAULT_PATH)
    except (RulesError, OSError):
        return None


# --- doctor ----------------------------------------------------------------------------------------


@guarded
def cmd_doctor(args: argparse.Namespace) -> int:
    path: Path = args.config or DEFAULT_PATH
    findings = list(doctor(path, args.socket))
    for finding in findings:
        print(finding.line())
    failed = sum(not f.ok for f in findings)
    print(f"{len(findings) - failed} ok, {failed} to fix")
    return EXIT_FAILED if failed else EXIT_OK


def doctor(path: Path, sock: Path | None) -> Iterator[Finding]:
    """Every check, in the order a slot tech would make them."""
    problems = check_config_file(path)
    if problems:
        yield Finding(
            False,
            "configuration",
            f"{path}: {len(problems)} problem(s): {problems[0]}",
            f"fix them ('tablectl check {path}' lists every one)",
        )
    try:
        config = load_config(path)
    except (RulesError, OSError) as exc:
        if not problems:  # else said above: the same fault, once
            yield Finding(False, "configuration", str(exc).splitlines()[0], f"fix {path}")
        return
    if not problems:
        yield Finding(True, "configuration", f"{path} is valid")
    yield from _pins()
    yield from _serial_ports(config)
    yield from _groups_and_socket(config, sock)
    yield from _journal(config)
    yield from witness_findings(config, _status(config, sock))
    yield from _disk(config)
    yield from _clock()
    yield from _broker(config)
    yield from _certificates(config)


def _pins() -> Iterator[Finding]:
    chips = sorted(Path("/dev").glob("gpiochip*"))
    if not chips:
        yield Finding(
            False,
            "pins",
            "no /dev/gpiochip*: not a Raspberry Pi, or the GPIO driver is off",
            "run the daemon on the table's Pi (the bench rig uses --mock-pins)",
        )
        return
    unreadable = [str(c) for c in chips if not os.access(c, os.R_OK | os.W_OK)]
    if unreadable:
        yield Finding(
            False,
            "pins",
            f"{', '.join(unreadable)} not readable and writable by this user",
            "add the daemon's user to the 'gpio' group (scripts/system-deps does)",
        )
    else:
        yield Finding(True, "pins", f"{', '.join(map(str, chips))} usable")


def _serial_ports(config: Config) -> Iterator[Finding]:
    for name, device in config.serial_devices().items():
        port = Path(device.port)
        if not port.exists():
            yield Finding(
                False,
                f"serial port {name}",
                f"{port} does not exist",
                f"plug the {name} in, or check its udev rule (docs/bench-rig.md)",
            )
        elif not stat.S_ISCHR(port.stat().st_mode):
            yield Finding(
                False,
                f"serial port {name}",
                f"{port} is not a character device",
                f"[{name}] port must name the device node",
            )
        elif not os.access(port, os.R_OK | os.W_OK):
            yield Finding(
                False,
                f"serial port {name}",
                f"{port} not readable and writable by this user",
                "add the daemon's user to the 'dialout' group",
            )
        else:
            yield Finding(True, f"serial port {name}", f"{port} usable at {device.baud} baud")


def _groups_and_socket(config: Config, sock: Path | None) -> Iterator[Finding]:
    group = config.api.group
    try:
        gid = grp.getgrnam(group).gr_gid
    except KeyError:
        yield Finding(False, "group", f"no group {group!r}", f"groupadd {group} (scripts/system-deps)")
        return
    yield Finding(True, "group", f"{group!r} exists")
    path = sock or config.api.socket
    if not path.exists():
        yield Finding(
            False,
            "API socket",
            f"{path} does not exist",
            "start the daemon: systemctl start table-controller",
        )
        return
    info = path.stat()
    mode = stat.S_IMODE(info.st_mode)
    if info.st_gid != gid or mode & 0o007:
        yield Finding(
            False,
            "API socket",
            f"{path} is group {info.st_gid}, mode {mode:o}",
            f"the daemon makes it group {group!r}, mode 660: restart it",
        )
        return
    try:
        request(path, "status", timeout=5)
    except (ApiConnectionError, ApiError) as exc:
        yield Finding(False, "API socket", f"{path}: {exc}", "journalctl -u table-controller")
        return
    yield Finding(True, "API socket", f"{path}: group {group!r}, mode {mode:o}, the daemon answers")


def _journal(config: Config) -> Iterator[Finding]:
    path = config.journal.path
    if not path.exists():
        yield Finding(False, "journal", f"{path} does not exist yet", "the daemon creates it when it starts")
        return
    try:
        reader = JournalReader(path)
        try:
            state = reader.verify()
        finally:
            reader.close()
    except JournalError as exc:
        yield Finding(
            False,
            "journal",
            str(exc),
            "keep the file; call the technician on duty (docs/journal.md, 'A damaged journal')",
        )
        return
    yield Finding(True, "journal", f"{path}: integrity ok, {state.last_seq} records")


def _status(config: Config, sock: Path | None) -> dict[str, Any] | None:
    """The running daemon's status, or ``None`` if it does not answer (the socket line says why)."""
    path = sock or config.api.socket
    if not path.exists():
        return None
    try:
        status: dict[str, Any] = request(path, "status", timeout=5)
    except (ApiConnectionError, ApiError):
        return None
    return status


def _disk(config: Config) -> Iterator[Finding]:
    usage = shutil.disk_usage(config.journal.path.parent if config.journal.path.parent.exists() else "/")
    free = usage.free
    if free < MIN_FREE_BYTES:
        yield Finding(
            False,
            "disk",
            f"{free // 2**20} MB free for the journal",
            "free space (old logs), or a larger card: the table locks out when a write fails",
        )
    else:
        yield Finding(True, "disk", f"{free // 2**20} MB free ({100 * free // usage.total}%)")


def _clock() -> Iterator[Finding]:
    synced: str | None = None
    tool = shutil.which("timedatectl")
    if tool is not None:
        try:
            out = subprocess.run(
                [tool, "show", "-p", "NTPSynchronized", "--value"], capture_output=True, text=True, timeout=5
            )
            synced = out.stdout.strip() or None
        except (OSError, subprocess.TimeoutExpired):
            synced = None
    year = time.gmtime().tm_year
    if year < 2025:
        yield Finding(
            False, "clock", f"the year is {year}", "set the time: enable NTP (timedatectl set-ntp true)"
        )
    elif synced == "no":
        yield Finding(
            False, "clock", "not synchronized by NTP", "timedatectl set-ntp true; check the network"
        )
    else:
        how = "NTP synchronized" if synced == "yes" else "synchronization unknown (no timedatectl)"
        yield Finding(True, "clock", f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}, {how}")


def _broker(config: Config) -> Iterator[Finding]:
    link = config.progressive_link
    if link is None or not link.enabled:
        yield Finding(True, "broker", "no progressive link configured")
        return
    try:
        with socket.create_connection((link.host, link.port), timeout=5) as raw:
            ctx = tls_context(link)
            if ctx is not None:
                with ctx.wrap_socket(raw, server_hostname=link.host) as tls:
                    version = tls.version()
            else:
                version = "no TLS"
    except ssl.SSLError as exc:
        yield Finding(
            False,
            "broker",
            f"{link.host}:{link.port}: TLS failed: {exc.reason or exc}",
            "check ca_file is the CA that signed the broker, and the table's certificate",
        )
        return
    except OSError as exc:
        yield Finding(
            False,
            "broker",
            f"{link.host}:{link.port}: {exc.strerror or exc}",
            "check the network and that mosquitto runs on the meter's machine",
        )
        return
    yield Finding(True, "broker", f"{link.host}:{link.port} answers ({version})")


def _certificates(config: Config) -> Iterator[Finding]:
    link = config.progressive_link
    if link is None or not link.enabled:
        return
    for key in ("ca_file", "cert_file"):
        path = getattr(link, key)
        if path is None:
            continue
        try:
            left = days_left(path)
        except ValueError as exc:
            yield Finding(
                False, f"certificate {key}", str(exc), f"install the right file as [progressive_link] {key}"
            )
            continue
        if left < 0:
            yield Finding(
                False,
                f"certificate {key}",
                f"{path} expired {-left:.0f} days ago",
                "install a new certificate from the casino's CA",
            )
        elif left < CERT_WARN_DAYS:
            yield Finding(
                False,
                f"certificate {key}",
                f"{path} expires in {left:.0f} days",
                "renew it before it expires (the link stops)",
            )
        else:
            yield Finding(True, f"certificate {key}", f"{path}: {left:.0f} days left")
    if link.cert_file is not None:
        yield from _identity(config, link.cert_file)


def _identity(config: Config, cert: Path) -> Iterator[Finding]:
    """The broker takes the table's name from its certificate's CN: it must be the table id
    (an unreadable certificate is said above, by its expiry's check)."""
    try:
        certificate_name(cert)
    except ValueError:
        return
    wrong = certificate_problem(config)
    table = config.table.id
    if wrong is not None:
        yield Finding(
            False,
            "certificate identity",
            wrong,
            f"run 'progressive-link-enroll table {table}' on the meter's server and install its bundle",
        )
    else:
        yield Finding(True, "certificate identity", f"{cert} names table {table!r}")


def add_link_commands(sub: Any) -> None:
    """``tablectl link`` and ``tablectl doctor``."""
    link = sub.add_parser("link", help="the progressive link: connected, the meter's last word, the queue")
    link.add_argument("--socket", type=Path, default=DEFAULT_SOCKET, help=f"default {DEFAULT_SOCKET}")
    link.add_argument(
        "--config", type=Path, default=None, help=f"for the certificate; default {DEFAULT_PATH}"
    )
    link.add_argument("--json", action="store_true", help="print JSON")
    link.set_defaults(func=cmd_link)
    doctor_p = sub.add_parser("doctor", help="check what a slot tech checks first, each with what to do")
    doctor_p.add_argument("--config", type=Path, default=None, help=f"default {DEFAULT_PATH}")
    doctor_p.add_argument("--socket", type=Path, default=None, help="default: [api] socket")
    doctor_p.set_defaults(func=cmd_doctor)
