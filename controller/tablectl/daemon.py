"""``tablectl`` commands that talk to the running daemon or read its journal (``docs/tablectl.md``).

``status``, ``rounds``, ``recall``, ``export``, ``journal export|verify|new``, ``watch``, ``lamp``,
``test-frame``, ``sniff`` and ``user add|remove``. The API is reached through ``controller.api_client``; the
journal is read with :class:`controller.journal.JournalReader` only (read-only, while the daemon
writes it). A PIN is read with ``getpass`` from the terminal, or one line from standard input when it
is not a terminal (scripts, tests); never from the command line, where ``ps`` and the shell's history
would show it, and never printed.

Exit status as the rest of ``tablectl``: 0 done, 1 a failed check or no daemon on the socket (the
message names the socket), 2 bad input or usage.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import sys
import time
import tomllib
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any, Final, TextIO

from controller.rules.core.dispatch import did_you_mean

from ..api_client import ApiClient, ApiConnectionError, Credentials, request
from ..auth import (
    Authenticator,
    AuthError,
    PinError,
    Role,
    SavedFailures,
    UsersFileError,
    add_user,
    remove_user,
)
from ..cli_args import DECIMAL, WHOLE, whole_number
from ..config import check_config_file
from ..journal import JournalBusy, JournalError
from ..journal.chain_key import key_path, load_key, make_key
from ..journal.marker import read_marker
from ..journal.migrate import migrate
from ..journal.ram_clear import Cleared, ram_clear
from ..rules.core.explain import explain
from ..rules.core.money import format_money
from ..rules.core.record import RecordError, load_record, replay
from ..rules.games import GAMES
from .common import (
    DEFAULT_JOURNAL,
    DEFAULT_SOCKET,
    DEFAULT_USERS_FILE,
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_OK,
    CommandFailed,
    credentials,
    guarded,
    open_reader,
    read_pin,
    run_until_interrupted,
    write_json,
)
from .describe import (
    describe_award,
    describe_frame,
    describe_notification,
    describe_round,
    describe_status,
)

#: ``tablectl lamp SEAT accepted|won``: the GPIO's lamp names (hw/gpio.py).
_LAMPS: Final = {"accepted": "wager_lamp", "won": "won_lamp"}

#: What ``tablectl test-frame`` sends: the device echoes it back (``TST``, hw/serial_device.py).
TEST_PAYLOAD: Final = b"TEST"

#: The serial devices a table may have, by their configured names (docs/config.md).
SERIAL_DEVICES: Final = ("shoe", "shuffler", "reader")


# --- status ----------------------------------------------------------------------------------------


@guarded
def cmd_status(args: argparse.Namespace) -> int:
    status = request(args.socket, "status")
    if args.json:
        print(json.dumps(status, indent=2))
    else:
        for line in describe_status(status):
            print(line)
    return EXIT_OK


# --- rounds, recall, export --------------------------------------------------------------------------


@guarded
def cmd_rounds(args: argparse.Namespace) -> int:
    if args.journal is not None:
        with open_reader(args.journal) as reader:
            rounds = [r.to_json() for r in reader.recent_rounds(args.n)]
    else:
        rounds = request(args.socket, "list_rounds", {"limit": args.n})["rounds"]
    if args.json:
        print(json.dumps(rounds, indent=2))
        return EXIT_OK
    if not rounds:
        print("no rounds yet")
    for summary in rounds:
        print(describe_round(summary))
    return EXIT_OK


def _recalled(args: argparse.Namespace) -> dict[str, Any]:
    """The round as the API's ``recall_round`` gives it, from the journal file or the daemon."""
    if args.journal is not None:
        with open_reader(args.journal) as reader:
            recalled = reader.recall(args.round)
        return {
            "summary": recalled.summary.to_json(),
            "record": recalled.record,
            "replayed": None if recalled.replayed is None else recalled.replayed.to_json(),
            "consistent": recalled.consistent,
            "waiting_for": recalled.waiting_for,
        }
    result: dict[str, Any] = request(args.socket, "recall_round", {"round": args.round}, credentials(args))
    return result


@guarded
def cmd_recall(args: argparse.Namespace) -> int:
    recalled = _recalled(args)
    summary = recalled["summary"]
    print(describe_round(summary))
    try:
        record = load_record(recalled["record"], GAMES, f"round {args.round}")
    except RecordError as exc:
        raise CommandFailed(f"round {args.round}: the journal's record cannot be read: {exc}") from None
    if recalled.get("replayed") is None:
        print(f"Round not complete: waiting for {recalled.get('waiting_for') or '?'}")
        for i, event in enumerate(record.events, start=1):
            print(f"  {i:>3}. {event}")
        return EXIT_OK
    for line in explain(record, replay(record)):
        print(line)
    for award in summary.get("awards", ()):
        print(f"seat {award.get('seat')} {award.get('wager')}: {describe_award(award)}")
    if not recalled.get("consistent", True):
        print(
            f"tablectl: error: round {args.round}: the journaled settlement differs from the replay today",
            file=sys.stderr,
        )
        return EXIT_FAILED
    return EXIT_OK


@guarded
def cmd_export(args: argparse.Namespace) -> int:
    if args.journal is not None:
        with open_reader(args.journal) as reader:
            record = reader.export_round(args.round)
    else:
        record = request(args.socket, "export_round", {"round": args.round}, credentials(args))
    write_json(record, args.output)
    return EXIT_OK


@guarded
def cmd_journal_export(args: argparse.Namespace) -> int:
    with open_reader(args.journal) as reader:
        out: TextIO
        with contextlib.ExitStack() as stack:
            if args.output is None or args.output == "-":
                out = sys.stdout
            else:
                try:
                    out = stack.enter_context(open(args.output, "w", encoding="utf-8"))
                except OSError as exc:
                    raise CommandFailed(
                        f"cannot write {args.output}: {exc.strerror}", EXIT_BAD_INPUT
                    ) from None
            after, count = 0, 0
            # In pages: a year's journal does not fit in a Pi's memory at once.
            while batch := reader.records(after, 1000):
                for record in batch:
                    out.write(json.dumps(record.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n")
                count += len(batch)
                after = batch[-1].seq
    if args.output not in (None, "-"):
        print(f"wrote {count} record(s) to {args.output}", file=sys.stderr)
    return EXIT_OK


@guarded
def cmd_journal_verify(args: argparse.Namespace) -> int:
    """The whole check (docs/journal.md "Integrity"): exit 0 and what was verified, or exit 1
    and the first bad seq (a journal the daemon would refuse)."""
    started = time.monotonic()
    with open_reader(args.journal) as reader:
        try:
            given = None if args.key is None else load_key(args.key, reader.table_id)
            table_key = reader.table_key(given)
            state = reader.verify(given)
        except JournalError as exc:
            raise CommandFailed(f"journal refused: {exc}") from None
    marker = read_marker(args.journal, table_key.key, unkeyed_too=table_key.keyed_from is None)
    seconds = time.monotonic() - started
    shutdown = (
        "closed by the daemon" if marker is not None and marker.clean else "open, or not closed cleanly"
    )
    committed = marker.head.seq if marker is not None else 0
    if table_key.keyed_from is None:
        chain = (
            "the hash chain (plain SHA-256: made before the chain was keyed; the daemon keys it at "
            "its next start)"
        )
    elif table_key.keyed_from == 1:
        chain = "the keyed hash chain (HMAC-SHA256, the table's chain key)"
    else:
        keyed = table_key.keyed_from
        chain = f"the hash chain (SHA-256 to seq {keyed - 1}, keyed from seq {keyed})"
    print(
        f"{args.journal}: {state.last_seq} record(s), {chain} whole from seq 1, "
        f"not behind its head marker (seq {committed}, {shutdown}); every record folds; "
        f"verified in {seconds:.1f} s"
    )
    return EXIT_OK


@guarded
def cmd_journal_key(args: argparse.Namespace) -> int:
    """Make the table's chain key at install (docs/journal.md "The chain key"): in the journal's
    directory, mode 0400, owned by that directory's owner (the daemon's user) when run as root.
    An existing journal is keyed by the daemon at its next start (the migration, journaled)."""
    directory = args.journal.parent
    if not directory.is_dir():
        raise CommandFailed(f"{directory}: no such directory (the daemon's state directory)")
    path = key_path(args.journal, args.table)
    info = directory.stat()
    owner = (info.st_uid, info.st_gid) if os.geteuid() == 0 and info.st_uid != 0 else None
    if args.journal.exists():
        with open_reader(args.journal) as reader:
            if reader.table_id != args.table:
                raise CommandFailed(
                    f"{args.journal} is table {reader.table_id!r}'s journal, not {args.table!r}'s"
                )
            if reader.table_key().keyed_from is None:
                raise CommandFailed(
                    f"{args.journal} was made before the chain was keyed: start the daemon, which makes "
                    "the key and journals the migration (docs/journal.md, 'The chain key')"
                )
    try:
        make_key(path, args.table, owner)
    except JournalError as exc:
        raise CommandFailed(str(exc)) from None
    print(
        f"{path}: the chain key of table {args.table} (mode 0400); without it the journal cannot be "
        "verified: a sealed copy goes to surveillance, never beside the journal"
    )

    return EXIT_OK


@guarded
def cmd_journal_migrate(args: argparse.Namespace) -> int:
    """The journal's schema moved forward to this version's, then verified (docs/install.md: the
    package's upgrade runs it with the daemon stopped)."""
    try:
        done = migrate(args.journal)
    except JournalBusy as exc:
        raise CommandFailed(f"{exc}; stop the daemon first (systemctl stop table-controller)") from None
    except JournalError as exc:
        raise CommandFailed(f"not migrated: {exc}") from None
    if done.from_version == done.to_version:
        print(
            f"{args.journal}: schema version {done.to_version}, this version's: nothing to migrate; verified"
        )
    else:
        print(
            f"{args.journal}: schema version {done.from_version} -> {done.to_version}; "
            f"{done.records} record(s) verified"
        )
    return EXIT_OK


@guarded
def cmd_journal_new(args: argparse.Namespace) -> int:
    """A RAM clear (docs/journal.md "RAM clear"): a technician with PIN, the daemon stopped."""
    pin = read_pin(f"PIN for {args.user}: ")

    # Kept beside the journal, so that the next run counts on (each run is a new process).
    saved = SavedFailures(args.journal.with_name(args.journal.name + ".pin-failures"))

    async def clear() -> Cleared:
        authenticator = Authenticator(args.users_file)
        try:
            saved.check(args.user)
            try:
                user = await authenticator.authenticate(args.user, pin, "(tablectl journal new)")
            except AuthError as exc:
                raise (saved.failed(args.user) if exc.code == "auth_failed" else exc) from None
            saved.succeeded(args.user)
        except AuthError as exc:
            raise CommandFailed(f"{exc.message}", EXIT_FAILED) from None
        if user.role is not Role.TECH:
            raise CommandFailed(f"user {user.name!r} is {user.role}; a RAM clear is for a technician")
        return await ram_clear(args.journal, user.name)

    try:
        cleared = asyncio.run(clear())
    except JournalBusy as exc:
        raise CommandFailed(f"{exc}; stop the daemon first (systemctl stop table-controller)") from None
    except JournalError as exc:
        raise CommandFailed(f"no RAM clear: {exc}") from None
    meters = ", ".join(f"{k} {format_money(v)}" for k, v in cleared.meters.items()) or "none"
    print(
        f"archived {cleared.archive} (seq {cleared.previous_seq}, hash {cleared.previous_hash[:16]}...); "
        f"new journal {args.journal} of table {cleared.table_id}, chained to it; "
        f"meters carried over: {meters}; the progressive link counts on from record {cleared.link_seq}, "
        f"outbox message {cleared.link_outbox_seq}; RAM clear by {args.user}"
        + (
            f"; the clear is told to the central meter (outbox message {cleared.link_outbox_seq + 1}, "
            "sent when the daemon starts with the link up)"
            if cleared.link_outbox_seq
            else ""
        )
    )
    return EXIT_OK


# --- watch -----------------------------------------------------------------------------------------


async def _watch(socket: Path, count: int | None, as_json: bool) -> None:
    async with await ApiClient.connect(socket) as api:
        snapshot = await api.subscribe()
        print("watching " + str(socket) + "; Ctrl-C to stop", file=sys.stderr)
        print(
            json.dumps({"topic": "snapshot", "data": snapshot})
            if as_json
            else "now    " + "; ".join(describe_status(snapshot)),
            flush=True,
        )
        seen = 0
        async for note in api.notifications():
            line = (
                json.dumps({"topic": note.topic, "data": dict(note.data)})
                if as_json
                else describe_notification(note.topic, note.data)
            )
            print(line, flush=True)
            seen += 1
            if count is not None and seen >= count:
                return
        raise ApiConnectionError(f"{socket}: the daemon closed the connection")


@guarded
def cmd_watch(args: argparse.Namespace) -> int:
    run_until_interrupted(_watch(args.socket, args.count, args.json))
    return EXIT_OK


# --- diagnostics -----------------------------------------------------------------------------------


@guarded
def cmd_lamp(args: argparse.Namespace) -> int:
    lamp = f"seats.{args.seat}.{_LAMPS[args.which]}"
    on = args.state == "on"
    request(args.socket, "toggle_lamp", {"lamp": lamp, "on": on}, credentials(args))
    print(f"seat {args.seat} {args.which} lamp: {args.state}")
    return EXIT_OK


@guarded
def cmd_test_frame(args: argparse.Namespace) -> int:
    result = request(
        args.socket,
        "send_test_frame",
        {"device": args.device, "frame": TEST_PAYLOAD.hex(" ")},
        credentials(args),
    )
    print(f"{args.device}: test frame echoed in {result.get('round_trip_ms')} ms")
    return EXIT_OK


# --- sniff -----------------------------------------------------------------------------------------


def check_device_name(device: str) -> None:
    """A device name ``tablectl sniff`` can know without the daemon; ``CommandFailed`` (bad input)
    with a "did you mean" otherwise."""
    if device in SERIAL_DEVICES:
        return
    hint = did_you_mean(device, SERIAL_DEVICES, 0.5)
    raise CommandFailed(f"no device {device!r}{hint} (devices: {', '.join(SERIAL_DEVICES)})", EXIT_BAD_INPUT)


def _check_configured(device: str, configured: Collection[str]) -> None:
    if device not in configured:
        listed = ", ".join(sorted(configured)) or "none"
        raise CommandFailed(
            f"the {device} is not configured on this table (its serial devices: {listed})", EXIT_BAD_INPUT
        )


async def _sniff(
    socket: Path, device: str, auth: Credentials | None, count: int | None, seconds: float | None, raw: bool
) -> None:
    async with await ApiClient.connect(socket) as api:
        devices = (await api.status()).get("devices") or {}
        _check_configured(device, devices)
        await api.subscribe(["frames"], auth=auth)
        state = devices[device].get("state") if isinstance(devices[device], Mapping) else None
        print(
            f"sniffing the {device} ({state}) on {socket}; times in UTC; Ctrl-C to stop",
            file=sys.stderr,
            flush=True,
        )
        seen = 0
        try:
            async with asyncio.timeout(seconds):
                async for note in api.notifications():
                    if note.topic == "dropped":
                        print(
                            f"tablectl: {note.data.get('count')} frame(s) not shown: "
                            "this terminal read them too slowly",
                            file=sys.stderr,
                            flush=True,
                        )
                        continue
                    if note.topic != "frames" or note.data.get("device") != device:
                        continue
                    print(describe_frame(note.data, raw), flush=True)
                    seen += 1
                    if count is not None and seen >= count:
                        return
        except TimeoutError:
            return  # --seconds are up
        raise ApiConnectionError(f"{socket}: the daemon closed the connection")


@guarded
def cmd_sniff(args: argparse.Namespace) -> int:
    check_device_name(args.device)
    auth = credentials(args)
    run_until_interrupted(_sniff(args.socket, args.device, auth, args.count, args.seconds, args.raw))
    return EXIT_OK


# --- users -----------------------------------------------------------------------------------------


@guarded
def cmd_user_add(args: argparse.Namespace) -> int:
    pin = read_pin(f"new PIN for {args.name}: ")
    again = read_pin(f"the PIN again for {args.name}: ")
    if pin != again:
        raise CommandFailed("the two PINs differ; nothing changed", EXIT_BAD_INPUT)
    try:
        add_user(args.users_file, args.name, args.role, pin, replace=args.replace)
    except (PinError, UsersFileError, ValueError) as exc:
        raise CommandFailed(str(exc), EXIT_BAD_INPUT) from None
    except OSError as exc:
        raise CommandFailed(f"{args.users_file}: {exc.strerror or exc}") from None
    print(f"{'replaced' if args.replace else 'added'} user {args.name} ({args.role}) in {args.users_file}")
    return EXIT_OK


@guarded
def cmd_user_remove(args: argparse.Namespace) -> int:
    try:
        user = remove_user(args.users_file, args.name)
    except UsersFileError as exc:
        raise CommandFailed(str(exc), EXIT_BAD_INPUT) from None
    except OSError as exc:
        raise CommandFailed(f"{args.users_file}: {exc.strerror or exc}") from None
    print(f"removed user {args.name} ({user.role}) from {args.users_file}")
    return EXIT_OK


# --- check -----------------------------------------------------------------------------------------


def is_daemon_config(text: str) -> bool:
    """The daemon's configuration has a ``[table]`` or a ``[gpio]`` section; a Rules Submission
    has neither (its ``table`` is a key). The package's defaults have no ``[table]``: the table's
    own is in a drop-in (:func:`controller.config.load_config`)."""
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return False  # parse_submission says what is wrong with it
    return any(isinstance(data.get(section), dict) for section in ("table", "gpio"))


def check_daemon_config(path: str) -> int:
    """``tablectl check`` of the daemon's configuration: every problem at once, exit 1 if any."""
    problems = check_config_file(Path(path))
    if problems:
        for problem in problems:
            print(f"{path}: {problem}", file=sys.stderr)
        return EXIT_FAILED
    print(f"{path}: the daemon's configuration: valid")
    return EXIT_OK


# --- the parser --------------------------------------------------------------------------------------


def _socket_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--socket",
        type=Path,
        default=DEFAULT_SOCKET,
        help=f"the daemon's API socket (default {DEFAULT_SOCKET})",
    )


def _user_option(parser: argparse.ArgumentParser, role: str) -> None:
    parser.add_argument(
        "--user", help=f"sign in as this {role} (the PIN is asked for, or read from standard input)"
    )


def _source_options(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--journal", type=Path, help="read this journal file directly (read-only)")
    source.add_argument(
        "--socket", type=Path, default=DEFAULT_SOCKET, help=f"ask the daemon (default {DEFAULT_SOCKET})"
    )


def _seconds(text: str) -> float:
    if not DECIMAL.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds (ASCII digits)")
    seconds = float(text)
    if not math.isfinite(seconds) or not 0 < seconds <= 86400:
        raise argparse.ArgumentTypeError(f"{text} seconds: give more than 0 and at most 86400 (a day)")
    return seconds


def _seat(text: str) -> int:
    if not WHOLE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"seat {text!r} is not a whole number (ASCII digits)")
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"seat {n} is not a seat (seats count from 1)")
    return n


def add_daemon_commands(sub: Any) -> None:
    """Add the daemon's commands to ``tablectl``'s subcommands (``sub``: ``add_subparsers()``'s result)."""
    status = sub.add_parser("status", help="the daemon's state: game, round, lock-out, devices, link")
    _socket_option(status)
    status.add_argument("--json", action="store_true", help="print the API's JSON")
    status.set_defaults(func=cmd_status)

    rounds = sub.add_parser("rounds", help="the last rounds, newest first")
    _source_options(rounds)
    rounds.add_argument("-n", type=whole_number(1, 100), default=10, help="how many (1-100, default 10)")
    rounds.add_argument("--json", action="store_true", help="print JSON")
    rounds.set_defaults(func=cmd_rounds)

    recall = sub.add_parser("recall", help="one round in words, citing the sections")
    recall.add_argument("round", help="the round's id (see 'tablectl rounds')")
    _source_options(recall)
    _user_option(recall, "floorperson or technician (needed through the daemon)")
    recall.set_defaults(func=cmd_recall)

    export = sub.add_parser("export", help="one round as a round record for 'tablectl replay'")
    export.add_argument("round", help="the round's id (see 'tablectl rounds')")
    export.add_argument("-o", "--output", help="write to this file (default standard output)")
    _source_options(export)
    _user_option(export, "floorperson or technician (needed through the daemon)")
    export.set_defaults(func=cmd_export)

    journal = sub.add_parser("journal", help="the journal file: export, verify, migrate, new (RAM clear)")
    journal_sub = journal.add_subparsers(dest="journal_command", required=True, metavar="ACTION")
    jexport = journal_sub.add_parser("export", help="every record as JSON lines")
    _journal_option(jexport)
    jexport.add_argument("-o", "--output", help="write to this file (default standard output)")
    jexport.set_defaults(func=cmd_journal_export)
    jverify = journal_sub.add_parser(
        "verify", help="the whole check the daemon runs at start: hash chain, head marker, fold"
    )
    _journal_option(jverify)
    jverify.add_argument(
        "--key",
        type=Path,
        help="the table's chain key (default: its key file beside the journal, <table>.chain-key)",
    )
    jverify.set_defaults(func=cmd_journal_verify)
    jkey = journal_sub.add_parser(
        "key",
        help="make the table's chain key at install (mode 0400, the daemon's user); never replaces one",
    )
    _journal_option(jkey)
    jkey.add_argument("--table", required=True, help="the table's id (table.id in the configuration)")
    jkey.set_defaults(func=cmd_journal_key)
    jmigrate = journal_sub.add_parser(
        "migrate", help="move the journal's schema forward to this version's, then verify it (daemon stopped)"
    )
    jmigrate.add_argument(
        "--journal", type=Path, default=DEFAULT_JOURNAL, help=f"the journal (default {DEFAULT_JOURNAL})"
    )
    jmigrate.set_defaults(func=cmd_journal_migrate)
    jnew = journal_sub.add_parser(
        "new",
        help="RAM clear: archive the journal, begin a new one chained to it (technician, daemon stopped)",
    )
    _journal_option(jnew)
    jnew.add_argument("--user", required=True, help="the technician (the PIN is asked for)")
    jnew.add_argument(
        "--users-file", type=Path, default=DEFAULT_USERS_FILE, help=f"default {DEFAULT_USERS_FILE}"
    )
    jnew.set_defaults(func=cmd_journal_new)

    watch = sub.add_parser("watch", help="live events and state from the daemon until Ctrl-C")
    _socket_option(watch)
    watch.add_argument("--count", type=whole_number(1, 100), help="stop after this many notifications")
    watch.add_argument("--json", action="store_true", help="one JSON object a line")
    watch.set_defaults(func=cmd_watch)

    lamp = sub.add_parser("lamp", help="turn a seat's lamp on or off (technician; between rounds)")
    lamp.add_argument("seat", type=_seat, help="the seat")
    lamp.add_argument("which", choices=sorted(_LAMPS), help="the wager-accepted or the progressive-won lamp")
    lamp.add_argument("state", choices=["on", "off"])
    _socket_option(lamp)
    _user_option(lamp, "technician")
    lamp.set_defaults(func=cmd_lamp)

    frame = sub.add_parser("test-frame", help="send a device a test frame and time its echo (technician)")
    frame.add_argument("device", choices=["shoe", "shuffler", "reader"])
    _socket_option(frame)
    _user_option(frame, "technician")
    frame.set_defaults(func=cmd_test_frame)

    sniff = sub.add_parser(
        "sniff", help="show a serial device's frames both ways as they pass (technician; until Ctrl-C)"
    )
    sniff.add_argument("device", help=f"the device: {', '.join(SERIAL_DEVICES)}")
    sniff.add_argument(
        "--count", type=whole_number(1, 1_000_000), help="stop after this many frames of the device"
    )
    sniff.add_argument("--seconds", type=_seconds, help="stop after this many seconds")
    sniff.add_argument("--raw", action="store_true", help="each frame's bytes in hexadecimal")
    _socket_option(sniff)
    _user_option(sniff, "technician")
    sniff.set_defaults(func=cmd_sniff)

    user = sub.add_parser("user", help="add or remove a floorperson's or technician's sign-in")
    user_sub = user.add_subparsers(dest="user_command", required=True, metavar="ACTION")
    add = user_sub.add_parser("add", help="add a user; the PIN is asked for twice")
    add.add_argument("name")
    add.add_argument("--role", required=True, choices=[r.value for r in Role])
    add.add_argument("--replace", action="store_true", help="set a new role and PIN for an existing user")
    add.add_argument(
        "--users-file", type=Path, default=DEFAULT_USERS_FILE, help=f"default {DEFAULT_USERS_FILE}"
    )
    add.set_defaults(func=cmd_user_add)
    remove = user_sub.add_parser("remove", help="remove a user")
    remove.add_argument("name")
    remove.add_argument(
        "--users-file", type=Path, default=DEFAULT_USERS_FILE, help=f"default {DEFAULT_USERS_FILE}"
    )
    remove.set_defaults(func=cmd_user_remove)


def _journal_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--journal", type=Path, default=DEFAULT_JOURNAL, help=f"the journal (default {DEFAULT_JOURNAL})"
    )
