"""A real Mosquitto for the tests and the bench rig: the repository's example configuration on a
free loopback port.

The broker runs ``systemd/mosquitto/mosquitto.conf`` and ``acl.conf`` as shipped, with only
the paths, the port and the process user changed; the certificates are made here with
``trustme`` (a CA, the broker's certificate, one client certificate per user, its CN the
user: the broker takes the username and the client id from it). Each user also has a random
password, which the shipped broker never asks for: a rogue test sends another table's to show
it buys nothing (a configuration with a ``password_file``, as before issue 17, still runs here,
its file made with ``mosquitto_passwd``). A missing ``mosquitto`` raises :class:`MissingTool`,
saying what to run. ``tests/mosquitto.py`` re-exports this module for the tests.
"""

from __future__ import annotations

import getpass
import os
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import trustme

#: ``systemd/mosquitto/`` (``mosquitto-conf`` links to it in the source tree; the wheel carries a copy).
EXAMPLES = Path(__file__).resolve().parent / "mosquitto-conf"
USERS = ("progressive-meter", "t1", "t2", "t3", "t4", "bridge-site-b", "observer")


class MissingTool(RuntimeError):
    """A Debian tool the broker needs is not installed; the message says what to run."""


def tool(name: str) -> str:
    found = shutil.which(name) or next(
        (str(p) for p in (Path("/usr/sbin") / name, Path("/usr/bin") / name) if p.exists()), None
    )
    if found is None:
        raise MissingTool(
            f"{name} is missing: run scripts/system-deps (it installs mosquitto and mosquitto-clients)"
        )
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Pki:
    """A CA, the broker's certificate and one client certificate per user, as files in ``root``."""

    root: Path
    users: tuple[str, ...] = USERS
    ca: trustme.CA = field(default_factory=trustme.CA)
    passwords: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.ca_file = self.root / "ca.crt"
        self.ca.cert_pem.write_to_path(str(self.ca_file))
        server = self.ca.issue_cert("127.0.0.1", "localhost")
        self.server_cert = self.root / "broker.crt"
        self.server_key = self.root / "broker.key"
        server.cert_chain_pems[0].write_to_path(str(self.server_cert))
        server.private_key_pem.write_to_path(str(self.server_key))
        for user in self.users:
            self.passwords[user] = secrets.token_hex(12)
            cert = self.ca.issue_cert(f"{user}.tables.example", common_name=user)
            cert.cert_chain_pems[0].write_to_path(str(self.cert(user)))
            cert.private_key_pem.write_to_path(str(self.key(user)))

    def cert(self, user: str) -> Path:
        return self.root / f"{user}.crt"

    def key(self, user: str) -> Path:
        return self.root / f"{user}.key"

    def context(self, user: str | None) -> ssl.SSLContext:
        """A client's TLS context: trusts the CA, presents ``user``'s certificate (none: ``None``)."""
        ctx = ssl.create_default_context(cafile=str(self.ca_file))
        if user is not None:
            ctx.load_cert_chain(str(self.cert(user)), str(self.key(user)))
        return ctx

    def password_file(self, path: Path) -> Path:
        path.write_text("".join(f"{u}:{p}\n" for u, p in self.passwords.items()))
        path.chmod(0o600)
        subprocess.run([tool("mosquitto_passwd"), "-U", str(path)], check=True, capture_output=True)
        return path


class Broker:
    """One ``mosquitto`` process with the shipped configuration (and, optionally, a bridge)."""

    def __init__(self, root: Path, pki: Pki, name: str = "a", bridge_to: Broker | None = None) -> None:
        self.root = root / f"broker-{name}"
        self.root.mkdir(parents=True, exist_ok=True)
        self.pki = pki
        self.name = name
        self.port = free_port()
        self.host = "127.0.0.1"
        self.log = self.root / "mosquitto.log"
        self.conf = self.root / "mosquitto.conf"
        self._proc: subprocess.Popen[bytes] | None = None
        acl = self.root / "acl"
        acl.write_text(
            (EXAMPLES / "acl.conf").read_text()
            + "\n# tests only\nuser observer\ntopic read #\ntopic write bench/#\n"
        )
        text = (EXAMPLES / "mosquitto.conf").read_text()
        replace = {
            "/var/lib/mosquitto/": f"{self.root}/",
            "/etc/mosquitto/progressive.acl": str(acl),
            "/etc/mosquitto/ca_certificates/progressive-ca.crt": str(pki.ca_file),
            "/etc/mosquitto/certs/broker.crt": str(pki.server_cert),
            "/etc/mosquitto/certs/broker.key": str(pki.server_key),
            "listener 8883": f"listener {self.port} 127.0.0.1",
        }
        for old, new in replace.items():
            assert old in text, f"the example mosquitto.conf no longer has {old!r}"
            text = text.replace(old, new)
        if "/etc/mosquitto/progressive.passwd" in text:
            passwd = pki.password_file(self.root / "passwd")
            text = text.replace("/etc/mosquitto/progressive.passwd", str(passwd))
        head = f"user {getpass.getuser()}\nlog_dest file {self.log}\nlog_type all\n"
        if bridge_to is not None:
            text += "\n" + self._bridge(bridge_to)
        self.conf.write_text(head + text)

    def _bridge(self, remote: Broker) -> str:
        text = (EXAMPLES / "bridge-site-b.conf").read_text()
        replace = {
            "address meter-broker.casino.example:8883": f"address 127.0.0.1:{remote.port}",
            "/etc/mosquitto/ca_certificates/progressive-ca.crt": str(self.pki.ca_file),
            "/etc/mosquitto/certs/bridge-site-b.crt": str(self.pki.cert("bridge-site-b")),
            "/etc/mosquitto/certs/bridge-site-b.key": str(self.pki.key("bridge-site-b")),
            "keepalive_interval 30": "keepalive_interval 5",
            "restart_timeout 2 30": "restart_timeout 1 2",
        }
        for old, new in replace.items():
            assert old in text, f"the example bridge-site-b.conf no longer has {old!r}"
            text = text.replace(old, new)
        return text

    def start(self, timeout: float = 10.0) -> None:
        assert self._proc is None or self._proc.poll() is not None, "already running"
        out = open(self.root / "stderr.log", "ab")  # noqa: SIM115 - the process keeps it
        self._proc = subprocess.Popen(
            [tool("mosquitto"), "-c", str(self.conf)], stdout=out, stderr=out, start_new_session=True
        )
        out.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"mosquitto exited {self._proc.returncode}: {self.tail()}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on {self.port} within {timeout} s: {self.tail()}")

    @property
    def pid(self) -> int | None:
        """The running broker's process id (``None`` before its start)."""
        return None if self._proc is None else self._proc.pid

    def stop(self, kill: bool = False) -> None:
        if self._proc is None or self._proc.poll() is not None:
            return
        os.kill(self._proc.pid, signal.SIGKILL if kill else signal.SIGTERM)
        self._proc.wait(timeout=10)

    def tail(self, n: int = 20) -> str:
        lines: list[str] = []
        for f in (self.root / "stderr.log", self.log):
            if f.exists():
                lines += f.read_text(errors="replace").splitlines()[-n:]
        return "\n".join(lines)
