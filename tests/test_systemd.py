"""systemd integration: sd_notify over a real datagram socket, and the unit, sysusers and udev files.

The notifications are received the way systemd receives them, on an AF_UNIX datagram socket named
by ``NOTIFY_SOCKET``, by a thread that stamps each one with the time it arrived, so a blocked event
loop shows as a gap. The unit files are checked by systemd's own ``systemd-analyze verify`` and
``systemd-sysusers``, in a throw-away root; without those tools the tests fail and say to run
``scripts/system-deps`` (a silent skip would let broken units through CI).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import re
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller import sd_notify
from controller.config import SERIAL_DEVICES, parse_config
from controller.sd_notify import JournalFormatter, Notifier

REPO = Path(__file__).resolve().parent.parent
SYSTEMD = REPO / "systemd"
UNITS = ("table-controller.service", "table-ui.service")
SYSTEM_DEPS = REPO / "scripts" / "system-deps"
EXAMPLE_CONFIG = REPO / "examples" / "table-controller.toml"

# --- a stand-in for systemd's end of NOTIFY_SOCKET ------------------------------------------------


class Receiver:
    """A bound AF_UNIX datagram socket, read by a thread that stamps each message on arrival."""

    def __init__(self, address: bytes) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(address)
        self.sock.settimeout(0.02)
        self.received: list[tuple[float, str]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="notify receiver", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                self.received.append((time.monotonic(), data.decode("utf-8", "replace")))

    def messages(self) -> list[str]:
        with self._lock:
            return [m for _, m in self.received]

    def times(self, message: str) -> list[float]:
        with self._lock:
            return [t for t, m in self.received if m == message]

    def wait_for(self, count: int, timeout: float = 5.0) -> list[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            messages = self.messages()
            if len(messages) >= count:
                return messages
            time.sleep(0.005)
        return self.messages()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


@pytest.fixture
def no_systemd_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (*sd_notify.ENVIRONMENT, sd_notify.JOURNAL_STREAM):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def receiver(short_dir: Path, monkeypatch: pytest.MonkeyPatch, no_systemd_env: None) -> Iterator[Receiver]:
    path = short_dir / "notify"
    r = Receiver(os.fsencode(path))
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield r
    r.close()


WATCHDOG_TIMEOUT = 0.2  # WATCHDOG_USEC=200000: pings expected every 0.1 s


@pytest.fixture
def watchdog_env(receiver: Receiver, monkeypatch: pytest.MonkeyPatch) -> Receiver:
    monkeypatch.setenv("WATCHDOG_USEC", str(round(WATCHDOG_TIMEOUT * 1_000_000)))
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    return receiver


async def stop(task: asyncio.Task[None] | None) -> None:
    assert task is not None
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def gaps(times: list[float]) -> list[float]:
    return [b - a for a, b in itertools.pairwise(times)]


# --- the messages ---------------------------------------------------------------------------------


def test_ready_status_stopping_reach_the_socket(receiver: Receiver) -> None:
    assert sd_notify.ready("journal recovered, 3 rounds")
    assert sd_notify.status("round 12: no more bets")
    assert sd_notify.status("shoe:\njammed")
    assert sd_notify.extend_timeout(2.5)
    assert sd_notify.stopping("closing the journal")
    assert receiver.wait_for(5) == [
        "READY=1\nSTATUS=journal recovered, 3 rounds",
        "STATUS=round 12: no more bets",
        "STATUS=shoe: jammed",  # a newline would start a second assignment
        "EXTEND_TIMEOUT_USEC=2500000",
        "STOPPING=1\nSTATUS=closing the journal",
    ]


def test_abstract_namespace_socket(monkeypatch: pytest.MonkeyPatch, no_systemd_env: None) -> None:
    name = f"table-controller-test-{os.getpid()}-{time.monotonic_ns()}"
    r = Receiver(b"\0" + name.encode())
    try:
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert sd_notify.notifier().address == b"\0" + name.encode()
        assert sd_notify.ready()
        assert r.wait_for(1) == ["READY=1"]
    finally:
        r.close()


def test_no_op_without_notify_socket(no_systemd_env: None) -> None:
    n = sd_notify.notifier()
    assert not n.enabled and n.watchdog_interval is None
    assert not sd_notify.ready("up")
    assert not sd_notify.status("x")
    assert not sd_notify.stopping()
    assert not sd_notify.watchdog()
    assert not sd_notify.extend_timeout(10)


@pytest.mark.asyncio
async def test_no_watchdog_task_without_systemd(no_systemd_env: None) -> None:
    assert sd_notify.start_watchdog() is None


@pytest.mark.parametrize("value", ["relative/notify", "vsock:2:1234", "@", "/" + "x" * 120])
def test_unusable_notify_socket_is_ignored(
    value: str, monkeypatch: pytest.MonkeyPatch, no_systemd_env: None, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", value)
    monkeypatch.setenv("WATCHDOG_USEC", "1000000")
    n = sd_notify.notifier()
    assert not n.enabled and n.watchdog_interval is None
    assert not sd_notify.ready()
    assert "ignoring NOTIFY_SOCKET" in caplog.text


def test_receiver_gone_returns_false(short_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = short_dir / "gone"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(os.fsencode(path))
    sock.close()  # the file stays, nobody listens: ECONNREFUSED
    n = Notifier(os.fsencode(path))
    assert not n.ready()
    path.unlink()  # no file at all: ENOENT
    assert not n.ready()
    assert "not delivered" in caplog.text


def test_sending_never_blocks_when_systemd_does_not_read(
    short_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A receiver that never reads fills its queue; a blocking sendto would then wait forever."""
    path = short_dir / "full"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind(os.fsencode(path))
    try:
        n = Notifier(os.fsencode(path))
        results: list[bool] = []

        def flood() -> None:
            for _ in range(1000):
                results.append(n.status("x" * 200))

        started = time.monotonic()
        thread = threading.Thread(target=flood, daemon=True)
        thread.start()
        thread.join(10)
        assert not thread.is_alive(), "a notification blocked on a full socket"
        assert time.monotonic() - started < 5
        assert results[0] is True and results.count(False) > 0
        # Failures are logged one in a hundred, never one line each.
        warnings = [r for r in caplog.records if "not delivered" in r.getMessage()]
        assert 1 <= len(warnings) <= results.count(False) // 100 + 1
    finally:
        sock.close()


def test_unset_removes_the_variables(receiver: Receiver, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "5000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    n = Notifier.from_environ(unset=True)
    assert n.enabled and n.watchdog_timeout == 5.0 and n.watchdog_interval == 2.5
    assert not any(name in os.environ for name in sd_notify.ENVIRONMENT)
    assert n.ready()  # the notifier keeps what it read
    assert receiver.wait_for(1) == ["READY=1"]


def test_the_notification_comes_from_the_process_itself(short_dir: Path, no_systemd_env: None) -> None:
    """NotifyAccess=main accepts only the main process: the kernel's credentials name the sender."""
    path = short_dir / "creds"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    sock.bind(os.fsencode(path))
    sock.settimeout(20)
    code = "import sys\nfrom controller import sd_notify\nsys.exit(0 if sd_notify.ready('up') else 1)"
    env = {**os.environ, "NOTIFY_SOCKET": str(path)}
    try:
        child = subprocess.Popen([sys.executable, "-c", code], cwd=REPO, env=env)
        data, ancillary, _, _ = sock.recvmsg(4096, socket.CMSG_SPACE(struct.calcsize("3i")))
        assert child.wait(20) == 0
    finally:
        sock.close()
    assert data == b"READY=1\nSTATUS=up"
    creds = [
        d for level, kind, d in ancillary if (level, kind) == (socket.SOL_SOCKET, socket.SCM_CREDENTIALS)
    ]
    assert len(creds) == 1
    pid, uid, _ = struct.unpack("3i", creds[0])
    assert (pid, uid) == (child.pid, os.getuid())


LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=["Cs"]) | st.sampled_from(LINE_BREAKS)))
def test_any_status_is_one_assignment(text: str) -> None:
    with tempfile.TemporaryDirectory(prefix="sdn-", dir="/tmp") as d:
        path = os.fsencode(Path(d) / "s")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(path)
        try:
            assert Notifier(path).status(text)
            data = sock.recv(1 << 20).decode("utf-8")
        finally:
            sock.close()
    assert data.startswith("STATUS=")
    assert "\n" not in data  # one line: one assignment, whatever the text
    # Nothing but the line breaks (now spaces) changed.
    assert data[len("STATUS=") :].split() == text.split()


# --- the watchdog, from the event loop ------------------------------------------------------------


@pytest.mark.asyncio
async def test_watchdog_pings_at_half_the_timeout(watchdog_env: Receiver) -> None:
    task = sd_notify.start_watchdog()
    assert task is not None and task.get_name() == "sd_notify watchdog"
    await asyncio.sleep(1.0)
    await stop(task)
    times = watchdog_env.times("WATCHDOG=1")
    assert 9 <= len(times) <= 12, times
    intervals = gaps(times)
    assert statistics.median(intervals) == pytest.approx(WATCHDOG_TIMEOUT / 2, abs=0.02)
    assert max(intervals) < WATCHDOG_TIMEOUT  # systemd never sees the timeout pass
    assert watchdog_env.messages() == ["WATCHDOG=1"] * len(times)


@pytest.mark.asyncio
async def test_a_stuck_loop_stops_the_pings(watchdog_env: Receiver) -> None:
    task = sd_notify.start_watchdog()
    await asyncio.sleep(0.35)
    blocked_from = time.monotonic()
    time.sleep(0.6)  # a blocking call on the loop: what the daemon must never do
    blocked_until = time.monotonic()
    await asyncio.sleep(0.35)
    await stop(task)
    times = watchdog_env.times("WATCHDOG=1")
    before = [t for t in times if t < blocked_from]
    during = [t for t in times if blocked_from + 0.01 < t < blocked_until]
    after = [t for t in times if t >= blocked_until]
    assert len(before) >= 3 and len(after) >= 3, times
    assert during == []
    silence = after[0] - before[-1]
    # The pings stopped for as long as the loop was blocked: longer than the timeout, so systemd
    # would have killed and restarted the daemon.
    assert silence >= 0.58
    assert silence > WATCHDOG_TIMEOUT
    assert max(gaps(before) + gaps(after)) < WATCHDOG_TIMEOUT


@pytest.mark.asyncio
async def test_a_failed_health_check_withholds_the_pings(
    watchdog_env: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    healthy = True
    task = sd_notify.start_watchdog(lambda: healthy)
    await asyncio.sleep(0.3)
    healthy = False
    sick_from = time.monotonic()
    await asyncio.sleep(0.5)
    healthy = True
    sick_until = time.monotonic()
    await asyncio.sleep(0.3)
    await stop(task)
    times = watchdog_env.times("WATCHDOG=1")
    assert [t for t in times if sick_from + 0.02 < t < sick_until] == []
    assert len([t for t in times if t < sick_from]) >= 2
    assert len([t for t in times if t >= sick_until]) >= 2
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "health check failed" in errors[0].getMessage()
    assert "pings resume" in caplog.text


@pytest.mark.asyncio
async def test_a_health_check_that_raises_counts_as_failed(
    watchdog_env: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    def broken() -> bool:
        raise RuntimeError("journal writer gone")

    task = sd_notify.start_watchdog(broken)
    assert task is not None
    await asyncio.sleep(0.35)
    assert not task.done()  # the task lives on, withholding pings
    await stop(task)
    assert watchdog_env.times("WATCHDOG=1") == []
    assert "journal writer gone" in caplog.text


@pytest.mark.asyncio
async def test_no_watchdog_for_another_process(
    watchdog_env: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """$WATCHDOG_PID names another process (we inherited it): no pings, but READY still goes."""
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    assert sd_notify.start_watchdog() is None
    assert not sd_notify.watchdog()
    assert sd_notify.ready()
    assert watchdog_env.wait_for(1) == ["READY=1"]


@pytest.mark.parametrize("usec", ["", "0", "-5", "soon", "1e6"])
def test_bad_watchdog_usec_means_no_watchdog(usec: str) -> None:
    assert sd_notify.parse_watchdog({"WATCHDOG_USEC": usec}, 1) is None


# --- logs for journald ----------------------------------------------------------------------------


def test_journal_formatter_prefixes_every_line_with_the_priority() -> None:
    formatter = JournalFormatter()
    try:
        raise ValueError("frame checksum")
    except ValueError:
        record = logging.LogRecord(
            "hw.shoe", logging.ERROR, __file__, 1, "shoe %s", ("lost",), sys.exc_info()
        )
    lines = formatter.format(record).splitlines()
    assert lines[0] == "<3>hw.shoe: shoe lost"
    assert len(lines) > 3 and all(line.startswith("<3>") for line in lines)
    assert lines[-1] == "<3>ValueError: frame checksum"
    info = logging.LogRecord("controller", logging.INFO, __file__, 1, "ready", (), None)
    assert formatter.format(info) == "<6>controller: ready"
    assert [sd_notify.syslog_priority(level) for level in (50, 40, 30, 20, 10, 5)] == [2, 3, 4, 6, 7, 7]


def test_journal_stream_is_recognised(tmp_path: Path) -> None:
    with open(tmp_path / "stream", "w") as stream, open(tmp_path / "other", "w") as other:
        st_ = os.fstat(stream.fileno())
        env = {"JOURNAL_STREAM": f"{st_.st_dev}:{st_.st_ino}"}
        assert sd_notify.connected_to_journal(stream, env)
        assert not sd_notify.connected_to_journal(other, env)
        assert not sd_notify.connected_to_journal(stream, {})
        assert not sd_notify.connected_to_journal(stream, {"JOURNAL_STREAM": "garbage"})


# --- the unit files -------------------------------------------------------------------------------


def parse_unit(path: Path) -> dict[str, list[tuple[str, str]]]:
    """A unit file's sections, each a list of (key, value) in order (keys may repeat)."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], [])
            continue
        assert current is not None and "=" in line, f"{path.name}: {raw!r}"
        key, _, value = line.partition("=")
        current.append((key.strip(), value.strip()))
    return sections


def values(unit: dict[str, list[tuple[str, str]]], key: str, section: str = "Service") -> list[str]:
    return [v for k, v in unit.get(section, []) if k == key]


def one(unit: dict[str, list[tuple[str, str]]], key: str, section: str = "Service") -> str:
    found = values(unit, key, section)
    assert len(found) == 1, f"{key}= appears {len(found)} times"
    return found[0]


def words(unit: dict[str, list[tuple[str, str]]], key: str) -> set[str]:
    return {w for v in values(unit, key) for w in v.split()}


def require_tool(name: str) -> str:
    """The tool's path; a failure (not a skip) naming the fix when it is not installed."""
    path = shutil.which(name)
    if path is None:
        pytest.fail(
            f"{name} is not installed; run `bash scripts/system-deps` as root (it installs Debian's "
            "systemd package), then the tests again",
            pytrace=False,
        )
    return path


def test_a_missing_tool_fails_with_the_fix() -> None:
    with pytest.raises(pytest.fail.Exception, match=r"run `bash scripts/system-deps`"):
        require_tool("systemd-analyze-that-is-not-installed")


@pytest.fixture
def unit_root(tmp_path: Path) -> Path:
    """A root for ``systemd-analyze --root``: systemd's own units, ours, and their programs.

    ``verify`` resolves every dependency (sysinit.target, network.target, ...) and checks that
    ExecStart= is an executable file, inside the root: the console scripts pip installs in
    /opt/table-controller are stood in for by a shell script there.
    """
    require_tool("systemd-analyze")
    root = tmp_path / "root"
    system_units = next(
        (p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")) if p.is_dir()), None
    )
    if system_units is None:
        pytest.fail(
            "systemd's unit directory is missing; run `bash scripts/system-deps` as root", pytrace=False
        )
    shutil.copytree(system_units, root / "usr/lib/systemd/system", symlinks=True)
    ours = root / "etc/systemd/system"
    ours.mkdir(parents=True)
    for name in UNITS:
        shutil.copy(SYSTEMD / name, ours / name)
        for command in values(parse_unit(SYSTEMD / name), "ExecStart"):
            program = root / command.split()[0].lstrip("-@:+!").lstrip("/")
            program.parent.mkdir(parents=True, exist_ok=True)
            program.write_text("#!/bin/sh\nexit 0\n")
            program.chmod(0o755)
    return root


def analyze_verify(root: Path, *units: str) -> subprocess.CompletedProcess[str]:
    tool = require_tool("systemd-analyze")
    return subprocess.run(
        [tool, "verify", f"--root={root}", "--man=no", "--generators=no", *units],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_units_pass_systemd_analyze_verify(unit_root: Path) -> None:
    result = analyze_verify(unit_root, *UNITS)
    # verify exits 0 on an unknown key or a bad value ("..., ignoring"): any output is a failure.
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_verify_would_catch_a_broken_unit(unit_root: Path) -> None:
    """The check above can fail: a bad value, an unknown key and a missing program are all reported."""
    unit = unit_root / "etc/systemd/system/table-controller.service"
    text = unit.read_text().replace("WatchdogSec=5s", "WatchdogSec=five seconds\nWatchdogSecs=5s")
    unit.write_text(text)
    output = analyze_verify(unit_root, "table-controller.service")
    assert "WatchdogSec" in output.stderr and "WatchdogSecs" in output.stderr
    (unit_root / "opt/table-controller/bin/table-controller").unlink()
    assert analyze_verify(unit_root, "table-controller.service").returncode != 0


def test_controller_sandbox_exposure_stays_low(unit_root: Path) -> None:
    """systemd's own score of the sandbox (0 best, 10 worst); 1.7 when written: a guard against loosening."""
    tool = require_tool("systemd-analyze")
    result = subprocess.run(
        [
            tool,
            "security",
            "--offline=yes",
            f"--root={unit_root}",
            "--threshold=25",
            "table-controller.service",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr


def test_controller_unit_is_as_specified() -> None:
    unit = parse_unit(SYSTEMD / "table-controller.service")
    assert one(unit, "Type") == "notify" and one(unit, "NotifyAccess") == "main"
    assert one(unit, "Restart") == "on-failure" and one(unit, "RestartSec")
    assert re.fullmatch(r"\d+s", one(unit, "WatchdogSec"))
    assert one(unit, "ExecStart") == "/opt/table-controller/bin/table-controller"
    assert one(unit, "User") == "table-controller" and not values(unit, "DynamicUser")
    assert {"gpio", "dialout"} <= words(unit, "SupplementaryGroups")
    for key, value in [
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
        ("NoNewPrivileges", "yes"),
        ("PrivateTmp", "yes"),
        ("DevicePolicy", "closed"),
        ("SyslogIdentifier", "table-controller"),
    ]:
        assert one(unit, key) == value, key
    assert not values(unit, "PrivateDevices")  # it would hide the GPIO chip and the serial ports
    allowed = {v.split()[0] for v in values(unit, "DeviceAllow")}
    assert {"/dev/gpiochip0", "char-gpiochip", "char-ttyUSB", "char-ttyACM"} <= allowed


def test_watchdog_interval_is_half_the_units_timeout(short_dir: Path) -> None:
    seconds = int(one(parse_unit(SYSTEMD / "table-controller.service"), "WatchdogSec").removesuffix("s"))
    env = {"NOTIFY_SOCKET": str(short_dir / "n"), "WATCHDOG_USEC": str(seconds * 1_000_000)}
    n = Notifier.from_environ(env, pid=1)
    assert n.watchdog_timeout == seconds and n.watchdog_interval == seconds / 2


def test_units_agree_with_the_daemons_config() -> None:
    """The example config's paths and names are the ones the units create and grant."""
    config = parse_config(EXAMPLE_CONFIG.read_text(), str(EXAMPLE_CONFIG))
    controller = parse_unit(SYSTEMD / "table-controller.service")
    ui = parse_unit(SYSTEMD / "table-ui.service")
    assert config.journal.path.parent == Path("/var/lib") / one(controller, "StateDirectory")
    assert config.api.socket.parent == Path("/run") / one(controller, "RuntimeDirectory").split()[0]
    assert config.table.rules_submission.parent == Path("/etc") / one(controller, "ConfigurationDirectory")
    assert config.api.users_file.parent == Path("/etc") / one(controller, "ConfigurationDirectory")
    assert config.api.group in words(controller, "SupplementaryGroups")
    assert config.api.group in words(ui, "SupplementaryGroups")
    assert one(ui, "User") == config.api.dealer_user
    # lgpio's FIFOs: in the working directory, which must be one the unit makes writable.
    workdir = Path(one(controller, "WorkingDirectory"))
    runtime = [Path("/run") / d for d in one(controller, "RuntimeDirectory").split()]
    assert workdir in runtime and f"LG_WD={workdir}" in words(controller, "Environment")


def test_ui_unit_follows_the_controller() -> None:
    ui = parse_unit(SYSTEMD / "table-ui.service")
    after = {w for v in values(ui, "After", "Unit") for w in v.split()}
    assert "table-controller.service" in after
    assert "table-controller.service" in values(ui, "Wants", "Unit")
    assert one(ui, "Restart") in ("on-failure", "always")
    assert one(ui, "User") == "table-ui" and one(ui, "SyslogIdentifier") == "table-ui"
    env = words(ui, "Environment")
    assert "SDL_VIDEODRIVER=kmsdrm" in env and "KIVY_NO_ARGS=1" in env


def test_console_script_is_declared() -> None:
    """ExecStart= runs the console script pip makes from pyproject's [project.scripts]."""
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts.get("table-controller") == "controller.daemon:main"


# --- users and groups -----------------------------------------------------------------------------


def read_db(path: Path) -> dict[str, list[str]]:
    return {line.split(":")[0]: line.split(":") for line in path.read_text().splitlines() if line}


def test_sysusers_creates_what_the_units_need(tmp_path: Path) -> None:
    tool = require_tool("systemd-sysusers")
    root = tmp_path / "root"
    (root / "etc/sysusers.d").mkdir(parents=True)
    # As on Raspberry Pi OS: dialout and gpio exist already, with their own ids.
    (root / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "etc/group").write_text("root:x:0:\ndialout:x:20:pi\ngpio:x:986:pi\n")
    shutil.copy(SYSTEMD / "table-controller.sysusers.conf", root / "etc/sysusers.d/table-controller.conf")
    command = [tool, f"--root={root}", "table-controller.conf"]  # found in the root's sysusers.d
    first = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    complaints = [line for line in first.stderr.splitlines() if not line.startswith("Creating ")]
    assert complaints == []
    again = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert (again.returncode, again.stderr) == (0, "")  # idempotent: a second run changes nothing

    users, groups = read_db(root / "etc/passwd"), read_db(root / "etc/group")
    assert groups["dialout"][2] == "20" and groups["gpio"][2] == "986"  # left alone
    for name in UNITS:
        unit = parse_unit(SYSTEMD / name)
        assert one(unit, "User") in users
        assert one(unit, "Group") in groups
        for group in words(unit, "SupplementaryGroups"):
            assert group in groups, f"{name}: SupplementaryGroups={group} is not created"
    assert users["table-controller"][5] == "/var/lib/table-controller"
    assert users["table-controller"][6].endswith("nologin")
    config = parse_config(EXAMPLE_CONFIG.read_text(), str(EXAMPLE_CONFIG))
    assert config.api.dealer_user in groups[config.api.group][3].split(",")
    assert {"pi", "table-controller"} <= set(groups["gpio"][3].split(","))


# --- udev -----------------------------------------------------------------------------------------

_TOKEN = re.compile(r'(?P<key>[A-Z_]+)(\{(?P<attr>[^}]+)\})?(?P<op>==|!=|\+=|-=|:=|=)"(?P<value>[^"]*)"')
_MATCH_ONLY = {"ACTION", "SUBSYSTEM", "SUBSYSTEMS", "KERNEL", "KERNELS", "ATTR", "ATTRS", "DRIVERS"}
_ASSIGN_ONLY = {"SYMLINK", "GROUP", "MODE", "OWNER", "GOTO", "LABEL"}
_EITHER = {"ENV", "TAG"}


def udev_rules() -> list[dict[str, tuple[str, str]]]:
    """The rules of 99-table-controller.rules, each {key or key{attr}: (operator, value)}."""
    rules = []
    for number, raw in enumerate((SYSTEMD / "99-table-controller.rules").read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        rule = {}
        for token in (t.strip() for t in re.split(r',(?=(?:[^"]*"[^"]*")*[^"]*$)', line)):
            m = _TOKEN.fullmatch(token)
            assert m, f"line {number}: cannot read {token!r}"
            key, op = m["key"], m["op"]
            assert key in _MATCH_ONLY | _ASSIGN_ONLY | _EITHER, f"line {number}: unknown key {key}"
            if key in _MATCH_ONLY:
                assert op in ("==", "!="), f"line {number}: {key} only matches"
            if key in _ASSIGN_ONLY:
                assert op not in ("==", "!="), f"line {number}: {key} is only assigned"
            rule[key + (f"{{{m['attr']}}}" if m["attr"] else "")] = (op, m["value"])
        rules.append(rule)
    return rules


def test_udev_rules_name_every_serial_device_once() -> None:
    rules = udev_rules()
    labels = {r["LABEL"][1] for r in rules if "LABEL" in r}
    assert all(r["GOTO"][1] in labels for r in rules if "GOTO" in r)
    serial = [r for r in rules if "SYMLINK" in r]
    names = [r["SYMLINK"][1] for r in serial]
    assert sorted(names) == sorted(f"table-{device}" for device in SERIAL_DEVICES)
    # Each matched by vendor, product and its own serial number.
    ids = [(r["ATTRS{idVendor}"][1], r["ATTRS{idProduct}"][1], r["ATTRS{serial}"][1]) for r in serial]
    assert len(set(ids)) == len(ids)
    controller = parse_unit(SYSTEMD / "table-controller.service")
    groups = words(controller, "SupplementaryGroups")
    allowed = {v.split()[0] for v in values(controller, "DeviceAllow")}
    for rule in serial:
        assert rule["SYMLINK"][0] == "+=" and rule["MODE"][1] == "0660"
        assert rule["GROUP"][1] in groups
        assert f"/dev/{rule['SYMLINK'][1]}" in allowed
    gpio = [r for r in rules if r.get("SUBSYSTEM") == ("==", "gpio")]
    assert len(gpio) == 1 and gpio[0]["GROUP"][1] in groups and gpio[0]["KERNEL"][1] == "gpiochip*"


def test_example_config_uses_the_udev_names() -> None:
    config = parse_config(EXAMPLE_CONFIG.read_text(), str(EXAMPLE_CONFIG))
    names = {r["SYMLINK"][1] for r in udev_rules() if "SYMLINK" in r}
    ports = {str(device.port) for device in config.serial_devices().values()}
    assert ports and ports <= {f"/dev/{name}" for name in names}


# --- scripts/system-deps --------------------------------------------------------------------------


def fake_bin(directory: Path, apt_installs: bool) -> Path:
    """A PATH directory with apt-get and sudo stand-ins that log their arguments."""
    directory.mkdir()
    log = directory / "calls.log"
    install = (
        "  for t in systemd-analyze systemd-sysusers mosquitto_passwd; do "
        "printf '#!/bin/sh\\n' > \"$here/$t\"; "
        '/bin/chmod +x "$here/$t"; done\n'
        if apt_installs
        else ""
    )
    (directory / "apt-get").write_text(
        "#!/bin/bash\n"
        f'here="{directory}"\n'
        f'echo "apt-get $*" >> "{log}"\n'
        'if [ "$1" = install ]; then\n' + install + "  :\nfi\n"
    )
    (directory / "sudo").write_text(f'#!/bin/bash\necho "sudo $1" >> "{log}"\nexec "$@"\n')
    for tool in ("apt-get", "sudo"):
        (directory / tool).chmod(0o755)
    return log


def run_system_deps(path: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["/bin/bash", str(SYSTEM_DEPS)], capture_output=True, text=True, timeout=60, env={"PATH": path}
    )


def test_system_deps_is_a_no_op_when_everything_is_there(tmp_path: Path) -> None:
    require_tool("systemd-analyze")
    require_tool("systemd-sysusers")
    require_tool("mosquitto_passwd")
    log = fake_bin(tmp_path / "bin", apt_installs=False)
    result = run_system_deps(f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert not log.exists()  # not even apt-get update


def test_system_deps_installs_what_is_missing(tmp_path: Path) -> None:
    log = fake_bin(tmp_path / "bin", apt_installs=True)
    result = run_system_deps(str(tmp_path / "bin"))  # no systemd tools on this PATH
    assert result.returncode == 0, result.stderr
    apt = [c.split()[1:] for c in log.read_text().splitlines() if c.startswith("apt-get")]
    assert len(apt) == 2, apt
    assert apt[0][0] == "update"  # only now that something must be installed
    assert apt[1][0] == "install" and "-y" in apt[1] and apt[1][-2:] == ["systemd", "mosquitto"]


def test_system_deps_fails_if_the_install_did_not_help(tmp_path: Path) -> None:
    fake_bin(tmp_path / "bin", apt_installs=False)
    result = run_system_deps(str(tmp_path / "bin"))
    assert result.returncode != 0
    assert "systemd-analyze" in result.stderr
