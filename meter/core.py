"""The meter's judgement of what the tables sent: a batch read, checked, ordered, applied in one
store transaction, and the words to tell the tables made, in one blocking call.

The service (:mod:`.service`) holds the broker's connection and hands this the messages as they
came (topic and payload), a batch at a time; it gets back what to publish, already encoded, and
publishes it only then: every word it tells is of a committed transaction. This runs in a
process of its own in the meter as systemd runs it (:mod:`.desk`, so that reading the broker and
applying to the store use two cores), or in a thread of the service's process (the tests that
look into its store while it serves): the same code either way.

What is not a table's own message on its own topic (unknown table, another site, a table id
that is not the topic's, a broken message) is counted and logged, and changes nothing; a message
refused by its content is a record of its own (a refusal, the table told why).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from wire import (
    Ack,
    MeterMessage,
    TableMessage,
    TopicRef,
    Verdict,
    WireError,
    decode_envelope,
    decode_table_message,
    decode_table_status,
    encode,
)
from wire.errors import clip

from .clears import last_clears
from .config import MeterConfig
from .ledger import Broken, Item
from .notices import UNKNOWN, Notices, digest
from .sequencer import Sequencer
from .store import Applied, Store, StoreFailed
from .witness import Witness, witness_path

log = logging.getLogger(__name__)

Arrived = tuple[str, bytes | str]
"""A message as the broker delivered it: its topic and its payload."""
Word = tuple[str, bytes, bool]
"""What the meter publishes: the topic, the encoded message, retained or not (QoS 1 always)."""


@dataclass(frozen=True)
class Told:
    """A batch's outcome: the words to publish (in order), and the counts the service shows."""

    words: list[Word]
    ignored: Counter[str]
    table_status: dict[str, str]
    failed: str | None = None
    """Why the store failed (nothing of the batch was committed; nothing of it is to be told)."""


@dataclass
class _Batch:
    ready: list[Item] = field(default_factory=list)
    duplicates: list[Item] = field(default_factory=list)
    acks: set[str] = field(default_factory=set)


class MeterCore:
    """The store, the sequencer, the witness and the notices of one meter: one call at a time."""

    def __init__(self, config: MeterConfig, store: Store) -> None:
        self.config = config
        self.store = store
        self.topics = config.topics
        self.sequencer = Sequencer(store.applied_seqs())
        self.notices = Notices(log)
        self.witness = Witness(witness_path(store.path))
        self.witness.recover(last_clears(store.conn))
        self.table_status: dict[str, str] = {}
        self._strangers: set[str] = set()
        """Tables not of this link that sent an event, to be told so (once each, per connection)."""
        self._told_strangers: set[str] = set()
        self._refs: dict[str, TopicRef] = {}
        """Each linked table's topics as parsed (the same topic string is parsed once)."""

    def _told(self, words: list[Word], failed: str | None = None) -> Told:
        return Told(words, Counter(self.notices.counts), dict(self.table_status), failed)

    def opening(self) -> list[Word]:
        """Every amount and every ack (retained), as the meter says them at each connect; the
        tables not of the link are told again on this connection if they send again."""
        self._told_strangers.clear()
        ledger = self.store.ledger
        words = [
            (self.topics.amount(p.id), encode(p.amount_message()), True)
            for p in ledger.progressives.values()
            if p.id in self.config.progressives
        ]
        words += [
            (self.topics.ack(t.id), encode(self.witness.ack(t.ack_message())), True)
            for t in ledger.tables.values()
            if t.id in self.config.tables
        ]
        return words

    def take(self, arrived: Sequence[Arrived]) -> Told:
        """Read, order and apply ``arrived`` as one batch (one transaction, one fsync), then say
        what to tell: each reply (an award, a closed, a refusal), each changed progressive's
        amount, each table's ack, and why a stranger is not heard. A duplicate is acknowledged
        again, and a hit sent again gets its recorded award again."""
        items = [i for i in (self._item(topic, payload) for topic, payload in arrived) if i is not None]
        if not items and not self._strangers:
            return self._told([])
        batch = self._sort(items)
        try:
            applied = self._apply(batch)
        except StoreFailed as exc:
            return self._told([], str(exc))
        words: list[Word] = []
        progressives: set[str] = set()
        for a in applied:
            if a.duplicate and a.message.message_id != a.record.message_id:
                self.notices.note(
                    "conflicting duplicate", a.message.table, a.message.seq,
                    f"message id {a.message.message_id} is not the applied {a.record.message_id}: "
                    "acknowledged again, nothing of it applied",
                )  # fmt: skip
                continue
            if a.reply is not None:
                words.append((self.topics.reply(a.message.table), encode(a.reply), False))
            if (
                not a.duplicate
                and a.record.progressive is not None
                and a.record.kind in ("contribution", "award", "paid", "void")
            ):
                progressives.add(a.record.progressive)
        ledger = self.store.ledger
        for pid in sorted(progressives):
            words.append((self.topics.amount(pid), encode(ledger.progressives[pid].amount_message()), True))
        for table in sorted(batch.acks):
            ack = self.witness.ack(ledger.table(table).ack_message())
            words.append((self.topics.ack(table), encode(ack), True))
        words += self._tell_strangers()
        return self._told(words)

    # -- reading --

    def _item(self, topic: str, payload: bytes | str) -> Item | None:
        """A table's message read whole, or refused by its seq (its envelope whole, its body not);
        ``None`` for what is not a table's own message on its own topic (counted and logged)."""
        ref = self._refs.get(topic)
        if ref is None:
            try:
                ref = self.topics.parse(topic)
            except WireError as exc:
                self.notices.note("not a topic of the link", UNKNOWN, None, str(exc), payload)
                return None
            if ref.table in self.config.tables:  # bounded: two topics a linked table, no stranger's
                self._refs[topic] = ref
        if ref.channel not in ("event", "table_status"):
            return None  # the meter's own topics (and its echoes)
        table = self.config.tables.get(ref.table)
        if table is None:
            self.notices.note("not a table of this link", UNKNOWN, None, topic, payload)
            if ref.channel == "event" and ref.table not in self._told_strangers:
                self._strangers.add(ref.table)
            return None
        if table.site != ref.site:
            detail = f"published under site {ref.site!r}, but it is at site {table.site!r}"
            self.notices.note("wrong site", table.id, None, detail, payload)
            return None
        try:
            if ref.channel == "table_status":
                self.table_status[table.id] = decode_table_status(payload, ref).status
                return None
            return decode_table_message(payload, ref)
        except WireError as exc:
            try:
                env = decode_envelope(payload, ref)
            except WireError:
                self.notices.note("not a valid message", table.id, None, str(exc), payload)
                return None
            self.notices.note("refused", table.id, env.seq, str(exc), payload)
            return Broken(
                env.table, env.seq, env.message_id, env.kind, exc.field, exc.problem, digest(payload)
            )

    def _sort(self, items: Iterable[Item]) -> _Batch:
        batch = _Batch()
        for item in items:
            offered = self.sequencer.offer(item)
            if offered.duplicate:
                batch.duplicates.append(item)
            elif offered.too_far:
                self.notices.note(
                    "seq too far ahead", item.table, item.seq,
                    f"the meter has applied its seq {self.sequencer.applied_seq(item.table)}; dropped",
                )  # fmt: skip
            elif offered.gap:
                log.debug(
                    "table %s seq %d waits for seq %d",
                    item.table,
                    item.seq,
                    self.sequencer.applied_seq(item.table) + 1,
                )
            batch.ready.extend(offered.ready)
            batch.acks.add(item.table)
        return batch

    # -- applying --

    def _apply(self, batch: _Batch) -> list[Applied]:
        applied = self.store.apply(batch.ready)
        # Before the acks go out; a message refused unread (Broken) carries no chain head to keep.
        self.witness.note(
            a.message for a in applied if not a.duplicate and isinstance(a.message, TableMessage)
        )
        for m in batch.duplicates:
            earlier = self.store.duplicate(m)
            if earlier is not None:
                applied.append(earlier)
        return applied

    def _tell_strangers(self) -> list[Word]:
        """A table the meter does not link is told why (its ack, retained, with a refused verdict
        and the reason), once per connection: it closes progressive wagering with the meter's
        words, not its own guess (docs/progressive-link.md, "Ack")."""
        words: list[Word] = []
        for table in sorted(self._strangers - self._told_strangers):
            why = (
                f"table {table!r} is not a table of this meter's link {self.config.link!r} (its "
                f"[tables]: {', '.join(sorted(self.config.tables)) or 'none'}): nothing it sends is applied"
            )
            ack: MeterMessage = Ack(table, 0, Verdict(1, False, "table", clip(why, 2000)))
            words.append((self.topics.ack(table), encode(ack), True))
            self._told_strangers.add(table)
        self._strangers.clear()
        return words
