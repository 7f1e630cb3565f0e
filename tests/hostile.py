"""A hostile table's messages, for the meter's fuzz test: every way a login the broker accepts
can try to stop or fool the meter on its own event topic (issue 17's list: reused ids, huge
numbers, wrong types, rewinds, duplicates with another body, oversize), from a seeded
:class:`random.Random` so a failure replays.

:meth:`Hostile.next_message` returns the bytes to publish and a word for what it is; the
hostile's own valid messages (a declaration, contributions) come in the mix too, so the meter
applies some of its messages and refuses the rest, every one by its seq.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from sim.link_rig import PARAMS, PROGRESSIVE
from wire import Contribution, Declaration, Hit, Parameters, Share, TableMessage
from wire.reader import MAX_MESSAGE_BYTES

#: Past the shipped broker's ``max_packet_size`` (20 KiB): the broker disconnects the sender.
OVER_THE_BROKER = 24_000


@dataclass
class Hostile:
    table: str
    rng: random.Random
    others_ids: Callable[[], Sequence[str]]
    """Message ids of other tables' messages (to reuse)."""
    next_seq: int = 1
    sent_ids: list[str] = field(default_factory=list)
    sent: list[dict[str, object]] = field(default_factory=list)
    oversize: bool = True
    """Include messages past the broker's limit (each costs the hostile its connection)."""

    def _valid(self, seq: int, payload: object, message_id: str | None = None) -> dict[str, object]:
        m = TableMessage(self.table, seq, message_id or str(uuid.uuid4()), seq, "e", None, payload)  # type: ignore[arg-type]
        return {"schema": 1, **m.to_json()}

    def _next(self, payload: object, message_id: str | None = None) -> dict[str, object]:
        body = self._valid(self.next_seq, payload, message_id)
        self.next_seq += 1
        return body

    def next_message(self) -> tuple[bytes, str]:
        r = self.rng
        choice = r.randrange(22)
        if choice == 0:
            raw = self._next(Declaration({PROGRESSIVE: PARAMS}))
            what = "a declaration the meter accepts"
        elif choice == 1:
            raw = self._next(Declaration({PROGRESSIVE: Parameters(PARAMS.initial, 1, PARAMS.rate)}))
            what = "a declaration the meter refuses"
        elif choice == 2:
            raw = self._next(Contribution(PROGRESSIVE, r.randint(1, 7), r.randint(1, 700)))
            what = "a contribution (applied or refused by the last verdict)"
        elif choice == 3:
            ids = list(self.others_ids()) + self.sent_ids
            reused = r.choice(ids) if ids else str(uuid.uuid4())
            raw = self._next(Contribution(PROGRESSIVE, 1, 100), message_id=reused)
            what = "a reused message id"
        elif choice == 4:
            raw = self._next(Contribution(PROGRESSIVE, 1, 100))
            raw["payload"]["wagers"] = r.choice([10**20, 2**63, 2**64 + 1, -1, 0, 1001])  # type: ignore[index]
            what = "a huge or negative count"
        elif choice == 5:
            raw = self._next(Contribution(PROGRESSIVE, 1, 100))
            raw["payload"]["wagered"] = r.choice(  # type: ignore[index]
                ["999999999999999.99", "1000000000.01", "-1.00", "1e9", "NaN", "0.001", ""]
            )
            what = "a huge or malformed amount"
        elif choice == 6:
            raw = self._next(Hit(PROGRESSIVE, 1, "pair of twos", Share(Fraction(100))))
            raw["payload"]["seat"] = r.choice([99999, 0, -3, 10**30, "3", None])  # type: ignore[index]
            what = "a hit at a seat no table has"
        elif choice == 7:
            raw = self._next(Contribution(PROGRESSIVE, 1, 100))
            key = r.choice(["wagers", "wagered", "progressive"])
            raw["payload"][key] = r.choice([5.25, [1], {"a": 1}, True, None, "x" * 300])  # type: ignore[index]
            what = "a wrong type"
        elif choice == 8:
            raw = self._next(Contribution(PROGRESSIVE, 1, 100))
            raw[r.choice(["event_id", "round"])] = "y" * r.choice([201, 5000])
            what = "a string too long"
        elif choice == 9:
            raw = self._next(Contribution(PROGRESSIVE, 1, 100))
            raw["payload"] = r.choice([[], "contribution", 7, {"progressive": PROGRESSIVE}])
            what = "a payload that is not one"
        elif choice == 10:
            raw = self._next(Contribution(PROGRESSIVE, 1, 100))
            raw[f"extra{r.randrange(10)}"] = "?"
            what = "an unknown field"
        elif choice == 11:
            raw = self._next(Contribution(PROGRESSIVE, 1, 100))
            raw["kind"] = r.choice(["award", "refusal", "ack", "x", 1])
            what = "a kind that is not a table's"
        elif choice in (12, 13) and self.next_seq > 1:
            seq = r.randint(1, self.next_seq - 1)
            raw = self._valid(seq, Contribution(PROGRESSIVE, r.randint(1, 7), r.randint(1, 9999)))
            what = "a rewind: an applied seq with another body"
        elif choice == 14:
            raw = self._valid(self.next_seq + r.randint(20_000, 99_000), Contribution(PROGRESSIVE, 1, 100))
            what = "a seq ahead that never fills"
        elif choice == 15:
            raw = self._valid(r.choice([10**12, 2**53 - 1, 2**53, 10**30]), Contribution(PROGRESSIVE, 1, 100))
            what = "a seq far past anything"
        elif choice == 16:
            raw = self._next(Contribution(PROGRESSIVE, 1, 100))
            raw["table"] = r.choice(["t1", "t2", "progressive-meter", "t1/../t2", ""])
            self.next_seq -= 1  # its envelope is not its topic's: the meter records nothing of it
            what = "another table's id on its own topic"
        elif choice == 17:
            data = r.choice(
                [b"", b"\xff\xfe\x00", b"null", b"[]", b"{", b"[" * 10_000, b'{"seq":' + b"9" * 5000 + b"}",
                 json.dumps({"a": [[[[[[]]]]]]}).encode()]
            )  # fmt: skip
            return data, "garbage"
        elif choice == 18:
            raw = self._next(Contribution(PROGRESSIVE, 1, 100))
            raw["pad"] = "z" * (MAX_MESSAGE_BYTES + r.randint(1, 2000))
            self.next_seq -= 1  # not read at all
            what = "past the link's 16 KiB (dropped by the broker; the reader refuses it too)"
        elif choice == 19 and self.oversize and r.random() < 0.02:
            raw = self._next(Contribution(PROGRESSIVE, 1, 100))
            raw["pad"] = "z" * OVER_THE_BROKER
            self.next_seq -= 1  # never reaches the meter
            what = "past the broker's limit"
        elif choice == 20:
            raw = self._next(Contribution(PROGRESSIVE, 1, 100))
            raw["schema"] = r.choice([2, 0, "1", True, None])
            what = "a schema that is not 1"
        else:
            raw = self._next(Contribution(PROGRESSIVE, 1, 100))
            raw["message_id"] = r.choice(["42", "", "not-a-uuid", 7])
            self.next_seq -= 1  # its envelope cannot be read: the meter records nothing of it
            what = "a message id that is not a UUID"
        mid = raw.get("message_id")
        if what != "a message id that is not a UUID" and isinstance(mid, str):
            self.sent_ids.append(mid)
        self.sent.append({"what": what, "seq": raw.get("seq"), "raw": raw})
        return json.dumps(raw).encode(), what
