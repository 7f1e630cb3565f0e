"""The link's identities on a real Mosquitto with the shipped configuration (issue 17 point 2):
a client's certificate names it (CN = its table id, ``progressive-meter``, ``bridge-SITE``),
the broker takes the username from it and binds the client id to it, so no login publishes
as another table or takes another's client id (docs/progressive-link.md, "Security").

The rogue here holds t2's certificate and key and everything else a hostile table could learn:
t1's username and broker password, the meter's and t1's client ids.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import json
import logging
import os
import socket
import ssl
import subprocess
import uuid
from pathlib import Path

import aiomqtt
import pytest
import trustme

from controller.config import check_config_file
from controller.daemon import main as daemon_main
from controller.tablectl.link import doctor
from meter.main import main as meter_main
from sim.bench_rig import TABLE_ID, config_text, example_submission
from sim.link_rig import LINK, PARAMS, PROGRESSIVE, link_section, meter_config
from sim.sim_table import SimTable
from wire import Contribution, TableMessage, Topics
from wire.identity import certificate_name
from wire.reader import MAX_MESSAGE_BYTES

from .meter_link import Link, running_link
from .mosquitto import REPO, Broker, Pki, free_port, tool

TOPICS = Topics(LINK)


def _rogue(
    link: Link,
    *,
    username: str | None = "t2",
    password: str | None = None,
    client_id: str | None = None,
    tls: ssl.SSLContext | None = None,
) -> aiomqtt.Client:
    """A client presenting t2's certificate (or ``tls``), with whatever login it claims."""
    return aiomqtt.Client(
        link.broker.host,
        link.broker.port,
        username=username,
        password=password,
        identifier=client_id or f"rogue-{uuid.uuid4().hex[:6]}",
        tls_context=tls or link.pki.context("t2"),
        timeout=5,
    )


async def _t1_linked(link: Link) -> SimTable:
    """t1 running, declared, one contribution (a $10 wager) applied: the meter at initial + 1.80."""
    t1 = link.table("t1")
    t1.declare()
    t1.contribute(1000)
    await t1.all_acked()
    return t1


def _forged(seq: int) -> bytes:
    """t1's next contribution (one $5 wager), whole and valid: what the rogue wants applied."""
    return TableMessage(
        "t1", seq, str(uuid.uuid4()), seq, "e", None, Contribution(PROGRESSIVE, 1, 500)
    ).encode()


@pytest.mark.asyncio
async def test_another_tables_certificate_publishes_nothing_as_that_table(tmp_path: Path, pki: Pki) -> None:
    """(a) With t2's certificate, every login a rogue can claim (t1's username and password,
    t2's own, none) on t1's topics: nothing reaches the meter, its store is unchanged; and t1's
    message on t2's own topic is refused by the meter (the topic's table is the message's)."""
    async with running_link(tmp_path, pki, {"t1": "site-a", "t2": "site-a"}) as link:
        await _t1_linked(link)
        assert link.store is not None and link.service is not None
        before_seqs, before = link.store.applied_seqs(), link.store.ledger.progressives[PROGRESSIVE].amount
        assert before == PARAMS.initial + 180
        logins = [("t1", pki.passwords["t1"]), ("t2", pki.passwords["t2"]), ("t1", None), (None, None)]
        delivered = []
        for username, password in logins:
            try:
                async with _rogue(link, username=username, password=password) as rogue:
                    for seq in (3, 4, 5):
                        await rogue.publish(TOPICS.table_event("site-a", "t1"), _forged(seq), qos=1)
                        await rogue.publish(TOPICS.table_status("site-a", "t1"), b'{"schema":1}', qos=1)
            except aiomqtt.MqttError as exc:
                delivered.append(f"{username}: refused at connect ({exc})")
        # t1's message on t2's topic: the broker lets t2 publish there, the meter refuses it.
        ignored = link.service.ignored["not a valid message"]
        async with _rogue(link, password=pki.passwords["t2"]) as rogue:
            await rogue.publish(TOPICS.table_event("site-a", "t2"), _forged(3), qos=1)
        await asyncio.sleep(1.0)
        assert link.store.applied_seqs() == before_seqs == {"t1": 2}
        assert link.store.ledger.progressives[PROGRESSIVE].amount == before
        assert link.service.ignored["not a valid message"] == ignored + 1
        assert link.service.table_status.get("t1") == "online"  # t1's status not overwritten
        # Each login connected (the broker takes t2 from the certificate; the password is not asked).
        assert delivered == []


class _Connects(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("connected to the broker"):
            self.count += 1


@pytest.mark.asyncio
async def test_no_login_takes_the_meters_or_a_tables_client_id(tmp_path: Path, pki: Pki) -> None:
    """(b) With t2's certificate, connecting again and again over 4 s with the client id
    ``progressive-meter``, then ``t1``: the meter and t1 stay connected (0 reconnects)."""
    connects = _Connects()
    meter_log = logging.getLogger("meter.service")
    meter_log.addHandler(connects)
    meter_log.setLevel(logging.INFO)
    try:
        async with running_link(tmp_path, pki, {"t1": "site-a", "t2": "site-a"}) as link:
            t1 = await _t1_linked(link)
            assert connects.count == 1 and t1.connects == 1
            rogue_sessions = 0
            for client_id in ("progressive-meter", "t1", "table-t1"):
                deadline = asyncio.get_running_loop().time() + 4 / 3
                while asyncio.get_running_loop().time() < deadline:
                    async with _rogue(link, password=pki.passwords["t2"], client_id=client_id):
                        rogue_sessions += 1
                        await asyncio.sleep(0.3)
            # Both still serve: t1's next contribution is applied and acknowledged.
            t1.contribute(500)
            await t1.all_acked()
            assert rogue_sessions >= 6
            assert (connects.count - 1, t1.connects - 1) == (0, 0), "reconnects of the meter, of t1"
            assert link.store is not None
            assert link.store.ledger.progressives[PROGRESSIVE].amount == PARAMS.initial + 180 + 90
    finally:
        meter_log.removeHandler(connects)


@pytest.mark.asyncio
async def test_a_client_without_the_floors_certificate_is_refused(tmp_path: Path, pki: Pki) -> None:
    """(c) No client certificate, or one self-signed by another CA with CN t1 (and t1's login):
    refused at the TLS handshake; the meter and t1 see nothing."""
    async with running_link(tmp_path, pki, {"t1": "site-a"}) as link:
        t1 = await _t1_linked(link)
        assert link.store is not None
        no_cert = ssl.create_default_context(cafile=str(pki.ca_file))
        other_ca = trustme.CA()
        forged = other_ca.issue_cert("t1.tables.example", common_name="t1")
        self_signed = ssl.create_default_context(cafile=str(pki.ca_file))
        forged.configure_cert(self_signed)
        for what, ctx in (("no certificate", no_cert), ("another CA's certificate", self_signed)):
            with pytest.raises(aiomqtt.MqttError):
                async with _rogue(
                    link, username="t1", password=pki.passwords["t1"], client_id="t1", tls=ctx
                ) as c:
                    await c.publish(TOPICS.table_event("site-a", "t1"), _forged(3), qos=1)
                    pytest.fail(f"{what}: connected")
        await asyncio.sleep(0.5)
        assert link.store.applied_seqs() == {"t1": 2} and t1.connects == 1


@pytest.mark.asyncio
async def test_a_payload_past_16_kib_stops_at_the_broker(tmp_path: Path, pki: Pki) -> None:
    """t1's own login, on its own topic, a message past the link's 16 KiB (under the 20 KiB
    packet limit, so it keeps its connection): the broker drops it (``message_size_limit``),
    the meter never reads it; t1's next message is applied."""
    async with running_link(tmp_path, pki, {"t1": "site-a"}) as link:
        t1 = await _t1_linked(link)
        assert link.service is not None and link.store is not None
        heard = sum(link.service.ignored.values())
        body = json.loads(_forged(3))
        body["pad"] = "z" * (MAX_MESSAGE_BYTES + 100)
        big = json.dumps(body).encode()
        assert MAX_MESSAGE_BYTES < len(big) < 20_000
        async with aiomqtt.Client(
            link.broker.host, link.broker.port, identifier="t1-raw", tls_context=pki.context("t1")
        ) as raw:
            await raw.publish(TOPICS.table_event("site-a", "t1"), big, qos=1)
        await asyncio.sleep(1.0)
        assert sum(link.service.ignored.values()) == heard  # nothing of it reached the meter
        t1.contribute(500)
        await t1.all_acked()
        assert link.store.applied_seqs() == {"t1": 3}


# --- a certificate that names another table: said before anything connects --------------------


def _table_configs(tmp_path: Path, pki: Pki) -> tuple[Path, Path]:
    """Table t1's configuration with t1's certificate, and the same with t2's."""
    submission = example_submission("caribbean-stud").replace(f'table = "{TABLE_ID}"', 'table = "t1"')
    (tmp_path / "rules-submission.toml").write_text(submission, encoding="utf-8")
    base = config_text(tmp_path).replace(f'id = "{TABLE_ID}"', 'id = "t1"')
    broker = Broker(tmp_path, pki)  # its address only: nothing here connects
    good = base + link_section(tmp_path, pki, broker, "t1")
    wrong = good.replace(str(pki.cert("t1")), str(pki.cert("t2"))).replace(
        str(pki.key("t1")), str(pki.key("t2"))
    )
    assert wrong != good
    (tmp_path / "good.toml").write_text(good, encoding="utf-8")
    (tmp_path / "wrong.toml").write_text(wrong, encoding="utf-8")
    return tmp_path / "good.toml", tmp_path / "wrong.toml"


def test_the_table_with_another_tables_certificate_is_told_naming_both_and_the_file(
    tmp_path: Path, pki: Pki, capsys: pytest.CaptureFixture[str]
) -> None:
    """``table-controller --check`` (and the daemon: it does not start), ``tablectl check`` and
    ``tablectl doctor``: t1's configuration with t2's certificate names t2, t1 and the file."""
    good, wrong = _table_configs(tmp_path, pki)
    said = (
        f"[progressive_link] cert_file = \"{pki.cert('t2')}\": the certificate names 't2' (its CN), "
        "not this table ([table] id = \"t1\"); the broker would take this table for 't2'"
    )
    assert daemon_main(["--config", str(good), "--check"]) == 0
    capsys.readouterr()
    assert daemon_main(["--config", str(wrong), "--check"]) == 78
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert daemon_main(["--config", str(wrong)]) == 78  # not only under --check
    assert said in capsys.readouterr().err
    assert any(p.startswith(said) for p in check_config_file(wrong))
    assert not any("certificate names" in p for p in check_config_file(good))
    findings = {f.what: f for f in doctor(wrong, None)}
    identity = findings["certificate identity"]
    assert not identity.ok and identity.detail.startswith(said)
    assert "progressive-link-enroll table t1" in identity.line()
    findings = {f.what: f for f in doctor(good, None)}
    assert findings["certificate identity"].ok
    assert findings["certificate identity"].detail == f"{pki.cert('t1')} names table 't1'"


def test_the_meter_with_a_tables_certificate_is_told(
    tmp_path: Path, pki: Pki, capsys: pytest.CaptureFixture[str]
) -> None:
    """``progressive-meter check-config`` (and ``run``): the meter's certificate must name
    ``progressive-meter``, the ACL's user; t1's is refused naming both and the file."""
    broker = Broker(tmp_path, pki)
    config = meter_config(tmp_path / "meter", broker, pki, {"t1": "site-a"})
    assert meter_main(["--config", str(config), "check-config"]) == 0
    capsys.readouterr()
    config.write_text(config.read_text().replace(str(pki.cert("progressive-meter")), str(pki.cert("t1"))))
    assert meter_main(["--config", str(config), "check-config"]) == 78
    err = capsys.readouterr().err
    assert (
        f"[broker] cert_file: '{pki.cert('t1')}' names 't1' (its CN), not the meter ('progressive-meter'"
        in err
    )
    assert "Traceback" not in err
    assert meter_main(["--config", str(config), "run"]) == 78


# --- enrolment: the certificates progressive-link-enroll makes, on the broker it configures ----

ENROLL = REPO / "packaging" / "progressive-meter" / "progressive-link-enroll"


def _enroll(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "ENROLL_CA_DIR": str(root / "ca"),
        "ENROLL_METER_ETC": str(root / "meter-etc"),
        "ENROLL_MOSQUITTO_ETC": str(root / "mosquitto"),
        "ENROLL_BUNDLES": str(root / "enrolled"),
        "ENROLL_SHARE": str(REPO / "systemd" / "mosquitto"),
    }
    return subprocess.run(["bash", str(ENROLL), *args], env=env, capture_output=True, text=True, timeout=60)


def _enrolled_broker(root: Path) -> tuple[subprocess.Popen[bytes], int]:
    """Mosquitto on the listener, certificates and ACL ``enroll floor`` installed (paths and
    port moved into ``root``, nothing else changed)."""
    mosq = root / "mosquitto"
    port = free_port()
    text = (mosq / "conf.d" / "progressive.conf").read_text()
    assert text == (REPO / "systemd" / "mosquitto" / "mosquitto.conf").read_text()
    for old, new in {
        "/etc/mosquitto/": f"{mosq}/",
        "/var/lib/mosquitto/": f"{root}/",
        "listener 8883": f"listener {port} 127.0.0.1",
    }.items():
        text = text.replace(old, new)
    conf = root / "broker.conf"
    conf.write_text(f"user {getpass.getuser()}\nlog_dest file {root / 'mosquitto.log'}\n" + text)
    proc = subprocess.Popen([tool("mosquitto"), "-c", str(conf)], start_new_session=True)
    return proc, port


@pytest.mark.asyncio
async def test_enrolment_names_each_client_and_the_broker_it_configures_holds_it(tmp_path: Path) -> None:
    """``progressive-link-enroll``: the meter's certificate names ``progressive-meter``, each
    table's its table id, no password anywhere; the meter's or a bridge's name is refused as a
    table's. On the Mosquitto it configured, t1's certificate publishes on t1's topic and t2's
    does not (whatever username it claims)."""
    assert _enroll(tmp_path, "floor", "localhost").returncode == 0
    for table in ("t1", "t2"):
        done = _enroll(tmp_path, "table", table)
        assert done.returncode == 0, done.stderr
    for name in ("progressive-meter", "bridge-site-b"):
        refused = _enroll(tmp_path, "table", name)
        assert refused.returncode == 2 and "not a table's" in refused.stderr
    again = _enroll(tmp_path, "table", "t1")
    assert again.returncode == 2 and "enrolled already" in again.stderr
    bundle = tmp_path / "enrolled" / "t1"
    assert sorted(p.name for p in bundle.iterdir()) == ["broker", "ca.pem", "t1.key", "t1.pem"]
    assert certificate_name(bundle / "t1.pem") == "t1"
    assert certificate_name(tmp_path / "meter-etc" / "progressive-meter.crt") == "progressive-meter"
    assert not any("passw" in p.name for p in tmp_path.rglob("*"))
    proc, port = _enrolled_broker(tmp_path)
    try:

        def tls(name: str, directory: Path) -> ssl.SSLContext:
            ctx = ssl.create_default_context(cafile=str(tmp_path / "ca" / "ca.crt"))
            ctx.load_cert_chain(str(directory / f"{name}.pem"), str(directory / f"{name}.key"))
            return ctx

        meter_dir = tmp_path / "meter-etc"
        (meter_dir / "progressive-meter.pem").write_bytes((meter_dir / "progressive-meter.crt").read_bytes())
        seen: list[tuple[str, bytes]] = []
        for _ in range(100):  # the broker's listener up
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                await asyncio.sleep(0.05)
        async with aiomqtt.Client(
            "localhost", port, identifier="x", tls_context=tls("progressive-meter", meter_dir)
        ) as meter:
            await meter.subscribe(TOPICS.every_table_event(), qos=1)
            for name, username in (("t1", None), ("t2", "t1"), ("t2", None)):
                directory = tmp_path / "enrolled" / name
                async with aiomqtt.Client(
                    "localhost", port, username=username, identifier="t1", tls_context=tls(name, directory)
                ) as client:
                    await client.publish(TOPICS.table_event("site-a", "t1"), f"from {name}".encode(), qos=1)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(1.5):  # all that comes: t1's, and nothing of t2's
                    async for m in meter.messages:
                        assert isinstance(m.payload, bytes)
                        seen.append((m.topic.value, m.payload))
        assert seen == [(TOPICS.table_event("site-a", "t1"), b"from t1")]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
