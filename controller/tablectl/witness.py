"""``tablectl doctor``'s "meter's witness" line: the journal's head beside the central meter's witness.

A slot tech over SSH sees, in one line, the journal's head (read from the journal file) and what
the meter last witnessed of it (docs/progressive-link.md, "The witness"), with the same verdict
the daemon gives (``controller/link/witness.py``): agrees, behind (an older copy put back) or
beside (another journal). The witness is read live:

- from the running daemon (its status: the meter's last ack, and the daemon's own refusal), or,
  when the daemon does not answer,
- from the broker: the meter's retained ack for this table, read with the table's own
  credentials (another client id, nothing published).

Seqs are the link's count (after a RAM clear, on from the archive's: docs/journal.md, "RAM clear").
When neither answers, the line says so, and a mismatch the daemon journaled since its last start
is still shown (its ``witness_mismatch`` fact).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

import aiomqtt

from wire import Ack, ChainHead, Topics, WireError, decode_meter_message

from ..config import Config, ProgressiveLinkSection
from ..journal import JournalError, JournalReader
from ..link.publisher import read_password, tls_context
from ..link.witness import WITNESS_MISMATCH, verdict
from .finding import Finding

#: How long the broker is given to answer (connect, subscribe, the retained ack).
BROKER_SECONDS: Final = 5.0
WHAT: Final = "meter's witness"


@dataclass(frozen=True)
class Heard:
    """The meter's witness and where it was read (``ack`` ``None``: the meter holds none)."""

    ack: Ack | None
    source: str
    refusal: str | None = None
    """The running daemon's own verdict, if it refused."""


def witness_findings(config: Config, status: Mapping[str, Any] | None) -> Iterator[Finding]:
    """The "meter's witness" line(s); ``status``: the running daemon's, if it answered."""
    link = config.progressive_link
    path = config.journal.path
    if link is None or not link.enabled:
        yield Finding(
            True,
            WHAT,
            "none: the table is not linked, so an older copy of the journal and its marker put back "
            "cannot be seen (docs/journal.md, 'The chain key')",
        )
        return
    if not path.exists():
        return  # the journal line says so
    heard = _from_daemon(config.table.id, status) if status is not None else None
    if heard is None:
        heard = _from_broker(link, config.table.id)
    try:
        with JournalReader(path) as reader:
            count = reader.link_count
            last_seq = count.link_seq(reader.last_seq())
            head_hash = reader.hash_at(reader.last_seq()) or count.previous_hash or ""
            last_outbox = reader.last_outbox_seq()
            found = None
            if heard.ack is not None and heard.ack.witness is not None:
                found = reader.witnessed(heard.ack.witness.seq)
            mismatches = reader.facts_since_start(WITNESS_MISMATCH)
    except JournalError:
        return  # the journal line says why
    head = f"journal head seq {last_seq} (hash {head_hash[:16]})"
    if heard.ack is None:
        yield Finding(True, WHAT, f"{head}; {heard.source}")
    else:
        judged = verdict(heard.ack, last_seq, last_outbox, found, count)
        witness = heard.ack.witness
        says = (
            "the meter holds no chain head yet"
            if witness is None
            else f"witness says seq {witness.seq} (hash {witness.hash[:16]})"
        )
        seen = f"{head}, {says}, the meter applied outbox seq {heard.ack.applied_seq} ({heard.source})"
        why = heard.refusal or (None if judged is None else judged[0])
        if why is not None:
            yield Finding(False, WHAT, f"{seen}: {why}")  # the words say what to do
        else:
            tail = "" if found is None or found.checked else f" ({found.where}: not compared)"
            yield Finding(True, WHAT, f"{seen}: the journal holds the witnessed record{tail}")
    if mismatches:
        # The evidence the daemon kept (its verdict since its last start), live or not.
        last = mismatches[-1]
        why = last.body["detail"].get("why", "")
        yield Finding(False, WHAT, f"journaled at seq {last.seq} since the daemon's start: {why}")


def _from_daemon(table: str, status: Mapping[str, Any]) -> Heard | None:
    link = status.get("link")
    if not isinstance(link, Mapping) or "connected" not in link:
        return None  # the daemon runs no link
    witness = (link.get("witness") or {}).get("meter")
    refusal = (link.get("witness") or {}).get("refusal")
    if link.get("last_word_seconds_ago") is None and witness is None:
        return Heard(None, "the running daemon has not heard the meter yet", refusal)
    head = None if witness is None else ChainHead(int(witness["seq"]), str(witness["hash"]))
    clear = (link.get("witness") or {}).get("ram_clear")
    cleared = None if clear is None else ChainHead(int(clear["seq"]), str(clear["hash"]))
    ack = Ack(table, int(link.get("applied_seq") or 0), None, head, cleared)
    return Heard(ack, "live, from the running daemon", refusal)


def _from_broker(link: ProgressiveLinkSection, table: str) -> Heard:
    try:
        return asyncio.run(asyncio.wait_for(_retained_ack(link, table), BROKER_SECONDS))
    except (aiomqtt.MqttError, OSError, TimeoutError) as exc:
        return Heard(None, f"the witness could not be read: the daemon does not answer, the broker: {exc}")


async def _retained_ack(link: ProgressiveLinkSection, table: str) -> Heard:
    topics = Topics(link.link, link.topic_prefix)
    async with aiomqtt.Client(
        link.host,
        link.port,
        username=link.username,
        password=read_password(link.password_file),
        identifier=f"table-{table}-doctor",
        clean_session=True,
        tls_context=tls_context(link),
        timeout=BROKER_SECONDS,
    ) as client:
        await client.subscribe(topics.ack(table), qos=1)
        # The broker sends a subscription's retained messages before it answers the next packet
        # (MQTT 3.1.1 § 4.6): once the second SUBACK is in, a retained ack has come, if any.
        await client.subscribe(topics.reply(table), qos=1)
        messages = client.messages
        while len(messages):
            message = await anext(messages)
            if message.topic.value != topics.ack(table):
                continue
            payload = message.payload if isinstance(message.payload, (bytes, str)) else b""
            try:
                ack = decode_meter_message(payload, topics.parse(message.topic.value))
            except WireError as exc:
                return Heard(None, f"the retained ack on the broker is not the meter's: {exc}")
            if isinstance(ack, Ack) and ack.table == table:
                return Heard(ack, "live, the meter's retained ack on the broker (the daemon does not answer)")
    return Heard(None, "the meter holds no ack for this table (the broker has none retained)")
