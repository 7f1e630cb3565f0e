"""What the table knows of the central meter: only what came on the meter's topics.

Amounts (each kept only if its ``record_seq`` is higher than the last, so an old retained
amount never replaces a newer one), the retained ack (how far the meter has applied this
table's messages, and its verdict on the table's declaration), the meter's awards and refusals,
and the time of the last word from the meter. :meth:`LinkState.unavailable` says whether
progressive wagering is open. It fails closed (G2S: a progressive device is disabled until its
host is heard; N.J.A.C. 13:69E-1.39B): it opens only once the meter's ack carries an accepted
verdict on this run's declaration (:attr:`LinkState.declared_seq`), and closes again at a refused
declaration, the meter's own "offline", no word from it for ``timeout`` seconds (G2S
noProgInfo), messages the broker took and the meter has not acknowledged for as long, a fault
of the table's own that stopped the link's session (:attr:`LinkState.fault`), or a contribution
the meter refused (:attr:`LinkState.contribution_refusal`: wagers the table would take and the
meter not count).
Each reason is a stable sentence, so the daemon journals it once per cause.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field
from typing import Final

from wire import (
    DEFAULT_AWARD_TIMEOUT,
    Ack,
    Amount,
    Award,
    Closed,
    MeterMessage,
    MeterStatus,
    Refusal,
    format_money,
)

#: The meter's refusals of the table's messages shown in status (the newest), beside their count.
REFUSALS_SHOWN: Final = 10
#: What the meter's ``amount`` says of a ceiling and its overflow, shown as the meter sent it.
_CEILING: Final = ("ceiling", "overflow_to", "overflow_held")


@dataclass
class LinkState:
    """The link as the table sees it; fed by the publisher, read by the daemon and the API."""

    timeout: float
    connected: bool = False
    last_word: float | None = None
    """``time.monotonic()`` of the last message from the meter."""
    last_word_wall: float | None = None
    meter_online: bool = False
    amounts: dict[str, Amount] = field(default_factory=dict)
    ack: Ack | None = None
    unjudged: list[Ack] = field(default_factory=list)
    """The meter's acks not yet compared with the journal (``witness.py``), in the order heard:
    each is judged, not only the newest. The retained ack of a start carries what the meter held
    before it; the meter's ack of this run's first message carries this journal's own head, which
    agrees with a journal rewritten with the key, so judging only the newest let it open."""
    ack_moved: float = field(default_factory=time.monotonic)
    awards: dict[int, Award] = field(default_factory=dict)
    refusals: dict[int, Refusal] = field(default_factory=dict)
    closed: dict[int, Closed] = field(default_factory=dict)
    """The meter's acknowledgements of the table's ``paid``/``void``, by the hit's seq."""
    award_timeout: int = DEFAULT_AWARD_TIMEOUT
    """Seconds a claim waits for its award before it is the floorperson's (the meter's status)."""
    sent_seq: int = 0
    """The highest seq the broker acknowledged this run (its PUBACK; not trusted for more)."""
    unacked_since: float | None = None
    """``time.monotonic()`` since when messages the broker took wait for the meter's ack with no
    ack moving (``None``: the meter has acknowledged everything sent)."""
    forged: int = 0
    """Messages dropped: on no meter topic of this table, or not decodable as the meter's."""
    declared_seq: int = 0
    """The seq of this run's declaration (journaled with ``started``): only a verdict on it, or
    on a later one, opens progressive wagering; an older accepted verdict, retained from before
    the restart, does not."""
    fault: str | None = None
    """A fault of the table's own that stopped the link's last session (``publisher.py``), in
    words: progressive wagering stays closed until a session reads and sends the outbox again."""
    witness_refusal: str | None = None
    """Why the journal is behind or beside the meter's witness (``witness.py``): progressive
    wagering stays closed while the daemon runs."""
    contribution_refusal: str | None = None
    """The meter refused one of the table's contributions (``table_link.py``), in words: a wager
    the table took that the meter never counted; progressive wagering stays closed while the
    daemon runs (a restart, once the table's and the meter's Rules Submissions agree, opens it)."""

    @property
    def applied_seq(self) -> int:
        return 0 if self.ack is None else self.ack.applied_seq

    def heard(self, message: MeterMessage) -> None:
        """Take one decoded message from the meter's topics."""
        now = time.monotonic()
        self.last_word, self.last_word_wall = now, time.time()
        if isinstance(message, Ack):
            if self.ack is None or message.applied_seq > self.ack.applied_seq:
                self.ack_moved = now
                if self.unacked_since is not None:
                    self.unacked_since = None if message.applied_seq >= self.sent_seq else now
            self.ack = message
            self.unjudged.append(message)
        elif isinstance(message, Award):
            self.awards.setdefault(message.seq, message)
        elif isinstance(message, Refusal):
            self.refusals.setdefault(message.seq, message)
        elif isinstance(message, Closed):
            self.closed.setdefault(message.hit_seq, message)
        elif isinstance(message, Amount):
            old = self.amounts.get(message.progressive)
            if old is None or message.record_seq > old.record_seq:
                self.amounts[message.progressive] = message
        elif isinstance(message, MeterStatus):
            self.meter_online = message.status == "online"
            if message.award_timeout_seconds is not None:
                self.award_timeout = message.award_timeout_seconds

    def sent(self, seq: int) -> None:
        """The broker took the table's messages up to ``seq`` (their PUBACK)."""
        if seq > self.sent_seq:
            if self.unacked_since is None and seq > self.applied_seq:
                self.unacked_since = time.monotonic()
            self.sent_seq = seq

    def unavailable(self, now: float | None = None) -> str | None:
        """Why progressive wagering is closed now, in words; ``None`` while it is open."""
        now = time.monotonic() if now is None else now
        if self.witness_refusal is not None:
            return self.witness_refusal
        if self.fault is not None:
            return self.fault
        if self.contribution_refusal is not None:
            return self.contribution_refusal
        verdict = None if self.ack is None else self.ack.verdict
        if verdict is not None and not verdict.accepted:
            return f"the meter refused the table's declaration: {verdict.reason or verdict.field}"
        if self.last_word is None:
            return "meter not heard: no word from the meter since the daemon started"
        if now - self.last_word >= self.timeout:
            return f"no word from the meter for {self.timeout:g} s (the link's timeout)"
        if not self.meter_online:
            return "the meter is offline (its last will)"
        if self.unacked_since is not None and now - self.unacked_since >= self.timeout:
            return f"the meter has stopped acknowledging the table's messages (none for {self.timeout:g} s)"
        if verdict is None or verdict.declaration_seq < self.declared_seq:
            return (
                f"the meter has not accepted the table's declaration (seq {self.declared_seq}) yet: "
                "a table the meter does not know, or a declaration not yet applied"
            )
        return None

    def _newest_refusals(self) -> list[Refusal]:
        """The newest :data:`REFUSALS_SHOWN` by seq, oldest first, without sorting them all."""
        return [self.refusals[seq] for seq in sorted(heapq.nlargest(REFUSALS_SHOWN, self.refusals))]

    def to_json(self, queue_depth: int | None = None) -> dict[str, object]:
        """For the API's status and ``tablectl link``; amounts only as the meter sent them."""
        verdict = None if self.ack is None or self.ack.verdict is None else self.ack.verdict.to_json()
        out: dict[str, object] = {
            "connected": self.connected,
            "meter_online": self.meter_online,
            "witness": {
                "meter": None if self.ack is None or self.ack.witness is None else self.ack.witness.to_json(),
                "refusal": self.witness_refusal,
                "ram_clear": (
                    None if self.ack is None or self.ack.ram_clear is None else self.ack.ram_clear.to_json()
                ),
            },
            "last_word_seconds_ago": (
                None if self.last_word is None else round(time.monotonic() - self.last_word, 3)
            ),
            "last_word_wall": self.last_word_wall,
            "applied_seq": self.applied_seq,
            "sent_seq": self.sent_seq,
            "verdict": verdict,
            "unavailable": self.unavailable(),
            "amounts": {k: format_money(a.amount) for k, a in sorted(self.amounts.items())},
            # The Jackpot Lock: a progressive whose hit is being awarded shows PENDING everywhere.
            "locks": {k: a.pending.to_json() for k, a in sorted(self.amounts.items()) if a.pending},
            # A meter at its maximum: where the excess goes (another progressive or its own overflow).
            "ceilings": {
                k: {key: v for key, v in a.to_json().items() if key in _CEILING}
                for k, a in sorted(self.amounts.items())
                if a.ceiling is not None
            },
            # A refused contribution is a wager the table took that the meter never counted: the
            # floor sees each with the meter's words (a claim refused shows in the round's claims too).
            "refused": {
                "count": len(self.refusals),
                "last": [
                    {"seq": r.seq, "field": r.field, "reason": r.reason} for r in self._newest_refusals()
                ],
            },
            "forged_dropped": self.forged,
            "fault": self.fault,
            "award_timeout_seconds": self.award_timeout,
        }
        if queue_depth is not None:
            out["queue_depth"] = queue_depth
        return out
