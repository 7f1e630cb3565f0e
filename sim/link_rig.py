"""The bench rig's progressive link: a real Mosquitto (the shipped configuration, certificates
made at run time with trustme) and the central meter (``python -m meter run``) beside the
daemon, for ``table-bench --link`` (docs/bench-rig.md). The tests use the same pieces.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Final

from wire import Parameters

from .mosquitto import Broker, Pki

LINK = "floor"
PROGRESSIVE = "cs-floor"
#: The bench rig's Caribbean Stud progressive, as its Rules Submission files it (§ 639a.12(d)).
PARAMS = Parameters(initial=1_000_000, reset=1_000_000, rate=Fraction(18))
#: Caribbean Stud's Progressive paytable B (§ 639a.12(d)(1)), the rows paid from the meter: every
#: progressive at the meter has its paytable (docs/meter.md); the rig's unless a test gives another.
PAYTABLE_B: Final = ('ranking = "high"', 'rows = { "royal flush" = "100%", "straight flush" = "10%" }')


def meter_config(
    root: Path,
    broker: Broker,
    pki: Pki,
    tables: Mapping[str, str],
    progressives: Mapping[str, Parameters] | None = None,
    heartbeat: int = 2,
    paytable: Sequence[str] = (),
    award_timeout: int | None = None,
) -> Path:
    """A meter configuration (TOML) in ``root`` for ``tables`` (id -> site) on ``broker``;
    ``paytable``: the lines of each progressive's paytable (``ranking``, ``rows``; by default
    :data:`PAYTABLE_B`)."""
    root.mkdir(parents=True, exist_ok=True)
    lines = [
        "[link]",
        f'id = "{LINK}"',
        f"heartbeat_seconds = {heartbeat}",
        *([] if award_timeout is None else [f"award_timeout_seconds = {award_timeout}"]),
        "[store]",
        'path = "meter.db"',
        "[broker]",
        f'host = "{broker.host}"',
        f"port = {broker.port}",
        f'ca_file = "{pki.ca_file}"',
        f'cert_file = "{pki.cert("progressive-meter")}"',
        f'key_file = "{pki.key("progressive-meter")}"',
    ]
    for pid, p in (progressives or {PROGRESSIVE: PARAMS}).items():
        j = p.to_json()
        lines += [f"[progressives.{pid}]", *(f'{k} = "{v}"' for k, v in j.items()), *(paytable or PAYTABLE_B)]
    for table, site in tables.items():
        linked = ", ".join(f'"{pid}"' for pid in (progressives or {PROGRESSIVE: PARAMS}))
        lines += [f"[tables.{table}]", f'site = "{site}"', f"progressives = [{linked}]"]
    path = root / "meter.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def meter_process(config: Path, log: Path) -> subprocess.Popen[bytes]:
    """``python -m meter run`` as its own process: the installed ``progressive-meter``."""
    out = open(log, "ab")  # noqa: SIM115 - the process keeps it
    proc = subprocess.Popen(
        [sys.executable, "-m", "meter", "--config", str(config), "run"], stdout=out, stderr=out
    )
    out.close()
    return proc


def link_section(
    root: Path,
    pki: Pki,
    broker: Broker,
    table: str,
    timeout: int = 30,
    meter_ids: Mapping[str, str] | None = None,
) -> str:
    """The daemon's ``[progressive_link]`` for ``table`` (its certificate: the broker takes the
    table's name from it, so no username or password);
    ``meter_ids``: the game's wager name -> the meter's progressive id (by default the
    Progressive Payout Wager on :data:`PROGRESSIVE`)."""
    ids = ", ".join(
        f'{wager} = "{pid}"' for wager, pid in (meter_ids or {"progressive": PROGRESSIVE}).items()
    )
    return f"""
[progressive_link]
host = "{broker.host}"
port = {broker.port}
site = "site-a"
link = "{LINK}"
ca_file = "{pki.ca_file}"
cert_file = "{pki.cert(table)}"
key_file = "{pki.key(table)}"
timeout_seconds = {timeout}
progressives = {{ {ids} }}
"""


@dataclass
class LinkRig:
    """Mosquitto and the meter for one bench table; :meth:`running` starts and stops them."""

    root: Path
    table: str
    pki: Pki
    broker: Broker
    meter: subprocess.Popen[bytes]
    meter_log: Path

    @property
    def daemon_config(self) -> str:
        return link_section(self.root, self.pki, self.broker, self.table)

    @classmethod
    @contextlib.contextmanager
    def running(cls, table: str) -> Iterator[LinkRig]:
        root = Path(tempfile.mkdtemp(prefix="link-"))
        pki = Pki(root / "pki", users=("progressive-meter", table, "observer"))
        broker = Broker(root, pki)
        broker.start()
        meter: subprocess.Popen[bytes] | None = None
        try:
            config = meter_config(root / "meter", broker, pki, {table: "site-a"})
            log = root / "meter.log"
            meter = meter_process(config, log)
            yield cls(root, table, pki, broker, meter, log)
        finally:
            if meter is not None:
                meter.terminate()
                meter.wait(timeout=10)
            broker.stop()
