"""``progressive-meter``: run the central meter, or read it (status, history, verify).

Exit status: 0 done; 2 bad arguments; 65 (EX_DATAERR) the store is damaged or the configuration
changes a running progressive; 78 (EX_CONFIG) the configuration is wrong; 74 (EX_IOERR) the store
could not be written (nothing of that batch was applied or told; the meter said so once and
published "offline" with the reason); 70 (EX_SOFTWARE) the store's process failed or ended unasked
(the meter published "offline" with the reason; systemd starts it again). Anything else is a crash.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .clears import KINDS
from .config import DEFAULT_PATH, ConfigError, MeterConfig, load
from .desk import StoreProcess
from .report import format_history, format_status, history, status
from .sd_notify import notify
from .service import MeterService
from .store import StoreError, open_read_only, verify

log = logging.getLogger(__name__)
EX_DATAERR = 65
EX_IOERR = 74
EX_CONFIG = 78
EX_SOFTWARE = 70


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="progressive-meter", description="The central progressive meter of a link."
    )
    p.add_argument("--version", action="version", version=f"progressive-meter {__version__}")
    p.add_argument(
        "--config", type=Path, default=DEFAULT_PATH, help=f"the TOML configuration ({DEFAULT_PATH})"
    )
    sub = p.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="serve the link (what systemd runs)")
    run.add_argument("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"))
    st = sub.add_parser("status", help="every progressive's meter and every table's state")
    st.add_argument("--json", action="store_true")
    hi = sub.add_parser("history", help="the last records: contributions, awards, declarations, refusals")
    hi.add_argument(
        "--kind", action="append", choices=KINDS, default=[], help="only these kinds (repeatable)"
    )
    hi.add_argument("--awards", action="store_true", help="only awards (the hits paid)")
    hi.add_argument("--table")
    hi.add_argument("--progressive")
    hi.add_argument("--last", type=int, default=20, help="how many records (20)")
    hi.add_argument("--json", action="store_true")
    sub.add_parser("verify", help="check the whole store: its hash chain and every amount")
    sub.add_parser("check-config", help="read the configuration and list every problem")
    return p


def _run(config: MeterConfig) -> int:
    # The store in a process of its own (meter/desk.py), forked before the event loop starts.
    desk = StoreProcess(config)
    log.info(
        "store %s verified: %d records; progressives %s (in the store's process, pid %s)",
        config.store, desk.records, desk.amounts, desk.pid,
    )  # fmt: skip

    async def serve() -> int | None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        service = MeterService(config, desk)
        notify("READY=1")
        await service.run(stop)
        notify("STOPPING=1")
        return None if service.failed is None else EX_SOFTWARE if service.crashed else EX_IOERR

    try:
        failed = asyncio.run(serve())
    finally:
        desk.close()
    return failed or 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        config = load(args.config)
    except ConfigError as exc:
        print(f"progressive-meter: {exc}", file=sys.stderr)
        return EX_CONFIG
    try:
        if args.command == "run":
            logging.basicConfig(
                level=args.log_level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr
            )
            return _run(config)
        if args.command == "status":
            s = status(config)
            print(json.dumps(s, indent=2) if args.json else format_status(s))
        elif args.command == "history":
            kinds = tuple(args.kind) + (("award",) if args.awards else ())
            rows = history(config, kinds, args.table, args.progressive, args.last)
            print(json.dumps(rows, indent=2) if args.json else format_history(rows))
        elif args.command == "verify":
            conn = open_read_only(config.store)
            try:
                ledger, head = verify(conn, config.store)
            finally:
                conn.close()
            print(
                f"{config.store}: {ledger.last_seq} records, hash chain intact (head {head[:16]}), "
                "every amount folds"
            )
        else:
            print(f"{config.path}: ok: link {config.link}, {len(config.progressives)} progressive(s), "
                  f"{len(config.tables)} table(s)")  # fmt: skip
    except StoreError as exc:
        print(f"progressive-meter: {exc}", file=sys.stderr)
        return EX_DATAERR
    except sqlite3.OperationalError as exc:  # disk full, I/O error: the transaction rolled back
        print(f"progressive-meter: {config.store}: the store could not be written: {exc}", file=sys.stderr)
        return EX_IOERR
    return 0


if __name__ == "__main__":
    sys.exit(main())
