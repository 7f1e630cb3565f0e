"""What every ``tablectl`` command of the daemon shares: defaults, exit status, errors, PIN input.

A command is a function of its arguments wrapped in :func:`guarded`, which turns what can go
wrong (no daemon on the socket, a refusal, a bad journal) into a message and an exit status:
0 done, 1 a failed check or no daemon on the socket, 2 bad input or usage. A PIN is read with
``getpass`` from the terminal, or one line from standard input when it is not a terminal; never
from the command line, and never printed.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import signal
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, Final, TextIO

from ..api_client import ApiConnectionError, ApiError, Credentials
from ..journal import JournalError, JournalReader, UnknownRound

DEFAULT_SOCKET: Final = Path("/run/table-controller/api.sock")
DEFAULT_JOURNAL: Final = Path("/var/lib/table-controller/journal.sqlite")
DEFAULT_USERS_FILE: Final = Path("/etc/table-controller/users.json")

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_BAD_INPUT: Final = 2

#: The daemon's refusals that mean the technician asked for something wrong, not that a check failed.
_BAD_INPUT_CODES: Final = frozenset({"bad_args", "bad_request", "not_found", "unknown_command"})


class CommandFailed(Exception):
    """The command could not do its job; ``code`` is the exit status, the message says why."""

    def __init__(self, message: str, code: int = EXIT_FAILED) -> None:
        super().__init__(message)
        self.code = code


def guarded(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn this module's failures into a message on standard error and the exit status."""

    def run(args: argparse.Namespace) -> int:
        where = getattr(args, "socket", None)
        try:
            return func(args)
        except CommandFailed as exc:
            print(f"tablectl: error: {exc}", file=sys.stderr)
            return exc.code
        except ApiConnectionError as exc:
            # The client's message starts with the socket's path and says what to look at.
            print(f"tablectl: error: cannot reach the daemon: {exc}", file=sys.stderr)
            return EXIT_FAILED
        except ApiError as exc:
            code = EXIT_BAD_INPUT if exc.code in _BAD_INPUT_CODES else EXIT_FAILED
            print(
                f"tablectl: error: the daemon on {where} refused: {exc.code}: {exc.message}", file=sys.stderr
            )
            return code
        except JournalError as exc:
            code = EXIT_BAD_INPUT if isinstance(exc, UnknownRound) else EXIT_FAILED
            print(f"tablectl: error: {exc}", file=sys.stderr)
            return code

    return run


def run_until_interrupted(main: Coroutine[Any, Any, None]) -> None:
    """Run ``main`` to its end, or until Ctrl-C (SIGINT) ends it quietly: a command that follows
    the daemon (``watch``, ``sniff``) until the technician stops it.

    SIGINT goes through the event loop's own handler, which the C-level handler wakes through the
    loop's wake-up pipe. ``asyncio.run``'s Python-level handler runs only when the loop next
    wakes, so a Ctrl-C that came just before the loop went to sleep was seen only at the daemon's
    next notification: at a quiet table, never."""

    async def until_interrupt() -> None:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        interrupted = False

        def interrupt() -> None:
            nonlocal interrupted
            interrupted = True
            task.cancel()

        loop.add_signal_handler(signal.SIGINT, interrupt)
        try:
            await main
        except asyncio.CancelledError:
            if not interrupted:
                raise
            task.uncancel()
        finally:
            loop.remove_signal_handler(signal.SIGINT)

    asyncio.run(until_interrupt())


# --- input -----------------------------------------------------------------------------------------


def read_pin(prompt: str, stdin: TextIO | None = None) -> str:
    """A PIN from the terminal without echo, or one line of standard input when it is not a terminal."""
    stream = sys.stdin if stdin is None else stdin
    if stream.isatty():
        try:
            return getpass.getpass(prompt)
        except EOFError:
            raise CommandFailed("no PIN given", EXIT_BAD_INPUT) from None
    line = stream.readline()
    if not line:
        raise CommandFailed(f"no PIN on standard input ({prompt.strip().rstrip(':')})", EXIT_BAD_INPUT)
    return line.rstrip("\r\n")


def credentials(args: argparse.Namespace) -> Credentials | None:
    if args.user is None:
        return None
    return Credentials(args.user, read_pin(f"PIN for {args.user}: "))


def write_json(value: object, output: str | None) -> None:
    text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    if output is None or output == "-":
        sys.stdout.write(text)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandFailed(f"cannot write {output}: {exc.strerror}", EXIT_BAD_INPUT) from None
    print(f"wrote {output}", file=sys.stderr)


def open_reader(path: Path) -> JournalReader:
    try:
        return JournalReader(path)
    except JournalError as exc:
        raise CommandFailed(str(exc)) from None
