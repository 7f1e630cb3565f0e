"""The witness on the wire: a table's journal chain head, carried with its traffic and kept by the meter.

A linked table sends, with each outbox message, the seq and keyed hash of the journal record that
caused it (``TableMessage.chain``); the meter keeps the last one of each table and returns it in
its retained ack (``Ack.witness``). A table whose journal no longer holds that record (behind), or
holds another one there (beside: a journal rewritten, or another), learns it at its next start or
reconnect and refuses progressive wagering (docs/progressive-link.md, "The witness"). Optional on
both messages: a message without it reads as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from . import fields as f
from .errors import WireError
from .reader import Obj

_HASH: Final = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class ChainHead:
    """A record of a table's journal: its ``seq`` and its keyed hash (64 hex digits)."""

    seq: int
    hash: str

    def to_json(self) -> dict[str, object]:
        return {"seq": self.seq, "hash": self.hash}


def chain_head(value: object, path: str) -> ChainHead:
    obj = Obj(value, path)
    seq = obj.get("seq", f.count)
    digest = obj.get("hash", _hash)
    obj.done()
    return ChainHead(seq, digest)


def _hash(value: object, field: str) -> str:
    if not isinstance(value, str) or not _HASH.fullmatch(value):
        raise WireError(field, f"{str(value)[:80]!r} is not a record's hash (64 lowercase hex digits)")
    return value
