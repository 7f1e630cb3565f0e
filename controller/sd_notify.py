"""systemd's service notifications (``sd_notify(3)``) and journald-friendly logs, stdlib only.

The daemon runs as ``Type=notify`` with ``WatchdogSec=`` (``systemd/table-controller.service``,
``docs/systemd.md``). systemd passes two things in the environment:

- ``NOTIFY_SOCKET``: where to send notifications, a Unix datagram socket; a path, or a name in
  the abstract namespace written with a leading ``@``;
- ``WATCHDOG_USEC`` (and ``WATCHDOG_PID``): the watchdog's timeout in microseconds, and which
  process it is meant for.

A notification is one datagram of newline-separated ``KEY=value`` lines: ``READY=1`` once the
daemon serves (the journal recovered, the API listening), ``STATUS=...`` for ``systemctl status``,
``STOPPING=1`` when it begins to shut down, ``WATCHDOG=1`` as the keep-alive, and
``EXTEND_TIMEOUT_USEC=...`` to ask for more start-up time (a long journal to recover).

The keep-alive is sent **from the event loop** (:func:`start_watchdog`), at half the timeout as
``sd_watchdog_enabled(3)`` recommends: if anything blocks the loop, the pings stop, and systemd
kills the daemon (``SIGABRT``; with ``PYTHONFAULTHANDLER=1`` every thread's stack goes to the
journal first) and restarts it, and the journal brings the table back where it was. A thread
that pinged would keep a dead loop looking alive.

Nothing here blocks or raises: each notification is sent on a fresh non-blocking socket
(``MSG_DONTWAIT``), so a busy or absent service manager costs one failed ``sendto`` and a
``False``. Outside systemd (tests, the bench rig, a technician's shell) every call is a no-op
that returns ``False``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, TextIO

log = logging.getLogger(__name__)

NOTIFY_SOCKET: Final = "NOTIFY_SOCKET"
WATCHDOG_USEC: Final = "WATCHDOG_USEC"
WATCHDOG_PID: Final = "WATCHDOG_PID"
JOURNAL_STREAM: Final = "JOURNAL_STREAM"
ENVIRONMENT: Final = (NOTIFY_SOCKET, WATCHDOG_USEC, WATCHDOG_PID)

# sockaddr_un.sun_path: 108 bytes; a path needs its terminating NUL, an abstract name does not.
_SUN_PATH_MAX: Final = 108
# sd_watchdog_enabled(3) recommends a keep-alive at half the timeout.
WATCHDOG_FRACTION: Final = 0.5
# Non-blocking from the start (sendto cannot wait for room) and not inherited by subprocesses.
_SOCKET_TYPE: Final = socket.SOCK_DGRAM | socket.SOCK_CLOEXEC | socket.SOCK_NONBLOCK
# A failed send is logged once per this many failures, so a lost service manager cannot flood the log.
_LOG_EVERY: Final = 100


def parse_address(value: str) -> bytes | None:
    """The socket address in ``$NOTIFY_SOCKET``, as ``sendto`` takes it; ``None`` if unusable.

    ``/run/systemd/notify`` is a path; ``@name`` is ``name`` in the abstract namespace (a NUL
    byte first). ``vsock:`` addresses (a virtual machine's manager) are not used on a table.
    """
    if value.startswith("/"):
        address = os.fsencode(value)
        return address if len(address) < _SUN_PATH_MAX and b"\0" not in address else None
    if value.startswith("@") and len(value) > 1:
        address = b"\0" + os.fsencode(value[1:])
        return address if len(address) <= _SUN_PATH_MAX else None
    return None


def parse_watchdog(environ: Mapping[str, str], pid: int) -> float | None:
    """The watchdog's timeout in seconds, if systemd expects keep-alives from process ``pid``.

    As ``sd_watchdog_enabled(3)``: ``$WATCHDOG_USEC`` a positive integer, and ``$WATCHDOG_PID``
    unset or equal to ``pid`` (a child that inherited the environment must not ping for us).
    """
    raw = environ.get(WATCHDOG_USEC, "")
    if not raw.isdigit() or int(raw) == 0:
        return None
    owner = environ.get(WATCHDOG_PID)
    if owner is not None and (not owner.isdigit() or int(owner) != pid):
        return None
    return int(raw) / 1_000_000


def _one_line(text: str) -> str:
    # Each line of a notification is one assignment: a newline in a status would start another.
    return " ".join(text.splitlines())


def _status_lines(status: str | None) -> tuple[str, ...]:
    return () if status is None else (f"STATUS={_one_line(status)}",)


@dataclass(frozen=True)
class Notifier:
    """Notifications to one service manager; ``address`` ``None`` makes every call a no-op.

    Immutable and socket-less between calls (each send opens and closes its own), so one notifier
    may be shared by the daemon's coroutines and survives anything a caller does with file
    descriptors.
    """

    address: bytes | None
    watchdog_timeout: float | None = None
    """Seconds without a ``WATCHDOG=1`` after which systemd acts; ``None``: no watchdog."""

    @classmethod
    def from_environ(
        cls, environ: Mapping[str, str] | None = None, pid: int | None = None, unset: bool = False
    ) -> Notifier:
        """The notifier systemd set up for this process (``os.environ`` by default).

        ``unset`` removes the variables from ``os.environ`` afterwards (``sd_notify(3)``'s
        ``unset_environment``), so subprocesses the daemon starts do not speak for it.
        """
        env = os.environ if environ is None else environ
        raw = env.get(NOTIFY_SOCKET, "")
        address = parse_address(raw) if raw else None
        if raw and address is None and raw not in _ignored:
            _ignored.add(raw)
            log.warning("sd_notify: ignoring NOTIFY_SOCKET=%r: not a socket path or @abstract name", raw)
        timeout = parse_watchdog(env, os.getpid() if pid is None else pid) if address is not None else None
        if unset:
            for name in ENVIRONMENT:
                os.environ.pop(name, None)
        return cls(address, timeout)

    @property
    def enabled(self) -> bool:
        """Whether there is a service manager to notify."""
        return self.address is not None

    @property
    def watchdog_interval(self) -> float | None:
        """Seconds between keep-alives: half the timeout; ``None`` without a watchdog."""
        return None if self.watchdog_timeout is None else self.watchdog_timeout * WATCHDOG_FRACTION

    def notify(self, *assignments: str) -> bool:
        """Send ``KEY=value`` lines as one datagram; ``True`` if the kernel took it.

        Never blocks (a full queue at the receiver is ``EAGAIN``: the notification is dropped and
        ``False`` returned) and never raises.
        """
        if self.address is None or not assignments:
            return False
        message = "\n".join(assignments).encode("utf-8", "replace")
        try:
            with socket.socket(socket.AF_UNIX, _SOCKET_TYPE) as s:
                s.sendto(message, socket.MSG_DONTWAIT | socket.MSG_NOSIGNAL, self.address)
        except OSError as exc:
            _failed(exc)
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """``READY=1``: start-up is over (systemd starts the units ordered after this one)."""
        return self.notify("READY=1", *_status_lines(status))

    def status(self, text: str) -> bool:
        """``STATUS=...``: one line that ``systemctl status`` shows (newlines become spaces)."""
        return self.notify(f"STATUS={_one_line(text)}")

    def stopping(self, status: str | None = None) -> bool:
        """``STOPPING=1``: shutting down (the watchdog is no longer expected)."""
        return self.notify("STOPPING=1", *_status_lines(status))

    def watchdog(self) -> bool:
        """``WATCHDOG=1``, if systemd expects keep-alives from this process; prefer :meth:`start_watchdog`."""
        return self.notify("WATCHDOG=1") if self.watchdog_timeout is not None else False

    def extend_timeout(self, seconds: float) -> bool:
        """``EXTEND_TIMEOUT_USEC``: ask for ``seconds`` more of start-up (or shut-down) time."""
        return self.notify(f"EXTEND_TIMEOUT_USEC={max(0, round(seconds * 1_000_000))}")

    async def run_watchdog(self, healthy: Callable[[], bool] | None = None) -> None:
        """Ping ``WATCHDOG=1`` every :attr:`watchdog_interval` seconds until cancelled.

        The pings come from this coroutine, so they come only while the loop runs: a blocked
        loop delays them, and past the timeout systemd restarts the daemon. ``healthy``, when
        given, is asked before each ping (on the loop: it must be quick and must not block); while
        it says ``False`` no ping is sent, so a daemon whose loop runs but whose journal writer has
        died is restarted too. Returns at once without a watchdog.
        """
        interval = self.watchdog_interval
        if interval is None:
            return
        sick = False
        while True:
            if healthy is None or _ask(healthy):
                if sick:
                    log.warning("sd_notify: healthy again; watchdog pings resume")
                    sick = False
                self.watchdog()
            elif not sick:
                log.error(
                    "sd_notify: health check failed; withholding watchdog pings (systemd restarts the "
                    "daemon after %.1f s unless it recovers)",
                    self.watchdog_timeout,
                )
                sick = True
            await asyncio.sleep(interval)

    def start_watchdog(self, healthy: Callable[[], bool] | None = None) -> asyncio.Task[None] | None:
        """Start :meth:`run_watchdog` as a task on the running loop; ``None`` without a watchdog.

        Keep the task (the loop holds only a weak reference) and cancel it at shutdown, after
        :meth:`stopping`.
        """
        if self.watchdog_interval is None:
            return None
        return asyncio.get_running_loop().create_task(self.run_watchdog(healthy), name="sd_notify watchdog")


def _ask(healthy: Callable[[], bool]) -> bool:
    try:
        return bool(healthy())
    except Exception:
        # A health check that fails to answer is a failed check; the task must not die of it.
        log.exception("sd_notify: the health check raised")
        return False


_failures = 0
_ignored: set[str] = set()


def _failed(exc: OSError) -> None:
    global _failures
    _failures += 1
    if _failures % _LOG_EVERY == 1:
        log.warning("sd_notify: notification not delivered: %s (%d so far)", exc, _failures)


# --- the process's own notifier ---------------------------------------------------------------------
# Read from the environment at each call (it is a few dictionary look-ups), so nothing goes stale
# if the environment changes.


def notifier() -> Notifier:
    """The notifier for this process, from ``os.environ``."""
    return Notifier.from_environ()


def ready(status: str | None = None) -> bool:
    """``READY=1`` (and a status line) to this process's service manager; see :meth:`Notifier.ready`."""
    return notifier().ready(status)


def status(text: str) -> bool:
    """``STATUS=text``; see :meth:`Notifier.status`."""
    return notifier().status(text)


def stopping(status: str | None = None) -> bool:
    """``STOPPING=1``; see :meth:`Notifier.stopping`."""
    return notifier().stopping(status)


def watchdog() -> bool:
    """One ``WATCHDOG=1``, if systemd expects them from this process; see :meth:`Notifier.watchdog`."""
    return notifier().watchdog()


def extend_timeout(seconds: float) -> bool:
    """``EXTEND_TIMEOUT_USEC``; see :meth:`Notifier.extend_timeout`."""
    return notifier().extend_timeout(seconds)


def start_watchdog(healthy: Callable[[], bool] | None = None) -> asyncio.Task[None] | None:
    """The keep-alive task on the running loop (:meth:`Notifier.start_watchdog`); ``None`` if not needed."""
    return notifier().start_watchdog(healthy)


# --- logs for journald ---------------------------------------------------------------------------

# syslog priorities (RFC 5424) that journald reads from a "<N>" line prefix (SyslogLevelPrefix=yes).
_PRIORITIES: Final = ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4), (logging.INFO, 6))
_DEBUG_PRIORITY: Final = 7


def syslog_priority(levelno: int) -> int:
    """The syslog priority of a ``logging`` level: CRITICAL 2 (crit) ... DEBUG 7 (debug)."""
    for level, priority in _PRIORITIES:
        if levelno >= level:
            return priority
    return _DEBUG_PRIORITY


def connected_to_journal(stream: TextIO | None = None, environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``stream`` (stderr by default) is journald's, by ``$JOURNAL_STREAM`` (``device:inode``)."""
    env = os.environ if environ is None else environ
    value = env.get(JOURNAL_STREAM, "")
    device, _, inode = value.partition(":")
    if not (device.isdigit() and inode.isdigit()):
        return False
    target = sys.stderr if stream is None else stream
    try:
        st = os.fstat(target.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return (st.st_dev, st.st_ino) == (int(device), int(inode))


class JournalFormatter(logging.Formatter):
    """``<3>controller.journal: message``: the priority for journald, no time (journald adds it).

    Every line of a multi-line record (a traceback) gets the prefix, since journald stores each
    line as its own entry; so ``journalctl -u table-controller -p err`` shows the whole traceback.
    """

    def __init__(self, fmt: str = "%(name)s: %(message)s") -> None:
        super().__init__(fmt)

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{syslog_priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines() or [""])


def log_formatter(stream: TextIO | None = None) -> logging.Formatter:
    """:class:`JournalFormatter` when ``stream`` goes to journald, else lines with the time and level."""
    if connected_to_journal(stream):
        return JournalFormatter()
    return logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
